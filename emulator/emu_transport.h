/*
 * emu_transport.h -- messages between the emulator's physical processes.
 *
 * transport.c is the only file of libsibyl-emu compiled against Open MPI's
 * own mpi.h, so this header uses no MPI type.  Three real communicators
 * (duplicates of Open MPI's world) keep the traffic apart:
 *   control  envelopes: eager messages (envelope + payload), rendezvous
 *            requests (envelope only), clear-to-send replies, and the
 *            runtime's own messages (emu_tr_send_rt), the small ones
 *            gathered into batches while others to the same process are
 *            on their way (transport.c); received with
 *            MPI_ANY_SOURCE/MPI_ANY_TAG, so messages between two
 *            processes are handled in the order they were sent, which is
 *            what keeps virtual messages non-overtaking; also the
 *            credits of the flow control (transport.c: at most a window
 *            of messages to a process may be unreceived there, the rest
 *            wait in the sender, in order);
 *   data     rendezvous payloads, sent straight from the sender's buffer
 *            into the receiver's (tag = the receiver's request);
 *   vote     the non-blocking allreduces of the idle/termination votes.
 */
#ifndef SIBYL_EMU_TRANSPORT_H
#define SIBYL_EMU_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#define EMU_EAGER_LIMIT (64 * 1024) /* larger messages use rendezvous */

/* A message's envelope: what travels ahead of (or with) its data. */
typedef struct emu_env {
	int32_t src;        /* world rank of the sender */
	int32_t dst;        /* world rank of the receiver */
	int32_t tag;
	int32_t ctx;        /* communicator context */
	uint64_t size;      /* payload bytes */
	uint64_t seq;       /* the send's sequence number in the trace */
	int64_t vt;         /* sender's virtual time at the send (ps) */
	int32_t sreq;       /* sender's request (rendezvous and ssend) */
	uint32_t flags;     /* EMU_F_* */
} emu_env;

#define EMU_F_RNDV  1u /* data not included: the receiver must ask (CTS) */
#define EMU_F_SSEND 2u /* synchronous: the sender waits for the match */

/* Start and stop real Open MPI; nprocs/proc of the physical job. */
int emu_tr_init(int *argc, char ***argv, int *nprocs, int *proc,
		char *err, size_t errlen);
void emu_tr_fini(void);
void emu_tr_abort(int code) __attribute__((noreturn));
/* Eager message (envelope + env->size bytes of data) or, with EMU_F_RNDV,
 * a rendezvous request (envelope only). */
void emu_tr_send_env(int proc, const emu_env *env, const void *data);
/* Clear to send: this process matched request `sreq' of process `proc'
 * with its request `rreq' and posted the data receive. */
void emu_tr_send_cts(int proc, int32_t sreq, int32_t rreq, int has_ack,
		     uint64_t ack_seq, int64_t ack_vt);
/* Rendezvous payload of request sreq, to request rreq of process proc;
 * emu_p2p_send_done(sreq) once the buffer may be reused. */
void emu_tr_send_data(int proc, int32_t rreq, const void *buf,
		      uint64_t size, int32_t sreq);
/* A runtime message (not a virtual rank's, not traced): len bytes of
 * data (copied) for process proc, handed to emu_comm_rt_arrived() there.
 * Counted in emu_tr_counts like every control message, so the
 * termination vote waits for it. */
void emu_tr_send_rt(int proc, const void *data, size_t len);
/* Receive the payload for request rreq from process proc into buf;
 * emu_p2p_data_done(rreq) once it landed. */
void emu_tr_post_data(int proc, int32_t rreq, void *buf, uint64_t size);
/* Handle whatever arrived or finished; returns the number of events that
 * concern the ranks (messages for them, ends of their data transfers). */
int emu_tr_progress(void);
/* Nothing to run: sleep at most ns nanoseconds, or until a process of
 * this host hands us something; then handle what came, and return the
 * number of events as emu_tr_progress does. */
