/* eval.h - Lines of Action evaluation (after Winands' MIA): concentration,
 * centralisation, quads (Euler number), groups, mobility, centre of mass. */
#ifndef MEDAN_LOA_EVAL_H
#define MEDAN_LOA_EVAL_H

#include <stddef.h>

#include "loa.h"

/* Named weights (centipawn-like units). */
struct loa_weights {
    int concentration; /* per unit of summed distance to the centre of mass beyond the minimum */
    int centre;        /* per unit of average centralisation */
    int com_centre;    /* per unit of the centre of mass' distance from the board centre */
    int groups;        /* per group beyond one */
    int euler;         /* per unit of Euler number beyond one */
    int mobility;      /* per legal move more than the opponent */
    int edge_mobility; /* % of a move's worth for a move to the edge */
    int blocked;       /* per piece with no legal move */
    int tempo;         /* side to move */
};

extern const struct loa_weights loa_default_weights;

/* Change weights from "name=value,name=value" (names as in the struct);
 * on error w is unchanged and err says why. */
int loa_weights_parse(struct loa_weights *w, const char *spec, char *err, size_t n);

/* Score of s from the side to move's view. */
int loa_eval(const struct loa_state *s, const struct loa_weights *w);
/* The same, with every term written into buf ("<score> name=value ..."). */
int loa_eval_terms(const struct loa_state *s, const struct loa_weights *w, char *buf, size_t n);

#endif
