#!/usr/bin/env bash
# Installs the Debian packages LayerKit builds and runs with, and nothing else. Idempotent: it asks
# apt only for what `dpkg-query` says is missing, so a second run is a no-op that needs no network.
# Both README commands and .ci/run go through this script.
set -euo pipefail

packages=(
  libegl-dev libgles-dev libgbm-dev   # EGL + OpenGL ES 3 headers, GBM for render nodes
  libegl-mesa0 libgl1-mesa-dri        # Mesa's EGL and its drivers (llvmpipe where no GPU exists)
  libpng-dev                          # PNG codec
  libjpeg62-turbo-dev libturbojpeg0-dev  # JPEG codec (libjpeg-turbo and its TurboJPEG API)
  pkg-config
  libfontconfig-dev libfreetype-dev   # text: finding fonts (and fallbacks), glyph outlines
  libraqm-dev                         # text: bidi (FriBiDi) and shaping (HarfBuzz) in one layout call
  libunibreak-dev                     # text: line-break opportunities (Unicode's UAX #14)
  fonts-dejavu-core                   # a default font family, so text renders on a bare machine
  fonts-lohit-deva fonts-wqy-microhei fonts-symbola  # fallbacks: Devanagari, CJK, emoji (outlines), 3 MB
  fonts-noto-color-emoji              # colour emoji (bitmap strikes), 10 MB
  libharfbuzz-bin                     # hb-shape: the tests check shaping against HarfBuzz's own output
  ffmpeg                              # encoding MP4/WebM/GIF/MOV, decoding clips, mixing audio
  libheif-examples                    # heif-convert: HEIC and AVIF photos (ffmpeg 5.1 cannot decode them)
  chromium python3                    # tests: every MP4 and WebM plays to its end in a real player
  libsqlite3-dev                      # the render server's queue (GRDB over SQLite)
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "setup: missing packages (${missing[*]}) and not root; run this script as root" >&2
    exit 1
  fi
else
  SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
