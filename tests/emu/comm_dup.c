/*
 * comm_dup.c -- MPI_Comm_dup isolates traffic; compare; names.
 *
 * A duplicate has the same group and ranks but its own context: messages
 * sent to the right neighbour on MPI_COMM_WORLD and then on a duplicate,
 * with the same tag, are received duplicate first (also with
 * MPI_ANY_SOURCE and MPI_ANY_TAG) and each receive gets its own message.
 * A duplicate of a duplicate, freed before its parent, and a duplicate
 * of a split keep their groups.  MPI_Comm_compare: IDENT for the same
 * handle, CONGRUENT for a duplicate, UNEQUAL for MPI_COMM_SELF (when the
 * world has more than one rank).  MPI_Comm_set_name/get_name, and the
 * names of the predefined communicators; a duplicate has no name.
 * MPI_Comm_test_inter says false.
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

static void isolation(emu_test *t, MPI_Comm dup)
{
	int to = emu_right(t, 1), from = emu_left(t, 1);
	int a = 100 + t->rank, b = 200 + t->rank, x = -1, y = -1;
	MPI_Request rq[2];
	MPI_Status st;
	MPI_Isend(&a, 1, MPI_INT, to, 1, MPI_COMM_WORLD, &rq[0]);
	MPI_Isend(&b, 1, MPI_INT, to, 1, dup, &rq[1]);
	MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &st);
	EMU_EQ(t, y, 200 + from, "wildcard receive on the duplicate");
	EMU_EQ(t, st.MPI_SOURCE, from, "its MPI_SOURCE");
	EMU_EQ(t, st.MPI_TAG, 1, "its MPI_TAG");
	MPI_Recv(&x, 1, MPI_INT, from, 1, MPI_COMM_WORLD, &st);
	EMU_EQ(t, x, 100 + from, "receive on MPI_COMM_WORLD");
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void shape(emu_test *t, MPI_Comm c, int size, int rank,
		  const char *what)
{
	int s = -1, r = -1;
	MPI_Comm_size(c, &s);
	MPI_Comm_rank(c, &r);
	EMU_EQ(t, s, size, "%s: size", what);
	EMU_EQ(t, r, rank, "%s: rank", what);
}

static void compare(emu_test *t, MPI_Comm a, MPI_Comm b, int want,
		    const char *what)
{
	int res = -1;
	MPI_Comm_compare(a, b, &res);
	EMU_EQ(t, res, want, "MPI_Comm_compare(%s)", what);
}

static void names(emu_test *t, MPI_Comm dup)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len = -1;
	MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
	EMU_TRUE(t, strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14,
		 "name of MPI_COMM_WORLD: \"%s\" (%d)", name, len);
	MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
	EMU_TRUE(t, strcmp(name, "MPI_COMM_SELF") == 0 && len == 13,
		 "name of MPI_COMM_SELF: \"%s\" (%d)", name, len);
	MPI_Comm_set_name(dup, "my duplicate");
	MPI_Comm_get_name(dup, name, &len);
	EMU_TRUE(t, strcmp(name, "my duplicate") == 0 && len == 12,
		 "name set: \"%s\" (%d)", name, len);
	MPI_Comm_set_name(dup, "renamed");
	MPI_Comm_get_name(dup, name, &len);
	EMU_TRUE(t, strcmp(name, "renamed") == 0 && len == 7,
		 "name set again: \"%s\" (%d)", name, len);
	MPI_Comm d2;
	MPI_Comm_dup(dup, &d2);
	MPI_Comm_get_name(d2, name, &len);
	EMU_TRUE(t, strcmp(name, "renamed") != 0,
		 "a duplicate does not inherit the name: \"%s\"", name);
	MPI_Comm_free(&d2);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_dup", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;

	MPI_Comm dup, dup2, half, hdup;
	int flag = -1;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	shape(&t, dup, t.size, t.rank, "duplicate of MPI_COMM_WORLD");
	isolation(&t, dup);
	MPI_Comm_dup(dup, &dup2);
	shape(&t, dup2, t.size, t.rank, "duplicate of the duplicate");
	isolation(&t, dup2);
	compare(&t, dup, dup, MPI_IDENT, "dup, dup");
	compare(&t, MPI_COMM_WORLD, dup, MPI_CONGRUENT, "world, dup");
	compare(&t, dup2, dup, MPI_CONGRUENT, "dup2, dup");
	compare(&t, MPI_COMM_WORLD, MPI_COMM_SELF, MPI_UNEQUAL,
		"world, self");
	MPI_Comm_free(&dup2);
	isolation(&t, dup);

	/* A duplicate of half of the world. */
	MPI_Comm_split(MPI_COMM_WORLD, t.rank < t.size / 2, t.rank, &half);
	MPI_Comm_dup(half, &hdup);
	int hs = t.rank < t.size / 2 ? t.size / 2 : t.size - t.size / 2;
	int hr = t.rank < t.size / 2 ? t.rank : t.rank - t.size / 2;
	shape(&t, hdup, hs, hr, "duplicate of a half");
	compare(&t, half, hdup, MPI_CONGRUENT, "half, its duplicate");
	compare(&t, MPI_COMM_WORLD, hdup, MPI_UNEQUAL, "world, half");
	MPI_Comm_free(&half);
	shape(&t, hdup, hs, hr, "duplicate of a freed half");
	MPI_Comm_free(&hdup);

	names(&t, dup);
	MPI_Comm_test_inter(dup, &flag);
	EMU_EQ(&t, flag, 0, "MPI_Comm_test_inter");
	MPI_Comm_free(&dup);
	EMU_EQ(&t, dup, MPI_COMM_NULL, "freed handle");
	return emu_finish(&t);
}
