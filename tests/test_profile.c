/*
 * test_profile.c -- variability profiles (fastsim/fsim_profile.c): a
 * profile read, written and read back, and the errors of bad profiles,
 * each naming the file and line.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "sibtest.h"

static char err[2048];
static const char *tmp;

#define assertNear(a, b, tol) do { sibtest_checks++; \
	double sibtest_a_ = (a), sibtest_b_ = (b); \
	if (!(fabs(sibtest_a_ - sibtest_b_) <= (tol))) \
		TEST_FAIL("%s ~ %s: %.9g vs %.9g (tolerance %g)", #a, #b, \
			  sibtest_a_, sibtest_b_, (double)(tol)); } while (0)

static void test_profile(void)
{
	fsim_profile pr;
	const char *good =
		"sibyl-variability-profile 1\n"
		"source \"run.trace\"  # a comment\n"
		"region \"main (a.c:1) > main (a.c:9)\"\n"
		"  samples 40\n"
		"  median 1.5ms\n"
		"  cluster 0.5 empirical\n"
		"    cdf 1ms 0\n"
		"    cdf 2ms 1\n"
		"  cluster 0.5 lognormal(4ms, 0.1)\n"
		"  pattern 0 1 1\n"
		"end\n"
		"seb \"compute\"\n"
		"  cluster 1 normal(1ms, 1us)\n"
		"end\n";
	const char *path = test_write_file(tmp, "good.profile", good);
	assertEqualInt(fsim_profile_read(&pr, path, err, sizeof err), 0);
	assertEqualInt(pr.n, 2);
	assertEqualString(pr.source, "run.trace");
	assertEqualString(pr.b[0].key, "main (a.c:1) > main (a.c:9)");
	assertEqualInt(pr.b[0].by_region, 1);
	assertEqualInt(pr.b[0].nclusters, 2);
	assertEqualInt(pr.b[0].npattern, 3);
	assertEqualInt(pr.b[0].pattern[2], 1);
	assertEqualInt(pr.b[0].dist.kind, SIB_DIST_MIX);
	assertNear(pr.b[0].median, 1.5e9, 0);
	assertEqualInt(pr.b[1].dist.kind, SIB_DIST_NORMAL);
	/* written and read back */
	char path2[4200];
	snprintf(path2, sizeof path2, "%s/again.profile", tmp);
	FILE *f = fopen(path2, "w");
	assertEqualInt(fsim_profile_write(&pr, f), 0);
	fclose(f);
	fsim_profile back;
	assertEqualInt(fsim_profile_read(&back, path2, err, sizeof err), 0);
	assertEqualInt(back.n, 2);
	assertEqualInt(back.b[0].npattern, 3);
	assertNear(back.b[0].dist.c[0].x[1], 2e9, 0);
	assertNear(back.b[0].dist.c[1].a, 4e9, 0);
	fsim_profile_free(&back);
	fsim_profile_free(&pr);

	/* bad profiles: the file and line, and what is wrong */
	static const struct { const char *text, *want; } bad[] = {
		{ "region \"x\"\n", "bad.profile:1: not a variability profile" },
		{ "sibyl-variability-profile 9\n", "newer" },
		{ "sibyl-variability-profile 1\nregion x\n",
		  "bad.profile:2: region: write the region in double quotes" },
		{ "sibyl-variability-profile 1\nseb \"a\"\n  cluster 1 "
		  "normal(1ms)\nend\n", "bad.profile:3:" },
		{ "sibyl-variability-profile 1\nseb \"a\"\nend\n",
		  "has no cluster" },
		{ "sibyl-variability-profile 1\nseb \"a\"\n cluster 1 "
		  "fixed(1ms)\n pattern 0 1\nend\n", "bad.profile:4: pattern" },
		{ "sibyl-variability-profile 1\nseb \"a\"\n cluster 1 "
		  "empirical\n cdf 1ms 0\n cdf 2ms 0.5\nend\n",
		  "bad.profile:3: cluster 0: an empirical CDF starts" },
		{ "sibyl-variability-profile 1\nseb \"a\"\n cluster 1 "
		  "fixed(1ms)\n", "has no 'end'" },
		{ "sibyl-variability-profile 1\nseb \"a\"\n color 1\nend\n",
		  "bad.profile:3: unknown line 'color'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		path = test_write_file(tmp, "bad.profile", bad[i].text);
		assertTrue(fsim_profile_read(&pr, path, err, sizeof err) != 0);
		assertContains(err, bad[i].want);
	}
	assertTrue(fsim_profile_read(&pr, "/nonexistent/p", err,
				     sizeof err) != 0);
	assertContains(err, "sibyl trace profile");
}

int main(void)
{
	tmp = test_tmpdir("test_profile");
	test_profile();
	return TEST_EXIT();
}
