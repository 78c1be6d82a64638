#!/usr/bin/env bash
# Builds gemm_bench natively (build/bench-native) and, when emcc is present, as wasm single-threaded
# (build/bench-wasm-st) and threaded (build/bench-wasm-mt); TF_BENCH_BUILD=<prefix> replaces build/bench.
# Runs them and prints one table of GFLOP/s:
# native at 1 and 2 threads beside OpenBLAS, wasm at 1 thread, wasm threaded at 2, with the ratios; then one
# core's multiply-add ceiling natively and in wasm (bench/peak_flops.cpp) and the GEMM's share of it.
# OpenBLAS runs with OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset so it picks its own kernel for this CPU.
#   bench/run_gemm_bench.sh [--rounds N] [--clock wall|cpu]   (passed to gemm_bench; JOBS=2 for the builds)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh" bench  # OpenBLAS and the benchmark-only packages
bench_args=("$@")
clock=wall
for ((i = 0; i + 1 < ${#bench_args[@]}; ++i)); do
  if [[ ${bench_args[i]} == --clock ]]; then clock=${bench_args[i + 1]}; fi
done
jobs=${JOBS:-2}
prefix=${TF_BENCH_BUILD:-$root/build/bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

configure_and_build() {  # dir wrapper [cmake args...]; wrapper is env (native) or emcmake
  local dir=$1 wrapper=$2
  shift 2
  $wrapper cmake -S "$root" -B "$dir" -G Ninja -DTF_BUILD_TESTS=OFF -DTF_BUILD_CLI=OFF "$@" >"$out/cmake.log" 2>&1 ||
    { cat "$out/cmake.log"; exit 1; }
  ninja -C "$dir" -j"$jobs" gemm_bench peak_flops >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
}

echo "building native benchmark..." >&2
configure_and_build "$prefix-native" env
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$prefix-native/bench/gemm_bench" --tsv --threads 1,2 \
  "${bench_args[@]}" >"$out/native.tsv"
"$prefix-native/bench/peak_flops" >"$out/native_peak.json"

if command -v emcmake >/dev/null && command -v node >/dev/null; then
  export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
  echo "building wasm benchmarks..." >&2
  configure_and_build "$prefix-wasm-st" emcmake
  configure_and_build "$prefix-wasm-mt" emcmake -DTF_WASM_THREADS=ON
  node --no-experimental-fetch "$prefix-wasm-st/bench/gemm_bench.cjs" --tsv --threads 1 "${bench_args[@]}" \
    >"$out/wasm_st.tsv"
  node --no-experimental-fetch "$prefix-wasm-st/bench/peak_flops.cjs" >"$out/wasm_peak.json"
  node --no-experimental-fetch "$prefix-wasm-mt/bench/gemm_bench.cjs" --tsv --threads 2 "${bench_args[@]}" \
    >"$out/wasm_mt.tsv"
else
  echo "emcc or node missing: native numbers only" >&2
  : >"$out/wasm_st.tsv"
  : >"$out/wasm_mt.tsv"
  : >"$out/wasm_peak.json"
fi

# peak_flops prints {"isa":..., "lanes":..., "peak_gflops":...}.
peak() { sed -n 's/.*"peak_gflops":\([0-9.]*\).*/\1/p' "$1"; }
isa() { sed -n 's/.*"isa":"\([^"]*\)".*/\1/p' "$1"; }

# Rows: product M N K threads tinyformer openblas (tab-separated), joined on product and thread count.
awk -F'\t' -v clock="$clock" '
  FILENAME ~ /native\.tsv$/ { key = $1 SUBSEP $5; nat[key] = $6; blas[key] = $7; if ($5 == 1) { order[++n] = $1; mnk[$1] = $2 " " $3 " " $4 } }
  FILENAME ~ /wasm_st\.tsv$/ { wst[$1] = $6 }
  FILENAME ~ /wasm_mt\.tsv$/ { wmt[$1] = $6 }
  function ratio(a, b) { return (b > 0 && a != "") ? sprintf("%.2f", a / b) : "-" }
  function num(x) { return x == "" ? "-" : sprintf("%.1f", x) }
  END {
    printf "GEMM GFLOP/s (fastest call; %s clock). nat = Tinyformer natively, blas = OpenBLAS sgemm, wasm = Node\n", \
      clock == "cpu" ? "process CPU clock for 1 thread, wall" : "wall"
    printf "%-15s %-15s | %7s %7s %5s | %7s %7s %5s | %7s %5s | %7s %5s\n", "product", "M N K", \
      "nat 1t", "blas 1t", "ratio", "nat 2t", "blas 2t", "ratio", "wasm 1t", "/nat", "wasm 2t", "/nat"
    for (i = 1; i <= n; ++i) {
      p = order[i]; k1 = p SUBSEP 1; k2 = p SUBSEP 2
      printf "%-15s %-15s | %7s %7s %5s | %7s %7s %5s | %7s %5s | %7s %5s\n", p, mnk[p], \
        num(nat[k1]), num(blas[k1]), ratio(nat[k1], blas[k1]), num(nat[k2]), num(blas[k2]), ratio(nat[k2], blas[k2]), \
        num(wst[p]), ratio(wst[p], nat[k1]), num(wmt[p]), ratio(wmt[p], nat[k2])
      if (blas[k1] > 0) { g1 += log(nat[k1] / blas[k1]); c1++ }
      if (blas[k2] > 0) { g2 += log(nat[k2] / blas[k2]); c2++ }
      if (wst[p] != "" && (lo == "" || wst[p] + 0 < lo)) lo = wst[p] + 0
      if (nat[k1] + 0 > nbest) nbest = nat[k1] + 0
      if (wst[p] + 0 > wbest) wbest = wst[p] + 0
    }
    printf "geometric mean native/OpenBLAS: 1 thread %s, 2 threads %s; slowest wasm 1-thread shape: %s GFLOP/s\n", \
      c1 ? sprintf("%.2f", exp(g1 / c1)) : "-", c2 ? sprintf("%.2f", exp(g2 / c2)) : "-", num(lo)
    printf "one core'"'"'s multiply-add ceiling (bench/peak_flops.cpp): native %s %s GFLOP/s, GEMM up to %s of it", \
      npeak_isa, num(npeak), (npeak > 0 ? sprintf("%.0f%%", 100 * nbest / npeak) : "-")
    if (wpeak > 0) printf "; wasm %s %s GFLOP/s, GEMM up to %.0f%% of it", wpeak_isa, num(wpeak), 100 * wbest / wpeak
    printf "\n"
  }' npeak="$(peak "$out/native_peak.json")" npeak_isa="$(isa "$out/native_peak.json")" \
     wpeak="$(peak "$out/wasm_peak.json")" wpeak_isa="$(isa "$out/wasm_peak.json")" \
     "$out/native.tsv" "$out/wasm_st.tsv" "$out/wasm_mt.tsv"
