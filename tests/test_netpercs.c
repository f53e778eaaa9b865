/*
 * test_netpercs.c -- the `percs' network model (netmodels/percs.md):
 * its links (counts per class, numbering, endpoints, D-link placement),
 * its routes (hop counts and link classes of direct and indirect routes,
 * the intermediate supernode, determinism for a seed) and its times
 * against the packet formula of pktnet.h, to the picosecond.
 *
 * The model is driven through the fake simulator of nethost.h, whose
 * event queue runs in (time, insertion order), the order fastsim promises.
 * Routes are read from the host's link_busy calls: a one-byte message
 * is one packet, so the links it is transmitted on are its route, which
 * the per-link statistics and the hop totals must confirm.  Parameter values are built by hand, parallel to
 * netm_percs.params, so the test does not depend on the unit parser.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"
#include "sibtest.h"
#include "nethost.h"

extern const netm_ops netm_percs;

#define NS  INT64_C(1000)
#define GBS INT64_C(1000000000)

/* Parameter order is part of the contract. */
enum {
	P_SUPERNODES, P_DRAWERS, P_NODES_PER_DRAWER, P_D_LINKS, P_ROUTING,
	P_LL_BW, P_LR_BW, P_D_BW, P_LL_LAT, P_LR_LAT, P_D_LAT,
	P_PACKET_SIZE, P_HEADER, P_ROUTER_LAT, P_INJECT_LAT, P_INJECT_CH,
	P_INJECT_BW, P_EJECT_CH, P_EJECT_BW, P_EJECT_LAT, P_BUFFER, NP
};
static const char *const keys[NP] = {
	"supernodes", "drawers", "nodes_per_drawer", "d_links", "routing",
	"ll_bandwidth", "lr_bandwidth", "d_bandwidth", "ll_latency",
	"lr_latency", "d_latency", "packet_size", "header", "router_latency",
	"inject_latency", "inject_channels", "inject_bandwidth",
	"eject_channels", "eject_bandwidth", "eject_latency", "buffer_packets"
};

typedef struct cfg {
	sib_value v[NP];
	uint32_t nnodes;
	uint64_t seed;
} cfg;

/* The documented defaults as values. */
static void defaults(cfg *c, uint32_t nnodes)
{
	static const int64_t def[NP] = {
		[P_SUPERNODES] = 0, [P_DRAWERS] = 4, [P_NODES_PER_DRAWER] = 8,
		[P_D_LINKS] = 1, [P_ROUTING] = 0,
		[P_LL_BW] = 24 * GBS, [P_LR_BW] = 5 * GBS, [P_D_BW] = 10 * GBS,
		[P_LL_LAT] = 5 * NS, [P_LR_LAT] = 25 * NS, [P_D_LAT] = 100 * NS,
		[P_PACKET_SIZE] = 2048, [P_HEADER] = 0,
		[P_ROUTER_LAT] = 10 * NS, [P_INJECT_LAT] = 500 * NS,
		[P_INJECT_CH] = 4, [P_INJECT_BW] = 24 * GBS,
		[P_EJECT_CH] = 4, [P_EJECT_BW] = 24 * GBS,
		[P_EJECT_LAT] = 200 * NS, [P_BUFFER] = 0,
	};
	memset(c, 0, sizeof *c);
	for (int k = 0; k < NP; k++)
		c->v[k].i = def[k];
	c->v[P_ROUTING].s = "direct";
	c->nnodes = nnodes;
	c->seed = 1;
}

static void set(cfg *c, int k, int64_t x)
{
	c->v[k].i = x;
	c->v[k].set = 1;
}

static void set_indirect(cfg *c)
{
	set(c, P_ROUTING, 1);
	c->v[P_ROUTING].s = "indirect";
}

/* ------------------------------------------------------ fake host */

#define MAXMSG 4096

typedef struct fake {
	nh_queue q;         /* first: the host's context is the fake */
	netm_model *m;
	sib_ps depart[MAXMSG], arrive[MAXMSG];
	uint64_t next_token;
	uint32_t busy[16];  /* links of link_busy calls, in order */
	int nbusy;
	uint64_t *shadow;   /* per link: packets route_of() sent over it */
} fake;

static void fake_deliver(void *ctx, uint64_t token, sib_ps t)
{
	fake *f = ctx;
	if (token >= MAXMSG || f->arrive[token] >= 0) {
		TEST_FAIL("token %llu unknown or delivered twice",
			  (unsigned long long)token);
		return;
	}
	if (t < f->q.now || t < f->depart[token])
		TEST_FAIL("token %llu delivered at %lld: now %lld, departure "
			  "%lld", (unsigned long long)token, (long long)t,
			  (long long)f->q.now, (long long)f->depart[token]);
	f->arrive[token] = t;
}

