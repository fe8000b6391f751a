/* cli.c - an engine binary's main: MEP on stdin/stdout (the readline
 * console of console.c when on a terminal), or one of the script
 * subcommands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/util.h"
#include "../search/perft.h"
#include "mep.h"
#include "options.h"

static char progname[64] = "medan"; /* medan-<game>, for messages */

static void usage(const struct engine *e, FILE *f)
{
    const char *n = e->game->name;
    fprintf(f,
            "usage: medan-%s                 speak MEP on stdin/stdout (see docs/protocol.md)\n"
            "       medan-%s --help | --version\n"
            "       medan-%s perft <d> [--fen S] [key=value...]   count leaves of the move tree\n"
            "       medan-%s divide <d> [--fen S] [key=value...]  the same, per root move\n"
            "       medan-%s bench [depth]       fixed search of built-in positions: nodes, nps\n"
            "       medan-%s analyze [--fen S] [--moves m...] [--depth N|--movetime MS|--nodes N]\n"
            "                 [--multipv N] [--solve] [--option Name=value]... [key=value...]\n"
            "                                  search one position, print info lines and bestmove\n"
            "                                  (--multipv: the N best moves, one info line each;\n"
            "                                  --solve: go solve, a proven result as score win|loss N)\n"
            "       medan-%s solve [--fen S] [--movetime MS|--nodes N] [--option Name=value]...\n"
            "                 [key=value...]\n"
            "                                  prove a win or loss (proof-number search): one line,\n"
            "                                  win|loss|unknown [in N plies] [move M] nodes N time T\n"
            "man medan-%s for the details.\n",
            n, n, n, n, n, n, n, n);
}

static int run_protocol(const struct engine *e)
{
    struct mep *m;
    char *line;
    size_t cap = MEP_MAX_LINE + 1, len = 0; /* room for a full line and its CR */
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
        return mep_console(e); /* readline, Ctrl-C, completion: console.c */
    m = mep_new(e, stdout);
    line = xmalloc(cap);
    for (;;) {
        /* over-long lines are discarded while read: memory stays O(cap) */
        if (!mep_read_line(stdin, line, cap, &len)) {
            mep_eof(m);
            break;
        }
        if (mep_input(m, line, len))
            break;
    }
    free(line);
    mep_free(m);
    return 0;
}

/* ---- subcommands -------------------------------------------------------------- */
struct cli {
    const struct engine *e;
    game_config_buf cfg;
    game_state_buf st;
    const char *fen;
};

static int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", progname);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* Configure from key=value args and set up the position (--fen or start). */
static int cli_position(struct cli *c)
{
    char err[GAME_ERR_LEN];
    if (c->fen) {
        int rc = c->e->game->parse_pos(c->st.b, c->cfg.b, c->fen, err, sizeof err);
        if (rc)
            return cli_error("bad position: %s", err);
    } else
        c->e->game->start(c->st.b, c->cfg.b);
    return 0;
}

static int cli_kv(struct cli *c, char *arg)
{
    char err[GAME_ERR_LEN], *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return cli_error("unexpected argument '%s'", arg);
    *eq = '\0';
    if (c->e->game->config_set(c->cfg.b, arg, eq + 1, err, sizeof err))
        return cli_error("%s", err);
    return 0;
}

static void print_divide(void *ctx, const char *mv, uint64_t n)
{
    (void)ctx;
    printf("%s %llu\n", mv, (unsigned long long)n);
}

static int cmd_perft(struct cli *c, int argc, char **argv, int divide)
{
    int64_t d;
    uint64_t n;
    int64_t t0;
    if (argc < 3 || parse_i64(argv[2], 0, 64, &d))
        return cli_error("usage: %s <depth> [--fen S] [key=value...]", argv[1]);
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc)
            c->fen = argv[++i];
        else if (cli_kv(c, argv[i]))
            return 1;
    }
    if (cli_position(c))
        return 1;
    t0 = now_us();
    n = divide ? perft_divide(c->e->game, c->st.b, (int)d, print_divide, NULL, NULL)
               : perft(c->e->game, c->st.b, (int)d);
    int64_t us = now_us() - t0;
    printf("perft %d %llu time %lld nps %llu\n", (int)d, (unsigned long long)n,
           (long long)(us / 1000), (unsigned long long)(us > 0 ? n * 1000000ULL / (uint64_t)us : 0));
    return 0;
}

static void *new_engine(const struct engine *e)
{
    void *eng = xcalloc(1, e->size ? e->size : 1);
    opt_defaults(e->options, eng);
    if (e->init)
        e->init(eng);
    return eng;
}

static void free_engine(const struct engine *e, void *eng)
{
    if (e->destroy)
        e->destroy(eng);
    free(eng);
}

