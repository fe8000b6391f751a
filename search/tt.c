/* tt.c - transposition table (see tt.h). */
#include "tt.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../core/util.h"

#define BUCKET TT_BUCKET

static void *(*tt_calloc)(size_t, size_t) = calloc;

void tt_set_calloc(void *(*fn)(size_t, size_t)) { tt_calloc = fn ? fn : calloc; }

/* A bucket is one 64-byte cache line only if the table starts on one, which
 * calloc does not promise (glibc gives 16): a table of n slots taken with
 * one bucket to spare, its start rounded up (t->raw is what to free).
 *
 * A table of 2 MiB or more is mapped instead, on a 2 MiB boundary, and
 * asked for transparent huge pages (Linux gives them to a mapping only when
 * asked, /sys/kernel/mm/transparent_hugepage/enabled = madvise): a probe at
 * a random place in a big table then misses the TLB far less often, and a
 * table cleared at newgame (given back and mapped anew) faults its pages
 * back in 512 times more rarely, which a search's threads otherwise queue
 * for.  Fresh zero pages, which a thread faults in at once (warming,
 * below). */
#define TT_LINE 64
#define TT_HUGE ((size_t)2 << 20)
_Static_assert(BUCKET * sizeof(struct tt_slot) == TT_LINE, "a bucket is one cache line");

/* Warming: a mapped table's pages faulted in by a thread of its own as
 * soon as it is mapped, so that a search does not pay for them.  A page's
 * first touch is not free: on the project's virtual machines a 2 MiB page
 * took 2.6-5 ms to fault in the first time a process used that memory, and
 * a new engine's first `go movetime 100` spent 150 ms of its search in them
 * (depth 2, and the bestmove at 157 ms).  The thread adds 0 to one slot of
 * every 4 KiB page (an atomic read-modify-write: a write fault, and a
 * search's store to that slot meanwhile is neither lost nor changed).  Not
 * MADV_POPULATE_WRITE: it holds the process's memory map lock while it
 * fills a page, and every mmap, munmap and mprotect of the search (a
 * thread's first malloc arena, the solver's table) waited a page's 5 ms
 * behind it, 70 ms in all for a `stop` in the first search; a write fault
 * takes only the mapping's own lock.  tt_free ends the thread (between two
 * 2 MiB steps) before the memory goes. */
#define TT_PAGE 4096
struct tt_warm {
    pthread_t thread;
    struct tt_slot *at;
    size_t n; /* slots */
    atomic_bool end;
};

static void *warm_run(void *arg)
{
    struct tt_warm *w = arg;
    const size_t page = TT_PAGE / sizeof(struct tt_slot), step = TT_HUGE / sizeof(struct tt_slot);
    for (size_t i = 0; i < w->n; i += page) {
        if (i % step == 0 && atomic_load_explicit(&w->end, memory_order_relaxed))
            break;
        atomic_fetch_add_explicit(&w->at[i].data, 0, memory_order_relaxed);
    }
    return NULL;
}

