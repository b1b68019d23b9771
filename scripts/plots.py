#!/usr/bin/python3
"""Charts for the README from the CSV files that `flocklife bench ...` and `fast_bench` write.

    scripts/plots.py [--results bench/results] [--out docs/img]

Reads (each optional; a chart whose file or columns are missing is skipped with a message):
  life_gpu.csv, life_cpu.csv  `flocklife bench life` and `flocklife bench life --cpu`
  fast.csv                    `fast_bench` (fast_bench.csv is read when fast.csv is absent)
  scan.csv                    `flocklife bench scan`
  boids.csv                   `flocklife bench boids` (methods over N, both series)
  boids_tuning.csv            `flocklife bench boids` with several --cell-widths / --block-sizes
                              (boids.csv is used for the tuning charts when it is absent)
  fps.csv                     `flocklife bench fps boids` runs (one per method and N), concatenated
  boids_rounds.csv            issue 8's scenes per round (compiled by hand from bench/RESULTS.md)
  boids_after_start.csv       `flocklife bench boids --warmup W` rows, a warmup_steps column added
Writes one PNG per chart (names in CHARTS) with a footnote naming the GPU, host and commit of
the rows it shows; a CSV with a malformed cell fails the charts that read it (exit status 1). Needs matplotlib (Debian: python3-matplotlib); exits 77 without it.
"""
import argparse
import math
import os
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import life_results  # noqa: E402  (same folder: its CSV reader refuses a row cut short)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print(f"plots.py: matplotlib is missing for {sys.executable} (Debian package python3-matplotlib, "
          "for /usr/bin/python3)", file=sys.stderr)
    sys.exit(77)

# Bytes of Life state one thread handles per unit of the `cells_per_thread` parameter.
LIFE_UNIT_BYTES = {"bitcount": 1, "bitcount32": 4, "lut6x3": 4, "packet64": 8, "tiled": 1, "tiled-inplace": 1,
                   "simple": 1, "simple-lut": 1}
LIFE_UNIT_NAME = {"bitcount": "bytes", "bitcount32": "32-bit words", "lut6x3": "word rows",
                  "packet64": "64-bit packets", "tiled": "rows", "tiled-inplace": "rows", "simple": "rows",
                  "simple-lut": "rows"}


class Skip(Exception):
    """A chart that cannot be drawn from the data present (the message says why)."""


def read_csv(results, *names):
    """Rows of the first existing file among `names` in `results`, and its name; Skip if none."""
    for name in names:
        path = os.path.join(results, name)
        if os.path.exists(path):
            rows = life_results.rows(path)
            if life_results.repeats_note(path, rows) and path not in NOTED:  # once per file, not per chart
                NOTED.add(path)
                print(f"plots.py: note: {life_results.repeats_note(path, rows)}", file=sys.stderr)
            if not rows:
                raise Skip(f"{path} has no data rows")
            return rows, name
    raise Skip("no " + " or ".join(os.path.join(results, n) for n in names))


NOTED = set()  # the CSVs whose repeated configurations read_csv has noted


def malformed(e):
    """What a CSV lacked or held, in words, from the exception reading it raised."""
    if isinstance(e, life_results.BadRow):
        return str(e)
    if isinstance(e, KeyError):
        return f"a CSV it reads has no column {e} (written by another version of the benchmark?)"
    return f"a CSV it reads has a cell that is not what the chart expects ({e})"


def need(rows, name, *columns):
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        raise Skip(f"{name} lacks the columns {', '.join(missing)} (written by another version of the benchmark?)")


def num(v):
    """float of a CSV cell; NaN for an empty cell. Every cell the charts read is a time, a rate, a
    count, a setting or a ratio: ValueError for a negative, infinite or NaN one (a hand-edited
    ms_per_step_median of -5 was drawn off the log axis without a word; a tester's trial)."""
    if v in ("", None):
        return math.nan
    x = float(v)
    if not (0 <= x < math.inf):
        raise ValueError(f"'{v}' where a finite number >= 0 belongs")
    return x


def footnote(fig, rows, source):
    stamps = sorted({(r.get("gpu", "?"), r.get("machine", "?"), r.get("commit", "?")) for r in rows})
    text = "; ".join(f"GPU {g}, host {m}, commit {c}" for g, m, c in stamps[:3])
    if len(stamps) > 3:
        text += f" (+{len(stamps) - 3} more)"
    fig.text(0.01, 0.005, f"{text}. Data: {source}", fontsize=7, color="0.35", ha="left", va="bottom")


