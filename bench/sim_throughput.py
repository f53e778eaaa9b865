#!/usr/bin/env python3
"""Simulator throughput and memory, side by side with SimGrid/SMPI.

For each workload it generates the trace with `sibyl trace gen`, runs
`sibyl sim` on it (simple network model, L = 1 us, B = 10 GB/s, one rank
per node) and reports the wall time, the peak resident memory, the
events and messages simulated per second and the predicted time.  Then
it runs the same workload as an MPI program on SimGrid's SMPI (the peers
in bench/peers/, a platform on which a message takes exactly L + S/B
with no contention: see bench/peers/README.md) and reports the same.
The "analytic" column is the time both should predict:
  kneighbor, stencil3d:  I * (T + L + S/B)
  alltoall:              I * (T + (R-1) * (L + S/B))   (a chain of R-1 phases)

  bench/sim_throughput.py [--sibyl PATH] [--scale small|full] [--markdown]
                          [--peer-timeout S] [--peer-mem GIB] [--no-peer]

Workloads (I iterations, T compute per iteration, S bytes per message):
  kneighbor  K = 4 (8 neighbours), S = 1 KiB, T = 1 ms, I = 10
  stencil3d  periodic 3D grid, 6 faces of S = 8 KiB, T = 100 us, I = 10
  alltoall   pairwise, R-1 phases, S = 1 KiB, T = 1 ms, I = 2
--scale small (default): kneighbor and stencil3d at 4,096 and 65,536 ranks,
alltoall at 256 and 1,024 ranks.  full adds 262,144 and 1,048,576 ranks and
alltoall at 4,096.  alltoall stays small because its messages grow as R^2
(R(R-1) per iteration: 16.8M at 4,096 ranks, 1.1G at 32K).  Both scales
end with the acceptance workload: the 262,144-rank periodic 3D stencil,
8 KiB faces, 100 us compute, 10 iterations, and the same with 20
iterations (the peak memory growth from 10 to 20 is reported).

Traces of 65,536 ranks and more are written with --window 16: the
simulator holds about one window of raw payload per rank (with 8, the
window index, 40 bytes per window, would grow with the run by 14%).

The SimGrid peer runs under a time limit (--peer-timeout, default 600 s)
and a memory limit (--peer-mem, default 20 GiB, checked twice a second on
the whole process group); a run over either is killed and reported as
"timeout" or "out of memory".  With --scale small the peer is not run
above 65,536 ranks (--peer-max-ranks to change; SMPI simulates about 20K
messages per second and needs about 36 KiB per rank).  If `sibyl sim` is
not available the Sibyl columns say so and only the peer runs.

Run it from a build directory or give --sibyl.  Needs smpicc and smpirun
(Debian: apt-get install libsimgrid-dev) for the peer half, and a few GB
of free disk for the full scale's traces.
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers")
sys.path.insert(0, PEERS)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import mkplatform  # noqa: E402  (bench/peers/mkplatform.py)

LATENCY = "1us"
BANDWIDTH = "10GB/s"
SIM_SET = ["--set", "net.latency=" + LATENCY, "--set",
           "net.bandwidth=" + BANDWIDTH, "--set", "machine.cores_per_node=1"]

# name -> (pattern, iters, sibyl trace gen options, peer options, bytes, T s)
WORKLOADS = {
    "kneighbor": ("kneighbor", 10, ["-k", "4", "-s", "1KiB", "-c", "1ms"],
                  ["--neighbors", "4", "--msg-size", "1024",
                   "--compute-us", "1000"], 1024, 1e-3),
    "stencil3d": ("stencil3d", 10, ["--face-bytes", "8KiB", "-c", "100us"],
                  ["--face-sizes", "8192,8192,8192", "--compute-us", "100"],
                  8192, 100e-6),
    "alltoall": ("alltoall", 2, ["-s", "1KiB", "-c", "1ms"],
                 ["--msg-size", "1024", "--compute-us", "1000"], 1024, 1e-3),
}

SCALES = {
    "small": [("kneighbor", 4096), ("kneighbor", 65536),
              ("stencil3d", 4096), ("stencil3d", 65536),
              ("alltoall", 256), ("alltoall", 1024)],
    "full": [("kneighbor", 262144), ("kneighbor", 1048576),
             ("stencil3d", 262144), ("stencil3d", 1048576),
             ("alltoall", 4096)],
}
ACCEPT_RANKS = 262144
ACCEPT_ITERS = (10, 20)

PEER_RE = re.compile(r"^PEER pattern=(\S+) ranks=(\d+) iters=(\d+) "
                     r"predicted_time_s=(\S+) messages=(\d+) bytes=(\d+)",
                     re.M)


def mib(x):
    return x / (1 << 20)


def group_rss(pgid):
    """Resident bytes of every process of process group pgid."""
    total = 0
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                st = f.read()
            # fields after the command name (which may hold spaces)
            fields = st[st.rindex(")") + 2:].split()
            if int(fields[2]) != pgid:       # field 5: pgrp
                continue
            with open("/proc/%s/statm" % d) as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    return total


def unlimit_stack():
    """SimGrid's max-min solver recurses along the constraint graph on the
    main thread's stack: 8 MiB overflows at 262,144 stencil ranks."""
    resource.setrlimit(resource.RLIMIT_STACK,
                       (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def run_limited(cmd, log, timeout=None, mem_limit=None, preexec=None):
    """Run cmd in its own process group, output to log.

    Returns (status, wall s, peak RSS bytes): status is "ok", "exit N",
    "timeout" or "out of memory".  The peak is the larger of the kernel's
    high-water mark of the process and its waited-for descendants and of
    what the twice-a-second watch saw (the only figure for a killed run)."""
    t0 = time.perf_counter()
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             preexec_fn=preexec)
    # A watchdog thread samples the group's memory and kills it over a
    # limit; this thread blocks in wait4, so the wall time is exact.
    state = {"status": None, "seen": 0}
    done = threading.Event()

    def watch():
        while not done.wait(0.5):
            rss = group_rss(p.pid)
            state["seen"] = max(state["seen"], rss)
            if mem_limit and rss > mem_limit:
                state["status"] = "out of memory"
            elif timeout and time.perf_counter() - t0 > timeout:
                state["status"] = "timeout"
            if state["status"]:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                return

    w = threading.Thread(target=watch, daemon=True)
    w.start()
    _, st, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    w.join()
    status, seen = state["status"], state["seen"]
    p.returncode = os.waitstatus_to_exitcode(st)
    peak = max(ru.ru_maxrss * 1024, seen)
    if status is None:
        if p.returncode == 0:
            status = "ok"
        elif p.returncode == -signal.SIGKILL:
            status = "out of memory"      # the kernel's OOM killer
        else:
            status = "exit %d" % p.returncode
    return status, wall, peak


def tail(path, n=5):
    """The last n lines of a log, without SimGrid's configuration chatter."""
    try:
        with open(path, errors="replace") as f:
            lines = [ln for ln in f if "[xbt_cfg/INFO]" not in ln
                     and "[smpi_coll/INFO]" not in ln
                     and "[smpi_config/INFO]" not in ln]
            return "".join(lines[-n:]).rstrip()
    except OSError:
        return ""


def messages(pattern, ranks, iters):
    """Messages of the workload (docs/trace-tools.md, K = 4 for kneighbor)."""
    per = {"kneighbor": 8 * ranks, "stencil3d": 6 * ranks,
           "alltoall": ranks * (ranks - 1)}[pattern]
    return per * iters


def analytic_s(pattern, ranks, iters, size, compute):
    lat = mkplatform.parse_time(LATENCY)
    bw = mkplatform.parse_bw(BANDWIDTH)
    msg = lat + size / bw
    if pattern == "alltoall":
        return iters * (compute + (ranks - 1) * msg)
    return iters * (compute + msg)


def have_sibyl_sim(sibyl):
    try:
        r = subprocess.run([sibyl, "sim", "--help"], capture_output=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def build_peers(work):
    """Compile the peers with smpicc into work; None if SMPI is missing."""
    if not shutil.which("smpicc") or not shutil.which("smpirun"):
        return None
    out = {}
    for prog in ("stencil3d", "kneighbor", "alltoall"):
        exe = os.path.join(work, prog)
        subprocess.run(["smpicc", "-O2", "-o", exe,
                        os.path.join(PEERS, prog + ".c")],
                       check=True, capture_output=True)
        out[prog] = exe
    return out


def fmt_time(s):
    """Seconds as microseconds to the picosecond."""
    if s is None:
        return "–"
    return "%.6f us" % (s * 1e6)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sibyl", default="./sibyl")
    ap.add_argument("--scale", choices=["small", "full"], default="small")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table (for bench/RESULTS.md)")
    ap.add_argument("--tmpdir", default=None)
    ap.add_argument("--no-peer", action="store_true",
                    help="do not run the SimGrid peer")
    ap.add_argument("--no-acceptance", action="store_true",
                    help="leave out the 262,144-rank acceptance workload")
    ap.add_argument("--peer-timeout", type=float, default=600,
                    help="seconds per SimGrid run (default 600)")
    ap.add_argument("--peer-mem", type=float, default=20,
                    help="GiB per SimGrid run (default 20)")
    ap.add_argument("--peer-max-ranks", type=int, default=None,
                    help="largest rank count given to SimGrid (default "
                    "65536 with --scale small, no limit with full)")
    ap.add_argument("--sim-timeout", type=float, default=3600,
                    help="seconds per sibyl sim run (default 3600)")
    ap.add_argument("--only", default=None,
                    help="comma-separated workload names to run "
                    "(kneighbor, stencil3d, alltoall, acceptance)")
    args = ap.parse_args()
    sibyl = os.path.abspath(args.sibyl)
    if not os.access(sibyl, os.X_OK):
        sys.exit("no sibyl driver at %s (use --sibyl)" % sibyl)
    peer_max = args.peer_max_ranks
    if peer_max is None:
        peer_max = 65536 if args.scale == "small" else 1 << 62
    only = set(args.only.split(",")) if args.only else None

    cases = list(SCALES["small"])
    if args.scale == "full":
        cases += SCALES["full"]
    cases = [(w, r, WORKLOADS[w][1], False) for w, r in cases]
    if not args.no_acceptance:
        cases += [("stencil3d", ACCEPT_RANKS, it, True) for it in ACCEPT_ITERS]
    if only:
        cases = [c for c in cases
                 if c[0] in only or (c[3] and "acceptance" in only)]
    # The full scale's 262,144-rank stencil is the acceptance workload.
    seen, uniq = set(), []
    for c in cases:
        key = c[:3]
        if key in seen:
            continue
        seen.add(key)
        uniq.append((c[0], c[1], c[2],
                     c[3] or (c[0] == "stencil3d" and c[1] == ACCEPT_RANKS)))
    cases = uniq

    sim_ok = have_sibyl_sim(sibyl)
    notes = []
    if not sim_ok:
        notes.append("`sibyl sim --help` failed: Sibyl columns skipped.")
        print("note: `%s sim --help` failed: the Sibyl half is skipped"
              % sibyl, file=sys.stderr)

    work = tempfile.mkdtemp(prefix="sibyl-simbench-", dir=args.tmpdir)
    peers = None
    if not args.no_peer:
        peers = build_peers(work)
        if peers is None:
            notes.append("smpicc/smpirun not found: SimGrid columns skipped.")
            print("note: smpicc/smpirun not found: the SimGrid half is "
                  "skipped", file=sys.stderr)
    lat = mkplatform.parse_time(LATENCY)
    bw = mkplatform.parse_bw(BANDWIDTH)

    rows = []
    try:
        for name, ranks, iters, accept in cases:
            pattern, _, gen_opts, peer_opts, size, compute = WORKLOADS[name]
            row = dict(name=name, ranks=ranks, iters=iters, accept=accept,
                       msgs=messages(pattern, ranks, iters),
                       analytic=analytic_s(pattern, ranks, iters, size,
                                           compute))
            grid = None
            # --- Sibyl
            if sim_ok:
                trace = os.path.join(work, "t.trace")
                out = os.path.join(work, "sim.out")
                shutil.rmtree(trace, ignore_errors=True)
                shutil.rmtree(out, ignore_errors=True)
                gen = [sibyl, "trace", "gen", "-p", pattern, "-r", str(ranks),
                       "-i", str(iters)] + gen_opts
                if ranks >= 65536:
                    gen += ["--window", "16"]
                gen += ["--quiet", "--force", "-o", trace]
                print("$ " + shlex.join(gen), flush=True)
                subprocess.run(gen, check=True)
                man = json.loads(subprocess.run(
                    [sibyl, "trace", "info", "--json", trace],
                    capture_output=True, text=True, check=True).stdout)
                grid = man["manifest"].get("gen.grid")
                sim = [sibyl, "sim", trace, "-o", out, "--force",
                       "--quiet"] + SIM_SET
                print("$ " + shlex.join(sim), flush=True)
                log = os.path.join(work, "sim.log")
                st, wall, peak = run_limited(sim, log, args.sim_timeout)
                row.update(s_status=st, s_wall=wall, s_peak=peak)
                if st == "ok":
                    with open(os.path.join(out, "summary.json")) as f:
                        sm = json.load(f)
                    ev = sm["simulator"]["events"]
                    if sm["messages"]["count"] != row["msgs"]:
                        print("  warning: sibyl sim counted %d messages, the "
                              "workload has %d" % (sm["messages"]["count"],
                                                   row["msgs"]), flush=True)
                    row.update(s_events=ev, s_msgs=sm["messages"]["count"],
                               s_pred=sm["predicted_time_ps"] * 1e-12,
                               s_sim_wall=sm["simulator"].get("wall_s"),
                               s_eps=ev / wall,
                               s_mps=sm["messages"]["count"] / wall)
                    print("  sibyl: %.1f s, %.0f MiB peak, %.2fM events/s, "
                          "%.2fM msgs/s, predicted %s (analytic %s)"
                          % (wall, mib(peak), row["s_eps"] / 1e6,
                             row["s_mps"] / 1e6, fmt_time(row["s_pred"]),
                             fmt_time(row["analytic"])), flush=True)
                else:
                    print("  sibyl: %s after %.1f s\n%s"
                          % (st, wall, tail(log)), flush=True)
                shutil.rmtree(trace, ignore_errors=True)
                shutil.rmtree(out, ignore_errors=True)
            # --- SimGrid
            if peers is not None and ranks > peer_max:
                row["p_status"] = "not run (> %d ranks)" % peer_max
                print("  simgrid: not run (--peer-max-ranks %d)" % peer_max,
                      flush=True)
            elif peers is not None:
                pdir = os.path.join(work, "plat")
                plat, hosts = mkplatform.write(ranks, lat, bw, pdir)
                popts = list(peer_opts)
                if grid:
                    popts += ["--grid", grid]
                cmd = (["smpirun", "-np", str(ranks), "-platform", plat,
                        "-hostfile", hosts] + mkplatform.smpi_options(lat, bw)
                       + [peers[pattern], "--iters", str(iters)] + popts)
                shown = (["smpirun", "-np", str(ranks), "-platform",
                          "platform.xml", "-hostfile", "hostfile"]
                         + mkplatform.smpi_options(lat, bw)
                         + ["bench/peers/" + pattern, "--iters", str(iters)]
                         + popts)
                print("$ bench/peers/mkplatform.py --ranks %d\n$ %s"
                      % (ranks, shlex.join(shown)), flush=True)
                log = os.path.join(work, "peer.log")
                st, wall, peak = run_limited(cmd, log, args.peer_timeout,
                                             args.peer_mem * (1 << 30),
                                             unlimit_stack)
                row.update(p_status=st, p_wall=wall, p_peak=peak)
                m = PEER_RE.search(tail(log, 10 ** 6)) if st == "ok" else None
                if m and int(m.group(5)) != row["msgs"]:
                    print("  warning: the peer sent %s messages, the workload "
                          "has %d" % (m.group(5), row["msgs"]), flush=True)
                if m:
                    row.update(p_pred=float(m.group(4)),
                               p_msgs=int(m.group(5)),
                               p_mps=int(m.group(5)) / wall)
                    print("  simgrid: %.1f s, %.0f MiB peak, %.0f msgs/s, "
                          "predicted %s (analytic %s)"
                          % (wall, mib(peak), row["p_mps"],
                             fmt_time(row["p_pred"]),
                             fmt_time(row["analytic"])), flush=True)
                else:
                    if st == "ok":
                        row["p_status"] = "no result"
                    print("  simgrid: %s after %.1f s, %.0f MiB peak\n%s"
                          % (row["p_status"], wall, mib(peak), tail(log)),
                          flush=True)
                shutil.rmtree(pdir, ignore_errors=True)
            rows.append(row)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    # Peak memory growth of the acceptance workload from 10 to 20 iterations.
    acc = {r["iters"]: r for r in rows if r["accept"]}
    growth = {}
    if all(i in acc for i in ACCEPT_ITERS):
        a, b = acc[ACCEPT_ITERS[0]], acc[ACCEPT_ITERS[1]]
        for side in ("s", "p"):
            if a.get(side + "_status") == "ok" and \
               b.get(side + "_status") == "ok":
                growth[side] = 100.0 * (b[side + "_peak"] / a[side + "_peak"]
                                        - 1)
    for side, who in (("s", "Sibyl"), ("p", "SimGrid")):
        if side in growth:
            print("acceptance: %s peak memory %+.1f%% from %d to %d "
                  "iterations" % (who, growth[side], *ACCEPT_ITERS))

    if args.markdown:
        print()
        print("Command: `%s`" % shlex.join(
            ["bench/sim_throughput.py"] + sys.argv[1:]))
        print()
        print("| workload | ranks | iters | messages | Sibyl wall s "
              "| Sibyl peak MiB | Sibyl events/s | Sibyl msgs/s "
              "| Sibyl predicted | SimGrid wall s | SimGrid peak MiB "
              "| SimGrid msgs/s | SimGrid predicted | analytic |")
        print("|" + "---|" * 14)
        for r in rows:
            name = r["name"] + (" (acceptance)" if r["accept"] else "")
            if "s_status" not in r:
                s = ["–"] * 5
            elif r["s_status"] != "ok":
                s = [r["s_status"], "%.0f" % mib(r["s_peak"])] + ["–"] * 3
            else:
                s = ["%.2f" % r["s_wall"], "%.0f" % mib(r["s_peak"]),
                     "%.2fM" % (r["s_eps"] / 1e6),
                     "%.2fM" % (r["s_mps"] / 1e6), fmt_time(r["s_pred"])]
            if "p_status" not in r:
                p = ["–"] * 4
            elif r["p_status"] != "ok":
                peak = ("%.0f" % mib(r["p_peak"])) if "p_peak" in r else "–"
                wall = ("%s after %.0f s" % (r["p_status"], r["p_wall"])
                        if "p_wall" in r else r["p_status"])
                p = [wall, peak, "–", "–"]
            else:
                p = ["%.1f" % r["p_wall"], "%.0f" % mib(r["p_peak"]),
                     "%.0fK" % (r["p_mps"] / 1e3), fmt_time(r["p_pred"])]
            print("| %s | %d | %d | %d | %s | %s | %s |"
                  % (name, r["ranks"], r["iters"], r["msgs"], " | ".join(s),
                     " | ".join(p), fmt_time(r["analytic"])))
        if growth:
            print()
            for side, who in (("s", "Sibyl"), ("p", "SimGrid")):
                if side in growth:
                    print("Acceptance workload, %s: peak memory %+.1f%% from "
                          "%d to %d iterations." % (who, growth[side],
                                                    *ACCEPT_ITERS))
        for n in notes:
            print()
            print(n)


if __name__ == "__main__":
    main()
