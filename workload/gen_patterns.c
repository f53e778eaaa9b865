/*
 * gen_patterns.c -- the synthetic patterns of `sibyl trace gen'.
 *
 * Every pattern follows the same shape per iteration: a "compute" SEB that
 * computes for the (jittered) compute time and posts its sends near its end,
 * then SEBs that wait for the incoming messages (a Waitall joins several
 * waits in one SEB).  Collectives continue as chains of SEBs, each waiting
 * for the previous step's message and sending the next one.  The sequence
 * number of every message is a closed-form function of the pattern, the
 * iteration and the send's position in the iteration (see gen_patterns.h),
 * so a rank's SEBs can be produced without looking at any other rank.
 *
 * All randomness comes from a counter-based generator (gen_random.c:
 * splitmix64 of the seed, a stream constant, the rank and the iteration),
 * so a trace depends only on its parameters, never on the order in which
 * ranks are produced.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_patterns.h"

/* Spacing of consecutive sends posted at the end of an SEB (Isend cost). */
#define SEND_GAP_PS ((sibt_time)50000)

/* Informational MPI tags. */
#define TAG_P2P 0
#define TAG_ALLREDUCE 0x7100
#define TAG_ALLREDUCE_FOLD 0x71ff

/* ---------------------------------------------------------------- builder */

struct gen_builder {
	gen_add_fn add;
	void *arg;
	sibt_seb seb;		/* the open SEB */
	int open;
	sibt_msgid *waits;
	uint32_t nwaits, wcap;
	sibt_send *sends;
	uint32_t nsends, scap;
	sibt_marker markers[3];
	uint32_t nmarkers;
	const gen_pattern *pat;	/* of the rank being built */
	const gen_params *gp;
	uint32_t pe;
	uint64_t pe_sends;	/* sends emitted on pe so far */
	uint64_t pe_sebs;	/* SEBs emitted on pe so far */
	int64_t pe_compute;	/* their durations, summed */
	int err;
	char why[256];		/* for SIBT_EINVAL and SIBT_EFORMAT */
	gen_counts counts;
};

gen_builder *gen_builder_new(gen_add_fn add, void *arg)
{
	gen_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->add = add;
	b->arg = arg;
	b->wcap = b->scap = 16;
	b->waits = malloc(b->wcap * sizeof(*b->waits));
	b->sends = malloc(b->scap * sizeof(*b->sends));
	if (!b->waits || !b->sends) {
		gen_builder_free(b);
		return NULL;
	}
	return b;
}

void gen_builder_free(gen_builder *b)
{
	if (!b)
		return;
	free(b->waits);
	free(b->sends);
	free(b);
}

void gen_builder_counts(const gen_builder *b, gen_counts *out)
{
	*out = b->counts;
}

const char *gen_builder_error(const gen_builder *b)
{
	return b->why;
}

/* A sum of the parameters goes beyond its type: the trace could not be
 * simulated (or its totals would wrap). */
