/*
 * coll.c -- collective operations of virtual ranks (emu_coll.h): the MPI
 * calls, and the engine that runs their schedules (coll_sched.h; the
 * algorithms are in coll_alg.c).
 *
 * A call checks its arguments, brings its data into the form the
 * algorithms work on -- packed bytes: a contiguous user buffer is used
 * as it is, anything else is packed into a temporary and unpacked at the
 * end; gathers, scatters and all-to-alls reach the user's buffers block
 * by block through segments -- picks the algorithm and runs it.  A
 * blocking call runs the schedule to its end, waiting for each round's
 * messages with emu_p2p_wait (which lets the rank's non-blocking
 * collectives progress meanwhile); a non-blocking call starts it, returns
 * a request, and the schedule advances whenever its rank is inside an MPI
 * call (the hooks coll_progress and coll_progress_rank, which
 * emu_coll_init registers with point-to-point), never blocking.
 *
 * Messages go on the communicator's collective context (ctx + 1) with the
 * communicator's collective sequence number as the tag, so collectives
 * never match user messages nor each other (MPI requires every rank to
 * start the collectives of a communicator in the same order).
 *
 * Trace.  After each round that received something, the rank's SEB is cut
 * (emu_rec_step) and the local work the round enabled -- reductions,
 * copies -- is the new SEB's duration (measured, times the CPU factor),
 * so the trace carries the algorithm's dependencies and its computation.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"

/* ------------------------------------------------------ temporaries */

typedef union temp_hdr {
	union temp_hdr *next;
	max_align_t align;
} temp_hdr;

void *coll_alloc(coll *s, uint64_t bytes)
{
	temp_hdr *h = NULL;
	if (bytes < SIZE_MAX - sizeof *h)
		h = malloc(sizeof *h + (bytes ? bytes : 1));
	if (!h)
		emu_mpi_error(s->r, s->call, MPI_ERR_NO_MEM, "no memory for a "
			      "%llu-byte temporary of the collective",
			      (unsigned long long)bytes);
	h->next = s->temps;
	s->temps = h;
	return h + 1;
}

static void free_temps(coll *s)
{
	temp_hdr *h = s->temps;
	while (h) {
		temp_hdr *n = h->next;
		free(h);
		h = n;
	}
	s->temps = NULL;
}

/* --------------------------------------------------------- the round */

static coll_op *op_new(coll *s)
{
	if (s->nops == s->cops) {
		int c = 2 * s->cops;
		coll_op *p = s->ops == s->inline_ops ? malloc(c * sizeof *p) :
			realloc(s->ops, c * sizeof *p);
		if (!p)
			emu_mpi_error(s->r, s->call, MPI_ERR_NO_MEM, "no "
				      "memory for %d messages", c);
		if (s->ops == s->inline_ops)
			memcpy(p, s->inline_ops, sizeof s->inline_ops);
		s->ops = p;
		s->cops = c;
	}
	coll_op *o = &s->ops[s->nops++];
	memset(o, 0, sizeof *o);
	return o;
}

/* Zero-byte messages go from and to emu.coll.nothing. */
void coll_send(coll *s, int peer, const void *buf, uint64_t bytes)
{
	coll_op *o = op_new(s);
	o->send = 1;
	o->peer = peer;
	o->buf = bytes ? (char *)buf : emu.coll.nothing;
	o->bytes = bytes;
}

void coll_recv(coll *s, int peer, void *buf, uint64_t bytes)
{
	coll_op *o = op_new(s);
	o->peer = peer;
	o->buf = bytes ? buf : emu.coll.nothing;
	o->bytes = bytes;
	s->nrecv++;
}

static char *seg_temp(coll *s, uint64_t bytes)
{
	char *t = malloc(bytes ? bytes : 1);
	if (!t)
		emu_mpi_error(s->r, s->call, MPI_ERR_NO_MEM, "no memory for "
			      "a %llu-byte block", (unsigned long long)bytes);
	return t;
}

void coll_send_seg(coll *s, int peer, const coll_seg *g, int j)
{
	uint64_t n = coll_seg_bytes(g, j);
	if (!n || emu_dt_contiguous(coll_seg_type(g, j))) {
		coll_send(s, peer, coll_seg_addr(g, j), n);
		return;
	}
	char *t = seg_temp(s, n);
	coll_seg_pack(g, j, t);
	coll_send(s, peer, t, n);
	s->ops[s->nops - 1].owned = 1;
}

void coll_recv_seg(coll *s, int peer, const coll_seg *g, int j)
{
	uint64_t n = coll_seg_bytes(g, j);
	if (!n || emu_dt_contiguous(coll_seg_type(g, j))) {
		coll_recv(s, peer, coll_seg_addr(g, j), n);
		return;
	}
	coll_recv(s, peer, seg_temp(s, n), n);
	coll_op *o = &s->ops[s->nops - 1];
	o->owned = 1;
	o->ubuf = coll_seg_addr(g, j);
	o->ucount = coll_seg_count(g, j);
	o->utype = coll_seg_type(g, j);
}

/* Receives first: a message finds its receive posted more often. */
static void start_round(coll *s)
{
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < s->nops; k++) {
			coll_op *o = &s->ops[k];
			if (o->send != pass)
				continue;
			int32_t w = emu_group_world(s->group, o->peer);
			o->q = o->send ?
				emu_p2p_isend_raw(s->r, s->call, o->buf,
						  o->bytes, w, s->ctx, s->tag,
						  s->comm) :
				emu_p2p_irecv_raw(s->r, s->call, o->buf,
						  o->bytes, w, s->ctx, s->tag,
						  s->comm);
		}
	s->rounds++;
}

static coll_op *first_pending(coll *s)
{
	for (int k = 0; k < s->nops; k++)
		if (!s->ops[k].q->complete)
			return &s->ops[k];
	return NULL;
}

/* The round has completed: hand its requests over (what they received
 * joins the SEB's waits) and unpack what needs it. */
static void end_round(coll *s)
{
	for (int k = 0; k < s->nops; k++) {
		coll_op *o = &s->ops[k];
		if (!o->send && o->q->msg_size > o->bytes)
			emu_mpi_error(s->r, s->call, MPI_ERR_TRUNCATE, "%llu "
				      "bytes came from rank %d of %s where "
				      "round %u of the %s algorithm expects "
				      "%llu: do all its ranks call the same "
				      "collectives in the same order, with "
				      "matching counts and types?",
				      (unsigned long long)o->q->msg_size,
				      o->peer, emu_comm_describe(s->r,
								 s->comm),
				      s->rounds, s->alg->name,
				      (unsigned long long)o->bytes);
		emu_p2p_finish(s->r, o->q, NULL);
		o->q = NULL;
		if (o->ubuf)
			emu_dt_unpack(o->buf, o->bytes, o->ubuf, o->ucount,
				      o->utype);
		if (o->owned)
			free(o->buf);
	}
	s->nops = 0;
	s->nrecv = 0;
}

