/* test_fetlar.c - Fetlar Hnefatafl rules (RULES.md §2): every rule edge case
 * of issue 6, position strings, notation, perft from the start, and a
 * second, naive move generator that must agree with the fast one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"
#include "engines/fetlar/eval.h"
#include "engines/fetlar/fetlar.h"
#include "fetlar_setup.h"

static const struct game *G;

/* ---- helpers -------------------------------------------------------------- */

static int try_move(struct fetlar_state *s, const char *mv)
{
    gmove m;
    char err[GAME_ERR_LEN];
    int rc = G->parse_move(s, mv, &m, err, sizeof err);
    if (rc == GAME_OK)
        G->play(s, m);
    return rc;
}

static void must_play(struct fetlar_state *s, const char *mv)
{
    int rc = try_move(s, mv);
    if (rc)
        fprintf(stderr, "move %s refused\n", mv);
    assert_int_equal(rc, GAME_OK);
}

static char at(const struct fetlar_state *s, const char *sq)
{
    int c = sq[0] - 'a', r = 0;
    sscanf(sq + 1, "%d", &r);
    return " tTK"[s->board[(r - 1) * 11 + c]];
}

static const char *outcome(const struct fetlar_state *s, const char **why)
{
    struct game_result r;
    G->result(s, NULL, 0, &r);
    if (why)
        *why = r.over ? r.reason : "";
    return game_outcome2(&r);
}

static int is_legal(const struct fetlar_state *s, const char *mv)
{
    gmove m;
    char err[GAME_ERR_LEN];
    return G->parse_move(s, mv, &m, err, sizeof err) == GAME_OK;
}

/* ---- the table, position strings, notation --------------------------------- */

static void test_table(void **state)
{
    (void)state;
    char err[GAME_ERR_LEN];
    assert_int_equal(game_check(G, err, sizeof err), 0);
    assert_ptr_equal(game_find("fetlar"), &fetlar_game);
    assert_int_equal(G->config_size, 0);
    char cfg[8];
    G->config_default(cfg);
    assert_int_equal(G->config_set(cfg, "size", "9", err, sizeof err),
                     GAME_EVALUE);
    char buf[16];
    G->config_format(cfg, buf, sizeof buf);
    assert_string_equal(buf, "");
}

static void test_start_string(void **state)
{
    (void)state;
    struct fetlar_state s;
    G->start(&s, NULL);
    char buf[256];
    G->format_pos(&s, buf, sizeof buf);
    assert_string_equal(buf, "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/"
                             "t3TTT3t/t4T4t/11/5t5/3ttttt3/ b 0");
    assert_int_equal(G->to_move(&s), 1);
    assert_int_equal(s.natt, 24);
    assert_int_equal(s.ndef, 12);
    assert_int_equal(s.king, FETLAR_THRONE);
    assert_int_equal(at(&s, "f6"), 'K');
    assert_int_equal(at(&s, "d1"), 't');
    assert_int_equal(at(&s, "b6"), 't');
    assert_int_equal(at(&s, "e5"), 'T');
    assert_string_equal(outcome(&s, NULL), "none");
    char show[1024];
    G->show(&s, show, sizeof show);
    assert_non_null(strstr(show, "a b c d e f g h i j k"));
}

static void test_pos_errors(void **state)
{
    (void)state;
    struct fetlar_state s, before;
    char err[GAME_ERR_LEN];
    G->start(&s, NULL);
    memcpy(&before, &s, sizeof s);
    static const struct {
        const char *fen;
        int rc;
    } bad[] = {
        {"", GAME_ESYNTAX},
        {"/11/11/11/11/11/11/11/11/11/11/ b 0", GAME_ESYNTAX}, /* 10 ranks */
        {"/11/11/11/11/11/5K5/11/11/11/11/10/ b 0", GAME_ESYNTAX},
        {"/11/11/11/11/11/5K5/11/11/11/11/12/ b 0", GAME_ESYNTAX},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/ x 0", GAME_ESYNTAX},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/", GAME_ESYNTAX},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/ b 101", GAME_EVALUE},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/ b -1", GAME_EVALUE},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/ b z", GAME_ESYNTAX},
        {"/11/11/11/11/11/5K5/11/11/11/11/11/ b 0 9", GAME_ESYNTAX},
        {"/11/11/11/11/11/5Kx4/11/11/11/11/11/ b 0", GAME_ESYNTAX},
        {"/11/11/11/11/11/5t5/11/11/11/11/11/ b 0", GAME_EPOSITION},
        {"/T10/11/11/11/11/5K5/11/11/11/11/11/ b 0", GAME_EPOSITION},
        {"/11/11/11/11/11/4KK5/11/11/11/11/11/ b 0", GAME_EPOSITION},
        {"/11/11/11/11/11/05K5/11/11/11/11/11/ b 0", GAME_ESYNTAX},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        int rc = G->parse_pos(&s, NULL, bad[i].fen, err, sizeof err);
        if (rc != bad[i].rc)
            fprintf(stderr, "'%s' -> %d (%s)\n", bad[i].fen, rc, err);
        assert_int_equal(rc, bad[i].rc);
        assert_memory_equal(&s, &before, sizeof s);
    }
    /* Without the slashes at the ends and without the counter: accepted. */
    assert_int_equal(G->parse_pos(&s, NULL,
                                  "11/11/11/11/11/5K5/11/11/11/11/11 w", err,
                                  sizeof err),
                     GAME_OK);
    char buf[256];
    G->format_pos(&s, buf, sizeof buf);
    assert_string_equal(buf, "/11/11/11/11/11/5K5/11/11/11/11/11/ w 0");
}

