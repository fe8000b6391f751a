/* medan-texel.c - evaluation weights fitted to game results (the Texel
 * method; texel.h, docs/tuning.md).
 *
 *   medan-texel --game loa --params tuning/loa.params [--start SPEC]
 *               [--skip N] [--margin CP] [--depth D] [--max-abs CP]
 *               [--max-positions N] [--max-scan N] [--rounds R] [--seed S]
 *               [--out-params FILE] RESULTS.jsonl...
 *
 * Prints the number of positions, K, the error of the evaluation before
 * and after, each weight's old and new value, and the last line
 *   Weights=name=value,...
 * which is the engine option that plays the fitted weights
 * (`--engine ... option.Weights=...` in medan-referee, `setoption name
 * Weights value ...` over MEP).  --out-params writes the params file with
 * the fitted values as its starts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/registry.h"
#include "texel.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: medan-texel --game G --params FILE [--start name=v,...] [--skip N]\n"
            "                   [--margin CP] [--depth D] [--max-abs CP] [--max-positions N]\n"
            "                   [--max-scan N] [--rounds R] [--seed S] [--out-params FILE]\n"
            "                   RESULTS.jsonl...\n"
            "Fits the Weights.<name> entries of FILE (a medan-referee tune params file) to\n"
            "the results of the games in the results files (docs/tuning.md).\n");
}

static int num(const char *opt, const char *s, int64_t lo, int64_t hi)
{
    int64_t v;
    if (!s || parse_i64(s, lo, hi, &v)) {
        fprintf(stderr, "medan-texel: %s takes an integer %lld..%lld\n", opt, (long long)lo,
                (long long)hi);
        exit(2);
    }
    return (int)v;
}

struct tool {
    const struct engine *e;
    void *eng;
    struct texel_positions pos;
    struct texel_weights w;
};

static void set_weights(struct tool *t, const int *val)
{
    char err[600];
    if (texel_engine_weights(t->e, t->eng, &t->w, val, err, sizeof err))
        die("%s", err);
}

/* The scores of every position with weights val. */
static void scores(struct tool *t, const int *val, double *out)
{
    set_weights(t, val);
    for (int j = 0; j < t->pos.n; j++)
        out[j] = texel_eval(t->e, t->eng, t->pos.st + (size_t)j * t->pos.ssz);
}

/* base and central-difference features at val */
static void measure(struct tool *t, const int *val, struct texel_data *d)
{
    int v[TEXEL_MAX_WEIGHTS], nw = t->w.nw;
    double *plus = xmalloc((size_t)t->pos.n * sizeof *plus);
    double *minus = xmalloc((size_t)t->pos.n * sizeof *minus);
    scores(t, val, d->base);
    for (int i = 0; i < nw; i++) {
        int up = val[i] + t->w.step[i], dn = val[i] - t->w.step[i];
        if (up > t->w.hi[i])
            up = t->w.hi[i];
        if (dn < t->w.lo[i])
            dn = t->w.lo[i];
        memcpy(v, val, sizeof v);
        v[i] = up;
        scores(t, v, plus);
        v[i] = dn;
        scores(t, v, minus);
        for (int j = 0; j < t->pos.n; j++)
            d->feat[(size_t)j * (size_t)nw + (size_t)i] =
                up > dn ? (plus[j] - minus[j]) / (up - dn) : 0;
    }
    set_weights(t, val);
    free(plus);
    free(minus);
}

/* Keep the quiet positions: |eval| <= max_abs and a depth-d search's
 * score within margin of the static evaluation. */
static void keep_quiet(struct tool *t, int depth, int margin, int max_abs)
{
    int k = 0;
    set_weights(t, t->w.val);
    for (int j = 0; j < t->pos.n; j++) {
        const unsigned char *st = t->pos.st + (size_t)j * t->pos.ssz;
        int ev = texel_eval(t->e, t->eng, st), sc;
        if (abs(ev) > max_abs)
            continue;
        if (depth > 0) {
            if (texel_search(t->e, t->eng, st, depth, &sc) || abs(sc - ev) > margin)
                continue;
        }
        memmove(t->pos.st + (size_t)k * t->pos.ssz, st, t->pos.ssz);
        t->pos.y[k++] = t->pos.y[j];
    }
    t->pos.n = k;
}

