/* otbudget.c - medan-otbridge's time (see otbudget.h). */
#include "otbudget.h"

#include <stdio.h>

#include "../../core/util.h"
#include "../../search/timeman.h"

void ot_budget_defaults(struct ot_budget_cfg *c)
{
    c->pad_ms = OT_DEFAULT_PAD_MS;
    c->settle_ms = OT_DEFAULT_SETTLE_MS;
    c->grace_ms = OT_DEFAULT_GRACE_MS;
    c->movetime_ms = OT_DEFAULT_MOVETIME_MS;
}

void ot_budget(const struct ot_budget_cfg *c, const struct search_req *req, int seat,
               struct ot_budget *b)
{
    const struct limits *l = &req->lim;
    int64_t spent = (now_us() - req->start_us) / 1000;
    int64_t think, giveup_ms;
    if (!l->infinite && !l->ponder &&
        (l->movetime >= 0 || (seat >= 1 && seat <= GAME_MAX_SEATS && l->time[seat] >= 0))) {
        struct timeman tm;
        tm_init(&tm, req, seat);
        think = tm.soft_us / 1000;
        giveup_ms = tm.hard_us / 1000;
    } else {
        think = c->movetime_ms;
        giveup_ms = c->movetime_ms;
    }
    think -= spent;
    if (think < 10)
        think = 10;
    b->think_ms = think;
    b->clock_ms = think + c->pad_ms;
    b->giveup_us = l->infinite || l->ponder ? -1 : (giveup_ms + c->grace_ms) * 1000;
}

void ot_clock_line(const struct ot_budget *b, char *out, size_t n)
{
    snprintf(out, n, "clock %lld* %lld* %lld 2 2", (long long)b->clock_ms,
             (long long)b->clock_ms, (long long)((b->clock_ms + 999) / 1000));
}

static int64_t less(int64_t ms, int64_t spent) { return ms - spent > 1 ? ms - spent : 1; }

void ot_mep_limits(const struct limits *l, int seat, int64_t spent, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    if (l->infinite || l->ponder) {
        buf_printf(out, n, &len, "infinite");
        return;
    }
    for (int s = 1; s <= GAME_MAX_SEATS; s++)
        if (l->time[s] >= 0)
            buf_printf(out, n, &len, "%sp%dtime %lld p%dinc %lld", len ? " " : "", s,
                       (long long)(s == seat ? less(l->time[s], spent) : l->time[s]), s,
                       (long long)l->inc[s]);
    if (l->movestogo > 0)
        buf_printf(out, n, &len, "%smovestogo %d", len ? " " : "", l->movestogo);
    if (l->movetime >= 0)
        buf_printf(out, n, &len, "%smovetime %lld", len ? " " : "", (long long)less(l->movetime, spent));
    if (l->depth > 0)
        buf_printf(out, n, &len, "%sdepth %d", len ? " " : "", l->depth);
    if (l->nodes > 0)
        buf_printf(out, n, &len, "%snodes %llu", len ? " " : "", (unsigned long long)l->nodes);
    if (!len)
        buf_printf(out, n, &len, "infinite");
}