static void b_range(gen_builder *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void b_range(gen_builder *b, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	vsnprintf(b->why, sizeof(b->why), fmt, ap);
	va_end(ap);
	b->err = SIBT_EINVAL;
}

static void b_internal(gen_builder *b, int line, const char *what,
		       uint64_t got, uint64_t want)
{
	if (b->err)
		return;
	snprintf(b->why, sizeof(b->why), "%s:%d: pattern %s, PE %u: %s is "
		 "%llu, expected %llu", __FILE__, line, b->pat->name, b->pe,
		 what, (unsigned long long)got, (unsigned long long)want);
	b->err = SIBT_EFORMAT;
}

/* Hand the open SEB to the sink, placing its sends at the end: send j of n
 * leaves (n-1-j) gaps before the end of the SEB. */
static void b_flush(gen_builder *b)
{
	sibt_time dur = b->seb.duration, gap;
	uint32_t j, n = b->nsends;
	int rc;

	if (!b->open)
		return;
	b->open = 0;
	if (b->err)
		return;
	/* A rank's time must stay below 2^63-1 ps for the simulator, and
	 * the totals printed must not wrap. */
	if (__builtin_add_overflow(b->pe_compute, dur, &b->pe_compute) ||
	    b->pe_compute == INT64_MAX) {
		b_range(b, "SEB %" PRIu64 ": the compute of the rank adds up "
			"to 2^63-1 ps (about 106 days) or more; lower "
			"--compute or --iters", b->pe_sebs);
		return;
	}
	if (__builtin_add_overflow(b->counts.compute, (uint64_t)dur,
				   &b->counts.compute)) {
		b_range(b, "SEB %" PRIu64 ": the compute of all ranks adds up "
			"to more than 2^64-1 ps; lower --compute, --iters or "
			"--ranks", b->pe_sebs);
		return;
	}
	b->pe_sebs++;
	if (n) {
		gap = dur / n;
		if (gap > SEND_GAP_PS)
			gap = SEND_GAP_PS;
		for (j = 0; j < n; j++)
			b->sends[j].offset = dur - (sibt_time)(n - 1 - j) * gap;
	}
	b->seb.nwaits = b->nwaits;
	b->seb.waits = b->waits;
	b->seb.nsends = n;
	b->seb.sends = b->sends;
	b->seb.nmarkers = b->nmarkers;
	b->seb.markers = b->markers;
	rc = b->add(b->arg, &b->seb);
	if (rc < 0) {
		b->err = rc;
		return;
	}
	b->counts.sebs++;
}

static void b_begin(gen_builder *b, const char *name, sibt_time duration)
{
	b_flush(b);
	memset(&b->seb, 0, sizeof(b->seb));
	b->seb.pe = b->pe;
	b->seb.name = name;
	b->seb.duration = duration;
	b->seb.preds_default = 1;
	b->nwaits = b->nsends = b->nmarkers = 0;
	b->open = 1;
}

static void b_marker(gen_builder *b, uint32_t kind, int64_t value)
{
	b->markers[b->nmarkers].kind = kind;
	b->markers[b->nmarkers].value = value;
	b->nmarkers++;
}

/* Open the first SEB of iteration k: iteration marker, skip point after
 * the warm-up, and a check that the rank is where its formula says. */
static void b_iter(gen_builder *b, uint32_t k, const char *name,
		   sibt_time duration)
{
	uint64_t want = (uint64_t)k * b->pat->sends_per_iter(b->gp, b->pe);

	if (b->pe_sends != want)
		b_internal(b, __LINE__, "the send count at iteration start",
			   b->pe_sends, want);
	b_begin(b, name, duration);
	b_marker(b, SIBT_MARK_ITER, k);
	if (k == b->gp->warmup)
		b_marker(b, SIBT_MARK_SKIP_START, k);
}

static int b_grow(void **p, uint32_t *cap, size_t elem)
{
	void *np;

	if (*cap > UINT32_MAX / 2)
		return -1;
	np = realloc(*p, (size_t)*cap * 2 * elem);
	if (!np)
		return -1;
	*p = np;
	*cap *= 2;
	return 0;
}

static void b_wait(gen_builder *b, uint32_t src, uint64_t seq)
{
	if (b->nwaits == b->wcap &&
	    b_grow((void **)&b->waits, &b->wcap, sizeof(*b->waits))) {
		b->err = SIBT_ENOMEM;
		return;
	}
	b->waits[b->nwaits].src = src;
	b->waits[b->nwaits].seq = seq;
	b->nwaits++;
}

static void b_send(gen_builder *b, uint32_t dst, uint64_t size, int32_t tag)
{
	if (b->nsends == b->scap &&
	    b_grow((void **)&b->sends, &b->scap, sizeof(*b->sends))) {
		b->err = SIBT_ENOMEM;
		return;
	}
	b->sends[b->nsends].dst = dst;
	b->sends[b->nsends].tag = tag;
	b->sends[b->nsends].size = size;
	b->sends[b->nsends].offset = 0;
	b->nsends++;
	b->pe_sends++;
	b->counts.messages++;
	if (__builtin_add_overflow(b->counts.bytes, size, &b->counts.bytes))
		b_range(b, "message %" PRIu64 " (%" PRIu64 " bytes): the "
			"payload of all messages adds up to more than 2^64-1 "
			"bytes; lower --msg-size or --iters", b->pe_sends - 1,
			size);
}

int gen_rank(gen_builder *b, const gen_pattern *pat, const gen_params *gp,
	     uint32_t pe)
{
	uint64_t want;

	b->pat = pat;
	b->gp = gp;
	b->pe = pe;
	b->pe_sends = 0;
	b->pe_sebs = 0;
	b->pe_compute = 0;
	b->open = 0;
	b->err = 0;
	b->why[0] = '\0';
	pat->rank(b, gp, pe);
	want = (uint64_t)gp->iters * pat->sends_per_iter(gp, pe);
	if (!b->err && b->pe_sends != want)
		b_internal(b, __LINE__, "the total send count", b->pe_sends,
			   want);
	b_begin(b, "finalize", 0);
	b_marker(b, SIBT_MARK_SKIP_END, gp->iters);
	b_flush(b);
	return b->err;
}

/* ------------------------------------------------------------ helpers */

/* (p + d) mod n and (p - d) mod n for d < n. */
static uint32_t ring_add(uint32_t p, uint64_t d, uint32_t n)
{
	return (uint32_t)(((uint64_t)p + d) % n);
}

static uint32_t ring_sub(uint32_t p, uint64_t d, uint32_t n)
{
	return (uint32_t)(((uint64_t)p + n - d % n) % n);
}

static int need_ranks(const gen_params *gp, uint32_t min, const char *name,
		      char *err, size_t len)
{
	if (gp->ranks >= min)
		return 0;
	snprintf(err, len, "pattern %s needs at least %u ranks, got %u", name,
		 min, gp->ranks);
	return -1;
}

/* Totals common to the patterns with two SEBs per iteration. */
static uint64_t sebs_two_per_iter(const gen_params *gp)
{
	return (uint64_t)gp->ranks * (2ULL * gp->iters + 1);
}

/*
 * Recursive-doubling allreduce on any number of ranks.  With P2 the largest
 * power of two <= R, rem = R - P2 and L = log2(P2): ranks 2i and 2i+1 for
 * i < rem fold together first (the even one sends its contribution to the
 * odd one and sits out), the P2 remaining ranks run L exchange rounds with
 * partner (new rank) XOR 2^r, and each odd folded rank finally returns the
 * result to its even partner.  Messages per allreduce: P2*L + 2*rem.
 *
 * Positions of a rank's allreduce sends, counted from the first one:
 * folded-out even rank: fold at 0;  folded-in odd rank: rounds at 0..L-1,
 * result at L;  any other rank: rounds at 0..L-1.
 */
typedef struct rd_shape {
	uint32_t p2, rem, rounds;
} rd_shape;

static void rd_init(rd_shape *s, uint32_t n)
{
	s->p2 = 1;
	s->rounds = 0;
	while ((uint64_t)s->p2 * 2 <= n) {
		s->p2 *= 2;
		s->rounds++;
	}
	s->rem = n - s->p2;
}

static uint32_t rd_sends(const rd_shape *s, uint32_t q)
{
	if (q < 2 * s->rem)
		return (q & 1) ? s->rounds + 1 : 1;
	return s->rounds;
}

static uint32_t rd_real(const rd_shape *s, uint32_t newrank)
{
	return newrank < s->rem ? 2 * newrank + 1 : newrank + s->rem;
}

static uint64_t rd_messages(uint32_t n)
{
	rd_shape s;

	rd_init(&s, n);
	return (uint64_t)s.p2 * s.rounds + 2ULL * s.rem;
}

/*
 * Emit rank p's part of the allreduce of iteration k.  The SEB that is open
 * when it is called carries the first send (the allreduce starts where the
 * preceding code ends).  base is the number of sends every rank makes in
 * the iteration before the allreduce, so rank q sends S(q) = base +
 * rd_sends(q) messages per iteration.
 */
static void rd_emit(gen_builder *b, const rd_shape *s, uint32_t p, uint32_t k,
		    uint32_t base, uint64_t size)
{
	uint32_t newrank, partner = 0, prev, r;

#define RD_SEQ(q, pos) \
	((uint64_t)k * (base + rd_sends(s, (q))) + base + (pos))

	if (p < 2 * s->rem && !(p & 1)) {
		b_send(b, p + 1, size, TAG_ALLREDUCE_FOLD);
		b_begin(b, "allreduce_wait", 0);
		b_wait(b, p + 1, RD_SEQ(p + 1, s->rounds));
		return;
	}
	if (p < 2 * s->rem) {
		newrank = p / 2;
		b_begin(b, "allreduce_fold", 0);
		b_wait(b, p - 1, RD_SEQ(p - 1, 0));
	} else {
		newrank = p - s->rem;
	}
	for (r = 0; r < s->rounds; r++) {
		prev = partner;
		partner = rd_real(s, newrank ^ (1U << r));
		if (r > 0) {
			b_begin(b, "allreduce_round", 0);
			b_wait(b, prev, RD_SEQ(prev, r - 1));
		}
		b_send(b, partner, size, TAG_ALLREDUCE + (int32_t)r);
	}
	b_begin(b, "allreduce_wait", 0);
	b_wait(b, partner, RD_SEQ(partner, s->rounds - 1));
	if (p < 2 * s->rem)
		b_send(b, p - 1, size, TAG_ALLREDUCE_FOLD);
#undef RD_SEQ
}

/* ------------------------------------------------------------ pingpong */

/*
 * By default pairs (2i, 2i+1).  Even rank: "compute" sends the ping at its
 * end, "pong_wait" waits for the pong.  Odd rank: "ping_wait" waits for
 * the ping, "compute" sends the pong at its end.  One send per rank per
 * iteration: the message of iteration k has seq k.
 *
 * With --pairs A:B,..., the pairs are nodes of C = --node-size ranks
 * placed in rank order: rank A*C plays the even rank with B*C as its
 * peer.  Every other rank is idle but present: one "compute" SEB per
 * iteration and no message (S = 0).
 */
struct gen_pair_end {
	uint32_t rank;		/* first rank of a node of a pair */
	uint32_t peer;		/* first rank of the other node */
	int ping;		/* 1: sends the ping */
};

static int pair_end_cmp(const void *x, const void *y)
{
	const struct gen_pair_end *a = x, *b = y;

	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* Check the node pairs and index their first ranks for pair_find. */
static int pairs_prepare(gen_params *gp, char *err, size_t len)
{
	uint32_t C = gp->node_size ? gp->node_size : 1, i, n = gp->npairs;
	uint64_t nodes = ((uint64_t)gp->ranks + C - 1) / C;
	struct gen_pair_end *e;

	if (C > gp->ranks) {
		snprintf(err, len, "--node-size %u exceeds --ranks %u; a node "
			 "holds at most all the ranks", C, gp->ranks);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const gen_pair *pr = &gp->pairs[i];
		uint32_t bad = pr->a >= nodes ? pr->a : pr->b;

		if (pr->a == pr->b) {
			snprintf(err, len, "--pairs %u:%u: a node cannot "
				 "ping-pong with itself; name two different "
				 "nodes", pr->a, pr->b);
			return -1;
		}
		if (pr->a >= nodes || pr->b >= nodes) {
			snprintf(err, len, "--pairs %u:%u: node %u does not "
				 "exist; %u ranks in nodes of %u (--node-size) "
				 "make nodes 0 to %llu", pr->a, pr->b, bad,
				 gp->ranks, C, (unsigned long long)nodes - 1);
			return -1;
		}
	}
	if (!(e = malloc(2 * (size_t)n * sizeof(*e)))) {
		snprintf(err, len, "out of memory for %u pairs", n);
		return -1;
	}
	for (i = 0; i < n; i++) {
		e[2 * i].rank = gp->pairs[i].a * C;
		e[2 * i].peer = gp->pairs[i].b * C;
		e[2 * i].ping = 1;
		e[2 * i + 1].rank = gp->pairs[i].b * C;
		e[2 * i + 1].peer = gp->pairs[i].a * C;
		e[2 * i + 1].ping = 0;
	}
	qsort(e, 2 * (size_t)n, sizeof(*e), pair_end_cmp);
	for (i = 1; i < 2 * n; i++) {
		if (e[i].rank == e[i - 1].rank) {
			snprintf(err, len, "--pairs: node %u is in two pairs; "
				 "each node bounces with one partner only",
				 e[i].rank / C);
			free(e);
			return -1;
		}
	}
	gp->node_size = C;
	gp->pair_ends = e;
	return 0;
}

static int pingpong_prepare(gen_params *gp, char *err, size_t len)
{
	if (gp->pairs)
		return pairs_prepare(gp, err, len);
	if (gp->node_size) {
		snprintf(err, len, "--node-size gives the nodes that --pairs "
			 "names; without --pairs, pingpong pairs ranks 2i "
			 "and 2i+1");
		return -1;
	}
	if (need_ranks(gp, 2, "pingpong", err, len))
		return -1;
	if (gp->ranks % 2) {
		snprintf(err, len, "pattern pingpong pairs ranks 2i and 2i+1, "
			 "so --ranks must be even (got %u)", gp->ranks);
		return -1;
	}
	return 0;
}

void gen_params_release(gen_params *gp)
{
	free(gp->pair_ends);
	gp->pair_ends = NULL;
}

/* The pair end of rank p under --pairs, or NULL when p is idle. */
static const struct gen_pair_end *pair_find(const gen_params *gp, uint32_t p)
{
	struct gen_pair_end key = { .rank = p };

	if (p % gp->node_size)
		return NULL;
	return bsearch(&key, gp->pair_ends, 2 * (size_t)gp->npairs,
		       sizeof(key), pair_end_cmp);
}

static uint64_t pingpong_sends(const gen_params *gp, uint32_t q)
{
	if (gp->pairs)
		return pair_find(gp, q) ? 1 : 0;
	return 1;
}

static int pingpong_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	const struct gen_pair_end *e = NULL;
	uint32_t peer = p ^ 1, k;
	int ping = !(p & 1);

	if (gp->pairs) {
		if (!(e = pair_find(gp, p))) {
			for (k = 0; k < gp->iters && !b->err; k++)
				b_iter(b, k, "compute", gen_jittered(gp, p, k));
			return b->err;
		}
		peer = e->peer;
		ping = e->ping;
	}
	for (k = 0; k < gp->iters && !b->err; k++) {
		if (ping) {
			b_iter(b, k, "compute", gen_jittered(gp, p, k));
			b_send(b, peer, gp->msg_size, TAG_P2P);
			b_begin(b, "pong_wait", 0);
			b_wait(b, peer, k);
		} else {
			b_iter(b, k, "ping_wait", 0);
			b_wait(b, peer, k);
			b_begin(b, "compute", gen_jittered(gp, p, k));
			b_send(b, peer, gp->msg_size, TAG_P2P + 1);
		}
	}
	return b->err;
}

static uint64_t pingpong_messages(const gen_params *gp)
{
	if (gp->pairs)
		return 2ULL * gp->npairs * gp->iters;
	return (uint64_t)gp->ranks * gp->iters;
}

static uint64_t pingpong_sebs(const gen_params *gp)
{
	if (gp->pairs)
		return (uint64_t)gp->ranks * (gp->iters + 1ULL) +
		       2ULL * gp->npairs * gp->iters;
	return sebs_two_per_iter(gp);
}

/* ---------------------------------------------------------------- ring */

/* "compute" sends to p+1 at its end, "ring_wait" waits for (p-1, k). */
static int ring_prepare(gen_params *gp, char *err, size_t len)
{
	return need_ranks(gp, 2, "ring", err, len);
}

static uint64_t ring_sends(const gen_params *gp, uint32_t q)
{
	return 1;
}

static int ring_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k, n = gp->ranks;

	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		b_send(b, ring_add(p, 1, n), gp->msg_size, TAG_P2P);
		b_begin(b, "ring_wait", 0);
		b_wait(b, ring_sub(p, 1, n), k);
	}
	return b->err;
}

