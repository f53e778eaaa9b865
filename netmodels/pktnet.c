/*
 * pktnet.c -- the packet-level network engine shared by the topology
 * models (the contract and the model of a packet are in pktnet.h).
 *
 * Events.  Every event argument is (id << 5 | kind << 2): the simulator
 * keeps the two low bits of an argument for itself, the next three say
 * what the id names.
 *
 *   EV_HOP     packet id is ready to leave router pkt->at (arrival +
 *              router latency): route it, then cross a link or eject
 *   EV_READY   message id may start injecting (departure + inject latency)
 *   EV_PUMP    the injection channels of node id may take packets
 *   EV_LINK    finite buffers: link id has freed and packets wait for it
 *   EV_CREDIT  finite buffers: a credit of buffer id comes back
 *
 * Unbounded buffers (buffer_packets = 0) cost one event per packet and
 * hop: the events of one time run in order, so booking the link at the
 * moment the packet is ready -- start = max(ready, free), free = start +
 * xfer -- serves it first come, first served exactly as a queue would.
 * With finite buffers a packet may have to wait for a credit, so packets
 * wait in a FIFO per (link, VC) and the link arbitrates when it frees or
 * a credit returns.
 *
 * Memory.  The engine is bound by memory traffic, not arithmetic: a big
 * run has millions of packets in flight and as many events in the
 * simulator's queue, and a hop touches a packet and a link that are
 * rarely still in a cache.  So everything a hop touches is small:
 *   - Packets and messages live in chunked pools addressed by 32-bit ids
 *     (ids survive pool growth, and an id fits an event argument); free
 *     ids sit on a stack apart from the elements, so that taking one
 *     does not read an element freed long ago.  A packet exists only
 *     from injection to ejection and is 32 bytes (40 with finite
 *     buffers).
 *   - A link is 32 bytes: its bandwidth, latency and full-packet time
 *     are those of its type (a network has a handful of (bandwidth,
 *     latency) pairs), and its byte and busy totals follow from its
 *     count of full packets plus the totals of its other packets, which
 *     only last packets touch.
 *   - A message is 16 bytes where the ejection of each of its packets
 *     looks (packets left, latest ejection), the rest in a cold part;
 *     the state of its injection lives in its node's ring of ready
 *     messages, which the round robin walks in sequence.
 * None of this changes a result: the events scheduled, their times and
 * their order are those of the plainest implementation.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktnet.h"

#define PK_TIME_MAX INT64_MAX
#define PK_NONE UINT32_MAX

/* Broken promises of a topology (a link that does not start where the
 * packet is, an undescribed link) or of the simulator stop the run. */
#define PK_CHECK(c, fmt, ...) do { if (__builtin_expect(!(c), 0)) { \
	fprintf(stderr, "netmodels/pktnet: internal error at %s:%d: %s (" \
		fmt ")\n", __FILE__, __LINE__, #c, __VA_ARGS__); \
	abort(); } } while (0)

enum { EV_HOP, EV_READY, EV_PUMP, EV_LINK, EV_CREDIT };
#define EV_KIND_BITS 3
#define EV_ID_MAX ((uint64_t)(UINTPTR_MAX >> (EV_KIND_BITS + 2)))

/* Largest payload or header: a packet's wire size must fit 32 bits. */
#define PK_PART_MAX (UINT64_C(1) << 30)
#define PK_CHANNELS_MAX 1024
#define PK_BUFFER_MAX 1000000

/* ------------------------------------------------------------ pools */

#define PK_CHUNK_BITS 14
#define PK_CHUNK ((uint32_t)1 << PK_CHUNK_BITS)
#define PK_CHUNK_MASK (PK_CHUNK - 1)

#define PK_LINE 64

typedef struct pk_pool {
	char **chunk;
	uint32_t nchunks;
	uint32_t fresh;      /* first id never handed out */
	uint32_t nfree;      /* ids in the free stack */
	uint32_t *stack;     /* free ids, the latest freed on top: a stack
	                        apart from the elements, so that taking
	                        one does not read an element freed long
	                        ago (room for every id of every chunk) */
	size_t size;         /* bytes per element */
	size_t cold;         /* bytes of its cold part: each chunk holds
	                        its elements, then their cold parts */
	const char *what;    /* for the out-of-memory message */
} pk_pool;

static inline void *pool_at(const pk_pool *pl, uint32_t id)
{
	return pl->chunk[id >> PK_CHUNK_BITS] +
	       (size_t)(id & PK_CHUNK_MASK) * pl->size;
}

static inline void *pool_cold(const pk_pool *pl, uint32_t id)
{
	return pl->chunk[id >> PK_CHUNK_BITS] + PK_CHUNK * pl->size +
	       (size_t)(id & PK_CHUNK_MASK) * pl->cold;
}

/* Element sizes are multiples of 8 and chunks start on a cache line, so
 * a 32- or 64-byte element never straddles two lines. */
static void *alloc_lines(size_t size)
{
	return aligned_alloc(PK_LINE, (size + PK_LINE - 1) / PK_LINE *
			     PK_LINE);
}

static uint32_t pool_get(pk_pool *pl)
{
	if (pl->nfree)
		return pl->stack[--pl->nfree];
	if (pl->fresh == (uint64_t)pl->nchunks << PK_CHUNK_BITS) {
		char **c = NULL, *blk = NULL;
		uint32_t *st = NULL;
		if (pl->nchunks < (PK_NONE >> PK_CHUNK_BITS))
			c = realloc(pl->chunk, (pl->nchunks + 1) * sizeof *c);
		if (c) {
			pl->chunk = c;
			st = realloc(pl->stack, ((size_t)pl->nchunks + 1) *
				     PK_CHUNK * sizeof *st);
		}
		if (st) {
			pl->stack = st;
			blk = alloc_lines(PK_CHUNK * (pl->size + pl->cold));
		}
		if (!blk) {
			fprintf(stderr, "netmodels/pktnet: out of memory with "
				"%llu %s in flight (%zu bytes each); use fewer "
				"or larger packets (net.packet_size) or finite "
				"buffers (net.buffer_packets)\n",
				(unsigned long long)pl->fresh, pl->what,
				pl->size + pl->cold);
			abort();
		}
		pl->chunk[pl->nchunks++] = blk;
	}
	return pl->fresh++;
}

