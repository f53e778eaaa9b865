/*
 * test_workload.c -- libsibyl-workload: the synthetic patterns of `sibyl
 * trace gen' (workload/gen_patterns.h) and the mappings of `sibyl map'
 * (workload/map_place.h), through their C interfaces.
 *
 * The patterns are checked against what must hold of any of them -- every
 * message waited for is sent exactly once, to the rank that waits, with
 * the sequence number the receiver computed on its own; the totals equal
 * the closed forms; a rank's SEBs do not depend on the order ranks are
 * built in -- and against analytic destinations (ring, shift, bit
 * reversal, transpose, stencil).  The mappings against their formulas:
 * every slot used once, the blocks of the blocked orders being boxes.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen_patterns.h"
#include "map_place.h"
#include "sib_err.h"
#include "sibtest.h"

/* ---------------------------------------------------------- a sink */

/* One message as a sender or a receiver saw it. */
typedef struct msg {
	uint32_t src, dst;
	uint64_t seq, size;
} msg;

/* What the builder handed over for the ranks built so far. */
typedef struct sink {
	uint32_t pe;			/* the rank being built */
	uint64_t *next_seq;		/* per rank: sends so far */
	msg *sent, *waited;
	size_t nsent, nwaited, cap_sent, cap_waited;
	uint64_t sebs, compute;		/* of the rank being built */
	uint64_t hash;			/* of the rank being built */
	int last_skip_end;		/* its last SEB carried SKIP_END */
	int bad_pe;			/* a SEB named another rank */
} sink;

static uint64_t mix(uint64_t h, uint64_t v)
{
	return gen_splitmix64(h ^ v);
}

static int push(msg **v, size_t *n, size_t *cap, msg m)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 1024;
		msg *p = realloc(*v, c * sizeof *p);

		if (!p)
			return SIBT_ENOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = m;
	return 0;
}

static int sink_add(void *arg, const sibt_seb *seb)
{
	sink *s = arg;
	uint32_t i;

	if (seb->pe != s->pe)
		s->bad_pe = 1;
	s->sebs++;
	s->compute += (uint64_t)seb->duration;
	s->hash = mix(s->hash, (uint64_t)seb->duration);
	s->last_skip_end = 0;
	for (i = 0; i < seb->nmarkers; i++)
		if (seb->markers[i].kind == SIBT_MARK_SKIP_END)
			s->last_skip_end = 1;
	for (i = 0; i < seb->nwaits; i++) {
		msg m = { seb->waits[i].src, s->pe, seb->waits[i].seq, 0 };

		s->hash = mix(mix(s->hash, m.src), m.seq);
		if (push(&s->waited, &s->nwaited, &s->cap_waited, m))
			return SIBT_ENOMEM;
	}
	for (i = 0; i < seb->nsends; i++) {
		msg m = { s->pe, seb->sends[i].dst, s->next_seq[s->pe]++,
			  seb->sends[i].size };

		s->hash = mix(mix(mix(s->hash, m.dst), m.size),
			      (uint64_t)seb->sends[i].offset);
		if (push(&s->sent, &s->nsent, &s->cap_sent, m))
			return SIBT_ENOMEM;
	}
	return 0;
}

