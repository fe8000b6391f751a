/* registry.h - every game Medan knows, and its engine (engines/registry.c).
 *
 * Above the games: the programs that pick a game by name (the referee, the
 * test tools) include this; core/, search/, protocol/ and the games never do.
 */
#ifndef MEDAN_REGISTRY_H
#define MEDAN_REGISTRY_H

#include "../core/game.h"
#include "../protocol/engine.h"

/* NULL-terminated, in the same order: game_registry[i] is
 * engine_registry[i]->game. */
extern const struct game *const game_registry[];
extern const struct engine *const engine_registry[];

/* The game or engine called `name`, or NULL. */
const struct game *game_find(const char *name);
const struct engine *engine_find(const char *name);

#endif
