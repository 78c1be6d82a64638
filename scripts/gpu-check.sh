#!/usr/bin/env bash
# What only a machine with an NVIDIA GPU can check, in one run that prints one table: the CUDA and WebGPU
# builds, the CUDA parity tests, the WebGPU adapter headless Chromium reaches through Vulkan, the page's
# device benchmark on it (the course's story step on every device), the toy model trained to 0.56 on
# WebGPU in the page, and data-parallel training over NCCL under mpirun. About 10 minutes with
# `bash scripts/setup.sh test` done (builds from a warm ccache).
# Where there is no GPU (or no nvcc, emcc, Chromium or Vulkan driver) it runs what it can and the table says
# which checks it skipped and for want of what. Exit status 1 when a check that ran failed.
#   bash scripts/gpu-check.sh          logs: build/gpu-check/<check>.log
#
# CHECKS is the table: one row per check, "key|title|needs|seconds|function". needs: a comma list of the
# machine's tools (gpu, nvcc, emcc, chromium, vulkan, mpirun: see `has`) and of earlier checks that must have
# passed (after:<key>); seconds: the check's time limit. A new check is a row, a function that returns
# non-zero on failure and may `note` a figure, and, for a new need, a case in `has`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs} JOBS=${JOBS:-$(nproc)}
logs=$root/build/gpu-check
mkdir -p "$logs"
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

CHECKS=(
  "cuda-build|build: CUDA backend and its tests|nvcc|420|build_cuda"
  "webgpu-build|build: wasm modules, the WebGPU one included|emcc|420|build_webgpu"
  "cuda-parity|CUDA parity tests (ctest -R 'cuda or consistency')|gpu,after:cuda-build|180|cuda_parity"
  "adapter|Chromium's WebGPU adapter through Vulkan|gpu,vulkan,chromium|60|webgpu_adapter"
  "page-bench|the page's device benchmark, course size, 10 steps|gpu,vulkan,chromium,after:webgpu-build,after:adapter|240|page_bench"
  "toy|the toy model to 0.56 on WebGPU in the page|gpu,vulkan,chromium,after:webgpu-build,after:adapter|300|toy_on_webgpu"
  "nccl|data-parallel training over NCCL, one rank per GPU (mpirun)|gpu,mpirun,after:cuda-build|300|nccl_training"
)

note() { printf '%s' "$*" >"$logs/$key.note"; }

build_cuda() {
  cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DTF_CUDA=ON -DTF_BUILD_BENCH=OFF \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache &&
    ninja -C build/cuda -j "$JOBS" core_tests model_tests && note "build/cuda: core_tests, model_tests"
}

build_webgpu() {
  bash scripts/build-wasm.sh && note "web/wasm: $(cd web/wasm && echo *.wasm)"
}

# The tests pass without a device too (each says it skipped): on this machine they must not skip.
cuda_parity() {
  ctest --test-dir build/cuda -R "cuda|consistency" -V -j "$JOBS" || return 1
  if grep -Eq "CUDA (parity|checks) skipped" "$logs/$key.log"; then
    note "the tests skipped: the CUDA runtime sees no device"
    return 1
  fi
  note "$(grep -Eo '[0-9]+% tests passed.*' "$logs/$key.log" | tail -1)"
}

webgpu_adapter() {
  TF_CHROMIUM_GPU=vulkan node scripts/webgpu-adapter.mjs --hardware
  local status=$?
  note "$(head -1 "$logs/$key.log")"
  return "$status"
}

page_bench() {
  TF_CHROMIUM_GPU=vulkan node bench/page_device_bench.mjs --gpu --size course --steps 10 || return 1
  note "$(awk '$2 == "diffusion" { printf "%s %s tok/s%s; ", $1, $3, $1 == "webgpu" ? " (" $5 " dispatches, " $6 " submits a step)" : "" }' "$logs/$key.log")"
}

toy_on_webgpu() {
  TF_CHROMIUM_GPU=vulkan node --test --test-name-pattern='toy transformer trains to 0.56' tests/web/device-parity.test.mjs || return 1
  grep -q '^# pass 1' "$logs/$key.log" || { note "the test did not run (skipped)"; return 1; }
  note "$(grep -Eo '1500 toy steps on .*|final loss [0-9.]+' "$logs/$key.log" | tr '\n' ' ')"
}

