/*
 * test_pieces.c -- piecewise costs by message size (netmodel.h,
 * netm_pieces): the table's syntax and refusals, the piece each size
 * falls in, and the simple model's arrival times with a table, against
 * os + latency + ceil(n / bandwidth) + or of the message's range.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "netmodel.h"
#include "sibtest.h"

#define NS INT64_C(1000)
#define US INT64_C(1000000)
#define GBS INT64_C(1000000000)

static const netm_piece scalar = {
	.from = 0, .latency = 1 * US, .bandwidth = 10 * GBS, .os = 7, .or = 9,
};

static void test_parse(void)
{
	netm_pieces t;
	char err[512];

	/* Empty: no table. */
	assertEqualInt(netm_pieces_parse(&t, "k", "", &scalar, err,
					 sizeof err), 0);
	assertEqualInt(t.n, 0);
	assertEqualInt(netm_pieces_parse(&t, "k", " ; ", &scalar, err,
					 sizeof err), 0);
	assertEqualInt(t.n, 0);

	/* Three ranges, blanks and commas, a trailing ';', both mus, a
	 * blank inside a value. */
	assertEqualInt(netm_pieces_parse(&t, "k", " 0: latency=2 us, "
					 "os=100ns;1KiB :bandwidth=1GB/s "
					 "or=3\xc2\xb5s ;64KiB: latency=5"
					 "\xce\xbcs bandwidth=2GB/s os=0 or=0;",
					 &scalar, err, sizeof err), 0);
	assertEqualInt(t.n, 3);
	assertEqualU64(t.p[0].from, 0);
	assertEqualInt(t.p[0].latency, 2 * US);
	assertEqualInt(t.p[0].bandwidth, 10 * GBS);	/* kept */
	assertEqualInt(t.p[0].os, 100 * NS);
	assertEqualInt(t.p[0].or, 9);			/* kept */
	assertEqualU64(t.p[1].from, 1024);
	assertEqualInt(t.p[1].latency, 1 * US);		/* kept */
	assertEqualInt(t.p[1].bandwidth, 1 * GBS);
	assertEqualInt(t.p[1].os, 7);
	assertEqualInt(t.p[1].or, 3 * US);
	assertEqualU64(t.p[2].from, 65536);
	assertEqualInt(t.p[2].latency, 5 * US);
	assertEqualInt(t.p[2].os, 0);
	assertEqualInt(t.p[0].rendezvous, 0);		/* eager: default */

	/* The piece of a size: the last range starting at or below it. */
	assertTrue(netm_pieces_find(&t, 0) == &t.p[0]);
	assertTrue(netm_pieces_find(&t, 1023) == &t.p[0]);
	assertTrue(netm_pieces_find(&t, 1024) == &t.p[1]);
	assertTrue(netm_pieces_find(&t, 65535) == &t.p[1]);
	assertTrue(netm_pieces_find(&t, 65536) == &t.p[2]);
	assertTrue(netm_pieces_find(&t, UINT64_MAX) == &t.p[2]);
	netm_pieces_free(&t);
	assertEqualInt(t.n, 0);
	assertTrue(t.p == NULL);

	/* sync per range; a range without it is eager. */
	assertEqualInt(netm_pieces_parse(&t, "k", "0: sync=eager; 4KiB: "
					 "sync=rendezvous os=1ns; 1MiB: os=2ns",
					 &scalar, err, sizeof err), 0);
	assertEqualInt(t.n, 3);
	assertEqualInt(t.p[0].rendezvous, 0);
	assertEqualInt(t.p[1].rendezvous, 1);
	assertEqualInt(t.p[1].os, 1000);
	assertEqualInt(t.p[2].rendezvous, 0);
	netm_pieces_free(&t);

	/* os_per_byte: the send overhead's part per byte, 0 unless given
	 * (the defaults have none). */
	assertEqualInt(netm_pieces_parse(&t, "k", "0: os=100ns; 256: "
					 "os_per_byte=0.25ns os=50ns; 4KiB: "
					 "os=1ns", &scalar, err, sizeof err),
		       0);
	assertEqualInt(t.n, 3);
	assertEqualInt(t.p[0].os_per_byte, 0);
	assertEqualInt(t.p[1].os_per_byte, 250);
	assertEqualInt(t.p[2].os_per_byte, 0);
	/* os + n * os_per_byte. */
	assertEqualInt(netm_piece_os(&t.p[0], 255), 100 * NS);
	assertEqualInt(netm_piece_os(&t.p[1], 256), 50 * NS + 256 * 250);
	assertEqualInt(netm_piece_os(&t.p[1], 4095), 50 * NS + 4095 * 250);
	/* Beyond the range of time: the largest time, not a wrap. */
	assertEqualInt(netm_piece_os(&t.p[1], UINT64_MAX), INT64_MAX);
	netm_pieces_free(&t);
}

