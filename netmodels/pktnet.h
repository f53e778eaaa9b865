/*
 * pktnet.h -- the packet-level network engine shared by the topology
 * models (torus.c, percs.c); internal to netmodels/.
 *
 * A topology model describes routers, links and routing; pktnet does the
 * rest: it cuts each message into packets, serializes them through the
 * source node's injection channels, moves them hop by hop over links with
 * per-link serialization and contention, optional finite buffers with
 * credit flow control and virtual channels, ejects them through the
 * destination node's ejection channels, delivers the message when its last
 * packet has been ejected, and keeps the per-link statistics that
 * netmodel.h exposes (netm_link_info) and the run totals (netm_totals).
 *
 * Model of one packet (all times integer picoseconds):
 *
 *   - Packetization.  A message of n bytes becomes ceil(n / packet_size)
 *     packets (one empty packet for n = 0); every packet but the last
 *     carries packet_size bytes.  Each packet occupies a channel for
 *     netm_xfer_time(packet bytes + header, bandwidth).
 *   - Injection.  A message's packets may enter the injection channels
 *     from depart + inject_latency on.  The node's `inject_channels'
 *     channels (each at `inject_bw') serve the node's ready messages
 *     round robin, one packet at a time, in the order the messages became
 *     ready (like an HFI with one send FIFO per message: a long message
 *     does not hold a short one back); a packet takes the channel that
 *     frees first (lowest index on ties).  Packets are created lazily when
 *     a channel can take them, so a 1 GB message does not become a
 *     million packets at once.
 *   - Hops (store and forward at packet granularity).  A packet that
 *     finishes crossing an injection channel or a link at time t_end
 *     reaches the router at its far end at t_arr = t_end + latency (the
 *     flight time of that link; injection channels have none), and is
 *     ready to leave that router at t_arr + router_latency.  The router
 *     asks the topology for the next link (pktnet_topo.next); then
 *
 *         start = max(ready, link free, a credit for its VC there)
 *         t_end = start + xfer(packet bytes + header, link bandwidth)
 *
 *     Packets waiting for one link are served first come, first served
 *     (by ready time, ties by the order they became ready); with virtual
 *     channels and finite buffers, round robin over the VCs that have a
 *     waiting packet and a credit.
 *   - Ejection.  At the destination router (next() returns PKTNET_EJECT)
 *     the packet, ready at t_arr + router_latency, takes the ejection
 *     channel that frees first (`eject_channels' at `eject_bw' each).
 *     The message is delivered when its last packet has left the
 *     ejection channel, plus `eject_latency'.
 *   - Finite buffers (buffer_packets > 0).  The input buffer at the far end
 *     of each link holds buffer_packets packets per virtual channel.  A
 *     packet may start on a link only with a credit for its VC there; the
 *     credit comes back when the packet has left that buffer (started on
 *     its next link or its ejection channel) plus the link's latency.
 *     With buffer_packets = 0 buffers are unbounded and credits are
 *     ignored (the fast path: one event per packet and hop).
 *
 * A single uncontended packet of b bytes (header included) over h links
 * of bandwidth B and latency Lw, router latency Lr, one injection channel
 * at I and one ejection channel at E, is delivered
 *
 *     inject_latency + xfer(b, I) + Lr + h * (xfer(b, B) + Lw + Lr)
 *       + xfer(b, E) + eject_latency
 *
 * after it was sent (h + 1 routers: the source router switches it from
 * the injection channel onto the first link, every other router onto the
 * next link or the ejection channel).  A message of k equal packets on an
 * idle path pipelines: its last packet is delivered (k - 1) * xfer(b, C)
 * after its first, C being the slowest channel or link on the path.
 *
 * Further rules of the engine (pktnet.c):
 *   - With finite buffers the injection channels feed a buffer of
 *     buffer_packets packets at the source router, whose credit returns
 *     (without latency) when the packet starts on its first link; a
 *     packet takes, among the channels holding a credit, the one that
 *     frees first.  Ejection channels always drain.
 *   - Statistics: a link's or channel's bytes are wire bytes (payload +
 *     header), its busy time the sum of its transfer times.  Totals:
 *     bytes are payload bytes; hops count links, not channels;
 *     queue_time is the sum over packets of start - ready at every link
 *     and ejection channel (ready: arrival + router_latency), plus at
 *     injection start - max(message ready, end of the injection of the
 *     message's previous packet).
 *   - Totals: events counts every transmission of a packet (on an
 *     injection channel, a link or an ejection channel) and every engine
 *     event that moves no packet itself (a message ready after its
 *     inject latency, a node's injection or a link waking up, a credit
 *     coming back): the work of the run, for packet-hop rates.
 *   - rt->rnd = m(m(seed ^ m(n)) + i), m being splitmix64's output
 *     function, n the message number (0, 1, ... in the order of
 *     pktnet_send calls) and i the packet's index in its message.
 *   - Times saturate at INT64_MAX instead of wrapping.  Up to 2^32 - 2^14
 *     packets and 2^31 messages may be in flight.
 */
