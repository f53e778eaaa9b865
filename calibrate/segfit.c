/*
 * segfit.c -- segmented regression by exact search (segfit.h).
 *
 * cost(i, j), the weighted least-squares fit of points i..j, is computed
 * directly from centred sums rather than from prefix sums: with weights
 * 1/y^2 of the order of 10^12 and x up to 10^7, differences of prefix
 * sums lose every digit.  The O(n^3) this costs is a few million
 * operations for the sizes of a calibration.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "segfit.h"
#include "sib_err.h"

/* Fit points i..j (j - i + 1 >= 1) by y = a + b x, a >= 0 and b >= 0,
 * with weights 1/y^2; the sum of squared relative residuals. */
static double fit_run(const double *x, const double *y, size_t i, size_t j,
		      double *a, double *b, double tol, double *excess)
{
	double sw = 0, mx = 0, my = 0, sxx = 0, sxy = 0, sse = 0;
	size_t k;

	for (k = i; k <= j; k++) {
		double w = 1 / (y[k] * y[k]);

		sw += w;
		mx += w * x[k];
		my += w * y[k];
	}
	mx /= sw;
	my /= sw;
	for (k = i; k <= j; k++) {
		double w = 1 / (y[k] * y[k]), dx = x[k] - mx;

		sxx += w * dx * dx;
		sxy += w * dx * (y[k] - my);
	}
	*b = sxx > 0 ? sxy / sxx : 0;
	*a = my - *b * mx;
	if (*b < 0) {
		/* A time does not fall as the size grows (noise between
		 * neighbours can make it look so): the best flat line. */
		*b = 0;
		*a = my;
	}
	if (*a < 0) {
		/* A time's intercept is a latency, never negative: the
		 * least-squares line under a >= 0 then passes through the
		 * origin (the problem is convex in a, so its constrained
		 * optimum lies on the bound). */
		double s2 = 0, s1 = 0;

		for (k = i; k <= j; k++) {
			double w = 1 / (y[k] * y[k]);

			s2 += w * x[k] * x[k];
			s1 += w * x[k] * y[k];
		}
		*a = 0;
		*b = s2 > 0 ? s1 / s2 : 0;
	}
	if (excess)
		*excess = 0;
	for (k = i; k <= j; k++) {
		double r = (y[k] - (*a + *b * x[k])) / y[k];

		sse += r * r;
		if (excess && fabs(r) > tol)
			*excess += (fabs(r) - tol) * (fabs(r) - tol);
	}
	return sse;
}

static int check_points(const double *x, const double *y, size_t n,
			int max_segments, char *err, size_t errlen)
{
	if (n < CAL_MIN_POINTS)
		return sib_errf(err, errlen, "a fit needs at least %d points, "
				"got %zu", CAL_MIN_POINTS, n);
	if (max_segments < 1 || max_segments > CAL_MAX_SEGMENTS)
		return sib_errf(err, errlen, "a fit has 1 to %d segments, not "
				"%d", CAL_MAX_SEGMENTS, max_segments);
	for (size_t k = 0; k < n; k++) {
		if (!(y[k] > 0) || !isfinite(y[k]) || !isfinite(x[k]))
			return sib_errf(err, errlen, "point %zu: y = %g; the "
					"fitted times must be positive and "
					"finite", k + 1, y[k]);
		if (k && !(x[k] > x[k - 1]))
			return sib_errf(err, errlen, "point %zu: x = %g does "
					"not follow %g; give the points by "
					"increasing x", k + 1, x[k], x[k - 1]);
	}
	return 0;
}

/* BIC of k segments with total error sse over n points: 3 parameters a
 * segment (a, b and where it starts), less the first one's start. */
static double bic(double sse, size_t n, int k)
{
	double floor = 1e-18 * (double)n;

	return (double)n * log((sse > floor ? sse : floor) / (double)n) +
	       (3.0 * k - 1) * log((double)n);
}

/* The segments of the best split into k runs, from the table of best
 * starts, into out. */
static void unwind(const double *x, const double *y, size_t n, int k,
		   const size_t *from, cal_fit *out)
{
	size_t j = n - 1;

	out->n = k;
	out->sse = 0;
	for (int s = k - 1; s >= 0; s--) {
		size_t i = from[(size_t)s * n + j];
		cal_segment *g = &out->seg[s];

		g->i0 = i;
		g->i1 = j;
		g->x0 = x[i];
		g->x1 = x[j];
		g->sse = fit_run(x, y, i, j, &g->a, &g->b, 0, NULL);
		out->sse += g->sse;
		j = i - 1;
	}
}

int cal_segfit(const double *x, const double *y, size_t n, int max_segments,
	       cal_fit *out, char *err, size_t errlen)
{
	return cal_segfit_within(x, y, n, max_segments, 0, out, err, errlen);
}

