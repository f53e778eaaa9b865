/*
 * coll_dt.c -- collectives on non-contiguous buffers: an "every other
 * int" type (a vector resized to 2 ints: data at even positions, holes
 * at odd ones, which must stay untouched) on the send side, the receive
 * side or both, against contiguous MPI_INT on the other side where MPI
 * allows mixing (same type signature): bcast, reduce and allreduce with
 * MPI_SUM (a predefined operation on a derived type) and with a user
 * operation that walks the type's layout, scan, gather, scatter,
 * allgather, allgatherv, alltoall, alltoallv, alltoallw,
 * reduce_scatter_block, in place where allowed, blocking and not.
 *
 * MPI-3.1 defines the predefined operations on basic types; Sibyl, like
 * MPICH, also applies them to a derived type made of one basic type,
 * which Open MPI refuses: built natively, the test sums with its user
 * operation there instead (DSUM).
 *
 * Any rank count.
 */
#include "emutest.h"

#ifdef SIBYL_MPI
#define DSUM(usum) MPI_SUM
#else
#define DSUM(usum) (usum)
#endif

#define C 5                     /* elements per block */
#define HOLE (-9)

typedef struct ctx {
	emu_test *t;
	int rank, size;
	MPI_Datatype ev;            /* every other int */
} ctx;

static int val(int r, int i)
{
	return r * 100 + i;
}

/* n strided elements (2n ints, holes set). */
static int *strided(ctx *x, int n)
{
	int *b = emu_alloc(x->t, (size_t)2 * n + 1, sizeof(int));
	for (int i = 0; i < 2 * n + 1; i++)
		b[i] = HOLE;
	return b;
}

/* The strided buffer holds want(i) at element i and nothing in holes. */
#define CHECK_STRIDED(x, b, n, want, ...)                                  \
	do {                                                               \
		for (int i_ = 0; i_ < 2 * (n) + 1; i_++) {                 \
			int i = i_ / 2;                                    \
			int w_ = i_ % 2 || i >= (n) ? HOLE : (want);       \
			if (!EMU_EQ((x)->t, (b)[i_], w_, __VA_ARGS__))     \
				break;                                     \
		}                                                          \
	} while (0)

/* A user sum over the every-other-int layout: element k at 2k ints. */
static void ev_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout;
	(void)t;
	for (int k = 0; k < *len; k++)
		b[2 * k] += a[2 * k];
}

