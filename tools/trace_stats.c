/*
 * trace_stats.c -- `sibyl trace stats': distributions over every SEB and
 * message of a trace.
 *
 * Reads each window exactly once into one reused sibt_window, so memory
 * stays bounded by the window size plus the table of distinct SEB names
 * and code regions.  Percentiles come from log2 histograms: exact counts,
 * values estimated within their power-of-two bucket.  With --regions, the
 * durations of each region are kept for exact quantiles (regions.h: 8
 * bytes per SEB up to --exact SEBs, then fine histograms).
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "regions.h"
#include "tools.h"

static const char stats_usage[] =
"Usage: sibyl trace stats [--json] [--quiet] [--top N] TRACE\n"
"       sibyl trace stats --regions [--sort KEY] [--top N] [--exact N]\n"
"                         [--json] [--quiet] TRACE\n"
"\n"
"Read every window of the trace TRACE (a trace directory or a bundle) once\n"
"and summarize it: SEB, message, wait, print and marker counts; the SEBs\n"
"whose duration the emulator corrected for host interference; the\n"
"distributions (min, mean, p50, p99, max and a log2 histogram) of SEB\n"
"duration, message size, sends per SEB and waits per SEB; a table of SEB\n"
"names with their count, total and mean duration; the bytes on disk per\n"
"SEB and per message and the compression of the window payload.\n"
"\n"
"p50 and p99 are estimated from the log2 histogram: the exact quantile\n"
"lies in the same power-of-two bucket.\n"
"\n"
"With --regions, summarize the code regions instead (traces of format\n"
"1.1 made by 'sibyl emulate': the call sites where each SEB began and\n"
"ended, 'BEGIN > END'): for each region its SEB count, total, median,\n"
"p10, p90, p99 and max duration, and how many of its SEBs were corrected\n"
"and by how much in all (raw minus corrected duration); and the\n"
"corrections by reason.  The quantiles are exact, by the nearest-rank\n"
"rule (the p-quantile of n durations is the ceil(p*n)-th smallest), as\n"
"long as the trace holds at most --exact SEBs; beyond that they come\n"
"from histograms with 128 buckets per power of two and lie within 0.4%\n"
"of the exact value (the output says which).\n"
"\n"
"Options:\n"
"  --json        print one JSON object instead of the readable summary\n"
"                (times in picoseconds, sizes in bytes)\n"
"  -q, --quiet   no progress bar (it is only drawn when stderr is a\n"
"                terminal)\n"
"  --top N       list the N SEB names (or regions) that come first\n"
"                (default 20; 0 lists every one)\n"
"  --regions     the table of code regions instead of the distributions\n"
"  --sort KEY    order of the regions: total (the default), count,\n"
"                median, p10, p90, p99, max, corrected (corrected time)\n"
"                or name; numbers largest first, names A to Z\n"
"  --exact N     keep the durations of up to N SEBs for exact quantiles\n"
"                (8 bytes each, up to 16 while the arrays grow; default\n"
"                32Mi; 0 always uses histograms)\n"
"  -h, --help    print this help and exit\n"
"\n"
"Exit status:\n"
"  0  every window was read\n"
"  1  the trace is damaged or some windows could not be read: each one is\n"
"     reported (file, PE, window, reason) and the rest is summarized\n"
"  2  usage error, or TRACE could not be opened\n";

#define NBUCKETS 65	/* 0: the value 0; k >= 1: [2^(k-1), 2^k) */
#define MAX_REPORTED 20	/* read failures printed one by one */
#define MAX_KEPT 100	/* read failures kept for --json */

typedef unsigned __int128 u128;

struct dist {
	uint64_t n, min, max;
	u128 sum;
	uint64_t hist[NBUCKETS];
};

struct name_stat {
	char *name;
	uint64_t count;
	u128 total;	/* ps */
};

struct name_table {
	struct name_stat *slot;	/* open addressing; name NULL = empty */
	size_t cap, used;
};

struct failure {
	uint32_t pe;
	uint64_t window;
	char *file;
	char *msg;
};

struct stats {
	sibt_trace *t;
	uint64_t sebs, sends, waits, prints, print_bytes, explicit_preds;
	u128 message_bytes;
	uint64_t markers[5];	/* by kind 1..4; 0: unknown kind */
	struct dist duration, msg_size, sends_per_seb, waits_per_seb;
	struct name_table names;
	rg_table regions;
	uint64_t windows_read, windows_failed;
	struct failure fail[MAX_KEPT];
	size_t nfail;
};

/* ----------------------------------------------------------- distribution */

