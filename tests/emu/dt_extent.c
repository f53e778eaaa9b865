/*
 * dt_extent.c -- sizes, bounds and true bounds of datatypes, against
 * values worked out by hand from MPI-3.1 4.1 (the extent of a type
 * without explicit bounds is its data span rounded up to the largest
 * alignment in it; MPI_Type_create_resized sets explicit bounds, which
 * every type built from it inherits):
 *   pair types    size sizeof(T) + sizeof(int), extent the C struct's;
 *   constructors  contiguous, vector (also negative stride), hvector
 *                 (padded extent), indexed, hindexed, indexed_block,
 *                 hindexed_block, struct (C-struct padding, zero
 *                 blocklengths ignored, explicit bounds win), resized,
 *                 nested types, empty types, a 32 GiB type (Type_size
 *                 MPI_UNDEFINED, Type_size_x exact), dup;
 *   the _x queries agree; Get_address / Aint_add / Aint_diff give
 *   offsetof; names: set, get, default empty, basic names.
 * Local calls only: every rank checks everything.
 *
 * Ranks: any.  Prints "PASS dt_extent" on rank 0.
 */
#include "emutest.h"

#include <stddef.h>

typedef struct want {
	long long size, lb, extent, tlb, textent;
} want;

/* Check t against w, then free t (unless it is a basic type). */
static void check(emu_test *t, const char *what, MPI_Datatype ty, want w)
{
	int size;
	MPI_Aint lb, ext, tlb, text;
	MPI_Count sx, lbx, extx, tlbx, textx;
	MPI_Type_size(ty, &size);
	MPI_Type_get_extent(ty, &lb, &ext);
	MPI_Type_get_true_extent(ty, &tlb, &text);
	EMU_EQ(t, size, w.size, "%s: size", what);
	EMU_EQ(t, lb, w.lb, "%s: lb", what);
	EMU_EQ(t, ext, w.extent, "%s: extent", what);
	EMU_EQ(t, tlb, w.tlb, "%s: true lb", what);
	EMU_EQ(t, text, w.textent, "%s: true extent", what);
	MPI_Type_size_x(ty, &sx);
	MPI_Type_get_extent_x(ty, &lbx, &extx);
	MPI_Type_get_true_extent_x(ty, &tlbx, &textx);
	EMU_EQ(t, sx, w.size, "%s: size_x", what);
	EMU_EQ(t, lbx, w.lb, "%s: lb (_x)", what);
	EMU_EQ(t, extx, w.extent, "%s: extent (_x)", what);
	EMU_EQ(t, tlbx, w.tlb, "%s: true lb (_x)", what);
	EMU_EQ(t, textx, w.textent, "%s: true extent (_x)", what);
}

static void done(MPI_Datatype *ty)
{
	MPI_Type_free(ty);
}

#define PAIR(T) struct { T a; int b; }

static void pairs(emu_test *t)
{
	/* Data: the T and the int; extent: the C struct.  MPI_SHORT_INT
	 * has a hole inside (true extent 8 but size 6). */
#define PW(T) (want){ sizeof(T) + sizeof(int), 0, sizeof(PAIR(T)), 0, \
		      offsetof(PAIR(T), b) + sizeof(int) }
	check(t, "MPI_FLOAT_INT", MPI_FLOAT_INT, PW(float));
	check(t, "MPI_DOUBLE_INT", MPI_DOUBLE_INT, PW(double));
	check(t, "MPI_LONG_INT", MPI_LONG_INT, PW(long));
	check(t, "MPI_2INT", MPI_2INT, PW(int));
	check(t, "MPI_SHORT_INT", MPI_SHORT_INT, PW(short));
	check(t, "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT,
	      PW(long double));
#undef PW
	check(t, "MPI_DOUBLE", MPI_DOUBLE, (want){ 8, 0, 8, 0, 8 });
	check(t, "MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX,
	      (want){ 16, 0, 16, 0, 16 });
	check(t, "MPI_LONG_DOUBLE", MPI_LONG_DOUBLE,
	      (want){ sizeof(long double), 0, sizeof(long double), 0,
		      sizeof(long double) });
}

