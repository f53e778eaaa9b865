/*
 * datatype.c -- datatypes of virtual ranks: the basic types, derived
 * types, packing (emu_dt.h), and the datatype MPI calls.
 *
 * Maps.  Every type, basic or derived, is a `dt_map': its data as a list
 * of runs (displacement, primitive type, bytes) in type-map order, with
 * adjacent runs of one primitive merged, repeated `nrep' times at
 * `rstride' bytes (so a vector of 10^6 single doubles is one run repeated,
 * not 10^6 runs), plus its bounds.  Maps are immutable and shared: a new
 * type is flattened into a scratch builder, hashed, and an identical
 * existing map is reused -- 131,072 ranks creating the same halo type
 * cost one map, and a 48-byte handle and the constructor's arguments
 * each.  Nothing refers to a child's map, so freeing a type never
 * affects types built from it.
 *
 * Bounds are computed as Open MPI and MPICH compute them, which is MPI-3.1
 * 4.1.6-4.1.7 in all but contrived cases: a constructor adds blocks of
 * copies of its old type(s); a block's bounds run from its first copy's
 * lb to its last copy's ub, and the new type's lb and ub are the lowest
 * and highest of its blocks'.  After each block the extent is rounded up
 * to the largest alignment in the type (the "epsilon" that makes a
 * struct's extent that of the C struct) -- unless the bounds are explicit
 * (MPI_Type_create_resized, inherited by every type built from a resized
 * one), which then win over implicit ones.  True bounds cover data only.
 *
 * Handles.  Basic types keep their <mpi.h> values.  Derived types are
 * slots of one process-wide table, shared by all ranks (any rank may use
 * any handle, as the ranks share the program's globals).  A freed slot
 * is reused only after every other free slot (FIFO), so a stale handle
 * is caught as freed for as long as possible; a slot a pending operation
 * retains (emu_dt_retain) outlives MPI_Type_free until it is released,
 * and so does the slot of a type another type's constructor names (see
 * dt_env: MPI_Type_get_contents returns it).
 *
 * Pair types.  MPI_DOUBLE_INT and friends are the C struct {T a; int b;}:
 * their data is sizeof(T) + sizeof(int) bytes, their extent the struct's
 * size.  In packed form (messages, MPI_Pack) the int directly follows the
 * T.  Only MPI_SHORT_INT has a hole inside its data (short at 0, int at
 * 4); it is two primitives internally, counted as one element.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <float.h>
#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

/* ------------------------------------------------------ primitive types */

/* Internal primitives beyond the basic types: the two parts of
 * MPI_SHORT_INT (its short, which completes no element, and its int). */
enum { P_SHORT_INT_LO = SIBYL_MPI_NBASIC_TYPES, P_SHORT_INT_HI, P_COUNT };

#define PAIR(T) struct { T a; int b; }
#define PAIR_SIZE(T) ((int)(sizeof(T) + sizeof(int)))

static const struct prim {
	const char *name;
	uint8_t size;   /* bytes of data */
	uint8_t extent; /* bytes from one element to the next */
	uint8_t align;  /* C alignment */
	uint8_t weight; /* elements it completes (Get_elements) */
} prims[P_COUNT] = {
#define P(t, name, size, ext, al) [t] = { name, size, ext, al, 1 }
#define B(t, T) P(t, #t, sizeof(T), sizeof(T), alignof(T))
#define Q(t, T) P(t, #t, PAIR_SIZE(T), sizeof(PAIR(T)), alignof(PAIR(T)))
	B(MPI_CHAR, char),
	B(MPI_SIGNED_CHAR, signed char),
	B(MPI_UNSIGNED_CHAR, unsigned char),
	B(MPI_BYTE, unsigned char),
	B(MPI_SHORT, short),
	B(MPI_UNSIGNED_SHORT, unsigned short),
	B(MPI_INT, int),
	B(MPI_UNSIGNED, unsigned),
	B(MPI_LONG, long),
	B(MPI_UNSIGNED_LONG, unsigned long),
	B(MPI_LONG_LONG_INT, long long),
	B(MPI_UNSIGNED_LONG_LONG, unsigned long long),
	B(MPI_FLOAT, float),
	B(MPI_DOUBLE, double),
	B(MPI_LONG_DOUBLE, long double),
	P(MPI_WCHAR, "MPI_WCHAR", 4, 4, 4),
	B(MPI_C_BOOL, _Bool),
	B(MPI_INT8_T, int8_t),
	B(MPI_INT16_T, int16_t),
	B(MPI_INT32_T, int32_t),
	B(MPI_INT64_T, int64_t),
	B(MPI_UINT8_T, uint8_t),
	B(MPI_UINT16_T, uint16_t),
	B(MPI_UINT32_T, uint32_t),
	B(MPI_UINT64_T, uint64_t),
	B(MPI_AINT, MPI_Aint),
	B(MPI_OFFSET, MPI_Offset),
	B(MPI_COUNT, MPI_Count),
	B(MPI_PACKED, unsigned char),
	Q(MPI_FLOAT_INT, float),
	Q(MPI_DOUBLE_INT, double),
	Q(MPI_LONG_INT, long),
	Q(MPI_2INT, int),
	Q(MPI_SHORT_INT, short),
	Q(MPI_LONG_DOUBLE_INT, long double),
	P(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 2 * sizeof(float),
	  2 * sizeof(float), alignof(float)),
	P(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double),
	  2 * sizeof(double), alignof(double)),
	[P_SHORT_INT_LO] = { "MPI_SHORT_INT", sizeof(short), sizeof(short),
			     alignof(short), 0 },
	[P_SHORT_INT_HI] = { "MPI_SHORT_INT", sizeof(int), sizeof(int),
			     alignof(int), 1 },
#undef P
#undef B
#undef Q
};

/* The int of MPI_SHORT_INT sits at offsetof(b), after a hole. */
#define SHORT_INT_B ((int64_t)offsetof(PAIR(short), b))

static int is_basic(MPI_Datatype t)
{
	return t > MPI_DATATYPE_NULL && t < SIBYL_MPI_NBASIC_TYPES;
}

/* ------------------------------------------------------------------ maps */

typedef struct emu_dt_node dt_node;
typedef struct emu_dt_table dt_table;

typedef struct dt_run {
	int64_t disp;   /* bytes from the element's origin */
	int64_t len;    /* bytes: len / prims[prim].size primitives */
	int32_t prim;
	int32_t zero;   /* padding kept 0, so runs compare with memcmp */
} dt_run;

typedef struct dt_map {
	dt_node node;           /* in emu.dt.maps (first) */
	uint32_t refs;          /* handles (and basic slots) using it */
	uint32_t nruns;
	/* What the hash covers starts here. */
	int64_t nrep, rstride;  /* the runs repeat nrep times, rstride apart */
	int64_t size;           /* data bytes of one element */
	int64_t nelem;          /* basic elements of one element */
	int64_t lb, extent;
	int64_t tlb, tub;       /* true bounds (0, 0 without data) */
	int32_t basic;          /* the one basic type, or MPI_DATATYPE_NULL */
	uint8_t marked;         /* explicit bounds (resized), inherited */
	uint8_t align;
	uint8_t contig;         /* one run at 0, size == extent, lb 0 */
	uint8_t zero;
	dt_run runs[];
} dt_map;

#define MAP_KEY_OFF offsetof(dt_map, nrep)
#define MAP_KEY_LEN (offsetof(dt_map, runs) - MAP_KEY_OFF)


static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001b3ULL;
	return h;
}

/* The hash tables (emu_dt.h). */
static void table_unlink(dt_table *t, dt_node *x)
{
	dt_node **pp = &t->b[x->hash & (t->nb - 1)];
	while (*pp != x)
		pp = &(*pp)->hnext;
	*pp = x->hnext;
	t->n--;
}

static void table_insert(dt_table *t, dt_node *x)
{
	if (t->n >= t->nb) {
		uint32_t n = t->nb ? t->nb * 2 : 256;
		dt_node **b = calloc(n, sizeof *b);
		if (!b)
			emu_fatal("out of memory for the datatype table");
		for (uint32_t i = 0; i < t->nb; i++)
			for (dt_node *y = t->b[i], *next; y; y = next) {
				next = y->hnext;
				y->hnext = b[y->hash & (n - 1)];
				b[y->hash & (n - 1)] = y;
			}
		free(t->b);
		t->b = b;
		t->nb = n;
	}
	x->hnext = t->b[x->hash & (t->nb - 1)];
	t->b[x->hash & (t->nb - 1)] = x;
	t->n++;
}

/* The first of the chain where hash h would be, or NULL. */
static dt_node *table_chain(const dt_table *t, uint64_t h)
{
	return t->nb ? t->b[h & (t->nb - 1)] : NULL;
}

static void map_unref(dt_map *m)
{
	if (--m->refs)
		return;
	table_unlink(&emu.dt.maps, &m->node);
	free(m);
}

/* ------------------------------------------------------------ building */

/* A type being flattened (emu_dt.h).  Only one exists at a time (types
 * are made inside one MPI call, and ranks switch only between calls), so
 * it is the process's, emu.dt.build, and its run array is kept and
 * reused. */
typedef struct emu_dt_build dt_build;

/* Runs a type may flatten to: 64 Mi runs are 1.5 GiB. */
#define MAX_RUNS (1u << 26)

static dt_build *const B = &emu.dt.build;

static void b_start(void)
{
	B->n = 0;
	B->nrep = 1;
	B->rstride = 0;
	B->size = B->nelem = 0;
	B->lb = B->ub = B->tlb = B->tub = 0;
	B->has_bounds = B->has_data = B->marked = 0;
	B->align = 1;
	B->basic = -1;
	B->err = NULL;
	B->err_code = MPI_SUCCESS;
}

static void b_fail(int code, const char *why)
{
	if (!B->err) {
		B->err = why;
		B->err_code = code;
	}
}

/* a + b and a * b, noting an overflow in B->err. */
static int64_t b_add(int64_t a, int64_t b)
{
	int64_t s;
	if (__builtin_add_overflow(a, b, &s)) {
		b_fail(MPI_ERR_ARG, "its displacements or extent overflow "
		       "64 bits");
		return 0;
	}
	return s;
}

static int64_t b_mul(int64_t a, int64_t b)
{
	int64_t p;
	if (__builtin_mul_overflow(a, b, &p)) {
		b_fail(MPI_ERR_ARG, "its size or extent overflows 64 bits");
		return 0;
	}
	return p;
}

static void b_run(int64_t disp, int64_t len, int32_t prim)
{
	if (B->n) {
		dt_run *l = &B->runs[B->n - 1];
		if (l->prim == prim && l->disp + l->len == disp) {
			l->len += len;
			return;
		}
	}
	if (B->n == B->cap) {
		uint32_t cap = B->cap ? B->cap * 2 : 64;
		dt_run *r = cap <= MAX_RUNS ? realloc(B->runs, cap * sizeof *r)
			: NULL;
		if (!r) {
			b_fail(MPI_ERR_NO_MEM, cap > MAX_RUNS ? "its type "
			       "map has more than 64 Mi separate pieces" :
			       "there is no memory to flatten its type map");
			return;
		}
		B->runs = r;
		B->cap = cap;
	}
	B->runs[B->n++] = (dt_run){ disp, len, prim, 0 };
}

/* [lo, hi] of n copies of [lo0, hi0] placed `step' bytes apart. */
static void span(int64_t lo0, int64_t hi0, int64_t n, int64_t step,
		 int64_t *lo, int64_t *hi)
{
	int64_t far = b_mul(n - 1, step);
	*lo = b_add(lo0, far < 0 ? far : 0);
	*hi = b_add(hi0, far > 0 ? far : 0);
}

/* Round the extent up to the alignment (the "epsilon" of MPI-3.1 4.1.6)
 * unless the bounds are explicit. */
static void b_pad(void)
{
	if (B->marked)
		return;
	int64_t e = (B->ub - B->lb) % B->align;
	if (e > 0)
		B->ub = b_add(B->ub, B->align - e);
}

/* Fold the bounds [lo, hi) of a block into the builder's.  Explicit
 * bounds win over implicit ones; the extent is padded block by block. */
static void b_merge(int64_t lo, int64_t hi, int marked, int align)
{
	if (!B->has_bounds || (marked && !B->marked)) {
		B->lb = lo;
		B->ub = hi;
		B->marked = marked;
	} else if (marked == B->marked) {
		B->lb = lo < B->lb ? lo : B->lb;
		B->ub = hi > B->ub ? hi : B->ub;
	}
	B->has_bounds = 1;
	if (align > B->align)
		B->align = align;
	b_pad();
}

