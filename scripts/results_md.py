#!/usr/bin/python3
"""Markdown tables for bench/RESULTS.md from every benchmark CSV in a folder.

    scripts/results_md.py [--results bench/results] [--out bench/RESULTS.md]

Each section starts with the CSV's file name, the date it was committed (`git log`; the file's
modification time when it is not committed: the CSVs carry no date column), and the GPU, host
and commit stamped in its rows. Missing files are listed as not measured; the cell width and
block size table reads boids.csv where there is no boids_tuning.csv, as plots.py's charts do. Life tables come from
scripts/life_results.py. Prints to standard output without --out. Python standard library only.

--out FILE keeps the hand-written part of an existing FILE: everything before its first line that
is a generated section heading (e.g. "## Life, GPU kernels") stays as it is, and only the text
from that heading on is replaced by the generated sections. A FILE that does not exist, or is
empty, gets the whole generated document (title, note and every section); one with text but no
such heading is refused (exit status 2), since all of it would be lost (a new user's trial). FILE
is written to a temporary file beside it and then renamed over it, so a failure leaves it unchanged.
"""
import argparse
import contextlib
import datetime
import io
import os
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import life_results  # noqa: E402  (same folder)


def file_date(path):
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", os.path.basename(path)],
                             cwd=os.path.dirname(os.path.abspath(path)), capture_output=True, text=True, timeout=20)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip() + " (committed)"
    except (OSError, subprocess.SubprocessError):
        pass
    return datetime.date.fromtimestamp(os.path.getmtime(path)).isoformat() + " (file time, not committed)"


def stamp(path, rows):
    stamps = sorted({(r.get("gpu", "?"), r.get("machine", "?"), r.get("commit", "?")) for r in rows})
    who = "; ".join(f"GPU {g}, host {m}, commit {c}" for g, m, c in stamps)
    print(f"Data: `{os.path.basename(path)}`, {file_date(path)}; {who}\n")


def f(v, digits=3):
    """`digits` significant digits; where that would take an exponent (values of more digits before
    the point, or rounding up to them), the whole number with thousands separators (23,220 rather
    than 2.322e+04)."""
    if v in ("", None):
        return "-"
    x = float(v)
    s = f"{x:.{digits}g}"
    return f"{round(x):,}" if "e+" in s else s


def scan_tables(rows):
    # A run with --block-sizes has a row per block size for the course scans: the table keeps the
    # library's 128 (the block-size chart shows the others).
    rows = [r for r in rows if r.get("block_size", "") in ("", "128")]
    for op in ("scan", "compact", "sort"):
        sel = [r for r in rows if r["op"] == op]
        if not sel:
            continue
        methods = sorted({r["method"] for r in sel}, key=lambda m: (m not in ("copy", "cub"), m))
        cell = {(r["method"], int(r["n"])): r for r in sel}
        print(f"\n**{op}**: median ms (time ratio to CUB in brackets; below 1 is faster than CUB)\n")
        print("| n | " + " | ".join(methods) + " |")
        print("|---|" + "---|" * len(methods))
        for n in sorted({int(r["n"]) for r in sel}):
            vals = [f"{f(cell[(m, n)]['median_ms'], 4)} ({f(cell[(m, n)]['ratio_to_cub'])})" if (m, n) in cell else "-"
                    for m in methods]
            print(f"| {n:,} | " + " | ".join(vals) + " |")


def block_of(r):
    """A boids row's block size, "-" for a CPU method (empty in CSVs since 2026-12-03)."""
    return r["block_size"] or "-"


def best_by_method_and_n(rows):
    """The fastest row of each (method, N)."""
    best = {}
    for r in rows:
        key = (r["method"], int(r["n"]))
        if key not in best or float(r["ms_per_step_median"]) < float(best[key]["ms_per_step_median"]):
            best[key] = r
    return best