def finish(fig, path, rows, source):
    footnote(fig, rows, source)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    # Into a temporary file beside `path`, then renamed over it: a write that fails (a full disk)
    # leaves the earlier chart as it was (it was cut short in place; a new user's trial).
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp-", dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, dpi=110, format="png")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would make it (mkstemp's file is private)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    finally:
        plt.close(fig)


def is_pow2(n):
    return n > 0 and n & (n - 1) == 0


def lines_of(rows, key, point):
    """{key(r): sorted [point(r), ...]} over `rows`, keys sorted: one line per key."""
    by = defaultdict(list)
    for r in rows:
        by[key(r)].append(point(r))
    return {k: sorted(pts) for k, pts in sorted(by.items())}


def plot_lines(ax, lines, label=str, style=lambda key: {}, y=1, **common):
    """One ax.plot per line of `lines` (lines_of): x = point[0], y = point[y]; keyword arguments
    `common` for every line, then style(key) for each."""
    for key, pts in lines.items():
        ax.plot([p[0] for p in pts], [p[y] for p in pts], label=label(key), **{**common, **style(key)})


def dress(ax, xlabel, ylabel, xlog=None, ylog=False, title=None, title_size=None, grid="major", legend=7, ncol=1,
          below=False, handlelength=None):
    """Axis labels, log scales (xlog = base), title, grid (which lines) and legend (font size;
    None: no legend; below: under the panel, so that it hides no line; handlelength: the legend's
    line samples, in font sizes, long enough to show a dash) of one panel."""
    if xlog:
        ax.set_xscale("log", base=xlog)
    if ylog:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, **({"fontsize": title_size} if title_size else {}))
    ax.grid(True, which=grid, alpha=0.3)
    if legend:
        where = dict(loc="upper center", bbox_to_anchor=(0.5, -0.13)) if below else {}
        ax.legend(fontsize=legend, ncol=ncol, **where, **({"handlelength": handlelength} if handlelength else {}))


# ---------------------------------------------------------------- Life

CELL_UPDATES = "cell updates per second"
WORLD_EDGE = "world edge N (N x N torus, cells)"


def life_defaults(rows):
    """GPU rows at each kernel's default parameters (the size sweep)."""
    return [r for r in rows if r["threads_per_block"] in ("0", "") and r["cells_per_thread"] in ("0", "")]


def by_kernel_over_edge(rows):
    return lines_of(rows, lambda r: r["kernel"], lambda r: (int(r["width"]), num(r["cell_updates_per_s"])))


def chart_life_kernels(results, path):
    rows, name = read_csv(results, "life_gpu.csv")
    need(rows, name, "kernel", "width", "height", "threads_per_block", "cells_per_thread", "cell_updates_per_s",
         "bytes_moved_per_gen", "copy_bandwidth_gbs")
    rows = life_defaults(rows)
    if not rows:
        raise Skip(f"{name} has no rows at default parameters")
    # fast_bench's B3/S23 rows (fast.csv) come from a later build of `fast` than the batch's: both
    # are drawn, each `fast` line named with its commit, the fast_bench one at its most-run setting.
    try:
        fast_rows, fast_name = read_csv(results, "fast.csv", "fast_bench.csv")
    except Skip:
        fast_rows, fast_name = [], None
    fast_rows = [r for r in fast_rows if r.get("rule") == "B3/S23"]
    if fast_rows:
        setting = lambda r: (r["k"], r["rows"], r["threads"])
        most = max({setting(r) for r in fast_rows}, key=lambda s: sum(setting(r) == s for r in fast_rows))
        fast_rows = [r for r in fast_rows if setting(r) == most]
    commit_of = lambda rs: "/".join(sorted({r.get("commit", "?")[:7] for r in rs}))
    batch_fast = [r for r in rows if r["kernel"] == "fast"]
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_lines(ax, by_kernel_over_edge(rows), marker="o",
               label=lambda k: f"fast (commit {commit_of(batch_fast)})" if k == "fast" and fast_rows else k)
    if fast_rows:
        pts = sorted((int(r["width"]), num(r["gcups"]) * 1e9) for r in fast_rows)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="s", linestyle="-.", color="black",
                label=f"fast (commit {commit_of(fast_rows)}, fast_bench, k {most[0]})")
    # The copy-bandwidth lines: cells/s a kernel would reach if a generation cost only one copy of
    # the bytes it reads and writes, for the two layouts with two buffers: a byte per cell (2 B
    # moved per cell) and a bit per cell (0.25 B). Kernels whose state is padded or staged
    # (bytes_moved_per_gen in the CSV) sit slightly off these lines.
    copy = num(rows[0]["copy_bandwidth_gbs"])
    per_cell = [num(r["bytes_moved_per_gen"]) / (int(r["width"]) * int(r["height"])) for r in rows]
    for b, style, layout in ((2.0, "--", "byte per cell"), (0.25, ":", "bit per cell")):
        if any(abs(math.log2(p / b)) < 1 for p in per_cell if p > 0):
            ax.axhline(copy * 1e9 / b, color="black", linestyle=style, linewidth=1,
                       label=f"copy bandwidth ({copy:.0f} GB/s), {layout} ({b:g} B moved/cell)")
    dress(ax, WORLD_EDGE, CELL_UPDATES, xlog=2, ylog=True, grid="both", ncol=2,
          title="Life GPU kernels vs world size (B3/S23 soup, default parameters)")
    finish(fig, path, rows + fast_rows, name + (f" and {fast_name}" if fast_rows else ""))


