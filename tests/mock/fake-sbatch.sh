#!/bin/sh
# fake-sbatch.sh - stands in for Slurm's sbatch in the tests: runs a job
# at once, here: an array job's tasks one after the other (SLURM_ARRAY_
# TASK_ID/COUNT set as Slurm sets them), a --wrap job through sh -c (as
# sbatch does) with its --output (--open-mode=append: appended); prints a
# job id.  Every call is logged to $FAKE_SBATCH_LOG (if set).  A task
# number in the file $FAKE_SBATCH_CANCEL is not run, once (the file is
# then removed), as if scancel had cancelled it.
set -eu
array="" wrap="" out="" script="" mode=w
[ -z "${FAKE_SBATCH_LOG:-}" ] || echo "sbatch $*" >>"$FAKE_SBATCH_LOG"
while [ $# -gt 0 ]; do
    case "$1" in
    --array=*) array=${1#--array=} ;;
    --output=*) out=${1#--output=} ;;
    --open-mode=append) mode=a ;;
    --wrap) wrap=$2; shift ;;
    --parsable|--wait|--export=*|--job-name=*|--dependency=*|--cpus-per-task=*|--time=*) ;;
    -*) echo "fake-sbatch: unknown option $1" >&2; exit 1 ;;
    *) script=$1; shift; break ;;
    esac
    shift
done
job() {
    if [ -n "$wrap" ]; then
        if [ $mode = a ]; then sh -c "$wrap" >>"${out:-/dev/null}" 2>&1 || true
        else sh -c "$wrap" >"${out:-/dev/null}" 2>&1 || true; fi
    else
        sh "$script" "$@" || true
    fi
}
if [ -z "$array" ]; then
    (job "$@")
    echo 102
    exit 0
fi
lo=${array%-*}; hi=${array#*-}
i=$lo
while [ "$i" -le "$hi" ]; do
    if [ -n "${FAKE_SBATCH_CANCEL:-}" ] && [ "$(cat "$FAKE_SBATCH_CANCEL" 2>/dev/null)" = "$i" ]; then
        rm -f "$FAKE_SBATCH_CANCEL"
    else
        (SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$((hi - lo + 1)) \
            SLURM_ARRAY_TASK_MAX=$hi job "$@")
    fi
    i=$((i + 1))
done
echo 101
