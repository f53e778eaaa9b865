/*
 * timing.c -- how long an SEB computed, with the host's interference taken
 * out, and the code region it measured.
 *
 * An SEB is the code a rank runs between two MPI calls.  The emulator
 * times it on a shared host, where the core is taken away (other
 * processes, the hypervisor) and where the clocks themselves cost time.
 * With --timing corrected (the default):
 *
 *   - the SEB is timed with CLOCK_MONOTONIC (a vDSO read, ~30 ns); the
 *     thread's CPU clock and page faults (system calls, ~1.3 us each on a
 *     virtual machine) are read after an SEB of 2 us or more, and at the
 *     start of one only when needed (see "the two clocks" below);
 *   - when wall time exceeds CPU time by more than 2 us + 1/32 of it, the
 *     thread was off its core: the CPU time is kept ("off-cpu");
 *   - an SEB that began long after its rank's previous one ended (2 us,
 *     or 8 times the process's median gap: the rank waited, or the
 *     runtime worked long) is marked: it refills caches other work used;
 *     so is one after the thread left its core;
 *   - every SEB's time goes into the histograms of its code region (the
 *     pair of call sites where it began and ended) in this process: all
 *     samples, the clean ones (no page fault, not off its core) and the
 *     warm ones (clean, no gap and no context switch before).
 *     From 64 samples on (clean ones when there are 64), an SEB above the
 *     region's fence -- in log2, q50 + 6 * max((q50 - q25) * w, 0.1)
 *     (w = 1 + 4 / sqrt(n) below 800 samples, else 1), at most
 *     q90 + 3 and (from 800 samples) q99 + 1, and at least 1 us above
 *     the median -- is replaced by the median
 *     ("outlier"), unless more than 10% of the region lies above its
 *     fence (it varies by nature); an SEB that page-faulted loses the
 *     faults' cost measured at start ("page-faults"), down to the median
 *     at most once the region has 8 samples, and the rules that follow
 *     judge what remains;
 *     an SEB after a long gap, above the median of the warm samples, in
 *     a region that does not vary and has 64 warm samples that do the
 *     same work, gets that median ("cold");
 *   - record.c holds an SEB back until its region can be judged.
 *
 * docs/emulator.md ("Measured compute") gives the figures behind the
 * constants.  --timing raw keeps one clock (--clock) and no correction.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

#include "emu_private.h"

/* Histogram: bin 0 holds 0 ns, bin 1 + floor(BPO * log2(x)) the rest. */
#define BPO 32
#define NBINS (1 + BPO * 40)
_Static_assert(NBINS == EMU_TIMING_NBINS, "EMU_TIMING_NBINS is not NBINS");
#define WARM 64             /* samples before a region is judged */
#define WARM_VARIES 256     /* before one is judged to vary by nature */
#define MIN_MEDIAN 8        /* samples for a median (evidence only) */
#define REFIT 4096          /* refit every REFIT samples after 4096 */
#define FAR 6.0             /* fence: q50 + FAR * (q50 - q25), log2 */
#define FAR_Q90 3.0         /* and at most q90 + FAR_Q90 (x 8), log2 */
#define MIN_SPREAD 0.10     /* floor of q50 - q25 (log2; x 1.072) */
#define SPREAD_SE 4.0       /* q50 - q25 x (1 + SPREAD_SE / sqrt(n)),
                               below MIN_Q99 samples */
#define FAR_Q99 1.0         /* and at most q99 + FAR_Q99 (x 2), log2 ... */
#define MIN_Q99 800         /* ... from this many samples on (8 above
                               the 99th percentile place it) */
#define MIN_EXCESS 1000     /* ns above the median */
#define MAX_ABOVE 0.10      /* more above the fence: varies by nature */
#define MAX_REGIONS 65536   /* per process; more share no statistics */
#define COLD_GAP_NS 2000    /* least gap that marks a cold start (see
                               "The caches an SEB finds" below) */

struct emu_region {
	const void *b, *e;
	const char *rounds;     /* a collective's rounds (emu_region_get) */
	uint64_t n, next_fit;   /* samples, clean ones */
	uint64_t nclean;
	uint64_t nwarm;         /* clean ones that began warm */
	uint64_t ended;         /* SEBs that ended in it (emu_region_ended) */
	int judged;             /* its SEBs can be judged (for good) */
	int state;              /* 0 warming up, 1 outliers corrected, 2
	                           varies by nature, 3 a median only
	                           (fewer than WARM samples) */
	int64_t med, fence;     /* ns: median, fence */
	int64_t far;            /* ns: 8 x q90, the fence of state 2 */
	int64_t warm_med;       /* ns: median of the warm samples, */
	int warm_ok;            /* known (WARM of them at the last fit),
	                           and the work does not vary */
	char *name;
	/* Per bin: every sample, those without evidence of disturbance,
	 * and those of them that began warm (no gap, no context switch).
	 * Side by side, so that a sample touches one cache line: with
	 * hundreds of thousands of ranks, little else stays in cache
	 * between two SEBs of a region. */
	struct emu_hbin *bins;
};

enum { H_ALL, H_CLEAN, H_WARM };

/* The regions (emu_timing.h). */
static struct emu_timing_regions *const T = &emu.timing.regions;

static int64_t read_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void usage(int64_t *cpu, int64_t *faults, int64_t *switches);

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* SIBYL_TEST_INTERFERE=RANK:SEB:US[:WAIT][,...]: spin US microseconds of
 * wall time at the end of SEB number SEB of world rank RANK, and WAIT
 * microseconds in the runtime just before it begins, as if the call
 * before it had waited (test-only). */
