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

# A persistent request is recorded as the non-blocking call it stands
# for: a ring exchange (4 KiB eager and 256 KiB rendezvous messages, 10
# or 30 us of declared compute between the start and the wait) written
# with MPI_Send_init, MPI_Recv_init and MPI_Startall, and the same with
# MPI_Isend and MPI_Irecv, predict the same time to the picosecond, on
# the default machine and with rendezvous from 64 KB (where a transfer
# waits for the post of its receive: without it the prediction is 87%
# longer).
cat >"$T/ring.c" <<'PROG'
#include <mpi.h>
#include <sibyl.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	int rank, size, persistent = argc > 1 && !strcmp(argv[1], "p");
	enum { SMALL = 4096, BIG = 256 * 1024, ITERS = 20 };
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	char *s = calloc(2, BIG), *r = calloc(2, BIG);
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Request q[4];
	if (persistent) {
		MPI_Recv_init(r, SMALL, MPI_BYTE, from, 1, MPI_COMM_WORLD, &q[0]);
		MPI_Recv_init(r + BIG, BIG, MPI_BYTE, from, 2, MPI_COMM_WORLD,
			      &q[1]);
		MPI_Send_init(s, SMALL, MPI_BYTE, to, 1, MPI_COMM_WORLD, &q[2]);
		MPI_Send_init(s + BIG, BIG, MPI_BYTE, to, 2, MPI_COMM_WORLD,
			      &q[3]);
	}
	for (int i = 0; i < ITERS; i++) {
		if (persistent) {
			MPI_Startall(4, q);
		} else {
			MPI_Irecv(r, SMALL, MPI_BYTE, from, 1, MPI_COMM_WORLD,
				  &q[0]);
			MPI_Irecv(r + BIG, BIG, MPI_BYTE, from, 2,
				  MPI_COMM_WORLD, &q[1]);
			MPI_Isend(s, SMALL, MPI_BYTE, to, 1, MPI_COMM_WORLD,
				  &q[2]);
			MPI_Isend(s + BIG, BIG, MPI_BYTE, to, 2, MPI_COMM_WORLD,
				  &q[3]);
		}
		/* Overlapped: a receive is posted before this. */
		sibyl_compute(rank % 2 ? 30e-6 : 10e-6);
		MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
	}
	if (persistent)
		for (int i = 0; i < 4; i++)
			MPI_Request_free(&q[i]);
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
PROG
RDV='intranode.protocols=0: latency=1us bandwidth=1GB/s; 64KB: sync=rendezvous'
RDV_NET='0: latency=2us bandwidth=1GB/s; 64KB: sync=rendezvous'
if emu_build ring "$T/ring.c"; then
	for mode in p n; do
		checks=$((checks + 1))
		"$SIBYL" emulate -q --ranks 8 -np 2 --cpu-factor 0 --force \
			-o "$T/ring.$mode.trace" -- "$T/ring" $mode \
			>"$T/out" 2>"$T/err" ||
			fail "ring $mode exited $?: $(head -3 "$T/err")"
		expect_ok "$SIBYL" sim -q "$T/ring.$mode.trace" \
			-o "$T/ring.$mode.sim"
		# Rendezvous from 64 KB: a transfer waits for its receive's
		# post, which the trace must carry for a started one too.
		expect_ok "$SIBYL" sim -q "$T/ring.$mode.trace" \
			--set machine.cores_per_node=4 --set "$RDV" \
			--set "net.protocols=$RDV_NET" -o "$T/ring.$mode.rdv"
	done
	for sim in sim rdv; do
		p=$(sed -n 's/.*"predicted_time_ps": *\([0-9]*\).*/\1/p' \
			"$T/ring.p.$sim/summary.json")
		n=$(sed -n 's/.*"predicted_time_ps": *\([0-9]*\).*/\1/p' \
			"$T/ring.n.$sim/summary.json")
		checks=$((checks + 1))
		[ -n "$p" ] && [ "$p" = "$n" ] && [ "$p" -gt 200000000 ] ||
			fail "persistent ring predicted '$p' ps, non-blocking" \
				"'$n' ps ($sim)"
	done
fi

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