def chart_life_cpu(results, path):
    rows, name = read_csv(results, "life_cpu.csv")
    need(rows, name, "kernel", "width", "cell_updates_per_s")
    rows = [r for r in rows if r["cell_updates_per_s"]]
    if not rows:
        raise Skip(f"{name} has no measured rows")
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_lines(ax, by_kernel_over_edge(rows), marker="o",
               style=lambda kernel: dict(linestyle="--" if kernel.startswith("bgolly") else "-"))
    dress(ax, WORLD_EDGE, CELL_UPDATES, xlog=2, ylog=True, grid="both", legend=8,
          title="Life CPU kernels and Golly's QuickLife (bgolly) vs world size")
    finish(fig, path, rows, name)


def life_sweep_rows(results):
    rows, name = read_csv(results, "life_gpu.csv")
    need(rows, name, "kernel", "width", "threads_per_block", "cells_per_thread", "cell_updates_per_s")
    swept = [r for r in rows if r["threads_per_block"] not in ("0", "")]
    if not swept:
        raise Skip(f"{name} has no parameter-sweep rows (run without --quick / --no-sweep)")
    return swept, name


def chart_life_sweep_threads(results, path):
    swept, name = life_sweep_rows(results)
    kernels = sorted({r["kernel"] for r in swept})
    cols = min(3, len(kernels))
    nrows = (len(kernels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.4 * nrows), squeeze=False)
    for ax, kernel in zip(axes.flat, kernels):
        krows = [r for r in swept if r["kernel"] == kernel]
        unit = LIFE_UNIT_NAME.get(kernel, "units")
        plot_lines(ax, lines_of(krows, lambda r: int(r["cells_per_thread"]),
                                lambda r: (int(r["threads_per_block"]), num(r["cell_updates_per_s"]))),
                   label=lambda cpt: f"{cpt} {unit}/thread" if cpt else "one cell/thread", marker="o")
        edges = sorted({int(r["width"]) for r in krows})
        dress(ax, "threads per block", CELL_UPDATES, xlog=2, legend=6, title_size=9,
              title=f"{kernel} ({', '.join(f'{e}^2' for e in edges)})")
    for ax in list(axes.flat)[len(kernels):]:
        ax.axis("off")
    fig.suptitle("Life: threads per block sweep (one line per work per thread)")
    finish(fig, path, swept, name)


def chart_life_sweep_bytes(results, path):
    swept, name = life_sweep_rows(results)
    best = {}
    for r in swept:
        if r["kernel"] not in LIFE_UNIT_NAME or int(r["cells_per_thread"]) <= 0:
            continue
        key = (r["kernel"], int(r["cells_per_thread"]) * LIFE_UNIT_BYTES[r["kernel"]])
        if key not in best or num(r["cell_updates_per_s"]) > num(best[key]["cell_updates_per_s"]):
            best[key] = r
    if not best:
        raise Skip(f"{name}: no kernel with a work-per-thread parameter was swept")
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_lines(ax, lines_of(best.items(), lambda kv: kv[0][0], lambda kv: (kv[0][1], num(kv[1]["cell_updates_per_s"]))),
               label=lambda kernel: f"{kernel} (parameter unit: {LIFE_UNIT_NAME[kernel]})", marker="o")
    dress(ax, "bytes of state per thread (cells_per_thread x unit size; tiled: bytes of rows)",
          "cell updates per second (best threads per block)", xlog=2, grid="both", title="Life: work per thread sweep")
    finish(fig, path, list(best.values()), name)


