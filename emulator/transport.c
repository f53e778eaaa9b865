/*
 * transport.c -- the emulator's messages between physical processes, over
 * Open MPI.  See emu_transport.h for the protocol.
 *
 * This is the only file of libsibyl-emu that includes Open MPI's <mpi.h>.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <mpi.h>
#include <hwloc.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu_transport.h"

/*
 * In a sanitizer build, what Open MPI allocates while it starts and stops
 * is its own business (it keeps some of it to the end on purpose): it is
 * left out of the leak check here rather than matched by suppressions,
 * which need a full unwind through Open MPI's code (built without frame
 * pointers) at every allocation -- half an emulation's time in a
 * sanitizer build.  Open MPI's other threads are still matched by
 * tests/data/lsan-openmpi.supp.
 */
#if defined(__SANITIZE_ADDRESS__)
#define TR_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TR_LSAN 1
#endif
#endif
#ifdef TR_LSAN
#include <dlfcn.h>
#include <link.h>
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()

/* Keep every library loaded now (Open MPI's components, PMIx) mapped to
 * the end, so that the leak check at exit can name the module of an
 * allocation Open MPI's own threads made (the suppressions match module
 * names).  Open MPI closes PMIx's library at MPI_Finalize whatever its
 * mca_base_component_disable_dlclose says. */
static int pin_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (info->dlpi_name && *info->dlpi_name)
		(void)dlopen(info->dlpi_name,
			     RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
	return 0;
}
#define PIN_MODULES() dl_iterate_phdr(pin_module, NULL)
#else
#define PIN_MODULES() ((void)0)
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif

enum { TAG_ENV = 1, TAG_CTS = 2, TAG_RT = 3, TAG_CREDIT = 4, TAG_BATCH = 5 };

/*
 * Flow control.  Open MPI's ob1 numbers the messages between two processes
 * on one communicator with 16 bits, and only copes with fewer than 2^16
 * of them waiting out of sequence: when one process floods another that
 * does not progress (busy with its ranks, or descheduled on a shared
 * machine) with 150,000 small messages, some are never delivered and the
 * emulation hangs.  So at most WINDOW messages (control and data) to a
 * peer may be in Open MPI and not yet received there; the receiver
 * returns a credit (its count of messages received from us, on the
 * control communicator, outside the window) every CREDIT_BATCH messages,
 * and what does not fit waits here, in order.
 */
#define WINDOW 16384
#define CREDIT_BATCH 2048

/* What a send is: a control message (a batch, or one alone; its buffer
 * is ours) or rendezvous data (from the sender's buffer). */
enum { K_CTL, K_DATA };

#define SM_EAGER 4096 /* btl_vader_eager_limit's default */

/*
 * Batches.  A control message for a process (an envelope with its eager
 * payload, a clear-to-send, a runtime message) of up to BATCH_INLINE
 * bytes goes to Open MPI at once only when nothing else to that process
 * is on its way (so that a process waiting for it gets it without delay,
 * as a ping-pong's partner does); otherwise it is appended to that
 * process's batch, which leaves as one real message (TAG_BATCH) at the
 * next emu_tr_progress -- the scheduler calls it every 64 switches
 * between ranks and whenever no rank can run -- or as soon as it holds
 * BATCH_MAX bytes.  A larger message first sends the batch before it and
 * then travels alone, so a process's messages still arrive in the order
 * they were sent.  An all-to-all-v of 1,024 ranks on 2 processes hands
 * Open MPI 262,144 small messages each way; each cost an MPI_Isend, an
 * MPI_Iprobe and an MPI_Recv and a place in ob1's lists (perf: 18% of the
 * samples in mca_pml_ob1_progress alone); batched, they travel in 264
 * Open MPI messages each way.
 * Each record: its length (4 bytes), its tag (4 bytes), its bytes.
 */
#define BATCH_INLINE 4096
#define BATCH_MAX 65536

typedef struct rec_hdr {
	uint32_t len;
	uint32_t tag;
} rec_hdr;

/* A send waiting for credit. */
typedef struct pend {
	struct pend *next;
	void *buf;      /* K_DATA: the sender's buffer; else owned */
	int len, tag, kind;
	int32_t sreq;
} pend;

