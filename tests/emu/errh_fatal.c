/*
 * errh_fatal.c -- errors under the default handler, MPI_ERRORS_ARE_FATAL
 * (expected to FAIL).
 *
 * argv[1] chooses the error, made by rank 0 on a communicator that is
 * not MPI_COMM_WORLD (the world is split into two halves; rank 0's half
 * is named "halves"):
 *   send   MPI_Send to rank 99 of "halves";
 *   call   MPI_Comm_call_errhandler("halves", MPI_ERR_OTHER);
 *   split  MPI_Comm_split of "halves" with color -5.
 * The other ranks only finalize.
 *
 * Expected: the run aborts with a message naming rank 0, the call, the
 * error class and the communicator by its name, e.g. "rank 0 in
 * MPI_Send: MPI_ERR_RANK: destination 99 is not a rank of halves (size
 * 3)".  If the call ever returns, rank 0 prints "errh_fatal: ... returned"
 * and exits with 1.
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, size, x = 1, rc = 0;
	const char *what = argc > 1 ? argv[1] : "send";
	MPI_Comm half;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half);
	MPI_Comm_set_name(half, "halves");
	if (rank == 0) {
		if (strcmp(what, "send") == 0) {
			rc = MPI_Send(&x, 1, MPI_INT, 99, 0, half);
		} else if (strcmp(what, "call") == 0) {
			rc = MPI_Comm_call_errhandler(half, MPI_ERR_OTHER);
		} else {
			MPI_Comm c;
			rc = MPI_Comm_split(half, -5, 0, &c);
		}
		printf("errh_fatal: %s returned %d instead of aborting\n",
		       what, rc);
		return 1;
	}
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
