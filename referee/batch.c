/* batch.c - a match in batches over shards (see batch.h). */
#include "batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match.h"
#include "outfile.h"
#include "record.h"
#include "table.h"
#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"

static void add(char ***v, int *n, const char *s)
{
    *v = xrealloc(*v, (size_t)(*n + 2) * sizeof **v);
    (*v)[(*n)++] = xstrdup(s);
    (*v)[*n] = NULL;
}

void ref_batch_argv_free(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

void ref_batch_free(struct ref_batch *b)
{
    ref_batch_argv_free(b->opt);
    free(b->eng[0]);
    free(b->eng[1]);
    free(b->results);
    free(b->records);
    free(b->keyfile);
    memset(b, 0, sizeof *b);
}

/* The options a shard gets from us, never from the user. */
static int ours(const char *a)
{
    return strcmp(a, "--shard") == 0 || strcmp(a, "--quiet") == 0 ||
           strcmp(a, "--last-game") == 0;
}

int ref_batch_init(struct ref_batch *b, int shards, long long batch,
                   long long max_games, int argc, char **argv, char *err,
                   size_t n)
{
    struct ref_match m;
    char **pv = NULL, cerr[512];
    int np = 0, keyed = 0, rc = -1;
    const struct game *g = NULL;

    memset(b, 0, sizeof *b);
    b->shards = shards;
    ref_cli_canon(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strchr(a, REF_BATCH_SHARD[0]))
            return set_err(err, n, -1, "a match option holds a control character");
        if (ours(a))
            return set_err(err, n, -1, "%s is set by the batches themselves", a);
        if (strcmp(a, "--resume") == 0) {
            b->resume = 1;
            continue;
        }
        if ((strcmp(a, "--results") == 0 || strcmp(a, "--records") == 0)) {
            if (i + 1 >= argc)
                return set_err(err, n, -1, "%s needs a file", a);
            int res = strcmp(a, "--results") == 0;
            free(res ? b->results : b->records);
            *(res ? &b->results : &b->records) = xstrdup(argv[++i]);
            /* cutechess's -pgnout F [min] [fi] */
            while (!res && i + 1 < argc &&
                   (strcmp(argv[i + 1], "min") == 0 || strcmp(argv[i + 1], "fi") == 0))
                i++;
            continue;
        }
        if (strcmp(a, "--sprt") == 0) {
            /* the batches evaluate the SPRT; a shard must not stop on
             * its own games */
            add(&pv, &np, a);
            while (i + 1 < argc && argv[i + 1][0] != '-')
                add(&pv, &np, argv[++i]);
            b->sprt_on = 1;
            continue;
        }
        if (strcmp(a, "--key-file") == 0 || strcmp(a, "--key-from-seed") == 0)
            keyed = 1;
        if (strcmp(a, "--key-file") == 0 && i + 1 < argc) {
            free(b->keyfile);
            b->keyfile = xstrdup(argv[i + 1]);
        }
        if (strcmp(a, "--game") == 0 && i + 1 < argc)
            g = game_find(argv[i + 1]);
        add(&b->opt, &b->nopt, a);
    }
    if (!b->results) {
        set_err(err, n, -1, "the match needs --results F (the merged results; "
                            "shards write F.shard-I-of-N beside it)");
        goto out;
    }
    /* Shards of a hidden-information game share one secret deal key. */
    if (!keyed && g && g->view) {
        char *k = xmalloc(strlen(b->results) + 8);
        sprintf(k, "%s.key", b->results);
        add(&b->opt, &b->nopt, "--key-file");
        add(&b->opt, &b->nopt, k);
        b->keyfile = k;
        b->hidden = 1;
    }
    /* The whole match parsed as a shard would parse it: a bad option
     * fails here, once, not in every shard. */
    for (int i = 0; i < b->nopt; i++)
        add(&pv, &np, b->opt[i]);
    memset(&m, 0, sizeof m);
    pthread_mutex_init(&m.mu, NULL);
    ref_table_init(&m.table);
    ref_cli_errors_to(cerr, sizeof cerr);
    if (ref_cli_parse(&m, np, pv, 0, NULL) < 0) {
        ref_cli_errors_to(NULL, 0);
        set_err(err, n, -1, "%s", *cerr ? cerr : "bad match options");
        ref_match_free(&m);
        pthread_mutex_destroy(&m.mu);
        goto out;
    }
    ref_cli_errors_to(NULL, 0);
    b->schedule = m.games;
    b->sprt = m.sprt;
    if (b->sprt_on) {
        b->eng[0] = xstrdup(m.eng[0].name);
        b->eng[1] = xstrdup(m.eng[1].name);
    }
    ref_match_free(&m);
    pthread_mutex_destroy(&m.mu);
    b->total = max_games > 0 && max_games < b->schedule ? max_games : b->schedule;
    if (!b->sprt_on)
        b->batch = b->total;
    else {
        b->batch = batch > 0 ? batch : 8LL * shards;
        b->batch += b->batch & 1; /* whole pairs */
    }
    rc = 0;
out:
    ref_batch_argv_free(pv);
    if (rc < 0) {
        char keep[512];
        snprintf(keep, sizeof keep, "%s", err);
        ref_batch_free(b);
        snprintf(err, n, "%s", keep);
    }
    return rc;
}