typedef struct peer {
	uint64_t out;       /* messages handed to Open MPI for it */
	uint64_t acked;     /* of those, received there (its last credit) */
	uint64_t in;        /* messages received from it */
	uint64_t credited;  /* `in' when we last sent it a credit */
	pend *head, *tail;  /* sends waiting for credit */
	char *bat;          /* its batch (records), or NULL */
	size_t blen, bcap;
	int dirty;          /* in tr.dirty */
	int inflight;       /* control sends to it Open MPI has not finished */
} peer;

typedef struct cts_msg {
	int32_t sreq, rreq;
	int32_t has_ack, pad;
	uint64_t ack_seq;
	int64_t ack_vt;
} cts_msg;

/* A real operation in flight and what to do when it finishes. */
typedef struct op {
	void *buf;      /* to free (eager and CTS sends) */
	int32_t sreq;   /* rendezvous send finished -> up.send_done */
	int32_t rreq;   /* rendezvous data landed -> up.data_done */
	int counts;     /* a receive: counts towards `recvd' */
	int proc;       /* a receive: from that process */
	int to;         /* a control send: to that process, or -1 */
} op;

/*
 * Real operations in flight, in two sets.  ctl: sends of control messages,
 * whose end only frees their buffer; they end about in the order they
 * were started, and up to a window per peer of them wait while a receiver
 * is slow, so only the CTL_SCAN oldest are tested at a time (testing
 * 16,384 at every poll cost more than the emulation).  dat: the
 * rendezvous data, sends and receives, whose ends wake ranks; few, all
 * tested.
 */
typedef struct opset {
	MPI_Request *reqs;  /* parallel arrays: reqs[head..n) are live */
	op *ops;
	int *done;
	int head, n, cap;
} opset;
#define CTL_SCAN 256

/*
 * Doorbells.  A process with nothing to run sleeps (emu_tr_wait) instead
 * of polling Open MPI, whose shared-memory transport has no way to block.
 * The processes of one host share a page (an MPI shared-memory window)
 * holding a word per process, non-zero while it sleeps: ASLEEP, plus
 * SENDING when some of its sends are not finished.  Whoever hands it
 * something -- a message, a credit, the end of a data transfer it waits
 * for, a vote -- and finds the word set clears it and wakes it with a
 * futex; so does a receiver that took messages from it while it was
 * SENDING (Open MPI gets its next ones out only when the sender
 * progresses).  The sleeper sets its word and then looks at Open MPI once
 * more before it sleeps, so a message is either seen by that look or
 * rings the bell.  The sleep is bounded anyway (processes on other hosts
 * cannot ring, and some Open MPI protocol steps happen without us), so a
 * missed ring costs at most the sleep's timeout.
 */
typedef struct bell {
	uint32_t asleep;
	char pad[60];
} bell;
#define ASLEEP 1u
#define SENDING 2u

/*
 * The transport's state, all of it.  The lowest layer of the emulator
 * sees nothing of the process state above it (emu_private.h's emu), so
 * it keeps its own, in this one struct.
 */
static struct {
	MPI_Comm ctrl_comm, data_comm, vote_comm;
	opset ctl, dat;
	MPI_Request vote_req;
	int64_t vote_out[4], vote_in[4];
	char host_desc[256];
	peer *peers;            /* one per process */
	int *dirty, ndirty;     /* processes whose batch may hold records */
	emu_tr_upcalls up;      /* the layers above (emu_tr_set_upcalls) */
	long npend;             /* sends waiting for credit, all peers */
	MPI_Win bell_win;
	bell **bells;           /* per process: its bell, or NULL if remote */
	bell *my_bell;
	int nprocs_all;
	/* Real messages sent and received (termination detection). */
	uint64_t sent, recvd;
} tr = {
	.ctrl_comm = MPI_COMM_NULL, .data_comm = MPI_COMM_NULL,
	.vote_comm = MPI_COMM_NULL, .vote_req = MPI_REQUEST_NULL,
	.bell_win = MPI_WIN_NULL,
};

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		char s[MPI_MAX_ERROR_STRING];
		int n = 0;
		MPI_Error_string(rc, s, &n);
		fprintf(stderr, "sibyl: Open MPI failed in %s: %s\n", what, s);
		MPI_Abort(MPI_COMM_WORLD, 3);
		exit(3);
	}
}

