/* report.c - medan-referee report: one self-contained HTML page of charts
 * from results files (see report.h, docs/referee.md "Pictures"). */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "outfile.h"
#include "record.h"
#include "stats.h"
#include "tune.h"

#define MAX_ENG 16
#define MAX_REASONS 24
#define MAX_OPENINGS 200
#define MAX_OPENING_ROWS 24
#define W 720               /* chart width */
#define H 260               /* chart height */
#define PADL 56             /* left margin for the axis labels */
#define PADB 34
#define MAX_MS 1000000000LL /* a think time above this (11 days) is no record's */

/* What a chart needs of one game. */
struct rgame {
    int game, nseats;
    int eng[GAME_MAX_SEATS];       /* engine index per seat */
    int outcome[GAME_MAX_SEATS];   /* 2 win, 1 draw, 0 loss */
    double score[GAME_MAX_SEATS];
    int has_scores;
    int reason;                    /* index into reasons */
    int opening;                   /* index into openings, -1 = other */
};

struct report {
    struct rgame *g;
    int n, cap;
    char eng[MAX_ENG][REF_NAME_LEN];
    int neng;
    char reason[MAX_REASONS][32];
    int nreasons;
    char opening[MAX_OPENINGS][96];
    int nopenings;
    int64_t *ms[MAX_ENG];          /* think time per move, per engine */
    int *depth[MAX_ENG];           /* depth per move (0 = not reported) */
    int nms[MAX_ENG], capms[MAX_ENG];
    char game_name[32], params[256], event[128];
    int nseats, mixed;
    char bad[160];                 /* a record that cannot be drawn */
};

static int eng_index(struct report *R, const char *name)
{
    for (int e = 0; e < R->neng; e++)
        if (strcmp(R->eng[e], name) == 0)
            return e;
    if (R->neng == MAX_ENG)
        return MAX_ENG - 1; /* the rest share the last row */
    snprintf(R->eng[R->neng], REF_NAME_LEN, "%s", name);
    return R->neng++;
}

static int reason_index(struct report *R, const char *r)
{
    for (int i = 0; i < R->nreasons; i++)
        if (strcmp(R->reason[i], r) == 0)
            return i;
    if (R->nreasons == MAX_REASONS)
        return MAX_REASONS - 1;
    snprintf(R->reason[R->nreasons], 32, "%s", r);
    return R->nreasons++;
}

static int opening_index(struct report *R, const char *o)
{
    if (!o || !*o)
        o = "start";
    for (int i = 0; i < R->nopenings; i++)
        if (strncmp(R->opening[i], o, sizeof R->opening[i] - 1) == 0)
            return i;
    if (R->nopenings == MAX_OPENINGS)
        return -1;
    snprintf(R->opening[R->nopenings], sizeof R->opening[0], "%s", o);
    return R->nopenings++;
}

static void add_move(struct report *R, int e, int64_t ms, int depth)
{
    if (R->nms[e] == R->capms[e]) {
        R->capms[e] = R->capms[e] ? 2 * R->capms[e] : 256;
        R->ms[e] = xrealloc(R->ms[e], (size_t)R->capms[e] * sizeof *R->ms[e]);
        R->depth[e] = xrealloc(R->depth[e], (size_t)R->capms[e] * sizeof *R->depth[e]);
    }
    R->ms[e][R->nms[e]] = ms;
    R->depth[e][R->nms[e]++] = depth;
}

