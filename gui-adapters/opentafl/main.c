/* main.c - medan-opentafl: speaks the OpenTafl Engine Protocol (OTEP) on
 * stdin/stdout and drives medan-fetlar over MEP.
 *
 *   medan-opentafl [ENGINE] [--engine PATH] [--movetime MS]
 *                  [--option NAME=VALUE]... [--log FILE]
 *
 * ENGINE defaults to medan-fetlar beside this binary.  OpenTafl passes an
 * empty argument when its .ini has an empty `arguments=` line; empty
 * arguments are skipped.
 *
 * OpenTafl sends no history: the adapter keeps the game as a base position
 * plus every move seen since (opponent moves and its own confirmed moves),
 * checks each against the full position OpenTafl sends, and resynchronises
 * from that position when they differ.  stdout carries only OTEP lines, one
 * write each; stderr stays silent (the engine's stderr goes to /dev/null).
 *
 * Extensions for tests (OpenTafl never sends them): `ping <t>` -> `pong
 * <t>`, `medan-limits <MEP go limits>` (empty: back to the clock),
 * `medan-state` -> `status fen <S> moves <n>`, and `quit`.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/util.h"
#include "../../core/version.h"
#include "control/client.h"
#include "control/lineio.h"
#include "otrules.h"

#define MAX_MOVES 4096
#define MOVE_LEN 16
#define QUEUE 64
#define DEFAULT_MOVETIME 3000
#define ENGINE_MS 30000 /* an engine command's answer, a write to it */
#define REBASE_QUIET 90 /* OpenTafl has no 100-ply draw: stay below it */

static struct {
    struct ctl_client eng;
    int engine_ok;
    FILE *log;
    /* the game */
    int have_rules;
    struct ot_rules rules;
    char base_fen[OT_REC + 32];
    char moves[MAX_MOVES][MOVE_LEN];
    int nmoves;
    char board[OT_REC]; /* current position record */
    int white;          /* side to move: 0 attackers, 1 defenders */
    int quiet, pieces;
    char pending[MOVE_LEN]; /* our move awaiting OpenTafl's `move` */
    char rejected[32][MOVE_LEN];
    int nrejected;
    /* clocks */
    int have_clock;
    int64_t ms[2];
    int in_ot[2];
    int64_t ot_ms;
    int ots[2];
    int movetime;
    char limits[256]; /* medan-limits override */
    /* stdin */
    struct lio_in in;
    char *queue[QUEUE];
    int nqueue;
} A;

/* ---- output ------------------------------------------------------------------ */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lio_vout(A.log, fmt, ap);
    va_end(ap);
}

/* ---- the engine ------------------------------------------------------------------- */

/* Send a line to the engine (its failure shows up as the end of its
 * output on the next read).  0 or -1. */
