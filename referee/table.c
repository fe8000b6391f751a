/* table.c - match result table (see table.h). */
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats.h"

const char *const ref_fail_reason[REF_F_N] = {
    "time_forfeit", "illegal_move", "crash", "stall", "engine_error"};

void ref_table_init(struct ref_table *t) { memset(t, 0, sizeof *t); }

void ref_table_free(struct ref_table *t)
{
    free(t->eng);
    free(t->sum);
    memset(t, 0, sizeof *t);
}

int ref_table_engine(struct ref_table *t, const char *name)
{
    for (int i = 0; i < t->neng; i++)
        if (strcmp(t->eng[i].name, name) == 0)
            return i;
    t->eng = xrealloc(t->eng, (size_t)(t->neng + 1) * sizeof *t->eng);
    memset(&t->eng[t->neng], 0, sizeof *t->eng);
    snprintf(t->eng[t->neng].name, REF_NAME_LEN, "%s", name);
    return t->neng++;
}

int ref_table_has(const struct ref_table *t, int game)
{
    for (int i = 0; i < t->nsum; i++)
        if (t->sum[i].game == game)
            return 1;
    return 0;
}

int ref_table_group(const struct ref_table *t)
{
    return t->nseats > 2 ? t->nseats : 2;
}

static void count_reason(struct ref_table *t, const char *reason)
{
    for (int i = 0; i < t->reasons_n; i++)
        if (strcmp(t->reason[i], reason) == 0) {
            t->reason_count[i]++;
            return;
        }
    if (t->reasons_n < 32) {
        snprintf(t->reason[t->reasons_n], 32, "%s", reason);
        t->reason_count[t->reasons_n++] = 1;
    }
}

int ref_table_add(struct ref_table *t, const struct ref_record *r)
{
    struct ref_sum s;
    if (t->nseats && t->nseats != r->nseats)
        return -1;
    if (ref_table_has(t, r->game))
        return -1;
    if (!t->nseats) {
        t->nseats = r->nseats;
        snprintf(t->game_name, sizeof t->game_name, "%s", r->game_name);
        snprintf(t->params, sizeof t->params, "%s", r->params);
    }
    memset(&s, 0, sizeof s);
    s.game = r->game;
    s.nseats = r->nseats;
    s.has_scores = r->has_scores;
    s.forfeit = r->forfeit;
    snprintf(s.reason, sizeof s.reason, "%s", r->reason);
    for (int i = 0; i < r->nseats; i++) {
        int e = ref_table_engine(t, r->seat_name[i]);
        int best = 1, worst = 1;
        s.eng[i] = e;
        s.rank[i] = r->rank[i];
        s.score[i] = r->score[i];
        for (int j = 0; j < r->nseats; j++) {
            if (r->rank[j] < r->rank[i])
                best = 0;
            if (r->rank[j] > r->rank[i])
                worst = 0;
        }
        t->eng[e].games++;
        for (int k = 0; k < r->nmoves; k++)
            if (r->moves[k].seat == i + 1 && r->moves[k].ponderhit) {
                t->eng[e].ponders++;
                t->eng[e].ponderhits += r->moves[k].ponderhit > 0;
            }
        /* A win is a (possibly shared) first place unless everyone is
         * first (a draw); a loss is anything else below first. */
        if (best && worst)
            t->eng[e].draws++;
        else if (best)
            t->eng[e].wins++;
        else
            t->eng[e].losses++;
    }
    if (r->forfeit >= 1 && r->forfeit <= r->nseats)
        for (int k = 0; k < REF_F_N; k++)
            if (strcmp(r->reason, ref_fail_reason[k]) == 0)
                t->eng[s.eng[r->forfeit - 1]].fails[k]++;
    count_reason(t, r->reason);
    if (t->nsum == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->sum = xrealloc(t->sum, (size_t)t->cap * sizeof *t->sum);
    }
    t->sum[t->nsum++] = s;
    return 0;
}

