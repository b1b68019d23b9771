#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run Life on a shipped
# pattern (the GPU when one is usable, otherwise the CPU backend, with a note saying so).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
# The Gosper glider gun on a 1024x1024 torus: it fires a glider every 30 generations.
./build/flocklife life --pattern data/patterns/gosper-glider-gun.rle --size 1024x1024 --gens 2000 \
  --out build/gosper-2000.rle
echo "final torus written to build/gosper-2000.rle"