static int cmp_msg(const void *a, const void *b)
{
	const msg *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* ------------------------------------------------------ the patterns */

/* The parameters the CLI would use for pat on R ranks. */
static void params(gen_params *gp, const gen_pattern *pat, uint32_t R)
{
	memset(gp, 0, sizeof *gp);
	gp->ranks = R;
	gp->iters = 3;
	gp->warmup = 1;
	gp->msg_size = pat->default_msg_size;
	gp->compute = pat->default_compute;
	gp->seed = 7;
}

/*
 * Build every rank of pat (in the order given by step: 1 ascending, -1
 * descending) into s; per-rank hashes go to hashes[pe].  Returns the
 * number of failed gen_rank calls.
 */
static int build(const gen_pattern *pat, const gen_params *gp, sink *s,
		 uint64_t *hashes, uint64_t *compute, int step)
{
	gen_builder *b = gen_builder_new(sink_add, s);
	uint32_t R = gp->ranks, i;
	int bad = 0;

	assertTrue(b != NULL);
	if (!b)
		return 1;
	for (i = 0; i < R; i++) {
		uint32_t pe = step > 0 ? i : R - 1 - i;
		int rc;

		s->pe = pe;
		s->hash = 0;
		s->compute = 0;
		rc = gen_rank(b, pat, gp, pe);
		if (rc != SIBT_OK) {
			TEST_FAIL("%s: rank %u: %d (%s)", pat->name, pe, rc,
				  gen_builder_error(b));
			bad++;
		}
		if (!s->last_skip_end)
			TEST_FAIL("%s: rank %u does not end on SKIP_END",
				  pat->name, pe);
		hashes[pe] = s->hash;
		if (compute)
			compute[pe] = s->compute;
	}
	gen_builder_free(b);
	return bad;
}

static void sink_init(sink *s, uint32_t R)
{
	memset(s, 0, sizeof *s);
	s->next_seq = calloc(R, sizeof *s->next_seq);
	if (!s->next_seq)
		exit(99);
}

static void sink_free(sink *s)
{
	free(s->next_seq);
	free(s->sent);
	free(s->waited);
}

/*
 * Every message waited for was sent once, to the waiting rank; every
 * message sent is waited for once.  Both lists sorted by (src, seq) must
 * then be equal pair by pair.
 */
static void check_matching(const char *name, sink *s)
{
	size_t i, bad = 0;

	qsort(s->sent, s->nsent, sizeof *s->sent, cmp_msg);
	qsort(s->waited, s->nwaited, sizeof *s->waited, cmp_msg);
	assertEqualU64(s->nsent, s->nwaited);
	for (i = 0; i < s->nsent && i < s->nwaited && bad < 5; i++) {
		const msg *a = &s->sent[i], *w = &s->waited[i];

		if (a->src != w->src || a->seq != w->seq || a->dst != w->dst) {
			TEST_FAIL("%s: message %zu: sent %u#%" PRIu64 " -> %u, "
				  "waited %u#%" PRIu64 " at %u", name, i,
				  a->src, a->seq, a->dst, w->src, w->seq,
				  w->dst);
			bad++;
		}
	}
}

/* Every pattern on R ranks: closed forms, matching, order independence,
 * compute without jitter. */
static void test_pattern(const gen_pattern *pat, uint32_t R)
{
	gen_params gp;
	char err[256] = "";
	uint64_t *h1 = calloc(R, 8), *h2 = calloc(R, 8), *cpu = calloc(R, 8);
	uint64_t total = 0;
	gen_counts c;
	sink s;

	if (!h1 || !h2 || !cpu)
		exit(99);
	params(&gp, pat, R);
	if (pat->prepare(&gp, err, sizeof err)) {
		TEST_FAIL("%s on %u ranks: %s", pat->name, R, err);
		goto out;
	}
	sink_init(&s, R);
	build(pat, &gp, &s, h1, cpu, 1);
	assertTrue(!s.bad_pe);
	for (uint32_t q = 0; q < R; q++) {
		/* Sends of q: the closed form S(q) per iteration. */
		assertEqualU64(s.next_seq[q], gp.iters *
			       pat->sends_per_iter(&gp, q));
		/* No jitter: every rank computes iters x compute. */
		assertEqualU64(cpu[q], gp.iters * (uint64_t)gp.compute);
		total += s.next_seq[q];
	}
	assertEqualU64(total, pat->messages(&gp));
	for (size_t i = 0; i < s.nsent; i++)
		/* (stencil3d sends its face sizes instead) */
		if (s.sent[i].size != gp.msg_size &&
		    strcmp(pat->name, "stencil3d")) {
			TEST_FAIL("%s: a message of %" PRIu64 " bytes, not %"
				  PRIu64, pat->name, s.sent[i].size,
				  gp.msg_size);
			break;
		}
	check_matching(pat->name, &s);
	sink_free(&s);

	/* The same SEBs when the ranks are built in the other order, and
	 * the SEB count of the closed form. */
	sink_init(&s, R);
	{
		gen_builder *b = gen_builder_new(sink_add, &s);

		for (uint32_t i = R; i-- > 0;) {
			s.pe = i;
			s.hash = 0;
			assertEqualInt(gen_rank(b, pat, &gp, i), SIBT_OK);
			h2[i] = s.hash;
		}
		gen_builder_counts(b, &c);
		gen_builder_free(b);
	}
	assertEqualU64(c.sebs, pat->sebs(&gp));
	assertEqualU64(c.messages, pat->messages(&gp));
	for (uint32_t q = 0; q < R; q++)
		if (h1[q] != h2[q]) {
			TEST_FAIL("%s: rank %u differs when built last", pat->name,
				  q);
			break;
		}
	sink_free(&s);
out:
	gen_params_release(&gp);
	free(h1);
	free(h2);
	free(cpu);
}

/* The destinations of the first iteration's sends of rank q. */
static void first_dests(const gen_pattern *pat, gen_params *gp, uint32_t q,
			uint32_t *dst, uint32_t n)
{
	uint64_t *h = calloc(gp->ranks, 8), k = 0;
	sink s;

	sink_init(&s, gp->ranks);
	build(pat, gp, &s, h, NULL, 1);
	for (size_t i = 0; i < s.nsent && k < n; i++)
		if (s.sent[i].src == q)
			dst[k++] = s.sent[i].dst;
	assertEqualU64(k, n);
	sink_free(&s);
	free(h);
}

static uint32_t bitrev(uint32_t x, unsigned bits)
{
	uint32_t y = 0;

	for (unsigned i = 0; i < bits; i++)
		y |= ((x >> i) & 1u) << (bits - 1 - i);
	return y;
}

/* Analytic destinations of the permutation patterns and the ring. */
static void test_destinations(void)
{
	static const struct {
		const char *name;
		uint32_t shift;
	} cases[] = {
		{ "ring", 0 }, { "shift", 5 }, { "bitrev", 0 },
		{ "bitcomp", 0 }, { "transpose", 0 },
	};
	const uint32_t R = 16;

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const gen_pattern *pat = gen_pattern_find(cases[c].name);
		char err[256];
		gen_params gp;

		assertTrue(pat != NULL);
		if (!pat)
			continue;
		params(&gp, pat, R);
		gp.shift = cases[c].shift;
		assertEqualInt(pat->prepare(&gp, err, sizeof err), 0);
		for (uint32_t q = 0; q < R; q++) {
			uint32_t d = 0, want;

			if (pat->sends_per_iter(&gp, q) == 0)
				continue;
			first_dests(pat, &gp, q, &d, 1);
			switch (c) {
			case 0: want = (q + 1) % R; break;
			case 1: want = (q + 5) % R; break;
			case 2: want = bitrev(q, 4); break;
			case 3: want = q ^ (R - 1); break;
			default: want = q % 4 * 4 + q / 4; break;
			}
			if (d != want) {
				TEST_FAIL("%s: rank %u sends to %u, not %u",
					  pat->name, q, d, want);
				break;
			}
		}
		gen_params_release(&gp);
	}
}

