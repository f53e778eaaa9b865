/*
 * emu_private.h -- internals of libsibyl-emu, the Sibyl emulator runtime.
 *
 * One physical process (an Open MPI rank) hosts a consecutive block of
 * virtual ranks, each a user-level thread running the program's main().
 * Threads switch only inside MPI calls, so nothing here needs locking.
 *
 *   runtime.c    the real main(): options, start-up and teardown
 *   sched.c      the scheduler, termination and deadlock detection
 *   diag.c       fatal errors, warnings, MPI errors, fault reports
 *   env.c        the MPI environment calls (Init, Finalize, Wtime...)
 *   p2p.c        matching, requests and the point-to-point MPI API
 *   record.c     SEB recording into the trace (tracefmt writer)
 *   compute.c    sibyl.h: declared compute, prints, markers, sampling
 *   comm.c topo.c  communicators, groups, attributes, error handlers,
 *                process topologies (emu_comm.h)
 *   datatype.c   basic and derived datatypes, packing (emu_dt.h)
 *   coll*.c op.c collectives as algorithms over messages, reduction
 *                operations (emu_coll.h)
 *   rma.c        one-sided communication: windows and active-target
 *                epochs, their data moved in point-to-point messages
 *   privatize.c libc.c fold.c  per-rank globals and libc state, memory
 *                folding (emu_priv.h)
 *   transport.c  the only file that sees Open MPI: messages between
 *                processes, and the global idle/termination votes
 *
 * Times: the emulator measures nanoseconds of the process's CPU time
 * (CLOCK_THREAD_CPUTIME_ID: a preemption by the OS does not inflate it), or
 * with SIBYL_CLOCK=wall of CLOCK_MONOTONIC (cheaper to read); the trace and
 * virtual clocks are in picoseconds.
 */
#ifndef SIBYL_EMU_PRIVATE_H
#define SIBYL_EMU_PRIVATE_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SIBYL_NO_MAIN_RENAME /* the runtime's main() is the real one */
#include "include/mpi.h"
#include "sibyl_trace.h"
#include "ult.h"
#include "emu_transport.h"
#include "emu_comm.h"
#include "emu_dt.h"
#include "emu_coll.h"
#include "emu_p2p.h"
#include "emu_priv.h"
#include "emu_settings.h"
#include "emu_timing.h"


struct emu_rank;
struct emu_req;

/* An unexpected message (arrived before a matching receive was posted). */
typedef struct emu_msg {
	struct emu_msg *next, *prev;    /* arrival order */
	struct emu_msg *snext, *sprev;  /* same context and source (indexed) */
	emu_env env;
	void *data;          /* owned payload (eager), or NULL */
	void *block;         /* allocation to free (may contain data) */
	const void *sbuf;    /* local rendezvous: the sender's buffer */
	int src_proc;        /* process the message came from */
} emu_msg;

enum emu_req_kind { REQ_FREE = 0, REQ_SEND, REQ_RECV, REQ_COLL, REQ_GREQ };

