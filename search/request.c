/* request.c - the search request's helpers (request.h). */
#include "request.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void search_info(const struct search_req *r, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    if (!r->info)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    r->info(r->info_ctx, line);
}

void limits_clear(struct limits *l)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i <= GAME_MAX_SEATS; i++)
        l->time[i] = -1;
    l->movetime = -1;
    l->multipv = 1;
    l->overhead_ms = MEP_DEFAULT_MOVE_OVERHEAD_MS;
}
