#!/usr/bin/env bash
# The GPU batch for the lent H200: runs every test binary found in build/tests (built here with
# -DCMAKE_CUDA_ARCHITECTURES=90 and carried), then the benchmark commands given as arguments
# (each one quoted string, run from the repository root), logging everything under $OUT
# (or out/device when OUT is unset), and prints a short table last.
#   bash scripts/device-batch.sh "./build/flocklife bench life --quick"
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
summary=()
for t in build/tests/*_tests; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  "$t" --gtest_brief=1 >"$out/$name.log" 2>&1
  rc=$?
  line=$(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' "$out/$name.log" | tr '\n' ' ')
  summary+=("$(printf '%-28s rc=%d %s' "$name" "$rc" "$line")")
  grep -E '^\[  FAILED  \]' "$out/$name.log" | head -20
done
i=0
for cmd in "$@"; do
  i=$((i + 1))
  echo "== $cmd"
  bash -c "$cmd" >"$out/bench$i.log" 2>&1
  rc=$?
  tail -n 25 "$out/bench$i.log"
  summary+=("$(printf 'bench%-2d rc=%d %s' "$i" "$rc" "$cmd")")
done
echo "==== summary"
printf '%s\n' "${summary[@]}"
