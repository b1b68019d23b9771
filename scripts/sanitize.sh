#!/usr/bin/env bash
# Runs the GPU tests under NVIDIA compute-sanitizer, every tool x every test binary, small sizes
# only, and prints a table tool x binary -> runs by outcome (clean, skipped, empty, TIMEOUT, ERRORS,
# FAILED, not-run).
#   scripts/sanitize.sh [TOOLS]          TOOLS default "memcheck racecheck initcheck synccheck"
# Needs a CUDA device and a CUDA build in build/ (scripts/build.sh; SANITIZE_BUILD_DIR names
# another build folder, e.g. ctest's for tests/scripts/sanitize_script_test.sh). Logs: $OUT/sanitize or
# out/sanitize. Each run is bounded by SANITIZE_TIMEOUT seconds (default 180: one tool over the
# test binaries fits in a 10-minute call). SANITIZE_JOBS runs (default 1) go at once, each its own
# process on the same GPU (the sanitizer's slowdown is mostly on the host, so 12 runs in parallel
# on a 16-core machine take about as long as the slowest one). SANITIZE_SHARDS (default 1) splits
# each (tool, binary) into that many gtest shards, each its own run; as many shards as tests gives
# one test per run (more shards than tests leave runs without a test, reported "empty", which
# count as failures). SANITIZE_FILTER replaces the gtest filter of every binary given (e.g. one
# method's tests). SANITIZE_BUDGET (seconds, default none) bounds the whole script: a run that
# would start after it is reported "not-run", and no run goes past it. A run's result names the
# tests it finished and, when it timed out, where: in a test, after its last test or before its
# first. Exit status 1 when any run
# reports errors, fails, times out, runs no test or is not run.
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
# initcheck reports 16-byte reads of uninitialised memory inside CUB's radix sort kernels that
# thrust::sort_by_key runs for coherent-zip: they read thrust's temporary buffer of
# tuple<float4, float4, uint32> values whole, padding included (12 bytes per element that nothing
# writes). Our code never reads those bytes; memcheck, racecheck and synccheck cover coherent-zip.
initcheck_extra='*coherent_zip*'  # excluded: added after the filter's '-', or as its negative part
read -r -a binaries <<<"${SANITIZE_BINARIES:-flocklife_common_tests flocklife_life_tests flocklife_boids_tests flocklife_display_tests}"
parallel=${SANITIZE_JOBS:-1}
shards=${SANITIZE_SHARDS:-1}  # gtest shards per (tool, binary), each its own process
[[ ${SANITIZE_BUDGET:-0} =~ ^[0-9]+$ ]] || { echo "sanitize.sh: SANITIZE_BUDGET=$SANITIZE_BUDGET: expected whole seconds"; exit 2; }
for v in SANITIZE_TIMEOUT SANITIZE_JOBS SANITIZE_SHARDS; do  # 0 or text would hang or run nothing
  [[ -z ${!v:-} || ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "sanitize.sh: $v=${!v}: expected a whole number >= 1"; exit 2; }
done
end=$(( ${SANITIZE_BUDGET:-0} > 0 ? SECONDS + SANITIZE_BUDGET : 0 ))  # 0: no overall bound
# One run: tool, binary, shard -> writes $out/$tool-$b[-sK].log and .result.
one() {
  local tool=$1 b=$2 k=$3 extra=() rc summary tests res f t=$limit
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  [[ $tool == racecheck ]] && extra=(--racecheck-report hazard)
  f=${SANITIZE_FILTER:-${filter[$b]}}
  if [[ $tool == initcheck && $b == flocklife_boids_tests ]]; then
    [[ $f == *-* ]] && f+=":$initcheck_extra" || f+="-$initcheck_extra"
  fi
  local exe=${SANITIZE_BUILD_DIR:-build}/tests/$b name=$tool-$b
  (( shards > 1 )) && name+=-s$k
  local log=$out/$name.log
  if [[ ! -x $exe ]]; then echo missing >"$out/$name.result"; return; fi
  if (( end > 0 )); then
    (( end - SECONDS < t )) && t=$(( end - SECONDS ))
    if (( t < 10 )); then echo "not-run (SANITIZE_BUDGET spent)" >"$out/$name.result"; echo "== $name: not-run"; return; fi
  fi
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k timeout "$t" "$cs" --tool "$tool" "${extra[@]}" \
    --error-exitcode 99 --print-limit 20 "$exe" --gtest_filter="$f" >"$log" 2>&1
  rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
  tests=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \] [0-9]" "$log" | tr '\n' ' ')
  # gtest prints "[       OK ] Suite.Test/param (N ms)" as each test ends: name them in the result.
  local done_tests running
  done_tests=$(grep -E '^\[       OK \]' "$log" | awk '{print $4}' | tr '\n' ' ')
  running=$(grep -E '^\[ RUN      \]' "$log" | tail -1 | awk '{print $4}')
  # Where a timed-out run stopped: in a test, after its last test ended, or before any began.
  local where="in $running"
  [[ -z $running ]] && where="before its first test"
  [[ -n $running && " $done_tests" == *" $running "* ]] && where="after its last test, $running"
  case $rc in
    0) if [[ -z $done_tests ]] && grep -qE '^\[  SKIPPED \] [0-9]' "$log"; then
         res="skipped ($tests)"  # every test of the run skipped: nothing was checked
       elif [[ -z $done_tests ]]; then
         res="empty (no test ran: the filter, or this shard of it, matched none: $f)"
       else
         res="clean ($tests) [$done_tests]"
       fi ;;
    99) res="ERRORS: $summary [$done_tests]" ;;
    124) res="TIMEOUT after ${t}s ($where), finished first: [$done_tests]" ;;
    *) res="FAILED rc=$rc $summary $tests [$done_tests]" ;;
  esac
  echo "$res" >"$out/$name.result"
  echo "== $name: $res"
}
for tool in $tools; do
  for b in "${binaries[@]}"; do
    rm -f "$out/$tool-$b"*.result "$out/$tool-$b"*.log  # an earlier run's, with other shards
    for ((k = 0; k < shards; ++k)); do
      while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
      one "$tool" "$b" "$k" &
    done
  done
