/* texel.c - the Texel method's pieces (see texel.h): the fitter, the
 * positions from results files, the engine's evaluation by weight name. */
#include "texel.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "protocol/options.h"
#include "referee/opening.h"
#include "referee/record.h"

/* ---- the fitter ------------------------------------------------------------ */

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double score_of(const struct texel_data *d, int j, const double *dw)
{
    double s = d->base[j];
    if (dw) {
        const double *f = d->feat + (size_t)j * (size_t)d->nw;
        for (int i = 0; i < d->nw; i++)
            s += f[i] * dw[i];
    }
    return s;
}

double texel_mse(const struct texel_data *d, double k, const double *dw)
{
    double e = 0;
    if (d->n <= 0)
        return 0;
    for (int j = 0; j < d->n; j++) {
        double r = sigmoid(k * score_of(d, j, dw)) - d->y[j];
        e += r * r;
    }
    return e / d->n;
}

double texel_fit_k(const struct texel_data *d, const double *dw)
{
    /* golden-section search on log K (the error is unimodal in K for
     * labels that follow the score at all) */
    const double g = (sqrt(5.0) - 1) / 2;
    double a = log(1e-6), b = 0, c = b - g * (b - a), e = a + g * (b - a);
    double fc = texel_mse(d, exp(c), dw), fe = texel_mse(d, exp(e), dw);
    for (int it = 0; it < 100 && b - a > 1e-7; it++) {
        if (fc < fe) {
            b = e, e = c, fe = fc;
            c = b - g * (b - a);
            fc = texel_mse(d, exp(c), dw);
        } else {
            a = c, c = e, fc = fe;
            e = a + g * (b - a);
            fe = texel_mse(d, exp(e), dw);
        }
    }
    return exp((a + b) / 2);
}

/* Solve A x = b for a symmetric positive definite A (n x n, Cholesky; A
 * overwritten).  -1 if A is not positive definite. */
static int cholesky_solve(double *A, double *b, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            double s = A[i * n + j];
            for (int k = 0; k < j; k++)
                s -= A[i * n + k] * A[j * n + k];
            if (i == j) {
                if (s <= 0)
                    return -1;
                A[i * n + i] = sqrt(s);
            } else
                A[i * n + j] = s / A[j * n + j];
        }
    }
    for (int i = 0; i < n; i++) { /* L z = b */
        double s = b[i];
        for (int k = 0; k < i; k++)
            s -= A[i * n + k] * b[k];
        b[i] = s / A[i * n + i];
    }
    for (int i = n - 1; i >= 0; i--) { /* L^T x = z */
        double s = b[i];
        for (int k = i + 1; k < n; k++)
            s -= A[k * n + i] * b[k];
        b[i] = s / A[i * n + i];
    }
    return 0;
}

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

