/*
 * p2p_probe.c -- MPI_Probe and MPI_Iprobe.
 *
 * For each peer distance d (size/2 and 1), every rank sends to rank+d and
 * receives from rank-d:
 *   empty   Iprobe for a message the sender cannot have sent yet (it
 *           sends only after a "go" from the receiver) returns false;
 *           then Probe(ANY_SOURCE) finds it, and a Recv into a buffer of
 *           the probed Get_count size gets it.
 *   keep    a probed message stays: Iprobe after Probe finds the same
 *           one; a receive for another tag takes a later message; the
 *           next matching Recv(ANY_SOURCE) gets exactly the probed one.
 *   sizes   Probe + Get_count(MPI_DOUBLE) + Recv for 0, 1, 1000 and
 *           200000 doubles (the last one above any eager limit).
 * Then every rank probes with MPI_ANY_SOURCE for one message from each of
 * its senders (different lengths) and receives each from the probed
 * source; Iprobe(MPI_PROC_NULL) is true with an empty status; and at the
 * end Iprobe finds nothing left (with MPI_ANY_SOURCE and MPI_ANY_TAG on
 * the ranks that no verdict can reach, i.e. all but 0).
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_probe" on rank 0.
 */
#include "emutest.h"

enum { TAG_GO = 1, TAG_P1, TAG_P2, TAG_P3, TAG_P4, TAG_P5, TAG_NEVER = 999 };

#define NSIZES 4
static const int sizes[NSIZES] = { 0, 1, 1000, 200000 };

static int p1_len(int src)
{
	return 1 + src % 7 * 10;
}

static void part_empty(emu_test *t, int to, int from)
{
	int flag = -1;
	MPI_Status st;
	MPI_Iprobe(from, TAG_P1, MPI_COMM_WORLD, &flag, &st);
	EMU_EQ(t, flag, 0, "empty: Iprobe(%d, P1) before the go", from);
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_P1, MPI_COMM_WORLD, &flag, &st);
	EMU_EQ(t, flag, 0, "empty: Iprobe(ANY_SOURCE, P1) before the go");
	MPI_Iprobe(from, TAG_NEVER, MPI_COMM_WORLD, &flag,
		   MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 0, "empty: Iprobe(%d, NEVER)", from);

	MPI_Request rq[2];
	emu_handshake(from, to, TAG_GO, &rq[0]);
	int sbuf[61];
	emu_fill_seq(sbuf, p1_len(t->rank), t->rank);
	MPI_Isend(sbuf, p1_len(t->rank), MPI_INT, to, TAG_P1,
		  MPI_COMM_WORLD, &rq[1]);

	int n = -1;
	MPI_Probe(MPI_ANY_SOURCE, TAG_P1, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, st.MPI_SOURCE, from, "empty: Probe status source");
	EMU_EQ(t, st.MPI_TAG, TAG_P1, "empty: Probe status tag");
	EMU_EQ(t, n, p1_len(from), "empty: Probe count");
	int *rbuf = emu_alloc(t, (size_t)(n > 0 ? n : 1), sizeof *rbuf);
	MPI_Recv(rbuf, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
		 MPI_COMM_WORLD, &st);
	int m = -1;
	MPI_Get_count(&st, MPI_INT, &m);
	EMU_EQ(t, m, n, "empty: Recv count vs probed count");
	EMU_SEQ(t, rbuf, m, from, "empty");
	free(rbuf);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void part_keep(emu_test *t, int to, int from)
{
	int s[3][8], r[8];
	MPI_Request rq[3];
	for (int j = 0; j < 3; j++) {
		for (int i = 0; i < 8; i++)
			s[j][i] = t->rank * 10 + j;
		/* two on P2 (2 and 4 ints), then one on P3 (6 ints) */
		MPI_Isend(s[j], 2 + 2 * j, MPI_INT, to, j < 2 ? TAG_P2 : TAG_P3,
			  MPI_COMM_WORLD, &rq[j]);
	}
	MPI_Status st, st2;
	int n = -1, flag = 0;
	MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, st.MPI_TAG, TAG_P2, "keep: Probe(ANY_TAG) tag");
	EMU_EQ(t, n, 2, "keep: Probe(ANY_TAG) count");
	for (int i = 0; i < EMU_SPIN && !flag; i++)
		MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st2);
	if (EMU_TRUE(t, flag, "keep: Iprobe after Probe found nothing")) {
		MPI_Get_count(&st2, MPI_INT, &n);
		EMU_EQ(t, st2.MPI_TAG, TAG_P2, "keep: Iprobe tag");
		EMU_EQ(t, n, 2, "keep: Iprobe count");
	}

	MPI_Probe(from, TAG_P3, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, 6, "keep: Probe(P3) count");
	MPI_Recv(r, 8, MPI_INT, from, TAG_P3, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, 6, "keep: Recv(P3) count");
	EMU_EQ(t, r[0], from * 10 + 2, "keep: Recv(P3) payload");

	for (int j = 0; j < 2; j++) {
		if (j == 0) {
			MPI_Probe(MPI_ANY_SOURCE, TAG_P2, MPI_COMM_WORLD, &st);
		} else {
			flag = 0;
			while (!flag)
				MPI_Iprobe(MPI_ANY_SOURCE, TAG_P2,
					   MPI_COMM_WORLD, &flag, &st);
		}
		MPI_Get_count(&st, MPI_INT, &n);
		EMU_EQ(t, st.MPI_SOURCE, from, "keep: probed P2 #%d source",
		       j);
		EMU_EQ(t, n, 2 + 2 * j, "keep: probed P2 #%d count", j);
		MPI_Recv(r, 8, MPI_INT, MPI_ANY_SOURCE, TAG_P2, MPI_COMM_WORLD,
			 &st);
		MPI_Get_count(&st, MPI_INT, &n);
		EMU_EQ(t, st.MPI_SOURCE, from, "keep: P2 #%d Recv source", j);
		EMU_EQ(t, n, 2 + 2 * j, "keep: P2 #%d Recv count", j);
		EMU_EQ(t, r[0], from * 10 + j, "keep: P2 #%d payload", j);
	}
	MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
}

