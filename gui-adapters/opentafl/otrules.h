/* otrules.h - OpenTafl notation for the adapter: rules records (which of
 * them Medan's Fetlar can play) and position records. */
#ifndef MEDAN_OPENTAFL_OTRULES_H
#define MEDAN_OPENTAFL_OTRULES_H

#include <stddef.h>

#define OT_N 11
#define OT_SQ (OT_N * OT_N)
#define OT_REC 512

struct ot_rules {
    int attackers_first;
    int surround_fatal;   /* surf:y - OpenTafl's encirclement win */
    char start[OT_REC];   /* position record, rank 1 first */
};

/* Parse an OTN rules record; refuse what Medan cannot play (with why). */
int ot_rules_parse(const char *rec, struct ot_rules *r, char *err, size_t n);
/* Position record -> grid[121] of ' ' 't' 'T' 'K' (rank 1 first).  Returns
 * the number of pieces, or -1 (with why) for a record Medan cannot use. */
int ot_board_expand(const char *rec, char *grid, char *err, size_t n);
void ot_board_compact(const char *grid, char *out, size_t n);

/* The rules record of Medan's Fetlar (RULES.md section 2) for OpenTafl:
 * corner escape, strong armed king, no encirclement win (surf:n),
 * threefold repetition a draw, `board` (a position record) as the start,
 * atkf:y when the attackers move first. */
void ot_rules_fetlar(const char *board, int attackers_first, char *out, size_t n);

/* An OpenTafl move record (notation spec section 2: an optional taflman
 * symbol, from, '-', to, an optional capture record `xe6/Kf7`, an optional
 * info symbol + - ++ --) -> the simple move "e5-e1" in out.  0, or -1 with
 * why: not a move, a square off the 11x11 board, a jump or berserk move
 * (move types ^ = ^=, not in Fetlar), or the resignation `---`. */
int ot_move_simple(const char *rec, char *out, size_t n, char *err, size_t en);

#endif
