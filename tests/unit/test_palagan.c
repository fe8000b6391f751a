/* test_palagan.c - Palagan rules: perft, every ruling of RULES.md section 3,
 * position strings and move tokens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "engines/palagan/mcts.h"
#include "engines/palagan/palagan.h"
#include "engines/palagan/strategy.h"
#include "search/perft.h"

static const struct game *G = &palagan_game;

/* A position of side 5, black to move (not the first turn), with the given
 * cells ("e5 f6 ...") of each colour and full-ish reserves. */
static struct pal_state setup(const char *black, const char *white, int stm)
{
    struct pal_state s;
    const struct pal_geom *g = pal_geom(5);
    pal_start(&s, 5);
    s.first = 0;
    s.stm = (uint8_t)stm;
    const char *lists[2] = {black, white};
    for (int col = 0; col < 2; col++) {
        char buf[256];
        char *tok[64];
        snprintf(buf, sizeof buf, "%s", lists[col]);
        int n = str_split(buf, tok, 64);
        for (int i = 0; i < n; i++) {
            int x = tok[i][0] - 'a', y = atoi(tok[i] + 1) - 1;
            assert_true(x >= 0 && y >= 0 && x < g->d && y < g->d);
            int c = g->idx[x][y];
            assert_true(c >= 0);
            pal_set(s.occ[col], c);
        }
        s.reserve[col] = (uint8_t)(PAL_PIECES - n);
    }
    assert_true(pal_all_alive(g, &s));
    return s;
}

static int cell(const char *name)
{
    const struct pal_geom *g = pal_geom(5);
    return g->idx[name[0] - 'a'][atoi(name + 1) - 1];
}

static int at(const struct pal_state *s, const char *name) { return pal_at(s, cell(name)); }

/* Parse and play a token; returns the parse code. */
static int play(struct pal_state *s, const char *tok)
{
    char err[GAME_ERR_LEN];
    gmove m;
    int rc = G->parse_move(s, tok, &m, err, sizeof err);
    if (rc == 0) {
        char back[64];
        G->format_move(s, m, back, sizeof back);
        assert_string_equal(back, tok); /* tests use canonical tokens */
        G->play(s, m);
    }
    return rc;
}

static bool listed(const struct pal_state *s, const char *tok)
{
    static gmove mv[PAL_MAX_TURNS];
    int n = G->gen_moves(s, mv, PAL_MAX_TURNS);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char b[64];
        G->format_move(s, mv[i], b, sizeof b);
        if (strcmp(b, tok) == 0)
            return true;
    }
    return false;
}

static void test_perft(void **state)
{
    (void)state;
    struct pal_config cfg;
    struct pal_state s;
    char err[GAME_ERR_LEN];
    G->config_default(&cfg);
    assert_int_equal(cfg.size, 5);
    G->start(&s, &cfg);
    assert_int_equal(perft(G, &s, 1), 62);
    assert_int_equal(perft(G, &s, 2), 242361);
    assert_int_equal(G->config_set(&cfg, "size", "4", err, sizeof err), 0);
    G->start(&s, &cfg);
    assert_int_equal(perft(G, &s, 1), 38);
    assert_int_equal(perft(G, &s, 2), 55977);
    for (int n = 6; n <= 9; n++) {
        pal_start(&s, n);
        assert_int_equal(perft(G, &s, 1), 3 * n * n - 3 * n + 2);
    }
    assert_int_not_equal(G->config_set(&cfg, "size", "10", err, sizeof err), 0);
    assert_int_not_equal(G->config_set(&cfg, "size", "3", err, sizeof err), 0);
    assert_int_not_equal(G->config_set(&cfg, "side", "5", err, sizeof err), 0);
}

static void test_first_turn(void **state)
{
    (void)state;
    struct pal_state s;
    pal_start(&s, 5);
    struct pal_state t = s;
    assert_int_equal(play(&t, "@e5,@e6"), GAME_EILLEGAL);
    assert_int_equal(play(&t, "@e5"), 0);
    assert_int_equal(t.stm, 1);
    assert_int_equal(t.reserve[0], 19);
    assert_int_equal(play(&t, "@e6,@f6"), 0); /* later turns: two */
    /* a pass on the first turn still uses it up */
    t = s;
    assert_int_equal(play(&t, "pass"), 0);
    assert_int_equal(t.first, 0);
    assert_int_equal(play(&t, "@e6,@f6"), 0);
}

static void test_summon_captures(void **state)
{
    (void)state;
    /* white a1 (corner: neighbours b1 a2 b2) */
    struct pal_state s = setup("b1 a2", "a1", 0);
    assert_int_equal(play(&s, "@b2"), 0);
    assert_int_equal(at(&s, "a1"), -1);
    assert_int_equal(s.captures[0], 1);
    assert_int_equal(s.quiet, 0);
}

