#!/bin/sh
# fake-sbatch.sh - stands in for Slurm's sbatch in the tests: runs an array
# job's tasks one after the other here (SLURM_ARRAY_TASK_ID/COUNT set as
# Slurm sets them) and a --wrap job with its --output; prints a job id.
set -eu
array="" wrap="" out="" script=""
while [ $# -gt 0 ]; do
    case "$1" in
    --array=*) array=${1#--array=} ;;
    --output=*) out=${1#--output=} ;;
    --wrap) wrap=$2; shift ;;
    --parsable|--export=*|--job-name=*|--dependency=*|--cpus-per-task=*) ;;
    -*) echo "fake-sbatch: unknown option $1" >&2; exit 1 ;;
    *) script=$1; shift; break ;;
    esac
    shift
done
if [ -n "$wrap" ]; then
    sh -c "$wrap" >"${out:-/dev/null}" 2>&1 || true
    echo 102
    exit 0
fi
lo=${array%-*}; hi=${array#*-}
i=$lo
while [ "$i" -le "$hi" ]; do
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \
        SLURM_ARRAY_TASK_MAX=$hi sh "$script" "$@" || true
    i=$((i + 1))
done
echo 101
