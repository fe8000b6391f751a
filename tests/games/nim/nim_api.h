/* nim_api.h - what Nim offers the rest of Medan: its rules (a struct game,
 * core/game.h) and its player (a struct engine, protocol/engine.h), for
 * the registry and main.c. */
#ifndef MEDAN_NIM_API_H
#define MEDAN_NIM_API_H

struct game;
struct engine;

extern const struct game nim_game;
extern const struct engine nim_engine;
/* The positions of `bench` (position strings, NULL-terminated). */
extern const char *const nim_bench_positions[];

#endif