static void test_find_many(void)
{
	char text[4096] = "", *s = text;
	netm_pieces t;
	char err[256];
	int ok = 1;

	/* 64 ranges from 0, 100, 200, ...: size n is in range n / 100. */
	for (int i = 0; i < 64; i++)
		s += sprintf(s, "%d: latency=%dns;", i * 100, i);
	assertEqualInt(netm_pieces_parse(&t, "k", text, &scalar, err,
					 sizeof err), 0);
	assertEqualInt(t.n, 64);
	for (uint64_t n = 0; n < 7000 && ok; n++) {
		uint64_t want = n / 100 < 63 ? n / 100 : 63;

		if (netm_pieces_find(&t, n) != &t.p[want]) {
			TEST_FAIL("size %" PRIu64 ": range %td, not %" PRIu64,
				  n, netm_pieces_find(&t, n) - t.p, want);
			ok = 0;
		}
	}
	netm_pieces_free(&t);
	/* One more is too many. */
	strcat(text, "7000: os=1ns");
	assertEqualInt(netm_pieces_parse(&t, "k", text, &scalar, err,
					 sizeof err), -1);
	assertContains(err, "more than 64 ranges");
}

static void test_refusals(void)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "64: latency=1us", "k: the first range must start at 0, "
		  "not at 64" },
		{ "0: os=1ns; 1KiB: os=2ns; 512: os=3ns", "k: range 3 starts "
		  "at 512 bytes, not after range 2 (1024)" },
		{ "0: os=1ns; 0: os=2ns", "range 2 starts at 0 bytes" },
		{ "0 latency=1us", "range 1: '0 latency=1us' has no 'SIZE:'" },
		{ "0: lat=1us", "range 1: unknown key 'lat' (keys: latency, "
		  "bandwidth, os, os_per_byte, or, sync)" },
		{ "0: sync=maybe", "k: range 1: sync" },
		{ "0: latency", "range 1: 'latency' is not KEY=VALUE" },
		{ "0: latency=1", "k: range 1: latency: '1' has no unit" },
		{ "0: latency=-1us", "is negative" },
		{ "0: bandwidth=0B/s", "greater than 0" },
		{ "0: bandwidth=1us", "k: range 1: bandwidth: '1us' is not a "
		  "bandwidth" },
		{ "1x: os=1ns", "k: range 1: '1x' is not a size" },
		{ "0: latency=1 us bandwidth", "k: range 1: latency: '1 us "
		  "bandwidth' is not a duration" },
	};
	netm_pieces t;
	char err[512];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		assertEqualInt(netm_pieces_parse(&t, "k", cases[i].text,
						 &scalar, err, sizeof err), -1);
		assertContains(err, cases[i].says);
		assertEqualInt(t.n, 0);
	}
}

/* ------------------------------------------- the simple model's table */

typedef struct host {
	sib_ps at[8];
	int n;
} host;

