#!/usr/bin/env bash
# Soak test on the device: Life and boids each run for SECONDS (default 600) inside one process
# (`--repeat-seconds`: the whole job again and again until the time is up, engine / simulation
# created afresh each time, so the length holds even when other work shares the GPU),
# checking that
#   - Life: every repetition ends in the same world (population and FNV-1a checksum of the cells
#     equal to the first; the CLI itself fails on a mismatch);
#   - boids: every repetition keeps the model's invariants (checked by the CLI) and the checksums
#     are reported (GPU float sums may legitimately differ in the last bits between runs);
#   - free device memory (cudaMemGetInfo after each repetition) does not shrink: the largest value
#     among the last tenth of the repetitions must be within 1 MiB of the largest among the first
#     tenth (maxima, so that other processes that use the same GPU for a while in the middle, e.g.
#     the tests, cannot raise a false alarm, while a leak of any size per repetition lowers every
#     later value); nvidia-smi memory.used is logged before and after.
#   scripts/soak.sh [SECONDS] [LIFE_ARGS] [BOIDS_ARGS]
#   SOAK_ONLY=life (or boids) runs one of the two.
# Defaults: Life fast kernel on a 16384^2 soup, 2000 generations per repetition; boids counting
# method, 1,000,000 boids, 200 steps per repetition. Logs in $OUT/soak or out/soak.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
life_args=${2:-"--kernel fast --random 0.3 --size 16384x16384 --seed 7 --gens 2000"}
boids_args=${3:-"--method counting --n 1000000 --seed 7 --steps 200"}
exe=${FLOCKLIFE:-build/flocklife}
out=${OUT:-out}/soak
mkdir -p "$out"
[[ -x $exe ]] || { echo "soak.sh: $exe not built"; exit 2; }
# The default runs need the GPU: say so once instead of failing both runs.
if ! nvidia-smi -L >/dev/null 2>&1 && [[ "$life_args $boids_args" != *"--backend cpu"* && "$life_args $boids_args" != *"--backend=cpu"* ]]; then
  echo "soak.sh: needs a CUDA device (nvidia-smi finds none); the default runs use --kernel fast and --method counting"
  exit 2
fi
status=0
smi() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1; }

soak() {  # name, command args
  local name=$1; shift
  echo "== $name: $exe $* --repeat-seconds $seconds"
  local before after s0 s1 wall
  before=$(smi)
  echo "   nvidia-smi memory.used before: ${before} MiB"
  s0=$(date +%s.%N)
  "$exe" "$@" --repeat-seconds "$seconds" >"$out/$name.log" 2>&1
  local rc=$?
  s1=$(date +%s.%N)
  wall=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.0f", b - a }')
  after=$(smi)
  local lines first last distinct k
  lines=$(grep -c '^repeat ' "$out/$name.log")
  k=$(( lines / 10 > 0 ? lines / 10 : 1 ))
  grep '^repeat ' "$out/$name.log" | sed -E 's/.*device memory free ([0-9]+) bytes$/\1/; t; s/.*/n\/a/' >"$out/$name-free.txt"
  first=$(head -n "$k" "$out/$name-free.txt" | sort -n | tail -1)
  last=$(tail -n "$k" "$out/$name-free.txt" | sort -n | tail -1)
  distinct=$(grep '^repeat ' "$out/$name.log" | sed -E 's/.*(checksum 0x[0-9a-f]+).*/\1/' | sort -u | wc -l)
  echo "   rc=$rc, ${wall} s, $lines repetitions, distinct checksums: $distinct, largest free device bytes in the first/last $k: $first / $last," \
       "nvidia-smi memory.used after: ${after} MiB"
  if [[ $rc -ne 0 || $lines -lt 2 ]]; then echo "   FAILED:"; tail -3 "$out/$name.log"; status=1; fi
  if [[ $first =~ ^[0-9]+$ && $last =~ ^[0-9]+$ ]] && (( first - last > 1048576 )); then
    echo "   LEAK: free device memory fell by $(( (first - last) / 1048576 )) MiB over the run"; status=1
  fi
  if [[ $name == life && $lines -ge 2 && $distinct -ne 1 ]]; then echo "   DRIFT: Life repetitions ended in different worlds"; status=1; fi
  echo "$name rc=$rc seconds=$wall reps=$lines distinct_checksums=$distinct free_first=$first free_last=$last smi_before=$before smi_after=$after" >>"$out/summary.txt"
}

: >"$out/summary.txt"
only=${SOAK_ONLY:-}
[[ -z $only || $only == life ]] && soak life life $life_args
[[ -z $only || $only == boids ]] && soak boids boids $boids_args
echo "==== soak summary ($out/summary.txt)"
cat "$out/summary.txt"
[[ $status -eq 0 ]] && echo "soak.sh: clean" || echo "soak.sh: PROBLEMS (see above)"
exit $status
