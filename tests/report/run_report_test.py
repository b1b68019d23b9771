#!/usr/bin/python3
"""ctest `report_scripts`: scripts/plots.py and scripts/results_md.py on SYNTHETIC CSVs.

Generates the synthetic CSVs (synthetic_csvs.py, nothing measured) in a temporary folder, then
checks that every chart is written as a PNG, that missing files and foreign columns are skipped
with a message instead of a crash, that a malformed cell or a missing column fails only the charts
(and the document) that read it, with a message naming them, that results_md.py writes every section (and that --out keeps
the hand-written text above the generated part of an existing file), and that every
docs/img/*.png the README links is a chart plots.py makes. Exits 77 (ctest: skipped) without
matplotlib.
    tests/report/run_report_test.py SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("skipped: matplotlib is missing (Debian package python3-matplotlib)")
    sys.exit(77)

src = os.path.abspath(sys.argv[1])
plots = os.path.join(src, "scripts", "plots.py")
results_md = os.path.join(src, "scripts", "results_md.py")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def group_cells_differ(out):
    """In the tuning table, fast's row at 100,000 boids has its own cell under a setting with a group
    radius (g 0.08), faster (the synthetic 0.95x) than the same setting without it."""
    lines = out.splitlines()
    header = next((l for l in lines if l.startswith("| series | method | N |")), None)
    row = next((l for l in lines if l.startswith("| classic | fast | 100,000 |")), None)
    if header is None or row is None:
        return False
    names = [c.strip() for c in header.strip("|").split("|")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    try:
        with_g, without = cells[names.index("w 0.5, b 64, r 1.5, g 0.08")], cells[names.index("w 0.5, b 64, r 1.5")]
        return abs(float(with_g) / float(without) - 0.95) < 0.01
    except (ValueError, IndexError):
        return False


def run(*args):
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


charts = run(plots, "--list")[1].split()
check(len(charts) >= 14, f"plots.py --list names {len(charts)} charts")

# An --out that is a file is an error, not a traceback (a new user's trial).
with tempfile.TemporaryDirectory() as tmpOut:
    afile = os.path.join(tmpOut, "afile")
    open(afile, "w").close()
    rc, out = run(plots, "--out", afile)
    check(rc == 2 and "plots.py: error: --out " + afile + ": cannot make the folder" in out and "Traceback" not in out,
          "plots.py --out naming a file is refused:\n" + out)

# A results folder that does not exist is an error of both scripts, not "0 of 17 charts written".
with tempfile.TemporaryDirectory() as tmp:
    missing, out = os.path.join(tmp, "nowhere"), os.path.join(tmp, "charts")
    rc, text = run(plots, "--results", missing, "--out", out)
    check(rc == 2 and "no such folder" in text and not os.path.exists(out),
          "plots.py refuses a missing --results folder and makes no --out folder:\n" + text)
    rc, text = run(results_md, "--results", missing)
    check(rc == 2 and "no such folder" in text, "results_md.py refuses a missing --results folder:\n" + text)
    rc, text = run(results_md, "--results", tmp)
    check(rc == 0 and f"from the CSV files in `{tmp}/`" in text, "results_md.py names the folder it read:\n" + text[:300])

with tempfile.TemporaryDirectory() as tmp:
    csvs, img = os.path.join(tmp, "csv"), os.path.join(tmp, "img")
    rc, out = run(os.path.join(src, "tests", "report", "synthetic_csvs.py"), csvs)
    check(rc == 0, "synthetic CSVs generated")

    rc, out = run(plots, "--results", csvs, "--out", img)
    check(rc == 0 and "skipped" not in out, "plots.py draws every chart from the synthetic CSVs:\n" + out)
    for name in charts:
        path = os.path.join(img, name)
        with open(path, "rb") if os.path.exists(path) else open(os.devnull, "rb") as f:
            head = f.read(8)
        check(head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 10000, f"{name} is a PNG of > 10 kB")

    os.makedirs(os.path.join(tmp, "empty"))  # a results folder without CSVs (a missing one is an error)
    rc, out = run(plots, "--results", os.path.join(tmp, "empty"), "--out", os.path.join(tmp, "img2"))
    check(rc == 0 and out.count("skipped") == len(charts) and f"0 of {len(charts)}" in out,
          "plots.py without CSVs skips every chart with a message")

    foreign = os.path.join(tmp, "foreign")
    os.makedirs(foreign)
    with open(os.path.join(foreign, "scan.csv"), "w") as f:
        f.write("machine,gpu,commit,op,method,n\nh,g,c,scan,cub,1024\n")
    rc, out = run(plots, "--results", foreign, "--out", os.path.join(tmp, "img3"))
    check(rc == 0 and "scan.csv lacks the columns median_ms, gbps" in out,
          "plots.py names the missing columns of a foreign CSV")

    # A --periodic sweep alone: the tuning charts, which draw the classic and constant-density series,
    # are skipped with a message (matplotlib's "Number of columns must be a positive integer" failed them).
    periodic = os.path.join(tmp, "periodic")
    os.makedirs(periodic)
    with open(os.path.join(csvs, "boids.csv")) as f:
        lines = f.read().splitlines()
    series = lines[0].split(",").index("series")
    with open(os.path.join(periodic, "boids.csv"), "w") as f:
        f.write(lines[0] + "\n")
        for line in lines[1:]:
            cells = line.split(",")
            cells[series] += "-periodic"
            f.write(",".join(cells) + "\n")
    rc, out = run(plots, "--results", periodic, "--out", os.path.join(tmp, "img5"))
    check(rc == 0 and "skipped boids_cell_width.png: boids.csv has no rows for series classic/constant-density" in out
          and "failed" not in out, "plots.py skips the tuning charts of a --periodic sweep with a message:\n" + out)

    # A malformed cell or a missing column fails the charts and the document that read it, naming
    # them and what they lacked; the other charts are still made, and no document is written (a
    # traceback, or one bad cell ending every later chart, before).
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    with open(os.path.join(csvs, "boids.csv")) as f:
        lines = f.read().splitlines()
    head = lines[0].split(",")
    row = lines[1].split(",")
    row[head.index("n")] = ""
    with open(os.path.join(bad, "boids.csv"), "w") as f:
        f.write("\n".join([lines[0], ",".join(row)] + lines[2:]) + "\n")
    with open(os.path.join(bad, "life_gpu.csv"), "w") as f:
        f.write("machine,gpu,commit,kernel,width,cell_updates_per_s\nh,g,c,simple,64,1e9\n")
    rc, out = run(plots, "--results", bad, "--out", os.path.join(tmp, "img4"))
    check(rc == 1 and "plots.py: error: boids_n_" in out and "a cell that is not what the chart expects" in out
          and "Traceback" not in out and re.search(r"[1-9][0-9]* of [0-9]+ charts written; [0-9]+ failed", out),
          "plots.py fails only the charts of a malformed CSV, naming them, and exits 1:\n" + out)
    rc, out = run(results_md, "--results", bad)
    check(rc == 1 and "life_gpu.csv: no column 'copy_bandwidth_gbs'" in out and "Traceback" not in out
          and "## Life" not in out, "results_md.py names a CSV's missing column and writes nothing:\n" + out)
    # A negative, infinite or NaN time is malformed too (a hand-edited -5 ms was drawn off the log
    # axis; a tester's trial).
    negative = os.path.join(tmp, "negative")
    os.makedirs(negative)
    row = lines[1].split(",")
    for value in ("-5", "nan"):
        row[head.index("ms_per_step_median")] = value
        with open(os.path.join(negative, "boids.csv"), "w") as f:
            f.write("\n".join([lines[0], ",".join(row)] + lines[2:]) + "\n")
        rc, out = run(plots, "--results", negative, "--out", os.path.join(tmp, "img5"))
        check(rc == 1 and f"'{value}' where a finite number >= 0 belongs" in out and "Traceback" not in out,
              f"plots.py refuses a time of {value}:\n" + out)
        # results_md.py too, naming the line and column (it printed nan, and chose it as the best).
        rc, out = run(results_md, "--results", negative)
        check(rc == 1 and f"boids.csv:2: column ms_per_step_median holds '{value}' where a finite number >= 0 belongs"
              in out and "Traceback" not in out, f"results_md.py refuses a time of {value}:\n" + out)
    # A stamp whose text reads as a number is none: a commit 2e41234 (inf to float) is not refused.
    stamped = os.path.join(tmp, "stamped")
    os.makedirs(stamped)
    commit = head.index("commit")
    with open(os.path.join(stamped, "boids.csv"), "w") as f:
        f.write("\n".join([lines[0]] + [",".join(c if i != commit else "2e41234" for i, c in enumerate(line.split(",")))
                                        for line in lines[1:]]) + "\n")
    rc, out = run(results_md, "--results", stamped)
    check(rc == 0 and "commit 2e41234" in out,
          "results_md.py reads a commit stamp that looks like a number:\n" + out[-800:])
    # A UTF-8 byte order mark before the header (a spreadsheet's save) is dropped: the first column,
    # machine, kept its name (its stamp read "?": a tester).
    marked = os.path.join(tmp, "marked")
    os.makedirs(marked)
    with open(os.path.join(marked, "boids.csv"), "w", encoding="utf-8-sig") as f:
        f.write("\n".join(lines) + "\n")
    rc, out = run(results_md, "--results", marked)
    check(rc == 0 and "host ?" not in out and "Traceback" not in out,
          "results_md.py reads a CSV that begins with a byte order mark:\n" + out[-800:])
    # A cell that is not a number is named by its line and column (the message named neither).
    word = os.path.join(tmp, "word")
    os.makedirs(word)
    row = lines[2].split(",")
    row[head.index("ms_per_step_median")] = "fast?"
    with open(os.path.join(word, "boids.csv"), "w") as f:
        f.write("\n".join(lines[:2] + [",".join(row)] + lines[3:]) + "\n")
    rc, out = run(results_md, "--results", word)
    check(rc == 1 and "'fast?'), first at line 3, column ms_per_step_median" in out and "Traceback" not in out,
          "results_md.py names a malformed cell's line and column:\n" + out)
    # CSVs of several runs concatenated (cat a.csv b.csv: the header again) are read alike by both
    # scripts (results_md.py took the second header for a data row; a tester's trial).
    twice = os.path.join(tmp, "twice")
    os.makedirs(twice)
    with open(os.path.join(csvs, "fps.csv")) as f:
        fps = f.read()
    with open(os.path.join(twice, "fps.csv"), "w") as f:
        f.write(fps + fps)
    rc, out = run(results_md, "--results", twice)
    check(rc == 0 and "Traceback" not in out, "results_md.py reads concatenated CSVs:\n" + out[-500:])
    rc, out = run(plots, "--results", twice, "--out", os.path.join(tmp, "img6"))
    check("boids_fps.png" in out and "failed" not in out, "plots.py reads concatenated CSVs:\n" + out[-500:])
    # Other CSVs charted into the default --out, the committed charts, are said (a tester's trial);
    # run from a copy of the scripts, whose docs/img is a scratch folder.
    copy = os.path.join(tmp, "copy")
    os.makedirs(os.path.join(copy, "scripts"))
    for script in ("plots.py", "life_results.py"):
        shutil.copy(os.path.join(src, "scripts", script), os.path.join(copy, "scripts"))
    rc, out = run(os.path.join(copy, "scripts", "plots.py"), "--results", csvs)
    check(rc == 0 and f"--results {csvs} without --out: its charts replace the committed ones in docs/img" in out
          and os.path.exists(os.path.join(copy, "docs", "img", "boids_fps.png")),
          "plots.py says when other CSVs' charts replace the committed ones:\n" + out[-800:])
    # A rerun's rows appended (cat boids.csv rerun.csv) replace the first run's of the same
    # configuration in every table and chart, with a note (one table kept the fastest and another the
    # last, and a chart drew both as a vertical zigzag: a tester).
    rerun = os.path.join(tmp, "rerun")
    os.makedirs(rerun)
    with open(os.path.join(csvs, "boids.csv")) as f:
        first = f.read().splitlines()
    ms = first[0].split(",").index("ms_per_step_median")
    slower = []
    for line in first[1:]:
        cells = line.split(",")
        cells[ms] = repr(float(cells[ms]) * 5)
        slower.append(",".join(cells))
    with open(os.path.join(rerun, "boids.csv"), "w") as f:
        f.write("\n".join(first + [first[0]] + slower) + "\n")
    rc, out = run(results_md, "--results", rerun)
    n = len(first) - 1
    check(rc == 0 and out.count(f"boids.csv: {n} rows (lines {n + 3}, {n + 4}, {n + 5}, ...) repeat an earlier "
                                "row's configuration (runs concatenated?); the later row is used") == 1,
          "results_md.py notes a rerun's rows and uses them:\n" + out[-800:])
    rc, doubled = run(results_md, "--results", csvs)
    best = re.findall(r"\| ([0-9.,]+) \(w ", out)
    check(best and best != re.findall(r"\| ([0-9.,]+) \(w ", doubled),
          "results_md.py's tables show the rerun's (slower) figures:\n" + out[-800:])
    rc, out = run(plots, "--results", rerun, "--out", os.path.join(tmp, "img7"))
    check(out.count("repeat an earlier row's configuration") == 1 and "failed" not in out,
          "plots.py notes a rerun's rows once:\n" + out[-800:])
    rc, out = run(results_md, "--results", os.path.join(twice, "fps.csv"))
    check(rc == 2 and "a file, not a folder" in out, "results_md.py says a --results file is not a folder:\n" + out)
    # A row cut short (a file cut off mid-line) is refused naming the file and line by every script
    # (its missing cells were read as empty: a table showed 0.00, a chart was drawn; a trial).
    cut = os.path.join(tmp, "cut")
    os.makedirs(cut)
    with open(os.path.join(cut, "life_gpu.csv"), "w") as f:
        f.write("machine,gpu,commit,kernel,width,cell_updates_per_s\nh,g,c,simple,64,1e9\nh,g,c,fast,64\n")
    where = os.path.join(cut, "life_gpu.csv") + ":3: 5 cells where the header has 6"
    rc, out = run(results_md, "--results", cut)
    check(rc == 1 and where in out and "Traceback" not in out, "results_md.py refuses a row cut short:\n" + out)
    rc, out = run(plots, "--results", cut, "--out", os.path.join(tmp, "img5"))
    check(rc == 1 and "plots.py: error: life_kernels.png: " + where in out and "Traceback" not in out,
          "plots.py refuses a row cut short:\n" + out)
    rc, out = run(os.path.join(src, "scripts", "life_results.py"), os.path.join(cut, "life_gpu.csv"))
    check(rc == 1 and where in out and "Traceback" not in out, "life_results.py refuses a row cut short:\n" + out)
    # A cut inside the last cell keeps the count of cells: the missing line end tells it (a review).
    with open(os.path.join(cut, "life_gpu.csv"), "w") as f:
        f.write("machine,gpu,commit,kernel,width,cell_updates_per_s\nh,g,c,simple,64,1e")
    rc, out = run(results_md, "--results", cut)
    check(rc == 1 and "life_gpu.csv:2: the last row has no line end" in out,
          "results_md.py refuses a last cell cut:\n" + out)
    rc, out = run(os.path.join(src, "scripts", "life_results.py"), cut)
    check(rc == 1 and "Is a directory" in out and "Traceback" not in out, "life_results.py refuses a folder:\n" + out)
    # An --out that is no regular file (/dev/full reads as endless zeros: the script ate the memory).
    rc, out = run(results_md, "--results", csvs, "--out", "")
    check(rc == 2 and "--out: expected a file name" in out, "results_md.py refuses an empty --out:\n" + out)
    # A link is written through, and stays a link (it was replaced by a file; a tester).
    linked_md = os.path.join(tmp, "linked.md")
    os.symlink("target.md", linked_md)
    rc, out = run(results_md, "--results", csvs, "--out", linked_md)
    check(rc == 0 and os.path.islink(linked_md) and "## Life" in open(os.path.join(tmp, "target.md")).read()
          and "is a link; writing its target" in out, "results_md.py writes --out through a link:\n" + out)
    rc, out = run(results_md, "--results", csvs, "--out", "/dev/full")
    check(rc == 2 and "not a regular file" in out, "results_md.py refuses an --out that is a device:\n" + out)
    rc, out = run(results_md, "--results", csvs, "--out", tmp)
    check(rc == 2 and "is a folder" in out, "results_md.py refuses an --out that is a folder:\n" + out)
    rc, out = run(results_md, "--results", csvs, "--out", os.path.join(tmp, "nodir", "x.md"))
    check(rc == 2 and "no folder" in out and "Traceback" not in out,
          "results_md.py refuses an --out in a missing folder (a traceback before):\n" + out)

    rc, out = run(results_md, "--results", csvs)
    sections = ["## Life, GPU kernels", "## Life, CPU kernels", "## Life, `fast` kernel", "## Scan",
                "## Boids, methods vs N", "## Boids, cell width", "## Boids at scale (issue 8",
                "## Boids at scale, frames per second", "## Frames per second"]
    check(rc == 0 and all(s in out for s in sections) and "Not measured" not in out,
          "results_md.py writes every section from the synthetic CSVs")
    check("| bgolly-quicklife | 8192^2 | not measured | - |" in out and "| nan |" not in out,
          "results_md.py says a bgolly run without a time was not measured (it printed nan)")
    check("SYNTHETIC (not measured)" in out and "| radix-lsd |" in out and "| coherent-gather |" in out,
          "results_md.py tables carry the GPU stamp and the method rows")
    check(re.search(r"\| cpu-grid \| [^|]*\(w [0-9.]+, b -[,)]", out) is not None and ", b -" in out,
          "results_md.py shows a CPU method's block size (empty in the CSV) as -")
    check("in brackets the speed-up over `coherent-gather`" in out and ", x1)" in out,
          "results_md.py gives the scale table's ratio to coherent-gather measured in the same run")
    check(", r 0, s 4, x" in out and re.search(r"\| fast \| [^|]*, r 0, x[^|]*\|", out) is not None,
          "results_md.py names a best setting's sort interval where it is more than 1 (constant density) and "
          "leaves it out at 1 (classic)")
    check(re.search(r"\| counting \| [^|]*, no graphs, x[^|]*\|", out) is not None
          and re.search(r"\| fast \|[^\n]*no graphs", out) is None,
          "results_md.py marks a best setting without CUDA graphs (counting's, synthetic) and only that")
    check("s steps where more than 1, no graphs: counting and fast launching one by one" in out
          and ", r 1.5, no graphs |" in out,
          "results_md.py gives settings without CUDA graphs columns of their own in the tuning table")
    check("no graphs: counting and fast launching one by one, split: cells split that many times along x" in out
          and ", r 1.5, no graphs, split 4 |" in out and ", r 1.5, split 4 |" in out,
          "results_md.py gives split cells (bench boids --x-splits) columns of their own in the tuning table")
    check("split: cells split that many times along x, g: the boid group radius, where groups ran)" in out
          and ", r 1.5, split 4, g 0.08 |" in out and group_cells_differ(out),
          "results_md.py gives boid group radii (bench boids --group-radii) columns of their own in the tuning table")
    check("| boids | fast (points gl, 1920x1080) | 10,000,000 | 400 | 55 |" in out
          and "| boids | fast (points auto, 1920x1080) | 10,000,000 | 400 | 250 |" in out,
          "results_md.py gives each --points mode of a configuration its row, beside the shared steps-only run")
    check("| boids | fast (sort every 4) (points auto, 1920x1080) | 10,000,000 | 480 | 280 |" in out,
          "results_md.py gives a sort interval over 1 rows of its own in the frames-per-second table")
    # Without boids_tuning.csv the tuning table comes from boids.csv, as plots.py's charts do (it said
    # "Not measured" while the charts showed boids.csv's rows).
    untuned = os.path.join(tmp, "untuned")
    shutil.copytree(csvs, untuned)
    os.remove(os.path.join(untuned, "boids_tuning.csv"))
    rc, out = run(results_md, "--results", untuned)
    tuning = out[out.index("## Boids, cell width"):]
    check(rc == 0 and "Not measured" not in out and tuning.startswith("## Boids, cell width and block size\n\nData: `boids.csv`"),
          "results_md.py's tuning table reads boids.csv without boids_tuning.csv:\n" + tuning[:300])
    # Rows of one method and N that differ in a setting (two runs' CSVs joined) each keep their row,
    # labelled by that setting (one of them was dropped; a new user's trial).
    joined = os.path.join(tmp, "joined")
    os.makedirs(joined)
    with open(os.path.join(joined, "fps.csv"), "w") as f:
        f.write("machine,gpu,commit,mode,visual,method,n,scale,cell_width,block_size,size,gens_per_frame,points,"
                "window_size,fps_mean,fps_median,fps_min,fps_max,seconds,frames\n"
                "h,g,c,life,off,cpu-bitsliced,,,,,256x256,1,auto,1024x768,50248,1,1,1,1,1\n"
                "h,g,c,life,off,cpu-bitsliced,,,,,256x256,8,auto,1024x768,9313,1,1,1,1,1\n"
                "h,g,c,boids,off,cpu-grid,2000,100,2,,,1,auto,1024x768,1964,1,1,1,1,1\n"
                "h,g,c,boids,off,cpu-grid,2000,30,2,,,1,auto,1024x768,907.3,1,1,1,1,1\n")
    rc, out = run(results_md, "--results", joined)
    check(rc == 0 and "| life | cpu-bitsliced (gens per frame 1) | 256x256 | 50,248 |" in out
          and "| life | cpu-bitsliced (gens per frame 8) | 256x256 | 9313 |" in out
          and "| boids | cpu-grid (scale 100) | 2,000 | 1964 |" in out and "| boids | cpu-grid (scale 30) | 2,000 | 907.3 |" in out,
          "results_md.py keeps the FPS rows of one method and N that differ in a setting, labelled by it:\n" + out)
    rc, out = run(results_md, "--results", os.path.join(tmp, "empty"))
    check(rc == 0 and out.count("Not measured") == len(sections), "results_md.py marks missing CSVs as not measured")

    # --out keeps the hand-written text above the first generated heading (bench/RESULTS.md's prose).
    rc, whole = run(results_md, "--results", csvs)
    prose = "# Results\n\nHand-written prose.\n\n## Boids at scale (issue 8)\n\nNotes, kept.\n\n"
    kept = os.path.join(tmp, "RESULTS.md")
    with open(kept, "w") as f:
        f.write(prose + "## Life, GPU kernels\n\nan old table\n")
    rc, out = run(results_md, "--results", csvs, "--out", kept)
    with open(kept) as f:
        text = f.read()
    check(rc == 0 and text == prose + whole[whole.index("## Life, GPU kernels"):] and not os.path.exists(kept + ".tmp"),
          "results_md.py --out keeps an existing file's text before its first generated heading:\n" + out)
    fresh = os.path.join(tmp, "new.md")
    rc, out = run(results_md, "--results", csvs, "--out", fresh)
    with open(fresh) as f:
        text = f.read()
    check(rc == 0 and text == whole, "results_md.py --out writes the whole document to a new file")
    # Older runs' sections point to "Targets at a glance" only where the file has it above them.
    check("Targets at a glance" not in whole, "results_md.py names no \"Targets at a glance\" the file lacks")
    def out_over(name, existing):
        """results_md.py --out into a file `name` that held `existing`: (status, console, the file after)."""
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(existing)
        rc, out = run(results_md, "--results", csvs, "--out", path)
        with open(path) as f:
            return rc, out, f.read()

    rc, out, text = out_over("glance.md",
                             "# Results\n\n## Targets at a glance\n\nthe figures\n\n## Life, GPU kernels\n\nold\n")
    check(rc == 0 and text.count('"Targets at a glance" above') == 2,
          "results_md.py points the older runs' sections to a \"Targets at a glance\" above them:\n" + out)
    # A file with text but no generated heading is refused and left as it was (it was replaced whole).
    rc, out, text = out_over("mine.md", "# Mine\n\nhand text\n")
    check(rc == 2 and text == "# Mine\n\nhand text\n" and "no generated section heading" in out,
          "results_md.py --out refuses a file of other text:\n" + out)

with open(os.path.join(src, "README.md")) as f:
    linked = set(re.findall(r"docs/img/([A-Za-z0-9_.-]+\.png)", f.read()))
unknown = sorted(n for n in linked if n not in charts and not n.startswith("screenshot"))
check(not unknown, "README links only charts that plots.py makes (unknown: " + ", ".join(unknown) + ")")

sys.exit(1 if failures else 0)