static void take(void *ctx, const struct ref_record *r)
{
    struct report *R = ctx;
    struct rgame g;
    memset(&g, 0, sizeof g);
    if (*R->bad)
        return;
    /* Numbers are checked before anything is drawn from them. */
    for (int k = 0; k < r->nmoves; k++)
        if (r->moves[k].ms < 0 || r->moves[k].ms > MAX_MS) {
            snprintf(R->bad, sizeof R->bad, "game %d, move %d: a think time of %lld ms "
                     "(0 to %lld)", r->game, k + 1, (long long)r->moves[k].ms, MAX_MS);
            return;
        }
    for (int i = 0; i < r->nseats && r->has_scores; i++)
        if (!isfinite(r->score[i])) {
            snprintf(R->bad, sizeof R->bad, "game %d: a score that is not a number", r->game);
            return;
        }
    if (!*R->event && *r->event)
        snprintf(R->event, sizeof R->event, "%s", r->event);
    if (!R->nseats) {
        R->nseats = r->nseats;
        snprintf(R->game_name, sizeof R->game_name, "%s", r->game_name);
        snprintf(R->params, sizeof R->params, "%s", r->params);
    } else if (R->nseats != r->nseats || strcmp(R->game_name, r->game_name) != 0) {
        R->mixed = 1;
        return;
    }
    g.game = r->game;
    g.nseats = r->nseats;
    g.has_scores = r->has_scores;
    for (int i = 0; i < r->nseats; i++) {
        int best = 1, worst = 1;
        g.eng[i] = eng_index(R, r->seat_name[i]);
        g.score[i] = r->score[i];
        for (int j = 0; j < r->nseats; j++) {
            best &= r->rank[j] >= r->rank[i];
            worst &= r->rank[j] <= r->rank[i];
        }
        g.outcome[i] = best && worst ? 1 : best ? 2 : 0;
    }
    g.reason = reason_index(R, r->reason);
    g.opening = opening_index(R, r->opening);
    for (int k = 0; k < r->nmoves; k++)
        if (r->moves[k].seat >= 1 && r->moves[k].seat <= r->nseats)
            add_move(R, g.eng[r->moves[k].seat - 1], r->moves[k].ms, r->moves[k].depth);
    if (R->n == R->cap) {
        R->cap = R->cap ? 2 * R->cap : 256;
        R->g = xrealloc(R->g, (size_t)R->cap * sizeof *R->g);
    }
    R->g[R->n++] = g;
}

static int by_game(const void *a, const void *b)
{
    const struct rgame *x = a, *y = b;
    return (x->game > y->game) - (x->game < y->game);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Number the engines in the order they first play in the schedule (seat 1
 * of game 1 first), not in the order games finished. */
static void renumber(struct report *R)
{
    int map[MAX_ENG], next = 0;
    char names[MAX_ENG][REF_NAME_LEN];
    int64_t *ms[MAX_ENG];
    int *dep[MAX_ENG], nms[MAX_ENG], cap[MAX_ENG];
    for (int e = 0; e < MAX_ENG; e++)
        map[e] = -1;
    for (int i = 0; i < R->n; i++)
        for (int s = 0; s < R->g[i].nseats; s++)
            if (map[R->g[i].eng[s]] < 0)
                map[R->g[i].eng[s]] = next++;
    for (int e = 0; e < R->neng; e++)
        if (map[e] < 0)
            map[e] = next++;
    for (int e = 0; e < R->neng; e++) {
        memcpy(names[map[e]], R->eng[e], REF_NAME_LEN);
        ms[map[e]] = R->ms[e];
        dep[map[e]] = R->depth[e];
        nms[map[e]] = R->nms[e];
        cap[map[e]] = R->capms[e];
    }
    for (int e = 0; e < R->neng; e++) {
        memcpy(R->eng[e], names[e], REF_NAME_LEN);
        R->ms[e] = ms[e];
        R->depth[e] = dep[e];
        R->nms[e] = nms[e];
        R->capms[e] = cap[e];
    }
    for (int i = 0; i < R->n; i++)
        for (int s = 0; s < R->g[i].nseats; s++)
            R->g[i].eng[s] = map[R->g[i].eng[s]];
}

/* ---- SVG helpers -------------------------------------------------------- */

static const char *colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
#define COLOUR(i) colour[(i) % 8]

/* The length of the UTF-8 character at s, 0 if s does not start one
 * (a stray byte, an overlong form, a surrogate, above U+10FFFF). */
static int utf8_len(const unsigned char *s)
{
    unsigned cp;
    int n;
    if (s[0] < 0x80)
        return 1;
    n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4)
        return 0;
    cp = s[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Text from outside (results files, the command line) into the page, for
 * every place the report puts such text: HTML text, a quoted attribute
 * value, SVG (XML) text.  & < > " ' become references; control characters
 * and bytes that are not UTF-8 become U+FFFD.  At most max characters, the
 * last ones (max < 0: all). */
static void esc_tail(FILE *f, const char *str, int max)
{
    const unsigned char *s = (const unsigned char *)str;
    int count = 0;
    for (const unsigned char *p = s; *p; p += utf8_len(p) ? utf8_len(p) : 1)
        count++;
    for (; *s; count--) {
        int n = utf8_len(s);
        if (max >= 0 && count > max) {
            s += n ? n : 1;
            continue;
        }
        if (!n || (*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7f ||
            (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)) /* C1 controls */
            fputs("\xef\xbf\xbd", f);
        else if (n > 1)
            fwrite(s, 1, (size_t)n, f);
        else
            switch (*s) {
            case '&': fputs("&amp;", f); break;
            case '<': fputs("&lt;", f); break;
            case '>': fputs("&gt;", f); break;
            case '"': fputs("&quot;", f); break;
            case '\'': fputs("&#39;", f); break;
            default: fputc(*s, f);
            }
        s += n ? n : 1;
    }
}

static void esc(FILE *f, const char *s) { esc_tail(f, s, -1); }

struct axes {
    double x0, x1, y0, y1;
};

static double px(const struct axes *a, double x)
{
    return PADL + (x - a->x0) / (a->x1 - a->x0) * (W - PADL - 10);
}

static double py(const struct axes *a, double y)
{
    return 10 + (a->y1 - y) / (a->y1 - a->y0) * (H - 10 - PADB);
}

/* A "nice" tick step for a range. */
static double tick_step(double range)
{
    double s = pow(10, floor(log10(range > 0 ? range : 1))), r = range / s;
    return r > 5 ? 2 * s : r > 2 ? s : r > 1 ? s / 2 : s / 5;
}

static void svg_open(FILE *f, const struct axes *a, const char *xlabel,
                     const char *ylabel)
{
    double st;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" role=\"img\">\n", W, H, W, H);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    st = tick_step(a->y1 - a->y0);
    for (double y = ceil(a->y0 / st) * st; y <= a->y1 + 1e-9; y += st)
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
                   "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%g</text>\n",
                PADL, W - 10, py(a, y), py(a, y), PADL - 4, py(a, y) + 4, fabs(y) < 1e-9 ? 0 : y);
    st = tick_step(a->x1 - a->x0);
    for (double x = ceil(a->x0 / st) * st; x <= a->x1 + 1e-9; x += st)
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%g</text>\n",
                px(a, x), H - PADB + 14, x);
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", PADL,
            W - 10, H - PADB, H - PADB);
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"10\" y2=\"%d\" stroke=\"#333\"/>\n", PADL, PADL,
            H - PADB);
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lab\" text-anchor=\"middle\">%s</text>\n",
            (W + PADL) / 2, H - 4, xlabel);
    fprintf(f, "<text x=\"12\" y=\"%d\" class=\"lab\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 12 %d)\">%s</text>\n", (H - PADB) / 2, (H - PADB) / 2, ylabel);
}

