/*
 * sib_value.c -- the one parser of a configuration value (sib_param.h):
 * the text of a duration, a bandwidth, a size, an integer, an exact
 * ratio, a yes/no value, a choice or a string, as the machine
 * description, the network models' own tables and the command line
 * write them.  Every unit comes from the tables of sib_units.c.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sib_err.h"
#include "sib_param.h"
#include "sib_text.h"
#include "sib_units.h"

/*
 * Numbers are parsed exactly, never through a double, by the one parser
 * of base/sib_units.h: "1.5ns" is 1500 ps and "0.1s" exactly 10^11 ps.
 */
/* d as a fraction n/den (not reduced); SIB_EDIGITS when it cannot be held. */
static int dec_to_frac(const sib_dec *d, unsigned __int128 *n,
		       unsigned __int128 *den)
{
	if (d->digits > SIB_MAX_DIGITS)
		return SIB_EDIGITS;
	*n = d->mant;
	*den = 1;
	if (d->exp > 0) {
		for (int e = 0; e < d->exp; e++) {
			if (*n > INT64_MAX)
				return SIB_ERANGE;
			*n *= 10;
		}
	} else if (d->exp < 0) {
		if (d->exp < -36)
			return SIB_EDIGITS;
		for (int e = 0; e > d->exp; e--)
			*den *= 10;
	}
	return SIB_OK;
}

/* What a value of type t is, and how to write one, for error messages. */
static const char *type_what(sib_ptype t)
{
	switch (t) {
	case SIB_P_TIME: return "a duration";
	case SIB_P_BW: return "a bandwidth";
	case SIB_P_SIZE: return "a size";
	case SIB_P_INT: return "an integer";
	case SIB_P_RATIO: return "a ratio";
	case SIB_P_BOOL: return "a yes/no value";
	case SIB_P_ENUM: return "one of the choices";
	case SIB_P_STRING: return "a string";
	}
	return "valid";
}

static const char *type_example(sib_ptype t)
{
	switch (t) {
	case SIB_P_TIME: return "write e.g. 1us, 250ns or 1.5ms";
	case SIB_P_BW: return "write e.g. 24GB/s or 5GiB/s";
	case SIB_P_SIZE: return "write e.g. 4096, 4KiB or 2MB";
	case SIB_P_INT: return "write a whole number, e.g. 16";
	case SIB_P_RATIO: return "write e.g. 1.25, 3/4 or 2";
	case SIB_P_BOOL: return "write yes, no, true, false, on, off, 1 or 0";
	default: return "see docs/machine.md";
	}
}

static const char *unit_name(sib_ptype t)
{
	switch (t) {
	case SIB_P_TIME: return "picoseconds";
	case SIB_P_BW: return "bytes/s";
	case SIB_P_SIZE: return "bytes";
	default: return "units";
	}
}

/* Parse a RATIO "1.25", "3/4", "2" into n/d, reduced. */
static int parse_ratio(const char *s, int64_t *num, int64_t *den)
{
	typedef unsigned __int128 u128;
	const char *end;
	sib_dec a, b;
	u128 an, ad, bn = 1, bd = 1;
	int rc;

	if ((rc = sib_parse_dec(s, &end, &a)) != SIB_OK)
		return rc;
	while (sib_is_space(*end))
		end++;
	if (*end == '/') {
		s = end + 1;
		while (sib_is_space(*s))
			s++;
		if ((rc = sib_parse_dec(s, &end, &b)) != SIB_OK)
			return rc;
		while (sib_is_space(*end))
			end++;
		if ((rc = dec_to_frac(&b, &bn, &bd)) != SIB_OK)
			return rc;
		if (bn == 0)
			return SIB_ESYNTAX;
	}
	if (*end)
		return SIB_ESYNTAX;
	if ((rc = dec_to_frac(&a, &an, &ad)) != SIB_OK)
		return rc;
	/* (an/ad) / (bn/bd): every factor < 10^37, check before multiplying. */
	u128 g1 = sib_gcd128(an, bn), g2 = sib_gcd128(ad, bd);
	if (g1 > 1) {
		an /= g1;
		bn /= g1;
	}
	if (g2 > 1) {
		ad /= g2;
		bd /= g2;
	}
	if (an > UINT64_MAX || bd > UINT64_MAX || ad > UINT64_MAX ||
	    bn > UINT64_MAX)
		return SIB_EDIGITS;
	u128 n = an * bd, d = ad * bn;
	u128 g = sib_gcd128(n, d);
	if (g > 1) {
		n /= g;
		d /= g;
	}
	if (!n)
		d = 1;
	if (n > INT64_MAX || d > INT64_MAX)
		return SIB_EDIGITS;
	*num = (int64_t)n;
	*den = (int64_t)d;
	return SIB_OK;
}

static int bad_value(char *err, size_t errlen, const char *name,
		     const char *s, size_t len, sib_ptype t)
{
	return sib_errf(err, errlen, "%s: '%.*s' is not %s; %s", name, (int)len,
		    s, type_what(t), type_example(t));
}

