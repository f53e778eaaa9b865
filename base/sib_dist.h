/*
 * sib_dist.h -- counter-based random numbers and the distributions of
 * the variability models (docs/variability.md).
 *
 * Randomness is a pure function of a key: sib_rand_u64(seed, a, b,
 * stream) mixes its four words with the finalizer of splitmix64, so a
 * draw for (seed, PE, SEB index, stream) is the same whatever order a
 * simulator computes it in.  Draws turn uniforms into values by
 * inversion (one uniform, one value), so a quantile of a distribution
 * and the value drawn from that uniform are the same number.
 *
 * A distribution is of values (picoseconds, for durations) or of
 * factors (no unit), as its parser was told:
 *   normal(MEAN, SD)             clamped at 0
 *   lognormal(MEDIAN, SIGMA)     exp(ln MEDIAN + SIGMA N(0,1)); SIGMA
 *                                has no unit
 *   uniform(LO, HI)
 *   fixed(V)
 *   empirical(X1:F1, X2:F2, ...) a CDF through its points: F rises from
 *                                0 to 1, X does not fall; linear between
 *   mix(W1 DIST1, W2 DIST2, ...) a mixture (weights need not sum to 1);
 *                                its components are not mixtures
 * Every name starts with "sib_".
 */
#ifndef SIBYL_SIB_DIST_H
#define SIBYL_SIB_DIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The random word of a key. */
uint64_t sib_rand_u64(uint64_t seed, uint64_t a, uint64_t b,
		      uint64_t stream);
/* A word as a uniform in the open interval (0, 1). */
double sib_rand_unit(uint64_t r);
/* The standard normal quantile of p in (0, 1), to about 1e-15. */
double sib_norm_quantile(double p);
/* The standard normal CDF. */
double sib_norm_cdf(double x);

typedef enum sib_dist_kind {
	SIB_DIST_FIXED, SIB_DIST_NORMAL, SIB_DIST_LOGNORMAL,
	SIB_DIST_UNIFORM, SIB_DIST_EMPIRICAL, SIB_DIST_MIX
} sib_dist_kind;

/* Most points of an empirical CDF (100 bins). */
#define SIB_DIST_MAX_POINTS 101
/* Most components of a mixture. */
#define SIB_DIST_MAX_MIX 16

typedef struct sib_dist sib_dist;
struct sib_dist {
	sib_dist_kind kind;
	double a, b;        /* fixed: a; normal: mean, sd; lognormal:
	                       median, sigma; uniform: lo, hi */
	uint32_t n;         /* empirical: points; mix: components */
	double *x, *f;      /* empirical: the points (n of each) */
	double *w;          /* mix: cumulative weights, the last 1 */
	sib_dist *c;        /* mix: the components */
};

/*
 * Parse text as a distribution.  time: its values are durations with a
 * unit (kept in picoseconds); otherwise plain numbers (factors).  The
 * result owns its arrays: sib_dist_free.  0, or -1 with a sentence in
 * err that quotes the part at fault.
 */
int sib_dist_parse(sib_dist *d, const char *text, int time, char *err,
		   size_t errlen);
/* Check an empirical distribution built by hand (x, f, n set); 0 or -1
 * with a sentence.  Also checks every other kind's parameters. */
int sib_dist_check(const sib_dist *d, char *err, size_t errlen);
void sib_dist_free(sib_dist *d);
/* A deep copy; 0 or -1 out of memory. */
int sib_dist_copy(sib_dist *to, const sib_dist *from);

/* The value drawn from uniforms u[0] (the inverse CDF) and u[1] (the
 * component of a mixture), never below 0. */
double sib_dist_sample(const sib_dist *d, const double u[2]);
/* The CDF at x (of a mixture: the weighted sum). */
double sib_dist_cdf(const sib_dist *d, double x);
/* The mean. */
double sib_dist_mean(const sib_dist *d);

/* Write d in the syntax sib_dist_parse reads (time: values in ps). */
void sib_dist_write(FILE *f, const sib_dist *d, int time);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_DIST_H */
