/*
 * sib_dist.c -- counter-based random numbers and distributions
 * (sib_dist.h).
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sib_dist.h"
#include "sib_err.h"
#include "sib_param.h"

/* ------------------------------------------------------------ random */

static uint64_t mix64(uint64_t z)
{
	z += 0x9E3779B97F4A7C15ull;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

uint64_t sib_rand_u64(uint64_t seed, uint64_t a, uint64_t b,
		      uint64_t stream)
{
	uint64_t h = mix64(seed);
	h = mix64(h ^ a);
	h = mix64(h ^ (b * 0xD1B54A32D192ED03ull));
	return mix64(h ^ (stream * 0xAEF17502108EF2D9ull));
}

double sib_rand_unit(uint64_t r)
{
	return ((double)(r >> 11) + 0.5) / 9007199254740992.0;
}

double sib_norm_cdf(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* Acklam's rational approximation (relative error 1.15e-9), refined by
 * one step of Halley's method on erfc. */
double sib_norm_quantile(double p)
{
	static const double a[] = { -3.969683028665376e+01,
		2.209460984245205e+02, -2.759285104469687e+02,
		1.383577518672690e+02, -3.066479806614716e+01,
		2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01,
		1.615858368580409e+02, -1.556989798598866e+02,
		6.680131188771972e+01, -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03,
		-3.223964580411365e-01, -2.400758277161838e+00,
		-2.549732539343734e+00, 4.374664141464968e+00,
		2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03,
		3.224671290700398e-01, 2.445134137142996e+00,
		3.754408661907416e+00 };
	double q, r, x;

	if (p <= 0)
		return -HUGE_VAL;
	if (p >= 1)
		return HUGE_VAL;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		     q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) *
				  q + 1);
	} else if (p > 1 - 0.02425) {
		q = sqrt(-2 * log(1 - p));
		x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) *
		      q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) *
				   q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) *
		     r + a[5]) * q / (((((b[0] * r + b[1]) * r + b[2]) * r +
					b[3]) * r + b[4]) * r + 1);
	}
	double e = sib_norm_cdf(x) - p;
	double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

/* ------------------------------------------------------ distributions */

void sib_dist_free(sib_dist *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; d->kind == SIB_DIST_MIX && d->c && i < d->n; i++)
		sib_dist_free(&d->c[i]);
	free(d->x);
	free(d->f);
	free(d->w);
	free(d->c);
	memset(d, 0, sizeof *d);
}

static double *dup_doubles(const double *v, uint32_t n)
{
	double *r = malloc((n ? n : 1) * sizeof *r);
	if (r && n)
		memcpy(r, v, n * sizeof *r);
	return r;
}

int sib_dist_copy(sib_dist *to, const sib_dist *from)
{
	*to = *from;
	to->x = to->f = to->w = NULL;
	to->c = NULL;
	if (from->kind == SIB_DIST_EMPIRICAL) {
		to->x = dup_doubles(from->x, from->n);
		to->f = dup_doubles(from->f, from->n);
		if (!to->x || !to->f)
			goto out_nomem;
	} else if (from->kind == SIB_DIST_MIX) {
		to->w = dup_doubles(from->w, from->n);
		to->c = calloc(from->n, sizeof *to->c);
		if (!to->w || !to->c)
			goto out_nomem;
		for (uint32_t i = 0; i < from->n; i++)
			if (sib_dist_copy(&to->c[i], &from->c[i]))
				goto out_nomem;
	}
	return 0;
out_nomem:
	to->kind = from->kind == SIB_DIST_MIX ? SIB_DIST_MIX : to->kind;
	sib_dist_free(to);
	return -1;
}

/* Inverse of an empirical CDF: the smallest point where F reaches u,
 * linear inside a rising step. */