static inline void pool_put(pk_pool *pl, uint32_t id)
{
	pl->stack[pl->nfree++] = id;
}

static void pool_free(pk_pool *pl)
{
	for (uint32_t i = 0; i < pl->nchunks; i++)
		free(pl->chunk[i]);
	free(pl->chunk);
	free(pl->stack);
}

/* ------------------------------------------------------------ state */

/* The last packet of a message (whose size is the message's `last')
 * has this bit set in its msg; every other packet is full. */
#define PK_LAST 0x80000000u
#define PK_MSG_MAX (PK_LAST - 1)

typedef struct pk_pkt {
	pktnet_route rt;
	uint32_t msg;        /* its message, | PK_LAST on the last packet */
	uint32_t at;         /* the router it is at or flies to */
} pk_pkt;

/* A packet with finite buffers. */
typedef struct pk_fpkt {
	pk_pkt k;
	uint32_t buf;        /* the buffer it occupies */
	uint32_t next;       /* next in its VC queue */
} pk_fpkt;

/* A message, as the ejection of each of its packets sees it: 16 bytes,
 * as many messages are in flight and each is touched once per packet.
 * What only its last packet needs is in its cold part. */
typedef struct pk_msg {
	uint64_t left;       /* packets not yet ejected */
	sib_ps ej_end;    /* latest end of an ejection */
} pk_msg;

typedef struct pk_msg_cold {
	uint64_t token;
	uint32_t last;       /* wire bytes of its last packet */
	uint32_t unused;
} pk_msg_cold;

/* A message that has packets to inject, as its node's injection sees it.
 * The ready messages of a node sit in a ring of these in round-robin
 * order, so that serving them one packet at a time walks memory in
 * sequence instead of visiting a message anywhere in the pool. */
typedef struct pk_send {
	uint64_t tomake;     /* packets not created yet */
	uint64_t h;          /* mix64(seed ^ mix64(message number)) + the
	                        index of its next packet: that packet's
	                        pktnet_route.rnd is mix64(h) */
	sib_ps rdy;       /* when its next packet is ready: departure +
	                        inject latency, then the end of the
	                        injection of its previous packet */
	uint32_t mid;        /* its pk_msg */
	uint32_t dst;
} pk_send;

/* A message waiting for its inject latency to pass. */
typedef struct pk_wait {
	pk_send s;
	uint32_t src;
} pk_wait;

/* A link, or an injection or ejection channel (listed after the links):
 * half a cache line, what a hop touches.  Its bandwidth and latency are
 * those of its type, shared by every link with the same pair (a network
 * has a handful).  Its statistics follow from the count of full packets
 * it carried and the totals of the others, which only last packets
 * touch: bytes = nfull * (wire bytes of a full packet) + part.bytes,
 * busy = nfull * xfull + part.busy (saturated). */
typedef struct pk_link {
	sib_ps free;      /* when it may start the next packet */
	uint64_t nfull;      /* full packets carried */
	uint32_t from, to;   /* routers; a channel: its node for both */
	uint32_t type;       /* its pk_ltype */
	uint32_t cls;        /* its class (a link, not a channel) */
} pk_link;

typedef struct pk_ltype {
	int64_t bw;
	sib_ps lat;
	sib_ps xfull;     /* time of a full packet */
} pk_ltype;

/* The packets of a link that were not full (last packets). */
typedef struct pk_lpart {
	uint64_t bytes, packets;
	sib_ps busy;
} pk_lpart;

_Static_assert(sizeof(pk_pkt) == 32 && sizeof(pk_send) == 32 &&
	       sizeof(pk_msg) == 16 && sizeof(pk_link) == 32,
	       "a packet and a link are 32 bytes, a message 16");

typedef struct pk_node {
	pk_send *ring;       /* its ready messages, round robin from head */
	uint32_t mask;       /* ring capacity - 1 (a power of 2 - 1) */
	uint32_t head, n;
	sib_ps pump_at;   /* an EV_PUMP is due then (-1: none) */
} pk_node;

struct pktnet {
	pktnet_topo topo;
	pktnet_params p;
	netm_host host;
	uint32_t nlinks, nclasses, nnodes, nvcs;
	uint32_t nset;           /* links described so far */
	uint32_t inj0, ej0;      /* first injection / ejection channel */
	uint32_t full;           /* wire bytes of a full packet */
	const char *const *class_names;
	pk_link *link;           /* links, then injection, then ejection */
	pk_lpart *part;          /* per link or channel */
	pk_ltype *type;          /* the distinct (bandwidth, latency) */
	uint32_t ntypes, tcap;
	uint32_t *thash;         /* open addressing: type + 1, 0 = empty;
	                            2 * tcap slots */
	sib_ps *chfree;       /* free times of the channels, densely, so
	                            that choosing a channel reads a few
	                            cache lines, not one per channel */
	pk_node *node;
	/* Messages waiting for their inject latency, in the order of
	 * their EV_READY events: every message waits the same latency
	 * and pktnet_send() is called in departure order, so the events
	 * come due in the order the messages were sent. */
	pk_wait *wait;
	size_t wmask, whead, wn;
	pk_pool pkts, msgs;
	uint64_t nmsg;           /* messages sent so far */
	sib_ps now;           /* time of the latest call */
	netm_totals tot;
	/* Finite buffers (buffer_packets > 0), NULL otherwise.  Buffer ids:
	 * link l, VC v is l * nvcs + v; injection channel c (counted from
	 * inj0) is nlinks * nvcs + c. */
	uint32_t *qhead, *qtail; /* per (link, VC): waiting packets */
	uint32_t *credit;        /* per buffer */
	uint32_t *nwait;         /* per link: packets waiting for it */
	uint16_t *rr;            /* per link: VC to try first */
	uint8_t *wake;           /* per link: an EV_LINK is due */
	uint64_t nqueued;        /* packets waiting in VC queues */
	__int128 qacc;           /* sum over them of -(ready time), plus
	                            the waits of the ones that left */
};

