/*
 * coll_sched.h -- the collective schedule engine, shared by coll.c (the
 * MPI calls and the engine that runs schedules) and coll_alg.c (the
 * algorithms).  Private to those two files and op.c.
 *
 * A collective in progress is a `coll': its arguments in packed form,
 * the algorithm chosen, and the operations of its current round.  The
 * algorithm is a step function that the engine calls whenever the
 * current round has completed (and once at the start): it does the local
 * work the finished round enables (reduce what arrived, copy), then
 * queues the next round's sends and receives with coll_send/coll_recv and
 * returns 1 -- or returns 0 when the collective is done.  So a schedule
 * is generated one round at a time, and a rank holds only the operations
 * of one round: a pairwise all-to-all on P ranks costs two operations at a
 * time, not 2P.
 *
 * The engine starts a round's receives before its sends, and after every
 * round that received something cuts the rank's SEB (emu_rec_step), so
 * what the next round sends depends, in the trace, on what arrived.
 */
#ifndef SIBYL_COLL_SCHED_H
#define SIBYL_COLL_SCHED_H

#include <stdint.h>

#include "emu_private.h"

typedef struct coll coll;
typedef int coll_step(coll *s);

typedef struct coll_alg {
	const char *name;
	coll_step *step;
} coll_alg;

/* One send or receive of the current round. */
typedef struct coll_op {
	emu_req *q;
	char *buf;
	uint64_t bytes;
	int peer;              /* rank in the communicator */
	uint8_t send;
	uint8_t owned;         /* buf is the op's own temporary */
	/* A receive into a non-contiguous piece of a user buffer: unpacked
	 * there when the round ends. */
	void *ubuf;
	int ucount;
	MPI_Datatype utype;
} coll_op;

/* One side of an all-to-all: the user's buffer and how segment j (for
 * peer j) lies in it.  counts == NULL: every segment is `count' elements
 * of `type', segment j at j * count * extent.  Else counts[j] elements of
 * types[j] (alltoallw; displs in bytes, or adispls for the neighbourhood
 * form) or of `type' (alltoallv; displs in extents of type). */
typedef struct coll_seg {
	char *base;
	int count;
	MPI_Datatype type;
	const int *counts, *displs;
	const MPI_Aint *adispls;
	const MPI_Datatype *types;
} coll_seg;

#define COLL_INLINE_OPS 4

struct coll {
	emu_rank *r;
	const char *call;
	MPI_Comm comm;
	const emu_group *group;
	int rank, size;
	int32_t ctx;
	int tag;
	uint8_t kind;
	uint8_t nb;             /* non-blocking */
	uint8_t done;
	uint8_t busy;           /* being advanced (no re-entry) */
	const coll_alg *alg;
	unsigned rounds;        /* rounds started */

	/* The data (coll.c prepares it; see each collective in coll.c):
	 * sbuf the packed input, rbuf the packed output or working
	 * buffer; gather, scatter, all-gather and all-to-all reach the
	 * user's buffers through sseg and rseg instead. */
	const char *sbuf;
	char *rbuf;
	int root;
	uint8_t in_place;
	uint64_t bytes;         /* bcast: all; gather, scatter, allgather,
	                           alltoall: one block */
	coll_seg sseg, rseg;
	/* Reductions: count elements of esz packed bytes each (emul of
	 * them per element of the user's datatype). */
	MPI_Op op;
	MPI_Datatype rtype;     /* basic type, or the user's type (user op) */
	uint32_t esz;
	uint8_t commute;
	uint8_t layout;         /* user op on a non-contiguous type */
	int64_t count, emul;
	const int *rcounts;     /* reduce_scatter: blocks (user elements);
	                           NULL: `block' each */
	int block;

	/* Algorithm state (coll_alg.c). */
	int phase, i, mask, p2, rem, newrank, lo, hi, pending, peer;
	char *acc, *tmp, *tmp2;
	uint64_t *aux;          /* an offset table of the algorithm */

	/* Temporaries freed when the collective ends (coll_alloc). */
	void *temps;
	uint8_t reduced;        /* the last step reduced something */
	/* Done at the end (unpack into the user's buffer). */
	void (*fini)(coll *s);
	void *ubuf;
	int ucount;
	MPI_Datatype utype;

