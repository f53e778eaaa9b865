/*
 * torus.c -- the `torus' network model: an N-dimensional torus or mesh
 * with one router per node, dimension-order or minimal adaptive routing,
 * on the shared packet engine (pktnet.h).  Parameters, defaults and their
 * sources, the routing rules and the timing formula are in
 * netmodels/torus.md.
 *
 * Routers are numbered x-fastest: router r has coordinate
 * (r / stride[d]) % k[d] in dimension d, stride[0] = 1.  Router r serves
 * node r; routers beyond the machine's nodes carry traffic but have no
 * ranks.  Link ids are grouped by class (dimension d, direction + or -,
 * class 2d + dir): a torus has one link per router and class, so the
 * link of router r is base[class] + r; a mesh has none at the far end of
 * each line, and the ids of a class skip them.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"
#include "pktnet.h"

/* Exported through the registry (registry.c). */
extern const netm_ops netm_torus;

#define TORUS_MAXD 16
#define TORUS_KMAX 65535

/* The parameters in one X-macro list (sib_param.h), which gives the
 * table torus_params and its indices (also those of netm_setup.values). */
#define TORUS_PARAMS(X) \
	X(P_DIMS, "dims", SIB_P_STRING, "", NULL, \
	  "Size of each dimension, e.g. 8x8x8 or 4x4x4x4x2; empty: the " \
	  "most cubic 3D factorization of the node count.") \
	X(P_WRAP, "wrap", SIB_P_BOOL, "yes", NULL, \
	  "yes: a torus (every dimension wraps around); no: a mesh.") \
	X(P_ROUTING, "routing", SIB_P_ENUM, "dor", "dor|adaptive", \
	  "dor: dimension order, the shorter way round; adaptive: " \
	  "minimal, the productive link that frees first.") \
	X(P_LINK_BW, "link_bandwidth", SIB_P_BW, "2GB/s", NULL, \
	  "Bandwidth of each link in each direction.") \
	X(P_LINK_LAT, "link_latency", SIB_P_TIME, "5ns", NULL, \
	  "Flight time of a packet over one link.") \
	PKTNET_PARAMS(X, "512", "32", "35ns", "100ns", "10", \
		      "2GB/s", "10", "2GB/s", "100ns", "0")

enum { TORUS_PARAMS(SIB_PARAM_ID) P_COUNT };
enum { ROUTE_DOR, ROUTE_ADAPTIVE };
enum { DIR_PLUS, DIR_MINUS };

