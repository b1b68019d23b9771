#!/usr/bin/python3
"""Issue 8, eighteenth round: 10M boids at constant density once flocks have formed. What each lane of a warp tests
(candidates per boid, and per warp the largest of its 32 lanes, which the warp waits for) with today's octant walk,
with a cell's slots in octant order, and with a grid of 5-unit cubes, dense or folded; and (balance) the candidate
loop's passes with a block's lanes ordered by their candidate totals. A CPU model on states of the GPU run; not a
timing.

    python3 boids_round18_folded_grid_model.py CHECKPOINT WARPS [short]       (numpy)
    python3 boids_round18_folded_grid_model.py CHECKPOINT BLOCKS balance

CHECKPOINT: a file of `flocklife boids --checkpoint` (checkpoint.hpp: 61 bytes of header, then n x 6 float32). The
states: `flocklife boids --n 10000000 --scale 1260 --steps 500 --checkpoint f500.bin --every 500`, then
`--resume f500.bin --steps 2500 --checkpoint f2500.bin --every 2000` (fast on the H200, automatic settings).
A folded grid keeps 5-unit cubes but numbers cell (cx, cy, cz) as bucket (cx mod G, cy mod G, cz mod G): G^3 buckets
instead of the 504^3 = 128 M cells of the dense grid at scale 1260, so the counting sort scans G^3 counters; rows along
x stay contiguous (wrapping at G as a periodic grid's rows do), and the boids of the other cells folded into the same
bucket are far away (G x 5 units or more), so the exact distance test rejects them: they are extra candidates only.
For WARPS warps taken at random from the sorted order of each grid (the GPU's one thread per sorted slot), it prints
the mean candidates per boid and the mean over warps of the largest lane's candidates. balance: for BLOCKS blocks of
128 and 256 consecutive sorted boids of the octant walk, the candidate loop's passes (x 32 lanes) over the
candidates, with warps of consecutive boids (today), of the block's boids sorted by their totals, and binned as
coarseLaneKernel's balancedOrder bins them.

Output on the H200's machine (call 1: WARPS 300; call 3: the octant order, WARPS 600, short):
  f500.bin: neighbours within 5 (1,000 boids): mean 4.80, p90 8, max 16
    octant walk, cubes 11.25 (w 2.25, K 4, reach 5.6): candidates per boid 16.5, warp's largest lane 33.1 (2.01x)
    rows of 5-unit cubes, dense (w 1, K 1): 9.4, largest lane 20.8 (2.23x); 128,024,064 cells, 6,279,463 occupied
    rows of 5-unit cubes folded to 256^3: 20.3, 38.2 (1.88x); 320^3: 15.8, 32.0 (2.02x); 400^3: 12.1, 26.1 (2.16x)
    rows of 6.25-unit cubes, dense (w 1.25, reach 5.6): 11.1, 24.6 (2.21x)
    call 3: octant walk 16.3, 32.3 (1.98x); a cell's slots in octant order 16.5, 32.3 (1.96x)
  f2500.bin: neighbours within 5 (1,000 boids): mean 9.58, p90 15, max 19
    octant walk, cubes 11.25 (w 2.25, K 4, reach 5.6): candidates per boid 59.7, warp's largest lane 106.4 (1.78x)
    rows of 5-unit cubes, dense (w 1, K 1): 29.6, largest lane 54.8 (1.85x); 4,350,948 of 128 M cells occupied
    rows of 5-unit cubes folded to 256^3: 40.9, 73.5 (1.80x); 320^3: 35.5, 64.5 (1.81x); 400^3: 32.0, 59.7 (1.87x)
    rows of 6.25-unit cubes, dense (w 1.25, reach 5.6): 37.2, 69.8 (1.88x)
    call 3: octant walk 57.7, 101.9 (1.77x); a cell's slots in octant order 57.2, 100.1 (1.75x)
balance, here only (the H200 call that was to run it got no machine), on 200,000 boids at scale 340 (about 10M's
density: `flocklife boids --backend cpu --method cpu-grid --n 200000 --scale 340 --steps 20 --checkpoint c.bin --every 20`)
after 20 steps of cpu-grid, 100 blocks: block 128: today 1.83x, sorted by total 1.26x, binned 1.26x (mean 7.1
candidates); block 256: 1.83x, 1.14x, 1.14x.
"""
import sys
import numpy as np

