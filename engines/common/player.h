/* player.h - what every two-seat alpha-beta engine (LOA, Fetlar) shares:
 * the Hash, Threads, Seed, Strategy and ClearHash options, the search/greedy/random
 * strategies, and a bench over a fixed list of positions.  An engine embeds a
 * struct ab_player and adds its evaluation (struct ab_ops) and options.
 * Engine parts, not search: it speaks the protocol's options (struct
 * opt_spec), so it sits above protocol/ (docs/architecture.md, Layers). */
#ifndef MEDAN_PLAYER_H
#define MEDAN_PLAYER_H

#include <stddef.h>

#include "../../core/util.h"
#include "../../protocol/engine.h"
#include "../../search/ab.h"

struct ab_player {
    int64_t hash_mb;
    int64_t threads;
    int64_t seed;
    int64_t contempt;
    char strategy[OPT_STR_LEN];
    char search[OPT_STR_LEN]; /* the SearchParams option */
    struct ab_params defaults; /* the game's tunables before SearchParams */
    struct ab ab;
    struct rng rng;
};

/* The shared options, for an engine type T holding its player in member M. */
#define AB_PLAYER_OPTIONS(T, M)                                                                   \
    {"Hash", OPT_SPIN, "64", 1, 65536, NULL, offsetof(T, M.hash_mb),                              \
     "transposition table size in MiB"},                                                          \
    {"Threads", OPT_SPIN, "1", 1, AB_MAX_THREADS, NULL, offsetof(T, M.threads),                   \
     "search threads (Lazy SMP: one shared table); between searches only"},                       \
    {"Seed", OPT_SPIN, "0", 0, INT64_MAX, NULL, offsetof(T, M.seed),                              \
     "seed of the engine's random choices"},                                                      \
    {"Strategy", OPT_COMBO, "search", 0, 0, "search greedy random", offsetof(T, M.strategy),      \
     "search, or a baseline: greedy (best 1-ply evaluation), random"},                            \
    {"ClearHash", OPT_BUTTON, "", 0, 0, NULL, 0, "empty the transposition table"},               \
    {"SearchParams", OPT_STRING, "", 0, 0, NULL, offsetof(T, M.search),                           \
     "search tunables to change, name=value,... (for tuning; see docs/protocol.md)"}

/* The Contempt option (draws count this much below even for the engine). */
#define AB_PLAYER_CONTEMPT(T, M, DEF)                                                             \
    {"Contempt", OPT_SPIN, DEF, 0, 1000, NULL, offsetof(T, M.contempt),                           \
     "how much worse than an even position a draw is for the engine"}

/* defaults: the game's search tunables (NULL: ab_default_params); what
 * SearchParams starts from and an empty one restores. */
void abp_init(struct ab_player *p, const struct game *g, const struct ab_ops *ops, void *eng,
              const struct ab_params *defaults);

/* struct engine members for an engine object whose FIRST member is its
 * struct ab_player (checked by AB_PLAYER_FIRST). */
#define AB_PLAYER_FIRST(T, M) _Static_assert(offsetof(T, M) == 0, #T ": player must come first")
void abp_engine_destroy(void *eng);
void abp_engine_newgame(void *eng);
gmove abp_engine_go(void *eng, const struct search_req *req, gmove *ponder);
void abp_destroy(struct ab_player *p);
void abp_newgame(struct ab_player *p);
/* Act on a change of a shared option (others are ignored).  Returns 0, or
 * -1 with a message in err (a Hash that cannot be had: the old table is
 * kept, and mep restores the option's value). */
int abp_option_changed(struct ab_player *p, const struct opt_spec *o, char *err, size_t n);
/* `go` by the Strategy option. */
gmove abp_go(struct ab_player *p, const struct search_req *req, gmove *ponder);
/* Fixed-depth searches of the positions (strings, NULL-terminated; each
 * engine's <game>_bench_positions), the table cleared before each.  Fixed
 * per engine: they define its Bench fingerprint. */
uint64_t abp_bench(struct ab_player *p, int depth, const char *const *positions, int64_t *ms);

#endif