	/* Neighbourhood collectives: block j of rseg comes from src[j] and
	 * block j of sseg goes to dst[j] (ranks of the communicator or
	 * MPI_PROC_NULL, in MPI's order; neighbour allgathers send sseg's
	 * block 0 to each); cart: the topology is Cartesian. */
	int indeg, outdeg;
	int *src, *dst;
	uint8_t cart;

	/* The current round. */
	coll_op *ops;
	int nops, cops, nrecv;
	coll_op inline_ops[COLL_INLINE_OPS];

	/* Non-blocking: the request, and r->coll_active's list. */
	emu_req *req;
	coll *next, *prev;
};

/* ------------------------------------------- segments (coll_seg.c) */

/* Segment j of g: its element count, datatype, address and bytes. */
int coll_seg_count(const coll_seg *g, int j);
MPI_Datatype coll_seg_type(const coll_seg *g, int j);
char *coll_seg_addr(const coll_seg *g, int j);
uint64_t coll_seg_bytes(const coll_seg *g, int j);
/* Copy segment j of g into packed `out' / from packed `in' into segment
 * j of g. */
void coll_seg_pack(const coll_seg *g, int j, void *out);
void coll_seg_unpack(const coll_seg *g, int j, const void *in);
/* Copy segment j of `from' to segment k of `to' (a local block of a
 * gather, scatter or all-to-all). */
void coll_seg_copy(coll *s, const coll_seg *from, int j, const coll_seg *to,
		   int k);
/* 1 when every segment of g lies packed in order from g->base (segment j
 * at the sum of the sizes before it): algorithms then work in place. */
int coll_seg_flat(const coll_seg *g, int n);

/* ----------------------------------------------- engine (coll.c) */

/* Queue a send / receive of the next round (peer: rank in the
 * communicator). */
void coll_send(coll *s, int peer, const void *buf, uint64_t bytes);
void coll_recv(coll *s, int peer, void *buf, uint64_t bytes);
/* Segment j of an all-to-all side (packed on the fly if needed). */
void coll_send_seg(coll *s, int peer, const coll_seg *g, int j);
void coll_recv_seg(coll *s, int peer, const coll_seg *g, int j);
/* inout = in op inout for n reduction elements (packed). */
void coll_reduce(coll *s, const void *in, void *inout, int64_t n);
/* A temporary of `bytes' (at least 1) freed when the collective ends;
 * out of memory is an MPI_ERR_NO_MEM error of the call. */
void *coll_alloc(coll *s, uint64_t bytes);

/* -------------------------------------------- algorithms (coll_alg.c) */

/*
 * The algorithms of each collective, in one X-macro list per table:
 * X(ID, NAME, FUNCTION), in the order of the table (coll_registry.c),
 * which SIBYL_COLL names them by and whose indices (ID) the defaults
 * choose.  The functions are in coll_alg.c.
 */
#define COLL_ALGS_BARRIER(X) \
	X(BAR_DISS, "dissemination", barrier_dissemination) \
	X(BAR_RD, "recursive_doubling", barrier_recursive_doubling) \
	X(BAR_TREE, "tree", barrier_tree)
#define COLL_ALGS_BCAST(X) \
	X(BC_BIN, "binomial", bcast_binomial) \
	X(BC_SAG, "scatter_allgather", bcast_scatter_allgather) \
	X(BC_LIN, "linear", bcast_linear)
#define COLL_ALGS_REDUCE(X) \
	X(RED_BIN, "binomial", reduce_binomial) \
	X(RED_LIN, "linear", reduce_linear) \
	X(RED_RAB, "rabenseifner", reduce_rabenseifner)
#define COLL_ALGS_ALLREDUCE(X) \
	X(AR_RD, "recursive_doubling", allreduce_recursive_doubling) \
	X(AR_RAB, "rabenseifner", allreduce_rabenseifner) \
	X(AR_RING, "ring", allreduce_ring) \
	X(AR_RB, "reduce_bcast", allreduce_reduce_bcast)