static void test_push(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "f5", 0);
    assert_true(listed(&s, "e5-f5"));
    assert_int_equal(play(&s, "e5-f5"), 0);
    assert_int_equal(at(&s, "e5"), -1);
    assert_int_equal(at(&s, "f5"), 0);
    assert_int_equal(at(&s, "g5"), 1);
    /* diagonal direction (+1,+1): e5 pushes f6 to g7 */
    s = setup("e5", "f6", 0);
    assert_int_equal(play(&s, "e5-f6"), 0);
    assert_int_equal(at(&s, "g7"), 1);
    /* a push that captures: the pushed piece lands in a pocket */
    s = setup("e5 h5 g4 h6", "f5", 0); /* g5 has neighbours h5 f5 g6 g4 h6 f4 */
    assert_int_equal(play(&s, "e5-f5,@g6"), 0);
    assert_int_equal(at(&s, "g5"), 1);
    s = setup("e5 h5 g4 h6 g6", "f5", 0); /* g5 surrounded but f4 ... */
    assert_int_equal(play(&s, "@f4,e5-f5"), 0);
    assert_int_equal(at(&s, "g5"), -1); /* pushed into the pocket: captured */
    assert_int_equal(s.captures[0], 1);
}

static void test_push_blocked(void **state)
{
    (void)state;
    /* by the edge: i5 is on the right edge, j5 is off the board */
    struct pal_state s = setup("h5", "i5", 0);
    assert_false(listed(&s, "h5-i5"));
    assert_int_equal(play(&s, "h5-i5"), GAME_EILLEGAL);
    /* by an enemy piece behind (no chains) */
    s = setup("e5", "f5 g5", 0);
    assert_false(listed(&s, "e5-f5"));
    assert_int_equal(play(&s, "e5-f5"), GAME_EILLEGAL);
    /* by an own piece behind */
    s = setup("e5 g5", "f5", 0);
    assert_int_equal(play(&s, "e5-f5"), GAME_EILLEGAL);
    /* never onto an own piece, never two cells */
    s = setup("e5 f5", "a1", 0);
    assert_int_equal(play(&s, "e5-f5"), GAME_EILLEGAL);
    assert_int_equal(play(&s, "e5-g5"), GAME_EILLEGAL);
    assert_int_equal(play(&s, "e5-f4"), GAME_EILLEGAL); /* (+1,-1) is no direction */
}

static void test_suicide(void **state)
{
    (void)state;
    /* white cluster b1 a2 b2 with liberties a1 c3 only */
    struct pal_state s = setup("c1 c2 a3 b3", "b1 a2 b2", 0);
    assert_int_equal(play(&s, "@a1"), GAME_EILLEGAL); /* one-maneuver suicide */
    assert_false(listed(&s, "@a1"));
    assert_false(listed(&s, "@a1,@e5")); /* second maneuver does not help */
    assert_int_equal(play(&s, "@a1,@e5"), GAME_EILLEGAL);
    /* first maneuver suicidal, the second captures: legal */
    assert_true(listed(&s, "@a1,@c3"));
    struct pal_state t = s;
    assert_int_equal(play(&t, "@a1,@c3"), 0);
    assert_int_equal(t.captures[0], 3);
    assert_int_equal(at(&t, "a1"), 0);
    assert_int_equal(at(&t, "b2"), -1);
    /* the other order captures on the second maneuver too */
    t = s;
    assert_int_equal(play(&t, "@c3,@a1"), 0);
    assert_int_equal(t.captures[0], 3);
}

static void test_capture_after_first(void **state)
{
    (void)state;
    /* white a1 in atari (liberty b2); black captures it with the first
     * maneuver and summons onto the freed cell with the second */
    struct pal_state s = setup("b1 a2", "a1", 0);
    assert_true(listed(&s, "@b2,@a1"));
    assert_int_equal(play(&s, "@b2,@a1"), 0);
    assert_int_equal(at(&s, "a1"), 0);
    assert_int_equal(s.captures[0], 1);
    /* and the capture really happens after the first maneuver: without it
     * a1 would still be occupied */
    s = setup("b1 a2", "a1", 0);
    assert_int_equal(play(&s, "@a1"), GAME_EILLEGAL);
}

static void test_undo(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "a1", 0);
    assert_false(listed(&s, "e5-f5,f5-e5"));
    assert_int_equal(play(&s, "e5-f5,f5-e5"), GAME_EILLEGAL);
    assert_true(listed(&s, "e5-f5,f5-g5"));
    /* another piece may take the vacated cell */
    s = setup("e5 d5", "a1", 0);
    assert_int_equal(play(&s, "e5-f5,d5-e5"), 0);
    /* a push cannot be undone either */
    s = setup("e5", "f5", 0);
    assert_int_equal(play(&s, "e5-f5,f5-e5"), GAME_EILLEGAL);
    assert_int_equal(play(&s, "e5-f5,@e5"), 0); /* a summon there is fine */
}

static void test_end_passes(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "a1", 0);
    struct game_result r;
    assert_int_equal(play(&s, "pass"), 0);
    G->result(&s, NULL, 0, &r);
    assert_false(r.over);
    assert_int_equal(play(&s, "@b2"), 0); /* breaks the pass run */
    assert_int_equal(play(&s, "pass"), 0);
    assert_int_equal(play(&s, "pass"), 0);
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "passes");
    assert_string_equal(game_outcome2(&r), "draw");
    gmove mv[4];
    assert_int_equal(G->gen_moves(&s, mv, 4), 0);
    char err[GAME_ERR_LEN];
    assert_int_equal(G->parse_move(&s, "pass", &mv[0], err, sizeof err), GAME_EOVER);
}

