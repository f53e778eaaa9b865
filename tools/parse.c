/*
 * parse.c -- the `sibyl' driver's parsers of option values: counts,
 * sizes, times and fractions (through base/sib_units.h, as the machine
 * description reads its values) and range lists of ranks or cores.
 * See tools.h.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>	/* isfinite */
#include <stdlib.h>
#include <string.h>

#include "sib_units.h"
#include "tools.h"

/* ------------------------------------------------------------- numbers */

/*
 * Counts and sizes are read by base/sib_units.h's parser, as the machine
 * description's values are: exactly, exponents allowed ("1e3"), at most
 * SIB_MAX_DIGITS significant digits, blanks allowed before the unit.
 */

/* The number at s, blanks skipped after it: 0, or -1 with a message. */
static int number(const char *what, const char *s, const char *example,
		  sib_dec *d, const char **unit)
{
	switch (sib_parse_dec(s, unit, d)) {
	case SIB_OK:
		while (**unit == ' ' || **unit == '\t')
			(*unit)++;
		return 0;
	case SIB_EDIGITS:
		tool_error("%s: '%s' has more than %d significant digits", what,
			   s, SIB_MAX_DIGITS);
		return -1;
	default:
		tool_error("%s: '%s' is not %s", what, s, example);
		return -1;
	}
}

/* d x 10^e10 x 2^e2 as a whole number: 0, or -1 with a message. */
static int whole(const char *what, const char *s, const char *of,
		 const sib_dec *d, int e10, int e2, uint64_t *out)
{
	switch (sib_dec_scale(d, e10, e2, 1, UINT64_MAX, SIB_EXACT, out)) {
	case SIB_OK:
		return 0;
	case SIB_EFRACTION:
		tool_error("%s: '%s' is not a whole number%s", what, s, of);
		return -1;
	default:
		tool_error("%s: '%s' is too large", what, s);
		return -1;
	}
}

int tool_parse_u64(const char *what, const char *s, uint64_t *out)
{
	const char *u;
	sib_dec d;
	int e10, e2;

	if (number(what, s, "a non-negative integer (e.g. 1000, 64k, 1Mi)",
		   &d, &u))
		return -1;
	if (sib_count_unit(u, &e10, &e2)) {
		tool_error("%s: unknown suffix '%s' in '%s' "
			   "(use k, M, G, T, P or Ki, Mi, Gi, Ti, Pi)", what, u,
			   s);
		return -1;
	}
	return whole(what, s, "", &d, e10, e2, out);
}

int tool_parse_size(const char *what, const char *s, uint64_t *out)
{
	const char *u;
	sib_dec d;
	int e10, e2, per_s;
	unsigned div;

	if (number(what, s, "a size (e.g. 512, 4kB, 2KiB, 1.5MiB)", &d, &u))
		return -1;
	/* Bytes, or a prefix alone (4k, 1Mi) for bytes too. */
	if (sib_count_unit(u, &e10, &e2) &&
	    (sib_size_unit(u, &e10, &e2, &div, &per_s) || per_s || div != 1)) {
		tool_error("%s: unknown size unit '%s' in '%s' (use B, kB, MB, "
			   "GB, TB, PB or KiB, MiB, GiB, TiB, PiB)", what, u, s);
		return -1;
	}
	return whole(what, s, " of bytes", &d, e10, e2, out);
}

int tool_parse_time(const char *what, const char *s, const char *default_unit,
	       sibt_time *out)
{
	const char *unit = NULL;
	int64_t ps;
	int bare = *default_unit ? sib_time_unit(default_unit) : -1;

	switch (sib_parse_ps(s, bare, SIB_EXACT, &ps, &unit)) {
	case SIB_OK:
		*out = (sibt_time)ps;
		return 0;
	case SIB_EUNIT:
		tool_error("%s: unknown time unit '%s' in '%s' (use "
			   SIB_TIME_UNITS ")", what, unit, s);
		return -1;
	case SIB_ENOUNIT:
		tool_error("%s: '%s' needs a unit (" SIB_TIME_UNITS ")", what,
			   s);
		return -1;
	case SIB_ERANGE:
		tool_error("%s: '%s' is too large (the limit is about 106 "
			   "days)", what, s);
		return -1;
	case SIB_EDIGITS:
		tool_error("%s: '%s' has more than %d significant digits", what,
			   s, SIB_MAX_DIGITS);
		return -1;
	case SIB_EFRACTION:
		tool_error("%s: '%s' is not a whole number of picoseconds",
			   what,
			   s);
		return -1;
	default:
		tool_error("%s: '%s' is not a time (e.g. 100ns, 2.5us, 1ms)",
			   what, s);
		return -1;
	}
}

