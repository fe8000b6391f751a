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

/* The search's move set: a few sensible card choices per decision instead
 * of every subset (all of a suit, its twins only, a single-card probe...).
 * Every move is legal.  Returns the count (<= max). */
#define BAT_MAX_CAND 128
int bat_candidates(const struct bat_state *st, gmove *out, int max);

#endif
