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
 * (emu.node_size, SIBYL_NODE_SIZE, `--node-size').
 */
#ifndef SIBYL_EMU_COLL_H
#define SIBYL_EMU_COLL_H

#include <stdint.h>

struct emu_rank;
struct emu_req;

/* Parse SIBYL_COLL (a clear fatal error on a bad name) and register the
 * hooks point-to-point advances, releases and describes non-blocking
 * collectives through (emu_p2p.h); called once by main() before any rank
 * runs. */
void emu_coll_init(void);
void emu_coll_fini(void);


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
