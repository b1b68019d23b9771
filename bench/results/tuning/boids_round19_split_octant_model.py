#!/usr/bin/python3
"""Issue 8, nineteenth round: candidates per boid of coarseLaneKernel's octant walk (forEachOctantRun) on cubes, and on
cubes split S times along x with each run clipped to the ball's half chord in x cells (f88d1b5), at the density of 10M
boids at constant density (a CPU model; not a GPU measurement).

    /usr/bin/python3 boids_round19_split_octant_model.py STATE.csv SCALE SAMPLES      (numpy)

STATE.csv: a state written by `flocklife boids --out` (x,y,z,...), e.g. 1M boids at scale 584.8 (1260 x cbrt(1/10)):
    flocklife boids --backend cpu --method cpu-grid --n 1000000 --scale 584.8 --steps 0 --out f1m_0.csv
    flocklife boids --backend cpu --method cpu-grid --n 1000000 --scale 584.8 --steps 500 --out f1m_500.csv
Cells of width 2.25 x 5 units (the automatic width at 10M), reach 5.6 (5 + the skin of sorting every 4 steps), open cube.
(The 0- and 500-step states took 0.1 s and 269 s on 2 cores; the files, 72 MB each, are not kept.) Output:
  /tmp/f1m_0.csv: N=1000000, scale 584.8, 2000 sampled boids, cubes 11.355 wide, reach 5.6
    neighbours within 5: mean 0.34
    split 1: candidates per boid mean 6.23 (1.000x split 1), p90 10
    split 2: candidates per boid mean 4.49 (0.720x split 1), p90 8
    split 4: candidates per boid mean 3.62 (0.580x split 1), p90 6
    split 8: candidates per boid mean 3.17 (0.508x split 1), p90 6
  /tmp/f1m_500.csv: N=1000000, scale 584.8, 2000 sampled boids, cubes 11.355 wide, reach 5.6
    neighbours within 5: mean 4.72
    split 1: candidates per boid mean 15.13 (1.000x split 1), p90 28
    split 2: candidates per boid mean 13.33 (0.881x split 1), p90 25
    split 4: candidates per boid mean 12.14 (0.802x split 1), p90 23
    split 8: candidates per boid mean 11.44 (0.756x split 1), p90 22
"""
import numpy as np, sys
P = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1, usecols=(0, 1, 2)).astype(np.float64)
scale = float(sys.argv[2]); ns = int(sys.argv[3]); reach = 5.6; r5 = 5.0
N = len(P); rng = np.random.default_rng(3)
samp = rng.choice(N, ns, replace=False)
res = int(2 * scale / (2.25 * 5)); cw = 2 * scale / res

def grid(split):
    cwx = cw / split; resx = res * split
    ix = np.minimum(((P[:, 0] + scale) // cwx).astype(np.int64), resx - 1)
    iy = np.minimum(((P[:, 1] + scale) // cw).astype(np.int64), res - 1)
    iz = np.minimum(((P[:, 2] + scale) // cw).astype(np.int64), res - 1)
    return np.sort(ix + resx * (iy + res * iz)), resx, cwx

def count(keys, lo, hi):
    return np.searchsorted(keys, hi, 'right') - np.searchsorted(keys, lo, 'left')

def axis(p):
    c = min(int((p + scale) // cw), res - 1); lower = -scale + c * cw
    down, up = p - lower, lower + cw - p
    if down <= reach and c > 0: return c - 1, 2, [down * down, 0.0]
    if up <= reach and c < res - 1: return c, 2, [0.0, up * up]
    return c, 1, [0.0, np.inf]

grids = {s: grid(s) for s in (1, 2, 4, 8)}
cand = {s: [] for s in grids}; nb = []
for i in samp:
    px, py, pz = P[i]
    d2 = ((P - P[i]) ** 2).sum(1); nb.append(int((d2 < r5 * r5).sum()) - 1)
    ax, ay, az = axis(px), axis(py), axis(pz)
    for s, (keys, resx, cwx) in grids.items():
        total = 0
        for zk in range(2):
            for yk in range(2):
                gzy = az[2][zk] + ay[2][yk]
                if not gzy <= reach * reach: continue
                if s == 1:
                    first = ax[0] if gzy + ax[2][0] <= reach * reach else ax[0] + 1
                    last = ax[0] + 1 if ax[1] == 2 and gzy + ax[2][1] <= reach * reach else ax[0]
                else:
                    ch = np.sqrt(reach * reach - gzy)
                    first = max(int((px + scale - ch) // cwx), ax[0] * s)
                    last = min(int((px + scale + ch) // cwx), (ax[0] + ax[1]) * s - 1)
                row = resx * ((ay[0] + yk) + res * (az[0] + zk))
                total += count(keys, row + first, row + last)
        cand[s].append(total - 1)
print(f"{sys.argv[1]}: N={N}, scale {scale}, {ns} sampled boids, cubes {cw:.3f} wide, reach {reach}")
print(f"  neighbours within 5: mean {np.mean(nb):.2f}")
for s in grids:
    c = np.array(cand[s])
    print(f"  split {s}: candidates per boid mean {c.mean():.2f} ({c.mean() / np.mean(cand[1]):.3f}x split 1), p90 {np.percentile(c, 90):.0f}")
