/*
 * regions.c -- per code region statistics of a trace's SEBs (regions.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regions.h"
#include "tools.h"

typedef unsigned __int128 u128;

#define SUB_BITS 7                   /* 128 buckets per power of two */
#define SUB (1u << SUB_BITS)
#define NOCT (64 - SUB_BITS + 1)     /* block 0: the values 0..127 */

/* ------------------------------------------------------------ histogram */

static void bucket_of(uint64_t v, unsigned *blk, unsigned *sub)
{
	unsigned e;

	if (v < SUB) {
		*blk = 0;
		*sub = (unsigned)v;
		return;
	}
	e = 63 - (unsigned)__builtin_clzll(v);          /* >= SUB_BITS */
	*blk = e - SUB_BITS + 1;
	*sub = (unsigned)(v >> (e - SUB_BITS)) & (SUB - 1);
}

/* The smallest value of a bucket, and its width. */
static void bucket_range(unsigned blk, unsigned sub, uint64_t *lo,
			 uint64_t *width)
{
	unsigned e;

	if (blk == 0) {
		*lo = sub;
		*width = 1;
		return;
	}
	e = blk + SUB_BITS - 1;
	*width = UINT64_C(1) << (e - SUB_BITS);
	*lo = ((uint64_t)(SUB + sub)) << (e - SUB_BITS);
}

static int hist_add(rg_stat *r, uint64_t v)
{
	unsigned blk, sub;

	if (!r->oct && !(r->oct = calloc(NOCT, sizeof(*r->oct))))
		return -1;
	bucket_of(v, &blk, &sub);
	if (!r->oct[blk] && !(r->oct[blk] = calloc(SUB, sizeof(uint64_t))))
		return -1;
	r->oct[blk][sub]++;
	return 0;
}

/* Every region's kept durations into its histogram. */
static int to_histograms(rg_table *t)
{
	uint32_t i;
	uint64_t j;

	for (i = 0; i < t->n; i++) {
		rg_stat *r = &t->r[i];

		for (j = 0; j < r->nv; j++)
			if (hist_add(r, r->v[j]) < 0)
				return -1;
		free(r->v);
		r->v = NULL;
		r->nv = r->capv = 0;
	}
	t->hist = 1;
	t->kept = 0;
	return 0;
}

/* ---------------------------------------------------------------- table */

void rg_init(rg_table *t, int keep, uint64_t exact_limit)
{
	memset(t, 0, sizeof(*t));
	t->keep = keep;
	t->exact_limit = exact_limit;
	t->hist = keep && exact_limit == 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static int grow_slots(rg_table *t)
{
	uint32_t ncap = t->nslot ? t->nslot * 2 : 64, i;
	uint32_t *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < t->n; i++) {
		uint32_t j = (uint32_t)hash_str(t->r[i].region) & (ncap - 1);

		while (ns[j])
			j = (j + 1) & (ncap - 1);
		ns[j] = i + 1;
	}
	free(t->slot);
	t->slot = ns;
	t->nslot = ncap;
	return 0;
}

/* The region named s (created when new), or NULL out of memory. */
static rg_stat *lookup(rg_table *t, const char *s)
{
	uint32_t j;

	if (2 * ((uint64_t)t->n + 1) > t->nslot && grow_slots(t) < 0)
		return NULL;
	j = (uint32_t)hash_str(s) & (t->nslot - 1);
	while (t->slot[j]) {
		rg_stat *r = &t->r[t->slot[j] - 1];

		if (strcmp(r->region, s) == 0)
			return r;
		j = (j + 1) & (t->nslot - 1);
	}
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 16;
		rg_stat *nr;

		if (cap < t->cap || !(nr = realloc(t->r, cap * sizeof(*nr))))
			return NULL;
		t->r = nr;
		t->cap = cap;
	}
	rg_stat *r = &t->r[t->n];
	memset(r, 0, sizeof(*r));
	if (!(r->region = strdup(s)))
		return NULL;
	t->slot[j] = ++t->n;
	return r;
}