static void rooted(ctx *x, MPI_Op usum)
{
	int P = x->size, me = x->rank;
	for (int root = 0; root < P; root++) {
		int *b = strided(x, C);
		for (int i = 0; i < C; i++)
			b[2 * i] = me == root ? val(root, i) : -1;
		MPI_Bcast(b, C, x->ev, root, MPI_COMM_WORLD);
		CHECK_STRIDED(x, b, C, val(root, i), "bcast root %d", root);

		/* Reduce: predefined and user operation, in place too. */
		for (int k = 0; k < 3; k++) {
			int *s = strided(x, C), *r = strided(x, C);
			for (int i = 0; i < C; i++)
				s[2 * i] = val(me, i);
			int ip = k == 2 && me == root;
			if (ip)
				memcpy(r, s, (size_t)(2 * C + 1) * sizeof(int));
			MPI_Reduce(ip ? MPI_IN_PLACE : s, r, C, x->ev,
				   k ? usum : DSUM(usum), root,
				   MPI_COMM_WORLD);
			int sum = 0;
			for (int q = 0; q < P; q++)
				sum += val(q, 0);
			if (me == root)
				CHECK_STRIDED(x, r, C, sum + P * i, "reduce %d "
					      "root %d", k, root);
			free(s);
			free(r);
		}

		/* Gather: strided send, contiguous receive, and back. */
		int *s = strided(x, C), *g = emu_alloc(x->t, (size_t)C * P,
						       sizeof(int));
		for (int i = 0; i < C; i++)
			s[2 * i] = val(me, i);
		MPI_Gather(s, C, x->ev, g, C, MPI_INT, root, MPI_COMM_WORLD);
		for (int k = 0; k < C * P && me == root; k++)
			if (!EMU_EQ(x->t, g[k], val(k / C, k % C), "gather "
				    "root %d [%d]", root, k))
				break;
		int *gs = strided(x, C * P);
		for (int k = 0; k < C * P; k++)
			gs[2 * k] = me == root ? val(k / C, k % C) + 1 : -1;
		int *rc = emu_alloc(x->t, C, sizeof(int));
		MPI_Scatter(gs, C, x->ev, rc, C, MPI_INT, root,
			    MPI_COMM_WORLD);
		for (int i = 0; i < C; i++)
			EMU_EQ(x->t, rc[i], val(me, i) + 1, "scatter root %d "
			       "[%d]", root, i);
		/* Gather into a strided buffer, non-blocking, in place. */
		int *gr = strided(x, C * P);
		if (me == root)
			for (int i = 0; i < C; i++)
				gr[2 * (root * C + i)] = val(me, i);
		MPI_Request rq;
		MPI_Igather(me == root ? MPI_IN_PLACE : s, C, x->ev, gr, C,
			    x->ev, root, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (me == root)
			CHECK_STRIDED(x, gr, C * P, val(i / C, i % C),
				      "igather in place root %d", root);
		free(b);
		free(s);
		free(g);
		free(gs);
		free(rc);
		free(gr);
	}
}

static void unrooted(ctx *x, MPI_Op usum)
{
	int P = x->size, me = x->rank;
	int *s = strided(x, C * P), *r = strided(x, C * P);
	int *c = emu_alloc(x->t, (size_t)C * P, sizeof(int));

	for (int k = 0; k < 4; k++) {
		for (int i = 0; i < C; i++)
			s[2 * i] = val(me, i);
		for (int i = 0; i < 2 * C * P + 1; i++)
			r[i] = HOLE;
		if (k == 2)
			memcpy(r, s, (size_t)(2 * C) * sizeof(int));
		MPI_Request rq;
		if (k == 3)
			MPI_Iallreduce(s, r, C, x->ev, usum, MPI_COMM_WORLD,
				       &rq);
		else
			MPI_Allreduce(k == 2 ? MPI_IN_PLACE : s, r, C, x->ev,
				      k == 1 ? usum : DSUM(usum),
				      MPI_COMM_WORLD);
		if (k == 3)
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		int sum0 = 0;
		for (int q = 0; q < P; q++)
			sum0 += val(q, 0);
		CHECK_STRIDED(x, r, C, sum0 + P * i, "allreduce %d", k);
	}
	MPI_Scan(s, r, C, x->ev, DSUM(usum), MPI_COMM_WORLD);
	{
		int pre = 0;
		for (int q = 0; q <= me; q++)
			pre += val(q, 0);
		CHECK_STRIDED(x, r, C, pre + (me + 1) * i, "scan");
	}

	/* Allgather: strided both sides, then contiguous into strided. */
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 2 * C * P + 1; i++)
			r[i] = HOLE;
		for (int i = 0; i < C; i++)
			c[i] = val(me, i);
		if (k)
			MPI_Allgather(c, C, MPI_INT, r, C, x->ev,
				      MPI_COMM_WORLD);
		else
			MPI_Allgather(s, C, x->ev, r, C, x->ev,
				      MPI_COMM_WORLD);
		CHECK_STRIDED(x, r, C * P, val(i / C, i % C), "allgather %d",
			      k);
	}
	/* Allgatherv in place: rank j has j % 3 + 1 elements, packed in
	 * rank order. */
	int *cnt = emu_alloc(x->t, (size_t)P, sizeof(int));
	int *dsp = emu_alloc(x->t, (size_t)P, sizeof(int));
	int tot = 0;
	for (int j = 0; j < P; j++) {
		cnt[j] = j % 3 + 1;
		dsp[j] = tot;
		tot += cnt[j];
	}
	int *v = strided(x, tot);
	for (int i = 0; i < cnt[me]; i++)
		v[2 * (dsp[me] + i)] = val(me, i);
	MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, v, cnt, dsp, x->ev,
		       MPI_COMM_WORLD);
	for (int j = 0; j < P; j++)
		for (int i = 0; i < cnt[j]; i++)
			EMU_EQ(x->t, v[2 * (dsp[j] + i)], val(j, i),
			       "allgatherv in place from %d [%d]", j, i);
	for (int i = 0; i < tot; i++)
		EMU_EQ(x->t, v[2 * i + 1], HOLE, "allgatherv hole %d", i);

	/* Alltoall: strided send, contiguous receive; then in place on a
	 * strided buffer. */
	for (int k = 0; k < C * P; k++)
		s[2 * k] = val(me, k) + k / C;
	MPI_Alltoall(s, C, x->ev, c, C, MPI_INT, MPI_COMM_WORLD);
	for (int k = 0; k < C * P; k++)
		if (!EMU_EQ(x->t, c[k], val(k / C, me * C + k % C) + me,
			    "alltoall [%d]", k))
			break;
	memcpy(r, s, (size_t)(2 * C * P + 1) * sizeof(int));
	MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, r, C, x->ev, MPI_COMM_WORLD);
	CHECK_STRIDED(x, r, C * P, val(i / C, me * C + i % C) + me,
		      "alltoall in place");

	/* Alltoallv / w: one element to each rank, reversed places; w
	 * sends strided and receives contiguous. */
	int *ones = emu_alloc(x->t, (size_t)P, sizeof(int));
	int *rev = emu_alloc(x->t, (size_t)P, sizeof(int));
	int *revs = emu_alloc(x->t, (size_t)P, sizeof(int));
	int *revc = emu_alloc(x->t, (size_t)P, sizeof(int));
	MPI_Datatype *st = emu_alloc(x->t, (size_t)P, sizeof *st);
	MPI_Datatype *ct = emu_alloc(x->t, (size_t)P, sizeof *ct);
	for (int j = 0; j < P; j++) {
		ones[j] = 1;
		rev[j] = P - 1 - j;
		revs[j] = rev[j] * 2 * (int)sizeof(int);
		revc[j] = rev[j] * (int)sizeof(int);
		st[j] = x->ev;
		ct[j] = MPI_INT;
		s[2 * rev[j]] = val(me, j);
	}
	for (int i = 0; i < 2 * C * P + 1; i++)
		r[i] = HOLE;
	MPI_Alltoallv(s, ones, rev, x->ev, r, ones, rev, x->ev,
		      MPI_COMM_WORLD);
	for (int j = 0; j < P; j++)
		EMU_EQ(x->t, r[2 * rev[j]], val(j, me), "alltoallv from %d",
		       j);
	for (int j = 0; j < P; j++)
		EMU_EQ(x->t, r[2 * j + 1], HOLE, "alltoallv hole %d", j);
	memset(c, 0, (size_t)P * sizeof(int));
	MPI_Alltoallw(s, ones, revs, st, c, ones, revc, ct, MPI_COMM_WORLD);
	for (int j = 0; j < P; j++)
		EMU_EQ(x->t, c[rev[j]], val(j, me), "alltoallw from %d", j);

	/* Reduce_scatter_block: strided input, strided output. */
	for (int k = 0; k < C * P; k++)
		s[2 * k] = val(me, k);
	int *o = strided(x, C);
	MPI_Reduce_scatter_block(s, o, C, x->ev, DSUM(usum), MPI_COMM_WORLD);
	{
		int base = 0;
		for (int q = 0; q < P; q++)
			base += val(q, me * C);
		CHECK_STRIDED(x, o, C, base + P * i, "reduce_scatter_block");
	}
	free(o);
	free(ones);
	free(rev);
	free(revs);
	free(revc);
	free(st);
	free(ct);
	free(cnt);
	free(dsp);
	free(v);
	free(s);
	free(r);
	free(c);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_dt", &argc, &argv);
	ctx x = { &t, t.rank, t.size, MPI_DATATYPE_NULL };
	MPI_Datatype v;
	MPI_Op usum;
	MPI_Type_vector(1, 1, 2, MPI_INT, &v);
	MPI_Type_create_resized(v, 0, 2 * (MPI_Aint)sizeof(int), &x.ev);
	MPI_Type_commit(&x.ev);
	MPI_Type_free(&v);
	MPI_Op_create(ev_sum, 1, &usum);
	rooted(&x, usum);
	unrooted(&x, usum);
	MPI_Op_free(&usum);
	MPI_Type_free(&x.ev);
	return emu_finish(&t);
}
