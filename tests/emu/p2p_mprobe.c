/*
 * p2p_mprobe.c -- matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv,
 * MPI_Imrecv.
 *
 * For each peer distance d (rank+d and rank-d, emutest.h), every rank
 * sends to rank+d, with one tag per distance: two messages of 5 ints
 * (tag A, the second one different), then 1 MiB (tag B).  The receiver
 *   - MPI_Mprobes with MPI_ANY_SOURCE and tag A: the status gives rank-d
 *     and 5 ints; the matched message is out of the queue, so a plain
 *     MPI_Recv of tag A then gets the second message, and MPI_Mrecv the
 *     first;
 *   - MPI_Improbes for tag B until it is there (the status counts 1 MiB),
 *     receives it with MPI_Imrecv and MPI_Wait: the data whole;
 *   - the handles become MPI_MESSAGE_NULL.
 * Then MPI_Mprobe from MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, and
 * MPI_Mrecv of that completes at once with source MPI_PROC_NULL and no
 * data.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_mprobe" on rank 0.
 */
#include "emutest.h"

#define SMALL 5
#define BIG (1 << 18)            /* ints: 1 MiB */

static void part(emu_test *t, int to, int from)
{
	int d = (to - t->rank + t->size) % t->size;
	int tag_a = 100 + 2 * d, tag_b = 101 + 2 * d, n = -1, flag = 0;
	int s1[SMALL], s2[SMALL], r1[SMALL], r2[SMALL];
	int *big = emu_alloc(t, BIG, sizeof(int));
	int *in = emu_alloc(t, BIG, sizeof(int));
	MPI_Request rq[3], q;
	MPI_Message msg;
	MPI_Status st;

	emu_fill_seq(s1, SMALL, t->rank * 100);
	emu_fill_seq(s2, SMALL, t->rank * 100 + 50);
	emu_fill_seq(big, BIG, t->rank * 7);
	MPI_Isend(s1, SMALL, MPI_INT, to, tag_a, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(s2, SMALL, MPI_INT, to, tag_a, MPI_COMM_WORLD, &rq[1]);
	MPI_Isend(big, BIG, MPI_INT, to, tag_b, MPI_COMM_WORLD, &rq[2]);

	MPI_Mprobe(MPI_ANY_SOURCE, tag_a, MPI_COMM_WORLD, &msg, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, st.MPI_SOURCE, from, "Mprobe: source");
	EMU_EQ(t, n, SMALL, "Mprobe: count");
	MPI_Recv(r2, SMALL, MPI_INT, from, tag_a, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	EMU_SEQ(t, r2, SMALL, from * 100 + 50, "a Recv after Mprobe gets the "
		"second message");
	MPI_Mrecv(r1, SMALL, MPI_INT, &msg, &st);
	EMU_SEQ(t, r1, SMALL, from * 100, "Mrecv gets the probed message");
	EMU_EQ(t, st.MPI_SOURCE, from, "Mrecv: source");
	EMU_TRUE(t, msg == MPI_MESSAGE_NULL, "the handle after Mrecv");

	do
		MPI_Improbe(from, tag_b, MPI_COMM_WORLD, &flag, &msg, &st);
	while (!flag);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, BIG, "Improbe: count");
	MPI_Imrecv(in, BIG, MPI_INT, &msg, &q);
	EMU_TRUE(t, msg == MPI_MESSAGE_NULL, "the handle after Imrecv");
	MPI_Wait(&q, &st);
	EMU_EQ(t, st.MPI_TAG, tag_b, "Imrecv: tag");
	EMU_SEQ(t, in, BIG, from * 7, "Imrecv: 1 MiB from %d", from);
	MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
	free(big);
	free(in);
}

int main(int argc, char **argv)
{
	emu_test t;
	MPI_Message msg;
	MPI_Status st;
	int x = 7, n = -1;

	emu_init(&t, "p2p_mprobe", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, part);
	MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
	EMU_TRUE(&t, msg == MPI_MESSAGE_NO_PROC, "Mprobe from MPI_PROC_NULL");
	MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(&t, st.MPI_SOURCE, MPI_PROC_NULL, "Mrecv of NO_PROC: source");
	EMU_EQ(&t, n, 0, "Mrecv of NO_PROC: count");
	EMU_EQ(&t, x, 7, "Mrecv of NO_PROC: buffer untouched");
	return emu_finish(&t);
}
