"""Issue 8, round 23 (bench/notes/boids.md): boid groups, modelled before they were built.

States: `flocklife boids --backend cpu --n 200000 --seed 1 --steps K --out s5M_K.csv` at the 5M
density (--scale 34.2) for K = 5, 10, 25, 55, 100, and at the 1M density (--scale 58.48) for K 55.
Run: /usr/bin/python3 boids_round23_group_model.py s5M_25.csv ... (numpy, scipy; the density and the
grid are taken from '5M' / '1M' in the file name).

The grid as `fast` builds it (5M: cells 0.33 x 5 units along y and z, split 8 along x; 1M: 0.5,
split 4). Within each cube (the split x-cells of one unsplit cell, a contiguous slot range) the
x-cells are joined in order into a group while its bounding box has a half-diagonal <= dmax and it
holds <= 32 boids; groups of >= mmin boids take the group path, the rest the per-boid walk.
Cost model in warp instructions (its constants are guesses from rounds 12/13's SASS counts; the
GPU measured 2-3x more per group, see the notes):
  per boid today: C0 (800 at 5M, 258 at 1M, from ncu), scaled by the boid's neighbours / mean;
  group: outer walk 1.55 x n(c, 5 + d) candidates / 32 x 45 + 2 row passes x 80 + 200,
         shell entries (radii 5 and 3) / copies x 25, copies = 32 / next_pow2(m).

Output (2026-12-03):
s5M_25.csv dmax 0.15 mmin 3: grouped 62.2% of boids; modelled instructions x today 0.497 (speed-up 2.01x)
s5M_25.csv dmax 0.15 mmin 6: grouped 52.0% of boids; modelled instructions x today 0.557 (speed-up 1.80x)
s5M_25.csv dmax 0.25 mmin 3: grouped 85.5% of boids; modelled instructions x today 0.329 (speed-up 3.04x)
s5M_25.csv dmax 0.25 mmin 6: grouped 76.5% of boids; modelled instructions x today 0.378 (speed-up 2.64x)
s5M_25.csv dmax 0.4 mmin 3: grouped 92.2% of boids; modelled instructions x today 0.290 (speed-up 3.44x)
s5M_25.csv dmax 0.4 mmin 6: grouped 84.6% of boids; modelled instructions x today 0.331 (speed-up 3.02x)
s5M_5.csv dmax 0.25 mmin 3: grouped 10.5% of boids; modelled instructions x today 0.945 (speed-up 1.06x)
s5M_5.csv dmax 0.4 mmin 3: grouped 24.9% of boids; modelled instructions x today 0.887 (speed-up 1.13x)
s5M_10.csv dmax 0.25 mmin 3: grouped 43.0% of boids; modelled instructions x today 0.712 (speed-up 1.41x)
s5M_10.csv dmax 0.4 mmin 3: grouped 61.0% of boids; modelled instructions x today 0.621 (speed-up 1.61x)
s5M_55.csv dmax 0.25 mmin 3: grouped 89.9% of boids; modelled instructions x today 0.292 (speed-up 3.42x)
s5M_55.csv dmax 0.4 mmin 3: grouped 95.8% of boids; modelled instructions x today 0.256 (speed-up 3.91x)
s5M_100.csv dmax 0.25 mmin 3: grouped 90.5% of boids; modelled instructions x today 0.288 (speed-up 3.47x)
s5M_100.csv dmax 0.4 mmin 3: grouped 96.3% of boids; modelled instructions x today 0.251 (speed-up 3.98x)
s1M_55.csv dmax 0.25 mmin 3: grouped 36.2% of boids; modelled instructions x today 0.885 (speed-up 1.13x)
s1M_55.csv dmax 0.4 mmin 3: grouped 54.6% of boids; modelled instructions x today 0.827 (speed-up 1.21x)
"""
import sys
import numpy as np
from scipy.spatial import cKDTree

def main(path, scale, w, S, dmax, mmin, C0):
    a = np.loadtxt(path, delimiter=',', skiprows=1)
    P = a[:, :3]
    tree = cKDTree(P)
    n5 = np.array([len(x) - 1 for x in tree.query_ball_point(P, 5.0, return_sorted=False)])
    R = int(np.floor(2 * scale / (w * 5)))
    cw = 2 * scale / R
    cx = np.clip(np.floor((P[:, 0] + scale) / (cw / S)).astype(int), 0, R * S - 1)
    cy = np.clip(np.floor((P[:, 1] + scale) / cw).astype(int), 0, R - 1)
    cz = np.clip(np.floor((P[:, 2] + scale) / cw).astype(int), 0, R - 1)
    cube = (cx // S) + R * (cy + R * cz)
    order = np.lexsort((cx, cube))
    groups = []  # (members array, centre, d)
    i = 0
    N = len(P)
    while i < N:
        j = i
        cb = cube[order[i]]
        while j < N and cube[order[j]] == cb:
            j += 1
        # x-cells of this cube in order: join while the box stays small
        k = i
        while k < j:
            members = []
            lo = hi = None
            kk = k
            while kk < j:
                # the whole x-cell at kk
                e = kk
                while e < j and cx[order[e]] == cx[order[kk]]:
                    e += 1
                cand = order[k:e]
                blo, bhi = P[cand].min(0), P[cand].max(0)
                if len(cand) > 32 or np.linalg.norm(bhi - blo) / 2 > dmax:
                    break
                members = cand
                kk = e
            if len(members) == 0:
                # the first x-cell alone does not fit: its boids go per boid
                e = kk
                while e < j and cx[order[e]] == cx[order[kk]]:
                    e += 1
                groups.append((order[kk:e], None, None))
                k = e
                continue
            c = (P[members].min(0) + P[members].max(0)) / 2
            d = np.sqrt(((P[members] - c) ** 2).sum(1)).max()
            groups.append((members, c, d))
            k = kk
        i = j
    base = C0 * n5 / n5.mean()
    total_today = base.sum()
    total = 0.0
    grouped = 0
    for mem, c, d in groups:
        m = len(mem)
        if c is None or m < mmin:
            total += base[mem].sum()
            continue
        grouped += m
        outer = len(tree.query_ball_point(c, 5 + d))
        shell = outer - len(tree.query_ball_point(c, max(5 - d, 0)))
        shell += len(tree.query_ball_point(c, 3 + d)) - len(tree.query_ball_point(c, max(3 - d, 0)))
        copies = 32 // (1 << int(np.ceil(np.log2(max(m, 1)))))
        cost = 1.55 * outer / 32 * 45 + 2 * 80 + 200 + np.ceil(shell / copies) * 25
        total += min(cost, base[mem].sum()) if False else cost
    print(f"{path} dmax {dmax} mmin {mmin}: grouped {grouped / N:.1%} of boids; modelled instructions x today {total / total_today:.3f} (speed-up {total_today / total:.2f}x)")

for path in sys.argv[1:]:
    for dmax in (0.25, 0.4):
        for mmin in (3,):
            main(path, 34.2 if '5M' in path else 58.48, 0.33 if '5M' in path else 0.5, 8 if '5M' in path else 4, dmax, mmin, 800 if '5M' in path else 258)
