#!/usr/bin/env python3
"""Write a SimGrid platform and hostfile matching Sibyl's simple model.

  bench/peers/mkplatform.py --ranks R [--latency 1us] [--bandwidth 10GB/s]
                            [-o DIR]

Writes DIR/platform.xml and DIR/hostfile and prints the smpirun options
to use with them.  Goal: in SMPI, a message of S bytes takes exactly
L + S/B of simulated time, whatever else is in flight -- Sibyl's simple
network model (net.latency, net.bandwidth) with machine.cores_per_node=1.

How:
- One SimGrid cluster of R hosts h0 ... h(R-1), one rank per host.  No
  backbone: a message crosses the sender's private link and the
  receiver's private link, each of latency L'/2; a rank sending to
  itself crosses its host's loopback, latency L'.
- The links do not limit bandwidth (1e18 B/s, FATPIPE).  B is imposed
  per message instead, through the TCP window bound of SimGrid's CM02
  model: a flow's rate is capped at network/TCP-gamma / (2 * route
  latency), so TCP-gamma = 2 L' B caps every message at exactly B.  A cap
  is not a shared resource, so there is no contention anywhere.
  (Two alternatives were measured and rejected: a bandwidth-B FATPIPE
  backbone puts every flow of the simulation into one max-min
  constraint, which makes SimGrid quadratic in R -- 4,096 ranks took 9
  minutes; and SimGrid 3.32 still shared a cluster's private links
  declared FATPIPE -- a stencil rank's 6 sends and 6 receives got B/12.)
- SMPI puts a 16-byte envelope on every message: S + 16 bytes cross the
  network.  The latency is lowered to compensate: L' = L - 16/B, so
  L' + (S + 16)/B = L + S/B.
- smpirun options: CM02 with every correction factor 1, no cross
  traffic, no injected MPI overheads, rendezvous for every send (a
  detached send is also kept on a list that SimGrid 3.32 scans linearly:
  quadratic again), binomial MPI_Reduce (for the peers' final reduction;
  the default is flat, quadratic), 16 KiB rank stacks from the heap with
  no guard page (one mmap per rank would hit vm.max_map_count at 64K
  ranks; 8 KiB is measured to suffice, 4 KiB crashes).
"""
import argparse
import os
import re
import sys

ENVELOPE = 16  # bytes SMPI adds to every message (tag, source, communicator)
STACK_KIB = 16

UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12,
         "ki": 1 << 10, "mi": 1 << 20, "gi": 1 << 30, "ti": 1 << 40}
TUNITS = {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


def parse_time(s):
    """'1us' -> 1e-6 (seconds)."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([a-z]*)\s*", s)
    if not m or m.group(2) not in TUNITS:
        raise ValueError("bad time %r (e.g. 1us, 500ns)" % s)
    return float(m.group(1)) * TUNITS[m.group(2)]


def parse_bw(s):
    """'10GB/s' -> 1e10, '5GiB/s' -> 5*2^30 (bytes per second)."""
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([kKmMgGtT]?i?)B/s\s*", s)
    if not m:
        raise ValueError("bad bandwidth %r (e.g. 10GB/s)" % s)
    return float(m.group(1)) * UNITS[m.group(2).lower()]


def route_latency(latency, bandwidth):
    """L' = L - 16/B, the latency the platform gets."""
    lat1 = latency - ENVELOPE / bandwidth
    if lat1 <= 0:
        raise ValueError("latency %g s is not above the time of SMPI's "
                         "%d-byte envelope at %g B/s" % (latency, ENVELOPE,
                                                         bandwidth))
    return lat1


def smpi_options(latency, bandwidth, replay=False):
    """The smpirun options that go with the platform of write()."""
    gamma = 2 * route_latency(latency, bandwidth) * bandwidth
    opts = [
        "-no-privatize",                     # the peers share their globals on purpose
        "--cfg=network/model:CM02",          # max-min, none of SMPI's piecewise factors
        "--cfg=network/latency-factor:1",
        "--cfg=network/bandwidth-factor:1",
        "--cfg=network/weight-S:0",
        "--cfg=network/crosstraffic:0",      # no reverse "ACK" flows
        "--cfg=network/TCP-gamma:%.17g" % gamma,  # per-message cap: exactly B
        "--cfg=smpi/send-is-detached-thresh:0",
        "--cfg=smpi/reduce:binomial",
        "--cfg=smpi/wtime:0",                # MPI_Wtime costs no simulated time
        "--cfg=smpi/init:0",
        "--cfg=surf/precision:1e-12",        # simulated times to the picosecond
        "--cfg=contexts/stack-size:%d" % STACK_KIB,
        "--cfg=contexts/guard-size:0",
    ]
    if not replay:
        # Only smpi_execute_benched() takes simulated time, not the real
        # CPU time of the peer's own code.  (Replay needs it on: with it
        # off, its compute actions are skipped.)
        opts.append("--cfg=smpi/simulate-computation:no")
    return opts


def write(ranks, latency, bandwidth, outdir):
    """Write outdir/platform.xml and outdir/hostfile; return their paths."""
    lat1 = route_latency(latency, bandwidth)
    os.makedirs(outdir, exist_ok=True)
    plat = os.path.join(outdir, "platform.xml")
    hosts = os.path.join(outdir, "hostfile")
    with open(plat, "w") as f:
        f.write("<?xml version='1.0'?>\n"
                "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                "<platform version=\"4.1\">\n"
                "  <!-- %d hosts for Sibyl's simple model, L = %g s, B = %g B/s:\n"
                "       latency L - %d/B (SMPI's envelope), bandwidth capped\n"
                "       per message by network/TCP-gamma (see mkplatform.py) -->\n"
                "  <cluster id=\"peers\" prefix=\"h\" suffix=\"\" "
                "radical=\"0-%d\" speed=\"1Gf\"\n"
                "           bw=\"1e18Bps\" lat=\"%.17gs\" "
                "sharing_policy=\"FATPIPE\"\n"
                "           loopback_bw=\"1e18Bps\" loopback_lat=\"%.17gs\"/>\n"
                "</platform>\n"
                % (ranks, latency, bandwidth, ENVELOPE, ranks - 1, lat1 / 2,
                   lat1))
    with open(hosts, "w") as f:
        f.write("".join("h%d\n" % i for i in range(ranks)))
    return plat, hosts


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--latency", default="1us")
    ap.add_argument("--bandwidth", default="10GB/s")
    ap.add_argument("--replay", action="store_true",
                    help="print the options for smpirun -replay")
    ap.add_argument("-o", "--outdir", default=".")
    a = ap.parse_args()
    try:
        lat, bw = parse_time(a.latency), parse_bw(a.bandwidth)
        plat, hosts = write(a.ranks, lat, bw, a.outdir)
    except ValueError as e:
        sys.exit(str(e))
    print(plat)
    print(hosts)
    print(" ".join(smpi_options(lat, bw, a.replay)))


if __name__ == "__main__":
    main()
