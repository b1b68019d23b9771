#!/usr/bin/env bash
# The GPU batch for the lent H200: runs every test binary found in build/tests (built here with
# -DCMAKE_CUDA_ARCHITECTURES=90 and carried), then the benchmark commands given as arguments
# (each one quoted string, run from the repository root; $LOG names the log folder), logging
# everything under the log folder (packed when OUT is set, since only a few files come back from
# the device), prints each test binary's line as it ends and a short table last. Each benchmark command gets
# STEP_TIMEOUT seconds (default 300). DEVICE_BATCH_TESTS=0 skips the tests; DEVICE_BATCH_DIR
# (default out/device) is the log folder, packed as $OUT/device-logs-<its name>.tgz, so that two
# batches can run side by side (one per GPU, CUDA_VISIBLE_DEVICES). Exit status 1 when a test binary
# or a benchmark command failed (or timed out), else 0.
#   bash scripts/device-batch.sh "./build/flocklife bench life --quick"
set -uo pipefail
cd "$(dirname "$0")/.."
out=${DEVICE_BATCH_DIR:-out/device}
pack="${OUT:-}/device-logs-$(basename "$out").tgz"
rm -rf "$out"; mkdir -p "$out"
export LOG=$out
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
summary=()
status=0
for t in build/tests/*_tests; do
  [ "${DEVICE_BATCH_TESTS:-1}" = 0 ] && break
  [ -x "$t" ] || continue
  name=$(basename "$t")
  t0=$SECONDS
  timeout "${TEST_TIMEOUT:-600}" "$t" --gtest_brief=1 >"$out/$name.log" 2>&1
  rc=$?
  (( rc == 0 )) || status=1
  line=$(grep -E '^\[  (PASSED  |FAILED  |SKIPPED )\]|tests? ran' "$out/$name.log" | tr '\n' ' ')
  summary+=("$(printf '%-32s rc=%d %4ds %s' "$name" "$rc" "$((SECONDS - t0))" "$line")")
  echo "${summary[-1]}"  # as each binary ends, so that a call cut off mid-batch still shows where it was
  grep -E '^\[  FAILED  \]' "$out/$name.log" | head -20
  [ -n "${OUT:-}" ] && tar czf "$pack" -C "$out" .
done
i=0
for cmd in "$@"; do
  i=$((i + 1))
  echo "== $cmd"
  t0=$SECONDS
  timeout "${STEP_TIMEOUT:-300}" bash -c "$cmd" >"$out/bench$i.log" 2>&1
  rc=$?
  (( rc == 0 )) || status=1
  tail -n 12 "$out/bench$i.log"
  summary+=("$(printf 'bench%-2d rc=%d %4ds %s' "$i" "$rc" "$((SECONDS - t0))" "$cmd")")
  [ -n "${OUT:-}" ] && tar czf "$pack" -C "$out" .  # keep what ran if a later step is cut off
done
echo "==== summary"
printf '%s\n' "${summary[@]}"
[ -n "${OUT:-}" ] && tar czf "$pack" -C "$out" .
exit $status