/* End the SEB that waited for the round's messages: its duration is the
 * local work since (measured, scaled like any computation). */
static void cut(coll *s, const emu_stamp *t0)
{
	emu_span sp;
	emu_stamp_since(t0, &sp);
	if (s->r->in_call)
		emu_rec_step_measured(s->r, s->call, &sp);
}

/* Run s as far as it goes without blocking; 1 once it has finished. */
static int advance(coll *s)
{
	while (!s->done) {
		int received = 0;
		if (s->nops) {
			if (first_pending(s))
				return 0;
			received = s->nrecv > 0;
			end_round(s);
		}
		emu_stamp t0 = { 0, 0, 0, 0 };
		if (received)
			emu_stamp_now(&t0);
		s->reduced = 0;
		int more = s->alg->step(s);
		/* The last step's work counts only when it computed. */
		if (received && (more || s->reduced))
			cut(s, &t0);
		if (!more) {
			s->done = 1;
			break;
		}
		start_round(s);
	}
	return 1;
}

void coll_reduce(coll *s, const void *in, void *inout, int64_t n)
{
	if (n <= 0)
		return;
	s->reduced = 1;
	if (!s->layout) {
		const char *a = in;
		char *b = inout;
		while (n > 0) {
			int k = n > INT_MAX ? INT_MAX : (int)n;
			emu_op_apply(s->op, a, b, k, s->rtype);
			a += (size_t)k * s->esz;
			b += (size_t)k * s->esz;
			n -= k;
		}
		return;
	}
	/* Packed is not the memory layout (a pair type; a user operation on
	 * a type with holes): lay both sides out, apply, pack the result. */
	MPI_Aint ext = emu_dt_extent(s->rtype), lb = emu_dt_lb(s->rtype);
	uint64_t span = (uint64_t)n * (uint64_t)(ext > 0 ? ext : -ext);
	char *x = calloc(1, span + 1), *y = calloc(1, span + 1);
	if (!x || !y)
		emu_mpi_error(s->r, s->call, MPI_ERR_NO_MEM, "no memory to "
			      "apply the operation to %lld elements",
			      (long long)n);
	/* The buffers' addresses, so that the data begins at x and y. */
	char *bx = x - lb, *by = y - lb;
	uint64_t bytes = (uint64_t)n * s->esz;
	emu_dt_unpack(in, bytes, bx, n, s->rtype);
	emu_dt_unpack(inout, bytes, by, n, s->rtype);
	emu_op_apply(s->op, bx, by, (int)n, s->rtype);
	emu_dt_pack(by, n, s->rtype, inout);
	free(x);
	free(y);
}

/* ------------------------------------------------ running a schedule */

static void seg_types(const coll_seg *g, int n, void (*f)(MPI_Datatype))
{
	if (g->types) {
		for (int j = 0; j < n; j++)
			f(g->types[j]);
	} else if (g->type != MPI_DATATYPE_NULL) {
		f(g->type);
	}
}

/* A non-blocking collective retains the datatypes it will use later: MPI
 * allows MPI_Type_free meanwhile. */
static void hold_types(coll *s, void (*f)(MPI_Datatype))
{
	int nbr = s->kind >= COLL_NEIGHBOR_ALLGATHER;
	seg_types(&s->sseg, nbr ? s->outdeg : s->size, f);
	seg_types(&s->rseg, nbr ? s->indeg : s->size, f);
	if (s->fini)
		f(s->utype);
	if (s->op != MPI_OP_NULL)
		f(s->rtype);
}

/* The end: unpack into the user's buffers, release what was held. */
static void conclude(coll *s)
{
	if (s->fini)
		s->fini(s);
	free_temps(s);
	if (s->ops != s->inline_ops)
		free(s->ops);
	s->ops = s->inline_ops;
	s->cops = COLL_INLINE_OPS;
	if (s->op != MPI_OP_NULL)
		coll_op_drop(s->op);
	if (s->nb)
		hold_types(s, emu_dt_release);
}

static void run_blocking(coll *s)
{
	while (!advance(s))
		emu_p2p_wait(s->r, s->call, first_pending(s)->q);
	conclude(s);
}

static void unlink_active(coll *s)
{
	emu_rank *r = s->r;
	if (s->prev)
		s->prev->next = s->next;
	else if (r->coll_active == s)
		r->coll_active = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = NULL;
}

/* A non-blocking collective has finished: conclude it and complete its
 * request -- last, since that may free s (a freed request). */
static void nb_finished(coll *s)
{
	unlink_active(s);
	conclude(s);
	emu_req *q = s->req;
	if (q)
		emu_req_complete(q);
	else
		free(s);          /* its request went away before */
}

static int start(coll *s, MPI_Request *request)
{
	if (!s->alg)
		s->alg = coll_alg_choose(s);
	if (s->op != MPI_OP_NULL)
		coll_op_hold(s->op);
	if (!request) {
		run_blocking(s);
		return MPI_SUCCESS;
	}
	s->nb = 1;
	hold_types(s, emu_dt_retain);
	emu_req *q = emu_req_new_coll(s->r, s->call, s);
	q->comm = s->comm;
	s->req = q;
	*request = q->handle;
	s->busy = 1;
	int done = advance(s);
	s->busy = 0;
	if (done) {
		nb_finished(s);
	} else {
		emu_rank *r = s->r;
		s->next = r->coll_active;
		if (s->next)
			s->next->prev = s;
		r->coll_active = s;
	}
	return MPI_SUCCESS;
}

/* The hooks point-to-point calls (emu_p2p.h, emu_p2p_coll_hooks). */
static int coll_progress(emu_rank *r, emu_req *q)
{
	coll *s = q->coll;
	if (q->complete || !s)
		return q->complete;
	if (s->busy || s->r != r)
		return 0;
	s->busy = 1;
	int done = advance(s);
	s->busy = 0;
	if (done)
		nb_finished(s);
	return done;
}

static int coll_progress_rank(emu_rank *r)
{
	int n = 0;
	coll *next;
	for (coll *s = r->coll_active; s; s = next) {
		next = s->next;
		if (s->busy)
			continue;
		unsigned before = s->rounds;
		s->busy = 1;
		int done = advance(s);
		s->busy = 0;
		if (done)
			nb_finished(s);
		if (done || s->rounds != before)
			n++;
	}
	return n;
}

static void coll_release(emu_req *q)
{
	coll *s = q->coll;
	q->coll = NULL;
	if (!s)
		return;
	if (s->done) {
		free(s);
		return;
	}
	/* Still running (its request freed by the program): it finishes
	 * on its own and frees itself then. */
	s->req = NULL;
}

