/*
 * sib_units.c -- the units of Sibyl's inputs, and the one parser of a
 * value with a unit (sib_units.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <string.h>

#include "sib_units.h"

typedef unsigned __int128 u128;

static const struct {
	const char *name;
	int e10;
} time_units[] = {
	{ "ps", 0 },
	{ "ns", 3 },
	{ "us", 6 },
	{ "\xc2\xb5s", 6 },     /* U+00B5 MICRO SIGN */
	{ "\xce\xbcs", 6 },     /* U+03BC GREEK SMALL LETTER MU */
	{ "ms", 9 },
	{ "s", 12 },
};

int sib_time_unit(const char *name)
{
	for (size_t i = 0; i < sizeof time_units / sizeof time_units[0]; i++)
		if (strcmp(name, time_units[i].name) == 0)
			return time_units[i].e10;
	return -1;
}

int sib_parse_dec(const char *text, const char **end, sib_dec *d)
{
	const char *s = text;
	u128 mant = 0;
	int nsig = 0, pend = 0, ndig = 0, frac = 0;
	long exp = 0;

	for (;; s++) {
		if (*s == '.' && !frac) {
			frac = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		ndig++;
		if (frac)
			exp--;
		if (*s == '0') {
			/* Zeros are held back: leading ones do not count,
			 * trailing ones become exponent. */
			if (mant)
				pend++;
			continue;
		}
		if (nsig + pend + 1 > SIB_DEC_DIGITS)
			return SIB_EDIGITS;
		for (; pend; pend--, nsig++)
			mant *= 10;
		mant = mant * 10 + (unsigned)(*s - '0');
		nsig++;
	}
	if (!ndig)
		return SIB_ESYNTAX;
	exp += pend;
	if ((*s == 'e' || *s == 'E') &&
	    ((s[1] >= '0' && s[1] <= '9') ||
	     ((s[1] == '+' || s[1] == '-') && s[2] >= '0' && s[2] <= '9'))) {
		int neg = 0;
		long e = 0;
		s++;
		if (*s == '+' || *s == '-')
			neg = *s++ == '-';
		/* Clamped: anything this large is out of range or not whole
		 * anyway, and the clamp keeps exp + e from wrapping. */
		for (; *s >= '0' && *s <= '9'; s++)
			if (e < 100000)
				e = e * 10 + (*s - '0');
		exp += neg ? -e : e;
	}
	d->mant = mant;
	d->exp = mant ? (int)exp : 0;
	d->digits = nsig;
	*end = s;
	return SIB_OK;
}

int sib_dec_scale(const sib_dec *d, int e10, int e2, unsigned div,
		  uint64_t max, enum sib_rounding mode, uint64_t *out)
{
	u128 num, den = div ? div : 1, limit = (u128)max * den;
	int e = d->exp + e10;

	if (!d->mant) {
		*out = 0;
		return SIB_OK;
	}
	if (e2 && d->mant > (~(u128)0 >> (e2 + 4)))
		return SIB_ERANGE;      /* 38 digits and a binary prefix */
	num = d->mant << e2;            /* < 10^38 < 2^127 */
	if (e >= 0) {
		for (; e > 0; e--) {
			if (num > limit)
				return SIB_ERANGE;
			num *= 10;
		}
	} else if (-e > (den == 1 ? 38 : 37)) {
		/* Below 0.125 of the result's unit: num < 10^38, and
		 * 10^38 x 8 would not fit in den. */
		if (mode == SIB_EXACT)
			return SIB_EFRACTION;
		*out = 0;
		return SIB_OK;
	} else {
		for (; e < 0; e++)
			den *= 10;      /* <= 10^38 or 8 x 10^37: < 2^127 */
	}
	u128 q = num / den, r = num % den;
	if (r && mode == SIB_EXACT)
		return SIB_EFRACTION;
	if (r && r >= den - r)
		q++;                    /* halves up */
	if (q > max)
		return SIB_ERANGE;
	*out = (uint64_t)q;
	return SIB_OK;
}

/* An SI or binary prefix at *u ("k" or "K", "M", "G", "T", "P"; "Ki",
 * "Mi", "Gi", "Ti", "Pi"), *u moved past it; none is 10^0. */
static int prefix(const char **u, int *e10, int *e2)
{
	static const char prefixes[] = "KMGTP";
	const char *p;

	*e10 = *e2 = 0;
	if (!**u)
		return 0;
	p = **u == 'k' ? prefixes : strchr(prefixes, **u);
	if (!p)
		return 0;
	int n = (int)(p - prefixes) + 1;
	if ((*u)[1] == 'i' && **u != 'k') {
		*e2 = 10 * n;           /* Ki, Mi ... */
		*u += 2;
	} else {
		*e10 = 3 * n;           /* k, K, M ... */
		*u += 1;
	}
	return 1;
}

int sib_count_unit(const char *name, int *e10, int *e2)
{
	prefix(&name, e10, e2);
	return *name ? -1 : 0;
}

int sib_size_unit(const char *name, int *e10, int *e2, unsigned *div,
		  int *per_s)
{
	const char *u = name;

	*div = 1;
	*per_s = 0;
	prefix(&u, e10, e2);
	if (strncmp(u, "bit", 3) == 0) {
		*div = 8;
		u += 3;
	} else if (*u == 'b') {
		*div = 8;
		u++;
	} else if (*u == 'B') {
		u++;
	} else {
		return -1;
	}
	if (strcmp(u, "/s") == 0)
		*per_s = 1;
	else if (*u)
		return -1;
	return 0;
}

int sib_parse_ps(const char *text, int bare_e10, enum sib_rounding mode,
		 sib_ps *ps, const char **unit)
{
	const char *p;
	sib_dec d;
	uint64_t v;
	int rc, e10;

	if ((rc = sib_parse_dec(text, &p, &d)) != SIB_OK)
		return rc;
	if (d.digits > SIB_MAX_DIGITS)
		return SIB_EDIGITS;
	while (*p == ' ' || *p == '\t')
		p++;
	if (unit)
		*unit = p;
	if (!*p) {
		if (d.mant == 0)
			e10 = 0;                /* 0 needs no unit */
		else if (bare_e10 < 0)
			return SIB_ENOUNIT;
		else
			e10 = bare_e10;
	} else if ((e10 = sib_time_unit(p)) < 0) {
		return SIB_EUNIT;
	}
	if ((rc = sib_dec_scale(&d, e10, 0, 1, INT64_MAX, mode, &v)) != SIB_OK)
		return rc;
	*ps = (sib_ps)v;
	return SIB_OK;
}