static void test_end_quiet(void **state)
{
    (void)state;
    struct pal_state s = setup("e5 b1 a2", "a1 i9", 0);
    s.quiet = 18;
    struct pal_state t = s;
    assert_int_equal(play(&t, "@e6"), 0); /* a summon resets the counter */
    assert_int_equal(t.quiet, 0);
    t = s;
    assert_int_equal(play(&t, "e5-e6"), 0);
    assert_int_equal(t.quiet, 19);
    struct game_result r;
    G->result(&t, NULL, 0, &r);
    assert_false(r.over);
    struct pal_state u = t;
    assert_int_equal(play(&u, "i9-h9"), 0); /* 20th quiet ply */
    G->result(&u, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "quiet");
    assert_string_equal(game_outcome2(&r), "draw");
    /* a capture resets it too, and decides the winner */
    u = t;
    assert_int_equal(play(&u, "pass"), 0); /* quiet 20 */
    s = setup("b1 c3", "a1 i9", 0);
    s.quiet = 19;
    assert_int_equal(play(&s, "@a2,c3-b2"), 0);
    assert_int_equal(s.quiet, 0);
    assert_int_equal(s.captures[0], 1);
    s.passes = 2;
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p1win");
}

static void test_empty_reserve(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "a1", 0);
    s.reserve[0] = 0;
    assert_int_equal(play(&s, "@e6"), GAME_EILLEGAL);
    static gmove mv[PAL_MAX_TURNS];
    int n = G->gen_moves(&s, mv, PAL_MAX_TURNS);
    for (int i = 0; i < n; i++) {
        char b[64];
        G->format_move(&s, mv[i], b, sizeof b);
        assert_null(strchr(b, '@'));
    }
    assert_true(n > 1);
    /* one summon left: the second summon of a turn is illegal */
    s.reserve[0] = 1;
    assert_int_equal(play(&s, "@e6,@e7"), GAME_EILLEGAL);
    assert_int_equal(play(&s, "@e6,e5-d5"), 0);
    assert_int_equal(s.reserve[0], 0);
}

static void test_gen_overflow(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "a1", 0);
    gmove mv[100];
    assert_int_equal(G->gen_moves(&s, mv, 100), -1);
    int n = G->count_moves(&s);
    assert_true(n > 3000);
    static gmove all[PAL_MAX_TURNS];
    assert_int_equal(G->gen_moves(&s, all, PAL_MAX_TURNS), n);
    assert_int_equal(G->gen_moves(&s, all, n), n);
    assert_int_equal(G->gen_moves(&s, all, n - 1), -1);
}

/* count_moves (fast) agrees with gen_moves on policy-played games, which
 * are full of captures, holes and pushes. */
static void test_count(void **state)
{
    (void)state;
    static gmove mv[PAL_MAX_TURNS];
    struct rng r;
    rng_seed(&r, 11);
    long checked = 0;
    for (int n = 4; n <= 7; n++) {
        const struct pal_geom *g = pal_geom(n);
        for (int game = 0; game < (n <= 5 ? 6 : 1); game++) {
            struct pal_state s;
            pal_start(&s, n);
            while (!pal_over(&s)) {
                int a = G->gen_moves(&s, mv, PAL_MAX_TURNS);
                assert_int_equal(G->count_moves(&s), a);
                checked++;
                struct pal_state save = s;
                while (pal_policy_man(g, &s, &r, &pal_default_policy))
                    ;
                if (!pal_can_end(g, &s))
                    s = save;
                pal_end_turn(&s);
            }
        }
    }
    assert_true(checked > 200);
}

/* The playouts' incremental cluster lists (rules_core.h, struct po) agree
 * with a full recount after every maneuver of policy-played games on every
 * board size, and so do the legality and capture shortcuts of the policy
 * (pal_po_check); a bookkeeping slip makes it return -1.  The boards of
 * N <= 5 are checked on both builds of their code. */
static void test_playout_lists(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 5);
    long checked = 0;
    /* N = 4..9, then N = 4 and 5 again on the other build of the N <= 5
     * code (rules_w1.c or rules_w1h.c) where this processor runs both */
    const bool fast = pal_fast_cpu(-1);
    for (int i = 0; i < 8; i++) {
        const int n = i < 6 ? 4 + i : i - 2;
        pal_fast_cpu(i < 6 ? fast : !fast);
        const struct pal_geom *g = pal_geom(n);
        for (int game = 0; game < (n <= 5 ? 8 : 2); game++) {
            struct pal_state s;
            pal_start(&s, n);
            long c = pal_po_check(g, &s, &r, 400);
            assert_true(c > 0);
            assert_true(pal_all_alive(g, &s));
            checked += c;
        }
    }
    pal_fast_cpu(fast);
    assert_true(checked > 2000);
}

/* rng_range, the playouts' draw in [0, n) (rng_range_inline there): in
 * range for every n, the same sequence from the same state, and unbiased
 * where the multiplication alone is not: for n = 3 * 2^62, v = floor(3x /
 * 4) takes the multiples of 3 twice as often (half the draws) unless the
 * low words below 2^64 mod n = 2^62 are drawn again. */