static void coll_describe(const emu_req *q, char *buf, size_t len)
{
	const coll *s = q->coll;
	if (!s) {
		snprintf(buf, len, "for %s", q->call);
		return;
	}
	int n = snprintf(buf, len, "for %s (%s, %s)", s->call, s->alg->name,
			 emu_comm_describe(s->r, s->comm));
	for (int k = 0; k < s->nops && n >= 0 && (size_t)n < len; k++) {
		const coll_op *o = &s->ops[k];
		if (!o->q || o->q->complete)
			continue;
		snprintf(buf + n, len - (size_t)n, ": round %u %s rank %d",
			 s->rounds, o->send ? "sends to" : "waits for",
			 o->peer);
		break;
	}
}

void emu_coll_init(void)
{
	static const emu_p2p_coll_hooks hooks = {
		coll_progress, coll_progress_rank, coll_release, coll_describe
	};
	coll_alg_init();
	emu_p2p_set_coll_hooks(&hooks);
}

void emu_coll_fini(void)
{
}

/* -------------------------------------------------- argument checks */

static emu_comm *comm_of(emu_rank *r, const char *call, MPI_Comm comm)
{
	emu_comm *c = emu_comm_get(r, comm, call);
	if (c->remote)
		emu_mpi_error(r, call, MPI_ERR_UNSUPPORTED_OPERATION, "%s is "
			      "an intercommunicator: collectives over "
			      "intercommunicators are not emulated by this "
			      "version of Sibyl; merge it (MPI_Intercomm_merge) "
			      "and use the intracommunicator",
			      emu_comm_describe(r, comm));
	return c;
}

static void check_count(emu_rank *r, const char *call, int count,
			const char *what)
{
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative %s %d", what,
			      count);
}

/* A buffer of count elements of t (type and count checked). */
static void check_buf(emu_rank *r, const char *call, const void *buf,
		      int count, MPI_Datatype t, const char *what)
{
	emu_dt_check(r, call, t);
	check_count(r, call, count, what);
	if (buf == MPI_IN_PLACE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the %s buffer is "
			      "MPI_IN_PLACE, which this call does not allow "
			      "there (on this rank)", what);
	if (!buf && count > 0 && emu_dt_size(t) > 0 && emu_dt_contiguous(t))
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "the %s buffer is NULL "
			      "for %d elements of %s", what, count,
			      emu_dt_name(t));
}

static void check_root(emu_rank *r, const char *call, int root,
		       const emu_comm *c, MPI_Comm comm)
{
	if (root < 0 || root >= emu_comm_size(c))
		emu_mpi_error(r, call, MPI_ERR_ROOT, "root %d is not a rank "
			      "of %s (size %d)", root,
			      emu_comm_describe(r, comm), emu_comm_size(c));
}

/* Counts of a v-collective: n non-negative ints (and displacements). */
static void check_counts(emu_rank *r, const char *call, const int *counts,
			 const void *displs, int n, const char *what)
{
	if (!counts || !displs)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s array",
			      !counts ? what : "displacement");
	for (int i = 0; i < n; i++)
		if (counts[i] < 0)
			emu_mpi_error(r, call, MPI_ERR_COUNT, "%s[%d] is "
				      "negative (%d)", what, i, counts[i]);
}

/* An operation a collective reduction can use on t. */
static void check_op(emu_rank *r, const char *call, MPI_Op op,
		     MPI_Datatype t)
{
	emu_op_check(r, call, op, t);
	if (op == MPI_REPLACE || op == MPI_NO_OP)
		emu_mpi_error(r, call, MPI_ERR_OP, "%s is for one-sided "
			      "accumulates (MPI-3.1 11.3.4), not for "
			      "collective reductions",
			      op == MPI_REPLACE ? "MPI_REPLACE" : "MPI_NO_OP");
}

static void check_alias(emu_rank *r, const char *call, const void *sendbuf,
			const void *recvbuf, int count)
{
	if (sendbuf == recvbuf && count > 0)
		emu_mpi_error(r, call, MPI_ERR_BUFFER, "the send and receive "
			      "buffers are the same; pass MPI_IN_PLACE as the "
			      "send buffer to reduce in place");
}

/* ------------------------------------------------------- setting up */

/* s for a collective of rank r on communicator c (arguments checked). */
static void setup(coll *s, emu_rank *r, const char *call, int kind,
		  MPI_Comm comm, emu_comm *c)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->call = call;
	s->kind = (uint8_t)kind;
	s->comm = comm;
	s->group = c->group;
	s->rank = c->rank;
	s->size = emu_comm_size(c);
	s->ctx = c->ctx + 1;
	s->tag = (int)(c->coll_seq++ & INT_MAX);
	s->ops = s->inline_ops;
	s->cops = COLL_INLINE_OPS;
	s->op = MPI_OP_NULL;
	s->commute = 1;
	s->esz = 1;
}

/* s for a local computation of rank r (MPI_Reduce_local). */
static void setup_local(coll *s, emu_rank *r, const char *call)
{
	memset(s, 0, sizeof *s);
	s->r = r;
	s->call = call;
	s->ops = s->inline_ops;
	s->cops = COLL_INLINE_OPS;
	s->op = MPI_OP_NULL;
	s->esz = 1;
}

/* The collective's state: on the stack of a blocking call, on the heap
 * for a non-blocking one (freed with its request). */
static coll *new_coll(emu_rank *r, const char *call, coll *local,
		      MPI_Request *request)
{
	if (!request)
		return local;
	coll *s = malloc(sizeof *s);
	if (!s)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for a "
			      "non-blocking collective");
	return s;
}

/* count elements of t at buf, packed: buf itself when contiguous. */
static const char *packed_in(coll *s, const void *buf, int64_t count,
			     MPI_Datatype t)
{
	if (emu_dt_contiguous(t))
		return buf;
	uint64_t n = (uint64_t)count * (uint64_t)emu_dt_size(t);
	char *p = coll_alloc(s, n);
	if (n)
		emu_dt_pack(buf, count, t, p);
	return p;
}

static void fini_unpack(coll *s)
{
	uint64_t n = (uint64_t)s->ucount * (uint64_t)emu_dt_size(s->utype);
	if (n)
		emu_dt_unpack(s->rbuf, n, s->ubuf, s->ucount, s->utype);
}

/* Where count elements of t for buf are produced, packed: buf itself
 * when contiguous, else a temporary unpacked into buf at the end (holding
 * buf's packed contents first when `load'). */
static char *packed_out(coll *s, void *buf, int count, MPI_Datatype t,
			int load)
{
	if (emu_dt_contiguous(t))
		return buf;
	char *p = load ? (char *)packed_in(s, buf, count, t) :
		coll_alloc(s, (uint64_t)count * (uint64_t)emu_dt_size(t));
	s->ubuf = buf;
	s->ucount = count;
	s->utype = t;
	s->fini = fini_unpack;
	return p;
}