static int send_eng(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int send_eng(const char *fmt, ...)
{
    char line[CTL_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line)
        return -1;
    return ctl_client_send(&A.eng, now_us() + (int64_t)ENGINE_MS * 1000, line);
}

/* A command to its final line; its other lines (not info) in payload.
 * 0 ok, 1 error, -1 the engine is gone or hangs. */
static int eng(const char *cmd, char *payload, size_t pn)
{
    char fin[600];
    if (!A.engine_ok)
        return -1;
    lio_log(A.log, "e<", cmd);
    int r = ctl_client_query(&A.eng, now_us() + (int64_t)ENGINE_MS * 1000, cmd,
                             payload, pn);
    if (r == CTL_OK)
        return 0;
    if (r == CTL_ERROR) {
        snprintf(fin, sizeof fin, "error %s", A.eng.last_error);
        lio_log(A.log, "e>", fin);
        return 1;
    }
    A.engine_ok = 0;
    lio_log(A.log, "e>", "(engine gone)");
    return -1;
}

static void position_cmd(char *buf, size_t n)
{
    size_t len = 0;
    buf_printf(buf, n, &len, "position fen %s", A.base_fen);
    if (A.nmoves)
        buf_printf(buf, n, &len, " moves");
    for (int i = 0; i < A.nmoves; i++)
        buf_printf(buf, n, &len, " %s", A.moves[i]);
}

/* Start a new history at the current position. */
static void rebase(void)
{
    if (A.quiet >= REBASE_QUIET)
        A.quiet = 0;
    snprintf(A.base_fen, sizeof A.base_fen, "%s %c %d", A.board,
             A.white ? 'w' : 'b', A.quiet);
    A.nmoves = 0;
}

static void set_position(const char *board, int white)
{
    char grid[OT_SQ];
    A.pieces = ot_board_expand(board, grid, NULL, 0);
    ot_board_compact(grid, A.board, sizeof A.board);
    A.white = white;
    A.nrejected = 0;
    rebase();
}

/* Send the game to the engine.  0, or -1 when even a fresh base fails. */
static int sync_engine(void)
{
    static char cmd[MAX_MOVES * MOVE_LEN + 1024];
    position_cmd(cmd, sizeof cmd);
    if (eng(cmd, NULL, 0) == 0)
        return 0;
    rebase();
    position_cmd(cmd, sizeof cmd);
    return eng(cmd, NULL, 0) == 0 ? 0 : -1;
}

static int same_board(const char *a, const char *b)
{
    char ga[OT_SQ], gb[OT_SQ];
    return ot_board_expand(a, ga, NULL, 0) >= 0 &&
           ot_board_expand(b, gb, NULL, 0) >= 0 && memcmp(ga, gb, OT_SQ) == 0;
}

/* A move was seen (by the opponent, or ours confirmed) and `board` is the
 * position after it.  Extend the history when the move explains the board,
 * else resynchronise from the board. */
static void observe(const char *move, const char *board, int mover_known,
                    int mover_white)
{
    char grid[OT_SQ], mv[MOVE_LEN], fen[OT_REC + 64];
    int np = ot_board_expand(board, grid, NULL, 0);
    if (np < 0)
        return;
    if (same_board(board, A.board))
        return; /* a repeat (after an error): nothing new */
    if (ot_move_simple(move, mv, sizeof mv, NULL, 0) != 0)
        mv[0] = '\0';
    int moverw = mover_known ? mover_white : !A.white;
    if (!mover_known && mv[0]) {
        const char *dash = strchr(mv, '-');
        int c = dash[1] - 'a', r = atoi(dash + 2) - 1;
        if (c >= 0 && c < OT_N && r >= 0 && r < OT_N && grid[r * OT_N + c] != ' ')
            moverw = grid[r * OT_N + c] != 't';
    }
    int quiet = np < A.pieces ? 0 : A.quiet + 1;
    if (mv[0] && A.nmoves < MAX_MOVES && moverw == A.white) {
        snprintf(A.moves[A.nmoves++], MOVE_LEN, "%s", mv);
        if (sync_engine() == 0 && A.nmoves > 0 &&
            eng("fen", fen, sizeof fen) == 0 && strncmp(fen, "fen ", 4) == 0) {
            char *sp = strchr(fen + 4, ' ');
            if (sp)
                *sp = '\0';
            if (same_board(fen + 4, board)) {
                ot_board_compact(grid, A.board, sizeof A.board);
                A.white = !moverw;
                A.pieces = np;
                A.quiet = quiet;
                A.nrejected = 0;
                if (A.quiet >= REBASE_QUIET)
                    rebase();
                return;
            }
        }
        if (A.nmoves > 0)
            A.nmoves--;
    }
    A.quiet = quiet;
    set_position(board, !moverw);
}

/* ---- searching ---------------------------------------------------------------------- */

struct pvline {
    char pv[1024];
    char score[32];
};

static void handle_line(char *line);

/* Wait for the engine's bestmove; OpenTafl lines arriving meanwhile are
 * queued, except finish/goodbye/quit which stop the search.  For analysis,
 * the last info line of each multipv index is kept. */
static int await_bestmove(char *best, size_t n, struct pvline *pvs, int npv)
{
    char line[CTL_LINE_MAX];
    int stopped = 0;
    for (;;) {
        int r;
        while ((r = ctl_client_take(&A.eng, line, sizeof line)) == CTL_IO_LINE) {
            if (strncmp(line, "bestmove ", 9) == 0) {
                lio_log(A.log, "e>", line);
                char *tok[4];
                int k = str_split(line, tok, 4);
                snprintf(best, n, "%s", k > 1 ? tok[1] : "");
                return stopped ? 1 : 0;
            }
            if (strncmp(line, "error", 5) == 0) {
                lio_log(A.log, "e>", line);
                best[0] = '\0';
                return -1;
            }
            if (pvs && strncmp(line, "info ", 5) == 0) {
                char *mp = strstr(line, " multipv "), *sc = strstr(line, " score ");
                char *pv = strstr(line, " pv ");
                int k = mp ? atoi(mp + 9) : 1;
                if (k >= 1 && k <= npv && sc && pv) {
                    char kind[16] = "";
                    int val = 0;
                    sscanf(sc + 7, "%15s %d", kind, &val);
                    double v = strcmp(kind, "cp") == 0 ? val / 100.0
                               : strcmp(kind, "win") == 0 ? 1000.0 - val
                                                          : -1000.0 + val;
                    snprintf(pvs[k - 1].score, sizeof pvs[k - 1].score, "%.2f", v);
                    size_t len = 0;
                    pvs[k - 1].pv[0] = '\0';
                    char *save, *t = strtok_r(pv + 4, " ", &save);
                    for (; t; t = strtok_r(NULL, " ", &save))
                        buf_printf(pvs[k - 1].pv, sizeof pvs[k - 1].pv, &len,
                                   "%s%s", len ? "|" : "", t);
                }
            }
        }
        if (r == CTL_IO_EOF) {
            A.engine_ok = 0;
            return -1;
        }
        /* the engine's output and, while there is room, stdin */
        struct pollfd p[3];
        int ne = ctl_client_pollfds(&A.eng, p);
        int np = ne;
        if (!A.in.eof && A.nqueue < QUEUE)
            p[np++] = (struct pollfd){.fd = 0, .events = POLLIN};
        if (poll(p, (nfds_t)np, 1000) < 0 && errno != EINTR)
            return -1;
        if (np > ne && p[ne].revents) {
            lio_fill(&A.in, 0);
            char in[1 << 16];
            while (A.nqueue < QUEUE && lio_take(&A.in, in, sizeof in)) {
                if (!in[0])
                    continue;
                lio_log(A.log, "<", in);
                if (str_prefix(in, "finish") || str_prefix(in, "goodbye") ||
                    strcmp(in, "quit") == 0) {
                    if (!stopped)
                        send_eng("stop");
                    stopped = 1;
                }
                A.queue[A.nqueue++] = xstrdup(in);
            }
        }
        if (A.in.eof && !stopped) {
            send_eng("stop");
            stopped = 1;
        }
    }
}

static void limits_for_play(char *buf, size_t n)
{
    if (A.limits[0]) {
        snprintf(buf, n, "%s", A.limits);
        return;
    }
    if (!A.have_clock || (A.ms[A.white] <= 0 && A.ot_ms <= 0)) {
        snprintf(buf, n, "movetime %d", A.movetime);
        return;
    }
    int me = A.white;
    if (A.in_ot[me]) {
        int64_t t = A.ms[me] * 6 / 10 - 100;
        snprintf(buf, n, "movetime %lld", (long long)(t < 50 ? 50 : t));
        return;
    }
    size_t len = 0;
    for (int s = 0; s < 2; s++) {
        int64_t inc = A.ots[s] > 0 ? A.ot_ms : 0;
        buf_printf(buf, n, &len, "%sp%dtime %lld p%dinc %lld", s ? " " : "",
                   s + 1, (long long)(A.in_ot[s] ? 0 : A.ms[s]), s + 1,
                   (long long)inc);
    }
}

static int is_rejected(const char *m)
{
    for (int i = 0; i < A.nrejected; i++)
        if (strcmp(A.rejected[i], m) == 0)
            return 1;
    return 0;
}

/* A legal move OpenTafl has not refused yet (first in the engine's list). */
static int fallback_move(char *best, size_t n)
{
    static char payload[1 << 16];
    if (eng("legalmoves", payload, sizeof payload) != 0)
        return -1;
    char *tok[1024];
    int k = str_split(payload, tok, 1024);
    for (int i = 1; i < k; i++)
        if (!is_rejected(tok[i])) {
            snprintf(best, n, "%s", tok[i]);
            return 0;
        }
    return -1;
}

static void play(int white)
{
    char lim[512], cmd[600], best[64];
    if (!A.engine_ok) {
        out("error -1 Medan: the engine is not running");
        return;
    }
    if (!A.have_rules) {
        out("error -1 Medan: play before rules");
        return;
    }
    if (white != A.white) {
        A.white = white;
        rebase();
    }
    if (sync_engine() != 0) {
        out("error -1 Medan: the engine refused the position %s", A.board);
        return;
    }
    limits_for_play(lim, sizeof lim);
    snprintf(cmd, sizeof cmd, "go %s", lim);
    lio_log(A.log, "e<", cmd);
    send_eng("%s", cmd);
    int r = await_bestmove(best, sizeof best, NULL, 0);
    if (r == 1)
        return; /* the game was finished meanwhile */
    if (r == 0 && best[0] && is_rejected(best) && A.nrejected < 16) {
        /* OpenTafl refused this move: take the best one it has not. */
        struct pvline pvs[17];
        memset(pvs, 0, sizeof pvs);
        send_eng("%s multipv %d", cmd, A.nrejected + 1);
        r = await_bestmove(best, sizeof best, pvs, A.nrejected + 1);
        if (r == 1)
            return;
        for (int i = 0; i <= A.nrejected && r == 0; i++) {
            char first[MOVE_LEN];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(pvs[i].pv, "|"),
                     pvs[i].pv);
            if (first[0] && !is_rejected(first)) {
                snprintf(best, sizeof best, "%s", first);
                break;
            }
        }
    }
    if (r < 0 || !best[0] || is_rejected(best)) {
        if (!A.engine_ok || fallback_move(best, sizeof best) != 0) {
            out("error -1 Medan: no move to play here");
            return;
        }
    }
    snprintf(A.pending, sizeof A.pending, "%.15s", best);
    out("move %s", best);
}

