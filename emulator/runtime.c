/*
 * runtime.c -- the emulator's real main(), its scheduler, termination and
 * deadlock detection, and the MPI environment calls.
 *
 * The program's main() was renamed sibyl_user_main() by <mpi.h> (and
 * sibylcc); this main() starts Open MPI, reads the emulation options from
 * the environment (set by `sibyl emulate', see docs/emulator.md), creates
 * this process's block of virtual ranks and runs them as user-level
 * threads until every rank of every process has finished.
 *
 * Scheduling is cooperative and round-robin: a rank runs until it blocks
 * in, or yields from, an MPI call.  When no local rank can run, the
 * process polls Open MPI for messages from the other processes (after a
 * while it sleeps until one comes, see idle_turn), and votes with them (a
 * non-blocking allreduce) on whether every process is idle with no
 * message in flight.  Two consecutive votes that find every
 * process idle, the same numbers of real messages sent and received, and
 * no activity in between mean the job is quiescent: finished if no rank
 * is left, otherwise a global deadlock, which is reported rank by rank.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu_private.h"

emu_state emu;

int sibyl_user_main(int argc, char **argv);

#define REPORT_LIMIT 20 /* lines per process in fault reports */

/* ------------------------------------------------------------ messages */

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "sibyl: %s", kind);
	vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	emu_out_flush();
	fprintf(stderr, "%s\n", buf);
	fflush(stderr);
}

void emu_fatal(const char *fmt, ...)
{
	va_list ap;
	emu_out_flush();        /* what the ranks printed comes first */
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	emu_rec_abort();
	emu_tr_abort(3);
}

void emu_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

static const char *const err_names[] = {
	"MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE",
	"MPI_ERR_TAG", "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST",
	"MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
	"MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE",
	"MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS",
	"MPI_ERR_PENDING", "MPI_ERR_NO_MEM", "MPI_ERR_NOT_SUPPORTED"
};

static const char *const err_texts[] = {
	"no error", "invalid buffer pointer", "invalid count argument",
	"invalid datatype", "invalid tag argument", "invalid communicator",
	"invalid rank", "invalid request", "invalid root",
	"invalid group", "invalid reduce operation", "invalid topology",
	"invalid dimension argument", "invalid argument of some other kind",
	"unknown error", "message truncated", "known error not in this list",
	"internal error in the Sibyl emulator",
	"error code is in status", "pending request", "out of memory",
	"operation not supported by the Sibyl emulator"
};

int emu_mpi_error(emu_rank *r, const char *call, int code,
		  const char *fmt, ...)
{
	char detail[512];
	va_list ap;
	if (code < 0 || code > MPI_ERR_LASTCODE)
		code = MPI_ERR_UNKNOWN;
	if (r && r->err_jb && emu_comm_errhandler(r) != MPI_ERRORS_ARE_FATAL) {
		r->err_code = code;
		longjmp(*r->err_jb, 1);
	}
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	emu_out_flush();
	fprintf(stderr, "sibyl: rank %d in %s: %s: %s\n"
		"sibyl: the error handler is MPI_ERRORS_ARE_FATAL; aborting "
		"the emulation\n", r ? r->world : -1, call, err_names[code],
		detail);
	fflush(stderr);
	emu_rec_abort();
	emu_tr_abort(code ? code : 1);
}

void emu_api_disarm(emu_api_guard *g)
{
	g->r->err_jb = g->prev;
}

/* An error returned (MPI_ERRORS_RETURN): close the call's bookkeeping. */
int emu_api_failed(emu_rank *r, const char *call)
{
	r->blocked_req = NULL;
	r->blocked_n = 0;
	if (r->in_call)
		emu_rec_leave(r, call);
	/* A handler of the program's runs now, as the program's code. */
	emu_comm_user_errhandler(r, r->err_code);
	return r->err_code;
}

/* ----------------------------------------------------------- scheduler */

emu_rank *emu_self(const char *call)
{
	if (!emu.current)
		emu_fatal("%s called outside a virtual rank (from a "
			  "constructor, a destructor, an atexit handler or a "
			  "signal handler?)", call);
	return emu.current;
}

