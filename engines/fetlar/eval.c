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

#include <string.h>

typedef unsigned __int128 bb_t;

/* ---- weights (centipawn-like, white's view) --------------------------------- */
enum {
    W_ATT = 90,          /* per attacker (counts for black) */
    W_DEF = 150,         /* per defender */
    W_ROUTE_FORCED = 70, /* one route open, attackers to move (must block) */
    W_DIST2 = 140,       /* per corner the king reaches in two moves */
    W_DIST3 = 35,        /* ... in three */
    W_DIST4 = 10,        /* ... in four */
    W_KING_FREE = 4,     /* per square the king can move to */
    W_REGION = 2,        /* per square of the king's region (capped) */
    W_REGION_CAP = 60,
    W_REGION_CLOSED = 5, /* per square of a closed cordon's region */
    W_KING_FREE_CLOSED = 6, /* extra per king square inside a closed cordon */
    W_NEAR = 12,         /* per attacker within two squares of a shut-in king */
    W_OPEN_CORNER = 20,  /* per corner inside the king's region */
    W_CORDON = 260,      /* the attackers' cordon is closed (black) */
    W_GUARD = 28,        /* per attacker on a diagonal corner guard square */
    W_GUARD_PAIR = 40,   /* both diagonal guards of one corner */
    W_TEMPO = 12,
    W_FORK1 = 300,       /* attackers to move, the king threatens a fork */
    W_FORK2 = 2500,      /* ... from two squares */
    QUIET_FADE = 40,     /* quiet plies before the score starts to fade */
    W_REACH2_CLOSED = 2, /* per square the shut-in king reaches in two moves */
    W_BALANCE = 150,     /* centres the score: about 0 at the start */
};
static const int W_PRESS[5] = {0, 8, 30, 90, 0}; /* attackers beside the king */

static bb_t BOARD, NOT_A, NOT_K, CORNERS, GUARDS;
static bb_t GUARD_PAIR[4][2];

static inline bb_t bit(int sq) { return (bb_t)1 << sq; }

static int popcnt(bb_t x)
{
    return __builtin_popcountll((uint64_t)x) +
           __builtin_popcountll((uint64_t)(x >> 64));
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
}

