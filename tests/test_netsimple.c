/*
 * test_netsimple.c -- the `simple' network model against its formula
 * (netmodels/README.md), to the picosecond.
 *
 * The model is driven through the fake simulator of nethost.h, whose
 * event queue runs in (time, insertion order), the order fastsim
 * promises: sends are queued at their departure time and handed to the
 * model when they come up, as fastsim does for a model that is not
 * NETM_IMMEDIATE.  Parameter values are built by hand, parallel to
 * netm_simple.params, so the test does not depend on the unit parser.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"
#include "sibtest.h"
#include "nethost.h"

/* The model under test, as registry.c knows it. */
extern const netm_ops netm_simple;

#define NS  INT64_C(1000)
#define US  INT64_C(1000000)

/* Parameter order is part of the contract: configs and values arrays
 * are parallel to it. */
enum { P_LATENCY, P_BANDWIDTH, P_CPP, P_PACKET_SIZE, P_O, P_G, P_NIC,
       P_PROTOCOLS, NP };

/* The defaults as values: 1us, 10GB/s, 0, 4KiB, 0, 0, none, no table. */
static void defaults(sib_value v[NP])
{
	memset(v, 0, NP * sizeof *v);
	v[P_LATENCY].i = 1 * US;
	v[P_BANDWIDTH].i = INT64_C(10000000000);
	v[P_CPP].i = 0;
	v[P_PACKET_SIZE].i = 4096;
	v[P_O].i = 0;
	v[P_G].i = 0;
	v[P_NIC].i = 0;
	v[P_NIC].s = "none";
	v[P_PROTOCOLS].s = "";
}

static void set_nic_serialize(sib_value v[NP])
{
	v[P_NIC].i = 1;
	v[P_NIC].s = "serialize";
	v[P_NIC].set = 1;
}

/* ------------------------------------------------------ fake host */

#define MAXBUSY 64
#define MAXMSG 64

typedef struct fake {
	nh_queue q;         /* first: the host's context is the fake */
	netm_model *m;
	sib_ps depart[MAXMSG];
	sib_ps arrive[MAXMSG];
	int delivered[MAXMSG];
	int ndelivered;
	/* Ping-pong: every delivery of token k < pp_rounds sends token
	 * k + 1 back from the receiver at the arrival time. */
	int pp_rounds;
	uint64_t pp_bytes;
	/* host->link_busy calls, when `record_links' is set. */
	int record_links;
	int nbusy;
	struct { uint32_t link; sib_ps start, end; uint64_t bytes; }
		busy[MAXBUSY];
} fake;

static void send_at(fake *f, uint64_t token, uint32_t src_pe,
		    uint32_t src_node, uint32_t dst_pe, uint32_t dst_node,
		    uint64_t bytes, sib_ps depart)
{
	netm_msg msg = {
		.token = token, .src_pe = src_pe, .dst_pe = dst_pe,
		.src_node = src_node, .dst_node = dst_node,
		.bytes = bytes, .depart = depart,
	};
	if (token < MAXMSG)
		f->depart[token] = depart;
	nh_send(&f->q, &msg);
}

static void fake_deliver(void *ctx, uint64_t token, sib_ps t)
{
	fake *f = ctx;
	if (token >= MAXMSG) {
		TEST_FAIL("delivered unknown token %llu",
			  (unsigned long long)token);
		return;
	}
	if (f->delivered[token]++)
		TEST_FAIL("token %llu delivered twice",
			  (unsigned long long)token);
	if (t < f->depart[token])
		TEST_FAIL("token %llu arrives at %lld before it left at %lld",
			  (unsigned long long)token, (long long)t,
			  (long long)f->depart[token]);
	if (!(f->m->flags & NETM_IMMEDIATE) && t < f->q.now)
		TEST_FAIL("token %llu delivered at %lld, in the past of %lld",
			  (unsigned long long)token, (long long)t,
			  (long long)f->q.now);
	f->arrive[token] = t;
	f->ndelivered++;
	if ((int)token < f->pp_rounds) {
		/* The reply goes back the other way: ranks/nodes 0 <-> 1. */
		uint32_t from = (token & 1) ? 0 : 1;
		send_at(f, token + 1, from, from, 1 - from, 1 - from,
			f->pp_bytes, t);
	}
}