static void fake_link_busy(void *ctx, uint32_t link, sib_ps start,
			   sib_ps end, uint64_t bytes)
{
	fake *f = ctx;
	if (start > end)
		TEST_FAIL("link %u busy from %lld to %lld", (unsigned)link,
			  (long long)start, (long long)end);
	if (f->nbusy < 16)
		f->busy[f->nbusy] = link;
	f->nbusy++;
}

/* Build the model for c; NULL (and err filled) on failure. */
static netm_model *try_make(fake *f, const cfg *c, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	for (int i = 0; i < MAXMSG; i++)
		f->arrive[i] = -1;
	netm_setup setup = { .nnodes = c->nnodes, .npes = c->nnodes,
			     .values = c->v, .seed = c->seed };
	netm_host host = { .ctx = f, .schedule = nh_schedule,
			   .deliver = fake_deliver,
			   .link_busy = fake_link_busy };
	err[0] = '\0';
	if (netm_percs.create(&f->m, &setup, &host, err, errlen))
		f->m = NULL;
	return f->m;
}

static netm_model *make(fake *f, const cfg *c)
{
	char err[512];
	if (!try_make(f, c, err, sizeof err)) {
		TEST_FAIL("create failed: %s", err);
		exit(1);
	}
	return f->m;
}

static void unmake(fake *f)
{
	netm_percs.destroy(f->m);
	nh_free(&f->q);
	free(f->shadow);
	f->shadow = NULL;
}

/* Queue a message; returns its token. */
static uint64_t send_at(fake *f, uint32_t src, uint32_t dst, uint64_t bytes,
			sib_ps depart)
{
	uint64_t tok = f->next_token++;
	if (tok >= MAXMSG) {
		TEST_FAIL("too many messages");
		exit(99);
	}
	netm_msg msg = { .token = tok, .src_pe = src, .dst_pe = dst,
			 .src_node = src, .dst_node = dst, .bytes = bytes,
			 .depart = depart };
	f->depart[tok] = depart;
	nh_send(&f->q, &msg);
	return tok;
}

static void run(fake *f)
{
	nh_run(&f->q, f->m);
}

/* ---------------------------------------------------- links, names */

static const char *cls_of(const netm_model *m, uint32_t id)
{
	netm_link_info li;
	m->ops->link(m, id, &li);
	return m->ops->class_name(m, li.cls);
}

static void hub_name(char *buf, uint32_t n)
{
	snprintf(buf, NETM_ENDPOINT_MAX, "hub %u (%u.%u.%u)", (unsigned)n,
		 (unsigned)(n / 32), (unsigned)(n % 32 / 8), (unsigned)(n % 8));
}

/* Count the links of class `name'. */
static uint32_t count_class(const netm_model *m, const char *name)
{
	uint32_t k = 0, n = m->ops->nlinks(m);
	for (uint32_t id = 0; id < n; id++)
		k += strcmp(cls_of(m, id), name) == 0;
	return k;
}

static void check_link(const netm_model *m, uint32_t id, const char *cls,
		       uint32_t from, uint32_t to, int64_t bw)
{
	char a[NETM_ENDPOINT_MAX], b[NETM_ENDPOINT_MAX];
	netm_link_info li;
	m->ops->link(m, id, &li);
	hub_name(a, from);
	hub_name(b, to);
	assertEqualString(m->ops->class_name(m, li.cls), cls);
	assertEqualString(li.src, a);
	assertEqualString(li.dst, b);
	assertEqualInt(li.bandwidth, bw);
}

/* ------------------------------------------------------------ routes */

#define MAXHOP 8

typedef struct route {
	int n;                       /* links, in order; -1: not a path */
	uint32_t link[MAXHOP];
	char cls[MAXHOP][4];
	uint32_t from[MAXHOP], to[MAXHOP];  /* hub numbers */
} route;

static uint32_t hub_of(const char *name)
{
	unsigned h;
	if (sscanf(name, "hub %u", &h) != 1) {
		TEST_FAIL("'%s' is not a hub name", name);
		return UINT32_MAX;
	}
	return h;
}

/*
 * Send one byte from src to dst, run, and return the links it crossed
 * in path order (a one-byte message is one packet).  The per-link
 * packet counts and the hop totals must grow by exactly that route.
 */
