/*
 * comm_group.c -- group operations and MPI_Comm_create.
 *
 * Every group is checked member by member against a list computed here
 * (world ranks, through MPI_Group_translate_ranks to the world group):
 * Group_incl (out of order), Group_excl, Group_range_incl (forward and
 * backward strides), Group_range_excl, union, intersection, difference
 * (also empty results: MPI_GROUP_EMPTY), Group_rank (MPI_UNDEFINED for
 * non-members), translate_ranks with MPI_PROC_NULL and non-members,
 * Group_compare (IDENT, SIMILAR, UNEQUAL).  MPI_Comm_create from the
 * even ranks (the others get MPI_COMM_NULL), from a reversed world, from
 * the world group, and from a subgroup of a split communicator, each with
 * a ring of messages inside; Comm_compare on the results.
 *
 * Ranks: any number >= 4 (12 and 30 in the test).
 */
#include "emutest.h"

/* Check that g has exactly the world ranks want[0..n-1], in order, and
 * that this rank's rank in it is right. */
static void check_group(emu_test *t, MPI_Group g, const int *want, int n,
			const char *what)
{
	MPI_Group wg;
	int size = -1, rank = -2, mine = MPI_UNDEFINED;
	MPI_Group_size(g, &size);
	if (!EMU_EQ(t, size, n, "%s: size", what))
		return;
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *idx = emu_alloc(t, (size_t)n, sizeof *idx);
	int *w = emu_alloc(t, (size_t)n, sizeof *w);
	for (int i = 0; i < n; i++)
		idx[i] = i;
	MPI_Group_translate_ranks(g, n, idx, wg, w);
	for (int i = 0; i < n; i++) {
		if (want[i] == t->rank)
			mine = i;
		if (!EMU_EQ(t, w[i], want[i], "%s: member %d", what, i))
			break;
	}
	MPI_Group_rank(g, &rank);
	EMU_EQ(t, rank, mine, "%s: MPI_Group_rank", what);
	free(idx);
	free(w);
	MPI_Group_free(&wg);
}

static void compare(emu_test *t, MPI_Group a, MPI_Group b, int want,
		    const char *what)
{
	int res = -1;
	MPI_Group_compare(a, b, &res);
	EMU_EQ(t, res, want, "MPI_Group_compare(%s)", what);
}

/* Ring of messages on c: from the left, MPI_SOURCE and content. */
static void ring(emu_test *t, MPI_Comm c, const int *members,
		 const char *what)
{
	int rank, size, in = -1;
	MPI_Status st;
	MPI_Comm_rank(c, &rank);
	MPI_Comm_size(c, &size);
	int to = (rank + 1) % size, from = (rank + size - 1) % size;
	MPI_Sendrecv(&t->rank, 1, MPI_INT, to, 4, &in, 1, MPI_INT,
		     MPI_ANY_SOURCE, 4, c, &st);
	EMU_EQ(t, in, members[from], "%s: ring message", what);
	EMU_EQ(t, st.MPI_SOURCE, from, "%s: ring MPI_SOURCE", what);
}

/* The groups the scenarios below make and use, freed at the end. */
typedef struct groups {
	MPI_Group world, g1, g2, even, three, u, x, d, all, back;
} groups;

/* Groups made from the world group by rank lists and ranges; want has
 * room for twice the world size. */
static void make_groups(emu_test *t, groups *g, int *want)
{
	int n = t->size, m;
	MPI_Group rev;

	MPI_Comm_group(MPI_COMM_WORLD, &g->world);
	for (int i = 0; i < n; i++)
		want[i] = i;
	check_group(t, g->world, want, n, "world group");

	int incl[3] = { n - 1, 0, 2 };
	MPI_Group_incl(g->world, 3, incl, &g->g1);
	check_group(t, g->g1, incl, 3, "incl {n-1, 0, 2}");

	int excl[2] = { 1, 0 };
	MPI_Group_excl(g->world, 2, excl, &g->g2);
	for (int i = 2; i < n; i++)
		want[i - 2] = i;
	check_group(t, g->g2, want, n - 2, "excl {1, 0}");

	int r_even[1][3] = { { 0, n - 1, 2 } };
	MPI_Group_range_incl(g->world, 1, r_even, &g->even);
	m = 0;
	for (int i = 0; i < n; i += 2)
		want[m++] = i;
	check_group(t, g->even, want, m, "range_incl (0, n-1, 2)");

	/* Multiples of 3 by excluding the others: two triples. */
	int r_not3[2][3] = { { 1, n - 1, 3 }, { 2, n - 1, 3 } };
	MPI_Group_range_excl(g->world, 2, r_not3, &g->three);
	m = 0;
	for (int i = 0; i < n; i += 3)
		want[m++] = i;
	check_group(t, g->three, want, m, "range_excl -> multiples of 3");

	int r_back[1][3] = { { n - 1, 0, -3 } };
	MPI_Group_range_incl(g->world, 1, r_back, &rev);
	m = 0;
	for (int i = n - 1; i >= 0; i -= 3)
		want[m++] = i;
	check_group(t, rev, want, m, "range_incl (n-1, 0, -3)");
	MPI_Group_free(&rev);
}

