/*
 * fold_errors.c -- misuse of sibyl_shared_malloc/free, reported.
 *
 * Usage: fold_errors size | free | twice     (emulated, >= 2 ranks in a
 * process)
 *
 *   size   rank 0 asks for 1000 bytes, the other ranks for 2000: the
 *          second caller's report names both ranks and sizes.
 *   free   rank 1 passes a malloc()ed block to sibyl_shared_free.
 *   twice  rank 1 frees its shared block twice (while rank 0 still
 *          holds it).
 */
#include <mpi.h>
#include <sibyl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank;
	const char *mode = argc > 1 ? argv[1] : "";
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (strcmp(mode, "size") == 0) {
		void *p = sibyl_shared_malloc(rank == 0 ? 1000 : 2000);
		sibyl_shared_free(p);
	} else if (strcmp(mode, "free") == 0) {
		void *p = sibyl_shared_malloc(64);
		void *q = malloc(64);
		if (rank == 1)
			sibyl_shared_free(q);
		free(q);
		sibyl_shared_free(p);
	} else if (strcmp(mode, "twice") == 0) {
		void *p = sibyl_shared_malloc(64);
		int x = 0;
		if (rank == 1) {
			sibyl_shared_free(p);
			sibyl_shared_free(p);
			MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		} else if (rank == 0) {
			MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			sibyl_shared_free(p);
		} else {
			sibyl_shared_free(p);
		}
	} else {
		fprintf(stderr, "usage: fold_errors size|free|twice\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Finalize();
	printf("fold_errors %s: no error reported on rank %d\n", mode, rank);
	return 0;
}
