/*
 * p2p_ssend.c -- synchronous mode: MPI_Ssend and MPI_Issend do not
 * complete before the matching receive has started.
 *
 * Every rank is at once a sender (to rank+dR), a receiver (from rank-dR)
 * and, in "relay", a go-between; a receiver posts its receive only after
 * a message that its sender sends once it has checked that its send is
 * still incomplete, so every "not yet complete" below is certain:
 *   gate     Issend (4 B, then 256 KiB); MPI_Test EMU_SPIN times: never
 *            complete; then a "go" to the receiver, which then receives;
 *            MPI_Wait completes.
 *   probed   the receiver Probes the Issend's message and says so; the
 *            sender's Test must still fail (a probe is no receive).
 *   relay    (>= 3 ranks) as gate, but the go goes to a third rank,
 *            which forwards it to the receiver.
 *   blocking the receiver posts an Irecv for an "after" message that
 *            its sender sends only once its MPI_Ssend has returned, and
 *            Tests it EMU_SPIN times before posting the Ssend's receive:
 *            never complete.
 *   posted   Issend to an already posted receive completes.
 *
 * Ranks: any number >= 2 (relay is skipped below 3).
 * Prints "PASS p2p_ssend" on rank 0.
 */
#include "emutest.h"

enum { TAG_DATA = 1, TAG_GO, TAG_REL, TAG_PROBED, TAG_AFTER, TAG_READY };

#define BIG (256 * 1024 / (int)sizeof(int))

static int *alloc_ints(int n, int v)
{
	int *b = malloc((size_t)n * sizeof *b);
	if (!b)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (int i = 0; i < n; i++)
		b[i] = v + i;
	return b;
}

/* Test `rq' EMU_SPIN times; 1 if it stayed incomplete. */
static int stays_incomplete(MPI_Request *rq)
{
	int flag = 0;
	for (int i = 0; i < EMU_SPIN && !flag; i++)
		MPI_Test(rq, &flag, MPI_STATUS_IGNORE);
	return !flag;
}

static void check_data(emu_test *t, const char *part, const int *b, int n,
		       int from, const MPI_Status *st)
{
	int m = -1;
	MPI_Get_count(st, MPI_INT, &m);
	EMU_EQ(t, m, n, "%s: count from %d", part, from);
	EMU_EQ(t, st->MPI_SOURCE, from, "%s: status source", part);
	for (int i = 0; i < n && i < m; i++)
		if (!EMU_EQ(t, b[i], from * 7 + i, "%s: int %d from %d", part,
			    i, from))
			break;
}

