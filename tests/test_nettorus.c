/*
 * test_nettorus.c -- the `torus' network model (netmodels/torus.md):
 * geometry, routing, per-class traffic, timing and errors.
 *
 * Instances are made the way `sibyl sim' makes them: a configuration with
 * net.model = torus and --set style assignments, resolved by the config
 * parser, then netm_find("torus")->create().  The fake simulator of
 * nethost.h runs the model's events in (time, insertion) order; the host
 * records deliveries and the order in which links start transmitting.
 *
 * Defaults used in the expectations (torus.md): links 2 GB/s, 5 ns;
 * routers 35 ns; packets of 512 payload bytes + 32 header bytes;
 * injection and ejection 10 channels at 2 GB/s, 100 ns each.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "netmodel.h"
#include "sibtest.h"
#include "nethost.h"

#define NS INT64_C(1000)
#define X(n, bw) netm_xfer_time((uint64_t)(n), (bw))
#define BW INT64_C(2000000000)
#define LW (5 * NS)
#define LR (35 * NS)
#define LINJ (100 * NS)
#define LEJ (100 * NS)
#define HDR 32
#define PSZ 512

/* One packet of b wire bytes over h links, default parameters. */
static sib_ps t1(uint64_t b, int h)
{
	return LINJ + X(b, BW) + LR + h * (X(b, BW) + LW + LR) + X(b, BW) +
	       LEJ;
}

/* Wire bytes of a message of n payload bytes. */
static uint64_t wire(uint64_t n)
{
	uint64_t npk = n ? (n + PSZ - 1) / PSZ : 1;
	return n + npk * HDR;
}

/* ------------------------------------------------------ fake host */

#define MAXTOK 1024
#define MAXSTARTS 4096

typedef struct host {
	nh_queue q;              /* first: the host's context is the host */
	netm_model *m;
	netm_msg msgs[MAXTOK];
	sib_ps arrive[MAXTOK];
	int ndeliv[MAXTOK];
	uint32_t start_link[MAXSTARTS];  /* links in the order they start */
	size_t nstarts;
} host;

static void host_deliver(void *ctx, uint64_t token, sib_ps t)
{
	host *h = ctx;
	if (token >= MAXTOK || t < h->q.now) {
		TEST_FAIL("deliver(%llu, %lld) at %lld",
			  (unsigned long long)token, (long long)t,
			  (long long)h->q.now);
		return;
	}
	h->ndeliv[token]++;
	h->arrive[token] = t;
}

static void host_link_busy(void *ctx, uint32_t link, sib_ps start,
			   sib_ps end, uint64_t bytes)
{
	host *h = ctx;
	(void)start, (void)end, (void)bytes;
	if (h->nstarts < MAXSTARTS)
		h->start_link[h->nstarts++] = link;
}

/*
 * A torus instance for nnodes nodes, configured by assignments such as
 * "net.dims=4x4" (NULL-terminated).  Returns NULL with the message in
 * err when the configuration or create() fails.
 */
static host *make(uint32_t nnodes, const char *const *sets, char *err,
		  size_t errlen)
{
	fsim_config *c;
	if (fsim_config_new(&c))
		exit(99);
	int rc = fsim_config_set(c, "net.model=torus", err, errlen);
	for (size_t i = 0; !rc && sets && sets[i]; i++)
		rc = fsim_config_set(c, sets[i], err, errlen);
	if (!rc)
		rc = fsim_config_resolve(c, err, errlen);
	host *h = NULL;
	if (!rc) {
		const netm_ops *ops = fsim_config_model(c);
		netm_setup su = {
			.nnodes = nnodes, .npes = nnodes,
			.values = fsim_config_model_values(c), .seed = 3,
		};
		h = calloc(1, sizeof *h);
		if (!h)
			exit(99);
		netm_host nh = {
			.ctx = h, .schedule = nh_schedule,
			.deliver = host_deliver, .link_busy = host_link_busy,
		};
		if (ops != netm_find("torus") ||
		    ops->create(&h->m, &su, &nh, err, errlen)) {
			free(h);
			h = NULL;
		}
	}
	fsim_config_free(c);
	return h;
}

