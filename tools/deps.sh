#!/usr/bin/env bash
# tools/deps.sh — `make deps` (run first by `make test`): installs what the tests need on a machine
# that has only the Rust toolchain (stable + nightly, as on this project's machines). Idempotent:
# a second run installs nothing and takes about a second.
#
#   system packages  apt-get, when missing and we are root: libclang-dev (bindgen, layout-test),
#                    chromium (the .riv browser harness), pkg-config (install-test), nodejs/npm
#                    (glTF validator, browser harness), python3-venv. Not root and something
#                    missing: one line naming the packages, exit 2.
#   Python           a virtualenv in target/venv with the pinned Pillow and numpy of tools/requirements.txt
#                    (the judge of anim-check); every Python script of the tests runs with it, so
#                    no test depends on which python3 is first on PATH.
#   npm              `npm ci` of the pinned lock files in tests/browser and tests/gltf.
#   cargo-fuzz       the pinned version into target/tools/bin (the Makefile puts it on PATH).
#
# Prints one line per step that did something, and "deps: ready" at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tools=$root/target/tools
venv=$root/target/venv
CARGO_FUZZ_VERSION=0.13.2

# ---- system packages -------------------------------------------------------------------------
need=()
# bindgen's libclang (clang-sys looks for libclang.so or libclang-N.so*; libclang-cpp is another library)
any() { for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
any /usr/lib/llvm-*/lib/libclang.so /usr/lib/*/libclang.so /usr/lib/*/libclang-[0-9]*.so* || need+=(libclang-dev)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
command -v cc >/dev/null || need+=(gcc)
if ! command -v python3 >/dev/null; then
  need+=(python3 python3-venv)
elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  need+=(python3-venv)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "deps: missing system packages: ${need[*]} (as root: apt-get install -y ${need[*]})" >&2
    exit 2
  fi
  echo "deps: apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

# ---- toolchains ------------------------------------------------------------------------------
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "deps: the nightly Rust toolchain is missing (fuzz targets, sanitizers): rustup toolchain install nightly" >&2
  exit 2
fi

# ---- Python: target/venv with pinned Pillow ---------------------------------------------------
stamp=$venv/.requirements
if ! cmp -s tools/requirements.txt "$stamp" 2>/dev/null || ! "$venv/bin/python" -c 'import PIL, numpy' 2>/dev/null; then
  echo "deps: Python virtualenv target/venv ($(tr '\n' ' ' <tools/requirements.txt))"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r tools/requirements.txt
  cp tools/requirements.txt "$stamp"
fi

# ---- npm: pinned lock files -------------------------------------------------------------------
for d in tests/browser tests/gltf; do
  if ! cmp -s "$d/package-lock.json" "$d/node_modules/.package-lock.json.ci" 2>/dev/null; then
    echo "deps: npm ci in $d"
    (cd "$d" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
    cp "$d/package-lock.json" "$d/node_modules/.package-lock.json.ci"
  fi
done

# ---- cargo-fuzz --------------------------------------------------------------------------------
if [ "$("$tools/bin/cargo-fuzz" --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  echo "deps: cargo install cargo-fuzz $CARGO_FUZZ_VERSION into target/tools"
  cargo install --quiet --locked --root "$tools" cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

echo "deps: ready"
