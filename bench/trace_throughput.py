#!/usr/bin/env python3
"""Trace write/read throughput, check cost and size per SEB.

For each synthetic pattern and scale it runs, as separate processes,
  sibyl trace gen    (write: the generator streams SEBs into the writer)
  sibyl trace stats  (read: every window read, verified, inflated, decoded)
  sibyl trace check  (full validation incl. message matching and cycles)
and prints wall time, SEBs/s, MB/s and peak resident memory of each, the
bytes per SEB on disk, and the size BigSim's uncompressed log layout would
need for the same trace (117 bytes per SEB + 34 bytes per message entry).

  bench/trace_throughput.py [--sibyl PATH] [--scale quick|full] [--markdown]

--scale quick (default) runs 65,536 ranks; full adds 1,048,576 ranks.
Run it from a build directory or give --sibyl. Needs about 1 GB of free
disk for the full scale.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

BIGSIM_SEB = 117   # bytes per SEB in BigSim's uncompressed logs
BIGSIM_MSG = 34    # bytes per message entry

CASES = {
    "quick": [
        ("stencil3d", 65536, 10, []),
        ("kneighbor", 65536, 10, []),
        ("kneighbor", 65536, 10, ["--allreduce"]),
        ("ring", 65536, 10, []),
        ("allreduce", 65536, 10, []),
        ("random", 65536, 10, ["--fanout", "4"]),
        ("alltoall", 4096, 1, []),
    ],
    "full": [
        ("stencil3d", 1048576, 2, []),
        ("kneighbor", 1048576, 2, []),
        ("ring", 1048576, 10, []),
    ],
}


def measure(cmd):
    """Run cmd in a child python so RUSAGE_CHILDREN covers only it."""
    probe = ("import resource,subprocess,sys,time;t=time.perf_counter();"
             "r=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL);"
             "w=time.perf_counter()-t;"
             "m=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss;"
             "print(r.returncode,w,m)")
    out = subprocess.run([sys.executable, "-c", probe] + cmd,
                         capture_output=True, text=True, check=True)
    rc, wall, maxrss = out.stdout.split()
    if int(rc) != 0:
        sys.exit("benchmark command failed (exit %s): %s" % (rc, " ".join(cmd)))
    return float(wall), int(maxrss) * 1024


def mib(x):
    return x / (1 << 20)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sibyl", default="./sibyl")
    ap.add_argument("--scale", choices=["quick", "full"], default="quick")
    ap.add_argument("--markdown", action="store_true",
                    help="print a Markdown table (for bench/RESULTS.md)")
    ap.add_argument("--tmpdir", default=None)
    args = ap.parse_args()
    sibyl = os.path.abspath(args.sibyl)
    if not os.access(sibyl, os.X_OK):
        sys.exit("no sibyl driver at %s (use --sibyl)" % sibyl)

    cases = CASES["quick"] + (CASES["full"] if args.scale == "full" else [])
    work = tempfile.mkdtemp(prefix="sibyl-bench-", dir=args.tmpdir)
    rows = []
    try:
        for pattern, ranks, iters, extra in cases:
            trace = os.path.join(work, "t.trace")
            shutil.rmtree(trace, ignore_errors=True)
            gen = [sibyl, "trace", "gen", "--pattern", pattern, "--ranks",
                   str(ranks), "--iters", str(iters), "--quiet", "--force",
                   "-o", trace] + extra
            wgen, mgen = measure(gen)
            info = json.loads(subprocess.run(
                [sibyl, "trace", "info", "--json", trace],
                capture_output=True, text=True, check=True).stdout)
            tot = info["totals"]
            wrd, mrd = measure([sibyl, "trace", "stats", "--quiet", trace])
            wck, mck = measure([sibyl, "trace", "check", "--quiet", trace])
            sebs, msgs = tot["sebs"], tot["messages"]
            disk = tot["file_bytes"] + tot["manifest_bytes"]
            bigsim = BIGSIM_SEB * sebs + BIGSIM_MSG * msgs
            rows.append(dict(
                case="%s%s" % (pattern, " " + " ".join(extra) if extra else ""),
                ranks=ranks, iters=iters, sebs=sebs, msgs=msgs,
                disk=disk, raw=tot["raw_bytes"], bigsim=bigsim,
                bps=disk / sebs, bigsim_bps=bigsim / sebs,
                ratio=bigsim / disk,
                w_sebs=sebs / wgen, w_mbs=mib(disk) / wgen, w_rss=mgen,
                w_raw=mib(tot["raw_bytes"]) / wgen,
                r_sebs=sebs / wrd, r_mbs=mib(disk) / wrd, r_rss=mrd,
                r_raw=mib(tot["raw_bytes"]) / wrd,
                c_time=wck, c_rss=mck))
            r = rows[-1]
            print("%-22s %8d ranks %3d it: %5.1f B/SEB (BigSim %6.1f, %5.1fx) "
                  "write %.2fM SEB/s %.0f MiB/s, read %.2fM SEB/s, "
                  "check %.1f s %.0f MiB peak (raw %.0f MiB, BigSim %.0f MiB)"
                  % (r["case"], ranks, iters, r["bps"], r["bigsim_bps"],
                     r["ratio"], r["w_sebs"] / 1e6, r["w_mbs"],
                     r["r_sebs"] / 1e6, r["c_time"], mib(r["c_rss"]),
                     mib(r["raw"]), mib(bigsim)), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if args.markdown:
        print()
        print("| pattern | ranks | iters | SEBs | messages | bytes/SEB on disk "
              "| BigSim bytes/SEB | smaller by | write SEB/s "
              "| write MiB/s raw / disk | gen peak RSS | read SEB/s "
              "| read MiB/s raw / disk | check s | check peak RSS "
              "| raw payload | BigSim layout |")
        print("|" + "---|" * 17)
        for r in rows:
            print("| %s | %d | %d | %d | %d | %.1f | %.1f | %.1f× | %.2fM "
                  "| %.0f / %.0f | %.0f MiB | %.2fM | %.0f / %.0f | %.1f "
                  "| %.0f MiB | %.0f MiB | %.0f MiB |"
                  % (r["case"], r["ranks"], r["iters"], r["sebs"], r["msgs"],
                     r["bps"], r["bigsim_bps"], r["ratio"], r["w_sebs"] / 1e6,
                     r["w_raw"], r["w_mbs"], mib(r["w_rss"]),
                     r["r_sebs"] / 1e6, r["r_raw"], r["r_mbs"], r["c_time"],
                     mib(r["c_rss"]), mib(r["raw"]), mib(r["bigsim"])))


if __name__ == "__main__":
    main()
