/*
 * p2p_waitany.c -- MPI_Waitany, Waitsome, Waitall, Testany, Testsome,
 * Testall (and Wait/Test) on arrays with MPI_REQUEST_NULL entries.
 *
 * First, arrays of null requests only (and of length 0): Waitany and
 * Testany give index MPI_UNDEFINED (Testany with flag true), Waitsome and
 * Testsome outcount MPI_UNDEFINED, Testall flag true, and every status an
 * empty one (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0).
 *
 * Then, for each peer distance d (size/2 and 1), every rank posts
 * receives from rank-d into arrays that also hold null entries, and
 * sends to rank+d in steps: the sender sends one subset of the tags,
 * waits until the receiver says it has looked ("sync"), then the rest.
 * So which request can complete is known at every moment: Waitany and
 * Testany must return that index (with its status), Waitsome/Testsome
 * only those indices, Testany/Testsome/Testall of requests whose message
 * cannot have been sent yet return nothing and leave the requests alone;
 * completed entries become MPI_REQUEST_NULL; an Isend's request in the
 * array completes while the receive beside it cannot.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_waitany" on rank 0.
 */
#include "emutest.h"

#define TAG_NEXT 99

typedef struct ctx {
	emu_test *t;
	int to, from;
	int vals[32];               /* payloads of the Isends */
	MPI_Request sq[32];
	int nsq;
	int rb[8];                  /* receive buffers */
} ctx;

static void send_tag(ctx *c, int tag)
{
	c->vals[c->nsq] = c->t->rank * 100 + tag;
	MPI_Isend(&c->vals[c->nsq], 1, MPI_INT, c->to, tag, MPI_COMM_WORLD,
		  &c->sq[c->nsq]);
	c->nsq++;
}

static void post(ctx *c, MPI_Request *rq, int slot, int tag)
{
	c->rb[slot] = -1;
	MPI_Irecv(&c->rb[slot], 1, MPI_INT, c->from, tag, MPI_COMM_WORLD, rq);
}

/* Tell my sender I have looked; wait until my receiver has too. */
static void sync_step(ctx *c)
{
	emu_handshake(c->from, c->to, TAG_NEXT, &c->sq[c->nsq++]);
}

static void check_empty(emu_test *t, const MPI_Status *st, const char *what)
{
	int n = -1;
	MPI_Get_count(st, MPI_INT, &n);
	EMU_EQ(t, st->MPI_SOURCE, MPI_ANY_SOURCE, "%s: empty status source",
	       what);
	EMU_EQ(t, st->MPI_TAG, MPI_ANY_TAG, "%s: empty status tag", what);
	EMU_EQ(t, n, 0, "%s: empty status count", what);
}

/* A completed receive of `tag' from c->from into slot. */
static void check_recv(ctx *c, const MPI_Status *st, int slot, int tag,
		       const char *what)
{
	EMU_EQ(c->t, st->MPI_SOURCE, c->from, "%s: status source", what);
	EMU_EQ(c->t, st->MPI_TAG, tag, "%s: status tag", what);
	EMU_EQ(c->t, c->rb[slot], c->from * 100 + tag, "%s: payload", what);
}

static void set_null(MPI_Request *rq, int n)
{
	for (int i = 0; i < n; i++)
		rq[i] = MPI_REQUEST_NULL;
}

static int count_null(const MPI_Request *rq, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += rq[i] == MPI_REQUEST_NULL;
	return k;
}

