/* main.c - medan-xboard: a CECP (WinBoard protocol v2) engine on
 * stdin/stdout that plays through a MEP engine run as a child
 * (control/client.h), for XBoard/WinBoard.
 *
 *   medan-xboard [ENGINE] [--option NAME=VALUE]... [--log FILE]
 *
 * Without ENGINE it offers both games, `variant loa` and `variant fetlar`,
 * running medan-loa or medan-fetlar from beside this binary (the child is
 * switched by `variant`); with ENGINE only that engine's game.  The game is
 * a base position plus the moves since (MEP tokens); the child is told the
 * whole game before every search, so it sees the history.  Legality,
 * results and the capture victims are the engine's: the adapter asks it
 * (legalmoves, fen, result) and never guesses.  docs/gui-adapters/xboard.md.
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
#include "xbgame.h"

#define MAX_MOVES 2048
#define MOVE_LEN 16
#define ENGINE_MS 30000 /* an engine command's answer */
#define MAX_OPTS 64
#define DEFAULT_MOVETIME 2000

static struct {
    struct ctl_client eng;
    struct ctl_engine_spec spec;
    int engine_ok;
    char engine[PATH_MAX]; /* the child's path */
    int fixed;             /* ENGINE given: only its game */
    char bindir[PATH_MAX];
    FILE *log;
    const char *start_fen; /* --fen: the start of every game, or NULL */
    const struct xb_game *g;
    /* the game */
    char base[XB_FEN_MAX];
    char moves[MAX_MOVES][MOVE_LEN];
    int nmoves;
    struct xb_pos pos;     /* after the moves */
    int force, over, post, analyzing, thinking, stop_sent;
    /* clocks (ms), -1 = not given */
    int64_t time_ms, otim_ms, base_ms, inc_ms, st_ms;
    int mps, sd;
    /* move entry (lift/put) */
    int lift_from, nclicked, clicked[2];
    char cyan[XB_SQ];
    /* options: from the command line and CECP `option`, re-sent to a new
     * child */
    char *opt_name[MAX_OPTS], *opt_val[MAX_OPTS];
    int nopts;
    /* pongs owed until our move is out (CECP: never before it) */
    char pong[16][32];
    int npong;
    /* stdin */
    struct lio_in in;
} X;

/* ---- output --------------------------------------------------------------- */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lio_vout(X.log, fmt, ap);
    va_end(ap);
}

/* ---- the engine ------------------------------------------------------------- */

static int64_t deadline(void)
{
    return now_us() + (int64_t)ENGINE_MS * 1000;
}

/* A command to its final line, its other lines (not info) in payload.
 * 0 ok, 1 error (the message in X.eng.last_error), -1 the engine is gone. */
static int eng(const char *cmd, char *payload, size_t pn)
{
    if (!X.engine_ok)
        return -1;
    lio_log(X.log, "e<", cmd);
    int r = ctl_client_query(&X.eng, deadline(), cmd, payload, pn);
    if (r == CTL_OK)
        return 0;
    if (r == CTL_ERROR) {
        lio_log(X.log, "e>", X.eng.last_error);
        return 1;
    }
    X.engine_ok = 0;
    lio_log(X.log, "e>", "(engine gone)");
    return -1;
}

/* Is a search on whose end a ping must wait: our move, or an analysis
 * bounded by sd (it ends by itself)? */
static int busy_for_ping(void)
{
    return X.engine_ok && (X.thinking || (X.analyzing && X.sd > 0 && X.eng.searching));
}

static void flush_pongs(void)
{
    for (int i = 0; i < X.npong; i++)
        out("pong %s", X.pong[i]);
    X.npong = 0;
}

/* End a running search, its bestmove thrown away. */
static void halt(void)
{
    if (X.engine_ok && X.eng.searching) {
        lio_log(X.log, "e<", "stop");
        if (ctl_client_sync(&X.eng, deadline()) != CTL_OK)
            X.engine_ok = 0;
    }
    X.thinking = 0;
    X.stop_sent = 0;
    flush_pongs();
}

static void position_cmd(char *buf, size_t n, const char *extra)
{
    size_t len = 0;
    buf_printf(buf, n, &len, "position fen %s", X.base);
    if (X.nmoves || extra)
        buf_printf(buf, n, &len, " moves");
    for (int i = 0; i < X.nmoves; i++)
        buf_printf(buf, n, &len, " %s", X.moves[i]);
    if (extra)
        buf_printf(buf, n, &len, " %s", extra);
}

/* Set the engine to the game (plus `extra`, a move, when not NULL) and read
 * the position back into p.  0, 1 refused, -1 engine gone. */
static int sync_to(const char *extra, struct xb_pos *p)
{
    static char cmd[MAX_MOVES * MOVE_LEN + 1024];
    char fen[1024], err[128];
    position_cmd(cmd, sizeof cmd, extra);
    int r = eng(cmd, NULL, 0);
    if (r != 0)
        return r;
    if (eng("fen", fen, sizeof fen) != 0 || strncmp(fen, "fen ", 4) != 0)
        return -1;
    return xb_pos_from_mep(X.g, fen + 4, p, err, sizeof err) == 0 ? 0 : -1;
}

