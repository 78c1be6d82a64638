#!/usr/bin/env bash
# The lab's entry points (npm start / npm test call these):
#   scripts/lab.sh start   set up what serving needs, build the WebAssembly module and serve the lab page
#   scripts/lab.sh test    set up what the tests need, build everything and run every test suite
#   scripts/lab.sh build   set up and build everything
# (scripts/setup.sh serve|test|bench says which packages each installs.)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Emscripten's optimizer needs Debian's node-acorn
JOBS=${JOBS:-$(nproc)}

build_native() {
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C build/native -j "$JOBS"
}

build_wasm() {  # the module for the page (every variant, laid out in web/wasm/)
  bash scripts/build-wasm.sh
}

build_wasm_tests() {  # the C++ suites under emcc, run in Node by ctest (and core_webgpu_tests for Chromium)
  ninja -C build/wasm-st -j "$JOBS"
  ninja -C build/wasm-mt -j "$JOBS"
}

# npm start: the page is served as soon as one variant is laid out, the one the page will load (threads
# where npm start's server makes it cross-origin isolated, else one thread); the others follow in the
# background and the page takes them from its next load (web/wasm/builds.json).
start_lab() {
  local order=(mt gpu st)
  [[ " $* " == *" --no-isolation "* ]] && order=(st gpu mt)
  bash scripts/build-wasm.sh --first "${order[@]}"
  exec node scripts/serve.mjs "$@"
}

# The kernels against the reference and every op's backward against central differences on Chromium's
# WebGPU adapter (software: small shapes only).
run_webgpu_tests() {
  TF_WEBGPU_TIMEOUT_S=300 node tests/webgpu/run-in-chromium.mjs build/wasm-st/tests/core_webgpu_tests.js \
    -ts=gemm,webgpu_memory,op_consistency,gradcheck -tce='*bitwise*'
}

build_cuda() {
  # CI has no GPU, but the CUDA backend must keep compiling: its tests skip without a device.
  if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DTF_CUDA=ON -DTF_BUILD_BENCH=OFF \
      -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" >/dev/null
    ninja -C build/cuda -j "$JOBS" core_tests model_tests
  else
    echo "lab: nvcc not found, the CUDA backend is not built"
  fi
}

# m:ss
duration() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# Runs every suite, then prints one line per suite (passed or FAILED, its time) so the outcome fits one
# screen below the suites' own output.
run_tests() {
  local failed=0 results=() began=$SECONDS
  stage() {  # stage NAME COMMAND...: runs one suite, notes its outcome and time
    local name=$1 start=$SECONDS outcome=passed
    shift
    echo "=== $name"
    "$@" || { outcome=FAILED; failed=$((failed + 1)); echo "=== $name FAILED"; }
    results+=("$(printf '%-6s %6s  %s' "$outcome" "$(duration $((SECONDS - start)))" "$name")")
  }
  stage "C++ tests, native" ctest --test-dir build/native --output-on-failure -j "$JOBS"
  if [ -d build/cuda ]; then stage "C++ tests, CUDA build (GPU checks skip without a GPU)" ctest --test-dir build/cuda --output-on-failure -R "cuda|consistency" -j "$JOBS"; fi
  stage "thread pool under ThreadSanitizer" bash scripts/tsan-thread-pool.sh
  stage "C++ tests, wasm single-threaded (Node)" ctest --test-dir build/wasm-st --output-on-failure -j "$JOBS"
  stage "C++ tests, wasm threaded (Node)" ctest --test-dir build/wasm-mt --output-on-failure -j "$JOBS"
  stage "WebGPU backend in headless Chromium (doctest)" run_webgpu_tests
  stage "WebGPU dispatch, submit and upload counts on a recording device (node --test)" node --test tests/webgpu/
  stage "JS API of the wasm module (node --test)" node --test tests/wasm/
  stage "native CLI (node --test)" node --test tests/cli/
  stage "npm package: pack, install, train, tsc (node --test)" node --test tests/package/
  stage "fuzz targets, 30 s each (libFuzzer + ASan/UBSan)" bash scripts/fuzz.sh --ci
  stage "lab page in Chromium (node --test)" node --test --test-concurrency=1 tests/web/
  echo
  echo "=== summary (suite, outcome, time)"
  printf '%s\n' "${results[@]}"
  echo "suites: $((${#results[@]} - failed)) passed, $failed failed, $(duration $((SECONDS - began))) in all"
  [ "$failed" = 0 ]
}

command=${1:-}
case "$command" in
  build) bash scripts/setup.sh test; build_native; build_wasm; build_cuda ;;
  test) bash scripts/setup.sh test; build_native; build_wasm; build_wasm_tests; build_cuda; run_tests ;;
  start) bash scripts/setup.sh serve; start_lab "${@:2}" ;;
  *) echo "usage: scripts/lab.sh start|test|build" >&2; exit 2 ;;
esac