def chart_fast(results, path):
    rows, name = read_csv(results, "fast.csv", "fast_bench.csv")
    need(rows, name, "rule", "width", "k", "rows", "threads", "gcups", "copy_bound_gcups")
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_lines(ax, lines_of(rows, lambda r: (r["rule"], int(r["k"]), int(r["rows"]), int(r["threads"])),
                            lambda r: (int(r["width"]), num(r["gcups"]))),
               label=lambda key: "{}, k {}, {} words, {} thr".format(*key), marker="o")
    bound = sorted({int(r["width"]): num(r["copy_bound_gcups"]) for r in reversed(rows)}.items())  # first row per N
    ax.plot([b[0] for b in bound], [b[1] for b in bound], color="black", linestyle="--", linewidth=1,
            label="one-pass copy bound (1 bit read + 1 written per cell)")
    dress(ax, "world size N (N x N torus)", "billion cell updates per second", xlog=2, legend=6,
          title="Life `fast` kernel: world size and rule")
    finish(fig, path, rows, name)


# ---------------------------------------------------------------- scan, compaction, sort

def chart_scan_op(op, title):
    def chart(results, path):
        rows, name = read_csv(results, "scan.csv")
        need(rows, name, "op", "method", "n", "median_ms", "gbps")
        # The serial CPU lines (methods "cpu", "cpu-no-scan", "cpu-scan") come from a later run that
        # added them, scan_with_cpu.csv, when it is there.
        if os.path.exists(os.path.join(results, "scan_with_cpu.csv")):
            cpu_rows, cpu_name = read_csv(results, "scan_with_cpu.csv")
            cpu_rows = [r for r in cpu_rows if r["method"].startswith("cpu") and r["op"] == op]
            if cpu_rows:  # the footnote names the file only where it adds lines (not to the sort chart)
                rows += cpu_rows
                name = f"{name}, {cpu_name} (cpu rows)"
        rows = [r for r in rows if r["op"] == op and is_pow2(int(r["n"])) and r.get("block_size", "") in ("", "128")]
        if not rows:
            raise Skip(f"{name} has no '{op}' rows")
        fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(12, 5))
        lines = lines_of(rows, lambda r: r["method"], lambda r: (int(r["n"]), num(r["median_ms"]), num(r["gbps"])))
        lines = dict(sorted(lines.items(), key=lambda kv: (kv[0] not in ("cub", "copy"), kv[0])))
        # The tuning variants of the decoupled scan ("decoupled-t256v8-m4-...") as thin grey lines under one legend
        # entry, so that the named methods keep distinct colours.
        variant = lambda method: method.startswith("decoupled-")
        first_variant = next((m for m in lines if variant(m)), None)
        colours = {m: f"C{i % 10}" for i, m in enumerate(m for m in lines if m not in ("cub", "copy") and not variant(m))}

        def style(method):
            if method == "cub":
                return dict(linestyle="--", color="black")
            if method == "copy":
                return dict(linestyle=":", color="0.5")
            if variant(method):
                return dict(color="0.75", linewidth=0.8, marker="", zorder=1)
            return dict(color=colours[method])

        def label(method):
            if not variant(method):
                return method
            return "decoupled, tuning variants" if method == first_variant else "_nolegend_"
        xlabel = "n (32-bit elements, powers of two)"
        for ax, y, ylabel in ((ax_t, 1, "median time (ms)"),
                              (ax_b, 2, "effective bandwidth (GB/s, minimum bytes moved / time)")):
            plot_lines(ax, lines, label=label, style=style, y=y, marker="o", markersize=3)
            dress(ax, xlabel, ylabel, xlog=2, ylog=True, grid="both", legend=7 if ax is ax_t else None)
        fig.suptitle(title)
        finish(fig, path, rows, name)
    return chart