static void fake_link_busy(void *ctx, uint32_t link, sib_ps start,
			   sib_ps end, uint64_t bytes)
{
	fake *f = ctx;
	if (f->nbusy == MAXBUSY) {
		TEST_FAIL("too many link_busy calls");
		return;
	}
	if (end < start)
		TEST_FAIL("link %u busy from %lld to %lld", (unsigned)link,
			  (long long)start, (long long)end);
	f->busy[f->nbusy].link = link;
	f->busy[f->nbusy].start = start;
	f->busy[f->nbusy].end = end;
	f->busy[f->nbusy].bytes = bytes;
	f->nbusy++;
}

static const netm_host fake_host_proto = {
	.ctx = NULL, .schedule = nh_schedule, .deliver = fake_deliver,
};

/* Build an instance on a fresh fake host; 0 on success. */
static int start_links(fake *f, const sib_value *v, uint32_t npes,
		       uint32_t nnodes, int record_links)
{
	memset(f, 0, sizeof *f);
	netm_host h = fake_host_proto;
	h.ctx = f;
	if (record_links)
		h.link_busy = fake_link_busy;
	netm_setup su = { .nnodes = nnodes, .npes = npes, .values = v,
			  .seed = 1 };
	char err[256] = "";
	if (netm_simple.create(&f->m, &su, &h, err, sizeof err) != 0) {
		TEST_FAIL("create failed: %s", err);
		return -1;
	}
	return 0;
}

static int start(fake *f, const sib_value *v, uint32_t npes,
		 uint32_t nnodes)
{
	return start_links(f, v, npes, nnodes, 0);
}

static void run(fake *f)
{
	nh_run(&f->q, f->m);
}

static void finish(fake *f)
{
	netm_simple.destroy(f->m);
	f->m = NULL;
	nh_free(&f->q);
}

/* One message of n bytes, rank 0 (node 0) -> rank 1 (node 1) at d. */
static sib_ps one(const sib_value *v, uint64_t n, sib_ps d)
{
	fake f;
	if (start(&f, v, 2, 2))
		return -1;
	send_at(&f, 0, 0, 0, 1, 1, n, d);
	run(&f);
	assertEqualInt(f.ndelivered, 1);
	finish(&f);
	return f.arrive[0];
}

/* --------------------------------------------------------- tests */

static void test_table(void)
{
	static const struct { const char *key, *def, *choices; int type; }
	want[NP] = {
		{ "latency", "1us", NULL, SIB_P_TIME },
		{ "bandwidth", "10GB/s", NULL, SIB_P_BW },
		{ "cpp", "0", NULL, SIB_P_TIME },
		{ "packet_size", "4KiB", NULL, SIB_P_SIZE },
		{ "o", "0", NULL, SIB_P_TIME },
		{ "g", "0", NULL, SIB_P_TIME },
		{ "nic", "none", "none|serialize", SIB_P_ENUM },
		{ "protocols", "", NULL, SIB_P_STRING },
	};
	const sib_param *p = netm_simple.params;
	assertEqualString(netm_simple.name, "simple");
	assertTrue(netm_simple.summary && *netm_simple.summary);
	assertTrue(netm_find("simple") == &netm_simple);
	assertTrue(netm_find("simpel") == NULL);
	assertTrue(netm_simple.create && netm_simple.send &&
		   netm_simple.totals && netm_simple.destroy);
	int n = 0;
	while (p[n].key)
		n++;
	assertEqualInt(n, NP);
	for (int i = 0; i < NP && i < n; i++) {
		assertEqualString(p[i].key, want[i].key);
		assertEqualString(p[i].def, want[i].def);
		assertEqualInt(p[i].type, want[i].type);
		if (want[i].choices)
			assertEqualString(p[i].choices, want[i].choices);
		else
			assertTrue(p[i].choices == NULL);
		assertTrue(p[i].doc && *p[i].doc);
	}
}

