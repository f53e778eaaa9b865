/*
 * fsim_profile.c -- variability profiles (fsim.h): the text format of
 * docs/variability.md, read and written.
 *
 *   sibyl-variability-profile 1
 *   source "run.trace"
 *   region "main (app.c:12) > main (app.c:40)"
 *     samples 7680
 *     median 101250000ps
 *     cluster 0.75 empirical
 *       cdf 95000000ps 0
 *       ...
 *     cluster 0.25 lognormal(300us, 0.1)
 *     pattern 0 0 0 1
 *   end
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "sib_err.h"
#include "sib_param.h"
#include "sib_text.h"

#define MAGIC "sibyl-variability-profile"

void fsim_vblock_free(fsim_vblock *b)
{
	free(b->key);
	sib_dist_free(&b->dist);
	free(b->pattern);
	free(b->csamples);
	free(b->origin);
	memset(b, 0, sizeof *b);
}

void fsim_profile_free(fsim_profile *pr)
{
	for (uint32_t i = 0; i < pr->n; i++)
		fsim_vblock_free(&pr->b[i]);
	free(pr->b);
	free(pr->source);
	memset(pr, 0, sizeof *pr);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int fsim_profile_add(fsim_profile *pr, const fsim_vblock *b)
{
	if (pr->n == pr->cap) {
		uint32_t cap = pr->cap ? pr->cap * 2 : 16;
		fsim_vblock *n = realloc(pr->b, cap * sizeof *n);
		if (!n)
			return -1;
		pr->b = n;
		pr->cap = cap;
	}
	fsim_vblock *c = &pr->b[pr->n];
	*c = *b;
	c->key = dup_or_null(b->key);
	c->origin = dup_or_null(b->origin);
	c->pattern = NULL;
	c->csamples = NULL;
	if (b->npattern) {
		c->pattern = malloc(b->npattern * sizeof *c->pattern);
		if (c->pattern)
			memcpy(c->pattern, b->pattern,
			       b->npattern * sizeof *c->pattern);
	}
	if (b->csamples) {
		c->csamples = malloc(b->nclusters * sizeof *c->csamples);
		if (c->csamples)
			memcpy(c->csamples, b->csamples,
			       b->nclusters * sizeof *c->csamples);
	}
	int bad = sib_dist_copy(&c->dist, &b->dist);
	if (bad || !c->key || (b->origin && !c->origin) ||
	    (b->npattern && !c->pattern) || (b->csamples && !c->csamples)) {
		if (!bad)
			sib_dist_free(&c->dist);
		c->dist.kind = SIB_DIST_FIXED;
		fsim_vblock_free(c);
		return -1;
	}
	pr->n++;
	return 0;
}

/* ------------------------------------------------------------ write */

static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void put_cluster(FILE *f, double w, const sib_dist *d, uint32_t i,
			const uint64_t *csamples)
{
	fprintf(f, "  cluster %.6g ", w);
	if (d->kind != SIB_DIST_EMPIRICAL) {
		sib_dist_write(f, d, 1);
	} else {
		fputs("empirical", f);
	}
	if (csamples)
		fprintf(f, "  # cluster %u, %" PRIu64 " samples", i,
			csamples[i]);
	fputc('\n', f);
	for (uint32_t k = 0; d->kind == SIB_DIST_EMPIRICAL && k < d->n; k++)
		fprintf(f, "    cdf %.0fps %.6g\n", d->x[k], d->f[k]);
}

int fsim_profile_write(const fsim_profile *pr, FILE *f)
{
	fprintf(f, "%s %d\n", MAGIC, FSIM_PROFILE_VERSION);
	if (pr->source) {
		fputs("source ", f);
		put_quoted(f, pr->source);
		fputc('\n', f);
	}
	for (uint32_t i = 0; i < pr->n; i++) {
		const fsim_vblock *b = &pr->b[i];
		fprintf(f, "\n%s ", b->by_region ? "region" : "seb");
		put_quoted(f, b->key);
		fputc('\n', f);
		if (b->samples)
			fprintf(f, "  samples %" PRIu64 "\n", b->samples);
		if (b->median > 0)
			fprintf(f, "  median %.0fps\n", b->median);
		if (b->dist.kind != SIB_DIST_MIX) {
			put_cluster(f, 1, &b->dist, 0, b->csamples);
		} else {
			double prev = 0;
			for (uint32_t c = 0; c < b->dist.n; c++) {
				put_cluster(f, b->dist.w[c] - prev,
					    &b->dist.c[c], c, b->csamples);
				prev = b->dist.w[c];
			}
		}
		if (b->npattern) {
			fputs("  pattern", f);
			for (uint32_t k = 0; k < b->npattern; k++)
				fprintf(f, " %u", b->pattern[k]);
			fputc('\n', f);
		}
		fputs("end\n", f);
	}
	return ferror(f) ? -1 : 0;
}

