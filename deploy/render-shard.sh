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
# Settings (environment; every shard must see the same values, or the parts won't fit together):
#   SHARDS               number of shards (default: SLURM_ARRAY_TASK_COUNT under Slurm, else 4)
#   INPUT_DIR            where the inputs are (default /work)
#   OUTPUT_DIR           where the parts go (default /out)
#   TRANSITION           transition SPEC, e.g. fade, push:fromRight, a .glsl file (default fade)
#   TRANSITION_DURATION  seconds (default 0.8)
#   HOLD                 seconds each still is shown alone (default 2)
#   SIZE                 WIDTHxHEIGHT (default 1280x720)
#   FPS                  frames per second (default 30)
#   RENDERER             gpu, cpu or auto (default auto; pin gpu or cpu on a cluster with mixed
#                        nodes so that every shard renders the same way)
#   EXTRA_ARGS           more slideshow options, split at spaces (e.g. "--fit contain --no-audio")
#   LAYERKIT             the layerkit binary (default: layerkit on PATH)
#
# Inputs: the script's arguments, in order; without arguments, every file in INPUT_DIR in name
# order (name them 01-…, 02-… to choose the order).
set -eu

index=${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:-}}
if [ -z "$index" ]; then
  echo "render-shard.sh: no shard index: set JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm)" >&2
  exit 64
fi
shards=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-4}}
input_dir=${INPUT_DIR:-/work}
output_dir=${OUTPUT_DIR:-/out}

if [ "$#" -eq 0 ]; then
  for f in "$input_dir"/*; do
    [ -f "$f" ] && set -- "$@" "$f"
  done
  if [ "$#" -eq 0 ]; then
    echo "render-shard.sh: no inputs in $input_dir" >&2
    exit 66
  fi
fi

mkdir -p "$output_dir"
part="$output_dir/part-$index.mkv"
# Written under another name and renamed when complete, so that a pod or task killed half-way
# (and retried) never leaves a truncated part that looks finished.
partial="$output_dir/part-$index.partial.mkv"

# shellcheck disable=SC2086  # EXTRA_ARGS is split at spaces on purpose.
"${LAYERKIT:-layerkit}" slideshow "$@" \
  --transition "${TRANSITION:-fade}" \
  --transition-duration "${TRANSITION_DURATION:-0.8}" \
  --hold "${HOLD:-2}" \
  --size "${SIZE:-1280x720}" \
  --fps "${FPS:-30}" \
  --renderer "${RENDERER:-auto}" \
  ${EXTRA_ARGS:-} \
  --shard "$index/$shards" \
  -o "$partial"
mv -f "$partial" "$part"