def boids_tables(rows):
    for series in sorted({r["series"] for r in rows}):
        sel = [r for r in rows if r["series"] == series]
        best = best_by_method_and_n(sel)
        ns = sorted({n for _, n in best})
        naive = any(r["speedup_vs_naive"] for r in sel)
        print(f"\n**{series}**: median ms per step at the best cell width / block size of the run "
              + ("(speed-up over naive at the same N and block size in brackets)\n" if naive
                 else "(the settings in brackets)\n"))
        print("| method | " + " | ".join(f"N = {n:,}" for n in ns) + " |")
        print("|---|" + "---|" * len(ns))
        for m in sorted({m for m, _ in best}):
            vals = []
            for n in ns:
                r = best.get((m, n))
                if r is None:
                    vals.append("-")
                    continue
                where = f"w {r['cell_width']}, b {block_of(r)}" if r["cell_width"] else f"b {block_of(r)}"
                if r.get("staging_ratio"):
                    where += f", r {r['staging_ratio']}"
                if r.get("sort_every") not in (None, "", "1"):
                    where += f", s {r['sort_every']}"
                if r.get("x_split") not in (None, "", "1"):
                    where += f", split {r['x_split']}"
                if r.get("group_radius") not in (None, "", "0"):
                    where += f", g {r['group_radius']}"
                if r.get("cuda_graphs") == "0":
                    where += ", no graphs"
                up = f", x{f(r['speedup_vs_naive'])}" if r["speedup_vs_naive"] else ""
                vals.append(f"{f(r['ms_per_step_median'], 4)} ({where}{up})")
            print(f"| {m} | " + " | ".join(vals) + " |")


def scale_tables(rows, reference="coherent-gather"):
    """Best setting of each method per (series, N), with the speed-up over `reference` (the course's
    technique) measured in the same run."""
    for series in sorted({r["series"] for r in rows}):
        best = best_by_method_and_n([r for r in rows if r["series"] == series])
        ns = sorted({n for _, n in best})
        split_note = ("; split: cells split that many times along x, where more than 1"
                      if any(r.get("x_split") not in (None, "", "1") for r in best.values()) else "")
        split_note += ("; g: the boid group radius, where groups ran"
                       if any(r.get("group_radius") not in (None, "", "0") for r in best.values()) else "")
        print(f"\n**{series}**: steps/s at the best cell width w, block size b and staging ratio r of the run "
              f"(s: sorting every s steps, where more than 1{split_note}); in brackets the speed-up over `{reference}` at its "
              f"own best setting, measured in the same run\n")
        print("| method | " + " | ".join(f"N = {n:,}" for n in ns) + " |")
        print("|---|" + "---|" * len(ns))
        for m in sorted({m for m, _ in best}):
            vals = []
            for n in ns:
                r, ref = best.get((m, n)), best.get((reference, n))
                if r is None:
                    vals.append("-")
                    continue
                up = f", x{f(float(ref['ms_per_step_median']) / float(r['ms_per_step_median']))}" if ref else ""
                sort = f", s {r['sort_every']}" if r.get("sort_every") not in (None, "", "1") else ""
                sort += f", split {r['x_split']}" if r.get("x_split") not in (None, "", "1") else ""
                sort += f", g {r['group_radius']}" if r.get("group_radius") not in (None, "", "0") else ""
                sort += ", no graphs" if r.get("cuda_graphs") == "0" else ""
                vals.append(f"{f(1000 / float(r['ms_per_step_median']), 4)} (w {r['cell_width']}, b {block_of(r)}, "
                            f"r {r['staging_ratio']}{sort}{up})")
            print(f"| {m} | " + " | ".join(vals) + " |")


