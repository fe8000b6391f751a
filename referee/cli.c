/* cli.c - command-line parsing for medan-referee (see cli.h). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"

struct keylist {
    char **kv;
    int n;
};

static void kl_add(struct keylist *k, char *s)
{
    k->kv = xrealloc(k->kv, (size_t)(k->n + 1) * sizeof *k->kv);
    k->kv[k->n++] = s;
}

static int is_flag(const char *s) { return s[0] == '-' && s[1] == '-'; }

static int bad(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "medan-referee: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n(medan-referee --help for usage)\n");
    return -1;
}

/* Apply one per-engine key. */
static int engine_key(struct ref_match *m, int e, const char *kv_in)
{
    struct ref_engine_spec *s = &m->eng[e];
    char *kv = xstrdup(kv_in); /* kept: the spec points into it */
    char *eq = strchr(kv, '='), *k = kv, *v;
    m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
    m->owned[m->nowned++] = kv;
    if (!eq)
        return bad("engine key without '=': %s%s", kv, "");
    *eq = '\0';
    v = eq + 1;
    if (strcmp(k, "name") == 0)
        s->name = v;
    else if (strcmp(k, "cmd") == 0)
        s->cmd = v;
    else if (strcmp(k, "dir") == 0)
        s->dir = v;
    else if (strcmp(k, "arg") == 0) {
        s->args = xrealloc(s->args, (size_t)(s->nargs + 1) * sizeof *s->args);
        s->args[s->nargs++] = v;
    } else if (str_prefix(k, "option.") && k[7]) {
        int i;
        for (i = 0; i < s->nopts; i++)
            if (str_ieq(s->opt_name[i], k + 7))
                break;
        if (i == s->nopts) {
            s->opt_name = xrealloc(s->opt_name, (size_t)(s->nopts + 1) * sizeof(char *));
            s->opt_val = xrealloc(s->opt_val, (size_t)(s->nopts + 1) * sizeof(char *));
            s->nopts++;
        }
        s->opt_name[i] = k + 7;
        s->opt_val[i] = v;
    } else if (strcmp(k, "tc") == 0 || strcmp(k, "st") == 0 ||
               strcmp(k, "depth") == 0 || strcmp(k, "nodes") == 0 ||
               strcmp(k, "timemargin") == 0) {
        if (ref_tc_set(&m->tc[e], k, v) < 0) {
            *eq = '=';
            return bad("bad time control %s%s", kv, "");
        }
    } else {
        *eq = '=';
        return bad("unknown engine key %s%s", kv, "");
    }
    return 0;
}

static int parse_sprt(struct ref_match *m, struct keylist *kl)
{
    m->sprt.elo0 = 0;
    m->sprt.elo1 = 5;
    m->sprt.alpha = m->sprt.beta = 0.05;
    for (int i = 0; i < kl->n; i++) {
        char *eq = strchr(kl->kv[i], '='), *end;
        double v;
        if (!eq)
            return bad("bad --sprt key %s%s", kl->kv[i], "");
        v = strtod(eq + 1, &end);
        if (*end || end == eq + 1)
            return bad("bad --sprt value %s%s", kl->kv[i], "");
        if (str_prefix(kl->kv[i], "elo0="))
            m->sprt.elo0 = v;
        else if (str_prefix(kl->kv[i], "elo1="))
            m->sprt.elo1 = v;
        else if (str_prefix(kl->kv[i], "alpha="))
            m->sprt.alpha = v;
        else if (str_prefix(kl->kv[i], "beta="))
            m->sprt.beta = v;
        else
            return bad("unknown --sprt key %s%s", kl->kv[i], "");
    }
    if (!(m->sprt.alpha > 0 && m->sprt.alpha < 1 && m->sprt.beta > 0 &&
          m->sprt.beta < 1 && m->sprt.elo1 != m->sprt.elo0))
        return bad("--sprt needs 0<alpha,beta<1 and elo0 != elo1%s%s", "", "");
    m->sprt_on = 1;
    return 0;
}

