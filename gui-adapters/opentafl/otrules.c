/* otrules.c - OpenTafl rules and position records (see otrules.h and
 * OpenTafl's opentafl-notation-spec.txt). */
#include "otrules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../../core/util.h"

int ot_board_expand(const char *rec, char *grid, char *err, size_t n)
{
    const char *p = rec;
    int pieces = 0;
    if (*p == '/')
        p++;
    for (int r = 0; r < OT_N; r++) {
        int c = 0;
        while (*p && *p != '/') {
            if (isdigit((unsigned char)*p)) {
                int v = 0;
                while (isdigit((unsigned char)*p) && v <= OT_N)
                    v = v * 10 + (*p++ - '0');
                if (v == 0 || c + v > OT_N)
                    return set_err(err, n, -1, "bad run in rank %d", r + 1);
                while (v--)
                    grid[r * OT_N + c++] = ' ';
                continue;
            }
            if (!strchr("tTK", *p))
                return set_err(err, n, -1,
                               "piece '%c' is not in Fetlar (only t T K)", *p);
            if (c >= OT_N)
                return set_err(err, n, -1, "rank %d is longer than %d", r + 1,
                               OT_N);
            grid[r * OT_N + c++] = *p++;
            pieces++;
        }
        if (c != OT_N)
            return set_err(err, n, -1, "rank %d has %d squares, not %d",
                           r + 1, c, OT_N);
        if (*p == '/')
            p++;
        else if (r < OT_N - 1)
            return set_err(err, n, -1, "the position has fewer than %d ranks",
                           OT_N);
    }
    if (*p)
        return set_err(err, n, -1, "the position has more than %d ranks", OT_N);
    return pieces;
}

void ot_board_compact(const char *grid, char *out, size_t n)
{
    size_t len = 0;
    buf_printf(out, n, &len, "/");
    for (int r = 0; r < OT_N; r++) {
        int run = 0;
        for (int c = 0; c < OT_N; c++) {
            char p = grid[r * OT_N + c];
            if (p == ' ') {
                run++;
                continue;
            }
            if (run)
                buf_printf(out, n, &len, "%d", run);
            run = 0;
            buf_printf(out, n, &len, "%c", p);
        }
        if (run)
            buf_printf(out, n, &len, "%d", run);
        buf_printf(out, n, &len, "/");
    }
}

void ot_rules_fetlar(const char *board, int attackers_first, char *out, size_t n)
{
    snprintf(out, n, "dim:11 name:Fetlar esc:c surf:n atkf:%c tfr:d ks:s ka:y start:%s",
             attackers_first ? 'y' : 'n', board);
}

static int is_taflman(char c) { return c && strchr("gmknctGMKNCT", c) != NULL; }

/* A space "e5" / "k11" on the 11x11 board: its length, or 0. */
static int space(const char *p, int *file, int *rank)
{
    if (*p < 'a' || *p > 'a' + OT_N - 1 || !isdigit((unsigned char)p[1]) || p[1] == '0')
        return 0;
    int r = p[1] - '0', len = 2;
    if (isdigit((unsigned char)p[2])) {
        r = r * 10 + (p[2] - '0');
        len = 3;
    }
    if (r > OT_N)
        return 0;
    *file = *p - 'a';
    *rank = r;
    return len;
}

int ot_move_simple(const char *rec, char *out, size_t n, char *err, size_t en)
{
    const char *p = rec;
    int f1, r1, f2, r2, k;
    if (n)
        out[0] = '\0';
    if (strcmp(rec, "---") == 0)
        return set_err(err, en, -1, "a resignation (---)");
    if (is_taflman(*p) && !isdigit((unsigned char)p[1]))
        p++;
    if (!(k = space(p, &f1, &r1)))
        return set_err(err, en, -1, "'%.40s' does not start with a square", rec);
    p += k;
    if (*p == '^' || *p == '=')
        return set_err(err, en, -1, "'%.40s' is a jump or berserk move", rec);
    if (*p++ != '-')
        return set_err(err, en, -1, "'%.40s': expected '-' after the square", rec);
    if (!(k = space(p, &f2, &r2)))
        return set_err(err, en, -1, "'%.40s': no destination square", rec);
    p += k;
    if (*p == 'x') {
        do {
            int fc, rc;
            p++;
            if (is_taflman(*p) && !isdigit((unsigned char)p[1]))
                p++;
            if (!(k = space(p, &fc, &rc)))
                return set_err(err, en, -1, "'%.40s': bad capture record", rec);
            p += k;
        } while (*p == '/');
    }
    if (*p && strcmp(p, "+") && strcmp(p, "-") && strcmp(p, "++") && strcmp(p, "--"))
        return set_err(err, en, -1, "'%.40s': unexpected '%.10s' at the end", rec, p);
    snprintf(out, n, "%c%d-%c%d", 'a' + f1, r1, 'a' + f2, r2);
    return 0;
}

/* A piece-type list compared on the pieces Fetlar has (t, T, K). */
static int same_types(const char *val, const char *def)
{
    for (const char *p = "tTK"; *p; p++)
        if (!strchr(val, *p) != !strchr(def, *p))
            return 0;
    return 1;
}

