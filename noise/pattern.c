/*
 * pattern.c -- periodic noise: any number of patterns per core, each a
 * detour of AMPLITUDE every PERIOD starting at OFFSET (times >= 0).
 *
 * Amounts are counted arithmetically: the detours of one pattern that
 * start before t are those of k = 0 .. ceil((t - offset) / period) - 1,
 * so a query costs two divisions per pattern and nothing is stored per
 * detour.  The same patterns apply to every node (co-scheduled by
 * construction); the node argument is unused.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "noise.h"

typedef struct pat {
	sib_ps period, amp, off; /* amp already scaled */
} pat;

struct noise_src {
	size_t n;
	pat p[];
};

/* Detours of pattern q that start before t. */
static inline int64_t starts_before(const pat *q, sib_ps t)
{
	return t <= q->off ? 0 : (t - q->off - 1) / q->period + 1;
}

static sib_ps pattern_amount(const noise_src *s, uint32_t node,
				 uint32_t core, sib_ps t0, sib_ps t1)
{
	sib_ps sum = 0;
	(void)node;
	(void)core;
	for (size_t i = 0; i < s->n; i++) {
		const pat *q = &s->p[i];
		int64_t k = starts_before(q, t1) - starts_before(q, t0);
		sum += k * q->amp;
	}
	return sum;
}

static sib_ps pattern_next(const noise_src *s, uint32_t node,
				uint32_t core, sib_ps t)
{
	sib_ps best = INT64_MAX;
	(void)node;
	(void)core;
	for (size_t i = 0; i < s->n; i++) {
		const pat *q = &s->p[i];
		sib_ps n = t <= q->off ? q->off :
			q->off + starts_before(q, t) * q->period;
		if (n < best)
			best = n;
	}
	return best;
}

static void pattern_fraction(const noise_src *s, uint64_t *num,
			     uint64_t *den)
{
	/* Exact while the common denominator fits; patterns of one core
	 * are few.  On overflow, the fraction is rounded up to 1/1 so a
	 * caller treats it as "too much noise" rather than too little. */
	unsigned __int128 n = 0, d = 1;
	for (size_t i = 0; i < s->n; i++) {
		unsigned __int128 a = (uint64_t)s->p[i].amp;
		unsigned __int128 b = (uint64_t)s->p[i].period;
		n = n * b + a * d;
		d = d * b;
		unsigned __int128 x = n, y = d;
		while (y) {
			unsigned __int128 r = x % y;
			x = y;
			y = r;
		}
		if (x > 1) {
			n /= x;
			d /= x;
		}
		if (d > UINT64_MAX || n > UINT64_MAX) {
			*num = *den = 1;
			return;
		}
	}
	*num = (uint64_t)n;
	*den = (uint64_t)d;
}

static void pattern_free(noise_src *s)
{
	free(s);
}

const noise_ops noise_pattern_ops = {
	.name = "pattern",
	.amount = pattern_amount,
	.next = pattern_next,
	.fraction = pattern_fraction,
	.free = pattern_free,
};

noise_src *noise_pattern_new(const sib_ps *period, const sib_ps *amp,
			     const sib_ps *off, size_t n, int64_t num,
			     int64_t den)
{
	noise_src *s = malloc(sizeof *s + n * sizeof s->p[0]);
	if (!s)
		return NULL;
	s->n = 0;
	for (size_t i = 0; i < n; i++) {
		sib_ps a = noise_scale_time(amp[i], num, den);
		if (a == 0)
			continue;    /* no detour at all: skip the divisions */
		s->p[s->n++] = (pat){ .period = period[i], .amp = a,
				      .off = off[i] };
	}
	return s;
}
