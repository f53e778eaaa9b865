#!/usr/bin/env python3
"""The public application suite: real MPI programs, unmodified, built with
their own build systems, run natively and under Sibyl, side by side.

  bench/apps/apps.py --src DIR [--build DIR] [--work DIR] [--apps LIST]
                     [--ranks V] [--np P] [--scale V,V...] [--no-native]
                     [--npb-class C] [--timeout S] [--markdown]
                     [--json FILE]

DIR holds the programs' sources as their authors publish them (nothing of
them is in Sibyl's tree; the recipes below are build instructions):

  NPB 3.4 MPI   a directory with config/ and CG/ (NPB3.4-MPI of
                NPB3.4.x.tar.gz from www.nas.nasa.gov): cg mg ft ep lu bt sp
                (Fortran) and is (C); class S, but W for lu, bt and sp,
                whose class S grids cannot be split 64 ways
  LULESH        github.com/LLNL/LULESH (C++)
  hpcg          github.com/hpcg-benchmark/hpcg (C++)
  AMG           github.com/LLNL/AMG (C, its default flags: OpenMP,
                persistent communication)
  graph500      github.com/graph500/graph500, the MPI reference BFS (C)
  SNAP          github.com/lanl/SNAP (Fortran)

Each found program is copied twice under --work (default ./apps-work),
built once with Open MPI's mpicc/mpicxx/mpifort and once with Sibyl's
sibylcc/sibylcxx/sibylfort through its own Makefile, configure script or
make variables, and run at --ranks (default 64) ranks: natively with
`mpirun -np V' (oversubscribed, yielding when idle) and emulated with
`sibyl emulate --ranks V -np P' (default P = 2).  Every run has
OMP_NUM_THREADS=1: one core per rank, as the emulation models.  For each
program the suite reports

  - its own verification, native and emulated (NPB's "Verification =
    SUCCESSFUL", LULESH's symmetry, HPCG's "VALID", AMG's residual,
    Graph500's validated BFS, SNAP's "Success");
  - whether the outputs are equal but for timings (each recipe says which
    lines are timings);
  - the native wall time, the emulation's wall time and the peak RSS of
    the largest emulating process;
  - the prediction of `sibyl sim' on the default machine, and the SEBs
    of the trace per completed request (its messages' sends and receives;
    polls that complete nothing are merged, so this stays near 1);
  - with --scale, the emulation at larger rank counts (e.g. 4096): wall
    time and peak RSS, or why it stopped.  LULESH keeps its total number
    of elements (-s shrinks) over 20 iterations, AMG takes 5^3 points per
    rank beyond 512 ranks and Graph500 SCALE 16; NPB keeps its class, so
    its own decomposition limits the count (the program says so);
    --npb-class builds every NPB program in that class instead (e.g. EP
    class A splits 4,096 ways, class S only 256).

--no-native skips the native builds and runs.  The table goes to standard
output (--markdown: as Markdown); --json writes every figure.  Exit
status: 0 when every program built and verified in every run made, 1
otherwise, 2 for a usage error.  Timings are this machine's; the suite is
a benchmark, never part of `make check'.
"""
import argparse
import difflib
import glob
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")


class Failure(Exception):
    pass


def log(msg):
    print("apps: " + msg, file=sys.stderr, flush=True)


def call(cmd, cwd, env, out, timeout):
    """Run CMD in a session of its own, output to the file OUT; on
    timeout, stop the whole session (mpirun and the ranks' processes
    with it: SIGTERM, then SIGKILL) and raise TimeoutExpired."""
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        return p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
                p.wait(timeout=30)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
        raise


