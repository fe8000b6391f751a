/* fetlar_setup.h - the Fetlar unit tests' shared helper (test_fetlar.c,
 * test_fetlar_eval.c): a position from a piece list.  Include after
 * cmocka.h and engines/fetlar/fetlar.h. */
#ifndef MEDAN_TEST_FETLAR_SETUP_H
#define MEDAN_TEST_FETLAR_SETUP_H

#include <stdio.h>
#include <string.h>

#include "core/util.h"

/* Build a position from a list like "Kf6 te5 Td4" (K king, t attacker,
 * T defender), side 'b' or 'w', plies since capture. */
static void setup(struct fetlar_state *s, const char *pieces, char side,
                  int quiet)
{
    char grid[11][11];
    memset(grid, 0, sizeof grid);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", pieces);
    char *tok[64];
    int n = str_split(buf, tok, 64);
    for (int i = 0; i < n; i++) {
        char p = tok[i][0];
        int c = tok[i][1] - 'a', r = 0;
        sscanf(tok[i] + 2, "%d", &r);
        assert_true(c >= 0 && c < 11 && r >= 1 && r <= 11);
        grid[r - 1][c] = p;
    }
    char fen[512];
    size_t len = 0;
    buf_printf(fen, sizeof fen, &len, "/");
    for (int r = 0; r < 11; r++) {
        int run = 0;
        for (int c = 0; c < 11; c++) {
            if (!grid[r][c]) {
                run++;
                continue;
            }
            if (run)
                buf_printf(fen, sizeof fen, &len, "%d", run);
            run = 0;
            buf_printf(fen, sizeof fen, &len, "%c", grid[r][c]);
        }
        if (run)
            buf_printf(fen, sizeof fen, &len, "%d", run);
        buf_printf(fen, sizeof fen, &len, "/");
    }
    buf_printf(fen, sizeof fen, &len, " %c %d", side, quiet);
    char err[GAME_ERR_LEN];
    int rc = fetlar_game.parse_pos(s, NULL, fen, err, sizeof err);
    if (rc)
        fprintf(stderr, "setup %s: %s\n", fen, err);
    assert_int_equal(rc, GAME_OK);
}

#endif
