/*
 * comm_inter.c -- intercommunicators: MPI_Intercomm_create, the remote
 * group, point-to-point across, MPI_Comm_dup, MPI_Comm_compare and
 * MPI_Intercomm_merge.
 *
 * Two splits of MPI_COMM_WORLD: the first third and the rest (consecutive
 * world ranks), and the even and odd ranks (interleaved).  For each, the
 * halves make an intercommunicator (leaders: their lowest world rank,
 * peer communicator MPI_COMM_WORLD) and check: MPI_Comm_test_inter; size
 * and rank are the local group's; MPI_Comm_remote_size and the remote
 * group's world ranks; each rank sends its world rank to remote rank
 * (rank % remote size) and receives from every remote rank j with
 * j % local size == its rank (half of them with MPI_ANY_SOURCE), the
 * values and MPI_SOURCE right; a duplicate keeps the groups and has its
 * own context (a message sent on the original and one on the duplicate,
 * same tag, are received duplicate first); MPI_Comm_compare says
 * CONGRUENT for the duplicate and UNEQUAL for MPI_COMM_WORLD; merges with
 * high false/true, true/false and true/true order the groups as MPI says
 * (the last: either order, but each group contiguous and in its order),
 * checked with MPI_Allgather of the world ranks over the merged
 * communicator.
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

static void across(emu_test *t, MPI_Comm ic, int lrank, int lsize,
		   int rsize, const int *rworld, int tag)
{
	int mine = t->rank, n = 0;
	MPI_Request sq;
	MPI_Isend(&mine, 1, MPI_INT, lrank % rsize, tag, ic, &sq);
	for (int j = lrank; j < rsize; j += lsize) {
		int v = -1;
		MPI_Status st;
		MPI_Recv(&v, 1, MPI_INT, n++ % 2 ? MPI_ANY_SOURCE : j, tag, ic,
			 &st);
		/* From ANY_SOURCE the messages come in any order: the
		 * source says which it was. */
		EMU_TRUE(t, st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize &&
			 st.MPI_SOURCE % lsize == lrank, "MPI_SOURCE %d",
			 st.MPI_SOURCE);
		if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize)
			EMU_EQ(t, v, rworld[st.MPI_SOURCE],
			       "value from remote rank %d", st.MPI_SOURCE);
	}
	MPI_Wait(&sq, MPI_STATUS_IGNORE);
}

/* The world ranks of merged communicator m: groups a (size na) and b
 * contiguous, in their orders; a first when a_first (or either when
 * a_first < 0). */
static void merged(emu_test *t, MPI_Comm m, const int *aw, int na,
		   const int *bw, int nb, int a_first, const char *what)
{
	int size = -1;
	MPI_Comm_size(m, &size);
	EMU_EQ(t, size, na + nb, "%s: merged size", what);
	if (size != na + nb)
		return;
	int *w = emu_alloc(t, (size_t)size, sizeof *w);
	MPI_Allgather(&t->rank, 1, MPI_INT, w, 1, MPI_INT, m);
	if (a_first < 0)
		a_first = w[0] == aw[0];
	const int *first = a_first ? aw : bw, *second = a_first ? bw : aw;
	int nf = a_first ? na : nb;
	for (int i = 0; i < size; i++)
		EMU_EQ(t, w[i], i < nf ? first[i] : second[i - nf],
		       "%s: world rank of merged rank %d", what, i);
	free(w);
}

