/*
 * sibtest.h -- tiny assertion kit for Sibyl's C tests.
 *
 * A test program calls its checks from main(); every failed assertion
 * prints file:line and both values, counts a failure and (by default)
 * continues.  main() ends with `return TEST_EXIT();' which exits 1 when
 * anything failed, 0 otherwise.  Exit 77 (TEST_SKIP) marks a skipped test.
 */
#ifndef SIBTEST_H
#define SIBTEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_SKIP 77

/* A test of one compilation unit has the counters to itself.  A test of
 * several builds them all with -DSIBTEST_SHARED and defines the counters
 * in the unit of main(), so that its report counts every unit's checks. */
#ifdef SIBTEST_SHARED
extern int sibtest_failures;
extern int sibtest_checks;
#else
static int sibtest_failures;
static int sibtest_checks;
#endif

#define TEST_FAIL(...) do { \
	fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
	sibtest_failures++; } while (0)

#define assertTrue(c) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL("%s is false", #c); } while (0)

#define assertEqualInt(a, b) do { sibtest_checks++; \
	long long sibtest_a_ = (long long)(a), sibtest_b_ = (long long)(b); \
	if (sibtest_a_ != sibtest_b_) TEST_FAIL("%s == %s: %lld != %lld", \
		#a, #b, sibtest_a_, sibtest_b_); } while (0)

#define assertEqualU64(a, b) do { sibtest_checks++; \
	uint64_t sibtest_a_ = (uint64_t)(a), sibtest_b_ = (uint64_t)(b); \
	if (sibtest_a_ != sibtest_b_) TEST_FAIL("%s == %s: %" PRIu64 " != %" \
		PRIu64, #a, #b, sibtest_a_, sibtest_b_); } while (0)

#define assertEqualString(a, b) do { sibtest_checks++; \
	const char *sibtest_a_ = (a), *sibtest_b_ = (b); \
	if (!sibtest_a_ || !sibtest_b_ || strcmp(sibtest_a_, sibtest_b_)) \
		TEST_FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b, \
			sibtest_a_ ? sibtest_a_ : "(null)", \
			sibtest_b_ ? sibtest_b_ : "(null)"); } while (0)

/* Substring check, e.g. for error messages. */
#define assertContains(hay, needle) do { sibtest_checks++; \
	const char *sibtest_h_ = (hay), *sibtest_n_ = (needle); \
	if (!sibtest_h_ || !strstr(sibtest_h_, sibtest_n_)) \
		TEST_FAIL("\"%s\" does not contain \"%s\"", \
			sibtest_h_ ? sibtest_h_ : "(null)", sibtest_n_); } while (0)

#define TEST_EXIT() (fprintf(stderr, "%d checks, %d failed\n", \
	sibtest_checks, sibtest_failures), sibtest_failures ? 1 : 0)

/* A scratch directory under the build tree, unique per test program. */
static inline const char *test_tmpdir(const char *name)
{
	static char buf[4096];
	const char *base = getenv("SIBYL_TEST_TMP");
	snprintf(buf, sizeof buf, "%s/%s.tmp", base ? base : ".", name);
	char cmd[2 * sizeof buf + 32];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", buf, buf);
	if (system(cmd) != 0) { perror(cmd); exit(99); }
	return buf;
}

/* Write text to dir/name; the path (one of 8 buffers, reused in turn).
 * Exits 99 when the file cannot be written. */
static inline const char *test_write_file(const char *dir, const char *name,
					  const char *text)
{
	static char paths[8][4200];
	static int next;
	char *path = paths[next++ % 8];
	snprintf(path, sizeof paths[0], "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(99);
	}
	fputs(text, f);
	fclose(f);
	return path;
}

#endif /* SIBTEST_H */
