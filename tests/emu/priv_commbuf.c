/*
 * priv_commbuf.c -- message buffers that are globals.
 *
 * Real MPI programs send from and receive into global arrays.  With
 * privatized globals every rank of a process has the same address for
 * them, so the runtime must move the data from and to the copy of the
 * right rank even when another rank is running (a sender filling a
 * posted receive, a receiver copying from a waiting sender, Open MPI
 * moving a large message between processes).  Each rank exchanges, with
 * its neighbours at distance 1 and size/2, buffers that are globals:
 * small (eager) and 256 KiB (rendezvous) messages with Sendrecv, with
 * Irecv posted before the peer sends, with Isend completed late, and a
 * strided (vector datatype) receive; then collectives on globals
 * (Bcast of 256 KiB, Allreduce, Alltoall).  Every received element is
 * checked against the sender's analytic contents; so are the send
 * buffers afterwards (nobody wrote into them).
 */
#include "emutest.h"

#define SMALL 64
#define LARGE (64 * 1024)       /* ints: 256 KiB */

static int sbuf[LARGE], rbuf[LARGE];
static int ssmall[SMALL], rsmall[SMALL];
static int strided[2 * SMALL];
static long sums[SMALL];
static int a2a_out[1024], a2a_in[1024];  /* up to 1024 ranks */

static int value(int rank, int i, int salt)
{
	return rank * 1000003 + i * 7 + salt;
}

static void fill(int *b, int n, int rank, int salt)
{
	for (int i = 0; i < n; i++)
		b[i] = value(rank, i, salt);
}

static int check(emu_test *t, const int *b, int n, int rank, int salt,
		 const char *what)
{
	for (int i = 0; i < n; i++)
		if (!EMU_EQ(t, b[i], value(rank, i, salt), "%s[%d] (from %d)",
			    what, i, rank))
			return 0;
	return 1;
}

static void exchange(emu_test *t, int to, int from)
{
	MPI_Request rq[2];
	MPI_Datatype vec;
	/* The distance: the same for a rank's sender and receiver. */
	int d_to = (to - t->rank + t->size) % t->size;
	int d_from = (t->rank - from + t->size) % t->size;

	/* Sendrecv, small and large. */
	fill(ssmall, SMALL, t->rank, 1);
	fill(sbuf, LARGE, t->rank, 2);
	MPI_Sendrecv(ssmall, SMALL, MPI_INT, to, 1, rsmall, SMALL, MPI_INT,
		     from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	check(t, rsmall, SMALL, from, 1, "Sendrecv small");
	MPI_Sendrecv(sbuf, LARGE, MPI_INT, to, 2, rbuf, LARGE, MPI_INT,
		     from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	check(t, rbuf, LARGE, from, 2, "Sendrecv large");

	/* Receives posted first, sends completed late. */
	memset(rbuf, 0, sizeof rbuf);
	memset(rsmall, 0, sizeof rsmall);
	fill(sbuf, LARGE, t->rank, 3 + d_to);
	MPI_Irecv(rbuf, LARGE, MPI_INT, from, 3, MPI_COMM_WORLD, &rq[0]);
	MPI_Irecv(rsmall, SMALL, MPI_INT, from, 4, MPI_COMM_WORLD, &rq[1]);
	MPI_Send(sbuf, LARGE, MPI_INT, to, 3, MPI_COMM_WORLD);
	fill(ssmall, SMALL, t->rank, 4);
	MPI_Send(ssmall, SMALL, MPI_INT, to, 4, MPI_COMM_WORLD);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	check(t, rbuf, LARGE, from, 3 + d_from, "Irecv large");
	check(t, rsmall, SMALL, from, 4, "Irecv small");

	/* A strided receive: every other int of a global. */
	memset(strided, 0, sizeof strided);
	MPI_Type_vector(SMALL, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Irecv(strided, 1, vec, from, 5, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(ssmall, SMALL, MPI_INT, to, 5, MPI_COMM_WORLD, &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	for (int i = 0; i < SMALL; i++) {
		EMU_EQ(t, strided[2 * i], value(from, i, 4), "strided[%d]",
		       2 * i);
		EMU_EQ(t, strided[2 * i + 1], 0, "gap strided[%d]", 2 * i + 1);
	}
	MPI_Type_free(&vec);
	check(t, ssmall, SMALL, t->rank, 4, "small send buffer after");
}

static void collectives(emu_test *t)
{
	/* Bcast from the last rank, into every rank's global. */
	int root = t->size - 1;
	if (t->rank == root)
		fill(rbuf, LARGE, root, 6);
	else
		memset(rbuf, 0, sizeof rbuf);
	MPI_Bcast(rbuf, LARGE, MPI_INT, root, MPI_COMM_WORLD);
	check(t, rbuf, LARGE, root, 6, "Bcast");

	long in[SMALL];
	for (int i = 0; i < SMALL; i++)
		in[i] = (long)t->rank * i + 1;
	memset(sums, 0, sizeof sums);
	MPI_Allreduce(in, sums, SMALL, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	long n = t->size;
	for (int i = 0; i < SMALL; i++)
		if (!EMU_EQ(t, sums[i], n * (n - 1) / 2 * i + n,
			    "Allreduce[%d]", i))
			break;

	if (t->size > 1024)
		return;
	for (int j = 0; j < t->size; j++)
		a2a_out[j] = t->rank * 10000 + j;
	memset(a2a_in, 0, sizeof a2a_in);
	MPI_Alltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT,
		     MPI_COMM_WORLD);
	for (int j = 0; j < t->size; j++)
		if (!EMU_EQ(t, a2a_in[j], j * 10000 + t->rank,
			    "Alltoall from %d", j))
			break;
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_commbuf", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, exchange);
	collectives(&t);
	return emu_finish(&t);
}
