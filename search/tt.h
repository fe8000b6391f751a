/* tt.h - transposition table: buckets of 4 entries, depth-preferred with
 * aging.  Moves are stored in 32 bits (games using ab.c keep moves there).
 *
 * One table serves every search thread (Lazy SMP, search/ab.c) without a
 * lock: a slot is two 64-bit words, read and written with relaxed atomics,
 * the key's check word XOR-ed with the data word, so a slot torn by two
 * threads writing it at once (one's data, the other's check) fails the key
 * comparison and reads as a miss.  One thread sees exactly what a plain
 * table would hold. */
#ifndef MEDAN_TT_H
#define MEDAN_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/* An entry as a probe returns it (a copy: the slot may change under it). */
struct tt_entry {
    uint32_t key;  /* upper 32 bits of the hash */
    uint32_t move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t flags; /* bound in low 2 bits, generation above */
};

/* A slot as stored: data = move | score << 32 | eval << 48; check = (key ^
 * the two halves of data) << 32 | depth << 8 | flags. */
struct tt_slot {
    _Atomic uint64_t data;
    _Atomic uint64_t check;
};

struct tt_warm;

struct tt {
    struct tt_slot *e; /* on a cache line */
    void *raw;         /* the allocation e lies in */
    size_t mapped;     /* its length if mapped (a big table), 0 if from calloc */
    struct tt_warm *warm; /* the thread faulting a mapped table's pages in, or NULL */
    size_t mask; /* number of buckets - 1 */
    uint8_t gen; /* written between searches only */
    atomic_uchar dirty; /* stored into since the last clear (a fresh table is zero) */
};

#define TT_MAX_MB ((size_t)1 << 20) /* 1 TiB: far above any advertised Hash */

/* A table of mb MiB (0 counts as 1), rounded down to 2^k entries.  Returns
 * 0, or -1 with *t untouched when mb is more than this machine's physical
 * memory or the allocation fails. */
int tt_init(struct tt *t, size_t mb);
/* The machine's physical memory in MiB (SIZE_MAX if unknown). */
size_t tt_physical_mb(void);
/* Tests: the allocator tt_init uses (NULL: calloc again). */
void tt_set_calloc(void *(*fn)(size_t, size_t));
void tt_free(struct tt *t);
void tt_clear(struct tt *t);
void tt_new_search(struct tt *t);
#define TT_BUCKET 4 /* slots a bucket: one 64-byte line */
/* Start loading key's bucket into the cache (a probe soon after finds it
 * there instead of waiting on memory). */
static inline void tt_prefetch(const struct tt *t, uint64_t key)
{
    __builtin_prefetch(t->e + (key & t->mask) * TT_BUCKET);
}
/* Probe: 1 with the entry copied into *out, or 0. */
int tt_probe(const struct tt *t, uint64_t key, struct tt_entry *out);
void tt_store(struct tt *t, uint64_t key, uint32_t move, int score, int eval,
              int depth, int bound);
int tt_hashfull(const struct tt *t); /* permille of recent entries */

#endif