/* A space list naming exactly the four corners (or the centre). */
static int same_spaces(const char *val, const char *want)
{
    if (strcmp(val, "default") == 0)
        return 1;
    char a[128], b[128], *ta[16], *tb[16];
    snprintf(a, sizeof a, "%s", val);
    snprintf(b, sizeof b, "%s", want);
    for (char *q = a; *q; q++)
        if (*q == ',')
            *q = ' ';
    for (char *q = b; *q; q++)
        if (*q == ',')
            *q = ' ';
    int na = str_split(a, ta, 16), nb = str_split(b, tb, 16);
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb; j++)
            found |= strcmp(ta[i], tb[j]) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

static const struct {
    const char *key, *def;
} type_lists[] = {
    {"corh", "tcnkmTCNKM"}, {"cenh", "tcnkm"},      {"cenhe", "tcnkmTCNKM"},
    {"corp", "K"},          {"cenp", "tcnkmTCNKM"}, {"cors", "K"},
    {"cens", "K"},          {"corre", "tcnkmTCNKM"}, {"cenre", "tcnkmTCNKM"},
};

static const struct {
    const char *key, *ok, *why;
} fixed[] = {
    {"esc", "c", "edge escape"},
    {"tfr", "d", "a threefold repetition rule other than a draw"},
    {"ka", "y", "an unarmed king"},
    {"kj", "n", "a jumping king"},
    {"sw", "n", "shieldwall captures"},
    {"efe", "n", "edge fort escapes"},
    {"linc", "n", "Linnaean captures"},
    {"ber", "n", "berserk moves"},
    {"spd", "-1", "speed limits"},
    {"afor", "", "attacker fortresses"},
    {"dfor", "", "defender fortresses"},
};

int ot_rules_parse(const char *rec, struct ot_rules *r, char *err, size_t n)
{
    char buf[4096], *tok[128];
    struct ot_rules out = {.attackers_first = 1, .surround_fatal = 1};
    snprintf(buf, sizeof buf, "%s", rec);
    int nt = str_split(buf, tok, 128), have_start = 0;
    if (nt == 0 || strncmp(tok[0], "dim:", 4) != 0)
        return set_err(err, n, -1, "rules record must start with dim:");
    if (strcmp(tok[0], "dim:11") != 0)
        return set_err(err, n, -1,
                       "Medan plays Fetlar on 11x11 only, not %s", tok[0]);
    for (int i = 1; i < nt; i++) {
        char *v = strchr(tok[i], ':');
        if (!v)
            return set_err(err, n, -1, "bad rules entry '%s'", tok[i]);
        *v++ = '\0';
        const char *k = tok[i];
        if (strcmp(k, "start") == 0 || strcmp(k, "starti") == 0) {
            char grid[OT_SQ], flip[OT_SQ];
            if (ot_board_expand(v, grid, err, n) < 0)
                return -1;
            if (strcmp(k, "starti") == 0) {
                for (int row = 0; row < OT_N; row++)
                    memcpy(flip + row * OT_N, grid + (OT_N - 1 - row) * OT_N,
                           OT_N);
                memcpy(grid, flip, sizeof grid);
            }
            ot_board_compact(grid, out.start, sizeof out.start);
            have_start = 1;
        } else if (strcmp(k, "atkf") == 0 || strcmp(k, "surf") == 0) {
            if (strcmp(v, "y") && strcmp(v, "n"))
                return set_err(err, n, -1, "bad %s:%s", k, v);
            if (k[0] == 'a')
                out.attackers_first = v[0] == 'y';
            else
                out.surround_fatal = v[0] == 'y';
        } else if (strcmp(k, "ks") == 0) {
            if (strcmp(v, "s") && strcmp(v, "y"))
                return set_err(err, n, -1,
                               "Medan's Fetlar needs a strong king (ks:s), "
                               "not ks:%s", v);
        } else if (strcmp(k, "cor") == 0) {
            if (!same_spaces(v, "a1,k1,a11,k11"))
                return set_err(err, n, -1, "Medan's Fetlar needs the four "
                                           "board corners as corners");
        } else if (strcmp(k, "cen") == 0) {
            if (!same_spaces(v, "f6"))
                return set_err(err, n, -1,
                               "Medan's Fetlar needs f6 as the throne");
        } else {
            int known = 0;
            for (size_t j = 0; j < ARRAY_LEN(fixed); j++)
                if (strcmp(k, fixed[j].key) == 0) {
                    known = 1;
                    if (strcmp(v, fixed[j].ok) != 0)
                        return set_err(err, n, -1,
                                       "Medan's Fetlar does not play %s "
                                       "(%s:%s)", fixed[j].why, k, v);
                }
            for (size_t j = 0; j < ARRAY_LEN(type_lists); j++)
                if (strcmp(k, type_lists[j].key) == 0) {
                    known = 1;
                    if (!same_types(v, type_lists[j].def))
                        return set_err(err, n, -1,
                                       "Medan's Fetlar cannot play %s:%s "
                                       "(Fetlar has %s:%s)", k, v, k,
                                       type_lists[j].def);
                }
            (void)known; /* other entries (name, nj, cj, ...) do not matter */
        }
    }
    if (!have_start)
        return set_err(err, n, -1, "rules record without start position");
    *r = out;
    return 0;
}
