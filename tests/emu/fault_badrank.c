/*
 * fault_badrank.c -- a send to a rank that does not exist (expected to
 * FAIL).
 *
 * Rank 0 calls MPI_Send(..., dest = size, ...) on MPI_COMM_WORLD; the
 * other ranks only initialize and finalize.
 *
 * Expected: MPI_Send on rank 0 fails with MPI_ERR_RANK; under the default
 * error handler (MPI_ERRORS_ARE_FATAL) the run aborts with a message
 * that names rank 0, MPI_Send and the invalid rank (Open MPI: "An error
 * occurred in MPI_Send ... MPI_ERR_RANK: invalid rank").  If MPI_Send
 * ever returns, rank 0 prints "fault_badrank: MPI_Send returned ..."
 * and exits with 1.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, x = 1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		int rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
		printf("fault_badrank: MPI_Send returned %d instead of "
		       "aborting\n", rc);
		return 1;
	}
	MPI_Finalize();
	return 0;
}
