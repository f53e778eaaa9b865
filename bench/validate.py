#!/usr/bin/env python3
"""Validation: the same programs run natively and predicted, side by side.

  bench/validate.py [--build DIR] [-o DIR] [--force] [--runs N]
                    [--emulations E] [--quick]
                    [--hostfile FILE] [--np P] [--cores-per-node C]
                    [--machine FILE] [--programs LIST]
                    [--mpirun-arg ARG]... [--tolerance PCT] [--json]
                    [--markdown]

Run from a build directory (or give --build); `make validate' runs it
there.  For each program of the set (--programs, default all):

  1. build it twice, with mpicc (native) and with sibylcc (emulated);
  2. run it natively with mpirun, one rank per core, --runs times (default
     10), the programs taking turns so that the machine's drift falls on
     all of them alike;
  3. emulate it --emulations times (default: --runs, at most 5), in rounds
     spread among the native runs, same arguments and ranks, measured
     compute (the default of `sibyl emulate');
  4. simulate every trace on the uncalibrated default machine and on the
     calibrated one (`sibyl calibrate', one round in each round of
     native runs, right after the curves', with 50 / --runs samples of
     each kind and size, at least 3; fitted at the end from the samples
     of all rounds; or
     --machine FILE); and on the calibrated
     one with the variability profile of the trace when this Sibyl has
     `sibyl trace profile' and `sibyl sim --variability' (otherwise that
     column says "n/a (not available)").  The prediction is the median
     over the emulations.

When the calibration's samples show two speed regimes of the host (see
`sibyl calibrate --regime'), each regime is fitted on its own, each native
measurement is labelled by the 1-byte references measured around it (by
the curve programs themselves, by a marker run around the others), and
compared with the prediction of its regime, from the emulations made in
that regime (all of them when none was).

What is compared: the wall time of the program's timed region on rank 0
(MPI_Wtime natively) against the simulated time between the same two
points (the program marks them with sibyl_print under sibylcc: "timed:
begin" and "timed: end", found in the simulation's prints.txt).  For the
point-to-point curves, the time of one iteration of each message size.
The native figure is the median of the runs, with their minimum and
maximum; the error is (predicted - median) / median.

Programs:
  pingpong   bench/validate/p2p.c pingpong: osu_latency-style round trips
             from 1 B to 16 MiB (2 ranks; across two nodes with
             --hostfile)
  bw         bench/validate/p2p.c bw: osu_bw-style windows of 64
             non-blocking sends, 1 B to 4 MiB (2 ranks, as pingpong)
  stencil3d  examples/stencil3d.c: 3D Jacobi, 128^3 doubles per rank
  kneighbor  examples/kneighbor.c -a: halo exchange of 64 KiB with an
             allreduce per iteration, 500 us of (declared) compute
  cg         examples/cg.c: CG on a 16^4 lattice per rank
  md         examples/md.c: 64 patches of 32 atoms per rank, PME every 4
             steps
Each of the last four runs about a second natively at 2 ranks on a 2-core
machine, on every core (--np, default: the cores of this machine, or the
slots of the hostfile).

Output: the table on standard output (--markdown: as Markdown; --json:
the JSON instead), progress on standard error, and in the output
directory (-o, default `validation'): validation.txt, validation.md,
validation.json, the calibration, the traces and the simulations.  On a
cluster: --hostfile FILE goes to mpirun, `sibyl emulate' and `sibyl
calibrate --hostfile'.

Exit status: 0 when everything ran (whatever the errors of the
predictions); 1 when a step failed; 2 on a usage error.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_base_warn_component_unused="0")

NA = "n/a (not available)"

# name: (source, kind, full arguments, --quick arguments).  kind "curve":
# one "time: MODE size=N iters=I iter_us=T" line per size; "region": one
# "time: ... total_s=S" line.
PROGRAMS = [
    ("pingpong", "bench/validate/p2p.c", "curve", ["pingpong"],
     ["pingpong", "-l", "1,64,4096,65536,1048576,16777216"]),
    ("bw", "bench/validate/p2p.c", "curve", ["bw"],
     ["bw", "-l", "1,4096,65536,4194304"]),
    ("stencil3d", "examples/stencil3d.c", "region",
     ["-n", "128", "-i", "300"], ["-n", "64", "-i", "200"]),
    ("kneighbor", "examples/kneighbor.c", "region",
     ["-a", "65536", "1500", "4", "500"], ["-a", "65536", "200", "4", "500"]),
    ("cg", "examples/cg.c", "region",
     ["-l", "16x16x16x16", "-i", "250"], ["-l", "16x16x16x16", "-i", "30"]),
    ("md", "examples/md.c", "region",
     ["-p", "64", "-a", "32", "-s", "200"], ["-p", "64", "-a", "32", "-s",
                                             "24"]),
]
PROGRAM_NAMES = [p[0] for p in PROGRAMS]


class Failure(Exception):
    """A step failed: the message says which and why."""


def say(msg):
    sys.stderr.write("validate: %s\n" % msg)
    sys.stderr.flush()


def run(cmd, what, env=None, timeout=3600):
    """Run cmd; its standard output, or Failure with its messages."""
    try:
        p = subprocess.run(cmd, env=env or ENV, capture_output=True,
                           text=True, timeout=timeout)
    except FileNotFoundError:
        raise Failure("%s: cannot run %s: not found" % (what, cmd[0]))
    except subprocess.TimeoutExpired:
        raise Failure("%s: no answer after %d s: %s" %
                      (what, timeout, " ".join(cmd)))
    if p.returncode != 0:
        tail = (p.stdout[-1500:] + p.stderr[-1500:]).rstrip()
        raise Failure("%s failed (exit status %d): %s\n%s" %
                      (what, p.returncode, " ".join(cmd), tail))
    return p.stdout


# ------------------------------------------------------------- parsing

TIME_CURVE = re.compile(r"^time: (\S+) size=(\d+) iters=(\d+) "
                        r"iter_us=([0-9.eE+-]+)")
TIME_REF = re.compile(r"^time: \S+ size=(\d+) .*\bref_us=([0-9.eE+-]+),"
                      r"([0-9.eE+-]+)")
TIME_TOTAL = re.compile(r"^time: .*\btotal_s=([0-9.eE+-]+)")
PRINT_LINE = re.compile(r"^(\d+) ps  PE (\d+)  timed: (begin|end)(?: (.*))?$")


def parse_native(kind, text):
    """The measured figures of one run's standard output: for a curve,
    {size: microseconds per iteration}; for a region, {"": seconds}."""
    out = {}
    for line in text.splitlines():
        if kind == "curve":
            m = TIME_CURVE.match(line)
            if m:
                out[int(m.group(2))] = float(m.group(4))
        else:
            m = TIME_TOTAL.match(line)
            if m:
                out[""] = float(m.group(1))
    if not out:
        raise ValueError("no 'time:' line in the program's output")
    return out


def parse_refs(text):
    """{size: (before, after)}: the 1-byte one-way times (us) a curve
    program measured around each size, the host's regime then."""
    return {int(m.group(1)): (float(m.group(2)), float(m.group(3)))
            for m in map(TIME_REF.match, text.splitlines()) if m}


