/* xbgame.c - the games medan-xboard shows, and the translation of positions
 * and moves between MEP and CECP (xbgame.h). */
#include "xbgame.h"

#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"

/* XBoard's pieceToCharTable has 22 piece types a side (Pawn .. King in
 * XBoard's order, the King last); only the Man (Commoner, index 10) and the
 * King are used: LOA's discs and the tafl soldiers are all Men. */
#define TABLE_MAN_KING "..........MK..........mk"
/* The tafl king is XBoard's Queen, not its King: XBoard 4.9.1 applies the
 * chess King's own move handling to a King and then keeps the victim of a
 * king's capture on its board. */
#define TABLE_TAFL "....Q.....MK....q.....mk"

static const struct xb_game games[] = {
    {.name = "loa", .n = 8, .rank1_first = 0, .clock_field = 0,
     .mep_pieces = "bw", .xb_pieces = "Mm", .table = TABLE_MAN_KING,
     .seat = {"Black wins", "White wins"}, .victims_apart = 0},
    {.name = "fetlar", .n = 11, .rank1_first = 1, .clock_field = 1,
     .mep_pieces = "tTK", .xb_pieces = "Mmq", .table = TABLE_TAFL,
     .seat = {"Attackers win", "Defenders win"}, .victims_apart = 1},
};

const struct xb_game *xb_game_find(const char *name)
{
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        if (strcmp(games[i].name, name) == 0)
            return &games[i];
    return NULL;
}

const char *xb_game_names(void)
{
    return "loa,fetlar";
}

/* The board field: ranks separated by '/', letters from `letters`, digits
 * for runs of empty squares; top_first: the first rank listed is the top
 * one.  Leading and trailing slashes are allowed. */
static int parse_board(const struct xb_game *g, const char *s, size_t len,
                       const char *letters, int top_first, char *grid,
                       char *err, size_t n)
{
    int rank = 0, file = 0;
    size_t i = 0;
    memset(grid, '.', XB_SQ);
    if (len && s[0] == '/')
        i++;
    if (len > i && s[len - 1] == '/')
        len--;
    for (; i <= len; i++) {
        char c = i < len ? s[i] : '/';
        if (c == '/') {
            if (file != g->n)
                return set_err(err, n, -1, "rank %d has %d squares, not %d",
                               rank + 1, file, g->n);
            if (++rank > g->n)
                break;
            file = 0;
        } else if (isdigit((unsigned char)c)) {
            int k = 0;
            while (i < len && isdigit((unsigned char)s[i]) && k <= g->n)
                k = k * 10 + (s[i++] - '0');
            i--;
            if (k < 1 || file + k > g->n)
                return set_err(err, n, -1, "a run of %d empty squares does not fit", k);
            file += k;
        } else {
            const char *p = strchr(letters, c);
            if (!p || !c || file >= g->n || rank >= g->n)
                return set_err(err, n, -1, "'%c' is not a piece of %s here", c, g->name);
            int r = top_first ? g->n - 1 - rank : rank;
            grid[r * g->n + file++] = g->mep_pieces[p - letters];
        }
    }
    if (rank != g->n)
        return set_err(err, n, -1, "%d ranks, not %d", rank, g->n);
    return 0;
}

int xb_pos_from_mep(const struct xb_game *g, const char *fen, struct xb_pos *p,
                    char *err, size_t n)
{
    char buf[XB_FEN_MAX], *tok[4];
    snprintf(buf, sizeof buf, "%s", fen);
    int k = str_split(buf, tok, 4);
    if (k < 2)
        return set_err(err, n, -1, "no side to move");
    if (parse_board(g, tok[0], strlen(tok[0]), g->mep_pieces, !g->rank1_first,
                    p->grid, err, n) != 0)
        return -1;
    if (strcmp(tok[1], "b") != 0 && strcmp(tok[1], "w") != 0)
        return set_err(err, n, -1, "side to move '%s'", tok[1]);
    p->first_to_move = tok[1][0] == 'b';
    p->quiet = k > 2 ? atoi(tok[2]) : 0;
    return 0;
}

int xb_pos_from_xb(const struct xb_game *g, const char *fen, struct xb_pos *p,
                   char *err, size_t n)
{
    char buf[XB_FEN_MAX], *tok[8];
    snprintf(buf, sizeof buf, "%s", fen);
    int k = str_split(buf, tok, 8);
    if (k < 1)
        return set_err(err, n, -1, "an empty position");
    if (parse_board(g, tok[0], strlen(tok[0]), g->xb_pieces, 1, p->grid, err, n) != 0)
        return -1;
    p->first_to_move = 1;
    if (k > 1) {
        if (strcmp(tok[1], "w") != 0 && strcmp(tok[1], "b") != 0)
            return set_err(err, n, -1, "side to move '%s'", tok[1]);
        p->first_to_move = tok[1][0] == 'w';
    }
    /* the half-move clock is the 5th field when there are 6 */
    int64_t q = 0;
    if (k >= 5 && g->clock_field && parse_i64(tok[4], 0, 1000000, &q) != 0)
        return set_err(err, n, -1, "half-move clock '%s'", tok[4]);
    p->quiet = (int)q;
    return 0;
}

