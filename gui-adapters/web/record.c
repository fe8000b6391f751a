/* record.c - medan-web: the reader of pasted records (see record.h). */
#include "record.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define MAX_TOKS 100000

static int line_of(const char *text, const char *p)
{
    int line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

static char *dup_n(const char *s, size_t len)
{
    char *d = xmalloc(len + 1);
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

static void add_tok(struct web_rec *r, const char *s, size_t len)
{
    if (r->ntok == r->captok) {
        r->captok = r->captok ? r->captok * 2 : 64;
        r->tok = xrealloc(r->tok, (size_t)r->captok * sizeof *r->tok);
    }
    r->tok[r->ntok++] = dup_n(s, len);
}

/* A tag at p ('['): name and value stored; the end, or NULL. */
static const char *read_tag(struct web_rec *r, const char *p)
{
    const char *name, *q;
    size_t nlen;
    char *val;
    size_t vlen = 0;
    p++;
    while (*p == ' ' || *p == '\t')
        p++;
    name = p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    nlen = (size_t)(p - name);
    if (!nlen || nlen > 64)
        return NULL;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != '"')
        return NULL;
    p++;
    for (q = p; *q && *q != '"' && *q != '\n'; q++)
        if (*q == '\\' && q[1])
            q++;
    if (*q != '"')
        return NULL;
    val = xmalloc((size_t)(q - p) + 1);
    for (; p < q; p++) {
        if (*p == '\\' && p + 1 < q)
            p++;
        val[vlen++] = *p;
    }
    val[vlen] = '\0';
    p = q + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p != ']') {
        free(val);
        return NULL;
    }
    if (r->ntags < WEB_REC_MAX_TAGS) {
        r->tag_name[r->ntags] = dup_n(name, nlen);
        r->tag_value[r->ntags] = val;
        r->ntags++;
    } else
        free(val);               /* more tags than kept: read, not kept */
    return p + 1;
}

/* A movetext word: a move number, a result, or a move token (kept). */
static void word(struct web_rec *r, const char *w, size_t len)
{
    size_t i = 0;
    if ((len == 3 && !memcmp(w, "1-0", 3)) || (len == 3 && !memcmp(w, "0-1", 3)) ||
        (len == 7 && !memcmp(w, "1/2-1/2", 7)) || (len == 1 && *w == '*'))
        return;
    /* 12.  12...  12.b1-b3  3.p2 (the referee's N-seat numbering) */
    while (i < len && isdigit((unsigned char)w[i]))
        i++;
    if (i > 0 && i < len && w[i] == '.') {
        while (i < len && w[i] == '.')
            i++;
        if (i + 1 < len && w[i] == 'p' && isdigit((unsigned char)w[i + 1])) {
            size_t j = i + 1;
            while (j < len && isdigit((unsigned char)w[j]))
                j++;
            if (j == len)
                return;
        }
        w += i;
        len -= i;
    } else if (i == len)
        return;                  /* a bare number */
    if (len)
        add_tok(r, w, len);
}

void web_rec_free(struct web_rec *r)
{
    for (int i = 0; i < r->ntags; i++) {
        free(r->tag_name[i]);
        free(r->tag_value[i]);
    }
    for (int i = 0; i < r->ntok; i++)
        free(r->tok[i]);
    free(r->tok);
    memset(r, 0, sizeof *r);
}

int web_rec_parse(const char *text, struct web_rec *r, char *err, size_t n)
{
    const char *p = text;
    memset(r, 0, sizeof *r);
    while (*p) {
        const char *w;
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        switch (*p) {
        case '[': {
            const char *e = read_tag(r, p);
            if (!e) {
                snprintf(err, n, "record line %d: a tag is [Name \"value\"]", line_of(text, p));
                web_rec_free(r);
                return -1;
            }
            p = e;
            continue;
        }
        case '{': {
            const char *e = strchr(p, '}');
            if (!e) {
                snprintf(err, n, "record line %d: a comment '{' is not closed", line_of(text, p));
                web_rec_free(r);
                return -1;
            }
            p = e + 1;
            continue;
        }
        case ';':
            while (*p && *p != '\n')
                p++;
            continue;
        case '%':
            if (p == text || p[-1] == '\n') {
                while (*p && *p != '\n')
                    p++;
                continue;
            }
            break;
        case '(': {              /* a variation: skipped, nested ones too */
            const char *start = p;
            int depth = 0;
            do {
                if (*p == '(')
                    depth++;
                else if (*p == ')')
                    depth--;
                else if (*p == '{') {
                    const char *e = strchr(p, '}');
                    if (!e)
                        break;
                    p = e;
                } else if (*p == ';') {
                    /* a comment to the end of the line: its '(' and ')'
                     * are text, as outside a variation */
                    while (p[1] && p[1] != '\n')
                        p++;
                }
                p++;
            } while (*p && depth > 0);
            if (depth > 0) {
                snprintf(err, n, "record line %d: a variation '(' is not closed",
                         line_of(text, start));
                web_rec_free(r);
                return -1;
            }
            continue;
        }
        case ')':
            snprintf(err, n, "record line %d: ')' closes no variation", line_of(text, p));
            web_rec_free(r);
            return -1;
        case '$':
            p++;
            while (isdigit((unsigned char)*p))
                p++;
            continue;
        default:
            break;
        }
        w = p;
        while (*p && !isspace((unsigned char)*p) && !strchr("{}();[]", *p))
            p++;
        if (p == w) {            /* a lone ']' or '}' */
            snprintf(err, n, "record line %d: unexpected '%c'", line_of(text, p), *p);
            web_rec_free(r);
            return -1;
        }
        if (r->ntok >= MAX_TOKS) {
            snprintf(err, n, "record: more than %d moves", MAX_TOKS);
            web_rec_free(r);
            return -1;
        }
        word(r, w, (size_t)(p - w));
    }
    return 0;
}

