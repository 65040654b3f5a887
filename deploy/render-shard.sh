#!/bin/sh
# Renders one shard of a slideshow to $OUTPUT_DIR/part-INDEX.mkv (lossless FFV1; the part of
# shard 0 also carries the whole video's audio). deploy/join.sh joins the parts afterwards.
#
# This is the one place the render command lives: the Kubernetes Indexed Job
# (deploy/kubernetes/render-job.yaml) and the Slurm job array (deploy/slurm/render.sbatch) both
# run this script, and Tests/LayerKitToolTests/DeployTests.swift runs it locally and checks that
# the joined shards equal an unsharded render: byte for byte, but for the frames of crossfades and
# slides, which an unsharded Y'CbCr render computes in its own planes and the parts (RGBA) draw;
# those are within one level.
#
# The shard index comes from the scheduler:
#   JOB_COMPLETION_INDEX   set by Kubernetes in every pod of an Indexed Job (0 … completions-1)
#   SLURM_ARRAY_TASK_ID    set by Slurm in every task of a job array (0 … N-1)
#
# With a plan (deploy/plan.sh, run once before the shards: $OUTPUT_DIR/plan.env), the shard renders
# the plan: its inputs, in its order, checked against their checksums first (a changed or missing
# input ends the shard with exit 65 and no part), and its settings, SHARDS included. The plan's
# settings are the settings: one set in the environment to another value is refused (exit 64), so
# a re-run shard can't silently differ from its siblings. Arguments are refused too.
#
# Without a plan, the settings come from the environment (each shard must see the same values, or
# the parts won't fit together), and the inputs are the script's arguments or INPUT_DIR's files,
# listed by each shard when it starts; see deploy/plan.sh for the settings and their defaults:
#   SHARDS, INPUT_DIR, TRANSITION, TRANSITION_DURATION, HOLD, SIZE, FPS, RENDERER, AUDIO, EXTRA_ARGS
# And always:
#   OUTPUT_DIR    where the plan is and the parts go (default /out)
#   REQUIRE_PLAN  1: refuse to render without a plan (exit 78)
#   LAYERKIT      the layerkit binary (default: layerkit on PATH)
set -eu

me=render-shard.sh
index=${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:-}}
if [ -z "$index" ]; then
  echo "$me: no shard index: set JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)" >&2
  exit 64
fi
case $index in
  *[!0-9]*)
    echo "$me: the shard index '$index' is not a number" >&2
    exit 64
    ;;
esac
output_dir=${OUTPUT_DIR:-/out}
here=$(dirname "$0")

if [ -f "$output_dir/plan.env" ]; then
  plan=$output_dir
  if [ "$#" -gt 0 ]; then
    echo "$me: $plan holds a plan, whose inputs are the ones rendered: give no inputs as arguments" >&2
    exit 64
  fi
elif [ "${REQUIRE_PLAN:-}" = 1 ]; then
  echo "$me: no plan in $output_dir (REQUIRE_PLAN=1): run deploy/plan.sh with this OUTPUT_DIR first" >&2
  exit 78
else
  # No plan: this shard's own, made now from the environment and the arguments.
  plan=$(mktemp -d)
  trap 'rm -rf "$plan"' EXIT
  OUTPUT_DIR=$plan sh "$here/plan.sh" "$@" >/dev/null
fi

# The plan's settings replace the environment's; a setting the environment gives otherwise is an
# error, not a silent override (a relative path the plan holds made absolute is the same).
settings="SHARDS TRANSITION TRANSITION_DURATION HOLD SIZE FPS RENDERER AUDIO EXTRA_ARGS"
for name in $settings; do
  eval "given_$name=\${$name-} isset_$name=\${$name+1}"
done
# shellcheck disable=SC1091  # written by plan.sh
. "$plan/plan.env"
if [ "$plan" = "$output_dir" ]; then
  for name in $settings; do
    isset='' given='' planned=''
    eval "isset=\${isset_$name-} given=\$given_$name planned=\$$name"
    if [ -n "$isset" ] && [ "$given" != "$planned" ] && [ "$(pwd)/$given" != "$planned" ]; then
      echo "$me: $name='$given' in the environment, but the plan in $plan says '$planned': unset $name (the plan's value is used), or plan again" >&2
      exit 64
    fi
  done
fi

shards=${SHARDS:?plan.env sets SHARDS}
if [ "$index" -ge "$shards" ]; then
  if [ "$plan" = "$output_dir" ]; then
    echo "$me: no shard $index: the plan in $plan has $shards shards (0 … $((shards - 1)))" >&2
  else
    echo "$me: no shard $index: SHARDS is $shards (shards 0 … $((shards - 1)))" >&2
  fi
  exit 64
fi

if ! sha256sum --quiet --strict -c "$plan/inputs.sha256" >&2 \
  || { [ -s "$plan/assets.sha256" ] && ! sha256sum --quiet --strict -c "$plan/assets.sha256" >&2; }; then
  echo "$me: shard $index: an input above is missing or changed since the plan in $plan was made; no part written (restore it, or plan again with REPLAN=1 and render every shard)" >&2
  exit 65
fi

# The inputs: the plan's list, in order (each line is CHECKSUM, a space, a space or *, the path).
set --
while IFS= read -r line; do
  set -- "$@" "${line#*[ ][ *]}"
done <"$plan/inputs.sha256"
if [ -n "$AUDIO" ]; then
  set -- "$@" --audio "$AUDIO"
fi

mkdir -p "$output_dir"
part="$output_dir/part-$index.mkv"
# Written under another name and renamed when complete, so that a pod or task killed half-way
# (and retried) never leaves a truncated part that looks finished.
partial="$output_dir/part-$index.partial.mkv"

# shellcheck disable=SC2086  # EXTRA_ARGS is split at spaces on purpose.
"${LAYERKIT:-layerkit}" slideshow "$@" \
  --transition "$TRANSITION" \
  --transition-duration "$TRANSITION_DURATION" \
  --hold "$HOLD" \
  --size "$SIZE" \
  --fps "$FPS" \
  --renderer "$RENDERER" \
  $EXTRA_ARGS \
  --shard "$index/$shards" \
  -o "$partial"
mv -f "$partial" "$part"