static void deliver(void *ctx, uint64_t token, sib_ps t)
{
	host *h = ctx;

	(void)token;
	if (h->n < 8)
		h->at[h->n] = t;
	h->n++;
}

/* Arrival of one message of `bytes' leaving at `depart' from node 0 to
 * node 1, on the simple model with net.o = o and net.protocols = table;
 * -1 when the model refuses the table (err says why). */
static sib_ps arrival(const char *table, sib_ps o, uint64_t bytes,
		      sib_ps depart, char *err, size_t errlen)
{
	const netm_ops *ops = netm_find("simple");
	sib_value v[16];
	netm_setup su = { .nnodes = 2, .npes = 2, .values = v, .seed = 1 };
	host h = { .n = 0 };
	netm_host nh = { .ctx = &h, .deliver = deliver };
	netm_model *m = NULL;
	int i;

	for (i = 0; ops->params[i].key; i++) {
		if (sib_parse_value(&ops->params[i], NULL, ops->params[i].def,
				    &v[i], err, errlen))
			return -2;
		if (!strcmp(ops->params[i].key, "protocols"))
			v[i].s = table;
		if (!strcmp(ops->params[i].key, "o"))
			v[i].i = o;
	}
	if (ops->create(&m, &su, &nh, err, errlen))
		return -1;
	netm_msg msg = { .token = 1, .src_pe = 0, .dst_pe = 1, .src_node = 0,
			 .dst_node = 1, .bytes = bytes, .depart = depart };
	ops->send(m, &msg);
	ops->destroy(m);
	return h.n == 1 ? h.at[0] : -3;
}

static void test_simple(void)
{
	const char *table = "0: latency=500ns os=100ns or=200ns; "
			    "4KiB: latency=2us bandwidth=5GB/s os=1us; "
			    "1MiB: bandwidth=20GB/s";
	char err[512] = "";

	/* No table: latency + n / bandwidth + 2 o (1us, 10GB/s). */
	assertEqualInt(arrival("", 30, 1000, 5, err, sizeof err),
		       5 + 30 + 1 * US + 100 * NS + 30);
	/* Range 1: os + latency + n / 10GB/s (kept) + or. */
	assertEqualInt(arrival(table, 30, 0, 5, err, sizeof err),
		       5 + 100 * NS + 500 * NS + 200 * NS);
	assertEqualInt(arrival(table, 30, 4095, 5, err, sizeof err),
		       5 + 100 * NS + 500 * NS + 409500 + 200 * NS);
	/* Range 2: or is net.o's 30 ps, kept. */
	assertEqualInt(arrival(table, 30, 4096, 5, err, sizeof err),
		       5 + 1 * US + 2 * US + 819200 + 30);
	/* Range 3: latency 1us (net.latency), bandwidth 20GB/s (50 ps a
	 * byte), os and or net.o. */
	assertEqualInt(arrival(table, 30, 1048579, 5, err, sizeof err),
		       5 + 30 + 1 * US + 52428950 + 30);
	/* os_per_byte adds to the sender's overhead, hence to the arrival:
	 * 4 KiB + 1 byte at 2 ps a byte is 8194 ps more. */
	assertEqualInt(arrival("0: latency=500ns os=100ns or=200ns; "
			       "4KiB: latency=2us bandwidth=5GB/s os=1us "
			       "os_per_byte=2ps", 30, 4097, 5, err,
			       sizeof err),
		       5 + 1 * US + 4097 * 2 + 2 * US + 819400 + 30);
	/* A refused table stops the model's creation, naming the key. */
	assertEqualInt(arrival("0: os=1ns; 0: os=2ns", 0, 1, 0, err,
			       sizeof err), -1);
	assertContains(err, "net.protocols: range 2 starts at 0 bytes");
}

int main(void)
{
	test_parse();
	test_find_many();
	test_refusals();
	test_simple();
	return TEST_EXIT();
}
