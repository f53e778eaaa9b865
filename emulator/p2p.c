/*
 * p2p.c -- point-to-point MPI for virtual ranks: requests, matching and
 * the MPI calls.
 *
 * Matching.  Each rank has a queue of posted receives (in posting order)
 * and a queue of unexpected messages (in arrival order).  A message is
 * matched against the posted queue when it arrives; a receive against the
 * unexpected queue when it is posted.  Messages from one rank to another
 * arrive in the order they were sent -- directly for ranks of the same
 * process, and over one Open MPI channel per process pair otherwise -- so
 * MPI's non-overtaking rule holds.
 *
 * Protocols.  Between ranks of the same process a message is handed over
 * directly: copied into the posted receive, or, if none is posted yet,
 * copied into a buffer (up to EMU_EAGER_LIMIT bytes) or left in the
 * sender's buffer until it is matched (larger messages and synchronous
 * sends; the send completes then).  Between processes a message up to
 * EMU_EAGER_LIMIT travels with its envelope; a larger one, or a
 * synchronous send, sends the envelope only and its data once the
 * receiver has matched it (rendezvous), so the memory held for messages
 * nobody has asked for yet stays bounded.
 *
 * Trace.  Every send is recorded at the end of the SEB that ended at the
 * call.  A receive, once completed by a call (Recv, Wait..., Test...),
 * makes the next SEB wait for that message.  A synchronous send is
 * acknowledged by the receiver when it is matched: the acknowledgement is
 * a zero-byte message (tag EMU_ACK_TAG) recorded at the end of the
 * receiver's ended SEB, and the SEB after the call that completes the
 * send waits for it -- so the simulator reproduces the synchrony.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

/* ------------------------------------------------------ communicators */

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	EMU_API(r, "MPI_Comm_rank");
	*rank = emu_comm_get(r, comm, "MPI_Comm_rank")->rank;
	return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	EMU_API(r, "MPI_Comm_size");
	*size = emu_comm_size(emu_comm_get(r, comm, "MPI_Comm_size"));
	return MPI_SUCCESS;
}

/* The source of a received message as a rank of the receive's
 * communicator (its world rank if the communicator is gone). */
static int source_rank(emu_rank *r, MPI_Comm comm, int32_t w)
{
	emu_comm *c = emu_comm_lookup(r, comm);
	int i = c ? emu_group_rank_of(emu_comm_peers(c), w) : -1;
	return i >= 0 ? i : w;
}

/* ----------------------------------------------------------- requests */

#define REQ_CHUNK 4096

/* The requests are emu.p2p.chunks; the collective layer's hooks
 * (emu_p2p.h) emu.p2p.coll: p2p calls nothing of it by name. */
void emu_p2p_set_coll_hooks(const emu_p2p_coll_hooks *h)
{
	emu.p2p.coll = h;
}

static emu_req *req_new(emu_rank *r, int kind, const char *call)
{
	emu_p2p_state *p = &emu.p2p;
	emu_req *q = p->free_reqs;
	if (!q) {
		emu_req **c = realloc(p->chunks, (p->nchunks + 1) * sizeof *c);
		emu_req *blk = calloc(REQ_CHUNK, sizeof *blk);
		if (!c || !blk || p->nchunks >= (uint32_t)INT_MAX / REQ_CHUNK)
			emu_fatal("out of memory for MPI requests");
		p->chunks = c;
		p->chunks[p->nchunks] = blk;
		for (int i = REQ_CHUNK - 1; i >= 0; i--) {
			blk[i].handle = (int32_t)(p->nchunks * REQ_CHUNK + i +
						  1);
			blk[i].next = p->free_reqs;
			p->free_reqs = &blk[i];
		}
		p->nchunks++;
		q = p->free_reqs;
	}
	p->free_reqs = q->next;
	int32_t h = q->handle;
	memset(q, 0, sizeof *q);
	q->handle = h;
	q->kind = (uint8_t)kind;
	q->owner = r;
	q->call = call;
	q->peer_world = -1;
	return q;
}

/* A rank's buffer for buffered sends (MPI_Buffer_attach).  Only its size
 * is used: a buffered message is copied into memory of its own, and holds
 * its size plus MPI_BSEND_OVERHEAD of the attached buffer until it has
 * left, as MPI counts. */
typedef struct emu_bsend {
	void *buf;
	int size;
	uint64_t used;
	uint32_t pending;       /* buffered messages not gone yet */
	uint8_t attached;
	uint8_t detaching;      /* MPI_Buffer_detach waits for them */
} emu_bsend;

/* Buffered send q is gone: its room in the attached buffer is free. */
static void bsend_give_back(emu_req *q)
{
	emu_bsend *b = q->owner->bsend;
	b->used -= q->bheld;
	b->pending--;
	q->bheld = 0;
	if (b->detaching && !b->pending)
		emu_wake(q->owner);
}

static void greq_release(emu_req *q);

static void req_release(emu_req *q)
{
	free(q->tmp);
	q->tmp = NULL;
	if (q->retained)
		emu_dt_release(q->type);
	if (q->bheld)
		bsend_give_back(q);
	free(q->pack);
	q->pack = NULL;
	if (q->kind == REQ_COLL && q->coll)
		emu.p2p.coll->release(q);
	if (q->kind == REQ_GREQ)
		greq_release(q);
	q->coll = NULL;
	q->kind = REQ_FREE;
	q->next = emu.p2p.free_reqs;
	emu.p2p.free_reqs = q;
}

static emu_req *req_get(int32_t h)
{
	if (h <= 0)
		return NULL;
	uint32_t i = (uint32_t)h - 1;
	if (i / REQ_CHUNK >= emu.p2p.nchunks)
		return NULL;
	emu_req *q = &emu.p2p.chunks[i / REQ_CHUNK][i % REQ_CHUNK];
	return q->kind == REQ_FREE ? NULL : q;
}

/* The request behind a handle of the calling rank, or an MPI error. */
static emu_req *req_of(emu_rank *r, const char *call, MPI_Request h)
{
	emu_req *q = req_get(h);
	if (!q || q->owner != r)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "%d is not an active "
			      "request of this rank%s", h, q ? " (it belongs "
			      "to another rank)" : " (already completed and "
			      "freed?)");
	return q;
}

/* Where rank r's buffer p (n bytes) is now: other ranks may be running,
 * and each rank has its own copy of the program's globals (privatize.c). */
static void *at(const emu_rank *r, const void *p, uint64_t n)
{
	return emu_priv_addr(r, p, (size_t)n);
}

/* A request finished: wake its owner, or drop it if it was freed.  A
 * receive into a non-contiguous buffer unpacks what it received. */
static void req_done(emu_req *q)
{
	if (q->kind == REQ_RECV && q->pack) {
		uint64_t n = q->msg_size < q->cap ? q->msg_size : q->cap;
		emu_dt_unpack(q->pack, n, at(q->owner, q->buf, 1), q->count,
			      q->type);
	}
	q->complete = 1;
	if (q->freed)
		req_release(q);
	else
		emu_wake(q->owner);
}

emu_req *emu_req_new_coll(emu_rank *r, const char *call, void *sched)
{
	emu_req *q = req_new(r, REQ_COLL, call);
	q->coll = sched;
	q->peer = MPI_PROC_NULL;
	return q;
}

void emu_req_complete(emu_req *q)
{
	req_done(q);
}

/* ------------------------------------------------------------ queues */

/*
 * Posted receives are kept in posting order.  A rank that posts a receive
 * from every other rank before any message arrives (an all-to-all-v
 * written with MPI_Irecv, an integer sort's exchange) would scan that list
 * once per arriving message -- quadratic in the ranks, cubic for the
 * process -- so once it holds more than PIDX_MIN receives it is also
 * indexed by (context, source): a hash table of per-source chains, in
 * posting order.  While no MPI_ANY_SOURCE receive is posted, the chain of
 * a message's source holds every receive it can match, the first posted
 * first; while one is, the whole list is scanned, which is the order MPI
 * requires.
 */
#define PIDX_MIN 64

/* An index by (context, source), shared by the two queues: a hash table
 * (open addressing) of chains that keep their queue's order, threaded
 * through the elements' snext/sprev. */
typedef struct kchain {
	int32_t ctx, src;          /* ctx == INT32_MIN: an empty slot */
	void *head, *tail;
} kchain;

typedef struct emu_kidx {
	uint32_t cap, used;        /* slots (a power of two), keys in use */
	kchain *b;
} emu_kidx;

static uint32_t khash(int32_t ctx, int32_t src)
{
	uint64_t k = ((uint64_t)(uint32_t)ctx << 32) | (uint32_t)src;
	k *= UINT64_C(0x9e3779b97f4a7c15);
	return (uint32_t)(k >> 32);
}

static kchain *kidx_slot(emu_kidx *x, int32_t ctx, int32_t src, int create)
{
	uint32_t mask = x->cap - 1;
	for (uint32_t i = khash(ctx, src) & mask;; i = (i + 1) & mask) {
		kchain *c = &x->b[i];
		if (c->ctx == INT32_MIN) {
			if (!create)
				return NULL;
			c->ctx = ctx;
			c->src = src;
			c->head = c->tail = NULL;
			x->used++;
			return c;
		}
		if (c->ctx == ctx && c->src == src)
			return c;
	}
}

