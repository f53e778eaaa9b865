/*
 * p2p_sendrecv.c -- MPI_Sendrecv and MPI_Sendrecv_replace in rings.
 *
 * For each peer distance d (size/2 and 1), every rank exchanges with
 * rank+d and rank-d at once (a ring shift, which would deadlock with
 * blocking Send + Recv above the eager limit):
 *   small    a few ints (the count depends on the sender) rightwards, then
 *            leftwards: status source, tag, Get_count and contents;
 *   large    ~1 MiB of doubles, lengths differing by sender;
 *   replace  Sendrecv_replace of 5 ints rightwards, then back leftwards
 *            on another tag received with MPI_ANY_TAG (each rank has its
 *            own data again); 1 MiB of ints received with MPI_ANY_SOURCE;
 *   wild     Sendrecv receiving with MPI_ANY_SOURCE (the tag is unique to
 *            the pair) and with MPI_ANY_TAG from a given source.
 * Then Sendrecv and Sendrecv_replace with the rank itself.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_sendrecv" on rank 0.
 */
#include "emutest.h"

#define LARGE_D (1 << 17)           /* doubles: 1 MiB */
#define LARGE_I (1 << 18)           /* ints: 1 MiB */

static int small_len(int r)
{
	return 1 + r % 5;
}

static void small(emu_test *t, int d)
{
	int s[8], r[8], n;
	MPI_Status st;
	for (int dir = 0; dir < 2; dir++) {
		int to = dir ? emu_left(t, d) : emu_right(t, d);
		int from = dir ? emu_right(t, d) : emu_left(t, d);
		for (int i = 0; i < 8; i++)
			s[i] = t->rank * 100 + dir * 10 + i, r[i] = -1;
		MPI_Sendrecv(s, small_len(t->rank), MPI_INT, to, 1 + dir, r, 8,
			     MPI_INT, from, 1 + dir, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		EMU_EQ(t, st.MPI_SOURCE, from, "small d=%d dir=%d: source", d,
		       dir);
		EMU_EQ(t, st.MPI_TAG, 1 + dir, "small d=%d dir=%d: tag", d,
		       dir);
		EMU_EQ(t, n, small_len(from), "small d=%d dir=%d: count", d,
		       dir);
		EMU_SEQ(t, r, n < 8 ? n : 8, from * 100 + dir * 10,
			"small d=%d dir=%d", d, dir);
		EMU_EQ(t, r[small_len(from)], -1, "small d=%d dir=%d: written "
		       "past the count", d, dir);
	}
}

static void large(emu_test *t, int d)
{
	int to = emu_right(t, d), from = emu_left(t, d), n;
	double *s = emu_alloc(t, LARGE_D + 2, sizeof *s);
	double *r = emu_alloc(t, LARGE_D + 2, sizeof *r);
	MPI_Status st;
	for (int i = 0; i < LARGE_D + 2; i++)
		s[i] = t->rank + i * 0.25, r[i] = -1;
	MPI_Sendrecv(s, LARGE_D + t->rank % 3, MPI_DOUBLE, to, 3, r,
		     LARGE_D + 2, MPI_DOUBLE, from, 3, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_DOUBLE, &n);
	EMU_EQ(t, n, LARGE_D + from % 3, "large d=%d: count", d);
	EMU_EQ(t, st.MPI_SOURCE, from, "large d=%d: source", d);
	for (int i = 0; i < n && i < LARGE_D + 2; i++)
		if (!EMU_TRUE(t, r[i] == from + i * 0.25,
			      "large d=%d: double %d", d, i))
			break;
	free(s);
	free(r);
}

static void replace(emu_test *t, int d)
{
	int to = emu_right(t, d), from = emu_left(t, d), n;
	int b[5];
	MPI_Status st;
	emu_fill_seq(b, 5, t->rank * 10);
	MPI_Sendrecv_replace(b, 5, MPI_INT, to, 4, from, 4, MPI_COMM_WORLD,
			     &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, 5, "replace small d=%d: count", d);
	EMU_EQ(t, st.MPI_SOURCE, from, "replace small d=%d: source", d);
	EMU_SEQ(t, b, 5, from * 10, "replace small d=%d", d);
	/* back the other way, another tag, MPI_ANY_TAG: our own data again */
	MPI_Sendrecv_replace(b, 5, MPI_INT, from, 5, to, MPI_ANY_TAG,
			     MPI_COMM_WORLD, &st);
	EMU_EQ(t, st.MPI_TAG, 5, "replace small back d=%d: tag", d);
	EMU_EQ(t, st.MPI_SOURCE, to, "replace small back d=%d: source", d);
	EMU_SEQ(t, b, 5, t->rank * 10, "replace small back d=%d", d);

	int *l = emu_alloc(t, LARGE_I, sizeof *l);
	for (int i = 0; i < LARGE_I; i++)
		l[i] = t->rank ^ i;
	MPI_Sendrecv_replace(l, LARGE_I, MPI_INT, to, 6, MPI_ANY_SOURCE, 6,
			     MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, LARGE_I, "replace large d=%d: count", d);
	EMU_EQ(t, st.MPI_SOURCE, from, "replace large d=%d: source", d);
	for (int i = 0; i < LARGE_I; i++)
		if (!EMU_EQ(t, l[i], from ^ i, "replace large d=%d: int %d", d,
			    i))
			break;
	free(l);
}

static void wild(emu_test *t, int d)
{
	int to = emu_right(t, d), from = emu_left(t, d);
	int s = t->rank, r = -1;
	MPI_Status st;
	MPI_Sendrecv(&s, 1, MPI_INT, to, 7, &r, 1, MPI_INT, MPI_ANY_SOURCE, 7,
		     MPI_COMM_WORLD, &st);
	EMU_EQ(t, st.MPI_SOURCE, from, "wild d=%d: ANY_SOURCE status", d);
	EMU_EQ(t, r, from, "wild d=%d: ANY_SOURCE payload", d);
	r = -1;
	MPI_Sendrecv(&s, 1, MPI_INT, to, 8 + d % 3, &r, 1, MPI_INT, from,
		     MPI_ANY_TAG, MPI_COMM_WORLD, &st);
	EMU_EQ(t, st.MPI_TAG, 8 + d % 3, "wild d=%d: ANY_TAG status", d);
	EMU_EQ(t, r, from, "wild d=%d: ANY_TAG payload", d);
}

static void self(emu_test *t)
{
	int s[3] = { t->rank, 1, 2 }, r[3] = { -1, -1, -1 }, n;
	MPI_Status st;
	MPI_Sendrecv(s, 3, MPI_INT, t->rank, 11, r, 3, MPI_INT, t->rank, 11,
		     MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, 3, "self Sendrecv: count");
	EMU_EQ(t, st.MPI_SOURCE, t->rank, "self Sendrecv: source");
	EMU_EQ(t, r[0], t->rank, "self Sendrecv: payload");
	EMU_EQ(t, r[2], 2, "self Sendrecv: payload");
	MPI_Sendrecv_replace(s, 3, MPI_INT, 0, 12, 0, 12, MPI_COMM_SELF, &st);
	EMU_EQ(t, st.MPI_SOURCE, 0, "self Sendrecv_replace (COMM_SELF): "
	       "source");
	EMU_EQ(t, s[0], t->rank, "self Sendrecv_replace: payload");
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_sendrecv", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int dist[2];
	int nd = emu_distances(&t, dist);
	for (int k = 0; k < nd; k++) {
		small(&t, dist[k]);
		large(&t, dist[k]);
		replace(&t, dist[k]);
		wild(&t, dist[k]);
	}
	self(&t);
	return emu_finish(&t);
}