static void test_single(void)
{
	sib_value v[NP];
	defaults(v);
	/* 1000 B at 10 GB/s = 100 ns on the wire. */
	assertEqualInt(one(v, 1000, 0), 1 * US + 100 * NS);
	assertEqualInt(one(v, 1000, 5 * US + 3), 6 * US + 100 * NS + 3);
	assertEqualInt(one(v, 0, 7), 1 * US + 7);
	/* T_wire rounds up to a whole picosecond: 1 B at 3 GB/s = 333.3 ps. */
	v[P_BANDWIDTH].i = INT64_C(3000000000);
	assertEqualInt(one(v, 1, 0), 1 * US + 334);
	assertEqualInt(one(v, 3, 0), 1 * US + 1000);
}

/* A ping-pong of `rounds' messages takes rounds * (L + n/B), under every
 * configuration where g and the NIC cannot interfere. */
static void pingpong(const sib_value *v, int immediate)
{
	fake f;
	const uint64_t n = 1 << 20; /* 1 MiB: 104857.6 ns -> ceil in ps */
	const sib_ps hop = 1 * US + netm_xfer_time(n, v[P_BANDWIDTH].i);
	assertEqualInt(netm_xfer_time(n, v[P_BANDWIDTH].i), 104857600);
	if (start(&f, v, 2, 2))
		return;
	assertEqualInt(!!(f.m->flags & NETM_IMMEDIATE), immediate);
	f.pp_rounds = 9; /* tokens 0..9: five round trips */
	f.pp_bytes = n;
	send_at(&f, 0, 0, 0, 1, 1, n, 0);
	run(&f);
	assertEqualInt(f.ndelivered, 10);
	assertEqualInt(f.arrive[1], 2 * hop);        /* one round trip */
	assertEqualInt(f.arrive[9], 5 * 2 * hop);
	netm_totals t;
	netm_simple.totals(f.m, &t);
	assertEqualU64(t.messages, 10);
	assertEqualU64(t.bytes, 10 * n);
	assertEqualU64(t.packets, 10 * 256);
	assertEqualU64(t.hops, t.packets);
	assertEqualU64(t.events, 0);
	assertEqualInt(t.queue_time, 0);
	finish(&f);
}

static void test_pingpong(void)
{
	sib_value v[NP];
	defaults(v);
	pingpong(v, 1);
	/* g shorter than a round trip never delays a rank's next send. */
	v[P_G].i = 2 * US;
	pingpong(v, 0);
	defaults(v);
	set_nic_serialize(v);
	pingpong(v, 0);
}

static void test_packets(void)
{
	sib_value v[NP];
	defaults(v);
	v[P_CPP].i = 50 * NS;
	/* 10000 B = 3 packets of 4 KiB; 10000 B at 10 GB/s = 1 us. */
	assertEqualInt(one(v, 10000, 0), 1 * US + 1 * US + 3 * 50 * NS);
	assertEqualInt(one(v, 0, 0), 1 * US);                  /* 0 packets */
	assertEqualInt(one(v, 1, 0), 1 * US + 100 + 50 * NS);  /* 1 */
	assertEqualInt(one(v, 4096, 0), 1 * US + 409600 + 50 * NS);
	assertEqualInt(one(v, 4097, 0), 1 * US + 409700 + 100 * NS);

	fake f;
	if (start(&f, v, 2, 2))
		return;
	send_at(&f, 0, 0, 0, 1, 1, 10000, 0);
	send_at(&f, 1, 1, 1, 0, 0, 4096, 0);
	send_at(&f, 2, 1, 1, 0, 0, 0, 0);
	run(&f);
	netm_totals t;
	netm_simple.totals(f.m, &t);
	assertEqualU64(t.messages, 3);
	assertEqualU64(t.bytes, 14096);
	assertEqualU64(t.packets, 4);
	assertEqualU64(t.hops, 4);
	finish(&f);
}