/* *px emptied (made when NULL) with room for twice the sources of n
 * elements; the caller appends its queue again (keys whose chain had
 * emptied are so dropped). */
static emu_kidx *kidx_reset(emu_kidx **px, uint32_t n, const char *what)
{
	emu_kidx *x = *px;
	uint32_t cap = 256;
	while (cap < 4 * n)
		cap *= 2;
	if (!x && !(x = *px = calloc(1, sizeof *x)))
		emu_fatal("out of memory");
	free(x->b);
	if (!(x->b = malloc(cap * sizeof *x->b)))
		emu_fatal("out of memory indexing %u %s", n, what);
	for (uint32_t i = 0; i < cap; i++)
		x->b[i].ctx = INT32_MIN;
	x->cap = cap;
	x->used = 0;
	return x;
}

/* Room for one more key without a rebuild. */
static int kidx_room(const emu_kidx *x)
{
	return 2 * (x->used + 1) <= x->cap;
}

static void kidx_free(emu_kidx **px)
{
	if (*px) {
		free((*px)->b);
		free(*px);
		*px = NULL;
	}
}

/* Append element n, of type T, to the chain of its key. */
#define KIDX_APPEND(x, ctx, src, n, T)                                  \
	do {                                                            \
		kchain *c_ = kidx_slot((x), (ctx), (src), 1);           \
		T *t_ = c_->tail;                                       \
		(n)->snext = NULL;                                      \
		(n)->sprev = t_;                                        \
		if (t_)                                                 \
			t_->snext = (n);                                \
		else                                                    \
			c_->head = (n);                                 \
		c_->tail = (n);                                         \
	} while (0)

static void pidx_build(emu_rank *r)
{
	emu_kidx *x = kidx_reset(&r->pidx, r->nposted, "receives");
	for (emu_req *q = r->posted_head; q; q = q->next)
		if (q->peer_world >= 0)
			KIDX_APPEND(x, q->ctx, q->peer_world, q, emu_req);
}

static void posted_append(emu_rank *r, emu_req *q)
{
	q->next = NULL;
	q->prev = r->posted_tail;
	if (r->posted_tail)
		r->posted_tail->next = q;
	else
		r->posted_head = q;
	r->posted_tail = q;
	q->posted = 1;
	r->nposted++;
	if (q->peer_world < 0)
		r->nwild++;
	else if (r->pidx && kidx_room(r->pidx))
		KIDX_APPEND(r->pidx, q->ctx, q->peer_world, q, emu_req);
	else if (r->pidx || r->nposted > PIDX_MIN)
		pidx_build(r);
}

/* Unlink node n from the doubly linked list (head, tail) threaded
 * through n->prev and n->next. */
#define LIST_UNLINK(head, tail, n, prev, next)                          \
	do {                                                            \
		if ((n)->prev)                                          \
			(n)->prev->next = (n)->next;                    \
		else                                                    \
			(head) = (n)->next;                             \
		if ((n)->next)                                          \
			(n)->next->prev = (n)->prev;                    \
		else                                                    \
			(tail) = (n)->prev;                             \
	} while (0)

static void posted_remove(emu_rank *r, emu_req *q)
{
	LIST_UNLINK(r->posted_head, r->posted_tail, q, prev, next);
	q->next = q->prev = NULL;
	q->posted = 0;
	r->nposted--;
	if (q->peer_world < 0) {
		r->nwild--;
	} else if (r->pidx) {
		kchain *c = kidx_slot(r->pidx, q->ctx, q->peer_world, 0);
		LIST_UNLINK(c->head, c->tail, q, sprev, snext);
		q->snext = q->sprev = NULL;
	}
	if (r->nposted == 0)
		kidx_free(&r->pidx);
}

static int matches(int32_t ctx, int32_t src, int tag, const emu_env *e)
{
	return e->ctx == ctx && (src < 0 || e->src == src) &&
		(tag == MPI_ANY_TAG || e->tag == tag);
}

static emu_req *match_posted(emu_rank *d, const emu_env *e)
{
	if (d->pidx && !d->nwild) {
		kchain *c = kidx_slot(d->pidx, e->ctx, e->src, 0);
		for (emu_req *q = c ? c->head : NULL; q; q = q->snext)
			if (q->tag == MPI_ANY_TAG || q->tag == e->tag) {
				posted_remove(d, q);
				return q;
			}
		return NULL;
	}
	for (emu_req *q = d->posted_head; q; q = q->next)
		if (matches(q->ctx, q->peer_world, q->tag, e)) {
			posted_remove(d, q);
			return q;
		}
	return NULL;
}

/*
 * Unexpected messages are kept in arrival order.  A rank that collects
 * from many sources in a fixed order (a root receiving from every rank in
 * turn) would scan that list once per receive -- quadratic at 256K
 * ranks -- so once the list grows beyond UIDX_MIN messages it is also
 * indexed by (context, source): a hash table of per-source chains, also
 * in arrival order.  Receives from a given source look in its chain;
 * MPI_ANY_SOURCE receives scan the whole list, which is the order MPI
 * requires.
 */
#define UIDX_MIN 64

static void uidx_build(emu_rank *r)
{
	emu_kidx *x = kidx_reset(&r->uidx, r->nunexp, "messages");
	for (emu_msg *m = r->unexp_head; m; m = m->next)
		KIDX_APPEND(x, m->env.ctx, m->env.src, m, emu_msg);
}

static emu_msg *find_unexpected(emu_rank *r, int32_t ctx, int32_t src,
				int tag)
{
	if (r->uidx && src >= 0) {
		kchain *c = kidx_slot(r->uidx, ctx, src, 0);
		for (emu_msg *m = c ? c->head : NULL; m; m = m->snext)
			if (tag == MPI_ANY_TAG || m->env.tag == tag)
				return m;
		return NULL;
	}
	for (emu_msg *m = r->unexp_head; m; m = m->next)
		if (matches(ctx, src, tag, &m->env))
			return m;
	return NULL;
}

static void unexpected_append(emu_rank *r, emu_msg *m)
{
	m->next = NULL;
	m->prev = r->unexp_tail;
	if (r->unexp_tail)
		r->unexp_tail->next = m;
	else
		r->unexp_head = m;
	r->unexp_tail = m;
	r->nunexp++;
	if (m->env.tag == EMU_TAG_PASSIVE)
		r->rma_passive++;
	if (r->uidx && kidx_room(r->uidx))
		KIDX_APPEND(r->uidx, m->env.ctx, m->env.src, m, emu_msg);
	else if (r->uidx || r->nunexp > UIDX_MIN)
		uidx_build(r);
}

static void unexpected_remove(emu_rank *r, emu_msg *m)
{
	LIST_UNLINK(r->unexp_head, r->unexp_tail, m, prev, next);
	r->nunexp--;
	if (m->env.tag == EMU_TAG_PASSIVE)
		r->rma_passive--;
	if (!r->uidx)
		return;
	if (r->nunexp == 0) {
		kidx_free(&r->uidx);
		return;
	}
	kchain *c = kidx_slot(r->uidx, m->env.ctx, m->env.src, 0);
	LIST_UNLINK(c->head, c->tail, m, sprev, snext);
}

/* ----------------------------------------------------------- delivery */

/* The receiver acknowledges a synchronous send when it matches it: a
 * zero-byte message at the end of its ended SEB.  0 if the receiver has
 * finalized (nothing more can be recorded for it). */
static int ack(emu_rank *d, int32_t to, uint64_t *seq, int64_t *vt)
{
	if (d->finalized || !d->in_call)
		return 0;
	*seq = emu_rec_send(d, to, EMU_ACK_TAG, 0);
	*vt = emu_rec_vtime(d);
	return 1;
}

/* Fill the receive's status from the matched envelope; copy the data if
 * given.  Truncation is reported when the receive completes. */
static void recv_matched(emu_req *q, const emu_env *e, const void *data)
{
	uint64_t n = e->size < q->cap ? e->size : q->cap;
	if (data && n)
		memcpy(q->pack ? q->pack : at(q->owner, q->buf, n), data, n);
	q->msg_size = e->size;
	/* A world rank until finish() (the communicator's rank then). */
	q->status.MPI_SOURCE = e->src;
	q->status.MPI_TAG = e->tag;
	q->status.MPI_ERROR = e->size > q->cap ? MPI_ERR_TRUNCATE :
		MPI_SUCCESS;
	q->status.sibyl_count = (long long)n;
	q->has_msg = 1;
	q->msg.src = (uint32_t)e->src;
	q->msg.seq = e->seq;
	q->msg_vt = e->vt;
	if (q->has_post) {
		/* A non-blocking receive matched after its call. */
		emu_rec_posted(q->owner, q->post_seb, q->msg, 1);
		q->has_post = 0;
	}
}

/* After posting non-blocking receive q of SIBYL_POST_MIN bytes or more:
 * the SEB that ended at the call lists its message as posted, now or
 * once it matches. */
static void note_post(emu_rank *r, emu_req *q)
{
	/* Holding SEBs back costs (a copy of each until the match): only
	 * for receives that may meet a rendezvous (SIBYL_POST_MIN). */
	if (q->cap < emu.post_min)
		return;
	if (q->has_msg) {
		emu_rec_posted(r, r->nsebs, q->msg, 0);
	} else if (!q->complete) {
		q->has_post = 1;
		q->post_seb = r->nsebs;
		emu_rec_post_open(r);
	}
}

