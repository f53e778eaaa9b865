/*
 * dt_envelope.c -- the datatype routines beyond constructing and
 * packing: decoding, distributed arrays, external32, kinds, attributes.
 *
 * Decoding: for a type of each constructor (and the MPI-1 names), and
 * for nested ones (a struct of a vector of a resized contiguous, ...):
 *   - MPI_Type_get_envelope gives the combiner and the counts, and
 *     MPI_Type_get_contents the arguments exactly as given;
 *   - the type rebuilt from its contents (recursively: each derived
 *     datatype of the contents rebuilt from its own) has the same size,
 *     bounds and true bounds, and MPI_Pack packs the same bytes of a
 *     patterned buffer with it; the derived datatypes the contents
 *     return are freed, the predefined ones are the very handles given;
 *   - a type's contents stay valid after the types it was built from
 *     are freed;
 *   - a predefined type is MPI_COMBINER_NAMED, and MPI_Type_get_contents
 *     on it is an MPI_ERR_ARG error (MPI_ERRORS_RETURN).
 *
 * Distributed arrays (MPI_Type_create_darray): 2-D and 3-D arrays in C
 * and Fortran order, distributed by blocks (default and given sizes,
 * one leaving a process nothing), cyclically (by 1 and by blocks) and
 * not at all (the pattern of the standard's example: CYCLIC(k), *,
 * BLOCK), over the process grid MPI_Dims_create makes of the world:
 *   - each rank's type has lower bound 0, the whole array's extent and
 *     the size of the elements it owns, counted independently here;
 *   - each rank sends its array (element i holding rank * 100000 + i)
 *     with its type to rank 0, which receives it as contiguous ints:
 *     the elements the test computes the rank owns, in the array's
 *     order; rank 0 then receives those into a whole array with the
 *     type it makes for that rank: every element of the global array
 *     comes from exactly one rank, the one the test computes;
 *   - the contents are the arguments, and the rebuilt type is the same.
 *
 * external32 (MPI_Pack_external, MPI_Unpack_external,
 * MPI_Pack_external_size): ints, doubles, floats, shorts, a bool, a
 * struct of an int, a double and a char (13 bytes, no padding) and a
 * vector pack to the big-endian bytes of their known values, one after
 * the other at the position each call leaves, and unpack to the same
 * values; the sizes are the standard's.  Under Sibyl also (Open MPI 4.1
 * packs MPI_LONG in 8 bytes and does not convert long doubles): longs
 * (4 bytes), long doubles (IEEE quadruple precision), a long beyond 32
 * bits and a datarep other than "external32" (MPI_ERR_ARG).
 *
 * Kinds: MPI_Type_match_size gives, for each typeclass, a type of each
 * size asked (integers of 1 to 8 bytes, reals of 4 and 8, complexes of
 * 8 and 16); MPI_Type_create_f90_real, _complex and _integer give types
 * of the sizes gfortran's kinds have for (p, r) (MPI_UNDEFINED for
 * either of p and r), the same handle for the same (p, r), with the
 * envelope MPI_COMBINER_F90_*; they carry messages.  Under Sibyl also
 * (MPI_Type_get_contents faults on them in Open MPI 4.1): their contents
 * are (p, r), and freeing one, a size no type has and a (p, r) no kind
 * has are errors.
 *
 * Attributes: a keyval whose copy callback stores the value plus one
 * and whose delete callback records what it deletes (in the rank's own
 * record, reached through extra_state):
 *   - set on a derived type, get gives it back (flag 1); get with a
 *     keyval never set on the type gives flag 0;
 *   - MPI_Type_dup runs the copy callback once, with the old type and
 *     its value, and the duplicate holds the callback's value; a keyval
 *     with MPI_TYPE_NULL_COPY_FN is not copied, one with MPI_TYPE_DUP_FN
 *     is, with the same value;
 *   - setting again deletes the old value first; MPI_Type_delete_attr
 *     runs the delete callback with the type and the value, and get then
 *     gives flag 0; MPI_Type_free runs it for each attribute left;
 *   - a predefined type (MPI_INT) takes attributes too;
 *   - a copy callback's error fails MPI_Type_dup (under Sibyl, with
 *     the callback's code), and under Sibyl a keyval of communicators on
 *     a datatype, the reverse, and a freed keyval are MPI_ERR_ARG errors
 *     (MPI_ERRORS_RETURN);
 *   - MPI_Type_free_keyval sets the keyval to MPI_KEYVAL_INVALID.
 *
 * Plain MPI: builds with Open MPI's mpicc as well.  Ranks: any number
 * (4 on 2 processes in tests/emu_dt.sh).  Prints "PASS dt_envelope" on
 * rank 0.
 */
#include "emutest.h"

#include <stddef.h>

/* -------------------------------------------------------------- decoding */

#define PAT_BYTES 65536
#define PAT_BASE 32768

/* A type's envelope and contents (malloc'd; free with contents_free). */
typedef struct contents {
	int ni, na, nd, comb;
	int *i;
	MPI_Aint *a;
	MPI_Datatype *d;
} contents;

static void contents_get(emu_test *t, MPI_Datatype type, contents *c)
{
	MPI_Type_get_envelope(type, &c->ni, &c->na, &c->nd, &c->comb);
	c->i = emu_alloc(t, (size_t)c->ni, sizeof *c->i);
	c->a = emu_alloc(t, (size_t)c->na, sizeof *c->a);
	c->d = emu_alloc(t, (size_t)c->nd, sizeof *c->d);
	if (c->comb != MPI_COMBINER_NAMED)
		MPI_Type_get_contents(type, c->ni, c->na, c->nd, c->i, c->a,
				      c->d);
}

/* Free the contents' arrays and the derived datatypes they returned. */
static void contents_free(contents *c)
{
	for (int k = 0; k < c->nd; k++) {
		int ni, na, nd, comb;
		MPI_Type_get_envelope(c->d[k], &ni, &na, &nd, &comb);
		if (comb != MPI_COMBINER_NAMED)
			MPI_Type_free(&c->d[k]);
	}
	free(c->i);
	free(c->a);
	free(c->d);
}

/* A type equal to `type', made again from its contents (each derived
 * datatype of them made again from its own); the predefined ones come
 * back as they are. */