static route route_of(fake *f, uint32_t src, uint32_t dst)
{
	netm_model *m = f->m;
	route r = { .n = 0 };
	netm_totals t0, t1;
	netm_link_info li;
	uint64_t pk[16];

	if (!f->shadow)
		f->shadow = calloc(m->ops->nlinks(m), sizeof *f->shadow);
	m->ops->totals(m, &t0);
	f->nbusy = 0;
	send_at(f, src, dst, 1, f->q.now);
	run(f);
	m->ops->totals(m, &t1);
	if (f->nbusy > 16) {
		TEST_FAIL("route %u -> %u: %d transmissions", (unsigned)src,
			  (unsigned)dst, f->nbusy);
		r.n = -1;
		return r;
	}
	uint32_t at = src;
	for (int i = 0; i < f->nbusy; i++) {
		m->ops->link(m, f->busy[i], &li);
		const char *c = m->ops->class_name(m, li.cls);
		if (!strcmp(c, "inject") || !strcmp(c, "eject"))
			continue;
		if (r.n == MAXHOP || hub_of(li.src) != at) {
			TEST_FAIL("route %u -> %u: link %u (%s -> %s) does not "
				  "continue from hub %u", (unsigned)src,
				  (unsigned)dst, (unsigned)f->busy[i], li.src,
				  li.dst, (unsigned)at);
			r.n = -1;
			return r;
		}
		r.link[r.n] = f->busy[i];
		snprintf(r.cls[r.n], sizeof r.cls[0], "%s", c);
		r.from[r.n] = at;
		r.to[r.n] = at = hub_of(li.dst);
		pk[r.n] = li.packets;
		r.n++;
	}
	if (at != dst)
		TEST_FAIL("route %u -> %u ends at hub %u", (unsigned)src,
			  (unsigned)dst, (unsigned)at);
	/* The statistics agree with the routes seen so far. */
	for (int i = 0; i < r.n; i++)
		assertEqualU64(pk[i], ++f->shadow[r.link[i]]);
	assertEqualU64(t1.hops - t0.hops, (uint64_t)r.n);
	assertEqualU64(t1.packets - t0.packets, 1);
	return r;
}

/* The classes of a route as one word: "LL-D-LR". */
static const char *shape(const route *r)
{
	static char buf[64];
	buf[0] = '\0';
	for (int i = 0; i < r->n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s",
			 i ? "-" : "", r->cls[i]);
	return buf;
}

static void expect_route(fake *f, uint32_t src, uint32_t dst,
			 const char *want)
{
	route r = route_of(f, src, dst);
	if (strcmp(shape(&r), want))
		TEST_FAIL("route %u -> %u is %s, expected %s", (unsigned)src,
			  (unsigned)dst, shape(&r), want);
	sibtest_checks++;
}

/* ------------------------------------------------------------- tests */

static void test_params(void)
{
	int n = 0;
	while (netm_percs.params[n].key)
		n++;
	assertEqualInt(n, NP);
	for (int k = 0; k < NP && k < n; k++)
		assertEqualString(netm_percs.params[k].key, keys[k]);
	assertEqualString(netm_percs.name, "percs");
	assertTrue(netm_find("percs") == &netm_percs);
}

/* Counts, numbering and endpoints of the links of a 3-supernode machine
 * (70 nodes: supernodes = ceil(70 / 32)). */
static void test_links(void)
{
	fake f;
	cfg c;
	defaults(&c, 70);
	netm_model *m = make(&f, &c);

	const uint32_t S = 3, H = S * 32;
	assertEqualInt(count_class(m, "LL"), H * 7);
	assertEqualInt(count_class(m, "LR"), H * 24);
	assertEqualInt(count_class(m, "D"), S * (S - 1));
	/* Channels for the machine's 70 nodes only: hubs 70..95 route but
	 * host no node. */
	assertEqualInt(count_class(m, "inject"), 70 * 4);
	assertEqualInt(count_class(m, "eject"), 70 * 4);
	assertEqualInt(m->ops->nlinks(m), H * 31 + S * (S - 1) + 70 * 8);
	assertEqualInt(m->ops->nclasses(m), 5);
	assertEqualString(m->ops->class_name(m, 0), "LL");
	assertEqualString(m->ops->class_name(m, 1), "LR");
	assertEqualString(m->ops->class_name(m, 2), "D");
	assertEqualString(m->ops->class_name(m, 3), "inject");
	assertEqualString(m->ops->class_name(m, 4), "eject");

	/* Hub h owns ids h*31 ..: 7 LL, then 24 LR, drawer by drawer. */
	check_link(m, 0, "LL", 0, 1, 24 * GBS);
	check_link(m, 6, "LL", 0, 7, 24 * GBS);
	check_link(m, 7, "LR", 0, 8, 5 * GBS);
	check_link(m, 30, "LR", 0, 31, 5 * GBS);
	check_link(m, 37 * 31 + 0, "LL", 37, 32, 24 * GBS);
	check_link(m, 37 * 31 + 4, "LL", 37, 36, 24 * GBS);
	check_link(m, 37 * 31 + 5, "LL", 37, 38, 24 * GBS);
	check_link(m, 37 * 31 + 7, "LR", 37, 40, 5 * GBS);
	check_link(m, 37 * 31 + 30, "LR", 37, 63, 5 * GBS);
	check_link(m, 95 * 31 + 30, "LR", 95, 87, 5 * GBS);

	/* D links from H*31, by (s, t), leaving hub t of s and landing at
	 * hub s of t (d_links = 1). */
	uint32_t id = H * 31;
	for (uint32_t s = 0; s < S; s++)
		for (uint32_t t = 0; t < S; t++)
			if (t != s)
				check_link(m, id++, "D", s * 32 + t, t * 32 + s,
					   10 * GBS);

	/* The endpoint name carries supernode.drawer.position. */
	netm_link_info li;
	m->ops->link(m, 37 * 31, &li);
	assertEqualString(li.src, "hub 37 (1.0.5)");
	unmake(&f);
}

