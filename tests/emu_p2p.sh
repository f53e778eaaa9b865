#!/bin/sh
# The point-to-point semantics suite (tests/emu/p2p_*.c) under the
# emulator: 40 virtual ranks on 1 and on 3 processes, so peers are both in
# the same process and in others.  Each program checks itself and prints
# PASS; its trace must pass `sibyl trace check' and replay in `sibyl sim'.
# In a sanitizer build (an emulation takes seconds there) only the run on
# 3 processes is made: it has peers in the same process as well.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

for src in "$SIBYL_SRCDIR"/tests/emu/p2p_*.c; do
	name=$(basename "$src" .c)
	emu_build "$name" "$src" || continue
	nps="1 3"
	[ -n "${SIBYL_SANITIZED-}" ] && nps=3
	for np in $nps; do
		tr="$T/$name.$np.trace"
		checks=$((checks + 1))
		emu_run $np 40 "$tr" "$T/$name"
		if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS $name" "$T/out"
		then
			fail "$name on $np process(es) exited $emu_status"
			sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
			continue
		fi
		expect_ok "$SIBYL" trace check "$tr"
		expect_ok "$SIBYL" sim -q "$tr" -o "$T/$name.$np.sim"
		expect_grep '"predicted_time_ps"' "$T/$name.$np.sim/summary.json"
	done
done

# A process that reads nothing while another sends it 200,000 messages
# (tests/emu/tr_flood.c): all arrive, in order.  Without the transport's
# flow control Open MPI loses some and the run hangs.
if emu_build tr_flood "$SIBYL_SRCDIR/tests/emu/tr_flood.c"; then
	rm -f "$T/flood.flag"
	checks=$((checks + 1))
	emu_run 2 4 "$T/tr_flood.trace" "$T/tr_flood" "$T/flood.flag"
	if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS tr_flood" "$T/out"; then
		fail "tr_flood on 2 processes exited $emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
	else
		expect_ok "$SIBYL" trace check "$T/tr_flood.trace"
	fi
fi
finish