static void test_overhead(void)
{
	sib_value v[NP];
	defaults(v);
	sib_ps base = one(v, 10000, 0);
	v[P_O].i = 300 * NS;
	assertEqualInt(one(v, 10000, 0), base + 600 * NS);
	assertEqualInt(one(v, 10000, 42), base + 600 * NS + 42);
}

static void test_gap(void)
{
	sib_value v[NP];
	defaults(v);
	v[P_G].i = 5 * US;
	const sib_ps alone = 1 * US + 1 * US; /* L + 10000 B */
	fake f;

	/* Same rank, same time: the second starts g after the first. */
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 0, 0, 3, 1, 10000, 0);
	run(&f);
	assertEqualInt(f.arrive[0], alone);
	assertEqualInt(f.arrive[1], alone + 5 * US);
	netm_totals t;
	netm_simple.totals(f.m, &t);
	assertEqualInt(t.queue_time, 5 * US);
	finish(&f);

	/* Different ranks (even on one node) do not interact. */
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 1, 0, 3, 1, 10000, 0);
	run(&f);
	assertEqualInt(f.arrive[0], alone);
	assertEqualInt(f.arrive[1], alone);
	finish(&f);

	/* Only the part of g not yet elapsed is waited; a message g or more
	 * after the previous start waits nothing.  o comes before g. */
	v[P_O].i = 100 * NS;
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);        /* starts 0.1 */
	send_at(&f, 1, 0, 0, 2, 1, 10000, 2 * US);   /* ready 2.1, starts 5.1 */
	send_at(&f, 2, 0, 0, 2, 1, 10000, 20 * US);  /* ready 20.1, no wait */
	run(&f);
	const sib_ps o2 = 200 * NS;
	assertEqualInt(f.arrive[0], alone + o2);
	assertEqualInt(f.arrive[1], 5 * US + alone + o2);
	assertEqualInt(f.arrive[2], 20 * US + alone + o2);
	netm_simple.totals(f.m, &t);
	assertEqualInt(t.queue_time, 3 * US);
	finish(&f);
}

static void test_nic(void)
{
	sib_value v[NP];
	defaults(v);
	set_nic_serialize(v);
	v[P_LATENCY].i = 0;
	v[P_CPP].i = 50 * NS;
	const sib_ps busy = 1 * US + 3 * 50 * NS; /* 10000 B: wire + pkts */
	fake f;

	/* Two ranks of node 0 at once: with L = 0 exactly double. */
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 1, 0, 3, 1, 10000, 0);
	run(&f);
	assertEqualInt(f.arrive[0], busy);
	assertEqualInt(f.arrive[1], 2 * busy);
	netm_totals t;
	netm_simple.totals(f.m, &t);
	assertEqualInt(t.queue_time, busy);
	finish(&f);

	/* With a latency the second is still exactly T_wire + T_pkt later. */
	v[P_LATENCY].i = 1 * US;
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 1, 0, 3, 1, 10000, 0);
	/* Sent while the NIC is still busy: waits for it, in send order. */
	send_at(&f, 2, 0, 0, 2, 1, 10000, busy / 2);
	run(&f);
	assertEqualInt(f.arrive[0], 1 * US + busy);
	assertEqualInt(f.arrive[1], 1 * US + 2 * busy);
	assertEqualInt(f.arrive[2], 1 * US + 3 * busy);
	finish(&f);

	/* Different nodes do not interact. */
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 2, 1, 0, 0, 10000, 0);
	run(&f);
	assertEqualInt(f.arrive[0], 1 * US + busy);
	assertEqualInt(f.arrive[1], 1 * US + busy);
	netm_simple.totals(f.m, &t);
	assertEqualInt(t.queue_time, 0);
	finish(&f);

	/* A NIC idle again by the time of sending adds nothing. */
	if (start(&f, v, 4, 2))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 1, 0, 3, 1, 10000, busy);
	run(&f);
	assertEqualInt(f.arrive[1], busy + 1 * US + busy);
	finish(&f);
}

