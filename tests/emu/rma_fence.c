/*
 * rma_fence.c -- one-sided communication in fence epochs.
 *
 * Window A (MPI_Win_create over N = size + 12 ints, every slot i of rank
 * r starting as 1000 r + i) and window B (MPI_Win_allocate, two ints on
 * every rank, disp_unit 4).  In the first epoch every rank r:
 *   - puts r + 1 into slot r of its right neighbour's A;
 *   - gets slot size + 1 of its left neighbour's A;
 *   - accumulates r + 1 (MPI_SUM) into slot size + 2 of rank 0's A;
 *   - get-accumulates r (MPI_SUM) into slot size + 3 of its left
 *     neighbour's A, fetching the value before;
 *   - puts 3 contiguous ints into slots size + 4, + 6, + 8 of its right
 *     neighbour's A through a strided vector type (slots + 5 and + 7
 *     stay as they were);
 *   - gets slots size + 9 .. + 11 of its right neighbour's A into every
 *     other int of a local array, through a strided origin type freed
 *     before the fence (the ints between stay);
 *   - fetch-and-adds 1 to B[0] of rank 0 and compare-and-swaps B[1] of
 *     rank 0 from -1 to r;
 *   - accumulates (r mod 5, r) with MPI_MAXLOC on MPI_DOUBLE_INT into
 *     window C of rank 0 (a pair type: packed, it is not the C struct).
 * After the fence every value is checked exactly: the fetched counter
 * values are 0 .. size-1, each once; exactly one compare-and-swap
 * succeeded, the others saw its value.  A second epoch gets back from the
 * right neighbour what the first put there; the last fence asserts
 * MPI_MODE_NOSUCCEED.  The window attributes, group and name are
 * checked, and with MPI_ERRORS_RETURN on A: a put past the end of the
 * target's window is MPI_ERR_RMA_RANGE, one after the last fence is
 * MPI_ERR_RMA_SYNC, a fence asserting MPI_MODE_NOCHECK is MPI_ERR_ASSERT
 * (the classes Sibyl gives; a native run only sees that the puts fail).
 *
 * Ranks: any number >= 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emutest.h"

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "rma_fence", &argc, &argv);
	int P = t.size, me = t.rank, N = P + 12;
	int right = (me + 1) % P, left = (me + P - 1) % P;
	int *a = emu_alloc(&t, (size_t)N, sizeof *a), *b = NULL;
	for (int i = 0; i < N; i++)
		a[i] = 1000 * me + i;
	MPI_Win wa, wb, wc;
	struct di { double v; int i; } *c = NULL;
	MPI_Win_create(a, (MPI_Aint)N * (MPI_Aint)sizeof *a, sizeof *a,
		       MPI_INFO_NULL, MPI_COMM_WORLD, &wa);
	MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
			 MPI_COMM_WORLD, &b, &wb);
	b[0] = 0;
	b[1] = -1;
	MPI_Win_allocate(sizeof *c, sizeof *c, MPI_INFO_NULL, MPI_COMM_WORLD,
			 &c, &wc);
	c->v = -1.0;
	c->i = -1;

	/* What a window says about itself. */
	void *base;
	MPI_Aint *size;
	int *unit, *flavor, flag;
	MPI_Win_get_attr(wa, MPI_WIN_BASE, &base, &flag);
	EMU_TRUE(&t, flag && base == a, "MPI_WIN_BASE");
	MPI_Win_get_attr(wa, MPI_WIN_SIZE, &size, &flag);
	EMU_EQ(&t, flag ? *size : -1, N * (int)sizeof *a, "MPI_WIN_SIZE");
	MPI_Win_get_attr(wb, MPI_WIN_DISP_UNIT, &unit, &flag);
	EMU_EQ(&t, flag ? *unit : -1, (int)sizeof(int), "MPI_WIN_DISP_UNIT");
	MPI_Win_get_attr(wb, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
	EMU_EQ(&t, flag ? *flavor : -1, MPI_WIN_FLAVOR_ALLOCATE,
	       "MPI_WIN_CREATE_FLAVOR");
	MPI_Group wg, cg;
	int cmp;
	MPI_Win_get_group(wa, &wg);
	MPI_Comm_group(MPI_COMM_WORLD, &cg);
	MPI_Group_compare(wg, cg, &cmp);
	EMU_EQ(&t, cmp, MPI_IDENT, "the window's group");
	MPI_Group_free(&wg);
	MPI_Group_free(&cg);
	char name[MPI_MAX_OBJECT_NAME];
	int len;
	MPI_Win_set_name(wa, "ints");
	MPI_Win_get_name(wa, name, &len);
	EMU_TRUE(&t, len == 4 && !strcmp(name, "ints"), "window name %s",
		 name);

	/* The first epoch. */
	MPI_Win_fence(MPI_MODE_NOPRECEDE, wa);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, wb);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, wc);
	int one = me + 1, got_left = -1, old = -1, mine = me;
	MPI_Put(&one, 1, MPI_INT, right, me, 1, MPI_INT, wa);
	MPI_Get(&got_left, 1, MPI_INT, left, P + 1, 1, MPI_INT, wa);
	MPI_Accumulate(&one, 1, MPI_INT, 0, P + 2, 1, MPI_INT, MPI_SUM, wa);
	MPI_Get_accumulate(&mine, 1, MPI_INT, &old, 1, MPI_INT, left, P + 3,
			   1, MPI_INT, MPI_SUM, wa);
	MPI_Datatype every_other;
	MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
	MPI_Type_commit(&every_other);
	int three[3] = { 10 * me + 1, 10 * me + 2, 10 * me + 3 };
	MPI_Put(three, 3, MPI_INT, right, P + 4, 1, every_other, wa);
	int got3[6] = { -5, -5, -5, -5, -5, -5 };
	MPI_Get(got3, 1, every_other, right, P + 9, 3, MPI_INT, wa);
	/* MPI lets the program free the type before the epoch ends. */
	MPI_Type_free(&every_other);
	struct di mine_di = { (double)(me % 5), me };
	MPI_Accumulate(&mine_di, 1, MPI_DOUBLE_INT, 0, 0, 1, MPI_DOUBLE_INT,
		       MPI_MAXLOC, wc);
	int inc = 1, ticket = -1, swap_old = -2, minus = -1;
	MPI_Fetch_and_op(&inc, &ticket, MPI_INT, 0, 0, MPI_SUM, wb);
	MPI_Compare_and_swap(&mine, &minus, &swap_old, MPI_INT, 0, 1, wb);
	memset(three, 0, sizeof three);  /* packed at the call */
	MPI_Win_fence(0, wa);
	MPI_Win_fence(0, wb);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, wc);

	EMU_EQ(&t, a[left], left + 1, "slot %d put by the left neighbour",
	       left);
	EMU_EQ(&t, got_left, 1000 * left + P + 1, "got from rank %d", left);
	if (me == 0)
		EMU_EQ(&t, a[P + 2], P + 2 + P * (P + 1) / 2,
		       "the sum accumulated into rank 0");
	EMU_EQ(&t, old, 1000 * left + P + 3, "fetched before the sum");
	EMU_EQ(&t, a[P + 3], 1000 * me + P + 3 + right,
	       "get-accumulated by the right neighbour");
	for (int k = 0; k < 3; k++)
		EMU_EQ(&t, a[P + 4 + 2 * k], 10 * left + k + 1,
		       "strided put, element %d", k);
	for (int k = 0; k < 3; k++) {
		EMU_EQ(&t, got3[2 * k], 1000 * right + P + 9 + k,
		       "strided get, element %d", k);
		EMU_EQ(&t, got3[2 * k + 1], -5, "a hole of the strided get");
	}
	if (me == 0) {
		int top = P < 5 ? P - 1 : 4;
		EMU_TRUE(&t, c->v == (double)top && c->i == top, "MPI_MAXLOC "
			 "gave (%g, %d), want (%d, %d)", c->v, c->i, top, top);
	}
	EMU_EQ(&t, a[P + 5], 1000 * me + P + 5, "a hole of the vector");
	EMU_EQ(&t, a[P + 7], 1000 * me + P + 7, "a hole of the vector");
	for (int i = 0; i < P; i++)
		if (i != left)
			EMU_EQ(&t, a[i], 1000 * me + i, "untouched slot %d", i);

	/* The counter handed out 0 .. P-1 once each; one swap won. */
	int *tickets = emu_alloc(&t, (size_t)P, sizeof *tickets);
	int won = swap_old == -1, nwon = 0, winner = won ? me : -1;
	MPI_Allgather(&ticket, 1, MPI_INT, tickets, 1, MPI_INT,
		      MPI_COMM_WORLD);
	MPI_Allreduce(&won, &nwon, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &winner, 1, MPI_INT, MPI_MAX,
		      MPI_COMM_WORLD);
	char *seen = emu_alloc(&t, (size_t)P, 1);
	for (int i = 0; i < P; i++)
		if (EMU_TRUE(&t, tickets[i] >= 0 && tickets[i] < P &&
			     !seen[tickets[i]], "rank %d's ticket %d", i,
			     tickets[i]))
			seen[tickets[i]] = 1;
	EMU_EQ(&t, nwon, 1, "compare-and-swaps that found -1");
	if (!won)
		EMU_EQ(&t, swap_old, winner, "what a lost swap saw");
	if (me == 0) {
		EMU_EQ(&t, b[0], P, "the counter");
		EMU_EQ(&t, b[1], winner, "the swapped value");
	}
	free(seen);
	free(tickets);

	/* The second epoch reads back what the first put. */
	int back = -1;
	MPI_Get(&back, 1, MPI_INT, right, me, 1, MPI_INT, wa);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, wa);
	EMU_EQ(&t, back, me + 1, "read back from rank %d", right);

	/* Errors, returned. */
	MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN);
	int rc, cls;
	rc = MPI_Put(&one, 1, MPI_INT, right, 0, 1, MPI_INT, wa);
	MPI_Error_class(rc, &cls);
	EMU_TRUE(&t, rc != MPI_SUCCESS, "a put after MPI_MODE_NOSUCCEED "
		 "succeeded");