static void parse_spins(const char *v)
{
	const char *p = v;
	while (*p) {
		char *end;
		long long rank = strtoll(p, &end, 10);
		unsigned long long seb;
		double us, wait = 0;
		if (end == p || *end != ':')
			goto bad;
		p = end + 1;
		seb = strtoull(p, &end, 10);
		if (end == p || *end != ':')
			goto bad;
		p = end + 1;
		us = strtod(p, &end);
		if (end == p || !(us >= 0) || us > 1e7 || rank < 0 ||
		    rank > INT32_MAX)
			goto bad;
		if (*end == ':') {
			p = end + 1;
			wait = strtod(p, &end);
			if (end == p || !(wait >= 0) || wait > 1e7)
				goto bad;
		}
		struct emu_timing_spin *s = realloc(T->spins, (T->nspins + 1) *
						    sizeof *s);
		if (!s)
			emu_fatal("out of memory");
		T->spins = s;
		s[T->nspins].rank = (int32_t)rank;
		s[T->nspins].seb = seb;
		s[T->nspins].ns = (int64_t)(us * 1000.0);
		s[T->nspins].wait_ns = (int64_t)(wait * 1000.0);
		T->nspins++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return;
bad:
	emu_fatal("SIBYL_TEST_INTERFERE=%s: expected RANK:SEB:US[:WAIT]"
		  "[,...] (test-only: spins US microseconds at the end of "
		  "SEB number SEB of rank RANK, and WAIT microseconds just "
		  "before it)", v);
}

/* The CPU time of one page fault on this host: the median of 33 first
 * touches of fresh anonymous pages, less a touch of a resident one. */
static int64_t fault_cost(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	int64_t d[33];
	volatile char *m = mmap(NULL, 33 * (size_t)pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 0;
	for (int i = 0; i < 33; i++) {
		int64_t a = read_ns(CLOCK_THREAD_CPUTIME_ID);
		m[(size_t)i * (size_t)pg] = 1;
		int64_t b = read_ns(CLOCK_THREAD_CPUTIME_ID);
		m[(size_t)i * (size_t)pg] = 2;
		int64_t c = read_ns(CLOCK_THREAD_CPUTIME_ID);
		d[i] = (b - a) - (c - b);
	}
	munmap((void *)m, 33 * (size_t)pg);
	qsort(d, 33, sizeof *d, cmp64);
	return d[16] > 0 ? d[16] : 0;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22   /* Linux 5.14 */
#endif

/*
 * Map every page of the process's code now, before any rank runs.  The
 * first call of a function on a page nobody has run yet takes a page
 * fault, and a fault costs 10-30 us on a virtual machine: the first
 * printf() of a program measured 200-600 us in its SEB (a dozen faults
 * in the C library's formatting code), 20-30 us with the code mapped.
 * That is the host's loader and page cache at work, not the program's,
 * and it would land in whichever SEB runs the code first.  The pages are
 * in the page cache already (the loader read them); this costs page
 * tables only.  Libraries opened later (dlopen) are not covered.
 */
static void map_code(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	long pg = sysconf(_SC_PAGESIZE);

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long b, e;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &b, &e, perm) != 3 ||
		    perm[0] != 'r' || perm[2] != 'x' || !strchr(line, '/'))
			continue;
		if (madvise((void *)b, e - b, MADV_POPULATE_READ) == 0)
			continue;
		/* An older kernel: read a byte of each page. */
		for (unsigned long a = b; a < e; a += (unsigned long)pg)
			(void)*(volatile const char *)a;
	}
	fclose(f);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  /* Linux 5.14 */
#endif

/*
 * The heap the ranks share.  A rank's malloc() takes fresh memory from
 * the top of its process's heap, which all the process's ranks grow in
 * turn: in the k-neighbor demo, each of 2,048 ranks a process allocates
 * 6 KiB in the SEB after MPI_Init, so nearly every one of those SEBs
 * page-faulted, and the brk() calls and faults left 2.2-2.9 us in it
 * after the faults' measured cost came out, with a 99th percentile of
 * 4-24 us that changed from run to run (the cost of a fault on a
 * virtual machine depends on whether the host still backs the page).
 * With the heap below populated, the same SEB measures 0.54 us (p99
 * 1.2 us) and does not fault.  A real rank's heap is its own and starts
 * with a populated top; the growth by thousands of ranks in one process
 * is the emulator's doing.  So, outside any SEB:
 *
 *   - at start, HEAP_PER_RANK (16 KiB) per rank of the process, at most
 *     HEAP_MAX (64 MiB), is taken from the heap in blocks below malloc's
 *     mmap threshold, written to, and given back behind a small block
 *     kept to the end: one free, populated chunk that the ranks'
 *     allocations are cut from (the top of the heap would be trimmed);
 *   - after an SEB that grew the heap (brk moved), the runtime populates
 *     the new top (MADV_POPULATE_WRITE: memory in use keeps its bytes),
 *     so that only the SEB that grew it pays, once per 128 KiB or more.
 *
 * The process's resident memory grows by what the ranks do not use of
 * the reserve.  Nothing of this runs with --timing raw.
 */
#define HEAP_BLOCK (64 * 1024)
#define HEAP_PER_RANK (16 * 1024)
#define HEAP_MAX (64u << 20)

static struct emu_timing_heap *const H = &emu.timing.heap;

static void heap_reserve(uint32_t ranks)
{
	size_t want = (size_t)ranks * HEAP_PER_RANK;
	if (want > HEAP_MAX)
		want = HEAP_MAX;
	size_t n = want / HEAP_BLOCK;
	void **b = n ? calloc(n, sizeof *b) : NULL;
	long pg = sysconf(_SC_PAGESIZE);

	if (!b)
		return;
	for (size_t i = 0; i < n; i++) {
		b[i] = malloc(HEAP_BLOCK - 64);
		for (size_t o = 0; b[i] && o < HEAP_BLOCK - 64; o += (size_t)pg)
			((volatile char *)b[i])[o] = 0;
	}
	H->guard = malloc(16);
	for (size_t i = 0; i < n; i++)
		free(b[i]);
	free(b);
	H->mark = sbrk(0);
	H->populate = 1;
}

/* After an SEB: populate what the heap grew by (see above). */
static void heap_check(void)
{
	char *top = sbrk(0);
	if (top == (char *)-1 || !H->populate)
		return;
	if (top > H->mark) {
		long pg = sysconf(_SC_PAGESIZE);
		char *from = (char *)((uintptr_t)H->mark &
				      ~(uintptr_t)(pg - 1));
		if (madvise(from, (size_t)(top - from), MADV_POPULATE_WRITE))
			H->populate = 0;         /* an older kernel */
		/* Its faults are the runtime's: a fresh reading before the
		 * next SEB. */
		emu_timing_runtime_grew();
	}
	H->mark = top;
}

/*
 * What a span with no code in it measures (ns): the end of one clock
 * read, the start of the next, and the calls that lead from a stamp
 * through the runtime to the program and back.  An SEB between two MPI
 * calls that do nothing in between measured 20-40 ns on a 2-core VM, all
 * of it this; taken off every span, it leaves such an SEB near 0, as the
 * program runs it natively.  The median of 65 pairs made through the
 * same functions, called through pointers so that the calls stay.
 */
static int64_t stamp_cost(void)
{
	void (*volatile now)(emu_stamp *) = emu_stamp_now;
	void (*volatile since)(const emu_stamp *, emu_span *) =
		emu_stamp_since;
	int64_t d[65];
	emu_stamp t;
	emu_span sp;

	for (int i = 0; i < 65; i++) {
		now(&t);
		since(&t, &sp);
		d[i] = sp.wall;
	}
	qsort(d, 65, sizeof *d, cmp64);
	emu.timing.clock.valid = 0;     /* the next span reads afresh */
	return d[32] > 0 ? d[32] : 0;
}

void emu_timing_init(void)
{
	emu.timing_raw = emu_set_is(TIMING, "raw");
	if (!emu.timing_raw) {
		if (emu.set[EMU_S_CLOCK].given)
			emu_fatal("SIBYL_CLOCK=%s: the clock is chosen only "
				  "with SIBYL_TIMING=raw (--timing raw); "
				  "corrected timing reads both",
				  emu.set[EMU_S_CLOCK].text);
		emu.clock_id = CLOCK_MONOTONIC;
		T->wall_only = emu.cpu_factor == 0;
		T->gap_thr = COLD_GAP_NS;
	}
	if (!emu.timing_raw && !T->wall_only) {
		/* The cost of one CPU-time read: the median of 33. */
		int64_t d[33], f, w;
		for (int i = 0; i < 33; i++) {
			int64_t a = read_ns(CLOCK_MONOTONIC), b;
			usage(&b, &f, &w);
			d[i] = read_ns(CLOCK_MONOTONIC) - a;
		}
		qsort(d, 33, sizeof *d, cmp64);
		T->cpu_read_ns = d[16] > 0 ? d[16] : 0;
		T->fault_ns = fault_cost();
		T->stamp_ns = stamp_cost();
		if (emu.set[EMU_S_TIMING_DEBUG].on)
			fprintf(stderr, "sibyl: CPU clock read %" PRId64
				" ns, page fault %" PRId64 " ns, empty span %"
				PRId64 " ns\n", T->cpu_read_ns, T->fault_ns,
				T->stamp_ns);
		map_code();
		heap_reserve(emu.count);
	}
	if (emu.set[EMU_S_TEST_INTERFERE].given)
		parse_spins(emu.set[EMU_S_TEST_INTERFERE].text);
}

/* ----------------------------------------------------- the two clocks */

/* The thread's CPU time, page faults and context switches (voluntary or
 * not).  getrusage()'s CPU times are only brought up to date at scheduler
 * ticks; the CPU clock is exact. */
static void usage(int64_t *cpu, int64_t *faults, int64_t *switches)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	*faults = ru.ru_minflt + ru.ru_majflt;
	*switches = ru.ru_nvcsw + ru.ru_nivcsw;
	*cpu = read_ns(CLOCK_THREAD_CPUTIME_ID);
}

