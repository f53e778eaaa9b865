/*
 * emu_dt.h -- datatypes of virtual ranks (datatype.c).
 *
 * A datatype is a handle into one process-wide table: the basic types
 * (1 .. SIBYL_MPI_NBASIC_TYPES-1, fixed) and the derived types the ranks
 * create (handles above those, reused after MPI_Type_free once nothing
 * refers to them).  A derived type is stored flattened: a list of
 * (displacement, basic type, count) runs in type-map order, plus its
 * lower bound, extent and true extent, so packing walks a flat list; its
 * handle also keeps the constructor and its arguments
 * (MPI_Type_get_contents).
 *
 * Every message travels packed (the data of count elements, in type-map
 * order, without holes): the sender packs unless the buffer is
 * contiguous, the receiver unpacks.  A receive of fewer bytes than its
 * capacity unpacks only those.
 */
#ifndef SIBYL_EMU_DT_H
#define SIBYL_EMU_DT_H

#include <stdint.h>

struct emu_rank;
struct emu_attr;

/* Bytes of data in one element of t, or -1 if t is not a datatype. */
int64_t emu_dt_size(MPI_Datatype t);
/* Lower bound and extent of t (MPI_Type_get_extent). */
MPI_Aint emu_dt_lb(MPI_Datatype t);
MPI_Aint emu_dt_extent(MPI_Datatype t);
/* t usable for communication: a basic type or a committed derived type;
 * else an MPI_ERR_TYPE error naming `call' (MPI_DATATYPE_NULL, freed,
 * not committed, not a datatype). */
void emu_dt_check(struct emu_rank *r, const char *call, MPI_Datatype t);
/* 1 when count elements of t starting at buf are count * size bytes in
 * a row at buf (lb 0, no holes, extent == size): no packing needed. */
int emu_dt_contiguous(MPI_Datatype t);
/* Pack count elements of t at buf into out (count * size bytes). */
void emu_dt_pack(const void *buf, int64_t count, MPI_Datatype t, void *out);
/* Unpack the first `bytes' packed bytes (at most count * size) into
 * count elements of t at buf. */
void emu_dt_unpack(const void *in, uint64_t bytes, void *buf, int64_t count,
		   MPI_Datatype t);
/* The bytes count elements of t occupy, in type-map order -- the order
 * they pack in: f(arg, disp, len) for each run of len bytes at disp
 * bytes from the buffer's address.  One-sided operations send them to
 * the target, whose datatype handles are not the origin's. */
void emu_dt_runs(MPI_Datatype t, int64_t count,
		 void (*f)(void *arg, int64_t disp, int64_t len), void *arg);
/* A pending operation that will unpack into t later (a receive, a
 * collective) retains t, so that an MPI_Type_free meanwhile -- which MPI
 * allows -- keeps its map and its handle until the operation releases it
 * (no-ops for basic types). */
void emu_dt_retain(MPI_Datatype t);
void emu_dt_release(MPI_Datatype t);
/* The one basic type all of t's data is made of (pair types such as
 * MPI_DOUBLE_INT count as basic), with the number of those per element
 * of t in *n; MPI_DATATYPE_NULL when t mixes basic types.  Reductions
 * use it: a reduction over count elements of t is one over count * n
 * elements of the basic type, on packed data.  (Packed, a pair type such
 * as MPI_DOUBLE_INT is sizeof(T) + sizeof(int) bytes, the int right after
 * the T, not the padded C struct; MPI_DATATYPE_NULL with *n = 0 also for
 * a type without data.) */
MPI_Datatype emu_dt_basic(MPI_Datatype t, int64_t *n);
/* "MPI_DOUBLE", "derived datatype 41", ... for messages. */
const char *emu_dt_name(MPI_Datatype t);
/* For attr.c: t exists (committed or not), else an MPI_ERR_TYPE error
 * naming `call'; the head of t's attribute list (a predefined type's
 * are the process's), valid until the program's code runs again (an
 * attribute callback may move it). */
void emu_dt_attr_check(struct emu_rank *r, const char *call, MPI_Datatype t);
struct emu_attr **emu_dt_attrs(MPI_Datatype t);
/* Free the table at the end of the run. */
void emu_dt_fini(void);

/* --------------------------------------------- the process's state */

/* datatype.c's type being flattened (see dt_build there). */
struct emu_dt_build {
	struct dt_run *runs;
	uint32_t n, cap;
	int64_t nrep, rstride;
	int64_t size, nelem;
	int64_t lb, ub, tlb, tub;
	int has_bounds, has_data, marked, align;
	int32_t basic;          /* -1: none yet */
	const char *err;        /* what went wrong, or NULL */
	int err_code;           /* its MPI error class */
};

/* datatype.c's hash tables of shared objects: chains of nodes, each the
 * first member of its object. */
struct emu_dt_node {
	struct emu_dt_node *hnext;
	uint64_t hash;
};
struct emu_dt_table {
	struct emu_dt_node **b;
	uint32_t nb, n;          /* buckets, objects */
};

/* datatype.c: emu.dt, the process's table of types. */
typedef struct emu_dt_state {
	struct emu_dt_table maps; /* every live map */
	struct emu_dt_table envs; /* every type's constructor */
	struct dt_map *basic_maps[SIBYL_MPI_NBASIC_TYPES];
	struct dt_handle *handles; /* slot i is handle NBASIC + i */
	uint32_t nhandles, chandles;
	int32_t free_head, free_tail; /* free slots, -1: none */
	char *basic_names[SIBYL_MPI_NBASIC_TYPES]; /* renamed basics */
	struct emu_attr *basic_attrs[SIBYL_MPI_NBASIC_TYPES];
	/* The types MPI_Type_create_f90_* made, one per (combiner, p, r):
	 * predefined, never freed. */
	struct dt_f90 *f90;
	uint32_t nf90;
	struct emu_dt_build build;
	/* emu_dt_name's answers: the last four stay valid. */
	char names[4][MPI_MAX_OBJECT_NAME + 32];
	unsigned next_name;
} emu_dt_state;
#define EMU_DT_STATE_INIT { .free_head = -1, .free_tail = -1 }

#endif /* SIBYL_EMU_DT_H */
