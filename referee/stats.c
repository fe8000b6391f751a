/* stats.c - match statistics (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

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

/* Elo of a score as cutechess computes it in IEEE arithmetic, each case
 * spelled out rather than left to log10 of a negative number. */
static double cc_elo(double x)
{
    if (isnan(x) || x < 0 || x > 1)
        return NAN;
    if (x == 0)
        return -INFINITY;
    if (x == 1)
        return INFINITY;
    return -400.0 * log10(1.0 / x - 1.0);
}

void ref_elo_cutechess(int w, int l, int d, struct ref_cc *c)
{
    double n = (double)w + l + d, mu, sd, hi, lo;
    if (n <= 0) {
        c->elo = c->margin = c->los = c->draw_ratio = NAN;
        return;
    }
    mu = (w + 0.5 * d) / n;
    sd = sqrt((w * (1 - mu) * (1 - mu) + d * (0.5 - mu) * (0.5 - mu) + l * mu * mu) /
              n) / sqrt(n);
    c->elo = cc_elo(mu);
    hi = cc_elo(mu + REF_Z95 * sd);
    lo = cc_elo(mu - REF_Z95 * sd);
    /* inf - inf is NaN, as in cutechess (4-0-0: "inf +/- nan") */
    c->margin = (isinf(hi) && isinf(lo) && hi == lo) ? NAN : (hi - lo) / 2;
    c->los = w + l > 0 ? 100 * ref_los(w, l) : NAN;
    c->draw_ratio = 100.0 * d / n;
}

/* The pair scores k/4 of the five pentanomial cells. */
static const double pair_score[5] = {0, 0.25, 0.5, 0.75, 1};

/* Maximum-likelihood distribution p over the five cells with mean score s,
 * closest to the observed frequencies q (Lagrange: p_k = q_k / (1 +
 * lambda (a_k - s)), lambda the root of sum q_k (a_k - s) / (1 + lambda
 * (a_k - s)) = 0, a decreasing function on the interval that keeps every
 * p_k positive).  Safeguarded Newton, bisection when Newton leaves the
 * bracket.  0 < s < 1. */
static void mle_mean(const double q[5], double s, double p[5])
{
    double lo = -1.0 / (1.0 - s), hi = 1.0 / s, lam = 0;
    for (int it = 0; it < 100; it++) {
        double f = 0, df = 0, next;
        for (int k = 0; k < 5; k++) {
            double d = pair_score[k] - s, den = 1 + lam * d;
            f += q[k] * d / den;
            df -= q[k] * d * d / (den * den);
        }
        if (f > 0)
            lo = lam;
        else
            hi = lam;
        next = df < 0 ? lam - f / df : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - lam) < 1e-13)
            break;
        lam = next;
    }
    for (int k = 0; k < 5; k++)
        p[k] = q[k] / (1 + lam * (pair_score[k] - s));
}

/* Mean and standard deviation of a distribution over the cells. */
static double dist_mean_sd(const double p[5], double *sd)
{
    double m = 0, v = 0;
    for (int k = 0; k < 5; k++)
        m += p[k] * pair_score[k];
    for (int k = 0; k < 5; k++)
        v += p[k] * (pair_score[k] - m) * (pair_score[k] - m);
    *sd = sqrt(v);
    return m;
}

/* Maximum-likelihood distribution with (mean - 1/2) / sd = t: the mean
 * constraint solved repeatedly with the sd of the last solution. */
static void mle_tvalue(const double q[5], double t, double p[5])
{
    double sd, s;
    dist_mean_sd(q, &sd);
    for (int it = 0; it < 200; it++) {
        double nsd;
        s = 0.5 + t * sd;
        if (s < 1e-6)
            s = 1e-6;
        if (s > 1 - 1e-6)
            s = 1 - 1e-6;
        mle_mean(q, s, p);
        dist_mean_sd(p, &nsd);
        if (fabs(nsd - sd) < 1e-12)
            break;
        sd = nsd;
    }
}

/* Normalised Elo to the t-value of a pair's score: pairs have sqrt(2)
 * times the t of a game, and nElo = t * 800 / ln 10 per game. */
static double nelo_to_pair_t(double nelo)
{
    return sqrt(2.0) * nelo * log(10.0) / 800.0;
}

