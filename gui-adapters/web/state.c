/* state.c - what a medan-web page sees of its session: the state as
 * JSON (a seat's view in a hidden game, never an engine's output there),
 * Palagan's seconds of a maneuver, the engine processes. */
#include "sess.h"
#include "match.h"
#include "record.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "core/util.h"

/* ---- the page's state ----------------------------------------------- */

static json_t *result_json(struct sess *s, const struct game_result *r)
{
    json_t *o = json_object(), *ranks = json_array(), *scores = json_array();
    char text[256];
    size_t len = 0;
    for (int i = 0; i < r->nseats; i++) {
        json_array_append_new(ranks, json_integer(r->rank[i]));
        json_array_append_new(scores, json_real(r->score[i]));
    }
    if (r->nseats == 2)
        buf_printf(text, sizeof text, &len, "%s", game_outcome2(r));
    else {
        buf_printf(text, sizeof text, &len, "ranks");
        for (int i = 0; i < r->nseats; i++)
            buf_printf(text, sizeof text, &len, " %d", r->rank[i]);
    }
    buf_printf(text, sizeof text, &len, " reason %s scores",
               r->reason ? r->reason : "over");
    for (int i = 0; i < r->nseats; i++)
        buf_printf(text, sizeof text, &len, " %g", r->score[i]);
    json_object_set_new(o, "text", json_string(text));
    json_object_set_new(o, "reason", json_string(r->reason ? r->reason : "over"));
    json_object_set_new(o, "ranks", ranks);
    json_object_set_new(o, "scores", scores);
    (void)s;
    return o;
}

/* The position the page may see: seat `human`'s view in a hidden game
 * played by a person, the whole state otherwise. */
static void page_fen(struct sess *s, const void *st, char *buf, size_t n)
{
    if (s->hidden && s->mode == WEB_PLAY) {
        int rc = s->g->view(st, s->human, s->tmp);
        assert(rc == GAME_OK);
        (void)rc;
        s->g->format_pos(s->tmp, buf, n);
    } else
        s->g->format_pos(st, buf, n);
}

/* Are the game's turns tokens of one or two parts joined by ',' (Palagan)? */
static int two_part(const struct sess *s)
{
    return strcmp(s->g->name, "palagan") == 0;
}

