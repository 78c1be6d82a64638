#!/usr/bin/env bash
# Builds the three WebAssembly variants of the module (single-threaded SIMD in build/wasm-st, pthreads SIMD
# in build/wasm-mt, single-threaded SIMD with the WebGPU backend in build/wasm-gpu) and lays them out in
# web/wasm/ (git-ignored), which is where the page and the Node tests load them. The JS wrapper stays in
# wasm/ alone: the dev server maps the page's wasm/tinyformer.js to it, and the static build and npm's
# prepack copy it (scripts/page-files.mjs, scripts/wasm-files.mjs). --tests also builds the C++ suites of st
# and mt and runs them under Node with ctest (the gpu build's CPU code is st's). The gpu build's doctest
# programs are for headless Chromium (Asyncify; tests/webgpu/run-in-chromium.mjs runs them):
# --webgpu-tests configures it and builds only core_tests there. The pthread worker script is copied as .cjs
# too: Node would load the .js as an ES module under the repository's package.json ("type": "module") and it
# is CommonJS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
jobs=${JOBS:-2}
with_tests=0
[[ ${1:-} == --tests ]] && with_tests=1
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

configure() {  # configure VARIANT: build/wasm-VARIANT
  local threads=OFF webgpu=OFF
  [[ $1 == mt ]] && threads=ON
  [[ $1 == gpu ]] && webgpu=ON
  emcmake cmake -S "$root" -B "$root/build/wasm-$1" -G Ninja -DTF_WASM_THREADS=$threads -DTF_WEBGPU=$webgpu \
    -DTF_WEBGPU_BROWSER_TESTS=$webgpu -DTF_BUILD_TESTS=ON -DTF_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
}

if [[ ${1:-} == --webgpu-tests ]]; then
  configure gpu
  ninja -C "$root/build/wasm-gpu" -j "$jobs" core_tests
  exit 0
fi

for variant in st mt gpu; do
  dir=$root/build/wasm-$variant
  configure $variant
  if ((with_tests)) && [[ $variant != gpu ]]; then
    ninja -C "$dir" -j "$jobs"
    ctest --test-dir "$dir" --output-on-failure
  else
    ninja -C "$dir" -j "$jobs" tinyformer_wasm
  fi
done

out=$root/web/wasm
mkdir -p "$out"
cp "$root"/build/wasm-st/wasm/tinyformer-st.{mjs,wasm} "$out"/
cp "$root"/build/wasm-mt/wasm/tinyformer-mt.{mjs,wasm,worker.js} "$out"/
cp "$root"/build/wasm-mt/wasm/tinyformer-mt.worker.js "$out"/tinyformer-mt.worker.cjs
cp "$root"/build/wasm-gpu/wasm/tinyformer-gpu.{mjs,wasm} "$out"/
rm -f "$out"/tinyformer.js "$out"/tinyformer.d.ts  # copies made by earlier versions of this script
echo "web/wasm: $(cd "$out" && ls | tr '\n' ' ')"
