/* tournament.c - tournament flags, checks and ratings (see
 * tournament.h and schedule.c for the schedule itself). */
#include "tournament.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/registry.h"
#include "match.h"
#include "schedule.h"

/* The message into err (the caller, ref_cli_parse, shows it). */
static int tbad(char *err, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int tbad(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

int ref_cli_tournament_flag(struct ref_match *m, int argc, char **argv,
                            int *i, int *rc, char *err, size_t n)
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
            *rc = tbad(err, n, "--tournament takes gauntlet or round-robin, got '%s'", v);
        return 1;
    }
    if (strcmp(a, "--rounds") == 0) {
        int64_t x;
        const char *v = *i + 1 < argc ? argv[++*i] : NULL;
        if (!v || parse_i64(v, 1, 100000000, &x) < 0)
            *rc = tbad(err, n, "--rounds needs a whole number from 1 to "
                       "100000000, got %s", v ? v : "nothing");
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

int ref_cli_tournament_check(struct ref_match *m, int neng, int sprt_given,
                             char *err, size_t n)
{
    long long total;
    if (m->rounds < 1)
        m->rounds = 1;
    if (m->nseats == 2) {
        if (neng > 2 && sprt_given)
            return tbad(err, n, "--sprt compares exactly two engines; it cannot stop "
                        "a tournament of %s engines", neng == 3 ? "three" : "more");
        if (m->tournament == REF_TOUR_DEFAULT)
            m->tournament = REF_TOUR_ROUND_ROBIN;
    } else {
        if (m->tournament == REF_TOUR_GAUNTLET)
            return tbad(err, n, "--tournament gauntlet is for two-seat games; %s "
                        "rotates every engine over the seats", m->g->name);
        if (m->noswap)
            return tbad(err, n, "--noswap is for two-seat games; %s rotates the "
                        "seats of every deal", m->g->name);
    }
    total = ref_sched_total(m->nseats, neng, m->tournament, m->rounds,
                            m->games);
    if (total > 100000000)
        return tbad(err, n, "the schedule has more than 100000000 games");
    m->encounter_games = m->games;
    m->games = (int)total;
    if (m->nseats > 2 && neng > m->nseats && total % (neng * m->nseats))
        fprintf(stderr, "medan-referee: note: %d engines over %d seats: every "
                "engine plays every seat equally often when the games are a "
                "multiple of %d (%lld scheduled)\n", neng, m->nseats,
                neng * m->nseats, total);
    return 0;
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