def tuning_tables(rows):
    by = defaultdict(dict)
    for r in rows:
        sort = r.get("sort_every") or ""
        split = r.get("x_split") or ""
        group = r.get("group_radius") or ""
        setting = (r["cell_width"], int(r["block_size"] or 0), r.get("staging_ratio") or "", "" if sort == "1" else sort,
                   r.get("cuda_graphs") == "0", "" if split == "1" else split, "" if group == "0" else group)
        by[(r["series"], r["method"], int(r["n"]))][setting] = r["ms_per_step_median"]
    settings = sorted({s for d in by.values() for s in d},
                      key=lambda s: (float(s[0] or 0), s[1], float(s[2] or -1), int(s[3] or 1), s[4], int(s[5] or 1),
                                     float(s[6] or 0)))
    graphs_off = ", no graphs: counting and fast launching one by one" if any(s[4] for s in settings) else ""
    graphs_off += ", split: cells split that many times along x" if any(s[5] for s in settings) else ""
    graphs_off += ", g: the boid group radius, where groups ran" if any(s[6] for s in settings) else ""
    print("\nmedian ms per step for each (cell width w, block size b, staging ratio r where swept, sorting every "
          f"s steps where more than 1{graphs_off})\n")
    print("| series | method | N | " + " | ".join(f"w {w or '-'}, b {b or '-'}" + (f", r {r}" if r else "")
                                             + (f", s {k}" if k else "") + (", no graphs" if off else "")
                                             + (f", split {x}" if x else "") + (f", g {g}" if g else "")
                                             for w, b, r, k, off, x, g in settings) + " |")
    print("|---|---|---|" + "---|" * len(settings))
    for (series, m, n), d in sorted(by.items()):
        print(f"| {series} | {m} | {n:,} | " + " | ".join(f(d[s], 4) if s in d else "-" for s in settings) + " |")