static bb_t side_bb(const struct fetlar_state *s, int side)
{
    bb_t m = 0;
    for (int r = 0; r < FETLAR_N; r++)
        m |= (bb_t)s->rows[side][r] << (FETLAR_N * r);
    return m;
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

static bb_t neighbours(bb_t g)
{
    return ((g << FETLAR_N) | (g >> FETLAR_N) | ((g << 1) & NOT_A) |
            ((g >> 1) & NOT_K)) &
           BOARD;
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
    int r = fetlar_routes(s);
    if (r >= 2 || (r == 1 && !route_blockable(s)))
        return fetlar_has_move(s) ? -2 : 0;
    return 0;
}

/* ---- move helpers for the search ---------------------------------------------- */

int fetlar_gen_tactical(const struct fetlar_state *s, gmove *out, int max)
{
    /* Arrival squares that may capture: beside an enemy soldier with a
     * square hostile to it behind, or beside the king (attackers).  Only
     * moves to these are checked exactly (the mover may be the pincer). */
    uint8_t hot[FETLAR_SQ];
    int side = s->side;
    memset(hot, 0, sizeof hot);
    for (int n = 0; n < FETLAR_SQ; n++) {
        int q = s->board[n];
        if (!q || fetlar_side_of(q) == side)
            continue;
        for (int d = 0; d < 4; d++) {
            int to = fetlar_nb[n][d], f = fetlar_nb[n][d ^ 1];
            if (to >= 0 && !s->board[to] &&
                (q == FETLAR_KING || (f >= 0 && fetlar_hostile(s, f, side))))
                hot[to] = 1;
        }
    }
    gmove mv[FETLAR_MAX_MOVES];
    int n = fetlar_gen(s, mv, 512), k = 0;
    for (int i = 0; i < n && k < max; i++) {
        int to = FETLAR_TO(mv[i]);
        if ((FETLAR_FROM(mv[i]) == s->king && fetlar_is_corner(to)) ||
            (hot[to] && fetlar_captures(s, mv[i])))
            out[k++] = mv[i];
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

/* ---- the static evaluation ----------------------------------------------------- */

int fetlar_evaluate(const struct fetlar_state *s, struct fetlar_terms *t)
{
    struct fetlar_terms z;
    if (!t)
        t = &z;
    memset(t, 0, sizeof *t);
    int stm = s->side == FETLAR_WHITE ? 1 : -1;
    t->material = W_DEF * s->ndef - W_ATT * s->natt;
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

    /* King distance in moves to each corner. */
    bb_t seen = king, front = king;
    int reach2 = 0;
    for (int d = 1; d <= 4 && front; d++) {
        bb_t nxt = slide_all(front, empty) & ~seen;
        int corners = popcnt(nxt & CORNERS);
        if (d == 1)
            t->king_free = W_KING_FREE * popcnt(nxt);
        t->corner_dist += corners * (d == 2 ? W_DIST2 : d == 3 ? W_DIST3
                                                : d == 4 ? W_DIST4 : 0);
        seen |= nxt;
        front = nxt;
        if (d == 2)
            reach2 = popcnt(seen) - 1;
    }
    if (fetlar_routes(s))
        t->king_routes = W_ROUTE_FORCED; /* black to move, one route */
    else if (s->side == FETLAR_BLACK) {
        /* The king threatens to fork: one threat can often be parried,
         * two on different squares rarely. */
        int forks = king_forks(s);
        t->king_routes = forks >= 2 ? W_FORK2 : forks ? W_FORK1 : 0;
    }

    /* The king's region through everything but attackers. */
    bb_t pass = BOARD & ~att, region = king;
    for (;;) {
        bb_t grow = (region | neighbours(region)) & pass;
        if (grow == region)
            break;
        region = grow;
    }
    int open = popcnt(region & CORNERS), size = popcnt(region);
    if (open) {
        t->cordon = W_OPEN_CORNER * open +
                    W_REGION * (size < W_REGION_CAP ? size : W_REGION_CAP);
    } else {
        /* Inside a closed cordon every square counts: tightening it, taking
         * the king's moves and closing in on him is the attackers'
         * progress. */
        bb_t near = neighbours(king);
        near |= neighbours(near);
        near |= ((near << 1) & NOT_A) | ((near >> 1) & NOT_K);
        t->cordon = -W_CORDON + W_REGION_CLOSED * size -
                    W_NEAR * popcnt(near & att);
        t->king_free += W_KING_FREE_CLOSED * t->king_free / W_KING_FREE +
                        W_REACH2_CLOSED * reach2;
    }

    /* Corner guards. */
    t->guards = -W_GUARD * popcnt(att & GUARDS);
    for (int c = 0; c < 4; c++)
        if ((att & GUARD_PAIR[c][0]) && (att & GUARD_PAIR[c][1]))
            t->guards -= W_GUARD_PAIR;

    /* Attackers beside the king (the empty throne helps them). */
    bb_t around = neighbours(king);
    int press = popcnt(around & att) + ((around & bit(FETLAR_THRONE)) ? 1 : 0);
    if (fetlar_on_edge(s->king))
        press = press > 2 ? 2 : press;
    t->pressure = -W_PRESS[press > 4 ? 4 : press];

    int white = W_BALANCE + t->material + t->king_routes + t->corner_dist +
                t->guards + t->king_free + t->cordon + t->pressure;
    /* The 100-ply rule: past QUIET_FADE quiet plies the score fades toward
     * the draw it is heading for, so the side ahead looks for a capture
     * (which resets the counter) instead of shuffling.  Not for attackers
     * ahead of a lone king: nothing is left to capture but him, and the
     * fade would flatten the shut-in terms that lead them to him. */
    if (s->quiet > QUIET_FADE && (s->ndef > 0 || white > 0))
        white = white * (FETLAR_DRAW_PLIES - s->quiet) /
                (FETLAR_DRAW_PLIES - QUIET_FADE);
    return stm * white + W_TEMPO;
}
