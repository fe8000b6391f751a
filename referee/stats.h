/* stats.h - match statistics: Elo with intervals, LOS, pentanomial pairs,
 * SPRT, means with confidence intervals.  Pure functions, no I/O.
 *
 * Elo is logistic: E = 1 / (1 + 10^(-elo/400)).  Scores are from the first
 * engine's point of view.  Intervals are 95% normal intervals on the mean
 * score mapped through the Elo curve.
 */
#ifndef REF_STATS_H
#define REF_STATS_H

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

/* Sequential probability ratio test on pair statistics. */
struct ref_sprt {
    double elo0, elo1, alpha, beta;
};
/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) on the pentanomial
 * counts, by the normal (GSPRT) approximation. */
double ref_sprt_llr(const struct ref_sprt *s, const int p[5]);
/* Bounds: lower = ln(beta/(1-alpha)), upper = ln((1-beta)/alpha). */
void ref_sprt_bounds(const struct ref_sprt *s, double *lower, double *upper);
/* 1: accept H1, -1: accept H0, 0: continue. */
int ref_sprt_decide(const struct ref_sprt *s, const int p[5], double *llr);

/* Mean of x[0..n) with the half-width of its 95% interval (sample sd). */
void ref_mean_ci(const double *x, int n, double *mean, double *half);

#endif