def regime_of(refs, bound):
    """"fast" or "slow" when both references (us) are on one side of
    bound (us), "mixed" when the regime changed between them, None when
    there are no regimes to tell."""
    if bound is None or not refs:
        return None
    side = set("fast" if r <= bound else "slow" for r in refs)
    return side.pop() if len(side) == 1 else "mixed"


def parse_iters(text):
    """{size: iterations} of a curve program's output."""
    return {int(m.group(2)): int(m.group(3))
            for m in map(TIME_CURVE.match, text.splitlines()) if m}


def parse_prints(text, pe=0):
    """{label: (begin_ps, end_ps)} of the timed regions of PE pe in a
    prints.txt; the label is what follows "timed: begin" ("" for none)."""
    begins, regions = {}, {}
    for line in text.splitlines():
        m = PRINT_LINE.match(line)
        if not m or int(m.group(2)) != pe:
            continue
        label = (m.group(4) or "").strip()
        if m.group(3) == "begin":
            begins[label] = int(m.group(1))
        elif label in begins:
            regions[label] = (begins.pop(label), int(m.group(1)))
    return regions


def predicted(kind, prints_text, iters):
    """The predicted figures of a simulation, keyed as parse_native's:
    microseconds per iteration of each size, or the region's seconds."""
    out = {}
    for label, (b, e) in parse_prints(prints_text).items():
        if kind == "curve":
            size = int(label.split()[-1])
            out[size] = (e - b) / 1e6 / iters[size]
        else:
            out[label] = (e - b) / 1e12
    if not out:
        raise ValueError("no 'timed: begin' and 'timed: end' prints of "
                         "rank 0 in the simulation")
    return out