static int parse_int(const char *flag, const char *v, int64_t lo, int64_t hi,
                     int64_t *out)
{
    if (!v || parse_i64(v, lo, hi, out) < 0)
        return bad("%s needs a number, got %s", flag, v ? v : "nothing");
    return 0;
}

int ref_cli_parse(struct ref_match *m, int argc, char **argv, int check_mode,
                  char **resume_path)
{
    struct keylist each = {0}, *eng = NULL, gparams = {0}, open = {0},
                   sprt = {0};
    const char *gname = NULL, *results = NULL, *records = NULL;
    int neng = 0, resume = 0, sprt_given = 0, maxplies_given = 0;
    int64_t x;
    char err[GAME_ERR_LEN];
    size_t len = 0;

    m->games = 2;
    m->concurrency = 1;
    m->handshake_ms = 5000;
    m->cmd_ms = 5000;
    m->nolimit_ms = 60000;
    m->logdir = "referee-logs";
    m->out = stdout;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        struct keylist *dst = NULL;
        if (strcmp(a, "--game") == 0) {
            if (i + 1 >= argc)
                return bad("--game needs a name%s%s", "", "");
            gname = argv[++i];
            dst = &gparams;
        } else if (strcmp(a, "--engine") == 0) {
            eng = xrealloc(eng, (size_t)(neng + 1) * sizeof *eng);
            memset(&eng[neng], 0, sizeof *eng);
            dst = &eng[neng++];
        } else if (strcmp(a, "--each") == 0)
            dst = &each;
        else if (strcmp(a, "--openings") == 0)
            dst = &open;
        else if (strcmp(a, "--sprt") == 0) {
            dst = &sprt;
            sprt_given = 1;
        } else if (strcmp(a, "--games") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 100000000, &x))
                return -1;
            m->games = (int)x;
        } else if (strcmp(a, "--concurrency") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 256, &x))
                return -1;
            m->concurrency = (int)x;
        } else if (strcmp(a, "--seed") == 0) {
            uint64_t u;
            if (i + 1 >= argc || parse_u64(argv[++i], &u) < 0)
                return bad("--seed needs a number%s%s", "", "");
            m->seed = u & ((1ULL << 53) - 1);
        } else if (strcmp(a, "--maxplies") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 0, 100000000, &x))
                return -1;
            m->maxplies = (int)x;
            maxplies_given = 1;
        } else if (strcmp(a, "--results") == 0 && i + 1 < argc)
            results = argv[++i];
        else if (strcmp(a, "--records") == 0 && i + 1 < argc)
            records = argv[++i];
        else if (strcmp(a, "--logdir") == 0 && i + 1 < argc) {
            m->logdir = argv[++i];
            if (strcmp(m->logdir, "none") == 0)
                m->logdir = NULL;
        } else if (strcmp(a, "--resume") == 0)
            resume = 1;
        else if (strcmp(a, "--recover") == 0)
            m->recover = 1;
        else if (strcmp(a, "--trace") == 0)
            m->trace = 1;
        else if (strcmp(a, "--quiet") == 0)
            m->quiet = 1;
        else if (strcmp(a, "--handshake-timeout") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 3600000, &x))
                return -1;
            m->handshake_ms = (int)x;
        } else if (strcmp(a, "--command-timeout") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 3600000, &x))
                return -1;
            m->cmd_ms = (int)x;
        } else if (strcmp(a, "--nolimit-timeout") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 86400000, &x))
                return -1;
            m->nolimit_ms = (int)x;
        } else if (strcmp(a, "--shard") == 0) {
            int si, sn;
            char c;
            if (i + 1 >= argc || sscanf(argv[++i], "%d/%d%c", &si, &sn, &c) != 2 ||
                sn < 1 || si < 1 || si > sn)
                return bad("--shard needs i/n with 1 <= i <= n%s%s", "", "");
            m->shard_i = si;
            m->shard_n = sn;
        } else
            return bad("unknown argument %s%s", a, "");
        if (dst)
            while (i + 1 < argc && !is_flag(argv[i + 1]))
                kl_add(dst, argv[++i]);
    }
    if (!gname)
        return bad("--game is required%s%s", "", "");
    if (!(m->g = game_find(gname))) {
        fprintf(stderr, "medan-referee: unknown game %s; known:", gname);
        for (int i = 0; game_registry[i]; i++)
            fprintf(stderr, " %s", game_registry[i]->name);
        fputc('\n', stderr);
        return -1;
    }
    m->g->config_default(m->cfg);
    m->params[0] = '\0';
    for (int i = 0; i < gparams.n; i++) {
        char *eq = strchr(gparams.kv[i], '=');
        int rc;
        if (!eq)
            return bad("game parameter without '=': %s%s", gparams.kv[i], "");
        *eq = '\0';
        rc = m->g->config_set(m->cfg, gparams.kv[i], eq + 1, err, sizeof err);
        *eq = '=';
        if (rc != GAME_OK)
            return bad("game parameter %s: %s", gparams.kv[i], err);
        buf_printf(m->params, sizeof m->params, &len, "%s%s", len ? " " : "",
                   gparams.kv[i]);
    }
    {
        void *st = xmalloc(m->g->state_size);
        m->g->start(st, m->cfg);
        m->nseats = m->g->nseats(st);
        free(st);
    }
    m->hidden = m->g->view != NULL;
    if (!maxplies_given && strcmp(m->g->name, "loa") == 0)
        m->maxplies = 500; /* RULES.md safety net */
    if (neng < 1 || (!check_mode && neng < 2))
        return bad("%s%s", check_mode ? "check needs --engine cmd=..."
                                      : "a match needs at least two --engine",
                   "");
    if (!check_mode && m->nseats == 2 && neng != 2)
        return bad("a two-seat game takes exactly two engines%s%s", "", "");
    if (neng > m->nseats && !check_mode)
        return bad("more engines than seats%s%s", "", "");
    m->neng = neng;
    m->eng = xcalloc((size_t)neng, sizeof *m->eng);
    m->tc = xcalloc((size_t)neng, sizeof *m->tc);
    for (int e = 0; e < neng; e++) {
        ref_tc_clear(&m->tc[e]);
        for (int k = 0; k < each.n; k++)
            if (engine_key(m, e, each.kv[k]) < 0)
                return -1;
        for (int k = 0; k < eng[e].n; k++)
            if (engine_key(m, e, eng[e].kv[k]) < 0)
                return -1;
        if (!m->eng[e].cmd)
            return bad("every --engine needs cmd=%s%s", "", "");
        if (!m->eng[e].name) {
            const char *b = strrchr(m->eng[e].cmd, '/');
            m->eng[e].name = xstrdup(b ? b + 1 : m->eng[e].cmd);
            m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
            m->owned[m->nowned++] = m->eng[e].name;
        }
        for (int j = 0; j < e; j++)
            if (strcmp(m->eng[j].name, m->eng[e].name) == 0) {
                size_t n = strlen(m->eng[e].name) + 16;
                char *nn = xmalloc(n);
                snprintf(nn, n, "%s-%d", m->eng[e].name, e + 1);
                m->eng[e].name = nn;
                m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
                m->owned[m->nowned++] = nn;
            }
    }
    for (int i = 0; i < open.n; i++) {
        char *kv = open.kv[i];
        if (str_prefix(kv, "random-plies=") || str_prefix(kv, "plies=")) {
            if (parse_int("random-plies", strchr(kv, '=') + 1, 0, 1000, &x))
                return -1;
            m->open.random_plies = (int)x;
        } else if (str_prefix(kv, "file=")) {
            if (ref_openings_load(&m->open, kv + 5, m->g, m->cfg, err,
                                  sizeof err) < 0)
                return bad("%s%s", err, "");
        } else if (strcmp(kv, "order=random") == 0)
            m->open.random_order = 1;
        else if (strcmp(kv, "order=sequential") == 0)
            m->open.random_order = 0;
        else
            return bad("unknown --openings key %s%s", kv, "");
    }
    if (sprt_given && parse_sprt(m, &sprt) < 0)
        return -1;
    if (m->sprt_on && m->nseats != 2)
        return bad("--sprt needs a two-seat game%s%s", "", "");
    if (m->hidden) {
        unsigned char cfg[GAME_MAX_CONFIG];
        memcpy(cfg, m->cfg, sizeof cfg);
        if (m->g->config_set(cfg, "seed", "1", err, sizeof err) != GAME_OK)
            return bad("%s has hidden information but no seed= parameter%s",
                       m->g->name, "");
    }
    if (resume && !results)
        return bad("--resume needs --results FILE%s%s", "", "");
    if (resume_path)
        *resume_path = resume ? (char *)results : NULL;
    if (results && !check_mode) {
        if (!(m->results = fopen(results, "a")))
            return bad("cannot open %s%s", results, "");
        if (!resume && ftell(m->results) > 0)
            return bad("%s exists and is not empty (use --resume to continue it, "
                       "or another file)%s", results, "");
    }
    if (records && !check_mode && !(m->records = fopen(records, "a")))
        return bad("cannot open %s%s", records, "");
    for (int e = 0; e < neng; e++)
        free(eng[e].kv);
    free(eng);
    free(each.kv);
    free(gparams.kv);
    free(open.kv);
    free(sprt.kv);
    return 0;
}