static MPI_Datatype rebuild(emu_test *t, MPI_Datatype type)
{
	contents c;
	contents_get(t, type, &c);
	if (c.comb == MPI_COMBINER_NAMED) {
		contents_free(&c);
		return type;
	}
	MPI_Datatype *d = emu_alloc(t, (size_t)c.nd, sizeof *d);
	for (int k = 0; k < c.nd; k++)
		d[k] = rebuild(t, c.d[k]);
	MPI_Datatype n = MPI_DATATYPE_NULL;
	const int *i = c.i;
	switch (c.comb) {
	case MPI_COMBINER_DUP:
		MPI_Type_dup(d[0], &n);
		break;
	case MPI_COMBINER_CONTIGUOUS:
		MPI_Type_contiguous(i[0], d[0], &n);
		break;
	case MPI_COMBINER_VECTOR:
		MPI_Type_vector(i[0], i[1], i[2], d[0], &n);
		break;
	case MPI_COMBINER_HVECTOR:
		MPI_Type_create_hvector(i[0], i[1], c.a[0], d[0], &n);
		break;
	case MPI_COMBINER_INDEXED:
		MPI_Type_indexed(i[0], i + 1, i + 1 + i[0], d[0], &n);
		break;
	case MPI_COMBINER_HINDEXED:
		MPI_Type_create_hindexed(i[0], i + 1, c.a, d[0], &n);
		break;
	case MPI_COMBINER_INDEXED_BLOCK:
		MPI_Type_create_indexed_block(i[0], i[1], i + 2, d[0], &n);
		break;
	case MPI_COMBINER_HINDEXED_BLOCK:
		MPI_Type_create_hindexed_block(i[0], i[1], c.a, d[0], &n);
		break;
	case MPI_COMBINER_STRUCT:
		MPI_Type_create_struct(i[0], i + 1, c.a, d, &n);
		break;
	case MPI_COMBINER_SUBARRAY:
		MPI_Type_create_subarray(i[0], i + 1, i + 1 + i[0],
					 i + 1 + 2 * i[0], i[1 + 3 * i[0]],
					 d[0], &n);
		break;
	case MPI_COMBINER_DARRAY:
		MPI_Type_create_darray(i[0], i[1], i[2], i + 3, i + 3 + i[2],
				       i + 3 + 2 * i[2], i + 3 + 3 * i[2],
				       i[3 + 4 * i[2]], d[0], &n);
		break;
	case MPI_COMBINER_RESIZED:
		MPI_Type_create_resized(d[0], c.a[0], c.a[1], &n);
		break;
	default:
		emu_fail(t, __LINE__, "rebuild: combiner %d", c.comb);
		MPI_Type_dup(type, &n);
	}
	for (int k = 0; k < c.nd; k++)
		if (d[k] != c.d[k])
			MPI_Type_free(&d[k]);
	free(d);
	contents_free(&c);
	return n;
}

/* a and b have the same size, bounds and true bounds, and pack the same
 * bytes of two elements of a patterned buffer. */
static void same_type(emu_test *t, MPI_Datatype a, MPI_Datatype b,
		      const char *what)
{
	MPI_Count sa, sb;
	MPI_Aint la, ea, lb, eb, tla, tea, tlb, teb;
	MPI_Type_size_x(a, &sa);
	MPI_Type_size_x(b, &sb);
	MPI_Type_get_extent(a, &la, &ea);
	MPI_Type_get_extent(b, &lb, &eb);
	MPI_Type_get_true_extent(a, &tla, &tea);
	MPI_Type_get_true_extent(b, &tlb, &teb);
	EMU_EQ(t, sb, sa, "%s: size", what);
	EMU_TRUE(t, la == lb && ea == eb && tla == tlb && tea == teb,
		 "%s: bounds %ld+%ld true %ld+%ld, want %ld+%ld true %ld+%ld",
		 what, (long)lb, (long)eb, (long)tlb, (long)teb, (long)la,
		 (long)ea, (long)tla, (long)tea);
	if (tla < -PAT_BASE / 2 || tla + ea + tea > PAT_BASE / 2 ||
	    2 * sa > PAT_BYTES) {
		emu_fail(t, __LINE__, "%s: too large for the test", what);
		return;
	}
	unsigned char *buf = emu_alloc(t, PAT_BYTES, 1);
	char *pa = emu_alloc(t, PAT_BYTES, 1), *pb = emu_alloc(t, PAT_BYTES, 1);
	for (int k = 0; k < PAT_BYTES; k++)
		buf[k] = (unsigned char)(k * 7 + k / 251);
	int na = 0, nb = 0;
	MPI_Datatype ca = a, cb = b;
	MPI_Type_dup(a, &ca);
	MPI_Type_dup(b, &cb);
	MPI_Type_commit(&ca);
	MPI_Type_commit(&cb);
	MPI_Pack(buf + PAT_BASE, 2, ca, pa, PAT_BYTES, &na, MPI_COMM_WORLD);
	MPI_Pack(buf + PAT_BASE, 2, cb, pb, PAT_BYTES, &nb, MPI_COMM_WORLD);
	EMU_TRUE(t, na == nb && na == 2 * sa && !memcmp(pa, pb, (size_t)na),
		 "%s: packs %d bytes, not the %d the original packs%s", what,
		 nb, na, na == nb ? " (other bytes)" : "");
	MPI_Type_free(&ca);
	MPI_Type_free(&cb);
	free(buf);
	free(pa);
	free(pb);
}

/* The contents of `type' are combiner `comb' with ni integers i, na
 * addresses a and nd datatypes (the predefined ones among d: the same
 * handles); a type rebuilt from them is the same. */
