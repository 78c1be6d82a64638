#!/usr/bin/env bash
# Benchmark on a GPU machine: Tinyformer's CUDA backend beside PyTorch on the same GPU (tokens/s of training
# steps; story model and a full-size configuration). Builds build/cuda with -DTF_CUDA=ON first.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DTF_CUDA=ON >/dev/null
ninja -C build/cuda cuda_bench >/dev/null
echo "tinyformer:"; build/cuda/bench/cuda_bench "${1:-20}"
echo "pytorch:"; python3 bench/torch_reference.py cuda