void ref_match_free(struct ref_match *m)
{
    for (int e = 0; e < m->neng; e++) {
        free(m->eng[e].args);
        free(m->eng[e].opt_name);
        free(m->eng[e].opt_val);
    }
    for (int i = 0; i < m->nowned; i++)
        free(m->owned[i]);
    for (int i = 0; i < m->open.nlines; i++)
        free(m->open.lines[i]);
    free(m->open.lines);
    free(m->owned);
    free(m->eng);
    free(m->tc);
    free(m->done);
    ref_table_free(&m->table);
    m->owned = NULL;
    m->eng = NULL;
    m->tc = NULL;
    m->done = NULL;
    m->nowned = m->neng = 0;
}

void ref_cli_help(void)
{
    puts(
"medan-referee - engine-vs-engine matches for the Medan games (MEP engines)\n"
"\n"
"usage:\n"
"  medan-referee --game G [key=value...] --engine KEYS... --engine KEYS...\n"
"                [--each KEYS...] [options]\n"
"  medan-referee merge [--sprt ...] a.jsonl b.jsonl ...\n"
"  medan-referee check --game G [key=value...] --engine cmd=... [st=0.1]\n"
"                      [--latency strict|report]\n"
"\n"
"engine keys (--engine, or --each for every engine; an engine's own keys win):\n"
"  name=N  cmd=PATH  arg=A (repeatable, one argument each)  dir=D\n"
"  option.<Name>=<value>   setoption before the first game\n"
"  tc=[moves/]base[+inc]   seconds or m:ss; e.g. tc=10+0.1, tc=40/60, tc=1:30+1\n"
"  st=S  depth=N  nodes=N  timemargin=MS\n"
"\n"
"match options:\n"
"  --game G [k=v...]       game and its parameters (palagan size=6,\n"
"                          battalion players=4), sent with newgame\n"
"  --games N               games in the schedule (default 2: one pair)\n"
"  --concurrency N         games at once (default 1)\n"
"  --seed S                match seed (default 0): openings, deals, Seed option\n"
"  --openings random-plies=N | file=F [order=random|sequential]\n"
"  --maxplies N            adjudicate a draw at N plies (loa default 500)\n"
"  --sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the SPRT decides\n"
"  --results F             JSON Lines record per game (flushed per game)\n"
"  --records F             PGN-style records\n"
"  --resume                continue the match in --results F\n"
"  --recover               restart a crashed or hung engine and go on\n"
"  --shard i/n             play the i-th of n shards (every n-th pair/deal)\n"
"  --logdir D              engines' stderr logs (default referee-logs; none)\n"
"  --trace                 also log the protocol exchange there\n"
"  --handshake-timeout MS  start-up answer limit (default 5000)\n"
"  --command-timeout MS    limit for ok/pong answers (default 5000): stall\n"
"  --nolimit-timeout MS    bestmove wait without a clock (default 60000)\n"
"  --quiet                 no live lines (the table is still printed)\n"
"\n"
"Exit status: 0 match played (or SPRT decided), 1 usage, 2 stopped early.\n"
"Full reference: docs/referee.md");
}
