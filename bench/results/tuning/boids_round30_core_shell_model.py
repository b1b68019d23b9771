"""Issue 8, round 30 (bench/notes/boids.md): would a group's core, tested against a second, tighter
centre bound, save shell tests? A CPU model on a 200,000-boid state at the 5M density (round 23's:
`flocklife boids --backend cpu --n 200000 --scale 34.2 --seed 1 --steps 55 --out s5M_55.csv`).
Groups formed as groupKernel forms them at 5M today (cells 0.33 x 5 units along y and z, split 4
along x; a cube's x-cells joined greedily in slot order while the box's half-diagonal is <= 0.4 and
the group holds <= 32 boids; at least 11). For each group: c the box centre, rho_p = |p - c|, R the
largest rho_p (groupSumsKernel's c.w). Today every member tests every candidate q in the shell
| |q - c| - r | <= R of either rule sphere (r = 5 and 3; alignment's 5 is cohesion's): m x Q tests.
Core scheme: members with rho_p <= rc form the core; a queued candidate is classified once more
against rc (one lane, ~0.8 of a test's instructions with its share of the core's sums); the core's
members test only the candidates within rc of a sphere, the others every queued one. rc is the best
of the members' rho values, per group. Rounding pads are left out (they widen both shells alike).

Run: /usr/bin/python3 boids_round30_core_shell_model.py s5M_55.csv (numpy, scipy; 2 s). Output
(2026-12-03):
9740 groups, 141187 boids grouped (70.6 %), mean 14.5
group radius R: median 0.136, mean 0.145; median member rho / R: 0.65
queued (shell) candidates per group: mean 93.6
shell tests: today 1377 per group; core scheme 1149 (0.835x)
"""
import sys, numpy as np
from scipy.spatial import cKDTree
a = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1); P = a[:, :3]; N = len(P)
scale = 34.2; w = 0.33; S = 4; dmax = 0.4; cap = 32; mmin = 11; radii = (5.0, 3.0)
tree = cKDTree(P)
R = int(np.floor(2 * scale / (w * 5))); cw = 2 * scale / R
cx = np.clip(np.floor((P[:, 0] + scale) / (cw / S)).astype(int), 0, R * S - 1)
cy = np.clip(np.floor((P[:, 1] + scale) / cw).astype(int), 0, R - 1)
cz = np.clip(np.floor((P[:, 2] + scale) / cw).astype(int), 0, R - 1)
cell = cx + R * S * (cy + R * cz)
order = np.argsort(cell, kind='stable'); cs = cell[order]
bounds = np.flatnonzero(np.diff(cs)) + 1
starts = np.r_[0, bounds]; ends = np.r_[bounds, N]; cellids = cs[starts]
def box(idx):
    q = P[idx]; lo, hi = q.min(0), q.max(0); return lo, hi
def halfdiag(idx):
    lo, hi = box(idx); return np.linalg.norm(hi - lo) / 2
groups = []; cur = []; curcell = None
def flush():
    if cur:
        g = np.concatenate(cur)
        if len(g) >= mmin: groups.append(g)
for k in range(len(starts)):
    cid = cellids[k]; idx = order[starts[k]:ends[k]]
    x = cid % (R * S); row = cid // (R * S)
    if cur:
        px = curcell % (R * S); prow = curcell // (R * S)
        adjacent = row == prow and x == px + 1 and x // S == px // S
        cand = np.concatenate(cur + [idx])
        if adjacent and len(cand) <= cap and halfdiag(cand) <= dmax:
            cur.append(idx); curcell = cid; continue
        flush(); cur = []
    if len(idx) <= cap and halfdiag(idx) <= dmax:
        cur = [idx]; curcell = cid
    elif halfdiag(idx) <= dmax:
        for k0 in range(0, len(idx), cap):
            g = idx[k0:k0 + cap]
            if len(g) >= mmin: groups.append(g)
        cur = []
    else:
        cur = []
flush()
members = sum(len(g) for g in groups)
today = 0.0; core = 0.0; Qs = []; Rs = []; fracs = []
for g in groups:
    lo, hi = box(g); c = (lo + hi) / 2
    rho = np.linalg.norm(P[g] - c, axis=1); Rg = rho.max(); m = len(g)
    near = np.array(tree.query_ball_point(c, radii[0] + Rg))
    D = np.linalg.norm(P[near] - c, axis=1)
    gap = np.min(np.abs(D[:, None] - np.array(radii)[None, :]), axis=1)  # distance to the nearer sphere
    Q = np.count_nonzero(gap <= Rg)
    today += m * Q
    best = m * Q
    for rc in np.unique(rho):
        nc = np.count_nonzero(rho <= rc)
        qc = np.count_nonzero(gap <= rc)
        best = min(best, 0.8 * Q + nc * qc + (m - nc) * Q)
    core += best; Qs.append(Q); Rs.append(Rg); fracs.append(np.median(rho) / Rg if Rg > 0 else 0)
print(f"{len(groups)} groups, {members} boids grouped ({100 * members / N:.1f} %), mean {members / len(groups):.1f}")
print(f"group radius R: median {np.median(Rs):.3f}, mean {np.mean(Rs):.3f}; median member rho / R: {np.median(fracs):.2f}")
print(f"queued (shell) candidates per group: mean {np.mean(Qs):.1f}")
print(f"shell tests: today {today / len(groups):.0f} per group; core scheme {core / len(groups):.0f} ({core / today:.3f}x)")