def chart_scan_block_size(results, path):
    """The course scans (naive, work-efficient, work-efficient-lean) at each block size of
    scan_with_cpu.csv (`bench scan --block-sizes`), one panel per n = 2^k."""
    rows, name = read_csv(results, "scan_with_cpu.csv")
    need(rows, name, "op", "method", "n", "median_ms", "block_size")
    rows = [r for r in rows if r["op"] == "scan" and r["block_size"] and is_pow2(int(r["n"]))]
    sizes = sorted({int(r["n"]) for r in rows})
    if len({r["block_size"] for r in rows}) < 2 or not sizes:
        raise Skip(f"{name} has no scan rows at two or more block sizes")
    shown = [n for n in sizes if n.bit_length() - 1 in (20, 24, 28)] or sizes[-3:]
    fig, axes = plt.subplots(1, len(shown), figsize=(4.2 * len(shown), 4.2), squeeze=False)
    for ax, n in zip(axes[0], shown):
        at = [r for r in rows if int(r["n"]) == n]
        plot_lines(ax, lines_of(at, lambda r: r["method"], lambda r: (int(r["block_size"]), num(r["median_ms"]))),
                   marker="o")
        dress(ax, "threads per block", "median time (ms)", xlog=2, ylog=True, grid="both",
              title=f"n = 2^{n.bit_length() - 1}", title_size=10, legend=7 if ax is axes[0][0] else None)
    fig.suptitle("Course scans: block size (blocks = min(ceil(threads needed / block size), 2^20))")
    finish(fig, path, rows, name)


# ---------------------------------------------------------------- boids

MS_PER_STEP = "median time per step (ms)"
BOIDS_SERIES = ("classic", "constant-density")


def boids_rows(results, tuning=False):
    """Rows of boids.csv (or boids_tuning.csv first when `tuning`). Where a run swept
    --staging-ratios (column staging_ratio), only the rows at ratio 1.5 (the default; else the
    smallest ratio present) and those of methods without the ratio (empty) are kept; where a run swept
    --sort-every (column sort_every), only each method's rows at its smallest interval present (1:
    sorting every step, as the grid methods without the flag always do) and those without a grid
    (empty); where a run swept --cuda-graphs
    (column cuda_graphs), only the rows with graphs (1, the default) and those of methods without
    them (empty); where a run swept --x-splits (column x_split), only the rows of the smallest split
    present (1: cubes) and those of methods without a grid (empty); where a run swept --group-radii
    (column group_radius: several radii for one configuration of counting or fast), only the rows of
    the smallest radius present for that configuration (0: no boid groups)."""
    names = ("boids_tuning.csv", "boids.csv") if tuning else ("boids.csv",)
    rows, name = read_csv(results, *names)
    need(rows, name, "series", "method", "n", "cell_width", "block_size", "ms_per_step_median")
    ratios = {float(r["staging_ratio"]) for r in rows if r.get("staging_ratio")}
    if len(ratios) > 1:
        ratio = pick(ratios, 1.5)
        rows = [r for r in rows if not r["staging_ratio"] or float(r["staging_ratio"]) == ratio]
    least = {}  # each method's smallest interval: 1 for the grid methods that sort every step
    for r in rows:
        if r.get("sort_every"):
            least[r["method"]] = min(least.get(r["method"], int(r["sort_every"])), int(r["sort_every"]))
    rows = [r for r in rows if not r.get("sort_every") or int(r["sort_every"]) == least[r["method"]]]
    rows = [r for r in rows if r.get("cuda_graphs", "") in ("", "1")]
    splits = {int(r["x_split"]) for r in rows if r.get("x_split")}
    if splits:
        split = str(min(splits))
        rows = [r for r in rows if not r["x_split"] or r["x_split"] == split]
    if any(r.get("group_radius") for r in rows):
        def config(r):
            return tuple(r.get(k, "") for k in ("series", "method", "n", "cell_width", "block_size", "staging_ratio",
                                                 "sort_every", "cuda_graphs", "x_split"))
        smallest = {}
        for r in rows:
            if r["group_radius"]:
                key = config(r)
                smallest[key] = min(smallest.get(key, float("inf")), float(r["group_radius"]))
        rows = [r for r in rows if not r["group_radius"] or float(r["group_radius"]) == smallest[config(r)]]
    return rows, name


def method_n_style(by):
    """Colour per method, line style and marker per N, for keys (method, n) of `by`."""
    methods = sorted({m for m, _ in by})
    counts = sorted({n for _, n in by})
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    return lambda key: dict(color=colours[methods.index(key[0]) % len(colours)],
                            linestyle=("-", "--", ":", "-.")[counts.index(key[1]) % 4],
                            marker="osD^v"[counts.index(key[1]) % 5])


def pick(values, preferred):
    values = sorted(values)
    return preferred if preferred in values else values[0]


