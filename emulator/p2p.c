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

/* --------------------------------------------------------- datatypes */

static const struct {
	const char *name;
	int size;
} types[SIBYL_MPI_NBASIC_TYPES] = {
	[MPI_DATATYPE_NULL] = { "MPI_DATATYPE_NULL", 0 },
	[MPI_CHAR] = { "MPI_CHAR", sizeof(char) },
	[MPI_SIGNED_CHAR] = { "MPI_SIGNED_CHAR", sizeof(signed char) },
	[MPI_UNSIGNED_CHAR] = { "MPI_UNSIGNED_CHAR", sizeof(unsigned char) },
	[MPI_BYTE] = { "MPI_BYTE", 1 },
	[MPI_SHORT] = { "MPI_SHORT", sizeof(short) },
	[MPI_UNSIGNED_SHORT] = { "MPI_UNSIGNED_SHORT", sizeof(short) },
	[MPI_INT] = { "MPI_INT", sizeof(int) },
	[MPI_UNSIGNED] = { "MPI_UNSIGNED", sizeof(unsigned) },
	[MPI_LONG] = { "MPI_LONG", sizeof(long) },
	[MPI_UNSIGNED_LONG] = { "MPI_UNSIGNED_LONG", sizeof(long) },
	[MPI_LONG_LONG_INT] = { "MPI_LONG_LONG_INT", sizeof(long long) },
	[MPI_UNSIGNED_LONG_LONG] = { "MPI_UNSIGNED_LONG_LONG",
				     sizeof(long long) },
	[MPI_FLOAT] = { "MPI_FLOAT", sizeof(float) },
	[MPI_DOUBLE] = { "MPI_DOUBLE", sizeof(double) },
	[MPI_LONG_DOUBLE] = { "MPI_LONG_DOUBLE", sizeof(long double) },
	[MPI_WCHAR] = { "MPI_WCHAR", 4 },
	[MPI_C_BOOL] = { "MPI_C_BOOL", sizeof(_Bool) },
	[MPI_INT8_T] = { "MPI_INT8_T", 1 },
	[MPI_INT16_T] = { "MPI_INT16_T", 2 },
	[MPI_INT32_T] = { "MPI_INT32_T", 4 },
	[MPI_INT64_T] = { "MPI_INT64_T", 8 },
	[MPI_UINT8_T] = { "MPI_UINT8_T", 1 },
	[MPI_UINT16_T] = { "MPI_UINT16_T", 2 },
	[MPI_UINT32_T] = { "MPI_UINT32_T", 4 },
	[MPI_UINT64_T] = { "MPI_UINT64_T", 8 },
	[MPI_AINT] = { "MPI_AINT", sizeof(MPI_Aint) },
	[MPI_OFFSET] = { "MPI_OFFSET", sizeof(MPI_Offset) },
	[MPI_COUNT] = { "MPI_COUNT", sizeof(MPI_Count) },
	[MPI_PACKED] = { "MPI_PACKED", 1 },
	[MPI_FLOAT_INT] = { "MPI_FLOAT_INT", sizeof(struct { float a;
							      int b; }) },
	[MPI_DOUBLE_INT] = { "MPI_DOUBLE_INT", sizeof(struct { double a;
								int b; }) },
	[MPI_LONG_INT] = { "MPI_LONG_INT", sizeof(struct { long a; int b; }) },
	[MPI_2INT] = { "MPI_2INT", 2 * sizeof(int) },
	[MPI_SHORT_INT] = { "MPI_SHORT_INT", sizeof(struct { short a;
							      int b; }) },
	[MPI_LONG_DOUBLE_INT] = { "MPI_LONG_DOUBLE_INT",
				  sizeof(struct { long double a; int b; }) },
	[MPI_C_FLOAT_COMPLEX] = { "MPI_C_FLOAT_COMPLEX", 2 * sizeof(float) },
	[MPI_C_DOUBLE_COMPLEX] = { "MPI_C_DOUBLE_COMPLEX",
				   2 * sizeof(double) },
};