static void part_sizes(emu_test *t, int to, int from)
{
	double *s[NSIZES];
	MPI_Request rq[NSIZES];
	for (int j = 0; j < NSIZES; j++) {
		s[j] = emu_alloc(t, (size_t)sizes[j] + 1, sizeof(double));
		for (int i = 0; i < sizes[j]; i++)
			s[j][i] = t->rank * 0.5 + i;
		MPI_Isend(s[j], sizes[j], MPI_DOUBLE, to, TAG_P4,
			  MPI_COMM_WORLD, &rq[j]);
	}
	for (int j = 0; j < NSIZES; j++) {
		MPI_Status st;
		int n = -1, m = -1;
		MPI_Probe(from, TAG_P4, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_DOUBLE, &n);
		if (!EMU_EQ(t, n, sizes[j], "sizes: probed count of #%d", j)
		    || n < 0)
			n = sizes[NSIZES - 1];
		double *r = emu_alloc(t, (size_t)n + 1, sizeof *r);
		MPI_Recv(r, n, MPI_DOUBLE, from, TAG_P4, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_DOUBLE, &m);
		EMU_EQ(t, m, sizes[j], "sizes: received count of #%d", j);
		for (int i = 0; i < m && i < sizes[j]; i++)
			if (!EMU_TRUE(t, r[i] == from * 0.5 + i,
				      "sizes: #%d double %d", j, i))
				break;
		free(r);
	}
	MPI_Waitall(NSIZES, rq, MPI_STATUSES_IGNORE);
	for (int j = 0; j < NSIZES; j++)
		free(s[j]);
}

/* One message from each sender; Probe(ANY_SOURCE) then Recv(source). */
static void part_anysource(emu_test *t)
{
	int dist[2], sbuf[2][64], from[2];
	MPI_Request rq[2];
	int nd = emu_distances(t, dist);
	for (int k = 0; k < nd; k++) {
		from[k] = emu_left(t, dist[k]);
		for (int i = 0; i < 64; i++)
			sbuf[k][i] = t->rank;
		MPI_Isend(sbuf[k], 1 + k * 40 + t->rank % 20, MPI_INT,
			  emu_right(t, dist[k]), TAG_P5, MPI_COMM_WORLD,
			  &rq[k]);
	}
	int seen[2] = { 0, 0 };
	for (int j = 0; j < nd; j++) {
		MPI_Status st;
		int n = -1, m = -1, r[64];
		MPI_Probe(MPI_ANY_SOURCE, TAG_P5, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		int k = st.MPI_SOURCE == from[0] ? 0 : 1;
		if (!EMU_TRUE(t, st.MPI_SOURCE == from[k],
			      "anysource: probed source %d", st.MPI_SOURCE))
			continue;
		seen[k]++;
		EMU_EQ(t, n, 1 + k * 40 + from[k] % 20,
		       "anysource: probed count from %d", from[k]);
		if (n < 0 || n > 64)
			n = 64;
		MPI_Recv(r, n, MPI_INT, st.MPI_SOURCE, TAG_P5, MPI_COMM_WORLD,
			 &st);
		MPI_Get_count(&st, MPI_INT, &m);
		EMU_EQ(t, m, 1 + k * 40 + from[k] % 20,
		       "anysource: received count from %d", from[k]);
		EMU_EQ(t, r[0], from[k], "anysource: payload");
	}
	for (int k = 0; k < nd; k++)
		EMU_EQ(t, seen[k], 1, "anysource: messages probed from %d",
		       from[k]);
	MPI_Waitall(nd, rq, MPI_STATUSES_IGNORE);
}

static void part_procnull(emu_test *t)
{
	MPI_Status st;
	int flag = 0, n = -1;
	MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, flag, 1, "procnull: Iprobe flag");
	EMU_EQ(t, st.MPI_SOURCE, MPI_PROC_NULL, "procnull: Iprobe source");
	EMU_EQ(t, st.MPI_TAG, MPI_ANY_TAG, "procnull: Iprobe tag");
	EMU_EQ(t, n, 0, "procnull: Iprobe count");
	MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, st.MPI_SOURCE, MPI_PROC_NULL, "procnull: Probe source");
	EMU_EQ(t, n, 0, "procnull: Probe count");
}

static void part_nothing_left(emu_test *t)
{
	int flag = -1;
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_P1, MPI_COMM_WORLD, &flag,
		   MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 0, "end: Iprobe(ANY_SOURCE, P1)");
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_P4, MPI_COMM_WORLD, &flag,
		   MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 0, "end: Iprobe(ANY_SOURCE, P4)");
	if (t->rank != 0) {
		MPI_Status st;
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
			   &st);
		EMU_EQ(t, flag, 0, "end: Iprobe(ANY_SOURCE, ANY_TAG) found "
		       "source %d tag %d", flag ? st.MPI_SOURCE : -1,
		       flag ? st.MPI_TAG : -1);
	}
}

/* The parts for one peer distance, in order. */
static void peer_parts(emu_test *t, int to, int from)
{
	part_empty(t, to, from);
	part_keep(t, to, from);
	part_sizes(t, to, from);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_probe", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, peer_parts);
	part_anysource(&t);
	part_procnull(&t);
	part_nothing_left(&t);
	return emu_finish(&t);
}
