/*
 * op.c -- reduction operations of virtual ranks (emu_coll.h): the
 * predefined operations on the basic types MPI defines them for, and user
 * operations (MPI_Op_create).
 *
 * A predefined operation is a table of loops, one per basic type it
 * accepts (MPI-3.1 §5.9.2: C integer, floating point, logical, complex,
 * byte and multi-language types, pairs for MINLOC/MAXLOC; and, as Open
 * MPI, MPI_CHAR and MPI_BYTE as integers); an empty entry means the
 * combination is not allowed (MPI_ERR_OP).  MPI_REPLACE and MPI_NO_OP
 * take any type; MPI-3.1 has them for one-sided accumulates only, and
 * the collectives refuse them as Open MPI does.
 *
 * User operations live in one table per process.  Every rank of a process
 * that creates an operation from the same function with the same
 * commutativity gets the same handle (a reference is counted per
 * MPI_Op_create), so 256K ranks creating "the same" operation cost one
 * entry, not 256K.  Operations never travel between processes: a handle
 * only has to mean the same thing to the ranks of one process.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"
#include "coll_sched.h"

typedef void op_fn(const void *in, void *inout, int n);

/* ------------------------------------------------- predefined loops */

/* The types of MPI-3.1's groups, with their C types. */
#define C_INTEGER(X)                                                     \
	X(MPI_SIGNED_CHAR, signed char)                                  \
	X(MPI_UNSIGNED_CHAR, unsigned char)                              \
	X(MPI_SHORT, short)                                              \
	X(MPI_UNSIGNED_SHORT, unsigned short)                            \
	X(MPI_INT, int)                                                  \
	X(MPI_UNSIGNED, unsigned)                                        \
	X(MPI_LONG, long)                                                \
	X(MPI_UNSIGNED_LONG, unsigned long)                              \
	X(MPI_LONG_LONG_INT, long long)                                  \
	X(MPI_UNSIGNED_LONG_LONG, unsigned long long)                    \
	X(MPI_INT8_T, int8_t)                                            \
	X(MPI_INT16_T, int16_t)                                          \
	X(MPI_INT32_T, int32_t)                                          \
	X(MPI_INT64_T, int64_t)                                          \
	X(MPI_UINT8_T, uint8_t)                                          \
	X(MPI_UINT16_T, uint16_t)                                        \
	X(MPI_UINT32_T, uint32_t)                                        \
	X(MPI_UINT64_T, uint64_t)
#define MULTI_LANGUAGE(X)                                                \
	X(MPI_AINT, MPI_Aint)                                            \
	X(MPI_OFFSET, MPI_Offset)                                        \
	X(MPI_COUNT, MPI_Count)
#define FLOATING(X)                                                      \
	X(MPI_FLOAT, float)                                              \
	X(MPI_DOUBLE, double)                                            \
	X(MPI_LONG_DOUBLE, long double)
#define LOGICAL(X) X(MPI_C_BOOL, bool)
#define COMPLEX(X)                                                       \
	X(MPI_C_FLOAT_COMPLEX, float _Complex)                           \
	X(MPI_C_DOUBLE_COMPLEX, double _Complex)
/* MPI allows MPI_BYTE with the bitwise operations only and MPI_CHAR with
 * none; Open MPI takes both as integers everywhere, and so do we, so that
 * programs that run there run here. */
#define LENIENT(X)                                                       \
	X(MPI_CHAR, char)                                                \
	X(MPI_BYTE, unsigned char)

/* The function of operation op on type T: op_<value of T>, expanding T
 * first so that definitions and table entries agree. */
#define NAME(op, T) NAME_(op, T)
#define NAME_(op, T) op##_##T

/* One loop: inout[i] = in[i] OP inout[i]. */
#define LOOP(name, T, T_, expr)                                          \
	static void NAME(name, T)(const void *in_, void *io_, int n)     \
	{                                                                \
		const T_ *in = in_;                                      \
		T_ *io = io_;                                            \
		for (int i = 0; i < n; i++) {                            \
			T_ a = in[i], b = io[i];                         \
			io[i] = (expr);                                  \
		}                                                        \
	}

#define MAX_LOOP(T, T_) LOOP(max, T, T_, a > b ? a : b)
#define MIN_LOOP(T, T_) LOOP(min, T, T_, a < b ? a : b)
#define SUM_LOOP(T, T_) LOOP(sum, T, T_, a + b)
#define PROD_LOOP(T, T_) LOOP(prod, T, T_, a * b)
#define LAND_LOOP(T, T_) LOOP(land, T, T_, (T_)((a != 0) && (b != 0)))
#define LOR_LOOP(T, T_) LOOP(lor, T, T_, (T_)((a != 0) || (b != 0)))
#define LXOR_LOOP(T, T_) LOOP(lxor, T, T_, (T_)((a != 0) != (b != 0)))
#define BAND_LOOP(T, T_) LOOP(band, T, T_, (T_)(a & b))
#define BOR_LOOP(T, T_) LOOP(bor, T, T_, (T_)(a | b))
#define BXOR_LOOP(T, T_) LOOP(bxor, T, T_, (T_)(a ^ b))

