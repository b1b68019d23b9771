#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run Life on a shipped
# input (the GPU when one is usable, otherwise the CPU backend, with a note saying so).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/flocklife life --random 0.5 --size 1024x1024 --gens 1000