static void test_playout_range(void **state)
{
    (void)state;
    struct rng r, q;
    rng_seed(&r, 9);
    const uint64_t ns[] = {1, 2, 3, 6, 7, 385, (uint64_t)3 << 62, ((uint64_t)1 << 63) + 1,
                           UINT64_MAX};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (int k = 0; k < 2000; k++)
            assert_true(rng_range(&r, ns[i]) < ns[i]);
    rng_seed(&r, 10);
    rng_seed(&q, 10);
    for (int k = 0; k < 1000; k++)
        assert_true(rng_range(&r, 1000) == rng_range(&q, 1000));
    int third = 0, counts[6] = {0};
    for (int k = 0; k < 30000; k++)
        third += rng_range(&r, (uint64_t)3 << 62) % 3 == 0;
    assert_in_range(third, 9500, 10500); /* 10 000 expected, sd 82; biased: 15 000 */
    for (int k = 0; k < 60000; k++)
        counts[rng_range(&r, 6)]++;
    for (int v = 0; v < 6; v++)
        assert_in_range(counts[v], 9500, 10500); /* sd 91 */
}

/* The N <= 5 code built for POPCNT and BMI2 (rules_w1h.c) plays the same
 * playouts as the portable build (rules_w1.c): the same maneuvers and
 * results for the same random numbers.  (Where the processor lacks them,
 * both runs take the portable code.) */
static void test_fast_cpu_same_playouts(void **state)
{
    (void)state;
    static struct pal_trace tr[2];
    long mans = 0;
    for (int n = 4; n <= 5; n++) {
        const struct pal_geom *g = pal_geom(n);
        for (int seed = 1; seed <= 100; seed++) {
            int diff[2];
            struct pal_state end[2];
            for (int fast = 0; fast <= 1; fast++) {
                pal_fast_cpu(fast);
                struct rng r;
                rng_seed(&r, (uint64_t)seed);
                pal_start(&end[fast], n);
                tr[fast].n = 0;
                diff[fast] = pal_playout(g, &end[fast], &r, &pal_default_policy, &tr[fast]);
            }
            assert_int_equal(diff[0], diff[1]);
            assert_int_equal(tr[0].n, tr[1].n);
            assert_memory_equal(tr[0].key, tr[1].key, (size_t)tr[0].n * sizeof tr[0].key[0]);
            assert_memory_equal(tr[0].side, tr[1].side, (size_t)tr[0].n);
            assert_memory_equal(&end[0], &end[1], sizeof end[0]);
            mans += tr[0].n;
        }
    }
    pal_fast_cpu(1);
    assert_true(mans > 10000);
}

/* A search of `nodes` simulations from s through mc_go. */
static gmove search_nodes(struct mcts *t, const struct pal_state *s, uint64_t nodes)
{
    atomic_bool stop = false;
    struct search_req req;
    memset(&req, 0, sizeof req);
    req.game = G;
    req.pos = s;
    limits_clear(&req.lim);
    req.lim.nodes = nodes;
    req.lim.infinite = false;
    req.start_us = now_us();
    req.stop = &stop;
    return mc_go(t, &req);
}

/* Every root edge of the tree is a legal maneuver of s (the root is s). */
static void assert_root_is(const struct mcts *t, const struct pal_state *s)
{
    const struct pal_geom *g = pal_geom(s->n);
    const struct mc_node *r = &t->nodes[t->root];
    assert_true(r->expanded);
    assert_int_equal(r->side, s->stm);
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++)
        if (t->edges[i].key != PAL_KEY_END)
            assert_true(pal_man_ok(g, s, pal_key_man(g, t->edges[i].key)));
}

/* pal_key_man undoes pal_man_key (the tree keeps only the key): for every
 * board size, every summon and every step of the geometry. */
static void test_key_man(void **state)
{
    (void)state;
    for (int n = PAL_MIN_N; n <= PAL_MAX_N; n++) {
        const struct pal_geom *g = pal_geom(n);
        int steps = 0;
        assert_int_equal(pal_key_man(g, PAL_KEY_END), 0);
        for (int c = 0; c < g->ncells; c++) {
            pal_man m = PAL_MAN(PAL_SUMMON, 0, c);
            assert_int_equal(pal_man_key(g, m), (unsigned)c);
            assert_int_equal(pal_key_man(g, (unsigned)c), m);
            for (int k = 0; k < PAL_NDIR; k++) {
                if (g->step[c][k] < 0)
                    continue;
                m = PAL_MAN(PAL_STEP, c, g->step[c][k]);
                unsigned key = pal_man_key(g, m);
                assert_true(key >= PAL_MAX_CELLS && key < PAL_KEY_END);
                assert_int_equal(pal_key_man(g, key), m);
                steps++;
            }
        }
        assert_true(steps > 0);
    }
}

/* TreeReuse: the next search starts from the old tree's node for the new
 * position (its visits kept, the budget counting only new simulations);
 * off, or for a position the tree does not hold, or after mc_clear, it
 * starts afresh. */