static host *make_ok(uint32_t nnodes, const char *const *sets)
{
	char err[512] = "";
	host *h = make(nnodes, sets, err, sizeof err);
	if (!h) {
		TEST_FAIL("creating a torus: %s", err);
		exit(1);
	}
	return h;
}

static void host_free(host *h)
{
	h->m->ops->destroy(h->m);
	nh_free(&h->q);
	free(h);
}

static void send(host *h, uint64_t token, uint32_t src, uint32_t dst,
		 uint64_t bytes, sib_ps depart)
{
	h->msgs[token] = (netm_msg){
		.token = token, .src_pe = src, .dst_pe = dst,
		.src_node = src, .dst_node = dst, .bytes = bytes,
		.depart = depart,
	};
	nh_send(&h->q, &h->msgs[token]);
}

static void run(host *h)
{
	nh_run(&h->q, h->m);
}

static netm_totals totals(const host *h)
{
	netm_totals t;
	h->m->ops->totals(h->m, &t);
	return t;
}

/* Index of class `name', or -1. */
static int cls_of(const host *h, const char *name)
{
	for (uint32_t c = 0; c < h->m->ops->nclasses(h->m); c++)
		if (strcmp(h->m->ops->class_name(h->m, c), name) == 0)
			return (int)c;
	return -1;
}

/* Bytes (or, with pk, packets) carried by the links of a class. */
static uint64_t class_sum(const host *h, const char *name, int pk)
{
	int c = cls_of(h, name);
	uint64_t sum = 0;
	for (uint32_t id = 0; id < h->m->ops->nlinks(h->m); id++) {
		netm_link_info li;
		h->m->ops->link(h->m, id, &li);
		if ((int)li.cls == c)
			sum += pk ? li.packets : li.bytes;
	}
	return sum;
}

/* Number of links of a class. */
static uint32_t class_links(const host *h, const char *name)
{
	int c = cls_of(h, name);
	uint32_t n = 0;
	for (uint32_t id = 0; id < h->m->ops->nlinks(h->m); id++) {
		netm_link_info li;
		h->m->ops->link(h->m, id, &li);
		n += (int)li.cls == c;
	}
	return n;
}

/* The link from the router named src to the one named dst. */
static int64_t find_link(const host *h, const char *src, const char *dst)
{
	for (uint32_t id = 0; id < h->m->ops->nlinks(h->m); id++) {
		netm_link_info li;
		h->m->ops->link(h->m, id, &li);
		if (!strcmp(li.src, src) && !strcmp(li.dst, dst))
			return id;
	}
	TEST_FAIL("no link %s -> %s", src, dst);
	return -1;
}

static uint64_t link_packets(const host *h, int64_t id)
{
	netm_link_info li = { 0 };
	if (id >= 0)
		h->m->ops->link(h->m, (uint32_t)id, &li);
	return li.packets;
}

/* ---------------------------------------------------------- tests */

/* One packet between known pairs: hops, the class it travels in and the
 * exact delivery time T1(b, h). */