/*
 * The reduction of count elements of t with op, on packed data: a
 * predefined operation works on the basic type t is made of, a user
 * operation on t itself.  Where the packed form of those is not their
 * memory layout (pair types, types with holes), coll_reduce() lays the
 * data out before applying the operation.
 */
static void reduction(coll *s, const char *call, int count, MPI_Datatype t,
		      MPI_Op op)
{
	emu_op_check(s->r, call, op, t);
	s->op = op;
	s->commute = (uint8_t)emu_op_commutative(op);
	int64_t n = 1;
	if (op >= MPI_MAX && op <= MPI_NO_OP) {
		MPI_Datatype b = emu_dt_basic(t, &n);
		if (b == MPI_DATATYPE_NULL) {
			/* No data, or MPI_REPLACE on mixed types: bytes. */
			b = MPI_BYTE;
			n = emu_dt_size(t);
		}
		s->rtype = b;
	} else {
		s->rtype = t;
	}
	s->layout = !emu_dt_contiguous(s->rtype);
	s->esz = (uint32_t)emu_dt_size(s->rtype);
	s->emul = n;
	s->count = (int64_t)count * n;
	if (s->esz == 0) {
		s->esz = 1;
		s->count = 0;
	}
}

/* ------------------------------------------------------------ barrier */

static int barrier_common(const void *site, const char *call, MPI_Comm comm,
			  MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, COLL_BARRIER, comm, c);
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Barrier(MPI_Comm comm)
{
	return barrier_common(EMU_SITE, "MPI_Barrier", comm, NULL);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	return barrier_common(EMU_SITE, "MPI_Ibarrier", comm, request);
}

/* -------------------------------------------------------------- bcast */

static int bcast_common(const void *site, const char *call, void *buf, int count,
			MPI_Datatype t, int root, MPI_Comm comm,
			MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	check_root(r, call, root, c, comm);
	check_buf(r, call, buf, count, t, "data");
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, COLL_BCAST, comm, c);
	s->root = root;
	s->bytes = (uint64_t)count * (uint64_t)emu_dt_size(t);
	if (c->rank == root)
		s->rbuf = (char *)packed_in(s, buf, count, t);
	else
		s->rbuf = packed_out(s, buf, count, t, 0);
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
	      MPI_Comm comm)
{
	return bcast_common(EMU_SITE, "MPI_Bcast", buffer, count, datatype, root, comm,
			    NULL);
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
	       MPI_Comm comm, MPI_Request *request)
{
	return bcast_common(EMU_SITE, "MPI_Ibcast", buffer, count, datatype, root, comm,
			    request);
}

/* --------------------------------------- reduce, allreduce, scans */

/* The buffers of a reduction of count elements of t; `out' is 0 where
 * the rank has no output (the non-roots of MPI_Reduce). */
static void check_reduction_buffers(emu_rank *r, const char *call,
				    const void *sendbuf, const void *recvbuf,
				    int count, MPI_Datatype t, int out)
{
	if (sendbuf == MPI_IN_PLACE) {
		if (!out)
			emu_mpi_error(r, call, MPI_ERR_ARG, "MPI_IN_PLACE "
				      "is for the root only; other ranks pass "
				      "their data in the send buffer");
		check_buf(r, call, recvbuf, count, t, "receive");
		return;
	}
	check_buf(r, call, sendbuf, count, t, "send");
	if (out) {
		check_buf(r, call, recvbuf, count, t, "receive");
		check_alias(r, call, sendbuf, recvbuf, count);
	}
}

/* Their packed forms: with MPI_IN_PLACE the input is the output buffer's
 * contents (then sbuf == rbuf), else sendbuf. */
static void reduction_buffers(coll *s, const void *sendbuf, void *recvbuf,
			      int count, MPI_Datatype t, int out)
{
	if (sendbuf == MPI_IN_PLACE) {
		s->in_place = 1;
		s->rbuf = packed_out(s, recvbuf, count, t, 1);
		s->sbuf = s->rbuf;
		return;
	}
	if (out)
		s->rbuf = packed_out(s, recvbuf, count, t,
				     s->kind == COLL_EXSCAN && s->rank == 0);
	s->sbuf = packed_in(s, sendbuf, count, t);
}

static int reduce_common(const void *site, const char *call, int kind, const void *sendbuf,
			 void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
			 int root, MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	if (kind == COLL_REDUCE)
		check_root(r, call, root, c, comm);
	emu_dt_check(r, call, t);
	check_count(r, call, count, "count");
	check_op(r, call, op, t);
	int out = kind != COLL_REDUCE || c->rank == root;
	check_reduction_buffers(r, call, sendbuf, recvbuf, count, t, out);
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->root = root;
	reduction_buffers(s, sendbuf, recvbuf, count, t, out);
	reduction(s, call, count, t, op);
	s->bytes = (uint64_t)s->count * s->esz;
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
	return reduce_common(EMU_SITE, "MPI_Reduce", COLL_REDUCE, sendbuf, recvbuf,
			     count, datatype, op, root, comm, NULL);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request)
{
	return reduce_common(EMU_SITE, "MPI_Ireduce", COLL_REDUCE, sendbuf, recvbuf,
			     count, datatype, op, root, comm, request);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	return reduce_common(EMU_SITE, "MPI_Allreduce", COLL_ALLREDUCE, sendbuf,
			     recvbuf, count, datatype, op, 0, comm, NULL);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request)
{
	return reduce_common(EMU_SITE, "MPI_Iallreduce", COLL_ALLREDUCE, sendbuf,
			     recvbuf, count, datatype, op, 0, comm, request);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
	     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	return reduce_common(EMU_SITE, "MPI_Scan", COLL_SCAN, sendbuf, recvbuf, count,
			     datatype, op, 0, comm, NULL);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request)
{
	return reduce_common(EMU_SITE, "MPI_Iscan", COLL_SCAN, sendbuf, recvbuf, count,
			     datatype, op, 0, comm, request);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
	return reduce_common(EMU_SITE, "MPI_Exscan", COLL_EXSCAN, sendbuf, recvbuf,
			     count, datatype, op, 0, comm, NULL);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		MPI_Request *request)
{
	return reduce_common(EMU_SITE, "MPI_Iexscan", COLL_EXSCAN, sendbuf, recvbuf,
			     count, datatype, op, 0, comm, request);
}

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype datatype, MPI_Op op)
{
	const char *call = "MPI_Reduce_local";
	EMU_API(r, call);
	check_buf(r, call, inbuf, count, datatype, "input");
	check_buf(r, call, inoutbuf, count, datatype, "input-output");
	emu_op_check(r, call, op, datatype);
	int user = op < MPI_MAX || op > MPI_NO_OP;
	if (user || emu_dt_contiguous(datatype) ||
	    (datatype > 0 && datatype < SIBYL_MPI_NBASIC_TYPES)) {
		/* The operation works on the memory layout. */
		emu_op_apply(op, inbuf, inoutbuf, count, datatype);
		return MPI_SUCCESS;
	}
	/* A predefined operation on a type with holes: on packed data. */
	coll s;
	setup_local(&s, r, call);
	reduction(&s, call, count, datatype, op);
	uint64_t n = (uint64_t)s.count * s.esz;
	char *a = malloc(n ? n : 1), *b = malloc(n ? n : 1);
	if (!a || !b) {
		free(a);
		free(b);
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory to pack "
			      "%llu bytes", (unsigned long long)n);
	}
	emu_dt_pack(inbuf, count, datatype, a);
	emu_dt_pack(inoutbuf, count, datatype, b);
	coll_reduce(&s, a, b, s.count);
	emu_dt_unpack(b, n, inoutbuf, count, datatype);
	free(a);
	free(b);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------ gather, scatter */

