/*
 * p2p_cancel.c -- MPI_Cancel of receives and MPI_Test_cancelled.
 *
 * For each peer distance d (size/2 and 1), every rank receives from
 * rank-d and sends to rank+d:
 *   unmatched  an Irecv from rank-d (and one from MPI_ANY_SOURCE) for a
 *              tag its sender sends only after a later "go" is cancelled:
 *              MPI_Wait (resp. a loop of MPI_Test) completes it and
 *              MPI_Test_cancelled is true; the request is null after.
 *              The message sent after the go then reaches a new receive:
 *              the cancelled one took nothing.
 *   matched    an Irecv that has certainly been matched -- its sender
 *              used MPI_Ssend, which returned, and then said so -- is
 *              cancelled: MPI_Wait completes it normally, with the data
 *              and status, and MPI_Test_cancelled is false.
 * (Cancelling sends is not tested: MPI 4 deprecates it.)
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_cancel" on rank 0.
 */
#include "emutest.h"

enum { TAG_C1 = 1, TAG_C2, TAG_GO, TAG_POSTED, TAG_MATCHED,
       TAG_NEVER = 999 };

static void unmatched(emu_test *t, int to, int from)
{
	int b1 = -1, b2 = -1, flag = -1;
	MPI_Request r1, r2, sq[2];
	MPI_Status st;

	MPI_Irecv(&b1, 1, MPI_INT, from, TAG_C1, MPI_COMM_WORLD, &r1);
	MPI_Irecv(&b2, 1, MPI_INT, MPI_ANY_SOURCE, TAG_NEVER, MPI_COMM_WORLD,
		  &r2);
	MPI_Cancel(&r1);
	MPI_Wait(&r1, &st);
	MPI_Test_cancelled(&st, &flag);
	EMU_EQ(t, flag, 1, "unmatched: Test_cancelled after Cancel + Wait");
	EMU_EQ(t, r1, MPI_REQUEST_NULL, "unmatched: request after Wait");
	EMU_EQ(t, b1, -1, "unmatched: buffer of the cancelled receive");

	MPI_Cancel(&r2);
	flag = 0;
	while (!flag)
		MPI_Test(&r2, &flag, &st);
	flag = -1;
	MPI_Test_cancelled(&st, &flag);
	EMU_EQ(t, flag, 1, "unmatched: Test_cancelled after Cancel + Test "
	       "(ANY_SOURCE)");
	EMU_EQ(t, r2, MPI_REQUEST_NULL, "unmatched: request after Test");

	/* Now let the sender send tag C1; a fresh receive gets it. */
	int v = t->rank * 10 + 1;
	emu_handshake(from, to, TAG_GO, &sq[0]);
	MPI_Isend(&v, 1, MPI_INT, to, TAG_C1, MPI_COMM_WORLD, &sq[1]);
	MPI_Recv(&b1, 1, MPI_INT, from, TAG_C1, MPI_COMM_WORLD, &st);
	EMU_EQ(t, b1, from * 10 + 1, "unmatched: message after the cancel");
	flag = -1;
	MPI_Test_cancelled(&st, &flag);
	EMU_EQ(t, flag, 0, "unmatched: Test_cancelled of a plain Recv");
	MPI_Waitall(2, sq, MPI_STATUSES_IGNORE);
}

static void matched(emu_test *t, int to, int from)
{
	int b = -1, v = t->rank * 10 + 2, flag = -1;
	MPI_Request rq, sq[2];
	MPI_Status st;

	MPI_Irecv(&b, 1, MPI_INT, from, TAG_C2, MPI_COMM_WORLD, &rq);
	/* as the sender: once the receive is posted, Ssend, then say so */
	emu_handshake(from, to, TAG_POSTED, &sq[0]);
	MPI_Ssend(&v, 1, MPI_INT, to, TAG_C2, MPI_COMM_WORLD);
	/* as the receiver, once told: the Irecv is matched; cancelling must
	 * fail */
	emu_handshake(to, from, TAG_MATCHED, &sq[1]);
	MPI_Cancel(&rq);
	MPI_Wait(&rq, &st);
	MPI_Test_cancelled(&st, &flag);
	EMU_EQ(t, flag, 0, "matched: Test_cancelled of a matched receive");
	EMU_EQ(t, b, from * 10 + 2, "matched: payload");
	EMU_EQ(t, st.MPI_SOURCE, from, "matched: status source");
	EMU_EQ(t, st.MPI_TAG, TAG_C2, "matched: status tag");
	MPI_Waitall(2, sq, MPI_STATUSES_IGNORE);
}

/* The parts for one peer distance, in order. */
static void peer_parts(emu_test *t, int to, int from)
{
	unmatched(t, to, from);
	matched(t, to, from);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_cancel", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, peer_parts);
	return emu_finish(&t);
}