static void test_round_trip(void **state)
{
    (void)state;
    struct fetlar_state s, t;
    struct rng rng;
    rng_seed(&rng, 7);
    char a[256], b[256], err[GAME_ERR_LEN];
    for (int game = 0; game < 20; game++) {
        G->start(&s, NULL);
        for (int ply = 0; ply < 200; ply++) {
            G->format_pos(&s, a, sizeof a);
            assert_int_equal(G->parse_pos(&t, NULL, a, err, sizeof err), 0);
            G->format_pos(&t, b, sizeof b);
            assert_string_equal(a, b);
            assert_true(G->hash(&s) == G->hash(&t));
            assert_memory_equal(&s, &t, sizeof s);
            gmove mv[FETLAR_MAX_MOVES];
            int n = G->gen_moves(&s, mv, FETLAR_MAX_MOVES);
            if (n <= 0)
                break;
            G->play(&s, mv[rng_below(&rng, (uint64_t)n)]);
        }
    }
}

static void test_notation(void **state)
{
    (void)state;
    struct fetlar_state s;
    G->start(&s, NULL);
    gmove m, m2;
    char err[GAME_ERR_LEN], buf[16];
    assert_int_equal(G->parse_move(&s, "e1-e4", &m, err, sizeof err), 0);
    assert_int_equal(G->parse_move(&s, "e1e4", &m2, err, sizeof err), 0);
    assert_true(m == m2);
    G->format_move(&s, m, buf, sizeof buf);
    assert_string_equal(buf, "e1-e4");
    assert_int_equal(G->parse_move(&s, "k4-j4", &m, err, sizeof err), 0);
    G->format_move(&s, m, buf, sizeof buf);
    assert_string_equal(buf, "k4-j4");
    assert_int_equal(G->parse_move(&s, "f11-f11", &m, err, sizeof err),
                     GAME_EILLEGAL);
    assert_int_equal(G->parse_move(&s, "d11-d10", &m, err, sizeof err), 0);
    G->format_move(&s, m, buf, sizeof buf);
    assert_string_equal(buf, "d11-d10");
    assert_int_equal(G->parse_move(&s, "e5-e3", &m, err, sizeof err),
                     GAME_EILLEGAL); /* white piece, black to move */
    assert_int_equal(G->parse_move(&s, "e1-e5", &m, err, sizeof err),
                     GAME_EILLEGAL); /* blocked */
    assert_int_equal(G->parse_move(&s, "e1-f2", &m, err, sizeof err),
                     GAME_EILLEGAL); /* diagonal */
    const char *syn[] = {"", "e1", "e1-", "e1--e4", "l1-l2", "e0-e4",
                         "e12-e4", "e1-e4x", "pass", "e1 e4"};
    for (size_t i = 0; i < ARRAY_LEN(syn); i++)
        assert_int_equal(G->parse_move(&s, syn[i], &m, err, sizeof err),
                         GAME_ESYNTAX);
}

/* ---- movement --------------------------------------------------------------- */

static void test_throne_and_corners_movement(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* Passing through the empty throne is fine; stopping there is not. */
    setup(&s, "Kb3 tf3 Tf9", 'b', 0);
    assert_true(is_legal(&s, "f3-f8"));
    assert_true(is_legal(&s, "f3-f7"));
    assert_false(is_legal(&s, "f3-f6"));
    setup(&s, "Kb3 tf3 tf9", 'w', 0);
    assert_true(is_legal(&s, "b3-b10"));
    setup(&s, "Kb3 Tf3 tf9", 'w', 0);
    assert_true(is_legal(&s, "f3-f8"));
    assert_false(is_legal(&s, "f3-f6"));
    /* The king may stop on the throne. */
    setup(&s, "Kf3 tf9 ta3", 'w', 0);
    assert_true(is_legal(&s, "f3-f6"));
    assert_true(is_legal(&s, "f3-f8"));
    /* The throne holding the king blocks everybody. */
    setup(&s, "Kf6 tf3", 'b', 0);
    assert_true(is_legal(&s, "f3-f5"));
    assert_false(is_legal(&s, "f3-f7"));
    /* Nobody but the king enters a corner. */
    setup(&s, "Kf6 ta5 Tk5", 'b', 0);
    assert_true(is_legal(&s, "a5-a2"));
    assert_false(is_legal(&s, "a5-a1"));
    assert_true(is_legal(&s, "a5-a10"));
    assert_false(is_legal(&s, "a5-a11"));
    setup(&s, "Kf6 ta5 Tk5", 'w', 0);
    assert_false(is_legal(&s, "k5-k1"));
    assert_false(is_legal(&s, "k5-k11"));
    assert_true(is_legal(&s, "k5-k2"));
    /* No jumping. */
    setup(&s, "Kf6 ta5 Ta7", 'b', 0);
    assert_false(is_legal(&s, "a5-a8"));
    assert_true(is_legal(&s, "a5-a6"));
}