#define COLL_ALGS_SCAN(X) \
	X(SC_RD, "recursive_doubling", scan_recursive_doubling) \
	X(SC_LIN, "linear", scan_linear)
#define COLL_ALGS_GATHER(X) \
	X(GA_BIN, "binomial", gather_binomial) \
	X(GA_LIN, "linear", gather_linear)
#define COLL_ALGS_GATHERV(X) \
	X(GAV_LIN, "linear", gather_linear)
#define COLL_ALGS_SCATTER(X) \
	X(SCA_BIN, "binomial", scatter_binomial) \
	X(SCA_LIN, "linear", scatter_linear)
#define COLL_ALGS_SCATTERV(X) \
	X(SCAV_LIN, "linear", scatter_linear)
#define COLL_ALGS_ALLGATHER(X) \
	X(AG_RD, "recursive_doubling", allgather_recursive_doubling) \
	X(AG_RING, "ring", allgather_ring) \
	X(AG_BRUCK, "bruck", allgather_bruck)
#define COLL_ALGS_ALLTOALL(X) \
	X(A2A_PAIR, "pairwise", alltoall_pairwise) \
	X(A2A_BRUCK, "bruck", alltoall_bruck) \
	X(A2A_LIN, "linear", alltoall_linear) \
	X(A2A_PERCS, "percs", alltoall_percs)
#define COLL_ALGS_ALLTOALLV(X) \
	X(A2AV_PAIR, "pairwise", alltoall_pairwise) \
	X(A2AV_LIN, "linear", alltoall_linear) \
	X(A2AV_PERCS, "percs", alltoall_percs)
#define COLL_ALGS_REDUCE_SCATTER(X) \
	X(RS_HALV, "recursive_halving", reduce_scatter_recursive_halving) \
	X(RS_RSV, "reduce_scatterv", reduce_scatter_reduce_scatterv)

/* Every table: T(LIST, table), its list COLL_ALGS_<LIST> and its name
 * <table>_algs in coll_registry.c. */
#define COLL_ALG_TABLES(T) \
	T(BARRIER, barrier) \
	T(BCAST, bcast) \
	T(REDUCE, reduce) \
	T(ALLREDUCE, allreduce) \
	T(SCAN, scan) \
	T(GATHER, gather) \
	T(GATHERV, gatherv) \
	T(SCATTER, scatter) \
	T(SCATTERV, scatterv) \
	T(ALLGATHER, allgather) \
	T(ALLTOALL, alltoall) \
	T(ALLTOALLV, alltoallv) \
	T(REDUCE_SCATTER, reduce_scatter)

#define COLL_ALG_DECL(id, name, fn) coll_step fn;
#define COLL_ALG_DECLS(list, table) COLL_ALGS_##list(COLL_ALG_DECL)
COLL_ALG_TABLES(COLL_ALG_DECLS)
#undef COLL_ALG_DECLS
#undef COLL_ALG_DECL

/* The neighbourhood collectives' one schedule, not in any table (SIBYL_COLL
 * has nothing to choose): every receive and send in one round. */
extern const coll_alg coll_neighbor_linear;

/* The largest power of two at most n (n >= 1), and whether n is one. */
static inline int coll_pof2_floor(int n)
{
	int p = 1;
	while (p <= n / 2)
		p *= 2;
	return p;
}

static inline int coll_is_pof2(int n)
{
	return (n & (n - 1)) == 0;
}


/* coll_registry.c: parse SIBYL_COLL (fatal error on a bad name or
 * algorithm). */
void coll_alg_init(void);
/* The algorithm of s (its kind, size, data and op are set): the
 * SIBYL_COLL choice, else the size-based default; an algorithm that
 * cannot keep a non-commutative operation's order gives way to one that
 * can.  The same on every rank of the communicator. */
const coll_alg *coll_alg_choose(const coll *s);
const char *coll_kind_name(int kind);

/* -------------------------------------------------------- op.c */

/* A collective holds the user operation it applies, so MPI_Op_free
 * during a non-blocking collective leaves it usable. */
void coll_op_hold(MPI_Op op);
void coll_op_drop(MPI_Op op);

#endif /* SIBYL_COLL_SCHED_H */
