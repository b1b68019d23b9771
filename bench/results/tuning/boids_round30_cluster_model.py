"""Issue 8, round 30: how many more boids would groups take if a cube's boids were clustered in
space instead of joined as runs in slot order? Same state and today's groups as
boids_round30_core_shell_model.py. Spatial clustering, per cube (the cube's boids, any order): take
the first boid left as a seed, gather the cube's boids left within rc of it (nearest first) while the
group's box keeps a half-diagonal <= 0.4 and at most 32 boids; keep the group if it has >= 11.
Also without cubes (whole space, seeds in slot order). For each: boids grouped, mean size, mean R,
and shell tests per grouped boid (m x Q / m = Q), against today's. Then a second pass over the boids
today's groups leave, in cubes shifted by half a cube along each axis (the form regroupKernel took in
round 30's calls 2 and 3), in space and in its GPU form (slot order, at most K per shifted cube).

Run: /usr/bin/python3 boids_round30_cluster_model.py s5M_55.csv (numpy, scipy; 15 s). Output (2026-12-03):
today (runs in slot order): 9740 groups, 70.6 % grouped, mean size 14.5, mean R 0.145, shell tests per grouped boid 95.0
spatial in cubes, seed radius 0.4: 9976 groups, 71.5 % grouped, mean size 14.3, mean R 0.144, shell tests per grouped boid 93.0
spatial in cubes, seed radius 0.8: 10018 groups, 72.6 % grouped, mean size 14.5, mean R 0.150, shell tests per grouped boid 96.3
spatial, no cubes, seed radius 0.4: 11302 groups, 82.4 % grouped, mean size 14.6, mean R 0.152, shell tests per grouped boid 97.2
boids with >= 10 others within 0.4: 82.0 %; >= 10 within 0.2: 58.6 %
pass 2 alone (leftovers, shifted cubes, spatial): 1345 groups, 9.1 % grouped, mean size 13.5, mean R 0.195, shell tests per grouped boid 113.5
today + pass 2: 11085 groups, 79.7 % grouped, mean size 14.4, mean R 0.151, shell tests per grouped boid 97.1
  (K 32: 0 leftover boids past K)
pass 2, GPU form, K 32: 1333 groups, 9.0 % grouped, mean size 13.5, mean R 0.195, shell tests per grouped boid 113.5
  (K 64: 0 leftover boids past K)
pass 2, GPU form, K 64: 1333 groups, 9.0 % grouped, mean size 13.5, mean R 0.195, shell tests per grouped boid 113.5
"""
import sys, numpy as np
sys.argv = sys.argv[:2]
src = open(__file__.replace('cluster_model.py', 'core_shell_model.py')).read()
src = src[:src.index('members = sum(')]
exec(src)
def stats(name, gs):
    Qs = []; Rs = []; m = 0
    for g in gs:
        q = P[g]; c = (q.min(0) + q.max(0)) / 2
        Rg = np.linalg.norm(q - c, axis=1).max()
        near = np.array(tree.query_ball_point(c, radii[0] + Rg))
        D = np.linalg.norm(P[near] - c, axis=1)
        gap = np.min(np.abs(D[:, None] - np.array(radii)[None, :]), axis=1)
        Qs.append(np.count_nonzero(gap <= Rg)); Rs.append(Rg); m += len(g)
    sizes = np.array([len(g) for g in gs])
    print(f"{name}: {len(gs)} groups, {100 * m / N:.1f} % grouped, mean size {m / len(gs):.1f}, mean R {np.mean(Rs):.3f}, "
          f"shell tests per grouped boid {np.sum(np.array(Qs) * sizes) / m:.1f}")