static void seg_set(coll_seg *g, const void *base, int count, MPI_Datatype t)
{
	memset(g, 0, sizeof *g);
	g->base = (char *)base;
	g->count = count;
	g->type = t;
}

static void segv_set(coll_seg *g, const void *base, const int *counts,
		     const int *displs, MPI_Datatype t)
{
	memset(g, 0, sizeof *g);
	g->base = (char *)base;
	g->counts = counts;
	g->displs = displs;
	g->type = t;
}

/*
 * Gather and gatherv (counts != NULL).  Non-roots: their block in sseg
 * (recv arguments ignored); the root: rseg over the receive buffer, its
 * own block in sseg unless MPI_IN_PLACE.  bytes: a block (gather).
 */
static int gather_common(const void *site, const char *call, int kind, const void *sendbuf,
			 int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 int recvcount, const int *recvcounts,
			 const int *displs, MPI_Datatype recvtype, int root,
			 MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	check_root(r, call, root, c, comm);
	int me = c->rank, P = emu_comm_size(c);
	int in_place = me == root && sendbuf == MPI_IN_PLACE;
	if (!in_place)
		check_buf(r, call, sendbuf, sendcount, sendtype, "send");
	if (me == root) {
		int n = recvcount;
		if (kind == COLL_GATHERV) {
			emu_dt_check(r, call, recvtype);
			check_counts(r, call, recvcounts, displs, P,
				     "recvcounts");
			n = recvcounts[root];
		}
		check_buf(r, call, recvbuf, n, recvtype, "receive");
	}
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->root = root;
	s->in_place = (uint8_t)in_place;
	if (!in_place) {
		seg_set(&s->sseg, sendbuf, sendcount, sendtype);
		s->bytes = coll_seg_bytes(&s->sseg, 0);
	}
	if (me == root) {
		if (kind == COLL_GATHERV)
			segv_set(&s->rseg, recvbuf, recvcounts, displs,
				 recvtype);
		else
			seg_set(&s->rseg, recvbuf, recvcount, recvtype);
		s->bytes = coll_seg_bytes(&s->rseg, root);
	}
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm)
{
	return gather_common(EMU_SITE, "MPI_Gather", COLL_GATHER, sendbuf, sendcount,
			     sendtype, recvbuf, recvcount, NULL, NULL,
			     recvtype, root, comm, NULL);
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request)
{
	return gather_common(EMU_SITE, "MPI_Igather", COLL_GATHER, sendbuf, sendcount,
			     sendtype, recvbuf, recvcount, NULL, NULL,
			     recvtype, root, comm, request);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	return gather_common(EMU_SITE, "MPI_Gatherv", COLL_GATHERV, sendbuf, sendcount,
			     sendtype, recvbuf, 0, recvcounts, displs,
			     recvtype, root, comm, NULL);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request)
{
	return gather_common(EMU_SITE, "MPI_Igatherv", COLL_GATHERV, sendbuf, sendcount,
			     sendtype, recvbuf, 0, recvcounts, displs,
			     recvtype, root, comm, request);
}

/* Scatter and scatterv, the mirror of gather_common. */
static int scatter_common(const void *site, const char *call, int kind, const void *sendbuf,
			  int sendcount, const int *sendcounts,
			  const int *displs, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype,
			  int root, MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	check_root(r, call, root, c, comm);
	int me = c->rank, P = emu_comm_size(c);
	int in_place = me == root && recvbuf == MPI_IN_PLACE;
	if (!in_place)
		check_buf(r, call, recvbuf, recvcount, recvtype, "receive");
	if (me == root) {
		int n = sendcount;
		if (kind == COLL_SCATTERV) {
			emu_dt_check(r, call, sendtype);
			check_counts(r, call, sendcounts, displs, P,
				     "sendcounts");
			n = sendcounts[root];
		}
		check_buf(r, call, sendbuf, n, sendtype, "send");
	}
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->root = root;
	s->in_place = (uint8_t)in_place;
	if (!in_place) {
		seg_set(&s->rseg, recvbuf, recvcount, recvtype);
		s->bytes = coll_seg_bytes(&s->rseg, 0);
	}
	if (me == root) {
		if (kind == COLL_SCATTERV)
			segv_set(&s->sseg, sendbuf, sendcounts, displs,
				 sendtype);
		else
			seg_set(&s->sseg, sendbuf, sendcount, sendtype);
		s->bytes = coll_seg_bytes(&s->sseg, root);
	}
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm)
{
	return scatter_common(EMU_SITE, "MPI_Scatter", COLL_SCATTER, sendbuf, sendcount,
			      NULL, NULL, sendtype, recvbuf, recvcount,
			      recvtype, root, comm, NULL);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 int root, MPI_Comm comm, MPI_Request *request)
{
	return scatter_common(EMU_SITE, "MPI_Iscatter", COLL_SCATTER, sendbuf,
			      sendcount, NULL, NULL, sendtype, recvbuf,
			      recvcount, recvtype, root, comm, request);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm)
{
	return scatter_common(EMU_SITE, "MPI_Scatterv", COLL_SCATTERV, sendbuf, 0,
			      sendcounts, displs, sendtype, recvbuf,
			      recvcount, recvtype, root, comm, NULL);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request)
{
	return scatter_common(EMU_SITE, "MPI_Iscatterv", COLL_SCATTERV, sendbuf, 0,
			      sendcounts, displs, sendtype, recvbuf,
			      recvcount, recvtype, root, comm, request);
}

/* ------------------------------------------------------- allgather(v) */

