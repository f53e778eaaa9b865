/*
 * map_place.c -- the orders of `sibyl map' (map_place.h): rank order,
 * round-robin, seeded random and hierarchical 3D blocking.
 * docs/mapping.md gives their formulas.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_patterns.h"
#include "map_place.h"
#include "sib_err.h"

const map_order_def map_orders[] = {
	{ "rank", MAP_ORDER_RANK, NULL },
	{ "round-robin", MAP_ORDER_RR, NULL },
	{ "random", MAP_ORDER_RANDOM, NULL },
	{ "blocked", MAP_ORDER_BLOCKED, NULL },
	/* Thesis §6: blocks of 4x4x2 tasks per node, 8x8x4 per drawer (8
	 * nodes), 16x8x8 per supernode (32 nodes). */
	{ "blocked-node", MAP_ORDER_BLOCKED, "4,4,2" },
	{ "blocked-drawer", MAP_ORDER_BLOCKED, "4,4,2:8,8,4" },
	{ "blocked-supernode", MAP_ORDER_BLOCKED, "4,4,2:8,8,4:16,8,8" },
	{ NULL, 0, NULL }
};

static const char dim_name[3] = { 'x', 'y', 'z' };

const map_order_def *map_order_find(const char *name)
{
	for (const map_order_def *o = map_orders; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

const char *map_fmt_triple(char *buf, size_t len, const uint64_t v[3])
{
	snprintf(buf, len, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, v[0], v[1],
		 v[2]);
	return buf;
}

/* v in decimal, or "more than 2^64". */
static const char *fmt_big(char *buf, size_t len, unsigned __int128 v)
{
	if (v > UINT64_MAX)
		snprintf(buf, len, "more than 2^64");
	else
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	return buf;
}

/* Name of block level l in messages ("the node block", "block 2"). */
static const char *level_name(char *buf, size_t len, int l)
{
	if (l == 0)
		snprintf(buf, len, "the node block");
	else
		snprintf(buf, len, "block %d", l + 1);
	return buf;
}

/* The node block against the cores of a node. */
static int check_node_block(const map_spec *q, char *err, size_t errlen)
{
	char b1[64], n1[32];
	unsigned __int128 prod = (unsigned __int128)q->block[0][0] *
				 q->block[0][1] * q->block[0][2];

	if (prod == q->cores)
		return 0;
	map_fmt_triple(b1, sizeof b1, q->block[0]);
	fmt_big(n1, sizeof n1, prod);
	if (q->order->blocks)
		return sib_errf_code(SIB_ECONFIG, err, errlen,
				     "--order %s puts a %s block (%s ranks) "
				     "on each node, so it needs "
				     "--cores-per-node %s (got %" PRIu64
				     "); use --order blocked --block for "
				     "other nodes", q->order->name, b1, n1,
				     n1, q->cores);
	return sib_errf_code(SIB_ECONFIG, err, errlen,
			     "--block: the node block %s holds %s ranks but "
			     "a node has %" PRIu64 " cores (--cores-per-node)"
			     "; BX*BY*BZ of the first block must equal C", b1,
			     n1, q->cores);
}

int map_blocked_check(map_spec *q, int grid_given, char *err,
		      size_t errlen)
{
	char b1[64], b2[64], n1[32], n2[32];
	unsigned __int128 prod;  /* of three numbers below 2^32 */
	int top = q->nlevels - 1, rc;

	if (!grid_given) {
		uint32_t g[3];

		gen_grid_factor((uint32_t)q->ranks, g);
		for (int d = 0; d < 3; d++)
			q->grid[d] = g[d];
	}
	prod = (unsigned __int128)q->grid[0] * q->grid[1] * q->grid[2];
	if (prod != q->ranks)
		return sib_errf_code(SIB_ECONFIG, err, errlen,
				     "--grid %s has %s points but --ranks is "
				     "%" PRIu64 "; X*Y*Z must equal the rank "
				     "count",
				     map_fmt_triple(b1, sizeof b1, q->grid),
				     fmt_big(n1, sizeof n1, prod), q->ranks);
	if ((rc = check_node_block(q, err, errlen)))
		return rc;
	for (int l = 1; l <= top; l++)
		for (int d = 0; d < 3; d++)
			if (q->block[l][d] % q->block[l - 1][d])
				return sib_errf_code(
					SIB_ECONFIG, err, errlen,
					"--block: %s (%s) is not made of "
					"%s (%s): in %c, %" PRIu64 " is not "
					"a multiple of %" PRIu64,
					level_name(n1, sizeof n1, l),
					map_fmt_triple(b1, sizeof b1,
						       q->block[l]),
					level_name(n2, sizeof n2, l - 1),
					map_fmt_triple(b2, sizeof b2,
						       q->block[l - 1]),
					dim_name[d], q->block[l][d],
					q->block[l - 1][d]);
	for (int d = 0; d < 3; d++)
		if (q->grid[d] % q->block[top][d])
			return sib_errf_code(
				SIB_ECONFIG, err, errlen,
				"the grid %s is not made of %s (%s): in %c, %"
				PRIu64 " is not a multiple of %" PRIu64
				"; choose blocks that divide the grid",
				map_fmt_triple(b1, sizeof b1, q->grid),
				level_name(n1, sizeof n1, top),
				map_fmt_triple(b2, sizeof b2, q->block[top]),
				dim_name[d], q->grid[d], q->block[top][d]);
	return 0;
}

/* x + n[0]*(y + n[1]*z): the x-fastest index of c in an n box. */
static uint64_t index3(const uint64_t c[3], const uint64_t n[3])
{
	return c[0] + n[0] * (c[1] + n[1] * c[2]);
}

/*
 * The node of rank r: its top-level block numbered x-fastest over the
 * grid, then at each lower level the index of its sub-block inside the
 * enclosing block, x-fastest, as mixed-radix digits.  Its core: its
 * position inside the node block, x-fastest.
 */
void map_blocked_place(const map_spec *q, uint64_t r, uint32_t *node,
		       uint32_t *core)
{
	const uint64_t *g = q->grid, (*b)[3] = q->block;
	uint64_t c[3] = { r % g[0], r / g[0] % g[1], r / (g[0] * g[1]) };
	uint64_t s[3], e[3], n;
	int top = q->nlevels - 1;

	for (int d = 0; d < 3; d++) {
		s[d] = c[d] / b[top][d];
		e[d] = g[d] / b[top][d];
	}
	n = index3(s, e);
	for (int l = top; l >= 1; l--) {
		for (int d = 0; d < 3; d++) {
			s[d] = c[d] % b[l][d] / b[l - 1][d];
			e[d] = b[l][d] / b[l - 1][d];
		}
		n = n * e[0] * e[1] * e[2] + index3(s, e);
	}
	for (int d = 0; d < 3; d++)
		s[d] = c[d] % b[0][d];
	*node = (uint32_t)n;
	*core = (uint32_t)index3(s, b[0]);
}

/*
 * SplitMix64 as a stream (Steele, Lea and Flood, OOPSLA 2014): the k-th
 * number drawn (k = 1, 2, ...) is mix(seed + k * 0x9e3779b97f4a7c15),
 * gen_splitmix64 being mix of its argument plus that constant.
 */
static uint64_t sm64_next(uint64_t *state)
{
	uint64_t x = gen_splitmix64(*state);

	*state += 0x9e3779b97f4a7c15ULL;
	return x;
}

/* Uniform in [0, n), n > 0, without bias: numbers below 2^64 mod n are
 * drawn again. */
static uint64_t sm64_below(uint64_t *state, uint64_t n)
{
	uint64_t floor = (0 - n) % n, x;

	do
		x = sm64_next(state);
	while (x < floor);
	return x % n;
}

/*
 * The slots a partial Fisher-Yates shuffle has moved, as a hash table:
 * position -> slot.  An absent position p holds slot p.  At most one
 * entry per rank, so the table is O(R) even when N*C is far larger.
 */
typedef struct moved {
	uint64_t *pos;            /* position + 1; 0 = empty */
	uint64_t *slot;
	size_t mask;
	unsigned shift;           /* 64 - log2(mask + 1) */
} moved;

/* Fibonacci hashing: the top bits of p times 2^64 / phi. */
static size_t moved_find(const moved *t, uint64_t p)
{
	size_t i = (size_t)((p * 0x9e3779b97f4a7c15ULL) >> t->shift);

	while (t->pos[i] && t->pos[i] != p + 1)
		i = (i + 1) & t->mask;
	return i;
}

static uint64_t moved_get(const moved *t, uint64_t p)
{
	size_t i = moved_find(t, p);

	return t->pos[i] ? t->slot[i] : p;
}

static void moved_put(moved *t, uint64_t p, uint64_t slot)
{
	size_t i = moved_find(t, p);

	t->pos[i] = p + 1;
	t->slot[i] = slot;
}

/*
 * Random order: slots s = 0..N*C-1 stand for node s / C, core s mod C
 * (the rank-order slots).  For i = 0..R-1, j = i + below(N*C - i); swap
 * positions i and j; rank i takes the slot now at position i.
 */
static int place_random(const map_spec *q, map_placement *pl, char *err,
			size_t errlen)
{
	uint64_t m = q->nodes * q->cores, state = q->seed;
	size_t cap = 2;
	moved t = { .shift = 63 };

	while (cap < 2 * (size_t)q->ranks) {
		cap *= 2;
		t.shift--;
	}
	t.mask = cap - 1;
	t.pos = calloc(cap, sizeof *t.pos);
	t.slot = malloc(cap * sizeof *t.slot);
	if (!t.pos || !t.slot) {
		free(t.pos);
		free(t.slot);
		return sib_errf(err, errlen, "out of memory placing %" PRIu64
				" ranks at random", q->ranks);
	}
	for (uint64_t i = 0; i < q->ranks; i++) {
		uint64_t j = i + sm64_below(&state, m - i);
		uint64_t si = moved_get(&t, i), sj = si;

		if (j != i) {
			sj = moved_get(&t, j);
			moved_put(&t, j, si);
		}
		pl->node_of[i] = (uint32_t)(sj / q->cores);
		pl->core_of[i] = (uint32_t)(sj % q->cores);
	}
	free(t.pos);
	free(t.slot);
	return 0;
}

static int place_all(const map_spec *q, map_placement *pl, char *err,
		     size_t errlen)
{
	uint64_t c = q->cores, n = q->nodes;

	switch (q->order->order) {
	case MAP_ORDER_RANK:
		for (uint64_t r = 0; r < q->ranks; r++) {
			pl->node_of[r] = (uint32_t)(r / c);
			pl->core_of[r] = (uint32_t)(r % c);
		}
		return 0;
	case MAP_ORDER_RR:
		for (uint64_t r = 0; r < q->ranks; r++) {
			pl->node_of[r] = (uint32_t)(r % n);
			pl->core_of[r] = (uint32_t)(r / n);
		}
		return 0;
	case MAP_ORDER_RANDOM:
		return place_random(q, pl, err, errlen);
	case MAP_ORDER_BLOCKED:
		for (uint64_t r = 0; r < q->ranks; r++)
			map_blocked_place(q, r, &pl->node_of[r],
					  &pl->core_of[r]);
		return 0;
	}
	return sib_errf(err, errlen, "unknown order %d",
			(int)q->order->order);
}

int map_place(const map_spec *q, map_placement *pl, char *err,
	      size_t errlen)
{
	int rc;

	if (q->ranks > UINT32_MAX || q->cores == 0 ||
	    q->ranks > (unsigned __int128)q->nodes * q->cores)
		return sib_errf_code(SIB_ECONFIG, err, errlen,
				     "%" PRIu64 " ranks do not fit on %"
				     PRIu64 " nodes of %" PRIu64 " cores",
				     q->ranks, q->nodes, q->cores);
	pl->n = (uint32_t)q->ranks;
	pl->node_of = malloc(q->ranks * sizeof *pl->node_of);
	pl->core_of = malloc(q->ranks * sizeof *pl->core_of);
	if (!pl->node_of || !pl->core_of)
		rc = sib_errf(err, errlen, "out of memory placing %" PRIu64
			      " ranks", q->ranks);
	else
		rc = place_all(q, pl, err, errlen);
	if (rc)
		map_placement_free(pl);
	return rc;
}

void map_placement_free(map_placement *pl)
{
	free(pl->node_of);
	free(pl->core_of);
	pl->node_of = pl->core_of = NULL;
	pl->n = 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int map_count_nodes(const uint32_t *node_of, uint32_t n, map_node_stats *st,
		    char *err, size_t errlen)
{
	uint32_t *s = malloc((size_t)n * sizeof *s + 1);

	if (!s)
		return sib_errf(err, errlen, "out of memory counting the ranks "
				"per node");
	memcpy(s, node_of, (size_t)n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_u32);
	st->used = 0;
	st->min = UINT64_MAX;
	st->max = 0;
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		st->used++;
		if (j - i < st->min)
			st->min = j - i;
		if (j - i > st->max)
			st->max = j - i;
	}
	free(s);
	return 0;
}
