/* game.h - the one game interface every rules module implements.
 *
 * The protocol layer, the search code and the referee drive a game only
 * through a `struct game`.  A game keeps its whole position in a fixed-size
 * struct of `state_size` bytes (copied with memcpy, no pointers inside), and
 * encodes a move or action in a 64-bit `gmove`.
 *
 * Rules code never prints and never exits: every function returns an error
 * code and writes a message into a caller buffer where input can be bad.
 * Seats are numbered 1..N in turn order (seat 1 moves first).
 */
#ifndef MEDAN_GAME_H
#define MEDAN_GAME_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t gmove;

#define GAME_MAX_SEATS 6
#define GAME_MOVE_NONE ((gmove)UINT64_MAX) /* never a legal move */
#define GAME_PASS_TOKEN "pass"             /* reserved move token */
#define GAME_ERR_LEN 160                   /* size of error buffers */
#define GAME_MAX_CONFIG 256                /* max config_size */
#define GAME_MAX_STATE 8192                /* max state_size */
#define GAME_MAX_MOVES (1 << 20)           /* max max_moves */

/* A buffer for any game's state or config, aligned for any struct a game
 * keeps there (pass `.b`, or the union's address). */
typedef union {
    max_align_t align;
    unsigned char b[GAME_MAX_STATE];
} game_state_buf;
typedef union {
    max_align_t align;
    unsigned char b[GAME_MAX_CONFIG];
} game_config_buf;

/* Hidden information (a game with `view`): the config keys such a game
 * must accept, so that a referee deals every engine the same cards (seed)
 * and tells each engine its seat.  Checked by game_check. */
#define GAME_KEY_SEED "seed"
#define GAME_KEY_SEAT "seat"

/* How a position stands. over==0: the game goes on (other fields unset). */
struct game_result {
    int over;
    int nseats;
    int rank[GAME_MAX_SEATS];     /* 1 = best; tied seats share a rank */
    double score[GAME_MAX_SEATS]; /* game-defined: captures, chips, ... */
    const char *reason;           /* static token: "connected", "repetition" */
};

/* Error codes, shared with MEP's error words (see mep.h). */
enum game_err {
    GAME_OK = 0,
    GAME_ESYNTAX = -1,   /* not a well-formed string */
    GAME_EVALUE = -2,    /* well-formed, value out of range */
    GAME_EILLEGAL = -3,  /* move well-formed but not legal here */
    GAME_EPOSITION = -4, /* position string describes an impossible position */
    GAME_EOVER = -5,     /* the game is over */
    GAME_ENOTSUP = -6    /* not supported by this game */
};

struct game {
    const char *name;        /* "loa", "fetlar", "palagan", "battalion" */
    const char *title;       /* "Lines of Action" */
    int min_seats, max_seats;
    size_t state_size;       /* <= GAME_MAX_STATE */
    size_t config_size;      /* <= GAME_MAX_CONFIG; 0 = no parameters */
    const char *params_help; /* "size=4..9" or "" : shown in `mep` */
    /* An upper bound on the moves gen_moves returns for any position of
     * any config (parsed or played): every move buffer is sized by it, and
     * gen_moves(st, out, max_moves) never answers -1.  1..GAME_MAX_MOVES. */
    int max_moves;
    /* The referee adjudicates a draw after this many plies unless told
     * otherwise (--maxplies); 0 = no limit (the rules end every game). */
    int default_max_plies;

    /* --- configuration (newgame key=value ...) ----------------------- */
    /* Fill cfg with the defaults. */
    void (*config_default)(void *cfg);
    /* Apply one key=value to cfg; unknown key or bad value -> error. */
    int (*config_set)(void *cfg, const char *key, const char *val,
                      char *err, size_t errlen);
    /* Optional: check the keys together, after every key is set (NULL =
     * nothing to check).  `newgame` answers its error and changes nothing. */
    int (*config_check)(const void *cfg, char *err, size_t errlen);
    /* Write "key=value ..." of cfg ("" when there is nothing to say). */
    void (*config_format)(const void *cfg, char *buf, size_t n);

    /* --- positions ---------------------------------------------------- */
    /* Start position for cfg (for chance games, deal from cfg's seed). */
    void (*start)(void *st, const void *cfg);
    /* Parse a position string; on error st is untouched. cfg may be used
     * for defaults a string omits; the string wins where both speak. */
    int (*parse_pos)(void *st, const void *cfg, const char *s, char *err,
                     size_t errlen);
    /* Canonical position string (round-trips through parse_pos). */
    void (*format_pos)(const void *st, char *buf, size_t n);
    /* Human-readable board, several lines separated by '\n'. */
    void (*show)(const void *st, char *buf, size_t n);

    /* --- moves -------------------------------------------------------- */
    /* Parse a move token and check it is legal in st. */
    int (*parse_move)(const void *st, const char *s, gmove *m, char *err,
                      size_t errlen);
    /* Canonical token of a legal move. */
    void (*format_move)(const void *st, gmove m, char *buf, size_t n);
    /* All legal moves (0 when the game is over by the rules that need no
     * history).  Returns the count, or -1 if more than max. */
    int (*gen_moves)(const void *st, gmove *out, int max);
    /* Play a legal move. */
    void (*play)(void *st, gmove m);
    /* Seat to move or act, 1..nseats. */
    int (*to_move)(const void *st);
    int (*nseats)(const void *st);
    /* Zobrist-style hash of everything that defines the position. */
    uint64_t (*hash)(const void *st);
    /* Is the game over?  hist holds the hashes of the earlier positions of
     * the game, oldest first (for repetition); may be NULL with nhist 0. */
    void (*result)(const void *st, const uint64_t *hist, int nhist,
                   struct game_result *r);

    /* --- optional members (NULL = default behaviour) ------------------ */
    /* Number of legal moves (default: gen_moves). For perft bulk counting. */
    int (*count_moves)(const void *st);
    /* Leaves two plies below st: count_moves summed over the children
     * (default: play each move and count).  For perft. */
    uint64_t (*perft2)(const void *st);
    /* Hidden information: the view of `seat` (a state that format_pos
     * writes as that seat's view string).  NULL: perfect information. */
    int (*view)(const void *full, int seat, void *out);
    /* Does the state hide something (a view, not a full state)? */
    int (*is_view)(const void *st);
};

/* Defaults for the optional members, usable by everyone. */
int game_count_moves(const struct game *g, const void *st);

/* A move buffer of g->max_moves entries (xmalloc; free it). */
gmove *game_move_buf(const struct game *g);
/* Every legal move into out (g->max_moves entries).  A game answering
 * more than its max_moves broke its contract: an internal error (abort
 * with a message), never read as "no legal move". */
int game_gen_moves(const struct game *g, const void *st, gmove *out);

/* Outcome word for two seats: "p1win" "p2win" "draw". */
const char *game_outcome2(const struct game_result *r);

/* Check a game's table (the registry's start-up check, engines/registry.h):
 * members, sizes, max_moves, and for a hidden-information game the seed/seat
 * keys; cheap, run at every start-up.  Returns 0 or -1 and writes why not. */
int game_check(const struct game *g, char *err, size_t errlen);
/* The deeper check (tests): `games` seeded random games from the start of
 * cfg (NULL: the default config); at every position gen_moves stays within
 * max_moves, count_moves agrees, the position string round-trips with the
 * same hash, and every move token parses back to its move. */
int game_check_play(const struct game *g, const void *cfg, int games, uint64_t seed,
                    char *err, size_t errlen);

#endif
