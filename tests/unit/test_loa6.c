/* test_loa6.c - 6x6 Lines of Action (newgame size=6): the engine's rules
 * against an independent brute-force generator on plain arrays (its own
 * position parser, line counts by walking the board, connection by a
 * breadth-first search: nothing shared with engines/loa/game.c but the
 * position string and the move tokens), perft from the 6x6 start, and the
 * 6x6 edge cases: moves off the board, captures, connection wins, the
 * simultaneous connection (the mover wins, RULES.md §1), the config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/loa/eval.h"
#include "engines/loa/loa.h"
#include "search/perft.h"

static const struct game *G = &loa_game;

/* ---- the brute-force rules ------------------------------------------------ */
struct nb {
    int n;         /* 6 or 8 */
    char c[8][8];  /* [rank][file]: '.', 'b', 'w' */
    char side;     /* 'b' or 'w' */
};

static int nb_parse(struct nb *b, const char *s)
{
    int y, x = 0, ranks = 1;
    for (const char *p = s; *p && *p != ' '; p++)
        ranks += *p == '/';
    if (ranks != 6 && ranks != 8)
        return -1;
    b->n = ranks;
    memset(b->c, '.', sizeof b->c);
    y = b->n - 1;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            if (x != b->n)
                return -1;
            y--;
            x = 0;
        } else if (*s >= '1' && *s <= '8')
            x += *s - '0';
        else if (x < b->n)
            b->c[y][x++] = *s;
        else
            return -1;
    }
    if (y != 0 || x != b->n || s[0] != ' ')
        return -1;
    b->side = s[1];
    return 0;
}

static int on(const struct nb *b, int x, int y) { return x >= 0 && y >= 0 && x < b->n && y < b->n; }

static int nb_connected(const struct nb *b, char who)
{
    int seen[8][8] = {{0}}, qx[64], qy[64], head = 0, tail = 0, total = 0;
    for (int y = 0; y < b->n; y++)
        for (int x = 0; x < b->n; x++)
            if (b->c[y][x] == who) {
                total++;
                if (!tail) {
                    seen[y][x] = 1;
                    qx[tail] = x;
                    qy[tail++] = y;
                }
            }
    while (head < tail) {
        int x = qx[head], y = qy[head++];
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int u = x + dx, v = y + dy;
                if (on(b, u, v) && b->c[v][u] == who && !seen[v][u]) {
                    seen[v][u] = 1;
                    qx[tail] = u;
                    qy[tail++] = v;
                }
            }
    }
    return total > 0 && tail == total;
}

/* over: the side that just moved connected (it wins ties), or the side to move */
static int nb_over(const struct nb *b)
{
    char us = b->side, them = us == 'b' ? 'w' : 'b';
    return nb_connected(b, them) || nb_connected(b, us);
}

struct nmove {
    int fx, fy, tx, ty;
};

