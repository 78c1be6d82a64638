#!/usr/bin/env bash
# Installs what Tinyformer needs on a Debian 12 machine, idempotently: Debian packages (compilers, Emscripten,
# the header-only libraries, Chromium for the browser tests, PyTorch and OpenBLAS as references for tests
# and benchmarks) and the npm packages of package-lock.json. Safe to run again: it only installs what is
# missing. Needs root (or sudo) the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build git ca-certificates curl
  emscripten node-acorn
  libxsimd-dev libxtensor-dev doctest-dev nlohmann-json3-dev
  libcurl4-openssl-dev libcli11-dev clang-format
  libopenblas-dev libopenblas0-openmp python3-torch python3-numpy
  chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# npm packages, when the lock file changed since the last install.
if [ -f package-lock.json ]; then
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
fi
echo "setup: ok"
