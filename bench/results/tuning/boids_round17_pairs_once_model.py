#!/usr/bin/python3
"""Issue 8, seventeenth round: pairs counted once (Newton's third law), a CPU model of the tests and flushes of such a
kernel, run before deciding whether to build one (not built).

    /usr/bin/python3 boids_round17_pairs_once_model.py DENSITY S ...   (numpy)

Round 1 named "pairs computed once for both boids" as a next step, and round 2 put cluster pair lists counted once at
~2-2.5x, assuming ~11-13 instructions per pair with the sums on tensor cores; round 7 measured such tiles at ~33 per
pair, so that estimate no longer holds. This model redoes it without tensor cores, and with the cost of the other
boid's sums. The rules are symmetric in a pair: where boid i adds +offset (cohesion), -offset (separation) and j's
velocity, j adds -offset, +offset and i's velocity, and both count. So each pair (i, j) could be tested once and added
to both boids' sums. On the GPU the other boid's sums must go somewhere:
  * global atomics, each lane walking only the half of its neighbourhood after its own slot: measured on the H200 this
    round (boids_round17_atomics_probe.cu), 3 float4 atomicAdd per accepted pair take 0.96-1.03 ms for 2^20 threads x
    32 pairs, ~0.93 ms per step for 10^6 boids with 32.5 accepted pairs each (half of ~65), twice today's whole step
    (0.473 ms), before any test is made. Not a candidate.
  * tiles: a group of S lanes (S = 4, 8, 16 or 32; 32 / S groups per warp) holds a cluster I of S boids, one per lane,
    and stages a cluster J of S boids in shared memory; at step t lane l tests j number (l + t) mod S, so no two lanes
    of the group touch one j's sums in a step, and they are added in shared memory without atomics. A test then costs
    the staged one-sided test (addStaged: 2 LDS.128, 3 FADD, 3 for the squared distance, 2 FSET, 9 FFMA, 1 count: 20),
    j's contributions (9 FFMA and its count: 10), reading and writing j's ten sums (3 LDS.128, 3 STS.128: 6) and the
    rotated index (~2): ~38 instructions. After each tile J's sums go to global memory: 3 float4 atomics per j, 3 / S
    per test.
Today's per-lane walk costs 8,240 lane instructions per boid at 1M (round 15's ncu: 257.5 M warp instructions per
10^6 boids) for 129.3 candidates (round 15's model), 63.7 per candidate with the row walk, the slot ranges and the
idle lanes included; 5M: 24,917 for 505.4, 49.3 per candidate (round 16's ncu: 3,893.3 M). So by instructions tiles pay
only if their tests, counted once, stay under 63.7 / 38 = 1.68x the walk's candidates at 1M and 49.3 / 38 = 1.30x at
5M; their flushes must fit as well.

The model: GROMACS-style clusters (S. Pall and B. Hess, Comput. Phys. Commun. 184, 2641, 2013): uniform random boids at
DENSITY per cubic unit (0.125 for 1M at scale 100, 0.625 for 5M) in a 60-unit cube, columns of side (S / DENSITY)^(1/3)
along x and y, boids sorted by z in each column, cut into clusters of S. J is listed for I when their bounding boxes
are within the radius 5; each lane of I tests every boid of each listed J. Tests per boid counted once = (sum over
listed J of |J|) / 2 over the sampled interior clusters (exact for one partition: each pair of clusters is listed from
both sides; no padding of partial clusters, no list building: both favour the design). Flush time: N x tests x 3 / S
float4 atomics at the probe's rate (1.05e11 per second), N = 10^6 or 5 x 10^6; today's whole step 0.473 ms (1M) and
5.88 ms (5M).
Output (this round; arguments 0.125 4 8 16 32 and 0.625 4 8 16 32):
  density 0.125: neighbours/boid 65.7, break-even 1.68x the walk's 129.3 candidates
    4 x 4: J listed per I 66.8, tests per boid counted once 133.6 (1.03x the walk's candidates): 1.62x today's kernel by instructions; flushes 0.95 ms per step (today's whole step 0.473 ms)
    8 x 8: J listed per I 57.3, tests per boid counted once 229.3 (1.77x the walk's candidates): 0.95x today's kernel by instructions; flushes 0.82 ms per step (today's whole step 0.473 ms)
    16 x 16: J listed per I 37.4, tests per boid counted once 299.1 (2.31x the walk's candidates): 0.72x today's kernel by instructions; flushes 0.53 ms per step (today's whole step 0.473 ms)
    32 x 32: J listed per I 32.2, tests per boid counted once 515.8 (3.99x the walk's candidates): 0.42x today's kernel by instructions; flushes 0.46 ms per step (today's whole step 0.473 ms)
  density 0.625: neighbours/boid 327.5, break-even 1.30x the walk's 505.4 candidates
    4 x 4: J listed per I 201.7, tests per boid counted once 403.3 (0.80x the walk's candidates): 1.63x today's kernel by instructions; flushes 14.40 ms per step (today's whole step 5.88 ms)
    8 x 8: J listed per I 138.7, tests per boid counted once 554.7 (1.10x the walk's candidates): 1.18x today's kernel by instructions; flushes 9.91 ms per step (today's whole step 5.88 ms)
    16 x 16: J listed per I 112.4, tests per boid counted once 899.0 (1.78x the walk's candidates): 0.73x today's kernel by instructions; flushes 8.03 ms per step (today's whole step 5.88 ms)
    32 x 32: J listed per I 85.1, tests per boid counted once 1361.8 (2.69x the walk's candidates): 0.48x today's kernel by instructions; flushes 6.08 ms per step (today's whole step 5.88 ms)
So only small tiles make fewer instructions than today's walk (4 x 4: 1.62x at 1M, 1.63x at 5M; 8 x 8: 1.18x at
5M, 0.95x at 1M), and their flushes alone take longer than today's whole step: 1.7-2.0x of it at 1M, 1.7-2.4x at 5M.
Larger tiles flush less often, yet still for about a whole step (1M 0.97-1.1x, 5M 1.03-1.37x), and lose by
instructions (0.42-0.73x). Tiles that share one J among several lanes' boids (GROMACS's super-clusters, fewer
flushes) would first have to add up J's ten sums across those lanes (shuffles at every step), which this model does
not cost. So no pairs-once design was built.
"""
import numpy as np, sys

