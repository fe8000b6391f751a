/* policy.c - Battalion baselines (random, heuristic) and the search's
 * candidate moves.  See policy.h. */
#include "policy.h"

#include <math.h>
#include <string.h>

gmove bat_random_move(const struct bat_state *st, struct rng *r)
{
    gmove mv[BAT_MAX_MOVES]; /* 80 KB of stack, not thread-local storage (see ismcts.c) */
    int n = bat_gen(st, mv, (int)ARRAY_LEN(mv));
    if (n <= 0)
        return GAME_MOVE_NONE;
    return mv[rng_below(r, (uint64_t)n)];
}

/* Cards of suit s nobody but their holder can see, as seen by seat me. */
static void unseen_by_suit(const struct bat_state *st, int me, int *unseen,
                           int *total)
{
    int seen[4] = {0};
    for (int c = 0; c < BAT_NCARD; c++) {
        int k = st->hand[me][c] + st->battle[c];
        for (int s = 0; s < st->nseats; s++)
            if (s != me)
                k += st->known[s][c];
        seen[bat_suit(c)] += k;
    }
    for (int i = 0; i < st->npile; i++)
        seen[bat_suit(st->pile[i])]++;
    *total = 0;
    for (int s = 0; s < 4; s++) {
        unseen[s] = 26 - seen[s];
        if (unseen[s] < 0)
            unseen[s] = 0;
        *total += unseen[s];
    }
}

int bat_keep_value(const uint8_t *hand, int c)
{
    return bat_suit_points(hand, bat_suit(c)) * 4 + (hand[c] == 2 ? 16 : 0);
}

static int best_suit(const uint8_t *hand)
{
    int best = 0;
    for (int s = 1; s < 4; s++)
        if (bat_suit_points(hand, s) > bat_suit_points(hand, best))
            best = s;
    return best;
}

int bat_attack_scores(const struct bat_state *st, struct bat_attack_score *out)
{
    int me = st->act, minp = bat_attack_min(st), unseen[4], total, n = 0;
    int unk[BAT_MAX_SEATS];
    const uint8_t *hand = st->hand[me];
    unseen_by_suit(st, me, unseen, &total);
    for (int t = 0; t < st->nseats; t++)
        unk[t] = st->size[t] - bat_set_count(st->known[t]);
    for (int s = 0; s < 4; s++) {
        int p = bat_suit_points(hand, s);
        if (s == st->last_suit || p == 0 || p < minp)
            continue;
        for (int t = 0; t < st->nseats; t++) {
            double e, gain;
            if (t == me)
                continue;
            e = bat_suit_points(st->known[t], s);
            if (total > 0)
                e += 1.15 * unk[t] * unseen[s] / (double)total;
            gain = p - e;
            if (gain > 0) {
                if (gain > st->chips[t])
                    gain = st->chips[t];
            } else {
                gain *= 2;
            }
            out[n].suit = s;
            out[n].target = t;
            out[n].gain = gain + 0.01 * st->chips[t];
            n++;
        }
    }
    return n;
}

gmove bat_softmax_attack(const struct bat_state *st, double temp, struct rng *r)
{
    struct bat_attack_score sc[4 * BAT_MAX_SEATS];
    double w[4 * BAT_MAX_SEATS], sum = 0, mx = -1e9, x;
    uint8_t set[BAT_NCARD];
    int n, i;
    if (st->phase != BAT_ATTACK || bat_over(st) || (st->is_view && st->viewer != st->act))
        return GAME_MOVE_NONE;
    n = bat_attack_scores(st, sc);
    if (n == 0)
        return GAME_MOVE_NONE;
    for (i = 0; i < n; i++)
        if (sc[i].gain > mx)
            mx = sc[i].gain;
    for (i = 0; i < n; i++)
        sum += w[i] = exp((sc[i].gain - mx) / temp);
    x = rng_double(r) * sum;
    for (i = 0; i < n - 1 && x >= w[i]; i++)
        x -= w[i];
    memset(set, 0, sizeof set);
    memcpy(set + sc[i].suit * 13, st->hand[st->act] + sc[i].suit * 13, 13);
    return bat_move_cards(BAT_M_ATTACK, sc[i].target, sc[i].suit, set);
}

