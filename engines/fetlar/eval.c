/* eval.c - what the Fetlar engine knows about tafl.
 *
 * Exact short tactics first (fetlar_tactic): an open route for the king to a
 * corner with the defenders to move, two open routes (or one the attackers
 * cannot block) with the attackers to move, a king move that opens two
 * routes, and a king the attackers capture with their next move.
 *
 * Then a static score (white's view, turned to the side to move's):
 * material both ways, the king's move distance to every corner (a
 * breadth-first search in king moves), the attackers' diagonal corner
 * guards, the king's freedom, the attackers' cordon (can the king's region,
 * flooded through every square not held by an attacker, reach a corner?),
 * and attackers pressing on the king.  Weights are named constants.
 */
#include "eval.h"

#include <stddef.h>
#include <string.h>

#include "../../core/util.h"

typedef unsigned __int128 bb_t;

/* ---- weights (centipawn-like, white's view) --------------------------------- */
const struct fetlar_weights fetlar_default_weights = {
    .att = 160,           /* per attacker (counts for black; above a defender: see fetlar.md) */
    .def = 150,           /* per defender */
    .route_forced = 70,   /* one route open, attackers to move (must block) */
    .dist2 = 140,         /* per corner the king reaches in two moves */
    .dist3 = 35,          /* ... in three */
    .dist4 = 10,          /* ... in four */
    .king_free = 4,       /* per square the king can move to */
    .region = 2,          /* per square of the king's region (capped) */
    .region_cap = 60,
    .region_closed = 5,   /* per square of a closed cordon's region */
    .king_free_closed = 6, /* extra per king square inside a closed cordon */
    .near = 12,           /* per attacker within two squares of a shut-in king */
    .open_corner = 20,    /* per corner inside the king's region */
    .cordon = 260,        /* the attackers' cordon is closed (black) */
    .guard = 28,          /* per attacker on a diagonal corner guard square */
    .guard_pair = 40,     /* both diagonal guards of one corner */
    .tri = 0,             /* corner triangle (a3 b2 c1): 1, 3, 9 units for 1..3 */
    .seal = 0,            /* per corner the attackers have walled off near it */
    .open_line = 0,       /* per line c, i, 3, 9 with no attacker on it */
    .tempo = 12,
    .fork1 = 300,         /* attackers to move, the king threatens a fork */
    .fork2 = 2500,        /* ... from two squares */
    .quiet_fade = 40,     /* quiet plies before the score starts to fade */
    .reach2_closed = 2,   /* per square the shut-in king reaches in two moves */
    .balance = 1830,      /* centres the score: about 0 at the start */
    .press1 = 8,          /* one attacker (or the empty throne) beside the king */
    .press2 = 30,
    .press3 = 90,
    .thin = 0,            /* per attacker fewer than thin_at (counts for white) */
    .thin_at = 0,
    .lone = 30,           /* no defender left: per attacker, per king-step ring */
    .lone_cap = 11,       /* ... nearer the king than lone_cap rings (0..11) */
    .lone_ref = 100,      /* rings the attackers stand in when the last defender falls */
    .lone_at = 0,         /* the lone term counts with at most this many defenders left */
    .lone_free = 80,      /* lone king: per move taken away (of 20, from 15: LONE_FREE_REF) */
};

#define W(f) {#f, offsetof(struct fetlar_weights, f)}
static const struct named_int weight_names[] = {
    W(att), W(def), W(route_forced), W(dist2), W(dist3), W(dist4), W(king_free),
    W(region), W(region_cap), W(region_closed), W(king_free_closed), W(near),
    W(open_corner), W(cordon), W(guard), W(guard_pair), W(tri), W(seal), W(open_line), W(tempo), W(fork1),
    W(fork2), W(quiet_fade), W(reach2_closed), W(balance), W(press1), W(press2), W(press3),
    W(thin), W(thin_at), W(lone), W(lone_cap), W(lone_ref), W(lone_at), W(lone_free),
};
#undef W
_Static_assert(sizeof weight_names / sizeof weight_names[0] ==
                   sizeof(struct fetlar_weights) / sizeof(int),
               "every Fetlar weight has a name");

