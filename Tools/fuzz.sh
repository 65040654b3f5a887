#!/bin/sh
# Builds LayerKit's fuzzers (Fuzz/: libFuzzer targets, compiled with Swift's -sanitize=fuzzer and
# AddressSanitizer against the main package) and runs each for SECONDS.
#
#   Tools/fuzz.sh [SECONDS] [TARGET ...]      (default: 60 seconds, every target)
#
# Targets: fuzz-image (PNG/JPEG decoding), fuzz-y4m (Y4M reader), fuzz-subtitles (SRT/WebVTT),
# fuzz-scene (scene JSON, then its presentation at three times), fuzz-gl-transition (the
# gl-transitions parser; lld links them: gold fails on these objects). Each starts from its seeds (the repository's own fixtures, examples and
# bad-input corpus) and keeps what it learns in .build-fuzz/corpus/TARGET; an input that crashes,
# traps, leaks or runs over 10 s is written to .build-fuzz/findings/; the other targets still run,
# and the script exits with the number of targets that found something. A finding, once fixed, goes into Tests/LayerKitToolTests/Corpus with the
# error it must give.
set -eu

seconds=${1:-60}
[ "$#" -gt 0 ] && shift
targets=${*:-fuzz-image fuzz-y4m fuzz-subtitles fuzz-scene fuzz-gl-transition}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$root/.build-fuzz

swift build -c release --package-path "$root/Fuzz" --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld

corpus=$root/Tests/LayerKitToolTests/Corpus
failed=0
for target in $targets; do
  case $target in
    fuzz-image) seeds="$root/Tests/LayerKitMediaTests/Fixtures $corpus/images" ;;
    fuzz-y4m) seeds="$root/Fuzz/Seeds/fuzz-y4m $corpus/y4m" ;;
    fuzz-subtitles) seeds="$root/Fuzz/Seeds/fuzz-subtitles $corpus/subtitles" ;;
    fuzz-scene) seeds="$root/examples/scenes $corpus/scenes" ;;
    fuzz-gl-transition) seeds="$root/Shaders/transitions $root/examples/transitions $corpus/shaders" ;;
    *)
      echo "fuzz.sh: no target $target" >&2
      exit 64
      ;;
  esac
  existing=""
  for s in $seeds; do [ -d "$s" ] && existing="$existing $s"; done
  mkdir -p "$scratch/corpus/$target" "$scratch/findings"
  echo "== $target, $seconds s"
  # shellcheck disable=SC2086  # the seed folders are split on purpose
  if ! ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$root/Fuzz/lsan.supp "$scratch/release/$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$scratch/findings/$target-" "$scratch/corpus/$target" $existing; then
    echo "== $target: a finding, in $scratch/findings/" >&2
    failed=$((failed + 1))
  fi
done
exit "$failed"
