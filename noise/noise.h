/*
 * noise.h -- OS noise for the Sibyl simulator: noise sets (a directory of
 * per-core noise descriptions), the sources behind them (periodic patterns,
 * captured detour lists) and the injector the simulator asks "how long do
 * detours steal from this core between t0 and t1".
 *
 * A noise set is loaded once (noise_set_load), validated completely (a set
 * never half-loads: every error names FILE:LINE and what to do), and then
 * instantiated for one run (noise_inj_new) with a seed, a scale and the
 * co-scheduling choice.  The file format is described in noise/README.md
 * and docs/noise.md.
 *
 * Conventions
 *   - Every exported name starts with "noise_" (types) / "NOISE_" (macros).
 *   - Time is a signed 64-bit number of picoseconds (sib_ps), the same
 *     representation as sib_ps; no floating point in time arithmetic.
 *   - A detour "starts in [t0, t1)" when its start time s has t0 <= s < t1;
 *     amounts are the sum of the (scaled) durations of those detours.
 */
#ifndef SIBYL_NOISE_H
#define SIBYL_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "sib_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Times are sib_ps: picoseconds (base/sib_time.h). */

/* ------------------------------------------------------- noise sets */

/* The kind of noise on one core of a set. */
enum {
	NOISE_NONE = 0,     /* no file / no lines: the core is noiseless */
	NOISE_PATTERN = 1,  /* periodic patterns (period, amplitude, offset) */
	NOISE_CAPTURED = 2  /* a captured list of (start, duration) detours */
};

typedef struct noise_set noise_set;

/* Limits of a set: lines of at most NOISE_MAX_LINE bytes (in regular
 * files without NUL bytes), at most NOISE_MAX_DETOURS detours and
 * patterns in all its files, at most NOISE_MAX_PATTERNS patterns on one
 * core (each costs every query of the simulator). */
#define NOISE_MAX_LINE 4096
#define NOISE_MAX_DETOURS (1UL << 24)
#define NOISE_MAX_PATTERNS 1024

/* Load and validate the noise set in directory `dir'.  Returns 0 and a
 * set the caller frees with noise_set_free, or -1 with *out = NULL and a
 * message "FILE:LINE: what is wrong; what to do" (or "FILE: ..." for
 * whole-file problems) in err. */
int noise_set_load(noise_set **out, const char *dir, char *err, size_t errlen);

/* One file of a noise set held in memory: its name in the set (core0,
 * cores, README, ...) and its size bytes. */
typedef struct noise_file {
	const char *name;
	const void *data;
	size_t size;
} noise_file;

/* The same load from n files in memory, under the same rules and limits
 * as a directory's (names are checked as file names; two files of one
 * name are an error); messages name a file "dir/NAME".  For programs
 * that build a set without writing it, and for the fuzz target. */
int noise_set_load_files(noise_set **out, const char *dir,
			 const noise_file *files, size_t n, char *err,
			 size_t errlen);
void noise_set_free(noise_set *s);

/* The highest core index that has a file (or lines in `cores') + 1; 0 if
 * the set describes no core. */
uint32_t noise_set_ncores(const noise_set *s);

/* NOISE_NONE, NOISE_PATTERN or NOISE_CAPTURED for core `core' (any index;
 * cores beyond noise_set_ncores are NOISE_NONE). */
int noise_set_kind(const noise_set *s, uint32_t core);

/* Statistics of one core as written in the set (unscaled):
 *   pattern:  detours_per_s = sum of 1/period; fraction = sum of
 *             amplitude/period; mean_ps = fraction/rate; max_ps = the
 *             largest amplitude; detours = number of patterns; span_ps = 0.
 *   captured: over the capture length (span_ps = length): detours, rate =
 *             detours/length, mean_ps and max_ps of the durations,
 *             fraction = sum of durations/length.
 *   none:     all zero. */
typedef struct noise_core_stats {
	double detours_per_s, mean_ps, max_ps, fraction;
	uint64_t detours;
	int64_t span_ps;
} noise_core_stats;

void noise_set_core_stats(const noise_set *s, uint32_t core,
			  noise_core_stats *out);

