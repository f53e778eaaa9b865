/*
 * test_pktnet.c -- the packet engine (netmodels/pktnet.h) against its
 * formulas, to the picosecond.
 *
 * The engine is driven directly, on hand-built topologies (a line of
 * routers, a one-way ring), through the fake simulator of nethost.h,
 * whose event queue runs in (time, insertion order) as fastsim's does.  Every
 * expected time is computed here from the formula of pktnet.h:
 *
 *   T1(b) = inject_latency + X(b,I) + Lr + h (X(b,B) + Lw + Lr)
 *           + X(b,E) + eject_latency
 *
 * X(n,bw) = ceil(n 10^12 / bw); b = packet bytes + header.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"
#include "pktnet.h"
#include "sibtest.h"
#include "nethost.h"

#define NS INT64_C(1000)
#define X(n, bw) netm_xfer_time((uint64_t)(n), (bw))

/* ------------------------------------------------------ topologies */

enum { LINE, RING };

typedef struct topo {
	int kind;
	uint32_t n;          /* routers = nodes */
	int vcs;             /* two VCs: RING, VC 1 after the wrap-around
	                        link; LINE, VC = source node & 1 */
	uint64_t rnd[64];    /* rt->rnd of the packets begun, in order */
	uint32_t nrnd;
} topo;

static const char *const line_classes[] = { "fwd", "bwd" };

/* LINE: link r is r -> r+1, link n-1+r is r+1 -> r.
 * RING: link r is r -> (r+1) mod n, one way. */
static uint32_t topo_next(void *ctx, const pktnet *net, uint32_t at,
			  pktnet_route *rt)
{
	topo *t = ctx;
	(void)net;
	if (at == rt->dst_node)
		return PKTNET_EJECT;
	if (t->kind == LINE) {
		rt->vc = t->vcs ? rt->src_node & 1 : 0;
		return at < rt->dst_node ? at : t->n - 1 + (at - 1);
	}
	rt->vc = t->vcs && rt->mid ? 1 : 0;
	if (t->vcs && at == t->n - 1)
		rt->mid = 1;            /* crossing the wrap-around link */
	return at;
}

static void topo_begin(void *ctx, pktnet_route *rt)
{
	topo *t = ctx;
	if (t->nrnd < 64)
		t->rnd[t->nrnd++] = rt->rnd;
}

static void topo_name(void *ctx, uint32_t r, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "r%u", (unsigned)r);
}

static uint32_t topo_nlinks(const topo *t)
{
	return t->kind == LINE ? 2 * (t->n - 1) : t->n;
}

/* ------------------------------------------------------ fake host */

#define MAXTOK 256
#define MAXLINK 256

typedef struct fake {
	nh_queue q;          /* first: the host's context is the fake */
	pktnet *net;
	pktnet_model pm;     /* the engine as a model, for nh_run() */
	topo tp;
	sib_ps arrive[MAXTOK];
	int ndeliv[MAXTOK];
	sib_ps depart[MAXTOK];
	/* link_busy, per link */
	sib_ps busy[MAXLINK], first[MAXLINK], last_end[MAXLINK];
	uint64_t bytes[MAXLINK], calls[MAXLINK];
	int overlap;
} fake;

/* The engine's entry points as a model's. */
static const netm_ops engine_ops = {
	.name = "pktnet", .send = pktnet_model_send,
	.event = pktnet_model_event,
};

static void fake_deliver(void *ctx, uint64_t token, sib_ps t)
{
	fake *f = ctx;
	if (token >= MAXTOK) {
		TEST_FAIL("unknown token %llu", (unsigned long long)token);
		return;
	}
	if (t < f->q.now)
		TEST_FAIL("token %llu delivered at %lld, before now %lld",
			  (unsigned long long)token, (long long)t,
			  (long long)f->q.now);
	f->ndeliv[token]++;
	f->arrive[token] = t;
}

