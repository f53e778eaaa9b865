/*
 * fault_start.c -- MPI_Start misused (expected to FAIL).
 *
 * Rank 0, with MPI_ERRORS_RETURN on MPI_COMM_WORLD, starts the request
 * of an MPI_Irecv, which is not persistent: the call must return
 * MPI_ERR_REQUEST, and rank 0 then writes "fault_start: non-persistent:
 * MPI_ERR_REQUEST" on stderr.  With MPI_ERRORS_ARE_FATAL back, it starts
 * a persistent receive twice without completing it in between.
 *
 * Expected: the second MPI_Start fails with MPI_ERR_REQUEST ("is
 * active"); the default handler aborts naming rank 0 and MPI_Start.  The
 * standard leaves the outcome undefined: Open MPI 4.1 accepts both calls
 * and returns MPI_SUCCESS.  If MPI_Start ever returns, rank 0 prints
 * "fault_start: MPI_Start returned ..." and exits with 1.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, a = 0, b = 0, cls = 0;
	MPI_Request rq, iq;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		MPI_Irecv(&b, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &iq);
		MPI_Error_class(MPI_Start(&iq), &cls);
		if (cls == MPI_ERR_REQUEST)
			fprintf(stderr, "fault_start: non-persistent: "
				"MPI_ERR_REQUEST\n");
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
		MPI_Recv_init(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &rq);
		MPI_Start(&rq);
		int rc = MPI_Start(&rq);
		printf("fault_start: MPI_Start returned %d instead of "
		       "aborting\n", rc);
		return 1;
	}
	MPI_Finalize();
	return 0;
}
