/* match.c - medan-web's matches through the referee's library (see
 * match.h; results files followed: results.c). */
#include "match.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "referee/cli.h"
#include "referee/match.h"
#include "referee/stats.h"
#include "referee/table.h"
#include "web.h"

#define ARGV_MAX 320
#define ROWS_SHOWN 50            /* games listed in a match's state */
#define PATH_POINTS 400          /* points of the Elo chart at most */

struct web_match {
    struct ref_match m;
    struct ref_observer obs;
    struct web_match_hooks h;
    char *argv[ARGV_MAX];        /* the referee's command line */
    char *own[ARGV_MAX];         /* what argv pointed to (the parser may
                                    replace entries by its own spellings) */
    int argc;
    char *command;               /* the same match from the shell */
    char results[256];           /* the results file's name, "" = none */
    json_t *settings;
    pthread_t th;
    int has_th;
    /* under mu: */
    pthread_mutex_t mu;
    int running;
    char why[600];               /* why it stopped early */
    json_t *rows;                /* every game counted */
    json_t *table;               /* the referee's table, summed up */
};

/* ---- strings the page gets ------------------------------------------------ */

/* A JSON string of s; bytes that are not UTF-8 (a name cut inside a
 * character, a hostile file) become '?'. */
static json_t *jtext(const char *s)
{
    json_t *v = json_string(s);
    char *c;
    if (v)
        return v;
    c = xstrdup(s);
    for (char *p = c; *p; p++)
        if ((unsigned char)*p >= 0x80)
            *p = '?';
    v = json_string(c);
    free(c);
    return v ? v : json_string("?");
}

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* ---- the table, as the referee prints it and in numbers ------------------- */

static json_t *elo_json(const struct ref_elo *e)
{
    json_t *o = json_object();
    json_object_set_new(o, "score", jnum(e->score));
    json_object_set_new(o, "elo", jnum(e->elo));
    json_object_set_new(o, "lo", jnum(e->lo));
    json_object_set_new(o, "hi", jnum(e->hi));
    return o;
}

/* The score of the table's first engine in a two-seat game. */
static double first_score(const struct ref_sum *s)
{
    int a = s->eng[0] == 0 ? 0 : 1;
    return s->rank[a] < s->rank[1 - a] ? 1.0 : s->rank[a] == s->rank[1 - a] ? 0.5 : 0.0;
}

