/*
 * timing.c -- a ring whose ranks compute between exchanges, for the tests
 * of measured compute (tests/emu_timing.sh).
 *
 * Usage: timing MODE ITERS UNITS
 *   MODE declared   each iteration declares UNITS microseconds of compute
 *                   (sibyl_compute) and measures almost nothing;
 *        lognormal  each iteration computes for real: a loop of
 *                   UNITS x L thousand steps, L drawn log-normal (sigma
 *                   0.5, median 1) from a seed of rank and iteration, so
 *                   that every run does the same work;
 *        fixed      each iteration computes UNITS thousand steps;
 *        post       each iteration computes UNITS steps and posts a
 *                   receive from itself (MPI_Irecv, cancelled at the
 *                   end) instead of exchanging: SEBs that begin warm,
 *                   the runtime's work between them short.
 * Between two iterations every rank exchanges 8 bytes with its ring
 * neighbours (MPI_Sendrecv): the compute of an iteration is one SEB, of
 * one code region ("the work region").  Rank 0 prints "done ITERS" after
 * MPI_Finalize.
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sibyl.h>

static volatile uint64_t sink;

static void steps(uint64_t n)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (uint64_t i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 0xBF58476D1CE4E5B9ull + i;
	sink = x;
}

/* A standard normal from (seed, k): Box-Muller over a splitmix64. */
static double normal(uint64_t seed)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ull;
	double u[2];
	for (int i = 0; i < 2; i++) {
		z += 0x9E3779B97F4A7C15ull;
		uint64_t y = z;
		y = (y ^ (y >> 30)) * 0xBF58476D1CE4E5B9ull;
		y = (y ^ (y >> 27)) * 0x94D049BB133111EBull;
		y ^= y >> 31;
		u[i] = ((double)(y >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 4) {
		if (rank == 0)
			fprintf(stderr, "usage: timing MODE ITERS UNITS\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *mode = argv[1];
	long iters = atol(argv[2]);
	double units = atof(argv[3]);
	uint64_t out = (uint64_t)rank, in = 0;
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Request *posted = malloc((size_t)(iters > 0 ? iters : 1) *
				     sizeof *posted);
	if (!posted)
		MPI_Abort(MPI_COMM_WORLD, 2);

	for (long it = 0; it < iters; it++) {
		if (strcmp(mode, "declared") == 0) {
			sibyl_compute(units * 1e-6);
		} else if (strcmp(mode, "lognormal") == 0) {
			double l = exp(0.5 * normal(((uint64_t)rank << 32) ^
						    (uint64_t)it));
			steps((uint64_t)(units * l * 1000.0));
		} else if (strcmp(mode, "post") == 0) {
			steps((uint64_t)units);
			MPI_Irecv(&in, 1, MPI_UINT64_T, rank, 99,
				  MPI_COMM_WORLD, &posted[it]);
			continue;
		} else {
			steps((uint64_t)(units * 1000.0));
		}
		MPI_Sendrecv(&out, 1, MPI_UINT64_T, right, 0, &in, 1,
			     MPI_UINT64_T, left, 0, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		out += in;
	}
	if (strcmp(mode, "post") == 0) {
		for (long it = 0; it < iters; it++)
			MPI_Cancel(&posted[it]);
		MPI_Waitall((int)iters, posted, MPI_STATUSES_IGNORE);
	}
	free(posted);
	MPI_Finalize();
	/* After the last SEB: a line to mpirun's terminal costs the host
	 * tens of microseconds (docs/emulator.md, "Output"). */
	if (rank == 0)
		printf("done %ld\n", iters);
	return 0;
}