static void write_board(const struct xb_game *g, const struct xb_pos *p,
                        const char *letters, int top_first, char *out, size_t n,
                        size_t *len)
{
    for (int i = 0; i < g->n; i++) {
        int r = top_first ? g->n - 1 - i : i, run = 0;
        if (i)
            buf_printf(out, n, len, "/");
        for (int f = 0; f < g->n; f++) {
            char c = p->grid[r * g->n + f];
            const char *q = c == '.' ? NULL : strchr(g->mep_pieces, c);
            if (!q) {
                run++;
                continue;
            }
            if (run)
                buf_printf(out, n, len, "%d", run);
            run = 0;
            buf_printf(out, n, len, "%c", letters[q - g->mep_pieces]);
        }
        if (run)
            buf_printf(out, n, len, "%d", run);
    }
}

void xb_pos_to_mep(const struct xb_game *g, const struct xb_pos *p, char *out,
                   size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    write_board(g, p, g->mep_pieces, !g->rank1_first, out, n, &len);
    buf_printf(out, n, &len, " %c", p->first_to_move ? 'b' : 'w');
    if (g->clock_field)
        buf_printf(out, n, &len, " %d", p->quiet > 100 ? 100 : p->quiet);
}

void xb_pos_to_xb(const struct xb_game *g, const struct xb_pos *p, char *out,
                  size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    write_board(g, p, g->xb_pieces, 1, out, n, &len);
    buf_printf(out, n, &len, " %c - - %d 1", p->first_to_move ? 'w' : 'b',
               p->quiet);
}

int xb_square(const struct xb_game *g, const char *s, int *len)
{
    if (s[0] < 'a' || s[0] >= 'a' + g->n || !isdigit((unsigned char)s[1]))
        return -1;
    int r = s[1] - '0', k = 2;
    if (isdigit((unsigned char)s[2]))
        r = r * 10 + (s[2] - '0'), k = 3;
    if (r < 1 || r > g->n)
        return -1;
    if (len)
        *len = k;
    return (r - 1) * g->n + (s[0] - 'a');
}

void xb_square_name(const struct xb_game *g, int sq, char *out, size_t n)
{
    snprintf(out, n, "%c%d", (char)('a' + sq % g->n), (sq / g->n) % 100 + 1);
}

int xb_move_parse(const struct xb_game *g, const char *mv, int *from, int *to,
                  int mid[2])
{
    int sq[8], k = 0, nmid = 0;
    const char *s = mv;
    while (*s) {
        int len;
        int q = xb_square(g, s, &len);
        if (q < 0 || k == 8)
            return -1;
        if (!k || sq[k - 1] != q)
            sq[k++] = q;
        s += len;
        if (*s == ',' || *s == '-' || *s == 'x') {
            s++;
            if (!*s)
                return -1;
        }
    }
    if (k < 2)
        return -1;
    *from = sq[0];
    *to = sq[k - 1];
    for (int i = 1; i < k - 1; i++) {
        if (sq[i] == *from || sq[i] == *to)
            continue;
        if (nmid == 2)
            return -1;
        mid[nmid++] = sq[i];
    }
    return *from == *to ? -1 : nmid;
}

int xb_mep_squares(const struct xb_game *g, const char *tok, int *from, int *to)
{
    int len;
    *from = xb_square(g, tok, &len);
    if (*from < 0)
        return -1;
    tok += len;
    if (*tok == '-' || *tok == 'x')
        tok++;
    *to = xb_square(g, tok, &len);
    return *to < 0 || tok[len] ? -1 : 0;
}

int xb_victims(const struct xb_game *g, const struct xb_pos *before,
               const struct xb_pos *after, int from, int to, int *vict, int max)
{
    char mover = before->grid[from];
    int k = 0;
    for (int i = 0; i < g->n * g->n; i++) {
        char c = before->grid[i];
        if (i == from || i == to || c == '.' || after->grid[i] != '.')
            continue;
        /* a piece of the other side: not the mover's letter, nor (tafl)
         * the mover's king or soldiers */
        int mover_first = strchr(g->mep_pieces, mover) - g->mep_pieces == 0;
        int c_first = strchr(g->mep_pieces, c) - g->mep_pieces == 0;
        if (mover_first == c_first)
            continue;
        if (k < max)
            vict[k] = i;
        k++;
    }
    return k;
}

void xb_move_format(const struct xb_game *g, int from, int to, const int *vict,
                    int nvict, char *out, size_t n)
{
    char a[16], b[16], v1[16], v2[16];
    xb_square_name(g, from, a, sizeof a);
    xb_square_name(g, to, b, sizeof b);
    if (nvict <= 0) {
        snprintf(out, n, "%s%s", a, b);
        return;
    }
    xb_square_name(g, vict[0], v1, sizeof v1);
    if (nvict == 1) { /* the two legs: XBoard takes the victim from the
                         * first leg's to-square */
        snprintf(out, n, "%s%s,%s%s", a, v1, v1, b);
        return;
    }
    xb_square_name(g, vict[1], v2, sizeof v2);
    snprintf(out, n, "%s%sx%s-%s", a, v1, v2, b);
}
