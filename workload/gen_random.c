/*
 * gen_random.c -- the randomness of the synthetic patterns
 * (gen_patterns.c): a counter-based generator (splitmix64 of the seed, a
 * stream constant, the rank and the iteration), so that a trace depends
 * only on its parameters, never on the order in which ranks are produced;
 * the jittered compute time and the random permutations built on it.
 */
#include "config.h"

#include "gen_patterns.h"

/* Stream constants for the counter-based generator. */
#define STREAM_JITTER 0x6a69747465720001ULL
#define STREAM_PERM 0x7065726d75740002ULL

uint64_t gen_splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	uint64_t h = gen_splitmix64(gen_splitmix64(a) ^ b);

	return gen_splitmix64(gen_splitmix64(h ^ c) ^ d);
}

sibt_time gen_jittered(const gen_params *gp, uint32_t pe, uint32_t k)
{
	uint64_t h;
	double u, d;

	if (gp->jitter == 0.0 || gp->compute == 0)
		return gp->compute;
	h = hash4(gp->seed, STREAM_JITTER, pe, k);
	u = (double)(h >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
	d = (double)gp->compute * (1.0 + gp->jitter * u);
	return d <= 0.0 ? 0 : (sibt_time)(d + 0.5);
}

void gen_perm_init(gen_perm *pm, uint32_t n, uint64_t seed, uint64_t k,
		   uint64_t m)
{
	unsigned bits = 1;
	int i;

	while (bits < 32 && (1ULL << bits) < n)
		bits++;
	pm->n = n;
	pm->lbits = bits / 2;
	pm->rbits = bits - pm->lbits;
	for (i = 0; i < GEN_PERM_ROUNDS; i++)
		pm->key[i] = hash4(seed, STREAM_PERM, (k << 32) | m, i);
}

static uint64_t mask(unsigned bits)
{
	return (1ULL << bits) - 1;
}

/* One round maps (l, r) of widths (wl, wr) to (r, l ^ F(r)) of widths
 * (wr, wl); an even number of rounds restores the widths. */
static uint64_t perm_enc(const gen_perm *pm, uint64_t x)
{
	unsigned wl = pm->lbits, wr = pm->rbits, t;
	uint64_t l = x >> wr, r = x & mask(wr), nl;
	int i;

	for (i = 0; i < GEN_PERM_ROUNDS; i++) {
		nl = r;
		r = (l ^ gen_splitmix64(pm->key[i] ^ r)) & mask(wl);
		l = nl;
		t = wl;
		wl = wr;
		wr = t;
	}
	return (l << wr) | r;
}

static uint64_t perm_dec(const gen_perm *pm, uint64_t x)
{
	unsigned wl = pm->lbits, wr = pm->rbits, t;
	uint64_t l = x >> wr, r = x & mask(wr), pl;
	int i;

	for (i = GEN_PERM_ROUNDS - 1; i >= 0; i--) {
		pl = (r ^ gen_splitmix64(pm->key[i] ^ l)) & mask(wr);
		r = l;
		l = pl;
		t = wl;
		wl = wr;
		wr = t;
	}
	return (l << wr) | r;
}

uint32_t gen_perm_fwd(const gen_perm *pm, uint32_t x)
{
	uint64_t y = perm_enc(pm, x);

	while (y >= pm->n)
		y = perm_enc(pm, y);
	return (uint32_t)y;
}

uint32_t gen_perm_inv(const gen_perm *pm, uint32_t x)
{
	uint64_t y = perm_dec(pm, x);

	while (y >= pm->n)
		y = perm_dec(pm, y);
	return (uint32_t)y;
}
