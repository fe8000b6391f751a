/* match.c - schedule, workers and collector (see match.h). */
#include "match.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

#define SEED_MASK ((1ULL << 53) - 1)

int ref_in_shard(const struct ref_match *m, int game)
{
    if (m->shard_n <= 1)
        return 1;
    return ref_group_of(m, game) % m->shard_n == m->shard_i - 1;
}

uint64_t ref_group_seed(uint64_t match_seed, int group)
{
    return mix64(match_seed, 0x67726f7570ULL + (uint64_t)group) & SEED_MASK;
}

uint64_t ref_engine_seed(uint64_t match_seed, int game, int seat)
{
    return mix64(mix64(match_seed, (uint64_t)game), (uint64_t)seat) &
           SEED_MASK;
}

uint64_t ref_keyed_seed(const uint8_t key[16], const char *domain,
                        uint64_t a, uint64_t b, uint64_t c)
{
    uint8_t msg[16 + 24];
    size_t n = strlen(domain);
    uint64_t v[3] = {a, b, c};
    assert(n <= 16);
    memset(msg, 0, sizeof msg);
    memcpy(msg, domain, n);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 8; j++)
            msg[16 + 8 * i + j] = (uint8_t)(v[i] >> (8 * j));
    return siphash24(key, msg, sizeof msg) & SEED_MASK;
}

void ref_key_from_seed(uint64_t seed, uint8_t key[16])
{
    /* A fixed public key: this only spreads the seed over 16 bytes. */
    static const uint8_t pub[16] = "medan-key-public";
    uint8_t msg[8];
    for (int j = 0; j < 8; j++)
        msg[j] = (uint8_t)(seed >> (8 * j));
    for (int h = 0; h < 2; h++) {
        uint64_t v = siphash24(pub, msg, sizeof msg) ^ (uint64_t)h;
        msg[0] ^= (uint8_t)(h + 1);
        for (int j = 0; j < 8; j++)
            key[8 * h + j] = (uint8_t)(v >> (8 * j));
    }
}

uint64_t ref_match_deal_seed(const struct ref_match *m, int group)
{
    if (m->hidden)
        return ref_keyed_seed(m->key, "deal", m->seed, (uint64_t)group, 0);
    return ref_group_seed(m->seed, group);
}

uint64_t ref_match_engine_seed(const struct ref_match *m, int game, int seat)
{
    if (m->hidden)
        return ref_keyed_seed(m->key, "engine", m->seed, (uint64_t)game,
                              (uint64_t)seat);
    return ref_engine_seed(m->seed, game, seat);
}