/* Points of engine a in a two-seat game (0, 0.5, 1), -1 if not playing
 * against b. */
static double points(const struct ref_sum *s, int a, int b)
{
    int ia = -1, ib = -1;
    if (s->nseats != 2)
        return -1;
    for (int i = 0; i < 2; i++) {
        if (s->eng[i] == a)
            ia = i;
        if (s->eng[i] == b)
            ib = i;
    }
    if (ia < 0 || ib < 0 || ia == ib)
        return -1;
    if (s->rank[ia] == s->rank[ib])
        return 0.5;
    return s->rank[ia] < s->rank[ib] ? 1 : 0;
}

static int cmp_game(const void *x, const void *y)
{
    const struct ref_sum *a = x, *b = y;
    return (a->game > b->game) - (a->game < b->game);
}

void ref_table_penta(const struct ref_table *t, int a, int b, int p[5])
{
    struct ref_sum *s;
    memset(p, 0, 5 * sizeof *p);
    if (t->nsum == 0)
        return;
    s = xmalloc((size_t)t->nsum * sizeof *s);
    memcpy(s, t->sum, (size_t)t->nsum * sizeof *s);
    qsort(s, (size_t)t->nsum, sizeof *s, cmp_game);
    for (int i = 0; i + 1 < t->nsum; i++) {
        double x, y;
        /* games 2k+1 and 2k+2 are a pair (same opening, seats swapped) */
        if (s[i].game % 2 != 1 || s[i + 1].game != s[i].game + 1)
            continue;
        x = points(&s[i], a, b);
        y = points(&s[i + 1], a, b);
        if (x < 0 || y < 0)
            continue;
        p[(int)lround((x + y) * 2)]++;
        i++;
    }
    free(s);
}

int ref_table_sprt_prefix(const struct ref_table *t, int a, int b,
                          const struct ref_sprt *sprt, int upto, int *at,
                          double *llr, int p[5])
{
    struct ref_sum *s = NULL;
    int dec = 0, i;
    memset(p, 0, 5 * sizeof *p);
    *at = 0;
    *llr = ref_sprt_llr(sprt, p);
    if (t->nsum == 0)
        return 0;
    s = xmalloc((size_t)t->nsum * sizeof *s);
    memcpy(s, t->sum, (size_t)t->nsum * sizeof *s);
    qsort(s, (size_t)t->nsum, sizeof *s, cmp_game);
    /* games 1, 2, 3 ... in order while there is no gap */
    for (i = 0; i < t->nsum && s[i].game == i + 1 && s[i].game <= upto; i++) {
        *at = s[i].game;
        if (s[i].game % 2 == 0) {
            double x = points(&s[i - 1], a, b), y = points(&s[i], a, b);
            if (x >= 0 && y >= 0) {
                p[(int)lround((x + y) * 2)]++;
                if ((dec = ref_sprt_decide(sprt, p, llr)) != 0)
                    break;
            }
        }
    }
    free(s);
    return dec;
}

void ref_table_wld(const struct ref_table *t, int a, int b, int *w, int *l,
                   int *d)
{
    *w = *l = *d = 0;
    for (int i = 0; i < t->nsum; i++) {
        double x = points(&t->sum[i], a, b);
        if (x == 1)
            (*w)++;
        else if (x == 0)
            (*l)++;
        else if (x == 0.5)
            (*d)++;
    }
}

static double nz(double x) { return fabs(x) < 0.05 ? 0.0 : x; }

void ref_fmt_elo1(char *b, size_t n, double x)
{
    if (isnan(x))
        snprintf(b, n, "?");
    else if (isinf(x))
        snprintf(b, n, "%s", x > 0 ? "+inf" : "-inf");
    else
        snprintf(b, n, "%+.1f", nz(x));
}

/* "+585.0 [+427.0, +inf]": each bound printed on its own, so a finite
 * bound stays visible when the other is infinite. */
