/* mock-engine.c - a misbehaving MEP engine for the referee's tests.
 *
 *   mock-engine --game G [--mode M] [--after N] [--spy FILE] [--delay MS]
 *               [--score CP]
 *               [--tag T]
 *
 * Plays random legal moves (seeded by the Seed option) and, after N good
 * `go` answers (default 0), misbehaves as M:
 *   normal        never misbehaves
 *   crash         exits on `go`
 *   hang          stops reading and answering (also ping and stop)
 *   illegal       answers `bestmove` with an illegal move
 *   late          answers `go` 300 ms after its clock ran out (answers stop)
 *   flood         floods `info` lines and never moves until `stop`
 *   nohandshake   never answers `mep`
 *   garbage       prints junk lines (unknown keywords, binary, a long
 *                 line) before every answer but plays legal moves
 *   stall         never answers `newgame` (the game cannot start)
 *   error         answers `go` with `error`
 *   slowstart     sleeps 2 s before answering `mep`
 *   forkexit      on `go`: forks a child that keeps stdout open (sleeps
 *                 30 s), then exits 1
 *   noisy         writes 256 KB to stderr on every `go`
 *   floodstart    answers `mep` with empty lines, forever
 *   shout         answers `go` with `BESTMOVE <move>` (capitals)
 *   slow          answers one `go` (the first after N) 400 ms after its
 *                 movetime, then plays normally
 *   overrun       answers `go movetime M` with M >= 100 after 2 * M + 1.1 s
 *                 (over check's gross time-use bound); shorter ones at once
 *   ponder        a correct pondering engine: `bestmove X ponder M` (M the
 *                 first legal reply to X); `go ponder` holds its bestmove
 *                 until `ponderhit` (then its move) or `stop` (then the
 *                 stale token `zz99-zz98`, which must never be played),
 *                 answering ping meanwhile
 *   ponderbad     as ponder, but answers `go ponder` at once (a protocol
 *                 error: no bestmove before ponderhit or stop)
 *
 * --spy FILE appends its arguments, its environment and every line it is
 * sent to FILE (each line starts with its pid), and declares the widest
 * Seed option (it wants every bit); in the ponder modes it also writes
 * `<pid> pondered <ms>` (ms from `go ponder` to ponderhit/stop).
 * --threads MAX declares `option name Threads type spin default 1 min 1
 * max MAX` (and accepts it, as every option).
 * --first PCT plays the first legal move with probability PCT % (else a
 * random one), so a ponder mock's guess comes true now and then.
 * --delay MS waits before every bestmove.  --score CP sends
 * `info depth 1 score cp CP` before every bestmove (for adjudication);
 * --score win:N or loss:N sends `score win N` / `score loss N` instead
 * (for the records' mate comments).  --tag T is ignored (a marker
 * for pgrep in the tests).
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/registry.h"

static const struct game *G;
static game_config_buf cfg_buf;
static game_state_buf st_buf;
static unsigned char *const cfg = cfg_buf.b, *const st = st_buf.b;
static const char *mode = "normal";
static int after, gos, seat_hint, delay_ms, first_pct, threads_max;
static struct rng rng;
static FILE *spy;
extern char **environ;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static int bad_now(const char *m) { return strcmp(mode, m) == 0 && gos >= after; }

static void junk(void)
{
    if (strcmp(mode, "garbage") != 0)
        return;
    out("hello there, this is not MEP");
    out("bestmovex a1a1");
    {
        static const char bin[] = "\x01\x02\xff\xfe binary\n";
        fwrite(bin, 1, sizeof bin - 1, stdout);
    }
    for (int i = 0; i < 3000; i++)
        putchar('z');
    putchar('\n');
    fflush(stdout);
}

static int score_set, score_cp; /* --score CP: every move reports it */
static const char *score_kind = "cp"; /* or win/loss (--score win:N) */

static void bestmove(void)
{
    gmove *mv = game_move_buf(G);
    char tok[128];
    int n = game_gen_moves(G, st, mv);
    junk();
    if (n <= 0) {
        free(mv);
        out("bestmove pass");
        return;
    }
    {
        gmove pick = mv[first_pct && (int)rng_below(&rng, 100) < first_pct
                            ? 0 : rng_below(&rng, (uint64_t)n)];
        char ptok[128] = "";
        if (strcmp(mode, "ponder") == 0 || strcmp(mode, "ponderbad") == 0) {
            /* the guess: the first legal reply */
            game_state_buf after_buf;
            int k;
            memcpy(after_buf.b, st, G->state_size);
            G->play(after_buf.b, pick);
            k = game_gen_moves(G, after_buf.b, mv);
            if (k > 0) {
                strcpy(ptok, " ponder ");
                G->format_move(after_buf.b, mv[0], ptok + 8, sizeof ptok - 8);
            }
        }
        G->format_move(st, pick, tok, sizeof tok);
        free(mv);
        if (score_set)
            out("info depth 1 score %s %d nodes 1 pv %s", score_kind, score_cp, tok);
        out("%s %s%s", bad_now("shout") ? "BESTMOVE" : "bestmove", tok, ptok);
    }
}

