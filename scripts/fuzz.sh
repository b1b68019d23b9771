#!/usr/bin/env bash
# Fuzzes the Life pattern readers (RLE and plaintext .cells) with libFuzzer.
#   scripts/fuzz.sh [SECONDS]        default 600; CI runs it with 30
# Builds tests/fuzz/pattern_fuzz.cpp with clang -fsanitize=fuzzer,address,undefined into
# build-fuzz/, seeds the corpus from data/patterns and tests/fuzz/regressions (past findings), uses tests/fuzz/pattern.dict, and runs one
# job for SECONDS. Findings (crash-*, timeout-*, oom-*, leak-*) land in build-fuzz/findings/ and
# the script exits non-zero. Host memory seen by the readers is capped at 16 MiB
# (FLOCKLIFE_HOST_MEMORY_LIMIT), so huge declared sizes must be refused with a message.
# Exit status 77 (skip) when clang or its fuzzer runtime is missing (Debian: clang, libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a positive integer, got '$seconds'" >&2; exit 2; }
CXX=${FUZZ_CXX:-clang++}
if ! command -v "$CXX" >/dev/null; then
  echo "fuzz.sh: SKIP: $CXX not found (apt-get install clang libclang-rt-14-dev)"; exit 77
fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long){return 0;}' |
     "$CXX" -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz.sh: SKIP: $CXX has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"; exit 77
fi
out=build-fuzz
mkdir -p "$out/corpus" "$out/findings"
bin=$out/pattern_fuzz
srcs=(tests/fuzz/pattern_fuzz.cpp src/life/pattern.cpp src/life/rule.cpp src/life/world.cpp src/common/device.cpp src/common/checkpoint_io.cpp
      src/common/line_reader.cpp)
newest=$(ls -t "${srcs[@]}" src/life/*.hpp src/common/*.hpp | head -1)
if [[ ! -x "$bin" || "$newest" -nt "$bin" ]]; then
  echo "fuzz.sh: building $bin"
  "$CXX" -std=c++17 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -Wno-unknown-pragmas -Isrc "${srcs[@]}" -o "$bin"
fi
cp -n data/patterns/* "$out/corpus/" 2>/dev/null || true
echo "fuzz.sh: fuzzing for ${seconds}s (corpus $out/corpus, findings in $out/findings)"
set +e
"$bin" "$out/corpus" tests/fuzz/regressions -dict=tests/fuzz/pattern.dict -max_total_time="$seconds" -max_len=4096 \
  -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -artifact_prefix="$out/findings/" \
  -print_final_stats=1 2>&1 | tee "$out/fuzz.log" | grep -E "^#[0-9]+[[:space:]]+(pulse|DONE)|ERROR|SUMMARY|stat::|Test unit written" | tail -40
rc=${PIPESTATUS[0]}
set -e
if [[ $rc -ne 0 ]]; then echo "fuzz.sh: FAILED (exit $rc); see $out/fuzz.log and $out/findings/"; exit 1; fi
echo "fuzz.sh: clean"
