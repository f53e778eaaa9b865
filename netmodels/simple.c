/*
 * simple.c -- the `simple' network model: latency + bytes/bandwidth, a
 * per-packet cost, and the LogGP overhead o and gap g, with an optional
 * serializing NIC per node.  No topology, no contention inside the
 * network.  Parameters, the exact formula and where the default figures
 * come from are in netmodels/README.md.
 *
 * Links: every node has a "nic-out" link (node -> network, ids 0 ..
 * nnodes-1) and a "nic-in" link (network -> node, ids nnodes ..
 * 2*nnodes-1).  A message occupies both for T_wire + T_pkt: its sender's
 * nic-out from its start, its receiver's nic-in from start + L.
 *
 * All arithmetic is in integers (picoseconds) and saturates at
 * SIMPLE_TIME_MAX instead of wrapping: absurd parameters give a message
 * that arrives "never", not one that arrives before it left.
 */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"

/* Exported through the registry (registry.c); netmodel.h names no model. */
extern const netm_ops netm_simple;

#define SIMPLE_TIME_MAX INT64_MAX
#define SIMPLE_TIME_MIN INT64_MIN

/* Internal invariants: a broken promise of the simulator (a rank or node
 * outside the sizes it gave create()) must stop the run, not corrupt it. */
#define SIMPLE_CHECK(c, fmt, ...) do { if (!(c)) { \
	fprintf(stderr, "netmodels/simple: internal error at %s:%d: %s (" \
		fmt ")\n", __FILE__, __LINE__, #c, __VA_ARGS__); \
	abort(); } } while (0)

/* The parameters in one X-macro list (sib_param.h), which gives the
 * table simple_params and its indices (also those of netm_setup.values). */
#define SIMPLE_PARAMS(X) \
	X(P_LATENCY, "latency", SIB_P_TIME, "1us", NULL, \
	  "Wire latency L added to every message.") \
	X(P_BANDWIDTH, "bandwidth", SIB_P_BW, "10GB/s", NULL, \
	  "Bandwidth B: a message of n bytes spends ceil(n/B) on the " \
	  "wire.") \
	X(P_CPP, "cpp", SIB_P_TIME, "0", NULL, \
	  "Cost per packet, charged once per started packet_size bytes.") \
	X(P_PACKET_SIZE, "packet_size", SIB_P_SIZE, "4KiB", NULL, \
	  "Packet size used to count packets for cpp.") \
	X(P_O, "o", SIB_P_TIME, "0", NULL, \
	  "LogGP overhead o, charged once at the sender and once at the " \
	  "receiver.") \
	X(P_G, "g", SIB_P_TIME, "0", NULL, \
	  "LogGP gap g: successive messages of one rank start at least g " \
	  "apart.") \
	X(P_NIC, "nic", SIB_P_ENUM, "none", "none|serialize", \
	  "serialize: messages leaving a node pass its NIC one at a " \
	  "time, in the order they are sent.") \
	X(P_PROTOCOLS, "protocols", SIB_P_STRING, "", NULL, \
	  "Costs by message size, one range per MPI protocol: " \
	  "'SIZE: KEY=VALUE ...; SIZE: ...' with keys latency, " \
	  "bandwidth, os (send overhead), os_per_byte (its part per " \
	  "byte), or (receive overhead) and sync (eager or rendezvous), " \
	  "the first range from 0; a key a range leaves out keeps " \
	  "latency, bandwidth or o, 0 for os_per_byte, or eager.  " \
	  "Empty: latency, bandwidth and o for every size.")

enum { SIMPLE_PARAMS(SIB_PARAM_ID) P_COUNT };
enum { NIC_NONE, NIC_SERIALIZE };
enum { CLS_NIC_OUT, CLS_NIC_IN, NCLASSES };

static const char *const simple_class_names[NCLASSES] = {
	[CLS_NIC_OUT] = "nic-out",
	[CLS_NIC_IN] = "nic-in",
};