static void fake_link_busy(void *ctx, uint32_t link, sib_ps start,
			   sib_ps end, uint64_t bytes)
{
	fake *f = ctx;
	if (link >= MAXLINK || end < start) {
		TEST_FAIL("link_busy(%u, %lld, %lld)", (unsigned)link,
			  (long long)start, (long long)end);
		return;
	}
	if (f->calls[link] && start < f->last_end[link])
		f->overlap++;
	if (!f->calls[link])
		f->first[link] = start;
	f->calls[link]++;
	f->busy[link] += end - start;
	f->bytes[link] += bytes;
	f->last_end[link] = end;
}

/* Default parameters of the tests: 1 GB/s moves a byte in 1000 ps. */
static pktnet_params base_params(void)
{
	return (pktnet_params){
		.packet_size = 1000, .header = 24,
		.router_latency = 11 * NS, .inject_latency = 5 * NS,
		.inject_channels = 1, .inject_bw = INT64_C(1000000000),
		.eject_channels = 1, .eject_bw = INT64_C(1000000000),
		.eject_latency = 3 * NS, .buffer_packets = 0, .seed = 7,
	};
}

typedef struct linkp {
	int64_t bw;
	sib_ps lat;
} linkp;

static fake *fake_new(int kind, uint32_t n, const pktnet_params *p,
		      linkp lp, int vcs, int with_busy)
{
	fake *f = calloc(1, sizeof *f);
	if (!f)
		exit(99);
	f->tp = (topo){ .kind = kind, .n = n, .vcs = vcs };
	pktnet_topo t = {
		.ctx = &f->tp, .nrouters = n, .nvcs = vcs ? 2 : 1,
		.begin = topo_begin, .next = topo_next,
		.router_name = topo_name,
	};
	netm_host host = {
		.ctx = f, .schedule = nh_schedule, .deliver = fake_deliver,
		.link_busy = with_busy ? fake_link_busy : NULL,
	};
	char err[256] = "";
	f->net = pktnet_new(&t, p, topo_nlinks(&f->tp), 2, line_classes,
			    &host, err, sizeof err);
	if (!f->net) {
		TEST_FAIL("pktnet_new: %s", err);
		exit(1);
	}
	f->pm = (pktnet_model){ .base.ops = &engine_ops, .net = f->net };
	for (uint32_t l = 0; l < topo_nlinks(&f->tp); l++) {
		uint32_t from, to;
		if (kind == RING || l < n - 1) {
			from = l;
			to = (l + 1) % n;
		} else {
			from = l - (n - 1) + 1;
			to = from - 1;
		}
		pktnet_link_set(f->net, l, from, to, kind == LINE && l >= n - 1,
				lp.bw, lp.lat);
	}
	return f;
}

static void fake_free(fake *f)
{
	pktnet_free(f->net);
	nh_free(&f->q);
	free(f);
}

static void send_msg(fake *f, uint64_t token, uint32_t src, uint32_t dst,
		     uint64_t bytes, sib_ps depart)
{
	f->depart[token] = depart;
	nh_send(&f->q, &(netm_msg){
		.token = token, .src_pe = src, .dst_pe = dst,
		.src_node = src, .dst_node = dst, .bytes = bytes,
		.depart = depart });
}

static void run(fake *f)
{
	nh_run(&f->q, &f->pm.base);
}

/* T1: one packet of b wire bytes over h links. */
static sib_ps t1(const pktnet_params *p, linkp lp, uint64_t b, int h)
{
	return p->inject_latency + X(b, p->inject_bw) + p->router_latency +
	       h * (X(b, lp.bw) + lp.lat + p->router_latency) +
	       X(b, p->eject_bw) + p->eject_latency;
}

/* One message alone: its delivery time after departure. */
static sib_ps alone(const pktnet_params *p, linkp lp, uint32_t n,
		       uint32_t src, uint32_t dst, uint64_t bytes)
{
	fake *f = fake_new(LINE, n, p, lp, 0, 0);
	send_msg(f, 1, src, dst, bytes, 1000 * NS);
	run(f);
	assertEqualInt(f->ndeliv[1], 1);
	sib_ps d = f->arrive[1] - 1000 * NS;
	fake_free(f);
	return d;
}

/* ---------------------------------------------------------- tests */