/* ------------------------------------------------------ arithmetic */

static inline sib_ps tadd(sib_ps a, sib_ps b)
{
	/* b >= 0 everywhere: every latency and transfer time is. */
	return a > PK_TIME_MAX - b ? PK_TIME_MAX : a + b;
}

/* netm_xfer_time, saturating where it would not fit a sib_ps. */
static sib_ps xfer_sat(uint64_t bytes, int64_t bw)
{
	unsigned __int128 n = (unsigned __int128)bytes * SIB_PS_PER_S;
	unsigned __int128 x = (n + (uint64_t)bw - 1) / (uint64_t)bw;
	return x > (unsigned __int128)PK_TIME_MAX ? PK_TIME_MAX : (sib_ps)x;
}

/* splitmix64's output function. */
static inline uint64_t mix64(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* ----------------------------------------------------------- events */

static inline void schedule(pktnet *net, sib_ps t, unsigned kind,
			    uint64_t id)
{
	PK_CHECK(id <= EV_ID_MAX, "id %llu", (unsigned long long)id);
	uintptr_t a = (uintptr_t)((id << EV_KIND_BITS | kind) << 2);
	net->host.schedule(net->host.ctx, t, (void *)a);
}

/* Transmit `bytes' on link or channel id from `start': its statistics
 * and the host's series.  Returns the end of the transmission. */
static inline sib_ps transmit(pktnet *net, uint32_t id, sib_ps start,
				 uint32_t bytes)
{
	pk_link *k = &net->link[id];
	sib_ps x;
	if (bytes == net->full) {
		x = net->type[k->type].xfull;
		k->nfull++;
	} else {
		pk_lpart *q = &net->part[id];
		x = xfer_sat(bytes, net->type[k->type].bw);
		q->bytes += bytes;
		q->packets++;
		q->busy = tadd(q->busy, x);
	}
	sib_ps end = tadd(start, x);
	k->free = end;
	net->tot.events++;
	if (net->host.link_busy)
		net->host.link_busy(net->host.ctx, id, start, end, bytes);
	return end;
}

/* Packet id, which has started on link or channel c and will be done at
 * end, reaches the router at the far end after the link's latency and
 * is ready to leave it a router latency later: EV_HOP then. */
static inline void fly(pktnet *net, uint32_t c, uint32_t id, pk_pkt *p,
		       sib_ps end)
{
	const pk_link *k = &net->link[c];
	p->at = k->to;
	schedule(net, tadd(tadd(end, net->type[k->type].lat),
			   net->p.router_latency), EV_HOP, id);
}

static inline void add_wait(pktnet *net, sib_ps wait)
{
	net->tot.queue_time = tadd(net->tot.queue_time, wait);
}

static inline pk_pkt *pkt_at(const pktnet *net, uint32_t id)
{
	return pool_at(&net->pkts, id);
}

static inline pk_fpkt *fpkt_at(const pktnet *net, uint32_t id)
{
	return pool_at(&net->pkts, id);
}

static inline pk_msg *msg_at(const pktnet *net, uint32_t mid)
{
	return pool_at(&net->msgs, mid);
}

static inline pk_msg_cold *msg_cold(const pktnet *net, uint32_t mid)
{
	return pool_cold(&net->msgs, mid);
}

/* Wire bytes of packet p. */
static inline uint32_t pkt_bytes(const pktnet *net, const pk_pkt *p)
{
	return p->msg & PK_LAST ? msg_cold(net, p->msg & ~PK_LAST)->last :
				  net->full;
}

/* A packet leaves buffer `buf' at t: its credit returns to the sender
 * side after the latency of the link into that buffer. */
static void release(pktnet *net, uint32_t buf, sib_ps t)
{
	uint32_t nb = net->nlinks * net->nvcs;
	sib_ps back = buf < nb ?
		tadd(t, net->type[net->link[buf / net->nvcs].type].lat) : t;
	schedule(net, back, EV_CREDIT, buf);
}

/* --------------------------------------------------------- ejection */

static void eject(pktnet *net, uint32_t id, pk_pkt *p, uint32_t at,
		  sib_ps now)
{
	PK_CHECK(at == p->rt.dst_node, "next() said eject at router %u, "
		 "but the packet goes to node %u", (unsigned)at,
		 (unsigned)p->rt.dst_node);
	uint32_t c0 = net->ej0 + at * net->p.eject_channels, c = c0;
	const sib_ps *fr = net->chfree - net->inj0;
	for (uint32_t i = 1; i < net->p.eject_channels; i++)
		if (fr[c0 + i] < fr[c])
			c = c0 + i;
	sib_ps start = fr[c] > now ? fr[c] : now;
	sib_ps end = transmit(net, c, start, pkt_bytes(net, p));
	net->chfree[c - net->inj0] = end;
	add_wait(net, start - now);
	if (net->credit)
		release(net, fpkt_at(net, id)->buf, start);

	uint32_t mid = p->msg & ~PK_LAST;
	pool_put(&net->pkts, id);
	pk_msg *m = msg_at(net, mid);
	if (end > m->ej_end)
		m->ej_end = end;
	if (--m->left == 0) {
		net->host.deliver(net->host.ctx, msg_cold(net, mid)->token,
				  tadd(m->ej_end, net->p.eject_latency));
		pool_put(&net->msgs, mid);
	}
}

/* -------------------------------------------------------- injection */

static void pump(pktnet *net, uint32_t n, sib_ps now);

/* Double a ring of elements of `size' bytes holding n from head; returns
 * the new array (elements from index 0) or NULL. */
static void *ring_grow(void *ring, size_t cap, size_t head, size_t n,
		       size_t size)
{
	size_t ncap = cap ? 2 * cap : 4;
	char *v = malloc(ncap * size), *r = ring;
	if (!v)
		return NULL;
	size_t first = n < cap - head ? n : cap - head;
	if (first)
		memcpy(v, r + head * size, first * size);
	if (n > first)
		memcpy(v + first * size, r, (n - first) * size);
	free(ring);
	return v;
}

static void ring_oom(const char *what, uint64_t n)
{
	fprintf(stderr, "netmodels/pktnet: out of memory with %llu %s\n",
		(unsigned long long)n, what);
	abort();
}

/* Message s of node n becomes ready: it joins the node's round robin
 * last, and the node's channels may take a packet. */
static void msg_ready(pktnet *net, uint32_t n, const pk_send *s,
		      sib_ps now)
{
	pk_node *nd = &net->node[n];
	if (!nd->ring || nd->n > nd->mask) {
		size_t cap = nd->ring ? (size_t)nd->mask + 1 : 0;
		PK_CHECK(cap <= PK_MSG_MAX, "%zu ready messages", cap);
		nd->ring = ring_grow(nd->ring, cap, nd->head, nd->n,
				     sizeof *nd->ring);
		if (!nd->ring)
			ring_oom("ready messages on one node", nd->n);
		nd->mask = (uint32_t)(cap ? 2 * cap - 1 : 3);
		nd->head = 0;
	}
	nd->ring[(nd->head + nd->n) & nd->mask] = *s;
	nd->n++;
	pump(net, n, now);
}

/* Create the next packet of message s, at its source router n. */
static uint32_t new_packet(pktnet *net, uint32_t n, pk_send *s)
{
	uint32_t id = pool_get(&net->pkts);
	pk_pkt *p = pkt_at(net, id);
	p->rt = (pktnet_route){
		.src_node = n, .dst_node = s->dst, .rnd = mix64(s->h++),
	};
	p->msg = --s->tomake ? s->mid : s->mid | PK_LAST;
	p->at = n;
	if (net->topo.begin)
		net->topo.begin(net->topo.ctx, &p->rt);
	return id;
}

/*
 * Feed node n's injection channels from its ready messages, round robin,
 * one packet per turn, while a channel is free now (with finite buffers:
 * free and holding a credit).  Otherwise come back when one frees; a
 * returning credit calls again.
 */
static void pump(pktnet *net, uint32_t n, sib_ps now)
{
	pk_node *nd = &net->node[n];
	uint32_t nch = net->p.inject_channels;
	uint32_t c0 = net->inj0 + n * nch;
	uint32_t nb = net->nlinks * net->nvcs - net->inj0;
	sib_ps *fr = net->chfree - net->inj0;
	while (nd->n) {
		uint32_t c = PK_NONE;
		if (!net->credit) {
			c = c0;
			for (uint32_t i = 1; i < nch; i++)
				if (fr[c0 + i] < fr[c])
					c = c0 + i;
		} else {
			for (uint32_t i = 0; i < nch; i++) {
				if (!net->credit[nb + c0 + i])
					continue;
				if (c == PK_NONE || fr[c0 + i] < fr[c])
					c = c0 + i;
			}
			if (c == PK_NONE)
				return;
		}
		sib_ps free_at = fr[c];
		if (free_at > now) {
			if (nd->pump_at != free_at) {
				nd->pump_at = free_at;
				schedule(net, free_at, EV_PUMP, n);
			}
			return;
		}

		pk_send *s = &nd->ring[nd->head];
		uint32_t id = new_packet(net, n, s);
		pk_pkt *p = pkt_at(net, id);
		sib_ps end = transmit(net, c, now, pkt_bytes(net, p));
		fr[c] = end;
		/* A packet is ready for injection once its message is and
		 * its predecessor has been injected: waiting beyond that is
		 * waiting for other messages. */
		if (now > s->rdy)
			add_wait(net, now - s->rdy);
		s->rdy = end;
		if (net->credit) {
			net->credit[nb + c]--;
			fpkt_at(net, id)->buf = nb + c;
		}
		fly(net, c, id, p, end);

		/* Next turn: the following message; this one goes last
		 * while it has packets left. */
		if (s->tomake)
			nd->ring[(nd->head + nd->n) & nd->mask] = *s;
		else
			nd->n--;
		nd->head = (nd->head + 1) & nd->mask;
	}
}

/* ------------------------------------------------- finite buffers */

/*
 * Start the next packet on link l if it is free: round robin over the
 * VCs that have a waiting packet and a credit, first come first served
 * within a VC.
 */
static void try_link(pktnet *net, uint32_t l, sib_ps now)
{
	pk_link *k = &net->link[l];
	if (!net->nwait[l])
		return;
	if (k->free > now) {
		if (!net->wake[l]) {
			net->wake[l] = 1;
			schedule(net, k->free, EV_LINK, l);
		}
		return;
	}
	uint32_t nv = net->nvcs, q = PK_NONE;
	for (uint32_t i = 0; i < nv; i++) {
		uint32_t v = (net->rr[l] + i) % nv;
		if (net->qhead[l * nv + v] != PK_NONE &&
		    net->credit[l * nv + v]) {
			q = l * nv + v;
			net->rr[l] = (uint16_t)((v + 1) % nv);
			break;
		}
	}
	if (q == PK_NONE)
		return;                 /* a returning credit calls again */

	uint32_t id = net->qhead[q];
	pk_fpkt *f = fpkt_at(net, id);
	net->qhead[q] = f->next;
	if (f->next == PK_NONE)
		net->qtail[q] = PK_NONE;
	net->nwait[l]--;
	net->nqueued--;
	net->qacc += now;
	net->credit[q]--;

	sib_ps end = transmit(net, l, now, pkt_bytes(net, &f->k));
	release(net, f->buf, now);
	f->buf = q;
	fly(net, l, id, &f->k, end);
	if (net->nwait[l]) {
		net->wake[l] = 1;
		schedule(net, end, EV_LINK, l);
	}
}

static void enqueue(pktnet *net, uint32_t id, pk_pkt *p, uint32_t l,
		    sib_ps now)
{
	PK_CHECK(p->rt.vc < net->nvcs, "next() chose VC %u of %u",
		 (unsigned)p->rt.vc, (unsigned)net->nvcs);
	uint32_t q = l * net->nvcs + p->rt.vc;
	fpkt_at(net, id)->next = PK_NONE;
	if (net->qtail[q] == PK_NONE)
		net->qhead[q] = id;
	else
		fpkt_at(net, net->qtail[q])->next = id;
	net->qtail[q] = id;
	net->nwait[l]++;
	net->nqueued++;
	net->qacc -= now;
	try_link(net, l, now);
}

/* -------------------------------------------------------------- hop */

/* Packet id is ready to leave the router it has reached. */
static void hop(pktnet *net, uint32_t id, sib_ps now)
{
	pk_pkt *p = pkt_at(net, id);
	uint32_t at = p->at;
	uint32_t l = net->topo.next(net->topo.ctx, net, at, &p->rt);
	if (l == PKTNET_EJECT) {
		eject(net, id, p, at, now);
		return;
	}
	PK_CHECK(l < net->nlinks && net->link[l].from == at,
		 "next() at router %u chose link %u (of %u) from router %u",
		 (unsigned)at, (unsigned)l, (unsigned)net->nlinks,
		 l < net->nlinks ? (unsigned)net->link[l].from : 0u);
	PK_CHECK(p->rt.hops < UINT16_MAX, "packet from %u to %u crossed %u "
		 "links: the routing loops", (unsigned)p->rt.src_node,
		 (unsigned)p->rt.dst_node, (unsigned)p->rt.hops);
	p->rt.hops++;
	net->tot.hops++;
	if (net->credit) {
		enqueue(net, id, p, l, now);
		return;
	}
	pk_link *k = &net->link[l];
	sib_ps start = k->free > now ? k->free : now;
	sib_ps end = transmit(net, l, start, pkt_bytes(net, p));
	add_wait(net, start - now);
	fly(net, l, id, p, end);
}

/* ------------------------------------------------------------- API */

int pktnet_params_check(const pktnet_params *p, char *err, size_t errlen)
{
	if (!p)
		return sib_errf(err, errlen, "no packet network parameters");
	if (p->packet_size < 1 || p->packet_size > PK_PART_MAX)
		return sib_errf(err, errlen, "net.packet_size must be from 1 "
			    "byte to 1GiB (got %llu)",
			    (unsigned long long)p->packet_size);
	if (p->header > PK_PART_MAX)
		return sib_errf(err, errlen, "net.header must be at most 1GiB "
			    "(got %llu)", (unsigned long long)p->header);
	static const struct { const char *key; size_t off; } times[] = {
		{ "router_latency", offsetof(pktnet_params, router_latency) },
		{ "inject_latency", offsetof(pktnet_params, inject_latency) },
		{ "eject_latency", offsetof(pktnet_params, eject_latency) },
	};
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		sib_ps t;
		memcpy(&t, (const char *)p + times[i].off, sizeof t);
		if (t < 0)
			return sib_errf(err, errlen, "net.%s must not be "
				    "negative (got %lld ps)", times[i].key,
				    (long long)t);
	}
	if (p->inject_channels < 1 || p->inject_channels > PK_CHANNELS_MAX)
		return sib_errf(err, errlen, "net.inject_channels must be from "
			    "1 to %d (got %u)", PK_CHANNELS_MAX,
			    (unsigned)p->inject_channels);
	if (p->eject_channels < 1 || p->eject_channels > PK_CHANNELS_MAX)
		return sib_errf(err, errlen, "net.eject_channels must be from "
			    "1 to %d (got %u)", PK_CHANNELS_MAX,
			    (unsigned)p->eject_channels);
	if (p->inject_bw <= 0)
		return sib_errf(err, errlen, "net.inject_bandwidth must be "
			    "greater than 0 bytes/s, e.g. 2GB/s (got %lld)",
			    (long long)p->inject_bw);
	if (p->eject_bw <= 0)
		return sib_errf(err, errlen, "net.eject_bandwidth must be "
			    "greater than 0 bytes/s, e.g. 2GB/s (got %lld)",
			    (long long)p->eject_bw);
	if (p->buffer_packets > PK_BUFFER_MAX)
		return sib_errf(err, errlen, "net.buffer_packets must be from "
			    "0 (unbounded) to %d (got %u)", PK_BUFFER_MAX,
			    (unsigned)p->buffer_packets);
	return 0;
}