/* Hand an immediate instance two 1000 B messages of node 0 to node 1:
 * token 0 leaving at 50 us, then token 1 leaving at 0; each is delivered
 * inside its send(). */
static void late_then_early(fake *f)
{
	netm_msg late = { .token = 0, .src_pe = 0, .dst_pe = 1, .src_node = 0,
			  .dst_node = 1, .bytes = 1000, .depart = 50 * US };
	netm_msg early = late;
	early.token = 1;
	early.depart = 0;
	f->depart[0] = late.depart;
	netm_simple.send(f->m, &late);
	assertEqualInt(f->ndelivered, 1);
	netm_simple.send(f->m, &early);
}

static void test_immediate(void)
{
	for (int g = 0; g < 2; g++)
		for (int nic = 0; nic < 2; nic++) {
			sib_value v[NP];
			defaults(v);
			/* o and cpp never make a model order-dependent. */
			v[P_O].i = 10 * NS;
			v[P_CPP].i = 10 * NS;
			v[P_G].i = g ? 1 * NS : 0;
			if (nic)
				set_nic_serialize(v);
			fake f;
			if (start(&f, v, 2, 2))
				continue;
			assertEqualInt(f.m->flags,
				       !g && !nic ? NETM_IMMEDIATE : 0u);
			finish(&f);
		}

	/* Immediate: sends may come early and out of order, and deliver at
	 * once inside send(). */
	sib_value v[NP];
	defaults(v);
	fake f;
	if (start(&f, v, 2, 2))
		return;
	late_then_early(&f);
	assertEqualInt(f.ndelivered, 2);
	assertEqualInt(f.arrive[0], 50 * US + 1 * US + 100 * NS);
	assertEqualInt(f.arrive[1], 1 * US + 100 * NS);
	finish(&f);
}

/*
 * Every parameter changes the result: one fixed workload (rank 0 of node
 * 0 sends 10000 B to two ranks of node 1 at t = 0), its last arrival
 * under the defaults and with one parameter changed.
 */
static sib_ps workload(const sib_value *v)
{
	fake f;
	if (start(&f, v, 4, 2))
		return -1;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 0, 0, 3, 1, 10000, 0);
	run(&f);
	assertEqualInt(f.ndelivered, 2);
	finish(&f);
	return f.arrive[0] > f.arrive[1] ? f.arrive[0] : f.arrive[1];
}

static void test_each_parameter(void)
{
	sib_value v[NP];
	defaults(v);
	const sib_ps base = workload(v);
	assertEqualInt(base, 2 * US);

	defaults(v);
	v[P_LATENCY].i = 3 * US;
	assertEqualInt(workload(v), base + 2 * US);

	defaults(v);
	v[P_BANDWIDTH].i = INT64_C(5000000000); /* half: 2 us on the wire */
	assertEqualInt(workload(v), base + 1 * US);

	defaults(v);
	v[P_CPP].i = 10 * NS;
	assertEqualInt(workload(v), base + 30 * NS);

	/* packet_size only matters through cpp: compare both with cpp set. */
	defaults(v);
	v[P_CPP].i = 10 * NS;
	const sib_ps with_cpp = workload(v);
	v[P_PACKET_SIZE].i = 1000;           /* 10 packets instead of 3 */
	assertEqualInt(workload(v), with_cpp + 70 * NS);

	defaults(v);
	v[P_O].i = 250 * NS;
	assertEqualInt(workload(v), base + 500 * NS);

	defaults(v);
	v[P_G].i = 4 * US;
	assertEqualInt(workload(v), base + 4 * US);

	defaults(v);
	set_nic_serialize(v);
	assertEqualInt(workload(v), base + 1 * US);
}