#ifndef SIBYL_PKTNET_H
#define SIBYL_PKTNET_H

#include <stdint.h>

#include "netmodel.h"

#define PKTNET_EJECT UINT32_MAX  /* next(): the packet is at its destination */

typedef struct pktnet pktnet;

/* Routing state of one packet, owned by pktnet, written by the topology. */
typedef struct pktnet_route {
	uint32_t src_node, dst_node;
	uint32_t mid;       /* topology's scratch: intermediate supernode,
	                       chosen D link, dateline state, ... */
	uint16_t hops;      /* links crossed so far (not counting channels) */
	uint16_t vc;        /* VC of the next link (set by next()) */
	uint64_t rnd;       /* per-packet random bits: a deterministic hash of
	                       (seed, message number, packet number) */
} pktnet_route;

/* What a topology model gives pktnet. */
typedef struct pktnet_topo {
	void *ctx;
	uint32_t nrouters;          /* router r serves node r (one per node) */
	uint32_t nvcs;              /* virtual channels per link (>= 1) */
	/* Called once when a packet is created: choose random or per-packet
	 * parts of the route (e.g. the intermediate supernode); may be NULL. */
	void (*begin)(void *ctx, pktnet_route *rt);
	/* At router `at', the link the packet takes next, or PKTNET_EJECT
	 * when at == rt->dst_node.  Sets rt->vc.  Adaptive topologies may
	 * look at pktnet_link_free() of the candidates.  Must return a
	 * link whose `from' is `at'. */
	uint32_t (*next)(void *ctx, const pktnet *net, uint32_t at,
			 pktnet_route *rt);
	/* Endpoint name of router r for link listings ("node 5",
	 * "router (1,2,0)"); writes at most NETM_ENDPOINT_MAX bytes. */
	void (*router_name)(void *ctx, uint32_t r, char *buf, size_t len);
	/* Nodes with injection and ejection channels: routers 0 .. nnodes-1
	 * (a torus may have more routers than the machine has nodes).  0,
	 * the value a designated initializer leaves, means nrouters. */
	uint32_t nnodes;
} pktnet_topo;

/* Parameters common to every packet-level model. */
typedef struct pktnet_params {
	uint64_t packet_size;       /* payload bytes per packet (>= 1) */
	uint64_t header;            /* extra bytes each packet carries */
	sib_ps router_latency;   /* per router traversal */
	sib_ps inject_latency;   /* once per message, before its first
	                               packet may enter a channel (HFI) */
	uint32_t inject_channels;   /* per node (>= 1) */
	int64_t inject_bw;          /* per channel, bytes/s */
	uint32_t eject_channels;    /* per node (>= 1) */
	int64_t eject_bw;           /* per channel, bytes/s */
	sib_ps eject_latency;    /* added once per message at the end */
	uint32_t buffer_packets;    /* per link per VC; 0 = unbounded */
	uint64_t seed;
} pktnet_params;

/*
 * Build the engine for `topo' with `nlinks' links to be described with
 * pktnet_link_set() before the first message, and `nclasses' link classes
 * named by class_names (which must outlive the engine; pktnet adds the
 * classes "inject" and "eject" after them for the node channels, which
 * are listed after the links).  Returns NULL with a sentence in err.
 */
pktnet *pktnet_new(const pktnet_topo *topo, const pktnet_params *p,
		   uint32_t nlinks, uint32_t nclasses,
		   const char *const *class_names, const netm_host *host,
		   char *err, size_t errlen);
void pktnet_free(pktnet *net);

/* Describe link id: from router `from' to router `to', class `cls',
 * bandwidth bytes/s (> 0), latency (>= 0). */
void pktnet_link_set(pktnet *net, uint32_t id, uint32_t from, uint32_t to,
		     uint32_t cls, int64_t bw, sib_ps latency);

/* Earliest time link id is free to start a packet (for adaptive routing:
 * the least loaded candidate is the one that frees first). */
sib_ps pktnet_link_free(const pktnet *net, uint32_t id);

/* The netm_ops entry points, to which a topology's own functions forward
 * (m is the model's netm_model; the topology keeps its pktnet). */