/* A 7-point stencil on a periodic 4x2x2 grid: each rank's six faces. */
static void test_stencil(void)
{
	const gen_pattern *pat = gen_pattern_find("stencil3d");
	char err[256];
	gen_params gp;
	uint32_t d[6], q = 5;	/* (1, 1, 0) */

	params(&gp, pat, 16);
	assertEqualInt(pat->prepare(&gp, err, sizeof err), 0);
	assertEqualInt(gp.grid[0], 4);
	assertEqualInt(gp.grid[1], 2);
	assertEqualInt(gp.grid[2], 2);
	assertEqualU64(pat->sends_per_iter(&gp, q), 6);
	first_dests(pat, &gp, q, d, 6);
	/* x-1 = (0,1,0) = 4, x+1 = (2,1,0) = 6; y-1 and y+1 are both
	 * (1,0,0) = 1 on a side of 2, z-1 and z+1 both (1,1,1) = 13. */
	uint32_t want[6] = { 1, 1, 4, 6, 13, 13 }, got[6];

	memcpy(got, d, sizeof got);
	for (int i = 0; i < 6; i++)
		for (int j = i + 1; j < 6; j++)
			if (got[j] < got[i]) {
				uint32_t t = got[i];

				got[i] = got[j];
				got[j] = t;
			}
	for (int i = 0; i < 6; i++)
		assertEqualInt(got[i], want[i]);
	gen_params_release(&gp);
}