/* ---- soldier captures ---------------------------------------------------------- */

static void test_capture_empty_throne(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* Attackers capture a defender against the empty throne. */
    setup(&s, "Kc3 Tf7 th8", 'b', 0);
    must_play(&s, "h8-f8");
    assert_int_equal(at(&s, "f7"), ' ');
    assert_int_equal(s.ndef, 0);
    assert_int_equal(s.quiet, 0);
    /* Defenders capture an attacker against the empty throne. */
    setup(&s, "Kc3 te6 Td2", 'w', 7);
    must_play(&s, "d2-d6");
    assert_int_equal(at(&s, "e6"), ' ');
    assert_int_equal(s.natt, 0);
    assert_int_equal(s.quiet, 0);
    /* Hostile from every side: below the throne too. */
    setup(&s, "Kc3 Tf5 th4", 'b', 0);
    must_play(&s, "h4-f4");
    assert_int_equal(at(&s, "f5"), ' ');
}

static void test_throne_with_king(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* The occupied throne is not hostile to defenders. */
    setup(&s, "Kf6 Tf7 th8", 'b', 3);
    must_play(&s, "h8-f8");
    assert_int_equal(at(&s, "f7"), 'T');
    assert_int_equal(s.quiet, 4);
    /* ... but the king on it is hostile to attackers. */
    setup(&s, "Kf6 te6 Td2", 'w', 0);
    must_play(&s, "d2-d6");
    assert_int_equal(at(&s, "e6"), ' ');
}

static void test_corners_hostile(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Kf6 tb1 Tc5", 'w', 0);
    must_play(&s, "c5-c1");
    assert_int_equal(at(&s, "b1"), ' ');
    setup(&s, "Kf6 Ta2 tc3", 'b', 0);
    must_play(&s, "c3-a3");
    assert_int_equal(at(&s, "a2"), ' ');
    setup(&s, "Kf6 Tk10 tj9", 'b', 0);
    must_play(&s, "j9-k9");
    assert_int_equal(at(&s, "k10"), ' ');
    setup(&s, "Kf6 tj11 Ti5", 'w', 0);
    must_play(&s, "i5-i11");
    assert_int_equal(at(&s, "j11"), ' ');
}

static void test_armed_king(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* The king is the hammer ... */
    setup(&s, "Ke3 Tc5 td5", 'w', 0);
    must_play(&s, "e3-e5");
    assert_int_equal(at(&s, "d5"), ' ');
    /* ... and the anvil. */
    setup(&s, "Kc5 td5 Te2", 'w', 0);
    must_play(&s, "e2-e5");
    assert_int_equal(at(&s, "d5"), ' ');
    /* The king against a corner. */
    setup(&s, "Kd1 tb1", 'w', 0);
    must_play(&s, "d1-c1");
    assert_int_equal(at(&s, "b1"), ' ');
}

static void test_safe_between_enemies(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Kj2 td5 tf5 Te9", 'w', 0);
    must_play(&s, "e9-e5");
    assert_int_equal(at(&s, "e5"), 'T');
    assert_int_equal(at(&s, "d5"), 't');
    assert_int_equal(at(&s, "f5"), 't');
    /* Into a corner pincer, and between the throne and an enemy. */
    setup(&s, "Kj2 Ta3 te2", 'b', 0);
    must_play(&s, "e2-a2");
    assert_int_equal(at(&s, "a2"), 't');
    setup(&s, "Kj2 td6 Te2", 'w', 0);
    must_play(&s, "e2-e6");
    assert_int_equal(at(&s, "e6"), 'T');
    /* The king walking between two attackers is not captured. */
    setup(&s, "Ke2 td5 tf5", 'w', 0);
    must_play(&s, "e2-e5");
    assert_int_equal(at(&s, "e5"), 'K');
    assert_string_equal(outcome(&s, NULL), "none");
    /* A soldier only captures along the line: no diagonal capture. */
    setup(&s, "Kj2 Td6 te5 Tc4", 'w', 0);
    must_play(&s, "c4-d4");
    assert_int_equal(at(&s, "e5"), 't');
}

