/*
 * percs.c -- the `percs' network model: IBM's PERCS two-level direct
 * network (thesis §3) on the packet engine of pktnet.h.
 *
 * Supernodes of drawers x nodes_per_drawer nodes (4 x 8 = 32), one Hub
 * (router) per node; LL links join every ordered pair of hubs of a
 * drawer, LR links every ordered pair of hubs of a supernode in
 * different drawers, and d_links D links every ordered pair of
 * supernodes.  Routing is direct (L-D-L, at most 3 hops) or indirect
 * (L-D-L-D-L through a random intermediate supernode, at most 5 hops).
 * The topology, the link numbering, the D-link placement, the virtual
 * channels and where every default figure comes from are in
 * netmodels/percs.md.
 *
 * Link ids are computed, not looked up: the model keeps no table whose
 * size grows with the machine (at 512 supernodes there are 770,000
 * links, all of them pktnet's).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "netmodel.h"
#include "pktnet.h"

/* Exported through the registry (registry.c); netmodel.h names no model. */
extern const netm_ops netm_percs;

#define PERCS_CHECK(c, fmt, ...) do { if (!(c)) { \
	fprintf(stderr, "netmodels/percs: internal error at %s:%d: %s (" \
		fmt ")\n", __FILE__, __LINE__, #c, __VA_ARGS__); \
	abort(); } } while (0)

/* The parameters in one X-macro list (sib_param.h), which gives the
 * table percs_params and its indices (also those of netm_setup.values). */
#define PERCS_PARAMS(X) \
	X(P_SUPERNODES, "supernodes", SIB_P_INT, "0", "0..1048576", \
	  "Supernodes of the machine; 0 = as many as its nodes need.") \
	X(P_DRAWERS, "drawers", SIB_P_INT, "4", "1..1024", \
	  "Drawers per supernode.") \
	X(P_NODES_PER_DRAWER, "nodes_per_drawer", SIB_P_INT, "8", "1..1024", \
	  "Nodes (Hubs) per drawer.") \
	X(P_D_LINKS, "d_links", SIB_P_INT, "1", "1..65536", \
	  "D links from each supernode to each other supernode.") \
	X(P_ROUTING, "routing", SIB_P_ENUM, "direct", "direct|indirect", \
	  "direct: L-D-L; indirect: L-D-L-D-L through a random " \
	  "intermediate supernode.") \
	X(P_LL_BW, "ll_bandwidth", SIB_P_BW, "24GB/s", NULL, \
	  "Bandwidth of an LL link (inside a drawer), per direction.") \
	X(P_LR_BW, "lr_bandwidth", SIB_P_BW, "5GB/s", NULL, \
	  "Bandwidth of an LR link (between drawers of a supernode), per " \
	  "direction.") \
	X(P_D_BW, "d_bandwidth", SIB_P_BW, "10GB/s", NULL, \
	  "Bandwidth of a D link (between supernodes), per direction.") \
	X(P_LL_LAT, "ll_latency", SIB_P_TIME, "5ns", NULL, \
	  "Flight time of an LL link (copper inside the drawer).") \
	X(P_LR_LAT, "lr_latency", SIB_P_TIME, "25ns", NULL, \
	  "Flight time of an LR link (optical, inside the rack).") \
	X(P_D_LAT, "d_latency", SIB_P_TIME, "100ns", NULL, \
	  "Flight time of a D link (optical, rack to rack).") \
	PKTNET_PARAMS(X, "2KiB", "0", "10ns", "500ns", "4", \
		      "24GB/s", "4", "24GB/s", "200ns", "0")

enum { PERCS_PARAMS(SIB_PARAM_ID) P_COUNT };
enum { ROUTE_DIRECT, ROUTE_INDIRECT };
enum { CLS_LL, CLS_LR, CLS_D, NCLS };

static const char *const percs_class_names[NCLS] = { "LL", "LR", "D" };

