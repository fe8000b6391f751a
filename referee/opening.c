/* opening.c - openings (see opening.h).
 *
 * Books.  EPD-like: one position string a line, optionally followed by
 * `;`-separated fields (`S ; id "x"; c0 "y"`), which are ignored.
 * PGN-like: the referee's own records (docs/referee.md, Records) and any
 * PGN whose move tokens are the game's: tag pairs, then movetext.  The
 * root of a game is its [Opening "start|fen S [moves ..]"] tag (what the
 * referee writes), else its [FEN "S"] tag, else the start; the opening is
 * the root's moves and then the movetext's, cut to plies=.  Every opening
 * is played through the rules at load time: a bad line is refused with
 * the file and line, before any engine starts.
 */
#include "opening.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define BOOK_MAX_BYTES (64u << 20) /* a bigger file is refused */

/* ---- checking one opening ------------------------------------------ */

/* Play opening through the rules; refuse one whose game is over. */
static int check_opening(const struct game *g, const void *cfg,
                         const char *opening, char *err, size_t n)
{
    void *st = xmalloc(g->state_size);
    uint64_t *hist = NULL;
    int nhist = 0, cap = 0, rc;
    rc = ref_opening_apply(g, cfg, opening, st, &hist, &nhist, &cap, err, n);
    if (rc == 0) {
        struct game_result res;
        g->result(st, hist, nhist, &res);
        if (res.over)
            rc = set_err(err, n, -1, "the game is over there (%s)",
                         res.reason ? res.reason : "finished");
    }
    free(hist);
    free(st);
    return rc;
}

static void add_line(struct ref_openings *o, char *s)
{
    o->lines = xrealloc(o->lines, (size_t)(o->nlines + 1) * sizeof *o->lines);
    o->lines[o->nlines++] = s;
}

/* ---- EPD ------------------------------------------------------------- */

static int parse_epd(struct ref_openings *o, const char *name, char *text,
                     const struct game *g, const void *cfg, char *err,
                     size_t n)
{
    int lineno = 0;
    char *save = NULL;
    for (char *line = text; line; line = save) {
        char e[GAME_ERR_LEN + 64], *s = line, *semi;
        size_t len;
        save = strchr(line, '\n');
        if (save)
            *save++ = '\0';
        lineno++;
        if ((semi = strchr(s, ';')) != NULL)
            *semi = '\0';
        str_chomp(s);
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#') {
            if (semi && !*s)
                return set_err(err, n, -1, "%s:%d: no position before ';'",
                               name, lineno);
            continue;
        }
        if (str_prefix(s, "fen "))
            s += 4;
        while (*s == ' ')
            s++;
        if (strstr(s, " moves")) /* a position string, not a command */
            return set_err(err, n, -1,
                           "%s:%d: an EPD line is one position (moves belong "
                           "in a PGN book: format=pgn)", name, lineno);
        len = strlen(s) + 8;
        char *op = xmalloc(len);
        snprintf(op, len, "fen %s", s);
        if (check_opening(g, cfg, op, e, sizeof e) < 0) {
            free(op);
            return set_err(err, n, -1, "%s:%d: %s", name, lineno, e);
        }
        add_line(o, op);
    }
    return 0;
}

/* ---- PGN ------------------------------------------------------------- */

struct pgn_game {
    char *root;      /* "start" or "fen S", the root's own moves after it */
    int root_line;
    char **mv;       /* movetext tokens */
    int *mv_line;
    int nmv, cap;
    int first_line;  /* line of the game's first tag or token */
    int has_fen, has_opening;
};

static void game_reset(struct pgn_game *p)
{
    free(p->root);
    for (int i = 0; i < p->nmv; i++)
        free(p->mv[i]);
    free(p->mv);
    free(p->mv_line);
    memset(p, 0, sizeof *p);
}

static void game_add_move(struct pgn_game *p, const char *tok, size_t len,
                          int line)
{
    if (p->nmv == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->mv = xrealloc(p->mv, (size_t)p->cap * sizeof *p->mv);
        p->mv_line = xrealloc(p->mv_line, (size_t)p->cap * sizeof *p->mv_line);
    }
    p->mv[p->nmv] = xmalloc(len + 1);
    memcpy(p->mv[p->nmv], tok, len);
    p->mv[p->nmv][len] = '\0';
    p->mv_line[p->nmv++] = line;
}

