#!/usr/bin/env python3
"""Emulator figures: context switch, message rate, slowdown against native
Open MPI, memory per virtual rank, and the 65,536-rank runs.

  bench/emu_bench.py [--build DIR] [--markdown] [--big RANKS]
  bench/emu_bench.py [--build DIR] [--markdown] --busy-loop [--ranks V]
                     [--repeat N] [--idle block|spin]
  bench/emu_bench.py [--build DIR] [--markdown] --timing-cost [--ranks V]
                     [--repeat N] [--perf]
  bench/emu_bench.py [--build DIR] [--markdown] --alltoallv
                     [--max-ranks V]
  bench/emu_bench.py [--build DIR] [--markdown] --fence [--max-ranks V]

Run from a build directory (or give --build).  Sections:

  context switch   emulator/bench_ult: round trip between two user-level
                   threads / 2, and thread creation (hand-written assembly
                   and, for comparison, the ucontext fallback when built)
  message rate     bench/emu/msgrate.c, one pair ping-ponging 8-byte
                   messages: both ranks in one process (local hand-off)
                   and in two processes (over Open MPI)
  slowdown         examples/kneighbor.c at 64 ranks: `mpirun -np 64' of
                   the mpicc build (64 real processes on this machine's
                   cores) against `sibyl emulate --ranks 64 -np 2' of the
                   sibylcc build; same program, same arguments
  memory per rank  examples/ring.c run directly (one process) at 1,024
                   and 16,384 and 65,536 ranks with 64 KiB stacks: peak
                   RSS, and the growth per added rank
  big runs         ring and kneighbor at --big ranks (default 65,536) on
                   2 processes: wall time and peak RSS of each process

Peak RSS is each process's own high-water mark (getrusage of the child,
or /usr/bin/time -f %M wrapped around each MPI process).

--busy-loop runs only the shared-machine row instead: the k-neighbor
emulation of the big runs (kneighbor 1024 2 4 1000, 64 KiB stacks) at
--ranks V (default 262,144) on 2 processes with `sibyl emulate', first on
the machine as it is, then with one busy loop (sh -c 'while :; do :;
done') alongside, N times (--repeat, default 1) in alternation; it prints
both wall times, their ratio, the CPU time of the emulation and the share
of a core the busy loop got, and the load average before each run (other
work on the machine shows there).  --idle passes SIBYL_IDLE (block, the
default, or spin: poll Open MPI while no rank can run) to compare.

--timing-cost runs only what the corrected timing costs that emulation:
one uncounted run, then N rounds (--repeat) of --timing corrected and
--timing raw --clock wall in alternating order, on an idle machine; it
prints each round's ratio, their median and the ratio of the fastest
runs.  With --perf, one more corrected run under `perf record -g' gives
the share of the emulating processes' samples in the timing's own code
(emulator/timing.c and the system calls it makes): a ratio within one
run, which the machine's drift from run to run does not move.

--alltoallv runs only the exchange of an integer sort (bench/emu/a2av.c:
every rank posts a receive from every other rank, then sends every other
rank a few keys; p2p with MPI_Irecv/MPI_Isend/MPI_Waitall, and coll with
MPI_Alltoallv) on 2 processes at 256 ranks and twice as many up to
--max-ranks (default 2,048): wall time, peak RSS of sibyl emulate's
children, and the growth per doubling.  The messages are N(N-1): a
doubling quadruples them.

--fence runs only one-sided fence epochs (bench/emu/fence.c: every rank
puts one int to its right neighbour and one to the rank half the world
away, 20 times, two fences each) on 2 processes at 256 ranks and 4 times
as many up to --max-ranks (4,096 when given as 2,048, the default): wall
time, peak RSS of sibyl emulate's children, and the messages of the
trace.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def run(cmd, env=None, timeout=1800):
    t0 = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = subprocess.run(cmd, env=env or ENV, capture_output=True, text=True,
                       timeout=timeout)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd),
                                             p.stdout[-2000:],
                                             p.stderr[-2000:]))
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return p.stdout + p.stderr, wall, rss if rss > before else None


def build(args, tmp):
    b = args.build
    sibylcc = os.path.join(b, "emulator", "sibylcc")
    env = dict(ENV, SIBYLCC_INCDIR=os.path.join(SRC, "emulator", "include"),
               SIBYLCC_LIBDIR=b)
    progs = {}
    for name, src in (("kneighbor", "examples/kneighbor.c"),
                      ("ring", "examples/ring.c"),
                      ("msgrate", "bench/emu/msgrate.c")):
        out = os.path.join(tmp, name)
        subprocess.run([sibylcc, "-O2", os.path.join(SRC, src), "-o", out],
                       env=env, check=True)
        subprocess.run(["mpicc", "-O2", os.path.join(SRC, src), "-o",
                        out + ".native"], check=True)
        progs[name] = out
    return progs


def emulate(args, tmp, prog, ranks, np, extra=(), stack=None, opts=()):
    trace = os.path.join(tmp, "t.trace")
    cmd = [os.path.join(args.build, "sibyl"), "emulate", "-q", "--ranks",
           str(ranks), "-np", str(np), "-o", trace, "--force"] + list(opts)
    if stack:
        cmd += ["--stack-size", stack]
    return run(cmd + ["--", prog] + list(extra))


def per_process_rss(args, tmp, prog, ranks, np, extra, stack="64KiB"):
    """mpirun -np NP /usr/bin/time ... PROG: each process's peak RSS."""
    env = dict(ENV, SIBYL_RANKS=str(ranks), SIBYL_STACK_SIZE=str(64 * 1024),
               SIBYL_TRACE=os.path.join(tmp, "big.trace"))
    shutil.rmtree(env["SIBYL_TRACE"], ignore_errors=True)
    out, wall, _ = run(["mpirun", "-np", str(np), "/usr/bin/time", "-f",
                        "RSS %M", prog] + list(extra), env=env)
    rss = [int(x) for x in re.findall(r"RSS (\d+)", out)]
    return wall, rss


