/*
 * segfit.h -- segmented regression: a piecewise-linear model y = a + b x
 * of measured points whose breakpoints are found from the data
 * (libsibyl-calib; names cal_).
 *
 * MPI's point-to-point time is linear in the message size only piece by
 * piece, one piece per protocol (the HPL study of Cornebize et al.,
 * section VI.B and figure 7), and the sizes where the protocol changes
 * are not known in advance.  cal_segfit finds them: among every split of
 * the points, sorted by x, into at most max_segments runs of consecutive
 * points, each fitted by least squares, it returns the one of the best
 * Bayesian information criterion, so that a new segment is kept only when
 * it explains the data better than its three parameters cost.
 *
 * Every segment's intercept is at least 0: it is a latency, and the
 * machine model's pieces cannot take a negative one; and its slope too:
 * a time does not fall as the size grows.  A segment whose
 * free line would cross zero is fitted through the origin instead, and
 * the search weighs it so (it may then prefer another split).
 *
 * The residuals are relative, (y - fit) / y: the times of a calibration
 * span six orders of magnitude (a microsecond to milliseconds), and an
 * absolute criterion would give the small messages no weight.  The search
 * is exact (dynamic programming over the split points, O(K n^2) with
 * closed-form least squares from prefix sums), which is cheap for the
 * hundred or so sizes a calibration measures.
 */
#ifndef SIBYL_SEGFIT_H
#define SIBYL_SEGFIT_H

#include <stddef.h>

/* The most segments a fit may have. */
#define CAL_MAX_SEGMENTS 12
/* The fewest points of a segment (a line and a check of it). */
#define CAL_MIN_POINTS 3

/* One segment: y = a + b x for points i0..i1 (indices into the input). */
typedef struct cal_segment {
	size_t i0, i1;
	double x0, x1;		/* x of its first and last point */
	double a, b;
	double sse;		/* sum of squared relative residuals */
} cal_segment;

typedef struct cal_fit {
	int n;			/* segments */
	cal_segment seg[CAL_MAX_SEGMENTS];
	double sse;		/* of all segments */
	double bic;
} cal_fit;

/*
 * Fit n points (x increasing, y > 0) with at most max_segments segments
 * (1..CAL_MAX_SEGMENTS).  Returns 0, or -1 with a sentence in err (fewer
 * than CAL_MIN_POINTS points, x not increasing, y not positive).
 */
int cal_segfit(const double *x, const double *y, size_t n, int max_segments,
	       cal_fit *out, char *err, size_t errlen);

/*
 * The same, choosing the breakpoints and their number otherwise: for each
 * number of segments, the split whose points fall least beyond max_rel
 * of their segment's line (as a fraction: 0.05 is 5%; the sum of the
 * squared excesses, each segment still fitted by least squares), ties to
 * the least sum of squares; and the fewest segments (at most
 * max_segments) that hold every point within max_rel, or when none do,
 * the count whose points fall least beyond it.
 * max_rel <= 0 is cal_segfit.  For a model that must hold at every size
 * measured, not only on average.
 */
int cal_segfit_within(const double *x, const double *y, size_t n,
		      int max_segments, double max_rel, cal_fit *out,
		      char *err, size_t errlen);

/* The fitted value at x: the segment whose range holds x, or the nearest
 * one outside them. */
double cal_fit_eval(const cal_fit *f, double x);

/* The median of v[0..n) (v is sorted in place); 0 for n == 0. */
double cal_median(double *v, size_t n);

#endif /* SIBYL_SEGFIT_H */
