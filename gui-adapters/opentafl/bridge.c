/* bridge.c - medan-otbridge: an OpenTafl Engine Protocol (OTEP) engine as a
 * MEP engine for Fetlar.  The reverse of medan-opentafl.
 *
 *   medan-otbridge [options] [--] [COMMAND [ARG...]]
 *
 * MEP comes from the protocol library (mep_main with a struct engine whose
 * `go` asks the child); positions, history and legality are Medan's Fetlar
 * rules (fetlar_game).  Per `go` the child gets `position <OTN record>`
 * (no history: OTEP has none), `side`, a `clock` that makes it think the
 * move's budget, and `play <side>`; it answers `move <OTN move>`.
 * Without COMMAND the child is medan-opentafl beside this binary (a
 * loopback for tests; it then also gets --medan-limits).  See
 * docs/gui-adapters/opentafl.md, "Playing OpenTafl's AI from the referee".
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../core/util.h"
#include "../../engines/fetlar/fetlar_api.h"
#include "../../protocol/mep.h"
#include "../../search/timeman.h"
#include "control/proc.h"
#include "otbudget.h"
#include "otrules.h"

#define MAX_CHILD_ARGS 256
#define STALE_WAIT_MS 500   /* for the move of a stopped search */
#define STOP_WAIT_MS 20     /* after stop: the child's move, if it comes now */
#define JUNK_SHOWN 200      /* other child lines copied to stderr per go */
#define JUNK_FLOOD 100000   /* lines without a move: the child is broken */
#define POLL_MS 4           /* how often the stop flag is looked at */
#define WRITE_MS 10000      /* a write to a child that does not read */

struct bridge {
    int64_t seed;
    char strategy[OPT_STR_LEN];
};

static const struct opt_spec bridge_options[] = {
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(struct bridge, seed),
     "seeds the bridge's fallback move (the child's own play is not seeded)"},
    {"Strategy", OPT_COMBO, "opentafl", 0, 0, "opentafl random", offsetof(struct bridge, strategy),
     "opentafl (ask the child), or random: a seeded random legal move, the child not asked"},
    {NULL, 0, NULL, 0, 0, NULL, 0, NULL},
};

static struct {
    /* command line */
    char *argv[MAX_CHILD_ARGS + 1];
    const char *dir;
    int medan_limits;
    struct ot_budget_cfg cfg;
    int64_t hello_ms;
    /* the child */
    struct ctl_proc ch;
    int64_t last_line_us; /* when the child last wrote a line */
    int played;           /* a `play` since the last `rules` */
    int asked;            /* a `play` of this go is unanswered */
    int stale;            /* moves still due from searches given up */
    int stale_waited;     /* waited for them once already */
    int late;             /* does the child answer after finish? -1 not known */
    int silent;           /* plays given up on time since its last move line */
    long junk;            /* other lines in this wait */
    int depth;            /* the deepest depth the child reported in this go */
    unsigned long long states;
    char rules[OT_REC + 256];
} B;

/* ---- the child -------------------------------------------------------------- */

static void childf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void childf(const char *fmt, ...)
{
    char line[CTL_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (ctl_proc_send(&B.ch, now_us() + WRITE_MS * 1000, line) != 0) {
        fprintf(stderr, "medan-otbridge: cannot write to the child (%s)\n",
                strerror(errno));
        /* its exit shows up as end of output on the next read */
    }
}

/* The child failed for good: say so on the MEP side as an error (a
 * controller waiting for bestmove takes it as the engine's failure), then
 * leave.  Never returns. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "medan-otbridge: %s\n", msg);
    fprintf(stdout, "error not_supported the OpenTafl engine failed: %s\n", msg);
    fflush(stdout);
    ctl_proc_kill(&B.ch); /* and every process of its group */
    _exit(2);
}

static void child_gone(void)
{
    ctl_proc_close_input(&B.ch);
    if (ctl_proc_wait(&B.ch, now_us() + 200000) && B.ch.exit_code >= 0)
        fail("the child exited (status %d)", B.ch.exit_code);
    if (B.ch.exited && B.ch.exit_code < 0)
        fail("the child was killed by signal %d", -B.ch.exit_code);
    fail("the child closed its output");
}

/* One line from the child within ms: 1, or 0 on timeout.  End of output
 * is fatal. */
static int child_line(char *line, size_t n, int ms)
{
    int r = ctl_proc_read(&B.ch, now_us() + (int64_t)ms * 1000, line, n);
    if (r == CTL_IO_EOF)
        child_gone();
    if (r == CTL_IO_LINE)
        B.last_line_us = now_us();
    return r == CTL_IO_LINE;
}

