/* game.c - Lines of Action rules (RULES.md §1) behind struct game. */
#include "loa.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/util.h"

/* ---- the fast path ---------------------------------------------------------
 * The hot routines (move generation and counting, mobility; the evaluation
 * in eval.c) are compiled twice from one always-inlined body: portable, and
 * for x86-64 processors with POPCNT, BMI1 and BMI2 (a population count is
 * one instruction instead of libgcc's call).  The first is the default
 * build's baseline, so one binary runs everywhere; the processor is asked
 * once (cpuid) and the entry points pick the fast copy where it runs.  Both
 * copies make the same moves in the same order (test_loa runs perft both
 * ways); MEDAN_CPU=portable in the environment keeps the portable one (for
 * `make bench`'s comparison). */

static bool cpu_hw;
static atomic_bool use_hw;

static bool cpu_has_hw(void)
{
#if LOA_HW
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
           __builtin_cpu_supports("bmi2");
#else
    return false;
#endif
}

bool loa_fast_cpu(int want)
{
    if (want >= 0)
        atomic_store(&use_hw, want && cpu_hw);
    return atomic_load_explicit(&use_hw, memory_order_relaxed);
}

/* Called once before main (the tables' constructor). */
static void cpu_init(void)
{
    const char *env = getenv("MEDAN_CPU");
    cpu_hw = cpu_has_hw();
    atomic_init(&use_hw, cpu_hw && !(env && strcmp(env, "portable") == 0));
}


const char *const LOA_START = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";
/* 6x6: black b1-e1 and b6-e6, white a2-a5 and f2-f5, 8 each, black first
 * (the 8x8 start shrunk, as in Winands' 6x6 solution). */
const char *const LOA_START6 = "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b";

/* ---- tables --------------------------------------------------------------- */
/* The four lines through a square: rank, file, diagonal, anti-diagonal. */
static uint64_t line_mask[64][4];
/* Landing square from sq along direction d (0..7) at distance n (1..7), or
 * sq itself where that is off the board (and for n = 0): sq holds the
 * mover's own piece, so the move is refused as one onto an own piece, with
 * no test of its own.  A line holds at most 8 pieces, and n = 8 is looked
 * up as 0 (n & 7): refused too. */
static uint8_t land[64][8][8];
/* Squares strictly between two squares on a line. */
static uint64_t between[64][64];
static uint64_t zob[2][64], zob_side, zob_size6;

static const int DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, -1, 1};
/* direction d lies on line d / 2 */

static uint64_t bit(int sq) { return 1ULL << sq; }
static void line_tables(void); /* mobility's, below */

__attribute__((constructor)) static void loa_tables(void)
{
    uint64_t seed = 0x4c4f41; /* "LOA" */
    cpu_init();
    line_tables();
    for (int sq = 0; sq < 64; sq++) {
        int x = sq & 7, y = sq >> 3;
        for (int d = 0; d < 8; d++) {
            for (int n = 0; n < 8; n++) {
                int tx = x + DX[d] * n, ty = y + DY[d] * n;
                bool on = tx >= 0 && tx < 8 && ty >= 0 && ty < 8;
                land[sq][d][n] = (uint8_t)(on ? ty * 8 + tx : sq);
                if (on)
                    line_mask[sq][d / 2] |= bit(ty * 8 + tx);
            }
            uint64_t path = 0;
            for (int n = 1; n < 8 && land[sq][d][n] != sq; n++) {
                between[sq][land[sq][d][n]] = path;
                path |= bit(land[sq][d][n]);
            }
        }
    }
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < 64; sq++)
            zob[c][sq] = splitmix64(&seed);
    zob_side = splitmix64(&seed);
    zob_size6 = splitmix64(&seed); /* drawn last: the 8x8 keys stay as they were */
}

uint64_t loa_zobrist_side(void) { return zob_side; }

static uint64_t full_hash(const struct loa_state *s)
{
    uint64_t h = (s->side ? zob_side : 0) ^ (s->size == 6 ? zob_size6 : 0);
    for (int c = 0; c < 2; c++)
        for (uint64_t b = s->bb[c]; b; b &= b - 1)
            h ^= zob[c][__builtin_ctzll(b)];
    return h;
}

/* ---- connectivity ----------------------------------------------------------- */
#define NOT_A 0xfefefefefefefefeULL
#define NOT_H 0x7f7f7f7f7f7f7f7fULL