static void fmt_elo(char *b, size_t n, const struct ref_elo *e)
{
    char x[24], lo[24], hi[24];
    ref_fmt_elo1(x, sizeof x, e->elo);
    ref_fmt_elo1(lo, sizeof lo, e->lo);
    ref_fmt_elo1(hi, sizeof hi, e->hi);
    if (isinf(e->elo) && e->lo == e->elo && e->hi == e->elo)
        snprintf(b, n, "%s (every game won by one side: no interval)", x);
    else
        snprintf(b, n, "%s [%s, %s]", x, lo, hi);
}

/* One figure as cutechess prints it (Qt's 'f' format): "190.8", "inf",
 * "-inf", "nan"; never "-0.0" nor "-nan". */
static void cc_num(char *b, size_t n, double x)
{
    if (isnan(x))
        snprintf(b, n, "nan");
    else if (isinf(x))
        snprintf(b, n, "%s", x > 0 ? "inf" : "-inf");
    else
        snprintf(b, n, "%.1f", fabs(x) < 0.05 ? 0.0 : x);
}

void ref_fmt_cc_line(char *b, size_t n, int w, int l, int d)
{
    struct ref_cc c;
    char e[32], m[32], los[32], dr[32];
    ref_elo_cutechess(w, l, d, &c);
    cc_num(e, sizeof e, c.elo);
    cc_num(m, sizeof m, c.margin);
    cc_num(los, sizeof los, c.los);
    cc_num(dr, sizeof dr, c.draw_ratio);
    snprintf(b, n, "Elo difference: %s +/- %s, LOS: %s %%, DrawRatio: %s %%", e, m,
             los, dr);
}

static void print_twoseat(const struct ref_table *t,
                          const struct ref_sprt *sprt, FILE *f)
{
    int w, l, d, p[5], pairs = 0;
    struct ref_elo e;
    char eb[160];
    if (t->neng != 2)
        return;
    ref_table_wld(t, 0, 1, &w, &l, &d);
    ref_table_penta(t, 0, 1, p);
    for (int k = 0; k < 5; k++)
        pairs += p[k];
    if (w + l + d == 0)
        return;
    fprintf(f, "\n%s vs %s: %d - %d - %d  [%.3f]  %d games\n", t->eng[0].name,
            t->eng[1].name, w, l, d, (w + 0.5 * d) / (w + l + d), w + l + d);
    ref_elo_trinomial(w, l, d, &e);
    fmt_elo(eb, sizeof eb, &e);
    fprintf(f, "Elo difference (games):  %s\n", eb);
    if (pairs) {
        ref_elo_pentanomial(p, &e);
        fmt_elo(eb, sizeof eb, &e);
        fprintf(f, "Elo difference (pairs):  %s\n", eb);
    }
    fprintf(f, "LOS: %.1f %%\n", 100 * ref_los(w, l));
    fprintf(f, "Pairs (pentanomial 0-0.5-1-1.5-2): [%d, %d, %d, %d, %d]  %d pairs\n",
            p[0], p[1], p[2], p[3], p[4], pairs);
    if (sprt) {
        double llr, lo, hi;
        int dec = ref_sprt_decide(sprt, p, &llr);
        ref_sprt_bounds(sprt, &lo, &hi);
        fprintf(f, "SPRT (elo0=%g elo1=%g alpha=%g beta=%g): LLR %.2f [%.2f, %.2f] %s\n",
                sprt->elo0, sprt->elo1, sprt->alpha, sprt->beta, llr, lo, hi,
                dec > 0 ? "H1 accepted" : dec < 0 ? "H0 accepted" : "continue");
    }
    /* The closing line as cutechess-cli prints it, for scripts that read
     * it. */
    ref_fmt_cc_line(eb, sizeof eb, w, l, d);
    fprintf(f, "%s\n", eb);
}

/* N seats: per engine, per deal means of chips and wins, then the mean
 * and interval over deals. */
