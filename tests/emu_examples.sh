#!/bin/sh
# The example programs are plain MPI: built unchanged with Open MPI's
# mpicc (run natively) and with sibylcc (emulated), they print the same
# results, and their traces pass `sibyl trace check' and replay in
# `sibyl sim'.  Lines starting with "time:" are timings and differ.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"
command -v mpicc >/dev/null && command -v mpirun >/dev/null || {
	echo "mpicc/mpirun not found" >&2
	exit 77
}

# example NAME NATIVE_RANKS ARGS...
example() {
	name=$1 n=$2
	shift 2
	checks=$((checks + 1))
	if ! mpicc -O1 "$SIBYL_SRCDIR/examples/$name.c" -o "$T/$name.native" \
		2>"$T/err"; then
		fail "mpicc could not build $name.c"
		return
	fi
	emu_build "$name" "$SIBYL_SRCDIR/examples/$name.c" || return
	checks=$((checks + 1))
	if ! mpirun --allow-run-as-root --oversubscribe -np "$n" \
		"$T/$name.native" "$@" >"$T/native.out" 2>"$T/err"; then
		fail "$name did not run natively"
		return
	fi
	grep -v '^time:' "$T/native.out" >"$T/native.res"
	[ -s "$T/native.res" ] || fail "$name printed no result natively"
	for np in 1 2; do
		tr="$T/$name.$np.trace"
		emu_run $np "$n" "$tr" "$T/$name" "$@"
		checks=$((checks + 1))
		if [ "$emu_status" -ne 0 ]; then
			fail "$name did not emulate on $np process(es)"
			sed 's/^/  | /' "$T/err" | head >&2
			continue
		fi
		grep -v '^time:' "$T/out" >"$T/emu.res"
		cmp -s "$T/native.res" "$T/emu.res" || {
			fail "$name: emulated on $np process(es) differs"
			diff "$T/native.res" "$T/emu.res" | head >&2
		}
		expect_ok "$SIBYL" trace check "$tr"
		expect_ok "$SIBYL" sim -q "$tr" -o "$T/$name.$np.sim" --force
	done
}

example pingpong 4 4096 20 10
example pingpong 3 200000 5 0
example ring 6 4 1000
example kneighbor 8 2048 4 2 50
finish