static void pair(emu_test *t, int in_a, const char *what)
{
	MPI_Comm local, ic, dup, m;
	int lrank, lsize, rsize = -1, flag = -1, res = -1;
	MPI_Comm_split(MPI_COMM_WORLD, in_a, t->rank, &local);
	MPI_Comm_rank(local, &lrank);
	MPI_Comm_size(local, &lsize);
	/* The world ranks of both groups, in their orders. */
	int *aw = emu_alloc(t, (size_t)t->size, sizeof *aw);
	int *bw = emu_alloc(t, (size_t)t->size, sizeof *bw);
	int na = 0, nb = 0, me_a = in_a;
	for (int w = 0; w < t->size; w++) {
		int a = strcmp(what, "thirds") ? w % 2 == 0 :
			w < (t->size + 2) / 3;
		if (a)
			aw[na++] = w;
		else
			bw[nb++] = w;
	}
	EMU_EQ(t, lsize, me_a ? na : nb, "%s: local size", what);
	MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, me_a ? bw[0] : aw[0],
			     5, &ic);
	MPI_Comm_test_inter(ic, &flag);
	EMU_EQ(t, flag, 1, "%s: MPI_Comm_test_inter", what);
	int s = -1, r = -1;
	MPI_Comm_size(ic, &s);
	MPI_Comm_rank(ic, &r);
	EMU_EQ(t, s, lsize, "%s: MPI_Comm_size is the local group's", what);
	EMU_EQ(t, r, lrank, "%s: MPI_Comm_rank is the local rank", what);
	MPI_Comm_remote_size(ic, &rsize);
	EMU_EQ(t, rsize, me_a ? nb : na, "%s: MPI_Comm_remote_size", what);
	const int *rworld = me_a ? bw : aw;
	MPI_Group rg, wg;
	MPI_Comm_remote_group(ic, &rg);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *idx = emu_alloc(t, (size_t)rsize, sizeof *idx);
	int *got = emu_alloc(t, (size_t)rsize, sizeof *got);
	for (int j = 0; j < rsize; j++)
		idx[j] = j;
	MPI_Group_translate_ranks(rg, rsize, idx, wg, got);
	for (int j = 0; j < rsize; j++)
		EMU_EQ(t, got[j], rworld[j], "%s: remote rank %d's world rank",
		       what, j);
	MPI_Group_free(&rg);
	MPI_Group_free(&wg);
	free(idx);
	free(got);

	across(t, ic, lrank, lsize, rsize, rworld, 3);

	MPI_Comm_dup(ic, &dup);
	MPI_Comm_compare(ic, dup, &res);
	EMU_EQ(t, res, MPI_CONGRUENT, "%s: compare with the duplicate", what);
	MPI_Comm_compare(ic, MPI_COMM_WORLD, &res);
	EMU_EQ(t, res, MPI_UNEQUAL, "%s: compare with MPI_COMM_WORLD", what);
	MPI_Comm_remote_size(dup, &s);
	EMU_EQ(t, s, rsize, "%s: the duplicate's remote size", what);
	/* Isolation: the same tag on both; the duplicate's first. */
	if (lrank == 0) {
		int a = 1, b = 2;
		MPI_Send(&a, 1, MPI_INT, 0, 9, ic);
		MPI_Send(&b, 1, MPI_INT, 0, 9, dup);
	}
	if (lrank == 0) {
		int x = -1, y = -1;
		MPI_Recv(&y, 1, MPI_INT, 0, 9, dup, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 0, 9, ic, MPI_STATUS_IGNORE);
		EMU_EQ(t, y, 2, "%s: the duplicate's message", what);
		EMU_EQ(t, x, 1, "%s: the original's message", what);
	}
	across(t, dup, lrank, lsize, rsize, rworld, 4);

	MPI_Intercomm_merge(ic, !me_a, &m);
	merged(t, m, aw, na, bw, nb, 1, what);
	MPI_Comm_free(&m);
	MPI_Intercomm_merge(dup, me_a, &m);
	merged(t, m, aw, na, bw, nb, 0, what);
	MPI_Comm_free(&m);
	MPI_Intercomm_merge(ic, 1, &m);
	merged(t, m, aw, na, bw, nb, -1, what);
	MPI_Comm_free(&m);

	MPI_Comm_free(&dup);
	MPI_Comm_free(&ic);
	MPI_Comm_free(&local);
	free(aw);
	free(bw);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_inter", &argc, &argv);
	if (t.size < 2)
		return emu_need_ranks(&t, 2);
	pair(&t, t.rank < (t.size + 2) / 3, "thirds");
	pair(&t, t.rank % 2 == 0, "evens");
	return emu_finish(&t);
}