static void nulls_only(emu_test *t)
{
	MPI_Request rq[3];
	MPI_Status st, sts[3];
	int idx = 0, flag = 0, out = 0, ind[3];

	set_null(rq, 3);
	MPI_Waitany(3, rq, &idx, &st);
	EMU_EQ(t, idx, MPI_UNDEFINED, "nulls: Waitany index");
	check_empty(t, &st, "nulls: Waitany");
	MPI_Testany(3, rq, &idx, &flag, &st);
	EMU_EQ(t, flag, 1, "nulls: Testany flag");
	EMU_EQ(t, idx, MPI_UNDEFINED, "nulls: Testany index");
	check_empty(t, &st, "nulls: Testany");
	MPI_Waitsome(3, rq, &out, ind, sts);
	EMU_EQ(t, out, MPI_UNDEFINED, "nulls: Waitsome outcount");
	MPI_Testsome(3, rq, &out, ind, sts);
	EMU_EQ(t, out, MPI_UNDEFINED, "nulls: Testsome outcount");
	flag = 0;
	MPI_Testall(3, rq, &flag, sts);
	EMU_EQ(t, flag, 1, "nulls: Testall flag");
	for (int i = 0; i < 3; i++)
		check_empty(t, &sts[i], "nulls: Testall");
	MPI_Waitall(3, rq, sts);
	for (int i = 0; i < 3; i++)
		check_empty(t, &sts[i], "nulls: Waitall");
	MPI_Wait(&rq[0], &st);
	check_empty(t, &st, "nulls: Wait");
	flag = 0;
	MPI_Test(&rq[0], &flag, &st);
	EMU_EQ(t, flag, 1, "nulls: Test flag");
	check_empty(t, &st, "nulls: Test");

	/* length 0 */
	MPI_Waitany(0, rq, &idx, &st);
	EMU_EQ(t, idx, MPI_UNDEFINED, "empty array: Waitany index");
	MPI_Testany(0, rq, &idx, &flag, &st);
	EMU_EQ(t, flag, 1, "empty array: Testany flag");
	EMU_EQ(t, idx, MPI_UNDEFINED, "empty array: Testany index");
	MPI_Waitsome(0, rq, &out, ind, sts);
	EMU_EQ(t, out, MPI_UNDEFINED, "empty array: Waitsome outcount");
	MPI_Testsome(0, rq, &out, ind, MPI_STATUSES_IGNORE);
	EMU_EQ(t, out, MPI_UNDEFINED, "empty array: Testsome outcount");
	flag = 0;
	MPI_Testall(0, rq, &flag, MPI_STATUSES_IGNORE);
	EMU_EQ(t, flag, 1, "empty array: Testall flag");
	MPI_Waitall(0, rq, MPI_STATUSES_IGNORE);
}

/* Waitany picks the one that can complete; Testany/Testall/Testsome on
 * the others find nothing; Waitsome gets the rest. */
static void step_waitany(ctx *c)
{
	emu_test *t = c->t;
	MPI_Request rq[5];
	MPI_Status st, sts[5];
	int idx = -1, flag = -1, out = -1, ind[5];
	set_null(rq, 5);
	post(c, &rq[1], 1, 10);
	post(c, &rq[3], 3, 11);
	post(c, &rq[4], 4, 12);
	send_tag(c, 11);

	MPI_Waitany(5, rq, &idx, &st);
	EMU_EQ(t, idx, 3, "waitany: index (only tag 11 was sent)");
	if (idx == 3)
		check_recv(c, &st, 3, 11, "waitany");
	EMU_EQ(t, rq[3], MPI_REQUEST_NULL, "waitany: completed request");
	for (int i = 0; i < EMU_SPIN && flag != 1; i++)
		MPI_Testany(5, rq, &idx, &flag, &st);
	EMU_EQ(t, flag, 0, "waitany: Testany of unsent messages, flag");
	EMU_EQ(t, idx, MPI_UNDEFINED, "waitany: Testany of unsent, index");
	MPI_Testall(5, rq, &flag, sts);
	EMU_EQ(t, flag, 0, "waitany: Testall of unsent, flag");
	EMU_EQ(t, count_null(rq, 5), 3, "waitany: null requests after a "
	       "false Testall");
	MPI_Testsome(5, rq, &out, ind, sts);
	EMU_EQ(t, out, 0, "waitany: Testsome of unsent, outcount");

	sync_step(c);
	send_tag(c, 12);
	send_tag(c, 10);
	int got = 0, seen[5] = { 0 };
	while (got < 2) {
		MPI_Waitsome(5, rq, &out, ind, sts);
		if (!EMU_TRUE(t, out >= 1 && out <= 2 - got,
			      "waitsome: outcount %d with %d left", out,
			      2 - got))
			break;
		for (int j = 0; j < out; j++) {
			int i = ind[j];
			if (!EMU_TRUE(t, (i == 1 || i == 4) && !seen[i],
				      "waitsome: index %d", i))
				continue;
			seen[i] = 1;
			check_recv(c, &sts[j], i, i == 1 ? 10 : 12,
				   "waitsome");
			EMU_EQ(t, rq[i], MPI_REQUEST_NULL,
			       "waitsome: completed request %d", i);
		}
		got += out;
	}
	MPI_Waitany(5, rq, &idx, &st);
	EMU_EQ(t, idx, MPI_UNDEFINED, "waitany: all done, index");
	MPI_Waitsome(5, rq, &out, ind, sts);
	EMU_EQ(t, out, MPI_UNDEFINED, "waitsome: all done, outcount");
	flag = 0;
	MPI_Testall(5, rq, &flag, MPI_STATUSES_IGNORE);
	EMU_EQ(t, flag, 1, "testall: all done, flag");
}