/* The doorbells of the processes on this host; none if Open MPI cannot
 * share memory between them (then emu_tr_wait only naps). */
static void bells_init(int me)
{
	MPI_Comm node;
	int nlocal = 0;
	void *base;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) != MPI_SUCCESS)
		return;
	MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
	MPI_Comm_size(node, &nlocal);
	if (nlocal > 1 &&
	    MPI_Win_allocate_shared(sizeof(bell), sizeof(bell), MPI_INFO_NULL,
				    node, &base, &tr.bell_win) == MPI_SUCCESS) {
		MPI_Group g_node, g_world;
		tr.my_bell = base;
		__atomic_store_n(&tr.my_bell->asleep, 0, __ATOMIC_SEQ_CST);
		MPI_Barrier(node);
		MPI_Comm_group(node, &g_node);
		MPI_Comm_group(MPI_COMM_WORLD, &g_world);
		for (int i = 0; i < nlocal; i++) {
			int w = -1, disp;
			MPI_Aint size;
			void *b = NULL;
			MPI_Group_translate_ranks(g_node, 1, &i, g_world, &w);
			if (w >= 0 && w < tr.nprocs_all && w != me &&
			    MPI_Win_shared_query(tr.bell_win, i, &size, &disp,
						 &b) == MPI_SUCCESS &&
			    size >= (MPI_Aint)sizeof(bell))
				tr.bells[w] = b;
		}
		MPI_Group_free(&g_node);
		MPI_Group_free(&g_world);
	}
	MPI_Comm_free(&node);
	/* Sleeps of tens of microseconds: no 50 us of timer slack. */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}

/* Wake process proc if its bell has one of the bits `why' (ASLEEP: it
 * sleeps; SENDING: it sleeps with sends in flight).  The fence orders
 * what we just did in Open MPI before the look at the bell (see
 * emu_tr_wait). */
