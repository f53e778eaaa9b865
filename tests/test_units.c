/*
 * test_units.c -- the one parser of a value with a unit
 * (base/sib_units.h): every spelling of every time unit, the size and
 * rate units, exact decimal arithmetic with exponents, the two rounding
 * modes, bare numbers, the limits, and what each error says.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sib_units.h"
#include "sibtest.h"
#include "sibyl_trace.h"

/* The trace format's public time type is Sibyl's one time type. */
_Static_assert(_Generic((sibt_time)0, sib_ps: 1, default: 0),
	       "sibt_time and sib_ps are one type");
_Static_assert(SIB_PS_PER_S == INT64_C(1000000000000), "ps per second");

#define MICRO_SIGN "\xc2\xb5"   /* U+00B5 */
#define GREEK_MU "\xce\xbc"     /* U+03BC */

/* text parsed with mode: the status, and the value when it is SIB_OK. */
static int64_t ps_of(const char *text, int bare, enum sib_rounding mode,
		     int *status)
{
	int64_t v = -12345;
	*status = sib_parse_ps(text, bare, mode, &v, NULL);
	return v;
}

#define assertPs(text, bare, mode, want) do { int st_; \
	int64_t v_ = ps_of(text, bare, mode, &st_); \
	assertEqualInt(st_, SIB_OK); assertEqualInt(v_, want); } while (0)

#define assertStatus(text, bare, mode, want) do { int st_; \
	int64_t v_ = ps_of(text, bare, mode, &st_); \
	assertEqualInt(st_, want); \
	assertEqualInt(v_, -12345); /* untouched */ } while (0)

static void test_units(void)
{
	assertEqualInt(sib_time_unit("ps"), 0);
	assertEqualInt(sib_time_unit("ns"), 3);
	assertEqualInt(sib_time_unit("us"), 6);
	assertEqualInt(sib_time_unit(MICRO_SIGN "s"), 6);
	assertEqualInt(sib_time_unit(GREEK_MU "s"), 6);
	assertEqualInt(sib_time_unit("ms"), 9);
	assertEqualInt(sib_time_unit("s"), 12);
	assertEqualInt(sib_time_unit(""), -1);
	assertEqualInt(sib_time_unit("Us"), -1);
	assertEqualInt(sib_time_unit("us "), -1);
	assertEqualInt(sib_time_unit("sec"), -1);
	assertEqualInt(sib_time_unit(MICRO_SIGN), -1);

	for (int m = 0; m < 2; m++) {
		enum sib_rounding mode = m ? SIB_NEAREST : SIB_EXACT;
		assertPs("1ps", -1, mode, 1);
		assertPs("1ns", -1, mode, 1000);
		assertPs("1us", -1, mode, 1000000);
		assertPs("1" MICRO_SIGN "s", -1, mode, 1000000);
		assertPs("1" GREEK_MU "s", -1, mode, 1000000);
		assertPs("1ms", -1, mode, 1000000000);
		assertPs("1s", -1, mode, 1000000000000);
		assertPs("0s", -1, mode, 0);
		assertPs("1.5us", -1, mode, 1500000);
		assertPs(".5ns", -1, mode, 500);
		assertPs("2.ns", -1, mode, 2000);
		assertPs("0.000001s", -1, mode, 1000000);
		assertPs("250" GREEK_MU "s", -1, mode, 250000000);
		/* Bare numbers in the unit given. */
		assertPs("10", 6, mode, 10000000);
		assertPs("2.5", 3, mode, 2500);
		assertPs("7", 0, mode, 7);
		/* A unit still wins over the bare one. */
		assertPs("3ns", 6, mode, 3000);
		/* Exponents, and blanks before the unit. */
		assertPs("1e3ns", -1, mode, 1000000);
		assertPs("2E-3s", -1, mode, 2000000000);
		assertPs("1.5e+2us", -1, mode, 150000000);
		assertPs("1 us", -1, mode, 1000000);
		assertPs("1\t" GREEK_MU "s", -1, mode, 1000000);
		/* 0 needs no unit. */
		assertPs("0", -1, mode, 0);
		assertPs("0.000", -1, mode, 0);
		assertPs("0e5", -1, mode, 0);
	}
}

