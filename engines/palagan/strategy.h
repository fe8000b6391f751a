/* strategy.h - Palagan's baseline players for the Strategy option. */
#ifndef PALAGAN_STRATEGY_H
#define PALAGAN_STRATEGY_H

#include "../../core/util.h"
#include "palagan.h"

/* A turn chosen uniformly among all legal turn tokens. */
gmove pal_random_turn(const struct pal_state *s, struct rng *r);
/* The turn capturing most; ties broken by own minus enemy liberties after
 * it, then at random. */
gmove pal_greedy_turn(const struct pal_state *s, struct rng *r);

#endif