static void test_single_packet(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(3000000000), 7 * NS };   /* X rounds up */
	p.inject_bw = INT64_C(2000000000);
	p.eject_bw = INT64_C(4000000000);
	static const uint64_t sizes[] = { 1, 100, 999, 1000 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		for (int h = 1; h <= 4; h++)
			assertEqualInt(alone(&p, lp, 6, 0, (uint32_t)h, sizes[i]),
				       t1(&p, lp, sizes[i] + p.header, h));
	/* Backwards along the line: the same time. */
	assertEqualInt(alone(&p, lp, 6, 5, 2, 500), t1(&p, lp, 524, 3));
	/* 0 bytes: one packet of header bytes. */
	assertEqualInt(alone(&p, lp, 6, 1, 3, 0), t1(&p, lp, 24, 2));
	/* 0 bytes, no header: an empty packet, latencies only. */
	p.header = 0;
	assertEqualInt(alone(&p, lp, 6, 1, 3, 0),
		       p.inject_latency + p.router_latency +
		       2 * (lp.lat + p.router_latency) + p.eject_latency);
	/* Rounding: 1 byte at 3 GB/s is 333.3 ps, charged 334 per stage. */
	assertEqualInt(X(1, lp.bw), 334);
}

static void test_multi_packet(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(1000000000), 7 * NS };
	sib_ps x = X(1024, lp.bw);          /* a full packet: 1024 ns */
	/* Equal bandwidths, k full packets: T1 + (k-1) X. */
	assertEqualInt(alone(&p, lp, 5, 0, 3, 5000),
		       t1(&p, lp, 1024, 3) + 4 * x);
	/* A partial last packet waits behind its full predecessor at every
	 * stage and then takes its own time at the last one:
	 * T1(full) + (k-2) X(full) + X(last). */
	assertEqualInt(alone(&p, lp, 5, 0, 3, 4321),
		       t1(&p, lp, 1024, 3) + 3 * x + X(321 + 24, lp.bw));
	assertEqualInt(alone(&p, lp, 5, 4, 2, 1001),
		       t1(&p, lp, 1024, 2) + X(1 + 24, lp.bw));
	/* A slow link in the path: the pipeline runs at its pace.  The
	 * first packet is T1 with X(b, slow) on the links... */
	linkp slow = { INT64_C(250000000), 7 * NS };  /* 4 ps per byte */
	assertEqualInt(alone(&p, slow, 5, 0, 2, 6000),
		       t1(&p, slow, 1024, 2) + 5 * X(1024, slow.bw));
	/* ... and a slow ejection channel paces it likewise. */
	p.eject_bw = INT64_C(500000000);
	assertEqualInt(alone(&p, lp, 5, 0, 2, 3000),
		       t1(&p, lp, 1024, 2) + 2 * X(1024, p.eject_bw));
}

/* Two injection and two ejection channels: a message's packets use
 * both; the link between them is the only serial stage. */
static void test_channels(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(4000000000), 7 * NS };    /* X(1024) = 256 ns */
	sib_ps xi = X(1024, p.inject_bw), xl = X(1024, lp.bw),
		  xe = X(1024, p.eject_bw);
	/* One channel each: injection is the bottleneck. */
	assertEqualInt(alone(&p, lp, 3, 0, 1, 2000),
		       t1(&p, lp, 1024, 1) + xi);
	/* Two: both packets enter at once, cross the link one after the
	 * other, leave by different ejection channels. */
	p.inject_channels = 2;
	p.eject_channels = 2;
	sib_ps r = p.inject_latency + xi + p.router_latency;
	assertEqualInt(alone(&p, lp, 3, 0, 1, 2000),
		       r + 2 * xl + lp.lat + p.router_latency + xe +
		       p.eject_latency);
	/* Three packets on two channels: the third enters when the first
	 * channel frees, and is then the last out. */
	assertEqualInt(alone(&p, lp, 3, 0, 1, 3000),
		       r + xi + xl + lp.lat + p.router_latency + xe +
		       p.eject_latency);
}

/* Flow A (0 -> 2) and flow B (1 -> 2) share link 1 -> 2, the bottleneck
 * (injection and ejection are 8 times faster).  B's first packet reaches
 * it at rb; from then on it is never idle, so the shared part lasts k X
 * alone and 2k X with both flows. */