static json_t *table_json(const struct ref_table *t, const struct ref_sprt *sprt)
{
    json_t *o = json_object(), *eng = json_array(), *end = json_object();
    char *text = NULL;
    size_t tn = 0;
    FILE *f = open_memstream(&text, &tn);
    if (f) {
        ref_table_print(t, sprt, f);
        fclose(f);
        json_object_set_new(o, "text", jtext(text ? text : ""));
        free(text);
    }
    json_object_set_new(o, "games", json_integer(t->nsum));
    json_object_set_new(o, "nseats", json_integer(t->nseats));
    for (int e = 0; e < t->neng; e++) {
        const struct ref_eng_row *r = &t->eng[e];
        json_t *x = json_object();
        int fails = 0;
        for (int k = 0; k < REF_F_N; k++)
            fails += r->fails[k];
        json_object_set_new(x, "name", jtext(r->name));
        json_object_set_new(x, "games", json_integer(r->games));
        json_object_set_new(x, "wins", json_integer(r->wins));
        json_object_set_new(x, "losses", json_integer(r->losses));
        json_object_set_new(x, "draws", json_integer(r->draws));
        json_object_set_new(x, "forfeits", json_integer(fails));
        json_array_append_new(eng, x);
    }
    json_object_set_new(o, "engines", eng);
    for (int i = 0; i < t->reasons_n; i++)
        json_object_set_new(end, t->reason[i], json_integer(t->reason_count[i]));
    json_object_set_new(o, "endings", end);
    if (t->nseats == 2 && t->neng == 2 && t->nsum > 0) {
        int w, l, d, p[5], pairs = 0;
        struct ref_elo e;
        json_t *path = json_array(), *pj = json_array();
        int step = t->nsum / PATH_POINTS + 1, cw = 0, cl = 0, cd = 0;
        ref_table_wld(t, 0, 1, &w, &l, &d);
        json_object_set_new(o, "a", jtext(t->eng[0].name));
        json_object_set_new(o, "b", jtext(t->eng[1].name));
        json_object_set_new(o, "wins", json_integer(w));
        json_object_set_new(o, "losses", json_integer(l));
        json_object_set_new(o, "draws", json_integer(d));
        if (w + l + d > 0) {
            ref_elo_trinomial(w, l, d, &e);
            json_object_set_new(o, "elo", elo_json(&e));
            json_object_set_new(o, "los", jnum(ref_los(w, l)));
        }
        ref_table_penta(t, 0, 1, p);
        for (int k = 0; k < 5; k++) {
            pairs += p[k];
            json_array_append_new(pj, json_integer(p[k]));
        }
        json_object_set_new(o, "penta", pj);
        if (pairs) {
            ref_elo_pentanomial(p, &e);
            json_object_set_new(o, "elo_pairs", elo_json(&e));
        }
        if (sprt) {
            double llr, lo, hi;
            int dec = ref_sprt_decide(sprt, p, &llr);
            ref_sprt_bounds(sprt, &lo, &hi);
            json_object_set_new(o, "sprt", json_pack("{s:o,s:o,s:o,s:s}", "llr",
                                                     jnum(llr), "lower", jnum(lo),
                                                     "upper", jnum(hi), "decision",
                                                     dec > 0 ? "H1" : dec < 0 ? "H0" : ""));
        }
        /* The Elo estimate and its interval after each game (the chart). */
        for (int i = 0; i < t->nsum; i++) {
            double sc;
            if (t->sum[i].nseats != 2)
                continue;
            sc = first_score(&t->sum[i]);
            cw += sc == 1.0;
            cl += sc == 0.0;
            cd += sc == 0.5;
            if ((i + 1) % step == 0 || i == t->nsum - 1) {
                json_t *pt;
                ref_elo_trinomial(cw, cl, cd, &e);
                pt = elo_json(&e);
                json_object_set_new(pt, "n", json_integer(cw + cl + cd));
                json_array_append_new(path, pt);
            }
        }
        json_object_set_new(o, "path", path);
    }
    return o;
}

/* One game as a row of the page's list. */
static json_t *row_json(const struct ref_record *r)
{
    json_t *o = json_object(), *seats = json_array();
    const char *res = ref_record_result_text(r);
    char rb[64];
    size_t len = 0;
    for (int s = 0; s < r->nseats; s++)
        json_array_append_new(seats, jtext(r->seat_name[s]));
    if (!res) {
        rb[0] = '\0';
        buf_printf(rb, sizeof rb, &len, "ranks");
        for (int s = 0; s < r->nseats; s++)
            buf_printf(rb, sizeof rb, &len, " %d", r->rank[s]);
        res = rb;
    }
    json_object_set_new(o, "game", json_integer(r->game));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "result", jtext(res));
    json_object_set_new(o, "reason", jtext(r->reason));
    json_object_set_new(o, "detail", jtext(r->detail));
    json_object_set_new(o, "plies", json_integer(r->nmoves));
    return o;
}

/* ---- the page's settings as a referee command line ------------------------- */