static void analyze(int nmoves, int secs)
{
    char cmd[600], best[64];
    struct pvline pvs[16];
    if (!A.engine_ok || !A.have_rules)
        return;
    if (nmoves < 1)
        nmoves = 1;
    if (nmoves > 16)
        nmoves = 16;
    memset(pvs, 0, sizeof pvs);
    if (sync_engine() != 0) {
        out("error 0 Medan: the engine refused the position");
        return;
    }
    int ms = secs * 1000 - 200;
    snprintf(cmd, sizeof cmd, "go movetime %d multipv %d", ms < 100 ? 100 : ms,
             nmoves);
    if (A.limits[0])
        snprintf(cmd, sizeof cmd, "go %s multipv %d", A.limits, nmoves);
    lio_log(A.log, "e<", cmd);
    send_eng("%s", cmd);
    int r = await_bestmove(best, sizeof best, pvs, nmoves);
    if (r == 1)
        return;
    char line[8192];
    size_t len = 0;
    int k = 0;
    for (int i = 0; i < nmoves; i++)
        if (pvs[i].pv[0]) {
            k++;
            buf_printf(line, sizeof line, &len, " %s %s", pvs[i].pv, pvs[i].score);
        }
    if (!k && best[0]) {
        k = 1;
        buf_printf(line, sizeof line, &len, " %s 0", best);
    }
    if (k)
        out("analysis %d%s", k, line);
    else
        out("error 0 Medan: nothing to analyze here");
}

