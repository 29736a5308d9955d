#!/bin/bash
# A Slurm job array that runs bwlab on many GPU nodes and merges the
# results: one array task per GPU, each writing its own result file into a
# shared directory; submit the merge as a job that depends on the array.
# bwlab stays a single-machine tool: Slurm does the scheduling.
#
#   sbatch --array=0-15 tools/bwlab-slurm.sh /shared/bwlab-results
#   # when the array has finished (or: --dependency=afterany:JOBID):
#   sbatch --dependency=afterany:JOBID --wrap \
#       "bwlab compare /shared/bwlab-results --output /shared/bwlab-results/compare.csv; \
#        bwlab report /shared/bwlab-results --output /shared/bwlab-results/report.html"
#
# Each task writes RESULTS_DIR/<host>-<job>-<task>.json; a task stopped at
# its time limit (Slurm's SIGTERM) still writes it, marked interrupted (exit
# 143); one killed outright (SIGKILL) leaves RESULTS_DIR/....json.partial,
# the journal of its finished patterns, which bwlab compare reads and marks
# as partial. Set BWLAB to the bwlab binary
# when it is not on PATH, BWLAB_ARGS for extra `bwlab run` flags.
#SBATCH --job-name=bwlab
#SBATCH --gpus-per-task=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=4
#SBATCH --time=00:15:00
#SBATCH --output=bwlab-%A_%a.log
set -eu
results=${1:?usage: sbatch --array=0-N tools/bwlab-slurm.sh RESULTS_DIR}
bwlab=${BWLAB:-bwlab}
mkdir -p "$results"
out="$results/$(hostname -s)-${SLURM_ARRAY_JOB_ID:-0}-${SLURM_ARRAY_TASK_ID:-0}.json"
# Slurm binds the task's GPU (CUDA_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES),
# so the default device is this task's GPU
# shellcheck disable=SC2086 # BWLAB_ARGS is a list of flags
exec "$bwlab" run --device gpu ${BWLAB_ARGS:-} --output "$out"