int fetlar_weights_parse(struct fetlar_weights *w, const char *spec, char *err, size_t n)
{
    struct fetlar_weights t = *w;
    if (named_ints_parse(&t, sizeof t, weight_names, ARRAY_LEN(weight_names), -10000, 10000,
                         "weight", spec, err, n))
        return -1;
    if (t.quiet_fade < 0 || t.quiet_fade >= FETLAR_DRAW_PLIES)
        return set_err(err, n, -1, "weight quiet_fade takes 0..%d", FETLAR_DRAW_PLIES - 1);
    if (t.lone_cap < 0 || t.lone_cap > FETLAR_N)
        return set_err(err, n, -1, "weight lone_cap takes 0..%d", FETLAR_N);
    if (t.lone_at < 0 || t.lone_at > 12)
        return set_err(err, n, -1, "weight lone_at takes 0..12");
    *w = t;
    return 0;
}

static bb_t BOARD, NOT_A, NOT_K, CORNERS, GUARDS;
static bb_t GUARD_PAIR[4][2];
static bb_t TRI[4]; /* per corner: a3 b2 c1 and their mirror images */
/* per corner: the 5x5 box at it, and the box's far rows and files (a5-e5,
 * e1-e4 for a1): a corner is walled off when the squares reached from it
 * through the box without crossing an attacker stop short of them. */
#define SEAL_BOX 5
static bb_t BOX[4], BOX_FAR[4];
/* The files c and i and the ranks 3 and 9: a king on one that no attacker
 * blocks can shuttle between its two ends, threatening a corner from each. */
static bb_t LINE3[4];
/* CORNER_RUN[c][k][len]: the first len squares out from corner c (a1 k1 a11
 * k11) along its rank (k = 0) or file (k = 1). */
static bb_t CORNER_RUN[4][2][FETLAR_N];

static inline bb_t bit(int sq) { return (bb_t)1 << sq; }

/* hw: the fast copy's one-instruction count (fetlar.h, FETLAR_DISPATCH) */
FETLAR_INLINE int popcnt(const int hw, bb_t x)
{
    return fetlar_pc64((uint64_t)x, hw) + fetlar_pc64((uint64_t)(x >> 64), hw);
}

__attribute__((constructor)) static void eval_init(void)
{
    for (int sq = 0; sq < FETLAR_SQ; sq++) {
        BOARD |= bit(sq);
        if (sq % FETLAR_N != 0)
            NOT_A |= bit(sq);
        if (sq % FETLAR_N != FETLAR_N - 1)
            NOT_K |= bit(sq);
        if (fetlar_is_corner(sq))
            CORNERS |= bit(sq);
    }
    /* Diagonal guards: b3 c2 (a1), j3 i2 (k1), b9 c10 (a11), j9 i10 (k11). */
    static const int g[4][2][2] = {{{2, 1}, {1, 2}},
                                   {{2, 9}, {1, 8}},
                                   {{8, 1}, {9, 2}},
                                   {{8, 9}, {9, 8}}};
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 2; i++) {
            GUARD_PAIR[c][i] = bit(g[c][i][0] * FETLAR_N + g[c][i][1]);
            GUARDS |= GUARD_PAIR[c][i];
        }
    /* Triangles: the corner's rank and file two squares out and the
     * diagonal square between them, in the order a1 k1 a11 k11. */
    for (int c = 0; c < 4; c++) {
        int r0 = c < 2 ? 0 : FETLAR_N - 1, c0 = c % 2 ? FETLAR_N - 1 : 0;
        int dr = r0 ? -1 : 1, dc = c0 ? -1 : 1;
        TRI[c] = bit((r0 + 2 * dr) * FETLAR_N + c0) | bit((r0 + dr) * FETLAR_N + c0 + dc) |
                 bit(r0 * FETLAR_N + c0 + 2 * dc);
        for (int i = 0; i < FETLAR_N; i++) {
            LINE3[c] |= c < 2 ? bit(i * FETLAR_N + (c ? FETLAR_N - 3 : 2))
                              : bit((c == 2 ? 2 : FETLAR_N - 3) * FETLAR_N + i);
        }
        for (int len = 1; len < FETLAR_N; len++) {
            CORNER_RUN[c][0][len] =
                CORNER_RUN[c][0][len - 1] | bit(r0 * FETLAR_N + c0 + len * dc);
            CORNER_RUN[c][1][len] =
                CORNER_RUN[c][1][len - 1] | bit((r0 + len * dr) * FETLAR_N + c0);
        }
        for (int i = 0; i < SEAL_BOX; i++)
            for (int j = 0; j < SEAL_BOX; j++) {
                bb_t b = bit((r0 + i * dr) * FETLAR_N + c0 + j * dc);
                BOX[c] |= b;
                if (i == SEAL_BOX - 1 || j == SEAL_BOX - 1)
                    BOX_FAR[c] |= b;
            }
    }
}

