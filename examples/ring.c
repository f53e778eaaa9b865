/*
 * ring.c -- a token around the ring, and a ring shift with Sendrecv.
 *
 * Usage: ring [laps [count]]                        (defaults 10 1000)
 *
 * Token: rank 0 sends a 64-bit token to rank 1, each rank mixes its rank
 * into it and passes it on to rank+1 (mod size), and rank 0 receives it
 * back from size-1: one lap; `laps' laps.
 * Shift: then, `laps' times, every rank sends its array of `count'
 * 64-bit values to rank+1 and receives rank-1's with MPI_Sendrecv, and
 * mixes its rank into what it received.  Each rank hashes its final
 * array; rank 0 collects the hashes with plain Send/Recv (in rank order)
 * and combines them.
 *
 * Rank 0 prints, and nothing else prints:
 *   ring: ranks=N laps=L count=C token=0x... checksum=0x...
 *   time: token_lap_us=... shift_step_us=... total_s=...
 * The first line is deterministic (the same natively and emulated); the
 * "time:" line is the measured (or, emulated, the virtual) time on rank
 * 0.  Needs 2 ranks or more.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

#define TAG_TOKEN 1
#define TAG_SHIFT 2
#define TAG_HASH 3

static uint64_t mix(uint64_t x, uint64_t v)
{
	x ^= v + 0x9e3779b97f4a7c15ull + (x << 6) + (x >> 2);
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 31);
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	long laps = argc > 1 ? atol(argv[1]) : 10;
	long count = argc > 2 ? atol(argv[2]) : 1000;
	if (size < 2 || laps < 1 || count < 0 || count > 1L << 26) {
		if (rank == 0)
			fprintf(stderr, "usage: ring [laps [count]] on 2 ranks "
				"or more\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int right = (rank + 1) % size, left = (rank + size - 1) % size;

	/* token */
	double t0 = MPI_Wtime();
	uint64_t token = 1;
	for (long lap = 0; lap < laps; lap++) {
#ifdef SIBYL_MPI
		sibyl_iteration(lap);
#endif
		if (rank == 0)
			MPI_Send(&token, 1, MPI_UNSIGNED_LONG_LONG, right,
				 TAG_TOKEN, MPI_COMM_WORLD);
		MPI_Recv(&token, 1, MPI_UNSIGNED_LONG_LONG, left, TAG_TOKEN,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		token = mix(token, (uint64_t)rank);
		if (rank != 0)
			MPI_Send(&token, 1, MPI_UNSIGNED_LONG_LONG, right,
				 TAG_TOKEN, MPI_COMM_WORLD);
	}
	double t1 = MPI_Wtime();

	/* shift */
	uint64_t *a = malloc((size_t)(count > 0 ? count : 1) * sizeof *a);
	uint64_t *b = malloc((size_t)(count > 0 ? count : 1) * sizeof *b);
	if (!a || !b)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (long i = 0; i < count; i++)
		a[i] = mix((uint64_t)rank, (uint64_t)i);
	for (long step = 0; step < laps; step++) {
		MPI_Sendrecv(a, (int)count, MPI_UNSIGNED_LONG_LONG, right,
			     TAG_SHIFT, b, (int)count, MPI_UNSIGNED_LONG_LONG,
			     left, TAG_SHIFT, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		for (long i = 0; i < count; i++)
			a[i] = mix(b[i], (uint64_t)rank);
	}
	uint64_t h = 0;
	for (long i = 0; i < count; i++)
		h = mix(h, a[i]);
	double t2 = MPI_Wtime();

	/* collect the hashes on rank 0, in rank order */
	if (rank == 0) {
		uint64_t sum = mix(0, h);
		for (int r = 1; r < size; r++) {
			uint64_t hr;
			MPI_Recv(&hr, 1, MPI_UNSIGNED_LONG_LONG, r, TAG_HASH,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			sum = mix(sum, hr);
		}
		printf("ring: ranks=%d laps=%ld count=%ld token=0x%016llx "
		       "checksum=0x%016llx\n", size, laps, count,
		       (unsigned long long)token, (unsigned long long)sum);
		printf("time: token_lap_us=%.3f shift_step_us=%.3f "
		       "total_s=%.6f\n", (t1 - t0) / (double)laps * 1e6,
		       (t2 - t1) / (double)laps * 1e6, MPI_Wtime() - t0);
	} else {
		MPI_Send(&h, 1, MPI_UNSIGNED_LONG_LONG, 0, TAG_HASH,
			 MPI_COMM_WORLD);
	}
	free(a);
	free(b);
	MPI_Finalize();
	return 0;
}
