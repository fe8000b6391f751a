/* match.h - a match: the schedule, the worker threads that play games, and
 * the collector that writes records and keeps the table. */
#ifndef REF_MATCH_H
#define REF_MATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "adjudicate.h"
#include "control/client.h"
#include "opening.h"
#include "record.h"
#include "schedule.h"
#include "table.h"
#include "tc.h"

/* A program that runs a match through this library and shows it as it goes
 * (medan-web) watches it through these calls; the command line leaves
 * ref_match.obs NULL.  They are called from the worker threads. */
struct ref_observer {
    void *ctx;
    /* A game starts: rec holds its number, seats and opening; st is the
     * position after the opening (the game's state). */
    void (*game_start)(void *ctx, const struct ref_record *rec,
                       const void *st);
    /* A move was played: rec's last move; st is the position after it. */
    void (*move)(void *ctx, const struct ref_record *rec, const void *st);
    /* A game was counted (results file written, table updated); called
     * under m->mu, so m->table and m->stop are current. */
    void (*game_end)(void *ctx, const struct ref_match *m,
                     const struct ref_record *rec);
};

struct ref_match {
    /* --- set up by the command line -------------------------------- */
    const struct game *g;
    game_config_buf cfg;     /* game parameters applied */
    char params[256];        /* parameters as given, sent with newgame */
    int nseats;
    int hidden;              /* the game has views (hidden information) */
    struct ctl_engine_spec *eng;
    int *restart;            /* per engine: restart=on (a fresh process
                                for every game) */
    struct ref_tc *tc;       /* per engine */
    int *ponder;             /* per engine: ponder=on (two-seat games of
                                perfect information only; NULL = none) */
    int neng;
    int games;               /* games in the schedule (all rounds) */
    /* Tournament (schedule.h): --games is games per encounter, the
     * schedule has rounds x encounter_games x pairings games. */
    int tournament;          /* REF_TOUR_* */
    int rounds;              /* --rounds (default 1) */
    int encounter_games;     /* --games as given */
    int noswap;              /* --noswap: first-listed engine in seat 1 */
    int concurrency;
    uint64_t seed;
    /* Hidden-information games: the deal seeds and the engines' Seed
     * values come from this secret key (SipHash), never from the seed
     * alone; it goes to the results file and never to an engine. */
    uint8_t key[16];
    int key_source;          /* REF_KEY_* */
    int seed_given;          /* --seed was on the command line */
    int64_t log_limit;       /* bytes per engine log, 0 = no cap */
    struct ref_openings open;
    int maxplies;            /* 0 = no limit */
    struct ref_adjudication adj; /* --draw, --resign, --maxmoves */
    const char *event, *site;    /* record tags (--event, --site) */
    int recover;
    int shard_i, shard_n;    /* 1-based i of n; n = 0: no sharding */
    int last_game;           /* --last-game N: only games 1..N (0: all);
                                the batches of referee/batch.h */
    const char *logdir;
    int trace;
    int quiet;
    FILE *results, *records, *out;
    int sprt_on;
    struct ref_sprt sprt;
    int rating_interval;     /* --ratinginterval N: Elo (and SPRT) every N games */
    int outcome_interval;    /* --outcomeinterval N: endings per engine */
    char **owned;            /* strings the specs point into */
    int nowned;
    int handshake_ms;        /* start-up answer limit */
    int cmd_ms;              /* limit for commands answered by ok/pong */
    int nolimit_ms;          /* wait for bestmove when there is no clock */
    int skip_preflight;      /* engines already checked (tune's iterations
                                after the first) */
    /* --- shared state (under mu) ----------------------------------- */
    pthread_mutex_t mu;
    int next;                /* next game number to hand out (1-based) */
    int stop;
    char stop_why[600];
    unsigned char *done;     /* [games+1]: already in the results */
    int played, to_play;
    struct ref_table table;
    int64_t own_us, own_moves; /* referee time between engine waits */
    int64_t starts, start_us;  /* engine processes started, their time */
    int finished;              /* the final table is being printed */
    /* --- for a program that embeds the referee ---------------------- */
    const struct ref_observer *obs; /* NULL: nobody watches */
    atomic_int cancel;         /* ref_match_cancel: the game under way is
                                  dropped (not recorded), none starts */
};

enum {
    REF_KEY_NONE = 0,   /* perfect information: no key */
    REF_KEY_RANDOM,     /* fresh from the OS (a resume takes the file's) */
    REF_KEY_FILE,       /* --key-file */
    REF_KEY_SEED        /* --key-from-seed: public, guessable */
};

/* The schedule (engines per seat, groups) is in schedule.h; whether a
 * game is in this shard: */
int ref_in_shard(const struct ref_match *m, int game);
/* Seeds of perfect-information games: of a group (opening) and of an
 * engine in a seat (mix64: reproducible, not secret). */
uint64_t ref_group_seed(uint64_t match_seed, int group);
uint64_t ref_engine_seed(uint64_t match_seed, int game, int seat);
/* Keyed seeds (hidden information): SipHash-2-4 of (domain, a, b, c)
 * under key, below 2^53.  Domains: "deal" (seed, group, 0) and "engine"
 * (seed, game, seat): one engine's Seed says nothing about a deal. */
uint64_t ref_keyed_seed(const uint8_t key[16], const char *domain,
                        uint64_t a, uint64_t b, uint64_t c);
/* The public key of --key-from-seed (anyone can compute it). */
void ref_key_from_seed(uint64_t seed, uint8_t key[16]);
/* The seeds a match uses (keyed for hidden information, else mix64). */
uint64_t ref_match_deal_seed(const struct ref_match *m, int group);
uint64_t ref_match_engine_seed(const struct ref_match *m, int game, int seat);
/* Key as 32 hex digits and back (0 or -1). */
void ref_key_hex(const uint8_t key[16], char hex[33]);
int ref_key_parse(const char *s, uint8_t key[16]);

/* The machine's cores against what the match asks: --concurrency x the
 * largest option.Threads (x 2 for an engine with ponder=on, which thinks
 * on its opponent's time).  Writes one warning line to f and returns 1
 * when the demand exceeds ncpu (sysconf(_SC_NPROCESSORS_ONLN) when ncpu
 * <= 0), else 0. */
int ref_cores_warning(const struct ref_match *m, long ncpu, FILE *f);
/* Free what ref_cli_parse and the match allocated. */
void ref_match_free(struct ref_match *m);
/* Play the match (threads); returns 0, or 2 when it stopped on an error. */
int ref_match_run(struct ref_match *m);
/* Stop a running match from another thread (lock-free: safe under the
 * caller's own locks): no game starts any more and the games under way end
 * unrecorded, a search under way sent `stop` within CTL_CANCEL_POLL_MS; ref_match_run then returns 2 with
 * stop_why "cancelled" (unless the match had stopped already). */
void ref_match_cancel(struct ref_match *m);
/* Load an existing results file into the table (for --resume); truncates a
 * damaged last line.  0 or -1 with err. */
int ref_match_resume(struct ref_match *m, const char *path, char *err,
                     size_t n);

#endif
