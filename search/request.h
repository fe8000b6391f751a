/* request.h - what a search is asked and how it answers: the limits of a
 * `go` (seat clocks, movetime, depth, nodes, multipv, ponder), the stop and
 * ponder flags, and the info callback.
 *
 * Shared vocabulary of the layers above core/: the search code (search/)
 * reads it, the MEP session (protocol/) fills it, the engines pass it on,
 * in-process tools build their own.  It includes nothing but core/game.h,
 * so the protocol can use the search (perft, timeman) without the search
 * knowing the protocol.  The ranges are MEP's (docs/protocol.md).
 */
#ifndef MEDAN_REQUEST_H
#define MEDAN_REQUEST_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"

/* Time values (p<i>time, p<i>inc, movetime) are accepted from 0 to
 * MEP_MAX_MS ms (about 31 years): in microseconds, times three, they stay
 * far from INT64_MAX. */
#define MEP_MAX_MS 1000000000000LL
/* MoveOverhead, the ms kept in hand per move (the library's option). */
#define MEP_DEFAULT_MOVE_OVERHEAD_MS 10
#define MEP_MAX_MOVE_OVERHEAD_MS 10000

struct limits {
    int64_t time[GAME_MAX_SEATS + 1]; /* p<i>time ms, -1 = not given */
    int64_t inc[GAME_MAX_SEATS + 1];  /* p<i>inc ms, 0 default */
    int movestogo;                    /* 0 = not given */
    int64_t movetime;                 /* ms, -1 = not given */
    int depth;                        /* 0 = not given */
    uint64_t nodes;                   /* 0 = not given */
    int multipv;                      /* 1 default */
    bool infinite;                    /* also set when no limit given */
    bool ponder;
    bool solve;                       /* go solve: the proof-number solver (search/pns.h) */
    int64_t overhead_ms;              /* MoveOverhead: kept in hand per move */
};

void limits_clear(struct limits *l);

struct search_req;
typedef void (*info_fn)(void *ctx, const char *line);

/* What `go` hands the engine.  The engine returns when it is done or when
 * *stop becomes true (it must look at least every ~5 ms). */
struct search_req {
    const struct game *game;
    const void *pos;           /* position to search */
    const uint64_t *hist;      /* hashes of the earlier positions, oldest first */
    int nhist;
    struct limits lim;
    int64_t start_us;          /* when `go` arrived (now_us clock) */
    atomic_bool *stop;         /* stop/quit: return now */
    atomic_bool *pondering;    /* true while pondering; ponderhit clears it */
    atomic_llong *ponderhit_us;/* when ponderhit arrived (0 = not yet) */
    info_fn info;              /* prints one `info ...` line; NULL = silent */
    void *info_ctx;
};

/* Emit an info line (printf style, without the leading "info "). */
void search_info(const struct search_req *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* True when the search must end now (stop flag). */
static inline bool search_stopped(const struct search_req *r)
{
    return atomic_load_explicit(r->stop, memory_order_relaxed);
}

#endif
