/* palagan_api.h - what Palagan offers the rest of Medan: its rules (a struct
 * game, core/game.h), its player (a struct engine, protocol/engine.h) and
 * the player's bench positions.
 * The registry (engines/registry.c), main.c and the tools name the game
 * through this header, never through extern lines or the rules' internals. */
#ifndef MEDAN_PALAGAN_API_H
#define MEDAN_PALAGAN_API_H

struct game;
struct engine;

extern const struct game palagan_game;
extern const struct engine palagan_engine;
/* The positions of `bench` (position strings, NULL-terminated): fixed, they
 * define the engine's Bench fingerprint. */
extern const char *const palagan_bench_positions[];

#endif