def summary(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "runs": list(values)}


def error(pred, median):
    return None if pred is None or not median else (pred - median) / median


def points_of(kind, runs, preds, labels=None):
    """Rows of one program: native runs (a list of parse_native results)
    and predictions ({regime: {model: predicted result or None}}, regime
    None when the calibration found one).  labels: per run, {key: the
    regime of that measurement} (regime_of); with them, a row per key and
    regime that has runs, compared with that regime's predictions; the
    runs whose regime changed during the measurement ("mixed") are
    counted, not compared."""
    rows = []
    for key in sorted(runs[0]):
        groups = [None]
        if labels is not None and set(preds) != {None}:
            groups = [g for g in ("fast", "slow")
                      if any(lab.get(key) == g for lab in labels)]
        mixed = 0 if labels is None else \
            sum(1 for lab in labels if lab.get(key) == "mixed")
        if not groups:      # every run of this key changed regime
            rows.append({"size": key if kind == "curve" else None,
                         "regime": "mixed", "runs_total": len(runs),
                         "runs_mixed": mixed,
                         "native": summary([r[key] for r in runs
                                            if key in r]),
                         "predicted": {m: None for m in MODELS},
                         "error": {m: None for m in MODELS}})
        for g in groups:
            vals = [r[key] for i, r in enumerate(runs) if key in r and
                    (g is None or labels[i].get(key) == g)]
            nat = summary(vals)
            row = {"size": key if kind == "curve" else None,
                   "regime": g, "runs_total": len(runs),
                   "runs_mixed": mixed, "native": nat,
                   "predicted": {}, "error": {}}
            for model, pr in preds[g].items():
                v = pr.get(key) if pr is not None else None
                row["predicted"][model] = v
                row["error"][model] = error(v, nat["median"])
            rows.append(row)
    return rows


# ------------------------------------------------------------- tables

MODELS = ("default", "calibrated", "variability")
MODEL_TITLES = ("uncalibrated default", "calibrated",
                "calibrated + variability")


