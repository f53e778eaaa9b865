# simlib.sh -- what the `sibyl sim' tests share; sourced after lib.sh.
#
# Skips the test (exit 77) when python3, which crafts traces and reads
# JSON, is missing.  Notation of the expected times: L = net.latency,
# B = net.bandwidth (bytes/s), X(n) = ceil(n * 10^12 / B).
command -v python3 >/dev/null 2>&1 || {
	echo "$(basename "$0" .sh): python3 not found; skipping" >&2
	exit 77
}
MKTRACE="$SIBYL_SRCDIR/tests/data/mktrace.py"

# gen NAME ARGS...: generate $T/NAME.trace with `sibyl trace gen'.
gen() {
	name=$1; shift
	rm -rf "$T/$name.trace"
	expect_ok "$SIBYL" trace gen -q -o "$T/$name.trace" "$@"
}

# craft NAME < DESCRIPTION: write $T/NAME.trace with tests/data/mktrace.py.
craft() {
	rm -rf "$T/$1.trace"
	python3 "$MKTRACE" "$T/$1.trace" || fail "mktrace $1 failed"
}

# jget FILE [OBJ.]KEY: a number or string of summary.json, KEY at the top
# level or inside the object OBJ (the objects of summary.json hold no
# nested objects, so `pes.busy_ps.max' is read as `busy_ps.max').  Plain
# text tools, because a python3 start per run would double the run time.
jget() {
	case $2 in
	*.*)	o=${2%.*}; o=${o##*.}
		tr -d '\n' <"$1" | grep -o "\"$o\": *{[^}]*}" ;;
	*)	tr -d '\n' <"$1" ;;
	esac | grep -o "\"${2##*.}\": *[^,}]*" | head -n 1 |
		sed 's/^[^:]*: *//; s/ *$//'
}

# expect_eq GOT WANT WHAT
expect_eq() {
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# xfer N B: ceil(N * 10^12 / B), the time of N bytes at B bytes/s.
xfer() { echo $((($1 * 1000000000000 + $2 - 1) / $2)); }

# expect_time WANT WHAT TRACE [SIM ARGS...]: simulate $T/TRACE.trace and
# compare predicted_time_ps with WANT.  The outputs stay in $T/last.sim.
expect_time() {
	w_ps=$1; what=$2; tr=$3; shift 3
	rm -rf "$T/last.sim"
	expect_ok "$SIBYL" sim -q -o "$T/last.sim" "$T/$tr.trace" "$@"
	expect_eq "$(jget "$T/last.sim/summary.json" predicted_time_ps)" \
		"$w_ps" "$what ($tr $*)"
}