static void test_rounding(void)
{
	assertStatus("0.5ps", -1, SIB_EXACT, SIB_EFRACTION);
	assertPs("0.5ps", -1, SIB_NEAREST, 1);          /* halves up */
	assertPs("0.4999ps", -1, SIB_NEAREST, 0);
	assertStatus("1.0005ns", -1, SIB_EXACT, SIB_EFRACTION);
	assertPs("1.0005ns", -1, SIB_NEAREST, 1001);
	assertPs("1.0004ns", -1, SIB_NEAREST, 1000);
	assertStatus("1.0000000000000000001s", -1, SIB_EXACT, SIB_EDIGITS);
	assertStatus("1.000000000000000001s", -1, SIB_EXACT, SIB_EFRACTION);
	assertPs("1.000000000000000001s", -1, SIB_NEAREST, 1000000000000);
	assertPs("1e-13s", -1, SIB_NEAREST, 0);
	assertPs("5e-13s", -1, SIB_NEAREST, 1);
	assertStatus("1e-13s", -1, SIB_EXACT, SIB_EFRACTION);
	assertStatus("1e-99999999s", -1, SIB_EXACT, SIB_EFRACTION);
	assertPs("1e-99999999s", -1, SIB_NEAREST, 0);
	/* Exact where a double is not: 0.1 + 0.2 style values. */
	assertPs("0.3us", -1, SIB_EXACT, 300000);
	assertPs("4.35ms", -1, SIB_EXACT, 4350000000);
}

