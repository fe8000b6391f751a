/* duplicate.c - medan-battalion-duplicate: strength of Battalion players over
 * duplicate deals, in-process (a benchmark, not part of `make test`).
 *
 * Each deal (seed, game number) is played N times with one `strong` player
 * rotated through every seat against N-1 `weak` players; every player sees
 * only its own view.  Per deal: the strong player's mean chips gained and
 * mean win share (a shared win counts 1/k) over the rotations; the report
 * gives means with 95% confidence intervals over deals.
 *
 *   medan-battalion-duplicate [--deals 300] [--first 0] [--players 4]
 *       [--strong search|heuristic|random] [--weak heuristic|random]
 *       [--iters 1000 | --ms 50] [--cutoff 4] [--seed 1] [--strong-seats K]
 *       [--set name=value]... [--base name=value]...
 *       [--threads T] [--base-threads T] [-v]
 *   medan-battalion-duplicate --fit G [--fit-drop NAME]... [--first 0] [--players 4] [--seed 1]
 *
 * --set changes a search parameter of the strong player (bat_search_set);
 * --base makes the run a paired comparison: every deal is also played with
 * the baseline parameters (the defaults changed by the --base settings) and
 * the report gives the difference, new minus base, with its 95% interval
 * over deals.  --strong-seats K seats K strong players (spread evenly
 * round the table, the pattern rotated through every seat) against N-K weak
 * ones; a game's figures are then the mean over the strong seats.
 * --threads T searches the strong player with T threads (bat_search_par, as
 * medan-battalion's Threads option); --base-threads T makes the run paired
 * with a baseline searching with T threads (e.g. --threads 2
 * --base-threads 1: Threads=2 against Threads=1 at equal time, --ms).
 *
 * --fit G fits the search's learned leaf (parameter leaf=1): G games of the
 * heuristic against itself (--fit-strong 1: against the search in seat
 * g mod N of game g, --iters or --ms and --set as in a match, the samples
 * of the search's seat only: the weights of leaf_self, printed self<N>_*;
 * --fit-strong 2: the same games, the samples of the heuristic's seats, the
 * weights leaf<N>_* of the others facing the search), and at every attack after the first, for every
 * seat, the chips it gains by the end of the game against its features then
 * (bat_leaf_features); least squares with an intercept, printed as --set
 * lines with standard errors; --fit-drop NAME (repeatable) holds feature
 * NAME at 0 and fits the others without it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../core/util.h"
#include "../../../core/version.h"
#include "../ismcts.h"
#include "../policy.h"
#include "../battalion.h"

enum kind { P_SEARCH, P_HEURISTIC, P_RANDOM };

struct opts {
    int deals, first, players, iters, ms, cutoff, verbose, nstrong, paired, fit, fit_strong;
    unsigned fit_drop; /* --fit-drop: features held at 0 (bit i: bat_leaf_names[i]) */
    enum kind strong, weak;
    uint64_t seed;
    struct bat_search_params set, base; /* the strong player's, the baseline's */
    int threads, base_threads;          /* --threads, --base-threads (bat_search_par) */
};

static enum kind parse_kind(const char *s)
{
    if (strcmp(s, "search") == 0)
        return P_SEARCH;
    if (strcmp(s, "heuristic") == 0)
        return P_HEURISTIC;
    if (strcmp(s, "random") == 0)
        return P_RANDOM;
    die("unknown player kind '%s'", s);
}

static const char *kind_name(enum kind k)
{
    return k == P_SEARCH ? "search" : k == P_HEURISTIC ? "heuristic" : "random";
}

struct deadline {
    int64_t end;
};

static int past(void *ctx)
{
    return now_us() >= ((struct deadline *)ctx)->end;
}

static struct bat_tree *tree;
static struct bat_tree *trees[BAT_MAX_THREADS]; /* --threads > 1: trees[0] is tree */
static uint64_t total_iters, total_decisions;

