/* engine.h - what an engine plugs into the MEP protocol library.
 *
 * An engine is a game (rules, core/game.h) plus a player: a `struct engine`
 * of function pointers, Pachi style.  What `go` hands the player (limits,
 * stop flags, the info callback) is search/request.h: the search code
 * below the protocol uses it too.  The protocol library (mep.c) owns
 * stdin/stdout, the position, the option values and the threads; the engine
 * only thinks.  Optional members may be NULL.
 */
#ifndef MEDAN_ENGINE_H
#define MEDAN_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"
#include "../search/request.h"

/* ---- typed options (UCI style) ------------------------------------------ */
enum opt_type { OPT_CHECK, OPT_SPIN, OPT_COMBO, OPT_STRING, OPT_BUTTON };

#define OPT_STR_LEN 512

/* The value of every option lives in the engine object at `offset`:
 * int64_t for check/spin, char[OPT_STR_LEN] for combo/string, nothing for a
 * button (its effect is option_changed). */
struct opt_spec {
    const char *name; /* no spaces; matched case-insensitively */
    enum opt_type type;
    const char *def;  /* default as text: "true", "64", "search" */
    int64_t min, max; /* spin range */
    const char *vars; /* combo values, space separated: "search greedy random" */
    size_t offset;    /* where the value lives in the engine object */
    const char *help; /* one line */
};

struct engine {
    const struct game *game;
    const char *name;      /* "Medan LOA" */
    const char *author;
    size_t size;           /* bytes of the engine object (calloc'd by mep) */
    bool multipv;          /* honours go multipv k > 1 (else: not_supported) */
    bool solve;            /* honours go solve (req->lim.solve; else: not_supported) */
    const struct opt_spec *options; /* NULL-name terminated */

    /* Called once after the object is zeroed and defaults applied. */
    void (*init)(void *eng);
    void (*destroy)(void *eng);
    /* newgame: clear caches (hash table, history tables). */
    void (*newgame)(void *eng);
    /* An option's value changed (also for buttons). Return 0 or an error
     * message in err (the value is then restored by mep). */
    int (*option_changed)(void *eng, const struct opt_spec *o, char *err,
                          size_t errlen);
    /* Think; returns the move to play and optionally a ponder move
     * (GAME_MOVE_NONE if none).  Runs on the search thread. */
    gmove (*go)(void *eng, const struct search_req *req, gmove *ponder);
    /* Static evaluation of pos: writes "<score> [terms...]". */
    int (*eval)(void *eng, const void *pos, char *buf, size_t n);
    /* Built-in benchmark: fixed work, returns nodes and fills ms. */
    uint64_t (*bench)(void *eng, int depth, int64_t *ms, info_fn info,
                      void *ctx);
};

/* ---- the contract of every engine (checked by engine_check) -------------- */
/* Options every engine offers, so that tests and the referee can drive any
 * engine alike: a Seed spin from 0 that seeds all the engine's random
 * choices, and a Strategy combo with a uniformly random legal move. */
#define ENGINE_OPT_SEED "Seed"
#define ENGINE_OPT_STRATEGY "Strategy"
#define ENGINE_STRATEGY_RANDOM "random"

/* Check an engine's table: its game (game_check), the members MEP calls,
 * every option spec (name, type, range, default, where its value lives)
 * and the required options above.  Run at the start of every engine
 * program (mep_main) and over the registry by the unit tests.  Returns 0,
 * or -1 and writes why not. */
int engine_check(const struct engine *e, char *err, size_t errlen);

/* Option helpers for engine code. */
static inline int64_t *opt_int(void *eng, const struct opt_spec *o)
{
    return (int64_t *)((char *)eng + o->offset);
}
static inline char *opt_str(void *eng, const struct opt_spec *o)
{
    return (char *)eng + o->offset;
}

#endif
