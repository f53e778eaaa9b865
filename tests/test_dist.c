/*
 * test_dist.c -- the counter-based draws and the distributions of the
 * variability models (base/sib_dist.c): sample means and quantiles
 * against the analytic ones, empirical CDF inversion, mixtures, the
 * parser's errors.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sib_dist.h"
#include "sibtest.h"

static char err[2048];

#define assertNear(a, b, tol) do { sibtest_checks++; \
	double sibtest_a_ = (a), sibtest_b_ = (b); \
	if (!(fabs(sibtest_a_ - sibtest_b_) <= (tol))) \
		TEST_FAIL("%s ~ %s: %.9g vs %.9g (tolerance %g)", #a, #b, \
			  sibtest_a_, sibtest_b_, (double)(tol)); } while (0)

enum { N = 200000 };

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* N draws of d with seed 7 (sorted into v); their mean. */
static double draws(const sib_dist *d, double *v)
{
	double s = 0;
	for (int i = 0; i < N; i++) {
		double u[2] = { sib_rand_unit(sib_rand_u64(7, 0, i, 1)),
				sib_rand_unit(sib_rand_u64(7, 0, i, 2)) };
		v[i] = sib_dist_sample(d, u);
		s += v[i];
	}
	qsort(v, N, sizeof *v, cmp);
	return s / N;
}