/* What a child line is, for the waits below. */
enum kind { K_OTHER, K_MOVE, K_STATUS };

/* Lines every wait treats alike; returns the kind, the argument in *arg. */
static enum kind classify(char *line, const char **arg, const void *pos)
{
    const char *rest = strchr(line, ' ');
    rest = rest ? rest + 1 : "";
    *arg = rest;
    if (str_prefix(line, "move ")) {
        B.silent = 0;
        return K_MOVE;
    }
    if (str_prefix(line, "status ") || strcmp(line, "status") == 0)
        return K_STATUS;
    if (str_prefix(line, "error ")) {
        if (str_prefix(rest, "-1"))
            fail("it sent a critical error: %.300s", line);
        fprintf(stderr, "medan-otbridge: child: %.500s\n", line);
        return K_OTHER;
    }
    if (strcmp(line, "rules") == 0 || str_prefix(line, "rules ")) {
        childf("rules %s", B.rules); /* the engine asks for the rules */
        return K_OTHER;
    }
    if (strcmp(line, "position") == 0 && pos) {
        char fen[1024];
        fetlar_game.format_pos(pos, fen, sizeof fen);
        fen[strcspn(fen, " ")] = '\0';
        childf("position %s", fen);
        return K_OTHER;
    }
    if (strcmp(line, "hello") == 0 || str_prefix(line, "simple-moves") ||
        str_prefix(line, "analysis"))
        return K_OTHER;
    if (++B.junk >= JUNK_FLOOD)
        fail("%ld lines of output that are not OTEP (the last: '%.200s')", B.junk,
             line);
    if (line[0] && B.junk <= JUNK_SHOWN)
        fprintf(stderr, "medan-otbridge: child: %.500s\n", line);
    if (B.junk == JUNK_SHOWN)
        fprintf(stderr, "medan-otbridge: (further child lines not shown)\n");
    return K_OTHER;
}

/* A child move record -> a legal move of pos, or GAME_MOVE_NONE with why. */
static gmove child_move(const void *pos, const char *rec, char *why, size_t n)
{
    char simple[32], err[GAME_ERR_LEN];
    gmove mv;
    if (ot_move_simple(rec, simple, sizeof simple, err, sizeof err) != 0) {
        snprintf(why, n, "%s", err);
        return GAME_MOVE_NONE;
    }
    if (fetlar_game.parse_move(pos, simple, &mv, err, sizeof err) != GAME_OK) {
        snprintf(why, n, "%s: %s", simple, err);
        return GAME_MOVE_NONE;
    }
    return mv;
}

static void drop_late(const char *move)
{
    fprintf(stderr, "medan-otbridge: dropped the late move %s\n", move);
    B.stale--;
    B.late = 1;
}

/* Before a new play: the move of a search given up may still come (wait
 * for it once, briefly, unless the child is known to send none after
 * `finish`, which OTEP allows), and OpenTafl's AI goes on working after it sent
 * its move (it plays the move on its own board and prints statistics; a
 * `position` or `play` then breaks it), so wait until the child has been
 * quiet for `settle` ms.  Returns early when stop is set. */
static void settle(const struct search_req *req)
{
    char line[CTL_LINE_MAX];
    int64_t t0 = now_us();
    int64_t stale_until =
        B.stale && !B.stale_waited && B.late != 0 ? t0 + STALE_WAIT_MS * 1000 : 0;
    int64_t cap = t0 + (B.cfg.settle_ms * 4 + STALE_WAIT_MS) * 1000;
    B.junk = 0;
    for (;;) {
        int64_t now = now_us();
        int quiet = now - B.last_line_us >= B.cfg.settle_ms * 1000;
        int waiting_stale = B.stale && now < stale_until;
        if ((quiet && !waiting_stale) || now >= cap || (req && search_stopped(req)))
            break;
        if (child_line(line, sizeof line, POLL_MS)) {
            const char *arg;
            if (classify(line, &arg, NULL) == K_MOVE && B.stale)
                drop_late(arg);
        }
    }
    if (stale_until) {
        B.stale_waited = 1;
        if (B.stale && B.late < 0 && now_us() >= stale_until) {
            B.late = 0;
            fprintf(stderr, "medan-otbridge: the child sends no move after finish; "
                            "not waiting for one again\n");
        }
    }
}

/* ---- the engine ---------------------------------------------------------------- */

