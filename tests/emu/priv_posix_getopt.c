/*
 * priv_posix_getopt.c -- getopt in a program that asks for strict POSIX.
 *
 * Compiled with _POSIX_C_SOURCE and without <getopt.h>, glibc's headers
 * turn getopt() into __posix_getopt(), which stops at the first operand
 * instead of permuting argv.  Run with "-a file -b x": every rank must
 * see -a, then the end with optind 2 (GNU getopt would go on to -b),
 * exchanging a message with its neighbours between two calls.  Then
 * each rank parses a vector of its own, also in POSIX order.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "emutest.h"

static void turn(emu_test *t, int step)
{
	int out = t->rank * 1000 + step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 1, &in, 1, MPI_INT,
		     emu_left(t, 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, emu_left(t, 1) * 1000 + step, "turn %d", step);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_posix_getopt", &argc, &argv);

	opterr = 0;
	int c = getopt(argc, argv, "ab:");
	EMU_EQ(&t, c, 'a', "first option");
	turn(&t, 0);
	c = getopt(argc, argv, "ab:");
	EMU_EQ(&t, c, -1, "POSIX: the operand ends the options");
	EMU_EQ(&t, optind, 2, "optind at the operand");
	turn(&t, 1);
	EMU_TRUE(&t, argc == 5 && strcmp(argv[2], "file") == 0,
		 "argv is not permuted");

	/* A vector of the rank's own: -b R, then an operand, then -a. */
	char num[16];
	snprintf(num, sizeof num, "%d", t.rank);
	char *v[] = { "own", "-b", num, "op", "-a", NULL };
	optind = 1;
	c = getopt(5, v, "ab:");
	EMU_EQ(&t, c, 'b', "own vector: -b");
	EMU_TRUE(&t, optarg && strcmp(optarg, num) == 0, "own vector: -b %s",
		 num);
	turn(&t, 2);
	c = getopt(5, v, "ab:");
	EMU_EQ(&t, c, -1, "own vector: stops at op");
	EMU_EQ(&t, optind, 3, "own vector: optind");
	return emu_finish(&t);
}