static double empirical_quantile(const sib_dist *d, double u)
{
	uint32_t lo = 0, hi = d->n - 1;
	if (u <= d->f[0])
		return d->x[0];
	while (hi - lo > 1) {               /* f[lo] < u <= f[hi] */
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->f[mid] < u)
			lo = mid;
		else
			hi = mid;
	}
	double df = d->f[hi] - d->f[lo];
	return d->x[lo] + (d->x[hi] - d->x[lo]) * (u - d->f[lo]) / df;
}

static double sample_one(const sib_dist *d, double u)
{
	switch (d->kind) {
	case SIB_DIST_FIXED:
		return d->a;
	case SIB_DIST_NORMAL:
		return d->a + d->b * sib_norm_quantile(u);
	case SIB_DIST_LOGNORMAL:
		return d->a * exp(d->b * sib_norm_quantile(u));
	case SIB_DIST_UNIFORM:
		return d->a + (d->b - d->a) * u;
	case SIB_DIST_EMPIRICAL:
		return empirical_quantile(d, u);
	case SIB_DIST_MIX:
		break;
	}
	return 0;
}

double sib_dist_sample(const sib_dist *d, const double u[2])
{
	double v;
	if (d->kind == SIB_DIST_MIX) {
		uint32_t i = 0;
		while (i + 1 < d->n && u[1] > d->w[i])
			i++;
		v = sample_one(&d->c[i], u[0]);
	} else {
		v = sample_one(d, u[0]);
	}
	return v > 0 ? v : 0;
}

double sib_dist_cdf(const sib_dist *d, double x)
{
	switch (d->kind) {
	case SIB_DIST_FIXED:
		return x >= d->a;
	case SIB_DIST_NORMAL:
		return d->b > 0 ? sib_norm_cdf((x - d->a) / d->b) : x >= d->a;
	case SIB_DIST_LOGNORMAL:
		if (x <= 0)
			return 0;
		return d->b > 0 ? sib_norm_cdf(log(x / d->a) / d->b) :
		       x >= d->a;
	case SIB_DIST_UNIFORM:
		return x <= d->a ? 0 : x >= d->b ? 1 :
		       (x - d->a) / (d->b - d->a);
	case SIB_DIST_EMPIRICAL:
		if (x < d->x[0])
			return 0;
		for (uint32_t i = 1; i < d->n; i++)
			if (x < d->x[i])
				return d->f[i - 1] + (d->f[i] - d->f[i - 1]) *
				       (x - d->x[i - 1]) /
				       (d->x[i] - d->x[i - 1]);
		return 1;
	case SIB_DIST_MIX: {
		double s = 0, prev = 0;
		for (uint32_t i = 0; i < d->n; i++) {
			s += (d->w[i] - prev) * sib_dist_cdf(&d->c[i], x);
			prev = d->w[i];
		}
		return s;
	}
	}
	return 0;
}

double sib_dist_mean(const sib_dist *d)
{
	double s = 0, prev = 0;
	switch (d->kind) {
	case SIB_DIST_FIXED:
	case SIB_DIST_NORMAL:
		return d->a;
	case SIB_DIST_LOGNORMAL:
		return d->a * exp(d->b * d->b / 2);
	case SIB_DIST_UNIFORM:
		return (d->a + d->b) / 2;
	case SIB_DIST_EMPIRICAL:
		for (uint32_t i = 1; i < d->n; i++)
			s += (d->f[i] - d->f[i - 1]) * (d->x[i] + d->x[i - 1]) / 2;
		return s + d->f[0] * d->x[0];
	case SIB_DIST_MIX:
		for (uint32_t i = 0; i < d->n; i++) {
			s += (d->w[i] - prev) * sib_dist_mean(&d->c[i]);
			prev = d->w[i];
		}
		return s;
	}
	return 0;
}

