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

static int *alloc_ints(emu_test *t, int n, int v)
{
	int *b = emu_alloc(t, (size_t)n, sizeof *b);
	emu_fill_seq(b, n, v);
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
	EMU_SEQ(t, b, n < m ? n : m, from * 7, "%s: from %d", part, from);
}

static void gate(emu_test *t, int to, int from, int n, int probe)
{
	const char *part = probe ? "probed" : "gate";
	int *s = alloc_ints(t, n, t->rank * 7), *r = alloc_ints(t, n, -1);
	MPI_Request ss, rq[2];
	MPI_Status st;
	MPI_Issend(s, n, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	EMU_TRUE(t, stays_incomplete(&ss), "%s: Issend of %d ints to %d "
		 "completed before the receive was posted", part, n, to);
	if (probe) {
		/* receiver: probe, then tell the sender; sender: wait
		 * until the receiver has probed, not received */
		MPI_Probe(from, TAG_DATA, MPI_COMM_WORLD, &st);
		emu_handshake(from, to, TAG_PROBED, &rq[1]);
		EMU_TRUE(t, stays_incomplete(&ss), "probed: Issend to %d "
			 "completed after a mere Probe", to);
	} else {
		rq[1] = MPI_REQUEST_NULL;
	}
	emu_handshake(to, from, TAG_GO, &rq[0]);
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
	int n = 3, s[3], r[3] = { -1, -1, -1 };
	emu_fill_seq(s, n, t->rank * 7);
	MPI_Request ss, rq[2];
	MPI_Status st;
	MPI_Issend(s, n, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	EMU_TRUE(t, stays_incomplete(&ss), "relay: Issend to %d completed "
		 "before the receive was posted", to);
	/* the receiver of rank-dg, and the go-between of my sender */
	int fwd_to = (int)(((long)t->rank - dg + dr + 2L * t->size) % t->size);
	int via = (int)(((long)t->rank - dr + dg + 2L * t->size) % t->size);
	/* the go to my go-between; as the go-between of rank-dg, wait for
	 * its go */
	emu_handshake(emu_right(t, dg), emu_left(t, dg), TAG_GO, &rq[0]);
	/* forward it; as the receiver, wait for the go from my sender */
	emu_handshake(fwd_to, via, TAG_REL, &rq[1]);
	MPI_Recv(r, n, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &st);
	check_data(t, "relay", r, n, from, &st);
	MPI_Wait(&ss, MPI_STATUS_IGNORE);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void blocking(emu_test *t, int to, int from, int n)
{
	int *s = alloc_ints(t, n, t->rank * 7), *r = alloc_ints(t, n, -1);
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
	MPI_Request rd, rr, ss;
	MPI_Status st;
	MPI_Irecv(r, 2, MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &rd);
	emu_handshake(from, to, TAG_READY, &rr);
	MPI_Issend(s, 2, MPI_INT, to, TAG_DATA, MPI_COMM_WORLD, &ss);
	MPI_Wait(&ss, MPI_STATUS_IGNORE);
	MPI_Wait(&rd, &st);
	check_data(t, "posted", r, 2, from, &st);
	MPI_Wait(&rr, MPI_STATUS_IGNORE);
}

/* The parts for one peer distance, in order. */
static void peer_parts(emu_test *t, int to, int from)
{
	gate(t, to, from, 1, 0);
	gate(t, to, from, BIG, 0);
	gate(t, to, from, 1, 1);
	blocking(t, to, from, 1);
	blocking(t, to, from, BIG);
	posted(t, to, from);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_ssend", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, peer_parts);
	if (t.size >= 4)
		relay(&t, t.size / 2, 1);
	else if (t.size == 3)
		relay(&t, 1, 2);
	return emu_finish(&t);
}
