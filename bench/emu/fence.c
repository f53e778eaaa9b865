/*
 * fence.c -- one-sided fence epochs, for bench/emu_bench.py --fence:
 * every rank puts one int into the window of its right neighbour and of
 * the rank half the world away, FENCES times, each epoch closed by
 * MPI_Win_fence; then checks what it received.
 *
 * Usage: fence [FENCES]     (default 20)
 *
 * Rank 0 prints "fence: ranks=N fences=F ok" (or "WRONG" if any rank
 * found a wrong value).  Plain MPI: builds with mpicc and with sibylcc.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, fences = argc > 1 ? atoi(argv[1]) : 20;
	int slot[2] = { -1, -1 }, val, bad = 0, anybad = 0;
	MPI_Win w;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win_create(slot, sizeof slot, sizeof *slot, MPI_INFO_NULL,
		       MPI_COMM_WORLD, &w);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
	for (int f = 0; f < fences; f++) {
		val = rank * 1000 + f;
		MPI_Put(&val, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, w);
		MPI_Put(&val, 1, MPI_INT, (rank + size / 2) % size, 1, 1,
			MPI_INT, w);
		MPI_Win_fence(0, w);
		if (slot[0] != ((rank + size - 1) % size) * 1000 + f ||
		    slot[1] != ((rank + size - size / 2) % size) * 1000 + f)
			bad = 1;
		MPI_Win_fence(0, w);
	}
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	MPI_Win_free(&w);
	MPI_Reduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("fence: ranks=%d fences=%d %s\n", size, fences,
		       anybad ? "WRONG" : "ok");
	MPI_Finalize();
	return anybad;
}