static inline bb_t side_bb(const struct fetlar_state *s, int side)
{
    return (bb_t)s->bb[side][1] << 64 | s->bb[side][0];
}

/* Squares reached by sliding from any square of g through `empty`. */
static bb_t slide_all(bb_t g, bb_t empty)
{
    bb_t res = 0, x;
    for (x = (g << FETLAR_N) & empty; x; x = (x << FETLAR_N) & empty)
        res |= x;
    for (x = (g >> FETLAR_N) & empty; x; x = (x >> FETLAR_N) & empty)
        res |= x;
    for (x = (g << 1) & NOT_A & empty; x; x = (x << 1) & NOT_A & empty)
        res |= x;
    for (x = (g >> 1) & NOT_K & empty; x; x = (x >> 1) & NOT_K & empty)
        res |= x;
    return res;
}

/* Empty squares from the end `end` (0 or FETLAR_N - 1) of a line whose
 * occupancy is `occ` (bit i: square i of the line), the end excluded. */
static inline int run_from_end(unsigned occ, int end)
{
    if (end == 0)
        return __builtin_ctz((occ >> 1) | (1u << (FETLAR_N - 1)));
    const unsigned below = occ & ((1u << (FETLAR_N - 1)) - 1);
    return below ? FETLAR_N - 2 - (31 - __builtin_clz(below)) : FETLAR_N - 1;
}

static inline bb_t corner_bit(int c)
{
    static const int sq[4] = {0, FETLAR_N - 1, FETLAR_N * (FETLAR_N - 1), FETLAR_SQ - 1};
    return (bb_t)1 << sq[c];
}

static bb_t neighbours(bb_t g)
{
    return ((g << FETLAR_N) | (g >> FETLAR_N) | ((g << 1) & NOT_A) |
            ((g >> 1) & NOT_K)) &
           BOARD;
}

/* g and every square a king step (also diagonal) from it. */
static bb_t grow8(bb_t g)
{
    bb_t v = g | ((g << FETLAR_N) & BOARD) | (g >> FETLAR_N);
    return v | ((v << 1) & NOT_A) | ((v >> 1) & NOT_K);
}

/* Corners the attackers have walled off: no path from the corner through
 * the box at it, avoiding attackers, reaches the box's far edge or the king
 * (a full triangle a3 b2 c1 does it; so does a4 b3 c2 d1). */
static int sealed_corners(bb_t att, int king)
{
    static const int corner_sq[4] = {0, FETLAR_N - 1, FETLAR_N * (FETLAR_N - 1),
                                     FETLAR_SQ - 1};
    int n = 0;
    for (int c = 0; c < 4; c++) {
        bb_t open = BOX[c] & ~att, f = bit(corner_sq[c]);
        for (bb_t g; !(f & BOX_FAR[c]) && (g = (f | neighbours(f)) & open) != f;)
            f = g;
        n += !(f & (BOX_FAR[c] | bit(king)));
    }
    return n;
}

/* ---- exact tactics ---------------------------------------------------------- */

/* Open routes to a corner for a king standing on `at` (moved from `from`,
 * which is then empty; from == at for the king where he stands). */
static int routes_at(const struct fetlar_state *s, int from, int at)
{
    int r = at / FETLAR_N, c = at % FETLAR_N, n = 0;
    int fr = from / FETLAR_N, fc = from % FETLAR_N;
    if (r == 0 || r == FETLAR_N - 1) {
        unsigned occ = fetlar_rowocc(s, r);
        if (fr == r)
            occ &= ~(1u << fc);
        unsigned m = fetlar_slide[c][occ];
        n += (m & 1) + ((m >> 10) & 1);
    }
    if (c == 0 || c == FETLAR_N - 1) {
        unsigned occ = s->cols[c];
        if (fc == c)
            occ &= ~(1u << fr);
        unsigned m = fetlar_slide[r][occ];
        n += (m & 1) + ((m >> 10) & 1);
    }
    return n;
}

