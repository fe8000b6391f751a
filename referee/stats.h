/* stats.h - match statistics: Elo with intervals, LOS, pentanomial pairs,
 * SPRT, means with confidence intervals.  Pure functions, no I/O.
 *
 * Elo is logistic: E = 1 / (1 + 10^(-elo/400)).  Scores are from the first
 * engine's point of view.  Intervals are 95% normal intervals on the mean
 * score mapped through the Elo curve.
 */
#ifndef REF_STATS_H
#define REF_STATS_H

#include <stdint.h>

#define REF_Z95 1.959963984540054

struct ref_elo {
    double score;      /* mean score per game, 0..1 */
    double elo, lo, hi;/* estimate and 95% interval (+-inf at 0 or 1) */
    double se;         /* standard error of the mean score per game */
};

double ref_elo_of(double score);   /* logistic Elo of a score (+-inf) */
double ref_score_of(double elo);   /* inverse */
/* From game counts (trinomial, per game). n = w+l+d > 0. */
void ref_elo_trinomial(int w, int l, int d, struct ref_elo *e);
/* From pair counts: p[k] = pairs scoring k/2 points of 2 (k=0..4). */
void ref_elo_pentanomial(const int p[5], struct ref_elo *e);
/* Likelihood of superiority from wins and losses (draws carry none). */
double ref_los(int w, int l);

/* The figures of cutechess-cli's closing line "Elo difference: E +/- M,
 * LOS: L %, DrawRatio: D %", computed as cutechess does (its elo.cpp):
 * mu = (w + d/2)/n, sd = sqrt((w(1-mu)^2 + d(1/2-mu)^2 + l mu^2)/n)/sqrt(n),
 * elo(x) = -400 log10(1/x - 1), E = elo(mu), M = (elo(mu + z sd) -
 * elo(mu - z sd))/2 with z = REF_Z95 (cutechess approximates it as
 * 1.95716), LOS = 100 (1 + erf((w-l)/sqrt(2(w+l))))/2, D = 100 d/n.  And
 * as cutechess gets them from IEEE arithmetic where they are not finite:
 * elo(1) = +inf, elo(0) = -inf, elo(x) = NaN for x outside [0, 1]; so
 * 4-0-0 gives E = +inf and M = NaN (inf - inf), 3-1-0 gives E = +190.8 and
 * M = NaN (mu + z sd > 1), LOS is NaN without wins or losses, and n = 0
 * gives NaN everywhere. */
struct ref_cc {
    double elo, margin, los, draw_ratio;
};
void ref_elo_cutechess(int w, int l, int d, struct ref_cc *c);

/* Sequential probability ratio test on pair statistics: the generalized
 * SPRT of fishtest and fastchess, with the exact likelihood ratio of the
 * maximum-likelihood pentanomial distributions under H0 and H1 (so that a
 * handful of pairs can never give a large LLR).  model: elo0/elo1 are
 * logistic Elo (the default) or normalized Elo. */
#define REF_SPRT_LOGISTIC   0
#define REF_SPRT_NORMALIZED 1
#define REF_SPRT_EPS        1e-3 /* count given to an empty cell */
struct ref_sprt {
    double elo0, elo1, alpha, beta;
    int model;
};
/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) on the pentanomial
 * counts. */
double ref_sprt_llr(const struct ref_sprt *s, const int p[5]);
/* Bounds: lower = ln(beta/(1-alpha)), upper = ln((1-beta)/alpha). */
void ref_sprt_bounds(const struct ref_sprt *s, double *lower, double *upper);
/* 1: accept H1, -1: accept H0, 0: continue. */
int ref_sprt_decide(const struct ref_sprt *s, const int p[5], double *llr);
/* elo0=0 elo1=5 alpha=beta=0.05, logistic. */
void ref_sprt_default(struct ref_sprt *s);
/* Set one "key=value" (elo0, elo1, alpha, beta, model=logistic|normalized);
 * -1 on an unknown key or a bad value, s unchanged. */
int ref_sprt_set(struct ref_sprt *s, const char *kv);
/* 1 when 0 < alpha, beta < 0.5, elo0 < elo1, |elo| < 1000. */
int ref_sprt_valid(const struct ref_sprt *s);

/* SPRT on simulated matches: `runs` matches of pairs between engines
 * `elo` apart (logistic) with draw ratio `draw`, each until the test
 * decides or `max_pairs` pairs; seeded, so repeatable. */
struct ref_sprt_sim {
    int runs, h1, h0, undecided;
    long long pairs; /* pairs played over all runs */
};
void ref_sprt_simulate(const struct ref_sprt *s, double elo, double draw,
                       int runs, int max_pairs, uint64_t seed,
                       struct ref_sprt_sim *out);

/* Ratings of n engines from their games: games[i*n+j] games and
 * points[i*n+j] points of i against j.  Maximum likelihood under the
 * logistic model (one virtual draw per pair that met), Elo centred on 0,
 * with standard errors.  -1 when the engines fall apart into groups that
 * never met (se then NaN). */
int ref_ratings(int n, const double *games, const double *points, double *elo,
                double *se);

/* Rank ranges from intervals: best[i] = 1 + engines whose lower bound is
 * above i's upper bound, worst[i] = n - engines whose upper bound is below
 * i's lower bound.  A NaN bound counts as unbounded. */
void ref_rank_ranges(int n, const double *lo, const double *hi, int *best,
                     int *worst);
/* Elo (ref_ratings), its 95% interval and rank range of n engines from
 * the games[i*n+j] and points[i*n+j] of i against j; lo/hi NaN when the
 * engines fall apart into groups that never met. */
void ref_tournament_ratings(int n, const double *games, const double *points,
                            double *elo, double *lo, double *hi, int *best,
                            int *worst);
/* Mean of x[0..n) with the half-width of its 95% interval (sample sd). */
void ref_mean_ci(const double *x, int n, double *mean, double *half);

#endif