/* Requests a pattern refuses, with a sentence that names the option. */
static void test_refusals(void)
{
	static const struct {
		const char *name;
		uint32_t ranks, group, shift;
		const char *says;
	} cases[] = {
		{ "transpose", 12, 0, 0, "square" },
		{ "bitrev", 12, 0, 0, "bits" },
		{ "shift", 8, 0, 8, "--shift 8" },
		{ "alltoall", 12, 5, 0, "--group 5" },
		{ "pingpong", 1, 0, 0, "ranks" },
	};

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		const gen_pattern *pat = gen_pattern_find(cases[c].name);
		char err[256] = "";
		gen_params gp;

		params(&gp, pat, cases[c].ranks);
		gp.group = cases[c].group;
		gp.shift = cases[c].shift;
		assertEqualInt(pat->prepare(&gp, err, sizeof err), -1);
		assertContains(err, cases[c].says);
		gen_params_release(&gp);
	}
	assertTrue(gen_pattern_find("no-such-pattern") == NULL);
}

/* A compute time whose sum over the iterations passes 2^63-1 ps. */
static void test_range(void)
{
	const gen_pattern *pat = gen_pattern_find("ring");
	char err[256];
	gen_params gp;
	sink s;
	gen_builder *b;

	params(&gp, pat, 4);
	gp.compute = INT64_MAX / 2;
	assertEqualInt(pat->prepare(&gp, err, sizeof err), 0);
	sink_init(&s, 4);
	b = gen_builder_new(sink_add, &s);
	s.pe = 0;
	assertEqualInt(gen_rank(b, pat, &gp, 0), SIBT_EINVAL);
	assertContains(gen_builder_error(b), "2^63");
	gen_builder_free(b);
	sink_free(&s);
}

/* ------------------------------------------------------- randomness */

static void test_jitter(void)
{
	const gen_pattern *pat = gen_pattern_find("ring");
	gen_params gp;
	double sum = 0;
	int differ = 0, n = 0;

	params(&gp, pat, 64);
	gp.compute = 1000000;
	gp.jitter = 0.25;
	for (uint32_t pe = 0; pe < 64; pe++)
		for (uint32_t k = 0; k < 32; k++) {
			sibt_time t = gen_jittered(&gp, pe, k);

			if (t < 750000 || t > 1250000)
				TEST_FAIL("rank %u, iteration %u: %" PRId64
					  " ps outside [0.75, 1.25] us", pe, k,
					  (int64_t)t);
			sum += (double)t;
			n++;
			gp.seed = 8;
			differ += gen_jittered(&gp, pe, k) != t;
			gp.seed = 7;
			/* A function of (seed, pe, k) only. */
			assertEqualInt(gen_jittered(&gp, pe, k), t);
		}
	/* Uniform in [-1, 1): the mean of 2,048 draws is within 2% of the
	 * compute time (4.4 standard errors of 0.25/sqrt(3)/sqrt(2048)). */
	sum /= n;
	assertTrue(sum > 980000 && sum < 1020000);
	assertTrue(differ > n * 9 / 10);
	gp.jitter = 0;
	assertEqualInt(gen_jittered(&gp, 3, 4), 1000000);
}