static void hline(FILE *f, const struct axes *a, double y, const char *col, const char *label)
{
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
               "stroke-dasharray=\"5 4\"/>", PADL, W - 10, py(a, y), py(a, y), col);
    if (label)
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\" fill=\"%s\">%s</text>",
                W - 12, py(a, y) - 4, col, label);
    fputc('\n', f);
}

/* ---- the charts --------------------------------------------------------- */

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Elo of engine 0 against engine 1 after each game, with its band. */
static void chart_elo(FILE *f, const struct report *R)
{
    int w = 0, l = 0, d = 0, k = 0;
    double *e = xcalloc((size_t)R->n + 1, sizeof *e), *lo = xcalloc((size_t)R->n + 1, sizeof *lo),
           *hi = xcalloc((size_t)R->n + 1, sizeof *hi), ymax = 50;
    struct axes a;
    for (int i = 0; i < R->n; i++) {
        const struct rgame *g = &R->g[i];
        int s0 = g->eng[0] == 0 ? 0 : 1;
        struct ref_elo el;
        if (g->outcome[s0] == 2)
            w++;
        else if (g->outcome[s0] == 1)
            d++;
        else
            l++;
        ref_elo_trinomial(w, l, d, &el);
        e[k] = clampd(el.elo, -800, 800);
        lo[k] = clampd(isnan(el.lo) ? -800 : el.lo, -800, 800);
        hi[k] = clampd(isnan(el.hi) ? 800 : el.hi, -800, 800);
        if (k >= R->n / 10 || k >= 20) /* the scale from the settled part */
            ymax = fmax(ymax, fmax(fabs(lo[k]), fabs(hi[k])));
        k++;
    }
    ymax = fmin(ceil(ymax * 1.1 / 100) * 100, 800);
    a = (struct axes){1, k > 1 ? k : 2, -ymax, ymax};
    fprintf(f, "<h2>Elo of ");
    esc(f, R->eng[0]);
    fprintf(f, " against ");
    esc(f, R->eng[1]);
    fprintf(f, " over the games</h2>\n");
    svg_open(f, &a, "games", "Elo");
    fprintf(f, "<polygon fill=\"%s\" fill-opacity=\"0.18\" points=\"", COLOUR(0));
    for (int i = 0; i < k; i++)
        fprintf(f, "%.1f,%.1f ", px(&a, i + 1), py(&a, clampd(hi[i], -ymax, ymax)));
    for (int i = k - 1; i >= 0; i--)
        fprintf(f, "%.1f,%.1f ", px(&a, i + 1), py(&a, clampd(lo[i], -ymax, ymax)));
    fprintf(f, "\"/>\n");
    hline(f, &a, 0, "#666", NULL);
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", COLOUR(0));
    for (int i = 0; i < k; i++)
        fprintf(f, "%.1f,%.1f ", px(&a, i + 1), py(&a, clampd(e[i], -ymax, ymax)));
    fprintf(f, "\"/>\n</svg>\n<p class=\"note\">The line is the Elo difference from the games "
               "so far (trinomial), the band its 95%% interval (clipped at &plusmn;%.0f). "
               "Final: %+.1f [%+.1f, %+.1f].</p>\n", ymax, k ? e[k - 1] : 0,
            k ? lo[k - 1] : 0, k ? hi[k - 1] : 0);
    free(e);
    free(lo);
    free(hi);
}