/* The engine's legal moves (tokens in buf, pointers in tok). */
static int legal_moves(char *buf, size_t n, char **tok, int max)
{
    static char cmd[MAX_MOVES * MOVE_LEN + 1024];
    position_cmd(cmd, sizeof cmd, NULL);
    if (eng(cmd, NULL, 0) != 0 || eng("legalmoves", buf, n) != 0 ||
        strncmp(buf, "moves", 5) != 0)
        return -1;
    int k = str_split(buf, tok, max);
    return k - 1; /* tok[0] is "moves" */
}

/* The CECP form of an MEP move in the current position, with its victims
 * (from the engine's position after it).  0 or -1. */
static int move_for_xboard(const char *tok, char *out_, size_t n, int *nvict)
{
    int from, to, vict[8];
    struct xb_pos after;
    if (xb_mep_squares(X.g, tok, &from, &to) != 0)
        return -1;
    *nvict = 0;
    if (X.g->victims_apart) {
        if (sync_to(tok, &after) != 0)
            return -1;
        *nvict = xb_victims(X.g, &X.pos, &after, from, to, vict, 8);
    }
    xb_move_format(X.g, from, to, vict, *nvict, out_, n);
    return 0;
}

/* Append an MEP move to the game.  0, or -1 (refused: nothing changed). */
static int push_move(const char *tok)
{
    struct xb_pos p;
    if (X.nmoves >= MAX_MOVES || strlen(tok) >= MOVE_LEN)
        return -1;
    if (sync_to(tok, &p) != 0)
        return -1;
    snprintf(X.moves[X.nmoves++], MOVE_LEN, "%s", tok);
    X.pos = p;
    return 0;
}

/* Report the end of the game if it is over.  1 over, 0 not. */
static int check_result(void)
{
    char buf[512], *tok[8];
    static char cmd[MAX_MOVES * MOVE_LEN + 1024];
    position_cmd(cmd, sizeof cmd, NULL);
    if (eng(cmd, NULL, 0) != 0 || eng("result", buf, sizeof buf) != 0)
        return 0;
    int k = str_split(buf, tok, 8);
    if (k < 4 || strcmp(tok[1], "none") == 0)
        return 0;
    const char *reason = strcmp(tok[2], "reason") == 0 ? tok[3] : "end";
    char why[64];
    snprintf(why, sizeof why, "%s", reason);
    for (char *q = why; *q; q++)
        if (*q == '_')
            *q = ' ';
    X.over = 1;
    if (strcmp(tok[1], "p1win") == 0)
        out("1-0 {%s: %s}", X.g->seat[0], why);
    else if (strcmp(tok[1], "p2win") == 0)
        out("0-1 {%s: %s}", X.g->seat[1], why);
    else
        out("1/2-1/2 {Draw: %s}", why);
    return 1;
}

/* ---- searching -------------------------------------------------------------- */

static void limits(char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    if (X.sd > 0)
        buf_printf(buf, n, &len, "depth %d ", X.sd);
    if (X.st_ms > 0) {
        buf_printf(buf, n, &len, "movetime %lld", (long long)X.st_ms);
        return;
    }
    if (X.time_ms < 0 && X.base_ms < 0) {
        if (X.sd <= 0)
            buf_printf(buf, n, &len, "movetime %d", DEFAULT_MOVETIME);
        return;
    }
    int me = X.pos.first_to_move ? 1 : 2;
    int64_t mine = X.time_ms >= 0 ? X.time_ms : X.base_ms;
    int64_t theirs = X.otim_ms >= 0 ? X.otim_ms : mine;
    int64_t inc = X.inc_ms > 0 ? X.inc_ms : 0;
    buf_printf(buf, n, &len, "p%dtime %lld p%dtime %lld p1inc %lld p2inc %lld",
               me, (long long)(mine > 0 ? mine : 1), 3 - me,
               (long long)(theirs > 0 ? theirs : 1), (long long)inc,
               (long long)inc);
    if (X.mps > 0) {
        int done = X.nmoves / 2;
        buf_printf(buf, n, &len, " movestogo %d", X.mps - done % X.mps);
    }
}

static void start_search(int analyse)
{
    static char cmd[MAX_MOVES * MOVE_LEN + 1024];
    char lim[256];
    if (!X.engine_ok) {
        out("tellusererror Medan: the engine is not running");
        return;
    }
    position_cmd(cmd, sizeof cmd, NULL);
    if (eng(cmd, NULL, 0) != 0)
        return;
    if (analyse && X.sd > 0) /* sd bounds an analysis too */
        snprintf(lim, sizeof lim, "depth %d", X.sd);
    else if (analyse)
        snprintf(lim, sizeof lim, "infinite");
    else
        limits(lim, sizeof lim);
    snprintf(cmd, sizeof cmd, "go %s", lim);
    lio_log(X.log, "e<", cmd);
    if (ctl_client_go_async(&X.eng, deadline(), lim) != CTL_OK) {
        X.engine_ok = 0;
        return;
    }
    X.thinking = !analyse;
}

