/*
 * calib_fit.c -- `sibyl calibrate': from the probe's samples to a machine
 * description (calib.h).
 *
 * Each (kind, pair, size) is summarized by its median, which a few slow
 * samples (the host taking the core away, a page fault) do not move; the
 * samples beyond five scaled median absolute deviations are counted as
 * outliers in the report.  The one-way ping-pong medians of a pair are
 * fitted by segmented regression (calibrate/segfit.h), one segment per
 * MPI protocol; each segment becomes a range of `protocols': its
 * receive overhead is the median measured at its smallest sizes, its
 * send overhead a line through the cost of posting an MPI_Isend
 * (make_pieces), its latency the rest of the fitted intercept and its
 * bandwidth the rest of the slope, so that the model's os + n *
 * os_per_byte + latency + n / bandwidth + or is the fitted line itself.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "sib_text.h"
#include "tools.h"

/* The fit aims at every median within this (a fraction). */
#define CALIB_MAX_REL 0.04

const char *const calib_kind_names[CK_N] = {
	"pingpong", "pingpong_nb", "os", "or", "stream", "isend", "copy",
	"kernel"
};
const char *const calib_pair_names[CP_N] = { "intra", "inter" };

/* The defaults of [intranode] and of the simple model (docs/machine.md,
 * netmodels/README.md). */
double calib_default_time(int pair, uint64_t n)
{
	return pair == CP_INTRA ? 200e-9 + (double)n / 10e9 :
				  1e-6 + (double)n / 10e9;
}

/* ------------------------------------------------------------ reading */

static int series_add(calib_series *s, uint64_t size, double sec, double ref)
{
	if (s->n == s->cap) {
		size_t c = s->cap ? 2 * s->cap : 1024;
		uint64_t *z = realloc(s->size, c * sizeof *z);
		double *t;

		if (!z)
			return -1;
		s->size = z;
		if (!(t = realloc(s->sec, c * sizeof *t)))
			return -1;
		s->sec = t;
		if (!(t = realloc(s->ref, c * sizeof *t)))
			return -1;
		s->ref = t;
		s->cap = c;
	}
	s->size[s->n] = size;
	s->ref[s->n] = ref;
	s->sec[s->n++] = sec;
	return 0;
}

static int core_add(calib_data *d, int rank, double sec, const char *host,
		    int cpu)
{
	calib_core *c = NULL;

	for (size_t i = 0; i < d->ncores; i++)
		if (d->cores[i].rank == rank)
			c = &d->cores[i];
	if (!c) {
		calib_core *v = realloc(d->cores, (d->ncores + 1) * sizeof *v);

		if (!v)
			return -1;
		d->cores = v;
		c = &v[d->ncores++];
		memset(c, 0, sizeof *c);
		c->rank = rank;
		c->cpu = cpu;
		snprintf(c->host, sizeof c->host, "%s", host);
	}
	if (c->n == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 8;
		double *v = realloc(c->sec, cap * sizeof *v);

		if (!v)
			return -1;
		c->sec = v;
		c->cap = cap;
	}
	c->sec[c->n++] = sec;
	return 0;
}

static int find_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* Split line at commas into at most 7 fields; the number of fields. */
static int split(char *line, char **f)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < 7; p++)
		if (*p == ',') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

/* One data line: "kind,pair,size,seconds,host,cpu" and, from the
 * probe's version 2, ",ref" (empty when none). */
static int read_row(calib_data *d, char *line, const char *path,
		    unsigned long lineno)
{
	char *f[7], *end;
	int n = split(line, f), k, p = 0;
	unsigned long long size;
	double sec, ref = 0;

	if ((n != 6 && n != 7) ||
	    (k = find_name(calib_kind_names, CK_N, f[0])) < 0)
		goto bad;
	if (n == 7 && *f[6]) {
		ref = strtod(f[6], &end);
		if (*end || end == f[6] || !(ref > 0) || !isfinite(ref))
			goto bad;
	}
	errno = 0;
	size = strtoull(f[2], &end, 10);
	if (errno || *end || end == f[2])
		goto bad;
	sec = strtod(f[3], &end);
	if (*end || end == f[3] || !(sec >= 0) || !isfinite(sec))
		goto bad;
	if (k == CK_KERNEL)
		return core_add(d, atoi(f[1]), sec, f[4], atoi(f[5])) ? -2 : 0;
	if (k != CK_COPY && (p = find_name(calib_pair_names, CP_N, f[1])) < 0)
		goto bad;
	return series_add(&d->s[k][p], size, sec, ref) ? -2 : 0;
bad:
	tool_error("%s:%lu: not a sample of sibyl-probe (kind,pair,size,"
		   "seconds,host,cpu[,ref]); was the file written by sibyl "
		   "calibrate?", path, lineno);
	return -1;
}