/* ------------------------------------------------------------- read */

typedef struct rd {
	const char *path;
	unsigned long line;
	char *err;
	size_t errlen;
	fsim_profile *pr;
	int in_block;
	fsim_vblock b;
	sib_dist c[SIB_DIST_MAX_MIX];
	double w[SIB_DIST_MAX_MIX];
	unsigned long cline[SIB_DIST_MAX_MIX]; /* line of each cluster */
	uint32_t nc;
	int open_cdf;       /* the last cluster is an empirical being read */
} rd;

static int rd_err(rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rd_err(rd *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return sib_errf(r->err, r->errlen, "%s:%lu: %s", r->path, r->line,
			msg);
}

static char *skip(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* The word at *sp (letters, '-'), *sp moved past it and its blanks. */
static char *word(char **sp)
{
	char *s = skip(*sp), *w = s;
	while (isalpha((unsigned char)*s) || *s == '-')
		s++;
	if (*s && !isspace((unsigned char)*s)) {
		*sp = s;
		return w == s ? s : NULL;
	}
	if (*s)
		*s++ = '\0';
	*sp = skip(s);
	return w;
}

/* A quoted string that ends the line. */
static char *quoted(rd *r, char *s, const char *what)
{
	const char *end;
	s = skip(s);
	if (*s != '"') {
		rd_err(r, "%s: write the %s in double quotes", what, what);
		return NULL;
	}
	char *v = sib_unquote(s + 1, &end);
	if (!v || !end || *skip((char *)end)) {
		free(v);
		rd_err(r, "%s: the quoted %s %s", what, what, !end ?
		       "has no closing quote" : "must end the line");
		return NULL;
	}
	return v;
}

static int close_cdf(rd *r)
{
	char msg[512];
	if (!r->open_cdf)
		return 0;
	r->open_cdf = 0;
	if (sib_dist_check(&r->c[r->nc - 1], msg, sizeof msg)) {
		unsigned long l = r->line;
		r->line = r->cline[r->nc - 1];
		rd_err(r, "cluster %u: %s", r->nc - 1, msg);
		r->line = l;
		return -1;
	}
	return 0;
}

static int add_cdf(rd *r, char *s)
{
	sib_dist *d = &r->c[r->nc - 1];
	static const sib_param tp = { "value", SIB_P_TIME, "0", NULL, "" };
	sib_value v;
	char msg[256], *e = s, *end;
	if (d->n == SIB_DIST_MAX_POINTS)
		return rd_err(r, "a cluster's CDF has at most %d points (100 "
			      "bins)", SIB_DIST_MAX_POINTS);
	while (*e && !isspace((unsigned char)*e))
		e++;
	if (*e)
		*e++ = '\0';
	if (sib_parse_value(&tp, "cdf", s, &v, msg, sizeof msg))
		return rd_err(r, "%s", msg);
	double p = strtod(skip(e), &end);
	if (end == skip(e) || *skip(end))
		return rd_err(r, "cdf VALUE PROBABILITY: '%s' is not a "
			      "probability", skip(e));
	d->x[d->n] = (double)v.i;
	d->f[d->n++] = p;
	return 0;
}

static int add_cluster(rd *r, char *s)
{
	char msg[1024], *end;
	if (r->nc == SIB_DIST_MAX_MIX)
		return rd_err(r, "a block has at most %d clusters",
			      SIB_DIST_MAX_MIX);
	double w = strtod(s, &end);
	if (end == s || !(w > 0) || !isfinite(w))
		return rd_err(r, "cluster WEIGHT DIST: the weight must be a "
			      "number greater than 0");
	s = skip(end);
	sib_dist *d = &r->c[r->nc];
	r->w[r->nc] = w;
	r->cline[r->nc] = r->line;
	if (strcmp(s, "empirical") == 0) {
		memset(d, 0, sizeof *d);
		d->kind = SIB_DIST_EMPIRICAL;
		d->x = malloc(SIB_DIST_MAX_POINTS * sizeof *d->x);
		d->f = malloc(SIB_DIST_MAX_POINTS * sizeof *d->f);
		r->nc++;
		if (!d->x || !d->f)
			return rd_err(r, "out of memory");
		r->open_cdf = 1;
		return 0;
	}
	if (sib_dist_parse(d, s, 1, msg, sizeof msg))
		return rd_err(r, "%s", msg);
	if (d->kind == SIB_DIST_MIX) {
		sib_dist_free(d);
		return rd_err(r, "a cluster is not a mixture: write one "
			      "cluster line per component");
	}
	r->nc++;
	return 0;
}

static int add_pattern(rd *r, char *s)
{
	if (r->b.npattern)
		return rd_err(r, "a block has one pattern");
	uint32_t cap = 16, n = 0;
	uint32_t *p = malloc(cap * sizeof *p);
	while (p && *(s = skip(s))) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);
		if (end == s || (*end && !isspace((unsigned char)*end)) ||
		    v >= r->nc) {
			free(p);
			return rd_err(r, "pattern: '%.20s' is not a cluster "
				      "number (0 to %u, the clusters above "
				      "in order)", s, r->nc - 1);
		}
		if (n == FSIM_PROFILE_MAX_PATTERN) {
			free(p);
			return rd_err(r, "pattern: at most %d entries",
				      FSIM_PROFILE_MAX_PATTERN);
		}
		if (n == cap) {
			uint32_t *q = realloc(p, (cap *= 2) * sizeof *p);
			if (!q)
				break;
			p = q;
		}
		p[n++] = (uint32_t)v;
		s = end;
	}
	if (!p)
		return rd_err(r, "out of memory");
	if (!n) {
		free(p);
		return rd_err(r, "pattern: give the clusters in the order "
			      "they repeat, e.g. 'pattern 0 1 1'");
	}
	r->b.pattern = p;
	r->b.npattern = n;
	return 0;
}

