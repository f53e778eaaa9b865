/*
 * errh_user.c -- a handler of the program's (MPI_Comm_create_errhandler)
 * runs when an MPI call fails, and the call then returns the error.
 *
 * The handler appends the code it is given to the name of the
 * communicator it is given (no globals).  A send to rank `size' on a
 * duplicate with the handler calls it once with that duplicate and an
 * MPI_ERR_RANK code, and MPI_Send returns that code; the rank goes on
 * (a ring on the duplicate).  A handler that itself calls MPI (here
 * MPI_Comm_get_name and MPI_Comm_set_name) works.  An error of a call
 * that names no communicator (MPI_Group_incl) goes to MPI_COMM_WORLD's
 * handler (MPI-3.1 8.3).
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

static void name_handler(MPI_Comm *comm, int *code, ...)
{
	char name[MPI_MAX_OBJECT_NAME], more[MPI_MAX_OBJECT_NAME + 16];
	int len, cls = -1;
	MPI_Comm_get_name(*comm, name, &len);
	MPI_Error_class(*code, &cls);
	snprintf(more, sizeof more, "%s %d", name, cls);
	more[MPI_MAX_OBJECT_NAME - 1] = '\0';
	MPI_Comm_set_name(*comm, more);
}

static void expect_name(emu_test *t, MPI_Comm c, const char *want)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len;
	MPI_Comm_get_name(c, name, &len);
	EMU_TRUE(t, strcmp(name, want) == 0, "name \"%s\", want \"%s\"",
		 name, want);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "errh_user", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	MPI_Errhandler eh;
	MPI_Comm dup;
	char want[64];
	int x = 1, cls = -1, rank, size, in = -1;

	MPI_Comm_create_errhandler(name_handler, &eh);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_name(dup, "d");
	MPI_Comm_set_errhandler(dup, eh);
	int rc = MPI_Send(&x, 1, MPI_INT, t.size, 0, dup);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RANK, "MPI_Send to rank size returned");
	snprintf(want, sizeof want, "d %d", MPI_ERR_RANK);
	expect_name(&t, dup, want);
	expect_name(&t, MPI_COMM_WORLD, "MPI_COMM_WORLD");
	rc = MPI_Send(&x, 1, MPI_INT, 0, -3, dup);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_TAG, "MPI_Send with tag -3 returned");
	snprintf(want, sizeof want, "d %d %d", MPI_ERR_RANK, MPI_ERR_TAG);
	expect_name(&t, dup, want);

	MPI_Comm_rank(dup, &rank);
	MPI_Comm_size(dup, &size);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
		     (rank + size - 1) % size, 0, dup, MPI_STATUS_IGNORE);
	EMU_EQ(&t, in, (rank + size - 1) % size, "ring after the errors");
	MPI_Comm_free(&dup);

	/* No communicator in the call: MPI_COMM_WORLD's handler. */
	MPI_Group wg, g = MPI_GROUP_NULL;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	rc = MPI_Group_incl(wg, 1, &t.size, &g);
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_RANK, "MPI_Group_incl of rank size returned");
	snprintf(want, sizeof want, "MPI_COMM_WORLD %d", MPI_ERR_RANK);
	expect_name(&t, MPI_COMM_WORLD, want);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_set_name(MPI_COMM_WORLD, "MPI_COMM_WORLD");
	MPI_Group_free(&wg);
	MPI_Errhandler_free(&eh);
	return emu_finish(&t);
}
