# hostile_overflow.sh -- values at the edge of the range of time and of
# sizes: every sum of accepted values is checked, and an overflow is an
# error naming the SEB or message and the value, never a clamped or
# wrapped result with exit status 0 (docs/outputs.md, docs/simulator.md).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

MAX=9223372036854775807

# overflows OUT ARGS...: `sim' exits 1 saying what went beyond the range
# of time, and leaves no output.
overflows() {
	o=$1; shift
	expect_exit 1 "$SIBYL" sim -q -o "$T/$o" "$@"
	expect_grep 'beyond the range of time \(2\^63-1 ps' "$T/err"
	checks=$((checks + 1))
	left=$(ls -d "$T/$o" "$T/$o".partial-* 2>/dev/null)
	[ -z "$left" ] || fail "an overflowing run left $left"
}

gen pc -p pingpong -r 2 -c 1us --iters 3

# --cpu-factor 1e18: every duration scaled beyond the range (was: a
# clamped prediction and busy 0, exit 0).
overflows cpu --cpu-factor 1e18 "$T/pc.trace"
expect_grep 'PE 0, SEB 0 \("compute"\): its end, 0 ps \+ 2\^63-1 or more ps' "$T/err"

# net.latency near 2^63 ps: the network's arrival saturates (was: the
# prediction clamped to 2^63-1 ps, exit 0).
overflows lat --set net.latency=$((MAX - 1000))ps "$T/pc.trace"
expect_grep 'message 0 of PE 0 to PE 1 \(1024 bytes, sent at 1000000 ps\): its arrival through the network' "$T/err"
# ... and the intra-node copy model.
overflows intra --set machine.cores_per_node=2 \
	--set intranode.latency=$((MAX - 1000))ps "$T/pc.trace"
expect_grep 'message 0 of PE 0 to PE 1 .*intra-node copy model' "$T/err"

# A trace whose durations add up beyond the range (trace gen refuses to
# write one, below): the end of the second SEB (was: busy -2.000 ps).
craft long <<EOF
npes 1
0 a $((MAX / 2 + 1))
0 b $((MAX / 2 + 1))
EOF
overflows long "$T/long.trace"
expect_grep 'PE 0, SEB 1 \("b"\): its end, 4611686018427387904 ps \+ 4611686018427387904 ps' "$T/err"
# A print whose offset reaches past the end of time, in an SEB that
# ends before it.
craft far <<EOF
npes 1
0 a $((MAX - 10))
0 b 5 p:50:late
EOF
overflows far "$T/far.trace"
expect_grep 'PE 0, SEB 1 \("b"\): a print' "$T/err"

# trace gen: sums of its parameters are checked (was: accepted, with the
# totals wrapped).
expect_exit 2 "$SIBYL" trace gen -q -p pingpong -r 2 -c ${MAX}ps -o "$T/g1.trace"
expect_grep 'rank 0: SEB 0: the compute of the rank adds up to 2\^63-1 ps' "$T/err"
expect_exit 2 "$SIBYL" trace gen -q -p ring -r 4 -c $((MAX / 3))ps -o "$T/g2.trace"
expect_grep 'rank 0: SEB [0-9]+: the compute of the rank' "$T/err"
expect_exit 2 "$SIBYL" trace gen -q -p pingpong -r 2 -s 18446744073709551615 \
	-o "$T/g3.trace"
expect_grep 'message 1 \(18446744073709551615 bytes\): the payload of all messages adds up to more than 2\^64-1 bytes' "$T/err"
checks=$((checks + 1))
left=$(ls -d "$T"/g?.trace* 2>/dev/null)
[ -z "$left" ] || fail "a refused trace gen left $left"
# The largest that fits is accepted, and its totals are exact.
expect_ok "$SIBYL" trace gen -p pingpong -r 2 --iters 1 -s 9223372036854775807 \
	-o "$T/g4.trace"
expect_grep '2 \(16.00 EiB of payload\)' "$T/out"

finish