static void arg(struct web_match *wm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void arg(struct web_match *wm, const char *fmt, ...)
{
    va_list ap;
    char buf[4200];
    if (wm->argc >= ARGV_MAX - 1)
        return; /* checked by the callers' word limits */
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    wm->own[wm->argc] = wm->argv[wm->argc] = xstrdup(buf);
    wm->argc++;
}

/* Words of s (at most max, each of the characters ok, at most 63 long)
 * into w; their count, or -1 with err. */
static int words(const char *field, const char *s, char w[][64], int max,
                 char *err, size_t n)
{
    static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789._=+:/-";
    int k = 0;
    while (*s) {
        size_t len;
        s += strspn(s, " \t");
        if (!*s)
            break;
        len = strcspn(s, " \t");
        if (strspn(s, ok) < len)
            return set_err(err, n, -1, "'%s': only letters, digits and . _ = + : / - "
                           "in its words", field);
        if (len >= 64 || k == max)
            return set_err(err, n, -1, "'%s': too long", field);
        memcpy(w[k], s, len);
        w[k][len] = '\0';
        k++;
        s += len;
    }
    return k;
}

/* key=value with key one of keys (NULL-terminated). */
static int key_in(const char *w, const char *const keys[])
{
    const char *eq = strchr(w, '=');
    if (!eq || !eq[1])
        return 0;
    for (int i = 0; keys[i]; i++)
        if (strlen(keys[i]) == (size_t)(eq - w) && strncmp(w, keys[i], (size_t)(eq - w)) == 0)
            return 1;
    return 0;
}

/* Words of a field, each key=value with one of keys, as arguments. */
static int keyed(struct web_match *wm, const char *field, const char *s,
                 const char *const keys[], char *err, size_t n)
{
    char w[16][64];
    int k = words(field, s, w, 16, err, n);
    for (int i = 0; i < k; i++) {
        if (!key_in(w[i], keys)) {
            size_t len = 0;
            char list[160] = "";
            for (int j = 0; keys[j]; j++)
                buf_printf(list, sizeof list, &len, "%s%s=", j ? " " : "", keys[j]);
            return set_err(err, n, -1, "'%s': %s is not one of %s", field, w[i], list);
        }
        arg(wm, "%s", w[i]);
    }
    return k;
}

/* More referee options (the field `options`): only these, never a file,
 * a program, a directory or an engine. */
static const struct {
    const char *flag;
    int value;                   /* 0 none, 1 a number, 2 key=value words */
    const char *const *keys;
} extra[] = {
    {"--maxplies", 1, NULL}, {"--maxmoves", 1, NULL}, {"--rounds", 1, NULL},
    {"--draw", 2, (const char *const[]){"movenumber", "movecount", "score", NULL}},
    {"--resign", 2, (const char *const[]){"movecount", "score", "twosided", NULL}},
    {"--noswap", 0, NULL}, {"--repeat", 0, NULL}, {"--recover", 0, NULL},
    {"--key-from-seed", 0, NULL}, {NULL, 0, NULL}};

static int options(struct web_match *wm, const char *s, char *err, size_t n)
{
    char w[48][64];
    int k = words("options", s, w, 48, err, n);
    for (int i = 0; i < k; i++) {
        int f;
        for (f = 0; extra[f].flag; f++)
            if (strcmp(w[i], extra[f].flag) == 0)
                break;
        if (!extra[f].flag) {
            size_t len = 0;
            char list[256] = "";
            for (int j = 0; extra[j].flag; j++)
                buf_printf(list, sizeof list, &len, " %s", extra[j].flag);
            return set_err(err, n, -1, "'options': %s is not one of%s (the page "
                           "sets engines, time, games, seed, openings and SPRT "
                           "itself; files are for the shell)", w[i], list);
        }
        arg(wm, "%s", w[i]);
        if (extra[f].value == 1) {
            if (i + 1 >= k || strspn(w[i + 1], "0123456789") != strlen(w[i + 1]))
                return set_err(err, n, -1, "'options': %s needs a number", w[i]);
            arg(wm, "%s", w[++i]);
        } else if (extra[f].value == 2)
            while (i + 1 < k && strncmp(w[i + 1], "--", 2) != 0) {
                if (!key_in(w[i + 1], extra[f].keys))
                    return set_err(err, n, -1, "'options': %s: unknown key %s",
                                   w[i], w[i + 1]);
                arg(wm, "%s", w[++i]);
            }
    }
    return 0;
}

static int engine_of(const char *game, const char *name)
{
    for (int i = 0; i < web_cfg.neng; i++)
        if (strcmp(web_cfg.eng[i].game, game) == 0 &&
            (!name || strcmp(web_cfg.eng[i].name, name) == 0))
            return i;
    return -1;
}

/* --engine name=... cmd=... for configured engine e with Strategy st. */
static int engine_args(struct web_match *wm, int e, const char *st, char *err,
                       size_t n)
{
    const struct web_engine_cfg *c = &web_cfg.eng[e];
    int known = !*st;
    for (int i = 0; i < c->nstrategies; i++)
        known |= strcmp(c->strategies[i], st) == 0;
    if (!known || strlen(st) >= 32 || strspn(st, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(st))
        return set_err(err, n, -1, "%s has no Strategy '%.40s'", c->name, st);
    arg(wm, "--engine");
    arg(wm, "name=%s%s%s", c->name, *st ? "-" : "", st);
    arg(wm, "cmd=%s", c->cmd);
    for (int i = 0; i < c->nargs; i++)
        arg(wm, "arg=%s", c->args[i]);
    for (int i = 0; i < c->nopts; i++)
        if (!*st || strcasecmp(c->opt_name[i], "Strategy") != 0)
            arg(wm, "option.%s=%s", c->opt_name[i], c->opt_val[i]);
    if (*st)
        arg(wm, "option.Strategy=%s", st);
    return 0;
}

struct dstr_ {
    char *s;
    size_t len, cap;
};

static void ds_put(struct dstr_ *b, const char *s, size_t k)
{
    if (b->len + k + 1 > b->cap) {
        b->cap = (b->len + k + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, k);
    b->len += k;
    b->s[b->len] = '\0';
}

/* A word as the shell reads it. */
static void shell_word(struct dstr_ *b, const char *w)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789._=+:/,-";
    if (*w && strspn(w, plain) == strlen(w)) {
        ds_put(b, w, strlen(w));
        return;
    }
    ds_put(b, "'", 1);
    for (; *w; w++)
        if (*w == '\'')
            ds_put(b, "'\\''", 4);
        else
            ds_put(b, w, 1);
    ds_put(b, "'", 1);
}

/* ---- the match's thread and the referee's calls ----------------------------- */

static void obs_start(void *ctx, const struct ref_record *rec, const void *st)
{
    struct web_match *wm = ctx;
    int eos[GAME_MAX_SEATS];
    for (int s = 0; s < rec->nseats; s++)
        eos[s] = strcmp(rec->seat_name[s], wm->m.eng[0].name) == 0 ? 0 : 1;
    if (wm->h.start)
        wm->h.start(wm->h.ctx, rec->game, st, eos);
}

static void obs_move(void *ctx, const struct ref_record *rec, const void *st)
{
    struct web_match *wm = ctx;
    const struct ref_move *mv = &rec->moves[rec->nmoves - 1];
    (void)st;
    if (wm->h.move)
        wm->h.move(wm->h.ctx, mv->seat, mv->tok, mv->ms);
}

/* Under m->mu (the referee's collector). */
static void obs_end(void *ctx, const struct ref_match *m, const struct ref_record *rec)
{
    struct web_match *wm = ctx;
    json_t *t = table_json(&m->table, m->sprt_on ? &m->sprt : NULL);
    pthread_mutex_lock(&wm->mu);
    json_array_append_new(wm->rows, row_json(rec));
    json_decref(wm->table);
    wm->table = t;
    if (m->stop)
        snprintf(wm->why, sizeof wm->why, "%s", m->stop_why);
    pthread_mutex_unlock(&wm->mu);
    if (wm->h.changed)
        wm->h.changed(wm->h.ctx);
}

static void *match_main(void *arg_)
{
    struct web_match *wm = arg_;
    ref_match_run(&wm->m);
    pthread_mutex_lock(&wm->m.mu);
    pthread_mutex_lock(&wm->mu);
    wm->running = 0;
    if (wm->m.stop)
        snprintf(wm->why, sizeof wm->why, "%s", wm->m.stop_why);
    pthread_mutex_unlock(&wm->mu);
    pthread_mutex_unlock(&wm->m.mu);
    if (wm->h.changed)
        wm->h.changed(wm->h.ctx);
    return NULL;
}

static void free_parts(struct web_match *wm)
{
    ref_match_free(&wm->m);
    if (wm->m.results)
        fclose(wm->m.results);
    if (wm->m.records)
        fclose(wm->m.records);
    pthread_mutex_destroy(&wm->m.mu);
    pthread_mutex_destroy(&wm->mu);
    for (int i = 0; i < wm->argc; i++)
        free(wm->own[i]);
    free(wm->command);
    json_decref(wm->settings);
    json_decref(wm->rows);
    json_decref(wm->table);
    free(wm);
}

static const char *jfield(json_t *req, const char *k, const char *def)
{
    json_t *v = json_object_get(req, k);
    return json_is_string(v) ? json_string_value(v) : def;
}

struct web_match *web_match_start(const struct game *g, const char *params,
                                  json_t *req, const struct web_match_hooks *h,
                                  char *err, size_t n)
{
    static const char *const tc_keys[] = {"tc", "st", "depth", "nodes", "timemargin", NULL};
    static const char *const open_keys[] = {"random-plies", "plies", "order", NULL};
    static const char *const sprt_keys[] = {"elo0", "elo1", "alpha", "beta", "model", NULL};
    struct web_match *wm = xcalloc(1, sizeof *wm);
    const char *a = jfield(req, "a", NULL), *b = jfield(req, "b", NULL);
    const char *tc = jfield(req, "tc", NULL), *open = jfield(req, "openings", "");
    const char *sprt = jfield(req, "sprt", ""), *opts = jfield(req, "options", "");
    json_t *gv = json_object_get(req, "games"), *sv = json_object_get(req, "seed");
    json_t *mv = json_object_get(req, "movetime");
    long long games = 2;
    uint64_t seed = 0;
    int ea, eb, k;
    char tcbuf[64], pw[8][64], path[4400];

    pthread_mutex_init(&wm->m.mu, NULL);
    pthread_mutex_init(&wm->mu, NULL);
    ref_table_init(&wm->m.table);
    wm->rows = json_array();
    if (gv && !json_is_null(gv)) {
        if (!json_is_integer(gv) || json_integer_value(gv) < 1 ||
            json_integer_value(gv) > 100000) {
            set_err(err, n, -1, "'games' takes a whole number from 1 to 100000");
            goto fail;
        }
        games = json_integer_value(gv);
    }
    if (sv && !json_is_null(sv)) {
        if (!json_is_integer(sv) || json_integer_value(sv) < 0) {
            set_err(err, n, -1, "'seed' takes a whole number >= 0");
            goto fail;
        }
        seed = (uint64_t)json_integer_value(sv) & ((1ULL << 53) - 1);
    }
    if (!tc) {
        /* The older field: a time per move in milliseconds. */
        long long ms = 100;
        if (mv && !json_is_null(mv)) {
            if (!json_is_integer(mv) || json_integer_value(mv) < 10 ||
                json_integer_value(mv) > web_cfg.max_movetime) {
                set_err(err, n, -1, "'movetime' takes a whole number from 10 to %d",
                        web_cfg.max_movetime);
                goto fail;
            }
            ms = json_integer_value(mv);
        }
        snprintf(tcbuf, sizeof tcbuf, "st=%lld.%03lld", ms / 1000, ms % 1000);
        tc = tcbuf;
    }
    ea = engine_of(g->name, a);
    eb = engine_of(g->name, b);
    if (ea < 0 || eb < 0) {
        set_err(err, n, -1, "no such engine for %s", g->name);
        goto fail;
    }

    arg(wm, "--game");
    arg(wm, "%s", g->name);
    k = words("params", params, pw, 8, err, n);
    if (k < 0)
        goto fail;
    for (int i = 0; i < k; i++)
        arg(wm, "%s", pw[i]);
    if (engine_args(wm, ea, jfield(req, "a_strategy", ""), err, n) < 0 ||
        engine_args(wm, eb, jfield(req, "b_strategy", ""), err, n) < 0)
        goto fail;
    arg(wm, "--each");
    if ((k = keyed(wm, "tc", tc, tc_keys, err, n)) < 0)
        goto fail;
    if (k == 0) {
        set_err(err, n, -1, "'tc': a time control (tc=, st=, depth= or nodes=)");
        goto fail;
    }
    arg(wm, "--games");
    arg(wm, "%lld", games);
    arg(wm, "--seed");
    arg(wm, "%" PRIu64, seed);
    if (*open) {
        arg(wm, "--openings");
        if (keyed(wm, "openings", open, open_keys, err, n) < 0)
            goto fail;
    }
    if (*sprt) {
        arg(wm, "--sprt");
        if (keyed(wm, "sprt", sprt, sprt_keys, err, n) < 0)
            goto fail;
    }
    if (options(wm, opts, err, n) < 0)
        goto fail;
    {
        /* Threads (both engines; each must declare the option, up to its
         * max) and pondering: the referee's --each keys */
        json_t *tv = json_object_get(req, "threads"), *pv = json_object_get(req, "ponder");
        long long th = 1;
        if (tv && !json_is_null(tv)) {
            if (!json_is_integer(tv) || (th = json_integer_value(tv)) < 1 || th > 256) {
                set_err(err, n, -1, "'threads' takes a number from 1 to 256");
                goto fail;
            }
            for (int i = 0; i < 2 && th > 1; i++) {
                const struct web_engine_cfg *c = &web_cfg.eng[i ? eb : ea];
                if (th > c->threads_max) {
                    if (c->threads_max)
                        set_err(err, n, -1, "engine %s takes at most %d threads",
                                c->name, c->threads_max);
                    else
                        set_err(err, n, -1, "engine %s has no Threads option",
                                c->name);
                    goto fail;
                }
            }
        }
        if (pv && !json_is_null(pv) && !json_is_boolean(pv)) {
            set_err(err, n, -1, "'ponder' must be true or false");
            goto fail;
        }
        if (th > 1 || json_is_true(pv)) {
            arg(wm, "--each");
            if (th > 1)
                arg(wm, "option.Threads=%lld", th);
            if (json_is_true(pv))
                arg(wm, "ponder=on");
        }
    }
    arg(wm, "--logdir");
    arg(wm, "none");
    arg(wm, "--quiet");
    if (*web_cfg.results_dir) {
        /* A new file of its own in --results-dir: the page can follow it
         * (and any referee can --resume it). */
        char stamp[32], hex[9];
        time_t now = time(NULL);
        struct tm tm;
        uint32_t r;
        if (os_random(&r, sizeof r) < 0)
            r = (uint32_t)now_us();
        gmtime_r(&now, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
        snprintf(hex, sizeof hex, "%08x", r);
        snprintf(wm->results, sizeof wm->results, "web-%s-%s-%s.jsonl", g->name,
                 stamp, hex);
        snprintf(path, sizeof path, "%s/%s", web_cfg.results_dir, wm->results);
        arg(wm, "--results");
        arg(wm, "%s", path);
    }
    if (wm->argc >= ARGV_MAX - 1) {
        set_err(err, n, -1, "too many settings");
        goto fail;
    }
    {
        struct dstr_ c = {NULL, 0, 0};
        ds_put(&c, "medan-referee", 13);
        for (int i = 0; i < wm->argc; i++) {
            ds_put(&c, " ", 1);
            shell_word(&c, wm->argv[i]);
        }
        wm->command = c.s;
    }
    /* The referee's own parser: the same keys, checks and messages. */
    ref_cli_errors_to(err, n);
    k = ref_cli_parse(&wm->m, wm->argc, wm->argv, 0, NULL);
    ref_cli_errors_to(NULL, 0);
    if (k < 0)
        goto fail;
    if (wm->m.neng != 2) {
        set_err(err, n, -1, "a match of two engines");
        goto fail;
    }
    wm->settings = json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:s,s:s,s:s,s:s}", "a",
                             web_cfg.eng[ea].name, "b", web_cfg.eng[eb].name,
                             "a_strategy", jfield(req, "a_strategy", ""), "b_strategy",
                             jfield(req, "b_strategy", ""), "games", (json_int_t)games,
                             "seed", (json_int_t)seed, "tc", tc, "openings", open,
                             "sprt", sprt, "options", opts);
    if (h)
        wm->h = *h;
    wm->obs = (struct ref_observer){wm, obs_start, obs_move, obs_end};
    wm->m.obs = &wm->obs;
    wm->table = table_json(&wm->m.table, wm->m.sprt_on ? &wm->m.sprt : NULL);
    wm->running = 1;
    if (pthread_create(&wm->th, NULL, match_main, wm) != 0) {
        set_err(err, n, -1, "cannot start the match's thread");
        goto fail;
    }
    wm->has_th = 1;
    return wm;
fail:
    if (*wm->results) {
        /* made by the parser before a later check refused the settings */
        snprintf(path, sizeof path, "%s/%s", web_cfg.results_dir, wm->results);
        if (wm->m.results) {
            fclose(wm->m.results);
            wm->m.results = NULL;
            unlink(path);
        }
    }
    free_parts(wm);
    return NULL;
}

void web_match_stop(struct web_match *wm)
{
    if (wm)
        ref_match_cancel(&wm->m);
}

void web_match_free(struct web_match *wm)
{
    if (!wm)
        return;
    ref_match_cancel(&wm->m);
    if (wm->has_th)
        pthread_join(wm->th, NULL);
    free_parts(wm);
}

json_t *web_match_json(struct web_match *wm)
{
    json_t *o = json_object(), *rows = json_array();
    size_t nr;
    pthread_mutex_lock(&wm->mu);
    nr = json_array_size(wm->rows);
    for (size_t i = nr > ROWS_SHOWN ? nr - ROWS_SHOWN : 0; i < nr; i++)
        json_array_append_new(rows, json_deep_copy(json_array_get(wm->rows, i)));
    json_object_set_new(o, "settings", json_deep_copy(wm->settings));
    json_object_set_new(o, "command", jtext(wm->command));
    json_object_set_new(o, "results_file", json_string(wm->results));
    json_object_set_new(o, "games", json_integer(wm->m.games));
    json_object_set_new(o, "played", json_integer((json_int_t)nr));
    json_object_set_new(o, "running", json_boolean(wm->running));
    json_object_set_new(o, "stopped", jtext(wm->why));
    json_object_set_new(o, "table", json_deep_copy(wm->table));
    json_object_set_new(o, "rows", rows);
    pthread_mutex_unlock(&wm->mu);
    return o;
}

/* ---- results files under --results-dir ------------------------------------- */

/* For results.c: the referee's table, a game's row and a string as the
 * page gets them (the same as a match's). */
json_t *web_table_json(const struct ref_table *t, const struct ref_sprt *sprt)
{
    return table_json(t, sprt);
}

json_t *web_row_json(const struct ref_record *r)
{
    return row_json(r);
}

json_t *web_jtext(const char *s)
{
    return jtext(s);
}
