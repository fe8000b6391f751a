/* evalcache.h - a cache of static evaluations by position key, shared by a
 * search's threads without a lock: a slot holds the key XOR-ed with the
 * score, so a slot two threads wrote at once reads as a miss.  A key of 0
 * is never stored (0 marks an empty slot).  The owner clears the table
 * (memset to 0) whenever the evaluation changes (new weights). */
#ifndef MEDAN_EVALCACHE_H
#define MEDAN_EVALCACHE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evalcache_slot {
    _Atomic uint64_t check; /* key ^ score; 0: empty */
    _Atomic uint64_t score; /* the score, as uint32 */
};

/* The slot of `key` in a table of `n` slots (a power of two). */
static inline struct evalcache_slot *evalcache_slot(struct evalcache_slot *t, size_t n,
                                                    uint64_t key)
{
    return &t[key & (n - 1)];
}

/* Is key's score in slot?  Then *score is it. */
static inline bool evalcache_get(const struct evalcache_slot *slot, uint64_t key, int *score)
{
    uint64_t sc = atomic_load_explicit(&slot->score, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&slot->check, memory_order_relaxed);
    if (!key || !check || (check ^ sc) != key)
        return false;
    *score = (int32_t)(uint32_t)sc;
    return true;
}

static inline void evalcache_put(struct evalcache_slot *slot, uint64_t key, int score)
{
    uint64_t sc = (uint32_t)score;
    atomic_store_explicit(&slot->score, sc, memory_order_relaxed);
    atomic_store_explicit(&slot->check, key ^ sc, memory_order_relaxed);
}

#endif