def fmt_size(n):
    for unit, k in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return "%d %s" % (n // k, unit)
    return "%d B" % n


def fmt_val(v, unit):
    if v is None:
        return NA
    if unit == "s":
        return "%.3f s" % v
    return "%.3f us" % v if v < 1000 else "%.1f us" % v


def fmt_err(e):
    return "" if e is None else "%+.1f%%" % (100 * e)


def table_rows(results):
    """(program, point, native median, min-max, [prediction, error] per
    model) as strings, one per point."""
    rows = []
    for p in results["programs"]:
        unit = "us" if p["kind"] == "curve" else "s"
        for pt in p["points"]:
            nat = pt["native"]
            cells = [p["name"],
                     fmt_size(pt["size"]) if pt["size"] is not None else
                     "run", "%s (%d)" % (pt.get("regime") or "all",
                                         len(nat["runs"])),
                     fmt_val(nat["median"], unit),
                     "%s - %s" % (fmt_val(nat["min"], unit),
                                  fmt_val(nat["max"], unit))]
            for m in MODELS:
                v = pt["predicted"].get(m)
                cells.append(fmt_val(v, unit))
                cells.append(fmt_err(pt["error"].get(m)))
            rows.append(cells)
    return rows


HEAD = ["program", "size", "regime (runs)", "native median",
        "native min - max",
        "default", "error", "calibrated", "error",
        "calibrated + variability", "error"]


def text_table(results):
    rows = [HEAD] + table_rows(results)
    w = [max(len(r[i]) for r in rows) for i in range(len(HEAD))]
    lines = ["  ".join(c.rjust(w[i]) if i > 2 else c.ljust(w[i])
                       for i, c in enumerate(r)).rstrip() for r in rows]
    return "\n".join([lines[0], "-" * len(lines[0])] + lines[1:]) + "\n" + \
        worst_lines(results)


def markdown_table(results):
    out = ["| " + " | ".join(HEAD) + " |",
           "|" + "---|" * 3 + "---:|" * (len(HEAD) - 3)]
    for r in table_rows(results):
        out.append("| " + " | ".join(r) + " |")
    return "\n".join(out) + "\n\n" + worst_lines(results)


def worst_lines(results):
    """Per program and model, the largest error in magnitude, and how many
    points are within the tolerance."""
    tol = results["tolerance"]
    out = []
    for p in results["programs"]:
        parts = []
        for m, title in zip(MODELS, MODEL_TITLES):
            errs = [pt["error"][m] for pt in p["points"]
                    if pt["error"].get(m) is not None]
            if not errs:
                continue
            worst = max(errs, key=abs)
            ok = sum(1 for e in errs if abs(e) <= tol)
            parts.append("%s %s worst, %d/%d within %g%%" %
                         (title, fmt_err(worst), ok, len(errs), 100 * tol))
        regs = [pt.get("regime") for pt in p["points"]]
        if any(regs):
            parts.append("rows in the fast regime %d, in the slow %d" %
                         (regs.count("fast"), regs.count("slow")))
        mixed = sum(dict((pt["size"], pt.get("runs_mixed", 0))
                         for pt in p["points"]).values())
        if mixed:
            parts.append("%d measurement%s across a change of regime, "
                         "not compared" % (mixed, "" if mixed == 1 else
                                           "s"))
        load = p.get("load_before_runs")
        if load:
            parts.append("load average before the native runs %.1f to "
                         "%.1f" % (min(load), max(load)))
        out.append("%s: %s" % (p["name"], "; ".join(parts) or "no figure"))
    return "\n".join(out) + "\n"


# ------------------------------------------------------------- the steps

def find_build(path):
    sibyl = os.path.join(path, "sibyl")
    sibylcc = os.path.join(path, "emulator", "sibylcc")
    for f in (sibyl, sibylcc):
        if not os.access(f, os.X_OK):
            raise Failure("%s is not there: run from a build directory "
                          "of Sibyl (after make) or give --build DIR" % f)
    return sibyl, sibylcc


def hostfile_slots(path):
    """The slots of each host of an Open MPI hostfile (1 when not said)."""
    slots = []
    try:
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].split()
                if not line:
                    continue
                n = 1
                for w in line[1:]:
                    if w.startswith("slots="):
                        n = int(w[6:])
                slots.append(n)
    except (OSError, ValueError) as e:
        raise Failure("cannot read the hostfile %s: %s" % (path, e))
    if not slots:
        raise Failure("the hostfile %s names no host" % path)
    return slots


def variability_available(sibyl):
    """Whether `sibyl trace profile' and `sibyl sim --variability' exist."""
    p = subprocess.run([sibyl, "trace", "profile", "--help"], env=ENV,
                       capture_output=True, text=True)
    if p.returncode != 0 or "Usage" not in p.stdout:
        return False
    p = subprocess.run([sibyl, "sim", "--help"], env=ENV,
                       capture_output=True, text=True)
    return "--variability" in p.stdout


def build_programs(a, progs):
    bindir = os.path.join(a.out, "bin")
    os.makedirs(bindir, exist_ok=True)
    env = dict(ENV, SIBYLCC_INCDIR=os.path.join(SRC, "emulator", "include"),
               SIBYLCC_LIBDIR=a.build)
    built = {}
    for name, src, *_ in progs:
        path = os.path.join(SRC, src)
        base = os.path.splitext(os.path.basename(src))[0]
        if base not in built:
            exe = os.path.join(bindir, base)
            run([a.sibylcc, "-O2", path, "-o", exe, "-lm"],
                "building %s with sibylcc" % src, env=env)
            run([a.mpicc, "-O2", path, "-o", exe + ".native", "-lm"],
                "building %s with mpicc" % src)
            built[base] = exe
        a.exe[name] = built[base]
    if "p2p" not in built:          # the regime markers
        exe = os.path.join(bindir, "p2p")
        run([a.mpicc, "-O2", os.path.join(SRC, "bench/validate/p2p.c"),
             "-o", exe + ".native"], "building bench/validate/p2p.c")
        built["p2p"] = exe
    a.marker_exe = built["p2p"] + ".native"


def placement(a, name):
    """(ranks, mpirun options, cores per node for the simulations)."""
    opts = list(a.mpirun_args)
    if a.hostfile:
        opts = ["--hostfile", a.hostfile] + opts
    if name in ("pingpong", "bw"):
        if a.hostfile:      # two ranks on two nodes: across the network
            return 2, opts + ["--map-by", "ppr:1:node"], 1
        return 2, opts, a.cores_per_node
    return a.np, opts, a.cores_per_node


