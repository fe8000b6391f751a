/* eval.h - Fetlar evaluation and exact short tactics (the king's escape). */
#ifndef MEDAN_FETLAR_EVAL_H
#define MEDAN_FETLAR_EVAL_H

#include <stddef.h>

#include "fetlar.h"

/* Scores given by the evaluation for proven short results (kept below the
 * search's proven-score range; the search then proves them itself). */
#define FETLAR_EVAL_WIN 9000

struct fetlar_terms {
    int material, king_routes, corner_dist, guards, king_free, cordon,
        pressure, tactic;
};

/* Named evaluation weights (white's view; see eval.c for each one's
 * meaning).  All ints: the Weights option sets them by name. */
struct fetlar_weights {
    int att, def, route_forced, dist2, dist3, dist4, king_free, region, region_cap,
        region_closed, king_free_closed, near, open_corner, cordon, guard, guard_pair, tri,
        seal, open_line, tempo, fork1, fork2, quiet_fade, reach2_closed, balance, press1, press2, press3,
        thin, thin_at, lone, lone_cap, lone_ref, lone_at, lone_free;
};
extern const struct fetlar_weights fetlar_default_weights;

/* Change weights from "name=value,name=value"; on error w is unchanged and
 * err says why. */
int fetlar_weights_parse(struct fetlar_weights *w, const char *spec, char *err, size_t n);

/* Exact short results for the side to move, no search needed:
 *  +1  the side to move wins with its next move (king to a corner, or the
 *      attackers capture the king);
 *  -2  the side to move loses in two plies whatever it does (attackers facing
 *      two open routes, or one they cannot block);
 *  +3  the defenders move the king to an edge square with two open routes;
 *   0  none of these. */
int fetlar_tactic(const struct fetlar_state *s);

/* Static evaluation from the side to move's view; w NULL means the
 * defaults; terms (white's view) may be NULL. */
int fetlar_evaluate(const struct fetlar_state *s, const struct fetlar_weights *w,
                    struct fetlar_terms *t);

/* Number of open routes from the king to a corner (0..2). */
int fetlar_routes(const struct fetlar_state *s);
/* Can the attackers capture the king with one move (attackers to move)? */
int fetlar_king_capturable(const struct fetlar_state *s);
/* Moves for the quiescence search: captures and king escapes. */
int fetlar_gen_tactical(const struct fetlar_state *s, gmove *out, int max);
/* fetlar_is_tactical of n moves of s into out[i] (1 or 0), at once. */
void fetlar_mark_tactical(const struct fetlar_state *s, const gmove *mv, int n,
                          unsigned char *out);
/* Captures, escapes, route blocks: for move ordering. */
int fetlar_is_tactical(const struct fetlar_state *s, gmove m);

#endif