/* Union, intersection and difference of the even ranks and the
 * multiples of 3, and an empty difference (MPI_GROUP_EMPTY). */
static void set_operations(emu_test *t, groups *g, int *want)
{
	int n = t->size, m;
	MPI_Group empty;

	MPI_Group_union(g->even, g->three, &g->u);
	m = 0;
	for (int i = 0; i < n; i += 2)
		want[m++] = i;
	for (int i = 0; i < n; i += 3)
		if (i % 2)
			want[m++] = i;
	check_group(t, g->u, want, m, "union(even, three)");

	MPI_Group_intersection(g->three, g->even, &g->x);
	m = 0;
	for (int i = 0; i < n; i += 6)
		want[m++] = i;
	check_group(t, g->x, want, m, "intersection(three, even)");

	MPI_Group_difference(g->even, g->three, &g->d);
	m = 0;
	for (int i = 0; i < n; i += 2)
		if (i % 3)
			want[m++] = i;
	check_group(t, g->d, want, m, "difference(even, three)");

	MPI_Group_difference(g->g1, g->world, &empty);
	EMU_EQ(t, empty, MPI_GROUP_EMPTY, "empty difference");
	check_group(t, empty, want, 0, "empty group");
	compare(t, empty, MPI_GROUP_EMPTY, MPI_IDENT, "empty, EMPTY");
	MPI_Group_free(&empty);
}

/* translate_ranks: MPI_PROC_NULL, non-members. */
static void translate(emu_test *t, const groups *g)
{
	int n = t->size;
	int from[4] = { MPI_PROC_NULL, 0, 1, 2 }, to[4];

	MPI_Group_translate_ranks(g->world, 4, from, g->even, to);
	EMU_EQ(t, to[0], MPI_PROC_NULL, "translate MPI_PROC_NULL");
	EMU_EQ(t, to[1], 0, "translate 0 to even");
	EMU_EQ(t, to[2], MPI_UNDEFINED, "translate 1 to even");
	EMU_EQ(t, to[3], 1, "translate 2 to even");
	MPI_Group_translate_ranks(g->g1, 3, &from[1], g->g2, to);
	EMU_EQ(t, to[0], n - 3, "translate g1[0] = n-1 to excl");
	EMU_EQ(t, to[1], MPI_UNDEFINED, "translate g1[1] = 0 to excl");
	EMU_EQ(t, to[2], 0, "translate g1[2] = 2 to excl");
}

/* Group_compare: the world in order (IDENT) and reversed (SIMILAR),
 * and groups of other members (UNEQUAL). */
static void compare_groups(emu_test *t, groups *g, int *want)
{
	int n = t->size;

	for (int i = 0; i < n; i++)
		want[i] = n - 1 - i;
	MPI_Group_incl(g->world, n, want, &g->back);
	for (int i = 0; i < n; i++)
		want[i] = i;
	MPI_Group_incl(g->world, n, want, &g->all);
	compare(t, g->world, g->all, MPI_IDENT, "world, incl of all in order");
	compare(t, g->world, g->back, MPI_SIMILAR, "world, reversed");
	compare(t, g->world, g->g2, MPI_UNEQUAL, "world, excl {0, 1}");
	compare(t, g->even, g->three, MPI_UNEQUAL, "even, three");
}