static const sib_param simple_params[] = {
	SIMPLE_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

/* What one link carried: three words per link, six per node. */
typedef struct simple_link {
	uint64_t bytes, packets;
	sib_ps busy;
} simple_link;

typedef struct simple_model {
	netm_model base;          /* first, as netmodel.h requires */
	netm_host host;
	sib_ps latency, cpp, o, g;
	int64_t bandwidth;
	uint64_t packet_size;
	uint64_t wire_max_bytes;  /* largest n whose T_wire fits a sib_ps */
	uint32_t npes, nnodes;
	netm_pieces pieces;       /* net.protocols; n == 0: none */
	/* Only allocated when the feature is on: at a million ranks the
	 * plain latency/bandwidth model must cost nothing per rank. */
	sib_ps *next_start;    /* per rank, g > 0: earliest next start */
	sib_ps *nic_free;      /* per node, nic = serialize */
	simple_link *links;       /* 2 * nnodes: nic-out, then nic-in */
	netm_totals tot;
} simple_model;

static sib_ps sat_add(sib_ps a, sib_ps b)
{
	/* b >= 0 everywhere here: every parameter is checked non-negative. */
	return a > SIMPLE_TIME_MAX - b ? SIMPLE_TIME_MAX : a + b;
}

static sib_ps sat_mul(sib_ps a, uint64_t k)
{
	if (k != 0 && (uint64_t)a > (uint64_t)SIMPLE_TIME_MAX / k)
		return SIMPLE_TIME_MAX;
	return (sib_ps)((uint64_t)a * k);
}

static sib_ps max_time(sib_ps a, sib_ps b)
{
	return a > b ? a : b;
}

static sib_ps wire_time(const simple_model *s, uint64_t bytes)
{
	/* netm_xfer_time is exact, but its cast to sib_ps wraps beyond
	 * INT64_MAX ps. */
	if (bytes > s->wire_max_bytes)
		return SIMPLE_TIME_MAX;
	return netm_xfer_time(bytes, s->bandwidth);
}

static uint64_t packets_of(const simple_model *s, uint64_t bytes)
{
	return bytes / s->packet_size + (bytes % s->packet_size != 0);
}

/* Allocates n times, each set to "no constraint yet". */
static sib_ps *time_array(uint32_t n)
{
	sib_ps *a = malloc((n ? n : 1) * sizeof *a);
	for (uint32_t i = 0; a && i < n; i++)
		a[i] = SIMPLE_TIME_MIN;
	return a;
}

static int simple_create(netm_model **mp, const netm_setup *setup,
			 const netm_host *host, char *err, size_t errlen)
{
	if (!setup || !setup->values || !host || !host->deliver)
		return sib_errf(err, errlen, "the simple network model needs "
			    "its parameter values and a host to deliver "
			    "messages to");
	const sib_value *v = setup->values;
	static const int times[] = { P_LATENCY, P_CPP, P_O, P_G };
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (v[times[i]].i < 0)
			return sib_errf(err, errlen, "net.%s must not be negative "
				    "(got %lld ps)", simple_params[times[i]].key,
				    (long long)v[times[i]].i);
	if (v[P_BANDWIDTH].i <= 0)
		return sib_errf(err, errlen, "net.bandwidth must be greater "
			    "than 0 bytes/s, e.g. 10GB/s (got %lld)",
			    (long long)v[P_BANDWIDTH].i);
	if (v[P_PACKET_SIZE].i < 1)
		return sib_errf(err, errlen, "net.packet_size must be at least "
			    "1 byte (got %lld)", (long long)v[P_PACKET_SIZE].i);
	if (v[P_NIC].i != NIC_NONE && v[P_NIC].i != NIC_SERIALIZE)
		return sib_errf(err, errlen, "net.nic must be none or serialize "
			    "(got choice number %lld)", (long long)v[P_NIC].i);

	simple_model *s = calloc(1, sizeof *s);
	if (!s)
		return sib_errf(err, errlen, "out of memory creating the simple "
			    "network model");
	s->base.ops = &netm_simple;
	s->host = *host;
	s->latency = v[P_LATENCY].i;
	s->bandwidth = v[P_BANDWIDTH].i;
	s->cpp = v[P_CPP].i;
	s->packet_size = (uint64_t)v[P_PACKET_SIZE].i;
	s->o = v[P_O].i;
	s->g = v[P_G].i;
	s->npes = setup->npes;
	s->nnodes = setup->nnodes;
	netm_piece scalar = {
		.from = 0, .latency = s->latency, .bandwidth = s->bandwidth,
		.os = s->o, .or = s->o,
	};
	if (netm_pieces_parse(&s->pieces, "net.protocols",
			      v[P_PROTOCOLS].s, &scalar, err, errlen))
		goto out_with_model;

	/* T_wire(n) <= INT64_MAX  <=>  n <= INT64_MAX * B / 10^12. */
	unsigned __int128 wmax = (unsigned __int128)INT64_MAX *
		(uint64_t)s->bandwidth / (uint64_t)SIB_PS_PER_S;
	s->wire_max_bytes = wmax > UINT64_MAX ? UINT64_MAX : (uint64_t)wmax;

	if (s->nnodes > UINT32_MAX / 2) {
		sib_errf(err, errlen, "the simple network model numbers two "
		     "links per node with 32-bit ids: at most %lu nodes (got "
		     "%lu)", (unsigned long)(UINT32_MAX / 2),
		     (unsigned long)s->nnodes);
		goto out_with_model;
	}
	s->links = calloc(2 * (size_t)s->nnodes + 1, sizeof *s->links);
	if (!s->links) {
		sib_errf(err, errlen, "out of memory for the link statistics: "
		     "they need 48 bytes per node (%lu nodes)",
		     (unsigned long)s->nnodes);
		goto out_with_model;
	}
	if (s->g > 0) {
		s->next_start = time_array(s->npes);
		if (!s->next_start) {
			sib_errf(err, errlen, "out of memory for net.g: a gap needs "
			     "8 bytes per rank (%lu ranks)",
			     (unsigned long)s->npes);
			goto out_with_links;
		}
	}
	if (v[P_NIC].i == NIC_SERIALIZE) {
		s->nic_free = time_array(s->nnodes);
		if (!s->nic_free) {
			sib_errf(err, errlen, "out of memory for net.nic = "
			     "serialize: it needs 8 bytes per node (%lu nodes)",
			     (unsigned long)s->nnodes);
			goto out_with_gap;
		}
	}
	/* Without g and the NIC a message's arrival depends on nothing but
	 * the message, so the simulator may hand messages over early. */
	if (!s->next_start && !s->nic_free)
		s->base.flags = NETM_IMMEDIATE;
	*mp = &s->base;
	return 0;

out_with_gap:
	free(s->next_start);
out_with_links:
	free(s->links);
out_with_model:
	netm_pieces_free(&s->pieces);
	free(s);
	return -1;
}

/* Link `id' transmits a message for `busy' from `start'. */
static void account(simple_model *s, uint32_t id, uint64_t bytes,
		    uint64_t packets, sib_ps start, sib_ps busy)
{
	simple_link *l = &s->links[id];
	l->bytes += bytes;
	l->packets += packets;
	l->busy = sat_add(l->busy, busy);
	if (s->host.link_busy)
		s->host.link_busy(s->host.ctx, id, start,
				  sat_add(start, busy), bytes);
}

static void simple_send(netm_model *m, const netm_msg *msg)
{
	simple_model *s = (simple_model *)m;
	SIMPLE_CHECK(msg->src_node < s->nnodes && msg->dst_node < s->nnodes,
		     "src_node %u, dst_node %u, nnodes %u",
		     (unsigned)msg->src_node, (unsigned)msg->dst_node,
		     (unsigned)s->nnodes);
	sib_ps latency = s->latency, os = s->o, orecv = s->o, tw;
	if (s->pieces.n) {
		const netm_piece *pc = netm_pieces_find(&s->pieces, msg->bytes);
		latency = pc->latency;
		os = netm_piece_os(pc, msg->bytes);
		orecv = pc->or;
		tw = netm_xfer_time(msg->bytes, pc->bandwidth);
		if (msg->rdv_data) {
			/* Its request paid os and the latency. */
			latency = 0;
			os = 0;
		}
	} else {
		tw = wire_time(s, msg->bytes);
	}
	uint64_t npk = packets_of(s, msg->bytes);
	sib_ps busy = sat_add(tw, sat_mul(s->cpp, npk));

	sib_ps after_o = sat_add(msg->depart, os);
	sib_ps ready = after_o;
	if (s->next_start) {
		SIMPLE_CHECK(msg->src_pe < s->npes, "src_pe %u, npes %u",
			     (unsigned)msg->src_pe, (unsigned)s->npes);
		ready = max_time(ready, s->next_start[msg->src_pe]);
		s->next_start[msg->src_pe] = sat_add(ready, s->g);
	}
	sib_ps start = ready;
	if (s->nic_free) {
		start = max_time(ready, s->nic_free[msg->src_node]);
		s->nic_free[msg->src_node] = sat_add(start, busy);
	}
	sib_ps arrival = sat_add(sat_add(sat_add(start, latency), busy),
				 orecv);

	s->tot.messages++;
	s->tot.bytes += msg->bytes;
	s->tot.packets += npk;
	/* One link between any two nodes: every packet crosses one hop. */
	s->tot.hops += npk;
	/* start >= after_o; unsigned so that even a negative departure
	 * cannot overflow the difference. */
	uint64_t wait = (uint64_t)start - (uint64_t)after_o;
	s->tot.queue_time = sat_add(s->tot.queue_time,
				    wait > (uint64_t)SIMPLE_TIME_MAX ?
				    SIMPLE_TIME_MAX : (sib_ps)wait);

	/* The receiving NIC takes the bytes as they come off the wire. */
	uint32_t out = msg->src_node, in = s->nnodes + msg->dst_node;
	sib_ps in_start = sat_add(start, latency);
	account(s, out, msg->bytes, npk, start, busy);
	account(s, in, msg->bytes, npk, in_start, busy);

	s->host.deliver(s->host.ctx, msg->token, arrival);
}

static uint32_t simple_nlinks(const netm_model *m)
{
	return 2 * ((const simple_model *)m)->nnodes;
}

static uint32_t simple_nclasses(const netm_model *m)
{
	(void)m;
	return NCLASSES;
}

static const char *simple_class_name(const netm_model *m, uint32_t cls)
{
	(void)m;
	return cls < NCLASSES ? simple_class_names[cls] : NULL;
}

static void simple_link_info(const netm_model *m, uint32_t id,
			     netm_link_info *li)
{
	const simple_model *s = (const simple_model *)m;
	SIMPLE_CHECK(id < 2 * s->nnodes, "link %u, nlinks %u", (unsigned)id,
		     (unsigned)(2 * s->nnodes));
	const simple_link *l = &s->links[id];
	int in = id >= s->nnodes;
	unsigned node = in ? id - s->nnodes : id;
	memset(li, 0, sizeof *li);
	li->cls = in ? CLS_NIC_IN : CLS_NIC_OUT;
	snprintf(in ? li->dst : li->src, NETM_ENDPOINT_MAX, "node %u", node);
	snprintf(in ? li->src : li->dst, NETM_ENDPOINT_MAX, "network");
	li->bandwidth = s->bandwidth;
	li->bytes = l->bytes;
	li->packets = l->packets;
	li->busy = l->busy;
}

static void simple_totals(const netm_model *m, netm_totals *tot)
{
	*tot = ((const simple_model *)m)->tot;
}

static void simple_destroy(netm_model *m)
{
	simple_model *s = (simple_model *)m;
	if (!s)
		return;
	free(s->next_start);
	free(s->nic_free);
	free(s->links);
	netm_pieces_free(&s->pieces);
	free(s);
}

static const netm_pieces *simple_pieces(const netm_model *m)
{
	const simple_model *s = (const simple_model *)m;
	return s->pieces.n ? &s->pieces : NULL;
}

const netm_ops netm_simple = {
	.name = "simple",
	.summary = "latency + bytes/bandwidth + per-packet cost, LogGP o and "
		   "g, optional serializing NIC per node",
	.params = simple_params,
	.create = simple_create,
	.send = simple_send,
	.event = NULL,
	.totals = simple_totals,
	.nlinks = simple_nlinks,
	.nclasses = simple_nclasses,
	.class_name = simple_class_name,
	.link = simple_link_info,
	.destroy = simple_destroy,
	.pieces = simple_pieces,
};