static int allgather_common(const void *site, const char *call, int kind, const void *sendbuf,
			    int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, int recvcount,
			    const int *recvcounts, const int *displs,
			    MPI_Datatype recvtype, MPI_Comm comm,
			    MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	int me = c->rank, P = emu_comm_size(c);
	int in_place = sendbuf == MPI_IN_PLACE;
	if (!in_place)
		check_buf(r, call, sendbuf, sendcount, sendtype, "send");
	int n = recvcount;
	if (kind == COLL_ALLGATHERV) {
		emu_dt_check(r, call, recvtype);
		check_counts(r, call, recvcounts, displs, P, "recvcounts");
		n = recvcounts[me];
	}
	check_buf(r, call, recvbuf, n, recvtype, "receive");
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->in_place = (uint8_t)in_place;
	if (!in_place)
		seg_set(&s->sseg, sendbuf, sendcount, sendtype);
	if (kind == COLL_ALLGATHERV)
		segv_set(&s->rseg, recvbuf, recvcounts, displs, recvtype);
	else
		seg_set(&s->rseg, recvbuf, recvcount, recvtype);
	s->bytes = coll_seg_bytes(&s->rseg, me);
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm)
{
	return allgather_common(EMU_SITE, "MPI_Allgather", COLL_ALLGATHER, sendbuf,
				sendcount, sendtype, recvbuf, recvcount, NULL,
				NULL, recvtype, comm, NULL);
}

int MPI_Iallgather(const void *sendbuf, int sendcount,
		   MPI_Datatype sendtype, void *recvbuf, int recvcount,
		   MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request)
{
	return allgather_common(EMU_SITE, "MPI_Iallgather", COLL_ALLGATHER, sendbuf,
				sendcount, sendtype, recvbuf, recvcount, NULL,
				NULL, recvtype, comm, request);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount,
		   MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm)
{
	return allgather_common(EMU_SITE, "MPI_Allgatherv", COLL_ALLGATHERV, sendbuf,
				sendcount, sendtype, recvbuf, 0, recvcounts,
				displs, recvtype, comm, NULL);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount,
		    MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request)
{
	return allgather_common(EMU_SITE, "MPI_Iallgatherv", COLL_ALLGATHERV, sendbuf,
				sendcount, sendtype, recvbuf, 0, recvcounts,
				displs, recvtype, comm, request);
}

/* -------------------------------------------------------- alltoall(vw) */

/*
 * MPI_IN_PLACE: what each rank sends is what its receive buffer holds,
 * and is replaced: copy it aside first, packed, segment j at the sum of
 * the sizes before it.
 */
static void in_place_sends(coll *s)
{
	int P = s->size;
	const coll_seg *g = &s->rseg;
	if (!g->counts) {
		uint64_t b = coll_seg_bytes(g, 0);
		char *p = coll_alloc(s, (uint64_t)P * b);
		for (int j = 0; j < P; j++)
			coll_seg_pack(g, j, p + (uint64_t)j * b);
		seg_set(&s->sseg, p, (int)b, MPI_BYTE);
		return;
	}
	int *counts = coll_alloc(s, 2 * (uint64_t)P * sizeof(int));
	int *displs = counts + P;
	uint64_t total = 0;
	for (int j = 0; j < P; j++) {
		uint64_t b = coll_seg_bytes(g, j);
		if (total + b > INT_MAX)
			emu_mpi_error(s->r, s->call, MPI_ERR_COUNT, "more than "
				      "%d bytes to send in place", INT_MAX);
		counts[j] = (int)b;
		displs[j] = (int)total;
		total += b;
	}
	char *p = coll_alloc(s, total);
	for (int j = 0; j < P; j++)
		coll_seg_pack(g, j, p + displs[j]);
	segv_set(&s->sseg, p, counts, displs, MPI_BYTE);
}

static void check_types(emu_rank *r, const char *call, const MPI_Datatype *t,
			int n, const char *what)
{
	if (!t)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s array", what);
	for (int i = 0; i < n; i++)
		emu_dt_check(r, call, t[i]);
}

static int alltoall_common(const void *site, const char *call, int kind, const void *sendbuf,
			   int sendcount, const int *sendcounts,
			   const int *sdispls, MPI_Datatype sendtype,
			   const MPI_Datatype *sendtypes, void *recvbuf,
			   int recvcount, const int *recvcounts,
			   const int *rdispls, MPI_Datatype recvtype,
			   const MPI_Datatype *recvtypes, MPI_Comm comm,
			   MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	int P = emu_comm_size(c);
	int in_place = sendbuf == MPI_IN_PLACE;
	if (recvbuf == MPI_IN_PLACE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the receive buffer is "
			      "MPI_IN_PLACE; only the send buffer may be");
	if (kind == COLL_ALLTOALL) {
		if (!in_place)
			check_buf(r, call, sendbuf, sendcount, sendtype,
				  "send");
		check_buf(r, call, recvbuf, recvcount, recvtype, "receive");
	} else {
		if (kind == COLL_ALLTOALLW)
			check_types(r, call, recvtypes, P, "recvtypes");
		else
			emu_dt_check(r, call, recvtype);
		check_counts(r, call, recvcounts, rdispls, P, "recvcounts");
		if (!in_place) {
			if (kind == COLL_ALLTOALLW)
				check_types(r, call, sendtypes, P,
					    "sendtypes");
			else
				emu_dt_check(r, call, sendtype);
			check_counts(r, call, sendcounts, sdispls, P,
				     "sendcounts");
		}
	}
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->in_place = (uint8_t)in_place;
	if (kind == COLL_ALLTOALL) {
		seg_set(&s->rseg, recvbuf, recvcount, recvtype);
		if (!in_place)
			seg_set(&s->sseg, sendbuf, sendcount, sendtype);
	} else {
		segv_set(&s->rseg, recvbuf, recvcounts, rdispls, recvtype);
		s->rseg.types = recvtypes;
		if (!in_place) {
			segv_set(&s->sseg, sendbuf, sendcounts, sdispls,
				 sendtype);
			s->sseg.types = sendtypes;
		}
	}
	if (in_place)
		in_place_sends(s);
	s->bytes = coll_seg_bytes(&s->rseg, c->rank);
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm)
{
	return alltoall_common(EMU_SITE, "MPI_Alltoall", COLL_ALLTOALL, sendbuf,
			       sendcount, NULL, NULL, sendtype, NULL, recvbuf,
			       recvcount, NULL, NULL, recvtype, NULL, comm,
			       NULL);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request)
{
	return alltoall_common(EMU_SITE, "MPI_Ialltoall", COLL_ALLTOALL, sendbuf,
			       sendcount, NULL, NULL, sendtype, NULL, recvbuf,
			       recvcount, NULL, NULL, recvtype, NULL, comm,
			       request);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm)
{
	return alltoall_common(EMU_SITE, "MPI_Alltoallv", COLL_ALLTOALLV, sendbuf, 0,
			       sendcounts, sdispls, sendtype, NULL, recvbuf,
			       0, recvcounts, rdispls, recvtype, NULL, comm,
			       NULL);
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request)
{
	return alltoall_common(EMU_SITE, "MPI_Ialltoallv", COLL_ALLTOALLV, sendbuf, 0,
			       sendcounts, sdispls, sendtype, NULL, recvbuf,
			       0, recvcounts, rdispls, recvtype, NULL, comm,
			       request);
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return alltoall_common(EMU_SITE, "MPI_Alltoallw", COLL_ALLTOALLW, sendbuf, 0,
			       sendcounts, sdispls, MPI_DATATYPE_NULL,
			       sendtypes, recvbuf, 0, recvcounts, rdispls,
			       MPI_DATATYPE_NULL, recvtypes, comm, NULL);
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request)
{
	return alltoall_common(EMU_SITE, "MPI_Ialltoallw", COLL_ALLTOALLW, sendbuf, 0,
			       sendcounts, sdispls, MPI_DATATYPE_NULL,
			       sendtypes, recvbuf, 0, recvcounts, rdispls,
			       MPI_DATATYPE_NULL, recvtypes, comm, request);
}

