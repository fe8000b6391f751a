/* stats.c - match statistics (see stats.h). */
#include "stats.h"

#include <math.h>

double ref_elo_of(double s)
{
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

double ref_score_of(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

static void finish(struct ref_elo *e, double mean, double se)
{
    e->score = mean;
    e->se = se;
    e->elo = ref_elo_of(mean);
    e->lo = ref_elo_of(mean - REF_Z95 * se);
    e->hi = ref_elo_of(mean + REF_Z95 * se);
}

void ref_elo_trinomial(int w, int l, int d, struct ref_elo *e)
{
    double n = (double)w + l + d, s, var;
    if (n <= 0) {
        finish(e, 0.5, 0);
        return;
    }
    s = (w + 0.5 * d) / n;
    var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    finish(e, s, sqrt(var / n));
}

/* Mean and variance of the per-game score of a pair (k/4, k = 0..4). */
static double penta_moments(const int p[5], double *var)
{
    double n = 0, mean = 0, v = 0;
    for (int k = 0; k < 5; k++)
        n += p[k];
    if (n <= 0) {
        *var = 0;
        return 0.5;
    }
    for (int k = 0; k < 5; k++)
        mean += p[k] * (k / 4.0);
    mean /= n;
    for (int k = 0; k < 5; k++)
        v += p[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
    *var = v / n;
    return mean;
}

void ref_elo_pentanomial(const int p[5], struct ref_elo *e)
{
    double var, n = 0, mean = penta_moments(p, &var);
    for (int k = 0; k < 5; k++)
        n += p[k];
    finish(e, mean, n > 0 ? sqrt(var / n) : 0);
}

double ref_los(int w, int l)
{
    if (w + l == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((w - l) / sqrt(2.0 * (w + l))));
}

double ref_sprt_llr(const struct ref_sprt *s, const int p[5])
{
    double n = 0, q[5], mean = 0, var = 0;
    double s0 = ref_score_of(s->elo0), s1 = ref_score_of(s->elo1);
    for (int k = 0; k < 5; k++)
        n += p[k];
    if (n <= 0)
        return 0;
    /* Empty cells get a count of 1e-3 so that a one-sided match (every
     * pair 2-0, variance 0) still has a finite, decisive LLR. */
    for (int k = 0; k < 5; k++)
        q[k] = p[k] ? p[k] : 1e-3;
    {
        double tot = 0;
        for (int k = 0; k < 5; k++)
            tot += q[k];
        for (int k = 0; k < 5; k++)
            mean += q[k] * (k / 4.0);
        mean /= tot;
        for (int k = 0; k < 5; k++)
            var += q[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
        var /= tot;
    }
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

void ref_sprt_bounds(const struct ref_sprt *s, double *lower, double *upper)
{
    *lower = log(s->beta / (1 - s->alpha));
    *upper = log((1 - s->beta) / s->alpha);
}

int ref_sprt_decide(const struct ref_sprt *s, const int p[5], double *llr)
{
    double lo, hi, x = ref_sprt_llr(s, p);
    ref_sprt_bounds(s, &lo, &hi);
    if (llr)
        *llr = x;
    return x >= hi ? 1 : x <= lo ? -1 : 0;
}

void ref_mean_ci(const double *x, int n, double *mean, double *half)
{
    double m = 0, v = 0;
    *mean = 0;
    *half = 0;
    if (n <= 0)
        return;
    for (int i = 0; i < n; i++)
        m += x[i];
    m /= n;
    *mean = m;
    if (n < 2)
        return;
    for (int i = 0; i < n; i++)
        v += (x[i] - m) * (x[i] - m);
    v /= (n - 1);
    *half = REF_Z95 * sqrt(v / n);
}