void ref_key_hex(const uint8_t key[16], char hex[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", key[i]);
}

int ref_key_parse(const char *s, uint8_t key[16])
{
    int k = 0;
    for (; *s; s++) {
        int d;
        if (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t')
            continue;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            return -1;
        if (k == 32)
            return -1;
        if (k % 2 == 0)
            key[k / 2] = (uint8_t)(d << 4);
        else
            key[k / 2] |= (uint8_t)d;
        k++;
    }
    return k == 32 ? 0 : -1;
}

/* ---- one worker ---------------------------------------------------------- */

struct worker {
    struct ref_match *m;
    int id;
    struct ctl_client *inst;   /* nseats slots */
    int *inst_eng;             /* engine of each slot, -1 none */
    int *inst_dead;            /* slot lost its engine through a failure */
};

/* An engine name as a file name: only [A-Za-z0-9_+-.], no leading dot
 * (`name=../evil` stays inside --logdir). */
static void file_name(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (; *name && k + 1 < n; name++) {
        char c = *name;
        int okc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || c == '_' || c == '+' ||
                  c == '-' || (c == '.' && k > 0);
        out[k++] = okc ? c : '_';
    }
    out[k] = '\0';
}

static void log_path(const struct ref_match *m, int worker, int e, int slot,
                     char *buf, size_t n)
{
    char nm[REF_NAME_LEN];
    if (!m->logdir) {
        buf[0] = '\0';
        return;
    }
    file_name(m->eng[e].name, nm, sizeof nm);
    snprintf(buf, n, "%s/%s.w%d.s%d.log", m->logdir, nm, worker, slot);
}

/* How an engine's process is started: its stderr (and the trace) to the
 * log lp when there is one (else discarded), capped at --log-limit. */
static const struct ctl_proc_opts *engine_log(const struct ref_match *m,
                                              const char *lp,
                                              struct ctl_proc_opts *po)
{
    *po = (struct ctl_proc_opts){.logpath = *lp ? lp : NULL,
                                 .trace = m->trace,
                                 .log_limit = m->log_limit,
                                 .log_cut_hint = " (--log-limit)"};
    return po;
}

static void say(struct ref_match *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(struct ref_match *m, const char *fmt, ...)
{
    va_list ap;
    if (m->quiet)
        return;
    va_start(ap, fmt);
    vfprintf(m->out, fmt, ap);
    va_end(ap);
    fflush(m->out);
}

/* Ends the match early (after the running games). Call under mu. */
static void stop_match(struct ref_match *m, const char *why)
{
    if (!m->stop) {
        m->stop = 1;
        snprintf(m->stop_why, sizeof m->stop_why, "%s", why);
        say(m, "Stopping the match: %s\n", why);
    }
}

/* A game that cannot be played at all (no opening, no deal): the match
 * stops with the reason, and the game is dropped (not recorded: --resume
 * plays it).  Library code: the caller (medan-referee's main, medan-web's
 * match) reports stop_why; nothing here ends the process.  Returns 1 (the
 * game is dropped). */
static int game_fails(struct ref_match *m, const char *why)
{
    pthread_mutex_lock(&m->mu);
    stop_match(m, why);
    pthread_mutex_unlock(&m->mu);
    return 1;
}

/* Find or start instances for the seats.  On failure returns the seat
 * (1-based) whose engine could not start; 0 on success. */
static int seat_instances(struct worker *w, const int seat_eng[], int slot_of[],
                          char *err, size_t n)
{
    struct ref_match *m = w->m;
    int used[GAME_MAX_SEATS] = {0};
    for (int s = 0; s < m->nseats; s++) {
        slot_of[s] = -1;
        for (int j = 0; j < m->nseats; j++)
            if (!used[j] && w->inst[j].alive && w->inst_eng[j] == seat_eng[s]) {
                used[j] = 1;
                slot_of[s] = j;
                break;
            }
    }
    for (int s = 0; s < m->nseats; s++) {
        char lp[512];
        struct ctl_proc_opts po;
        int j, e = seat_eng[s], r;
        int64_t t0;
        if (slot_of[s] >= 0)
            continue;
        /* prefer a dead slot, then any unused one */
        for (j = 0; j < m->nseats; j++)
            if (!used[j] && !w->inst[j].alive)
                break;
        if (j == m->nseats)
            for (j = 0; j < m->nseats; j++)
                if (!used[j])
                    break;
        assert(j < m->nseats);
        used[j] = 1;
        slot_of[s] = j;
        if (w->inst[j].alive)
            ctl_client_quit(&w->inst[j]);
        if (w->inst_dead[j]) {
            pthread_mutex_lock(&m->mu);
            m->table.eng[ref_table_engine(&m->table, m->eng[w->inst_eng[j]].name)]
                .restarts++;
            pthread_mutex_unlock(&m->mu);
            w->inst_dead[j] = 0;
        }
        log_path(m, w->id, e, j, lp, sizeof lp);
        t0 = now_us();
        r = ctl_client_start(&w->inst[j], &m->eng[e],
                             engine_log(m, lp, &po), m->handshake_ms, err, n);
        pthread_mutex_lock(&m->mu);
        m->starts++;
        m->start_us += now_us() - t0;
        pthread_mutex_unlock(&m->mu);
        w->inst_eng[j] = e;
        if (r != CTL_OK) {
            w->inst_dead[j] = 1;
            return s + 1;
        }
    }
    return 0;
}

static void set_forfeit(struct ref_record *rec, int seat, const char *reason)
{
    rec->forfeit = seat;
    snprintf(rec->reason, sizeof rec->reason, "%s", reason);
    for (int i = 0; i < rec->nseats; i++)
        rec->rank[i] = 1;
    rec->rank[seat - 1] = rec->nseats;
    rec->has_scores = 0;
}

static const char *fail_word(int rc, int clocked)
{
    switch (rc) {
    case CTL_TIMEOUT: return clocked ? "time_forfeit" : "stall";
    case CTL_EOF: return "crash";
    case CTL_ERROR: return "engine_error";
    default: return "engine_error";
    }
}

struct strbuf {
    char *s;
    size_t len, cap;
};

static void sb_add(struct strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_add(struct strbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    for (;;) {
        va_start(ap, fmt);
        k = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->len) {
            b->len += (size_t)k;
            return;
        }
        b->cap = 2 * b->cap + (size_t)k + 64;
        b->s = xrealloc(b->s, b->cap);
    }
}

/* Handle an engine that failed: kill it when it is not usable now. */
static void after_failure(struct worker *w, int slot, int rc)
{
    struct ref_match *m = w->m;
    struct ctl_client *c = &w->inst[slot];
    char why[256];
    if (rc == CTL_ERROR || rc == CTL_OK)
        return;
    if (rc == CTL_TIMEOUT && c->alive &&
        ctl_client_recover(c, now_us() + (int64_t)m->cmd_ms * 1000) == CTL_OK)
        return; /* it answered stop + ping: usable */
    ctl_client_kill(c);
    w->inst_dead[slot] = 1;
    if (!m->recover) {
        snprintf(why, sizeof why,
                 "engine %s %s (use --recover to restart it and go on)",
                 m->eng[w->inst_eng[slot]].name,
                 rc == CTL_EOF ? "crashed" : "stopped answering");
        pthread_mutex_lock(&m->mu);
        stop_match(m, why);
        pthread_mutex_unlock(&m->mu);
    }
}

static void utc_now(char *b, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(b, n, "%Y.%m.%d %H:%M:%S", &tm);
}

/* The limits of a `go` for seat s: every seat's clock, named by seat,
 * then s's movestogo, movetime, depth and nodes. */
static void go_limits(const struct ref_match *m, const int seat_eng[],
                      const struct ref_clock clk[], int s, char *limits,
                      size_t n)
{
    const struct ref_tc *tc = &m->tc[seat_eng[s]];
    size_t len = 0;
    limits[0] = '\0';
    for (int i = 0; i < m->nseats; i++) {
        const struct ref_tc *ti = &m->tc[seat_eng[i]];
        if (ti->base_ms >= 0)
            buf_printf(limits, n, &len, "%sp%dtime %lld p%dinc %lld",
                       len ? " " : "", i + 1, (long long)clk[i].left_ms,
                       i + 1, (long long)ti->inc_ms);
    }
    if (tc->base_ms >= 0 && tc->moves)
        buf_printf(limits, n, &len, " movestogo %d",
                   tc->moves - clk[s].moves % tc->moves);
    if (tc->movetime_ms >= 0)
        buf_printf(limits, n, &len, "%smovetime %lld", len ? " " : "",
                   (long long)tc->movetime_ms);
    if (tc->depth)
        buf_printf(limits, n, &len, "%sdepth %d", len ? " " : "", tc->depth);
    if (tc->nodes)
        buf_printf(limits, n, &len, "%snodes %llu", len ? " " : "",
                   (unsigned long long)tc->nodes);
}

/* Pondering (ponder=on, two seats): seat s just moved and its engine
 * named a ponder move.  If that move is legal in st (the position after
 * s's move), send the position with it played and `go ponder` with the
 * clocks as they stand; *pmv is the expected reply.  1 when a ponder
 * search is out, 0 when there is none (no or illegal ponder move), or
 * -1 with r_out set when the engine failed. */
static int start_ponder(const struct ref_match *m, struct ctl_client *c,
                        const int seat_eng[], const struct ref_clock clk[],
                        int s, const void *st, const char *pos, gmove *pmv,
                        int *r_out)
{
    const struct game *g = m->g;
    char err[GAME_ERR_LEN], tok[256], limits[512], *cmd;
    size_t cn;
    int r;
    if (!*c->ponder ||
        g->parse_move(st, c->ponder, pmv, err, sizeof err) != GAME_OK)
        return 0;
    g->format_move(st, *pmv, tok, sizeof tok);
    cn = strlen(pos) + strlen(tok) + 2;
    cmd = xmalloc(cn);
    snprintf(cmd, cn, "%s %s", pos, tok);
    r = ctl_client_cmd(c, now_us() + (int64_t)m->cmd_ms * 1000, cmd);
    free(cmd);
    if (r == CTL_OK) {
        char go[600];
        go_limits(m, seat_eng, clk, s, limits, sizeof limits);
        snprintf(go, sizeof go, "ponder%s%s", *limits ? " " : "", limits);
        r = ctl_client_go_async(c, now_us() + (int64_t)m->cmd_ms * 1000, go);
    }
    *r_out = r;
    return r == CTL_OK ? 1 : -1;
}

/* Plays game `game` into rec; 1 when ref_match_cancel dropped it. */
static int play_game(struct worker *w, int game, struct ref_record *rec)
{
    struct ref_match *m = w->m;
    const struct game *g = m->g;
    int seat_eng[GAME_MAX_SEATS], slot_of[GAME_MAX_SEATS], group, bad;
    game_config_buf cfg;
    char err[512], cmd[1024];
    void *st = xmalloc(g->state_size), *view = xmalloc(g->state_size);
    uint64_t *hist = NULL;
    int nhist = 0, histcap = 0, r;
    int64_t own_us = 0, mark = 0; /* referee's own time between engine waits */
    struct ref_clock clk[GAME_MAX_SEATS];
    struct strbuf pos = {NULL, 0, 0};
    char (*line)[CTL_LINE_MAX] = xmalloc(CTL_LINE_MAX);
    uint64_t gseed;
    struct ref_adj_state adjst;
    int adj = REF_ADJ_NONE, loser = -1;
    char adj_why[160] = "";
    int cancelled = 0;
    int pond[GAME_MAX_SEATS] = {0}; /* a ponder search is out for the seat */
    gmove pmv[GAME_MAX_SEATS] = {0}; /* the reply it expects */
    gmove last_mv = GAME_MOVE_NONE;  /* the move just played */

    ref_adj_start(&adjst);
    ref_schedule(m, game, seat_eng);
    group = ref_group_of(m, game);
    gseed = ref_match_deal_seed(m, group);
    cfg = m->cfg;
    rec->game = game;
    rec->seed = gseed;
    rec->match_seed = m->seed;
    snprintf(rec->event, sizeof rec->event, "%s", m->event ? m->event : "");
    snprintf(rec->site, sizeof rec->site, "%s", m->site ? m->site : "");
    if (m->hidden)
        ref_key_hex(m->key, rec->key);
    rec->nseats = m->nseats;
    snprintf(rec->game_name, sizeof rec->game_name, "%s", g->name);
    snprintf(rec->params, sizeof rec->params, "%s", m->params);
    utc_now(rec->date, sizeof rec->date);
    for (int s = 0; s < m->nseats; s++) {
        snprintf(rec->seat_name[s], REF_NAME_LEN, "%s", m->eng[seat_eng[s]].name);
        ref_tc_format(&m->tc[seat_eng[s]], rec->seat_tc[s], sizeof rec->seat_tc[s]);
    }

    /* The start: a deal from the group seed, or the pair's opening. */
    if (m->hidden) {
        char v[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)gseed);
        if (g->config_set(cfg.b, GAME_KEY_SEED, v, err, sizeof err) != GAME_OK) {
            char why[600];
            snprintf(why, sizeof why, "%s: cannot seed a deal: %.500s", g->name, err);
            cancelled = game_fails(m, why);
            goto done;
        }
        g->start(st, cfg.b);
        snprintf(cmd, sizeof cmd, "deal %llu", (unsigned long long)gseed);
        rec->opening = xstrdup(cmd);
    } else {
        rec->opening = ref_opening_make(&m->open, g, cfg.b, m->seed,
                                        ref_opening_slot(m, game), err,
                                        sizeof err);
        if (!rec->opening || ref_opening_apply(g, cfg.b, rec->opening, st, &hist,
                                               &nhist, &histcap, err, sizeof err) < 0) {
            cancelled = game_fails(m, err);
            goto done;
        }
        sb_add(&pos, "position %s%s", rec->opening,
               strstr(rec->opening, " moves") ? "" : " moves");
    }

    pthread_mutex_lock(&m->mu);
    if (m->nseats == 2)
        say(m, "Started game %d of %d (%s vs %s)\n", game, m->games,
            rec->seat_name[0], rec->seat_name[1]);
    else {
        say(m, "Started game %d of %d (", game, m->games);
        for (int s = 0; s < m->nseats; s++)
            say(m, "%s%s", s ? ", " : "", rec->seat_name[s]);
        say(m, ")\n");
    }
    pthread_mutex_unlock(&m->mu);
    if (m->obs && m->obs->game_start)
        m->obs->game_start(m->obs->ctx, rec, st);

    bad = seat_instances(w, seat_eng, slot_of, err, sizeof err);
    if (bad) {
        say(m, "%s\n", err);
        set_forfeit(rec, bad, "crash");
        snprintf(rec->detail, sizeof rec->detail, "%s", err);
        if (!m->recover) {
            pthread_mutex_lock(&m->mu);
            stop_match(m, err);
            pthread_mutex_unlock(&m->mu);
        }
        goto done;
    }
    /* Get each engine ready: idle, seeded, new game with its parameters. */
    for (int s = 0; s < m->nseats; s++) {
        struct ctl_client *c = &w->inst[slot_of[s]];
        int64_t dl = now_us() + (int64_t)m->cmd_ms * 1000;
        size_t len = 0;
        r = ctl_client_sync(c, dl);
        if (r == CTL_OK)
            r = ctl_client_seed(c, dl, ref_match_engine_seed(m, game, s + 1));
        if (r == CTL_OK) {
            buf_printf(cmd, sizeof cmd, &len, "newgame");
            if (*m->params)
                buf_printf(cmd, sizeof cmd, &len, " %s", m->params);
            if (m->hidden)
                buf_printf(cmd, sizeof cmd, &len, " " GAME_KEY_SEAT "=%d", s + 1);
            r = ctl_client_cmd(c, dl, cmd);
        }
        if (r != CTL_OK) {
            set_forfeit(rec, s + 1, fail_word(r, 0));
            snprintf(rec->detail, sizeof rec->detail, "%s: %s before the game",
                     m->eng[seat_eng[s]].name,
                     r == CTL_TIMEOUT ? "no answer" : c->last_error);
            after_failure(w, slot_of[s], r);
            goto done;
        }
        ref_clock_start(&clk[s], &m->tc[seat_eng[s]]);
    }

    for (;;) {
        struct game_result res;
        int s, e;
        struct ctl_client *c;
        const struct ref_tc *tc;
        char limits[512], move[256];
        int64_t allow, elapsed, t_send;
        gmove mv;
        int hit, ponder_miss = 0;

        if (atomic_load(&m->cancel)) {
            cancelled = 1;
            break;
        }
        g->result(st, hist, nhist, &res);
        if (res.over) {
            snprintf(rec->reason, sizeof rec->reason, "%s",
                     res.reason ? res.reason : "over");
            for (int i = 0; i < m->nseats; i++) {
                rec->rank[i] = res.rank[i];
                rec->score[i] = res.score[i];
            }
            rec->has_scores = 1;
            break;
        }
        if (m->maxplies && rec->nmoves >= m->maxplies) {
            snprintf(rec->reason, sizeof rec->reason, "maxplies");
            for (int i = 0; i < m->nseats; i++)
                rec->rank[i] = 1;
            break;
        }
        if (adj != REF_ADJ_NONE) {
            /* Adjudicated from the engines' scores (--draw, --resign,
             * --maxmoves): the reason says so, the detail says why. */
            snprintf(rec->reason, sizeof rec->reason, "%s",
                     adj == REF_ADJ_LOSS ? "resign_adjudication"
                     : adj == REF_ADJ_DRAW ? "draw_adjudication" : "maxmoves");
            snprintf(rec->detail, sizeof rec->detail, "%s", adj_why);
            for (int i = 0; i < m->nseats; i++)
                rec->rank[i] = adj == REF_ADJ_LOSS && i == loser ? 2 : 1;
            break;
        }
        s = g->to_move(st) - 1;
        assert(s >= 0 && s < m->nseats);
        e = seat_eng[s];
        c = &w->inst[slot_of[s]];
        c->cancel = &m->cancel;  /* ref_match_cancel stops its search */
        tc = &m->tc[e];

        /* A ponder search of this seat: its expected reply was played
         * (ponderhit: the clock runs from now, its bestmove is the move)
         * or not (stop; the stopped search's move is read and dropped). */
        hit = 0;
        if (pond[s]) {
            pond[s] = 0;
            if (last_mv == pmv[s])
                hit = 1;
            else {
                int early;
                r = ctl_client_stop_ponder(c, now_us() + (int64_t)m->cmd_ms * 1000,
                                           move, sizeof move, &elapsed, &early);
                if (r != CTL_OK) {
                    set_forfeit(rec, s + 1, fail_word(r, 0));
                    snprintf(rec->detail, sizeof rec->detail, "%s: %s",
                             early ? "go ponder" : "stop of a ponder search",
                             r == CTL_TIMEOUT ? "no bestmove" : c->last_error);
                    after_failure(w, slot_of[s], r);
                    break;
                }
                ponder_miss = 1;
            }
        }

        /* position */
        if (mark)
            own_us += now_us() - mark;
        if (hit)
            r = CTL_OK; /* the engine has it: the ponder position */
        else if (m->hidden) {
            struct strbuf vb = {NULL, 0, 0};
            char *fen = xmalloc(CTL_LINE_MAX);
            if (g->view(st, s + 1, view) != GAME_OK) {
                char why[128];
                free(fen);
                free(vb.s);
                snprintf(why, sizeof why, "%s: view of seat %d failed", g->name, s + 1);
                cancelled = game_fails(m, why);
                goto done;
            }
            g->format_pos(view, fen, CTL_LINE_MAX);
            sb_add(&vb, "position fen %s", fen);
            free(fen);
            r = ctl_client_cmd(c, now_us() + (int64_t)m->cmd_ms * 1000, vb.s);
            free(vb.s);
        } else
            r = ctl_client_cmd(c, now_us() + (int64_t)m->cmd_ms * 1000, pos.s);
        mark = now_us();
        if (r != CTL_OK) {
            set_forfeit(rec, s + 1, fail_word(r, 0));
            snprintf(rec->detail, sizeof rec->detail, "position: %s",
                     r == CTL_TIMEOUT ? "no answer" : c->last_error);
            after_failure(w, slot_of[s], r);
            break;
        }

        go_limits(m, seat_eng, clk, s, limits, sizeof limits);
        allow = ref_clock_allow_us(&clk[s], tc);
        t_send = now_us();
        own_us += t_send - mark;
        if (hit)
            r = ctl_client_ponderhit(c,
                                     t_send + (allow >= 0 ? allow
                                                          : (int64_t)m->nolimit_ms * 1000),
                                     move, sizeof move, &elapsed);
        else
            r = ctl_client_go(c, limits,
                              t_send + (allow >= 0 ? allow
                                                   : (int64_t)m->nolimit_ms * 1000),
                              move, sizeof move, &elapsed);
        if (r != CTL_OK) {
            set_forfeit(rec, s + 1, fail_word(r, allow >= 0));
            if (r == CTL_TIMEOUT)
                snprintf(rec->detail, sizeof rec->detail,
                         "no bestmove within %lld ms%s",
                         (long long)((allow >= 0 ? allow
                                                 : (int64_t)m->nolimit_ms * 1000) /
                                     1000), hit ? " of ponderhit" : "");
            else
                snprintf(rec->detail, sizeof rec->detail, "%s: %s",
                         hit ? "ponderhit" : "go", c->last_error);
            after_failure(w, slot_of[s], r);
            break;
        }
        if (ref_clock_charge(&clk[s], tc, elapsed) < 0) {
            set_forfeit(rec, s + 1, "time_forfeit");
            snprintf(rec->detail, sizeof rec->detail, "bestmove after %lld us",
                     (long long)elapsed);
            ref_record_add_move(rec, s + 1, move, elapsed / 1000);
            break;
        }
        if (g->parse_move(st, move, &mv, err, sizeof err) != GAME_OK) {
            set_forfeit(rec, s + 1, "illegal_move");
            snprintf(rec->detail, sizeof rec->detail, "bestmove %.60s: %.300s",
                     move, err);
            break;
        }
        mark = t_send + elapsed;
        g->format_move(st, mv, move, sizeof move);
        ref_record_add_move(rec, s + 1, move, elapsed / 1000);
        {
            struct ref_move *rm = &rec->moves[rec->nmoves - 1];
            rm->depth = c->last_depth;
            rm->has_score = c->has_score;
            rm->cp = c->has_score ? c->last_score : 0;
            rm->mate = c->has_score ? c->last_mate : 0;
            rm->ponderhit = hit ? 1 : ponder_miss ? -1 : 0;
        }
        if (nhist == histcap) {
            histcap = histcap ? 2 * histcap : 256;
            hist = xrealloc(hist, (size_t)histcap * sizeof *hist);
        }
        hist[nhist++] = g->hash(st);
        g->play(st, mv);
        if (m->obs && m->obs->move)
            m->obs->move(m->obs->ctx, rec, st);
        last_mv = mv;
        if (!m->hidden)
            sb_add(&pos, " %s", move);
        if (m->nseats == 2)
            adj = ref_adj_move(&m->adj, &adjst, s, c->has_score, c->last_score,
                               rec->nmoves, &loser, adj_why, sizeof adj_why);
        if (m->ponder && m->ponder[e] && adj == REF_ADJ_NONE &&
            !(m->maxplies && rec->nmoves >= m->maxplies)) {
            g->result(st, hist, nhist, &res);
            if (!res.over) {
                int k = start_ponder(m, c, seat_eng, clk, s, st, pos.s, &pmv[s], &r);
                if (k < 0) {
                    set_forfeit(rec, s + 1, fail_word(r, 0));
                    snprintf(rec->detail, sizeof rec->detail, "go ponder: %s",
                             r == CTL_TIMEOUT ? "no answer" : c->last_error);
                    after_failure(w, slot_of[s], r);
                    break;
                }
                pond[s] = k;
            }
        }
    }
    /* The game ended (or failed) while an engine pondered: stop its search
     * and read the stopped bestmove, so the engine is idle before a next
     * game or quit.  The game's result stands. */
    for (int s = 0; s < m->nseats; s++)
        if (pond[s] && w->inst[slot_of[s]].alive) {
            char junk[256];
            int64_t el;
            r = ctl_client_stop_ponder(&w->inst[slot_of[s]],
                                       now_us() + (int64_t)m->cmd_ms * 1000,
                                       junk, sizeof junk, &el, NULL);
            if (r != CTL_OK)
                after_failure(w, slot_of[s], r);
        }
done:
    rec->own_us = own_us;
    free(st);
    free(view);
    free(hist);
    free(pos.s);
    free(line);
    return cancelled;
}

/* ---- the collector --------------------------------------------------------- */

static const char *short_result(const struct ref_record *r, char *b, size_t n)
{
    const char *t = ref_record_result_text(r);
    if (t)
        return t;
    {
        size_t len = 0;
        b[0] = '\0';
        buf_printf(b, n, &len, "ranks");
        for (int i = 0; i < r->nseats; i++)
            buf_printf(b, n, &len, " %d", r->rank[i]);
        return b;
    }
}

/* An engine killed by SIGTERM mostly means its whole job is being stopped
 * (scancel, a node going down, kill of the process tree): the same signal
 * reaches the referee, whose stop thread ends the match without recording
 * the games under way (--resume, or the next batch, plays them).  Give
 * that signal a moment to arrive before such a game is recorded as a
 * crash; a crash that is not part of a stop is recorded 2 s later. */
static void sigterm_grace(const struct ref_record *rec)
{
    if (strcmp(rec->reason, "crash") == 0 && strstr(rec->detail, "killed by signal 15)")) {
        struct timespec ts = {2, 0};
        while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
            ;
    }
}

static void finish_game(struct ref_match *m, const struct ref_record *rec)
{
    char rb[64];
    sigterm_grace(rec);
    pthread_mutex_lock(&m->mu);
    /* A file that cannot take the game (disk full, quota, I/O error): the
     * match stops with the reason and the game is not counted (it is not
     * in the file, so --resume plays it again); the games before it stay
     * whole in the file (its reader stops at the last whole line). */
    if ((m->results && ref_record_write_json(rec, m->results) < 0) ||
        (m->records && ref_record_write_pgn(rec, m->records) < 0)) {
        char why[256];
        snprintf(why, sizeof why, "cannot write the %s file: %s",
                 m->results && ferror(m->results) ? "results" : "records",
                 strerror(errno));
        if (m->results)
            clearerr(m->results);
        if (m->records)
            clearerr(m->records);
        stop_match(m, why);
        pthread_mutex_unlock(&m->mu);
        return;
    }
    ref_table_add(&m->table, rec);
    m->played++;
    m->own_us += rec->own_us;
    m->own_moves += rec->nmoves;
    say(m, "Finished game %d (%s", rec->game, rec->seat_name[0]);
    for (int s = 1; s < rec->nseats; s++)
        say(m, " vs %s", rec->seat_name[s]);
    say(m, "): %s {%s%s%s}\n", short_result(rec, rb, sizeof rb), rec->reason,
        *rec->detail ? ": " : "", rec->detail);
    if (m->table.nseats == 2 && m->table.neng == 2) {
        int w, l, d;
        ref_table_wld(&m->table, 0, 1, &w, &l, &d);
        say(m, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n",
            m->table.eng[0].name, m->table.eng[1].name, w, l, d,
            w + l + d ? (w + 0.5 * d) / (w + l + d) : 0.5, w + l + d);
        if (m->sprt_on) {
            int p[5];
            double llr;
            int dec;
            ref_table_penta(&m->table, 0, 1, p);
            dec = ref_sprt_decide(&m->sprt, p, &llr);
            if (dec) {
                char why[128];
                snprintf(why, sizeof why, "SPRT: %s accepted (LLR %.2f)",
                         dec > 0 ? "H1" : "H0", llr);
                stop_match(m, why);
            }
        }
    }
    /* cutechess-cli's -ratinginterval and -outcomeinterval, counted in
     * finished games of the match (a resumed match counts those already
     * in its results file, as cutechess's -resume does). */
    if (!m->quiet && m->rating_interval && m->table.nsum % m->rating_interval == 0)
        ref_table_print_rating(&m->table, m->sprt_on ? &m->sprt : NULL, m->out);
    if (!m->quiet && m->outcome_interval && m->table.nsum % m->outcome_interval == 0)
        ref_table_print_outcomes(&m->table, m->out);
    if (m->obs && m->obs->game_end)
        m->obs->game_end(m->obs->ctx, m, rec);
    pthread_mutex_unlock(&m->mu);
}

/* Everything ref_cli_parse and the match allocated (not the files: the
 * caller opened them through the parser and closes them). */
void ref_match_free(struct ref_match *m)
{
    for (int e = 0; e < m->neng; e++) {
        free(m->eng[e].args);
        free(m->eng[e].opt_name);
        free(m->eng[e].opt_val);
    }
    free(m->restart);
    free(m->ponder);
    m->ponder = NULL;
    for (int i = 0; i < m->nowned; i++)
        free(m->owned[i]);
    ref_openings_free(&m->open);
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

/* Lock-free: the caller may hold its own locks that the observer's
 * calls (made under mu) take. */
void ref_match_cancel(struct ref_match *m)
{
    atomic_store(&m->cancel, 1);
}

static int next_game(struct ref_match *m)
{
    int g = 0;
    pthread_mutex_lock(&m->mu);
    int last = m->last_game && m->last_game < m->games ? m->last_game : m->games;
    while (!m->stop && !atomic_load(&m->cancel) && m->next <= last) {
        int k = m->next++;
        if (!m->done[k] && ref_in_shard(m, k)) {
            g = k;
            break;
        }
    }
    pthread_mutex_unlock(&m->mu);
    return g;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct ref_match *m = w->m;
    int game;
    while ((game = next_game(m)) != 0) {
        struct ref_record rec;
        int dropped;
        ref_record_init(&rec);
        dropped = play_game(w, game, &rec);
        /* Hidden information: an engine process that played a seat of a
         * deal must not play another rotation of it, so every game of a
         * hidden-information game gets fresh processes; so does every
         * game of an engine with restart=on. */
        for (int j = 0; j < m->nseats; j++)
            if (w->inst[j].alive && (m->hidden || m->restart[w->inst_eng[j]]))
                ctl_client_quit(&w->inst[j]); /* or restart=on */
        if (!dropped)
            finish_game(m, &rec);
        ref_record_free(&rec);
    }
    for (int j = 0; j < m->nseats; j++)
        if (w->inst[j].alive)
            ctl_client_quit(&w->inst[j]);
        else
            ctl_client_kill(&w->inst[j]);
    return NULL;
}

/* Start each engine once before the match: a bad command, a refused
 * option, a missing handshake or a `game` line naming another game stops
 * everything before any game. */
static int preflight(struct ref_match *m)
{
    for (int e = 0; e < m->neng; e++) {
        struct ctl_client *c = xcalloc(1, sizeof *c);
        char err[512], lp[512];
        struct ctl_proc_opts po;
        int r;
        log_path(m, 0, e, 0, lp, sizeof lp);
        r = ctl_client_start(c, &m->eng[e], engine_log(m, lp, &po),
                             m->handshake_ms, err, sizeof err);
        if (r != CTL_OK) {
            snprintf(m->stop_why, sizeof m->stop_why, "%s", err);
            m->stop = 1;
            fprintf(stderr, "medan-referee: %s\n", err);
            free(c);
            return -1;
        }
        if (*c->game && strcmp(c->game, m->g->name) != 0) {
            snprintf(m->stop_why, sizeof m->stop_why, "%s plays %s, not %s (its game line)",
                     m->eng[e].name, c->game, m->g->name);
            m->stop = 1;
            fprintf(stderr, "medan-referee: %s: the match cannot start\n", m->stop_why);
            ctl_client_quit(c);
            free(c);
            return -1;
        }
        ctl_client_quit(c);
        free(c);
    }
    return 0;
}

int ref_cores_warning(const struct ref_match *m, long ncpu, FILE *f)
{
    long worst = 1, demand;
    int we = 0;
    if (ncpu <= 0)
        ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu <= 0)
        return 0; /* unknown: nothing to compare with */
    for (int e = 0; e < m->neng; e++) {
        const struct ctl_engine_spec *s = &m->eng[e];
        int64_t t = 1;
        long need;
        for (int i = 0; i < s->nopts; i++)
            if (str_ieq(s->opt_name[i], "Threads") &&
                parse_i64(s->opt_val[i], 1, 1 << 20, &t) < 0)
                t = 1; /* the engine refuses it at start-up */
        need = (long)t * (m->ponder && m->ponder[e] ? 2 : 1);
        if (need > worst) {
            worst = need;
            we = e;
        }
    }
    demand = (long)(m->concurrency < 1 ? 1 : m->concurrency) * worst;
    if (demand <= ncpu)
        return 0;
    {
        int64_t t = worst / (m->ponder && m->ponder[we] ? 2 : 1);
        fprintf(f, "medan-referee: warning: --concurrency %d x %ld searching "
                "thread%s (%s: Threads=%lld%s) = %ld on %ld core%s: the engines "
                "will share cores and play weaker than their settings say\n",
                m->concurrency < 1 ? 1 : m->concurrency, worst,
                worst == 1 ? "" : "s", m->eng[we].name, (long long)t,
                m->ponder && m->ponder[we] ? ", x 2 for ponder=on" : "",
                demand, ncpu, ncpu == 1 ? "" : "s");
    }
    return 1;
}

int ref_match_run(struct ref_match *m)
{
    int nw = m->concurrency < 1 ? 1 : m->concurrency;
    struct worker *w = xcalloc((size_t)nw, sizeof *w);
    pthread_t *th = xcalloc((size_t)nw, sizeof *th);
    pthread_attr_t at;

    if (!m->done)
        m->done = xcalloc((size_t)m->games + 2, 1);
    for (int i = 0; i < m->neng; i++)
        ref_table_engine(&m->table, m->eng[i].name);
    if (m->logdir) {
        struct stat sb;
        const char *why = NULL;
        if (mkdir(m->logdir, 0755) < 0 && errno != EEXIST)
            why = strerror(errno);
        else if (stat(m->logdir, &sb) < 0)
            why = strerror(errno);
        else if (!S_ISDIR(sb.st_mode))
            why = "not a directory";
        if (why) {
            snprintf(m->stop_why, sizeof m->stop_why, "--logdir %s: %s",
                     m->logdir, why);
            m->stop = 1;
            fprintf(stderr, "medan-referee: %s\n", m->stop_why);
            free(w);
            free(th);
            return 2;
        }
    }
    m->next = 1;
    if (!m->skip_preflight && preflight(m) < 0) {
        free(w);
        free(th);
        return 2;
    }
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 16u << 20);
    for (int i = 0; i < nw; i++) {
        w[i].m = m;
        w[i].id = i + 1;
        w[i].inst = xcalloc((size_t)m->nseats, sizeof *w[i].inst);
        w[i].inst_eng = xcalloc((size_t)m->nseats, sizeof *w[i].inst_eng);
        w[i].inst_dead = xcalloc((size_t)m->nseats, sizeof *w[i].inst_dead);
        for (int j = 0; j < m->nseats; j++) {
            w[i].inst_eng[j] = -1;
            ctl_proc_init(&w[i].inst[j].proc);
        }
        if (pthread_create(&th[i], &at, worker_main, &w[i]) != 0) {
            /* the workers already started finish their games */
            free(w[i].inst);
            free(w[i].inst_eng);
            free(w[i].inst_dead);
            pthread_mutex_lock(&m->mu);
            stop_match(m, "cannot start a worker thread");
            pthread_mutex_unlock(&m->mu);
            nw = i;
            break;
        }
    }
    pthread_attr_destroy(&at);
    for (int i = 0; i < nw; i++) {
        pthread_join(th[i], NULL);
        free(w[i].inst);
        free(w[i].inst_eng);
        free(w[i].inst_dead);
    }
    free(w);
    free(th);
    if (atomic_load(&m->cancel))
        stop_match(m, "cancelled"); /* the workers are done: no lock */
    return m->stop && strncmp(m->stop_why, "SPRT", 4) != 0 ? 2 : 0;
}

struct resume_ctx {
    struct ref_match *m;
    int bad, adopted;
    char err[256];
};

/* The record's seats hold the engines the schedule puts there. */
static int resume_seats_fit(const struct ref_match *m,
                            const struct ref_record *r)
{
    int se[GAME_MAX_SEATS];
    if (r->nseats != m->nseats || r->game < 1)
        return 0;
    ref_schedule(m, r->game, se);
    for (int s = 0; s < m->nseats; s++)
        if (strcmp(r->seat_name[s], m->eng[se[s]].name) != 0)
            return 0;
    return 1;
}

static void resume_one(void *ctx, const struct ref_record *r)
{
    struct resume_ctx *c = ctx;
    struct ref_match *m = c->m;
    if (c->bad)
        return;
    if (strcmp(r->game_name, m->g->name) != 0 || r->match_seed != m->seed ||
        strcmp(r->params, m->params) != 0 || r->game > m->games) {
        c->bad = 1;
        snprintf(c->err, sizeof c->err,
                 "game %d in the results file is from another match "
                 "(game, parameters, seed or length differ)", r->game);
        return;
    }
    if (!resume_seats_fit(m, r)) {
        c->bad = 1;
        snprintf(c->err, sizeof c->err,
                 "game %d in the results file has other engines in its seats "
                 "than this schedule (engines, --tournament, --rounds, "
                 "--games or --noswap differ)", r->game);
        return;
    }
    if (m->hidden) {
        uint8_t k[16];
        if (ref_key_parse(r->key, k) < 0) {
            c->bad = 1;
            snprintf(c->err, sizeof c->err,
                     "game %d in the results file has no key (written by an "
                     "older referee?): its deals cannot be continued", r->game);
            return;
        }
        if (m->key_source == REF_KEY_RANDOM && !c->adopted)
            memcpy(m->key, k, sizeof k); /* the match's key is the file's */
        c->adopted = 1;
        if (memcmp(k, m->key, sizeof k) != 0) {
            c->bad = 1;
            snprintf(c->err, sizeof c->err,
                     "game %d in the results file was dealt with another key "
                     "(--key-file or --key-from-seed differ)", r->game);
            return;
        }
    }
    if (ref_table_add(&m->table, r) == 0)
        m->done[r->game] = 1;
}

int ref_match_resume(struct ref_match *m, const char *path, char *err,
                     size_t n)
{
    struct resume_ctx c = {m, 0, 0, ""};
    long good = 0;
    int k;
    struct stat sb;
    if (stat(path, &sb) < 0)
        return 0; /* nothing to resume */
    if (!m->done)
        m->done = xcalloc((size_t)m->games + 2, 1);
    for (int i = 0; i < m->neng; i++)
        ref_table_engine(&m->table, m->eng[i].name);
    k = ref_record_read_file(path, resume_one, &c, &good, err, n);
    if (k < 0)
        return -1;
    if (c.bad)
        return set_err(err, n, -1, "%s: %s", path, c.err);
    if (good < sb.st_size && truncate(path, good) < 0)
        return set_err(err, n, -1, "%s: cannot cut the damaged end", path);
    say(m, "Resuming: %d games already in %s\n", m->table.nsum, path);
    return 0;
}