int emu_type_size(MPI_Datatype t)
{
	return t > 0 && t < SIBYL_MPI_NBASIC_TYPES ? types[t].size : -1;
}

const char *emu_type_name(MPI_Datatype t)
{
	return t >= 0 && t < SIBYL_MPI_NBASIC_TYPES ? types[t].name :
		"(invalid datatype)";
}

int MPI_Type_size(MPI_Datatype datatype, int *size)
{
	int s = emu_type_size(datatype);
	if (s < 0)
		return emu_mpi_error(emu.current, "MPI_Type_size",
				     MPI_ERR_TYPE, "%d is not a datatype",
				     datatype);
	*size = s;
	return MPI_SUCCESS;
}

/* ------------------------------------------------------ communicators */

typedef struct comm_info {
	int32_t ctx;
	int size, rank;
	const char *name;
} comm_info;

static void comm_get(emu_rank *r, MPI_Comm c, const char *call,
		     comm_info *ci)
{
	ci->ctx = -1;
	ci->size = ci->rank = 0;
	ci->name = "?";
	if (c == MPI_COMM_WORLD) {
		ci->ctx = 0;
		ci->size = (int)emu.nranks;
		ci->rank = r->world;
		ci->name = "MPI_COMM_WORLD";
	} else if (c == MPI_COMM_SELF) {
		ci->ctx = 1;
		ci->size = 1;
		ci->rank = 0;
		ci->name = "MPI_COMM_SELF";
	} else {
		emu_mpi_error(r, call, MPI_ERR_COMM, "%d is not a "
			      "communicator%s", c, c == MPI_COMM_NULL ?
			      " (MPI_COMM_NULL)" : "");
	}
}

static int32_t to_world(emu_rank *r, MPI_Comm c, int rank)
{
	return c == MPI_COMM_SELF ? r->world : rank;
}

static int from_world(emu_rank *r, MPI_Comm c, int32_t w)
{
	return c == MPI_COMM_SELF ? 0 : w;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	emu_rank *r = emu_self("MPI_Comm_rank");
	comm_info ci;
	comm_get(r, comm, "MPI_Comm_rank", &ci);
	*rank = ci.rank;
	return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	emu_rank *r = emu_self("MPI_Comm_size");
	comm_info ci;
	comm_get(r, comm, "MPI_Comm_size", &ci);
	*size = ci.size;
	return MPI_SUCCESS;
}

/* ----------------------------------------------------------- requests */

#define REQ_CHUNK 4096

static emu_req **chunks;
static uint32_t nchunks;
static emu_req *free_reqs;

static emu_req *req_new(emu_rank *r, int kind, const char *call)
{
	emu_req *q = free_reqs;
	if (!q) {
		emu_req **c = realloc(chunks, (nchunks + 1) * sizeof *c);
		emu_req *blk = calloc(REQ_CHUNK, sizeof *blk);
		if (!c || !blk || nchunks >= (uint32_t)INT_MAX / REQ_CHUNK)
			emu_fatal("out of memory for MPI requests");
		chunks = c;
		chunks[nchunks] = blk;
		for (int i = REQ_CHUNK - 1; i >= 0; i--) {
			blk[i].handle = (int32_t)(nchunks * REQ_CHUNK + i + 1);
			blk[i].next = free_reqs;
			free_reqs = &blk[i];
		}
		nchunks++;
		q = free_reqs;
	}
	free_reqs = q->next;
	int32_t h = q->handle;
	memset(q, 0, sizeof *q);
	q->handle = h;
	q->kind = (uint8_t)kind;
	q->owner = r;
	q->call = call;
	q->peer_world = -1;
	return q;
}

static void req_release(emu_req *q)
{
	free(q->tmp);
	q->tmp = NULL;
	q->kind = REQ_FREE;
	q->next = free_reqs;
	free_reqs = q;
}

