#!/bin/sh
# cli_noise.sh -- `sibyl noise capture' and `sibyl noise stats'.  A short
# capture of this host is checked for its format and invariants only
# (sorted, non-overlapping, inside the capture length, every detour above
# the threshold; never the amount of noise, which depends on the host),
# and is accepted by `sibyl stats' and `sibyl sim --noise'.  The
# statistics of hand-written sets are compared with figures computed by
# hand; broken sets and bad options give the documented errors.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# no_leftovers: no temporary directory of a capture is left in $T.
no_leftovers() {
	checks=$((checks + 1))
	for d in "$T"/*.tmp??????; do
		[ -e "$d" ] && fail "a temporary directory is left: $d"
	done
	return 0
}

# ------------------------------------------------------------------ help
expect_ok "$SIBYL" noise capture --help
expect_grep '^Usage: sibyl noise capture -o DIR' "$T/out"
for opt in --output --duration --threshold --cores --force --json --quiet; do
	expect_grep "$opt" "$T/out"
done
expect_ok "$SIBYL" noise stats --help
expect_grep '^Usage: sibyl noise stats' "$T/out"

# --------------------------------------------------------------- capture
# The invariants of one captured file, from its own header: detours sorted,
# not overlapping, 0 <= start, start + duration <= length, and duration +
# loop minimum > threshold (a detour is a gap above the threshold minus
# one loop iteration), except for a last detour cut at the end.
INVARIANTS='
import re, sys
path, want_len = sys.argv[1], int(sys.argv[2])
text = open(path).read()
thr = int(re.search(r"^# threshold: (\d+) ns", text, re.M).group(1))
lmin = int(re.search(r"^# loop: minimum iteration (\d+) ns", text, re.M).group(1))
n = int(re.search(r"^# detours: (\d+)$", text, re.M).group(1))
assert re.search(r"^# host: \S", text, re.M), "no host"
assert re.search(r"^# date: \d{4}-\d\d-\d\dT", text, re.M), "no date"
data = [l for l in text.splitlines() if l and not l.startswith("#")]
assert data[0] == "unit ns", data[0]
assert data[1] == "length %dns" % want_len, data[1]
end = 0
det = [tuple(map(int, l.split())) for l in data[2:]]
assert len(det) == n, (len(det), n)
for s, d in det:
    assert s >= end, ("overlap or unsorted", s, end)
    assert d > 0, ("empty detour", s, d)
    assert d + lmin > thr or s + d == want_len, ("below threshold", d, lmin, thr)
    end = s + d
assert end <= want_len, ("beyond length", end)
assert 0 < lmin < thr, (lmin, thr)
'
expect_ok "$SIBYL" noise capture -o "$T/cap" --duration 0.2s --cores 0 -q
checks=$((checks + 1))
[ "$(ls "$T/cap")" = core0 ] || fail "capture of core 0 wrote: $(ls "$T/cap")"
py "$INVARIANTS" "$T/cap/core0" 200000000
expect_grep '^# core: 0 \(hwloc PU L#0, P#[0-9]+, (bound|NOT bound)\)$' "$T/cap/core0"
expect_grep '^# threshold: 1000 ns' "$T/cap/core0"  # max(1us, 10x ~20-50ns)
no_leftovers

# Every core, a threshold of 5 us, the JSON summary.
ncpu=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
expect_ok "$SIBYL" noise capture -o "$T/cap2" -d 0.1s -t 5us --json
cp "$T/out" "$T/cap2.json"
expect_grep '^# threshold: 5000 ns' "$T/cap2/core0"
for f in "$T"/cap2/core*; do
	py "$INVARIANTS" "$f" 100000000
done
py '
import json, sys, os
j = json.load(open(sys.argv[1]))
assert j["duration_ps"] == 100000000000 and j["threshold_ps"] == 5000000
assert j["threshold_ps"] > 2 * j["loop_min_ps"] > 0
files = sorted(f for f in os.listdir(sys.argv[2]) if f != ".sibyl-output")
assert len(j["measured"]) == len(files) == j["ncores"], (j, files)
for c in j["cores"]:
    assert c["kind"] == "captured" and c["span_ps"] == 100000000000
    assert 0 <= c["fraction"] < 1
    assert c["detours"] == 0 or c["max_ps"] >= c["mean_ps"] > 0
' "$T/cap2.json" "$T/cap2"
expect_ok "$SIBYL" noise stats "$T/cap2"
expect_grep '^0 +captured ' "$T/out"
expect_grep '^total ' "$T/out"

# The simulator accepts a capture.
if "$SIBYL" sim --help 2>/dev/null | grep -q -- '--noise'; then
	gen kn -p kneighbor -r 8 -k 1 -c 1ms -i 4
	expect_ok "$SIBYL" sim -q -o "$T/kn.sim" "$T/kn.trace" --noise "$T/cap" \
		--set machine.cores_per_node=1
	expect_ok "$SIBYL" sim -q -o "$T/kn0.sim" "$T/kn.trace"
	checks=$((checks + 1))
	t0=$(jget "$T/kn0.sim/summary.json" predicted_time_ps)
	t1=$(jget "$T/kn.sim/summary.json" predicted_time_ps)
	[ "$t1" -ge "$t0" ] || fail "noise made the run shorter: $t1 < $t0"
else
	echo "cli_noise: 'sibyl sim --noise' not built; sim check skipped" >&2
fi

# ---------------------------------------------------- capture: errors
expect_exit 2 "$SIBYL" noise capture -o "$T/cap" -d 0.01s
expect_grep "'.*cap' already exists: choose another output or pass --force" "$T/err"
# 0.1 s: a core that other work holds for a whole capture (10 ms can be
# that, on a loaded host) is an error, not a capture.
expect_ok "$SIBYL" noise capture -o "$T/cap" -d 0.1s -c 0 --force -q
py "$INVARIANTS" "$T/cap/core0" 100000000
echo hello >"$T/cap/data.txt"
expect_exit 2 "$SIBYL" noise capture -o "$T/cap" -d 0.01s -c 0 --force
expect_grep "not replacing .*cap.*Sibyl did not write.*'data.txt'" "$T/err"
checks=$((checks + 1))
[ -f "$T/cap/data.txt" ] && [ -f "$T/cap/core0" ] || fail "--force removed a foreign directory"
expect_exit 2 "$SIBYL" noise capture -o "$T/x" -d 10
expect_grep "needs a unit" "$T/err"
expect_exit 2 "$SIBYL" noise capture -o "$T/x" -d 3601s
expect_grep "1us to 3600s" "$T/err"
expect_exit 2 "$SIBYL" noise capture -d 1s
expect_grep "give the noise set to write with -o DIR" "$T/err"
expect_exit 2 "$SIBYL" noise capture -o "$T/x" -c "$ncpu"
expect_grep "--cores" "$T/err"
expect_exit 2 "$SIBYL" noise capture -o "$T/x" -d 10ms -t 20ms
expect_grep "shorter than --duration" "$T/err"
# 1 ns is below two iterations of any clock_gettime loop.
expect_exit 2 "$SIBYL" noise capture -o "$T/x" -d 10ms -t 1ns -c 0
expect_grep "below 2 times the loop's minimum iteration time" "$T/err"
checks=$((checks + 1))
[ -e "$T/x" ] && fail "a failed capture left $T/x"
no_leftovers

# ------------------------------------------------ stats: pattern sets
# core0: period 1 ms, amplitude 10 us: 1000 detours/s, 1% of the time.
# core2: that plus 250 us / 5 us: 1000 + 4000 = 5000/s, 1% + 2% = 3%,
#        mean 3% / 5000 = 6 us, max 10 us.  core1: no file, no noise.
# Total over 3 cores: 6000/s, fraction (1% + 0 + 3%) / 3, mean
#        (1% + 3%) / 6000 s = 6.667 us, max 10 us.
mkdir "$T/pat"
printf '# a timer\n1ms 10us 0s\n' >"$T/pat/core0"
printf '1ms 10us 0s   # timer\n\n250us 5us 100us\n' >"$T/pat/core2"
printf 'read me\n' >"$T/pat/README"
expect_ok "$SIBYL" noise stats --json "$T/pat"
py '
import json, sys
j = json.load(open(sys.argv[1]))
c = j["cores"]
def near(a, b): return abs(a - b) <= 1e-9 * max(1, abs(b))
assert j["ncores"] == 3 and [x["kind"] for x in c] == ["pattern", "none", "pattern"], c
assert near(c[0]["detours_per_s"], 1000) and near(c[0]["fraction"], 0.01), c[0]
assert near(c[0]["mean_ps"], 10e6) and near(c[0]["max_ps"], 10e6), c[0]
assert c[0]["detours"] == 1 and c[2]["detours"] == 2, c
assert c[1]["detours_per_s"] == 0 and c[1]["fraction"] == 0, c[1]
assert near(c[2]["detours_per_s"], 5000) and near(c[2]["fraction"], 0.03), c[2]
assert near(c[2]["mean_ps"], 6e6) and near(c[2]["max_ps"], 10e6), c[2]
t = j["total"]
assert near(t["detours_per_s"], 6000) and near(t["fraction"], 0.04 / 3), t
assert near(t["mean_ps"], 0.04 / 6000 * 1e12) and near(t["max_ps"], 10e6), t
' "$T/out"
expect_ok "$SIBYL" noise stats "$T/pat"
expect_grep '^0 +pattern +1000\.0 +10\.000 us +10\.000 us +1\.0000% +1 pattern$' "$T/out"
expect_grep '^1 +none +0\.0 .* no noise$' "$T/out"
expect_grep '^2 +pattern +5000\.0 +6\.000 us +10\.000 us +3\.0000% +2 patterns$' "$T/out"
expect_grep '^total +6000\.0 +6\.667 us +10\.000 us +1\.3333% +3 cores$' "$T/out"

# ----------------------------------------------- stats: captured sets
# core0: length 10 ms, detours of 100, 300 and 200 us: 300/s, mean 200 us,
#        max 300 us, 600 us / 10 ms = 6%.
# core1: `unit us', no length: the length is the end of the last detour,
#        550 us; 2 detours: 2 / 550 us = 3636.4/s, 200 / 550 = 36.3636%.
mkdir "$T/capd"
printf 'length 10ms\n1ms 100us\n2ms 300us\n5ms 200us\n' >"$T/capd/core0"
printf '# netgauge-like\nunit us\n100 50\n400 150\n' >"$T/capd/core1"
expect_ok "$SIBYL" noise stats "$T/capd"
expect_grep '^0 +captured +300\.0 +200\.000 us +300\.000 us +6\.0000% +3 detours in 10\.000 ms$' "$T/out"
expect_grep '^1 +captured +3636\.4 +100\.000 us +150\.000 us +36\.3636% +2 detours in 550\.000 us$' "$T/out"

# --------------------------------------------------------- stats: errors
expect_exit 2 "$SIBYL" noise stats "$T/none"
expect_grep 'no such directory' "$T/err"
expect_exit 2 "$SIBYL" noise stats
mkdir "$T/bad1" "$T/bad2" "$T/bad3"
printf '1ms 10\n' >"$T/bad1/core0"
expect_exit 1 "$SIBYL" noise stats "$T/bad1"
expect_grep 'core0:1' "$T/err"
printf 'length 10ms\n2ms 100us\n1ms 100us\n' >"$T/bad2/core0"
expect_exit 1 "$SIBYL" noise stats "$T/bad2"
expect_grep 'core0:3' "$T/err"
printf '1ms 10us 0s\n' >"$T/bad3/core0"
printf 'x\n' >"$T/bad3/notes.txt"
expect_exit 1 "$SIBYL" noise stats "$T/bad3"
expect_grep 'notes.txt' "$T/err"

finish
