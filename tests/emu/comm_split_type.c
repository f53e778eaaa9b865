/*
 * comm_split_type.c -- MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) under
 * Sibyl: a node is a block of `sibyl emulate --node-size N' consecutive
 * world ranks.
 *
 * argv[1] is N (the test passes the same value to --node-size).  Splits
 * MPI_COMM_WORLD with key = -rank (so ranks are reversed within a node),
 * then a parity communicator with key 0 (the parent's order), and checks
 * size, rank and every member's world rank; MPI_UNDEFINED as split_type
 * gives MPI_COMM_NULL; a ring inside each node communicator.  Sibyl's
 * notion of a node: not meant to run natively.
 *
 * Ranks: any number >= 1.
 */
#include "emutest.h"

static void check(emu_test *t, MPI_Comm c, const int *want, int n,
		  const char *what)
{
	MPI_Group g, wg;
	int size = -1, rank = -1, mine = -1;
	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &rank);
	if (!EMU_EQ(t, size, n, "%s: size", what))
		return;
	int *idx = emu_alloc(t, (size_t)n, sizeof *idx);
	int *w = emu_alloc(t, (size_t)n, sizeof *w);
	for (int i = 0; i < n; i++) {
		idx[i] = i;
		if (want[i] == t->rank)
			mine = i;
	}
	EMU_EQ(t, rank, mine, "%s: rank", what);
	MPI_Comm_group(c, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_translate_ranks(g, n, idx, wg, w);
	for (int i = 0; i < n; i++)
		if (!EMU_EQ(t, w[i], want[i], "%s: member %d", what, i))
			break;
	int in = -1;
	MPI_Sendrecv(&t->rank, 1, MPI_INT, (rank + 1) % n, 0, &in, 1,
		     MPI_INT, (rank + n - 1) % n, 0, c, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, want[(rank + n - 1) % n], "%s: ring", what);
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	free(idx);
	free(w);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_split_type", &argc, &argv);
	int ns = argc > 1 ? atoi(argv[1]) : 32;
	if (ns < 1) {
		if (t.rank == 0)
			printf("FAIL comm_split_type: bad node size %s\n",
			       argv[1]);
		MPI_Finalize();
		return 1;
	}
	int me = t.rank, n = t.size, node = me / ns;
	int first = node * ns, m = n - first < ns ? n - first : ns;
	int *want = emu_alloc(&t, (size_t)ns, sizeof *want);
	MPI_Comm c, p, u;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -me,
			    MPI_INFO_NULL, &c);
	for (int i = 0; i < m; i++)
		want[i] = first + m - 1 - i;
	check(&t, c, want, m, "node of the world, reversed");
	MPI_Comm_free(&c);

	MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &p);
	MPI_Comm_split_type(p, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
	int k = 0;
	for (int w = first; w < first + m; w++)
		if (w % 2 == me % 2)
			want[k++] = w;
	check(&t, c, want, k, "node of a parity class");
	MPI_Comm_free(&c);
	MPI_Comm_free(&p);

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL,
			    &u);
	EMU_EQ(&t, u, MPI_COMM_NULL, "split_type MPI_UNDEFINED");
	free(want);
	return emu_finish(&t);
}
