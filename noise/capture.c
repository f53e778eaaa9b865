/*
 * capture.c -- measure the OS noise of this host: a "selfish detour" loop
 * (Beckman et al., 2006; the method of Netgauge's noise benchmark) on
 * each selected PU, all PUs at once, each thread bound with hwloc.
 *
 * Each thread reads CLOCK_MONOTONIC in a tight loop; a gap between two
 * reads longer than the threshold is a detour: the core was taken away.
 * The detour starts at the earlier read and lasts the gap minus the
 * loop's own minimum iteration time (what the loop would have taken
 * anyway).  All threads share one start instant, so the files of one
 * capture are aligned in time.
 *
 * Why all PUs at once: an MPI application keeps every core busy, and a
 * daemon that wakes up must then preempt one of them; measuring the cores
 * one at a time would leave idle cores where the OS runs its work
 * unseen.  It also makes the capture last --duration, not
 * --duration x cores.
 *
 * The detour buffers are allocated and touched before the start, so the
 * loop takes no page fault; when a buffer fills up anyway it is grown
 * and the time spent growing is not measured ("blind" time, reported).
 */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "noise.h"
#include "sib_err.h"

/* Calibration: the loop's minimum iteration time over this long. */
#define CAL_NS 20000000LL
/* Default threshold: the larger of this and 10 x the loop minimum. */
#define DEFAULT_THRESHOLD_NS 1000LL
#define THRESHOLD_LOOP_FACTOR 10
/* A threshold below this many loop minima cannot tell detours apart. */
#define MIN_THRESHOLD_LOOPS 2
/* Initial buffer: detours per second of capture (grown if exceeded). */
#define INITIAL_DETOURS_PER_S 20000

typedef struct cap_thread {
	noise_capture *cap;
	noise_capture_core *core;
	hwloc_topology_t topo;
	hwloc_obj_t pu;
	size_t cap_detours;
	int failed;               /* out of memory while growing */
	pthread_t tid;
} cap_thread;

/* Shared between the measuring threads. */
typedef struct cap_shared {
	pthread_barrier_t calibrated, started;
	int64_t t0_ns, t_end_ns, threshold_ns;
	const volatile sig_atomic_t *stop;
} cap_shared;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int64_t calibrate(void)
{
	int64_t prev = now_ns(), end = prev + CAL_NS, min = INT64_MAX;

	for (;;) {
		int64_t t = now_ns(), gap = t - prev;
		if (gap > 0 && gap < min)
			min = gap;
		prev = t;
		if (t >= end)
			break;
	}
	return min == INT64_MAX ? 1 : min;
}

/* Record [s, s + d) in ns relative to t0; grows the buffer if full.
 * Returns the ns spent growing (blind time), or -1 without memory. */
static int64_t record(cap_thread *th, int64_t s, int64_t d)
{
	noise_capture_core *c = th->core;
	int64_t blind = 0;

	if (c->ndetours == th->cap_detours) {
		int64_t g0 = now_ns();
		size_t ncap = 2 * th->cap_detours;
		int64_t *st = realloc(c->start_ps, ncap * sizeof *st);
		if (st)
			c->start_ps = st;
		int64_t *du = realloc(c->duration_ps, ncap * sizeof *du);
		if (du)
			c->duration_ps = du;
		if (!st || !du)
			return -1;
		memset(st + th->cap_detours, 0,
		       (ncap - th->cap_detours) * sizeof *st);
		memset(du + th->cap_detours, 0,
		       (ncap - th->cap_detours) * sizeof *du);
		th->cap_detours = ncap;
		blind = now_ns() - g0;
	}
	c->start_ps[c->ndetours] = s;   /* in ns until the end of the run */
	c->duration_ps[c->ndetours] = d;
	c->ndetours++;
	return blind;
}

