/*
 * coll_ops.c -- the reduction operations: every predefined operation on
 * every basic type it takes (MPI-3.1 §5.9.2; MPI_CHAR and MPI_BYTE as
 * integers and logical operations on MPI_AINT/OFFSET/COUNT, as Open MPI
 * allows), MINLOC/MAXLOC on the pair types with ties going to the lower
 * index, checked through MPI_Allreduce and MPI_Reduce_local against a
 * sequential fold in rank order; values are small so every result is
 * exact.  A non-commutative user operation (products of 2x2 matrices, one
 * matrix per element of a contiguous datatype) through MPI_Reduce (every
 * root), MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Reduce_scatter(_block)
 * and their non-blocking forms must give the product in rank order; a
 * commutative user operation with MPI_Op_commutative, MPI_Op_free.
 *
 * Any rank count (products stay exact up to 12 ranks and beyond: only
 * ranks 0..5 contribute factors other than 1).
 */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "emutest.h"

#define N 37                    /* elements per reduction */

typedef struct ctx {
	emu_test *t;
	int rank, size;
} ctx;

/* -------------------------------------------------- predefined ops */

#define NOPS 10
static const MPI_Op int_ops[NOPS] = {
	MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_LOR, MPI_LXOR,
	MPI_BAND, MPI_BOR, MPI_BXOR
};
static const char *const int_op_names[NOPS] = {
	"MAX", "MIN", "SUM", "PROD", "LAND", "LOR", "LXOR", "BAND", "BOR",
	"BXOR"
};

/* Rank r's element i for operation k (an index into int_ops). */
static long long int_val(int k, int r, int i)
{
	switch (k) {
	case 0:
	case 1:
		return (r * 7 + i * 3) % 11 - 5;
	case 2:
		return (r + i) % 5 + 1;
	case 3:
		return r < 6 && (i + r) % 2 ? 2 : 1;
	case 4:
	case 5:
	case 6:
		return i % 4 == 0 ? 2 : (r + i) % 3 == 0 ? 0 : 1;
	default:
		return ((r * 37 + i) & 0x3f) | 0x10;
	}
}

/* The fold, in rank order, for operation k on C type T; the result is
 * compared through long long. */
#define DEF_INT(T, NAME, NEG)                                              \
	static T NAME##_fold(int k, T a, T b)                              \
	{                                                                  \
		switch (k) {                                               \
		case 0: return a > b ? a : b;                              \
		case 1: return a < b ? a : b;                              \
		case 2: return (T)(a + b);                                 \
		case 3: return (T)(a * b);                                 \
		case 4: return (T)(a && b);                                \
		case 5: return (T)(a || b);                                \
		case 6: return (T)(!a != !b);                              \
		case 7: return (T)(a & b);                                 \
		case 8: return (T)(a | b);                                 \
		default: return (T)(a ^ b);                                \
		}                                                          \
	}                                                                  \
	DEF_TEST(T, NAME, NEG)

/* Floating point: MAX, MIN, SUM, PROD (int_ops 0..3) on whole numbers. */
#define DEF_FLOAT(T, NAME)                                                 \
	static T NAME##_fold(int k, T a, T b)                              \
	{                                                                  \
		switch (k) {                                               \
		case 0: return a > b ? a : b;                              \
		case 1: return a < b ? a : b;                              \
		case 2: return a + b;                                      \
		default: return a * b;                                     \
		}                                                          \
	}                                                                  \
	DEF_TEST(T, NAME, 1)

/* MAX/MIN values below zero only for the signed C types (Open MPI 4.1,
 * the reference, compares MPI_UNSIGNED_LONG as signed and MPI_OFFSET as
 * unsigned). */
