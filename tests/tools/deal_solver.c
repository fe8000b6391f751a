/* deal_solver.c - tries to rebuild Battalion deals from what a seat was sent.
 *
 *   deal_solver LOG...      logs of the spy mock (tests/mock/mock-engine.c
 *                           --spy FILE): "<pid> start", "<pid> got <line>"
 *   deal_solver --selftest  checks every attack on made-up old-style input
 *
 * For each game in a log the solver takes what one seat saw: the Seed
 * value it was sent, its seat, the number of players and its own hand (in
 * the first view it got).  It then tries, with the game's own deal:
 *   invert   the referee's old derivation: Seed = mix64(mix64(match seed,
 *            game), seat) mod 2^53 is invertible, so the 11 masked-off bits
 *            and the game number are guessed, the match seed recovered and
 *            the deal seed mix64(match seed, "group" + k) derived;
 *   small    small match seeds (0..1023) with that old derivation;
 *   public   small match seeds with --key-from-seed (the key is public);
 *   direct   the Seed value itself and small numbers as deal seeds.
 * A candidate is a success when its deal gives the seat exactly its hand.
 * Prints "recovered ..." per success and exits 0; exits 1 when nothing is
 * recovered (what a fair referee must achieve), 2 on bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "engines/battalion/battalion.h"
#include "referee/match.h"

#define GOLDEN 0x9e3779b97f4a7c15ULL
#define MASK53 ((1ULL << 53) - 1)
#define MAX_GAME 400  /* game numbers tried by the inversion */
#define SMALL 1024    /* small match seeds tried */
#define GROUPS 32     /* deal groups tried with small seeds */
#define DIRECT 4096   /* small deal seeds tried */

struct obs {
    const char *log;
    int session, players, seat;
    uint64_t seedval;
    int has_seed;
    uint8_t hand[BAT_NCARD];
};

static struct obs *obs;
static int nobs, found;

/* ---- splitmix64's finaliser and its inverse ------------------------------ */

static uint64_t inv_mul(uint64_t c)
{
    uint64_t x = c; /* Newton: x = x (2 - c x), doubles the good bits */
    for (int i = 0; i < 6; i++)
        x *= 2 - c * x;
    return x;
}

static uint64_t unxorshift(uint64_t y, int s)
{
    uint64_t x = y;
    for (int i = 0; i < 64 / s + 1; i++)
        x = y ^ (x >> s);
    return x;
}

/* Inverse of mix64(a, b) for known b: returns a. */
static uint64_t unmix64(uint64_t out, uint64_t b)
{
    uint64_t z = unxorshift(out, 31);
    z *= inv_mul(0x94d049bb133111ebULL);
    z = unxorshift(z, 27);
    z *= inv_mul(0xbf58476d1ce4e5b9ULL);
    z = unxorshift(z, 30);
    return (z - GOLDEN) ^ (b * GOLDEN);
}

/* ---- candidates ------------------------------------------------------------ */

static int same_hand(const struct bat_state *st, const struct obs *o)
{
    return memcmp(st->hand[o->seat - 1], o->hand, BAT_NCARD) == 0;
}

/* Deal seed d for o's table: does it give o its hand? */
static int try_deal(const struct obs *o, uint64_t d, const char *how,
                    uint64_t match_seed)
{
    struct bat_state st;
    bat_deal(&st, o->players, d, 0);
    if (!same_hand(&st, o))
        return 0;
    printf("recovered %s session %d seat %d: deal seed %llu (%s, match seed "
           "%llu)\n", o->log, o->session, o->seat, (unsigned long long)d, how,
           (unsigned long long)match_seed);
    found++;
    return 1;
}

static void attack_invert(const struct obs *o)
{
    if (!o->has_seed || o->seedval > MASK53)
        return;
    for (uint64_t hi = 0; hi < 2048; hi++) {
        uint64_t a1 = unmix64(o->seedval | (hi << 53), (uint64_t)o->seat);
        for (int game = 1; game <= MAX_GAME; game++) {
            uint64_t ms = unmix64(a1, (uint64_t)game);
            if (ms > MASK53)
                continue;
            if (try_deal(o, ref_group_seed(ms, (game - 1) / o->players),
                         "invert", ms))
                return;
        }
    }
}

/* Small match seeds and small deal seeds: one deal per candidate, compared
 * with every observation of the same table size. */
static void attack_small(void)
{
    for (uint64_t ms = 0; ms < SMALL; ms++) {
        uint8_t key[16];
        ref_key_from_seed(ms, key);
        for (int g = 0; g < GROUPS; g++)
            for (int i = 0; i < nobs; i++) {
                try_deal(&obs[i], ref_group_seed(ms, g), "small", ms);
                try_deal(&obs[i], ref_keyed_seed(key, "deal", ms, (uint64_t)g, 0),
                         "public", ms);
            }
    }
    for (int i = 0; i < nobs; i++) {
        if (obs[i].has_seed)
            try_deal(&obs[i], obs[i].seedval, "direct", 0);
        for (uint64_t d = 0; d < DIRECT; d++)
            try_deal(&obs[i], d, "direct", 0);
    }
}