/* A `go ponder`: hold the bestmove until ponderhit (the move) or stop
 * (a stale token), answering ping; quit or the end of input exits. */
static void ponder_wait(void)
{
    char line[65536];
    int64_t t0 = now_ms();
    for (;;) {
        if (!fgets(line, sizeof line, stdin))
            exit(0);
        str_chomp(line);
        if (spy) {
            fprintf(spy, "%d got %s\n", (int)getpid(), line);
            fflush(spy);
        }
        if (str_prefix(line, "ping"))
            out("pong%s", line + 4);
        else if (strcmp(line, "isready") == 0)
            out("readyok");
        else if (strcmp(line, "quit") == 0)
            exit(0);
        else if (strcmp(line, "ponderhit") == 0 || strcmp(line, "stop") == 0) {
            if (spy) {
                fprintf(spy, "%d pondered %lld\n", (int)getpid(),
                        (long long)(now_ms() - t0));
                fflush(spy);
            }
            if (line[0] == 'p')
                bestmove();
            else
                out("bestmove zz99-zz98");
            return;
        } else
            out("error busy a search is running");
    }
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static int position(char *args)
{
    char *mv = strstr(args, " moves"), err[GAME_ERR_LEN];
    game_state_buf tmp_buf;
    unsigned char *tmp = tmp_buf.b;
    if (mv)
        *mv = '\0';
    if (strcmp(args, "start") == 0)
        G->start(tmp, cfg);
    else if (str_prefix(args, "fen ")) {
        if (G->parse_pos(tmp, cfg, args + 4, err, sizeof err))
            return out("error illegal_position %s", err), -1;
    } else
        return out("error syntax position"), -1;
    if (mv) {
        char *tok[4096];
        int nt = str_split(mv + 6, tok, 4096);
        for (int i = 0; i < nt; i++) {
            gmove m;
            if (G->parse_move(tmp, tok[i], &m, err, sizeof err))
                return out("error illegal_move %d %s", i + 1, tok[i]), -1;
            G->play(tmp, m);
        }
    }
    memcpy(st, tmp, G->state_size);
    return 0;
}

/* Wait for `stop` (answering ping) while optionally flooding; returns when
 * stop arrives or after ms (ms < 0: forever). */
static void wait_stop(int ms, int flood)
{
    int64_t until = ms < 0 ? INT64_MAX : now_ms() + ms;
    char line[65536];
    long k = 0;
    for (;;) {
        struct pollfd p = {0, POLLIN, 0};
        int64_t left = until - now_ms();
        if (left <= 0)
            return;
        if (flood) {
            out("info depth %ld nodes %ld string flooding", k % 99, k);
            k++;
        }
        if (poll(&p, 1, flood ? 0 : (int)(left > 100000 ? 100000 : left)) > 0) {
            if (!fgets(line, sizeof line, stdin))
                exit(0);
            str_chomp(line);
            if (strcmp(line, "stop") == 0)
                return;
            if (str_prefix(line, "ping"))
                out("pong%s", line + 4);
            if (strcmp(line, "quit") == 0)
                exit(0);
        }
    }
}

int main(int argc, char **argv)
{
    char line[65536];
    const char *gname = "loa";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--game") == 0)
            gname = argv[i + 1];
        else if (strcmp(argv[i], "--mode") == 0)
            mode = argv[i + 1];
        else if (strcmp(argv[i], "--after") == 0)
            after = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--delay") == 0)
            delay_ms = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads_max = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--first") == 0)
            first_pct = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--score") == 0) {
            const char *v = argv[i + 1];
            score_set = 1;
            if (strncmp(v, "win:", 4) == 0 || strncmp(v, "loss:", 5) == 0) {
                score_kind = v[0] == 'w' ? "win" : "loss";
                v = strchr(v, ':') + 1;
            }
            score_cp = atoi(v);
        }
        else if (strcmp(argv[i], "--spy") == 0 &&
                 !(spy = fopen(argv[i + 1], "a")))
            return fprintf(stderr, "mock: cannot open %s\n", argv[i + 1]), 2;
    }
    if (spy) {
        /* Several processes may share the file: every line names its pid. */
        fprintf(spy, "%d start\n", (int)getpid());
        for (int i = 0; i < argc; i++)
            fprintf(spy, "%d argv %s\n", (int)getpid(), argv[i]);
        for (char **e = environ; *e; e++)
            fprintf(spy, "%d env %s\n", (int)getpid(), *e);
        fflush(spy);
    }
    if (!(G = game_find(gname)))
        return fprintf(stderr, "mock: no game %s\n", gname), 2;
    G->config_default(cfg);
    G->start(st, cfg);
    rng_seed(&rng, 1);
    while (fgets(line, sizeof line, stdin)) {
        char *sp;
        str_chomp(line);
        fprintf(stderr, "mock got: %.80s\n", line);
        if (spy) {
            fprintf(spy, "%d got %s\n", (int)getpid(), line);
            fflush(spy);
        }
        if (!*line || *line == '#')
            continue;
        sp = strchr(line, ' ');
        if (strcmp(line, "mep") == 0) {
            if (strcmp(mode, "nohandshake") == 0)
                continue;
            if (strcmp(mode, "slowstart") == 0)
                sleep_ms(2000);
            if (strcmp(mode, "floodstart") == 0) {
                static char nl[65536];
                memset(nl, '\n', sizeof nl);
                for (;;)
                    if (write(1, nl, sizeof nl) < 0)
                        return 0;
            }
            junk();
            out("id name Mock %s", mode);
            out("id author medan tests");
            out("protocol 1");
            out("game %s players %d-%d", G->name, G->min_seats, G->max_seats);
            out("option name Seed type spin default 0 min 0 max %s",
                spy ? "9007199254740991" : "1000000");
            if (threads_max > 0)
                out("option name Threads type spin default 1 min 1 max %d", threads_max);
            out("mepok");
        } else if (strcmp(line, "isready") == 0)
            out("readyok");
        else if (str_prefix(line, "ping"))
            out("pong%s", line + 4);
        else if (str_prefix(line, "setoption")) {
            char *v = strstr(line, " value ");
            if (strstr(line, "name Seed") && v)
                rng_seed(&rng, strtoull(v + 7, NULL, 10));
            out("ok");
        } else if (str_prefix(line, "newgame")) {
            char *tok[64];
            int nt;
            if (strcmp(mode, "stall") == 0 && gos >= after)
                continue;
            G->config_default(cfg);
            nt = sp ? str_split(sp + 1, tok, 64) : 0;
            for (int i = 0; i < nt; i++) {
                char *eq = strchr(tok[i], '='), err[GAME_ERR_LEN];
                if (!eq)
                    continue;
                *eq = '\0';
                if (strcmp(tok[i], "seat") == 0)
                    seat_hint = atoi(eq + 1);
                else
                    G->config_set(cfg, tok[i], eq + 1, err, sizeof err);
            }
            G->start(st, cfg);
            junk();
            out("ok");
        } else if (str_prefix(line, "position ")) {
            if (position(line + 9) == 0) {
                junk();
                out("ok");
            }
        } else if (str_prefix(line, "go")) {
            if (bad_now("crash"))
                exit(3);
            if (bad_now("forkexit")) {
                if (fork() == 0) { /* keeps stdout open */
                    sleep_ms(30000);
                    _exit(0);
                }
                exit(1);
            }
            if (bad_now("noisy")) {
                static char noise[4096];
                memset(noise, 'n', sizeof noise - 1);
                noise[sizeof noise - 1] = '\n';
                for (int i = 0; i < 64; i++)
                    if (write(2, noise, sizeof noise) < 0)
                        break;
            }
            if (strcmp(mode, "ponder") == 0 && strstr(line, " ponder")) {
                ponder_wait();
                continue;
            }
            if (delay_ms)
                sleep_ms(delay_ms);
            if (bad_now("hang"))
                for (;;)
                    sleep_ms(1000);
            if (bad_now("illegal")) {
                out("bestmove zz99-zz98");
            } else if (bad_now("error")) {
                out("error bad_value mock refuses to think");
            } else if (bad_now("flood")) {
                wait_stop(-1, 1);
                bestmove();
            } else if (bad_now("slow") && gos == after) {
                char *t = strstr(line, "movetime ");
                wait_stop((t ? atoi(t + 9) : 0) + 400, 0);
                bestmove();
            } else if (bad_now("overrun") && strstr(line, "movetime ") &&
                       atoi(strstr(line, "movetime ") + 9) >= 100) {
                wait_stop(2 * atoi(strstr(line, "movetime ") + 9) + 1100, 0);
                bestmove();
            } else if (bad_now("late")) {
                char key[16], *t;
                int64_t ms = 1000;
                snprintf(key, sizeof key, "p%dtime ", G->to_move(st));
                if ((t = strstr(line, key)) != NULL)
                    ms = strtoll(t + strlen(key), NULL, 10);
                wait_stop((int)ms + 300, 0);
                bestmove();
            } else
                bestmove();
            gos++;
        } else if (strcmp(line, "stop") == 0)
            ;
        else if (strcmp(line, "quit") == 0)
            break;
        else
            out("error unknown_command %s", line);
    }
    (void)seat_hint;
    return 0;
}