static uint64_t ring_messages(const gen_params *gp)
{
	return (uint64_t)gp->ranks * gp->iters;
}

/* ----------------------------------------------------------- kneighbor */

/*
 * "compute" sends to p+1, p-1, p+2, p-2, ..., p+K, p-K (positions 0..2K-1)
 * at its end; "halo_waitall" waits for the 2K messages coming back (from
 * p-d the one it sent to its +d side, from p+d the one sent to its -d
 * side).  With --allreduce, a recursive-doubling allreduce of 8 bytes
 * follows, its first send on the "halo_waitall" SEB.
 */
#define KNEIGHBOR_DEFAULT 4	/* thesis section 7: eight neighbours */

static int kneighbor_prepare(gen_params *gp, char *err, size_t len)
{
	if (need_ranks(gp, 2, "kneighbor", err, len))
		return -1;
	if (!gp->neighbors)
		gp->neighbors = gp->ranks - 1 < KNEIGHBOR_DEFAULT ?
			gp->ranks - 1 : KNEIGHBOR_DEFAULT;
	if (gp->neighbors >= gp->ranks) {
		snprintf(err, len, "--neighbors %u needs more than %u ranks "
			 "(a rank cannot be its own neighbour); use at most "
			 "%u", gp->neighbors, gp->neighbors, gp->ranks - 1);
		return -1;
	}
	return 0;
}