typedef struct shared {
	pktnet_params p;
	linkp lp;
	sib_ps x;         /* a full packet on the shared link */
	sib_ps rb;        /* B's first packet is ready for it */
	sib_ps tail;      /* from the end on it to delivery */
} shared;

static shared shared_setup(uint32_t buffer_packets)
{
	shared s = { .p = base_params(),
		     .lp = { INT64_C(1000000000), 7 * NS } };
	s.p.inject_bw = s.p.eject_bw = INT64_C(8000000000);
	s.p.buffer_packets = buffer_packets;
	s.x = X(1024, s.lp.bw);
	s.rb = s.p.inject_latency + X(1024, s.p.inject_bw) +
	       s.p.router_latency;
	s.tail = s.lp.lat + s.p.router_latency + X(1024, s.p.eject_bw) +
		 s.p.eject_latency;
	return s;
}

static void test_shared_link(void)
{
	shared s = shared_setup(0);
	const uint64_t k = 8;
	sib_ps x = s.x, rb = s.rb, tail = s.tail;

	fake *f = fake_new(LINE, 4, &s.p, s.lp, 0, 1);
	send_msg(f, 2, 1, 2, k * 1000, 0);
	run(f);
	assertEqualInt(f->arrive[2], rb + (sib_ps)k * x + tail);
	assertEqualInt(f->last_end[1] - f->first[1], (sib_ps)k * x);
	fake_free(f);

	f = fake_new(LINE, 4, &s.p, s.lp, 0, 1);
	send_msg(f, 1, 0, 2, k * 1000, 0);
	send_msg(f, 2, 1, 2, k * 1000, 0);
	run(f);
	sib_ps last = f->arrive[1] > f->arrive[2] ? f->arrive[1] :
			 f->arrive[2];
	assertEqualInt(last, rb + 2 * (sib_ps)k * x + tail);
	assertEqualInt(f->first[1], rb);
	assertEqualInt(f->last_end[1] - f->first[1], 2 * (sib_ps)k * x);
	assertEqualInt(f->overlap, 0);
	/* Queueing: A and B queue at the shared link only; their waits are
	 * positive and the run totals count them. */
	netm_totals tot;
	pktnet_totals(f->net, &tot);
	assertTrue(tot.queue_time > 0);
	assertEqualU64(tot.hops, k * 2 + k * 1);
	fake_free(f);
}

/* Bytes on every link and channel, hand-counted, and link_busy series
 * that add up to the per-link totals. */