void pktnet_send(pktnet *net, const netm_msg *msg);
void pktnet_event(pktnet *net, sib_ps now, void *arg);
void pktnet_totals(const pktnet *net, netm_totals *tot);
uint32_t pktnet_nlinks(const pktnet *net);    /* links + node channels */
uint32_t pktnet_nclasses(const pktnet *net);  /* nclasses + 2 */
const char *pktnet_class_name(const pktnet *net, uint32_t cls);
void pktnet_link(const pktnet *net, uint32_t id, netm_link_info *out);

/* Check p (each model builds it from its own parameters); on a bad
 * value fail with a sentence that names the key as the user writes it
 * (net.packet_size, net.inject_bandwidth, ...). */
int pktnet_params_check(const pktnet_params *p, char *err, size_t errlen);

/* ------------------------------------ helpers for topology models */

/*
 * The shared keys, as every packet model's parameter list names them,
 * consecutively and in this order, with the indices P_PACKET_SIZE ..
 * P_BUFFER: packet_size, header, router_latency, inject_latency,
 * inject_channels, inject_bandwidth, eject_channels, eject_bandwidth,
 * eject_latency, buffer_packets.  A model's X-macro list (sib_param.h)
 * ends with PKTNET_PARAMS(X, ...), giving its own defaults (as text in
 * each key's syntax) in that order.
 */
#define PKTNET_PARAMS(X, packet_size, header, router_latency, inject_latency, \
		      inject_channels, inject_bandwidth, eject_channels, \
		      eject_bandwidth, eject_latency, buffer_packets) \
	X(P_PACKET_SIZE, "packet_size", SIB_P_SIZE, packet_size, NULL, \
	  "Payload bytes per packet.") \
	X(P_HEADER, "header", SIB_P_SIZE, header, NULL, \
	  "Header bytes every packet carries on top of its payload, on " \
	  "every channel and link.") \
	X(P_ROUTER_LAT, "router_latency", SIB_P_TIME, router_latency, NULL, \
	  "Time a router (switch) takes to pass a packet on; every " \
	  "router of the route counts, the source's and the " \
	  "destination's included.") \
	X(P_INJECT_LAT, "inject_latency", SIB_P_TIME, inject_latency, NULL, \
	  "Once per message, before its first packet may enter an " \
	  "injection channel (network interface start-up).") \
	X(P_INJECT_CH, "inject_channels", SIB_P_INT, \
	  inject_channels, "1..1024", \
	  "Injection channels (node to router) per node, serving its " \
	  "messages round robin.") \
	X(P_INJECT_BW, "inject_bandwidth", SIB_P_BW, inject_bandwidth, NULL, \
	  "Bandwidth of each injection channel.") \
	X(P_EJECT_CH, "eject_channels", SIB_P_INT, eject_channels, "1..1024", \
	  "Ejection channels (router to node) per node.") \
	X(P_EJECT_BW, "eject_bandwidth", SIB_P_BW, eject_bandwidth, NULL, \
	  "Bandwidth of each ejection channel.") \
	X(P_EJECT_LAT, "eject_latency", SIB_P_TIME, eject_latency, NULL, \
	  "Added once per message after its last packet has been " \
	  "ejected.") \
	X(P_BUFFER, "buffer_packets", SIB_P_INT, buffer_packets, "0..1000000", \
	  "Packets each router input buffer holds per virtual channel, " \
	  "with credit flow control; 0: unbounded.")

/*
 * v points at the value of packet_size (the first of the keys above);
 * fills *p (with seed) and checks it as pktnet_params_check does.
 */
int pktnet_params_from(const sib_value *v, uint64_t seed, pktnet_params *p,
		       char *err, size_t errlen);

/*
 * A model instance that starts with this header (its netm_model, then
 * its engine) may use the pktnet_model_* functions below as its netm_ops
 * entries: they forward to the engine.
 */
typedef struct pktnet_model {
	netm_model base;
	pktnet *net;
} pktnet_model;

void pktnet_model_send(netm_model *m, const netm_msg *msg);
void pktnet_model_event(netm_model *m, sib_ps now, void *arg);
void pktnet_model_totals(const netm_model *m, netm_totals *tot);
uint32_t pktnet_model_nlinks(const netm_model *m);
uint32_t pktnet_model_nclasses(const netm_model *m);
const char *pktnet_model_class_name(const netm_model *m, uint32_t cls);
void pktnet_model_link(const netm_model *m, uint32_t id,
		       netm_link_info *out);

#endif /* SIBYL_PKTNET_H */
