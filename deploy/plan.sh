#!/bin/sh
# The plan step of a sharded render: run once, before any shard, it freezes what the shards render
# by writing into $OUTPUT_DIR
#   plan.env        SHARDS and every render setting, as shell assignments
#   inputs.sha256   the inputs in show order, absolute paths, with their SHA-256 (sha256sum's format)
#   assets.sha256   the other files the settings name (AUDIO, a .glsl TRANSITION), maybe empty
# deploy/render-shard.sh renders from these when $OUTPUT_DIR holds them: the listed inputs in that
# order, checked with `sha256sum -c` first, and the plan's settings. So every shard renders the same
# video, whenever it runs (a re-run shard too), even if the input folder has changed since.
#
# Slurm: deploy/slurm/submit.sh runs it. Kubernetes: deploy/kubernetes/plan-job.yaml runs it.
# By hand:  SHARDS=4 INPUT_DIR=work OUTPUT_DIR=out sh deploy/plan.sh
#
# Settings (environment; the defaults are the ones every render without a plan uses too):
#   SHARDS               number of shards (default 4)
#   INPUT_DIR            where the inputs are (default /work)
#   OUTPUT_DIR           where the plan, and later the parts, go (default /out)
#   TRANSITION           transition SPEC, e.g. fade, push:fromRight, a .glsl file (default fade)
#   TRANSITION_DURATION  seconds (default 0.8)
#   HOLD                 seconds each still is shown alone (default 2)
#   SIZE                 WIDTHxHEIGHT (default 1280x720)
#   FPS                  frames per second (default 30)
#   RENDERER             gpu, cpu or auto (default auto; pin gpu or cpu on a cluster with mixed
#                        nodes so that every shard renders the same way)
#   AUDIO                a music track laid under the video (`--audio`; default none)
#   EXTRA_ARGS           more slideshow options, split at spaces (e.g. "--fit contain"); files named
#                        here are not checksummed (`layerkit join` still sees a changed one)
#   REPLAN               1: replace a different plan already in OUTPUT_DIR and delete its parts
#
# Inputs: the script's arguments, in order; without arguments, every file in INPUT_DIR in name
# order (name them 01-…, 02-… to choose the order). Names holding a newline or a backslash are
# refused (sha256sum would escape them).
#
# Planning again into a folder that holds a plan keeps it if nothing differs (exit 0); a different
# plan is refused (exit 73), unless REPLAN=1, since parts of the old plan would not fit the new.
set -eu

me=plan.sh
shards=${SHARDS:-4}
input_dir=${INPUT_DIR:-/work}
output_dir=${OUTPUT_DIR:-/out}

case $shards in
  '' | *[!0-9]* | 0*)
    echo "$me: SHARDS must be a whole number from 1, not '$shards'" >&2
    exit 64
    ;;
esac

# An absolute path, so that the plan names the same file from any working folder.
absolute() {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}

if [ "$#" -eq 0 ]; then
  for f in "$input_dir"/*; do
    [ -f "$f" ] && set -- "$@" "$f"
  done
  if [ "$#" -eq 0 ]; then
    echo "$me: no inputs in $input_dir" >&2
    exit 66
  fi
fi

nl='
'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Checksums of the files named, one line each, in order.
checksum() {
  for f in "$@"; do
    case $f in
      *"$nl"* | *\\*)
        echo "$me: can't list '$f': its name holds a newline or a backslash" >&2
        return 65
        ;;
    esac
    if [ ! -f "$f" ] || [ ! -r "$f" ]; then
      echo "$me: no readable file $f" >&2
      return 66
    fi
    sha256sum -- "$(absolute "$f")" || return 66
  done
}

checksum "$@" >"$tmp/inputs.sha256"

transition=${TRANSITION:-fade}
audio=${AUDIO:-}
set --
# A .glsl transition (optionally with :NAME=VALUE parameters) and the audio track are files too.
case ${transition%%:*} in
  *.glsl)
    file=${transition%%:*}
    if [ -f "$file" ]; then
      params=${transition#"$file"}
      file=$(absolute "$file")
      transition=$file$params
      set -- "$@" "$file"
    fi
    ;;
esac
if [ -n "$audio" ]; then
  audio=$(absolute "$audio")
  set -- "$@" "$audio"
fi
checksum "$@" >"$tmp/assets.sha256"

# A value in single quotes, for a file that is read with `.`.
quote() {
  printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

{
  echo "# Written by deploy/plan.sh; read by deploy/render-shard.sh and deploy/join.sh."
  echo "SHARDS=$(quote "$shards")"
  echo "TRANSITION=$(quote "$transition")"
  echo "TRANSITION_DURATION=$(quote "${TRANSITION_DURATION:-0.8}")"
  echo "HOLD=$(quote "${HOLD:-2}")"
  echo "SIZE=$(quote "${SIZE:-1280x720}")"
  echo "FPS=$(quote "${FPS:-30}")"
  echo "RENDERER=$(quote "${RENDERER:-auto}")"
  echo "AUDIO=$(quote "$audio")"
  echo "EXTRA_ARGS=$(quote "${EXTRA_ARGS:-}")"
} >"$tmp/plan.env"

same() {
  for name in plan.env inputs.sha256 assets.sha256; do
    cmp -s "$tmp/$name" "$output_dir/$name" || return 1
  done
}

mkdir -p "$output_dir"
if [ -f "$output_dir/plan.env" ]; then
  if same; then
    echo "$me: $output_dir already holds this plan; kept"
    exit 0
  fi
  if [ "${REPLAN:-}" != 1 ]; then
    echo "$me: $output_dir holds another plan (its parts would not fit this one): use another OUTPUT_DIR, or REPLAN=1 to replace it and delete its parts" >&2
    exit 73
  fi
  rm -f "$output_dir/plan.env" "$output_dir"/part-*.mkv
  echo "$me: replacing the plan in $output_dir; its parts deleted"
fi

# The settings last: render-shard.sh and join.sh take plan.env's presence for a whole plan.
for name in inputs.sha256 assets.sha256 plan.env; do
  cp "$tmp/$name" "$output_dir/.$name.new"
  mv -f "$output_dir/.$name.new" "$output_dir/$name"
done
echo "$me: planned $(wc -l <"$output_dir/inputs.sha256") inputs in $shards shards into $output_dir"
