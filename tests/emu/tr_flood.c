/*
 * tr_flood.c -- one process floods another that does not progress.
 *
 * Usage: tr_flood FLAGFILE [N]   (N default 200,000)
 *
 * Meant for 2 emulating processes, ranks in blocks: the last rank sends
 * N one-int messages (MPI_Send, eager) to rank 0 and then creates
 * FLAGFILE; rank 0 first waits outside MPI until FLAGFILE exists (at
 * most 10 minutes), so its process runs no rank and reads nothing while
 * the messages are sent, then receives them and checks their order.
 * Open MPI alone loses some of 150,000 small messages waiting between two
 * processes (ob1's 16-bit sequence numbers); the emulator's transport
 * holds back what its window to a process does not take.  Natively the
 * program shows the same with 2 processes.
 *
 * Prints "PASS tr_flood N" on rank 0, or "FAIL tr_flood: ..." (then the
 * exit status is 1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

int main(int argc, char **argv)
{
	int me, size, rc = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2 || size < 2) {
		if (me == 0)
			fprintf(stderr, "usage: tr_flood FLAGFILE [N] (at "
				"least 2 ranks)\n");
		MPI_Finalize();
		return 2;
	}
	int n = argc > 2 ? atoi(argv[2]) : 200000;
	if (me == size - 1) {
		for (int i = 0; i < n; i++)
			MPI_Send(&i, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		FILE *f = fopen(argv[1], "w");
		if (!f || fclose(f) != 0) {
			perror(argv[1]);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	} else if (me == 0) {
		struct stat st;
		struct timespec ms = { 0, 1000000 };
		int waited = 0;
		while (stat(argv[1], &st) != 0 && waited++ < 600000)
			nanosleep(&ms, NULL);
		int bad = -1;
		for (int i = 0; i < n; i++) {
			int v = -1;
			MPI_Recv(&v, 1, MPI_INT, size - 1, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			if (v != i && bad < 0)
				bad = i;
		}
		if (bad >= 0) {
			printf("FAIL tr_flood: message %d out of order\n", bad);
			rc = 1;
		} else {
			printf("PASS tr_flood %d\n", n);
		}
	}
	MPI_Finalize();
	return rc;
}
