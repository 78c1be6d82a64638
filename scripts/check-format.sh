#!/usr/bin/env bash
# Fails when a tracked C++ or CUDA file is not as .clang-format (clang-format 14, Debian 12) would write it;
# `git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs clang-format -i` fixes them.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs clang-format --dry-run --Werror
echo "format: every C++ file as .clang-format has it"