/* Hand message m to the matching receive q (m is consumed). */
static void deliver(emu_req *q, emu_msg *m)
{
	emu_rank *d = q->owner;
	const emu_env *e = &m->env;

	if (m->sbuf) {
		/* Same process, rendezvous: copy from the sender's buffer
		 * and complete the send. */
		recv_matched(q, e, at(emu_local_rank(e->src), m->sbuf,
				      e->size));
		emu_req *s = req_get(e->sreq);
		if (s) {
			uint64_t seq;
			int64_t vt;
			if (s->ssend && ack(d, e->src, &seq, &vt)) {
				s->has_msg = 1;
				s->msg.src = (uint32_t)d->world;
				s->msg.seq = seq;
				s->msg_vt = vt;
			}
			req_done(s);
		}
		req_done(q);
	} else if (e->flags & EMU_F_RNDV) {
		/* Another process holds the data: post its receive, then
		 * tell the sender to go ahead. */
		recv_matched(q, e, NULL);
		uint64_t n = e->size;
		void *dst = q->pack ? q->pack : at(d, q->buf, n < q->cap ?
						     n : q->cap);
		/* Open MPI writes it later: not straight into globals that
		 * move at every switch. */
		if (e->size > q->cap || (!q->pack &&
					 !emu_priv_stable(q->buf, n))) {
			if (!(q->tmp = malloc(e->size ? e->size : 1)))
				emu_fatal("out of memory receiving %llu bytes",
					  (unsigned long long)e->size);
			dst = q->tmp;
		}
		emu_tr_post_data(m->src_proc, q->handle, dst, n);
		uint64_t seq = 0;
		int64_t vt = 0;
		int a = (e->flags & EMU_F_SSEND) && ack(d, e->src, &seq, &vt);
		emu_tr_send_cts(m->src_proc, e->sreq, q->handle, a, seq, vt);
	} else {
		recv_matched(q, e, m->data);
		req_done(q);
	}
	void *block = m->block;
	if (block != (void *)m)
		free(m);
	free(block);
}

void emu_p2p_arrived(int src_proc, void *block, size_t len)
{
	emu_msg *m = malloc(sizeof *m);
	if (!m || len < sizeof(emu_env))
		emu_fatal("%s from process %d", m ? "malformed message" :
			  "out of memory for a message", src_proc);
	memset(m, 0, sizeof *m);
	memcpy(&m->env, block, sizeof m->env);
	m->block = block;
	m->src_proc = src_proc;
	if (!(m->env.flags & EMU_F_RNDV))
		m->data = (char *)block + sizeof(emu_env);
	emu_rank *d = emu_local_rank(m->env.dst);
	if (!d)
		emu_fatal("internal error: message for rank %d arrived at "
			  "process %d", m->env.dst, emu.proc);
	emu_req *q = match_posted(d, &m->env);
	if (q) {
		deliver(q, m);
	} else {
		unexpected_append(d, m);
		emu_wake(d); /* it may be blocked in MPI_Probe */
	}
}

void emu_p2p_cts(int src_proc, int32_t sreq, int32_t rreq, int has_ack,
		 uint64_t ack_seq, int64_t ack_vt)
{
	emu_req *s = req_get(sreq);
	if (!s || s->kind != REQ_SEND)
		emu_fatal("internal error: clear-to-send for unknown request "
			  "%d from process %d", sreq, src_proc);
	if (has_ack) {
		s->has_msg = 1;
		s->msg.src = (uint32_t)s->peer_world;
		s->msg.seq = ack_seq;
		s->msg_vt = ack_vt;
	}
	const void *src = at(s->owner, s->buf, s->cap);
	if (!emu_priv_stable(s->buf, s->cap)) {
		/* Globals that move at every switch: send a copy. */
		if (!(s->tmp = malloc(s->cap ? s->cap : 1)))
			emu_fatal("out of memory sending %llu bytes",
				  (unsigned long long)s->cap);
		memcpy(s->tmp, src, s->cap);
		src = s->tmp;
	}
	emu_tr_send_data(src_proc, rreq, src, s->cap, sreq);
}

void emu_p2p_send_done(int32_t sreq)
{
	emu_req *s = req_get(sreq);
	if (s) {
		req_done(s);
	}
}

void emu_p2p_data_done(int32_t rreq)
{
	emu_req *q = req_get(rreq);
	if (!q)
		return;
	if (q->tmp) {
		uint64_t n = q->msg_size < q->cap ? q->msg_size : q->cap;
		memcpy(q->pack ? q->pack : at(q->owner, q->buf, n), q->tmp, n);
		free(q->tmp);
		q->tmp = NULL;
	}
	req_done(q);
}

/* ------------------------------------------------------- starting ops */

static uint64_t check_buffer(emu_rank *r, const char *call, const void *buf,
			     int count, MPI_Datatype type)
{
	emu_dt_check(r, call, type);
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative count %d",
			      count);
	uint64_t bytes = (uint64_t)count * (uint64_t)emu_dt_size(type);
	if (bytes > INT_MAX)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "%llu bytes in one "
			      "message; this version moves at most %d",
			      (unsigned long long)bytes, INT_MAX);
	/* A derived type may address absolute locations (MPI_BOTTOM). */
	if (bytes && !buf && type < SIBYL_MPI_NBASIC_TYPES)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "NULL buffer for %d "
			      "elements of %s", count, emu_dt_name(type));
	return bytes;
}

/* Send `bytes' contiguous bytes at buf from r to world rank dw (q set up
 * by the caller: kind, comm, peer, tag, ctx).  Completes q when the data
 * has left (eager) or been matched (rendezvous, synchronous). */
static void post_send(emu_rank *r, emu_req *q, const void *buf,
		      uint64_t bytes, int32_t dw, int ssend)
{
	q->peer_world = dw;
	q->ssend = (uint8_t)ssend;
	q->cap = bytes;
	q->buf = (void *)buf;

	emu_env e;
	memset(&e, 0, sizeof e);
	e.src = r->world;
	e.dst = dw;
	e.tag = q->tag;
	e.ctx = q->ctx;
	e.size = bytes;
	e.seq = emu_rec_send(r, dw, q->tag, bytes);
	e.vt = emu_rec_vtime(r);
	q->send_seq = e.seq;
	q->has_seq = 1;
	e.sreq = q->handle;
	if (ssend)
		e.flags |= EMU_F_SSEND;

	emu_rank *d = emu_local_rank(dw);
	if (d) {
		emu_req *rq = match_posted(d, &e);
		emu_msg *m;
		if (rq) {
			if (!ssend) {
				recv_matched(rq, &e, buf);
				req_done(rq);
				q->complete = 1;
				return;
			}
			/* Synchronous: go through the rendezvous path so
			 * the acknowledgement is recorded. */
			if (!(m = calloc(1, sizeof *m)))
				emu_fatal("out of memory");
			m->env = e;
			m->sbuf = buf ? buf : (const void *)"";
			deliver(rq, m);
			return;
		}
		if (!ssend && bytes <= EMU_EAGER_LIMIT) {
			m = malloc(sizeof *m + bytes);
			if (!m)
				emu_fatal("out of memory buffering a %llu-byte "
					  "message", (unsigned long long)bytes);
			memset(m, 0, sizeof *m);
			m->env = e;
			m->data = m + 1;
			m->block = m;
			if (bytes)
				memcpy(m->data, buf, bytes);
			q->complete = 1;
		} else {
			if (!(m = calloc(1, sizeof *m)))
				emu_fatal("out of memory");
			m->env = e;
			m->env.flags |= EMU_F_RNDV;
			m->sbuf = buf ? buf : (const void *)"";
		}
		m->src_proc = emu.proc;
		unexpected_append(d, m);
		emu_wake(d);
		return;
	}
	int p = emu_owner_proc(dw);
	if (!ssend && bytes <= EMU_EAGER_LIMIT) {
		emu_tr_send_env(p, &e, buf);
		q->complete = 1;
	} else {
		e.flags |= EMU_F_RNDV;
		emu_tr_send_env(p, &e, NULL);
	}
}

/* A send request of r, checked and set up but not started.  mode: 1
 * synchronous, 0 standard (ready mode is standard for a correct program). */
static emu_req *send_setup(emu_rank *r, const char *call, const void *buf,
			   int count, MPI_Datatype type, int dest, int tag,
			   MPI_Comm comm, int ssend)
{
	emu_comm *c = emu_comm_get(r, comm, call);
	uint64_t bytes = check_buffer(r, call, buf, count, type);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is not in 0..%d",
			      tag, MPI_TAG_UB_VALUE);
	const emu_group *peers = emu_comm_peers(c);
	if (dest != MPI_PROC_NULL && (dest < 0 || dest >= peers->size))
		emu_mpi_error(r, call, MPI_ERR_RANK, "destination %d is not "
			      "a rank of %s%s (size %d)", dest, c->remote ?
			      "the remote group of " : "",
			      emu_comm_describe(r, comm), peers->size);

	emu_req *q = req_new(r, REQ_SEND, call);
	q->comm = comm;
	q->peer = dest;
	q->tag = tag;
	q->ctx = c->ctx;
	q->type = type;
	q->count = count;
	q->ubuf = buf;
	q->cap = bytes;
	q->ssend = (uint8_t)ssend;
	if (dest != MPI_PROC_NULL)
		q->peer_world = emu_group_world(peers, dest);
	return q;
}