static void test_conservation(void)
{
	pktnet_params p = base_params();
	p.inject_channels = 2;
	linkp lp = { INT64_C(2000000000), 7 * NS };
	fake *f = fake_new(LINE, 5, &p, lp, 0, 1);
	/* token, src, dst, bytes, depart */
	static const struct { uint32_t s, d; uint64_t n; sib_ps t; } m[] = {
		{ 0, 4, 2500, 0 }, { 4, 0, 1000, 0 }, { 1, 3, 0, 50 * NS },
		{ 2, 1, 999, 70 * NS }, { 0, 4, 3001, 90 * NS },
		{ 3, 2, 1, 90 * NS }, { 1, 3, 1000, 90 * NS },
	};
	enum { NM = sizeof m / sizeof m[0] };
	uint64_t want[8] = { 0 };          /* per link id */
	uint64_t inj[5] = { 0 }, ej[5] = { 0 }, total = 0, pk = 0, hops = 0;
	for (int i = 0; i < NM; i++) {
		send_msg(f, (uint64_t)i, m[i].s, m[i].d, m[i].n, m[i].t);
		uint64_t npk = m[i].n ? (m[i].n + 999) / 1000 : 1;
		uint64_t wire = m[i].n + npk * p.header;
		inj[m[i].s] += wire;
		ej[m[i].d] += wire;
		total += wire;
		pk += npk;
		for (uint32_t r = m[i].s; r != m[i].d;) {
			if (m[i].s < m[i].d) {
				want[r] += wire;
				r++;
			} else {
				want[4 + r - 1] += wire;
				r--;
			}
			hops += npk;
		}
	}
	run(f);
	for (int i = 0; i < NM; i++)
		assertEqualInt(f->ndeliv[i], 1);

	uint32_t nl = pktnet_nlinks(f->net);
	assertEqualInt(nl, 8 + 5 * 2 + 5 * 1);
	assertEqualInt(pktnet_nclasses(f->net), 4);
	assertEqualString(pktnet_class_name(f->net, 2), "inject");
	assertEqualString(pktnet_class_name(f->net, 3), "eject");
	uint64_t sum_inj = 0, sum_ej = 0;
	for (uint32_t id = 0; id < nl; id++) {
		netm_link_info li;
		pktnet_link(f->net, id, &li);
		assertEqualU64(li.bytes, f->bytes[id]);
		assertEqualInt(li.busy, f->busy[id]);
		assertEqualU64(li.packets, f->calls[id]);
		if (id < 8) {
			assertEqualU64(li.bytes, want[id]);
			assertEqualInt(li.cls, id >= 4);
		} else if (id < 18) {
			uint32_t node = (id - 8) / 2;
			assertEqualInt(li.cls, 2);
			sum_inj += li.bytes;
			if ((id - 8) % 2 == 1) {
				netm_link_info l0;
				pktnet_link(f->net, id - 1, &l0);
				assertEqualU64(l0.bytes + li.bytes, inj[node]);
			}
		} else {
			assertEqualInt(li.cls, 3);
			assertEqualU64(li.bytes, ej[id - 18]);
			sum_ej += li.bytes;
		}
	}
	assertEqualU64(sum_inj, total);
	assertEqualU64(sum_ej, total);
	assertEqualInt(f->overlap, 0);

	netm_totals tot;
	pktnet_totals(f->net, &tot);
	assertEqualU64(tot.messages, NM);
	assertEqualU64(tot.packets, pk);
	assertEqualU64(tot.hops, hops);
	assertEqualU64(tot.bytes, 2500 + 1000 + 0 + 999 + 3001 + 1 + 1000);

	/* Names: links between routers, channels between a node and its
	 * router. */
	netm_link_info li;
	pktnet_link(f->net, 5, &li);
	assertEqualString(li.src, "r2");
	assertEqualString(li.dst, "r1");
	pktnet_link(f->net, 8 + 2 * 3 + 1, &li);
	assertEqualString(li.src, "node 3");
	assertEqualString(li.dst, "r3");
	assertEqualInt(li.bandwidth, p.inject_bw);
	pktnet_link(f->net, 18 + 4, &li);
	assertEqualString(li.src, "r4");
	assertEqualString(li.dst, "node 4");
	fake_free(f);
}

/*
 * Credits.  With one packet per buffer, a packet may start on a link
 * only after the one before it has left the far buffer (started on its
 * next link) and the credit has flown back: link start to link start is
 * P = X + 2 Lw + Lr (X, then Lw + Lr to be ready at the far router, then
 * the credit's Lw).  The injection buffer at the source router is also
 * one packet deep, but its credit needs only X + Lr < P.  So k equal
 * packets arrive T1 + (k-1) P after departure instead of T1 + (k-1) X.
 */
static void test_credits(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(1000000000), 7 * NS };
	sib_ps x = X(1024, lp.bw);
	sib_ps pp = x + 2 * lp.lat + p.router_latency;
	for (int h = 1; h <= 3; h++) {
		p.buffer_packets = 0;
		sib_ps unb = alone(&p, lp, 5, 0, (uint32_t)h, 6000);
		assertEqualInt(unb, t1(&p, lp, 1024, h) + 5 * x);
		p.buffer_packets = 1;
		assertEqualInt(alone(&p, lp, 5, 0, (uint32_t)h, 6000),
			       t1(&p, lp, 1024, h) + 5 * pp);
		/* Two packets per buffer cover the round trip (2 X >= P):
		 * no slowdown. */
		p.buffer_packets = 2;
		assertTrue(2 * x >= pp);
		assertEqualInt(alone(&p, lp, 5, 0, (uint32_t)h, 6000), unb);
	}
	/* A single packet never waits for a credit. */
	p.buffer_packets = 1;
	assertEqualInt(alone(&p, lp, 5, 4, 1, 10), t1(&p, lp, 34, 3));
	/* The shared link of test_shared_link, with one-packet buffers:
	 * everything arrives, and the link carries the same bytes. */
	fake *f = fake_new(LINE, 4, &p, lp, 0, 1);
	send_msg(f, 1, 0, 2, 8000, 0);
	send_msg(f, 2, 1, 2, 8000, 0);
	send_msg(f, 3, 3, 0, 5000, 0);
	run(f);
	assertEqualInt(f->ndeliv[1] + f->ndeliv[2] + f->ndeliv[3], 3);
	assertEqualU64(f->bytes[1], 16 * 1024);
	assertEqualInt(f->overlap, 0);
	fake_free(f);
}

