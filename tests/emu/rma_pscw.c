/*
 * rma_pscw.c -- one-sided communication in epochs of general active
 * target synchronization (MPI_Win_post, start, complete, wait, test).
 *
 * Window of 4 + BIG ints per rank (slot i < 4 of rank r starts as
 * 100 r + i).  Round 1, a ring: every rank exposes its window to its left
 * neighbour and accesses its right neighbour's: it puts r + 1 into slot
 * 0 there, gets slot 1, adds r (MPI_SUM) to slot 2, and puts BIG ints
 * (80 KB: more than Sibyl sends eagerly, so the put's message leaves
 * only once its target takes it) after slot 3; after MPI_Win_complete the
 * get's value is there, after MPI_Win_wait the window holds what the left
 * neighbour did.  Round 2, a star: rank 0 exposes its window to every
 * other rank, which accumulates r + 1 into rank 0's slot 3 and
 * fetch-and-adds 1 to its slot 1; rank 0 polls MPI_Win_test until it
 * says the epoch is over, then checks the sum and the counter; the
 * tickets the others got are 0 .. size-2 (slot 1 was reset to 0), each
 * once.  Then a rank whose access group leaves out a target gets
 * MPI_ERR_RMA_SYNC for an operation on it, with MPI_ERRORS_RETURN on the
 * window (the class Sibyl gives; natively only a failure is required).
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emutest.h"

#define N 4
#define BIG 20000

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "rma_pscw", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return emu_finish(&t);
	int P = t.size, me = t.rank;
	int right = (me + 1) % P, left = (me + P - 1) % P;
	int *a = NULL;
	MPI_Win w;
	MPI_Win_allocate((N + BIG) * sizeof(int), sizeof(int), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &a, &w);
	for (int i = 0; i < N; i++)
		a[i] = 100 * me + i;
	int *big = emu_alloc(&t, BIG, sizeof *big);
	for (int k = 0; k < BIG; k++) {
		big[k] = 7 * me + k;
		a[N + k] = -1;
	}
	MPI_Group world, lg, rg, zero, others;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &left, &lg);
	MPI_Group_incl(world, 1, &right, &rg);
	int z = 0;
	MPI_Group_incl(world, 1, &z, &zero);
	MPI_Group_excl(world, 1, &z, &others);

	/* Round 1: the ring. */
	int one = me + 1, got = -1;
	MPI_Win_post(lg, 0, w);
	MPI_Win_start(rg, 0, w);
	MPI_Put(&one, 1, MPI_INT, right, 0, 1, MPI_INT, w);
	MPI_Get(&got, 1, MPI_INT, right, 1, 1, MPI_INT, w);
	MPI_Accumulate(&me, 1, MPI_INT, right, 2, 1, MPI_INT, MPI_SUM, w);
	MPI_Put(big, BIG, MPI_INT, right, N, BIG, MPI_INT, w);
	MPI_Win_complete(w);
	EMU_EQ(&t, got, 100 * right + 1, "got from rank %d", right);
	MPI_Win_wait(w);
	EMU_EQ(&t, a[0], left + 1, "put by rank %d", left);
	EMU_EQ(&t, a[1], 100 * me + 1, "slot 1");
	EMU_EQ(&t, a[2], 100 * me + 2 + left, "accumulated by rank %d", left);
	EMU_EQ(&t, a[3], 100 * me + 3, "slot 3");
	int bad = 0;
	for (int k = 0; k < BIG; k++)
		bad += a[N + k] != 7 * left + k;
	EMU_EQ(&t, bad, 0, "ints of the large put that differ");
	free(big);

	/* Round 2: the star, rank 0 polling. */
	if (me == 0)
		a[1] = 0;
	int ticket = -1, inc = 1;
	if (me == 0) {
		MPI_Win_post(others, 0, w);
		int flag = 0, polls = 0;
		while (!flag) {
			MPI_Win_test(w, &flag);
			polls++;
		}
		EMU_TRUE(&t, polls >= 1, "polls");
		EMU_EQ(&t, a[3], 3 + P * (P + 1) / 2 - 1,
		       "the sum accumulated into rank 0");
		EMU_EQ(&t, a[1], P - 1, "the counter");
	} else {
		MPI_Win_start(zero, 0, w);
		MPI_Accumulate(&one, 1, MPI_INT, 0, 3, 1, MPI_INT, MPI_SUM,
			       w);
		MPI_Fetch_and_op(&inc, &ticket, MPI_INT, 0, 1, MPI_SUM, w);
		MPI_Win_complete(w);
	}
	int *tickets = emu_alloc(&t, (size_t)P, sizeof *tickets);
	MPI_Gather(&ticket, 1, MPI_INT, tickets, 1, MPI_INT, 0,
		   MPI_COMM_WORLD);
	if (me == 0) {
		char *seen = emu_alloc(&t, (size_t)P, 1);
		for (int i = 1; i < P; i++)
			if (EMU_TRUE(&t, tickets[i] >= 0 &&
				     tickets[i] < P - 1 && !seen[tickets[i]],
				     "rank %d's ticket %d", i, tickets[i]))
				seen[tickets[i]] = 1;
		free(seen);
	}
	free(tickets);

	/* An operation on a rank outside the access group. */
	MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
	MPI_Win_post(lg, 0, w);
	MPI_Win_start(rg, 0, w);
	if (P > 2) {
		int rc = MPI_Put(&one, 1, MPI_INT, left, 0, 1, MPI_INT, w),
			cls;
		MPI_Error_class(rc, &cls);
		EMU_TRUE(&t, rc != MPI_SUCCESS, "a put outside the access "
			 "group succeeded");
#ifdef SIBYL_MPI
		EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "class of a put outside "
		       "the access group");
#endif
	}
	MPI_Win_complete(w);
	MPI_Win_wait(w);

	MPI_Group_free(&world);
	MPI_Group_free(&lg);
	MPI_Group_free(&rg);
	MPI_Group_free(&zero);
	MPI_Group_free(&others);
	MPI_Win_free(&w);
	return emu_finish(&t);
}