#define DEF_TEST(T, NAME, NEG)                                             \
	static T NAME##_v(int k, int r, int i)                             \
	{                                                                  \
		long long v = int_val(k, r, i);                            \
		return (T)(k < 2 && !NEG ? v + 5 : v);                     \
	}                                                                  \
	static void NAME##_test(ctx *x, MPI_Datatype mt, const char *tn,   \
				int first, int last)                       \
	{                                                                  \
		T in[N], out[N], ref[N], loc[N];                           \
		for (int k = first; k <= last; k++) {                      \
			for (int i = 0; i < N; i++) {                      \
				in[i] = NAME##_v(k, x->rank, i);         \
				ref[i] = NAME##_v(k, 0, i);              \
				for (int q = 1; q < x->size; q++)          \
					ref[i] = NAME##_fold(k, ref[i],    \
						NAME##_v(k, q, i));      \
				out[i] = 0;                                \
			}                                                  \
			MPI_Allreduce(in, out, N, mt, int_ops[k],          \
				      MPI_COMM_WORLD);                     \
			for (int i = 0; i < N; i++)                        \
				if (!EMU_EQ(x->t, (long long)out[i],       \
					    (long long)ref[i], "%s %s "    \
					    "[%d]", int_op_names[k], tn,   \
					    i))                            \
					break;                             \
			/* Reduce_local: inout = in op inout. */           \
			for (int i = 0; i < N; i++) {                      \
				loc[i] = NAME##_v(k, 1, i);              \
				in[i] = NAME##_v(k, 0, i);               \
			}                                                  \
			MPI_Reduce_local(in, loc, N, mt, int_ops[k]);      \
			for (int i = 0; i < N; i++)                        \
				if (!EMU_EQ(x->t, (long long)loc[i],       \
					    (long long)NAME##_fold(k,      \
						NAME##_v(k, 0, i),       \
						NAME##_v(k, 1, i)),      \
					    "Reduce_local %s %s [%d]",     \
					    int_op_names[k], tn, i))       \
					break;                             \
		}                                                          \
	}

DEF_INT(signed char, schar, 1)
DEF_INT(unsigned char, uchar, 0)
DEF_INT(char, char, 0)
DEF_INT(short, short, 1)
DEF_INT(unsigned short, ushort, 0)
DEF_INT(int, int, 1)
DEF_INT(unsigned, uint, 0)
DEF_INT(long, long, 1)
DEF_INT(unsigned long, ulong, 0)
DEF_INT(long long, llong, 1)
DEF_INT(unsigned long long, ullong, 0)
DEF_INT(int8_t, i8, 1)
DEF_INT(int16_t, i16, 1)
DEF_INT(int32_t, i32, 1)
DEF_INT(int64_t, i64, 1)
DEF_INT(uint8_t, u8, 0)
DEF_INT(uint16_t, u16, 0)
DEF_INT(uint32_t, u32, 0)
DEF_INT(uint64_t, u64, 0)
DEF_INT(MPI_Aint, aint, 0)
DEF_INT(MPI_Offset, offset, 0)
DEF_INT(MPI_Count, count, 0)
/* MPI_C_BOOL: the logical operations (int_ops 4..6). */
static bool cbool_fold(int k, bool a, bool b)
{
	return k == 4 ? a && b : k == 5 ? a || b : a != b;
}
DEF_TEST(bool, cbool, 0)

DEF_FLOAT(float, flt)
DEF_FLOAT(double, dbl)
DEF_FLOAT(long double, ldbl)

