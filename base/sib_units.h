/*
 * sib_units.h -- the units of Sibyl's inputs, in one table, and the one
 * parser of a value with a unit (internal).
 *
 * Every reader of a duration, a size or a rate -- machine descriptions,
 * `--set key=value' and replacement rules (fastsim), the noise pattern
 * files (noise), the command-line options (tools) -- reads it here, so
 * that they all accept the same strings:
 *
 *   numbers  12  1.5  .5  2.  2e3  1.5E-3   (no sign: callers refuse
 *            one with a message of their own), read exactly: "1.5us" is
 *            1,500,000 ps, never a rounded double.  A time has at most
 *            19 significant digits; a count or a size may have more, as
 *            long as it fits (2^64-1 bytes has 20)
 *   times    ps  ns  us  ms  s, and for microseconds also "µs" with
 *            either character a keyboard gives: U+00B5 MICRO SIGN or
 *            U+03BC GREEK SMALL LETTER MU (UTF-8)
 *   counts   none, or a prefix alone: k K M G T P (powers of 1000),
 *            Ki Mi Gi Ti Pi (powers of 1024)
 *   sizes    B, or a prefix and B: kB KB MB GB TB PB, KiB MiB GiB TiB
 *            PiB; b or bit instead of B counts bits
 *   rates    a size unit followed by "/s"
 *
 * Blanks may separate a number from its unit ("1 us").  A bare 0 needs
 * no unit.
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

/* The time units, for messages: "ps, ns, us, ms or s". */
#define SIB_TIME_UNITS "ps, ns, us, ms or s"

/* Significant digits of a time (and of any value of a machine
 * description); sib_parse_dec() reads up to SIB_DEC_DIGITS. */
#define SIB_MAX_DIGITS 19
#define SIB_DEC_DIGITS 38

/* What the parsers can say. */
enum sib_parse_status {
	SIB_OK = 0,
	SIB_ESYNTAX,    /* no number where one must be */
	SIB_EUNIT,      /* not a unit of the kind asked for */
	SIB_ENOUNIT,    /* a bare number other than 0, and no unit for
	                   bare numbers */
	SIB_EFRACTION,  /* not a whole number of the unit of the result
	                   (SIB_EXACT) */
	SIB_ERANGE,     /* larger than the result can hold (for a time,
	                   INT64_MAX ps: about 106 days) */
	SIB_EDIGITS     /* more significant digits than allowed */
};

enum sib_rounding {
	SIB_EXACT,      /* a fraction of the result's unit is SIB_EFRACTION */
	SIB_NEAREST     /* rounded to the nearest, halves up */
};

/* Greatest common divisor, for reducing exact ratios. */
static inline unsigned __int128 sib_gcd128(unsigned __int128 a,
					   unsigned __int128 b)
{
	while (b) {
		unsigned __int128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A decimal number as written: mant x 10^exp, exactly, and how many
 * significant digits it had (trailing zeros of its whole part are
 * exponent, not digits). */
typedef struct sib_dec {
	unsigned __int128 mant;
	int exp;
	int digits;
} sib_dec;

/*
 * The number at text ("12", "1.5", ".5", "2.", "2e3", "1.5E-3"; no sign,
 * no blanks before it) into *d, and *end past it.  SIB_OK, SIB_ESYNTAX
 * (no digit) or SIB_EDIGITS (more than SIB_DEC_DIGITS).
 */
int sib_parse_dec(const char *text, const char **end, sib_dec *d);

/*
 * d x 10^e10 x 2^e2 / div, as a whole number at most max, into *out.
 * SIB_OK, SIB_EFRACTION (SIB_EXACT, and not whole) or SIB_ERANGE.
 * Requires 0 <= e2 <= 60 and div <= 8.
 */
int sib_dec_scale(const sib_dec *d, int e10, int e2, unsigned div,
		  uint64_t max, enum sib_rounding mode, uint64_t *out);

/*
 * The power of ten of the picoseconds in one `name' (0 for ps, 3 for ns,
 * 6 for us and both spellings of µs, 9 for ms, 12 for s), or -1 when
 * name is no time unit.  The whole string must match.
 */
int sib_time_unit(const char *name);

/*
 * A count's unit: none, or an SI or binary prefix alone ("k" or "K",
 * "M", "G", "T", "P": powers of 1000; "Ki", "Mi", "Gi", "Ti", "Pi":
 * powers of 1024), as number x 10^*e10 x 2^*e2.  0, or -1 when name is
 * no such unit.  The whole string must match.
 */
int sib_count_unit(const char *name, int *e10, int *e2);

/*
 * A size or rate unit: "B", "kB", "KiB", "Gb", "Gbit", "MB/s"... as
 * bytes = number x 10^*e10 x 2^*e2 / *div (div 8 for bits), and *per_s
 * set when it ends in "/s".  0, or -1 when name is no such unit.  The
 * whole string must match.
 */
int sib_size_unit(const char *name, int *e10, int *e2, unsigned *div,
		  int *per_s);

/*
 * text as picoseconds in *ps: a number of at most SIB_MAX_DIGITS
 * significant digits, blanks or not, and a time unit.
 * A number without a unit is in the unit of power of ten bare_e10 (as
 * sib_time_unit() gives it), or SIB_ENOUNIT when bare_e10 is negative
 * (a bare 0 is 0 either way).  *unit (when unit is not NULL) is set to
 * where the unit begins in text, for messages, once a number was read.
 * Returns SIB_OK or one of the statuses above; *ps is written only on
 * SIB_OK.
 */
int sib_parse_ps(const char *text, int bare_e10, enum sib_rounding mode,
		 sib_ps *ps, const char **unit);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_UNITS_H */
