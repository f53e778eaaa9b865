/*
 * coll_comm.c -- collectives on communicators other than
 * MPI_COMM_WORLD: MPI_Comm_split by rank % 3 with reversed keys (members
 * out of world order), by blocks of 4 ranks, MPI_Comm_dup of the world,
 * and MPI_COMM_SELF.  On each: bcast from every root, allreduce with a
 * non-commutative user operation (the product in the communicator's rank
 * order), scan, alltoall, allgatherv, reduce_scatter_block, gather; the
 * reference maps communicator ranks to world ranks with
 * MPI_Group_translate_ranks.  Then non-blocking collectives on the split
 * communicator and on the world at once, completed in opposite orders on
 * even and odd ranks, and a blocking barrier on the duplicate in between:
 * contexts keep them apart.
 *
 * Any rank count.
 */
#include "emutest.h"

typedef struct sub {
	emu_test *t;
	MPI_Comm comm;
	const char *name;
	int rank, size;
	int *world;                     /* world rank of each member */
} sub;

static void sub_init(sub *s, emu_test *t, MPI_Comm comm, const char *name)
{
	MPI_Group wg, g;
	s->t = t;
	s->comm = comm;
	s->name = name;
	MPI_Comm_rank(comm, &s->rank);
	MPI_Comm_size(comm, &s->size);
	s->world = emu_alloc(t, (size_t)s->size, sizeof(int));
	int *ranks = emu_alloc(t, (size_t)s->size, sizeof(int));
	for (int i = 0; i < s->size; i++)
		ranks[i] = i;
	MPI_Comm_group(comm, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_translate_ranks(g, s->size, ranks, wg, s->world);
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	free(ranks);
}

static int val(int w, int i)
{
	return w * 100 + i % 50;
}

/* 2x2 matrices mod 2^32: [[w+i+2, 1], [1, 0]] for world rank w. */
typedef struct mat {
	unsigned a, b, c, d;
} mat;

static mat mat_mul(mat x, mat y)
{
	mat z = { x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,
		  x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d };
	return z;
}

static void mat_op(void *in, void *inout, int *len, MPI_Datatype *t)
{
	mat *a = in, *b = inout;
	(void)t;
	for (int i = 0; i < *len; i++)
		b[i] = mat_mul(a[i], b[i]);
}

static mat mat_of(int w, int i)
{
	mat m = { (unsigned)(w + i + 2), 1, 1, 0 };
	return m;
}

#define C 6

static void run(sub *s, MPI_Datatype mt, MPI_Op op)
{
	emu_test *t = s->t;
	int P = s->size, me = s->rank, w = s->world[me];
	int *a = emu_alloc(t, (size_t)C * P, sizeof(int));
	int *b = emu_alloc(t, (size_t)C * P, sizeof(int));
	for (int root = 0; root < P; root++) {
		for (int i = 0; i < C; i++)
			a[i] = me == root ? val(w, i) : -1;
		MPI_Bcast(a, C, MPI_INT, root, s->comm);
		for (int i = 0; i < C; i++)
			EMU_EQ(t, a[i], val(s->world[root], i), "%s bcast root "
			       "%d [%d]", s->name, root, i);
		for (int i = 0; i < C; i++)
			a[i] = val(w, i);
		MPI_Gather(a, C, MPI_INT, b, C, MPI_INT, root, s->comm);
		for (int k = 0; k < C * P && me == root; k++)
			if (!EMU_EQ(t, b[k], val(s->world[k / C], k % C), "%s "
				    "gather root %d [%d]", s->name, root, k))
				break;
	}
	mat m[C], r[C];
	for (int i = 0; i < C; i++)
		m[i] = mat_of(w, i);
	MPI_Allreduce(m, r, C, mt, op, s->comm);
	for (int i = 0; i < C; i++) {
		mat want = mat_of(s->world[0], i);
		for (int q = 1; q < P; q++)
			want = mat_mul(want, mat_of(s->world[q], i));
		EMU_TRUE(t, r[i].a == want.a && r[i].b == want.b &&
			 r[i].c == want.c && r[i].d == want.d, "%s allreduce "
			 "of matrices [%d] not in rank order", s->name, i);
	}
	for (int i = 0; i < C; i++)
		a[i] = val(w, i);
	MPI_Scan(a, b, C, MPI_INT, MPI_SUM, s->comm);
	for (int i = 0; i < C; i++) {
		int want = 0;
		for (int q = 0; q <= me; q++)
			want += val(s->world[q], i);
		EMU_EQ(t, b[i], want, "%s scan [%d]", s->name, i);
	}
	for (int k = 0; k < C * P; k++)
		a[k] = val(w, k) + k / C;
	MPI_Alltoall(a, C, MPI_INT, b, C, MPI_INT, s->comm);
	for (int k = 0; k < C * P; k++)
		if (!EMU_EQ(t, b[k], val(s->world[k / C], me * C + k % C) + me,
			    "%s alltoall [%d]", s->name, k))
			break;
	int *cnt = emu_alloc(t, (size_t)P, sizeof(int));
	int *dsp = emu_alloc(t, (size_t)P, sizeof(int));
	for (int j = 0, at = 0; j < P; j++) {
		cnt[j] = (s->world[j] % 3) + 1;
		dsp[j] = at;
		at += cnt[j];
	}
	for (int i = 0; i < cnt[me]; i++)
		a[i] = val(w, i);
	MPI_Allgatherv(a, cnt[me], MPI_INT, b, cnt, dsp, MPI_INT, s->comm);
	for (int j = 0; j < P; j++)
		for (int i = 0; i < cnt[j]; i++)
			EMU_EQ(t, b[dsp[j] + i], val(s->world[j], i), "%s "
			       "allgatherv from %d [%d]", s->name, j, i);
	for (int k = 0; k < C * P; k++)
		a[k] = val(w, k);
	MPI_Reduce_scatter_block(a, b, C, MPI_INT, MPI_SUM, s->comm);
	for (int i = 0; i < C; i++) {
		int want = 0;
		for (int q = 0; q < P; q++)
			want += val(s->world[q], me * C + i);
		EMU_EQ(t, b[i], want, "%s reduce_scatter_block [%d]", s->name,
		       i);
	}
	free(cnt);
	free(dsp);
	free(a);
	free(b);
}

/* Non-blocking collectives on two communicators at once, plus a blocking
 * barrier on a third, completed in an order that depends on the rank. */
static void concurrent(emu_test *t, sub *split, MPI_Comm dup)
{
	int x = t->rank + 1, y = 2 * t->rank + 1, sx = 0, sy = 0;
	MPI_Request rq[2];
	MPI_Iallreduce(&x, &sx, 1, MPI_INT, MPI_SUM, split->comm, &rq[0]);
	MPI_Iallreduce(&y, &sy, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[1]);
	MPI_Barrier(dup);
	if (t->rank % 2) {
		MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	} else {
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
	}
	int want = 0;
	for (int q = 0; q < split->size; q++)
		want += split->world[q] + 1;
	EMU_EQ(t, sx, want, "Iallreduce on the split communicator");
	EMU_EQ(t, sy, t->size * t->size, "Iallreduce on the world");
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_comm", &argc, &argv);
	MPI_Comm c3, c4, dup;
	MPI_Datatype mt;
	MPI_Op op;
	MPI_Type_contiguous(4, MPI_UNSIGNED, &mt);
	MPI_Type_commit(&mt);
	MPI_Op_create(mat_op, 0, &op);
	MPI_Comm_split(MPI_COMM_WORLD, t.rank % 3, -t.rank, &c3);
	MPI_Comm_split(MPI_COMM_WORLD, t.rank / 4, t.rank, &c4);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	sub s3, s4, sd, ss;
	sub_init(&s3, &t, c3, "split % 3");
	sub_init(&s4, &t, c4, "split / 4");
	sub_init(&sd, &t, dup, "dup");
	sub_init(&ss, &t, MPI_COMM_SELF, "self");
	run(&s3, mt, op);
	run(&s4, mt, op);
	run(&sd, mt, op);
	run(&ss, mt, op);
	concurrent(&t, &s3, dup);
	sub *all[] = { &s3, &s4, &sd, &ss };
	for (int k = 0; k < 4; k++)
		free(all[k]->world);
	MPI_Comm_free(&c3);
	MPI_Comm_free(&c4);
	MPI_Comm_free(&dup);
	MPI_Op_free(&op);
	MPI_Type_free(&mt);
	return emu_finish(&t);
}
