/*
 * trace_profile.c -- `sibyl trace profile': the per-region distributions
 * of a trace's SEB durations, written as a variability profile
 * (docs/variability.md) that `sibyl sim --variability' replays on
 * another trace of the same program (the three-stage method: measure a
 * few ranks, replay many).
 *
 * Per code region (or SEB name, for SEBs without one): the durations
 * are clustered in log space at the gaps between them, each cluster
 * gets a distribution (an empirical CDF of at most 100 bins, or a
 * fitted normal or log-normal), and the sequence of clusters each rank
 * went through is searched for a repeating pattern.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "tools.h"

static const char profile_usage[] =
"Usage: sibyl trace profile [OPTIONS] TRACE -o PROFILE\n"
"\n"
"Write the distributions of the SEB durations of TRACE, one block per\n"
"code region (SEBs without a region: per SEB name), as a variability\n"
"profile: 'sibyl sim --variability PROFILE' then draws the durations of\n"
"another trace of the same program from them (docs/variability.md).\n"
"A region whose durations fall in groups apart from each other is\n"
"split into clusters, and when every rank goes through the clusters in\n"
"one repeating order, that pattern is written too.\n"
"\n"
"Options:\n"
"  -o, --output PROFILE  the profile to write (required)\n"
"      --dist KIND       the distribution of each cluster: empirical (a\n"
"                        CDF of quantile bins; the default), normal or\n"
"                        lognormal (fitted to its samples)\n"
"      --bins N          bins of an empirical CDF, 1 to 100 (default 100)\n"
"      --by KEY          region (the default: the code region, or the\n"
"                        SEB name when there is none) or name (always\n"
"                        the SEB name)\n"
"      --gap F           split clusters where sorted durations jump by\n"
"                        more than the factor F, e.g. 1.2 (default 1.2);\n"
"                        each cluster needs 16 samples and 2% of them\n"
"      --no-clusters     one cluster per block\n"
"  -q, --quiet           no summary\n"
"  -h, --help            print this help and exit\n"
"\n"
"Examples:\n"
"  sibyl trace profile measured.trace -o app.profile\n"
"  sibyl sim declared.trace --variability app.profile\n";

typedef struct group {
	char *key;
	int by_region;
	uint64_t *v;            /* durations, PE by PE in index order */
	uint64_t n, cap;
	uint64_t *run;          /* start of each PE's run in v */
	uint32_t nrun, caprun;
	uint32_t last_pe;
} group;

typedef struct prof {
	group *g;
	uint32_t n, cap;
	group *last;
	int dist;               /* 0 empirical, 1 normal, 2 lognormal */
	uint32_t bins;
	int by_name, clusters;
	double gap;
} prof;

static int push_u64(uint64_t **a, uint64_t *n, uint64_t *cap, uint64_t x)
{
	if (*n == *cap) {
		uint64_t c = *cap ? *cap * 2 : 64;
		uint64_t *p = realloc(*a, c * sizeof *p);
		if (!p)
			return -1;
		*a = p;
		*cap = c;
	}
	(*a)[(*n)++] = x;
	return 0;
}

static group *find_group(prof *pr, const char *key, int by_region)
{
	if (pr->last && pr->last->by_region == by_region &&
	    strcmp(pr->last->key, key) == 0)
		return pr->last;
	for (uint32_t i = 0; i < pr->n; i++)
		if (pr->g[i].by_region == by_region &&
		    strcmp(pr->g[i].key, key) == 0)
			return pr->last = &pr->g[i];
	if (pr->n == pr->cap) {
		uint32_t c = pr->cap ? pr->cap * 2 : 16;
		group *g = realloc(pr->g, c * sizeof *g);
		if (!g)
			return NULL;
		pr->g = g;
		pr->cap = c;
	}
	group *g = &pr->g[pr->n];
	memset(g, 0, sizeof *g);
	g->by_region = by_region;
	g->last_pe = UINT32_MAX;
	if (!(g->key = strdup(key)))
		return NULL;
	pr->n++;
	return pr->last = g;
}

static int add_seb(prof *pr, uint32_t pe, const sibt_seb *s)
{
	int by_region = !pr->by_name && s->region && *s->region;
	group *g = find_group(pr, by_region ? s->region :
			      s->name ? s->name : "", by_region);
	if (!g)
		return -1;
	if (g->last_pe != pe) {
		uint64_t nrun = g->nrun, cap = g->caprun;
		if (push_u64(&g->run, &nrun, &cap, g->n))
			return -1;
		g->nrun = (uint32_t)nrun;
		g->caprun = (uint32_t)cap;
		g->last_pe = pe;
	}
	return push_u64(&g->v, &g->n, &g->cap, (uint64_t)s->duration);
}

