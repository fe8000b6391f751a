/* results.c - referee results files listed and followed (results.h). */
#include "results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "referee/record.h"
#include "referee/table.h"
#include "match.h"
#include "web.h"

#define LIST_MAX 500                  /* files listed */
#define FULL_TABLE_ENGINES REF_CROSSTABLE_MAX /* more engines: the table without its crosstable */
#define FOLLOW_CACHE 8                /* files followed at once */

/* A plain file name: letters, digits, . _ -, no leading dot, .jsonl. */
static int name_ok(const char *name)
{
    size_t len = strlen(name);
    return len > 6 && len < 200 && name[0] != '.' &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == len &&
           strcmp(name + len - 6, ".jsonl") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "name")),
                  json_string_value(json_object_get(*(json_t *const *)b, "name")));
}

int web_results_list(json_t **out, char *err, size_t n)
{
    DIR *dir;
    struct dirent *de;
    json_t *list[LIST_MAX], *arr = json_array();
    int k = 0;
    *out = NULL;
    if (!*web_cfg.results_dir) {
        json_decref(arr);
        snprintf(err, n, "no results directory (start medan-web with --results-dir DIR)");
        return 404;
    }
    if (!(dir = opendir(web_cfg.results_dir))) {
        json_decref(arr);
        snprintf(err, n, "cannot read the results directory: %s", strerror(errno));
        return 500;
    }
    while ((de = readdir(dir)) != NULL && k < LIST_MAX) {
        struct stat sb;
        if (!name_ok(de->d_name) ||
            fstatat(dirfd(dir), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        list[k++] = json_pack("{s:s,s:I,s:I}", "name", de->d_name, "size",
                              (json_int_t)sb.st_size, "mtime", (json_int_t)sb.st_mtime);
    }
    closedir(dir);
    qsort(list, (size_t)k, sizeof *list, by_name);
    for (int i = 0; i < k; i++)
        json_array_append_new(arr, list[i]);
    *out = json_pack("{s:o}", "files", arr);
    return 200;
}

/* A followed file.  The cache's lock (g_mu) guards name, users and used;
 * the entry's own lock (mu) everything else.  An entry in use (users > 0)
 * is never given to another file. */
struct follow {
    pthread_mutex_t mu;
    char name[200];
    int users;
    int64_t used;                 /* last use, for the eviction */
    int live;                     /* holds a file's state */
    dev_t dev;
    ino_t ino;
    off_t done;                   /* bytes read: whole lines only */
    struct ref_table t;
    json_t *rows[RESULTS_KEPT];   /* the last games read: a ring */
    long count;                   /* games counted: rows of games count-kept.. */
    int bad;
    uint64_t epoch;               /* changes when the file is read anew */
    json_t *table;                /* the table as JSON, of table_count games */
    long table_count;
    int table_bad;
    int64_t table_at, table_cost; /* when it was made, what it took (us) */
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct follow g_follow[FOLLOW_CACHE];
static int g_init;
static uint64_t g_epochs;

static long kept(const struct follow *f)
{
    return f->count < RESULTS_KEPT ? f->count : RESULTS_KEPT;
}

/* Under f->mu: forget what was read. */
static void follow_clear(struct follow *f)
{
    if (f->live)
        ref_table_free(&f->t);
    for (long i = 0; i < kept(f); i++)
        json_decref(f->rows[(f->count - 1 - i) % RESULTS_KEPT]);
    json_decref(f->table);
    f->table = NULL;
    f->live = 0;
    f->done = 0;
    f->count = 0;
    f->bad = 0;
    f->table_count = -1;
}

/* Under f->mu: start the file anew (a new file, or cut, or replaced). */
static void follow_reset(struct follow *f, const struct stat *sb)
{
    follow_clear(f);
    f->dev = sb->st_dev;
    f->ino = sb->st_ino;
    ref_table_init(&f->t);
    f->live = 1;
    pthread_mutex_lock(&g_mu);
    f->epoch = ++g_epochs;
    pthread_mutex_unlock(&g_mu);
}

/* The entry for a file, held (users + 1): its own, or the least recently
 * used of those no one holds; NULL when every entry is held. */
static struct follow *follow_hold(const char *name)
{
    struct follow *f = NULL, *old = NULL;
    pthread_mutex_lock(&g_mu);
    if (!g_init) {
        for (int i = 0; i < FOLLOW_CACHE; i++) {
            pthread_mutex_init(&g_follow[i].mu, NULL);
            g_follow[i].table_count = -1;
        }
        g_init = 1;
    }
    for (int i = 0; i < FOLLOW_CACHE && !f; i++)
        if (g_follow[i].name[0] && strcmp(g_follow[i].name, name) == 0)
            f = &g_follow[i];
    if (!f) {
        for (int i = 0; i < FOLLOW_CACHE; i++)
            if (!g_follow[i].users && (!old || g_follow[i].used < old->used))
                old = &g_follow[i];
        if (old) {
            f = old;
            snprintf(f->name, sizeof f->name, "%s", name);
            f->dev = 0;               /* read anew below (follow_reset) */
            f->ino = 0;
        }
    }
    if (f) {
        f->users++;
        f->used = now_us();
    }
    pthread_mutex_unlock(&g_mu);
    return f;
}

static void follow_release(struct follow *f)
{
    pthread_mutex_lock(&g_mu);
    f->users--;
    pthread_mutex_unlock(&g_mu);
}

/* Under f->mu: one line (NUL-terminated, `len` bytes before the NUL). */
static void follow_line(struct follow *f, const char *p, size_t len)
{
    struct ref_record r;
    char e[256];
    if (strspn(p, " \t\r") == len)
        return;                                  /* a blank line */
    if (strlen(p) != len || ref_record_parse_json(&r, p, e, sizeof e) < 0) {
        f->bad++;
        return;
    }
    if (ref_table_add(&f->t, &r) < 0)
        f->bad++;
    else {
        json_t **slot = &f->rows[f->count % RESULTS_KEPT];
        if (f->count >= RESULTS_KEPT)
            json_decref(*slot);                  /* the oldest kept goes */
        *slot = web_row_json(&r);
        f->count++;
    }
    ref_record_free(&r);
}

/* Under f->mu: read fd's whole lines from f->done on, up to `size` and at
 * most RESULTS_BUDGET bytes, RESULTS_CHUNK at a time.  A line longer than
 * a chunk is counted bad and skipped. */
static void follow_read(struct follow *f, int fd, off_t size)
{
    char *buf = xmalloc(RESULTS_CHUNK + 1);
    long budget = RESULTS_BUDGET;
    int skipping = 0;                            /* inside a too long line */
    while (f->done < size && budget > 0) {
        size_t want = (size_t)(size - f->done) < (size_t)RESULTS_CHUNK
                          ? (size_t)(size - f->done) : (size_t)RESULTS_CHUNK;
        size_t len = 0;
        ssize_t got;
        char *p, *end;
        while (len < want && (got = pread(fd, buf + len, want - len, f->done + (off_t)len)) > 0)
            len += (size_t)got;
        if (len == 0)
            break;
        buf[len] = '\0';
        end = buf + len;
        while (end > buf && end[-1] != '\n')
            end--;
        if (end == buf) {
            if (len < (size_t)RESULTS_CHUNK)
                break;                           /* a line being written */
            /* a whole chunk without a newline: a line too long, skipped */
            if (!skipping)
                f->bad++;
            skipping = 1;
            f->done += (off_t)len;
            budget -= (long)len;
            continue;
        }
        for (p = buf; p < end;) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            *nl = '\0';
            if (!skipping)
                follow_line(f, p, (size_t)(nl - p));
            skipping = 0;
            p = nl + 1;
        }
        f->done += end - buf;
        budget -= (long)(end - buf);
    }
    free(buf);
}

/* The table of a file with many engines: the referee's printed table has
 * a crosstable (every pair of engines over every game: a file with 1600
 * engines took seconds), so this one lists each engine's games, wins,
 * losses, draws and score (the same JSON fields as web_table_json's). */
static json_t *table_light(const struct ref_table *t)
{
    json_t *o = json_object(), *eng = json_array(), *end = json_object();
    char *text = NULL;
    size_t tn = 0;
    FILE *f = open_memstream(&text, &tn);
    if (f) {
        fprintf(f, "\nResults (game %s): %d games, %d engines (no crosstable past %d engines)\n"
                   "%-24s %7s %6s %6s %6s %7s\n",
                t->game_name, t->nsum, t->neng, FULL_TABLE_ENGINES, "engine", "games",
                "wins", "losses", "draws", "score%");
        for (int e = 0; e < t->neng; e++) {
            const struct ref_eng_row *r = &t->eng[e];
            fprintf(f, "%-24s %7d %6d %6d %6d %7.1f\n", r->name, r->games, r->wins,
                    r->losses, r->draws,
                    r->games ? 100.0 * (r->wins + 0.5 * r->draws) / r->games : 0.0);
        }
        fclose(f);
        json_object_set_new(o, "text", web_jtext(text ? text : ""));
        free(text);
    }
    json_object_set_new(o, "games", json_integer(t->nsum));
    json_object_set_new(o, "nseats", json_integer(t->nseats));
    for (int e = 0; e < t->neng; e++) {
        const struct ref_eng_row *r = &t->eng[e];
        json_t *x = json_object();
        int fails = 0;
        for (int k = 0; k < REF_F_N; k++)
            fails += r->fails[k];
        json_object_set_new(x, "name", web_jtext(r->name));
        json_object_set_new(x, "games", json_integer(r->games));
        json_object_set_new(x, "wins", json_integer(r->wins));
        json_object_set_new(x, "losses", json_integer(r->losses));
        json_object_set_new(x, "draws", json_integer(r->draws));
        json_object_set_new(x, "forfeits", json_integer(fails));
        json_array_append_new(eng, x);
    }
    json_object_set_new(o, "engines", eng);
    for (int i = 0; i < t->reasons_n; i++)
        json_object_set_new(end, t->reason[i], json_integer(t->reason_count[i]));
    json_object_set_new(o, "endings", end);
    return o;
}

/* Under f->mu: the table as JSON (a copy), made again only when
 * games were added, and then not sooner than 5 times the last making's
 * cost after it (a table of thousands of engines costs seconds). */
static json_t *follow_table(struct follow *f)
{
    int64_t t0 = now_us();
    if (!f->table || ((f->count != f->table_count || f->bad != f->table_bad) &&
                      t0 - f->table_at >= 5 * f->table_cost)) {
        json_decref(f->table);
        f->table = f->t.neng > FULL_TABLE_ENGINES ? table_light(&f->t)
                                                  : web_table_json(&f->t, NULL);
        f->table_count = f->count;
        f->table_bad = f->bad;
        f->table_at = now_us();
        f->table_cost = f->table_at - t0;
    }
    return json_deep_copy(f->table);   /* the answer is written after the lock */
}

int web_results_read(const char *name, long since, json_t **out, char *err, size_t n)
{
    struct stat sb;
    struct follow *f;
    int fd, dfd;
    long first;
    json_t *rows, *o;

    *out = NULL;
    if (!*web_cfg.results_dir) {
        snprintf(err, n, "no results directory (start medan-web with --results-dir DIR)");
        return 404;
    }
    if (!name_ok(name)) {
        snprintf(err, n, "a results file is named by letters, digits, . _ - and ends "
                         "in .jsonl (a file of the results directory)");
        return 400;
    }
    dfd = open(web_cfg.results_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    fd = dfd < 0 ? -1 : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (dfd >= 0)
        close(dfd);
    if (fd < 0 || fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
        if (fd >= 0)
            close(fd);
        snprintf(err, n, "no results file %s", name);
        return 404;
    }
    if (sb.st_size > RESULTS_MAX) {
        close(fd);
        snprintf(err, n, "%s is larger than %ld MiB", name, RESULTS_MAX >> 20);
        return 413;
    }
    if (!(f = follow_hold(name))) {
        close(fd);
        snprintf(err, n, "%d results files are being read now: try again", FOLLOW_CACHE);
        return 503;
    }
    pthread_mutex_lock(&f->mu);
    if (!f->live || f->dev != sb.st_dev || f->ino != sb.st_ino || sb.st_size < f->done)
        follow_reset(f, &sb);
    follow_read(f, fd, sb.st_size);
    close(fd);
    rows = json_array();
    first = since < f->count - kept(f) ? f->count - kept(f) : since < 0 ? 0 : since;
    for (long i = first; i < f->count && (long)json_array_size(rows) < RESULTS_ROWS; i++)
        json_array_append_new(rows, json_deep_copy(f->rows[i % RESULTS_KEPT]));
    o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "size", json_integer((json_int_t)sb.st_size));
    json_object_set_new(o, "partial_bytes", json_integer((json_int_t)(sb.st_size - f->done)));
    json_object_set_new(o, "bad_lines", json_integer(f->bad));
    json_object_set_new(o, "since", json_integer(since));
    json_object_set_new(o, "first", json_integer(first));
    json_object_set_new(o, "games", json_integer(f->count));
    /* A new epoch: the file was cut or replaced, its games start again. */
    json_object_set_new(o, "epoch", json_integer((json_int_t)f->epoch));
    json_object_set_new(o, "game_name", web_jtext(f->t.game_name));
    json_object_set_new(o, "table", follow_table(f));
    json_object_set_new(o, "rows", rows);
    pthread_mutex_unlock(&f->mu);
    follow_release(f);
    *out = o;
    return 200;
}