/* The bounds, data and counts of n copies of m, from off, step apart. */
static void b_bounds(const dt_map *m, int64_t off, int64_t n, int64_t step)
{
	int64_t lo, hi;
	span(b_add(m->lb, off), b_add(b_add(m->lb, m->extent), off), n, step,
	     &lo, &hi);
	b_merge(lo, hi, m->marked, m->align);
	if (m->size) {
		span(b_add(m->tlb, off), b_add(m->tub, off), n, step, &lo, &hi);
		if (!B->has_data || lo < B->tlb)
			B->tlb = lo;
		if (!B->has_data || hi > B->tub)
			B->tub = hi;
		B->has_data = 1;
		if (B->basic == -1)
			B->basic = m->basic;
		else if (B->basic != m->basic)
			B->basic = MPI_DATATYPE_NULL;
	}
	B->size = b_add(B->size, b_mul(m->size, n));
	B->nelem = b_add(B->nelem, b_mul(m->nelem, n));
}

/* Write the builder's repetition out as runs, so more can follow. */
static void b_expand(void)
{
	/* A copy of the pattern: appending may merge into its last run. */
	uint32_t n = B->n;
	dt_run *one = malloc(n * sizeof *one);
	if (!one) {
		b_fail(MPI_ERR_NO_MEM, "there is no memory to flatten its "
		       "type map");
		return;
	}
	memcpy(one, B->runs, n * sizeof *one);
	for (int64_t k = 1; k < B->nrep && !B->err; k++)
		for (uint32_t j = 0; j < n && !B->err; j++)
			b_run(one[j].disp + k * B->rstride, one[j].len,
			      one[j].prim);
	free(one);
	B->nrep = 1;
	B->rstride = 0;
}

/* Append n copies of m, the first at offset off, one extent apart. */
static void b_copies(const dt_map *m, int64_t off, int64_t n)
{
	if (n <= 0)
		return;
	if (B->nrep > 1)
		b_expand();
	b_bounds(m, off, n, m->extent);
	if (B->err)
		return;
	if (n == 1 && B->n == 0 && m->nrep > 1) {
		/* The first and only copy, so far: keep its repetition
		 * (a resized vector stays one run repeated). */
		for (uint32_t j = 0; j < m->nruns && !B->err; j++)
			b_run(off + m->runs[j].disp, m->runs[j].len,
			      m->runs[j].prim);
		B->nrep = m->nrep;
		B->rstride = m->rstride;
		return;
	}
	if (m->nrep == 1 && m->nruns == 1 && m->runs[0].len == m->extent) {
		/* Dense: the copies make one run. */
		b_run(off + m->runs[0].disp, b_mul(n, m->extent),
		      m->runs[0].prim);
		return;
	}
	for (int64_t i = 0; i < n && !B->err; i++) {
		int64_t o = off + i * m->extent;
		for (int64_t k = 0; k < m->nrep && !B->err;
		     k++, o += m->rstride)
			for (uint32_t j = 0; j < m->nruns && !B->err; j++)
				b_run(o + m->runs[j].disp, m->runs[j].len,
				      m->runs[j].prim);
	}
}

/* The builder holds one block: make it `count' blocks `stride' bytes
 * apart, kept as a repetition rather than copied out. */
static void b_repeat(int64_t count, int64_t stride)
{
	if (count == 1)
		return;
	if (count == 0) {
		b_start();
		return;
	}
	if (B->nrep > 1)
		b_expand();
	int64_t lo, hi;
	if (B->has_data) {
		span(B->tlb, B->tub, count, stride, &lo, &hi);
		B->tlb = lo;
		B->tub = hi;
	}
	if (B->has_bounds) {
		span(B->lb, B->ub, count, stride, &lo, &hi);
		B->lb = lo;
		B->ub = hi;
		b_pad();
	}
	B->size = b_mul(B->size, count);
	B->nelem = b_mul(B->nelem, count);
	if (B->n == 0)
		return;
	if (B->n == 1 && B->runs[0].len == stride) {
		B->runs[0].len = b_mul(B->runs[0].len, count);
		return;
	}
	B->nrep = count;
	B->rstride = stride;
}

/* The map the builder describes: an existing identical one, or a new
 * one; NULL (B->err says why) if the type cannot be represented. */
static dt_map *b_finish(void)
{
	if (B->err)
		return NULL;
	dt_map key;
	memset(&key, 0, sizeof key);
	key.nrep = B->nrep;
	key.rstride = B->rstride;
	key.size = B->size;
	key.nelem = B->nelem;
	key.basic = B->basic > 0 ? B->basic : MPI_DATATYPE_NULL;
	key.align = (uint8_t)B->align;
	key.marked = (uint8_t)B->marked;
	if (B->has_data) {
		key.tlb = B->tlb;
		key.tub = B->tub;
	}
	if (B->has_bounds) {
		key.lb = B->lb;
		key.extent = B->ub - B->lb;
	}
	key.contig = B->n == 1 && B->nrep == 1 && B->runs[0].disp == 0 &&
		key.lb == 0 && B->runs[0].len == key.extent;
	uint64_t h = hash_bytes(0xcbf29ce484222325ULL,
				(const char *)&key + MAP_KEY_OFF, MAP_KEY_LEN);
	h = hash_bytes(h, B->runs, B->n * sizeof *B->runs);
	for (dt_node *x = table_chain(&emu.dt.maps, h); x; x = x->hnext) {
		dt_map *m = (dt_map *)x;
		if (x->hash == h && m->nruns == B->n &&
		    !memcmp((const char *)m + MAP_KEY_OFF,
			    (const char *)&key + MAP_KEY_OFF, MAP_KEY_LEN) &&
		    !memcmp(m->runs, B->runs, B->n * sizeof *B->runs)) {
			m->refs++;
			return m;
		}
	}
	dt_map *m = malloc(sizeof *m + B->n * sizeof *B->runs);
	if (!m) {
		b_fail(MPI_ERR_NO_MEM, "there is no memory for its type map");
		return NULL;
	}
	memcpy(m, &key, sizeof key);
	memcpy(m->runs, B->runs, B->n * sizeof *B->runs);
	m->node.hash = h;
	m->refs = 1;
	m->nruns = B->n;
	table_insert(&emu.dt.maps, &m->node);
	return m;
}

/* Build the map of basic type t (at the first use of any datatype, so
 * the builder is free). */
static void basic_init(MPI_Datatype t)
{
	const struct prim *p = &prims[t];
	b_start();
	if (t == MPI_SHORT_INT) {
		b_run(0, prims[P_SHORT_INT_LO].size, P_SHORT_INT_LO);
		b_run(SHORT_INT_B, prims[P_SHORT_INT_HI].size, P_SHORT_INT_HI);
		B->tub = SHORT_INT_B + prims[P_SHORT_INT_HI].size;
	} else {
		b_run(0, p->size, t);
		B->tub = p->size;
	}
	B->has_data = B->has_bounds = 1;
	B->ub = p->extent;
	B->size = p->size;
	B->nelem = 1;
	B->align = p->align;
	B->basic = t;
	dt_map *m = b_finish();
	if (!m)
		emu_fatal("out of memory for the basic datatypes");
	if (m->extent != p->extent)
		emu_fatal("internal error: %s has extent %lld, not %d", p->name,
			  (long long)m->extent, p->extent);
	emu.dt.basic_maps[t] = m;
}

static dt_map *basic_map(MPI_Datatype t)
{
	if (!emu.dt.basic_maps[t])
		for (int b = MPI_DATATYPE_NULL + 1; b < SIBYL_MPI_NBASIC_TYPES;
		     b++)
			basic_init(b);
	return emu.dt.basic_maps[t];
}

/* --------------------------------------------------------------- handles */

enum { H_FREE = 0, H_LIVE, H_FREED };

typedef struct dt_handle {
	dt_map *map;         /* NULL when H_FREE */
	char *name;          /* MPI_Type_set_name, or NULL */
	struct dt_env *env;  /* its constructor (get_contents); NULL for
	                        the steps of subarray and darray types */
	struct emu_attr *attrs; /* MPI_Type_set_attr's, newest first */
	uint32_t pending;    /* emu_dt_retain()s not yet released, and the
	                        constructors (dt_env) that name it */
	int32_t next_free;   /* free list, by slot index; -1 ends it */
	uint8_t state;
	uint8_t committed;
	uint8_t used;        /* has been a datatype (for messages) */
	uint8_t predef;      /* made by MPI_Type_create_f90_*: never freed */
} dt_handle;

/*
 * Constructors.  Each type the program gets keeps how it was made, for
 * MPI_Type_get_envelope and MPI_Type_get_contents: the combiner and the
 * arguments exactly as given (the integers, the addresses, the
 * datatypes).  A derived datatype among them stays in the table, with
 * its own constructor, until the types naming it are gone, even after
 * the program frees it: its slot is retained (`pending'), as for a
 * pending operation.  MPI_Type_get_contents returns a new handle for
 * each of them, sharing its map and its constructor.  Constructors are
 * shared like maps (hashed, an identical one reused): the ranks that
 * build the same indexed type of predefined types keep its arguments
 * once.
 */
typedef struct dt_env {
	dt_node node;         /* in emu.dt.envs (first) */
	struct dt_env *next;  /* env_unref's list of those to drop */
	uint32_t refs;        /* handles using it */
	int32_t combiner;
	int32_t ni, na, nd;
	MPI_Aint a[];         /* na addresses, then nd datatypes, then ni
	                         integers (ENV_D, ENV_I) */
} dt_env;

#define ENV_D(e) ((MPI_Datatype *)((e)->a + (e)->na))
#define ENV_I(e) ((int *)(ENV_D(e) + (e)->nd))

/* A (p, r) MPI_Type_create_f90_* was called with, and its type. */
typedef struct dt_f90 {
	int combiner, p, r;
	MPI_Datatype type;
} dt_f90;


static dt_handle *slot(MPI_Datatype t)
{
	if (t < SIBYL_MPI_NBASIC_TYPES)
		return NULL;
	uint32_t i = (uint32_t)(t - SIBYL_MPI_NBASIC_TYPES);
	return i < emu.dt.nhandles ? &emu.dt.handles[i] : NULL;
}

/* The map of a type that exists (committed or not), or NULL. */
static dt_map *map_of(MPI_Datatype t)
{
	if (is_basic(t))
		return basic_map(t);
	dt_handle *h = slot(t);
	return h && h->state == H_LIVE ? h->map : NULL;
}

/* Why t is not a datatype, for a message. */
static const char *why_bad(MPI_Datatype t, char *buf, size_t len)
{
	dt_handle *h = slot(t);
	if (t == MPI_DATATYPE_NULL)
		snprintf(buf, len, "MPI_DATATYPE_NULL is not a valid "
			 "datatype");
	else if (h && h->state == H_FREED)
		snprintf(buf, len, "datatype %d was freed with MPI_Type_free",
			 t);
	else if (h && h->used)
		snprintf(buf, len, "datatype %d was freed with MPI_Type_free "
			 "and no longer exists", t);
	else
		snprintf(buf, len, "%d is not a datatype", t);
	return buf;
}

/* The map of datatype argument `what' of `call', or an MPI_ERR_TYPE
 * error.  Uncommitted types are fine (constructors, queries). */
static dt_map *type_arg(emu_rank *r, const char *call, MPI_Datatype t,
			const char *what)
{
	dt_map *m = map_of(t);
	if (!m) {
		char why[96];
		emu_mpi_error(r, call, MPI_ERR_TYPE, "%s: %s", what,
			      why_bad(t, why, sizeof why));
	}
	return m;
}

/* A new handle for m (whose reference it takes over). */
static MPI_Datatype handle_new(emu_rank *r, const char *call, dt_map *m)
{
	emu_dt_state *d = &emu.dt;
	if (d->free_head < 0) {
		if (d->nhandles == d->chandles) {
			uint32_t c = d->chandles ? d->chandles * 2 : 256;
			dt_handle *h = c < (uint32_t)(INT_MAX -
						      SIBYL_MPI_NBASIC_TYPES) ?
				realloc(d->handles, c * sizeof *h) : NULL;
			if (!h) {
				map_unref(m);
				emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no "
					      "memory for another datatype "
					      "handle (%u exist)", d->nhandles);
			}
			d->handles = h;
			d->chandles = c;
		}
		memset(&d->handles[d->nhandles], 0, sizeof *d->handles);
		d->handles[d->nhandles].next_free = -1;
		d->free_head = d->free_tail = (int32_t)d->nhandles++;
	}
	int32_t i = emu.dt.free_head;
	dt_handle *h = &emu.dt.handles[i];
	emu.dt.free_head = h->next_free;
	if (emu.dt.free_head < 0)
		emu.dt.free_tail = -1;
	h->map = m;
	h->name = NULL;
	h->env = NULL;
	h->attrs = NULL;
	h->pending = 0;
	h->next_free = -1;
	h->state = H_LIVE;
	h->committed = 0;
	h->used = 1;
	h->predef = 0;
	return SIBYL_MPI_NBASIC_TYPES + i;
}

