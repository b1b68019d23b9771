#!/usr/bin/python3
"""Issue 8, sixteenth round: two CPU models of the per-lane candidate loop's passes (uniform random boids, as at the
start of a run), each run before deciding whether to build the design; neither was built.

    /usr/bin/python3 boids_round16_models.py refill N W SPLIT QUEUES M      (numpy)
    /usr/bin/python3 boids_round16_models.py chunks N W SPLIT WARPS R1,R2,...

The grid, the sort and each lane's half-chord rows come from boids_round15_loop_passes_model.py (cells W x 5
units across along y and z, SPLIT times narrower along x); a pass tests two candidates of one slot range, and a warp
runs each chunk of rows until its longest lane is done. Chunks hold 14 rows, as since round 15 (15 entries).

Beside these, round 15's model (boids_round15_loop_passes_model.py 5000000 W 8 40) for width 0.25 against 0.3333 at 5M:
  N=5000000 w=0.3333 split=8: rows/lane 40.3 cand/boid 503.3 ... chunk 13: passes/warp 310.9
  N=5000000 w=0.25 split=8: rows/lane 66.1 cand/boid 458.5 ... chunk 13: passes/warp 308.0

refill: QUEUES sampled queues of 32 M consecutive sorted boids per warp. "today": each 32 boids alone (the kernel
now). "refill-at-chunk": a lane whose boid is done takes the queue's next boid at the next chunk. "stream": lane l
walks boids l, l + 32, ... back to back, a chunk switching boids mid-way (the most a lane could gain by not waiting
for its warp's other boids at the end of each boid; ignores the cost of switching and the L1 cache).
Output (this round; arguments 1000000 0.5 4 40 4, 1000000 0.5 4 20 16, 5000000 0.3333 8 40 4):
  N=1000000 w=0.5 split=4 queue=128: passes per 32 boids: today 89.3  refill-at-chunk 89.9 (0.994x)  stream 88.6 (1.008x)
  N=1000000 w=0.5 split=4 queue=512: passes per 32 boids: today 89.7  refill-at-chunk 89.8 (0.999x)  stream 88.5 (1.014x)
  N=5000000 w=0.3333 split=8 queue=128: passes per 32 boids: today 318.5  refill-at-chunk 362.3 (0.879x)  stream 318.1 (1.001x)
(x: today's passes over the variant's, so below 1 means the variant needs more passes.) So the lanes' unequal
totals (round 15's -15 %) are the spread inside each chunk, not across a lane's boids; and refilled lanes lose the shared walk order that keeps a chunk's rows alike across the warp (at 5M, ~3 chunks per boid,
a lane starting a boid walks the ball's short end rows while the others walk its long middle ones, and the warp
waits for the longest).

chunks: WARPS sampled warps; passes per warp for chunks of R rows each (ratio to 14 rows).
Output (this round; arguments 1000000 0.5 4 150 9,11,13,14,17,20,24 and 5000000 0.3333 8 60 9,11,13,14,17,20,24):
  N=1000000 w=0.5 split=4: passes per warp by rows per chunk: 9: 93.0 (1.047)  11: 90.8 (1.023)  13: 89.0 (1.002)  14: 88.8 (1.000)  17: 87.9 (0.989)  20: 86.5 (0.974)  24: 81.6 (0.919)
  N=5000000 w=0.3333 split=8: passes per warp by rows per chunk: 9: 326.6 (1.039)  11: 320.3 (1.019)  13: 315.0 (1.002)  14: 314.4 (1.000)  17: 312.6 (0.994)  20: 306.7 (0.975)  24: 302.9 (0.963)
Each row of a chunk is 8 bytes of shared memory per lane, taken from the L1 that caches the candidates (round 1's
8 / 16 / 24 rows: 24 was 1.4x slower at 1M, 1.5x at 5M).
"""
import numpy as np, sys

from boids_round15_loop_passes_model import sortedLanes

mode = sys.argv[1]
N = int(sys.argv[2]); w = float(sys.argv[3]); split = int(sys.argv[4])
rng = np.random.default_rng(1)
P, lane_rows = sortedLanes(N, w, split, rng)


def passes(rows): return sum((c + 1) // 2 for c in rows if c > 0)


def chunked(lanes, ch):
    """Passes of a warp whose lanes walk `lanes` (row lists) in chunks of ch rows."""
    mr = max(len(x) for x in lanes)
    return sum(max(passes(L[s:s + ch]) for L in lanes) for s in range(0, mr, ch))


if mode == 'refill':
    CH = 14; M = int(sys.argv[6]); base = refill = stream = nb = 0
    for q in rng.choice(N // (32 * M), int(sys.argv[5]), replace=False):
        boids = [lane_rows(P[q * 32 * M + k]) for k in range(32 * M)]
        nb += len(boids)
        base += sum(chunked(boids[g * 32:(g + 1) * 32], CH) for g in range(M))
        queue = list(range(32, 32 * M)); cur = [[0, l] for l in range(32)]  # [next row, boid]
        while any(c[1] is not None for c in cur):
            refill += max(passes(boids[c[1]][c[0]:c[0] + CH]) for c in cur if c[1] is not None)
            for c in cur:
                if c[1] is None: continue
                c[0] += CH
                if c[0] >= len(boids[c[1]]):
                    c[0] = 0; c[1] = queue.pop(0) if queue else None
        stream += chunked([sum((boids[l + 32 * g] for g in range(M)), []) for l in range(32)], CH)
    print(f"N={N} w={w} split={split} queue={32 * M}: passes per 32 boids: today {base / nb * 32:.1f}  "
          f"refill-at-chunk {refill / nb * 32:.1f} ({base / refill:.3f}x)  stream {stream / nb * 32:.1f} ({base / stream:.3f}x)")
else:
    ws = rng.choice(N // 32, int(sys.argv[5]), replace=False)
    chunks = [int(c) for c in sys.argv[6].split(',')]
    tot = {c: 0 for c in chunks}
    for wi in ws:
        lanes = [lane_rows(P[wi * 32 + l]) for l in range(32)]
        for c in chunks: tot[c] += chunked(lanes, c)
    b = tot[14]
    print(f"N={N} w={w} split={split}: passes per warp by rows per chunk: " +
          "  ".join(f"{c}: {tot[c] / len(ws):.1f} ({tot[c] / b:.3f})" for c in chunks))
