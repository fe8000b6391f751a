/* test_loa.c - Lines of Action rules: perft and every rule's edge cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "engines/loa/eval.h"
#include "engines/loa/loa.h"
#include "core/util.h"
#include "search/perft.h"

static const struct game *G = &loa_game;

static void load(struct loa_state *s, const char *fen)
{
    char err[GAME_ERR_LEN];
    int rc = G->parse_pos(s, NULL, fen, err, sizeof err);
    if (rc)
        fail_msg("parse '%s': %s", fen, err);
}

static int has_move(const struct loa_state *s, const char *tok)
{
    gmove mv[LOA_MAX_MOVES];
    char t[16];
    int n = G->gen_moves(s, mv, LOA_MAX_MOVES);
    for (int i = 0; i < n; i++) {
        G->format_move(s, mv[i], t, sizeof t);
        if (strcmp(t, tok) == 0)
            return 1;
    }
    return 0;
}

static void play(struct loa_state *s, const char *tok)
{
    gmove m;
    char err[GAME_ERR_LEN];
    int rc = G->parse_move(s, tok, &m, err, sizeof err);
    if (rc)
        fail_msg("move %s: %s", tok, err);
    G->play(s, m);
}

static void test_perft_start(void **st)
{
    struct loa_state s;
    static const uint64_t want[] = {1, 36, 1244, 44952, 1563208};
    (void)st;
    G->start(&s, NULL);
    for (int d = 0; d <= 4; d++)
        assert_true(perft(G, &s, d) == want[d]);
}

static void test_fen_roundtrip(void **st)
{
    struct loa_state s, t;
    char buf[128];
    (void)st;
    G->start(&s, NULL);
    G->format_pos(&s, buf, sizeof buf);
    assert_string_equal(buf, LOA_START);
    play(&s, "b1-b3");
    play(&s, "a2-c2");
    G->format_pos(&s, buf, sizeof buf);
    load(&t, buf);
    assert_true(memcmp(&s, &t, sizeof s) == 0);
}

static void test_bad_fens(void **st)
{
    static const char *const bad[] = {
        "", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w b",
        "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 x", "9/8/8/8/8/8/8/8 b",
        "8/8/8/8/8/8/8/8 b", "bbbbbbbb/bbbbbbbb/8/8/8/8/8/7w b", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b extra",
        "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbbq b", "8/8/8/8/8/8/8/b7 b"};
    struct loa_state s, orig;
    char err[GAME_ERR_LEN];
    (void)st;
    G->start(&s, NULL);
    orig = s;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_not_equal(G->parse_pos(&s, NULL, bad[i], err, sizeof err), 0);
        assert_true(memcmp(&s, &orig, sizeof s) == 0);
    }
}

static void test_move_notation(void **st)
{
    struct loa_state s;
    gmove a, b, c;
    char err[GAME_ERR_LEN], t[16];
    (void)st;
    G->start(&s, NULL);
    assert_int_equal(G->parse_move(&s, "b1b3", &a, err, sizeof err), 0);
    assert_int_equal(G->parse_move(&s, "b1-b3", &b, err, sizeof err), 0);
    assert_int_equal(G->parse_move(&s, "b1xb3", &c, err, sizeof err), 0);
    assert_true(a == b && b == c);
    G->format_move(&s, a, t, sizeof t);
    assert_string_equal(t, "b1-b3");
    assert_int_equal(G->parse_move(&s, "b1-b4", &a, err, sizeof err), GAME_EILLEGAL);
    assert_int_equal(G->parse_move(&s, "a2-a4", &a, err, sizeof err), GAME_EILLEGAL); /* white's */
    assert_int_equal(G->parse_move(&s, "i1-b3", &a, err, sizeof err), GAME_ESYNTAX);
    assert_int_equal(G->parse_move(&s, "b1", &a, err, sizeof err), GAME_ESYNTAX);
    assert_int_equal(G->parse_move(&s, "pass", &a, err, sizeof err), GAME_ESYNTAX);
}

/* a1 jumps its own b1 and lands on e1 (4 pieces on rank 1): a capture;
 * b1 cannot pass the white e1. */
