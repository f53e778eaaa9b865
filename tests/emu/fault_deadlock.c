/*
 * fault_deadlock.c -- a global deadlock (expected to FAIL).
 *
 * Every rank first does a blocking MPI_Recv from its left neighbour
 * (rank-1 mod size, tag 1) and only then would MPI_Send to its right
 * neighbour, so every rank waits for a message that is never sent.
 *
 * Expected: the emulator reports a deadlock naming every rank as blocked
 * in MPI_Recv (source rank-1, tag 1), e.g. a wait cycle 0 <- size-1 <-
 * ... <- 1 <- 0, and the run fails (exit status non-zero).  Natively the
 * program simply hangs; run it there only under a timeout.
 *
 * Ranks: any number >= 2.  Prints nothing.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, token = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Recv(&token, 1, MPI_INT, (rank + size - 1) % size, 1,
		 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	token++;
	MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 1, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