static void check_contents(emu_test *t, MPI_Datatype type, int comb, int ni,
			   const int *i, int na, const MPI_Aint *a, int nd,
			   const MPI_Datatype *d, const char *what)
{
	contents c;
	contents_get(t, type, &c);
	if (!EMU_TRUE(t, c.comb == comb && c.ni == ni && c.na == na &&
		      c.nd == nd, "%s: envelope (%d, %d, %d, combiner %d), "
		      "want (%d, %d, %d, %d)", what, c.ni, c.na, c.nd, c.comb,
		      ni, na, nd, comb)) {
		contents_free(&c);
		return;
	}
	for (int k = 0; k < ni; k++)
		EMU_EQ(t, c.i[k], i[k], "%s: integer %d", what, k);
	for (int k = 0; k < na; k++)
		EMU_EQ(t, c.a[k], a[k], "%s: address %d", what, k);
	for (int k = 0; k < nd; k++) {
		int n1, n2, n3, dc;
		MPI_Type_get_envelope(d[k], &n1, &n2, &n3, &dc);
		if (dc == MPI_COMBINER_NAMED)
			EMU_TRUE(t, c.d[k] == d[k], "%s: datatype %d is not "
				 "the predefined one given", what, k);
		else
			same_type(t, d[k], c.d[k], what);
	}
	contents_free(&c);
	MPI_Datatype n = rebuild(t, type);
	same_type(t, type, n, what);
	MPI_Type_free(&n);
}

#define N(x) ((int)(sizeof(x) / sizeof *(x)))

static void decoding(emu_test *t)
{
	MPI_Datatype v, w, x, y;
	int ni, na, nd, comb = -1, cls = 0;

	MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
	EMU_EQ(t, comb, MPI_COMBINER_NAMED, "MPI_DOUBLE's combiner");
	MPI_Type_get_envelope(MPI_2INT, &ni, &na, &nd, &comb);
	EMU_EQ(t, comb, MPI_COMBINER_NAMED, "MPI_2INT's combiner");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	int ib[4];
	MPI_Aint ab[4];
	MPI_Datatype db[4];
	int rc = MPI_Type_get_contents(MPI_INT, 4, 4, 4, ib, ab, db);
	MPI_Error_class(rc, &cls);
	EMU_TRUE(t, rc != MPI_SUCCESS, "MPI_Type_get_contents of MPI_INT "
		 "succeeded");
#ifdef SIBYL_MPI
	EMU_EQ(t, cls, MPI_ERR_ARG, "MPI_Type_get_contents of MPI_INT");
#endif
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

	MPI_Type_contiguous(3, MPI_DOUBLE, &v);
	check_contents(t, v, MPI_COMBINER_CONTIGUOUS, 1, (int[]){ 3 }, 0, NULL,
		       1, (MPI_Datatype[]){ MPI_DOUBLE }, "contiguous");
	MPI_Type_free(&v);

	MPI_Type_vector(3, 2, -4, MPI_INT, &v);
	check_contents(t, v, MPI_COMBINER_VECTOR, 3, (int[]){ 3, 2, -4 }, 0,
		       NULL, 1, (MPI_Datatype[]){ MPI_INT }, "vector");
	MPI_Type_free(&v);

	MPI_Type_create_hvector(2, 3, 40, MPI_SHORT, &v);
	check_contents(t, v, MPI_COMBINER_HVECTOR, 2, (int[]){ 2, 3 }, 1,
		       (MPI_Aint[]){ 40 }, 1, (MPI_Datatype[]){ MPI_SHORT },
		       "hvector");
	MPI_Type_free(&v);

	int ibl[] = { 2, 1, 3 }, idi[] = { 0, 5, 9 };
	MPI_Type_indexed(3, ibl, idi, MPI_INT, &v);
	check_contents(t, v, MPI_COMBINER_INDEXED, 7,
		       (int[]){ 3, 2, 1, 3, 0, 5, 9 }, 0, NULL, 1,
		       (MPI_Datatype[]){ MPI_INT }, "indexed");
	MPI_Type_free(&v);

	int hbl[] = { 1, 2 };
	MPI_Aint hdi[] = { 8, -40 };
	MPI_Type_create_hindexed(2, hbl, hdi, MPI_DOUBLE, &v);
	check_contents(t, v, MPI_COMBINER_HINDEXED, 3, (int[]){ 2, 1, 2 }, 2,
		       hdi, 1, (MPI_Datatype[]){ MPI_DOUBLE }, "hindexed");
	MPI_Type_free(&v);

	int bdi[] = { 1, 6, 10 };
	MPI_Type_create_indexed_block(3, 2, bdi, MPI_INT, &v);
	check_contents(t, v, MPI_COMBINER_INDEXED_BLOCK, 5,
		       (int[]){ 3, 2, 1, 6, 10 }, 0, NULL, 1,
		       (MPI_Datatype[]){ MPI_INT }, "indexed_block");
	MPI_Type_free(&v);

	MPI_Aint hbd[] = { 0, 32 };
	MPI_Type_create_hindexed_block(2, 3, hbd, MPI_CHAR, &v);
	check_contents(t, v, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){ 2, 3 },
		       2, hbd, 1, (MPI_Datatype[]){ MPI_CHAR },
		       "hindexed_block");
	MPI_Type_free(&v);

	int sbl[] = { 1, 2, 1 };
	MPI_Aint sdi[] = { 0, 8, 24 };
	MPI_Datatype sty[] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
	MPI_Type_create_struct(3, sbl, sdi, sty, &v);
	check_contents(t, v, MPI_COMBINER_STRUCT, 4, (int[]){ 3, 1, 2, 1 }, 3,
		       sdi, 3, sty, "struct");
	MPI_Type_free(&v);

	int sz[] = { 6, 7 }, sub[] = { 2, 3 }, st[] = { 1, 2 };
	MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &v);
	check_contents(t, v, MPI_COMBINER_SUBARRAY, 8,
		       (int[]){ 2, 6, 7, 2, 3, 1, 2, MPI_ORDER_C }, 0, NULL, 1,
		       (MPI_Datatype[]){ MPI_INT }, "subarray (C)");
	MPI_Type_free(&v);
	MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_FLOAT,
				 &v);
	check_contents(t, v, MPI_COMBINER_SUBARRAY, 8,
		       (int[]){ 2, 6, 7, 2, 3, 1, 2, MPI_ORDER_FORTRAN }, 0,
		       NULL, 1, (MPI_Datatype[]){ MPI_FLOAT },
		       "subarray (Fortran)");
	MPI_Type_free(&v);