static void test_tree_reuse(void **state)
{
    (void)state;
    static struct mcts t;
    const struct pal_geom *g = pal_geom(5);
    for (int reuse = 0; reuse <= 1; reuse++) {
        mc_init(&t, 8, 3);
        t.par.reuse = reuse;
        struct pal_state s;
        pal_start(&s, 5);
        for (int turn = 0; turn < 6; turn++) {
            gmove m = search_nodes(&t, &s, 2000);
            assert_root_is(&t, &s);
            assert_true(t.sims == 2000 || t.nodes[t.root].proven);
            if (turn > 0 && reuse)
                assert_true(t.reused > 0); /* our last turn's node was searched */
            if (!reuse)
                assert_true(t.reused == 0);
            char tok[64], err[GAME_ERR_LEN];
            gmove back;
            G->format_move(&s, m, tok, sizeof tok);
            assert_int_equal(G->parse_move(&s, tok, &back, err, sizeof err), 0);
            pal_play_turn(g, &s, m);
        }
        /* a position the tree does not hold */
        struct pal_state other = setup("e5 e6", "a1", 0);
        search_nodes(&t, &other, 500);
        assert_true(t.reused == 0);
        assert_root_is(&t, &other);
        search_nodes(&t, &other, 500); /* the same position again */
        assert_true(reuse ? t.reused >= 500 : t.reused == 0);
        mc_clear(&t);
        search_nodes(&t, &other, 500);
        assert_true(t.reused == 0);
        mc_free(&t);
    }
}

/* Rave=grave: selection reads the AMAF statistics of an ancestor (the GRAVE
 * table is filled), the search finds legal turns, and it searches a
 * different tree from plain RAVE's from the same seed. */
static void test_grave(void **state)
{
    (void)state;
    static struct mcts t;
    struct pal_state s;
    pal_start(&s, 5);
    struct rng r;
    rng_seed(&r, 9);
    for (int k = 0; k < 6; k++)
        pal_play_turn(pal_geom(5), &s, pal_random_turn(&s, &r));
    uint32_t nodes[2];
    for (int grave = 0; grave <= 1; grave++) {
        mc_init(&t, 8, 1);
        t.par.grave_ref = grave ? 25 : 0;
        gmove m = mc_search_sims(&t, &s, 3000);
        char tok[64], err[GAME_ERR_LEN];
        gmove back;
        G->format_move(&s, m, tok, sizeof tok);
        assert_int_equal(G->parse_move(&s, tok, &back, err, sizeof err), 0);
        assert_true((t.w[0].gstamp[0] + t.w[0].gstamp[1] > 0) == (grave == 1));
        nodes[grave] = t.nnodes;
        mc_free(&t);
    }
    assert_true(nodes[0] != nodes[1]);
}

/* ---- Threads: tree parallelism on the shared tree ----------------------- */

/* Below node k: every node with a proven child says so (pchild: select_edge
 * reads the children's proven values only then); the nodes visited. */
static uint32_t assert_pchild(const struct mcts *t, uint32_t k)
{
    const struct mc_node *x = &t->nodes[k];
    uint32_t seen = 1;
    if (x->expanded != 1)
        return seen;
    for (uint32_t i = x->edges; i < x->edges + x->nedges; i++) {
        const uint32_t c = t->edges[i].child;
        if (!c)
            continue;
        if (t->nodes[c].proven)
            assert_true(x->pchild);
        seen += assert_pchild(t, c);
    }
    return seen;
}

/* The statistics of the root add up after a search: every simulation went
 * through one root edge (none is left with a virtual loss, no update was
 * lost), and every node and edge index is inside the pools. */
static void assert_tree_sound(struct mcts *t)
{
    const struct mc_node *r = &t->nodes[t->root];
    uint64_t sum = 0;
    assert_true(t->nnodes <= t->nodes_cap);
    assert_true(t->nedges <= t->edges_cap);
    for (uint32_t i = r->edges; i < r->edges + r->nedges; i++) {
        const struct mc_edge *e = &t->edges[i];
        assert_true(e->n >= e->pn);
        assert_true(e->an <= e->n - e->pn + 1000000u);
        sum += e->n - e->pn;
        assert_true(e->child < t->nnodes);
    }
    if (!r->proven && !t->reused)
        assert_true(sum == r->n); /* (a reused root had visits as a leaf) */
    if (!r->proven)
        assert_true(sum <= r->n && r->n - t->reused <= sum);
    for (uint32_t k = 1; k < t->nnodes; k++) {
        const struct mc_node *x = &t->nodes[k];
        assert_true(x->expanded == 0 || x->expanded == 1); /* none left half-made */
        if (x->expanded == 1)
            assert_true(x->edges + x->nedges <= t->nedges);
    }
    assert_true(assert_pchild(t, t->root) >= 1);
}

static void assert_legal(const struct pal_state *s, gmove m)
{
    char tok[64], err[GAME_ERR_LEN];
    gmove back;
    G->format_move(s, m, tok, sizeof tok);
    assert_int_equal(G->parse_move(s, tok, &back, err, sizeof err), 0);
}

/* Searches with 2..4 threads from random positions of every size: legal
 * turns, exactly the budget of simulations (shared by the threads), sound
 * statistics. */
static void test_threads_legal(void **state)
{
    (void)state;
    static struct mcts t;
    mc_init(&t, 16, 5);
    struct rng r;
    rng_seed(&r, 77);
    for (int n = PAL_MIN_N; n <= PAL_MAX_N; n++) {
        struct pal_state s;
        pal_start(&s, n);
        int turns = (int)rng_below(&r, 12);
        for (int k = 0; k < turns && !pal_over(&s); k++)
            pal_play_turn(pal_geom(n), &s, pal_random_turn(&s, &r));
        if (pal_over(&s))
            continue;
        for (int th = 2; th <= 4; th++) {
            assert_int_equal(mc_set_threads(&t, th), 0);
            gmove m = search_nodes(&t, &s, 1500);
            assert_legal(&s, m);
            assert_true(t.sims == 1500 || t.nodes[t.root].proven);
            assert_tree_sound(&t);
            m = mc_search_sims(&t, &s, 1200);
            assert_legal(&s, m);
            assert_true(t.sims == 1200 || t.nodes[t.root].proven);
            assert_tree_sound(&t);
        }
    }
    mc_free(&t);
}