static uint64_t kneighbor_sends(const gen_params *gp, uint32_t q)
{
	rd_shape s;

	if (!gp->allreduce)
		return 2ULL * gp->neighbors;
	rd_init(&s, gp->ranks);
	return 2ULL * gp->neighbors + rd_sends(&s, q);
}

static int kneighbor_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k, d, n = gp->ranks, K = gp->neighbors, lo, hi;
	uint64_t pos;
	rd_shape s;

	rd_init(&s, n);
	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		for (d = 1; d <= K; d++) {
			b_send(b, ring_add(p, d, n), gp->msg_size, (int32_t)d);
			b_send(b, ring_sub(p, d, n), gp->msg_size, -(int32_t)d);
		}
		b_begin(b, "halo_waitall", 0);
		for (d = 1; d <= K; d++) {
			lo = ring_sub(p, d, n);
			hi = ring_add(p, d, n);
			pos = 2ULL * (d - 1);
			b_wait(b, lo, k * kneighbor_sends(gp, lo) + pos);
			b_wait(b, hi, k * kneighbor_sends(gp, hi) + pos + 1);
		}
		if (gp->allreduce)
			rd_emit(b, &s, p, k, 2 * K, 8);
	}
	return b->err;
}

static uint64_t kneighbor_messages(const gen_params *gp)
{
	uint64_t m = 2ULL * gp->neighbors * gp->ranks;

	if (gp->allreduce)
		m += rd_messages(gp->ranks);
	return m * gp->iters;
}

static uint64_t kneighbor_sebs(const gen_params *gp)
{
	uint64_t n = sebs_two_per_iter(gp);

	if (gp->allreduce)
		n += rd_messages(gp->ranks) * gp->iters;
	return n;
}

/* ----------------------------------------------------------- stencil3d */

/*
 * Rank p sits at (x, y, z), p = x + X*(y + Y*z), on a periodic X x Y x Z
 * grid.  "compute" sends to its +x, -x, +y, -y, +z, -z neighbours
 * (positions 0..5); "halo_waitall" waits for the six messages travelling in
 * those directions, i.e. from the -x neighbour the one sent at position 0,
 * and so on.  Where a dimension is 1 or 2 the neighbours coincide (or are
 * the rank itself); the six messages are kept, so a periodic stencil of R
 * ranks and I iterations always has 6*R*I messages.
 */
