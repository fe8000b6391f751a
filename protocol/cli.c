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
            "                 [--option Name=value]... [key=value...]\n"
            "                                  search one position, print info lines and bestmove\n"
            "man medan-%s for the details.\n",
            n, n, n, n, n, n, n);
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

static void info_stdout(void *ctx, const char *line)
{
    (void)ctx;
    printf("info %s\n", line);
    fflush(stdout);
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

static int cmd_analyze(struct cli *c, int argc, char **argv)
{
    struct search_req req;
    atomic_bool stop = false, pondering = false;
    atomic_llong hit = 0;
    game_state_buf child;
    const struct game *g = c->e->game;
    uint64_t *hashes;
    int nmoves = 0, any = 0, rc = 1;
    char err[GAME_ERR_LEN], tok[256];
    void *eng = new_engine(c->e);
    struct game_result r;
    gmove best, ponder = GAME_MOVE_NONE;
    int64_t v;

    memset(&req, 0, sizeof req);
    limits_clear(&req.lim);
    hashes = xmalloc((size_t)(argc + 1) * sizeof *hashes);
    /* first pass: options and parameters, fen */
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc)
            c->fen = argv[++i];
        else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) {
            if (parse_i64(argv[++i], 1, 1000, &v)) {
                cli_error("--depth takes 1..1000");
                goto out;
            }
            req.lim.depth = (int)v;
            any = 1;
        } else if (strcmp(argv[i], "--movetime") == 0 && i + 1 < argc) {
            if (parse_i64(argv[++i], 0, MEP_MAX_MS, &v)) {
                cli_error("--movetime takes milliseconds 0..%lld", (long long)MEP_MAX_MS);
                goto out;
            }
            req.lim.movetime = v;
            any = 1;
        } else if (strcmp(argv[i], "--nodes") == 0 && i + 1 < argc) {
            uint64_t u;
            if (parse_u64(argv[++i], &u) || !u) {
                cli_error("--nodes takes a number >= 1");
                goto out;
            }
            req.lim.nodes = u;
            any = 1;
        } else if (strcmp(argv[i], "--option") == 0 && i + 1 < argc) {
            char *eq = strchr(argv[++i], '=');
            const struct opt_spec *o;
            if (!eq) {
                cli_error("--option takes Name=value");
                goto out;
            }
            *eq = '\0';
            if (!(o = opt_find(c->e->options, argv[i]))) {
                cli_error("no option '%s'", argv[i]);
                goto out;
            }
            if (opt_set(o, eng, eq + 1, err, sizeof err) ||
                (c->e->option_changed && c->e->option_changed(eng, o, err, sizeof err))) {
                cli_error("%s", err);
                goto out;
            }
        } else if (strcmp(argv[i], "--moves") == 0) {
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 && !strchr(argv[i + 1], '='))
                i++;
        } else if (cli_kv(c, argv[i]))
            goto out;
    }
    if (cli_position(c))
        goto out;
    hashes[0] = g->hash(c->st.b);
    /* second pass: moves */
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--moves") != 0)
            continue;
        while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 && !strchr(argv[i + 1], '=')) {
            gmove mv;
            i++;
            g->result(c->st.b, hashes, nmoves, &r);
            if (r.over) {
                cli_error("move %s: the game is over (%s)", argv[i], r.reason);
                goto out;
            }
            if (g->parse_move(c->st.b, argv[i], &mv, err, sizeof err)) {
                cli_error("move %s: %s", argv[i], err);
                goto out;
            }
            g->play(c->st.b, mv);
            hashes[++nmoves] = g->hash(c->st.b);
        }
    }
    g->result(c->st.b, hashes, nmoves, &r);
    if (r.over) { /* nothing to search: the result, as MEP's `result` prints it */
        printf("result %s", r.nseats == 2 ? game_outcome2(&r) : "ranks");
        for (int i = 0; r.nseats != 2 && i < r.nseats; i++)
            printf(" %d", r.rank[i]);
        printf(" reason %s scores", r.reason ? r.reason : "unknown");
        for (int i = 0; i < r.nseats; i++)
            printf(" %g", r.score[i]);
        printf("\n");
        rc = 0;
        goto out;
    }
    if (!any)
        req.lim.depth = 8;
    req.game = g;
    req.pos = c->st.b;
    req.hist = hashes;
    req.nhist = nmoves;
    req.start_us = now_us();
    req.stop = &stop;
    req.pondering = &pondering;
    req.ponderhit_us = &hit;
    req.info = info_stdout;
    best = c->e->go(eng, &req, &ponder);
    if (best == GAME_MOVE_NONE) {
        cli_error("the engine found no move");
        goto out;
    }
    g->format_move(c->st.b, best, tok, sizeof tok);
    printf("bestmove %s", tok);
    if (ponder != GAME_MOVE_NONE) {
        memcpy(child.b, c->st.b, g->state_size);
        g->play(child.b, best);
        g->format_move(child.b, ponder, tok, sizeof tok);
        printf(" ponder %s", tok);
    }
    printf("\n");
    rc = 0;
out:
    free(hashes);
    free_engine(c->e, eng);
    return rc;
}

int mep_main(const struct engine *e, int argc, char **argv)
{
    struct cli c;
    char err[GAME_ERR_LEN];
    if (engine_check(e, err, sizeof err))
        die("%s", err);
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