static void make_rules(void)
{
    game_config_buf cfg;
    game_state_buf st;
    char fen[1024];
    fetlar_game.config_default(cfg.b);
    fetlar_game.start(st.b, cfg.b);
    fetlar_game.format_pos(st.b, fen, sizeof fen);
    fen[strcspn(fen, " ")] = '\0';
    ot_rules_fetlar(fen, fetlar_game.to_move(st.b) == 1, B.rules, sizeof B.rules);
}

static void b_newgame(void *eng)
{
    (void)eng;
    settle(NULL);
    if (B.played)
        childf("finish 0");
    B.played = 0;
    childf("rules %s", B.rules);
}

/* A random legal move, seeded by Seed and the position (Strategy random). */
static gmove random_move(struct bridge *b, const struct search_req *req)
{
    const struct game *g = req->game;
    gmove *moves = game_move_buf(g), m = GAME_MOVE_NONE;
    int n = game_gen_moves(g, req->pos, moves);
    if (n > 0) {
        struct rng rng;
        rng_seed(&rng, mix64((uint64_t)b->seed, g->hash(req->pos)));
        m = moves[rng_below(&rng, (uint64_t)n)];
    }
    free(moves);
    return m;
}

/* A move when the child has none: one that wins at once, else a seeded
 * random one. */
static gmove fallback(struct bridge *b, const struct search_req *req)
{
    const struct game *g = req->game;
    gmove *moves = game_move_buf(g), m = GAME_MOVE_NONE;
    game_state_buf st;
    int n = game_gen_moves(g, req->pos, moves);
    int me = g->to_move(req->pos);
    for (int i = 0; i < n && m == GAME_MOVE_NONE; i++) {
        struct game_result r;
        memcpy(st.b, req->pos, g->state_size);
        g->play(st.b, moves[i]);
        g->result(st.b, NULL, 0, &r);
        if (r.over && r.rank[me - 1] == 1 && r.rank[2 - me] == 2)
            m = moves[i];
    }
    free(moves);
    return m != GAME_MOVE_NONE ? m : random_move(b, req);
}

/* Stop waiting for the child (stop, or its time is up): its move if it
 * comes at once, else a fallback. */
static gmove give_up(struct bridge *b, const struct search_req *req, int timeout)
{
    const char *why = timeout ? "the child's time is up" : "stopped";
    char line[CTL_LINE_MAX], reason[256], tok[64];
    const void *pos = req->pos;
    if (!B.asked)
        goto none; /* stopped before the child was asked */
    B.asked = 0;
    /* OTEP has no stop: `finish` ends the child's search (OpenTafl's AI
     * then sends the best move it has, at once). */
    childf("finish 0");
    B.played = 0;
    int64_t until = now_us() + STOP_WAIT_MS * 1000;
    while (now_us() < until) {
        if (!child_line(line, sizeof line, POLL_MS))
            continue;
        const char *arg;
        if (classify(line, &arg, pos) != K_MOVE)
            continue;
        gmove mv = child_move(pos, arg, reason, sizeof reason);
        if (mv != GAME_MOVE_NONE)
            return mv;
    }
    B.stale++;
    B.stale_waited = 0;
    B.silent += timeout;
none:;
    gmove mv = fallback(b, req);
    if (mv != GAME_MOVE_NONE)
        req->game->format_move(pos, mv, tok, sizeof tok);
    fprintf(stderr, "medan-otbridge: %s; no move from the child, playing %s\n", why,
            mv == GAME_MOVE_NONE ? "nothing" : tok);
    return mv;
}

/* An OpenTafl status line as MEP info: its depth reports as depth/nodes,
 * the rest as text. */
static void status_info(const struct search_req *req, const char *text)
{
    int depth;
    unsigned long long states;
    if (sscanf(text, "Depth %d explored %llu states", &depth, &states) == 2) {
        search_info(req, "depth %d nodes %llu time %lld", depth, states,
                    (long long)((now_us() - req->start_us) / 1000));
        B.depth = depth;
        B.states = states;
    } else
        search_info(req, "string ot: %.400s", text);
}

