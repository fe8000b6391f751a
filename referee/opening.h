/* opening.h - openings and deals: a pure function of (match seed, slot).
 *
 * An opening is the argument of MEP's `position`: "start",
 * "start moves b1-b3 g8-e6" (seeded random plies, or a PGN game's moves)
 * or "fen <S> [moves ...]" (a position of an EPD-like book, a PGN game
 * with a FEN or Opening tag).  Both games of a pair (all games of a deal)
 * share it; policy= lets a whole encounter or round share one.
 */
#ifndef REF_OPENING_H
#define REF_OPENING_H

#include <stdint.h>
#include <stddef.h>

#include "core/game.h"

enum { REF_BOOK_EPD = 0, REF_BOOK_PGN };
/* When a new opening is taken (cutechess-cli's policy=): every group
 * (colour-swapped pair or deal), every encounter, every round. */
enum { REF_POLICY_DEFAULT = 0, REF_POLICY_ENCOUNTER, REF_POLICY_ROUND };

#define REF_OPENING_MAX_PLIES 1000

struct ref_openings {
    int random_plies;  /* > 0: that many random plies from the start */
    char **lines;      /* openings from file=: "fen S" or "start|fen S moves .." */
    int nlines;
    int random_order;  /* order=random: line picked by seed, else in turn */
    int format;        /* REF_BOOK_EPD (default) or REF_BOOK_PGN */
    int start;         /* start=N: the first opening (1-based; 0 = 1) */
    int plies;         /* plies=N: PGN plies kept (0: all) */
    int policy;        /* REF_POLICY_* */
};

/* Read file F in o->format with o->plies, checking every opening with the
 * rules (it parses, its moves are legal, the game is not over).  EPD: one
 * position string per line, optional `;`-separated fields after it, blank
 * and '#' lines skipped, a leading "fen " allowed.  PGN: games of tags
 * ([FEN], or the referee's own [Opening]) and movetext (move numbers,
 * {comments}, ; comments, (variations), $NAGs and the result skipped).
 * Errors name the file and line.  0 or -1 with err. */
int ref_openings_load(struct ref_openings *o, const char *path,
                      const struct game *g, const void *cfg, char *err,
                      size_t n);
/* Parse a book held in memory (text of len bytes, named name in errors);
 * the same as ref_openings_load. */
int ref_openings_parse(struct ref_openings *o, const char *name,
                       const char *text, size_t len, const struct game *g,
                       const void *cfg, char *err, size_t n);
void ref_openings_free(struct ref_openings *o);
/* The opening of slot k (0-based: the k-th time a new opening is taken,
 * see ref_opening_slot in schedule.h) as a malloc'd string.  NULL + err if
 * a position cannot be made. */
char *ref_opening_make(const struct ref_openings *o, const struct game *g,
                       const void *cfg, uint64_t seed, int slot, char *err,
                       size_t n);
/* Set st to an opening string's position (and its move history hashes
 * into hist, if hist != NULL; *nhist counts them).  0 or -1 with err. */
int ref_opening_apply(const struct game *g, const void *cfg,
                      const char *opening, void *st, uint64_t **hist,
                      int *nhist, int *histcap, char *err, size_t n);

#endif
