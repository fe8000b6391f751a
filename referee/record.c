/* record.c - game records as JSON Lines and PGN-style text (see record.h). */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

void ref_record_init(struct ref_record *r) { memset(r, 0, sizeof *r); }

void ref_record_free(struct ref_record *r)
{
    free(r->opening);
    free(r->moves);
    r->opening = NULL;
    r->moves = NULL;
    r->nmoves = r->cap = 0;
}

void ref_record_add_move(struct ref_record *r, int seat, const char *tok,
                         int64_t ms)
{
    if (r->nmoves == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 128;
        r->moves = xrealloc(r->moves, (size_t)r->cap * sizeof *r->moves);
    }
    r->moves[r->nmoves].seat = seat;
    r->moves[r->nmoves].depth = 0;
    r->moves[r->nmoves].has_score = 0;
    r->moves[r->nmoves].cp = 0;
    r->moves[r->nmoves].mate = 0;
    r->moves[r->nmoves].ponderhit = 0;
    r->moves[r->nmoves].ms = ms;
    snprintf(r->moves[r->nmoves].tok, REF_TOKEN_LEN, "%s", tok);
    r->nmoves++;
}

const char *ref_record_outcome(const struct ref_record *r)
{
    if (r->nseats != 2)
        return "ranks";
    if (r->rank[0] == r->rank[1])
        return "draw";
    return r->rank[0] < r->rank[1] ? "p1win" : "p2win";
}

int ref_record_write_json(const struct ref_record *r, FILE *f)
{
    json_t *o = json_object(), *a, *v;
    char *s;
    int rc;
    json_object_set_new(o, "game", json_integer(r->game));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "match_seed", json_integer((json_int_t)r->match_seed));
    if (*r->key)
        json_object_set_new(o, "key", json_string(r->key));
    v = json_object();
    json_object_set_new(v, "name", json_string(r->game_name));
    json_object_set_new(v, "params", json_string(r->params));
    json_object_set_new(o, "variant", v);
    a = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(a, json_string(r->seat_name[i]));
    json_object_set_new(o, "seats", a);
    a = json_array();
    for (int i = 0; i < r->nseats; i++)
        json_array_append_new(a, json_string(r->seat_tc[i]));
    json_object_set_new(o, "tc", a);
    json_object_set_new(o, "opening", json_string(r->opening ? r->opening : "start"));
    a = json_array();
    for (int i = 0; i < r->nmoves; i++) {
        json_t *mv = json_pack("{s:i,s:s,s:I}", "seat", r->moves[i].seat, "move",
                               r->moves[i].tok, "ms", (json_int_t)r->moves[i].ms);
        const struct ref_move *m = &r->moves[i];
        if (m->depth > 0)
            json_object_set_new(mv, "depth", json_integer(m->depth));
        if (m->has_score && m->mate)
            json_object_set_new(mv, m->mate > 0 ? "win" : "loss",
                                json_integer(m->mate > 0 ? m->mate : -m->mate));
        else if (m->has_score)
            json_object_set_new(mv, "cp", json_integer(m->cp));
        if (m->ponderhit)
            json_object_set_new(mv, "ponderhit", json_boolean(m->ponderhit > 0));
        json_array_append_new(a, mv);
    }
    json_object_set_new(o, "moves", a);
    json_object_set_new(o, "plies", json_integer(r->nmoves));
    if (r->nseats == 2)
        json_object_set_new(o, "result", json_string(ref_record_outcome(r)));
    else {
        a = json_array();
        for (int i = 0; i < r->nseats; i++)
            json_array_append_new(a, json_integer(r->rank[i]));
        json_object_set_new(o, "result", json_pack("{s:o}", "ranks", a));
    }
    json_object_set_new(o, "reason", json_string(r->reason));
    if (r->has_scores) {
        a = json_array();
        for (int i = 0; i < r->nseats; i++)
            json_array_append_new(a, json_real(r->score[i]));
        json_object_set_new(o, "scores", a);
    } else
        json_object_set_new(o, "scores", json_null());
    json_object_set_new(o, "forfeit", r->forfeit ? json_integer(r->forfeit)
                                                 : json_null());
    json_object_set_new(o, "date", json_string(r->date));
    if (*r->detail)
        json_object_set_new(o, "detail", json_string(r->detail));
    if (*r->event)
        json_object_set_new(o, "event", json_string(r->event));
    if (*r->site)
        json_object_set_new(o, "site", json_string(r->site));
    s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    json_decref(o);
    if (!s)
        return -1;
    rc = fprintf(f, "%s\n", s) < 0 ? -1 : 0;
    free(s);
    if (fflush(f) != 0)
        rc = -1;
    return rc;
}