def calibration_reps(a):
    """Samples of each kind and size in one calibration round: about 50 in
    all, spread over the rounds.  A shared host's memory moves between
    speeds for tens of seconds at a time (on a 2-core VM, a window of
    1 MiB messages took 43, 63 or 125 us a message, by the minute, in
    native runs and the probe's alike, one right after the other): a
    round's samples see one of them, its native runs another, so the
    medians agree only when many rounds sample the machine's states,
    both sides alike, not a few long calibrations."""
    return max(3, -(-50 // a.runs))


def calibrate_round(a, r):
    """Round r of the calibration: a probe run of its own."""
    out = os.path.join(a.out, "calibration", "round-%d" % (r + 1))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [a.sibyl, "calibrate", "-o", out, "--force", "--no-plots", "-q"]
    if a.quick:
        cmd.append("--quick")
    else:
        cmd += ["--reps", str(calibration_reps(a))]
    if a.hostfile:
        cmd += ["--hostfile", a.hostfile]
    if a.mpirun_args:
        cmd += ["--"] + a.mpirun_args
    t0 = time.monotonic()
    run(cmd, "sibyl calibrate")
    say("calibration round %d/%d in %.0f s" % (r + 1, a.runs,
                                               time.monotonic() - t0))
    return os.path.join(out, "samples.csv")


def calibrate_fit(a, samples):
    """One fit of the samples of every round (sibyl calibrate
    --samples): the model sees the machine at the same moments as the
    native runs, whose medians it is compared with.  When the samples
    show two speed regimes (sibyl calibrate's 1-byte references), one fit
    of each: ({regime or None: machine.conf}, the regimes' boundary in
    us or None)."""
    out = os.path.join(a.out, "calibration")
    merged = os.path.join(out, "samples-all.csv")
    with open(merged, "w") as m:
        for path in samples:
            with open(path) as f:
                m.write(f.read())
    run([a.sibyl, "calibrate", "--samples", merged, "-o",
         os.path.join(out, "fit"), "--force", "--no-plots", "-q"],
        "sibyl calibrate --samples")
    say("calibrated from %d rounds: %s/fit/machine.conf" %
        (len(samples), out))
    machines = {None: os.path.join(out, "fit", "machine.conf")}
    try:
        with open(os.path.join(out, "fit", "report.json")) as f:
            pair = json.load(f)["pairs"]["inter" if a.hostfile else "intra"]
    except (OSError, ValueError, KeyError) as e:
        raise Failure("the calibration's report.json: %s" % e)
    if pair.get("regimes") != 2:
        return machines, None
    machines = {}
    for g in ("fast", "slow"):
        run([a.sibyl, "calibrate", "--samples", merged, "-o",
             os.path.join(out, "fit-" + g), "--force", "--no-plots", "-q",
             "--regime", g], "sibyl calibrate --samples --regime " + g)
        machines[g] = os.path.join(out, "fit-" + g, "machine.conf")
    bound = pair["regime_bound_s"] * 1e6
    say("the samples show two speed regimes (1-byte one-way %.3f and "
        "%.3f us, apart at %.3f us): fitted each, %s/fit-fast and "
        "fit-slow" % (pair["regime_ref_s"][0] * 1e6,
                      pair["regime_ref_s"][1] * 1e6, bound, out))
    return machines, bound


def marker(a):
    """The host's regime now: the 1-byte one-way time (us) of the
    markers' ping-pong, placed as the curves."""
    np, opts, _ = placement(a, "pingpong")
    out = run(["mpirun", "-np", "2"] + opts +
              [a.marker_exe, "pingpong", "-l", "1", "-i", "64"],
              "the regime marker")
    refs = parse_refs(out).get(1)
    if not refs:
        raise Failure("the regime marker printed no reference")
    return refs[1]


def emulation_rounds(a):
    """The rounds after which the programs are emulated: --emulations of
    the --runs rounds, spread evenly."""
    n = min(a.emulations, a.runs)
    return sorted(set(r * a.runs // n for r in range(n)))


def native_runs(a, progs):
    """{name: [parse_native result per run]}, {name: [the load average
    of the last minute before each run]}, {name: [per run, {key: the
    1-byte references (us) around it}]}, and the samples of the
    calibration rounds, one in each round of native runs (none with
    --machine), right after the curves (whose large messages move with
    the host's memory speed from one half minute to the next), or after
    the round's runs when there are no curves: the machine of a shared
    host drifts by tens of percent within minutes, and a calibration
    taken at one moment would be compared with runs taken at others.
    The curves measure their
    references around each size; a marker run before and after each of
    the other programs measures theirs.  The programs are emulated in
    some rounds (emulation_rounds), each emulation between two markers:
    {name: [(trace, iterations, references)]} is the last result."""
    runs = {name: [] for name, *_ in progs}
    loads = {name: [] for name, *_ in progs}
    refs = {name: [] for name, *_ in progs}
    samples = []
    emus = {name: [] for name, *_ in progs}
    last = None
    curves = [name for name, src, kind, *_ in progs if kind == "curve"]
    after_of = curves[-1] if curves else progs[-1][0]
    for r in range(a.runs):
        for name, src, kind, *_ in progs:
            np, opts, _ = placement(a, name)
            cmd = ["mpirun", "-np", str(np)] + opts + \
                [a.exe[name] + ".native"] + a.args[name]
            if kind != "curve" and last is None:
                last = marker(a)
            loads[name].append(os.getloadavg()[0])
            t0 = time.monotonic()
            out = run(cmd, "the native run of %s" % name)
            try:
                runs[name].append(parse_native(kind, out))
            except ValueError as e:
                raise Failure("the native run of %s: %s" % (name, e))
            if kind == "curve":
                refs[name].append(parse_refs(out))
                last = None
            else:
                after = marker(a)
                refs[name].append({"": (last, after)})
                last = after
            say("native %s, run %d/%d: %.1f s" %
                (name, r + 1, a.runs, time.monotonic() - t0))
            if name == after_of and not a.machine:
                samples.append(calibrate_round(a, r))
                last = None
        if r in emulation_rounds(a):
            for name, src, kind, *_ in progs:
                if last is None:
                    last = marker(a)
                trace, iters = emulate(a, name, kind, len(emus[name]))
                after = marker(a)
                emus[name].append((trace, iters, (last, after)))
                last = after
    return runs, loads, refs, samples, emus


def emulate(a, name, kind, i):
    """Emulation i of a program: (trace, {size: iterations} or None)."""
    np, opts, _ = placement(a, name)
    trace = os.path.join(a.out, "traces", "%s-%d.trace" % (name, i + 1))
    os.makedirs(os.path.dirname(trace), exist_ok=True)
    t0 = time.monotonic()
    out = run([a.sibyl, "emulate", "-q", "-np", str(np), "--ranks", str(np),
               "-o", trace, "--force"] + opts + ["--", a.exe[name]] +
              a.args[name], "the emulation of %s" % name)
    say("emulated %s (%d/%d) in %.1f s" % (name, i + 1, a.emulations,
                                           time.monotonic() - t0))
    return trace, parse_iters(out) if kind == "curve" else None


def simulate_all(a, name, kind, i, trace, iters, machines):
    """{regime: {model: prediction}} of emulation i on every machine of
    machines ({regime or None: machine.conf})."""
    cpn = placement(a, name)[2]
    prof = None
    if a.variability:
        prof = trace[:-len(".trace")] + ".profile"
        run([a.sibyl, "trace", "profile", trace, "-o", prof],
            "sibyl trace profile of %s" % name)

    def simulate(tag, what, extra):
        sim = os.path.join(a.out, "sims", "%s-%d-%s.sim" % (name, i + 1, tag))
        os.makedirs(os.path.dirname(sim), exist_ok=True)
        run([a.sibyl, "sim", "-q", trace, "-o", sim, "--force"] + extra +
            ["--set", "machine.cores_per_node=%d" % cpn],
            "the simulation of %s on the %s machine" % (name, what))
        with open(os.path.join(sim, "prints.txt")) as f:
            try:
                return predicted(kind, f.read(), iters)
            except (ValueError, KeyError) as e:
                raise Failure("the simulation of %s: %s" % (name, e))

    default = simulate("default", "default", [])
    preds = {}
    for g, machine in machines.items():
        sfx = "-" + g if g else ""
        preds[g] = {"default": default,
                    "calibrated": simulate("calibrated" + sfx,
                                           "calibrated" + sfx,
                                           ["-c", machine]),
                    "variability": simulate(
                        "variability" + sfx, "calibrated" + sfx +
                        " + variability", ["-c", machine,
                                           "--variability", prof])
                    if prof else None}
    return preds


def combine(each, labels):
    """The predictions of several emulations ([{regime: {model:
    {key: value} or None}}]) as one: per regime, the median over the
    emulations made in that regime (labels, regime_of per emulation), or
    over all of them when none was."""
    out = {}
    for g in each[0]:
        use = [e for e, lab in zip(each, labels) if g and lab == g] or each
        out[g] = {}
        for model in each[0][g]:
            got = [e[g][model] for e in use if e[g][model] is not None]
            out[g][model] = None if not got else {
                k: statistics.median(p[k] for p in got if k in p)
                for k in got[0]}
    return out


def command_line(a, name):
    np, opts, _ = placement(a, name)
    src = dict((p[0], p[1]) for p in PROGRAMS)[name]
    return "mpirun -np %d %s%s %s" % (
        np, " ".join(opts) + " " if opts else "",
        os.path.splitext(os.path.basename(src))[0], " ".join(a.args[name]))


def validate(a):
    progs = [p for p in PROGRAMS if p[0] in a.programs]
    a.exe, a.args = {}, {p[0]: (p[4] if a.quick else p[3]) for p in progs}
    say("building %d programs with mpicc and sibylcc" % len(progs))
    build_programs(a, progs)
    a.variability = variability_available(a.sibyl)
    if not a.variability:
        say("no 'sibyl trace profile' in this Sibyl: the variability "
            "column is %s" % NA)
    if a.machine and not os.path.isfile(a.machine):
        raise Failure("--machine %s: no such file" % a.machine)
    runs, loads, refs, samples, emus = native_runs(a, progs)
    if a.machine:
        machines, bound = {None: os.path.abspath(a.machine)}, None
    else:
        machines, bound = calibrate_fit(a, samples)
    results = {
        "sibyl_validation": 1,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "host": os.uname().nodename, "command": " ".join(sys.argv),
        "runs": a.runs, "np": a.np, "cores_per_node": a.cores_per_node,
        "hostfile": a.hostfile, "quick": a.quick,
        "machine": machines.get(None) or machines, "regime_bound_us": bound,
        "variability": a.variability, "tolerance": a.tolerance,
        "programs": [],
    }
    for name, src, kind, *_ in progs:
        each = [simulate_all(a, name, kind, i, trace, iters, machines)
                for i, (trace, iters, _) in enumerate(emus[name])]
        emu_labels = [regime_of(e[2], bound) for e in emus[name]]
        preds = combine(each, emu_labels)
        labels = None
        if bound is not None:
            labels = [{k: regime_of(v, bound) for k, v in rr.items()}
                      for rr in refs[name]]
        results["programs"].append({
            "name": name, "source": src, "kind": kind,
            "unit": "us per iteration" if kind == "curve" else "s",
            "command": command_line(a, name),
            "load_before_runs": loads[name],
            "references_us": [{str(k): v for k, v in rr.items()}
                              for rr in refs[name]],
            "emulations": [{"trace": e[0], "references_us": e[2],
                            "regime": lab, "predicted": {
                                str(g): {m: None if v is None else
                                         {str(k): x for k, x in v.items()}
                                         for m, v in pm.items()}
                                for g, pm in pr.items()}}
                           for e, lab, pr in zip(emus[name], emu_labels,
                                                 each)],
            "points": points_of(kind, runs[name], preds, labels)})
    return results


def write_outputs(a, results):
    text = text_table(results)
    md = markdown_table(results)
    for fname, body in (("validation.txt", text), ("validation.md", md),
                        ("validation.json",
                         json.dumps(results, indent=1) + "\n")):
        with open(os.path.join(a.out, fname), "w") as f:
            f.write(body)
    if a.json:
        sys.stdout.write(json.dumps(results, indent=1) + "\n")
    else:
        sys.stdout.write(md if a.markdown else text)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="validate.py", usage=__doc__.split("\n\n")[1].strip("\n"),
        description="Run programs natively and predict them with Sibyl "
        "(calibrated and not), side by side.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[2:]))
    ap.add_argument("--build", default=".",
                    help="the build directory (default: this one)")
    ap.add_argument("-o", "--out", default="validation",
                    help="the output directory (default: validation)")
    ap.add_argument("-f", "--force", action="store_true",
                    help="reuse the output directory if it exists")
    ap.add_argument("--runs", type=int, default=None,
                    help="native runs of every program, and rounds of "
                    "the calibration (default 10; 3 with --quick)")
    ap.add_argument("--emulations", type=int, default=None,
                    help="emulations of every program, spread over the "
                    "rounds of native runs; the prediction is their "
                    "median, per regime (default: as many as --runs, at "
                    "most 5)")
    ap.add_argument("--quick", action="store_true",
                    help="a short run: fewer sizes, short programs, "
                    "sibyl calibrate --quick, 3 runs (a minute or two)")
    ap.add_argument("--hostfile",
                    help="run on these hosts: passed to mpirun, sibyl "
                    "emulate and sibyl calibrate --hostfile")
    ap.add_argument("--np", type=int,
                    help="ranks of the proxies (default: one per core of "
                    "this machine, or the slots of the hostfile)")
    ap.add_argument("--cores-per-node", type=int,
                    help="cores of a node, for the simulations (default: "
                    "this machine's, or the first host's slots)")
    ap.add_argument("--machine",
                    help="a calibrated machine.conf to use instead of "
                    "calibrating")
    ap.add_argument("--programs", default=",".join(PROGRAM_NAMES),
                    help="the programs to run, of %s (default all)" %
                    ",".join(PROGRAM_NAMES))
    ap.add_argument("--mpirun-arg", action="append", default=[],
                    dest="mpirun_args", metavar="ARG",
                    help="one more argument for mpirun (native runs, "
                    "emulations, the calibration); repeatable, e.g. "
                    "--mpirun-arg=--mca --mpirun-arg=btl=self,vader")
    ap.add_argument("--tolerance", type=float, default=10,
                    help="the error, in percent, the summary counts "
                    "points within (default 10)")
    ap.add_argument("--json", action="store_true",
                    help="print the results as JSON instead of the table")
    ap.add_argument("--markdown", action="store_true",
                    help="print the table as Markdown")
    a = ap.parse_args(argv)
    a.programs = [p.strip() for p in a.programs.split(",") if p.strip()]
    for p in a.programs:
        if p not in PROGRAM_NAMES:
            ap.error("--programs: unknown program '%s' (known: %s)" %
                     (p, ", ".join(PROGRAM_NAMES)))
    if a.runs is None:
        a.runs = 3 if a.quick else 10
    if a.runs < 1:
        ap.error("--runs: at least 1")
    if a.emulations is None:
        a.emulations = min(a.runs, 5)
    if a.emulations < 1:
        ap.error("--emulations: at least 1")
    for opt in ("np", "cores_per_node"):
        v = getattr(a, opt)
        if v is not None and v < 1:
            ap.error("--%s: at least 1" % opt.replace("_", "-"))
    if not 0 < a.tolerance < 1000:
        ap.error("--tolerance: a percentage above 0")
    a.tolerance /= 100
    return a


def main(argv):
    a = parse_args(argv)
    try:
        a.build = os.path.abspath(a.build)
        a.sibyl, a.sibylcc = find_build(a.build)
        a.mpicc = shutil.which("mpicc")
        if not a.mpicc or not shutil.which("mpirun"):
            raise Failure("mpicc and mpirun are needed (Debian: apt-get "
                          "install openmpi-bin libopenmpi-dev)")
        if a.hostfile:
            slots = hostfile_slots(a.hostfile)
            a.hostfile = os.path.abspath(a.hostfile)
            a.np = a.np or sum(slots)
            a.cores_per_node = a.cores_per_node or slots[0]
        else:
            a.np = a.np or os.cpu_count() or 1
            a.cores_per_node = a.cores_per_node or os.cpu_count() or 1
        if a.np < 2:
            raise Failure("the programs need 2 ranks or more (--np)")
        if os.path.exists(a.out) and os.listdir(a.out) and not a.force:
            raise Failure("%s exists: give --force to reuse it, or -o "
                          "another directory" % a.out)
        os.makedirs(a.out, exist_ok=True)
        t0 = time.monotonic()
        results = validate(a)
        write_outputs(a, results)
        say("done in %.0f s; the tables are in %s/validation.txt, .md and "
            ".json" % (time.monotonic() - t0, a.out))
    except Failure as e:
        sys.stderr.write("validate: %s\n" % e)
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("validate: interrupted\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
