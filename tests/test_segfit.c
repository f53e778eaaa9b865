/*
 * test_segfit.c -- segmented regression (calibrate/segfit.h) on points of
 * known pieces: the breakpoints and lines are found exactly without
 * noise, within a size step and 3% with 2% noise, one line stays one
 * segment, no intercept is negative, and bad input is refused with a
 * sentence.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "segfit.h"
#include "sibtest.h"

#define NPTS 120

/* Three protocols: 1us + n / 5GB/s below 4 KiB, 3us + n / 8GB/s below
 * 64 KiB, 10us + n / 10GB/s above. */
static double truth(double n)
{
	if (n < 4096)
		return 1e-6 + n / 5e9;
	if (n < 65536)
		return 3e-6 + n / 8e9;
	return 10e-6 + n / 10e9;
}

/* Sizes 0 and then log-spaced to 16 MiB, rounded, increasing. */
static size_t sizes(double *x)
{
	size_t n = 0;

	x[n++] = 0;
	for (int i = 0; i < NPTS - 1; i++) {
		double v = floor(pow(2, 24.0 * i / (NPTS - 2)));

		if (v > x[n - 1])
			x[n++] = v;
	}
	return n;
}

/* Uniform in [-1, 1) from a SplitMix64 stream. */
static double noise(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / 4503599627370496.0 - 1;
}

static int near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* The first size at or above a breakpoint. */
static double first_at(const double *x, size_t n, double v)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] >= v)
			return x[i];
	return -1;
}

static void test_exact(void)
{
	double x[NPTS], y[NPTS];
	size_t n = sizes(x);
	char err[256];
	cal_fit f;

	for (size_t i = 0; i < n; i++)
		y[i] = truth(x[i]);
	assertEqualInt(cal_segfit(x, y, n, CAL_MAX_SEGMENTS, &f, err,
				  sizeof err), 0);
	/* Three segments hold when their breakpoints are chosen for it
	 * (the split of least squares needed four). */
	assertEqualInt(f.n, 3);
	assertTrue(f.seg[0].x0 == 0);
	assertTrue(f.seg[1].x0 == first_at(x, n, 4096));
	assertTrue(f.seg[2].x0 == first_at(x, n, 65536));
	assertTrue(near(f.seg[0].a, 1e-6, 1e-9));
	assertTrue(near(f.seg[0].b, 1 / 5e9, 1e-9));
	assertTrue(near(f.seg[1].a, 3e-6, 1e-9));
	assertTrue(near(f.seg[1].b, 1 / 8e9, 1e-9));
	assertTrue(near(f.seg[2].a, 10e-6, 1e-9));
	assertTrue(near(f.seg[2].b, 1 / 10e9, 1e-9));
	assertTrue(f.sse < 1e-20);
	for (size_t i = 0; i < n; i++)
		if (!near(cal_fit_eval(&f, x[i]), y[i], 1e-9)) {
			TEST_FAIL("size %.0f: %g, not %g", x[i],
				  cal_fit_eval(&f, x[i]), y[i]);
			break;
		}
	/* At most two segments: the best two. */
	assertEqualInt(cal_segfit(x, y, n, 2, &f, err, sizeof err), 0);
	assertEqualInt(f.n, 2);
}

static void test_noisy(void)
{
	double x[NPTS], y[NPTS];
	size_t n = sizes(x), bad = 0;
	uint64_t s = 42;
	char err[256];
	cal_fit f;

	for (size_t i = 0; i < n; i++)
		y[i] = truth(x[i]) * (1 + 0.02 * noise(&s));
	assertEqualInt(cal_segfit(x, y, n, CAL_MAX_SEGMENTS, &f, err,
				  sizeof err), 0);
	/* Three segments hold when their breakpoints are chosen for it
	 * (the split of least squares needed four). */
	assertEqualInt(f.n, 3);
	if (f.n == 3) {
		/* Within one measured size of the true breakpoints. */
		assertTrue(f.seg[1].x0 >= 4096 / 1.2 &&
			   f.seg[1].x0 <= 4096 * 1.2);
		assertTrue(f.seg[2].x0 >= 65536 / 1.2 &&
			   f.seg[2].x0 <= 65536 * 1.2);
	}
	for (size_t i = 0; i < n; i++)
		bad += !near(cal_fit_eval(&f, x[i]), truth(x[i]), 0.03);
	assertEqualInt(bad, 0);
}

/* Points on a curve (time growing as n^1.2 past the caches, 4 to 16
 * MiB), which a line through the origin fits within 5% only over a
 * ratio of sizes below 1.6: the choice "within 5% at every point" takes
 * the fewest segments that hold, and with a bound no fit can
 * meet the count of the smallest worst error. */