int emu_owner_proc(int32_t world)
{
	uint32_t q = emu.nranks / (uint32_t)emu.nprocs;
	uint32_t rem = emu.nranks % (uint32_t)emu.nprocs;
	uint32_t w = (uint32_t)world;
	if (w < rem * (q + 1))
		return (int)(w / (q + 1));
	return (int)(rem + (w - rem * (q + 1)) / q);
}

static void push_ready(emu_rank *r)
{
	r->state = RS_READY;
	r->next_ready = NULL;
	if (emu.ready_tail)
		emu.ready_tail->next_ready = r;
	else
		emu.ready_head = r;
	emu.ready_tail = r;
}

static emu_rank *pop_ready(void)
{
	emu_rank *r = emu.ready_head;
	if (r) {
		emu.ready_head = r->next_ready;
		if (!emu.ready_head)
			emu.ready_tail = NULL;
	}
	return r;
}

void emu_wake(emu_rank *r)
{
	if (r->state == RS_BLOCKED) {
		r->blocked_in = NULL;
		push_ready(r);
	}
}

void emu_block(emu_rank *r, const char *call)
{
	r->state = RS_BLOCKED;
	r->blocked_in = call;
	ult_switch(ult_main());
}

void emu_on_main(void (*fn)(void *), void *arg)
{
	if (ult_self() == ult_main()) {
		fn(arg);
		return;
	}
	emu.svc_fn = fn;
	emu.svc_arg = arg;
	ult_switch(ult_main());
}

void emu_yield(emu_rank *r)
{
	push_ready(r);
	ult_switch(ult_main());
}

void emu_rank_exit(emu_rank *r, int code)
{
	r->exit_code = code;
	longjmp(*r->exit_jb, 1);
}

static void rank_main(void *arg)
{
	emu_rank *r = arg;
	jmp_buf exit_jb;
	/* Each rank gets its own argv, array and strings, as a process
	 * would: getopt permutes the array, and programs write into the
	 * strings (strtok on optarg). */
	size_t n = ((size_t)emu.user_argc + 1) * sizeof(char *);
	for (int i = 0; i < emu.user_argc; i++)
		n += strlen(emu.user_argv[i]) + 1;
	char **volatile argv = malloc(n);
	if (!argv)
		emu_fatal("out of memory starting rank %d", r->world);
	char *str = (char *)(argv + emu.user_argc + 1);
	for (int i = 0; i < emu.user_argc; i++) {
		size_t len = strlen(emu.user_argv[i]) + 1;
		argv[i] = memcpy(str, emu.user_argv[i], len);
		str += len;
	}
	argv[emu.user_argc] = NULL;
	emu_comm_init_rank(r);
	emu_rec_begin(r);
	r->exit_jb = &exit_jb;
	if (setjmp(exit_jb) == 0)
		r->exit_code = sibyl_user_main(emu.user_argc, argv);
	r->exit_jb = NULL;
	free(argv);
	if (!r->finalized) {
		emu_warn("rank %d returned from main without calling "
			 "MPI_Finalize%s", r->world, r->initialized ? "" :
			 " (nor MPI_Init)");
		emu.errors++;
		emu_rec_enter(r, NULL);
		emu_rec_final(r);
		r->finalized = 1;
	}
	emu_comm_free_rank(r);
}

static void run(emu_rank *r)
{
	if (!r->u && !(r->u = ult_create(r->local, rank_main, r)))
		emu_fatal("cannot create the thread of rank %d", r->world);
	r->state = RS_RUNNING;
	emu.current = r;
	emu_priv_enter(r);
	ult_switch(r->u);
	while (emu.svc_fn) {
		/* The rank asked for work on this stack (emu_on_main). */
		void (*fn)(void *) = emu.svc_fn;
		emu.svc_fn = NULL;
		fn(emu.svc_arg);
		ult_switch(r->u);
	}
	emu_priv_leave(r);
	emu.current = NULL;
	emu.activity = 1;
	emu.switches++;
	ult_check(r->u);
	if (ult_finished(r->u)) {
		ult_destroy(r->u);
		r->u = NULL;
		emu_priv_free_rank(r);
		r->state = RS_DONE;
		emu.live--;
	}
}

