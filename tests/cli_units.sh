#!/bin/sh
# One parser of a duration (base/sib_units.h): the same strings give the
# same picoseconds, or are refused alike, in
#   - a machine description (--set KEY=VALUE and a config file: the
#     prediction with net.latency and intranode.latency set to the
#     string equals the one with them set to the expected picoseconds),
#   - a command-line option (sibyl trace gen --compute: the SEB's
#     duration in the trace),
#   - a noise file (a pattern's amplitude: sibyl noise stats' largest
#     detour).
# "µs" is tried with both characters a keyboard gives (U+00B5, U+03BC).
. "$SIBYL_SRCDIR/tests/lib.sh"

MICRO=$(printf '\302\265')      # U+00B5 MICRO SIGN
MU=$(printf '\316\274')         # U+03BC GREEK SMALL LETTER MU

# The trace the machine descriptions are tried on: 2 ranks exchanging a
# message, so that the prediction depends on the latencies.
expect_ok "$SIBYL" trace gen -q -p ring -r 2 -i 1 --compute 1us \
	-o "$T/ring.trace"

# sim_with VALUE [how]: the prediction (ps) with both latencies VALUE, set
# with --set (how = set) or in a config file (how = file).
sim_with() {
	if [ "${2:-set}" = file ]; then
		printf '[net]\nlatency = %s\n[intranode]\nlatency = %s\n' \
			"$1" "$1" >"$T/machine.conf"
		set -- -c "$T/machine.conf"
	else
		set -- --set "net.latency=$1" --set "intranode.latency=$1"
	fi
	"$SIBYL" sim -q "$T/ring.trace" -o "$T/sim" --force "$@" \
		>"$T/sim.out" 2>&1 || { echo fail; return; }
	sed -n 's/.*"predicted_time_ps": \([0-9]*\),.*/\1/p' \
		"$T/sim/summary.json"
}

# gen_with VALUE: the longest SEB (ps) of a trace generated with
# --compute VALUE.
gen_with() {
	"$SIBYL" trace gen -q -p ring -r 2 -i 1 --compute "$1" \
		-o "$T/gen.trace" --force >"$T/gen.out" 2>&1 ||
		{ echo fail; return; }
	"$SIBYL" trace dump --json "$T/gen.trace" | sed -n \
		's/.*"duration_ps":\([0-9]*\),.*/\1/p' | sort -n | tail -1
}

# noise_with VALUE: the largest detour (ps) of a pattern of amplitude
# VALUE.
noise_with() {
	mkdir -p "$T/noise" && printf '1000s %s 0us\n' "$1" >"$T/noise/core0"
	"$SIBYL" noise stats --json "$T/noise" >"$T/noise.out" 2>&1 ||
		{ echo fail; return; }
	sed -n 's/.*"total":.*"max_ps": \([0-9]*\),.*/\1/p' "$T/noise.out"
}

# The predictions must depend on the latency, or the comparison below
# could not fail.
checks=$((checks + 1))
[ "$(sim_with 0ps)" != "$(sim_with 1000000ps)" ] ||
	fail "the prediction does not depend on the latencies"

for case in "1us 1000000" "1${MICRO}s 1000000" "1${MU}s 1000000" \
	"2.5ns 2500" "1e3ns 1000000" "1.5E-3s 1500000000" "250ps 250" \
	"0.25ms 250000000" "7.000us 7000000" "0 0"
do
	set -- $case
	s=$1 ps=$2
	want=$(sim_with "${ps}ps")
	for how in set file; do
		checks=$((checks + 1))
		got=$(sim_with "$s" $how)
		[ "$got" = "$want" ] || { fail "config ($how) '$s': predicted \
$got ps, with ${ps}ps $want ps"; cat "$T/sim.out" >&2; }
	done
	checks=$((checks + 1))
	got=$(gen_with "$s")
	[ "$got" = "$ps" ] || { fail "trace gen --compute '$s': $got ps, \
not $ps"; cat "$T/gen.out" >&2; }
	checks=$((checks + 1))
	got=$(noise_with "$s")
	[ "$got" = "$ps" ] || { fail "noise amplitude '$s': $got ps, not \
$ps"; cat "$T/noise.out" >&2; }
done

# Refused everywhere: an unknown unit, a fraction of a picosecond, more
# than 19 significant digits, a unit without a number.
for s in 1xs 0.5ps 1.0000000000000000001s us "1${MICRO}"; do
	for how in set file; do
		checks=$((checks + 1))
		[ "$(sim_with "$s" $how)" = fail ] ||
			fail "config ($how) accepted '$s'"
	done
	checks=$((checks + 1))
	[ "$(gen_with "$s")" = fail ] ||
		fail "trace gen --compute accepted '$s'"
	checks=$((checks + 1))
	[ "$(noise_with "$s")" = fail ] || fail "a noise file accepted '$s'"
done
finish