double ref_sprt_llr(const struct ref_sprt *s, const int p[5])
{
    double n = 0, tot = 0, q[5], p0[5], p1[5], llr = 0;
    for (int k = 0; k < 5; k++)
        n += p[k];
    if (n <= 0)
        return 0;
    /* Empty cells get a small count, so that the constrained maximum
     * exists; it cannot make a tiny sample decisive, since the exact
     * likelihood ratio of one pair is bounded (about 0.03 for 0 vs 10). */
    for (int k = 0; k < 5; k++)
        tot += q[k] = p[k] > 0 ? p[k] : REF_SPRT_EPS;
    for (int k = 0; k < 5; k++)
        q[k] /= tot;
    if (s->model == REF_SPRT_NORMALIZED) {
        mle_tvalue(q, nelo_to_pair_t(s->elo0), p0);
        mle_tvalue(q, nelo_to_pair_t(s->elo1), p1);
    } else {
        mle_mean(q, ref_score_of(s->elo0), p0);
        mle_mean(q, ref_score_of(s->elo1), p1);
    }
    for (int k = 0; k < 5; k++)
        llr += q[k] * log(p1[k] / p0[k]);
    return n * llr;
}

void ref_sprt_default(struct ref_sprt *s)
{
    s->elo0 = 0;
    s->elo1 = 5;
    s->alpha = s->beta = 0.05;
    s->model = REF_SPRT_LOGISTIC;
}

int ref_sprt_set(struct ref_sprt *s, const char *kv)
{
    const char *eq = strchr(kv, '='), *val;
    size_t klen;
    char *end;
    double v;
    if (!eq)
        return -1;
    klen = (size_t)(eq - kv);
    val = eq + 1;
#define KEY(name) (klen == sizeof name - 1 && strncmp(kv, name, klen) == 0)
    if (KEY("model")) {
        if (strcmp(val, "logistic") == 0)
            s->model = REF_SPRT_LOGISTIC;
        else if (strcmp(val, "normalized") == 0)
            s->model = REF_SPRT_NORMALIZED;
        else
            return -1;
        return 0;
    }
    v = strtod(val, &end);
    if (!*val || *end || !isfinite(v))
        return -1;
    if (KEY("elo0"))
        s->elo0 = v;
    else if (KEY("elo1"))
        s->elo1 = v;
    else if (KEY("alpha"))
        s->alpha = v;
    else if (KEY("beta"))
        s->beta = v;
    else
        return -1;
#undef KEY
    return 0;
}