static void test_perm(void)
{
	static const uint32_t sizes[] = { 1, 2, 3, 7, 100, 1000, 4096 };

	for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
		uint32_t n = sizes[c], moved = 0;
		unsigned char *seen = calloc(n, 1);
		gen_perm pm;
		int ok = 1;

		gen_perm_init(&pm, n, 7, 2, 0);
		for (uint32_t x = 0; x < n && ok; x++) {
			uint32_t y = gen_perm_fwd(&pm, x);

			if (y >= n || seen[y] || gen_perm_inv(&pm, y) != x)
				ok = 0;
			else
				seen[y] = 1;
			moved += y != x;
		}
		if (!ok)
			TEST_FAIL("the permutation of %u is not a bijection "
				  "with its inverse", n);
		assertTrue(n < 100 || moved > n / 2);
		free(seen);
	}
}

static void test_grid(void)
{
	static const struct {
		uint32_t n, x, y, z;
	} cases[] = {
		{ 1, 1, 1, 1 }, { 7, 7, 1, 1 }, { 12, 3, 2, 2 },
		{ 16, 4, 2, 2 }, { 64, 4, 4, 4 }, { 32768, 32, 32, 32 },
		{ 65536, 64, 32, 32 },
	};

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		uint32_t d[3];

		gen_grid_factor(cases[c].n, d);
		assertEqualInt(d[0], cases[c].x);
		assertEqualInt(d[1], cases[c].y);
		assertEqualInt(d[2], cases[c].z);
	}
}

/* -------------------------------------------------------- mappings */

static void spec(map_spec *q, const char *order, uint64_t R, uint64_t C,
		 uint64_t N)
{
	memset(q, 0, sizeof *q);
	q->ranks = R;
	q->cores = C;
	q->nodes = N;
	q->order = map_order_find(order);
	q->seed = 1;
	assertTrue(q->order != NULL);
}

/* No two ranks on one core; every node and core in range. */
static void check_slots(const map_spec *q, const map_placement *pl)
{
	size_t m = q->nodes * q->cores;
	unsigned char *used = calloc(m, 1);

	for (uint32_t r = 0; r < pl->n; r++) {
		size_t s = (size_t)pl->node_of[r] * q->cores + pl->core_of[r];

		if (pl->node_of[r] >= q->nodes || pl->core_of[r] >= q->cores ||
		    used[s]) {
			TEST_FAIL("%s: rank %u on node %u core %u (twice, or "
				  "outside %" PRIu64 " x %" PRIu64 ")",
				  q->order->name, r, pl->node_of[r],
				  pl->core_of[r], q->nodes, q->cores);
			break;
		}
		used[s] = 1;
	}
	free(used);
}

static void test_map_simple(void)
{
	map_placement pl = { 0 };
	map_node_stats st;
	char err[256];
	map_spec q;

	spec(&q, "rank", 100, 8, 13);
	assertEqualInt(map_place(&q, &pl, err, sizeof err), 0);
	for (uint32_t r = 0; r < 100; r += 7) {
		assertEqualInt(pl.node_of[r], r / 8);
		assertEqualInt(pl.core_of[r], r % 8);
	}
	assertEqualInt(map_count_nodes(pl.node_of, pl.n, &st, err, sizeof err),
		       0);
	assertEqualU64(st.used, 13);
	assertEqualU64(st.min, 4);	/* 100 = 12 x 8 + 4 */
	assertEqualU64(st.max, 8);
	check_slots(&q, &pl);
	map_placement_free(&pl);

	spec(&q, "round-robin", 100, 8, 13);
	assertEqualInt(map_place(&q, &pl, err, sizeof err), 0);
	for (uint32_t r = 0; r < 100; r += 7) {
		assertEqualInt(pl.node_of[r], r % 13);
		assertEqualInt(pl.core_of[r], r / 13);
	}
	check_slots(&q, &pl);
	map_placement_free(&pl);

	/* More ranks than cores. */
	spec(&q, "rank", 105, 8, 13);
	assertEqualInt(map_place(&q, &pl, err, sizeof err), SIB_ECONFIG);
	assertContains(err, "105 ranks do not fit");
	assertTrue(pl.node_of == NULL);
	assertTrue(map_order_find("snake") == NULL);
	assertEqualString(map_orders[0].name, "rank");
}

