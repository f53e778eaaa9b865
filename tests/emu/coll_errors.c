/*
 * coll_errors.c -- argument errors of the collectives under
 * MPI_ERRORS_RETURN: each call returns the error class MPI-3.1 gives
 * (MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_BUFFER, MPI_ERR_COUNT,
 * MPI_ERR_TYPE, MPI_ERR_COMM) without starting anything, so the
 * collectives after it still match up; every rank makes a failing call
 * (the ranks that would be right get another mistake), so none waits
 * for a partner that returned.
 *
 * With the argument `fatal', every rank calls MPI_Bcast with root = size
 * under MPI_ERRORS_ARE_FATAL: the run must stop with a message naming
 * the rank, the call and MPI_ERR_ROOT.
 *
 * Any rank count.
 */
#include "emutest.h"

static int class_of(int code)
{
	int cls = code;
	if (code != MPI_SUCCESS)
		MPI_Error_class(code, &cls);
	return cls;
}

static void expect(emu_test *t, int got, int want, const char *what)
{
	EMU_EQ(t, class_of(got), want, "error class of %s", what);
}

/* MPI_IN_PLACE where it is not allowed: MPI-3.1 names no class; Open MPI
 * and Sibyl say MPI_ERR_ARG, others MPI_ERR_BUFFER. */
static void expect_misuse(emu_test *t, int got, const char *what)
{
	int cls = class_of(got);
	EMU_TRUE(t, cls == MPI_ERR_ARG || cls == MPI_ERR_BUFFER, "error "
		 "class of %s: got %d, want MPI_ERR_ARG or MPI_ERR_BUFFER",
		 what, cls);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_errors", &argc, &argv);
	int P = t.size, me = t.rank;
	int a[4] = { 1, 2, 3, 4 }, b[4] = { 0 };
	double d = 1, e = 0;
	MPI_Op op;

	if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
		MPI_Bcast(a, 1, MPI_INT, P, MPI_COMM_WORLD);
		return emu_finish(&t);
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

	expect(&t, MPI_Bcast(a, 1, MPI_INT, P, MPI_COMM_WORLD), MPI_ERR_ROOT,
	       "Bcast root = size");
	expect(&t, MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT,
	       "Bcast root = -1");
	expect(&t, MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, P + 3,
			      MPI_COMM_WORLD), MPI_ERR_ROOT,
	       "Reduce root = size + 3");
	expect(&t, MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, P, MPI_COMM_WORLD),
	       MPI_ERR_ROOT, "Gather root = size");
	expect(&t, MPI_Ibarrier(MPI_COMM_NULL, &(MPI_Request){ 0 }),
	       MPI_ERR_COMM, "Ibarrier on MPI_COMM_NULL");

	/* Operations on types they are not defined for. */
	expect(&t, MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND,
				 MPI_COMM_WORLD), MPI_ERR_OP,
	       "MPI_BAND on MPI_DOUBLE");
	expect(&t, MPI_Allreduce(a, b, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD),
	       MPI_ERR_OP, "MPI_SUM on MPI_2INT");
	expect(&t, MPI_Allreduce(a, b, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD),
	       MPI_ERR_OP, "MPI_MAXLOC on MPI_INT");
	expect(&t, MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL,
				 MPI_COMM_WORLD), MPI_ERR_OP, "MPI_OP_NULL");
	expect(&t, MPI_Allreduce(a, b, 1, MPI_INT, MPI_REPLACE,
				 MPI_COMM_WORLD), MPI_ERR_OP,
	       "MPI_REPLACE in a collective");
	expect(&t, MPI_Reduce_scatter_block(a, b, 1, MPI_FLOAT, MPI_LXOR,
					    MPI_COMM_WORLD), MPI_ERR_OP,
	       "MPI_LXOR on MPI_FLOAT");
	op = MPI_SUM;
	expect(&t, MPI_Op_free(&op), MPI_ERR_OP, "MPI_Op_free(MPI_SUM)");

	/* Buffers. */
	expect(&t, MPI_Allreduce(a, a, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
	       MPI_ERR_BUFFER, "Allreduce with sendbuf == recvbuf");
	expect_misuse(&t, MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0,
				    MPI_COMM_WORLD), "Bcast of MPI_IN_PLACE");
	/* Non-roots may not reduce in place; the root aliases instead. */
	expect_misuse(&t, MPI_Reduce(me ? MPI_IN_PLACE : a, a, 1, MPI_INT,
				     MPI_SUM, 0, MPI_COMM_WORLD),
		      me ? "Reduce in place on a non-root" :
		      "Reduce with sendbuf == recvbuf at the root");
	if (me)
		expect_misuse(&t, MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, b, 1,
					     MPI_INT, 0, MPI_COMM_WORLD),
			      "Gather in place on a non-root");
	else
		expect(&t, MPI_Gather(a, 1, MPI_INT, b, -1, MPI_INT, 0,
				      MPI_COMM_WORLD), MPI_ERR_COUNT,
		       "Gather of -1 elements at the root");
	expect_misuse(&t, MPI_Alltoall(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT,
				       MPI_COMM_WORLD),
		      "Alltoall into MPI_IN_PLACE");
	expect_misuse(&t, MPI_Allgather(a, 1, MPI_INT, MPI_IN_PLACE, 1,
					MPI_INT, MPI_COMM_WORLD),
		      "Allgather into MPI_IN_PLACE");

	/* Counts and types. */
	expect(&t, MPI_Allreduce(a, b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
	       MPI_ERR_COUNT, "Allreduce count -1");
	expect(&t, MPI_Bcast(a, -2, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
	       "Bcast count -2");
	expect(&t, MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
	       MPI_ERR_TYPE, "Bcast of MPI_DATATYPE_NULL");

	/* Nothing was started: the next collective still matches. */
	int one = 1, n = 0;
	expect(&t, MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM,
				 MPI_COMM_WORLD), MPI_SUCCESS,
	       "Allreduce after the errors");
	EMU_EQ(&t, n, P, "Allreduce after the errors");
	return emu_finish(&t);
}
