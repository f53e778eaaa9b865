/*
 * rma_epochs.c -- many fence epochs in a row, each with its own pattern.
 *
 * Every rank r owns a window of P ints.  In epoch e (EPOCHS of them, the
 * fences in between asserting nothing) r puts 100000 e + r into slot r
 * of rank (r + 1 + e) mod P and, when e is odd, also of rank
 * (3 r + e) mod P unless that is the same rank; some ranks first spin a
 * while, a different set every epoch, so that the ranks reach their
 * fences at different moments and an origin may be one fence ahead of a
 * target that still receives the operations of the epoch before.  After
 * every fence each rank checks its whole window: slot s holds 100000 e +
 * s where rank s put in this epoch, and -1 (reset before the epoch)
 * everywhere else.  With P = 1 every put is the rank's own.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emutest.h"

#define EPOCHS 24

/* Whether rank s puts to rank d in epoch e. */
static int puts_to(int s, int d, int e, int P)
{
	if ((s + 1 + e) % P == d)
		return 1;
	return (e & 1) && (3 * s + e) % P == d && (s + 1 + e) % P != d;
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "rma_epochs", &argc, &argv);
	int P = t.size, me = t.rank;
	int *a = emu_alloc(&t, (size_t)P, sizeof *a);
	int *val = emu_alloc(&t, 2, sizeof *val);
	MPI_Win w;
	volatile unsigned spin = 0;

	for (int i = 0; i < P; i++)
		a[i] = -1;
	MPI_Win_create(a, (MPI_Aint)P * (MPI_Aint)sizeof *a, sizeof *a,
		       MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
	for (int e = 0; e < EPOCHS; e++) {
		if ((me * 7 + e) % 5 == 0)
			for (unsigned i = 0; i < 200000u; i++)
				spin += i;
		val[0] = val[1] = 100000 * e + me;
		int d1 = (me + 1 + e) % P, d2 = (3 * me + e) % P;
		MPI_Put(&val[0], 1, MPI_INT, d1, me, 1, MPI_INT, w);
		if (puts_to(me, d2, e, P) && d2 != d1)
			MPI_Put(&val[1], 1, MPI_INT, d2, me, 1, MPI_INT, w);
		MPI_Win_fence(0, w);
		for (int s = 0; s < P; s++) {
			int want = puts_to(s, me, e, P) ? 100000 * e + s : -1;
			EMU_EQ(&t, a[s], want, "epoch %d, slot %d", e, s);
		}
		/* Reset for the next epoch, inside this exposure: nobody
		 * writes this window before the next fence. */
		for (int i = 0; i < P; i++)
			a[i] = -1;
		MPI_Win_fence(0, w);
	}
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	MPI_Win_free(&w);
	free(a);
	free(val);
	return emu_finish(&t);
}