int emu_tr_wait(int64_t ns);
/* Real operations not finished yet, or sends waiting for credit. */
int emu_tr_busy(void);
/* Non-blocking global vote: when no vote is running, contributes `mine'
 * (4 counters, summed over processes); returns 1 and fills `sum' when a
 * vote has finished, else 0. */
int emu_tr_vote(const int64_t mine[4], int64_t sum[4]);
/* 1 while a vote is running (the next emu_tr_vote does not contribute). */
int emu_tr_voting(void);
/* Bind this process to one core (its node-local rank modulo the cores)
 * when bind is set, and describe the host topology; "" when hwloc fails. */
const char *emu_tr_host(int bind);

/* Real messages sent and received so far (termination detection). */
void emu_tr_counts(uint64_t *sent, uint64_t *recvd);

/*
 * The layers above, called by the transport: registered once, before any
 * message moves (runtime.c), so that the transport calls nothing above it
 * by name.
 */
typedef struct emu_tr_upcalls {
	/* A control message arrived: `block' (malloc'd, len bytes) starts
	 * with an emu_env, followed by the payload of an eager message;
	 * ownership passes (p2p.c). */
	void (*arrived)(int src_proc, void *block, size_t len);
	/* A clear-to-send for rendezvous send sreq (p2p.c). */
	void (*cts)(int src_proc, int32_t sreq, int32_t rreq, int has_ack,
		    uint64_t ack_seq, int64_t ack_vt);
	/* Rendezvous data landed for rreq; send sreq may reuse its buffer. */
	void (*data_done)(int32_t rreq);
	void (*send_done)(int32_t sreq);
	/* A runtime message arrived (comm.c): `block' (malloc'd, len bytes)
	 * as emu_tr_send_rt sent it; ownership passes. */
	void (*rt_arrived)(int src_proc, void *block, size_t len);
	/* Before an abort: write out what the ranks printed (output.c). */
	void (*before_abort)(void);
} emu_tr_upcalls;
void emu_tr_set_upcalls(const emu_tr_upcalls *u);

/*
 * The transport is a module of its own, sibyl-transport.so, the only part
 * of Sibyl linked with Open MPI: the runtime loads it with RTLD_LOCAL
 * (trload.c), so that Open MPI's symbols never enter the program's global
 * scope and no call of the program can bind to them.  Its one exported
 * symbol is this table of the functions above.
 */
#define EMU_TR_ABI 1u   /* raised at every change of the table */
typedef struct emu_tr_ops {
	unsigned abi;
	unsigned size;      /* sizeof(emu_tr_ops) */
	int (*init)(int *argc, char ***argv, int *nprocs, int *proc,
		    char *err, size_t errlen);
	void (*fini)(void);
	void (*abort)(int code);
	void (*send_env)(int proc, const emu_env *env, const void *data);
	void (*send_cts)(int proc, int32_t sreq, int32_t rreq, int has_ack,
			 uint64_t ack_seq, int64_t ack_vt);
	void (*send_data)(int proc, int32_t rreq, const void *buf,
			  uint64_t size, int32_t sreq);
	void (*send_rt)(int proc, const void *data, size_t len);
	void (*post_data)(int proc, int32_t rreq, void *buf, uint64_t size);
	int (*progress)(void);
	int (*wait)(int64_t ns);
	int (*busy)(void);
	int (*vote)(const int64_t mine[4], int64_t sum[4]);
	int (*voting)(void);
	const char *(*host)(int bind);
	void (*counts)(uint64_t *sent, uint64_t *recvd);
	void (*set_upcalls)(const emu_tr_upcalls *u);
} emu_tr_ops;
#define EMU_TR_SYMBOL "sibyl_transport"
#define EMU_TR_MODULE "sibyl-transport.so"
/* The module to load (SIBYL_TRANSPORT), before any other emu_tr_* call;
 * NULL: EMU_TR_MODULE, found through the program's run path. */
void emu_tr_module(const char *path);

#endif /* SIBYL_EMU_TRANSPORT_H */
