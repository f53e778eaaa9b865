/*
 * pingpong.c -- ranks 0 and 1 bounce one message back and forth.
 *
 * Usage: pingpong [bytes [iters [compute_us]]]     (defaults 1024 100 0)
 *
 * Rank 0 sends `bytes' bytes to rank 1, which sends them back: that is
 * one round trip, repeated `iters' times.  Rank 1 adds 1 to the first
 * (up to 8) bytes before answering, so the data changes at every trip,
 * and rank 0 checks what comes back.  With compute_us > 0 each side
 * computes that many microseconds after each message it receives, before
 * it sends again (declared to the emulator with sibyl_compute() when
 * built with sibylcc, a busy loop otherwise), so one round trip
 * includes 2 * compute_us of computation.  Ranks other than 0 and 1 only
 * initialize and finalize.
 *
 * Rank 0 prints, and nothing else prints:
 *   pingpong: bytes=B iters=I compute_us=C checksum=0x... errors=0
 *   time: rtt_us=... total_s=... MBps=...
 * The first line is deterministic (the checksum is FNV-1a of the final
 * buffer, which depends on every round trip); the "time:" line is the
 * measured (or, emulated, the virtual) time.  Needs 2 ranks or more.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

/* Spend `us' microseconds of computation. */
static void compute(double us)
{
	if (us <= 0)
		return;
#ifdef SIBYL_MPI
	sibyl_compute(us * 1e-6);
#else
	double end = MPI_Wtime() + us * 1e-6;
	while (MPI_Wtime() < end)
		;
#endif
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, long n)
{
	for (long i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long bytes = argc > 1 ? atol(argv[1]) : 1024;
	long iters = argc > 2 ? atol(argv[2]) : 100;
	double compute_us = argc > 3 ? atof(argv[3]) : 0;
	if (size < 2 || bytes < 0 || bytes > 1L << 30 || iters < 1 ||
	    compute_us < 0) {
		if (rank == 0)
			fprintf(stderr, "usage: pingpong [bytes [iters "
				"[compute_us]]] on 2 ranks or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	unsigned char *buf = malloc(bytes > 0 ? (size_t)bytes : 1);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (long j = 0; j < bytes; j++)
		buf[j] = (unsigned char)(j * 7 + 3);
	long head = bytes < 8 ? bytes : 8;      /* bytes rank 1 changes */
	long errors = 0;

	double t0 = MPI_Wtime();
	for (long i = 0; i < iters && rank < 2; i++) {
		if (rank == 0) {
			MPI_Send(buf, (int)bytes, MPI_BYTE, 1, 1,
				 MPI_COMM_WORLD);
			MPI_Recv(buf, (int)bytes, MPI_BYTE, 1, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (long j = 0; j < head; j++)
				if (buf[j] != (unsigned char)(j * 7 + 3 + i + 1))
					errors++;
		} else {
			MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			for (long j = 0; j < head; j++)
				buf[j]++;
		}
		compute(compute_us);
		if (rank == 1)
			MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 1,
				 MPI_COMM_WORLD);
	}
	double t1 = MPI_Wtime();

	if (rank == 0) {
		double rtt = (t1 - t0) / (double)iters;
		printf("pingpong: bytes=%ld iters=%ld compute_us=%g "
		       "checksum=0x%016llx errors=%ld\n", bytes, iters,
		       compute_us,
		       (unsigned long long)fnv1a(0xcbf29ce484222325ull, buf,
						 bytes), errors);
		printf("time: rtt_us=%.3f total_s=%.6f MBps=%.2f\n", rtt * 1e6,
		       t1 - t0, rtt > 0 ? 2.0 * (double)bytes / rtt / 1e6 : 0.0);
	}
	free(buf);
	MPI_Finalize();
	return 0;
}