static void test_map_random(void)
{
	map_placement a = { 0 }, b = { 0 };
	char err[256];
	uint32_t same = 0;
	map_spec q;

	/* A full machine: a permutation of every slot. */
	spec(&q, "random", 256, 8, 32);
	assertEqualInt(map_place(&q, &a, err, sizeof err), 0);
	check_slots(&q, &a);
	/* The same seed gives the same placement, another seed another. */
	assertEqualInt(map_place(&q, &b, err, sizeof err), 0);
	assertTrue(memcmp(a.node_of, b.node_of, 256 * 4) == 0 &&
		   memcmp(a.core_of, b.core_of, 256 * 4) == 0);
	map_placement_free(&b);
	q.seed = 2;
	assertEqualInt(map_place(&q, &b, err, sizeof err), 0);
	for (uint32_t r = 0; r < 256; r++)
		same += a.node_of[r] == b.node_of[r];
	assertTrue(same < 64);	/* 8 expected: 256 ranks, 1 in 32 nodes */
	map_placement_free(&a);
	map_placement_free(&b);

	/* A sparse machine: 100 ranks on 10^6 slots. */
	spec(&q, "random", 100, 1000, 1000);
	assertEqualInt(map_place(&q, &a, err, sizeof err), 0);
	check_slots(&q, &a);
	map_placement_free(&a);
}

/* The ranks of node n form a b[0] box of the grid, cores x-fastest. */
static void check_boxes(const map_spec *q, const map_placement *pl)
{
	const uint64_t *g = q->grid, *b = q->block[0];

	for (uint32_t r = 0; r < pl->n; r++) {
		uint64_t c[3] = { r % g[0], r / g[0] % g[1],
				  r / (g[0] * g[1]) };
		/* The rank at core 0 of the same node. */
		uint64_t o[3] = { c[0] - c[0] % b[0], c[1] - c[1] % b[1],
				  c[2] - c[2] % b[2] };
		uint64_t r0 = o[0] + g[0] * (o[1] + g[1] * o[2]);
		uint64_t core = c[0] % b[0] + b[0] * (c[1] % b[1] +
						     b[1] * (c[2] % b[2]));

		if (pl->node_of[r0] != pl->node_of[r] ||
		    pl->core_of[r] != core) {
			TEST_FAIL("blocked: rank %u on node %u core %u; its "
				  "box starts at rank %" PRIu64 " on node %u",
				  r, pl->node_of[r], pl->core_of[r], r0,
				  pl->node_of[r0]);
			return;
		}
	}
}

static void test_map_blocked(void)
{
	map_placement pl = { 0 };
	map_node_stats st;
	char err[512];
	map_spec q;

	/* 8x4x4 grid, nodes of 2x2x1, drawers of 4x4x2 (8 nodes). */
	spec(&q, "blocked", 128, 4, 32);
	q.nlevels = 2;
	memcpy(q.block[0], (uint64_t[3]){ 2, 2, 1 }, sizeof q.block[0]);
	memcpy(q.block[1], (uint64_t[3]){ 4, 4, 2 }, sizeof q.block[1]);
	memcpy(q.grid, (uint64_t[3]){ 8, 4, 4 }, sizeof q.grid);
	assertEqualInt(map_blocked_check(&q, 1, err, sizeof err), 0);
	assertEqualInt(map_place(&q, &pl, err, sizeof err), 0);
	check_slots(&q, &pl);
	check_boxes(&q, &pl);
	assertEqualInt(map_count_nodes(pl.node_of, pl.n, &st, err, sizeof err),
		       0);
	assertEqualU64(st.used, 32);
	assertEqualU64(st.min, 4);
	assertEqualU64(st.max, 4);
	/* The ranks of a drawer are on 8 consecutive nodes. */
	for (uint32_t r = 0; r < 128; r++) {
		uint64_t x = r % 8, y = r / 8 % 4, z = r / 32;
		uint64_t drawer = x / 4 + 2 * (y / 4 + 1 * (z / 2));

		if (pl.node_of[r] / 8 != drawer) {
			TEST_FAIL("rank %u: node %u is not in drawer %" PRIu64,
				  r, pl.node_of[r], drawer);
			break;
		}
	}
	map_placement_free(&pl);

	/* The grid of `trace gen -p stencil3d' when none is given. */
	spec(&q, "blocked-node", 64 * 32, 32, 64);
	q.nlevels = 1;
	memcpy(q.block[0], (uint64_t[3]){ 4, 4, 2 }, sizeof q.block[0]);
	assertEqualInt(map_blocked_check(&q, 0, err, sizeof err), 0);
	assertEqualU64(q.grid[0] * q.grid[1] * q.grid[2], 2048);
	assertEqualU64(q.grid[0], 16);
}

