/* robust.c - throw random and mutated protocol lines at an engine.
 *
 *   robust <engine> <corpus> [lines] [seed]
 *
 * Lines come from the corpus (valid commands of the game), mutated or not,
 * from plays of legal moves the engine itself listed, and from garbage.
 * After each line the tool asks `fen` and `ping`, and checks:
 *   - the line got exactly its final answer (a command: one ok/error/...;
 *     blank or comment lines: none), within a deadline (no hang);
 *   - a line answered with `error` left the position string unchanged;
 *   - every output line is printable ASCII (nothing else is echoed);
 *   - the engine never dies, and exits with status 0 on quit at the end
 *     (under the sanitizers this also means no leak).
 * A `go` is always followed by `stop`; perft depths are capped at 2 (or at
 * N for a corpus with a line "#!perft-max N") and
 * Hash sizes at 64 MiB so every line stays cheap.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/client.h"
#include "control/proc.h"
#include "core/util.h"

#define MAXL 70000
#define DEADLINE_MS 20000

static struct rng R;
static char **corpus;
static int ncorpus;
static char **words;
static int nwords;
static char moves[4096][64];
static int perft_max = 2; /* a corpus line "#!perft-max N" lowers it */
static int nmoves;

static void load_corpus(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[MAXL];
    if (!f)
        die("cannot open corpus %s", path);
    while (fgets(line, sizeof line, f)) {
        str_chomp(line);
        if (str_prefix(line, "#!perft-max ")) {
            perft_max = atoi(line + 12);
            continue;
        }
        if (!line[0] || line[0] == '#')
            continue;
        corpus = xrealloc(corpus, (size_t)(ncorpus + 1) * sizeof *corpus);
        corpus[ncorpus++] = xstrdup(line);
        char tmp[MAXL], *tok[256];
        snprintf(tmp, sizeof tmp, "%s", line);
        int n = str_split(tmp, tok, 256);
        for (int i = 0; i < n; i++) {
            words = xrealloc(words, (size_t)(nwords + 1) * sizeof *words);
            words[nwords++] = xstrdup(tok[i]);
        }
    }
    fclose(f);
    if (!ncorpus)
        die("empty corpus %s", path);
}

static const char *const extra_words[] = {
    "mep", "ping", "isready", "setoption", "name", "value", "newgame", "position", "start",
    "fen", "moves", "play", "undo", "legalmoves", "show", "result", "perft", "divide", "eval",
    "go", "stop", "ponderhit", "help", "depth", "nodes", "movetime", "infinite", "ponder",
    "p1time", "p2time", "p3time", "p1inc", "p7time", "p0time", "movestogo", "multipv", "pass",
    "-1", "0", "1", "2", "9999999999999999999999", "-9223372036854775808", "1e9", "0x10",
    "=", "size=", "players=", "seat=", "size=5", "players=4", "seat=9", "Hash", "Seed",
    "Strategy", "true", "false", "", "\t", "#", "\xff\xfe", "é", "\x01", "%s%n%p", "a1", "z9",
    "@", ",", "-", "x", ":", "draw:pile", "attack:3:7h,7h", "pass,pass", "@e5,@e5"};

static const char *rand_word(void)
{
    if (nwords && rng_below(&R, 3))
        return words[rng_below(&R, (uint64_t)nwords)];
    return extra_words[rng_below(&R, sizeof extra_words / sizeof *extra_words)];
}

