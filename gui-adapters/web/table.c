/* table.c - medan-web's table of sessions: finding one by id (and its
 * secret), a slot for a new one (the longest-unseen evicted when full),
 * /api/status, the reaper of sessions whose page went away, shutdown. */
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

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sess *g_sess[MAX_SESSIONS];
static volatile int g_quit;
static pthread_t g_reaper;
static int g_has_reaper;

int web_quitting(void)
{
    return g_quit;
}

struct sess *sess_get(const char *id)
{
    struct sess *s = NULL;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i] && strcmp(g_sess[i]->id, id) == 0) {
            s = g_sess[i];
            pthread_mutex_lock(&s->mu);
            s->refs++;
            s->last_seen = now_us();
            pthread_mutex_unlock(&s->mu);
            break;
        }
    pthread_mutex_unlock(&g_mu);
    return s;
}

struct sess *sess_get_owned(const char *id, const char *secret)
{
    struct sess *s;
    unsigned char diff = 0;
    if (!secret || strlen(secret) != WEB_SECRET_LEN)
        return NULL;
    s = sess_get(id);
    if (!s)
        return NULL;
    for (int i = 0; i < WEB_SECRET_LEN; i++)      /* constant time */
        diff |= (unsigned char)(s->secret[i] ^ secret[i]);
    if (diff) {
        sess_put(s);
        return NULL;
    }
    return s;
}

/* Under g_mu: how many games addr holds. */
static int games_of(const char *addr)
{
    int k = 0;
    for (int i = 0; i < MAX_SESSIONS; i++)
        k += g_sess[i] && strcmp(g_sess[i]->addr, addr) == 0;
    return k;
}

/* Under g_mu: the slot of the game to evict for a new one, -1 for none.
 * Of addr's games only when addr is given, else of every game: first the
 * one without a page (no live stream) unseen longest; then, of the address
 * holding the most games, the oldest (a page kept open does not hold a
 * game for ever). */
static int evictable(const char *addr)
{
    int slot = -1, top = 0;
    int64_t oldest = INT64_MAX;
    const char *most = addr;
    for (int i = 0; i < MAX_SESSIONS; i++) {
        struct sess *o = g_sess[i];
        int listeners;
        int64_t seen;
        if (!o || (addr && strcmp(o->addr, addr) != 0))
            continue;
        pthread_mutex_lock(&o->mu);          /* g_mu, then a session's: as sess_get */
        listeners = o->listeners;
        seen = o->last_seen;
        pthread_mutex_unlock(&o->mu);
        if (listeners == 0 && seen < oldest) {
            oldest = seen;
            slot = i;
        }
    }
    if (slot >= 0)
        return slot;
    if (!most)
        for (int i = 0; i < MAX_SESSIONS; i++)
            if (g_sess[i] && games_of(g_sess[i]->addr) > top) {
                top = games_of(g_sess[i]->addr);
                most = g_sess[i]->addr;
            }
    for (int i = 0; most && i < MAX_SESSIONS; i++) {
        struct sess *o = g_sess[i];
        if (o && strcmp(o->addr, most) == 0 && o->created < oldest) {
            oldest = o->created;
            slot = i;
        }
    }
    return slot;
}

int web_games_per_addr(void)
{
    int cap = web_cfg.games_per_addr ? web_cfg.games_per_addr : web_cfg.max_sessions / 2;
    return cap < 1 ? 1 : cap;
}

/* Put a new session (its one reference the table's) in a slot and start
 * its worker: 200, or 503 with err (the caller still owns s).  An address
 * at its cap of games gives up its own oldest; a full table gives up a game
 * as evictable() says.  The evicted game leaves and the new one takes its
 * slot under one hold of the table's lock, so creators racing for a full
 * table all get a game while any can be evicted (closing the evicted game,
 * which waits for its worker, happens after). */