static struct tt_warm *warm_start(struct tt_slot *at, size_t n)
{
    struct tt_warm *w = malloc(sizeof *w);
    if (!w)
        return NULL; /* not warmed: the search faults the pages in */
    w->at = at;
    w->n = n;
    atomic_init(&w->end, false);
    if (pthread_create(&w->thread, NULL, warm_run, w) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

static void warm_end(struct tt_warm *w)
{
    if (!w)
        return;
    atomic_store_explicit(&w->end, true, memory_order_relaxed);
    pthread_join(w->thread, NULL);
    free(w);
}

static struct tt_slot *tt_alloc(struct tt *t, size_t n)
{
    size_t bytes = n * sizeof(struct tt_slot);
    void *raw;
    if (tt_calloc == calloc && bytes >= TT_HUGE) {
        size_t len = bytes + TT_HUGE;
        uintptr_t at;
        raw = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            return NULL;
        at = ((uintptr_t)raw + TT_HUGE - 1) & ~(uintptr_t)(TT_HUGE - 1);
#ifdef MADV_HUGEPAGE
        (void)madvise((void *)at, bytes, MADV_HUGEPAGE); /* a hint: refused, small pages */
#endif
        t->raw = raw;
        t->mapped = len;
        t->warm = warm_start((struct tt_slot *)at, n);
        return (struct tt_slot *)at;
    }
    raw = tt_calloc(n + BUCKET, sizeof(struct tt_slot));
    if (!raw)
        return NULL;
    t->raw = raw;
    t->mapped = 0;
    t->warm = NULL;
    return (struct tt_slot *)(((uintptr_t)raw + TT_LINE - 1) & ~(uintptr_t)(TT_LINE - 1));
}

size_t tt_physical_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return SIZE_MAX; /* unknown: only the allocation can tell */
    return (size_t)pages / 1024 * (size_t)size / 1024;
}

int tt_init(struct tt *t, size_t mb)
{
    size_t bytes, buckets = 1;
    struct tt_slot *e;
    if (!mb)
        mb = 1;
    /* A table the machine cannot hold is refused before it is touched:
     * with overcommit calloc may succeed and clearing it would then bring
     * the OOM killer. */
    if (mb > TT_MAX_MB || mb > tt_physical_mb())
        return -1;
    bytes = mb << 20;
    while (buckets * 2 * BUCKET * sizeof(struct tt_slot) <= bytes)
        buckets *= 2;
    struct tt fresh = {0};
    if (!(e = tt_alloc(&fresh, buckets * BUCKET)))
        return -1;
    t->raw = fresh.raw;
    t->mapped = fresh.mapped;
    t->warm = fresh.warm;
    t->e = e;
    t->mask = buckets - 1;
    t->gen = 0;
    atomic_store_explicit(&t->dirty, 0, memory_order_relaxed);
    return 0;
}

void tt_free(struct tt *t)
{
    warm_end(t->warm);
    t->warm = NULL;
    if (t->mapped)
        munmap(t->raw, t->mapped);
    else
        free(t->raw);
    t->raw = NULL;
    t->mapped = 0;
    t->e = NULL;
}

void tt_clear(struct tt *t)
{
    size_t n = (t->mask + 1) * BUCKET;
    /* A table nothing was stored into is still all zero.  A used one is
     * given back and taken anew: fresh zero pages, faulted in by the
     * warming thread beside whatever runs next, where a memset of 64 MiB
     * took a second on a loaded machine (at every newgame, outside any
     * clock). */
    if (atomic_load_explicit(&t->dirty, memory_order_relaxed)) {
        struct tt_slot *e;
        tt_free(t);
        if (!(e = tt_alloc(t, n))) {
            /* the size just freed: dies only if the OS is out */
            t->raw = xcalloc(n + BUCKET, sizeof *e);
            t->mapped = 0;
            e = (struct tt_slot *)(((uintptr_t)t->raw + TT_LINE - 1) &
                                    ~(uintptr_t)(TT_LINE - 1));
        }
        t->e = e;
    }
    t->gen = 0;
    atomic_store_explicit(&t->dirty, 0, memory_order_relaxed);
}

void tt_new_search(struct tt *t) { t->gen = (uint8_t)((t->gen + 4) & 0xfc); }

static struct tt_slot *bucket(const struct tt *t, uint64_t key)
{
    return t->e + (key & t->mask) * BUCKET;
}

/* The two words of a slot, and back.  The check word holds the key XOR-ed
 * with both halves of the data word: a slot whose words come from two
 * different stores (threads storing at once) decodes to a wrong key. */
static uint32_t fold(uint64_t data) { return (uint32_t)data ^ (uint32_t)(data >> 32); }

static void slot_load(const struct tt_slot *s, struct tt_entry *e)
{
    uint64_t data = atomic_load_explicit(&s->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&s->check, memory_order_relaxed);
    e->key = (uint32_t)(check >> 32) ^ fold(data);
    e->move = (uint32_t)data;
    e->score = (int16_t)(uint16_t)(data >> 32);
    e->eval = (int16_t)(uint16_t)(data >> 48);
    e->depth = (uint8_t)(check >> 8);
    e->flags = (uint8_t)check;
}

static void slot_save(struct tt_slot *s, const struct tt_entry *e)
{
    uint64_t data = (uint64_t)e->move | (uint64_t)(uint16_t)e->score << 32 |
                    (uint64_t)(uint16_t)e->eval << 48;
    uint64_t check = (uint64_t)(e->key ^ fold(data)) << 32 | (uint64_t)e->depth << 8 | e->flags;
    atomic_store_explicit(&s->data, data, memory_order_relaxed);
    atomic_store_explicit(&s->check, check, memory_order_relaxed);
}

int tt_probe(const struct tt *t, uint64_t key, struct tt_entry *out)
{
    const struct tt_slot *b = bucket(t, key);
    uint32_t k = (uint32_t)(key >> 32);
    for (int i = 0; i < BUCKET; i++) {
        slot_load(&b[i], out);
        if (out->key == k && (out->flags & 3))
            return 1;
    }
    return 0;
}

void tt_store(struct tt *t, uint64_t key, uint32_t move, int score, int eval, int depth, int bound)
{
    struct tt_slot *b = bucket(t, key);
    struct tt_entry e[BUCKET], *r = &e[0];
    uint32_t k = (uint32_t)(key >> 32);
    int worst = 1 << 30, ri = 0;
    /* one write of the shared flag, not one a store (a line every thread
     * would pull) */
    if (!atomic_load_explicit(&t->dirty, memory_order_relaxed))
        atomic_store_explicit(&t->dirty, 1, memory_order_relaxed);
    for (int i = 0; i < BUCKET; i++) {
        slot_load(&b[i], &e[i]);
        if (e[i].key == k || !(e[i].flags & 3)) {
            r = &e[i];
            ri = i;
            break;
        }
        /* older generations and shallower entries go first */
        int age = (uint8_t)(t->gen - (e[i].flags & 0xfc)) / 4;
        int worth = e[i].depth - 8 * age;
        if (worth < worst) {
            worst = worth;
            r = &e[i];
            ri = i;
        }
    }
    /* keep a deeper entry of the same position unless this one is exact */
    if (r->key == k && (r->flags & 3) && bound != TT_EXACT && depth + 2 < r->depth &&
        (r->flags & 0xfc) == t->gen)
        return;
    if (move || r->key != k)
        r->move = move;
    r->key = k;
    r->score = (int16_t)score;
    r->eval = (int16_t)eval;
    r->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    r->flags = (uint8_t)(t->gen | bound);
    slot_save(&b[ri], r);
}

int tt_hashfull(const struct tt *t)
{
    int n = 0, total = 0;
    for (size_t i = 0; i < 250 && i <= t->mask; i++)
        for (int j = 0; j < BUCKET; j++) {
            uint64_t check =
                atomic_load_explicit(&t->e[i * BUCKET + j].check, memory_order_relaxed);
            total++;
            n += (check & 3) && (check & 0xfc) == t->gen;
        }
    return total ? n * 1000 / total : 0;
}