# mpirun -np <GPUs> on CUDA against one process: 20 story steps' losses within 1e-4 relative, and the tokens
# per second of each. With one GPU the rank joins NCCL (its id sent over MPI) but has no one to sum with;
# two GPUs or more run the exchange itself.
nccl_training() {
  grep -q '^TF_NCCL_LIBRARY:FILEPATH=.*nccl' build/cuda/CMakeCache.txt || { note "build/cuda has no NCCL"; return 1; }
  ninja -C build/cuda -j "$JOBS" tinyformer || return 1
  local gpus cli=build/cuda/cli/tinyformer
  gpus=$(nvidia-smi -L | grep -c '^GPU')
  local run=(train --task stories --data builtin --steps 20 --seed 3 --no-eval --device cuda)
  rm -f "$logs"/nccl-*.jsonl  # --log appends
  "$cli" "${run[@]}" --log "$logs/nccl-one.jsonl" >"$logs/nccl-one.json" || return 1
  mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$gpus" "$cli" "${run[@]}" \
    --log "$logs/nccl-ranks.jsonl" >"$logs/nccl-ranks.json" || return 1
  local summary status
  summary=$(GPUS=$gpus /usr/bin/python3 - "$logs" <<'PY'
import json, os, sys
d = sys.argv[1]
loss = lambda name: [json.loads(l)["loss"] for l in open(f"{d}/{name}.jsonl")]
rate = lambda name: json.loads(open(f"{d}/{name}.json").read().splitlines()[-1])["tokens_per_s"]
one, ranks = loss("nccl-one"), loss("nccl-ranks")
worst = max(abs(a - b) / abs(b) for a, b in zip(ranks, one))
print(f"{os.environ['GPUS']} rank(s): losses within {worst:.1e} of one process; "
      f"{rate('nccl-one'):.0f} -> {rate('nccl-ranks'):.0f} tok/s")
sys.exit(0 if len(one) == len(ranks) == 20 and worst <= 1e-4 else 1)
PY
  )
  status=$?
  note "$summary"
  return "$status"
}

# has NEED: whether this machine has it (prints why not on stdout when it does not).
has() {
  case $1 in
    gpu) nvidia-smi -L 2>/dev/null | grep -q '^GPU' || echo "no NVIDIA GPU (nvidia-smi lists none)" ;;
    nvcc) command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || echo "no nvcc" ;;
    emcc) command -v emcc >/dev/null || echo "no emcc (bash scripts/setup.sh test installs it)" ;;
    mpirun) command -v mpirun >/dev/null || echo "no mpirun (bash scripts/setup.sh test installs Open MPI)" ;;
    chromium) [ -x "$CHROMIUM" ] || echo "no Chromium at $CHROMIUM (bash scripts/setup.sh test installs it)" ;;
    vulkan) ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json >/dev/null 2>&1 ||
      echo "no NVIDIA Vulkan driver (no nvidia_icd.json: the driver's Vulkan part and libvulkan1 are needed)" ;;
    after:*) local result
      result=$(cat "$logs/${1#after:}.result" 2>/dev/null)
      [ "$result" = pass ] || echo "check ${1#after:} ${result:-did not run}" ;;
    *) echo "unknown need $1" ;;
  esac
}

export -f build_cuda build_webgpu cuda_parity webgpu_adapter page_bench toy_on_webgpu nccl_training note
export logs root
rm -f "$logs"/*.result "$logs"/*.note
started=$SECONDS
for row in "${CHECKS[@]}"; do
  IFS='|' read -r key title needs limit fn <<<"$row"
  missing=()
  for need in ${needs//,/ }; do
    why=$(has "$need")
    [ -n "$why" ] && missing+=("$why")
  done
  t0=$SECONDS
  if ((${#missing[@]})); then
    result=skipped
    printf 'skipped: %s' "$(printf '%s; ' "${missing[@]}" | sed 's/; $//')" >"$logs/$key.note"
    echo "=== $title: skipped"
  else
    echo "=== $title (at most $limit s, log: build/gpu-check/$key.log)"
    if key=$key timeout --kill-after=10 "$limit" bash -c "$fn" >"$logs/$key.log" 2>&1; then result=pass; else
      result=FAIL
      [ -s "$logs/$key.note" ] || tail -5 "$logs/$key.log" | tr '\n' ' ' | cut -c1-200 >"$logs/$key.note"
    fi
  fi
  echo "$result" >"$logs/$key.result"
  echo "$((SECONDS - t0))" >"$logs/$key.seconds"
done

echo
echo "gpu-check on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null): $((SECONDS - started)) s"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
echo "GPU: ${gpu:-none}"
printf '| %-58s | %-7s | %5s | %s\n' check result s note
printf '|%s|%s|%s|%s\n' "$(printf -- '-%.0s' {1..60})" "---------" "-------" "------"
failed=0
for row in "${CHECKS[@]}"; do
  IFS='|' read -r key title _ _ _ <<<"$row"
  result=$(cat "$logs/$key.result")
  [ "$result" = FAIL ] && failed=1
  printf '| %-58s | %-7s | %5s | %s\n' "$title" "$result" "$(cat "$logs/$key.seconds")" "$(cat "$logs/$key.note" 2>/dev/null)"
done
if [ -n "$(has gpu)" ]; then
  echo "No NVIDIA GPU here: the checks that need one were skipped (see above); run this script on a GPU machine."
fi
exit $failed