static unsigned bucket_of(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static void dist_add(struct dist *d, uint64_t v)
{
	if (d->n == 0 || v < d->min)
		d->min = v;
	if (d->n == 0 || v > d->max)
		d->max = v;
	d->n++;
	d->sum += v;
	d->hist[bucket_of(v)]++;
}

static double dist_mean(const struct dist *d)
{
	return d->n ? (double)d->sum / (double)d->n : 0;
}

/* Quantile q (0..1) by interpolation inside its log2 bucket. */
static double dist_quantile(const struct dist *d, double q)
{
	uint64_t rank, cum = 0;
	unsigned k;

	if (d->n == 0)
		return 0;
	rank = (uint64_t)(q * (double)d->n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > d->n)
		rank = d->n;
	for (k = 0; k < NBUCKETS; k++) {
		double lo, hi, v;

		if (cum + d->hist[k] < rank) {
			cum += d->hist[k];
			continue;
		}
		if (k == 0)
			return 0;
		lo = (double)((u128)1 << (k - 1));
		hi = (double)((u128)1 << k);
		v = lo + (hi - lo) * ((double)(rank - cum) - 0.5) /
		    (double)d->hist[k];
		if (v < (double)d->min)
			v = (double)d->min;
		if (v > (double)d->max)
			v = (double)d->max;
		return v;
	}
	return (double)d->max;
}

/* ------------------------------------------------------------ name table */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

static int names_grow(struct name_table *nt)
{
	size_t ncap = nt->cap ? nt->cap * 2 : 64, i;
	struct name_stat *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < nt->cap; i++) {
		size_t j;

		if (!nt->slot[i].name)
			continue;
		j = hash_str(nt->slot[i].name) & (ncap - 1);
		while (ns[j].name)
			j = (j + 1) & (ncap - 1);
		ns[j] = nt->slot[i];
	}
	free(nt->slot);
	nt->slot = ns;
	nt->cap = ncap;
	return 0;
}

static struct name_stat *names_get(struct name_table *nt, const char *name)
{
	size_t j;

	if (2 * (nt->used + 1) > nt->cap && names_grow(nt) < 0)
		return NULL;
	j = hash_str(name) & (nt->cap - 1);
	while (nt->slot[j].name) {
		if (strcmp(nt->slot[j].name, name) == 0)
			return &nt->slot[j];
		j = (j + 1) & (nt->cap - 1);
	}
	nt->slot[j].name = strdup(name);
	if (!nt->slot[j].name)
		return NULL;
	nt->used++;
	return &nt->slot[j];
}

static void names_free(struct name_table *nt)
{
	size_t i;

	for (i = 0; i < nt->cap; i++)
		free(nt->slot[i].name);
	free(nt->slot);
}

