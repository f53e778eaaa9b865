/*
 * comm_split.c -- MPI_Comm_split: membership, order and isolation.
 *
 * Splits MPI_COMM_WORLD by parity, into blocks of 4, with reversed keys,
 * with equal keys (the parent's order decides), with MPI_UNDEFINED for
 * some ranks, and splits a split again; every new communicator's size,
 * the rank's rank in it and the world rank of each of its members
 * (MPI_Group_translate_ranks) are compared with values computed here.
 * Then point-to-point traffic inside them: a ring on the parity
 * communicator and the same ring on MPI_COMM_WORLD with the same tag,
 * received in the opposite order, so a context mix-up would hand a
 * message to the wrong receive (the payload says where it was sent), and
 * MPI_SOURCE must be the rank in the communicator.  Communicators of one
 * split at different ranks share nothing: a message between the two
 * parity halves goes over MPI_COMM_WORLD only.
 *
 * Ranks: any number >= 2 (12 and 30 in the test).
 */
#include "emutest.h"

/* World rank of every member of comm, in comm's order, checked against
 * want[] (n of them). */
static void check_members(emu_test *t, MPI_Comm comm, const int *want,
			  int n, const char *what)
{
	MPI_Group g, wg;
	int size = -1;
	MPI_Comm_size(comm, &size);
	if (!EMU_EQ(t, size, n, "%s: size", what))
		return;
	int *idx = emu_alloc(t, (size_t)n, sizeof *idx);
	int *w = emu_alloc(t, (size_t)n, sizeof *w);
	for (int i = 0; i < n; i++)
		idx[i] = i;
	MPI_Comm_group(comm, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_translate_ranks(g, n, idx, wg, w);
	for (int i = 0; i < n; i++)
		if (!EMU_EQ(t, w[i], want[i], "%s: world rank of member %d",
			    what, i))
			break;
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	free(idx);
	free(w);
}

static void split_parity(emu_test *t)
{
	MPI_Comm c;
	int me = t->rank, n = t->size, rank = -1;
	MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &c);
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, rank, me / 2, "parity: rank");
	int m = (n - me % 2 + 1) / 2;
	int *want = emu_alloc(t, (size_t)m, sizeof *want);
	for (int i = 0; i < m; i++)
		want[i] = 2 * i + me % 2;
	check_members(t, c, want, m, "parity");
	free(want);
	MPI_Comm_free(&c);
	EMU_EQ(t, c, MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
}

static void split_blocks(emu_test *t)
{
	MPI_Comm c;
	int me = t->rank, rank = -1, b = me / 4;
	MPI_Comm_split(MPI_COMM_WORLD, b, 0, &c);
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, rank, me % 4, "blocks: rank (equal keys: world order)");
	int m = t->size - 4 * b < 4 ? t->size - 4 * b : 4;
	int want[4];
	for (int i = 0; i < m; i++)
		want[i] = 4 * b + i;
	check_members(t, c, want, m, "blocks");

	/* A split of the split: reversed keys inside each block. */
	MPI_Comm d;
	MPI_Comm_split(c, 0, -rank, &d);
	int r2 = -1;
	MPI_Comm_rank(d, &r2);
	EMU_EQ(t, r2, m - 1 - rank, "block reversed: rank");
	for (int i = 0; i < m; i++)
		want[i] = 4 * b + m - 1 - i;
	check_members(t, d, want, m, "block reversed");
	MPI_Comm_free(&d);
	MPI_Comm_free(&c);
}

static void split_reverse(emu_test *t)
{
	MPI_Comm c;
	int me = t->rank, n = t->size, rank = -1;
	MPI_Comm_split(MPI_COMM_WORLD, 7, n - me, &c);
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, rank, n - 1 - me, "reverse keys: rank");
	int *want = emu_alloc(t, (size_t)n, sizeof *want);
	for (int i = 0; i < n; i++)
		want[i] = n - 1 - i;
	check_members(t, c, want, n, "reverse keys");
	free(want);
	int res = -1;
	MPI_Comm_compare(c, MPI_COMM_WORLD, &res);
	EMU_EQ(t, res, n > 1 ? MPI_SIMILAR : MPI_CONGRUENT,
	       "compare(reversed, world)");
	MPI_Comm_free(&c);
}

/* Every third rank opts out; the others are ordered by descending key
 * key = me / 2, ties broken by world rank. */