static void expect_error(sib_value *v, const char *key)
{
	netm_model *m = NULL;
	netm_host h = fake_host_proto;
	fake f;
	memset(&f, 0, sizeof f);
	h.ctx = &f;
	netm_setup su = { .nnodes = 2, .npes = 2, .values = v };
	char err[256] = "";
	assertTrue(netm_simple.create(&m, &su, &h, err, sizeof err) != 0);
	assertTrue(m == NULL);
	assertContains(err, key);
	/* A short buffer gets a truncated, terminated sentence. */
	char small[8];
	memset(small, 'x', sizeof small);
	assertTrue(netm_simple.create(&m, &su, &h, small, sizeof small) != 0);
	assertEqualInt(strlen(small), sizeof small - 1);
	assertTrue(netm_simple.create(&m, &su, &h, NULL, 0) != 0);
	assertTrue(m == NULL);
}

static void test_errors(void)
{
	sib_value v[NP];
	defaults(v);
	v[P_PACKET_SIZE].i = 0;
	expect_error(v, "net.packet_size must be at least 1 byte");
	v[P_PACKET_SIZE].i = -4;
	expect_error(v, "net.packet_size");

	defaults(v);
	v[P_BANDWIDTH].i = 0;
	expect_error(v, "net.bandwidth must be greater than 0");
	v[P_BANDWIDTH].i = -1;
	expect_error(v, "net.bandwidth");

	static const struct { int p; const char *key; } neg[] = {
		{ P_LATENCY, "net.latency must not be negative" },
		{ P_CPP, "net.cpp must not be negative" },
		{ P_O, "net.o must not be negative" },
		{ P_G, "net.g must not be negative" },
	};
	for (size_t i = 0; i < sizeof neg / sizeof neg[0]; i++) {
		defaults(v);
		v[neg[i].p].i = -1;
		expect_error(v, neg[i].key);
	}

	defaults(v);
	v[P_NIC].i = 2;
	expect_error(v, "net.nic");

	/* No values at all. */
	netm_model *m = NULL;
	netm_host h = fake_host_proto;
	netm_setup su = { .nnodes = 2, .npes = 2, .values = NULL };
	char err[256] = "";
	assertTrue(netm_simple.create(&m, &su, &h, err, sizeof err) != 0);
	assertTrue(m == NULL);
	assertTrue(err[0] != '\0');
}

/* Absurd parameters saturate: the message arrives "never", not before
 * it left. */
static void test_overflow(void)
{
	sib_value v[NP];
	defaults(v);
	v[P_BANDWIDTH].i = 1;
	assertEqualInt(one(v, UINT64_MAX, 0), INT64_MAX);
	/* The largest size whose wire time still fits is exact. */
	uint64_t nmax = (uint64_t)(INT64_MAX / SIB_PS_PER_S);
	assertEqualInt(one(v, nmax, 0) - 1 * US, nmax * (uint64_t)SIB_PS_PER_S);
	assertEqualInt(one(v, nmax + 1, 0), INT64_MAX);
	/* n * 10^12 just past 2^64: wrapping would give a short 0.93 s. */
	assertEqualInt(one(v, 18446745, 0), INT64_MAX);

	defaults(v);
	v[P_CPP].i = INT64_MAX / 2;
	v[P_PACKET_SIZE].i = 1;
	assertEqualInt(one(v, 3, 0), INT64_MAX);

	defaults(v);
	v[P_LATENCY].i = INT64_MAX;
	v[P_O].i = INT64_MAX;
	assertEqualInt(one(v, 1000, 5), INT64_MAX);

	defaults(v);
	assertEqualInt(one(v, 1000, INT64_MAX - 10), INT64_MAX);

	/* Saturated gap and NIC bookkeeping stay monotone too. */
	defaults(v);
	v[P_G].i = INT64_MAX;
	set_nic_serialize(v);
	fake f;
	if (start(&f, v, 2, 2))
		return;
	send_at(&f, 0, 0, 0, 1, 1, 1000, 0);
	send_at(&f, 1, 0, 0, 1, 1, 1000, 1);
	run(&f);
	assertEqualInt(f.arrive[0], 1 * US + 100 * NS);
	assertEqualInt(f.arrive[1], INT64_MAX);
	netm_totals t;
	netm_simple.totals(f.m, &t);
	assertEqualInt(t.queue_time, INT64_MAX - 1);
	finish(&f);
}