/* The D-link placement formula with d_links = 3 over 5 supernodes: the
 * i-th link from s to t leaves hub (t*3 + i) mod 32 of s and lands at
 * hub (s*3 + i) mod 32 of t; both directions use the same two hubs. */
static void test_dlink_placement(void)
{
	fake f;
	cfg c;
	defaults(&c, 5 * 32);
	set(&c, P_D_LINKS, 3);
	netm_model *m = make(&f, &c);
	const uint32_t S = 5, H = S * 32, dl = 3;

	assertEqualInt(count_class(m, "D"), S * (S - 1) * dl);
	uint32_t id = H * 31;
	for (uint32_t s = 0; s < S; s++)
		for (uint32_t t = 0; t < S; t++)
			for (uint32_t i = 0; t != s && i < dl; i++)
				check_link(m, id++, "D",
					   s * 32 + (t * dl + i) % 32,
					   t * 32 + (s * dl + i) % 32, 10 * GBS);
	/* Supernode 0 spreads its 12 D links over 12 different hubs. */
	unsigned used[32] = { 0 };
	netm_link_info li;
	for (id = H * 31; id < H * 31 + (S - 1) * dl; id++) {
		m->ops->link(m, id, &li);
		used[hub_of(li.src)]++;
	}
	for (int h = 0; h < 32; h++)
		assertTrue(used[h] == (h >= 3 && h < 15));
	unmake(&f);
}

/* Direct routes on 2 supernodes: the D link 0 -> 1 joins hub 1 and hub
 * 32, the D link 1 -> 0 hub 32 and hub 1. */
static void test_direct_routes(void)
{
	fake f;
	cfg c;
	defaults(&c, 64);
	make(&f, &c);

	expect_route(&f, 0, 5, "LL");          /* same drawer */
	expect_route(&f, 5, 0, "LL");
	expect_route(&f, 0, 13, "LR");         /* other drawer */
	expect_route(&f, 31, 0, "LR");
	expect_route(&f, 1, 32, "D");          /* D-link hub to D-link hub */
	expect_route(&f, 32, 1, "D");
	expect_route(&f, 0, 32, "LL-D");       /* L to the D-link hub */
	expect_route(&f, 1, 33, "D-LL");       /* from the landing hub */
	expect_route(&f, 1, 40, "D-LR");
	expect_route(&f, 0, 45, "LL-D-LR");
	expect_route(&f, 9, 63, "LR-D-LR");
	expect_route(&f, 45, 0, "LR-D-LL");
	route r = route_of(&f, 0, 45);
	assertEqualInt(r.n, 3);
	assertEqualInt(r.to[0], 1);
	assertEqualInt(r.from[1], 1);
	assertEqualInt(r.to[1], 32);
	unmake(&f);

	/* One-node supernodes: every route is a single D link. */
	defaults(&c, 5);
	set(&c, P_DRAWERS, 1);
	set(&c, P_NODES_PER_DRAWER, 1);
	netm_model *m = make(&f, &c);
	assertEqualInt(count_class(m, "D"), 5 * 4);
	assertEqualInt(count_class(m, "LL") + count_class(m, "LR"), 0);
	route one = route_of(&f, 3, 1);
	assertEqualInt(one.n, 1);
	unmake(&f);
}

/* With d_links = 4 the packets of a message spread over the 4 D links
 * of the pair, and every route stays L-D-L. */
