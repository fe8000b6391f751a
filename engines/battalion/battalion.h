/* battalion.h - Battalion (RULES.md section 4): state, cards, actions.
 *
 * One fixed-size struct holds either a full state (every hand, the draw
 * pile in order, the reshuffle PRNG) or the view of one seat (the hands of
 * the other seats reduced to the cards publicly known to be there, the draw
 * pile reduced to its size, no PRNG).  Seats are 0-based inside the module
 * and 1-based in every string.
 *
 * Cards: index c = suit * 13 + rank, rank 0 = A, 1 = 2, ... 9 = T, 12 = K,
 * suit 0 = c, 1 = d, 2 = h, 3 = s.  Two decks: every card exists twice.
 * A set of cards is a count per card (0..2).
 */
#ifndef BAT_RULES_H
#define BAT_RULES_H

#include <stdint.h>

#include "../../core/game.h"
#include "battalion_api.h" /* the game and engine objects */

#define BAT_NCARD 52          /* distinct cards */
#define BAT_NDECK 104         /* cards in play (two decks) */
#define BAT_HAND 10           /* hand size */
#define BAT_CHIPS 10          /* starting chips */
#define BAT_ROUNDS 3          /* collection rounds */
#define BAT_MIN_BID 4
#define BAT_MAX_ATTACKS 200   /* safety net: game over after 200 attacks */
#define BAT_NOSUIT 4
#define BAT_MIN_SEATS 3
#define BAT_MAX_SEATS 6
/* Actions: at most an attack of every non-empty set of one suit from a hand
 * of BAT_HAND + 1 cards (2^11 - 1 sets over all suits) at each of 5 targets. */
#define BAT_MAX_MOVES ((BAT_MAX_SEATS - 1) * ((1 << (BAT_HAND + 1)) - 1))

enum bat_phase {
    BAT_DRAW,    /* collection: take from deck or pile */
    BAT_DISCARD, /* collection: discard one card */
    BAT_BID,     /* bidding: one bid or pass per seat */
    BAT_ATTACK,  /* battles: the seat to act attacks */
    BAT_DEFEND   /* battles: the target defends or surrenders */
};

enum bat_kind {
    BAT_M_DRAW_DECK = 1,
    BAT_M_DRAW_PILE,
    BAT_M_DISCARD,
    BAT_M_BID,
    BAT_M_PASS,
    BAT_M_ATTACK,
    BAT_M_DEFEND,
    BAT_M_SURRENDER
};

struct bat_state {
    uint8_t nseats;
    uint8_t is_view;   /* 1: the view of seat `viewer` */
    uint8_t viewer;    /* 0-based, meaningful when is_view */
    uint8_t phase;     /* enum bat_phase */
    uint8_t act;       /* seat to act, 0-based */
    uint8_t turn;      /* collection turns done, 0..3N */
    uint8_t last_suit; /* suit of the last attack made, BAT_NOSUIT = none */
    uint8_t attacker;  /* BAT_DEFEND: the attack in progress */
    uint8_t target;
    uint8_t ndeck, npile;
    uint8_t pad_;
    uint16_t attacks;  /* attacks made so far */
    int8_t bid[BAT_MAX_SEATS];   /* -1 not yet, 0 pass, 4.. bid */
    uint8_t chips[BAT_MAX_SEATS];
    uint8_t size[BAT_MAX_SEATS]; /* hand sizes */
    /* Full: the hand.  View: what the viewer knows is there (its own hand;
     * for other seats the publicly known cards).  size - sum = unknown. */
    uint8_t hand[BAT_MAX_SEATS][BAT_NCARD];
    /* Public knowledge: at least this many of each card are in the hand
     * (taken from the discard pile and not yet played). */
    uint8_t known[BAT_MAX_SEATS][BAT_NCARD];
    /* Public record of the battles, per seat and suit: how the seat last
     * showed the suit (BAT_SHOWN_* << 4, 0 = never or long ago) and how
     * many cards it has drawn since (low 4 bits, < BAT_HAND). */
    uint8_t shown[BAT_MAX_SEATS][4];
    /* Public: card + 1 of the seat's last collection discard, kept while
     * the seat has played no card since (0 = none). */
    uint8_t discard[BAT_MAX_SEATS];
    uint8_t battle[BAT_NCARD];   /* BAT_DEFEND: attacking cards */
    uint8_t deck[BAT_NDECK];     /* full only; top = deck[ndeck - 1] */
    uint8_t pile[BAT_NDECK];     /* discard pile; top = pile[npile - 1] */
    uint64_t rng[4];             /* full only: xoshiro256** for reshuffles */
};