static int gather(prof *pr, sibt_trace *t)
{
	sibt_window *win = sibt_window_new();
	int rc = 0;
	if (!win)
		return -1;
	for (uint32_t pe = 0; pe < sibt_trace_npes(t) && !rc; pe++) {
		uint64_t nwin = sibt_trace_nwindows(t, pe);
		for (uint64_t w = 0; w < nwin && !rc; w++) {
			if (sibt_trace_read_window(t, pe, w, win) != SIBT_OK) {
				tool_error("%s", sibt_trace_errmsg(t));
				rc = 1;
				break;
			}
			for (uint32_t i = 0; i < sibt_window_nsebs(win) && !rc;
			     i++)
				rc = add_seb(pr, pe, sibt_window_seb(win, i));
		}
	}
	sibt_window_free(win);
	return rc;
}

/* ------------------------------------------------------------ model */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The p-quantile of sorted v[0..n-1], linear between samples. */
static double quantile(const uint64_t *v, uint64_t n, double p)
{
	double pos = p * (double)(n - 1);
	uint64_t i = (uint64_t)pos;
	if (i + 1 >= n)
		return (double)v[n - 1];
	return (double)v[i] + (pos - (double)i) * (double)(v[i + 1] - v[i]);
}

static double lg(uint64_t v)
{
	return log((double)(v ? v : 1));
}

/* The cluster boundaries of sorted v: cut[k] is the first sample of
 * cluster k+1; returns the number of clusters. */
static uint32_t find_clusters(const prof *pr, const uint64_t *v, uint64_t n,
			      uint64_t *cut)
{
	uint64_t min = n / 50 > 16 ? n / 50 : 16, start = 0;
	uint32_t k = 1;
	if (!pr->clusters)
		return 1;
	for (uint64_t i = min; i + min <= n && k < SIB_DIST_MAX_MIX; i++)
		if (i - start >= min && lg(v[i]) - lg(v[i - 1]) > log(pr->gap)) {
			cut[k - 1] = i;
			start = i;
			k++;
		}
	return k;
}

/* The distribution of sorted samples v[0..n-1]. */
static int fit(const prof *pr, const uint64_t *v, uint64_t n, sib_dist *d)
{
	double s = 0, s2 = 0;
	memset(d, 0, sizeof *d);
	if (v[0] == v[n - 1]) {
		d->kind = SIB_DIST_FIXED;
		d->a = (double)v[0];
		return 0;
	}
	if (pr->dist) {
		for (uint64_t i = 0; i < n; i++) {
			double x = pr->dist == 2 ? lg(v[i]) : (double)v[i];
			s += x;
			s2 += x * x;
		}
		double m = s / (double)n, var = s2 / (double)n - m * m;
		d->kind = pr->dist == 2 ? SIB_DIST_LOGNORMAL : SIB_DIST_NORMAL;
		d->a = pr->dist == 2 ? exp(m) : m;
		d->b = var > 0 ? sqrt(var * (double)n / (double)(n - 1)) : 0;
		return 0;
	}
	uint32_t bins = n - 1 < pr->bins ? (uint32_t)(n - 1) : pr->bins;
	d->kind = SIB_DIST_EMPIRICAL;
	d->n = bins + 1;
	d->x = malloc(d->n * sizeof *d->x);
	d->f = malloc(d->n * sizeof *d->f);
	if (!d->x || !d->f)
		return -1;
	for (uint32_t j = 0; j <= bins; j++) {
		d->f[j] = (double)j / bins;
		d->x[j] = round(quantile(v, n, d->f[j]));
	}
	return 0;
}

/* The smallest period P (at most half a PE's run) whose pattern -- the
 * most common cluster at each position modulo P over every PE -- holds
 * for 95% of the samples; 0 when none. */