raw = open(sys.argv[1], 'rb').read()
n = int(np.frombuffer(raw, np.uint64, 1, 53)[0])
scale = float(np.frombuffer(raw, np.float32, 1, 16)[0])
S = np.frombuffer(raw, np.float32, n * 6, 61).reshape(n, 6)
P = S[:, :3].astype(np.float64)
warps = int(sys.argv[2]); r = 5.0
rng = np.random.default_rng(5)


def keys(width, fold=None):
    res = max(1, int(np.floor(2 * scale / width))); cw = 2 * scale / res
    c = np.minimum(((P + scale) // cw).astype(np.int64), res - 1)
    if fold:
        c = c % fold
        return c[:, 0] + fold * (c[:, 1] + fold * c[:, 2]), res, cw
    return c[:, 0] + res * (c[:, 1] + res * c[:, 2]), res, cw


class Grid:
    def __init__(self, width, fold=None, octant_order=False):
        key, self.res, self.cw = keys(width, fold)
        self.fold = fold
        sub = key
        if octant_order:  # the slots of a cell ordered by the octant of the cell the boid is in
            c = (P + scale) / self.cw
            half = ((c - np.floor(c)) >= 0.5).astype(np.int64)
            sub = key * 8 + half[:, 0] + 2 * half[:, 1] + 4 * half[:, 2]
        self.order = np.argsort(sub, kind='stable')
        self.key = key[self.order]
        self.cells = len(np.unique(self.key))

    def count(self, lo, hi):  # boids with lo <= key <= hi
        return int(np.searchsorted(self.key, hi, 'right') - np.searchsorted(self.key, lo, 'left'))

    def row(self, x0, x1, y, z):
        if not self.fold:
            base = self.res * (y + self.res * z)
            return self.count(base + x0, base + x1)
        G = self.fold; base = G * (y % G + G * (z % G))
        if x1 - x0 + 1 >= G:
            return self.count(base, base + G - 1)
        a, b = x0 % G, x1 % G
        if a <= b:
            return self.count(base + a, base + b)
        return self.count(base + a, base + G - 1) + self.count(base, base + b)


def octant(g, p, reach):
    """coarseLaneKernel's walk: the cubes meeting the box [p - reach, p + reach]^3 (at most 2 per axis)."""
    lo = np.maximum(((p - reach + scale) // g.cw).astype(int), 0)
    hi = np.minimum(((p + reach + scale) // g.cw).astype(int), g.res - 1)
    return sum(g.row(lo[0], hi[0], y, z) for z in range(lo[2], hi[2] + 1) for y in range(lo[1], hi[1] + 1))


def rows(g, p, reach):
    """The half-chord rows of cubes (forEachLaneRunFrom's walk at x split 1)."""
    cw = g.cw

    def gap(v, c):
        lo = -scale + c * cw; hi = lo + cw
        return lo - v if v < lo else (v - hi if v > hi else 0.0)
    total = 0
    for z in range(max(0, int((p[2] - reach + scale) // cw)), min(g.res - 1, int((p[2] + reach + scale) // cw)) + 1):
        gz = gap(p[2], z) ** 2
        if gz > reach * reach:
            continue
        for y in range(max(0, int((p[1] - reach + scale) // cw)), min(g.res - 1, int((p[1] + reach + scale) // cw)) + 1):
            gg = gz + gap(p[1], y) ** 2
            if gg > reach * reach:
                continue
            h = np.sqrt(reach * reach - gg)
            x0 = max(0, int((p[0] - h + scale) // cw)); x1 = min(g.res - 1, int((p[0] + h + scale) // cw))
            if x0 <= x1:
                total += g.row(x0, x1, y, z)
    return total


def report(name, g, walk, reach):
    starts = rng.integers(0, n // 32, warps) * 32
    mean, worst = [], []
    for s in starts:
        c = [walk(g, P[g.order[s + k]], reach) - 1 for k in range(32)]
        mean.append(np.mean(c)); worst.append(max(c))
    m, w = np.mean(mean), np.mean(worst)
    print(f"  {name}: candidates per boid {m:.1f}, warp's largest lane {w:.1f} ({w / m:.2f}x); "
          f"buckets {g.res ** 3 if not g.fold else g.fold ** 3:,}, occupied {g.cells:,}", flush=True)


def balance(blocks):
    """The candidate loop's passes x 32 over the candidates, per block size: warps of consecutive boids, of the
    block's boids sorted by total, and binned as balanceBin (boids_gpu.cu) bins them."""
    g = Grid(11.25)

    def binned(t):
        return np.where(t < 32, t, np.where(t < 96, 32 + (t - 32) // 4, np.minimum(63, 48 + (t - 96) // 16)))
    for B in (128, 256):
        starts = rng.integers(0, n // B, blocks) * B
        today = perfect = bins = total = 0.0
        for s in starts:
            t = np.array([octant(g, P[g.order[s + k]], 5.6) - 1 for k in range(B)])
            total += t.sum()
            today += t.reshape(-1, 32).max(1).sum() * 32
            perfect += np.sort(t).reshape(-1, 32).max(1).sum() * 32
            o = np.argsort(binned(t), kind='stable')
            bins += t[o].reshape(-1, 32).max(1).sum() * 32
        print(f"{sys.argv[1]} block {B}: candidate-loop passes x 32 over candidates: today {today / total:.2f}x, "
              f"sorted by total {perfect / total:.2f}x, binned {bins / total:.2f}x; mean {total / blocks / B:.1f}")


if len(sys.argv) > 3 and sys.argv[3] == 'balance':
    balance(warps)
    sys.exit(0)
print(f"{sys.argv[1]}: n={n}, scale {scale}, {warps} warps per grid", flush=True)
g = Grid(5.0)
idx = rng.choice(n, 4000, replace=False)
nb = np.array([rows(g, P[i], r) for i in idx])  # upper bound of neighbours: rows' candidates; exact below
exact = []
for i in idx[:1000]:
    p = P[i]; lo = np.maximum(((p - r + scale) // g.cw).astype(int), 0); hi = np.minimum(((p + r + scale) // g.cw).astype(int), g.res - 1)
    cnt = 0
    for z in range(lo[2], hi[2] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = g.res * (y + g.res * z)
            a = np.searchsorted(g.key, base + lo[0], 'left'); b = np.searchsorted(g.key, base + hi[0], 'right')
            q = P[g.order[a:b]]; cnt += int((((q - p) ** 2).sum(1) < r * r).sum())
    exact.append(cnt - 1)
print(f"  neighbours within 5 (1,000 boids): mean {np.mean(exact):.2f}, p90 {np.percentile(exact, 90):.0f}, max {max(exact)}", flush=True)
report("octant walk, cubes 11.25 (w 2.25, K 4, reach 5.6)", Grid(11.25), octant, 5.6)
report("octant walk, cubes 11.25, a cell's slots in octant order", Grid(11.25, octant_order=True), octant, 5.6)
if len(sys.argv) > 3:
    sys.exit(0)
report("rows of 5-unit cubes, dense (w 1, K 1)", g, rows, 5.0)
for G in (256, 320, 400):
    report(f"rows of 5-unit cubes folded to {G}^3", Grid(5.0, G), rows, 5.0)
report("rows of 6.25-unit cubes, dense (w 1.25, reach 5.6)", Grid(6.25), rows, 5.6)
