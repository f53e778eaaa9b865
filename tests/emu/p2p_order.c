/*
 * p2p_order.c -- non-overtaking: messages with the same (source, tag,
 * communicator) are received in the order they were sent.
 *
 * For each peer distance d (size/2 and 1), every rank sends to rank+d and
 * receives from rank-d:
 *   posted    NALT messages cycling through 8 B, 1 MiB and 16 KiB (an
 *             envelope of the transport's batches, a rendezvous, and an
 *             eager message too large for a batch, which leaves alone
 *             after the batch before it), every receive (Irecv) posted
 *             before the first send (a "ready" handshake);
 *   unexpect. the same, all Isends issued before the receiver posts its
 *             Irecvs (a "sent" message on another tag says so);
 *   mixed     half of the receives posted before the sends, the rest
 *             blocking Recvs after;
 *   twotags   NSMALL small messages alternating tags A and B; all B are
 *             received first, then all A: each subsequence in order.
 * Then every rank sends NSELF messages to itself on MPI_COMM_WORLD and
 * on MPI_COMM_SELF (same tag, interleaved) and receives the SELF ones
 * first: order holds per communicator and the communicators don't mix.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_order" on rank 0.
 */
#include "emutest.h"

#include <stdint.h>

#define NALT 6                  /* messages per sequence: 2 of each size */
#define SMALL 8
#define LARGE (1 << 20)
#define MEDIUM (16 << 10)
#define NSMALL 200
#define NSELF 20

enum { TAG_POSTED = 1, TAG_UNEXP, TAG_MIXED, TAG_A, TAG_B, TAG_READY,
       TAG_SENT, TAG_SELF };

static size_t msg_len(int seq)
{
	return seq % 3 == 0 ? SMALL : seq % 3 == 1 ? LARGE : MEDIUM;
}

static unsigned char pat(int src, int seq, size_t j)
{
	return (unsigned char)((unsigned)src * 131u + (unsigned)seq * 17u +
			       j * 7u + (j >> 9));
}

static unsigned char **alloc_msgs(emu_test *t, int src, int fill)
{
	unsigned char **b = emu_alloc(t, NALT, sizeof *b);
	for (int i = 0; i < NALT; i++) {
		b[i] = emu_alloc(t, msg_len(i), 1);
		for (size_t j = 0; j < msg_len(i); j++)
			b[i][j] = fill ? pat(src, i, j) : 0xee;
	}
	return b;
}

static void free_msgs(unsigned char **b)
{
	for (int i = 0; i < NALT; i++)
		free(b[i]);
	free(b);
}

/* Receive i of a sequence got message i of `src'. */
static void check_msg(emu_test *t, const char *what, int src, int i,
		      const unsigned char *buf, const MPI_Status *st)
{
	int n;
	MPI_Get_count(st, MPI_BYTE, &n);
	EMU_EQ(t, n, msg_len(i), "%s: receive %d from %d: byte count", what,
	       i, src);
	EMU_EQ(t, st->MPI_SOURCE, src, "%s: receive %d: status source",
	       what, i);
	for (size_t j = 0; j < msg_len(i) && j < (size_t)n; j++)
		if (!EMU_EQ(t, buf[j], pat(src, i, j),
			    "%s: receive %d from %d: byte %zu (out of order?)",
			    what, i, src, j))
			break;
}

/* All receives posted before the first send. */
static void seq_posted(emu_test *t, int to, int from)
{
	unsigned char **rb = alloc_msgs(t, from, 0);
	unsigned char **sb = alloc_msgs(t, t->rank, 1);
	MPI_Request rq[NALT + 1];
	MPI_Status st[NALT + 1];
	for (int i = 0; i < NALT; i++)
		MPI_Irecv(rb[i], (int)msg_len(i), MPI_BYTE, from, TAG_POSTED,
			  MPI_COMM_WORLD, &rq[i]);
	emu_handshake(from, to, TAG_READY, &rq[NALT]);
	for (int i = 0; i < NALT; i++)
		MPI_Send(sb[i], (int)msg_len(i), MPI_BYTE, to, TAG_POSTED,
			 MPI_COMM_WORLD);
	MPI_Waitall(NALT + 1, rq, st);
	for (int i = 0; i < NALT; i++)
		check_msg(t, "posted", from, i, rb[i], &st[i]);
	free_msgs(rb);
	free_msgs(sb);
}

/* All sends issued before the first receive is posted. */
static void seq_unexpected(emu_test *t, int to, int from)
{
	unsigned char **rb = alloc_msgs(t, from, 0);
	unsigned char **sb = alloc_msgs(t, t->rank, 1);
	MPI_Request sq[NALT + 1], rq[NALT];
	MPI_Status st[NALT];
	for (int i = 0; i < NALT; i++)
		MPI_Isend(sb[i], (int)msg_len(i), MPI_BYTE, to, TAG_UNEXP,
			  MPI_COMM_WORLD, &sq[i]);
	emu_handshake(to, from, TAG_SENT, &sq[NALT]);
	for (int i = 0; i < NALT; i++)
		MPI_Irecv(rb[i], (int)msg_len(i), MPI_BYTE, from, TAG_UNEXP,
			  MPI_COMM_WORLD, &rq[i]);
	MPI_Waitall(NALT, rq, st);
	MPI_Waitall(NALT + 1, sq, MPI_STATUSES_IGNORE);
	for (int i = 0; i < NALT; i++)
		check_msg(t, "unexpected", from, i, rb[i], &st[i]);
	free_msgs(rb);
	free_msgs(sb);
}