def kn_setup(args, tmp):
    """The k-neighbor program of the big rows, and its emulate command."""
    b = args.build
    env = dict(ENV, SIBYLCC_INCDIR=os.path.join(SRC, "emulator", "include"),
               SIBYLCC_LIBDIR=b)
    if args.idle:
        env["SIBYL_IDLE"] = args.idle
    else:
        env.pop("SIBYL_IDLE", None)
    prog = os.path.join(tmp, "kneighbor")
    subprocess.run([os.path.join(b, "emulator", "sibylcc"), "-O2",
                    os.path.join(SRC, "examples", "kneighbor.c"), "-o", prog],
                   env=env, check=True)
    trace = os.path.join(tmp, "k.trace")
    cmd = [os.path.join(b, "sibyl"), "emulate", "-q", "--ranks",
           str(args.ranks), "-np", "2", "--stack-size", "64KiB", "-o", trace,
           "--force", "--", prog, "1024", "2", "4", "1000"]
    return env, cmd


# The corrected timing's own code in a perf profile of the emulating
# processes: a sample counts when it is in one of these functions of
# emulator/timing.c (static ones may be inlined into the others), or in
# the kernel serving the system calls they make (the CPU clock and
# getrusage).  The wall clock, which --timing raw --clock wall reads too
# (in the vDSO, no system call), is not counted.
TIMING_FUNCS = {
    "__getrusage", "take_reading", "usage", "emu_stamp_now",
    "emu_stamp_since", "emu_stamp_fresh", "emu_timing_resume",
    "emu_timing_begin", "emu_timing_end", "count_gap", "bin_of",
    "emu_region_get", "emu_region_ended", "emu_region_add",
    "emu_region_decide", "emu_region_judged", "fit", "quantile_log",
    "hash2"}
TIMING_SYSCALLS = {"__x64_sys_getrusage", "__x64_sys_clock_gettime"}


