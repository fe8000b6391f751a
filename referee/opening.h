/* opening.h - openings and deals: a pure function of (match seed, group).
 *
 * An opening is the argument of MEP's `position`: "start",
 * "start moves b1-b3 g8-e6" (seeded random plies) or "fen <S>" (a line of
 * an openings file).  Both games of a pair (all games of a deal) share it.
 */
#ifndef REF_OPENING_H
#define REF_OPENING_H

#include <stdint.h>
#include <stddef.h>

#include "core/game.h"

struct ref_openings {
    int random_plies;  /* > 0: that many random plies from the start */
    char **lines;      /* position strings from file= */
    int nlines;
    int random_order;  /* order=random: line picked by seed, else in turn */
};

/* Read file= lines (blank and '#' lines skipped), checking each with
 * parse_pos.  0 or -1 with err. */
int ref_openings_load(struct ref_openings *o, const char *path,
                      const struct game *g, const void *cfg, char *err,
                      size_t n);
/* The opening of group k (0-based) as a malloc'd string.  NULL + err if a
 * position cannot be made. */
char *ref_opening_make(const struct ref_openings *o, const struct game *g,
                       const void *cfg, uint64_t seed, int group, char *err,
                       size_t n);
/* Set st to an opening string's position (and its move history hashes
 * into hist, if hist != NULL; *nhist counts them).  0 or -1 with err. */
int ref_opening_apply(const struct game *g, const void *cfg,
                      const char *opening, void *st, uint64_t **hist,
                      int *nhist, int *histcap, char *err, size_t n);

#endif