/* A tag pair [Name "value"] at s (after '['); *end set past ']'. */
static int parse_tag(const char *s, char *name, size_t nn, char *val,
                     size_t nv, const char **end)
{
    size_t k = 0;
    while (isalnum((unsigned char)*s) || *s == '_') {
        if (k + 1 < nn)
            name[k++] = *s;
        s++;
    }
    name[k] = '\0';
    if (!k)
        return -1;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s++ != '"')
        return -1;
    k = 0;
    while (*s && *s != '"') {
        if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
            s++;
        if (k + 1 >= nv)
            return -1;
        val[k++] = *s++;
    }
    val[k] = '\0';
    if (*s++ != '"')
        return -1;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s++ != ']')
        return -1;
    *end = s;
    return 0;
}

static int is_result(const char *t, size_t len)
{
    static const char *const r[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t i = 0; i < sizeof r / sizeof *r; i++)
        if (strlen(r[i]) == len && memcmp(t, r[i], len) == 0)
            return 1;
    return 0;
}

/* A growing string. */
struct sbuf {
    char *s;
    size_t len, cap;
};

static void sbuf_cat(struct sbuf *b, const char *a, const char *c)
{
    size_t la = strlen(a), lc = strlen(c);
    if (b->len + la + lc + 1 > b->cap) {
        b->cap = 2 * b->cap + la + lc + 64;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, a, la);
    memcpy(b->s + b->len + la, c, lc);
    b->len += la + lc;
    b->s[b->len] = '\0';
}

/* The game p (finished at its result or at the next game's tags) as an
 * opening: the root, then the root's moves and the movetext's, at most
 * plies= of them; checked and added to o. */
static int finish_game(struct ref_openings *o, const char *name,
                       struct pgn_game *p, const struct game *g,
                       const void *cfg, char *err, size_t n)
{
    struct sbuf sb = {NULL, 0, 0};
    char *root = xstrdup(p->root ? p->root : "start"), *m = strstr(root, " moves");
    char *tok[REF_OPENING_MAX_PLIES + 1], e[GAME_ERR_LEN + 64];
    int nroot = 0, used = 0, idx, line;
    int limit = o->plies > 0 ? o->plies : REF_OPENING_MAX_PLIES + 1;
    if (m) {
        *m = '\0';
        nroot = str_split(m + 6, tok, REF_OPENING_MAX_PLIES + 1);
    }
    sbuf_cat(&sb, root, "");
    for (int i = 0; i < nroot && used < limit; i++, used++)
        sbuf_cat(&sb, used ? " " : " moves ", tok[i]);
    for (int i = 0; i < p->nmv && used < limit; i++, used++)
        sbuf_cat(&sb, used ? " " : " moves ", p->mv[i]);
    free(root);
    if (used > REF_OPENING_MAX_PLIES) {
        free(sb.s);
        return set_err(err, n, -1, "%s:%d: a game longer than %d plies "
                       "(plies= keeps fewer)", name, p->first_line,
                       REF_OPENING_MAX_PLIES);
    }
    if (check_opening(g, cfg, sb.s, e, sizeof e) == 0) {
        add_line(o, sb.s);
        return 0;
    }
    free(sb.s);
    /* name the line of the bad move where there is one */
    line = p->root ? p->root_line : p->first_line;
    if (sscanf(e, "opening move %*s #%d", &idx) == 1 && idx > nroot &&
        idx - nroot - 1 < p->nmv)
        line = p->mv_line[idx - nroot - 1];
    else if (strstr(e, "the game is over there") && p->nmv)
        line = p->mv_line[used - nroot - 1 < p->nmv && used > nroot
                              ? used - nroot - 1 : p->nmv - 1];
    return set_err(err, n, -1, "%s:%d: %s", name, line, e);
}