/*
 * Reading the CPU clock and the fault counts is a pair of system calls,
 * and on a kernel that isolates its page tables (PTI, the Meltdown
 * mitigation) without PCIDs every system call empties the TLB: the code
 * that runs next pays a page walk for each page it touches.  An SEB that
 * began right after the readings measured 90 ns where the same loop
 * body measured 30 ns without them, and how much more depended on what
 * the host did.  So the CPU clock is read only where its value is needed
 * and where the TLB misses fall on the runtime, not on a rank:
 *
 *   - an SEB shorter than SHORT_NS (2 us) needs no CPU time: the
 *     off-core rule (wall - CPU > 2 us + wall/32) cannot fire on it, and
 *     a page fault costs more than that on the hosts where it matters;
 *     its end reads the wall clock only;
 *   - the readings are taken at the end of an SEB (after its wall time),
 *     and then the CPU time at the start of the next one is the last
 *     reading plus the wall time since: exact as long as the thread has
 *     not left its core in between.  It has not if every interval since
 *     that reading -- SEBs and the runtime's work between them -- is
 *     short (a descheduled thread misses at least a time slice of the
 *     host): the start of an SEB reads the clocks itself when the
 *     runtime's work before it took GAP_NS (10 us) or more, and an end
 *     reads them when the last reading is CHAIN_NS (50 us) old, so that
 *     faults counted since are the SEB's own but for a few;
 *   - the first span of a rank reads them (its fresh stack faults in the
 *     runtime's switch, before it), and so does the first after the
 *     runtime allocated (emu_timing_runtime_grew).
 */
#define SHORT_NS 2000
#define GAP_NS 10000
#define CHAIN_NS 50000

