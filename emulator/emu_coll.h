/*
 * emu_coll.h -- collective operations of virtual ranks as algorithms over
 * point-to-point messages (coll.c and its algorithm files), reduction
 * operations (op.c).
 *
 * A collective is a schedule: rounds of sends and receives on the
 * communicator's collective context (ctx + 1, tag = the communicator's
 * collective sequence number, so instances never mix), with local steps
 * (reduce, copy) between rounds.  Every round whose receives completed
 * cuts the rank's SEB (emu_rec_step), so the trace carries the
 * algorithm's real dependencies: a message forwarded in a tree leaves
 * after the one it forwards arrived.
 *
 * Blocking collectives run their schedule to completion; non-blocking
 * ones return a request (kind REQ_COLL) that MPI_Wait/Test... advance,
 * and that point-to-point advances, through the hooks of emu_p2p.h,
 * whenever its owner wakes up inside any blocking MPI call (MPI's
 * progress rule).
 *
 * Algorithms are chosen per collective: SIBYL_COLL (e.g.
 * "allreduce=ring,alltoall=percs"; set by `sibyl emulate --coll'), else a
 * default by message size and communicator size, like Open MPI's tuned
 * component.  The PERCS-aware all-to-all needs the node size
 * (emu.node_size, SIBYL_NODE_SIZE, `--node-size').  The neighbourhood
 * collectives have one schedule, one round with the neighbours that the
 * communicator's topology gives (emu_topo_neighbors).
 */
#ifndef SIBYL_EMU_COLL_H
#define SIBYL_EMU_COLL_H

#include <stdint.h>

struct emu_rank;
struct emu_req;

/* The collectives, in the order of SIBYL_COLL's names. */
enum coll_kind {
	COLL_BARRIER,
	COLL_BCAST,
	COLL_REDUCE,
	COLL_ALLREDUCE,
	COLL_SCAN,
	COLL_EXSCAN,
	COLL_GATHER,
	COLL_GATHERV,
	COLL_SCATTER,
	COLL_SCATTERV,
	COLL_ALLGATHER,
	COLL_ALLGATHERV,
	COLL_ALLTOALL,
	COLL_ALLTOALLV,
	COLL_ALLTOALLW,
	COLL_REDUCE_SCATTER,
	COLL_REDUCE_SCATTER_BLOCK,
	COLL_NKINDS,
	/* The neighbourhood collectives have one schedule, not chosen. */
	COLL_NEIGHBOR_ALLGATHER = COLL_NKINDS,
	COLL_NEIGHBOR_ALLGATHERV,
	COLL_NEIGHBOR_ALLTOALL,
	COLL_NEIGHBOR_ALLTOALLV,
	COLL_NEIGHBOR_ALLTOALLW
};

/* coll*.c: emu.coll, the algorithm SIBYL_COLL chose for each kind (-1:
 * the default), and a buffer for messages of no data. */
typedef struct emu_coll_state {
	int chosen[COLL_NKINDS];
	char nothing[1];
} emu_coll_state;

/* op.c: emu.op, the user operations (MPI_Op_create). */
typedef struct emu_op_state {
	struct user_op *uops;
	uint32_t nuops, cuops;
} emu_op_state;

/* Parse SIBYL_COLL (a clear fatal error on a bad name) and register the
 * hooks point-to-point advances, releases and describes non-blocking
 * collectives through (emu_p2p.h); called once by main() before any rank
 * runs. */
void emu_coll_init(void);
void emu_coll_fini(void);

/* For the one-sided layer (rma.c), inside a call whose SEB has ended
 * (emu_rec_enter): a blocking COLL_ALLGATHER or COLL_ALLTOALL of `bytes'
 * contiguous bytes per rank over communicator comm of r, on its
 * collective context, recorded like the program's own. */
void emu_coll_bytes(struct emu_rank *r, const char *call, int kind,
		    MPI_Comm comm, const void *sbuf, void *rbuf, int bytes);
/* Likewise a blocking MPI_Barrier. */
void emu_coll_barrier(struct emu_rank *r, const char *call, MPI_Comm comm);
/* Likewise a blocking MPI_Reduce_scatter_block of `count' elements of
 * the contiguous basic type t per rank with the predefined op. */
void emu_coll_reduce_block(struct emu_rank *r, const char *call,
			   MPI_Comm comm, const void *sbuf, void *rbuf,
			   int count, MPI_Datatype t, MPI_Op op);


/* ------------------------------------------------------------ op.c */

/* op usable with count elements of t (basic type of t known to the
 * op); else an MPI_ERR_OP error naming `call'. */
void emu_op_check(struct emu_rank *r, const char *call, MPI_Op op,
		  MPI_Datatype t);
int emu_op_commutative(MPI_Op op);
/* inout[i] = in[i] op inout[i], i < count, both in the memory layout of t
 * (for predefined ops t is a basic type; user functions get t itself). */
void emu_op_apply(MPI_Op op, const void *in, void *inout, int count,
		  MPI_Datatype t);
void emu_op_fini(void);

#endif /* SIBYL_EMU_COLL_H */
