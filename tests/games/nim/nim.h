/* nim.h - Nim, the toy fifth game (kept in tests/): the rules' state, move
 * encoding and bounds.  Heaps of stones; a move takes 1 or more stones from
 * one heap; who takes the last stone wins (normal play).  It exists to show
 * and test how a game is added (docs/architecture.md, "Adding a game"). */
#ifndef MEDAN_NIM_H
#define MEDAN_NIM_H

#include <stdint.h>

#include "../../../core/game.h"

#define NIM_MAX_HEAPS 8 /* heaps a..h */
#define NIM_MAX_HEAP 20 /* stones in one heap */
/* A move per stone on the board (take k of heap i, 1 <= k <= heap i). */
#define NIM_MAX_MOVES (NIM_MAX_HEAPS * NIM_MAX_HEAP)

struct nim_config {
    uint8_t nheaps;
    uint8_t heap[NIM_MAX_HEAPS];
};

struct nim_state {
    uint8_t nheaps;
    uint8_t side; /* 0: seat 1 to move, 1: seat 2 */
    uint8_t heap[NIM_MAX_HEAPS];
};

/* move = heap index | stones taken << 4 */
#define NIM_HEAP(m) ((int)((m)&15))
#define NIM_TAKE(m) ((int)((m) >> 4 & 63))
#define NIM_MOVE(i, k) ((gmove)((unsigned)(i) | (unsigned)(k) << 4))

/* The nim-sum (xor of the heaps): 0 means the side to move loses. */
int nim_sum(const struct nim_state *s);

#endif