/*
 * The caches an SEB finds.  Two MPI calls apart, a rank finds its code,
 * stack and data where it left them, as it would on a real machine.  But
 * when the call blocked (the scheduler ran other ranks, or the process
 * waited for its peer) or the runtime worked long in it (a window of the
 * trace compressed), the next SEB refills what that evicted: rank 0 of
 * the k-neighbor demo receives from 4,095 ranks in a loop whose SEBs
 * measure 30 ns when the message was there and 100-130 ns when the rank
 * had to wait for it, and how many waited changed the prediction by 12%
 * from run to run.  An SEB that began long after its rank's previous
 * one ended (count_gap() below says how long) is marked EMU_EV_GAP; the
 * switches (the thread left its core since the last SEB that read the
 * clocks) mark EMU_EV_SWITCH.  emu_region_decide() below says what
 * becomes of them.
 */

static struct emu_timing_clock *const L = &emu.timing.clock;

/* Both clocks at every reading: the CPU clock is the costlier system
 * call, but a guest that accounts steal time leaves what the hypervisor
 * took out of it, which no context switch shows (docs/emulator.md,
 * "Clocks"). */
static void take_reading(void)
{
	int first = !L->valid && !L->wall;
	L->readings++;
	usage(&L->cpu, &L->faults, &L->switches);
	if (first)
		L->switches_seen = L->switches;
	L->wall = read_ns(CLOCK_MONOTONIC);
	L->valid = 1;
}

void emu_stamp_now(emu_stamp *t)
{
	t->ev = 0;
	if (emu.timing_raw) {
		t->wall = emu_now_ns();
		return;
	}
	int64_t w = read_ns(CLOCK_MONOTONIC);
	if (T->wall_only) {
		t->wall = w;
		return;
	}
	if (!L->valid || w - L->event >= GAP_NS || w - L->wall >= CHAIN_NS) {
		take_reading();
		w = L->wall;
	}
	t->wall = w;
	t->cpu = L->cpu + (w - L->wall);
	t->faults = L->faults;
	L->event = w;
}

void emu_timing_runtime_grew(void)
{
	/* Record arrays double as a rank's SEBs are held back: with the
	 * readings carried over, the faults of each doubling were charged
	 * to the rank's next SEB (its 5th, 9th, 17th, 33rd...). */
	L->valid = 0;
}

void emu_stamp_fresh(emu_stamp *t)
{
	if (!emu.timing_raw)
		L->valid = 0;
	emu_stamp_now(t);
}

/* A span of w ns of wall time and c of CPU time spent part of it off the
 * core: more than the clocks' own jitter (2 us and 1/32) apart. */
static int off_core(int64_t w, int64_t c)
{
	return w - c > 2000 + w / 32;
}

void emu_stamp_since(const emu_stamp *t, emu_span *sp)
{
	memset(sp, 0, sizeof *sp);
	if (emu.timing_raw) {
		sp->wall = sp->kept = emu_now_ns() - t->wall;
		return;
	}
	int64_t now = read_ns(CLOCK_MONOTONIC);
	int64_t w = now - t->wall;
	sp->wall = sp->kept = w;
	if (T->wall_only)
		return;
	L->spans++;
	sp->ev = t->ev;
	L->event = now;
	if (w < SHORT_NS && now - L->wall < CHAIN_NS)
		return;
	take_reading();
	/* The CPU time up to the end of the span: the reading less what
	 * the clocks themselves took after `now'. */
	int64_t c = L->cpu - t->cpu;
	if (off_core(w, c)) {
		/* Off the core for part of it: keep the CPU time. */
		sp->kept = c > T->cpu_read_ns ? c - T->cpu_read_ns : 0;
		sp->ev |= EMU_EV_OFFCPU;
	}
	if (L->faults > t->faults) {
		sp->faults = L->faults - t->faults;
		sp->ev |= EMU_EV_FAULTS;
	}
	if (L->switches > L->switches_seen) {
		/* The thread left its core since the last SEB that read the
		 * clocks: during this one, or before it, in the runtime or
		 * in a short SEB.  Either way this SEB ran on a cold cache
		 * and TLB: another process (or the idle wait) had the core
		 * in between ("The caches an SEB finds" above). */
		sp->ev |= EMU_EV_SWITCH;
		L->switches_seen = L->switches;
	}
	L->event = L->wall;
}

/*
 * How long the SEB begun at t has computed so far, for a reading of
 * virtual time inside it (MPI_Wtime, sibyl_print): the wall clock, or the
 * CPU clock when the thread was off its core for part of it, as
 * emu_stamp_since() keeps.  A host that took the core for milliseconds
 * would otherwise put them into the times the program reads and the
 * prints it makes.  Below CHAIN_NS no time slice fits, and the wall
 * clock alone answers (a vDSO read: loops that read the time often pay
 * no system call).  Nothing of the clock state changes.
 */
int64_t emu_stamp_peek(const emu_stamp *t)
{
	if (emu.timing_raw)
		return emu_now_ns() - t->wall;
	int64_t w = read_ns(CLOCK_MONOTONIC) - t->wall;
	if (T->wall_only || w < CHAIN_NS)
		return w;
	int64_t c = read_ns(CLOCK_THREAD_CPUTIME_ID) - t->cpu;
	if (off_core(w, c))
		return c > 0 ? c : 0;
	return w;
}

int64_t emu_span_fallback(const emu_span *sp)
{
	int64_t k = sp->kept - sp->faults * T->fault_ns;
	return k > 0 ? k : 0;
}

static void spin(int64_t ns)
{
	int64_t until = read_ns(CLOCK_MONOTONIC) + ns;
	while (read_ns(CLOCK_MONOTONIC) < until)
		;
}

/* SIBYL_TEST_INTERFERE: the spins at the end of the rank's current SEB
 * (wait 0), or before it begins (wait 1). */
static void spin_if_asked(emu_rank *r, int wait)
{
	for (size_t i = 0; i < T->nspins; i++)
		if (T->spins[i].rank == r->world && T->spins[i].seb == r->nsebs)
			spin(wait ? T->spins[i].wait_ns : T->spins[i].ns);
}

static int bin_of(int64_t ns);
static double quantile_log(const struct emu_hbin *h, int which, uint64_t n,
			   double q);

