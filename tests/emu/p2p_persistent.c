/*
 * p2p_persistent.c -- persistent requests: MPI_Send_init, MPI_Ssend_init,
 * MPI_Rsend_init, MPI_Recv_init, MPI_Start, MPI_Startall.
 *
 * For each peer distance d (rank+d and rank-d, emutest.h):
 *   shift    a send to rank+d and a receive from rank-d, made once and
 *            started ITERS times with MPI_Startall, alternately 5 ints
 *            and 1 MiB (one request pair per size): the buffer is read at
 *            each start (it changes between iterations), the data and the
 *            status arrive every time, and the requests stay valid (not
 *            MPI_REQUEST_NULL) after MPI_Waitall;
 *   vector   the same with a strided MPI_Type_vector on both sides (the
 *            send packs at each start, the receive unpacks each time);
 *   any      MPI_Recv_init from MPI_ANY_SOURCE (a tag per distance),
 *            completed by MPI_Wait or MPI_Test in turn, gets rank-d's
 *            message each time;
 *   ssend    MPI_Ssend_init does not complete before its receive is
 *            posted: started, then tested EMU_SPIN times before the
 *            receiver is told to go (each start);
 *   ready    MPI_Rsend_init to a receive known to be posted.
 * Then, on each rank:
 *   inactive a request that was never started, or completed: MPI_Wait
 *            and MPI_Test return at once with an empty status (source
 *            MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0) and leave the
 *            handle; MPI_Waitany and MPI_Testsome over inactive requests
 *            only give MPI_UNDEFINED; MPI_Waitany over one inactive and
 *            one active request picks the active one;
 *   procnull MPI_Send_init and MPI_Recv_init with MPI_PROC_NULL complete
 *            at each start, the receive's status says MPI_PROC_NULL;
 *   cancel   a started MPI_Recv_init nobody sends to is cancelled
 *            (MPI_Test_cancelled true), started again and then matched;
 *   free     MPI_Request_free of an inactive request sets the handle to
 *            MPI_REQUEST_NULL.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_persistent" on rank 0.
 */
#include "emutest.h"

enum { TAG_SMALL = 1, TAG_BIG, TAG_VEC, TAG_ANY, TAG_SS, TAG_GO,
       TAG_READY, TAG_RDATA, TAG_CANCEL, TAG_NEVER };

#define ITERS 4
#define SMALL 5
#define BIG (1 << 18)            /* ints: 1 MiB */
#define VN 64                    /* vector: VN blocks of 2 ints, stride 3 */

static void shift(emu_test *t, int to, int from)
{
	int *ss = emu_alloc(t, SMALL, sizeof(int));
	int *rs = emu_alloc(t, SMALL, sizeof(int));
	int *sb = emu_alloc(t, BIG, sizeof(int));
	int *rb = emu_alloc(t, BIG, sizeof(int));
	MPI_Request rq[4];
	MPI_Status st[4];

	MPI_Recv_init(rs, SMALL, MPI_INT, from, TAG_SMALL, MPI_COMM_WORLD,
		      &rq[0]);
	MPI_Recv_init(rb, BIG, MPI_INT, from, TAG_BIG, MPI_COMM_WORLD, &rq[1]);
	MPI_Send_init(ss, SMALL, MPI_INT, to, TAG_SMALL, MPI_COMM_WORLD,
		      &rq[2]);
	MPI_Send_init(sb, BIG, MPI_INT, to, TAG_BIG, MPI_COMM_WORLD, &rq[3]);
	for (int it = 0; it < ITERS; it++) {
		/* New contents at every start. */
		emu_fill_seq(ss, SMALL, t->rank * 1000 + it);
		emu_fill_seq(sb, BIG, t->rank * 7 + it);
		emu_fill_seq(rs, SMALL, -1);
		rb[0] = rb[BIG - 1] = -1;
		MPI_Startall(4, rq);
		MPI_Waitall(4, rq, st);
		for (int i = 0; i < 4; i++)
			EMU_TRUE(t, rq[i] != MPI_REQUEST_NULL, "shift %d: "
				 "request %d is null after MPI_Waitall", it, i);
		EMU_EQ(t, st[0].MPI_SOURCE, from, "shift %d: small source", it);
		EMU_EQ(t, st[0].MPI_TAG, TAG_SMALL, "shift %d: small tag", it);
		EMU_EQ(t, st[1].MPI_SOURCE, from, "shift %d: big source", it);
		int n = -1;
		MPI_Get_count(&st[1], MPI_INT, &n);
		EMU_EQ(t, n, BIG, "shift %d: big count", it);
		EMU_SEQ(t, rs, SMALL, from * 1000 + it, "shift %d: small from %d",
			it, from);
		EMU_SEQ(t, rb, BIG, from * 7 + it, "shift %d: big from %d", it,
			from);
	}
	for (int i = 0; i < 4; i++) {
		MPI_Request_free(&rq[i]);
		EMU_TRUE(t, rq[i] == MPI_REQUEST_NULL, "request %d after "
			 "MPI_Request_free", i);
	}
	free(ss);
	free(rs);
	free(sb);
	free(rb);
}