done
wait
declare -A result
status=0
for tool in $tools; do
  for b in "${binaries[@]}"; do
    # Runs by outcome, the tests passed in the clean ones, and where the others stopped.
    result[$tool,$b]=$(cat "$out/$tool-$b"*.result 2>/dev/null | awk '
      { n[$1]++ }
      /^clean/ { for (i = 1; i < NF; i++) if ($i == "PASSED") passed += $(i + 2) }
      /^TIMEOUT/ { match($0, /\([^)]*\)/); stuck = stuck " " substr($0, RSTART + 1, RLENGTH - 2) ";" }
      END { split("clean skipped empty TIMEOUT ERRORS: FAILED not-run missing", order, " ")
            for (i = 1; i in order; i++) if (order[i] in n) printf "%s %d runs; ", order[i], n[order[i]]
            if (passed) printf "%d tests passed clean; ", passed
            if (stuck != "") printf "timed out:%s", stuck }')
    [[ -n ${result[$tool,$b]} ]] || result[$tool,$b]="no result"
    grep -qvE '^(clean|skipped)' "$out/$tool-$b"*.result 2>/dev/null && status=1
    [[ ${result[$tool,$b]} == "no result" ]] && status=1
  done
done
echo
echo "==== compute-sanitizer: tool x binary (logs in $out)"
printf '%-10s %-24s %s\n' tool binary result
for tool in $tools; do
  for b in "${binaries[@]}"; do printf '%-10s %-24s %s\n' "$tool" "$b" "${result[$tool,$b]}"; done
done
exit $status
