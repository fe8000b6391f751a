/* parallel.h - medan-referee parallel: a match split into shards run by
 * GNU parallel on this machine or over ssh, then merged. */
#ifndef REF_PARALLEL_H
#define REF_PARALLEL_H

#include <stdio.h>

/* argv: our options (--shards N, --jobs J, --sshlogin H..., --parallel
 * PROG, --dry-run) then the match's (with --results F).  self: the path
 * of medan-referee to run on every host; merge: the merge subcommand.
 * Returns the exit status. */
int ref_parallel_main(int argc, char **argv, const char *self,
                      int (*merge)(int argc, char **argv));
/* The subcommand's usage lines (stdout for --help, stderr for an error). */
void ref_parallel_usage(FILE *f);

#endif
