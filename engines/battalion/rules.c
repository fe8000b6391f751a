/* rules.c - Battalion rules: deal, moves, chips, refills, reshuffles.
 * RULES.md section 4 is the authority; every [decided] ruling is here. */
#include "battalion.h"

#include <assert.h>
#include <string.h>

#include "../../core/util.h"

const char bat_rank_chars[14] = "A23456789TJQK";
const char bat_suit_chars[5] = "cdhs";

/* Sets hold counts 0..2 per card, so bytes summed in a 64-bit word cannot
 * carry, and bit 1 of a byte says "a twin pair". */
#define BYTES_ONES 0x0101010101010101ull

static uint64_t load_bytes(const uint8_t *p, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, p, n); /* little- or big-endian alike: only sums are taken */
    return w;
}

static int byte_sum(uint64_t w)
{
    return (int)((w * BYTES_ONES) >> 56);
}

int bat_suit_points(const uint8_t *set, int s)
{
    uint64_t a = load_bytes(set + s * 13, 8), b = load_bytes(set + s * 13 + 8, 5);
    /* a card counts its copies (0..2) and 2 more for a twin pair: each byte
     * at most 4, two words' bytes at most 8, their sum at most 64 (no carry,
     * and no popcount call where the CPU has none) */
    a += (a >> 1 & BYTES_ONES) << 1;
    b += (b >> 1 & BYTES_ONES) << 1;
    return byte_sum(a + b);
}

int bat_points(const uint8_t *set)
{
    int p = 0;
    for (int s = 0; s < 4; s++)
        p += bat_suit_points(set, s);
    return p;
}

int bat_best_suit_points(const uint8_t *set)
{
    int best = 0;
    for (int s = 0; s < 4; s++) {
        int p = bat_suit_points(set, s);
        if (p > best)
            best = p;
    }
    return best;
}

int bat_set_count(const uint8_t *set)
{
    int n = 0;
    for (int i = 0; i < 48; i += 8)
        n += byte_sum(load_bytes(set + i, 8));
    return n + byte_sum(load_bytes(set + 48, 4));
}

gmove bat_move(int kind, int target, int suit, int value)
{
    return (gmove)kind | (gmove)target << 4 | (gmove)suit << 8 |
           (gmove)value << 12;
}

/* The counts (0..3) of n <= 8 bytes packed 2 bits each, the first lowest. */
static uint64_t pack_counts(const uint8_t *p, size_t n)
{
    uint64_t x = load_bytes(p, n);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x); /* p[i] at bits 8i.., as on little-endian */
#endif
    x &= 0x0303030303030303ull;
    x = (x | x >> 6) & 0x000F000F000F000Full;
    x = (x | x >> 12) & 0x000000FF000000FFull;
    return (x | x >> 24) & 0xFFFFull;
}

gmove bat_move_cards(int kind, int target, int suit, const uint8_t *set)
{
    const uint8_t *p = set + suit * 13;
    return bat_move(kind, target, suit, 0) |
           (gmove)(pack_counts(p, 8) | pack_counts(p + 8, 5) << 16) << 24;
}

void bat_move_set(gmove m, uint8_t *set)
{
    int s = bat_msuit(m);
    memset(set, 0, BAT_NCARD);
    for (int r = 0; r < 13; r++)
        set[s * 13 + r] = (uint8_t)bat_mcount(m, r);
}

/* ---- chance ------------------------------------------------------------ */
/* The PRNG is core/util's xoshiro256**, seeded with
 * rng_seed(mix64(seed, game)).  The deal is a Fisher-Yates shuffle of the
 * 104 cards (card c twice, in index order) drawing j = rng_below(i + 1)
 * for i = 103 down to 1; the deck's top is the array's end.  Reshuffles
 * continue the same generator (kept in the full state). */