emu_req *emu_req_get(int32_t h)
{
	if (h <= 0)
		return NULL;
	uint32_t i = (uint32_t)h - 1;
	if (i / REQ_CHUNK >= nchunks)
		return NULL;
	emu_req *q = &chunks[i / REQ_CHUNK][i % REQ_CHUNK];
	return q->kind == REQ_FREE ? NULL : q;
}

/* The request behind a handle of the calling rank, or an MPI error. */
static emu_req *req_of(emu_rank *r, const char *call, MPI_Request h)
{
	emu_req *q = emu_req_get(h);
	if (!q || q->owner != r)
		emu_mpi_error(r, call, MPI_ERR_REQUEST, "%d is not an active "
			      "request of this rank%s", h, q ? " (it belongs "
			      "to another rank)" : " (already completed and "
			      "freed?)");
	return q;
}

/* A request finished: wake its owner, or drop it if it was freed. */
static void req_done(emu_req *q)
{
	q->complete = 1;
	if (q->freed)
		req_release(q);
	else
		emu_wake(q->owner);
}

/* ------------------------------------------------------------ queues */

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
}

static void posted_remove(emu_rank *r, emu_req *q)
{
	if (q->prev)
		q->prev->next = q->next;
	else
		r->posted_head = q->next;
	if (q->next)
		q->next->prev = q->prev;
	else
		r->posted_tail = q->prev;
	q->next = q->prev = NULL;
	q->posted = 0;
}

static int matches(int32_t ctx, int32_t src, int tag, const emu_env *e)
{
	return e->ctx == ctx && (src < 0 || e->src == src) &&
		(tag == MPI_ANY_TAG || e->tag == tag);
}

static emu_req *match_posted(emu_rank *d, const emu_env *e)
{
	for (emu_req *q = d->posted_head; q; q = q->next)
		if (matches(q->ctx, q->peer_world, q->tag, e)) {
			posted_remove(d, q);
			return q;
		}
	return NULL;
}

static emu_msg *find_unexpected(emu_rank *r, int32_t ctx, int32_t src,
				int tag, emu_msg **prevp)
{
	emu_msg *prev = NULL;
	for (emu_msg *m = r->unexp_head; m; prev = m, m = m->next)
		if (matches(ctx, src, tag, &m->env)) {
			if (prevp)
				*prevp = prev;
			return m;
		}
	return NULL;
}

static void unexpected_append(emu_rank *r, emu_msg *m)
{
	m->next = NULL;
	if (r->unexp_tail)
		r->unexp_tail->next = m;
	else
		r->unexp_head = m;
	r->unexp_tail = m;
}

static void unexpected_remove(emu_rank *r, emu_msg *m, emu_msg *prev)
{
	if (prev)
		prev->next = m->next;
	else
		r->unexp_head = m->next;
	if (r->unexp_tail == m)
		r->unexp_tail = prev;
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
		memcpy(q->buf, data, n);
	q->msg_size = e->size;
	q->status.MPI_SOURCE = from_world(q->owner, q->comm, e->src);
	q->status.MPI_TAG = e->tag;
	q->status.MPI_ERROR = e->size > q->cap ? MPI_ERR_TRUNCATE :
		MPI_SUCCESS;
	q->status.sibyl_count = (long long)n;
	q->has_msg = 1;
	q->msg.src = (uint32_t)e->src;
	q->msg.seq = e->seq;
	q->msg_vt = e->vt;
}

