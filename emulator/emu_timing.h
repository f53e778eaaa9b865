/*
 * emu_timing.h -- the state of timing.c, the measurement and correction
 * of compute (its calls are in emu_private.h): the process's code
 * regions and their histograms, the last clock readings, the heap
 * reserve.  Here so that it is part of the process state (emu.timing);
 * only timing.c reads or writes it.
 */
#ifndef SIBYL_EMU_TIMING_H
#define SIBYL_EMU_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* Bins of a histogram (timing.c: 1 + 32 bins per octave over 40). */
#define EMU_TIMING_NBINS (1 + 32 * 40)

/* Per bin: every sample, those without evidence of disturbance, and
 * those of them that began warm (no gap, no context switch).  Side by
 * side, so that a sample touches one cache line. */
struct emu_hbin {
	uint32_t c[3];
};

struct emu_region;
struct Dwfl;

/* The regions, their names and the process's own histograms. */
struct emu_timing_regions {
	struct emu_region **tab;
	size_t cap, n;
	int full_warned;
	/* site -> name cache */
	struct emu_timing_site {
		const void *a;
		char *name;
	} *sites;
	size_t scap, sn;
	int64_t cpu_read_ns;    /* cost of one CPU-clock read */
	int64_t fault_ns;       /* CPU time of one page fault */
	int64_t stamp_ns;       /* what a span with nothing in it measures:
	                           the clock reads and the calls around
	                           them, taken off every span */
	uint64_t judged;        /* regions judged (emu_region_judged) */
	/* The gaps between a rank's SEBs (emu_timing_resume). */
	struct emu_hbin gap_hist[EMU_TIMING_NBINS];
	uint64_t ngap;
	int64_t gap_thr;        /* ns: a longer gap marks EMU_EV_GAP */
	/* --cpu-factor 0: nothing measured reaches the trace, so the
	 * corrected timing reads the wall clock only (for the summary's
	 * measured total), neither the CPU clock nor the fault counts. */
	int wall_only;
	struct Dwfl *dwfl;      /* with libdw: call sites' names */
	int dwfl_failed;
	/* SIBYL_TEST_INTERFERE */
	struct emu_timing_spin {
		int32_t rank;
		uint64_t seb;
		int64_t ns;
		int64_t wait_ns;        /* before the SEB, in the runtime */
	} *spins;
	size_t nspins;
};

/* The heap reserve (timing.c, "The heap"). */
struct emu_timing_heap {
	void *guard;            /* the block kept behind the reserve */
	char *mark;             /* the heap is populated up to here */
	int populate;           /* MADV_POPULATE_WRITE works */
};

/* The last readings of the clocks. */
struct emu_timing_clock {
	int64_t wall, cpu, faults;      /* the last reading */
	int64_t switches;               /* context switches at that reading */
	int64_t switches_seen;          /* ... charged to an SEB so far */
	int64_t event;                  /* wall time of the last stamp */
	int valid;
	uint64_t readings, spans;       /* for SIBYL_TIMING_DEBUG */
};

/* timing.c: emu.timing. */
typedef struct emu_timing_state {
	struct emu_timing_regions regions;
	struct emu_timing_heap heap;
	struct emu_timing_clock clock;
	char *debuginfo_path;   /* libdw's Dwfl_Callbacks point at it */
} emu_timing_state;

#endif /* SIBYL_EMU_TIMING_H */