/* ---- OTEP commands ------------------------------------------------------------------- */

static void cmd_rules(const char *rec)
{
    char err[256];
    struct ot_rules r;
    if (ot_rules_parse(rec, &r, err, sizeof err) != 0) {
        A.have_rules = 0;
        out("error -1 Medan cannot play these rules: %s", err);
        return;
    }
    A.rules = r;
    A.have_rules = 1;
    A.quiet = 0;
    A.pending[0] = '\0';
    eng("newgame", NULL, 0);
    set_position(r.start, !r.attackers_first);
    if (sync_engine() != 0) {
        A.have_rules = 0;
        out("error -1 Medan cannot play this start position");
        return;
    }
    /* Never an unsolicited `status`: OpenTafl 0.4.8 hands it to the game's
     * UI callback, which is null until the game screen is up, and the
     * NullPointerException ends OpenTafl.  Notes go to the --log file. */
    if (r.surround_fatal)
        lio_log(A.log, "#", "playing Fetlar; OpenTafl's encirclement win (surf:y) "
                   "is not part of Medan's rules");
}

static void cmd_clock(char **tok, int k)
{
    if (k < 3)
        return;
    for (int s = 0; s < 2; s++) {
        A.in_ot[s] = strchr(tok[1 + s], '*') != NULL;
        A.ms[s] = atoll(tok[1 + s]);
    }
    A.ot_ms = k > 3 ? atoll(tok[3]) * 1000 : 0;
    A.ots[0] = k > 4 ? atoi(tok[4]) : 0;
    A.ots[1] = k > 5 ? atoi(tok[5]) : 0;
    A.have_clock = 1;
}