/* Hand message m to the matching receive q (m is consumed). */
static void deliver(emu_req *q, emu_msg *m)
{
	emu_rank *d = q->owner;
	const emu_env *e = &m->env;

	if (m->sbuf) {
		/* Same process, rendezvous: copy from the sender's buffer
		 * and complete the send. */
		recv_matched(q, e, m->sbuf);
		emu_req *s = emu_req_get(e->sreq);
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
		void *dst = q->buf;
		if (e->size > q->cap) {
			if (!(q->tmp = malloc(e->size)))
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
	emu_req *s = emu_req_get(sreq);
	if (!s || s->kind != REQ_SEND)
		emu_fatal("internal error: clear-to-send for unknown request "
			  "%d from process %d", sreq, src_proc);
	if (has_ack) {
		s->has_msg = 1;
		s->msg.src = (uint32_t)s->peer_world;
		s->msg.seq = ack_seq;
		s->msg_vt = ack_vt;
	}
	emu_tr_send_data(src_proc, rreq, s->buf, s->cap, sreq);
}

void emu_p2p_send_done(int32_t sreq)
{
	emu_req *s = emu_req_get(sreq);
	if (s) {
		req_done(s);
	}
}

void emu_p2p_data_done(int32_t rreq)
{
	emu_req *q = emu_req_get(rreq);
	if (!q)
		return;
	if (q->tmp) {
		memcpy(q->buf, q->tmp, q->cap);
		free(q->tmp);
		q->tmp = NULL;
	}
	req_done(q);
}

/* ------------------------------------------------------- starting ops */

static uint64_t check_buffer(emu_rank *r, const char *call, const void *buf,
			     int count, MPI_Datatype type)
{
	int ts = emu_type_size(type);
	if (ts < 0 || type == MPI_DATATYPE_NULL)
		emu_mpi_error(r, call, MPI_ERR_TYPE, "%d is not a datatype%s",
			      type, type == MPI_DATATYPE_NULL ?
			      " (MPI_DATATYPE_NULL)" : "");
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative count %d",
			      count);
	uint64_t bytes = (uint64_t)count * (uint64_t)ts;
	if (bytes > INT_MAX)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "%llu bytes in one "
			      "message; this version moves at most %d",
			      (unsigned long long)bytes, INT_MAX);
	if (bytes && !buf)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "NULL buffer for %d "
			      "elements of %s", count, emu_type_name(type));
	return bytes;
}

static emu_req *start_send(emu_rank *r, const char *call, const void *buf,
			   int count, MPI_Datatype type, int dest, int tag,
			   MPI_Comm comm, int ssend)
{
	comm_info ci;
	comm_get(r, comm, call, &ci);
	uint64_t bytes = check_buffer(r, call, buf, count, type);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is not in 0..%d",
			      tag, MPI_TAG_UB_VALUE);
	if (dest != MPI_PROC_NULL && (dest < 0 || dest >= ci.size))
		emu_mpi_error(r, call, MPI_ERR_RANK, "destination %d is not "
			      "a rank of %s (size %d)", dest, ci.name,
			      ci.size);

	emu_req *q = req_new(r, REQ_SEND, call);
	q->comm = comm;
	q->peer = dest;
	q->tag = tag;
	q->ctx = ci.ctx;
	q->ssend = (uint8_t)ssend;
	q->cap = bytes;
	q->buf = (void *)buf;
	q->type = type;
	q->count = count;
	if (dest == MPI_PROC_NULL) {
		q->complete = 1;
		return q;
	}
	int32_t dw = to_world(r, comm, dest);
	q->peer_world = dw;

	emu_env e;
	memset(&e, 0, sizeof e);
	e.src = r->world;
	e.dst = dw;
	e.tag = tag;
	e.ctx = ci.ctx;
	e.size = bytes;
	e.seq = emu_rec_send(r, dw, tag, bytes);
	e.vt = emu_rec_vtime(r);
	e.sreq = q->handle;
	if (ssend)
		e.flags |= EMU_F_SSEND;

	emu_rank *d = emu_local_rank(dw);
	if (d) {
		emu_req *rq = match_posted(d, &e);
		emu_msg *m;
		if (rq) {
			emu_msg tmp;
			memset(&tmp, 0, sizeof tmp);
			tmp.env = e;
			if (!ssend) {
				recv_matched(rq, &e, buf);
				req_done(rq);
				q->complete = 1;
				return q;
			}
			/* Synchronous: go through the rendezvous path so
			 * the acknowledgement is recorded. */
			m = malloc(sizeof *m);
			if (!m)
				emu_fatal("out of memory");
			*m = tmp;
			m->sbuf = buf ? buf : (const void *)"";
			deliver(rq, m);
			return q;
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
		return q;
	}
	int p = emu_owner_proc(dw);
	if (!ssend && bytes <= EMU_EAGER_LIMIT) {
		emu_tr_send_env(p, &e, buf);
		q->complete = 1;
	} else {
		e.flags |= EMU_F_RNDV;
		emu_tr_send_env(p, &e, NULL);
	}
	return q;
}

