#!/usr/bin/python3
"""Issue 8, seventeenth round: pairs counted once (Newton's third law), a CPU model of the tests such a kernel makes,
run before deciding whether to build one (not built).

    /usr/bin/python3 boids_round17_pairs_once_model.py DENSITY SI:SJ ...   (numpy)

Round 1 named "pairs computed once for both boids" as a next step: each pair (i, j) is tested once and adds to both
boids' sums (the rules are symmetric in the pair: j adds -offset where i adds +offset, each adds the other's velocity,
both count). On the GPU the other boid's sums must go somewhere:
  * global atomics, each lane walking only the half of its neighbourhood after its own slot: measured on the H200 this
    round (boids_round17_atomics_probe.cu), 3 float4 atomicAdd per accepted pair take ~0.97 ms per step at 1M (32.5
    accepted pairs per boid), twice today's whole step (0.473 ms), before any test is made. Not a candidate.
  * tiles: a warp holds SI boids of a cluster I (one per lane; SI 32, or two halves of 16), stages a cluster J of SJ
    boids in shared memory, and lane l tests j number (l + t) mod SJ at step t, so that no two lanes touch one j's sums
    in a step and the sums are added in shared memory without atomics (J's sums reach global memory once per tile).
    A test then costs the staged one-sided test (~23 SASS: addStaged, the ncu source pages' candidate body) plus j's
    contributions (9 FFMA) and the read-modify-write of j's ten sums (3 LDS.128, 3 STS.128): ~41 instructions.
Today's per-lane walk costs 8,240 lane instructions per boid at 1M (round 15's ncu: 257.5 M warp instructions) for
129.3 candidates (round 15's model), 63.7 per candidate with the row walk, the slot ranges and the idle lanes included;
5M: 24,915 for 505.4, 49.3 per candidate (round 16's ncu: 3,893 M). So tiles pay only if the tests they make, counted
once, stay under 63.7 / 41 = 1.55x the walk's candidates at 1M and 49.3 / 41 = 1.20x at 5M, before building the
cluster-pair lists and flushing J's sums.

The model: GROMACS-style clusters (S. Pall and B. Hess, Comput. Phys. Commun. 184, 2641, 2013): uniform random boids at
DENSITY per cubic unit (0.125 for 1M at scale 100, 0.625 for 5M) in a 60-unit cube, columns of side (S / DENSITY)^(1/3)
along x and y, boids sorted by z in each column, cut into clusters of S (I clusters of SI, J clusters of SJ). J is
listed for I when their bounding boxes are within the radius 5; each lane of I tests every boid of each listed J.
Tests per boid counted once = (sum over listed J of |J|) / 2 over the sampled interior I clusters (no padding of
partial clusters, no list building, no flushes: all favour the design).
Output (this round; arguments 0.125 4:4 8:8 16:4 32:4 32:8 and 0.625 4:4 8:8 16:4 32:4 32:8):
  density 0.125: neighbours/boid 65.7
    SI=4 SJ=4: J listed per I 66.8, tests per boid counted once 133.6 (1.03x the walk's 129.3 candidates; break-even 1.55x)
    SI=8 SJ=8: J listed per I 57.3, tests per boid counted once 229.3 (1.77x the walk's 129.3 candidates; break-even 1.55x)
    SI=16 SJ=4: J listed per I 115.3, tests per boid counted once 230.6 (1.78x the walk's 129.3 candidates; break-even 1.55x)
    SI=32 SJ=4: J listed per I 161.4, tests per boid counted once 322.8 (2.50x the walk's 129.3 candidates; break-even 1.55x)
    SI=32 SJ=8: J listed per I 94.4, tests per boid counted once 377.4 (2.92x the walk's 129.3 candidates; break-even 1.55x)
  density 0.625: neighbours/boid 327.5
    SI=4 SJ=4: J listed per I 201.7, tests per boid counted once 403.3 (0.80x the walk's 505.4 candidates; break-even 1.20x)
    SI=8 SJ=8: J listed per I 138.7, tests per boid counted once 554.7 (1.10x the walk's 505.4 candidates; break-even 1.20x)
    SI=16 SJ=4: J listed per I 302.4, tests per boid counted once 604.7 (1.20x the walk's 505.4 candidates; break-even 1.20x)
    SI=32 SJ=4: J listed per I 386.8, tests per boid counted once 773.6 (1.53x the walk's 505.4 candidates; break-even 1.20x)
    SI=32 SJ=8: J listed per I 219.5, tests per boid counted once 878.1 (1.74x the walk's 505.4 candidates; break-even 1.20x)
A warp needs 32 lanes of I boids (SI 32, or 16 with two J per step): by instructions 1M 0.62x (SI 32) to 0.87x
(SI 16) of today's kernel, 5M 0.78x to 1.00x, before lists and flushes. Only clusters of 4 would pay by this count
(1M and 5M 1.50x; a warp would run 8 of them, each with its own J list), and there the flushes alone are too slow:
each 4 x 4 tile sends J's sums to global memory (3 float4 atomics per j), 8.3 M tiles per step at 1M (133.6 x 1M /
16), 100 M atomics, ~0.95 ms at the probe's rate, twice today's whole step. So no pairs-once design was built.
"""
import numpy as np, sys