static uint64_t dilate(uint64_t b)
{
    uint64_t h = b | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    return h | (h << 8) | (h >> 8);
}

static uint64_t flood(uint64_t seed, uint64_t set)
{
    uint64_t g = seed, prev;
    do {
        prev = g;
        g = dilate(g) & set;
    } while (g != prev);
    return g;
}

int loa_connected(uint64_t bb)
{
    if (!bb)
        return 0;
    return flood(bb & -bb, bb) == bb;
}

int loa_groups(uint64_t bb)
{
    int n = 0;
    while (bb) {
        bb &= ~flood(bb & -bb, bb);
        n++;
    }
    return n;
}

/* ---- move generation ---------------------------------------------------------- */
/* `blocked`: own pieces and the squares off the board (6x6), where no move
 * lands; the squares between the two ends of a move on the 6x6 board are
 * on it too (it is convex), so only the landing square needs the mask
 * (and refuses the moves off the board: `land` gives the mover's own
 * square for those). */
LOA_INLINE int gen_side(const struct loa_state *s, int side, gmove *out, int caps_only)
{
    uint64_t own = s->bb[side], opp = s->bb[side ^ 1], occ = own | opp;
    uint64_t blocked = own | loa_off_board(s);
    int n = 0;
    for (uint64_t b = own; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        for (int l = 0; l < 4; l++) {
            int cnt = __builtin_popcountll(occ & line_mask[sq][l]);
            for (int d = 2 * l; d < 2 * l + 2; d++) {
                int t = land[sq][d][cnt & 7];
                if (((blocked >> t) & 1) || (between[sq][t] & opp))
                    continue;
                int cap = (opp >> t) & 1;
                if (caps_only && !cap)
                    continue;
                if (out)
                    out[n] = LOA_MOVE(sq, t, cap);
                n++;
            }
        }
    }
    return n;
}

LOA_DISPATCH(, int, loa_gen, (const struct loa_state *s, gmove *out), (s, out),
             gen_side(s, s->side, out, 0))
LOA_DISPATCH(, int, loa_gen_captures, (const struct loa_state *s, gmove *out), (s, out),
             gen_side(s, s->side, out, 1))

/* ---- mobility, a line at a time -------------------------------------------- */
/* A move's length is the number of pieces on its line, so the moves along
 * a line depend on that line's contents alone: for every line pattern (own
 * and enemy pieces on L squares) a table holds the own pieces' moves along
 * it, both ways, those landing on the line's two ends, the captures, and
 * which pieces have a move.  Both sides' mobility is then two look-ups a
 * line (46 lines on 8x8, 34 on 6x6) instead of eight tests a piece. */
struct line_moves {
    uint8_t moves, ends, caps, movers; /* movers: bit i, the piece on the line's square i */
};
/* The patterns of L squares, own x and enemy y (disjoint L-bit masks), at
 * line_tab[line_off[L] + tern[x] + 2 tern[y]] (tern: the bits read as
 * base-3 digits). */
static const int line_off[9] = {0, 0, 3, 12, 39, 120, 363, 1092, 3279};
static struct line_moves line_tab[3279 + 6561];
static uint16_t tern[256];

enum { LINE_RANK, LINE_FILE, LINE_DIAG };
struct line {
    uint64_t mask; /* the line's squares on the board */
    uint8_t kind;  /* LINE_RANK (shift = rank), LINE_FILE (file), LINE_DIAG
                    * (either diagonal; shift = its first file) */
    uint8_t shift, len;
    uint8_t edge; /* 1: the whole line is on the board's edge */
};
static struct line lines8[46], lines6[34];
/* a rank's pattern spread back over file a: bit r to square a(r+1) */
static uint64_t file_spread[256];

#define FILE_A 0x0101010101010101ULL

