#!/usr/bin/env bash
# Installs the Debian packages LayerKit builds and runs with, and nothing else. Idempotent: it asks
# apt only for what `dpkg-query` says is missing, so a second run is a no-op that needs no network.
# Both README commands and .ci/run go through this script; `--tests` (the test command's) also
# installs what only the tests use: schemathesis, from PyPI, in .build/python (the render
# server's API is held to its OpenAPI document by it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=false
[ "${1:-}" = "--tests" ] && tests=true

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
if $tests; then
  packages+=(python3-venv)            # tests: a virtual environment for schemathesis
  packages+=(curl)                    # tests: the render server called as its attackers call it
  packages+=(postgresql)              # tests: two render servers sharing one PostgreSQL queue
fi
SUDO=
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [ "$status" = "installed" ] || missing+=("$p")
done

install_missing() {
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
    echo "setup: missing packages (${missing[*]}) and not root; run this script as root" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
[ ${#missing[@]} -eq 0 ] || install_missing

if $tests; then
  venv="$root/.build/python"
  schemathesis=4.32.5
  if ! "$venv/bin/st" --version 2>/dev/null | grep -q "$schemathesis"; then
    echo "setup: installing schemathesis $schemathesis in .build/python" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$schemathesis"
  fi
fi

if $tests; then
  # A PostgreSQL cluster of the tests' own on 127.0.0.1:55432 (Debian's cluster tools), started
  # if it is not running; its address in .build/postgres-url, where the tests read it.
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h | awk '{print $1 "/" $2}' | grep -qx "$version/layerkit"; then
    $SUDO pg_createcluster "$version" layerkit --port 55432 >/dev/null
  fi
  if ! pg_lsclusters -h | awk '$1 == "'"$version"'" && $2 == "layerkit" {print $4}' | grep -qx online; then
    $SUDO pg_ctlcluster "$version" layerkit start
  fi
  as_postgres() { $SUDO runuser -u postgres -- psql -p 55432 -qAt "$@"; }
  if [ "$(as_postgres -c "SELECT 1 FROM pg_roles WHERE rolname = 'layerkit'")" != 1 ]; then
    as_postgres -c "CREATE ROLE layerkit LOGIN PASSWORD 'layerkit'" -c "CREATE DATABASE layerkit OWNER layerkit"
  fi
  # Databases of their own for the store's tests and for the systemd unit's command line, which
  # must not take the server tests' renders.
  for db in layerkit_store layerkit_deploy; do
    if [ "$(as_postgres -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]; then
      as_postgres -c "CREATE DATABASE $db OWNER layerkit"
    fi
  done
  mkdir -p "$root/.build"
  echo "postgres://layerkit:layerkit@127.0.0.1:55432/layerkit" > "$root/.build/postgres-url"
fi
