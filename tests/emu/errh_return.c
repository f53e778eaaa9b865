/*
 * errh_return.c -- MPI_ERRORS_RETURN, error handler handles, and
 * MPI_Comm_call_errhandler with a handler of the program's.
 *
 * With MPI_ERRORS_RETURN on MPI_COMM_WORLD a send to rank `size' returns
 * an error whose class (MPI_Error_class) is MPI_ERR_RANK, a bad tag
 * MPI_ERR_TAG, a negative count MPI_ERR_COUNT, MPI_COMM_NULL
 * MPI_ERR_COMM; the rank goes on and its messages still flow.  A
 * duplicate inherits the handler; a handler set on a split communicator
 * only applies there.  A handler made by MPI_Comm_create_errhandler is
 * what MPI_Comm_get_errhandler gives back, and MPI_Comm_call_errhandler
 * calls it with the communicator and the code (it records them in the
 * communicator's name: no globals), also after MPI_Errhandler_free (the
 * communicator still holds it).  Under Sibyl, the error classes of the
 * communicator, group, attribute and topology calls as well (Open MPI
 * picks other classes for some of them).
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

/* Appends " CODE" to the communicator's name. */
static void name_handler(MPI_Comm *comm, int *code, ...)
{
	char name[MPI_MAX_OBJECT_NAME], more[MPI_MAX_OBJECT_NAME + 16];
	int len;
	MPI_Comm_get_name(*comm, name, &len);
	snprintf(more, sizeof more, "%s %d", name, *code);
	more[MPI_MAX_OBJECT_NAME - 1] = '\0';
	MPI_Comm_set_name(*comm, more);
}

static void expect_class(emu_test *t, int rc, int cls, const char *what)
{
	int c = -1;
	if (!EMU_TRUE(t, rc != MPI_SUCCESS, "%s returned MPI_SUCCESS", what))
		return;
	MPI_Error_class(rc, &c);
	EMU_EQ(t, c, cls, "%s: error class", what);
	char s[MPI_MAX_ERROR_STRING];
	int len = 0;
	MPI_Error_string(rc, s, &len);
	EMU_TRUE(t, len > 0, "%s: MPI_Error_string is empty", what);
}

static void expect_name(emu_test *t, MPI_Comm c, const char *want)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len;
	MPI_Comm_get_name(c, name, &len);
	EMU_TRUE(t, strcmp(name, want) == 0, "name \"%s\", want \"%s\"",
		 name, want);
}

static void ring(emu_test *t, MPI_Comm c, const char *what)
{
	int in = -1, rank, size;
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &in, 1, MPI_INT,
		     (rank + size - 1) % size, 0, c, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, (rank + size - 1) % size, "%s: ring", what);
}

static void returns(emu_test *t)
{
	MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
	int x = 1, n = t->size, s;
	MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
	EMU_EQ(t, eh, MPI_ERRORS_ARE_FATAL, "default handler");
	MPI_Errhandler_free(&eh);
	EMU_EQ(t, eh, MPI_ERRHANDLER_NULL, "freed handler handle");

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
	EMU_EQ(t, eh, MPI_ERRORS_RETURN, "handler set");
	MPI_Errhandler_free(&eh);
	expect_class(t, MPI_Send(&x, 1, MPI_INT, n, 0, MPI_COMM_WORLD),
		     MPI_ERR_RANK, "MPI_Send to rank size");
	expect_class(t, MPI_Recv(&x, 1, MPI_INT, n + 3, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE),
		     MPI_ERR_RANK, "MPI_Recv from rank size + 3");
	expect_class(t, MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD),
		     MPI_ERR_TAG, "MPI_Send with tag -5");
	expect_class(t, MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD),
		     MPI_ERR_COUNT, "MPI_Send with count -1");
	expect_class(t, MPI_Comm_size(MPI_COMM_NULL, &s), MPI_ERR_COMM,
		     "MPI_Comm_size(MPI_COMM_NULL)");
	ring(t, MPI_COMM_WORLD, "world after errors");

	MPI_Comm dup;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_get_errhandler(dup, &eh);
	EMU_EQ(t, eh, MPI_ERRORS_RETURN, "a duplicate inherits the handler");
	MPI_Errhandler_free(&eh);
	expect_class(t, MPI_Send(&x, 1, MPI_INT, n, 0, dup), MPI_ERR_RANK,
		     "MPI_Send to rank size on the duplicate");
	MPI_Comm_free(&dup);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

	/* Only on a split communicator. */
	MPI_Comm half;
	int hs;
	MPI_Comm_split(MPI_COMM_WORLD, t->rank % 2, 0, &half);
	MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
	MPI_Comm_size(half, &hs);
	expect_class(t, MPI_Send(&x, 1, MPI_INT, hs, 0, half), MPI_ERR_RANK,
		     "MPI_Send to rank size on the split communicator");
	ring(t, half, "split communicator after an error");
	MPI_Comm_free(&half);
}