def chosen_block(rows):
    """Block size 128 when the rows have it, else the smallest; None when no row has one (CPU methods
    write none since 2026-12-03)."""
    blocks = {int(r["block_size"]) for r in rows if r["block_size"]}
    return pick(blocks, 128) if blocks else None


def at(rows, block=None):
    """The rows of block size `block` (any when None; rows without a block size, CPU methods, always)."""
    return [r for r in rows if block is None or not r["block_size"] or int(r["block_size"]) == block]


def at_best(rows, column):
    """For each (method, N) of `rows`, its rows at the value of `column` (cell_width or block_size)
    that holds its fastest row; rows with `column` empty are kept. Returns (rows, {(method, N):
    that value})."""
    best = {}
    for r in rows:
        if r[column]:
            k, t = (r["method"], int(r["n"])), num(r["ms_per_step_median"])
            if k not in best or t < best[k][1]:
                best[k] = (r[column], t)
    kept = [r for r in rows if not r[column] or r[column] == best[(r["method"], int(r["n"]))][0]]
    return kept, {k: v for k, (v, _) in best.items()}


def chart_boids_n(series, methods=None, title=None):
    """ms per step vs N per method of one series (or of both, one panel each, when series is None),
    at block size 128 (else the smallest present), each point at the best of the cell widths swept."""
    def chart(results, path):
        rows, name = boids_rows(results)
        sel_series = [series] if series else list(BOIDS_SERIES)
        panels = []
        for s in sel_series:
            srows = [r for r in rows if r["series"] == s and (methods is None or r["method"] in methods)]
            if srows:
                panels.append((s, srows))
        if not panels:
            raise Skip(f"{name} has no rows for series {'/'.join(sel_series)}"
                       + (f" and methods {', '.join(methods)}" if methods else ""))
        fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 5), squeeze=False)
        shown = []
        for ax, (s, srows) in zip(axes.flat, panels):
            block = chosen_block(srows)
            prows, _ = at_best(at(srows, block), "cell_width")
            shown += prows
            plot_lines(ax, lines_of(prows, lambda r: r["method"], lambda r: (int(r["n"]), num(r["ms_per_step_median"]))),
                       marker="o")
            scale = "scale 100" if s == "classic" else "scale 100 cbrt(N/5000)"
            widths = sorted({float(r["cell_width"]) for r in srows if r["cell_width"]})
            held = ([f"best of cell widths {', '.join(f'{w:g}' for w in widths)} x max rule distance"] if widths else []) \
                + ([f"block {block}"] if block else [])
            dress(ax, "N (boids)", MS_PER_STEP, xlog=10, ylog=True, grid="both", title_size=9,
                  title=f"{s} ({scale})" + ("; " + ", ".join(held) if held else ""))
        fig.suptitle(title or "Boids methods vs number of boids")
        finish(fig, path, shown, name)
    return chart


def chart_boids_tuning(param, x, xlabel, xlog, title, relative=False):
    """ms per step vs one tuning parameter (column `param`, value x(row)), one line per method and
    N, one panel per series; each line at the value of the other parameter (block size or cell
    width) that holds its fastest row, named in its label. relative: each line's ms per step over
    its own best (1 = the line's fastest point), on a linear axis, for effects of a few per cent
    between lines whose times differ by orders of magnitude."""
    def chart(results, path):
        rows, name = boids_rows(results, tuning=True)
        rows = [r for r in rows if r[param]]  # methods without a grid or (CPU) a block size
        if len({r[param] for r in rows}) < 2:
            raise Skip(f"{name} has fewer than two {param.replace('_', ' ')}s")
        series = [s for s in BOIDS_SERIES if any(r["series"] == s for r in rows)]
        if not series:  # a --periodic sweep alone (it failed with matplotlib's "Number of columns must be ...")
            raise Skip(f"{name} has no rows for series {'/'.join(BOIDS_SERIES)}")
        fig, axes = plt.subplots(1, len(series), figsize=(7 * len(series), 7), squeeze=False)
        shown = []
        for ax, s in zip(axes.flat, series):
            srows = [r for r in rows if r["series"] == s]
            other, short = ("block_size", "b") if param == "cell_width" else ("cell_width", "w")
            prows, held = at_best(srows, other)
            panel = f"{s}; each line at its best {other.replace('_', ' ')}"
            shown += prows
            lines = lines_of(prows, lambda r: (r["method"], int(r["n"])), lambda r: (x(r), num(r["ms_per_step_median"])))
            if relative:
                lines = {k: [(px, py / min(q for _, q in pts)) for px, py in pts] for k, pts in lines.items()}
            plot_lines(ax, lines, style=method_n_style(lines),
                       label=lambda key: f"{key[0]}, N={key[1]:,}" + (f", {short} {held[key]}" if key in held else ""))
            dress(ax, xlabel, "ms per step / the line's best (1 = fastest)" if relative else MS_PER_STEP, xlog=xlog,
                  ylog=not relative, grid="both", title=panel, title_size=9, legend=6, ncol=3, below=True)
        fig.suptitle(title)
        finish(fig, path, shown, name)
    return chart