static void line_tables(void)
{
    for (int v = 0; v < 256; v++) {
        int t = 0;
        for (int i = 7; i >= 0; i--)
            t = 3 * t + ((v >> i) & 1);
        tern[v] = (uint16_t)t;
        for (int r = 0; r < 8; r++)
            if (v >> r & 1)
                file_spread[v] |= bit(8 * r);
    }
    for (int len = 1; len <= 8; len++)
        for (unsigned x = 0; x < 1u << len; x++)
            for (unsigned y = 0; y < 1u << len; y++) {
                if (x & y)
                    continue;
                struct line_moves *e = &line_tab[line_off[len] + tern[x] + 2 * tern[y]];
                int n = __builtin_popcount(x | y);
                for (int i = 0; i < len; i++) {
                    if (!(x >> i & 1))
                        continue;
                    for (int dir = -1; dir <= 1; dir += 2) {
                        int t = i + dir * n, ok = t >= 0 && t < len && !(x >> t & 1);
                        for (int j = i + dir; ok && j != t; j += dir)
                            ok = !(y >> j & 1);
                        if (!ok)
                            continue;
                        e->moves++;
                        e->ends += t == 0 || t == len - 1;
                        e->caps += y >> t & 1;
                        e->movers |= (uint8_t)(1u << i);
                    }
                }
            }
    for (int size = 6; size <= 8; size += 2) {
        struct line *ln = size == 6 ? lines6 : lines8;
        int k = 0, last = size - 1;
        for (int i = 0; i < size; i++) {
            ln[k++] = (struct line){(((1ULL << size) - 1) << (8 * i)), LINE_RANK, (uint8_t)i,
                                    (uint8_t)size, i == 0 || i == last};
            uint64_t m = 0;
            for (int r = 0; r < size; r++)
                m |= bit(8 * r + i);
            ln[k++] = (struct line){m, LINE_FILE, (uint8_t)i, (uint8_t)size, i == 0 || i == last};
        }
        /* the diagonals (file - rank constant) and anti-diagonals (file +
         * rank constant), each from its lowest file */
        for (int anti = 0; anti < 2; anti++)
            for (int c = 0; c < 2 * size - 1; c++) {
                uint64_t m = 0;
                int first = -1, len = 0;
                for (int x = 0; x < size; x++) {
                    int y = anti ? c - x : x - c + last;
                    if (y < 0 || y > last)
                        continue;
                    m |= bit(8 * y + x);
                    first = first < 0 ? x : first;
                    len++;
                }
                ln[k++] = (struct line){m, LINE_DIAG, (uint8_t)first, (uint8_t)len, 0};
            }
        assert(k == (size == 6 ? 34 : 46));
    }
}

/* The pattern of the pieces bb on line l: bit i its i-th square (by file
 * on ranks and diagonals, by rank on files). */
LOA_INLINE unsigned line_bits(uint64_t bb, const struct line *l)
{
    const unsigned lm = (1u << l->len) - 1;
    switch (l->kind) {
    case LINE_RANK:
        return (unsigned)(bb >> (8 * l->shift)) & lm;
    case LINE_FILE: /* the file's bits gathered into the top byte, rank order */
        return (unsigned)((((bb >> l->shift) & FILE_A) * 0x0102040810204080ULL) >> 56) & lm;
    default: /* one square a file: the ranks folded onto the top byte */
        return (unsigned)(((bb & l->mask) * FILE_A) >> 56) >> l->shift & lm;
    }
}

/* The squares of line l named by the pattern bits v. */
LOA_INLINE uint64_t line_squares(unsigned v, const struct line *l)
{
    switch (l->kind) {
    case LINE_RANK:
        return (uint64_t)v << (8 * l->shift);
    case LINE_FILE:
        return file_spread[v] << l->shift;
    default:
        return ((uint64_t)(v << l->shift) * FILE_A) & l->mask;
    }
}

LOA_INLINE int mobility(const struct loa_state *s, struct loa_mob mob[2])
{
    const struct line *ln = s->size == 6 ? lines6 : lines8;
    const int nl = s->size == 6 ? 34 : 46;
    const uint64_t b0 = s->bb[0], b1 = s->bb[1], occ = b0 | b1;
    int moves[2] = {0, 0}, edge[2] = {0, 0}, caps[2] = {0, 0};
    uint64_t movers[2] = {0, 0};
    for (int i = 0; i < nl; i++) {
        const struct line *l = &ln[i];
        if (!(occ & l->mask))
            continue;
        const unsigned x0 = line_bits(b0, l), x1 = line_bits(b1, l);
        const struct line_moves *t = &line_tab[line_off[l->len]];
        const struct line_moves e0 = t[tern[x0] + 2 * tern[x1]], e1 = t[tern[x1] + 2 * tern[x0]];
        moves[0] += e0.moves;
        moves[1] += e1.moves;
        edge[0] += l->edge ? e0.moves : e0.ends;
        edge[1] += l->edge ? e1.moves : e1.ends;
        caps[0] += e0.caps;
        caps[1] += e1.caps;
        movers[0] |= line_squares(e0.movers, l);
        movers[1] |= line_squares(e1.movers, l);
    }
    for (int c = 0; c < 2; c++) {
        mob[c].moves = moves[c];
        mob[c].edge = edge[c];
        mob[c].captures = caps[c];
        mob[c].blocked = __builtin_popcountll(s->bb[c] & ~movers[c]);
    }
    return moves[0];
}