/* At most max positions, a seeded random choice (Fisher-Yates). */
static void sample(struct tool *t, int max, uint64_t seed)
{
    struct rng r;
    unsigned char *tmp = xmalloc(t->pos.ssz);
    if (t->pos.n <= max) {
        free(tmp);
        return;
    }
    rng_seed(&r, seed);
    for (int i = 0; i < max; i++) {
        int j = i + (int)rng_below(&r, (uint64_t)(t->pos.n - i));
        unsigned char *a = t->pos.st + (size_t)i * t->pos.ssz, *b = t->pos.st + (size_t)j * t->pos.ssz;
        double y = t->pos.y[i];
        memcpy(tmp, a, t->pos.ssz);
        memcpy(a, b, t->pos.ssz);
        memcpy(b, tmp, t->pos.ssz);
        t->pos.y[i] = t->pos.y[j];
        t->pos.y[j] = y;
    }
    t->pos.n = max;
    free(tmp);
}

static void write_params(const char *in, const char *out, const struct texel_weights *w,
                         const int *val)
{
    FILE *f = fopen(in, "r"), *g;
    char line[512];
    if (!f)
        die("%s: cannot read", in);
    if (!(g = fopen(out, "w")))
        die("--out-params %s: cannot write", out);
    while (fgets(line, sizeof line, f)) {
        int i = 0;
        if (str_prefix(line, "Weights."))
            for (; i < w->nw; i++) {
                size_t l = strlen(w->name[i]);
                if (strncmp(line + 8, w->name[i], l) == 0 && line[8 + l] == ',')
                    break;
            }
        const char *rest = str_prefix(line, "Weights.") && i < w->nw
                               ? strchr(strchr(line, ',') + 1, ',')
                               : NULL;
        if (rest)
            fprintf(g, "Weights.%s,%d%s", w->name[i], val[i], rest);
        else
            fputs(line, g);
    }
    fclose(f);
    if (fclose(g))
        die("--out-params %s: write failed", out);
}

