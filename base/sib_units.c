/*
 * sib_units.c -- the time units, and the one parser of a duration.
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

#define MAX_DIGITS 36           /* 10^36 < 2^120: m * 10 never wraps */

int sib_parse_ps(const char *text, int bare_e10, enum sib_rounding mode,
		 sib_ps *ps, const char **unit)
{
	const char *p = text;
	u128 m = 0;
	int digits = 0, significant = 0, frac = 0, e10;

	for (int in_frac = 0;; p++) {
		if (*p == '.' && !in_frac) {
			in_frac = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		if (m || *p != '0')
			significant++;
		if (significant > MAX_DIGITS)
			return SIB_ERANGE;
		m = m * 10 + (unsigned)(*p - '0');
		digits++;
		frac += in_frac;
	}
	if (!digits)
		return SIB_ESYNTAX;
	if (unit)
		*unit = p;
	if (!*p) {
		if (bare_e10 < 0)
			return SIB_ENOUNIT;
		e10 = bare_e10;
	} else if ((e10 = sib_time_unit(p)) < 0) {
		return SIB_EUNIT;
	}
	/* The value is m * 10^(e10 - frac) ps. */
	if (e10 >= frac) {
		for (int i = frac; i < e10; i++) {
			if (m > (u128)INT64_MAX)
				return SIB_ERANGE;
			m *= 10;
		}
	} else {
		u128 div = 1;
		for (int i = e10; i < frac; i++)
			div *= 10;      /* frac <= 36: div <= 10^36 */
		u128 q = m / div, r = m % div;
		if (r && mode == SIB_EXACT)
			return SIB_EFRACTION;
		if (r && r >= div - r)
			q++;
		m = q;
	}
	if (m > (u128)INT64_MAX)
		return SIB_ERANGE;
	*ps = (sib_ps)m;
	return SIB_OK;
}
