/*
 * sib_units.h -- the time units of Sibyl's inputs, in one table, and the
 * one parser of a duration (internal).
 *
 * Every reader of a duration -- machine descriptions and `-p key=value'
 * (fastsim), the noise pattern files (noise), the command-line options
 * (tools) -- names its units here, so that they all accept the same
 * spellings:
 *
 *   ps  ns  us  ms  s
 *
 * and for microseconds also "µs" with either character a user's keyboard
 * gives: U+00B5 MICRO SIGN or U+03BC GREEK SMALL LETTER MU (UTF-8).
 *
 * sib_parse_ps() reads a non-negative decimal number (digits, at most
 * one '.', no sign, no exponent) followed at once by a unit, exactly in
 * 128-bit integers: "1.5us" is 1,500,000 ps, never a rounded double.
 * Whether a value finer than a picosecond ("0.5ps") is an error or
 * rounded to the nearest picosecond is the caller's choice.
 *
 * Every name starts with "sib_".
 */
#ifndef SIBYL_SIB_UNITS_H
#define SIBYL_SIB_UNITS_H

#include <stdint.h>

#include "sib_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The units, for messages: "ps, ns, us, ms or s". */
#define SIB_TIME_UNITS "ps, ns, us, ms or s"

/*
 * The power of ten of the picoseconds in one `name' (0 for ps, 3 for ns,
 * 6 for us and both spellings of µs, 9 for ms, 12 for s), or -1 when
 * name is no time unit.  The whole string must match.
 */
int sib_time_unit(const char *name);

/* What sib_parse_ps() can say. */
enum sib_parse_status {
	SIB_OK = 0,
	SIB_ESYNTAX,    /* no number where one must be */
	SIB_EUNIT,      /* a unit that is none of SIB_TIME_UNITS */
	SIB_ENOUNIT,    /* a bare number, and no unit for bare numbers */
	SIB_EFRACTION,  /* finer than a picosecond (SIB_EXACT) */
	SIB_ERANGE      /* more than INT64_MAX ps (about 106 days), or
	                   more than 36 significant digits */
};

enum sib_rounding {
	SIB_EXACT,      /* a fraction of a picosecond is SIB_EFRACTION */
	SIB_NEAREST     /* rounded to the nearest picosecond, halves up */
};

/*
 * text as picoseconds in *ps.  A number without a unit is in the unit
 * of power of ten bare_e10 (as sib_time_unit() gives it), or
 * SIB_ENOUNIT when bare_e10 is negative.  *unit (when unit is not NULL)
 * is set to where the unit begins in text, for messages, once a number
 * was read.  Returns SIB_OK or one of the statuses above; *ps is
 * written only on SIB_OK.
 */
int sib_parse_ps(const char *text, int bare_e10, enum sib_rounding mode,
		 sib_ps *ps, const char **unit);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_UNITS_H */