static void split_undefined(emu_test *t)
{
	MPI_Comm c;
	int me = t->rank, n = t->size;
	int in = me % 3 != 0;
	MPI_Comm_split(MPI_COMM_WORLD, in ? 1 : MPI_UNDEFINED, -(me / 2),
		       &c);
	if (!in) {
		EMU_EQ(t, c, MPI_COMM_NULL, "MPI_UNDEFINED: newcomm");
		return;
	}
	int *want = emu_alloc(t, (size_t)n, sizeof *want);
	int m = 0, myrank = -1, rank = -2;
	/* Reference: stable sort of the members by key. */
	for (int k = -((n - 1) / 2); k <= 0; k++)
		for (int w = 0; w < n; w++)
			if (w % 3 != 0 && -(w / 2) == k) {
				if (w == me)
					myrank = m;
				want[m++] = w;
			}
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, rank, myrank, "undefined: rank");
	check_members(t, c, want, m, "undefined");
	free(want);
	MPI_Comm_free(&c);
}

/* Ring on the parity communicator and on MPI_COMM_WORLD, same tag. */
static void traffic(emu_test *t)
{
	MPI_Comm c;
	int me = t->rank, rank, size;
	MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &c);
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	int wto = (me + 1) % t->size, wfrom = (me + t->size - 1) % t->size;
	int out_c[2] = { 1, me }, out_w[2] = { 2, me }, in_c[2], in_w[2];
	MPI_Request rq[4];
	MPI_Status st[4];
	/* World first, received last. */
	MPI_Isend(out_w, 2, MPI_INT, wto, 5, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(out_c, 2, MPI_INT, to, 5, c, &rq[1]);
	MPI_Irecv(in_c, 2, MPI_INT, MPI_ANY_SOURCE, 5, c, &rq[2]);
	MPI_Irecv(in_w, 2, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
		  &rq[3]);
	MPI_Waitall(4, rq, st);
	EMU_EQ(t, in_c[0], 1, "parity ring: message sent on the parity "
	       "communicator");
	EMU_EQ(t, in_c[1], 2 * from + me % 2, "parity ring: sender");
	EMU_EQ(t, st[2].MPI_SOURCE, from, "parity ring: MPI_SOURCE");
	EMU_EQ(t, in_w[0], 2, "world ring: message sent on MPI_COMM_WORLD");
	EMU_EQ(t, in_w[1], wfrom, "world ring: sender");
	EMU_EQ(t, st[3].MPI_SOURCE, wfrom, "world ring: MPI_SOURCE");

	/* The same pair exchanges on both, receives posted in reverse. */
	if (size > 1) {
		int a = 10 + me, b = 20 + me, x = -1, y = -1;
		int peer = rank ^ 1;
		if (peer < size) {
			int wpeer = 2 * peer + me % 2;
			MPI_Isend(&a, 1, MPI_INT, wpeer, 9, MPI_COMM_WORLD,
				  &rq[0]);
			MPI_Isend(&b, 1, MPI_INT, peer, 9, c, &rq[1]);
			MPI_Recv(&y, 1, MPI_INT, peer, 9, c, &st[0]);
			MPI_Recv(&x, 1, MPI_INT, wpeer, 9, MPI_COMM_WORLD,
				 &st[1]);
			MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
			EMU_EQ(t, y, 20 + wpeer, "pair: parity message");
			EMU_EQ(t, x, 10 + wpeer, "pair: world message");
		}
	}
	MPI_Comm_free(&c);
}

/* MPI_COMM_SELF splits to a communicator of one. */
static void split_self(emu_test *t)
{
	MPI_Comm c;
	int size = -1, rank = -1, x = 0, v = t->rank;
	MPI_Comm_split(MPI_COMM_SELF, 0, 0, &c);
	MPI_Comm_size(c, &size);
	MPI_Comm_rank(c, &rank);
	EMU_EQ(t, size, 1, "self split: size");
	EMU_EQ(t, rank, 0, "self split: rank");
	MPI_Sendrecv(&v, 1, MPI_INT, 0, 3, &x, 1, MPI_INT, 0, 3, c,
		     MPI_STATUS_IGNORE);
	EMU_EQ(t, x, t->rank, "self split: message to self");
	MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_split", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	split_parity(&t);
	split_blocks(&t);
	split_reverse(&t);
	split_undefined(&t);
	traffic(&t);
	split_self(&t);
	return emu_finish(&t);
}