void gen_grid_factor(uint32_t n, uint32_t dims[3])
{
	uint64_t x, y, z, m, best = UINT64_MAX, bx = n;

	dims[0] = n;
	dims[1] = dims[2] = 1;
	for (z = 1; z * z * z <= n; z++) {
		if (n % z)
			continue;
		m = n / z;
		for (y = z; y * y <= m; y++) {
			if (m % y)
				continue;
			x = m / y;
			if (x + y + z < best || (x + y + z == best && x < bx)) {
				best = x + y + z;
				bx = x;
				dims[0] = (uint32_t)x;
				dims[1] = (uint32_t)y;
				dims[2] = (uint32_t)z;
			}
		}
	}
}

static int stencil3d_prepare(gen_params *gp, char *err, size_t len)
{
	uint64_t prod;
	int i;

	if (need_ranks(gp, 1, "stencil3d", err, len))
		return -1;
	if (!gp->grid[0]) {
		gen_grid_factor(gp->ranks, gp->grid);
	} else {
		prod = (uint64_t)gp->grid[0] * gp->grid[1] * gp->grid[2];
		if (prod != gp->ranks) {
			snprintf(err, len, "--grid %ux%ux%u has %llu points but "
				 "--ranks is %u; X*Y*Z must equal the rank "
				 "count", gp->grid[0], gp->grid[1], gp->grid[2],
				 (unsigned long long)prod, gp->ranks);
			return -1;
		}
	}
	if (!gp->block[0]) {
		for (i = 0; i < 3; i++)
			gp->face[i] = gp->msg_size;
		return 0;
	}
	/* A face of the local block: the other two extents x 8 bytes. */
	for (i = 0; i < 3; i++) {
		uint64_t a = gp->block[(i + 1) % 3], c = gp->block[(i + 2) % 3];

		if (a > UINT64_MAX / 8 / c) {
			snprintf(err, len, "--block %llu,%llu,%llu: face size "
				 "overflows", (unsigned long long)gp->block[0],
				 (unsigned long long)gp->block[1],
				 (unsigned long long)gp->block[2]);
			return -1;
		}
		gp->face[i] = a * c * 8;
	}
	return 0;
}

static uint64_t stencil3d_sends(const gen_params *gp, uint32_t q)
{
	return 6;
}

/* Neighbour of p in direction dir: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z. */
static uint32_t stencil_nbr(const gen_params *gp, uint32_t p, unsigned dir)
{
	uint64_t X = gp->grid[0], Y = gp->grid[1];
	uint64_t c[3] = { p % X, (p / X) % Y, p / (X * Y) };
	unsigned d = dir / 2;
	uint64_t n = gp->grid[d];

	c[d] = (dir & 1) ? (c[d] + n - 1) % n : (c[d] + 1) % n;
	return (uint32_t)(c[0] + X * (c[1] + Y * c[2]));
}

static int stencil3d_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k, nbr[6];
	unsigned dir;

	for (dir = 0; dir < 6; dir++)
		nbr[dir] = stencil_nbr(gp, p, dir);
	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		for (dir = 0; dir < 6; dir++)
			b_send(b, nbr[dir], gp->face[dir / 2], (int32_t)dir);
		b_begin(b, "halo_waitall", 0);
		/* Travelling in direction dir: sent by the opposite
		 * neighbour at position dir. */
		for (dir = 0; dir < 6; dir++)
			b_wait(b, nbr[dir ^ 1], 6ULL * k + dir);
	}
	return b->err;
}

static uint64_t stencil3d_messages(const gen_params *gp)
{
	return 6ULL * gp->ranks * gp->iters;
}

/* ------------------------------------------------------------ alltoall */

/*
 * The ranks form R/G groups of G consecutive ranks (--group, default R);
 * each group runs its own all-to-all: every rank sends G-1 messages, one to
 * every other rank of its group, over P phases whose order --order sets.
 * Rank r (local to its group) in phase i (0 <= i < P):
 *
 *   pairwise  P = G-1: sends to r+s, receives from r-s (mod G), s = i+1;
 *   xor       P = G-1: exchanges with r xor s, s = i+1 (G a power of two);
 *   percs     P = n = G/C, r = a*C + j (node a, core j): sends to the
 *             cores (j+k) mod C, k = 0..C-1, of node (j+i) mod n, skipping
 *             itself (thesis section 9.1);
 *   linear    P = 1: sends to 0, 1, ..., G-1 except itself.
 *
 * "compute" sends phase 0 at its end; "alltoall_phase" i (i = 1..P-1)
 * waits for the messages of phase i-1 and sends phase i; "alltoall_wait"
 * waits for those of phase P-1.  A rank's sends are numbered in that order,
 * so S = G-1 and the send at position j of iteration k has seq
 * k*(G-1) + j.  With the defaults this is the original pairwise pattern.
 */
const char *const gen_order_names[GEN_NORDERS] = {
	[GEN_ORDER_PAIRWISE] = "pairwise",
	[GEN_ORDER_XOR] = "xor",
	[GEN_ORDER_PERCS] = "percs",
	[GEN_ORDER_LINEAR] = "linear",
};

static int is_pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static int alltoall_prepare(gen_params *gp, char *err, size_t len)
{
	const char *on = gen_order_names[gp->order];
	uint32_t G;

	if (need_ranks(gp, 2, "alltoall", err, len))
		return -1;
	if (!gp->group)
		gp->group = gp->ranks;
	G = gp->group;
	if (G < 2 || gp->ranks % G) {
		snprintf(err, len, "--group %u does not divide --ranks %u into "
			 "groups of at least 2 ranks; give a divisor of R "
			 "(the groups are blocks of G consecutive ranks)", G,
			 gp->ranks);
		return -1;
	}
	if (gp->order == GEN_ORDER_XOR && !is_pow2(G)) {
		snprintf(err, len, "--order xor needs a power-of-two group, "
			 "got %u ranks; use --order pairwise", G);
		return -1;
	}
	if (gp->order != GEN_ORDER_PERCS) {
		if (!gp->node_size)
			return 0;
		snprintf(err, len, "--node-size shapes only --order percs; "
			 "--order %s does not depend on nodes", on);
		return -1;
	}
	if (!gp->node_size) {
		snprintf(err, len, "--order percs needs --node-size C, the "
			 "ranks per node (32 for a PERCS node)");
		return -1;
	}
	if (G % gp->node_size) {
		snprintf(err, len, "--node-size %u does not divide the group "
			 "of %u ranks; --order percs needs whole nodes in a "
			 "group", gp->node_size, G);
		return -1;
	}
	return 0;
}

