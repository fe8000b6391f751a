/* opening.c - openings (see opening.h). */
#include "opening.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int ref_openings_load(struct ref_openings *o, const char *path,
                      const struct game *g, const void *cfg, char *err,
                      size_t n)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    void *st;
    if (!f)
        return set_err(err, n, -1, "%s: cannot open", path);
    st = xmalloc(g->state_size);
    while (getline(&line, &cap, f) > 0) {
        char e[GAME_ERR_LEN], *s = line;
        lineno++;
        str_chomp(s);
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        if (str_prefix(s, "fen "))
            s += 4;
        if (g->parse_pos(st, cfg, s, e, sizeof e) != GAME_OK) {
            set_err(err, n, -1, "%s:%d: %s", path, lineno, e);
            free(st);
            free(line);
            fclose(f);
            return -1;
        }
        o->lines = xrealloc(o->lines, (size_t)(o->nlines + 1) * sizeof *o->lines);
        o->lines[o->nlines++] = xstrdup(s);
    }
    free(st);
    free(line);
    fclose(f);
    if (!o->nlines)
        return set_err(err, n, -1, "%s: no positions", path);
    return 0;
}

static void push_hist(uint64_t **hist, int *nhist, int *cap, uint64_t h)
{
    if (!hist)
        return;
    if (*nhist == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *hist = xrealloc(*hist, (size_t)*cap * sizeof **hist);
    }
    (*hist)[(*nhist)++] = h;
}

int ref_opening_apply(const struct game *g, const void *cfg,
                      const char *opening, void *st, uint64_t **hist,
                      int *nhist, int *histcap, char *err, size_t n)
{
    char *copy = xstrdup(opening), *moves = strstr(copy, " moves");
    char e[GAME_ERR_LEN];
    int rc = 0;
    if (moves)
        *moves = '\0';
    if (strcmp(copy, "start") == 0)
        g->start(st, cfg);
    else if (str_prefix(copy, "fen ")) {
        if (g->parse_pos(st, cfg, copy + 4, e, sizeof e) != GAME_OK) {
            rc = set_err(err, n, -1, "opening: %s", e);
            goto out;
        }
    } else {
        rc = set_err(err, n, -1, "opening: neither start nor fen: %s", copy);
        goto out;
    }
    if (moves) {
        char *tok[1024];
        int nt = str_split(moves + 6, tok, 1024);
        for (int i = 0; i < nt; i++) {
            gmove m;
            if (g->parse_move(st, tok[i], &m, e, sizeof e) != GAME_OK) {
                rc = set_err(err, n, -1, "opening move %s: %s", tok[i], e);
                goto out;
            }
            push_hist(hist, nhist, histcap, g->hash(st));
            g->play(st, m);
        }
    }
out:
    free(copy);
    return rc;
}

char *ref_opening_make(const struct ref_openings *o, const struct game *g,
                       const void *cfg, uint64_t seed, int group, char *err,
                       size_t n)
{
    struct rng r;
    rng_seed(&r, mix64(seed ^ 0x6f70656e696e67ULL, (uint64_t)group));
    if (o->nlines) {
        int k = o->random_order ? (int)rng_below(&r, (uint64_t)o->nlines)
                                : group % o->nlines;
        size_t len = strlen(o->lines[k]) + 8;
        char *s = xmalloc(len);
        snprintf(s, len, "fen %s", o->lines[k]);
        return s;
    }
    if (o->random_plies <= 0)
        return xstrdup("start");
    {
        void *st = xmalloc(g->state_size);
        gmove *mv = game_move_buf(g);
        uint64_t *hist = NULL;
        int nhist = 0, cap = 0;
        char *out = NULL;
        for (int attempt = 0; attempt < 200 && !out; attempt++) {
            size_t len = 0, size = 64 + (size_t)o->random_plies * 130;
            char *s = xmalloc(size);
            int ok = 1;
            g->start(st, cfg);
            nhist = 0;
            buf_printf(s, size, &len, "start moves");
            for (int p = 0; p < o->random_plies; p++) {
                struct game_result res;
                char tok[128];
                int nm;
                g->result(st, hist, nhist, &res);
                nm = res.over ? 0 : game_gen_moves(g, st, mv);
                if (nm <= 0) {
                    ok = 0;
                    break;
                }
                gmove m = mv[rng_below(&r, (uint64_t)nm)];
                g->format_move(st, m, tok, sizeof tok);
                buf_printf(s, size, &len, " %s", tok);
                push_hist(&hist, &nhist, &cap, g->hash(st));
                g->play(st, m);
            }
            if (ok) {
                struct game_result res;
                g->result(st, hist, nhist, &res);
                ok = !res.over;
            }
            if (ok)
                out = s;
            else
                free(s);
        }
        free(st);
        free(mv);
        free(hist);
        if (!out)
            set_err(err, n, 0, "no random opening of %d plies found",
                    o->random_plies);
        return out;
    }
}
