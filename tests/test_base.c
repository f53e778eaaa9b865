/*
 * test_base.c -- the base layer's small helpers (base/sib_util.h,
 * base/sib_err.h, base/sib_text.h): the UTF-8 check against every class
 * of byte sequence, the error buffers' truncation, unquoting, the clock
 * and the peak memory.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sib_err.h"
#include "sib_text.h"
#include "sib_util.h"
#include "sibtest.h"

#define U(s) sib_utf8_len(s, sizeof(s) - 1)

static void test_utf8(void)
{
	assertEqualInt(U("a"), 1);
	assertEqualInt(U("\x7f"), 1);
	assertEqualInt(U("\xc2\xb5"), 2);               /* U+00B5 */
	assertEqualInt(U("\xce\xbc"), 2);               /* U+03BC */
	assertEqualInt(U("\xe2\x82\xac"), 3);           /* U+20AC */
	assertEqualInt(U("\xef\xbf\xbd"), 3);           /* U+FFFD */
	assertEqualInt(U("\xf0\x9f\x98\x80"), 4);       /* U+1F600 */
	assertEqualInt(U("\xf4\x8f\xbf\xbf"), 4);       /* U+10FFFF */
	/* Only the first sequence counts. */
	assertEqualInt(sib_utf8_len("\xc2\xb5xyz", 5), 2);
	/* Not UTF-8. */
	assertEqualInt(U("\x80"), 0);                   /* continuation */
	assertEqualInt(U("\xbf"), 0);
	assertEqualInt(U("\xc0\x80"), 0);               /* overlong NUL */
	assertEqualInt(U("\xc1\xbf"), 0);               /* overlong */
	assertEqualInt(U("\xe0\x80\x80"), 0);           /* overlong */
	assertEqualInt(U("\xe0\x9f\xbf"), 0);           /* overlong */
	assertEqualInt(U("\xf0\x80\x80\x80"), 0);       /* overlong */
	assertEqualInt(U("\xed\xa0\x80"), 0);           /* surrogate */
	assertEqualInt(U("\xed\xbf\xbf"), 0);           /* surrogate */
	assertEqualInt(U("\xf4\x90\x80\x80"), 0);       /* past U+10FFFF */
	assertEqualInt(U("\xf5\x80\x80\x80"), 0);
	assertEqualInt(U("\xff"), 0);
	assertEqualInt(U("\xc2"), 0);                   /* cut short */
	assertEqualInt(sib_utf8_len("\xe2\x82\xac", 2), 0);
	assertEqualInt(U("\xc2\x41"), 0);               /* not continued */
	assertEqualInt(U("\xe2\x82\x41"), 0);
}

static void test_err(void)
{
	char e[16];

	assertEqualInt(sib_errf(e, sizeof e, "%s %d", "key", 42), -1);
	assertEqualString(e, "key 42");
	sib_errcat(e, sizeof e, ": %s", "more");
	assertEqualString(e, "key 42: more");
	/* Cut at the buffer, never past it. */
	sib_errcat(e, sizeof e, "%s", "0123456789");
	assertEqualInt(strlen(e), sizeof e - 1);
	assertEqualString(e, "key 42: more012");
	sib_errcat(e, sizeof e, "%s", "x");
	assertEqualString(e, "key 42: more012");
	assertEqualInt(sib_errf(e, sizeof e, "%s", "a long sentence that "
				"does not fit"), -1);
	assertEqualString(e, "a long sentence");
	/* No buffer: the status only. */
	assertEqualInt(sib_errf(NULL, 0, "%s", "x"), -1);
	assertEqualInt(sib_errf(e, 0, "%s", "y"), -1);
	assertEqualString(e, "a long sentence");
	sib_errcat(NULL, 0, "%s", "z");
	/* The codes: sib_errf gives the general one, sib_errf_code another,
	 * each with its message and a name of its own. */
	assertEqualInt(SIB_EFAIL, -1);
	assertEqualInt(sib_errf_code(SIB_ECONFIG, e, sizeof e, "%s", "cores"),
		       SIB_ECONFIG);
	assertEqualString(e, "cores");
	assertEqualInt(sib_errf_code(SIB_ECONFIG, NULL, 0, "%s", "x"),
		       SIB_ECONFIG);
	assertEqualString(sib_strerror(0), "success");
	assertEqualString(sib_strerror(SIB_EFAIL),
			  "a problem of the input or of the system");
	assertEqualString(sib_strerror(SIB_ECONFIG),
			  "a configuration that does not fit the input");
	assertEqualString(sib_strerror(7), "an unknown error code");
}

static void test_unquote(void)
{
	const char *end = NULL;
	char *v;

	/* s points after the opening quote. */
	v = sib_unquote("plain\" rest", &end);
	assertEqualString(v, "plain");
	assertTrue(end != NULL);
	if (end)
		assertEqualString(end, " rest");
	free(v);
	v = sib_unquote("a \\\"b\\\\c\\d\"", &end);
	assertEqualString(v, "a \"b\\c\\d"); /* the one before d kept */
	assertTrue(end != NULL && *end == '\0');
	free(v);
	v = sib_unquote("no closing quote", &end);
	assertEqualString(v, "no closing quote");
	assertTrue(end == NULL);
	free(v);
	v = sib_unquote("\"", &end);
	assertEqualString(v, "");
	assertTrue(end != NULL && *end == '\0');
	free(v);
}

static void test_clock_rss(void)
{
	double a = sib_now_seconds(), b = sib_now_seconds();
	assertTrue(a > 0 && b >= a);
	/* 8 MiB touched: the peak grows by about that much. */
	uint64_t before = sib_peak_rss();
	size_t n = 8u << 20;
	char *p = malloc(n);
	assertTrue(p != NULL);
	if (p) {
		memset(p, 1, n);
		uint64_t after = sib_peak_rss();
		assertTrue(before > 0);
		assertTrue(after >= before + n / 2);
		free(p);
	}
}

int main(void)
{
	test_utf8();
	test_err();
	test_unquote();
	test_clock_rss();
	return TEST_EXIT();
}
