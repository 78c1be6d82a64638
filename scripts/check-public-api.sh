#!/usr/bin/env bash
# The public API holds (issue 9): front ends — cli/, wasm/ and the benchmarks of the public path — include
# only the public headers core/tinyformer.hpp and core/runtime.hpp (and files of their own folder), and the
# worked example in core/tinyformer.hpp is the one tests/public_api/example.cpp compiles and runs.
# gemm_bench, cuda_bench and peak_flops time kernels or the SIMD shim, not the public path, so they may
# include backend headers.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

front_ends=$(ls cli/*.cpp cli/*.hpp wasm/*.cpp wasm/*.hpp bench/*.cpp 2>/dev/null | grep -v -e bench/gemm_bench.cpp -e bench/cuda_bench.cpp -e bench/peak_flops.cpp)
for file in $front_ends; do
  dir=$(dirname "$file")
  while IFS= read -r header; do
    case "$header" in
      tinyformer.hpp | runtime.hpp) ;;
      *) if [ ! -f "$dir/$header" ]; then
           echo "$file includes the core's internal header \"$header\": include \"tinyformer.hpp\" (or \"runtime.hpp\")"
           status=1
         fi ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done

# The example: the header's comment lines between the markers, against the program's lines between them.
example_lines() {  # FILE PREFIX-TO-DROP
  sed -n '/\/\/ example begin/,/\/\/ example end/p' "$1" | sed '1d;$d' | sed "s#^$2##" |
    sed 's/^[[:space:]]*//;s/[[:space:]]*$//;s/[[:space:]][[:space:]]*\/\/ /  \/\/ /' | grep -v '^$'
}
if ! diff <(example_lines core/tinyformer.hpp '//') <(example_lines tests/public_api/example.cpp '') >/dev/null; then
  echo "the worked example in core/tinyformer.hpp differs from tests/public_api/example.cpp:"
  diff <(example_lines core/tinyformer.hpp '//') <(example_lines tests/public_api/example.cpp '') || true
  status=1
fi

[ "$status" = 0 ] && echo "public API: front ends include only tinyformer.hpp / runtime.hpp; the example matches"
exit "$status"
