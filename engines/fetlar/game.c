/* game.c - Fetlar Hnefatafl 11x11 rules (RULES.md §2) behind struct game.
 *
 * Move generation: per-rank and per-file occupancy masks index a table of
 * the squares a piece slides to (fetlar_slide), minus the squares only the
 * king may stop on (fetlar_ban).  Captures are checked around the arrival
 * square on the mailbox.
 */
#include "fetlar.h"

#include <assert.h>
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"

const char fetlar_start_pos[] =
    "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/"
    "3ttttt3/ b 0";

uint16_t fetlar_slide[FETLAR_N][1 << FETLAR_N];
/* Stops only the king may make, per rank (bits = files) or per file (bits =
 * ranks): the corners on the outer lines, the throne on the middle one. */
const uint16_t fetlar_ban[FETLAR_N] = {
    0x401, 0, 0, 0, 0, 0x020, 0, 0, 0, 0, 0x401,
};
int8_t fetlar_nb[FETLAR_SQ][4];
/* Per lane (fetlar.h), the squares a soldier may stop on: not the ban
 * squares, nothing in the four unused lanes. */
static uint16_t lane_stop[FETLAR_LANES];
static uint64_t zob[4][FETLAR_SQ];
static uint64_t zob_side;

/* ---- the fast path (fetlar.h: fetlar_fast_cpu, FETLAR_DISPATCH) ---------- */
static bool cpu_hw;
static atomic_bool use_hw;