/* Comm_create from the even ranks. */
static void create_even(emu_test *t, const groups *g, int *want)
{
	int n = t->size, me = t->rank;
	MPI_Comm ce;

	MPI_Comm_create(MPI_COMM_WORLD, g->even, &ce);
	if (me % 2) {
		EMU_EQ(t, ce, MPI_COMM_NULL, "odd rank: Comm_create gives "
		       "MPI_COMM_NULL");
	} else {
		int rank = -1, size = -1;
		MPI_Comm_rank(ce, &rank);
		MPI_Comm_size(ce, &size);
		EMU_EQ(t, rank, me / 2, "even communicator: rank");
		EMU_EQ(t, size, (n + 1) / 2, "even communicator: size");
		for (int i = 0; i < size; i++)
			want[i] = 2 * i;
		ring(t, ce, want, "even communicator");
		MPI_Group cg;
		MPI_Comm_group(ce, &cg);
		compare(t, cg, g->even, MPI_IDENT, "group of the even "
			"communicator, even");
		MPI_Group_free(&cg);
		MPI_Comm_free(&ce);
	}
}

/* Reversed world: rank n-1-me; then a communicator of the world group,
 * congruent with the world. */
static void create_reversed(emu_test *t, const groups *g, int *want)
{
	int n = t->size, me = t->rank, res;
	MPI_Comm cr, ca;

	MPI_Comm_create(MPI_COMM_WORLD, g->back, &cr);
	int rank = -1;
	MPI_Comm_rank(cr, &rank);
	EMU_EQ(t, rank, n - 1 - me, "reversed communicator: rank");
	for (int i = 0; i < n; i++)
		want[i] = n - 1 - i;
	ring(t, cr, want, "reversed communicator");
	MPI_Comm_compare(MPI_COMM_WORLD, cr, &res);
	EMU_EQ(t, res, MPI_SIMILAR, "Comm_compare(world, reversed)");
	MPI_Comm_create(MPI_COMM_WORLD, g->world, &ca);
	MPI_Comm_compare(MPI_COMM_WORLD, ca, &res);
	EMU_EQ(t, res, MPI_CONGRUENT, "Comm_compare(world, created from "
	       "the world group)");
	MPI_Comm_free(&cr);
	MPI_Comm_free(&ca);
}

/* From a split: the lower half of each parity class. */
static void create_from_split(emu_test *t, int *want)
{
	int me = t->rank;
	MPI_Comm par, sub;
	MPI_Group pg, low;

	MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &par);
	int psize;
	MPI_Comm_size(par, &psize);
	MPI_Comm_group(par, &pg);
	int r_low[1][3] = { { 0, (psize - 1) / 2, 1 } };
	MPI_Group_range_incl(pg, 1, r_low, &low);
	MPI_Comm_create(par, low, &sub);
	int lsize = (psize - 1) / 2 + 1;
	if (me / 2 < lsize) {
		int s = -1;
		MPI_Comm_size(sub, &s);
		EMU_EQ(t, s, lsize, "lower half: size");
		for (int i = 0; i < lsize; i++)
			want[i] = 2 * i + me % 2;
		ring(t, sub, want, "lower half of a parity class");
		MPI_Comm_free(&sub);
	} else {
		EMU_EQ(t, sub, MPI_COMM_NULL, "upper half: MPI_COMM_NULL");
	}
	MPI_Group_free(&low);
	MPI_Group_free(&pg);
	MPI_Comm_free(&par);
}

static void free_groups(emu_test *t, groups *g)
{
	MPI_Group *gs[] = { &g->world, &g->g1, &g->g2, &g->even, &g->three,
			    &g->u, &g->x, &g->d, &g->all, &g->back };
	for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
		MPI_Group_free(gs[i]);
		EMU_EQ(t, *gs[i], MPI_GROUP_NULL, "freed group handle");
	}
}

int main(int argc, char **argv)
{
	emu_test t;
	groups g;

	emu_init(&t, "comm_group", &argc, &argv);
	if (!emu_need_ranks(&t, 4))
		return EMU_SKIP;
	int *want = emu_alloc(&t, (size_t)t.size * 2, sizeof *want);
	make_groups(&t, &g, want);
	set_operations(&t, &g, want);
	translate(&t, &g);
	compare_groups(&t, &g, want);
	create_even(&t, &g, want);
	create_reversed(&t, &g, want);
	create_from_split(&t, want);
	free_groups(&t, &g);
	free(want);
	return emu_finish(&t);
}
