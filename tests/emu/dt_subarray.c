/*
 * dt_subarray.c -- MPI_Type_create_subarray.
 *
 * A 4 x 5 x 6 array of ints whose element (i, j, k) holds its index in
 * the order of the test (C: (i * 5 + j) * 6 + k; Fortran: i + 4 * (j + 5 *
 * k)) and the block of 2 x 3 x 4 elements at (1, 1, 2):
 *   - Type_size is 24 ints, the lower bound 0 and the extent the whole
 *     array's (120 ints), in both orders;
 *   - sent with the subarray type to rank+1 and received as 24 contiguous
 *     ints: the block's elements, fastest index last (C) or first
 *     (Fortran);
 *   - received with the subarray type into a zeroed array: the block is
 *     written and nothing else;
 *   - two subarrays back to back (count 2) are two whole arrays apart;
 *   - a one-dimensional subarray is the plain slice;
 *   - a subsize larger than its size is MPI_ERR_ARG (MPI_ERRORS_RETURN).
 *
 * Ranks: any number >= 1 (one rank sends to itself).  Prints
 * "PASS dt_subarray" on rank 0.
 */
#include "emutest.h"

#define N0 4
#define N1 5
#define N2 6
#define ALL (N0 * N1 * N2)

static const int sizes[3] = { N0, N1, N2 }, sub[3] = { 2, 3, 4 },
	start[3] = { 1, 1, 2 };

static int at(int order, int i, int j, int k)
{
	return order == MPI_ORDER_C ? (i * N1 + j) * N2 + k :
		i + N0 * (j + N1 * k);
}

static void one_order(emu_test *t, int order, const char *name)
{
	int to = (t->rank + 1) % t->size, from = (t->rank + t->size - 1) %
		t->size;
	int *a = emu_alloc(t, 2 * ALL, sizeof(int));
	int *packed = emu_alloc(t, 48, sizeof(int));
	MPI_Datatype s;
	MPI_Aint lb = -1, ext = -1;
	int size = -1;

	MPI_Type_create_subarray(3, sizes, sub, start, order, MPI_INT, &s);
	MPI_Type_commit(&s);
	MPI_Type_size(s, &size);
	MPI_Type_get_extent(s, &lb, &ext);
	EMU_EQ(t, size, 24 * (int)sizeof(int), "%s: size", name);
	EMU_EQ(t, lb, 0, "%s: lower bound", name);
	EMU_EQ(t, ext, ALL * (long)sizeof(int), "%s: extent", name);

	/* Every rank sends its own values. */
	for (int i = 0; i < 2 * ALL; i++)
		a[i] = i + 1000 * t->rank;
	MPI_Sendrecv(a, 2, s, to, 1, packed, 48, MPI_INT, from, 1,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	/* The type's element order: the fastest index last in C, first in
	 * Fortran. */
	int n = 0, bad = 0, nsub = sub[0] * sub[1] * sub[2];
	for (int c = 0; c < 2; c++)
		for (int p = 0; p < nsub; p++, n++) {
			int i, j, k;
			if (order == MPI_ORDER_C) {
				k = p % sub[2];
				j = p / sub[2] % sub[1];
				i = p / (sub[2] * sub[1]);
			} else {
				i = p % sub[0];
				j = p / sub[0] % sub[1];
				k = p / (sub[0] * sub[1]);
			}
			int want = c * ALL + 1000 * from +
				at(order, start[0] + i, start[1] + j,
				   start[2] + k);
			bad += packed[n] != want;
		}
	EMU_EQ(t, bad, 0, "%s: elements sent with the subarray type", name);

	memset(a, 0, 2 * ALL * sizeof(int));
	for (int i = 0; i < 24; i++)
		packed[i] = i + 1;
	MPI_Sendrecv(packed, 24, MPI_INT, to, 2, a, 1, s, from, 2,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	int inside = 0, outside = 0;
	for (int i = 0; i < N0; i++)
		for (int j = 0; j < N1; j++)
			for (int k = 0; k < N2; k++) {
				int in = i >= start[0] && i < start[0] + sub[0] &&
					j >= start[1] && j < start[1] + sub[1] &&
					k >= start[2] && k < start[2] + sub[2];
				int v = a[at(order, i, j, k)];
				if (in)
					inside += v != 0;
				else
					outside += v != 0;
			}
	EMU_EQ(t, inside, 24, "%s: block elements received", name);
	EMU_EQ(t, outside, 0, "%s: elements written outside the block",
	       name);
	MPI_Type_free(&s);
	free(a);
	free(packed);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_subarray", &argc, &argv);
	one_order(&t, MPI_ORDER_C, "C order");
	one_order(&t, MPI_ORDER_FORTRAN, "Fortran order");

	/* One dimension: elements 3..6 of 10 doubles. */
	double x[10], y[4] = { 0, 0, 0, 0 };
	int n10 = 10, n4 = 4, s3 = 3, cls = 0;
	MPI_Datatype d1;
	for (int i = 0; i < 10; i++)
		x[i] = i * 1.5;
	MPI_Type_create_subarray(1, &n10, &n4, &s3, MPI_ORDER_C, MPI_DOUBLE,
				 &d1);
	MPI_Type_commit(&d1);
	MPI_Sendrecv(x, 1, d1, t.rank, 3, y, 4, MPI_DOUBLE, t.rank, 3,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_TRUE(&t, y[0] == 4.5 && y[3] == 9.0, "1-D subarray: %g..%g",
		 y[0], y[3]);
	MPI_Type_free(&d1);

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	int big = 11;
	MPI_Error_class(MPI_Type_create_subarray(1, &n10, &big, &s3,
						 MPI_ORDER_C, MPI_INT, &d1),
			&cls);
	EMU_EQ(&t, cls, MPI_ERR_ARG, "a subsize larger than the size");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	return emu_finish(&t);
}