/* Buffered send q (from send_setup, not persistent): check the room in
 * the attached buffer, copy the data, send the copy.  q is freed when it
 * has left, which gives its room back. */
static void bsend_go(emu_rank *r, const char *call, emu_req *q)
{
	emu_bsend *b = r->bsend;
	if (q->peer == MPI_PROC_NULL) {
		req_release(q);
		return;
	}
	uint64_t need = q->cap + MPI_BSEND_OVERHEAD;
	if (!b || !b->attached) {
		req_release(q);
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "no buffer is attached "
			      "for buffered sends: MPI_Buffer_attach one of at "
			      "least %llu bytes (the message's %llu plus "
			      "MPI_BSEND_OVERHEAD) first",
			      (unsigned long long)need,
			      (unsigned long long)(need - MPI_BSEND_OVERHEAD));
	}
	if (b->used + need > (uint64_t)b->size) {
		uint64_t used = b->used;
		req_release(q);
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "the attached buffer of "
			      "%d bytes has %llu free (%u buffered message%s "
			      "not sent yet); this message needs %llu (%llu "
			      "bytes plus MPI_BSEND_OVERHEAD)", b->size,
			      (unsigned long long)(b->size - used), b->pending,
			      b->pending == 1 ? "" : "s",
			      (unsigned long long)need,
			      (unsigned long long)(need - MPI_BSEND_OVERHEAD));
	}
	if (!(q->pack = malloc(q->cap ? q->cap : 1))) {
		req_release(q);
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory to buffer "
			      "%llu bytes", (unsigned long long)(need -
			      MPI_BSEND_OVERHEAD));
	}
	if (q->cap)
		emu_dt_pack(q->ubuf, q->count, q->type, q->pack);
	b->used += need;
	b->pending++;
	q->bheld = need;
	post_send(r, q, q->pack, q->cap, q->peer_world, 0);
	if (q->complete)
		req_release(q);
	else
		q->freed = 1;
}

/* Start send q (from send_setup): the buffer is read now. */
static void send_go(emu_rank *r, const char *call, emu_req *q)
{
	if (q->peer == MPI_PROC_NULL) {
		q->complete = 1;
		return;
	}
	if (q->bsend) {
		/* Bsend_init: a buffered send of its own, and this request
		 * is complete once the data is in the attached buffer. */
		emu_req *b = req_new(r, REQ_SEND, call);
		b->comm = q->comm;
		b->peer = q->peer;
		b->peer_world = q->peer_world;
		b->tag = q->tag;
		b->ctx = q->ctx;
		b->type = q->type;
		b->count = q->count;
		b->ubuf = q->ubuf;
		b->cap = q->cap;
		bsend_go(r, call, b);
		q->complete = 1;
		return;
	}
	const void *buf = q->ubuf;
	uint64_t bytes = q->cap;
	/* A persistent send has its packing area (and its type) from
	 * the start: the program may have freed the type since. */
	if (bytes && (q->pack || !emu_dt_contiguous(q->type))) {
		if (!q->pack && !(q->pack = malloc(bytes)))
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory to "
				      "pack %llu bytes",
				      (unsigned long long)bytes);
		emu_dt_pack(buf, q->count, q->type, q->pack);
		buf = q->pack;
	}
	post_send(r, q, buf, bytes, q->peer_world, q->ssend);
}

static emu_req *start_send(emu_rank *r, const char *call, const void *buf,
			   int count, MPI_Datatype type, int dest, int tag,
			   MPI_Comm comm, int ssend)
{
	emu_req *q = send_setup(r, call, buf, count, type, dest, tag, comm,
				ssend);
	send_go(r, call, q);
	return q;
}

emu_req *emu_p2p_isend_raw(emu_rank *r, const char *call, const void *buf,
			   uint64_t bytes, int32_t peer, int32_t ctx, int tag,
			   MPI_Comm comm)
{
	emu_req *q = req_new(r, REQ_SEND, call);
	q->comm = comm;
	q->peer = peer;
	q->tag = tag;
	q->ctx = ctx;
	q->type = MPI_BYTE;
	q->count = (int)bytes;
	post_send(r, q, buf, bytes, peer, 0);
	return q;
}

/* The (source, tag) of a receive or probe: wildcards allowed. */
static void check_source_tag(emu_rank *r, const char *call, emu_comm *c,
			     MPI_Comm comm, int source, int tag)
{
	if (tag != MPI_ANY_TAG && (tag < 0 || tag > MPI_TAG_UB_VALUE))
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is not "
			      "MPI_ANY_TAG nor in 0..%d", tag,
			      MPI_TAG_UB_VALUE);
	const emu_group *peers = emu_comm_peers(c);
	if (source != MPI_PROC_NULL && source != MPI_ANY_SOURCE &&
	    (source < 0 || source >= peers->size))
		emu_mpi_error(r, call, MPI_ERR_RANK, "source %d is not a rank "
			      "of %s%s (size %d)", source, c->remote ?
			      "the remote group of " : "",
			      emu_comm_describe(r, comm), peers->size);
}

/* Post receive q (set up by the caller) from world rank src (-1: any):
 * match an unexpected message or join the posted queue. */
static void post_recv(emu_rank *r, emu_req *q, int32_t src)
{
	q->peer_world = src;
	emu_msg *m = find_unexpected(r, q->ctx, src, q->tag);
	if (m) {
		unexpected_remove(r, m);
		deliver(q, m);
	} else {
		posted_append(r, q);
	}
}

/* A receive request of r, checked and set up but not started. */
static emu_req *recv_setup(emu_rank *r, const char *call, void *buf,
			   int count, MPI_Datatype type, int source, int tag,
			   MPI_Comm comm)
{
	emu_comm *c = emu_comm_get(r, comm, call);
	uint64_t bytes = check_buffer(r, call, buf, count, type);
	check_source_tag(r, call, c, comm, source, tag);

	emu_req *q = req_new(r, REQ_RECV, call);
	q->comm = comm;
	q->peer = source;
	q->tag = tag;
	q->ctx = c->ctx;
	q->buf = buf;
	q->cap = bytes;
	q->type = type;
	q->count = count;
	if (source == MPI_PROC_NULL)
		return q;
	q->peer_world = source == MPI_ANY_SOURCE ? -1 :
		emu_group_world(emu_comm_peers(c), source);
	if (bytes && !emu_dt_contiguous(type) && !(q->pack = malloc(bytes)))
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for a "
			      "%llu-byte receive", (unsigned long long)bytes);
	/* The type must outlive an MPI_Type_free until the data is in. */
	if (q->pack) {
		emu_dt_retain(type);
		q->retained = 1;
	}
	return q;
}

/* Start receive q (from recv_setup). */
static void recv_go(emu_rank *r, emu_req *q)
{
	if (q->peer == MPI_PROC_NULL) {
		q->status.MPI_SOURCE = MPI_PROC_NULL;
		q->status.MPI_TAG = MPI_ANY_TAG;
		q->complete = 1;
		return;
	}
	post_recv(r, q, q->peer_world);
}

static emu_req *start_recv(emu_rank *r, const char *call, void *buf,
			   int count, MPI_Datatype type, int source, int tag,
			   MPI_Comm comm)
{
	emu_req *q = recv_setup(r, call, buf, count, type, source, tag,
				comm);
	recv_go(r, q);
	return q;
}

emu_req *emu_p2p_irecv_raw(emu_rank *r, const char *call, void *buf,
			   uint64_t bytes, int32_t peer, int32_t ctx, int tag,
			   MPI_Comm comm)
{
	emu_req *q = req_new(r, REQ_RECV, call);
	q->comm = comm;
	q->peer = peer;
	q->tag = tag;
	q->ctx = ctx;
	q->buf = buf;
	q->cap = bytes;
	q->type = MPI_BYTE;
	q->count = (int)bytes;
	post_recv(r, q, peer);
	note_post(r, q);
	return q;
}

int emu_p2p_probe_raw(emu_rank *r, int32_t ctx, int tag, int32_t *src,
		      uint64_t *bytes)
{
	emu_msg *m = find_unexpected(r, ctx, -1, tag);
	if (!m)
		return 0;
	*src = m->env.src;
	*bytes = m->env.size;
	return 1;
}

/* ------------------------------------------------------ completing ops */

static void fmt_peer(char *buf, size_t len, int peer, int wild)
{
	if (peer == wild)
		snprintf(buf, len, "%s", wild == MPI_ANY_SOURCE ?
			 "MPI_ANY_SOURCE" : "MPI_ANY_TAG");
	else
		snprintf(buf, len, "%d", peer);
}