#ifdef SIBYL_MPI
	/* The MPI-1 names (Open MPI 4 leaves them out by default). */
	MPI_Type_hvector(2, 1, 16, MPI_INT, &v);
	check_contents(t, v, MPI_COMBINER_HVECTOR, 2, (int[]){ 2, 1 }, 1,
		       (MPI_Aint[]){ 16 }, 1, (MPI_Datatype[]){ MPI_INT },
		       "MPI_Type_hvector");
	MPI_Type_free(&v);
	MPI_Type_struct(3, sbl, sdi, sty, &v);
	check_contents(t, v, MPI_COMBINER_STRUCT, 4, (int[]){ 3, 1, 2, 1 }, 3,
		       sdi, 3, sty, "MPI_Type_struct");
	MPI_Type_free(&v);
#endif

	MPI_Type_create_resized(MPI_INT, -4, 16, &v);
	check_contents(t, v, MPI_COMBINER_RESIZED, 0, NULL, 2,
		       (MPI_Aint[]){ -4, 16 }, 1, (MPI_Datatype[]){ MPI_INT },
		       "resized");

	MPI_Type_dup(MPI_INT, &w);
	check_contents(t, w, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1,
		       (MPI_Datatype[]){ MPI_INT }, "dup of MPI_INT");
	MPI_Type_free(&w);

	/* Nested: a struct of a vector of the resized int, a dup of an
	 * hindexed of a contiguous, and a float; the parts freed before the
	 * struct is decoded. */
	MPI_Type_vector(2, 3, 2, v, &w);
	MPI_Type_contiguous(2, MPI_SHORT, &x);
	MPI_Datatype hx, dx;
	MPI_Type_create_hindexed(2, hbl, (MPI_Aint[]){ 0, 24 }, x, &hx);
	MPI_Type_dup(hx, &dx);
	MPI_Datatype parts[] = { w, dx, MPI_FLOAT };
	int pbl[] = { 1, 2, 3 };
	MPI_Aint pdi[] = { 0, 200, 400 };
	MPI_Type_create_struct(3, pbl, pdi, parts, &y);
	MPI_Datatype copy[3];
	MPI_Type_dup(w, &copy[0]);
	MPI_Type_dup(dx, &copy[1]);
	copy[2] = MPI_FLOAT;
	MPI_Type_free(&v);
	MPI_Type_free(&w);
	MPI_Type_free(&x);
	MPI_Type_free(&hx);
	MPI_Type_free(&dx);
	check_contents(t, y, MPI_COMBINER_STRUCT, 4, (int[]){ 3, 1, 2, 3 }, 3,
		       pdi, 3, copy, "nested struct");
	/* The vector of the struct's contents is still a vector of a
	 * resized int. */
	contents c;
	contents_get(t, y, &c);
	MPI_Type_get_envelope(c.d[0], &ni, &na, &nd, &comb);
	EMU_EQ(t, comb, MPI_COMBINER_VECTOR, "the nested vector's combiner");
	MPI_Type_get_envelope(c.d[1], &ni, &na, &nd, &comb);
	EMU_EQ(t, comb, MPI_COMBINER_DUP, "the nested dup's combiner");
	contents_free(&c);
	MPI_Type_free(&copy[0]);
	MPI_Type_free(&copy[1]);
	MPI_Type_free(&y);
}

/* ------------------------------------------------------ distributed arrays */

#define TAG_DARRAY 7
#define DARRAY_TAG_BASE 100000

typedef struct darray_case {
	const char *name;
	int ndims, order;
	int gsizes[3], distribs[3], dargs[3];
	int ints_per_elem;      /* oldtype: MPI_INT or 2 contiguous ints */
} darray_case;

/* The process coordinate owning index i of a dimension of g elements
 * over p processes. */
static int owner_coord(int distrib, int darg, int g, int p, int i)
{
	int b;
	switch (distrib) {
	case MPI_DISTRIBUTE_BLOCK:
		b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
		return i / b;
	case MPI_DISTRIBUTE_CYCLIC:
		b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
		return i / b % p;
	default:
		return 0;
	}
}

/* The rank (row-major in the grid) owning element e (in the array's
 * order) of case c over grid ps. */
static int owner_of(const darray_case *c, const int *ps, long e)
{
	int idx[3], rank = 0;
	for (int k = 0; k < c->ndims; k++) {
		int d = c->order == MPI_ORDER_C ? c->ndims - 1 - k : k;
		idx[d] = (int)(e % c->gsizes[d]);
		e /= c->gsizes[d];
	}
	for (int d = 0; d < c->ndims; d++)
		rank = rank * ps[d] + owner_coord(c->distribs[d], c->dargs[d],
						  c->gsizes[d], ps[d], idx[d]);
	return rank;
}