static void print_nseat(const struct ref_table *t, FILE *f)
{
    int g = ref_table_group(t), maxdeal = 0;
    for (int i = 0; i < t->nsum; i++)
        if ((t->sum[i].game - 1) / g + 1 > maxdeal)
            maxdeal = (t->sum[i].game - 1) / g + 1;
    fprintf(f, "\n%-20s %6s %22s %22s\n", "engine (over deals)", "deals",
            "mean score [95%]", "win rate [95%]");
    for (int e = 0; e < t->neng; e++) {
        double *sc = xcalloc((size_t)maxdeal, sizeof *sc),
               *wn = xcalloc((size_t)maxdeal, sizeof *wn);
        int *cnt = xcalloc((size_t)maxdeal, sizeof *cnt), nd = 0;
        double ms, hs, mw, hw;
        for (int i = 0; i < t->nsum; i++) {
            const struct ref_sum *s = &t->sum[i];
            int deal = (s->game - 1) / g;
            for (int k = 0; k < s->nseats; k++) {
                int best = 1;
                if (s->eng[k] != e)
                    continue;
                for (int j = 0; j < s->nseats; j++)
                    if (s->rank[j] < s->rank[k])
                        best = 0;
                sc[deal] += s->has_scores ? s->score[k] : 0;
                wn[deal] += best;
                cnt[deal]++;
            }
        }
        for (int d = 0; d < maxdeal; d++)
            if (cnt[d]) {
                sc[nd] = sc[d] / cnt[d];
                wn[nd] = wn[d] / cnt[d];
                nd++;
            }
        ref_mean_ci(sc, nd, &ms, &hs);
        ref_mean_ci(wn, nd, &mw, &hw);
        fprintf(f, "%-20s %6d %12.2f +- %-7.2f %12.3f +- %-7.3f\n",
                t->eng[e].name, nd, ms, hs, mw, hw);
        free(sc);
        free(wn);
        free(cnt);
    }
}

