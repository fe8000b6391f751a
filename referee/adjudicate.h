/* adjudicate.h - ending two-seat games early from the engines' own scores,
 * as cutechess-cli does (--draw, --resign, --maxmoves).  Pure: fed one
 * move at a time, no I/O. */
#ifndef REF_ADJUDICATE_H
#define REF_ADJUDICATE_H

#include <stddef.h>

#define REF_ADJ_NONE 0
#define REF_ADJ_DRAW 1
#define REF_ADJ_LOSS 2   /* the seat in *loser lost */
#define REF_ADJ_MAXMOVES 3 /* a draw: --maxmoves reached */

struct ref_adjudication {
    int draw_on;
    int draw_movenumber;   /* full moves before a draw can be given */
    int draw_movecount;    /* consecutive full moves with |score| <= draw_score */
    int draw_score;        /* centipawns */
    int resign_on;
    int resign_movecount;  /* consecutive moves of one side at <= -resign_score */
    int resign_score;
    int resign_twosided;   /* the opponent must agree (score >= resign_score) */
    int maxmoves;          /* full moves, then a draw; 0 = off */
};

/* What the referee remembers during one game. */
struct ref_adj_state {
    int draw_run;          /* consecutive plies with both scores small */
    int resign_run[2];     /* consecutive own moves with a losing score */
    int score[2], has[2];  /* the last score each seat reported */
};

/* Set one "key=value" of --draw (movenumber movecount score) or --resign
 * (movecount score twosided=true|false); -1 on a bad key or value. */
int ref_adj_set_draw(struct ref_adjudication *a, const char *kv);
int ref_adj_set_resign(struct ref_adjudication *a, const char *kv);

void ref_adj_start(struct ref_adj_state *st);
/* After seat (0 or 1) moved, with its score in centipawns from its own
 * point of view (has_score 0 when it sent none: it breaks every run),
 * plies = moves played in the game so far.  Returns REF_ADJ_NONE,
 * REF_ADJ_DRAW, REF_ADJ_MAXMOVES or REF_ADJ_LOSS (*loser = 0 or 1), with
 * why set. */
int ref_adj_move(const struct ref_adjudication *a, struct ref_adj_state *st,
                 int seat, int has_score, int score, int plies, int *loser,
                 char *why, size_t n);

#endif