static void test_dlinks_spread(void)
{
	fake f;
	cfg c;
	defaults(&c, 64);
	set(&c, P_D_LINKS, 4);
	netm_model *m = make(&f, &c);
	const uint32_t dbase = 64 * 31;    /* s0 -> s1: ids dbase .. +3 */

	unsigned hits[4] = { 0 };
	for (int k = 0; k < 200; k++) {
		route r = route_of(&f, 20, 50);
		assertTrue(r.n >= 1 && r.n <= 3);
		int nd = 0;
		for (int i = 0; i < r.n; i++)
			if (!strcmp(r.cls[i], "D")) {
				nd++;
				if (r.link[i] >= dbase && r.link[i] < dbase + 4)
					hits[r.link[i] - dbase]++;
				else
					TEST_FAIL("D link %u is not 0 -> 1",
						  (unsigned)r.link[i]);
			}
		assertEqualInt(nd, 1);
	}
	for (int i = 0; i < 4; i++)
		if (hits[i] < 25)
			TEST_FAIL("D link %d of 4 took %u of 200 packets", i,
				  hits[i]);
	/* A long message: 64 packets over the 4 links. */
	netm_link_info li;
	uint64_t before_pk[4];
	for (int i = 0; i < 4; i++) {
		m->ops->link(m, dbase + i, &li);
		before_pk[i] = li.packets;
	}
	send_at(&f, 3, 60, 64 * 2048, f.q.now);
	run(&f);
	uint64_t sum = 0;
	for (int i = 0; i < 4; i++) {
		m->ops->link(m, dbase + i, &li);
		assertTrue(li.packets > before_pk[i]);
		sum += li.packets - before_pk[i];
	}
	assertEqualU64(sum, 64);
	unmake(&f);
}

/* Indirect routes: L-D-L-D-L through an intermediate supernode that is
 * neither the source's nor the destination's, uniform over the others;
 * deterministic for a seed. */
static void indirect_run(uint64_t seed, uint32_t *mids, int nmsg)
{
	fake f;
	cfg c;
	defaults(&c, 6 * 32);
	set_indirect(&c);
	c.seed = seed;
	make(&f, &c);
	for (int k = 0; k < nmsg; k++) {
		uint32_t src = (uint32_t)(k * 7) % 32;          /* supernode 0 */
		uint32_t dst = 96 + (uint32_t)(k * 13) % 32;    /* supernode 3 */
		route r = route_of(&f, src, dst);
		mids[k] = UINT32_MAX;
		assertTrue(r.n >= 2 && r.n <= 5);
		int nd = 0;
		for (int i = 0; i < r.n; i++) {
			if (strcmp(r.cls[i], "D"))
				continue;
			if (nd == 0) {
				assertEqualInt(r.from[i] / 32, 0);
				mids[k] = r.to[i] / 32;
			} else {
				assertEqualInt(r.from[i] / 32, mids[k]);
				assertEqualInt(r.to[i] / 32, 3);
			}
			nd++;
		}
		assertEqualInt(nd, 2);
		if (mids[k] == 0 || mids[k] == 3 || mids[k] >= 6)
			TEST_FAIL("intermediate supernode %u",
				  (unsigned)mids[k]);
	}
	/* Inside a supernode the route stays direct. */
	expect_route(&f, 96, 100, "LL");
	expect_route(&f, 96, 127, "LR");
	unmake(&f);
}