/* ---------------------------------------------------------- sources */

/*
 * A source is the noise of one core of a set, behind a const table of
 * functions (one table per kind: noise_pattern_ops, noise_captured_ops).
 * The instance (noise_src) holds the source's data already scaled for a
 * run; the ops never allocate on the hot path.
 */
typedef struct noise_src noise_src;

typedef struct noise_ops {
	const char *name; /* "pattern", "captured" */
	/* Sum of the durations of the detours of core `core' of node `node'
	 * that start in [t0, t1) (0 <= t0 <= t1). */
	sib_ps (*amount)(const noise_src *src, uint32_t node,
			     uint32_t core, sib_ps t0, sib_ps t1);
	/* The earliest start >= t of a detour of (node, core) with a
	 * nonzero duration or not (INT64_MAX when there is none). */
	sib_ps (*next)(const noise_src *src, uint32_t node, uint32_t core,
			   sib_ps t);
	/* Long-run fraction of time the detours take, as num/den. */
	void (*fraction)(const noise_src *src, uint64_t *num, uint64_t *den);
	void (*free)(noise_src *src);
} noise_ops;

extern const noise_ops noise_pattern_ops;
extern const noise_ops noise_captured_ops;

/* --------------------------------------------------------- injector */

/* How a set is applied to one run. */
typedef struct noise_params {
	uint64_t seed;            /* captured noise: per-node offsets */
	int64_t scale_num;        /* durations are multiplied by num/den */
	int64_t scale_den;        /* (den > 0; num >= 0; 0/1 = noise off) */
	int cosched;              /* captured: every node uses node 0's offset */
} noise_params;

typedef struct noise_inj noise_inj;

/* Instantiate `set' for a run.  The injector does not keep `set'.
 * Fails (-1, message in err) when scaled noise would take 100% or more of
 * a core's time (the fixed point below would never converge). */
int noise_inj_new(noise_inj **out, const noise_set *set,
		  const noise_params *p, char *err, size_t errlen);
void noise_inj_free(noise_inj *inj);

/* Nonzero when the injector can delay anything (some core has noise and
 * the scale is not 0). */
int noise_inj_active(const noise_inj *inj);

/* Sum of the scaled durations of detours on (node, core) starting in
 * [t0, t1).  Cores without noise give 0. */
sib_ps noise_amount(const noise_inj *inj, uint32_t node, uint32_t core,
			sib_ps t0, sib_ps t1);

/* The least fixed point t = s + d + noise_amount(s, t), d >= 0: the end
 * of d picoseconds of work started at s, extended by the detours that
 * start inside it (including those the extension itself reaches).  With
 * d = 0 the result is s.  Returns 0 and *end, or -1 (message in err) if
 * the iteration does not settle within NOISE_MAX_ITER steps or overflows
 * the time range. */
#define NOISE_MAX_ITER 1000000
int noise_extend(const noise_inj *inj, uint32_t node, uint32_t core,
		 sib_ps s, sib_ps d, sib_ps *end,
		 char *err, size_t errlen);

/*
 * The same fixed points for several works started at one time s (an SEB
 * and the messages it sends), sharing what they have counted: a cursor
 * remembers the detours accounted for up to some time and the next
 * detour start after it, so a work that ends before that next start
 * costs one comparison.  noise_cursor_init positions a cursor at s on
 * (node, core); noise_cursor_at gives the fixed point for duration d
 * (cheapest for non-decreasing d; a smaller d restarts from s) with the
 * errors of noise_extend.  A cursor is a plain value: copies are
 * independent.
 */
typedef struct noise_cursor {
	const noise_ops *ops;     /* NULL: the core has no noise */
	const noise_src *src;
	uint32_t node, core;
	sib_ps s, pos, acc, next, lastd;
} noise_cursor;

void noise_cursor_init(const noise_inj *inj, uint32_t node, uint32_t core,
		       sib_ps s, noise_cursor *c);
int noise_cursor_at(noise_cursor *c, sib_ps d, sib_ps *t, char *err,
		    size_t errlen);