static void think_if_our_turn(void)
{
    if (!X.force && !X.over && !X.analyzing && !X.thinking)
        start_search(0);
}

static void restart_analysis(void)
{
    if (X.analyzing && !X.over && !X.eng.searching) {
        /* a finished position has nothing to analyse */
        char buf[512];
        static char cmd[MAX_MOVES * MOVE_LEN + 1024];
        position_cmd(cmd, sizeof cmd, NULL);
        if (eng(cmd, NULL, 0) == 0 && eng("result", buf, sizeof buf) == 0 &&
            strcmp(buf, "result none") == 0)
            start_search(1);
    }
}

/* `info ... depth D ... score cp S ... nodes N ... time T ... pv m...` ->
 * CECP thinking output "D S T N pv" (T in centiseconds). */
static void thinking_line(char *line)
{
    char *tok[512];
    int k = str_split(line, tok, 512);
    long long depth = -1, score = 0, nodes = 0, ms = 0;
    int have_score = 0, pv = -1;
    for (int i = 1; i < k; i++) {
        if (strcmp(tok[i], "depth") == 0 && i + 1 < k)
            depth = atoll(tok[++i]);
        else if (strcmp(tok[i], "nodes") == 0 && i + 1 < k)
            nodes = atoll(tok[++i]);
        else if (strcmp(tok[i], "time") == 0 && i + 1 < k)
            ms = atoll(tok[++i]);
        else if (strcmp(tok[i], "score") == 0 && i + 2 < k) {
            long long v = atoll(tok[i + 2]);
            have_score = 1;
            if (strcmp(tok[i + 1], "cp") == 0)
                score = v;
            else if (strcmp(tok[i + 1], "win") == 0)
                score = 100000 + (v + 1) / 2;
            else if (strcmp(tok[i + 1], "loss") == 0)
                score = -100000 - (v + 1) / 2;
            else
                have_score = 0;
            i += 2;
        } else if (strcmp(tok[i], "pv") == 0) {
            pv = i + 1;
            break;
        }
    }
    if (depth < 0 || !have_score)
        return;
    char pvs[4096];
    size_t len = 0;
    pvs[0] = '\0';
    for (int i = pv; pv > 0 && i < k; i++) {
        int from, to;
        char a[16], b[16];
        if (xb_mep_squares(X.g, tok[i], &from, &to) != 0)
            break;
        xb_square_name(X.g, from, a, sizeof a);
        xb_square_name(X.g, to, b, sizeof b);
        buf_printf(pvs, sizeof pvs, &len, " %s%s", a, b);
    }
    out("%lld %lld %lld %lld%s", depth, score, ms / 10, nodes, pvs);
}

/* The engine's bestmove of a game search: play it. */
static void engine_moved(const char *tok)
{
    char mv[64];
    int nvict = 0;
    if (move_for_xboard(tok, mv, sizeof mv, &nvict) != 0 || push_move(tok) != 0) {
        out("tellusererror Medan: the engine's move %s was refused", tok);
        return;
    }
    if (nvict > 2)
        out("# %s removes %d pieces; XBoard shows only two of them", tok, nvict);
    out("move %s", mv);
    check_result();
}

static void engine_line(char *line)
{
    if (strncmp(line, "info ", 5) == 0) {
        if (X.post || X.analyzing)
            thinking_line(line);
        return;
    }
    if (strncmp(line, "bestmove", 8) == 0) {
        char copy[256], *tok[4];
        lio_log(X.log, "e>", line);
        snprintf(copy, sizeof copy, "%.*s", (int)sizeof copy - 1, line);
        int k = str_split(copy, tok, 4);
        int was = X.thinking;
        X.thinking = 0;
        if (X.stop_sent) { /* a `stop` may still be answered `ok` */
            X.stop_sent = 0;
            if (ctl_client_sync(&X.eng, deadline()) != CTL_OK)
                X.engine_ok = 0;
        }
        if (was && k > 1 && strcmp(tok[1], "pass") != 0)
            engine_moved(tok[1]);
        flush_pongs();
        return;
    }
    if (strncmp(line, "error", 5) == 0) {
        lio_log(X.log, "e>", line);
        if (X.thinking) {
            X.thinking = 0;
            out("tellusererror Medan: the engine refused to search: %.200s", line);
            flush_pongs();
        }
    }
}

/* ---- the child -------------------------------------------------------------- */

static void send_options(void)
{
    for (int i = 0; i < X.nopts && X.engine_ok; i++) {
        char cmd[1024];
        if (X.opt_val[i])
            snprintf(cmd, sizeof cmd, "setoption name %s value %s", X.opt_name[i],
                     X.opt_val[i]);
        else
            snprintf(cmd, sizeof cmd, "setoption name %s", X.opt_name[i]);
        if (eng(cmd, NULL, 0) == 1)
            out("# the engine refused: %s (%s)", cmd, X.eng.last_error);
    }
}