def sh(cmd, cwd, env, logfile, timeout):
    """Run CMD (a list) in CWD, output appended to LOGFILE; raise Failure
    with the log's tail when it fails."""
    with open(logfile, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        try:
            rc = call(cmd, cwd, env, f, timeout)
        except subprocess.TimeoutExpired:
            raise Failure("%s: timed out after %d s" % (cmd[0], timeout))
    if rc != 0:
        with open(logfile) as f:
            tail = f.read().splitlines()[-6:]
        raise Failure("%s exited %d: %s" % (" ".join(cmd[:3]), rc,
                                           " | ".join(tail)))


def timed(cmd, cwd, env, outfile, timeout):
    """Run CMD under /usr/bin/time; return (exit status, wall seconds,
    peak RSS in KiB of the largest process of the tree)."""
    tf = outfile + ".time"
    full = ["/usr/bin/time", "-o", tf, "-f", "%e %M"] + cmd
    t0 = time.monotonic()
    with open(outfile, "w") as f:
        try:
            rc = call(full, cwd, env, f, timeout)
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - t0, None
    wall, rss = time.monotonic() - t0, None
    try:
        with open(tf) as f:
            last = f.read().split("\n")
        fields = [ln for ln in last if re.match(r"^[0-9.]+ [0-9]+$", ln)]
        if fields:
            w, m = fields[-1].split()
            wall, rss = float(w), int(m)
    except OSError:
        pass
    return rc, wall, rss


def drop(patterns):
    """A normalizer dropping the lines that match any pattern."""
    rx = re.compile("|".join(patterns))
    return lambda text: [ln.rstrip() for ln in text.splitlines()
                         if ln.strip() and not rx.search(ln)]


def keep(patterns):
    """A normalizer keeping only the lines that match a pattern."""
    rx = re.compile("|".join(patterns))
    return lambda text: [ln.rstrip() for ln in text.splitlines()
                         if rx.search(ln)]


SIBYL_LINES = r"^sibyl[: ]"


# ------------------------------------------------------------ recipes

class App:
    """A program of the suite: where its sources are, how to build and run
    it, how it verifies, which lines are timings."""
    lang = "C"
    output_file = None      # read this file of the run directory too
    marker = None           # a file of the sources, relative to their top

    def find(self, src):
        """The directory under SRC holding the program's sources."""
        for d in sorted(glob.glob(os.path.join(src, "*"))):
            if os.path.exists(os.path.join(d, self.marker)):
                return d
        return None

    def ranks_ok(self, v):
        return v >= 1

    def inputs(self, rundir, v):
        """Write the run's input files."""

    def result_text(self, rundir, out):
        text = out
        if self.output_file:
            for p in sorted(glob.glob(os.path.join(rundir,
                                                   self.output_file))):
                with open(p, errors="replace") as f:
                    text += "\n" + f.read()
        return text


def is_pow2(v):
    return v > 0 and v & (v - 1) == 0


def is_square(v):
    r = int(math.isqrt(v))
    return r * r == v


def is_cube(v):
    r = round(v ** (1 / 3))
    return r ** 3 == v


def npb_root(src):
    for d in [src] + sorted(glob.glob(os.path.join(src, "*"))) + \
            sorted(glob.glob(os.path.join(src, "*", "*"))):
        if os.path.isdir(os.path.join(d, "config")) and \
                os.path.isdir(os.path.join(d, "CG")) and \
                os.path.isdir(os.path.join(d, "common")):
            return d
    return None


class NPB(App):
    def __init__(self, kernel, klass, lang="Fortran", check=is_pow2):
        self.name = kernel
        self.kernel = kernel
        self.klass = klass
        self.lang = lang
        self.check = check
        self.title = "NPB %s class %s" % (kernel.upper(), klass)

    def ranks_ok(self, v):
        return self.check(v)

    def find(self, src):
        return npb_root(src)

    def build(self, d, tools, logf, timeout):
        native = tools["native"]
        fflags = "-O2" + (" -fallow-argument-mismatch" if native else "")
        extra_f = extra_c = ""
        ks = os.path.join(d, "kernel_stats")
        if os.path.isdir(ks):
            # Some redistributions add timing hooks (kernel_stats/) that
            # their make.def links; build them with the same compiler.
            objs = []
            for c in sorted(glob.glob(os.path.join(ks, "*.c"))):
                sh(tools["cc"] + ["-O2", "-c", os.path.basename(c)], ks,
                   tools["env"], logf, timeout)
                objs.append("../kernel_stats/" +
                            os.path.basename(c)[:-2] + ".o")
            extra_f = " " + " ".join(objs)
            extra_c = " ../kernel_stats/kernel_stats.o" \
                if "../kernel_stats/kernel_stats.o" in objs else ""
        with open(os.path.join(d, "config", "make.def"), "w") as f:
            f.write("MPIFC = %s\nFLINK = $(MPIFC)\nFFLAGS = %s\n"
                    "FLINKFLAGS = $(FFLAGS)%s\nMPICC = %s\n"
                    "CLINK = $(MPICC)\nCFLAGS = -O2\n"
                    "CLINKFLAGS = $(CFLAGS)%s\nCC = gcc -g\n"
                    "BINDIR = ../bin\nCONVERTFLAG = -DFORTRAN_REC_SIZE=1\n"
                    "RAND = randdp\n"
                    % (" ".join(tools["fc"]), fflags, extra_f,
                       " ".join(tools["cc"]), extra_c))
        os.makedirs(os.path.join(d, "bin"), exist_ok=True)
        sh(["make", self.kernel, "CLASS=" + self.klass], d, tools["env"],
           logf, timeout)
        return os.path.join(d, "bin", "%s.%s.x" % (self.kernel, self.klass))

    def args(self, v):
        return []

    def verify(self, text):
        return bool(re.search(r"Verification\s*=\s*SUCCESSFUL", text))

    normalize = staticmethod(drop([
        r"(?i)\btime\b", r"Mop/s", r"Compile date", r"\[MO833\]",
        r"^\s*(MPIFC|FLINK|FMPI_LIB|FMPI_INC|FFLAGS|FLINKFLAGS|MPICC|"
        r"CLINK|CMPI_LIB|CMPI_INC|CFLAGS|CLINKFLAGS|CC|RAND)\s*=",
        SIBYL_LINES]))


class Lulesh(App):
    name = "lulesh"
    title = "LULESH 2.0"
    lang = "C++"

    def ranks_ok(self, v):
        return is_cube(v)

    marker = "lulesh.cc"

    def build(self, d, tools, logf, timeout):
        sh(["make", "MPICXX=%s -DUSE_MPI=1" % " ".join(tools["cxx"])], d,
           tools["env"], logf, timeout)
        return os.path.join(d, "lulesh2.0")

    def args(self, v):
        # Beyond 64 ranks: the same total number of elements, fewer
        # iterations (weak scaling would outgrow this machine).
        if v <= 64:
            return ["-s", "12", "-i", "100"]
        return ["-s", str(max(3, round(12 / (v / 64) ** (1 / 3)))),
                "-i", "20"]

    def verify(self, text):
        m = re.search(r"MaxRelDiff\s*=\s*([0-9.eE+-]+)", text)
        return bool(re.search(r"Run completed", text)) and m is not None \
            and float(m.group(1)) < 1e-8

    normalize = staticmethod(drop([r"Elapsed time", r"Grind time",
                                   r"FOM", SIBYL_LINES]))


class Hpcg(App):
    name = "hpcg"
    title = "HPCG 3.1"
    lang = "C++"
    output_file = "HPCG-Benchmark_*.txt"

    marker = "src/ComputeSPMV.cpp"

    def build(self, d, tools, logf, timeout):
        b = os.path.join(d, "build")
        os.makedirs(b, exist_ok=True)
        sh(["../configure", "Linux_MPI"], b, tools["env"], logf, timeout)
        sh(["make", "CXX=" + " ".join(tools["cxx"])], b, tools["env"],
           logf, timeout)
        return os.path.join(b, "bin", "xhpcg")

    def args(self, v):
        # HPCG's smallest local grid (16^3) and a 1-second run time.
        return ["16", "16", "16", "1"]

    def inputs(self, rundir, v):
        for p in glob.glob(os.path.join(rundir, "HPCG-Benchmark_*.txt")):
            os.unlink(p)

    def verify(self, text):
        return "HPCG result is VALID" in text

    @staticmethod
    def normalize(text):
        # The verdict without its rating (a time).
        return [re.sub(r" with a GFLOP/s rating of=.*", "", ln)
                for ln in keep([
                    r"::Result=", r"Total number of reference iterations",
                    r"Total number of optimized iterations",
                    r"Scaled residual mean", r"HPCG result is (VALID|INVALID)",
                    r"Distributed Processes=",
                    r"Global Problem Dimensions"])(text)]


class Amg(App):
    name = "amg"
    title = "AMG"

    marker = "test/amg.c"

    def ranks_ok(self, v):
        return is_cube(v)

    def build(self, d, tools, logf, timeout):
        sh(["make", "CC=" + " ".join(tools["cc"])], d, tools["env"], logf,
           timeout)
        return os.path.join(d, "test", "amg")

    def args(self, v):
        p = str(round(v ** (1 / 3)))
        n = "10" if v <= 512 else "5"
        return ["-problem", "1", "-n", n, n, n, "-P", p, p, p]

    def verify(self, text):
        m = re.search(r"Final Relative Residual Norm = ([0-9.eE+-]+)", text)
        return m is not None and float(m.group(1)) < 1e-6

    normalize = staticmethod(keep([r"^Iterations = ",
                                   r"Final Relative Residual Norm"]))


class Graph500(App):
    name = "graph500"
    title = "Graph500 reference BFS"

    marker = "src/bfs_reference.c"

    def ranks_ok(self, v):
        return is_pow2(v)

    def build(self, d, tools, logf, timeout):
        # Tentative definitions in several files: -fcommon, natively too
        # (GCC 10 and later default to -fno-common).
        s = os.path.join(d, "src")
        sh(["make", "MPICC=%s -fcommon" % " ".join(tools["cc"]),
            "graph500_reference_bfs"], s, tools["env"], logf, timeout)
        return os.path.join(s, "graph500_reference_bfs")

    def args(self, v):
        return ["14" if v <= 512 else "16", "16"]

    def verify(self, text):
        return "harmonic_mean_TEPS" in text and \
            not re.search(r"(?i)validation.*fail|error", text)

    normalize = staticmethod(keep([r"^SCALE:", r"^edgefactor:",
                                   r"^num_mpi_processes:", r"_nedge:"]))


class Snap(App):
    name = "snap"
    title = "SNAP"
    lang = "Fortran"
    output_file = "snap.out"

    marker = "src/snap_main.f90"

    def ranks_ok(self, v):
        return is_pow2(v)

    def build(self, d, tools, logf, timeout):
        s = os.path.join(d, "src")
        sh(["make", "FORTRAN=" + " ".join(tools["fc"]), "OPENMP=no"] +
           (["FFLAGS=-O3 -fallow-argument-mismatch"] if tools["native"]
            else []), s, tools["env"], logf, timeout)
        return os.path.join(s, "gsnap")

    @staticmethod
    def grid(v):
        e = int(math.log2(v))
        return 2 ** (e - e // 2), 2 ** (e // 2)

    def inputs(self, rundir, v):
        y, z = self.grid(v)
        with open(os.path.join(rundir, "snap.in"), "w") as f:
            f.write("&invar\n  npey=%d\n  npez=%d\n  ichunk=4\n"
                    "  nthreads=1\n  nnested=1\n  ndimen=3\n  nx=8\n"
                    "  lx=0.8\n  ny=%d\n  ly=%g\n  nz=%d\n  lz=%g\n"
                    "  nmom=1\n  nang=10\n  ng=4\n  epsi=1.0E-4\n"
                    "  iitm=5\n  oitm=30\n  timedep=0\n  tf=1.0\n"
                    "  nsteps=1\n  mat_opt=0\n  src_opt=0\n  scatp=0\n"
                    "  it_det=0\n  fluxp=0\n  fixup=1\n  soloutp=1\n"
                    "  kplane=0\n  popout=0\n  swp_typ=0\n  angcpy=1\n"
                    "  multiswp=1\n/\n" % (y, z, 2 * y, 0.2 * y, 2 * z,
                                            0.2 * z))
        if os.path.exists(os.path.join(rundir, "snap.out")):
            os.unlink(os.path.join(rundir, "snap.out"))

    def args(self, v):
        return ["snap.in", "snap.out"]

    def verify(self, text):
        return "Success! Done in a SNAP!" in text

    normalize = staticmethod(keep([r"Dfmxo=", r"No\. Outers=",
                                   r"Success!", r"^\s*npey=|^\s*npez="]))


APPS = [NPB("cg", "S"), NPB("mg", "S"), NPB("ft", "S"), NPB("ep", "S"),
        NPB("lu", "W"), NPB("bt", "W", check=is_square),
        NPB("sp", "W", check=is_square), NPB("is", "S", lang="C"),
        Lulesh(), Hpcg(), Amg(), Graph500(), Snap()]


# ------------------------------------------------------------ the suite

def tools_of(args):
    """The compilers of each side, and their environment."""
    if args.build:
        b = os.path.abspath(args.build)
        src = os.path.dirname(os.path.dirname(HERE))
        env = dict(ENV, SIBYLCC_INCDIR=os.path.join(src, "emulator",
                                                    "include"),
                   SIBYLCC_LIBDIR=b,
                   SIBYLFORT_MODDIR=os.path.join(b, "emulator"))
        w = os.path.join(b, "emulator")
        sib = {"cc": [os.path.join(w, "sibylcc")],
               "cxx": [os.path.join(w, "sibylcxx")],
               "fc": [os.path.join(w, "sibylfort")], "env": env,
               "native": False}
        sibyl = os.path.join(b, "sibyl")
    else:
        sib = {"cc": ["sibylcc"], "cxx": ["sibylcxx"], "fc": ["sibylfort"],
               "env": ENV, "native": False}
        sibyl = "sibyl"
    nat = {"cc": ["mpicc"], "cxx": ["mpicxx"], "fc": ["mpifort"],
           "env": ENV, "native": True}
    return nat, sib, sibyl


def copy_tree(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True,
                    ignore=shutil.ignore_patterns(".git"))


def predicted(sibyl, trace, env, timeout):
    """sibyl sim's prediction for TRACE, and the trace's SEBs and messages:
    {"predicted_s", "sebs", "messages", "sebs_per_request"}, or {} when the
    simulation failed.  Every message completes two requests (its send and
    its receive, blocking calls counted as requests), so a program whose
    polls were not merged shows more than one SEB per request."""
    out_dir = re.sub(r"\.trace$", "", trace) + ".sim"
    try:
        out = subprocess.run([sibyl, "sim", "--json", "--force", "-o",
                              out_dir, trace], env=env,
                             stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=timeout,
                             check=True).stdout
        j = json.loads(out)
        n = j["messages"]["count"]
        return {"predicted_s": j["predicted_time_s"], "sebs": j["sebs"],
                "messages": n,
                "sebs_per_request": j["sebs"] / (2 * n) if n else None}
    except (subprocess.SubprocessError, ValueError, KeyError):
        return {}


def emulate(app, exe, rundir, v, args, sibyl, env, tag):
    os.makedirs(rundir, exist_ok=True)
    app.inputs(rundir, v)
    trace = os.path.join(rundir, "%s-%d.trace" % (app.name, v))
    out = os.path.join(rundir, "%s-%d.out" % (tag, v))
    rc, wall, rss = timed([sibyl, "emulate", "-q", "--force", "--ranks",
                           str(v), "-np", str(args.np), "-o", trace, "--",
                           exe] + app.args(v), rundir, env, out,
                          args.timeout)
    with open(out, errors="replace") as f:
        text = app.result_text(rundir, f.read())
    return rc, wall, rss, text, trace


def run_app(app, src, args, nat, sib, sibyl):
    r = {"program": app.title, "name": app.name, "language": app.lang,
         "ranks": args.ranks, "native": {}, "sibyl": {}, "scale": []}
    work = os.path.join(args.work, app.name)
    os.makedirs(work, exist_ok=True)
    logf = os.path.join(work, "build.log")
    if os.path.exists(logf):
        os.unlink(logf)
    sides = [("sibyl", sib)] + ([] if args.no_native else
                                [("native", nat)])
    exes = {}
    for side, tools in sides:
        d = os.path.join(work, side, "src")
        log("%s: building (%s)" % (app.title, side))
        try:
            copy_tree(src, d)
            exes[side] = app.build(d, tools, logf, args.timeout)
            if not os.path.exists(exes[side]):
                raise Failure("the build made no %s" % exes[side])
        except Failure as e:
            r[side]["error"] = "build: %s" % e
    texts = {}
    if "native" in exes:
        rd = os.path.join(work, "native", "run")
        os.makedirs(rd, exist_ok=True)
        app.inputs(rd, args.ranks)
        log("%s: native run, %d ranks" % (app.title, args.ranks))
        out = os.path.join(rd, "native-%d.out" % args.ranks)
        rc, wall, rss = timed(["mpirun", "--oversubscribe", "--mca",
                               "mpi_yield_when_idle", "1", "-np",
                               str(args.ranks), exes["native"]] +
                              app.args(args.ranks), rd, nat["env"], out,
                              args.timeout)
        with open(out, errors="replace") as f:
            texts["native"] = app.result_text(rd, f.read())
        r["native"].update(status=rc, wall_s=wall,
                           verified=app.verify(texts["native"]))
    if "sibyl" in exes:
        rd = os.path.join(work, "sibyl", "run")
        log("%s: emulated run, %d ranks on %d processes"
            % (app.title, args.ranks, args.np))
        rc, wall, rss, text, trace = emulate(app, exes["sibyl"], rd,
                                             args.ranks, args, sibyl,
                                             sib["env"], "sibyl")
        texts["sibyl"] = text
        r["sibyl"].update(status=rc, wall_s=wall, peak_rss_kib=rss,
                          verified=app.verify(text))
        if rc == 0:
            r["sibyl"].update(predicted(sibyl, trace, sib["env"],
                                        args.timeout))
        if rc == 0 and os.path.isdir(trace):
            shutil.rmtree(trace)
    if "native" in texts and "sibyl" in texts:
        a, b = app.normalize(texts["native"]), app.normalize(texts["sibyl"])
        r["outputs_equal"] = a == b and len(a) > 0
        if not r["outputs_equal"]:
            with open(os.path.join(work, "output.diff"), "w") as f:
                f.write("\n".join(difflib.unified_diff(
                    a, b, "native", "sibyl", lineterm="")) + "\n")
    for v in args.scale:
        if "sibyl" not in exes:
            break
        if not app.ranks_ok(v):
            r["scale"].append({"ranks": v, "skipped": "rank count does "
                               "not fit the program's decomposition"})
            continue
        log("%s: emulated run, %d ranks" % (app.title, v))
        rd = os.path.join(work, "sibyl", "run-%d" % v)
        rc, wall, rss, text, trace = emulate(app, exes["sibyl"], rd, v,
                                             args, sibyl, sib["env"],
                                             "sibyl")
        s = {"ranks": v, "status": rc, "wall_s": wall,
             "peak_rss_kib": rss, "verified": app.verify(text)}
        if rc == 0:
            s.update(predicted(sibyl, trace, sib["env"], args.timeout))
        else:
            with open(os.path.join(rd, "sibyl-%d.out" % v),
                      errors="replace") as f:
                lines = [ln for ln in f.read().splitlines()
                         if ln.startswith("sibyl")]
            s["why"] = ("timed out after %d s" % args.timeout
                        if rc is None else lines[-1] if lines
                        else "exit %s" % rc)
        if os.path.isdir(trace):
            shutil.rmtree(trace)
        r["scale"].append(s)
        if rc != 0:
            break
    return r


def fmt_s(x):
    return "-" if x is None else ("%.1f s" % x if x >= 1 else
                                  "%.2f s" % x)


def fmt_mib(k):
    return "-" if k is None else "%.0f MiB" % (k / 1024)


def fmt_ratio(x):
    return "-" if x is None else "%.2f" % x


def fmt_pred(x):
    if x is None:
        return "-"
    return "%.3f s" % x if x >= 0.1 else "%.2f ms" % (x * 1e3)


def table(results, markdown):
    head = ["program", "language", "ranks", "verification native / Sibyl",
            "output equal", "native wall", "emulation wall",
            "emulation peak RSS", "SEBs per request", "predicted",
            "largest emulated"]
    rows = []
    for r in results:
        def ver(side):
            s = r[side]
            if "error" in s:
                return "build failed"
            if not s:
                return "-"
            return ("passed" if s.get("verified") else "FAILED") + \
                ("" if s.get("status") == 0 else " (timed out)"
                 if s.get("status") is None else
                 " (exit %s)" % s.get("status"))
        big = [s for s in r["scale"] if s.get("status") == 0 and
               s.get("verified")]
        largest = "-"
        if big:
            b = big[-1]
            largest = "%d (%s, %s)" % (b["ranks"], fmt_s(b["wall_s"]),
                                       fmt_mib(b["peak_rss_kib"]))
        rows.append([r["program"], r["language"], str(r["ranks"]),
                     "%s / %s" % (ver("native"), ver("sibyl")),
                     {True: "yes", False: "NO"}.get(r.get("outputs_equal"),
                                                    "-"),
                     fmt_s(r["native"].get("wall_s")),
                     fmt_s(r["sibyl"].get("wall_s")),
                     fmt_mib(r["sibyl"].get("peak_rss_kib")),
                     fmt_ratio(r["sibyl"].get("sebs_per_request")),
                     fmt_pred(r["sibyl"].get("predicted_s")), largest])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        w = [max(len(h), *(len(row[i]) for row in rows)) if rows else
             len(h) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
        for row in rows:
            print("  ".join(c.ljust(w[i]) for i, c in enumerate(row)))


def main():
    p = argparse.ArgumentParser(
        description="The public application suite, native and emulated.",
        epilog="See the module's docstring (docs/applications.md).")
    p.add_argument("--src", required=True,
                   help="where the programs' sources are")
    p.add_argument("--build", help="Sibyl's build directory (default: "
                   "the installed sibylcc and sibyl)")
    p.add_argument("--work", default="apps-work",
                   help="where to build and run (default ./apps-work)")
    p.add_argument("--apps", help="comma-separated names (default: every "
                   "program found): " + ",".join(a.name for a in APPS))
    p.add_argument("--ranks", type=int, default=64)
    p.add_argument("--np", type=int, default=2)
    p.add_argument("--scale", default="",
                   help="larger rank counts to emulate, e.g. 1024,4096")
    p.add_argument("--no-native", action="store_true")
    p.add_argument("--npb-class", choices=list("SWABCDE"),
                   help="build the NPB programs in this class (default: "
                   "S, and W for lu, bt and sp)")
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--json", help="write every figure to this file")
    args = p.parse_args()
    try:
        args.scale = [int(x) for x in args.scale.split(",") if x]
    except ValueError:
        p.error("--scale: rank counts separated by commas")
    if args.ranks < 1 or args.np < 1:
        p.error("--ranks and --np must be positive")
    if not os.path.isdir(args.src):
        p.error("--src %s: no such directory" % args.src)
    args.work = os.path.abspath(args.work)
    names = None
    if args.apps:
        names = args.apps.split(",")
        unknown = set(names) - {a.name for a in APPS}
        if unknown:
            p.error("--apps: unknown %s" % ",".join(sorted(unknown)))
    if args.npb_class:
        for app in APPS:
            if isinstance(app, NPB):
                app.klass = args.npb_class
                app.title = "NPB %s class %s" % (app.kernel.upper(),
                                                  app.klass)
    nat, sib, sibyl = tools_of(args)
    results = []
    ok = True
    for app in APPS:
        if names and app.name not in names:
            continue
        src = app.find(os.path.abspath(args.src))
        if not src:
            log("%s: no sources under %s, skipped" % (app.title, args.src))
            continue
        if not app.ranks_ok(args.ranks):
            log("%s: %d ranks do not fit its decomposition, skipped"
                % (app.title, args.ranks))
            continue
        r = run_app(app, src, args, nat, sib, sibyl)
        results.append(r)
        for side in ("native", "sibyl"):
            s = r[side]
            if "error" in s:
                log("%s: %s" % (app.title, s["error"]))
            if s and ("error" in s or not s.get("verified") or
                      s.get("status") != 0):
                ok = False
        if r.get("outputs_equal") is False:
            ok = False
            log("%s: outputs differ: %s" % (app.title, os.path.join(
                args.work, app.name, "output.diff")))
    if not results:
        log("no program found under %s" % args.src)
        return 1
    table(results, args.markdown)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
            f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
