/*
 * fold_errors.c -- misuse of sibyl_shared_malloc/free, reported.
 *
 * Usage: fold_errors size | free | twice | stale    (emulated, >= 3 ranks
 * in a process)
 *
 *   size   rank 0 asks for 1000 bytes, the other ranks for 2000: the
 *          second caller's report names both ranks and sizes.
 *   free   rank 1 passes a malloc()ed block to sibyl_shared_free.
 *   twice  rank 1 frees its shared block twice (while rank 0 still
 *          holds it).
 *   stale  rank 0 takes and frees block #1 before rank 1 takes it, so
 *          block #1 is allocated anew for rank 1; rank 1 then frees
 *          the block's old address, which it never got and which
 *          malloc() has likely handed out again: "not a block", not
 *          "already freed".
 */
#include <mpi.h>
#include <sibyl.h>
#include <stdint.h>
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
	} else if (strcmp(mode, "stale") == 0) {
		uintptr_t old = 0;
		if (rank == 0) {
			void *p = sibyl_shared_malloc(64);
			sibyl_shared_free(p);
			old = (uintptr_t)p;
			MPI_Send(&old, sizeof old, MPI_BYTE, 1, 0,
				 MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&old, sizeof old, MPI_BYTE, 0, 0,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			/* malloc() first, so that the freed block's old
			 * address, one of the few free ones of its size,
			 * goes to a pad, as in the free mode, and the new
			 * block lands elsewhere. */
			void *pad[32];
			for (int i = 0; i < 32; i++)
				pad[i] = malloc(64);
			void *p = sibyl_shared_malloc(64);
			if ((uintptr_t)p == old) {
				fprintf(stderr, "fold_errors stale: block #1 "
					"came back at its old address; cannot "
					"test\n");
				MPI_Abort(MPI_COMM_WORLD, 4);
			}
			sibyl_shared_free((void *)old);
			sibyl_shared_free(p);
			for (int i = 0; i < 32; i++)
				free(pad[i]);
		}
	} else {
		fprintf(stderr, "usage: fold_errors size|free|twice|stale\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Finalize();
	printf("fold_errors %s: no error reported on rank %d\n", mode, rank);
	return 0;
}
