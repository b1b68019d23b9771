#!/usr/bin/env bash
# Runs the GPU tests under NVIDIA compute-sanitizer, every tool x every test binary, small sizes
# only, and prints a table tool x binary -> clean / errors / timeout.
#   scripts/sanitize.sh [TOOLS]          TOOLS default "memcheck racecheck initcheck synccheck"
# Needs a CUDA device and a CUDA build in build/ (scripts/build.sh). Logs: $OUT/sanitize or
# out/sanitize. Each run is bounded by SANITIZE_TIMEOUT seconds (default 180: one tool over the
# test binaries fits in a 10-minute call). SANITIZE_JOBS runs (default 1) go at once, each its own
# process on the same GPU (the sanitizer's slowdown is mostly on the host, so 12 runs in parallel
# on a 16-core machine take about as long as the slowest one). Exit status 1 when any run reports
# errors or times out.
# The filters keep the GPU suites but drop the big cases (4096x4096 tori, the 65537x65536 torus,
# scans above 2^31, 50,000 boids, 1000-step invariants, the bgolly oracle) that would take hours
# under the sanitizer; the same kernels run there at small sizes.
set -uo pipefail
cd "$(dirname "$0")/.."
tools=${1:-"memcheck racecheck initcheck synccheck"}
limit=${SANITIZE_TIMEOUT:-180}
out=${OUT:-out}/sanitize
mkdir -p "$out"
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[[ -x "$cs" ]] || { echo "sanitize.sh: compute-sanitizer not found (CUDA toolkit)"; exit 2; }
nvidia-smi -L >/dev/null 2>&1 || { echo "sanitize.sh: no CUDA device"; exit 2; }

declare -A filter=(
  [flocklife_common_tests]='ScanGpu*:CompactGpu*:RadixSortGpu*:SumGpu*:ScanDevice*:DeviceMemory*:-*SizesAbove2To31*'
  [flocklife_life_tests]='*EveryKernel*:*KernelVsOracle*:*KernelParamsVsOracle*:FastKernel*:TiledInplaceMemory*:-*4096*:*LargeWorld*:*Golly*:*cpu_*'
  [flocklife_boids_tests]='*EveryMethod*:GatherOption*:-*50000*:*Over1000Steps*:*cpu_*'
  [flocklife_display_tests]='LifeDisplayDevice.*'
)
binaries=(flocklife_common_tests flocklife_life_tests flocklife_boids_tests flocklife_display_tests)
parallel=${SANITIZE_JOBS:-1}
# One run: tool, binary -> writes $out/$tool-$b.log and $out/$tool-$b.result.
one() {
  local tool=$1 b=$2 extra=() rc summary tests res
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  [[ $tool == racecheck ]] && extra=(--racecheck-report hazard)
  local exe=build/tests/$b log=$out/$tool-$b.log
  if [[ ! -x $exe ]]; then echo missing >"$out/$tool-$b.result"; return; fi
  timeout "$limit" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 \
    "$exe" --gtest_filter="${filter[$b]}" --gtest_brief=1 >"$log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
  tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \]" "$log" | tr '\n' ' ')
  case $rc in
    0) res="clean ($tests)" ;;
    99) res="ERRORS: $summary" ;;
    124) res="TIMEOUT after ${limit}s" ;;
    *) res="FAILED rc=$rc $summary $tests" ;;
  esac
  echo "$res" >"$out/$tool-$b.result"
  echo "== $tool $b: $res"
}
for tool in $tools; do
  for b in "${binaries[@]}"; do
    while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
    one "$tool" "$b" &
  done
done
wait
declare -A result
status=0
for tool in $tools; do
  for b in "${binaries[@]}"; do
    result[$tool,$b]=$(cat "$out/$tool-$b.result" 2>/dev/null || echo "no result")
    [[ ${result[$tool,$b]} == clean* ]] || status=1
  done
done
echo
echo "==== compute-sanitizer: tool x binary (logs in $out)"
printf '%-10s %-24s %s\n' tool binary result
for tool in $tools; do
  for b in "${binaries[@]}"; do printf '%-10s %-24s %s\n' "$tool" "$b" "${result[$tool,$b]}"; done
done
exit $status