/* Start `path` as the child.  0, or -1 with a message said. */
static int start_engine(const char *path)
{
    char err[600];
    if (X.engine_ok)
        ctl_client_quit(&X.eng);
    X.engine_ok = 0;
    snprintf(X.engine, sizeof X.engine, "%s", path);
    memset(&X.spec, 0, sizeof X.spec);
    X.spec.name = "engine";
    X.spec.cmd = X.engine;
    if (ctl_client_start(&X.eng, &X.spec, NULL, 10000, err, sizeof err) != CTL_OK) {
        lio_log(X.log, "#", err);
        return -1;
    }
    X.engine_ok = 1;
    const struct xb_game *g = xb_game_find(X.eng.game);
    if (g)
        X.g = g;
    else { /* X.g stays the previous game (never NULL once set) */
        ctl_client_quit(&X.eng);
        X.engine_ok = 0;
        snprintf(err, sizeof err, "the engine plays '%s'; medan-xboard shows %s",
                 X.eng.game, xb_game_names());
        lio_log(X.log, "#", err);
        return -1;
    }
    send_options();
    return 0;
}

/* A new game of the current variant at its start. */
static void new_game(void)
{
    char fen[1024], err[128];
    halt();
    X.nmoves = 0;
    X.over = 0;
    X.lift_from = -1;
    if (X.start_fen) { /* --fen, where the engine takes it */
        char cmd[XB_FEN_MAX + 32];
        snprintf(cmd, sizeof cmd, "position fen %.*s", XB_FEN_MAX - 1, X.start_fen);
        if (eng("newgame", NULL, 0) == 0 && eng(cmd, NULL, 0) != 0)
            out("# --fen refused by the engine: %s", X.eng.last_error);
    } else if (eng("newgame", NULL, 0) != 0) {
        out("tellusererror Medan: the engine refused newgame");
        return;
    }
    if (eng("fen", fen, sizeof fen) != 0 ||
        strncmp(fen, "fen ", 4) != 0 ||
        xb_pos_from_mep(X.g, fen + 4, &X.pos, err, sizeof err) != 0) {
        out("tellusererror Medan: the engine gives no start position");
        return;
    }
    snprintf(X.base, sizeof X.base, "%.*s", (int)sizeof X.base - 1, fen + 4);
}

static void send_setup(void)
{
    char xfen[XB_FEN_MAX];
    xb_pos_to_xb(X.g, &X.pos, xfen, sizeof xfen);
    out("setup (%s) %dx%d+0_fairy %s", X.g->table, X.g->n, X.g->n, xfen);
}

static void features(void)
{
    char buf[1 << 16], *lines[256];
    out("feature done=0");
    out("feature myname=\"%s (medan-xboard %s)\"",
        X.fixed && X.eng.id_name[0] ? X.eng.id_name : "Medan", MEDAN_VERSION);
    out("feature variants=\"%s\"", X.fixed ? X.g->name : xb_game_names());
    out("feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 "
        "reuse=1 analyze=1 colors=0 san=0 name=0 nps=0 memory=0 smp=0 "
        "exclude=0 pause=0 debug=1 highlight=1 playother=0");
    /* the engine's options, as CECP options */
    size_t bl = 0;
    buf[0] = '\0';
    if (X.engine_ok && ctl_client_send(&X.eng, deadline(), "mep") == 0) {
        char l[CTL_LINE_MAX];
        int64_t dl = deadline();
        for (;;) {
            int r = ctl_client_read(&X.eng, dl, l, sizeof l);
            if (r != CTL_IO_LINE) {
                X.engine_ok = 0;
                break;
            }
            if (strcmp(l, "mepok") == 0)
                break;
            if (strncmp(l, "option ", 7) == 0)
                buf_printf(buf, sizeof buf, &bl, "%s\n", l);
        }
    }
    {
        int k = 0;
        for (char *save, *l = strtok_r(buf, "\n", &save); l && k < 256;
             l = strtok_r(NULL, "\n", &save))
            lines[k++] = l;
        for (int i = 0; i < k; i++) {
            char *tok[300];
            if (strncmp(lines[i], "option name ", 12) != 0)
                continue;
            int n = str_split(lines[i], tok, 300);
            if (n < 5 || strcmp(tok[3], "type") != 0)
                continue;
            const char *name = tok[2], *type = tok[4];
            const char *def = "", *min = "0", *max = "0";
            char vars[2048];
            size_t vl = 0;
            vars[0] = '\0';
            for (int j = 5; j + 1 < n; j++) {
                if (strcmp(tok[j], "default") == 0)
                    def = tok[++j];
                else if (strcmp(tok[j], "min") == 0)
                    min = tok[++j];
                else if (strcmp(tok[j], "max") == 0)
                    max = tok[++j];
                else if (strcmp(tok[j], "var") == 0) {
                    const char *v = tok[++j];
                    buf_printf(vars, sizeof vars, &vl, "%s%s%s", vl ? " /// " : "",
                               strcmp(v, def) == 0 ? "*" : "", v);
                }
            }
            if (strcmp(def, "<empty>") == 0)
                def = "";
            /* XBoard reads spins as int */
            if (strcmp(type, "spin") == 0 && strlen(max) > 9)
                max = "2147483647";
            if (strcmp(type, "spin") == 0)
                out("feature option=\"%s -spin %s %s %s\"", name, def, min, max);
            else if (strcmp(type, "check") == 0)
                out("feature option=\"%s -check %d\"", name, strcmp(def, "true") == 0);
            else if (strcmp(type, "combo") == 0)
                out("feature option=\"%s -combo %s\"", name, vars);
            else if (strcmp(type, "string") == 0)
                out("feature option=\"%s -string %s\"", name, def);
            else if (strcmp(type, "button") == 0)
                out("feature option=\"%s -button\"", name);
        }
    }
    out("feature done=1");
}