static const sib_param torus_params[] = {
	TORUS_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

typedef struct torus {
	pktnet_model pm;          /* first: the netm_model, then the engine */
	uint32_t nd;              /* dimensions */
	uint32_t nrouters;
	uint32_t k[TORUS_MAXD];      /* size of each dimension */
	uint32_t stride[TORUS_MAXD]; /* routers per step in dimension d */
	uint32_t m[TORUS_MAXD];      /* links of a class per line of d */
	uint32_t cbase[2 * TORUS_MAXD + 1]; /* first link id of each class */
	int wrap, routing, dateline;
	uint16_t *coord;          /* nrouters x nd coordinates */
	char cname[2 * TORUS_MAXD][8];
	const char *cls[2 * TORUS_MAXD];
} torus;

/* ---------------------------------------------------------- geometry */

/* Id of the link leaving router r in dimension d, direction dir; the
 * caller knows it exists. */
static inline uint32_t link_id(const torus *t, uint32_t r, uint32_t d,
			       int dir)
{
	uint32_t b = t->cbase[2 * d + dir];
	if (t->wrap)
		return b + r;
	/* r = lo + s*(c + k*hi); the class counts k-1 links per line and
	 * numbers them by lo + s*(c' + (k-1)*hi), c' = c (+) or c-1 (-). */
	uint32_t s = t->stride[d];
	uint32_t hi = r / (s * t->k[d]);
	return b + r - s * hi - (dir == DIR_MINUS ? s : 0);
}

static int link_exists(const torus *t, uint32_t d, int dir, uint32_t c)
{
	if (t->k[d] < 2)
		return 0;
	if (t->wrap)
		return 1;
	return dir == DIR_PLUS ? c + 1 < t->k[d] : c > 0;
}

static uint32_t neighbor(const torus *t, uint32_t r, uint32_t d, int dir,
			 uint32_t c)
{
	uint32_t s = t->stride[d], k = t->k[d];
	if (dir == DIR_PLUS)
		return c + 1 < k ? r + s : r - s * (k - 1);
	return c > 0 ? r - s : r + s * (k - 1);
}

/* Steps from c to e going + round the ring of dimension d. */
static inline uint32_t ring_fwd(const torus *t, uint32_t d, uint32_t c,
				uint32_t e)
{
	return e >= c ? e - c : e + t->k[d] - c;
}

/* The minimal direction from c to e != c in dimension d: the shorter
 * way round on a torus, + on a tie. */
static int min_dir(const torus *t, uint32_t d, uint32_t c, uint32_t e)
{
	if (!t->wrap)
		return e > c ? DIR_PLUS : DIR_MINUS;
	uint32_t fwd = ring_fwd(t, d, c, e);
	return fwd <= t->k[d] - fwd ? DIR_PLUS : DIR_MINUS;
}

/* ----------------------------------------------------------- routing */

/* Dateline VCs (finite buffers on a torus): rt->mid holds the dimension
 * being travelled + 1 (low byte) and whether its wrap-around link has
 * been crossed (bit 8).  The wrap-around link itself is taken on VC 0,
 * the links after it on VC 1; turning into the next dimension starts
 * on VC 0 again. */
#define DL_CROSSED 0x100u

static uint32_t dor_next(torus *t, uint32_t at, pktnet_route *rt)
{
	const uint16_t *ca = &t->coord[(size_t)at * t->nd];
	const uint16_t *ce = &t->coord[(size_t)rt->dst_node * t->nd];
	uint32_t d = 0;
	while (ca[d] == ce[d])
		d++;
	int dir = min_dir(t, d, ca[d], ce[d]);
	uint32_t l = link_id(t, at, d, dir);
	rt->vc = 0;
	if (t->dateline) {
		uint32_t st = rt->mid;
		if ((st & 0xffu) != d + 1)
			st = d + 1;
		rt->vc = (st & DL_CROSSED) ? 1 : 0;
		if ((dir == DIR_PLUS && ca[d] + 1u == t->k[d]) ||
		    (dir == DIR_MINUS && ca[d] == 0))
			st |= DL_CROSSED;
		rt->mid = st;
	}
	return l;
}

/* Among the productive links (both directions on a tie), the one that
 * frees first; ties go to the lower dimension, then to +. */
static uint32_t adaptive_next(torus *t, const pktnet *net, uint32_t at,
			      pktnet_route *rt)
{
	const uint16_t *ca = &t->coord[(size_t)at * t->nd];
	const uint16_t *ce = &t->coord[(size_t)rt->dst_node * t->nd];
	uint32_t best = PKTNET_EJECT;
	sib_ps bt = 0;
	for (uint32_t d = 0; d < t->nd; d++) {
		if (ca[d] == ce[d])
			continue;
		uint32_t c = ca[d], e = ce[d], k = t->k[d];
		int plus, minus;
		if (t->wrap) {
			uint32_t fwd = ring_fwd(t, d, c, e);
			plus = fwd <= k - fwd;
			minus = k - fwd <= fwd;
		} else {
			plus = e > c;
			minus = !plus;
		}
		for (int dir = DIR_PLUS; dir <= DIR_MINUS; dir++) {
			if (!(dir == DIR_PLUS ? plus : minus))
				continue;
			uint32_t l = link_id(t, at, d, dir);
			sib_ps f = pktnet_link_free(net, l);
			if (best == PKTNET_EJECT || f < bt) {
				best = l;
				bt = f;
			}
		}
	}
	rt->vc = 0;
	return best;
}

static uint32_t torus_route(void *ctx, const pktnet *net, uint32_t at,
			    pktnet_route *rt)
{
	torus *t = ctx;
	if (at == rt->dst_node)
		return PKTNET_EJECT;
	if (t->routing == ROUTE_ADAPTIVE)
		return adaptive_next(t, net, at, rt);
	return dor_next(t, at, rt);
}

static void torus_router_name(void *ctx, uint32_t r, char *buf, size_t len)
{
	const torus *t = ctx;
	int n = snprintf(buf, len, "router %u (", (unsigned)r);
	for (uint32_t d = 0; d < t->nd && n > 0 && (size_t)n < len; d++)
		n += snprintf(buf + n, len - (size_t)n, "%s%u", d ? "," : "",
			      (unsigned)t->coord[(size_t)r * t->nd + d]);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ")");
}

/* ------------------------------------------------------------ create */

/* The most cubic exact factorization a >= b >= c of n: the smallest
 * largest factor, then the largest smallest one. */
