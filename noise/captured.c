/*
 * captured.c -- captured noise: a sorted list of (start, duration)
 * detours on one core, measured over a capture of `length'.
 *
 * The capture is replicated onto every node and repeated in time with
 * period `length'.  Node n sees it shifted by an offset phi(n) in
 * [0, length) drawn from splitmix64 of (seed, node, core); co-scheduled
 * noise uses node 0's offset everywhere.  Time t of node n is time
 * (t - phi(n)) mod length of the capture.  The durations of the detours
 * that start before capture time x are G(x) = floor(x / length) * total
 * + cum[i], i the number of detour starts below x mod length (a binary
 * search); an amount is a difference of two G.
 */
#include "config.h"

#include <stdlib.h>

#include "noise.h"

struct noise_src {
	size_t n;
	sib_ps length, total; /* total: scaled durations of one copy */
	uint64_t seed;
	int cosched;
	sib_ps *start;        /* n */
	sib_ps *cum;          /* n + 1: cum[i] = scaled durations of 0..i-1 */
};

uint64_t noise_splitmix64(uint64_t x)
{
	uint64_t z = x + UINT64_C(0x9E3779B97F4A7C15);
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

sib_ps noise_captured_offset(uint64_t seed, uint32_t node, uint32_t core,
				 sib_ps length)
{
	if (length <= 0)
		return 0;
	uint64_t h = noise_splitmix64(seed);
	h = noise_splitmix64(h ^ node);
	h = noise_splitmix64(h ^ ((uint64_t)core << 32 | 0x6e6f697365u));
	/* A multiply-shift maps h onto [0, length) without modulo bias
	 * worth speaking of and without a division. */
	return (sib_ps)(((unsigned __int128)h * (uint64_t)length) >> 64);
}

/* x = q * length + r, 0 <= r < length; returns the number of detour
 * starts below r. */
static size_t locate(const noise_src *s, int64_t x, int64_t *q,
		     sib_ps *r)
{
	int64_t qq = x / s->length, rr = x % s->length;
	if (rr < 0) {
		rr += s->length;
		qq--;
	}
	*q = qq;
	*r = (sib_ps)rr;
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->start[mid] < rr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Scaled durations of the detours starting before capture time x. */
static __int128 g(const noise_src *s, int64_t x)
{
	int64_t q;
	sib_ps r;
	size_t i = locate(s, x, &q, &r);
	return (__int128)q * s->total + s->cum[i];
}

static sib_ps captured_next(const noise_src *s, uint32_t node,
				uint32_t core, sib_ps t)
{
	if (!s->n)
		return INT64_MAX;
	sib_ps phi = noise_captured_offset(s->seed, s->cosched ? 0 : node,
					       core, s->length);
	int64_t q;
	sib_ps r;
	size_t i = locate(s, t - phi, &q, &r);
	__int128 n = i < s->n ? (__int128)t + (s->start[i] - r) :
		(__int128)t + (s->length - r) + s->start[0];
	return n > INT64_MAX ? INT64_MAX : (sib_ps)n;
}

static sib_ps captured_amount(const noise_src *s, uint32_t node,
				  uint32_t core, sib_ps t0, sib_ps t1)
{
	if (t1 <= t0 || s->total == 0)
		return 0;
	sib_ps phi = noise_captured_offset(s->seed, s->cosched ? 0 : node,
					       core, s->length);
	/* t >= 0 and 0 <= phi < length: t - phi cannot overflow. */
	__int128 a = g(s, t1 - phi) - g(s, t0 - phi);
	return a > INT64_MAX ? INT64_MAX : (sib_ps)a;
}

static void captured_fraction(const noise_src *s, uint64_t *num,
			      uint64_t *den)
{
	*num = (uint64_t)s->total;
	*den = (uint64_t)s->length;
}

static void captured_free(noise_src *s)
{
	if (!s)
		return;
	free(s->start);
	free(s->cum);
	free(s);
}

const noise_ops noise_captured_ops = {
	.name = "captured",
	.amount = captured_amount,
	.next = captured_next,
	.fraction = captured_fraction,
	.free = captured_free,
};

noise_src *noise_captured_new(const sib_ps *start, const sib_ps *dur,
			      size_t n, sib_ps length, uint64_t seed,
			      int cosched, int64_t num, int64_t den)
{
	noise_src *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->start = malloc((n ? n : 1) * sizeof *s->start);
	s->cum = malloc((n + 1) * sizeof *s->cum);
	if (!s->start || !s->cum) {
		captured_free(s);
		return NULL;
	}
	s->n = n;
	s->length = length > 0 ? length : 1;
	s->seed = seed;
	s->cosched = cosched;
	s->cum[0] = 0;
	for (size_t i = 0; i < n; i++) {
		sib_ps d = noise_scale_time(dur[i], num, den);
		s->start[i] = start[i];
		if (__builtin_add_overflow(s->cum[i], d, &s->cum[i + 1]))
			s->cum[i + 1] = INT64_MAX;
	}
	s->total = s->cum[n];
	return s;
}