static void test_limits(void)
{
	assertPs("9223372036854775807ps", -1, SIB_EXACT, INT64_MAX);
	assertStatus("9223372036854775808ps", -1, SIB_EXACT, SIB_ERANGE);
	assertPs("9223372.036854775807s", -1, SIB_EXACT, INT64_MAX);
	assertStatus("9223372.036854775808s", -1, SIB_EXACT, SIB_ERANGE);
	assertStatus("107days", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("9999999999999999999s", -1, SIB_NEAREST, SIB_ERANGE);
	assertStatus("1e99999999s", -1, SIB_NEAREST, SIB_ERANGE);
	assertPs("9.223372036854775807e6s", -1, SIB_EXACT, INT64_MAX);
	/* 19 significant digits are read; a 20th is refused. */
	assertPs("1.000000000000000002ns", -1, SIB_NEAREST, 1000);
	assertStatus("1.0000000000000000002ns", -1, SIB_EXACT, SIB_EDIGITS);
	assertStatus("12345678901234567891ps", -1, SIB_EXACT, SIB_EDIGITS);
	/* Trailing zeros are no significant digits. */
	assertPs("1.0000000000000000000000ps", -1, SIB_EXACT, 1);
	/* Trailing zeros of a whole number are exponent, not digits. */
	assertStatus("100000000000000000000000ps", -1, SIB_EXACT, SIB_ERANGE);
	/* Leading zeros are not significant. */
	assertPs("0000000000000000000000000000000000000000001ns", -1,
		 SIB_EXACT, 1000);
	assertPs("0.0000000000000000000000000000000000000000000s", -1,
		 SIB_EXACT, 0);
}

static void test_errors(void)
{
	const char *unit = NULL;
	int64_t v;

	assertStatus("", -1, SIB_EXACT, SIB_ESYNTAX);
	assertStatus("us", -1, SIB_EXACT, SIB_ESYNTAX);
	assertStatus(".", 6, SIB_EXACT, SIB_ESYNTAX);
	assertStatus("-1us", -1, SIB_EXACT, SIB_ESYNTAX);
	assertStatus("+1us", -1, SIB_EXACT, SIB_ESYNTAX);
	assertStatus(" 1us", -1, SIB_EXACT, SIB_ESYNTAX);
	assertStatus("1us ", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("1Us", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("1e", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("1e-ns", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("1.2.3ns", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("0x10ns", -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("1" MICRO_SIGN, -1, SIB_EXACT, SIB_EUNIT);
	assertStatus("10", -1, SIB_EXACT, SIB_ENOUNIT);
	assertStatus("10", -1, SIB_NEAREST, SIB_ENOUNIT);

	/* Where the unit begins, for messages. */
	assertEqualInt(sib_parse_ps("12.5xs", -1, SIB_EXACT, &v, &unit),
		       SIB_EUNIT);
	assertTrue(unit != NULL);
	if (unit)
		assertEqualString(unit, "xs");
	unit = NULL;
	assertEqualInt(sib_parse_ps("3ms", -1, SIB_EXACT, &v, &unit), SIB_OK);
	assertTrue(unit != NULL);
	if (unit)
		assertEqualString(unit, "ms");
}

/* text read as a size or rate: the bytes, or -1 when it is not one. */
static int64_t bytes_of(const char *text, int *per_s)
{
	const char *end;
	sib_dec d;
	int e10, e2;
	unsigned div;
	uint64_t v;

	if (sib_parse_dec(text, &end, &d) != SIB_OK ||
	    sib_size_unit(end, &e10, &e2, &div, per_s) ||
	    sib_dec_scale(&d, e10, e2, div, INT64_MAX, SIB_EXACT, &v))
		return -1;
	return (int64_t)v;
}

static void test_sizes(void)
{
	int r = -1;

	assertEqualInt(bytes_of("4096B", &r), 4096);
	assertEqualInt(r, 0);
	assertEqualInt(bytes_of("4KiB", &r), 4096);
	assertEqualInt(bytes_of("2kB", &r), 2000);
	assertEqualInt(bytes_of("2KB", &r), 2000);
	assertEqualInt(bytes_of("1.5MiB", &r), 1572864);
	assertEqualInt(bytes_of("3GiB", &r), INT64_C(3) << 30);
	assertEqualInt(bytes_of("1PiB", &r), INT64_C(1) << 50);
	assertEqualInt(bytes_of("1e3B", &r), 1000);
	assertEqualInt(bytes_of("24GB/s", &r), INT64_C(24000000000));
	assertEqualInt(r, 1);
	assertEqualInt(bytes_of("100Gb/s", &r), INT64_C(12500000000));
	assertEqualInt(bytes_of("100Gbit/s", &r), INT64_C(12500000000));
	assertEqualInt(bytes_of("8b", &r), 1);
	/* Not whole bytes, not units, out of range. */
	assertEqualInt(bytes_of("1b", &r), -1);
	assertEqualInt(bytes_of("0.5B", &r), -1);
	assertEqualInt(bytes_of("1kiB", &r), -1);
	assertEqualInt(bytes_of("1XB", &r), -1);
	assertEqualInt(bytes_of("1B/ms", &r), -1);
	assertEqualInt(bytes_of("1", &r), -1);
	assertEqualInt(bytes_of("9PiB/s", &r), INT64_C(9) << 50);
	assertEqualInt(bytes_of("9000PiB", &r), -1);

	/* Counts and sizes may have more digits than a time, up to what
	 * fits: 2^64-1 has 20. */
	const char *end;
	sib_dec d;
	uint64_t v = 0;
	assertEqualInt(sib_parse_dec("18446744073709551615", &end, &d),
		       SIB_OK);
	assertEqualInt(d.digits, 20);
	assertEqualInt(sib_dec_scale(&d, 0, 0, 1, UINT64_MAX, SIB_EXACT, &v),
		       SIB_OK);
	assertTrue(v == UINT64_MAX);
	assertEqualInt(sib_parse_dec("18446744073709551616", &end, &d),
		       SIB_OK);
	assertEqualInt(sib_dec_scale(&d, 0, 0, 1, UINT64_MAX, SIB_EXACT, &v),
		       SIB_ERANGE);
	assertEqualInt(sib_parse_dec("1.2345678901234567890123456789012345678",
				     &end, &d), SIB_OK);
	assertEqualInt(d.digits, 38);
	assertEqualInt(sib_parse_dec("1.23456789012345678901234567890123456789",
				     &end, &d), SIB_EDIGITS);
	assertEqualInt(sib_parse_dec("123456789012345678901234567890123456789",
				     &end, &d), SIB_EDIGITS);
	/* 38 digits and a binary prefix: too large, not wrapped. */
	assertEqualInt(sib_parse_dec("12345678901234567890123456789012345678",
				     &end, &d), SIB_OK);
	assertEqualInt(sib_dec_scale(&d, 0, 50, 1, UINT64_MAX, SIB_EXACT, &v),
		       SIB_ERANGE);
	/* A value below half the unit rounds to 0, not past the range. */
	assertEqualInt(sib_parse_dec("9e-39", &end, &d), SIB_OK);
	assertEqualInt(sib_dec_scale(&d, 0, 0, 8, UINT64_MAX, SIB_NEAREST, &v),
		       SIB_OK);
	assertTrue(v == 0);
	assertEqualInt(sib_parse_dec("6e-1", &end, &d), SIB_OK);
	assertEqualInt(sib_dec_scale(&d, 0, 0, 1, UINT64_MAX, SIB_NEAREST, &v),
		       SIB_OK);
	assertTrue(v == 1);
}

/* Every whole number of nanoseconds up to a million, written as ns, as
 * us with three decimals and as ms with six: the same picoseconds. */
static void test_equivalence(void)
{
	char a[64], b[64], c[64];
	int bad = 0;

	for (int64_t n = 0; n <= 1000000 && bad < 5; n += 7) {
		int64_t x = -1, y = -2, z = -3;
		snprintf(a, sizeof a, "%" PRId64 "ns", n);
		snprintf(b, sizeof b, "%" PRId64 ".%03" PRId64 "us", n / 1000,
			 n % 1000);
		snprintf(c, sizeof c, "%" PRId64 ".%06" PRId64 "ms",
			 n / 1000000, n % 1000000);
		if (sib_parse_ps(a, -1, SIB_EXACT, &x, NULL) ||
		    sib_parse_ps(b, -1, SIB_EXACT, &y, NULL) ||
		    sib_parse_ps(c, -1, SIB_EXACT, &z, NULL) ||
		    x != n * 1000 || y != x || z != x) {
			TEST_FAIL("%s, %s, %s: %" PRId64 ", %" PRId64 ", %"
				  PRId64, a, b, c, x, y, z);
			bad++;
		}
	}
	sibtest_checks++;
}

int main(void)
{
	test_units();
	test_rounding();
	test_limits();
	test_errors();
	test_sizes();
	test_equivalence();
	return TEST_EXIT();
}