static gmove decide(enum kind k, const struct bat_state *view, const struct opts *o,
                    const struct bat_search_params *sp, struct rng *r)
{
    struct bat_search_params p = *sp;
    struct bat_report rep;
    struct deadline dl;
    gmove m;
    if (k == P_RANDOM)
        return bat_random_move(view, r);
    if (k == P_HEURISTIC)
        return bat_heuristic_move(view, r);
    if (o->ms > 0) {
        dl.end = now_us() + (int64_t)o->ms * 1000;
        p.stop = past;
        p.stop_ctx = &dl;
    } else {
        p.iterations = (uint64_t)o->iters;
    }
    int nt = sp == &o->base ? o->base_threads : o->threads;
    if (nt <= 1) {
        m = bat_search(tree, view, &p, r, &rep);
    } else {
        /* as medan-battalion with Threads: the first thread on r, each
         * other on its own stream drawn from r */
        struct rng rs[BAT_MAX_THREADS];
        for (int i = 1; i < nt; i++)
            rng_seed(&rs[i], rng_next(r) ^ (uint64_t)i);
        rs[0] = *r;
        m = bat_search_par(trees, nt, view, &p, rs, &rep);
        *r = rs[0];
    }
    total_iters += rep.iterations;
    total_decisions++;
    return m;
}

/* Is seat s strong in rotation `rot` (K strong seats spread evenly)? */
static int is_strong(const struct opts *o, int rot, int s)
{
    int N = o->players, K = o->nstrong;
    for (int i = 0; i < K; i++)
        if ((rot + i * N / K) % N == s)
            return 1;
    return 0;
}

/* Play deal d in rotation `rot` (the strong seats' pattern turned by rot)
 * with search parameters sp; returns the strong seats' mean chips gained and
 * win share. */
static void play(const struct opts *o, const struct bat_search_params *sp, int d, int rot,
                 double *gain, double *win, int *attacks)
{
    struct bat_state st, v;
    struct rng r[BAT_MAX_SEATS];
    int N = o->players, best = 0, nbest = 0;
    bat_deal(&st, N, o->seed, (uint64_t)d);
    for (int s = 0; s < N; s++)
        rng_seed(&r[s], mix64(mix64(o->seed ^ 0x5eed, (uint64_t)d),
                              (uint64_t)(rot * 8 + s)));
    while (!bat_over(&st)) {
        int s = st.act;
        gmove m;
        bat_make_view(&st, s, &v);
        /* the oracle measurement searches the full state; everyone else the view */
        m = decide(is_strong(o, rot, s) ? o->strong : o->weak,
                   is_strong(o, rot, s) && sp->oracle ? &st : &v, o, sp, &r[s]);
        if (m == GAME_MOVE_NONE) {
            char buf[4096];
            bat_format_pos(&st, buf, sizeof buf);
            die("no move in %s", buf);
        }
        {
            char err[GAME_ERR_LEN];
            if (bat_check(&st, m, err, sizeof err))
                die("illegal move from %s: %s", kind_name(is_strong(o, rot, s) ? o->strong : o->weak),
                    err);
        }
        bat_play(&st, m);
    }
    for (int s = 0; s < N; s++)
        if (st.chips[s] > best)
            best = st.chips[s];
    for (int s = 0; s < N; s++)
        nbest += st.chips[s] == best;
    *gain = *win = 0;
    for (int s = 0; s < N; s++)
        if (is_strong(o, rot, s)) {
            *gain += (double)(st.chips[s] - BAT_CHIPS) / o->nstrong;
            *win += (st.chips[s] == best ? 1.0 / nbest : 0.0) / o->nstrong;
        }
    *attacks = st.attacks;
}

static void ci(const double *x, int n, double *mean, double *half)
{
    double s = 0, ss = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    *mean = s / n;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *half = n > 1 ? 1.96 * sqrt(ss / (n - 1) / n) : 0;
}

/* Solve the k x k system a x = b (a, b destroyed) by Gaussian elimination
 * with partial pivoting; the inverse of a goes to inv (for the standard
 * errors).  Returns -1 when a is singular. */
#define FIT_K (BAT_LEAF_NF + 1)
static int solve(double a[FIT_K][FIT_K], double *b, double inv[FIT_K][FIT_K], double *x)
{
    double m[FIT_K][2 * FIT_K + 1];
    int k = FIT_K;
    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
            m[i][j] = a[i][j];
            m[i][k + j] = i == j;
        }
        m[i][2 * k] = b[i];
    }
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int i = c + 1; i < k; i++)
            if (fabs(m[i][c]) > fabs(m[piv][c]))
                piv = i;
        if (fabs(m[piv][c]) < 1e-12)
            return -1;
        for (int j = 0; j <= 2 * k; j++) {
            double t = m[c][j];
            m[c][j] = m[piv][j];
            m[piv][j] = t;
        }
        for (int i = 0; i < k; i++) {
            double f;
            if (i == c)
                continue;
            f = m[i][c] / m[c][c];
            for (int j = 0; j <= 2 * k; j++)
                m[i][j] -= f * m[c][j];
        }
    }
    for (int i = 0; i < k; i++) {
        x[i] = m[i][2 * k] / m[i][i];
        for (int j = 0; j < k; j++)
            inv[i][j] = m[i][k + j] / m[i][i];
    }
    return 0;
}