static void mutate(char *s, size_t cap)
{
    size_t len = strlen(s);
    int kind = (int)rng_below(&R, 9);
    char tmp[MAXL], *tok[512];
    int n;
    switch (kind) {
    case 0: /* flip a character */
        if (len)
            s[rng_below(&R, len)] = (char)(32 + rng_below(&R, 95));
        break;
    case 1: /* truncate */
        if (len)
            s[rng_below(&R, len)] = '\0';
        break;
    case 2: /* insert a random byte (no NUL, no newline) */
        if (len + 2 < cap) {
            size_t at = rng_below(&R, len + 1);
            memmove(s + at + 1, s + at, len - at + 1);
            char ch;
            do
                ch = (char)rng_below(&R, 256);
            while (ch == 0 || ch == '\n');
            s[at] = ch;
        }
        break;
    default: /* token-level: drop, duplicate, replace, insert */
        snprintf(tmp, sizeof tmp, "%s", s);
        n = str_split(tmp, tok, 500);
        {
            size_t out = 0;
            int pos = n ? (int)rng_below(&R, (uint64_t)n) : 0;
            s[0] = '\0';
            for (int i = 0; i <= n; i++) {
                const char *w = i < n ? tok[i] : NULL;
                if (i == pos) {
                    if (kind == 3)
                        w = NULL; /* drop */
                    else if (kind == 4 && w)
                        buf_printf(s, cap, &out, "%s%s", out ? " " : "", w); /* dup */
                    else if (kind == 5)
                        w = rand_word(); /* replace */
                    else
                        buf_printf(s, cap, &out, "%s%s", out ? " " : "", rand_word()); /* insert */
                }
                if (w)
                    buf_printf(s, cap, &out, "%s%s", out ? " " : "", w);
            }
        }
    }
}

/* Keep a line cheap and free of a quit: see the header comment. */
static void tame(char *s, size_t cap, int *is_go)
{
    char tmp[MAXL], *tok[4096];
    int n;
    size_t out = 0;
    for (char *p = s; *p; p++)
        if (*p == '\n')
            *p = ' ';
    snprintf(tmp, sizeof tmp, "%s", s);
    n = str_split(tmp, tok, 4095);
    for (int i = 0; i < n; i++)
        str_chomp(tok[i]);
    *is_go = n > 0 && strcmp(tok[0], "go") == 0;
    if (n > 0 && strcmp(tok[0], "quit") == 0) {
        snprintf(s, cap, "isready");
        return;
    }
    if (n > 1 && (strcmp(tok[0], "perft") == 0 || strcmp(tok[0], "divide") == 0)) {
        int64_t d;
        static char capped[16];
        snprintf(capped, sizeof capped, "%d", perft_max);
        if (parse_i64(tok[1], -1000, 1000000, &d) == 0 && d > perft_max)
            tok[1] = capped;
    }
    for (int i = 0; i + 1 < n; i++)
        if (str_ieq(tok[i], "Hash") || strstr(tok[i], "Memory") || strstr(tok[i], "memory")) {
            int64_t v;
            for (int j = i + 1; j < n; j++)
                if (parse_i64(tok[j], -100, INT64_MAX, &v) == 0 && v > 64)
                    tok[j] = "16";
        }
    /* a go must stay short: depth and nodes are capped, infinite is stopped */
    if (*is_go)
        for (int i = 1; i + 1 < n; i++) {
            int64_t v;
            if ((strcmp(tok[i], "depth") == 0 && parse_i64(tok[i + 1], 0, INT64_MAX, &v) == 0 &&
                 v > 3) ||
                (strcmp(tok[i], "nodes") == 0 && parse_i64(tok[i + 1], 0, INT64_MAX, &v) == 0 &&
                 v > 20000) ||
                (strcmp(tok[i], "movetime") == 0 && parse_i64(tok[i + 1], 0, INT64_MAX, &v) == 0 &&
                 v > 50))
                tok[i + 1] = "3";
        }
    /* keep the original spacing when nothing changed token-wise: rebuild */
    if (n == 0)
        return;
    char rebuilt[MAXL];
    rebuilt[0] = '\0';
    for (int i = 0; i < n; i++)
        buf_printf(rebuilt, sizeof rebuilt, &out, "%s%s", i ? " " : "", tok[i]);
    snprintf(s, cap, "%s", rebuilt);
}

static int blank_line(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    return *s == '\0' || *s == '#';
}