/* Scale: per-rank state exists only when g asks for it, so a huge
 * machine without it costs nothing per rank; per node there are the link
 * statistics (and the NIC's time with nic = serialize). */
static void test_scale(void)
{
	sib_value v[NP];
	defaults(v);
	fake f;
	if (start(&f, v, UINT32_MAX, 1u << 20) == 0) {
		send_at(&f, 0, UINT32_MAX - 1, (1u << 20) - 1, 0, 0, 1000, 0);
		run(&f);
		assertEqualInt(f.arrive[0], 1 * US + 100 * NS);
		assertEqualInt(netm_simple.nlinks(f.m), 2u << 20);
		finish(&f);
	}
	/* Two links per node must have 32-bit ids. */
	netm_model *m = NULL;
	netm_host h = fake_host_proto;
	h.ctx = &f;
	netm_setup su = { .nnodes = (UINT32_MAX / 2) + 1, .npes = UINT32_MAX,
			  .values = v };
	char err[256] = "";
	assertTrue(netm_simple.create(&m, &su, &h, err, sizeof err) != 0);
	assertTrue(m == NULL);
	assertContains(err, "at most 2147483647 nodes");

	v[P_G].i = 1 * US;
	set_nic_serialize(v);
	if (start(&f, v, 1u << 20, 1u << 15) == 0) {
		send_at(&f, 0, (1u << 20) - 1, (1u << 15) - 1, 0, 0, 1000, 0);
		send_at(&f, 1, (1u << 20) - 1, (1u << 15) - 1, 0, 0, 1000, 0);
		run(&f);
		assertEqualInt(f.arrive[0], 1 * US + 100 * NS);
		assertEqualInt(f.arrive[1], 2 * US + 100 * NS);
		finish(&f);
	}
}

/* Link `id' as the model reports it. */
static netm_link_info link_of(const fake *f, uint32_t id)
{
	netm_link_info li;
	memset(&li, 0xff, sizeof li);
	netm_simple.link(f->m, id, &li);
	return li;
}

static void expect_link(const fake *f, uint32_t id, const char *cls,
			const char *src, const char *dst, uint64_t bytes,
			uint64_t packets, sib_ps busy)
{
	netm_link_info li = link_of(f, id);
	assertEqualString(netm_simple.class_name(f->m, li.cls), cls);
	assertEqualString(li.src, src);
	assertEqualString(li.dst, dst);
	assertEqualInt(li.bandwidth, INT64_C(10000000000));
	assertEqualU64(li.bytes, bytes);
	assertEqualU64(li.packets, packets);
	assertEqualInt(li.busy, busy);
}

/*
 * Links: nic-out of node n is link n, nic-in is link nnodes + n; a
 * message keeps its sender's nic-out busy for T_wire + T_pkt from its
 * start and its receiver's nic-in as long from start + L.
 */
