/*
 * coll_nb.c -- non-blocking collectives: many at once on one
 * communicator, overlapped with point-to-point traffic and with a
 * blocking collective, completed in any order (Waitall, Wait in reverse,
 * Test loops, Waitany over collective and point-to-point requests); one
 * that can only finish if the rank's pending collective progresses while
 * it is blocked in MPI_Recv (MPI's progress rule); non-blocking forms of
 * every collective checked against local references; a datatype freed
 * while a collective that uses it is pending.
 *
 * Needs 2 or more ranks.
 */
#include "emutest.h"

#define C 300                   /* ints per block */

static int val(int r, int i)
{
	return r * 1000 + i % 97;
}

static int sum_val(int P, int i)
{
	int s = 0;
	for (int r = 0; r < P; r++)
		s += val(r, i);
	return s;
}

typedef struct bufs {
	int *bc, *ar_in, *ar_out, *a2a_in, *a2a_out, *red_out, *ag_out;
	int *ga_out, *sc_in, *sc_out, *ring_in, *ring_out;
} bufs;

/* Start eight collectives and a ring shift, then complete them in the
 * order `how' says: 0 Waitall, 1 Wait in reverse, 2 Test loops, 3
 * Waitany. */
static void overlap(emu_test *t, int how)
{
	int P = t->size, me = t->rank;
	bufs b;
	int **all = (int **)&b;
	for (size_t k = 0; k < sizeof b / sizeof(int *); k++)
		all[k] = emu_alloc(t, (size_t)C * P, sizeof(int));
	for (int i = 0; i < C; i++) {
		b.bc[i] = me == 1 ? val(1, i) : -1;
		b.ar_in[i] = val(me, i);
		b.ring_in[i] = val(me, i + 5);
	}
	for (int k = 0; k < C * P; k++) {
		b.a2a_in[k] = val(me, k) + k / C;
		b.sc_in[k] = me == P - 1 ? val(k / C, k % C) : -1;
	}
	MPI_Request rq[11];
	MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]);
	MPI_Ibcast(b.bc, C, MPI_INT, 1, MPI_COMM_WORLD, &rq[1]);
	MPI_Iallreduce(b.ar_in, b.ar_out, C, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
		       &rq[2]);
	/* The ring shift on MPI_COMM_WORLD's point-to-point context. */
	MPI_Irecv(b.ring_out, C, MPI_INT, (me + P - 1) % P, 7, MPI_COMM_WORLD,
		  &rq[3]);
	MPI_Isend(b.ring_in, C, MPI_INT, (me + 1) % P, 7, MPI_COMM_WORLD,
		  &rq[4]);
	MPI_Ialltoall(b.a2a_in, C, MPI_INT, b.a2a_out, C, MPI_INT,
		      MPI_COMM_WORLD, &rq[5]);
	MPI_Ireduce(b.ar_in, b.red_out, C, MPI_INT, MPI_MAX, 0,
		    MPI_COMM_WORLD, &rq[6]);
	MPI_Iallgather(b.ar_in, C, MPI_INT, b.ag_out, C, MPI_INT,
		       MPI_COMM_WORLD, &rq[7]);
	MPI_Igather(b.ar_in, C, MPI_INT, b.ga_out, C, MPI_INT, P - 1,
		    MPI_COMM_WORLD, &rq[8]);
	MPI_Iscatter(b.sc_in, C, MPI_INT, b.sc_out, C, MPI_INT, P - 1,
		     MPI_COMM_WORLD, &rq[9]);
	/* A blocking collective while those are pending. */
	int one = 1, n = 0;
	MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	EMU_EQ(t, n, P, "blocking allreduce amid non-blocking ones");
	MPI_Ibarrier(MPI_COMM_WORLD, &rq[10]);

	int nrq = 11;
	if (how == 0) {
		MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
	} else if (how == 1) {
		for (int k = nrq - 1; k >= 0; k--)
			MPI_Wait(&rq[k], MPI_STATUS_IGNORE);
	} else if (how == 2) {
		int left = nrq;
		while (left)
			for (int k = 0; k < nrq; k++) {
				int flag = 0;
				if (rq[k] == MPI_REQUEST_NULL)
					continue;
				MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE);
				left -= flag;
			}
	} else {
		for (int k = 0; k < nrq; k++) {
			int idx = -1;
			MPI_Waitany(nrq, rq, &idx, MPI_STATUS_IGNORE);
			EMU_TRUE(t, idx >= 0 && idx < nrq, "Waitany index %d",
				 idx);
		}
	}
	for (int k = 0; k < nrq; k++)
		EMU_EQ(t, rq[k], MPI_REQUEST_NULL, "request %d after "
		       "completion (mode %d)", k, how);

	for (int i = 0; i < C; i++) {
		if (!EMU_EQ(t, b.bc[i], val(1, i), "Ibcast [%d] mode %d", i,
			    how) ||
		    !EMU_EQ(t, b.ar_out[i], sum_val(P, i), "Iallreduce [%d] "
			    "mode %d", i, how) ||
		    !EMU_EQ(t, b.ring_out[i], val((me + P - 1) % P, i + 5),
			    "ring [%d] mode %d", i, how) ||
		    !EMU_EQ(t, b.sc_out[i], val(me, i), "Iscatter [%d] mode "
			    "%d", i, how) ||
		    (me == 0 && !EMU_EQ(t, b.red_out[i], val(P - 1, i),
					"Ireduce MAX [%d] mode %d", i, how)))
			break;
	}
	for (int k = 0; k < C * P; k++) {
		int from = k / C;
		if (!EMU_EQ(t, b.a2a_out[k], val(from, me * C + k % C) + me,
			    "Ialltoall [%d] mode %d", k, how) ||
		    !EMU_EQ(t, b.ag_out[k], val(from, k % C), "Iallgather "
			    "[%d] mode %d", k, how) ||
		    (me == P - 1 && !EMU_EQ(t, b.ga_out[k], val(from, k % C),
					    "Igather [%d] mode %d", k, how)))
			break;
	}
	for (size_t k = 0; k < sizeof b / sizeof(int *); k++)
		free(all[k]);
}