static gmove b_go(void *eng, const struct search_req *req, gmove *ponder)
{
    struct bridge *b = eng;
    const struct game *g = req->game;
    char line[CTL_LINE_MAX], fen[1024], why[256], lim[512];
    int seat = g->to_move(req->pos);
    const char *side = seat == 1 ? "attackers" : "defenders";
    struct ot_budget bud;
    *ponder = GAME_MOVE_NONE;

    if (strcmp(b->strategy, ENGINE_STRATEGY_RANDOM) == 0)
        return random_move(b, req);
    /* go ponder: an OpenTafl engine cannot ponder (OTEP has no ponder and
     * no stop), so the bridge only waits: on ponderhit it asks the child as
     * for a go with the same clocks given at the ponderhit (the time runs
     * from then, as MEP says); on stop it answers a legal move, never
     * asking the child. */
    struct search_req hit;
    if (req->lim.ponder) {
        const struct timespec poll = {0, POLL_MS * 1000000L};
        while (atomic_load(req->pondering) && !search_stopped(req))
            nanosleep(&poll, NULL);
        if (search_stopped(req))
            return give_up(b, req, 0);
        hit = *req;
        hit.lim.ponder = false;
        hit.start_us = atomic_load(req->ponderhit_us);
        req = &hit;
    }
    settle(req);
    if (search_stopped(req))
        return give_up(b, req, 0);
    ot_budget(&B.cfg, req, seat, &bud);
    g->format_pos(req->pos, fen, sizeof fen);
    fen[strcspn(fen, " ")] = '\0';
    childf("position %s", fen);
    childf("side %s", side);
    ot_clock_line(&bud, lim, sizeof lim);
    childf("%s", lim);
    if (B.medan_limits) {
        ot_mep_limits(&req->lim, seat, (now_us() - req->start_us) / 1000, lim, sizeof lim);
        childf("medan-limits %s", lim);
    }
    childf("play %s", side);
    int64_t asked_us = now_us();
    B.played = B.asked = 1;
    B.junk = 0;
    B.depth = 0;
    B.states = 0;
    for (;;) {
        if (search_stopped(req))
            return give_up(b, req, 0);
        if (bud.giveup_us >= 0 && now_us() - req->start_us >= bud.giveup_us) {
            if (B.silent) /* no move line at all since the last time-out */
                fail("no move in time for two plays in a row (the last waited %lld ms)",
                     (long long)(bud.giveup_us / 1000));
            return give_up(b, req, 1);
        }
        if (!child_line(line, sizeof line, POLL_MS))
            continue;
        const char *arg;
        enum kind k = classify(line, &arg, req->pos);
        if (k == K_STATUS)
            status_info(req, arg);
        if (k != K_MOVE)
            continue;
        gmove mv = child_move(req->pos, arg, why, sizeof why);
        if (mv != GAME_MOVE_NONE) {
            B.asked = 0;
            B.stale = 0;
            /* one line per move on stderr, for measuring the child */
            fprintf(stderr,
                    "medan-otbridge: %s: think %lld ms (clock %lld*): %s after %lld ms "
                    "(%lld since go), depth %d, %llu states\n",
                    side, (long long)bud.think_ms, (long long)bud.clock_ms, arg,
                    (long long)((now_us() - asked_us) / 1000),
                    (long long)((now_us() - req->start_us) / 1000), B.depth, B.states);
            return mv;
        }
        if (B.stale) { /* the answer to a search given up */
            drop_late(arg);
            continue;
        }
        fail("it answered 'move %.60s' in %s %s: %s", arg, fen, side, why);
    }
}

static const struct engine bridge_engine = {
    .game = &fetlar_game,
    .name = "Medan OpenTafl bridge",
    .author = "the Medan authors",
    .size = sizeof(struct bridge),
    .options = bridge_options,
    .newgame = b_newgame,
    .go = b_go,
};