static uint64_t ltype_hash(int64_t bw, sib_ps lat)
{
	return mix64((uint64_t)bw ^ mix64((uint64_t)lat));
}

/* The type of the links of bandwidth bw and latency lat, made if new;
 * PK_NONE when out of memory. */
static uint32_t ltype_of(pktnet *net, int64_t bw, sib_ps lat)
{
	if (net->ntypes == net->tcap) {
		uint32_t cap = net->tcap ? 2 * net->tcap : 8;
		pk_ltype *t = realloc(net->type, cap * sizeof *t);
		if (!t)
			return PK_NONE;
		net->type = t;
		uint32_t *h = calloc(2 * (size_t)cap, sizeof *h);
		if (!h)
			return PK_NONE;
		for (uint32_t i = 0; i < net->ntypes; i++) {
			size_t j = ltype_hash(t[i].bw, t[i].lat) & (2 * cap - 1);
			while (h[j])
				j = (j + 1) & (2 * cap - 1);
			h[j] = i + 1;
		}
		free(net->thash);
		net->thash = h;
		net->tcap = cap;
	}
	size_t mask = 2 * (size_t)net->tcap - 1;
	size_t j = ltype_hash(bw, lat) & mask;
	for (; net->thash[j]; j = (j + 1) & mask) {
		const pk_ltype *t = &net->type[net->thash[j] - 1];
		if (t->bw == bw && t->lat == lat)
			return net->thash[j] - 1;
	}
	net->type[net->ntypes] = (pk_ltype){
		.bw = bw, .lat = lat, .xfull = xfer_sat(net->full, bw),
	};
	net->thash[j] = ++net->ntypes;
	return net->ntypes - 1;
}