static void ring_if(int proc, uint32_t why)
{
	bell *b = tr.bells[proc];
	if (!b)
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if ((__atomic_load_n(&b->asleep, __ATOMIC_RELAXED) & why) &&
	    __atomic_exchange_n(&b->asleep, 0, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &b->asleep, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void ring(int proc)
{
	ring_if(proc, ASLEEP);
}

static void ring_all(void)
{
	for (int p = 0; p < tr.nprocs_all; p++)
		ring(p);
}

int emu_tr_init(int *argc, char ***argv, int *nprocs, int *proc,
		char *err, size_t errlen)
{
	int provided, rc;
	LSAN_OFF();
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
	PIN_MODULES();
	LSAN_ON();
	if (rc != MPI_SUCCESS) {
		snprintf(err, errlen, "Open MPI did not start (MPI_Init "
			 "failed)");
		return -1;
	}
	MPI_Comm_size(MPI_COMM_WORLD, nprocs);
	MPI_Comm_rank(MPI_COMM_WORLD, proc);
	check(MPI_Comm_dup(MPI_COMM_WORLD, &tr.ctrl_comm), "MPI_Comm_dup");
	check(MPI_Comm_dup(MPI_COMM_WORLD, &tr.data_comm), "MPI_Comm_dup");
	check(MPI_Comm_dup(MPI_COMM_WORLD, &tr.vote_comm), "MPI_Comm_dup");
	tr.peers = calloc((size_t)*nprocs, sizeof *tr.peers);
	tr.bells = calloc((size_t)*nprocs, sizeof *tr.bells);
	tr.dirty = calloc((size_t)*nprocs, sizeof *tr.dirty);
	if (!tr.peers || !tr.bells || !tr.dirty) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tr.nprocs_all = *nprocs;
	bells_init(*proc);
	/* Errors of the real MPI are ours, not the program's: fatal. */
	return 0;
}

void emu_tr_fini(void)
{
	/* Everything has been received by now (the final vote saw the
	 * counters equal); drain our own sends. */
	while (emu_tr_busy())
		emu_tr_progress();
	if (tr.bell_win != MPI_WIN_NULL)
		MPI_Win_free(&tr.bell_win);
	MPI_Comm_free(&tr.ctrl_comm);
	MPI_Comm_free(&tr.data_comm);
	MPI_Comm_free(&tr.vote_comm);
	opset *sets[2] = { &tr.ctl, &tr.dat };
	for (int i = 0; i < 2; i++) {
		free(sets[i]->reqs);
		free(sets[i]->ops);
		free(sets[i]->done);
	}
	for (int p = 0; p < tr.nprocs_all; p++)
		free(tr.peers[p].bat);
	free(tr.peers);
	free(tr.bells);
	free(tr.dirty);
	LSAN_OFF();
	MPI_Finalize();
	LSAN_ON();
}

void emu_tr_counts(uint64_t *sent, uint64_t *recvd)
{
	*sent = tr.sent;
	*recvd = tr.recvd;
}

void emu_tr_set_upcalls(const emu_tr_upcalls *u)
{
	tr.up = *u;
}

void emu_tr_abort(int code)
{
	if (tr.up.before_abort)
		tr.up.before_abort();
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, code);
	_exit(code);
}

/* n zeroed bytes of the transport's own bookkeeping, or the end. */
static void *tr_alloc(size_t n)
{
	void *p = calloc(1, n);
	if (!p) {
		fprintf(stderr, "sibyl: out of memory (transport)\n");
		emu_tr_abort(3);
	}
	return p;
}

static op *add_op(opset *s, MPI_Request **rq)
{
	if (s->n == s->cap && s->head > 0 && s->head >= s->n - s->head) {
		/* Slide the live ones down, once the head has freed at
		 * least as many slots as are live: a slide for every few
		 * slots freed (a window of 16,384 control sends waiting on
		 * a slow receiver, the head moving by a few at a poll)
		 * moved the whole window at nearly every send. */
		int live = s->n - s->head;
		memmove(s->reqs, s->reqs + s->head, live * sizeof *s->reqs);
		memmove(s->ops, s->ops + s->head, live * sizeof *s->ops);
		s->head = 0;
		s->n = live;
	}
	if (s->n == s->cap) {
		int c = s->cap ? 2 * s->cap : 64;
		MPI_Request *r = realloc(s->reqs, c * sizeof *r);
		if (r)
			s->reqs = r;
		op *o = realloc(s->ops, c * sizeof *o);
		if (o)
			s->ops = o;
		int *d = realloc(s->done, c * sizeof *d);
		if (d)
			s->done = d;
		if (!r || !o || !d) {
			fprintf(stderr, "sibyl: out of memory (transport)\n");
			emu_tr_abort(3);
		}
		s->cap = c;
	}
	*rq = &s->reqs[s->n];
	op *o = &s->ops[s->n++];
	memset(o, 0, sizeof *o);
	o->sreq = o->rreq = o->to = -1;
	return o;
}

/* Hand a send to Open MPI. */
static void issue(int proc, int kind, void *buf, int len, int tag,
		  int32_t sreq)
{
	MPI_Request *rq;
	op *o = add_op(kind == K_DATA ? &tr.dat : &tr.ctl, &rq);
	if (kind == K_DATA) {
		o->sreq = sreq;
		check(MPI_Isend(buf, len, MPI_BYTE, proc, tag, tr.data_comm,
				rq), "MPI_Isend");
	} else {
		o->buf = buf;
		o->to = proc;
		tr.peers[proc].inflight++;
		check(MPI_Isend(buf, len, MPI_BYTE, proc, tag, tr.ctrl_comm,
				rq), "MPI_Isend");
	}
	tr.peers[proc].out++;
	tr.sent++;
	ring(proc);
}

/* Send now if the window to proc has room and nothing waits before it,
 * else queue. */
static void submit(int proc, int kind, void *buf, int len, int tag,
		   int32_t sreq)
{
	peer *pp = &tr.peers[proc];
	if (!pp->head && pp->out - pp->acked < WINDOW) {
		issue(proc, kind, buf, len, tag, sreq);
		return;
	}
	pend *w = tr_alloc(sizeof *w);
	w->buf = buf;
	w->len = len;
	w->tag = tag;
	w->kind = kind;
	w->sreq = sreq;
	if (pp->tail)
		pp->tail->next = w;
	else
		pp->head = w;
	pp->tail = w;
	tr.npend++;
}

/* Credit from proc arrived: send what now fits. */
static void flush(int proc)
{
	peer *pp = &tr.peers[proc];
	while (pp->head && pp->out - pp->acked < WINDOW) {
		pend *w = pp->head;
		pp->head = w->next;
		if (!pp->head)
			pp->tail = NULL;
		tr.npend--;
		issue(proc, w->kind, w->buf, w->len, w->tag, w->sreq);
		free(w);
	}
}

/* One more message from proc received: credit it now and then. */
static void received_from(int proc)
{
	peer *pp = &tr.peers[proc];
	if (++pp->in - pp->credited < CREDIT_BATCH)
		return;
	uint64_t *c = tr_alloc(sizeof *c);
	*c = pp->in;
	pp->credited = pp->in;
	MPI_Request *rq;
	op *o = add_op(&tr.ctl, &rq);
	o->buf = c;
	check(MPI_Isend(c, sizeof *c, MPI_BYTE, proc, TAG_CREDIT, tr.ctrl_comm,
			rq), "MPI_Isend");
	tr.sent++;
	ring(proc);
}

/* Hand proc's batch to Open MPI, if it holds anything. */
static void batch_flush(int proc)
{
	peer *pp = &tr.peers[proc];
	if (!pp->blen)
		return;
	char *b = pp->bat;
	int len = (int)pp->blen;
	rec_hdr h;
	memcpy(&h, b, sizeof h);
	pp->bat = NULL;
	pp->blen = pp->bcap = 0;
	if (sizeof h + h.len == (size_t)len) {
		/* One record: it travels as itself, as it would without
		 * batches, and its receiver takes it without a second
		 * copy out of a batch. */
		memmove(b, b + sizeof h, h.len);
		submit(proc, K_CTL, b, (int)h.len, (int)h.tag, -1);
		return;
	}
	submit(proc, K_CTL, b, len, TAG_BATCH, -1);
}

static void batch_flush_all(void)
{
	for (int i = 0; i < tr.ndirty; i++) {
		int p = tr.dirty[i];
		tr.peers[p].dirty = 0;
		batch_flush(p);
	}
	tr.ndirty = 0;
}

/* Room for a record of len bytes with this tag at the end of proc's
 * batch; batch_done once it is written. */
static char *batch_room(int proc, int tag, size_t len)
{
	peer *pp = &tr.peers[proc];
	size_t need = sizeof(rec_hdr) + len;
	if (pp->blen + need > pp->bcap) {
		size_t c = pp->bcap ? 2 * pp->bcap : 256;
		while (c < pp->blen + need)
			c *= 2;
		char *b = realloc(pp->bat, c);
		if (!b) {
			fprintf(stderr, "sibyl: out of memory (transport)\n");
			emu_tr_abort(3);
		}
		pp->bat = b;
		pp->bcap = c;
	}
	rec_hdr h = { (uint32_t)len, (uint32_t)tag };
	char *at = pp->bat + pp->blen;
	memcpy(at, &h, sizeof h);
	pp->blen += need;
	if (!pp->dirty) {
		pp->dirty = 1;
		tr.dirty[tr.ndirty++] = proc;
	}
	return at + sizeof h;
}

/* The record is written: the batch leaves now if it is full, or if
 * nothing else is on its way to proc (a process waiting for this message
 * gets it at once, as a ping-pong's partner does: deferred to the next
 * emu_tr_progress, each message waited for its sender's rank to switch
 * out, and a ping-pong between processes lost a third of its rate). */
static void batch_done(int proc)
{
	peer *pp = &tr.peers[proc];
	if (pp->blen >= BATCH_MAX || (!pp->inflight && !pp->head))
		batch_flush(proc);
}

/* A control message for proc with this tag: na bytes of a, then nb of b.
 * Up to BATCH_INLINE bytes it joins proc's batch; a larger one sends the
 * batch before it and leaves alone. */
static void send_control(int proc, int tag, const void *a, size_t na,
			 const void *b, size_t nb)
{
	size_t len = na + nb;
	int alone = len > BATCH_INLINE;
	char *at = alone ? malloc(len) : batch_room(proc, tag, len);
	if (!at) {
		fprintf(stderr, "sibyl: out of memory for a %zu-byte message "
			"to process %d\n", len, proc);
		emu_tr_abort(3);
	}
	if (na)
		memcpy(at, a, na);
	if (nb)
		memcpy(at + na, b, nb);
	if (!alone) {
		batch_done(proc);
		return;
	}
	batch_flush(proc);
	submit(proc, K_CTL, at, (int)len, tag, -1);
}

void emu_tr_send_env(int proc, const emu_env *env, const void *data)
{
	send_control(proc, TAG_ENV, env, sizeof *env, data,
		     env->flags & EMU_F_RNDV ? 0 : env->size);
}

void emu_tr_send_cts(int proc, int32_t sreq, int32_t rreq, int has_ack,
		     uint64_t ack_seq, int64_t ack_vt)
{
	cts_msg c;
	memset(&c, 0, sizeof c);
	c.sreq = sreq;
	c.rreq = rreq;
	c.has_ack = has_ack;
	c.ack_seq = ack_seq;
	c.ack_vt = ack_vt;
	send_control(proc, TAG_CTS, &c, sizeof c, NULL, 0);
}

void emu_tr_send_rt(int proc, const void *data, size_t len)
{
	if (len > INT_MAX) {
		fprintf(stderr, "sibyl: internal error: a %zu-byte runtime "
			"message (at most %d)\n", len, INT_MAX);
		emu_tr_abort(3);
	}
	send_control(proc, TAG_RT, data, len, NULL, 0);
}

/* Payloads beyond INT_MAX bytes travel as a contiguous type of 1 MiB
 * blocks plus a remainder message would complicate matching; the runtime
 * refuses counts whose byte size does not fit an int (MPI_ERR_COUNT). */
void emu_tr_send_data(int proc, int32_t rreq, const void *buf,
		      uint64_t size, int32_t sreq)
{
	submit(proc, K_DATA, (void *)buf, (int)size, rreq, sreq);
}

void emu_tr_post_data(int proc, int32_t rreq, void *buf, uint64_t size)
{
	MPI_Request *rq;
	op *o = add_op(&tr.dat, &rq);
	o->rreq = rreq;
	o->counts = 1;
	o->proc = proc;
	check(MPI_Irecv(buf, (int)size, MPI_BYTE, proc, rreq, tr.data_comm, rq),
	      "MPI_Irecv");
}

/* Hand one control message from proc to the layers above: `b' (malloc'd,
 * len bytes) is theirs, or freed here. */
static void deliver(int proc, int tag, void *b, size_t len)
{
	if (tag == TAG_CTS) {
		cts_msg c;
		memcpy(&c, b, sizeof c);
		free(b);
		tr.up.cts(proc, c.sreq, c.rreq, c.has_ack, c.ack_seq,
			  c.ack_vt);
	} else if (tag == TAG_RT) {
		tr.up.rt_arrived(proc, b, len);
	} else {
		tr.up.arrived(proc, b, len);
	}
}

/* The records of a batch from proc, in order; how many there were.  A
 * record that does not fit is a bug of ours: fatal. */
static int deliver_batch(int proc, const char *b, size_t len)
{
	int n = 0;
	size_t at = 0;
	while (at < len) {
		rec_hdr h;
		if (len - at < sizeof h)
			break;
		memcpy(&h, b + at, sizeof h);
		at += sizeof h;
		if (h.len > len - at ||
		    (h.tag != TAG_ENV && h.tag != TAG_CTS && h.tag != TAG_RT) ||
		    (h.tag == TAG_CTS && h.len != sizeof(cts_msg)) ||
		    (h.tag == TAG_ENV && h.len < sizeof(emu_env)))
			break;
		void *m = malloc(h.len ? h.len : 1);
		if (!m) {
			fprintf(stderr, "sibyl: out of memory for a %u-byte "
				"message from process %d\n", h.len, proc);
			emu_tr_abort(3);
		}
		memcpy(m, b + at, h.len);
		at += h.len;
		n++;
		deliver(proc, (int)h.tag, m, h.len);
	}
	if (at != len) {
		fprintf(stderr, "sibyl: internal error: a malformed batch of "
			"%zu bytes from process %d (at byte %zu)\n", len, proc,
			at);
		emu_tr_abort(3);
	}
	return n;
}

/* Receive the control messages that are there; returns how many were
 * for the ranks (credits are not). */
static int poll_control(void)
{
	int n = 0;
	for (;;) {
		int flag = 0, len = 0;
		MPI_Status st;
		check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, tr.ctrl_comm,
				 &flag, &st), "MPI_Iprobe");
		if (!flag)
			return n;
		MPI_Get_count(&st, MPI_BYTE, &len);
		void *b = malloc(len ? (size_t)len : 1);
		if (!b) {
			fprintf(stderr, "sibyl: out of memory for a %d-byte "
				"message from process %d\n", len, st.MPI_SOURCE);
			emu_tr_abort(3);
		}
		/* Beyond Open MPI's shared-memory eager limit the receive
		 * may need the sender's progress: wake it. */
		if (len > SM_EAGER)
			ring(st.MPI_SOURCE);
		check(MPI_Recv(b, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG,
			       tr.ctrl_comm, MPI_STATUS_IGNORE), "MPI_Recv");
		/* That made room for its next messages. */
		ring_if(st.MPI_SOURCE, SENDING);
		tr.recvd++;
		if (st.MPI_TAG == TAG_CREDIT) {
			uint64_t c;
			memcpy(&c, b, sizeof c);
			free(b);
			peer *pp = &tr.peers[st.MPI_SOURCE];
			if (c > pp->acked)
				pp->acked = c;
			flush(st.MPI_SOURCE);
			continue;
		}
		received_from(st.MPI_SOURCE);
		if (st.MPI_TAG == TAG_BATCH) {
			n += deliver_batch(st.MPI_SOURCE, b, (size_t)len);
			free(b);
		} else {
			n++;
			deliver(st.MPI_SOURCE, st.MPI_TAG, b, (size_t)len);
		}
	}
}