int main(int argc, char **argv)
{
    const char *game = NULL, *params = NULL, *start = NULL, *out_params = NULL;
    int skip = 8, margin = 30, depth = 1, max_abs = 2000, max_pos = 200000, max_scan = 0, rounds = 3;
    uint64_t seed = 1;
    const char *files[256];
    int nfiles = 0;
    char err[800];
    struct tool t;
    memset(&t, 0, sizeof t);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (a[0] != '-') {
            if (nfiles == 256)
                die("at most 256 results files");
            files[nfiles++] = a;
            continue;
        }
        if (!v) {
            fprintf(stderr, "medan-texel: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--game") == 0)
            game = v;
        else if (strcmp(a, "--params") == 0)
            params = v;
        else if (strcmp(a, "--start") == 0)
            start = v;
        else if (strcmp(a, "--out-params") == 0)
            out_params = v;
        else if (strcmp(a, "--skip") == 0)
            skip = num(a, v, 0, 10000);
        else if (strcmp(a, "--margin") == 0)
            margin = num(a, v, 0, 100000);
        else if (strcmp(a, "--depth") == 0)
            depth = num(a, v, 0, 20);
        else if (strcmp(a, "--max-abs") == 0)
            max_abs = num(a, v, 1, 1000000);
        else if (strcmp(a, "--max-positions") == 0)
            max_pos = num(a, v, 1, 10000000);
        else if (strcmp(a, "--max-scan") == 0)
            max_scan = num(a, v, 1, 100000000);
        else if (strcmp(a, "--rounds") == 0)
            rounds = num(a, v, 1, 100);
        else if (strcmp(a, "--seed") == 0)
            seed = (uint64_t)num(a, v, 0, 2000000000);
        else {
            fprintf(stderr, "medan-texel: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!game || !params || !nfiles) {
        usage(stderr);
        return 2;
    }
    if (!(t.e = engine_find(game)) || !game_find(game))
        die("no game called %s", game);
    if (!t.e->eval)
        die("the %s engine has no static evaluation", game);
    if (texel_read_params(&t.w, params, err, sizeof err) ||
        (start && texel_set_values(&t.w, start, err, sizeof err)))
        die("%s", err);
    texel_positions_init(&t.pos, t.e->game);
    for (int f = 0; f < nfiles; f++)
        if (texel_read_results(&t.pos, files[f], skip, err, sizeof err) < 0)
            die("%s", err);
    printf("games %d (left out %d), positions from ply %d: %d\n", t.pos.games, t.pos.skipped,
           skip, t.pos.n);
    if (!t.pos.n)
        die("no positions");
    /* Labels that are nearly all one seat's win say which seat is to move,
     * not how the position stands: the fit then learns the seat (Fetlar
     * self-play, docs/tuning.md). */
    printf("won by seat 1: %d, by seat 2: %d, drawn: %d\n", t.pos.wins[0], t.pos.wins[1],
           t.pos.games - t.pos.wins[0] - t.pos.wins[1]);
    for (int s = 0; s < 2; s++)
        if (t.pos.games >= 20 && t.pos.wins[s] * 10 > t.pos.games * 9)
            printf("warning: seat %d won %.1f %% of the games: the labels say more about the "
                   "side to move than about the position\n",
                   s + 1, 100.0 * t.pos.wins[s] / t.pos.games);
    t.eng = texel_engine_new(t.e);

    /* The starts must be the weights the engine plays by default: the fit
     * is reported as a change of them. */
    {
        int n = t.pos.n < 500 ? t.pos.n : 500, bad = -1;
        double *a = xmalloc((size_t)t.pos.n * sizeof *a);
        for (int j = 0; j < n; j++)
            a[j] = texel_eval(t.e, t.eng, t.pos.st + (size_t)j * t.pos.ssz);
        set_weights(&t, t.w.val);
        for (int j = 0; j < n && bad < 0; j++)
            if (a[j] != texel_eval(t.e, t.eng, t.pos.st + (size_t)j * t.pos.ssz))
                bad = j;
        free(a);
        if (bad >= 0)
            die("the starts of %s are not the engine's default weights "
                "(give them with --start name=value,...)", params);
    }

    if (max_scan)
        sample(&t, max_scan, seed ^ 0x5ca9);
    keep_quiet(&t, depth, margin, max_abs);
    printf("quiet (|eval| <= %d, depth-%d search within %d): %d\n", max_abs, depth, margin,
           t.pos.n);
    sample(&t, max_pos, seed);
    if (t.pos.n < 10 * t.w.nw)
        die("%d positions are too few for %d weights", t.pos.n, t.w.nw);
    printf("positions used: %d, weights: %d\n", t.pos.n, t.w.nw);
    fflush(stdout);

    int nw = t.w.nw, val[TEXEL_MAX_WEIGHTS], old[TEXEL_MAX_WEIGHTS];
    char spec[OPT_STR_LEN];
    struct texel_data d = {.n = t.pos.n, .nw = nw, .y = t.pos.y};
    d.base = xmalloc((size_t)d.n * sizeof *d.base);
    d.feat = xmalloc((size_t)d.n * (size_t)nw * sizeof *d.feat);
    memcpy(val, t.w.val, sizeof val);
    memcpy(old, t.w.val, sizeof old);
    measure(&t, val, &d);
    double k = texel_fit_k(&d, NULL), e0 = texel_mse(&d, k, NULL), ecur = e0;
    printf("K %.6g, error %.6f at the starts\n", k, e0);
    for (int r = 1; r <= rounds; r++) {
        double dw[TEXEL_MAX_WEIGHTS], lo[TEXEL_MAX_WEIGHTS], hi[TEXEL_MAX_WEIGHTS];
        int nv[TEXEL_MAX_WEIGHTS];
        if (r > 1)
            measure(&t, val, &d);
        for (int i = 0; i < nw; i++) {
            dw[i] = 0;
            lo[i] = t.w.lo[i] - val[i];
            hi[i] = t.w.hi[i] - val[i];
        }
        double model = texel_fit(&d, k, dw, lo, hi, 200);
        for (int i = 0; i < nw; i++)
            nv[i] = (int)lrint(val[i] + dw[i]);
        /* the real evaluation's error at the rounded weights */
        scores(&t, nv, d.base);
        double real = texel_mse(&d, k, NULL);
        printf("round %d: model error %.6f, evaluation's error %.6f\n", r, model, real);
        fflush(stdout);
        if (real >= ecur)
            break;
        ecur = real;
        memcpy(val, nv, sizeof val);
        texel_format(&t.w, val, spec, sizeof spec);
        printf("round %d: Weights=%s\n", r, spec); /* the best so far */
        fflush(stdout);
    }
    printf("error %.6f -> %.6f (K %.6g, %d positions)\n", e0, ecur, k, d.n);
    for (int i = 0; i < nw; i++)
        printf("  %-16s %6d -> %6d\n", t.w.name[i], old[i], val[i]);
    texel_format(&t.w, val, spec, sizeof spec);
    printf("Weights=%s\n", spec);
    if (out_params)
        write_params(params, out_params, &t.w, val);
    free(d.base);
    free(d.feat);
    texel_engine_free(t.e, t.eng);
    texel_positions_free(&t.pos);
    return 0;
}
