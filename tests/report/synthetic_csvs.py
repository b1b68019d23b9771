#!/usr/bin/python3
"""SYNTHETIC benchmark CSVs for testing scripts/plots.py and scripts/results_md.py.

Nothing here was measured: the values are made-up smooth curves. Every row says so in its machine
and gpu columns ("SYNTHETIC-TEST-FIXTURE", "SYNTHETIC (not measured)"). The column layouts copy
those of the benchmarks (bench/bench_life.cpp kCsvColumns, bench/bench_scan.cpp, bench/bench_boids.cpp,
bench/fast_bench.cu, src/app/cmd_fps.cpp), preceded by machine,gpu,commit as CsvWriter writes them.
    tests/report/synthetic_csvs.py OUT_DIR
"""
import csv
import os
import sys

STAMP = ["SYNTHETIC-TEST-FIXTURE", "SYNTHETIC (not measured)", "0000000synthetic"]

LIFE = ["kernel", "backend", "width", "height", "threads_per_block", "cells_per_thread", "generations", "repetitions",
        "median_ms_per_gen", "min_ms_per_gen", "max_ms_per_gen", "cell_updates_per_s", "ratio_to_simple",
        "state_bytes", "bytes_moved_per_gen", "copy_bandwidth_gbs", "fraction_of_copy_bandwidth", "ratio_to_bgolly"]
SCAN = ["op", "method", "n", "log2n", "median_ms", "min_ms", "max_ms", "reps", "gbps", "ratio_to_cub",
        "ratio_to_copy"]
BOIDS = ["series", "method", "n", "scale", "expected_neighbours", "cell_width", "block_size", "staging_ratio",
         "sort_every", "ms_per_step_median",
         "ms_min", "ms_max", "steps_per_second", "repetitions", "steps_per_rep", "naive_ms", "speedup_vs_naive"]
FAST = ["kernel", "rule", "width", "height", "k", "rows", "threads", "generations", "median_ms", "min_ms", "max_ms",
        "gcups", "copy_GBs", "copy_bound_gcups"]
FPS = ["mode", "visual", "method", "n", "scale", "cell_width", "block_size", "size", "gens_per_frame", "fps_mean",
       "fps_median", "fps_min", "fps_max", "seconds", "frames"]
# bench fps since the staging_ratio, sort_every and points columns (fps_scale.csv)
FPS_POINTS = FPS[:9] + ["staging_ratio", "sort_every", "points", "window_size"] + FPS[9:]


def write(path, columns, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["machine", "gpu", "commit"] + columns)
        for r in rows:
            assert len(r) == len(columns), (path, r)
            w.writerow(STAMP + [str(v) for v in r])


def life_row(kernel, backend, edge, tpb, cpt, rate, bytes_per_cell, copy, simple_rate=None, golly_rate=None):
    cells = edge * edge
    ms = cells / rate * 1e3
    moved = bytes_per_cell * cells
    return [kernel, backend, edge, edge, tpb, cpt, 50, 5, ms, ms * 0.98, ms * 1.03, rate,
            rate / simple_rate if simple_rate else "", int(moved), moved, copy if copy else "",
            moved / (ms * 1e-3) / 1e9 / copy if copy else "", rate / golly_rate if golly_rate else ""]


def life_gpu(out):
    copy = 4000.0
    kernels = {"simple": (2.0, 1e11), "bitcount": (0.25, 1e12), "tiled": (2.0, 2e11), "fast": (0.25, 2e13)}
    rows = []
    for edge in (1024, 4096, 32768):
        simple = kernels["simple"][1] * edge / 32768
        for k, (bpc, peak) in kernels.items():
            rows.append(life_row(k, "cuda", edge, 0, 0, peak * edge / 32768, bpc, copy, simple))
        if edge == 32768:
            for tpb in (64, 128, 256):
                for cpt in (1, 4, 16):
                    rows.append(life_row("bitcount", "cuda", edge, tpb, cpt, 1e12 * (1 + cpt / 32) * tpb / 256,
                                         0.25, copy, simple))
            for tpb in (128, 256):
                rows.append(life_row("simple", "cuda", edge, tpb, 0, 1e11 * tpb / 256, 2.0, copy, simple))
    write(os.path.join(out, "life_gpu.csv"), LIFE, rows)