typedef struct emu_req {
	struct emu_req *next, *prev;  /* posted-receive queue */
	/* What a posted receive matches, beside the links: an arriving
	 * message walks the queue reading only this first cache line. */
	int32_t ctx;
	int32_t peer_world;           /* world rank of the peer, or -1 */
	int tag;
	int32_t handle;               /* MPI_Request value */
	uint8_t kind;
	uint8_t complete;
	uint8_t freed;                /* MPI_Request_free'd while active */
	uint8_t cancelled;
	uint8_t has_msg;              /* `msg' is a message to wait for */
	uint8_t ssend;
	uint8_t posted;               /* in the owner's posted queue */
	struct emu_rank *owner;
	void *tmp;                    /* truncated rendezvous: landing area */
	uint64_t msg_size;            /* size of the matched message */
	const char *call;             /* MPI call that created it */
	void *buf;
	uint64_t cap;                 /* receive capacity / send size, bytes */
	MPI_Datatype type;
	int count;
	int peer;                     /* comm rank given (may be ANY_SOURCE) */
	MPI_Comm comm;
	void *pack;                   /* packed copy of a non-contiguous
	                                 buffer (send) or landing area
	                                 (receive), or NULL */
	void *coll;                   /* REQ_COLL: coll.c's schedule;
	                                 REQ_GREQ: p2p.c's callbacks */
	sibt_msgid msg;               /* message the completing SEB waits for */
	int64_t msg_vt;               /* its send time (virtual, ps) */
	/* Format 1.2: a send's sequence number, for the SEB after its
	 * completion (done); a non-blocking receive's SEB, at whose end it
	 * was posted, for that SEB's posted list. */
	uint64_t send_seq;
	uint64_t post_seb;
	uint8_t has_seq;
	uint8_t has_post;
	/* A persistent request (MPI_Send_init, MPI_Recv_init, ...) outlives
	 * its operations: MPI_Start makes it active, its completion by a
	 * wait or test makes it inactive again, MPI_Request_free ends it.
	 * An inactive one is complete and has nothing to hand over. */
	uint8_t persistent;
	uint8_t active;
	uint8_t bsend;                /* buffered mode (Bsend_init) */
	uint8_t retained;             /* holds a reference to `type' */
	uint64_t bheld;               /* buffered send: bytes of the attached
	                                 buffer it holds until it is gone */
	const void *ubuf;             /* persistent send: the program's buffer */
	MPI_Status status;
	struct emu_req *snext, *sprev; /* p2p.c: its source's chain of
	                                  posted receives (emu_kidx) */
} emu_req;

/* The SEB a rank is building. */
/* Clock readings (ns): wall, and with --timing corrected CPU time. */
typedef struct emu_stamp {
	int64_t wall, cpu, faults;
	unsigned ev;            /* EMU_EV_* the span inherits (EMU_EV_GAP) */
} emu_stamp;

/* What timing a span saw: wall time, the time kept (CPU time when the
 * thread was off its core), page faults (ns, counts) and EMU_EV_*. */
#define EMU_EV_OFFCPU 1u    /* wall time exceeded CPU time */
#define EMU_EV_FAULTS 2u    /* page faults in the span */
#define EMU_EV_COLD 4u      /* the first sample of its region */
#define EMU_EV_SWITCH 8u    /* first after a context switch */
#define EMU_EV_GAP 16u      /* began after the runtime ran a while */
typedef struct emu_span {
	int64_t wall, kept, faults;
	unsigned ev;
} emu_span;

typedef struct emu_seb {
	int64_t dur;            /* ps computed so far (ended: final) */
	int64_t start_vt;       /* virtual time at its start (ps) */
	int64_t vt_seen;        /* latest virtual time read by the rank */
	const char *name;       /* default: the call that began it */
	char *owned_name;       /* sibyl_seb_name() copy */
	uint32_t nsends, csends;
	sibt_send *sends;
	uint32_t nwaits, cwaits;
	sibt_msgid *waits;
	uint32_t nprints, cprints;
	sibt_print *prints;
	uint32_t nmarkers, cmarkers;
	sibt_marker *markers;
	/* What the call being made gives the next SEB. */
	uint32_t ncons, ccons;
	sibt_msgid *cons;       /* messages it consumed */
	int64_t cons_vt;        /* latest send time among them */
	uint32_t ndone, cdone;  /* sends it completed (format 1.2) */
	uint64_t *done;
	uint32_t nnext_done, cnext_done;
	uint64_t *next_done;
	/* The messages matched by the receives posted at its end
	 * (MPI_Irecv), and how many of those are not matched yet: the
	 * SEB is written once they are (format 1.2). */
	uint32_t nposted, cposted;
	sibt_msgid *posted;
	uint32_t open_posts;
	uint32_t nnext_markers, cnext_markers;
	sibt_marker *next_markers;
	/* Timing (timing.c): the call sites it began and ended at, the part
	 * of dur that was measured (ps, as kept), the wall clock's
	 * measurement of it (ps) and why they differ (SIBT_CORR_*). */
	const void *site_begin, *site_end;
	struct emu_region *g;   /* their region, once it ended (or NULL) */
	const char *rounds;     /* a collective's round: the call's name */
	int64_t meas_ps, wall_ps;
	int64_t seg0;           /* dur when the measured part began */
	emu_span span;          /* what timing saw */
	uint8_t measured;       /* the SEB ended in emu_rec_enter */
} emu_seb;