static void darray_one(emu_test *t, const darray_case *c)
{
	int ps[3] = { 0, 0, 0 }, nd = c->ndims, ipe = c->ints_per_elem;
	for (int d = 0; d < nd; d++)
		if (c->distribs[d] == MPI_DISTRIBUTE_NONE)
			ps[d] = 1;
	MPI_Dims_create(t->size, nd, ps);
	long n = 1;
	for (int d = 0; d < nd; d++)
		n *= c->gsizes[d];
	MPI_Datatype old = MPI_INT, dt;
	if (ipe == 2)
		MPI_Type_contiguous(2, MPI_INT, &old);
	MPI_Type_create_darray(t->size, t->rank, nd, c->gsizes, c->distribs,
			       c->dargs, ps, c->order, old, &dt);
	MPI_Type_commit(&dt);

	long mine = 0;
	for (long e = 0; e < n; e++)
		mine += owner_of(c, ps, e) == t->rank;
	int size = -1;
	MPI_Aint lb = -1, ext = -1;
	MPI_Type_size(dt, &size);
	MPI_Type_get_extent(dt, &lb, &ext);
	EMU_EQ(t, size, mine * ipe * (long)sizeof(int), "%s: size", c->name);
	EMU_TRUE(t, lb == 0 && ext == n * ipe * (long)sizeof(int),
		 "%s: bounds %ld+%ld, want 0+%ld", c->name, (long)lb,
		 (long)ext, n * ipe * (long)sizeof(int));

	int ints[3 + 4 * 3 + 1], ni = 0;
	ints[ni++] = t->size;
	ints[ni++] = t->rank;
	ints[ni++] = nd;
	for (int k = 0; k < 4; k++)
		for (int d = 0; d < nd; d++)
			ints[ni++] = (k == 0 ? c->gsizes : k == 1 ? c->distribs :
				      k == 2 ? c->dargs : ps)[d];
	ints[ni++] = c->order;
	check_contents(t, dt, MPI_COMBINER_DARRAY, ni, ints, 0, NULL, 1, &old,
		       c->name);

	int *g = emu_alloc(t, (size_t)(n * ipe), sizeof(int));
	for (long i = 0; i < n * ipe; i++)
		g[i] = t->rank * DARRAY_TAG_BASE + (int)i;
	MPI_Request rq;
	MPI_Isend(g, 1, dt, 0, TAG_DARRAY, MPI_COMM_WORLD, &rq);
	if (t->rank == 0) {
		int *in = emu_alloc(t, (size_t)(n * ipe), sizeof(int));
		int *whole = emu_alloc(t, (size_t)(n * ipe), sizeof(int));
		int *hits = emu_alloc(t, (size_t)n, sizeof(int));
		for (int r = 0; r < t->size; r++) {
			MPI_Status st;
			int got = -1, bad = 0;
			long k = 0;
			MPI_Recv(in, (int)(n * ipe), MPI_INT, r, TAG_DARRAY,
				 MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &got);
			for (long e = 0; e < n; e++)
				if (owner_of(c, ps, e) == r)
					for (int j = 0; j < ipe; j++, k++)
						bad += k >= got || in[k] !=
							r * DARRAY_TAG_BASE +
							(int)(e * ipe + j);
			EMU_TRUE(t, got == k && !bad, "%s: rank %d sent %d "
				 "ints, %d of them wrong; want %ld", c->name,
				 r, got, bad, k);
			/* Into the whole array with rank r's type. */
			MPI_Datatype tr;
			MPI_Type_create_darray(t->size, r, nd, c->gsizes,
					       c->distribs, c->dargs, ps,
					       c->order, old, &tr);
			MPI_Type_commit(&tr);
			for (long i = 0; i < n * ipe; i++)
				whole[i] = -1;
			MPI_Sendrecv(in, got, MPI_INT, 0, TAG_DARRAY + 1,
				     whole, 1, tr, 0, TAG_DARRAY + 1,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Type_free(&tr);
			bad = 0;
			for (long e = 0; e < n; e++) {
				int from = whole[e * ipe] < 0 ? -1 :
					whole[e * ipe] / DARRAY_TAG_BASE;
				if (from < 0)
					continue;
				hits[e]++;
				bad += from != owner_of(c, ps, e);
				for (int j = 0; j < ipe; j++)
					bad += whole[e * ipe + j] != r *
						DARRAY_TAG_BASE +
						(int)(e * ipe + j);
			}
			EMU_EQ(t, bad, 0, "%s: elements placed by rank %d's "
			       "type in the wrong place", c->name, r);
		}
		long once = 0;
		for (long e = 0; e < n; e++)
			once += hits[e] == 1;
		EMU_EQ(t, once, n, "%s: elements received from exactly one "
		       "rank", c->name);
		free(in);
		free(whole);
		free(hits);
	}
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	free(g);
	MPI_Type_free(&dt);
	if (ipe == 2)
		MPI_Type_free(&old);
}

static void darrays(emu_test *t)
{
	const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC,
		NO = MPI_DISTRIBUTE_NONE, D = MPI_DISTRIBUTE_DFLT_DARG;
	const darray_case cases[] = {
		{ "2-D C, block x cyclic(2)", 2, MPI_ORDER_C, { 5, 9 },
		  { B, C }, { D, 2 }, 1 },
		{ "2-D Fortran, cyclic x block(4)", 2, MPI_ORDER_FORTRAN,
		  { 6, 4 }, { C, B }, { D, 4 }, 1 },
		{ "3-D Fortran, cyclic(3) x none x block", 3,
		  MPI_ORDER_FORTRAN, { 10, 4, 9 }, { C, NO, B }, { 3, 0, D },
		  1 },
		{ "3-D C, block x cyclic(2) x none of int pairs", 3,
		  MPI_ORDER_C, { 7, 5, 3 }, { B, C, NO }, { D, 2, D }, 2 },
	};
	for (int k = 0; k < N(cases); k++)
		darray_one(t, &cases[k]);
}

/* ------------------------------------------------------------ external32 */

/* The n bytes at got are the hex string want ("0000_0001...", '_'
 * ignored). */
static void same_bytes(emu_test *t, const unsigned char *got, const char *want,
		       const char *what)
{
	char hex[256];
	size_t k = 0, n = 0;
	for (const char *w = want; *w && k + 3 < sizeof hex; w++)
		if (*w != '_')
			hex[k++] = *w;
	hex[k] = '\0';
	char have[256];
	for (n = 0; n < k / 2; n++)
		snprintf(have + 2 * n, 3, "%02x", got[n]);
	have[2 * n] = '\0';
	EMU_TRUE(t, !strcmp(have, hex), "%s: external32 bytes %s, want %s",
		 what, have, hex);
}

struct rec {
	int a;
	double b;
	char c;
};

static void external32(emu_test *t)
{
	unsigned char buf[512];
	MPI_Aint pos = 0, size = -1;
	const int ints[4] = { 1, -2, 0x01020304, -2147483647 - 1 };
	const double dbl[2] = { 1.0, -2.5 };
	const float flt[1] = { 1.0f };
	const short sh[1] = { 0x1234 };
	memset(buf, 0xee, sizeof buf);

	MPI_Pack_external_size("external32", 4, MPI_INT, &size);
	EMU_EQ(t, size, 16, "external32 size of 4 MPI_INT");
	MPI_Pack_external_size("external32", 3, MPI_C_BOOL, &size);
	EMU_EQ(t, size, 3, "external32 size of 3 MPI_C_BOOL");
	MPI_Pack_external_size("external32", 1, MPI_DOUBLE_INT, &size);
	EMU_EQ(t, size, 12, "external32 size of MPI_DOUBLE_INT");

	MPI_Pack_external("external32", ints, 4, MPI_INT, buf, sizeof buf,
			  &pos);
	EMU_EQ(t, pos, 16, "position after 4 ints");
	MPI_Pack_external("external32", dbl, 2, MPI_DOUBLE, buf, sizeof buf,
			  &pos);
	MPI_Pack_external("external32", flt, 1, MPI_FLOAT, buf, sizeof buf,
			  &pos);
	MPI_Pack_external("external32", sh, 1, MPI_SHORT, buf, sizeof buf,
			  &pos);
	EMU_EQ(t, pos, 16 + 16 + 4 + 2, "position after the scalars");
	same_bytes(t, buf, "00000001_fffffffe_01020304_80000000", "ints");
	same_bytes(t, buf + 16, "3ff0000000000000_c004000000000000",
		   "doubles");
	same_bytes(t, buf + 32, "3f800000_1234", "float and short");
	EMU_EQ(t, buf[pos], 0xee, "the byte after the data");

	int ints2[4];
	double dbl2[2];
	float flt2[1];
	short sh2[1];
	MPI_Aint in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, ints2, 4, MPI_INT);
	MPI_Unpack_external("external32", buf, pos, &in, dbl2, 2, MPI_DOUBLE);
	MPI_Unpack_external("external32", buf, pos, &in, flt2, 1, MPI_FLOAT);
	MPI_Unpack_external("external32", buf, pos, &in, sh2, 1, MPI_SHORT);
	EMU_EQ(t, in, pos, "position after unpacking");
	EMU_TRUE(t, !memcmp(ints, ints2, sizeof ints) && dbl2[0] == 1.0 &&
		 dbl2[1] == -2.5 && flt2[0] == 1.0f && sh2[0] == 0x1234,
		 "scalars unpacked");

	/* A struct: 13 bytes, no padding. */
	struct rec r[2] = { { 7, 0.5, 'x' }, { -1, 3.0, 'y' } }, r2[2];
	MPI_Datatype st, vec;
	int bl[3] = { 1, 1, 1 };
	MPI_Aint di[3] = { offsetof(struct rec, a), offsetof(struct rec, b),
			   offsetof(struct rec, c) };
	MPI_Datatype ty[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, st0;
	MPI_Type_create_struct(3, bl, di, ty, &st0);
	MPI_Type_create_resized(st0, 0, sizeof(struct rec), &st);
	MPI_Type_free(&st0);
	MPI_Type_commit(&st);
	MPI_Pack_external_size("external32", 2, st, &size);
	EMU_EQ(t, size, 26, "external32 size of 2 structs");
	pos = 0;
	memset(buf, 0xee, sizeof buf);
	MPI_Pack_external("external32", r, 2, st, buf, sizeof buf, &pos);
	EMU_EQ(t, pos, 26, "position after 2 structs");
	same_bytes(t, buf, "00000007_3fe0000000000000_78_ffffffff_"
		   "4008000000000000_79", "structs");
	memset(r2, 0, sizeof r2);
	in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, r2, 2, st);
	EMU_TRUE(t, r2[0].a == 7 && r2[0].b == 0.5 && r2[0].c == 'x' &&
		 r2[1].a == -1 && r2[1].b == 3.0 && r2[1].c == 'y',
		 "structs unpacked");
	MPI_Type_free(&st);

	/* A vector of every other int. */
	int six[6] = { 10, 11, 12, 13, 14, 15 }, back[6] = { 0 };
	MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	pos = 0;
	MPI_Pack_external("external32", six, 1, vec, buf, sizeof buf, &pos);
	same_bytes(t, buf, "0000000a_0000000c_0000000e", "vector");
	in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, back, 1, vec);
	EMU_TRUE(t, back[0] == 10 && back[1] == 0 && back[2] == 12 &&
		 back[4] == 14 && back[5] == 0, "vector unpacked");
	MPI_Type_free(&vec);

	_Bool yes = 1, no = 0, b2[2] = { 0, 0 };
	pos = 0;
	MPI_Pack_external("external32", &yes, 1, MPI_C_BOOL, buf, sizeof buf,
			  &pos);
	MPI_Pack_external("external32", &no, 1, MPI_C_BOOL, buf, sizeof buf,
			  &pos);
	same_bytes(t, buf, "0100", "bools");
	in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, b2, 2, MPI_C_BOOL);
	EMU_TRUE(t, b2[0] && !b2[1], "bools unpacked");