int fetlar_routes(const struct fetlar_state *s)
{
    if (s->king == FETLAR_NOSQ)
        return 0;
    return routes_at(s, s->king, s->king);
}

/* First piece met walking from sq in direction d (FETLAR_EMPTY if none). */
static int first_piece(const struct fetlar_state *s, int sq, int d)
{
    for (int n = fetlar_nb[sq][d]; n >= 0; n = fetlar_nb[n][d])
        if (s->board[n])
            return s->board[n];
    return FETLAR_EMPTY;
}

static int attacker_reaches(const struct fetlar_state *s, int sq)
{
    for (int d = 0; d < 4; d++)
        if (first_piece(s, sq, d) == FETLAR_ATT)
            return 1;
    return 0;
}

int fetlar_king_capturable(const struct fetlar_state *s)
{
    int k = s->king, hostile = 0, gap = -1;
    if (k == FETLAR_NOSQ || fetlar_on_edge(k))
        return 0;
    for (int d = 0; d < 4; d++) {
        int n = fetlar_nb[k][d];
        if (s->board[n] == FETLAR_ATT || n == FETLAR_THRONE)
            hostile++;
        else if (s->board[n] == FETLAR_EMPTY)
            gap = n;
    }
    return hostile == 3 && gap >= 0 && attacker_reaches(s, gap);
}

/* With exactly one route open: can an attacker step onto it? */
static int route_blockable(const struct fetlar_state *s)
{
    int k = s->king, r = k / FETLAR_N, c = k % FETLAR_N;
    for (int d = 0; d < 4; d++) {
        int n = fetlar_nb[k][d], path = 0;
        if (n < 0)
            continue;
        /* Only along the edge line the king stands on. */
        int along_edge = (d < 2) ? (c == 0 || c == FETLAR_N - 1)
                                 : (r == 0 || r == FETLAR_N - 1);
        if (!along_edge)
            continue;
        int last = n;
        for (; n >= 0 && !s->board[n]; n = fetlar_nb[n][d])
            last = n, path++;
        if (n >= 0 || !fetlar_is_corner(last))
            continue; /* blocked: not this route */
        for (int q = fetlar_nb[k][d]; q != last; q = fetlar_nb[q][d])
            if (attacker_reaches(s, q))
                return 1;
    }
    return 0;
}

/* Next to a corner: the route to it cannot be blocked. */
static int beside_corner(int sq)
{
    for (int d = 0; d < 4; d++)
        if (fetlar_nb[sq][d] >= 0 && fetlar_is_corner(fetlar_nb[sq][d]))
            return 1;
    return 0;
}

/* The squares diagonally beside the corners (b2 j2 b10 j10).  A king there
 * reaching an empty edge neighbour (a2 or b1 for b2) has won: beside the
 * corner, on the edge where he cannot be captured, he steps into it next.
 * (With the defenders to move, that neighbour is a king_forks target.) */
static const int diag_sq[4] = {FETLAR_N + 1, 2 * FETLAR_N - 2, FETLAR_SQ - 2 * FETLAR_N + 1,
                               FETLAR_SQ - FETLAR_N - 2};

/* The attackers to move, the king on diagonal square i: can they keep him
 * from an edge neighbour?  Not when both are empty, nor when the one empty
 * is out of every attacker's reach. */
static int diag_lost(const struct fetlar_state *s, int i)
{
    int sq = diag_sq[i], open = 0, reachable = 0;
    for (int d = 0; d < 4; d++) {
        int q = fetlar_nb[sq][d];
        if (q >= 0 && fetlar_on_edge(q) && !s->board[q]) {
            open++;
            reachable += attacker_reaches(s, q);
        }
    }
    return open == 2 || (open == 1 && !reachable);
}

/* Index of the diagonal square at sq, or -1. */
static int diag_index(int sq)
{
    for (int i = 0; i < 4; i++)
        if (diag_sq[i] == sq)
            return i;
    return -1;
}

/* Edge squares the king reaches in one move from which two routes open, or
 * one beside a corner (the edge king cannot be captured there, nor the
 * corner blocked). */
