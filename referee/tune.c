/* tune.c - `medan-referee tune`: SPSA over matches, as fishtest and
 * OpenBench define it (docs/referee.md, "Tuning with SPSA").
 *
 * Iteration k (1-based) of N: every parameter i gets a random sign
 * d_i = +-1 and the step c_k,i = c_i / k^gamma; the engine "theta-plus"
 * plays with theta + c_k d and "theta-minus" with theta - c_k d (both
 * clamped to [min, max], integers rounded stochastically), over --pairs
 * colour-swapped pairs from the same openings (two seats) or --pairs deals
 * (N seats: the other seats hold the engine at theta, every seat rotated).
 * The result r is the plus engine's wins minus its losses (N seats: deals
 * where it ranked above the minus engine minus those where it ranked
 * below, per game), and theta_i += a_k,i / c_k,i * r * d_i, clamped.
 *
 * Every random choice of iteration k (signs, roundings, the match seed that
 * picks its openings or deals and the engines' Seed) is a function of
 * (--seed, k), so a run is reproducible game for game under deterministic
 * limits (nodes=, depth=) and a resumed run is the run that was not
 * interrupted.  The state file (written whole through a temporary file and
 * a rename after every iteration) holds theta, k and the path so far.
 *
 * Games are played in one place per iteration, from what set_iteration
 * fixed (a pure function of theta, k and the settings): play_iteration
 * runs the match in this process, play_batched (medan-referee parallel or
 * slurm ... tune) writes the same match as a command line and plays it as
 * one batch of shards (referee/batch.h), then reads plus's result back from
 * the merged results.  Either way the state file is the same, byte for
 * byte, under deterministic limits.
 */
#include "tune.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "cli.h"
#include "match.h"
#include "outfile.h"
#include "record.h"
#include "core/util.h"
#include "engines/registry.h"
#include "protocol/engine.h"

#define TUNE_MAX_PARAMS 64
#define TUNE_MAX_OPTS 16
#define TUNE_MAX_HISTORY 20000
#define TUNE_VAL_LEN 600
#define TUNE_STATE_VERSION 1

struct tune_opt {
    char name[64];            /* engine option */
    char base[OPT_STR_LEN];   /* the user's value (options tuned by entries) */
    int named;                /* entries of a name=value,... string */
};

struct tune {
    struct ref_tune_param p[TUNE_MAX_PARAMS];
    int np;
    struct tune_opt opt[TUNE_MAX_OPTS];
    int nopt;
    int iterations, pairs, progress;
    double A, alpha, gamma;
    int A_given;
    uint64_t seed;
    const char *state_path;
    /* state */
    int k;                    /* iterations done */
    int k0;                   /* ... when this run started */
    double theta[TUNE_MAX_PARAMS];
    long long games, wins, losses, draws; /* of theta-plus */
    int nhist;
    int *hist_k;
    double *hist_theta;       /* [nhist][np] */
    /* the match */
    struct ref_match m;
    int open_first;           /* the book's first line (0-based) */
    char (*val)[TUNE_MAX_OPTS][TUNE_VAL_LEN]; /* [neng][nopt] values sent */
    /* batched runs: the runner, and the match part of the command line
     * (rest[eng_at - 1] is its one --engine, its keys up to eng_end) */
    const struct ref_tune_runner *runner;
    char **rest;
    int nrest, eng_at, eng_end;
};

void ref_tune_usage(FILE *f)
{
    fprintf(f,
            "usage: medan-referee tune --param name,start,min,max,c_end,r_end... |\n"
            "         --params FILE  --iterations N [--pairs P] [--state FILE]\n"
            "         [--progress N] [--seed S] [--spsa A=.. alpha=.. gamma=..]\n"
            "         --game G [k=v...] --engine KEYS... [match options]\n"
            "       medan-referee parallel --shards N ... | slurm N ... tune ... --state FILE\n"
            "(medan-referee --help, docs/referee.md \"Tuning with SPSA\")\n");
}

static int usage(void)
{
    ref_tune_usage(stderr);
    return 1;
}

static int tbad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int tbad(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "medan-referee tune: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

/* ---- parameters ------------------------------------------------------------ */

static int parse_num(const char *s, double *x, int *integer)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    *x = strtod(s, &end);
    if (*end || errno || !isfinite(*x) || fabs(*x) > 1e15)
        return -1;
    if (integer && (strpbrk(s, ".eEnNiIxX") || *x != floor(*x)))
        *integer = 0;
    return 0;
}

static int name_ok(const char *s, size_t len)
{
    if (len == 0 || len >= 64)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int ref_tune_param_parse(const char *s, struct ref_tune_param *p, char *err,
                         size_t n)
{
    char buf[512], *f[7], *save = NULL, *dot;
    int nf = 0;
    double v[5];
    memset(p, 0, sizeof *p);
    if (strlen(s) >= sizeof buf)
        return set_err(err, n, -1, "parameter too long");
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nf == 7)
            break;
        while (*t == ' ' || *t == '\t')
            t++;
        for (char *e = t + strlen(t); e > t && (e[-1] == ' ' || e[-1] == '\t' ||
                                               e[-1] == '\r');)
            *--e = '\0';
        f[nf++] = t;
    }
    if (nf != 6)
        return set_err(err, n, -1, "'%.80s': want name,start,min,max,c_end,r_end",
                       s);
    dot = strchr(f[0], '.');
    if (dot ? !name_ok(f[0], (size_t)(dot - f[0])) || !name_ok(dot + 1, strlen(dot + 1))
            : !name_ok(f[0], strlen(f[0])))
        return set_err(err, n, -1, "'%.80s': a parameter is an option name "
                       "(Skill) or Option.entry (Weights.conc): letters, digits, _ -",
                       f[0]);
    snprintf(p->name, sizeof p->name, "%s", f[0]);
    snprintf(p->option, sizeof p->option, "%.*s",
             dot ? (int)(dot - f[0]) : (int)strlen(f[0]), f[0]);
    snprintf(p->entry, sizeof p->entry, "%s", dot ? dot + 1 : "");
    p->integer = 1;
    for (int i = 0; i < 5; i++)
        if (parse_num(f[1 + i], &v[i], i < 3 ? &p->integer : NULL) < 0)
            return set_err(err, n, -1, "%s: '%.40s' is not a number", p->name,
                           f[1 + i]);
    p->start = v[0], p->min = v[1], p->max = v[2], p->c_end = v[3],
    p->r_end = v[4];
    if (!(p->min < p->max))
        return set_err(err, n, -1, "%s: min must be below max", p->name);
    if (p->start < p->min || p->start > p->max)
        return set_err(err, n, -1, "%s: start must be within [min, max]", p->name);
    if (!(p->c_end > 0) || !(p->r_end > 0))
        return set_err(err, n, -1, "%s: c_end and r_end must be above 0", p->name);
    /* (an entry may be a real too: SearchParams of Palagan and Battalion
     * take reals; an engine whose entry holds integers refuses one, and the
     * match stops naming it, as for a real sent to a spin) */
    return 0;
}

