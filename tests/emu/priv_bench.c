/*
 * priv_bench.c -- the cost of a rank switch with privatized globals.
 *
 * PRIV_BYTES bytes of globals (a .bss array, default 4 KiB; build with
 * -DPRIV_BYTES=N).  Pairs of ranks ping-pong empty messages ITERS times
 * (argv[1], default 20000); at each turn a rank writes one word of the
 * array, or every TOUCH-th byte of it (argv[2], default 0: one word).
 * Every rank checks at the end that its array holds what it wrote, so the
 * program also fails if the globals are not private.
 *
 * Rank 0 prints "bytes B touch T iters I: X ns per switch" -- wall time
 * of the loop divided by the switches of its process (two per iteration
 * and pair).  Run it with SIBYL_PRIVATIZE=none, copy and remap: the
 * difference is the price of privatization.  Timing uses the host's
 * clock, not MPI_Wtime (virtual time).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef PRIV_BYTES
#define PRIV_BYTES 4096
#endif

static unsigned char g[PRIV_BYTES];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int rank, size;
	long iters = argc > 1 ? atol(argv[1]) : 20000;
	long touch = argc > 2 ? atol(argv[2]) : 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int peer = rank ^ 1;
	if (peer >= size)
		peer = MPI_PROC_NULL;
	unsigned char mark = (unsigned char)(rank + 1);
	double t0 = now();
	for (long i = 0; i < iters; i++) {
		if (touch > 0)
			for (long k = 0; k < PRIV_BYTES; k += touch)
				g[k] = mark;
		else
			g[(i * 64) % PRIV_BYTES] = mark;
		if (rank & 1) {
			MPI_Recv(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
		} else {
			MPI_Send(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
			MPI_Recv(NULL, 0, MPI_BYTE, peer, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	}
	double t = now() - t0;
	long bad = 0;
	long step = touch > 0 ? touch : 64;
	long span = touch > 0 ? PRIV_BYTES : iters * 64;
	for (long k = 0; k < PRIV_BYTES && k < span; k += step)
		bad += g[k] != mark;
	if (bad)
		printf("FAIL priv_bench: rank %d: %ld bytes of its globals "
		       "were written by another rank\n", rank, bad);
	/* Everyone in one process when size is small; the ranks of a
	 * process take turns, two switches per iteration and pair. */
	if (rank == 0)
		printf("bytes %d touch %ld iters %ld: %.0f ns per switch\n",
		       PRIV_BYTES, touch, iters, t * 1e9 / (double)iters /
		       (double)size);
	MPI_Finalize();
	return bad != 0;
}
