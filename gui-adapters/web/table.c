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

/* Put a new session (its one reference the table's) in a free slot,
 * the longest-unseen session evicted when the table is full, and start
 * its worker: 200, or 503 with err (the caller still owns s). */
int sess_table_add(struct sess *s, char *err, size_t n)
{
    int slot = -1;

    pthread_mutex_lock(&g_mu);
    for (int i = 0; i < MAX_SESSIONS && i < web_cfg.max_sessions; i++)
        if (!g_sess[i]) {
            slot = i;
            break;
        }
    if (slot < 0) {
        /* Full: the session whose page has been away longest goes. */
        int64_t oldest = INT64_MAX;
        for (int i = 0; i < MAX_SESSIONS && i < web_cfg.max_sessions; i++) {
            struct sess *o = g_sess[i];
            if (o && o->listeners == 0 && o->last_seen < oldest) {
                oldest = o->last_seen;
                slot = i;
            }
        }
        if (slot >= 0) {
            struct sess *o = g_sess[slot];
            g_sess[slot] = NULL;
            pthread_mutex_unlock(&g_mu);
            sess_close(o);
            pthread_mutex_lock(&g_mu);
            if (g_sess[slot])
                slot = -1;
        }
    }
    if (slot < 0) {
        pthread_mutex_unlock(&g_mu);
        snprintf(err, n, "too many games open (%d): close a tab", web_cfg.max_sessions);
        return 503;
    }
    g_sess[slot] = s;
    if (pthread_create(&s->worker, NULL, sess_worker, s) == 0)
        s->has_worker = 1;
    pthread_mutex_unlock(&g_mu);
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
