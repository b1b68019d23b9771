#!/usr/bin/env bash
# Configures and builds flocklife into build/ (Release). Extra arguments go to cmake, e.g.
# -DCMAKE_CUDA_ARCHITECTURES=86-real or -DFLOCKLIFE_ENABLE_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build --parallel "$(nproc)"
