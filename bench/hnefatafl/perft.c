/* perft.c - hnef-perft: bulk perft of libhnefatafl's own move generator and
 * capture code from the start position, to compare with `medan-fetlar perft`
 * (docs/games/fetlar.md, "libhnefatafl").  Built only by `make hnef
 * HNEF_DIR=...`; links the library, contains none of it.
 *
 * A node generates the moves of the side to move the way libhnefatafl's
 * search does (destination layers, then the moves; the king through
 * moves_to_king_impl), plays each with apply_*_move_m and apply_captures_z_*
 * (its captures, shieldwalls included, and the zobrist update they come
 * with), and at the last ply only counts the moves
 * (black_moves_count / white_moves_count + king_moves_count: popcounts of
 * the destination layers).  A position whose game is over (king captured,
 * king on a corner) has no moves, as in Medan's perft. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <board.h>
#include <capture.h>
#include <layer.h>
#include <move.h>
#include <types.h>
#include <victory.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Up to 4 x 121 slides; libhnefatafl's own buffers are 335/400. */
#define HP_MAX 512

static uint64_t perft_white(const board *b, int depth);

static inline int next_to(int a, int b)
{
    int d = a > b ? a - b : b - a;
    return d == 11 || (d == 1 && a / 11 == b / 11);
}

static uint64_t perft_black(const board *b, int depth)
{
    if (depth == 1)
        return (uint64_t)black_moves_count(b);
    move_layers ml = generate_black_move_layers(b);
    move ms[HP_MAX];
    layer ls[HP_MAX], ls_r[HP_MAX];
    int n = 0;
    /* The xor layers moves_from_layers writes are not the moves' (playing
     * them gives perft 3 = 803 760): the moves are played by squares. */
    moves_from_layers(&ml, b->black, b->black_r, ms, ls, ls_r, &n);
    int king = LOWEST_INDEX(b->king);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        board nb = apply_black_move_m(*b, ms[i].orig, ms[i].dest);
        u64 z = 0;
        apply_captures_z_black(&nb, &z, ms[i].dest);
        if (next_to(ms[i].dest, king) && king_captured(&nb))
            continue; /* game over: no moves below */
        total += perft_white(&nb, depth - 1);
    }
    return total;
}

static uint64_t perft_white(const board *b, int depth)
{
    if (depth == 1)
        return (uint64_t)(white_moves_count(b) + king_moves_count(b));
    move_layers ml = generate_white_move_layers(b);
    move ms[HP_MAX];
    layer ls[HP_MAX], ls_r[HP_MAX];
    int n = 0;
    moves_from_layers(&ml, b->white, b->white_r, ms, ls, ls_r, &n);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        board nb = apply_white_move_m(*b, ms[i].orig, ms[i].dest);
        u64 z = 0;
        apply_captures_z_white(&nb, &z, ms[i].dest);
        total += perft_black(&nb, depth - 1);
    }
    n = 0;
    moves_to_king_impl(king_destinations(*b), king_destinations_r(*b), b->king, b->king_r,
                       king_board_occ(*b), king_board_occ_r(*b), ms, ls, ls_r, &n);
    for (int i = 0; i < n; i++) {
        board nb = apply_king_move_m(*b, ms[i].orig, ms[i].dest);
        u64 z = 0;
        apply_captures_z_king(&nb, &z, ms[i].dest);
        if (king_escaped(&nb))
            continue;
        total += perft_black(&nb, depth - 1);
    }
    return total;
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 0;
    if (argc != 2 || depth < 1 || depth > 8) {
        fprintf(stderr, "usage: hnef-perft DEPTH   (1..8; bulk perft from the start)\n");
        return 2;
    }
    board b = start_board;
    double t0 = now_s();
    uint64_t n = perft_black(&b, depth);
    double t = now_s() - t0;
    printf("perft %d %llu time %.0f ms nps %.0f\n", depth, (unsigned long long)n, t * 1e3,
           t > 0 ? (double)n / t : 0.0);
    return 0;
}
