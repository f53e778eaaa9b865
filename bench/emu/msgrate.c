/*
 * msgrate.c -- message rate between pairs of ranks, for bench/emu_bench.py.
 *
 * Usage: msgrate ITERS [BYTES]
 *
 * Ranks 2i and 2i+1 (i < size/2) ping-pong ITERS messages of BYTES bytes
 * (default 8) with MPI_Send/MPI_Recv.  Rank 0 prints the wall-clock rate,
 * measured with CLOCK_MONOTONIC (MPI_Wtime is virtual time under the
 * emulator):  "msgrate: pairs=P msgs=N seconds=S msgs_per_s=R".
 * Plain MPI: builds with mpicc and with sibylcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long iters = argc > 1 ? atol(argv[1]) : 100000;
	int bytes = argc > 2 ? atoi(argv[2]) : 8;
	char *buf = calloc((size_t)bytes + 1, 1);
	int peer = rank ^ 1;
	double t0 = now();
	if (peer < size) {
		for (long i = 0; i < iters; i++) {
			if (rank & 1) {
				MPI_Recv(buf, bytes, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, bytes, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD);
			} else {
				MPI_Send(buf, bytes, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD);
				MPI_Recv(buf, bytes, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		}
	}
	double t = now() - t0;
	if (rank == 0) {
		long msgs = 2 * iters * (size / 2);
		printf("msgrate: pairs=%d msgs=%ld seconds=%.6f "
		       "msgs_per_s=%.0f\n", size / 2, msgs, t, (double)msgs / t);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
