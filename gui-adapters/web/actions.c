/* actions.c - what a page does to its session (move, undo, new,
 * settings, position, step, analyse, stop), each refused whole or done
 * whole. */
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

/* ---- actions -------------------------------------------------------- */

static int act_move(struct sess *s, json_t *req, char *err, size_t n)
{
    const char *tok = sess_jstr(req, "move", NULL);
    int tm;
    if (!tok) {
        snprintf(err, n, "'move' (a move token) is missing");
        return 400;
    }
    if (s->mode == WEB_MATCH) {
        snprintf(err, n, "a match is played by the engines");
        return 400;
    }
    tm = sess_to_move(s);
    if (s->mode == WEB_PLAY) {
        if (tm && tm != s->human) {
            snprintf(err, n, "not your turn: seat %d is to move", tm);
            return 400;
        }
        if (s->paused && tm == 0) {
            snprintf(err, n, "the game is over");
            return 400;
        }
    }
    if (sess_play_token(s, tok, err, n) != GAME_OK)
        return 400;
    s->message[0] = '\0';
    return 200;
}

static int act_undo(struct sess *s, char *err, size_t n)
{
    int k;
    if (s->mode != WEB_PLAY) {
        snprintf(err, n, "undo is for play (use step in analysis)");
        return 400;
    }
    if (s->hidden) {
        snprintf(err, n, "no undo in %s: taking back a draw would show a hidden card",
                 s->g->title);
        return 400;
    }
    /* Back to the person's previous turn. */
    k = s->n;
    do {
        k--;
        if (k < 0)
            break;
        sess_replay(s, k);
    } while (sess_to_move(s) != s->human && k > 0);
    if (k < 0) {
        snprintf(err, n, "no move to take back");
        return 400;
    }
    s->n = s->ply;
    s->pos_gen++;
    s->paused = 0;
    sess_say(s, "took back to move %d", s->ply + 1);
    return 200;
}

static int act_position(struct sess *s, json_t *req, char *err, size_t n)
{
    long long ply = 0;
    const char *fen = sess_jstr(req, "fen", "");
    json_t *moves = json_object_get(req, "moves");
    size_t i;
    json_t *v;
    int rc;

    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "position is for analysis");
        return 400;
    }
    if (moves && !json_is_array(moves)) {
        snprintf(err, n, "'moves' is a list of move tokens");
        return 400;
    }
    if (strlen(fen) >= FEN_LEN) {
        snprintf(err, n, "position string too long");
        return 400;
    }
    if (*fen && strcmp(fen, "start") != 0) {
        rc = s->g->parse_pos(s->tmp, s->cfg, fen, err, n);
        if (rc != GAME_OK)
            return 400;
    } else
        s->g->start(s->tmp, s->cfg);
    /* Check the moves on a copy before anything changes. */
    {
        void *save = xmalloc(s->g->state_size), *st = s->st;
        void *old_start = xmalloc(s->g->state_size);
        gmove *omv = NULL;
        char (*otok)[TOK_LEN] = NULL;
        uint64_t *ohist = NULL;
        int on = s->n, oply = s->ply;
        memcpy(save, st, s->g->state_size);
        memcpy(old_start, s->start, s->g->state_size);
        if (on) {
            omv = xmalloc((size_t)on * sizeof *omv);
            otok = xmalloc((size_t)on * sizeof *otok);
            ohist = xmalloc((size_t)on * sizeof *ohist);
            memcpy(omv, s->mv, (size_t)on * sizeof *omv);
            memcpy(otok, s->tok, (size_t)on * sizeof *otok);
            memcpy(ohist, s->hist, (size_t)on * sizeof *ohist);
        }
        memcpy(s->start, s->tmp, s->g->state_size);
        sess_replay(s, 0);
        s->n = 0;
        rc = GAME_OK;
        json_array_foreach(moves, i, v) {
            char e2[GAME_ERR_LEN];
            if (!json_is_string(v)) {
                snprintf(err, n, "'moves' is a list of move tokens");
                rc = GAME_ESYNTAX;
                break;
            }
            if (sess_play_token(s, json_string_value(v), e2, sizeof e2) != GAME_OK) {
                snprintf(err, n, "move %zu '%.40s': %s", i + 1,
                         json_string_value(v), e2);
                rc = GAME_EILLEGAL;
                break;
            }
        }
        if (rc == GAME_OK && sess_jint(req, "ply", s->n, 0, s->n, &ply, err, n) < 0)
            rc = GAME_ESYNTAX;
        if (rc != GAME_OK) {       /* put everything back */
            memcpy(s->start, old_start, s->g->state_size);
            memcpy(s->st, save, s->g->state_size);
            if (on) {
                memcpy(s->mv, omv, (size_t)on * sizeof *omv);
                memcpy(s->tok, otok, (size_t)on * sizeof *otok);
                memcpy(s->hist, ohist, (size_t)on * sizeof *ohist);
            }
            s->n = on;
            s->ply = oply;
        }
        free(save);
        free(old_start);
        free(omv);
        free(otok);
        free(ohist);
        if (rc != GAME_OK)
            return 400;
    }
    sess_replay(s, (int)ply);            /* the cursor: "ply", else the last move */
    s->nseats = s->g->nseats(s->st);
    s->pos_gen++;
    s->game_gen++;
    memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_step(struct sess *s, json_t *req, char *err, size_t n)
{
    long long ply;
    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "step is for analysis");
        return 400;
    }
    if (sess_jint(req, "ply", s->ply, 0, s->n, &ply, err, n) < 0)
        return 400;
    sess_replay(s, (int)ply);
    s->pos_gen++;
    memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_analyse(struct sess *s, json_t *req, char *err, size_t n)
{
    json_t *on = json_object_get(req, "on");
    long long mpv;
    if (s->mode != WEB_ANALYSE) {
        snprintf(err, n, "analysis runs in an analysis session");
        return 400;
    }
    if (!json_is_boolean(on)) {
        snprintf(err, n, "'on' is true or false");
        return 400;
    }
    if (sess_jint(req, "multipv", s->multipv, 1, MAX_PV, &mpv, err, n) < 0)
        return 400;
    if (json_is_true(on) && sess_to_move(s) == 0) {
        snprintf(err, n, "the game is over: nothing to analyse");
        return 400;
    }
    s->multipv = (int)mpv;
    s->analysing = json_is_true(on);
    s->pos_gen++;
    if (s->analysing)
        memset(s->pv, 0, sizeof s->pv);
    return 200;
}