static void *calloc_n(uint64_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	return calloc(n ? (size_t)n : 1, size);
}

pktnet *pktnet_new(const pktnet_topo *topo, const pktnet_params *p,
		   uint32_t nlinks, uint32_t nclasses,
		   const char *const *class_names, const netm_host *host,
		   char *err, size_t errlen)
{
	if (pktnet_params_check(p, err, errlen))
		return NULL;
	if (!topo || !topo->next || topo->nrouters < 1 || topo->nvcs < 1 ||
	    topo->nvcs > UINT16_MAX || topo->nnodes > topo->nrouters ||
	    !host || !host->schedule || !host->deliver ||
	    (nclasses && !class_names)) {
		sib_errf(err, errlen, "the packet network needs a topology "
		     "with a next() function, 1 to %u VCs and at least one "
		     "router, class names, and a host that schedules and "
		     "delivers", (unsigned)UINT16_MAX);
		return NULL;
	}
	uint32_t nnodes = topo->nnodes ? topo->nnodes : topo->nrouters;
	uint64_t nch = (uint64_t)nnodes * (p->inject_channels +
					   p->eject_channels);
	uint64_t nb = (uint64_t)nlinks * topo->nvcs;
	if ((uint64_t)nlinks + nch >= PK_NONE ||
	    nb + nnodes * (uint64_t)p->inject_channels >= PK_NONE) {
		sib_errf(err, errlen, "the network is too large: %u links, "
		     "%u nodes with %u injection and %u ejection channels and "
		     "%u VCs make more than 2^32 links or buffers",
		     (unsigned)nlinks, (unsigned)nnodes,
		     (unsigned)p->inject_channels, (unsigned)p->eject_channels,
		     (unsigned)topo->nvcs);
		return NULL;
	}

	pktnet *net = calloc(1, sizeof *net);
	if (!net)
		goto out_of_memory;
	net->topo = *topo;
	net->topo.nnodes = nnodes;
	net->p = *p;
	net->host = *host;
	net->nlinks = nlinks;
	net->nclasses = nclasses;
	net->class_names = class_names;
	net->nnodes = nnodes;
	net->nvcs = topo->nvcs;
	net->inj0 = nlinks;
	net->ej0 = nlinks + nnodes * p->inject_channels;
	net->full = (uint32_t)(p->packet_size + p->header);
	net->pkts = (pk_pool){ .what = "packets",
			       .size = p->buffer_packets ? sizeof(pk_fpkt) :
							   sizeof(pk_pkt) };
	net->msgs = (pk_pool){ .size = sizeof(pk_msg),
			       .cold = sizeof(pk_msg_cold),
			       .what = "messages" };

	uint64_t nall = nlinks + nch;
	if (nall <= SIZE_MAX / sizeof *net->link) {
		net->link = alloc_lines(nall * sizeof *net->link);
		if (net->link)
			memset(net->link, 0, nall * sizeof *net->link);
	}
	net->part = calloc_n(nall, sizeof *net->part);
	net->chfree = calloc_n(nch, sizeof *net->chfree);
	net->node = calloc_n(nnodes, sizeof *net->node);
	if (!net->link || !net->part || !net->chfree || !net->node)
		goto out_with_net;
	uint32_t tinj = ltype_of(net, p->inject_bw, 0);
	uint32_t tej = ltype_of(net, p->eject_bw, 0);
	if (tinj == PK_NONE || tej == PK_NONE)
		goto out_with_net;
	for (uint32_t i = 0; i < nlinks; i++)
		net->link[i].from = PK_NONE;
	for (uint32_t n = 0; n < nnodes; n++) {
		net->node[n] = (pk_node){ .pump_at = -1 };
		for (uint32_t c = 0; c < p->inject_channels; c++)
			net->link[net->inj0 + n * p->inject_channels + c] =
				(pk_link){ .from = n, .to = n, .type = tinj };
		for (uint32_t c = 0; c < p->eject_channels; c++)
			net->link[net->ej0 + n * p->eject_channels + c] =
				(pk_link){ .from = n, .to = n, .type = tej };
	}

	if (p->buffer_packets) {
		uint64_t nbuf = nb + (uint64_t)nnodes * p->inject_channels;
		net->qhead = malloc(nb ? nb * sizeof *net->qhead : 1);
		net->qtail = malloc(nb ? nb * sizeof *net->qtail : 1);
		net->credit = malloc(nbuf * sizeof *net->credit);
		net->nwait = calloc_n(nlinks, sizeof *net->nwait);
		net->rr = calloc_n(nlinks, sizeof *net->rr);
		net->wake = calloc_n(nlinks, sizeof *net->wake);
		if (!net->qhead || !net->qtail || !net->credit ||
		    !net->nwait || !net->rr || !net->wake)
			goto out_with_net;
		for (uint64_t i = 0; i < nb; i++)
			net->qhead[i] = net->qtail[i] = PK_NONE;
		for (uint64_t i = 0; i < nbuf; i++)
			net->credit[i] = p->buffer_packets;
	}
	return net;

out_with_net:
	pktnet_free(net);
out_of_memory:
	sib_errf(err, errlen, "out of memory for a packet network of %u "
	     "links and %u nodes", (unsigned)nlinks, (unsigned)nnodes);
	return NULL;
}

