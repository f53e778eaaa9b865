/*
 * regions.h -- per code region statistics of a trace's SEBs (format 1.1):
 * counts, durations and their exact quantiles, and the corrections the
 * emulator made for host interference.  Shared by `sibyl trace stats
 * --regions' and the summary of `sibyl emulate'.
 *
 * Feed every SEB to rg_add(), call rg_finish() once, then read the table.
 *
 * Quantiles are nearest-rank: the p-quantile of n durations is the
 * ceil(p*n)-th smallest (the median is the (n+1)/2-th, rounded down).
 * They are exact while the durations of at most `exact_limit' SEBs have
 * been kept (8 bytes each, up to 16 while the arrays double); past that, every region switches to a
 * histogram with 128 buckets per power of two (values below 128 ps are
 * counted exactly), and a quantile is the middle of its bucket, clamped
 * to the region's min and max: within 1/256 (0.4%) of the exact value.
 */
#ifndef SIBYL_REGIONS_H
#define SIBYL_REGIONS_H

#include <stdint.h>

#include "sibyl_trace.h"

/* The default of rg_init's exact_limit: 32 Mi SEBs, 256 MiB. */
#define RG_EXACT_DEFAULT (UINT64_C(1) << 25)

enum { RG_P10, RG_P50, RG_P90, RG_P99, RG_NQ };

typedef struct rg_stat {
	char *region;           /* "" for the SEBs without a region */
	uint64_t count;
	unsigned __int128 total;    /* sum of durations, ps */
	unsigned __int128 measured; /* sum of raw durations (the duration
				       when not corrected) */
	uint64_t min, max;
	uint64_t ncorr;             /* SEBs corrected */
	__int128 corr_time;         /* sum of raw_duration - duration */
	uint64_t q[RG_NQ];          /* after rg_finish */
	/* durations: exact values, or histogram blocks */
	uint64_t *v;
	uint64_t nv, capv;
	uint64_t **oct;
} rg_stat;

typedef struct rg_table {
	rg_stat *r;                 /* the regions, in order of appearance */
	uint32_t n, cap;
	uint32_t *slot;             /* hash of region strings: index + 1 */
	uint32_t nslot;
	struct { const char *p; uint32_t i; } cache[256];
	int keep;                   /* collect durations for quantiles */
	int hist;                   /* durations went to histograms */
	uint64_t exact_limit, kept;
	/* totals over every SEB */
	uint64_t sebs, with_region;
	unsigned __int128 measured, total;
	uint64_t corr_sebs[SIBT_CORR_MAX + 1];  /* [0]: all reasons */
	__int128 corr_time[SIBT_CORR_MAX + 1];
} rg_table;

/* keep: collect durations (quantiles); exact_limit as above. */
void rg_init(rg_table *t, int keep, uint64_t exact_limit);
/* 0, or -1 out of memory. */
int rg_add(rg_table *t, const sibt_seb *s);
/* Quantiles (when keep); 0 or -1 out of memory. */
int rg_finish(rg_table *t);
void rg_free(rg_table *t);

/* Sort keys of rg_sorted. */
typedef enum rg_key {
	RG_BY_TOTAL, RG_BY_COUNT, RG_BY_MEDIAN, RG_BY_P10, RG_BY_P90,
	RG_BY_P99, RG_BY_MAX, RG_BY_CORRECTED, RG_BY_NAME
} rg_key;
/* The key named `name' (total, count, median, p10, p90, p99, max,
 * corrected, name), or -1. */
int rg_key_parse(const char *name);
/* The name of a key ("total"). */
const char *rg_key_name(rg_key key);
/* The names of the keys, for messages: "total, count, ...". */
extern const char rg_key_names[];
/* The regions sorted by key (largest first; by name A to Z), ties by
 * total, then name; the caller frees the array.  NULL when empty or out
 * of memory. */
rg_stat **rg_sorted(const rg_table *t, rg_key key);

/* "1,234 SEBs corrected (12.300 ms of 1.200 s measured)" into buf. */
char *rg_corrected_summary(char *buf, size_t len, const rg_table *t);
/* "off-cpu 1,000 (10.000 ms), outlier 234 (2.300 ms)" into buf: the
 * reasons with at least one SEB. */
char *rg_corrected_reasons(char *buf, size_t len, const rg_table *t);
/* A signed sum of picoseconds, as tool_fmt_time does. */
char *rg_fmt_ps(char *buf, size_t len, __int128 ps);

#endif