/* The integers of every group (see LENIENT). */
#define INTEGERS(X) C_INTEGER(X) MULTI_LANGUAGE(X) LENIENT(X)

INTEGERS(MAX_LOOP) FLOATING(MAX_LOOP)
INTEGERS(MIN_LOOP) FLOATING(MIN_LOOP)
INTEGERS(SUM_LOOP) FLOATING(SUM_LOOP) COMPLEX(SUM_LOOP)
INTEGERS(PROD_LOOP) FLOATING(PROD_LOOP) COMPLEX(PROD_LOOP)
INTEGERS(LAND_LOOP) LOGICAL(LAND_LOOP)
INTEGERS(LOR_LOOP) LOGICAL(LOR_LOOP)
INTEGERS(LXOR_LOOP) LOGICAL(LXOR_LOOP)
INTEGERS(BAND_LOOP)
INTEGERS(BOR_LOOP)
INTEGERS(BXOR_LOOP)

/* MINLOC and MAXLOC on (value, index) pairs: the extreme value, and on a
 * tie the lower index (MPI-3.1 §5.9.4). */
#define LOC_LOOPS(T, V)                                                  \
	typedef struct { V v; int i; } NAME(pair, T);                    \
	static void NAME(minloc, T)(const void *in_, void *io_, int n)   \
	{                                                                \
		const NAME(pair, T) *in = in_;                           \
		NAME(pair, T) *io = io_;                                 \
		for (int k = 0; k < n; k++)                              \
			if (in[k].v < io[k].v)                           \
				io[k] = in[k];                           \
			else if (!(io[k].v < in[k].v) &&                 \
				 in[k].i < io[k].i)                      \
				io[k].i = in[k].i;                       \
	}                                                                \
	static void NAME(maxloc, T)(const void *in_, void *io_, int n)   \
	{                                                                \
		const NAME(pair, T) *in = in_;                           \
		NAME(pair, T) *io = io_;                                 \
		for (int k = 0; k < n; k++)                              \
			if (in[k].v > io[k].v)                           \
				io[k] = in[k];                           \
			else if (!(io[k].v > in[k].v) &&                 \
				 in[k].i < io[k].i)                      \
				io[k].i = in[k].i;                       \
	}
#define PAIRS(X)                                                         \
	X(MPI_FLOAT_INT, float)                                          \
	X(MPI_DOUBLE_INT, double)                                        \
	X(MPI_LONG_INT, long)                                            \
	X(MPI_2INT, int)                                                 \
	X(MPI_SHORT_INT, short)                                          \
	X(MPI_LONG_DOUBLE_INT, long double)
PAIRS(LOC_LOOPS)

/* The table: fns[op][type], NULL where MPI does not define op on type. */
#define ENTRY(op, T) [T] = NAME(op, T),
#define MAX_E(T, T_) ENTRY(max, T)
#define MIN_E(T, T_) ENTRY(min, T)
#define SUM_E(T, T_) ENTRY(sum, T)
#define PROD_E(T, T_) ENTRY(prod, T)
#define LAND_E(T, T_) ENTRY(land, T)
#define LOR_E(T, T_) ENTRY(lor, T)
#define LXOR_E(T, T_) ENTRY(lxor, T)
#define BAND_E(T, T_) ENTRY(band, T)
#define BOR_E(T, T_) ENTRY(bor, T)
#define BXOR_E(T, T_) ENTRY(bxor, T)
#define MINLOC_E(T, V) ENTRY(minloc, T)
#define MAXLOC_E(T, V) ENTRY(maxloc, T)

static op_fn *const fns[MPI_NO_OP + 1][SIBYL_MPI_NBASIC_TYPES] = {
	[MPI_MAX] = { INTEGERS(MAX_E) FLOATING(MAX_E) },
	[MPI_MIN] = { INTEGERS(MIN_E) FLOATING(MIN_E) },
	[MPI_SUM] = { INTEGERS(SUM_E) FLOATING(SUM_E) COMPLEX(SUM_E) },
	[MPI_PROD] = { INTEGERS(PROD_E) FLOATING(PROD_E) COMPLEX(PROD_E) },
	[MPI_LAND] = { INTEGERS(LAND_E) LOGICAL(LAND_E) },
	[MPI_LOR] = { INTEGERS(LOR_E) LOGICAL(LOR_E) },
	[MPI_LXOR] = { INTEGERS(LXOR_E) LOGICAL(LXOR_E) },
	[MPI_BAND] = { INTEGERS(BAND_E) },
	[MPI_BOR] = { INTEGERS(BOR_E) },
	[MPI_BXOR] = { INTEGERS(BXOR_E) },
	[MPI_MINLOC] = { PAIRS(MINLOC_E) },
	[MPI_MAXLOC] = { PAIRS(MAXLOC_E) },
};