static void test_map_refusals(void)
{
	static const struct {
		uint64_t grid[3], b0[3], b1[3];
		int nlevels;
		const char *says;
	} cases[] = {
		{ { 8, 4, 2 }, { 2, 2, 1 }, { 0 }, 1,
		  "--grid 8x4x2 has 64 points but --ranks is 128" },
		{ { 8, 4, 4 }, { 2, 2, 2 }, { 0 }, 1,
		  "the node block 2x2x2 holds 8 ranks but a node has 4" },
		{ { 8, 4, 4 }, { 2, 2, 1 }, { 3, 4, 2 }, 2,
		  "block 2 (3x4x2) is not made of the node block (2x2x1): "
		  "in x, 3" },
		{ { 8, 4, 4 }, { 2, 2, 1 }, { 4, 4, 8 }, 2,
		  "the grid 8x4x4 is not made of block 2 (4x4x8): in z" },
	};
	char err[512];
	map_spec q;

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		spec(&q, "blocked", 128, 4, 32);
		q.nlevels = cases[c].nlevels;
		memcpy(q.grid, cases[c].grid, sizeof q.grid);
		memcpy(q.block[0], cases[c].b0, sizeof q.block[0]);
		memcpy(q.block[1], cases[c].b1, sizeof q.block[1]);
		assertEqualInt(map_blocked_check(&q, 1, err, sizeof err),
			       SIB_ECONFIG);
		assertContains(err, cases[c].says);
	}
	/* A preset order names itself and the cores it needs. */
	spec(&q, "blocked-supernode", 128, 16, 8);
	q.nlevels = 1;
	memcpy(q.block[0], (uint64_t[3]){ 4, 4, 2 }, sizeof q.block[0]);
	assertEqualInt(map_blocked_check(&q, 0, err, sizeof err),
		       SIB_ECONFIG);
	assertContains(err, "--order blocked-supernode puts a 4x4x2 block "
		       "(32 ranks) on each node, so it needs --cores-per-node "
		       "32 (got 16)");
}

int main(void)
{
	uint32_t n = 0;

	for (const gen_pattern *const *p = gen_patterns; *p; p++, n++)
		test_pattern(*p, 16);
	assertEqualInt(n, 11);
	/* Rank counts that are not powers of two, where they apply. */
	test_pattern(gen_pattern_find("ring"), 13);
	test_pattern(gen_pattern_find("kneighbor"), 13);
	test_pattern(gen_pattern_find("allreduce"), 12);
	test_pattern(gen_pattern_find("alltoall"), 12);
	test_pattern(gen_pattern_find("random"), 37);
	test_pattern(gen_pattern_find("stencil3d"), 60);
	test_destinations();
	test_stencil();
	test_refusals();
	test_range();
	test_jitter();
	test_perm();
	test_grid();
	test_map_simple();
	test_map_random();
	test_map_blocked();
	test_map_refusals();
	return TEST_EXIT();
}