int sess_table_add(struct sess *s, char *err, size_t n)
{
    int max = web_cfg.max_sessions < MAX_SESSIONS ? web_cfg.max_sessions : MAX_SESSIONS;
    int slot = -1;
    struct sess *out = NULL;

    pthread_mutex_lock(&g_mu);
    if (games_of(s->addr) >= web_games_per_addr()) {
        slot = evictable(s->addr);
        if (slot < 0) {
            pthread_mutex_unlock(&g_mu);
            snprintf(err, n, "too many games open from your address (%d): close a tab",
                     web_games_per_addr());
            return 503;
        }
    }
    for (int i = 0; i < max && slot < 0; i++)
        if (!g_sess[i])
            slot = i;
    if (slot < 0)
        slot = evictable(NULL);
    if (slot < 0) {
        pthread_mutex_unlock(&g_mu);
        snprintf(err, n, "too many games open (%d): close a tab", web_cfg.max_sessions);
        return 503;
    }
    out = g_sess[slot];
    g_sess[slot] = s;
    if (pthread_create(&s->worker, NULL, sess_worker, s) == 0)
        s->has_worker = 1;
    pthread_mutex_unlock(&g_mu);
    if (out)
        sess_close(out);
    return 200;
}

/* Counts only: the ids are the pages' own business (a list of them would
 * let anyone who can reach the server find every game). */
json_t *sess_status(void)
{
    json_t *o = json_object();
    int ns = 0, ne = 0, nl = 0;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++) {
        struct sess *s = g_sess[i];
        if (!s)
            continue;
        ns++;
        pthread_mutex_lock(&s->mu);
        for (int k = 0; k <= GAME_MAX_SEATS; k++)
            ne += web_eng_pid(s->seat[k].e) != 0;
        nl += s->listeners;
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_unlock(&g_mu);
    json_object_set_new(o, "sessions", json_integer(ns));
    json_object_set_new(o, "engines", json_integer(ne));
    json_object_set_new(o, "listeners", json_integer(nl));
    return o;
}

/* ---- the reaper: sessions whose page went away ---------------------- */

static void *reaper(void *arg)
{
    (void)arg;
    while (!g_quit) {
        struct sess *dead[MAX_SESSIONS];
        int nd = 0;
        int64_t now = now_us();
        pthread_mutex_lock(&g_mu);
        for (int i = 0; i < MAX_SESSIONS; i++) {
            struct sess *s = g_sess[i];
            int idle;
            if (!s)
                continue;
            pthread_mutex_lock(&s->mu);
            idle = s->listeners == 0 && s->refs == 1 &&
                   now - s->last_seen > (int64_t)web_cfg.idle_s * 1000000;
            pthread_mutex_unlock(&s->mu);
            if (idle) {
                dead[nd++] = s;
                g_sess[i] = NULL;
            }
        }
        pthread_mutex_unlock(&g_mu);
        for (int i = 0; i < nd; i++)
            sess_close(dead[i]);
        for (int i = 0; i < 5 && !g_quit; i++)
            usleep(100000);
    }
    return NULL;
}

void sess_start_reaper(void)
{
    if (pthread_create(&g_reaper, NULL, reaper, NULL) == 0)
        g_has_reaper = 1;
}

void sess_shutdown(void)
{
    struct sess *all[MAX_SESSIONS];
    int k = 0;
    g_quit = 1;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            struct sess *s = g_sess[i];
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->changed);
            pthread_cond_broadcast(&s->wake);
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&g_mu);
    if (g_has_reaper)
        pthread_join(g_reaper, NULL);
    g_has_reaper = 0;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            all[k++] = g_sess[i];
            g_sess[i] = NULL;
        }
    pthread_mutex_unlock(&g_mu);
    for (int i = 0; i < k; i++)
        sess_close(all[i]);
}

/* Wake every event stream (the server is stopping). */
void sess_wake_all(void)
{
    g_quit = 1;
    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS; i++)
        if (g_sess[i]) {
            pthread_mutex_lock(&g_sess[i]->mu);
            pthread_cond_broadcast(&g_sess[i]->changed);
            pthread_cond_broadcast(&g_sess[i]->wake);
            pthread_mutex_unlock(&g_sess[i]->mu);
        }
    pthread_mutex_unlock(&g_mu);
}