/* RS_PARKED: a poll found nothing; the rank waits off the ready queue
 * until something happens to it (emu_wake) or the scheduler lets its
 * pollers try again (sched.c, "Parked pollers"). */
enum emu_rank_state { RS_NEW = 0, RS_READY, RS_RUNNING, RS_BLOCKED, RS_DONE,
		      RS_PARKED };

typedef struct emu_sample_site emu_sample_site;



typedef struct emu_rank {
	int32_t world;          /* world rank (the PE) */
	uint32_t local;         /* index in this process */
	uint8_t state;
	uint8_t in_call;        /* inside an MPI call: the SEB has ended */
	uint8_t initialized;
	uint8_t finalized;
	uint8_t wake_pending;   /* emu_wake() while it ran: its next poll
	                           yields instead of parking */
	const char *blocked_in; /* MPI call it waits in */
	/* On what, for deadlock reports: a request, n requests (Wait/Test
	 * any/some), or a probe (blocked_n == -1). */
	struct emu_req *blocked_req;
	int32_t blocked_n, blocked_src, blocked_tag;
	MPI_Comm blocked_comm;
	struct emu_rank *next_ready;
	ult *u;
	emu_req *posted_head, *posted_tail;
	struct emu_kidx *pidx;  /* p2p.c: posted receives by source */
	uint32_t nposted, nwild;  /* posted receives; of them ANY_SOURCE */
	emu_msg *unexp_head, *unexp_tail;
	struct emu_kidx *uidx;  /* p2p.c: unexpected messages by source */
	uint32_t nunexp;
	uint32_t rma_passive;   /* of them, passive-target epochs (rma.c) */
	emu_seb seb;
	uint64_t send_seq;      /* next trace sequence number */
	emu_stamp resume;       /* clocks when the rank last resumed */
	int64_t seb_end;        /* wall clock (ns) at its last SEB's end */
	struct emu_pending *pend; /* ended SEBs waiting for their region's
	                           statistics (record.c) */
	uint32_t pend0, npend, cpend; /* pend[pend0 .. pend0 + npend) */
	uint64_t nsebs;         /* SEBs ended */
	int exit_code;
	emu_sample_site *samples;
	uint32_t nsamples, csamples;
	/* comm.c: handle h is comms[h] (NULL: free), groups likewise. */
	struct emu_comm **comms;
	uint32_t ncomms;
	struct emu_group **groups;
	uint32_t ngroups;
	int32_t next_ctx;       /* lowest context id this rank has not used */
	/* Errors: the communicator whose handler applies to the running
	 * call, and (MPI_ERRORS_RETURN somewhere) where EMU_API returns. */
	MPI_Comm err_comm;
	uint8_t err_return;     /* some communicator has MPI_ERRORS_RETURN */
	jmp_buf *err_jb;        /* armed by EMU_API, or NULL */
	int err_code;
	void *coll_active;      /* coll.c: its active non-blocking collectives */
	struct emu_bsend *bsend; /* p2p.c: MPI_Buffer_attach's buffer */
	void *libc;             /* libc.c: per-rank getopt/rand/strtok state */
	void *priv;             /* privatize.c: the rank's image of globals */
	void *life;             /* lifecycle.c: destructors, exceptions */
	void *errs;             /* diag.c: the program's error classes */
	void *wins;             /* rma.c: the rank's windows */
	jmp_buf *exit_jb;       /* where emu_rank_exit() ends the rank */
} emu_rank;

/* The state of the modules whose types are here (the others declare
 * theirs in their own headers): members of emu_state below. */

/* p2p.c: the requests, REQ_CHUNK a block (handle h is request h - 1),
 * and the collective layer's hooks (emu_p2p.h). */
typedef struct emu_p2p_state {
	emu_req **chunks;
	uint32_t nchunks;
	emu_req *free_reqs;
	const emu_p2p_coll_hooks *coll;
	/* rma.c: serve the passive-target epochs that came for r, inside
	 * call (r->rma_passive > 0); set once a window exists. */
	void (*rma_serve)(struct emu_rank *r, const char *call);
} emu_p2p_state;

/* record.c: ranks that ended with SEBs still pending; their PE is
 * flushed once the SEBs are written. */