/* Testall: false while one message is unsent, then true with statuses. */
static void step_testall(ctx *c)
{
	emu_test *t = c->t;
	MPI_Request rq[3];
	MPI_Status sts[3];
	int flag = -1;
	set_null(rq, 3);
	post(c, &rq[0], 0, 20);
	post(c, &rq[2], 2, 21);
	send_tag(c, 20);
	for (int i = 0; i < EMU_SPIN && flag != 1; i++)
		MPI_Testall(3, rq, &flag, sts);
	EMU_EQ(t, flag, 0, "testall: tag 21 unsent, flag");
	EMU_EQ(t, count_null(rq, 3), 1, "testall: null requests after a "
	       "false Testall");
	sync_step(c);
	send_tag(c, 21);
	flag = 0;
	while (!flag)
		MPI_Testall(3, rq, &flag, sts);
	check_recv(c, &sts[0], 0, 20, "testall [0]");
	check_empty(t, &sts[1], "testall [1] (null)");
	check_recv(c, &sts[2], 2, 21, "testall [2]");
	EMU_EQ(t, count_null(rq, 3), 3, "testall: null requests at the end");
}

/* Testany: the one sent, then nothing, then the other, then UNDEFINED. */
static void step_testany(ctx *c)
{
	emu_test *t = c->t;
	MPI_Request rq[3];
	MPI_Status st;
	int idx = -1, flag = 0;
	set_null(rq, 3);
	post(c, &rq[0], 0, 30);
	post(c, &rq[2], 2, 31);
	send_tag(c, 31);
	while (!flag)
		MPI_Testany(3, rq, &idx, &flag, &st);
	EMU_EQ(t, idx, 2, "testany: index (only tag 31 was sent)");
	if (idx == 2)
		check_recv(c, &st, 2, 31, "testany");
	for (int i = 0; i < EMU_SPIN && flag; i++)
		MPI_Testany(3, rq, &idx, &flag, &st);
	EMU_EQ(t, flag, 0, "testany: tag 30 unsent, flag");
	EMU_EQ(t, idx, MPI_UNDEFINED, "testany: tag 30 unsent, index");
	sync_step(c);
	send_tag(c, 30);
	flag = 0;
	while (!flag)
		MPI_Testany(3, rq, &idx, &flag, &st);
	EMU_EQ(t, idx, 0, "testany: index of tag 30");
	if (idx == 0)
		check_recv(c, &st, 0, 30, "testany");
	flag = 0;
	MPI_Testany(3, rq, &idx, &flag, &st);
	EMU_EQ(t, flag, 1, "testany: all done, flag");
	EMU_EQ(t, idx, MPI_UNDEFINED, "testany: all done, index");
	check_empty(t, &st, "testany: all done");
}