static bool cpu_has_hw(void)
{
#if FETLAR_HW
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

bool fetlar_fast_cpu(int want)
{
    if (want >= 0)
        atomic_store(&use_hw, want && cpu_hw);
    return atomic_load_explicit(&use_hw, memory_order_relaxed);
}

/* Once, before main (from the tables' constructor). */
static void cpu_init(void)
{
    const char *env = getenv("MEDAN_CPU");
    cpu_hw = cpu_has_hw();
    atomic_init(&use_hw, cpu_hw && !(env && strcmp(env, "portable") == 0));
}

__attribute__((constructor)) static void fetlar_init_tables(void)
{
    cpu_init();
    for (int p = 0; p < FETLAR_N; p++)
        for (int occ = 0; occ < (1 << FETLAR_N); occ++) {
            uint16_t m = 0;
            for (int i = p + 1; i < FETLAR_N && !(occ & (1 << i)); i++)
                m |= (uint16_t)(1 << i);
            for (int i = p - 1; i >= 0 && !(occ & (1 << i)); i--)
                m |= (uint16_t)(1 << i);
            fetlar_slide[p][occ] = m;
        }
    for (int sq = 0; sq < FETLAR_SQ; sq++) {
        int r = sq / FETLAR_N, c = sq % FETLAR_N;
        fetlar_nb[sq][0] = (int8_t)(r + 1 < FETLAR_N ? sq + FETLAR_N : -1);
        fetlar_nb[sq][1] = (int8_t)(r > 0 ? sq - FETLAR_N : -1);
        fetlar_nb[sq][2] = (int8_t)(c + 1 < FETLAR_N ? sq + 1 : -1);
        fetlar_nb[sq][3] = (int8_t)(c > 0 ? sq - 1 : -1);
    }
    for (int l = 0; l < FETLAR_N; l++) {
        uint16_t stop = (uint16_t)(0x7ff & ~fetlar_ban[l]);
        lane_stop[l] = lane_stop[FETLAR_LANE_FILE + l] = stop;
        lane_stop[FETLAR_LANE_MRANK + l] = lane_stop[FETLAR_LANE_MFILE + l] = stop;
    }
    uint64_t x = 0xfe71a7u;
    for (int p = 0; p < 4; p++)
        for (int sq = 0; sq < FETLAR_SQ; sq++)
            zob[p][sq] = splitmix64(&x);
    zob_side = splitmix64(&x);
}


/* Flip the piece of `side` on (r, c) in the four lanes and the file mask. */
static inline void flip(struct fetlar_state *s, int side, int r, int c)
{
    uint16_t *l = s->rows[side];
    l[r] ^= (uint16_t)(1u << c);
    l[FETLAR_LANE_FILE + c] ^= (uint16_t)(1u << r);
    l[FETLAR_LANE_MRANK + r] ^= (uint16_t)(1u << (FETLAR_N - 1 - c));
    l[FETLAR_LANE_MFILE + c] ^= (uint16_t)(1u << (FETLAR_N - 1 - r));
    s->cols[c] ^= (uint16_t)(1u << r);
    const int sq = r * FETLAR_N + c;
    s->bb[side][sq >> 6] ^= 1ULL << (sq & 63);
}

static inline void put(struct fetlar_state *s, int sq, int p)
{
    assert(s->board[sq] == FETLAR_EMPTY);
    s->board[sq] = (uint8_t)p;
    flip(s, fetlar_side_of(p), sq / FETLAR_N, sq % FETLAR_N);
    s->hash ^= zob[p][sq];
}

static inline void lift(struct fetlar_state *s, int sq)
{
    int p = s->board[sq];
    assert(p != FETLAR_EMPTY);
    s->board[sq] = FETLAR_EMPTY;
    flip(s, fetlar_side_of(p), sq / FETLAR_N, sq % FETLAR_N);
    s->hash ^= zob[p][sq];
}

static int game_running(const struct fetlar_state *s)
{
    return s->over == FETLAR_PLAYING && s->quiet < FETLAR_DRAW_PLIES;
}

/* ---- move generation ----------------------------------------------------- */

static inline uint16_t row_targets(const struct fetlar_state *s, int r, int c,
                                   int king)
{
    uint16_t m = fetlar_slide[c][fetlar_rowocc(s, r)];
    return king ? m : (uint16_t)(m & ~fetlar_ban[r]);
}

static inline uint16_t col_targets(const struct fetlar_state *s, int r, int c,
                                   int king)
{
    uint16_t m = fetlar_slide[r][s->cols[c]];
    return king ? m : (uint16_t)(m & ~fetlar_ban[c]);
}

int fetlar_gen(const struct fetlar_state *s, gmove *out, int max)
{
    if (!game_running(s))
        return 0;
    int n = 0;
    for (int r = 0; r < FETLAR_N; r++) {
        unsigned pcs = s->rows[s->side][r];
        while (pcs) {
            int c = __builtin_ctz(pcs);
            pcs &= pcs - 1;
            int from = r * FETLAR_N + c, king = from == s->king;
            unsigned rm = row_targets(s, r, c, king);
            unsigned cm = col_targets(s, r, c, king);
            while (rm) {
                int t = __builtin_ctz(rm);
                rm &= rm - 1;
                if (n == max)
                    return -1;
                out[n++] = FETLAR_MOVE(from, r * FETLAR_N + t);
            }
            while (cm) {
                int t = __builtin_ctz(cm);
                cm &= cm - 1;
                if (n == max)
                    return -1;
                out[n++] = FETLAR_MOVE(from, t * FETLAR_N + c);
            }
        }
    }
    return n;
}

int fetlar_has_move(const struct fetlar_state *s)
{
    if (!game_running(s))
        return 0;
    for (int r = 0; r < FETLAR_N; r++) {
        unsigned pcs = s->rows[s->side][r];
        while (pcs) {
            int c = __builtin_ctz(pcs);
            pcs &= pcs - 1;
            int king = r * FETLAR_N + c == s->king;
            if (row_targets(s, r, c, king) | col_targets(s, r, c, king))
                return 1;
        }
    }
    return 0;
}

#define LANE_BITS 0x07ff07ff07ff07ffu /* the 11 squares of each lane */

/* The moves of `side` without generating them.  In one lane, the squares a
 * piece of `side` reaches towards the higher bits are the empty squares
 * whose nearest occupied square below is his: adding his pieces shifted up
 * one to the empty squares carries through exactly those runs and clears
 * them (the carry stops at the next piece, or in bit 11, never in the next
 * lane).  The mirrored lanes give the other two directions.  Stops on the
 * ban squares are left out, and put back for the king. */
FETLAR_INLINE int count_lanes(const struct fetlar_state *s, int side, const int hw)
{
    const uint16_t *own = s->rows[side], *opp = s->rows[side ^ 1];
    int n = 0;
    uint64_t acc = 0; /* without POPCNT, per byte: at most 12 words x 8 bits */
    for (int i = 0; i < FETLAR_LANES; i += 4) {
        uint64_t a, b, stop;
        memcpy(&a, own + i, sizeof a);
        memcpy(&b, opp + i, sizeof b);
        memcpy(&stop, lane_stop + i, sizeof stop);
        uint64_t e = ~(a | b) & LANE_BITS;
        uint64_t reach = e & stop & ~(e + (a << 1));
        if (FETLAR_POPCNT(hw)) {
            n += __builtin_popcountll(reach);
        } else {
            reach = reach - ((reach >> 1) & 0x5555555555555555u);
            reach = (reach & 0x3333333333333333u) +
                    ((reach >> 2) & 0x3333333333333333u);
            acc += (reach + (reach >> 4)) & 0x0f0f0f0f0f0f0f0fu;
        }
    }
    if (!FETLAR_POPCNT(hw)) {
        acc = (acc & 0x00ff00ff00ff00ffu) + ((acc >> 8) & 0x00ff00ff00ff00ffu);
        n = (int)((acc * 0x0001000100010001u) >> 48);
    }
    int k = s->king;
    if (side == FETLAR_WHITE && k != FETLAR_NOSQ) {
        int r = k / FETLAR_N, c = k % FETLAR_N;
        unsigned ban = (fetlar_slide[c][fetlar_rowocc(s, r)] & fetlar_ban[r]) |
                       (unsigned)(fetlar_slide[r][s->cols[c]] & fetlar_ban[c])
                           << 16;
        n += fetlar_pc64(ban, hw);
    }
    return n;
}

FETLAR_DISPATCH(, int, fetlar_count, (const struct fetlar_state *s), (s),
                game_running(s) ? count_lanes(s, s->side, hw_) : 0)

/* ---- captures ------------------------------------------------------------- */

/* Is the king (on k) enclosed: four attackers, or three plus the throne?
 * Never on the edge. */
static int king_enclosed(const struct fetlar_state *s, int k)
{
    if (fetlar_on_edge(k))
        return 0;
    for (int d = 0; d < 4; d++) {
        int n = fetlar_nb[k][d];
        if (s->board[n] != FETLAR_ATT && n != FETLAR_THRONE)
            return 0;
    }
    return 1;
}

/* The captures of fetlar_play decided without playing: each neighbour of
 * the arrival square is judged on its own (pieces taken by one move are
 * never part of another capture's pincer), with the departure square
 * already empty. */
int fetlar_captures(const struct fetlar_state *s, gmove m)
{
    int from = FETLAR_FROM(m), to = FETLAR_TO(m), side = s->side;
    for (int d = 0; d < 4; d++) {
        int n = fetlar_nb[to][d];
        if (n < 0)
            continue;
        int q = s->board[n];
        if (!q || fetlar_side_of(q) == side)
            continue;
        if (q == FETLAR_KING) {
            if (fetlar_on_edge(n))
                continue;
            int shut = 1;
            for (int e = 0; e < 4 && shut; e++) {
                int x = fetlar_nb[n][e];
                shut = x == to || x == FETLAR_THRONE ||
                       (x != from && s->board[x] == FETLAR_ATT);
            }
            if (shut)
                return 1;
            continue;
        }
        int f = fetlar_nb[n][d];
        if (f < 0)
            continue;
        if (f == from ? (fetlar_is_corner(f) || f == FETLAR_THRONE)
                      : fetlar_hostile(s, f, side))
            return 1;
    }
    return 0;
}

int fetlar_play(struct fetlar_state *s, gmove m)
{
    int from = FETLAR_FROM(m), to = FETLAR_TO(m), side = s->side;
    int p = s->board[from], caught = 0;
    lift(s, from);
    put(s, to, p);
    if (p == FETLAR_KING) {
        s->king = (uint8_t)to;
        if (fetlar_is_corner(to))
            s->over = FETLAR_ESCAPED;
    }
    for (int d = 0; d < 4; d++) {
        int n = fetlar_nb[to][d];
        if (n < 0)
            continue;
        int q = s->board[n];
        if (!q || fetlar_side_of(q) == side)
            continue;
        if (q == FETLAR_KING) {
            if (king_enclosed(s, n)) {
                lift(s, n);
                s->king = FETLAR_NOSQ;
                s->over = FETLAR_CAPTURED;
                caught++;
            }
            continue;
        }
        int f = fetlar_nb[n][d];
        if (f >= 0 && fetlar_hostile(s, f, side)) {
            lift(s, n);
            caught++;
            if (q == FETLAR_ATT)
                s->natt--;
            else
                s->ndef--;
        }
    }
    s->quiet = caught ? 0 : (uint8_t)(s->quiet < 255 ? s->quiet + 1 : 255);
    s->side ^= 1;
    s->hash ^= zob_side;
    return caught;
}

/* ---- two plies counted at once (perft) ------------------------------------ */

/* count_lanes' squares for one word of lanes (own a, other b, stops). */
static inline uint64_t lane_reach(uint64_t a, uint64_t b, uint64_t stop)
{
    uint64_t e = ~(a | b) & LANE_BITS;
    return e & stop & ~(e + (a << 1));
}

/* The king's stops on the ban squares of his rank and file (count_lanes
 * leaves them out of the lanes). */
FETLAR_INLINE int king_ban_moves(int kr, int kc, unsigned rowocc,
                                  unsigned colocc, const int hw)
{
    return fetlar_pc64((fetlar_slide[kc][rowocc] & fetlar_ban[kr]) |
                           (uint64_t)(fetlar_slide[kr][colocc] &
                                      fetlar_ban[kc])
                               << 16,
                       hw);
}

/* Lines for perft2: rank r is line r, file c line FETLAR_N + c. */
#define NLINES (2 * FETLAR_N)

/* A line's lane and its mirror in one 32-bit word. */
static inline uint32_t line_pair(const uint16_t *l, int line)
{
    int fwd = line < FETLAR_N ? line : line + 1; /* files: lane 12 + c */
    return (uint32_t)l[fwd] | (uint32_t)l[fwd + FETLAR_LANE_MRANK] << 16;
}

/* What perft2 knows of the parent: per line, the lanes of the side that
 * replies (a), of the side that moves (b), the stops and the replies
 * along it (cnt); the squares where an arrival may capture (hot, per rank:
 * bit c, a superset: fetlar_captures decides). */
struct p2 {
    uint32_t a[NLINES], b[NLINES], stop[NLINES];
    int cnt[NLINES];
    uint16_t hot[FETLAR_N];
};

/* Two positions x, y on a line, as the bits of the line word. */
static inline uint32_t line_bit(int x)
{
    return (1u << x) | (1u << (FETLAR_N - 1 - x)) << 16;
}

FETLAR_INLINE void p2_init(struct p2 *p, const struct fetlar_state *s, int opp, const int hw)
{
    const uint16_t *a = s->rows[opp], *b = s->rows[opp ^ 1];
    for (int l = 0; l < NLINES; l++) {
        p->a[l] = line_pair(a, l);
        p->b[l] = line_pair(b, l);
        p->stop[l] = line_pair(lane_stop, l);
    }
    for (int l = 0; l < NLINES; l += 2) {
        uint64_t r = lane_reach((uint64_t)p->a[l] | (uint64_t)p->a[l + 1] << 32,
                                (uint64_t)p->b[l] | (uint64_t)p->b[l + 1] << 32,
                                (uint64_t)p->stop[l] |
                                    (uint64_t)p->stop[l + 1] << 32);
        p->cnt[l] = fetlar_pc64(r & 0xffffffffu, hw);
        p->cnt[l + 1] = fetlar_pc64(r >> 32, hw);
    }
    /* An arrival on t captures only next to a piece of opp: his soldier
     * with a square hostile to him beyond (ranks and files alike), or his
     * king. */
    unsigned hostile[2 * FETLAR_N];
    unsigned sold[2 * FETLAR_N];
    for (int l = 0; l < NLINES; l++) {
        sold[l] = p->a[l] & 0x7ff;
        hostile[l] = (p->b[l] & 0x7ff) | (l == 0 || l == 10 || l == 11 || l == 21 ? 0x401 : 0);
    }
    if (s->board[FETLAR_THRONE] == FETLAR_EMPTY)
        hostile[5] |= 1u << 5, hostile[FETLAR_N + 5] |= 1u << 5;
    int k = s->king;
    if (opp == FETLAR_WHITE && k != FETLAR_NOSQ) {
        sold[k / FETLAR_N] &= ~(1u << (k % FETLAR_N));
        sold[FETLAR_N + k % FETLAR_N] &= ~(1u << (k / FETLAR_N));
    }
    for (int r = 0; r < FETLAR_N; r++)
        p->hot[r] = (uint16_t)(((sold[r] >> 1) & (hostile[r] >> 2)) |
                               ((sold[r] << 1) & (hostile[r] << 2) & 0x7ff));
    for (int c = 0; c < FETLAR_N; c++) {
        unsigned h = ((sold[FETLAR_N + c] >> 1) & (hostile[FETLAR_N + c] >> 2)) |
                     ((sold[FETLAR_N + c] << 1) & (hostile[FETLAR_N + c] << 2) & 0x7ff);
        for (; h; h &= h - 1)
            p->hot[__builtin_ctz(h)] |= (uint16_t)(1u << c);
    }
    if (opp == FETLAR_WHITE && k != FETLAR_NOSQ)
        for (int d = 0; d < 4; d++)
            if (fetlar_nb[k][d] >= 0)
                p->hot[fetlar_nb[k][d] / FETLAR_N] |=
                    (uint16_t)(1u << (fetlar_nb[k][d] % FETLAR_N));
}

/* The king's ban stops after a quiet move from (fr, fc) to (tr, tc). */
FETLAR_INLINE int king_ban_after(const struct fetlar_state *s, int kr, int kc,
                                  int fr, int fc, int tr, int tc, const int hw)
{
    unsigned row = fetlar_rowocc(s, kr), col = s->cols[kc];
    row ^= (fr == kr ? 1u << fc : 0) ^ (tr == kr ? 1u << tc : 0);
    col ^= (fc == kc ? 1u << fr : 0) ^ (tc == kc ? 1u << tr : 0);
    return king_ban_moves(kr, kc, row, col, hw);
}

struct p2_ctx {
    const struct fetlar_state *s;
    struct p2 p;
    int base, last_quiet;
    int kr, kc, kban; /* the replying king, when on a line with ban stops */
};

/* Leaves below the moves of the piece on (r, c) along one line: its
 * positions on that line run along the ranks (along_rank) or the files.
 * The replies of a quiet move are the parent's, changed on the line moved
 * along (lanes without x1, with x2), on the line crossing it at x1 (the
 * same for all these moves) and the line crossing it at x2. */
static inline __attribute__((always_inline)) uint64_t
p2_line(const struct p2_ctx *x, int r, int c, int along_rank, unsigned tm,
        int king, const int hw)
{
    const struct p2 *p = &x->p;
    const int ln = along_rank ? r : FETLAR_N + c;
    const int x1 = along_rank ? c : r, y = along_rank ? r : c;
    const int cross = along_rank ? FETLAR_N : 0; /* + position on ln */
    const int from = r * FETLAR_N + c;
    const uint32_t ybit = line_bit(y);
    /* the crossing line at x1 loses the piece */
    uint64_t left = lane_reach(p->a[cross + x1], p->b[cross + x1] ^ ybit,
                               p->stop[cross + x1]);
    const int k0 = x->base - p->cnt[ln] - p->cnt[cross + x1] +
                   fetlar_pc64(left, hw);
    const uint64_t alo = p->a[ln], slo = p->stop[ln];
    const uint64_t blo = p->b[ln] ^ line_bit(x1);
    /* along the rank: the targets where the move may capture or escape */
    const unsigned hot = along_rank ? tm & (p->hot[r] | (king ? 0x401u : 0)) : 0;
    uint64_t total = 0;
    for (; tm; tm &= tm - 1) {
        int t = __builtin_ctz(tm);
        int to = along_rank ? r * FETLAR_N + t : t * FETLAR_N + c;
        if (along_rank ? (hot >> t) & 1
                       : ((p->hot[t] >> c) & 1) |
                             (king & (t == 0 || t == FETLAR_N - 1))) {
            gmove mv = FETLAR_MOVE(from, to);
            if (fetlar_captures(x->s, mv) || (king && fetlar_is_corner(to))) {
                struct fetlar_state ch = *x->s;
                fetlar_play(&ch, mv);
                total += (uint64_t)fetlar_count(&ch);
                continue;
            }
        }
        if (x->last_quiet)
            continue;
        int ct = cross + t;
        uint64_t a = alo | (uint64_t)p->a[ct] << 32;
        uint64_t b = (blo ^ line_bit(t)) | (uint64_t)(p->b[ct] ^ ybit) << 32;
        uint64_t st = slo | (uint64_t)p->stop[ct] << 32;
        int n = k0 - p->cnt[ct] + fetlar_pc64(lane_reach(a, b, st), hw);
        int tr = to / FETLAR_N, tc = to % FETLAR_N;
        if (r == x->kr || tr == x->kr || c == x->kc || tc == x->kc)
            n += king_ban_after(x->s, x->kr, x->kc, r, c, tr, tc, hw) - x->kban;
        total += (uint64_t)n;
    }
    return total;
}

/* Leaves two plies below s without playing the quiet moves: the reply
 * count of a child is the parent's count for the side not to move, changed
 * only on the three lines the move touches (its own and the two it
 * crosses).  Captures and game ends are played out. */
FETLAR_INLINE uint64_t perft2_body(const struct fetlar_state *s, const int hw)
{
    if (!game_running(s))
        return 0;
    const int side = s->side, opp = side ^ 1;
    struct p2_ctx x;
    x.s = s;
    x.base = count_lanes(s, opp, hw);
    /* a move that captures nothing ends the game by the 100-ply rule */
    x.last_quiet = s->quiet + 1 >= FETLAR_DRAW_PLIES;
    p2_init(&x.p, s, opp, hw);
    x.kr = x.kc = -1;
    x.kban = 0;
    if (opp == FETLAR_WHITE && s->king != FETLAR_NOSQ) {
        int kr = s->king / FETLAR_N, kc = s->king % FETLAR_N;
        if (fetlar_ban[kr] | fetlar_ban[kc]) {
            x.kr = kr, x.kc = kc;
            x.kban = king_ban_moves(kr, kc, fetlar_rowocc(s, kr), s->cols[kc], hw);
        }
    }
    uint64_t total = 0;
    for (int r = 0; r < FETLAR_N; r++) {
        unsigned pcs = s->rows[side][r];
        while (pcs) {
            int c = __builtin_ctz(pcs);
            pcs &= pcs - 1;
            int king = r * FETLAR_N + c == s->king;
            total += p2_line(&x, r, c, 1, row_targets(s, r, c, king), king, hw);
            total += p2_line(&x, r, c, 0, col_targets(s, r, c, king), king, hw);
        }
    }
    return total;
}

FETLAR_DISPATCH(, uint64_t, fetlar_perft2, (const struct fetlar_state *s), (s),
                perft2_body(s, hw_))

void fetlar_pass(struct fetlar_state *s)
{
    s->side ^= 1;
    s->hash ^= zob_side;
}

int fetlar_king_corner_routes(const struct fetlar_state *s)
{
    int k = s->king;
    if (k == FETLAR_NOSQ)
        return 0;
    int r = k / FETLAR_N, c = k % FETLAR_N, routes = 0;
    if (r == 0 || r == FETLAR_N - 1) {
        uint16_t m = fetlar_slide[c][fetlar_rowocc(s, r)];
        int top = r ? 2 : 0;
        if (m & 1)
            routes |= 1 << top;
        if (m & (1 << 10))
            routes |= 1 << (top + 1);
    }
    if (c == 0 || c == FETLAR_N - 1) {
        uint16_t m = fetlar_slide[r][s->cols[c]];
        int right = c ? 1 : 0;
        if (m & 1)
            routes |= 1 << right;
        if (m & (1 << 10))
            routes |= 1 << (2 + right);
    }
    return routes;
}

/* ---- struct game members ----------------------------------------------- */

static void cfg_default(void *cfg) { (void)cfg; }

static int cfg_set(void *cfg, const char *key, const char *val, char *err,
                   size_t n)
{
    (void)cfg;
    (void)val;
    return set_err(err, n, GAME_EVALUE, "fetlar has no parameter '%s'", key);
}

static void cfg_format(const void *cfg, char *buf, size_t n)
{
    (void)cfg;
    if (n)
        buf[0] = '\0';
}

static int parse_pos(void *st, const void *cfg, const char *str, char *err,
                     size_t n)
{
    (void)cfg;
    struct fetlar_state s;
    memset(&s, 0, sizeof s);
    s.king = FETLAR_NOSQ;
    const char *p = str;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '/')
        p++;
    int kings = 0;
    for (int r = 0; r < FETLAR_N; r++) {
        int c = 0;
        while (*p && *p != '/' && *p != ' ' && *p != '\t') {
            if (isdigit((unsigned char)*p)) {
                int v = 0;
                if (*p == '0')
                    return set_err(err, n, GAME_ESYNTAX,
                                   "bad run length in rank %d", r + 1);
                while (isdigit((unsigned char)*p) && v <= FETLAR_N)
                    v = v * 10 + (*p++ - '0');
                c += v;
                if (c > FETLAR_N)
                    return set_err(err, n, GAME_ESYNTAX,
                                   "rank %d is longer than 11", r + 1);
                continue;
            }
            int pc = *p == 't' ? FETLAR_ATT : *p == 'T' ? FETLAR_DEF
                     : *p == 'K' ? FETLAR_KING : 0;
            if (!pc)
                return set_err(err, n, GAME_ESYNTAX,
                               "unexpected '%c' in rank %d", *p, r + 1);
            if (c >= FETLAR_N)
                return set_err(err, n, GAME_ESYNTAX,
                               "rank %d is longer than 11", r + 1);
            int sq = r * FETLAR_N + c;
            if (pc == FETLAR_KING) {
                if (++kings > 1)
                    return set_err(err, n, GAME_EPOSITION, "two kings");
                s.king = (uint8_t)sq;
            } else if (fetlar_is_corner(sq) || sq == FETLAR_THRONE) {
                return set_err(err, n, GAME_EPOSITION,
                               "only the king may stand on %c%d",
                               'a' + c, r + 1);
            }
            put(&s, sq, pc);
            if (pc == FETLAR_ATT)
                s.natt++;
            else if (pc == FETLAR_DEF)
                s.ndef++;
            c++;
            p++;
        }
        if (c != FETLAR_N)
            return set_err(err, n, GAME_ESYNTAX,
                           "rank %d has %d squares, not 11", r + 1, c);
        if (r < FETLAR_N - 1) {
            if (*p != '/')
                return set_err(err, n, GAME_ESYNTAX,
                               "expected 11 ranks separated by '/'");
            p++;
        }
    }
    if (*p == '/')
        p++;
    if (*p != ' ' && *p != '\t')
        return set_err(err, n, GAME_ESYNTAX,
                       "expected the side to move after the board");
    while (*p == ' ' || *p == '\t')
        p++;
    if ((*p != 'b' && *p != 'w') ||
        (p[1] && p[1] != ' ' && p[1] != '\t'))
        return set_err(err, n, GAME_ESYNTAX,
                       "side to move must be 'b' or 'w'");
    s.side = *p == 'b' ? FETLAR_BLACK : FETLAR_WHITE;
    if (s.side)
        s.hash ^= zob_side;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p) {
        char tok[32];
        size_t k = 0;
        while (*p && *p != ' ' && *p != '\t' && k + 1 < sizeof tok)
            tok[k++] = *p++;
        tok[k] = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p)
            return set_err(err, n, GAME_ESYNTAX,
                           "unexpected text after the ply counter");
        int64_t v;
        if (parse_i64(tok, 0, FETLAR_DRAW_PLIES, &v) != 0) {
            if (parse_i64(tok, INT64_MIN, INT64_MAX, &v) == 0)
                return set_err(err, n, GAME_EVALUE,
                               "plies since capture must be 0..100");
            return set_err(err, n, GAME_ESYNTAX,
                           "plies since capture must be a number");
        }
        s.quiet = (uint8_t)v;
    }
    if (s.king == FETLAR_NOSQ)
        s.over = FETLAR_CAPTURED;
    else if (fetlar_is_corner(s.king))
        s.over = FETLAR_ESCAPED;
    memcpy(st, &s, sizeof s);
    return GAME_OK;
}