R = 5.0
WALK = {0.125: 129.3, 0.625: 505.4}  # the per-lane walk's candidates per boid (boids_round15_loop_passes_model.py)
BREAK_EVEN = {0.125: 63.7 / 41, 0.625: 49.3 / 41}

rho = float(sys.argv[1])
rng = np.random.default_rng(1)
L = 60.0
p0 = rng.uniform(0, L, (rng.poisson(rho * L ** 3), 3))
inside = np.flatnonzero(np.all((p0 > R) & (p0 < L - R), axis=1))
sub = p0[rng.choice(inside, 2000, replace=False)]
print(f"  density {rho}: neighbours/boid {np.mean([(((s - p0) ** 2).sum(1) < R * R).sum() - 1 for s in sub]):.1f}")


def clusters(S):
    """Bounding boxes (lo, hi), sizes and centres of the clusters of S boids, and the column side."""
    nc = int(L // (S / rho) ** (1 / 3)); c = L / nc
    col = np.minimum((p0[:, 0] // c).astype(int), nc - 1) * nc + np.minimum((p0[:, 1] // c).astype(int), nc - 1)
    order = np.lexsort((p0[:, 2], col)); p = p0[order]; cs = col[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]]); ends = np.r_[starts[1:], len(p)]
    lo, hi, n, mid = [], [], [], []
    for s, e in zip(starts, ends):
        for b in range(s, e, S):
            q = p[b:min(b + S, e)]
            lo.append(q.min(0)); hi.append(q.max(0)); n.append(len(q)); mid.append(q.mean(0))
    return np.array(lo), np.array(hi), np.array(n), np.array(mid), c


for arg in sys.argv[2:]:
    SI, SJ = (int(s) for s in arg.split(':'))
    loI, hiI, nI, midI, cI = clusters(SI)
    loJ, hiJ, nJ, _, _ = clusters(SJ)
    interior = np.flatnonzero(np.all((midI > 2 * R + cI) & (midI < L - 2 * R - cI), axis=1))
    samp = rng.choice(interior, min(300, len(interior)), replace=False)
    tests = listed = boids = 0
    for I in samp:
        gap = np.maximum(0, np.maximum(loJ - hiI[I], loI[I] - hiJ))
        ok = (gap ** 2).sum(1) < R * R
        tests += nI[I] * nJ[ok].sum(); listed += ok.sum(); boids += nI[I]
    once = tests / boids / 2
    print(f"    SI={SI} SJ={SJ}: J listed per I {listed / len(samp):.1f}, tests per boid counted once {once:.1f} "
          f"({once / WALK[rho]:.2f}x the walk's {WALK[rho]} candidates; break-even {BREAK_EVEN[rho]:.2f}x)")
