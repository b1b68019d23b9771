#!/usr/bin/python3
"""Issue 8, twenty-second round: balanced lanes for the dense row-walk kernel (a CPU model, uniform random boids).

    /usr/bin/python3 boids_round22_dense_balance_model.py N W SPLIT BLOCK BLOCKS   (numpy)

Sorts N uniform boids as `fast` does (boids_round15_loop_passes_model.sortedLanes), takes BLOCKS sampled
blocks of BLOCK consecutive boids, and counts the candidate loop's passes per warp of 32 boids (two candidates a pass
within a slot range, a warp waiting for its longest lane in each chunk of 14 rows) four ways: the lanes
in cell order (today), the block's lanes ordered by their candidate totals before the walk (a counting
sort by total, stable, so equal totals keep cell order), that order with all of a lane's rows in one
chunk (a list as long as the longest walk), and the ideal (each lane's own passes, no waiting).
Ordering by a previous step's totals instead would do no better than the second figure.
Output of this round (1M: 1000000 0.5 4 512 12; 5M: 5000000 0.3333 8 128 24):
  N=1000000 w=0.5 split=4 block=512: loop passes per warp of 32 boids: today 91.2, ordered by total 88.2 (1.034x fewer),
    ordered by total with all rows in one chunk 75.0 (1.216x), no waiting 71.9 (1.268x)
  N=5000000 w=0.3333 split=8 block=128: loop passes per warp of 32 boids: today 314.7, ordered by total 313.3 (1.004x fewer),
    ordered by total with all rows in one chunk 273.8 (1.149x), no waiting 264.0 (1.192x)
"""
import numpy as np, sys
from boids_round15_loop_passes_model import sortedLanes

N = int(sys.argv[1]); w = float(sys.argv[2]); split = int(sys.argv[3]); B = int(sys.argv[4]); K = int(sys.argv[5])
rng = np.random.default_rng(1)
P, lane_rows = sortedLanes(N, w, split, rng)
CH = 14


def passes(rows): return sum((c + 1) // 2 for c in rows if c > 0)


def chunked(lanes, ch=CH):
    mr = max(len(x) for x in lanes)
    return sum(max(passes(L[s:s + ch]) for L in lanes) for s in range(0, mr, ch))


today = balanced = whole = ideal = n = 0
for q in rng.choice(N // B, K, replace=False):
    lanes = [lane_rows(P[q * B + k]) for k in range(B)]
    order = sorted(range(B), key=lambda k: sum(lanes[k]))
    today += sum(chunked(lanes[g:g + 32]) for g in range(0, B, 32))
    balanced += sum(chunked([lanes[k] for k in order[g:g + 32]]) for g in range(0, B, 32))
    whole += sum(chunked([lanes[k] for k in order[g:g + 32]], 10**6) for g in range(0, B, 32))
    ideal += sum(passes(L) for L in lanes) / 32
    n += B
f = 32 / n
print(f"N={N} w={w} split={split} block={B}: loop passes per warp of 32 boids: today {today * f:.1f}, "
      f"ordered by total {balanced * f:.1f} ({today / balanced:.3f}x fewer), "
      f"ordered by total with all rows in one chunk {whole * f:.1f} ({today / whole:.3f}x), no waiting {ideal * f:.1f} ({today / ideal:.3f}x)")