static int finished;

static void handle_line(char *line)
{
    char copy[1 << 16], *tok[64];
    lio_log(A.log, "<", line);
    snprintf(copy, sizeof copy, "%s", line);
    int k = str_split(copy, tok, 64);
    if (k == 0)
        return;
    const char *c = tok[0];
    if (strcmp(c, "rules") == 0) {
        const char *p = line + 5;
        while (*p == ' ' || *p == '\t')
            p++;
        cmd_rules(p);
    } else if (strcmp(c, "position") == 0 && k >= 2) {
        char err[128];
        char grid[OT_SQ];
        if (ot_board_expand(tok[1], grid, err, sizeof err) < 0) {
            out("error 0 Medan cannot read this position: %s", err);
            return;
        }
        A.quiet = 0;
        set_position(tok[1], A.white);
    } else if (strcmp(c, "side") == 0 && k >= 2) {
        int w = strcmp(tok[1], "defenders") == 0;
        if (w != A.white) {
            A.white = w;
            rebase();
        }
    } else if (strcmp(c, "opponent-move") == 0 && k >= 3) {
        /* berserk lists (a|b) do not occur in Fetlar: take the last move */
        char *mv = strrchr(tok[1], '|');
        observe(mv ? mv + 1 : tok[1], tok[2], 0, 0);
    } else if (strcmp(c, "move") == 0 && k >= 2) {
        if (A.pending[0])
            observe(A.pending, tok[1], 1, A.white);
        A.pending[0] = '\0';
    } else if (strcmp(c, "error") == 0) {
        if (A.pending[0] && A.nrejected < 32)
            snprintf(A.rejected[A.nrejected++], MOVE_LEN, "%s", A.pending);
        A.pending[0] = '\0';
    } else if (strcmp(c, "play") == 0 && k >= 2) {
        play(strcmp(tok[1], "defenders") == 0);
    } else if (strcmp(c, "clock") == 0) {
        cmd_clock(tok, k);
    } else if (strcmp(c, "analyze") == 0 && k >= 3) {
        analyze(atoi(tok[1]), atoi(tok[2]));
    } else if (strcmp(c, "finish") == 0) {
        A.pending[0] = '\0';
    } else if (strcmp(c, "goodbye") == 0 || strcmp(c, "quit") == 0) {
        finished = 1;
    } else if (strcmp(c, "ping") == 0) {
        out("pong%s%s", k > 1 ? " " : "", k > 1 ? tok[1] : "");
    } else if (strcmp(c, "medan-limits") == 0) {
        const char *p = line + strlen("medan-limits");
        while (*p == ' ')
            p++;
        snprintf(A.limits, sizeof A.limits, "%s", p);
    } else if (strcmp(c, "medan-state") == 0) {
        char fen[OT_REC + 64];
        if (sync_engine() == 0 && eng("fen", fen, sizeof fen) == 0)
            out("status %s moves %d", fen, A.nmoves);
        else
            out("status no position");
    }
    /* anything else (simple-moves, status, ...) needs no answer */
}