static const char *get_str(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A move's score keys (cp, win, loss; none in older files); a value out
 * of range is dropped, as the engines' scores are when read. */
static void move_score(struct ref_move *m, json_t *v)
{
    json_t *cp = json_object_get(v, "cp"), *w = json_object_get(v, "win"),
           *l = json_object_get(v, "loss");
    if (json_is_integer(w) && json_integer_value(w) >= 1 &&
        json_integer_value(w) <= 99999) {
        m->has_score = 1;
        m->mate = (int)json_integer_value(w);
        m->cp = REF_SCORE_MATE;
    } else if (json_is_integer(l) && json_integer_value(l) >= 1 &&
               json_integer_value(l) <= 99999) {
        m->has_score = 1;
        m->mate = -(int)json_integer_value(l);
        m->cp = -REF_SCORE_MATE;
    } else if (json_is_integer(cp) && json_integer_value(cp) > -REF_SCORE_MATE &&
               json_integer_value(cp) < REF_SCORE_MATE) {
        m->has_score = 1;
        m->cp = (int)json_integer_value(cp);
    }
}

int ref_record_parse_json(struct ref_record *r, const char *line, char *err,
                          size_t n)
{
    json_error_t je;
    json_t *o = json_loads(line, 0, &je), *v, *a;
    const char *s;
    size_t i;
    ref_record_init(r);
    if (!o)
        return set_err(err, n, -1, "bad JSON: %s", je.text);
    if (!json_is_object(o))
        goto bad;
    v = json_object_get(o, "game");
    if (!json_is_integer(v))
        goto bad;
    if (json_integer_value(v) < 1 || json_integer_value(v) > REF_RECORD_MAX_GAME) {
        set_err(err, n, -1, "game number %lld is not in 1..%d",
                (long long)json_integer_value(v), REF_RECORD_MAX_GAME);
        json_decref(o);
        return -1;
    }
    r->game = (int)json_integer_value(v);
    r->seed = (uint64_t)json_integer_value(json_object_get(o, "seed"));
    r->match_seed = (uint64_t)json_integer_value(json_object_get(o, "match_seed"));
    if ((s = get_str(o, "key")) != NULL)
        snprintf(r->key, sizeof r->key, "%s", s);
    v = json_object_get(o, "variant");
    if (!json_is_object(v) || !(s = get_str(v, "name")))
        goto bad;
    snprintf(r->game_name, sizeof r->game_name, "%s", s);
    snprintf(r->params, sizeof r->params, "%s", (s = get_str(v, "params")) ? s : "");
    a = json_object_get(o, "seats");
    if (!json_is_array(a) || json_array_size(a) < 2 ||
        json_array_size(a) > GAME_MAX_SEATS)
        goto bad;
    r->nseats = (int)json_array_size(a);
    json_array_foreach(a, i, v)
    {
        if (!json_is_string(v))
            goto bad;
        snprintf(r->seat_name[i], REF_NAME_LEN, "%s", json_string_value(v));
    }
    a = json_object_get(o, "tc");
    if (json_is_array(a))
        json_array_foreach(a, i, v) if (i < (size_t)r->nseats && json_is_string(v))
            snprintf(r->seat_tc[i], sizeof r->seat_tc[i], "%s", json_string_value(v));
    r->opening = xstrdup((s = get_str(o, "opening")) ? s : "start");
    a = json_object_get(o, "moves");
    if (json_is_array(a))
        json_array_foreach(a, i, v)
        {
            s = get_str(v, "move");
            json_int_t d = json_integer_value(json_object_get(v, "depth"));
            ref_record_add_move(r,
                                (int)json_integer_value(json_object_get(v, "seat")),
                                s ? s : "?",
                                (int64_t)json_integer_value(json_object_get(v, "ms")));
            r->moves[r->nmoves - 1].depth = d > 0 && d < 10000 ? (int)d : 0;
            move_score(&r->moves[r->nmoves - 1], v);
            {
                json_t *ph = json_object_get(v, "ponderhit");
                r->moves[r->nmoves - 1].ponderhit =
                    json_is_boolean(ph) ? (json_is_true(ph) ? 1 : -1) : 0;
            }
        }
    v = json_object_get(o, "result");
    if (json_is_string(v)) {
        s = json_string_value(v);
        if (r->nseats != 2)
            goto bad;
        r->rank[0] = strcmp(s, "p2win") == 0 ? 2 : 1;
        r->rank[1] = strcmp(s, "p1win") == 0 ? 2 : 1;
        if (strcmp(s, "p1win") && strcmp(s, "p2win") && strcmp(s, "draw"))
            goto bad;
    } else if (json_is_object(v) &&
               json_is_array(a = json_object_get(v, "ranks")) &&
               json_array_size(a) == (size_t)r->nseats) {
        json_array_foreach(a, i, v) r->rank[i] = (int)json_integer_value(v);
    } else
        goto bad;
    snprintf(r->reason, sizeof r->reason, "%s", (s = get_str(o, "reason")) ? s : "");
    a = json_object_get(o, "scores");
    if (json_is_array(a) && json_array_size(a) == (size_t)r->nseats) {
        r->has_scores = 1;
        json_array_foreach(a, i, v) r->score[i] = json_number_value(v);
    }
    v = json_object_get(o, "forfeit");
    r->forfeit = json_is_integer(v) ? (int)json_integer_value(v) : 0;
    snprintf(r->date, sizeof r->date, "%s", (s = get_str(o, "date")) ? s : "");
    snprintf(r->detail, sizeof r->detail, "%s", (s = get_str(o, "detail")) ? s : "");
    snprintf(r->event, sizeof r->event, "%s", (s = get_str(o, "event")) ? s : "");
    snprintf(r->site, sizeof r->site, "%s", (s = get_str(o, "site")) ? s : "");
    json_decref(o);
    return 0;
bad:
    json_decref(o);
    ref_record_free(r);
    return set_err(err, n, -1, "not a referee game record");
}

const char *ref_record_result_text(const struct ref_record *r)
{
    if (r->nseats != 2)
        return NULL;
    if (r->rank[0] == r->rank[1])
        return "1/2-1/2";
    return r->rank[0] < r->rank[1] ? "1-0" : "0-1";
}

static const char *pgn_result(const struct ref_record *r)
{
    const char *t = ref_record_result_text(r);
    return t ? t : "*";
}

/* A PGN string (PGN standard 7 and 8.1): printing characters, with '"'
 * and '\' escaped by a backslash; other control characters (tab, newline)
 * are not allowed in a string and become '?'.  Bytes from 0x80 up
 * (UTF-8) are kept. */
static void pgn_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fputc('\\', f);
        fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
    }
}