static int parse_pgn(struct ref_openings *o, const char *name, char *text,
                     const struct game *g, const void *cfg, char *err,
                     size_t n)
{
    struct pgn_game p;
    int lineno = 0, depth = 0, in_moves = 0, rc = 0, comment_line = 0;
    int in_comment = 0;
    char *save = NULL;
    memset(&p, 0, sizeof p);
    for (char *line = text; line && rc == 0; line = save) {
        char *s = line;
        save = strchr(line, '\n');
        if (save)
            *save++ = '\0';
        lineno++;
        str_chomp(s);
        if (!in_comment && *s == '%') /* PGN escape line */
            continue;
        if (!in_comment && depth == 0) {
            char *t = s;
            while (*t == ' ' || *t == '\t')
                t++;
            if (*t == '[') { /* tag pairs: a new game if moves came before */
                if (in_moves) {
                    if ((rc = finish_game(o, name, &p, g, cfg, err, n)) < 0)
                        break;
                    game_reset(&p);
                    in_moves = 0;
                }
                while (*t == '[') {
                    char tn[64], tv[4096];
                    const char *end;
                    if (!p.first_line)
                        p.first_line = lineno;
                    if (parse_tag(t + 1, tn, sizeof tn, tv, sizeof tv, &end) < 0) {
                        rc = set_err(err, n, -1, "%s:%d: bad tag pair (want "
                                     "[Name \"value\"])", name, lineno);
                        break;
                    }
                    if (strcmp(tn, "Opening") == 0 &&
                        (strcmp(tv, "start") == 0 || str_prefix(tv, "start moves ") ||
                         str_prefix(tv, "fen "))) {
                        free(p.root);
                        p.root = xstrdup(tv);
                        p.root_line = lineno;
                        p.has_opening = 1;
                    } else if (strcmp(tn, "FEN") == 0 && !p.has_opening) {
                        size_t len = strlen(tv) + 8;
                        free(p.root);
                        p.root = xmalloc(len);
                        snprintf(p.root, len, "fen %s", tv);
                        p.root_line = lineno;
                        p.has_fen = 1;
                    }
                    t = (char *)end;
                    while (*t == ' ' || *t == '\t')
                        t++;
                }
                if (rc == 0 && *t)
                    rc = set_err(err, n, -1, "%s:%d: text after a tag pair",
                                 name, lineno);
                continue;
            }
        }
        /* movetext */
        for (char *t = s; *t && rc == 0;) {
            char *b;
            size_t len;
            if (in_comment) {
                char *c = strchr(t, '}');
                if (!c)
                    break;
                t = c + 1;
                in_comment = 0;
                continue;
            }
            if (*t == ' ' || *t == '\t') {
                t++;
                continue;
            }
            if (*t == '{') {
                in_comment = 1;
                comment_line = lineno;
                t++;
                continue;
            }
            if (*t == ';') /* comment to the end of the line */
                break;
            if (*t == '}') {
                rc = set_err(err, n, -1, "%s:%d: '}' without '{'", name,
                             lineno);
                break;
            }
            if (*t == '(') {
                depth++;
                t++;
                continue;
            }
            if (*t == ')') {
                if (depth == 0) {
                    rc = set_err(err, n, -1, "%s:%d: ')' without '('", name,
                                 lineno);
                    break;
                }
                depth--;
                t++;
                continue;
            }
            b = t;
            while (*t && !strchr(" \t{};()", *t))
                t++;
            len = (size_t)(t - b);
            if (!p.first_line)
                p.first_line = lineno;
            in_moves = 1;
            if (depth > 0 || *b == '$')
                continue; /* a variation's token, a NAG */
            if (is_result(b, len)) {
                if ((rc = finish_game(o, name, &p, g, cfg, err, n)) < 0)
                    break;
                game_reset(&p);
                in_moves = 0;
                continue;
            }
            /* a move number: 12. 12... (and 3.p2 in N-seat records) */
            if (isdigit((unsigned char)*b)) {
                const char *q = b;
                while (q < t && isdigit((unsigned char)*q))
                    q++;
                if (q < t && *q == '.') {
                    while (q < t && *q == '.')
                        q++;
                    if (q < t && *q == 'p') {
                        const char *r = q + 1;
                        while (r < t && isdigit((unsigned char)*r))
                            r++;
                        if (r == t && r > q + 1)
                            q = r;
                    }
                    len -= (size_t)(q - b);
                    b = (char *)q;
                    if (!len)
                        continue;
                }
            }
            while (len && (b[len - 1] == '!' || b[len - 1] == '?'))
                len--; /* move annotations */
            if (!len)
                continue;
            if (p.nmv >= REF_OPENING_MAX_PLIES) {
                if (o->plies > 0 && p.nmv >= o->plies)
                    continue; /* cut anyway: no need to keep more */
                rc = set_err(err, n, -1, "%s:%d: a game longer than %d plies "
                             "(plies= keeps fewer)", name, lineno,
                             REF_OPENING_MAX_PLIES);
                break;
            }
            game_add_move(&p, b, len, lineno);
        }
    }
    if (rc == 0 && in_comment)
        rc = set_err(err, n, -1, "%s:%d: '{' comment never closed", name,
                     comment_line);
    if (rc == 0 && depth)
        rc = set_err(err, n, -1, "%s:%d: '(' variation never closed", name,
                     lineno);
    if (rc == 0 && (in_moves || p.root)) /* a last game without a result */
        rc = finish_game(o, name, &p, g, cfg, err, n);
    game_reset(&p);
    return rc;
}