/* Test the live operations of s from its head, at most `limit' of them,
 * and run what finished; returns how many of those were for the ranks
 * (the ends of control sends are not). */
static int poll_set(opset *s, int limit)
{
	int live = s->n - s->head;
	if (live <= 0)
		return 0;
	if (limit > live)
		limit = live;
	int outcount = 0;
	check(MPI_Testsome(limit, s->reqs + s->head, &outcount, s->done,
			   MPI_STATUSES_IGNORE), "MPI_Testsome");
	if (outcount <= 0 || outcount == MPI_UNDEFINED)
		return 0;
	/* Run the completions first (they may add operations, which only
	 * append, and may move the arrays), then drop finished slots. */
	int head = s->head;
	for (int i = 0; i < outcount; i++) {
		op o = s->ops[head + s->done[i]];
		s->ops[head + s->done[i]].buf = NULL;
		free(o.buf);
		if (o.counts) {
			tr.recvd++;
			received_from(o.proc);
			/* Its sender's send finishes now too. */
			ring(o.proc);
		}
		if (o.to >= 0)
			tr.peers[o.to].inflight--;
		if (o.sreq >= 0)
			tr.up.send_done(o.sreq);
		if (o.rreq >= 0)
			tr.up.data_done(o.rreq);
	}
	if (s == &tr.ctl) {
		/* Finished ones inside the window stay as null requests
		 * until the head passes them.  Nothing for the ranks. */
		while (s->head < s->n && s->reqs[s->head] == MPI_REQUEST_NULL)
			s->head++;
		if (s->head == s->n)
			s->head = s->n = 0;
		return 0;
	}
	int j = s->head;
	for (int i = s->head; i < s->n; i++) {
		if (s->reqs[i] == MPI_REQUEST_NULL)
			continue;
		s->reqs[j] = s->reqs[i];
		s->ops[j] = s->ops[i];
		j++;
	}
	s->n = j;
	return outcount;
}