static const sib_param percs_params[] = {
	PERCS_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

#define NO_MID UINT32_MAX   /* pktnet_route.mid of a direct route */

/* Division by a divisor fixed when the model is built, by a multiply
 * instead of a divide instruction (Lemire, Kaser and Kurz, "Faster
 * remainder by direct computation", 2019): m = ceil(2^64 / d) gives
 * floor(n / d) = floor(m * n / 2^64) exactly for every 32-bit n. */
typedef struct percs_div {
	uint64_t m;
	uint32_t d;
} percs_div;

static percs_div div_by(uint32_t d)
{
	return (percs_div){ .m = d > 1 ? UINT64_MAX / d + 1 : 0, .d = d };
}

static inline uint32_t qdiv(percs_div v, uint32_t n)
{
	return v.d > 1 ? (uint32_t)(((unsigned __int128)v.m * n) >> 64) : n;
}

static inline uint32_t qmod(percs_div v, uint32_t n)
{
	return n - qdiv(v, n) * v.d;
}

typedef struct percs_model {
	pktnet_model pm;          /* first: the netm_model, then the engine */
	pktnet_topo topo;
	uint32_t sn;              /* supernodes */
	uint32_t drawers, npd;    /* drawers per supernode, nodes per drawer */
	uint32_t snsize;          /* hubs per supernode: drawers * npd */
	uint32_t dl;              /* D links per ordered supernode pair */
	uint32_t hubs;            /* sn * snsize */
	uint32_t dbase;           /* id of the first D link */
	uint32_t nlinks;
	int indirect;             /* routing = indirect and sn >= 3 */
	percs_div by_snsize, by_npd;
} percs_model;

/* ----------------------------------------------------------- topology */

/*
 * Link ids.  Each hub h owns the snsize - 1 ids from h * (snsize - 1):
 * first its npd - 1 LL links, to the other positions q of its drawer in
 * increasing order, then its LR links, drawer by drawer (its own
 * skipped), position by position.  The D links follow from dbase = hubs *
 * (snsize - 1), by source supernode s, destination t (s skipped) and
 * index i < dl.
 */
static uint32_t l_link(const percs_model *p, uint32_t from, uint32_t to)
{
	uint32_t lf = qmod(p->by_snsize, from), lt = qmod(p->by_snsize, to);
	uint32_t df = qdiv(p->by_npd, lf), pf = lf - df * p->npd;
	uint32_t dt = qdiv(p->by_npd, lt), pt = lt - dt * p->npd;
	uint32_t slot;

	PERCS_CHECK(from != to && from - lf == to - lt,
		    "from %u, to %u", (unsigned)from, (unsigned)to);
	if (df == dt)
		slot = pt < pf ? pt : pt - 1;
	else
		slot = p->npd - 1 + (dt < df ? dt : dt - 1) * p->npd + pt;
	return from * (p->snsize - 1) + slot;
}

static uint32_t d_link(const percs_model *p, uint32_t s, uint32_t t,
		       uint32_t i)
{
	uint64_t pair = (uint64_t)s * (p->sn - 1) + (t < s ? t : t - 1);
	return p->dbase + (uint32_t)(pair * p->dl + i);
}

/* The local index of the hub, in any supernode s other than t, that
 * holds the i-th D link between s and t (both directions): the link
 * joins hub d_hub(t, i) of s and hub d_hub(s, i) of t. */
static uint32_t d_hub(const percs_model *p, uint32_t t, uint32_t i)
{
	uint64_t x = (uint64_t)t * p->dl + i;
	return x <= UINT32_MAX ? qmod(p->by_snsize, (uint32_t)x) :
				 (uint32_t)(x % p->snsize);
}

/* A uniform pick in [0, n) from the packet's random bits, independent
 * for each salt (splitmix64's finalizer, then a multiply-shift). */
static uint32_t pick(uint64_t rnd, uint64_t salt, uint32_t n)
{
	uint64_t z = rnd + salt * UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return (uint32_t)(((z >> 32) * n) >> 32);
}

enum { SALT_MID = 1, SALT_LEG1 = 2, SALT_LEG2 = 3 };

/* Fix the intermediate supernode of an indirect route: uniform over the
 * supernodes other than the source's and the destination's.  Routes
 * inside one supernode, and every route of the direct mode, have none. */
static void percs_begin(void *ctx, pktnet_route *rt)
{
	const percs_model *p = ctx;
	uint32_t ss = qdiv(p->by_snsize, rt->src_node);
	uint32_t sd = qdiv(p->by_snsize, rt->dst_node);

	rt->mid = NO_MID;
	if (!p->indirect || ss == sd)
		return;
	uint32_t lo = ss < sd ? ss : sd, hi = ss < sd ? sd : ss;
	uint32_t m = pick(rt->rnd, SALT_MID, p->sn - 2);
	if (m >= lo)
		m++;
	if (m >= hi)
		m++;
	rt->mid = m;
}

/*
 * The next link from hub `at'.  The supernode the packet is in tells the
 * leg of its route: in the destination's, one L hop; in the source's with
 * an intermediate supernode, towards the D link to it (first leg); else
 * towards the D link to the destination's.  Each D leg picks one of the
 * dl links of its pair from the packet's random bits.  The VC is the
 * index of the hop along the route, which only grows, so no cycle of
 * buffer dependencies can form.
 */
static uint32_t percs_next(void *ctx, const pktnet *net, uint32_t at,
			   pktnet_route *rt)
{
	const percs_model *p = ctx;
	if (at == rt->dst_node)
		return PKTNET_EJECT;

	uint32_t s_at = qdiv(p->by_snsize, at);
	uint32_t s_dst = qdiv(p->by_snsize, rt->dst_node);
	uint32_t link;
	if (s_at == s_dst) {
		link = l_link(p, at, rt->dst_node);
	} else {
		uint32_t t = s_dst, salt = SALT_LEG1;
		if (rt->mid != NO_MID) {
			if (s_at == rt->mid)
				salt = SALT_LEG2;
			else
				t = rt->mid;
		}
		uint32_t i = p->dl > 1 ? pick(rt->rnd, salt, p->dl) : 0;
		uint32_t hub = s_at * p->snsize + d_hub(p, t, i);
		link = at == hub ? d_link(p, s_at, t, i) : l_link(p, at, hub);
	}
	PERCS_CHECK(rt->hops < p->topo.nvcs, "hop %u of a route from node %u "
		    "to %u", (unsigned)rt->hops, (unsigned)rt->src_node,
		    (unsigned)rt->dst_node);
	rt->vc = rt->hops;
	return link;
}

static void percs_router_name(void *ctx, uint32_t r, char *buf, size_t len)
{
	const percs_model *p = ctx;
	uint32_t l = r % p->snsize;
	snprintf(buf, len, "hub %lu (%lu.%lu.%lu)", (unsigned long)r,
		 (unsigned long)(r / p->snsize), (unsigned long)(l / p->npd),
		 (unsigned long)(l % p->npd));
}

/* Describe every link to the engine, in id order. */
static void set_links(percs_model *p, const sib_value *v)
{
	uint32_t id = 0;
	for (uint32_t h = 0; h < p->hubs; h++) {
		uint32_t base = h - h % p->snsize, lh = h % p->snsize;
		uint32_t dh = lh / p->npd, ph = lh % p->npd;
		for (uint32_t slot = 0; slot + 1 < p->snsize; slot++) {
			/* The inverse of l_link(). */
			int ll = slot + 1 < p->npd;
			uint32_t lt;
			if (ll) {
				lt = dh * p->npd + slot + (slot >= ph);
			} else {
				uint32_t r = slot - (p->npd - 1);
				uint32_t d = r / p->npd;
				lt = (d + (d >= dh)) * p->npd + r % p->npd;
			}
			PERCS_CHECK(l_link(p, h, base + lt) == id, "hub %u, "
				    "slot %u", (unsigned)h, (unsigned)slot);
			pktnet_link_set(p->pm.net, id++, h, base + lt,
					ll ? CLS_LL : CLS_LR,
					v[ll ? P_LL_BW : P_LR_BW].i,
					v[ll ? P_LL_LAT : P_LR_LAT].i);
		}
	}
	for (uint32_t s = 0; s < p->sn; s++)
		for (uint32_t t = 0; t < p->sn; t++)
			for (uint32_t i = 0; t != s && i < p->dl; i++) {
				PERCS_CHECK(d_link(p, s, t, i) == id,
					    "s %u, t %u, i %u", (unsigned)s,
					    (unsigned)t, (unsigned)i);
				pktnet_link_set(p->pm.net, id++,
						s * p->snsize + d_hub(p, t, i),
						t * p->snsize + d_hub(p, s, i),
						CLS_D, v[P_D_BW].i, v[P_D_LAT].i);
			}
	PERCS_CHECK(id == p->nlinks, "%u links set, %u expected",
		    (unsigned)id, (unsigned)p->nlinks);
}

/* ------------------------------------------------------------ create */

static int check_values(const sib_value *v, char *err, size_t errlen)
{
	static const int bws[] = { P_LL_BW, P_LR_BW, P_D_BW };
	static const int lats[] = { P_LL_LAT, P_LR_LAT, P_D_LAT };
	static const int ones[] = { P_DRAWERS, P_NODES_PER_DRAWER, P_D_LINKS };

	for (size_t i = 0; i < sizeof bws / sizeof bws[0]; i++)
		if (v[bws[i]].i <= 0)
			return sib_errf(err, errlen, "net.%s must be greater "
				    "than 0 bytes/s, e.g. 10GB/s (got %lld)",
				    percs_params[bws[i]].key,
				    (long long)v[bws[i]].i);
	for (size_t i = 0; i < sizeof lats / sizeof lats[0]; i++)
		if (v[lats[i]].i < 0)
			return sib_errf(err, errlen, "net.%s must not be "
				    "negative (got %lld ps)",
				    percs_params[lats[i]].key,
				    (long long)v[lats[i]].i);
	for (size_t i = 0; i < sizeof ones / sizeof ones[0]; i++)
		if (v[ones[i]].i < 1 || v[ones[i]].i > UINT32_MAX)
			return sib_errf(err, errlen, "net.%s must be at least "
				    "1 (got %lld)", percs_params[ones[i]].key,
				    (long long)v[ones[i]].i);
	if (v[P_SUPERNODES].i < 0 || v[P_SUPERNODES].i > UINT32_MAX)
		return sib_errf(err, errlen, "net.supernodes must be 0 (as "
			    "many as the nodes need) or a positive number "
			    "(got %lld)", (long long)v[P_SUPERNODES].i);
	if (v[P_ROUTING].i != ROUTE_DIRECT && v[P_ROUTING].i != ROUTE_INDIRECT)
		return sib_errf(err, errlen, "net.routing must be direct or "
			    "indirect (got choice number %lld)",
			    (long long)v[P_ROUTING].i);
	return 0;
}

/* Sizes of the machine from the checked values: supernodes, hubs, link
 * ids (which must stay below PKTNET_EJECT with the node channels). */
static int size_machine(percs_model *p, const sib_value *v,
			uint32_t nnodes, char *err, size_t errlen)
{
	p->drawers = (uint32_t)v[P_DRAWERS].i;
	p->npd = (uint32_t)v[P_NODES_PER_DRAWER].i;
	p->dl = (uint32_t)v[P_D_LINKS].i;
	uint64_t snsize = (uint64_t)p->drawers * p->npd;
	if (snsize > UINT32_MAX / 2)
		return sib_errf(err, errlen, "net.drawers x "
			    "net.nodes_per_drawer = %llu nodes per supernode "
			    "is too large", (unsigned long long)snsize);
	p->snsize = (uint32_t)snsize;
	p->by_snsize = div_by(p->snsize);
	p->by_npd = div_by(p->npd);

	uint64_t need = nnodes ? (nnodes + snsize - 1) / snsize : 1;
	uint64_t sn = v[P_SUPERNODES].i ? (uint64_t)v[P_SUPERNODES].i : need;
	if (sn < need)
		return sib_errf(err, errlen, "the machine has %lu nodes but "
			    "net.supernodes = %llu supernodes of %llu nodes "
			    "(net.drawers x net.nodes_per_drawer) hold only "
			    "%llu; raise net.supernodes to at least %llu or "
			    "set it to 0 (as many as the nodes need)",
			    (unsigned long)nnodes, (unsigned long long)sn,
			    (unsigned long long)snsize,
			    (unsigned long long)(sn * snsize),
			    (unsigned long long)need);
	uint64_t hubs = sn * snsize;
	uint64_t channels = (nnodes ? nnodes : hubs) *
		(uint64_t)(v[P_INJECT_CH].i + v[P_EJECT_CH].i);
	uint64_t llr = hubs * (snsize - 1);
	uint64_t dls = sn * (sn - 1) * p->dl;
	if (hubs > UINT32_MAX / 2 || llr + dls + channels >= UINT32_MAX)
		return sib_errf(err, errlen, "the machine is too large for "
			    "the percs model: %llu supernodes of %llu nodes "
			    "with net.d_links = %lu need %llu links and node "
			    "channels, more than 2^32 - 1; lower "
			    "net.supernodes or net.d_links",
			    (unsigned long long)sn, (unsigned long long)snsize,
			    (unsigned long)p->dl,
			    (unsigned long long)(llr + dls + channels));
	p->sn = (uint32_t)sn;
	p->hubs = (uint32_t)hubs;
	p->dbase = (uint32_t)llr;
	p->nlinks = (uint32_t)(llr + dls);
	p->indirect = v[P_ROUTING].i == ROUTE_INDIRECT && p->sn >= 3;
	return 0;
}

static int percs_create(netm_model **mp, const netm_setup *setup,
			const netm_host *host, char *err, size_t errlen)
{
	if (!setup || !setup->values || !host || !host->deliver ||
	    !host->schedule)
		return sib_errf(err, errlen, "the percs network model needs "
			    "its parameter values and a host that schedules "
			    "events and delivers messages");
	const sib_value *v = setup->values;
	if (check_values(v, err, errlen))
		return -1;

	pktnet_params pp;
	if (pktnet_params_from(&v[P_PACKET_SIZE], setup->seed, &pp, err,
			       errlen))
		return -1;

	percs_model *p = calloc(1, sizeof *p);
	if (!p)
		return sib_errf(err, errlen, "out of memory creating the percs "
			    "network model");
	p->pm.base.ops = &netm_percs;
	if (size_machine(p, v, setup->nnodes, err, errlen))
		goto out_with_model;
	p->topo = (pktnet_topo){
		.ctx = p,
		.nrouters = p->hubs,
		/* One VC per hop of the longest route: L-D-L or
		 * L-D-L-D-L. */
		.nvcs = p->indirect ? 5 : 3,
		.begin = percs_begin,
		.next = percs_next,
		.router_name = percs_router_name,
		/* Hubs past the machine's last node (a partly used last
		 * supernode) route but host no node. */
		.nnodes = setup->nnodes < p->hubs ? setup->nnodes : 0,
	};
	p->pm.net = pktnet_new(&p->topo, &pp, p->nlinks, NCLS,
			       percs_class_names, host, err, errlen);
	if (!p->pm.net)
		goto out_with_model;
	set_links(p, v);
	*mp = &p->pm.base;
	return 0;

out_with_model:
	free(p);
	return -1;
}

static void percs_destroy(netm_model *m)
{
	if (!m)
		return;
	pktnet_free(((percs_model *)m)->pm.net);
	free(m);
}

const netm_ops netm_percs = {
	.name = "percs",
	.summary = "IBM PERCS two-level direct network (supernodes of 4 "
		   "drawers of 8 Hubs; LL, LR and D links), direct or "
		   "indirect routing, packet level",
	.params = percs_params,
	.create = percs_create,
	.send = pktnet_model_send,
	.event = pktnet_model_event,
	.totals = pktnet_model_totals,
	.nlinks = pktnet_model_nlinks,
	.nclasses = pktnet_model_nclasses,
	.class_name = pktnet_model_class_name,
	.link = pktnet_model_link,
	.destroy = percs_destroy,
};