int tool_parse_double(const char *what, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0') {
		tool_error("%s: '%s' is not a number", what, s);
		return -1;
	}
	if (errno == ERANGE || !isfinite(v)) {
		tool_error("%s: '%s' is out of range", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* -------------------------------------------------------------- ranges */

struct span {
	uint64_t lo, hi;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/* A plain decimal number at *p; advances *p.  -1 when there is none. */
static int scan_plain(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		s++;
	}
	*p = s;
	*v = x;
	return 0;
}

int tool_range_parse(const char *what, const char *s, uint64_t limit,
		tool_range_list *out)
{
	struct span *sp = NULL;
	size_t n = 0, cap = 0, i, m;
	const char *p = s;

	out->n = 0;
	out->r = NULL;
	if (limit == 0) {
		tool_error("%s: '%s' selects nothing: there are no items to "
			   "select", what, s);
		return -1;
	}
	if (strcmp(s, "all") == 0) {
		out->r = malloc(sizeof(*out->r));
		if (!out->r)
			goto nomem;
		out->r[0].lo = 0;
		out->r[0].hi = limit - 1;
		out->n = 1;
		return 0;
	}
	for (;;) {
		uint64_t lo, hi;
		const char *item = p;

		if (scan_plain(&p, &lo) < 0)
			goto syntax;
		hi = lo;
		if (*p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				hi = limit - 1;	/* open end: "5-" */
			else if (scan_plain(&p, &hi) < 0)
				goto syntax;
		}
		if (*p != ',' && *p != '\0')
			goto syntax;
		if (lo > hi) {
			tool_error("%s: '%.*s'%s%s%s is an empty range (start "
				   "after end)", what, (int)(p - item), item,
				   item == s && !*p ? "" : " in '",
				   item == s && !*p ? "" : s,
				   item == s && !*p ? "" : "'");
			goto fail;
		}
		if (hi >= limit) {
			tool_error("%s: %" PRIu64 "%s%s%s is out of range "
				   "(valid: 0-%" PRIu64 ")", what, hi,
				   item == s && !*p ? "" : " in '",
				   item == s && !*p ? "" : s,
				   item == s && !*p ? "" : "'", limit - 1);
			goto fail;
		}
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct span *nsp = realloc(sp, ncap * sizeof(*sp));

			if (!nsp)
				goto nomem;
			sp = nsp;
			cap = ncap;
		}
		sp[n].lo = lo;
		sp[n].hi = hi;
		n++;
		if (*p == '\0')
			break;
		p++;
	}

	qsort(sp, n, sizeof(*sp), span_cmp);
	for (i = 1, m = 0; i < n; i++) {
		if (sp[i].lo <= sp[m].hi ||
		    (sp[m].hi != UINT64_MAX && sp[i].lo == sp[m].hi + 1)) {
			if (sp[i].hi > sp[m].hi)
				sp[m].hi = sp[i].hi;
		} else {
			sp[++m] = sp[i];
		}
	}
	m++;
	out->r = malloc(m * sizeof(*out->r));
	if (!out->r)
		goto nomem;
	for (i = 0; i < m; i++) {
		out->r[i].lo = sp[i].lo;
		out->r[i].hi = sp[i].hi;
	}
	out->n = m;
	free(sp);
	return 0;

syntax:
	tool_error("%s: cannot parse '%s' at position %zu: expected a list "
		   "like 0-15,32,40- or 'all'", what, s, (size_t)(p - s) + 1);
	goto fail;
nomem:
	tool_error("%s: out of memory", what);
fail:
	free(sp);
	return -1;
}

int tool_range_contains(const tool_range_list *rl, uint64_t v)
{
	size_t lo = 0, hi = rl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v < rl->r[mid].lo)
			hi = mid;
		else if (v > rl->r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

void tool_range_free(tool_range_list *rl)
{
	free(rl->r);
	rl->r = NULL;
	rl->n = 0;
}
