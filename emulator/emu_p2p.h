/*
 * emu_p2p.h -- the collectives' interface to point-to-point (p2p.c).
 *
 * The collectives (coll.c, coll_alg.c, coll_seg.c, coll_registry.c) are
 * a layer above point-to-point: a schedule's rounds are sends and
 * receives of packed bytes between world ranks, on the communicator's
 * collective context, completed like any other request.  This header is
 * all of p2p they may call (tests/emu_layers.sh checks it), so that the
 * matching, the protocols and the requests' bookkeeping can change
 * without the collectives noticing.
 *
 * Point-to-point in turn never calls the collectives by name: what it
 * needs of them -- advance a non-blocking collective, release one whose
 * request is freed, describe one for a deadlock report -- goes through
 * the hooks the collective layer registers at start
 * (emu_p2p_set_coll_hooks, from emu_coll_init), the way the transport
 * reaches p2p through emu_tr_set_upcalls.
 */
#ifndef SIBYL_EMU_P2P_H
#define SIBYL_EMU_P2P_H

#include <stddef.h>
#include <stdint.h>

struct emu_rank;
struct emu_req;

/* A send or receive of `bytes' contiguous bytes between r and world rank
 * `peer' on context ctx (comm: the handle, for reports; a receive's peer
 * may be -1 for any source).  Completes like any other request. */
struct emu_req *emu_p2p_isend_raw(struct emu_rank *r, const char *call,
				  const void *buf, uint64_t bytes,
				  int32_t peer, int32_t ctx, int tag,
				  MPI_Comm comm);
struct emu_req *emu_p2p_irecv_raw(struct emu_rank *r, const char *call,
				  void *buf, uint64_t bytes, int32_t peer,
				  int32_t ctx, int tag, MPI_Comm comm);
/* The first message for r on context ctx with tag `tag', from any
 * source, that no receive has matched: 1 and its sender's world rank and
 * size, or 0.  Nothing is received or recorded. */
int emu_p2p_probe_raw(struct emu_rank *r, int32_t ctx, int tag,
		      int32_t *src, uint64_t *bytes);
/* The tag of a passive-target epoch's message (rma.c), on a window's own
 * context: the program's tags are never negative.  Each one that arrives
 * and waits for a receive counts in its rank's rma_passive, and makes
 * the rank serve it in the next MPI call it waits or polls in. */
#define EMU_TAG_PASSIVE (-1001)
/* Block r (inside a call) until q completes; r's non-blocking
 * collectives progress meanwhile. */
void emu_p2p_wait(struct emu_rank *r, const char *call, struct emu_req *q);
/* Hand over a completed request: its message joins the waits of the next
 * SEB, status copied out, request freed.  Returns its error. */
int emu_p2p_finish(struct emu_rank *r, struct emu_req *q, MPI_Status *st);
/* A request for a non-blocking collective (kind REQ_COLL, q->coll =
 * sched); emu_req_complete() when the schedule has finished. */
struct emu_req *emu_req_new_coll(struct emu_rank *r, const char *call,
				 void *sched);
void emu_req_complete(struct emu_req *q);

/* What point-to-point asks of the collective layer. */
typedef struct emu_p2p_coll_hooks {
	/* Advance the schedule of non-blocking collective q (owned by the
	 * running rank r) as far as it goes without blocking; 1 when it
	 * has completed. */
	int (*progress)(struct emu_rank *r, struct emu_req *q);
	/* Advance every non-blocking collective of r (r->coll_active is
	 * set): r is inside a blocking call, where MPI's progress rule
	 * says they advance.  Returns how many made progress. */
	int (*progress_rank)(struct emu_rank *r);
	/* Release what collective request q holds (q is being freed). */
	void (*release)(struct emu_req *q);
	/* What a rank blocked on q waits for, for deadlock reports. */
	void (*describe)(const struct emu_req *q, char *buf, size_t len);
} emu_p2p_coll_hooks;
/* Once, before any rank runs (emu_coll_init). */
void emu_p2p_set_coll_hooks(const emu_p2p_coll_hooks *h);

#endif /* SIBYL_EMU_P2P_H */