def chart_boids_fps(results, path):
    rows, name = read_csv(results, "fps.csv")
    need(rows, name, "mode", "visual", "method", "n", "fps_mean")
    rows = [r for r in rows if r["mode"] == "boids"]
    if not rows:
        raise Skip(f"{name} has no boids rows")
    # Runs at several scales (CSVs joined) get a line each, not one line through both at one N.
    scales = len({r.get("scale", "") for r in rows}) > 1
    lines = lines_of(rows, lambda r: (r["method"], r["visual"], r.get("scale", "") if scales else ""),
                     lambda r: (int(r["n"]), num(r["fps_mean"])))
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    colours = {}
    plot_lines(ax, lines, marker="o",
               label=lambda key: f"{key[0]}, {'with' if key[1] == 'on' else 'without'} visualization"
               + (f", scale {key[2]}" if scales else ""),
               style=lambda key: dict(color=colours.setdefault((key[0], key[2]), f"C{len(colours) % 10}"),
                                      linestyle="-" if key[1] == "on" else "--"))
    dress(ax, "number of boids N", "frames per second (mean over the window)", xlog=10, ylog=True, grid="both",
          title="Boids FPS vs N, with (solid) and without (dashed) visualization", handlelength=4)
    finish(fig, path, rows, name)


def chart_boids_scale(results, path):
    """Issue 8's scenes: each round's best steps/s over its target (boids_rounds.csv, compiled by hand from the
    rounds' final sweeps in bench/RESULTS.md), and 10M boids at constant density after W untimed steps
    (boids_after_start.csv: `flocklife bench boids --warmup W` rows with a warmup_steps column added; one line per
    commit)."""
    rounds, rname = read_csv(results, "boids_rounds.csv")
    need(rounds, rname, "round", "scene", "n", "steps_per_second", "target_steps_per_second")
    after, aname = read_csv(results, "boids_after_start.csv")
    need(after, aname, "n", "warmup_steps", "steps_per_second")
    # The right panel's target line: that of boids_rounds.csv's scene with the same number of boids.
    targets = {r["n"]: num(r["target_steps_per_second"]) for r in rounds}
    target = targets.get(after[0]["n"]) if len({r["n"] for r in after}) == 1 else None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    lines = lines_of(rounds, lambda r: r["scene"],
                     lambda r: (int(r["round"]), num(r["steps_per_second"]) / num(r["target_steps_per_second"])))
    for i, (scene, pts) in enumerate(lines.items()):
        colour = f"C{i % 10}"
        left.plot([p[0] for p in pts], [p[1] for p in pts], "o", color=colour, label=scene)
        for a, b in zip(pts, pts[1:]):  # solid between consecutive rounds, dotted across rounds without a sweep
            left.plot([a[0], b[0]], [a[1], b[1]], color=colour, linestyle="-" if b[0] - a[0] == 1 else ":")
    left.axhline(1, color="0.3", linestyle="--", linewidth=1, label="target")
    left.set_ylim(bottom=0)
    dress(left, "round of issue 8 (0: before; dotted: across rounds with no final figures)", "steps/s / target",
          title="Three of issue 8's targets: best setting per round", title_size=10)
    timed = {(r.get("repetitions"), r.get("steps_per_rep")) for r in after}
    reps, steps = timed.pop() if len(timed) == 1 else (None, None)
    per = f"{reps} x {steps} " if reps and steps else ""
    plot_lines(right, lines_of(after, lambda r: r.get("commit", "")[:7],
                               lambda r: (int(r["warmup_steps"]), num(r["steps_per_second"]))),
               label=lambda build: f"fast at {build}, automatic settings" if build else "fast, automatic settings",
               marker="o")
    if target:
        right.axhline(target, color="0.3", linestyle="--", linewidth=1, label="target")
    right.set_ylim(bottom=0)
    n = int(after[0]["n"])
    dress(right, "untimed steps W after the random start", f"steps/s (median of {per}timed steps after W)",
          title=f"{n / 1e6:g}M boids, {after[0].get('series', 'one scene').replace('-', ' ')}, later in a run", title_size=10)
    finish(fig, path, rounds + after, f"{rname}, {aname}")


