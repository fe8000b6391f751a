/* cli.c - command-line parsing for medan-referee (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/util.h"
#include "engines/registry.h"
#include "tournament.h"

struct keylist {
    char **kv;
    int n;
};

static void kl_add(struct keylist *k, char *s)
{
    k->kv = xrealloc(k->kv, (size_t)(k->n + 1) * sizeof *k->kv);
    k->kv[k->n++] = s;
}

/* The flags of a match, for "did you mean". */
static const char *const flags[] = {
    "--game", "--engine", "--each", "--games", "--rounds", "--tournament", "--noswap",
    "--repeat", "--concurrency", "--seed", "--openings", "--maxplies", "--maxmoves",
    "--draw", "--resign", "--sprt", "--results", "--records", "--resume", "--recover",
    "--shard", "--last-game", "--logdir", "--log-limit", "--trace", "--quiet", "--event", "--site",
    "--key-file", "--key-from-seed", "--handshake-timeout", "--command-timeout",
    "--nolimit-timeout", "--ratinginterval", "--outcomeinterval", NULL};

/* cutechess-cli and fastchess spellings, typed from habit: -flag for
 * --flag, and their own names for ours. */
static const struct {
    const char *from, *to;
} aliases[] = {
    {"-pgnout", "--records"}, {"--pgnout", "--records"}, {"-srand", "--seed"},
    {"--srand", "--seed"}, {"-engine", "--engine"}, {"-each", "--each"},
    {"-games", "--games"}, {"-rounds", "--rounds"}, {"-concurrency", "--concurrency"},
    {"-openings", "--openings"}, {"-sprt", "--sprt"}, {"-draw", "--draw"},
    {"-resign", "--resign"}, {"-recover", "--recover"}, {"-tournament", "--tournament"},
    {"-repeat", "--repeat"}, {"-noswap", "--noswap"}, {"-maxmoves", "--maxmoves"},
    {"-event", "--event"}, {"-site", "--site"}, {"-resume", "--resume"},
    {"-game", "--game"}, {"-variant", "--game"}, {"--variant", "--game"},
    {"-ratinginterval", "--ratinginterval"}, {"-outcomeinterval", "--outcomeinterval"},
    {NULL, NULL}};

/* The canonical spelling of a command-line flag. */
static const char *canon_flag(const char *a)
{
    for (int i = 0; aliases[i].from; i++)
        if (strcmp(a, aliases[i].from) == 0)
            return aliases[i].to;
    return a;
}

/* A flag ends the key=value list before it: --flag, or -flag as
 * cutechess spells them (keys never start with '-'). */
void ref_cli_canon(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        argv[i] = (char *)canon_flag(argv[i]);
}

static int is_flag(const char *s)
{
    return s[0] == '-' && (s[1] == '-' || (s[1] >= 'a' && s[1] <= 'z'));
}

/* Edit distance of two short strings (for "did you mean"). */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), d[40][40];
    if (la >= 40 || lb >= 40)
        return 99;
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

/* ref_cli_errors_to: this thread's parse errors into a buffer. */
static _Thread_local char *err_to;
static _Thread_local size_t err_to_n;

void ref_cli_errors_to(char *buf, size_t n)
{
    err_to = buf;
    err_to_n = n;
    if (buf && n)
        buf[0] = '\0';
}

/* An unknown argument: name it, and the flag it most likely meant. */
static int unknown_flag(const char *a)
{
    const char *best = NULL;
    int bd = 99;
    char dashed[64];
    /* "-gmaes" is compared as "--gmaes" */
    snprintf(dashed, sizeof dashed, "%s%s", a[0] == '-' && a[1] != '-' ? "-" : "", a);
    for (int i = 0; flags[i]; i++) {
        int d = distance(dashed, flags[i]);
        if (d < bd) {
            bd = d;
            best = flags[i];
        }
    }
    if (err_to) {
        snprintf(err_to, err_to_n, "unknown argument %s%s%s%s", a,
                 best && bd <= 3 && bd < (int)strlen(best) / 2 ? "; did you mean "
                                                               : "",
                 best && bd <= 3 && bd < (int)strlen(best) / 2 ? best : "",
                 best && bd <= 3 && bd < (int)strlen(best) / 2 ? "?" : "");
        return -1;
    }
    fprintf(stderr, "medan-referee: unknown argument %s", a);
    if (best && bd <= 3 && bd < (int)strlen(best) / 2)
        fprintf(stderr, "; did you mean %s?", best);
    fprintf(stderr, "\n(medan-referee --help for usage)\n");
    return -1;
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
    va_list ap;
    if (err_to) {
        va_start(ap, fmt);
        vsnprintf(err_to, err_to_n, fmt, ap);
        va_end(ap);
        return -1;
    }
    fprintf(stderr, "medan-referee: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(medan-referee --help for usage)\n");
    return -1;
}

