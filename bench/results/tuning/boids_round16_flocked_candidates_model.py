#!/usr/bin/python3
"""Issue 8, sixteenth round: neighbours and candidates per boid once flocks have formed, at the density of 10M boids at
constant density (a CPU model of the walks on states of the CPU reference; not a GPU measurement).

    /usr/bin/python3 boids_round16_flocked_candidates_model.py STATE.csv SCALE SAMPLES      (numpy)

STATE.csv: a state written by `flocklife boids --out` (x,y,z,vx,vy,vz). The states of this round: 1M boids at scale
584.8 (1260 x cbrt(1/10), the density of 10M at scale 1260), seed 1 (the default), run by the CPU reference:
    flocklife boids --backend cpu --method cpu-grid --n 1000000 --scale 584.8 --steps 0 --out f1m_0.csv
    flocklife boids --backend cpu --method cpu-grid --n 1000000 --scale 584.8 --steps 500 --out f1m_500.csv
    flocklife boids --backend cpu --method cpu-grid --scale 584.8 --in f1m_500.csv --steps 2000 --out f1m_2500.csv
(238 s and 1,833 s on 2 cores; the files, 72 MB each, are not kept). For SAMPLES boids it counts the neighbours
within 5 units; the boids in the cubes meeting the box of a reach around the boid (an upper bound of
coarseLaneKernel's octant walk: cells 11.25 wide, reach 5 + the skin of up to 3 steps, 5.6); and the boids in the
half-chord rows of finer grids (forEachLaneRunFrom's walk), with the rows per boid and the cells the boids occupy.
Output (2,000 sampled boids each):
  /tmp/f1m_0.csv: N=1000000, scale 584.8, 2000 sampled boids
    neighbours within 5: mean 0.34, median 0, p90 1, max 3, share with none 0.715
    cubes 11.25 wide, box of reach 5.6: candidates mean 7.2 (21.3x the neighbours)
    cubes 10.0 wide, box of reach 5.0: candidates mean 5.0 (14.9x the neighbours)
    rows 5.0 x 5.0 (x split 1), reach 5.0: candidates mean 1.6 (4.8x), rows 8.1, occupied cells 961050 of 12649337
    rows 2.5 x 2.5 (x split 4), reach 5.0: candidates mean 0.7 (2.0x), rows 21.4, occupied cells 998773 of 407390252
    rows 1.67 x 1.67 (x split 8), reach 5.0: candidates mean 0.5 (1.6x), rows 40.9, occupied cells 999819 of 2744000000
  /tmp/f1m_500.csv: N=1000000, scale 584.8, 2000 sampled boids
    neighbours within 5: mean 4.72, median 5, p90 8, max 16, share with none 0.042
    cubes 11.25 wide, box of reach 5.6: candidates mean 16.2 (3.4x the neighbours)
    cubes 10.0 wide, box of reach 5.0: candidates mean 13.9 (3.0x the neighbours)
    rows 5.0 x 5.0 (x split 1), reach 5.0: candidates mean 9.4 (2.0x), rows 8.1, occupied cells 626960 of 12649337
    rows 2.5 x 2.5 (x split 4), reach 5.0: candidates mean 6.8 (1.4x), rows 21.4, occupied cells 999746 of 407390252
    rows 1.67 x 1.67 (x split 8), reach 5.0: candidates mean 6.1 (1.3x), rows 41.0, occupied cells 999998 of 2744000000
  /tmp/f1m_2500.csv: N=1000000, scale 584.8, 2000 sampled boids
    neighbours within 5: mean 9.37, median 9, p90 15, max 21, share with none 0.005
    cubes 11.25 wide, box of reach 5.6: candidates mean 56.6 (6.0x the neighbours)
    cubes 10.0 wide, box of reach 5.0: candidates mean 48.5 (5.2x the neighbours)
    rows 5.0 x 5.0 (x split 1), reach 5.0: candidates mean 29.5 (3.1x), rows 8.1, occupied cells 434669 of 12649337
    rows 2.5 x 2.5 (x split 4), reach 5.0: candidates mean 17.0 (1.8x), rows 21.4, occupied cells 999599 of 407390252
    rows 1.67 x 1.67 (x split 8), reach 5.0: candidates mean 14.1 (1.5x), rows 41.0, occupied cells 999999 of 2744000000
"""
import numpy as np, sys
P = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1, usecols=(0, 1, 2)).astype(np.float64)
scale = float(sys.argv[2]); ns = int(sys.argv[3]); r = 5.0
N = len(P); rng = np.random.default_rng(3)
samp = rng.choice(N, ns, replace=False)