static int act_new(struct sess *s, json_t *req, char *err, size_t n)
{
    /* Check everything on a copy of the settings first. */
    unsigned char cfg[GAME_MAX_CONFIG];
    char pp[128], ep[128];
    struct seat seats[GAME_MAX_SEATS + 1];
    int human = s->human, given = s->seed_given, bad = 0;
    uint64_t seed = s->seed;
    const char *fen;
    memcpy(cfg, s->cfg, sizeof cfg);
    memcpy(pp, s->pub_params, sizeof pp);
    memcpy(ep, s->eng_params, sizeof ep);
    memcpy(seats, s->seat, sizeof seats);
    fen = sess_jstr(req, "fen", "");
    if (!strcmp(fen, "start"))
        fen = "";
    if (s->mode == WEB_MATCH) {
        snprintf(err, n, "a new match is a new session (POST /api/session with "
                 "mode match); stop this one with the action stop");
        return 400;
    }
    if (sess_apply_params(s, req, err, n) < 0 || sess_apply_settings(s, req, 0, err, n) < 0) {
        bad = 1;
    } else {
        s->g->start(s->tmp, s->cfg);
        if (*fen && s->hidden && s->mode != WEB_ANALYSE) {
            snprintf(err, n, "%s starts from a deal, not a position string", s->g->title);
            bad = 1;
        } else if (*fen && (strlen(fen) >= FEN_LEN ||
                            s->g->parse_pos(s->tmp, s->cfg, fen, err, n) != GAME_OK)) {
            if (strlen(fen) >= FEN_LEN)
                snprintf(err, n, "position string too long");
            bad = 1;
        } else if (s->human > s->g->nseats(s->tmp)) {
            snprintf(err, n, "'seat' takes a seat from 1 to %d", s->g->nseats(s->tmp));
            bad = 1;
        }
    }
    if (bad) {
        memcpy(s->cfg, cfg, sizeof cfg);
        memcpy(s->pub_params, pp, sizeof pp);
        memcpy(s->eng_params, ep, sizeof ep);
        memcpy(s->seat, seats, sizeof seats);
        s->human = human;
        s->seed_given = given;
        s->seed = seed;
        return 400;
    }
    s->analysing = 0;
    sess_new_game(s);
    if (*fen) {
        memcpy(s->start, s->tmp, s->g->state_size);
        s->nseats = s->g->nseats(s->start);
        sess_replay(s, 0);
    }
    s->message[0] = '\0';
    return 200;
}

static int act_settings(struct sess *s, json_t *req, char *err, size_t n)
{
    struct seat seats[GAME_MAX_SEATS + 1];
    memcpy(seats, s->seat, sizeof seats);
    if (json_object_get(req, "seat")) {
        snprintf(err, n, "a new seat needs a new game");
        return 400;
    }
    if (sess_apply_settings(s, req, 0, err, n) < 0) {
        memcpy(s->seat, seats, sizeof seats);
        return 400;
    }
    return 200;
}

int sess_action(struct sess *s, const char *action, json_t *req, char *err,
                size_t n)
{
    int code;
    if (!json_is_object(req)) {
        snprintf(err, n, "the request body must be a JSON object");
        return 400;
    }
    pthread_mutex_lock(&s->mu);
    if (s->closing)
        code = 404, snprintf(err, n, "the session is closed");
    else if (strcmp(action, "move") == 0)
        code = act_move(s, req, err, n);
    else if (strcmp(action, "undo") == 0)
        code = act_undo(s, err, n);
    else if (strcmp(action, "new") == 0)
        code = act_new(s, req, err, n);
    else if (strcmp(action, "settings") == 0)
        code = act_settings(s, req, err, n);
    else if (strcmp(action, "position") == 0)
        code = act_position(s, req, err, n);
    else if (strcmp(action, "step") == 0)
        code = act_step(s, req, err, n);
    else if (strcmp(action, "analyse") == 0)
        code = act_analyse(s, req, err, n);
    else if (strcmp(action, "stop") == 0 && s->mode == WEB_MATCH) {
        web_match_stop(s->wm);      /* lock-free; the match says when done */
        code = 200;
    } else {
        snprintf(err, n, "no action '%.40s'", action);
        code = 404;
    }
    if (code == 200) {
        sess_bump(s);
        pthread_cond_broadcast(&s->wake);
    }
    pthread_mutex_unlock(&s->mu);
    return code;
}
