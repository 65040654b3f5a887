#!/bin/sh
# Joins the parts written by deploy/render-shard.sh ($OUTPUT_DIR/part-0.mkv … part-(SHARDS-1).mkv)
# into the final video, with the audio that the part of shard 0 carries.
#
# Settings (environment):
#   SHARDS      number of shards (default 4; the same as for the render)
#   OUTPUT_DIR  where the parts are (default /out)
#   OUTPUT      the joined file: any output `layerkit slideshow` writes, by its extension
#               (default $OUTPUT_DIR/video.mp4)
#   LAYERKIT    the layerkit binary (default: layerkit on PATH)
# Arguments are passed on to `layerkit join` (e.g. --crf 18).
set -eu

shards=${SHARDS:-4}
output_dir=${OUTPUT_DIR:-/out}
output=${OUTPUT:-$output_dir/video.mp4}

# The parts in index order, in front of the script's own arguments (`layerkit join` takes its
# options after the parts too).
i=$((shards - 1))
while [ "$i" -ge 0 ]; do
  part="$output_dir/part-$i.mkv"
  if [ ! -f "$part" ]; then
    echo "join.sh: missing $part (has shard $i of $shards finished?)" >&2
    exit 66
  fi
  set -- "$part" "$@"
  i=$((i - 1))
done

"${LAYERKIT:-layerkit}" join "$@" -o "$output"
