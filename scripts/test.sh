#!/usr/bin/env bash
# Install what is missing, build, and run every test (GPU tests skip without a device).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
status=0
ctest --test-dir build --output-on-failure --timeout 600 || status=$?
# ctest lists the skipped tests by name only; here is why they skipped: GoogleTest writes the
# reason on the line after "file:line: Skipped", the report test "skipped: <reason>", fuzz.sh
# "fuzz.sh: SKIP: <reason>".
log=build/Testing/Temporary/LastTest.log
if [ -f "$log" ] && grep -qE ': Skipped$|^skipped: |: SKIP: ' "$log"; then
  echo "Skipped test cases, by the reason each gave (GoogleTest's cases, so also those inside a test binary"
  echo "that ctest runs as one test, such as the render tests; every test's output: $log):"
  awk '/: Skipped$/ { getline reason; n[reason]++; next }
       /^skipped: / { n[substr($0, 10)]++; next }
       /: SKIP: / { sub(/.*: SKIP: /, ""); n[$0]++ }
       END { for (r in n) printf "%6d  %s\n", n[r], r }' "$log" | sort -rn
fi
echo "scripts/test.sh: set-up, build and tests took $((SECONDS / 60)) m $((SECONDS % 60)) s"
exit "$status"
