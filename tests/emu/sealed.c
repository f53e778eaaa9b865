/*
 * sealed.c -- a program that defines names of Sibyl's internals.
 *
 * libsibyl-emu is sealed (emulator/Makefile.inc): only the MPI calls,
 * sibyl_*, main and a few C library functions are global in it.  This
 * program defines objects and functions named like the emulator's own
 * state, scheduler, collectives, user-level threads and trace writer,
 * with other types.  It must link, and the runtime must never reach
 * them: each function aborts unless the program itself called it.
 * Rank 0 prints "PASS sealed" when every rank's sum is right.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Called only from here: `armed' is set around each call. */
static int armed;

static void check_caller(const char *name)
{
	if (!armed) {
		fprintf(stderr, "FAIL sealed: the runtime called the "
			"program's %s\n", name);
		abort();
	}
}

/* The emulator's state is a struct named emu. */
int emu[3] = { 3, 5, 7 };
double emu_self = 0.5;
const char *sibt_strerror = "the program's string";

int coll_reduce(int a, int b)
{
	check_caller("coll_reduce");
	return a + b;
}

int coll_send(int x)
{
	check_caller("coll_send");
	return 2 * x;
}

long ult_switch(long x)
{
	check_caller("ult_switch");
	return x + 1;
}

unsigned tf_crc32(unsigned crc, const void *p, unsigned long n)
{
	check_caller("tf_crc32");
	const unsigned char *b = p;
	for (unsigned long i = 0; i < n; i++)
		crc = crc * 31u + b[i];
	return crc;
}

int emu_block(int x)
{
	check_caller("emu_block");
	return x - 1;
}

int emu_fatal(int x)
{
	check_caller("emu_fatal");
	return x * 3;
}

int emu_tr_init(void)
{
	check_caller("emu_tr_init");
	return 11;
}

int sibt_trace_open(int x)
{
	check_caller("sibt_trace_open");
	return x ^ 1;
}

int tf_manifest_parse(int x)
{
	check_caller("tf_manifest_parse");
	return x + 100;
}

int main(int argc, char **argv)
{
	int rank, size, mine, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	armed = 1;
	/* 15 + 2 + 1 + ... : a value each name contributes to. */
	mine = emu[0] + emu[1] + emu[2];                      /* 15 */
	mine = coll_reduce(mine, coll_send(1));               /* 17 */
	mine = (int)ult_switch(mine);                         /* 18 */
	mine = emu_block(mine);                               /* 17 */
	mine = emu_fatal(mine) - 2 * 17;                      /* 17 */
	mine += emu_tr_init() - 11;                           /* 17 */
	mine = sibt_trace_open(sibt_trace_open(mine));        /* 17 */
	mine = tf_manifest_parse(mine) - 100;                 /* 17 */
	mine += (int)(emu_self * 2) - 1;                      /* 17 */
	mine += tf_crc32(0, "", 0) + (sibt_strerror[0] == 't' ? 0 : 1);
	armed = 0;
	MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf(sum == 17 * size ? "PASS sealed\n" :
		       "FAIL sealed: sum %d, want %d\n", sum, 17 * size);
	MPI_Finalize();
	return sum == 17 * size ? 0 : 1;
}