/* Half the receives posted before the sends, half (blocking) after. */
static void seq_mixed(emu_test *t, int to, int from)
{
	unsigned char **rb = alloc_msgs(t, from, 0);
	unsigned char **sb = alloc_msgs(t, t->rank, 1);
	MPI_Request rq[NALT / 2 + 1], sq[NALT];
	MPI_Status st[NALT], wst[NALT / 2 + 1];
	for (int i = 0; i < NALT / 2; i++)
		MPI_Irecv(rb[i], (int)msg_len(i), MPI_BYTE, from, TAG_MIXED,
			  MPI_COMM_WORLD, &rq[i]);
	emu_handshake(from, to, TAG_READY, &rq[NALT / 2]);
	for (int i = 0; i < NALT; i++)
		MPI_Isend(sb[i], (int)msg_len(i), MPI_BYTE, to, TAG_MIXED,
			  MPI_COMM_WORLD, &sq[i]);
	for (int i = NALT / 2; i < NALT; i++)
		MPI_Recv(rb[i], (int)msg_len(i), MPI_BYTE, from, TAG_MIXED,
			 MPI_COMM_WORLD, &st[i]);
	MPI_Waitall(NALT / 2 + 1, rq, wst);
	memcpy(st, wst, NALT / 2 * sizeof *st);
	MPI_Waitall(NALT, sq, MPI_STATUSES_IGNORE);
	for (int i = 0; i < NALT; i++)
		check_msg(t, "mixed", from, i, rb[i], &st[i]);
	free_msgs(rb);
	free_msgs(sb);
}

/* Small messages on two tags; each tag's subsequence stays in order. */
static void seq_twotags(emu_test *t, int to, int from)
{
	int *sbuf = emu_alloc(t, NSMALL, sizeof *sbuf);
	MPI_Request *sq = emu_alloc(t, NSMALL, sizeof *sq);
	for (int i = 0; i < NSMALL; i++) {
		sbuf[i] = t->rank * 100000 + i;
		MPI_Isend(&sbuf[i], 1, MPI_INT, to, i % 2 ? TAG_B : TAG_A,
			  MPI_COMM_WORLD, &sq[i]);
	}
	for (int pass = 0; pass < 2; pass++) {
		int odd = pass == 0;    /* tag B (odd i) first */
		for (int i = odd; i < NSMALL; i += 2) {
			int v = -1;
			MPI_Status st;
			MPI_Recv(&v, 1, MPI_INT, from, odd ? TAG_B : TAG_A,
				 MPI_COMM_WORLD, &st);
			EMU_EQ(t, v, from * 100000 + i,
			       "twotags: tag %s message from %d",
			       odd ? "B" : "A", from);
			EMU_EQ(t, st.MPI_TAG, odd ? TAG_B : TAG_A,
			       "twotags: status tag");
		}
	}
	MPI_Waitall(NSMALL, sq, MPI_STATUSES_IGNORE);
	free(sbuf);
	free(sq);
}

/* To itself on WORLD and SELF with the same tag, interleaved. */
static void self_messages(emu_test *t)
{
	int sbuf[2 * NSELF];
	MPI_Request sq[2 * NSELF];
	for (int i = 0; i < NSELF; i++) {
		sbuf[2 * i] = 1000 + i;         /* WORLD */
		sbuf[2 * i + 1] = 2000 + i;     /* SELF */
		MPI_Isend(&sbuf[2 * i], 1, MPI_INT, t->rank, TAG_SELF,
			  MPI_COMM_WORLD, &sq[2 * i]);
		MPI_Isend(&sbuf[2 * i + 1], 1, MPI_INT, 0, TAG_SELF,
			  MPI_COMM_SELF, &sq[2 * i + 1]);
	}
	for (int i = 0; i < NSELF; i++) {
		int v = -1;
		MPI_Status st;
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_SELF,
			 MPI_COMM_SELF, &st);
		EMU_EQ(t, v, 2000 + i, "self: MPI_COMM_SELF message %d", i);
		EMU_EQ(t, st.MPI_SOURCE, 0, "self: COMM_SELF status source");
	}
	for (int i = 0; i < NSELF; i++) {
		int v = -1;
		MPI_Status st;
		MPI_Recv(&v, 1, MPI_INT, t->rank, TAG_SELF, MPI_COMM_WORLD,
			 &st);
		EMU_EQ(t, v, 1000 + i, "self: MPI_COMM_WORLD message %d", i);
		EMU_EQ(t, st.MPI_SOURCE, t->rank, "self: WORLD status source");
	}
	MPI_Waitall(2 * NSELF, sq, MPI_STATUSES_IGNORE);
}

/* The sequences for one peer distance, in order. */
static void peer_parts(emu_test *t, int to, int from)
{
	seq_posted(t, to, from);
	seq_unexpected(t, to, from);
	seq_mixed(t, to, from);
	seq_twotags(t, to, from);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_order", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, peer_parts);
	self_messages(&t);
	return emu_finish(&t);
}
