/*
 * fault_bsend.c -- buffered sends without room (expected to FAIL).
 *
 * Rank 0, with MPI_ERRORS_RETURN on MPI_COMM_WORLD, calls MPI_Bsend with
 * no buffer attached: the call must return MPI_ERR_BUFFER, and rank 0
 * then writes "fault_bsend: no buffer: MPI_ERR_BUFFER" on stderr.  With
 * MPI_ERRORS_ARE_FATAL back, it attaches 100 + MPI_BSEND_OVERHEAD bytes
 * and buffers a 400-byte message to itself.
 *
 * Expected: the second MPI_Bsend fails with MPI_ERR_BUFFER (the message
 * needs 400 bytes plus MPI_BSEND_OVERHEAD); the default handler aborts
 * naming rank 0 and MPI_Bsend.  The standard calls both erroneous; Open
 * MPI 4.1 accepts both when it can send the message at once, without the
 * buffer.  If MPI_Bsend ever returns, rank 0 prints "fault_bsend:
 * MPI_Bsend returned ..." and exits with 1.
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	static char room[100 + MPI_BSEND_OVERHEAD];
	int rank, x[100] = { 0 }, cls = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		MPI_Error_class(MPI_Bsend(x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD),
				&cls);
		if (cls == MPI_ERR_BUFFER)
			fprintf(stderr, "fault_bsend: no buffer: "
				"MPI_ERR_BUFFER\n");
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
		MPI_Buffer_attach(room, (int)sizeof room);
		int rc = MPI_Bsend(x, 100, MPI_INT, 0, 2, MPI_COMM_WORLD);
		printf("fault_bsend: MPI_Bsend returned %d instead of "
		       "aborting\n", rc);
		return 1;
	}
	MPI_Finalize();
	return 0;
}