def grid(width_yz, split):
    res = max(1, int(np.floor(2 * scale / width_yz))); cw = 2 * scale / res; cwx = cw / split; resx = res * split
    ix = np.minimum(((P[:, 0] + scale) // cwx).astype(np.int64), resx - 1)
    iy = np.minimum(((P[:, 1] + scale) // cw).astype(np.int64), res - 1)
    iz = np.minimum(((P[:, 2] + scale) // cw).astype(np.int64), res - 1)
    key = ix + resx * (iy + res * iz)
    order = np.argsort(key, kind='stable')
    return dict(res=res, resx=resx, cw=cw, cwx=cwx, key=key[order], P=P[order], ix=ix, iy=iy, iz=iz)

def cellcount(g, lo_key, hi_key):  # boids with lo_key <= key <= hi_key
    return np.searchsorted(g['key'], hi_key, 'right') - np.searchsorted(g['key'], lo_key, 'left')

# neighbours within r, and the boids of a 2.25-wide octant walk (cells 11.25, reach 5 + skin)
g5 = grid(5.0, 1)
def neighbours(i):
    p = P[i]; res = g5['res']; cw = g5['cw']; c = ((p + scale) // cw).astype(int)
    n = 0
    for z in range(max(0, c[2] - 1), min(res, c[2] + 2)):
        for y in range(max(0, c[1] - 1), min(res, c[1] + 2)):
            x0, x1 = max(0, c[0] - 1), min(res - 1, c[0] + 1)
            base = res * (y + res * z)
            a = np.searchsorted(g5['key'], base + x0, 'left'); b = np.searchsorted(g5['key'], base + x1, 'right')
            q = g5['P'][a:b]; d2 = ((q - p) ** 2).sum(1)
            n += int((d2 < r * r).sum())
    return n - 1

def box_walk(g, i, reach):
    """Boids in the cells (cubes) meeting the box [p - reach, p + reach]^3 (an upper bound of the octant walk)."""
    p = P[i]; res = g['res']; cw = g['cw']
    lo = np.maximum(((p - reach + scale) // cw).astype(int), 0); hi = np.minimum(((p + reach + scale) // cw).astype(int), res - 1)
    n = 0
    for z in range(lo[2], hi[2] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = res * (y + res * z)
            n += int(cellcount(g, base + lo[0], base + hi[0]))
    return n

def row_walk(g, i, reach):
    """Boids in the half-chord rows (cells cw wide along y, z; cwx along x), as forEachLaneRunFrom."""
    p = P[i]; res, resx, cw, cwx = g['res'], g['resx'], g['cw'], g['cwx']
    def gap(v, c, w):
        lo = -scale + c * w; hi = lo + w
        return lo - v if v < lo else (v - hi if v > hi else 0.0)
    n = 0; rows = 0
    for z in range(max(0, int((p[2] - reach + scale) // cw)), min(res - 1, int((p[2] + reach + scale) // cw)) + 1):
        gz = gap(p[2], z, cw) ** 2
        if gz > reach * reach: continue
        for y in range(max(0, int((p[1] - reach + scale) // cw)), min(res - 1, int((p[1] + reach + scale) // cw)) + 1):
            gg = gz + gap(p[1], y, cw) ** 2
            if gg > reach * reach: continue
            h = np.sqrt(reach * reach - gg)
            x0 = max(0, int((p[0] - h + scale) // cwx)); x1 = min(resx - 1, int((p[0] + h + scale) // cwx))
            if x0 > x1: continue
            base = resx * (y + res * z); rows += 1
            n += int(cellcount(g, base + x0, base + x1))
    return n, rows

nb = np.array([neighbours(i) for i in samp])
print(f"{sys.argv[1]}: N={N}, scale {scale}, {ns} sampled boids")
print(f"  neighbours within 5: mean {nb.mean():.2f}, median {np.median(nb):.0f}, p90 {np.percentile(nb, 90):.0f}, max {nb.max()}, share with none {np.mean(nb == 0):.3f}")
for w, reach in [(11.25, 5.6), (10.0, 5.0)]:
    g = grid(w, 1); c = np.array([box_walk(g, i, reach) for i in samp]) - 1
    print(f"  cubes {w} wide, box of reach {reach}: candidates mean {c.mean():.1f} ({c.mean() / max(nb.mean(), 1e-9):.1f}x the neighbours)")
for w, split, reach in [(5.0, 1, 5.0), (2.5, 4, 5.0), (1.67, 8, 5.0)]:
    g = grid(w, split); cr = [row_walk(g, i, reach) for i in samp]
    c = np.array([x[0] for x in cr]) - 1; rw = np.array([x[1] for x in cr])
    print(f"  rows {w} x {w} (x split {split}), reach {reach}: candidates mean {c.mean():.1f} ({c.mean() / max(nb.mean(), 1e-9):.1f}x), rows {rw.mean():.1f}, occupied cells {len(np.unique(g['key']))} of {g['res'] ** 2 * g['resx']}")