static void test_multi_capture(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* Two at once (e4 has no partner on e3). */
    setup(&s, "Kj2 Tc5 td5 te6 Te7 te4 Th5", 'w', 5);
    must_play(&s, "h5-e5");
    assert_int_equal(at(&s, "d5"), ' ');
    assert_int_equal(at(&s, "e6"), ' ');
    assert_int_equal(at(&s, "e4"), 't');
    assert_int_equal(s.natt, 1);
    /* Attackers take two defenders. */
    setup(&s, "Kj2 tc5 Td5 Te6 te7 th5", 'b', 5);
    must_play(&s, "h5-e5");
    assert_int_equal(at(&s, "d5"), ' ');
    assert_int_equal(at(&s, "e6"), ' ');
    assert_int_equal(s.ndef, 0);
    /* e5 arriving: captures d5 (against c5), e6 (against e7), e4 (e3). */
    setup(&s, "Kj2 Tc5 td5 te6 Te7 te4 Te3 Th5", 'w', 12);
    must_play(&s, "h5-e5");
    assert_int_equal(at(&s, "d5"), ' ');
    assert_int_equal(at(&s, "e6"), ' ');
    assert_int_equal(at(&s, "e4"), ' ');
    assert_int_equal(s.natt, 0);
    assert_int_equal(s.quiet, 0);
}

/* ---- the king ---------------------------------------------------------------- */

static void test_king_captured_by_four(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ke5 te6 te4 td5 th5", 'b', 20);
    must_play(&s, "h5-f5");
    const char *why;
    assert_string_equal(outcome(&s, &why), "p1win");
    assert_string_equal(why, "king_captured");
    assert_int_equal(s.king, FETLAR_NOSQ);
    assert_int_equal(at(&s, "e5"), ' ');
    assert_int_equal(s.quiet, 0);
    gmove mv[8];
    assert_int_equal(G->gen_moves(&s, mv, 8), 0);
    /* The finished position round-trips (no king = captured). */
    char buf[256], err[GAME_ERR_LEN];
    struct fetlar_state t;
    G->format_pos(&s, buf, sizeof buf);
    assert_int_equal(G->parse_pos(&t, NULL, buf, err, sizeof err), 0);
    assert_string_equal(outcome(&t, NULL), "p1win");
    assert_int_equal(G->parse_move(&t, "f5-f4", &mv[0], err, sizeof err),
                     GAME_EOVER);
    /* The king on his throne needs all four. */
    setup(&s, "Kf6 te6 tg6 tf7 th5", 'b', 0);
    must_play(&s, "h5-f5");
    assert_string_equal(outcome(&s, NULL), "p1win");
}

static void test_king_three_plus_throne(void **state)
{
    (void)state;
    struct fetlar_state s;
    const char *why;
    /* King on f5 beside the empty throne (f6). */
    setup(&s, "Kf5 tf4 te5 th5", 'b', 0);
    must_play(&s, "h5-g5");
    assert_string_equal(outcome(&s, &why), "p1win");
    assert_string_equal(why, "king_captured");
    /* Beside the throne on each side. */
    setup(&s, "Kg6 th6 tg5 tj7", 'b', 0);
    must_play(&s, "j7-g7");
    assert_string_equal(outcome(&s, NULL), "p1win");
    /* Three attackers away from the throne are not enough. */
    setup(&s, "Ke4 te3 td4 th5", 'b', 0);
    must_play(&s, "h5-e5");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_int_equal(at(&s, "e4"), 'K');
    /* A defender as the fourth side saves him. */
    setup(&s, "Kf5 tf4 Te5 th5", 'b', 0);
    must_play(&s, "h5-g5");
    assert_string_equal(outcome(&s, NULL), "none");
}

static void test_king_never_by_two(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ke5 td5 th5", 'b', 0);
    must_play(&s, "h5-f5");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_int_equal(at(&s, "e5"), 'K');
    setup(&s, "Ke5 te4 th6", 'b', 0);
    must_play(&s, "h6-e6");
    assert_string_equal(outcome(&s, NULL), "none");
    /* Diagonals never count. */
    setup(&s, "Ke4 td3 tf3 td5 th5", 'b', 0);
    must_play(&s, "h5-f5");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_int_equal(at(&s, "e4"), 'K');
}

static void test_king_edge_uncapturable(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ka5 ta4 tb5 tc6 Tk5", 'b', 0);
    must_play(&s, "c6-a6");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_int_equal(at(&s, "a5"), 'K');
    setup(&s, "Kf1 te1 tf2 th1 Tk5", 'b', 0);
    must_play(&s, "h1-g1");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_int_equal(at(&s, "f1"), 'K');
    assert_int_equal(s.over, FETLAR_PLAYING);
    /* Boxed in on the edge: white simply has no move and loses. */
    const char *why;
    setup(&s, "Kf1 te1 tf2 tg1 tk10", 'w', 0);
    assert_string_equal(outcome(&s, &why), "p1win");
    assert_string_equal(why, "no_moves");
}