/* `end': the clusters become the block's distribution. */
static int end_block(rd *r)
{
	fsim_vblock *b = &r->b;
	if (!r->nc)
		return rd_err(r, "the block of \"%s\" has no cluster: give at "
			      "least one 'cluster WEIGHT DIST' line", b->key);
	b->nclusters = r->nc;
	if (r->nc == 1) {
		b->dist = r->c[0];
	} else {
		double sum = 0;
		b->dist.kind = SIB_DIST_MIX;
		b->dist.n = r->nc;
		b->dist.w = malloc(r->nc * sizeof *b->dist.w);
		b->dist.c = malloc(r->nc * sizeof *b->dist.c);
		if (!b->dist.w || !b->dist.c)
			return rd_err(r, "out of memory");
		for (uint32_t i = 0; i < r->nc; i++)
			sum += r->w[i];
		for (uint32_t i = 0; i < r->nc; i++) {
			double prev = i ? b->dist.w[i - 1] : 0;
			b->dist.w[i] = prev + r->w[i] / sum;
			b->dist.c[i] = r->c[i];
		}
		b->dist.w[r->nc - 1] = 1;
	}
	r->nc = 0;
	int rc = fsim_profile_add(r->pr, b);
	fsim_vblock_free(b);
	r->in_block = 0;
	return rc ? rd_err(r, "out of memory") : 0;
}

static int begin_block(rd *r, int by_region, char *rest)
{
	char origin[4200];
	if (r->pr->n == FSIM_PROFILE_MAX_BLOCKS)
		return rd_err(r, "a profile has at most %d blocks",
			      FSIM_PROFILE_MAX_BLOCKS);
	memset(&r->b, 0, sizeof r->b);
	r->b.by_region = by_region;
	r->b.key = quoted(r, rest, by_region ? "region" : "seb name");
	snprintf(origin, sizeof origin, "%s:%lu", r->path, r->line);
	r->b.origin = strdup(origin);
	if (!r->b.key || !r->b.origin) {
		int said = !r->b.key;   /* quoted() said what was wrong */
		free((void *)r->b.key);
		free((void *)r->b.origin);
		r->b.key = NULL;
		r->b.origin = NULL;
		return said ? -1 : rd_err(r, "out of memory");
	}
	r->in_block = 1;
	return 0;
}

