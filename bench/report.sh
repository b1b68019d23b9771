#!/usr/bin/env bash
# Every benchmark behind bench/RESULTS.md and the README's charts, in one GPU batch (H200:
# about 8 minutes with the tests). Run from the repository root on the GPU machine, with the
# build folder made by `bash scripts/build.sh` (and, for the window rows, GL set up as in
# ../shared/device-gl: `source .gl/on-device.sh egl`). CSVs land in out/device/ (packed into
# $OUT/device-logs.tgz when OUT is set); copy them to bench/results/, then run
# scripts/plots.py and scripts/results_md.py.
set -uo pipefail
cd "$(dirname "$0")/.."
d=out/device
fl=./build/flocklife
STEP_TIMEOUT=${STEP_TIMEOUT:-240} bash scripts/device-batch.sh \
  "$fl life --random 0.5 --size 16384x16384 --gens 256 --backend cuda --json && $fl life --random 0.5 --size 16384x16384 --gens 256 --kernel simple --json" \
  "$fl bench life --sizes 1024,4096,16384,32768,65536 --sweep-size 8192 --gens 20 --reps 3 --csv $d/life_gpu.csv" \
  "./build/bench/fast_bench --sizes 16384,32768,65536 --k 8,12,16 --rules B3/S23,B36/S23,B3678/S34678,B36/S125 --csv $d/fast.csv" \
  "$fl bench scan --min-log2 16 --max-log2 28 --reps 20 --csv $d/scan.csv" \
  "$fl bench boids --series classic --n 5000,50000,100000,500000,1000000,5000000 --reps 5 --steps-per-rep 5 --warmup 3 --csv $d/boids_classic.csv" \
  "$fl bench boids --series constant-density --reps 5 --steps-per-rep 5 --warmup 3 --csv $d/boids_density.csv" \
  "$fl bench boids --n 100000,1000000 --cell-widths 0.5,1,2 --block-sizes 32,64,128,256,512,1024 --reps 5 --steps-per-rep 5 --csv $d/boids_tuning.csv" \
  "$fl scan-test > $d/scan_test.txt && $fl scan-test --size-log2 20 > $d/scan_test_20.txt && tail -n 5 $d/scan_test.txt" \
  "$fl boids --n 200000 --headless --window --frames 120 --window-size 1280x720 --no-vsync --screenshot $d/screenshot-boids.png && $fl life --random 0.3 --size 16384x16384 --window --headless --frames 300 --zoom -3 --window-size 1920x1080 --no-vsync && $fl life --random 0.3 --size 16384x16384 --window --headless --frames 300 --zoom -3 --window-size 1920x1080 --no-vsync --no-interop && $fl boids --n 10000000 --scale 1260 --window --headless --frames 300 --window-size 1920x1080 --no-vsync"
