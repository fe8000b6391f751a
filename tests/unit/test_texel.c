/* test_texel.c - the Texel method's pieces (tuning/texel.c): the fitter
 * recovers known weights and K from synthetic data (exact and noisy
 * labels, bounds kept); the results-file reader labels the positions of a
 * game and refuses garbage, a cut record, an illegal move and a record of
 * another game with a clear error and no position added; params and
 * weight specs; the engine's Weights option by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "engines/registry.h"
#include "tuning/texel.h"

#define NW 4
static const double TRUE_W[NW] = {3.0, -2.0, 5.0, 0.5};
static const double TRUE_K = 0.01;

static double sig(double x) { return 1.0 / (1.0 + exp(-x)); }

/* n positions of NW features of different scales; labels sigma(K s) when
 * noisy == 0, else a drawn result 1 / 0 with that probability. */
static void synth(struct texel_data *d, int n, int noisy, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    d->n = n;
    d->nw = NW;
    d->base = xmalloc((size_t)n * sizeof *d->base);
    d->feat = xmalloc((size_t)n * NW * sizeof *d->feat);
    d->y = xmalloc((size_t)n * sizeof *d->y);
    for (int j = 0; j < n; j++) {
        double s;
        d->base[j] = (rng_double(&r) - 0.5) * 200;
        s = d->base[j];
        for (int i = 0; i < NW; i++) {
            double f = (rng_double(&r) - 0.5) * (i == 3 ? 200 : 40);
            d->feat[j * NW + i] = f;
            s += f * TRUE_W[i];
        }
        d->y[j] = noisy ? (rng_double(&r) < sig(TRUE_K * s) ? 1.0 : 0.0) : sig(TRUE_K * s);
    }
}

static void unsynth(struct texel_data *d)
{
    free(d->base);
    free(d->feat);
    free(d->y);
}

static void test_fit_exact(void **state)
{
    struct texel_data d;
    double dw[NW] = {0}, lo[NW], hi[NW];
    (void)state;
    synth(&d, 20000, 0, 1);
    for (int i = 0; i < NW; i++)
        lo[i] = -100, hi[i] = 100;
    /* K first, at the true weights */
    assert_true(fabs(texel_fit_k(&d, TRUE_W) - TRUE_K) < 1e-5);
    double e0 = texel_mse(&d, TRUE_K, dw);
    double e = texel_fit(&d, TRUE_K, dw, lo, hi, 200);
    assert_true(e < e0 / 100);
    assert_true(e < 1e-10);
    for (int i = 0; i < NW; i++)
        assert_true(fabs(dw[i] - TRUE_W[i]) < 1e-3);
    unsynth(&d);
}

static void test_fit_noisy(void **state)
{
    struct texel_data d;
    double dw[NW] = {0}, lo[NW], hi[NW];
    (void)state;
    synth(&d, 100000, 1, 2);
    for (int i = 0; i < NW; i++)
        lo[i] = -100, hi[i] = 100;
    double e0 = texel_mse(&d, TRUE_K, dw), e = texel_fit(&d, TRUE_K, dw, lo, hi, 200);
    assert_true(e < e0);
    for (int i = 0; i < NW; i++)
        assert_true(fabs(dw[i] - TRUE_W[i]) < 0.1 * fabs(TRUE_W[i]) + 0.05);
    unsynth(&d);
}

static void test_fit_bounds(void **state)
{
    struct texel_data d;
    double dw[NW] = {0}, lo[NW], hi[NW];
    (void)state;
    synth(&d, 20000, 0, 3);
    for (int i = 0; i < NW; i++)
        lo[i] = -100, hi[i] = 100;
    hi[2] = 1; /* the true 5 is out of reach */
    lo[1] = 0; /* the true -2 too */
    texel_fit(&d, TRUE_K, dw, lo, hi, 200);
    assert_true(dw[2] <= 1 && dw[2] > 0.999);
    assert_true(dw[1] >= 0 && dw[1] < 0.001);
    for (int i = 0; i < NW; i++)
        assert_true(dw[i] >= lo[i] && dw[i] <= hi[i]);
    unsynth(&d);
}

/* ---- the results-file reader ------------------------------------------------- */

static char tmp_paths[64][32];
static int ntmp;

static void remove_tmp(void)
{
    for (int i = 0; i < ntmp; i++)
        unlink(tmp_paths[i]);
}

