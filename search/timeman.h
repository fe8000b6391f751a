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
    const struct search_req *req;
};

/* Tunables (named, Ethereal style).  The move overhead (ms kept in hand
 * per move, for pipes and a loaded scheduler) is the MoveOverhead option,
 * req->lim.overhead_ms. */
#define TM_DEFAULT_MOVESTOGO 30

/* Limits outside what MEP accepts (times above MEP_MAX_MS, negative
 * increments) are clamped first, so no input overflows. */
void tm_init(struct timeman *tm, const struct search_req *req, int seat);
int64_t tm_elapsed_us(const struct timeman *tm);
/* Between iterations: false to stop now. `stability` in [0,1] (1 = best
 * move unchanged for several iterations) shortens the think. */
bool tm_continue(struct timeman *tm, double stability);
/* Inside the search (call every few thousand nodes): true to stop. */
bool tm_hard_stop(struct timeman *tm);

#endif
