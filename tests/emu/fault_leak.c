/*
 * fault_leak.c -- a request and a message left over at MPI_Finalize
 * (expected to FAIL under the emulator).
 *
 * Rank 0 posts MPI_Irecv(source 1, tag 42) -- a tag rank 1 never sends
 * -- and finalizes without waiting for it.  Rank 1 sends 4 bytes
 * (one int) to rank 0 with tag 43 -- a tag nobody receives -- and
 * finalizes.  Other ranks only initialize and finalize.
 *
 * Expected: the emulator reports both at MPI_Finalize: rank 0 finalized
 * with a pending receive request (from 1, tag 42), and a message from
 * rank 1 to rank 0 (tag 43, 4 bytes) was never received; the run fails.
 * (Rank 1's standard-mode MPI_Send of one int is assumed to complete by
 * buffering, as small sends do in practice.)  Native MPI may finalize
 * silently or hang; it need not run natively.
 *
 * Ranks: any number >= 2.  Prints nothing.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, in = -1, out = 1234;
	MPI_Request rq;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2) {
		if (rank == 0)
			printf("SKIP fault_leak: needs 2 ranks, has %d\n",
			       size);
		MPI_Finalize();
		return 77;
	}
	if (rank == 0)
		MPI_Irecv(&in, 1, MPI_INT, 1, 42, MPI_COMM_WORLD, &rq);
	else if (rank == 1)
		MPI_Send(&out, 1, MPI_INT, 0, 43, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