int cal_segfit_within(const double *x, const double *y, size_t n,
		      int max_segments, double max_rel, cal_fit *out,
		      char *err, size_t errlen)
{
	double *best, *cost, *wcost = NULL, *bw = NULL;
	size_t *from;
	int kmax = max_segments;

	memset(out, 0, sizeof *out);
	if (check_points(x, y, n, max_segments, err, errlen))
		return -1;
	if ((size_t)kmax > n / CAL_MIN_POINTS)
		kmax = (int)(n / CAL_MIN_POINTS);
	best = malloc((size_t)kmax * n * sizeof *best);
	from = malloc((size_t)kmax * n * sizeof *from);
	cost = malloc(n * n * sizeof *cost);
	if (max_rel > 0) {
		wcost = malloc(n * n * sizeof *wcost);
		bw = malloc((size_t)kmax * n * sizeof *bw);
	}
	if (!best || !from || !cost || (max_rel > 0 && (!wcost || !bw))) {
		free(best);
		free(from);
		free(cost);
		free(wcost);
		free(bw);
		return sib_errf(err, errlen, "out of memory fitting %zu "
				"points", n);
	}
	/* cost[i*n + j]: the fit of points i..j, when long enough;
	 * wcost[i*n + j]: how far its points fall beyond max_rel of its
	 * line (the sum of the squared excesses). */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + CAL_MIN_POINTS - 1; j < n; j++) {
			double a, b;

			cost[i * n + j] = fit_run(x, y, i, j, &a, &b, max_rel,
						  wcost ? &wcost[i * n + j] :
						  NULL);
		}
	/*
	 * best[k*n + j]: points 0..j in k+1 runs; HUGE_VAL: impossible.
	 * Without max_rel, the split of the least sum of squares.  With
	 * it, the split whose points fall least beyond max_rel of their
	 * lines (bw: the sum of the squared excesses; 0 when every point
	 * is within), ties to the least sum of squares: a model that must
	 * hold within max_rel at every size needs the breakpoints that
	 * bound its worst points, and the split of least squares can leave
	 * a step of a few sizes (a shared-memory transport's first 15
	 * bytes, 9% faster) to one line while it spends its segments where
	 * many points are.
	 */
	for (int k = 0; k < kmax; k++)
		for (size_t j = 0; j < n; j++) {
			double *bj = &best[(size_t)k * n + j];
			double *wj = bw ? &bw[(size_t)k * n + j] : NULL;

			*bj = HUGE_VAL;
			if (wj)
				*wj = HUGE_VAL;
			if (k == 0) {
				if (j + 1 >= CAL_MIN_POINTS) {
					*bj = cost[j];
					if (wj)
						*wj = wcost[j];
					from[j] = 0;
				}
				continue;
			}
			for (size_t i = (size_t)k * CAL_MIN_POINTS;
			     i + CAL_MIN_POINTS - 1 <= j; i++) {
				size_t pk = (size_t)(k - 1) * n + i - 1;
				double c = best[pk];

				if (c == HUGE_VAL)
					continue;
				c += cost[i * n + j];
				if (wj) {
					double w = bw[pk] + wcost[i * n + j];

					if (w > *wj || (w == *wj && c >= *bj))
						continue;
					*wj = w;
				} else if (c >= *bj) {
					continue;
				}
				*bj = c;
				from[(size_t)k * n + j] = i;
			}
		}
	/* The number of segments of the lowest BIC; ties to fewer. */
	int kbest = 1;
	double bbest = bic(best[n - 1], n, 1);

	for (int k = 2; !bw && k <= kmax; k++) {
		double s = best[(size_t)(k - 1) * n + n - 1];

		if (s != HUGE_VAL && bic(s, n, k) < bbest) {
			bbest = bic(s, n, k);
			kbest = k;
		}
	}
	/* Or the fewest whose every point is within max_rel, and when no
	 * count is, the count whose points fall least beyond it. */
	double wbest = HUGE_VAL;
	int kw = 0;

	for (int k = 1; bw && k <= kmax; k++) {
		double w = bw[(size_t)(k - 1) * n + n - 1];

		if (w == HUGE_VAL)
			continue;
		if (w < wbest) {
			wbest = w;
			kw = k;
		}
		if (w == 0)
			break;
	}
	if (kw) {
		kbest = kw;
		bbest = bic(best[(size_t)(kw - 1) * n + n - 1], n, kw);
	}
	unwind(x, y, n, kbest, from, out);
	out->bic = bbest;
	free(best);
	free(from);
	free(cost);
	free(wcost);
	free(bw);
	return 0;
}

double cal_fit_eval(const cal_fit *f, double x)
{
	int s = 0;

	while (s + 1 < f->n && x >= f->seg[s + 1].x0)
		s++;
	return f->seg[s].a + f->seg[s].b * x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double cal_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