/* Free slot h (its map, name and attributes; its attributes' delete
 * callbacks ran at MPI_Type_free) and return its constructor, for the
 * caller to drop. */
static dt_env *slot_free(dt_handle *h)
{
	dt_env *e = h->env;
	map_unref(h->map);
	free(h->name);
	emu_attr_drop_list(&h->attrs);
	h->map = NULL;
	h->name = NULL;
	h->env = NULL;
	h->state = H_FREE;
	h->next_free = -1;
	int32_t i = (int32_t)(h - emu.dt.handles);
	if (emu.dt.free_tail >= 0)
		emu.dt.handles[emu.dt.free_tail].next_free = i;
	else
		emu.dt.free_head = i;
	emu.dt.free_tail = i;
	return e;
}

/* One handle fewer uses constructor e: at the last, the datatypes it
 * names are released, and those of theirs that nothing else holds are
 * freed in turn (a worklist, not recursion: a chain of types built one
 * from the other may be long, and ranks have small stacks). */
static void env_unref(dt_env *e)
{
	dt_env *todo = NULL;
	if (e && --e->refs == 0) {
		e->next = todo;
		todo = e;
	}
	while (todo) {
		e = todo;
		todo = e->next;
		table_unlink(&emu.dt.envs, &e->node);
		for (int32_t k = 0; k < e->nd; k++) {
			dt_handle *h = slot(ENV_D(e)[k]);
			if (!h || !h->pending)
				continue;
			if (--h->pending || h->state == H_LIVE)
				continue;
			dt_env *c = slot_free(h);
			if (c && --c->refs == 0) {
				c->next = todo;
				todo = c;
			}
		}
		free(e);
	}
}

/* Give the slot back once neither the program, a pending operation nor
 * a type's constructor refers to it. */
static void handle_release(dt_handle *h)
{
	if (h->state == H_LIVE || h->pending)
		return;
	env_unref(slot_free(h));
}

/* Free type t, which the program does not have (a step of a subarray
 * or a darray, a duplicate whose copy callback failed). */
static void type_drop(MPI_Datatype t)
{
	dt_handle *h = slot(t);
	h->state = H_FREED;
	handle_release(h);
}

/* The integers of a constructor, in pieces (n ints at v). */
typedef struct ipiece {
	int64_t n;
	const int *v;
} ipiece;

/* The constructor `comb' with the ints of the np pieces, na addresses
 * and nd datatypes is e's. */
static int env_is(const dt_env *e, uint64_t h, int comb, int np,
		  const ipiece *ip, int64_t ni, int64_t na, const MPI_Aint *a,
		  int64_t nd, const MPI_Datatype *d)
{
	if (e->node.hash != h || e->combiner != comb || e->ni != ni ||
	    e->na != na || e->nd != nd ||
	    (na && memcmp(e->a, a, (size_t)na * sizeof *a)) ||
	    (nd && memcmp(ENV_D(e), d, (size_t)nd * sizeof *d)))
		return 0;
	const int *i = ENV_I(e);
	for (int k = 0; k < np; i += ip[k].n, k++)
		if (ip[k].n && memcmp(i, ip[k].v, (size_t)ip[k].n * sizeof *i))
			return 0;
	return 1;
}

/* Record the constructor of new type t: `comb' with the ints of the np
 * pieces, na addresses and nd datatypes (an identical constructor's, or
 * a new one that retains the datatypes).  Out of memory, t is freed and
 * the call fails. */
static void set_env(emu_rank *r, const char *call, MPI_Datatype t, int comb,
		    int np, const ipiece *ip, int64_t na, const MPI_Aint *a,
		    int64_t nd, const MPI_Datatype *d)
{
	int64_t ni = 0;
	int32_t head[4] = { comb, (int32_t)na, (int32_t)nd, 0 };
	uint64_t h = hash_bytes(0xcbf29ce484222325ULL, head, sizeof head);
	for (int k = 0; k < np; k++)
		if (ip[k].n) {
			ni += ip[k].n;
			h = hash_bytes(h, ip[k].v, (size_t)ip[k].n * sizeof(int));
		}
	if (na)
		h = hash_bytes(h, a, (size_t)na * sizeof *a);
	if (nd)
		h = hash_bytes(h, d, (size_t)nd * sizeof *d);
	for (dt_node *x = table_chain(&emu.dt.envs, h); x; x = x->hnext)
		if (env_is((dt_env *)x, h, comb, np, ip, ni, na, a, nd, d)) {
			((dt_env *)x)->refs++;
			slot(t)->env = (dt_env *)x;
			return;
		}
	dt_env *e = NULL;
	if (ni <= INT_MAX && na <= INT_MAX && nd <= INT_MAX)
		e = malloc(sizeof *e + (size_t)na * sizeof(MPI_Aint) +
			   (size_t)nd * sizeof(MPI_Datatype) +
			   (size_t)ni * sizeof(int));
	if (!e) {
		type_drop(t);
		emu_mpi_error(r, call, ni > INT_MAX ? MPI_ERR_ARG :
			      MPI_ERR_NO_MEM, "no room to keep the %lld "
			      "integers, %lld addresses and %lld datatypes "
			      "of its constructor", (long long)ni,
			      (long long)na, (long long)nd);
	}
	e->next = NULL;
	e->node.hash = h;
	e->refs = 1;
	e->combiner = comb;
	e->ni = (int32_t)ni;
	e->na = (int32_t)na;
	e->nd = (int32_t)nd;
	if (na)
		memcpy(e->a, a, (size_t)na * sizeof *a);
	if (nd)
		memcpy(ENV_D(e), d, (size_t)nd * sizeof *d);
	int *out = ENV_I(e);
	for (int k = 0; k < np; k++)
		if (ip[k].n) {
			memcpy(out, ip[k].v, (size_t)ip[k].n * sizeof *out);
			out += ip[k].n;
		}
	for (int64_t k = 0; k < nd; k++) {
		dt_handle *c = slot(d[k]);
		if (c)
			c->pending++;
	}
	table_insert(&emu.dt.envs, &e->node);
	slot(t)->env = e;
}

/* The type the builder describes, as a new handle in *newtype. */
static int b_handle(emu_rank *r, const char *call, MPI_Datatype *newtype)
{
	dt_map *m = b_finish();
	if (!m)
		emu_mpi_error(r, call, B->err_code, "cannot make the "
			      "datatype: %s", B->err);
	*newtype = handle_new(r, call, m);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------- packing */

/* memcpy of n > 0 bytes; small pieces (a struct's fields) inline, as two
 * fixed-size moves that may overlap. */
static inline void copy(char *d, const char *s, int64_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n < 4) {
		d[0] = s[0];
		d[n - 1] = s[n - 1];
		d[n / 2] = s[n / 2];
	} else if (n <= 32) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else {
		memcpy(d, s, (size_t)n);
	}
}

/* buf + off.  buf may be MPI_BOTTOM (NULL) with absolute displacements,
 * so this is address arithmetic, not pointer arithmetic. */
static inline char *at(const void *buf, int64_t off)
{
	return (char *)((uintptr_t)buf + (uintptr_t)off);
}

/* Pack (or with `unpack' unpack) `count' whole elements of m at buf. */
static void walk(const dt_map *m, const void *buf, int64_t count,
		 char *packed, int unpack)
{
	if (m->nrep == 1 && m->nruns == 1) {
		/* One run per element: the common halo column or vector. */
		int64_t len = m->runs[0].len, ext = m->extent;
		char *p = at(buf, m->runs[0].disp);
		for (int64_t i = 0; i < count;
		     i++, p = at(p, ext), packed += len)
			if (unpack)
				copy(p, packed, len);
			else
				copy(packed, p, len);
		return;
	}
	for (int64_t i = 0; i < count; i++) {
		char *e = at(buf, i * m->extent);
		for (int64_t k = 0; k < m->nrep; k++, e = at(e, m->rstride))
			for (uint32_t j = 0; j < m->nruns; j++) {
				const dt_run *u = &m->runs[j];
				if (unpack)
					copy(at(e, u->disp), packed, u->len);
				else
					copy(packed, at(e, u->disp), u->len);
				packed += u->len;
			}
	}
}

/* Unpack the first `bytes' (< m->size) of one element at buf. */
static void unpack_part(const dt_map *m, const char *in, uint64_t bytes,
			char *buf)
{
	for (int64_t k = 0; k < m->nrep; k++, buf = at(buf, m->rstride))
		for (uint32_t j = 0; j < m->nruns; j++) {
			const dt_run *u = &m->runs[j];
			uint64_t n = (uint64_t)u->len < bytes ?
				(uint64_t)u->len : bytes;
			memcpy(at(buf, u->disp), in, n);
			in += n;
			if (!(bytes -= n))
				return;
		}
}

/* Basic elements in the first `bytes' (< m->size) of one element, or -1
 * when they end inside one. */
static int64_t elements_part(const dt_map *m, uint64_t bytes)
{
	int64_t n = 0;
	if (!bytes)
		return 0;
	for (int64_t k = 0; k < m->nrep; k++)
		for (uint32_t j = 0; j < m->nruns; j++) {
			const dt_run *u = &m->runs[j];
			const struct prim *p = &prims[u->prim];
			uint64_t take = (uint64_t)u->len < bytes ?
				(uint64_t)u->len : bytes;
			if (take % p->size)
				return -1;
			n += p->weight * (int64_t)(take / p->size);
			bytes -= take;
			if (!bytes)
				/* The short of a MPI_SHORT_INT alone is
				 * not an element. */
				return p->weight ? n : -1;
		}
	return n;
}

/* --------------------------------------------------------------- emu_dt.h */

int64_t emu_dt_size(MPI_Datatype t)
{
	dt_map *m = map_of(t);
	return m ? m->size : -1;
}

MPI_Aint emu_dt_lb(MPI_Datatype t)
{
	dt_map *m = map_of(t);
	return m ? (MPI_Aint)m->lb : 0;
}

MPI_Aint emu_dt_extent(MPI_Datatype t)
{
	dt_map *m = map_of(t);
	return m ? (MPI_Aint)m->extent : 0;
}

void emu_dt_check(emu_rank *r, const char *call, MPI_Datatype t)
{
	if (is_basic(t))
		return;
	dt_handle *h = slot(t);
	if (!h || h->state != H_LIVE) {
		char why[96];
		emu_mpi_error(r, call, MPI_ERR_TYPE, "%s",
			      why_bad(t, why, sizeof why));
	}
	if (!h->committed)
		emu_mpi_error(r, call, MPI_ERR_TYPE, "%s is not committed: "
			      "call MPI_Type_commit on it before using it to "
			      "communicate", emu_dt_name(t));
}

int emu_dt_contiguous(MPI_Datatype t)
{
	dt_map *m = map_of(t);
	return m && (m->contig || m->size == 0);
}

/* The map of t, also when t was freed while an operation retained it. */
static dt_map *map_any(MPI_Datatype t)
{
	dt_handle *h = slot(t);
	return h ? h->map : map_of(t);
}

void emu_dt_pack(const void *buf, int64_t count, MPI_Datatype t, void *out)
{
	dt_map *m = map_any(t);
	if (!m)
		emu_fatal("internal error: packing datatype %d, which does "
			  "not exist", t);
	if (m->contig)
		memcpy(out, buf, (size_t)(count * m->size));
	else if (m->size)
		walk(m, buf, count, out, 0);
}

void emu_dt_unpack(const void *in, uint64_t bytes, void *buf, int64_t count,
		   MPI_Datatype t)
{
	dt_map *m = map_any(t);
	if (!m)
		emu_fatal("internal error: unpacking into datatype %d, which "
			  "does not exist", t);
	if (!m->size)
		return;
	uint64_t max = (uint64_t)count * (uint64_t)m->size;
	if (bytes > max)
		bytes = max;
	if (m->contig) {
		memcpy(buf, in, bytes);
		return;
	}
	int64_t whole = (int64_t)(bytes / (uint64_t)m->size);
	walk(m, buf, whole, (char *)in, 1);
	uint64_t rest = bytes % (uint64_t)m->size;
	if (rest)
		unpack_part(m, (const char *)in + bytes - rest, rest,
			    at(buf, whole * m->extent));
}

