/* registry.c - every game Medan knows.  Adding a game: its <game>_api.h
 * below and one line in each table. */
#include "registry.h"

#include <string.h>

#include "battalion/battalion_api.h"
#include "fetlar/fetlar_api.h"
#include "loa/loa_api.h"
#include "palagan/palagan_api.h"
#include "../tests/games/nim/nim_api.h"

const struct game *const game_registry[] = {
    &loa_game,
    &fetlar_game,
    &battalion_game,
    &palagan_game,
    &nim_game, /* the toy game of the tests (tests/games/nim/) */
    NULL,
};

/* The engine of each game, for in-process tools (tests/tools/duel.c). */
const struct engine *const engine_registry[] = {
    &loa_engine,
    &fetlar_engine,
    &battalion_engine,
    &palagan_engine,
    &nim_engine,
    NULL,
};

const struct game *game_find(const char *name)
{
    for (int i = 0; game_registry[i]; i++)
        if (strcmp(game_registry[i]->name, name) == 0)
            return game_registry[i];
    return NULL;
}

const struct engine *engine_find(const char *name)
{
    for (int i = 0; engine_registry[i]; i++)
        if (strcmp(engine_registry[i]->game->name, name) == 0)
            return engine_registry[i];
    return NULL;
}