typedef struct emu_rec_state {
	emu_rank **parked;
	uint32_t nparked, cparked;
	uint64_t judged_seen;   /* emu_regions_judged() at the last retry */
} emu_rec_state;

/* output.c: the pipe the ranks' standard output goes through, and the
 * thread that empties it. */
typedef struct emu_out_state {
	int active;
	int rfd;                /* the pipe's read end */
	int out;                /* the original standard output */
	pthread_mutex_t lock;   /* held while moving bytes */
	int buffered;           /* stdout is fully buffered, in stdio_buf */
	char buf[65536];
	char stdio_buf[65536];
} emu_out_state;
#define EMU_OUT_STATE_INIT {                                         \
	.rfd = -1, .out = -1, .lock = PTHREAD_MUTEX_INITIALIZER,     \
}

/* diag.c: what handled the fatal signals before (fatal_sigs), and the
 * alternate stack their handler runs on. */
#define EMU_FATAL_NSIGS 5
typedef struct emu_diag_state {
	struct sigaction fatal_old[EMU_FATAL_NSIGS];
	char *altstack;
	/* The process's state file (emu_state_begin); state_path[0] == 0:
	 * none.  state_head: its line up to "state=". */
	char state_path[4096];
	char state_head[512];
	size_t state_head_len;
	struct sigaction term_old;
} emu_diag_state;

/* Process-wide state: all the process keeps, with one member per module
 * (its type in the module's header) -- see docs/architecture.md, "Layers
 * of the emulator", for the few that stay outside and why. */
typedef struct emu_state {
	int nprocs, proc;
	uint32_t nranks;          /* virtual world size */
	uint32_t first, count;    /* this process's block of ranks */
	emu_rank *ranks;          /* count of them */
	emu_rank *current;        /* running rank, or NULL (scheduler) */
	emu_rank *ready_head, *ready_tail;
	uint32_t live;            /* local ranks not finished */
	uint32_t nparked;         /* local ranks in RS_PARKED */
	uint64_t wakes;           /* emu_wake()s that made a rank ready */
	/* Run directly (no SIBYL_TRACE): the trace is created at the first
	 * MPI_Init (emu_rec_start), so that a program that never calls it
	 * runs as an ordinary process and leaves nothing behind. */
	int rec_lazy;
	uint32_t plain;           /* local ranks that ended without MPI_Init
	                             and with no trace open: plain programs */
	clockid_t clock_id;       /* CLOCK_MONOTONIC or ..._THREAD_CPUTIME_ID */
	int timing_raw;           /* --timing raw: clock_id, no correction */
	void (*svc_fn)(void *);   /* emu_on_main() request */
	void *svc_arg;
	double cpu_factor;
	double flop_rate;
	size_t stack_size;
	uint64_t post_min;        /* SIBYL_POST_MIN: receives of this many
	                             bytes or more record their post point */
	int quiet;
	int idle_spin;            /* SIBYL_IDLE=spin: never sleep when idle */
	int activity;             /* something happened since the last vote */
	uint64_t sent_remote, recvd_remote; /* for termination detection */
	sibt_writer *writer;
	char *trace_path;
	int user_argc;
	char **user_argv;
	int errors;               /* faults found (leaks, missing finalize) */
	int node_size;            /* ranks per node (SIBYL_NODE_SIZE) */
	uint64_t switches;
	struct emu_setval set[EMU_S_COUNT]; /* emu_settings.h, read at start */
	/* Each module's own, by layer. */
	emu_p2p_state p2p;
	emu_comm_state comm;
	emu_topo_state topo;
	emu_attr_state attr;
	emu_errh_state errh;
	emu_dt_state dt;
	emu_coll_state coll;
	emu_op_state op;
	emu_timing_state timing;
	emu_out_state out;
	emu_priv_state priv;
	emu_fold_state fold;
	emu_rec_state rec;
	emu_diag_state diag;
} emu_state;

extern emu_state emu;