/*
 * Event count (netm_totals.events): a message of k packets over h links,
 * one injection channel: k (h + 2) transmissions (injection, links,
 * ejection), the EV_READY after the inject latency, and one injection
 * wake-up for each packet after the first (the channel is busy with the
 * previous one).  Without inject latency there is no EV_READY.
 */
static void test_events(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(1000000000), 7 * NS };
	for (int lat = 0; lat < 2; lat++) {
		p.inject_latency = lat ? 5 * NS : 0;
		for (uint64_t k = 1; k <= 6; k += 5) {
			for (uint32_t h = 1; h <= 3; h += 2) {
				fake *f = fake_new(LINE, 5, &p, lp, 0, 0);
				send_msg(f, 1, 0, h, k * 1000, 0);
				run(f);
				netm_totals tot;
				pktnet_totals(f->net, &tot);
				assertEqualInt(f->ndeliv[1], 1);
				assertEqualU64(tot.packets, k);
				assertEqualU64(tot.events, k * (h + 2) +
					       (uint64_t)lat + (k - 1));
				fake_free(f);
			}
		}
	}
}

/*
 * Virtual channels.  On a one-way ring of 4 with one-packet buffers,
 * every node sending 2 hops ahead fills the ring's buffers in a cycle:
 * each packet waits for a buffer held by a packet that waits for the
 * next, and nothing moves again (the run ends with messages
 * undelivered).  The dateline (VC 1 after the wrap-around link) breaks
 * the cycle and everything arrives.
 */
static void test_vcs(void)
{
	pktnet_params p = base_params();
	p.buffer_packets = 1;
	p.inject_bw = INT64_C(8000000000);
	linkp lp = { INT64_C(1000000000), 7 * NS };
	for (int dl = 0; dl <= 1; dl++) {
		fake *f = fake_new(RING, 4, &p, lp, dl, 1);
		for (uint32_t s = 0; s < 4; s++)
			send_msg(f, s, s, (s + 2) % 4, 20000, 0);
		run(f);
		int got = 0;
		for (int s = 0; s < 4; s++)
			got += f->ndeliv[s];
		if (dl)
			assertEqualInt(got, 4);
		else
			assertTrue(got < 4);
		if (dl) {
			netm_totals tot;
			pktnet_totals(f->net, &tot);
			assertEqualU64(tot.hops, 4 * 20 * 2);
			assertEqualU64(f->bytes[0] + f->bytes[1] + f->bytes[2] +
				       f->bytes[3], 4 * 20 * 1024 * 2);
		}
		fake_free(f);
	}
}

/*
 * Round robin over VCs.  The flows of test_shared_link, with large
 * buffers and flow A (from node 0) on VC 0, flow B (from node 1) on VC 1.
 * B's packets are all waiting when A's first one arrives, one X after
 * B's first started; from then on the link alternates between the VCs:
 * B0 B1 A0 B2 A1 ... B7 A6 A7.  So B's last packet ends 14 X after the
 * link's first start, A's 16 X (first come, first served would finish
 * B at 8 X).
 */
static void test_vc_round_robin(void)
{
	shared s = shared_setup(100);
	fake *f = fake_new(LINE, 4, &s.p, s.lp, 1, 1);
	send_msg(f, 1, 0, 2, 8000, 0);
	send_msg(f, 2, 1, 2, 8000, 0);
	run(f);
	assertEqualInt(f->first[1], s.rb);
	assertEqualInt(f->arrive[2], s.rb + 14 * s.x + s.tail);
	assertEqualInt(f->arrive[1], s.rb + 16 * s.x + s.tail);
	fake_free(f);
}