#ifdef SIBYL_MPI
	/* What Open MPI 4.1 does otherwise: MPI_LONG in 8 bytes, not the
	 * standard's 4; long doubles not converted.  Sibyl's classes. */
	const long lng[2] = { -3, 70000 };
	long lng2[2];
	MPI_Pack_external_size("external32", 2, MPI_LONG, &size);
	EMU_EQ(t, size, 8, "external32 size of 2 MPI_LONG");
	pos = 0;
	MPI_Pack_external("external32", lng, 2, MPI_LONG, buf, sizeof buf,
			  &pos);
	same_bytes(t, buf, "fffffffd_00011170", "longs");
	in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, lng2, 2, MPI_LONG);
	EMU_TRUE(t, in == 8 && lng2[0] == -3 && lng2[1] == 70000,
		 "longs unpacked");

	long double ld[2] = { 1.0L, -3.25L }, ld2[2] = { 0, 0 };
	pos = 0;
	MPI_Pack_external("external32", ld, 2, MPI_LONG_DOUBLE, buf,
			  sizeof buf, &pos);
	EMU_EQ(t, pos, 32, "position after 2 long doubles");
	same_bytes(t, buf, "3fff0000000000000000000000000000_"
		   "c000a000000000000000000000000000", "long doubles");
	in = 0;
	MPI_Unpack_external("external32", buf, pos, &in, ld2, 2,
			    MPI_LONG_DOUBLE);
	EMU_TRUE(t, ld2[0] == 1.0L && ld2[1] == -3.25L, "long doubles "
		 "unpacked: %Lg %Lg", ld2[0], ld2[1]);

	int cls = 0;
	long big = 1L << 40;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	pos = 0;
	MPI_Error_class(MPI_Pack_external("external32", &big, 1, MPI_LONG,
					  buf, sizeof buf, &pos), &cls);
	EMU_EQ(t, cls, MPI_ERR_ARG, "a long of 41 bits in external32");
	MPI_Error_class(MPI_Pack_external_size("native", 1, MPI_INT, &size),
			&cls);
	EMU_EQ(t, cls, MPI_ERR_ARG, "datarep \"native\"");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

