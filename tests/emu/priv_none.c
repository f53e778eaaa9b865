/*
 * priv_none.c -- a rank-safe program: it keeps no per-rank state in
 * globals, so it runs right with SIBYL_PRIVATIZE=none (globals shared by
 * the ranks of a process) as with per-rank copies.
 *
 * Its globals are a constant table and a table every rank fills with the
 * same values (harmless when shared); what differs per rank lives in
 * main's locals.  A ring passes a running sum that each rank extends
 * with table values of its own; rank 0 compares the total with the
 * analytic one.
 */
#include "emutest.h"

#define N 64

static const int primes[8] = { 2, 3, 5, 7, 11, 13, 17, 19 };
static long squares[N];         /* the same in every rank */

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_none", &argc, &argv);
	for (int i = 0; i < N; i++)
		squares[i] = (long)i * i;
	long mine = squares[t.rank % N] + primes[t.rank % 8];
	long sum = 0;
	if (t.rank == 0) {
		sum = mine;
		if (t.size > 1) {
			MPI_Send(&sum, 1, MPI_LONG, 1, 5, MPI_COMM_WORLD);
			MPI_Recv(&sum, 1, MPI_LONG, t.size - 1, 5,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		long want = 0;
		for (int r = 0; r < t.size; r++)
			want += (long)(r % N) * (r % N) + primes[r % 8];
		EMU_EQ(&t, sum, want, "sum around the ring");
	} else {
		MPI_Recv(&sum, 1, MPI_LONG, t.rank - 1, 5, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		sum += mine;
		MPI_Send(&sum, 1, MPI_LONG, (t.rank + 1) % t.size, 5,
			 MPI_COMM_WORLD);
	}
	for (int i = 0; i < N; i++)
		EMU_EQ(&t, squares[i], (long)i * i, "squares[%d]", i);
	return emu_finish(&t);
}