def life_cpu(out):
    rows = []
    for edge in (1024, 4096):
        golly = 2e9
        rows.append(["bgolly-quicklife", "cpu", edge, edge, "", "", 50, 3, edge * edge / golly * 1e3, "", "", golly,
                     "", "", "", "", "", 1])
        for k, rate in (("cpu-parallel", 1e9), ("cpu-bitsliced", 2e10)):
            rows.append(life_row(k, "cpu", edge, "", "", rate, 2.0, None, None, golly))
    # bench life --cpu's row for a bgolly run it could not time (missing, failed or too short).
    rows.append(["bgolly-quicklife", "cpu", 8192, 8192, "", "", 50, 3, "", "", "", "", "", "", "", "", "", ""])
    write(os.path.join(out, "life_cpu.csv"), LIFE, rows)


def fast(out):
    rows = []
    for k in (8, 12, 16):
        g = 2e4 - (k - 12) ** 2 * 50
        gens = 64 * k
        ms = 32768 ** 2 * gens / (g * 1e9) * 1e3
        rows.append(["fast", "B3/S23", 32768, 32768, k, 16, 128, gens, ms, ms, ms, g, 3900, 15600])
    write(os.path.join(out, "fast.csv"), FAST, rows)


def scan(out):
    rows = []
    methods = {"scan": ("copy", "cub", "naive", "decoupled"), "compact": ("copy", "cub", "fused"),
               "sort": ("copy", "cub", "radix-lsd")}
    for op, ms in methods.items():
        for log2n in (20, 24, 28):
            for n in (1 << log2n, (1 << log2n) - 3):
                base = n * 8 / 3e12 * 1e3
                for i, m in enumerate(ms):
                    t = base * (1 + i) * (log2n if m == "naive" else 1)
                    rows.append([op, m, n, log2n if n == 1 << log2n else log2n - 1, t, t, t, 10, n * 8 / (t * 1e-3) / 1e9,
                                 (1 + i) / 2, 1 + i])
    write(os.path.join(out, "scan.csv"), SCAN, rows)
    # A later run with the serial CPU rows and the course scans at several block sizes (block_size).
    rows = []
    for log2n in (20, 24, 28):
        n = 1 << log2n
        base = n * 8 / 3e12 * 1e3
        rows.append(["scan", "cpu", n, log2n, base * 400, base * 400, base * 400, 5, 1, 400, 400, ""])
        rows.append(["compact", "cpu-no-scan", n, log2n, base * 300, base * 300, base * 300, 5, 1, 300, 300, ""])
        for i, m in enumerate(("naive", "work-efficient", "work-efficient-lean")):
            for b in (64, 128, 256, 512, 1024):
                t = base * (3 - i) * (1 + abs(b - 256) / 1024)
                rows.append(["scan", m, n, log2n, t, t, t, 10, n * 8 / (t * 1e-3) / 1e9, 3 - i, 3 - i, b])
    write(os.path.join(out, "scan_with_cpu.csv"), SCAN + ["block_size"], rows)