static struct ctl_proc C;

/* Raw bytes to the engine (a line may hold any byte but NUL and '\n'). */
static void send_raw(const char *s, size_t n)
{
    ctl_proc_write(&C, now_us() + DEADLINE_MS * 1000LL, s, n);
}

/* One line within the deadline: 1, 0 at end of output, -1 on timeout. */
static int child_line(char *line, size_t n)
{
    int r = ctl_proc_read(&C, now_us() + DEADLINE_MS * 1000LL, line, n);
    return r == CTL_IO_LINE ? 1 : r == CTL_IO_EOF ? 0 : -1;
}
static char got[MAXL];
static long lineno;

static void fatal(const char *what, const char *line)
{
    fprintf(stderr, "robust: line %ld: %s\n  line: %.300s\n", lineno, what, line);
    exit(1);
}

/* stdout carries printable ASCII lines only: no byte of the input that
 * is not printable ASCII may be echoed (docs/protocol.md, Framing). */
static void ascii_only(const char *out, const char *line)
{
    for (const char *p = out; *p; p++)
        if ((*p < 32 && *p != '\t') || (unsigned char)*p > 126)
            fatal("an output line holds a byte that is not printable ASCII", line);
}

/* Read lines until a final one; collect into fin[] the finals seen. */
static int read_until(const char *prefix, char finals[][256], int *nfin, const char *line)
{
    for (;;) {
        int r = child_line(got, sizeof got);
        if (r == 0)
            fatal("the engine died", line);
        if (r < 0)
            fatal("no answer within the deadline (hang)", line);
        ascii_only(got, line);
        if (strncmp(got, prefix, strlen(prefix)) == 0)
            return 0;
        if (ctl_is_final(got) && *nfin < 8)
            snprintf(finals[(*nfin)++], 256, "%.250s", got);
    }
}

static void get_fen(char *fen, size_t n, const char *line)
{
    char finals[8][256];
    int nfin = 0;
    fen[0] = '\0';
    send_raw("fen\n", 4);
    for (;;) {
        int r = child_line(got, sizeof got);
        if (r == 0)
            fatal("the engine died", line);
        if (r < 0)
            fatal("no answer to fen (hang)", line);
        if (strncmp(got, "fen ", 4) == 0)
            snprintf(fen, n, "%s", got + 4);
        if (ctl_is_final(got)) {
            if (strcmp(got, "ok") != 0)
                fatal("fen did not answer ok", line);
            break;
        }
    }
    (void)finals;
    (void)nfin;
}

static void refresh_moves(const char *line)
{
    send_raw("legalmoves\n", 11);
    nmoves = 0;
    for (;;) {
        int r = child_line(got, sizeof got);
        if (r <= 0)
            fatal("no answer to legalmoves", line);
        if (strncmp(got, "moves", 5) == 0) {
            char *tok[4096];
            int n = str_split(got, tok, 4096);
            for (int i = 1; i < n && nmoves < 4096; i++)
                snprintf(moves[nmoves++], 64, "%s", tok[i]);
        }
        if (ctl_is_final(got))
            break;
    }
}