double texel_fit(const struct texel_data *d, double k, double *dw, const double *lo,
                 const double *hi, int iters)
{
    int nw = d->nw;
    double *H = xcalloc((size_t)nw * (size_t)nw, sizeof *H);
    double *A = xcalloc((size_t)nw * (size_t)nw, sizeof *A);
    double *gr = xcalloc((size_t)nw, sizeof *gr), *x = xcalloc((size_t)nw, sizeof *x);
    double *jr = xcalloc((size_t)nw, sizeof *jr);
    double lambda = 1e-3, err;
    for (int i = 0; i < nw; i++)
        dw[i] = clampd(dw[i], lo[i], hi[i]);
    err = texel_mse(d, k, dw);
    for (int it = 0; it < iters && nw > 0; it++) {
        /* Gauss-Newton's normal equations of the residuals sigma - y */
        memset(H, 0, (size_t)nw * (size_t)nw * sizeof *H);
        memset(gr, 0, (size_t)nw * sizeof *gr);
        for (int j = 0; j < d->n; j++) {
            const double *f = d->feat + (size_t)j * (size_t)nw;
            double p = sigmoid(k * score_of(d, j, dw)), r = p - d->y[j], dp = k * p * (1 - p);
            for (int a = 0; a < nw; a++) {
                jr[a] = dp * f[a];
                gr[a] += jr[a] * r;
            }
            for (int a = 0; a < nw; a++)
                for (int b = 0; b <= a; b++)
                    H[a * nw + b] += jr[a] * jr[b];
        }
        for (int a = 0; a < nw; a++)
            for (int b = 0; b < a; b++)
                H[b * nw + a] = H[a * nw + b];
        /* damped steps until one lowers the error */
        int improved = 0;
        double before = err;
        for (int tries = 0; tries < 30 && !improved; tries++) {
            memcpy(A, H, (size_t)nw * (size_t)nw * sizeof *A);
            for (int a = 0; a < nw; a++) {
                A[a * nw + a] += lambda * H[a * nw + a] + 1e-12;
                x[a] = -gr[a];
            }
            if (cholesky_solve(A, x, nw) == 0) {
                for (int a = 0; a < nw; a++)
                    x[a] = clampd(dw[a] + x[a], lo[a], hi[a]);
                double e = texel_mse(d, k, x);
                if (e < err) {
                    memcpy(dw, x, (size_t)nw * sizeof *dw);
                    err = e;
                    improved = 1;
                    lambda = lambda / 3 > 1e-9 ? lambda / 3 : 1e-9;
                    break;
                }
            }
            lambda *= 4;
        }
        if (!improved || before - err < 1e-14 * (before > 0 ? before : 1))
            break;
    }
    free(H);
    free(A);
    free(gr);
    free(x);
    free(jr);
    return err;
}

/* ---- positions from results files ------------------------------------------- */

void texel_positions_init(struct texel_positions *p, const struct game *g)
{
    memset(p, 0, sizeof *p);
    p->game = g;
    p->ssz = g->state_size;
}

void texel_positions_free(struct texel_positions *p)
{
    free(p->st);
    free(p->y);
    memset(p, 0, sizeof *p);
}

static void add_position(struct texel_positions *p, const void *st, double y)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        p->st = xrealloc(p->st, (size_t)p->cap * p->ssz);
        p->y = xrealloc(p->y, (size_t)p->cap * sizeof *p->y);
    }
    memcpy(p->st + (size_t)p->n * p->ssz, st, p->ssz);
    p->y[p->n++] = y;
}

struct read_ctx {
    struct texel_positions *p;
    int skip, failed;
    char err[400];
};

__attribute__((format(printf, 2, 3))) static void fail(struct read_ctx *c, const char *fmt, ...)
{
    va_list ap;
    if (c->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->failed = 1;
}

static void one_game(void *ctx, const struct ref_record *r)
{
    struct read_ctx *c = ctx;
    struct texel_positions *p = c->p;
    const struct game *g = p->game;
    game_config_buf cfg;
    game_state_buf st;
    char e[GAME_ERR_LEN], params[256], *tok[32];
    uint64_t *hist = NULL;
    int nhist = 0, histcap = 0, first = p->n;
    double y1;
    if (c->failed)
        return;
    if (strcmp(r->game_name, g->name) != 0) {
        fail(c, "record %d is a game of %.40s, not %s", r->game, r->game_name, g->name);
        return;
    }
    if (r->nseats != 2) {
        fail(c, "record %d: the Texel method needs two seats", r->game);
        return;
    }
    if (r->forfeit || r->rank[0] < 1 || r->rank[1] < 1) {
        p->skipped++;
        return;
    }
    y1 = r->rank[0] < r->rank[1] ? 1.0 : r->rank[0] > r->rank[1] ? 0.0 : 0.5;
    g->config_default(cfg.b);
    /* parameters cut short or past the token array would set another variant */
    if ((size_t)snprintf(params, sizeof params, "%s", r->params) >= sizeof params) {
        fail(c, "record %d: variant parameters over %zu bytes", r->game, sizeof params - 1);
        return;
    }
    int nt = str_split(params, tok, 32);
    if (nt == 32) {
        fail(c, "record %d: more than 31 variant parameters", r->game);
        return;
    }
    for (int i = 0; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || (*eq = '\0', g->config_set(cfg.b, tok[i], eq + 1, e, sizeof e)) != GAME_OK) {
            fail(c, "record %d: bad variant parameters: %.200s", r->game, r->params);
            return;
        }
    }
    if (!r->opening || ref_opening_apply(g, cfg.b, r->opening, st.b, &hist, &nhist, &histcap,
                                         e, sizeof e) < 0) {
        fail(c, "record %d: %s", r->game, r->opening ? e : "no opening");
        free(hist);
        return;
    }
    for (int i = 0; i <= r->nmoves; i++) {
        struct game_result res;
        gmove m;
        g->result(st.b, hist, nhist, &res);
        if (res.over)
            break;
        if (i >= c->skip)
            add_position(p, st.b, g->to_move(st.b) == 1 ? y1 : 1.0 - y1);
        if (i == r->nmoves)
            break;
        if (g->parse_move(st.b, r->moves[i].tok, &m, e, sizeof e) != GAME_OK) {
            fail(c, "record %d: move %d %.60s: %s", r->game, i + 1, r->moves[i].tok, e);
            p->n = first; /* nothing of a broken game */
            free(hist);
            return;
        }
        if (nhist == histcap) {
            histcap = histcap ? 2 * histcap : 256;
            hist = xrealloc(hist, (size_t)histcap * sizeof *hist);
        }
        hist[nhist++] = g->hash(st.b);
        g->play(st.b, m);
    }
    free(hist);
    p->games++;
    if (y1 != 0.5)
        p->wins[y1 == 1.0 ? 0 : 1]++;
}