static void test_king_escape(void **state)
{
    (void)state;
    struct fetlar_state s;
    const char *why;
    setup(&s, "Ka5 te8 th7", 'w', 0);
    assert_true(is_legal(&s, "a5-a1"));
    assert_true(is_legal(&s, "a5-a11"));
    must_play(&s, "a5-a1");
    assert_string_equal(outcome(&s, &why), "p2win");
    assert_string_equal(why, "king_escaped");
    gmove mv[8];
    assert_int_equal(G->gen_moves(&s, mv, 8), 0);
    assert_int_equal(G->count_moves(&s), 0);
    /* An ordinary edge square wins nothing. */
    setup(&s, "Kd5 te8 th7", 'w', 0);
    must_play(&s, "d5-a5");
    assert_string_equal(outcome(&s, NULL), "none");
    /* Blocked route. */
    setup(&s, "Ka5 ta3 th7", 'w', 0);
    assert_false(is_legal(&s, "a5-a1"));
    assert_int_equal(fetlar_king_corner_routes(&s), 1 << 2); /* a11 */
    setup(&s, "Ka5 th7", 'w', 0);
    assert_int_equal(fetlar_king_corner_routes(&s), (1 << 0) | (1 << 2));
    setup(&s, "Kk11 th7", 'b', 0); /* a position with the king home */
    assert_string_equal(outcome(&s, NULL), "p2win");
}

static void test_no_encirclement_win(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* Every defender enclosed by a closed ring of attackers; black to
     * move: nothing is won, play goes on. */
    setup(&s,
          "Kf6 Tf5 te4 tf4 tg4 te8 tf8 tg8 td5 td6 td7 th5 th6 th7 tk2",
          'b', 0);
    must_play(&s, "k2-k3");
    assert_string_equal(outcome(&s, NULL), "none");
    assert_true(is_legal(&s, "f5-e5"));
    assert_true(G->count_moves(&s) > 0);
}

static void test_no_legal_move_loses(void **state)
{
    (void)state;
    struct fetlar_state s;
    const char *why;
    /* White's every piece is walled in. */
    setup(&s, "Kf6 te6 tg6 tf7 Tf5 te5 tg5 tf4", 'w', 0);
    assert_int_equal(G->count_moves(&s), 0);
    assert_string_equal(outcome(&s, &why), "p1win");
    assert_string_equal(why, "no_moves");
    char err[GAME_ERR_LEN];
    gmove m;
    assert_int_equal(G->parse_move(&s, "f5-f4", &m, err, sizeof err),
                     GAME_EOVER);
    /* Black without a piece that can move loses too. */
    setup(&s, "Ka5 tb1 Tc1 Tb2", 'b', 0);
    assert_string_equal(outcome(&s, &why), "p2win");
    assert_string_equal(why, "no_moves");
    setup(&s, "Ka5", 'b', 0);
    assert_string_equal(outcome(&s, NULL), "p2win");
}

static void test_hundred_plies(void **state)
{
    (void)state;
    struct fetlar_state s;
    const char *why;
    setup(&s, "Ka5 th7 Tc3", 'b', 98);
    must_play(&s, "h7-h8");
    assert_int_equal(s.quiet, 99);
    assert_string_equal(outcome(&s, NULL), "none");
    must_play(&s, "c3-c4");
    assert_int_equal(s.quiet, 100);
    assert_string_equal(outcome(&s, &why), "draw");
    assert_string_equal(why, "no_capture");
    gmove mv[8];
    assert_int_equal(G->gen_moves(&s, mv, 8), 0);
    /* A capture on the 100th ply resets the count instead. */
    setup(&s, "Kj2 Tc5 td5 Th4", 'w', 99);
    must_play(&s, "h4-h5");
    assert_int_equal(s.quiet, 100);
    assert_string_equal(outcome(&s, NULL), "draw");
    setup(&s, "Kj2 Tc5 td5 Th5 tk9", 'w', 99);
    must_play(&s, "h5-e5");
    assert_int_equal(s.quiet, 0);
    assert_string_equal(outcome(&s, NULL), "none");
    /* A king escape on the 100th ply still wins. */
    setup(&s, "Ka5 th7", 'w', 99);
    must_play(&s, "a5-a1");
    assert_string_equal(outcome(&s, NULL), "p2win");
}

static void test_threefold(void **state)
{
    (void)state;
    struct fetlar_state s;
    uint64_t hist[16];
    int n = 0;
    struct game_result r;
    setup(&s, "Ka5 th7 Tc3", 'b', 0);
    const char *cycle[] = {"h7-h8", "c3-c4", "h8-h7", "c4-c3"};
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            G->result(&s, hist, n, &r);
            assert_int_equal(r.over, 0);
            hist[n++] = G->hash(&s);
            must_play(&s, cycle[i]);
        }
    /* The start position now stands for the third time. */
    G->result(&s, hist, n, &r);
    assert_int_equal(r.over, 1);
    assert_string_equal(game_outcome2(&r), "draw");
    assert_string_equal(r.reason, "repetition");
    /* Twice is not enough; the side to move is part of the position. */
    G->result(&s, hist + 4, n - 4, &r);
    assert_int_equal(r.over, 0);
    G->result(&s, NULL, 0, &r);
    assert_int_equal(r.over, 0);
    struct fetlar_state w;
    setup(&w, "Ka5 th7 Tc3", 'w', 0);
    assert_true(G->hash(&w) != G->hash(&s));
}

