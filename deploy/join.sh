#!/bin/sh
# Joins the parts written by deploy/render-shard.sh ($OUTPUT_DIR/part-0.mkv … part-(SHARDS-1).mkv)
# into the final video, with the audio that the part of shard 0 carries.
#
# It first checks that every part is there, and names each missing one with the shard to re-run
# (exit 66): under Slurm the join runs after the array whatever its tasks' outcome
# (deploy/slurm/submit.sh), so this check is what stops a join of an incomplete render.
# `layerkit join` then checks that the parts belong to one render and tile it exactly once.
# To finish after a failure: re-run the shards named, then this join (deploy/README.md).
#
# Settings (environment):
#   SHARDS      number of shards: the plan's when $OUTPUT_DIR holds one (deploy/plan.sh; another
#               value in the environment is refused, exit 64), else this (default 4)
#   OUTPUT_DIR  where the parts are (default /out)
#   OUTPUT      the joined file: any output `layerkit slideshow` writes, by its extension
#               (default $OUTPUT_DIR/video.mp4)
#   LAYERKIT    the layerkit binary (default: layerkit on PATH)
# Arguments are passed on to `layerkit join` (e.g. --crf 18).
set -eu

me=join.sh
output_dir=${OUTPUT_DIR:-/out}
output=${OUTPUT:-$output_dir/video.mp4}

if [ -f "$output_dir/plan.env" ]; then
  planned=$(
    # shellcheck disable=SC1091  # written by plan.sh
    . "$output_dir/plan.env"
    echo "$SHARDS"
  )
  if [ -n "${SHARDS:-}" ] && [ "$SHARDS" != "$planned" ]; then
    echo "$me: SHARDS=$SHARDS in the environment, but the plan in $output_dir says $planned: unset SHARDS (the plan's value is used)" >&2
    exit 64
  fi
  shards=$planned
else
  shards=${SHARDS:-4}
fi

# The parts in index order, in front of the script's own arguments (`layerkit join` takes its
# options after the parts too); the missing ones listed.
missing=
i=$((shards - 1))
while [ "$i" -ge 0 ]; do
  part="$output_dir/part-$i.mkv"
  if [ -f "$part" ]; then
    set -- "$part" "$@"
  else
    echo "$me: missing $part: shard $i of $shards has not finished, or failed" >&2
    missing=$i${missing:+,$missing}
  fi
  i=$((i - 1))
done
if [ -n "$missing" ]; then
  echo "$me: re-run shard(s) $missing, then this join (Slurm: deploy/slurm/submit.sh --rerun $missing; see deploy/README.md)" >&2
  exit 66
fi

"${LAYERKIT:-layerkit}" join "$@" -o "$output"