static int name_cmp(const void *a, const void *b)
{
	const struct name_stat *x = *(const struct name_stat *const *)a;
	const struct name_stat *y = *(const struct name_stat *const *)b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The names sorted by total duration, largest first; NULL if none/no mem. */
static struct name_stat **names_sorted(const struct name_table *nt)
{
	struct name_stat **v;
	size_t i, n = 0;

	if (nt->used == 0)
		return NULL;
	v = malloc(nt->used * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < nt->cap; i++)
		if (nt->slot[i].name)
			v[n++] = &nt->slot[i];
	qsort(v, n, sizeof(*v), name_cmp);
	return v;
}

/* ------------------------------------------------------------- gathering */

static int add_seb(struct stats *st, const sibt_seb *s,
		   struct name_stat **last, const char **last_name)
{
	const char *name = s->name ? s->name : "";
	uint64_t dur = s->duration > 0 ? (uint64_t)s->duration : 0;
	uint32_t i;

	st->sebs++;
	dist_add(&st->duration, dur);
	dist_add(&st->sends_per_seb, s->nsends);
	dist_add(&st->waits_per_seb, s->nwaits);
	st->sends += s->nsends;
	st->waits += s->nwaits;
	st->prints += s->nprints;
	if (!s->preds_default)
		st->explicit_preds++;
	for (i = 0; i < s->nsends; i++) {
		dist_add(&st->msg_size, s->sends[i].size);
		st->message_bytes += s->sends[i].size;
	}
	for (i = 0; i < s->nprints; i++)
		st->print_bytes += s->prints[i].len;
	for (i = 0; i < s->nmarkers; i++) {
		uint32_t k = s->markers[i].kind;

		st->markers[k >= 1 && k <= 4 ? k : 0]++;
	}

	/* Names repeat: the same string of the same window is one lookup. */
	if (name != *last_name) {
		*last = names_get(&st->names, name);
		if (!*last) {
			tool_error("out of memory in the table of SEB names");
			return -1;
		}
		*last_name = name;
	}
	(*last)->count++;
	(*last)->total += dur;
	if (rg_add(&st->regions, s) < 0) {
		tool_error("out of memory in the table of code regions");
		return -1;
	}
	return 0;
}

static void window_failed(struct stats *st, uint32_t pe, uint64_t w)
{
	sibt_window_info wi;
	const char *file = "?", *msg = sibt_trace_errmsg(st->t);

	if (sibt_trace_window_info(st->t, pe, w, &wi) == SIBT_OK &&
	    wi.file < sibt_trace_nfiles(st->t))
		file = sibt_trace_file_path(st->t, wi.file);
	if (!msg || !msg[0])
		msg = "unknown error";
	st->windows_failed++;
	/* The library's message names the file, PE and window already. */
	if (st->windows_failed > MAX_REPORTED)
		;
	else if (strstr(msg, file))
		tool_error("%s (its SEBs are not counted)", msg);
	else
		tool_error("%s: PE %" PRIu32 " window %" PRIu64 " cannot be "
			   "read, its SEBs are not counted: %s", file, pe, w,
			   msg);
	if (st->nfail < MAX_KEPT) {
		struct failure *f = &st->fail[st->nfail];

		f->pe = pe;
		f->window = w;
		f->file = strdup(file);
		f->msg = strdup(msg);
		if (f->file && f->msg) {
			st->nfail++;
		} else {
			free(f->file);
			free(f->msg);
		}
	}
}

static int gather(struct stats *st, uint64_t total_windows, int quiet)
{
	sibt_window *win = sibt_window_new();
	uint32_t pe, npes = sibt_trace_npes(st->t);
	uint64_t done = 0;
	tool_progress pr;
	int rc = 0;

	if (!win) {
		tool_error("out of memory");
		return -1;
	}
	tool_progress_begin(&pr, "reading windows", total_windows, quiet);
	for (pe = 0; pe < npes && rc == 0; pe++) {
		uint64_t w, nwin = sibt_trace_nwindows(st->t, pe);

		for (w = 0; w < nwin && rc == 0; w++) {
			struct name_stat *last = NULL;
			const char *last_name = NULL;
			uint32_t i, n;

			tool_progress_update(&pr, done++);
			if (sibt_trace_read_window(st->t, pe, w, win) !=
			    SIBT_OK) {
				tool_progress_end(&pr);
				window_failed(st, pe, w);
				tool_progress_begin(&pr, "reading windows",
					       total_windows, quiet);
				continue;
			}
			st->windows_read++;
			n = sibt_window_nsebs(win);
			for (i = 0; i < n && rc == 0; i++)
				rc = add_seb(st, sibt_window_seb(win, i),
					     &last, &last_name);
		}
	}
	tool_progress_end(&pr);
	if (st->windows_failed > MAX_REPORTED)
		tool_error("%" PRIu64 " more windows cannot be read (not "
			   "listed)", st->windows_failed - MAX_REPORTED);
	sibt_window_free(win);
	return rc;
}

/* -------------------------------------------------------------- printing */

enum unit_kind { U_TIME, U_BYTES, U_COUNT };

/* Picoseconds held in a double, which may exceed sibt_time's range. */
static char *fmt_ps(char *buf, size_t len, double ps)
{
	if (ps < 9.0e18)
		return tool_fmt_time(buf, len, (sibt_time)(ps + 0.5));
	snprintf(buf, len, "%.3f s", ps / 1e12);
	return buf;
}

static char *fmt_unit(char *buf, size_t len, enum unit_kind u, double v)
{
	switch (u) {
	case U_TIME:
		return fmt_ps(buf, len, v);
	case U_BYTES:
		return tool_fmt_bytes(buf, len, v);
	default:
		if (v < 1e15 && v == (double)(uint64_t)v)
			snprintf(buf, len, "%.0f", v);
		else
			snprintf(buf, len, "%.2f", v);
		return buf;
	}
}

static void print_dist_row(const char *label, const struct dist *d,
			   enum unit_kind u)
{
	char b[5][32];

	if (d->n == 0) {
		printf("  %-15s %12s\n", label, "(none)");
		return;
	}
	printf("  %-15s %12s %12s %12s %12s %12s\n", label,
	       fmt_unit(b[0], sizeof(b[0]), u, (double)d->min),
	       fmt_unit(b[1], sizeof(b[1]), u, dist_mean(d)),
	       fmt_unit(b[2], sizeof(b[2]), u, dist_quantile(d, 0.5)),
	       fmt_unit(b[3], sizeof(b[3]), u, dist_quantile(d, 0.99)),
	       fmt_unit(b[4], sizeof(b[4]), u, (double)d->max));
}

static void print_histogram(const char *label, const struct dist *d,
			    enum unit_kind u)
{
	char lo[32], hi[32];
	uint64_t most = 0;
	unsigned k, first = NBUCKETS, last = 0;

	if (d->n == 0)
		return;
	for (k = 0; k < NBUCKETS; k++) {
		if (!d->hist[k])
			continue;
		if (first == NBUCKETS)
			first = k;
		last = k;
		if (d->hist[k] > most)
			most = d->hist[k];
	}
	printf("\n  %s\n", label);
	for (k = first; k <= last; k++) {
		char range[72];
		int bar = (int)((d->hist[k] * 40 + most - 1) / most);
		unsigned e = k;

		/* A run of three or more empty buckets is one line. */
		while (e <= last && !d->hist[e])
			e++;
		if (e - k >= 3) {
			printf("    %-28s %12s\n", "...", "(empty)");
			k = e - 1;
			continue;
		}
		if (k == 0) {
			snprintf(range, sizeof(range), "0");
		} else if (u == U_COUNT) {
			if (k == 1)
				snprintf(range, sizeof(range), "1");
			else
				snprintf(range, sizeof(range), "%" PRIu64 "-%"
					 PRIu64, (uint64_t)1 << (k - 1),
					 (uint64_t)(((u128)1 << k) - 1));
		} else {
			fmt_unit(lo, sizeof(lo), u,
				 (double)((u128)1 << (k - 1)));
			fmt_unit(hi, sizeof(hi), u, (double)((u128)1 << k));
			snprintf(range, sizeof(range), "[%s, %s)", lo, hi);
		}
		printf("    %-28s %12" PRIu64 " %6.2f%%  %.*s\n", range,
		       d->hist[k], 100.0 * (double)d->hist[k] / (double)d->n,
		       d->hist[k] ? (bar ? bar : 1) : 0,
		       "########################################");
	}
}

/* The corrections line: only when there are some, unless `always'. */
static void print_corrections(const rg_table *rg, int always)
{
	char b1[32], b2[48], b3[48], b4[256];

	if (!rg->corr_sebs[0]) {
		if (always)
			printf("corrected        none\n");
		return;
	}
	printf("corrected        %s SEB%s, %s of %s measured: %s\n",
	       tool_fmt_count(b1, sizeof(b1), rg->corr_sebs[0]),
	       rg->corr_sebs[0] == 1 ? "" : "s",
	       rg_fmt_ps(b2, sizeof(b2), rg->corr_time[0]),
	       rg_fmt_ps(b3, sizeof(b3), (__int128)rg->measured),
	       rg_corrected_reasons(b4, sizeof(b4), rg));
}

static void print_human(const char *path, const struct stats *st,
			const sibt_totals *tot, unsigned top)
{
	char b1[32], b2[32], b3[32];
	struct name_stat **names = names_sorted(&st->names);
	size_t i, nshow = st->names.used;

	printf("trace            %s\n", path);
	printf("PEs              %s\n",
	       tool_fmt_count(b1, sizeof(b1), sibt_trace_npes(st->t)));
	printf("windows read     %s", tool_fmt_count(b1, sizeof(b1),
						st->windows_read));
	if (st->windows_failed)
		printf(" (%s could not be read)",
		       tool_fmt_count(b2, sizeof(b2), st->windows_failed));
	printf("\nSEBs             %s (%s with explicit predecessors)\n",
	       tool_fmt_count(b1, sizeof(b1), st->sebs),
	       tool_fmt_count(b2, sizeof(b2), st->explicit_preds));
	printf("messages         %s sent, %s waited for, %s in total\n",
	       tool_fmt_count(b1, sizeof(b1), st->sends),
	       tool_fmt_count(b2, sizeof(b2), st->waits),
	       tool_fmt_bytes(b3, sizeof(b3), (double)st->message_bytes));
	printf("prints           %s (%s of text)\n",
	       tool_fmt_count(b1, sizeof(b1), st->prints),
	       tool_fmt_bytes(b2, sizeof(b2), (double)st->print_bytes));
	printf("markers          skip_start %" PRIu64 ", skip_end %" PRIu64
	       ", iter %" PRIu64 ", user %" PRIu64, st->markers[1],
	       st->markers[2], st->markers[3], st->markers[4]);
	if (st->markers[0])
		printf(", unknown %" PRIu64, st->markers[0]);
	putchar('\n');
	print_corrections(&st->regions, 0);

	printf("\n  %-15s %12s %12s %12s %12s %12s\n", "distribution",
	       "min", "mean", "p50", "p99", "max");
	print_dist_row("SEB duration", &st->duration, U_TIME);
	print_dist_row("message size", &st->msg_size, U_BYTES);
	print_dist_row("sends per SEB", &st->sends_per_seb, U_COUNT);
	print_dist_row("waits per SEB", &st->waits_per_seb, U_COUNT);

	printf("\nstorage\n");
	printf("  data files     %s (%s bytes)\n",
	       tool_fmt_bytes(b1, sizeof(b1), (double)tot->file_bytes),
	       tool_fmt_count(b2, sizeof(b2), tot->file_bytes));
	if (st->sebs)
		printf("  per SEB        %.2f bytes on disk\n",
		       (double)tot->file_bytes / (double)st->sebs);
	if (st->sends)
		printf("  per message    %.2f bytes on disk\n",
		       (double)tot->file_bytes / (double)st->sends);
	printf("  payload        %s raw, %s stored",
	       tool_fmt_bytes(b1, sizeof(b1), (double)tot->raw_bytes),
	       tool_fmt_bytes(b2, sizeof(b2), (double)tot->stored_bytes));
	if (tot->stored_bytes)
		printf(", compression %.2f : 1",
		       (double)tot->raw_bytes / (double)tot->stored_bytes);
	printf("\n  peak memory    %s (resident, this process)\n",
	       tool_fmt_bytes(b1, sizeof(b1), (double)sib_peak_rss()));

	if (top && nshow > top)
		nshow = top;
	printf("\nSEB names by total duration (%zu of %zu)\n", nshow,
	       st->names.used);
	if (names) {
		printf("  %-32s %12s %14s %12s\n", "name", "count", "total",
		       "mean");
		for (i = 0; i < nshow; i++) {
			const struct name_stat *ns = names[i];
			char label[40];

			char *q;

			snprintf(label, sizeof(label), "%s",
				 ns->name[0] ? ns->name : "(unnamed)");
			if (strlen(ns->name) > 32)
				memcpy(label + 29, "...", 4);
			/* Keep the table aligned: no control characters. */
			for (q = label; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					*q = '?';
			printf("  %-32s %12s %14s %12s\n", label,
			       tool_fmt_count(b1, sizeof(b1), ns->count),
			       fmt_ps(b2, sizeof(b2), (double)ns->total),
			       fmt_ps(b3, sizeof(b3), (double)ns->total /
				      (double)ns->count));
		}
	}
	free(names);

	printf("\nhistograms (log2 buckets: count, share)\n");
	print_histogram("SEB duration", &st->duration, U_TIME);
	print_histogram("message size", &st->msg_size, U_BYTES);
	print_histogram("sends per SEB", &st->sends_per_seb, U_COUNT);
	print_histogram("waits per SEB", &st->waits_per_seb, U_COUNT);
}

/* An unsigned 128-bit integer in decimal. */
static void print_u128(u128 v)
{
	char buf[48];
	int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	fputs(buf + i, stdout);
}

static void print_i128(__int128 v)
{
	if (v < 0) {
		putchar('-');
		print_u128((u128)0 - (u128)v);
	} else {
		print_u128((u128)v);
	}
}

static void json_corrections(const rg_table *rg)
{
	unsigned k;

	printf(",\"corrections\":{\"sebs\":%" PRIu64 ",\"time_ps\":",
	       rg->corr_sebs[0]);
	print_i128(rg->corr_time[0]);
	printf(",\"measured_ps\":");
	print_u128(rg->measured);
	printf(",\"by_reason\":{");
	for (k = 1; k <= SIBT_CORR_MAX; k++) {
		printf("%s\"%s\":{\"sebs\":%" PRIu64 ",\"time_ps\":",
		       k > 1 ? "," : "", sibt_corr_name(k), rg->corr_sebs[k]);
		print_i128(rg->corr_time[k]);
		putchar('}');
	}
	printf("}}");
}

static void json_dist(const char *key, const struct dist *d)
{
	unsigned k;
	int first = 1;

	printf(",\"%s\":{\"count\":%" PRIu64, key, d->n);
	if (d->n)
		printf(",\"min\":%" PRIu64 ",\"mean\":%.3f,\"p50\":%.1f,"
		       "\"p99\":%.1f,\"max\":%" PRIu64, d->min, dist_mean(d),
		       dist_quantile(d, 0.5), dist_quantile(d, 0.99), d->max);
	else
		printf(",\"min\":null,\"mean\":null,\"p50\":null,"
		       "\"p99\":null,\"max\":null");
	printf(",\"sum\":");
	print_u128(d->sum);
	printf(",\"histogram\":[");
	for (k = 0; k < NBUCKETS; k++) {
		if (!d->hist[k])
			continue;
		printf("%s{\"lo\":", first ? "" : ",");
		print_u128(k ? (u128)1 << (k - 1) : 0);
		printf(",\"hi\":");
		print_u128((u128)1 << k);
		printf(",\"count\":%" PRIu64 "}", d->hist[k]);
		first = 0;
	}
	printf("]}");
}

static void print_json(const char *path, const struct stats *st,
		       const sibt_totals *tot, unsigned top, int damaged)
{
	struct name_stat **names = names_sorted(&st->names);
	size_t i, nshow = st->names.used;

	printf("{\"path\":");
	tool_json_string(stdout, path, strlen(path));
	printf(",\"npes\":%" PRIu32 ",\"windows_read\":%" PRIu64
	       ",\"windows_failed\":%" PRIu64 ",\"damaged\":%s",
	       sibt_trace_npes(st->t), st->windows_read, st->windows_failed,
	       damaged ? "true" : "false");
	printf(",\"sebs\":%" PRIu64 ",\"explicit_preds_sebs\":%" PRIu64
	       ",\"messages\":%" PRIu64 ",\"waits\":%" PRIu64
	       ",\"message_bytes\":", st->sebs, st->explicit_preds,
	       st->sends, st->waits);
	print_u128(st->message_bytes);
	printf(",\"prints\":%" PRIu64 ",\"print_bytes\":%" PRIu64,
	       st->prints, st->print_bytes);
	printf(",\"markers\":{\"skip_start\":%" PRIu64 ",\"skip_end\":%"
	       PRIu64 ",\"iter\":%" PRIu64 ",\"user\":%" PRIu64
	       ",\"unknown\":%" PRIu64 "}", st->markers[1], st->markers[2],
	       st->markers[3], st->markers[4], st->markers[0]);
	json_corrections(&st->regions);
	json_dist("duration_ps", &st->duration);
	json_dist("message_size", &st->msg_size);
	json_dist("sends_per_seb", &st->sends_per_seb);
	json_dist("waits_per_seb", &st->waits_per_seb);

	printf(",\"storage\":{\"file_bytes\":%" PRIu64 ",\"raw_bytes\":%"
	       PRIu64 ",\"stored_bytes\":%" PRIu64, tot->file_bytes,
	       tot->raw_bytes, tot->stored_bytes);
	if (tot->stored_bytes)
		printf(",\"compression_ratio\":%.4f",
		       (double)tot->raw_bytes / (double)tot->stored_bytes);
	else
		printf(",\"compression_ratio\":null");
	if (st->sebs)
		printf(",\"bytes_per_seb\":%.4f",
		       (double)tot->file_bytes / (double)st->sebs);
	else
		printf(",\"bytes_per_seb\":null");
	if (st->sends)
		printf(",\"bytes_per_message\":%.4f}",
		       (double)tot->file_bytes / (double)st->sends);
	else
		printf(",\"bytes_per_message\":null}");

	if (top && nshow > top)
		nshow = top;
	printf(",\"names_total\":%zu,\"names\":[", st->names.used);
	for (i = 0; names && i < nshow; i++) {
		printf("%s{\"name\":", i ? "," : "");
		tool_json_string(stdout, names[i]->name,
				 strlen(names[i]->name));
		printf(",\"count\":%" PRIu64 ",\"total_ps\":", names[i]->count);
		print_u128(names[i]->total);
		printf(",\"mean_ps\":%.1f}", (double)names[i]->total /
		       (double)names[i]->count);
	}
	free(names);

	printf("],\"failures\":[");
	for (i = 0; i < st->nfail; i++) {
		printf("%s{\"file\":", i ? "," : "");
		tool_json_string(stdout, st->fail[i].file,
				 strlen(st->fail[i].file));
		printf(",\"pe\":%" PRIu32 ",\"window\":%" PRIu64
		       ",\"message\":", st->fail[i].pe, st->fail[i].window);
		tool_json_string(stdout, st->fail[i].msg,
				 strlen(st->fail[i].msg));
		putchar('}');
	}
	printf("],\"peak_rss_bytes\":%" PRIu64 "}\n", sib_peak_rss());
}

/* ---------------------------------------------------------- --regions */

static const char no_regions[] = "no code regions: the trace was written "
	"before format 1.1 or by a generator";

/* A region for a terminal; "(no region)" for the SEBs without one. */
static void print_region_label(const char *region)
{
	if (!region[0])
		fputs("(no region)", stdout);
	else
		tool_print_text(stdout, region);
}

static void print_regions_human(const char *path, const struct stats *st,
				rg_key key, unsigned top)
{
	const rg_table *rg = &st->regions;
	rg_stat **v;
	char b[9][48];
	uint32_t i, nshow = rg->n;
	uint32_t nreg = rg->n;

	printf("trace            %s\n", path);
	printf("windows read     %s", tool_fmt_count(b[0], sizeof(b[0]),
						st->windows_read));
	if (st->windows_failed)
		printf(" (%s could not be read)",
		       tool_fmt_count(b[1], sizeof(b[1]), st->windows_failed));
	putchar('\n');
	if (!rg->with_region) {
		printf("SEBs             %s\n%s\n",
		       tool_fmt_count(b[0], sizeof(b[0]), st->sebs),
		       no_regions);
		return;
	}
	if (rg->with_region < rg->sebs)
		nreg--;		/* the row of the SEBs without one */
	printf("SEBs             %s in %s code region%s", tool_fmt_count(b[0],
	       sizeof(b[0]), st->sebs), tool_fmt_count(b[1], sizeof(b[1]),
						       nreg),
	       nreg == 1 ? "" : "s");
	if (rg->with_region < rg->sebs)
		printf(" (%s without a region)", tool_fmt_count(b[2],
								sizeof(b[2]),
		       rg->sebs - rg->with_region));
	printf("\nduration         %s in all, %s measured\n",
	       rg_fmt_ps(b[0], sizeof(b[0]), (__int128)rg->total),
	       rg_fmt_ps(b[1], sizeof(b[1]), (__int128)rg->measured));
	print_corrections(rg, 1);
	printf("quantiles        %s\n", rg->hist ? "from histograms of 128 "
	       "buckets per power of two, within 0.4% (a larger --exact "
	       "keeps them exact)" : "exact (nearest rank)");

	if (top && nshow > top)
		nshow = top;
	printf("\ncode regions by %s (%s of %s)\n",
	       key == RG_BY_TOTAL ? "total duration" :
	       key == RG_BY_CORRECTED ? "corrected time" : rg_key_name(key),
	       tool_fmt_count(b[0], sizeof(b[0]), nshow),
	       tool_fmt_count(b[1], sizeof(b[1]), rg->n));
	printf("  %11s %12s %12s %12s %12s %12s %12s %11s %12s  %s\n",
	       "count", "total", "median", "p10", "p90", "p99", "max",
	       "corrected", "corr. time", "region");
	v = rg_sorted(rg, key);
	for (i = 0; v && i < nshow; i++) {
		const rg_stat *r = v[i];

		printf("  %11s %12s %12s %12s %12s %12s %12s %11s %12s  ",
		       tool_fmt_count(b[0], sizeof(b[0]), r->count),
		       rg_fmt_ps(b[1], sizeof(b[1]), (__int128)r->total),
		       tool_fmt_time(b[2], sizeof(b[2]),
				     (sibt_time)r->q[RG_P50]),
		       tool_fmt_time(b[3], sizeof(b[3]),
				     (sibt_time)r->q[RG_P10]),
		       tool_fmt_time(b[4], sizeof(b[4]),
				     (sibt_time)r->q[RG_P90]),
		       tool_fmt_time(b[5], sizeof(b[5]),
				     (sibt_time)r->q[RG_P99]),
		       tool_fmt_time(b[6], sizeof(b[6]), (sibt_time)r->max),
		       tool_fmt_count(b[7], sizeof(b[7]), r->ncorr),
		       r->ncorr ? rg_fmt_ps(b[8], sizeof(b[8]), r->corr_time)
				: "-");
		print_region_label(r->region);
		putchar('\n');
	}
	free(v);
}

static void print_regions_json(const char *path, const struct stats *st,
			       rg_key key, unsigned top, int damaged)
{
	const rg_table *rg = &st->regions;
	rg_stat **v = rg->with_region ? rg_sorted(rg, key) : NULL;
	uint32_t i, nshow = rg->with_region ? rg->n : 0;

	printf("{\"path\":");
	tool_json_string(stdout, path, strlen(path));
	printf(",\"npes\":%" PRIu32 ",\"windows_read\":%" PRIu64
	       ",\"windows_failed\":%" PRIu64 ",\"damaged\":%s",
	       sibt_trace_npes(st->t), st->windows_read, st->windows_failed,
	       damaged ? "true" : "false");
	printf(",\"sebs\":%" PRIu64 ",\"sebs_with_region\":%" PRIu64
	       ",\"duration_ps\":", rg->sebs, rg->with_region);
	print_u128(rg->total);
	json_corrections(rg);
	printf(",\"quantiles\":\"%s\",\"sort\":\"%s\"",
	       rg->hist ? "histogram" : "exact", rg_key_name(key));
	if (!rg->with_region) {
		printf(",\"note\":");
		tool_json_string(stdout, no_regions, strlen(no_regions));
	}
	printf(",\"regions_total\":%" PRIu32, nshow);
	if (top && nshow > top)
		nshow = top;
	printf(",\"regions\":[");
	for (i = 0; v && i < nshow; i++) {
		const rg_stat *r = v[i];

		printf("%s{\"region\":", i ? "," : "");
		if (r->region[0])
			tool_json_string(stdout, r->region, strlen(r->region));
		else
			printf("null");
		printf(",\"count\":%" PRIu64 ",\"total_ps\":", r->count);
		print_u128(r->total);
		printf(",\"min_ps\":%" PRIu64 ",\"median_ps\":%" PRIu64
		       ",\"p10_ps\":%" PRIu64 ",\"p90_ps\":%" PRIu64
		       ",\"p99_ps\":%" PRIu64 ",\"max_ps\":%" PRIu64
		       ",\"corrected\":%" PRIu64 ",\"corrected_ps\":",
		       r->min, r->q[RG_P50], r->q[RG_P10], r->q[RG_P90],
		       r->q[RG_P99], r->max, r->ncorr);
		print_i128(r->corr_time);
		printf(",\"measured_ps\":");
		print_u128(r->measured);
		putchar('}');
	}
	free(v);
	printf("],\"failures\":[");
	for (i = 0; i < st->nfail; i++) {
		printf("%s{\"file\":", i ? "," : "");
		tool_json_string(stdout, st->fail[i].file,
				 strlen(st->fail[i].file));
		printf(",\"pe\":%" PRIu32 ",\"window\":%" PRIu64
		       ",\"message\":", st->fail[i].pe, st->fail[i].window);
		tool_json_string(stdout, st->fail[i].msg,
				 strlen(st->fail[i].msg));
		putchar('}');
	}
	printf("],\"peak_rss_bytes\":%" PRIu64 "}\n", sib_peak_rss());
}

int tool_cmd_trace_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "top", required_argument, NULL, 't' },
		{ "regions", no_argument, NULL, 'R' },
		{ "sort", required_argument, NULL, 'S' },
		{ "exact", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct stats *st;
	sibt_totals tot;
	const char *path;
	uint64_t top = 20, exact = RG_EXACT_DEFAULT;
	int json = 0, quiet = 0, regions = 0, damaged, c, status;
	const char *sort = NULL;
	int key = RG_BY_TOTAL;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			if (tool_parse_u64("--top", optarg, &top) < 0 ||
			    top > UINT32_MAX) {
				if (top > UINT32_MAX)
					tool_error("--top: %s is too large",
						   optarg);
				fprintf(stderr, "Try '%s --help'.\n",
					tool_name);
				return TOOL_EXIT_USAGE;
			}
			break;
		case 'R':
			regions = 1;
			break;
		case 'S':
			sort = optarg;
			key = rg_key_parse(optarg);
			if (key < 0)
				return tool_usage_error("--sort: unknown key "
							"'%s' (one of %s)",
							optarg, rg_key_names);
			break;
		case 'E':
			if (tool_parse_u64("--exact", optarg, &exact) < 0) {
				fprintf(stderr, "Try '%s --help'.\n",
					tool_name);
				return TOOL_EXIT_USAGE;
			}
			break;
		case 'h':
			fputs(stats_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (!(path = tool_trace_operand(argc, argv)))
		return TOOL_EXIT_USAGE;
	if (!regions && sort)
		return tool_usage_error("--sort orders the table of code "
					"regions: add --regions");

	st = calloc(1, sizeof(*st));
	if (!st) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	st->t = tool_open_trace(path, 0, &damaged);
	if (!st->t) {
		free(st);
		return TOOL_EXIT_USAGE;
	}
	sibt_trace_totals(st->t, &tot);
	rg_init(&st->regions, regions, exact);
	if (gather(st, tot.windows, quiet) < 0) {
		status = TOOL_EXIT_USAGE;
		goto out;
	}
	if (rg_finish(&st->regions) < 0) {
		tool_error("out of memory computing the quantiles of the code "
			   "regions");
		status = TOOL_EXIT_USAGE;
		goto out;
	}
	if (regions && json)
		print_regions_json(path, st, (rg_key)key, (unsigned)top,
				   damaged);
	else if (regions)
		print_regions_human(path, st, (rg_key)key, (unsigned)top);
	else if (json)
		print_json(path, st, &tot, (unsigned)top, damaged);
	else
		print_human(path, st, &tot, (unsigned)top);
	status = damaged || st->windows_failed ? TOOL_EXIT_PROBLEMS : 0;
out:
	for (i = 0; i < st->nfail; i++) {
		free(st->fail[i].file);
		free(st->fail[i].msg);
	}
	names_free(&st->names);
	rg_free(&st->regions);
	tool_close_trace(st->t);
	free(st);
	return status;
}