static int poll_ops(void)
{
	return poll_set(&tr.dat, INT_MAX) + poll_set(&tr.ctl, CTL_SCAN);
}

int emu_tr_progress(void)
{
	batch_flush_all();
	int n = poll_control();
	n += poll_ops();
	/* What the arrivals answered (clear-to-sends) leaves now. */
	batch_flush_all();
	return n;
}

int emu_tr_wait(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000),
			       (long)(ns % 1000000000) };
	/* The batches leave first (and SENDING counts them). */
	batch_flush_all();
	if (!tr.my_bell) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		return emu_tr_progress();
	}
	uint32_t v = ASLEEP;
	if (tr.ctl.n > tr.ctl.head || tr.dat.n > tr.dat.head)
		v |= SENDING;
	__atomic_store_n(&tr.my_bell->asleep, v, __ATOMIC_SEQ_CST);
	int n = emu_tr_progress();
	if (!n)
		syscall(SYS_futex, &tr.my_bell->asleep, FUTEX_WAIT, v, &ts,
			NULL, 0);
	__atomic_store_n(&tr.my_bell->asleep, 0, __ATOMIC_RELAXED);
	return n + emu_tr_progress();
}

int emu_tr_busy(void)
{
	return tr.ctl.n > tr.ctl.head || tr.dat.n > tr.dat.head || tr.npend ||
	       tr.ndirty;
}