static void gate(emu_test *t, int to, int from, int n, int probe)
{
	const char *part = probe ? "probed" : "gate";
	int *s = alloc_ints(n, t->rank * 7), *r = alloc_ints(n, -1);
	int go = 1, probed = 1, in = 0;
	MPI_Request ss, rq[2];
	MPI_Status st;
	MPI_Issend(s, n, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	EMU_TRUE(t, stays_incomplete(&ss), "%s: Issend of %d ints to %d "
		 "completed before the receive was posted", part, n, to);
	if (probe) {
		/* receiver: probe, then tell the sender */
		MPI_Probe(from, TAG_DATA, MPI_COMM_WORLD, &st);
		MPI_Isend(&probed, 1, MPI_INT, from, TAG_PROBED,
			  MPI_COMM_WORLD, &rq[1]);
		/* sender: the receiver has probed, not received */
		MPI_Recv(&in, 1, MPI_INT, to, TAG_PROBED, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		EMU_TRUE(t, stays_incomplete(&ss), "probed: Issend to %d "
			 "completed after a mere Probe", to);
	} else {
		rq[1] = MPI_REQUEST_NULL;
	}
	MPI_Isend(&go, 1, MPI_INT, to, TAG_GO, MPI_COMM_WORLD, &rq[0]);
	MPI_Recv(&in, 1, MPI_INT, from, TAG_GO, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Recv(r, n, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &st);
	check_data(t, part, r, n, from, &st);
	MPI_Wait(&ss, MPI_STATUS_IGNORE);
	EMU_EQ(t, ss, MPI_REQUEST_NULL, "%s: request after MPI_Wait", part);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	free(s);
	free(r);
}

/* Data to rank+dr; go to rank+dg, which forwards it to rank+dr. */
static void relay(emu_test *t, int dr, int dg)
{
	int to = emu_right(t, dr), from = emu_left(t, dr);
	int n = 3, s[3], r[3] = { -1, -1, -1 }, go = 1, rel = 1, in = 0;
	for (int i = 0; i < n; i++)
		s[i] = t->rank * 7 + i;
	MPI_Request ss, rq[2];
	MPI_Status st;
	MPI_Issend(s, n, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	EMU_TRUE(t, stays_incomplete(&ss), "relay: Issend to %d completed "
		 "before the receive was posted", to);
	MPI_Isend(&go, 1, MPI_INT, emu_right(t, dg), TAG_GO, MPI_COMM_WORLD,
		  &rq[0]);
	/* as the go-between of rank-dg */
	MPI_Recv(&in, 1, MPI_INT, emu_left(t, dg), TAG_GO, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Isend(&rel, 1, MPI_INT,
		  (int)(((long)t->rank - dg + dr + 2L * t->size) % t->size),
		  TAG_REL, MPI_COMM_WORLD, &rq[1]);
	/* as the receiver */
	MPI_Recv(&in, 1, MPI_INT,
		 (int)(((long)t->rank - dr + dg + 2L * t->size) % t->size),
		 TAG_REL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(r, n, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &st);
	check_data(t, "relay", r, n, from, &st);
	MPI_Wait(&ss, MPI_STATUS_IGNORE);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void blocking(emu_test *t, int to, int from, int n)
{
	int *s = alloc_ints(n, t->rank * 7), *r = alloc_ints(n, -1);
	int after = -1, mine = t->rank;
	MPI_Request ra, rd;
	MPI_Status st;
	MPI_Irecv(&after, 1, MPI_INT, from, TAG_AFTER, MPI_COMM_WORLD, &ra);
	EMU_TRUE(t, stays_incomplete(&ra), "blocking: Ssend of %d ints by "
		 "%d returned before its receive was posted", n, from);
	MPI_Irecv(r, n, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &rd);
	MPI_Ssend(s, n, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD);
	MPI_Send(&mine, 1, MPI_INT, to, TAG_AFTER, MPI_COMM_WORLD);
	MPI_Wait(&rd, &st);
	check_data(t, "blocking", r, n, from, &st);
	MPI_Wait(&ra, MPI_STATUS_IGNORE);
	EMU_EQ(t, after, from, "blocking: the \"after\" message");
	free(s);
	free(r);
}

static void posted(emu_test *t, int to, int from)
{
	int s[2] = { t->rank * 7, t->rank * 7 + 1 }, r[2] = { -1, -1 };
	int ready = 1, in = 0;
	MPI_Request rd, rr, ss;
	MPI_Status st;
	MPI_Irecv(r, 2, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &rd);
	MPI_Isend(&ready, 1, MPI_INT, from, TAG_READY, MPI_COMM_WORLD, &rr);
	MPI_Recv(&in, 1, MPI_INT, to, TAG_READY, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Issend(s, 2, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	MPI_Wait(&ss, MPI_STATUS_IGNORE);
	MPI_Wait(&rd, &st);
	check_data(t, "posted", r, 2, from, &st);
	MPI_Wait(&rr, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_ssend", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int dist[2];
	int nd = emu_distances(&t, dist);
	for (int k = 0; k < nd; k++) {
		int to = emu_right(&t, dist[k]), from = emu_left(&t, dist[k]);
		gate(&t, to, from, 1, 0);
		gate(&t, to, from, BIG, 0);
		gate(&t, to, from, 1, 1);
		blocking(&t, to, from, 1);
		blocking(&t, to, from, BIG);
		posted(&t, to, from);
	}
	if (t.size >= 4)
		relay(&t, t.size / 2, 1);
	else if (t.size == 3)
		relay(&t, 1, 2);
	return emu_finish(&t);
}
