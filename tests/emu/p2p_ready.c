/*
 * p2p_ready.c -- ready-mode sends: MPI_Rsend and MPI_Irsend.
 *
 * Ranks pair up (2i, 2i+1; an odd last rank sits out).  The odd rank
 * posts its receives (a small and a 1 MiB message, by MPI_Irecv), then
 * tells its partner so with a zero-byte message; the even rank waits for
 * that, then sends with MPI_Irsend (small) and MPI_Rsend (1 MiB).  The
 * data arrive whole, with their tags.  MPI_Irsend to MPI_PROC_NULL
 * completes at once.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_ready" on rank 0.
 */
#include "emutest.h"

#define TAG_READY 32300
#define TAG_SMALL 32301
#define TAG_BIG 32302
#define SMALL 5
#define BIG (1 << 18)            /* ints: 1 MiB */

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_ready", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int partner = t.rank ^ 1;
	int *small = emu_alloc(&t, SMALL, sizeof *small);
	int *big = emu_alloc(&t, BIG, sizeof *big);
	MPI_Request rq[2];
	MPI_Status st[2];

	if (partner < t.size && (t.rank & 1)) {
		MPI_Irecv(small, SMALL, MPI_INT, partner, TAG_SMALL,
			  MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(big, BIG, MPI_INT, partner, TAG_BIG, MPI_COMM_WORLD,
			  &rq[1]);
		MPI_Send(NULL, 0, MPI_INT, partner, TAG_READY, MPI_COMM_WORLD);
		MPI_Waitall(2, rq, st);
		EMU_EQ(&t, st[0].MPI_TAG, TAG_SMALL, "the small message's tag");
		EMU_EQ(&t, st[1].MPI_TAG, TAG_BIG, "the big message's tag");
		EMU_SEQ(&t, small, SMALL, partner * 1000, "the small message");
		EMU_SEQ(&t, big, BIG, partner * 7, "the big message");
	} else if (partner < t.size) {
		emu_fill_seq(small, SMALL, t.rank * 1000);
		emu_fill_seq(big, BIG, t.rank * 7);
		MPI_Recv(NULL, 0, MPI_INT, partner, TAG_READY, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Irsend(small, SMALL, MPI_INT, partner, TAG_SMALL,
			   MPI_COMM_WORLD, &rq[0]);
		MPI_Rsend(big, BIG, MPI_INT, partner, TAG_BIG, MPI_COMM_WORLD);
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		EMU_TRUE(&t, rq[0] == MPI_REQUEST_NULL, "Irsend's request "
			 "after MPI_Wait");
	}
	int flag = 0;
	MPI_Irsend(small, SMALL, MPI_INT, MPI_PROC_NULL, TAG_SMALL,
		   MPI_COMM_WORLD, &rq[0]);
	MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
	EMU_TRUE(&t, flag, "Irsend to MPI_PROC_NULL completes at once");
	free(small);
	free(big);
	return emu_finish(&t);
}
