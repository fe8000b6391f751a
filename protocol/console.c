/* console.c - MEP for a person at a terminal: GNU readline in callback mode.
 *
 * The session writes its lines into a pipe; a pump thread copies them to
 * the terminal above the prompt (the prompt and the line being typed are
 * drawn again after each burst, so `bestmove` leaves a fresh prompt).  The
 * main thread waits for keys and for Ctrl-C (a self-pipe written by the
 * SIGINT handler): Ctrl-C stops a running search, or clears the line at an
 * idle prompt.  Tab completes commands, subcommand words, option names and
 * values, and legal moves.  Readline is only touched under `tty`.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "../core/util.h"
#include "mep.h"
#include "options.h"

#define PROMPT "mep> "

static struct {
    struct mep *m;
    const struct engine *e;
    pthread_mutex_t tty; /* readline state and the terminal */
    int prompt_on;       /* the readline handler is installed */
    int out_rd;          /* the session's output, read end */
    int sig[2];          /* SIGINT self-pipe */
    char *pending;       /* a finished line, run outside `tty` */
    int eof;
    /* completion candidates */
    char **cand;
    int ncand, capcand, next;
} C;

/* ---- output above the prompt ------------------------------------------------- */
static void *pump(void *arg)
{
    char buf[8192];
    (void)arg;
    for (;;) {
        ssize_t n = read(C.out_rd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        pthread_mutex_lock(&C.tty);
        if (C.prompt_on)
            rl_clear_visible_line();
        fwrite(buf, 1, (size_t)n, stdout);
        fflush(stdout);
        /* lines come whole and flushed; redraw after a complete line only */
        if (C.prompt_on && buf[n - 1] == '\n') {
            rl_on_new_line();
            rl_redisplay();
        }
        pthread_mutex_unlock(&C.tty);
    }
    return NULL;
}

static void on_sigint(int sig)
{
    char c = 1;
    ssize_t r;
    (void)sig;
    r = write(C.sig[1], &c, 1);
    (void)r;
}

static void on_line(char *line)
{
    if (!line) {
        C.eof = 1;
        return;
    }
    if (*line)
        add_history(line);
    C.pending = line;
}

/* ---- completion ---------------------------------------------------------------- */
static void cand_add(const char *w)
{
    if (C.ncand == C.capcand) {
        C.capcand = C.capcand ? C.capcand * 2 : 64;
        C.cand = xrealloc(C.cand, (size_t)C.capcand * sizeof *C.cand);
    }
    C.cand[C.ncand++] = xstrdup(w);
}

static void cand_clear(void)
{
    for (int i = 0; i < C.ncand; i++)
        free(C.cand[i]);
    C.ncand = 0;
}

/* The legal moves of st (nothing when the game is over). */
static void cand_moves(const struct game *g, const void *st, const uint64_t *hist, int nhist)
{
    struct game_result r;
    gmove *mv;
    int n;
    g->result(st, hist, nhist, &r);
    if (r.over)
        return;
    mv = game_move_buf(g);
    n = game_gen_moves(g, st, mv);
    for (int i = 0; i < n; i++) {
        char t[256];
        g->format_move(st, mv[i], t, sizeof t);
        cand_add(t);
    }
    free(mv);
}

/* `position start [moves m...]`: the position after the moves typed so far. */
static void cand_position_moves(char **tok, int ntok)
{
    const struct game *g = C.e->game;
    game_state_buf st;
    uint64_t *hist = xmalloc((size_t)(ntok + 1) * sizeof *hist);
    char err[GAME_ERR_LEN];
    int nh = 0;
    g->start(st.b, mep_config(C.m));
    hist[nh] = g->hash(st.b);
    for (int i = 3; i < ntok; i++) {
        struct game_result r;
        gmove m;
        g->result(st.b, hist, nh, &r);
        if (r.over || g->parse_move(st.b, tok[i], &m, err, sizeof err)) {
            free(hist);
            return;
        }
        g->play(st.b, m);
        hist[++nh] = g->hash(st.b);
    }
    cand_moves(g, st.b, hist, nh);
    free(hist);
}

static void cand_words(const char *const *w)
{
    for (; *w; w++)
        cand_add(*w);
}

/* Candidates for the token after tok[0..ntok). */
static void candidates(char **tok, int ntok)
{
    const struct engine *e = C.e;
    const struct game *g = e->game;
    const char *c = ntok ? tok[0] : "";
    static const char *const go_words[] = {"infinite", "movetime", "depth",   "nodes",
                                           "multipv",  "ponder",   "movestogo", NULL};
    if (ntok == 0 || (ntok == 1 && strcmp(c, "help") == 0)) {
        const char *name;
        for (int i = 0; (name = mep_command_name(i)); i++)
            cand_add(name);
    } else if (strcmp(c, "setoption") == 0) {
        const struct opt_spec *o;
        if (ntok == 1)
            cand_add("name");
        else if (ntok == 2 && strcmp(tok[1], "name") == 0)
            for (o = e->options; o && o->name; o++)
                cand_add(o->name);
        else if (ntok == 3 && (o = opt_find(e->options, tok[2])) && o->type != OPT_BUTTON)
            cand_add("value");
        else if (ntok == 4 && (o = opt_find(e->options, tok[2]))) {
            if (o->type == OPT_CHECK) {
                cand_add("true");
                cand_add("false");
            } else if (o->type == OPT_COMBO) {
                char vars[512], *v[32];
                snprintf(vars, sizeof vars, "%s", o->vars);
                for (int i = 0, k = str_split(vars, v, 32); i < k; i++)
                    cand_add(v[i]);
            } else if (o->type == OPT_SPIN)
                cand_add(o->def);
        }
    } else if (strcmp(c, "position") == 0) {
        if (ntok == 1) {
            static const char *const w[] = {"start", "startpos", "fen", NULL};
            cand_words(w);
        } else if (ntok == 2 && strcmp(tok[1], "fen") != 0)
            cand_add("moves");
        else if (ntok >= 3 && strcmp(tok[1], "fen") != 0 && strcmp(tok[2], "moves") == 0)
            cand_position_moves(tok, ntok);
    } else if (strcmp(c, "play") == 0 && ntok == 1) {
        uint64_t h = g->hash(mep_position(C.m));
        cand_moves(g, mep_position(C.m), &h, 0);
    } else if (strcmp(c, "go") == 0) {
        char w[16];
        cand_words(go_words);
        for (int s = 1; s <= g->max_seats; s++) {
            snprintf(w, sizeof w, "p%dtime", s);
            cand_add(w);
            snprintf(w, sizeof w, "p%dinc", s);
            cand_add(w);
        }
    } else if (strcmp(c, "fen") == 0 && ntok == 1 && g->view)
        cand_add("view");
    else if (strcmp(c, "newgame") == 0 && g->params_help) {
        char p[512], *v[32];
        snprintf(p, sizeof p, "%s", g->params_help);
        for (int i = 0, k = str_split(p, v, 32); i < k; i++) {
            char *eq = strchr(v[i], '=');
            if (eq) {
                eq[1] = '\0';
                cand_add(v[i]);
            }
        }
    }
}

static char *complete_gen(const char *text, int state)
{
    size_t len = strlen(text);
    if (!state)
        C.next = 0;
    while (C.next < C.ncand) {
        const char *w = C.cand[C.next++];
        if (strncasecmp(w, text, len) == 0)
            return xstrdup(w);
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    char *before = xmalloc((size_t)start + 1), **tok;
    int ntok;
    (void)end;
    rl_attempted_completion_over = 1;
    memcpy(before, rl_line_buffer, (size_t)start);
    before[start] = '\0';
    tok = xmalloc(((size_t)start / 2 + 2) * sizeof *tok);
    ntok = str_split(before, tok, start / 2 + 2);
    cand_clear();
    candidates(tok, ntok);
    free(tok);
    free(before);
    return rl_completion_matches(text, complete_gen);
}

/* ---- the loop ----------------------------------------------------------------------- */
static void interrupt(void)
{
    if (mep_busy(C.m)) { /* stop the search: its bestmove comes out */
        mep_line(C.m, "stop");
        return;
    }
    pthread_mutex_lock(&C.tty);
    rl_callback_sigcleanup();
    rl_replace_line("", 0);
    rl_point = rl_end = 0;
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
    pthread_mutex_unlock(&C.tty);
}

int mep_console(const struct engine *e)
{
    int out[2];
    FILE *outf;
    pthread_t th;
    struct sigaction sa;

    int rc = 0;

    memset(&C, 0, sizeof C);
    C.e = e;
    pthread_mutex_init(&C.tty, NULL);
    /* A console that cannot start: the message, and mep_main's caller
     * (the program's main) exits 2.  Nothing here ends the process. */
    if (pipe(out)) {
        fprintf(stderr, "%s: pipe: %s\n", program_invocation_short_name, strerror(errno));
        return 2;
    }
    if (pipe(C.sig)) {
        fprintf(stderr, "%s: pipe: %s\n", program_invocation_short_name, strerror(errno));
        close(out[0]);
        close(out[1]);
        return 2;
    }
    fcntl(C.sig[0], F_SETFL, O_NONBLOCK);
    fcntl(C.sig[1], F_SETFL, O_NONBLOCK);
    C.out_rd = out[0];
    if (!(outf = fdopen(out[1], "w"))) {
        fprintf(stderr, "%s: fdopen: %s\n", program_invocation_short_name, strerror(errno));
        close(out[0]);
        close(out[1]);
        close(C.sig[0]);
        close(C.sig[1]);
        return 2;
    }
    C.m = mep_new(e, outf);
    if (pthread_create(&th, NULL, pump, NULL)) {
        fprintf(stderr, "%s: cannot start the console's output thread\n",
                program_invocation_short_name);
        mep_free(C.m);
        fclose(outf);
        close(out[0]);
        close(C.sig[0]);
        close(C.sig[1]);
        return 2;
    }

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: poll wakes up */

    fprintf(stderr, "Medan %s engine, MEP 1. Type 'help' (or 'help <command>'), Tab to complete, "
                    "Ctrl-C to stop a search, 'quit' to leave.\n",
            e->game->title);
    pthread_mutex_lock(&C.tty);
    rl_catch_signals = 0;
    rl_completer_word_break_characters = " \t";
    rl_attempted_completion_function = complete;
    using_history();
    rl_callback_handler_install(PROMPT, on_line);
    C.prompt_on = 1;
    pthread_mutex_unlock(&C.tty);

    for (;;) {
        struct pollfd p[2] = {{STDIN_FILENO, POLLIN, 0}, {C.sig[0], POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "%s: poll: %s\n", program_invocation_short_name,
                    strerror(errno));
            rc = 2;
            break;
        }
        if (p[1].revents & POLLIN) {
            char b[64];
            while (read(C.sig[0], b, sizeof b) > 0)
                ;
            interrupt();
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            pthread_mutex_lock(&C.tty);
            rl_callback_read_char();
            pthread_mutex_unlock(&C.tty);
        }
        if (C.pending) {
            char *line = C.pending;
            int quit;
            C.pending = NULL;
            quit = mep_input(C.m, line, strlen(line)); /* framing checks too */
            free(line);
            if (quit)
                break;
        }
        if (C.eof) {
            mep_eof(C.m);
            break;
        }
    }
    pthread_mutex_lock(&C.tty);
    rl_callback_handler_remove();
    C.prompt_on = 0;
    if (C.eof)
        rl_crlf();
    pthread_mutex_unlock(&C.tty);
    mep_free(C.m); /* stops and joins any search: its last lines are in the pipe */
    fclose(outf);
    pthread_join(th, NULL);
    close(C.out_rd);
    close(C.sig[0]);
    close(C.sig[1]);
    cand_clear();
    free(C.cand);
    signal(SIGINT, SIG_DFL);
    return rc;
}