/* ----------------------------------------------------- reduce_scatter */

/* recvcounts == NULL: MPI_Reduce_scatter_block with `block' each. */
static int reduce_scatter_common(const void *site, const char *call, int kind,
				 const void *sendbuf, void *recvbuf,
				 const int *recvcounts, int block,
				 MPI_Datatype t, MPI_Op op, MPI_Comm comm,
				 MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	int me = c->rank, P = emu_comm_size(c);
	emu_dt_check(r, call, t);
	check_op(r, call, op, t);
	int64_t total = 0;
	int mine = block;
	if (kind == COLL_REDUCE_SCATTER) {
		if (!recvcounts)
			emu_mpi_error(r, call, MPI_ERR_ARG, "NULL recvcounts");
		for (int i = 0; i < P; i++) {
			if (recvcounts[i] < 0)
				emu_mpi_error(r, call, MPI_ERR_COUNT,
					      "recvcounts[%d] is negative "
					      "(%d)", i, recvcounts[i]);
			total += recvcounts[i];
		}
		mine = recvcounts[me];
	} else {
		check_count(r, call, block, "recvcount");
		total = (int64_t)block * P;
	}
	if (total > INT_MAX)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "%lld elements in all; "
			      "this version reduces at most %d", (long long)
			      total, INT_MAX);
	if (sendbuf == MPI_IN_PLACE) {
		check_buf(r, call, recvbuf, (int)total, t, "receive");
	} else {
		check_buf(r, call, sendbuf, (int)total, t, "send");
		check_buf(r, call, recvbuf, mine, t, "receive");
		check_alias(r, call, sendbuf, recvbuf, mine);
	}
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	if (sendbuf == MPI_IN_PLACE) {
		s->in_place = 1;
		s->sbuf = packed_in(s, recvbuf, total, t);
	} else {
		s->sbuf = packed_in(s, sendbuf, total, t);
	}
	s->rbuf = packed_out(s, recvbuf, mine, t, 0);
	reduction(s, call, (int)total, t, op);
	s->rcounts = recvcounts;
	s->block = recvcounts ? 0 : block;
	s->bytes = (uint64_t)s->count * s->esz;
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype datatype,
		       MPI_Op op, MPI_Comm comm)
{
	return reduce_scatter_common(EMU_SITE, "MPI_Reduce_scatter",
				     COLL_REDUCE_SCATTER, sendbuf, recvbuf,
				     recvcounts, 0, datatype, op, comm, NULL);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype datatype,
			MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	return reduce_scatter_common(EMU_SITE, "MPI_Ireduce_scatter",
				     COLL_REDUCE_SCATTER, sendbuf, recvbuf,
				     recvcounts, 0, datatype, op, comm,
				     request);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype datatype, MPI_Op op,
			     MPI_Comm comm)
{
	return reduce_scatter_common(EMU_SITE, "MPI_Reduce_scatter_block",
				     COLL_REDUCE_SCATTER_BLOCK, sendbuf,
				     recvbuf, NULL, recvcount, datatype, op,
				     comm, NULL);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype datatype,
			      MPI_Op op, MPI_Comm comm,
			      MPI_Request *request)
{
	return reduce_scatter_common(EMU_SITE, "MPI_Ireduce_scatter_block",
				     COLL_REDUCE_SCATTER_BLOCK, sendbuf,
				     recvbuf, NULL, recvcount, datatype, op,
				     comm, request);
}

/* ------------------------------------------- for the one-sided layer */

void emu_coll_bytes(emu_rank *r, const char *call, int kind, MPI_Comm comm,
		    const void *sbuf, void *rbuf, int bytes)
{
	emu_comm *c = comm_of(r, call, comm);
	coll s;
	setup(&s, r, call, kind, comm, c);
	seg_set(&s.sseg, sbuf, bytes, MPI_BYTE);
	seg_set(&s.rseg, rbuf, bytes, MPI_BYTE);
	s.bytes = coll_seg_bytes(&s.rseg, c->rank);
	start(&s, NULL);
}

void emu_coll_barrier(emu_rank *r, const char *call, MPI_Comm comm)
{
	emu_comm *c = comm_of(r, call, comm);
	coll s;
	setup(&s, r, call, COLL_BARRIER, comm, c);
	start(&s, NULL);
}

void emu_coll_reduce_block(emu_rank *r, const char *call, MPI_Comm comm,
			   const void *sbuf, void *rbuf, int count,
			   MPI_Datatype t, MPI_Op op)
{
	emu_comm *c = comm_of(r, call, comm);
	coll s;
	setup(&s, r, call, COLL_REDUCE_SCATTER_BLOCK, comm, c);
	s.sbuf = sbuf;
	s.rbuf = rbuf;
	reduction(&s, call, count * emu_comm_size(c), t, op);
	s.block = count;
	s.bytes = (uint64_t)s.count * s.esz;
	start(&s, NULL);
}

/* ------------------------------------------- neighbourhood collectives */

/*
 * On a communicator with a process topology, block j of the receive side
 * comes from in-neighbour j and block j of the send side (the one block,
 * for the allgathers) goes to out-neighbour j, in topo.c's order, all in
 * one round (coll_alg.c).  MPI_IN_PLACE is not allowed (MPI-3.1 7.6).
 * One side's arguments, as each form has them:
 */
typedef struct nbr_side {
	const void *buf;
	int count;                 /* allgather(v) send side, alltoall */
	const int *counts;         /* v and w forms */
	const int *displs;         /* v: in extents of type */
	const MPI_Aint *adispls;   /* w: in bytes */
	MPI_Datatype type;         /* all but w */
	const MPI_Datatype *types; /* w */
} nbr_side;

/* Side a of n blocks, checked, as segment g; `what' is "send" or
 * "receive", `counts' the name of its counts. */
