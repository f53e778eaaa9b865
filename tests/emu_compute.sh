#!/bin/sh
# The compute-modelling API (<sibyl.h>) as the trace records it: declared
# compute (seconds and flops), SEB names, prints with virtual time, skip
# points, iteration and user markers, sample-then-replay, MPI_Wtime as
# virtual time.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

emu_build compute_api "$SIBYL_SRCDIR/tests/emu/compute_api.c" || finish

# Declared compute only: every duration is exact.
tr="$T/c0.trace"
expect_ok "$SIBYL" emulate -q --ranks 3 -np 2 --cpu-factor 0 -o "$tr" \
	-- "$T/compute_api"
expect_grep "^ran=2 wtime=0.000035000$" "$T/out"
expect_ok "$SIBYL" trace dump --pe 1 "$tr"
d="$T/out"
expect_grep '^pe 1 seb 1 "setup" 5.000 us$' "$d"
expect_grep '^    print   @5.000 us "rank 1 at 0.000005000"$' "$d"
expect_grep '^pe 1 seb 2 "sibyl_skip_begin" 0 ps$' "$d"
expect_grep '^    mark    skip_start 0$' "$d"
for i in 0 1 2; do
	expect_grep "^pe 1 seb $((3 + i)) \"sibyl_iteration\" 10.000 us\$" "$d"
	expect_grep "^    mark    iter $i\$" "$d"
done
expect_grep '^    mark    skip_end 0$' "$d"
expect_grep '^    mark    user 42$' "$d"
# The replay: 5 + 3 x 10 us; prints come out with the predicted time.
expect_ok "$SIBYL" sim -q "$tr" -o "$T/c0.sim"
expect_grep '"predicted_time_ps": 35000000,' "$T/c0.sim/summary.json"
expect_grep '^5000000 ps  PE 2  rank 2 at 0.000005000$' "$T/c0.sim/prints.txt"
# Only the skip region: the three iterations.
expect_ok "$SIBYL" sim -q "$tr" --skip -o "$T/c0s.sim"
expect_grep '"predicted_time_ps": 30000000,' "$T/c0s.sim/summary.json"

# --flop-rate changes the flops' time: 3000 flops at 1 Mflop/s = 3 ms.
expect_ok "$SIBYL" emulate -q --ranks 1 --cpu-factor 0 --flop-rate 1e6 \
	-o "$T/c1.trace" -- "$T/compute_api"
expect_grep "^ran=2 wtime=0.003032000$" "$T/out"

# Sample then replay with measured time: the block ran twice; the third
# iteration is charged the mean of the two measured runs instead.
expect_ok "$SIBYL" emulate -q --ranks 1 -o "$T/c2.trace" -- \
	"$T/compute_api"
expect_grep "^ran=2 " "$T/out"
expect_ok "$SIBYL" trace dump --json "$T/c2.trace"
python3 - "$T/out" <<'PY' || fail "the replayed iteration is not charged the sampled mean"
import json, sys
d = {s["seb"]: s["duration_ps"] for s in map(json.loads, open(sys.argv[1]))
     if s["pe"] == 0}
# SEBs 3, 4, 5: iterations 0..2 (10 us declared + the block or its mean).
a, b, c = d[3] - 10**7, d[4] - 10**7, d[5] - 10**7
mean = (a + b) / 2
sys.exit(0 if mean > 0 and 0.5 * mean <= c <= 2 * mean else 1)
PY
# A print after the thread left its core (50 ms asleep: the SEB keeps its
# CPU time) stays inside its SEB and before the next SEB's prints;
# MPI_Wtime does not count the sleep either (50 ms of wall time, a few
# microseconds of CPU time: 10 ms is far from both).
emu_build print_offcpu "$SIBYL_SRCDIR/tests/emu/print_offcpu.c" || finish
expect_ok "$SIBYL" emulate -q --ranks 2 -o "$T/p.trace" -- "$T/print_offcpu"
expect_grep '^slept 0\.00[0-9]{4}$' "$T/out"
expect_ok "$SIBYL" trace dump --json --pe 0 "$T/p.trace"
python3 - "$T/out" <<'PY' || fail "a print lies beyond the end of its SEB"
import json, sys
for s in map(json.loads, open(sys.argv[1])):
    for p in s.get("prints", []):
        if not 0 <= p["offset_ps"] <= s["duration_ps"]:
            print(s, file=sys.stderr)
            sys.exit(1)
PY
expect_ok "$SIBYL" sim -q "$T/p.trace" -o "$T/p.sim"
python3 - "$T/p.sim/prints.txt" <<'PY' || fail "the prints of rank 0 are out of order in virtual time: $(cat "$T/p.sim/prints.txt")"
import sys
t = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f[3] == "0":
        t[f[4]] = int(f[0])
sys.exit(0 if t["a"] <= t["b"] <= t["c"] else 1)
PY
finish