/* A small Hash filled by 4 threads: the pools are never overrun, the
 * search goes on (playouts from the leaves) and answers a legal turn. */
static void test_threads_hash_bound(void **state)
{
    (void)state;
    static struct mcts t;
    mc_init(&t, 1, 2);
    assert_int_equal(mc_set_threads(&t, 4), 0);
    struct pal_state s;
    pal_start(&s, 7);
    struct rng r;
    rng_seed(&r, 4);
    for (int k = 0; k < 4; k++)
        pal_play_turn(pal_geom(7), &s, pal_random_turn(&s, &r));
    gmove m = search_nodes(&t, &s, 12000);
    assert_legal(&s, m);
    assert_true(t.sims == 12000);
    /* full: a node or an edge block more would not have fitted */
    assert_true(t.nnodes == t.nodes_cap || t.nedges + 400 > t.edges_cap);
    assert_tree_sound(&t);
    mc_free(&t);
}

/* The tree's pools of 2 MiB and more start on a 2 MiB boundary (where
 * transparent huge pages can back them: mcts.c, pool_alloc), after
 * mc_init and after a resize, and a search on them is sound; smaller
 * pools (Hash 1) are plain allocations and work the same. */
static void test_pools_huge_aligned(void **state)
{
    (void)state;
    static struct mcts t;
    const uintptr_t huge = (uintptr_t)2 << 20;
    mc_init(&t, 16, 9); /* nodes 2 MiB, edges 14 MiB */
    assert_int_equal((uintptr_t)t.nodes & (huge - 1), 0);
    assert_int_equal((uintptr_t)t.edges & (huge - 1), 0);
    struct pal_state s;
    pal_start(&s, 5);
    assert_legal(&s, search_nodes(&t, &s, 3000));
    assert_tree_sound(&t);
    assert_int_equal(mc_resize(&t, 1), 0);
    assert_legal(&s, search_nodes(&t, &s, 3000));
    assert_tree_sound(&t);
    assert_int_equal(mc_resize(&t, 64), 0);
    assert_int_equal((uintptr_t)t.nodes & (huge - 1), 0);
    assert_int_equal((uintptr_t)t.edges & (huge - 1), 0);
    assert_legal(&s, search_nodes(&t, &s, 3000));
    assert_tree_sound(&t);
    mc_free(&t);
}

struct bg_search {
    struct mcts *t;
    const struct pal_state *s;
    atomic_bool stop;
    gmove m;
};

static void *bg_go(void *arg)
{
    struct bg_search *b = arg;
    struct search_req req;
    memset(&req, 0, sizeof req);
    req.game = G;
    req.pos = b->s;
    limits_clear(&req.lim);
    req.lim.infinite = true;
    req.start_us = now_us();
    req.stop = &b->stop;
    b->m = mc_go(b->t, &req);
    return NULL;
}

/* stop during a 4-thread infinite search: mc_go joins every helper before
 * it returns, so it returning at all is the test; the latency is shown. */
static void test_threads_stop(void **state)
{
    (void)state;
    static struct mcts t;
    mc_init(&t, 32, 6);
    assert_int_equal(mc_set_threads(&t, 4), 0);
    struct pal_state s;
    pal_start(&s, 9);
    for (int round = 0; round < 3; round++) {
        struct bg_search b = {.t = &t, .s = &s, .m = 0};
        atomic_init(&b.stop, false);
        pthread_t th;
        atomic_store(&t.sims, 0); /* (no search runs: the last one's count gone) */
        assert_int_equal(pthread_create(&th, NULL, bg_go, &b), 0);
        /* until the helpers have searched a little (no clock: a count) */
        while (atomic_load(&t.sims) < (uint64_t)(50 + 200 * round)) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        int64_t t0 = now_us();
        atomic_store(&b.stop, true);
        pthread_join(th, NULL);
        print_message("palagan 4-thread stop: joined in %.1f ms\n", (now_us() - t0) / 1000.0);
        assert_legal(&s, b.m);
        assert_tree_sound(&t);
    }
    mc_free(&t);
}

/* Threads changes between searches keep the tree: with TreeReuse the
 * next search starts from the old tree's node whatever the thread count,
 * and 4 -> 1 -> 3 -> 1 searches are all sound. */
static void test_threads_change_reuse(void **state)
{
    (void)state;
    static struct mcts t;
    mc_init(&t, 8, 3);
    t.par.reuse = true;
    const struct pal_geom *g = pal_geom(5);
    struct pal_state s;
    pal_start(&s, 5);
    const int ths[] = {4, 1, 3, 1, 2, 4};
    for (int turn = 0; turn < 6; turn++) {
        assert_int_equal(mc_set_threads(&t, ths[turn]), 0);
        assert_int_equal(t.nthreads, ths[turn]);
        gmove m = search_nodes(&t, &s, 2000);
        assert_root_is(&t, &s);
        assert_true(t.sims == 2000 || t.nodes[t.root].proven);
        if (turn > 0)
            assert_true(t.reused > 0);
        assert_tree_sound(&t);
        assert_legal(&s, m);
        pal_play_turn(g, &s, m);
    }
    mc_free(&t);
}

