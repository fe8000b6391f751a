/* adjudicate.c - draw, resign and move-count adjudication (see
 * adjudicate.h). */
#include "adjudicate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* "key=value" with an integer value in [lo, hi]. */
static int int_kv(const char *kv, const char *key, int lo, int hi, int *out)
{
    size_t k = strlen(key);
    int64_t v;
    if (strncmp(kv, key, k) != 0 || kv[k] != '=' ||
        parse_i64(kv + k + 1, lo, hi, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

int ref_adj_set_draw(struct ref_adjudication *a, const char *kv)
{
    a->draw_on = 1;
    if (int_kv(kv, "movenumber", 0, 1000000, &a->draw_movenumber) == 0 ||
        int_kv(kv, "movecount", 1, 1000000, &a->draw_movecount) == 0 ||
        int_kv(kv, "score", 0, 1000000, &a->draw_score) == 0)
        return 0;
    return -1;
}

int ref_adj_set_resign(struct ref_adjudication *a, const char *kv)
{
    a->resign_on = 1;
    if (int_kv(kv, "movecount", 1, 1000000, &a->resign_movecount) == 0 ||
        int_kv(kv, "score", 1, 1000000, &a->resign_score) == 0)
        return 0;
    if (strcmp(kv, "twosided=true") == 0 || strcmp(kv, "twosided=1") == 0) {
        a->resign_twosided = 1;
        return 0;
    }
    if (strcmp(kv, "twosided=false") == 0 || strcmp(kv, "twosided=0") == 0) {
        a->resign_twosided = 0;
        return 0;
    }
    return -1;
}

void ref_adj_start(struct ref_adj_state *st) { memset(st, 0, sizeof *st); }

int ref_adj_move(const struct ref_adjudication *a, struct ref_adj_state *st,
                 int seat, int has_score, int score, int plies, int *loser,
                 char *why, size_t n)
{
    int other = 1 - seat;
    st->has[seat] = has_score;
    st->score[seat] = score;
    /* Resign: this side has seen itself lost for movecount moves in a
     * row (and, two-sided, its opponent agreed at its last move). */
    if (a->resign_on) {
        int lost = has_score && score <= -a->resign_score &&
                   (!a->resign_twosided ||
                    (st->has[other] && st->score[other] >= a->resign_score));
        st->resign_run[seat] = lost ? st->resign_run[seat] + 1 : 0;
        if (st->resign_run[seat] >= a->resign_movecount) {
            *loser = seat;
            if (a->resign_twosided)
                snprintf(why, n, "p%d scored <= -%d cp for %d moves, p%d agreed", seat + 1,
                         a->resign_score, a->resign_movecount, other + 1);
            else
                snprintf(why, n, "p%d scored <= -%d cp for %d moves", seat + 1,
                         a->resign_score, a->resign_movecount);
            return REF_ADJ_LOSS;
        }
    }
    /* Draw: both sides' last scores small for movecount full moves, after
     * movenumber full moves. */
    if (a->draw_on) {
        int small = st->has[0] && st->has[1] && abs(st->score[0]) <= a->draw_score &&
                    abs(st->score[1]) <= a->draw_score;
        st->draw_run = small ? st->draw_run + 1 : 0;
        if (plies / 2 >= a->draw_movenumber && st->draw_run / 2 >= a->draw_movecount) {
            snprintf(why, n, "both scores within %d cp for %d moves after move %d",
                     a->draw_score, a->draw_movecount, a->draw_movenumber);
            return REF_ADJ_DRAW;
        }
    }
    if (a->maxmoves && plies >= 2 * a->maxmoves) {
        snprintf(why, n, "%d moves played", a->maxmoves);
        return REF_ADJ_MAXMOVES;
    }
    return REF_ADJ_NONE;
}