/* ---- reading spy logs ------------------------------------------------------- */

/* What one engine process has been told so far. */
struct seen {
    int pid, session, players, seat, want_view, has_seed;
    uint64_t seedval;
};

static int read_log(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[70000];
    struct seen *ps = NULL;
    int nps = 0, sessions = 0;
    if (!f)
        return fprintf(stderr, "deal_solver: cannot open %s\n", path), -1;
    while (fgets(line, sizeof line, f)) {
        char *v, *sp;
        struct seen *p = NULL;
        int pid;
        str_chomp(line);
        pid = atoi(line);
        if (!(sp = strchr(line, ' ')))
            continue;
        v = sp + 1;
        for (int i = 0; i < nps; i++)
            if (ps[i].pid == pid)
                p = &ps[i];
        if (strcmp(v, "start") == 0 || !p) {
            if (!p) {
                ps = xrealloc(ps, (size_t)(nps + 1) * sizeof *ps);
                p = &ps[nps++];
            }
            memset(p, 0, sizeof *p);
            p->pid = pid;
            p->session = ++sessions;
            p->players = 4;
        }
        if (!str_prefix(v, "got "))
            continue;
        v += 4;
        if (str_prefix(v, "setoption name Seed value ")) {
            p->has_seed = parse_u64(v + 26, &p->seedval) == 0;
        } else if (str_prefix(v, "newgame")) {
            char *tok[32];
            int nt = str_split(v, tok, 32);
            p->players = 4;
            p->seat = 0;
            for (int i = 1; i < nt; i++) {
                if (str_prefix(tok[i], "players="))
                    p->players = atoi(tok[i] + 8);
                if (str_prefix(tok[i], "seat="))
                    p->seat = atoi(tok[i] + 5);
            }
            p->want_view = p->seat >= 1 && p->seat <= p->players;
        } else if (p->want_view && str_prefix(v, "position fen ")) {
            struct bat_state st;
            char err[GAME_ERR_LEN];
            p->want_view = 0;
            if (bat_parse_pos(&st, v + 13, err, sizeof err) != 0)
                continue;
            obs = xrealloc(obs, (size_t)(nobs + 1) * sizeof *obs);
            obs[nobs].log = path;
            obs[nobs].session = p->session;
            obs[nobs].players = p->players;
            obs[nobs].seat = p->seat;
            obs[nobs].seedval = p->seedval;
            obs[nobs].has_seed = p->has_seed;
            memcpy(obs[nobs].hand, st.hand[p->seat - 1], BAT_NCARD);
            nobs++;
        }
    }
    free(ps);
    fclose(f);
    return 0;
}

/* ---- self test: old-style input must be solved --------------------------- */

static void add_fake(uint64_t match_seed, int game, int seat, int players,
                     uint64_t deal_seed, uint64_t seedval)
{
    struct bat_state st;
    bat_deal(&st, players, deal_seed, 0);
    obs = xrealloc(obs, (size_t)(nobs + 1) * sizeof *obs);
    obs[nobs].log = "selftest";
    obs[nobs].session = game;
    obs[nobs].players = players;
    obs[nobs].seat = seat;
    obs[nobs].seedval = seedval;
    obs[nobs].has_seed = 1;
    memcpy(obs[nobs].hand, st.hand[seat - 1], BAT_NCARD);
    nobs++;
    (void)match_seed;
}

static int selftest(void)
{
    uint8_t key[16];
    int ok = 1;
    /* the old referee: any match seed, Seed sent in full (53 bits) */
    uint64_t ms = 0x1234567890abcULL;
    add_fake(ms, 7, 2, 3, ref_group_seed(ms, 2), ref_engine_seed(ms, 7, 2));
    attack_invert(&obs[0]);
    ok &= found == 1;
    /* a small seed, old derivation, Seed not sent */
    nobs = found = 0;
    add_fake(5, 4, 3, 4, ref_group_seed(5, 0), 0);
    obs[0].has_seed = 0;
    /* --key-from-seed with a small seed */
    ref_key_from_seed(9, key);
    add_fake(9, 1, 1, 3, ref_keyed_seed(key, "deal", 9, 3, 0), 0);
    obs[1].has_seed = 0;
    attack_small();
    ok &= found == 2;
    free(obs);
    printf("deal_solver selftest: %s\n", ok ? "every attack works" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--selftest") == 0)
        return selftest();
    if (argc < 2)
        return fprintf(stderr, "usage: deal_solver LOG... | --selftest\n"), 2;
    for (int i = 1; i < argc; i++)
        if (read_log(argv[i]) < 0)
            return 2;
    if (!nobs)
        return fprintf(stderr, "deal_solver: no game with a view in the logs\n"), 2;
    for (int i = 0; i < nobs; i++)
        attack_invert(&obs[i]);
    attack_small();
    printf("deal_solver: %d of %d games%s recovered\n", found, nobs,
           found ? "" : " - nothing");
    free(obs);
    return found ? 0 : 1;
}