static void tag(FILE *f, const char *k, const char *v)
{
    fprintf(f, "[%s \"", k);
    pgn_escape(f, v);
    fputs("\"]\n", f);
}

/* The PGN date and time of the record's "2024.05.01 12:00:00":
 * "2024.05.01" and "12:00:00", or the standard's unknown values
 * "????.??.??" and "??:??:??" when the record has none. */
static void pgn_date_time(const char *d, char date[11], char time[9])
{
    static const char dpat[] = "dddd.dd.dd", tpat[] = "dd:dd:dd";
    int ok = strlen(d) >= 10, tok = strlen(d) >= 19 && d[10] == ' ';
    for (int i = 0; i < 10 && ok; i++)
        ok = dpat[i] == 'd' ? d[i] >= '0' && d[i] <= '9' : d[i] == dpat[i];
    for (int i = 0; i < 8 && tok; i++)
        tok = tpat[i] == 'd' ? d[11 + i] >= '0' && d[11 + i] <= '9' : d[11 + i] == tpat[i];
    snprintf(date, 11, "%.10s", ok ? d : "????.??.??");
    snprintf(time, 9, "%.8s", ok && tok ? d + 11 : "??:??:??");
}

void ref_record_move_comment(const struct ref_move *m, char *b, size_t n)
{
    size_t len = 0;
    int64_t ms = m->ms > 0 ? m->ms : 0;
    b[0] = '\0';
    /* cutechess: the score and depth only when the engine gave a depth,
     * mates as M<plies> ("+M5", "-M3"), "+" before a positive score only */
    if (m->has_score && m->depth > 0) {
        if (m->mate)
            buf_printf(b, n, &len, "%sM%d", m->mate > 0 ? "+" : "-",
                       m->mate > 0 ? m->mate : -m->mate);
        else
            buf_printf(b, n, &len, "%s%.2f", m->cp > 0 ? "+" : "", m->cp / 100.0);
        buf_printf(b, n, &len, "/%d ", m->depth);
    }
    /* the time with fewer decimals as it grows: 0.043s 0.25s 1.2s 12s */
    if (ms == 0)
        buf_printf(b, n, &len, "0s");
    else
        buf_printf(b, n, &len, "%.*fs", ms < 100 ? 3 : ms < 1000 ? 2 : ms < 10000 ? 1 : 0,
                   (double)ms / 1000.0);
}

