/*
 * a2av.c -- the exchange of an integer sort, for bench/emu_bench.py
 * --alltoallv: every rank sends every other rank a few keys (the count
 * depending on the pair), ROUNDS times, either
 *   p2p    posting an MPI_Irecv from every other rank, in rank order, then
 *          an MPI_Isend to every other rank, starting with the next one,
 *          and waiting for all of them; or
 *   coll   with MPI_Alltoallv, as NPB IS does.
 *
 * Usage: a2av [p2p|coll [ROUNDS]]     (default p2p 1)
 *
 * Rank 0 prints "a2av: ranks=N rounds=R keys=K checksum=C"; the checksum
 * of every key received, the same natively and emulated.  Plain MPI:
 * builds with mpicc and with sibylcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int keys(int s, int d)
{
	return 1 + (int)(((unsigned)s * 2654435761u ^ (unsigned)d * 40503u) %
			 4u);
}

static unsigned key(int s, int d, int i, int round)
{
	return ((unsigned)s * 7919u + (unsigned)d) * 31u + (unsigned)i * 7u +
	       (unsigned)round;
}

int main(int argc, char **argv)
{
	int rank, size, coll = argc > 1 && argv[1][0] == 'c';
	int rounds = argc > 2 ? atoi(argv[2]) : 1;
	unsigned long long sum = 0, all = 0, nkeys = 0, allkeys = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unsigned *sb = malloc((size_t)size * 4 * sizeof *sb);
	unsigned *rb = malloc((size_t)size * 4 * sizeof *rb);
	MPI_Request *rq = malloc(2 * (size_t)size * sizeof *rq);
	int *sc = calloc((size_t)size, sizeof *sc), *rc = calloc((size_t)size,
								 sizeof *rc);
	int *sd = malloc((size_t)size * sizeof *sd);
	if (!sb || !rb || !rq || !sc || !rc || !sd)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (int p = 0; p < size; p++) {
		sd[p] = p * 4;
		sc[p] = p == rank ? 0 : keys(rank, p);
		rc[p] = p == rank ? 0 : keys(p, rank);
	}
	for (int round = 0; round < rounds; round++) {
		int n = 0;
		for (int d = 0; d < size; d++)
			for (int i = 0; i < sc[d]; i++)
				sb[(size_t)d * 4 + (size_t)i] =
					key(rank, d, i, round);
		if (coll) {
			MPI_Alltoallv(sb, sc, sd, MPI_UNSIGNED, rb, rc, sd,
				      MPI_UNSIGNED, MPI_COMM_WORLD);
		} else {
			for (int s = 0; s < size; s++)
				if (s != rank)
					MPI_Irecv(rb + (size_t)s * 4, rc[s],
						  MPI_UNSIGNED, s, round,
						  MPI_COMM_WORLD, &rq[n++]);
			for (int j = 1; j < size; j++) {
				int d = (rank + j) % size;
				MPI_Isend(sb + (size_t)d * 4, sc[d],
					  MPI_UNSIGNED, d, round,
					  MPI_COMM_WORLD, &rq[n++]);
			}
			MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
		}
		for (int s = 0; s < size; s++)
			if (s != rank)
				for (int i = 0; i < keys(s, rank); i++) {
					sum += rb[(size_t)s * 4 + (size_t)i];
					nkeys++;
				}
	}
	MPI_Reduce(&sum, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	MPI_Reduce(&nkeys, &allkeys, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (rank == 0)
		printf("a2av: ranks=%d rounds=%d keys=%llu checksum=%llu\n",
		       size, rounds, allkeys, all);
	free(sb);
	free(rb);
	free(rq);
	free(sc);
	free(rc);
	free(sd);
	MPI_Finalize();
	return 0;
}
