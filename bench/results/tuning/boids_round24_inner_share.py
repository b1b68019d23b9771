"""Issue 8, round 24 (bench/notes/boids.md): how many of a walk's candidates lie in x-cells wholly
inside a rule's ball, the share that per-row prefix sums (one O(1) sum per row for the cells
wholly inside, a test only at the row's ends) could take out of the candidate loop. Estimated, not
built.

For a centre uniform in a cell, every row of cells (y, z fixed) that the walk visits: the x-cells
within the ball of radius r + d clipped to its half chord from the row's nearest y-z point (as the
walks clip them), and among those the x-cells wholly within r - d of the centre from the row's
farthest y-z point. Candidates uniform in space (the clumped scenes differ). d = 0: one boid;
d = 0.4: a boid group of round 23's radius. Grids: 5M (cells 0.33 x 5 units along y and z, split 8
along x), 1M (0.5, split 4), and a finer one (0.2, split 8).

Run: /usr/bin/python3 boids_round24_inner_share.py (numpy). Output (2026-12-03):
5M r 5 d 0 inner share of walked 0.34, walked/ball 1.59
5M r 5 d 0.4 inner share of walked 0.20, walked/ball 1.95
5M r 3 d 0 inner share of walked 0.15, walked/ball 2.06
5M r 3 d 0.4 inner share of walked 0.06, walked/ball 2.78
1M r 5 d 0 inner share of walked 0.17, walked/ball 2.04
1M r 5 d 0.4 inner share of walked 0.09, walked/ball 2.45
1M r 3 d 0 inner share of walked 0.03, walked/ball 2.95
1M r 3 d 0.4 inner share of walked 0.01, walked/ball 3.89
fine r 5 d 0 inner share of walked 0.53, walked/ball 1.34
fine r 5 d 0.4 inner share of walked 0.32, walked/ball 1.66
fine r 3 d 0 inner share of walked 0.34, walked/ball 1.60
fine r 3 d 0.4 inner share of walked 0.14, walked/ball 2.21
"""
import numpy as np

rng = np.random.default_rng(1)


def share(r, w, wx, d=0.0, trials=100):
    """(share of the walked volume in x-cells wholly inside r - d, walked volume / ball volume)."""
    walked = inner = ball = 0.0
    for _ in range(trials):
        c = rng.uniform(0, w, 3)
        c[0] = rng.uniform(0, wx)
        outer, inside = r + d, r - d
        n = int(np.ceil(outer / w)) + 1
        for iy in range(-n, n + 1):
            for iz in range(-n, n + 1):
                y0, y1, z0, z1 = iy * w, (iy + 1) * w, iz * w, (iz + 1) * w
                gy = max(0, y0 - c[1], c[1] - y1)
                gz = max(0, z0 - c[2], c[2] - z1)
                if gy * gy + gz * gz > outer * outer:
                    continue
                h = np.sqrt(outer * outer - gy * gy - gz * gz)
                cells = np.floor((c[0] + h) / wx) - np.floor((c[0] - h) / wx) + 1
                fy = max(abs(y0 - c[1]), abs(y1 - c[1]))
                fz = max(abs(z0 - c[2]), abs(z1 - c[2]))
                whole = 0
                if fy * fy + fz * fz < inside * inside:
                    hi = np.sqrt(inside * inside - fy * fy - fz * fz)
                    whole = max(0, np.floor((c[0] + hi) / wx) - 1 - np.ceil((c[0] - hi) / wx) + 1)
                walked += cells * w * w * wx
                inner += whole * w * w * wx
        ball += 4 / 3 * np.pi * r ** 3
    return inner / walked, walked / ball


for name, w, wx in (("5M", 0.33 * 5, 0.33 * 5 / 8), ("1M", 0.5 * 5, 0.5 * 5 / 4), ("fine", 0.2 * 5, 0.2 * 5 / 8)):
    for r in (5, 3):
        for d in (0, 0.4):
            f, o = share(r, w, wx, d)
            print(name, "r", r, "d", d, "inner share of walked %.2f, walked/ball %.2f" % (f, o))
