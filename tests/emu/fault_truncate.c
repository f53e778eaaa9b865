/*
 * fault_truncate.c -- a message longer than the receive buffer
 * (expected to FAIL).
 *
 * The last rank (size-1) sends 100 ints to rank 0 with tag 7; rank 0
 * receives them with MPI_Recv into a buffer of 10 ints.
 *
 * Expected: MPI_Recv on rank 0 fails with MPI_ERR_TRUNCATE; under the
 * default error handler (MPI_ERRORS_ARE_FATAL) the run aborts with a
 * message that names rank 0, MPI_Recv and the truncation (Open MPI:
 * "An error occurred in MPI_Recv ... MPI_ERR_TRUNCATE: message
 * truncated").  If MPI_Recv ever returns, rank 0 prints
 * "fault_truncate: MPI_Recv returned ..." and exits with 1.
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, big[100], small[10];
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0)
			printf("SKIP fault_truncate: needs 2 ranks, has %d\n",
			       size);
		MPI_Finalize();
		return 77;
	}
	if (rank == size - 1) {
		for (int i = 0; i < 100; i++)
			big[i] = i;
		MPI_Send(big, 100, MPI_INT, 0, 7, MPI_COMM_WORLD);
	} else if (rank == 0) {
		int rc = MPI_Recv(small, 10, MPI_INT, size - 1, 7,
				  MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("fault_truncate: MPI_Recv returned %d instead of "
		       "aborting\n", rc);
		return 1;
	}
	MPI_Finalize();
	return 0;
}