static uint32_t alltoall_phases(const gen_params *gp)
{
	switch (gp->order) {
	case GEN_ORDER_PERCS:
		return gp->group / gp->node_size;
	case GEN_ORDER_LINEAR:
		return 1;
	default:
		return gp->group - 1;
	}
}

static uint64_t alltoall_sends(const gen_params *gp, uint32_t q)
{
	return gp->group - 1;
}

/* percs: position in its iteration of the send of local rank r in phase
 * i to core (j+k) mod C.  Phase i0 = (a - j) mod n sends to r's own node
 * and skips r itself, at k = 0; later sends move up by one. */
static uint64_t percs_pos(const gen_params *gp, uint32_t r, uint32_t i,
			  uint32_t k)
{
	uint32_t C = gp->node_size, n = gp->group / C;
	uint32_t i0 = ring_sub(r / C, r % C, n);

	return (uint64_t)i * C + k - (i >= i0);
}

static void alltoall_send_phase(gen_builder *b, const gen_params *gp,
				uint32_t p, uint32_t i)
{
	uint32_t G = gp->group, r = p % G, base = p - r, C, n, d, k, dst;

	switch (gp->order) {
	case GEN_ORDER_PAIRWISE:
		b_send(b, base + ring_add(r, i + 1, G), gp->msg_size,
		       (int32_t)(i + 1));
		break;
	case GEN_ORDER_XOR:
		b_send(b, base + (r ^ (i + 1)), gp->msg_size,
		       (int32_t)(i + 1));
		break;
	case GEN_ORDER_PERCS:
		C = gp->node_size;
		n = G / C;
		d = ring_add(r % C, i, n);
		for (k = 0; k < C; k++) {
			dst = d * C + ring_add(r % C, k, C);
			if (dst != r)
				b_send(b, base + dst, gp->msg_size,
				       (int32_t)i);
		}
		break;
	default:
		for (d = 0; d < G; d++)
			if (d != r)
				b_send(b, base + d, gp->msg_size, TAG_P2P);
		break;
	}
}

static void alltoall_wait_phase(gen_builder *b, const gen_params *gp,
				uint32_t p, uint32_t k, uint32_t i)
{
	uint32_t G = gp->group, r = p % G, base = p - r, C, n, a, j, src;
	uint64_t kb = (uint64_t)k * (G - 1), a2, j2;

	switch (gp->order) {
	case GEN_ORDER_PAIRWISE:
		b_wait(b, base + ring_sub(r, i + 1, G), kb + i);
		break;
	case GEN_ORDER_XOR:
		b_wait(b, base + (r ^ (i + 1)), kb + i);
		break;
	case GEN_ORDER_PERCS:
		/* From the cores j2 = (a - i) mod n (+ multiples of n) of
		 * every node a2, whose k is (j - j2) mod C. */
		C = gp->node_size;
		n = G / C;
		a = r / C;
		j = r % C;
		for (a2 = 0; a2 < n; a2++) {
			for (j2 = ring_sub(a, i, n); j2 < C; j2 += n) {
				src = (uint32_t)(a2 * C + j2);
				if (src == r)
					continue;
				b_wait(b, base + src, kb + percs_pos(gp, src,
				       i, ring_sub(j, j2, C)));
			}
		}
		break;
	default:
		for (src = 0; src < G; src++)
			if (src != r)
				b_wait(b, base + src,
				       kb + (r < src ? r : r - 1));
		break;
	}
}

static int alltoall_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k, i, np = alltoall_phases(gp);

	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		for (i = 0; i < np && !b->err; i++) {
			if (i > 0) {
				b_begin(b, "alltoall_phase", 0);
				alltoall_wait_phase(b, gp, p, k, i - 1);
			}
			alltoall_send_phase(b, gp, p, i);
		}
		b_begin(b, "alltoall_wait", 0);
		alltoall_wait_phase(b, gp, p, k, np - 1);
	}
	return b->err;
}

static uint64_t alltoall_messages(const gen_params *gp)
{
	return (uint64_t)gp->ranks * (gp->group - 1) * gp->iters;
}

static uint64_t alltoall_sebs(const gen_params *gp)
{
	return (uint64_t)gp->ranks *
	       ((alltoall_phases(gp) + 1ULL) * gp->iters + 1);
}

/* ----------------------------------------------------------- allreduce */

/* "compute", then the recursive-doubling allreduce (rd_emit). */
static int allreduce_prepare(gen_params *gp, char *err, size_t len)
{
	return need_ranks(gp, 2, "allreduce", err, len);
}

static uint64_t allreduce_sends(const gen_params *gp, uint32_t q)
{
	rd_shape s;

	rd_init(&s, gp->ranks);
	return rd_sends(&s, q);
}

static int allreduce_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k;
	rd_shape s;

	rd_init(&s, gp->ranks);
	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		rd_emit(b, &s, p, k, 0, gp->msg_size);
	}
	return b->err;
}

static uint64_t allreduce_messages(const gen_params *gp)
{
	return rd_messages(gp->ranks) * gp->iters;
}

static uint64_t allreduce_sebs(const gen_params *gp)
{
	return (uint64_t)gp->ranks * (gp->iters + 1) +
	       rd_messages(gp->ranks) * gp->iters;
}

/* -------------------------------------------------------------- random */