def perf_share(env, cmd, tmp):
    """Share of the emulating processes' samples in the corrected timing
    (TIMING_FUNCS, TIMING_SYSCALLS) in one perf-recorded run: a ratio
    taken inside one run, which the machine's drift from run to run does
    not move.  Returns (share, {what: share}) or None."""
    if not shutil.which("perf"):
        return None
    data = os.path.join(tmp, "perf.data")
    prog = os.path.basename(cmd[cmd.index("--") + 1])
    p = subprocess.run(["perf", "record", "-q", "-g", "-o", data, "--"] + cmd,
                       env=env, capture_output=True, text=True, timeout=7200)
    if p.returncode != 0:
        return None
    sc = subprocess.Popen(["perf", "script", "-i", data, "-F", "comm,ip,sym"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
    total = hit = 0
    parts = {}
    comm, frames = None, []

    def done():
        nonlocal total, hit
        # The emulating processes run the program again with a fixed
        # layout: their command name is then "exe".
        if comm not in (prog, "exe") or not frames:
            return
        total += 1
        what = None
        if TIMING_SYSCALLS.intersection(frames):
            what = "system calls (CPU clock, getrusage)"
        elif frames[0] in TIMING_FUNCS:
            what = frames[0]
        if what:
            hit += 1
            parts[what] = parts.get(what, 0) + 1

    for line in sc.stdout:
        if not line.strip():
            done()
            comm, frames = None, []
        elif not line[0].isspace():
            done()
            comm, frames = line.split()[0], []
        else:
            f = line.split()
            if len(f) >= 2:
                frames.append(f[1].split("+")[0])
    done()
    sc.wait()
    if not total:
        return None
    return hit / total, {k: v / total for k, v in parts.items()}


def timing_cost_rows(args, tmp, row):
    """What the corrected timing costs the big k-neighbor emulation:
    --timing corrected (the default) and --timing raw --clock wall (one
    clock read, nothing judged) in turn, in alternating order from round
    to round, on an idle machine: the median of the rounds' ratios and
    the ratio of the fastest runs.  This machine's speed drifts by 20-40%
    from run to run (the host's page clearing, its other guests), so one
    pair of runs says little.  Then, with perf, the share of the corrected
    run's samples in the timing's own functions: a ratio in one run."""
    env, cmd = kn_setup(args, tmp)
    wall_clock = cmd[:3] + ["--timing", "raw", "--clock", "wall"] + cmd[3:]
    modes = (("--timing corrected (default)", cmd),
             ("--timing raw --clock wall", wall_clock))
    walls = {m[0]: [] for m in modes}
    ratios = []
    # One run first, not counted: the first run after the machine idled
    # pays the host for every page it touches (it took 28-30 s where the
    # next ones took 21-23 s).
    subprocess.run(wall_clock, env=env, capture_output=True, timeout=7200)
    for rep in range(args.repeat):
        order = modes if rep % 2 == 0 else modes[::-1]
        got = {}
        for how, c in order:
            t0 = time.monotonic()
            p = subprocess.run(c, env=env, capture_output=True, text=True,
                               timeout=7200)
            wall = time.monotonic() - t0
            if p.returncode != 0:
                sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(c),
                                                   p.stderr[-2000:]))
            got[how] = wall
            walls[how].append(wall)
            row("kneighbor %d ranks on 2 processes, %s" % (args.ranks, how),
                "%.1f s" % wall, "round %d" % (rep + 1))
        ratios.append(got[modes[0][0]] / got[modes[1][0]])
        row("  corrected / raw --clock wall", "%.3fx" % ratios[-1],
            "round %d" % (rep + 1))
    med = sorted(ratios)[len(ratios) // 2]
    row("corrected / raw --clock wall, median of %d" % len(ratios),
        "%.3fx" % med, "range %.3fx to %.3fx" % (min(ratios), max(ratios)))
    fast = min(walls[modes[0][0]]) / min(walls[modes[1][0]])
    row("fastest corrected / fastest raw --clock wall", "%.3fx" % fast,
        "%.1f s / %.1f s" % (min(walls[modes[0][0]]),
                             min(walls[modes[1][0]])))
    if args.perf:
        got = perf_share(env, cmd, tmp)
        if got is None:
            row("perf: the timing's share of the samples", "n/a",
                "perf is missing, or its record or script failed")
        else:
            share, parts = got
            top = sorted(parts.items(), key=lambda kv: -kv[1])[:4]
            row("perf: the timing's share of the emulation's samples",
                "%.1f%%" % (100 * share),
                "of which " + ", ".join("%s %.1f%%" % (k, 100 * v)
                                        for k, v in top))


def busy_loop_rows(args, tmp, row):
    """The k-neighbor emulation idle, then beside one busy loop."""
    env, cmd = kn_setup(args, tmp)
    hz = os.sysconf("SC_CLK_TCK")
    ratios = []
    for rep in range(args.repeat):
        walls = []
        for loaded in (0, 1):
            with open("/proc/loadavg") as f:
                load = f.read().split()[0]
            busy = None
            if loaded:
                busy = subprocess.Popen(["sh", "-c", "while :; do :; done"])
            t0 = time.monotonic()
            ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                               timeout=7200)
            wall = time.monotonic() - t0
            ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            share = ""
            if busy:
                with open("/proc/%d/stat" % busy.pid) as f:
                    st = f.read().rsplit(")", 1)[1].split()
                cpu_busy = (int(st[11]) + int(st[12])) / hz
                busy.kill()
                busy.wait()
                share = ", the busy loop got %.0f%% of a core" % (
                    100 * cpu_busy / wall)
            if p.returncode != 0:
                sys.exit("failed (%d): %s\n%s" % (p.returncode,
                                                   " ".join(cmd),
                                                   p.stderr[-2000:]))
            cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime -
                                                   ru0.ru_stime)
            walls.append(wall)
            row("kneighbor %d ranks on 2 processes, %s" % (
                args.ranks, "with a busy loop" if loaded else "idle"),
                "%.1f s" % wall, "emulation CPU %.1f s%s; load average "
                "%s before" % (cpu, share, load))
        ratios.append(walls[1] / walls[0])
        row("  busy loop / idle", "%.2fx" % ratios[-1],
            "SIBYL_IDLE=%s" % (args.idle or "block (default)"))
    if len(ratios) > 1:
        row("busy loop / idle, median of %d" % len(ratios),
            "%.2fx" % sorted(ratios)[len(ratios) // 2],
            "range %.2fx to %.2fx" % (min(ratios), max(ratios)))


def bench_prog(args, tmp, name):
    """bench/emu/NAME.c built with this build's sibylcc -O2 into tmp."""
    env = dict(ENV, SIBYLCC_INCDIR=os.path.join(SRC, "emulator", "include"),
               SIBYLCC_LIBDIR=args.build)
    prog = os.path.join(tmp, name)
    subprocess.run([os.path.join(args.build, "emulator", "sibylcc"), "-O2",
                    os.path.join(SRC, "bench/emu", name + ".c"), "-o",
                    prog], env=env, check=True)
    return prog


def alltoallv_rows(args, tmp, row):
    """bench/emu/a2av.c at 256, 512, ... ranks on 2 processes."""
    prog = bench_prog(args, tmp, "a2av")
    for mode in ("p2p", "coll"):
        last = None
        n = 256
        while n <= args.max_ranks:
            ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            out, wall, _ = emulate(args, tmp, prog, n, 2, [mode])
            ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            m = re.search(r"keys=(\d+)", out)
            grow = " (%.2fx the half)" % (wall / last) if last else ""
            row("a2av %s, %d ranks on 2 processes" % (mode, n),
                "%.2f s%s" % (wall, grow), "%s messages; largest process so far %.0f MiB; "
                "CPU %.1f s" % (format(n * (n - 1), ","),
                                ru1.ru_maxrss / 1024,
                                (ru1.ru_utime - ru0.ru_utime) +
                                (ru1.ru_stime - ru0.ru_stime)) +
                ("" if m else " (no keys line!)"))
            last = wall
            n *= 2


def fence_rows(args, tmp, row):
    """bench/emu/fence.c at 256, 1,024, ... ranks on 2 processes."""
    prog = bench_prog(args, tmp, "fence")
    top = max(args.max_ranks, 4096) if args.max_ranks == 2048 else \
        args.max_ranks
    n = 256
    while n <= top:
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out, wall, _ = emulate(args, tmp, prog, n, 2, [])
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if not re.search(r"fence: ranks=\d+ fences=\d+ ok", out):
            sys.exit("fence at %d ranks: no \"ok\" line:\n%s" % (n, out))
        st, _, _ = run([os.path.join(args.build, "sibyl"), "trace",
                        "stats", os.path.join(tmp, "t.trace")])
        m = re.search(r"messages\s+([\d,]+) sent", st)
        row("fence, %d ranks on 2 processes" % n, "%.2f s" % wall,
            "%s messages; largest process so far %.0f MiB; CPU %.1f s" % (
                m.group(1) if m else "?", ru1.ru_maxrss / 1024,
                (ru1.ru_utime - ru0.ru_utime) +
                (ru1.ru_stime - ru0.ru_stime)))
        n *= 4


def print_markdown(rows):
    print("\n| figure | value | note |\n|---|---|---|")
    for r in rows:
        print("| %s | %s | %s |" % r)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=".")
    ap.add_argument("--big", type=int, default=65536)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--busy-loop", action="store_true",
                    help="only the k-neighbor run idle and beside a busy "
                    "loop")
    ap.add_argument("--timing-cost", action="store_true",
                    help="only the k-neighbor run with --timing corrected, "
                    "raw --clock wall and raw, idle")
    ap.add_argument("--perf", action="store_true",
                    help="with --timing-cost: also the timing's share of "
                    "the samples of one perf-recorded corrected run")
    ap.add_argument("--alltoallv", action="store_true",
                    help="only the integer sort's all-to-all-v exchange, "
                    "256 ranks to --max-ranks")
    ap.add_argument("--fence", action="store_true",
                    help="only one-sided fence epochs, 256 ranks to "
                    "--max-ranks (4,096 by default)")
    ap.add_argument("--max-ranks", type=int, default=2048)
    ap.add_argument("--ranks", type=int, default=262144)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--idle", choices=("block", "spin"))
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    tmp = tempfile.mkdtemp(prefix="sibyl-emu-bench.")
    rows = []

    def row(what, value, note=""):
        rows.append((what, value, note))
        print("%-44s %-22s %s" % (what, value, note), flush=True)

    if args.busy_loop or args.timing_cost or args.alltoallv or args.fence:
        try:
            if args.alltoallv:
                alltoallv_rows(args, tmp, row)
            if args.fence:
                fence_rows(args, tmp, row)
            if args.busy_loop:
                busy_loop_rows(args, tmp, row)
            if args.timing_cost:
                timing_cost_rows(args, tmp, row)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if args.markdown:
            print_markdown(rows)
        return

    try:
        progs = build(args, tmp)
        # Context switch.
        bu = os.path.join(args.build, "emulator", "bench_ult")
        out, _, _ = run([bu])
        m = re.search(r"\{.*\}", out)
        import json
        j = json.loads(m.group(0))
        row("context switch (%s)" % j.get("backend", "?"),
            "%.1f ns" % j["switch_ns"], "round trip / 2, median")
        if "create_ns" in j:
            row("thread creation", "%.0f ns" % j["create_ns"])
        # Message rate.
        for np, where in ((1, "same process"), (2, "two processes")):
            for opts, how in (([], "--timing corrected (default)"),
                              (["--timing", "raw"],
                               "--timing raw (CPU clock)"),
                              (["--timing", "raw", "--clock", "wall"],
                               "--timing raw --clock wall"),
                              (["--timing", "raw", "--clock", "wall",
                                "--compression", "0"],
                               "--timing raw --clock wall --compression 0")):
                out, _, _ = emulate(args, tmp, progs["msgrate"], 2, np,
                                    ["200000" if np == 1 else "50000"],
                                    opts=opts)
                r = float(re.search(r"msgs_per_s=(\d+)", out).group(1))
                row("message rate, %s" % where, "%.2fM msg/s" % (r / 1e6),
                    "8 B ping-pong, trace recorded, %s" % how)
        out, _, _ = run(["mpirun", "-np", "2", progs["msgrate"] + ".native",
                         "50000"])
        r = float(re.search(r"msgs_per_s=(\d+)", out).group(1))
        row("message rate, native Open MPI", "%.2fM msg/s" % (r / 1e6),
            "same program, mpicc, 2 processes")
        # Slowdown at 64 ranks.
        kargs = ["1024", "20", "2", "100"]
        _, tn, _ = run(["mpirun", "-np", "64", progs["kneighbor"] +
                        ".native"] + kargs)
        _, te, _ = emulate(args, tmp, progs["kneighbor"], 64, 2, kargs)
        row("kneighbor 64 ranks: native / emulated",
            "%.2f s / %.2f s" % (tn, te),
            "slowdown %.2fx (native: 64 processes on %d cores)" %
            (te / tn, os.cpu_count()))
        # Memory per rank.
        pts = []
        for ranks in (1024, 16384, 65536):
            env = dict(ENV, SIBYL_RANKS=str(ranks),
                       SIBYL_STACK_SIZE=str(64 * 1024),
                       SIBYL_TRACE=os.path.join(tmp, "m.trace"))
            shutil.rmtree(env["SIBYL_TRACE"], ignore_errors=True)
            out, _, _ = run(["/usr/bin/time", "-f", "RSS %M",
                             progs["ring"], "2"], env=env)
            kb = int(re.search(r"RSS (\d+)", out).group(1))
            pts.append((ranks, kb))
            row("ring, %d ranks, 1 process: peak RSS" % ranks,
                "%.1f MiB" % (kb / 1024))
        (r0, k0), (r1, k1) = pts[0], pts[-1]
        row("memory per virtual rank", "%.1f KiB" %
            ((k1 - k0) / (r1 - r0)), "(RSS(65,536) - RSS(1,024)) / 64,512")
        # Big runs.
        for name, extra in (("ring", ["2"]),
                            ("kneighbor", ["1024", "5", "2", "100"])):
            wall, rss = per_process_rss(args, tmp, progs[name], args.big,
                                        2, extra)
            row("%s, %d ranks on 2 processes" % (name, args.big),
                "%.1f s" % wall, "peak RSS per process: %s" %
                ", ".join("%.0f MiB" % (k / 1024) for k in rss))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.markdown:
        print_markdown(rows)


if __name__ == "__main__":
    main()