static void start(void *st, const void *cfg)
{
    int rc = parse_pos(st, cfg, fetlar_start_pos, NULL, 0);
    (void)rc;
    assert(rc == GAME_OK);
}

static void format_pos(const void *st, char *buf, size_t n)
{
    const struct fetlar_state *s = st;
    size_t len = 0;
    buf_printf(buf, n, &len, "/");
    for (int r = 0; r < FETLAR_N; r++) {
        int run = 0;
        for (int c = 0; c < FETLAR_N; c++) {
            int p = s->board[r * FETLAR_N + c];
            if (!p) {
                run++;
                continue;
            }
            if (run)
                buf_printf(buf, n, &len, "%d", run);
            run = 0;
            buf_printf(buf, n, &len, "%c", " tTK"[p]);
        }
        if (run)
            buf_printf(buf, n, &len, "%d", run);
        buf_printf(buf, n, &len, "/");
    }
    buf_printf(buf, n, &len, " %c %d", s->side ? 'w' : 'b', s->quiet);
}

static void show(const void *st, char *buf, size_t n)
{
    const struct fetlar_state *s = st;
    size_t len = 0;
    for (int r = FETLAR_N - 1; r >= 0; r--) {
        buf_printf(buf, n, &len, "%2d ", r + 1);
        for (int c = 0; c < FETLAR_N; c++) {
            int sq = r * FETLAR_N + c, p = s->board[sq];
            char ch = p ? " tTK"[p]
                      : (fetlar_is_corner(sq) || sq == FETLAR_THRONE) ? '+'
                                                                      : '.';
            buf_printf(buf, n, &len, " %c", ch);
        }
        buf_printf(buf, n, &len, "\n");
    }
    buf_printf(buf, n, &len, "    a b c d e f g h i j k\n");
    buf_printf(buf, n, &len, "%s to move, %d plies since capture",
               s->side ? "white (defenders)" : "black (attackers)", s->quiet);
}