/* ---- loading --------------------------------------------------------- */

int ref_openings_parse(struct ref_openings *o, const char *name,
                       const char *text, size_t len, const struct game *g,
                       const void *cfg, char *err, size_t n)
{
    char *copy;
    int rc;
    if (memchr(text, '\0', len))
        return set_err(err, n, -1, "%s: a NUL byte: not a text file", name);
    copy = xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    rc = o->format == REF_BOOK_PGN ? parse_pgn(o, name, copy, g, cfg, err, n)
                                   : parse_epd(o, name, copy, g, cfg, err, n);
    free(copy);
    if (rc < 0)
        return rc;
    if (!o->nlines)
        return set_err(err, n, -1, "%s: no openings", name);
    if (o->start > o->nlines)
        return set_err(err, n, -1, "%s: start=%d but the book has %d "
                       "openings", name, o->start, o->nlines);
    return 0;
}

int ref_openings_load(struct ref_openings *o, const char *path,
                      const struct game *g, const void *cfg, char *err,
                      size_t n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    int rc;
    if (!f)
        return set_err(err, n, -1, "%s: cannot open", path);
    do {
        if (len + 65536 > cap) {
            cap = cap ? 2 * cap : 65536;
            buf = xrealloc(buf, cap);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got && len <= BOOK_MAX_BYTES);
    if (ferror(f) || len > BOOK_MAX_BYTES) {
        rc = set_err(err, n, -1, "%s: %s", path, ferror(f) ? "read error"
                     : "bigger than 64 MiB");
        free(buf);
        fclose(f);
        return rc;
    }
    fclose(f);
    rc = ref_openings_parse(o, path, buf ? buf : "", len, g, cfg, err, n);
    free(buf);
    return rc;
}

void ref_openings_free(struct ref_openings *o)
{
    for (int i = 0; i < o->nlines; i++)
        free(o->lines[i]);
    free(o->lines);
    o->lines = NULL;
    o->nlines = 0;
}

/* ---- playing an opening ---------------------------------------------- */

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
    uint64_t *own = NULL;
    int nown = 0, owncap = 0;
    if (!hist) { /* keep a history anyway: the rules' result needs it */
        hist = &own;
        nhist = &nown;
        histcap = &owncap;
    }
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
        char *tok[REF_OPENING_MAX_PLIES + 1];
        int nt = str_split(moves + 6, tok, REF_OPENING_MAX_PLIES + 1);
        if (nt > REF_OPENING_MAX_PLIES) {
            rc = set_err(err, n, -1, "opening: more than %d moves",
                         REF_OPENING_MAX_PLIES);
            goto out;
        }
        for (int i = 0; i < nt; i++) {
            struct game_result res;
            gmove m;
            g->result(st, *hist, *nhist, &res);
            if (res.over) {
                rc = set_err(err, n, -1, "opening move %s #%d: the game is "
                             "over (%s)", tok[i], i + 1,
                             res.reason ? res.reason : "finished");
                goto out;
            }
            if (g->parse_move(st, tok[i], &m, e, sizeof e) != GAME_OK) {
                rc = set_err(err, n, -1, "opening move %s #%d: %s", tok[i],
                             i + 1, e);
                goto out;
            }
            push_hist(hist, nhist, histcap, g->hash(st));
            g->play(st, m);
        }
    }
out:
    free(own);
    free(copy);
    return rc;
}

char *ref_opening_make(const struct ref_openings *o, const struct game *g,
                       const void *cfg, uint64_t seed, int slot, char *err,
                       size_t n)
{
    struct rng r;
    rng_seed(&r, mix64(seed ^ 0x6f70656e696e67ULL, (uint64_t)slot));
    if (o->nlines) {
        int first = o->start > 0 ? o->start - 1 : 0;
        int k = o->random_order ? (int)rng_below(&r, (uint64_t)o->nlines)
                                : (int)(((long long)first + slot) % o->nlines);
        return xstrdup(o->lines[k]);
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