/* The `shown` record (an entry is kind << 4 | cards drawn since). */
enum bat_shown {
    BAT_SHOWN_PLAYED = 1,    /* played cards of the suit (attack or defence) */
    BAT_SHOWN_SURRENDER = 2, /* surrendered to an attack in the suit */
    BAT_SHOWN_SKIPPED = 3    /* skipped its attack while the suit was allowed */
};
static inline int bat_shown_kind(uint8_t e) { return e >> 4; }
static inline int bat_shown_drawn(uint8_t e) { return e & 15; }

struct bat_config {
    int players;  /* 3..6 */
    int seat;     /* the engine's seat 1..players (0 = not given) */
    uint64_t seed;
    uint64_t game;
};

/* Cards */
static inline int bat_suit(int c) { return c / 13; }
static inline int bat_rank(int c) { return c % 13; }
extern const char bat_rank_chars[14]; /* "A23456789TJQK" */
extern const char bat_suit_chars[5];  /* "cdhs" */
/* Battle points of a set of cards (twins: 2 each). */
int bat_points(const uint8_t *set);
/* Points of suit `s` in a set. */
int bat_suit_points(const uint8_t *set, int s);
int bat_best_suit_points(const uint8_t *set);
int bat_set_count(const uint8_t *set);

/* Moves: gmove layout
 *   bits 0-3 kind, 4-6 target seat (0-based), 8-9 suit,
 *   12-19 value (bid or card index), 24-49 count per rank (2 bits each). */
static inline int bat_mkind(gmove m) { return (int)(m & 15); }
static inline int bat_mtarget(gmove m) { return (int)((m >> 4) & 7); }
static inline int bat_msuit(gmove m) { return (int)((m >> 8) & 3); }
static inline int bat_mvalue(gmove m) { return (int)((m >> 12) & 255); }
static inline int bat_mcount(gmove m, int rank)
{
    return (int)((m >> (24 + 2 * rank)) & 3);
}
gmove bat_move(int kind, int target, int suit, int value);
/* Attack or defence with the cards of `set` (all of one suit). */
gmove bat_move_cards(int kind, int target, int suit, const uint8_t *set);
/* Expand a move's cards into a set (zeroed first). */
void bat_move_set(gmove m, uint8_t *set);

/* Rules */
void bat_deal(struct bat_state *st, int nseats, uint64_t seed, uint64_t game);
/* Is the game over (someone bankrupt, or the attack limit)? */
int bat_over(const struct bat_state *st);
/* Minimum points of an attack made now. */
int bat_attack_min(const struct bat_state *st);
/* Can seat s attack (holds a card of an allowed suit)?  On a view, a seat
 * with unknown cards is assumed able to. */
int bat_can_attack(const struct bat_state *st, int s);
int bat_gen(const struct bat_state *st, gmove *out, int max);
/* Legality of a well-formed move; 0 or a GAME_E* code with a reason. */
int bat_check(const struct bat_state *st, gmove m, char *err, size_t n);
void bat_play(struct bat_state *st, gmove m);
void bat_make_view(const struct bat_state *full, int seat,
                   struct bat_state *out);
uint64_t bat_hash(const struct bat_state *st);

/* Text (text.c) */
int bat_parse_card(const char *s, int *card);
int bat_parse_pos(struct bat_state *st, const char *s, char *err, size_t n);
void bat_format_pos(const struct bat_state *st, char *buf, size_t n);
void bat_show(const struct bat_state *st, char *buf, size_t n);
int bat_parse_move(const struct bat_state *st, const char *s, gmove *m,
                   char *err, size_t n);
void bat_format_move(gmove m, char *buf, size_t n);

#endif
