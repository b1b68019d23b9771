#!/usr/bin/env python3
"""Markdown tables for bench/RESULTS.md from `flocklife bench life` CSV files.

GPU CSV: the best setting (threads per block, cells per thread) of every kernel at every size,
with billions of cell updates per second, the ratio to `simple` and the fraction of the copy
bandwidth. CPU CSV: every kernel and bgolly QuickLife with the ratio to bgolly.
    python3 scripts/life_results.py out/bench/life_gpu.csv [out/bench/life_cpu.csv]
"""
import csv
import io
import math
import re
import sys


class Row(dict):
    """A data row by the header's names, with `line`: its line number in the file (from 1)."""

    def __init__(self, cells, line):
        super().__init__(cells)
        self.line = line


class Rows(list):
    """rows()'s data rows, with `repeated`: how many rows repeated an earlier row's configuration and
    replaced it (its line numbers in `repeated_lines`, the first few)."""
    repeated = 0
    repeated_lines = ()


# Columns that hold what a run measured (and the run's stamp), not what it was asked to measure: a
# configuration is the other columns' values.
MEASURED = re.compile(r"^(machine|gpu|commit|ms_.*|fps_.*|median_.*|min_.*|max_.*|.*_per_s|.*_per_second|"
                      r"steps_per_rep|repetitions|reps|generations|frames|seconds|naive_ms|speedup_vs_naive|"
                      r"grouped_share|gcups|copy_GBs|copy_bound_gcups|gbps|ratio_to_.*|state_bytes|"
                      r"bytes_moved_per_gen|copy_bandwidth_gbs|fraction_of_copy_bandwidth|expected_neighbours|"
                      r"source)$")


# Columns of names and stamps, whose text may read as a number but is none.
TEXT = {"machine", "gpu", "commit", "source", "series", "method", "kernel", "mode", "visual", "op", "rule", "scene",
        "points", "size", "window_size", "backend"}


def configuration(row):
    """The values of `row`'s columns that MEASURED does not name, as a key."""
    return tuple((name, v) for name, v in row.items() if not MEASURED.match(name))


class BadRow(ValueError):
    """A row the tables cannot use: more or fewer cells than the header, or a number that is negative,
    infinite or NaN; the message starts with "FILE:LINE: "."""