/* Parse "e4" at *p; advance.  Returns the square or -1. */
static int parse_square(const char **pp)
{
    const char *p = *pp;
    int c = tolower((unsigned char)*p) - 'a';
    if (c < 0 || c >= FETLAR_N)
        return -1;
    p++;
    if (!isdigit((unsigned char)*p) || *p == '0')
        return -1;
    int r = *p++ - '0';
    if (isdigit((unsigned char)*p))
        r = r * 10 + (*p++ - '0');
    if (r < 1 || r > FETLAR_N)
        return -1;
    *pp = p;
    return (r - 1) * FETLAR_N + c;
}

static int parse_move(const void *st, const char *str, gmove *m, char *err,
                      size_t n)
{
    const struct fetlar_state *s = st;
    const char *p = str;
    int from = parse_square(&p);
    if (from >= 0 && *p == '-')
        p++;
    int to = from >= 0 ? parse_square(&p) : -1;
    if (from < 0 || to < 0 || *p)
        return set_err(err, n, GAME_ESYNTAX,
                       "bad move '%s' (expected like e1-e4)", str);
    gmove mv[FETLAR_MAX_MOVES];
    int k = fetlar_gen(s, mv, (int)ARRAY_LEN(mv));
    if (k == 0)
        return set_err(err, n, GAME_EOVER, "the game is over");
    for (int i = 0; i < k; i++)
        if (mv[i] == FETLAR_MOVE(from, to)) {
            *m = mv[i];
            return GAME_OK;
        }
    return set_err(err, n, GAME_EILLEGAL, "%s is not legal here", str);
}