/* ---- move entry in the GUI ---------------------------------------------------- */

static int is_clicked(int sq)
{
    for (int i = 0; i < X.nclicked; i++)
        if (X.clicked[i] == sq)
            return 1;
    return 0;
}

/* `lift SQ`: mark where the piece can go.  Quiet moves yellow; a Fetlar
 * capture by its victims in cyan (XBoard's multi-leg entry: the user clicks
 * the victim(s), then the to-square, which the adapter clicks itself when
 * only one is left); LOA captures red. */
static void cmd_lift(const char *sqs)
{
    static char buf[1 << 16];
    char *tok[1024], colour[XB_SQ], fen[XB_FEN_MAX];
    int len, sq = xb_square(X.g, sqs, &len);
    if (sq < 0 || sqs[len] || X.eng.searching || X.over)
        return;
    if (X.lift_from >= 0 && X.cyan[sq] && X.nclicked < 2)
        X.clicked[X.nclicked++] = sq; /* a victim clicked: the next leg */
    else {
        X.lift_from = sq;
        X.nclicked = 0;
    }
    memset(colour, 0, sizeof colour);
    memset(X.cyan, 0, sizeof X.cyan);
    int k = legal_moves(buf, sizeof buf, tok, 1024);
    int yellow = 0, last_yellow = -1, ncyan = 0;
    for (int i = 1; i <= k; i++) {
        int from, to, vict[8], nv = 0;
        if (xb_mep_squares(X.g, tok[i], &from, &to) != 0 || from != X.lift_from)
            continue;
        if (X.g->victims_apart) {
            struct xb_pos after;
            if (sync_to(tok[i], &after) != 0)
                continue;
            nv = xb_victims(X.g, &X.pos, &after, from, to, vict, 8);
        }
        int shown = nv > 2 ? 2 : nv, match = 1;
        for (int j = 0; j < X.nclicked; j++) {
            int found = 0;
            for (int v = 0; v < shown; v++)
                found |= vict[v] == X.clicked[j];
            match &= found;
        }
        if (!match)
            continue;
        if (shown == X.nclicked) {
            colour[to] = X.g->victims_apart || X.pos.grid[to] == '.' ? 'Y' : 'R';
            yellow++;
            last_yellow = to;
        } else
            for (int v = 0; v < shown; v++)
                if (!is_clicked(vict[v]) && !X.cyan[vict[v]]) {
                    colour[vict[v]] = 'C';
                    X.cyan[vict[v]] = 1;
                    ncyan++;
                }
    }
    /* the board of colours, top rank first */
    size_t fl = 0;
    for (int r = X.g->n - 1; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < X.g->n; f++) {
            char c = colour[r * X.g->n + f];
            if (!c) {
                run++;
                continue;
            }
            if (run)
                buf_printf(fen, sizeof fen, &fl, "%d", run);
            run = 0;
            buf_printf(fen, sizeof fen, &fl, "%c", c);
        }
        if (run)
            buf_printf(fen, sizeof fen, &fl, "%d", run);
        if (r)
            buf_printf(fen, sizeof fen, &fl, "/");
    }
    out("highlight %s", fen);
    if (X.nclicked > 0 && yellow == 1 && ncyan == 0) {
        char name[16];
        xb_square_name(X.g, last_yellow, name, sizeof name);
        out("click %s", name);
    }
}

/* ---- CECP commands -------------------------------------------------------------- */