def boids(out, name, widths, blocks, ratios=(2,), sorts=(1,), graphs=None, splits=None, groups=None):
    """Sorting every K > 1 steps (counting and fast) is 20 % faster at constant density, 20 % slower
    in the classic scene. With graphs (values of the cuda_graphs column, bench boids --cuda-graphs),
    counting and fast get a row for each; without graphs ("0") fast is 10 % slower and counting
    5 % faster, so that one method's best setting is one without graphs. With splits (values of the
    x_split column, the last, bench boids --x-splits) every method with a grid gets a row for each;
    a split over 1 makes counting and fast 10 % faster. With groups (values of the group_radius
    column, after x_split, bench boids --group-radii) counting and fast get a row for each, the
    other methods one with the column empty; a radius over 0 makes them 5 % faster. The other grid
    methods sort every step (sort_every 1, as bench boids writes it); naive's sort_every is empty.
    cpu-grid, a CPU method, has no block size: one row per other setting, the block_size column
    empty, and no naive ratio (the bench pairs it with cpu-naive, which these CSVs leave out)."""
    rows = []
    columns = BOIDS if graphs is None else BOIDS[:9] + ["cuda_graphs"] + BOIDS[9:]
    columns = columns if splits is None else columns + ["x_split"]
    columns = columns if groups is None else columns + ["group_radius"]
    methods = ("naive", "grid", "coherent-zip", "coherent-gather", "shared", "counting", "fast", "cpu-grid")
    for series in ("classic", "constant-density"):
        for n in (5000, 100000, 1000000):
            naive_ms = n * n / 1e10
            for i, m in enumerate(methods):
                if m == "naive" and n > 100000:
                    continue
                warp = m in ("coherent-zip", "coherent-gather", "counting", "fast")
                for w in ([""] if m == "naive" else widths):
                    for b in (("",) if m.startswith("cpu") else blocks):
                        for r in (ratios if warp else ("",)):
                            for k in (sorts if m in ("counting", "fast") else ("",) if m == "naive" else (1,)):
                              for g in (graphs if graphs and m in ("counting", "fast") else ("",)):
                               for x in (splits if splits and m != "naive" else ("",)):
                                for gr in (groups if groups and m in ("counting", "fast") else ("",)):
                                 ms = naive_ms if m == "naive" else (n / 1e7 * (1 + i / 10) * (1 + abs(float(w) - 1.5))
                                                                     * (1 + abs((b or 128) - 128) / 512)
                                                                     * (1 + abs(float(r or 2) - 2) / 8))
                                 if k not in ("", 1):
                                     ms *= 0.8 if series == "constant-density" else 1.2
                                 if g == "0":
                                     ms *= 0.95 if m == "counting" else 1.1
                                 if x not in ("", "1") and m in ("counting", "fast"):
                                     ms *= 0.9
                                 if gr not in ("", "0"):
                                     ms *= 0.95
                                 paired = n <= 100000 and not m.startswith("cpu")
                                 row = [series, m, n, 100, 6.5, w, b, r, k, ms, ms, ms, 1000 / ms, 5, 5,
                                        naive_ms if paired else "", naive_ms / ms if paired else ""]
                                 row = row if graphs is None else row[:9] + [g] + row[9:]
                                 row = row if splits is None else row + [x]
                                 rows.append(row if groups is None else row + [gr])
    write(os.path.join(out, name), columns, rows)


def fps(out):
    rows = []
    for m in ("coherent-gather", "counting"):
        for n in (5000, 100000, 1000000):
            for visual, cost in (("off", 0.0), ("on", 0.5)):
                f = 1000 / (n / 1e5 + cost)
                rows.append(["boids", visual, m, n, 100, 2, 128, "", 1, f, f, f, f, 17, int(f * 17)])
    write(os.path.join(out, "fps.csv"), FPS, rows)
    rows = []
    for visual, points, sort, f in (("off", "auto", 1, 400), ("on", "auto", 1, 250), ("on", "gl", 1, 55),
                                    ("off", "auto", 4, 480), ("on", "auto", 4, 280)):
        rows.append(["boids", visual, "fast", 10000000, 1260, 2, 128, "", 1, 0, sort, points, "1920x1080", f, f, f, f, 7,
                     f * 7])
    write(os.path.join(out, "fps_scale.csv"), FPS_POINTS, rows)


def boids_scale(out):
    """boids_rounds.csv (issue 8's scenes per round) and boids_after_start.csv (10M after W untimed steps)."""
    rows = []
    for rnd in (0, 1, 5, 10):
        for scene, n, target in (("1M, scale 100", 1000000, 5000), ("10M, constant density", 10000000, 1500)):
            rows.append([rnd, scene, n, target * (0.3 + 0.05 * rnd), target, "synthetic"])
    write(os.path.join(out, "boids_rounds.csv"), ["round", "scene", "n", "steps_per_second",
                                                  "target_steps_per_second", "source"], rows)
    rows = [["constant-density", "fast", 10000000, 1260, 0.33, 2.25, 128, 0, 4, 1e3 / f, 1e3 / f, 1e3 / f, f, 10, 12,
             "", "", w] for w, f in ((5, 1700), (100, 1600), (200, 1480), (500, 1190))]
    write(os.path.join(out, "boids_after_start.csv"), BOIDS + ["warmup_steps"], rows)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    life_gpu(sys.argv[1])
    life_cpu(sys.argv[1])
    fast(sys.argv[1])
    scan(sys.argv[1])
    boids(sys.argv[1], "boids.csv", (1, 2), (128,))
    boids(sys.argv[1], "boids_tuning.csv", (0.5, 1, 2), (64, 128, 256), (0, 1.5, 2, 1000), graphs=("1", "0"),
          splits=("1", "4"), groups=("0", "0.08"))
    boids(sys.argv[1], "boids_scale.csv", (0.33, 0.5), (128, 512), (0, 1.5), (1, 4), graphs=("1", "0"))
    fps(sys.argv[1])
    boids_scale(sys.argv[1])
