/* test_fetlar_eval.c - the Fetlar engine's exact short tactics (king to a
 * corner next move, two open routes, unblockable route, king fork, king
 * capture in one) and the sanity of the evaluation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/fetlar/eval.h"
#include "engines/fetlar/fetlar.h"
#include "fetlar_setup.h"

static void test_route_next_move(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ka5 ta3 tc8 tj9", 'w', 0);
    assert_int_equal(fetlar_routes(&s), 1);
    assert_int_equal(fetlar_tactic(&s), 1);
    assert_true(fetlar_evaluate(&s, NULL, NULL) > 8000);
    setup(&s, "Ka5 ta3 ta8 tj9", 'w', 0);
    assert_int_equal(fetlar_routes(&s), 0);
}

static void test_two_routes_unstoppable(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ka5 tc3 tc8 tj9", 'b', 0);
    assert_int_equal(fetlar_routes(&s), 2);
    assert_int_equal(fetlar_tactic(&s), -2);
    assert_true(fetlar_evaluate(&s, NULL, NULL) < -8000);
    /* On the bottom edge too. */
    setup(&s, "Ke1 tc3 tg3 tj9", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
}

static void test_one_route_block(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* a1 route open, a11 closed; an attacker on c3 can step to a3. */
    setup(&s, "Ka5 ta9 tc3", 'b', 0);
    assert_int_equal(fetlar_routes(&s), 1);
    assert_int_equal(fetlar_tactic(&s), 0);
    /* The blocker's line is cut by a defender: unstoppable. */
    setup(&s, "Ka5 ta9 tc3 Tb3", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
    /* A blocker from the far side of the board, through the empty throne. */
    setup(&s, "Kf1 tb1 tf9", 'b', 0);
    assert_int_equal(fetlar_routes(&s), 1); /* to k1 */
    assert_int_equal(fetlar_tactic(&s), -2); /* f9 cannot reach g1..j1 */
    setup(&s, "Kf1 tb1 tf9 th7", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), 0);
    setup(&s, "Kf1 tb1", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
    /* King beside the corner: nobody can block. */
    setup(&s, "Kb1 tc2 tc1", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
}

static void test_fork(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* King on d5 runs to d1: a1 and k1 are both open from there. */
    setup(&s, "Kd5 ta6 tk6 tc9 Th3", 'w', 0);
    assert_int_equal(fetlar_routes(&s), 0);
    assert_int_equal(fetlar_tactic(&s), 3);
    setup(&s, "Kd5 ta6 tk6 tc9 Th3 tb1 tc11", 'w', 0);
    assert_int_equal(fetlar_tactic(&s), 0);
    /* Along an edge: from a5 ... (only if the king leaving opens both). */
    setup(&s, "Kd11 ta6 tk6 tc9 tb11 tg11 tb1", 'w', 0);
    assert_int_equal(fetlar_tactic(&s), 0);
}

static void test_king_capture_in_one(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, "Ke5 te6 te4 td5 th5", 'b', 0);
    assert_true(fetlar_king_capturable(&s));
    assert_int_equal(fetlar_tactic(&s), 1);
    setup(&s, "Ke5 te6 te4 td5 th5 Tg5", 'b', 0);
    assert_false(fetlar_king_capturable(&s));
    /* Three plus the throne. */
    setup(&s, "Kf5 tf4 te5 tg9", 'b', 0);
    assert_true(fetlar_king_capturable(&s));
    /* Not on the edge. */
    setup(&s, "Ka5 ta4 ta6 tc5", 'b', 0);
    assert_false(fetlar_king_capturable(&s));
    /* Not from the defenders' side. */
    setup(&s, "Ke5 te6 te4 td5 th5", 'w', 0);
    assert_int_equal(fetlar_tactic(&s), 0);
}

static void test_tactical_moves(void **state)
{
    (void)state;
    struct fetlar_state s;
    gmove mv[FETLAR_MAX_MOVES];
    setup(&s, "Ka5 ta9 tc3 Tj2 tj3 tk9", 'w', 0);
    int n = fetlar_gen_tactical(&s, mv, FETLAR_MAX_MOVES);
    /* a5-a1 escapes; j2 cannot capture j3 (nothing beyond);  */
    int esc = 0;
    for (int i = 0; i < n; i++)
        esc += mv[i] == FETLAR_MOVE(44, 0);
    assert_int_equal(esc, 1);
    assert_true(fetlar_is_tactical(&s, FETLAR_MOVE(44, 0)));
}

/* The quiescence moves and the move ordering's tactical marks, worked out
 * from the hot arrival squares, against their definitions move by move
 * (every move of fetlar_gen through fetlar_is_tactical / the capture test),
 * with the moves in fetlar_gen's order.  Returns the quiescence moves. */
static int check_tactical_sets(const struct fetlar_state *s, gmove *want)
{
    gmove mv[FETLAR_MAX_MOVES], got[FETLAR_MAX_MOVES];
    unsigned char mark[FETLAR_MAX_MOVES];
    int n = fetlar_gen(s, mv, FETLAR_MAX_MOVES), k = 0;
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        int from = FETLAR_FROM(mv[i]), to = FETLAR_TO(mv[i]);
        if ((from == s->king && fetlar_is_corner(to)) || fetlar_captures(s, mv[i]))
            want[k++] = mv[i];
    }
    int m = fetlar_gen_tactical(s, got, FETLAR_MAX_MOVES);
    assert_int_equal(m, k);
    assert_memory_equal(got, want, (size_t)k * sizeof *got);
    if (k > 1) { /* a short list keeps fetlar_gen's first moves */
        assert_int_equal(fetlar_gen_tactical(s, got, k - 1), k - 1);
        assert_memory_equal(got, want, (size_t)(k - 1) * sizeof *got);
    }
    fetlar_mark_tactical(s, mv, n, mark);
    for (int i = 0; i < n; i++)
        assert_int_equal(mark[i], fetlar_is_tactical(s, mv[i]) != 0);
    return k;
}

