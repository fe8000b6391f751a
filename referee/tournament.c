/* tournament.c - tournament flags, checks and crosstable (see
 * tournament.h and schedule.c for the schedule itself). */
#include "tournament.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/registry.h"
#include "match.h"
#include "schedule.h"
#include "stats.h"
#include "table.h"

static int tbad(const char *msg, const char *a)
{
    fprintf(stderr, "medan-referee: ");
    fprintf(stderr, msg, a);
    fprintf(stderr, "\n(medan-referee --help for usage)\n");
    return -1;
}

int ref_cli_tournament_flag(struct ref_match *m, int argc, char **argv,
                            int *i, int *rc)
{
    const char *a = argv[*i];
    *rc = 0;
    if (strcmp(a, "--tournament") == 0) {
        const char *v = *i + 1 < argc ? argv[++*i] : "";
        if (strcmp(v, "round-robin") == 0)
            m->tournament = REF_TOUR_ROUND_ROBIN;
        else if (strcmp(v, "gauntlet") == 0)
            m->tournament = REF_TOUR_GAUNTLET;
        else
            *rc = tbad("--tournament takes gauntlet or round-robin, got '%s'", v);
        return 1;
    }
    if (strcmp(a, "--rounds") == 0) {
        int64_t x;
        const char *v = *i + 1 < argc ? argv[++*i] : NULL;
        if (!v || parse_i64(v, 1, 100000000, &x) < 0)
            *rc = tbad("--rounds needs a number, got %s", v ? v : "nothing");
        else
            m->rounds = (int)x;
        return 1;
    }
    if (strcmp(a, "--noswap") == 0) {
        m->noswap = 1;
        return 1;
    }
    if (strcmp(a, "--repeat") == 0) {
        /* the default: each opening played with both colours */
        m->noswap = 0;
        return 1;
    }
    return 0;
}

