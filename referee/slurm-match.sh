#!/bin/sh
# medan-slurm-match - a medan-referee match as Slurm job arrays
# (docs/referee.md, "Slurm"; man medan-slurm-match).
#
#   medan-slurm-match N [sbatch options --] [--batch G] [--max-games M]
#                     [--dry-run] MATCH OPTIONS (with --results F)
#
# A thin front end: `medan-referee slurm` parses the match options (every
# spelling medan-referee knows), submits the shards' array and a decider
# job that merges them (with --sprt: batch after batch until the SPRT
# decides), and quotes every word that reaches a shell.  This script parses
# nothing itself.
#
# Every node must see the same paths (a shared file system): the engines'
# cmd=, the results file, and medan-referee (MEDAN_REFEREE, or the
# medan-referee beside this script, or the one in PATH).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
REF=${MEDAN_REFEREE:-}
[ -n "$REF" ] || { [ -x "$here/medan-referee" ] && REF=$here/medan-referee; } ||
    REF=medan-referee

case "${1:-}" in
--help|-h|help)
    echo "usage: medan-slurm-match N [sbatch options --] [--batch G] [--max-games M]"
    echo "                         [--dry-run] MATCH OPTIONS (with --results F)"
    echo "Submits a medan-referee match as a Slurm job array of N shards and a decider"
    echo "job that merges them (table in F.table); with --sprt, in batches of G games"
    echo "until the SPRT decides.  man medan-slurm-match for more."
    exit 0 ;;
--version|-V)
    echo "medan-slurm-match (Medan) @VERSION@"
    exit 0 ;;
esac
exec "$REF" slurm "$@"