void emu_dt_runs(MPI_Datatype t, int64_t count,
		 void (*f)(void *arg, int64_t disp, int64_t len), void *arg)
{
	dt_map *m = map_any(t);
	if (!m || !m->size)
		return;
	if (m->contig) {
		f(arg, 0, count * m->size);
		return;
	}
	for (int64_t i = 0; i < count; i++) {
		int64_t e = i * m->extent;
		for (int64_t k = 0; k < m->nrep; k++, e += m->rstride)
			for (uint32_t j = 0; j < m->nruns; j++)
				f(arg, e + m->runs[j].disp, m->runs[j].len);
	}
}

MPI_Datatype emu_dt_basic(MPI_Datatype t, int64_t *n)
{
	dt_map *m = map_of(t);
	if (!m) {
		*n = 0;
		return MPI_DATATYPE_NULL;
	}
	*n = m->basic ? m->nelem : 0;
	return m->basic;
}

const char *emu_dt_name(MPI_Datatype t)
{
	char (*bufs)[MPI_MAX_OBJECT_NAME + 32] = emu.dt.names;
	if (is_basic(t))
		return prims[t].name;
	if (t == MPI_DATATYPE_NULL)
		return "MPI_DATATYPE_NULL";
	char *b = bufs[emu.dt.next_name++ % 4];
	dt_handle *h = slot(t);
	if (h && h->state != H_FREE && h->name)
		snprintf(b, sizeof bufs[0], "derived datatype %d (\"%s\")", t,
			 h->name);
	else if (h && h->state != H_FREE)
		snprintf(b, sizeof bufs[0], "derived datatype %d", t);
	else
		snprintf(b, sizeof bufs[0], "invalid datatype %d", t);
	return b;
}

void emu_dt_attr_check(emu_rank *r, const char *call, MPI_Datatype t)
{
	type_arg(r, call, t, "datatype");
}

struct emu_attr **emu_dt_attrs(MPI_Datatype t)
{
	return is_basic(t) ? &emu.dt.basic_attrs[t] : &slot(t)->attrs;
}

void emu_dt_retain(MPI_Datatype t)
{
	dt_handle *h = slot(t);
	if (h && h->state != H_FREE)
		h->pending++;
}

void emu_dt_release(MPI_Datatype t)
{
	dt_handle *h = slot(t);
	if (h && h->pending) {
		h->pending--;
		handle_release(h);
	}
}

void emu_dt_fini(void)
{
	for (uint32_t i = 0; i < emu.dt.nhandles; i++) {
		if (emu.dt.handles[i].state != H_FREE)
			map_unref(emu.dt.handles[i].map);
		free(emu.dt.handles[i].name);
		emu_attr_drop_list(&emu.dt.handles[i].attrs);
	}
	/* Everything goes: no type is released in turn. */
	for (uint32_t i = 0; i < emu.dt.envs.nb; i++)
		for (dt_node *x = emu.dt.envs.b[i], *next; x; x = next) {
			next = x->hnext;
			free(x);
		}
	free(emu.dt.envs.b);
	memset(&emu.dt.envs, 0, sizeof emu.dt.envs);
	free(emu.dt.handles);
	emu.dt.handles = NULL;
	emu.dt.nhandles = emu.dt.chandles = 0;
	free(emu.dt.f90);
	emu.dt.f90 = NULL;
	emu.dt.nf90 = 0;
	emu.dt.free_head = emu.dt.free_tail = -1;
	for (int t = 0; t < SIBYL_MPI_NBASIC_TYPES; t++) {
		if (emu.dt.basic_maps[t])
			map_unref(emu.dt.basic_maps[t]);
		emu.dt.basic_maps[t] = NULL;
		free(emu.dt.basic_names[t]);
		emu.dt.basic_names[t] = NULL;
		emu_attr_drop_list(&emu.dt.basic_attrs[t]);
	}
	if (emu.dt.maps.n)
		emu_warn("internal: %u datatype maps still referenced at the "
			 "end", emu.dt.maps.n);
	free(emu.dt.maps.b);
	memset(&emu.dt.maps, 0, sizeof emu.dt.maps);
	free(B->runs);
	memset(B, 0, sizeof *B);
}

/* ------------------------------------------------------- constructors */

static void check_out(emu_rank *r, const char *call, const void *p,
		      const char *what)
{
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s is NULL", what);
}

static void check_count(emu_rank *r, const char *call, int count)
{
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "count %d is negative",
			      count);
}

static void check_blocklen(emu_rank *r, const char *call, int bl, int i)
{
	if (bl >= 0)
		return;
	if (i < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "blocklength %d is "
			      "negative", bl);
	emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_blocklengths[%d] = %d "
		      "is negative", i, bl);
}

/* count blocks of bl elements of oldtype, `stride' bytes apart. */
static int make_hvector(emu_rank *r, const char *call, int count, int bl,
			int64_t stride, MPI_Datatype oldtype,
			MPI_Datatype *newtype)
{
	check_count(r, call, count);
	check_blocklen(r, call, bl, -1);
	dt_map *m = type_arg(r, call, oldtype, "oldtype");
	check_out(r, call, newtype, "newtype");
	b_start();
	b_copies(m, 0, bl);
	b_repeat(count, stride);
	return b_handle(r, call, newtype);
}

/* Block i: bl[i] elements (or bl_all when bl is NULL) of types[i] (or
 * of `one' when types is NULL) at disp[i] bytes (or idisp[i] extents of
 * `one').  The new type's constructor is `comb' with these arguments
 * (count, the block lengths, the integer displacements; the byte
 * displacements; the types), or none when comb is 0 (a step of a
 * subarray). */
static int make_struct(emu_rank *r, const char *call, int comb, int count,
		       const int *bl, int bl_all, const MPI_Aint *disp,
		       const int *idisp, const MPI_Datatype *types,
		       MPI_Datatype one, MPI_Datatype *newtype)
{
	check_count(r, call, count);
	if (count && !bl && bl_all < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_blocklengths "
			      "is NULL");
	if (count && !disp && !idisp)
		emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_displacements "
			      "is NULL");
	if (count && !types && !one)
		emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_types is NULL");
	check_out(r, call, newtype, "newtype");
	check_blocklen(r, call, bl_all, -1);
	dt_map *om = one ? type_arg(r, call, one, "oldtype") : NULL;
	for (int i = 0; i < count; i++) {
		check_blocklen(r, call, bl ? bl[i] : bl_all, i);
		if (types) {
			char what[40];
			snprintf(what, sizeof what, "array_of_types[%d]", i);
			type_arg(r, call, types[i], what);
		}
	}
	b_start();
	for (int i = 0; i < count && !B->err; i++) {
		dt_map *m = types ? map_of(types[i]) : om;
		int64_t d = disp ? (int64_t)disp[i] :
			b_mul(idisp[i], m->extent);
		b_copies(m, d, bl ? bl[i] : bl_all);
	}
	b_handle(r, call, newtype);
	if (!comb)
		return MPI_SUCCESS;
	int block = comb == MPI_COMBINER_INDEXED_BLOCK ||
		comb == MPI_COMBINER_HINDEXED_BLOCK;
	int iv = comb == MPI_COMBINER_INDEXED ||
		comb == MPI_COMBINER_INDEXED_BLOCK;
	int st = comb == MPI_COMBINER_STRUCT;
	set_env(r, call, *newtype, comb, 3, (ipiece[]){ { 1, &count },
			{ block ? 1 : count, block ? &bl_all : bl },
			{ iv ? count : 0, idisp } }, iv ? 0 : count, disp,
		st ? count : 1, st ? types : &one);
	return MPI_SUCCESS;
}

/* oldtype with bounds [lb, lb + extent). */
static int make_resized(emu_rank *r, const char *call, MPI_Datatype oldtype,
			int64_t lb, int64_t extent, MPI_Datatype *newtype)
{
	dt_map *m = type_arg(r, call, oldtype, "oldtype");
	check_out(r, call, newtype, "newtype");
	b_start();
	b_copies(m, 0, 1);
	/* Earlier explicit bounds are replaced, not merged. */
	B->has_bounds = B->marked = 1;
	B->lb = lb;
	B->ub = b_add(lb, extent);
	return b_handle(r, call, newtype);
}

/* The constructor of a type of the hvector family: count, blocklength
 * and the stride in extents (istride, MPI_Type_vector) or in bytes
 * (stride, the hvectors), as comb has them. */
static void hvector_env(emu_rank *r, const char *call, MPI_Datatype t,
			int comb, int count, int bl, int istride,
			MPI_Aint stride, MPI_Datatype oldtype)
{
	int ni = comb == MPI_COMBINER_CONTIGUOUS ? 1 :
		comb == MPI_COMBINER_VECTOR ? 3 : 2;
	set_env(r, call, t, comb, 3, (ipiece[]){ { 1, &count },
			{ ni > 1, &bl }, { ni > 2, &istride } },
		comb == MPI_COMBINER_HVECTOR, &stride, 1, &oldtype);
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype,
			MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_contiguous";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, oldtype, "oldtype");
	make_hvector(r, call, count, 1, m->extent, oldtype, newtype);
	hvector_env(r, call, *newtype, MPI_COMBINER_CONTIGUOUS, count, 1, 1,
		    0, oldtype);
	return MPI_SUCCESS;
}

int MPI_Type_vector(int count, int blocklength, int stride,
		    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_vector";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, oldtype, "oldtype");
	int64_t bytes;
	if (__builtin_mul_overflow((int64_t)stride, m->extent, &bytes))
		emu_mpi_error(r, call, MPI_ERR_ARG, "stride %d x extent %lld "
			      "overflows 64 bits", stride,
			      (long long)m->extent);
	make_hvector(r, call, count, blocklength, bytes, oldtype, newtype);
	hvector_env(r, call, *newtype, MPI_COMBINER_VECTOR, count,
		    blocklength, stride, 0, oldtype);
	return MPI_SUCCESS;
}

static int hvector(const char *call, int count, int blocklength,
		   MPI_Aint stride, MPI_Datatype oldtype,
		   MPI_Datatype *newtype)
{
	EMU_API(r, call);
	make_hvector(r, call, count, blocklength, stride, oldtype, newtype);
	hvector_env(r, call, *newtype, MPI_COMBINER_HVECTOR, count,
		    blocklength, 0, stride, oldtype);
	return MPI_SUCCESS;
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return hvector("MPI_Type_create_hvector", count, blocklength, stride,
		       oldtype, newtype);
}

/* The MPI-1 name: MPI_COMBINER_HVECTOR too, as from C it always was. */
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
		     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return hvector("MPI_Type_hvector", count, blocklength, stride,
		       oldtype, newtype);
}

int MPI_Type_indexed(int count, const int array_of_blocklengths[],
		     const int array_of_displacements[],
		     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_indexed");
	return make_struct(r, "MPI_Type_indexed", MPI_COMBINER_INDEXED,
			   count, array_of_blocklengths, 0, NULL,
			   array_of_displacements, NULL, oldtype, newtype);
}

int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
			     const MPI_Aint array_of_displacements[],
			     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_create_hindexed");
	return make_struct(r, "MPI_Type_create_hindexed",
			   MPI_COMBINER_HINDEXED, count,
			   array_of_blocklengths, 0, array_of_displacements,
			   NULL, NULL, oldtype, newtype);
}

int MPI_Type_hindexed(int count, const int array_of_blocklengths[],
		      const MPI_Aint array_of_displacements[],
		      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_hindexed");
	return make_struct(r, "MPI_Type_hindexed", MPI_COMBINER_HINDEXED,
			   count, array_of_blocklengths, 0,
			   array_of_displacements, NULL, NULL, oldtype,
			   newtype);
}

int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int array_of_displacements[],
				  MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_create_indexed_block");
	return make_struct(r, "MPI_Type_create_indexed_block",
			   MPI_COMBINER_INDEXED_BLOCK, count, NULL,
			   blocklength, NULL, array_of_displacements, NULL,
			   oldtype, newtype);
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint array_of_displacements[],
				   MPI_Datatype oldtype,
				   MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_create_hindexed_block");
	return make_struct(r, "MPI_Type_create_hindexed_block",
			   MPI_COMBINER_HINDEXED_BLOCK, count, NULL,
			   blocklength, array_of_displacements, NULL, NULL,
			   oldtype, newtype);
}