void emu_p2p_describe(const emu_rank *r, char *buf, size_t len)
{
	char peer[24], tag[24];
	const emu_req *q = r->blocked_req;

	buf[0] = 0;
	if (q && q->kind == REQ_COLL) {
		emu.p2p.coll->describe(q, buf, len);
	} else if (q && q->kind == REQ_GREQ) {
		snprintf(buf, len, "for a generalized request (only "
			 "MPI_Grequest_complete completes it, and no other "
			 "thread of the rank can call it)");
	} else if (q) {
		int same = r->blocked_in && strcmp(r->blocked_in, q->call) == 0;
		fmt_peer(peer, sizeof peer, q->peer, MPI_ANY_SOURCE);
		fmt_peer(tag, sizeof tag, q->tag, MPI_ANY_TAG);
		snprintf(buf, len, "%s%s(%s=%s, tag=%s, %s)", same ? "" :
			 "for ", same ? "" : q->call, q->kind == REQ_RECV ?
			 "source" : "dest", peer, tag,
			 emu_comm_describe((emu_rank *)r, q->comm));
	} else if (r->blocked_n == -1) {
		fmt_peer(peer, sizeof peer, r->blocked_src, MPI_ANY_SOURCE);
		fmt_peer(tag, sizeof tag, r->blocked_tag, MPI_ANY_TAG);
		snprintf(buf, len, "(source=%s, tag=%s, %s)", peer, tag,
			 emu_comm_describe((emu_rank *)r, r->blocked_comm));
	} else if (r->blocked_n > 0) {
		snprintf(buf, len, "for %d request%s", r->blocked_n,
			 r->blocked_n == 1 ? "" : "s");
	}
}

/* Hand over a completed request: its message joins the next SEB's waits,
 * its status is copied out, the request is freed.  Returns its error. */
static void empty_status(MPI_Status *st);

/* The end of a request's operation: a persistent request becomes
 * inactive (and complete: waiting for it returns at once), any other is
 * freed. */
static void req_end(emu_req *q)
{
	if (!q->persistent) {
		req_release(q);
		return;
	}
	free(q->tmp);
	q->tmp = NULL;
	q->active = 0;
	q->complete = 1;
}

/* The status of completed request q (not freed by it): a receive's, its
 * source as a rank of its communicator; an empty one otherwise. */
static int greq_query(emu_rank *r, emu_req *q, MPI_Status *st);

static void req_status(emu_rank *r, emu_req *q, MPI_Status *st)
{
	if (q->kind == REQ_GREQ) {
		greq_query(r, q, st);
		return;
	}
	if (!st)
		return;
	if (q->kind == REQ_RECV && !(q->persistent && !q->active)) {
		*st = q->status;
		if (st->MPI_SOURCE >= 0)
			st->MPI_SOURCE = source_rank(r, q->comm,
						     st->MPI_SOURCE);
	} else {
		empty_status(st);
	}
	if (q->kind != REQ_COLL)
		st->sibyl_cancelled = q->cancelled;
}

static int finish(emu_rank *r, emu_req *q, MPI_Status *st)
{
	if (q->persistent && !q->active) {
		empty_status(st);
		return MPI_SUCCESS;
	}
	if (q->kind == REQ_COLL) {
		empty_status(st);
		req_release(q);
		return MPI_SUCCESS;
	}
	if (q->kind == REQ_GREQ) {
		int err = greq_query(r, q, st);
		req_release(q);         /* runs free_fn */
		return err;
	}
	int err = q->kind == REQ_RECV ? q->status.MPI_ERROR : MPI_SUCCESS;
	int src = q->status.MPI_SOURCE;
	if (q->kind == REQ_RECV && src >= 0)
		src = source_rank(r, q->comm, src);
	if (q->has_msg)
		emu_rec_consume(r, q->msg, q->msg_vt);
	if (q->kind == REQ_SEND && q->has_seq)
		emu_rec_done(r, q->send_seq);
	req_status(r, q, st);
	if (err == MPI_ERR_TRUNCATE) {
		char what[256];
		snprintf(what, sizeof what, "a message of %llu bytes from "
			 "rank %d (tag %d) does not fit the receive buffer of "
			 "%d x %s = %llu bytes",
			 (unsigned long long)q->msg_size, src,
			 q->status.MPI_TAG, q->count, emu_dt_name(q->type),
			 (unsigned long long)q->cap);
		const char *call = q->call;
		req_end(q);
		emu_mpi_error(r, call, MPI_ERR_TRUNCATE, "%s", what);
	}
	req_end(q);
	return err;
}

/* finish() the request behind handle *h, which becomes MPI_REQUEST_NULL
 * unless the request is persistent (it stays, inactive). */
static int finish_handle(emu_rank *r, MPI_Request *h, MPI_Status *st)
{
	emu_req *q = req_get(*h);
	int keep = q->persistent;
	int err = finish(r, q, st);
	if (!keep)
		*h = MPI_REQUEST_NULL;
	return err;
}

/* A handle that counts as MPI_REQUEST_NULL in the "any" and "some"
 * calls: null, or an inactive persistent request. */
static int req_idle(MPI_Request h)
{
	if (h == MPI_REQUEST_NULL)
		return 1;
	emu_req *q = req_get(h);
	return q->persistent && !q->active;
}

int emu_p2p_finish(emu_rank *r, emu_req *q, MPI_Status *st)
{
	return finish(r, q, st);
}

static void empty_status(MPI_Status *st)
{
	if (st) {
		st->MPI_SOURCE = MPI_ANY_SOURCE;
		st->MPI_TAG = MPI_ANY_TAG;
		st->MPI_ERROR = MPI_SUCCESS;
		st->sibyl_cancelled = 0;
		st->sibyl_count = 0;
	}
}

/* Advance r's non-blocking collectives: whenever a rank is in an MPI
 * call (its SEB has ended), what they wait for may have come. */
static inline void nbc_turn(emu_rank *r)
{
	if (r->coll_active)
		emu.p2p.coll->progress_rank(r);
}

void emu_p2p_progress_coll(emu_rank *r)
{
	nbc_turn(r);
}

/* Serve the passive-target epochs that came for r (rma.c): a target
 * takes part in them in whatever MPI call it waits or polls in, as an
 * MPI library without asynchronous progress does. */
static inline void rma_turn(emu_rank *r, const char *call)
{
	if (r->rma_passive && r->in_call && emu.p2p.rma_serve)
		emu.p2p.rma_serve(r, call);
}

static void wait_one(emu_rank *r, const char *call, emu_req *q)
{
	for (;;) {
		if (q->kind == REQ_COLL && !q->complete)
			emu.p2p.coll->progress(r, q);
		nbc_turn(r);
		rma_turn(r, call);
		if (q->complete)
			break;
		r->blocked_req = q;
		emu_block(r, call);
	}
	r->blocked_req = NULL;
}

void emu_p2p_wait(emu_rank *r, const char *call, emu_req *q)
{
	wait_one(r, call, q);
}

/* Give other ranks (and the transport) a turn inside a polling call
 * that found nothing; the rank comes back when something happened to it
 * (emu_park). */
void emu_p2p_poll_turn(emu_rank *r, const char *call)
{
	nbc_turn(r);
	rma_turn(r, call);
	emu_tr_progress();
	emu_park(r);
	nbc_turn(r);
}

/* ---------------------------------------------------- the MPI calls */

static int send_common(const void *site, const char *call, const void *buf, int count,
		       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		       int ssend)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_req *q = start_send(r, call, buf, count, type, dest, tag, comm,
				ssend);
	wait_one(r, call, q);
	finish(r, q, NULL);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
	     int tag, MPI_Comm comm)
{
	return send_common(EMU_SITE, "MPI_Send", buf, count, datatype, dest, tag, comm,
			   0);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return send_common(EMU_SITE, "MPI_Rsend", buf, count, datatype, dest, tag,
			   comm, 0);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return send_common(EMU_SITE, "MPI_Ssend", buf, count, datatype, dest, tag,
			   comm, 1);
}

static int isend_common(const void *site, const char *call, const void *buf, int count,
			MPI_Datatype type, int dest, int tag, MPI_Comm comm,
			int ssend, MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_req *q = start_send(r, call, buf, count, type, dest, tag, comm,
				ssend);
	*request = q->handle;
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	return isend_common(EMU_SITE, "MPI_Isend", buf, count, datatype, dest, tag,
			    comm, 0, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return isend_common(EMU_SITE, "MPI_Issend", buf, count, datatype, dest, tag,
			    comm, 1, request);
}

/* Ready mode: a correct program has posted the receive already, and a
 * standard send then does what a ready one does (as MPI_Rsend). */
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return isend_common(EMU_SITE, "MPI_Irsend", buf, count, datatype, dest, tag,
			    comm, 0, request);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source,
	     int tag, MPI_Comm comm, MPI_Status *status)
{
	EMU_API(r, "MPI_Recv");
	emu_rec_enter(r, EMU_SITE);
	emu_req *q = start_recv(r, "MPI_Recv", buf, count, datatype, source,
				tag, comm);
	wait_one(r, "MPI_Recv", q);
	int err = finish(r, q, status);
	emu_rec_leave(r, "MPI_Recv");
	return err;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, "MPI_Irecv");
	emu_rec_enter(r, EMU_SITE);
	emu_req *q = start_recv(r, "MPI_Irecv", buf, count, datatype, source,
				tag, comm);
	note_post(r, q);
	*request = q->handle;
	emu_rec_leave(r, "MPI_Irecv");
	return MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag,
		 MPI_Comm comm, MPI_Status *status)
{
	const char *call = "MPI_Sendrecv";
	EMU_API(r, call);
	emu_rec_enter(r, EMU_SITE);
	emu_req *rq = start_recv(r, call, recvbuf, recvcount, recvtype,
				 source, recvtag, comm);
	emu_req *sq = start_send(r, call, sendbuf, sendcount, sendtype, dest,
				 sendtag, comm, 0);
	wait_one(r, call, sq);
	wait_one(r, call, rq);
	finish(r, sq, NULL);
	int err = finish(r, rq, status);
	emu_rec_leave(r, call);
	return err;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype,
			 int dest, int sendtag, int source, int recvtag,
			 MPI_Comm comm, MPI_Status *status)
{
	const char *call = "MPI_Sendrecv_replace";
	EMU_API(r, call);
	uint64_t bytes = check_buffer(r, call, buf, count, datatype);
	void *copy = malloc(bytes ? bytes : 1);
	if (!copy)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for a "
			      "%llu-byte copy", (unsigned long long)bytes);
	if (bytes)
		emu_dt_pack(buf, count, datatype, copy);
	emu_rec_enter(r, EMU_SITE);
	emu_req *rq = start_recv(r, call, buf, count, datatype, source,
				 recvtag, comm);
	/* The copy is packed: it goes as bytes. */
	emu_req *sq = start_send(r, call, copy, (int)bytes, MPI_BYTE, dest,
				 sendtag, comm, 0);
	wait_one(r, call, sq);
	wait_one(r, call, rq);
	finish(r, sq, NULL);
	int err = finish(r, rq, status);
	emu_rec_leave(r, call);
	free(copy);
	return err;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	EMU_API(r, "MPI_Wait");
	emu_rec_enter(r, EMU_SITE);
	int err = MPI_SUCCESS;
	if (*request == MPI_REQUEST_NULL) {
		empty_status(status);
	} else {
		emu_req *q = req_of(r, "MPI_Wait", *request);
		wait_one(r, "MPI_Wait", q);
		err = finish_handle(r, request, status);
	}
	emu_rec_leave(r, "MPI_Wait");
	return err;
}