/* ... in every position of 1000 random games, and in set positions: the
 * king captured against three attackers, and against two and the throne;
 * the attackers' blocks beside a king on the edge; captures against a
 * corner and the empty throne. */
/* The start position, for the random games below. */
static void start_position(struct fetlar_state *s)
{
    char err[GAME_ERR_LEN];
    assert_int_equal(fetlar_game.parse_pos(s, NULL, fetlar_start_pos, err, sizeof err), GAME_OK);
}

static void test_tactical_sets(void **state)
{
    (void)state;
    static const struct {
        const char *pieces;
        char side;
        int captures; /* quiescence moves */
    } set[] = {
        {"Ke5 td5 tf5 te4 te9 Tb10", 'b', 1},  /* e9-e6 takes the king */
        {"Kf5 te5 tg5 tf1 Ta10", 'b', 1},      /* f1-f4: f6 the throne */
        {"Ka5 tb4 tb9 Tk9", 'b', 0},          /* blocks: tactical, no capture */
        {"Kf6 Tb1 tc3 tk9", 'b', 1},           /* c3-c1 takes b1 against the corner */
        {"Kf6 ta2 Tc3 Tk9", 'w', 1},           /* c3-a3 takes a2 against the corner */
        {"Kf8 Tf7 tf9 te5 Tb10", 'w', 1},      /* b10-f10 takes f9 against the armed king */
        {"Kj10 te6 Tf5 td6 Tb10", 'b', 0},     /* f5 beside the empty throne */
    };
    gmove want[FETLAR_MAX_MOVES];
    for (size_t i = 0; i < sizeof set / sizeof set[0]; i++) {
        struct fetlar_state s;
        setup(&s, set[i].pieces, set[i].side, 0);
        assert_int_equal(check_tactical_sets(&s, want), set[i].captures);
    }
    struct rng r;
    rng_seed(&r, 2026);
    long positions = 0, quiescence = 0;
    for (int g = 0; g < 1000; g++) {
        struct fetlar_state s;
        start_position(&s);
        for (int ply = 0; ply < 400; ply++) {
            gmove mv[FETLAR_MAX_MOVES];
            int k = check_tactical_sets(&s, want), n = fetlar_gen(&s, mv, FETLAR_MAX_MOVES);
            positions++;
            quiescence += k;
            if (n <= 0)
                break;
            /* captures half the time, so that the games thin out */
            gmove pick = k && rng_below(&r, 2) ? want[rng_below(&r, (uint64_t)k)]
                                               : mv[rng_below(&r, (uint64_t)n)];
            fetlar_play(&s, pick);
        }
    }
    assert_true(positions > 80000);
    assert_true(quiescence > positions / 4);
}