static void user_move(const char *mv)
{
    static char buf[1 << 16];
    char *tok[1024];
    int from, to, mid[2];
    if (X.over) {
        out("Illegal move (the game is over): %s", mv);
        return;
    }
    int nmid = xb_move_parse(X.g, mv, &from, &to, mid);
    if (nmid < 0) {
        out("Illegal move (not a move of %s): %.60s", X.g->name, mv);
        return;
    }
    halt();
    X.lift_from = -1;
    int k = legal_moves(buf, sizeof buf, tok, 1024);
    const char *found = NULL;
    for (int i = 1; i <= k && !found; i++) {
        int f, t;
        if (xb_mep_squares(X.g, tok[i], &f, &t) == 0 && f == from && t == to)
            found = tok[i];
    }
    if (!found) {
        out("Illegal move: %s", mv);
        return;
    }
    char token[MOVE_LEN];
    snprintf(token, sizeof token, "%s", found);
    if (X.g->victims_apart) {
        /* the squares XBoard passed must be the victims it will remove */
        struct xb_pos after;
        int vict[8];
        if (sync_to(token, &after) != 0) {
            out("Illegal move: %s", mv);
            return;
        }
        int nv = xb_victims(X.g, &X.pos, &after, from, to, vict, 8);
        int ok = nmid == (nv > 2 ? 2 : nv);
        for (int j = 0; j < nmid && ok; j++) {
            int hit = 0;
            for (int v = 0; v < nv && v < 8; v++)
                hit |= vict[v] == mid[j];
            ok &= hit;
        }
        if (!ok) {
            out("Illegal move (it captures %d, enter the victims): %s", nv, mv);
            return;
        }
    } else if (nmid) {
        out("Illegal move: %s", mv);
        return;
    }
    if (push_move(token) != 0) {
        out("Illegal move: %s", mv);
        return;
    }
    if (check_result())
        return;
    if (X.analyzing)
        restart_analysis();
    else
        think_if_our_turn();
}

static void cmd_variant(const char *name)
{
    const struct xb_game *g = xb_game_find(name);
    if (!g || (X.fixed && g != X.g)) {
        out("Error (unsupported variant): %.60s", name);
        return;
    }
    halt();
    if (g != X.g || !X.engine_ok) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/medan-%s", X.bindir, g->name);
        if (start_engine(path) != 0) {
            out("tellusererror Medan: cannot start %s", path);
            return;
        }
    }
    new_game();
    send_setup();
}

static void cmd_setboard(const char *fen)
{
    struct xb_pos p;
    char err[128], mep[XB_FEN_MAX], save[XB_FEN_MAX];
    halt();
    if (xb_pos_from_xb(X.g, fen, &p, err, sizeof err) != 0) {
        out("tellusererror Illegal position: %s", err);
        return;
    }
    xb_pos_to_mep(X.g, &p, mep, sizeof mep);
    snprintf(save, sizeof save, "%s", X.base);
    int n = X.nmoves;
    snprintf(X.base, sizeof X.base, "%s", mep);
    X.nmoves = 0;
    struct xb_pos q;
    if (sync_to(NULL, &q) != 0) {
        snprintf(X.base, sizeof X.base, "%s", save);
        X.nmoves = n;
        out("tellusererror Illegal position: %s", X.eng.last_error);
        return;
    }
    X.pos = q;
    X.over = 0;
    X.lift_from = -1;
    if (!check_result())
        restart_analysis();
}

static void cmd_undo(int n)
{
    halt();
    if (n > X.nmoves) {
        out("Error (no move to take back): %s", n == 1 ? "undo" : "remove");
        return;
    }
    X.nmoves -= n;
    struct xb_pos p;
    if (sync_to(NULL, &p) == 0)
        X.pos = p;
    X.over = 0;
    X.lift_from = -1;
    restart_analysis();
}

/* "5" or "0:30" minutes:seconds -> ms; -1 bad. */
static int64_t parse_base(const char *s)
{
    int64_t m = 0, sec = 0;
    char mm[32];
    const char *colon = strchr(s, ':');
    if (colon) {
        snprintf(mm, sizeof mm, "%.*s", (int)(colon - s), s);
        if (parse_i64(mm, 0, 100000, &m) != 0 || parse_i64(colon + 1, 0, 59, &sec) != 0)
            return -1;
    } else if (parse_i64(s, 0, 100000, &m) != 0)
        return -1;
    return (m * 60 + sec) * 1000;
}

static int64_t parse_secs(const char *s)
{
    double v;
    if (parse_real(s, 0, 1e7, &v) != 0)
        return -1;
    return (int64_t)(v * 1000 + 0.5);
}

static void set_option(const char *arg)
{
    char name[256], val[1024];
    const char *eq = strchr(arg, '=');
    snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
    snprintf(val, sizeof val, "%s", eq ? eq + 1 : "");
    char cmd[1400];
    if (eq)
        snprintf(cmd, sizeof cmd, "setoption name %s value %s", name, val);
    else
        snprintf(cmd, sizeof cmd, "setoption name %s", name);
    halt();
    int r = eng(cmd, NULL, 0);
    if (r != 0) {
        out("Error (option refused: %.200s): option %.100s",
            r > 0 ? X.eng.last_error : "the engine is gone", arg);
        return;
    }
    if (!eq) /* buttons are not kept */
        return;
    for (int i = 0; i < X.nopts; i++)
        if (str_ieq(X.opt_name[i], name)) {
            free(X.opt_val[i]);
            X.opt_val[i] = xstrdup(val);
            return;
        }
    if (X.nopts < MAX_OPTS) {
        X.opt_name[X.nopts] = xstrdup(name);
        X.opt_val[X.nopts++] = xstrdup(val);
    }
    restart_analysis();
}