/* --fit: the learned leaf from heuristic self-play (see the top). */
static int fit(const struct opts *o)
{
    static double xtx[FIT_K][FIT_K], inv[FIT_K][FIT_K];
    double xty[FIT_K] = {0}, beta[FIT_K], yy = 0, ysum = 0, sse;
    uint64_t n = 0;
    enum { MAXS = 4 * BAT_MAX_ATTACKS + 64 };
    static double feat[MAXS][BAT_MAX_SEATS][FIT_K];
    static uint8_t chips0[MAXS][BAT_MAX_SEATS];
    for (int g = 0; g < o->fit; g++) {
        struct bat_state st;
        struct rng r;
        int ns = 0, N = o->players;
        bat_deal(&st, N, o->seed, (uint64_t)(o->first + g));
        rng_seed(&r, mix64(o->seed ^ 0xf17, (uint64_t)(o->first + g)));
        int strong = o->fit_strong ? g % N : -1; /* --fit-strong: the searching seat */
        while (!bat_over(&st)) {
            gmove m;
            if (st.phase == BAT_ATTACK && st.attacks >= 1 && ns < MAXS) {
                for (int s = 0; s < N; s++) {
                    feat[ns][s][0] = 1;
                    bat_leaf_features(&st, s, &feat[ns][s][1]);
                    chips0[ns][s] = st.chips[s];
                }
                ns++;
            }
            if (st.act == strong) {
                struct bat_state v;
                bat_make_view(&st, st.act, &v);
                m = decide(P_SEARCH, &v, o, &o->set, &r);
            } else {
                m = bat_heuristic_move(&st, &r);
            }
            if (m == GAME_MOVE_NONE)
                die("no move in fit game %d", o->first + g);
            bat_play(&st, m);
        }
        for (int i = 0; i < ns; i++)
            for (int s = 0; s < N; s++) {
                const double *x = feat[i][s];
                if (strong >= 0 && (o->fit_strong == 1) != (s == strong))
                    continue; /* --fit-strong 1: the search's seat; 2: the others */
                double y = (double)st.chips[s] - chips0[i][s];
                for (int a = 0; a < FIT_K; a++) {
                    for (int b = 0; b < FIT_K; b++)
                        xtx[a][b] += x[a] * x[b];
                    xty[a] += x[a] * y;
                }
                yy += y * y;
                ysum += y;
                n++;
            }
    }
    for (int i = 0; i < BAT_LEAF_NF; i++)
        if (o->fit_drop >> i & 1) { /* held at 0: beta = 0, the rest fitted without it */
            for (int a = 0; a < FIT_K; a++)
                xtx[a][i + 1] = xtx[i + 1][a] = 0;
            xtx[i + 1][i + 1] = 1;
            xty[i + 1] = 0;
        }
    {
        double b[FIT_K];
        memcpy(b, xty, sizeof b);
        if (n <= FIT_K || solve(xtx, b, inv, beta))
            die("--fit: too few samples or a singular system");
    }
    /* SSE = y'y - beta'X'y at the least-squares solution */
    sse = yy;
    for (int a = 0; a < FIT_K; a++)
        sse -= beta[a] * xty[a];
    printf("battalion leaf fit: %d games of the heuristic%s, %d players, seed %llu, first %d: "
           "%llu samples, R^2 %.3f, residual sd %.2f chips\n",
           o->fit,
           o->fit_strong == 1   ? " against the search (its seat only)"
           : o->fit_strong == 2 ? " against the search (the heuristic's seats only)"
                                : "",
           o->players, (unsigned long long)o->seed, o->first, (unsigned long long)n,
           1 - sse / (yy - ysum * ysum / (double)n), sqrt(sse / (double)(n - FIT_K)));
    printf("intercept %+.3f\n", beta[0]);
    for (int i = 0; i < BAT_LEAF_NF; i++)
        if (o->fit_drop >> i & 1)
            printf("--set %s%d_%s=0   (held at 0)\n", o->fit_strong == 1 ? "self" : "leaf", o->players,
                   bat_leaf_names[i]);
        else
            printf("--set %s%d_%s=%.3f   (se %.3f)\n", o->fit_strong == 1 ? "self" : "leaf", o->players,
                   bat_leaf_names[i], beta[i + 1],
                   sqrt(sse / (double)(n - FIT_K) * inv[i + 1][i + 1]));
    return 0;
}

