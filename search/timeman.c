/* timeman.c - time management (see timeman.h). */
#include "timeman.h"

#include "../core/util.h"

/* ms to us, with the input clamped to [0, MEP_MAX_MS]: every product and
 * sum below then stays under 2^53. */
static int64_t us_of(int64_t ms)
{
    return (ms < 0 ? 0 : ms > MEP_MAX_MS ? MEP_MAX_MS : ms) * 1000;
}

void tm_init(struct timeman *tm, const struct search_req *req, int seat)
{
    const struct limits *l = &req->lim;
    int64_t over = us_of(l->overhead_ms < MEP_MAX_MOVE_OVERHEAD_MS ? l->overhead_ms
                                                                   : MEP_MAX_MOVE_OVERHEAD_MS);
    tm->req = req;
    tm->start_us = req->start_us;
    tm->soft_us = tm->hard_us = -1;
    tm->fixed = false;
    if (l->infinite)
        return;
    if (l->movetime >= 0) {
        int64_t mt = us_of(l->movetime), t = mt - over;
        if (t < mt * TM_MOVETIME_MIN_PCT / 100)
            t = mt * TM_MOVETIME_MIN_PCT / 100; /* short movetimes: keep half, not nothing */
        tm->soft_us = tm->hard_us = t > TM_MIN_HARD_US ? t : TM_MIN_HARD_US;
        tm->fixed = true;
    }
    if (seat >= 1 && seat <= GAME_MAX_SEATS && l->time[seat] >= 0) {
        int64_t left = us_of(l->time[seat]), inc = us_of(l->inc[seat]);
        int mtg = l->movestogo > 0 ? l->movestogo : TM_DEFAULT_MOVESTOGO;
        int64_t usable = left - over * (mtg < TM_OVERHEAD_MOVES ? mtg : TM_OVERHEAD_MOVES);
        if (usable < left / TM_MIN_USABLE_DIV)
            usable = left / TM_MIN_USABLE_DIV;
        int64_t alloc = usable / mtg + inc * TM_INC_USE_PCT / 100;
        int64_t soft = alloc * TM_SOFT_PCT / 100, hard = alloc * TM_HARD_MULT;
        if (hard > usable / TM_HARD_MAX_DIV + inc / 2)
            hard = usable / TM_HARD_MAX_DIV + inc / 2;
        if (soft > hard)
            soft = hard;
        if (hard < TM_MIN_HARD_US)
            hard = TM_MIN_HARD_US;
        if (soft < TM_MIN_SOFT_US)
            soft = TM_MIN_SOFT_US;
        /* with movetime too, the clock governs when it allows less */
        if (tm->hard_us < 0 || hard < tm->hard_us) {
            tm->hard_us = hard;
            tm->fixed = false;
        }
        if (tm->soft_us < 0 || soft < tm->soft_us) {
            tm->soft_us = soft;
            tm->fixed = false;
        }
    }
}

static int64_t base(const struct timeman *tm)
{
    int64_t hit = tm->req->ponderhit_us ? atomic_load(tm->req->ponderhit_us) : 0;
    return hit ? hit : tm->start_us;
}

static bool pondering(const struct timeman *tm)
{
    return tm->req->pondering && atomic_load(tm->req->pondering);
}

int64_t tm_elapsed_us(const struct timeman *tm) { return now_us() - base(tm); }

bool tm_continue(struct timeman *tm, double stability)
{
    if (search_stopped(tm->req))
        return false;
    if (tm->soft_us < 0 || pondering(tm))
        return true;
    if (tm->fixed) /* movetime: the whole of it, the hard stop ends the search */
        return tm_elapsed_us(tm) < tm->hard_us;
    /* an unstable best move earns up to TM_UNSTABLE_SCALE times the soft
     * limit, a stable one as little as TM_STABLE_SCALE times */
    double f = TM_UNSTABLE_SCALE -
               (TM_UNSTABLE_SCALE - TM_STABLE_SCALE) *
                   (stability < 0 ? 0 : stability > 1 ? 1 : stability);
    int64_t limit = (int64_t)(tm->soft_us * f);
    if (limit > tm->hard_us)
        limit = tm->hard_us;
    return tm_elapsed_us(tm) < limit;
}

bool tm_hard_stop(struct timeman *tm)
{
    if (search_stopped(tm->req))
        return true;
    if (tm->hard_us < 0 || pondering(tm))
        return false;
    return tm_elapsed_us(tm) >= tm->hard_us;
}