/* Threads=1 is the single-threaded search: the same seed gives the same
 * tree and the same turn as before any thread ran, and 1 -> 4 -> 1 comes
 * back to it (each worker's stream is seeded by mc_seed). */
static void test_threads_one_same(void **state)
{
    (void)state;
    static struct mcts t;
    struct pal_state s;
    pal_start(&s, 6);
    uint32_t nodes[2];
    gmove mv[2];
    for (int k = 0; k < 2; k++) {
        mc_init(&t, 8, 1);
        if (k) {
            assert_int_equal(mc_set_threads(&t, 4), 0);
            mc_search_sims(&t, &s, 500);
            assert_int_equal(mc_set_threads(&t, 1), 0);
            mc_seed(&t, 1);
        }
        mv[k] = mc_search_sims(&t, &s, 2000);
        nodes[k] = t.nnodes;
        mc_free(&t);
    }
    assert_true(nodes[0] == nodes[1]);
    assert_true(mv[0] == mv[1]);
}

/* A forced win found with 4 threads: black is a capture ahead with the
 * quiet counter at 18 and neither side has a reserve; any black turn (a
 * pass or steps) brings it to 19 and white, who cannot capture, can only
 * make the 20th quiet ply.  The solver proves the root (every white reply
 * of some black turn searched to the end; the search stops early) and the
 * turn played is a proven win. */
static void test_threads_forced_win(void **state)
{
    (void)state;
    static struct mcts t;
    struct pal_state s = setup("e5 e6", "a1", 0);
    s.reserve[0] = s.reserve[1] = 0;
    s.captures[0] = 1;
    s.quiet = 18;
    for (int th = 1; th <= 4; th += 3) {
        mc_init(&t, 16, 8);
        assert_int_equal(mc_set_threads(&t, th), 0);
        gmove m = search_nodes(&t, &s, 200000);
        assert_legal(&s, m);
        assert_true(t.nodes[t.root].proven == 64 + 1); /* black wins by one capture */
        assert_true(t.sims < 200000);
        struct pal_state after = s;
        pal_play_turn(pal_geom(5), &after, m);
        assert_int_equal(after.quiet, 19);
        /* the reply node is proven: every white turn was searched to its end */
        uint32_t cur = t.root;
        while (t.nodes[cur].side == 0) { /* down black's winning maneuvers */
            const struct mc_node *b = &t.nodes[cur];
            uint32_t next = 0;
            for (uint32_t i = b->edges; i < b->edges + b->nedges; i++)
                if (t.edges[i].child && t.nodes[t.edges[i].child].proven == 65)
                    next = t.edges[i].child;
            assert_true(next != 0);
            cur = next;
        }
        const struct mc_node *w = &t.nodes[cur];
        assert_true(w->expanded == 1 && w->nedges > 3);
        for (uint32_t i = w->edges; i < w->edges + w->nedges; i++)
            assert_true(t.edges[i].child && t.nodes[t.edges[i].child].proven == 65);
        assert_tree_sound(&t);
        mc_free(&t);
    }
}