int calib_read(calib_data *d, const char *path)
{
	static const sib_lines_limits lim = {
		.what = "sample file",
		.open_hint = "check the path",
		.max_line = 4096,
		/* A calibration writes a few MiB; a hundred times that is
		 * not one. */
		.max_bytes = UINT64_C(1) << 30,
	};
	char err[1024], *line;
	size_t len;
	sib_lines *f;
	int rc = 0, r;

	memset(d, 0, sizeof *d);
	d->regime = CALIB_REGIME_AUTO;
	if (sib_lines_open(&f, path, &lim, err, sizeof err)) {
		tool_error("%s", err);
		return -1;
	}
	while (!rc && (r = sib_lines_next(f, &line, &len, err,
					  sizeof err)) == 1) {
		unsigned long no = sib_lines_lineno(f);

		if (line[0] == '#') {
			if (!d->header[0])
				snprintf(d->header, sizeof d->header, "%s",
					 line + (line[1] == ' ' ? 2 : 1));
			continue;
		}
		if (!len || !strncmp(line, "kind,", 5))
			continue;
		rc = read_row(d, line, path, no);
		if (rc == -2)
			tool_error("out of memory reading %s", path);
	}
	if (!rc && r < 0) {
		tool_error("%s", err);
		rc = -1;
	}
	sib_lines_close(f);
	if (!rc && !d->s[CK_PP][CP_INTRA].n && !d->s[CK_PP][CP_INTER].n) {
		tool_error("%s holds no ping-pong sample: nothing to fit", path);
		rc = -1;
	}
	if (rc)
		calib_free(d);
	return rc ? -1 : 0;
}

void calib_free(calib_data *d)
{
	for (int k = 0; k < CK_N; k++)
		for (int p = 0; p < CP_N; p++) {
			free(d->s[k][p].size);
			free(d->s[k][p].sec);
			free(d->s[k][p].ref);
			free(d->sum[k][p].p);
		}
	for (size_t i = 0; i < d->ncores; i++)
		free(d->cores[i].sec);
	free(d->cores);
	memset(d, 0, sizeof *d);
}

/* ----------------------------------------------------------- regimes */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Fewer references than this: one regime, whatever they show. */
#define REGIME_MIN_REFS 40

/* The regimes of pair p (calib.h), from the references of its samples.
 * 0 or -1 (out of memory). */
static int find_regimes(calib_data *d, int p)
{
	calib_regimes *g = &d->reg[p];
	size_t n = 0, cap = 0;
	double *x;

	memset(g, 0, sizeof *g);
	g->fitted = -1;
	for (int k = 0; k < CK_COPY; k++)
		cap += d->s[k][p].n;
	if (!(x = malloc((cap + 1) * sizeof *x)))
		return -1;
	for (int k = 0; k < CK_COPY; k++)
		for (size_t i = 0; i < d->s[k][p].n; i++)
			if (d->s[k][p].ref[i] > 0)
				x[n++] = log(d->s[k][p].ref[i]);
	if (!n) {
		free(x);
		return 0;
	}
	qsort(x, n, sizeof *x, cmp_dbl);
	g->n = 1;
	g->median[0] = exp(x[n / 2]);
	g->count[0] = n;
	if (n >= REGIME_MIN_REFS) {
		/* The split of the sorted logarithms with the least sum of
		 * squares about the two means. */
		double tot = 0, tot2 = 0, l = 0, l2 = 0, best = INFINITY;
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			tot += x[i];
			tot2 += x[i] * x[i];
		}
		for (size_t i = 1; i < n; i++) {
			double r, r2, ss;

			l += x[i - 1];
			l2 += x[i - 1] * x[i - 1];
			r = tot - l;
			r2 = tot2 - l2;
			ss = (l2 - l * l / (double)i) +
			     (r2 - r * r / (double)(n - i));
			if (ss < best) {
				best = ss;
				k = i;
			}
		}
		if (k >= n / 10 && n - k >= n / 10 && k > 0) {
			double m1 = 0, m2 = 0, sd;

			for (size_t i = 0; i < k; i++)
				m1 += x[i];
			for (size_t i = k; i < n; i++)
				m2 += x[i];
			m1 /= (double)k;
			m2 /= (double)(n - k);
			sd = sqrt(best > 0 ? best / (double)n : 0);
			if (x[k + (n - k) / 2] - x[k / 2] >= log(1.5) &&
			    m2 - m1 >= 4 * sd) {
				g->n = 2;
				g->bound = exp((x[k - 1] + x[k]) / 2);
				g->median[0] = exp(x[k / 2]);
				g->median[1] = exp(x[k + (n - k) / 2]);
				g->count[0] = k;
				g->count[1] = n - k;
			}
		}
	}
	free(x);
	return 0;
}