static const char *const op_names[MPI_NO_OP + 1] = {
	[MPI_OP_NULL] = "MPI_OP_NULL", [MPI_MAX] = "MPI_MAX",
	[MPI_MIN] = "MPI_MIN", [MPI_SUM] = "MPI_SUM", [MPI_PROD] = "MPI_PROD",
	[MPI_LAND] = "MPI_LAND", [MPI_BAND] = "MPI_BAND",
	[MPI_LOR] = "MPI_LOR", [MPI_BOR] = "MPI_BOR", [MPI_LXOR] = "MPI_LXOR",
	[MPI_BXOR] = "MPI_BXOR", [MPI_MINLOC] = "MPI_MINLOC",
	[MPI_MAXLOC] = "MPI_MAXLOC", [MPI_REPLACE] = "MPI_REPLACE",
	[MPI_NO_OP] = "MPI_NO_OP",
};

/* What each predefined operation accepts, for error messages. */
static const char *const op_accepts[MPI_NO_OP + 1] = {
	[MPI_MAX] = "integer and floating-point types",
	[MPI_MIN] = "integer and floating-point types",
	[MPI_SUM] = "integer, floating-point and complex types",
	[MPI_PROD] = "integer, floating-point and complex types",
	[MPI_LAND] = "integer types and MPI_C_BOOL",
	[MPI_LOR] = "integer types and MPI_C_BOOL",
	[MPI_LXOR] = "integer types and MPI_C_BOOL",
	[MPI_BAND] = "integer types and MPI_BYTE",
	[MPI_BOR] = "integer types and MPI_BYTE",
	[MPI_BXOR] = "integer types and MPI_BYTE",
	[MPI_MINLOC] = "the pair types (MPI_2INT, MPI_DOUBLE_INT, ...)",
	[MPI_MAXLOC] = "the pair types (MPI_2INT, MPI_DOUBLE_INT, ...)",
};

/* ---------------------------------------------------- user operations */

typedef struct user_op {
	MPI_User_function *fn;   /* NULL: the slot is free */
	int commute;
	uint32_t refs;           /* MPI_Op_create calls not freed yet */
} user_op;

/* The process's user operations are emu.op.uops. */

static user_op *user_op_get(MPI_Op op)
{
	uint32_t i = (uint32_t)op - SIBYL_MPI_FIRST_USER_OP;
	if (op < SIBYL_MPI_FIRST_USER_OP || i >= emu.op.nuops ||
	    !emu.op.uops[i].fn)
		return NULL;
	return &emu.op.uops[i];
}

static int predefined(MPI_Op op)
{
	return op >= MPI_MAX && op <= MPI_NO_OP;
}

