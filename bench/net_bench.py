#!/usr/bin/env python3
"""Packet-level network models: simulator speed in packet-hop events.

For each workload it generates the trace with `sibyl trace gen`, runs
`sibyl sim` on it with a packet-level network model (percs or torus, at
their default parameters) and reports the wall time, the network events
(summary.json network.events: every packet crossing an injection
channel, a link or an ejection channel, plus the engine's wake-up and
credit events), the packet hops (links crossed), the packets, network
events and hops per second of wall time, the peak resident memory and
the predicted time.  The acceptance figure is network events per second
on the PERCS model (target: at least 5 million).

  bench/net_bench.py [--sibyl PATH] [--scale small|full] [--markdown]
                     [--repeat N] [--only NAMES] [--tmpdir DIR]

Workloads (all with 64 KiB messages unless said):
  a2a-percs     1,024-rank all-to-all in the PERCS order (32 ranks per
                node, one supernode), no compute: the whole network busy
  stencil-percs 65,536-rank periodic 3D stencil, 2 iterations, 100 us
                compute, on 64 PERCS supernodes (32 ranks per node)
  stencil-torus the same trace on a 32x32x64 torus, one rank per node
--scale full adds a2a-percs-256k: the all-to-all with 256 KiB messages.

The machine is usually shared: give --repeat N to run each simulation N
times; the table shows the best wall time (the rates are computed from
it) and the spread of the N runs.  Run it from a build directory or give
--sibyl.  The 65,536-rank torus run needs about 4 GiB of memory.

--simgrid adds a side-by-side run with SimGrid's SMPI (smpicc and smpirun
needed; Debian: libsimgrid-dev): the 4,096-rank stencil (2 iterations,
100 us, 64 KiB faces) on Sibyl's 16x16x16 torus and on a SimGrid cluster
of topology TORUS of the same shape (the peer bench/peers/stencil3d.c,
one rank per host), with the torus model's link bandwidth (2 GB/s) and
one link's flight time plus one router's latency (5 + 35 ns) per hop.
SimGrid shares each link's bandwidth among the flows crossing it (a
fluid model: one action per message); Sibyl moves 512-byte packets with
32-byte headers, so the two predictions differ by the headers and the
pipelining, and the wall times compare a flow-level with a packet-level
simulation of the same job.  The SMPI options are those of
bench/peers/mkplatform.py without its per-message bandwidth cap.
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

PERCS = ["--set", "machine.cores_per_node=32", "--set", "net.model=percs"]
TORUS = ["--set", "net.model=torus", "--set", "net.dims=32x32x64"]

A2A = ["-p", "alltoall", "-r", "1024", "--order", "percs", "--node-size",
       "32", "-i", "1", "-c", "0"]
STENCIL = ["-p", "stencil3d", "-r", "64Ki", "-i", "2", "-c", "100us", "-s",
           "64KiB", "--window", "16"]

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers")

# The --simgrid side by side.
SG_RANKS, SG_DIMS = 4096, (16, 16, 16)
SG_BW, SG_LAT = "2GBps", "40ns"     # torus.md defaults: 2 GB/s, 5 + 35 ns
SG_GEN = ["-p", "stencil3d", "-r", str(SG_RANKS), "-i", "2", "-c", "100us",
          "-s", "64KiB"]
SG_SIM = ["--set", "net.model=torus", "--set",
          "net.dims=%dx%dx%d" % SG_DIMS]
SG_PEER = ["--iters", "2", "--compute-us", "100", "--msg-size", "65536"]
PEER_RE = re.compile(r"^PEER .*predicted_time_s=(\S+)", re.M)

# name -> (trace name, sibyl trace gen options, sibyl sim options)
WORKLOADS = {
    "a2a-percs": ("a2a64k", A2A + ["-s", "64KiB"], PERCS),
    "stencil-percs": ("stencil", STENCIL, PERCS),
    "stencil-torus": ("stencil", STENCIL, TORUS),
    "a2a-percs-256k": ("a2a256k", A2A + ["-s", "256KiB"], PERCS),
}
SCALES = {
    "small": ["a2a-percs", "stencil-percs", "stencil-torus"],
    "full": ["a2a-percs", "stencil-percs", "stencil-torus",
             "a2a-percs-256k"],
}


def run_sim(cmd, log):
    """Run cmd, its output to the file log; (exit status, wall s, peak RSS
    bytes of it and its descendants, the output)."""
    t0 = time.perf_counter()
    with open(log, "wb") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    with open(log, errors="replace") as f:
        text = f.read()
    return os.waitstatus_to_exitcode(st), wall, ru.ru_maxrss * 1024, text


def simgrid(sibyl, work):
    """The --simgrid side by side; returns a list of table rows."""
    if not shutil.which("smpicc") or not shutil.which("smpirun"):
        print("note: smpicc/smpirun not found: no SimGrid side by side",
              file=sys.stderr)
        return []
    sys.path.insert(0, PEERS)
    sys.dont_write_bytecode = True
    import mkplatform  # bench/peers/mkplatform.py
    exe = os.path.join(work, "stencil3d")
    subprocess.run(["smpicc", "-O2", "-o", exe,
                    os.path.join(PEERS, "stencil3d.c")], check=True,
                   capture_output=True)
    plat, hosts = (os.path.join(work, "torus.xml"),
                   os.path.join(work, "hostfile"))
    with open(plat, "w") as f:
        f.write("<?xml version='1.0'?>\n"
                "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                "<platform version=\"4.1\">\n"
                "  <cluster id=\"torus\" prefix=\"h\" suffix=\"\" "
                "radical=\"0-%d\" speed=\"1Gf\"\n"
                "           topology=\"TORUS\" topo_parameters=\"%s\"\n"
                "           bw=\"%s\" lat=\"%s\" loopback_bw=\"1e18Bps\" "
                "loopback_lat=\"0s\"/>\n"
                "</platform>\n" % (SG_RANKS - 1, ",".join(map(str, SG_DIMS)),
                                    SG_BW, SG_LAT))
    with open(hosts, "w") as f:
        f.write("".join("h%d\n" % i for i in range(SG_RANKS)))
    opts = [o for o in mkplatform.smpi_options(1e-6, 1e10)
            if not o.startswith("--cfg=network/TCP-gamma")]
    rows = []
    trace = os.path.join(work, "sg.trace")
    gen = ([sibyl, "trace", "gen"] + SG_GEN +
           ["--quiet", "--force", "-o", trace])
    print("$ " + shlex.join(gen), flush=True)
    subprocess.run(gen, check=True)
    out = os.path.join(work, "sg.sim")
    sim = [sibyl, "sim", trace, "-o", out, "--force"] + SG_SIM
    print("$ " + shlex.join(sim), flush=True)
    st, wall, rss, err = run_sim(sim, os.path.join(work, "sg.log"))
    if st == 0:
        with open(os.path.join(out, "summary.json")) as f:
            pred = json.load(f)["predicted_time_ps"]
        rows.append(["Sibyl, torus model", "%.2f" % wall,
                     "%.0f MiB" % (rss / (1 << 20)), "%.3f us" % (pred / 1e6)])
    else:
        print("  failed (exit %d):\n%s" % (st, err.rstrip()), flush=True)
    cmd = (["smpirun", "-np", str(SG_RANKS), "-platform", plat,
            "-hostfile", hosts] + opts + [exe] + SG_PEER)
    print("$ " + shlex.join(["smpirun", "-np", str(SG_RANKS), "-platform",
                             "torus.xml", "-hostfile", "hostfile"] + opts +
                            ["bench/peers/stencil3d"] + SG_PEER), flush=True)
    unlimited = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
    old = resource.getrlimit(resource.RLIMIT_STACK)
    try:    # SMPI's solver recurses deeply (see sim_throughput.py)
        resource.setrlimit(resource.RLIMIT_STACK, unlimited)
    except (ValueError, OSError):
        pass
    st, wall, rss, err = run_sim(cmd, os.path.join(work, "smpi.log"))
    resource.setrlimit(resource.RLIMIT_STACK, old)
    m = PEER_RE.search(err) if st == 0 else None
    if m:
        rows.append(["SimGrid SMPI, TORUS cluster", "%.2f" % wall,
                     "%.0f MiB" % (rss / (1 << 20)),
                     "%.3f us" % (float(m.group(1)) * 1e6)])
    else:
        print("  smpirun failed (exit %d):\n%s" % (st, err[-2000:]),
              flush=True)
    for r in rows:
        print("  %s: %s s, peak %s, predicted %s" % tuple(r), flush=True)
    return rows


def print_table(head, lines, markdown):
    """A blank line, then the table: Markdown or aligned columns."""
    print()
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for ln in lines:
            print("| " + " | ".join(ln) + " |")
        return
    w = [max(len(x[i]) for x in [head] + lines) for i in range(len(head))]
    for ln in [head] + lines:
        print("  ".join(x.ljust(w[i]) for i, x in enumerate(ln)))


def mega(x):
    return "–" if x is None else "%.2fM" % (x / 1e6)


def count(x):
    return "–" if x is None else "{:,}".format(x)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sibyl", default="./sibyl")
    ap.add_argument("--scale", choices=["small", "full"], default="small")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table (for bench/RESULTS.md)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of each simulation (default 1)")
    ap.add_argument("--only", default=None,
                    help="comma-separated workload names: " +
                    ", ".join(WORKLOADS))
    ap.add_argument("--tmpdir", default=None)
    ap.add_argument("--simgrid", action="store_true",
                    help="add the side by side with SimGrid's SMPI on a "
                    "TORUS cluster (4,096 ranks)")
    args = ap.parse_args()
    sibyl = os.path.abspath(args.sibyl)
    if not os.access(sibyl, os.X_OK):
        sys.exit("no sibyl driver at %s (use --sibyl)" % sibyl)
    if args.repeat < 1:
        sys.exit("--repeat must be at least 1")
    names = SCALES[args.scale]
    if args.only:
        names = args.only.split(",")
        for n in names:
            if n not in WORKLOADS:
                sys.exit("unknown workload '%s' (one of %s)"
                         % (n, ", ".join(WORKLOADS)))

    work = tempfile.mkdtemp(prefix="sibyl-netbench-", dir=args.tmpdir)
    rows, sg_rows = [], []
    try:
        traces = {}
        for name in names:
            tname, gen_opts, sim_opts = WORKLOADS[name]
            trace = os.path.join(work, tname + ".trace")
            if tname not in traces:
                gen = ([sibyl, "trace", "gen"] + gen_opts +
                       ["--quiet", "--force", "-o", trace])
                print("$ " + shlex.join(gen), flush=True)
                subprocess.run(gen, check=True)
                traces[tname] = trace
            out = os.path.join(work, "sim.out")
            sim = [sibyl, "sim", trace, "-o", out, "--force"] + sim_opts
            print("$ " + shlex.join(sim), flush=True)
            walls, peak, sm = [], 0, None
            for _ in range(args.repeat):
                st, wall, rss, err = run_sim(sim, os.path.join(work,
                                                               "sim.log"))
                if st != 0:
                    print("  failed (exit %d):\n%s" % (st, err.rstrip()),
                          flush=True)
                    break
                walls.append(wall)
                peak = max(peak, rss)
                with open(os.path.join(out, "summary.json")) as f:
                    sm = json.load(f)
                shutil.rmtree(out, ignore_errors=True)
                print("  %.2f s" % wall, flush=True)
            if not walls:
                rows.append(dict(name=name, failed=True))
                continue
            net = sm["network"]
            best = min(walls)
            ev = net.get("events")      # absent before Sibyl counted them
            row = dict(name=name, failed=False, wall=best, lo=best,
                       hi=max(walls), n=len(walls), events=ev,
                       hops=net["hops"], packets=net["packets"],
                       eps=ev / best if ev is not None else None,
                       hps=net["hops"] / best, peak=peak,
                       pred=sm["predicted_time_ps"])
            rows.append(row)
            print("  %s: best %.2f s of %d (up to %.2f s), %s network "
                  "events/s, %s hops/s, peak %.0f MiB, predicted %d ps"
                  % (name, best, len(walls), row["hi"], mega(row["eps"]),
                     mega(row["hps"]), peak / (1 << 20), row["pred"]),
                  flush=True)
        if args.simgrid:
            sg_rows = simgrid(sibyl, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    head = ["workload", "wall s (best; spread)", "network events", "hops",
            "packets", "events/s", "hops/s", "peak RSS", "predicted ps"]
    lines = []
    for r in rows:
        if r["failed"]:
            lines.append([r["name"], "failed"] + [""] * (len(head) - 2))
            continue
        spread = ("%.2f" % r["wall"] if r["n"] == 1 else
                  "%.2f (%.2f–%.2f, %d runs)" % (r["wall"], r["lo"],
                                                 r["hi"], r["n"]))
        lines.append([r["name"], spread, count(r["events"]),
                      count(r["hops"]), count(r["packets"]), mega(r["eps"]),
                      mega(r["hps"]), "%.0f MiB" % (r["peak"] / (1 << 20)),
                      count(r["pred"])])
    print_table(head, lines, args.markdown)
    if sg_rows:
        print_table(["4,096-rank stencil, 16x16x16 torus", "wall s",
                     "peak RSS", "predicted"], sg_rows, args.markdown)


if __name__ == "__main__":
    main()