static int king_forks(const struct fetlar_state *s)
{
    int forks = 0;
    int k = s->king, r = k / FETLAR_N, c = k % FETLAR_N;
    unsigned rm = fetlar_slide[c][fetlar_rowocc(s, r)];
    unsigned cm = fetlar_slide[r][s->cols[c]];
    /* Targets on an edge: the ends of the king's lines, or his whole line
     * when he already stands on an edge. */
    while (rm) {
        int t = __builtin_ctz(rm);
        rm &= rm - 1;
        int sq = r * FETLAR_N + t;
        if (fetlar_on_edge(sq) && !fetlar_is_corner(sq) &&
            (beside_corner(sq) || routes_at(s, k, sq) >= 2))
            forks++;
    }
    while (cm) {
        int t = __builtin_ctz(cm);
        cm &= cm - 1;
        int sq = t * FETLAR_N + c;
        if (fetlar_on_edge(sq) && !fetlar_is_corner(sq) &&
            (beside_corner(sq) || routes_at(s, k, sq) >= 2))
            forks++;
    }
    return forks;
}

/* The moves of his 20 a lone king has lost when the last defender falls
 * (median over the 121 positions of bench/hnefatafl/lone-king.txt): the
 * lone_free term counts from there, so that taking the last defender does
 * not jump the score on its own (as lone_ref for the rings). */
#define FETLAR_LONE_FREE_REF 5

int fetlar_tactic(const struct fetlar_state *s)
{
    if (s->over || s->quiet >= FETLAR_DRAW_PLIES || s->king == FETLAR_NOSQ)
        return 0;
    if (s->side == FETLAR_WHITE) {
        if (fetlar_routes(s))
            return 1;
        if (s->quiet + 2 < FETLAR_DRAW_PLIES && king_forks(s))
            return 3;
        return 0;
    }
    if (fetlar_king_capturable(s))
        return 1;
    if (s->quiet + 1 >= FETLAR_DRAW_PLIES)
        return 0;
    int r = fetlar_routes(s), di = diag_index(s->king);
    if (r >= 2 || (r == 1 && !route_blockable(s)) ||
        (di >= 0 && diag_lost(s, di) && s->quiet + 4 < FETLAR_DRAW_PLIES))
        return fetlar_has_move(s) ? -2 : 0;
    return 0;
}

/* ---- move helpers for the search ---------------------------------------------- */

/* The arrival squares where a move of the side to move may capture: beside
 * an enemy soldier with a square hostile to it behind, or beside the king
 * (attackers); empty.  Every capturing move arrives on one (fetlar_captures
 * is true only there: with its departure square behind the victim, that
 * square is the mover's own piece now).  In bitboards, one shift a
 * direction. */
static bb_t hot_squares(const struct fetlar_state *s)
{
    int side = s->side;
    bb_t own = side_bb(s, side), opp = side_bb(s, side ^ 1);
    bb_t empty = BOARD & ~(own | opp);
    /* fetlar_hostile: the mover's pieces, an empty corner or throne */
    bb_t hostile = own | ((CORNERS | bit(FETLAR_THRONE)) & empty);
    bb_t soldiers = opp, hot = 0;
    if (side == FETLAR_BLACK && s->king != FETLAR_NOSQ) {
        soldiers &= ~bit(s->king);
        hot = neighbours(bit(s->king)); /* every side of the king */
    }
    hot |= ((soldiers & (hostile << FETLAR_N)) << FETLAR_N) |
           ((soldiers & (hostile >> FETLAR_N)) >> FETLAR_N) |
           ((soldiers & ((hostile << 1) & NOT_A)) << 1 & NOT_A) |
           ((soldiers & ((hostile >> 1) & NOT_K)) >> 1 & NOT_K);
    return hot & empty;
}