/* ----------------------------------------------------------------- kinds */

/* t has `size' bytes. */
static void has_size(emu_test *t, MPI_Datatype type, int size,
		     const char *what)
{
	int got = -1;
	MPI_Type_size(type, &got);
	EMU_EQ(t, got, size, "%s: size", what);
}

/* f90 type `type' has size `size' and the envelope of comb; its contents
 * are (p, r), or (r). */
static void f90_check(emu_test *t, MPI_Datatype type, int size, int comb,
		      int p, int r, const char *what)
{
	has_size(t, type, size, what);
	int ni, na, nd, c = -1;
	MPI_Type_get_envelope(type, &ni, &na, &nd, &c);
	if (!EMU_TRUE(t, c == comb && ni == (comb ==
		      MPI_COMBINER_F90_INTEGER ? 1 : 2) && na == 0 && nd == 0,
		      "%s: envelope (%d, %d, %d, %d)", what, ni, na, nd, c))
		return;
#ifdef SIBYL_MPI
	/* Open MPI 4.1's MPI_Type_get_contents faults on these. */
	int i[2] = { -1, -1 };
	MPI_Aint a[1];
	MPI_Datatype d[1];
	MPI_Type_get_contents(type, 2, 1, 1, i, a, d);
	if (comb == MPI_COMBINER_F90_INTEGER)
		EMU_EQ(t, i[0], r, "%s: contents", what);
	else
		EMU_TRUE(t, i[0] == p && i[1] == r, "%s: contents (%d, %d), "
			 "want (%d, %d)", what, i[0], i[1], p, r);
#else
	(void)p;
	(void)r;
#endif
}