static void check_reqs(emu_rank *r, const char *call, int count,
		       MPI_Request reqs[])
{
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative count %d",
			      count);
	for (int i = 0; i < count; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			req_of(r, call, reqs[i]);
}

/* Hand over every request of a completed Waitall/Testall. */
static void finish_all(emu_rank *r, int count, MPI_Request reqs[],
		       MPI_Status statuses[])
{
	for (int i = 0; i < count; i++) {
		MPI_Status *st = statuses ? &statuses[i] : NULL;
		if (reqs[i] == MPI_REQUEST_NULL) {
			empty_status(st);
			continue;
		}
		finish_handle(r, &reqs[i], st);
	}
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	const char *call = "MPI_Waitall";
	EMU_API(r, call);
	emu_rec_enter(r, EMU_SITE);
	check_reqs(r, call, count, reqs);
	for (int i = 0; i < count; i++) {
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		wait_one(r, call, req_get(reqs[i]));
	}
	finish_all(r, count, reqs, statuses);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* First complete active request, -1 if none, -2 if all are null. */
static int first_complete(int count, MPI_Request reqs[])
{
	int active = 0;
	for (int i = 0; i < count; i++) {
		if (req_idle(reqs[i]))
			continue;
		active = 1;
		if (req_get(reqs[i])->complete)
			return i;
	}
	return active ? -1 : -2;
}

/* Index of a complete request among reqs, waiting for one when `block'
 * (else giving other ranks one turn first); -1: none, -2: all null. */
static int first_done(emu_rank *r, const char *call, int count,
		      MPI_Request reqs[], int block)
{
	check_reqs(r, call, count, reqs);
	nbc_turn(r);
	int i = first_complete(count, reqs);
	if (i == -1 && !block) {
		emu_p2p_poll_turn(r, call);
		i = first_complete(count, reqs);
	}
	while (i == -1 && block) {
		r->blocked_n = count;
		emu_block(r, call);
		nbc_turn(r);
		i = first_complete(count, reqs);
	}
	r->blocked_n = 0;
	return i;
}

static int any_common(const void *site, const char *call, int count, MPI_Request reqs[],
		      int *index, int *flag, MPI_Status *status, int block)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	int i = first_done(r, call, count, reqs, block);
	int err = MPI_SUCCESS;
	if (i >= 0) {
		err = finish_handle(r, &reqs[i], status);
		*index = i;
		if (flag)
			*flag = 1;
	} else {
		*index = MPI_UNDEFINED;
		if (flag)
			*flag = i == -2;
		if (i == -2)
			empty_status(status);
	}
	if (block)
		emu_rec_leave(r, call);
	else
		emu_rec_leave_poll(r, call, i != -1);
	return err;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index,
		MPI_Status *status)
{
	return any_common(EMU_SITE, "MPI_Waitany", count, reqs, index, NULL, status, 1);
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
		MPI_Status *status)
{
	return any_common(EMU_SITE, "MPI_Testany", count, reqs, index, flag, status, 0);
}

static int some_common(const void *site, const char *call, int incount, MPI_Request reqs[],
		       int *outcount, int indices[], MPI_Status statuses[],
		       int block)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	int i = first_done(r, call, incount, reqs, block);
	if (i == -2) {
		*outcount = MPI_UNDEFINED;
	} else {
		int n = 0;
		for (int j = 0; j < incount; j++) {
			if (req_idle(reqs[j]) || !req_get(reqs[j])->complete)
				continue;
			finish_handle(r, &reqs[j], statuses ? &statuses[n] :
				      NULL);
			indices[n++] = j;
		}
		*outcount = n;
	}
	if (block)
		emu_rec_leave(r, call);
	else
		emu_rec_leave_poll(r, call, *outcount != 0);
	return MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some_common(EMU_SITE, "MPI_Waitsome", incount, reqs, outcount, indices,
			   statuses, 1);
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some_common(EMU_SITE, "MPI_Testsome", incount, reqs, outcount, indices,
			   statuses, 0);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	EMU_API(r, "MPI_Test");
	emu_rec_enter(r, EMU_SITE);
	int err = MPI_SUCCESS;
	if (*request == MPI_REQUEST_NULL) {
		*flag = 1;
		empty_status(status);
	} else {
		emu_req *q = req_of(r, "MPI_Test", *request);
		nbc_turn(r);
		if (!q->complete)
			emu_p2p_poll_turn(r, "MPI_Test");
		*flag = q->complete;
		if (q->complete)
			err = finish_handle(r, request, status);
	}
	emu_rec_leave_poll(r, "MPI_Test", *flag);
	return err;
}

static int all_complete(int count, MPI_Request reqs[])
{
	for (int i = 0; i < count; i++)
		if (reqs[i] != MPI_REQUEST_NULL &&
		    !req_get(reqs[i])->complete)
			return 0;
	return 1;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag,
		MPI_Status statuses[])
{
	const char *call = "MPI_Testall";
	EMU_API(r, call);
	emu_rec_enter(r, EMU_SITE);
	check_reqs(r, call, count, reqs);
	nbc_turn(r);
	if (!all_complete(count, reqs))
		emu_p2p_poll_turn(r, call);
	*flag = all_complete(count, reqs);
	if (*flag)
		finish_all(r, count, reqs, statuses);
	emu_rec_leave_poll(r, call, *flag);
	return MPI_SUCCESS;
}

/* ---------------------------------------------------- matched probes */

/*
 * MPI_Mprobe and MPI_Improbe take the message they find out of the
 * unexpected queue, so that no other receive can match it, and give a
 * handle to it; MPI_Mrecv and MPI_Imrecv receive exactly that message.
 * Handle h is mtab[h - 1] (MPI_MESSAGE_NULL is 0, MPI_MESSAGE_NO_PROC
 * -1); the handles of a process's ranks share the table.
 */
typedef struct emu_mslot {
	emu_msg *m;             /* NULL: free */
	emu_rank *owner;
	MPI_Comm comm;
	const char *call;
} emu_mslot;

static emu_mslot *mtab;
static int nmtab;

static MPI_Message msg_new(emu_rank *r, const char *call, emu_msg *m,
			   MPI_Comm comm)
{
	int i = 0;
	while (i < nmtab && mtab[i].m)
		i++;
	if (i == nmtab) {
		int cap = nmtab ? 2 * nmtab : 16;
		emu_mslot *p = realloc(mtab, (size_t)cap * sizeof *p);
		if (!p)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of memory "
				      "for matched messages");
		memset(p + nmtab, 0, (size_t)(cap - nmtab) * sizeof *p);
		mtab = p;
		nmtab = cap;
	}
	mtab[i] = (emu_mslot){ m, r, comm, call };
	return i + 1;
}

/* Wait for (block) or look once for (poll) an unexpected message that a
 * receive (source, tag) on comm would match; NULL if none (poll only). */
static emu_msg *probe_wait(emu_rank *r, const char *call, emu_comm *c,
			   MPI_Comm comm, int source, int tag, int block)
{
	int32_t src = source == MPI_ANY_SOURCE ? -1 :
		emu_group_world(emu_comm_peers(c), source);
	emu_msg *m = find_unexpected(r, c->ctx, src, tag);
	if (!m && !block) {
		emu_p2p_poll_turn(r, call);
		m = find_unexpected(r, c->ctx, src, tag);
	}
	while (!m && block) {
		r->blocked_n = -1;
		r->blocked_src = source;
		r->blocked_tag = tag;
		r->blocked_comm = comm;
		rma_turn(r, call);
		emu_block(r, call);
		m = find_unexpected(r, c->ctx, src, tag);
	}
	r->blocked_n = 0;
	return m;
}