double ref_tune_ck(const struct ref_tune_param *p, int iterations,
                   double gamma, int k)
{
    double c = p->c_end * pow((double)iterations, gamma);
    return c / pow((double)k, gamma);
}

double ref_tune_ak(const struct ref_tune_param *p, int iterations, double A,
                   double alpha, int k)
{
    double a = p->r_end * p->c_end * p->c_end * pow(A + iterations, alpha);
    return a / pow(A + k, alpha);
}

static int add_param(struct tune *t, const char *s, const char *where)
{
    char err[256];
    struct ref_tune_param *p;
    if (t->np == TUNE_MAX_PARAMS)
        return tbad("at most %d parameters", TUNE_MAX_PARAMS);
    p = &t->p[t->np];
    if (ref_tune_param_parse(s, p, err, sizeof err) < 0)
        return tbad("%s%s", where, err);
    for (int i = 0; i < t->np; i++)
        if (str_ieq(t->p[i].name, p->name))
            return tbad("%s%s is given twice", where, p->name);
    for (int i = 0; i < t->np; i++)
        if (str_ieq(t->p[i].option, p->option) && (!*t->p[i].entry) != (!*p->entry))
            return tbad("%s%s: option %s is tuned whole and by entries", where,
                        p->name, p->option);
    t->np++;
    return 0;
}