R = 5.0
N = {0.125: 1e6, 0.625: 5e6}  # boids of the scene at this density
WALK = {0.125: 129.3, 0.625: 505.4}  # the per-lane walk's candidates per boid (boids_round15_loop_passes_model.py)
PER_CANDIDATE = {0.125: 63.7, 0.625: 49.3}  # today's lane instructions per candidate, everything included
STEP_MS = {0.125: 0.473, 0.625: 5.88}  # today's whole step
TEST = 38  # instructions per tile test
ATOMICS_PER_S = 1.05e11  # float4 atomicAdd per second, boids_round17_atomics_probe.cu

rho = float(sys.argv[1])
rng = np.random.default_rng(1)
L = 60.0
p0 = rng.uniform(0, L, (rng.poisson(rho * L ** 3), 3))
inside = np.flatnonzero(np.all((p0 > R) & (p0 < L - R), axis=1))
sub = p0[rng.choice(inside, 2000, replace=False)]
print(f"  density {rho}: neighbours/boid {np.mean([(((s - p0) ** 2).sum(1) < R * R).sum() - 1 for s in sub]):.1f}, "
      f"break-even {PER_CANDIDATE[rho] / TEST:.2f}x the walk's {WALK[rho]} candidates")


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


for S in (int(a) for a in sys.argv[2:]):
    lo, hi, n, mid, c = clusters(S)
    interior = np.flatnonzero(np.all((mid > 2 * R + c) & (mid < L - 2 * R - c), axis=1))
    samp = rng.choice(interior, min(300, len(interior)), replace=False)
    tests = listed = boids = 0
    for I in samp:
        gap = np.maximum(0, np.maximum(lo - hi[I], lo[I] - hi))
        ok = (gap ** 2).sum(1) < R * R
        tests += n[I] * n[ok].sum(); listed += ok.sum(); boids += n[I]
    once = tests / boids / 2
    ratio = once / WALK[rho]
    flush_ms = N[rho] * once * 3 / S / ATOMICS_PER_S * 1e3
    print(f"    {S} x {S}: J listed per I {listed / len(samp):.1f}, tests per boid counted once {once:.1f} ({ratio:.2f}x "
          f"the walk's candidates): {PER_CANDIDATE[rho] / TEST / ratio:.2f}x today's kernel by instructions; flushes "
          f"{flush_ms:.2f} ms per step (today's whole step {STEP_MS[rho]} ms)")