/* "path.shard-S-of-N" with S the placeholder. */
static char *shard_path(const struct ref_batch *b, const char *path, const char *tail)
{
    char *p = xmalloc(strlen(path) + strlen(tail) + 48);
    sprintf(p, "%s.shard-%s-of-%d%s", path, REF_BATCH_SHARD, b->shards, tail);
    return p;
}

char **ref_batch_argv(const struct ref_batch *b, const char *self, long long upto)
{
    char **v = NULL, *p, num[64];
    int n = 0;
    add(&v, &n, self);
    for (int i = 0; i < b->nopt; i++)
        add(&v, &n, b->opt[i]);
    add(&v, &n, "--results");
    add(&v, &n, p = shard_path(b, b->results, ""));
    free(p);
    if (b->records) {
        add(&v, &n, "--records");
        add(&v, &n, p = shard_path(b, b->records, ""));
        free(p);
    }
    add(&v, &n, "--shard");
    snprintf(num, sizeof num, "%s/%d", REF_BATCH_SHARD, b->shards);
    add(&v, &n, num);
    add(&v, &n, "--quiet");
    add(&v, &n, "--resume");
    if (upto < b->schedule) {
        add(&v, &n, "--last-game");
        snprintf(num, sizeof num, "%lld", upto);
        add(&v, &n, num);
    }
    return v;
}

/* A growing string. */
struct str {
    char *s;
    size_t len, cap;
};