static int cmd_bench(struct cli *c, int argc, char **argv)
{
    int64_t depth = 0, ms = 0;
    void *eng;
    uint64_t nodes;
    if (argc > 3 || (argc == 3 && parse_i64(argv[2], 1, 100, &depth)))
        return cli_error("usage: bench [depth]");
    if (!c->e->bench)
        return cli_error("this engine has no bench");
    eng = new_engine(c->e);
    nodes = c->e->bench(eng, (int)depth, &ms, NULL, NULL);
    free_engine(c->e, eng);
    printf("bench nodes %llu time %lld nps %llu\n", (unsigned long long)nodes, (long long)ms,
           (unsigned long long)(ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes));
    printf("Bench: %llu\n", (unsigned long long)nodes);
    return 0;
}

/* analyze runs the MEP session in-process (the same position replay,
 * errors and guards as on stdin): its arguments become MEP lines, its
 * output comes back through this callback. */
struct analysis {
    char error[1024]; /* the session's last `error` line */
    char result[512]; /* its `result` line */
    int bestmove;     /* a bestmove line came */
};

static void analyze_out(void *ctx, const char *line)
{
    struct analysis *a = ctx;
    if (strcmp(line, "ok") == 0)
        return;
    if (str_prefix(line, "error ")) {
        snprintf(a->error, sizeof a->error, "%s", line);
        return;
    }
    if (str_prefix(line, "result ")) {
        snprintf(a->result, sizeof a->result, "%s", line);
        return;
    }
    if (str_prefix(line, "bestmove"))
        a->bestmove = 1;
    if (str_prefix(line, "info ") || str_prefix(line, "bestmove")) {
        printf("%s\n", line);
        fflush(stdout);
    } else
        fprintf(stderr, "%s: %s\n", progname, line);
}

/* One command to the session; on its error, say so (prefixed by what,
 * or for a position by what was wrong in it) and return 1. */
static int feed(struct mep *m, struct analysis *a, const char *what, const char *line)
{
    a->error[0] = '\0';
    mep_input(m, line, strlen(line));
    if (!a->error[0])
        return 0;
    if (!what)
        what = str_prefix(a->error, "error illegal_move ") ? "bad move" : "bad position";
    return cli_error("%s: %s", what, a->error);
}

/* Is argv[i] a move of --moves (not the next flag or a key=value)? */
static int move_arg(int argc, char **argv, int i)
{
    return i < argc && strncmp(argv[i], "--", 2) != 0 && !strchr(argv[i], '=');
}

/* The session gets lines as long as the arguments make them, so its own
 * length check answers; only beyond twice that the arguments are refused. */
#define ANALYZE_BUF (2 * MEP_MAX_LINE)

