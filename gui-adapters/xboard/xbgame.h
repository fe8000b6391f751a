/* xbgame.h - what medan-xboard knows of each game it can show in XBoard:
 * the board, the pieces, and the translation of position strings and moves
 * between MEP (docs/games/<game>.md) and CECP/XBoard.
 *
 * Squares have the same names on both sides (a1 is a1; XBoard writes the
 * ranks of an 11-rank board as 1..11).  XBoard's "white" is always the
 * game's first mover (seat 1): XBoard ignores the side to move of `setup`,
 * and its white moves first.  Pure functions: nothing here prints or exits.
 */
#ifndef XB_GAME_H
#define XB_GAME_H

#include <stddef.h>

#define XB_MAX_N 16
#define XB_SQ (XB_MAX_N * XB_MAX_N)
#define XB_FEN_MAX 512

struct xb_game {
    const char *name;       /* the CECP variant, and MEP's `game` */
    int n;                  /* board side */
    int rank1_first;        /* MEP's position string lists rank 1 first */
    int clock_field;        /* MEP's string has a quiet-ply counter */
    const char *mep_pieces; /* MEP letters (first mover's first) */
    const char *xb_pieces;  /* XBoard's letter for each */
    const char *table;      /* XBoard's pieceToCharTable for `setup` */
    const char *seat[2];    /* "<seat> wins", first mover first */
    int victims_apart;      /* captured pieces are not on the to-square */
};

/* A position: grid[rank * n + file] (rank 0 = rank 1) holds MEP letters or
 * '.'; first_to_move: seat 1 is to move; quiet: the counter (0 if none). */
struct xb_pos {
    char grid[XB_SQ];
    int first_to_move;
    int quiet;
};

/* The game of that name (CECP variant or MEP game), or NULL. */
const struct xb_game *xb_game_find(const char *name);
/* Every game's name, comma-separated. */
const char *xb_game_names(void);

/* Parse an MEP position string.  0, or -1 with err. */
int xb_pos_from_mep(const struct xb_game *g, const char *fen, struct xb_pos *p,
                    char *err, size_t n);
/* Parse the board and side fields of an XBoard FEN.  0, or -1 with err. */
int xb_pos_from_xb(const struct xb_game *g, const char *fen, struct xb_pos *p,
                   char *err, size_t n);
void xb_pos_to_mep(const struct xb_game *g, const struct xb_pos *p, char *out,
                   size_t n);
void xb_pos_to_xb(const struct xb_game *g, const struct xb_pos *p, char *out,
                  size_t n);

/* Square "e4" / "f10" -> index (rank * n + file); *len the characters
 * read.  -1 when it is not a square of this board. */
int xb_square(const struct xb_game *g, const char *s, int *len);
void xb_square_name(const struct xb_game *g, int sq, char *out, size_t n);

/* A CECP move, one or several legs ("e1e4", "d6e4,e4d4", "d6e4-d4",
 * "f5g3xe3-f3"): its from and to squares and the squares passed between
 * them (the victims XBoard removes).  Returns the number of those (0..2),
 * or -1 when it is not a move of this board. */
int xb_move_parse(const struct xb_game *g, const char *mv, int *from, int *to,
                  int mid[2]);
/* An MEP move token ("b1-b3", "b1xd3", "e1-e4") -> from and to.  0 or -1. */
int xb_mep_squares(const struct xb_game *g, const char *tok, int *from,
                   int *to);
/* The pieces a move from `from` removed, besides any on its to-square:
 * squares held by the other side before and empty after.  Up to max in
 * vict, returns how many there are (may be more than max). */
int xb_victims(const struct xb_game *g, const struct xb_pos *before,
               const struct xb_pos *after, int from, int to, int *vict,
               int max);
/* The CECP form of a move with its victims: "e1e4", or XBoard's multi-leg
 * "d6e4,e4d4" (one victim: two legs) or "f5g3xe3-f3" (two; the most
 * XBoard 4.9.1 can show: further victims are left out). */
void xb_move_format(const struct xb_game *g, int from, int to, const int *vict,
                    int nvict, char *out, size_t n);

#endif