#ifdef SIBYL_MPI
	EMU_EQ(&t, cls, MPI_ERR_RMA_SYNC, "class of a put outside an epoch");
#endif
	/* Every rank makes the same call: natively it may be a fence. */
	rc = MPI_Win_fence(MPI_MODE_NOCHECK, wa);
#ifdef SIBYL_MPI
	MPI_Error_class(rc, &cls);
	EMU_EQ(&t, cls, MPI_ERR_ASSERT, "class of MPI_MODE_NOCHECK in a "
	       "fence");
#endif
	MPI_Win_fence(MPI_MODE_NOPRECEDE, wa);
	rc = MPI_Put(&one, 1, MPI_INT, right, N, 1, MPI_INT, wa);
	MPI_Error_class(rc, &cls);
	EMU_TRUE(&t, rc != MPI_SUCCESS, "a put past the window succeeded");
#ifdef SIBYL_MPI
	EMU_EQ(&t, cls, MPI_ERR_RMA_RANGE, "class of a put past the window");
#endif
	MPI_Win_fence(MPI_MODE_NOSUCCEED, wa);

	MPI_Win_free(&wa);
	MPI_Win_free(&wb);
	MPI_Win_free(&wc);
	EMU_TRUE(&t, wa == MPI_WIN_NULL && wb == MPI_WIN_NULL &&
		 wc == MPI_WIN_NULL, "freed handles");
	free(a);
	return emu_finish(&t);
}