/* ---- perft, and a naive second implementation --------------------------------- */

static uint64_t perft(const struct fetlar_state *s, int d)
{
    if (d == 1)
        return (uint64_t)G->count_moves(s);
    gmove mv[FETLAR_MAX_MOVES];
    int n = G->gen_moves(s, mv, FETLAR_MAX_MOVES);
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        struct fetlar_state c = *s;
        G->play(&c, mv[i]);
        t += perft(&c, d - 1);
    }
    return t;
}

static void test_perft_start(void **state)
{
    (void)state;
    struct fetlar_state s;
    G->start(&s, NULL);
    assert_true(perft(&s, 1) == 116);
    assert_true(perft(&s, 2) == 6788);
    assert_true(perft(&s, 3) == 806344);
    gmove mv[FETLAR_MAX_MOVES];
    assert_int_equal(G->gen_moves(&s, mv, FETLAR_MAX_MOVES), 116);
    assert_int_equal(G->gen_moves(&s, mv, 100), -1);
}

/* The fast copies of the hot routines (POPCNT, BMI; fetlar_fast_cpu) give
 * the same counts, two-ply counts and evaluation (every term) as the
 * portable ones over random games, and perft 3 both ways; where the
 * processor has the instructions the fast copy is the default (unless
 * MEDAN_CPU=portable). */
static void test_fast_path_same(void **state)
{
    const bool fast = fetlar_fast_cpu(-1);
    bool have;
    struct rng r;
    long positions = 0;
    (void)state;
    have = fetlar_fast_cpu(1);
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2")) {
        const char *env = getenv("MEDAN_CPU");
        assert_true(have);
        if (!env || strcmp(env, "portable"))
            assert_true(fast);
    }
#endif
    if (!have) {
        printf("test_fast_path_same: this processor has no fast copy; portable only\n");
        fetlar_fast_cpu(fast);
        return;
    }
    rng_seed(&r, 2026);
    for (int game = 0; game < 30; game++) {
        struct fetlar_state s;
        G->start(&s, NULL);
        for (int ply = 0; ply < 160; ply++) {
            gmove mv[FETLAR_MAX_MOVES];
            struct fetlar_terms ta, tb;
            int n, ca, cb, ea, eb;
            uint64_t pa, pb;
            fetlar_fast_cpu(0);
            memset(&ta, 0, sizeof ta);
            ca = fetlar_count(&s);
            pa = fetlar_perft2(&s);
            ea = fetlar_evaluate(&s, NULL, &ta);
            fetlar_fast_cpu(1);
            memset(&tb, 0, sizeof tb);
            cb = fetlar_count(&s);
            pb = fetlar_perft2(&s);
            eb = fetlar_evaluate(&s, NULL, &tb);
            assert_int_equal(ca, cb);
            assert_true(pa == pb);
            assert_int_equal(ea, eb);
            assert_memory_equal(&ta, &tb, sizeof ta);
            positions++;
            n = G->gen_moves(&s, mv, FETLAR_MAX_MOVES);
            if (n <= 0)
                break;
            G->play(&s, mv[rng_below(&r, (uint64_t)n)]);
        }
    }
    assert_true(positions > 1000);
    for (int f = 0; f < 2; f++) {
        struct fetlar_state s;
        fetlar_fast_cpu(f);
        assert_true(fetlar_fast_cpu(-1) == (f == 1));
        G->start(&s, NULL);
        assert_true(perft(&s, 3) == 806344);
        assert_true(fetlar_perft2(&s) == 6788);
    }
    fetlar_fast_cpu(fast);
}

/* The naive implementation: a char grid, step-by-step rays. */
struct ref {
    char g[11][11]; /* ' ' 't' 'T' 'K' */
    int white, quiet, over;
};

static int ref_special(int r, int c)
{
    return ((r == 0 || r == 10) && (c == 0 || c == 10)) || (r == 5 && c == 5);
}

static void ref_load(struct ref *x, const struct fetlar_state *s)
{
    char buf[256];
    G->format_pos(s, buf, sizeof buf);
    memset(x, 0, sizeof *x);
    const char *p = buf + 1;
    int kings = 0;
    for (int r = 0; r < 11; r++, p++)
        for (int c = 0; c < 11;) {
            if (*p >= '0' && *p <= '9') {
                int v = 0;
                while (*p >= '0' && *p <= '9')
                    v = v * 10 + (*p++ - '0');
                while (v--)
                    x->g[r][c++] = ' ';
            } else {
                kings += *p == 'K';
                x->g[r][c++] = *p++;
            }
        }
    x->white = p[1] == 'w';
    x->quiet = atoi(p + 3);
    x->over = !kings;
    for (int r = 0; r < 11; r++)
        for (int c = 0; c < 11; c++)
            if (x->g[r][c] == 'K' && ref_special(r, c) && !(r == 5 && c == 5))
                x->over = 1;
}