CHARTS = [
    ("life_kernels.png", chart_life_kernels),
    ("life_cpu.png", chart_life_cpu),
    ("life_sweep_threads.png", chart_life_sweep_threads),
    ("life_sweep_bytes.png", chart_life_sweep_bytes),
    ("life_fast.png", chart_fast),
    ("scan.png", chart_scan_op("scan", "Exclusive scan of 32-bit ints vs CUB DeviceScan::ExclusiveSum")),
    ("compact.png", chart_scan_op("compact", "Stream compaction (keep non-zero) vs CUB DeviceSelect::If")),
    ("sort.png", chart_scan_op("sort", "Radix sort of 32-bit key/value pairs vs CUB DeviceRadixSort::SortPairs")),
    ("scan_block_size.png", chart_scan_block_size),
    ("boids_n_classic.png", chart_boids_n("classic", title="Boids methods vs N, classic scene")),
    ("boids_n_density.png", chart_boids_n("constant-density", title="Boids methods vs N, constant density")),
    ("boids_cell_width.png", chart_boids_tuning("cell_width", lambda r: float(r["cell_width"]),
                                                "grid cell width (multiples of the largest rule distance)", None,
                                                "Boids: grid cell width")),
    ("boids_block_size.png", chart_boids_tuning("block_size", lambda r: int(r["block_size"]), "CUDA block size (threads)",
                                                2, "Boids: block size (each line relative to its best block size)",
                                                relative=True)),
    ("boids_zip_gather.png", chart_boids_n(None, ("grid", "coherent-zip", "coherent-gather", "coherent-gather+thrust"),
                                           "Boids: scattered grid, coherent by zip sort, coherent by gather")),
    ("boids_shared.png", chart_boids_n(None, ("coherent-gather", "shared"),
                                       "Boids: shared (per-thread walk, block's boids staged in shared memory) vs "
                                       "coherent-gather (warp-shared walk)")),
    ("boids_fps.png", chart_boids_fps),
    ("boids_scale.png", chart_boids_scale),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(here, "..", "bench", "results"), help="folder of the CSVs")
    committed = os.path.join(here, "..", "docs", "img")
    ap.add_argument("--out", help="folder for the PNGs (default docs/img, the committed charts)")
    ap.add_argument("--list", action="store_true", help="print the chart file names and exit")
    a = ap.parse_args()
    if a.list:
        print("\n".join(n for n, _ in CHARTS))
        return 0
    if not os.path.isdir(a.results):
        what = "a file, not a folder" if os.path.exists(a.results) else "no such folder"
        print(f"plots.py: error: --results {a.results}: {what}; expected the folder of the benchmark CSVs",
              file=sys.stderr)
        return 2
    # Another folder's CSVs charted over the committed charts, without a word (a tester's trial).
    if a.out is None:
        a.out = committed
        if os.path.realpath(a.results) != os.path.realpath(os.path.join(here, "..", "bench", "results")):
            print(f"plots.py: note: --results {a.results} without --out: its charts replace the committed ones in "
                  f"docs/img (give --out for another folder)", file=sys.stderr)
    try:
        os.makedirs(a.out, exist_ok=True)
    except OSError as e:  # a file of that name, or no permission: said, not a traceback (a new user's trial)
        print(f"plots.py: error: --out {a.out}: cannot make the folder for the PNGs: {e.strerror}; expected a folder",
              file=sys.stderr)
        return 2
    made, failed = 0, []
    for fname, chart in CHARTS:
        path = os.path.join(a.out, fname)
        try:
            chart(a.results, path)
            print(f"wrote {path}")
            made += 1
        except Skip as e:
            print(f"skipped {fname}: {e}")
        except (KeyError, ValueError, IndexError) as e:  # a malformed CSV: this chart fails, the others are made
            print(f"plots.py: error: {fname}: {malformed(e)}", file=sys.stderr)
            failed.append(fname)
        except OSError as e:  # a CSV that cannot be read, a chart that cannot be written (a full disk)
            print(f"plots.py: error: {fname}: {e.filename or path}: {e.strerror}", file=sys.stderr)
            failed.append(fname)
    print(f"{made} of {len(CHARTS)} charts written" + (f"; {len(failed)} failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
