/*
 * fault_rma.c -- the one-sided calls Sibyl refuses (expected to FAIL
 * under Sibyl; a plain run natively).
 *
 * Every rank gets memory with MPI_Alloc_mem (which works), writes and
 * frees it, and creates a window over MPI_COMM_SELF (which works).  Then,
 * with MPI_ERRORS_RETURN on the window, a put outside any epoch fails
 * (MPI_ERR_RMA_SYNC under Sibyl); with MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD, whose handler applies to the calls Sibyl does not
 * emulate, rank 0 checks that MPI_Win_create_dynamic returns
 * MPI_ERR_UNSUPPORTED_OPERATION under Sibyl; then, with the default
 * handler back, rank 0 calls it again, which must stop the run with a
 * message naming the call and saying why dynamic windows are not
 * emulated.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int rank, *p = NULL, x = 0, rc, cls;
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
	if (MPI_Win_create(&x, sizeof x, 1, MPI_INFO_NULL, MPI_COMM_SELF,
			   &win) != MPI_SUCCESS) {
		printf("fault_rma: MPI_Win_create failed\n");
		return 1;
	}
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	rc = MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
	MPI_Error_class(rc, &cls);
#ifdef SIBYL_MPI
	if (cls != MPI_ERR_RMA_SYNC) {
		printf("fault_rma: MPI_Put outside an epoch returned class "
		       "%d\n", cls);
		return 1;
	}
#endif
	if (rank == 0) {
		MPI_Win dyn = MPI_WIN_NULL;
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		rc = MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &dyn);
		MPI_Error_class(rc, &cls);
#ifdef SIBYL_MPI
		if (cls != MPI_ERR_UNSUPPORTED_OPERATION) {
			printf("fault_rma: MPI_Win_create_dynamic returned "
			       "class %d\n", cls);
			return 1;
		}
#else
		if (rc == MPI_SUCCESS)
			MPI_Win_free(&dyn);
#endif
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#ifdef SIBYL_MPI
		MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_SELF, &dyn);
		printf("fault_rma: MPI_Win_create_dynamic returned\n");
		return 1;
#endif
	}
	MPI_Win_free(&win);
	MPI_Finalize();
	return 0;
}