void emu_timing_resume(emu_rank *r)
{
	if (T->nspins)
		spin_if_asked(r, 1);
	emu_stamp_now(&r->resume);
	/* Only what must be: the rest waits for the SEB's end, so that
	 * it does not run inside the SEB. */
	if (!emu.timing_raw && r->seb_end &&
	    r->resume.wall - r->seb_end >= T->gap_thr)
		r->resume.ev |= EMU_EV_GAP;
}

/* What a long gap is depends on the runtime's own pace: a call that
 * neither waited nor worked long takes 0.2-0.5 us, several times that
 * under a sanitizer.  COLD_GAP_NS, or 8 times the median gap of this
 * process when that is longer. */
static void count_gap(int64_t gap)
{
	T->gap_hist[bin_of(gap)].c[H_ALL]++;
	if (++T->ngap == 64 || T->ngap % 1024 == 0) {
		double l = quantile_log(T->gap_hist, H_ALL, T->ngap, 0.5);
		int64_t m = l < 0 ? 0 : (int64_t)exp2(l);
		T->gap_thr = 8 * m > COLD_GAP_NS ? 8 * m : COLD_GAP_NS;
		if (emu.set[EMU_S_TIMING_DEBUG].on)
			fprintf(stderr, "sibyl: %" PRIu64 " gaps, median %"
				PRId64 " ns: a gap of %" PRId64 " ns or more "
				"marks a cold start\n", T->ngap, m, T->gap_thr);
	}
}

void emu_timing_begin(emu_rank *r)
{
	emu_stamp_fresh(&r->resume);
}

void emu_timing_end(emu_rank *r, emu_span *sp)
{
	if (T->nspins)
		spin_if_asked(r, 0);
	emu_stamp_since(&r->resume, sp);
	if (emu.timing_raw)
		return;
	if (!T->wall_only)
		heap_check();
	if (r->seb_end)
		count_gap(r->resume.wall - r->seb_end);
	r->seb_end = r->resume.wall + sp->wall;
	/* What the stamps themselves cost is not the program's. */
	sp->wall = sp->wall > T->stamp_ns ? sp->wall - T->stamp_ns : 0;
	sp->kept = sp->kept > T->stamp_ns ? sp->kept - T->stamp_ns : 0;
}

/* ------------------------------------------------------------ regions */

static uint64_t hash2(const void *b, const void *e, int rounds)
{
	uint64_t h = ((uint64_t)(uintptr_t)b + (uint64_t)rounds) *
		     0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)(uintptr_t)e + 0x632BE59BD9B4E019ull + (h << 6) +
	     (h >> 2);
	return h ^ (h >> 29);
}

emu_region *emu_region_get(const void *b, const void *e, const char *rounds)
{
	if (T->n * 2 >= T->cap) {
		if (T->n >= MAX_REGIONS) {
			if (!T->full_warned)
				emu_warn("more than %d code regions in this "
					 "process: further ones are not "
					 "corrected", MAX_REGIONS);
			T->full_warned = 1;
			/* Still found if present. */
		} else {
			size_t cap = T->cap ? T->cap * 2 : 256;
			emu_region **t = calloc(cap, sizeof *t);
			if (!t)
				emu_fatal("out of memory");
			for (size_t i = 0; i < T->cap; i++) {
				emu_region *g = T->tab[i];
				if (!g)
					continue;
				size_t j = hash2(g->b, g->e,
						 g->rounds != NULL) & (cap - 1);
				while (t[j])
					j = (j + 1) & (cap - 1);
				t[j] = g;
			}
			free(T->tab);
			T->tab = t;
			T->cap = cap;
		}
	}
	size_t j = hash2(b, e, rounds != NULL) & (T->cap - 1);
	while (T->tab[j]) {
		if (T->tab[j]->b == b && T->tab[j]->e == e &&
		    !T->tab[j]->rounds == !rounds)
			return T->tab[j];
		j = (j + 1) & (T->cap - 1);
	}
	if (T->n >= MAX_REGIONS)
		return NULL;
	emu_region *g = calloc(1, sizeof *g);
	if (!g || !(g->bins = calloc(NBINS, sizeof *g->bins)))
		emu_fatal("out of memory");
	g->b = b;
	g->e = e;
	g->rounds = rounds;
	g->next_fit = WARM;
	T->tab[j] = g;
	T->n++;
	return g;
}

/*
 * 1 + floor(32 * log2(ns)), without floating point (every SEB pays it):
 * ns = 2^e * m with m in [1, 2) as a 64-bit fraction, and the bin within
 * the octave is the number of steps 2^(j/32), j = 1..31, that m reaches.
 * STEP[j - 1] is 2^(63 + j/32) rounded up (computed to 60 digits); m
 * never equals 2^(j/32) exactly, so m >= STEP[j - 1] is the comparison.
 */
_Static_assert(BPO == 32, "STEP holds the steps of 32 bins per octave");
static const uint64_t STEP[BPO - 1] = {
	0x82cd8698ac2ba1d8ull, 0x85aac367cc487b15ull, 0x88980e8092da8528ull,
	0x8b95c1e3ea8bd6e7ull, 0x8ea4398b45cd53c1ull, 0x91c3d373ab11c337ull,
	0x94f4efa8fef70962ull, 0x9837f0518db8a970ull, 0x9b8d39b9d54e5539ull,
	0x9ef5326091a111aeull, 0xa27043030c496819ull, 0xa5fed6a9b15138ebull,
	0xa9a15ab4ea7c0ef9ull, 0xad583eea42a14ac7ull, 0xb123f581d2ac2590ull,
	0xb504f333f9de6485ull, 0xb8fbaf4762fb9eeaull, 0xbd08a39f580c36bfull,
	0xc12c4cca66709457ull, 0xc5672a115506dadeull, 0xc9b9bd866e2f27a3ull,
	0xce248c151f8480e4ull, 0xd2a81d91f12ae45bull, 0xd744fccad69d6af5ull,
	0xdbfbb797daf23756ull, 0xe0ccdeec2a94e112ull, 0xe5b906e77c8348a9ull,
	0xeac0c6e7dd24392full, 0xefe4b99bdcdaf5ccull, 0xf5257d152486cc2dull,
	0xfa83b2db722a033bull,
};

