#!/bin/sh
# sim_rendezvous.sh -- protocol ranges with sync=rendezvous, on emulated
# traces (format 1.2: where receives were posted, when sends completed),
# against closed forms (fastsim/SEMANTICS.md section 3).
#
# Rank 0 sends N = 10,000 bytes to rank 1; compute is declared
# (--cpu-factor 0), so every SEB lasts exactly what the program says.
# The range: latency 1 us, 1 GB/s (X = 10 us), os 2 us, or 3 us.
#
#   late    rank 1 computes 50 us, then MPI_Recv; rank 0 MPI_Send, then
#           computes 100 us.
#           eager: rank 0 is held by os only: 2 + 100 = 102 us.
#           rendezvous: the request is there at 3 us, the receive is
#           posted at 50 us, the data leaves then and is out at 60 us;
#           rank 0's SEB after MPI_Send waits for that: 60 + 100 = 160 us.
#   early   rank 1 MPI_Irecv, computes 50 us, MPI_Wait; rank 0 computes
#           10 us, MPI_Send, computes 100 us.
#           rendezvous: posted at 0 (the SEB that ended at MPI_Irecv), the
#           request comes at 10 + 2 + 1 = 13 us, the data is out at 23 us:
#           123 us (160 us if the post point were the MPI_Wait's).
#           eager: 10 + 2 + 100 = 112 us.
#   isend   rank 0 MPI_Isend, computes 30 us, MPI_Wait, computes 100 us;
#           rank 1 computes 50 us, MPI_Recv.
#           rendezvous: the data is out at 60 us; the MPI_Wait's SEB
#           waits for it: 60 + 100 = 160 us (the 30 us overlap it).
#           eager: 2 + 30 + 100 = 132 us.
#   unsafe  both ranks MPI_Send, then MPI_Recv.
#           eager: each message arrives at 2 + 1 + 10 + 3 = 16 us, where
#           both receives end; rendezvous: nothing is ever posted, a
#           deadlock.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