static void test_hops(void)
{
	static const struct {
		const char *dims, *wrap;
		uint32_t nodes, src, dst;
		int hops;
		const char *cls[3]; /* classes used, with their hop counts */
		int n[3];
	} cases[] = {
		/* 8x4x2: router (x,y,z) is x + 8y + 32z */
		{ "8x4x2", "yes", 64, 0, 7, 1, { "x-" }, { 1 } },  /* wrap */
		{ "8x4x2", "no", 64, 0, 7, 7, { "x+" }, { 7 } },
		{ "8x4x2", "yes", 64, 0, 4, 4, { "x+" }, { 4 } },  /* tie: + */
		{ "8x4x2", "yes", 64, 4, 0, 4, { "x+" }, { 4 } },
		{ "8x4x2", "yes", 64, 3, 0, 3, { "x-" }, { 3 } },
		/* (0,0,0) -> (5,3,1): x 3 back, y 1 back, z tie -> + */
		{ "8x4x2", "yes", 64, 0, 5 + 24 + 32, 5, { "x-", "y-", "z+" },
		  { 3, 1, 1 } },
		{ "8x4x2", "no", 64, 0, 5 + 24 + 32, 9, { "x+", "y+", "z+" },
		  { 5, 3, 1 } },
		{ "8x4x2", "no", 64, 5 + 24 + 32, 0, 9, { "x-", "y-", "z-" },
		  { 5, 3, 1 } },
		/* 5D: (1,0,0,1,1) -> (0,0,0,0,0) in 3x3x3x3x2 */
		{ "3x3x3x3x2", "yes", 162, 1 + 27 + 81, 0, 3,
		  { "x-", "d3-", "d4+" }, { 1, 1, 1 } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char d[64], w[64];
		snprintf(d, sizeof d, "net.dims=%s", cases[i].dims);
		snprintf(w, sizeof w, "net.wrap=%s", cases[i].wrap);
		const char *sets[] = { d, w, NULL };
		host *h = make_ok(cases[i].nodes, sets);
		send(h, 1, cases[i].src, cases[i].dst, 100, 0);
		run(h);
		assertEqualInt(h->ndeliv[1], 1);
		assertEqualInt(h->arrive[1], t1(100 + HDR, cases[i].hops));
		netm_totals t = totals(h);
		assertEqualU64(t.hops, (uint64_t)cases[i].hops);
		assertEqualU64(t.packets, 1);
		assertEqualU64(t.queue_time, 0);
		int seen = 0;
		for (int j = 0; j < 3 && cases[i].cls[j]; j++) {
			assertEqualU64(class_sum(h, cases[i].cls[j], 1),
				       (uint64_t)cases[i].n[j]);
			seen += cases[i].n[j];
		}
		assertEqualInt(seen, cases[i].hops);
		assertEqualU64(class_sum(h, "inject", 1), 1);
		assertEqualU64(class_sum(h, "eject", 0), 100 + HDR);
		host_free(h);
	}
}

/* Dimension order: the links, in the order they transmit, from
 * (0,0,0) to (5,3,1) on the 8x4x2 torus. */
static void test_dor_path(void)
{
	const char *sets[] = { "net.dims=8x4x2", NULL };
	host *h = make_ok(64, sets);
	send(h, 1, 0, 5 + 24 + 32, 100, 0);
	run(h);
	static const char *const path[][2] = {
		{ "router 0 (0,0,0)", "router 7 (7,0,0)" },
		{ "router 7 (7,0,0)", "router 6 (6,0,0)" },
		{ "router 6 (6,0,0)", "router 5 (5,0,0)" },
		{ "router 5 (5,0,0)", "router 29 (5,3,0)" },
		{ "router 29 (5,3,0)", "router 61 (5,3,1)" },
	};
	/* injection channel, five links, ejection channel */
	assertEqualInt(h->nstarts, 7);
	for (size_t i = 0; i < 5 && i + 1 < h->nstarts; i++) {
		netm_link_info li;
		h->m->ops->link(h->m, h->start_link[i + 1], &li);
		assertEqualString(li.src, path[i][0]);
		assertEqualString(li.dst, path[i][1]);
		assertEqualInt(li.bandwidth, BW);
	}
	netm_link_info li;
	h->m->ops->link(h->m, h->start_link[0], &li);
	assertEqualString(li.src, "node 0");
	assertEqualString(li.dst, "router 0 (0,0,0)");
	assertEqualString(h->m->ops->class_name(h->m, li.cls), "inject");
	h->m->ops->link(h->m, h->start_link[6], &li);
	assertEqualString(li.src, "router 61 (5,3,1)");
	assertEqualString(li.dst, "node 61");
	assertEqualString(h->m->ops->class_name(h->m, li.cls), "eject");
	host_free(h);
}

/*
 * Adaptive routing under load, on a 5x4 torus.  Flow 1 (64 packets,
 * (0,0) -> (1,0)) enters router (0,0) through 10 injection channels,
 * five times faster than its x+ link drains it, so the link is booked 64
 * packet times ahead.  Flow 2 ((0,0) -> (1,1), 8 packets) leaves 2 us
 * later: dimension order sends it behind flow 1 on that link; adaptive
 * routing sees the y+ link of (0,0) free first, takes it, then x+ from
 * (0,1), and arrives much earlier.
 */
static void test_adaptive(void)
{
	sib_ps arr[2];
	for (int ad = 0; ad <= 1; ad++) {
		const char *sets[] = { "net.dims=5x4", ad ?
			"net.routing=adaptive" : "net.routing=dor", NULL };
		host *h = make_ok(20, sets);
		send(h, 1, 0, 1, 64 * PSZ, 0);
		send(h, 2, 0, 6, 8 * PSZ, 2000 * NS);
		run(h);
		assertEqualInt(h->ndeliv[1] + h->ndeliv[2], 2);
		arr[ad] = h->arrive[2];
		int64_t x00 = find_link(h, "router 0 (0,0)", "router 1 (1,0)");
		int64_t y00 = find_link(h, "router 0 (0,0)", "router 5 (0,1)");
		int64_t x01 = find_link(h, "router 5 (0,1)", "router 6 (1,1)");
		int64_t y10 = find_link(h, "router 1 (1,0)", "router 6 (1,1)");
		assertEqualU64(link_packets(h, x00), ad ? 64 : 72);
		assertEqualU64(link_packets(h, y00), ad ? 8 : 0);
		assertEqualU64(link_packets(h, x01), ad ? 8 : 0);
		assertEqualU64(link_packets(h, y10), ad ? 0 : 8);
		/* Both routes are minimal: the same number of hops. */
		assertEqualU64(totals(h).hops, 64 + 8 * 2);
		host_free(h);
	}
	assertTrue(arr[1] < arr[0]);
	/* An idle network: one packet from (0,0) to (1,1) finds x+ and y+
	 * both free, and the tie goes to the lower dimension. */
	const char *sets[] = { "net.dims=5x4", "net.routing=adaptive", NULL };
	host *h = make_ok(20, sets);
	send(h, 2, 0, 6, PSZ, 0);
	run(h);
	assertEqualU64(link_packets(h, find_link(h, "router 0 (0,0)",
						 "router 1 (1,0)")), 1);
	assertEqualInt(h->arrive[2], t1(PSZ + HDR, 2));
	host_free(h);
}

/*
 * Per-class bytes of shifts on the 4x2x2 torus and mesh (16 nodes, one
 * message of 1000 bytes each = 2 packets, 1064 wire bytes).  Node
 * (x,y,z) sends to ((x+k) mod 4, y, z), hand-counted per line of 4:
 *   torus k=1: 4 x 1 hop in x+;  k=2: a tie, 4 x 2 hops in x+;
 *          k=3: 4 x 1 hop in x-  (the shorter way round)
 *   mesh  k=1: x=0,1,2 one hop in x+, x=3 three hops in x-
 *         k=3: x=0 three hops in x+, x=1,2,3 one hop in x-
 * and the rank shift by 8 moves z by one (a tie in a dimension of 2: z+).
 */
static void test_shift(void)
{
	static const struct {
		const char *wrap;
		int k, rank;          /* shift by k in x, or by k ranks */
		uint64_t xp, xm, zp;  /* hops per 4 nodes (one line) */
	} cases[] = {
		{ "yes", 1, 0, 4, 0, 0 }, { "yes", 2, 0, 8, 0, 0 },
		{ "yes", 3, 0, 0, 4, 0 }, { "no", 1, 0, 3, 3, 0 },
		{ "no", 3, 0, 3, 3, 0 }, { "yes", 8, 1, 0, 0, 4 },
	};
	const uint64_t w = wire(1000);
	assertEqualU64(w, 1064);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char wr[32];
		snprintf(wr, sizeof wr, "net.wrap=%s", cases[i].wrap);
		const char *sets[] = { "net.dims=4x2x2", wr, NULL };
		host *h = make_ok(16, sets);
		for (uint32_t n = 0; n < 16; n++) {
			uint32_t d = cases[i].rank ?
				(n + (uint32_t)cases[i].k) % 16 :
				(n & ~3u) | ((n + (uint32_t)cases[i].k) & 3u);
			send(h, n, n, d, 1000, 0);
		}
		run(h);
		for (int n = 0; n < 16; n++)
			assertEqualInt(h->ndeliv[n], 1);
		assertEqualU64(class_sum(h, "x+", 0), 4 * cases[i].xp * w);
		assertEqualU64(class_sum(h, "x-", 0), 4 * cases[i].xm * w);
		assertEqualU64(class_sum(h, "y+", 0), 0);
		assertEqualU64(class_sum(h, "y-", 0), 0);
		assertEqualU64(class_sum(h, "z+", 0), 4 * cases[i].zp * w);
		assertEqualU64(class_sum(h, "z-", 0), 0);
		assertEqualU64(class_sum(h, "inject", 0), 16 * w);
		assertEqualU64(class_sum(h, "eject", 0), 16 * w);
		netm_totals t = totals(h);
		assertEqualU64(t.messages, 16);
		assertEqualU64(t.bytes, 16 * 1000);
		assertEqualU64(t.hops, 4 * 2 * (cases[i].xp + cases[i].xm +
						  cases[i].zp));
		host_free(h);
	}
}