int ref_record_write_pgn(const struct ref_record *r, FILE *f)
{
    char b[64], date[11], time[9];
    int col = 0;
    pgn_date_time(r->date, date, time);
    /* the seven-tag roster, in its order */
    tag(f, "Event", *r->event ? r->event : "medan-referee match");
    tag(f, "Site", *r->site ? r->site : "?");
    tag(f, "Date", date);
    snprintf(b, sizeof b, "%d", r->game);
    tag(f, "Round", b);
    tag(f, "White", r->nseats == 2 ? r->seat_name[0] : "?");
    tag(f, "Black", r->nseats == 2 ? r->seat_name[1] : "?");
    tag(f, "Result", pgn_result(r));
    tag(f, "Time", time);
    tag(f, "Game", r->game_name);
    if (*r->params)
        tag(f, "Variant", r->params);
    if (r->nseats == 2) {
        tag(f, "WhiteTimeControl", r->seat_tc[0]);
        tag(f, "BlackTimeControl", r->seat_tc[1]);
    } else
        for (int i = 0; i < r->nseats; i++) {
            char k[32];
            snprintf(k, sizeof k, "P%d", i + 1);
            tag(f, k, r->seat_name[i]);
            snprintf(k, sizeof k, "P%dTimeControl", i + 1);
            tag(f, k, r->seat_tc[i]);
        }
    if (r->nseats != 2) {
        char rk[64];
        size_t len = 0;
        rk[0] = '\0';
        for (int i = 0; i < r->nseats; i++)
            buf_printf(rk, sizeof rk, &len, "%s%d", i ? " " : "", r->rank[i]);
        tag(f, "Ranks", rk);
    }
    if (r->has_scores) {
        char sc[160];
        size_t len = 0;
        sc[0] = '\0';
        for (int i = 0; i < r->nseats; i++)
            buf_printf(sc, sizeof sc, &len, "%s%g", i ? " " : "", r->score[i]);
        tag(f, "Scores", sc);
    }
    tag(f, "Termination", r->reason);
    if (*r->detail)
        tag(f, "Detail", r->detail);
    tag(f, "Opening", r->opening ? r->opening : "start");
    snprintf(b, sizeof b, "%llu", (unsigned long long)r->seed);
    tag(f, "Seed", b);
    snprintf(b, sizeof b, "%d", r->nmoves);
    tag(f, "PlyCount", b);
    fputc('\n', f);
    for (int i = 0; i < r->nmoves; i++) {
        char m[REF_TOKEN_LEN + 96], c[64];
        int k;
        ref_record_move_comment(&r->moves[i], c, sizeof c);
        if (r->nseats == 2)
            k = i % 2 == 0 ? snprintf(m, sizeof m, "%d. %s {%s}", i / 2 + 1,
                                      r->moves[i].tok, c)
                           : snprintf(m, sizeof m, "%s {%s}", r->moves[i].tok, c);
        else
            k = snprintf(m, sizeof m, "%d.p%d %s {%s}", i + 1, r->moves[i].seat,
                         r->moves[i].tok, c);
        if (col && col + 1 + k > 79) {
            fputc('\n', f);
            col = 0;
        }
        fprintf(f, "%s%s", col ? " " : "", m);
        col += k + (col ? 1 : 0);
    }
    {
        /* the ending's reason and the result, on the line if it fits (PGN
         * export lines stay within 79 characters) */
        int k = (int)strlen(r->reason) + 3 + (int)strlen(pgn_result(r));
        if (col && col + 1 + k > 79) {
            fputc('\n', f);
            col = 0;
        }
        fprintf(f, "%s{%s} %s\n\n", col ? " " : "", r->reason, pgn_result(r));
    }
    return fflush(f) == 0 ? 0 : -1;
}

