/* schedule.c - who plays which seat of which game (see schedule.h).
 *
 * Two seats.  The schedule is rounds x pairings x encounter games:
 * game k (0-based) is in round k / (P*G), pairing (k % (P*G)) / G, and is
 * game j = k % G of its encounter (G = --games, P = pairings).  The games
 * of an encounter come in pairs (j = 2i, 2i+1) that share an opening with
 * the colours swapped (--repeat, the default); --noswap keeps the engine
 * listed first in seat 1 throughout.  In odd rounds each encounter starts
 * with the colours the other way round, so that with an odd --games the
 * lone last game of an encounter alternates colours from round to round
 * (and shares its opening with the lone game of the round before).  Two
 * engines and one round: game k is game k of today's match, pairs
 * (1,2) (3,4) ..
 *
 * N seats.  A deal is nseats games with one deal seed, the seats rotated
 * so that each engine of the deal plays each seat once.  With at most
 * nseats engines every deal seats all of them (engine (s+r) mod nseats mod
 * neng in seat s of rotation r, as before); with more, deal d seats the
 * nseats engines d, d+1, .., d+nseats-1 (mod neng): over any neng
 * consecutive deals every engine plays nseats deals and so every seat
 * exactly nseats times.
 */
#include "schedule.h"

#include <assert.h>

#include "match.h"

int ref_sched_pairings(int tour, int neng)
{
    if (neng < 2)
        return 0;
    if (tour == REF_TOUR_GAUNTLET)
        return neng - 1;
    return neng * (neng - 1) / 2;
}

void ref_sched_pairing(int tour, int neng, int p, int *a, int *b)
{
    assert(p >= 0 && p < ref_sched_pairings(tour, neng));
    if (tour == REF_TOUR_GAUNTLET) {
        *a = 0;
        *b = p + 1;
        return;
    }
    for (int i = 0; i < neng; i++) {
        if (p < neng - 1 - i) {
            *a = i;
            *b = i + 1 + p;
            return;
        }
        p -= neng - 1 - i;
    }
    assert(0);
}

long long ref_sched_total(int nseats, int neng, int tour, int rounds,
                          int per_encounter)
{
    long long r = rounds < 1 ? 1 : rounds;
    if (nseats > 2)
        return r * per_encounter;
    return r * per_encounter * ref_sched_pairings(tour, neng);
}

int ref_group_size(const struct ref_match *m)
{
    return m->nseats > 2 ? m->nseats : 2;
}

/* Two seats: round, pairing and encounter game of game (1-based). */
static void locate(const struct ref_match *m, int game, int *round, int *p,
                   int *j)
{
    int G = m->encounter_games > 0 ? m->encounter_games : m->games;
    long long P = ref_sched_pairings(m->tournament, m->neng);
    long long k = game - 1, per_round = P * G;
    assert(game >= 1 && P >= 1);
    if (G < 1) { /* no length set (a bare struct): one endless encounter */
        *round = *p = 0;
        *j = (int)k;
        return;
    }
    *round = (int)(k / per_round);
    *p = (int)(k % per_round / G);
    *j = (int)(k % G);
}

int ref_group_of(const struct ref_match *m, int game)
{
    int round, p, j, G, P, Q;
    if (m->nseats > 2)
        return (game - 1) / m->nseats;
    locate(m, game, &round, &p, &j);
    G = m->encounter_games > 0 ? m->encounter_games : m->games;
    P = ref_sched_pairings(m->tournament, m->neng);
    if (G < 1)
        return j / 2;
    Q = (G + 1) / 2;
    if (G % 2 && j == G - 1 && round % 2 && !m->noswap)
        round--; /* the lone game: same opening as in the round before */
    return (round * P + p) * Q + j / 2;
}

int ref_opening_slot(const struct ref_match *m, int game)
{
    int round, p, j;
    if (m->nseats > 2 || m->open.policy == REF_POLICY_DEFAULT)
        return ref_group_of(m, game);
    locate(m, game, &round, &p, &j);
    if (m->open.policy == REF_POLICY_ROUND)
        return round;
    return round * ref_sched_pairings(m->tournament, m->neng) + p;
}

void ref_schedule(const struct ref_match *m, int game, int seat_eng[])
{
    if (m->nseats > 2) {
        int gs = m->nseats, r = (game - 1) % gs, d = (game - 1) / gs;
        for (int s = 0; s < m->nseats; s++)
            seat_eng[s] = m->neng <= m->nseats
                              ? ((s + r) % m->nseats) % m->neng
                              : (d + (s + r) % m->nseats) % m->neng;
        return;
    }
    int round, p, j, a, b, swap;
    locate(m, game, &round, &p, &j);
    ref_sched_pairing(m->tournament, m->neng, p, &a, &b);
    swap = m->noswap ? 0 : (j % 2) ^ (round % 2);
    seat_eng[0] = swap ? b : a;
    seat_eng[1] = swap ? a : b;
}
