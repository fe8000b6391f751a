/* texel.h - evaluation weights fitted to game results, the Texel method
 * (docs/tuning.md).
 *
 * Positions come from the referee's results files (JSON Lines, one game a
 * line, referee/record.h): every game is replayed with the game's own rules
 * from its opening, and each position past the opening plies is labelled
 * with the result of the game for the side to move (1, 0.5, 0).  Only quiet
 * positions are kept: the engine's static evaluation within a margin of its
 * own shallow search's score.
 *
 * The evaluation is reached only through the engine's `eval` member and
 * its `Weights` option ("name=value,..."), so one tool serves every engine
 * that has them (LOA, Fetlar).  Around the current weights w0 the score of
 * position j is taken as linear, s_j(w) = base_j + sum_i f_ji (w_i - w0_i),
 * f measured by central differences through the engine; the fitter
 * minimises E = mean_j (sigma(K s_j) - y_j)^2, sigma(x) = 1 / (1 + e^-x),
 * first over K (weights fixed), then over the weights (K fixed) by damped
 * Gauss-Newton (Levenberg-Marquardt) inside each weight's [min, max].  The
 * tool re-measures f at the new weights and fits again (a few rounds), and
 * reports the error of the real evaluation before and after.
 */
#ifndef MEDAN_TEXEL_H
#define MEDAN_TEXEL_H

#include <stddef.h>

#include "core/game.h"
#include "protocol/engine.h"

#define TEXEL_MAX_WEIGHTS 64

/* ---- the fitter (pure numbers) -------------------------------------------- */
struct texel_data {
    int n, nw;
    double *base; /* n: the score at w0 (side to move's view) */
    double *feat; /* n * nw, row-major: d score / d w_i at w0 */
    double *y;    /* n: the result for the side to move, 0..1 */
};

/* Mean squared error of sigma(K s_j(w0 + dw)) against y (dw NULL: w0). */
double texel_mse(const struct texel_data *d, double k, const double *dw);
/* The K in [1e-6, 1] that minimises the error at w0 + dw. */
double texel_fit_k(const struct texel_data *d, const double *dw);
/* Minimise the error over dw, each dw_i kept in [lo_i, hi_i] (lo <= 0 <=
 * hi), starting from dw as given; at most iters steps.  Returns the error. */
double texel_fit(const struct texel_data *d, double k, double *dw, const double *lo,
                 const double *hi, int iters);

/* ---- positions from results files ---------------------------------------- */
struct texel_positions {
    const struct game *game;
    size_t ssz;          /* game->state_size */
    int n, cap;
    unsigned char *st;   /* n states of ssz bytes */
    double *y;           /* the side to move's result */
    int games, skipped;  /* games read; games left out (forfeits, no result) */
    int wins[2];         /* games read won by seat 1, by seat 2 */
};

void texel_positions_init(struct texel_positions *p, const struct game *g);
void texel_positions_free(struct texel_positions *p);
/* Read a results file: every game of p->game replayed, the positions from
 * ply `skip` on (not over) added with their labels.  A game of another
 * game, a move that does not parse or is illegal, a file that is not a
 * results file: -1 with err (p keeps what earlier files gave; this file's
 * positions are taken back).  Forfeited games are left out (counted in
 * p->skipped).  Returns the positions added. */
int texel_read_results(struct texel_positions *p, const char *path, int skip, char *err,
                       size_t n);

/* ---- the engine's evaluation --------------------------------------------- */
struct texel_weights {
    int nw;
    char name[TEXEL_MAX_WEIGHTS][48];
    int val[TEXEL_MAX_WEIGHTS], lo[TEXEL_MAX_WEIGHTS], hi[TEXEL_MAX_WEIGHTS];
    int step[TEXEL_MAX_WEIGHTS]; /* finite-difference step */
};

/* Read the Weights.<name> lines of a medan-referee tune params file
 * (name,start,min,max,c_end,r_end; other lines are skipped): start, range
 * and step (c_end rounded, at least 1).  0 or -1 with err. */
int texel_read_params(struct texel_weights *w, const char *path, char *err, size_t n);
/* Set values from "name=value,..." (names of w only).  0 or -1 with err. */
int texel_set_values(struct texel_weights *w, const char *spec, char *err, size_t n);
/* "name=value,..." of every weight. */
void texel_format(const struct texel_weights *w, const int *val, char *buf, size_t n);

/* An engine object with its defaults (xcalloc'd; texel_engine_free). */
void *texel_engine_new(const struct engine *e);
void texel_engine_free(const struct engine *e, void *eng);
/* Set the engine's Weights option to the weights of w with values val. */
int texel_engine_weights(const struct engine *e, void *eng, const struct texel_weights *w,
                         const int *val, char *err, size_t n);
/* The static evaluation of a position (side to move's view). */
int texel_eval(const struct engine *e, void *eng, const void *st);
/* A depth-limited search's score of st (cp, side to move's view); 0, or
 * -1 when the search gave no centipawn score (a proven result). */
int texel_search(const struct engine *e, void *eng, const void *st, int depth, int *score);

#endif