/* The SPRT's LLR after each completed pair, with its bounds. */
static void chart_sprt(FILE *f, const struct report *R, const struct ref_sprt *sp)
{
    int p[5] = {0}, k = 0, dec = 0;
    double *llr = xcalloc((size_t)R->n / 2 + 2, sizeof *llr), lob, hib, ymin, ymax;
    struct axes a;
    ref_sprt_bounds(sp, &lob, &hib);
    for (int i = 0; i + 1 < R->n; i++) {
        const struct rgame *x = &R->g[i], *y = &R->g[i + 1];
        int pts;
        if ((x->game - 1) / 2 != (y->game - 1) / 2 || x->game == y->game)
            continue;
        pts = x->outcome[x->eng[0] == 0 ? 0 : 1] + y->outcome[y->eng[0] == 0 ? 0 : 1];
        p[pts]++;
        llr[k++] = ref_sprt_llr(sp, p);
        i++;
    }
    ymin = lob * 1.15;
    ymax = hib * 1.15;
    for (int i = 0; i < k; i++) {
        ymin = fmin(ymin, llr[i]);
        ymax = fmax(ymax, llr[i]);
    }
    if (k)
        dec = llr[k - 1] >= hib ? 1 : llr[k - 1] <= lob ? -1 : 0;
    a = (struct axes){1, k > 1 ? k : 2, ymin, ymax};
    fprintf(f, "<h2>SPRT (elo0=%g elo1=%g alpha=%g beta=%g%s)</h2>\n", sp->elo0, sp->elo1,
            sp->alpha, sp->beta, sp->model == REF_SPRT_NORMALIZED ? ", normalized" : "");
    svg_open(f, &a, "pairs", "LLR");
    hline(f, &a, hib, "#2ca02c", "H1");
    hline(f, &a, lob, "#d62728", "H0");
    hline(f, &a, 0, "#999", NULL);
    fprintf(f, "<polyline fill=\"none\" stroke=\"#333\" stroke-width=\"2\" points=\"");
    for (int i = 0; i < k; i++)
        fprintf(f, "%.1f,%.1f ", px(&a, i + 1), py(&a, llr[i]));
    fprintf(f, "\"/>\n</svg>\n<p class=\"note\">LLR %.2f after %d pairs, bounds [%.2f, %.2f]: "
               "%s.</p>\n", k ? llr[k - 1] : 0, k, lob, hib,
            dec > 0 ? "H1 accepted" : dec < 0 ? "H0 accepted" : "continue");
    free(llr);
}

/* Engine 0's score by opening, as bars, with the game count. */
static void chart_openings(FILE *f, const struct report *R)
{
    double pts[MAX_OPENINGS] = {0};
    int cnt[MAX_OPENINGS] = {0}, rows = 0, other = 0, bh = 18;
    for (int i = 0; i < R->n; i++) {
        const struct rgame *g = &R->g[i];
        if (g->opening < 0) {
            other++;
            continue;
        }
        cnt[g->opening]++;
        pts[g->opening] += g->outcome[g->eng[0] == 0 ? 0 : 1] / 2.0;
    }
    for (int o = 0; o < R->nopenings; o++)
        rows += cnt[o] > 0;
    if (rows > MAX_OPENING_ROWS) {
        for (int o = 0, shown = 0; o < R->nopenings; o++)
            if (cnt[o] && ++shown > MAX_OPENING_ROWS) {
                other += cnt[o];
                cnt[o] = 0;
            }
        rows = MAX_OPENING_ROWS;
    }
    fprintf(f, "<h2>Score of ");
    esc(f, R->eng[0]);
    fprintf(f, " by opening</h2>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", W,
            rows * bh + 24);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, rows * bh + 24);
    rows = 0;
    for (int o = 0; o < R->nopenings; o++) {
        double s;
        int y;
        if (!cnt[o])
            continue;
        s = pts[o] / cnt[o];
        y = 4 + rows++ * bh;
        fprintf(f, "<text x=\"0\" y=\"%d\" class=\"tick\">", y + 13);
        esc_tail(f, R->opening[o], 44);
        fprintf(f, "</text><rect x=\"330\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>"
                   "<text x=\"%.1f\" y=\"%d\" class=\"tick\">%.0f%% of %d</text>\n",
                y + 2, s * 300, bh - 4, COLOUR(0), 336 + s * 300, y + 13, 100 * s, cnt[o]);
    }
    fprintf(f, "<line x1=\"480\" x2=\"480\" y1=\"0\" y2=\"%d\" stroke=\"#666\" "
               "stroke-dasharray=\"4 3\"/>\n</svg>\n", rows * bh + 4);
    if (other)
        fprintf(f, "<p class=\"note\">%d games from further openings are not shown.</p>\n", other);
}