int texel_read_results(struct texel_positions *p, const char *path, int skip, char *err,
                       size_t n)
{
    struct read_ctx c = {.p = p, .skip = skip < 0 ? 0 : skip};
    int first = p->n, games = p->games, skipped = p->skipped, w0 = p->wins[0], w1 = p->wins[1];
    long good_end;
    char e[400];
    int rc = ref_record_read_file(path, one_game, &c, &good_end, e, sizeof e);
    if (rc < 0 || c.failed) {
        p->n = first;
        p->games = games;
        p->skipped = skipped;
        p->wins[0] = w0;
        p->wins[1] = w1;
        /* the record reader's errors name the file and line already */
        if (c.failed)
            return set_err(err, n, -1, "%s: %s", path, c.err);
        return set_err(err, n, -1, "%s", e);
    }
    return p->n - first;
}

/* ---- weights by name ----------------------------------------------------------- */

int texel_read_params(struct texel_weights *w, const char *path, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int ln = 0;
    memset(w, 0, sizeof *w);
    if (!f)
        return set_err(err, n, -1, "%s: %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        char name[64];
        double start, lo, hi, c, r;
        ln++;
        if (!str_prefix(line, "Weights."))
            continue;
        if (sscanf(line + 8, "%63[^,],%lf,%lf,%lf,%lf,%lf", name, &start, &lo, &hi, &c, &r) != 6 ||
            strlen(name) >= sizeof w->name[0] || !(lo <= start && start <= hi) ||
            fabs(lo) > 1e6 || fabs(hi) > 1e6 || c <= 0) {
            fclose(f);
            return set_err(err, n, -1, "%s:%d: not name,start,min,max,c_end,r_end with "
                           "min <= start <= max", path, ln);
        }
        if (w->nw == TEXEL_MAX_WEIGHTS) {
            fclose(f);
            return set_err(err, n, -1, "%s: more than %d weights", path, TEXEL_MAX_WEIGHTS);
        }
        memcpy(w->name[w->nw], name, strlen(name) + 1); /* shorter: checked above */
        w->val[w->nw] = (int)lrint(start);
        w->lo[w->nw] = (int)lrint(lo);
        w->hi[w->nw] = (int)lrint(hi);
        w->step[w->nw] = c < 1.5 ? 1 : (int)lrint(c);
        w->nw++;
    }
    fclose(f);
    if (!w->nw)
        return set_err(err, n, -1, "%s: no Weights.<name> line", path);
    return 0;
}