static void test_fen(void **state)
{
    (void)state;
    struct pal_state s, t;
    struct pal_config cfg;
    char buf[1024], err[GAME_ERR_LEN];
    G->config_default(&cfg);
    G->start(&s, &cfg);
    G->format_pos(&s, buf, sizeof buf);
    assert_string_equal(buf, "5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0 0");
    /* random games: every position round-trips with the same hash */
    struct rng r;
    rng_seed(&r, 7);
    static gmove mv[PAL_MAX_TURNS];
    for (int game = 0; game < 6; game++) {
        pal_start(&s, 4 + game);
        for (int ply = 0; ply < 60; ply++) {
            G->format_pos(&s, buf, sizeof buf);
            memset(&t, 0xab, sizeof t);
            assert_int_equal(G->parse_pos(&t, &cfg, buf, err, sizeof err), 0);
            char again[1024];
            G->format_pos(&t, again, sizeof again);
            assert_string_equal(buf, again);
            assert_true(G->hash(&s) == G->hash(&t));
            assert_int_equal(memcmp(&s, &t, sizeof s), 0);
            int n = G->gen_moves(&s, mv, PAL_MAX_TURNS);
            if (n <= 0)
                break;
            G->play(&s, mv[n > 1 ? 1 + rng_below(&r, (uint64_t)n - 1) : 0]);
        }
    }
    const char *bad[] = {
        "",
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 1 0",     /* a field short */
        "5/6/7/8/9/8/7/6/5 x 20/20 0/0 1 0 0",   /* side */
        "5/6/7/8/9/8/7/6/4 b 20/20 0/0 0 0 0",   /* short rank */
        "5/6/7/8/9/8/7/6/6 b 20/20 0/0 0 0 0",   /* long rank */
        "5/6/7/8/9/8/7/6 b 20/20 0/0 0 0 0",     /* even rank count */
        "5/6/7/8/9/8/7/6/5 b 21/20 0/0 0 0 0",   /* reserve */
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 0 21 0",  /* quiet */
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 0 0 3",   /* passes */
        "5/6/7/8/9/8/7/6/5 w 20/20 0/0 1 0 0",   /* first turn is black's */
        "5/6/7/8/9/8/7/6/bb3 b 18/20 0/0 0 0 0", /* legal */
        "5/6/7/8/9/8/7/6/wb3 b 19/19 0/0 0 0 0", /* legal */
        "5/6/7/8/9/8/7/6/5 b 20/20 0/1 0 0 0",   /* 21 black pieces */
        "5/6/7/8/9/8/7/bb4/wb3 b 16/19 0/0 0 0 0", /* a1 white, no liberty */
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 0 0 0 x", /* extra field */
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 0 -1 0",
        "5/6/7/8/9/8/7/6/5 b 20/20 0/0 0 01x 0",
        "5/6/7/8/z/8/7/6/5 b 20/20 0/0 0 0 0",
        "5/6/7/8/09/8/7/6/5 b 20/20 0/0 0 0 0",
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        if (i == 10 || i == 11)
            continue; /* legal, checked below */
        memset(&t, 0x5a, sizeof t);
        struct pal_state u = t;
        assert_int_not_equal(G->parse_pos(&t, &cfg, bad[i], err, sizeof err), 0);
        assert_int_equal(memcmp(&t, &u, sizeof t), 0); /* untouched */
    }
    assert_int_equal(G->parse_pos(&t, &cfg, bad[10], err, sizeof err), 0);
    assert_int_equal(G->parse_pos(&t, &cfg, bad[11], err, sizeof err), 0);
    assert_int_equal(pal_at(&t, cell("a1")), 1);
    assert_int_equal(pal_at(&t, cell("b1")), 0);
    /* a size-4 and a size-9 string */
    assert_int_equal(G->parse_pos(&t, &cfg, "4/5/6/7/6/5/4 w 20/19 0/0 0 3 1", err, sizeof err), 0);
    assert_int_equal(t.n, 4);
    assert_int_equal(t.stm, 1);
    assert_int_equal(G->parse_pos(&t, &cfg,
                                  "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/b8 w 19/20 0/0 0 0 0",
                                  err, sizeof err), 0);
    assert_int_equal(t.n, 9);
    G->format_pos(&t, buf, sizeof buf);
    assert_string_equal(buf, "9/10/11/12/13/14/15/16/17/16/15/14/13/12/11/10/b8 w 19/20 0/0 0 0 0");
}

static void test_tokens(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "f5", 0);
    char err[GAME_ERR_LEN];
    gmove m;
    const char *syn[] = {"", "@", "@e", "e5-", "e5--f5", "@e5,", ",@e5", "@e5,@e6,@e7",
                         "e5-f5x", "@e0", "@e05", "5e", "pas", "PASS2", "e5f"};
    for (size_t i = 0; i < ARRAY_LEN(syn); i++)
        assert_int_equal(G->parse_move(&s, syn[i], &m, err, sizeof err), GAME_ESYNTAX);
    const char *ill[] = {"@e5", "@j5", "@a9", "@e10", "f5-g5", "e5-e5", "d4-e4", "@e6,@e6"};
    for (size_t i = 0; i < ARRAY_LEN(ill); i++)
        assert_int_equal(G->parse_move(&s, ill[i], &m, err, sizeof err), GAME_EILLEGAL);
    /* accepted spellings, printed canonically */
    assert_int_equal(G->parse_move(&s, "e5f5", &m, err, sizeof err), 0);
    char b[64];
    G->format_move(&s, m, b, sizeof b);
    assert_string_equal(b, "e5-f5");
    assert_int_equal(G->parse_move(&s, "@E6,E5-F5", &m, err, sizeof err), 0);
    G->format_move(&s, m, b, sizeof b);
    assert_string_equal(b, "@e6,e5-f5");
}

static void test_show(void **state)
{
    (void)state;
    struct pal_state s = setup("e5", "f6", 0);
    char buf[4096];
    G->show(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, " 5    . . . . b . . . .\n"));
    assert_non_null(strstr(buf, "reserve black 19 white 19"));
    for (int n = 4; n <= 9; n++) {
        pal_start(&s, n);
        G->show(&s, buf, sizeof buf);
        assert_true(strlen(buf) < sizeof buf - 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_first_turn),
        cmocka_unit_test(test_summon_captures),
        cmocka_unit_test(test_push),
        cmocka_unit_test(test_push_blocked),
        cmocka_unit_test(test_suicide),
        cmocka_unit_test(test_capture_after_first),
        cmocka_unit_test(test_undo),
        cmocka_unit_test(test_end_passes),
        cmocka_unit_test(test_end_quiet),
        cmocka_unit_test(test_empty_reserve),
        cmocka_unit_test(test_gen_overflow),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_playout_lists),
        cmocka_unit_test(test_fast_cpu_same_playouts),
        cmocka_unit_test(test_playout_range),
        cmocka_unit_test(test_key_man),
        cmocka_unit_test(test_tree_reuse),
        cmocka_unit_test(test_grave),
        cmocka_unit_test(test_threads_legal),
        cmocka_unit_test(test_threads_hash_bound),
        cmocka_unit_test(test_pools_huge_aligned),
        cmocka_unit_test(test_threads_stop),
        cmocka_unit_test(test_threads_change_reuse),
        cmocka_unit_test(test_threads_one_same),
        cmocka_unit_test(test_threads_forced_win),
        cmocka_unit_test(test_fen),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_show),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