/* Finite buffers: shifts that cross the wrap-around links of every ring
 * still deliver everything (dateline VCs), with the links carrying the
 * same bytes as with unbounded buffers, and never faster. */
static void test_finite(void)
{
	static const char *const dims[] = { "8", "4x4", "4x2x2" };
	static const char *const bufs[] = { "net.buffer_packets=0",
		"net.buffer_packets=1", "net.buffer_packets=2" };
	static const char *const wraps[] = { "net.wrap=yes", "net.wrap=no" };
	for (size_t d = 0; d < 3; d++)
		for (size_t wi = 0; wi < 2; wi++) {
			uint64_t bytes0 = 0;
			sib_ps last0 = 0;
			for (size_t b = 0; b < 3; b++) {
				char ds[32];
				snprintf(ds, sizeof ds, "net.dims=%s", dims[d]);
				const char *sets[] = { ds, bufs[b], wraps[wi],
						       "net.inject_channels=1",
						       NULL };
				uint32_t n = d == 0 ? 8 : 16;
				host *h = make_ok(n, sets);
				for (uint32_t s = 0; s < n; s++)
					send(h, s, s, (s + 3) % n, 20 * PSZ, 0);
				run(h);
				sib_ps last = 0;
				for (uint32_t s = 0; s < n; s++) {
					assertEqualInt(h->ndeliv[s], 1);
					if (h->arrive[s] > last)
						last = h->arrive[s];
				}
				uint64_t bytes = 0;
				uint32_t nc = h->m->ops->nclasses(h->m) - 2;
				for (uint32_t c = 0; c < nc; c++)
					bytes += class_sum(h,
						h->m->ops->class_name(h->m, c),
						0);
				if (b == 0) {
					bytes0 = bytes;
					last0 = last;
				}
				assertEqualU64(bytes, bytes0);
				assertTrue(last >= last0);
				host_free(h);
			}
		}
}