int texel_set_values(struct texel_weights *w, const char *spec, char *err, size_t n)
{
    char *copy = xstrdup(spec), *save = NULL;
    int val[TEXEL_MAX_WEIGHTS];
    memcpy(val, w->val, sizeof val);
    for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        int64_t v;
        int i = 0;
        if (eq)
            *eq = '\0';
        while (i < w->nw && strcmp(w->name[i], kv) != 0)
            i++;
        if (!eq || i == w->nw || parse_i64(eq + 1, -1000000, 1000000, &v)) {
            int rc = set_err(err, n, -1, "weights: '%.60s%s%.40s' is not name=integer of a "
                             "weight in the params file", kv, eq ? "=" : "", eq ? eq + 1 : "");
            free(copy);
            return rc;
        }
        val[i] = (int)v;
    }
    free(copy);
    memcpy(w->val, val, sizeof val);
    return 0;
}

void texel_format(const struct texel_weights *w, const int *val, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < w->nw; i++)
        buf_printf(buf, n, &len, "%s%s=%d", i ? "," : "", w->name[i], val[i]);
}

/* ---- the engine ---------------------------------------------------------------- */

void *texel_engine_new(const struct engine *e)
{
    void *eng = xcalloc(1, e->size);
    opt_defaults(e->options, eng);
    if (e->init)
        e->init(eng);
    return eng;
}

void texel_engine_free(const struct engine *e, void *eng)
{
    if (e->destroy)
        e->destroy(eng);
    free(eng);
}

int texel_engine_weights(const struct engine *e, void *eng, const struct texel_weights *w,
                         const int *val, char *err, size_t n)
{
    const struct opt_spec *o = opt_find(e->options, "Weights");
    char spec[OPT_STR_LEN], why[GAME_ERR_LEN];
    struct opt_saved sv;
    if (!o || o->type != OPT_STRING)
        return set_err(err, n, -1, "%s has no Weights option", e->name);
    texel_format(w, val, spec, sizeof spec);
    if (strlen(spec) + 1 >= sizeof spec)
        return set_err(err, n, -1, "weights: the Weights value is too long");
    opt_save(o, eng, &sv);
    if (opt_set(o, eng, spec, why, sizeof why) ||
        (e->option_changed && e->option_changed(eng, o, why, sizeof why))) {
        opt_restore(o, eng, &sv);
        if (e->option_changed) {
            char ignore[GAME_ERR_LEN];
            e->option_changed(eng, o, ignore, sizeof ignore);
        }
        return set_err(err, n, -1, "%s refuses Weights=%.200s: %s", e->name, spec, why);
    }
    return 0;
}

int texel_eval(const struct engine *e, void *eng, const void *st)
{
    char buf[1024];
    buf[0] = '\0';
    e->eval(eng, st, buf, sizeof buf);
    return atoi(buf);
}

struct info_ctx {
    int have, score;
};

static void on_info(void *ctx, const char *line)
{
    struct info_ctx *c = ctx;
    const char *s = strstr(line, "score ");
    if (!s)
        return;
    if (str_prefix(s, "score cp ")) {
        c->have = 1;
        c->score = atoi(s + 9);
    } else
        c->have = 0; /* a proven result */
}

int texel_search(const struct engine *e, void *eng, const void *st, int depth, int *score)
{
    struct search_req req;
    struct info_ctx c = {0, 0};
    atomic_bool stop = false, pond = false;
    atomic_llong hit = 0;
    gmove ponder;
    memset(&req, 0, sizeof req);
    req.game = e->game;
    req.pos = st;
    limits_clear(&req.lim);
    req.lim.depth = depth;
    req.lim.infinite = false;
    req.start_us = now_us();
    req.stop = &stop;
    req.pondering = &pond;
    req.ponderhit_us = &hit;
    req.info = on_info;
    req.info_ctx = &c;
    e->go(eng, &req, &ponder);
    *score = c.score;
    return c.have ? 0 : -1;
}