/*
 * Message m of iteration k follows a random cyclic order of all ranks:
 * with sigma the permutation (k, m), rank sigma(i) sends to sigma(i+1 mod
 * R).  Every rank thus sends and receives exactly one message per (k, m),
 * never to itself, and each destination is uniform over the other ranks.
 * "compute" sends the M messages at its end (positions 0..M-1, seq
 * k*M + m); "random_waitall" waits for the M messages addressed to it.
 */
static int random_prepare(gen_params *gp, char *err, size_t len)
{
	if (need_ranks(gp, 2, "random", err, len))
		return -1;
	if (!gp->fanout)
		gp->fanout = 1;
	return 0;
}

static uint64_t random_sends(const gen_params *gp, uint32_t q)
{
	return gp->fanout;
}

static int random_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t k, m, n = gp->ranks, i;
	gen_perm pm;

	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		for (m = 0; m < gp->fanout; m++) {
			gen_perm_init(&pm, n, gp->seed, k, m);
			i = gen_perm_inv(&pm, p);
			b_send(b, gen_perm_fwd(&pm, ring_add(i, 1, n)),
			       gp->msg_size, (int32_t)m);
		}
		b_begin(b, "random_waitall", 0);
		for (m = 0; m < gp->fanout; m++) {
			gen_perm_init(&pm, n, gp->seed, k, m);
			i = gen_perm_inv(&pm, p);
			b_wait(b, gen_perm_fwd(&pm, ring_sub(i, 1, n)),
			       (uint64_t)k * gp->fanout + m);
		}
	}
	return b->err;
}

static uint64_t random_messages(const gen_params *gp)
{
	return (uint64_t)gp->fanout * gp->ranks * gp->iters;
}

/* -------------------------------------------------------- permutations */

/*
 * Permutation traffic: rank p sends one message per iteration to dst(p)
 * and receives one from src(p) = dst^-1(p).  "compute" sends at its end,
 * "perm_wait" waits.  A fixed point (dst(p) = p) sends and receives
 * nothing but keeps its two SEBs, so S(q) = (dst(q) != q) and the message
 * of iteration k has seq k.
 *
 *   shift      dst = (p + K) mod R, src = (p - K) mod R, 1 <= K < R;
 *   bitrev     dst = p with its log2 R bits reversed (R a power of two);
 *   bitcomp    dst = p xor (R - 1), every bit complemented;
 *   transpose  R = n*n, p = i*n + j: dst = j*n + i.
 *
 * bitrev, bitcomp and transpose are involutions (src = dst).
 */
enum { MAP_SHIFT, MAP_BITREV, MAP_BITCOMP, MAP_TRANSPOSE };

static uint32_t reverse_bits(uint32_t x, unsigned bits)
{
	uint32_t y = 0;
	unsigned i;

	for (i = 0; i < bits; i++, x >>= 1)
		y = (y << 1) | (x & 1);
	return y;
}

static uint32_t map_dst(const gen_params *gp, uint32_t p)
{
	switch (gp->map) {
	case MAP_SHIFT:
		return ring_add(p, gp->shift, gp->ranks);
	case MAP_BITREV:
		return reverse_bits(p, gp->bits);
	case MAP_BITCOMP:
		return p ^ (gp->ranks - 1);
	default:
		return (p % gp->side) * gp->side + p / gp->side;
	}
}

static uint32_t map_src(const gen_params *gp, uint32_t p)
{
	if (gp->map == MAP_SHIFT)
		return ring_sub(p, gp->shift, gp->ranks);
	return map_dst(gp, p);
}

/* Fixed points of the permutation. */
static uint64_t map_fixed(const gen_params *gp)
{
	switch (gp->map) {
	case MAP_BITREV:	/* palindromes: ceil(bits / 2) free bits */
		return 1ULL << ((gp->bits + 1) / 2);
	case MAP_TRANSPOSE:	/* the diagonal */
		return gp->side;
	default:
		return 0;
	}
}

/* R = 2^bits >= 2 for the bit permutations. */
static int need_pow2(gen_params *gp, const char *name, char *err,
		     size_t len)
{
	if (gp->ranks < 2 || !is_pow2(gp->ranks)) {
		snprintf(err, len, "pattern %s permutes the bits of the rank, "
			 "so --ranks must be a power of two >= 2 (got %u)",
			 name, gp->ranks);
		return -1;
	}
	for (gp->bits = 0; (1ULL << gp->bits) < gp->ranks; gp->bits++)
		;
	return 0;
}

static int shift_prepare(gen_params *gp, char *err, size_t len)
{
	gp->map = MAP_SHIFT;
	if (need_ranks(gp, 2, "shift", err, len))
		return -1;
	if (!gp->shift)
		gp->shift = 1;
	if (gp->shift >= gp->ranks) {
		snprintf(err, len, "--shift %u must be below --ranks %u (a "
			 "shift by K and by K mod R are the same; K = 0 sends "
			 "to itself)", gp->shift, gp->ranks);
		return -1;
	}
	return 0;
}

static int bitrev_prepare(gen_params *gp, char *err, size_t len)
{
	gp->map = MAP_BITREV;
	return need_pow2(gp, "bitrev", err, len);
}

static int bitcomp_prepare(gen_params *gp, char *err, size_t len)
{
	gp->map = MAP_BITCOMP;
	return need_pow2(gp, "bitcomp", err, len);
}

static int transpose_prepare(gen_params *gp, char *err, size_t len)
{
	uint64_t n = 1;

	gp->map = MAP_TRANSPOSE;
	while ((n + 1) * (n + 1) <= gp->ranks)
		n++;
	if (n < 2 || n * n != gp->ranks) {
		snprintf(err, len, "pattern transpose needs a square number of "
			 "ranks n*n with n >= 2 (got %u; the nearest are %llu "
			 "and %llu)", gp->ranks, (unsigned long long)(n * n),
			 (unsigned long long)((n + 1) * (n + 1)));
		return -1;
	}
	gp->side = (uint32_t)n;
	return 0;
}