/* Endings per engine and seat: wins, draws and losses by reason. */
static void table_endings(FILE *f, const struct report *R)
{
    static const char *what[3] = {"losses", "draws", "wins"};
    fprintf(f, "<h2>Endings per engine and seat</h2>\n<table><tr><th>engine</th><th>seat</th>"
               "<th>games</th><th>wins</th><th>draws</th><th>losses</th><th>how</th></tr>\n");
    for (int e = 0; e < R->neng; e++)
        for (int s = 0; s < R->nseats; s++) {
            int n = 0, by[3][MAX_REASONS] = {{0}}, tot[3] = {0};
            for (int i = 0; i < R->n; i++)
                if (R->g[i].eng[s] == e) {
                    n++;
                    by[R->g[i].outcome[s]][R->g[i].reason]++;
                    tot[R->g[i].outcome[s]]++;
                }
            if (!n)
                continue;
            fprintf(f, "<tr><td>");
            esc(f, R->eng[e]);
            fprintf(f, "</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>", s + 1, n,
                    tot[2], tot[1], tot[0]);
            /* A stacked bar: wins (green), draws (grey), losses (red),
             * one segment per reason. */
            fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"14\">");
            {
                double x = 0;
                static const char *shade[3] = {"#d62728", "#9a9a9a", "#2ca02c"};
                for (int o = 2; o >= 0; o--)
                    for (int r = 0; r < R->nreasons; r++)
                        if (by[o][r]) {
                            double wd = 300.0 * by[o][r] / n;
                            fprintf(f, "<rect x=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\" "
                                       "stroke=\"#fff\"><title>%s ", x, wd, shade[o], what[o]);
                            esc(f, R->reason[r]);
                            fprintf(f, ": %d</title></rect>", by[o][r]);
                            x += wd;
                        }
            }
            fprintf(f, "</svg> ");
            for (int o = 2; o >= 0; o--)
                for (int r = 0; r < R->nreasons; r++)
                    if (by[o][r]) {
                        fprintf(f, "<span class=\"%c\">", what[o][0]);
                        esc(f, R->reason[r]);
                        fprintf(f, " %d</span> ", by[o][r]);
                    }
            fprintf(f, "</td></tr>\n");
        }
    fprintf(f, "</table>\n");
}