static void test_indirect_routes(void)
{
	enum { N = 160 };
	static uint32_t a[N], b[N], c[N];
	indirect_run(7, a, N);
	indirect_run(7, b, N);
	indirect_run(8, c, N);
	assertTrue(memcmp(a, b, sizeof a) == 0);
	assertTrue(memcmp(a, c, sizeof a) != 0);
	unsigned hist[6] = { 0 };
	for (int k = 0; k < N; k++)
		if (a[k] < 6)
			hist[a[k]]++;
	/* Uniform over {1, 2, 4, 5}: 40 each expected. */
	for (int s = 0; s < 6; s++)
		if ((s == 0 || s == 3) ? hist[s] != 0 :
		    hist[s] < 20 || hist[s] > 60)
			TEST_FAIL("intermediate supernode %d taken %u times of "
				  "%d", s, hist[s], N);

	/* All five hops, 4 supernodes: from 9 (0.1.1) to hub m (0.0.m) of
	 * the intermediate m in {1, 2}, D to its hub 0 (m.0.0), to its hub 3
	 * (m.0.3) that holds the D link to supernode 3, landing at 3.0.m,
	 * and on to 3.1.1. */
	fake f;
	cfg cf;
	defaults(&cf, 4 * 32);
	set_indirect(&cf);
	make(&f, &cf);
	for (int k = 0; k < 20; k++) {
		route r = route_of(&f, 9, 3 * 32 + 9);
		assertEqualString(shape(&r), "LR-D-LL-D-LR");
		assertTrue(r.n == 5 && (r.to[0] == 1 || r.to[0] == 2) &&
			   r.to[1] == r.to[0] * 32 &&
			   r.to[2] == r.to[0] * 32 + 3 &&
			   r.to[3] == 96 + r.to[0]);
	}
	unmake(&f);

	/* With d_links = 2 each D leg picks its link independently: all
	 * four combinations of (first, second) link index occur. */
	defaults(&cf, 3 * 32);
	set_indirect(&cf);
	set(&cf, P_D_LINKS, 2);
	make(&f, &cf);
	unsigned combo[4] = { 0 };
	for (int k = 0; k < 80; k++) {
		route r = route_of(&f, 40, 70);     /* supernode 1 -> 2 via 0 */
		int leg = 0, idx[2] = { 0, 0 };
		for (int i = 0; i < r.n; i++)
			if (!strcmp(r.cls[i], "D") && leg < 2) {
				/* 3 supernodes, 2 links per pair: the index is
				 * the parity of the id from the first D link. */
				idx[leg++] = (int)((r.link[i] - 96 * 31) % 2);
			}
		assertEqualInt(leg, 2);
		combo[idx[0] * 2 + idx[1]]++;
	}
	for (int i = 0; i < 4; i++)
		if (combo[i] < 8)
			TEST_FAIL("D-link pair %d of 4 taken %u of 80 times", i,
				  combo[i]);
	unmake(&f);

	/* Two supernodes: no intermediate to take, so direct. */
	defaults(&cf, 64);
	set_indirect(&cf);
	make(&f, &cf);
	expect_route(&f, 0, 45, "LL-D-LR");
	unmake(&f);
}

/* --------------------------------------------------------- timings */

typedef struct hop {
	int64_t bw;
	sib_ps lat;
} hop;

/* The pktnet.h formula for one packet of b payload bytes. */
static sib_ps one_packet(const cfg *c, uint64_t b, const hop *h, int nh)
{
	uint64_t bb = b + (uint64_t)c->v[P_HEADER].i;
	sib_ps lr = c->v[P_ROUTER_LAT].i;
	sib_ps t = c->v[P_INJECT_LAT].i +
		netm_xfer_time(bb, c->v[P_INJECT_BW].i) + lr;
	for (int i = 0; i < nh; i++)
		t += netm_xfer_time(bb, h[i].bw) + h[i].lat + lr;
	return t + netm_xfer_time(bb, c->v[P_EJECT_BW].i) +
		c->v[P_EJECT_LAT].i;
}

static sib_ps time_of(const cfg *c, uint32_t src, uint32_t dst,
			 uint64_t bytes)
{
	fake f;
	make(&f, c);
	uint64_t tok = send_at(&f, src, dst, bytes, 1000);
	run(&f);
	sib_ps t = f.arrive[tok] - 1000;
	unmake(&f);
	return t;
}

static void test_single_message(void)
{
	cfg c;
	defaults(&c, 64);
	/* Figures that do not divide evenly, to catch rounding. */
	set(&c, P_HEADER, 16);
	set(&c, P_LL_BW, 23 * GBS);
	set(&c, P_LR_BW, 7 * GBS);
	set(&c, P_D_BW, 11 * GBS);
	set(&c, P_LL_LAT, 3 * NS);
	set(&c, P_LR_LAT, 31 * NS);
	set(&c, P_D_LAT, 123 * NS);
	set(&c, P_ROUTER_LAT, 17 * NS);
	set(&c, P_INJECT_LAT, 301 * NS);
	set(&c, P_EJECT_LAT, 203 * NS);
	set(&c, P_INJECT_BW, 19 * GBS);
	set(&c, P_EJECT_BW, 13 * GBS);
	const hop LL = { 23 * GBS, 3 * NS }, LR = { 7 * GBS, 31 * NS },
		  D = { 11 * GBS, 123 * NS };

	hop ll[] = { LL }, lr[] = { LR }, ldl[] = { LL, D, LR };
	assertEqualInt(time_of(&c, 0, 5, 1000), one_packet(&c, 1000, ll, 1));
	assertEqualInt(time_of(&c, 0, 13, 1000), one_packet(&c, 1000, lr, 1));
	assertEqualInt(time_of(&c, 0, 45, 1000),
		       one_packet(&c, 1000, ldl, 3));
	/* An empty message is one empty packet (header only). */
	assertEqualInt(time_of(&c, 0, 45, 0), one_packet(&c, 0, ldl, 3));

	/* k packets pipeline behind the slowest stage.  One injection and
	 * one ejection channel: inject 19, LL 23, D 11, LR 7, eject 13 GB/s,
	 * so the LR link paces the packets. */
	set(&c, P_INJECT_CH, 1);
	set(&c, P_EJECT_CH, 1);
	const uint64_t k = 6, b = 2048, bb = b + 16;
	assertEqualInt(time_of(&c, 0, 45, k * b), one_packet(&c, b, ldl, 3) +
		       (sib_ps)(k - 1) * netm_xfer_time(bb, 7 * GBS));
	/* Over one LL link the ejection channel (13 GB/s) is the slowest. */
	assertEqualInt(time_of(&c, 0, 5, k * b), one_packet(&c, b, ll, 1) +
		       (sib_ps)(k - 1) * netm_xfer_time(bb, 13 * GBS));
	/* Four channels of each: the LL link (23 GB/s) is. */
	set(&c, P_INJECT_CH, 4);
	set(&c, P_EJECT_CH, 4);
	assertEqualInt(time_of(&c, 0, 5, k * b), one_packet(&c, b, ll, 1) +
		       (sib_ps)(k - 1) * netm_xfer_time(bb, 23 * GBS));
}