static void test_random(void)
{
	/* a pure function of its key, and every word of the key counts */
	assertEqualU64(sib_rand_u64(1, 2, 3, 4), sib_rand_u64(1, 2, 3, 4));
	assertTrue(sib_rand_u64(1, 2, 3, 4) != sib_rand_u64(2, 2, 3, 4));
	assertTrue(sib_rand_u64(1, 2, 3, 4) != sib_rand_u64(1, 3, 3, 4));
	assertTrue(sib_rand_u64(1, 2, 3, 4) != sib_rand_u64(1, 2, 4, 4));
	assertTrue(sib_rand_u64(1, 2, 3, 4) != sib_rand_u64(1, 2, 3, 5));
	assertTrue(sib_rand_u64(1, 2, 3, 4) != sib_rand_u64(1, 3, 2, 4));
	/* uniforms in (0, 1), mean 1/2 */
	double s = 0, lo = 1, hi = 0;
	for (int i = 0; i < N; i++) {
		double u = sib_rand_unit(sib_rand_u64(9, i, 0, 1));
		s += u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	assertTrue(lo > 0 && hi < 1);
	assertNear(s / N, 0.5, 0.003);
	/* the normal quantile inverts the CDF */
	const double ps[] = { 1e-10, 0.001, 0.02425, 0.1, 0.5, 0.9, 0.999 };
	for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
		assertNear(sib_norm_cdf(sib_norm_quantile(ps[i])) / ps[i], 1,
			   1e-12);
	assertNear(sib_norm_quantile(0.975), 1.959963984540054, 1e-13);
}

static void test_parametric(double *v)
{
	sib_dist d;
	/* normal(1ms, 50us): mean and the 10% and 90% quantiles */
	assertEqualInt(sib_dist_parse(&d, "normal(1ms, 50us)", 1, err,
				      sizeof err), 0);
	assertNear(d.a, 1e9, 0);
	assertNear(d.b, 5e7, 0);
	assertNear(draws(&d, v) / 1e9, 1, 0.001);
	assertNear(v[N / 10] / 1e9, 1 - 1.2815515655 * 0.05, 0.001);
	assertNear(v[9 * N / 10] / 1e9, 1 + 1.2815515655 * 0.05, 0.001);
	sib_dist_free(&d);
	/* lognormal(2ms, 0.5): median 2 ms, mean 2 exp(0.125) ms */
	assertEqualInt(sib_dist_parse(&d, "lognormal(2ms, 0.5)", 1, err,
				      sizeof err), 0);
	double mean = draws(&d, v);
	assertNear(v[N / 2] / 2e9, 1, 0.006);
	assertNear(mean / (2e9 * exp(0.125)), 1, 0.006);
	assertNear(sib_dist_mean(&d) / (2e9 * exp(0.125)), 1, 1e-12);
	assertNear(sib_dist_cdf(&d, 2e9), 0.5, 1e-12);
	sib_dist_free(&d);
	/* factors have no unit; uniform; fixed */
	assertEqualInt(sib_dist_parse(&d, "uniform(0.9, 1.1)", 0, err,
				      sizeof err), 0);
	assertNear(draws(&d, v), 1, 0.001);
	assertNear(v[N / 4], 0.95, 0.001);
	sib_dist_free(&d);
	assertEqualInt(sib_dist_parse(&d, " fixed( 3us ) ", 1, err,
				      sizeof err), 0);
	assertNear(draws(&d, v), 3e6, 0);
	sib_dist_free(&d);
	/* a normal is clamped at 0 */
	assertEqualInt(sib_dist_parse(&d, "normal(1, 2)", 0, err, sizeof err),
		       0);
	draws(&d, v);
	assertNear(v[0], 0, 0);
	sib_dist_free(&d);
}

static void test_empirical(double *v)
{
	sib_dist d;
	/* a CDF through (1ms, 0), (2ms, 0.5), (4ms, 1): linear between */
	assertEqualInt(sib_dist_parse(&d, "empirical(1ms:0, 2ms:0.5, "
				      "4ms:1)", 1, err, sizeof err), 0);
	assertEqualInt(d.n, 3);
	double u[2] = { 0.25, 0.5 };
	assertNear(sib_dist_sample(&d, u), 1.5e9, 1e-3);
	u[0] = 0.5;
	assertNear(sib_dist_sample(&d, u), 2e9, 1e-3);
	u[0] = 0.75;
	assertNear(sib_dist_sample(&d, u), 3e9, 1e-3);
	assertNear(sib_dist_cdf(&d, 3e9), 0.75, 1e-12);
	assertNear(sib_dist_mean(&d), 0.5 * 1.5e9 + 0.5 * 3e9, 1e-3);
	double mean = draws(&d, v);
	assertNear(mean / 2.25e9, 1, 0.003);
	assertNear(v[N / 4] / 1.5e9, 1, 0.003);
	sib_dist_free(&d);
	/* an atom: equal values, rising probabilities */
	assertEqualInt(sib_dist_parse(&d, "empirical(1us:0, 1us:0.5, 2us:1)",
				      1, err, sizeof err), 0);
	u[0] = 0.3;
	assertNear(sib_dist_sample(&d, u), 1e6, 0);
	sib_dist_free(&d);
	/* errors: not rising, not from 0 to 1, too many points */
	assertTrue(sib_dist_parse(&d, "empirical(2ms:0, 1ms:1)", 1, err,
				  sizeof err) != 0);
	assertContains(err, "must not fall");
	assertTrue(sib_dist_parse(&d, "empirical(1ms:0.1, 2ms:1)", 1, err,
				  sizeof err) != 0);
	assertContains(err, "starts at probability 0");
	char big[8192] = "empirical(";
	for (int i = 0; i <= SIB_DIST_MAX_POINTS; i++)
		snprintf(big + strlen(big), sizeof big - strlen(big),
			 "%dus:%g%s", i + 1, (double)i / SIB_DIST_MAX_POINTS,
			 i == SIB_DIST_MAX_POINTS ? ")" : ", ");
	assertTrue(sib_dist_parse(&d, big, 1, err, sizeof err) != 0);
	assertContains(err, "at most 101 points");
}

static void test_mixture(double *v)
{
	sib_dist d;
	/* 30% around 1 ms, 70% around 5 ms: the weights, each mode's mean */
	assertEqualInt(sib_dist_parse(&d, "mix(3 normal(1ms, 10us), 7 "
				      "normal(5ms, 50us))", 1, err,
				      sizeof err), 0);
	assertEqualInt(d.n, 2);
	assertNear(d.w[0], 0.3, 1e-15);
	double mean = draws(&d, v);
	int below = 0;
	double s1 = 0;
	for (int i = 0; i < N; i++)
		if (v[i] < 3e9) {
			below++;
			s1 += v[i];
		}
	assertNear((double)below / N, 0.3, 0.003);
	assertNear(s1 / below / 1e9, 1, 0.001);
	assertNear(mean / (0.3e9 + 3.5e9), 1, 0.002);
	assertNear(sib_dist_cdf(&d, 3e9), 0.3, 1e-9);
	/* written and parsed back: the same distribution */
	char buf[1024];
	FILE *f = fmemopen(buf, sizeof buf, "w");
	sib_dist_write(f, &d, 1);
	fclose(f);
	sib_dist e;
	assertEqualInt(sib_dist_parse(&e, buf, 1, err, sizeof err), 0);
	assertEqualInt(e.n, 2);
	assertNear(e.w[0], 0.3, 1e-15);
	assertNear(e.c[1].b, 5e7, 0);
	sib_dist_free(&e);
	sib_dist_free(&d);
	/* errors name what is wrong */
	assertTrue(sib_dist_parse(&d, "mix(1 mix(1 fixed(1ms)))", 1, err,
				  sizeof err) != 0);
	assertContains(err, "unknown distribution");
	assertTrue(sib_dist_parse(&d, "gauss(1ms, 2us)", 1, err,
				  sizeof err) != 0);
	assertContains(err, "lognormal(MEDIAN, SIGMA)");
	assertTrue(sib_dist_parse(&d, "normal(1, 2us)", 1, err,
				  sizeof err) != 0);
	assertContains(err, "unit");
	assertTrue(sib_dist_parse(&d, "lognormal(1ms, -1)", 1, err,
				  sizeof err) != 0);
	assertContains(err, "at least 0");
	assertTrue(sib_dist_parse(&d, "normal(1ms, 2us) x", 1, err,
				  sizeof err) != 0);
	assertContains(err, "unexpected text");
}

int main(void)
{
	double *v = malloc(N * sizeof *v);
	if (!v)
		return 99;
	test_random();
	test_parametric(v);
	test_empirical(v);
	test_mixture(v);
	free(v);
	return TEST_EXIT();
}