/* Keep in every series of pair p only the samples of regime r (those
 * without a reference stay). */
static void keep_regime(calib_data *d, int p, int r)
{
	const calib_regimes *g = &d->reg[p];

	for (int k = 0; k < CK_COPY; k++) {
		calib_series *s = &d->s[k][p];
		size_t m = 0;

		for (size_t i = 0; i < s->n; i++) {
			double ref = s->ref[i];

			if (ref > 0 && (ref <= g->bound) != (r == 0))
				continue;
			s->size[m] = s->size[i];
			s->sec[m] = s->sec[i];
			s->ref[m++] = ref;
		}
		s->n = m;
	}
}

/* Find the regimes of every pair and keep the one asked for.  0, or
 * after a message -1 (out of memory) or -2 (a regime the samples do not
 * have). */
static int choose_regimes(calib_data *d)
{
	for (int p = 0; p < CP_N; p++) {
		calib_regimes *g = &d->reg[p];

		if (find_regimes(d, p)) {
			tool_error("out of memory sorting the references");
			return -1;
		}
		if (g->n < 2) {
			char b[64];

			if (d->regime == CALIB_REGIME_SLOW && g->n) {
				tool_error("--regime slow: the %s-node samples "
					   "show one speed regime (1-byte "
					   "one-way time %s), not two; fit "
					   "them with --regime auto",
					   calib_pair_names[p],
					   tool_fmt_time(b, sizeof b,
					   (sibt_time)(g->median[0] * 1e12)));
				return -2;
			}
			if (d->regime == CALIB_REGIME_SLOW && d->s[CK_PP][p].n) {
				tool_error("--regime slow: the %s-node samples "
					   "carry no 1-byte reference (a "
					   "sample file of sibyl-probe 1): "
					   "their regimes are unknown",
					   calib_pair_names[p]);
				return -2;
			}
			continue;
		}
		g->fitted = d->regime == CALIB_REGIME_AUTO ?
			    (g->count[1] > g->count[0]) : d->regime;
		if (g->fitted >= 0)
			keep_regime(d, p, g->fitted);
	}
	return 0;
}

/* --------------------------------------------------------- summaries */

/* Order of (size, seconds) pairs by size. */
typedef struct sv {
	uint64_t size;
	double sec;
} sv;

static int cmp_sv(const void *a, const void *b)
{
	const sv *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return (x->sec > y->sec) - (x->sec < y->sec);
}

/* Robust statistics of v[0..n), sorted, into pt. */
static void summarize_size(const sv *v, size_t n, double *tmp,
			   calib_point *pt)
{
	double med, mad;

	for (size_t i = 0; i < n; i++)
		tmp[i] = v[i].sec;
	med = cal_median(tmp, n);
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i].sec - med);
	mad = cal_median(tmp, n);
	pt->size = v[0].size;
	pt->median = med;
	pt->min = v[0].sec;
	pt->max = v[n - 1].sec;
	pt->mad = mad;
	pt->n = (unsigned)n;
	pt->outliers = 0;
	for (size_t i = 0; i < n; i++)
		pt->outliers += fabs(v[i].sec - med) > 5 * 1.4826 * mad &&
				mad > 0;
}

