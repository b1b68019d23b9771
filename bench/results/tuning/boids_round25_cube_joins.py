"""Issue 8, round 25 (bench/notes/boids.md): groups joined across the cubes of a row, modelled. On round
24's 200,000-boid CPU state at the 5M density (`flocklife boids --backend cpu --n 200000 --scale 34.2
--seed 1 --steps 55 --out s5M_55.csv`), groups formed as groupKernel forms them (radius 0.4, 12 to 32
members, cells 0.33 x 5 units split 8 along x), with one thread's run of cells covering K cubes of a row
instead of one (K 1000: whole rows). Share of the boids grouped.

Run: /usr/bin/python3 boids_round25_cube_joins.py s5M_55.csv (numpy). Output (2026-12-03):
1 64.7%
2 66.5%
4 67.5%
8 67.9%
1000 68.3%
"""
import sys
import numpy as np


def hd(lo, hi):
    return np.linalg.norm(hi - lo) / 2


def sorted_cells(P, scale, w, S):
    """The grid `fast` sorts by (cubes of w x 5 units per axis, R per axis, split S along x, cells
    numbered x + R S (y + R z)): R, the boids' sort order, and each non-empty cell's slot range
    [starts, ends) and number."""
    N = len(P)
    R = int(np.floor(2 * scale / (w * 5))); cw = 2 * scale / R
    cx = np.clip(np.floor((P[:, 0] + scale) / (cw / S)).astype(int), 0, R * S - 1)
    cy = np.clip(np.floor((P[:, 1] + scale) / cw).astype(int), 0, R - 1)
    cz = np.clip(np.floor((P[:, 2] + scale) / cw).astype(int), 0, R - 1)
    cell = cx + R * S * (cy + R * cz)
    order = np.argsort(cell, kind='stable'); cs = cell[order]
    bounds = np.flatnonzero(np.diff(cs)) + 1
    starts = np.r_[0, bounds]; ends = np.r_[bounds, N]
    return R, order, starts, ends, cs[starts]


def group_slots(P, scale, w, S, cubes=1, d1=0.4, mmin=12):
    """groupKernel's groups on a grid of cells w x 5 units split S along x, one thread per run of
    `cubes` cubes of a row: the positions in sort order, and each group's slot range (b, e)."""
    R, order, starts, ends, cid = sorted_cells(P, scale, w, S)
    Q = P[order]
    run = (cid // (R * S)) * (10**6) + (cid % (R * S)) // (S * cubes)
    groups = []
    def emit(b, e):
        if e - b >= mmin: groups.append((b, e))
    k = 0; ncells = len(starts)
    while k < ncells:
        k2 = k
        while k2 < ncells and run[k2] == run[k]: k2 += 1
        gb = ge = starts[k]; lo = hi = None
        for j in range(k, k2):
            b, e = starts[j], ends[j]; q = Q[b:e]; clo, chi = q.min(0), q.max(0)
            mlo = clo if gb == ge else np.minimum(lo, clo); mhi = chi if gb == ge else np.maximum(hi, chi)
            if e - gb <= 32 and hd(mlo, mhi) <= d1: ge = e; lo, hi = mlo, mhi; continue
            if ge > gb: emit(gb, ge)
            if e - b <= 32 and hd(clo, chi) <= d1: gb = b; lo, hi = clo, chi
            else:
                if hd(clo, chi) <= d1:
                    for k0 in range(b, e, 32): emit(k0, min(k0 + 32, e))
                gb = e
            ge = e
        if ge > gb: emit(gb, ge)
        k = k2
    return Q, groups


if __name__ == "__main__":
    P = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1)[:, :3]
    for cubes in (1, 2, 4, 8, 1000):
        _, groups = group_slots(P, 34.2, 0.33, 8, cubes)
        print(cubes, f"{sum(e - b for b, e in groups) / len(P):.1%}", flush=True)