/* Geometry: the default dimensions, extra routers, link counts. */
static void test_geometry(void)
{
	/* 100 nodes: 5x5x4 (the largest factor as small as possible). */
	host *h = make_ok(100, NULL);
	assertEqualInt(class_links(h, "x+"), 100);
	assertEqualInt(class_links(h, "z-"), 100);
	assertEqualInt(h->m->ops->nlinks(h->m), 600 + 100 * 20);
	netm_link_info li;
	h->m->ops->link(h->m, 99, &li);     /* the x+ link of router 99 */
	assertEqualString(li.src, "router 99 (4,4,3)");
	assertEqualString(li.dst, "router 95 (0,4,3)");
	host_free(h);
	/* 12 nodes: 3x2x2; a ring of 2 has a + and a - link per router. */
	h = make_ok(12, NULL);
	assertEqualInt(class_links(h, "x+"), 12);
	assertEqualInt(class_links(h, "y-"), 12);
	assertEqualInt(class_links(h, "z+"), 12);
	host_free(h);
	/* 16 nodes: 4x2x2 rather than 4x4x1 (the smallest factor as large
	 * as possible). */
	h = make_ok(16, NULL);
	assertEqualInt(class_links(h, "y+"), 16);
	assertEqualInt(class_links(h, "z+"), 16);
	host_free(h);
	/* 7 nodes: a ring 7x1x1; dimensions of 1 have no links. */
	h = make_ok(7, NULL);
	assertEqualInt(class_links(h, "x-"), 7);
	assertEqualInt(class_links(h, "y+"), 0);
	assertEqualInt(h->m->ops->nclasses(h->m), 8);
	assertEqualString(h->m->ops->class_name(h->m, 6), "inject");
	assertEqualString(h->m->ops->class_name(h->m, 7), "eject");
	host_free(h);
	/* A 4x3 mesh: 3 links per row in x, 2 per column in y. */
	const char *mesh[] = { "net.dims=4x3", "net.wrap=no", NULL };
	h = make_ok(12, mesh);
	assertEqualInt(class_links(h, "x+"), 9);
	assertEqualInt(class_links(h, "x-"), 9);
	assertEqualInt(class_links(h, "y+"), 8);
	assertEqualInt(class_links(h, "y-"), 8);
	host_free(h);
	/* 5 nodes on 2x2x2: 8 routers, channels for the 5 nodes only; a
	 * route through router 7, which has no node. */
	const char *extra[] = { "net.dims=2x2x2", "net.routing=dor", NULL };
	h = make_ok(5, extra);
	assertEqualInt(h->m->ops->nlinks(h->m), 48 + 5 * 20);
	assertEqualInt(class_links(h, "inject"), 5 * 10);
	send(h, 1, 4, 3, 100, 0);   /* (0,0,1) -> (1,1,0) via 5 and 7 */
	run(h);
	assertEqualInt(h->arrive[1], t1(100 + HDR, 3));
	assertEqualU64(class_sum(h, "x+", 1), 1);   /* ties in rings of 2 */
	assertEqualU64(class_sum(h, "z+", 1), 1);
	assertEqualU64(link_packets(h, find_link(h, "router 5 (1,0,1)",
						 "router 7 (1,1,1)")), 1);
	host_free(h);
	/* 6D: the classes after z are d3, d4, d5. */
	const char *six[] = { "net.dims=2x2x2x2x2x2", NULL };
	h = make_ok(64, six);
	assertEqualString(h->m->ops->class_name(h->m, 10), "d5+");
	assertEqualString(h->m->ops->class_name(h->m, 11), "d5-");
	host_free(h);
}