json_t *sess_legal_after(struct sess *s, const char *first, char *err, size_t n)
{
    json_t *out = NULL;
    size_t fl = strlen(first);
    pthread_mutex_lock(&s->mu);
    if (!two_part(s))
        snprintf(err, n, "%s lists its whole turns in the state", s->g->title);
    else if (fl == 0 || fl >= TOK_LEN || strchr(first, ','))
        snprintf(err, n, "'first' takes one maneuver");
    else {
        gmove *mv = xmalloc(MAX_LEGAL * sizeof *mv);
        struct game_result r;
        char tok[TOK_LEN];
        int k;
        sess_result_now(s, &r);
        k = r.over ? 0 : s->g->gen_moves(s->st, mv, MAX_LEGAL);
        out = json_array();
        for (int i = 0; i < k; i++) {
            s->g->format_move(s->st, mv[i], tok, sizeof tok);
            if (strncmp(tok, first, fl) == 0 && tok[fl] == ',')
                json_array_append_new(out, json_string(tok));
        }
        free(mv);
        if (json_array_size(out) == 0) {
            json_decref(out);
            out = NULL;
            snprintf(err, n, "no turn begins with '%.40s' here", first);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return out;
}

json_t *sess_state_locked(struct sess *s)
{
    json_t *o = json_object(), *moves = json_array(), *seats = json_array();
    struct game_result r;
    char *fen = xmalloc(FEN_LEN);
    int tm;

    sess_result_now(s, &r);
    tm = r.over ? 0 : s->g->to_move(s->st);
    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "version", json_integer((json_int_t)s->version));
    json_object_set_new(o, "mode", json_string(s->mode == WEB_PLAY ? "play"
                                               : s->mode == WEB_ANALYSE ? "analyse"
                                                                        : "match"));
    json_object_set_new(o, "game", json_string(s->g->name));
    json_object_set_new(o, "title", json_string(s->g->title));
    json_object_set_new(o, "params", json_string(s->pub_params));
    json_object_set_new(o, "nseats", json_integer(s->nseats));
    json_object_set_new(o, "human", json_integer(s->human));
    json_object_set_new(o, "to_move", json_integer(tm));
    page_fen(s, s->st, fen, FEN_LEN);
    json_object_set_new(o, "fen", json_string(fen));
    if (!s->hidden || s->mode != WEB_PLAY) {
        s->g->format_pos(s->start, fen, FEN_LEN);
        json_object_set_new(o, "start_fen", json_string(fen));
    }
    for (int i = 0; i < s->n; i++)
        json_array_append_new(moves, json_string(s->tok[i]));
    json_object_set_new(o, "moves", moves);
    /* Who made each move (public: the page labels and numbers the moves). */
    {
        json_t *movers = json_array();
        void *x = xmalloc(s->g->state_size);
        memcpy(x, s->start, s->g->state_size);
        for (int i = 0; i < s->n; i++) {
            json_array_append_new(movers, json_integer(s->g->to_move(x)));
            s->g->play(x, s->mv[i]);
        }
        free(x);
        json_object_set_new(o, "movers", movers);
    }
    json_object_set_new(o, "ply", json_integer(s->ply));
    if (!r.over && (s->mode == WEB_ANALYSE ||
                    (s->mode == WEB_PLAY && tm == s->human && s->ply == s->n))) {
        gmove *mv = xmalloc(MAX_LEGAL * sizeof *mv);
        int k = s->g->gen_moves(s->st, mv, MAX_LEGAL);
        json_t *legal = json_array();
        if (two_part(s)) {
            /* Palagan: a turn is one maneuver or two ("a,b"); a size-9
             * board has tens of thousands.  The page gets the one-maneuver
             * turns, the first maneuvers that take a second ("firsts"),
             * and asks for the seconds of the one it picks (/legal). */
            json_t *firsts = json_array(), *seen = json_object();
            for (int i = 0; i < k; i++) {
                char *comma;
                s->g->format_move(s->st, mv[i], fen, TOK_LEN);
                comma = strchr(fen, ',');
                if (!comma) {
                    json_array_append_new(legal, json_string(fen));
                    continue;
                }
                *comma = '\0';
                if (!json_object_get(seen, fen)) {
                    json_object_set_new(seen, fen, json_true());
                    json_array_append_new(firsts, json_string(fen));
                }
            }
            json_decref(seen);
            json_object_set_new(o, "firsts", firsts);
            json_object_set_new(o, "nlegal", json_integer(k));
        } else
            for (int i = 0; i < k; i++) {
                s->g->format_move(s->st, mv[i], fen, TOK_LEN);
                json_array_append_new(legal, json_string(fen));
            }
        free(mv);
        json_object_set_new(o, "legal", legal);
    } else
        json_object_set_new(o, "legal", json_array());
    json_object_set_new(o, "result", r.over ? result_json(s, &r) : json_null());
    json_object_set_new(o, "thinking", json_integer(s->thinking));
    json_object_set_new(o, "message", json_string(s->message));
    for (int i = 1; i <= s->nseats; i++) {
        json_t *e = json_object();
        const struct web_engine_cfg *c = sess_engine_cfg(s->seat[i].cfg);
        int human = s->mode == WEB_PLAY && i == s->human;
        json_object_set_new(e, "seat", json_integer(i));
        json_object_set_new(e, "player", json_string(human ? "you"
                                                     : s->mode == WEB_ANALYSE ? "analysis"
                                                     : c ? c->name : "?"));
        json_object_set_new(e, "strategy", json_string(human ? "" : s->seat[i].strategy));
        json_object_set_new(e, "state", json_string(human ? "" : s->seat[i].state));
        json_object_set_new(e, "used_ms", json_integer(s->seat[i].used_ms));
        json_object_set_new(e, "last_ms", json_integer(s->seat[i].last_ms));
        if (!human)
            json_object_set_new(e, "threads", json_integer(s->seat[i].threads));
        if (!human && !s->hidden) { /* pondering: never in a hidden game */
            json_object_set_new(e, "pondering", json_boolean(s->seat[i].pondering));
            /* the reply it expects (the page may show it) */
            json_object_set_new(e, "ponder_move",
                                json_string(s->seat[i].pondering ? s->seat[i].ponder_tok : ""));
            json_object_set_new(e, "ponder_hits", json_integer(s->seat[i].ponder_hits));
            json_object_set_new(e, "ponder_misses",
                                json_integer(s->seat[i].ponder_misses));
        }
        json_array_append_new(seats, e);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "movetime", json_integer(s->seat[1].movetime));
    json_object_set_new(o, "threads", json_integer(s->seat[1].threads));
    json_object_set_new(o, "ponder", json_boolean(s->seat[1].ponder));
    json_object_set_new(o, "strategy", json_string(s->seat[1].strategy));
    {
        const struct web_engine_cfg *c = sess_engine_cfg(s->seat[s->human > 1 ? 1 : 2].cfg);
        json_object_set_new(o, "engine", json_string(c ? c->name : ""));
    }
    /* Search output: never an engine's of another seat in a hidden game
     * (its principal variation would name the cards it holds). */
    if (!s->hidden || s->mode != WEB_PLAY) {
        json_t *lines = json_array();
        for (int i = 0; i < MAX_PV; i++) {
            json_t *l;
            if (!s->pv[i].depth && !s->pv[i].nodes && !s->pv[i].pv[0])
                continue;
            l = json_object();
            json_object_set_new(l, "multipv", json_integer(i + 1));
            json_object_set_new(l, "depth", json_integer(s->pv[i].depth));
            json_object_set_new(l, "score", json_string(s->pv[i].score));
            json_object_set_new(l, "nodes", json_integer((json_int_t)s->pv[i].nodes));
            json_object_set_new(l, "time", json_integer(s->pv[i].time_ms));
            json_object_set_new(l, "pv", json_string(s->pv[i].pv));
            json_array_append_new(lines, l);
        }
        json_object_set_new(o, "info", lines);
        json_object_set_new(o, "info_seat", json_integer(s->pv_seat));
    }
    json_object_set_new(o, "analysing", json_boolean(s->analysing));
    json_object_set_new(o, "multipv", json_integer(s->multipv));
    if (s->mode == WEB_MATCH && s->wm) {
        json_t *m = web_match_json(s->wm);
        json_object_set_new(m, "game", json_integer(s->match_game));
        json_object_set_new(o, "match", m);
    }
    free(fen);
    return o;
}

json_t *sess_state(struct sess *s, uint64_t *version)
{
    json_t *o;
    pthread_mutex_lock(&s->mu);
    o = sess_state_locked(s);
    if (version)
        *version = s->version;
    pthread_mutex_unlock(&s->mu);
    return o;
}

json_t *sess_engines(struct sess *s)
{
    json_t *pids = json_array();
    pthread_mutex_lock(&s->mu);
    for (int k = 0; k <= GAME_MAX_SEATS; k++)
        if (web_eng_pid(s->seat[k].e))
            json_array_append_new(pids, json_integer(web_eng_pid(s->seat[k].e)));
    pthread_mutex_unlock(&s->mu);
    return json_pack("{s:o}", "engine_pids", pids);
}