int fetlar_gen_tactical(const struct fetlar_state *s, gmove *out, int max)
{
    /* Arrival squares that may capture: beside an enemy soldier with a
     * square hostile to it behind, or beside the king (attackers).  Only
     * moves to these are checked exactly (the mover may be the pincer).
     * The moves are found from the arrival squares (the nearest piece in
     * each direction), not by generating every move: a quiescence node
     * has a handful of these squares and a hundred moves.  They come out
     * in fetlar_gen's order (by departure square, then the moves along
     * the rank before those along the file, each by arrival square), so
     * the search is the same as when they were filtered from it. */
    if (s->over != FETLAR_PLAYING || s->quiet >= FETLAR_DRAW_PLIES)
        return 0; /* fetlar_gen's: no moves */
    int side = s->side, nhot = 0;
    uint8_t hot[FETLAR_SQ];
    const bb_t seen = hot_squares(s);
    for (uint64_t w = (uint64_t)seen; w; w &= w - 1)
        hot[nhot++] = (uint8_t)__builtin_ctzll(w);
    for (uint64_t w = (uint64_t)(seen >> 64); w; w &= w - 1)
        hot[nhot++] = (uint8_t)(64 + __builtin_ctzll(w));
    /* candidates: (fetlar_gen's order key, move) */
    uint32_t cand[4 * FETLAR_SQ + 4];
    int nc = 0;
    for (int i = 0; i < nhot; i++) {
        int to = hot[i], tr = to / FETLAR_N, tc = to % FETLAR_N;
        int soldier_ok = !((fetlar_ban[tr] >> tc) & 1);
        for (int d = 0; d < 4; d++) {
            int from = fetlar_nb[to][d];
            while (from >= 0 && !s->board[from])
                from = fetlar_nb[from][d];
            if (from < 0 || fetlar_side_of(s->board[from]) != side ||
                !(soldier_ok || from == s->king))
                continue;
            int along_file = d < 2; /* nb 0, 1: the rank above and below */
            cand[nc++] = (uint32_t)from << 9 | (uint32_t)along_file << 8 |
                         (uint32_t)(along_file ? tr : tc);
        }
    }
    /* the king's moves to a corner */
    if (side == FETLAR_WHITE && s->king != FETLAR_NOSQ) {
        int k = s->king, kr = k / FETLAR_N, kc = k % FETLAR_N;
        uint16_t rm = fetlar_slide[kc][fetlar_rowocc(s, kr)] & fetlar_ban[kr] & 0x401;
        uint16_t cm = fetlar_slide[kr][s->cols[kc]] & fetlar_ban[kc] & 0x401;
        while (rm) {
            cand[nc++] = (uint32_t)k << 9 | (uint32_t)__builtin_ctz(rm);
            rm &= rm - 1;
        }
        while (cm) {
            cand[nc++] = (uint32_t)k << 9 | 1u << 8 | (uint32_t)__builtin_ctz(cm);
            cm &= cm - 1;
        }
    }
    for (int i = 1; i < nc; i++) /* insertion sort: a few candidates */
        for (int j = i; j > 0 && cand[j] < cand[j - 1]; j--) {
            uint32_t t = cand[j];
            cand[j] = cand[j - 1];
            cand[j - 1] = t;
        }
    int k = 0;
    for (int i = 0; i < nc && k < max; i++) {
        if (i && cand[i] == cand[i - 1])
            continue; /* a corner both hot and the king's */
        int from = (int)(cand[i] >> 9), line = (int)(cand[i] & 0xff);
        int to = cand[i] & 0x100 ? line * FETLAR_N + from % FETLAR_N
                                 : (from / FETLAR_N) * FETLAR_N + line;
        gmove m = FETLAR_MOVE(from, to);
        if ((from == s->king && fetlar_is_corner(to)) || (seen & bit(to) && fetlar_captures(s, m)))
            out[k++] = m;
    }
    return k;
}

int fetlar_is_tactical(const struct fetlar_state *s, gmove m)
{
    int from = FETLAR_FROM(m), to = FETLAR_TO(m);
    if (from == s->king)
        return fetlar_is_corner(to) ||
               (fetlar_on_edge(to) && routes_at(s, from, to) > 0);
    if (s->side == FETLAR_BLACK && s->king != FETLAR_NOSQ &&
        fetlar_on_edge(s->king)) {
        int k = s->king;
        if ((to / FETLAR_N == k / FETLAR_N && fetlar_on_edge(to) &&
             (k / FETLAR_N == 0 || k / FETLAR_N == FETLAR_N - 1)) ||
            (to % FETLAR_N == k % FETLAR_N && fetlar_on_edge(to) &&
             (k % FETLAR_N == 0 || k % FETLAR_N == FETLAR_N - 1)))
            return 1;
    }
    return fetlar_captures(s, m);
}

void fetlar_mark_tactical(const struct fetlar_state *s, const gmove *mv, int n,
                          unsigned char *out)
{
    /* fetlar_is_tactical move by move, its capture test only for moves to
     * a hot square (the others cannot capture) */
    const bb_t seen = hot_squares(s);
    for (int i = 0; i < n; i++) {
        int from = FETLAR_FROM(mv[i]), to = FETLAR_TO(mv[i]);
        if (from == s->king || (s->side == FETLAR_BLACK && s->king != FETLAR_NOSQ &&
                                fetlar_on_edge(s->king)))
            out[i] = (unsigned char)fetlar_is_tactical(s, mv[i]);
        else
            out[i] = (seen & bit(to)) && fetlar_captures(s, mv[i]);
    }
}