/* ---- start-up ---------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: medan-otbridge [options] [--] [COMMAND [ARG...]]\n"
            "       medan-otbridge --help | --version\n"
            "  speaks MEP (Fetlar) on stdin/stdout; COMMAND is an OpenTafl Engine\n"
            "  Protocol engine, e.g. -- java -cp ... com.manywords.softworks.tafl.OpenTafl --engine\n"
            "  (default: medan-opentafl beside this binary, with --medan-limits)\n"
            "  --dir DIR           the child's working directory (OpenTafl writes log/ etc. there)\n"
            "  --pad MS            added to the think time in the child's clock (default %d)\n"
            "  --settle MS         quiet time after the child's move before the next (default %d)\n"
            "  --grace MS          past the budget: give the child up (default %d)\n"
            "  --movetime MS       think time for go depth/nodes (default %d)\n"
            "  --hello-timeout MS  wait for the child's hello (default 30000)\n"
            "  --medan-limits      also send `medan-limits <MEP limits>` (medan-opentafl)\n"
            "  man medan-otbridge for the details.\n",
            OT_DEFAULT_PAD_MS, OT_DEFAULT_SETTLE_MS, OT_DEFAULT_GRACE_MS,
            OT_DEFAULT_MOVETIME_MS);
}

static int num_arg(int argc, char **argv, int *i, int64_t lo, int64_t *out)
{
    if (*i + 1 >= argc || parse_i64(argv[*i + 1], lo, INT64_MAX / 4000, out)) {
        fprintf(stderr, "medan-otbridge: %s needs a number >= %lld\n", argv[*i],
                (long long)lo);
        return -1;
    }
    (*i)++;
    return 0;
}

static int parse_args(int argc, char **argv)
{
    static char self_dir[PATH_MAX], child[PATH_MAX + 32];
    int i = 1, nargs = 0;
    ot_budget_defaults(&B.cfg);
    B.hello_ms = 30000;
    if (argc == 2 && strcmp(argv[1], "help") == 0) { /* as the engines take it */
        usage(stdout);
        exit(0);
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        int r = 0;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-')
            break;
        if (strcmp(a, "--dir") == 0 && i + 1 < argc)
            B.dir = argv[++i];
        else if (strcmp(a, "--pad") == 0)
            r = num_arg(argc, argv, &i, 0, &B.cfg.pad_ms);
        else if (strcmp(a, "--settle") == 0)
            r = num_arg(argc, argv, &i, 0, &B.cfg.settle_ms);
        else if (strcmp(a, "--grace") == 0)
            r = num_arg(argc, argv, &i, 0, &B.cfg.grace_ms);
        else if (strcmp(a, "--movetime") == 0)
            r = num_arg(argc, argv, &i, 1, &B.cfg.movetime_ms);
        else if (strcmp(a, "--hello-timeout") == 0)
            r = num_arg(argc, argv, &i, 1, &B.hello_ms);
        else if (strcmp(a, "--medan-limits") == 0)
            B.medan_limits = 1;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("medan-otbridge (Medan) %s\n", MEDAN_VERSION);
            exit(0);
        } else {
            fprintf(stderr, "medan-otbridge: unknown option %s\n", a);
            usage(stderr);
            return -1;
        }
        if (r)
            return -1;
    }
    for (; i < argc && nargs < MAX_CHILD_ARGS; i++)
        B.argv[nargs++] = argv[i];
    if (i < argc) {
        fprintf(stderr, "medan-otbridge: more than %d child arguments\n", MAX_CHILD_ARGS);
        return -1;
    }
    if (nargs == 0) { /* loopback: medan-opentafl beside us */
        ssize_t n = readlink("/proc/self/exe", self_dir, sizeof self_dir - 1);
        self_dir[n > 0 ? n : 0] = '\0';
        char *slash = strrchr(self_dir, '/');
        if (slash)
            *slash = '\0';
        snprintf(child, sizeof child, "%s/medan-opentafl", n > 0 ? self_dir : ".");
        B.argv[nargs++] = child;
        B.medan_limits = 1;
    }
    B.argv[nargs] = NULL;
    return 0;
}

static int start_child(void)
{
    char line[CTL_LINE_MAX];
    /* its own process group; its stderr is ours (OpenTafl's AI talks
     * there) */
    struct ctl_proc_opts o = {.dir = B.dir, .err_mode = CTL_STDERR_INHERIT};
    char err[600];
    if (ctl_proc_start(&B.ch, B.argv, &o, err, sizeof err) != 0) {
        fprintf(stderr, "medan-otbridge: %s\n", err);
        return -1;
    }
    int64_t end = now_us() + B.hello_ms * 1000;
    for (;;) {
        int r = ctl_proc_read(&B.ch, end, line, sizeof line);
        if (r == CTL_IO_LINE && strcmp(line, "hello") == 0)
            break;
        if (r == CTL_IO_LINE) {
            if (line[0])
                fprintf(stderr, "medan-otbridge: child: %.500s\n", line);
            continue;
        }
        fprintf(stderr, "medan-otbridge: %s %s\n", B.argv[0],
                r == CTL_IO_EOF ? "ended before it said hello"
                                : "did not say hello in time (see --hello-timeout)");
        ctl_proc_kill(&B.ch);
        return -1;
    }
    B.last_line_us = now_us();
    B.late = -1;
    childf("rules %s", B.rules);
    return 0;
}

int main(int argc, char **argv)
{
    if (parse_args(argc, argv) != 0)
        return 1;
    make_rules();
    if (start_child() != 0)
        return 2;
    char *mep_argv[] = {argv[0], NULL};
    int rc = mep_main(&bridge_engine, 1, mep_argv);
    /* goodbye, then 300 ms to leave before its group is killed */
    ctl_proc_send(&B.ch, now_us() + 300000, "goodbye");
    ctl_proc_close_input(&B.ch);
    ctl_proc_wait(&B.ch, now_us() + 300000);
    return rc;
}
