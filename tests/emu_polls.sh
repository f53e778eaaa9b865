#!/bin/sh
# emu_polls.sh -- a wait by polling writes two SEBs per message, not one
# per poll (emulator/record.c, "Polls"): rank 0 receives 21 messages
# from rank 1, which sleeps 2 ms before each, polling with MPI_Test,
# MPI_Testany and MPI_Iprobe in turn, on 2 processes; rank 0's trace
# holds at most 2 SEBs per message and 4 more (the first SEB, the print,
# MPI_Finalize), it checks, and it replays.  The data of every message
# arrives.  A poll that finds nothing parks the rank until something
# happens to it (emulator/sched.c, "Parked pollers"): some tens of polls
# per message at most (a nap of up to 1 ms between two while the process
# has nothing else to run), where a rank that took a turn per poll made
# thousands.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found" >&2; exit 77; }

cat >"$T/poll.c" <<'PROG'
#include <mpi.h>
#include <stdio.h>
#include <time.h>
enum { N = 21 };
int main(int argc, char **argv)
{
	int rank, x = -1, wrong = 0;
	long polls = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < N; i++) {
		if (rank == 1) {
			struct timespec ts = { 0, 2000000 };
			nanosleep(&ts, NULL);
			MPI_Send(&i, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
			continue;
		}
		if (rank != 0)
			continue;
		MPI_Request q;
		int flag = 0, idx;
		switch (i % 3) {
		case 0:
			MPI_Irecv(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD, &q);
			do {
				MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
				polls++;
			} while (!flag);
			break;
		case 1:
			MPI_Irecv(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD, &q);
			do {
				MPI_Testany(1, &q, &idx, &flag,
					    MPI_STATUS_IGNORE);
				polls++;
			} while (!flag);
			break;
		default:
			do {
				MPI_Iprobe(1, i, MPI_COMM_WORLD, &flag,
					   MPI_STATUS_IGNORE);
				polls++;
			} while (!flag);
			MPI_Recv(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
		wrong += x != i;
	}
	if (rank == 0)
		printf("polls %ld wrong %d\n", polls, wrong);
	MPI_Finalize();
	return 0;
}
PROG
emu_build poll "$T/poll.c" || finish
emu_run 2 2 "$T/poll.trace" "$T/poll"
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "poll.c exited $emu_status"
expect_grep '^polls [0-9]+ wrong 0$' "$T/out"
polls=$(sed -n 's/^polls \([0-9]*\) .*/\1/p' "$T/out")
expect_ok "$SIBYL" trace check "$T/poll.trace"
expect_ok "$SIBYL" trace dump --json "$T/poll.trace"
checks=$((checks + 1))
sebs=$(grep -c '"pe": *0,' "$T/out")
# 2 per message, and 4 more.
[ "$sebs" -le $((2 * 21 + 4)) ] ||
	fail "rank 0 wrote $sebs SEBs for 21 messages and $polls polls"
checks=$((checks + 1))
[ "$polls" -le $((21 * 50)) ] ||
	fail "rank 0 polled $polls times for 21 messages: a poll that finds nothing should park it until one comes"
echo "rank 0: $sebs SEBs, $polls polls" >&2
expect_ok "$SIBYL" sim -q "$T/poll.trace" -o "$T/poll.sim"
finish
