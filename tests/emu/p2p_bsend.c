/*
 * p2p_bsend.c -- buffered mode: MPI_Buffer_attach, MPI_Bsend, MPI_Ibsend,
 * MPI_Bsend_init, MPI_Buffer_detach.
 *
 * For each peer distance d (rank+d and rank-d, emutest.h):
 *   local    every rank buffers 5 ints and 1 MiB to rank+d with MPI_Bsend
 *            and MPI_Ibsend before anybody posts a receive (standard
 *            sends of 1 MiB would wait for their receives: with every
 *            rank sending first they would never return), overwrites its
 *            buffers (the data was copied), then receives from rank-d:
 *            the data sent, whole; MPI_Test of the MPI_Ibsend request is
 *            true at once;
 *   persist  MPI_Bsend_init started 3 times, the buffer changed between
 *            starts: each message carries the buffer as it was at its
 *            start.
 * Then, on each rank:
 *   detach   MPI_Buffer_detach returns the address and size attached
 *            (after the messages above have left);
 *   procnull MPI_Bsend to MPI_PROC_NULL, with a small buffer attached.
 * A buffered send without room is tests/emu/fault_bsend.c.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_bsend" on rank 0.
 */
#include "emutest.h"

enum { TAG_SMALL = 1, TAG_BIG, TAG_IB, TAG_PERSIST };

#define SMALL 5
#define BIG (1 << 18)            /* ints: 1 MiB */
/* Two distances of two 1 MiB messages that may not have left yet. */
#define ROOM (5 * (int)(BIG * sizeof(int)) + 16 * MPI_BSEND_OVERHEAD + 4096)

static void local(emu_test *t, int to, int from)
{
	int *small = emu_alloc(t, SMALL, sizeof(int));
	int *big = emu_alloc(t, BIG, sizeof(int));
	int *ib = emu_alloc(t, BIG, sizeof(int));
	int *in = emu_alloc(t, BIG, sizeof(int));
	MPI_Request rq;
	int flag = 0;

	emu_fill_seq(small, SMALL, t->rank * 1000);
	emu_fill_seq(big, BIG, t->rank * 7);
	emu_fill_seq(ib, BIG, t->rank * 11);
	MPI_Bsend(small, SMALL, MPI_INT, to, TAG_SMALL, MPI_COMM_WORLD);
	MPI_Bsend(big, BIG, MPI_INT, to, TAG_BIG, MPI_COMM_WORLD);
	MPI_Ibsend(ib, BIG, MPI_INT, to, TAG_IB, MPI_COMM_WORLD, &rq);
	MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
	EMU_TRUE(t, flag, "MPI_Ibsend's request complete at once");
	if (!flag)
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	/* The messages were copied: these do not travel. */
	emu_fill_seq(small, SMALL, -5000);
	emu_fill_seq(big, BIG, -5000);
	emu_fill_seq(ib, BIG, -5000);

	MPI_Recv(in, SMALL, MPI_INT, from, TAG_SMALL, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	EMU_SEQ(t, in, SMALL, from * 1000, "Bsend small from %d", from);
	MPI_Recv(in, BIG, MPI_INT, from, TAG_BIG, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	EMU_SEQ(t, in, BIG, from * 7, "Bsend 1 MiB from %d", from);
	MPI_Recv(in, BIG, MPI_INT, from, TAG_IB, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	EMU_SEQ(t, in, BIG, from * 11, "Ibsend 1 MiB from %d", from);
	free(small);
	free(big);
	free(ib);
	free(in);
}

static void persist(emu_test *t, int to, int from)
{
	int out[SMALL] = { 0 }, in[SMALL];
	MPI_Request rq;

	MPI_Bsend_init(out, SMALL, MPI_INT, to, TAG_PERSIST, MPI_COMM_WORLD,
		       &rq);
	for (int it = 0; it < 3; it++) {
		emu_fill_seq(out, SMALL, t->rank * 100 + it * 10);
		MPI_Start(&rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		EMU_TRUE(t, rq != MPI_REQUEST_NULL, "Bsend_init request "
			 "after MPI_Wait");
		emu_fill_seq(out, SMALL, -1);
	}
	for (int it = 0; it < 3; it++) {
		MPI_Recv(in, SMALL, MPI_INT, from, TAG_PERSIST, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		EMU_SEQ(t, in, SMALL, from * 100 + it * 10, "Bsend_init start "
			"%d from %d", it, from);
	}
	MPI_Request_free(&rq);
}

static void procnull(emu_test *t)
{
	int x[4] = { 0 }, size = 0;
	char room[64 + MPI_BSEND_OVERHEAD];
	void *got = NULL;

	MPI_Buffer_attach(room, (int)sizeof room);
	EMU_EQ(t, MPI_Bsend(x, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD),
	       MPI_SUCCESS, "MPI_Bsend to MPI_PROC_NULL");
	MPI_Buffer_detach(&got, &size);
	EMU_TRUE(t, got == (void *)room, "MPI_Buffer_detach's address");
	EMU_EQ(t, size, (int)sizeof room, "MPI_Buffer_detach's size");
}

int main(int argc, char **argv)
{
	emu_test t;
	void *got = NULL;
	int size = 0;

	emu_init(&t, "p2p_bsend", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	char *room = emu_alloc(&t, ROOM, 1);
	MPI_Buffer_attach(room, ROOM);
	emu_each_peer(&t, local);
	emu_each_peer(&t, persist);
	MPI_Buffer_detach(&got, &size);
	EMU_TRUE(&t, got == (void *)room, "MPI_Buffer_detach's address");
	EMU_EQ(&t, size, ROOM, "MPI_Buffer_detach's size");
	free(room);
	procnull(&t);
	return emu_finish(&t);
}
