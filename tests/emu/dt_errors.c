/*
 * dt_errors.c -- wrong uses of datatypes return the right error class
 * under MPI_ERRORS_RETURN (set on MPI_COMM_WORLD, whose handler applies
 * to the datatype calls that have no communicator), and change nothing:
 *   MPI_ERR_COUNT  negative count (contiguous, vector, indexed, struct);
 *   MPI_ERR_ARG    negative blocklength (vector, indexed, hindexed_block,
 *                  struct);
 *   MPI_ERR_TYPE   MPI_DATATYPE_NULL as oldtype, in a struct's types,
 *                  to Type_size / Type_get_extent / Type_commit /
 *                  Get_count; freeing a predefined type; sending with an
 *                  uncommitted type; packing with one;
 *   MPI_ERR_TRUNCATE  MPI_Pack into too small a buffer, MPI_Unpack from
 *                  too short a one (position unchanged).
 * The output handles stay untouched by a failed constructor.  (Using a
 * freed handle cannot be tested portably: see dt_fault.c.)
 *
 * Ranks: any.  Prints "PASS dt_errors" on rank 0.
 */
#include "emutest.h"

#define SENTINEL ((MPI_Datatype)MPI_DATATYPE_NULL)

static void expect(emu_test *t, int rc, int cls, const char *what)
{
	int got = -1;
	if (rc != MPI_SUCCESS)
		MPI_Error_class(rc, &got);
	else
		got = MPI_SUCCESS;
	EMU_EQ(t, got, cls, "%s: error class", what);
}

static void constructors(emu_test *t)
{
	MPI_Datatype n = SENTINEL;
	int bl[2] = { 1, -1 }, d[2] = { 0, 4 };
	MPI_Aint ad[2] = { 0, 8 };
	MPI_Datatype ty[2] = { MPI_INT, MPI_DATATYPE_NULL };
	int ok[2] = { 1, 1 };

	expect(t, MPI_Type_contiguous(-1, MPI_INT, &n), MPI_ERR_COUNT,
	       "contiguous(-1)");
	expect(t, MPI_Type_vector(-2, 1, 1, MPI_INT, &n), MPI_ERR_COUNT,
	       "vector(-2, ...)");
	expect(t, MPI_Type_indexed(-1, bl, d, MPI_INT, &n), MPI_ERR_COUNT,
	       "indexed(-1, ...)");
	expect(t, MPI_Type_create_struct(-3, ok, ad, ty, &n), MPI_ERR_COUNT,
	       "struct(-3, ...)");
	expect(t, MPI_Type_vector(2, -1, 1, MPI_INT, &n), MPI_ERR_ARG,
	       "vector blocklength -1");
	expect(t, MPI_Type_indexed(2, bl, d, MPI_INT, &n), MPI_ERR_ARG,
	       "indexed blocklength -1");
	expect(t, MPI_Type_create_hindexed_block(2, -1, ad, MPI_INT, &n),
	       MPI_ERR_ARG, "hindexed_block blocklength -1");
	ty[1] = MPI_INT;
	expect(t, MPI_Type_create_struct(2, bl, ad, ty, &n), MPI_ERR_ARG,
	       "struct blocklength -1");
	ty[1] = MPI_DATATYPE_NULL;
	expect(t, MPI_Type_create_struct(2, ok, ad, ty, &n), MPI_ERR_TYPE,
	       "struct with MPI_DATATYPE_NULL");
	expect(t, MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE,
	       "contiguous of MPI_DATATYPE_NULL");
	expect(t, MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 8, &n),
	       MPI_ERR_TYPE, "resized MPI_DATATYPE_NULL");
	EMU_TRUE(t, n == SENTINEL, "a failed constructor set newtype");
}

static void queries(emu_test *t)
{
	int size = -5, count = -5;
	MPI_Aint lb = -5, ext = -5;
	MPI_Datatype basic = MPI_INT, null = MPI_DATATYPE_NULL;
	expect(t, MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE,
	       "Type_size(MPI_DATATYPE_NULL)");
	expect(t, MPI_Type_get_extent(MPI_DATATYPE_NULL, &lb, &ext),
	       MPI_ERR_TYPE, "Type_get_extent(MPI_DATATYPE_NULL)");
	expect(t, MPI_Type_commit(&null), MPI_ERR_TYPE,
	       "Type_commit(MPI_DATATYPE_NULL)");
	expect(t, MPI_Type_free(&basic), MPI_ERR_TYPE, "Type_free(MPI_INT)");
	EMU_TRUE(t, basic == MPI_INT, "a failed Type_free changed the handle");
	EMU_EQ(t, size, -5, "a failed Type_size wrote the size");
	/* A basic type may be committed (nothing happens). */
	basic = MPI_DOUBLE;
	expect(t, MPI_Type_commit(&basic), MPI_SUCCESS, "Type_commit(MPI_DOUBLE)");

	MPI_Status st;
	int v = 0;
	MPI_Sendrecv(&v, 1, MPI_INT, t->rank, 1, &v, 1, MPI_INT, t->rank, 1,
		     MPI_COMM_WORLD, &st);
	expect(t, MPI_Get_count(&st, MPI_DATATYPE_NULL, &count), MPI_ERR_TYPE,
	       "Get_count(MPI_DATATYPE_NULL)");
	EMU_EQ(t, count, -5, "a failed Get_count wrote the count");
}

static void uncommitted(emu_test *t)
{
	MPI_Datatype u;
	int v[4] = { 1, 2, 3, 4 }, out[4] = { 0 };
	char buf[64];
	int pos = 0;
	MPI_Type_contiguous(2, MPI_INT, &u);
	expect(t, MPI_Send(v, 1, u, t->rank, 2, MPI_COMM_WORLD), MPI_ERR_TYPE,
	       "Send with an uncommitted type");
	expect(t, MPI_Pack(v, 1, u, buf, sizeof buf, &pos, MPI_COMM_WORLD),
	       MPI_ERR_TYPE, "Pack with an uncommitted type");
	EMU_EQ(t, pos, 0, "a failed Pack moved the position");
	MPI_Type_commit(&u);
	/* Committed now: it works. */
	MPI_Sendrecv(v, 2, u, t->rank, 3, out, 4, MPI_INT, t->rank, 3,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_SEQ(t, out, 4, 1, "send after commit");
	MPI_Type_free(&u);
	EMU_TRUE(t, u == MPI_DATATYPE_NULL, "Type_free set the handle to "
		 "MPI_DATATYPE_NULL");
}

static void truncation(emu_test *t)
{
	int v[4] = { 1, 2, 3, 4 };
	char buf[12];
	int pos = 0;
	expect(t, MPI_Pack(v, 4, MPI_INT, buf, sizeof buf, &pos,
			   MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
	       "Pack of 16 bytes into 12");
	EMU_EQ(t, pos, 0, "a failed Pack moved the position");
	pos = 8;
	expect(t, MPI_Pack(v, 1, MPI_INT, buf, sizeof buf, &pos,
			   MPI_COMM_WORLD), MPI_SUCCESS, "Pack at 8 of 12");
	EMU_EQ(t, pos, 12, "position after Pack");
	pos = 4;
	expect(t, MPI_Unpack(buf, sizeof buf, &pos, v, 3, MPI_INT,
			     MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
	       "Unpack of 12 bytes from position 4 of 12");
	EMU_EQ(t, pos, 4, "a failed Unpack moved the position");
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_errors", &argc, &argv);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	constructors(&t);
	queries(&t);
	uncommitted(&t);
	truncation(&t);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	return emu_finish(&t);
}