static int read_params(struct tune *t, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[600], where[300];
    int ln = 0;
    if (!f)
        return tbad("--params %s: %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        ln++;
        if (!strchr(line, '\n') && !feof(f)) {
            fclose(f);
            return tbad("%s:%d: line too long", path, ln);
        }
        line[strcspn(line, "\r\n")] = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        snprintf(where, sizeof where, "%s:%d: ", path, ln);
        if (add_param(t, s, where) < 0) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

/* ---- what each engine is sent ---------------------------------------------- */

/* Stochastic rounding of x (the fraction is the chance of rounding up),
 * from a uniform u in [0, 1). */
static double round_stoch(double x, double u)
{
    double f = floor(x);
    return f + (u < x - f ? 1 : 0);
}

static double u01(uint64_t h) { return (double)(h >> 11) * (1.0 / 9007199254740992.0); }

static double clampd(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The value of parameter i sent to an engine: x clamped, an integer
 * rounded stochastically (draw from (seed, k, i, who)). */
static double sent_value(const struct tune *t, int i, double x, int k, int who)
{
    const struct ref_tune_param *p = &t->p[i];
    x = clampd(x, p->min, p->max);
    if (p->integer)
        x = clampd(round_stoch(x, u01(mix64(mix64(t->seed ^ 0x726f756e64ULL,
                                                  (uint64_t)k),
                                            (uint64_t)i * 4 + (uint64_t)who))),
                   p->min, p->max);
    return x;
}

static void fmt_value(const struct ref_tune_param *p, double x, char *b, size_t n)
{
    if (p->integer)
        snprintf(b, n, "%lld", (long long)llround(x));
    else
        snprintf(b, n, "%.6g", x);
}

/* Fill t->val[e] from values x[] (one per parameter); 0 or -1 (too long). */
static int make_values(struct tune *t, int e, const double *x)
{
    for (int o = 0; o < t->nopt; o++) {
        char *b = t->val[e][o];
        size_t len = 0;
        b[0] = '\0';
        if (t->opt[o].named && *t->opt[o].base)
            buf_printf(b, TUNE_VAL_LEN, &len, "%s", t->opt[o].base);
        for (int i = 0; i < t->np; i++) {
            char v[64];
            if (!str_ieq(t->p[i].option, t->opt[o].name))
                continue;
            fmt_value(&t->p[i], x[i], v, sizeof v);
            if (t->opt[o].named) {
                if (buf_printf(b, TUNE_VAL_LEN, &len, "%s%s=%s", len ? "," : "",
                               t->p[i].entry, v) < 0)
                    return -1;
            } else
                buf_printf(b, TUNE_VAL_LEN, &len, "%s", v);
        }
        if (len >= OPT_STR_LEN)
            return -1;
    }
    return 0;
}

/* Point engine e's option slots at t->val[e]. */
static void point_options(struct tune *t, int e)
{
    struct ctl_engine_spec *s = &t->m.eng[e];
    for (int o = 0; o < t->nopt; o++)
        for (int j = 0; j < s->nopts; j++)
            if (str_ieq(s->opt_name[j], t->opt[o].name))
                s->opt_val[j] = t->val[e][o];
}

/* ---- one iteration ---------------------------------------------------------- */

static int sign_of(const struct tune *t, int k, int i)
{
    return mix64(mix64(t->seed ^ 0x7369676eULL, (uint64_t)k), (uint64_t)i) & 1 ? 1 : -1;
}

/* Fix iteration k with the engines at theta +- c_k d: the values sent
 * (t->val, pointed at by the engines' option slots), the match seed and
 * the first opening.  0, or -1 (values too long). */
static int set_iteration(struct tune *t, int k, const int *d)
{
    struct ref_match *m = &t->m;
    double xp[TUNE_MAX_PARAMS], xm[TUNE_MAX_PARAMS], x0[TUNE_MAX_PARAMS];
    for (int i = 0; i < t->np; i++) {
        double ck = ref_tune_ck(&t->p[i], t->iterations, t->gamma, k);
        xp[i] = sent_value(t, i, t->theta[i] + ck * d[i], k, 0);
        xm[i] = sent_value(t, i, t->theta[i] - ck * d[i], k, 1);
        x0[i] = sent_value(t, i, t->theta[i], k, 2);
    }
    for (int e = 0; e < m->neng; e++) {
        if (make_values(t, e, e == 0 ? xp : e == 1 ? xm : x0) < 0)
            return tbad("the option values are longer than %d characters",
                        OPT_STR_LEN - 1);
        point_options(t, e);
    }
    m->seed = mix64(t->seed ^ 0x69746572ULL, (uint64_t)k) & ((1ULL << 53) - 1);
    if (m->open.nlines && !m->open.random_order)
        m->open.start = (int)((t->open_first + (long long)(k - 1) * t->pairs) %
                              m->open.nlines) + 1;
    return 0;
}

/* plus's wins, losses and draws in the games of table tb (engine 0 plus,
 * 1 minus): by rank, so N seats count a deal's games as two seats do. */
static void count_games(const struct ref_table *tb, int *w, int *l, int *dr)
{
    *w = *l = *dr = 0;
    for (int j = 0; j < tb->nsum; j++) {
        const struct ref_sum *s = &tb->sum[j];
        int rp = 0, rm = 0;
        for (int q = 0; q < s->nseats; q++) {
            if (s->eng[q] == 0)
                rp = s->rank[q];
            else if (s->eng[q] == 1)
                rm = s->rank[q];
        }
        if (rp < rm)
            (*w)++;
        else if (rp > rm)
            (*l)++;
        else
            (*dr)++;
    }
}

/* Play iteration k (set_iteration done) in this process's worker threads:
 * plus's wins, losses, draws.  0, or -1 when the match stopped. */
static int play_iteration(struct tune *t, int k, int *w, int *l, int *dr)
{
    struct ref_match *m = &t->m;
    /* a fresh match: the schedule, table and flags of iteration k */
    free(m->done);
    m->done = NULL;
    ref_table_free(&m->table);
    ref_table_init(&m->table);
    m->stop = 0;
    m->stop_why[0] = '\0';
    m->played = 0;
    atomic_store(&m->cancel, 0);
    m->skip_preflight = k > t->k0 + 1; /* checked once per run */
    if (ref_match_run(m) != 0) {
        tbad("iteration %d: the match stopped: %s (the state file keeps "
             "iteration %d; the same command continues)", k, m->stop_why, k - 1);
        return -1;
    }
    count_games(&m->table, w, l, dr);
    return 0;
}

/* ---- one iteration as a batch of shards ------------------------------------- */

/* "STATE.iter-K" + tail: iteration k's files, beside the state file. */
static char *iter_path(const struct tune *t, int k, const char *tail)
{
    char *p = xmalloc(strlen(t->state_path) + strlen(tail) + 32);
    sprintf(p, "%s.iter-%d%s", t->state_path, k, tail);
    return p;
}

/* Remove iteration k's files (its games are in the state file now). */
static void iter_clean(const struct tune *t, int k)
{
    char *res = iter_path(t, k, ".jsonl"), *log = iter_path(t, k, ".log");
    char *p = xmalloc(strlen(res) + 64);
    for (int s = 1; s <= t->runner->shards; s++) {
        sprintf(p, "%s.shard-%d-of-%d", res, s, t->runner->shards);
        unlink(p);
        strcat(p, ".out");
        unlink(p);
    }
    unlink(res);
    unlink(log);
    free(p);
    free(log);
    free(res);
}

/* Iteration k's match as the referee's command line (set_iteration done):
 * the match of play_iteration word for word, its engines' tuned options
 * holding this iteration's values, with the games, the seed and the first
 * opening that play_iteration sets in the match, and --results res.
 * Strings made here go to *own (free each, then the arrays). */
static char **iter_argv(const struct tune *t, const char *res, int *argc_out,
                        char ***own, int *nown)
{
    int cap = t->nrest + 16 + 2 * (t->eng_end - t->eng_at + 2 + t->nopt);
    char **a = xcalloc((size_t)cap, sizeof *a), *s;
    int n = 0;
    *own = xcalloc((size_t)(2 * (t->nopt + 1) + 4), sizeof **own);
    *nown = 0;
#define OWN(x) (a[n++] = (*own)[(*nown)++] = (x))
    a[n++] = "--logdir";
    a[n++] = "none";
    for (int i = 0; i < t->eng_at - 1; i++)
        a[n++] = t->rest[i];
    for (int e = 0; e < 2; e++) {
        a[n++] = "--engine";
        for (int i = t->eng_at; i < t->eng_end; i++)
            a[n++] = t->rest[i];
        a[n++] = e == 0 ? "name=theta-plus" : "name=theta-minus";
        for (int o = 0; o < t->nopt; o++) {
            s = xmalloc(strlen(t->opt[o].name) + strlen(t->val[e][o]) + 16);
            sprintf(s, "option.%s=%s", t->opt[o].name, t->val[e][o]);
            OWN(s);
        }
    }
    for (int i = t->eng_end; i < t->nrest; i++)
        a[n++] = t->rest[i];
    a[n++] = "--games";
    s = xmalloc(24);
    snprintf(s, 24, "%d", t->m.games);
    OWN(s);
    a[n++] = "--seed";
    s = xmalloc(24);
    snprintf(s, 24, "%llu", (unsigned long long)t->m.seed);
    OWN(s);
    if (t->m.open.nlines && !t->m.open.random_order) {
        /* a second --openings adds to the first; its start= wins */
        a[n++] = "--openings";
        s = xmalloc(24);
        snprintf(s, 24, "start=%d", t->m.open.start);
        OWN(s);
    }
    a[n++] = "--results";
    a[n++] = (char *)res;
#undef OWN
    assert(n <= cap);
    *argc_out = n;
    return a;
}

struct tally {
    struct ref_table tb;
    char bad[160];
};

static void tally_one(void *ctx, const struct ref_record *r)
{
    struct tally *c = ctx;
    if (!*c->bad && ref_table_add(&c->tb, r) < 0)
        snprintf(c->bad, sizeof c->bad, "game %d is there twice or does not fit",
                 r->game);
}

/* The last line of each shard's .out file, to say why games are missing. */
static void shard_reasons(const struct tune *t, const char *res)
{
    char *p = xmalloc(strlen(res) + 64), line[512], last[512];
    for (int s = 1; s <= t->runner->shards; s++) {
        FILE *f;
        sprintf(p, "%s.shard-%d-of-%d.out", res, s, t->runner->shards);
        if (!(f = fopen(p, "r")))
            continue;
        last[0] = '\0';
        while (fgets(line, sizeof line, f))
            if (line[0] != '\n')
                snprintf(last, sizeof last, "%s", line);
        fclose(f);
        if (*last)
            fprintf(stderr, "  shard %d: %s%s", s, last, strchr(last, '\n') ? "" : "\n");
    }
    free(p);
}

/* Play iteration k (set_iteration done) as one batch of t->runner's
 * shards: plus's wins, losses, draws, read back from the merged results.
 * 0; 1 (a dry run: the batch printed, nothing played); -1 (stopped). */
static int play_batched(struct tune *t, int k, int *w, int *l, int *dr)
{
    const struct ref_tune_runner *r = t->runner;
    char *res = iter_path(t, k, ".jsonl"), *logp = iter_path(t, k, ".log");
    char **own, **a, err[512] = "";
    int argc, nown, rc = -1, st;
    struct ref_batch b;
    struct tally c;
    FILE *log = NULL;

    a = iter_argv(t, res, &argc, &own, &nown);
    memset(&c, 0, sizeof c);
    ref_table_init(&c.tb);
    if (ref_batch_init(&b, r->shards, 0, 0, argc, a, err, sizeof err) < 0) {
        tbad("iteration %d: %s", k, err);
        goto out;
    }
    if (r->dry) {
        st = r->run(r->ctx, &b, b.total);
        ref_batch_free(&b);
        rc = st < 0 ? -1 : 1;
        goto out;
    }
    /* The batches' lines (and each iteration's table) go to the log. */
    if (!(log = fopen(logp, "a"))) {
        tbad("cannot write %s: %s", logp, strerror(errno));
        ref_batch_free(&b);
        goto out;
    }
    st = ref_batch_loop(&b, r->run, r->ctx, log);
    ref_batch_free(&b);
    fclose(log);
    if (st != 0) {
        tbad("iteration %d: %s (%s and %s.shard-*.out say why; the state file "
             "keeps iteration %d; the same command continues)", k,
             st == 1 ? "the shards could not be run"
                     : "games still missing after the shards ran three times",
             logp, res, k - 1);
        shard_reasons(t, res);
        goto out;
    }
    ref_table_engine(&c.tb, "theta-plus");
    ref_table_engine(&c.tb, "theta-minus");
    if (ref_record_read_file(res, tally_one, &c, NULL, err, sizeof err) < 0 || *c.bad ||
        c.tb.nsum != t->m.games || c.tb.neng != 2) {
        tbad("iteration %d: %s: %s", k, res,
             *c.bad ? c.bad : *err ? err : "not the games of the iteration");
        goto out;
    }
    count_games(&c.tb, w, l, dr);
    rc = 0;
out:
    ref_table_free(&c.tb);
    for (int i = 0; i < nown; i++)
        free(own[i]);
    free(own);
    free(a);
    free(logp);
    free(res);
    return rc;
}

/* ---- the state file --------------------------------------------------------- */

static void hist_add(struct tune *t)
{
    if (t->nhist == TUNE_MAX_HISTORY)
        return;
    t->hist_k = xrealloc(t->hist_k, (size_t)(t->nhist + 1) * sizeof *t->hist_k);
    t->hist_theta = xrealloc(t->hist_theta,
                             (size_t)(t->nhist + 1) * (size_t)t->np * sizeof(double));
    t->hist_k[t->nhist] = t->k;
    memcpy(t->hist_theta + (size_t)t->nhist * (size_t)t->np, t->theta,
           (size_t)t->np * sizeof(double));
    t->nhist++;
}

static json_t *settings_json(const struct tune *t)
{
    json_t *ps = json_array();
    for (int i = 0; i < t->np; i++) {
        const struct ref_tune_param *p = &t->p[i];
        json_array_append_new(ps, json_pack("{s:s,s:f,s:f,s:f,s:f,s:f,s:b}", "name",
                                            p->name, "start", p->start, "min",
                                            p->min, "max", p->max, "c_end", p->c_end,
                                            "r_end", p->r_end, "integer", p->integer));
    }
    return json_pack("{s:s,s:s,s:I,s:i,s:i,s:f,s:f,s:f,s:o}", "game", t->m.g->name,
                     "params", t->m.params, "seed", (json_int_t)t->seed,
                     "iterations", t->iterations, "pairs", t->pairs, "A", t->A,
                     "alpha", t->alpha, "gamma", t->gamma, "parameters", ps);
}

static int save_state(struct tune *t)
{
    struct ref_outfile of;
    char err[300];
    json_t *root, *th = json_array(), *hist = json_array();
    memset(&of, 0, sizeof of);
    for (int i = 0; i < t->np; i++)
        json_array_append_new(th, json_real(t->theta[i]));
    for (int h = 0; h < t->nhist; h++) {
        json_t *v = json_array();
        for (int i = 0; i < t->np; i++)
            json_array_append_new(v, json_real(t->hist_theta[(size_t)h * (size_t)t->np + (size_t)i]));
        json_array_append_new(hist, json_pack("{s:i,s:o}", "k", t->hist_k[h], "theta", v));
    }
    root = json_pack("{s:i,s:o,s:i,s:o,s:I,s:I,s:I,s:I,s:o}", "medan_tune",
                     TUNE_STATE_VERSION, "settings", settings_json(t), "k", t->k,
                     "theta", th, "games", (json_int_t)t->games, "wins",
                     (json_int_t)t->wins, "losses", (json_int_t)t->losses, "draws",
                     (json_int_t)t->draws, "history", hist);
    if (!root || ref_outfile_open(&of, t->state_path, err, sizeof err) < 0 ||
        json_dumpf(root, of.f, JSON_REAL_PRECISION(17) | JSON_COMPACT) < 0 ||
        fputc('\n', of.f) == EOF || ref_outfile_commit(&of, err, sizeof err) < 0) {
        ref_outfile_discard(&of);
        json_decref(root);
        return tbad("cannot write the state file %s: %s", t->state_path,
                    of.f || !root ? "write error" : err);
    }
    json_decref(root);
    return 0;
}

/* Load t->state_path if it exists: 0 (loaded or none), -1 (refused). */
static int load_state(struct tune *t)
{
    json_error_t je;
    json_t *root, *want, *th, *hist;
    json_int_t k = -1, games = 0, wins = 0, losses = 0, draws = 0;
    int version = 0;
    FILE *f = fopen(t->state_path, "r");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        return tbad("--state %s: %s", t->state_path, strerror(errno));
    }
    root = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!root)
        return tbad("--state %s: not a state file (line %d: %s)", t->state_path,
                    je.line, je.text);
    want = settings_json(t);
    if (json_unpack(root, "{s:i,s:I,s:o,s:I,s:I,s:I,s:I,s:o}", "medan_tune", &version,
                    "k", &k, "theta", &th, "games", &games, "wins", &wins,
                    "losses", &losses, "draws", &draws, "history", &hist) < 0 ||
        version != TUNE_STATE_VERSION || !json_is_array(th) ||
        json_array_size(th) != (size_t)t->np || !json_is_array(hist) ||
        k < 0 || k > t->iterations) {
        json_decref(want);
        json_decref(root);
        return tbad("--state %s: not a state file of this version", t->state_path);
    }
    if (!json_equal(json_object_get(root, "settings"), want)) {
        json_decref(want);
        json_decref(root);
        return tbad("--state %s is from another run (game, parameters, "
                    "--iterations, --pairs, --seed or --spsa differ); use another "
                    "file or the same command", t->state_path);
    }
    json_decref(want);
    /* The counts: none negative, the three adding up to the games, and no
     * more games than k iterations can have played (2 seats x pairs, or
     * a deal's rotations over at most GAME_MAX_SEATS seats). */
    if (games < 0 || wins < 0 || losses < 0 || draws < 0 ||
        wins > games || losses > games - wins || draws != games - wins - losses ||
        games > (json_int_t)k * t->pairs * 2 * GAME_MAX_SEATS) {
        json_decref(root);
        return tbad("--state %s: damaged: %lld games (+%lld -%lld =%lld) after "
                    "iteration %lld cannot be", t->state_path, (long long)games,
                    (long long)wins, (long long)losses, (long long)draws,
                    (long long)k);
    }
    for (int i = 0; i < t->np; i++) {
        json_t *v = json_array_get(th, (size_t)i);
        if (!json_is_number(v))
            goto badfile;
        t->theta[i] = json_number_value(v);
        if (!(t->theta[i] >= t->p[i].min && t->theta[i] <= t->p[i].max))
            goto badtheta;
    }
    t->nhist = 0;
    if (json_array_size(hist) > TUNE_MAX_HISTORY)
        goto badfile;
    for (size_t h = 0, last = 0; h < json_array_size(hist); h++) {
        json_t *e = json_array_get(hist, h), *v;
        json_int_t hk;
        double save[TUNE_MAX_PARAMS];
        /* the path: iterations in order, none past k, theta in bounds */
        if (json_unpack(e, "{s:I,s:o}", "k", &hk, "theta", &v) < 0 ||
            !json_is_array(v) || json_array_size(v) != (size_t)t->np ||
            hk < (json_int_t)last || hk > k)
            goto badfile;
        last = (size_t)hk;
        memcpy(save, t->theta, sizeof save);
        for (int i = 0; i < t->np; i++) {
            json_t *x = json_array_get(v, (size_t)i);
            if (!json_is_number(x))
                goto badfile;
            t->theta[i] = json_number_value(x);
            if (!(t->theta[i] >= t->p[i].min && t->theta[i] <= t->p[i].max)) {
                double bad_x = t->theta[i];
                json_decref(root);
                return tbad("--state %s: damaged: %s = %g at iteration %lld of "
                            "the path is outside its bounds [%g, %g]", t->state_path,
                            t->p[i].name, bad_x, (long long)hk, t->p[i].min, t->p[i].max);
            }
        }
        t->k = (int)hk;
        hist_add(t);
        memcpy(t->theta, save, sizeof save);
    }
    t->k = (int)k;
    t->games = games, t->wins = wins, t->losses = losses, t->draws = draws;
    json_decref(root);
    fprintf(stderr, "tune: resuming %s after iteration %d of %d\n", t->state_path,
            t->k, t->iterations);
    return 0;
badfile:
    json_decref(root);
    return tbad("--state %s: damaged (a value is missing or out of range)",
                t->state_path);
badtheta:
    json_decref(root);
    for (int i = 0; i < t->np; i++)
        if (!(t->theta[i] >= t->p[i].min && t->theta[i] <= t->p[i].max))
            return tbad("--state %s: damaged: %s = %g is outside its bounds "
                        "[%g, %g]", t->state_path, t->p[i].name, t->theta[i],
                        t->p[i].min, t->p[i].max);
    return tbad("--state %s: damaged (a value is out of range)", t->state_path);
}

/* ---- output ----------------------------------------------------------------- */

static void print_theta(const struct tune *t, FILE *f)
{
    for (int i = 0; i < t->np; i++)
        fprintf(f, "%s %s %.6g", i ? "," : "", t->p[i].name, t->theta[i]);
}

static void progress_line(const struct tune *t)
{
    fprintf(stderr, "tune: iteration %d/%d, %lld games (theta-plus +%lld -%lld =%lld):",
            t->k, t->iterations, t->games, t->wins, t->losses, t->draws);
    print_theta(t, stderr);
    fputc('\n', stderr);
}

static void final_table(struct tune *t)
{
    double x[TUNE_MAX_PARAMS];
    printf("SPSA after %d iterations (%lld games; theta-plus +%lld -%lld =%lld)\n",
           t->k, t->games, t->wins, t->losses, t->draws);
    int wid = 9;
    for (int i = 0; i < t->np; i++)
        if ((int)strlen(t->p[i].name) > wid)
            wid = (int)strlen(t->p[i].name);
    printf("%-*s %12s %12s %12s %12s\n", wid, "parameter", "start", "tuned", "min", "max");
    for (int i = 0; i < t->np; i++) {
        printf("%-*s %12.6g %12.6g %12.6g %12.6g\n", wid, t->p[i].name, t->p[i].start,
               t->theta[i], t->p[i].min, t->p[i].max);
        x[i] = t->p[i].integer ? clampd((double)llround(t->theta[i]), t->p[i].min, t->p[i].max)
                               : t->theta[i];
    }
    if (make_values(t, 0, x) == 0) {
        printf("Engine keys:");
        for (int o = 0; o < t->nopt; o++)
            printf(" option.%s=%s", t->opt[o].name, t->val[0][o]);
        printf("\n");
    }
}

/* ---- the command line ------------------------------------------------------- */

/* The user's value of option `name` in engine keys kv[lo..hi) (last wins). */
static const char *user_option(char **argv, int lo, int hi, const char *name)
{
    const char *v = NULL;
    for (int i = lo; i < hi; i++)
        if (str_prefix(argv[i], "option.")) {
            const char *eq = strchr(argv[i], '=');
            size_t l = eq ? (size_t)(eq - argv[i] - 7) : 0;
            if (eq && l == strlen(name) && strncasecmp(argv[i] + 7, name, l) == 0)
                v = eq + 1;
        }
    return v;
}

static int is_flag_arg(const char *s) { return s[0] == '-'; }

/* A time control among the engine's keys or --each's. */
static int has_limit(char **rest, int nrest, int lo, int hi)
{
    static const char *const keys[] = {"tc=", "st=", "depth=", "nodes=", NULL};
    int each = 0;
    for (int i = 0; i < nrest; i++) {
        if (is_flag_arg(rest[i])) {
            each = strcmp(rest[i], "--each") == 0;
            continue;
        }
        if (each || (i >= lo && i < hi))
            for (int k = 0; keys[k]; k++)
                if (str_prefix(rest[i], keys[k]))
                    return 1;
    }
    return 0;
}

/* The match's argv: rest with its one --engine group repeated neng times
 * (theta-plus, theta-minus, theta...), each with a slot for every tuned
 * option.  Strings made here go to *owned. */
static char **match_argv(struct tune *t, char **rest, int nrest, int eng_at,
                         int eng_end, int neng, int *argc_out, char ***owned,
                         int *nowned)
{
    int cap = nrest + 8 + neng * (eng_end - eng_at + 2 + t->nopt);
    char **a = xcalloc((size_t)cap, sizeof *a);
    int n = 0;
    a[n++] = "--logdir";
    a[n++] = "none";
    for (int i = 0; i < eng_at - 1; i++) /* rest[eng_at - 1]: --engine */
        a[n++] = rest[i];
    for (int e = 0; e < neng; e++) {
        const char *nm = e == 0 ? "theta-plus" : e == 1 ? "theta-minus" : "theta";
        char *s;
        a[n++] = "--engine";
        for (int i = eng_at; i < eng_end; i++)
            a[n++] = rest[i];
        s = xmalloc(strlen(nm) + 8);
        sprintf(s, "name=%s", nm);
        a[n++] = s;
        (*owned)[(*nowned)++] = s;
        for (int o = 0; o < t->nopt; o++) {
            s = xmalloc(strlen(t->opt[o].name) + strlen(t->opt[o].base) + 16);
            sprintf(s, "option.%s=%s", t->opt[o].name, t->opt[o].base);
            a[n++] = s;
            (*owned)[(*nowned)++] = s;
        }
    }
    for (int i = eng_end; i < nrest; i++)
        a[n++] = rest[i];
    *argc_out = n;
    return a;
}

/* Parse the match with neng engines; 0 or -1.  quiet: errors and notes
 * go nowhere (the probe that learns the seat count). */
static int parse_match(struct tune *t, char **rest, int nrest, int eng_at,
                       int eng_end, int neng, int quiet)
{
    char **owned = xcalloc((size_t)(neng * (t->nopt + 1) + 1), sizeof *owned);
    int nowned = 0, argc, rc, saved = -1;
    char ebuf[512];
    char **a = match_argv(t, rest, nrest, eng_at, eng_end, neng, &argc, &owned, &nowned);
    memset(&t->m, 0, sizeof t->m);
    pthread_mutex_init(&t->m.mu, NULL);
    ref_table_init(&t->m.table);
    if (quiet) {
        int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        fflush(stderr);
        saved = dup(2);
        if (fd >= 0) {
            dup2(fd, 2);
            close(fd);
        }
        ref_cli_errors_to(ebuf, sizeof ebuf);
    }
    rc = ref_cli_parse(&t->m, argc, a, 0, NULL);
    if (quiet) {
        ref_cli_errors_to(NULL, 0);
        fflush(stderr);
        if (saved >= 0) {
            dup2(saved, 2);
            close(saved);
        }
    }
    /* the match's own list keeps the strings made here */
    for (int i = 0; i < nowned; i++) {
        t->m.owned = xrealloc(t->m.owned, (size_t)(t->m.nowned + 1) * sizeof *t->m.owned);
        t->m.owned[t->m.nowned++] = owned[i];
    }
    free(owned);
    free(a);
    return rc;
}

static void tune_free(struct tune *t)
{
    if (t->m.results)
        fclose(t->m.results);
    if (t->m.records)
        fclose(t->m.records);
    t->m.results = t->m.records = NULL;
    ref_match_free(&t->m);
    free(t->val);
    free(t->hist_k);
    free(t->hist_theta);
}

static int tune_main(int argc, char **argv, const struct ref_tune_runner *runner)
{
    static struct tune t0;
    struct tune *t = &t0;
    char **rest = xcalloc((size_t)argc + 2, sizeof *rest);
    int nrest = 0, eng_at = -1, eng_end = -1, nengines = 0, rc = 1;
    int hidden = 0, keyflag = 0;
    const char *gname = NULL;
    int64_t x;

    memset(t, 0, sizeof *t);
    t->runner = runner;
    t->pairs = 1;
    t->progress = 10;
    t->alpha = 0.602;
    t->gamma = 0.101;
    ref_cli_canon(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--param") == 0) {
            if (!v)
                goto usage;
            if (add_param(t, argv[++i], "--param ") < 0)
                goto out;
        } else if (strcmp(a, "--params") == 0) {
            if (!v)
                goto usage;
            if (read_params(t, argv[++i]) < 0)
                goto out;
        } else if (strcmp(a, "--iterations") == 0 || strcmp(a, "--pairs") == 0 ||
                   strcmp(a, "--progress") == 0) {
            if (!v || parse_i64(v, 1, 100000000, &x) < 0) {
                tbad("%s needs a number from 1, got %s", a, v ? v : "nothing");
                goto out;
            }
            i++;
            *(a[2] == 'i' ? &t->iterations : a[3] == 'a' ? &t->pairs : &t->progress) = (int)x;
        } else if (strcmp(a, "--state") == 0) {
            if (!v)
                goto usage;
            t->state_path = argv[++i];
        } else if (strcmp(a, "--seed") == 0) {
            uint64_t u;
            if (!v || parse_u64(v, &u) < 0) {
                tbad("--seed needs a number");
                goto out;
            }
            t->seed = u & ((1ULL << 53) - 1);
            i++;
        } else if (strcmp(a, "--spsa") == 0) {
            while (i + 1 < argc && !is_flag_arg(argv[i + 1])) {
                const char *kv = argv[++i], *eq = strchr(kv, '=');
                double y;
                if (!eq || parse_num(eq + 1, &y, NULL) < 0 ||
                    !(str_prefix(kv, "A=") ? y >= 0
                      : str_prefix(kv, "alpha=") || str_prefix(kv, "gamma=") ? y > 0 && y <= 1
                                                                              : 0)) {
                    tbad("bad --spsa setting %s (A=X >= 0, alpha=X, gamma=X in (0, 1])", kv);
                    goto out;
                }
                if (kv[0] == 'A')
                    t->A = y, t->A_given = 1;
                else
                    *(kv[0] == 'a' ? &t->alpha : &t->gamma) = y;
            }
        } else if (strcmp(a, "--results") == 0 || strcmp(a, "--resume") == 0 ||
                   strcmp(a, "--records") == 0 || strcmp(a, "--sprt") == 0 ||
                   strcmp(a, "--shard") == 0 || strcmp(a, "--games") == 0 ||
                   strcmp(a, "--rounds") == 0 || strcmp(a, "--tournament") == 0 ||
                   strcmp(a, "--noswap") == 0 || strcmp(a, "--recover") == 0) {
            tbad("%s is a match flag that tune sets itself or has no use for "
                 "(--pairs sets the games of an iteration; --state keeps the run)", a);
            goto out;
        } else {
            if (strcmp(a, "--engine") == 0) {
                nengines++;
                eng_at = nrest + 1;
                eng_end = eng_at;
                rest[nrest++] = argv[i];
                while (i + 1 < argc && !is_flag_arg(argv[i + 1])) {
                    rest[nrest++] = argv[++i];
                    eng_end++;
                }
                continue;
            }
            if (strcmp(a, "--game") == 0 && v)
                gname = v;
            if (strcmp(a, "--key-file") == 0 || strcmp(a, "--key-from-seed") == 0)
                keyflag = 1;
            rest[nrest++] = argv[i];
        }
    }
    if (!t->np || !t->iterations || !gname || nengines != 1) {
        if (nengines > 1)
            tbad("one --engine: tune plays it against itself (theta-plus, theta-minus)");
        goto usage;
    }
    if (!t->A_given)
        t->A = 0.1 * t->iterations;
    /* the options tuned: each once, those tuned by entries with the user's value */
    for (int i = 0; i < t->np; i++) {
        int o;
        for (o = 0; o < t->nopt; o++)
            if (str_ieq(t->opt[o].name, t->p[i].option))
                break;
        if (o == t->nopt) {
            const char *uv;
            if (t->nopt == TUNE_MAX_OPTS) {
                tbad("at most %d engine options", TUNE_MAX_OPTS);
                goto out;
            }
            _Static_assert(sizeof t->opt[o].name == sizeof t->p[i].option, "name sizes");
            memcpy(t->opt[o].name, t->p[i].option, sizeof t->opt[o].name);
            t->opt[o].named = *t->p[i].entry != 0;
            uv = user_option(rest, eng_at, eng_end, t->opt[o].name);
            if (!uv) {
                int ea = -1;
                for (int j = 0; j < nrest; j++)
                    if (strcmp(rest[j], "--each") == 0)
                        ea = j + 1;
                if (ea >= 0) {
                    int ee = ea;
                    while (ee < nrest && !is_flag_arg(rest[ee]))
                        ee++;
                    uv = user_option(rest, ea, ee, t->opt[o].name);
                }
            }
            if (uv && t->opt[o].named) {
                if (strlen(uv) >= OPT_STR_LEN - 64) {
                    tbad("option.%s is too long to add entries to", t->opt[o].name);
                    goto out;
                }
                snprintf(t->opt[o].base, sizeof t->opt[o].base, "%s", uv);
            }
            t->nopt++;
        }
    }
    {
        const struct game *g = game_find(gname);
        hidden = g && g->view;
        if (hidden && !keyflag)
            rest[nrest++] = "--key-from-seed";
    }
    /* A probe with two engines learns the seat count, then the real one;
     * both quiet (the referee's notes about --key-from-seed are about
     * matches between rivals), and again aloud when it fails, to say why. */
    {
        int nseats = 2, bad;
        if (parse_match(t, rest, nrest, eng_at, eng_end, 2, 1) == 0)
            nseats = t->m.nseats;
        tune_free(t);
        memset(&t->m, 0, sizeof t->m);
        t->val = NULL;
        bad = parse_match(t, rest, nrest, eng_at, eng_end, nseats, 1) < 0;
        if (bad) {
            tune_free(t);
            memset(&t->m, 0, sizeof t->m);
            parse_match(t, rest, nrest, eng_at, eng_end, nseats, 0);
            goto out;
        }
    }
    if (runner && (t->m.nseats != 2 || hidden)) {
        tbad("%s ... tune plays two-seat games; %s's rotated deals (the other "
             "seats at theta, the deals from --seed) run in one process: "
             "medan-referee tune", runner->name, t->m.g->name);
        goto out;
    }
    if (runner && !t->state_path) {
        tbad("%s ... tune needs --state FILE (each iteration's games are "
             "written beside it, FILE.iter-K.jsonl.shard-I-of-N)", runner->name);
        goto out;
    }
    t->rest = rest;
    t->nrest = nrest;
    t->eng_at = eng_at;
    t->eng_end = eng_end;
    if (!has_limit(rest, nrest, eng_at, eng_end))
        fprintf(stderr, "medan-referee tune: warning: the engine has no time control "
                "(tc=, st=, depth= or nodes=); using st=1 (one second a move)\n");
    if (hidden && !keyflag) {
        ref_key_from_seed(t->seed, t->m.key);
        fprintf(stderr, "tune: the %s deals follow from --seed (a public key: the "
                "seats hold copies of one engine)\n", t->m.g->name);
    }
    t->m.quiet = 1;
    t->m.games = t->m.encounter_games = t->pairs * (t->m.nseats > 2 ? t->m.nseats : 2);
    t->m.rounds = 1;
    t->open_first = t->m.open.start > 0 ? t->m.open.start - 1 : 0;
    t->val = xcalloc((size_t)t->m.neng, sizeof *t->val);
    for (int i = 0; i < t->np; i++)
        t->theta[i] = t->p[i].start;
    if (t->state_path && load_state(t) < 0)
        goto out;
    if (t->k == 0 && t->nhist == 0)
        hist_add(t);
    t->k0 = t->k;
    fprintf(stderr, "tune: %s, %d parameters, %d iterations of %d games "
            "(A %.6g, alpha %.6g, gamma %.6g, seed %llu)%s%s\n", t->m.g->name, t->np,
            t->iterations, t->m.games, t->A, t->alpha, t->gamma,
            (unsigned long long)t->seed, t->state_path ? ", state " : "",
            t->state_path ? t->state_path : "");
    if (runner && t->k > 0)
        iter_clean(t, t->k); /* left by a run stopped after its last save */
    while (t->k < t->iterations) {
        int k = t->k + 1, d[TUNE_MAX_PARAMS], r, w = 0, l = 0, dr = 0, st;
        for (int i = 0; i < t->np; i++)
            d[i] = sign_of(t, k, i);
        if (set_iteration(t, k, d) < 0) {
            rc = 2;
            goto out;
        }
        st = runner ? play_batched(t, k, &w, &l, &dr) : play_iteration(t, k, &w, &l, &dr);
        if (st < 0) {
            rc = 2;
            goto out;
        }
        if (st > 0) { /* a dry run */
            rc = 0;
            goto out;
        }
        r = w - l;
        for (int i = 0; i < t->np; i++) {
            const struct ref_tune_param *p = &t->p[i];
            double ck = ref_tune_ck(p, t->iterations, t->gamma, k),
                   ak = ref_tune_ak(p, t->iterations, t->A, t->alpha, k);
            t->theta[i] = clampd(t->theta[i] + ak / ck * r * d[i], p->min, p->max);
        }
        t->k = k;
        t->games += w + l + dr;
        t->wins += w, t->losses += l, t->draws += dr;
        if (k % t->progress == 0 || k == t->iterations) {
            hist_add(t);
            progress_line(t);
        }
        if (t->state_path && save_state(t) < 0) {
            rc = 2; /* the run stopped early (docs/referee.md, Exit status) */
            goto out;
        }
        if (runner)
            iter_clean(t, k);
    }
    final_table(t);
    rc = 0;
    goto out;
usage:
    rc = usage();
out:
    tune_free(t);
    free(rest);
    return rc;
}