/* The (source, tag) of a receive or probe: wildcards allowed. */
static void check_source_tag(emu_rank *r, const char *call,
			     const comm_info *ci, int source, int tag)
{
	if (tag != MPI_ANY_TAG && (tag < 0 || tag > MPI_TAG_UB_VALUE))
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is not "
			      "MPI_ANY_TAG nor in 0..%d", tag,
			      MPI_TAG_UB_VALUE);
	if (source != MPI_PROC_NULL && source != MPI_ANY_SOURCE &&
	    (source < 0 || source >= ci->size))
		emu_mpi_error(r, call, MPI_ERR_RANK, "source %d is not a rank "
			      "of %s (size %d)", source, ci->name, ci->size);
}

static emu_req *start_recv(emu_rank *r, const char *call, void *buf,
			   int count, MPI_Datatype type, int source, int tag,
			   MPI_Comm comm)
{
	comm_info ci;
	comm_get(r, comm, call, &ci);
	uint64_t bytes = check_buffer(r, call, buf, count, type);
	check_source_tag(r, call, &ci, source, tag);

	emu_req *q = req_new(r, REQ_RECV, call);
	q->comm = comm;
	q->peer = source;
	q->tag = tag;
	q->ctx = ci.ctx;
	q->buf = buf;
	q->cap = bytes;
	q->type = type;
	q->count = count;
	if (source == MPI_PROC_NULL) {
		q->status.MPI_SOURCE = MPI_PROC_NULL;
		q->status.MPI_TAG = MPI_ANY_TAG;
		q->complete = 1;
		return q;
	}
	q->peer_world = source == MPI_ANY_SOURCE ? -1 :
		to_world(r, comm, source);
	emu_msg *prev;
	emu_msg *m = find_unexpected(r, q->ctx, q->peer_world, tag, &prev);
	if (m) {
		unexpected_remove(r, m, prev);
		deliver(q, m);
	} else {
		posted_append(r, q);
	}
	return q;
}

/* ------------------------------------------------------ completing ops */

static const char *comm_name(MPI_Comm c)
{
	return c == MPI_COMM_SELF ? "MPI_COMM_SELF" : c == MPI_COMM_WORLD ?
		"MPI_COMM_WORLD" : "(invalid communicator)";
}

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
	if (q) {
		int same = r->blocked_in && strcmp(r->blocked_in, q->call) == 0;
		fmt_peer(peer, sizeof peer, q->peer, MPI_ANY_SOURCE);
		fmt_peer(tag, sizeof tag, q->tag, MPI_ANY_TAG);
		snprintf(buf, len, "%s%s(%s=%s, tag=%s, %s)", same ? "" :
			 "for ", same ? "" : q->call, q->kind == REQ_RECV ?
			 "source" : "dest", peer, tag, comm_name(q->comm));
	} else if (r->blocked_n == -1) {
		fmt_peer(peer, sizeof peer, r->blocked_src, MPI_ANY_SOURCE);
		fmt_peer(tag, sizeof tag, r->blocked_tag, MPI_ANY_TAG);
		snprintf(buf, len, "(source=%s, tag=%s, %s)", peer, tag,
			 comm_name(r->blocked_comm));
	} else if (r->blocked_n > 0) {
		snprintf(buf, len, "for %d request%s", r->blocked_n,
			 r->blocked_n == 1 ? "" : "s");
	}
}