/* FIRST_STEP[b]: the steps reached at the start of the b-th 256th of the
 * octave (m's 8 bits after the leading one); a 256th is narrower than the
 * gap between two steps, so at most one more step lies inside it. */
static const uint8_t FIRST_STEP[256] = {
	 0,  0,  0,  0,  0,  0,  1,  1,  1,  1,  1,  1,  2,  2,  2,  2,
	 2,  2,  3,  3,  3,  3,  3,  3,  4,  4,  4,  4,  4,  4,  5,  5,
	 5,  5,  5,  5,  6,  6,  6,  6,  6,  6,  7,  7,  7,  7,  7,  7,
	 7,  8,  8,  8,  8,  8,  8,  8,  9,  9,  9,  9,  9,  9, 10, 10,
	10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12,
	12, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 14, 14, 14, 14, 14,
	14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15, 16, 16, 16, 16, 16,
	16, 16, 17, 17, 17, 17, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18,
	18, 18, 18, 19, 19, 19, 19, 19, 19, 19, 19, 20, 20, 20, 20, 20,
	20, 20, 20, 20, 21, 21, 21, 21, 21, 21, 21, 21, 21, 22, 22, 22,
	22, 22, 22, 22, 22, 22, 23, 23, 23, 23, 23, 23, 23, 23, 23, 24,
	24, 24, 24, 24, 24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 25,
	25, 25, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 27, 27, 27, 27,
	27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
	29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 30, 30, 30, 30, 30,
	30, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
};

static int bin_of(int64_t ns)
{
	if (ns <= 0)
		return 0;
	int e = 63 - __builtin_clzll((uint64_t)ns);
	uint64_t m = (uint64_t)ns << (63 - e);
	int j = FIRST_STEP[(m >> 55) & 255];
	if (j < BPO - 1 && m >= STEP[j])
		j++;
	int k = 1 + BPO * e + j;
	return k >= NBINS ? NBINS - 1 : k;
}

/* log2 of the q-quantile of the counts `which' of h (n samples),
 * interpolated in its bin. */
static double quantile_log(const struct emu_hbin *h, int which, uint64_t n,
			   double q)
{
	double want = q * (double)n, seen = 0;
	for (int k = 0; k < NBINS; k++) {
		uint32_t c = h[k].c[which];
		if (!c)
			continue;
		if (seen + c >= want) {
			if (k == 0)
				return -1.0;    /* 0 ns */
			double f = (want - seen) / c;
			return ((k - 1) + f) / BPO;
		}
		seen += c;
	}
	return (NBINS - 1.0) / BPO;
}

/* The region's statistics: from its clean samples when it has WARM of
 * them, else from all. */
static void fit(emu_region *g)
{
	const struct emu_hbin *h = g->bins;
	int which = g->nclean >= WARM ? H_CLEAN : H_ALL;
	uint64_t n = g->nclean >= WARM ? g->nclean : g->n;
	double l25 = quantile_log(h, which, n, 0.25),
	       l50 = quantile_log(h, which, n, 0.50),
	       l90 = quantile_log(h, which, n, 0.90),
	       l99 = quantile_log(h, which, n, 0.99);
	g->med = l50 < 0 ? 0 : (int64_t)llround(exp2(l50));
	if (g->nwarm >= WARM) {
		double w50 = quantile_log(h, H_WARM, g->nwarm, 0.50);
		double w75 = quantile_log(h, H_WARM, g->nwarm, 0.75);
		g->warm_med = w50 < 0 ? 0 : (int64_t)llround(exp2(w50));
		/* Only a region that does the same work each time: its warm
		 * upper quartile within 25% (+ 50 ns, the clock's steps) of
		 * its warm median.  A region whose work varies keeps its
		 * SEBs after a wait as they are. */
		g->warm_ok = (w75 < 0 ? 0 : exp2(w75)) <=
			     1.25 * (double)g->warm_med + 50;
	}
	/* The spread from the lower half only: interference lengthens
	 * SEBs, so it contaminates the upper half first. */
	/* Below MIN_Q99 samples, widened by the uncertainty of that
	 * spread, which a few hundred samples place only within +-15%: a
	 * log-normal region of 230 clean samples got a fence of 4.5 times
	 * its median instead of 7.5, and lost its largest draws as
	 * outliers.  From MIN_Q99 samples on the estimate is within +-5%
	 * and the bound by q99 below holds the fence: widening the
	 * spreads of the MD proxy's regions (2,048 samples and more a
	 * process) by 3-9% left a tail that moved its predictions under
	 * load by 14.4% against 7.0% without (bench/RESULTS.md).  The
	 * floor is no estimate, and is not widened. */
	double spread = l50 - l25;
	if (n < MIN_Q99)
		spread *= 1.0 + SPREAD_SE / sqrt((double)n);
	if (spread < MIN_SPREAD)
		spread = MIN_SPREAD;
	double lf = (l50 < 0 ? 0 : l50) + FAR * spread;
	/* A region whose lower half spreads wide (rounds that mostly do
	 * nothing and sometimes reduce; loops of 10 or of 1,000 steps)
	 * would get a fence of milliseconds from the lower half alone:
	 * eight times its 90th percentile bounds it. */
	double lfar = (l90 < 0 ? 0 : l90) + FAR_Q90;
	if (lf > lfar)
		lf = lfar;
	/* A region whose lower half is two modes (ranks whose setup
	 * page-faults and ranks whose setup reuses freed memory) gets a
	 * fence of four times its median from them: twice its 99th
	 * percentile, once there are enough samples above it to place
	 * that, bounds it too. */
	double l99far = (l99 < 0 ? 0 : l99) + FAR_Q99;
	if (n >= MIN_Q99 && lf > l99far)
		lf = l99far;
	g->far = lfar > 62 ? INT64_MAX : (int64_t)exp2(lfar);
	g->fence = lf > 62 ? INT64_MAX : (int64_t)exp2(lf);
	if (g->fence < g->med + MIN_EXCESS)
		g->fence = g->med + MIN_EXCESS;
	uint64_t above = 0;
	for (int k = bin_of(g->fence) + 1; k < NBINS; k++)
		above += h[k].c[which];
	g->state = g->n < WARM ? 3 :
		   (double)above > MAX_ABOVE * (double)n ? 2 : 1;
	/* Judged from WARM samples on, unless they say the region varies
	 * by nature: that takes WARM_VARIES samples to say, as it turns the
	 * outlier rule off.  A few ranks slow at once in the first samples
	 * (a host that was busy for a while) look like a second mode. */
	if (!g->judged && (g->state == 1 ||
			   (g->state == 2 && g->n >= WARM_VARIES))) {
		g->judged = 1;
		T->judged++;
	}
	if (emu.set[EMU_S_TIMING_DEBUG].on)
		fprintf(stderr, "sibyl: region %p > %p: %" PRIu64 " samples "
			"(%" PRIu64 " clean), median %" PRId64 " ns, fence %"
			PRId64 " ns, %" PRIu64 " above, state %d\n", g->b,
			g->e, g->n, g->nclean, g->med, g->fence, above,
			g->state);
	g->next_fit = g->n < WARM ? WARM : g->n < REFIT ? 2 * g->n :
		      g->n + REFIT;
}