LOA_DISPATCH(static, int, mobility_d, (const struct loa_state *s, struct loa_mob mob[2]), (s, mob),
             mobility(s, mob))

/* The legal moves of `side`: the table's count, line by line (perft's last
 * ply, the no-move test). */
LOA_INLINE int count_side(const struct loa_state *s, int side)
{
    const struct line *ln = s->size == 6 ? lines6 : lines8;
    const int nl = s->size == 6 ? 34 : 46;
    const uint64_t own = s->bb[side], opp = s->bb[side ^ 1];
    int moves = 0;
    for (int i = 0; i < nl; i++) {
        const struct line *l = &ln[i];
        if (!(own & l->mask))
            continue;
        const unsigned x = line_bits(own, l), y = line_bits(opp, l);
        moves += line_tab[line_off[l->len] + tern[x] + 2 * tern[y]].moves;
    }
    return moves;
}

LOA_DISPATCH(, int, loa_count, (const struct loa_state *s, int side), (s, side),
             count_side(s, side))

void loa_mobility2(const struct loa_state *s, struct loa_mob mob[2]) { mobility_d(s, mob); }

void loa_mobility(const struct loa_state *s, int side, struct loa_mob *mob)
{
    struct loa_mob both[2];
    loa_mobility2(s, both);
    *mob = both[side];
}

void loa_play(struct loa_state *s, gmove m)
{
    int f = LOA_FROM(m), t = LOA_TO(m), us = s->side, them = us ^ 1;
    s->bb[us] ^= bit(f) | bit(t);
    s->hash ^= zob[us][f] ^ zob[us][t] ^ zob_side;
    if (s->bb[them] & bit(t)) {
        s->bb[them] ^= bit(t);
        s->hash ^= zob[them][t];
    }
    s->side = (uint8_t)them;
}

/* 1: side to move has won, -1: has lost, 0: game on (ignores repetition). */
int loa_decided(const struct loa_state *s)
{
    int us = s->side, them = us ^ 1;
    int cthem = loa_connected(s->bb[them]);
    if (cthem)               /* the player who just moved wins ties */
        return -1;
    if (loa_connected(s->bb[us]))
        return 1;
    return 0;
}

/* ---- struct game members ----------------------------------------------------- */
static void cfg_default(void *cfg) { ((struct loa_config *)cfg)->size = 8; }
static int cfg_set(void *cfg, const char *k, const char *v, char *err, size_t n)
{
    struct loa_config *c = cfg;
    if (strcmp(k, "size") != 0)
        return set_err(err, n, GAME_EVALUE, "loa has no parameter '%s' (size=6|8)", k);
    if (strcmp(v, "6") != 0 && strcmp(v, "8") != 0)
        return set_err(err, n, GAME_EVALUE, "size must be 6 or 8, not '%s'", v);
    c->size = v[0] - '0';
    return GAME_OK;
}
static void cfg_format(const void *cfg, char *buf, size_t n)
{
    snprintf(buf, n, "size=%d", ((const struct loa_config *)cfg)->size);
}