/* One line of f, its '\n' kept, into *buf (NUL-terminated after it):
 * its length, 0 at the end of the file, -1 on a read error, -2 when more
 * than max bytes come before a '\n'. */
static long read_line(FILE *f, char **buf, size_t *cap, size_t max)
{
    size_t len = 0;
    int c = 0;
    for (;;) {
        if (len + 2 > *cap) {
            *cap = *cap ? 2 * *cap : 4096;
            *buf = xrealloc(*buf, *cap);
        }
        if (c == '\n' || (c = getc_unlocked(f)) == EOF)
            break;
        if (len == max && c != '\n')
            return -2;
        (*buf)[len++] = (char)c;
    }
    (*buf)[len] = '\0';
    return c == EOF && ferror(f) ? -1 : (long)len;
}

/* An error text fit for a terminal: bytes from the file (jansson quotes
 * the text near an error) lose their control and non-ASCII bytes. */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            *s = '?';
}

int ref_record_read_file(const char *path,
                         void (*fn)(void *ctx, const struct ref_record *r),
                         void *ctx, long *good_end, char *err, size_t n)
{
    FILE *f;
    char *line = NULL;
    size_t cap = 0;
    long len, total = 0;
    int count = 0, lineno = 0, fd, rc = 0;
    long end = 0;
    struct stat st;
    memset(&st, 0, sizeof st);
    /* O_NONBLOCK: a FIFO opens at once even with no writer; reads block
     * again below. */
    if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
        return set_err(err, n, -1, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return set_err(err, n, -1, "%s: is a directory, not a results file", path);
    }
    if (S_ISREG(st.st_mode) && st.st_size > REF_RECORD_MAX_FILE) {
        close(fd);
        return set_err(err, n, -1, "%s: %lld bytes; a results file holds %ld at most", path,
                       (long long)st.st_size, REF_RECORD_MAX_FILE);
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "r"))) {
        close(fd);
        return set_err(err, n, -1, "%s: cannot open: %s", path, strerror(errno));
    }
    while ((len = read_line(f, &line, &cap, REF_RECORD_MAX_LINE)) > 0) {
        struct ref_record r;
        char e[GAME_ERR_LEN];
        lineno++;
        total += len;
        if (total > REF_RECORD_MAX_FILE) {
            rc = set_err(err, n, -1, "%s: more than %ld bytes (at line %d); a results "
                         "file holds %ld at most", path, REF_RECORD_MAX_FILE, lineno,
                         REF_RECORD_MAX_FILE);
            goto out;
        }
        if (line[len - 1] != '\n') /* cut short: an interrupted write */
            break;
        if (strspn(line, " \t\r\n") == (size_t)len) { /* a blank line */
            end = total;
            continue;
        }
        if (memchr(line, '\0', (size_t)len) ? set_err(e, sizeof e, -1, "a NUL byte in the line")
                                            : ref_record_parse_json(&r, line, e, sizeof e) < 0) {
            int c = fgetc(f);
            if (c == EOF && !ferror(f)) /* a damaged last line: ignore it */
                break;
            printable(e);
            rc = set_err(err, n, -1, "%s:%d: %s", path, lineno, e);
            goto out;
        }
        fn(ctx, &r);
        ref_record_free(&r);
        count++;
        end = total;
    }
    if (len == -2)
        rc = set_err(err, n, -1, "%s: line %d longer than %ld bytes", path, lineno + 1,
                     REF_RECORD_MAX_LINE);
    else if (len == -1)
        rc = set_err(err, n, -1, "%s: cannot read: %s", path, strerror(errno));
out:
    free(line);
    fclose(f);
    if (rc < 0)
        return rc;
    if (good_end)
        *good_end = end;
    return count;
}