static int summarize(const calib_series *s, calib_summary *out)
{
	sv *v = malloc((s->n + 1) * sizeof *v);
	double *tmp = malloc((s->n + 1) * sizeof *tmp);
	calib_point *p = malloc((s->n + 1) * sizeof *p);
	size_t np = 0;

	if (!v || !tmp || !p) {
		free(v);
		free(tmp);
		free(p);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		v[i] = (sv){ s->size[i], s->sec[i] };
	qsort(v, s->n, sizeof *v, cmp_sv);
	for (size_t i = 0, j; i < s->n; i = j) {
		for (j = i + 1; j < s->n && v[j].size == v[i].size; j++)
			;
		summarize_size(v + i, j - i, tmp, &p[np++]);
	}
	free(v);
	free(tmp);
	out->p = p;
	out->n = np;
	return 0;
}

/* The median over the summary's points of sizes [lo, hi], first `max'
 * of them; -1 when none. */
static double median_between(const calib_summary *s, uint64_t lo,
			     uint64_t hi, int max)
{
	double v[8];
	int n = 0;

	for (size_t i = 0; i < s->n && n < max && n < 8; i++)
		if (s->p[i].size >= lo && s->p[i].size <= hi)
			v[n++] = s->p[i].median;
	return n ? cal_median(v, (size_t)n) : -1;
}

/*
 * A line os + n * per_byte through the summary's medians of sizes [lo,
 * hi] by Theil and Sen's estimator (the median of the pairs' slopes,
 * then of the intercepts), which a few odd sizes do not tilt, as they
 * would a least-squares line; the slope at least 0.  0, or -1 when fewer
 * than two sizes fall in the range or out of memory (*os and *per_byte
 * untouched).
 */
static int line_between(const calib_summary *s, uint64_t lo, uint64_t hi,
			double *os, double *per_byte)
{
	size_t i0 = 0, n = 0, k = 0;
	double *v, slope;

	while (i0 < s->n && s->p[i0].size < lo)
		i0++;
	while (i0 + n < s->n && s->p[i0 + n].size <= hi)
		n++;
	if (n < 2 || !(v = malloc((n * (n - 1) / 2 + 1) * sizeof *v)))
		return -1;
	const calib_point *q = s->p + i0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			v[k++] = (q[j].median - q[i].median) /
				 (double)(q[j].size - q[i].size);
	slope = cal_median(v, k);
	slope = slope > 0 ? slope : 0;
	for (size_t i = 0; i < n; i++)
		v[i] = q[i].median - slope * (double)q[i].size;
	*os = cal_median(v, n);
	if (*os < 0) {
		/* An overhead is not negative: the line through 0 and the
		 * median of the sizes' ratios. */
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (q[i].size)
				v[m++] = q[i].median / (double)q[i].size;
		*os = 0;
		slope = m ? cal_median(v, m) : 0;
		slope = slope > 0 ? slope : 0;
	}
	*per_byte = slope;
	free(v);
	return 0;
}

/*
 * The ranges of pair p from its fit.  A range's send overhead is what
 * posting an MPI_Isend costs the sender in a stream (the probe's
 * "isend"), as a line through its sizes: os + n * os_per_byte (LogGOPS's
 * o and O), since posting copies the data into the transport.  A
 * blocking MPI_Send's time ("os") also waits for the send to complete:
 * charged to every send, it bounded osu_bw's stream of MPI_Isend of 257 B
 * to 4 KiB by one figure, 22% above the real rate at 512 B.  Samples
 * without "isend" (a probe before it) take the blocking send's median
 * at the range's first sizes, without a part per byte.
 */
static void make_pieces(calib_data *d, int p)
{
	const calib_summary *pp = &d->sum[CK_PP][p];
	const cal_fit *f = &d->fit[p];

	d->npieces[p] = f->n;
	for (int s = 0; s < f->n; s++) {
		const cal_segment *g = &f->seg[s];
		calib_piece *c = &d->pieces[p][s];
		uint64_t lo = pp->p[g->i0].size, hi = pp->p[g->i1].size;
		double os = -1, osb = 0;
		double orr = median_between(&d->sum[CK_OR][p], lo, hi, 3);
		/* cal_segfit holds a >= 0: a latency. */
		double a = g->a, b = g->b;

		if (line_between(&d->sum[CK_ISEND][p], lo, hi, &os, &osb))
			os = median_between(d->sum[CK_ISEND][p].n ?
					    &d->sum[CK_ISEND][p] :
					    &d->sum[CK_OS][p], lo, hi, 3);
		os = os > 0 ? os : 0;
		orr = orr > 0 ? orr : 0;
		/* The part per byte is the sender's share of the line's:
		 * what is left of it is the transfer's.  In whole ps a byte,
		 * as the machine file writes it. */
		osb = round((osb < b ? osb : b) * 1e12) / 1e12;
		if (osb > b)
			osb -= 1e-12;
		if (os + orr > a) {
			/* The overheads cannot exceed the intercept: scale
			 * them into it, keeping their ratio. */
			double k = os + orr > 0 ? a / (os + orr) : 0;

			os *= k;
			orr *= k;
		}
		c->from = s == 0 ? 0 : lo;
		c->a = a;
		c->b = b;
		c->os = os;
		c->os_per_byte = osb;
		c->or = orr;
		c->latency = a - os - orr > 0 ? a - os - orr : 0;
		/* A flat segment moves bytes for free: 1 EB/s. */
		c->bandwidth = b - osb > 1e-18 ? 1 / (b - osb) : 1e18;
	}
}

/*
 * Segments through the medians of s (zero medians, below the timer, at
 * 1 ps so that they can weigh).  The model must hold at every size, not
 * on average: the fewest segments within CALIB_MAX_REL of every median.
 * The segments' x0 become their first sizes (0 for the first, the
 * tables' "from").  0, -1 (out of memory, said), or 1 with err set.
 */
static int fit_medians(const calib_summary *s, cal_fit *f, char *err,
		       size_t errlen)
{
	double *x = malloc(s->n * sizeof *x), *y = malloc(s->n * sizeof *y);
	int rc;

	if (!x || !y) {
		free(x);
		free(y);
		tool_error("out of memory fitting");
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		x[i] = (double)s->p[i].size;
		y[i] = s->p[i].median > 1e-12 ? s->p[i].median : 1e-12;
	}
	rc = cal_segfit_within(x, y, s->n, CAL_MAX_SEGMENTS, CALIB_MAX_REL, f,
			       err, errlen) ? 1 : 0;
	for (int k = 0; !rc && k < f->n; k++)
		f->seg[k].x0 = k ? x[f->seg[k].i0] : 0;
	free(x);
	free(y);
	return rc;
}

int calib_fit(calib_data *d)
{
	char err[512];

	int rc0 = choose_regimes(d);

	if (rc0)
		return rc0;
	for (int k = 0; k < CK_N; k++)
		for (int p = 0; p < CP_N; p++)
			if (d->s[k][p].n &&
			    summarize(&d->s[k][p], &d->sum[k][p])) {
				tool_error("out of memory summarizing the "
					   "samples");
				return -1;
			}
	for (int p = 0; p < CP_N; p++) {
		int rc;

		if (!d->sum[CK_PP][p].n)
			continue;
		if ((rc = fit_medians(&d->sum[CK_PP][p], &d->fit[p], err,
				      sizeof err))) {
			if (rc > 0)
				tool_error("%s-node ping-pong: %s",
					   calib_pair_names[p], err);
			return -1;
		}
		make_pieces(d, p);
		/* The stream's turns: MPI's protocols change its rate too. */
		d->stream_n[p] = 0;
		if (d->sum[CK_STREAM][p].n >= CAL_MIN_POINTS) {
			if ((rc = fit_medians(&d->sum[CK_STREAM][p],
					      &d->stream[p], err, sizeof err)) < 0)
				return -1;
			if (!rc)
				d->stream_n[p] = d->sum[CK_STREAM][p].n;
		}
	}
	for (size_t i = 0; i < d->ncores; i++) {
		double *tmp = malloc(d->cores[i].n * sizeof *tmp + 1);

		if (!tmp)
			return -1;
		memcpy(tmp, d->cores[i].sec, d->cores[i].n * sizeof *tmp);
		d->cores[i].median = cal_median(tmp, d->cores[i].n);
		free(tmp);
	}
	d->copy_bw = 0;
	for (size_t i = 0; i < d->sum[CK_COPY][0].n; i++) {
		const calib_point *pt = &d->sum[CK_COPY][0].p[i];

		/* Beyond the caches: the largest size measured. */
		if (pt->median > 0)
			d->copy_bw = (double)pt->size / pt->median;
	}
	return 0;
}

/* The model's one-way time of n bytes for pair p (after calib_fit). */
double calib_model_time(const calib_data *d, int p, uint64_t n)
{
	int s = 0;

	while (s + 1 < d->npieces[p] && n >= d->pieces[p][s + 1].from)
		s++;
	const calib_piece *c = &d->pieces[p][s];

	return c->os + (double)n * c->os_per_byte + c->latency +
	       (double)n / c->bandwidth + c->or;
}