/* A numeric option's value: a whole number in lo..hi, or the program dies
 * saying so (atoi read "abc" as 0 and "--fit 0" ran the match instead). */
static int int_arg(const char *opt, const char *v, int lo, int hi)
{
    int64_t x;
    if (parse_i64(v, lo, hi, &x))
        die("%s takes a whole number from %d to %d, not '%s'", opt, lo, hi, v);
    return (int)x;
}

int main(int argc, char **argv)
{
    struct opts o = {300, 0, 4, 1000, 0, 4, 0, 1, 0, 0, 0, 0, P_SEARCH, P_HEURISTIC, 1, {0}, {0}, 1, 1};
    double *gain, *win, *bgain, *bwin, m, h, m2, h2, attacks = 0;
    bat_search_defaults(&o.set);
    bat_search_defaults(&o.base);
    int64_t t0 = now_us();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "help") == 0) {
            printf("usage: medan-battalion-duplicate [--deals 300] [--first 0] [--players 4]\n"
                   "           [--strong search|heuristic|random] [--weak heuristic|random]\n"
                   "           [--iters 1000 | --ms 50] [--cutoff 4] [--seed 1] [--strong-seats K]\n"
                   "           [--set name=value]... [--base name=value]... [--threads T] [--base-threads T] [-v]\n"
                   "       medan-battalion-duplicate --fit G [--fit-drop NAME]... [--fit-strong 0|1|2]\n"
                   "           [--first 0] [--players 4] [--seed 1]\n"
                   "       medan-battalion-duplicate --help | --version\n"
                   "  strength of a Battalion player over duplicate deals, with 95%% intervals\n"
                   "  man medan-battalion-duplicate for the details.\n");
            return 0;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
            printf("medan-battalion-duplicate (Medan) %s\n", MEDAN_VERSION);
            return 0;
        }
        if (strcmp(a, "-v") == 0) {
            o.verbose = 1;
            continue;
        }
        if (!v)
            die("option %s needs a value (--help for usage)", a);
        i++;
        if (strcmp(a, "--deals") == 0) o.deals = int_arg(a, v, 2, 1000000);
        else if (strcmp(a, "--first") == 0) o.first = int_arg(a, v, 0, INT_MAX / 2);
        else if (strcmp(a, "--players") == 0) o.players = int_arg(a, v, BAT_MIN_SEATS, BAT_MAX_SEATS);
        else if (strcmp(a, "--iters") == 0) o.iters = int_arg(a, v, 1, 100000000), o.ms = 0;
        else if (strcmp(a, "--ms") == 0) o.ms = int_arg(a, v, 1, 3600000);
        else if (strcmp(a, "--cutoff") == 0) o.cutoff = int_arg(a, v, 1, 200);
        else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(v, &o.seed))
                die("%s takes a whole number from 0, not '%s'", a, v);
        }
        else if (strcmp(a, "--strong") == 0) o.strong = parse_kind(v);
        else if (strcmp(a, "--weak") == 0) o.weak = parse_kind(v);
        else if (strcmp(a, "--strong-seats") == 0) o.nstrong = int_arg(a, v, 1, BAT_MAX_SEATS - 1);
        else if (strcmp(a, "--fit") == 0) o.fit = int_arg(a, v, 1, 100000000);
        else if (strcmp(a, "--fit-strong") == 0) o.fit_strong = int_arg(a, v, 0, 2);
        else if (strcmp(a, "--fit-drop") == 0) {
            int k = 0;
            while (k < BAT_LEAF_NF && strcmp(v, bat_leaf_names[k]))
                k++;
            if (k == BAT_LEAF_NF)
                die("--fit-drop %s: no such leaf feature", v);
            o.fit_drop |= 1u << k;
        }
        else if (strcmp(a, "--threads") == 0) o.threads = int_arg(a, v, 1, 64);
        else if (strcmp(a, "--base-threads") == 0) o.base_threads = int_arg(a, v, 1, 64), o.paired = 1;
        else if (strcmp(a, "--set") == 0 || strcmp(a, "--base") == 0) {
            char name[64];
            const char *eq = strchr(v, '=');
            if (!eq || (size_t)(eq - v) >= sizeof name)
                die("%s wants name=value, not '%s'", a, v);
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = 0;
            if (bat_search_set(a[2] == 's' ? &o.set : &o.base, name, eq + 1))
                die("%s %s: unknown parameter or bad value", a, v);
            if (a[2] == 'b')
                o.paired = 1;
        }
        else die("unknown option %s (--help for usage)", a);
    }
    if (o.players < BAT_MIN_SEATS || o.players > BAT_MAX_SEATS || o.deals < 2)
        die("need 3..6 players and at least 2 deals");
    if (o.nstrong < 1 || o.nstrong >= o.players)
        die("--strong-seats must be 1..players-1");
    if (o.fit > 0) {
        if (o.fit_strong)
            trees[0] = tree = bat_tree_new(1u << 18);
        return fit(&o);
    }
    /* --cutoff is the parameter `cutoff` of both sides unless --set/--base said */
    if (o.set.cutoff == 4)
        o.set.cutoff = o.cutoff;
    if (o.base.cutoff == 4)
        o.base.cutoff = o.cutoff;
    tree = bat_tree_new(1u << 18);
    trees[0] = tree;
    for (int i = 1; i < (o.threads > o.base_threads ? o.threads : o.base_threads); i++)
        trees[i] = bat_tree_new(1u << 18);
    gain = xcalloc((size_t)o.deals, sizeof *gain);
    win = xcalloc((size_t)o.deals, sizeof *win);
    bgain = xcalloc((size_t)o.deals, sizeof *bgain);
    bwin = xcalloc((size_t)o.deals, sizeof *bwin);
    for (int d = 0; d < o.deals; d++) {
        for (int s = 0; s < o.players; s++) {
            double g, w;
            int a;
            play(&o, &o.set, o.first + d, s, &g, &w, &a);
            gain[d] += g / o.players;
            win[d] += w / o.players;
            attacks += a;
            if (o.paired) {
                play(&o, &o.base, o.first + d, s, &g, &w, &a);
                bgain[d] += g / o.players;
                bwin[d] += w / o.players;
            }
        }
        if (o.verbose)
            fprintf(stderr, "deal %d gain %+.2f win %.2f\n", o.first + d, gain[d], win[d]);
    }
    printf("battalion duplicate: %d deals x %d seats, %s (%d) vs %s (%d), ", o.deals,
           o.players, kind_name(o.strong), o.nstrong, kind_name(o.weak), o.players - o.nstrong);
    if (o.ms > 0)
        printf("%d ms/decision", o.ms);
    else
        printf("%d iterations/decision", o.iters);
    printf(", cutoff %d, seed %llu, first deal %d\n", o.cutoff, (unsigned long long)o.seed,
           o.first);
    ci(gain, o.deals, &m, &h);
    ci(win, o.deals, &m2, &h2);
    printf("chips gained per game: %+.3f  95%% CI [%+.3f, %+.3f]\n", m, m - h, m + h);
    printf("win rate: %.3f  95%% CI [%.3f, %.3f]  (equal strength: %.3f)\n", m2, m2 - h2,
           m2 + h2, 1.0 / o.players);
    if (o.paired) {
        double bm, bh, bm2, bh2;
        ci(bgain, o.deals, &bm, &bh);
        ci(bwin, o.deals, &bm2, &bh2);
        printf("baseline: chips %+.3f [%+.3f, %+.3f], win rate %.3f [%.3f, %.3f]\n", bm, bm - bh,
               bm + bh, bm2, bm2 - bh2, bm2 + bh2);
        for (int d = 0; d < o.deals; d++) {
            bgain[d] = gain[d] - bgain[d];
            bwin[d] = win[d] - bwin[d];
        }
        ci(bgain, o.deals, &bm, &bh);
        ci(bwin, o.deals, &bm2, &bh2);
        printf("difference (new - baseline), paired over deals: chips %+.3f [%+.3f, %+.3f], "
               "win rate %+.3f [%+.3f, %+.3f]\n",
               bm, bm - bh, bm + bh, bm2, bm2 - bh2, bm2 + bh2);
    }
    printf("games %d, mean attacks per game %.1f, search decisions %llu, mean iterations %.0f, "
           "time %.1f s\n",
           o.deals * o.players, attacks / (o.deals * o.players),
           (unsigned long long)total_decisions,
           total_decisions ? (double)total_iters / total_decisions : 0.0,
           (now_us() - t0) / 1e6);
    free(gain);
    free(win);
    free(bgain);
    free(bwin);
    bat_tree_free(tree);
    return 0;
}
