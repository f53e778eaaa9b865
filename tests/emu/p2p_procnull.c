/*
 * p2p_procnull.c -- communication with MPI_PROC_NULL.
 *
 * Send, Ssend, Rsend, Isend, Issend to MPI_PROC_NULL and Recv, Irecv,
 * Probe, Iprobe from it complete at once (the first MPI_Test says so);
 * a receive leaves its buffer alone and its status has source
 * MPI_PROC_NULL, tag MPI_ANY_TAG and count 0 (also from Waitall).
 * Sendrecv along an open chain 0 -> 1 -> ... -> size-1: the first rank
 * receives from MPI_PROC_NULL (empty status, buffer unchanged), the last
 * sends to it; every other rank gets its left neighbour's data.  The
 * same with Sendrecv_replace in the other direction, and with both ends
 * MPI_PROC_NULL (the buffer must not change).
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_procnull" on rank 0.
 */
#include "emutest.h"

#define N 4

static void check_null_status(emu_test *t, const MPI_Status *st,
			      const char *what)
{
	int n = -1;
	MPI_Get_count(st, MPI_INT, &n);
	EMU_EQ(t, st->MPI_SOURCE, MPI_PROC_NULL, "%s: status source", what);
	EMU_EQ(t, st->MPI_TAG, MPI_ANY_TAG, "%s: status tag", what);
	EMU_EQ(t, n, 0, "%s: status count", what);
}

static void check_untouched(emu_test *t, const int *b, const char *what)
{
	EMU_SEQ(t, b, N, 7000, "%s: buffer changed", what);
}

static void fill(int *b)
{
	emu_fill_seq(b, N, 7000);
}

static void blocking(emu_test *t)
{
	int b[N];
	MPI_Status st;
	fill(b);
	MPI_Send(b, N, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
	MPI_Ssend(b, N, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
	MPI_Rsend(b, N, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
	MPI_Recv(b, N, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
	check_null_status(t, &st, "Recv");
	check_untouched(t, b, "Recv");
	MPI_Recv(b, N, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	check_untouched(t, b, "Recv(ANY_TAG)");
	MPI_Probe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
	check_null_status(t, &st, "Probe");
	int flag = 0;
	MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
	EMU_EQ(t, flag, 1, "Iprobe flag");
	check_null_status(t, &st, "Iprobe");
}

static void nonblocking(emu_test *t)
{
	int b[N], b2[N], s[N];
	MPI_Request rq[3];
	MPI_Status st, sts[3];
	int flag = 0;
	fill(b);
	fill(b2);
	fill(s);

	MPI_Irecv(b, N, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq[0]);
	MPI_Test(&rq[0], &flag, &st);
	EMU_EQ(t, flag, 1, "Irecv: first Test's flag");
	if (flag) {
		check_null_status(t, &st, "Irecv + Test");
		EMU_EQ(t, rq[0], MPI_REQUEST_NULL, "Irecv: request after Test");
	} else {
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	}
	MPI_Isend(s, N, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq[0]);
	flag = 0;
	MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 1, "Isend: first Test's flag");
	if (!flag)
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Issend(s, N, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rq[0]);
	flag = 0;
	MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 1, "Issend: first Test's flag");
	if (!flag)
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);

	MPI_Irecv(b, N, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD,
		  &rq[0]);
	MPI_Isend(s, N, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &rq[1]);
	MPI_Irecv(b2, N, MPI_INT, MPI_PROC_NULL, 6, MPI_COMM_WORLD, &rq[2]);
	MPI_Waitall(3, rq, sts);
	check_null_status(t, &sts[0], "Waitall [0]");
	check_null_status(t, &sts[2], "Waitall [2]");
	check_untouched(t, b, "Irecv + Waitall [0]");
	check_untouched(t, b2, "Irecv + Waitall [2]");
}

static void chain(emu_test *t)
{
	int right = t->rank + 1 < t->size ? t->rank + 1 : MPI_PROC_NULL;
	int left = t->rank > 0 ? t->rank - 1 : MPI_PROC_NULL;
	int s[N], r[N];
	MPI_Status st;
	emu_fill_seq(s, N, t->rank * 100);
	fill(r);
	MPI_Sendrecv(s, N, MPI_INT, right, 8, r, N, MPI_INT, left, 8,
		     MPI_COMM_WORLD, &st);
	if (left == MPI_PROC_NULL) {
		check_null_status(t, &st, "chain Sendrecv");
		check_untouched(t, r, "chain Sendrecv");
	} else {
		EMU_EQ(t, st.MPI_SOURCE, left, "chain Sendrecv: source");
		EMU_EQ(t, st.MPI_TAG, 8, "chain Sendrecv: tag");
		EMU_SEQ(t, r, N, left * 100, "chain Sendrecv");
	}

	/* Sendrecv_replace leftwards. */
	emu_fill_seq(s, N, t->rank * 100 + 50);
	MPI_Sendrecv_replace(s, N, MPI_INT, left, 9, right, MPI_ANY_TAG,
			     MPI_COMM_WORLD, &st);
	EMU_SEQ(t, s, N, (right == MPI_PROC_NULL ? t->rank : right) * 100 + 50,
		"chain Sendrecv_replace");
	if (right == MPI_PROC_NULL)
		check_null_status(t, &st, "chain Sendrecv_replace");
	else
		EMU_EQ(t, st.MPI_TAG, 9, "chain Sendrecv_replace: tag");

	/* Both ends null. */
	fill(r);
	MPI_Sendrecv_replace(r, N, MPI_INT, MPI_PROC_NULL, 1, MPI_PROC_NULL,
			     1, MPI_COMM_WORLD, &st);
	check_null_status(t, &st, "Sendrecv_replace(PROC_NULL, PROC_NULL)");
	check_untouched(t, r, "Sendrecv_replace(PROC_NULL, PROC_NULL)");
	fill(r);
	MPI_Sendrecv(s, N, MPI_INT, MPI_PROC_NULL, 1, r, N, MPI_INT,
		     MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
	check_null_status(t, &st, "Sendrecv(PROC_NULL, PROC_NULL)");
	check_untouched(t, r, "Sendrecv(PROC_NULL, PROC_NULL)");
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_procnull", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	blocking(&t);
	nonblocking(&t);
	chain(&t);
	return emu_finish(&t);
}