/* Same inputs, same outputs. */
static void test_determinism(void)
{
	sib_ps a[64];
	for (int r = 0; r < 2; r++)
		for (int ad = 0; ad <= 1; ad++) {
			const char *sets[] = { "net.dims=4x4x4", ad ?
				"net.routing=adaptive" : "net.routing=dor",
				NULL };
			host *h = make_ok(64, sets);
			for (uint32_t s = 0; s < 64; s++)
				send(h, s, s, (s * 37 + 11) % 64, 3000 + s,
				     (sib_ps)(s % 5) * 100 * NS);
			run(h);
			for (int s = 0; s < 64; s++) {
				assertEqualInt(h->ndeliv[s], 1);
				if (r == 0 && ad == 1)
					a[s] = h->arrive[s];
				if (r == 1 && ad == 1)
					assertEqualInt(h->arrive[s], a[s]);
			}
			host_free(h);
		}
}

/* Every parameter changes the time of a message (2 packets, 3 hops). */
static void test_params_matter(void)
{
	static const char *const sets[] = {
		"net.link_bandwidth=1GB/s", "net.link_latency=6ns",
		"net.packet_size=256", "net.header=16",
		"net.router_latency=30ns", "net.inject_latency=50ns",
		"net.inject_channels=1", "net.inject_bandwidth=1GB/s",
		"net.eject_channels=1", "net.eject_bandwidth=1GB/s",
		"net.eject_latency=50ns", "net.wrap=no", "net.dims=64",
		"net.buffer_packets=1",
	};
	/* Links twice as fast as the channels, so that both the number of
	 * injection and of ejection channels matter. */
	const char *base[] = { "net.dims=4x4x4", "net.link_bandwidth=4GB/s",
			       NULL };
	host *h = make_ok(64, base);
	send(h, 1, 0, 3 + 4 + 16, 1000, 0);
	run(h);
	sib_ps t0 = h->arrive[1];
	host_free(h);
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		const char *s2[] = { base[0], base[1], sets[i], NULL };
		h = make_ok(64, s2);
		send(h, 1, 0, 3 + 4 + 16, 1000, 0);
		run(h);
		if (h->arrive[1] == t0)
			TEST_FAIL("%s does not change the time", sets[i]);
		host_free(h);
	}
}