/* Per-packet random bits: a function of (seed, message number, packet
 * number), so the same run gives the same bits and another seed others. */
static void test_rnd(void)
{
	pktnet_params p = base_params();
	linkp lp = { INT64_C(1000000000), 7 * NS };
	uint64_t a[8], b[8], c[8];
	for (int run_ = 0; run_ < 3; run_++) {
		p.seed = run_ == 2 ? 8 : 7;
		fake *f = fake_new(LINE, 3, &p, lp, 0, 0);
		send_msg(f, 1, 0, 2, 4000, 0);
		send_msg(f, 2, 2, 0, 4000, 0);
		run(f);
		assertEqualInt(f->tp.nrnd, 8);
		memcpy(run_ == 0 ? a : run_ == 1 ? b : c, f->tp.rnd, sizeof a);
		fake_free(f);
	}
	assertTrue(memcmp(a, b, sizeof a) == 0);
	int same = 0, dup = 0;
	for (int i = 0; i < 8; i++) {
		same += a[i] == c[i];
		for (int j = 0; j < i; j++)
			dup += a[i] == a[j];
	}
	assertEqualInt(same, 0);
	assertEqualInt(dup, 0);
}

/* Parameter checks name the key. */
static void test_params(void)
{
	char err[256];
	pktnet_params p = base_params();
	assertEqualInt(pktnet_params_check(&p, err, sizeof err), 0);
	static const struct { int field; const char *key; } cases[] = {
		{ 0, "net.packet_size" }, { 1, "net.header" },
		{ 2, "net.router_latency" }, { 3, "net.inject_latency" },
		{ 4, "net.inject_channels" }, { 5, "net.inject_bandwidth" },
		{ 6, "net.eject_channels" }, { 7, "net.eject_bandwidth" },
		{ 8, "net.eject_latency" }, { 9, "net.buffer_packets" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		pktnet_params q = base_params();
		switch (cases[i].field) {
		case 0: q.packet_size = 0; break;
		case 1: q.header = UINT64_C(1) << 40; break;
		case 2: q.router_latency = -1; break;
		case 3: q.inject_latency = -1; break;
		case 4: q.inject_channels = 0; break;
		case 5: q.inject_bw = 0; break;
		case 6: q.eject_channels = 0; break;
		case 7: q.eject_bw = -5; break;
		case 8: q.eject_latency = -1; break;
		case 9: q.buffer_packets = 2000000; break;
		}
		err[0] = '\0';
		assertTrue(pktnet_params_check(&q, err, sizeof err) != 0);
		assertContains(err, cases[i].key);
	}
}

/* The shared keys read from a model's values, in table order. */
static void test_params_from(void)
{
	char err[256] = "";
	sib_value v[10];
	memset(v, 0, sizeof v);
	static const int64_t x[10] = { 512, 32, 35000, 100000, 3,
				       2000000000, 4, 1000000000, 7000, 2 };
	for (int i = 0; i < 10; i++)
		v[i].i = x[i];
	pktnet_params p;
	assertEqualInt(pktnet_params_from(v, 9, &p, err, sizeof err), 0);
	const int64_t got[10] = {
		(int64_t)p.packet_size, (int64_t)p.header, p.router_latency,
		p.inject_latency, p.inject_channels, p.inject_bw,
		p.eject_channels, p.eject_bw, p.eject_latency,
		p.buffer_packets,
	};
	for (int i = 0; i < 10; i++)
		assertEqualInt(got[i], x[i]);
	assertEqualU64(p.seed, 9);
	v[4].i = INT64_C(1) << 40;
	assertTrue(pktnet_params_from(v, 9, &p, err, sizeof err) != 0);
	assertContains(err, "net.inject_channels");
	v[4].i = 3;
	v[1].i = -1;
	assertTrue(pktnet_params_from(v, 9, &p, err, sizeof err) != 0);
	assertContains(err, "net.header");
}

int main(void)
{
	test_single_packet();
	test_multi_packet();
	test_channels();
	test_shared_link();
	test_conservation();
	test_credits();
	test_events();
	test_vcs();
	test_vc_round_robin();
	test_rnd();
	test_params();
	test_params_from();
	return TEST_EXIT();
}