static int parse_pos(void *st, const void *cfg, const char *str, char *err, size_t en)
{
    struct loa_state s;
    const char *p = str;
    int ranks = 1, size, most, x = 0, y;
    const struct loa_config *c = cfg;
    /* The string says the size (8 ranks, or 6); under a config (MEP's
     * newgame, the referee's --game, medan-web) it must be the config's:
     * a 6x6 opening in an 8x8 match, or the other way, is a mistake. */
    for (const char *q = str; *q && *q != ' '; q++)
        ranks += *q == '/';
    if (ranks != 6 && ranks != 8)
        return set_err(err, en, GAME_ESYNTAX, "the board needs 8 ranks of 8 squares (or 6 of 6)");
    size = ranks;
    if (c && c->size != size)
        return set_err(err, en, GAME_EPOSITION, "%s position, but the game is %dx%d (size=%d)",
                       size == 6 ? "a 6x6" : "an 8x8", c->size, c->size, size);
    most = size == 6 ? 8 : 12;
    y = size - 1;
    memset(&s, 0, sizeof s);
    s.size = (uint8_t)size;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (x != size || y == 0)
                return set_err(err, en, GAME_ESYNTAX, "rank %d does not hold %d squares", y + 1,
                               size);
            x = 0;
            y--;
        } else if (*p >= '1' && *p <= '8') {
            x += *p - '0';
            if (x > size)
                return set_err(err, en, GAME_ESYNTAX, "rank %d holds more than %d squares",
                               y + 1, size);
        } else if (*p == 'b' || *p == 'w') {
            if (x >= size)
                return set_err(err, en, GAME_ESYNTAX, "rank %d holds more than %d squares",
                               y + 1, size);
            s.bb[*p == 'w'] |= bit(y * 8 + x);
            x++;
        } else
            return set_err(err, en, GAME_ESYNTAX, "unexpected '%c' in the board", *p);
    }
    if (y != 0 || x != size)
        return set_err(err, en, GAME_ESYNTAX,
                       "the board needs 8 ranks of 8 squares (or 6 of 6)");
    if (*p != ' ' || (p[1] != 'b' && p[1] != 'w') || p[2] != '\0')
        return set_err(err, en, GAME_ESYNTAX, "expected the side to move ('b' or 'w') after the board");
    s.side = p[1] == 'w';
    if (!s.bb[0] || !s.bb[1])
        return set_err(err, en, GAME_EPOSITION, "each side needs at least one piece");
    if (__builtin_popcountll(s.bb[0]) > most || __builtin_popcountll(s.bb[1]) > most)
        return set_err(err, en, GAME_EPOSITION, "a side has more than %d pieces", most);
    s.hash = full_hash(&s);
    memcpy(st, &s, sizeof s);
    return GAME_OK;
}

static void start(void *st, const void *cfg)
{
    const struct loa_config *c = cfg;
    int rc = parse_pos(st, cfg, c && c->size == 6 ? LOA_START6 : LOA_START, NULL, 0);
    assert(rc == GAME_OK);
    (void)rc;
}

static void format_pos(const void *st, char *buf, size_t n)
{
    const struct loa_state *s = st;
    size_t len = 0;
    int last = loa_last(s);
    for (int y = last; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x <= last; x++) {
            uint64_t b = bit(y * 8 + x);
            char c = (s->bb[0] & b) ? 'b' : (s->bb[1] & b) ? 'w' : 0;
            if (!c) {
                run++;
                continue;
            }
            if (run)
                buf_printf(buf, n, &len, "%d", run);
            run = 0;
            buf_printf(buf, n, &len, "%c", c);
        }
        if (run)
            buf_printf(buf, n, &len, "%d", run);
        if (y)
            buf_printf(buf, n, &len, "/");
    }
    buf_printf(buf, n, &len, " %c", s->side ? 'w' : 'b');
}

static void show(const void *st, char *buf, size_t n)
{
    const struct loa_state *s = st;
    size_t len = 0;
    int last = loa_last(s);
    const char *files = last == 5 ? "  a b c d e f\n" : "  a b c d e f g h\n";
    buf_printf(buf, n, &len, "%s", files);
    for (int y = last; y >= 0; y--) {
        buf_printf(buf, n, &len, "%d", y + 1);
        for (int x = 0; x <= last; x++) {
            uint64_t b = bit(y * 8 + x);
            buf_printf(buf, n, &len, " %c", (s->bb[0] & b) ? 'x' : (s->bb[1] & b) ? 'o' : '.');
        }
        buf_printf(buf, n, &len, " %d\n", y + 1);
    }
    buf_printf(buf, n, &len, "%s", files);
    buf_printf(buf, n, &len, "black (x) %d  white (o) %d  %s to move",
               __builtin_popcountll(s->bb[0]), __builtin_popcountll(s->bb[1]),
               s->side ? "white" : "black");
}