int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
			   const MPI_Aint array_of_displacements[],
			   const MPI_Datatype array_of_types[],
			   MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_create_struct");
	return make_struct(r, "MPI_Type_create_struct", MPI_COMBINER_STRUCT,
			   count, array_of_blocklengths, 0,
			   array_of_displacements, NULL, array_of_types,
			   MPI_DATATYPE_NULL, newtype);
}

int MPI_Type_struct(int count, const int array_of_blocklengths[],
		    const MPI_Aint array_of_displacements[],
		    const MPI_Datatype array_of_types[],
		    MPI_Datatype *newtype)
{
	EMU_API(r, "MPI_Type_struct");
	return make_struct(r, "MPI_Type_struct", MPI_COMBINER_STRUCT, count,
			   array_of_blocklengths, 0, array_of_displacements,
			   NULL, array_of_types, MPI_DATATYPE_NULL, newtype);
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
			    MPI_Aint extent, MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_create_resized";
	EMU_API(r, call);
	make_resized(r, call, oldtype, lb, extent, newtype);
	set_env(r, call, *newtype, MPI_COMBINER_RESIZED, 0, NULL, 2,
		(MPI_Aint[]){ lb, extent }, 1, &oldtype);
	return MPI_SUCCESS;
}

/* The arguments a subarray and a distributed array share; oldtype's
 * map. */
static dt_map *array_args(emu_rank *r, const char *call, int ndims,
			  int order, MPI_Datatype oldtype,
			  MPI_Datatype *newtype)
{
	if (ndims < 1)
		emu_mpi_error(r, call, MPI_ERR_ARG, "ndims = %d; the array "
			      "has 1 dimension or more", ndims);
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		emu_mpi_error(r, call, MPI_ERR_ARG, "order %d is neither "
			      "MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
	check_out(r, call, newtype, "newtype");
	return type_arg(r, call, oldtype, "oldtype");
}

/*
 * A subarray: the block subsizes[] at starts[] of an array sizes[] of
 * oldtype, in C (last index fastest) or Fortran order.  Built as the
 * standard describes it: the fastest dimension contiguous, each slower
 * one a vector of the faster ones with the array's stride, the whole
 * moved to the block's start and resized to the whole array (lower bound
 * 0, extent the array's).
 */
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
			     const int array_of_subsizes[],
			     const int array_of_starts[], int order,
			     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_create_subarray";
	EMU_API(r, call);
	const int *sz = array_of_sizes, *sub = array_of_subsizes,
		*st = array_of_starts;
	if (!sz || !sub || !st)
		emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_%s is NULL",
			      !sz ? "sizes" : !sub ? "subsizes" : "starts");
	dt_map *m = array_args(r, call, ndims, order, oldtype, newtype);
	for (int d = 0; d < ndims; d++) {
		if (sz[d] < 1)
			emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_sizes"
				      "[%d] = %d is below 1", d, sz[d]);
		if (sub[d] < 1 || sub[d] > sz[d])
			emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_subsizes"
				      "[%d] = %d is not in 1..%d (the size)",
				      d, sub[d], sz[d]);
		if (st[d] < 0 || st[d] > sz[d] - sub[d])
			emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_starts"
				      "[%d] = %d is not in 0..%d (size - "
				      "subsize)", d, st[d], sz[d] - sub[d]);
	}
	/* Dimension k, fastest first. */
#define DIM(k) (order == MPI_ORDER_C ? ndims - 1 - (k) : (k))
	int64_t stride = m->extent, disp = 0;
	MPI_Datatype t = MPI_DATATYPE_NULL, u;
	for (int k = 0; k < ndims; k++) {
		int d = DIM(k);
		int64_t s2, off;
		if (__builtin_mul_overflow(stride, (int64_t)sz[d], &s2) ||
		    __builtin_mul_overflow(stride, (int64_t)st[d], &off) ||
		    __builtin_add_overflow(disp, off, &disp))
			emu_mpi_error(r, call, MPI_ERR_ARG, "the array of "
				      "%d dimensions overflows 64-bit byte "
				      "offsets", ndims);
		/* The fastest dimension is contiguous (stride: the extent). */
		make_hvector(r, call, sub[d], 1, stride, k ? t : oldtype, &u);
		if (k)
			type_drop(t);
		t = u;
		stride = s2;
	}
#undef DIM
	int one = 1;
	MPI_Aint where = (MPI_Aint)disp;
	make_struct(r, call, 0, 1, &one, 0, &where, NULL, NULL, t, &u);
	type_drop(t);
	make_resized(r, call, u, 0, stride, newtype);
	type_drop(u);
	set_env(r, call, *newtype, MPI_COMBINER_SUBARRAY, 5, (ipiece[]){
			{ 1, &ndims }, { ndims, sz }, { ndims, sub },
			{ ndims, st }, { 1, &order } }, 0, NULL, 1, &oldtype);
	return MPI_SUCCESS;
}

/*
 * A distributed array (MPI-3.1 4.1.4): the elements of an array gsizes[]
 * of oldtype, in C or Fortran order, that process `rank' of a grid
 * psizes[] (ranks in row-major order, whatever the array's order) owns
 * when each dimension is distributed by blocks (of darg elements, by
 * default ceil(gsize / psize)), cyclically (by blocks of darg, by
 * default 1) or not at all; in the array's order, with lower bound 0 and
 * the whole array's extent.  Built dimension by dimension, the fastest
 * first: the elements of the dimension this process owns, each a copy of
 * the type of the faster dimensions resized to one step of this one (so
 * consecutive copies are a step apart), the whole resized to the
 * dimension's length.
 */
int MPI_Type_create_darray(int size, int rank, int ndims,
			   const int gsize_array[], const int distrib_array[],
			   const int darg_array[], const int psize_array[],
			   int order, MPI_Datatype oldtype,
			   MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_create_darray";
	EMU_API(r, call);
	const int *gs = gsize_array, *dist = distrib_array,
		*darg = darg_array, *ps = psize_array;
	if (size < 1)
		emu_mpi_error(r, call, MPI_ERR_ARG, "size = %d; a process "
			      "grid has 1 process or more", size);
	if (rank < 0 || rank >= size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "rank %d is not in 0..%d "
			      "(size - 1)", rank, size - 1);
	if (!gs || !dist || !darg || !ps)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s is NULL", !gs ?
			      "gsize_array" : !dist ? "distrib_array" : !darg ?
			      "darg_array" : "psize_array");
	dt_map *m = array_args(r, call, ndims, order, oldtype, newtype);
	int64_t procs = 1, bytes = m->extent;
	for (int d = 0; d < ndims; d++) {
		if (gs[d] < 1)
			emu_mpi_error(r, call, MPI_ERR_ARG, "gsize_array[%d] = "
				      "%d is below 1", d, gs[d]);
		if (ps[d] < 1)
			emu_mpi_error(r, call, MPI_ERR_ARG, "psize_array[%d] = "
				      "%d is below 1", d, ps[d]);
		if (dist[d] != MPI_DISTRIBUTE_BLOCK &&
		    dist[d] != MPI_DISTRIBUTE_CYCLIC &&
		    dist[d] != MPI_DISTRIBUTE_NONE)
			emu_mpi_error(r, call, MPI_ERR_ARG, "distrib_array[%d] "
				      "= %d is not MPI_DISTRIBUTE_BLOCK, _CYCLIC "
				      "or _NONE", d, dist[d]);
		if (dist[d] == MPI_DISTRIBUTE_NONE && ps[d] != 1)
			emu_mpi_error(r, call, MPI_ERR_ARG, "dimension %d is not "
				      "distributed (MPI_DISTRIBUTE_NONE) over "
				      "psize_array[%d] = %d processes, not 1", d,
				      d, ps[d]);
		if (dist[d] != MPI_DISTRIBUTE_NONE &&
		    darg[d] != MPI_DISTRIBUTE_DFLT_DARG && darg[d] < 1)
			emu_mpi_error(r, call, MPI_ERR_ARG, "darg_array[%d] = %d "
				      "is neither MPI_DISTRIBUTE_DFLT_DARG nor "
				      "1 or more", d, darg[d]);
		if (dist[d] == MPI_DISTRIBUTE_BLOCK &&
		    darg[d] != MPI_DISTRIBUTE_DFLT_DARG &&
		    (int64_t)darg[d] * ps[d] < gs[d])
			emu_mpi_error(r, call, MPI_ERR_ARG, "blocks of "
				      "darg_array[%d] = %d elements on %d "
				      "processes do not cover the %d of the "
				      "dimension", d, darg[d], ps[d], gs[d]);
		procs *= ps[d];
		if (procs > size)
			break;
		if (__builtin_mul_overflow(bytes, (int64_t)gs[d], &bytes))
			emu_mpi_error(r, call, MPI_ERR_ARG, "the array of %d "
				      "dimensions overflows 64-bit byte "
				      "offsets", ndims);
	}
	if (procs != size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the process grid "
			      "psize_array has %s%lld processes, not size = "
			      "%d", procs > size ? "more than " : "",
			      (long long)procs, size);
	/* Dimension k, fastest first. */
#define DIM(k) (order == MPI_ORDER_C ? ndims - 1 - (k) : (k))
	int64_t step = m->extent;     /* bytes from one index to the next */
	MPI_Datatype t = oldtype, u;  /* the faster dimensions' type */
	for (int k = 0; k < ndims; k++) {
		int d = DIM(k);
		int64_t g = gs[d], p = ps[d], below = 1;
		/* This process's coordinate: the grid is row-major. */
		for (int e = d + 1; e < ndims; e++)
			below *= ps[e];
		int64_t c = rank / below % p;
		if (dist[d] == MPI_DISTRIBUTE_CYCLIC) {
			/* count whole blocks of b, then one of rem. */
			int64_t b = darg[d] == MPI_DISTRIBUTE_DFLT_DARG ? 1 :
				darg[d];
			int64_t first = c * b, per = p * b, count = 0, rem = 0;
			if (first < g) {
				int64_t own = (g - first) / per * b +
					((g - first) % per < b ?
					 (g - first) % per : b);
				count = own / b;
				rem = own % b;
			}
			MPI_Datatype parts[2], v = MPI_DATATYPE_NULL;
			int bl[2], n = 0;
			MPI_Aint at[2];
			if (count) {
				make_hvector(r, call, (int)count, (int)b,
					     per * step, t, &v);
				parts[n] = v;
				bl[n] = 1;
				at[n++] = first * step;
			}
			if (rem) {
				parts[n] = t;
				bl[n] = (int)rem;
				at[n++] = (first + count * per) * step;
			}
			make_struct(r, call, 0, n, bl, 0, at, NULL, parts,
				    MPI_DATATYPE_NULL, &u);
			if (count)
				type_drop(v);
		} else {
			/* One block. */
			int64_t b = dist[d] == MPI_DISTRIBUTE_NONE ? g :
				darg[d] == MPI_DISTRIBUTE_DFLT_DARG ?
				(g + p - 1) / p : darg[d];
			int64_t first = dist[d] == MPI_DISTRIBUTE_NONE ? 0 :
				c * b;
			int n = first >= g ? 0 : (int)(g - first < b ?
						       g - first : b);
			MPI_Aint at = n ? first * step : 0;
			make_struct(r, call, 0, 1, &n, 0, &at, NULL, NULL, t,
				    &u);
		}
		if (k)
			type_drop(t);
		make_resized(r, call, u, 0, g * step, &t);
		type_drop(u);
		step *= g;
	}
#undef DIM
	*newtype = t;
	set_env(r, call, t, MPI_COMBINER_DARRAY, 8, (ipiece[]){
			{ 1, &size }, { 1, &rank }, { 1, &ndims },
			{ ndims, gs }, { ndims, dist }, { ndims, darg },
			{ ndims, ps }, { 1, &order } }, 0, NULL, 1, &oldtype);
	return MPI_SUCCESS;
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_dup";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, oldtype, "oldtype");
	check_out(r, call, newtype, "newtype");
	m->refs++;
	MPI_Datatype t = handle_new(r, call, m);
	dt_handle *o = slot(oldtype);
	slot(t)->committed = o ? o->committed : 1;
	set_env(r, call, t, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &oldtype);
	/* The copy callbacks run as the program's code: they may call MPI
	 * (and move the table of handles). */
	int key = 0;
	int rc = emu_attr_type_copy_all(oldtype, t, &key);
	if (rc != MPI_SUCCESS) {
		emu_attr_type_delete_all(r, t, call);
		type_drop(t);
		emu_attr_callback_failed(r, call, "copy", key, rc);
	}
	*newtype = t;
	return MPI_SUCCESS;
}

