#!/usr/bin/env python3
"""Write a SimGrid time-independent (TI) trace of a Sibyl pattern.

  bench/peers/gen_ti.py PATTERN --ranks R [--iters I] [--msg-size S]
                        [--compute-us T] [--neighbors K] [--grid X,Y,Z]
                        [--flops F] -o DIR

The same message pattern as the compiled peers (stencil3d.c,
kneighbor.c, alltoall.c), as actions for SMPI's replay:
  smpirun -np R -platform P -hostfile H [options] -replay DIR/list
DIR/list names one shared action file, DIR/actions.txt, whose lines are
"rank action args", iteration by iteration.  Compute is given in flops:
T seconds times --flops, the host speed of the platform (1 Gf/s by
mkplatform.py).  Unlike the compiled peers, replay needs
smpi/simulate-computation left on (its default), or the compute actions
are skipped.
"""
import argparse
import os
import sys


def default_grid(r):
    best = None
    z = 1
    while z * z * z <= r:
        if r % z == 0:
            y = z
            while y * y <= r // z:
                if (r // z) % y == 0:
                    x = r // z // y
                    if best is None or x + y + z < sum(best):
                        best = (x, y, z)
                y += 1
        z += 1
    return best


def stencil(p, g):
    X, Y, Z = g
    x, y, z = p % X, p // X % Y, p // X // Y
    return [(x + 1) % X + X * (y + Y * z), (x - 1) % X + X * (y + Y * z),
            x + X * ((y + 1) % Y + Y * z), x + X * ((y - 1) % Y + Y * z),
            x + X * (y + Y * ((z + 1) % Z)), x + X * (y + Y * ((z - 1) % Z))]


def write(pattern, r, iters, size, compute_s, k, grid, flops, out):
    fl = "%.17g" % (compute_s * flops)
    w = out.write
    for p in range(r):
        w("%d init\n" % p)
    nbr = {}
    for it in range(iters):
        for p in range(r):
            if pattern == "stencil3d":
                nb = nbr.get(p) or stencil(p, grid)
                for j in range(6):
                    w("%d irecv %d %d %d\n" % (p, nb[j ^ 1], j, size))
                w("%d compute %s\n" % (p, fl))
                for j in range(6):
                    w("%d isend %d %d %d\n" % (p, nb[j], j, size))
                w("%d waitall\n" % p)
            elif pattern == "kneighbor":
                for d in range(1, k + 1):
                    w("%d irecv %d %d %d\n" % (p, (p - d) % r, 2 * d, size))
                    w("%d irecv %d %d %d\n" % (p, (p + d) % r, 2 * d + 1, size))
                w("%d compute %s\n" % (p, fl))
                for d in range(1, k + 1):
                    w("%d isend %d %d %d\n" % (p, (p + d) % r, 2 * d, size))
                    w("%d isend %d %d %d\n" % (p, (p - d) % r, 2 * d + 1, size))
                w("%d waitall\n" % p)
            else:
                # alltoall: a chain, receive of phase i-1 then send of phase i
                w("%d compute %s\n" % (p, fl))
                w("%d isend %d 0 %d\n" % (p, (p + 1) % r, size))
                for i in range(2, r):
                    w("%d recv %d 0 %d\n" % (p, (p - i + 1) % r, size))
                    w("%d isend %d 0 %d\n" % (p, (p + i) % r, size))
                w("%d recv %d 0 %d\n" % (p, (p - r + 1) % r, size))
                w("%d waitall\n" % p)
    for p in range(r):
        w("%d finalize\n" % p)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pattern", choices=["stencil3d", "kneighbor", "alltoall"])
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--msg-size", type=int, default=1024)
    ap.add_argument("--compute-us", type=float, default=1000)
    ap.add_argument("--neighbors", type=int, default=4)
    ap.add_argument("--grid")
    ap.add_argument("--flops", type=float, default=1e9)
    ap.add_argument("-o", "--outdir", required=True)
    a = ap.parse_args()
    grid = None
    if a.pattern == "stencil3d":
        grid = (tuple(int(v) for v in a.grid.split(",")) if a.grid
                else default_grid(a.ranks))
        if grid[0] * grid[1] * grid[2] != a.ranks:
            sys.exit("grid does not hold %d ranks" % a.ranks)
    os.makedirs(a.outdir, exist_ok=True)
    act = os.path.join(a.outdir, "actions.txt")
    with open(act, "w") as f:
        write(a.pattern, a.ranks, a.iters, a.msg_size, a.compute_us * 1e-6,
              a.neighbors, grid, a.flops, f)
    with open(os.path.join(a.outdir, "list"), "w") as f:
        f.write(os.path.abspath(act) + "\n")
    print(os.path.join(a.outdir, "list"))


if __name__ == "__main__":
    main()