/* A histogram per engine of int64 values (think times or depths). */
static void chart_hist(FILE *f, const struct report *R, int depth, const char *title,
                       const char *xlabel)
{
    int64_t hi = 1, *v[MAX_ENG];
    int nv[MAX_ENG], nb = 24, any = 0;
    double bw, maxc = 1, off;
    int *cnt[MAX_ENG];
    struct axes a;
    for (int e = 0; e < R->neng; e++) {
        v[e] = xmalloc(((size_t)R->nms[e] + 1) * sizeof *v[e]);
        nv[e] = 0;
        for (int i = 0; i < R->nms[e]; i++)
            if (!depth)
                v[e][nv[e]++] = R->ms[e][i];
            else if (R->depth[e][i] > 0)
                v[e][nv[e]++] = R->depth[e][i];
        qsort(v[e], (size_t)nv[e], sizeof *v[e], cmp_i64);
        if (nv[e]) {
            any = 1;
            /* The 99th percentile sets the scale (one long think would
             * squash the rest); the last bin holds everything above. */
            hi = v[e][(nv[e] - 1) * 99 / 100] > hi ? v[e][(nv[e] - 1) * 99 / 100] : hi;
        }
    }
    fprintf(f, "<h2>%s</h2>\n", title);
    if (!any) {
        fprintf(f, "<p class=\"note\">%s</p>\n",
                depth ? "These records have no depths (records of this referee version carry "
                        "the depth of each move's last info line)."
                      : "No moves in these records.");
        for (int e = 0; e < R->neng; e++)
            free(v[e]);
        return;
    }
    if (depth) {
        nb = (int)hi + 1;
        bw = 1;
    } else
        bw = ceil((double)(hi + 1) / nb);
    for (int e = 0; e < R->neng; e++) {
        cnt[e] = xcalloc((size_t)nb, sizeof *cnt[e]);
        for (int i = 0; i < nv[e]; i++) {
            int b = (int)(v[e][i] / bw);
            cnt[e][b < nb ? b : nb - 1]++;
        }
        for (int b = 0; b < nb; b++)
            if (nv[e] && 100.0 * cnt[e][b] / nv[e] > maxc)
                maxc = 100.0 * cnt[e][b] / nv[e];
    }
    /* Depth bins are centred on their depth, time bins start at theirs. */
    off = depth ? 0.5 : 0;
    a = (struct axes){-off, nb * bw - off, 0, maxc * 1.1};
    svg_open(f, &a, xlabel, "% of moves");
    for (int e = 0; e < R->neng; e++) {
        double bwpx = (px(&a, bw) - px(&a, 0)) / R->neng;
        for (int b = 0; b < nb && nv[e]; b++) {
            double c = 100.0 * cnt[e][b] / nv[e];
            if (cnt[e][b]) {
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                           "<title>", px(&a, b * bw - off) + e * bwpx, py(&a, c),
                        bwpx > 1 ? bwpx - 0.5 : bwpx, py(&a, 0) - py(&a, c), COLOUR(e));
                esc(f, R->eng[e]);
                fprintf(f, ": %d moves</title></rect>\n", cnt[e][b]);
            }
        }
    }
    fprintf(f, "</svg>\n<p class=\"note\">");
    for (int e = 0; e < R->neng; e++) {
        if (!nv[e])
            continue;
        fprintf(f, "<span style=\"color:%s\">&#9632;</span> ", COLOUR(e));
        esc(f, R->eng[e]);
        fprintf(f, ": %d moves, median %lld, 99th percentile %lld%s. ", nv[e],
                (long long)v[e][nv[e] / 2], (long long)v[e][(nv[e] - 1) * 99 / 100],
                depth ? "" : " ms");
    }
    if (!depth)
        fprintf(f, "The last bin holds every longer move.");
    fprintf(f, "</p>\n");
    for (int e = 0; e < R->neng; e++) {
        free(v[e]);
        free(cnt[e]);
    }
}

/* N seats: mean score and win rate per engine, as bars. */
static void table_nseat(FILE *f, const struct report *R)
{
    fprintf(f, "<h2>Results per engine</h2>\n<table><tr><th>engine</th><th>games</th>"
               "<th>first places</th><th>mean score</th></tr>\n");
    for (int e = 0; e < R->neng; e++) {
        int n = 0, wins = 0;
        double sc = 0;
        for (int i = 0; i < R->n; i++)
            for (int s = 0; s < R->g[i].nseats; s++)
                if (R->g[i].eng[s] == e) {
                    n++;
                    wins += R->g[i].outcome[s] == 2;
                    sc += R->g[i].has_scores ? R->g[i].score[s] : 0;
                }
        fprintf(f, "<tr><td>");
        esc(f, R->eng[e]);
        fprintf(f, "</td><td>%d</td><td>%d (%.1f%%)</td><td>%.2f</td></tr>\n", n, wins,
                n ? 100.0 * wins / n : 0, n ? sc / n : 0);
    }
    fprintf(f, "</table>\n");
}

/* Two seats, more than two engines (a tournament): Elo per engine with
 * its interval and rank range, and the crosstable. */