int rg_add(rg_table *t, const sibt_seb *s)
{
	const char *reg = s->region ? s->region : "";
	uint64_t dur = s->duration > 0 ? (uint64_t)s->duration : 0;
	uint64_t raw = dur;
	unsigned c = (unsigned)(((uintptr_t)reg >> 4) & 255);
	rg_stat *r;

	/* Region strings belong to the trace: the same pointer is the same
	 * region for as long as the trace is open. */
	if (t->cache[c].p == reg) {
		r = &t->r[t->cache[c].i];
	} else {
		if (!(r = lookup(t, reg)))
			return -1;
		t->cache[c].p = reg;
		t->cache[c].i = (uint32_t)(r - t->r);
	}
	if (s->corrected)
		raw = s->raw_duration > 0 ? (uint64_t)s->raw_duration : 0;

	t->sebs++;
	if (*reg)
		t->with_region++;
	t->total += dur;
	t->measured += raw;
	if (r->count == 0 || dur < r->min)
		r->min = dur;
	if (r->count == 0 || dur > r->max)
		r->max = dur;
	r->count++;
	r->total += dur;
	r->measured += raw;
	if (s->corrected) {
		__int128 d = (__int128)raw - (__int128)dur;
		unsigned why = s->corrected <= SIBT_CORR_MAX ? s->corrected
							     : 0;

		r->ncorr++;
		r->corr_time += d;
		t->corr_sebs[0]++;
		t->corr_time[0] += d;
		if (why) {
			t->corr_sebs[why]++;
			t->corr_time[why] += d;
		}
	}
	if (!t->keep)
		return 0;
	if (t->hist)
		return hist_add(r, dur);
	if (t->kept >= t->exact_limit) {
		if (to_histograms(t) < 0)
			return -1;
		return hist_add(r, dur);
	}
	if (r->nv == r->capv) {
		uint64_t cap = r->capv ? r->capv * 2 : 16;
		uint64_t *nv = realloc(r->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		r->v = nv;
		r->capv = cap;
	}
	r->v[r->nv++] = dur;
	t->kept++;
	return 0;
}

/* The rank (1..n) of quantile k/100 by the nearest-rank rule. */
static uint64_t q_rank(uint64_t n, unsigned pct)
{
	u128 r = ((u128)n * pct + 99) / 100;

	return r < 1 ? 1 : (uint64_t)r;
}

static const unsigned q_pct[RG_NQ] = { 10, 50, 90, 99 };

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void hist_quantiles(rg_stat *r)
{
	unsigned blk, sub, k = 0;
	uint64_t cum = 0;

	for (blk = 0; blk < NOCT && k < RG_NQ; blk++) {
		if (!r->oct[blk])
			continue;
		for (sub = 0; sub < SUB && k < RG_NQ; sub++) {
			uint64_t lo, w, v;

			cum += r->oct[blk][sub];
			while (k < RG_NQ && cum >= q_rank(r->count, q_pct[k])) {
				uint64_t rank = q_rank(r->count, q_pct[k]);

				bucket_range(blk, sub, &lo, &w);
				/* The smallest and largest are known. */
				v = rank == 1 ? r->min : rank == r->count ?
				    r->max : lo + w / 2;
				if (v < r->min)
					v = r->min;
				if (v > r->max)
					v = r->max;
				r->q[k++] = v;
			}
		}
	}
}

int rg_finish(rg_table *t)
{
	uint32_t i;
	unsigned k;

	if (!t->keep)
		return 0;
	for (i = 0; i < t->n; i++) {
		rg_stat *r = &t->r[i];

		if (!r->count)
			continue;
		if (t->hist) {
			if (!r->oct)
				return -1;
			hist_quantiles(r);
			continue;
		}
		qsort(r->v, r->nv, sizeof(*r->v), u64_cmp);
		for (k = 0; k < RG_NQ; k++)
			r->q[k] = r->v[q_rank(r->nv, q_pct[k]) - 1];
		free(r->v);
		r->v = NULL;
		r->nv = r->capv = 0;
	}
	return 0;
}

void rg_free(rg_table *t)
{
	uint32_t i;
	unsigned b;

	for (i = 0; i < t->n; i++) {
		free(t->r[i].region);
		free(t->r[i].v);
		if (t->r[i].oct) {
			for (b = 0; b < NOCT; b++)
				free(t->r[i].oct[b]);
			free(t->r[i].oct);
		}
	}
	free(t->r);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* -------------------------------------------------------------- sorting */

static const char *const key_name[] = {
	"total", "count", "median", "p10", "p90", "p99", "max", "corrected",
	"name"
};
const char rg_key_names[] =
	"total, count, median, p10, p90, p99, max, corrected, name";

const char *rg_key_name(rg_key key)
{
	return (unsigned)key < sizeof(key_name) / sizeof(key_name[0]) ?
	       key_name[key] : "?";
}

int rg_key_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(key_name) / sizeof(key_name[0]); i++)
		if (strcmp(name, key_name[i]) == 0)
			return (int)i;
	return -1;
}