/* Print the ranks of this process that wait, grouped per call. */
static void report_blocked(void)
{
	unsigned long shown = 0, total = 0;
	for (uint32_t i = 0; i < emu.count; i++) {
		emu_rank *r = &emu.ranks[i];
		if (r->state != RS_BLOCKED)
			continue;
		total++;
		if (shown < REPORT_LIMIT) {
			char what[160];
			emu_p2p_describe(r, what, sizeof what);
			fprintf(stderr, "sibyl:   rank %d waits in %s%s%s\n",
				r->world, r->blocked_in ? r->blocked_in :
				"(unknown call)", what[0] == '(' || !what[0] ?
				"" : " ", what);
			shown++;
		}
	}
	if (total > shown)
		fprintf(stderr, "sibyl:   ... and %lu more blocked rank%s in "
			"process %d\n", total - shown, total - shown == 1 ?
			"" : "s", emu.proc);
}

static void deadlock(int64_t live)
{
	emu_out_flush();
	if (emu.proc == 0)
		fprintf(stderr, "sibyl: deadlock: %lld rank%s blocked in MPI "
			"calls that can never complete (every rank of every "
			"process waits and no message is in flight):\n",
			(long long)live, live == 1 ? " is" : "s are");
	fflush(stderr);
	report_blocked();
	fflush(stderr);
	emu_rec_abort();
	emu_tr_fini();
	exit(1);
}

/*
 * Idle: no rank can run and Open MPI brought nothing.  Polling on would
 * keep the core busy for nothing, and on a shared machine take it from
 * the process whose message we wait for (or from whatever else runs
 * there); a process that polls is also descheduled as often as any
 * other, so messages wait for it.  So after IDLE_SPIN of polling (short
 * waits stay cheap) the process sleeps in emu_tr_wait: naps from
 * IDLE_NAP_MIN doubling to IDLE_NAP_MAX, cut short when a process of this
 * host hands it something.  SIBYL_IDLE=spin polls as before.
 */
#define IDLE_SPIN 50000         /* ns */
#define IDLE_NAP_MIN 20000
#define IDLE_NAP_MAX 1000000

static int64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* One idle turn: spin, then nap.  `since' is when the process became idle
 * (0: not idle), `nap' the next nap; returns emu_tr_wait's events. */
static int idle_turn(int64_t *since, int64_t *nap)
{
	if (emu.idle_spin)
		return 0;
	int64_t now = mono_ns();
	if (!*since) {
		*since = now;
		*nap = IDLE_NAP_MIN;
		return 0;
	}
	if (now - *since < IDLE_SPIN)
		return 0;
	int n = emu_tr_wait(*nap);
	*nap = *nap * 2 > IDLE_NAP_MAX ? IDLE_NAP_MAX : *nap * 2;
	return n;
}

static void schedule(void)
{
	int64_t prev[4] = { -1, -1, -1, -1 };
	int64_t since = 0, nap = 0;

	for (;;) {
		emu_rank *r = pop_ready();
		if (r) {
			since = 0;
			run(r);
			if ((emu.switches & 63) == 0)
				emu_tr_progress();
			continue;
		}
		if (emu_tr_progress() > 0) {
			emu.activity = 1;
			since = 0;
			continue;
		}
		if (emu.nprocs == 1) {
			if (emu.live == 0)
				return;
			if (!emu_tr_busy())
				deadlock(emu.live);
			continue;
		}
		int64_t mine[4], sum[4];
		if (!emu_tr_voting()) {
			mine[0] = emu.activity || emu_tr_busy();
			mine[1] = (int64_t)emu_tr_sent;
			mine[2] = (int64_t)emu_tr_recvd;
			mine[3] = emu.live;
			emu.activity = 0;
		}
		if (!emu_tr_vote(mine, sum)) {
			if (idle_turn(&since, &nap) > 0) {
				emu.activity = 1;
				since = 0;
			}
			continue;
		}
		if (sum[0] == 0 && sum[1] == sum[2] && prev[0] == 0 &&
		    prev[1] == sum[1] && prev[2] == sum[2]) {
			if (sum[3] == 0)
				return;
			deadlock(sum[3]);
		}
		memcpy(prev, sum, sizeof prev);
	}
}