gmove bat_heuristic_move(const struct bat_state *st, struct rng *r)
{
    int me = st->act;
    const uint8_t *hand = st->hand[me];
    uint8_t set[BAT_NCARD];
    if (bat_over(st) || (st->is_view && st->viewer != me))
        return GAME_MOVE_NONE;
    switch (st->phase) {
    case BAT_DRAW:
        if (st->npile) {
            int c = st->pile[st->npile - 1];
            /* take the pile's top for a twin or for the long suit */
            if (hand[c] == 1 || (bat_suit(c) == best_suit(hand) &&
                                 bat_suit_points(hand, bat_suit(c)) >= 4))
                return bat_move(BAT_M_DRAW_PILE, 0, 0, 0);
        }
        if (st->ndeck + st->npile == 0)
            return GAME_MOVE_NONE;
        return bat_move(st->ndeck ? BAT_M_DRAW_DECK : BAT_M_DRAW_PILE, 0, 0, 0);
    case BAT_DISCARD: {
        int best = -1, bv = 1 << 30;
        for (int c = 0; c < BAT_NCARD; c++)
            if (hand[c]) {
                int v = bat_keep_value(hand, c) * 4 + (int)rng_below(r, 4);
                if (v < bv) {
                    bv = v;
                    best = c;
                }
            }
        return best < 0 ? GAME_MOVE_NONE : bat_move(BAT_M_DISCARD, 0, 0, best);
    }
    case BAT_BID: {
        int hi = 0, best = bat_best_suit_points(hand), b = best - 1;
        for (int i = 0; i < st->nseats; i++)
            if (st->bid[i] > hi)
                hi = st->bid[i];
        if (b >= BAT_MIN_BID + 1 && b > hi)
            return bat_move(BAT_M_BID, 0, 0, b);
        return bat_move(BAT_M_PASS, 0, 0, 0);
    }
    case BAT_ATTACK: {
        /* best (suit, target) by expected chips won with all cards of the
         * suit against the target's expected defence */
        struct bat_attack_score sc[4 * BAT_MAX_SEATS];
        int n = bat_attack_scores(st, sc), bi = -1;
        double bv = -1e9;
        for (int i = 0; i < n; i++) {
            double gain = sc[i].gain + 0.001 * (double)rng_below(r, 8);
            if (gain > bv) {
                bv = gain;
                bi = i;
            }
        }
        if (bi < 0)
            return bat_random_move(st, r);
        memset(set, 0, sizeof set);
        memcpy(set + sc[bi].suit * 13, hand + sc[bi].suit * 13, 13);
        return bat_move_cards(BAT_M_ATTACK, sc[bi].target, sc[bi].suit, set);
    }
    case BAT_DEFEND: {
        int s = st->last_suit, a = bat_points(st->battle), m = bat_suit_points(hand, s);
        if (m == 0 || (m < 2 && m < a))
            return bat_move(BAT_M_SURRENDER, 0, 0, 0);
        memset(set, 0, sizeof set);
        memcpy(set + s * 13, hand + s * 13, 13);
        return bat_move_cards(BAT_M_DEFEND, 0, s, set);
    }
    }
    return GAME_MOVE_NONE;
}

/* ---- candidate moves for the search ------------------------------------- */
static int add(gmove *out, int n, int max, gmove m)
{
    for (int i = 0; i < n; i++)
        if (out[i] == m)
            return n;
    if (n < max)
        out[n++] = m;
    return n;
}

/* Subsets of suit s of the hand: all, twins only, singles only, lowest
 * card.  Writes up to 4 sets (rank counts in set + s*13). */
static int suit_choices(const uint8_t *hand, int s, uint8_t sets[][BAT_NCARD])
{
    int low = -1;
    memset(sets, 0, 4 * BAT_NCARD);
    for (int r = 0; r < 13; r++) {
        int k = hand[s * 13 + r];
        sets[0][s * 13 + r] = (uint8_t)k;
        sets[1][s * 13 + r] = (uint8_t)(k == 2 ? 2 : 0);
        sets[2][s * 13 + r] = (uint8_t)(k == 1 ? 1 : 0);
        if (k && low < 0)
            low = r;
    }
    if (low < 0)
        return 0;
    sets[3][s * 13 + low] = 1;
    return 4;
}

