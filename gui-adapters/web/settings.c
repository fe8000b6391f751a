/* settings.c - the settings a request gives a session (JSON fields,
 * the game's parameters, the seats' engine, time and Threads, a match's
 * engines), checked before anything changes. */
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
#include "engines/registry.h"

/* ---- JSON helpers --------------------------------------------------- */

/* The server's configuration (main.c fills it from the command line). */
struct web_config web_cfg;

const char *sess_jstr(json_t *o, const char *k, const char *def)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : def;
}

/* An integer field: def when absent; -1 with err when not an integer or
 * out of lo..hi. */
int sess_jint(json_t *o, const char *k, long long def, long long lo,
                long long hi, long long *out, char *err, size_t n)
{
    json_t *v = json_object_get(o, k);
    if (!v || json_is_null(v)) {
        *out = def;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        snprintf(err, n, "'%s' takes a whole number from %lld to %lld", k, lo,
                 hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

/* Apply the game's parameters of a request (size, players, seed) to cfg. */
int sess_apply_params(struct sess *s, json_t *req, char *err, size_t n)
{
    static const char *const keys[] = {"size", "players", NULL};
    char val[32];
    size_t len = 0;
    s->g->config_default(s->cfg);
    s->pub_params[0] = s->eng_params[0] = '\0';
    for (int i = 0; keys[i]; i++) {
        json_t *v = json_object_get(req, keys[i]);
        if (!v || json_is_null(v))
            continue;
        if (!json_is_integer(v)) {
            snprintf(err, n, "'%s' takes a whole number", keys[i]);
            return -1;
        }
        snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
        if (s->g->config_set(s->cfg, keys[i], val, err, n) != GAME_OK)
            return -1;
        buf_printf(s->pub_params, sizeof s->pub_params, &len, "%s%s=%s",
                   len ? " " : "", keys[i], val);
    }
    snprintf(s->eng_params, sizeof s->eng_params, "%s", s->pub_params);
    if (s->hidden) {
        json_t *v = json_object_get(req, "seed");
        s->seed_given = 0;
        if (v && !json_is_null(v)) {
            /* whoever knows the deal's seed computes every hand: a player
             * never chooses it (the engines' rule for hidden information) */
            if (s->mode == WEB_PLAY && !web_cfg.allow_seed) {
                snprintf(err, n, "'seed' is refused: whoever knows the deal's seed "
                                 "knows every hand (the server draws the deal)");
                return -1;
            }
            if (!json_is_integer(v) || json_integer_value(v) < 0) {
                snprintf(err, n, "'seed' takes a whole number >= 0");
                return -1;
            }
            s->seed = (uint64_t)json_integer_value(v);
            s->seed_given = 1;
        }
    }
    if (s->g->config_check && s->g->config_check(s->cfg, err, n) != GAME_OK)
        return -1;
    return 0;
}

/* The seat settings of a request: seat, movetime, strategy, engine. */
int sess_apply_settings(struct sess *s, json_t *req, int creating, char *err,
                          size_t n)
{
    long long seat, mt, th;
    const char *st, *en;
    int cfg, ponder;
    int maxseat = s->g->max_seats;
    json_t *pj = json_object_get(req, "ponder");

    if (sess_jint(req, "seat", creating ? 1 : s->human, 0, maxseat, &seat, err, n) < 0 ||
        sess_jint(req, "movetime", creating ? 500 : s->seat[1].movetime, 10,
             web_cfg.max_movetime, &mt, err, n) < 0 ||
        sess_jint(req, "threads", creating ? 1 : s->seat[1].threads, 1, 256, &th, err,
             n) < 0)
        return -1;
    if (pj && !json_is_boolean(pj)) {
        snprintf(err, n, "'ponder' must be true or false");
        return -1;
    }
    ponder = pj ? json_is_true(pj) : creating ? 0 : s->seat[1].ponder;
    /* Pondering guesses the person's reply in a position both see. */
    if (ponder && (s->hidden || s->g->max_seats != 2)) {
        snprintf(err, n, "pondering needs a two-seat game of perfect information "
                 "(%s has %s)", s->g->name,
                 s->hidden ? "hidden information" : "more seats");
        return -1;
    }
    st = sess_jstr(req, "strategy", creating ? "" : s->seat[1].strategy);
    en = sess_jstr(req, "engine", NULL);
    cfg = sess_find_engine(s->g->name, en);
    if (cfg < 0) {
        snprintf(err, n, en ? "no engine '%s' for %s" : "%s%s has no engine",
                 en ? en : "", s->g->name);
        return -1;
    }
    if (!sess_strategy_ok(cfg, st)) {
        snprintf(err, n, "engine %s has no Strategy '%s'",
                 web_cfg.eng[cfg].name, st);
        return -1;
    }
    if (th > web_cores()) {
        snprintf(err, n, "'threads' takes at most %d here (this machine has %d cores)",
                 web_cores(), web_cores());
        return -1;
    }
    if (th > 1 && th > web_cfg.eng[cfg].threads_max) {
        if (web_cfg.eng[cfg].threads_max)
            snprintf(err, n, "engine %s takes at most %d threads",
                     web_cfg.eng[cfg].name, web_cfg.eng[cfg].threads_max);
        else
            snprintf(err, n, "engine %s has no Threads option (one thread only)",
                     web_cfg.eng[cfg].name);
        return -1;
    }
    if (s->mode == WEB_PLAY && seat == 0) {
        snprintf(err, n, "'seat' takes a seat from 1 to %d", maxseat);
        return -1;
    }
    if (s->mode == WEB_PLAY)
        s->human = (int)seat;
    for (int i = 0; i <= GAME_MAX_SEATS; i++) {
        s->seat[i].cfg = cfg;
        s->seat[i].movetime = (int)mt;
        s->seat[i].threads = (int)th;
        s->seat[i].ponder = ponder;
        snprintf(s->seat[i].strategy, sizeof s->seat[i].strategy, "%s", st);
    }
    return 0;
}

/* The match's engines as the page names them (the referee's library
 * checks them again, with everything else: match.c). */
int sess_apply_match(struct sess *s, json_t *req, char *err, size_t n)
{
    s->a_cfg = sess_find_engine(s->g->name, sess_jstr(req, "a", NULL));
    s->b_cfg = sess_find_engine(s->g->name, sess_jstr(req, "b", NULL));
    if (s->a_cfg < 0 || s->b_cfg < 0) {
        snprintf(err, n, "no such engine for %s", s->g->name);
        return -1;
    }
    snprintf(s->a_strategy, sizeof s->a_strategy, "%s", sess_jstr(req, "a_strategy", ""));
    snprintf(s->b_strategy, sizeof s->b_strategy, "%s", sess_jstr(req, "b_strategy", ""));
    return 0;
}