int sib_dist_check(const sib_dist *d, char *err, size_t errlen)
{
	switch (d->kind) {
	case SIB_DIST_FIXED:
		if (!(d->a >= 0))
			return sib_errf(err, errlen, "fixed(V): V must not be "
					"negative");
		return 0;
	case SIB_DIST_NORMAL:
	case SIB_DIST_LOGNORMAL:
		if (d->kind == SIB_DIST_LOGNORMAL && !(d->a > 0))
			return sib_errf(err, errlen, "lognormal(MEDIAN, "
					"SIGMA): MEDIAN must be greater than 0");
		if (!(d->b >= 0) || !isfinite(d->a) || !isfinite(d->b))
			return sib_errf(err, errlen, "%s: the spread must be "
					"a finite number of at least 0",
					d->kind == SIB_DIST_NORMAL ?
					"normal(MEAN, SD)" :
					"lognormal(MEDIAN, SIGMA)");
		return 0;
	case SIB_DIST_UNIFORM:
		if (!(d->a >= 0 && d->b >= d->a && isfinite(d->b)))
			return sib_errf(err, errlen, "uniform(LO, HI): need "
					"0 <= LO <= HI");
		return 0;
	case SIB_DIST_EMPIRICAL:
		if (d->n < 2 || d->n > SIB_DIST_MAX_POINTS)
			return sib_errf(err, errlen, "an empirical CDF needs 2 "
					"to %d points (1 to 100 bins), not %u",
					SIB_DIST_MAX_POINTS, d->n);
		for (uint32_t i = 0; i < d->n; i++) {
			if (!(d->x[i] >= 0) || !isfinite(d->x[i]) ||
			    !(d->f[i] >= 0 && d->f[i] <= 1))
				return sib_errf(err, errlen, "empirical CDF, "
						"point %u: need a value of at "
						"least 0 and a probability in "
						"[0, 1]", i + 1);
			if (i && (d->x[i] < d->x[i - 1] ||
				  d->f[i] <= d->f[i - 1]))
				return sib_errf(err, errlen, "empirical CDF, "
						"point %u: the values must not "
						"fall and the probabilities "
						"must rise", i + 1);
		}
		if (d->f[0] != 0 || d->f[d->n - 1] != 1)
			return sib_errf(err, errlen, "an empirical CDF starts "
					"at probability 0 and ends at 1");
		return 0;
	case SIB_DIST_MIX:
		for (uint32_t i = 0; i < d->n; i++)
			if (sib_dist_check(&d->c[i], err, errlen))
				return -1;
		return 0;
	}
	return sib_errf(err, errlen, "unknown kind of distribution");
}

/* ------------------------------------------------------------ parse */