static void *measure(void *arg)
{
	cap_thread *th = arg;
	noise_capture_core *c = th->core;
	cap_shared *sh = th->cap->shared;

	if (th->pu) {
		c->bound = hwloc_set_cpubind(th->topo, th->pu->cpuset,
					     HWLOC_CPUBIND_THREAD) == 0;
		if (!c->bound)
			c->bind_errno = errno;
	}
	c->loop_min_ps = calibrate() * 1000;
	pthread_barrier_wait(&sh->calibrated);
	/* The main thread sets the threshold and the start between the two
	 * barriers. */
	pthread_barrier_wait(&sh->started);

	int64_t t0 = sh->t0_ns, t_end = sh->t_end_ns, thr = sh->threshold_ns;
	int64_t lmin = c->loop_min_ps / 1000, blind = 0;
	int64_t prev = now_ns();

	while (prev < t0)
		prev = now_ns();
	prev = t0;
	for (;;) {
		int64_t t = now_ns(), gap = t - prev;
		if (gap > thr) {
			int64_t s = prev, e = t - lmin;
			if (e > t_end)
				e = t_end;
			if (e > s) {
				int64_t b = record(th, s - t0, e - s);
				if (b < 0) {
					th->failed = 1;
					break;
				}
				blind += b;
				if (b)
					t = now_ns();
			}
		}
		prev = t;
		if (t >= t_end || (sh->stop && *sh->stop))
			break;
	}
	c->blind_ps = blind * 1000;
	return NULL;
}

int noise_capture_host_cores(uint32_t *n, char *err, size_t errlen)
{
	hwloc_topology_t topo;
	int k;

	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return sib_errf(err, errlen, "hwloc cannot read the topology "
				 "of this host");
	k = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	hwloc_topology_destroy(topo);
	if (k <= 0)
		return sib_errf(err, errlen, "hwloc finds no processing "
				 "unit on this host");
	*n = (uint32_t)k;
	return 0;
}

void noise_capture_free(noise_capture *cap)
{
	if (!cap)
		return;
	for (uint32_t i = 0; i < cap->ncores; i++) {
		free(cap->cores[i].start_ps);
		free(cap->cores[i].duration_ps);
	}
	free(cap->cores);
	free(cap);
}

static int start_threads(noise_capture *cap, cap_thread *th, uint32_t n,
			 char *err, size_t errlen)
{
	for (uint32_t i = 0; i < n; i++) {
		int rc = pthread_create(&th[i].tid, NULL, measure, &th[i]);
		if (rc)
			return sib_errf(err, errlen, "cannot start measuring "
					 "thread %" PRIu32 " of %" PRIu32 ": %s",
					 i + 1, n, strerror(rc));
	}
	(void)cap;
	return 0;
}

/* Each core's record and thread: its PU, and room for `initial'
 * detours, touched now so that the capture does not fault them in. */
static int prepare_cores(const noise_capture_opts *o, noise_capture *cap,
			 cap_thread *th, hwloc_topology_t topo,
			 size_t initial, char *err, size_t errlen)
{
	uint32_t npu = (uint32_t)hwloc_get_nbobjs_by_type(topo,
							   HWLOC_OBJ_PU);

	for (uint32_t i = 0; i < o->ncores; i++) {
		noise_capture_core *c = &cap->cores[i];
		if (o->cores[i] >= npu)
			return sib_errf(err, errlen, "core %" PRIu32 " does not "
					"exist: this host has %" PRIu32 " (0 to %"
					PRIu32 ")", o->cores[i], npu, npu - 1);
		c->core = o->cores[i];
		th[i] = (cap_thread){
			.cap = cap, .core = c, .topo = topo,
			.pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU,
						    o->cores[i]),
			.cap_detours = initial,
		};
		c->os_index = th[i].pu ? th[i].pu->os_index : c->core;
		/* calloc touches nothing; zeroing the pages does. */
		c->start_ps = malloc(initial * sizeof *c->start_ps);
		c->duration_ps = malloc(initial * sizeof *c->duration_ps);
		if (!c->start_ps || !c->duration_ps)
			return sib_errf(err, errlen, "out of memory for %zu "
					"detours per core", initial);
		memset(c->start_ps, 0, initial * sizeof *c->start_ps);
		memset(c->duration_ps, 0, initial * sizeof *c->duration_ps);
	}
	return 0;
}

