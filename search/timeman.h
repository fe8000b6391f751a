/* timeman.h - time management from MEP limits (seat clocks, movetime,
 * movestogo).  Four functions, Ethereal style: init, elapsed, soft stop
 * (between iterations), hard stop (inside the search). */
#ifndef MEDAN_TIMEMAN_H
#define MEDAN_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "request.h"

struct timeman {
    int64_t start_us;   /* search start (or ponderhit) */
    int64_t soft_us;    /* do not start another iteration past this */
    int64_t hard_us;    /* stop the search past this; -1 = never */
    bool fixed;         /* movetime binds: no soft stop, search until hard_us */
    const struct search_req *req;
};

/* Tunables (named, Ethereal style).  The move overhead (ms kept in hand
 * per move, for pipes and a loaded scheduler) is the MoveOverhead option,
 * req->lim.overhead_ms. */
#define TM_DEFAULT_MOVESTOGO 30  /* moves left when movestogo is not given */
#define TM_OVERHEAD_MOVES 10     /* the overhead is kept for at most this many moves */
#define TM_MIN_USABLE_DIV 4      /* ... but at least left / 4 of the clock stays usable */
#define TM_INC_USE_PCT 75        /* share of the increment spent on this move */
#define TM_SOFT_PCT 60           /* soft limit: this share of the move's allocation */
#define TM_HARD_MULT 3           /* hard limit: this many allocations ... */
#define TM_HARD_MAX_DIV 3        /* ... at most usable / 3 + half the increment */
#define TM_MIN_HARD_US 1000      /* never a hard limit below 1 ms */
#define TM_MIN_SOFT_US 500       /* never a soft limit below 0.5 ms */
#define TM_MOVETIME_MIN_PCT 50   /* movetime minus overhead: at least half of it
                                    (MoveOverhead 10 ms: binds below 20 ms) */
#define TM_UNSTABLE_SCALE 1.5    /* an unstable best move: up to 1.5x the soft limit */
#define TM_STABLE_SCALE 0.6      /* a stable one: as little as 0.6x */

/* Limits outside what MEP accepts (times above MEP_MAX_MS, negative
 * increments) are clamped first, so no input overflows. */
void tm_init(struct timeman *tm, const struct search_req *req, int seat);
int64_t tm_elapsed_us(const struct timeman *tm);
/* Between iterations: false to stop now. `stability` in [0,1] (1 = best
 * move unchanged for several iterations) shortens the think.  Under a
 * binding `movetime` (tm->fixed) there is no soft stop: "think exactly this
 * long" means searching on until the hard stop (movetime less MoveOverhead)
 * and stopping mid-iteration, so this is true until then. */
bool tm_continue(struct timeman *tm, double stability);
/* Inside the search (call every few thousand nodes): true to stop. */
bool tm_hard_stop(struct timeman *tm);

#endif
