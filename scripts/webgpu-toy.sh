#!/usr/bin/env bash
# The course's toy transformer (1500 steps, B1) trained on WebGPU in the page, also on a software adapter:
# CI skips it there (SwiftShader took 771 s, about 0.5 s a step), so this script runs it on demand and prints
# the time and final loss the test reports. Builds the module first (scripts/build-wasm.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
bash scripts/build-wasm.sh
TF_SLOW_ADAPTER_TOY=1 node --test --test-name-pattern='toy transformer trains to 0.56' tests/web/device-parity.test.mjs