static uint32_t find_pattern(const group *g, const uint8_t *cl, uint32_t k,
			     uint32_t *pat)
{
	uint64_t shortest = UINT64_MAX;
	for (uint32_t r = 0; r < g->nrun; r++) {
		uint64_t end = r + 1 < g->nrun ? g->run[r + 1] : g->n;
		if (end - g->run[r] < shortest)
			shortest = end - g->run[r];
	}
	uint32_t maxp = shortest / 2 < FSIM_PROFILE_MAX_PATTERN ?
			(uint32_t)(shortest / 2) : FSIM_PROFILE_MAX_PATTERN;
	uint64_t *count = calloc((size_t)maxp * k + 1, sizeof *count);
	uint64_t *best = calloc((size_t)maxp + 1, sizeof *best);
	/* A sample that does not raise its position's largest count is one
	 * the pattern will miss whatever comes after: a period is given up
	 * as soon as more than 5% of all samples are missed, which on a
	 * group without a pattern is after a small part of the samples. */
	uint64_t allowed = g->n * 5 / 100;
	for (uint32_t p = 1; count && best && p <= maxp; p++) {
		uint64_t missed = 0;
		memset(count, 0, (size_t)p * k * sizeof *count);
		memset(best, 0, (size_t)p * sizeof *best);
		for (uint32_t r = 0; r < g->nrun && missed <= allowed; r++) {
			uint64_t end = r + 1 < g->nrun ? g->run[r + 1] : g->n;
			uint32_t j = 0;
			for (uint64_t i = g->run[r]; i < end; i++) {
				uint64_t c = ++count[(size_t)j * k + cl[i]];
				if (c > best[j])
					best[j] = c;
				else if (++missed > allowed)
					break;
				if (++j == p)
					j = 0;
			}
		}
		if (missed > allowed)
			continue;
		/* The pattern holds the n - missed samples, 95% or more. */
		for (uint32_t j = 0; j < p; j++) {
			pat[j] = 0;
			for (uint32_t c = 1; c < k; c++)
				if (count[j * k + c] > count[j * k + pat[j]])
					pat[j] = c;
		}
		free(count);
		free(best);
		return p;
	}
	free(count);
	free(best);
	return 0;
}

/* The block of group g. */
static int model(const prof *pr, const group *g, fsim_vblock *b)
{
	uint64_t *v = malloc(g->n * sizeof *v), cut[SIB_DIST_MAX_MIX];
	uint8_t *cl = malloc(g->n);
	uint32_t *pat = malloc(FSIM_PROFILE_MAX_PATTERN * sizeof *pat);
	int rc = -1;
	memset(b, 0, sizeof *b);
	if (!v || !cl || !pat)
		goto out;
	memcpy(v, g->v, g->n * sizeof *v);
	qsort(v, g->n, sizeof *v, cmp_u64);
	b->by_region = g->by_region;
	b->key = g->key;
	b->samples = g->n;
	b->median = quantile(v, g->n, 0.5);
	uint32_t k = find_clusters(pr, v, g->n, cut);
	b->nclusters = k;
	b->csamples = calloc(k, sizeof *b->csamples);
	if (!b->csamples)
		goto out;
	if (k == 1) {
		b->csamples[0] = g->n;
		rc = fit(pr, v, g->n, &b->dist);
		goto out;
	}
	b->dist.kind = SIB_DIST_MIX;
	b->dist.n = k;
	b->dist.w = calloc(k, sizeof *b->dist.w);
	b->dist.c = calloc(k, sizeof *b->dist.c);
	if (!b->dist.w || !b->dist.c)
		goto out;
	for (uint32_t c = 0; c < k; c++) {
		uint64_t lo = c ? cut[c - 1] : 0, hi = c + 1 < k ? cut[c] : g->n;
		b->csamples[c] = hi - lo;
		b->dist.w[c] = (double)hi / (double)g->n;
		if (fit(pr, v + lo, hi - lo, &b->dist.c[c]))
			goto out;
	}
	b->dist.w[k - 1] = 1;
	for (uint64_t i = 0; i < g->n; i++) {
		uint32_t c = 0;
		while (c + 1 < k && g->v[i] >= v[cut[c]])
			c++;
		cl[i] = (uint8_t)c;
	}
	b->npattern = find_pattern(g, cl, k, pat);
	b->pattern = b->npattern ? pat : NULL;
	if (b->npattern)
		pat = NULL;
	rc = 0;
out:
	free(v);
	free(cl);
	free(pat);
	return rc;
}

/* ------------------------------------------------------------ write */