static void format_move(const void *st, gmove m, char *buf, size_t n)
{
    (void)st;
    int f = FETLAR_FROM(m), t = FETLAR_TO(m);
    snprintf(buf, n, "%c%d-%c%d", 'a' + f % FETLAR_N, f / FETLAR_N + 1,
             'a' + t % FETLAR_N, t / FETLAR_N + 1);
}

static int gen_moves(const void *st, gmove *out, int max)
{
    return fetlar_gen(st, out, max);
}

static void play(void *st, gmove m) { fetlar_play(st, m); }

static int count_moves(const void *st) { return fetlar_count(st); }

static uint64_t perft2(const void *st) { return fetlar_perft2(st); }

static int to_move(const void *st)
{
    return ((const struct fetlar_state *)st)->side + 1;
}

static int nseats(const void *st)
{
    (void)st;
    return 2;
}

static uint64_t hash(const void *st)
{
    return ((const struct fetlar_state *)st)->hash;
}

static void set_winner(struct game_result *r, int seat, const char *why)
{
    r->over = 1;
    r->nseats = 2;
    r->rank[0] = seat == 1 ? 1 : 2;
    r->rank[1] = seat == 2 ? 1 : 2;
    r->score[0] = seat == 1;
    r->score[1] = seat == 2;
    r->reason = why;
}