/* Hand over a completed request: its message joins the next SEB's waits,
 * its status is copied out, the request is freed.  Returns its error. */
static int finish(emu_rank *r, emu_req *q, MPI_Status *st)
{
	int err = q->kind == REQ_RECV ? q->status.MPI_ERROR : MPI_SUCCESS;
	if (q->has_msg)
		emu_rec_consume(r, q->msg, q->msg_vt);
	if (st) {
		if (q->kind == REQ_RECV) {
			*st = q->status;
		} else {
			st->MPI_ERROR = MPI_SUCCESS;
			st->sibyl_cancelled = 0;
			st->sibyl_count = 0;
		}
		st->sibyl_cancelled = q->cancelled;
	}
	if (err == MPI_ERR_TRUNCATE) {
		char src[16];
		snprintf(src, sizeof src, "%d", q->status.MPI_SOURCE);
		emu_mpi_error(r, q->call, MPI_ERR_TRUNCATE, "a message of "
			      "%llu bytes from rank %s (tag %d) does not fit "
			      "the receive buffer of %d x %s = %llu bytes",
			      (unsigned long long)q->msg_size, src,
			      q->status.MPI_TAG, q->count,
			      emu_type_name(q->type),
			      (unsigned long long)q->cap);
	}
	req_release(q);
	return err;
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

static void wait_one(emu_rank *r, const char *call, emu_req *q)
{
	while (!q->complete) {
		r->blocked_req = q;
		emu_block(r, call);
	}
	r->blocked_req = NULL;
}

/* Give other ranks (and the transport) a turn inside a polling call. */
static void poll_turn(emu_rank *r)
{
	emu_tr_progress();
	emu_yield(r);
}

/* ---------------------------------------------------- the MPI calls */

static int send_common(const char *call, const void *buf, int count,
		       MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		       int ssend)
{
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
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
	return send_common("MPI_Send", buf, count, datatype, dest, tag, comm,
			   0);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return send_common("MPI_Rsend", buf, count, datatype, dest, tag,
			   comm, 0);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm)
{
	return send_common("MPI_Ssend", buf, count, datatype, dest, tag,
			   comm, 1);
}

static int isend_common(const char *call, const void *buf, int count,
			MPI_Datatype type, int dest, int tag, MPI_Comm comm,
			int ssend, MPI_Request *request)
{
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
	emu_req *q = start_send(r, call, buf, count, type, dest, tag, comm,
				ssend);
	*request = q->handle;
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request)
{
	return isend_common("MPI_Isend", buf, count, datatype, dest, tag,
			    comm, 0, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	return isend_common("MPI_Issend", buf, count, datatype, dest, tag,
			    comm, 1, request);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source,
	     int tag, MPI_Comm comm, MPI_Status *status)
{
	emu_rank *r = emu_self("MPI_Recv");
	emu_rec_enter(r);
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
	emu_rank *r = emu_self("MPI_Irecv");
	emu_rec_enter(r);
	emu_req *q = start_recv(r, "MPI_Irecv", buf, count, datatype, source,
				tag, comm);
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
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
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
	emu_rank *r = emu_self(call);
	uint64_t bytes = check_buffer(r, call, buf, count, datatype);
	void *copy = malloc(bytes ? bytes : 1);
	if (!copy)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for a "
			      "%llu-byte copy", (unsigned long long)bytes);
	if (bytes)
		memcpy(copy, buf, bytes);
	emu_rec_enter(r);
	emu_req *rq = start_recv(r, call, buf, count, datatype, source,
				 recvtag, comm);
	emu_req *sq = start_send(r, call, copy, count, datatype, dest,
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
	emu_rank *r = emu_self("MPI_Wait");
	emu_rec_enter(r);
	int err = MPI_SUCCESS;
	if (*request == MPI_REQUEST_NULL) {
		empty_status(status);
	} else {
		emu_req *q = req_of(r, "MPI_Wait", *request);
		wait_one(r, "MPI_Wait", q);
		err = finish(r, q, status);
		*request = MPI_REQUEST_NULL;
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
		finish(r, emu_req_get(reqs[i]), st);
		reqs[i] = MPI_REQUEST_NULL;
	}
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	const char *call = "MPI_Waitall";
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
	check_reqs(r, call, count, reqs);
	for (int i = 0; i < count; i++) {
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		emu_req *q = emu_req_get(reqs[i]);
		while (!q->complete) {
			r->blocked_req = q;
			emu_block(r, call);
		}
	}
	r->blocked_req = NULL;
	finish_all(r, count, reqs, statuses);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* First complete active request, -1 if none, -2 if all are null. */
static int first_complete(int count, MPI_Request reqs[])
{
	int active = 0;
	for (int i = 0; i < count; i++) {
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		active = 1;
		if (emu_req_get(reqs[i])->complete)
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
	int i = first_complete(count, reqs);
	if (i == -1 && !block) {
		poll_turn(r);
		i = first_complete(count, reqs);
	}
	while (i == -1 && block) {
		r->blocked_n = count;
		emu_block(r, call);
		i = first_complete(count, reqs);
	}
	r->blocked_n = 0;
	return i;
}

static int any_common(const char *call, int count, MPI_Request reqs[],
		      int *index, int *flag, MPI_Status *status, int block)
{
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
	int i = first_done(r, call, count, reqs, block);
	int err = MPI_SUCCESS;
	if (i >= 0) {
		err = finish(r, emu_req_get(reqs[i]), status);
		reqs[i] = MPI_REQUEST_NULL;
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
	emu_rec_leave(r, call);
	return err;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index,
		MPI_Status *status)
{
	return any_common("MPI_Waitany", count, reqs, index, NULL, status, 1);
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
		MPI_Status *status)
{
	return any_common("MPI_Testany", count, reqs, index, flag, status, 0);
}

static int some_common(const char *call, int incount, MPI_Request reqs[],
		       int *outcount, int indices[], MPI_Status statuses[],
		       int block)
{
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
	int i = first_done(r, call, incount, reqs, block);
	if (i == -2) {
		*outcount = MPI_UNDEFINED;
	} else {
		int n = 0;
		for (int j = 0; j < incount; j++) {
			if (reqs[j] == MPI_REQUEST_NULL)
				continue;
			emu_req *q = emu_req_get(reqs[j]);
			if (!q->complete)
				continue;
			finish(r, q, statuses ? &statuses[n] : NULL);
			reqs[j] = MPI_REQUEST_NULL;
			indices[n++] = j;
		}
		*outcount = n;
	}
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some_common("MPI_Waitsome", incount, reqs, outcount, indices,
			   statuses, 1);
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some_common("MPI_Testsome", incount, reqs, outcount, indices,
			   statuses, 0);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	emu_rank *r = emu_self("MPI_Test");
	emu_rec_enter(r);
	int err = MPI_SUCCESS;
	if (*request == MPI_REQUEST_NULL) {
		*flag = 1;
		empty_status(status);
	} else {
		emu_req *q = req_of(r, "MPI_Test", *request);
		if (!q->complete)
			poll_turn(r);
		*flag = q->complete;
		if (q->complete) {
			err = finish(r, q, status);
			*request = MPI_REQUEST_NULL;
		}
	}
	emu_rec_leave(r, "MPI_Test");
	return err;
}

static int all_complete(int count, MPI_Request reqs[])
{
	for (int i = 0; i < count; i++)
		if (reqs[i] != MPI_REQUEST_NULL &&
		    !emu_req_get(reqs[i])->complete)
			return 0;
	return 1;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag,
		MPI_Status statuses[])
{
	const char *call = "MPI_Testall";
	emu_rank *r = emu_self(call);
	emu_rec_enter(r);
	check_reqs(r, call, count, reqs);
	if (!all_complete(count, reqs))
		poll_turn(r);
	*flag = all_complete(count, reqs);
	if (*flag) {
		finish_all(r, count, reqs, statuses);
	}
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

static int probe_common(const char *call, int source, int tag, MPI_Comm comm,
			int *flag, MPI_Status *status)
{
	emu_rank *r = emu_self(call);
	comm_info ci;
	comm_get(r, comm, call, &ci);
	check_source_tag(r, call, &ci, source, tag);
	emu_rec_enter(r);
	if (source == MPI_PROC_NULL) {
		if (flag)
			*flag = 1;
		if (status) {
			empty_status(status);
			status->MPI_SOURCE = MPI_PROC_NULL;
		}
		emu_rec_leave(r, call);
		return MPI_SUCCESS;
	}
	int32_t src = source == MPI_ANY_SOURCE ? -1 :
		to_world(r, comm, source);
	emu_msg *m = find_unexpected(r, ci.ctx, src, tag, NULL);
	if (!m && flag) {
		poll_turn(r);
		m = find_unexpected(r, ci.ctx, src, tag, NULL);
	}
	while (!m && !flag) {
		r->blocked_n = -1;
		r->blocked_src = source;
		r->blocked_tag = tag;
		r->blocked_comm = comm;
		emu_block(r, call);
		m = find_unexpected(r, ci.ctx, src, tag, NULL);
	}
	r->blocked_n = 0;
	if (flag)
		*flag = m != NULL;
	if (m && status) {
		status->MPI_SOURCE = from_world(r, comm, m->env.src);
		status->MPI_TAG = m->env.tag;
		status->MPI_ERROR = MPI_SUCCESS;
		status->sibyl_cancelled = 0;
		status->sibyl_count = (long long)m->env.size;
	}
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return probe_common("MPI_Probe", source, tag, comm, NULL, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	return probe_common("MPI_Iprobe", source, tag, comm, flag, status);
}

int MPI_Request_free(MPI_Request *request)
{
	emu_rank *r = emu_self("MPI_Request_free");
	emu_req *q = req_of(r, "MPI_Request_free", *request);
	if (q->complete)
		req_release(q);
	else
		q->freed = 1;
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request *request)
{
	emu_rank *r = emu_self("MPI_Cancel");
	emu_req *q = req_of(r, "MPI_Cancel", *request);
	/* Only a receive not matched yet can be cancelled; cancelling a
	 * send has no effect (MPI_Test_cancelled then says false). */
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

int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype,
		  int *count)
{
	int ts = emu_type_size(datatype);
	if (ts <= 0)
		return emu_mpi_error(emu.current, "MPI_Get_count",
				     MPI_ERR_TYPE, "%d is not a datatype",
				     datatype);
	if (status->sibyl_count % ts)
		*count = MPI_UNDEFINED;
	else
		*count = (int)(status->sibyl_count / ts);
	return MPI_SUCCESS;
}

int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype,
		     int *count)
{
	return MPI_Get_count(status, datatype, count);
}

/* ------------------------------------------------------------ leaks */

unsigned long emu_p2p_report_leaks(unsigned long limit)
{
	unsigned long n = 0;
	for (uint32_t c = 0; c < nchunks; c++)
		for (int i = 0; i < REQ_CHUNK; i++) {
			emu_req *q = &chunks[c][i];
			if (q->kind == REQ_FREE || q->freed)
				continue;
			if (n++ < limit)
				fprintf(stderr, "sibyl: rank %d: the request "
					"of %s(%s=%d, tag=%d) was %s\n",
					q->owner->world, q->call,
					q->kind == REQ_RECV ? "source" : "dest",
					q->peer, q->tag, q->complete ?
					"never waited for or freed" :
					"never completed");
		}
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
	return n;
}