uint64_t emu_regions_judged(void)
{
	return T->judged;
}

emu_region *emu_region_ended(const void *b, const void *e,
			      const char *rounds, emu_span *sp)
{
	emu_region *g = emu_region_get(b, e, rounds);

	/* The first to end is the first that ran: the others of this
	 * process had not reached the region's end yet (an SEB is judged
	 * later, in the order the ranks' calls complete). */
	if (g && !g->ended++)
		sp->ev |= EMU_EV_COLD;
	return g;
}

void emu_region_add(emu_region *g, const emu_span *sp)
{
	if (!g)
		return;
	int k = bin_of(sp->kept);
	g->bins[k].c[H_ALL]++;
	++g->n;
	/* A gap is no disturbance of the SEB's own time (most SEBs after
	 * a blocking call have one): clean, but not warm.  Nor is a
	 * context switch by itself: a long SEB meets one more often than
	 * a short one, and leaving them out would bias the region's
	 * statistics short (and its fence low). */
	if (!(sp->ev & ~(EMU_EV_GAP | EMU_EV_SWITCH))) {
		g->bins[k].c[H_CLEAN]++;
		g->nclean++;
		if (!sp->ev) {
			g->bins[k].c[H_WARM]++;
			g->nwarm++;
		}
	}
	if (g->n >= g->next_fit)
		fit(g);
}

int emu_region_judged(const emu_region *g)
{
	return g && g->judged;
}

int64_t emu_region_decide(emu_region *g, const emu_span *sp, uint32_t *why)
{
	int64_t ns = sp->kept;

	*why = sp->ev & EMU_EV_OFFCPU ? SIBT_CORR_OFFCPU : 0;
	if (g && g->state == 0 && g->n >= MIN_MEDIAN)
		fit(g);         /* a median from what there is */
	if (!g || g->state == 0) {
		/* No statistics: take out the faults' typical cost. */
		if (sp->faults) {
			*why = SIBT_CORR_FAULTS;
			return emu_span_fallback(sp);
		}
		return ns;
	}
	/* Evidence of disturbance first, whatever the region's nature. */
	int64_t faulted = 0;    /* the SEB's time, if faults came out */
	if (sp->faults && ns > g->med) {
		/* Longer than its region's typical SEB, with page faults:
		 * the faults' cost measured at start (the host's memory
		 * management, not the program's work) comes out, down to
		 * the median at most, and what remains is judged by the
		 * rules below like any other SEB.  Replacing it by the
		 * median instead would erase a region's variability: the
		 * first iteration of each rank faults once or twice in its
		 * fresh stack, and 2% of a log-normal region's draws set
		 * to its median moved its 90th percentile by 4-5%. */
		int64_t k = emu_span_fallback(sp);
		faulted = ns;
		ns = k > g->med ? k : g->med;
	}
	if ((sp->ev & (EMU_EV_OFFCPU | EMU_EV_SWITCH)) && ns > g->fence) {
		/* Off its core, and its CPU time far out too: that time
		 * also holds what the hypervisor took (guests without
		 * steal accounting charge it to the running thread).  Or
		 * the first SEB after the core was away: it refilled the
		 * caches and TLB that the other process emptied. */
		*why = SIBT_CORR_OUTLIER;
		return g->med;
	}
	if ((sp->ev & EMU_EV_GAP) && g->state == 1 && g->warm_ok &&
	    ns > g->warm_med) {
		/* Began on caches that other ranks or processes had used,
		 * in a region that does not vary by nature and whose SEBs
		 * also run warm often enough to know their time: the warm
		 * median. */
		*why = SIBT_CORR_COLD;
		return g->warm_med;
	}
	if ((sp->ev & EMU_EV_COLD) && g->state != 2 && ns > g->fence) {
		/* The region's first run in this process, far above the
		 * others: its code, the runtime's paths and the TLB were
		 * cold, a cost the process's other ranks do not pay (and
		 * one that would depend on how many ranks a process holds).
		 * A region that varies by nature keeps it. */
		*why = SIBT_CORR_COLD;
		return g->med;
	}
	if (g->state == 2 && ns > g->far && ns > g->fence) {
		/* Varies by nature, but eight times beyond its 90th
		 * percentile: a log-normal of sigma 0.5 goes there once in
		 * 3e7 draws. */
		*why = SIBT_CORR_OUTLIER;
		return g->med;
	}
	if (g->state != 1 || ns <= g->fence) {
		if (ns < faulted)
			*why = SIBT_CORR_FAULTS;
		return ns;
	}
	*why = SIBT_CORR_OUTLIER;
	return g->med;
}

