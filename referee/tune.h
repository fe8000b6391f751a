/* tune.h - `medan-referee tune`: SPSA over matches (docs/referee.md,
 * "Tuning with SPSA"). */
#ifndef REF_TUNE_H
#define REF_TUNE_H

#include <stdio.h>

#include <stddef.h>

/* The subcommand: argv after "tune".  Exit status: 0 done, 1 usage or a
 * state file that does not fit, 2 a match stopped on an error. */
int ref_tune_main(int argc, char **argv);
/* The subcommand's usage lines (stdout for --help, stderr for an error). */
void ref_tune_usage(FILE *f);

struct ref_batch;
/* What plays an iteration's games as one batch of shards (`medan-referee
 * parallel ... tune`, `medan-referee slurm N ... tune`). */
struct ref_tune_runner {
    const char *name;       /* "parallel", "slurm": for messages */
    int shards;
    int dry;                /* print the next iteration's batch, play nothing */
    /* ref_batch_loop's runner: play the shards of b up to game upto; -1
     * it could not run, > 0 shards failed, 0 done */
    int (*run)(void *ctx, const struct ref_batch *b, long long upto);
    void *ctx;
};
/* The subcommand with each iteration's match (the same games, seeds and
 * openings as in one process) run as one batch by r and merged; the same
 * exit statuses. */
int ref_tune_batched_main(int argc, char **argv, const struct ref_tune_runner *r);

/* One tuned parameter, as `name,start,min,max,c_end,r_end` gives it. */
struct ref_tune_param {
    char name[64];     /* "Skill" or "Weights.conc" */
    char option[64];   /* the engine option: "Skill", "Weights" */
    char entry[64];    /* the entry of a name=value,... option ("conc"), "" for a whole option */
    double start, min, max, c_end, r_end;
    int integer;       /* start, min and max written as integers */
};

/* Parse one `name,start,min,max,c_end,r_end`; 0, or -1 with err. */
int ref_tune_param_parse(const char *s, struct ref_tune_param *p, char *err,
                         size_t n);

/* The SPSA gain sequences as fishtest defines them, for N iterations and
 * constants A, alpha, gamma: c_k = c / k^gamma with c = c_end * N^gamma,
 * a_k = a / (A + k)^alpha with a = r_end * c_end^2 * (A + N)^alpha. */
double ref_tune_ck(const struct ref_tune_param *p, int iterations,
                   double gamma, int k);
double ref_tune_ak(const struct ref_tune_param *p, int iterations, double A,
                   double alpha, int k);

/* A state file's path for `report --html --tune STATE`: the parameters
 * and theta at each recorded iteration.  Read with a size cap, every
 * number checked (finite, within its bounds). */
struct ref_tune_path {
    char game[32];
    int iterations, k;        /* planned, done */
    int np, nh;
    struct ref_tune_param *p; /* [np] (name, start, min, max) */
    int *hk;                  /* [nh] iteration of each point */
    double *theta;            /* [nh][np] */
};
/* 0, or -1 with err (naming the file). */
int ref_tune_path_load(const char *path, struct ref_tune_path *t, char *err,
                       size_t n);
void ref_tune_path_free(struct ref_tune_path *t);

#endif