static int write_profile(const prof *pr, const char *trace, const char *out,
			 int quiet)
{
	fsim_profile fp;
	char tmp[4200];
	int rc = 0;
	memset(&fp, 0, sizeof fp);
	fp.source = (char *)trace;
	for (uint32_t i = 0; i < pr->n && !rc; i++) {
		fsim_vblock b;
		rc = model(pr, &pr->g[i], &b);
		if (!rc) {
			rc = fsim_profile_add(&fp, &b);
			if (!quiet)
				printf("  %-8" PRIu64 " samples, %u cluster%s%s  "
				       "%s\n", b.samples, b.nclusters,
				       b.nclusters == 1 ? "" : "s",
				       b.npattern ? ", pattern" : "", b.key);
		}
		b.key = NULL;
		fsim_vblock_free(&b);
	}
	if (rc) {
		tool_error("out of memory modelling the regions");
		goto out;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", out);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		tool_error("cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
		goto out;
	}
	rc = fsim_profile_write(&fp, f);
	if (fclose(f) || rc || rename(tmp, out)) {
		tool_error("cannot write %s: %s", out, strerror(errno));
		remove(tmp);
		rc = -1;
	}
out:
	fp.source = NULL;
	fsim_profile_free(&fp);
	return rc;
}

static int parse_opts(int argc, char **argv, prof *pr, const char **out,
		      int *quiet)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "dist", required_argument, NULL, 'D' },
		{ "bins", required_argument, NULL, 'B' },
		{ "by", required_argument, NULL, 'Y' },
		{ "gap", required_argument, NULL, 'G' },
		{ "no-clusters", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t u;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			*out = optarg;
			break;
		case 'D':
			pr->dist = !strcmp(optarg, "empirical") ? 0 :
				   !strcmp(optarg, "normal") ? 1 :
				   !strcmp(optarg, "lognormal") ? 2 : -1;
			if (pr->dist < 0)
				return tool_usage_error("--dist: '%s' is not "
					"empirical, normal or lognormal",
					optarg);
			break;
		case 'B':
			if (tool_parse_u64("--bins", optarg, &u) < 0 || u < 1 ||
			    u > 100)
				return tool_usage_error("--bins: give 1 to 100 "
							"bins");
			pr->bins = (uint32_t)u;
			break;
		case 'Y':
			if (strcmp(optarg, "region") && strcmp(optarg, "name"))
				return tool_usage_error("--by: '%s' is not "
					"region or name", optarg);
			pr->by_name = optarg[0] == 'n';
			break;
		case 'G':
			if (tool_parse_double("--gap", optarg, &pr->gap) < 0 ||
			    !(pr->gap > 1))
				return tool_usage_error("--gap: give a factor "
							"above 1, e.g. 1.2");
			break;
		case 'N':
			pr->clusters = 0;
			break;
		case 'q':
			*quiet = 1;
			break;
		case 'h':
			fputs(profile_usage, stdout);
			return -1;
		default:
			return tool_bad_option(c, argv);
		}
	}
	return 0;
}

int tool_cmd_trace_profile(int argc, char **argv)
{
	prof pr = { .bins = 100, .clusters = 1, .gap = 1.2 };
	const char *out = NULL, *path;
	int quiet = 0, damaged = 0, rc;

	rc = parse_opts(argc, argv, &pr, &out, &quiet);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!(path = tool_trace_operand(argc, argv)))
		return TOOL_EXIT_USAGE;
	if (!out)
		return tool_usage_error("-o PROFILE is required");
	sibt_trace *t = tool_open_trace(path, 0, &damaged);
	if (!t)
		return TOOL_EXIT_USAGE;
	if (damaged) {
		tool_error("%s is damaged: a profile of part of it would "
			   "mislead; run 'sibyl trace check %s'", path, path);
		tool_close_trace(t);
		return TOOL_EXIT_PROBLEMS;
	}
	rc = gather(&pr, t);
	if (rc < 0)
		tool_error("out of memory reading %s", path);
	if (!rc && !quiet)
		printf("%s: %u block%s from %s\n", out, pr.n,
		       pr.n == 1 ? "" : "s", path);
	if (!rc && write_profile(&pr, path, out, quiet))
		rc = 1;
	for (uint32_t i = 0; i < pr.n; i++) {
		free(pr.g[i].key);
		free(pr.g[i].v);
		free(pr.g[i].run);
	}
	free(pr.g);
	tool_close_trace(t);
	return rc ? TOOL_EXIT_USAGE : 0;
}