static void nbr_side_set(emu_rank *r, const char *call, const nbr_side *a,
			 int n, const char *what, const char *counts,
			 coll_seg *g)
{
	memset(g, 0, sizeof *g);
	g->base = (char *)a->buf;
	if (!a->counts && !a->types) {
		check_buf(r, call, a->buf, a->count, a->type, what);
		g->count = a->count;
		g->type = a->type;
		return;
	}
	if (a->buf == MPI_IN_PLACE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the %s buffer is "
			      "MPI_IN_PLACE, which neighbourhood collectives "
			      "do not allow", what);
	g->type = MPI_DATATYPE_NULL;
	if (a->types) {
		if (n)
			check_types(r, call, a->types, n, what[0] == 's' ?
				    "sendtypes" : "recvtypes");
	} else {
		emu_dt_check(r, call, a->type);
		g->type = a->type;
	}
	if (n)
		check_counts(r, call, a->counts, a->types ?
			     (const void *)a->adispls : a->displs, n, counts);
	g->counts = a->counts;
	g->displs = a->displs;
	g->adispls = a->adispls;
	g->types = a->types;
}

static int neighbor_common(const void *site, const char *call, int kind,
			   const nbr_side *snd, const nbr_side *rcv,
			   MPI_Comm comm, MPI_Request *request)
{
	EMU_API(r, call);
	emu_rec_enter(r, site);
	emu_comm *c = comm_of(r, call, comm);
	if (!c->topo)
		emu_mpi_error(r, call, MPI_ERR_TOPOLOGY, "%s has no process "
			      "topology, so no neighbours (MPI_Cart_create, "
			      "MPI_Graph_create and MPI_Dist_graph_create make "
			      "one)", emu_comm_describe(r, comm));
	int indeg, outdeg;
	emu_topo_degrees(c->topo, c->rank, &indeg, &outdeg);
	coll_seg sseg, rseg;
	nbr_side_set(r, call, snd, outdeg, "send", "sendcounts", &sseg);
	nbr_side_set(r, call, rcv, indeg, "receive", "recvcounts", &rseg);
	coll local, *s = new_coll(r, call, &local, request);
	setup(s, r, call, kind, comm, c);
	s->alg = &coll_neighbor_linear;
	s->sseg = sseg;
	s->rseg = rseg;
	s->indeg = indeg;
	s->outdeg = outdeg;
	s->src = coll_alloc(s, ((uint64_t)indeg + outdeg) * sizeof *s->src);
	s->dst = s->src + indeg;
	emu_topo_neighbors(c->topo, c->rank, s->src, s->dst);
	s->cart = c->topo->kind == MPI_CART;
	start(s, request);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

#define NBR_ONE(b, n, t) (&(nbr_side){ .buf = (b), .count = (n), .type = (t) })
#define NBR_V(b, n, d, t) \
	(&(nbr_side){ .buf = (b), .counts = (n), .displs = (d), .type = (t) })
#define NBR_W(b, n, d, t) \
	(&(nbr_side){ .buf = (b), .counts = (n), .adispls = (d), .types = (t) })

int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm)
{
	return neighbor_common(EMU_SITE, "MPI_Neighbor_allgather",
			       COLL_NEIGHBOR_ALLGATHER,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_ONE(recvbuf, recvcount, recvtype), comm,
			       NULL);
}

int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    int recvcount, MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request)
{
	return neighbor_common(EMU_SITE, "MPI_Ineighbor_allgather",
			       COLL_NEIGHBOR_ALLGATHER,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_ONE(recvbuf, recvcount, recvtype), comm,
			       request);
}

int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
			    MPI_Datatype sendtype, void *recvbuf,
			    const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm)
{
	return neighbor_common(EMU_SITE, "MPI_Neighbor_allgatherv",
			       COLL_NEIGHBOR_ALLGATHERV,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_V(recvbuf, recvcounts, displs, recvtype),
			       comm, NULL);
}

int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
			     MPI_Datatype sendtype, void *recvbuf,
			     const int recvcounts[], const int displs[],
			     MPI_Datatype recvtype, MPI_Comm comm,
			     MPI_Request *request)
{
	return neighbor_common(EMU_SITE, "MPI_Ineighbor_allgatherv",
			       COLL_NEIGHBOR_ALLGATHERV,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_V(recvbuf, recvcounts, displs, recvtype),
			       comm, request);
}

int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, MPI_Comm comm)
{
	return neighbor_common(EMU_SITE, "MPI_Neighbor_alltoall",
			       COLL_NEIGHBOR_ALLTOALL,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_ONE(recvbuf, recvcount, recvtype), comm,
			       NULL);
}

int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
			   MPI_Datatype sendtype, void *recvbuf, int recvcount,
			   MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *request)
{
	return neighbor_common(EMU_SITE, "MPI_Ineighbor_alltoall",
			       COLL_NEIGHBOR_ALLTOALL,
			       NBR_ONE(sendbuf, sendcount, sendtype),
			       NBR_ONE(recvbuf, recvcount, recvtype), comm,
			       request);
}

int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			   const int sdispls[], MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype,
			   MPI_Comm comm)
{
	return neighbor_common(EMU_SITE, "MPI_Neighbor_alltoallv",
			       COLL_NEIGHBOR_ALLTOALLV,
			       NBR_V(sendbuf, sendcounts, sdispls, sendtype),
			       NBR_V(recvbuf, recvcounts, rdispls, recvtype),
			       comm, NULL);
}

int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
			    const int sdispls[], MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[],
			    const int rdispls[], MPI_Datatype recvtype,
			    MPI_Comm comm, MPI_Request *request)
{
	return neighbor_common(EMU_SITE, "MPI_Ineighbor_alltoallv",
			       COLL_NEIGHBOR_ALLTOALLV,
			       NBR_V(sendbuf, sendcounts, sdispls, sendtype),
			       NBR_V(recvbuf, recvcounts, rdispls, recvtype),
			       comm, request);
}

int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			   const MPI_Aint sdispls[],
			   const MPI_Datatype sendtypes[], void *recvbuf,
			   const int recvcounts[], const MPI_Aint rdispls[],
			   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	return neighbor_common(EMU_SITE, "MPI_Neighbor_alltoallw",
			       COLL_NEIGHBOR_ALLTOALLW,
			       NBR_W(sendbuf, sendcounts, sdispls, sendtypes),
			       NBR_W(recvbuf, recvcounts, rdispls, recvtypes),
			       comm, NULL);
}

int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
			    const MPI_Aint sdispls[],
			    const MPI_Datatype sendtypes[], void *recvbuf,
			    const int recvcounts[], const MPI_Aint rdispls[],
			    const MPI_Datatype recvtypes[], MPI_Comm comm,
			    MPI_Request *request)
{
	return neighbor_common(EMU_SITE, "MPI_Ineighbor_alltoallw",
			       COLL_NEIGHBOR_ALLTOALLW,
			       NBR_W(sendbuf, sendcounts, sdispls, sendtypes),
			       NBR_W(recvbuf, recvcounts, rdispls, recvtypes),
			       comm, request);
}
