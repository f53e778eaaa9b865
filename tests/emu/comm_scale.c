/*
 * comm_scale.c -- MPI_Comm_split of a large world.
 *
 * argv[1] = K (default 256): MPI_COMM_WORLD is split into K interleaved
 * communicators (color = rank mod K: the members of each are not
 * consecutive, so every group is an explicit list), each rank checks its
 * size and rank, sends its world rank to the next member and receives
 * from the previous one (whose world rank it knows), then the same for a
 * split into K consecutive blocks.  Meant for scale runs (65,536 ranks
 * on 2 processes) as much as for the test suite.
 *
 * Ranks: any number >= 1.
 */
#include "emutest.h"

static void ring(emu_test *t, MPI_Comm c, int want_size, int want_rank,
		 int prev_world, int next_world, const char *what)
{
	int size = -1, rank = -1, in = -1;
	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, size, want_size, "%s: size", what);
	EMU_EQ(t, rank, want_rank, "%s: rank", what);
	if (size != want_size || rank != want_rank)
		return;
	MPI_Sendrecv(&t->rank, 1, MPI_INT, (rank + 1) % size, 1, &in, 1,
		     MPI_INT, (rank + size - 1) % size, 1, c,
		     MPI_STATUS_IGNORE);
	EMU_EQ(t, in, prev_world, "%s: from the previous member", what);
	(void)next_world;
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_scale", &argc, &argv);
	int k = argc > 1 ? atoi(argv[1]) : 256;
	int n = t.size, me = t.rank;
	if (k < 1 || k > n)
		k = n;
	MPI_Comm c;

	/* Interleaved: color me % k. */
	int col = me % k;
	int size = (n - col + k - 1) / k, rank = me / k;
	int prev = rank ? me - k : col + (size - 1) * k;
	MPI_Comm_split(MPI_COMM_WORLD, col, me, &c);
	ring(&t, c, size, rank, prev, 0, "interleaved");
	MPI_Comm_free(&c);

	/* Blocks of b = ceil(n / k). */
	int b = (n + k - 1) / k, blk = me / b;
	int first = blk * b;
	size = n - first < b ? n - first : b;
	rank = me - first;
	prev = rank ? me - 1 : first + size - 1;
	MPI_Comm_split(MPI_COMM_WORLD, blk, 0, &c);
	ring(&t, c, size, rank, prev, 0, "blocks");
	MPI_Comm_free(&c);
	return emu_finish(&t);
}
