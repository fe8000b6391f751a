/* registry.c - every game Medan knows.  Adding a game: one line in each table. */
#include <string.h>

#include "../protocol/engine.h"
#include "../tests/games/nim/nim_api.h"
#include "game.h"

extern const struct game loa_game;
extern const struct engine loa_engine;
extern const struct game fetlar_game;
extern const struct engine fetlar_engine;
extern const struct game battalion_game;
extern const struct engine battalion_engine;
extern const struct game palagan_game;
extern const struct engine palagan_engine;

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