void pktnet_free(pktnet *net)
{
	if (!net)
		return;
	pool_free(&net->pkts);
	pool_free(&net->msgs);
	free(net->link);
	free(net->part);
	free(net->type);
	free(net->thash);
	free(net->chfree);
	for (uint32_t n = 0; net->node && n < net->nnodes; n++)
		free(net->node[n].ring);
	free(net->node);
	free(net->wait);
	free(net->qhead);
	free(net->qtail);
	free(net->credit);
	free(net->nwait);
	free(net->rr);
	free(net->wake);
	free(net);
}

void pktnet_link_set(pktnet *net, uint32_t id, uint32_t from, uint32_t to,
		     uint32_t cls, int64_t bw, sib_ps latency)
{
	PK_CHECK(id < net->nlinks && from < net->topo.nrouters &&
		 to < net->topo.nrouters && cls < net->nclasses && bw > 0 &&
		 latency >= 0, "link %u of %u: %u -> %u, class %u, %lld B/s, "
		 "%lld ps", (unsigned)id, (unsigned)net->nlinks,
		 (unsigned)from, (unsigned)to, (unsigned)cls, (long long)bw,
		 (long long)latency);
	pk_link *k = &net->link[id];
	uint32_t type = ltype_of(net, bw, latency);
	if (type == PK_NONE) {
		fprintf(stderr, "netmodels/pktnet: out of memory with %u "
			"kinds of links\n", (unsigned)net->ntypes);
		abort();
	}
	if (k->from == PK_NONE)
		net->nset++;
	k->from = from;
	k->to = to;
	k->cls = cls;
	k->type = type;
}

