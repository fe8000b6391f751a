/* tc.h - time controls and seat clocks.
 *
 *   tc=[moves/]base[+inc]   base and inc in seconds ("40/60+0.5") or
 *                           m:ss for base ("2:30+1")
 *   st=<s>                  fixed time per move (movetime)
 *   depth=<n>  nodes=<n>    search limits (with or without a clock)
 *   timemargin=<ms>         how far a clock may go below zero before the
 *                           move counts as a time loss (default 0); with
 *                           st=, how late a bestmove may come (default:
 *                           st + REF_ST_GRACE_MS, only a gross overrun)
 *
 * Increment rule (documented in docs/referee.md): after each move the
 * mover's clock loses the thinking time measured by the referee; if it is
 * then below -timemargin the move loses on time; otherwise a negative clock
 * is set to 0, the increment is added, and when `moves` is given and the
 * seat has completed a multiple of `moves` moves, base is added again.
 */
#ifndef REF_TC_H
#define REF_TC_H

#include <stddef.h>
#include <stdint.h>

struct ref_tc {
    int moves;          /* 0 = whole game */
    int64_t base_ms;    /* -1 = no clock */
    int64_t inc_ms;
    int64_t movetime_ms;/* -1 = none (st=) */
    int depth;          /* 0 = none */
    uint64_t nodes;     /* 0 = none */
    int64_t margin_ms;  /* -1 = not given: 0 for clocks, the grace below for st= */
    int inf;            /* tc=inf was given (no clock, on purpose) */
};

/* st= without timemargin: engines now think the whole movetime (less
 * MoveOverhead), so a loaded machine makes a few ms late the rule, not a
 * fault.  Only a bestmove later than 2 * st + REF_ST_GRACE_MS (a hung or
 * runaway engine) then loses on time; timemargin=MS asks for the strict
 * rule (cutechess's: later than st + MS loses). */
#define REF_ST_GRACE_MS 1000

struct ref_clock {
    int64_t left_ms;    /* time on the clock */
    int moves;          /* moves made by this seat */
};

void ref_tc_clear(struct ref_tc *tc);
/* Parse one key (tc st depth nodes timemargin) into tc; 0 or -1.  A
 * clock's base must be above 0 (a clock that starts at 0 loses the first
 * move on time, whatever the increment: "0+1" and "40/0+1" are refused). */
int ref_tc_set(struct ref_tc *tc, const char *key, const char *val);
/* "40/60+0.5" style text of tc for records ("inf" without any limit). */
void ref_tc_format(const struct ref_tc *tc, char *buf, size_t n);
int ref_tc_has_limit(const struct ref_tc *tc);
void ref_clock_start(struct ref_clock *c, const struct ref_tc *tc);
/* Charge a move that took used_us; returns 0, or -1 for a time loss. */
int ref_clock_charge(struct ref_clock *c, const struct ref_tc *tc,
                     int64_t used_us);
/* How long the referee waits for this move before calling it a time
 * loss (the clock plus margin, or movetime plus margin); -1 = no clock. */
int64_t ref_clock_allow_us(const struct ref_clock *c, const struct ref_tc *tc);
/* Parse seconds "1.5", "0.05" or "m:ss[.f]" to milliseconds; 0 or -1. */
int ref_parse_seconds(const char *s, int64_t *ms);

#endif