/* A CHOICE setting (emu_settings.h) is WORD: emu_set_is(TIMING, "raw"). */
#define emu_set_is(id, word) \
	(strcmp(emu.set[EMU_S_##id].text, (word)) == 0)

/* Lines per process in fault reports (blocked ranks, leaks). */
#define EMU_REPORT_LIMIT 20

static inline int64_t emu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(emu.clock_id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ------------------------------------------------------------ sched.c */

/* Run fn(arg) on the scheduler's stack and come back (from a rank). */
void emu_on_main(void (*fn)(void *), void *arg);
/* The calling rank; aborts with a clear message outside a rank. */
emu_rank *emu_self(const char *call);
int emu_owner_proc(int32_t world);
static inline emu_rank *emu_local_rank(int32_t world)
{
	uint32_t i = (uint32_t)world - emu.first;
	return i < emu.count ? &emu.ranks[i] : NULL;
}
/* Something happened to rank r (a request of its completed, a message
 * came): make it runnable again if it was blocked or parked. */
void emu_wake(emu_rank *r);
/* Block the running rank until emu_wake(); `call' names where. */
void emu_block(emu_rank *r, const char *call);
/* Let other ranks run (the rank stays runnable). */
void emu_yield(emu_rank *r);
/* A poll of the running rank found nothing: let other ranks run, and
 * this one again once something happens to it (sched.c). */
void emu_park(emu_rank *r);
/* End rank r now with exit status `code' (exit() in a rank). */
void emu_rank_exit(emu_rank *r, int code) __attribute__((noreturn));

/* Run every local rank, from the first, until every rank of every
 * process has finished (or a deadlock is reported). */
void emu_sched_run(void);


/* ----------------------------------------------------------- timing.c */

/* The return address of the MPI call being made: the call site. */
#define EMU_SITE __builtin_return_address(0)

typedef struct emu_region emu_region;

/* output.c: the ranks' standard output goes through a pipe that a thread
 * empties, so that writing to a terminal costs no SEB its time. */
void emu_out_init(void);
void emu_out_flush(void);        /* what the ranks printed, out now */
/* The transport's upcalls (emu_transport.h, emu_tr_upcalls), in p2p.c. */
void emu_p2p_arrived(int src_proc, void *block, size_t len);
void emu_p2p_cts(int src_proc, int32_t sreq, int32_t rreq, int has_ack,
		 uint64_t ack_seq, int64_t ack_vt);
void emu_p2p_data_done(int32_t rreq);
void emu_p2p_send_done(int32_t sreq);
void emu_out_drain_signal(void); /* the same from a signal handler */
void emu_out_fini(void);
/* What a rank printed is written out at its next MPI call, outside its
 * SEBs; the test is two loads of the C library's FILE (glibc's). */
static inline void emu_out_at_call(void)
{
#ifdef __GLIBC__
	if (emu.out.buffered &&
	    stdout->_IO_write_ptr > stdout->_IO_write_base)
		fflush(stdout);
#else
	if (emu.out.buffered)
		fflush(stdout);
#endif
}
void emu_timing_init(void);
void emu_timing_fini(void);
void emu_stamp_now(emu_stamp *t);
/* 1 when this process runs without address-space randomization
 * (runtime.c, fix_layout). */
int emu_layout_fixed(void);
/* The same, with fresh readings of the CPU clock and faults. */
void emu_stamp_fresh(emu_stamp *t);
void emu_stamp_since(const emu_stamp *t, emu_span *sp);
/* What the SEB begun at t computed so far: wall or CPU time, as kept. */
int64_t emu_stamp_peek(const emu_stamp *t);
/* The runtime allocated memory (it may have page-faulted): the next
 * stamp reads the CPU clock and the fault count itself, so that those
 * faults are not charged to the SEB that begins next. */
void emu_timing_runtime_grew(void);
/* sp->kept less the host's typical cost of its page faults. */
int64_t emu_span_fallback(const emu_span *sp);
/* Start timing an SEB of r (it resumes; its first: begin), end it. */
void emu_timing_resume(emu_rank *r);
void emu_timing_begin(emu_rank *r);
void emu_timing_end(emu_rank *r, emu_span *sp);
/* The region of the call-site pair (b, e); NULL past the limit.  With
 * `rounds' (the call's name), the region of that collective's timed
 * rounds, begun at b: apart from the program's SEBs from b to b. */
emu_region *emu_region_get(const void *b, const void *e, const char *rounds);
/* The region of an SEB that just ended (NULL past the limit); sp is
 * marked EMU_EV_COLD when it is the first of its region to end in this
 * process. */
emu_region *emu_region_ended(const void *b, const void *e,
			      const char *rounds, emu_span *sp);
/* Add an SEB's span to its region's statistics (g may be NULL). */
void emu_region_add(emu_region *g, const emu_span *sp);
/* How many regions have the samples to be judged (grows). */
uint64_t emu_regions_judged(void);
/* 1 once the region has the samples to judge its SEBs fully (64; 256 when they say it varies by nature). */
int emu_region_judged(const emu_region *g);
/* The time to keep for the span (ns), with the reason it differs from
 * the wall time in *why (SIBT_CORR_*, 0 when it does not). */
int64_t emu_region_decide(emu_region *g, const emu_span *sp, uint32_t *why);
/* "BEGIN > END", resolved on first use; NULL for NULL. */
const char *emu_region_name(emu_region *g);

/* ------------------------------------------------------------- diag.c */

/* Error in an MPI call.  MPI_ERRORS_ARE_FATAL (the default): prints
 * "sibyl: rank R in CALL: MPI_ERR_X: message" and aborts the job;
 * MPI_ERRORS_RETURN on r->err_comm: returns `code' from the MPI function
 * through the EMU_API jump point (never returns here either way). */
int emu_mpi_error(emu_rank *r, const char *call, int code,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5),
						      noreturn));
/* The error classes and codes the program added (MPI_Add_error_*): the
 * text of one of r's (NULL when `code' is not one of them), where the
 * MPI_LASTUSEDCODE attribute of r lives, and the table's end. */
const char *emu_err_user_text(emu_rank *r, int code);
int *emu_err_lastused(emu_rank *r);
void emu_err_free_rank(emu_rank *r);
/* Every public MPI function that reports errors begins with
 *     EMU_API(r, "MPI_X");
 * which declares `emu_rank *r' (the calling rank).  When some
 * communicator of the rank has MPI_ERRORS_RETURN, it arms a jump point:
 * emu_mpi_error() then returns to it and the function returns the error
 * code (the call's SEB bookkeeping is closed first). */
typedef struct emu_api_guard {
	emu_rank *r;
	jmp_buf *prev;
} emu_api_guard;
void emu_api_disarm(emu_api_guard *g);
int emu_api_failed(emu_rank *r, const char *call);
#define EMU_API(r, call)                                                 \
	emu_rank *r = emu_self(call);                                    \
	jmp_buf emu_jb_;                                                 \
	emu_api_guard emu_guard_ __attribute__((cleanup(emu_api_disarm))) \
		= { r, r->err_jb };                                      \
	r->err_comm = MPI_COMM_WORLD;                                    \
	if (r->err_return) {                                             \
		r->err_jb = &emu_jb_;                                    \
		if (setjmp(emu_jb_))                                     \
			return emu_api_failed(r, call);                  \
	}

/* Fatal runtime error (not an MPI error): message and abort the job. */
void emu_fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void emu_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Report a fault of the program (SIGSEGV, SIGBUS...) with the rank that
 * ran; installed once at start. */
void emu_fatal_signals_init(void);
/* The state file of this process in the trace directory being written,
 * proc-NNNNNN.state: "pid=P host=H process=K first=F count=C
 * state=running", "state=terminated" once SIGTERM arrives (mpirun stops
 * the others so when one fails), "state=signal NAME" on a fatal signal;
 * removed when the process finishes.  A file left saying "running"
 * belongs to a process that was killed without warning (SIGKILL: the
 * kernel's out-of-memory killer, a batch system), which `sibyl emulate'
 * then names with its ranks (docs/emulator.md, "When a process dies"). */
void emu_state_begin(void);
void emu_state_end(void);
/* The thread pool's overflow handler: rank `slot' of this process
 * overflowed its stack (`how' found it); reports it and aborts. */
void emu_stack_overflow(size_t slot, const char *how);

/* Tag of the synchronous-send acknowledgement in the trace. */
#define EMU_ACK_TAG (-2)

/* --------------------------------------------------------------- rma.c */

/* The rank has ended: its windows not freed are released. */
void emu_rma_free_rank(emu_rank *r);

/* ------------------------------------------------------------ record.c */

int emu_rec_open(char *err, size_t errlen);
/* Create the trace (emu_rec_open, after checking that a trace path not
 * given replaces only an earlier trace) and the state file; fatal on
 * failure; does nothing when the trace is open. */
void emu_rec_start(void);
int emu_rec_close(void);
void emu_rec_abort(void);
/* Start of rank r's first SEB (its main begins). */
void emu_rec_begin(emu_rank *r);
/* Entering a communication call: the current SEB ends (not yet written). */
void emu_rec_enter(emu_rank *r, const void *site);
/* Leaving it: the ended SEB is written and the next begins, named `call',
 * waiting for the consumed messages (vt: their send times). */
void emu_rec_leave(emu_rank *r, const char *call);
/* The end of a poll (MPI_Test, MPI_Iprobe, ...): one that found nothing
 * (done 0), in an SEB where nothing is recorded yet, ends no SEB. */
void emu_rec_leave_poll(emu_rank *r, const char *call, int done);
void emu_rec_consume(emu_rank *r, sibt_msgid id, int64_t vt);
/* The call completed send `seq' of r: the next SEB lists it as done. */
void emu_rec_done(emu_rank *r, uint64_t seq);
/* A non-blocking receive posted at the end of SEB `seb' of r will be
 * matched later: that SEB waits to be written until it is. */
void emu_rec_post_open(emu_rank *r);
/* ... it matched message `id' (at once, or later): SEB `seb' lists it as
 * posted (unless it had to be written before, PEND_MAX SEBs later). */
void emu_rec_posted(emu_rank *r, uint64_t seb, sibt_msgid id, int was_open);
/* A send of the ended SEB (at its end); returns its sequence number. */
uint64_t emu_rec_send(emu_rank *r, int32_t dst, int32_t tag, uint64_t size);
/* Virtual time of the rank now (ps), and at the end of its ended SEB. */
int64_t emu_rec_vtime(emu_rank *r);
/* The last SEB, at MPI_Finalize (no new one begins). */
void emu_rec_final(emu_rank *r);
/* Write the SEBs still held back (every rank has ended). */
void emu_rec_settle_all(void);
/* Inside a call: the ended SEB is written and a new one (named `name',
 * lasting `ps', waiting for what was consumed so far) ends at once --
 * collectives cut one per round, so what a round sends depends on what
 * the rounds before it received. */
void emu_rec_step(emu_rank *r, const char *name, int64_t ps);
/* The same for a step whose local work was timed (sp). */
void emu_rec_step_measured(emu_rank *r, const char *name,
			   const emu_span *sp);
void emu_rec_marker(emu_rank *r, uint32_t kind, int64_t value);
void emu_rec_free(emu_rank *r);
/* While the rank computes: a print at the current offset, the SEB's name,
 * declared time (ps, not scaled), measured time (ns, scaled). */
void emu_rec_print(emu_rank *r, const char *text, size_t len);
void emu_rec_name(emu_rank *r, const char *name);
void emu_rec_declare(emu_rank *r, int64_t ps);
void emu_rec_measured(emu_rank *r, int64_t ns);

/* --------------------------------------------------------------- p2p.c */

/* The rest of p2p; what the collectives may use is in emu_p2p.h. */
/* r is inside a blocking call that is not p2p's (Comm_split): advance its
 * non-blocking collectives, as MPI's progress rule says. */
void emu_p2p_progress_coll(emu_rank *r);
/* A polling call found nothing: other ranks and the transport get a
 * turn, and the rank parks until something happens to it (emu_park). */
void emu_p2p_poll_turn(emu_rank *r, const char *call);
/* Leaks at the end: active requests and unreceived messages.  Returns
 * the number reported. */
unsigned long emu_p2p_report_leaks(unsigned long limit);
/* info.c: free every info object (at the end). */
void emu_info_fini(void);
/* What a blocked rank waits for, e.g. "(source=3, tag=0, MPI_COMM_WORLD)"
 * or "for MPI_Irecv(...)". */
void emu_p2p_describe(const emu_rank *r, char *buf, size_t len);

#endif /* SIBYL_EMU_PRIVATE_H */