stats("today (runs in slot order)", groups)
cube = (cx // S) + R * (cy + R * cz)
def grow(i, cand):
    """Seed i's group: the boids of cand (nearest first, i among them) that keep the box narrow."""
    g = [i]; lo = P[i].copy(); hi = P[i].copy()
    for j in cand:
        if j == i: continue
        if len(g) == cap: break
        nlo = np.minimum(lo, P[j]); nhi = np.maximum(hi, P[j])
        if np.linalg.norm(nhi - nlo) / 2 <= dmax:
            g.append(j); lo, hi = nlo, nhi
    return g
def spatial(key, rc, avail):
    """Groups in space within the buckets of key, of the boids avail marks, seeds within rc."""
    out = []; avail = avail.copy()
    o = np.argsort(key, kind='stable'); ks = key[o]
    b = np.r_[0, np.flatnonzero(np.diff(ks)) + 1]; e = np.r_[b[1:], N]
    for s0, e0 in zip(b, e):
        idx = o[s0:e0]; idx = idx[avail[idx]]
        if len(idx) < mmin: continue
        for i in idx:
            if not avail[i]: continue
            cand = idx[avail[idx]]
            d = np.linalg.norm(P[cand] - P[i], axis=1)
            g = grow(i, cand[np.argsort(d)][np.sort(d) <= rc])
            if len(g) >= mmin:
                out.append(np.array(g)); avail[g] = False
    return out
for rc in (0.4, 0.8):
    stats(f"spatial in cubes, seed radius {rc}", spatial(cube, rc, np.ones(N, bool)))
def spatial_free(rc):
    out = []; left = np.ones(N, bool)
    for i in order:  # seeds in slot order
        if not left[i]: continue
        cand = np.array(tree.query_ball_point(P[i], rc)); cand = cand[left[cand]]
        if len(cand) < mmin: continue
        d = np.linalg.norm(P[cand] - P[i], axis=1)
        g = grow(i, cand[np.argsort(d)])
        if len(g) >= mmin:
            out.append(np.array(g)); left[g] = False
    return out
stats("spatial, no cubes, seed radius 0.4", spatial_free(0.4))
n04 = np.array([len(x) - 1 for x in tree.query_ball_point(P, 0.4, return_sorted=False)])
print(f"boids with >= 10 others within 0.4: {100 * np.mean(n04 >= 10):.1f} %; >= 10 within 0.2: "
      f"{100 * np.mean(np.array([len(x) - 1 for x in tree.query_ball_point(P, 0.2, return_sorted=False)]) >= 10):.1f} %")
# Pass 2: the boids today's groups leave, regrouped in cubes shifted by half a cube along each axis,
# as runs (x-cells of the shifted cube in x order, boids within a cell in slot order) or in space.
left = np.ones(N, bool)
for g in groups: left[g] = False
def shifted_key(off):
    sx = np.floor((P[:, 0] + scale + off) / cw).astype(int); sy = np.floor((P[:, 1] + scale + off) / cw).astype(int)
    sz = np.floor((P[:, 2] + scale + off) / cw).astype(int)
    return sx + (R + 2) * (sy + (R + 2) * sz)
p2 = spatial(shifted_key(cw / 2), 0.8, left)
stats("pass 2 alone (leftovers, shifted cubes, spatial)", p2)
stats("today + pass 2", groups + p2)
# The GPU form of pass 2: a shifted cube's leftover boids collected in the order of its 8 overlapping
# cubes and their slots (here: slot order of today's sort), at most K; seeds in that order; a boid
# joins the seed's group if the box stays within the half-diagonal and the group under 33.
slot = np.empty(N, int); slot[order] = np.arange(N)
def pass2_ordered(key, K):
    out = []; l2 = left.copy(); dropped = 0
    o = np.argsort(key, kind='stable'); ks = key[o]
    b = np.r_[0, np.flatnonzero(np.diff(ks)) + 1]; e = np.r_[b[1:], N]
    for s0, e0 in zip(b, e):
        idx = o[s0:e0]; idx = idx[l2[idx]]
        idx = idx[np.argsort(slot[idx])]
        if len(idx) > K: dropped += len(idx) - K; idx = idx[:K]
        if len(idx) < mmin: continue
        taken = np.zeros(len(idx), bool)
        for a in range(len(idx)):
            if taken[a]: continue
            g = [a]; lo = P[idx[a]].copy(); hi = lo.copy()
            for c in range(a + 1, len(idx)):
                if taken[c] or len(g) == cap: continue
                nlo = np.minimum(lo, P[idx[c]]); nhi = np.maximum(hi, P[idx[c]])
                if np.linalg.norm(nhi - nlo) / 2 <= dmax:
                    g.append(c); lo, hi = nlo, nhi
            if len(g) >= mmin:
                taken[g] = True; out.append(idx[g])
    print(f"  (K {K}: {dropped} leftover boids past K)")
    return out
for K in (32, 64):
    p2o = pass2_ordered(shifted_key(cw / 2), K)
    stats(f"pass 2, GPU form, K {K}", p2o)