static void table_tournament(FILE *f, const struct report *R)
{
    int n = R->neng, best[MAX_ENG], worst[MAX_ENG];
    double games[MAX_ENG * MAX_ENG] = {0}, points[MAX_ENG * MAX_ENG] = {0};
    double elo[MAX_ENG], lo[MAX_ENG], hi[MAX_ENG];
    for (int i = 0; i < R->n; i++) {
        const struct rgame *g = &R->g[i];
        int a = g->eng[0], b = g->eng[1];
        if (a == b)
            continue;
        games[a * n + b]++;
        games[b * n + a]++;
        points[a * n + b] += g->outcome[0] / 2.0;
        points[b * n + a] += g->outcome[1] / 2.0;
    }
    ref_tournament_ratings(n, games, points, elo, lo, hi, best, worst);
    fprintf(f, "<h2>Ratings</h2>\n<table><tr><th>engine</th><th>games</th><th>points</th>"
               "<th>Elo</th><th>95%% interval</th><th>ranks</th></tr>\n");
    for (int e = 0; e < n; e++) {
        double gs = 0, ps = 0;
        for (int o = 0; o < n; o++)
            gs += games[e * n + o], ps += points[e * n + o];
        fprintf(f, "<tr><td>");
        esc(f, R->eng[e]);
        fprintf(f, "</td><td>%.0f</td><td>%g</td><td>%+.1f</td>", gs, ps, elo[e]);
        if (isnan(lo[e]))
            fprintf(f, "<td>?</td>");
        else
            fprintf(f, "<td>[%+.1f, %+.1f]</td>", lo[e], hi[e]);
        fprintf(f, "<td>%d&ndash;%d</td></tr>\n", best[e], worst[e]);
    }
    fprintf(f, "</table>\n<p class=\"note\">Maximum-likelihood logistic Elo (mean 0); ranks: "
               "the range the 95%% intervals allow.</p>\n<h2>Crosstable</h2>\n"
               "<table><tr><th></th>");
    for (int e = 0; e < n; e++) {
        fprintf(f, "<th>");
        esc(f, R->eng[e]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (int a = 0; a < n; a++) {
        fprintf(f, "<tr><th>");
        esc(f, R->eng[a]);
        fprintf(f, "</th>");
        for (int b = 0; b < n; b++)
            if (a == b || !games[a * n + b])
                fprintf(f, "<td>%s</td>", a == b ? "&ndash;" : ".");
            else
                fprintf(f, "<td>%g/%g</td>", points[a * n + b], games[a * n + b]);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n<p class=\"note\">Points of the row engine against the column "
               "engine / games.</p>\n");
}

/* SPSA (`--tune STATE`): each parameter's value over the iterations, its
 * start dashed, the y axis its [min, max]. */
static void chart_tune(FILE *f, const struct ref_tune_path *t)
{
    fprintf(f, "<h2>SPSA: the parameters over %d of %d iterations</h2>\n<p class=\"note\">",
            t->k, t->iterations);
    esc(f, t->game);
    fprintf(f, "; each parameter's value every progress interval (%d points), its "
               "start dashed.</p>\n", t->nh);
    for (int i = 0; i < t->np; i++) {
        const struct ref_tune_param *p = &t->p[i];
        struct axes a = {0, t->iterations > 0 ? t->iterations : 1, p->min, p->max};
        char lab[32];
        fprintf(f, "<h2>");
        esc(f, p->name);
        fprintf(f, "</h2>\n");
        svg_open(f, &a, "iteration", "value");
        snprintf(lab, sizeof lab, "start %g", p->start);
        hline(f, &a, p->start, "#7f7f7f", lab);
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
                COLOUR(i));
        for (int h = 0; h < t->nh; h++)
            fprintf(f, "%s%.1f,%.1f", h ? " " : "", px(&a, t->hk[h]),
                    py(&a, t->theta[(size_t)h * (size_t)t->np + (size_t)i]));
        fprintf(f, "\"/>\n");
        if (t->nh)
            fprintf(f, "<text x=\"%d\" y=\"24\" class=\"lab\">now %g</text>\n",
                    PADL + 8, t->theta[(size_t)(t->nh - 1) * (size_t)t->np + (size_t)i]);
        fprintf(f, "</svg>\n");
    }
}

void ref_report_usage(FILE *f)
{
    fprintf(f, "usage: medan-referee report RESULTS.jsonl... --html OUT.html "
               "[--sprt elo0=.. elo1=.. ...] [--title T] [--tune STATE.json]\n");
}

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "medan-referee report: %s\n", why);
    ref_report_usage(stderr);
    return 1;
}