/* Two flows through one D link (hub 1 -> hub 32), which paces both: a
 * flow of k packets alone takes T1 + (k-1) x, both together keep the
 * link busy for 2k packets, so the last arrives at T1 + (2k-1) x. */
static void test_shared_dlink(void)
{
	cfg c;
	defaults(&c, 64);
	const uint64_t k = 16, b = 2048;
	const sib_ps x = netm_xfer_time(b, 10 * GBS);
	const hop path[] = { { 24 * GBS, 5 * NS }, { 10 * GBS, 100 * NS },
			     { 24 * GBS, 5 * NS } };
	sib_ps t1 = one_packet(&c, b, path, 3);

	assertEqualInt(time_of(&c, 0, 33, k * b), t1 + (sib_ps)(k - 1) * x);

	fake f;
	make(&f, &c);
	uint64_t a = send_at(&f, 0, 33, k * b, 0);
	uint64_t d = send_at(&f, 2, 34, k * b, 0);
	run(&f);
	sib_ps last = f.arrive[a] > f.arrive[d] ? f.arrive[a] : f.arrive[d];
	assertEqualInt(last, t1 + (sib_ps)(2 * k - 1) * x);
	/* Both flows are slowed, not only the second. */
	assertTrue(f.arrive[a] > t1 + (sib_ps)(k - 1) * x);
	assertTrue(f.arrive[d] > t1 + (sib_ps)(k - 1) * x);
	netm_totals tot;
	f.m->ops->totals(f.m, &tot);
	assertEqualU64(tot.messages, 2);
	assertEqualU64(tot.packets, 2 * k);
	assertEqualU64(tot.hops, 2 * k * 3);
	unmake(&f);
}

/* Per-class bytes of a ping-pong 0 <-> 33, counted by hand: the ping
 * takes LL 0->1, D 1->32, LL 32->33; the pong LL 33->32, D 32->1,
 * LL 1->0. */
static void test_class_bytes(void)
{
	cfg c;
	fake f;
	defaults(&c, 64);
	netm_model *m = make(&f, &c);
	const uint64_t n = 5000;      /* 3 packets: 2048 + 2048 + 904 */
	uint64_t t = send_at(&f, 0, 33, n, 0);
	run(&f);
	send_at(&f, 33, 0, n, f.arrive[t]);
	run(&f);

	uint64_t bytes[5] = { 0 }, packets[5] = { 0 };
	uint32_t nl = m->ops->nlinks(m);
	netm_link_info li;
	for (uint32_t id = 0; id < nl; id++) {
		m->ops->link(m, id, &li);
		if (li.cls < 5) {
			bytes[li.cls] += li.bytes;
			packets[li.cls] += li.packets;
		}
	}
	assertEqualU64(bytes[0], 4 * n);      /* LL */
	assertEqualU64(bytes[1], 0);          /* LR */
	assertEqualU64(bytes[2], 2 * n);      /* D */
	assertEqualU64(bytes[3], 2 * n);      /* inject */
	assertEqualU64(bytes[4], 2 * n);      /* eject */
	assertEqualU64(packets[0], 4 * 3);
	assertEqualU64(packets[2], 2 * 3);
	/* Busy time of the D link 0 -> 1: its three packets. */
	m->ops->link(m, 64 * 31, &li);
	assertEqualInt(li.busy, 2 * netm_xfer_time(2048, 10 * GBS) +
		       netm_xfer_time(904, 10 * GBS));
	unmake(&f);
}