static void cubic3(uint32_t n, uint32_t f[3])
{
	f[0] = n ? n : 1;
	f[1] = f[2] = 1;
	for (uint64_t c = 1; c * c * c <= n; c++) {
		if (n % c)
			continue;
		for (uint64_t b = c; b * b * c <= n; b++) {
			if (n % (b * c))
				continue;
			uint64_t a = n / (b * c);
			if (a < f[0] || (a == f[0] && c > f[2])) {
				f[0] = (uint32_t)a;
				f[1] = (uint32_t)b;
				f[2] = (uint32_t)c;
			}
		}
	}
}

static void dims_text(const uint32_t *k, uint32_t nd, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (uint32_t d = 0; d < nd && n < len; d++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u", d ? "x" : "",
				      (unsigned)k[d]);
}

/* Parse net.dims ("8x8x8") into t->k and t->nd. */
static int parse_dims(torus *t, const char *s, uint32_t nnodes, char *err,
		      size_t errlen)
{
	uint32_t f[3];
	char sugg[64];
	cubic3(nnodes, f);
	dims_text(f, 3, sugg, sizeof sugg);
	if (!s || !*s) {
		t->nd = 3;
		memcpy(t->k, f, sizeof f);
		return 0;
	}
	const char *p = s;
	t->nd = 0;
	for (;;) {
		uint64_t v = 0;
		const char *q = p;
		while (*q >= '0' && *q <= '9' && v <= TORUS_KMAX)
			v = v * 10 + (uint64_t)(*q++ - '0');
		if (q == p || v < 1 || v > TORUS_KMAX ||
		    t->nd == TORUS_MAXD || (*q && *q != 'x'))
			return sib_errf(err, errlen, "net.dims: '%s' is not "
				    "a list of dimension sizes such as 8x8x8 "
				    "(1 to %d dimensions, each of 1 to %d "
				    "routers, joined by 'x'); for %u nodes "
				    "e.g. %s", s, TORUS_MAXD, TORUS_KMAX,
				    (unsigned)nnodes, sugg);
		t->k[t->nd++] = (uint32_t)v;
		if (!*q)
			break;
		p = q + 1;
	}
	uint64_t prod = 1;
	for (uint32_t d = 0; d < t->nd; d++) {
		prod *= t->k[d];
		if (prod >= UINT32_MAX)
			return sib_errf(err, errlen, "net.dims: '%s' makes "
				    "more than 2^32-2 routers; give fewer or "
				    "smaller dimensions", s);
	}
	if (prod < nnodes)
		return sib_errf(err, errlen, "net.dims: '%s' has %llu "
			    "routers, but the machine has %u nodes (one per "
			    "router); give dimensions whose product is at "
			    "least %u, e.g. %s, or leave net.dims empty", s,
			    (unsigned long long)prod, (unsigned)nnodes,
			    (unsigned)nnodes, sugg);
	return 0;
}

static void torus_destroy(netm_model *m)
{
	torus *t = (torus *)m;
	if (!t)
		return;
	pktnet_free(t->pm.net);
	free(t->coord);
	free(t);
}