static int block_line(rd *r, const char *w, char *rest)
{
	static const sib_param tp = { "median", SIB_P_TIME, "0", NULL, "" };
	char msg[256], *end;
	if (strcmp(w, "cdf") == 0) {
		if (!r->open_cdf)
			return rd_err(r, "a 'cdf' line follows a 'cluster "
				      "WEIGHT empirical' line");
		return add_cdf(r, rest);
	}
	if (close_cdf(r))
		return -1;
	if (strcmp(w, "cluster") == 0) {
		if (r->b.npattern)
			return rd_err(r, "the clusters come before the "
				      "pattern");
		return add_cluster(r, rest);
	}
	if (strcmp(w, "pattern") == 0)
		return add_pattern(r, rest);
	if (strcmp(w, "end") == 0)
		return *rest ? rd_err(r, "'end' stands alone") : end_block(r);
	if (strcmp(w, "samples") == 0) {
		r->b.samples = strtoull(rest, &end, 10);
		if (end == rest || *skip(end))
			return rd_err(r, "samples N: '%s' is not a count",
				      rest);
		return 0;
	}
	if (strcmp(w, "median") == 0) {
		sib_value v;
		if (sib_parse_value(&tp, "median", rest, &v, msg, sizeof msg))
			return rd_err(r, "%s", msg);
		r->b.median = (double)v.i;
		return 0;
	}
	return rd_err(r, "unknown line '%s' in a block: a block holds "
		      "samples, median, cluster, cdf and pattern lines and "
		      "ends with 'end'", w);
}

static int top_line(rd *r, const char *w, char *rest)
{
	if (strcmp(w, "region") == 0 || strcmp(w, "seb") == 0)
		return begin_block(r, w[0] == 'r', rest);
	if (strcmp(w, "source") == 0) {
		free(r->pr->source);
		r->pr->source = quoted(r, rest, "source");
		return r->pr->source ? 0 : -1;
	}
	return rd_err(r, "unknown line '%s': outside a block, a profile "
		      "holds 'region \"...\"' or 'seb \"...\"' blocks and a "
		      "'source' line", w);
}

static int read_lines(rd *r, sib_lines *l)
{
	char *line;
	size_t len;
	int got, seen_magic = 0;
	while ((got = sib_lines_next(l, &line, &len, r->err, r->errlen)) > 0) {
		r->line = sib_lines_lineno(l);
		char *hash = NULL, *s = skip(line);
		/* a comment starts at a '#' outside quotes */
		for (char *q = s, in = 0; *q; q++) {
			if (*q == '\\' && in && q[1])
				q++;
			else if (*q == '"')
				in = !in;
			else if (*q == '#' && !in) {
				hash = q;
				break;
			}
		}
		if (hash)
			*hash = '\0';
		for (size_t n = strlen(s); n && isspace((unsigned char)s[n - 1]);)
			s[--n] = '\0';
		if (!*s)
			continue;
		char *rest = s, *w = word(&rest);
		if (!seen_magic) {
			char *end;
			long v;
			if (!w || strcmp(w, MAGIC) ||
			    (v = strtol(rest, &end, 10)) < 1 || *end)
				return rd_err(r, "not a variability profile: the "
					      "first line must be '%s %d' (write "
					      "one with 'sibyl trace profile')",
					      MAGIC, FSIM_PROFILE_VERSION);
			if (v > FSIM_PROFILE_VERSION)
				return rd_err(r, "profile version %ld is newer "
					      "than this Sibyl reads (%d)", v,
					      FSIM_PROFILE_VERSION);
			seen_magic = 1;
			continue;
		}
		if (!w || !*w)
			return rd_err(r, "expected a keyword at '%.20s'", s);
		if (r->in_block ? block_line(r, w, rest) :
		    top_line(r, w, rest))
			return -1;
	}
	if (got < 0)
		return -1;
	if (!seen_magic)
		return rd_err(r, "empty file: not a variability profile");
	if (r->in_block)
		return rd_err(r, "the block of \"%s\" has no 'end'",
			      r->b.key);
	return 0;
}

int fsim_profile_read(fsim_profile *pr, const char *path, char *err,
		      size_t errlen)
{
	static const sib_lines_limits lim = {
		.what = "variability profile",
		.open_hint = "write one with 'sibyl trace profile TRACE -o "
			     "PROFILE'",
		.max_line = 65536,
		.max_bytes = UINT64_C(256) << 20,
	};
	rd r = { .path = path, .err = err, .errlen = errlen, .pr = pr };
	sib_lines *l;
	memset(pr, 0, sizeof *pr);
	if (sib_lines_open(&l, path, &lim, err, errlen))
		return -1;
	int rc = read_lines(&r, l);
	sib_lines_close(l);
	if (r.in_block) {
		for (uint32_t i = 0; i < r.nc; i++)
			sib_dist_free(&r.c[i]);
		fsim_vblock_free(&r.b);
	}
	if (rc)
		fsim_profile_free(pr);
	return rc;
}
