/* batch.h - a match split into shards and played in batches (issue 28):
 * the match options parsed once into a plan that makes every shard's
 * command line; after each batch, the shards' games merged and the SPRT
 * evaluated as one run playing the games in order would see it; and the
 * batch loop.  `medan-referee parallel` (GNU parallel) and `medan-referee
 * slurm` (Slurm job arrays) run their batches through it; anything else
 * that can run the shards of a batch can too (ref_batch_loop's runner).
 *
 * Batch k plays games 1..min(k x batch, total) of the (pure, game-number-
 * indexed) schedule: every shard i of n plays the pairs of that range
 * with (pair - 1) mod n = i - 1 that are not in its results file yet
 * (--resume), so a game lost when a shard died is played by the next
 * batch, and no game is played twice. */
#ifndef REF_BATCH_H
#define REF_BATCH_H

#include <stdio.h>

#include "stats.h"

/* Stands for the shard number in ref_batch_argv's strings. */
#define REF_BATCH_SHARD "\001"

struct ref_batch {
    int shards;
    long long batch;        /* games per batch (even) */
    long long schedule;     /* games in the schedule */
    long long total;        /* the last game: the schedule or --max-games */
    int sprt_on;
    struct ref_sprt sprt;
    char *eng[2];           /* the SPRT's engines: the first's Elo */
    int hidden;             /* shards share the key file results.key */
    char *keyfile;          /* a hidden-information game's key file (made
                               here): the shards' --key-file */
    char *results, *records; /* as given (merged files) */
    int resume;             /* --resume was given */
    char **opt;             /* the shards' match options (own copies) */
    int nopt;
};

/* Parse the match options (with --results F, optional --records, --sprt,
 * --resume; cutechess spellings too) once: every shard's command line
 * comes from them.  batch: games a batch (0: 8 per shard, rounded to
 * pairs; without --sprt one batch plays all); max_games: 0 or a bound
 * below the schedule.  0, or -1 with err set. */
int ref_batch_init(struct ref_batch *b, int shards, long long batch,
                   long long max_games, int argc, char **argv, char *err,
                   size_t n);
void ref_batch_free(struct ref_batch *b);

/* The command line of one shard up to game upto: self, the options,
 * --results F.shard-S-of-N [--records R.shard-S-of-N] [--key-file F.key]
 * --shard S/N --quiet --resume [--last-game U].  S is REF_BATCH_SHARD
 * (ref_batch_shell puts the runner's shard number there).  NULL-ended,
 * free with ref_batch_argv_free. */
char **ref_batch_argv(const struct ref_batch *b, const char *self, long long upto);
void ref_batch_argv_free(char **v);
/* argv as one POSIX shell command, every word single-quoted, with
 * REF_BATCH_SHARD replaced by shard (unquoted: "{}" for GNU parallel,
 * "$SLURM_ARRAY_TASK_ID" for Slurm) and stdout and stderr appended to the
 * shard's F.shard-S-of-N.out.  Malloc'd. */
char *ref_batch_shell(const struct ref_batch *b, char **argv, const char *shard);
/* s single-quoted for a POSIX shell, appended to a malloc'd string. */
char *ref_shell_quote(const char *s);

/* The state after a batch. */
struct ref_batch_state {
    int batch;              /* its number, 1-based */
    long long upto;         /* its last game */
    long long played;       /* games 1..upto in the shards' files */
    long long missing;      /* games 1..upto in none */
    int decision;           /* 1 H1, -1 H0, 0 none */
    long long at;           /* last game the SPRT saw (the decision's) */
    double llr;
    int done;               /* decided, or every game up to total played */
};

/* Read the shards' files, print the batch's lines to out ("Batch k:
 * games 1-U: P played, M missing" and, with --sprt, the single run's
 * SPRT line over games 1..at); when done, write the merged results F
 * (games 1..at when the SPRT decided: the games one run would have
 * played), gather the records, and print the final table.  0, or -1
 * (a file that does not fit: message printed). */
int ref_batch_eval(const struct ref_batch *b, int k, long long upto,
                   struct ref_batch_state *st, FILE *out);

/* The next batch after one that ended at upto: its last game; retry is
 * counted up when the last batch is run again for missing games.  0 when
 * there is nothing more to run (done, or games still missing after 2
 * re-runs of the last batch). */
long long ref_batch_next(const struct ref_batch *b, const struct ref_batch_state *st,
                         int *retry);

/* Run batch after batch until the SPRT decides or every game up to total
 * is played: run(ctx, b, upto) plays the shards up to game upto (-1: it
 * could not run at all; other non-zero statuses are shards that failed,
 * whose games the next batch plays).  Returns the exit status: 0, 1 (the
 * runner could not run), 2 (games still missing). */
int ref_batch_loop(const struct ref_batch *b,
                   int (*run)(void *ctx, const struct ref_batch *b, long long upto),
                   void *ctx, FILE *out);

#endif