static int torus_create(netm_model **mp, const netm_setup *setup,
			const netm_host *host, char *err, size_t errlen)
{
	if (!setup || !setup->values || !host)
		return sib_errf(err, errlen, "the torus network model needs "
			    "its parameter values and a host");
	const sib_value *v = setup->values;
	if (v[P_LINK_BW].i <= 0)
		return sib_errf(err, errlen, "net.link_bandwidth must be "
			    "greater than 0 bytes/s, e.g. 2GB/s (got %lld)",
			    (long long)v[P_LINK_BW].i);
	if (v[P_LINK_LAT].i < 0)
		return sib_errf(err, errlen, "net.link_latency must not be "
			    "negative (got %lld ps)", (long long)v[P_LINK_LAT].i);
	pktnet_params pp;
	if (pktnet_params_from(&v[P_PACKET_SIZE], setup->seed, &pp, err,
			       errlen))
		return -1;
	if (v[P_ROUTING].i == ROUTE_ADAPTIVE && pp.buffer_packets)
		return sib_errf(err, errlen, "net.routing = adaptive needs "
			    "unbounded buffers (net.buffer_packets = 0): "
			    "minimal adaptive routing with finite buffers can "
			    "deadlock, and the torus model has no escape "
			    "channel; use net.routing = dor with finite "
			    "buffers");

	torus *t = calloc(1, sizeof *t);
	if (!t)
		return sib_errf(err, errlen, "out of memory creating the torus "
			    "network model");
	t->pm.base.ops = &netm_torus;
	if (parse_dims(t, v[P_DIMS].s, setup->nnodes, err, errlen))
		goto out_with_model;
	t->wrap = v[P_WRAP].i != 0;
	t->routing = (int)v[P_ROUTING].i;
	/* A mesh under dimension order cannot deadlock; a torus needs the
	 * second VC to break the cycle of each ring. */
	t->dateline = pp.buffer_packets && t->wrap;

	uint32_t n = 1, nlinks = 0;
	for (uint32_t d = 0; d < t->nd; d++) {
		t->stride[d] = n;
		n *= t->k[d];
	}
	t->nrouters = n;
	for (uint32_t d = 0; d < t->nd; d++) {
		t->m[d] = t->k[d] < 2 ? 0 : t->wrap ? t->k[d] : t->k[d] - 1;
		uint64_t per = (uint64_t)(n / t->k[d]) * t->m[d];
		for (int dir = DIR_PLUS; dir <= DIR_MINUS; dir++) {
			t->cbase[2 * d + dir] = nlinks;
			if (nlinks + per >= UINT32_MAX) {
				char dt[TORUS_MAXD * 6 + 1];
				dims_text(t->k, t->nd, dt, sizeof dt);
				sib_errf(err, errlen, "net.dims = %s makes "
				     "more than 2^32-2 links; give fewer or "
				     "smaller dimensions", dt);
				goto out_with_model;
			}
			nlinks += (uint32_t)per;
		}
		if (d < 3)
			snprintf(t->cname[2 * d], sizeof t->cname[0], "%c+",
				 "xyz"[d]);
		else
			snprintf(t->cname[2 * d], sizeof t->cname[0], "d%u+",
				 (unsigned)d);
		memcpy(t->cname[2 * d + 1], t->cname[2 * d],
		       sizeof t->cname[0]);
		t->cname[2 * d + 1][strlen(t->cname[2 * d]) - 1] = '-';
		t->cls[2 * d] = t->cname[2 * d];
		t->cls[2 * d + 1] = t->cname[2 * d + 1];
	}
	t->cbase[2 * t->nd] = nlinks;

	t->coord = malloc((size_t)n * t->nd * sizeof *t->coord);
	if (!t->coord) {
		sib_errf(err, errlen, "out of memory for the coordinates of "
		     "%u routers", (unsigned)n);
		goto out_with_model;
	}
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t d = 0; d < t->nd; d++)
			t->coord[(size_t)r * t->nd + d] =
				(uint16_t)(r / t->stride[d] % t->k[d]);

	pktnet_topo topo = {
		.ctx = t,
		.nrouters = n,
		.nvcs = t->dateline ? 2 : 1,
		.begin = NULL,
		.next = torus_route,
		.router_name = torus_router_name,
		.nnodes = setup->nnodes ? setup->nnodes : 1,
	};
	if (topo.nnodes > n)
		topo.nnodes = n;
	t->pm.net = pktnet_new(&topo, &pp, nlinks, 2 * t->nd, t->cls, host,
			       err, errlen);
	if (!t->pm.net)
		goto out_with_model;
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t d = 0; d < t->nd; d++) {
			uint32_t c = t->coord[(size_t)r * t->nd + d];
			for (int dir = DIR_PLUS; dir <= DIR_MINUS; dir++)
				if (link_exists(t, d, dir, c))
					pktnet_link_set(t->pm.net,
						link_id(t, r, d, dir), r,
						neighbor(t, r, d, dir, c),
						2 * d + (uint32_t)dir,
						v[P_LINK_BW].i, v[P_LINK_LAT].i);
		}
	*mp = &t->pm.base;
	return 0;

out_with_model:
	torus_destroy(&t->pm.base);
	return -1;
}

const netm_ops netm_torus = {
	.name = "torus",
	.summary = "N-dimensional torus or mesh, packet level: dimension-order "
		   "or minimal adaptive routing, link contention, optional "
		   "finite buffers with credits",
	.params = torus_params,
	.create = torus_create,
	.send = pktnet_model_send,
	.event = pktnet_model_event,
	.totals = pktnet_model_totals,
	.nlinks = pktnet_model_nlinks,
	.nclasses = pktnet_model_nclasses,
	.class_name = pktnet_model_class_name,
	.link = pktnet_model_link,
	.destroy = torus_destroy,
};
