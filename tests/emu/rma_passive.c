/*
 * rma_passive.c -- one-sided communication with passive-target
 * synchronization.
 *
 * Window C holds a counter on rank 0 (and nothing elsewhere); window A
 * holds P + 4 ints on every rank, slots 0 and 1 starting as 0, the others
 * as -1.
 *   - Mutual exclusion: every rank, K times, takes rank 0's exclusive
 *     lock on C, gets the counter, flushes, puts it back plus one and
 *     unlocks; rank 0 itself does the same through its own lock.  The
 *     counter ends at K P exactly only if no two read-modify-writes
 *     interleaved.
 *   - Shared locks: every rank accumulates r + 1 (MPI_SUM) into slot 0
 *     of its right neighbour's A under a shared lock, twice, the
 *     second after MPI_Win_flush_local.
 *   - MPI_Win_lock_all: every rank puts r into slot 2 + r of rank
 *     (r + 2) mod P, fetch-and-adds 1 to slot 1 of rank P - 1 and
 *     flushes it with MPI_Win_flush_all (the fetched values are 0 ..
 *     P - 1, each once), then unlocks all.
 *   - Request-based operations, in a lock_all epoch: MPI_Rput of -r - 1
 *     into slot P + 3 of the left neighbour and MPI_Raccumulate of 1 into
 *     slot 0 of the right one (MPI_Waitall, then MPI_Win_flush_all and a
 *     barrier: every rank's are done), then MPI_Rget of the right
 *     neighbour's slot P + 3 and MPI_Rget_accumulate (MPI_NO_OP) of its
 *     slot 0, each followed by MPI_Wait.
 *   - A target that waits elsewhere: rank 0 locks rank P - 1, puts 4242
 *     into its slot P + 2, unlocks, and only then sends it a message;
 *     rank P - 1 meanwhile waits in MPI_Recv for that message, so the
 *     unlock completes only if a target serves epochs in whatever call
 *     it waits in.
 * After a barrier every rank reads its own A under its own shared lock
 * and checks every slot; rank 0 checks the counter.  With
 * MPI_ERRORS_RETURN on A (under sibylcc): a put to an unlocked target, an
 * unlock of one not locked, a second lock of the same target and a
 * lock type that is neither are MPI_ERR_RMA_SYNC and MPI_ERR_LOCKTYPE.
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emutest.h"

#define K 3

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "rma_passive", &argc, &argv);
	int P = t.size, me = t.rank;
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int right = (me + 1) % P, left = (me + P - 1) % P;
	int *a = emu_alloc(&t, (size_t)P + 4, sizeof *a);
	int counter = 0, got = -1, one = 1, mine = me + 1, fetched = -1;
	MPI_Win wa, wc;

	for (int i = 0; i < P + 4; i++)
		a[i] = -1;
	a[0] = a[1] = 0;
	MPI_Win_create(&counter, sizeof counter, sizeof counter,
		       MPI_INFO_NULL, MPI_COMM_WORLD, &wc);
	MPI_Win_create(a, (MPI_Aint)(P + 4) * (MPI_Aint)sizeof *a, sizeof *a,
		       MPI_INFO_NULL, MPI_COMM_WORLD, &wa);

	/* Mutual exclusion on rank 0's counter. */
	for (int k = 0; k < K; k++) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, wc);
		MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, wc);
		MPI_Win_flush(0, wc);
		got++;
		MPI_Put(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, wc);
		MPI_Win_unlock(0, wc);
	}

	/* Shared locks: two accumulates into the right neighbour. */
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wa);
	MPI_Accumulate(&mine, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, wa);
	MPI_Win_flush_local(right, wa);
	MPI_Accumulate(&mine, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, wa);
	MPI_Win_unlock(right, wa);

	/* Lock all: a put and a fetch-and-add. */
	MPI_Win_lock_all(0, wa);
	MPI_Put(&me, 1, MPI_INT, (me + 2) % P, 2 + me, 1, MPI_INT, wa);
	MPI_Fetch_and_op(&one, &fetched, MPI_INT, P - 1, 1, MPI_SUM, wa);
	MPI_Win_flush_all(wa);
	MPI_Win_unlock_all(wa);

	/* Request-based operations. */
	MPI_Request rq[4];
	int minus = -me - 1, got_put = 0, got_acc = 0;
	MPI_Win_lock_all(0, wa);
	MPI_Rput(&minus, 1, MPI_INT, left, P + 3, 1, MPI_INT, wa, &rq[0]);
	MPI_Raccumulate(&one, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, wa,
			&rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	MPI_Win_flush_all(wa);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Rget(&got_put, 1, MPI_INT, right, P + 3, 1, MPI_INT, wa, &rq[2]);
	MPI_Wait(&rq[2], MPI_STATUS_IGNORE);
	MPI_Rget_accumulate(NULL, 0, MPI_INT, &got_acc, 1, MPI_INT, right, 0,
			    1, MPI_INT, MPI_NO_OP, wa, &rq[3]);
	MPI_Wait(&rq[3], MPI_STATUS_IGNORE);
	MPI_Win_unlock_all(wa);
	EMU_EQ(&t, got_put, -((me + 2) % P) - 1,
	       "MPI_Rget of what MPI_Rput put");
	EMU_EQ(&t, got_acc, 2 * (me + 1) + 1, "MPI_Rget_accumulate");
	MPI_Barrier(MPI_COMM_WORLD);

	/* A target waiting in MPI_Recv serves the epoch. */
	if (me == 0) {
		int v = 4242;
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, P - 1, 0, wa);
		MPI_Put(&v, 1, MPI_INT, P - 1, P + 2, 1, MPI_INT, wa);
		MPI_Win_unlock(P - 1, wa);
		MPI_Send(&v, 1, MPI_INT, P - 1, 5, MPI_COMM_WORLD);
	}
	if (me == P - 1) {
		int v = 0;
		MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		EMU_EQ(&t, v, 4242, "the message after the unlock");
	}

	/* Every fetched value once: gather them on rank 0. */
	int *all = emu_alloc(&t, (size_t)P, sizeof *all);
	MPI_Gather(&fetched, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (me == 0) {
		int *seen = emu_alloc(&t, (size_t)P, sizeof *seen);
		memset(seen, 0, (size_t)P * sizeof *seen);
		for (int i = 0; i < P; i++)
			if (all[i] >= 0 && all[i] < P)
				seen[all[i]]++;
		for (int i = 0; i < P; i++)
			EMU_EQ(&t, seen[i], 1, "fetched value %d", i);
		free(seen);
	}
	free(all);

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_SHARED, me, 0, wa);
	EMU_EQ(&t, a[0], 2 * (left + 1) + 1, "the accumulated slot");
	EMU_EQ(&t, a[1], me == P - 1 ? P : 0, "the fetch-and-add slot");
	for (int s = 0; s < P; s++) {
		int from = (me + P - 2) % P;
		EMU_EQ(&t, a[2 + s], s == from ? from : -1, "slot %d", 2 + s);
	}
	if (me == P - 1)
		EMU_EQ(&t, a[P + 2], 4242, "the put before the message");
	EMU_EQ(&t, a[P + 3], -right - 1, "the slot of MPI_Rput");
	MPI_Win_unlock(me, wa);
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, wc);
	MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, wc);
	MPI_Win_unlock(0, wc);
	EMU_EQ(&t, got, K * P, "the counter");

#ifdef SIBYL_MPI
	int rc, cls;
	MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN);
	rc = MPI_Put(&me, 1, MPI_INT, right, 0, 1, MPI_INT, wa);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "a put without a lock");
	MPI_Request rr;
	rc = MPI_Rput(&me, 1, MPI_INT, right, 0, 1, MPI_INT, wa, &rr);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "MPI_Rput without a lock");
	rc = MPI_Win_unlock(right, wa);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "an unlock without a lock");
	rc = MPI_Win_lock(3, right, 0, wa);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_LOCKTYPE, "lock type 3");
	MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wa);
	rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wa);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "a second lock");
	MPI_Win_unlock(right, wa);
#endif
	MPI_Win_free(&wa);
	MPI_Win_free(&wc);
	free(a);
	return emu_finish(&t);
}