static void test_jump_own_blocked_by_enemy(void **st)
{
    struct loa_state s;
    (void)st;
    load(&s, "b6w/8/8/8/8/8/8/bb2w2w b");
    assert_true(has_move(&s, "a1xe1"));
    assert_false(has_move(&s, "b1-f1"));
    assert_true(has_move(&s, "a1-a3"));  /* 2 on file a */
    assert_false(has_move(&s, "a1-c1")); /* wrong count */
    assert_false(has_move(&s, "b1-d1"));
    /* line counts after the capture: rank 1 holds b1 e1 h1 */
    play(&s, "a1xe1");
    assert_int_equal(__builtin_popcountll(s.bb[LOA_WHITE]), 2);
    assert_true(has_move(&s, "h1xe1"));
    assert_false(has_move(&s, "h1-d1"));
}

static void test_cannot_land_on_own(void **st)
{
    struct loa_state s;
    (void)st;
    load(&s, "b6w/8/8/8/8/8/8/b1b3w1 b"); /* rank 1: a1 c1 g1 -> 3: a1 lands d1 */
    assert_true(has_move(&s, "a1-d1"));
    load(&s, "b6w/8/8/8/8/8/8/b2b2w1 b"); /* rank 1: a1 d1 g1 -> a1 would land on own d1 */
    assert_false(has_move(&s, "a1-d1"));
}

static void result_of(const struct loa_state *s, const uint64_t *h, int n, struct game_result *r)
{
    G->result(s, h, n, r);
}