/* Apply one per-engine key. */
static int engine_key(struct ref_match *m, int e, const char *kv_in)
{
    struct ctl_engine_spec *s = &m->eng[e];
    char *kv = xstrdup(kv_in); /* kept: the spec points into it */
    char *eq = strchr(kv, '='), *k = kv, *v;
    m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
    m->owned[m->nowned++] = kv;
    if (!eq && strcmp(kv, "ponder") == 0) { /* cutechess: a bare `ponder` */
        m->ponder[e] = 1;
        return 0;
    }
    if (!eq)
        return bad("engine key without '=': %s", kv);
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
            return bad("bad time control %s (tc=[moves/]base[+inc] with a "
                       "base above 0, or tc=inf; st=S above 0; depth=N; "
                       "nodes=N; timemargin=MS)", kv);
        }
    } else if (strcmp(k, "restart") == 0) {
        if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0) {
            *eq = '=';
            return bad("restart=on or restart=off, not %s", kv);
        }
        m->restart[e] = strcmp(v, "on") == 0;
    } else if (strcmp(k, "ponder") == 0) {
        if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0) {
            *eq = '=';
            return bad("ponder=on or ponder=off, not %s", kv);
        }
        m->ponder[e] = strcmp(v, "on") == 0;
    } else if (strcmp(k, "proto") == 0) {
        if (strcmp(v, "mep") != 0) {
            *eq = '=';
            return bad("%s: medan-referee speaks MEP only (proto=mep; an OpenTafl "
                       "engine runs through medan-otbridge)", kv);
        }
    } else {
        *eq = '=';
        return bad("unknown engine key %s", kv);
    }
    return 0;
}

static int parse_sprt(struct ref_match *m, struct keylist *kl)
{
    ref_sprt_default(&m->sprt);
    for (int i = 0; i < kl->n; i++)
        if (ref_sprt_set(&m->sprt, kl->kv[i]) < 0)
            return bad("bad --sprt setting %s", kl->kv[i]);
    if (!ref_sprt_valid(&m->sprt))
        return bad("--sprt needs 0 < alpha, beta < 0.5 and elo0 < elo1");
    m->sprt_on = 1;
    return 0;
}

static int parse_int(const char *flag, const char *v, int64_t lo, int64_t hi,
                     int64_t *out)
{
    if (!v || parse_i64(v, lo, hi, out) < 0)
        return bad("%s needs a whole number from %lld to %lld, got %s", flag,
                   (long long)lo, (long long)hi, v ? v : "nothing");
    return 0;
}