/* -------------------------------------------------------------- options */

static void overflow(size_t slot, const char *how)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "sibyl: rank %u overflowed its "
		"stack of %zu bytes (detected by %s); give the ranks more "
		"with `sibyl emulate --stack-size SIZE' (or SIBYL_STACK_SIZE"
		"=BYTES), e.g. --stack-size %zuKiB\n", emu.first +
		(unsigned)slot, emu.stack_size, how, emu.stack_size / 512);
	emu_out_drain_signal();
	if (write(2, buf, (size_t)n) < 0)
		_exit(3);
	emu_tr_abort(3);
}

/* ---------------------------------------------------- fatal signals */

/*
 * A fault in the program (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) is
 * reported with the virtual rank that was running, then goes to the
 * handler installed before (Open MPI's backtrace) or takes its default
 * action, so that mpirun and `sibyl emulate' see the signal.  The handler
 * runs on an alternate stack (a rank's stack may be what overflowed) and
 * formats with nothing but write().  The ULT pool's guard-page handler,
 * installed later, passes every SIGSEGV that is not a stack overflow on
 * to this one.
 */
static const struct { int sig; const char *name, *what; } fatal_sigs[] = {
	{ SIGSEGV, "SIGSEGV", "invalid memory reference" },
	{ SIGBUS, "SIGBUS", "bus error" },
	{ SIGFPE, "SIGFPE", "arithmetic exception" },
	{ SIGILL, "SIGILL", "illegal instruction" },
	{ SIGABRT, "SIGABRT", "abort" },
};
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])
static struct sigaction fatal_old[NFATAL];
#define FATAL_ALTSTACK (64 * 1024)

static void fatal_put(char *buf, size_t cap, size_t *n, const char *s)
{
	while (*s && *n + 1 < cap)
		buf[(*n)++] = *s++;
}