static void vectors(emu_test *t)
{
	MPI_Datatype a, b;
	MPI_Type_contiguous(3, MPI_DOUBLE, &a);
	check(t, "contiguous(3, double)", a, (want){ 24, 0, 24, 0, 24 });
	/* Blocks of 2 ints at 0, 4, 8 ints: span (2 * 4 + 2) ints. */
	MPI_Type_vector(3, 2, 4, MPI_INT, &b);
	check(t, "vector(3, 2, 4, int)", b, (want){ 24, 0, 40, 0, 40 });
	done(&a);
	/* Two of those, one extent (40 bytes) apart. */
	MPI_Type_contiguous(2, b, &a);
	check(t, "contiguous(2, vector(3, 2, 4, int))", a,
	      (want){ 48, 0, 80, 0, 80 });
	done(&a);
	done(&b);
	/* Doubles at 0, -16, -32 bytes. */
	MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &a);
	check(t, "vector(3, 1, -2, double)", a,
	      (want){ 24, -32, 40, -32, 40 });
	done(&a);
	/* Ints at 0 and 6 bytes: data span 10, padded to 12 for int. */
	MPI_Type_create_hvector(2, 1, 6, MPI_INT, &a);
	check(t, "hvector(2, 1, 6 B, int)", a, (want){ 8, 0, 12, 0, 10 });
	done(&a);
	MPI_Type_create_hvector(2, 1, 5, MPI_SHORT, &a);
	check(t, "hvector(2, 1, 5 B, short)", a, (want){ 4, 0, 8, 0, 7 });
	done(&a);
	MPI_Type_vector(0, 1, 1, MPI_INT, &a);
	check(t, "vector(0, 1, 1, int)", a, (want){ 0, 0, 0, 0, 0 });
	done(&a);
	MPI_Type_contiguous(0, MPI_DOUBLE, &a);
	check(t, "contiguous(0, double)", a, (want){ 0, 0, 0, 0, 0 });
	done(&a);
	/* 2^20 x 2^12 doubles: 32 GiB of data, more than an int says. */
	MPI_Type_contiguous(1 << 12, MPI_DOUBLE, &a);
	MPI_Type_contiguous(1 << 20, a, &b);
	int size;
	MPI_Count sx;
	MPI_Type_size(b, &size);
	MPI_Type_size_x(b, &sx);
	EMU_EQ(t, size, MPI_UNDEFINED, "32 GiB type: MPI_Type_size");
	EMU_EQ(t, sx, 1LL << 35, "32 GiB type: MPI_Type_size_x");
	done(&b);
	done(&a);
}

static void indexed(emu_test *t)
{
	MPI_Datatype a;
	int bl[2] = { 2, 1 }, id[2] = { 3, 0 };
	MPI_Aint hd[2] = { 10, 1 };
	/* 2 doubles at 24, 1 at 0. */
	MPI_Type_indexed(2, bl, id, MPI_DOUBLE, &a);
	check(t, "indexed({2, 1}, {3, 0}, double)", a,
	      (want){ 24, 0, 40, 0, 40 });
	done(&a);
	/* 2 ints at 12, 2 at 0. */
	MPI_Type_create_indexed_block(2, 2, id, MPI_INT, &a);
	check(t, "indexed_block(2, 2, {3, 0}, int)", a,
	      (want){ 16, 0, 20, 0, 20 });
	done(&a);
	/* Ints at 10 and 1 bytes: span 13 from 1, padded to 16. */
	MPI_Type_create_hindexed_block(2, 1, hd, MPI_INT, &a);
	check(t, "hindexed_block(2, 1, {10, 1} B, int)", a,
	      (want){ 8, 1, 16, 1, 13 });
	done(&a);
	/* 2 shorts at 10, 1 at 1: span 13, padded to 14. */
	MPI_Type_create_hindexed(2, bl, hd, MPI_SHORT, &a);
	check(t, "hindexed({2, 1}, {10, 1} B, short)", a,
	      (want){ 6, 1, 14, 1, 13 });
	done(&a);
}