/* Every subset of suit s up to rank symmetry: i pairs played whole, k pairs
 * split, j singles (the lowest ranks of each kind), not the empty one.
 * Writes at most `max` sets; returns the count. */
#define SUIT_SETS_MAX 400
static int suit_all(const uint8_t *hand, int s, uint8_t sets[][BAT_NCARD], int max)
{
    int pr[13], sg[13], P = 0, S = 0, n = 0;
    for (int r = 0; r < 13; r++) {
        if (hand[s * 13 + r] == 2)
            pr[P++] = r;
        else if (hand[s * 13 + r] == 1)
            sg[S++] = r;
    }
    for (int i = 0; i <= P; i++)
        for (int k = 0; i + k <= P; k++)
            for (int j = 0; j <= S; j++) {
                if (i + k + j == 0 || n >= max)
                    continue;
                memset(sets[n], 0, BAT_NCARD);
                for (int a = 0; a < i; a++)
                    sets[n][s * 13 + pr[a]] = 2;
                for (int a = i; a < i + k; a++)
                    sets[n][s * 13 + pr[a]] = 1;
                for (int a = 0; a < j; a++)
                    sets[n][s * 13 + sg[a]] = 1;
                n++;
            }
    return n;
}

static int suit_sets(const uint8_t *hand, int s, int actions, uint8_t sets[][BAT_NCARD])
{
    if (actions == BAT_ACTIONS_FULL)
        return suit_all(hand, s, sets, SUIT_SETS_MAX);
    return suit_choices(hand, s, sets);
}

int bat_candidates(const struct bat_state *st, int actions, gmove *out, int max)
{
    int me = st->act, n = 0;
    const uint8_t *hand = st->hand[me];
    uint8_t sets[SUIT_SETS_MAX][BAT_NCARD]; /* 20 KB of stack */
    if (bat_over(st) || (st->is_view && st->viewer != me))
        return 0;
    switch (st->phase) {
    case BAT_DRAW:
    case BAT_DISCARD:
    case BAT_BID: {
        int k = bat_gen(st, out, max);
        return k < 0 ? max : k;
    }
    case BAT_ATTACK: {
        int minp = bat_attack_min(st);
        for (int s = 0; s < 4; s++) {
            int k;
            if (s == st->last_suit)
                continue;
            k = suit_sets(hand, s, actions, sets);
            for (int i = 0; i < k; i++) {
                if (!bat_set_count(sets[i]) || bat_points(sets[i]) < minp)
                    continue;
                for (int t = 0; t < st->nseats; t++) {
                    if (t == me)
                        continue;
                    if (actions == BAT_ACTIONS_FULL) { /* distinct by construction */
                        if (n < max)
                            out[n++] = bat_move_cards(BAT_M_ATTACK, t, s, sets[i]);
                    } else {
                        n = add(out, n, max, bat_move_cards(BAT_M_ATTACK, t, s, sets[i]));
                    }
                }
            }
        }
        if (n == 0) { /* e.g. a first attack needing a particular mix */
            int k = bat_gen(st, out, max);
            return k < 0 ? max : k;
        }
        return n;
    }
    case BAT_DEFEND: {
        int s = st->last_suit, k = suit_sets(hand, s, actions, sets);
        n = add(out, n, max, bat_move(BAT_M_SURRENDER, 0, 0, 0));
        for (int i = 0; i < k; i++) {
            gmove m = bat_move_cards(BAT_M_DEFEND, 0, s, sets[i]);
            if (!bat_set_count(sets[i]))
                continue;
            if (actions == BAT_ACTIONS_FULL) { /* distinct by construction */
                if (n < max)
                    out[n++] = m;
            } else {
                n = add(out, n, max, m);
            }
        }
        return n;
    }
    }
    return 0;
}
