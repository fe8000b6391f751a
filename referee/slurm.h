/* slurm.h - medan-referee slurm: a match as Slurm job arrays, one batch
 * (referee/batch.h) an array, and after each a small decider job
 * (--dependency=afterany) that merges, evaluates the SPRT and submits the
 * next batch or writes the merged results.  sbatch gets its arguments
 * without a shell; the jobs' --wrap commands quote every word. */
#ifndef REF_SLURM_H
#define REF_SLURM_H

#include <stdio.h>

/* argv: N [SBATCH OPTIONS --] [--batch G] [--max-games M] [--dry-run]
 * MATCH OPTIONS (with --results F); or --decide K U R and the same (the
 * decider after batch K, which ended at game U, R re-runs of the last
 * batch so far).  self: this medan-referee (the jobs run it).  The exit
 * status. */
int ref_slurm_main(int argc, char **argv, const char *self);
/* The subcommand's usage lines (stdout for --help, stderr for an error). */
void ref_slurm_usage(FILE *f);

#endif