static void structs(emu_test *t)
{
	MPI_Datatype a, r, c;
	int bl[2] = { 1, 1 };
	struct di { double d; int i; };
	MPI_Aint d[2] = { offsetof(struct di, d), offsetof(struct di, i) };
	MPI_Datatype ty[2] = { MPI_DOUBLE, MPI_INT };
	MPI_Type_create_struct(2, bl, d, ty, &a);
	check(t, "struct {double; int}", a,
	      (want){ 12, 0, sizeof(struct di), 0, 12 });
	done(&a);

	d[0] = 0, d[1] = 1; /* packed: double at 1, padded to 16 */
	ty[0] = MPI_CHAR, ty[1] = MPI_DOUBLE;
	MPI_Type_create_struct(2, bl, d, ty, &a);
	check(t, "struct {char@0; double@1}", a, (want){ 9, 0, 16, 0, 9 });
	done(&a);

	d[0] = 4, d[1] = 8; /* lb 4, span 12 padded to 16 */
	ty[0] = MPI_INT, ty[1] = MPI_DOUBLE;
	MPI_Type_create_struct(2, bl, d, ty, &a);
	check(t, "struct {int@4; double@8}", a, (want){ 12, 4, 16, 4, 12 });
	done(&a);

	d[0] = 0, d[1] = 8; /* MPI_SHORT_INT aligns like int */
	ty[0] = MPI_SHORT_INT, ty[1] = MPI_CHAR;
	MPI_Type_create_struct(2, bl, d, ty, &a);
	check(t, "struct {short_int@0; char@8}", a, (want){ 7, 0, 12, 0, 9 });
	done(&a);

	int zb[2] = { 0, 1 }; /* a zero blocklength adds nothing */
	d[0] = 100, d[1] = 4;
	ty[0] = MPI_DOUBLE, ty[1] = MPI_CHAR;
	MPI_Type_create_struct(2, zb, d, ty, &a);
	check(t, "struct {0 x double@100; char@4}", a, (want){ 1, 4, 1, 4, 1 });
	done(&a);

	/* Explicit bounds: a double spaced 12 apart; a char after it at
	 * 12 is data beyond the explicit upper bound, which still wins. */
	MPI_Type_create_resized(MPI_DOUBLE, 0, 12, &r);
	check(t, "resized(double, 0, 12)", r, (want){ 8, 0, 12, 0, 8 });
	d[0] = 0, d[1] = 12;
	ty[0] = r, ty[1] = MPI_CHAR;
	MPI_Type_create_struct(2, bl, d, ty, &a);
	check(t, "struct {resized(double, 0, 12)@0; char@12}", a,
	      (want){ 9, 0, 12, 0, 13 });
	done(&a);
	done(&r);

	MPI_Type_create_resized(MPI_INT, -4, 12, &r);
	check(t, "resized(int, -4, 12)", r, (want){ 4, -4, 12, 0, 4 });
	MPI_Type_contiguous(2, r, &c);
	check(t, "contiguous(2, resized(int, -4, 12))", c,
	      (want){ 8, -4, 24, 0, 16 });
	done(&c);
	/* Ints at 0, 12, 36, 48; bounds -4 .. 48 + 8. */
	MPI_Type_vector(2, 2, 3, r, &c);
	check(t, "vector(2, 2, 3, resized(int, -4, 12))", c,
	      (want){ 16, -4, 60, 0, 52 });
	done(&c);
	/* Resizing again replaces the bounds. */
	MPI_Type_create_resized(r, 0, 4, &c);
	check(t, "resized(resized(int, -4, 12), 0, 4)", c,
	      (want){ 4, 0, 4, 0, 4 });
	done(&c);
	done(&r);

	/* Overlapping copies: ints 1 byte apart. */
	MPI_Type_create_resized(MPI_INT, 0, 1, &r);
	MPI_Type_contiguous(4, r, &c);
	check(t, "contiguous(4, resized(int, 0, 1))", c,
	      (want){ 16, 0, 4, 0, 7 });
	done(&c);
	done(&r);

	/* An array element of a C struct with holes. */
	struct part { double x[3]; int id; char tag; };
	int pb[3] = { 3, 1, 1 };
	MPI_Aint pd[3] = { offsetof(struct part, x),
			   offsetof(struct part, id),
			   offsetof(struct part, tag) };
	MPI_Datatype pt[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
	MPI_Type_create_struct(3, pb, pd, pt, &a);
	check(t, "struct part", a,
	      (want){ 29, 0, sizeof(struct part), 0, 29 });
	MPI_Type_dup(a, &c);
	check(t, "dup(struct part)", c,
	      (want){ 29, 0, sizeof(struct part), 0, 29 });
	done(&c);
	done(&a);
}

static void addresses(emu_test *t)
{
	struct s { char c; double d[4]; int i; } v;
	MPI_Aint base, ad, ai;
	MPI_Get_address(&v, &base);
	MPI_Get_address(&v.d[2], &ad);
	MPI_Get_address(&v.i, &ai);
	EMU_EQ(t, MPI_Aint_diff(ad, base),
	       offsetof(struct s, d) + 2 * sizeof(double), "Aint_diff");
	EMU_EQ(t, MPI_Aint_add(base, offsetof(struct s, i)), ai, "Aint_add");
	EMU_EQ(t, ai - base, offsetof(struct s, i), "Get_address");
}

static void names(emu_test *t)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len = -1;
	MPI_Datatype a;
	MPI_Type_get_name(MPI_INT, name, &len);
	EMU_TRUE(t, !strcmp(name, "MPI_INT") && len == 7,
		 "name of MPI_INT: '%s' (%d)", name, len);
	MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
	EMU_TRUE(t, !strcmp(name, "MPI_DOUBLE_INT") && len == 14,
		 "name of MPI_DOUBLE_INT: '%s' (%d)", name, len);
	MPI_Type_contiguous(2, MPI_INT, &a);
	len = -1;
	MPI_Type_get_name(a, name, &len);
	EMU_TRUE(t, name[0] == 0 && len == 0, "default name: '%s' (%d)",
		 name, len);
	char mine[32];
	snprintf(mine, sizeof mine, "halo of rank %d", t->rank);
	MPI_Type_set_name(a, mine);
	MPI_Type_get_name(a, name, &len);
	EMU_TRUE(t, !strcmp(name, mine) && len == (int)strlen(mine),
		 "name: '%s' (%d), want '%s'", name, len, mine);
	done(&a);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_extent", &argc, &argv);
	pairs(&t);
	vectors(&t);
	indexed(&t);
	structs(&t);
	addresses(&t);
	names(&t);
	return emu_finish(&t);
}