/* "4M", "200k", "1000": bytes; 0 or -1. */
static int parse_size(const char *s, int64_t *out)
{
    char *end;
    double v;
    if (!s || !*s || *s == '-')
        return -1;
    v = strtod(s, &end);
    if (end == s)
        return -1;
    if (*end == 'k' || *end == 'K')
        v *= 1024, end++;
    else if (*end == 'M')
        v *= 1024.0 * 1024, end++;
    else if (*end == 'G')
        v *= 1024.0 * 1024 * 1024, end++;
    if (*end || !(v >= 0 && v < 9e18))
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* Read the key of F, or make F with a fresh key (atomically: a temporary
 * file linked to F, so shards started together agree). 0 or -1. */
static int key_file(const char *path, uint8_t key[16], char *err, size_t n)
{
    char buf[128], tmp[4096], hex[33];
    FILE *f;
    size_t k;
    int fd;
    for (int tries = 0; tries < 2; tries++) {
        if ((f = fopen(path, "r")) != NULL) {
            k = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[k] = '\0';
            if (ref_key_parse(buf, key) < 0)
                return set_err(err, n, -1, "%s: not a key (32 hex digits)",
                               path);
            return 0;
        }
        if (errno != ENOENT)
            return set_err(err, n, -1, "%s: %s", path, strerror(errno));
        if (os_random(key, 16) < 0)
            return set_err(err, n, -1, "%s: no random source", path);
        ref_key_hex(key, hex);
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
        if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
            return set_err(err, n, -1, "%s: %s", tmp, strerror(errno));
        if (write(fd, hex, 32) != 32 || write(fd, "\n", 1) != 1 ||
            close(fd) < 0) {
            unlink(tmp);
            return set_err(err, n, -1, "%s: cannot write", tmp);
        }
        if (link(tmp, path) == 0) {
            unlink(tmp);
            fprintf(stderr, "medan-referee: new secret deal key in %s "
                    "(keep it from the engines)\n", path);
            return 0;
        }
        unlink(tmp);
        if (errno != EEXIST)
            return set_err(err, n, -1, "%s: %s", path, strerror(errno));
        /* another shard made it first: read that one */
    }
    return set_err(err, n, -1, "%s: cannot read or make it", path);
}

int ref_cli_parse(struct ref_match *m, int argc, char **argv, int check_mode,
                  char **resume_path)
{
    struct keylist each = {0}, *eng = NULL, gparams = {0}, open = {0},
                   sprt = {0}, draw = {0}, resign = {0};
    const char *gname = NULL, *results = NULL, *records = NULL;
    const char *keyfile = NULL;
    int neng = 0, resume = 0, sprt_given = 0, maxplies_given = 0;
    int key_from_seed = 0, rc = 0;
    int64_t x;
    char err[GAME_ERR_LEN];
    size_t len = 0;

#define FAIL(e)                                                               \
    do {                                                                      \
        rc = (e);                                                             \
        goto out;                                                             \
    } while (0)
    m->log_limit = 4 << 20;

    m->games = 2;
    m->concurrency = 1;
    m->handshake_ms = 5000;
    m->cmd_ms = 5000;
    m->nolimit_ms = 60000;
    m->logdir = "referee-logs";
    m->out = stdout;
    ref_cli_canon(argc, argv); /* cutechess spellings, for every reader */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        struct keylist *dst = NULL;
        if (strcmp(a, "--game") == 0) {
            if (i + 1 >= argc)
                FAIL(bad("--game needs a name"));
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
                FAIL(-1);
            m->games = (int)x;
        } else if (ref_cli_tournament_flag(m, argc, argv, &i, &rc, err,
                                           sizeof err)) {
            if (rc < 0)
                FAIL(bad("%s", err));
        } else if (strcmp(a, "--ratinginterval") == 0 ||
                   strcmp(a, "--outcomeinterval") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 0, 100000000, &x))
                FAIL(-1);
            *(a[2] == 'r' ? &m->rating_interval : &m->outcome_interval) = (int)x;
        } else if (strcmp(a, "--concurrency") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 256, &x))
                FAIL(-1);
            m->concurrency = (int)x;
        } else if (strcmp(a, "--seed") == 0) {
            uint64_t u;
            if (i + 1 >= argc || parse_u64(argv[++i], &u) < 0)
                FAIL(bad("--seed needs a number"));
            m->seed = u & ((1ULL << 53) - 1);
            m->seed_given = 1;
        } else if (strcmp(a, "--maxplies") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 0, 100000000, &x))
                FAIL(-1);
            m->maxplies = (int)x;
            maxplies_given = 1;
        } else if (strcmp(a, "--results") == 0 && i + 1 < argc)
            results = argv[++i];
        else if (strcmp(a, "--records") == 0 && i + 1 < argc) {
            records = argv[++i];
            /* cutechess's -pgnout FILE [min] [fi]: our records are always
             * full */
            while (i + 1 < argc && (strcmp(argv[i + 1], "min") == 0 ||
                                    strcmp(argv[i + 1], "fi") == 0))
                i++;
        }
        else if (strcmp(a, "--logdir") == 0 && i + 1 < argc) {
            m->logdir = argv[++i];
            if (strcmp(m->logdir, "none") == 0)
                m->logdir = NULL;
        } else if (strcmp(a, "--key-file") == 0) {
            if (i + 1 >= argc)
                FAIL(bad("--key-file needs a file"));
            keyfile = argv[++i];
        } else if (strcmp(a, "--key-from-seed") == 0)
            key_from_seed = 1;
        else if (strcmp(a, "--log-limit") == 0) {
            if (i + 1 >= argc || parse_size(argv[++i], &m->log_limit) < 0)
                FAIL(bad("--log-limit needs a size in bytes (suffix k, M or "
                         "G; 0 = no limit)"));
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
                FAIL(-1);
            m->handshake_ms = (int)x;
        } else if (strcmp(a, "--command-timeout") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 3600000, &x))
                FAIL(-1);
            m->cmd_ms = (int)x;
        } else if (strcmp(a, "--nolimit-timeout") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 86400000, &x))
                FAIL(-1);
            m->nolimit_ms = (int)x;
        } else if (strcmp(a, "--shard") == 0) {
            int si, sn;
            char c;
            if (i + 1 >= argc || sscanf(argv[++i], "%d/%d%c", &si, &sn, &c) != 2 ||
                sn < 1 || si < 1 || si > sn)
                FAIL(bad("--shard needs i/n with 1 <= i <= n"));
            m->shard_i = si;
            m->shard_n = sn;
        } else if (strcmp(a, "--last-game") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 100000000, &x))
                FAIL(-1);
            m->last_game = (int)x;
        } else if (strcmp(a, "--draw") == 0) {
            dst = &draw;
            m->adj.draw_on = 1;
        } else if (strcmp(a, "--resign") == 0) {
            dst = &resign;
            m->adj.resign_on = 1;
        } else if (strcmp(a, "--maxmoves") == 0) {
            if (parse_int(a, argv[i + 1 < argc ? ++i : i], 1, 100000000, &x))
                FAIL(-1);
            m->adj.maxmoves = (int)x;
        } else if (strcmp(a, "--event") == 0 || strcmp(a, "--site") == 0) {
            if (i + 1 >= argc || strlen(argv[i + 1]) >= 128 ||
                strpbrk(argv[i + 1], "\"\\\n"))
                FAIL(bad("%s needs a text of at most 127 characters without "
                         "quotes or backslashes", a));
            *(a[2] == 'e' ? &m->event : &m->site) = argv[++i];
        } else
            FAIL(unknown_flag(argv[i]));
        if (dst)
            while (i + 1 < argc && !is_flag(argv[i + 1]))
                kl_add(dst, argv[++i]);
    }
    if (!gname)
        FAIL(bad("--game is required"));
    if (!(m->g = game_find(gname))) {
        size_t kl = 0;
        char known[256] = "";
        for (int i = 0; game_registry[i]; i++)
            buf_printf(known, sizeof known, &kl, " %s", game_registry[i]->name);
        FAIL(bad("unknown game %s; known:%s", gname, known));
    }
    if (game_check(m->g, err, sizeof err)) /* the table a match relies on */
        FAIL(bad("%s", err));
    m->g->config_default(m->cfg.b);
    m->params[0] = '\0';
    for (int i = 0; i < gparams.n; i++) {
        char *eq = strchr(gparams.kv[i], '=');
        int crc;
        if (!eq)
            FAIL(bad("game parameter without '=': %s", gparams.kv[i]));
        *eq = '\0';
        crc = m->g->config_set(m->cfg.b, gparams.kv[i], eq + 1, err, sizeof err);
        *eq = '=';
        if (crc != GAME_OK)
            FAIL(bad("game parameter %s: %s", gparams.kv[i], err));
        buf_printf(m->params, sizeof m->params, &len, "%s%s", len ? " " : "",
                   gparams.kv[i]);
    }
    if (m->g->config_check &&
        m->g->config_check(m->cfg.b, err, sizeof err) != GAME_OK)
        FAIL(bad("game parameters: %s", err));
    {
        void *st = xmalloc(m->g->state_size);
        m->g->start(st, m->cfg.b);
        m->nseats = m->g->nseats(st);
        free(st);
    }
    m->hidden = m->g->view != NULL;
    if (!maxplies_given)
        m->maxplies = m->g->default_max_plies; /* the game's safety net */
    if (neng < 1 || (!check_mode && neng < 2))
        FAIL(bad("%s", check_mode ? "check needs --engine cmd=..."
                                      : "a match needs at least two --engine"));
    if (!check_mode &&
        ref_cli_tournament_check(m, neng, sprt_given, err, sizeof err) < 0)
        FAIL(bad("%s", err));
    m->neng = neng;
    m->eng = xcalloc((size_t)neng, sizeof *m->eng);
    m->restart = xcalloc((size_t)neng, sizeof *m->restart);
    m->ponder = xcalloc((size_t)neng, sizeof *m->ponder);
    m->tc = xcalloc((size_t)neng, sizeof *m->tc);
    for (int e = 0; e < neng; e++) {
        ref_tc_clear(&m->tc[e]);
        for (int k = 0; k < each.n; k++)
            if (engine_key(m, e, each.kv[k]) < 0)
                FAIL(-1);
        for (int k = 0; k < eng[e].n; k++)
            if (engine_key(m, e, eng[e].kv[k]) < 0)
                FAIL(-1);
        if (!m->eng[e].cmd)
            FAIL(bad("every --engine needs cmd="));
        /* Pondering guesses the one opponent's reply in a position both
         * see: with more seats or hidden information there is no such
         * reply to ponder on. */
        if (m->ponder[e] && (m->nseats != 2 || m->hidden))
            FAIL(bad("ponder=on needs a two-seat game of perfect information; "
                     "%s has %s", m->g->name,
                     m->hidden ? "hidden information" : "more than two seats"));
        if (!m->eng[e].name) {
            const char *b = strrchr(m->eng[e].cmd, '/');
            m->eng[e].name = xstrdup(b ? b + 1 : m->eng[e].cmd);
            m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
            m->owned[m->nowned++] = m->eng[e].name;
        }
        if (!check_mode && !ref_tc_has_limit(&m->tc[e]) &&
            (m->tc[e].inf || err_to))
            /* asked for on purpose, or a program embedding the referee
             * (medan-web), where a warning on stderr reaches nobody */
            FAIL(bad("%s has no limit (%s): a move would never end; give it "
                     "tc=, st=, depth= or nodes=", m->eng[e].name,
                     m->tc[e].inf ? "tc=inf and no st=, depth= or nodes="
                                  : "no tc=, st=, depth= or nodes="));
        if (!check_mode && !ref_tc_has_limit(&m->tc[e])) {
            /* `go` without limits is `go infinite`: no bestmove would come */
            fprintf(stderr, "medan-referee: warning: %s has no time control (tc=, st=, depth= "
                            "or nodes=); using st=1 (one second a move)\n", m->eng[e].name);
            m->tc[e].movetime_ms = 1000;
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
    {
        /* cutechess-cli's keys; plies= without file= is the old spelling
         * of random-plies= */
        const char *book = NULL;
        int plies = 0, random_plies = -1;
        for (int i = 0; i < open.n; i++) {
            char *kv = open.kv[i], *v = strchr(kv, '=');
            if (!v)
                FAIL(bad("--openings: %s is not key=value", kv));
            v++;
            if (str_prefix(kv, "random-plies=")) {
                if (parse_int("--openings random-plies", v, 0, 1000, &x))
                    FAIL(-1);
                random_plies = (int)x;
            } else if (str_prefix(kv, "plies=")) {
                if (parse_int("--openings plies", v, 0, REF_OPENING_MAX_PLIES, &x))
                    FAIL(-1);
                plies = (int)x;
            } else if (str_prefix(kv, "file="))
                book = v;
            else if (strcmp(kv, "format=epd") == 0)
                m->open.format = REF_BOOK_EPD;
            else if (strcmp(kv, "format=pgn") == 0)
                m->open.format = REF_BOOK_PGN;
            else if (strcmp(kv, "order=random") == 0)
                m->open.random_order = 1;
            else if (strcmp(kv, "order=sequential") == 0)
                m->open.random_order = 0;
            else if (str_prefix(kv, "start=")) {
                if (parse_int("--openings start", v, 1, 100000000, &x))
                    FAIL(-1);
                m->open.start = (int)x;
            } else if (strcmp(kv, "policy=default") == 0)
                m->open.policy = REF_POLICY_DEFAULT;
            else if (strcmp(kv, "policy=encounter") == 0)
                m->open.policy = REF_POLICY_ENCOUNTER;
            else if (strcmp(kv, "policy=round") == 0)
                m->open.policy = REF_POLICY_ROUND;
            else
                FAIL(bad("unknown --openings setting %s (random-plies=N | "
                         "file=F format=epd|pgn order=sequential|random "
                         "start=N plies=N policy=default|encounter|round)", kv));
        }
        if (book && random_plies >= 0)
            FAIL(bad("--openings: random-plies= and file= exclude each other"));
        if (!book && (m->open.format || m->open.start || m->open.random_order))
            FAIL(bad("--openings: format=, order= and start= need file="));
        if (book && m->hidden)
            FAIL(bad("--openings file=: %s deals its games from a seed "
                     "(see Hidden information); it has no opening book",
                     m->g->name));
        if (book) {
            m->open.plies = plies;
            if (ref_openings_load(&m->open, book, m->g, m->cfg.b, err,
                                  sizeof err) < 0)
                FAIL(bad("--openings: %s", err));
        } else if (random_plies >= 0)
            m->open.random_plies = random_plies;
        else
            m->open.random_plies = plies;
    }
    for (int k = 0; k < draw.n; k++)
        if (ref_adj_set_draw(&m->adj, draw.kv[k]) < 0)
            FAIL(bad("bad --draw setting %s (movenumber=N movecount=N score=CP)",
                     draw.kv[k]));
    for (int k = 0; k < resign.n; k++)
        if (ref_adj_set_resign(&m->adj, resign.kv[k]) < 0)
            FAIL(bad("bad --resign setting %s (movecount=N score=CP "
                     "[twosided=true])", resign.kv[k]));
    if (m->adj.draw_on && (!m->adj.draw_movecount || draw.n < 3))
        FAIL(bad("--draw needs movenumber=N movecount=N score=CP"));
    if (m->adj.resign_on && (!m->adj.resign_movecount || !m->adj.resign_score))
        FAIL(bad("--resign needs movecount=N score=CP"));
    if ((m->adj.draw_on || m->adj.resign_on || m->adj.maxmoves) && m->nseats != 2)
        FAIL(bad("--draw, --resign and --maxmoves are for two-seat games"));
    if (sprt_given && parse_sprt(m, &sprt) < 0)
        FAIL(-1);
    if (m->sprt_on && m->nseats != 2)
        FAIL(bad("--sprt needs a two-seat game"));
    if (m->hidden && !check_mode) {
        if (keyfile && key_from_seed)
            FAIL(bad("--key-file and --key-from-seed exclude each other"));
        for (int i = 0; i < gparams.n; i++)
            if (str_prefix(gparams.kv[i], GAME_KEY_SEED "=") ||
                str_prefix(gparams.kv[i], GAME_KEY_SEAT "=") ||
                str_prefix(gparams.kv[i], "game="))
                FAIL(bad("%s: the referee sets the deal and the seats of %s "
                         "itself", gparams.kv[i], m->g->name));
        if (keyfile) {
            if (key_file(keyfile, m->key, err, sizeof err) < 0)
                FAIL(bad("--key-file %s", err));
            m->key_source = REF_KEY_FILE;
        } else if (key_from_seed) {
            ref_key_from_seed(m->seed, m->key);
            m->key_source = REF_KEY_SEED;
            fprintf(stderr,
                    "medan-referee: WARNING: --key-from-seed: the %s deals follow "
                    "from --seed %llu alone; an engine that guesses the seed "
                    "(small numbers, dates) can rebuild every hand and the deck. "
                    "For a fair match leave out --key-from-seed (see "
                    "docs/referee.md, \"Hidden information\").\n",
                    m->g->name, (unsigned long long)m->seed);
        } else {
            if (os_random(m->key, sizeof m->key) < 0)
                FAIL(bad("no random source for the deal key (getrandom, "
                         "/dev/urandom)"));
            m->key_source = REF_KEY_RANDOM;
            if (m->shard_n > 1)
                FAIL(bad("--shard with a hidden-information game needs "
                         "--key-file F (one secret key for every shard)"));
            if (m->seed_given)
                fprintf(stderr,
                        "medan-referee: note: the %s deals come from a secret "
                        "key (kept in the results file), not from --seed "
                        "alone; --key-file replays them, --key-from-seed "
                        "derives them from the seed (engines could guess it)\n",
                        m->g->name);
            if (!results)
                fprintf(stderr,
                        "medan-referee: note: without --results the secret "
                        "deal key is kept nowhere: this match cannot be "
                        "replayed\n");
        }
    } else if ((keyfile || key_from_seed) && !check_mode)
        FAIL(bad("%s: --key-file and --key-from-seed are for "
                 "hidden-information games", m->g->name));
    if (resume && !results)
        FAIL(bad("--resume needs --results FILE"));
    if (resume_path)
        *resume_path = resume ? (char *)results : NULL;
    if (results && !check_mode) {
        if (!(m->results = fopen(results, "a")))
            FAIL(bad("cannot open %s", results));
        if (!resume && ftell(m->results) > 0)
            FAIL(bad("%s exists and is not empty (use --resume to continue it, "
                       "or another file)", results));
    }
    if (records && !check_mode && !(m->records = fopen(records, "a")))
        FAIL(bad("cannot open %s", records));
out:
    for (int e = 0; e < neng; e++)
        free(eng[e].kv);
    free(eng);
    free(each.kv);
    free(gparams.kv);
    free(open.kv);
    free(sprt.kv);
    free(draw.kv);
    free(resign.kv);
    return rc;
#undef FAIL
}

void ref_cli_help(void)
{
    puts(
"medan-referee - engine-vs-engine matches for the Medan games (MEP engines)\n"
"\n"
"usage:\n"
"  medan-referee --game G [key=value...] --engine KEYS... --engine KEYS...\n"
"                [--engine KEYS...]... (3+ engines: a tournament)\n"
"                [--each KEYS...] [options]\n"
"  medan-referee merge [--games N] [--sprt ...] [--output F] a.jsonl b.jsonl ...\n"
"  medan-referee parallel --shards N [--jobs J] [--sshlogin H]... [--dry-run]\n"
"                [--batch G] [--max-games M]\n"
"                MATCH OPTIONS   the match as N shards run by GNU parallel\n"
"  medan-referee slurm N [SBATCH OPTIONS --] [--batch G] [--max-games M]\n"
"                [--dry-run] MATCH OPTIONS   the same as Slurm job arrays\n"
"                (with --sprt: batches of G games until the SPRT over the\n"
"                merged games decides, as one run would decide)\n"
"  medan-referee check --game G [key=value...] --engine cmd=... [st=0.1]\n"
"                      [--latency strict|report] [--time-use MS,MS,...|none]\n"
"                      [--time-use-moves N]   conformance, time use per movetime\n"
"  medan-referee games   the games, \"hidden\" after those with hidden information\n"
"  medan-referee report RESULTS.jsonl... --html OUT.html [--sprt ...] [--title T]\n"
"                [--tune STATE]   the page; --tune: SPSA parameter paths\n"
"  medan-referee tune --param NAME,START,MIN,MAX,C_END,R_END... | --params F\n"
"                --iterations N [--pairs P] [--state F] [--progress N] [--seed S]\n"
"                [--spsa A=X alpha=X gamma=X] --game G --engine KEYS [options]\n"
"                SPSA (fishtest's gains): theta+ against theta- each iteration;\n"
"                NAME an option (Skill) or an entry of one (Weights.euler);\n"
"                integers unless START/MIN/MAX have a point; --state resumes\n"
"  medan-referee parallel --shards N [--sshlogin H]... [--dry-run] tune ...\n"
"  medan-referee slurm N [SBATCH OPTIONS --] [--dry-run] tune ...\n"
"                each iteration's games as one batch of N shards (two seats;\n"
"                --state F required: the iteration's files go beside it)\n"
"  medan-referee sprt-sim [elo0=.. elo1=.. alpha=.. beta=.. model=..]\n"
"                [elo=E draw=D runs=N max-pairs=M seed=S]   SPRT error rates\n"
"\n"
"engine keys (--engine, or --each for every engine; an engine's own keys win):\n"
"  name=N  cmd=PATH  arg=A (repeatable, one argument each)  dir=D\n"
"  option.<Name>=<value>   setoption before the first game\n"
"  tc=[moves/]base[+inc]   seconds or m:ss; e.g. tc=10+0.1, tc=40/60, tc=1:30+1\n"
"  st=S  depth=N  nodes=N  timemargin=MS\n"
"                          timemargin: ms a clock may go below 0 (default 0);\n"
"                          with st=, ms a bestmove may come late (default:\n"
"                          only past 2*st + 1 s)\n"
"  restart=on|off          on: a fresh process for every game (default off)\n"
"  ponder=on|off (or a bare ponder)   on: the engine thinks on its opponent's\n"
"                          time (go ponder, ponderhit/stop; two-seat games of\n"
"                          perfect information; default off)\n"
"  proto=mep               accepted (MEP is the only protocol)\n"
"\n"
"match options:\n"
"  --game G [k=v...]       game and its parameters (palagan size=6,\n"
"                          battalion players=4), sent with newgame\n"
"  --games N               games per encounter (default 2: one pair); two\n"
"                          engines, one round: the games of the match\n"
"  --rounds N              rounds (default 1): all encounters N times\n"
"  --tournament round-robin|gauntlet\n"
"                          two seats, N engines: every pair (the default\n"
"                          with more than two), or engine 1 against each\n"
"                          other; games = rounds x --games x pairings.\n"
"                          N-seat games rotate any number of engines over\n"
"                          the seats (every engine in every seat alike)\n"
"  --repeat                each opening with both colours (the default)\n"
"  --noswap                no colour swap: the engine listed first in seat 1\n"
"  --concurrency N         games at once (default 1); a warning when N x the\n"
"                          largest option.Threads (x 2 pondering) > cores\n"
"  --seed S                match seed (default 0): openings, deals, Seed option\n"
"  --key-file F            hidden information: the secret deal key in F (made\n"
"                          if missing; shards share it)\n"
"  --key-from-seed         hidden information: deals from --seed alone (public,\n"
"                          engines could guess them; a warning is printed)\n"
"  --openings random-plies=N | file=F [format=epd|pgn] [order=sequential|random]\n"
"             [start=N] [plies=N] [policy=default|encounter|round]\n"
"                          openings: N random plies from the start, or a book\n"
"                          (epd: a position a line; pgn: games whose moves are\n"
"                          played, plies= of them; start= first, 1-based; a new\n"
"                          one per pair (default), encounter or round); balanced\n"
"                          suites: openings/<game>.epd (share/medan/openings)\n"
"  --maxplies N            adjudicate a draw at N plies (loa default 500)\n"
"  --maxmoves N            adjudicate a draw after N moves (two seats)\n"
"  --draw movenumber=N movecount=N score=CP   a draw when both engines' scores\n"
"                          stay within CP for N moves after move N (two seats)\n"
"  --resign movecount=N score=CP [twosided=true]   a loss for an engine whose\n"
"                          score stays at or below -CP for N of its moves\n"
"  --event T  --site T     the Event and Site tags of the records\n"
"  --sprt elo0=E0 elo1=E1 alpha=A beta=B [model=logistic|normalized]\n"
"                          stop when the SPRT (GSPRT on pairs) decides\n"
"                          (two engines only)\n"
"  --results F             JSON Lines record per game (flushed per game)\n"
"  --records F             PGN-style records\n"
"  --resume                continue the match in --results F\n"
"  --recover               restart a crashed or hung engine and go on\n"
"  --shard i/n             play the i-th of n shards (every n-th pair/deal)\n"
"                          (merge --games N: N = the whole schedule)\n"
"  --last-game N           play only games 1..N of the schedule (the batches\n"
"                          of parallel/slurm --sprt)\n"
"  --logdir D              engines' stderr logs (default referee-logs; none)\n"
"  --trace                 also log the protocol exchange there\n"
"  --log-limit SIZE        cap each log file (default 4M; k M G; 0 = none)\n"
"  --handshake-timeout MS  start-up answer limit (default 5000)\n"
"  --command-timeout MS    limit for ok/pong answers (default 5000): stall\n"
"  --nolimit-timeout MS    bestmove wait without a clock (default 60000)\n"
"  --quiet                 no live lines (the table is still printed)\n"
"  --ratinginterval N      every N games the Elo line as cutechess prints\n"
"                          it (and the SPRT line with --sprt); 0 = off\n"
"  --outcomeinterval N     every N games, and at the end, how each engine's\n"
"                          games ended (\"Win: connected\": 3); 0 = off\n"
"\n"
"cutechess-cli spellings work too: -engine -each -games -rounds -concurrency\n"
"-srand (--seed) -pgnout F [min] (--records) -openings -sprt -draw -resign\n"
"-maxmoves -recover -tournament -repeat -noswap -event -site -ratinginterval\n"
"-outcomeinterval.\n"
"\n"
"Exit status: 0 match played (or SPRT decided), 1 usage, 2 stopped early,\n"
"128+signal interrupted (SIGINT: the table of the finished games first).\n"
"Full reference: docs/referee.md");
}