/* ---- the static evaluation ----------------------------------------------------- */

FETLAR_INLINE int evaluate(const struct fetlar_state *s, const struct fetlar_weights *w,
                           struct fetlar_terms *t, const int hw)
{
    struct fetlar_terms z;
    if (!w)
        w = &fetlar_default_weights;
    if (!t)
        t = &z;
    memset(t, 0, sizeof *t);
    int stm = s->side == FETLAR_WHITE ? 1 : -1;
    t->material = w->def * s->ndef - w->att * s->natt;
    /* A thin cordon cannot hold the corners: below thin_at attackers each
     * one more lost costs extra. */
    if (s->natt < w->thin_at)
        t->material += w->thin * (w->thin_at - s->natt);
    if (s->king == FETLAR_NOSQ) {
        t->tactic = -FETLAR_EVAL_WIN;
        return stm * (t->tactic + t->material);
    }
    int tac = fetlar_tactic(s);
    if (tac) {
        int v = tac == 1 ? FETLAR_EVAL_WIN : tac == 3 ? FETLAR_EVAL_WIN - 200
                                                      : -(FETLAR_EVAL_WIN - 100);
        t->tactic = stm * v; /* white's view */
        return v + stm * t->material / 8;
    }

    bb_t att = side_bb(s, FETLAR_BLACK), def = side_bb(s, FETLAR_WHITE);
    bb_t empty = BOARD & ~(att | def), king = bit(s->king);

    /* King distance in moves to each corner: the squares the king reaches
     * within d moves (K_d, up to d = 3), and a corner is d + 1 moves away
     * when K_d meets the squares it is reached from in one move (empty
     * squares run out from it along its rank and file: the same paths
     * walked the other way, so no fourth widening of K). */
    bb_t seen = king, front = king, from_corner[4];
    int reach2 = 0, kmoves = 0;
    unsigned left = 0xf; /* corners not reached yet */
    for (int c = 0; c < 4; c++) {
        const int r0 = c < 2 ? 0 : FETLAR_N - 1, c0 = c % 2 ? FETLAR_N - 1 : 0;
        const unsigned rk = fetlar_rowocc(s, r0), fl = s->cols[c0];
        from_corner[c] = CORNER_RUN[c][0][run_from_end(rk, c0)] |
                         CORNER_RUN[c][1][run_from_end(fl, r0)];
    }
    for (int d = 1; d <= 3 && front && (left || d <= 2); d++) {
        bb_t nxt = slide_all(front, empty) & ~seen;
        if (d == 1) {
            kmoves = popcnt(hw, nxt);
            t->king_free = w->king_free * kmoves;
            for (int c = 0; c < 4; c++) /* a route: king_routes, below */
                if (nxt & corner_bit(c))
                    left &= ~(1u << c);
        }
        seen |= nxt;
        front = nxt;
        if (d == 2)
            reach2 = popcnt(hw, seen) - 1;
        const int wd = d == 1 ? w->dist2 : d == 2 ? w->dist3 : w->dist4;
        for (unsigned m = left; m; m &= m - 1) {
            const int c = __builtin_ctz(m);
            if (from_corner[c] & seen) {
                t->corner_dist += wd;
                left &= ~(1u << c);
            }
        }
    }
    if (fetlar_routes(s))
        t->king_routes = w->route_forced; /* black to move, one route */
    else if (s->side == FETLAR_BLACK) {
        /* The king threatens to fork: one threat can often be parried,
         * two on different squares rarely. */
        int forks = king_forks(s);
        t->king_routes = forks >= 2 ? w->fork2 : forks ? w->fork1 : 0;
    }