/* -------------------------------------------------------------- names */

#ifdef HAVE_LIBDW
static const Dwfl_Callbacks dw_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &emu.timing.debuginfo_path,
};

static int dw_name(const void *a, char *buf, size_t len)
{
	if (!T->dwfl && !T->dwfl_failed) {
		T->dwfl = dwfl_begin(&dw_callbacks);
		if (!T->dwfl || dwfl_linux_proc_report(T->dwfl, getpid()) ||
		    dwfl_report_end(T->dwfl, NULL, NULL)) {
			T->dwfl_failed = 1;
			if (T->dwfl)
				dwfl_end(T->dwfl);
			T->dwfl = NULL;
		}
	}
	if (!T->dwfl)
		return -1;
	/* The return address is just after the call: look up the call. */
	Dwarf_Addr addr = (Dwarf_Addr)(uintptr_t)a - 1;
	Dwfl_Module *m = dwfl_addrmodule(T->dwfl, addr);
	if (!m)
		return -1;
	const char *fn = dwfl_module_addrname(m, addr);
	if (fn && strcmp(fn, "sibyl_user_main") == 0)
		fn = "main";    /* sibylcc renames it */
	Dwfl_Line *ln = dwfl_module_getsrc(m, addr);
	int line = 0;
	const char *file = ln ? dwfl_lineinfo(ln, NULL, &line, NULL, NULL,
					      NULL) : NULL;
	if (file) {
		const char *base = strrchr(file, '/');
		snprintf(buf, len, "%s (%s:%d)", fn ? fn : "?",
			 base ? base + 1 : file, line);
		return 0;
	}
	if (!fn)
		return -1;
	Dwarf_Addr start = 0;
	const char *mod = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL,
					   NULL, NULL);
	const char *base = mod ? strrchr(mod, '/') : NULL;
	snprintf(buf, len, "%s (%s+0x%" PRIx64 ")", fn,
		 base ? base + 1 : mod ? mod : "?", (uint64_t)(addr - start));
	return 0;
}
#endif

static void name_site(const void *a, char *buf, size_t len)
{
#ifdef HAVE_LIBDW
	if (dw_name(a, buf, len) == 0)
		return;
#endif
	Dl_info di;
	uintptr_t pc = (uintptr_t)a - 1;
	if (dladdr((void *)pc, &di) && di.dli_fname) {
		const char *base = strrchr(di.dli_fname, '/');
		base = base ? base + 1 : di.dli_fname;
		if (di.dli_sname)
			snprintf(buf, len, "%s+0x%" PRIxPTR " (%s)",
				 strcmp(di.dli_sname, "sibyl_user_main") ?
				 di.dli_sname : "main",
				 pc - (uintptr_t)di.dli_saddr, base);
		else
			snprintf(buf, len, "%s+0x%" PRIxPTR, base,
				 pc - (uintptr_t)di.dli_fbase);
		return;
	}
	snprintf(buf, len, "0x%" PRIxPTR, pc);
}

static const char *site_name(const void *a)
{
	for (size_t i = 0; i < T->sn; i++)
		if (T->sites[i].a == a)
			return T->sites[i].name;
	char buf[1024];
	name_site(a, buf, sizeof buf);
	if (T->sn == T->scap) {
		size_t c = T->scap ? 2 * T->scap : 64;
		struct emu_timing_site *s = realloc(T->sites, c * sizeof *s);
		if (!s)
			emu_fatal("out of memory");
		T->sites = s;
		T->scap = c;
	}
	T->sites[T->sn].a = a;
	if (!(T->sites[T->sn].name = strdup(buf)))
		emu_fatal("out of memory");
	return T->sites[T->sn++].name;
}

static void resolve(void *arg)
{
	emu_region *g = arg;
	/* The first SEB of a rank begins at its start; the last one of a
	 * rank that left main without MPI_Finalize ends at its exit. */
	const char *b = g->b ? site_name(g->b) : "start";
	const char *e = g->rounds ? g->rounds : g->e ? site_name(g->e) :
			"exit";
	size_t n = strlen(b) + strlen(e) + 11;
	if (!(g->name = malloc(n)))
		emu_fatal("out of memory");
	/* A collective's rounds: "SITE > MPI_Alltoall rounds". */
	snprintf(g->name, n, "%s > %s%s", b, e, g->rounds ? " rounds" : "");
}

const char *emu_region_name(emu_region *g)
{
	if (!g)
		return NULL;
	if (!g->name)
		/* Debug information is read on the scheduler's stack: a
		 * rank's may be small (--stack-size). */
		emu_on_main(resolve, g);
	return g->name;
}

void emu_timing_fini(void)
{
	if (emu.set[EMU_S_TIMING_DEBUG].on && L->spans)
		fprintf(stderr, "sibyl: %" PRIu64 " spans timed, %" PRIu64
			" readings of the CPU clock and fault counts (%"
			PRId64 " ns each)\n", L->spans, L->readings,
			T->cpu_read_ns);
	for (size_t i = 0; i < T->cap; i++)
		if (T->tab[i]) {
			free(T->tab[i]->bins);
			free(T->tab[i]->name);
			free(T->tab[i]);
		}
	free(T->tab);
	for (size_t i = 0; i < T->sn; i++)
		free(T->sites[i].name);
	free(T->sites);
	free(H->guard);
	H->guard = NULL;
	free(T->spins);
#ifdef HAVE_LIBDW
	if (T->dwfl)
		dwfl_end(T->dwfl);
#endif
	memset(T, 0, sizeof *T);
}
