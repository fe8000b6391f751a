/* solve_bench.c - the proof-number solver (search/pns.h) on endgames with
 * a known answer (tests/tools/endgames.h).
 *   solve_bench gen GAME SEED COUNT MAXD   print COUNT positions "FEN ; value"
 *                                          (value: +d win / -d loss in d plies)
 *   solve_bench run GAME FILE NODES [EPS]  solve each within NODES positions:
 *                                          solved, wrong, positions per minute,
 *                                          solver nodes per second; exit 1 on a
 *                                          wrong answer
 * `make bench` runs `run` on tests/solve/<game>.suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/util.h"
#include "engines/fetlar/fetlar.h"
#include "engines/registry.h"
#include "search/pns.h"
#include "tests/tools/endgames.h"

static uint64_t fetlar_key(const void *st)
{
    const struct fetlar_state *s = st;
    return s->hash ^ ((uint64_t)s->quiet + 1) * 0xd6e8feb86659fd93ULL;
}

static int gen(const struct game *g, uint64_t seed, int count, int maxd)
{
    char fen[4096];
    int found = 0;
    for (uint64_t s = seed; found < count && s < seed + 100000; s++) {
        unsigned char *st;
        int n;
        if (!eg_random_game(g, s, 400, &st, &n)) {
            free(st);
            continue;
        }
        /* one position a game: 1..2*maxd plies before its end */
        int k = 1 + (int)(s % (uint64_t)(2 * maxd));
        if (n - 1 - k < 0) {
            free(st);
            continue;
        }
        const void *p = st + (size_t)(n - 1 - k) * g->state_size;
        uint64_t nodes = 0;
        int v = eg_value(g, p, maxd, &nodes);
        if (v) {
            g->format_pos(p, fen, sizeof fen);
            printf("%s ; %+d\n", fen, v);
            found++;
        }
        free(st);
    }
    return found == count ? 0 : 1;
}

static int run(const struct game *g, const char *file, uint64_t nodes, double eps)
{
    struct pns p;
    struct pns_ops ops = {0};
    char line[8192], err[GAME_ERR_LEN];
    game_config_buf cfg;
    game_state_buf st;
    int total = 0, solved = 0, wrong = 0, exact = 0;
    uint64_t allnodes = 0;
    int64_t allus = 0;
    FILE *f = fopen(file, "r");
    if (!f)
        die("cannot read %s", file);
    if (strcmp(g->name, "fetlar") == 0)
        ops.key = fetlar_key;
    if (pns_init(&p, g, &ops, 64))
        die("no memory for the solver");
    p.eps = eps;
    g->config_default(cfg.b);
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        struct pns_result r;
        if (!semi || line[0] == '#')
            continue;
        *semi = '\0';
        int v = atoi(semi + 1);
        for (char *e = semi - 1; e >= line && *e == ' '; e--)
            *e = '\0';
        if (g->parse_pos(st.b, cfg.b, line, err, sizeof err))
            die("bad position '%s': %s", line, err);
        pns_solve(&p, st.b, NULL, 0, nodes, 0, NULL, &r);
        total++;
        allnodes += r.nodes;
        allus += r.us;
        if (r.status == PNS_UNKNOWN)
            continue;
        int ok = (r.status == PNS_WIN) == (v > 0) &&
                 (r.exact ? r.plies == abs(v) : r.plies >= abs(v));
        if (!ok) {
            wrong++;
            fprintf(stderr, "WRONG %s: known %+d, solver %s %d%s\n", line, v,
                    r.status == PNS_WIN ? "win" : "loss", r.plies, r.exact ? "" : " (bound)");
        } else {
            solved++;
            exact += r.exact;
        }
    }
    fclose(f);
    pns_free(&p);
    double min = (double)allus / 60e6;
    printf("%s: solved %d/%d (%d exact), wrong %d, nodes %llu, time %.2f s, "
           "%.0f positions/min, %.0f nodes/s (limit %llu nodes, eps %.2f)\n",
           g->name, solved, total, exact, wrong, (unsigned long long)allnodes,
           (double)allus / 1e6, min > 0 ? solved / min : 0.0,
           allus > 0 ? (double)allnodes * 1e6 / (double)allus : 0.0, (unsigned long long)nodes,
           eps);
    return wrong ? 1 : 0;
}

int main(int argc, char **argv)
{
    const struct game *g = argc > 2 ? game_find(argv[2]) : NULL;
    if (argc >= 6 && strcmp(argv[1], "gen") == 0 && g)
        return gen(g, strtoull(argv[3], NULL, 10), atoi(argv[4]), atoi(argv[5]));
    if (argc >= 5 && strcmp(argv[1], "run") == 0 && g)
        return run(g, argv[3], strtoull(argv[4], NULL, 10),
                   argc > 5 ? atof(argv[5]) : PNS_EPSILON);
    fprintf(stderr, "usage: solve_bench gen GAME SEED COUNT MAXD | run GAME FILE NODES [EPS]\n");
    return 2;
}