static int parse_bool(const char *s, size_t len, int64_t *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (int i = 0; i < 4; i++) {
		if (strlen(yes[i]) == len && strncasecmp(s, yes[i], len) == 0) {
			*out = 1;
			return 0;
		}
		if (strlen(no[i]) == len && strncasecmp(s, no[i], len) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static int parse_enum(const sib_param *p, const char *name, const char *s,
		      size_t len, sib_value *v, char *err, size_t errlen)
{
	const char *c = p->choices ? p->choices : "";

	for (int64_t i = 0;; i++) {
		const char *bar = strchr(c, '|');
		size_t n = bar ? (size_t)(bar - c) : strlen(c);
		if (n == len && strncmp(c, s, len) == 0) {
			v->i = i;
			/* Into the caller's text: it lives as long as the
			 * value, and a choice is not NUL-terminated. */
			v->s = s;
			return 0;
		}
		if (!bar)
			break;
		c = bar + 1;
	}
	sib_errf(err, errlen, "%s: '%.*s' is not one of: ", name, (int)len, s);
	for (c = p->choices ? p->choices : ""; *c; c++)
		sib_errcat(err, errlen, *c == '|' ? ", " : "%c", *c);
	return -1;
}

static int parse_ratio_value(const char *name, const char *s, size_t len,
			     sib_value *v, char *err, size_t errlen)
{
	char buf[128];
	int rc;

	if (*s == '-')
		return sib_errf(err, errlen, "%s: '%.*s' is negative; a ratio must "
			    "be 0 or more, e.g. 0.5 or 3/4", name, (int)len,
			    s);
	if (len >= sizeof buf)
		return sib_errf(err, errlen, "%s: '%.40s...' is too long for a "
			    "ratio; write e.g. 1.25 or 3/4", name, s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	rc = parse_ratio(buf, &v->num, &v->den);
	if (rc == SIB_ESYNTAX)
		return bad_value(err, errlen, name, s, len, SIB_P_RATIO);
	if (rc == SIB_ERANGE)
		return sib_errf(err, errlen, "%s: '%s' is too large for a ratio "
			    "(the limit is %lld)", name, buf,
			    (long long)INT64_MAX);
	if (rc != SIB_OK)
		return sib_errf(err, errlen, "%s: '%s' has too many digits for an "
			    "exact ratio; use at most 18 significant digits "
			    "in each part", name, buf);
	return 0;
}

/* The unit after a number of type BW, SIZE or INT, as powers of ten
 * and two and a divisor. */
static int parse_unit(const sib_param *p, const char *name, const char *s,
		      size_t len, const char *unit, int *e10, int *e2,
		      unsigned *div, char *err, size_t errlen)
{
	int persec = 0;

	switch (p->type) {
	case SIB_P_BW:
		if (!*unit)
			return sib_errf(err, errlen, "%s: '%.*s' has no unit; say "
				    "the unit, e.g. 24GB/s, 5GiB/s or "
				    "100Gb/s", name, (int)len, s);
		if (sib_size_unit(unit, e10, e2, div, &persec) || !persec)
			return bad_value(err, errlen, name, s, len, p->type);
		return 0;
	case SIB_P_SIZE:
		if (*unit && (sib_size_unit(unit, e10, e2, div, &persec) ||
			      persec || *div != 1))
			return bad_value(err, errlen, name, s, len, p->type);
		return 0;
	case SIB_P_INT:
		if (*unit)
			return bad_value(err, errlen, name, s, len, p->type);
		return 0;
	default:
		return sib_errf(err, errlen, "%s: internal error: parameter type "
			    "%d has no unit", name, (int)p->type);
	}
}

/* A TIME: sib_parse_ps() itself, the one parser of a duration that the
 * noise files and the command line use too, with the messages of a
 * configuration value. */
static int parse_time_value(const char *name, const char *s, size_t len,
			    sib_value *v, char *err, size_t errlen)
{
	char buf[128];
	int neg = *s == '-';
	sib_ps ps = 0;

	if (len >= sizeof buf)
		return bad_value(err, errlen, name, s, len, SIB_P_TIME);
	memcpy(buf, s + neg, len - (size_t)neg);
	buf[len - (size_t)neg] = '\0';
	int rc = sib_parse_ps(buf, -1, SIB_EXACT, &ps, NULL);
	if (neg && rc != SIB_ESYNTAX && rc != SIB_EDIGITS)
		return sib_errf(err, errlen, "%s: '%.*s' is negative; it must be "
			    "0 or more", name, (int)len, s);
	switch (rc) {
	case SIB_OK:
		v->i = ps;
		return 0;
	case SIB_EDIGITS:
		return sib_errf(err, errlen, "%s: '%.*s' has more than %d "
			    "significant digits", name, (int)len, s,
			    SIB_MAX_DIGITS);
	case SIB_ENOUNIT:
		return sib_errf(err, errlen, "%s: '%.*s' has no unit; say the "
			    "unit, e.g. 1us, 250ns or 2ms", name, (int)len, s);
	case SIB_EUNIT:
		return sib_errf(err, errlen, "%s: '%.*s' is not a duration; "
			    "write e.g. 1us, 250ns or 1.5ms (units: "
			    SIB_TIME_UNITS ")", name, (int)len, s);
	case SIB_EFRACTION:
		return sib_errf(err, errlen, "%s: '%.*s' is not a whole number "
			    "of picoseconds", name, (int)len, s);
	case SIB_ERANGE:
		return sib_errf(err, errlen, "%s: '%.*s' is too large (the limit "
			    "is %lld picoseconds)", name, (int)len, s,
			    (long long)INT64_MAX);
	default:
		return bad_value(err, errlen, name, s, len, SIB_P_TIME);
	}
}

int sib_parse_value(const sib_param *p, const char *name, const char *text,
		    sib_value *v, char *err, size_t errlen)
{
	const char *s = text, *num, *end;
	char unit[32];
	sib_dec d;
	int rc, e10 = 0, e2 = 0;
	unsigned div = 1;
	uint64_t u = 0;

	if (!p || !text || !v)
		return sib_errf(err, errlen, "sib_parse_value: internal error: "
				"called without a parameter, text or value");
	if (!name)
		name = p->key;
	memset(v, 0, sizeof *v);
	v->den = 1;
	if (p->type == SIB_P_STRING) {
		v->s = text;
		return 0;
	}
	while (sib_is_space(*s))
		s++;
	size_t len = strlen(s);
	while (len && sib_is_space(s[len - 1]))
		len--;
	if (len == 0)
		return sib_errf(err, errlen, "%s: the value is empty; %s", name,
			    p->type == SIB_P_ENUM ? "give one of the choices" :
			    type_example(p->type));

	switch (p->type) {
	case SIB_P_BOOL:
		if (parse_bool(s, len, &v->i))
			return bad_value(err, errlen, name, s, len, p->type);
		return 0;
	case SIB_P_ENUM:
		return parse_enum(p, name, s, len, v, err, errlen);
	case SIB_P_RATIO:
		return parse_ratio_value(name, s, len, v, err, errlen);
	case SIB_P_TIME:
		return parse_time_value(name, s, len, v, err, errlen);
	default:
		break;
	}

	/* The numeric types: [-]NUMBER [space] [UNIT]. */
	int neg = *s == '-';
	num = s + neg;
	rc = sib_parse_dec(num, &end, &d);
	if (rc == SIB_ESYNTAX)
		return bad_value(err, errlen, name, s, len, p->type);
	if (rc == SIB_EDIGITS || d.digits > SIB_MAX_DIGITS)
		return sib_errf(err, errlen, "%s: '%.*s' has more than %d "
			    "significant digits", name, (int)len, s,
			    SIB_MAX_DIGITS);
	while (end < s + len && sib_is_space(*end))
		end++;
	size_t ulen = (size_t)(s + len - end);
	if (ulen >= sizeof unit)
		return bad_value(err, errlen, name, s, len, p->type);
	memcpy(unit, end, ulen);
	unit[ulen] = '\0';
	if (neg && p->type != SIB_P_INT)
		return sib_errf(err, errlen, "%s: '%.*s' is negative; it must be "
			    "%s", name, (int)len, s, p->type == SIB_P_BW ?
			    "greater than 0" : "0 or more");
	if (parse_unit(p, name, s, len, unit, &e10, &e2, &div, err, errlen))
		return -1;

	rc = sib_dec_scale(&d, e10, e2, div, INT64_MAX, SIB_EXACT, &u);
	if (rc == SIB_EFRACTION && p->type == SIB_P_INT)
		return sib_errf(err, errlen, "%s: '%.*s' is not a whole number",
			    name, (int)len, s);
	if (rc == SIB_EFRACTION)
		return sib_errf(err, errlen, "%s: '%.*s' is not a whole number of "
			    "%s", name, (int)len, s, unit_name(p->type));
	if (rc == SIB_ERANGE)
		return sib_errf(err, errlen, "%s: '%.*s' is too large (the limit "
			    "is %lld %s)", name, (int)len, s,
			    (long long)INT64_MAX, p->type == SIB_P_INT ?
			    "in magnitude" : unit_name(p->type));
	v->i = neg ? -(int64_t)u : (int64_t)u;

	if (p->type == SIB_P_BW && v->i <= 0)
		return sib_errf(err, errlen, "%s: the bandwidth must be greater "
			    "than 0, e.g. 10GB/s", name);
	if (p->type == SIB_P_INT && p->choices) {
		long long lo, hi;
		char dots[3] = "";
		if (sscanf(p->choices, "%lld%2[.]%lld", &lo, dots, &hi) == 3 &&
		    strcmp(dots, "..") == 0 && (v->i < lo || v->i > hi))
			return sib_errf(err, errlen, "%s: %lld is out of range; it "
				    "must be from %lld to %lld", name,
				    (long long)v->i, lo, hi);
	}
	return 0;
}