static int parse_sq(const char *p)
{
    if (p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8')
        return -1;
    return (p[1] - '1') * 8 + (p[0] - 'a');
}

static int gen_moves(const void *st, gmove *out, int max)
{
    const struct loa_state *s = st;
    gmove buf[LOA_MAX_MOVES];
    int n;
    if (loa_decided(s))
        return 0;
    n = loa_gen(s, buf);
    if (n > max)
        return -1;
    memcpy(out, buf, (size_t)n * sizeof *buf);
    return n;
}

static int count_moves(const void *st)
{
    const struct loa_state *s = st;
    return loa_decided(s) ? 0 : loa_count(s, s->side);
}

static int parse_move(const void *st, const char *str, gmove *m, char *err, size_t en)
{
    const struct loa_state *s = st;
    size_t len = strlen(str);
    int f, t, sep = 0;
    gmove buf[LOA_MAX_MOVES];
    if (len == 5 && (str[2] == '-' || str[2] == 'x'))
        sep = 1;
    else if (len != 4)
        return set_err(err, en, GAME_ESYNTAX, "'%s' is not a move (like b1-b3 or b1xd3)", str);
    f = parse_sq(str);
    t = parse_sq(str + 2 + sep);
    if (f < 0 || t < 0)
        return set_err(err, en, GAME_ESYNTAX, "'%s' is not a move (like b1-b3 or b1xd3)", str);
    if ((loa_off_board(s) >> f) & 1 || (loa_off_board(s) >> t) & 1)
        return set_err(err, en, GAME_EILLEGAL, "%s is off the 6x6 board (a1..f6)", str);
    if (loa_decided(s))
        return set_err(err, en, GAME_EOVER, "the game is over");
    int n = loa_gen(s, buf);
    for (int i = 0; i < n; i++)
        if (LOA_FROM(buf[i]) == f && LOA_TO(buf[i]) == t) {
            *m = buf[i];
            return GAME_OK;
        }
    if (!(s->bb[s->side] & bit(f)))
        return set_err(err, en, GAME_EILLEGAL, "no %s piece on %.2s", s->side ? "white" : "black", str);
    return set_err(err, en, GAME_EILLEGAL, "%s is not a legal move here", str);
}

static void format_move(const void *st, gmove m, char *buf, size_t n)
{
    int f = LOA_FROM(m), t = LOA_TO(m);
    (void)st;
    snprintf(buf, n, "%c%c%c%c%c", 'a' + (f & 7), '1' + (f >> 3), LOA_CAP(m) ? 'x' : '-',
             'a' + (t & 7), '1' + (t >> 3));
}

static void play(void *st, gmove m) { loa_play(st, m); }
static int to_move(const void *st) { return ((const struct loa_state *)st)->side + 1; }
static int nseats(const void *st) { (void)st; return 2; }
static uint64_t hash(const void *st) { return ((const struct loa_state *)st)->hash; }

static void set_win(struct game_result *r, int winner_side, const char *reason)
{
    r->over = 1;
    r->nseats = 2;
    r->rank[winner_side] = 1;
    r->rank[winner_side ^ 1] = 2;
    r->score[winner_side] = 1;
    r->score[winner_side ^ 1] = 0;
    r->reason = reason;
}

static void result(const void *st, const uint64_t *hist, int nhist, struct game_result *r)
{
    const struct loa_state *s = st;
    int d = loa_decided(s), reps = 1;
    memset(r, 0, sizeof *r);
    if (d) {
        set_win(r, d > 0 ? s->side : s->side ^ 1, "connected");
        return;
    }
    for (int i = 0; i < nhist; i++)
        reps += hist[i] == s->hash;
    if (reps >= 3) {
        r->over = 1;
        r->nseats = 2;
        r->rank[0] = r->rank[1] = 1;
        r->score[0] = r->score[1] = 0.5;
        r->reason = "repetition";
        return;
    }
    if (loa_count(s, s->side) == 0)
        set_win(r, s->side ^ 1, "no_moves");
}

const struct game loa_game = {
    .name = "loa",
    .title = "Lines of Action",
    .min_seats = 2,
    .max_seats = 2,
    .state_size = sizeof(struct loa_state),
    .config_size = sizeof(struct loa_config),
    .params_help = "size=6|8",
    .max_moves = LOA_MAX_MOVES,
    .default_max_plies = 500, /* RULES.md's safety net */
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
};