static int cmd_analyze(struct cli *c, int argc, char **argv)
{
    struct analysis a;
    struct mep *m = NULL;
    char *line = xmalloc(ANALYZE_BUF), *params = xmalloc(ANALYZE_BUF);
    char *moves = xmalloc(ANALYZE_BUF), *limits = xmalloc(ANALYZE_BUF);
    size_t lp = 0, lm = 0, ll = 0, len = 0;
    int rc = 1, over = 0, limited = 0, solve = 0;

    memset(&a, 0, sizeof a);
    params[0] = moves[0] = limits[0] = '\0';
    /* first pass: check the arguments' shape, collect parameters, moves,
     * limits (the values are the session's to judge) */
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc)
            c->fen = argv[++i];
        else if (strcmp(argv[i], "--solve") == 0)
            solve = 1;
        else if ((strcmp(argv[i], "--depth") == 0 || strcmp(argv[i], "--movetime") == 0 ||
                  strcmp(argv[i], "--nodes") == 0 || strcmp(argv[i], "--multipv") == 0) &&
                 i + 1 < argc) {
            /* --multipv is `go multipv N`: no limit by itself */
            limited |= strcmp(argv[i], "--multipv") != 0;
            over |= buf_printf(limits, ANALYZE_BUF, &ll, " %s %s", argv[i] + 2, argv[i + 1]);
            i++;
        } else if (strcmp(argv[i], "--option") == 0 && i + 1 < argc) {
            const char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i]) {
                cli_error("--option takes Name=value");
                goto out;
            }
        } else if (strcmp(argv[i], "--moves") == 0) {
            while (move_arg(argc, argv, i + 1))
                over |= buf_printf(moves, ANALYZE_BUF, &lm, " %s", argv[++i]);
        } else if (strchr(argv[i], '=') && argv[i][0] != '=' && argv[i][0] != '-')
            over |= buf_printf(params, ANALYZE_BUF, &lp, " %s", argv[i]);
        else {
            cli_error("unexpected argument '%s'", argv[i]);
            goto out;
        }
    }
    if (over) {
        cli_error("arguments too long");
        goto out;
    }
    m = mep_new_cb(c->e, analyze_out, &a);
    /* options first (in order), then the parameters, the position, its
     * result, the search */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--option") == 0 && i + 1 < argc) {
            const char *o = argv[++i], *eq = strchr(o, '=');
            len = 0;
            if (buf_printf(line, ANALYZE_BUF, &len, "setoption name %.*s value %s",
                           (int)(eq - o), o, eq + 1)) {
                cli_error("arguments too long");
                goto out;
            }
            if (feed(m, &a, "bad option", line))
                goto out;
        } else if (strcmp(argv[i], "--fen") == 0 || strcmp(argv[i], "--depth") == 0 ||
                   strcmp(argv[i], "--movetime") == 0 || strcmp(argv[i], "--nodes") == 0 ||
                   strcmp(argv[i], "--multipv") == 0)
            i++;
    len = 0;
    buf_printf(line, ANALYZE_BUF, &len, "newgame%s", params);
    if (feed(m, &a, "bad parameter", line))
        goto out;
    len = 0;
    if (c->fen)
        over = buf_printf(line, ANALYZE_BUF, &len, "position fen %s%s%s", c->fen,
                          lm ? " moves" : "", moves);
    else
        over = buf_printf(line, ANALYZE_BUF, &len, "position start%s%s", lm ? " moves" : "",
                          moves);
    if (over) {
        cli_error("arguments too long");
        goto out;
    }
    if (feed(m, &a, NULL, line) || feed(m, &a, "result", "result"))
        goto out;
    if (a.result[0] && strcmp(a.result, "result none") != 0) {
        /* nothing to search: the result, as MEP's `result` prints it */
        printf("%s\n", a.result);
        rc = 0;
        goto out;
    }
    len = 0;
    if (solve) /* go solve: its own limits, a million positions by default */
        buf_printf(line, ANALYZE_BUF, &len, "go solve%s%s", limited ? "" : " nodes 1000000",
                   limits);
    else
        buf_printf(line, ANALYZE_BUF, &len, "go%s%s", limited ? "" : " depth 8", limits);
    if (feed(m, &a, "cannot search", line))
        goto out;
    mep_wait(m); /* the search has limits: it ends, with its bestmove */
    rc = a.bestmove ? 0 : cli_error("the engine gave no bestmove");
out:
    if (m)
        mep_free(m);
    free(line);
    free(params);
    free(moves);
    free(limits);
    return rc;
}

/* solve: `go solve` in an in-process session; its lines read back into
 * one line: win|loss|unknown [in [at most] N plies] [move M] nodes N time T. */
struct solve_out {
    struct analysis a;
    char kind[128]; /* win, loss or "" */
    long plies;
    int bound;      /* the info string said the distance is an upper bound */
    char move[128];
    unsigned long long nodes;
    long long ms;
};

/* The value after `key ` in an info line, as a token (or ""). */
static void info_token(const char *line, const char *key, char *out, size_t n)
{
    const char *p = strstr(line, key);
    size_t len = 0;
    out[0] = '\0';
    if (!p)
        return;
    p += strlen(key);
    while (p[len] && p[len] != ' ' && len + 1 < n)
        len++;
    memcpy(out, p, len);
    out[len] = '\0';
}

static void solve_out(void *ctx, const char *line)
{
    struct solve_out *s = ctx;
    char tok[128];
    if (str_prefix(line, "info ")) {
        info_token(line, " nodes ", tok, sizeof tok);
        if (tok[0])
            s->nodes = strtoull(tok, NULL, 10);
        info_token(line, " time ", tok, sizeof tok);
        if (tok[0])
            s->ms = strtoll(tok, NULL, 10);
        info_token(line, " score ", tok, sizeof tok);
        if (strcmp(tok, "win") == 0 || strcmp(tok, "loss") == 0) {
            snprintf(s->kind, sizeof s->kind, "%s", tok);
            info_token(line, tok[0] == 'w' ? " score win " : " score loss ", tok, sizeof tok);
            s->plies = strtol(tok, NULL, 10);
            info_token(line, " pv ", s->move, sizeof s->move);
        }
        if (strstr(line, "an upper bound"))
            s->bound = 1;
        return;
    }
    if (str_prefix(line, "bestmove ")) {
        s->a.bestmove = 1;
        if (!s->kind[0])
            info_token(line, "bestmove ", s->move, sizeof s->move);
        return;
    }
    if (strcmp(line, "ok") == 0)
        return;
    if (str_prefix(line, "error ")) {
        snprintf(s->a.error, sizeof s->a.error, "%s", line);
        return;
    }
    if (str_prefix(line, "result ")) {
        snprintf(s->a.result, sizeof s->a.result, "%s", line);
        return;
    }
    fprintf(stderr, "%s: %s\n", progname, line);
}

