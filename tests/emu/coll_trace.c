/*
 * coll_trace.c -- one MPI_Alltoall of one int per pair, checked; its
 * trace shows the algorithm's message schedule (tests/emu_coll.sh
 * compares the destinations of a rank's sends, round by round, with
 * pairwise exchange and with the PERCS-aware schedule).  The only
 * collective of the program, so its messages are the only ones with a
 * tag below emutest.h's.
 *
 * Any rank count.
 */
#include "emutest.h"

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_trace", &argc, &argv);
	int P = t.size, me = t.rank;
	int *s = emu_alloc(&t, (size_t)P, sizeof(int));
	int *r = emu_alloc(&t, (size_t)P, sizeof(int));
	for (int j = 0; j < P; j++)
		s[j] = me * P + j;
	MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
	for (int j = 0; j < P; j++)
		if (!EMU_EQ(&t, r[j], j * P + me, "alltoall from %d", j))
			break;
	free(s);
	free(r);
	return emu_finish(&t);
}