int MPI_Type_commit(MPI_Datatype *datatype)
{
	EMU_API(r, "MPI_Type_commit");
	check_out(r, "MPI_Type_commit", datatype, "datatype");
	type_arg(r, "MPI_Type_commit", *datatype, "datatype");
	dt_handle *h = slot(*datatype);
	if (h)
		h->committed = 1;
	return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *datatype)
{
	EMU_API(r, "MPI_Type_free");
	check_out(r, "MPI_Type_free", datatype, "datatype");
	MPI_Datatype t = *datatype;
	if (is_basic(t))
		emu_mpi_error(r, "MPI_Type_free", MPI_ERR_TYPE, "%s is a "
			      "predefined datatype and cannot be freed",
			      prims[t].name);
	type_arg(r, "MPI_Type_free", t, "datatype");
	if (slot(t)->predef)
		emu_mpi_error(r, "MPI_Type_free", MPI_ERR_TYPE, "%s was made "
			      "by MPI_Type_create_f90_%s: a predefined "
			      "datatype, which cannot be freed", emu_dt_name(t),
			      slot(t)->env->combiner == MPI_COMBINER_F90_REAL ?
			      "real" : slot(t)->env->combiner ==
			      MPI_COMBINER_F90_COMPLEX ? "complex" : "integer");
	/* Its attributes go first, by their delete callbacks (which may
	 * use the type). */
	emu_attr_type_delete_all(r, t, "MPI_Type_free");
	dt_handle *h = slot(t);
	h->state = H_FREED;
	handle_release(h);
	*datatype = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ decoding */

/* The constructor of t, which exists. */
static const dt_env *env_of(MPI_Datatype t)
{
	const dt_env *e = slot(t)->env;
	if (!e)
		emu_fatal("internal error: datatype %d has no constructor", t);
	return e;
}

int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
			  int *num_addresses, int *num_datatypes,
			  int *combiner)
{
	const char *call = "MPI_Type_get_envelope";
	EMU_API(r, call);
	type_arg(r, call, type, "type");
	check_out(r, call, num_integers, "num_integers");
	check_out(r, call, num_addresses, "num_addresses");
	check_out(r, call, num_datatypes, "num_datatypes");
	check_out(r, call, combiner, "combiner");
	if (is_basic(type)) {
		*num_integers = *num_addresses = *num_datatypes = 0;
		*combiner = MPI_COMBINER_NAMED;
		return MPI_SUCCESS;
	}
	const dt_env *e = env_of(type);
	*num_integers = e->ni;
	*num_addresses = e->na;
	*num_datatypes = e->nd;
	*combiner = e->combiner;
	return MPI_SUCCESS;
}

/* The arguments as given; each derived datatype among them comes back
 * as a new handle the program frees (the predefined ones as they are):
 * a type equal to the one the constructor got, with its constructor and
 * committed state, sharing its map. */
int MPI_Type_get_contents(MPI_Datatype mtype, int max_integers,
			  int max_addresses, int max_datatypes,
			  int array_of_integers[], MPI_Aint array_of_addresses[],
			  MPI_Datatype array_of_datatypes[])
{
	const char *call = "MPI_Type_get_contents";
	EMU_API(r, call);
	type_arg(r, call, mtype, "mtype");
	if (is_basic(mtype))
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s is a predefined "
			      "datatype (MPI_COMBINER_NAMED): it has no "
			      "contents", prims[mtype].name);
	const dt_env *e = env_of(mtype);
	static const char *const what[] = { "integers", "addresses",
					    "datatypes" };
	const int max[] = { max_integers, max_addresses, max_datatypes };
	const int need[] = { e->ni, e->na, e->nd };
	const void *out[] = { array_of_integers, array_of_addresses,
			      array_of_datatypes };
	for (int k = 0; k < 3; k++) {
		if (max[k] < need[k])
			emu_mpi_error(r, call, MPI_ERR_ARG, "max_%s = %d, but "
				      "its constructor has %d %s (see "
				      "MPI_Type_get_envelope)", what[k], max[k],
				      need[k], what[k]);
		if (need[k] && !out[k])
			emu_mpi_error(r, call, MPI_ERR_ARG, "array_of_%s is "
				      "NULL", what[k]);
	}
	if (e->ni)
		memcpy(array_of_integers, ENV_I(e), (size_t)e->ni * sizeof(int));
	if (e->na)
		memcpy(array_of_addresses, e->a,
		       (size_t)e->na * sizeof(MPI_Aint));
	for (int32_t k = 0; k < e->nd; k++) {
		MPI_Datatype d = ENV_D(e)[k];
		dt_handle *h = slot(d);
		if (!h || h->predef) {
			array_of_datatypes[k] = d;
			continue;
		}
		/* handle_new may move the table (and e is the slot's). */
		dt_map *m = h->map;
		dt_env *de = h->env;
		uint8_t committed = h->committed;
		m->refs++;
		MPI_Datatype t = handle_new(r, call, m);
		h = slot(t);
		h->committed = committed;
		h->env = de;
		if (de)
			de->refs++;
		array_of_datatypes[k] = t;
	}
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ queries */

/* n as an int, or MPI_UNDEFINED when it does not fit. */
static int int_or_undefined(int64_t n)
{
	return n > INT_MAX || n < INT_MIN ? MPI_UNDEFINED : (int)n;
}

int MPI_Type_size(MPI_Datatype datatype, int *size)
{
	EMU_API(r, "MPI_Type_size");
	dt_map *m = type_arg(r, "MPI_Type_size", datatype, "datatype");
	check_out(r, "MPI_Type_size", size, "size");
	*size = int_or_undefined(m->size);
	return MPI_SUCCESS;
}

int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
	EMU_API(r, "MPI_Type_size_x");
	dt_map *m = type_arg(r, "MPI_Type_size_x", datatype, "datatype");
	check_out(r, "MPI_Type_size_x", size, "size");
	*size = m->size;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb,
			MPI_Aint *extent)
{
	const char *call = "MPI_Type_get_extent";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, datatype, "datatype");
	check_out(r, call, lb, "lb");
	check_out(r, call, extent, "extent");
	*lb = (MPI_Aint)m->lb;
	*extent = (MPI_Aint)m->extent;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb,
			  MPI_Count *extent)
{
	const char *call = "MPI_Type_get_extent_x";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, datatype, "datatype");
	check_out(r, call, lb, "lb");
	check_out(r, call, extent, "extent");
	*lb = m->lb;
	*extent = m->extent;
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
			     MPI_Aint *true_extent)
{
	const char *call = "MPI_Type_get_true_extent";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, datatype, "datatype");
	check_out(r, call, true_lb, "true_lb");
	check_out(r, call, true_extent, "true_extent");
	*true_lb = (MPI_Aint)m->tlb;
	*true_extent = (MPI_Aint)(m->tub - m->tlb);
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
			       MPI_Count *true_extent)
{
	const char *call = "MPI_Type_get_true_extent_x";
	EMU_API(r, call);
	dt_map *m = type_arg(r, call, datatype, "datatype");
	check_out(r, call, true_lb, "true_lb");
	check_out(r, call, true_extent, "true_extent");
	*true_lb = m->tlb;
	*true_extent = m->tub - m->tlb;
	return MPI_SUCCESS;
}

int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
	EMU_API(r, "MPI_Type_extent");
	dt_map *m = type_arg(r, "MPI_Type_extent", datatype, "datatype");
	check_out(r, "MPI_Type_extent", extent, "extent");
	*extent = (MPI_Aint)m->extent;
	return MPI_SUCCESS;
}

int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
	EMU_API(r, "MPI_Type_lb");
	dt_map *m = type_arg(r, "MPI_Type_lb", datatype, "datatype");
	check_out(r, "MPI_Type_lb", displacement, "displacement");
	*displacement = (MPI_Aint)m->lb;
	return MPI_SUCCESS;
}

int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
	EMU_API(r, "MPI_Type_ub");
	dt_map *m = type_arg(r, "MPI_Type_ub", datatype, "datatype");
	check_out(r, "MPI_Type_ub", displacement, "displacement");
	*displacement = (MPI_Aint)(m->lb + m->extent);
	return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
	*address = (MPI_Aint)location;
	return MPI_SUCCESS;
}

int MPI_Address(void *location, MPI_Aint *address)
{
	*address = (MPI_Aint)location;
	return MPI_SUCCESS;
}

MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
	return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
	return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

/* ------------------------------------------------------ counts in a status */

/* Whole elements of m in `bytes', or MPI_UNDEFINED. */
static int64_t count_of(const dt_map *m, long long bytes)
{
	if (!m->size)
		return 0;
	return bytes % m->size ? MPI_UNDEFINED : bytes / m->size;
}

/* Basic elements of m in `bytes', or MPI_UNDEFINED. */
static int64_t elements_of(const dt_map *m, long long bytes)
{
	if (!m->size)
		return 0;
	int64_t n = bytes / m->size * m->nelem;
	int64_t part = elements_part(m, (uint64_t)(bytes % m->size));
	return part < 0 ? MPI_UNDEFINED : n + part;
}

static const dt_map *status_args(emu_rank *r, const char *call,
				 const MPI_Status *status,
				 MPI_Datatype datatype, const void *out)
{
	if (status == MPI_STATUS_IGNORE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "status is "
			      "MPI_STATUS_IGNORE: there are no counts to "
			      "read");
	check_out(r, call, out, "count");
	dt_map *m = type_arg(r, call, datatype, "datatype");
	if (status->sibyl_count < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the status holds a "
			      "negative byte count (%lld): it was not filled "
			      "by a receive", status->sibyl_count);
	return m;
}

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype,
		  int *count)
{
	EMU_API(r, "MPI_Get_count");
	const dt_map *m = status_args(r, "MPI_Get_count", status, datatype,
				      count);
	*count = int_or_undefined(count_of(m, status->sibyl_count));
	return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype,
		     int *count)
{
	EMU_API(r, "MPI_Get_elements");
	const dt_map *m = status_args(r, "MPI_Get_elements", status,
				      datatype, count);
	*count = int_or_undefined(elements_of(m, status->sibyl_count));
	return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
		       MPI_Count *count)
{
	EMU_API(r, "MPI_Get_elements_x");
	const dt_map *m = status_args(r, "MPI_Get_elements_x", status,
				      datatype, count);
	*count = elements_of(m, status->sibyl_count);
	return MPI_SUCCESS;
}

/* The byte count that makes count elements of m: whole copies of the
 * type, then the fewest bytes of one more that hold the rest. */
static long long bytes_of_elements(emu_rank *r, const char *call,
				   const dt_map *m, long long count)
{
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative count %lld",
			      count);
	if (!m->size || !m->nelem)
		return 0;
	long long q = count / m->nelem, rem = count % m->nelem;
	long long bytes = q * m->size;
	for (uint64_t b = 1; rem && b < (uint64_t)m->size; b++)
		if (elements_part(m, b) == rem)
			return bytes + (long long)b;
	return bytes;
}

static int set_elements(const char *call, MPI_Status *status,
			MPI_Datatype datatype, long long count)
{
	EMU_API(r, call);
	if (status == MPI_STATUS_IGNORE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "status is "
			      "MPI_STATUS_IGNORE");
	const dt_map *m = type_arg(r, call, datatype, "datatype");
	status->sibyl_count = bytes_of_elements(r, call, m, count);
	return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype,
			    int count)
{
	return set_elements("MPI_Status_set_elements", status, datatype,
			    count);
}

int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
			      MPI_Count count)
{
	return set_elements("MPI_Status_set_elements_x", status, datatype,
			    count);
}

/* ------------------------------------------------------------- MPI_Pack */

/* The bytes of count elements of t, as an int (MPI_Pack's positions). */
static int packed_bytes(emu_rank *r, const char *call, int count,
			MPI_Datatype t)
{
	check_count(r, call, count);
	int64_t n = (int64_t)count * emu_dt_size(t);
	if (n > INT_MAX)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "%d x %s is %lld bytes; "
			      "MPI_Pack handles at most %d", count,
			      emu_dt_name(t), (long long)n, INT_MAX);
	return (int)n;
}