static int printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 32 ? *s != '\t' : (unsigned char)*s > 126)
            return 0;
    return 1;
}

static int finished;

static void handle_line(char *line)
{
    char copy[1 << 16], *tok[16];
    lio_log(X.log, "<", line);
    if (!printable(line)) {
        out("Error (not printable ASCII): the line");
        return;
    }
    snprintf(copy, sizeof copy, "%s", line);
    int k = str_split(copy, tok, 16);
    if (k == 0)
        return;
    const char *c = tok[0];
    const char *rest = line + strspn(line, " \t");
    rest += strcspn(rest, " \t");
    rest += strspn(rest, " \t");
    int64_t v;
    if (strcmp(c, "xboard") == 0 || strcmp(c, "accepted") == 0 ||
        strcmp(c, "rejected") == 0 || strcmp(c, "hard") == 0 ||
        strcmp(c, "easy") == 0 || strcmp(c, "random") == 0 ||
        strcmp(c, "computer") == 0 || strcmp(c, "name") == 0 ||
        strcmp(c, "rating") == 0 || strcmp(c, "ics") == 0 ||
        strcmp(c, "draw") == 0 ||
        strcmp(c, ".") == 0 ||
        strcmp(c, "bk") == 0 || strcmp(c, "hint") == 0) {
        /* nothing to do */
    } else if (strcmp(c, "protover") == 0) {
        features();
    } else if (strcmp(c, "new") == 0) {
        X.force = 0;
        X.sd = 0;
        X.st_ms = -1;
        new_game();
    } else if (strcmp(c, "variant") == 0 && k == 2) {
        cmd_variant(tok[1]);
    } else if (strcmp(c, "force") == 0) {
        halt();
        X.force = 1;
    } else if (strcmp(c, "go") == 0) {
        halt();
        X.force = 0;
        if (X.over)
            out("Error (the game is over): go");
        else
            start_search(0);
    } else if (strcmp(c, "usermove") == 0 && k == 2) {
        user_move(tok[1]);
    } else if (strcmp(c, "?") == 0) {
        if (X.thinking && !X.stop_sent && X.engine_ok) {
            lio_log(X.log, "e<", "stop");
            ctl_client_send(&X.eng, deadline(), "stop");
            X.stop_sent = 1;
        }
    } else if (strcmp(c, "ping") == 0) {
        if (busy_for_ping() && X.npong < 16)
            snprintf(X.pong[X.npong++], sizeof X.pong[0], "%.31s", k > 1 ? tok[1] : "");
        else
            out("pong %.31s", k > 1 ? tok[1] : "");
    } else if (strcmp(c, "result") == 0) {
        halt();
        X.over = 1;
    } else if (strcmp(c, "setboard") == 0 && k >= 2) {
        cmd_setboard(rest);
    } else if (strcmp(c, "undo") == 0) {
        cmd_undo(1);
    } else if (strcmp(c, "remove") == 0) {
        cmd_undo(2);
    } else if (strcmp(c, "post") == 0) {
        X.post = 1;
    } else if (strcmp(c, "nopost") == 0) {
        X.post = 0;
    } else if (strcmp(c, "analyze") == 0) {
        halt();
        X.analyzing = 1;
        restart_analysis();
    } else if (strcmp(c, "exit") == 0) {
        halt();
        X.analyzing = 0;
    } else if (strcmp(c, "level") == 0 && k == 4 &&
               parse_i64(tok[1], 0, 100000, &v) == 0 && parse_base(tok[2]) >= 0 &&
               parse_secs(tok[3]) >= 0) {
        X.mps = (int)v;
        X.base_ms = parse_base(tok[2]);
        X.inc_ms = parse_secs(tok[3]);
        X.st_ms = -1;
    } else if (strcmp(c, "st") == 0 && k == 2 && parse_secs(tok[1]) > 0) {
        X.st_ms = parse_secs(tok[1]);
    } else if (strcmp(c, "sd") == 0 && k == 2 && parse_i64(tok[1], 1, 1000, &v) == 0) {
        X.sd = (int)v;
    } else if ((strcmp(c, "time") == 0 || strcmp(c, "otim") == 0) && k == 2 &&
               parse_i64(tok[1], -1000000000, 1000000000, &v) == 0) {
        if (c[0] == 't')
            X.time_ms = v * 10;
        else
            X.otim_ms = v * 10;
    } else if (strcmp(c, "option") == 0 && k >= 2) {
        set_option(rest);
    } else if (strcmp(c, "put") == 0 && k == 2) {
        /* a drop anywhere but on a victim ends the move entry (XBoard
         * clears its marks itself) */
        int len, sq = xb_square(X.g, tok[1], &len);
        if (sq < 0 || tok[1][len] || !X.cyan[sq]) {
            X.lift_from = -1;
            memset(X.cyan, 0, sizeof X.cyan);
        }
    } else if (strcmp(c, "hover") == 0) {
        /* nothing: victims are marked at lift */
    } else if (strcmp(c, "lift") == 0 && k == 2) {
        cmd_lift(tok[1]);
    } else if (strcmp(c, "quit") == 0) {
        halt();
        finished = 1;
    } else if (k == 1 && xb_move_parse(X.g, c, &(int){0}, &(int){0}, (int[2]){0}) >= 0) {
        user_move(c); /* a move without `usermove` */
    } else {
        out("Error (unknown command): %.80s", line);
    }
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: medan-xboard [ENGINE] [--option NAME=VALUE]... [--fen POSITION]\n"
            "                    [--log FILE]\n"
            "       medan-xboard --help | --version\n"
            "  a CECP (WinBoard protocol 2) engine for XBoard: plays through a MEP\n"
            "  engine run as a child.  Without ENGINE: variants loa and fetlar with\n"
            "  medan-loa and medan-fetlar from beside this program.\n"
            "  xboard -variant loa -fcp medan-xboard   (man medan-xboard)\n");
}