int emu_tr_vote(const int64_t mine[4], int64_t sum[4])
{
	if (tr.vote_req == MPI_REQUEST_NULL) {
		memcpy(tr.vote_out, mine, sizeof tr.vote_out);
		check(MPI_Iallreduce(tr.vote_out, tr.vote_in, 4, MPI_INT64_T,
				     MPI_SUM, tr.vote_comm, &tr.vote_req),
		      "MPI_Iallreduce");
		ring_all();
	}
	int flag = 0;
	check(MPI_Test(&tr.vote_req, &flag, MPI_STATUS_IGNORE), "MPI_Test");
	if (!flag)
		return 0;
	memcpy(sum, tr.vote_in, sizeof tr.vote_in);
	return 1;
}

int emu_tr_voting(void)
{
	return tr.vote_req != MPI_REQUEST_NULL;
}

/* Bind to one core, spread by the node-local rank, when bind is set
 * (SIBYL_BIND=core, the default); say what the host is. */
const char *emu_tr_host(int bind)
{
	hwloc_topology_t topo;
	int local = 0, nlocal = 1;
	MPI_Comm node;

	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
				MPI_INFO_NULL, &node) == MPI_SUCCESS) {
		MPI_Comm_rank(node, &local);
		MPI_Comm_size(node, &nlocal);
		MPI_Comm_free(&node);
	}
	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return "";
	int npkg = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
	int ncore = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	char bound[64] = "not bound";
	if (bind && ncore > 0) {
		int c = local % ncore;
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE,
							 (unsigned)c);
		if (core && hwloc_set_cpubind(topo, core->cpuset,
					      HWLOC_CPUBIND_PROCESS) == 0)
			snprintf(bound, sizeof bound, "bound to core %d", c);
		else
			snprintf(bound, sizeof bound, "binding to core %d "
				 "failed", c);
	}
	snprintf(tr.host_desc, sizeof tr.host_desc, "%d package%s, %d "
		 "cores, %d PUs; %d emulating process%s on this host, %s", npkg,
		 npkg == 1 ? "" : "s", ncore, npu, nlocal,
		 nlocal == 1 ? "" : "es", bound);
	hwloc_topology_destroy(topo);
	return tr.host_desc;
}

/* The module's one exported symbol (emu_transport.h). */
__attribute__((visibility("default")))
extern const emu_tr_ops sibyl_transport;
const emu_tr_ops sibyl_transport = {
	.abi = EMU_TR_ABI,
	.size = sizeof(emu_tr_ops),
	.init = emu_tr_init,
	.fini = emu_tr_fini,
	.abort = emu_tr_abort,
	.send_env = emu_tr_send_env,
	.send_cts = emu_tr_send_cts,
	.send_data = emu_tr_send_data,
	.send_rt = emu_tr_send_rt,
	.post_data = emu_tr_post_data,
	.progress = emu_tr_progress,
	.wait = emu_tr_wait,
	.busy = emu_tr_busy,
	.vote = emu_tr_vote,
	.voting = emu_tr_voting,
	.host = emu_tr_host,
	.counts = emu_tr_counts,
	.set_upcalls = emu_tr_set_upcalls,
};