sib_ps pktnet_link_free(const pktnet *net, uint32_t id)
{
	return net->link[id].free;
}

void pktnet_send(pktnet *net, const netm_msg *msg)
{
	PK_CHECK(net->nset == net->nlinks, "%u of %u links described",
		 (unsigned)net->nset, (unsigned)net->nlinks);
	PK_CHECK(msg->src_node < net->nnodes && msg->dst_node < net->nnodes,
		 "message from node %u to node %u, %u nodes",
		 (unsigned)msg->src_node, (unsigned)msg->dst_node,
		 (unsigned)net->nnodes);
	uint32_t mid = pool_get(&net->msgs);
	PK_CHECK(mid <= PK_MSG_MAX, "%u messages in flight", (unsigned)mid);
	pk_msg *m = msg_at(net, mid);
	uint64_t ps = net->p.packet_size;
	uint64_t npk = msg->bytes ? (msg->bytes - 1) / ps + 1 : 1;
	sib_ps ready = tadd(msg->depart, net->p.inject_latency);
	pk_msg_cold *mc = msg_cold(net, mid);
	m->left = npk;
	m->ej_end = ready;
	mc->token = msg->token;
	mc->last = (uint32_t)(msg->bytes - (npk - 1) * ps + net->p.header);
	pk_send s = {
		.tomake = npk,
		.h = mix64(net->p.seed ^ mix64(net->nmsg++)),
		.rdy = ready, .mid = mid, .dst = msg->dst_node,
	};
	net->now = msg->depart;
	net->tot.messages++;
	net->tot.bytes += msg->bytes;
	net->tot.packets += npk;
	if (ready == msg->depart) {
		msg_ready(net, msg->src_node, &s, msg->depart);
		return;
	}
	if (net->wn > net->wmask || !net->wait) {
		size_t cap = net->wait ? net->wmask + 1 : 0;
		net->wait = ring_grow(net->wait, cap, net->whead, net->wn,
				      sizeof *net->wait);
		if (!net->wait)
			ring_oom("messages waiting for their inject latency",
				 net->wn);
		net->wmask = cap ? 2 * cap - 1 : 3;
		net->whead = 0;
	}
	net->wait[(net->whead + net->wn++) & net->wmask] =
		(pk_wait){ .s = s, .src = msg->src_node };
	schedule(net, ready, EV_READY, mid);
}

void pktnet_event(pktnet *net, sib_ps now, void *arg)
{
	uint64_t a = (uint64_t)(uintptr_t)arg >> 2;
	uint32_t id = (uint32_t)(a >> EV_KIND_BITS);
	net->now = now;
	unsigned kind = a & ((1u << EV_KIND_BITS) - 1);
	/* A hop is counted by the transmission it makes. */
	net->tot.events += kind != EV_HOP;
	switch (kind) {
	case EV_HOP:
		hop(net, id, now);
		break;
	case EV_READY: {
		PK_CHECK(net->wn && net->wait[net->whead].s.mid == id,
			 "message %u ready, %zu waiting", (unsigned)id,
			 net->wn);
		pk_wait w = net->wait[net->whead];
		net->whead = (net->whead + 1) & net->wmask;
		net->wn--;
		msg_ready(net, w.src, &w.s, now);
		break;
	}
	case EV_PUMP:
		if (net->node[id].pump_at == now)
			net->node[id].pump_at = -1;
		pump(net, id, now);
		break;
	case EV_LINK:
		net->wake[id] = 0;
		try_link(net, id, now);
		break;
	case EV_CREDIT: {
		uint32_t nb = net->nlinks * net->nvcs;
		net->credit[id]++;
		if (id < nb)
			try_link(net, id / net->nvcs, now);
		else
			pump(net, (id - nb) / net->p.inject_channels, now);
		break;
	}
	default:
		PK_CHECK(0, "event argument %#llx", (unsigned long long)a);
	}
}