static void check_position(emu_rank *r, const char *call, const int *pos,
			   int n, int size, const char *buf)
{
	check_out(r, call, pos, "position");
	if (*pos < 0 || *pos > size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "position %d is outside "
			      "the %s buffer of %d bytes", *pos, buf, size);
	if (n > size - *pos)
		emu_mpi_error(r, call, MPI_ERR_TRUNCATE, "%d bytes at "
			      "position %d do not fit the %s buffer of %d "
			      "bytes", n, *pos, buf, size);
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
	     void *outbuf, int outsize, int *position, MPI_Comm comm)
{
	const char *call = "MPI_Pack";
	EMU_API(r, call);
	emu_comm_get(r, comm, call);
	emu_dt_check(r, call, datatype);
	int n = packed_bytes(r, call, incount, datatype);
	check_position(r, call, position, n, outsize, "output");
	if (n && !outbuf)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "outbuf is NULL");
	if (n)
		emu_dt_pack(inbuf, incount, datatype,
			    (char *)outbuf + *position);
	*position += n;
	return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype datatype, MPI_Comm comm)
{
	const char *call = "MPI_Unpack";
	EMU_API(r, call);
	emu_comm_get(r, comm, call);
	emu_dt_check(r, call, datatype);
	int n = packed_bytes(r, call, outcount, datatype);
	check_position(r, call, position, n, insize, "input");
	if (n && !inbuf)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "inbuf is NULL");
	if (n)
		emu_dt_unpack((const char *)inbuf + *position, (uint64_t)n,
			      outbuf, outcount, datatype);
	*position += n;
	return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
		  int *size)
{
	const char *call = "MPI_Pack_size";
	EMU_API(r, call);
	emu_comm_get(r, comm, call);
	emu_dt_check(r, call, datatype);
	check_out(r, call, size, "size");
	*size = packed_bytes(r, call, incount, datatype);
	return MPI_SUCCESS;
}

/* ---------------------------------------------------- external32 packing */

/*
 * "external32" (MPI-3.1 13.5.2): every value big-endian, at its standard
 * size whatever the machine's -- MPI_LONG and MPI_UNSIGNED_LONG in 4
 * bytes, MPI_WCHAR in 2, MPI_C_BOOL in 1, MPI_AINT, MPI_OFFSET and
 * MPI_COUNT in 8, MPI_LONG_DOUBLE in 16 (IEEE quadruple precision) --,
 * with no padding.  A value that does not fit its external size (a long
 * beyond 32 bits, a wide character beyond U+FFFF) is an MPI_ERR_ARG
 * error rather than silently cut.  Each primitive is one or two fields
 * (pair and complex types), in the order of its data.
 */
enum { X_COPY, X_INT, X_UINT, X_FLOAT, X_LDBL, X_BOOL };

static const struct xprim {
	uint8_t n;                   /* fields */
	struct { uint8_t kind, nsize, esize; } f[2]; /* native, external */
} xprims[P_COUNT] = {
#define X1(t, k, ns, es) [t] = { 1, { { k, ns, es } } }
#define X2(t, k, ns, es, k2, ns2, es2) \
	[t] = { 2, { { k, ns, es }, { k2, ns2, es2 } } }
	X1(MPI_CHAR, X_COPY, 1, 1),
	X1(MPI_SIGNED_CHAR, X_COPY, 1, 1),
	X1(MPI_UNSIGNED_CHAR, X_COPY, 1, 1),
	X1(MPI_BYTE, X_COPY, 1, 1),
	X1(MPI_SHORT, X_INT, sizeof(short), 2),
	X1(MPI_UNSIGNED_SHORT, X_UINT, sizeof(short), 2),
	X1(MPI_INT, X_INT, sizeof(int), 4),
	X1(MPI_UNSIGNED, X_UINT, sizeof(int), 4),
	X1(MPI_LONG, X_INT, sizeof(long), 4),
	X1(MPI_UNSIGNED_LONG, X_UINT, sizeof(long), 4),
	X1(MPI_LONG_LONG_INT, X_INT, sizeof(long long), 8),
	X1(MPI_UNSIGNED_LONG_LONG, X_UINT, sizeof(long long), 8),
	X1(MPI_FLOAT, X_FLOAT, 4, 4),
	X1(MPI_DOUBLE, X_FLOAT, 8, 8),
	X1(MPI_LONG_DOUBLE, X_LDBL, sizeof(long double), 16),
	X1(MPI_WCHAR, X_UINT, 4, 2),
	X1(MPI_C_BOOL, X_BOOL, sizeof(_Bool), 1),
	X1(MPI_INT8_T, X_COPY, 1, 1),
	X1(MPI_INT16_T, X_INT, 2, 2),
	X1(MPI_INT32_T, X_INT, 4, 4),
	X1(MPI_INT64_T, X_INT, 8, 8),
	X1(MPI_UINT8_T, X_COPY, 1, 1),
	X1(MPI_UINT16_T, X_UINT, 2, 2),
	X1(MPI_UINT32_T, X_UINT, 4, 4),
	X1(MPI_UINT64_T, X_UINT, 8, 8),
	X1(MPI_AINT, X_INT, sizeof(MPI_Aint), 8),
	X1(MPI_OFFSET, X_INT, sizeof(MPI_Offset), 8),
	X1(MPI_COUNT, X_INT, sizeof(MPI_Count), 8),
	X1(MPI_PACKED, X_COPY, 1, 1),
	X2(MPI_FLOAT_INT, X_FLOAT, 4, 4, X_INT, sizeof(int), 4),
	X2(MPI_DOUBLE_INT, X_FLOAT, 8, 8, X_INT, sizeof(int), 4),
	X2(MPI_LONG_INT, X_INT, sizeof(long), 4, X_INT, sizeof(int), 4),
	X2(MPI_2INT, X_INT, sizeof(int), 4, X_INT, sizeof(int), 4),
	/* MPI_SHORT_INT's data is its two parts, below. */
	X2(MPI_LONG_DOUBLE_INT, X_LDBL, sizeof(long double), 16, X_INT,
	   sizeof(int), 4),
	X2(MPI_C_FLOAT_COMPLEX, X_FLOAT, 4, 4, X_FLOAT, 4, 4),
	X2(MPI_C_DOUBLE_COMPLEX, X_FLOAT, 8, 8, X_FLOAT, 8, 8),
	X1(P_SHORT_INT_LO, X_INT, sizeof(short), 2),
	X1(P_SHORT_INT_HI, X_INT, sizeof(int), 4),
#undef X1
#undef X2
};

/* External bytes of one primitive p. */
static int64_t x_bytes(int p)
{
	return xprims[p].f[0].esize + (xprims[p].n > 1 ? xprims[p].f[1].esize :
				       0);
}

/* External bytes of one element of m. */
static int64_t x_size(const dt_map *m)
{
	int64_t n = 0;
	for (uint32_t j = 0; j < m->nruns; j++)
		n += m->runs[j].len / prims[m->runs[j].prim].size *
			x_bytes(m->runs[j].prim);
	return n * m->nrep;
}

static void put_be(unsigned char *x, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		x[i] = (unsigned char)v;
}

static uint64_t get_be(const unsigned char *x, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | x[i];
	return v;
}

/* The n-byte native integer at p, zero- or sign-extended. */
static uint64_t get_native(const char *p, int n, int sign)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	switch (n) {
	case 1:
		memcpy(&u8, p, 1);
		return sign ? (uint64_t)(int64_t)(int8_t)u8 : u8;
	case 2:
		memcpy(&u16, p, 2);
		return sign ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		memcpy(&u32, p, 4);
		return sign ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

static void put_native(char *p, uint64_t v, int n)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;
	switch (n) {
	case 1: memcpy(p, &u8, 1); break;
	case 2: memcpy(p, &u16, 2); break;
	case 4: memcpy(p, &u32, 4); break;
	default: memcpy(p, &v, 8); break;
	}
}

/* v (sign-extended when `sign') fits n bytes. */
static int fits(uint64_t v, int n, int sign)
{
	if (n >= 8)
		return 1;
	if (!sign)
		return v >> (8 * n) == 0;
	int64_t s = (int64_t)v, lim = (int64_t)1 << (8 * n - 1);
	return s >= -lim && s < lim;
}

/*
 * long double <-> IEEE quadruple precision, big-endian.  x87's 80-bit
 * extended format has the same sign and exponent (15 bits, bias 16383)
 * and an explicit integer bit before 63 fraction bits, which become the
 * top of quadruple's 112 (the rest zero; unpacking drops them, so a
 * value that came from an x87 long double comes back exactly).  Where
 * long double is quadruple precision already, it is only swapped.
 */
#if LDBL_MANT_DIG == 64 && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define X_LDBL_OK 1
static void ldbl_out(const char *p, unsigned char *x)
{
	uint64_t mant;
	uint16_t se;
	memcpy(&mant, p, 8);
	memcpy(&se, p + 8, 2);
	uint64_t frac = mant & 0x7fffffffffffffffULL;
	put_be(x, (uint64_t)se << 48 | frac >> 15, 8);
	put_be(x + 8, frac << 49, 8);
}

static void ldbl_in(const unsigned char *x, char *p)
{
	uint64_t hi = get_be(x, 8), lo = get_be(x + 8, 8);
	uint16_t se = (uint16_t)(hi >> 48);
	uint64_t top = hi & 0xffffffffffffULL;
	uint64_t frac = top << 15 | lo >> 49;
	if ((se & 0x7fff) == 0x7fff && !frac && (top || lo))
		frac = 1ULL << 62;  /* a NaN stays one */
	uint64_t mant = frac | (uint64_t)((se & 0x7fff) != 0) << 63;
	memset(p, 0, sizeof(long double));
	memcpy(p, &mant, 8);
	memcpy(p + 8, &se, 2);
}
#elif LDBL_MANT_DIG == 113
#define X_LDBL_OK 1
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { LDBL_HI = 8, LDBL_LO = 0 };
#else
enum { LDBL_HI = 0, LDBL_LO = 8 };
#endif
static void ldbl_out(const char *p, unsigned char *x)
{
	uint64_t hi, lo;
	memcpy(&hi, p + LDBL_HI, 8);
	memcpy(&lo, p + LDBL_LO, 8);
	put_be(x, hi, 8);
	put_be(x + 8, lo, 8);
}

static void ldbl_in(const unsigned char *x, char *p)
{
	uint64_t hi = get_be(x, 8), lo = get_be(x + 8, 8);
	memcpy(p + LDBL_HI, &hi, 8);
	memcpy(p + LDBL_LO, &lo, 8);
}
#else
#define X_LDBL_OK 0
static void ldbl_out(const char *p, unsigned char *x)
{
	(void)p;
	(void)x;
}

static void ldbl_in(const unsigned char *x, char *p)
{
	(void)p;
	(void)x;
}
#endif

/* Where a conversion is: for the message of one that fails. */
typedef struct x_ctx {
	emu_rank *r;
	const char *call;
	int unpack;
} x_ctx;

static void x_fail(const x_ctx *c, int prim, uint64_t v, int sign, int n)
{
	if (prim == MPI_LONG_DOUBLE || prim == MPI_LONG_DOUBLE_INT)
		emu_mpi_error(c->r, c->call, MPI_ERR_UNSUPPORTED_OPERATION,
			      "this machine's long double is neither x87 "
			      "extended nor IEEE quadruple precision, which "
			      "external32's %s needs", prims[prim].name);
	emu_mpi_error(c->r, c->call, MPI_ERR_ARG, "%s %s %s%llu%s does "
		      "not fit %s's %d bytes", c->unpack ? "unpacking" :
		      "packing", prims[prim].name, sign &&
		      (int64_t)v < 0 ? "-" : "", sign && (int64_t)v < 0 ?
		      -(unsigned long long)v : (unsigned long long)v,
		      c->unpack ? " from external32" : "", c->unpack ?
		      "the machine" : "external32", n);
}

/* Pack (or unpack) the n primitives p at native *np and external *xp,
 * moving both on. */
static void x_run(const x_ctx *c, int prim, int64_t n, char **np,
		  unsigned char **xp)
{
	const struct xprim *xp_ = &xprims[prim];
	char *p = *np;
	unsigned char *x = *xp;
	for (int64_t i = 0; i < n; i++)
		for (int k = 0; k < xp_->n; k++) {
			int kind = xp_->f[k].kind, ns = xp_->f[k].nsize,
				es = xp_->f[k].esize;
			int sign = kind == X_INT;
			uint64_t v;
			switch (kind) {
			case X_COPY:
				if (c->unpack)
					memcpy(p, x, (size_t)ns);
				else
					memcpy(x, p, (size_t)ns);
				break;
			case X_BOOL:
				if (c->unpack)
					*p = x[0] != 0;
				else
					x[0] = *p != 0;
				break;
			case X_LDBL:
				if (!X_LDBL_OK)
					x_fail(c, prim, 0, 0, es);
				if (c->unpack)
					ldbl_in(x, p);
				else
					ldbl_out(p, x);
				break;
			default: /* X_INT, X_UINT, X_FLOAT */
				if (c->unpack) {
					v = get_be(x, es);
					if (sign && es < 8 &&
					    v >> (8 * es - 1) & 1)
						v |= ~0ULL << (8 * es);
					if (ns < es && !fits(v, ns, sign))
						x_fail(c, prim, v, sign, ns);
					put_native(p, v, ns);
				} else {
					v = get_native(p, ns, sign);
					if (es < ns && !fits(v, es, sign))
						x_fail(c, prim, v, sign, es);
					put_be(x, v, es);
				}
			}
			p += ns;
			x += es;
		}
	*np = p;
	*xp = x;
}

