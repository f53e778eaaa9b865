#!/bin/sh
# The three-stage method in Sibyl's terms (docs/variability.md): a
# profile of a 64-rank emulation that measured its compute, applied to a
# 4,096-rank emulation of the same program that declared it, reproduces
# the median duration of every code region.
#
# tests/emu/timing.c computes for real in `lognormal' mode (log-normal
# work per iteration, sigma 0.5) and declares 100 us per iteration in
# `declared' mode (sibyl_compute), so the two traces have the same code
# regions (call sites) and different durations.  The medians of the
# simulated durations (from the chrome timeline, joined with the
# regions of `sibyl trace dump') are checked against the medians of the
# measured trace: within 2% for the regions of 10 us or more.  The
# shorter ones (a few hundred ns, measured in 10 ns steps, one SEB a rank:
# 64 samples spread from 0.1 to 1.2 us, often in clusters) are held to
# the 4-sigma band of the median of 4,096 draws from those samples,
# widened by 20 ns and 2%.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found" >&2; exit 77; }

emu_build timing "$SIBYL_SRCDIR/tests/emu/timing.c" || finish

emu_run 1 64 "$T/measured.trace" "$T/timing" lognormal 40 100
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "the measured emulation exited $emu_status"
emu_run 1 4096 "$T/declared.trace" "$T/timing" declared 4 100
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "the declared emulation exited $emu_status"

expect_ok "$SIBYL" trace profile -q "$T/measured.trace" -o "$T/app.profile"
expect_grep '^region "main \(timing.c:[0-9]+\) > main \(timing.c:[0-9]+\)"$' \
	"$T/app.profile"
expect_ok "$SIBYL" sim -q "$T/declared.trace" --variability \
	"$T/app.profile" --timeline chrome -o "$T/declared.sim"
expect_ok "$SIBYL" trace dump --json "$T/measured.trace"
mv "$T/out" "$T/measured.dump"
expect_ok "$SIBYL" trace dump --json "$T/declared.trace"
mv "$T/out" "$T/declared.dump"
py '
import collections, json, statistics, sys
def regions(path):
    where, durs = {}, collections.defaultdict(list)
    for line in open(path):
        s = json.loads(line)
        where[(s["pe"], s["seb"])] = s.get("region", "")
        durs[s.get("region", "")].append(s["duration_ps"])
    return where, durs
_, measured = regions(sys.argv[1])
where, declared = regions(sys.argv[2])
start, sim = {}, collections.defaultdict(list)
for e in json.load(open(sys.argv[3]))["traceEvents"]:
    if e["ph"] == "B":
        start[e["tid"]] = (e["ts"], e["args"]["index"])
    elif e["ph"] == "E":
        ts, i = start.pop(e["tid"])
        sim[where[(e["tid"] - 1, i)]].append(round((e["ts"] - ts) * 1e6))
assert set(sim) == set(measured), (set(sim), set(measured))
bad = []
for r in sorted(sim):
    got, want = statistics.median(sim[r]), statistics.median(measured[r])
    was = statistics.median(declared[r])
    err = abs(got - want) / want
    print("%-45s %6d SEBs: median %10.3f us, measured %10.3f us (%+.2f%%), "
          "declared %10.3f us" % (r, len(sim[r]), got / 1e6, want / 1e6,
                                  100 * (got - want) / want, was / 1e6))
    # Below 10 us the host measures in 10 ns steps and a region of one
    # SEB a rank has only 64 samples: the median of m draws from them
    # then has a sampling error of its own, as wide as the samples are
    # sparse around the median (a gap between two clusters there makes
    # it wide).  Its 4-sigma band lies between the quantiles at
    # 0.5 -+ 2 / sqrt(m) (interpolated between the sorted samples, as
    # the CDF of the profile is); the simulated median must lie in it,
    # widened by 20 ns (and 2%).
    lo = hi = want
    if want < 10**7:
        xs = sorted(measured[r])
        def q(p):
            pos = min(max(p, 0.0), 1.0) * (len(xs) - 1)
            i = min(int(pos), len(xs) - 2)
            return xs[i] + (xs[i + 1] - xs[i]) * (pos - i)
        d = 2.0 / len(sim[r]) ** 0.5
        lo, hi = min(want, q(0.5 - d)) - 20000, max(want, q(0.5 + d)) + 20000
    tol = 0.02 * want
    if lo - tol <= got <= hi + tol:
        continue
    bad.append(r)
assert not bad, "regions off their measured median: %s" % bad
' "$T/measured.dump" "$T/declared.dump" "$T/declared.sim/timeline.json"
cat "$T/py.out" >&2
finish
