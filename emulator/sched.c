/*
 * sched.c -- the scheduler of virtual ranks: the ready queue, blocking
 * and waking, running a rank's thread, and the termination and deadlock
 * detection.
 *
 * Scheduling is cooperative and round-robin: a rank runs until it blocks
 * in an MPI call, or parks in a poll that found nothing (emu_park).
 * When no local rank can run, the process polls Open MPI for messages
 * from the other processes (after a while it sleeps until one comes, see
 * idle_turn), and votes with them (a
 * non-blocking allreduce) on whether every process is idle with no
 * message in flight.  Two consecutive votes that find every
 * process idle, the same numbers of real messages sent and received, and
 * no activity in between mean the job is quiescent: finished if no rank
 * is left, otherwise a global deadlock, which is reported rank by rank.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu_private.h"

/*
 * The program's main(), renamed by <mpi.h> (or sibylcc's -Dmain): C names
 * it sibyl_user_main whatever its parameters; C++ mangles the name by
 * them, and a Fortran main program is MAIN__ (libgfortran's main calls
 * it; Sibyl's runtime sets the arguments up the same way).
 */
#define WEAK __attribute__((weak))
extern int sibyl_user_main(int argc, char **argv) WEAK;
extern int _Z15sibyl_user_mainiPPc(int argc, char **argv) WEAK;
extern int _Z15sibyl_user_mainv(void) WEAK;
extern int _Z15sibyl_user_mainiPPcS0_(int argc, char **argv, char **envp)
	WEAK;
extern char **environ;

static int call_main(int argc, char **argv)
{
	if (sibyl_user_main)
		return sibyl_user_main(argc, argv);
	if (_Z15sibyl_user_mainiPPc)
		return _Z15sibyl_user_mainiPPc(argc, argv);
	if (_Z15sibyl_user_mainv)
		return _Z15sibyl_user_mainv();
	if (_Z15sibyl_user_mainiPPcS0_)
		return _Z15sibyl_user_mainiPPcS0_(argc, argv, environ);
	emu_fatal("the program has no main(): compile the file that defines "
		  "it with sibylcc or sibylcxx (or include <mpi.h> in it)");
}

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
		emu.wakes++;
	} else if (r->state == RS_PARKED) {
		emu.nparked--;
		push_ready(r);
		emu.wakes++;
	} else if (r->state == RS_RUNNING) {
		r->wake_pending = 1;
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

/*
 * Parked pollers.  A program that waits by polling (MPI_Test, MPI_Iprobe
 * in a loop) would otherwise take a turn for every poll: a switch of
 * ranks each time (with the program's globals remapped, privatize.c),
 * and, when every rank of the process polls for a message of another
 * process, a busy round of switches until it comes -- the emulation of
 * a polling code ran several times slower than the code itself.  A poll
 * that finds nothing parks the rank instead: it leaves the ready queue
 * until emu_wake() -- which every completion of a request of the rank
 * and every message for it calls, as for a blocked rank -- so that its
 * next poll is one that can find something.  Under emulation a poll
 * takes no virtual time while it is parked, so nothing of the program's
 * results or of the trace depends on how long that is; the polls saved
 * were only the emulator's.  Should something reach a rank without
 * emu_wake() (a program polling a clock, say), the scheduler lets every
 * parked rank poll again when nothing else can run (after a spin and
 * naps, as when idle) and every 1,024 switches.  A rank woken while it
 * ran polls once more before it parks (wake_pending).
 */
void emu_park(emu_rank *r)
{
	if (r->wake_pending) {
		r->wake_pending = 0;
		emu_yield(r);
		return;
	}
	r->state = RS_PARKED;
	emu.nparked++;
	ult_switch(ult_main());
}

/* Let every parked rank poll again. */
static void unpark_all(void)
{
	for (uint32_t i = 0; i < emu.count && emu.nparked; i++)
		if (emu.ranks[i].state == RS_PARKED) {
			emu.nparked--;
			push_ready(&emu.ranks[i]);
		}
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
	if (setjmp(exit_jb) == 0) {
		/* What the process would run before main. */
		emu_life_construct(emu.user_argc, argv);
		r->exit_code = call_main(emu.user_argc, argv);
	}
	/* And after: an exit() in a handler comes back here and goes on
	 * with the next. */
	(void)setjmp(exit_jb);
	emu_life_end(r);
	r->exit_jb = NULL;
	free(argv);
	if (!r->initialized && emu.rec_lazy && !emu.writer) {
		/* Run directly, and no MPI_Init: an ordinary program (a
		 * configure test); its status is the process's. */
		emu.plain++;
		r->finalized = 1;
	}
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
	emu_err_free_rank(r);
	emu_rma_free_rank(r);
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
		if (shown < EMU_REPORT_LIMIT) {
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

/* Only parked pollers are left and nothing came: after a spin, and
 * naps that grow while their polls find nothing (no emu_wake() between
 * two rounds), let them poll again (a program that polls until its clock
 * says so makes a poll per nap, up to 1 ms, on several processes; on one,
 * where nothing can come from outside, they poll again at once).  `since' as in idle_turn; `nap' the
 * next nap (0: none yet), `wakes' emu.wakes at the last round. */
static void parked_turn(int64_t *since, int64_t *nap, uint64_t *wakes)
{
	if (emu.nprocs == 1) {
		/* No other process can bring anything: at once. */
		unpark_all();
		return;
	}
	int64_t now = mono_ns();
	if (emu.wakes != *wakes) {
		*wakes = emu.wakes;
		*nap = 0;
	}
	if (!*since) {
		*since = now;
		return;
	}
	if (now - *since < IDLE_SPIN)
		return;
	if (*nap && !emu.idle_spin) {
		emu_tr_wait(*nap);
		*nap = *nap * 2 > IDLE_NAP_MAX ? IDLE_NAP_MAX : *nap * 2;
	} else if (!*nap) {
		*nap = IDLE_NAP_MIN;
	}
	*since = 0;
	if (!emu.ready_head)
		unpark_all();
}

static void schedule(void)
{
	int64_t prev[4] = { -1, -1, -1, -1 };
	int64_t since = 0, nap = 0, psince = 0, pnap = 0;
	uint64_t pwakes = 0;

	for (;;) {
		emu_rank *r = pop_ready();
		if (r) {
			since = 0;
			psince = 0;
			run(r);
			if ((emu.switches & 63) == 0)
				emu_tr_progress();
			if (emu.nparked && (emu.switches & 1023) == 0)
				unpark_all();
			continue;
		}
		if (emu_tr_progress() > 0) {
			emu.activity = 1;
			since = 0;
			psince = 0;
			continue;
		}
		if (emu.nparked) {
			/* Polling ranks are live: no vote on quiescence
			 * (nor was there one while they took turns). */
			emu.activity = 1;
			parked_turn(&psince, &pnap, &pwakes);
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
			uint64_t sent, recvd;
			emu_tr_counts(&sent, &recvd);
			mine[1] = (int64_t)sent;
			mine[2] = (int64_t)recvd;
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

void emu_sched_run(void)
{
	for (uint32_t i = 0; i < emu.count; i++)
		push_ready(&emu.ranks[i]);
	emu.live = emu.count;
	schedule();
}
