#!/usr/bin/env bash
# The GPU batch behind bench/RESULTS.md, the README's charts and the reliability runs, in two
# phases that each fit one 10-minute device call (run `checks`, then `benches` right after, on the
# same warm machine). Run from the repository root on the GPU machine with the build folder made by
# `bash scripts/build.sh` (CUDA architectures 90) and, for the window rows, GL set up as in
# ../shared/device-gl (`source .gl/on-device.sh egl`). Made for two GPUs (GPU 0 and GPU 1); with
# one GPU both halves of each phase share it, and the soak's leak check is then only meaningful
# with SOAK_SECONDS runs made alone (scripts/soak.sh).
#
#   bench/report.sh checks    soak in the background (scripts/soak.sh, SOAK_SECONDS default 600:
#                             Life on GPU 0, boids on GPU 1, each alone on its GPU and started in
#                             its own session so that it outlives this call); after the soak's
#                             first tenth, every test binary (GPU 0) and scripts/sanitize.sh
#                             (GPU 1, all tools x binaries in parallel), done before its last tenth
#   bench/report.sh benches   waits for the soak, then every benchmark on GPU 0 and the FPS and
#                             window runs on GPU 1
#
# Logs and CSVs land in out/device/<part>/ and come back packed in $OUT (device-logs-*.tgz); copy
# the CSVs to bench/results/, then run scripts/plots.py and scripts/results_md.py.
set -uo pipefail
cd "$(dirname "$0")/.."
fl=./build/flocklife
soak_dir=/tmp/flocklife-soak  # outside the tree: survives between the two calls
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
g1=$(( ngpu > 1 ? 1 : 0 ))
mkdir -p out/device
pack() { [ -n "${OUT:-}" ] && tar czf "$OUT/device-logs-$1.tgz" -C out/device "$1"; }

checks() {
  local soak=${SOAK_SECONDS:-600}
  rm -rf "$soak_dir"; mkdir -p "$soak_dir"
  CUDA_VISIBLE_DEVICES=0 SOAK_ONLY=life OUT=$soak_dir/life setsid bash scripts/soak.sh "$soak" \
    >"$soak_dir/life.out" 2>&1 </dev/null &
  CUDA_VISIBLE_DEVICES=$g1 SOAK_ONLY=boids OUT=$soak_dir/boids setsid bash scripts/soak.sh "$soak" \
    >"$soak_dir/boids.out" 2>&1 </dev/null &
  echo "soak started ($soak s each, GPUs 0 and $g1); tests and sanitizers after its first tenth"
  sleep $(( soak / 10 + 20 ))
  local budget=$(( soak * 8 / 10 - 20 ))  # end before the soak's last tenth
  CUDA_VISIBLE_DEVICES=0 TEST_TIMEOUT=$budget DEVICE_BATCH_DIR=out/device/tests bash scripts/device-batch.sh &
  CUDA_VISIBLE_DEVICES=$g1 SANITIZE_JOBS=16 SANITIZE_TIMEOUT=$budget OUT=out/device/sanitize-run \
    bash scripts/sanitize.sh >out/device/sanitize.txt 2>&1
  wait
  mkdir -p out/device/sanitize && mv out/device/sanitize-run/sanitize/* out/device/sanitize.txt out/device/sanitize/
  tail -n 16 out/device/sanitize/sanitize.txt
  pack tests; pack sanitize
}

benches() {
  local waited=0
  while pgrep -f scripts/soak.sh >/dev/null && (( waited < 180 )); do sleep 5; waited=$((waited + 5)); done
  mkdir -p out/device/soak && cp -r "$soak_dir"/. out/device/soak/ 2>/dev/null
  cat out/device/soak/*.out 2>/dev/null | grep -E "^(life|boids) rc=|soak.sh:|LEAK|DRIFT|FAILED"
  pack soak
  local d=out/device/bench v=out/device/visual
  CUDA_VISIBLE_DEVICES=$g1 STEP_TIMEOUT=240 DEVICE_BATCH_TESTS=0 DEVICE_BATCH_DIR=$v bash scripts/device-batch.sh \
    "$fl bench fps boids --method naive --n 5000,50000,100000 --seconds 5 --warmup-seconds 1 --csv $v/fps_naive.csv && $fl bench fps boids --method grid,coherent-gather,counting,fast --n 5000,50000,500000,5000000 --seconds 5 --warmup-seconds 1 --csv $v/fps_grid.csv && $fl bench fps life --kernel fast,simple --size 16384x16384 --seconds 5 --warmup-seconds 1 --csv $v/fps_life.csv" \
    "$fl boids --n 200000 --headless --window --frames 120 --window-size 1280x720 --no-vsync --screenshot $v/screenshot-boids.png && $fl boids --n 10000000 --scale 1260 --window --headless --frames 300 --window-size 1920x1080 --no-vsync" \
    >out/device/visual.txt 2>&1 &
  STEP_TIMEOUT=${STEP_TIMEOUT:-150} CUDA_VISIBLE_DEVICES=0 DEVICE_BATCH_TESTS=0 DEVICE_BATCH_DIR=$d bash scripts/device-batch.sh \
    "$fl life --random 0.5 --size 16384x16384 --gens 256 --backend cuda --json && $fl life --random 0.5 --size 16384x16384 --gens 256 --kernel simple --json" \
    "$fl bench scan --min-log2 16 --max-log2 28 --reps 20 --csv $d/scan.csv" \
    "$fl bench boids --series classic --n 5000,50000,100000,500000,1000000,5000000 --reps 5 --steps-per-rep 5 --warmup 3 --csv $d/boids_classic.csv" \
    "$fl bench boids --series constant-density --reps 5 --steps-per-rep 5 --warmup 3 --csv $d/boids_density.csv" \
    "$fl bench boids --n 100000,1000000 --cell-widths 0.5,1,2 --block-sizes 32,64,128,256,512,1024 --reps 5 --steps-per-rep 5 --csv $d/boids_tuning.csv" \
    "$fl scan-test > $d/scan_test.txt && $fl scan-test --size-log2 20 > $d/scan_test_20.txt && tail -n 5 $d/scan_test.txt" \
    "$fl bench life --sizes 1024,4096,16384,32768,65536 --sweep-size 16384 --gens 20 --reps 3 --csv $d/life_gpu.csv"
  wait
  tail -n 8 out/device/visual.txt
}

case ${1:-} in
  checks) checks ;;
  benches) benches ;;
  *) echo "usage: bench/report.sh checks|benches" >&2; exit 2 ;;
esac
