/*
 * comm_deadlock.c -- a collective communicator call that some rank never
 * makes (expected to FAIL).
 *
 * Every rank but 0 calls MPI_Comm_split(MPI_COMM_WORLD, ...); rank 0
 * instead waits in MPI_Recv for a message from rank 1 with tag 99 that
 * is never sent.
 *
 * Expected: a deadlock report listing rank 0 in MPI_Recv(source=1,
 * tag=99, MPI_COMM_WORLD) and the other ranks in MPI_Comm_split.
 * Natively it hangs.
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x;
	MPI_Comm c;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		MPI_Recv(&x, 1, MPI_INT, 1, 99, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	else
		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
	MPI_Finalize();
	return 0;
}