int ref_sprt_valid(const struct ref_sprt *s)
{
    return s->alpha > 0 && s->alpha < 0.5 && s->beta > 0 && s->beta < 0.5 &&
           s->elo0 < s->elo1 && fabs(s->elo0) < 1000 && fabs(s->elo1) < 1000;
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

/* One simulated game of an engine `elo` stronger, with draw ratio d:
 * 2 = win, 1 = draw, 0 = loss (in half points). */
static int sim_game(struct rng *r, double score, double draw)
{
    double u = rng_double(r), win = score - draw / 2;
    return u < win ? 2 : u < win + draw ? 1 : 0;
}

void ref_sprt_simulate(const struct ref_sprt *s, double elo, double draw,
                       int runs, int max_pairs, uint64_t seed,
                       struct ref_sprt_sim *out)
{
    double score = ref_score_of(elo);
    struct rng r;
    memset(out, 0, sizeof *out);
    /* A draw ratio the score allows (win and loss probabilities >= 0). */
    if (draw > 2 * score)
        draw = 2 * score;
    if (draw > 2 * (1 - score))
        draw = 2 * (1 - score);
    rng_seed(&r, seed);
    for (int run = 0; run < runs; run++) {
        int p[5] = {0}, dec = 0, n;
        for (n = 1; n <= max_pairs && !dec; n++) {
            p[sim_game(&r, score, draw) + sim_game(&r, score, draw)]++;
            dec = ref_sprt_decide(s, p, NULL);
        }
        if (dec > 0)
            out->h1++;
        else if (dec < 0)
            out->h0++;
        else
            out->undecided++;
        out->pairs += n - 1;
    }
    out->runs = runs;
}

/* Ratings by maximum likelihood: the logistic (Bradley-Terry) model fitted
 * by the minorization-maximization iteration gamma_i = points_i /
 * sum_j n_ij / (gamma_i + gamma_j), then Elo_i = 400 log10 gamma_i, centred.
 * Each pair that met gets one virtual draw, so a perfect score keeps a
 * finite rating.  Standard errors from the Fisher information, with the
 * ratings constrained to sum to zero: cov = (I + J/n)^-1 - J/n. */
int ref_ratings(int n, const double *games, const double *points, double *elo,
                double *se)
{
    double *g = xcalloc((size_t)n * n, sizeof *g), *s = xcalloc((size_t)n * n, sizeof *s),
           *gam = xcalloc((size_t)n, sizeof *gam), *a = xcalloc((size_t)n * 2 * n, sizeof *a);
    const double k = 400.0 / log(10.0);
    int rc = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = i != j && games[i * n + j] > 0;
            g[i * n + j] = games[i * n + j] + v;
            s[i * n + j] = points[i * n + j] + 0.5 * v;
        }
    for (int i = 0; i < n; i++)
        gam[i] = 1;
    for (int it = 0; it < 10000; it++) {
        double change = 0, logsum = 0;
        for (int i = 0; i < n; i++) {
            double w = 0, d = 0, ng;
            for (int j = 0; j < n; j++)
                if (j != i && g[i * n + j] > 0) {
                    w += s[i * n + j];
                    d += g[i * n + j] / (gam[i] + gam[j]);
                }
            ng = d > 0 && w > 0 ? w / d : gam[i];
            change = fmax(change, fabs(log(ng / gam[i])));
            gam[i] = ng;
        }
        for (int i = 0; i < n; i++)
            logsum += log(gam[i]);
        for (int i = 0; i < n; i++)
            gam[i] /= exp(logsum / n);
        if (change < 1e-12)
            break;
    }
    for (int i = 0; i < n; i++)
        elo[i] = k * log(gam[i]);
    /* Fisher information in natural units, plus J/n; invert by
     * Gauss-Jordan on [A | I]. */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 1.0 / n;
            if (i != j) {
                double p = gam[i] / (gam[i] + gam[j]);
                v -= g[i * n + j] * p * (1 - p);
            } else
                for (int m = 0; m < n; m++)
                    if (m != i) {
                        double p = gam[i] / (gam[i] + gam[m]);
                        v += g[i * n + m] * p * (1 - p);
                    }
            a[i * 2 * n + j] = v;
            a[i * 2 * n + n + j] = i == j;
        }
    for (int c = 0; c < n && rc == 0; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * 2 * n + c]) > fabs(a[piv * 2 * n + c]))
                piv = r;
        if (fabs(a[piv * 2 * n + c]) < 1e-12) {
            rc = -1; /* engines that never met, directly or not */
            break;
        }
        for (int j = 0; j < 2 * n; j++) {
            double t = a[c * 2 * n + j];
            a[c * 2 * n + j] = a[piv * 2 * n + j];
            a[piv * 2 * n + j] = t;
        }
        for (int r = 0; r < n; r++) {
            double f = a[r * 2 * n + c] / a[c * 2 * n + c];
            if (r == c)
                continue;
            for (int j = 0; j < 2 * n; j++)
                a[r * 2 * n + j] -= f * a[c * 2 * n + j];
        }
    }
    for (int i = 0; i < n; i++) {
        double v = rc == 0 ? a[i * 2 * n + n + i] / a[i * 2 * n + i] - 1.0 / n : NAN;
        se[i] = v > 0 ? k * sqrt(v) : rc == 0 ? 0 : NAN;
    }
    free(g);
    free(s);
    free(gam);
    free(a);
    return rc;
}

void ref_rank_ranges(int n, const double *lo, const double *hi, int *best,
                     int *worst)
{
    for (int i = 0; i < n; i++) {
        best[i] = 1;
        worst[i] = n;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            if (lo[j] > hi[i]) /* NaN compares false: no effect */
                best[i]++;
            if (hi[j] < lo[i])
                worst[i]--;
        }
    }
}

void ref_tournament_ratings(int n, const double *games, const double *points,
                            double *elo, double *lo, double *hi, int *best,
                            int *worst)
{
    double *se = xcalloc((size_t)n, sizeof *se);
    if (ref_ratings(n, games, points, elo, se) < 0)
        for (int i = 0; i < n; i++)
            se[i] = NAN;
    for (int i = 0; i < n; i++) {
        lo[i] = isnan(se[i]) ? NAN : elo[i] - REF_Z95 * se[i];
        hi[i] = isnan(se[i]) ? NAN : elo[i] + REF_Z95 * se[i];
    }
    ref_rank_ranges(n, lo, hi, best, worst);
    free(se);
}