int ref_cli_tournament_check(struct ref_match *m, int neng, int sprt_given)
{
    long long total;
    if (m->rounds < 1)
        m->rounds = 1;
    if (m->nseats == 2) {
        if (neng > 2 && sprt_given)
            return tbad("--sprt compares exactly two engines; it cannot stop "
                        "a tournament of %s engines", neng == 3 ? "three" : "more");
        if (m->tournament == REF_TOUR_DEFAULT)
            m->tournament = REF_TOUR_ROUND_ROBIN;
    } else {
        if (m->tournament == REF_TOUR_GAUNTLET)
            return tbad("--tournament gauntlet is for two-seat games; %s "
                        "rotates every engine over the seats", m->g->name);
        if (m->noswap)
            return tbad("--noswap is for two-seat games; %s rotates the "
                        "seats of every deal", m->g->name);
    }
    total = ref_sched_total(m->nseats, neng, m->tournament, m->rounds,
                            m->games);
    if (total > 100000000)
        return tbad("the schedule has more than 100000000 games%s", "");
    m->encounter_games = m->games;
    m->games = (int)total;
    if (m->nseats > 2 && neng > m->nseats && total % (neng * m->nseats))
        fprintf(stderr, "medan-referee: note: %d engines over %d seats: every "
                "engine plays every seat equally often when the games are a "
                "multiple of %d (%lld scheduled)\n", neng, m->nseats,
                neng * m->nseats, total);
    return 0;
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

/* Points and games of engine a against b (two-seat games). */
static void meet(const struct ref_table *t, int a, int b, double *pts,
                 int *games)
{
    int w, l, d;
    ref_table_wld(t, a, b, &w, &l, &d);
    *pts = w + 0.5 * d;
    *games = w + l + d;
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

void ref_table_crosstable(const struct ref_table *t, FILE *f)
{
    int n = t->neng, *order, *best, *worst, *ng;
    double *games, *points, *elo, *lo, *hi, *pt;
    if (n < 3 || t->nseats != 2)
        return;
    games = xcalloc((size_t)n * n, sizeof *games);
    points = xcalloc((size_t)n * n, sizeof *points);
    elo = xcalloc((size_t)n, sizeof *elo);
    lo = xcalloc((size_t)n, sizeof *lo);
    hi = xcalloc((size_t)n, sizeof *hi);
    pt = xcalloc((size_t)n, sizeof *pt);
    ng = xcalloc((size_t)n, sizeof *ng);
    order = xcalloc((size_t)n, sizeof *order);
    best = xcalloc((size_t)n, sizeof *best);
    worst = xcalloc((size_t)n, sizeof *worst);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            int g = 0;
            double p = 0;
            if (a != b)
                meet(t, a, b, &p, &g);
            games[a * n + b] = g;
            points[a * n + b] = p;
            pt[a] += p;
            ng[a] += g;
        }
    ref_tournament_ratings(n, games, points, elo, lo, hi, best, worst);
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* by Elo, best first (insertion sort: n is small; ties keep order) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && elo[order[j]] > elo[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    fprintf(f, "\nRatings (%d engines; maximum-likelihood logistic Elo, mean 0; "
               "ranks: the range the 95%% intervals allow)\n", n);
    fprintf(f, "%4s  %-20s %6s %7s %7s %9s %18s %6s\n", "rank", "engine",
            "games", "points", "score%", "Elo", "[95%]", "ranks");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        char e[24], l[24], h[24], iv[56], rr[16];
        ref_fmt_elo1(e, sizeof e, elo[i]);
        ref_fmt_elo1(l, sizeof l, lo[i]);
        ref_fmt_elo1(h, sizeof h, hi[i]);
        snprintf(iv, sizeof iv, "[%s, %s]", l, h);
        if (best[i] == worst[i])
            snprintf(rr, sizeof rr, "%d", best[i]);
        else
            snprintf(rr, sizeof rr, "%d-%d", best[i], worst[i]);
        fprintf(f, "%4d  %-20s %6d %7.1f %6.1f%% %9s %18s %6s\n", k + 1,
                t->eng[i].name, ng[i], pt[i],
                ng[i] ? 100.0 * pt[i] / ng[i] : 0.0, e, iv, rr);
    }
    fprintf(f, "\nCrosstable (points of the row engine against the column "
               "engine / games)\n%-20s", "");
    for (int k = 0; k < n; k++)
        fprintf(f, " %12.12s", t->eng[order[k]].name);
    fputc('\n', f);
    for (int r = 0; r < n; r++) {
        int a = order[r];
        fprintf(f, "%-20s", t->eng[a].name);
        for (int c = 0; c < n; c++) {
            int b = order[c];
            char cell[32];
            if (a == b)
                snprintf(cell, sizeof cell, "-");
            else if (!games[a * n + b])
                snprintf(cell, sizeof cell, ".");
            else
                snprintf(cell, sizeof cell, "%g/%g", points[a * n + b],
                         games[a * n + b]);
            fprintf(f, " %12s", cell);
        }
        fputc('\n', f);
    }
    free(games);
    free(points);
    free(elo);
    free(lo);
    free(hi);
    free(pt);
    free(ng);
    free(order);
    free(best);
    free(worst);
}

long long ref_tournament_total_args(int argc, char **argv)
{
    const char *gname = NULL;
    int neng = 0, tour = REF_TOUR_DEFAULT, nseats = 2, gi = -1;
    int64_t games = 2, rounds = 1;
    const struct game *g;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--engine") == 0)
            neng++;
        else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc)
            gname = argv[gi = ++i];
        else if (strcmp(argv[i], "--games") == 0 && i + 1 < argc) {
            if (parse_i64(argv[++i], 1, 100000000, &games) < 0)
                return -1;
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            if (parse_i64(argv[++i], 1, 100000000, &rounds) < 0)
                return -1;
        } else if (strcmp(argv[i], "--tournament") == 0 && i + 1 < argc)
            tour = strcmp(argv[++i], "gauntlet") == 0 ? REF_TOUR_GAUNTLET
                                                      : REF_TOUR_ROUND_ROBIN;
    }
    if (!gname || !(g = game_find(gname)) || neng < 2)
        return -1;
    {
        game_config_buf cfg;
        char err[GAME_ERR_LEN];
        void *st = xmalloc(g->state_size);
        g->config_default(cfg.b);
        for (int i = gi + 1; i < argc && argv[i][0] != '-'; i++) {
            char *eq = strchr(argv[i], '=');
            if (!eq)
                continue;
            *eq = '\0';
            (void)g->config_set(cfg.b, argv[i], eq + 1, err, sizeof err);
            *eq = '=';
        }
        g->start(st, cfg.b);
        nseats = g->nseats(st);
        free(st);
    }
    if (nseats == 2 && tour == REF_TOUR_DEFAULT)
        tour = REF_TOUR_ROUND_ROBIN;
    return ref_sched_total(nseats, neng, tour, (int)rounds, (int)games);
}