const char *web_rec_tag(const struct web_rec *r, const char *name)
{
    for (int i = r->ntags - 1; i >= 0; i--)
        if (strcmp(r->tag_name[i], name) == 0)
            return r->tag_value[i];
    return NULL;
}

/* Append the words of s (space separated) to the moves array. */
static void add_words(json_t *moves, const char *s)
{
    while (*s) {
        const char *w;
        while (*s == ' ' || *s == '\t')
            s++;
        w = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (s > w)
            json_array_append_new(moves, json_stringn(w, (size_t)(s - w)));
    }
}

/* The Variant tag ("size=5 players=4"): its whole-number keys into q. */
static int variant(json_t *q, const char *v, char *err, size_t n)
{
    static const char *const keys[] = {"size", "players", NULL};
    char buf[256], *save = NULL, *kv;
    snprintf(buf, sizeof buf, "%s", v);
    for (kv = strtok_r(buf, " \t", &save); kv; kv = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(kv, '=');
        int64_t x;
        int known = 0;
        if (!eq)
            continue;
        *eq = '\0';
        for (int i = 0; keys[i]; i++)
            known |= strcmp(kv, keys[i]) == 0;
        if (!known)
            continue;            /* a key the page does not set: the game's default */
        if (parse_i64(eq + 1, 0, 1000000, &x) != 0) {
            snprintf(err, n, "record: Variant %.20s=%.20s is not a whole number", kv, eq + 1);
            return -1;
        }
        json_object_set_new(q, kv, json_integer((json_int_t)x));
    }
    return 0;
}

/* The Opening tag: "startpos|fen <pos>|deal <seed> [moves ...]". */
static int opening(json_t *q, json_t *moves, const char *o, char *err, size_t n)
{
    const char *mv = strstr(o, " moves");
    size_t head = mv ? (size_t)(mv - o) : strlen(o);
    if (mv && mv[6] && mv[6] != ' ')
        mv = NULL, head = strlen(o);
    if (head >= 8 && !strncmp(o, "startpos", 8) && head == 8) {
        /* the start position */
    } else if (head > 4 && !strncmp(o, "fen ", 4)) {
        json_object_set_new(q, "fen", json_stringn(o + 4, head - 4));
    } else if (head > 5 && !strncmp(o, "deal ", 5)) {
        char buf[32];
        uint64_t seed;
        snprintf(buf, sizeof buf, "%.*s", (int)(head - 5 < 31 ? head - 5 : 31), o + 5);
        if (parse_u64(buf, &seed) != 0 || seed > (uint64_t)INT64_MAX) {
            snprintf(err, n, "record: Opening 'deal %.20s' needs a whole number", buf);
            return -1;
        }
        json_object_set_new(q, "seed", json_integer((json_int_t)seed));
    } else if (head == 5 && !strncmp(o, "start", 5)) {
        /* the start position (older records) */
    } else {
        snprintf(err, n, "record: Opening '%.40s' is not startpos, fen <position> or deal <seed>", o);
        return -1;
    }
    if (mv)
        add_words(moves, mv + 6);
    return 0;
}

json_t *web_rec_request(json_t *req, char *err, size_t n)
{
    json_t *q = json_deep_copy(req), *rv = json_object_get(req, "record"), *moves;
    struct web_rec r;
    const char *v;
    if (!q)
        return NULL;
    json_object_del(q, "record");
    if (!rv)
        return q;
    if (!json_is_string(rv)) {
        snprintf(err, n, "'record' is the text of a game record");
        json_decref(q);
        return NULL;
    }
    if (web_rec_parse(json_string_value(rv), &r, err, n) < 0) {
        json_decref(q);
        return NULL;
    }
    moves = json_array();
    if ((v = web_rec_tag(&r, "Game")) != NULL)
        json_object_set_new(q, "game", json_string(v));
    if ((v = web_rec_tag(&r, "Variant")) != NULL && variant(q, v, err, n) < 0)
        goto bad;
    if ((v = web_rec_tag(&r, "FEN")) != NULL)
        json_object_set_new(q, "fen", json_string(v));
    else if ((v = web_rec_tag(&r, "Opening")) != NULL && opening(q, moves, v, err, n) < 0)
        goto bad;
    for (int i = 0; i < r.ntok; i++)
        json_array_append_new(moves, json_string(r.tok[i]));
    json_object_set_new(q, "moves", moves);
    json_object_del(q, "ply");
    web_rec_free(&r);
    return q;
bad:
    json_decref(moves);
    json_decref(q);
    web_rec_free(&r);
    return NULL;
}