static void user_handler(emu_test *t)
{
	MPI_Errhandler eh, got;
	MPI_Comm dup;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_name(dup, "h");
	MPI_Comm_create_errhandler(name_handler, &eh);
	MPI_Comm_set_errhandler(dup, eh);
	MPI_Comm_get_errhandler(dup, &got);
	EMU_EQ(t, got, eh, "MPI_Comm_get_errhandler gives the user handler");
	MPI_Errhandler_free(&got);
	EMU_EQ(t, MPI_Comm_call_errhandler(dup, 42), MPI_SUCCESS,
	       "MPI_Comm_call_errhandler returns");
	expect_name(t, dup, "h 42");
	MPI_Errhandler_free(&eh);
	EMU_EQ(t, eh, MPI_ERRHANDLER_NULL, "freed user handler handle");
	MPI_Comm_call_errhandler(dup, 43);
	expect_name(t, dup, "h 42 43");
	expect_name(t, MPI_COMM_WORLD, "MPI_COMM_WORLD");
	ring(t, dup, "duplicate with a user handler");
	MPI_Comm_free(&dup);

	/* MPI_ERRORS_RETURN: nothing happens. */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	EMU_EQ(t, MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER), MPI_SUCCESS,
	       "MPI_Comm_call_errhandler with MPI_ERRORS_RETURN");
	MPI_Comm_free(&dup);
}

#ifdef SIBYL_MPI
static void classes(emu_test *t)
{
	MPI_Comm c = MPI_COMM_WORLD, nc = MPI_COMM_NULL;
	MPI_Group wg, g = 12345;
	int n = t->size, x, flag, coords[2];
	void *v;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	/* Every rank makes the same bad collective call: none is left
	 * waiting for the others. */
	expect_class(t, MPI_Comm_split(c, -5, 0, &nc), MPI_ERR_ARG,
		     "MPI_Comm_split with color -5");
	expect_class(t, MPI_Comm_free(&c), MPI_ERR_COMM,
		     "MPI_Comm_free(MPI_COMM_WORLD)");
	expect_class(t, MPI_Comm_set_errhandler(c, 999), MPI_ERR_ARG,
		     "MPI_Comm_set_errhandler(999)");
	expect_class(t, MPI_Group_incl(wg, 1, &n, &g), MPI_ERR_RANK,
		     "MPI_Group_incl of rank size");
	int twice[2] = { 0, 0 };
	expect_class(t, MPI_Group_incl(wg, 2, twice, &g), MPI_ERR_RANK,
		     "MPI_Group_incl of rank 0 twice");
	expect_class(t, MPI_Group_free(&g), MPI_ERR_GROUP,
		     "MPI_Group_free of a bad handle");
	expect_class(t, MPI_Comm_get_attr(c, 777, &v, &flag), MPI_ERR_ARG,
		     "MPI_Comm_get_attr with a bad keyval");
	expect_class(t, MPI_Comm_set_attr(c, MPI_TAG_UB, &x), MPI_ERR_ARG,
		     "MPI_Comm_set_attr(MPI_TAG_UB)");
	expect_class(t, MPI_Cart_coords(c, 0, 2, coords), MPI_ERR_TOPOLOGY,
		     "MPI_Cart_coords on MPI_COMM_WORLD");
	expect_class(t, MPI_Dims_create(7, 2, (int[]){ 2, 0 }), MPI_ERR_DIMS,
		     "MPI_Dims_create(7, {2, 0})");
	expect_class(t, MPI_Cart_create(c, 2, (const int[]){ n, 2 },
					(const int[]){ 0, 0 }, 0, &nc),
		     MPI_ERR_DIMS, "MPI_Cart_create larger than the world");
	expect_class(t, MPI_Comm_remote_size(c, &x), MPI_ERR_COMM,
		     "MPI_Comm_remote_size");
	expect_class(t, MPI_Intercomm_create(c, n, c, 0, 0, &nc),
		     MPI_ERR_RANK, "MPI_Intercomm_create with local_leader "
		     "size");
	expect_class(t, MPI_Intercomm_merge(c, 0, &nc), MPI_ERR_COMM,
		     "MPI_Intercomm_merge of an intracommunicator");
	expect_class(t, MPI_Graph_create(c, 1, (const int[]){ 1 },
					 (const int[]){ 1 }, 0, &nc),
		     MPI_ERR_ARG, "MPI_Graph_create with an edge to node 1 "
		     "of 1");
	int nnodes, nedges;
	expect_class(t, MPI_Graphdims_get(c, &nnodes, &nedges),
		     MPI_ERR_TOPOLOGY,
		     "MPI_Graphdims_get on MPI_COMM_WORLD");
	MPI_Comm cart;
	MPI_Cart_create(c, 1, (const int[]){ n }, (const int[]){ 0 }, 0,
			&cart);
	expect_class(t, MPI_Cart_rank(cart, (const int[]){ n }, &x),
		     MPI_ERR_ARG, "MPI_Cart_rank off a non-periodic edge");
	MPI_Comm_free(&cart);
	MPI_Group_free(&wg);
	ring(t, MPI_COMM_WORLD, "world after the class checks");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}
#endif

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "errh_return", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	returns(&t);
	user_handler(&t);
#ifdef SIBYL_MPI
	classes(&t);
#endif
	return emu_finish(&t);
}
