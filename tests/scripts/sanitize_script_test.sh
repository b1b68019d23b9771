#!/usr/bin/env bash
# scripts/sanitize.sh's plumbing without a GPU or compute-sanitizer: test doubles of both run
# flocklife_common_tests' CPU tests, and the results, the summary and the exit status are checked
# for clean, skipped, empty, timed-out and not-run runs, a malformed SANITIZE_BUDGET, SANITIZE_JOBS or
# SANITIZE_SHARDS, and initcheck's
# exclusion of coherent_zip under a filter of the caller's.
#   tests/scripts/sanitize_script_test.sh SOURCE_DIR BUILD_DIR   (KEEP_TMP=1 keeps its scratch folder)
set -uo pipefail
src=$1 build=$2
tmp=$(mktemp -d)
trap '[[ -n ${KEEP_TMP:-} ]] || rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# compute-sanitizer's double: drops the tool's options, runs the program, then hangs in the shard
# FAKE_HANG names (so that the run times out after its tests ended).
cat >"$tmp/bin/compute-sanitizer" <<'DOUBLE'
#!/usr/bin/env bash
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in --tool|--racecheck-report|--error-exitcode|--print-limit|--leak-check) shift 2 ;; *) shift ;; esac
done
"$@"
rc=$?
[[ ${GTEST_SHARD_INDEX:-0} == "${FAKE_HANG:-none}" ]] && exec sleep 60
exit $rc
DOUBLE
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/compute-sanitizer" "$tmp/bin/nvidia-smi"
has_gpu=0
nvidia-smi -L >/dev/null 2>&1 && has_gpu=1  # the real one, before PATH gets the double

failures=0
check() {  # check DESCRIPTION COMMAND...: fails the test unless COMMAND succeeds
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# run NAME [VAR=VALUE...]: sanitize.sh (TOOL, default memcheck) over flocklife_common_tests (or
# SANITIZE_BINARIES); its console in $tmp/NAME.txt, its results and logs in $tmp/NAME/sanitize,
# its exit status in $tmp/NAME.rc.
run() {
  local name=$1; shift
  env PATH="$tmp/bin:$PATH" SANITIZE_BUILD_DIR="$build" SANITIZE_BINARIES=flocklife_common_tests \
    OUT="$tmp/$name" SANITIZE_TIMEOUT=60 "$@" bash "$src/scripts/sanitize.sh" "${TOOL:-memcheck}" >"$tmp/$name.txt" 2>&1
  echo $? >"$tmp/$name.rc"
}
a=ScanCpu.SmallKnownInput b=CompactCpu.BothCpuMethodsKeepNonZerosInOrder

run clean SANITIZE_FILTER="$a:$b" SANITIZE_SHARDS=2
check "two shards of CPU tests end clean, exit 0" grep -qx 0 "$tmp/clean.rc"
check "each clean run names the test it passed" \
  bash -c "grep -q '^clean (.*PASSED.* 1 test.*\\[$a \\]' $tmp/clean/sanitize/*-s*.result && grep -q '\\[$b \\]' $tmp/clean/sanitize/*-s*.result"
check "the summary counts runs and tests" grep -q 'clean 2 runs; 2 tests passed clean;' "$tmp/clean.txt"

run empty SANITIZE_FILTER=NoSuchSuite.NoSuchTest
check "a filter that matches no test is an empty run, counted in the summary, exit 1" \
  bash -c "grep -q '^empty (no test ran' $tmp/empty/sanitize/*.result && grep -q 'empty 1 runs;' $tmp/empty.txt && grep -qx 1 $tmp/empty.rc"

run hang SANITIZE_FILTER="$a" SANITIZE_TIMEOUT=3 FAKE_HANG=0
check "a run past SANITIZE_TIMEOUT after its last test times out, says where, exit 1" \
  bash -c "grep -q \"^TIMEOUT after 3s (after its last test, $a)\" $tmp/hang/sanitize/*.result && grep -q 'timed out: after its last test, $a;' $tmp/hang.txt && grep -qx 1 $tmp/hang.rc"

run badbudget SANITIZE_FILTER="$a" SANITIZE_BUDGET=20s
check "a SANITIZE_BUDGET that is not whole seconds is refused, exit 2" \
  bash -c "grep -q 'SANITIZE_BUDGET=20s: expected whole seconds' $tmp/badbudget.txt && grep -qx 2 $tmp/badbudget.rc"

run zerojobs SANITIZE_FILTER="$a" SANITIZE_JOBS=0
check "SANITIZE_JOBS=0 is refused, exit 2 (it waited forever)" \
  bash -c "grep -q 'SANITIZE_JOBS=0: expected a whole number >= 1' $tmp/zerojobs.txt && grep -qx 2 $tmp/zerojobs.rc"
run badshards SANITIZE_FILTER="$a" SANITIZE_SHARDS=two
check "SANITIZE_SHARDS=two is refused, exit 2" \
  bash -c "grep -q 'SANITIZE_SHARDS=two: expected a whole number >= 1' $tmp/badshards.txt && grep -qx 2 $tmp/badshards.rc"

# initcheck leaves out coherent_zip's tests (CUB's padding reads) also under a filter of the caller's.
TOOL=initcheck run initcheck SANITIZE_BINARIES=flocklife_boids_tests \
  SANITIZE_FILTER='Boids/EveryMethod.MatchesReferenceOnTinyAndEdgeScenes/*'
check "initcheck under SANITIZE_FILTER runs the filter's tests but coherent_zip's" \
  bash -c "grep -q '^\[ RUN .*TinyAndEdgeScenes/coherent_gather' $tmp/initcheck/sanitize/*.log && ! grep -q '^\[ RUN .*coherent_zip' $tmp/initcheck/sanitize/*.log"

run budget SANITIZE_FILTER="$a" SANITIZE_BUDGET=1
check "a run after SANITIZE_BUDGET is not run, exit 1" \
  bash -c "grep -q '^not-run (SANITIZE_BUDGET spent)' $tmp/budget/sanitize/*.result && grep -qx 1 $tmp/budget.rc"

if (( has_gpu )); then
  echo "skipped: the all-skipped case needs a machine without a GPU (GPU tests skip there)"
else
  run skipped SANITIZE_FILTER='AllGpuMethods/ScanGpu.*'
  check "a run whose tests all skip is reported skipped, exit 0" \
    bash -c "grep -q '^skipped (' $tmp/skipped/sanitize/*.result && grep -qx 0 $tmp/skipped.rc"
fi

if (( failures )); then
  for f in "$tmp"/*.txt; do echo "---- $f"; cat "$f"; done
  exit 1
fi