static void integers(ctx *x)
{
	schar_test(x, MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 0, 9);
	uchar_test(x, MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 0, 9);
	char_test(x, MPI_CHAR, "MPI_CHAR", 0, 9);
	uchar_test(x, MPI_BYTE, "MPI_BYTE", 0, 9);
	short_test(x, MPI_SHORT, "MPI_SHORT", 0, 9);
	ushort_test(x, MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 0, 9);
	int_test(x, MPI_INT, "MPI_INT", 0, 9);
	uint_test(x, MPI_UNSIGNED, "MPI_UNSIGNED", 0, 9);
	long_test(x, MPI_LONG, "MPI_LONG", 0, 9);
	ulong_test(x, MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 0, 9);
	llong_test(x, MPI_LONG_LONG, "MPI_LONG_LONG", 0, 9);
	ullong_test(x, MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", 0,
		    9);
	i8_test(x, MPI_INT8_T, "MPI_INT8_T", 0, 9);
	i16_test(x, MPI_INT16_T, "MPI_INT16_T", 0, 9);
	i32_test(x, MPI_INT32_T, "MPI_INT32_T", 0, 9);
	i64_test(x, MPI_INT64_T, "MPI_INT64_T", 0, 9);
	u8_test(x, MPI_UINT8_T, "MPI_UINT8_T", 0, 9);
	u16_test(x, MPI_UINT16_T, "MPI_UINT16_T", 0, 9);
	u32_test(x, MPI_UINT32_T, "MPI_UINT32_T", 0, 9);
	u64_test(x, MPI_UINT64_T, "MPI_UINT64_T", 0, 9);
	aint_test(x, MPI_AINT, "MPI_AINT", 0, 9);
	offset_test(x, MPI_OFFSET, "MPI_OFFSET", 0, 9);
	count_test(x, MPI_COUNT, "MPI_COUNT", 0, 9);
	cbool_test(x, MPI_C_BOOL, "MPI_C_BOOL", 4, 6);
	flt_test(x, MPI_FLOAT, "MPI_FLOAT", 0, 3);
	dbl_test(x, MPI_DOUBLE, "MPI_DOUBLE", 0, 3);
	ldbl_test(x, MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", 0, 3);
}

/* Complex SUM and PROD: exact with Gaussian integers. */
#define DEF_CPLX(T, NAME, MT)                                              \
	static void NAME(ctx *x)                                           \
	{                                                                  \
		T in[N], out[N], ref[N];                                   \
		for (int k = 0; k < 2; k++) {                              \
			for (int i = 0; i < N; i++) {                      \
				for (int q = 0; q < x->size; q++) {        \
					T v = k ? (q < 3 && i % 2 ?        \
						   1 + 1 * I : 1) :        \
						(q + 1) + (i % 3) * I;     \
					if (q == x->rank)                  \
						in[i] = v;                 \
					ref[i] = q ? (k ? ref[i] * v :     \
						      ref[i] + v) : v;     \
				}                                          \
				out[i] = 0;                                \
			}                                                  \
			MPI_Allreduce(in, out, N, MT, k ? MPI_PROD :       \
				      MPI_SUM, MPI_COMM_WORLD);            \
			for (int i = 0; i < N; i++)                        \
				if (!EMU_TRUE(x->t, creal(out[i]) ==       \
					      creal(ref[i]) &&             \
					      cimag(out[i]) ==             \
					      cimag(ref[i]), "%s %s [%d]: "\
					      "got %g%+gi, want %g%+gi",   \
					      k ? "PROD" : "SUM", #MT, i,  \
					      (double)creal(out[i]),       \
					      (double)cimag(out[i]),       \
					      (double)creal(ref[i]),       \
					      (double)cimag(ref[i])))      \
					break;                             \
		}                                                          \
	}

DEF_CPLX(float _Complex, cfloat, MPI_C_FLOAT_COMPLEX)
DEF_CPLX(double _Complex, cdouble, MPI_C_DOUBLE_COMPLEX)

/* MINLOC and MAXLOC: values with ties, distinct indices. */
#define DEF_LOC(V, NAME, MT)                                               \
	static void NAME(ctx *x)                                           \
	{                                                                  \
		struct { V v; int i; } in[N], out[N], ref[N];              \
		for (int k = 0; k < 2; k++) {                              \
			for (int e = 0; e < N; e++) {                      \
				for (int q = 0; q < x->size; q++) {        \
					V v = (V)((q * 5 + e) % 4 - 1);    \
					int ix = q * 3 + 1;                \
					if (q == x->rank) {                \
						in[e].v = v;               \
						in[e].i = ix;              \
					}                                  \
					if (q == 0 || (k ? v > ref[e].v :  \
						       v < ref[e].v)) {    \
						ref[e].v = v;              \
						ref[e].i = ix;             \
					}                                  \
				}                                          \
				out[e].v = 0;                              \
				out[e].i = -1;                             \
			}                                                  \
			MPI_Allreduce(in, out, N, MT, k ? MPI_MAXLOC :     \
				      MPI_MINLOC, MPI_COMM_WORLD);         \
			for (int e = 0; e < N; e++)                        \
				if (!EMU_EQ(x->t, (long long)out[e].v,     \
					    (long long)ref[e].v, "%s %s "  \
					    "value [%d]", k ? "MAXLOC" :   \
					    "MINLOC", #MT, e) ||           \
				    !EMU_EQ(x->t, out[e].i, ref[e].i,      \
					    "%s %s index [%d]", k ?        \
					    "MAXLOC" : "MINLOC", #MT, e))  \
					break;                             \
		}                                                          \
	}

DEF_LOC(float, loc_float, MPI_FLOAT_INT)
DEF_LOC(double, loc_double, MPI_DOUBLE_INT)
DEF_LOC(long, loc_long, MPI_LONG_INT)
DEF_LOC(int, loc_int, MPI_2INT)
DEF_LOC(short, loc_short, MPI_SHORT_INT)
DEF_LOC(long double, loc_ldouble, MPI_LONG_DOUBLE_INT)

/* ----------------------------------------------------- user operations */

/* One 2x2 matrix of unsigned ints (arithmetic mod 2^32: exact). */
typedef struct mat {
	unsigned a, b, c, d;
} mat;

static mat mat_mul(mat x, mat y)
{
	mat z = { x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,
		  x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d };
	return z;
}

/* Rank r's matrix at element e: [[r+e+2, 1], [1, 0]] -- no two
 * commute. */
static mat mat_of(int r, int e)
{
	mat m = { (unsigned)(r + e + 2), 1, 1, 0 };
	return m;
}

/* inout = in * inout: MPI's order (in is the lower ranks' part). */
static void mat_op(void *in, void *inout, int *len, MPI_Datatype *t)
{
	mat *a = in, *b = inout;
	(void)t;
	for (int i = 0; i < *len; i++)
		b[i] = mat_mul(a[i], b[i]);
}

/* The product of the matrices of ranks lo..hi-1 at element e. */
static mat mat_range(int lo, int hi, int e)
{
	mat p = { 1, 0, 0, 1 };
	for (int q = lo; q < hi; q++)
		p = mat_mul(p, mat_of(q, e));
	return p;
}

static int mat_check(ctx *x, const mat *got, mat want, const char *what,
		     int e)
{
	return EMU_TRUE(x->t, got->a == want.a && got->b == want.b &&
			got->c == want.c && got->d == want.d, "%s element %d: "
			"got [%u %u; %u %u], want [%u %u; %u %u]", what, e,
			got->a, got->b, got->c, got->d, want.a, want.b, want.c,
			want.d);
}

#define NM 5                    /* matrices per rank */

static void noncommutative(ctx *x)
{
	int P = x->size, me = x->rank, flag = -1;
	MPI_Datatype mt;
	MPI_Op op;
	MPI_Type_contiguous(4, MPI_UNSIGNED, &mt);
	MPI_Type_commit(&mt);
	MPI_Op_create(mat_op, 0, &op);
	MPI_Op_commutative(op, &flag);
	EMU_EQ(x->t, flag, 0, "MPI_Op_commutative of a non-commutative op");

	mat *in = emu_alloc(x->t, (size_t)NM * P, sizeof *in);
	mat *out = emu_alloc(x->t, (size_t)NM * P, sizeof *out);
	for (int e = 0; e < NM * P; e++)
		in[e] = mat_of(me, e);

	for (int root = 0; root < P; root++) {
		memset(out, 0, (size_t)NM * sizeof *out);
		MPI_Reduce(in, out, NM, mt, op, root, MPI_COMM_WORLD);
		for (int e = 0; e < NM && me == root; e++)
			if (!mat_check(x, &out[e], mat_range(0, P, e),
				       "Reduce", e))
				break;
	}
	for (int nb = 0; nb < 2; nb++) {
		MPI_Request rq;
		memset(out, 0, (size_t)NM * sizeof *out);
		if (nb) {
			MPI_Iallreduce(in, out, NM, mt, op, MPI_COMM_WORLD,
				       &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Allreduce(in, out, NM, mt, op, MPI_COMM_WORLD);
		}
		for (int e = 0; e < NM; e++)
			if (!mat_check(x, &out[e], mat_range(0, P, e),
				       nb ? "Iallreduce" : "Allreduce", e))
				break;
		memset(out, 0, (size_t)NM * sizeof *out);
		if (nb) {
			MPI_Iscan(in, out, NM, mt, op, MPI_COMM_WORLD, &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Scan(in, out, NM, mt, op, MPI_COMM_WORLD);
		}
		for (int e = 0; e < NM; e++)
			if (!mat_check(x, &out[e], mat_range(0, me + 1, e),
				       nb ? "Iscan" : "Scan", e))
				break;
		memset(out, 0, (size_t)NM * sizeof *out);
		if (nb) {
			MPI_Iexscan(in, out, NM, mt, op, MPI_COMM_WORLD, &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Exscan(in, out, NM, mt, op, MPI_COMM_WORLD);
		}
		for (int e = 0; e < NM && me > 0; e++)
			if (!mat_check(x, &out[e], mat_range(0, me, e),
				       nb ? "Iexscan" : "Exscan", e))
				break;
		/* Reduce_scatter_block: NM matrices per rank. */
		memset(out, 0, (size_t)NM * sizeof *out);
		if (nb) {
			MPI_Ireduce_scatter_block(in, out, NM, mt, op,
						  MPI_COMM_WORLD, &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Reduce_scatter_block(in, out, NM, mt, op,
						 MPI_COMM_WORLD);
		}
		for (int e = 0; e < NM; e++)
			if (!mat_check(x, &out[e], mat_range(0, P, me * NM + e),
				       "Reduce_scatter_block", me * NM + e))
				break;
	}
	/* Reduce_scatter: rank j gets j % 3 matrices. */
	int *cnt = emu_alloc(x->t, (size_t)P, sizeof *cnt), at = 0;
	for (int j = 0; j < P; j++) {
		cnt[j] = j % 3;
		if (j < me)
			at += cnt[j];
	}
	memset(out, 0, (size_t)NM * sizeof *out);
	MPI_Reduce_scatter(in, out, cnt, mt, op, MPI_COMM_WORLD);
	for (int e = 0; e < cnt[me]; e++)
		if (!mat_check(x, &out[e], mat_range(0, P, at + e),
			       "Reduce_scatter", at + e))
			break;
	/* Reduce_local: inout = in * inout. */
	mat l = mat_of(7, 0), m = mat_of(3, 0);
	MPI_Reduce_local(&l, &m, 1, mt, op);
	mat_check(x, &m, mat_mul(mat_of(7, 0), mat_of(3, 0)), "Reduce_local",
		  0);

	MPI_Op_free(&op);
	EMU_EQ(x->t, op, MPI_OP_NULL, "MPI_Op_free sets MPI_OP_NULL");
	MPI_Type_free(&mt);
	free(cnt);
	free(in);
	free(out);
}

/* A commutative user operation: sum modulo 1000 of ints. */
static void mod_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
	int *a = in, *b = inout;
	(void)t;
	for (int i = 0; i < *len; i++)
		b[i] = (a[i] + b[i]) % 1000;
}

static void commutative(ctx *x)
{
	int P = x->size, flag = -1;
	enum { M = 3000 };
	MPI_Op op;
	MPI_Op_create(mod_sum, 1, &op);
	MPI_Op_commutative(op, &flag);
	EMU_EQ(x->t, flag, 1, "MPI_Op_commutative of a commutative op");
	MPI_Op_commutative(MPI_SUM, &flag);
	EMU_EQ(x->t, flag, 1, "MPI_Op_commutative(MPI_SUM)");
	int *in = emu_alloc(x->t, M, sizeof(int));
	int *out = emu_alloc(x->t, M, sizeof(int));
	for (int i = 0; i < M; i++)
		in[i] = (x->rank * 311 + i * 7) % 1000;
	MPI_Allreduce(in, out, M, MPI_INT, op, MPI_COMM_WORLD);
	for (int i = 0; i < M; i++) {
		int want = 0;
		for (int q = 0; q < P; q++)
			want = (want + (q * 311 + i * 7) % 1000) % 1000;
		if (!EMU_EQ(x->t, out[i], want, "commutative user op [%d]", i))
			break;
	}
	MPI_Op_free(&op);
	free(in);
	free(out);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_ops", &argc, &argv);
	ctx x = { &t, t.rank, t.size };
	integers(&x);
	cfloat(&x);
	cdouble(&x);
	loc_float(&x);
	loc_double(&x);
	loc_long(&x);
	loc_int(&x);
	loc_short(&x);
	loc_ldouble(&x);
	noncommutative(&x);
	commutative(&x);
	return emu_finish(&t);
}