static void expect_error(uint32_t nnodes, const char *set, const char *a,
			 const char *b)
{
	char err[512] = "";
	const char *sets[] = { set, NULL };
	host *h = make(nnodes, sets, err, sizeof err);
	assertTrue(h == NULL);
	if (h)
		host_free(h);
	assertContains(err, a);
	if (b)
		assertContains(err, b);
}

static void test_errors(void)
{
	expect_error(100, "net.dims=8x8", "net.dims", "64 routers");
	expect_error(100, "net.dims=8x8", "100 nodes", "5x5x4");
	expect_error(10, "net.dims=abc", "net.dims", "8x8x8");
	expect_error(10, "net.dims=4x0x4", "net.dims", "'4x0x4'");
	expect_error(10, "net.dims=4xx4", "net.dims", "'4xx4'");
	expect_error(10, "net.dims=4x4x", "net.dims", NULL);
	expect_error(10, "net.dims=70000", "net.dims", "65535");
	expect_error(10, "net.dims=2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2",
		     "net.dims", "16 dimensions");
	expect_error(10, "net.dims=65535x65535x65535", "net.dims", "2^32");
	expect_error(10, "net.inject_channels=0", "inject_channels", NULL);
	expect_error(10, "net.packet_size=0", "net.packet_size", NULL);
	expect_error(10, "net.routing=valiant", "net.routing", "adaptive");
	/* adaptive with finite buffers is refused, with the reason */
	char err[512] = "";
	const char *sets[] = { "net.routing=adaptive", "net.buffer_packets=4",
			       NULL };
	assertTrue(make(10, sets, err, sizeof err) == NULL);
	assertContains(err, "net.buffer_packets");
	assertContains(err, "deadlock");
}

int main(void)
{
	test_hops();
	test_dor_path();
	test_adaptive();
	test_shift();
	test_finite();
	test_geometry();
	test_determinism();
	test_params_matter();
	test_errors();
	return TEST_EXIT();
}