typedef struct pctx {
	const char *text;   /* the whole text, for messages */
	int time;
	char *err;
	size_t errlen;
} pctx;

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* One number (time: a duration with its unit, in ps), the text from s
 * up to the first ',', ')' or `stop' character, blanks trimmed. */
static int parse_num(pctx *c, const char **sp, int time, const char *stop,
		     double *out)
{
	const char *s = skip_ws(*sp), *e = s;
	char tok[64], msg[256];
	while (*e && *e != ',' && *e != ')' && !strchr(stop, *e))
		e++;
	size_t n = (size_t)(e - s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || n >= sizeof tok)
		return sib_errf(c->err, c->errlen, "'%s': a number is missing "
				"or too long near '%.20s'", c->text, s);
	memcpy(tok, s, n);
	tok[n] = '\0';
	*sp = e;
	if (time) {
		static const sib_param tp = { "value", SIB_P_TIME, "0", NULL,
					      "" };
		sib_value v;
		if (sib_parse_value(&tp, "a duration", tok, &v, msg,
				    sizeof msg))
			return sib_errf(c->err, c->errlen, "'%s': %s", c->text,
					msg);
		*out = (double)v.i;
		return 0;
	}
	char *end;
	*out = strtod(tok, &end);
	if (*end || !isfinite(*out))
		return sib_errf(c->err, c->errlen, "'%s': '%s' is not a number "
				"(a factor or a probability has no unit)",
				c->text, tok);
	return 0;
}

static int expect(pctx *c, const char **sp, char ch)
{
	const char *s = skip_ws(*sp);
	if (*s != ch)
		return sib_errf(c->err, c->errlen, "'%s': expected '%c' near "
				"'%.20s'", c->text, ch, s);
	*sp = s + 1;
	return 0;
}

/* After an argument: 1 after ',' (another comes), 0 after ')'. */
static int next_arg(pctx *c, const char **sp)
{
	const char *s = skip_ws(*sp);
	if (*s == ',' || *s == ')') {
		*sp = s + 1;
		return *s == ',';
	}
	return sib_errf(c->err, c->errlen, "'%s': expected ',' or ')' near "
			"'%.20s'", c->text, s);
}

static int parse_points(pctx *c, const char **sp, sib_dist *d)
{
	d->x = malloc(SIB_DIST_MAX_POINTS * sizeof *d->x);
	d->f = malloc(SIB_DIST_MAX_POINTS * sizeof *d->f);
	if (!d->x || !d->f)
		return sib_errf(c->err, c->errlen, "out of memory");
	for (;;) {
		if (d->n == SIB_DIST_MAX_POINTS)
			return sib_errf(c->err, c->errlen, "'%s': an empirical "
					"CDF has at most %d points (100 bins)",
					c->text, SIB_DIST_MAX_POINTS);
		if (parse_num(c, sp, c->time, ":", &d->x[d->n]) ||
		    expect(c, sp, ':') ||
		    parse_num(c, sp, 0, "", &d->f[d->n]))
			return -1;
		d->n++;
		int r = next_arg(c, sp);
		if (r <= 0)
			return r;
	}
}

static int parse_one(pctx *c, const char **sp, sib_dist *d, int nested);

static int parse_mix(pctx *c, const char **sp, sib_dist *d)
{
	d->w = calloc(SIB_DIST_MAX_MIX, sizeof *d->w);
	d->c = calloc(SIB_DIST_MAX_MIX, sizeof *d->c);
	if (!d->w || !d->c)
		return sib_errf(c->err, c->errlen, "out of memory");
	double sum = 0;
	for (;;) {
		if (d->n == SIB_DIST_MAX_MIX)
			return sib_errf(c->err, c->errlen, "'%s': a mixture has "
					"at most %d components", c->text,
					SIB_DIST_MAX_MIX);
		double w;
		const char *s = skip_ws(*sp);
		char *end;
		w = strtod(s, &end);
		if (end == s || !(w > 0) || !isfinite(w))
			return sib_errf(c->err, c->errlen, "'%s': each component "
					"of mix() starts with a weight greater "
					"than 0, e.g. mix(0.7 normal(1ms, 10us), "
					"0.3 normal(2ms, 10us))", c->text);
		*sp = end;
		sum += w;
		d->w[d->n] = sum;
		if (parse_one(c, sp, &d->c[d->n++], 1))
			return -1;
		int r = next_arg(c, sp);
		if (r <= 0) {
			for (uint32_t i = 0; !r && i < d->n; i++)
				d->w[i] /= sum;
			d->w[d->n - 1] = 1;
			return r;
		}
	}
}

static int parse_one(pctx *c, const char **sp, sib_dist *d, int nested)
{
	static const struct { const char *name; sib_dist_kind k; int n; }
	kinds[] = {
		{ "fixed", SIB_DIST_FIXED, 1 },
		{ "normal", SIB_DIST_NORMAL, 2 },
		{ "lognormal", SIB_DIST_LOGNORMAL, 2 },
		{ "uniform", SIB_DIST_UNIFORM, 2 },
		{ "empirical", SIB_DIST_EMPIRICAL, 0 },
		{ "mix", SIB_DIST_MIX, 0 },
	};
	const char *s = skip_ws(*sp), *e = s;
	size_t k;
	while (isalpha((unsigned char)*e))
		e++;
	for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if ((size_t)(e - s) == strlen(kinds[k].name) &&
		    !strncmp(s, kinds[k].name, (size_t)(e - s)))
			break;
	if (k == sizeof kinds / sizeof kinds[0] ||
	    (nested && kinds[k].k == SIB_DIST_MIX))
		return sib_errf(c->err, c->errlen, "'%s': unknown distribution "
				"near '%.20s': say fixed(V), normal(MEAN, SD), "
				"lognormal(MEDIAN, SIGMA), uniform(LO, HI), "
				"empirical(X:F, ...)%s", c->text, s,
				nested ? "" : " or mix(W DIST, ...)");
	memset(d, 0, sizeof *d);
	d->kind = kinds[k].k;
	*sp = e;
	if (expect(c, sp, '('))
		return -1;
	if (d->kind == SIB_DIST_EMPIRICAL)
		return parse_points(c, sp, d);
	if (d->kind == SIB_DIST_MIX)
		return parse_mix(c, sp, d);
	/* lognormal's SIGMA has no unit; uniform's HI has its LO's */
	if (parse_num(c, sp, c->time, "", &d->a))
		return -1;
	if (kinds[k].n == 2 &&
	    (expect(c, sp, ',') ||
	     parse_num(c, sp, c->time && d->kind != SIB_DIST_LOGNORMAL, "",
		       &d->b)))
		return -1;
	return expect(c, sp, ')');
}

int sib_dist_parse(sib_dist *d, const char *text, int time, char *err,
		   size_t errlen)
{
	pctx c = { text, time, err, errlen };
	const char *s = text;
	char msg[512];

	memset(d, 0, sizeof *d);
	if (parse_one(&c, &s, d, 0))
		goto out_free;
	s = skip_ws(s);
	if (*s) {
		sib_errf(err, errlen, "'%s': unexpected text after the "
			 "distribution: '%.20s'", text, s);
		goto out_free;
	}
	if (sib_dist_check(d, msg, sizeof msg)) {
		sib_errf(err, errlen, "'%s': %s", text, msg);
		goto out_free;
	}
	return 0;
out_free:
	sib_dist_free(d);
	return -1;
}

/* ------------------------------------------------------------ write */

static void put_num(FILE *f, double v, int time)
{
	if (time)
		fprintf(f, "%.0fps", v);
	else
		fprintf(f, "%.17g", v);
}

void sib_dist_write(FILE *f, const sib_dist *d, int time)
{
	static const char *const names[] = {
		[SIB_DIST_FIXED] = "fixed", [SIB_DIST_NORMAL] = "normal",
		[SIB_DIST_LOGNORMAL] = "lognormal",
		[SIB_DIST_UNIFORM] = "uniform",
		[SIB_DIST_EMPIRICAL] = "empirical", [SIB_DIST_MIX] = "mix",
	};
	double prev = 0;
	fprintf(f, "%s(", names[d->kind]);
	switch (d->kind) {
	case SIB_DIST_FIXED:
		put_num(f, d->a, time);
		break;
	case SIB_DIST_NORMAL:
	case SIB_DIST_LOGNORMAL:
	case SIB_DIST_UNIFORM:
		put_num(f, d->a, time);
		fputs(", ", f);
		put_num(f, d->b, time && d->kind != SIB_DIST_LOGNORMAL);
		break;
	case SIB_DIST_EMPIRICAL:
		for (uint32_t i = 0; i < d->n; i++) {
			fputs(i ? ", " : "", f);
			put_num(f, d->x[i], time);
			fprintf(f, ":%.17g", d->f[i]);
		}
		break;
	case SIB_DIST_MIX:
		for (uint32_t i = 0; i < d->n; i++) {
			fprintf(f, "%s%.17g ", i ? ", " : "", d->w[i] - prev);
			prev = d->w[i];
			sib_dist_write(f, &d->c[i], time);
		}
		break;
	}
	fputc(')', f);
}
