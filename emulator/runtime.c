/*
 * runtime.c -- the emulator's real main(): start-up and teardown.
 *
 * The program's main() was renamed sibyl_user_main() by <mpi.h> (and
 * sibylcc); this main() starts Open MPI, reads the emulation options from
 * the environment (set by `sibyl emulate', see docs/emulator.md), creates
 * this process's block of virtual ranks and runs them as user-level
 * threads (sched.c) until every rank of every process has finished;
 * then it completes the trace, reports what the program leaked and
 * releases every layer, in the reverse order of their start.  It also
 * registers the hooks by which a lower layer calls a higher one (the
 * transport's upcalls here; the collectives register theirs with p2p in
 * emu_coll_init), so that no layer calls up by name.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu_private.h"

/* The process's state, every module's (emu_private.h): what is not zero
 * at start, each module's header says. */
emu_state emu = {
	.comm = EMU_COMM_STATE_INIT,
	.attr = EMU_ATTR_STATE_INIT,
	.dt = EMU_DT_STATE_INIT,
	.out = EMU_OUT_STATE_INIT,
	.priv = EMU_PRIV_STATE_INIT,
};

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

/*
 * Keep the heap's freed top.  The transport takes a buffer from malloc()
 * for every message's envelope and data and frees it once delivered.
 * glibc gives the top of the heap back to the kernel as soon as 128 KiB
 * of it are free, so a rank receiving two 64 KiB messages an iteration
 * had the heap shrunk and grown again every iteration: the next
 * receive's copy faulted on fresh pages (29 faults an iteration), the
 * emulation took 2.7 times the CPU time, and the program's own SEBs
 * measured up to twice their time (the k-neighbor example's fold of its
 * 128 KiB, 150 us natively, 145 or 300 us emulated, both ranks at
 * once).  A native rank has no such buffers.  So the top is kept until
 * 64 MiB of it are free, and blocks up to 32 MiB (glibc's largest
 * threshold) come from the heap, reused once freed, rather than from a
 * mapping of their own that every allocation would fault in anew (the
 * threshold no longer adapts once the top's is set).  The environment's
 * own MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_ or glibc.malloc
 * tunables are kept.
 */
static void keep_heap(void)
{
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD) && defined(M_MMAP_THRESHOLD)
	const char *t = getenv("GLIBC_TUNABLES");
	if (getenv("MALLOC_TRIM_THRESHOLD_") ||
	    getenv("MALLOC_MMAP_THRESHOLD_") ||
	    (t && strstr(t, "glibc.malloc.")))
		return;
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
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
	keep_heap();

	/* What the transport calls when messages arrive or finish. */
	static const emu_tr_upcalls up = {
		emu_p2p_arrived, emu_p2p_cts, emu_p2p_data_done,
		emu_p2p_send_done, emu_comm_rt_arrived, emu_out_flush
	};
	emu_tr_module(set[EMU_S_TRANSPORT].text);
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
	emu.post_min = set[EMU_S_POST_MIN].u;
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
	sibt_block_range(emu.nranks, (uint32_t)emu.nprocs,
			 (uint32_t)emu.proc, &emu.first, &emu.count);

	emu_timing_init();
	emu_fatal_signals_init();
	ult_pool_opts po = { emu.count, emu.stack_size, -1,
			     emu_stack_overflow };
	if (ult_pool_init(&po, err, sizeof err))
		emu_fatal("cannot reserve the stacks of %u ranks: %s",
			  emu.count, err);
	emu_coll_init();
	emu_priv_init();
	/* Under sibyl emulate (SIBYL_TRACE given) the trace is made now;
	 * run directly, at the first MPI_Init. */
	emu.rec_lazy = !set[EMU_S_TRACE].given;
	if (!emu.rec_lazy)
		emu_rec_start();
	emu.ranks = calloc(emu.count, sizeof *emu.ranks);
	if (!emu.ranks)
		emu_fatal("out of memory for %u ranks", emu.count);
	for (uint32_t i = 0; i < emu.count; i++) {
		emu.ranks[i].world = (int32_t)(emu.first + i);
		emu.ranks[i].local = i;
	}

	emu_sched_run();

	/* Every rank of every process has finished. */
	emu_out_flush();
	emu_rec_settle_all();
	unsigned long leaks = emu_p2p_report_leaks(EMU_REPORT_LIMIT);
	int code = 0;
	for (uint32_t i = 0; i < emu.count; i++) {
		emu_rank *r = &emu.ranks[i];
		if (r->exit_code && !code) {
			code = r->exit_code;
			if (!emu.plain)
				fprintf(stderr, "sibyl: rank %d ended with "
					"status %d after MPI_Finalize\n",
					r->world, code);
		}
		emu_rec_free(r);
		free(r->samples);
		free(r->bsend);
	}
	if (emu_rec_close())
		emu_fatal("cannot complete the trace %s", emu.trace_path);
	emu_state_end();
	emu_timing_fini();
	emu_priv_fini();
	emu_coll_fini();
	emu_op_fini();
	emu_info_fini();
	emu_dt_fini();
	emu_tr_fini();
	ult_pool_fini();
	emu_out_fini();
	if (!emu.quiet && emu.proc == 0 && !leaks && !emu.errors &&
	    !emu.plain)
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
