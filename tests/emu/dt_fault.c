/*
 * dt_fault.c -- wrong uses of datatypes under the default error handler
 * (expected to FAIL).  argv[1] says which; the last rank (size-1) makes
 * the mistake, the others just finalize:
 *   uncommitted  MPI_Send to rank 0 with a vector never committed;
 *   freed        MPI_Send with a copy of a handle already freed;
 *   pack         MPI_Pack of 4 ints into a 12-byte buffer;
 *   count        MPI_Type_vector with count -1;
 *   null         MPI_Type_contiguous of MPI_DATATYPE_NULL.
 * Expected: the call fails with MPI_ERR_TYPE (uncommitted, freed, null),
 * MPI_ERR_TRUNCATE (pack) or MPI_ERR_COUNT (count) and the run aborts
 * with a message naming the rank, the call and the problem.  If the call
 * returns, the program prints "dt_fault: ... returned" and exits 1.
 * Natively, `freed' is undefined behaviour (Open MPI may crash instead).
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int wrong(const char *what)
{
	int v[4] = { 1, 2, 3, 4 };
	MPI_Datatype t, copy;
	if (!strcmp(what, "uncommitted")) {
		MPI_Type_vector(2, 1, 2, MPI_INT, &t);
		return MPI_Send(v, 1, t, 0, 1, MPI_COMM_WORLD);
	}
	if (!strcmp(what, "freed")) {
		MPI_Type_vector(2, 1, 2, MPI_INT, &t);
		MPI_Type_commit(&t);
		copy = t;
		MPI_Type_free(&t);
		return MPI_Send(v, 1, copy, 0, 1, MPI_COMM_WORLD);
	}
	if (!strcmp(what, "pack")) {
		char buf[12];
		int pos = 0;
		return MPI_Pack(v, 4, MPI_INT, buf, sizeof buf, &pos,
				MPI_COMM_WORLD);
	}
	if (!strcmp(what, "count"))
		return MPI_Type_vector(-1, 1, 2, MPI_INT, &t);
	if (!strcmp(what, "null"))
		return MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t);
	fprintf(stderr, "dt_fault: unknown case '%s'\n", what);
	return -1;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2) {
		if (rank == 0)
			fprintf(stderr, "usage: dt_fault uncommitted|freed|"
				"pack|count|null\n");
		MPI_Finalize();
		return 2;
	}
	if (rank == size - 1) {
		int rc = wrong(argv[1]);
		printf("dt_fault: %s returned %d instead of aborting\n",
		       argv[1], rc);
		return 1;
	}
	MPI_Finalize();
	return 0;
}
