#!/bin/sh
# medan-slurm-match - a medan-referee match as a Slurm job array: one
# --shard i/N run per array task, then a merge job (docs/referee.md).
#
#   medan-slurm-match N [sbatch options --] MATCH OPTIONS (with --results F)
#       submits the array (tasks 1..N) and a merge job that waits for it;
#       the merged results go to F, the table to F.table.
#   With SLURM_ARRAY_TASK_ID set (inside the array) it runs that shard.
#
# Every node must see the same paths (a shared file system): the engines'
# cmd=, the results file, and this script's medan-referee (MEDAN_REFEREE, or
# the medan-referee beside this script, or the one in PATH).
#SBATCH --job-name=medan-match
#SBATCH --cpus-per-task=2
set -eu

here=$(cd "$(dirname "$0")" && pwd)
REF=${MEDAN_REFEREE:-}
[ -n "$REF" ] || { [ -x "$here/medan-referee" ] && REF=$here/medan-referee; } ||
    REF=medan-referee

usage() {
    echo "usage: medan-slurm-match N [sbatch options --] MATCH OPTIONS (with --results F)" >&2
    exit 1
}

case "${1:-}" in
--help|-h|help)
    echo "usage: medan-slurm-match N [sbatch options --] MATCH OPTIONS (with --results F)"
    echo "Submits a medan-referee match as a Slurm job array of N shards and a merge"
    echo "job that waits for it (table in F.table).  man medan-slurm-match for more."
    exit 0 ;;
--version|-V)
    echo "medan-slurm-match (Medan) @VERSION@"
    exit 0 ;;
esac

# The value after a flag in the match options ("" if absent).
opt() {
    want=$1; shift
    while [ $# -gt 1 ]; do
        [ "$1" = "$want" ] && { printf '%s\n' "$2"; return; }
        shift
    done
}

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    # Inside the array: this task's shard, its own results and records
    # files, always --resume so a requeued task goes on where it stopped.
    n=${MEDAN_SHARDS:-${SLURM_ARRAY_TASK_COUNT:-${SLURM_ARRAY_TASK_MAX:-}}}
    [ -n "$n" ] || { echo "medan-slurm-match: no shard count" >&2; exit 1; }
    i=$SLURM_ARRAY_TASK_ID
    suffix=".shard-$i-of-$n"
    first=1
    for a in "$@"; do
        if [ $first = 1 ]; then set --; first=0; fi
        case "${prev:-}" in
        --results|--records) a="$a$suffix" ;;
        esac
        prev=$a
        [ "$a" = "--resume" ] || set -- "$@" "$a"
    done
    results=$(opt --results "$@")
    # Shards of a hidden-information game share one secret deal key.
    game=$(opt --game "$@")
    case " $* " in *" --key-file "*|*" --key-from-seed "*) ;; *)
        if "$REF" games | grep -qx "$game hidden"; then
            set -- "$@" --key-file "${results%"$suffix"}.key"
        fi ;;
    esac
    exec "$REF" "$@" --shard "$i/$n" --quiet --resume >"$results.out" 2>&1
fi

[ $# -ge 2 ] || usage
n=$1; shift
case "$n" in ''|*[!0-9]*) usage ;; esac
[ "$n" -ge 1 ] || usage
sb=""
for a in "$@"; do [ "$a" = "--" ] && sb=1; done
sbopts=""
if [ -n "$sb" ]; then
    while [ "$1" != "--" ]; do sbopts="$sbopts $1"; shift; done
    shift
fi
results=$(opt --results "$@")
[ -n "$results" ] || usage
games=$(opt --games "$@")
# In a tournament (--rounds, --tournament, more than two engines) --games
# is per encounter: merge then checks up to the highest game it sees.
neng=0
for a in "$@"; do
    case "$a" in --engine) neng=$((neng + 1)) ;; --rounds|--tournament) neng=99 ;; esac
done
[ "$neng" -le 2 ] || games=""
SBATCH=${SBATCH:-sbatch}
# shellcheck disable=SC2086
job=$(MEDAN_SHARDS=$n MEDAN_REFEREE=$REF $SBATCH --parsable --export=ALL \
    --array=1-"$n" $sbopts "$here/$(basename "$0")" "$@") || exit 1
job=${job%%;*}
shards=""
i=1
while [ "$i" -le "$n" ]; do shards="$shards '$results.shard-$i-of-$n'"; i=$((i + 1)); done
merge=$($SBATCH --parsable --job-name=medan-merge --dependency=afterany:"$job" \
    --output="$results.table" \
    --wrap "'$REF' merge ${games:+--games $games} --output '$results'$shards") || exit 1
echo "submitted: shards job $job (array 1-$n), merge job ${merge%%;*}"
echo "the table will be in $results.table, the merged results in $results"