static void result(const void *st, const uint64_t *hist, int nhist,
                   struct game_result *r)
{
    const struct fetlar_state *s = st;
    memset(r, 0, sizeof *r);
    if (s->over == FETLAR_CAPTURED) {
        set_winner(r, 1, "king_captured");
        return;
    }
    if (s->over == FETLAR_ESCAPED) {
        set_winner(r, 2, "king_escaped");
        return;
    }
    int draw = s->quiet >= FETLAR_DRAW_PLIES;
    const char *why = "no_capture";
    if (!draw) {
        int seen = 0;
        for (int i = 0; i < nhist; i++)
            seen += hist[i] == s->hash;
        draw = seen >= 2;
        why = "repetition";
    }
    if (draw) {
        r->over = 1;
        r->nseats = 2;
        r->rank[0] = r->rank[1] = 1;
        r->score[0] = r->score[1] = 0.5;
        r->reason = why;
        return;
    }
    if (fetlar_count(s) == 0)
        set_winner(r, s->side == FETLAR_BLACK ? 2 : 1, "no_moves");
}

const struct game fetlar_game = {
    .name = "fetlar",
    .title = "Fetlar Hnefatafl 11x11",
    .min_seats = 2,
    .max_seats = 2,
    .state_size = sizeof(struct fetlar_state),
    .config_size = 0,
    .params_help = "",
    .max_moves = FETLAR_MAX_MOVES,
    .config_default = cfg_default,
    .config_set = cfg_set,
    .config_format = cfg_format,
    .start = start,
    .parse_pos = parse_pos,
    .format_pos = format_pos,
    .show = show,
    .parse_move = parse_move,
    .format_move = format_move,
    .gen_moves = gen_moves,
    .play = play,
    .to_move = to_move,
    .nseats = nseats,
    .hash = hash,
    .result = result,
    .count_moves = count_moves,
    .perft2 = perft2,
};