static int nb_gen(const struct nb *b, struct nmove *out)
{
    static const int D[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    char us = b->side, them = us == 'b' ? 'w' : 'b';
    int k = 0;
    if (nb_over(b))
        return 0;
    for (int y = 0; y < b->n; y++)
        for (int x = 0; x < b->n; x++) {
            if (b->c[y][x] != us)
                continue;
            for (int d = 0; d < 8; d++) {
                int dx = D[d][0], dy = D[d][1], cnt = 1, ok = 1;
                for (int s = 1; on(b, x + s * dx, y + s * dy); s++)
                    cnt += b->c[y + s * dy][x + s * dx] != '.';
                for (int s = 1; on(b, x - s * dx, y - s * dy); s++)
                    cnt += b->c[y - s * dy][x - s * dx] != '.';
                int tx = x + cnt * dx, ty = y + cnt * dy;
                if (!on(b, tx, ty) || b->c[ty][tx] == us)
                    continue;
                for (int s = 1; s < cnt; s++)
                    if (b->c[y + s * dy][x + s * dx] == them)
                        ok = 0;
                if (ok)
                    out[k++] = (struct nmove){x, y, tx, ty};
            }
        }
    return k;
}

static void nb_play(struct nb *b, struct nmove m)
{
    b->c[m.ty][m.tx] = b->c[m.fy][m.fx];
    b->c[m.fy][m.fx] = '.';
    b->side = b->side == 'b' ? 'w' : 'b';
}

static void nb_token(const struct nb *b, struct nmove m, char *t)
{
    t[0] = (char)('a' + m.fx);
    t[1] = (char)('1' + m.fy);
    t[2] = b->c[m.ty][m.tx] == '.' ? '-' : 'x';
    t[3] = (char)('a' + m.tx);
    t[4] = (char)('1' + m.ty);
    t[5] = '\0';
}

static uint64_t nb_perft(const struct nb *b, int depth)
{
    struct nmove mv[8 * 12];
    uint64_t sum = 0;
    if (depth == 0)
        return 1;
    int k = nb_gen(b, mv);
    for (int i = 0; i < k; i++) {
        struct nb c = *b;
        nb_play(&c, mv[i]);
        sum += nb_perft(&c, depth - 1);
    }
    return sum;
}

/* ---- helpers ----------------------------------------------------------------- */
static void cfg6(game_config_buf *cfg)
{
    char err[GAME_ERR_LEN];
    G->config_default(cfg->b);
    assert_int_equal(G->config_set(cfg->b, "size", "6", err, sizeof err), GAME_OK);
}

static void start6(struct loa_state *s)
{
    game_config_buf cfg;
    cfg6(&cfg);
    G->start(s, cfg.b);
}

static void load(struct loa_state *s, const char *fen)
{
    char err[GAME_ERR_LEN];
    if (G->parse_pos(s, NULL, fen, err, sizeof err))
        fail_msg("parse '%s': %s", fen, err);
}

static void play(struct loa_state *s, const char *tok)
{
    gmove m;
    char err[GAME_ERR_LEN];
    if (G->parse_move(s, tok, &m, err, sizeof err))
        fail_msg("move %s: %s", tok, err);
    G->play(s, m);
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* The engine's moves and the brute force's, as sorted token lists, agree;
 * returns their number. */
static int same_moves(const struct loa_state *s)
{
    char fen[128], a[96][8], b[96][8];
    gmove mv[LOA_MAX_MOVES];
    struct nmove nm[96];
    struct nb nb;
    G->format_pos(s, fen, sizeof fen);
    assert_int_equal(nb_parse(&nb, fen), 0);
    int n = G->gen_moves(s, mv, LOA_MAX_MOVES), k = nb_gen(&nb, nm);
    if (n != k)
        fail_msg("%s: engine %d moves, brute force %d", fen, n, k);
    for (int i = 0; i < n; i++) {
        G->format_move(s, mv[i], a[i], sizeof a[i]);
        nb_token(&nb, nm[i], b[i]);
    }
    qsort(a, (size_t)n, sizeof a[0], cmp_str);
    qsort(b, (size_t)n, sizeof b[0], cmp_str);
    for (int i = 0; i < n; i++)
        if (strcmp(a[i], b[i]))
            fail_msg("%s: engine has %s where the brute force has %s", fen, a[i], b[i]);
    assert_int_equal(G->count_moves(s), n);
    return n;
}

/* ---- tests ----------------------------------------------------------------------- */

/* The brute force first earns its keep on 8x8 against the published counts. */
static void test_brute_force_8x8(void **st)
{
    struct nb b;
    static const uint64_t want[] = {1, 36, 1244, 44952};
    (void)st;
    assert_int_equal(nb_parse(&b, LOA_START), 0);
    for (int d = 0; d <= 3; d++)
        assert_true(nb_perft(&b, d) == want[d]);
}

/* Perft from the 6x6 start: the engine (both copies of the fast path), the
 * brute force and the figures of docs/games/loa.md agree. */
static void test_perft6_start(void **st)
{
    static const uint64_t want[] = {1, 24, 524, 11440, 234560, 4853792};
    const bool fast = loa_fast_cpu(-1);
    struct loa_state s;
    struct nb b;
    char fen[128];
    (void)st;
    start6(&s);
    G->format_pos(&s, fen, sizeof fen);
    assert_string_equal(fen, LOA_START6);
    assert_string_equal(fen, "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b");
    assert_int_equal(nb_parse(&b, fen), 0);
    for (int d = 0; d <= 5; d++) {
        uint64_t nbv = nb_perft(&b, d);
        if (nbv != want[d])
            fail_msg("brute force perft %d: %llu", d, (unsigned long long)nbv);
        for (int f = 0; f < 2; f++) {
            loa_fast_cpu(f);
            assert_true(perft(G, &s, d) == want[d]);
        }
    }
    loa_fast_cpu(fast);
}

/* Every position of random 6x6 games: the same moves as the brute force,
 * the same end, and the fast copies' facts equal the portable ones. */
static void test_random_games_vs_brute_force(void **st)
{
    const bool fast = loa_fast_cpu(-1);
    struct rng r;
    long positions = 0, ends = 0;
    (void)st;
    rng_seed(&r, 66);
    for (int game = 0; game < 300; game++) {
        struct loa_state s;
        start6(&s);
        for (int ply = 0; ply < 200; ply++) {
            gmove mv[LOA_MAX_MOVES];
            char fen[128];
            struct nb nb;
            struct game_result res;
            struct loa_mob m0, m1;
            int n, e0, e1;
            loa_fast_cpu(0);
            n = same_moves(&s);
            loa_mobility(&s, s.side, &m0);
            e0 = loa_eval(&s, &loa_default_weights);
            loa_fast_cpu(1);
            assert_int_equal(same_moves(&s), n);
            loa_mobility(&s, s.side, &m1);
            e1 = loa_eval(&s, &loa_default_weights);
            assert_memory_equal(&m0, &m1, sizeof m0);
            assert_int_equal(e0, e1);
            if (n)
                assert_int_equal(m0.moves, n);
            positions++;
            G->format_pos(&s, fen, sizeof fen);
            nb_parse(&nb, fen);
            G->result(&s, NULL, 0, &res);
            assert_int_equal(res.over, nb_over(&nb) || n == 0);
            if (res.over) {
                ends++;
                break;
            }
            n = G->gen_moves(&s, mv, LOA_MAX_MOVES);
            G->play(&s, mv[rng_below(&r, (uint64_t)n)]);
            assert_true((s.bb[0] | s.bb[1]) == ((s.bb[0] | s.bb[1]) & LOA_BOARD6));
        }
    }
    loa_fast_cpu(fast);
    assert_true(positions > 3000);
    assert_true(ends > 250);
}

static void test_contract_size6(void **st)
{
    game_config_buf cfg;
    char err[GAME_ERR_LEN];
    (void)st;
    cfg6(&cfg);
    if (game_check_play(G, cfg.b, 50, 6, err, sizeof err))
        fail_msg("%s", err);
}

static void test_config(void **st)
{
    game_config_buf cfg;
    char err[GAME_ERR_LEN], buf[64];
    (void)st;
    G->config_default(cfg.b);
    G->config_format(cfg.b, buf, sizeof buf);
    assert_string_equal(buf, "size=8");
    static const char *const bad[] = {"7", "5", "10", "06", "6 ", "", "-6", "eight", "66"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(G->config_set(cfg.b, "size", bad[i], err, sizeof err), GAME_EVALUE);
        G->config_format(cfg.b, buf, sizeof buf);
        assert_string_equal(buf, "size=8"); /* unchanged */
    }
    assert_int_equal(G->config_set(cfg.b, "players", "2", err, sizeof err), GAME_EVALUE);
    assert_int_equal(G->config_set(cfg.b, "size", "6", err, sizeof err), GAME_OK);
    G->config_format(cfg.b, buf, sizeof buf);
    assert_string_equal(buf, "size=6");
    assert_int_equal(G->config_set(cfg.b, "size", "8", err, sizeof err), GAME_OK);
    G->config_format(cfg.b, buf, sizeof buf);
    assert_string_equal(buf, "size=8");
}

static void test_positions6(void **st)
{
    static const char *const bad[] = {
        "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1",         /* no side */
        "1bbbb1/w4w/w4w/w4w/w4w/1bbbbb b",       /* 7 on a rank */
        "1bbbb1/w4w/w4w/w4w/w4w/1bbb1 b",        /* 5 */
        "1bbbb1/w4w/w4w/w4w/w4/1bbbb1 b",        /* 5 */
        "1bbbb1/w4w/w4w/w4w/w4w/7 b",            /* 7 */
        "bbbbbb/w4w/w4w/w4w/w4w/1bbbb1 b",       /* 10 black */
        "bbbbb1/w4w/w4w/w4w/w4w/1bbbb1 b",       /* 9 black */
        "6/6/6/6/6/6 b",                         /* no piece */
        "1bbbb1/w4w/w4w/w4w/w4w/w4w/1bbbb1 b",   /* 7 ranks */
        "1bbbb1/w4w/w4w/w4w/1bbbb1 b",           /* 5 ranks */
    };
    struct loa_state s, orig, t;
    char err[GAME_ERR_LEN], buf[256];
    (void)st;
    start6(&s);
    orig = s;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_not_equal(G->parse_pos(&s, NULL, bad[i], err, sizeof err), 0);
        assert_true(memcmp(&s, &orig, sizeof s) == 0);
    }
    /* 8 a side is fine; the string, not the config, says the size */
    load(&t, "bbbb2/bbbb2/6/6/wwww2/wwww2 w");
    assert_int_equal(t.size, 6);
    G->format_pos(&t, buf, sizeof buf);
    assert_string_equal(buf, "bbbb2/bbbb2/6/6/wwww2/wwww2 w");
    /* the same placement on 8x8 is another position, with another hash */
    load(&t, "6b1/8/6b1/8/8/w7/8/8 b");
    assert_int_equal(t.size, 8);
    load(&s, "6/6/6/w5/6/b5 b");
    load(&t, "8/8/8/8/8/w7/8/b7 b");
    assert_true(s.hash != t.hash);
    assert_true(s.bb[0] == t.bb[0] && s.bb[1] == t.bb[1]);
    /* show draws 6 files and ranks */
    start6(&s);
    G->show(&s, buf, sizeof buf);
    assert_non_null(strstr(buf, "  a b c d e f\n6 . x x x x . 6\n5 o . . . . o 5\n"));
    assert_null(strstr(buf, " g"));
    assert_non_null(strstr(buf, "black (x) 8  white (o) 8  black to move"));
    /* the incremental hash is the hash of the string */
    play(&s, "b1-b3");
    play(&s, "a3xc1");
    G->format_pos(&s, buf, sizeof buf);
    assert_string_equal(buf, "1bbbb1/w4w/w4w/1b3w/w4w/2wbb1 b");
    load(&t, buf);
    assert_true(memcmp(&s, &t, sizeof s) == 0);
}

/* Moves off the 6x6 board: never generated, and refused as input. */
static void test_off_board(void **st)
{
    struct loa_state s, orig;
    gmove m;
    char err[GAME_ERR_LEN];
    (void)st;
    start6(&s);
    orig = s;
    /* c1 along rank 1 (4 pieces) would land on g1, off the board */
    assert_int_equal(G->parse_move(&s, "c1-g1", &m, err, sizeof err), GAME_EILLEGAL);
    assert_non_null(strstr(err, "off the 6x6 board"));
    assert_int_equal(G->parse_move(&s, "b1-b7", &m, err, sizeof err), GAME_EILLEGAL);
    assert_int_equal(G->parse_move(&s, "h8-h6", &m, err, sizeof err), GAME_EILLEGAL);
    assert_int_equal(G->parse_move(&s, "g2xa3", &m, err, sizeof err), GAME_EILLEGAL);
    assert_int_equal(G->parse_move(&s, "i1-b3", &m, err, sizeof err), GAME_ESYNTAX);
    assert_int_equal(G->parse_move(&s, "b1-f1", &m, err, sizeof err), GAME_OK); /* 4 on rank 1 */
    assert_int_equal(G->parse_move(&s, "c1xa3", &m, err, sizeof err), GAME_OK);
    assert_int_equal(G->parse_move(&s, "c1-c3", &m, err, sizeof err), GAME_OK);
    assert_true(memcmp(&s, &orig, sizeof s) == 0);
    /* e5 with 2 pieces on rank 5 goes to c5, or to g5 on 8x8 only */
    load(&s, "6/w3b1/6/6/6/b4w b");
    assert_int_equal(same_moves(&s), 9);
    assert_int_equal(G->parse_move(&s, "e5-c5", &m, err, sizeof err), GAME_OK);
    assert_int_equal(G->parse_move(&s, "e5-g5", &m, err, sizeof err), GAME_EILLEGAL);
    load(&s, "8/8/8/w3b3/8/8/8/b4w2 b");
    assert_int_equal(G->parse_move(&s, "e5-g5", &m, err, sizeof err), GAME_OK);
}

static void test_captures6(void **st)
{
    struct loa_state s;
    struct game_result r;
    (void)st;
    /* c4 takes c2 (2 pieces on file c): black a1 b1 c2 connect, white a6
     * f6 do not: black wins */
    load(&s, "w4w/6/2b3/6/2w3/bb4 b");
    G->result(&s, NULL, 0, &r);
    assert_false(r.over);
    same_moves(&s);
    play(&s, "c4xc2");
    assert_int_equal(__builtin_popcountll(s.bb[LOA_WHITE]), 2);
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p1win");
    assert_string_equal(r.reason, "connected");
    /* c3 takes e3 and leaves white one piece: white, connected, wins */
    load(&s, "w5/6/6/2b1w1/6/b5 b");
    same_moves(&s);
    play(&s, "c3xe3");
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p2win");
}

/* A move that connects both sides: the mover wins (RULES.md §1), on 6x6. */
static void test_double_connection6(void **st)
{
    struct loa_state s;
    struct game_result r;
    (void)st;
    /* c3 takes c1 (2 on file c): black b1 c1 joined, white a6 b6 joined */
    load(&s, "ww4/6/6/2b3/6/1bw3 b");
    G->result(&s, NULL, 0, &r);
    assert_false(r.over);
    same_moves(&s);
    play(&s, "c3xc1");
    assert_true(loa_connected(s.bb[LOA_BLACK]));
    assert_true(loa_connected(s.bb[LOA_WHITE]));
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p1win");
    assert_string_equal(r.reason, "connected");
    assert_int_equal(G->gen_moves(&s, NULL, 0), 0);
    /* the same with the colours swapped: white moves, white wins */
    load(&s, "bb4/6/6/2w3/6/1wb3 w");
    play(&s, "c3xc1");
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p2win");
}

/* A quiet move that connects: e3 steps to e2 (1 piece on file e) and joins
 * b1 c1 d1. */
static void test_connection_win6(void **st)
{
    struct loa_state s;
    struct game_result r;
    (void)st;
    load(&s, "w5/6/6/4b1/6/1bbb1w b");
    G->result(&s, NULL, 0, &r);
    assert_false(r.over);
    play(&s, "e3-e2");
    G->result(&s, NULL, 0, &r);
    assert_true(r.over);
    assert_string_equal(game_outcome2(&r), "p1win");
    assert_string_equal(r.reason, "connected");
}

static void test_eval6(void **st)
{
    struct loa_state s;
    char buf[1024];
    (void)st;
    start6(&s);
    /* symmetric start: only the tempo term differs */
    assert_int_equal(loa_eval(&s, &loa_default_weights), loa_default_weights.tempo);
    loa_eval_terms(&s, &loa_default_weights, buf, sizeof buf);
    /* the edge of the 6x6 board: every start piece is on it (ring 0);
     * of black's 24 start moves, b1-f1 e1-a1 b6-f6 e6-a6 and the four
     * captures (c1xa3 d1xf3 c6xa4 d6xf4) land on the edge */
    assert_non_null(strstr(buf, "us.centre=0 "));
    assert_non_null(strstr(buf, "us.mobility=24 "));
    assert_non_null(strstr(buf, "us.edge_moves=8 "));
    assert_non_null(strstr(buf, "us.groups=2 "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brute_force_8x8),
        cmocka_unit_test(test_perft6_start),
        cmocka_unit_test(test_random_games_vs_brute_force),
        cmocka_unit_test(test_contract_size6),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_positions6),
        cmocka_unit_test(test_off_board),
        cmocka_unit_test(test_captures6),
        cmocka_unit_test(test_double_connection6),
        cmocka_unit_test(test_connection_win6),
        cmocka_unit_test(test_eval6),
    };
    return cmocka_run_group_tests_name("loa6", tests, NULL, NULL);
}
