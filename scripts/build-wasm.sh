#!/usr/bin/env bash
# Builds the WebAssembly variants of the module and lays them out in web/wasm/ (git-ignored), which is where
# the page and the Node tests load them: st (single-threaded SIMD) and gpu (st's objects linked with the
# WebGPU backend) from one tree, build/wasm-st, and mt (pthreads SIMD) from build/wasm-mt. The JS wrapper
# stays in wasm/ alone: the dev server maps the page's wasm/tinyformer.js to it, and the static build and
# npm's prepack copy it (scripts/page-files.mjs, scripts/wasm-files.mjs).
#   scripts/build-wasm.sh [VARIANT...]          the variants named (default: st mt gpu), in that order
#   scripts/build-wasm.sh --first VARIANT...    the first in the foreground, the others after it in the
#                                               background (nice, log: build/wasm-background.log): npm start
#                                               serves the page as soon as the first is laid out
#   scripts/build-wasm.sh --tests               all three, and the C++ suites of st and mt under Node (ctest)
#   scripts/build-wasm.sh --webgpu-tests        core_webgpu_tests.js in build/wasm-st, for headless Chromium
# web/wasm/builds.json says which variants the page may load: each named variant is "building" until it is
# laid out ("ready") or its build fails ("failed"); the page reads it at every load, so a variant built in
# the background is used from the next load. The pthread worker script is copied as .cjs too: Node would
# load the .js as an ES module under the repository's package.json ("type": "module") and it is CommonJS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
jobs=${JOBS:-2}
out=$root/web/wasm

tree_of() { [[ $1 == mt ]] && echo mt || echo st; }

configure() {  # configure TREE: build/wasm-TREE (st builds the gpu variant too)
  local threads=OFF webgpu=ON
  [[ $1 == mt ]] && threads=ON webgpu=OFF
  local said
  said=$(emcmake cmake -S "$root" -B "$root/build/wasm-$1" -G Ninja -DTF_WASM_THREADS=$threads -DTF_WEBGPU=$webgpu \
    -DTF_BUILD_TESTS=ON -DTF_BUILD_BENCH=OFF 2>&1) || { echo "$said" >&2; return 1; }
}

# in_tree TREE TARGET...: configures build/wasm-TREE and builds the targets there (all without any), one
# build per tree at a time (a background build may still run when npm start is run again).
in_tree() {
  local tree=$1
  shift
  mkdir -p "$root/build"
  (flock 9 && configure "$tree" && ninja -C "$root/build/wasm-$tree" -j "$jobs" "$@") 9>"$root/build/wasm-$tree.lock"
}

# The state of each variant for the page, in build/wasm-state/ and written whole to web/wasm/builds.json
# (through a temporary file: the server may be reading it).
mark() {  # mark STATE VARIANT...
  local state=$1 v
  shift
  mkdir -p "$root/build/wasm-state" "$out"
  for v in "$@"; do echo "$state" >"$root/build/wasm-state/$v"; done
  local json="" sep=""
  for v in st mt gpu; do
    [[ -f $root/build/wasm-state/$v ]] || continue
    json+="$sep\"$v\": \"$(cat "$root/build/wasm-state/$v")\""
    sep=", "
  done
  echo "{$json}" >"$out/builds.json.tmp"
  mv "$out/builds.json.tmp" "$out/builds.json"
}

lay_out() {  # lay_out VARIANT: its files into web/wasm/, each renamed into place whole
  local from files=() f
  case $1 in
    st) from=$root/build/wasm-st/wasm files=(tinyformer-st.mjs tinyformer-st.wasm) ;;
    gpu) from=$root/build/wasm-st/wasm files=(tinyformer-gpu.mjs tinyformer-gpu.wasm) ;;
    mt) from=$root/build/wasm-mt/wasm files=(tinyformer-mt.mjs tinyformer-mt.wasm tinyformer-mt.worker.js) ;;
  esac
  for f in "${files[@]}"; do cp "$from/$f" "$out/$f.tmp" && mv "$out/$f.tmp" "$out/$f"; done
  [[ $1 == mt ]] && cp "$out/tinyformer-mt.worker.js" "$out/tinyformer-mt.worker.cjs"
  rm -f "$out"/tinyformer.js "$out"/tinyformer.d.ts  # copies made by earlier versions of this script
}

build() {  # build VARIANT: compiles, links and lays out one variant, and says so in builds.json
  local v=$1 target=tinyformer_wasm start=$SECONDS
  [[ $v == gpu ]] && target=tinyformer_wasm_gpu
  if in_tree "$(tree_of "$v")" $target && lay_out "$v"; then
    mark ready "$v"
    echo "build-wasm: $v ready in web/wasm/ ($((SECONDS - start)) s)"
  else
    mark failed "$v"
    echo "build-wasm: the $v build failed" >&2
    return 1
  fi
}

build_all() {  # build_all VARIANT...: every one, even after a failure; fails if one failed
  local v failed=0
  for v in "$@"; do build "$v" || failed=1; done
  return $failed
}

case ${1:-} in
  --webgpu-tests)
    in_tree st core_webgpu_tests ;;
  --tests)
    mark building st mt gpu
    build_all st mt gpu
    for tree in st mt; do
      in_tree $tree
      ctest --test-dir "$root/build/wasm-$tree" --output-on-failure
    done ;;
  --first)
    shift
    mark building "$@"
    build "$1"
    shift
    if (($#)); then
      log=$root/build/wasm-background.log
      echo "build-wasm: building $* in the background (log: ${log#"$root"/})"
      nohup nice -n 10 bash "$0" "$@" >"$log" 2>&1 </dev/null &
    fi ;;
  *)
    variants=("$@")
    ((${#variants[@]})) || variants=(st mt gpu)
    mark building "${variants[@]}"
    build_all "${variants[@]}" ;;
esac
