#!/usr/bin/env bash
# Stories beside PyTorch (issue 3): the default MyTransformer(2002) trained for 5000 steps (64 x 32 windows,
# Adam 1e-3) on the TinyStories excerpts in ../shared/data — the two training files, held-out loss on the
# valid file — with the diffusion loss and, causal, the next-token loss; the same configuration in PyTorch
# (bench/torch_reference.py) on the same data. Prints final training loss (mean of the last 200 steps) and
# held-out loss per token for both, and their ratio. Slow: about an hour on two cores.
bash scripts/setup.sh bench  # PyTorch on OpenBLAS and the benchmark-only packages
#   bench/compare_stories.sh [steps] [threads]
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-5000}
threads=${2:-1}
data=../shared/data
train=$data/tinystories-v2-train-head.txt,$data/tinystories-train-head.txt
valid=$data/tinystories-valid-head.txt
out=build/compare-stories
mkdir -p "$out"
ninja -C build/native tinyformer >/dev/null
ours() {  # mode flag
  build/native/cli/tinyformer train --task stories --data "$train" --valid "$valid" --steps "$steps" \
    --threads "$threads" --seed 1 --no-eval $2 --log "$out/tinyformer-$1.jsonl" >"$out/tinyformer-$1.json"
}
pytorch() {  # mode flag
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/torch_reference.py stories --train "$train" \
    --valid "$valid" --steps "$steps" --threads "$threads" --seed 1 $2 >"$out/pytorch-$1.jsonl"
}
# PyTorch's diffusion run is the longest by far (its log-softmax over 2048 rows of 2002 is slow here), so it
# runs alone beside the other three in turn.
pytorch diffusion "" &
ours diffusion ""
ours causal --causal
pytorch causal --causal
wait
/usr/bin/python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
print(f"{'model':<10} {'':<10} {'final loss':>11} {'held-out':>10}")
for mode in ("diffusion", "causal"):
    ours = json.loads(open(f"{out}/tinyformer-{mode}.json").read().strip().splitlines()[-1])
    ref = json.loads(open(f"{out}/pytorch-{mode}.jsonl").read().strip().splitlines()[-1])
    for name, r in (("tinyformer", ours), ("pytorch", ref)):
        print(f"{mode:<10} {name:<10} {r['final_loss']:>11.4f} {r['validation_loss']:>10.4f}")
    print(f"{mode:<10} {'ratio':<10} {ours['final_loss'] / ref['final_loss']:>11.4f} "
          f"{ours['validation_loss'] / ref['validation_loss']:>10.4f}")
PY