static void shuffle(uint64_t *rs, uint8_t *a, int n)
{
    struct rng r;
    memcpy(r.s, rs, sizeof r.s);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(&r, (uint64_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    memcpy(rs, r.s, sizeof r.s);
}

void bat_deal(struct bat_state *st, int nseats, uint64_t seed, uint64_t game)
{
    struct rng r;
    assert(nseats >= BAT_MIN_SEATS && nseats <= BAT_MAX_SEATS);
    memset(st, 0, sizeof *st);
    st->nseats = (uint8_t)nseats;
    st->phase = BAT_DRAW;
    st->last_suit = BAT_NOSUIT;
    rng_seed(&r, mix64(seed, game));
    memcpy(st->rng, r.s, sizeof st->rng);
    for (int i = 0; i < BAT_NDECK; i++)
        st->deck[i] = (uint8_t)(i / 2);
    st->ndeck = BAT_NDECK;
    shuffle(st->rng, st->deck, BAT_NDECK);
    for (int s = 0; s < nseats; s++) {
        st->chips[s] = BAT_CHIPS;
        st->bid[s] = -1;
    }
    /* One card at a time round the table, starting left of the dealer. */
    for (int k = 0; k < BAT_HAND; k++)
        for (int s = 0; s < nseats; s++) {
            int c = st->deck[--st->ndeck];
            st->hand[s][c]++;
            st->size[s]++;
        }
    st->pile[st->npile++] = st->deck[--st->ndeck];
    for (int i = st->ndeck; i < BAT_NDECK; i++)
        st->deck[i] = 0;
}

/* Draw the top of the draw pile into seat s's hand; reshuffle the discard
 * pile first when the draw pile is empty.  Returns 0 when both are empty
 * (the hand stays short). */
static int draw_card(struct bat_state *st, int s)
{
    if (st->ndeck == 0) {
        if (st->npile == 0)
            return 0;
        if (!st->is_view) {
            memcpy(st->deck, st->pile, st->npile);
            shuffle(st->rng, st->deck, st->npile);
        }
        st->ndeck = st->npile;
        memset(st->pile, 0, st->npile);
        st->npile = 0;
    }
    st->ndeck--;
    /* the public record counts the cards drawn since each showing */
    for (int x = 0; x < 4; x++)
        if (st->shown[s][x]) {
            uint8_t e = (uint8_t)(st->shown[s][x] + 1);
            st->shown[s][x] = bat_shown_drawn(e) >= BAT_HAND ? 0 : e;
        }
    if (!st->is_view) {
        int c = st->deck[st->ndeck];
        st->deck[st->ndeck] = 0;
        st->hand[s][c]++;
    }
    st->size[s]++;
    return 1;
}

/* Seat s gives up one card c (to the pile or the battle). */
static void remove_card(struct bat_state *st, int s, int c)
{
    assert(st->size[s] > 0);
    if (st->hand[s][c])
        st->hand[s][c]--;
    if (st->known[s][c])
        st->known[s][c]--;
    st->size[s]--;
}

/* ---- state queries ----------------------------------------------------- */
int bat_over(const struct bat_state *st)
{
    if (st->phase < BAT_ATTACK)
        return 0;
    for (int s = 0; s < st->nseats; s++)
        if (st->chips[s] == 0)
            return 1;
    return st->phase == BAT_ATTACK && st->attacks >= BAT_MAX_ATTACKS;
}

int bat_attack_min(const struct bat_state *st)
{
    int m = 0;
    if (st->attacks > 0)
        return 1;
    for (int s = 0; s < st->nseats; s++)
        if (st->bid[s] > m)
            m = st->bid[s];
    return m > 0 ? m : 1;
}

int bat_can_attack(const struct bat_state *st, int s)
{
    int known = 0;
    for (int c = 0; c < BAT_NCARD; c++) {
        known += st->hand[s][c];
        if (st->hand[s][c] && bat_suit(c) != st->last_suit)
            return 1;
    }
    return st->is_view && known < st->size[s];
}

/* After a battle: the next attacker is the first seat left of the previous
 * attacker holding a card of an allowed suit (the others skip). */
static void next_attacker(struct bat_state *st, int prev)
{
    int n = st->nseats;
    for (int k = 1; k <= n; k++) {
        int s = (prev + k) % n;
        if (bat_can_attack(st, s)) {
            st->act = (uint8_t)s;
            return;
        }
        /* a skip shows that s holds none of the allowed suits */
        for (int x = 0; x < 4; x++)
            if (x != st->last_suit)
                st->shown[s][x] = BAT_SHOWN_SKIPPED << 4;
    }
    /* Cannot happen with 104 cards and 10-card hands: 3 hands of one suit
     * would need 30 cards of it.  Keep the previous attacker. */
    st->act = (uint8_t)prev;
}

/* ---- move generation --------------------------------------------------- */
struct sink {
    gmove *out;
    int max, n;
};

static int emit(struct sink *k, gmove m)
{
    if (k->n >= k->max)
        return -1;
    k->out[k->n++] = m;
    return 0;
}

/* Every non-empty sub-multiset of suit s of `hand` worth >= minp points,
 * once per target in tmask. */
static int gen_sets(struct sink *k, const uint8_t *hand, int s, int minp,
                    int kind, unsigned tmask)
{
    int rk[13], cap[13], cnt[13] = {0}, nr = 0;
    uint8_t set[BAT_NCARD];
    for (int r = 0; r < 13; r++)
        if (hand[s * 13 + r]) {
            rk[nr] = r;
            cap[nr++] = hand[s * 13 + r];
        }
    if (nr == 0)
        return 0;
    memset(set, 0, sizeof set);
    for (;;) {
        int i = 0;
        while (i < nr && cnt[i] == cap[i]) {
            cnt[i] = 0;
            set[s * 13 + rk[i]] = 0;
            i++;
        }
        if (i == nr)
            return 0;
        cnt[i]++;
        set[s * 13 + rk[i]] = (uint8_t)cnt[i];
        if (bat_suit_points(set, s) < minp)
            continue;
        for (int t = 0; t < BAT_MAX_SEATS; t++)
            if (tmask >> t & 1)
                if (emit(k, bat_move_cards(kind, t, s, set)))
                    return -1;
    }
}

int bat_gen(const struct bat_state *st, gmove *out, int max)
{
    struct sink k = {out, max, 0};
    int s = st->act;
    if (bat_over(st) || (st->is_view && st->viewer != st->act))
        return 0;
    switch (st->phase) {
    case BAT_DRAW:
        if (st->ndeck + st->npile > 0 && emit(&k, bat_move(BAT_M_DRAW_DECK, 0, 0, 0)))
            return -1;
        if (st->npile > 0 && emit(&k, bat_move(BAT_M_DRAW_PILE, 0, 0, 0)))
            return -1;
        break;
    case BAT_DISCARD:
        for (int c = 0; c < BAT_NCARD; c++)
            if (st->hand[s][c] && emit(&k, bat_move(BAT_M_DISCARD, 0, 0, c)))
                return -1;
        break;
    case BAT_BID: {
        int hi = 0, best = bat_best_suit_points(st->hand[s]);
        for (int i = 0; i < st->nseats; i++)
            if (st->bid[i] > hi)
                hi = st->bid[i];
        if (emit(&k, bat_move(BAT_M_PASS, 0, 0, 0)))
            return -1;
        for (int b = hi + 1 > BAT_MIN_BID ? hi + 1 : BAT_MIN_BID; b <= best; b++)
            if (emit(&k, bat_move(BAT_M_BID, 0, 0, b)))
                return -1;
        break;
    }
    case BAT_ATTACK: {
        unsigned tmask = 0;
        for (int t = 0; t < st->nseats; t++)
            if (t != s)
                tmask |= 1u << t;
        for (int su = 0; su < 4; su++)
            if (su != st->last_suit &&
                gen_sets(&k, st->hand[s], su, bat_attack_min(st), BAT_M_ATTACK, tmask))
                return -1;
        break;
    }
    case BAT_DEFEND:
        if (emit(&k, bat_move(BAT_M_SURRENDER, 0, 0, 0)))
            return -1;
        if (gen_sets(&k, st->hand[s], st->last_suit, 1, BAT_M_DEFEND, 1))
            return -1;
        break;
    }
    return k.n;
}

/* ---- legality ---------------------------------------------------------- */
static int has_set(const struct bat_state *st, int s, const uint8_t *set)
{
    for (int c = 0; c < BAT_NCARD; c++)
        if (set[c] > st->hand[s][c])
            return 0;
    return 1;
}

int bat_check(const struct bat_state *st, gmove m, char *err, size_t n)
{
    static const char *const phase_word[] = {"draw", "discard", "bid",
                                             "attack", "defend"};
    int kind = bat_mkind(m), s = st->act, want;
    uint8_t set[BAT_NCARD];
    if (bat_over(st))
        return set_err(err, n, GAME_EOVER, "the game is over");
    if (st->is_view && st->viewer != st->act)
        return set_err(err, n, GAME_EILLEGAL,
                       "this is the view of seat %d; seat %d is to act",
                       st->viewer + 1, st->act + 1);
    switch (st->phase) {
    case BAT_DRAW: want = kind == BAT_M_DRAW_DECK || kind == BAT_M_DRAW_PILE; break;
    case BAT_DISCARD: want = kind == BAT_M_DISCARD; break;
    case BAT_BID: want = kind == BAT_M_BID || kind == BAT_M_PASS; break;
    case BAT_ATTACK: want = kind == BAT_M_ATTACK; break;
    default: want = kind == BAT_M_DEFEND || kind == BAT_M_SURRENDER; break;
    }
    if (!want)
        return set_err(err, n, GAME_EILLEGAL, "seat %d must %s now", s + 1,
                       phase_word[st->phase]);
    switch (kind) {
    case BAT_M_DRAW_DECK:
        if (st->ndeck + st->npile == 0)
            return set_err(err, n, GAME_EILLEGAL, "the draw pile is empty");
        return 0;
    case BAT_M_DRAW_PILE:
        if (st->npile == 0)
            return set_err(err, n, GAME_EILLEGAL, "the discard pile is empty");
        return 0;
    case BAT_M_DISCARD:
        if (!st->hand[s][bat_mvalue(m)])
            return set_err(err, n, GAME_EILLEGAL, "seat %d does not hold %c%c",
                           s + 1, bat_rank_chars[bat_rank(bat_mvalue(m))],
                           bat_suit_chars[bat_suit(bat_mvalue(m))]);
        return 0;
    case BAT_M_PASS:
        return 0;
    case BAT_M_BID: {
        int b = bat_mvalue(m), best = bat_best_suit_points(st->hand[s]);
        if (b < BAT_MIN_BID)
            return set_err(err, n, GAME_EILLEGAL, "a bid is at least %d",
                           BAT_MIN_BID);
        for (int i = 0; i < st->nseats; i++)
            if (st->bid[i] >= b)
                return set_err(err, n, GAME_EILLEGAL,
                               "seat %d already bid %d", i + 1, st->bid[i]);
        if (b > best)
            return set_err(err, n, GAME_EILLEGAL,
                           "the best suit is worth %d points", best);
        return 0;
    }
    case BAT_M_ATTACK: {
        int t = bat_mtarget(m), minp = bat_attack_min(st);
        bat_move_set(m, set);
        if (t >= st->nseats || t == s)
            return set_err(err, n, GAME_EILLEGAL, "bad target seat %d", t + 1);
        if (bat_msuit(m) == st->last_suit)
            return set_err(err, n, GAME_EILLEGAL,
                           "the last attack was in %c: another suit is needed",
                           bat_suit_chars[st->last_suit]);
        if (!has_set(st, s, set))
            return set_err(err, n, GAME_EILLEGAL,
                           "seat %d does not hold these cards", s + 1);
        if (bat_points(set) < minp)
            return set_err(err, n, GAME_EILLEGAL,
                           "the first attack must be worth at least %d points",
                           minp);
        return 0;
    }
    case BAT_M_DEFEND:
        bat_move_set(m, set);
        if (bat_msuit(m) != st->last_suit)
            return set_err(err, n, GAME_EILLEGAL,
                           "the defence must be in the attacking suit %c",
                           bat_suit_chars[st->last_suit]);
        if (!has_set(st, s, set))
            return set_err(err, n, GAME_EILLEGAL,
                           "seat %d does not hold these cards", s + 1);
        return 0;
    case BAT_M_SURRENDER:
        return 0;
    }
    return set_err(err, n, GAME_ESYNTAX, "not an action");
}

/* ---- playing ----------------------------------------------------------- */
static void resolve_battle(struct bat_state *st, const uint8_t *def)
{
    int a = st->attacker, t = st->target;
    int d = bat_points(st->battle) - bat_points(def);
    if (d > 0) {
        int pay = d < st->chips[t] ? d : st->chips[t];
        st->chips[t] = (uint8_t)(st->chips[t] - pay);
        st->chips[a] = (uint8_t)(st->chips[a] + pay);
    } else if (d < 0) {
        int pay = -2 * d < st->chips[a] ? -2 * d : st->chips[a];
        st->chips[a] = (uint8_t)(st->chips[a] - pay);
        st->chips[t] = (uint8_t)(st->chips[t] + pay);
    }
    /* Played cards to the discard pile: the attack, then the defence (all
     * of the attack's suit). */
    assert(st->last_suit < 4);
    for (int c = st->last_suit * 13; c < st->last_suit * 13 + 13; c++)
        for (int k = 0; k < st->battle[c]; k++)
            st->pile[st->npile++] = (uint8_t)c;
    for (int c = st->last_suit * 13; c < st->last_suit * 13 + 13; c++)
        for (int k = 0; k < def[c]; k++)
            st->pile[st->npile++] = (uint8_t)c;
    memset(st->battle, 0, sizeof st->battle);
    st->attacker = st->target = 0;
    /* Refill to 10: defender first, then attacker. */
    while (st->size[t] < BAT_HAND && draw_card(st, t))
        ;
    while (st->size[a] < BAT_HAND && draw_card(st, a))
        ;
    st->phase = BAT_ATTACK;
    next_attacker(st, a);
}

void bat_play(struct bat_state *st, gmove m)
{
    int s = st->act, n = st->nseats;
    uint8_t set[BAT_NCARD];
    switch (bat_mkind(m)) {
    case BAT_M_DRAW_DECK:
        draw_card(st, s);
        st->phase = BAT_DISCARD;
        break;
    case BAT_M_DRAW_PILE: {
        int c = st->pile[--st->npile];
        st->pile[st->npile] = 0;
        st->hand[s][c]++;
        st->known[s][c]++;
        st->size[s]++;
        st->phase = BAT_DISCARD;
        break;
    }
    case BAT_M_DISCARD: {
        int c = bat_mvalue(m);
        remove_card(st, s, c);
        st->pile[st->npile++] = (uint8_t)c;
        st->discard[s] = (uint8_t)(c + 1);
        st->turn++;
        if (st->turn < BAT_ROUNDS * n) {
            st->phase = BAT_DRAW;
            st->act = (uint8_t)(st->turn % n);
        } else {
            st->phase = BAT_BID;
            st->act = 0;
        }
        break;
    }
    case BAT_M_BID:
    case BAT_M_PASS:
        st->bid[s] = (int8_t)(bat_mkind(m) == BAT_M_BID ? bat_mvalue(m) : 0);
        if (s + 1 < n) {
            st->act = (uint8_t)(s + 1);
        } else {
            /* The highest bidder attacks first; all passed: seat 1. */
            int best = 0;
            for (int i = 1; i < n; i++)
                if (st->bid[i] > st->bid[best])
                    best = i;
            st->phase = BAT_ATTACK;
            st->act = (uint8_t)best;
        }
        break;
    case BAT_M_ATTACK:
        bat_move_set(m, set);
        for (int c = bat_msuit(m) * 13; c < bat_msuit(m) * 13 + 13; c++)
            for (int k = 0; k < set[c]; k++)
                remove_card(st, s, c);
        memcpy(st->battle, set, sizeof set);
        st->attacker = (uint8_t)s;
        st->target = (uint8_t)bat_mtarget(m);
        st->last_suit = (uint8_t)bat_msuit(m);
        st->shown[s][st->last_suit] = BAT_SHOWN_PLAYED << 4;
        st->discard[s] = 0; /* the hand is no longer the collection's */
        st->attacks++;
        st->phase = BAT_DEFEND;
        st->act = st->target;
        break;
    case BAT_M_DEFEND:
    case BAT_M_SURRENDER:
        memset(set, 0, sizeof set);
        if (bat_mkind(m) == BAT_M_DEFEND) {
            bat_move_set(m, set);
            for (int c = bat_msuit(m) * 13; c < bat_msuit(m) * 13 + 13; c++)
                for (int k = 0; k < set[c]; k++)
                    remove_card(st, s, c);
            st->discard[s] = 0;
        }
        st->shown[s][st->last_suit] = (uint8_t)((bat_mkind(m) == BAT_M_DEFEND
                                                     ? BAT_SHOWN_PLAYED
                                                     : BAT_SHOWN_SURRENDER)
                                                << 4);
        resolve_battle(st, set);
        break;
    default:
        assert(!"bad battalion move");
    }
}

/* ---- views and hashing ------------------------------------------------- */
void bat_make_view(const struct bat_state *full, int seat,
                   struct bat_state *out)
{
    if (out != full)
        memcpy(out, full, sizeof *out);
    if (full->is_view) /* a view of a view: keep what both know */
        assert(full->viewer == seat);
    out->is_view = 1;
    out->viewer = (uint8_t)seat;
    for (int s = 0; s < out->nseats; s++)
        if (s != seat)
            memcpy(out->hand[s], out->known[s], BAT_NCARD);
    memset(out->deck, 0, sizeof out->deck);
    memset(out->rng, 0, sizeof out->rng);
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = mix64(h, w);
    }
    for (; i < len; i++)
        h = mix64(h, p[i]);
    return h;
}

uint64_t bat_hash(const struct bat_state *st)
{
    /* Everything the position string holds (stale slots ignored). */
    int N = st->nseats;
    uint64_t h = mix64(0x6261747461696f6eULL,
                       (uint64_t)N | (uint64_t)st->is_view << 8 |
                           (uint64_t)st->viewer << 16 | (uint64_t)st->phase << 24 |
                           (uint64_t)st->act << 32 | (uint64_t)st->turn << 40 |
                           (uint64_t)st->last_suit << 48);
    h = mix64(h, (uint64_t)st->attacks | (uint64_t)st->ndeck << 16 |
                     (uint64_t)st->npile << 24);
    if (st->phase == BAT_DEFEND) {
        h = mix64(h, (uint64_t)st->attacker << 8 | st->target);
        h = hash_bytes(h, st->battle, BAT_NCARD);
    }
    h = hash_bytes(h, (const uint8_t *)st->bid, (size_t)N);
    h = hash_bytes(h, st->chips, (size_t)N);
    h = hash_bytes(h, st->size, (size_t)N);
    for (int s = 0; s < N; s++) {
        h = hash_bytes(h, st->hand[s], BAT_NCARD);
        h = hash_bytes(h, st->known[s], BAT_NCARD);
        h = hash_bytes(h, st->shown[s], 4);
    }
    h = hash_bytes(h, st->discard, (size_t)N);
    h = hash_bytes(h, st->pile, st->npile);
    if (!st->is_view) {
        h = hash_bytes(h, st->deck, st->ndeck);
        for (int i = 0; i < 4; i++)
            h = mix64(h, st->rng[i]);
    }
    return h;
}