static uint64_t perm_sends(const gen_params *gp, uint32_t q)
{
	return map_dst(gp, q) != q;
}

static int perm_rank(gen_builder *b, const gen_params *gp, uint32_t p)
{
	uint32_t dst = map_dst(gp, p), src = map_src(gp, p), k;

	for (k = 0; k < gp->iters && !b->err; k++) {
		b_iter(b, k, "compute", gen_jittered(gp, p, k));
		if (dst != p)
			b_send(b, dst, gp->msg_size, TAG_P2P);
		b_begin(b, "perm_wait", 0);
		if (src != p)
			b_wait(b, src, k);
	}
	return b->err;
}

static uint64_t perm_messages(const gen_params *gp)
{
	return (gp->ranks - map_fixed(gp)) * gp->iters;
}

/* ------------------------------------------------------------ registry */

#define PS_PER_MS ((sibt_time)1000000000)

static const gen_pattern pattern_pingpong = {
	.name = "pingpong",
	.summary = "pairs (2i, 2i+1), or the first ranks of node pairs, "
		   "bounce one message per iteration",
	.options = GEN_OPT_PAIRS | GEN_OPT_NODE_SIZE,
	.default_msg_size = 1024,
	.default_compute = 0,
	.prepare = pingpong_prepare,
	.sends_per_iter = pingpong_sends,
	.rank = pingpong_rank,
	.messages = pingpong_messages,
	.sebs = pingpong_sebs,
};

static const gen_pattern pattern_ring = {
	.name = "ring",
	.summary = "each rank sends to p+1 and waits for p-1",
	.options = 0,
	.default_msg_size = 1024,
	.default_compute = PS_PER_MS,
	.prepare = ring_prepare,
	.sends_per_iter = ring_sends,
	.rank = ring_rank,
	.messages = ring_messages,
	.sebs = sebs_two_per_iter,
};

static const gen_pattern pattern_kneighbor = {
	.name = "kneighbor",
	.summary = "K neighbours per side on a 1D ring (thesis "
		   "K-Neighbor)",
	.options = GEN_OPT_NEIGHBORS | GEN_OPT_ALLREDUCE,
	.default_msg_size = 1024,
	.default_compute = PS_PER_MS,
	.prepare = kneighbor_prepare,
	.sends_per_iter = kneighbor_sends,
	.rank = kneighbor_rank,
	.messages = kneighbor_messages,
	.sebs = kneighbor_sebs,
};

static const gen_pattern pattern_stencil3d = {
	.name = "stencil3d",
	.summary = "3D 7-point halo exchange on a periodic X x Y x Z grid",
	.options = GEN_OPT_GRID | GEN_OPT_FACE,
	.default_msg_size = 1024,
	.default_compute = PS_PER_MS,
	.prepare = stencil3d_prepare,
	.sends_per_iter = stencil3d_sends,
	.rank = stencil3d_rank,
	.messages = stencil3d_messages,
	.sebs = sebs_two_per_iter,
};

static const gen_pattern pattern_alltoall = {
	.name = "alltoall",
	.summary = "all-to-all in groups of G ranks, one SEB per phase "
		   "(pairwise, xor, percs or linear order)",
	.options = GEN_OPT_GROUP | GEN_OPT_NODE_SIZE,
	.default_msg_size = 1024,
	.default_compute = PS_PER_MS,
	.prepare = alltoall_prepare,
	.sends_per_iter = alltoall_sends,
	.rank = alltoall_rank,
	.messages = alltoall_messages,
	.sebs = alltoall_sebs,
};

static const gen_pattern pattern_allreduce = {
	.name = "allreduce",
	.summary = "recursive-doubling allreduce, any rank count",
	.options = 0,
	.default_msg_size = 8,
	.default_compute = PS_PER_MS,
	.prepare = allreduce_prepare,
	.sends_per_iter = allreduce_sends,
	.rank = allreduce_rank,
	.messages = allreduce_messages,
	.sebs = allreduce_sebs,
};

static const gen_pattern pattern_random = {
	.name = "random",
	.summary = "uniform random traffic, M messages per rank and "
		   "iteration",
	.options = GEN_OPT_FANOUT,
	.default_msg_size = 1024,
	.default_compute = PS_PER_MS,
	.prepare = random_prepare,
	.sends_per_iter = random_sends,
	.rank = random_rank,
	.messages = random_messages,
	.sebs = sebs_two_per_iter,
};

#define PERM_PATTERN(id, text, opts) \
	static const gen_pattern pattern_##id = { \
		.name = #id, \
		.summary = text, \
		.options = opts, \
		.default_msg_size = 1024, \
		.default_compute = 0, \
		.prepare = id##_prepare, \
		.sends_per_iter = perm_sends, \
		.rank = perm_rank, \
		.messages = perm_messages, \
		.sebs = sebs_two_per_iter, \
	}

PERM_PATTERN(shift, "k-shift: rank p sends to p+K mod R", GEN_OPT_SHIFT);
PERM_PATTERN(bitrev, "bit reversal: p sends to p with its bits reversed "
	     "(R = 2^b)", 0);
PERM_PATTERN(bitcomp, "bit complement: p sends to p xor (R-1) (R = 2^b)",
	     0);
PERM_PATTERN(transpose, "matrix transpose: i*n+j sends to j*n+i (R = n*n)",
	     0);

const gen_pattern *const gen_patterns[] = {
	&pattern_pingpong,
	&pattern_ring,
	&pattern_kneighbor,
	&pattern_stencil3d,
	&pattern_alltoall,
	&pattern_allreduce,
	&pattern_random,
	&pattern_shift,
	&pattern_bitrev,
	&pattern_bitcomp,
	&pattern_transpose,
	NULL
};

const gen_pattern *gen_pattern_find(const char *name)
{
	int i;

	for (i = 0; gen_patterns[i]; i++)
		if (!strcmp(gen_patterns[i]->name, name))
			return gen_patterns[i];
	return NULL;
}