static const int DR[4] = {1, -1, 0, 0}, DC[4] = {0, 0, 1, -1};

static int ref_moves(const struct ref *x, int (*mv)[4])
{
    if (x->over || x->quiet >= 100)
        return 0;
    int n = 0;
    for (int r = 0; r < 11; r++)
        for (int c = 0; c < 11; c++) {
            char p = x->g[r][c];
            if (p == ' ' || (p == 't') == x->white)
                continue;
            for (int d = 0; d < 4; d++)
                for (int rr = r + DR[d], cc = c + DC[d];
                     rr >= 0 && rr < 11 && cc >= 0 && cc < 11 &&
                     x->g[rr][cc] == ' ';
                     rr += DR[d], cc += DC[d]) {
                    if (p != 'K' && ref_special(rr, cc))
                        continue;
                    mv[n][0] = r, mv[n][1] = c, mv[n][2] = rr, mv[n][3] = cc;
                    n++;
                }
        }
    return n;
}

static int ref_in(int r, int c) { return r >= 0 && r < 11 && c >= 0 && c < 11; }

static void ref_play(struct ref *x, const int *m)
{
    char p = x->g[m[0]][m[1]];
    x->g[m[0]][m[1]] = ' ';
    x->g[m[2]][m[3]] = p;
    int caught = 0, r = m[2], c = m[3];
    if (p == 'K' && ref_special(r, c) && !(r == 5 && c == 5))
        x->over = 1;
    for (int d = 0; d < 4; d++) {
        int nr = r + DR[d], nc = c + DC[d];
        if (!ref_in(nr, nc))
            continue;
        char q = x->g[nr][nc];
        int enemy = q != ' ' && ((q == 't') != (p == 't'));
        if (!enemy)
            continue;
        if (q == 'K') {
            if (nr == 0 || nr == 10 || nc == 0 || nc == 10)
                continue;
            int closed = 1;
            for (int e = 0; e < 4; e++) {
                int ar = nr + DR[e], ac = nc + DC[e];
                if (x->g[ar][ac] != 't' && !(ar == 5 && ac == 5))
                    closed = 0;
            }
            if (closed) {
                x->g[nr][nc] = ' ';
                x->over = 1;
                caught++;
            }
            continue;
        }
        int fr = nr + DR[d], fc = nc + DC[d];
        if (!ref_in(fr, fc))
            continue;
        char f = x->g[fr][fc];
        int hostile = f == ' ' ? ref_special(fr, fc)
                               : ((f == 't') == (p == 't'));
        if (hostile) {
            x->g[nr][nc] = ' ';
            caught++;
        }
    }
    x->quiet = caught ? 0 : x->quiet + 1;
    x->white = !x->white;
}

static uint64_t ref_perft(const struct ref *x, int d)
{
    int mv[FETLAR_MAX_MOVES][4];
    int n = ref_moves(x, mv);
    if (d == 1)
        return (uint64_t)n;
    uint64_t t = 0;
    for (int i = 0; i < n; i++) {
        struct ref y = *x;
        ref_play(&y, mv[i]);
        t += ref_perft(&y, d - 1);
    }
    return t;
}

static void test_reference_agrees(void **state)
{
    (void)state;
    struct fetlar_state s;
    struct ref x;
    struct rng rng;
    rng_seed(&rng, 2024);
    G->start(&s, NULL);
    ref_load(&x, &s);
    assert_true(ref_perft(&x, 2) == 6788);
    /* Random games, biased towards captures and king moves so that the
     * endings come up; compare perft 2 everywhere along them. */
    int positions = 0;
    for (int game = 0; game < 40; game++) {
        G->start(&s, NULL);
        for (int ply = 0; ply < 300; ply++) {
            ref_load(&x, &s);
            assert_true(perft(&s, 2) == ref_perft(&x, 2));
            assert_true(perft(&s, 1) == ref_perft(&x, 1));
            positions++;
            gmove mv[FETLAR_MAX_MOVES];
            int n = G->gen_moves(&s, mv, FETLAR_MAX_MOVES);
            if (n <= 0)
                break;
            /* fetlar_captures decides without playing: it must agree
             * with playing the move, for every move. */
            gmove tac[FETLAR_MAX_MOVES];
            int ntac = fetlar_gen_tactical(&s, tac, FETLAR_MAX_MOVES), k = 0;
            for (int i = 0; i < n; i++) {
                struct fetlar_state t = s;
                int caught = fetlar_play(&t, mv[i]) > 0;
                assert_int_equal(fetlar_captures(&s, mv[i]), caught);
                assert_int_equal(fetlar_has_move(&t), fetlar_count(&t) > 0);
                /* The quiescence moves: exactly the captures and the
                 * king's escapes, in generation order. */
                if (caught || t.over == FETLAR_ESCAPED) {
                    assert_true(k < ntac);
                    assert_true(tac[k++] == mv[i]);
                }
            }
            assert_int_equal(k, ntac);
            gmove pick = mv[rng_below(&rng, (uint64_t)n)];
            for (int i = 0; i < n; i++)
                if (fetlar_captures(&s, mv[i]) && rng_below(&rng, 2)) {
                    pick = mv[i];
                    break;
                }
            /* Play it on both and compare the resulting strings. */
            int m4[4] = {FETLAR_FROM(pick) / 11, FETLAR_FROM(pick) % 11,
                         FETLAR_TO(pick) / 11, FETLAR_TO(pick) % 11};
            ref_play(&x, m4);
            int caught = fetlar_play(&s, pick);
            struct ref y;
            ref_load(&y, &s);
            assert_memory_equal(x.g, y.g, sizeof x.g);
            assert_int_equal(x.white, y.white);
            assert_int_equal(x.quiet, y.quiet);
            assert_int_equal(caught > 0, s.quiet == 0);
        }
    }
    assert_true(positions > 1000);
}