static void vector(emu_test *t, int to, int from)
{
	int *s = emu_alloc(t, 3 * VN, sizeof(int));
	int *r = emu_alloc(t, 3 * VN, sizeof(int));
	MPI_Datatype v;
	MPI_Request rq[2];

	MPI_Type_vector(VN, 2, 3, MPI_INT, &v);
	MPI_Type_commit(&v);
	MPI_Recv_init(r, 1, v, from, TAG_VEC, MPI_COMM_WORLD, &rq[0]);
	MPI_Send_init(s, 1, v, to, TAG_VEC, MPI_COMM_WORLD, &rq[1]);
	/* The requests keep the type: it may be freed now. */
	MPI_Type_free(&v);
	for (int it = 0; it < ITERS; it++) {
		for (int i = 0; i < 3 * VN; i++) {
			s[i] = t->rank * 100000 + it * 1000 + i;
			r[i] = -1;
		}
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
		int bad = 0;
		for (int i = 0; i < 3 * VN; i++) {
			int want = i % 3 == 2 ? -1 :
				from * 100000 + it * 1000 + i;
			bad += r[i] != want;
		}
		EMU_EQ(t, bad, 0, "vector %d: wrong elements from %d", it, from);
	}
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	free(s);
	free(r);
}

static void any(emu_test *t, int to, int from)
{
	int out = 0, in = -1, flag = 0;
	MPI_Request rq;
	MPI_Status st;

	/* A tag per distance: a neighbour may be in the next part already. */
	int tag = TAG_ANY * 1000 + (to - t->rank + t->size) % t->size;
	MPI_Recv_init(&in, 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD,
		      &rq);
	for (int it = 0; it < ITERS; it++) {
		out = t->rank * 10 + it;
		MPI_Start(&rq);
		MPI_Send(&out, 1, MPI_INT, to, tag, MPI_COMM_WORLD);
		if (it % 2) {
			MPI_Wait(&rq, &st);
		} else {
			do
				MPI_Test(&rq, &flag, &st);
			while (!flag);
		}
		EMU_TRUE(t, rq != MPI_REQUEST_NULL, "any %d: null request", it);
		EMU_EQ(t, st.MPI_SOURCE, from, "any %d: source", it);
		EMU_EQ(t, in, from * 10 + it, "any %d: value", it);
	}
	MPI_Request_free(&rq);
}

