#!/usr/bin/env python3
"""Measured compute on a shared machine: how stable are predictions?

  bench/timing_bench.py [--build DIR]... [--runs N] [--kn-ranks R]
                        [--md-ranks R] [--loads LIST] [--timings LIST]
                        [--programs LIST] [--keep DIR] [--markdown]

Run from a build directory (or give --build).  Given --build twice or
more (e.g. a build of an older commit from a `git worktree'), the builds
are compared side by side: each round of runs emulates with every build
in turn, the order alternating from round to round, so that the
machine's drift (its speed moves by 20% within an hour) falls on all of
them alike; each row names its build.  For each program, each
timing (`sibyl emulate --timing corrected`, the default, and `--timing
raw`, Sibyl's behaviour before it corrected anything) and each load (0:
the machine as it is; 2: two busy-loop processes, one per core, running
alongside), the program is emulated --runs times (default 5) with
measured compute (the default --cpu-factor 1) and each trace simulated
on the default machine.  Programs:

  kneighbor   the README demo: examples/kneighbor.c, 4,096 ranks on 2
              processes, 1 KiB, 5 iterations, k = 2, 100 us of compute
              per iteration (declared under sibylcc: what remains
              measured is everything else the program does)
  md          the MD proxy examples/md.c, 32,768 ranks on 2 processes,
              its forces and FFTs executed (not declared), 4 atoms per
              patch, 5 steps

Printed per (program, timing, load): the predictions (ms), their spread
((max - min) / median), the busy max/mean over the ranks other than rank
0 (whose final gather makes it legitimately busier; the worst run), the
corrected SEBs (median over the runs) and the emulation's wall time
(median).  The last line per program compares each loaded median
prediction with the unloaded one of the same timing.  With --keep DIR,
every trace and simulation stays in DIR as PROGRAM-TIMING-LOAD-RUN.trace
and .sim, to compare runs (e.g. with `sibyl trace stats --regions').
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


# The start of a line of `sibyl trace dump --json': its PE and duration.
SEB_LINE = re.compile(r'\{"pe":(\d+),"seb":\d+,"name":"(?:[^"\\]|\\.)*",'
                      r'"duration_ps":(\d+),')


def run(cmd, env=None, timeout=3600):
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env or ENV, capture_output=True, text=True,
                       timeout=timeout)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                             p.stdout[-2000:],
                                             p.stderr[-2000:]))
    return p.stdout + p.stderr, wall


def busy_loops(n):
    return [subprocess.Popen(["sh", "-c", "while :; do :; done"])
            for _ in range(n)]


def stop(procs):
    for p in procs:
        p.kill()
        p.wait()


def srcdir_of(build):
    """The source tree a build directory was configured from."""
    try:
        with open(os.path.join(build, "Makefile")) as f:
            for line in f:
                if line.startswith("abs_top_srcdir = "):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return SRC


def measure(args, build, tmp, prog, ranks, pargs, timing, tag="t"):
    sibyl = os.path.join(build, "sibyl")
    if not args.keep:
        tag = "t"       # one trace at a time in tmp, each run replacing it
    trace = os.path.join(args.keep or tmp, tag + ".trace")
    _, wall = run([sibyl, "emulate", "-q", "--timing", timing, "--ranks",
                   str(ranks), "-np", "2", "-o", trace, "--force", "--",
                   prog] + pargs)
    sim = os.path.join(args.keep or tmp, tag + ".sim")
    run([sibyl, "sim", "-q", trace, "-o", sim, "--force"])
    with open(os.path.join(sim, "summary.json")) as f:
        pred = json.load(f)["predicted_time_ps"] / 1e9
    # Busy time per PE and corrected SEBs, from the trace itself.
    p = subprocess.Popen([sibyl, "trace", "dump", "--json", trace],
                         stdout=subprocess.PIPE, text=True, env=ENV)
    # A regular expression, not json.loads: an MD trace has 1.5 million
    # SEBs, and parsing each line took most of the script's time.
    busy = {}
    corrected = 0
    for line in p.stdout:
        m = SEB_LINE.match(line)
        if not m:
            s = json.loads(line)
            pe, dur = s["pe"], s["duration_ps"]
        else:
            pe, dur = int(m.group(1)), int(m.group(2))
        busy[pe] = busy.get(pe, 0) + dur
        corrected += '"corrected":' in line
    p.wait()
    rest = [v for k, v in busy.items() if k != 0]
    return pred, max(rest) / statistics.mean(rest), corrected, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", metavar="DIR", action="append",
                    help="a build directory (default: the current one); "
                    "give it twice or more to compare builds side by side")
    ap.add_argument("--runs", type=int, default=5,
                    help="emulations per (program, timing, load, build); "
                    "default 5")
    ap.add_argument("--kn-ranks", type=int, default=4096,
                    help="ranks of the k-neighbor (default 4096)")
    ap.add_argument("--md-ranks", type=int, default=32768,
                    help="ranks of the MD proxy (default 32768)")
    ap.add_argument("--loads", default="0,2", metavar="LIST",
                    help="busy-loop processes alongside, comma-separated "
                    "(default 0,2)")
    ap.add_argument("--timings", default="raw,corrected", metavar="LIST",
                    help="sibyl emulate --timing values (default "
                    "raw,corrected)")
    ap.add_argument("--programs", default="kneighbor,md", metavar="LIST",
                    help="kneighbor, md or both (default both)")
    ap.add_argument("--keep", metavar="DIR",
                    help="keep every trace and simulation in DIR")
    ap.add_argument("--markdown", action="store_true",
                    help="also print the rows as a Markdown table")
    args = ap.parse_args()
    builds = [os.path.abspath(b) for b in (args.build or ["."])]
    for b in builds:
        if not os.access(os.path.join(b, "sibyl"), os.X_OK):
            sys.exit("timing_bench.py: no sibyl in %s: give a build "
                     "directory with --build" % b)
    names = [os.path.basename(b) or b for b in builds]
    if len(set(names)) < len(names):
        names = ["%d:%s" % (i + 1, n) for i, n in enumerate(names)]
    if args.keep:
        args.keep = os.path.abspath(args.keep)
        os.makedirs(args.keep, exist_ok=True)
    loads = [int(x) for x in args.loads.split(",")]
    timings = args.timings.split(",")
    tmp = tempfile.mkdtemp(prefix="sibyl-timing-")
    progs = {
        "kneighbor": ("kneighbor.c", args.kn_ranks,
                      ["1024", "5", "2", "100"]),
        "md": ("md.c", args.md_ranks, ["-a", "4", "-s", "5"]),
    }
    rows = []
    try:
        for name in args.programs.split(","):
            if name not in progs:
                sys.exit("timing_bench.py: unknown program %r (kneighbor, "
                         "md)" % name)
            src, ranks, pargs = progs[name]
            exes = []
            for j, b in enumerate(builds):
                srcdir = srcdir_of(b)
                env = dict(ENV, SIBYLCC_LIBDIR=b,
                           SIBYLCC_INCDIR=os.path.join(srcdir, "emulator",
                                                       "include"))
                exe = os.path.join(tmp, "%s.%d" % (name, j))
                run([os.path.join(b, "emulator", "sibylcc"), "-O2",
                     os.path.join(SRC, "examples", src), "-o", exe], env=env)
                exes.append(exe)
            base = {}
            for timing in timings:
                for load in loads:
                    hogs = busy_loops(load)
                    res = [[] for _ in builds]
                    try:
                        for i in range(args.runs):
                            order = list(range(len(builds)))
                            if i % 2:
                                order.reverse()
                            for j in order:
                                tag = "%s-%s-%d-%d" % (name, timing, load, i)
                                if len(builds) > 1:
                                    tag += "-b%d" % (j + 1)
                                res[j].append(measure(args, builds[j], tmp,
                                                      exes[j], ranks, pargs,
                                                      timing, tag))
                    finally:
                        stop(hogs)
                    for j, r in enumerate(res):
                        preds = [x[0] for x in r]
                        med = statistics.median(preds)
                        key = (timing, j)
                        if load == 0:
                            base[key] = med
                        row = (name, ranks, timing, load,
                               " ".join("%.3f" % p for p in preds),
                               "%.1f%%" % (100 * (max(preds) - min(preds))
                                           / med),
                               "%.2f" % max(x[1] for x in r),
                               "%d" % statistics.median(x[2] for x in r),
                               "%.1f s" % statistics.median(x[3] for x in r),
                               "%+.1f%%" % (100 * (med / base[key] - 1))
                               if key in base and load else "")
                        if len(builds) > 1:
                            row = (names[j],) + row
                        rows.append(row)
                        prefix = "%-12s " % names[j] if len(builds) > 1 \
                            else ""
                        print(prefix + "%-9s %6d %-9s load %d  ms: %s  spread %s  "
                              "busy max/mean %s  corrected %s  wall %s  %s"
                              % row[-10:], flush=True)
    finally:
        subprocess.run(["rm", "-rf", tmp])
    if args.markdown:
        head = ("| program | ranks | timing | busy loops | predictions (ms) "
                "| spread | busy max/mean (ranks > 0) | corrected SEBs | "
                "emulation | vs. no load |")
        cols = 10
        if len(builds) > 1:
            head = "| build " + head
            cols += 1
        print("\n" + head)
        print("|---" * cols + "|")
        for r in rows:
            print("| " + " | ".join(str(x) for x in r) + " |")


if __name__ == "__main__":
    main()