static void usage_error(const char *msg)
{
    out("hello");
    out("error -1 Medan: %s", msg);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: medan-opentafl [ENGINE] [--engine PATH] [--movetime MS]\n"
            "                      [--option NAME=VALUE]... [--log FILE]\n"
            "       medan-opentafl --help | --version\n"
            "  speaks the OpenTafl Engine Protocol on stdin/stdout (run by OpenTafl)\n"
            "  and plays through a MEP engine: ENGINE, default medan-fetlar beside\n"
            "  this program.  --movetime: per move without a clock (default %d ms).\n"
            "  man medan-opentafl for the details.\n",
            DEFAULT_MOVETIME);
}

int main(int argc, char **argv)
{
    char engine[PATH_MAX] = "";
    char *opts[64];
    int nopts = 0;
    A.movetime = DEFAULT_MOVETIME;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
                      strcmp(argv[1], "help") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("medan-opentafl (Medan) %s\n", MEDAN_VERSION);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!a[0])
            continue;
        if (strcmp(a, "--engine") == 0 && i + 1 < argc)
            snprintf(engine, sizeof engine, "%s", argv[++i]);
        else if (strcmp(a, "--movetime") == 0 && i + 1 < argc)
            A.movetime = atoi(argv[++i]) > 0 ? atoi(argv[i]) : DEFAULT_MOVETIME;
        else if (strcmp(a, "--option") == 0 && i + 1 < argc && nopts < 64)
            opts[nopts++] = argv[++i];
        else if (strcmp(a, "--log") == 0 && i + 1 < argc)
            A.log = fopen(argv[++i], "a");
        else if (a[0] != '-')
            snprintf(engine, sizeof engine, "%s", a);
        else {
            usage_error("unknown argument (see docs/gui-adapters/opentafl.md)");
            fprintf(stderr, "medan-opentafl: unknown argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!engine[0]) {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n > 0) {
            self[n] = '\0';
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = '\0';
            snprintf(engine, sizeof engine, "%.*s/medan-fetlar",
                     (int)(sizeof engine - 16), self);
        } else
            snprintf(engine, sizeof engine, "medan-fetlar");
    }
    out("hello");
    {
        /* a bare name is a file here, as for execl(): never a PATH lookup */
        char path[PATH_MAX + 2], err[600];
        snprintf(path, sizeof path, "%s%s", strchr(engine, '/') ? "" : "./", engine);
        struct ctl_engine_spec spec = {.name = "engine", .cmd = path};
        /* mep, mepok, isready, readyok; stderr to /dev/null */
        A.engine_ok = ctl_client_start(&A.eng, &spec, NULL, 10000, err, sizeof err) == CTL_OK;
        if (!A.engine_ok) /* nothing can be played: say so and leave */
            lio_log(A.log, "#", err);
    }
    if (!A.engine_ok) {
        out("error -1 Medan: cannot start the engine %s", engine);
        fprintf(stderr, "medan-opentafl: cannot start the engine %s\n", engine);
        return 1;
    }
    for (int i = 0; A.engine_ok && i < nopts; i++) {
        char cmd[512];
        char *eq = strchr(opts[i], '=');
        if (!eq)
            continue;
        snprintf(cmd, sizeof cmd, "setoption name %.*s value %s",
                 (int)(eq - opts[i]), opts[i], eq + 1);
        if (eng(cmd, NULL, 0) != 0)
            lio_log(A.log, "#", "the engine refused an --option (see the line above)");
    }
    out("simple-moves on");
    char line[1 << 16];
    while (!finished) {
        if (A.nqueue) {
            char *q = A.queue[0];
            memmove(A.queue, A.queue + 1, (size_t)--A.nqueue * sizeof *A.queue);
            snprintf(line, sizeof line, "%s", q);
            free(q);
            if (line[0])
                handle_line(line);
            continue;
        }
        if (lio_take(&A.in, line, sizeof line)) {
            if (line[0])
                handle_line(line);
            continue;
        }
        if (A.in.eof)
            break;
        lio_fill(&A.in, 0);
    }
    ctl_proc_stop(&A.eng.proc, 1000); /* quit, then kill */
    if (A.log)
        fclose(A.log);
    return 0;
}
