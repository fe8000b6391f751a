/* battalion_api.h - what Battalion offers the rest of Medan: its rules (a struct
 * game, core/game.h), its player (a struct engine, protocol/engine.h) and
 * the player's bench positions.
 * The registry (engines/registry.c), main.c and the tools name the game
 * through this header, never through extern lines or the rules' internals. */
#ifndef MEDAN_BATTALION_API_H
#define MEDAN_BATTALION_API_H

struct game;
struct engine;

extern const struct game battalion_game;
extern const struct engine battalion_engine;
/* The positions of `bench` (position strings, NULL-terminated): fixed, they
 * define the engine's Bench fingerprint. */
extern const char *const battalion_bench_positions[];

#endif