static void test_double_connection_mover_wins(void **st)
{
    struct loa_state s;
    struct game_result r;
    (void)st;
    load(&s, "ww6/8/8/8/8/4b3/7b/6w1 b");
    result_of(&s, NULL, 0, &r);
    assert_false(r.over);
    play(&s, "e3xg1");
    assert_true(loa_connected(s.bb[LOA_BLACK]));
    assert_true(loa_connected(s.bb[LOA_WHITE]));
    result_of(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p1win");
    assert_string_equal(r.reason, "connected");
    assert_int_equal(G->gen_moves(&s, NULL, 0), 0); /* finished: no moves */
}

static void test_single_piece_is_connected(void **st)
{
    struct loa_state s;
    struct game_result r;
    (void)st;
    load(&s, "8/8/8/7w/8/w7/8/b6b b");
    play(&s, "a1xa3");
    result_of(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p2win"); /* the capture connected white */
}

static void test_no_legal_move_loses(void **st)
{
    struct loa_state s;
    struct game_result r;
    gmove mv[LOA_MAX_MOVES];
    (void)st;
    load(&s, "6wb/6ww/8/8/8/8/ww6/bw6 b");
    assert_int_equal(G->gen_moves(&s, mv, LOA_MAX_MOVES), 0);
    result_of(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p2win");
    assert_string_equal(r.reason, "no_moves");
}

static void test_threefold_repetition(void **st)
{
    struct loa_state s;
    struct game_result r;
    uint64_t hist[16];
    int n = 0;
    static const char *const cycle[] = {"b1-b3", "a2-c2", "b3-b1", "c2-a2"};
    (void)st;
    G->start(&s, NULL);
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < 4; i++) {
            hist[n++] = G->hash(&s);
            result_of(&s, hist, n - 1, &r);
            assert_false(r.over);
            play(&s, cycle[i]);
        }
    result_of(&s, hist, n, &r); /* the start position for the third time */
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "draw");
    assert_string_equal(r.reason, "repetition");
    result_of(&s, hist + 4, n - 4, &r); /* only twice */
    assert_false(r.over);
}

static void test_hash_incremental(void **st)
{
    struct loa_state s, t;
    char buf[128];
    (void)st;
    G->start(&s, NULL);
    play(&s, "b1-b3");
    play(&s, "a3xc1");
    G->format_pos(&s, buf, sizeof buf);
    load(&t, buf);
    assert_true(s.hash == t.hash);
}

static void test_groups_and_eval(void **st)
{
    struct loa_state s;
    (void)st;
    G->start(&s, NULL);
    assert_int_equal(loa_groups(s.bb[LOA_BLACK]), 2);
    assert_int_equal(loa_groups(s.bb[LOA_WHITE]), 2);
    /* symmetric start: only the tempo term differs */
    assert_int_equal(loa_eval(&s, &loa_default_weights), loa_default_weights.tempo);
}

/* The evaluation's terms (computed on bitboards: sums of coordinates and
 * rings by popcounts, the spread by balls around the centre of mass, the
 * Euler number by bit quads, mobility a line at a time from a table of
 * line patterns) and the mobility's captures against their definitions,
 * square by square, over random games on 8x8 and 6x6. */
static int ref_on(int x, int y, int last) { return x >= 0 && y >= 0 && x <= last && y <= last; }

static void ref_terms(const struct loa_state *s, int side, char *buf, size_t n, const char *who,
                      int *caps)
{
    const int last = s->size == 6 ? 5 : 7;
    const uint64_t own = s->bb[side], opp = s->bb[side ^ 1], occ = own | opp;
    static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, -1, 1};
    int np = 0, sx = 0, sy = 0, centre = 0;
    for (int sq = 0; sq < 64; sq++)
        if (own >> sq & 1) {
            int x = sq & 7, y = sq >> 3, a = x < last - x ? x : last - x,
                b = y < last - y ? y : last - y;
            np++, sx += x, sy += y, centre += a < b ? a : b;
        }
    int cx = (sx + np / 2) / np, cy = (sy + np / 2) / np, spread = 0;
    for (int sq = 0; sq < 64; sq++)
        if (own >> sq & 1) {
            int dx = abs((sq & 7) - cx), dy = abs((sq >> 3) - cy);
            spread += dx > dy ? dx : dy;
        }
    for (int i = 1; i < np; i++) /* the smallest spread of np pieces */
        spread -= i <= 8 ? 1 : i <= 24 ? 2 : 3;
    int com = (abs(2 * sx - last * np) + abs(2 * sy - last * np)) / np;
    /* groups: 8-connected components, by a search from every unseen piece */
    int groups = 0;
    uint64_t seen = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(own >> sq & 1) || (seen >> sq & 1))
            continue;
        int stack[64], top = 0;
        groups++;
        seen |= 1ULL << sq;
        stack[top++] = sq;
        while (top) {
            int c = stack[--top];
            for (int d = 0; d < 8; d++) {
                int x = (c & 7) + DX[d], y = (c >> 3) + DY[d], t = y * 8 + x;
                if (ref_on(x, y, 7) && (own >> t & 1) && !(seen >> t & 1)) {
                    seen |= 1ULL << t;
                    stack[top++] = t;
                }
            }
        }
    }
    /* Euler number: the 2x2 windows of the board padded by a square */
    int q1 = 0, q3 = 0, qd = 0;
    for (int wx = -1; wx < 8; wx++)
        for (int wy = -1; wy < 8; wy++) {
            int p[4], c = 0;
            for (int i = 0; i < 4; i++) {
                int x = wx + (i & 1), y = wy + (i >> 1);
                p[i] = ref_on(x, y, 7) && (own >> (y * 8 + x) & 1);
                c += p[i];
            }
            q1 += c == 1, q3 += c == 3;
            qd += c == 2 && p[0] == p[3];
        }
    /* moves: as many squares as pieces on the line, over own pieces, not
     * over enemy ones, not onto an own piece or off the board */
    int moves = 0, edge = 0, blocked = 0;
    *caps = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (!(own >> sq & 1))
            continue;
        int mine = 0;
        for (int d = 0; d < 8; d++) {
            int k = 0, x0 = sq & 7, y0 = sq >> 3;
            for (int j = -7; j <= 7; j++) {
                int x = x0 + j * DX[d], y = y0 + j * DY[d];
                k += ref_on(x, y, 7) && (occ >> (y * 8 + x) & 1);
            }
            int ok = 1, x = x0, y = y0;
            for (int j = 1; j <= k && ok; j++) {
                x += DX[d], y += DY[d];
                if (!ref_on(x, y, last))
                    ok = 0;
                else if (j < k && (opp >> (y * 8 + x) & 1))
                    ok = 0;
                else if (j == k && (own >> (y * 8 + x) & 1))
                    ok = 0;
            }
            if (ok) {
                mine++;
                edge += x == 0 || y == 0 || x == last || y == last;
                *caps += (int)(opp >> (y * 8 + x) & 1);
            }
        }
        moves += mine;
        blocked += mine == 0;
    }
    snprintf(buf, n,
             " %s.pieces=%d %s.spread=%d %s.centre=%d %s.com_dist=%d %s.groups=%d %s.euler=%d"
             " %s.mobility=%d %s.edge_moves=%d %s.blocked=%d",
             who, np, who, spread, who, centre, who, com, who, groups, who, (q1 - q3 - 2 * qd) / 4,
             who, moves, who, edge, who, blocked);
}