static void probe_status(emu_rank *r, MPI_Comm comm, const emu_msg *m,
			 MPI_Status *status)
{
	if (!status)
		return;
	status->MPI_SOURCE = source_rank(r, comm, m->env.src);
	status->MPI_TAG = m->env.tag;
	status->MPI_ERROR = MPI_SUCCESS;
	status->sibyl_cancelled = 0;
	status->sibyl_count = (long long)m->env.size;
}

static void proc_null_status(MPI_Status *status)
{
	if (status) {
		empty_status(status);
		status->MPI_SOURCE = MPI_PROC_NULL;
	}
}

/* MPI_Probe and MPI_Iprobe (message NULL), MPI_Mprobe and MPI_Improbe:
 * block until a message matches (flag NULL), or look once. */
static int probe_common(const void *site, const char *call, int source,
			int tag, MPI_Comm comm, int *flag,
			MPI_Message *message, MPI_Status *status)
{
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	check_source_tag(r, call, c, comm, source, tag);
	emu_rec_enter(r, site);
	if (source == MPI_PROC_NULL) {
		if (flag)
			*flag = 1;
		if (message)
			*message = MPI_MESSAGE_NO_PROC;
		proc_null_status(status);
		emu_rec_leave(r, call);
		return MPI_SUCCESS;
	}
	emu_msg *m = probe_wait(r, call, c, comm, source, tag, !flag);
	if (flag)
		*flag = m != NULL;
	if (m)
		probe_status(r, comm, m, status);
	if (m && message) {
		unexpected_remove(r, m);
		*message = msg_new(r, call, m, comm);
	}
	/* A non-blocking probe completes nothing, found or not: the receive
	 * that follows is what takes the message. */
	if (flag)
		emu_rec_leave_poll(r, call, 0);
	else
		emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return probe_common(EMU_SITE, "MPI_Probe", source, tag, comm, NULL, NULL,
			    status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	return probe_common(EMU_SITE, "MPI_Iprobe", source, tag, comm, flag, NULL,
			    status);
}

int MPI_Request_free(MPI_Request *request)
{
	EMU_API(r, "MPI_Request_free");
	emu_req *q = req_of(r, "MPI_Request_free", *request);
	if (q->complete)
		req_release(q);
	else
		q->freed = 1;
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

static void greq_cancel(emu_rank *r, emu_req *q);

int MPI_Cancel(MPI_Request *request)
{
	EMU_API(r, "MPI_Cancel");
	emu_req *q = req_of(r, "MPI_Cancel", *request);
	/* Only a receive not matched yet can be cancelled; cancelling a
	 * send has no effect (MPI_Test_cancelled then says false). */
	if (q->kind == REQ_COLL)
		emu_mpi_error(r, "MPI_Cancel", MPI_ERR_REQUEST, "the request "
			      "of %s cannot be cancelled (MPI cancels "
			      "point-to-point and generalized requests)",
			      q->call);
	if (q->kind == REQ_GREQ) {
		greq_cancel(r, q);
		return MPI_SUCCESS;
	}
	if (q->kind == REQ_RECV && q->posted) {
		posted_remove(r, q);
		q->cancelled = 1;
		q->status.sibyl_cancelled = 1;
		q->status.MPI_SOURCE = MPI_ANY_SOURCE;
		q->status.MPI_TAG = MPI_ANY_TAG;
		q->status.sibyl_count = 0;
		req_done(q);
	}
	return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	*flag = status->sibyl_cancelled;
	return MPI_SUCCESS;
}

/* Whether the request is complete, without completing it: its status,
 * and the request stays (MPI_Wait or MPI_Test still hands it over). */
int MPI_Request_get_status(MPI_Request request, int *flag,
			   MPI_Status *status)
{
	EMU_API(r, "MPI_Request_get_status");
	if (request == MPI_REQUEST_NULL) {
		*flag = 1;
		empty_status(status);
		return MPI_SUCCESS;
	}
	emu_req *q = req_of(r, "MPI_Request_get_status", request);
	/* A poll, like MPI_Test. */
	emu_rec_enter(r, EMU_SITE);
	nbc_turn(r);
	if (!q->complete)
		emu_p2p_poll_turn(r, "MPI_Request_get_status");
	*flag = q->complete;
	emu_rec_leave_poll(r, "MPI_Request_get_status", *flag);
	if (q->complete)
		req_status(r, q, status);
	return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status)
{
	return probe_common(EMU_SITE, "MPI_Mprobe", source, tag, comm, NULL,
			    message, status);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status)
{
	return probe_common(EMU_SITE, "MPI_Improbe", source, tag, comm, flag,
			    message, status);
}

/* A receive request for the message behind *message, which becomes
 * MPI_MESSAGE_NULL. */
static emu_req *mrecv_start(emu_rank *r, const char *call, void *buf,
			    int count, MPI_Datatype type,
			    MPI_Message *message)
{
	MPI_Message h = *message;
	if (h == MPI_MESSAGE_NO_PROC) {
		emu_req *q = recv_setup(r, call, buf, count, type,
					MPI_PROC_NULL, 0, MPI_COMM_WORLD);
		recv_go(r, q);
		*message = MPI_MESSAGE_NULL;
		return q;
	}
	if (h < 1 || h > nmtab || !mtab[h - 1].m || mtab[h - 1].owner != r)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "%d is not a message "
			      "matched by MPI_Mprobe or MPI_Improbe on this "
			      "rank%s", h, h == MPI_MESSAGE_NULL ? " (it is "
			      "MPI_MESSAGE_NULL)" : " (received already?)");
	emu_mslot e = mtab[h - 1];
	emu_req *q = recv_setup(r, call, buf, count, type,
				source_rank(r, e.comm, e.m->env.src),
				e.m->env.tag, e.comm);
	mtab[h - 1].m = NULL;
	*message = MPI_MESSAGE_NULL;
	deliver(q, e.m);
	return q;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype,
	      MPI_Message *message, MPI_Status *status)
{
	EMU_API(r, "MPI_Mrecv");
	emu_rec_enter(r, EMU_SITE);
	emu_req *q = mrecv_start(r, "MPI_Mrecv", buf, count, datatype,
				 message);
	wait_one(r, "MPI_Mrecv", q);
	int err = finish(r, q, status);
	emu_rec_leave(r, "MPI_Mrecv");
	return err;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype,
	       MPI_Message *message, MPI_Request *request)
{
	EMU_API(r, "MPI_Imrecv");
	emu_rec_enter(r, EMU_SITE);
	emu_req *q = mrecv_start(r, "MPI_Imrecv", buf, count, datatype,
				 message);
	note_post(r, q);
	*request = q->handle;
	emu_rec_leave(r, "MPI_Imrecv");
	return MPI_SUCCESS;
}

/* ------------------------------------------------ persistent requests */

/* mode: 0 standard (or ready), 1 synchronous, 2 buffered. */
static int send_init(const char *call, const void *buf, int count,
		     MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		     int mode, MPI_Request *request)
{
	EMU_API(r, call);
	emu_req *q = send_setup(r, call, buf, count, type, dest, tag, comm,
				mode == 1);
	q->persistent = 1;
	q->complete = 1;
	q->bsend = (uint8_t)(mode == 2);
	if (q->cap && !emu_dt_contiguous(type) && !q->bsend &&
	    !(q->pack = malloc(q->cap))) {
		uint64_t n = q->cap;
		req_release(q);
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory to pack %llu "
			      "bytes", (unsigned long long)n);
	}
	/* Every start uses the type, which the program may free now. */
	emu_dt_retain(type);
	q->retained = 1;
	*request = q->handle;
	return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype,
		  int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return send_init("MPI_Send_init", buf, count, datatype, dest, tag,
			 comm, 0, request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return send_init("MPI_Ssend_init", buf, count, datatype, dest, tag,
			 comm, 1, request);
}

/* Ready mode: a standard send, as MPI_Rsend. */
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return send_init("MPI_Rsend_init", buf, count, datatype, dest, tag,
			 comm, 0, request);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, "MPI_Recv_init");
	emu_req *q = recv_setup(r, "MPI_Recv_init", buf, count, datatype,
				source, tag, comm);
	q->persistent = 1;
	q->complete = 1;
	if (!q->retained) {
		emu_dt_retain(datatype);
		q->retained = 1;
	}
	*request = q->handle;
	return MPI_SUCCESS;
}

/* The persistent, inactive request behind handle h, or an MPI error. */
static emu_req *startable(emu_rank *r, const char *call, MPI_Request h)
{
	if (h == MPI_REQUEST_NULL)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "MPI_REQUEST_NULL "
			      "cannot be started");
	emu_req *q = req_of(r, call, h);
	if (!q->persistent)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "request %d (of %s) "
			      "is not persistent: only the requests of "
			      "MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, "
			      "MPI_Bsend_init and MPI_Recv_init can be "
			      "started", h, q->call);
	if (q->active)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "request %d (of %s) "
			      "is active: it was started and not yet "
			      "completed by a wait or a test", h, q->call);
	return q;
}

/* Start persistent request q: a new operation with its arguments. */
static void start_one(emu_rank *r, const char *call, emu_req *q)
{
	q->complete = 0;
	q->cancelled = 0;
	q->has_msg = 0;
	q->has_seq = 0;
	q->has_post = 0;
	q->msg_size = 0;
	memset(&q->status, 0, sizeof q->status);
	q->active = 1;
	if (q->kind == REQ_SEND) {
		send_go(r, call, q);
	} else {
		recv_go(r, q);
		note_post(r, q);
	}
}