int main(int argc, char **argv)
{
    char engine[PATH_MAX] = "";
    X.lift_from = -1;
    X.time_ms = X.otim_ms = X.base_ms = X.inc_ms = X.st_ms = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
            (argc == 2 && strcmp(a, "help") == 0)) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--version") == 0) {
            printf("medan-xboard (Medan) %s\n", MEDAN_VERSION);
            return 0;
        }
        if (!a[0])
            continue;
        if (strcmp(a, "--option") == 0 && i + 1 < argc && X.nopts < MAX_OPTS) {
            const char *o = argv[++i], *eq = strchr(o, '=');
            if (!eq || eq == o) {
                fprintf(stderr, "medan-xboard: --option takes NAME=VALUE\n");
                return 2;
            }
            X.opt_name[X.nopts] = xstrdup(o);
            X.opt_name[X.nopts][eq - o] = '\0';
            X.opt_val[X.nopts++] = xstrdup(eq + 1);
        } else if (strcmp(a, "--fen") == 0 && i + 1 < argc) {
            X.start_fen = argv[++i];
        } else if (strcmp(a, "--log") == 0 && i + 1 < argc) {
            X.log = fopen(argv[++i], "a");
            if (!X.log) {
                fprintf(stderr, "medan-xboard: cannot open %s: %s\n", argv[i],
                        strerror(errno));
                return 2;
            }
        } else if (a[0] != '-' && !engine[0])
            snprintf(engine, sizeof engine, "%s", a);
        else {
            fprintf(stderr, "medan-xboard: unknown argument %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        snprintf(X.bindir, sizeof X.bindir, ".");
        if (n > 0) {
            self[n] = '\0';
            char *slash = strrchr(self, '/');
            if (slash)
                *slash = '\0';
            snprintf(X.bindir, sizeof X.bindir, "%s", self);
        }
    }
    X.fixed = engine[0] != '\0';
    if (!X.fixed)
        snprintf(engine, sizeof engine, "%.*s/medan-loa", PATH_MAX - 16, X.bindir);
    if (start_engine(engine) != 0) {
        fprintf(stderr, "medan-xboard: cannot start a game engine %s (%s)\n", engine,
                X.eng.last_error[0] ? X.eng.last_error : "see --log");
        out("tellusererror Medan: cannot start the engine %s", engine);
        return 1;
    }
    new_game();
    char line[1 << 16];
    while (!finished) {
        /* after a ping during our move, nothing is read until the move is
         * out (CECP: the pong comes after the move) */
        int hold = busy_for_ping() && X.npong > 0;
        if (!hold && lio_take(&X.in, line, sizeof line)) {
            if (line[0])
                handle_line(line);
            continue;
        }
        if (X.in.eof && !hold)
            break;
        struct pollfd p[3];
        int ne = X.engine_ok ? ctl_client_pollfds(&X.eng, p) : 0;
        int in = !X.in.eof && lio_room(&X.in);
        p[ne] = (struct pollfd){.fd = in ? 0 : -1, .events = POLLIN};
        if (poll(p, (nfds_t)ne + 1, -1) < 0 && errno != EINTR)
            break;
        if (in && p[ne].revents)
            lio_fill(&X.in, 0);
        if (ne) {
            char el[CTL_LINE_MAX];
            int r;
            while (X.engine_ok && (r = ctl_client_take(&X.eng, el, sizeof el)) == CTL_IO_LINE)
                engine_line(el);
            if (X.engine_ok && r == CTL_IO_EOF) {
                X.engine_ok = 0;
                X.thinking = 0;
                out("tellusererror Medan: the engine ended (%s)", X.eng.last_error);
                flush_pongs();
            }
        }
    }
    halt();
    if (X.engine_ok)
        ctl_client_quit(&X.eng);
    for (int i = 0; i < X.nopts; i++) {
        free(X.opt_name[i]);
        free(X.opt_val[i]);
    }
    if (X.log)
        fclose(X.log);
    return 0;
}