static void kinds(emu_test *t)
{
	static const struct { int cls, size; } sizes[] = {
		{ MPI_TYPECLASS_INTEGER, 1 }, { MPI_TYPECLASS_INTEGER, 2 },
		{ MPI_TYPECLASS_INTEGER, 4 }, { MPI_TYPECLASS_INTEGER, 8 },
		{ MPI_TYPECLASS_REAL, 4 }, { MPI_TYPECLASS_REAL, 8 },
		{ MPI_TYPECLASS_COMPLEX, 8 }, { MPI_TYPECLASS_COMPLEX, 16 },
	};
	for (int k = 0; k < N(sizes); k++) {
		MPI_Datatype m = MPI_DATATYPE_NULL;
		char what[64];
		snprintf(what, sizeof what, "MPI_Type_match_size(%d, %d)",
			 sizes[k].cls, sizes[k].size);
		MPI_Type_match_size(sizes[k].cls, sizes[k].size, &m);
		has_size(t, m, sizes[k].size, what);
	}

	const int U = MPI_UNDEFINED, R = MPI_COMBINER_F90_REAL,
		C = MPI_COMBINER_F90_COMPLEX, I = MPI_COMBINER_F90_INTEGER;
	MPI_Datatype f, g;
	MPI_Type_create_f90_real(6, U, &f);
	f90_check(t, f, 4, R, 6, U, "f90_real(6, undefined)");
	MPI_Type_create_f90_real(15, 300, &f);
	f90_check(t, f, 8, R, 15, 300, "f90_real(15, 300)");
	MPI_Type_create_f90_real(15, 300, &g);
	EMU_TRUE(t, f == g, "f90_real(15, 300) twice: two handles");
	MPI_Type_create_f90_real(U, 100, &g);
	f90_check(t, g, 8, R, U, 100, "f90_real(undefined, 100)");
	MPI_Type_create_f90_complex(6, 30, &g);
	f90_check(t, g, 8, C, 6, 30, "f90_complex(6, 30)");
	MPI_Type_create_f90_complex(15, U, &g);
	f90_check(t, g, 16, C, 15, U, "f90_complex(15, undefined)");
	static const struct { int r, size; } ints[] = {
		{ 2, 1 }, { 4, 2 }, { 9, 4 }, { 18, 8 },
	};
	for (int k = 0; k < N(ints); k++) {
		char what[64];
		snprintf(what, sizeof what, "f90_integer(%d)", ints[k].r);
		MPI_Type_create_f90_integer(ints[k].r, &g);
		f90_check(t, g, ints[k].size, I, U, ints[k].r, what);
	}

	/* A message of two f90_real(15, 300) to this rank. */
	double out[2] = { 1.5, -7.25 }, in[2] = { 0, 0 };
	MPI_Sendrecv(out, 2, f, t->rank, 9, in, 2, f, t->rank, 9,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_TRUE(t, in[0] == 1.5 && in[1] == -7.25, "doubles sent as "
		 "f90_real(15, 300): %g %g", in[0], in[1]);

#ifdef SIBYL_MPI
	int cls = 0;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Error_class(MPI_Type_free(&f), &cls);
	EMU_EQ(t, cls, MPI_ERR_TYPE, "freeing an f90 type");
	MPI_Error_class(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &g),
			&cls);
	EMU_EQ(t, cls, MPI_ERR_ARG, "a real of 3 bytes");
	MPI_Error_class(MPI_Type_create_f90_integer(40, &g), &cls);
	EMU_EQ(t, cls, MPI_ERR_ARG, "f90_integer(40)");
	MPI_Error_class(MPI_Type_create_f90_real(U, U, &g), &cls);
	EMU_EQ(t, cls, MPI_ERR_ARG, "f90_real(undefined, undefined)");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

/* ------------------------------------------------------------ attributes */

/* What a rank's callbacks saw. */
typedef struct seen {
	int copies, deletes;
	MPI_Datatype copied_from, deleted_from;
	long copied_val, deleted_val;
	int fail_copy;          /* the copy callback returns MPI_ERR_OTHER */
} seen;

static int copy_cb(MPI_Datatype oldtype, int keyval, void *extra,
		   void *in, void *out, int *flag)
{
	seen *s = extra;
	(void)keyval;
	if (s->fail_copy)
		return MPI_ERR_OTHER;
	s->copies++;
	s->copied_from = oldtype;
	s->copied_val = (long)in;
	*(void **)out = (void *)((long)in + 1);
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_cb(MPI_Datatype type, int keyval, void *val, void *extra)
{
	seen *s = extra;
	(void)keyval;
	s->deletes++;
	s->deleted_from = type;
	s->deleted_val = (long)val;
	return MPI_SUCCESS;
}

/* The attribute of t under k: its value, or -1 when flag is 0. */
static long attr_of(MPI_Datatype t, int k)
{
	void *v = NULL;
	int flag = -1;
	MPI_Type_get_attr(t, k, &v, &flag);
	return flag ? (long)v : -1;
}

static void attributes(emu_test *t)
{
	seen s;
	memset(&s, 0, sizeof s);
	int k = MPI_KEYVAL_INVALID, knull, kdup, kunused;
	MPI_Datatype v, d, d2;
	MPI_Type_create_keyval(copy_cb, delete_cb, &k, &s);
	MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
			       &knull, NULL);
	MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN,
			       &kdup, NULL);
	MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN,
			       &kunused, NULL);
	EMU_TRUE(t, k != MPI_KEYVAL_INVALID, "MPI_Type_create_keyval made "
		 "no keyval");

	MPI_Type_vector(3, 2, 5, MPI_INT, &v);
	MPI_Type_set_attr(v, k, (void *)100L);
	MPI_Type_set_attr(v, knull, (void *)7L);
	MPI_Type_set_attr(v, kdup, (void *)8L);
	EMU_EQ(t, attr_of(v, k), 100, "the attribute set");
	EMU_EQ(t, attr_of(v, kunused), -1, "a keyval never set: flag");

	MPI_Type_dup(v, &d);
	EMU_EQ(t, s.copies, 1, "copy callbacks run by MPI_Type_dup");
	EMU_TRUE(t, s.copied_from == v && s.copied_val == 100,
		 "the copy callback got value %ld (want 100)%s", s.copied_val,
		 s.copied_from == v ? "" : " and another type");
	EMU_EQ(t, attr_of(d, k), 101, "the duplicate's attribute");
	EMU_EQ(t, attr_of(d, knull), -1, "MPI_TYPE_NULL_COPY_FN's, copied");
	EMU_EQ(t, attr_of(d, kdup), 8, "MPI_TYPE_DUP_FN's");
	EMU_EQ(t, attr_of(v, k), 100, "the original's, after the dup");

	/* Setting again deletes the old value. */
	MPI_Type_set_attr(v, k, (void *)200L);
	EMU_TRUE(t, s.deletes == 1 && s.deleted_from == v &&
		 s.deleted_val == 100, "replacing an attribute: %d deletes, "
		 "the last of %ld", s.deletes, s.deleted_val);
	MPI_Type_delete_attr(v, k);
	EMU_TRUE(t, s.deletes == 2 && s.deleted_val == 200,
		 "MPI_Type_delete_attr: %d deletes, the last of %ld",
		 s.deletes, s.deleted_val);
	EMU_EQ(t, attr_of(v, k), -1, "a deleted attribute: flag");

	/* Freeing the duplicate deletes its attribute. */
	MPI_Datatype dh = d;
	MPI_Type_free(&d);
	EMU_TRUE(t, s.deletes == 3 && s.deleted_from == dh &&
		 s.deleted_val == 101, "MPI_Type_free: %d deletes, the last "
		 "of %ld", s.deletes, s.deleted_val);

	/* A predefined type takes attributes. */
	MPI_Type_set_attr(MPI_INT, k, (void *)5L);
	EMU_EQ(t, attr_of(MPI_INT, k), 5, "an attribute of MPI_INT");
	MPI_Type_delete_attr(MPI_INT, k);
	EMU_TRUE(t, s.deletes == 4 && s.deleted_from == MPI_INT,
		 "deleting MPI_INT's attribute");

	/* A failing copy callback fails the dup with its code. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Type_set_attr(v, k, (void *)300L);
	s.fail_copy = 1;
	int rc = MPI_Type_dup(v, &d2);
	EMU_TRUE(t, rc != MPI_SUCCESS, "MPI_Type_dup with a failing copy "
		 "callback succeeded");
	s.fail_copy = 0;
#ifdef SIBYL_MPI
	/* Sibyl's classes (the standard leaves them open; Open MPI returns
	 * MPI_ERR_INTERN for the first and has MPI_ERR_KEYVAL for the
	 * others): the callback's code; a communicator's keyval on a
	 * datatype, a freed keyval. */
	int ccls = 0;
	MPI_Error_class(rc, &ccls);
	EMU_EQ(t, ccls, MPI_ERR_OTHER, "MPI_Type_dup with a failing copy "
	       "callback");
	int kc, kf;
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
			       MPI_COMM_NULL_DELETE_FN, &kc, NULL);
	MPI_Error_class(MPI_Type_set_attr(v, kc, NULL), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a communicator's keyval on a type");
	MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, knull, NULL), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a datatype's keyval on a communicator");
	MPI_Comm_free_keyval(&kc);
	kf = kunused;
	MPI_Type_free_keyval(&kf);
	MPI_Error_class(MPI_Type_get_attr(v, kunused, &s, &rc), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a freed keyval");
	kunused = MPI_KEYVAL_INVALID;
#endif
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

	int copies = s.copies, deletes = s.deletes;
	MPI_Type_free(&v);
	EMU_EQ(t, s.deletes - deletes, 1, "MPI_Type_free's delete callbacks");
	EMU_EQ(t, s.copies, copies, "copies after the failed dup");
	MPI_Type_free_keyval(&k);
	EMU_EQ(t, k, MPI_KEYVAL_INVALID, "the keyval after "
	       "MPI_Type_free_keyval");
	MPI_Type_free_keyval(&knull);
	MPI_Type_free_keyval(&kdup);
	if (kunused != MPI_KEYVAL_INVALID)
		MPI_Type_free_keyval(&kunused);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_envelope", &argc, &argv);
	decoding(&t);
	darrays(&t);
	external32(&t);
	kinds(&t);
	attributes(&t);
	return emu_finish(&t);
}