/*
 * Rank 0 starts an Iallreduce and blocks in MPI_Recv for a message rank
 * 1 sends only once its own Iallreduce has completed -- which needs rank
 * 0's part to progress while rank 0 is blocked.
 */
static void progress_rule(emu_test *t)
{
	int me = t->rank, P = t->size;
	int in = me + 1, out = 0, token = 0;
	MPI_Request rq;
	MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
	if (me == 0) {
		MPI_Recv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		EMU_EQ(t, token, P * (P + 1) / 2, "rank 1's result");
	} else if (me == 1) {
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Send(&out, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
	}
	if (rq != MPI_REQUEST_NULL)
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	EMU_EQ(t, out, P * (P + 1) / 2, "Iallreduce result");
}

/* Every other non-blocking collective, one at a time. */
static void others(emu_test *t)
{
	int P = t->size, me = t->rank;
	int *cnt = emu_alloc(t, (size_t)P, sizeof(int));
	int *dsp = emu_alloc(t, (size_t)P, sizeof(int));
	int *in = emu_alloc(t, (size_t)4 * P, sizeof(int));
	int *out = emu_alloc(t, (size_t)4 * P, sizeof(int));
	MPI_Request rq;
	for (int j = 0; j < P; j++) {
		cnt[j] = j % 2 + 1;
		dsp[j] = 2 * (P - 1 - j);
	}
	for (int i = 0; i < 4 * P; i++)
		in[i] = val(me, i);

	MPI_Iscan(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < 2; i++) {
		int want = 0;
		for (int q = 0; q <= me; q++)
			want += val(q, i);
		EMU_EQ(t, out[i], want, "Iscan [%d]", i);
	}
	MPI_Iexscan(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < 2 && me > 0; i++) {
		int want = 0;
		for (int q = 0; q < me; q++)
			want += val(q, i);
		EMU_EQ(t, out[i], want, "Iexscan [%d]", i);
	}
	/* Igatherv to 0, Iscatterv back from 0, Iallgatherv. */
	memset(out, 0, (size_t)4 * P * sizeof(int));
	MPI_Igatherv(in, cnt[me], MPI_INT, out, cnt, dsp, MPI_INT, 0,
		     MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int j = 0; j < P && me == 0; j++)
		for (int i = 0; i < cnt[j]; i++)
			EMU_EQ(t, out[dsp[j] + i], val(j, i), "Igatherv from "
			       "%d [%d]", j, i);
	int got[2] = { -1, -1 };
	MPI_Iscatterv(out, cnt, dsp, MPI_INT, got, cnt[me], MPI_INT, 0,
		      MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < cnt[me]; i++)
		EMU_EQ(t, got[i], val(me, i), "Iscatterv [%d]", i);
	memset(out, 0, (size_t)4 * P * sizeof(int));
	MPI_Iallgatherv(in, cnt[me], MPI_INT, out, cnt, dsp, MPI_INT,
			MPI_COMM_WORLD, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int j = 0; j < P; j++)
		for (int i = 0; i < cnt[j]; i++)
			EMU_EQ(t, out[dsp[j] + i], val(j, i), "Iallgatherv "
			       "from %d [%d]", j, i);
	/* Ialltoallv, Ialltoallw: one int each way, at reversed places. */
	int *ones = emu_alloc(t, (size_t)P, sizeof(int));
	int *rev = emu_alloc(t, (size_t)P, sizeof(int));
	int *revb = emu_alloc(t, (size_t)P, sizeof(int));
	MPI_Datatype *ty = emu_alloc(t, (size_t)P, sizeof *ty);
	for (int j = 0; j < P; j++) {
		ones[j] = 1;
		rev[j] = P - 1 - j;
		revb[j] = rev[j] * (int)sizeof(int);
		ty[j] = MPI_INT;
		in[P - 1 - j] = val(me, j);
	}
	for (int w = 0; w < 2; w++) {
		memset(out, 0, (size_t)P * sizeof(int));
		if (w)
			MPI_Ialltoallw(in, ones, revb, ty, out, ones, revb, ty,
				       MPI_COMM_WORLD, &rq);
		else
			MPI_Ialltoallv(in, ones, rev, MPI_INT, out, ones, rev,
				       MPI_INT, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		for (int j = 0; j < P; j++)
			EMU_EQ(t, out[P - 1 - j], val(j, me), "Ialltoall%s "
			       "from %d", w ? "w" : "v", j);
	}
	/* Ireduce_scatter(_block). */
	for (int i = 0; i < 4 * P; i++)
		in[i] = val(me, i);
	MPI_Ireduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
				  &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < 2; i++)
		EMU_EQ(t, out[i], sum_val(P, 2 * me + i),
		       "Ireduce_scatter_block [%d]", i);
	int at = 0;
	for (int j = 0; j < me; j++)
		at += cnt[j];
	MPI_Ireduce_scatter(in, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
			    &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < cnt[me]; i++)
		EMU_EQ(t, out[i], sum_val(P, at + i), "Ireduce_scatter [%d]",
		       i);
	free(ones);
	free(rev);
	free(revb);
	free(ty);
	free(cnt);
	free(dsp);
	free(in);
	free(out);
}

/* MPI_Type_free while an Ibcast with the type is pending. */
static void freed_type(emu_test *t)
{
	int me = t->rank, b[8];
	MPI_Datatype vec;
	MPI_Request rq;
	MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (int i = 0; i < 8; i++)
		b[i] = me == 0 ? 10 + i : -1;
	MPI_Ibcast(b, 1, vec, 0, MPI_COMM_WORLD, &rq);
	MPI_Type_free(&vec);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (int i = 0; i < 8; i++)
		EMU_EQ(t, b[i], me == 0 || i % 2 == 0 ? 10 + i : -1,
		       "Ibcast of a freed vector type [%d]", i);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_nb", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	for (int how = 0; how < 4; how++)
		overlap(&t, how);
	progress_rule(&t);
	others(&t);
	freed_type(&t);
	return emu_finish(&t);
}