static rg_key sort_key;

#define CMP_DESC(a, b) do { if ((a) != (b)) return (a) > (b) ? -1 : 1; } \
	while (0)

static int stat_cmp(const void *a, const void *b)
{
	const rg_stat *x = *(const rg_stat *const *)a;
	const rg_stat *y = *(const rg_stat *const *)b;

	switch (sort_key) {
	case RG_BY_COUNT:
		CMP_DESC(x->count, y->count);
		break;
	case RG_BY_MEDIAN:
		CMP_DESC(x->q[RG_P50], y->q[RG_P50]);
		break;
	case RG_BY_P10:
		CMP_DESC(x->q[RG_P10], y->q[RG_P10]);
		break;
	case RG_BY_P90:
		CMP_DESC(x->q[RG_P90], y->q[RG_P90]);
		break;
	case RG_BY_P99:
		CMP_DESC(x->q[RG_P99], y->q[RG_P99]);
		break;
	case RG_BY_MAX:
		CMP_DESC(x->max, y->max);
		break;
	case RG_BY_CORRECTED:
		CMP_DESC(x->corr_time, y->corr_time);
		CMP_DESC(x->ncorr, y->ncorr);
		break;
	case RG_BY_NAME:
		return strcmp(x->region, y->region);
	default:
		break;
	}
	CMP_DESC(x->total, y->total);
	return strcmp(x->region, y->region);
}

rg_stat **rg_sorted(const rg_table *t, rg_key key)
{
	rg_stat **v;
	uint32_t i;

	if (!t->n || !(v = malloc(t->n * sizeof(*v))))
		return NULL;
	for (i = 0; i < t->n; i++)
		v[i] = &t->r[i];
	sort_key = key;
	qsort(v, t->n, sizeof(*v), stat_cmp);
	return v;
}

/* ----------------------------------------------------------- formatting */

char *rg_fmt_ps(char *buf, size_t len, __int128 ps)
{
	double d = (double)ps;

	if (d > -9.0e18 && d < 9.0e18)
		return tool_fmt_time(buf, len, (sibt_time)ps);
	snprintf(buf, len, "%.3f s", d / 1e12);
	return buf;
}

char *rg_corrected_summary(char *buf, size_t len, const rg_table *t)
{
	char n[32], c[48], m[48];

	snprintf(buf, len, "%s SEB%s corrected (%s of %s measured)",
		 tool_fmt_count(n, sizeof(n), t->corr_sebs[0]),
		 t->corr_sebs[0] == 1 ? "" : "s",
		 rg_fmt_ps(c, sizeof(c), t->corr_time[0]),
		 rg_fmt_ps(m, sizeof(m), (__int128)t->measured));
	return buf;
}

char *rg_corrected_reasons(char *buf, size_t len, const rg_table *t)
{
	size_t o = 0;
	unsigned k;

	buf[0] = '\0';
	for (k = 1; k <= SIBT_CORR_MAX; k++) {
		char n[32], c[48];
		int w;

		if (!t->corr_sebs[k])
			continue;
		w = snprintf(buf + o, len - o, "%s%s %s (%s)", o ? ", " : "",
			     sibt_corr_name(k),
			     tool_fmt_count(n, sizeof(n), t->corr_sebs[k]),
			     rg_fmt_ps(c, sizeof(c), t->corr_time[k]));
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
	return buf;
}