int ref_tune_main(int argc, char **argv)
{
    return tune_main(argc, argv, NULL);
}

int ref_tune_batched_main(int argc, char **argv, const struct ref_tune_runner *r)
{
    assert(r && r->run && r->shards >= 1);
    return tune_main(argc, argv, r);
}

/* ---- the path, for the report ---------------------------------------------- */

#define TUNE_STATE_MAX_BYTES (64L << 20)

void ref_tune_path_free(struct ref_tune_path *t)
{
    free(t->p);
    free(t->hk);
    free(t->theta);
    memset(t, 0, sizeof *t);
}

static int num_ok(json_t *v, double *x)
{
    if (!json_is_number(v))
        return 0;
    *x = json_number_value(v);
    return isfinite(*x) && fabs(*x) <= 1e15;
}

int ref_tune_path_load(const char *path, struct ref_tune_path *t, char *err,
                       size_t n)
{
    json_error_t je;
    json_t *root = NULL, *set, *ps, *hist;
    char *buf = NULL;
    size_t len = 0;
    long long k = 0, iters = 0;
    const char *game = "";
    int fd;
    struct stat sb;
    memset(t, 0, sizeof *t);
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return set_err(err, n, -1, "%s: %s", path, strerror(errno));
    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size > TUNE_STATE_MAX_BYTES) {
        close(fd);
        return set_err(err, n, -1, "%s: not a tune state file (a regular file of at "
                       "most %ld bytes)", path, TUNE_STATE_MAX_BYTES);
    }
    buf = xmalloc((size_t)sb.st_size + 1);
    while (len < (size_t)sb.st_size) {
        ssize_t r = read(fd, buf + len, (size_t)sb.st_size - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    if (!root)
        return set_err(err, n, -1, "%s: not a tune state file (line %d)", path, je.line);
    if (json_unpack(root, "{s:o,s:I,s:o}", "settings", &set, "k", &k, "history", &hist) < 0 ||
        json_unpack(set, "{s:s,s:I,s:o}", "game", &game, "iterations", &iters,
                    "parameters", &ps) < 0 ||
        !json_is_array(ps) || !json_is_array(hist) || json_array_size(ps) < 1 ||
        json_array_size(ps) > TUNE_MAX_PARAMS || json_array_size(hist) > TUNE_MAX_HISTORY ||
        iters < 1 || iters > 100000000 || k < 0 || k > iters)
        goto bad;
    snprintf(t->game, sizeof t->game, "%s", game);
    t->iterations = (int)iters;
    t->k = (int)k;
    t->np = (int)json_array_size(ps);
    t->nh = (int)json_array_size(hist);
    t->p = xcalloc((size_t)t->np, sizeof *t->p);
    t->hk = xcalloc((size_t)t->nh + 1, sizeof *t->hk);
    t->theta = xcalloc((size_t)t->nh * (size_t)t->np + 1, sizeof *t->theta);
    for (int i = 0; i < t->np; i++) {
        json_t *q = json_array_get(ps, (size_t)i);
        const char *name = "";
        struct ref_tune_param *p = &t->p[i];
        if (json_unpack(q, "{s:s}", "name", &name) < 0 ||
            !num_ok(json_object_get(q, "start"), &p->start) ||
            !num_ok(json_object_get(q, "min"), &p->min) ||
            !num_ok(json_object_get(q, "max"), &p->max) || !(p->min < p->max))
            goto bad;
        snprintf(p->name, sizeof p->name, "%s", name);
    }
    for (int h = 0; h < t->nh; h++) {
        json_t *e = json_array_get(hist, (size_t)h), *v;
        json_int_t hk;
        if (json_unpack(e, "{s:I,s:o}", "k", &hk, "theta", &v) < 0 || hk < 0 ||
            hk > iters || !json_is_array(v) || json_array_size(v) != (size_t)t->np)
            goto bad;
        t->hk[h] = (int)hk;
        for (int i = 0; i < t->np; i++) {
            double *x = &t->theta[(size_t)h * (size_t)t->np + (size_t)i];
            if (!num_ok(json_array_get(v, (size_t)i), x) || *x < t->p[i].min ||
                *x > t->p[i].max)
                goto bad;
        }
    }
    json_decref(root);
    return 0;
bad:
    json_decref(root);
    ref_tune_path_free(t);
    return set_err(err, n, -1, "%s: not a tune state file (a field is missing or out "
                   "of range)", path);
}