int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
	EMU_API(r, "MPI_Op_create");
	if (!user_fn || !op)
		emu_mpi_error(r, "MPI_Op_create", MPI_ERR_ARG, "NULL %s",
			      !user_fn ? "function" : "op pointer");
	int comm = commute != 0;
	uint32_t free_slot = emu.op.nuops;
	for (uint32_t i = 0; i < emu.op.nuops; i++) {
		if (emu.op.uops[i].fn == user_fn &&
		    emu.op.uops[i].commute == comm) {
			emu.op.uops[i].refs++;
			*op = (MPI_Op)(SIBYL_MPI_FIRST_USER_OP + i);
			return MPI_SUCCESS;
		}
		if (!emu.op.uops[i].fn && free_slot == emu.op.nuops)
			free_slot = i;
	}
	if (free_slot == emu.op.nuops) {
		if (emu.op.nuops == emu.op.cuops) {
			uint32_t c = emu.op.cuops ? 2 * emu.op.cuops : 16;
			user_op *p = realloc(emu.op.uops, c * sizeof *p);
			if (!p)
				emu_mpi_error(r, "MPI_Op_create",
					      MPI_ERR_NO_MEM, "out of memory "
					      "for %u operations", c);
			emu.op.uops = p;
			emu.op.cuops = c;
		}
		emu.op.nuops++;
	}
	emu.op.uops[free_slot] = (user_op){ user_fn, comm, 1 };
	*op = (MPI_Op)(SIBYL_MPI_FIRST_USER_OP + free_slot);
	return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op *op)
{
	EMU_API(r, "MPI_Op_free");
	if (!op)
		emu_mpi_error(r, "MPI_Op_free", MPI_ERR_ARG, "NULL op pointer");
	if (predefined(*op))
		emu_mpi_error(r, "MPI_Op_free", MPI_ERR_OP, "%s is predefined "
			      "and cannot be freed", op_names[*op]);
	user_op *u = user_op_get(*op);
	if (!u)
		emu_mpi_error(r, "MPI_Op_free", MPI_ERR_OP, "%d is not an "
			      "operation (freed already?)", *op);
	/* A collective still running with it keeps using the function: the
	 * slot is only reused by a later MPI_Op_create. */
	if (--u->refs == 0)
		u->fn = NULL;
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
	EMU_API(r, "MPI_Op_commutative");
	if (!predefined(op) && !user_op_get(op))
		emu_mpi_error(r, "MPI_Op_commutative", MPI_ERR_OP, "%d is not "
			      "an operation", op);
	*commute = emu_op_commutative(op);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ emu_coll.h */

void emu_op_check(emu_rank *r, const char *call, MPI_Op op, MPI_Datatype t)
{
	if (user_op_get(op))
		return;
	if (!predefined(op))
		emu_mpi_error(r, call, MPI_ERR_OP, "%d is not an operation%s",
			      op, op == MPI_OP_NULL ? " (MPI_OP_NULL)" :
			      " (freed already?)");
	if (op == MPI_REPLACE || op == MPI_NO_OP)
		return;
	int64_t n;
	MPI_Datatype b = emu_dt_basic(t, &n);
	if (b == MPI_DATATYPE_NULL && emu_dt_size(t) == 0)
		return;         /* no data: nothing to combine */
	if (b == MPI_DATATYPE_NULL)
		emu_mpi_error(r, call, MPI_ERR_OP, "%s is not defined on %s: "
			      "its elements are not all of one basic type",
			      op_names[op], emu_dt_name(t));
	if (b <= 0 || b >= SIBYL_MPI_NBASIC_TYPES || !fns[op][b])
		emu_mpi_error(r, call, MPI_ERR_OP, "%s is not defined on %s; "
			      "it takes %s", op_names[op], emu_dt_name(t),
			      op_accepts[op]);
}

int emu_op_commutative(MPI_Op op)
{
	user_op *u = user_op_get(op);
	return u ? u->commute : 1;
}

void emu_op_apply(MPI_Op op, const void *in, void *inout, int count,
		  MPI_Datatype t)
{
	if (count <= 0 || op == MPI_NO_OP)
		return;
	user_op *u = user_op_get(op);
	if (u) {
		int len = count;
		MPI_Datatype dt = t;
		u->fn((void *)in, inout, &len, &dt);
		return;
	}
	int64_t n = 1;
	MPI_Datatype b = emu_dt_basic(t, &n);
	if (b == MPI_DATATYPE_NULL) {
		/* MPI_REPLACE on a type of mixed basic types. */
		b = MPI_BYTE;
		n = emu_dt_size(t);
	}
	int64_t total = (int64_t)count * n;
	/* Memory layout: one element of b every extent bytes (a pair type's
	 * C struct, padding included). */
	size_t step = (size_t)emu_dt_extent(b);
	if (op == MPI_REPLACE) {
		memmove(inout, in, (size_t)total * step);
		return;
	}
	/* emu_op_check() has vetted the pair: this is an internal error. */
	if (!predefined(op) || b <= 0 || b >= SIBYL_MPI_NBASIC_TYPES ||
	    !fns[op][b])
		emu_fatal("internal error: %s:%d: operation %d applied to "
			  "type %d", __FILE__, __LINE__, op, t);
	/* The loops take an int count; a huge reduction goes in slices. */
	const char *ip = in;
	char *op_ = inout;
	while (total > 0) {
		int k = total > INT32_MAX ? INT32_MAX : (int)total;
		fns[op][b](ip, op_, k);
		ip += (size_t)k * step;
		op_ += (size_t)k * step;
		total -= k;
	}
}

void coll_op_hold(MPI_Op op)
{
	user_op *u = user_op_get(op);
	if (u)
		u->refs++;
}

void coll_op_drop(MPI_Op op)
{
	user_op *u = user_op_get(op);
	if (u && --u->refs == 0)
		u->fn = NULL;
}

void emu_op_fini(void)
{
	free(emu.op.uops);
	emu.op.uops = NULL;
	emu.op.nuops = emu.op.cuops = 0;
}