def fast_table(rows):
    print("Reference measured in the same run: device-to-device copy bandwidth, and the one-pass bound it implies "
          "(1 bit read + 1 bit written per cell update); the last column is the ratio to that bound.\n")
    print("| rule | N | k | words/thread column | threads | G cell updates/s | copy GB/s | one-pass copy bound "
          "| x bound |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        bound = float(r['copy_bound_gcups'])
        ratio = f(float(r['gcups']) / bound, 3) if bound > 0 else "-"
        print(f"| {r['rule']} | {r['width']}^2 | {r['k']} | {r['rows']} | {r['threads']} | {f(r['gcups'], 5)} | "
              f"{f(r['copy_GBs'], 4)} | {f(r['copy_bound_gcups'], 5)} | {ratio} |")


FPS_SETTINGS = ("scale", "gens_per_frame", "cell_width", "block_size", "staging_ratio", "x_split", "group_radius")


def fps_table(rows):
    print("Frames per second averaged over each run after its warm-up (`fps_mean`); \"with\" = the window path "
          "(vsync off; CUDA-OpenGL interop for the GPU methods, host uploads for the CPU ones; headless EGL on a "
          "machine without a display), \"without\" = simulation steps only.\n")

    def base(r):
        return (r["mode"], r["method"] + (f" (sort every {r['sort_every']})" if r.get("sort_every") not in (None, "", "1")
                                          else ""), r["n"] if r["mode"] == "boids" else r["size"])

    # Settings that differ between rows of one method and N (--scale, --gens-per-frame, ...) are part
    # of the row's key and label: a CSV joined from two runs lost one of them (a new user's trial).
    seen = defaultdict(lambda: defaultdict(set))
    for r in rows:
        for name in FPS_SETTINGS:
            seen[base(r)][name].add(r.get(name) or "")
    off, on = {}, defaultdict(dict)  # the steps-only run is shared by every points mode of a configuration
    for r in rows:
        varying = tuple((name, r.get(name) or "") for name in FPS_SETTINGS if len(seen[base(r)][name]) > 1)
        key = base(r) + (varying,)
        if r["visual"] == "off":
            off[key] = r
        else:
            on[key][(r.get("points") or "", r.get("window_size") or "")] = r
    print("| simulation | method / kernel | N or world | without visualization | with visualization | with / without |")
    print("|---|---|---|---|---|---|")
    for key in sorted(set(off) | set(on), key=lambda k: (k[0], k[1], len(k[2]), k[2], k[3])):
        mode, method, what, varying = key
        shown = f"{int(what):,}" if mode == "boids" else what
        method += "".join(f" ({name.replace('_', ' ')} {value or '-'})" for name, value in varying)
        o = off.get(key)
        for (points, size), v in sorted(on.get(key, {("", ""): None}).items()):
            label = method + (f" (points {points}" + (f", {size}" if size else "") + ")" if points else "")
            ratio = f(float(v["fps_mean"]) / float(o["fps_mean"]), 3) if v and o and float(o["fps_mean"]) else "-"
            print(f"| {mode} | {label} | {shown} | {f(o['fps_mean'], 4) if o else '-'} | "
                  f"{f(v['fps_mean'], 4) if v else '-'} | {ratio} |")

GLANCE = "## Targets at a glance"  # a hand-written section of bench/RESULTS.md, above the generated ones
LATEST = "The latest checks of the final kernels: \"Targets at a glance\" above."

# (title, CSV names tried in turn, table, whether the section points to GLANCE where the file has it)
SECTIONS = [
    ("Life, GPU kernels", ("life_gpu.csv",), life_results.gpu_table, False),
    ("Life, CPU kernels and bgolly", ("life_cpu.csv",), lambda data: life_results.cpu_table(data, stamp=False), False),
    ("Life, `fast` kernel (fast_bench)", ("fast.csv", "fast_bench.csv"), fast_table, False),
    ("Scan, stream compaction, radix sort", ("scan.csv",), scan_tables, False),
    ("Boids, methods vs N", ("boids.csv",), boids_tables, False),
    ("Boids, cell width and block size", ("boids_tuning.csv", "boids.csv"), tuning_tables, False),
    ("Boids at scale (issue 8 targets): the full sweep of round 16, before the boid groups", ("boids_scale.csv",),
     scale_tables, True),
    ("Boids at scale, frames per second at 10M boids (`flocklife bench fps boids`): the first window runs",
     ("fps_scale.csv",), fps_table, True),
    ("Frames per second with and without the visualization (`flocklife bench fps`)", ("fps.csv",), fps_table, False),
]


class Malformed(Exception):
    """A CSV that a table cannot be made from; the message names the file and what it lacks."""


def generate(results, glance=False):
    """The whole generated document, as printed without --out; with `glance` (the file written has a
    "Targets at a glance" section), the sections of older runs point to it."""
    print("# Benchmark results\n")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    shown = os.path.relpath(os.path.abspath(results), os.path.abspath(root))
    shown = results if shown.startswith("..") else shown  # the folder read, as the repository names it
    print(f"Generated by `scripts/results_md.py` from the CSV files in `{shown.rstrip('/')}/`; "
          "charts: `scripts/plots.py`.")
    noted = set()
    for title, names, table, points in SECTIONS:
        print(f"\n## {title}\n")
        if points and glance:
            print(f"{LATEST}\n")
        path = next((os.path.join(results, n) for n in names if os.path.exists(os.path.join(results, n))), None)
        if path is None:
            print(f"Not measured (no {' or '.join(names)}).")
            continue
        try:
            rows = life_results.rows(path)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise Malformed(life_results.where(path, e)) from e
        if life_results.repeats_note(path, rows) and path not in noted:  # once, though two sections read it
            noted.add(path)
            print(f"results_md.py: note: {life_results.repeats_note(path, rows)}", file=sys.stderr)
        if not rows:
            print(f"`{os.path.basename(path)}` has no data rows.")
            continue
        stamp(path, rows)
        try:
            table(rows)
        except (KeyError, ValueError, IndexError) as e:
            raise Malformed(f"{path}: {life_results.malformed(e, rows)}") from e


def first_generated_heading(lines):
    """Index of the first line of `lines` that is a generated section heading, or None."""
    headings = {f"## {title}" for title, *_ in SECTIONS}
    return next((i for i, line in enumerate(lines) if line.rstrip("\n") in headings), None)


def splice(existing, generated):
    """`existing` up to its first generated heading, then `generated` from its first such heading;
    all of `generated` when `existing` is None or has no generated heading."""
    if existing is None:
        return generated
    old = existing.splitlines(keepends=True)
    keep = first_generated_heading(old)
    if keep is None:
        return generated
    new = generated.splitlines(keepends=True)
    return "".join(old[:keep] + new[first_generated_heading(new):])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(here, "..", "bench", "results"),
                    help="folder of the benchmark CSVs (default bench/results)")
    ap.add_argument("--out", metavar="FILE",
                    help="write to FILE instead of standard output, keeping FILE's hand-written text before its "
                         "first generated heading (\"## Life, GPU kernels\") and replacing the rest")
    a = ap.parse_args()
    if a.out == "":  # it printed to standard output, as without --out (a tester)
        print("results_md.py: error: --out: expected a file name (bench/RESULTS.md), got an empty string",
              file=sys.stderr)
        return 2
    if not os.path.isdir(a.results):
        what = "a file, not a folder" if os.path.exists(a.results) else "no such folder"
        print(f"results_md.py: error: --results {a.results}: {what}; expected the folder of the benchmark CSVs",
              file=sys.stderr)
        return 2
    if a.out and os.path.isdir(a.out):
        print(f"results_md.py: error: --out {a.out}: is a folder; expected a file (bench/RESULTS.md)", file=sys.stderr)
        return 2
    if a.out and os.path.exists(a.out) and not os.path.isfile(a.out):  # /dev/full read as endless zeros (a trial)
        print(f"results_md.py: error: --out {a.out}: not a regular file; expected a file (bench/RESULTS.md)",
              file=sys.stderr)
        return 2
    folder = os.path.dirname(a.out) if a.out else ""
    if folder and not os.path.isdir(folder):  # checked first (it ended in a traceback; a new user's trial)
        print(f"results_md.py: error: --out {a.out}: no folder {folder}; expected a file in an existing folder",
              file=sys.stderr)
        return 2
    existing = None
    if a.out:
        try:
            with open(a.out) as f:
                existing = f.read()
        except FileNotFoundError:
            pass
    kept = existing.splitlines() if existing else []
    first = first_generated_heading(kept)
    if kept and first is None and existing.strip():
        print(f"results_md.py: error: --out {a.out}: has text but no generated section heading (\"## Life, GPU "
              f"kernels\"), so all of it would be replaced; expected bench/RESULTS.md, a file this script wrote, or a "
              f"new file", file=sys.stderr)
        return 2
    text = io.StringIO()
    try:
        with contextlib.redirect_stdout(text):
            generate(a.results, glance=GLANCE in (line.rstrip() for line in kept[:first]))
    except Malformed as e:  # nothing is written
        print(f"results_md.py: error: {e}", file=sys.stderr)
        return 1
    if not a.out:
        sys.stdout.write(text.getvalue())
        return 0
    # A link is written through: its target gets the text, and the link stays (it was replaced by a
    # regular file, the target left as it was: a tester).
    target = os.path.realpath(a.out) if os.path.islink(a.out) else a.out
    if target != a.out:
        print(f"results_md.py: note: --out {a.out} is a link; writing its target {target}", file=sys.stderr)
    tmp = target + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(splice(existing, text.getvalue()))
        os.replace(tmp, target)
    except OSError as e:  # a folder that cannot be written in, a full disk: said, and no .tmp left
        with contextlib.suppress(OSError):
            os.remove(tmp)
        print(f"results_md.py: error: --out {a.out}: cannot write it: {e.strerror}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
