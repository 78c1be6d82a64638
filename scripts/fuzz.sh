#!/usr/bin/env bash
# The fuzz targets of fuzz/ (libFuzzer, clang-14 with ASan + UBSan), built in build/fuzz and run one after
# another, each for a fixed time from its seed corpus (fuzz/corpus/<target>; what a run finds is kept in
# build/fuzz/corpus/<target>). Any crash, sanitizer report, leak, timeout or out-of-memory fails the script
# and leaves its input in build/fuzz/artifacts/. One summary line per target: executions, cov, ft, crashes.
#   scripts/fuzz.sh --ci        CI: 30 s per target (FUZZ_CI_SECONDS)
#   scripts/fuzz.sh --long      10 minutes per target, the figures a closing note quotes
#   scripts/fuzz.sh [SECONDS]   any other time per target (default 60)
#   FUZZ_TARGETS="config_json text_data" scripts/fuzz.sh 10    a subset; FUZZ_BUILD_DIR=... another build
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
case "${1:-}" in
  --ci) seconds=${FUZZ_CI_SECONDS:-30} ;;
  --long) seconds=600 ;;
  '') ;;
  *[!0-9]* | 0) echo "usage: scripts/fuzz.sh [--ci | --long | SECONDS]" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac
targets=${FUZZ_TARGETS:-"safetensors_round_trip checkpoint_model wasm_entry_points train_step text_data config_json cli_args"}
build=${FUZZ_BUILD_DIR:-build/fuzz}
CXX_COMPILER=${FUZZ_CXX:-clang++-14}
command -v "$CXX_COMPILER" >/dev/null || { echo "fuzz: $CXX_COMPILER not found (scripts/setup.sh installs it)" >&2; exit 1; }

cmake -S . -B "$build" -G Ninja -DTF_FUZZ=ON -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER="$CXX_COMPILER" >/dev/null
ninja -C "$build" -j "${JOBS:-$(nproc)}" $(for t in $targets; do echo "fuzz_$t"; done)

ulimit -s unlimited 2>/dev/null || ulimit -s 65536 2>/dev/null || true  # deep recursion is a finding, not a stack limit
mkdir -p "$build/artifacts" "$build/logs"
failed=0
for t in $targets; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  rm -f "$build/artifacts/$t-"*
  extra=()
  case $t in
    text_data) ;;
    cli_args) extra=(-dict=fuzz/cli.dict -close_fd_mask=3) ;;  # help texts and usage errors: not the log's
    *) extra=(-dict=fuzz/json.dict) ;;                             # JSON headers, configs, metadata keys
  esac
  log=$build/logs/$t.log
  # 2 GiB of RSS, 1 GiB per allocation, 10 s per input: a hostile file must be refused before it costs more.
  if "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "${extra[@]}" "$corpus" "fuzz/corpus/$t" \
    >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed=$((failed + 1))
  fi
  done_line=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$log" | tail -1 || true)
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
  cov=$(echo "$done_line" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || echo "?")
  ft=$(echo "$done_line" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+' || echo "?")
  crashes=$(ls "$build/artifacts" | grep -c "^$t-" || true)
  echo "fuzz $t: up to ${seconds}s, ${execs} executions, cov ${cov}, ft ${ft}, ${crashes} crash files: $status"
  if [ "$status" = FAILED ]; then
    grep -E 'ERROR|SUMMARY|invariant|Test unit written|==[0-9]+==' "$log" | head -20 >&2 || true
    echo "fuzz $t: full log in $log" >&2
  fi
done
[ "$failed" = 0 ]