/* An Isend's request completes while the receive beside it cannot. */
static void step_mixed(ctx *c)
{
	emu_test *t = c->t;
	MPI_Request rq[2], r41;
	MPI_Status sts[2];
	int idx = -1, v41 = -1;
	int mine = t->rank * 100 + 41;
	post(c, &rq[0], 0, 40);
	MPI_Irecv(&v41, 1, MPI_INT, c->from, 41, MPI_COMM_WORLD, &r41);
	MPI_Isend(&mine, 1, MPI_INT, c->to, 41, MPI_COMM_WORLD, &rq[1]);
	MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
	EMU_EQ(t, idx, 1, "mixed: Waitany index (the Isend)");
	MPI_Wait(&r41, MPI_STATUS_IGNORE);
	EMU_EQ(t, v41, c->from * 100 + 41, "mixed: payload of tag 41");
	sync_step(c);
	send_tag(c, 40);
	MPI_Waitall(2, rq, sts);
	if (idx == 1) {
		check_recv(c, &sts[0], 0, 40, "mixed: Waitall [0]");
		check_empty(t, &sts[1], "mixed: Waitall [1] (null)");
	}
}

/* Waitsome then Testsome (MPI_STATUSES_IGNORE) in two halves. */
static void step_some(ctx *c)
{
	emu_test *t = c->t;
	MPI_Request rq[4];
	MPI_Status sts[4];
	int out = -1, ind[4], seen[4] = { 0 }, got = 0;
	for (int i = 0; i < 4; i++)
		post(c, &rq[i], i, 50 + i);
	send_tag(c, 51);
	send_tag(c, 53);
	while (got < 2) {
		MPI_Waitsome(4, rq, &out, ind, sts);
		if (!EMU_TRUE(t, out >= 1 && out <= 2 - got,
			      "some: Waitsome outcount %d", out))
			break;
		for (int j = 0; j < out; j++) {
			int i = ind[j];
			if (!EMU_TRUE(t, (i == 1 || i == 3) && !seen[i],
				      "some: Waitsome index %d", i))
				continue;
			seen[i] = 1;
			check_recv(c, &sts[j], i, 50 + i, "some: Waitsome");
		}
		got += out;
	}
	out = 0;
	for (int i = 0; i < EMU_SPIN && out == 0; i++)
		MPI_Testsome(4, rq, &out, ind, sts);
	EMU_EQ(t, out, 0, "some: Testsome while 50, 52 are unsent");
	sync_step(c);
	send_tag(c, 50);
	send_tag(c, 52);
	got = 0;
	while (got < 2) {
		MPI_Testsome(4, rq, &out, ind, MPI_STATUSES_IGNORE);
		if (!EMU_TRUE(t, out >= 0 && out <= 2 - got,
			      "some: Testsome outcount %d", out))
			break;
		for (int j = 0; j < out; j++) {
			int i = ind[j];
			if (!EMU_TRUE(t, (i == 0 || i == 2) && !seen[i],
				      "some: Testsome index %d", i))
				continue;
			seen[i] = 1;
			EMU_EQ(t, c->rb[i], c->from * 100 + 50 + i,
			       "some: Testsome payload %d", i);
		}
		got += out;
	}
	MPI_Testsome(4, rq, &out, ind, sts);
	EMU_EQ(t, out, MPI_UNDEFINED, "some: all done, Testsome outcount");
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_waitany", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	nulls_only(&t);
	int dist[2];
	int nd = emu_distances(&t, dist);
	for (int k = 0; k < nd; k++) {
		ctx c;
		memset(&c, 0, sizeof c);
		c.t = &t;
		c.to = emu_right(&t, dist[k]);
		c.from = emu_left(&t, dist[k]);
		step_waitany(&c);
		step_testall(&c);
		step_testany(&c);
		step_mixed(&c);
		step_some(&c);
		MPI_Waitall(c.nsq, c.sq, MPI_STATUSES_IGNORE);
	}
	return emu_finish(&t);
}