cat >"$T/rdv.c" <<'PROG'
#include <mpi.h>
#include <sibyl.h>
#include <string.h>
#define N 10000
static char buf[N];
int main(int argc, char **argv)
{
	int rank;
	MPI_Request q;
	const char *mode = argc > 1 ? argv[1] : "late";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(mode, "late")) {
		if (rank == 0) {
			MPI_Send(buf, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			sibyl_compute(100e-6);
		} else {
			sibyl_compute(50e-6);
			MPI_Recv(buf, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "early")) {
		if (rank == 0) {
			sibyl_compute(10e-6);
			MPI_Send(buf, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			sibyl_compute(100e-6);
		} else {
			MPI_Irecv(buf, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &q);
			sibyl_compute(50e-6);
			MPI_Wait(&q, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "window")) {
		/* osu_bw's window: 8 messages in flight at once. */
		MPI_Request w[8];
		for (int i = 0; i < 8; i++)
			if (rank == 0)
				MPI_Isend(buf, N, MPI_CHAR, 1, i,
					  MPI_COMM_WORLD, &w[i]);
			else
				MPI_Irecv(buf, N, MPI_CHAR, 0, i,
					  MPI_COMM_WORLD, &w[i]);
		MPI_Waitall(8, w, MPI_STATUSES_IGNORE);
	} else if (!strcmp(mode, "unsafe")) {
		/* Both send first: it completes only if MPI buffers. */
		MPI_Send(buf, N, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD);
		MPI_Recv(buf, N, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		if (rank == 0) {
			MPI_Isend(buf, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &q);
			sibyl_compute(30e-6);
			MPI_Wait(&q, MPI_STATUS_IGNORE);
			sibyl_compute(100e-6);
		} else {
			sibyl_compute(50e-6);
			MPI_Recv(buf, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	}
	MPI_Finalize();
	return 0;
}
PROG
emu_build rdv "$T/rdv.c" || finish
for mode in late early isend unsafe window; do
	expect_ok "$SIBYL" emulate -q --ranks 2 --cpu-factor 0 --force \
		-o "$T/$mode.trace" -- "$T/rdv" "$mode"
done

RANGE='0: latency=1us bandwidth=1GB/s os=2us or=3us'
ONE="--set machine.cores_per_node=2"
# expect_mode MODE EAGER_US RENDEZVOUS_US: inside a node, then across
# nodes with the same range in net.protocols (no per-packet cost).
expect_mode() {
	expect_time "$(($2 * 1000000))" "$1, eager" "$1" $ONE \
		--set "intranode.protocols=$RANGE"
	expect_time "$(($3 * 1000000))" "$1, rendezvous" "$1" $ONE \
		--set "intranode.protocols=$RANGE sync=rendezvous"
	expect_time "$(($3 * 1000000))" "$1, rendezvous across nodes" \
		"$1" --set "net.protocols=$RANGE sync=rendezvous"
}
expect_mode late 102 160
expect_mode early 112 123
expect_mode isend 132 160

# Only the range the message falls in counts.  A range takes the copy
# model's own values for the keys it does not give (intranode.latency
# 200 ns, 10 GB/s: X = 1 us, no overheads): rendezvous from 8 KB with
# those, the data leaves at 50 us and is out at 51 us.
expect_time 102000000 "late, rendezvous from 16 KB" late $ONE \
	--set "intranode.protocols=$RANGE; 16KB: sync=rendezvous"
expect_time 151000000 "late, rendezvous from 8 KB" late $ONE \
	--set "intranode.protocols=$RANGE; 8KB: sync=rendezvous"

# A trace before 1.2 has no done lists: the sender is not held; the
# receiver still waits for the data (posted at 50 us: 50 + 10 + 3 us).
gen pp -p pingpong -r 2 -i 1 -s 10000 --compute 50us
expect_ok "$SIBYL" sim -q -o "$T/g.sim" "$T/pp.trace" $ONE \
	--set "intranode.protocols=$RANGE sync=rendezvous"

# Both ranks send before they receive: eager, the sends complete; under
# rendezvous nothing is ever posted, and the replay says the program
# deadlocks there, naming the sends.
expect_time 16000000 "unsafe, eager" unsafe $ONE \
	--set "intranode.protocols=$RANGE"
expect_exit 1 "$SIBYL" sim -q -o "$T/u.sim" "$T/unsafe.trace" $ONE \
	--set "intranode.protocols=$RANGE sync=rendezvous"
expect_grep "deadlocks under the machine's sync=rendezvous ranges" "$T/err"
expect_grep "PE 1, SEB .* waits for 1 message or completion" "$T/err"
expect_grep "the completion of its send 0: a rendezvous message" "$T/err"

# intranode.serialize: 8 messages sent at once into one rank arrive one
# copy after another.  The copy model without a table (200 ns, 10 GB/s:
# X = 1 us): overlapping, all are in at 1.2 us; serialized, the last at
# 0.2 + 8 us.
expect_time 1200000 "window, copies overlap" window $ONE
expect_time 8200000 "window, copies serialized" window $ONE \
	--set intranode.serialize=yes
# A turn shorter than the copy (100 ns + 10,000 bytes at 20 GB/s =
# 0.6 us, from intranode.stream's range of the size): the copies start
# 0.6 us apart, each lasts 1 us: the last is in at 0.2 + 7 x 0.6 + 1 us.
expect_time 5400000 "window, turns of 0.6 us" window $ONE \
	--set intranode.serialize=yes \
	--set 'intranode.stream=0: latency=1us; 8KB: latency=100ns bandwidth=20GB/s'
# Below 16 KB the first range's turn: 1 us + the copy at 10 GB/s, 2 us:
# 0.2 + 7 x 2 + 1 us.
expect_time 15200000 "window, turns of 2 us" window $ONE \
	--set intranode.serialize=yes \
	--set 'intranode.stream=0: latency=1us; 16KB: latency=100ns'
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/window.trace" $ONE \
	--set 'intranode.stream=0: os=1us'
expect_grep "intranode.stream: range 1: only latency and bandwidth" "$T/err"
# Rendezvous, serialized: each message's data leaves when the request is
# there (3 us) and the copies queue: 3 + 8 x 10 us + or 3 us.
expect_time 86000000 "window, rendezvous, serialized" window $ONE \
	--set "intranode.protocols=$RANGE sync=rendezvous" \
	--set intranode.serialize=yes

# Bad values are refused with the key named.
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/late.trace" $ONE \
	--set "intranode.protocols=0: sync=maybe"
expect_grep "sync" "$T/err"
finish
