#!/usr/bin/env bash
# Installs what one use of Tinyformer needs on a Debian 12 machine, idempotently (only what is missing):
#   scripts/setup.sh serve   the WebAssembly build and the page's npm files (npm start)
#   scripts/setup.sh test    that, the native build and what the tests compare against or drive: PyTorch,
#                            Chromium, tsc, clang-format, Open MPI, and the npm dev packages (npm test; the
#                            default)
#   scripts/setup.sh bench   serve + native, OpenBLAS and PyTorch, and bench/'s own npm packages (TensorFlow.js)
# Needs root (or sudo) the first time it installs a Debian package.
set -euo pipefail
cd "$(dirname "$0")/.."

SERVE_PACKAGES=(  # emcc and the header-only libraries the core compiles against; node runs emcc's optimizer
  cmake ninja-build ca-certificates emscripten node-acorn
  libxsimd-dev libxtensor-dev doctest-dev nlohmann-json3-dev
)
NATIVE_PACKAGES=(build-essential git libcurl4-openssl-dev libcli11-dev)  # the CLI parses options with CLI11
TEST_PACKAGES=(  # references and drivers of the test suites, and the checks CI runs
  clang-format node-typescript python3-torch python3-numpy chromium
  clang-14 libclang-rt-14-dev  # the fuzz targets (scripts/fuzz.sh): libFuzzer, ASan, UBSan
  time  # GNU time: the CPU time and peak memory of the CLI on hostile files (tests/cli/hostile.test.mjs)
)
MPI_PACKAGES=(openmpi-bin libopenmpi-dev)  # data-parallel training: mpirun -np N tinyformer train (TF_MPI)
BENCH_PACKAGES=(libopenblas-dev libopenblas0-openmp python3-torch python3-numpy)

install_debian_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  ((${#missing[@]})) || return 0
  echo "setup: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -q
  # --force-unsafe-io: dpkg does not fsync every file it unpacks (Emscripten alone is 7,400 files); a fresh
  # Debian 12's install for npm start took 94 and 139 s with it against 177 and 226 s without (README).
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
    -o Dpkg::Options::=--force-unsafe-io "${missing[@]}"
}

# npm_install DIR KIND: `npm ci` in DIR when its lock file changed since the last install or when the last
# install was leaner than KIND asks (KIND runtime: dependencies only; all: with devDependencies).
npm_install() {
  local dir=$1 kind=$2 stamp=$1/node_modules/.tinyformer-install
  [ -f "$dir/package-lock.json" ] || return 0
  if [ -f "$stamp" ] && [ "$stamp" -nt "$dir/package-lock.json" ] && { [ "$kind" = runtime ] || [ "$(cat "$stamp")" = all ]; }; then
    return 0
  fi
  local omit=()
  [ "$kind" = runtime ] && omit=(--omit=dev)
  (cd "$dir" && npm ci --no-audit --no-fund "${omit[@]}")
  echo "$kind" >"$stamp"
}

purpose=${1:-test}
case "$purpose" in
  serve)
    install_debian_packages "${SERVE_PACKAGES[@]}"
    npm_install . runtime ;;
  test)
    install_debian_packages "${SERVE_PACKAGES[@]}" "${NATIVE_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${MPI_PACKAGES[@]}"
    npm_install . all ;;
  bench)
    install_debian_packages "${SERVE_PACKAGES[@]}" "${NATIVE_PACKAGES[@]}" "${BENCH_PACKAGES[@]}"
    npm_install . runtime
    npm_install bench all ;;
  *) echo "usage: scripts/setup.sh serve|test|bench" >&2; exit 2 ;;
esac
echo "setup: ok ($purpose)"