int MPI_Start(MPI_Request *request)
{
	EMU_API(r, "MPI_Start");
	emu_req *q = startable(r, "MPI_Start", *request);
	emu_rec_enter(r, EMU_SITE);
	start_one(r, "MPI_Start", q);
	emu_rec_leave(r, "MPI_Start");
	return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request reqs[])
{
	const char *call = "MPI_Startall";
	EMU_API(r, call);
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative count %d",
			      count);
	for (int i = 0; i < count; i++)
		startable(r, call, reqs[i]);
	emu_rec_enter(r, EMU_SITE);
	for (int i = 0; i < count; i++) {
		emu_req *q = req_get(reqs[i]);
		if (q->active)
			emu_mpi_error(r, call, MPI_ERR_REQUEST, "request %d "
				      "appears twice in the array (at %d and "
				      "an earlier index)", reqs[i], i);
		start_one(r, call, q);
	}
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------ buffered mode */

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	EMU_API(r, "MPI_Bsend");
	emu_rec_enter(r, EMU_SITE);
	bsend_go(r, "MPI_Bsend", send_setup(r, "MPI_Bsend", buf, count,
					    datatype, dest, tag, comm, 0));
	emu_rec_leave(r, "MPI_Bsend");
	return MPI_SUCCESS;
}

/* The request is complete at once: the data is in the attached buffer. */
int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, "MPI_Ibsend");
	emu_rec_enter(r, EMU_SITE);
	bsend_go(r, "MPI_Ibsend", send_setup(r, "MPI_Ibsend", buf, count,
					     datatype, dest, tag, comm, 0));
	emu_req *q = req_new(r, REQ_SEND, "MPI_Ibsend");
	q->comm = comm;
	q->peer = dest;
	q->tag = tag;
	q->complete = 1;
	*request = q->handle;
	emu_rec_leave(r, "MPI_Ibsend");
	return MPI_SUCCESS;
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
	return send_init("MPI_Bsend_init", buf, count, datatype, dest, tag,
			 comm, 2, request);
}

int MPI_Buffer_attach(void *buffer, int size)
{
	EMU_API(r, "MPI_Buffer_attach");
	if (size < 0)
		emu_mpi_error(r, "MPI_Buffer_attach", MPI_ERR_ARG, "negative "
			      "size %d", size);
	if (r->bsend && r->bsend->attached)
		emu_mpi_error(r, "MPI_Buffer_attach", MPI_ERR_BUFFER, "a "
			      "buffer of %d bytes is attached already: "
			      "MPI_Buffer_detach it first", r->bsend->size);
	if (!buffer && size)
		emu_mpi_error(r, "MPI_Buffer_attach", MPI_ERR_BUFFER, "NULL "
			      "buffer of %d bytes", size);
	if (!r->bsend && !(r->bsend = calloc(1, sizeof *r->bsend)))
		emu_mpi_error(r, "MPI_Buffer_attach", MPI_ERR_NO_MEM, "out of "
			      "memory");
	r->bsend->buf = buffer;
	r->bsend->size = size;
	r->bsend->attached = 1;
	return MPI_SUCCESS;
}

/* Waits until every buffered message has left, as MPI says. */
int MPI_Buffer_detach(void *buffer_addr, int *size)
{
	EMU_API(r, "MPI_Buffer_detach");
	emu_bsend *b = r->bsend;
	if (!b || !b->attached) {
		*(void **)buffer_addr = NULL;
		*size = 0;
		return MPI_SUCCESS;
	}
	emu_rec_enter(r, EMU_SITE);
	b->detaching = 1;
	while (b->pending) {
		nbc_turn(r);
		if (!b->pending)
			break;
		emu_block(r, "MPI_Buffer_detach");
	}
	b->detaching = 0;
	*(void **)buffer_addr = b->buf;
	*size = b->size;
	b->buf = NULL;
	b->size = 0;
	b->attached = 0;
	emu_rec_leave(r, "MPI_Buffer_detach");
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ leaks */

unsigned long emu_p2p_report_leaks(unsigned long limit)
{
	unsigned long n = 0, unwaited = 0, cancelled = 0;
	for (uint32_t c = 0; c < emu.p2p.nchunks; c++)
		for (int i = 0; i < REQ_CHUNK; i++) {
			emu_req *q = &emu.p2p.chunks[c][i];
			/* An inactive persistent request holds no
			 * operation: MPI does not ask it to be freed. */
			if (q->kind == REQ_FREE || q->freed ||
			    (q->persistent && !q->active))
				continue;
			/* Complete but never waited for nor freed: MPI asks
			 * for the wait, but no message was lost -- a leak
			 * of the program's, counted, not an error.  SNAP
			 * drops the requests of its last sends of a sweep;
			 * Graph500's AML cancels its receives and
			 * finalizes. */
			if (q->complete) {
				unwaited++;
				cancelled += q->cancelled;
				continue;
			}
			if (n++ >= limit)
				continue;
			if (q->kind == REQ_COLL || q->kind == REQ_GREQ)
				fprintf(stderr, "sibyl: rank %d: the request "
					"of %s was never completed\n",
					q->owner->world, q->call);
			else
				fprintf(stderr, "sibyl: rank %d: the request "
					"of %s(%s=%d, tag=%d) was never "
					"completed\n", q->owner->world, q->call,
					q->kind == REQ_RECV ? "source" : "dest",
					q->peer, q->tag);
		}
	for (int i = 0; i < nmtab; i++)
		if (mtab[i].m && n++ < limit)
			fprintf(stderr, "sibyl: rank %d: a message from rank "
				"%d (tag %d, %llu bytes) matched by %s was "
				"never received\n", mtab[i].owner->world,
				mtab[i].m->env.src, mtab[i].m->env.tag,
				(unsigned long long)mtab[i].m->env.size,
				mtab[i].call);
	for (uint32_t i = 0; i < emu.count; i++)
		for (emu_msg *m = emu.ranks[i].unexp_head; m; m = m->next)
			if (n++ < limit)
				fprintf(stderr, "sibyl: rank %d: a message "
					"from rank %d (tag %d, %llu bytes) was "
					"never received\n", m->env.dst,
					m->env.src, m->env.tag,
					(unsigned long long)m->env.size);
	if (n > limit)
		fprintf(stderr, "sibyl:   ... and %lu more in process %d\n",
			n - limit, emu.proc);
	if (unwaited) {
		char why[64] = "";
		if (cancelled)
			snprintf(why, sizeof why, ", %lu of them cancelled",
				 cancelled);
		fprintf(stderr, "sibyl: note: process %d: %lu completed "
			"request%s never waited for or freed%s (MPI asks for "
			"it; no message was lost)\n", emu.proc, unwaited,
			unwaited == 1 ? " was" : "s were", why);
	}
	return n;
}

/* ------------------------------------------------ generalized requests */

/*
 * MPI_Grequest_start makes a request that only MPI_Grequest_complete
 * completes; the program's callbacks fill its status (query_fn, at each
 * wait, test or MPI_Request_get_status that finds it complete), release
 * its state (free_fn, once, when the request is freed: handed over by a
 * wait or test, or MPI_Request_free'd and complete) and hear of
 * MPI_Cancel (cancel_fn).  They run as the program's code.  A rank that
 * waits for one it has not completed waits forever, as MPI says (only
 * another thread could complete it, and Sibyl provides
 * MPI_THREAD_FUNNELED): the deadlock report names the request.  The trace
 * records nothing of them: no message is involved.
 */
typedef struct greq {
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
} greq;

static void greq_release(emu_req *q)
{
	greq *g = q->coll;
	if (g && g->free)
		g->free(g->extra);
	free(g);
}

static int greq_query(emu_rank *r, emu_req *q, MPI_Status *st)
{
	MPI_Status tmp;
	greq *g = q->coll;
	(void)r;
	if (!st)
		st = &tmp;
	empty_status(st);
	int err = g->query ? g->query(g->extra, st) : MPI_SUCCESS;
	st->MPI_ERROR = err;
	return err;
}

static void greq_cancel(emu_rank *r, emu_req *q)
{
	greq *g = q->coll;
	(void)r;
	if (g->cancel)
		g->cancel(g->extra, q->complete);
}

int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn,
		       MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request)
{
	const char *call = "MPI_Grequest_start";
	EMU_API(r, call);
	if (!request)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL request pointer");
	greq *g = malloc(sizeof *g);
	if (!g)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for a "
			      "generalized request");
	*g = (greq){ query_fn, free_fn, cancel_fn, extra_state };
	emu_req *q = req_new(r, REQ_GREQ, call);
	q->coll = g;
	q->peer = MPI_PROC_NULL;
	*request = q->handle;
	return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request)
{
	const char *call = "MPI_Grequest_complete";
	EMU_API(r, call);
	emu_req *q = req_of(r, call, request);
	if (q->kind != REQ_GREQ)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "the request of %s is "
			      "not a generalized request (MPI_Grequest_start)",
			      q->call);
	if (q->complete)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "the generalized "
			      "request is complete already");
	req_done(q);
	return MPI_SUCCESS;
}
