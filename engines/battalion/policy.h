/* policy.h - Battalion baselines and the playout policy.
 *
 * Every policy decides for the seat to act from what that seat knows: its
 * own hand and the public part of the state (it works on a full state and
 * on the actor's own view alike, and never looks at other hands). */
#ifndef BAT_POLICY_H
#define BAT_POLICY_H

#include "../../core/util.h"
#include "battalion.h"

/* A uniformly random legal action (GAME_MOVE_NONE if none). */
gmove bat_random_move(const struct bat_state *st, struct rng *r);

/* The rule-based player: keeps twins and its long suit in collection,
 * bids a little under its best suit, attacks the seat least able to defend
 * in its best allowed suit, defends when worthwhile.  `r` breaks ties. */
gmove bat_heuristic_move(const struct bat_state *st, struct rng *r);

/* The heuristic's scores of the attacks of the seat to act (in the attack
 * phase): for every allowed suit it holds (enough points for the first
 * attack) and every other seat, the expected chips won by attacking with
 * all its cards of the suit against the target's expected defence (known
 * cards plus its share of the unseen ones; a loss counted twice), plus
 * 0.01 per chip of the target.  The heuristic plays the best (ties broken
 * at random).  Writes up to 4 * BAT_MAX_SEATS; returns the count. */
struct bat_attack_score {
    int suit, target;
    double gain;
};
int bat_attack_scores(const struct bat_state *st, struct bat_attack_score *out);

/* An attack with all cards of a suit drawn by softmax over the heuristic's
 * scores (bat_attack_scores) at temperature `temp` (> 0, in points);
 * GAME_MOVE_NONE when not attacking or no score. */
gmove bat_softmax_attack(const struct bat_state *st, double temp, struct rng *r);

/* The heuristic's keep value of card c in a hand (it discards a card of
 * least value): 4 per point of c's suit, 16 more for a twin. */
int bat_keep_value(const uint8_t *hand, int c);

/* The search's move sets.  Ranks do not matter in Battalion, only suits and
 * twins, so a set of cards of one suit is, up to rank symmetry, i twin pairs
 * played as pairs, k pairs split (one card played) and j singles.
 *   BAT_ACTIONS_PRUNED: per suit all its cards, its twins only, its singles
 *     only, its lowest card (and every target);
 *   BAT_ACTIONS_FULL: every (i, k, j), the lowest ranks of each kind: the
 *     whole action set up to rank symmetry.
 * Every move is legal.  Returns the count (<= max). */
enum bat_actions { BAT_ACTIONS_PRUNED, BAT_ACTIONS_FULL };
#define BAT_MAX_CAND 1024
int bat_candidates(const struct bat_state *st, int actions, gmove *out, int max);

#endif
