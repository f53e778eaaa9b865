/*
 * heap_keep.c -- the runtime keeps the heap's freed top (runtime.c,
 * keep_heap): every iteration, each rank sends two 64 KiB messages to its
 * neighbour and receives two, folds them, and joins an MPI_Allreduce, as
 * the k-neighbor example does at 2 ranks.  Rank 0 prints the page faults
 * its process took over iterations 20 to 219 ("faults N"): the
 * transport's buffers, freed and taken again, must not fault anew.
 */
#include <mpi.h>
#include <sibyl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define N 65536

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unsigned char *s = malloc(N), *r = malloc(2 * N);
	uint64_t h = (uint64_t)rank + 1, sum;
	long f0 = 0;
	int peer = rank ^ 1;
	if (!s || !r || peer >= size)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (int it = 0; it < 220; it++) {
		MPI_Request rq[4];
		sibyl_iteration(it);
		if (it == 20)
			f0 = faults();
		memset(s, (int)(h & 0xff), N);
		MPI_Irecv(r, N, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(r + N, N, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &rq[1]);
		MPI_Isend(s, N, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &rq[2]);
		MPI_Isend(s, N, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &rq[3]);
		MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
		for (long i = 0; i < 2 * N; i += 64)
			h = h * 31 + r[i];
		MPI_Allreduce(&h, &sum, 1, MPI_UINT64_T, MPI_SUM,
			      MPI_COMM_WORLD);
		h ^= sum;
	}
	if (rank == 0)
		printf("faults %ld\n", faults() - f0);
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