int ref_report_main(int argc, char **argv)
{
    struct report R;
    struct ref_sprt sp;
    const char *out = NULL, *title = NULL;
    int have_sprt = 0, files = 0, rc = 1, have_tune = 0;
    struct ref_tune_path tp;
    struct ref_outfile of;
    char err[256];
    FILE *f = NULL;
    memset(&R, 0, sizeof R);
    memset(&of, 0, sizeof of);
    memset(&tp, 0, sizeof tp);
    ref_sprt_default(&sp);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
            out = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--title") == 0 && i + 1 < argc) {
            title = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--tune") == 0 && i + 1 < argc) {
            ref_tune_path_free(&tp);
            if (ref_tune_path_load(argv[++i], &tp, err, sizeof err) < 0) {
                fprintf(stderr, "medan-referee report: %s\n", err);
                goto done;
            }
            have_tune = 1;
            continue;
        }
        if (strcmp(argv[i], "--sprt") == 0) {
            have_sprt = 1;
            while (i + 1 < argc && strchr(argv[i + 1], '=') && argv[i + 1][0] != '-')
                if (ref_sprt_set(&sp, argv[++i]) < 0) {
                    rc = usage("bad --sprt setting");
                    goto done;
                }
            if (!ref_sprt_valid(&sp)) {
                rc = usage("--sprt needs 0 < alpha, beta < 0.5 and elo0 < elo1");
                goto done;
            }
            continue;
        }
        if (argv[i][0] == '-') {
            rc = usage("unknown option");
            goto done;
        }
        if (ref_record_read_file(argv[i], take, &R, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "medan-referee report: %s\n", err);
            goto done;
        }
        if (*R.bad) {
            fprintf(stderr, "medan-referee report: %s: %s\n", argv[i], R.bad);
            goto done;
        }
        files++;
    }
    if ((!files && !have_tune) || !out) {
        rc = usage(!out ? "--html OUT.html is required" : "no results file (or --tune STATE)");
        goto done;
    }
    if (files && !R.n) {
        fprintf(stderr, "medan-referee report: no games in the results\n");
        goto done;
    }
    if (R.mixed)
        fprintf(stderr, "medan-referee report: records of another game or seat count "
                        "were left out\n");
    if (R.n) /* --tune alone: no games (and R.g NULL) */
        qsort(R.g, (size_t)R.n, sizeof *R.g, by_game);
    renumber(&R);
    /* Through a temporary file: a failure leaves no half page. */
    if (ref_outfile_open(&of, out, err, sizeof err) < 0) {
        fprintf(stderr, "medan-referee report: %s\n", err);
        goto done;
    }
    f = of.f;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
    esc(f, title ? title : "Medan match report");
    fprintf(f, "</title>\n<style>\nbody{font:14px/1.4 sans-serif;margin:24px;max-width:760px;"
               "color:#222;background:#fafafa}\nh1{font-size:20px}h2{font-size:16px;"
               "margin-top:28px}\nsvg{display:block;background:#fff}td svg{display:inline-block;"
               "vertical-align:middle}\n.tick{font-size:11px;fill:#555}.lab{font-size:12px;"
               "fill:#333}\n.note{color:#555;font-size:13px}\ntable{border-collapse:collapse}"
               "td,th{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;"
               "font-size:13px}\n.w{color:#2ca02c}.d{color:#777}.l{color:#d62728}\n</style>"
               "</head><body>\n<h1>");
    esc(f, title ? title : "Medan match report");
    fprintf(f, "</h1>\n");
    if (have_tune)
        chart_tune(f, &tp);
    if (!files)
        goto page_end;
    fprintf(f, "<p>");
    esc(f, R.game_name);
    if (*R.params) {
        fputc(' ', f);
        esc(f, R.params);
    }
    if (*R.event) {
        fprintf(f, " (");
        esc(f, R.event);
        fputc(')', f);
    }
    fprintf(f, ", %d games, %d seats; engines:", R.n, R.nseats);
    for (int e = 0; e < R.neng; e++) {
        fprintf(f, "%s <span style=\"color:%s\">&#9632;</span> ", e ? "," : "", COLOUR(e));
        esc(f, R.eng[e]);
    }
    fprintf(f, ".</p>\n");
    if (R.nseats == 2 && R.neng == 2) {
        chart_elo(f, &R);
        if (have_sprt)
            chart_sprt(f, &R, &sp);
        chart_openings(f, &R);
    } else {
        if (R.nseats == 2)
            table_tournament(f, &R);
        else
            table_nseat(f, &R);
        if (have_sprt)
            fprintf(f, "<p class=\"note\">The SPRT needs two engines in a two-seat game.</p>\n");
    }
    table_endings(f, &R);
    chart_hist(f, &R, 0, "Time used per move", "ms");
    chart_hist(f, &R, 1, "Depth reached per move", "depth");
page_end:
    fprintf(f, "</body></html>\n");
    if (ref_outfile_commit(&of, err, sizeof err) < 0) {
        fprintf(stderr, "medan-referee report: %s\n", err);
        goto done;
    }
    printf("report: ");
    if (have_tune)
        printf("SPSA path of %d parameters (%d points)%s", tp.np, tp.nh, files ? ", " : "");
    if (files)
        printf("%d games", R.n);
    printf(" -> %s\n", out);
    rc = 0;
done:
    ref_outfile_discard(&of);
    for (int e = 0; e < MAX_ENG; e++) {
        free(R.ms[e]);
        free(R.depth[e]);
    }
    free(R.g);
    ref_tune_path_free(&tp);
    return rc;
}