static void test_eval_terms_reference(void **st)
{
    struct rng r;
    long positions = 0;
    (void)st;
    rng_seed(&r, 4040);
    for (int game = 0; game < 80; game++) {
        struct loa_state s;
        load(&s, game % 2 ? LOA_START6 : LOA_START);
        for (int ply = 0; ply < 150 && !loa_decided(&s); ply++) {
            char got[512], want[512], a[240], b[240];
            int caps[2];
            struct loa_mob mob[2];
            loa_eval_terms(&s, &loa_default_weights, got, sizeof got);
            ref_terms(&s, s.side, a, sizeof a, "us", &caps[s.side]);
            ref_terms(&s, s.side ^ 1, b, sizeof b, "them", &caps[s.side ^ 1]);
            loa_mobility2(&s, mob);
            for (int c = 0; c < 2; c++) {
                struct loa_mob one;
                loa_mobility(&s, c, &one);
                assert_memory_equal(&one, &mob[c], sizeof one);
                assert_int_equal(mob[c].captures, caps[c]);
            }
            snprintf(want, sizeof want, "%s%s tempo=%d", a, b, loa_default_weights.tempo);
            const char *terms = strchr(got, ' ');
            assert_non_null(terms);
            if (strcmp(terms, want) != 0)
                fail_msg("game %d ply %d\n got %s\nwant %s", game, ply, terms, want);
            positions++;
            gmove mv[LOA_MAX_MOVES];
            int n = loa_gen(&s, mv);
            if (n == 0)
                break;
            loa_play(&s, mv[rng_below(&r, (uint64_t)n)]);
        }
    }
    assert_true(positions > 3000);
}

/* The fast copies of the hot routines (POPCNT, BMI; loa_fast_cpu) give the
 * same moves in the same order, counts, mobility and evaluation as the
 * portable ones, over random games and perft 4; where the processor has
 * the instructions, the fast copy is the default (unless MEDAN_CPU=portable). */
struct loa_facts {
    int n, ncap, count;
    gmove mv[LOA_MAX_MOVES], cap[LOA_MAX_MOVES];
    struct loa_mob mob[2];
    int eval;
};

static void facts(const struct loa_state *s, struct loa_facts *f)
{
    memset(f, 0, sizeof *f);
    f->n = loa_gen(s, f->mv);
    f->ncap = loa_gen_captures(s, f->cap);
    f->count = loa_count(s, s->side);
    loa_mobility(s, 0, &f->mob[0]);
    loa_mobility(s, 1, &f->mob[1]);
    f->eval = loa_eval(s, &loa_default_weights);
}

static void test_fast_path_same(void **st)
{
    const bool fast = loa_fast_cpu(-1);
    bool have;
    struct rng r;
    long positions = 0;
    (void)st;
    have = loa_fast_cpu(1);
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2")) {
        const char *env = getenv("MEDAN_CPU");
        assert_true(have);
        if (!env || strcmp(env, "portable"))
            assert_true(fast); /* the default where the processor has it */
    }
#endif
    if (!have) {
        printf("test_fast_path_same: this processor has no fast copy; portable only\n");
        loa_fast_cpu(fast);
        return;
    }
    rng_seed(&r, 2026);
    for (int game = 0; game < 60; game++) {
        struct loa_state s;
        G->start(&s, NULL);
        for (int ply = 0; ply < 120 && !loa_decided(&s); ply++) {
            struct loa_facts a, b;
            loa_fast_cpu(0);
            facts(&s, &a);
            assert_false(loa_fast_cpu(-1));
            loa_fast_cpu(1);
            facts(&s, &b);
            assert_true(loa_fast_cpu(-1));
            assert_memory_equal(&a, &b, sizeof a);
            positions++;
            if (a.n == 0)
                break;
            loa_play(&s, a.mv[rng_below(&r, (uint64_t)a.n)]);
        }
    }
    assert_true(positions > 1000);
    for (int f = 0; f < 2; f++) {
        struct loa_state s;
        loa_fast_cpu(f);
        G->start(&s, NULL);
        assert_true(perft(G, &s, 4) == 1563208);
    }
    loa_fast_cpu(fast);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_fen_roundtrip),
        cmocka_unit_test(test_bad_fens),
        cmocka_unit_test(test_move_notation),
        cmocka_unit_test(test_jump_own_blocked_by_enemy),
        cmocka_unit_test(test_cannot_land_on_own),
        cmocka_unit_test(test_double_connection_mover_wins),
        cmocka_unit_test(test_single_piece_is_connected),
        cmocka_unit_test(test_no_legal_move_loses),
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_hash_incremental),
        cmocka_unit_test(test_groups_and_eval),
        cmocka_unit_test(test_eval_terms_reference),
        cmocka_unit_test(test_fast_path_same),
    };
    return cmocka_run_group_tests_name("loa", tests, NULL, NULL);
}