static void test_corner_diagonal(void **state)
{
    (void)state;
    struct fetlar_state s;
    /* King on j10, k10 and j11 empty: the attackers cannot cover both. */
    setup(&s, "Kj10 ti11 tk9 ta5", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
    setup(&s, "Kj10 tj11 tk9 ta5", 'b', 0); /* j11 held: k10 can be blocked */
    assert_int_equal(fetlar_tactic(&s), 0);
    /* ... but not when the defender on k9 cuts k10 off from the attackers. */
    setup(&s, "Kj10 tj11 Tk9 tk5 ta5", 'b', 0);
    assert_int_equal(fetlar_tactic(&s), -2);
    /* The defenders to move: one open neighbour is enough (k10, then k11):
     * a fork target. */
    setup(&s, "Kj10 tj11 tk9 ta5", 'w', 0);
    assert_int_equal(fetlar_tactic(&s), 3);
    setup(&s, "Kj10 tj11 tk10 tj9 ti10 ta5", 'w', 0); /* shut in */
    assert_int_equal(fetlar_tactic(&s), 0);
    /* Not with too few plies left before the 100-ply rule. */
    setup(&s, "Kj10 ti11 tk9 ta5", 'b', 96);
    assert_int_equal(fetlar_tactic(&s), 0);
}

static void test_eval_symmetry(void **state)
{
    (void)state;
    struct fetlar_state s;
    fetlar_game.start(&s, NULL);
    int b = fetlar_evaluate(&s, NULL, NULL);
    s.side = FETLAR_WHITE;
    int w = fetlar_evaluate(&s, NULL, NULL);
    assert_true(b - 12 == -(w - 12)); /* same position, tempo aside */
}

/* The start is about even: a draw is then as bad for either side as the
 * Contempt option says (the eval once gave the attackers +160 there, so the
 * defenders took repetitions). */
static void test_eval_centred(void **state)
{
    (void)state;
    struct fetlar_state s;
    fetlar_game.start(&s, NULL);
    int b = fetlar_evaluate(&s, NULL, NULL);
    assert_true(b > -60 && b < 60);
}

/* Sixteen attackers cutting off all four corners (a4 b3 c2 d1 and
 * mirrored), the lone king inside. */
#define RING "ta4 tb3 tc2 td1 tk4 tj3 ti2 th1 ta8 tb9 tc10 td11 " \
             "tk8 tj9 ti10 th11"

/* Inside a closed cordon the lone king's shrinking room is the attackers'
 * progress, and it is not faded by the 100-ply counter (there is nothing
 * left to capture but the king, so only that progress can win). */
static void test_shut_in_king(void **state)
{
    (void)state;
    struct fetlar_state far, near;
    setup(&far, RING " Ke5 tb2 tj2 tb10", 'b', 0);
    setup(&near, RING " Ke5 te7 tc5 tb10", 'b', 0);
    int ef = fetlar_evaluate(&far, NULL, NULL), en = fetlar_evaluate(&near, NULL, NULL);
    /* Attackers to move: higher is better for them.  Two pieces cutting
     * the king's lines count for much more than the two squares of room
     * they take. */
    assert_true(en > ef + 40);
    far.quiet = 80;
    assert_int_equal(fetlar_evaluate(&far, NULL, NULL), ef);
    /* With a defender left the score still fades toward the draw. */
    struct fetlar_state d;
    setup(&d, RING " Ke5 tb2 tj2 tb10 Tf9", 'b', 0);
    int e0 = fetlar_evaluate(&d, NULL, NULL);
    d.quiet = 80;
    int e80 = fetlar_evaluate(&d, NULL, NULL);
    assert_true(e0 > 200 && e80 < e0 / 2 + 20);
}

/* A lone king: each attacker counts lone per king-step ring it stands in
 * (lone_cap - d rings at king distance d), never with a defender left. */
/* The attackers' gain in the king_free term of pieces (attackers to move)
 * from weights w over weights base. */
static int lone_free_gain(const char *pieces, const struct fetlar_weights *w,
                          const struct fetlar_weights *base)
{
    struct fetlar_state s;
    struct fetlar_terms a, b;
    setup(&s, pieces, 'b', 0);
    fetlar_evaluate(&s, w, &a);
    fetlar_evaluate(&s, base, &b);
    return b.king_free - a.king_free;
}

static void test_lone_king(void **state)
{
    (void)state;
    struct fetlar_weights w = fetlar_default_weights, off = w;
    char err[128];
    assert_int_equal(fetlar_weights_parse(&off, "lone=0", err, sizeof err), 0);
    assert_int_equal(fetlar_weights_parse(&w, "lone=10,lone_cap=4,lone_ref=0", err, sizeof err), 0);
    struct fetlar_state s;
    struct fetlar_terms a, b;
    /* King distances 1 (f4, diagonal), 2 (g5), 3 (f8), 4 (a2) and 5 (j9). */
    setup(&s, "Ke5 tf4 tg5 tf8 ta2 tj9", 'b', 0);
    fetlar_evaluate(&s, &w, &a);
    fetlar_evaluate(&s, &off, &b);
    assert_int_equal(a.cordon, b.cordon - 10 * (3 + 2 + 1));
    /* lone_ref rings are expected: lone each back. */
    assert_int_equal(fetlar_weights_parse(&w, "lone_ref=7", err, sizeof err), 0);
    fetlar_evaluate(&s, &w, &a);
    assert_int_equal(a.cordon, b.cordon - 10 * (3 + 2 + 1) + 10 * 7);
    /* One defender left: no lone term. */
    setup(&s, "Ke5 tf4 tg5 tf8 ta2 tj9 Tk6", 'b', 0);
    fetlar_evaluate(&s, &w, &a);
    fetlar_evaluate(&s, &off, &b);
    assert_int_equal(a.cordon, b.cordon);
    /* lone_at 1: the term counts with one defender left, not with two. */
    struct fetlar_weights w1 = w;
    assert_int_equal(fetlar_weights_parse(&w1, "lone_at=1", err, sizeof err), 0);
    fetlar_evaluate(&s, &w1, &a);
    assert_int_equal(a.cordon, b.cordon - 10 * (3 + 2 + 1) + 10 * 7);
    setup(&s, "Ke5 tf4 tg5 tf8 ta2 tj9 Tk6 Tk4", 'b', 0);
    fetlar_evaluate(&s, &w1, &a);
    fetlar_evaluate(&s, &off, &b);
    assert_int_equal(a.cordon, b.cordon);
    /* ... and, as for a lone king, the attackers' lead no longer fades. */
    setup(&s, RING " Ke5 tb2 tj2 tb10 Tf9", 'b', 0);
    int e0 = fetlar_evaluate(&s, &w1, NULL), d0 = fetlar_evaluate(&s, NULL, NULL);
    s.quiet = 80;
    assert_true(e0 > 200);
    assert_int_equal(fetlar_evaluate(&s, &w1, NULL), e0);
    assert_true(fetlar_evaluate(&s, NULL, NULL) < d0 / 2 + 20);
    /* The default: an attacker a step nearer (b8 to c7) is worth lone. */
    assert_true(fetlar_default_weights.lone > 0);
    setup(&s, "Ke5 tb8 ta2 tj9", 'b', 0);
    fetlar_evaluate(&s, NULL, &a);
    setup(&s, "Ke5 tc7 ta2 tj9", 'b', 0);
    fetlar_evaluate(&s, NULL, &b);
    assert_int_equal(b.cordon, a.cordon - fetlar_default_weights.lone);
    /* lone_free: per move taken from the lone king's 20, counted from 15
     * (FETLAR_LONE_FREE_REF 5): Ke5 with te7 tg5 has 4 + 1 + 1 + 4 = 10
     * moves, so the attackers gain 5 lone_free; never with a defender. */
    struct fetlar_weights f0 = fetlar_default_weights, f10 = f0;
    assert_int_equal(fetlar_weights_parse(&f0, "lone_free=0", err, sizeof err), 0);
    assert_int_equal(fetlar_weights_parse(&f10, "lone_free=10", err, sizeof err), 0);
    assert_int_equal(lone_free_gain("Ke5 te7 tg5 ta2 tj9", &f10, &f0), 10 * 5);
    assert_int_equal(lone_free_gain("Ke5 tg5 ta2 tj9", &f10, &f0), 0); /* 15 moves: nothing */
    assert_int_equal(lone_free_gain("Ke5 te7 tg5 ta2 tj9 Tk6", &f10, &f0), 0);
    /* ... a weight of its own: the rings off (lone=0) leave it on */
    assert_int_equal(fetlar_weights_parse(&f10, "lone=0", err, sizeof err), 0);
    assert_int_equal(fetlar_weights_parse(&f0, "lone=0", err, sizeof err), 0);
    assert_int_equal(lone_free_gain("Ke5 te7 tg5 ta2 tj9", &f10, &f0), 10 * 5);
    assert_true(fetlar_default_weights.lone_free > 0);
    /* lone_cap is a board's width at most; a bad one changes nothing. */
    struct fetlar_weights before = w;
    assert_int_equal(fetlar_weights_parse(&w, "lone=5,lone_cap=12", err, sizeof err), -1);
    assert_non_null(strstr(err, "lone_cap"));
    assert_memory_equal(&w, &before, sizeof w);
    assert_int_equal(fetlar_weights_parse(&w, "lone_at=13", err, sizeof err), -1);
    assert_non_null(strstr(err, "lone_at"));
    assert_memory_equal(&w, &before, sizeof w);
}

/* Material: each attacker and defender at its weight, and below thin_at
 * attackers each missing one costs the attackers thin more. */
static void test_material(void **state)
{
    (void)state;
    struct fetlar_state s;
    setup(&s, RING " Ke5 Tf9", 'b', 0); /* 16 attackers, one defender */
    struct fetlar_weights w = fetlar_default_weights;
    struct fetlar_terms t;
    fetlar_evaluate(&s, &w, &t);
    assert_int_equal(t.material, w.def * 1 - w.att * 16);
    char err[128];
    assert_int_equal(fetlar_weights_parse(&w, "thin=50,thin_at=20", err, sizeof err), 0);
    fetlar_evaluate(&s, &w, &t);
    assert_int_equal(t.material, w.def * 1 - w.att * 16 + 50 * 4);
    assert_int_equal(fetlar_weights_parse(&w, "thin_at=16", err, sizeof err), 0);
    fetlar_evaluate(&s, &w, &t);
    assert_int_equal(t.material, w.def * 1 - w.att * 16);
}

/* Weights by name: a bad spec changes nothing; the triangle term counts
 * 1, 3, 9 units for one to three pieces on a corner's triangle. */
static void test_weights(void **state)
{
    (void)state;
    struct fetlar_weights w = fetlar_default_weights;
    char err[128];
    assert_int_equal(fetlar_weights_parse(&w, "tri=10,king_free=7", err, sizeof err), 0);
    assert_int_equal(w.tri, 10);
    assert_int_equal(w.king_free, 7);
    struct fetlar_weights before = w;
    assert_int_equal(fetlar_weights_parse(&w, "tri=3,nope=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "nope"));
    assert_int_equal(fetlar_weights_parse(&w, "tri=3 quiet_fade=100", err, sizeof err), -1);
    assert_int_equal(fetlar_weights_parse(&w, "tri", err, sizeof err), -1);
    assert_memory_equal(&w, &before, sizeof w);

    /* Black to move; a1's triangle a3 b2 c1 filled one piece at a time,
     * the king far away in the other corner's quarter. */
    static const char *const tri[] = {"Ki9 Tg8 te11 tk5", "Ki9 Tg8 te11 tk5 ta3",
                                      "Ki9 Tg8 te11 tk5 ta3 tb2", "Ki9 Tg8 te11 tk5 ta3 tb2 tc1"};
    struct fetlar_weights off = fetlar_default_weights, on = off;
    on.tri = 10;
    struct fetlar_terms t0, t1;
    int prev = 0;
    for (int i = 0; i < 4; i++) {
        struct fetlar_state s;
        setup(&s, tri[i], 'b', 0);
        fetlar_evaluate(&s, &off, &t0);
        fetlar_evaluate(&s, &on, &t1);
        static const int units[] = {0, 1, 3, 9};
        assert_int_equal(t0.guards - t1.guards, 10 * units[i]);
        assert_true(i == 0 || t0.guards - t1.guards > prev);
        prev = t0.guards - t1.guards;
    }
}

/* The corner distances (corners the king reaches in 2, 3 and 4 moves,
 * found by the evaluation from both ends) against a breadth-first search
 * of king moves over the board, and the state's bitboards against its
 * board, over random games. */
static void test_corner_distance(void **state)
{
    (void)state;
    struct fetlar_weights w = fetlar_default_weights;
    w.dist2 = 1, w.dist3 = 100, w.dist4 = 10000;
    static const int corner[4] = {0, FETLAR_N - 1, FETLAR_N * (FETLAR_N - 1), FETLAR_SQ - 1};
    static const int step[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    struct rng r;
    rng_seed(&r, 777);
    long checked = 0, far = 0;
    for (int g = 0; g < 300; g++) {
        struct fetlar_state s;
        start_position(&s);
        for (int ply = 0; ply < 300 && s.over == FETLAR_PLAYING; ply++) {
            /* the state's bitboards, kept move by move, against the board */
            uint64_t bb[2][2] = {{0}};
            for (int sq = 0; sq < FETLAR_SQ; sq++)
                if (s.board[sq] != FETLAR_EMPTY)
                    bb[s.board[sq] == FETLAR_ATT ? FETLAR_BLACK : FETLAR_WHITE][sq >> 6] |=
                        1ULL << (sq & 63);
            assert_memory_equal(bb, s.bb, sizeof bb);
            if (s.king != FETLAR_NOSQ && !fetlar_tactic(&s)) {
                int dist[FETLAR_SQ], queue[FETLAR_SQ], head = 0, tail = 0;
                for (int i = 0; i < FETLAR_SQ; i++)
                    dist[i] = -1;
                dist[s.king] = 0;
                queue[tail++] = s.king;
                while (head < tail) {
                    int at = queue[head++];
                    for (int k = 0; k < 4; k++)
                        for (int c = at % FETLAR_N + step[k][0], rr = at / FETLAR_N + step[k][1];
                             c >= 0 && c < FETLAR_N && rr >= 0 && rr < FETLAR_N &&
                             s.board[rr * FETLAR_N + c] == FETLAR_EMPTY;
                             c += step[k][0], rr += step[k][1]) {
                            int to = rr * FETLAR_N + c;
                            if (dist[to] < 0) {
                                dist[to] = dist[at] + 1;
                                queue[tail++] = to;
                            }
                        }
                }
                int want = 0;
                for (int c = 0; c < 4; c++) {
                    int d = dist[corner[c]];
                    want += d == 2 ? 1 : d == 3 ? 100 : d == 4 ? 10000 : 0;
                    far += d == 4;
                }
                struct fetlar_terms t;
                fetlar_evaluate(&s, &w, &t);
                if (t.corner_dist != want)
                    fail_msg("game %d ply %d: corner_dist %d, want %d", g, ply, t.corner_dist, want);
                checked++;
            }
            gmove mv[FETLAR_MAX_MOVES];
            int n = fetlar_gen(&s, mv, FETLAR_MAX_MOVES);
            if (n <= 0)
                break;
            fetlar_play(&s, mv[rng_below(&r, (uint64_t)n)]);
        }
    }
    assert_true(checked > 20000);
    assert_true(far > 1000); /* the fourth move is exercised */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route_next_move),
        cmocka_unit_test(test_two_routes_unstoppable),
        cmocka_unit_test(test_one_route_block),
        cmocka_unit_test(test_fork),
        cmocka_unit_test(test_king_capture_in_one),
        cmocka_unit_test(test_tactical_moves),
        cmocka_unit_test(test_corner_diagonal),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_lone_king),
        cmocka_unit_test(test_eval_symmetry),
        cmocka_unit_test(test_eval_centred),
        cmocka_unit_test(test_shut_in_king),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_tactical_sets),
        cmocka_unit_test(test_corner_distance),
    };
    return cmocka_run_group_tests_name("fetlar_eval", tests, NULL, NULL);
}