/* A temporary file holding text (removed at exit). */
static char *tmpfile_with(const char *text)
{
    char *path = tmp_paths[ntmp++ % 64];
    if (ntmp > 64)
        unlink(path);
    snprintf(path, sizeof tmp_paths[0], "/tmp/test_texel_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* A record of the LOA game: the first legal move `plies` times from the
 * start, `bad` (if not NULL) instead of the last one. */
static void loa_record(char *buf, size_t n, const char *game, int plies, const char *bad,
                       const char *result)
{
    const struct game *g = game_find("loa");
    game_config_buf cfg;
    game_state_buf st;
    gmove *mv = game_move_buf(g);
    size_t len = 0;
    g->config_default(cfg.b);
    g->start(st.b, cfg.b);
    buf_printf(buf, n, &len,
               "{\"game\":1,\"seed\":1,\"match_seed\":1,\"variant\":{\"name\":\"%s\","
               "\"params\":\"\"},\"seats\":[\"a\",\"b\"],\"opening\":\"start\",\"moves\":[",
               game);
    for (int i = 0; i < plies; i++) {
        char tok[64];
        int k = game_gen_moves(g, st.b, mv);
        assert_true(k > 0);
        g->format_move(st.b, mv[0], tok, sizeof tok);
        buf_printf(buf, n, &len, "%s{\"seat\":%d,\"move\":\"%s\",\"ms\":1}", i ? "," : "",
                   g->to_move(st.b), bad && i == plies - 1 ? bad : tok);
        g->play(st.b, mv[0]);
    }
    buf_printf(buf, n, &len, "],\"result\":\"%s\",\"reason\":\"x\"}\n", result);
    free(mv);
}

static void test_read_good(void **state)
{
    struct texel_positions p;
    char rec[8192], err[512];
    (void)state;
    loa_record(rec, sizeof rec, "loa", 10, NULL, "p2win");
    texel_positions_init(&p, game_find("loa"));
    assert_int_equal(texel_read_results(&p, tmpfile_with(rec), 4, err, sizeof err), 7);
    /* plies 4..10: the first to move (seat 1, who lost) at even plies */
    for (int i = 0; i < 7; i++)
        assert_true(p.y[i] == (i % 2 == 0 ? 0.0 : 1.0));
    assert_int_equal(p.games, 1);
    assert_int_equal(p.wins[0], 0);
    assert_int_equal(p.wins[1], 1);
    /* a draw labels every position 0.5; a forfeit is left out */
    loa_record(rec, sizeof rec, "loa", 3, NULL, "draw");
    assert_int_equal(texel_read_results(&p, tmpfile_with(rec), 0, err, sizeof err), 4);
    assert_true(p.y[7] == 0.5 && p.y[10] == 0.5);
    rec[strlen(rec) - 2] = '\0'; /* drop "}\n" */
    strcat(rec, ",\"forfeit\":2}\n");
    assert_int_equal(texel_read_results(&p, tmpfile_with(rec), 0, err, sizeof err), 0);
    assert_int_equal(p.skipped, 1);
    assert_int_equal(p.n, 11);
    assert_int_equal(p.games, 2);
    assert_int_equal(p.wins[0] + p.wins[1], 1); /* the draw is neither */
    texel_positions_free(&p);
}

static void expect_error(const char *text, const char *game, const char *needle)
{
    struct texel_positions p;
    char good[8192], err[512] = "";
    texel_positions_init(&p, game_find(game));
    int before = 0;
    if (strcmp(game, "loa") == 0) { /* positions from an earlier file stay */
        loa_record(good, sizeof good, "loa", 6, NULL, "p1win");
        assert_int_equal(texel_read_results(&p, tmpfile_with(good), 0, err, sizeof err), 7);
        before = 7;
    }
    const char *path = tmpfile_with(text);
    assert_int_equal(texel_read_results(&p, path, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, path));
    if (!strstr(err, needle))
        fail_msg("error '%s' does not say '%s'", err, needle);
    assert_int_equal(p.n, before); /* nothing of the bad file */
    assert_int_equal(p.games, before ? 1 : 0);
    assert_int_equal(p.wins[0], before ? 1 : 0); /* the good game's p1win only */
    texel_positions_free(&p);
}

static void test_read_bad(void **state)
{
    char rec[8192], two[16384];
    struct texel_positions p;
    char err[512];
    (void)state;
    /* garbage */
    expect_error("garbage\nmore garbage\n", "loa", ":1:");
    {
        char bin[300];
        for (int i = 0; i < 299; i++)
            bin[i] = (char)(i * 37 % 255 + 1);
        bin[299] = '\0';
        expect_error(bin, "loa", "");
    }
    /* a record cut short that is not the last line */
    loa_record(rec, sizeof rec, "loa", 6, NULL, "p1win");
    snprintf(two, sizeof two, "%.*s\n%s", (int)strlen(rec) / 2, rec, rec);
    expect_error(two, "loa", ":1:");
    /* an illegal move (the game's positions are not kept) */
    loa_record(rec, sizeof rec, "loa", 6, "a1-a1", "p1win");
    expect_error(rec, "loa", "move 6 a1-a1");
    loa_record(rec, sizeof rec, "loa", 6, "zz", "p1win");
    expect_error(rec, "loa", "move 6 zz");
    /* a record of another game, and of a game nobody knows */
    loa_record(rec, sizeof rec, "loa", 6, NULL, "p1win");
    expect_error(rec, "fetlar", "not fetlar");
    loa_record(rec, sizeof rec, "chess", 6, NULL, "p1win");
    expect_error(rec, "loa", "game of chess, not loa");
    /* no such file */
    texel_positions_init(&p, game_find("loa"));
    assert_int_equal(texel_read_results(&p, "/nonexistent/r.jsonl", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/r.jsonl"));
    /* a last line cut by a crash is skipped, as the referee does */
    loa_record(rec, sizeof rec, "loa", 6, NULL, "p1win");
    snprintf(two, sizeof two, "%s%.*s", rec, (int)strlen(rec) / 2, rec);
    int got = texel_read_results(&p, tmpfile_with(two), 0, err, sizeof err);
    if (got != 7)
        fail_msg("cut last line: %d, %s", got, err);
    texel_positions_free(&p);
}

/* ---- params and the engine ------------------------------------------------------ */

static void test_params(void **state)
{
    struct texel_weights w;
    char err[512], buf[512];
    (void)state;
    assert_int_equal(texel_read_params(&w, tmpfile_with("# c\nSearchParams.x,1,0,2,1,0.1\n"
                                                        "Weights.tempo,15,0,60,4,0.01\n"
                                                        "Weights.groups,15,0,60,0.5,0.01\n"),
                                       err, sizeof err), 0);
    assert_int_equal(w.nw, 2);
    assert_string_equal(w.name[0], "tempo");
    assert_int_equal(w.step[0], 4);
    assert_int_equal(w.step[1], 1);
    assert_int_equal(texel_set_values(&w, "groups=9,tempo=3", err, sizeof err), 0);
    texel_format(&w, w.val, buf, sizeof buf);
    assert_string_equal(buf, "tempo=3,groups=9");
    assert_int_equal(texel_set_values(&w, "tempo=4,nosuch=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "nosuch"));
    assert_int_equal(texel_set_values(&w, "tempo=x", err, sizeof err), -1);
    assert_int_equal(w.val[0], 3); /* unchanged */
    assert_int_equal(texel_read_params(&w, tmpfile_with("Weights.tempo,90,0,60,4,0.01\n"), err,
                                       sizeof err), -1);
    assert_non_null(strstr(err, ":1:"));
    assert_int_equal(texel_read_params(&w, tmpfile_with("SearchParams.x,1,0,2,1,0.1\n"), err,
                                       sizeof err), -1);
    assert_non_null(strstr(err, "no Weights"));
}

static void test_engine_weights(void **state)
{
    const struct engine *e = engine_find("loa");
    const struct game *g = e->game;
    struct texel_weights w;
    game_config_buf cfg;
    game_state_buf st;
    char err[600];
    int val[2];
    (void)state;
    memset(&w, 0, sizeof w);
    w.nw = 1;
    snprintf(w.name[0], sizeof w.name[0], "tempo");
    void *eng = texel_engine_new(e);
    g->config_default(cfg.b);
    g->start(st.b, cfg.b);
    int base = texel_eval(e, eng, st.b);
    val[0] = 1000;
    assert_int_equal(texel_engine_weights(e, eng, &w, val, err, sizeof err), 0);
    int high = texel_eval(e, eng, st.b);
    val[0] = 990;
    assert_int_equal(texel_engine_weights(e, eng, &w, val, err, sizeof err), 0);
    assert_int_equal(high - texel_eval(e, eng, st.b), 10);
    assert_true(high != base);
    /* a value the engine refuses: error, the weights as they were */
    val[0] = 5000000;
    assert_int_equal(texel_engine_weights(e, eng, &w, val, err, sizeof err), -1);
    assert_non_null(strstr(err, "Weights"));
    assert_int_equal(high - texel_eval(e, eng, st.b), 10);
    snprintf(w.name[0], sizeof w.name[0], "nosuch");
    val[0] = 1;
    assert_int_equal(texel_engine_weights(e, eng, &w, val, err, sizeof err), -1);
    assert_int_equal(high - texel_eval(e, eng, st.b), 10);
    /* a shallow search's score */
    int sc;
    assert_int_equal(texel_search(e, eng, st.b, 1, &sc), 0);
    texel_engine_free(e, eng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_exact),   cmocka_unit_test(test_fit_noisy),
        cmocka_unit_test(test_fit_bounds),  cmocka_unit_test(test_read_good),
        cmocka_unit_test(test_read_bad),    cmocka_unit_test(test_params),
        cmocka_unit_test(test_engine_weights),
    };
    atexit(remove_tmp);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