/* fetlar_perft2 counts the replies of the quiet moves without playing
 * them; it must agree with playing every move and counting (perft 2 above),
 * and fetlar_count with generating.  Random games biased towards captures
 * and king moves, each position also with the other side to move and on
 * the last plies before the 100-ply rule. */
static void test_perft2_agrees(void **state)
{
    (void)state;
    struct fetlar_state s;
    struct rng rng;
    rng_seed(&rng, 4711);
    G->start(&s, NULL);
    assert_true(fetlar_perft2(&s) == 6788);
    int positions = 0, captures = 0, escapes = 0;
    for (int game = 0; game < 60; game++) {
        G->start(&s, NULL);
        for (int ply = 0; ply < 300; ply++) {
            for (int v = 0; v < 6; v++) {
                struct fetlar_state t = s;
                if (v & 1)
                    fetlar_pass(&t);
                if (v >= 2)
                    t.quiet = (uint8_t)(v >= 4 ? 99 : 98);
                gmove mv[FETLAR_MAX_MOVES];
                int n = G->gen_moves(&t, mv, FETLAR_MAX_MOVES);
                assert_int_equal(fetlar_count(&t), n);
                uint64_t sum = 0;
                for (int i = 0; i < n; i++) {
                    struct fetlar_state c = t;
                    captures += fetlar_play(&c, mv[i]) > 0;
                    escapes += c.over == FETLAR_ESCAPED;
                    sum += (uint64_t)fetlar_count(&c);
                }
                if (fetlar_perft2(&t) != sum) {
                    char buf[256];
                    G->format_pos(&t, buf, sizeof buf);
                    fprintf(stderr, "perft2 %llu, played %llu: %s\n",
                            (unsigned long long)fetlar_perft2(&t),
                            (unsigned long long)sum, buf);
                }
                assert_true(fetlar_perft2(&t) == sum);
                positions++;
            }
            gmove mv[FETLAR_MAX_MOVES];
            int n = G->gen_moves(&s, mv, FETLAR_MAX_MOVES);
            if (n <= 0)
                break;
            gmove pick = mv[rng_below(&rng, (uint64_t)n)];
            for (int i = 0; i < n; i++)
                if ((fetlar_captures(&s, mv[i]) || FETLAR_FROM(mv[i]) == s.king) &&
                    rng_below(&rng, 3) == 0) {
                    pick = mv[i];
                    break;
                }
            G->play(&s, pick);
        }
    }
    /* the played-out branches of perft2 were taken */
    assert_true(positions > 5000);
    assert_true(captures > 1000);
    assert_true(escapes > 100);
}

int main(void)
{
    G = game_find("fetlar");
    if (!G) {
        fprintf(stderr, "fetlar is not registered\n");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_start_string),
        cmocka_unit_test(test_pos_errors),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_throne_and_corners_movement),
        cmocka_unit_test(test_capture_empty_throne),
        cmocka_unit_test(test_throne_with_king),
        cmocka_unit_test(test_corners_hostile),
        cmocka_unit_test(test_armed_king),
        cmocka_unit_test(test_safe_between_enemies),
        cmocka_unit_test(test_multi_capture),
        cmocka_unit_test(test_king_captured_by_four),
        cmocka_unit_test(test_king_three_plus_throne),
        cmocka_unit_test(test_king_never_by_two),
        cmocka_unit_test(test_king_edge_uncapturable),
        cmocka_unit_test(test_king_escape),
        cmocka_unit_test(test_no_encirclement_win),
        cmocka_unit_test(test_no_legal_move_loses),
        cmocka_unit_test(test_hundred_plies),
        cmocka_unit_test(test_threefold),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_fast_path_same),
        cmocka_unit_test(test_reference_agrees),
        cmocka_unit_test(test_perft2_agrees),
    };
    return cmocka_run_group_tests_name("fetlar", tests, NULL, NULL);
}