static void test_within(void)
{
	double x[40], y[40], w = 0;
	char err[256];
	cal_fit f, g;

	for (size_t i = 0; i < 40; i++) {
		x[i] = 4194304.0 * (1 + (double)i * 0.075);
		y[i] = 1e-9 * pow(x[i], 1.2);
	}
	assertEqualInt(cal_segfit_within(x, y, 40, CAL_MAX_SEGMENTS, 0.05,
					 &f, err, sizeof err), 0);
	for (size_t i = 0; i < 40; i++) {
		double r = fabs(cal_fit_eval(&f, x[i]) - y[i]) / y[i];
		w = r > w ? r : w;
	}
	assertTrue(w <= 0.05);
	/* Three segments hold when their breakpoints are chosen for it
	 * (the split of least squares needed four). */
	assertEqualInt(f.n, 3);
	/* Fewest: one segment less is not within 1%. */
	assertEqualInt(cal_segfit_within(x, y, 40, f.n - 1, 0.05, &g, err,
					 sizeof err), 0);
	w = 0;
	for (size_t i = 0; i < 40; i++) {
		double r = fabs(cal_fit_eval(&g, x[i]) - y[i]) / y[i];
		w = r > w ? r : w;
	}
	assertTrue(f.n == 1 || w > 0.05);
	/* Out of reach: the count whose worst point is nearest; more
	 * segments fit a convex curve better, so all of them. */
	assertEqualInt(cal_segfit_within(x, y, 40, 4, 1e-12, &f, err,
					 sizeof err), 0);
	assertEqualInt(f.n, 4);
}

/* A run of sizes whose times fall (noise between neighbours) gets a flat
 * line, not a falling one. */
static void test_no_fall(void)
{
	double x[4] = { 1, 2, 3, 4 }, y[4] = { 5, 4, 3, 2 };
	char err[256];
	cal_fit f;

	assertEqualInt(cal_segfit(x, y, 4, 1, &f, err, sizeof err), 0);
	assertTrue(f.seg[0].b == 0);
	assertTrue(f.seg[0].a > 2 && f.seg[0].a < 5);
}

static void test_one_line(void)
{
	double x[NPTS], y[NPTS];
	size_t n = sizes(x);
	uint64_t s = 7;
	char err[256];
	cal_fit f;

	for (size_t i = 0; i < n; i++)
		y[i] = (2e-6 + x[i] / 3e9) * (1 + 0.01 * noise(&s));
	assertEqualInt(cal_segfit(x, y, n, CAL_MAX_SEGMENTS, &f, err,
				  sizeof err), 0);
	assertEqualInt(f.n, 1);
	assertTrue(near(f.seg[0].a, 2e-6, 0.02));
	assertTrue(near(f.seg[0].b, 1 / 3e9, 0.02));
}

/* Points on a line that crosses zero (y = n / 2 GB/s - 1 us, from 64 KiB
 * on, with 1% noise): the intercept is held at 0, and the line through
 * the origin fits them within the few percent the lost latency costs at
 * the smallest size. */
static void test_nonneg(void)
{
	double x[40], y[40];
	uint64_t s = 11;
	char err[256];
	cal_fit f;

	for (size_t i = 0; i < 40; i++) {
		x[i] = 65536.0 * (1 + (double)i);
		y[i] = (x[i] / 2e9 - 1e-6) * (1 + 0.01 * noise(&s));
	}
	assertEqualInt(cal_segfit(x, y, 40, 1, &f, err, sizeof err), 0);
	assertEqualInt(f.n, 1);
	assertTrue(f.seg[0].a == 0);
	assertTrue(near(f.seg[0].b, 1 / 2e9, 0.03));
	for (size_t i = 0; i < 40; i++)
		assertTrue(near(cal_fit_eval(&f, x[i]), y[i], 0.06));
	/* Any number of segments: none has a negative intercept. */
	assertEqualInt(cal_segfit(x, y, 40, CAL_MAX_SEGMENTS, &f, err,
				  sizeof err), 0);
	for (int k = 0; k < f.n; k++)
		assertTrue(f.seg[k].a >= 0);
}

static void test_refusals(void)
{
	double x[4] = { 1, 2, 3, 4 }, y[4] = { 1, 2, 3, 4 };
	char err[256];
	cal_fit f;

	assertEqualInt(cal_segfit(x, y, 2, 4, &f, err, sizeof err), -1);
	assertContains(err, "at least 3 points, got 2");
	x[2] = 2;
	assertEqualInt(cal_segfit(x, y, 4, 4, &f, err, sizeof err), -1);
	assertContains(err, "point 3: x = 2 does not follow 2");
	x[2] = 3;
	y[1] = 0;
	assertEqualInt(cal_segfit(x, y, 4, 4, &f, err, sizeof err), -1);
	assertContains(err, "point 2: y = 0");
	y[1] = 2;
	assertEqualInt(cal_segfit(x, y, 4, 0, &f, err, sizeof err), -1);
	assertContains(err, "1 to 12 segments, not 0");
	/* Four points hold one segment only. */
	assertEqualInt(cal_segfit(x, y, 4, 8, &f, err, sizeof err), 0);
	assertEqualInt(f.n, 1);
}

static void test_median(void)
{
	double a[] = { 5, 1, 4 }, b[] = { 4, 1, 3, 2 };

	assertTrue(cal_median(a, 3) == 4);
	assertTrue(cal_median(b, 4) == 2.5);
	assertTrue(cal_median(b, 0) == 0);
}

int main(void)
{
	test_exact();
	test_noisy();
	test_one_line();
	test_within();
	test_no_fall();
	test_nonneg();
	test_refusals();
	test_median();
	return TEST_EXIT();
}