static void ssend(emu_test *t, int to, int from)
{
	int out = t->rank, in = -1, go = 0;
	MPI_Request sq, gq;

	MPI_Ssend_init(&out, 1, MPI_INT, to, TAG_SS, MPI_COMM_WORLD, &sq);
	for (int it = 0; it < ITERS; it++) {
		MPI_Start(&sq);
		int flag = 0;
		for (int i = 0; i < EMU_SPIN && !flag; i++)
			MPI_Test(&sq, &flag, MPI_STATUS_IGNORE);
		EMU_TRUE(t, !flag, "ssend %d: complete before the receive "
			 "was posted", it);
		/* Tell the receiver that the test loop is over; post the
		 * receive of our sender's message once its loop is. */
		MPI_Isend(&go, 1, MPI_INT, to, TAG_GO, MPI_COMM_WORLD, &gq);
		MPI_Recv(&go, 1, MPI_INT, from, TAG_GO, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Recv(&in, 1, MPI_INT, from, TAG_SS, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Wait(&sq, MPI_STATUS_IGNORE);
		MPI_Wait(&gq, MPI_STATUS_IGNORE);
		EMU_EQ(t, in, from, "ssend %d: value", it);
	}
	MPI_Request_free(&sq);
}

static void ready(emu_test *t, int to, int from)
{
	int *out = emu_alloc(t, BIG, sizeof(int));
	int *in = emu_alloc(t, BIG, sizeof(int));
	int z = 0;
	MPI_Request sq, rq;

	emu_fill_seq(out, BIG, t->rank * 3);
	MPI_Rsend_init(out, BIG, MPI_INT, to, TAG_RDATA, MPI_COMM_WORLD, &sq);
	for (int it = 0; it < 2; it++) {
		in[0] = in[BIG - 1] = -1;
		MPI_Irecv(in, BIG, MPI_INT, from, TAG_RDATA, MPI_COMM_WORLD, &rq);
		MPI_Sendrecv(&z, 1, MPI_INT, from, TAG_READY, &z, 1, MPI_INT,
			     to, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Start(&sq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		MPI_Wait(&sq, MPI_STATUS_IGNORE);
		EMU_SEQ(t, in, BIG, from * 3, "ready %d: from %d", it, from);
	}
	MPI_Request_free(&sq);
	free(out);
	free(in);
}

static void empty(emu_test *t, const MPI_Status *st, const char *what)
{
	int n = -1;
	MPI_Get_count(st, MPI_INT, &n);
	EMU_EQ(t, st->MPI_SOURCE, MPI_ANY_SOURCE, "%s: status source", what);
	EMU_EQ(t, st->MPI_TAG, MPI_ANY_TAG, "%s: status tag", what);
	EMU_EQ(t, n, 0, "%s: status count", what);
}

static void inactive(emu_test *t)
{
	int a = 0, b = 0, flag = 0, idx = 0, out = 0, ind[2];
	MPI_Request rq[2];
	MPI_Status st;

	MPI_Recv_init(&a, 1, MPI_INT, MPI_ANY_SOURCE, TAG_NEVER,
		      MPI_COMM_WORLD, &rq[0]);
	MPI_Recv_init(&b, 1, MPI_INT, t->rank, TAG_NEVER + 1, MPI_COMM_WORLD,
		      &rq[1]);
	MPI_Request keep = rq[0];
	st.MPI_SOURCE = st.MPI_TAG = 12345;
	MPI_Wait(&rq[0], &st);
	EMU_TRUE(t, rq[0] == keep, "MPI_Wait changed an inactive request");
	empty(t, &st, "MPI_Wait on an inactive request");
	MPI_Test(&rq[0], &flag, &st);
	EMU_TRUE(t, flag && rq[0] == keep, "MPI_Test on an inactive request");
	empty(t, &st, "MPI_Test on an inactive request");
	MPI_Waitany(2, rq, &idx, &st);
	EMU_EQ(t, idx, MPI_UNDEFINED, "MPI_Waitany over inactive requests");
	MPI_Testsome(2, rq, &idx, ind, MPI_STATUSES_IGNORE);
	EMU_EQ(t, idx, MPI_UNDEFINED, "MPI_Testsome over inactive requests");
	/* One active (a message to self), one inactive. */
	out = 77;
	MPI_Start(&rq[1]);
	MPI_Send(&out, 1, MPI_INT, t->rank, TAG_NEVER + 1, MPI_COMM_WORLD);
	MPI_Waitany(2, rq, &idx, &st);
	EMU_EQ(t, idx, 1, "MPI_Waitany: the active request");
	EMU_EQ(t, b, 77, "MPI_Waitany: the message to self");
	EMU_EQ(t, st.MPI_TAG, TAG_NEVER + 1, "MPI_Waitany: its tag");
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	EMU_TRUE(t, rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL,
		 "MPI_Request_free of inactive requests");
}

static void procnull(emu_test *t)
{
	int out = 5, in = -1;
	MPI_Request rq[2];
	MPI_Status st[2];

	MPI_Send_init(&out, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD,
		      &rq[0]);
	MPI_Recv_init(&in, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD,
		      &rq[1]);
	for (int it = 0; it < 2; it++) {
		MPI_Startall(2, rq);
		MPI_Waitall(2, rq, st);
		int n = -1;
		MPI_Get_count(&st[1], MPI_INT, &n);
		EMU_EQ(t, st[1].MPI_SOURCE, MPI_PROC_NULL, "procnull %d: "
		       "source", it);
		EMU_EQ(t, n, 0, "procnull %d: count", it);
		EMU_EQ(t, in, -1, "procnull %d: buffer touched", it);
	}
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
}

static void cancel(emu_test *t)
{
	int in = -1, out = 99, c = 0;
	MPI_Request rq;
	MPI_Status st;

	MPI_Recv_init(&in, 1, MPI_INT, t->rank, TAG_CANCEL, MPI_COMM_WORLD,
		      &rq);
	MPI_Start(&rq);
	MPI_Cancel(&rq);
	MPI_Wait(&rq, &st);
	MPI_Test_cancelled(&st, &c);
	EMU_TRUE(t, c, "a started, unmatched persistent receive cancelled");
	EMU_TRUE(t, rq != MPI_REQUEST_NULL, "cancelled request still there");
	MPI_Start(&rq);
	MPI_Send(&out, 1, MPI_INT, t->rank, TAG_CANCEL, MPI_COMM_WORLD);
	MPI_Wait(&rq, &st);
	MPI_Test_cancelled(&st, &c);
	EMU_TRUE(t, !c, "restarted after a cancel: not cancelled");
	EMU_EQ(t, in, 99, "restarted after a cancel: the message");
	MPI_Request_free(&rq);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_persistent", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, shift);
	emu_each_peer(&t, vector);
	emu_each_peer(&t, any);
	emu_each_peer(&t, ssend);
	emu_each_peer(&t, ready);
	inactive(&t);
	procnull(&t);
	cancel(&t);
	return emu_finish(&t);
}
