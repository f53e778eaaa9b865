/*
 * priv_exit.c -- exit() in a rank.
 *
 * Usage: priv_exit after | zero | before
 *
 *   after   every rank exchanges messages, finalizes (emu_finish) and
 *           then calls exit(): ranks r with r % 4 == 3 with status
 *           10 + r, the others with 0 -- except the ranks with
 *           r % 4 == 1, which return from main instead.  Each rank must
 *           end right there: code after exit() prints a FAIL line.  The
 *           run's status is that of its lowest rank with a non-zero one.
 *   zero    the same, every rank with exit(0): the run succeeds.
 *   before  rank 2 (or the last rank, with fewer) calls exit(5) before
 *           MPI_Finalize, the others wait for a message from it: the
 *           emulation stops with a report naming rank 2 and exit(5).
 */
#include "emutest.h"

static void ring(emu_test *t, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		int out = t->rank + i, in = -1;
		MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 3, &in, 1,
			     MPI_INT, emu_left(t, 1), 3, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		EMU_EQ(t, in, emu_left(t, 1) + i, "ring round %d", i);
	}
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_exit", &argc, &argv);
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "before") == 0) {
		int quitter = t.size > 2 ? 2 : t.size - 1;
		ring(&t, 2);
		if (t.rank == quitter)
			exit(5);
		int x;
		/* Never sent: the quitter has gone. */
		MPI_Recv(&x, 1, MPI_INT, quitter, 9, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		printf("FAIL priv_exit: rank %d received from the rank that "
		       "called exit()\n", t.rank);
		return 1;
	}
	if (strcmp(mode, "after") && strcmp(mode, "zero")) {
		emu_fail(&t, __LINE__, "usage: priv_exit after|zero|before");
		return emu_finish(&t);
	}
	ring(&t, 3);
	int rc = emu_finish(&t);
	if (rc)
		return rc;
	if (t.rank % 4 == 1)
		return 0;
	exit(strcmp(mode, "after") == 0 && t.rank % 4 == 3 ? 10 + t.rank : 0);
	printf("FAIL priv_exit: rank %d went on after exit()\n", t.rank);
	fflush(stdout);
	return 99;
}