static int cmd_solve(struct cli *c, int argc, char **argv)
{
    struct solve_out s;
    struct mep *m;
    char line[MEP_MAX_LINE], limit[96] = "", params[1024] = "";
    size_t len = 0, lp = 0;
    int rc = 1;
    memset(&s, 0, sizeof s);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc)
            c->fen = argv[++i];
        else if (strcmp(argv[i], "--option") == 0 && i + 1 < argc) {
            const char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i] || strlen(argv[i]) > 512)
                return cli_error("--option takes Name=value");
        } else if (strchr(argv[i], '=') && argv[i][0] != '=' && argv[i][0] != '-') {
            if (buf_printf(params, sizeof params, &lp, " %s", argv[i]))
                return cli_error("arguments too long");
        }
        else if ((strcmp(argv[i], "--movetime") == 0 || strcmp(argv[i], "--nodes") == 0) &&
                 i + 1 < argc) {
            if (limit[0])
                return cli_error("solve takes one limit: --movetime MS or --nodes N");
            if (strlen(argv[i + 1]) > 40)
                return cli_error("%s: value too long", argv[i]);
            snprintf(limit, sizeof limit, " %s %s", argv[i] + 2, argv[i + 1]);
            i++;
        } else
            return cli_error("unexpected argument '%s' (usage: solve [--fen F] "
                             "[--movetime MS|--nodes N] [--option Name=value]... "
                             "[key=value...])", argv[i]);
    }
    if (c->fen && strlen(c->fen) > MEP_MAX_LINE / 2)
        return cli_error("bad position: too long");
    m = mep_new_cb(c->e, solve_out, &s);
    for (int i = 2; i < argc; i++) /* options first, in order */
        if (strcmp(argv[i], "--option") == 0 && i + 1 < argc) {
            const char *o = argv[++i], *eq = strchr(o, '=');
            len = 0;
            buf_printf(line, sizeof line, &len, "setoption name %.*s value %s", (int)(eq - o), o,
                       eq + 1);
            if (feed(m, &s.a, "bad option", line))
                goto out;
        } else if (strcmp(argv[i], "--fen") == 0 || strcmp(argv[i], "--movetime") == 0 ||
                   strcmp(argv[i], "--nodes") == 0)
            i++;
    len = 0;
    buf_printf(line, sizeof line, &len, "newgame%s", params);
    if (feed(m, &s.a, "bad parameter", line))
        goto out;
    len = 0;
    if (c->fen)
        buf_printf(line, sizeof line, &len, "position fen %s", c->fen);
    else
        buf_printf(line, sizeof line, &len, "position start");
    if (feed(m, &s.a, NULL, line) || feed(m, &s.a, "result", "result"))
        goto out;
    if (s.a.result[0] && strcmp(s.a.result, "result none") != 0) {
        /* the game is over: nothing to prove */
        printf("%s\n", s.a.result);
        rc = 0;
        goto out;
    }
    len = 0;
    buf_printf(line, sizeof line, &len, "go solve%s", limit);
    if (feed(m, &s.a, "cannot solve", line))
        goto out;
    mep_wait(m);
    if (s.kind[0])
        printf("%s in %s%ld plies move %s nodes %llu time %lld\n", s.kind,
               s.bound ? "at most " : "", s.plies, s.move, s.nodes, s.ms);
    else
        printf("unknown%s%s nodes %llu time %lld\n", s.move[0] ? " move " : "", s.move,
               s.nodes, s.ms);
    rc = 0;
out:
    mep_free(m);
    return rc;
}

int mep_main(const struct engine *e, int argc, char **argv)
{
    struct cli c;
    char err[GAME_ERR_LEN];
    if (engine_check(e, err, sizeof err)) {
        /* the program's own table is wrong: its main exits with this */
        fprintf(stderr, "medan-%s: %s\n", e->game ? e->game->name : "engine", err);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    snprintf(progname, sizeof progname, "medan-%s", e->game->name);
    if (argc < 2)
        return run_protocol(e);
    memset(&c, 0, sizeof c);
    c.e = e;
    e->game->config_default(c.cfg.b);
    if (strcmp(argv[1], "perft") == 0)
        return cmd_perft(&c, argc, argv, 0);
    if (strcmp(argv[1], "divide") == 0)
        return cmd_perft(&c, argc, argv, 1);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(&c, argc, argv);
    if (strcmp(argv[1], "analyze") == 0)
        return cmd_analyze(&c, argc, argv);
    if (strcmp(argv[1], "solve") == 0)
        return cmd_solve(&c, argc, argv);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(e, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("%s (Medan) %s, MEP 1\n", progname, MEDAN_VERSION);
        return 0;
    }
    fprintf(stderr, "%s: unknown subcommand '%s'\n", progname, argv[1]);
    usage(e, stderr);
    return 1;
}
