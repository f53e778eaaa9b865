/*
 * fault_rma.c -- one-sided communication, which Sibyl does not emulate
 * (expected to FAIL under Sibyl; a plain run natively).
 *
 * Every rank gets memory with MPI_Alloc_mem (which works), writes and
 * frees it; then, with MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 0
 * checks that MPI_Win_create returns an error whose class is
 * MPI_ERR_UNSUPPORTED_OPERATION under Sibyl; then, with the default handler
 * back, rank 0 calls MPI_Win_create again, which must stop the run with
 * a message naming the call and saying that one-sided communication is
 * not emulated.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, *p = NULL;
	MPI_Win win;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (MPI_Alloc_mem(64 * sizeof *p, MPI_INFO_NULL, &p) != MPI_SUCCESS ||
	    !p) {
		printf("fault_rma: MPI_Alloc_mem failed\n");
		return 1;
	}
	memset(p, rank, 64 * sizeof *p);
	MPI_Free_mem(p);
	if (rank == 0) {
		int x = 0, rc, cls;
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		rc = MPI_Win_create(&x, sizeof x, 1, MPI_INFO_NULL,
				    MPI_COMM_SELF, &win);
		MPI_Error_class(rc, &cls);
#ifdef SIBYL_MPI
		if (cls != MPI_ERR_UNSUPPORTED_OPERATION) {
			printf("fault_rma: MPI_Win_create returned class %d\n",
			       cls);
			return 1;
		}
#else
		if (rc == MPI_SUCCESS)
			MPI_Win_free(&win);
#endif
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#ifdef SIBYL_MPI
		MPI_Win_create(&x, sizeof x, 1, MPI_INFO_NULL, MPI_COMM_SELF,
			       &win);
		printf("fault_rma: MPI_Win_create returned\n");
		return 1;
#endif
	}
	MPI_Finalize();
	return 0;
}