static void fatal_putu(char *buf, size_t cap, size_t *n, uint64_t v,
		       int base)
{
	char d[24], *p = d + sizeof d;
	*--p = 0;
	do {
		*--p = "0123456789abcdef"[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v);
	fatal_put(buf, cap, n, base == 16 ? "0x" : "");
	fatal_put(buf, cap, n, p);
}

static void fatal_signal(int sig, siginfo_t *si, void *uctx)
{
	const emu_rank *r = emu.current;
	char buf[512];
	size_t n = 0, i;

	for (i = 0; i < NFATAL && fatal_sigs[i].sig != sig; i++)
		;
	fatal_put(buf, sizeof buf, &n, "sibyl: ");
	if (r) {
		fatal_put(buf, sizeof buf, &n, "rank ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)r->world, 10);
		fatal_put(buf, sizeof buf, &n, " (process ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)emu.proc, 10);
		fatal_put(buf, sizeof buf, &n, ")");
	} else {
		fatal_put(buf, sizeof buf, &n, "process ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)emu.proc, 10);
		fatal_put(buf, sizeof buf, &n, " (in the runtime, no rank "
			  "running)");
	}
	fatal_put(buf, sizeof buf, &n, " received ");
	fatal_put(buf, sizeof buf, &n, i < NFATAL ? fatal_sigs[i].name :
		  "a fatal signal");
	if (i < NFATAL) {
		fatal_put(buf, sizeof buf, &n, " (");
		fatal_put(buf, sizeof buf, &n, fatal_sigs[i].what);
		fatal_put(buf, sizeof buf, &n, ")");
	}
	if (si && si->si_code > 0 && sig != SIGABRT) {
		fatal_put(buf, sizeof buf, &n, " at address ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)(uintptr_t)
			   si->si_addr, 16);
	}
	if (r && r->in_call && r->blocked_in) {
		fatal_put(buf, sizeof buf, &n, " inside ");
		fatal_put(buf, sizeof buf, &n, r->blocked_in);
	} else if (r) {
		fatal_put(buf, sizeof buf, &n, " in the program's own code");
	}
	fatal_put(buf, sizeof buf, &n, "; the emulation stops (debug it "
		  "with a smaller --ranks, or under gdb as the process "
		  "runs one rank at a time)\n");
	emu_out_drain_signal();
	ssize_t w = write(STDERR_FILENO, buf, n);
	(void)w;

	/* Then whoever handled it before (Open MPI prints a backtrace). */
	const struct sigaction *old = i < NFATAL ? &fatal_old[i] : NULL;
	if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		sigaction(sig, old, NULL);
		old->sa_sigaction(sig, si, uctx);
		return;
	}
	if (old && !(old->sa_flags & SA_SIGINFO) &&
	    old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		sigaction(sig, old, NULL);
		old->sa_handler(sig);
		return;
	}
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/* A fault repeats when the handler returns; a sent signal (kill,
	 * abort()) must be sent again. */
	if (!si || si->si_code <= 0)
		raise(sig);
}

static void install_fatal_handlers(void)
{
	static char *altstack;
	stack_t ss;
	struct sigaction sa;

	if (!altstack && (altstack = malloc(FATAL_ALTSTACK))) {
		ss.ss_sp = altstack;
		ss.ss_size = FATAL_ALTSTACK;
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL) != 0) {
			free(altstack);
			altstack = NULL;
		}
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal_sigs[i].sig, &sa, &fatal_old[i]);
}

static char *default_trace(const char *argv0)
{
	const char *b = strrchr(argv0, '/');
	b = b ? b + 1 : argv0;
	size_t n = strlen(b) + 7;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s.trace", b);
	return p;
}

/*
 * Corrected timing: the same address layout in every emulating process,
 * run after run.  Where code and data land decides which of them share
 * cache sets and branch-predictor entries, and with the layout chosen at
 * random at each start (ASLR) the same loop body measured 30 ns in one
 * process and 40 ns in another: rank 0 of the k-neighbor demo, which
 * receives from 4,095 ranks in such a loop, predicted 126-230 us for it
 * from run to run, 129-135 us with one layout.  So the program runs
 * again, at once, with the kernel's randomization off for it (and the
 * processes it starts): personality(2) ADDR_NO_RANDOMIZE, what `setarch
 * -R' does.  Where that is refused (a seccomp filter), or the program
 * cannot be run again, it goes on as it is and the MANIFEST says so
 * (emu_layout).  --timing raw keeps the layout random.
 */
static void fix_layout(char **argv, int raw)
{
	if (raw)
		return;
	int p = personality(0xffffffff);
	if (p == -1 || (p & ADDR_NO_RANDOMIZE))
		return;
	if (personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1)
		return;
	execv("/proc/self/exe", argv);
	personality((unsigned long)p);
}

int emu_layout_fixed(void)
{
	int p = personality(0xffffffff);
	return p != -1 && (p & ADDR_NO_RANDOMIZE);
}

int main(int argc, char **argv)
{
	char err[512], serr[512];
	const struct emu_setval *set = emu.set;

	/* Every SIBYL_* setting, once (emu_settings.h); a bad one is reported
	 * once MPI runs, so that every process stops. */
	int bad = emu_settings_read(emu.set, serr, sizeof serr);
	fix_layout(argv, bad || emu_set_is(TIMING, "raw"));

	/* What the transport calls when messages arrive or finish. */
	static const emu_tr_upcalls up = {
		emu_p2p_arrived, emu_p2p_cts, emu_p2p_data_done,
		emu_p2p_send_done, emu_comm_rt_arrived, emu_out_flush
	};
	emu_tr_set_upcalls(&up);

	if (emu_tr_init(&argc, &argv, &emu.nprocs, &emu.proc, err,
			sizeof err)) {
		fprintf(stderr, "sibyl: %s\n", err);
		return 3;
	}
	emu_out_init();
	emu.user_argc = argc;
	emu.user_argv = argv;
	if (bad)
		emu_fatal("%s", serr);
	emu.nranks = set[EMU_S_RANKS].given ? (uint32_t)set[EMU_S_RANKS].u :
		(uint32_t)emu.nprocs;
	if (emu.nranks < (uint32_t)emu.nprocs)
		emu_fatal("SIBYL_RANKS=%u is less than the %d emulating "
			  "processes; give at least one virtual rank per "
			  "process", emu.nranks, emu.nprocs);
	/* A CPU factor of 0 keeps declared compute only (exact replays). */
	emu.cpu_factor = set[EMU_S_CPU_FACTOR].d;
	emu.flop_rate = set[EMU_S_FLOP_RATE].d;
	emu.stack_size = (size_t)set[EMU_S_STACK_SIZE].u;
	emu.quiet = set[EMU_S_QUIET].on;
	/* Ranks per node of the target: Comm_split_type(SHARED) and the
	 * PERCS-aware all-to-all.  32 = a PERCS node (4 POWER7 x 8 cores). */
	emu.node_size = (int)set[EMU_S_NODE_SIZE].u;
	/* CPU time by default: a preemption of the process would otherwise
	 * land in some rank's SEB as milliseconds of computation. */
	emu.clock_id = emu_set_is(CLOCK, "wall") ? CLOCK_MONOTONIC :
		CLOCK_THREAD_CPUTIME_ID;
	emu.idle_spin = emu_set_is(IDLE, "spin");
	emu.trace_path = set[EMU_S_TRACE].given ?
		strdup(set[EMU_S_TRACE].text) : default_trace(argv[0]);
	if (!emu.trace_path)
		emu_fatal("out of memory");
	if (!set[EMU_S_TRACE].given && emu.proc == 0) {
		/* Run directly: replace an earlier trace of ours only. */
		struct stat st;
		char m[4096];
		snprintf(m, sizeof m, "%s/MANIFEST", emu.trace_path);
		if (stat(emu.trace_path, &st) == 0 && stat(m, &st) != 0)
			emu_fatal("%s exists and is not a Sibyl trace; move it "
				  "away or choose another path with "
				  "SIBYL_TRACE", emu.trace_path);
	}
	sibt_block_range(emu.nranks, (uint32_t)emu.nprocs,
			 (uint32_t)emu.proc, &emu.first, &emu.count);

	emu_timing_init();
	install_fatal_handlers();
	ult_pool_opts po = { emu.count, emu.stack_size, -1, overflow };
	if (ult_pool_init(&po, err, sizeof err))
		emu_fatal("cannot reserve the stacks of %u ranks: %s",
			  emu.count, err);
	emu_coll_init();
	emu_priv_init();
	if (emu_rec_open(err, sizeof err))
		emu_fatal("cannot create the trace: %s", err);
	emu.ranks = calloc(emu.count, sizeof *emu.ranks);
	if (!emu.ranks)
		emu_fatal("out of memory for %u ranks", emu.count);
	for (uint32_t i = 0; i < emu.count; i++) {
		emu.ranks[i].world = (int32_t)(emu.first + i);
		emu.ranks[i].local = i;
		push_ready(&emu.ranks[i]);
	}
	emu.live = emu.count;

	schedule();

	/* Every rank of every process has finished. */
	emu_out_flush();
	emu_rec_settle_all();
	unsigned long leaks = emu_p2p_report_leaks(REPORT_LIMIT);
	int code = 0;
	for (uint32_t i = 0; i < emu.count; i++) {
		emu_rank *r = &emu.ranks[i];
		if (r->exit_code && !code) {
			code = r->exit_code;
			fprintf(stderr, "sibyl: rank %d ended with status %d "
				"after MPI_Finalize\n", r->world, code);
		}
		emu_rec_free(r);
		free(r->samples);
	}
	if (emu_rec_close())
		emu_fatal("cannot complete the trace %s", emu.trace_path);
	emu_timing_fini();
	emu_priv_fini();
	emu_coll_fini();
	emu_op_fini();
	emu_dt_fini();
	emu_tr_fini();
	ult_pool_fini();
	emu_out_fini();
	if (!emu.quiet && emu.proc == 0 && !leaks && !emu.errors)
		fprintf(stderr, "sibyl: %u ranks on %d process%s finished; "
			"trace in %s\n", emu.nranks, emu.nprocs,
			emu.nprocs == 1 ? "" : "es", emu.trace_path);
	if (leaks || emu.errors) {
		fprintf(stderr, "sibyl: process %d: %lu leaked request%s or "
			"unreceived message%s, %d rank%s without "
			"MPI_Finalize; the trace is complete but the program "
			"is erroneous\n", emu.proc, leaks, leaks == 1 ? "" :
			"s", leaks == 1 ? "" : "s", emu.errors,
			emu.errors == 1 ? "" : "s");
		return 1;
	}
	return code;
}

/* ------------------------------------------------------ MPI environment */

int MPI_Init(int *argc, char ***argv)
{
	emu_rank *r = emu_self("MPI_Init");
	if (r->initialized)
		return emu_mpi_error(r, "MPI_Init", MPI_ERR_OTHER,
				     "MPI is already initialized");
	emu_rec_enter(r, EMU_SITE);
	r->initialized = 1;
	emu_rec_leave(r, "MPI_Init");
	return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = MPI_Init(argc, argv);
	/* Virtual ranks are single threads: at most FUNNELED is honest. */
	if (provided)
		*provided = required < MPI_THREAD_FUNNELED ? required :
			MPI_THREAD_FUNNELED;
	return rc;
}

int MPI_Query_thread(int *provided)
{
	*provided = MPI_THREAD_FUNNELED;
	return MPI_SUCCESS;
}

int MPI_Is_thread_main(int *flag)
{
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
	emu_rank *r = emu_self("MPI_Initialized");
	*flag = r->initialized;
	return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
	emu_rank *r = emu_self("MPI_Finalized");
	*flag = r->finalized;
	return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
	emu_rank *r = emu_self("MPI_Finalize");
	if (!r->initialized || r->finalized)
		return emu_mpi_error(r, "MPI_Finalize", MPI_ERR_OTHER,
				     r->finalized ? "MPI is already finalized"
				     : "MPI is not initialized");
	emu_comm_finalize_rank(r);
	emu_rec_enter(r, EMU_SITE);
	emu_rec_final(r);
	r->finalized = 1;
	return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
	emu_rank *r = emu.current;
	emu_out_flush();
	fprintf(stderr, "sibyl: rank %d called MPI_Abort with error code "
		"%d; aborting the emulation\n", r ? r->world : -1, errorcode);
	emu_rec_abort();
	emu_tr_abort(errorcode ? errorcode : 1);
}

int MPI_Get_version(int *version, int *subversion)
{
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
	int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "Sibyl "
			 "emulator (libsibyl-emu %s) over Open MPI",
			 PACKAGE_VERSION);
	*resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n :
		MPI_MAX_LIBRARY_VERSION_STRING - 1;
	return MPI_SUCCESS;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
	if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
		strcpy(name, "localhost");
	name[MPI_MAX_PROCESSOR_NAME - 1] = 0;
	*resultlen = (int)strlen(name);
	return MPI_SUCCESS;
}

double MPI_Wtime(void)
{
	emu_rank *r = emu_self("MPI_Wtime");
	return (double)emu_rec_vtime(r) * 1e-12;
}

double MPI_Wtick(void)
{
	return 1e-12;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
	const char *s = errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE ?
		err_texts[errorcode] : NULL;
	int n;
	if (s)
		n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s",
			     err_names[errorcode], s);
	else
		n = snprintf(string, MPI_MAX_ERROR_STRING, "unknown error "
			     "code %d", errorcode);
	*resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
	return s ? MPI_SUCCESS : MPI_ERR_ARG;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
	if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
		return MPI_ERR_ARG;
	*errorclass = errorcode;
	return MPI_SUCCESS;
}