/* Finite buffers with the per-hop VCs: a burst in which every node sends
 * four messages to other nodes, over indirect routes, with one
 * packet of buffer per VC, delivers every message (no deadlock), and
 * later than the same burst on unbounded buffers. */
static void test_finite_buffers(void)
{
	cfg c;
	fake f;
	sib_ps unb = 0, fin = 0;
	for (int pass = 0; pass < 2; pass++) {
		defaults(&c, 4 * 32);
		set_indirect(&c);
		set(&c, P_BUFFER, pass ? 1 : 0);
		make(&f, &c);
		int nmsg = 0;
		for (uint32_t s = 0; s < 128; s++)
			for (uint32_t j = 1; j <= 4; j++) {
				send_at(&f, s, (s + j * 37) % 128, 8 * 2048,
					(sib_ps)(j * 100));
				nmsg++;
			}
		run(&f);
		sib_ps last = 0;
		for (int k = 0; k < nmsg; k++) {
			if (f.arrive[k] < 0)
				TEST_FAIL("message %d never arrived", k);
			if (f.arrive[k] > last)
				last = f.arrive[k];
		}
		*(pass ? &fin : &unb) = last;
		unmake(&f);
	}
	assertTrue(fin > unb);
}

/* One bad value on a 64-node machine: create() fails naming `want'. */
static void expect_error(int key, int64_t value, const char *want)
{
	fake f;
	cfg c;
	char err[512];
	defaults(&c, 64);
	set(&c, key, value);
	if (try_make(&f, &c, err, sizeof err)) {
		TEST_FAIL("%s = %lld accepted", keys[key], (long long)value);
		unmake(&f);
		return;
	}
	assertContains(err, want);
}

static void test_errors(void)
{
	fake f;
	cfg c;
	char err[512];

	defaults(&c, 100);
	set(&c, P_SUPERNODES, 1);
	assertTrue(!try_make(&f, &c, err, sizeof err));
	assertContains(err, "net.supernodes");
	assertContains(err, "100 nodes");
	assertContains(err, "at least 4");

	expect_error(P_D_LINKS, 0, "net.d_links");
	expect_error(P_DRAWERS, 0, "net.drawers");
	expect_error(P_NODES_PER_DRAWER, 0, "net.nodes_per_drawer");
	expect_error(P_LL_BW, 0, "net.ll_bandwidth");
	expect_error(P_LR_BW, 0, "net.lr_bandwidth");
	expect_error(P_D_BW, 0, "net.d_bandwidth");
	expect_error(P_D_LAT, -1, "net.d_latency");
	expect_error(P_PACKET_SIZE, 0, "net.packet_size");
	expect_error(P_INJECT_BW, 0, "net.inject_bandwidth");
	expect_error(P_EJECT_CH, 0, "net.eject_channels");
	expect_error(P_ROUTER_LAT, -1, "net.router_latency");

	/* More supernodes than the nodes need is a valid machine. */
	defaults(&c, 10);
	set(&c, P_SUPERNODES, 4);
	netm_model *m = try_make(&f, &c, err, sizeof err);
	assertTrue(m != NULL);
	if (m) {
		assertEqualInt(count_class(m, "D"), 12);
		unmake(&f);
	}
}

/* 512 supernodes (16,384 nodes): the ids stay arithmetic; spot-check
 * the last links and a route across the machine. */
static void test_large(void)
{
	fake f;
	cfg c;
	defaults(&c, 16384);
	netm_model *m = make(&f, &c);
	const uint32_t H = 16384, S = 512;
	uint32_t nd = S * (S - 1);
	check_link(m, H * 31 - 1, "LR", H - 1, H - 9, 5 * GBS);
	check_link(m, H * 31, "D", 1, 32, 10 * GBS);
	/* The last D link: s = 511 to t = 510, leaving hub 510 mod 32 = 30
	 * of supernode 511, landing at hub 511 mod 32 = 31 of 510. */
	check_link(m, H * 31 + nd - 1, "D", 511 * 32 + 30, 510 * 32 + 31,
		   10 * GBS);
	assertEqualString(cls_of(m, H * 31 + nd), "inject");
	/* 5 = 0.0.5 -> hub 31 (0.3.7), D to hub 0 of supernode 511, then
	 * to 511.3.7. */
	expect_route(&f, 5, 16383, "LR-D-LR");
	unmake(&f);
}

int main(void)
{
	test_params();
	test_links();
	test_dlink_placement();
	test_direct_routes();
	test_dlinks_spread();
	test_indirect_routes();
	test_single_message();
	test_shared_dlink();
	test_class_bytes();
	test_finite_buffers();
	test_errors();
	test_large();
	return TEST_EXIT();
}