/* Pack (unpack) count elements of m at buf into (from) external32 at x. */
static void x_walk(const x_ctx *c, const dt_map *m, const void *buf,
		   int64_t count, unsigned char *x)
{
	for (int64_t i = 0; i < count; i++) {
		char *e = at(buf, i * m->extent);
		for (int64_t k = 0; k < m->nrep; k++, e = at(e, m->rstride))
			for (uint32_t j = 0; j < m->nruns; j++) {
				const dt_run *u = &m->runs[j];
				char *p = at(e, u->disp);
				x_run(c, u->prim, u->len / prims[u->prim].size,
				      &p, &x);
			}
	}
}

/* The datarep argument: "external32", the one MPI defines. */
static void check_datarep(emu_rank *r, const char *call, const char *rep)
{
	if (!rep)
		emu_mpi_error(r, call, MPI_ERR_ARG, "datarep is NULL");
	if (strcmp(rep, "external32"))
		emu_mpi_error(r, call, MPI_ERR_ARG, "datarep \"%s\" is not "
			      "\"external32\"", rep);
}

/* The external32 bytes of count elements of t. */
static int64_t x_count(emu_rank *r, const char *call, int count,
		       MPI_Datatype t)
{
	check_count(r, call, count);
	emu_dt_check(r, call, t);
	return count * x_size(map_of(t));
}

static void check_xposition(emu_rank *r, const char *call,
			    const MPI_Aint *pos, int64_t n, MPI_Aint size,
			    const char *buf)
{
	check_out(r, call, pos, "position");
	if (*pos < 0 || *pos > size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "position %lld is outside "
			      "the %s buffer of %lld bytes", (long long)*pos,
			      buf, (long long)size);
	if (n > size - *pos)
		emu_mpi_error(r, call, MPI_ERR_TRUNCATE, "%lld bytes at "
			      "position %lld do not fit the %s buffer of %lld "
			      "bytes", (long long)n, (long long)*pos, buf,
			      (long long)size);
}

/* Pack (unpack) count elements of t at user to (from) the external32
 * buffer x of xsize bytes, at *position. */
static int x_pack(const char *call, int unpack, const char *datarep,
		  const void *user, int count, MPI_Datatype t, const void *x,
		  MPI_Aint xsize, MPI_Aint *position)
{
	EMU_API(r, call);
	check_datarep(r, call, datarep);
	int64_t n = x_count(r, call, count, t);
	check_xposition(r, call, position, n, xsize, unpack ? "input" :
			"output");
	if (n && !x)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "%s is NULL", unpack ?
			      "inbuf" : "outbuf");
	x_ctx c = { r, call, unpack };
	x_walk(&c, map_of(t), user, count,
	       (unsigned char *)(uintptr_t)x + *position);
	*position += (MPI_Aint)n;
	return MPI_SUCCESS;
}

int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
		      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
		      MPI_Aint *position)
{
	return x_pack("MPI_Pack_external", 0, datarep, inbuf, incount,
		      datatype, outbuf, outsize, position);
}

int MPI_Unpack_external(const char datarep[], const void *inbuf,
			MPI_Aint insize, MPI_Aint *position, void *outbuf,
			int outcount, MPI_Datatype datatype)
{
	return x_pack("MPI_Unpack_external", 1, datarep, outbuf, outcount,
		      datatype, inbuf, insize, position);
}

int MPI_Pack_external_size(const char datarep[], int incount,
			   MPI_Datatype datatype, MPI_Aint *size)
{
	const char *call = "MPI_Pack_external_size";
	EMU_API(r, call);
	check_datarep(r, call, datarep);
	check_out(r, call, size, "size");
	*size = (MPI_Aint)x_count(r, call, incount, datatype);
	return MPI_SUCCESS;
}

/* ------------------------------------------------- Fortran kinds, sizes */

/*
 * MPI_Type_create_f90_real, _complex and _integer return predefined
 * types (never freed) whose envelope is MPI_COMBINER_F90_* with (p, r)
 * as given, one per (p, r) -- only a type made with the same values
 * matches it -- and whose data is the C type of the smallest kind
 * gfortran's SELECTED_REAL_KIND (SELECTED_INT_KIND) picks: float,
 * double, long double (gfortran's REAL(10) on x86, REAL(16) where long
 * double is quadruple precision); int8_t .. int64_t.  No C datatype of
 * Sibyl holds a complex of long double or a 128-bit integer: those are
 * MPI_ERR_ARG errors, like a (p, r) no kind has.
 */
#define RANGE(m) ((m##_MAX_10_EXP) < -(m##_MIN_10_EXP) ? (m##_MAX_10_EXP) : \
		  -(m##_MIN_10_EXP))
static const struct {
	int digits, range;
	MPI_Datatype real, complex;
} f90_reals[] = {
	{ FLT_DIG, RANGE(FLT), MPI_FLOAT, MPI_C_FLOAT_COMPLEX },
	{ DBL_DIG, RANGE(DBL), MPI_DOUBLE, MPI_C_DOUBLE_COMPLEX },
	{ LDBL_DIG, RANGE(LDBL), MPI_LONG_DOUBLE, MPI_DATATYPE_NULL },
};
#undef RANGE

/* The type MPI_Type_create_f90_* gives for (comb, p, r), of basic type
 * `basic', made at the first call. */
static MPI_Datatype f90_type(emu_rank *r, const char *call, int comb, int p,
			     int rr, MPI_Datatype basic)
{
	for (uint32_t i = 0; i < emu.dt.nf90; i++) {
		const dt_f90 *f = &emu.dt.f90[i];
		if (f->combiner == comb && f->p == p && f->r == rr)
			return f->type;
	}
	dt_f90 *f = realloc(emu.dt.f90, (emu.dt.nf90 + 1) * sizeof *f);
	if (!f)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for another "
			      "datatype");
	emu.dt.f90 = f;
	dt_map *m = basic_map(basic);
	m->refs++;
	MPI_Datatype t = handle_new(r, call, m);
	dt_handle *h = slot(t);
	h->predef = 1;
	h->committed = 1;
	int pr[2] = { p, rr };
	int integer = comb == MPI_COMBINER_F90_INTEGER;
	set_env(r, call, t, comb, 1, (ipiece[]){ { integer ? 1 : 2,
				integer ? &rr : pr } }, 0, NULL, 0, NULL);
	emu.dt.f90[emu.dt.nf90++] = (dt_f90){ comb, p, rr, t };
	return t;
}

/* "any" for MPI_UNDEFINED, else the number. */
static const char *f90_arg(int v, char *buf, size_t len)
{
	if (v == MPI_UNDEFINED)
		return "any";
	snprintf(buf, len, "%d", v);
	return buf;
}

static int f90_float(const char *call, int comb, int p, int rr,
		     MPI_Datatype *newtype)
{
	EMU_API(r, call);
	check_out(r, call, newtype, "newtype");
	if (p == MPI_UNDEFINED && rr == MPI_UNDEFINED)
		emu_mpi_error(r, call, MPI_ERR_ARG, "p and r are both "
			      "MPI_UNDEFINED");
	for (size_t i = 0; i < sizeof f90_reals / sizeof *f90_reals; i++) {
		if ((p != MPI_UNDEFINED && p > f90_reals[i].digits) ||
		    (rr != MPI_UNDEFINED && rr > f90_reals[i].range))
			continue;
		MPI_Datatype b = comb == MPI_COMBINER_F90_REAL ?
			f90_reals[i].real : f90_reals[i].complex;
		if (b == MPI_DATATYPE_NULL)
			emu_mpi_error(r, call, MPI_ERR_ARG, "precision %d and "
				      "range %d need a complex of long double, "
				      "which is no datatype of Sibyl", p, rr);
		*newtype = f90_type(r, call, comb, p, rr, b);
		return MPI_SUCCESS;
	}
	char pb[16], rb[16];
	return emu_mpi_error(r, call, MPI_ERR_ARG, "no real kind has %s "
			     "decimal digits of precision and a decimal "
			     "exponent range of %s", f90_arg(p, pb, sizeof pb),
			     f90_arg(rr, rb, sizeof rb));
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
	return f90_float("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p,
			 r, newtype);
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
	return f90_float("MPI_Type_create_f90_complex",
			 MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_create_f90_integer";
	EMU_API(rk, call);
	check_out(rk, call, newtype, "newtype");
	/* The decimal digits each integer type holds whole. */
	static const struct { int range; MPI_Datatype type; } ints[] = {
		{ 2, MPI_INT8_T }, { 4, MPI_INT16_T }, { 9, MPI_INT32_T },
		{ 18, MPI_INT64_T },
	};
	for (size_t i = 0; r != MPI_UNDEFINED && i < 4; i++)
		if (r <= ints[i].range) {
			*newtype = f90_type(rk, call, MPI_COMBINER_F90_INTEGER,
					    MPI_UNDEFINED, r, ints[i].type);
			return MPI_SUCCESS;
		}
	char rb[16];
	return emu_mpi_error(rk, call, MPI_ERR_ARG, "no integer kind has a "
			     "decimal exponent range of %s (at most 18)",
			     f90_arg(r, rb, sizeof rb));
}

/* The predefined type of `typeclass' whose elements have `size' bytes:
 * the C types the Fortran ones are in Sibyl (MPI_REAL8 is MPI_DOUBLE,
 * MPI_INTEGER4 is MPI_INT32_T, MPI_COMPLEX16 is MPI_C_DOUBLE_COMPLEX). */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type)
{
	const char *call = "MPI_Type_match_size";
	EMU_API(r, call);
	check_out(r, call, type, "type");
	static const MPI_Datatype cands[] = {
		MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
		MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE,
		MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
	};
	int first = typeclass == MPI_TYPECLASS_INTEGER ? 0 :
		typeclass == MPI_TYPECLASS_REAL ? 4 :
		typeclass == MPI_TYPECLASS_COMPLEX ? 7 : -1;
	int end = first == 0 ? 4 : first == 4 ? 7 : 9;
	if (first < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "typeclass %d is not "
			      "MPI_TYPECLASS_INTEGER, _REAL or _COMPLEX",
			      typeclass);
	for (int i = first; i < end; i++)
		if (prims[cands[i]].size == size) {
			*type = cands[i];
			return MPI_SUCCESS;
		}
	return emu_mpi_error(r, call, MPI_ERR_ARG, "no %s datatype has %d "
			     "bytes", first == 0 ? "integer" : first == 4 ?
			     "real" : "complex", size);
}

/* ---------------------------------------------------------------- names */

int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
	const char *call = "MPI_Type_set_name";
	EMU_API(r, call);
	type_arg(r, call, datatype, "datatype");
	check_out(r, call, type_name, "type_name");
	char *nm = strndup(type_name, MPI_MAX_OBJECT_NAME - 1);
	if (!nm)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for the "
			      "name");
	char **slotp = is_basic(datatype) ? &emu.dt.basic_names[datatype] :
		&slot(datatype)->name;
	free(*slotp);
	*slotp = nm;
	return MPI_SUCCESS;
}

int MPI_Type_get_name(MPI_Datatype datatype, char *type_name,
		      int *resultlen)
{
	const char *call = "MPI_Type_get_name";
	EMU_API(r, call);
	type_arg(r, call, datatype, "datatype");
	check_out(r, call, type_name, "type_name");
	check_out(r, call, resultlen, "resultlen");
	const char *n = is_basic(datatype) ? (emu.dt.basic_names[datatype] ?
		emu.dt.basic_names[datatype] : prims[datatype].name) :
		slot(datatype)->name;
	if (!n)
		n = "";
	snprintf(type_name, MPI_MAX_OBJECT_NAME, "%s", n);
	*resultlen = (int)strlen(type_name);
	return MPI_SUCCESS;
}