/* While the threads measure: the progress callback once a second. */
static void report_progress(const noise_capture_opts *o,
			    const cap_shared *sh, int64_t dur_ns)
{
	int64_t next = sh->t0_ns;

	for (;;) {
		next += 1000000000LL;
		if (next >= sh->t_end_ns || (o->stop && *o->stop))
			break;
		struct timespec ts = {
			.tv_sec = next / 1000000000LL,
			.tv_nsec = next % 1000000000LL
		};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			if (o->stop && *o->stop)
				break;
		o->progress(o->progress_arg,
			    (double)(next - sh->t0_ns) / (double)dur_ns);
	}
}

int noise_capture_run(const noise_capture_opts *o, noise_capture **out,
		      char *err, size_t errlen)
{
	hwloc_topology_t topo;
	noise_capture *cap = NULL;
	cap_thread *th = NULL;
	cap_shared sh = { .stop = o->stop };
	uint32_t n = o->ncores;
	int rc = -1;

	*out = NULL;
	if (n == 0)
		return sib_errf(err, errlen, "no core to measure");
	if (o->duration_ps < 1000000 ||
	    o->duration_ps > NOISE_CAPTURE_MAX_DURATION_PS)
		return sib_errf(err, errlen, "the capture duration must be "
				 "from 1 us to 3600 s");
	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return sib_errf(err, errlen, "hwloc cannot read the topology "
				 "of this host");
	cap = calloc(1, sizeof *cap);
	th = calloc(n, sizeof *th);
	if (!cap || !th || !(cap->cores = calloc(n, sizeof *cap->cores))) {
		sib_errf(err, errlen, "out of memory");
		goto out_with_topo;
	}
	cap->ncores = n;
	cap->duration_ps = o->duration_ps / 1000 * 1000;
	cap->shared = &sh;
	struct timespec res;
	clock_getres(CLOCK_MONOTONIC, &res);
	cap->clock_res_ps = ((int64_t)res.tv_sec * 1000000000LL +
			     res.tv_nsec) * 1000;
	if (gethostname(cap->host, sizeof cap->host - 1))
		snprintf(cap->host, sizeof cap->host, "unknown");
	cap->date = time(NULL);

	int64_t dur_ns = o->duration_ps / 1000;
	size_t initial = (size_t)(INITIAL_DETOURS_PER_S *
				  ((double)dur_ns / 1e9)) + 4096;
	if (prepare_cores(o, cap, th, topo, initial, err, errlen))
		goto out_with_cap;

	if (pthread_barrier_init(&sh.calibrated, NULL, n + 1) ||
	    pthread_barrier_init(&sh.started, NULL, n + 1)) {
		sib_errf(err, errlen, "cannot create thread barriers");
		goto out_with_cap;
	}
	if (start_threads(cap, th, n, err, errlen)) {
		/* Threads already started wait at the barrier forever: the
		 * caller exits on this error. */
		goto out_with_cap;
	}
	pthread_barrier_wait(&sh.calibrated);

	int64_t lmax = 0;
	for (uint32_t i = 0; i < n; i++)
		if (cap->cores[i].loop_min_ps > lmax)
			lmax = cap->cores[i].loop_min_ps;
	cap->loop_min_ps = lmax;
	int64_t thr = o->threshold_ps;
	if (thr == 0) {
		thr = THRESHOLD_LOOP_FACTOR * lmax;
		if (thr < DEFAULT_THRESHOLD_NS * 1000)
			thr = DEFAULT_THRESHOLD_NS * 1000;
	}
	cap->threshold_ps = thr;
	int too_low = thr < MIN_THRESHOLD_LOOPS * lmax;
	/* A threshold too low for the loop: measure nothing. */
	sh.threshold_ns = thr / 1000;
	sh.t0_ns = now_ns() + 1000000;    /* all threads ready in 1 ms */
	sh.t_end_ns = too_low ? sh.t0_ns : sh.t0_ns + dur_ns;
	pthread_barrier_wait(&sh.started);

	if (o->progress && !too_low)
		report_progress(o, &sh, dur_ns);
	int failed = 0;
	for (uint32_t i = 0; i < n; i++) {
		pthread_join(th[i].tid, NULL);
		failed |= th[i].failed;
	}
	pthread_barrier_destroy(&sh.calibrated);
	pthread_barrier_destroy(&sh.started);
	cap->shared = NULL;
	if (too_low) {
		char a[32], b[32];
		sib_errf(err, errlen, "threshold %s is below %d times the "
			  "loop's minimum iteration time (%s): detours cannot "
			  "be told from the loop itself; use a larger "
			  "--threshold", noise_fmt_ns(a, sizeof a, thr),
			  MIN_THRESHOLD_LOOPS, noise_fmt_ns(b, sizeof b, lmax));
		goto out_with_cap;
	}
	if (failed) {
		sib_errf(err, errlen, "out of memory while recording "
			  "detours; use a larger --threshold or a shorter "
			  "--duration");
		goto out_with_cap;
	}
	if (o->stop && *o->stop) {
		sib_errf(err, errlen, "interrupted");
		goto out_with_cap;
	}
	for (uint32_t i = 0; i < n; i++) {
		noise_capture_core *c = &cap->cores[i];
		int64_t away = 0;
		for (uint64_t k = 0; k < c->ndetours; k++) {
			away += c->duration_ps[k];
			c->start_ps[k] *= 1000;
			c->duration_ps[k] *= 1000;
		}
		/* Other work held the core from the start to the end: the
		 * loop never ran, and the capture says nothing of the
		 * host's own noise (a model of it would never run). */
		if (away >= dur_ns) {
			char a[32];
			sib_errf(err, errlen, "core %" PRIu32 " never ran the "
				  "measuring loop during the %s capture: other "
				  "work held it throughout; capture when the "
				  "cores are idle, or for longer (--duration)",
				  c->core, noise_fmt_ns(a, sizeof a,
							o->duration_ps));
			goto out_with_cap;
		}
	}
	*out = cap;
	cap = NULL;
	rc = 0;
out_with_cap:
	noise_capture_free(cap);
out_with_topo:
	free(th);
	hwloc_topology_destroy(topo);
	return rc;
}