def rows(path):
    """The data rows of the CSV at `path`, as Rows (dicts by the header's names); a line that repeats the
    header (CSVs of several runs concatenated with cat) is passed over. Raises BadRow naming
    the file and line of a row with more or fewer cells than the header (a file cut short: its last
    row's missing cells were read as empty, and a table showed 0.00; a new user's trial), of a last
    row without a line end, or of a cell that reads as a negative, infinite or NaN number (every
    number the benchmarks write is a time, a rate, a count, a setting or a ratio: results_md.py
    printed "nan" and chose it as the best, a tester's trial). A UTF-8 byte order mark before the
    header (a spreadsheet's save) is dropped, as the benchmarks write none (the first column's name
    was read with it, and its stamp shown as "?": a tester). A row with the configuration of an
    earlier one (configuration: CSVs of a run and its rerun concatenated) replaces it, in its place:
    the later run's measurement is kept, so that every table and chart shows the same one (one
    table kept the fastest and another the last, and a chart drew both: a tester); Rows.repeated
    counts them, for the caller's note."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        text = f.read()
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    data, at = Rows(), {}
    for values in reader:
        if not values:
            continue  # a blank line, as csv.DictReader skips it
        if values == header:
            continue  # the header again: files of several runs concatenated (plots.py reads fps.csv so)
        if len(values) != len(header):
            raise BadRow(f"{path}:{reader.line_num}: {len(values)} cells where the header has {len(header)} "
                         f"(a file cut short, or rows of another benchmark version)")
        for name, v in zip(header, values):
            if name in TEXT:
                continue  # a commit such as 2e41234 reads as inf, a host may be named nan (a review)
            try:
                x = float(v)
            except ValueError:
                continue  # text, or empty
            if not 0 <= x < math.inf:
                raise BadRow(f"{path}:{reader.line_num}: column {name} holds '{v}' where a finite number >= 0 belongs")
        row = Row(zip(header, values), line=reader.line_num)
        key = configuration(row)
        if key in at:
            data[at[key]] = row
            data.repeated += 1
            if data.repeated <= 3:
                data.repeated_lines = data.repeated_lines + (reader.line_num,)
        else:
            at[key] = len(data)
            data.append(row)
    # The benchmarks end every row with a line end: a last row without one was cut inside its last
    # cell, which keeps the count of cells ("26.18" read as "26."; a review).
    if data and not text.endswith(("\n", "\r")):
        raise BadRow(f"{path}:{reader.line_num}: the last row has no line end (a file cut short)")
    return data


def gpu_table(data):
    best = {}
    for r in data:
        key = (r["kernel"], int(r["width"]))
        if key not in best or float(r["cell_updates_per_s"]) > float(best[key]["cell_updates_per_s"]):
            best[key] = r
    first = data[0]
    print(f"GPU: {first['gpu']}, commit {first['commit']}, copy bandwidth {float(first['copy_bandwidth_gbs']):.0f} GB/s\n")
    print("| kernel | size | tpb | cells/thread | G cell updates/s | x simple | fraction of copy bandwidth |")
    print("|---|---|---|---|---|---|---|")
    for (kernel, size), r in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"| {kernel} | {size}^2 | {r['threads_per_block']} | {r['cells_per_thread']} | "
              f"{float(r['cell_updates_per_s']) / 1e9:.1f} | {r['ratio_to_simple'] or '-'} | "
              f"{r['fraction_of_copy_bandwidth'] or '-'} |")


def cpu_table(data, stamp=True):
    """The CPU table; `stamp`: first a line naming the host and the commit (results_md.py says them
    in its own "Data:" line)."""
    first = data[0]
    if stamp:
        print(f"\nHost {first['machine']}, commit {first['commit']}\n")
    print("| kernel | size | G cell updates/s | x bgolly QuickLife |")
    print("|---|---|---|---|")
    for r in data:
        rate = f"{float(r['cell_updates_per_s']) / 1e9:.2f}" if r["cell_updates_per_s"] else "not measured"
        print(f"| {r['kernel']} | {r['width']}^2 | {rate} | {r['ratio_to_bgolly'] or '-'} |")


def repeats_note(path, data):
    """"<path>: N rows (lines L, ...) repeat an earlier row's configuration ...; the later row is
    used" for rows() data with repeats, else ""."""
    if not data.repeated:
        return ""
    lines = ", ".join(str(n) for n in data.repeated_lines) + (", ..." if data.repeated > 3 else "")
    return (f"{path}: {data.repeated} row{'s' if data.repeated > 1 else ''} (line{'s' if data.repeated > 1 else ''} "
            f"{lines}) repeat{'' if data.repeated > 1 else 's'} an earlier row's configuration (runs concatenated?); "
            f"the later row is used")


def malformed(e, data=()):
    """What a CSV lacked or held, in words, from the KeyError or ValueError reading it raised (also
    for results_md.py's tables). For a ValueError that quotes the cell ("could not convert string
    to float: 'abc'"), the line and column of the first cell of `data` (its Rows) that holds it."""
    if isinstance(e, KeyError):
        return f"no column {e} (written by another version of the benchmark?)"
    said = f"a cell that is not what the table expects ({e})"
    quoted = re.search(r"'([^']+)'", str(e))
    if quoted:
        at = next(((r.line, c) for r in data for c, v in r.items() if v == quoted.group(1)), None)
        if at:
            said += f", first at line {at[0]}, column {at[1]}"
    return said


def where(path, e):
    """`e`, raised reading the CSV at `path` (OSError, UnicodeDecodeError, BadRow), as one message
    that names the file once."""
    if isinstance(e, BadRow):
        return str(e)
    return f"{path}: {e.strerror if isinstance(e, OSError) else e}"


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    for path, table in zip(argv[1:3], (gpu_table, cpu_table)):
        try:
            data = rows(path)
        except (OSError, UnicodeDecodeError, ValueError) as e:  # a missing file, a folder, a cut row: said
            sys.exit(f"life_results.py: error: {where(path, e)}")
        if repeats_note(path, data):
            print(f"life_results.py: note: {repeats_note(path, data)}", file=sys.stderr)
        if not data:
            sys.exit(f"life_results.py: error: {path} has no data rows")
        try:
            table(data)
        except (KeyError, ValueError) as e:
            sys.exit(f"life_results.py: error: {path}: {malformed(e, data)}")


if __name__ == "__main__":
    main(sys.argv)
