#!/usr/bin/env bash
# scripts/device-batch.sh's exit status, without a GPU: its benchmark commands only
# (DEVICE_BATCH_TESTS=0), with and without OUT (the packed logs). A batch whose commands all pass
# exits 0, one with a failing command 1 (the status was the last line's: a failed batch said 0).
#   tests/scripts/device_batch_script_test.sh SOURCE_DIR
set -uo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
batch() {  # batch OUT_OR_EMPTY COMMAND...: the script's exit status
  env OUT="$1" DEVICE_BATCH_TESTS=0 DEVICE_BATCH_DIR="$tmp/logs" bash "$src/scripts/device-batch.sh" "${@:2}" \
    >"$tmp/console.txt" 2>&1
}
expect() {  # expect STATUS DESCRIPTION OUT_OR_EMPTY COMMAND...
  local want=$1 what=$2; shift 2
  batch "$@"
  local got=$?
  if [[ $got == "$want" ]]; then echo "ok: $what"; else echo "FAILED: $what: exit $got, expected $want"; cat "$tmp/console.txt"; failures=$((failures + 1)); fi
}
mkdir "$tmp/out"
expect 0 "commands that pass, no OUT: exit 0" "" true "echo fine"
expect 0 "commands that pass, with OUT: exit 0" "$tmp/out" true
expect 1 "a failing command, no OUT: exit 1" "" true "exit 3"
expect 1 "a failing command before a passing one, with OUT: exit 1" "$tmp/out" "exit 3" true
[[ -s $tmp/out/device-logs-logs.tgz ]] && echo "ok: the logs are packed in OUT" ||
  { echo "FAILED: no $tmp/out/device-logs-logs.tgz"; failures=$((failures + 1)); }
exit $((failures > 0))
