#!/bin/sh
# Submits a sharded slideshow render to Slurm: checks that a node can run its tasks, plans it once
# (deploy/plan.sh), submits the render array (deploy/slurm/render.sbatch) and the join
# (deploy/slurm/join.sbatch) after it. From the repository's root (or with DEPLOY_DIR set):
#
#   SHARDS=4 CPUS_PER_TASK=2 SIZE=1280x720 deploy/slurm/submit.sh [INPUT…]
#   deploy/slurm/submit.sh --rerun K[,K…]    # shards K… of the plan in OUTPUT_DIR again, and the join
#
# It prints "render=JOBID join=JOBID" on standard output.
#
# Settings (environment):
#   SHARDS         number of shards, i.e. array tasks (default 4; --rerun: the plan's)
#   CPUS_PER_TASK  CPUs of each task and of the join (default 2)
#   MEM_PER_TASK   memory of each task and of the join, as sbatch's --mem takes it (default 2G)
#   PARTITION      partition to submit to (default: the cluster's default)
#   INPUT_DIR      where the inputs are, without arguments (default ./work)
#   OUTPUT_DIR     where the plan, the parts and the video go (default ./out)
#   the render settings of deploy/plan.sh (TRANSITION, TRANSITION_DURATION, HOLD, SIZE, FPS,
#   AUDIO, EXTRA_ARGS; RENDERER defaults to gpu here, pinned so that every task renders alike),
#   and OUTPUT and LAYERKIT, which the jobs see (sbatch passes the environment on).
#
# Before submitting, it asks sinfo for a node with CPUS_PER_TASK CPUs and MEM_PER_TASK of memory,
# and refuses (exit 69) if there is none: Slurm would otherwise leave the tasks pending for good.
#
# The join depends on the array with afterany, not afterok: an afterok on an array with a failed
# task is never satisfied, even once the task is re-run and succeeds. The join runs whatever the
# tasks' outcome, and join.sh refuses (naming the shards to re-run) while a part is missing. Then
# re-run them with --rerun, which submits the join again (deploy/README.md).
set -eu

me=submit.sh

absolute() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}

deploy_dir=$(absolute "${DEPLOY_DIR:-$(dirname "$0")/..}")
cpus=${CPUS_PER_TASK:-2}
mem=${MEM_PER_TASK:-2G}
export OUTPUT_DIR
OUTPUT_DIR=$(absolute "${OUTPUT_DIR:-out}")
# The jobs find the scripts here, and refuse to render without the plan.
export DEPLOY_DIR="$deploy_dir" REQUIRE_PLAN=1

case $cpus in
  '' | *[!0-9]* | 0*)
    echo "$me: CPUS_PER_TASK must be a whole number from 1, not '$cpus'" >&2
    exit 64
    ;;
esac
# MEM_PER_TASK in MB, as sinfo reports memory; sbatch reads a bare number as MB.
number=${mem%[KkMmGgTt]}
case $number in
  '' | *[!0-9]*)
    echo "$me: MEM_PER_TASK must be a number with an optional K, M, G or T, not '$mem'" >&2
    exit 64
    ;;
esac
case ${mem#"$number"} in
  K | k) mem_mb=$((number / 1024)) ;;
  G | g) mem_mb=$((number * 1024)) ;;
  T | t) mem_mb=$((number * 1024 * 1024)) ;;
  *) mem_mb=$number ;;
esac

# A node that has the CPUs and the memory, and whether one such is up.
if ! nodes=$(sinfo -h -N ${PARTITION:+-p "$PARTITION"} -o '%N %c %m %t'); then
  echo "$me: sinfo failed: is Slurm reachable from here?" >&2
  exit 69
fi
fits=$(printf '%s\n' "$nodes" | awk -v c="$cpus" -v m="$mem_mb" 'NF == 4 && $2 + 0 >= c && $3 + 0 >= m')
if [ -z "$fits" ]; then
  largest=$(printf '%s\n' "$nodes" | awk '$2 + 0 > c { c = $2 + 0 } $3 + 0 > m { m = $3 + 0 } END { printf "%d CPUs and %d MB", c, m }')
  echo "$me: no node${PARTITION:+ in partition $PARTITION} has the CPUs and memory a task asks for (CPUS_PER_TASK=$cpus, MEM_PER_TASK=$mem = $mem_mb MB); the most any has is $largest: lower CPUS_PER_TASK or MEM_PER_TASK" >&2
  exit 69
fi
if ! printf '%s\n' "$fits" | awk '$4 ~ /^(idle|mix|mixed|alloc|allocated|comp|completing)$/ { up = 1 } END { exit !up }'; then
  echo "$me: warning: every node that fits is unavailable ($(printf '%s\n' "$fits" | awk '{ printf "%s%s %s", s, $1, $4; s = ", " }')); the jobs will pend until one is back" >&2
fi

common="--cpus-per-task=$cpus --mem=$mem${PARTITION:+ --partition=$PARTITION}"

# sbatch --parsable prints JOBID or JOBID;CLUSTER.
submit() {
  id=$(sbatch --parsable "$@") || exit
  printf '%s\n' "${id%%;*}"
}

if [ "${1:-}" = --rerun ]; then
  shards_list=${2:-}
  case $shards_list in
    '' | *[!0-9,-]*)
      echo "$me: --rerun takes shard numbers, e.g. --rerun 3 or --rerun 1,3" >&2
      exit 64
      ;;
  esac
  if [ ! -f "$OUTPUT_DIR/plan.env" ]; then
    echo "$me: no plan in $OUTPUT_DIR to re-run shards of (set OUTPUT_DIR to the render's)" >&2
    exit 66
  fi
  array_spec=$shards_list
else
  export SHARDS="${SHARDS:-4}" RENDERER="${RENDERER:-gpu}"
  INPUT_DIR=$(absolute "${INPUT_DIR:-work}")
  export INPUT_DIR
  sh "$deploy_dir/plan.sh" "$@" >&2
  array_spec=0-$((SHARDS - 1))
fi

# shellcheck disable=SC2086  # $common is split at spaces on purpose.
render=$(submit --array="$array_spec" $common "$deploy_dir/slurm/render.sbatch")
# shellcheck disable=SC2086
join=$(submit --dependency="afterany:$render" $common "$deploy_dir/slurm/join.sbatch")
echo "$me: render array $render (shards $array_spec of the plan in $OUTPUT_DIR), join $join after it" >&2
echo "$me: should the join report a missing part: deploy/slurm/submit.sh --rerun K (same OUTPUT_DIR)" >&2
echo "render=$render join=$join"