static void s_addc(struct str *b, char c)
{
    if (b->len + 2 > b->cap)
        b->s = xrealloc(b->s, b->cap = b->cap ? 2 * b->cap : 256);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

static void s_add(struct str *b, const char *s)
{
    while (*s)
        s_addc(b, *s++);
}

/* s single-quoted, the placeholder outside the quotes as shard. */
static void s_quote(struct str *b, const char *s, const char *shard)
{
    int open = 0, any = 0;
    for (; *s; s++) {
        if (*s == REF_BATCH_SHARD[0] && shard) {
            if (open)
                s_addc(b, '\'');
            open = 0;
            s_add(b, shard);
        } else {
            if (!open)
                s_addc(b, '\'');
            open = 1;
            if (*s == '\'')
                s_add(b, "'\\''");
            else
                s_addc(b, *s);
        }
        any = 1;
    }
    if (open)
        s_addc(b, '\'');
    if (!any)
        s_add(b, "''");
}

char *ref_shell_quote(const char *s)
{
    struct str b = {0};
    s_quote(&b, s, NULL);
    return b.s;
}

char *ref_batch_shell(const struct ref_batch *b, char **argv, const char *shard)
{
    struct str s = {0};
    char *out = shard_path(b, b->results, ".out");
    for (int i = 0; argv[i]; i++) {
        if (i)
            s_addc(&s, ' ');
        s_quote(&s, argv[i], shard);
    }
    s_add(&s, " >>");
    s_quote(&s, out, shard);
    s_add(&s, " 2>&1");
    free(out);
    return s.s;
}

/* ---- evaluation -------------------------------------------------------- */

struct rd {
    struct ref_table *t;
    unsigned char *seen;    /* [upto+1] */
    long long upto, cut;    /* count games <= upto; write games <= cut */
    FILE *out;
    char bad[160];
};

static void read_one(void *ctx, const struct ref_record *r)
{
    struct rd *c = ctx;
    if (*c->bad || r->game < 1)
        return;
    if (r->game <= c->upto) {
        if (c->seen[r->game])
            return; /* a duplicate: the first record counts */
        c->seen[r->game] = 1;
    }
    if (r->game > c->cut)
        return;
    if (ref_table_add(c->t, r) < 0) {
        if (!ref_table_has(c->t, r->game))
            snprintf(c->bad, sizeof c->bad, "game %d does not fit the others "
                     "(different game?)", r->game);
        return;
    }
    if (c->out)
        ref_record_write_json(r, c->out);
}

/* Read every shard's results into c; 0 or -1 (message printed). */
static int read_shards(const struct ref_batch *b, struct rd *c)
{
    for (int s = 1; s <= b->shards; s++) {
        char *p = xmalloc(strlen(b->results) + 48), err[256];
        FILE *f;
        sprintf(p, "%s.shard-%d-of-%d", b->results, s, b->shards);
        if (!(f = fopen(p, "r"))) { /* a shard that never started */
            free(p);
            continue;
        }
        fclose(f);
        if (ref_record_read_file(p, read_one, c, NULL, err, sizeof err) < 0 || *c->bad) {
            fprintf(stderr, "medan-referee: %s: %s\n", p, *c->bad ? c->bad : err);
            free(p);
            return -1;
        }
        free(p);
    }
    return 0;
}

static void gather_records(const struct ref_batch *b)
{
    FILE *out;
    if (!b->records)
        return;
    if (!(out = fopen(b->records, "w"))) {
        fprintf(stderr, "medan-referee: cannot write %s\n", b->records);
        return;
    }
    for (int s = 1; s <= b->shards; s++) {
        char p[4096], buf[65536];
        size_t k;
        FILE *in;
        snprintf(p, sizeof p, "%s.shard-%d-of-%d", b->records, s, b->shards);
        if (!(in = fopen(p, "r")))
            continue;
        while ((k = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, k, out);
        fclose(in);
    }
    fclose(out);
}

static void sprt_line(const struct ref_sprt *s, double llr, int dec, FILE *f)
{
    double lo, hi;
    ref_sprt_bounds(s, &lo, &hi);
    fprintf(f, "SPRT (elo0=%g elo1=%g alpha=%g beta=%g): LLR %.2f [%.2f, %.2f] %s\n",
            s->elo0, s->elo1, s->alpha, s->beta, llr, lo, hi,
            dec > 0 ? "H1 accepted" : dec < 0 ? "H0 accepted" : "continue");
}

int ref_batch_eval(const struct ref_batch *b, int k, long long upto,
                   struct ref_batch_state *st, FILE *out)
{
    struct ref_table t;
    struct rd c;
    int p[5] = {0}, at = 0, rc = -1;
    memset(st, 0, sizeof *st);
    memset(&c, 0, sizeof c);
    st->batch = k;
    st->upto = upto;
    ref_table_init(&t);
    if (b->sprt_on) {
        ref_table_engine(&t, b->eng[0]);
        ref_table_engine(&t, b->eng[1]);
    }
    c.t = &t;
    c.upto = c.cut = upto;
    c.seen = xcalloc((size_t)upto + 1, 1);
    if (read_shards(b, &c) < 0)
        goto done;
    for (long long g = 1; g <= upto; g++)
        st->played += c.seen[g];
    st->missing = upto - st->played;
    if (b->sprt_on)
        st->decision = ref_table_sprt_prefix(&t, 0, 1, &b->sprt, (int)upto, &at,
                                             &st->llr, p);
    st->at = b->sprt_on ? at : upto - st->missing;
    st->done = st->decision != 0 || (upto >= b->total && st->missing == 0);
    fprintf(out, "Batch %d: games 1-%lld: %lld played, %lld missing", k, upto,
            st->played, st->missing);
    if (b->sprt_on) {
        fprintf(out, "; in order to game %lld: %d pairs [%d, %d, %d, %d, %d]\n", st->at,
                p[0] + p[1] + p[2] + p[3] + p[4], p[0], p[1], p[2], p[3], p[4]);
        sprt_line(&b->sprt, st->llr, st->decision, out);
    } else
        fprintf(out, "\n");
    if (st->done) {
        /* The merged file: the games one run would have played. */
        struct ref_outfile of;
        char err[256];
        memset(&of, 0, sizeof of);
        ref_table_free(&t);
        ref_table_init(&t);
        if (b->sprt_on) {
            ref_table_engine(&t, b->eng[0]);
            ref_table_engine(&t, b->eng[1]);
        }
        memset(c.seen, 0, (size_t)upto + 1);
        c.cut = st->at;
        if (ref_outfile_open(&of, b->results, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee: %s\n", err);
            goto done;
        }
        c.out = of.f;
        if (read_shards(b, &c) < 0) {
            ref_outfile_discard(&of);
            goto done;
        }
        if (ref_outfile_commit(&of, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee: %s\n", err);
            goto done;
        }
        gather_records(b);
        if (st->decision)
            fprintf(out, "SPRT decided at game %lld (%s accepted, LLR %.2f), as one run "
                    "would; %lld games played (%lld past the decision, in %s.shard-*)\n",
                    st->at, st->decision > 0 ? "H1" : "H0", st->llr, st->played,
                    st->played - st->at, b->results);
        ref_table_print(&t, b->sprt_on ? &b->sprt : NULL, out);
    }
    fflush(out);
    rc = 0;
done:
    free(c.seen);
    ref_table_free(&t);
    return rc;
}

long long ref_batch_next(const struct ref_batch *b, const struct ref_batch_state *st,
                         int *retry)
{
    if (st->done)
        return 0;
    if (st->upto >= b->total) {
        /* games of the last batch lost (a shard died): run it again */
        if (++*retry > 2)
            return 0;
        return b->total;
    }
    return st->upto + b->batch < b->total ? st->upto + b->batch : b->total;
}

int ref_batch_loop(const struct ref_batch *b,
                   int (*run)(void *ctx, const struct ref_batch *b, long long upto),
                   void *ctx, FILE *out)
{
    struct ref_batch_state st;
    long long upto = b->batch < b->total ? b->batch : b->total;
    int retry = 0;
    for (int k = 1;; k++) {
        int r = run(ctx, b, upto);
        if (r < 0)
            return 1;
        if (r > 0)
            fprintf(out, "Batch %d: %d shard(s) failed; the next batch plays their "
                    "missing games\n", k, r);
        if (ref_batch_eval(b, k, upto, &st, out) < 0)
            return 1;
        if (st.done)
            return 0;
        if (!(upto = ref_batch_next(b, &st, &retry))) {
            fprintf(out, "Games still missing after the last batch was run again "
                    "twice: run the same command with --resume to play them\n");
            return 2;
        }
    }
}
