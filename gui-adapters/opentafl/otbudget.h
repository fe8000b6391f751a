/* otbudget.h - medan-otbridge's time: how long an OpenTafl engine should
 * think for a MEP `go`, and the OTEP `clock` line that makes OpenTafl's AI
 * think that long. */
#ifndef MEDAN_OPENTAFL_OTBUDGET_H
#define MEDAN_OPENTAFL_OTBUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "../../search/request.h"

/* OpenTafl 0.4.8's AI (AiWorkspace.planTimeUsage/explore), given only
 * overtime periods of X ms with 2+ left, plans X - 750 ms and stops its
 * search about 400 ms before that plan (POST_SEARCH_PAD 500): so an
 * overtime period of think + 1150 ms makes it think about `think`. */
#define OT_DEFAULT_PAD_MS 1150
#define OT_DEFAULT_SETTLE_MS 150   /* see settle() in bridge.c */
#define OT_DEFAULT_GRACE_MS 1000
#define OT_DEFAULT_MOVETIME_MS 1000

struct ot_budget_cfg {
    int64_t pad_ms, settle_ms, grace_ms, movetime_ms;
};

struct ot_budget {
    int64_t think_ms;  /* what the child should think, from now */
    int64_t clock_ms;  /* the overtime period sent: think + pad */
    int64_t giveup_us; /* since the go arrived: stop waiting (-1 never) */
};

void ot_budget_defaults(struct ot_budget_cfg *c);
/* The budget of `seat` (1 attackers, 2 defenders) for req, from now:
 * movetime or seat clocks through search/timeman's soft limit (the time
 * Medan's own search aims at), else cfg->movetime_ms (go depth, nodes,
 * infinite, ponder: OTEP has no stop that returns a move in time, so an
 * endless search would leave nothing to answer `stop` with).  Give-up:
 * timeman's hard limit (or movetime_ms) + grace; never for infinite and
 * ponder (the library waits for stop/ponderhit anyway). */
void ot_budget(const struct ot_budget_cfg *c, const struct search_req *req, int seat,
               struct ot_budget *b);
/* "clock <X>* <X>* <secs> 2 2": both sides in overtime, X = clock_ms. */
void ot_clock_line(const struct ot_budget *b, char *out, size_t n);
/* The MEP limits again, for medan-opentafl's `medan-limits`, less the
 * `spent` ms already gone (from movetime and the seat's own clock); ponder
 * and no limit become infinite, multipv is dropped. */
void ot_mep_limits(const struct limits *l, int seat, int64_t spent, char *out, size_t n);

#endif