int main(int argc, char **argv)
{
    long total;
    uint64_t seed;
    char line[MAXL], before[MAXL], after[MAXL], ping[64];
    char *cargv[2];
    long errors = 0, oks = 0, gos = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: robust <engine> <corpus> [lines] [seed]\n");
        return 2;
    }
    total = argc > 3 ? atol(argv[3]) : 100000;
    seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
    rng_seed(&R, seed);
    load_corpus(argv[2]);
    cargv[0] = argv[1];
    cargv[1] = NULL;
    {
        char err[600];
        if (ctl_proc_start(&C, cargv, NULL, err, sizeof err)) /* stderr: /dev/null */
            die("%s", err);
    }
    get_fen(before, sizeof before, "(start)");
    refresh_moves("(start)");
    for (lineno = 1; lineno <= total; lineno++) {
        int is_go = 0, r = (int)rng_below(&R, 100);
        if (r < 25 && nmoves)
            snprintf(line, sizeof line, "play %s", moves[rng_below(&R, (uint64_t)nmoves)]);
        else if (r < 30)
            snprintf(line, sizeof line, "undo");
        else if (r < 33) { /* garbage */
            size_t n = rng_below(&R, 80);
            for (size_t i = 0; i < n; i++) {
                char ch;
                do
                    ch = (char)rng_below(&R, 256);
                while (ch == 0 || ch == '\n');
                line[i] = ch;
            }
            line[n] = '\0';
        } else if (r < 34) { /* a very long line */
            size_t n = 60000 + rng_below(&R, 9000);
            memset(line, 'a', n);
            line[n] = '\0';
        } else {
            snprintf(line, sizeof line, "%s", corpus[rng_below(&R, (uint64_t)ncorpus)]);
            int k = (int)rng_below(&R, 4);
            for (int i = 0; i < k; i++)
                mutate(line, sizeof line);
        }
        tame(line, sizeof line, &is_go);
        int blank = blank_line(line);
        char finals[8][256];
        int nfin = 0;
        size_t l = strlen(line);
        line[l] = '\n';
        send_raw(line, l + 1);
        line[l] = '\0';
        if (is_go) {
            send_raw("stop\n", 5);
            gos++;
        }
        snprintf(ping, sizeof ping, "ping p%ld\n", lineno);
        send_raw(ping, strlen(ping));
        ping[strlen(ping) - 1] = '\0';
        char pong[64];
        snprintf(pong, sizeof pong, "pong p%ld", lineno);
        read_until(pong, finals, &nfin, line);
        /* perft and divide run as jobs: the pong may overtake their answer */
        if (!blank && !is_go && nfin == 0 &&
            (str_prefix(line, "perft") || str_prefix(line, "divide"))) {
            for (;;) {
                int rr = child_line(got, sizeof got);
                if (rr <= 0)
                    fatal(rr ? "perft gave no final line (hang)" : "the engine died", line);
                if (ctl_is_final(got)) {
                    snprintf(finals[nfin++], 256, "%.250s", got);
                    break;
                }
            }
        }
        /* what must have been answered */
        if (blank && nfin != 0)
            fatal("a blank or comment line got an answer", line);
        if (!blank && !is_go && nfin != 1)
            fatal(nfin ? "more than one final line" : "no final line", line);
        if (is_go && (nfin < 1 || nfin > 2))
            fatal("go + stop did not get one or two final lines", line);
        if (is_go && nfin == 2 && strcmp(finals[1], "ok") != 0 &&
            strncmp(finals[1], "bestmove", 8) != 0)
            fatal("go + stop: unexpected second final line", line);
        get_fen(after, sizeof after, line);
        if (nfin && strncmp(finals[0], "error", 5) == 0) {
            errors++;
            if (strcmp(before, after) != 0) {
                fprintf(stderr, "before: %s\nafter:  %s\n", before, after);
                fatal("an error changed the position", line);
            }
        } else if (nfin)
            oks++;
        if (strcmp(before, after) != 0 || (lineno % 50) == 0)
            refresh_moves(line);
        snprintf(before, sizeof before, "%s", after);
    }
    send_raw("quit\n", 5);
    ctl_proc_close_input(&C);
    int by_itself = ctl_proc_wait(&C, now_us() + 20000000);
    if (!by_itself || C.exit_code != 0) {
        char why[64];
        ctl_proc_exit_text(&C, why, sizeof why);
        fprintf(stderr, "robust: engine did not exit cleanly at the end (%s)\n",
                by_itself ? why : "no exit within 20 s: killed");
        return 1;
    }
    printf("robust %s: %ld lines, %ld ok, %ld errors, %ld go; all answered, errors changed "
           "nothing\n",
           argv[1], total, oks, errors, gos);
    return 0;
}