void ref_table_crosstable(const struct ref_table *t, FILE *f)
{
    int n = t->neng, *order, *best, *worst, *ng;
    double *games, *won, *elo, *lo, *hi, *pt;
    if (n < 3 || t->nseats != 2)
        return;
    if (n > REF_CROSSTABLE_MAX) {
        fprintf(f, "\nRatings and crosstable: not shown for %d engines (at most %d)\n", n,
                REF_CROSSTABLE_MAX);
        return;
    }
    games = xcalloc((size_t)n * n, sizeof *games);
    won = xcalloc((size_t)n * n, sizeof *won);
    elo = xcalloc((size_t)n, sizeof *elo);
    lo = xcalloc((size_t)n, sizeof *lo);
    hi = xcalloc((size_t)n, sizeof *hi);
    pt = xcalloc((size_t)n, sizeof *pt);
    ng = xcalloc((size_t)n, sizeof *ng);
    order = xcalloc((size_t)n, sizeof *order);
    best = xcalloc((size_t)n, sizeof *best);
    worst = xcalloc((size_t)n, sizeof *worst);
    /* one pass over the games (each pair's meetings counted from both
     * sides): n engines and G games cost n*n + G, not n*n*G */
    for (int i = 0; i < t->nsum; i++) {
        const struct ref_sum *s = &t->sum[i];
        int x = s->eng[0], y = s->eng[1];
        double px = points(s, x, y);
        if (px < 0)
            continue;
        games[x * n + y]++;
        games[y * n + x]++;
        won[x * n + y] += px;
        won[y * n + x] += 1 - px;
        pt[x] += px;
        pt[y] += 1 - px;
        ng[x]++;
        ng[y]++;
    }
    ref_tournament_ratings(n, games, won, elo, lo, hi, best, worst);
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* by Elo, best first (insertion sort: n is small; ties keep order) */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && elo[order[j]] > elo[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    fprintf(f, "\nRatings (%d engines; maximum-likelihood logistic Elo, mean 0; "
               "ranks: the range the 95%% intervals allow)\n", n);
    fprintf(f, "%4s  %-20s %6s %7s %7s %9s %18s %6s\n", "rank", "engine",
            "games", "points", "score%", "Elo", "[95%]", "ranks");
    for (int k = 0; k < n; k++) {
        int i = order[k];
        char e[24], l[24], h[24], iv[56], rr[16];
        ref_fmt_elo1(e, sizeof e, elo[i]);
        ref_fmt_elo1(l, sizeof l, lo[i]);
        ref_fmt_elo1(h, sizeof h, hi[i]);
        snprintf(iv, sizeof iv, "[%s, %s]", l, h);
        if (best[i] == worst[i])
            snprintf(rr, sizeof rr, "%d", best[i]);
        else
            snprintf(rr, sizeof rr, "%d-%d", best[i], worst[i]);
        fprintf(f, "%4d  %-20s %6d %7.1f %6.1f%% %9s %18s %6s\n", k + 1,
                t->eng[i].name, ng[i], pt[i],
                ng[i] ? 100.0 * pt[i] / ng[i] : 0.0, e, iv, rr);
    }
    fprintf(f, "\nCrosstable (points of the row engine against the column "
               "engine / games)\n%-20s", "");
    for (int k = 0; k < n; k++)
        fprintf(f, " %12.12s", t->eng[order[k]].name);
    fputc('\n', f);
    for (int r = 0; r < n; r++) {
        int a = order[r];
        fprintf(f, "%-20s", t->eng[a].name);
        for (int c = 0; c < n; c++) {
            int b = order[c];
            char cell[32];
            if (a == b)
                snprintf(cell, sizeof cell, "-");
            else if (!games[a * n + b])
                snprintf(cell, sizeof cell, ".");
            else
                snprintf(cell, sizeof cell, "%g/%g", won[a * n + b],
                         games[a * n + b]);
            fprintf(f, " %12s", cell);
        }
        fputc('\n', f);
    }
    free(games);
    free(won);
    free(elo);
    free(lo);
    free(hi);
    free(pt);
    free(ng);
    free(order);
    free(best);
    free(worst);
}

void ref_table_print_rating(const struct ref_table *t,
                            const struct ref_sprt *sprt, FILE *f)
{
    if (!t->nsum)
        return;
    if (t->nseats == 2 && t->neng == 2) {
        int w, l, d;
        char b[160];
        ref_table_wld(t, 0, 1, &w, &l, &d);
        ref_fmt_cc_line(b, sizeof b, w, l, d);
        fprintf(f, "%s\n", b);
        if (sprt) {
            int p[5], dec;
            double llr, lo, hi;
            ref_table_penta(t, 0, 1, p);
            dec = ref_sprt_decide(sprt, p, &llr);
            ref_sprt_bounds(sprt, &lo, &hi);
            fprintf(f, "SPRT: llr %.3g (%.1f%%), lbound %.3g, ubound %.3g%s\n", llr,
                    llr / hi * 100, lo, hi,
                    dec > 0 ? " - H1 was accepted" : dec < 0 ? " - H0 was accepted" : "");
        }
    } else if (t->nseats == 2)
        ref_table_crosstable(t, f);
    else
        print_nseat(t, f);
    fflush(f);
}

/* One engine's count of one way of ending. */
struct outcome {
    char key[48];
    int n;
};

static int cmp_outcome(const void *x, const void *y)
{
    return strcmp(((const struct outcome *)x)->key, ((const struct outcome *)y)->key);
}

void ref_table_print_outcomes(const struct ref_table *t, FILE *f)
{
    /* at most three kinds (win, loss, draw) per reason of a game */
    struct outcome *o = xcalloc((size_t)t->nsum * 3 + 1, sizeof *o);
    for (int e = 0; e < t->neng; e++) {
        int no = 0;
        fprintf(f, "Player: %s\n", t->eng[e].name);
        for (int i = 0; i < t->nsum; i++) {
            const struct ref_sum *s = &t->sum[i];
            for (int k = 0; k < s->nseats; k++) {
                int best = 1, worst = 1, j;
                char key[48];
                if (s->eng[k] != e)
                    continue;
                for (j = 0; j < s->nseats; j++) {
                    best &= s->rank[j] >= s->rank[k];
                    worst &= s->rank[j] <= s->rank[k];
                }
                snprintf(key, sizeof key, "%s: %s",
                         best && worst ? "Draw" : best ? "Win" : "Loss", s->reason);
                for (j = 0; j < no && strcmp(o[j].key, key) != 0; j++)
                    ;
                if (j == no) {
                    snprintf(o[no].key, sizeof o[no].key, "%s", key);
                    o[no++].n = 0;
                }
                o[j].n++;
            }
        }
        qsort(o, (size_t)no, sizeof *o, cmp_outcome);
        for (int j = 0; j < no; j++)
            fprintf(f, "   \"%s\": %d\n", o[j].key, o[j].n);
    }
    free(o);
    fflush(f);
}

void ref_table_print(const struct ref_table *t, const struct ref_sprt *sprt,
                     FILE *f)
{
    if (!t->nsum) {
        fprintf(f, "\nNo games played.\n");
        return;
    }
    int anyfail = 0;
    for (int e = 0; e < t->neng; e++) {
        anyfail |= t->eng[e].restarts;
        for (int k = 0; k < REF_F_N; k++)
            anyfail |= t->eng[e].fails[k];
    }
    fprintf(f, "\nResults (game %s%s%s): %d games\n", t->game_name,
            *t->params ? " " : "", t->params, t->nsum);
    /* The forfeit columns (docs/referee.md, "Endings and failures") only
     * when some engine failed: time, illegal move, crash, stall, engine
     * error, and restarts after a crash (--recover). */
    fprintf(f, "%-20s %6s %6s %6s %6s %7s", "engine", "games", "wins", "losses",
            "draws", "score%");
    if (anyfail)
        fprintf(f, " %5s %7s %5s %5s %5s %8s", "time", "illegal", "crash", "stall",
                "error", "restarts");
    fputc('\n', f);
    for (int e = 0; e < t->neng; e++) {
        const struct ref_eng_row *r = &t->eng[e];
        fprintf(f, "%-20s %6d %6d %6d %6d %6.1f%%", r->name, r->games, r->wins,
                r->losses, r->draws,
                r->games ? 100.0 * (r->wins + 0.5 * r->draws) / r->games : 0.0);
        if (anyfail)
            fprintf(f, " %5d %7d %5d %5d %5d %8d", r->fails[REF_F_TIME],
                    r->fails[REF_F_ILLEGAL], r->fails[REF_F_CRASH], r->fails[REF_F_STALL],
                    r->fails[REF_F_ERROR], r->restarts);
        fputc('\n', f);
    }
    if (anyfail)
        fprintf(f, "(forfeits by kind: time, illegal move, crash, stall = no answer, "
                   "error = engine error; restarts after a crash)\n");
    else
        fprintf(f, "No forfeits (no time loss, illegal move, crash, stall or engine error).\n");
    fprintf(f, "Endings:");
    for (int i = 0; i < t->reasons_n; i++)
        fprintf(f, " %s %d", t->reason[i], t->reason_count[i]);
    fputc('\n', f);
    {
        /* ponder=on: how often each pondering engine guessed the reply */
        int any = 0;
        for (int e = 0; e < t->neng; e++)
            if (t->eng[e].ponders) {
                const struct ref_eng_row *r = &t->eng[e];
                fprintf(f, "%s %s %d/%d (%.0f%%)", any ? "," : "Ponder hits:",
                        r->name, r->ponderhits, r->ponders,
                        100.0 * r->ponderhits / r->ponders);
                any = 1;
            }
        if (any)
            fputc('\n', f);
    }
    if (t->nseats == 2)
        print_twoseat(t, sprt, f);
    if (t->nseats == 2 && t->neng > 2)
        ref_table_crosstable(t, f);
    else if (t->nseats > 2)
        print_nseat(t, f);
    fflush(f);
}