void pktnet_totals(const pktnet *net, netm_totals *tot)
{
	*tot = net->tot;
	/* Packets still waiting in VC queues have waited until now. */
	__int128 w = net->qacc + (__int128)net->nqueued * net->now;
	if (w > 0)
		tot->queue_time = tadd(tot->queue_time, w > PK_TIME_MAX ?
				       PK_TIME_MAX : (sib_ps)w);
}

uint32_t pktnet_nlinks(const pktnet *net)
{
	return net->nlinks + net->nnodes * (net->p.inject_channels +
					    net->p.eject_channels);
}

uint32_t pktnet_nclasses(const pktnet *net)
{
	return net->nclasses + 2;
}

const char *pktnet_class_name(const pktnet *net, uint32_t cls)
{
	if (cls < net->nclasses)
		return net->class_names[cls];
	if (cls == net->nclasses)
		return "inject";
	if (cls == net->nclasses + 1)
		return "eject";
	return NULL;
}

static void router_name(const pktnet *net, uint32_t r, char *buf)
{
	if (net->topo.router_name)
		net->topo.router_name(net->topo.ctx, r, buf,
				      NETM_ENDPOINT_MAX);
	else
		snprintf(buf, NETM_ENDPOINT_MAX, "router %u", (unsigned)r);
}

void pktnet_link(const pktnet *net, uint32_t id, netm_link_info *out)
{
	memset(out, 0, sizeof *out);
	if (id >= pktnet_nlinks(net))
		return;
	const pk_link *k = &net->link[id];
	const pk_ltype *t = &net->type[k->type];
	const pk_lpart *q = &net->part[id];
	out->cls = id < net->inj0 ? k->cls : id < net->ej0 ?
		   net->nclasses : net->nclasses + 1;
	out->bandwidth = k->from == PK_NONE ? 0 : t->bw;
	out->bytes = k->nfull * net->full + q->bytes;
	out->packets = k->nfull + q->packets;
	unsigned __int128 busy = (unsigned __int128)k->nfull *
				 (uint64_t)t->xfull + (uint64_t)q->busy;
	out->busy = busy > PK_TIME_MAX ? PK_TIME_MAX : (sib_ps)busy;
	if (id < net->inj0) {
		router_name(net, k->from, out->src);
		router_name(net, k->to, out->dst);
	} else if (id < net->ej0) {
		snprintf(out->src, sizeof out->src, "node %u",
			 (unsigned)k->from);
		router_name(net, k->to, out->dst);
	} else {
		router_name(net, k->from, out->src);
		snprintf(out->dst, sizeof out->dst, "node %u",
			 (unsigned)k->to);
	}
}

/* ------------------------------------ helpers for topology models */

int pktnet_params_from(const sib_value *v, uint64_t seed, pktnet_params *p,
		       char *err, size_t errlen)
{
	static const char *const keys[] = {
		"packet_size", "header", "router_latency", "inject_latency",
		"inject_channels", "inject_bandwidth", "eject_channels",
		"eject_bandwidth", "eject_latency", "buffer_packets",
	};
	/* Counts and sizes must fit their fields before the range checks
	 * of pktnet_params_check can speak of them. */
	static const int narrow[] = { 0, 1, 4, 6, 9 };
	for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++) {
		int64_t x = v[narrow[i]].i;
		if (x < 0 || x > UINT32_MAX)
			return sib_errf(err, errlen, "net.%s is out of range "
				    "(got %lld)", keys[narrow[i]],
				    (long long)x);
	}
	*p = (pktnet_params){
		.packet_size = (uint64_t)v[0].i,
		.header = (uint64_t)v[1].i,
		.router_latency = v[2].i,
		.inject_latency = v[3].i,
		.inject_channels = (uint32_t)v[4].i,
		.inject_bw = v[5].i,
		.eject_channels = (uint32_t)v[6].i,
		.eject_bw = v[7].i,
		.eject_latency = v[8].i,
		.buffer_packets = (uint32_t)v[9].i,
		.seed = seed,
	};
	return pktnet_params_check(p, err, errlen);
}

static pktnet *model_net(const netm_model *m)
{
	return ((const pktnet_model *)m)->net;
}

void pktnet_model_send(netm_model *m, const netm_msg *msg)
{
	pktnet_send(model_net(m), msg);
}

void pktnet_model_event(netm_model *m, sib_ps now, void *arg)
{
	pktnet_event(model_net(m), now, arg);
}

void pktnet_model_totals(const netm_model *m, netm_totals *tot)
{
	pktnet_totals(model_net(m), tot);
}

uint32_t pktnet_model_nlinks(const netm_model *m)
{
	return pktnet_nlinks(model_net(m));
}

uint32_t pktnet_model_nclasses(const netm_model *m)
{
	return pktnet_nclasses(model_net(m));
}

const char *pktnet_model_class_name(const netm_model *m, uint32_t cls)
{
	return pktnet_class_name(model_net(m), cls);
}

void pktnet_model_link(const netm_model *m, uint32_t id, netm_link_info *out)
{
	pktnet_link(model_net(m), id, out);
}