static void test_links(void)
{
	sib_value v[NP];
	defaults(v);
	v[P_CPP].i = 50 * NS;
	v[P_O].i = 20 * NS;
	fake f;
	if (start_links(&f, v, 6, 3, 1))
		return;
	assertEqualInt(netm_simple.nlinks(f.m), 6);
	assertEqualInt(netm_simple.nclasses(f.m), 2);
	assertEqualString(netm_simple.class_name(f.m, 0), "nic-out");
	assertEqualString(netm_simple.class_name(f.m, 1), "nic-in");
	assertTrue(netm_simple.class_name(f.m, 2) == NULL);
	expect_link(&f, 0, "nic-out", "node 0", "network", 0, 0, 0);
	expect_link(&f, 5, "nic-in", "network", "node 2", 0, 0, 0);

	/* 10000 B: 3 packets, 1 us + 150 ns; 4096 B: 1 packet, 409.6 ns +
	 * 50 ns; 0 B: nothing but a zero-length call. */
	const sib_ps w1 = 1 * US + 150 * NS, w2 = 409600 + 50 * NS;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 4, 2, 3, 1, 4096, 5 * US);
	send_at(&f, 2, 2, 1, 0, 0, 0, 7 * US);
	run(&f);
	expect_link(&f, 0, "nic-out", "node 0", "network", 10000, 3, w1);
	expect_link(&f, 1, "nic-out", "node 1", "network", 0, 0, 0);
	expect_link(&f, 2, "nic-out", "node 2", "network", 4096, 1, w2);
	expect_link(&f, 3, "nic-in", "network", "node 0", 0, 0, 0);
	expect_link(&f, 4, "nic-in", "network", "node 1", 14096, 4, w1 + w2);
	expect_link(&f, 5, "nic-in", "network", "node 2", 0, 0, 0);

	/* Every transmission was reported, from the start after o. */
	assertEqualInt(f.nbusy, 6);
	static const struct { uint32_t link; sib_ps s, e; uint64_t b; }
	want[] = {
		{ 0, 20 * NS, 20 * NS + w1, 10000 },
		{ 4, 1 * US + 20 * NS, 1 * US + 20 * NS + w1, 10000 },
		{ 2, 5 * US + 20 * NS, 5 * US + 20 * NS + w2, 4096 },
		{ 4, 6 * US + 20 * NS, 6 * US + 20 * NS + w2, 4096 },
		{ 1, 7 * US + 20 * NS, 7 * US + 20 * NS, 0 },
		{ 3, 8 * US + 20 * NS, 8 * US + 20 * NS, 0 },
	};
	for (int i = 0; i < 6 && i < f.nbusy; i++) {
		assertEqualInt(f.busy[i].link, want[i].link);
		assertEqualInt(f.busy[i].start, want[i].s);
		assertEqualInt(f.busy[i].end, want[i].e);
		assertEqualU64(f.busy[i].bytes, want[i].b);
	}
	finish(&f);

	/* A serializing NIC: the nic-out intervals follow each other; the
	 * nic-in ones keep their distance L from them. */
	defaults(v);
	set_nic_serialize(v);
	if (start_links(&f, v, 4, 2, 1))
		return;
	send_at(&f, 0, 0, 0, 2, 1, 10000, 0);
	send_at(&f, 1, 1, 0, 3, 1, 10000, 0);
	run(&f);
	assertEqualInt(f.nbusy, 4);
	assertEqualInt(f.busy[2].link, 0);
	assertEqualInt(f.busy[2].start, 1 * US);
	assertEqualInt(f.busy[2].end, 2 * US);
	assertEqualInt(f.busy[3].link, 3);
	assertEqualInt(f.busy[3].start, 2 * US);
	expect_link(&f, 0, "nic-out", "node 0", "network", 20000, 6, 2 * US);
	finish(&f);

	/* Immediate: sends out of order report intervals in the future and
	 * out of order; the totals do not care. */
	defaults(v);
	if (start_links(&f, v, 2, 2, 1))
		return;
	late_then_early(&f);
	assertEqualInt(f.nbusy, 4);
	assertEqualInt(f.busy[0].start, 50 * US);
	assertEqualInt(f.busy[2].start, 0);
	expect_link(&f, 0, "nic-out", "node 0", "network", 2000, 2, 200 * NS);
	finish(&f);
}

int main(void)
{
	test_table();
	test_single();
	test_pingpong();
	test_packets();
	test_overhead();
	test_gap();
	test_links();
	test_nic();
	test_immediate();
	test_each_parameter();
	test_errors();
	test_overflow();
	test_scale();
	return TEST_EXIT();
}