char *noise_fmt_ns(char *buf, size_t len, sib_ps ps)
{
	if (ps % 1000 == 0)
		snprintf(buf, len, "%" PRId64 " ns", ps / 1000);
	else
		snprintf(buf, len, "%.3f ns", (double)ps / 1000);
	return buf;
}

int noise_capture_write(const noise_capture *cap, const char *dir,
			char *err, size_t errlen)
{
	char date[64];
	struct tm tm;

	gmtime_r(&cap->date, &tm);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (uint32_t i = 0; i < cap->ncores; i++) {
		const noise_capture_core *c = &cap->cores[i];
		char path[4096], a[32], b[32], r[32], bl[32];
		snprintf(path, sizeof path, "%s/core%" PRIu32, dir, c->core);
		FILE *f = fopen(path, "w");
		if (!f)
			return sib_errf(err, errlen, "%s: cannot create: %s",
					 path, strerror(errno));
		fprintf(f, "# Sibyl noise capture (selfish detour loop)\n"
			"# host: %s\n# date: %s\n"
			"# core: %" PRIu32 " (hwloc PU L#%" PRIu32 ", P#%"
			PRIu32 ", %s)\n"
			"# clock: CLOCK_MONOTONIC, resolution %s\n"
			"# loop: minimum iteration %s on this core\n"
			"# threshold: %s (a gap between two clock reads "
			"longer than this is a detour;\n"
			"#   its duration is the gap minus the minimum "
			"iteration)\n"
			"# blind: %s (buffer growth, not measured)\n"
			"# detours: %" PRIu64 "\n"
			"unit ns\nlength %" PRId64 "ns\n",
			cap->host, date, c->core, c->core, c->os_index,
			c->bound ? "bound" : "NOT bound",
			noise_fmt_ns(r, sizeof r, cap->clock_res_ps),
			noise_fmt_ns(a, sizeof a, c->loop_min_ps),
			noise_fmt_ns(b, sizeof b, cap->threshold_ps),
			noise_fmt_ns(bl, sizeof bl, c->blind_ps),
			c->ndetours, cap->duration_ps / 1000);
		for (uint64_t k = 0; k < c->ndetours; k++)
			fprintf(f, "%" PRId64 " %" PRId64 "\n",
				c->start_ps[k] / 1000,
				c->duration_ps[k] / 1000);
		if (ferror(f) | fclose(f))
			return sib_errf(err, errlen, "%s: write error: %s",
					 path, strerror(errno));
	}
	return 0;
}