    /* The king's region through everything but attackers. */
    bb_t pass = BOARD & ~att, region = king;
    for (;;) {
        bb_t grow = (region | neighbours(region)) & pass;
        if (grow == region)
            break;
        region = grow;
    }
    int open = popcnt(hw, region & CORNERS), size = popcnt(hw, region);
    if (open) {
        t->cordon = w->open_corner * open +
                    w->region * (size < w->region_cap ? size : w->region_cap);
    } else {
        /* Inside a closed cordon every square counts: tightening it, taking
         * the king's moves and closing in on him is the attackers'
         * progress. */
        bb_t near = neighbours(king);
        near |= neighbours(near);
        near |= ((near << 1) & NOT_A) | ((near >> 1) & NOT_K);
        t->cordon = -w->cordon + w->region_closed * size -
                    w->near * popcnt(hw, near & att);
        t->king_free += w->king_free_closed * kmoves +
                        w->reach2_closed * reach2;
    }

    /* A lone king (no defender left) is caught only by attackers closing
     * in from all sides, a plan longer than the search sees: each attacker
     * counts lone for every king-step ring (a square around the king, 3x3,
     * 5x5, ...) it stands in, up to lone_cap - 1 rings out, so every step
     * towards him is progress.  The corner terms keep the guards home.
     * lone_ref rings (about 6 each for 17 attackers) are expected, so
     * taking the last defender is not worth thousands on its own.  With
     * lone_at > 0 the term starts while that many defenders are left. */
    if (s->ndef <= w->lone_at) {
        if (w->lone) {
            bb_t ring = king;
            t->cordon += w->lone * w->lone_ref;
            for (int d = 1; d < w->lone_cap; d++) {
                ring = grow8(ring);
                t->cordon -= w->lone * popcnt(hw, ring & att);
            }
        }
        /* (a weight of its own: lone=0 leaves it on.)  A king on the edge cannot be captured, only shut in until he
         * has no move (then the defenders lose): each move taken from his
         * 20 counts lone_free, from the FETLAR_LONE_FREE_REF he has
         * usually lost when the last defender falls.  (Counting the
         * squares cut off from his region instead lost: 17 wins of the
         * first 40 lone-king positions against 21, docs/games/fetlar.md.) */
        t->king_free -= w->lone_free * (2 * (FETLAR_N - 1) - FETLAR_LONE_FREE_REF - kmoves);
    }

    /* Corner guards. */
    t->guards = -w->guard * popcnt(hw, att & GUARDS);
    for (int c = 0; c < 4; c++)
        if ((att & GUARD_PAIR[c][0]) && (att & GUARD_PAIR[c][1]))
            t->guards -= w->guard_pair;
    /* Triangles: a full one seals its corner for good (none of its three
     * pieces can be captured from outside), so each piece is worth more
     * than the last. */
    static const int tri_units[4] = {0, 1, 3, 9};
    for (int c = 0; c < 4; c++)
        t->guards -= w->tri * tri_units[popcnt(hw, att & TRI[c])];
    if (w->seal)
        t->guards -= w->seal * sealed_corners(att, s->king);
    for (int c = 0; c < 4; c++)
        if (!(att & LINE3[c]))
            t->guards += w->open_line;

    /* Attackers beside the king (the empty throne helps them). */
    bb_t around = neighbours(king);
    int press = popcnt(hw, around & att) + ((around & bit(FETLAR_THRONE)) ? 1 : 0);
    if (fetlar_on_edge(s->king))
        press = press > 2 ? 2 : press;
    const int press_w[5] = {0, w->press1, w->press2, w->press3, 0};
    t->pressure = -press_w[press > 4 ? 4 : press];

    int white = w->balance + t->material + t->king_routes + t->corner_dist +
                t->guards + t->king_free + t->cordon + t->pressure;
    /* The 100-ply rule: past w->quiet_fade quiet plies the score fades toward
     * the draw it is heading for, so the side ahead looks for a capture
     * (which resets the counter) instead of shuffling.  Not for attackers
     * ahead of a lone king (or of lone_at defenders or fewer): nothing is
     * left to capture but him, and the fade would flatten the terms that
     * lead them to him. */
    if (s->quiet > w->quiet_fade && (s->ndef > w->lone_at || white > 0))
        white = white * (FETLAR_DRAW_PLIES - s->quiet) /
                (FETLAR_DRAW_PLIES - w->quiet_fade);
    return stm * white + w->tempo;
}

/* the fast copy (POPCNT, BMI) where the processor has it */
FETLAR_DISPATCH(, int, fetlar_evaluate,
                (const struct fetlar_state *s, const struct fetlar_weights *w,
                 struct fetlar_terms *t),
                (s, w, t), evaluate(s, w, t, hw_))