/* The splitmix64 step used for captured offsets (exported for tests). */
uint64_t noise_splitmix64(uint64_t x);

/* The offset in [0, length) of node `node', core `core' under `seed'. */
sib_ps noise_captured_offset(uint64_t seed, uint32_t node, uint32_t core,
				 sib_ps length);

/* ------------------------------------------- for the sources (internal) */

/* Constructors of the two sources, used by noise_inj_new.  Durations are
 * scaled by num/den (rounded to nearest) as the source is built; the
 * arrays are copied. */
noise_src *noise_pattern_new(const sib_ps *period, const sib_ps *amp,
			     const sib_ps *off, size_t n, int64_t num,
			     int64_t den);
noise_src *noise_captured_new(const sib_ps *start, const sib_ps *dur,
			      size_t n, sib_ps length, uint64_t seed,
			      int cosched, int64_t num, int64_t den);
/* d * num / den rounded to nearest (halves up), saturating. */
sib_ps noise_scale_time(sib_ps d, int64_t num, int64_t den);

/* ------------------------------------ capturing noise (capture.c) */

/*
 * Measure the OS noise of this host with a selfish-detour loop: one
 * thread per selected core (hwloc PU, logical index), all at once, each
 * bound to its PU, reading CLOCK_MONOTONIC in a tight loop; a gap longer
 * than the threshold is a detour.  docs/noise-capture.md has the method.
 */
#include <signal.h>
#include <time.h>

#define NOISE_CAPTURE_MAX_DURATION_PS (3600 * SIB_PS_PER_S)

typedef struct noise_capture_opts {
	sib_ps duration_ps;   /* 1 us .. 1 hour */
	sib_ps threshold_ps;  /* 0: max(1 us, 10 x loop minimum) */
	const uint32_t *cores;    /* PU logical indexes to measure */
	uint32_t ncores;
	/* Optional: the capture stops (and fails) when *stop becomes
	 * nonzero, e.g. from a SIGINT handler. */
	const volatile sig_atomic_t *stop;
	/* Optional: called about once a second with the fraction done. */
	void (*progress)(void *arg, double fraction);
	void *progress_arg;
} noise_capture_opts;

/* One measured core; times in ps, whole nanoseconds. */
typedef struct noise_capture_core {
	uint32_t core;            /* PU logical index: the file coreN */
	uint32_t os_index;        /* the OS's number of the PU */
	int bound;                /* hwloc binding succeeded */
	int bind_errno;           /* why not, if not */
	sib_ps loop_min_ps;   /* minimum loop iteration on this core */
	sib_ps blind_ps;      /* time not measured (buffer growth) */
	uint64_t ndetours;
	sib_ps *start_ps;     /* from the capture start, sorted */
	sib_ps *duration_ps;  /* > 0, non-overlapping */
} noise_capture_core;

typedef struct noise_capture {
	uint32_t ncores;
	noise_capture_core *cores;
	sib_ps duration_ps;   /* the capture length */
	sib_ps threshold_ps;  /* as used */
	sib_ps loop_min_ps;   /* the largest loop minimum of the cores */
	sib_ps clock_res_ps;
	char host[256];
	time_t date;
	void *shared;             /* internal, NULL after the run */
} noise_capture;

/* The number of PUs of this host (what --cores indexes). */
int noise_capture_host_cores(uint32_t *n, char *err, size_t errlen);
/* Run a capture (blocks for the duration).  0 and *out (free it with
 * noise_capture_free), or -1 with a message in err. */
int noise_capture_run(const noise_capture_opts *o, noise_capture **out,
		      char *err, size_t errlen);
void noise_capture_free(noise_capture *cap);
/* Write DIR/coreN for every measured core (DIR exists) in the noise-set
 * format: a header comment, `unit ns', `length', one detour a line. */
int noise_capture_write(const noise_capture *cap, const char *dir,
			char *err, size_t errlen);
/* ps as "123 ns" (or "123.456 ns") into buf. */
char *noise_fmt_ns(char *buf, size_t len, sib_ps ps);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_NOISE_H */
