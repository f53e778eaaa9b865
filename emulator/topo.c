/*
 * topo.c -- process topologies of virtual ranks (emu_comm.h): Cartesian,
 * graph and distributed-graph.
 *
 * A communicator with a topology is an ordinary one with an emu_topo.
 * Cartesian and graph layouts are the same on every member: the ranks of
 * a process share one object per layout.  Grid ranks are laid out
 * row-major (the last dimension varies fastest) and `reorder' is always
 * ignored, so rank i of the grid or graph is rank i of the old
 * communicator; the ranks beyond the grid or the graph's nodes get
 * MPI_COMM_NULL.  MPI_Cart_create, MPI_Cart_sub and MPI_Graph_create are
 * splits (comm.c's machinery: per-process tables, one traced context
 * agreement).
 *
 * A distributed graph is each rank's own: its sources and destinations
 * with their weights.  MPI_Dist_graph_create_adjacent is given them;
 * MPI_Dist_graph_create is given edges that any rank may name, which
 * travel to both of their ends in ceil(log2 P) traced rounds over the
 * old communicator's collective context (Bruck's indexing: in round k a
 * rank passes on to rank + 2^k the edges whose end lies a distance with
 * bit k set ahead of it, a count first, then the edges), so each rank
 * receives only what concerns it.  Its neighbours come in the order of
 * the ranks that named the edges, then of their lists.  Both then make
 * the communicator like MPI_Comm_dup.
 *
 * The neighbourhood collectives (coll.c) ask for the neighbours in MPI's
 * order: emu_topo_degrees and emu_topo_neighbors.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

/* The sentinels MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (mpi.h). */
int SIBYL_MPI_UNWEIGHTED[1], SIBYL_MPI_WEIGHTS_EMPTY[1];

/* ----------------------------------------------------- shared layouts */

typedef struct topo_obj {
	emu_topo t;
	struct topo_obj *next;
} topo_obj;

/* The process's layouts in use are emu.topo.topos; distributed graphs
 * are not among them. */

static topo_obj *topo_new(int kind)
{
	topo_obj *o = calloc(1, sizeof *o);
	if (!o)
		emu_fatal("out of memory for a process topology");
	o->t.refs = 1;
	o->t.kind = kind;
	return o;
}

static int *topo_ints(size_t n)
{
	int *a = malloc((n ? n : 1) * sizeof *a);
	if (!a)
		emu_fatal("out of memory for a process topology of %zu "
			  "integers", n);
	return a;
}

static void topo_share(topo_obj *o)
{
	o->next = emu.topo.topos;
	emu.topo.topos = o;
}

static int topo_same(const emu_topo *t, int ndims, const int *dims,
		     const int *periods)
{
	if (t->kind != MPI_CART || t->ndims != ndims)
		return 0;
	for (int i = 0; i < ndims; i++)
		if (t->dims[i] != dims[i] || t->periods[i] != !!periods[i])
			return 0;
	return 1;
}

emu_topo *emu_topo_get(int ndims, const int *dims, const int *periods)
{
	for (topo_obj *o = emu.topo.topos; o; o = o->next)
		if (topo_same(&o->t, ndims, dims, periods)) {
			o->t.refs++;
			return &o->t;
		}
	topo_obj *o = topo_new(MPI_CART);
	int *a = topo_ints(2 * (size_t)ndims);
	o->t.ndims = ndims;
	o->t.dims = a;
	o->t.periods = a + ndims;
	for (int i = 0; i < ndims; i++) {
		o->t.dims[i] = dims[i];
		o->t.periods[i] = !!periods[i];
	}
	topo_share(o);
	return &o->t;
}

static int graph_nedges(const emu_topo *t)
{
	return t->nnodes ? t->index[t->nnodes - 1] : 0;
}

static uint64_t graph_hash(int nnodes, const int *index, const int *edges)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (uint32_t)nnodes;
	int ne = nnodes ? index[nnodes - 1] : 0;
	for (int i = 0; i < nnodes; i++)
		h = (h ^ (uint32_t)index[i]) * 0x100000001b3ull;
	for (int i = 0; i < ne; i++)
		h = (h ^ (uint32_t)edges[i]) * 0x100000001b3ull;
	return h;
}

/* The process's shared graph layout (a new reference); the arguments are
 * valid (graph_check). */
static emu_topo *graph_get(int nnodes, const int *index, const int *edges)
{
	uint64_t h = graph_hash(nnodes, index, edges);
	int ne = nnodes ? index[nnodes - 1] : 0;
	for (topo_obj *o = emu.topo.topos; o; o = o->next) {
		emu_topo *t = &o->t;
		if (t->kind == MPI_GRAPH && t->hash == h &&
		    t->nnodes == nnodes && graph_nedges(t) == ne &&
		    (!nnodes || !memcmp(t->index, index,
					(size_t)nnodes * sizeof *index)) &&
		    (!ne || !memcmp(t->edges, edges,
				    (size_t)ne * sizeof *edges))) {
			t->refs++;
			return t;
		}
	}
	topo_obj *o = topo_new(MPI_GRAPH);
	o->t.nnodes = nnodes;
	o->t.hash = h;
	o->t.index = topo_ints((size_t)nnodes + (size_t)ne);
	o->t.edges = o->t.index + nnodes;
	if (nnodes)
		memcpy(o->t.index, index, (size_t)nnodes * sizeof *index);
	if (ne)
		memcpy(o->t.edges, edges, (size_t)ne * sizeof *edges);
	topo_share(o);
	return &o->t;
}

/* A rank's distributed graph, not shared (one reference). */
static emu_topo *dist_new(int indegree, int outdegree, int weighted)
{
	topo_obj *o = topo_new(MPI_DIST_GRAPH);
	emu_topo *t = &o->t;
	t->indegree = indegree;
	t->outdegree = outdegree;
	t->weighted = weighted;
	t->sources = topo_ints(2 * ((size_t)indegree + (size_t)outdegree));
	t->sourceweights = t->sources + indegree;
	t->destinations = t->sourceweights + indegree;
	t->destweights = t->destinations + outdegree;
	return t;
}

void emu_topo_unref(emu_topo *t)
{
	if (--t->refs > 0)
		return;
	topo_obj *o = (topo_obj *)t;
	if (t->kind != MPI_DIST_GRAPH) {
		topo_obj **p = &emu.topo.topos;
		while (*p != o)
			p = &(*p)->next;
		*p = o->next;
	}
	free(t->dims);
	free(t->index);
	free(t->sources);
	free(o);
}

/* --------------------------------------------------------------- helpers */

static const char *topo_kind_name(int kind)
{
	switch (kind) {
	case MPI_CART:
		return "a Cartesian topology";
	case MPI_GRAPH:
		return "a graph topology";
	default:
		return "a distributed-graph topology";
	}
}

/* The communicator behind handle h, which has a topology of this kind,
 * or MPI_ERR_TOPOLOGY. */
static emu_comm *topo_comm(emu_rank *r, MPI_Comm h, const char *call,
			   int kind)
{
	static const char *const made_by[] = {
		[MPI_GRAPH] = "MPI_Graph_create",
		[MPI_CART] = "MPI_Cart_create or MPI_Cart_sub",
		[MPI_DIST_GRAPH] = "MPI_Dist_graph_create or "
			"MPI_Dist_graph_create_adjacent",
	};
	emu_comm *c = emu_comm_get(r, h, call);
	if (!c->topo || c->topo->kind != kind)
		emu_mpi_error(r, call, MPI_ERR_TOPOLOGY, "%s has %s, not %s "
			      "(made by %s)", emu_comm_describe(r, h),
			      c->topo ? topo_kind_name(c->topo->kind) :
			      "no topology", topo_kind_name(kind),
			      made_by[kind]);
	return c;
}

static emu_comm *cart_get(emu_rank *r, MPI_Comm h, const char *call)
{
	return topo_comm(r, h, call, MPI_CART);
}

static void coords_of(const emu_topo *t, int rank, int *coords)
{
	for (int i = t->ndims - 1; i >= 0; i--) {
		coords[i] = rank % t->dims[i];
		rank /= t->dims[i];
	}
}

static void check_ptr(emu_rank *r, const char *call, const void *p,
		      const char *what)
{
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s", what);
}

/* The product of dims[0..ndims-1], each > 0; MPI_ERR_DIMS otherwise, and
 * when it exceeds `limit'. */
static int64_t grid_size(emu_rank *r, const char *call, int ndims,
			 const int *dims, int64_t limit, const char *whose)
{
	int64_t prod = 1;
	if (ndims < 0)
		emu_mpi_error(r, call, MPI_ERR_DIMS, "ndims = %d is negative",
			      ndims);
	if (ndims)
		check_ptr(r, call, dims, "dims array");
	for (int i = 0; i < ndims; i++) {
		if (dims[i] <= 0)
			emu_mpi_error(r, call, MPI_ERR_DIMS, "dims[%d] = %d "
				      "is not positive", i, dims[i]);
		prod *= dims[i];
		if (prod > limit)
			emu_mpi_error(r, call, MPI_ERR_DIMS, "the grid has "
				      "more ranks than %s (%lld)", whose,
				      (long long)limit);
	}
	return prod;
}

/* ------------------------------------------------------------ Dims_create */

/* The most balanced factorization of n into k factors: f[0] >= ... >=
 * f[k-1], smallest max - min, then smallest max.  Depth-first over the
 * divisors of n, pruned by the best spread found so far. */
typedef struct dims_search {
	int k;
	int ndiv;
	int *div;           /* divisors of n, ascending */
	int *cur, *best;
	int best_spread, best_max;
} dims_search;

/* d^e >= m, without overflow. */
static int pow_reaches(int64_t d, int e, int64_t m)
{
	int64_t p = 1;
	for (int i = 0; i < e; i++) {
		p *= d;
		if (p >= m)
			return 1;
	}
	return p >= m;
}

static void dims_dfs(dims_search *s, int i, int m, int maxf)
{
	if (i == s->k - 1) {
		if (m > maxf)
			return;
		s->cur[i] = m;
		int spread = s->cur[0] - m;
		if (spread < s->best_spread || (spread == s->best_spread &&
						s->cur[0] < s->best_max)) {
			s->best_spread = spread;
			s->best_max = s->cur[0];
			memcpy(s->best, s->cur, (size_t)s->k * sizeof *s->cur);
		}
		return;
	}
	for (int j = s->ndiv - 1; j >= 0; j--) {
		int d = s->div[j];
		if (d > maxf || d > m || m % d)
			continue;
		/* The rest must fit under d; below that, smaller d only
		 * gets worse. */
		if (!pow_reaches(d, s->k - i, m))
			break;
		int top = i ? s->cur[0] : d;
		if (top - d > s->best_spread)
			break;
		s->cur[i] = d;
		dims_dfs(s, i + 1, m / d, d);
	}
}

static int *divisors(int n, int *count)
{
	int cap = 64, c = 0, lo = 0;
	int *d = malloc((size_t)cap * sizeof *d);
	int *hi = malloc((size_t)cap * sizeof *hi);
	if (!d || !hi)
		emu_fatal("out of memory in MPI_Dims_create");
	for (int64_t x = 1; x * x <= n; x++) {
		if (n % x)
			continue;
		/* d[] ends up holding the large divisors too. */
		if (lo + c + 2 > cap) {
			cap *= 2;
			int *nd = realloc(d, (size_t)cap * sizeof *d);
			int *nh = realloc(hi, (size_t)cap * sizeof *hi);
			if (!nd || !nh)
				emu_fatal("out of memory in MPI_Dims_create");
			d = nd;
			hi = nh;
		}
		d[lo++] = (int)x;
		if (x * x != n)
			hi[c++] = (int)(n / x);
	}
	/* hi[] is descending: append it reversed. */
	for (int i = c - 1; i >= 0; i--)
		d[lo++] = hi[i];
	free(hi);
	*count = lo;
	return d;
}

int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
	const char *call = "MPI_Dims_create";
	EMU_API(r, call);
	if (nnodes < 1)
		emu_mpi_error(r, call, MPI_ERR_DIMS, "nnodes = %d is not "
			      "positive", nnodes);
	if (ndims < 0)
		emu_mpi_error(r, call, MPI_ERR_DIMS, "ndims = %d is negative",
			      ndims);
	if (ndims)
		check_ptr(r, call, dims, "dims array");
	int64_t fixed = 1;
	int nfree = 0;
	for (int i = 0; i < ndims; i++) {
		if (dims[i] < 0)
			emu_mpi_error(r, call, MPI_ERR_DIMS, "dims[%d] = %d is "
				      "negative", i, dims[i]);
		if (dims[i] == 0)
			nfree++;
		else if ((fixed *= dims[i]) > nnodes)
			break;
	}
	if (fixed > nnodes || nnodes % fixed)
		emu_mpi_error(r, call, MPI_ERR_DIMS, "the fixed entries of "
			      "dims (product %lld%s) do not divide nnodes = %d",
			      (long long)fixed, fixed > nnodes ? " or more" :
			      "", nnodes);
	int m = (int)(nnodes / fixed);
	if (nfree == 0) {
		if (m != 1)
			emu_mpi_error(r, call, MPI_ERR_DIMS, "dims has no free "
				      "entry and its product %lld is not "
				      "nnodes = %d", (long long)fixed, nnodes);
		return MPI_SUCCESS;
	}
	dims_search s = { .k = nfree, .best_spread = INT_MAX,
			  .best_max = INT_MAX };
	s.div = divisors(m, &s.ndiv);
	s.cur = malloc(2 * (size_t)nfree * sizeof *s.cur);
	if (!s.cur)
		emu_fatal("out of memory in MPI_Dims_create");
	s.best = s.cur + nfree;
	dims_dfs(&s, 0, m, m);
	for (int i = 0, j = 0; i < ndims; i++)
		if (dims[i] == 0)
			dims[i] = s.best[j++];
	free(s.cur);
	free(s.div);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------ Cartesian calls */

/* The first n ranks of c (handle h) get a communicator with topology t,
 * whose reference this takes; the others MPI_COMM_NULL.  `site': the
 * program's call site. */
static MPI_Comm topo_split(emu_rank *r, MPI_Comm h, const emu_comm *c,
			   int64_t n, emu_topo *t, const char *call,
			   const void *site)
{
	MPI_Comm nh = emu_comm_split(r, h, c->rank < n ? 0 : MPI_UNDEFINED,
				     c->rank, t, call, site);
	emu_topo_unref(t);
	return nh;
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart)
{
	const char *call = "MPI_Cart_create";
	EMU_API(r, call);
	(void)reorder; /* ranks keep their order */
	emu_comm *c = emu_comm_intra(r, comm_old, call);
	check_ptr(r, call, comm_cart, "comm_cart pointer");
	int64_t n = grid_size(r, call, ndims, dims, emu_comm_size(c),
			      "the communicator has");
	if (ndims)
		check_ptr(r, call, periods, "periods array");
	*comm_cart = topo_split(r, comm_old, c, n,
				emu_topo_get(ndims, dims, periods), call,
				EMU_SITE);
	return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	const char *call = "MPI_Cart_sub";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	const emu_topo *t = c->topo;
	check_ptr(r, call, newcomm, "newcomm pointer");
	if (t->ndims)
		check_ptr(r, call, remain_dims, "remain_dims array");
	int *buf = malloc(3 * (size_t)(t->ndims ? t->ndims : 1) *
			  sizeof *buf);
	if (!buf)
		emu_fatal("out of memory in MPI_Cart_sub");
	int *coords = buf, *kd = buf + t->ndims, *kp = kd + t->ndims;
	int nk = 0, color = 0;
	coords_of(t, c->rank, coords);
	/* One sub-grid per position in the dropped dimensions; within it,
	 * the old (row-major) order is the new one. */
	for (int i = 0; i < t->ndims; i++) {
		if (remain_dims[i]) {
			kd[nk] = t->dims[i];
			kp[nk++] = t->periods[i];
		} else {
			color = color * t->dims[i] + coords[i];
		}
	}
	emu_topo *sub = emu_topo_get(nk, kd, kp);
	free(buf);
	*newcomm = emu_comm_split(r, comm, color, c->rank, sub, call,
				  EMU_SITE);
	emu_topo_unref(sub);
	return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	const char *call = "MPI_Cart_coords";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	if (rank < 0 || rank >= emu_comm_size(c))
		emu_mpi_error(r, call, MPI_ERR_RANK, "rank %d is not a rank of "
			      "%s (size %d)", rank, emu_comm_describe(r, comm),
			      emu_comm_size(c));
	if (maxdims < c->topo->ndims)
		emu_mpi_error(r, call, MPI_ERR_ARG, "maxdims = %d, but the "
			      "grid has %d dimensions", maxdims,
			      c->topo->ndims);
	if (c->topo->ndims)
		check_ptr(r, call, coords, "coords array");
	coords_of(c->topo, rank, coords);
	return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	const char *call = "MPI_Cart_rank";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	const emu_topo *t = c->topo;
	check_ptr(r, call, rank, "rank pointer");
	if (t->ndims)
		check_ptr(r, call, coords, "coords array");
	int64_t x = 0;
	for (int i = 0; i < t->ndims; i++) {
		int64_t k = coords[i];
		if (t->periods[i]) {
			k %= t->dims[i];
			if (k < 0)
				k += t->dims[i];
		} else if (k < 0 || k >= t->dims[i]) {
			emu_mpi_error(r, call, MPI_ERR_ARG, "coords[%d] = %d "
				      "is outside the non-periodic dimension "
				      "%d of size %d", i, coords[i], i,
				      t->dims[i]);
		}
		x = x * t->dims[i] + k;
	}
	*rank = (int)x;
	return MPI_SUCCESS;
}

/* The ranks at -disp (*src) and +disp (*dst) from `rank' along
 * `direction' of grid t: MPI_PROC_NULL off a non-periodic edge. */
static void cart_shift(const emu_topo *t, int rank, int direction, int disp,
		       int *src, int *dst)
{
	/* Only the coordinate along `direction' moves. */
	int64_t stride = 1;
	for (int i = t->ndims - 1; i > direction; i--)
		stride *= t->dims[i];
	int64_t n = t->dims[direction];
	int64_t at = (rank / stride) % n;
	int64_t to[2] = { at + disp, at - (int64_t)disp };
	int out[2];
	for (int k = 0; k < 2; k++) {
		int64_t x = to[k];
		if (t->periods[direction]) {
			x %= n;
			if (x < 0)
				x += n;
		} else if (x < 0 || x >= n) {
			out[k] = MPI_PROC_NULL;
			continue;
		}
		out[k] = (int)(rank + (x - at) * stride);
	}
	*dst = out[0];
	*src = out[1];
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
		   int *rank_dest)
{
	const char *call = "MPI_Cart_shift";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	const emu_topo *t = c->topo;
	if (direction < 0 || direction >= t->ndims)
		emu_mpi_error(r, call, MPI_ERR_ARG, "direction %d is not in "
			      "0..%d", direction, t->ndims - 1);
	check_ptr(r, call, rank_source, "rank_source pointer");
	check_ptr(r, call, rank_dest, "rank_dest pointer");
	cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
	return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[])
{
	const char *call = "MPI_Cart_get";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	const emu_topo *t = c->topo;
	if (maxdims < t->ndims)
		emu_mpi_error(r, call, MPI_ERR_ARG, "maxdims = %d, but the "
			      "grid has %d dimensions", maxdims, t->ndims);
	if (t->ndims) {
		check_ptr(r, call, dims, "dims array");
		check_ptr(r, call, periods, "periods array");
		check_ptr(r, call, coords, "coords array");
	}
	for (int i = 0; i < t->ndims; i++) {
		dims[i] = t->dims[i];
		periods[i] = t->periods[i];
	}
	coords_of(t, c->rank, coords);
	return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	const char *call = "MPI_Cartdim_get";
	EMU_API(r, call);
	emu_comm *c = cart_get(r, comm, call);
	check_ptr(r, call, ndims, "ndims pointer");
	*ndims = c->topo->ndims;
	return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int *status)
{
	const char *call = "MPI_Topo_test";
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, status, "status pointer");
	*status = c->topo ? c->topo->kind : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* Without reordering, rank i of comm is rank i of the grid. */
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
		 const int periods[], int *newrank)
{
	const char *call = "MPI_Cart_map";
	EMU_API(r, call);
	(void)periods;
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, newrank, "newrank pointer");
	int64_t n = grid_size(r, call, ndims, dims, emu_comm_size(c),
			      "the communicator has");
	*newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ------------------------------------------------------ graph topologies */

/* MPI_Graph_create's description of a graph for a communicator of `size'
 * ranks (comm): nnodes in 0..size, index non-decreasing from 0, edges
 * naming nodes; MPI_ERR_ARG otherwise.  Self-loops and repeated edges are
 * allowed, as MPI-3.1 allows them. */
static void graph_check(emu_rank *r, const char *call, MPI_Comm comm,
			int size, int nnodes, const int *index,
			const int *edges)
{
	if (nnodes < 0 || nnodes > size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "nnodes = %d is not in "
			      "0..%d (the size of %s)", nnodes, size,
			      emu_comm_describe(r, comm));
	if (!nnodes)
		return;
	check_ptr(r, call, index, "index array");
	for (int i = 0; i < nnodes; i++)
		if (index[i] < (i ? index[i - 1] : 0))
			emu_mpi_error(r, call, MPI_ERR_ARG, "index[%d] = %d is "
				      "less than %s = %d", i, index[i],
				      i ? "the entry before it" : "0",
				      i ? index[i - 1] : 0);
	int ne = index[nnodes - 1];
	if (ne)
		check_ptr(r, call, edges, "edges array");
	for (int i = 0; i < ne; i++)
		if (edges[i] < 0 || edges[i] >= nnodes)
			emu_mpi_error(r, call, MPI_ERR_ARG, "edges[%d] = %d is "
				      "not a node (0..%d)", i, edges[i],
				      nnodes - 1);
}

/* Without reordering, rank i of comm is node i of the graph. */
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank)
{
	const char *call = "MPI_Graph_map";
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, newrank, "newrank pointer");
	graph_check(r, call, comm, emu_comm_size(c), nnodes, index, edges);
	*newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *comm_graph)
{
	const char *call = "MPI_Graph_create";
	EMU_API(r, call);
	(void)reorder; /* ranks keep their order */
	emu_comm *c = emu_comm_intra(r, comm_old, call);
	check_ptr(r, call, comm_graph, "comm_graph pointer");
	graph_check(r, call, comm_old, emu_comm_size(c), nnodes, index,
		    edges);
	*comm_graph = topo_split(r, comm_old, c, nnodes,
				 graph_get(nnodes, index, edges), call,
				 EMU_SITE);
	return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	const char *call = "MPI_Graphdims_get";
	EMU_API(r, call);
	emu_comm *c = topo_comm(r, comm, call, MPI_GRAPH);
	check_ptr(r, call, nnodes, "nnodes pointer");
	check_ptr(r, call, nedges, "nedges pointer");
	*nnodes = c->topo->nnodes;
	*nedges = graph_nedges(c->topo);
	return MPI_SUCCESS;
}

static void check_max(emu_rank *r, const char *call, int max,
		      const char *what)
{
	if (max < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s = %d is negative",
			      what, max);
}

/* The first min(max, n) of v into out (which may be NULL when none). */
static void copy_out(emu_rank *r, const char *call, int *out, int max,
		     const int *v, int n, const char *what)
{
	int k = max < n ? max : n;
	if (k <= 0)
		return;
	check_ptr(r, call, out, what);
	memcpy(out, v, (size_t)k * sizeof *v);
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[])
{
	const char *call = "MPI_Graph_get";
	EMU_API(r, call);
	emu_comm *c = topo_comm(r, comm, call, MPI_GRAPH);
	const emu_topo *t = c->topo;
	check_max(r, call, maxindex, "maxindex");
	check_max(r, call, maxedges, "maxedges");
	copy_out(r, call, index, maxindex, t->index, t->nnodes,
		 "index array");
	copy_out(r, call, edges, maxedges, t->edges, graph_nedges(t),
		 "edges array");
	return MPI_SUCCESS;
}

/* Node `rank' of graph t: its first edge and how many it has. */
static int graph_first(const emu_topo *t, int rank, int *count)
{
	int first = rank ? t->index[rank - 1] : 0;
	*count = t->index[rank] - first;
	return first;
}

static const emu_topo *graph_node(emu_rank *r, MPI_Comm comm,
				  const char *call, int rank)
{
	emu_comm *c = topo_comm(r, comm, call, MPI_GRAPH);
	if (rank < 0 || rank >= c->topo->nnodes)
		emu_mpi_error(r, call, MPI_ERR_RANK, "rank %d is not a node "
			      "of the graph of %s (0..%d)", rank,
			      emu_comm_describe(r, comm),
			      c->topo->nnodes - 1);
	return c->topo;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	const char *call = "MPI_Graph_neighbors_count";
	EMU_API(r, call);
	const emu_topo *t = graph_node(r, comm, call, rank);
	check_ptr(r, call, nneighbors, "nneighbors pointer");
	graph_first(t, rank, nneighbors);
	return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[])
{
	const char *call = "MPI_Graph_neighbors";
	EMU_API(r, call);
	const emu_topo *t = graph_node(r, comm, call, rank);
	check_max(r, call, maxneighbors, "maxneighbors");
	int n, first = graph_first(t, rank, &n);
	copy_out(r, call, neighbors, maxneighbors, t->edges + first, n,
		 "neighbors array");
	return MPI_SUCCESS;
}

/* ------------------------------------------ distributed-graph topologies */

/* n ranks of a communicator of `size' ranks. */
static void check_ranks(emu_rank *r, const char *call, const int *v, int n,
			int size, const char *what)
{
	if (n > 0)
		check_ptr(r, call, v, what);
	for (int i = 0; i < n; i++)
		if (v[i] < 0 || v[i] >= size)
			emu_mpi_error(r, call, MPI_ERR_RANK, "%s[%d] = %d is "
				      "not a rank of the communicator (size "
				      "%d)", what, i, v[i], size);
}

/* n weights, non-negative (MPI-3.1 7.5.4), unless MPI_UNWEIGHTED;
 * MPI_WEIGHTS_EMPTY stands for none. */
static void check_weights(emu_rank *r, const char *call, const int *w,
			  int n, const char *what)
{
	if (w == MPI_UNWEIGHTED || n <= 0)
		return;
	if (w == MPI_WEIGHTS_EMPTY)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s is MPI_WEIGHTS_EMPTY "
			      "for %d edges", what, n);
	check_ptr(r, call, w, what);
	for (int i = 0; i < n; i++)
		if (w[i] < 0)
			emu_mpi_error(r, call, MPI_ERR_ARG, "%s[%d] = %d is "
				      "negative", what, i, w[i]);
}

static void copy_weights(int *to, const int *w, int n)
{
	for (int i = 0; i < n; i++)
		to[i] = w == MPI_UNWEIGHTED ? 1 : w[i];
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph)
{
	const char *call = "MPI_Dist_graph_create_adjacent";
	EMU_API(r, call);
	(void)info;    /* no hints are used */
	(void)reorder; /* ranks keep their order */
	emu_comm *c = emu_comm_intra(r, comm_old, call);
	int P = emu_comm_size(c);
	check_ptr(r, call, comm_dist_graph, "comm_dist_graph pointer");
	if (indegree < 0 || outdegree < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s = %d is negative",
			      indegree < 0 ? "indegree" : "outdegree",
			      indegree < 0 ? indegree : outdegree);
	check_ranks(r, call, sources, indegree, P, "sources");
	check_ranks(r, call, destinations, outdegree, P, "destinations");
	check_weights(r, call, sourceweights, indegree, "sourceweights");
	check_weights(r, call, destweights, outdegree, "destweights");
	/* MPI asks for MPI_UNWEIGHTED on both sides or neither. */
	emu_topo *t = dist_new(indegree, outdegree,
			       sourceweights != MPI_UNWEIGHTED &&
			       destweights != MPI_UNWEIGHTED);
	if (indegree) {
		memcpy(t->sources, sources, (size_t)indegree * sizeof *sources);
		copy_weights(t->sourceweights, sourceweights, indegree);
	}
	if (outdegree) {
		memcpy(t->destinations, destinations,
		       (size_t)outdegree * sizeof *destinations);
		copy_weights(t->destweights, destweights, outdegree);
	}
	*comm_dist_graph = emu_comm_derive(r, comm_old, t, call, EMU_SITE);
	emu_topo_unref(t);
	return MPI_SUCCESS;
}

/* An edge of MPI_Dist_graph_create on its way to one of its ends. */
typedef struct dg_edge {
	int32_t to;            /* the end it is for */
	int32_t in;            /* 1: to receives from peer; 0: sends to it */
	int32_t peer, weight;
	int32_t origin;        /* the rank that named it */
	int32_t idx;           /* its place in that rank's list */
} dg_edge;

static int dg_order(const void *a, const void *b)
{
	const dg_edge *x = a, *y = b;
	if (x->origin != y->origin)
		return x->origin < y->origin ? -1 : 1;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return (x->in > y->in) - (x->in < y->in);
}

static void *dg_alloc(void *p, uint64_t n)
{
	void *q = NULL;
	if (n < SIZE_MAX / sizeof(dg_edge))
		q = realloc(p, (n ? n : 1) * sizeof(dg_edge));
	if (!q)
		emu_fatal("out of memory for %llu edges of "
			  "MPI_Dist_graph_create", (unsigned long long)n);
	return q;
}

/*
 * Every edge of `e' (n of them, malloc'd, given up) to the rank it is
 * for, over communicator c (handle h): ceil(log2 P) rounds, in round k a
 * count to rank + 2^k and from rank - 2^k, then the edges whose distance
 * ahead to their end has bit k set (each end is reached once its
 * distance is 0).  Returns the edges for this rank (malloc'd, *nout).
 */
static dg_edge *dg_route(emu_rank *r, emu_comm *c, MPI_Comm h, int tag,
			 const char *call, dg_edge *e, uint64_t n,
			 uint64_t *nout)
{
	int P = emu_comm_size(c), me = c->rank, step = 0;
	for (int64_t d = 1; d < P; d *= 2) {
		int to = (int)((me + d) % P), from = (int)((me - d + P) % P);
		dg_edge *out = dg_alloc(NULL, n);
		uint64_t kept = 0, m = 0, in = 0;
		for (uint64_t i = 0; i < n; i++) {
			int ahead = (e[i].to - me + P) % P;
			if (ahead & d)
				out[m++] = e[i];
			else
				e[kept++] = e[i];
		}
		emu_comm_round(r, c, h, tag, call, to, &m, sizeof m, from,
			       &in, sizeof in, &step);
		e = dg_alloc(e, kept + in);
		emu_comm_round(r, c, h, tag, call, m ? to : -1, out,
			       m * sizeof *out, in ? from : -1, e + kept,
			       in * sizeof *e, &step);
		free(out);
		n = kept + in;
	}
	/* What follows (the new communicator's agreement) depends on it. */
	if (step)
		emu_rec_step(r, call, 0);
	*nout = n;
	return e;
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *comm_dist_graph)
{
	const char *call = "MPI_Dist_graph_create";
	EMU_API(r, call);
	(void)info;    /* no hints are used */
	(void)reorder; /* ranks keep their order */
	emu_comm *c = emu_comm_intra(r, comm_old, call);
	int P = emu_comm_size(c);
	check_ptr(r, call, comm_dist_graph, "comm_dist_graph pointer");
	if (n < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "n = %d is negative", n);
	check_ranks(r, call, sources, n, P, "sources");
	if (n)
		check_ptr(r, call, degrees, "degrees array");
	int64_t ne = 0;
	for (int i = 0; i < n; i++) {
		if (degrees[i] < 0)
			emu_mpi_error(r, call, MPI_ERR_ARG, "degrees[%d] = %d "
				      "is negative", i, degrees[i]);
		if ((ne += degrees[i]) > INT_MAX / 2)
			emu_mpi_error(r, call, MPI_ERR_ARG, "more than %d "
				      "edges", INT_MAX / 2);
	}
	check_ranks(r, call, destinations, (int)ne, P, "destinations");
	check_weights(r, call, weights, (int)ne, "weights");

	/* Each edge goes to both of its ends. */
	dg_edge *e = dg_alloc(NULL, 2 * (uint64_t)ne);
	for (int i = 0, k = 0; i < n; i++)
		for (int j = 0; j < degrees[i]; j++, k++) {
			int w = weights == MPI_UNWEIGHTED ? 1 : weights[k];
			e[2 * k] = (dg_edge){ sources[i], 0, destinations[k],
					      w, c->rank, k };
			e[2 * k + 1] = (dg_edge){ destinations[k], 1,
						  sources[i], w, c->rank, k };
		}
	uint32_t seq = c->coll_seq++;
	emu_rec_enter(r, EMU_SITE);
	uint64_t nmine;
	e = dg_route(r, c, comm_old, (int)(seq & INT_MAX), call, e,
		     2 * (uint64_t)ne, &nmine);
	qsort(e, nmine, sizeof *e, dg_order);
	int indegree = 0;
	for (uint64_t i = 0; i < nmine; i++)
		indegree += e[i].in;
	emu_topo *t = dist_new(indegree, (int)nmine - indegree,
			       weights != MPI_UNWEIGHTED);
	for (uint64_t i = 0, a = 0, b = 0; i < nmine; i++) {
		if (e[i].in) {
			t->sources[a] = e[i].peer;
			t->sourceweights[a++] = e[i].weight;
		} else {
			t->destinations[b] = e[i].peer;
			t->destweights[b++] = e[i].weight;
		}
	}
	free(e);
	*comm_dist_graph = emu_comm_derive(r, comm_old, t, call, EMU_SITE);
	emu_topo_unref(t);
	return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted)
{
	const char *call = "MPI_Dist_graph_neighbors_count";
	EMU_API(r, call);
	emu_comm *c = topo_comm(r, comm, call, MPI_DIST_GRAPH);
	check_ptr(r, call, indegree, "indegree pointer");
	check_ptr(r, call, outdegree, "outdegree pointer");
	check_ptr(r, call, weighted, "weighted pointer");
	*indegree = c->topo->indegree;
	*outdegree = c->topo->outdegree;
	*weighted = c->topo->weighted;
	return MPI_SUCCESS;
}

/* Weights out, unless the graph has none or the program asks for none
 * (MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY). */
static void weights_out(emu_rank *r, const char *call, const emu_topo *t,
			int *out, int max, const int *w, int n,
			const char *what)
{
	if (t->weighted && out != MPI_UNWEIGHTED && out != MPI_WEIGHTS_EMPTY)
		copy_out(r, call, out, max, w, n, what);
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[])
{
	const char *call = "MPI_Dist_graph_neighbors";
	EMU_API(r, call);
	emu_comm *c = topo_comm(r, comm, call, MPI_DIST_GRAPH);
	const emu_topo *t = c->topo;
	check_max(r, call, maxindegree, "maxindegree");
	check_max(r, call, maxoutdegree, "maxoutdegree");
	copy_out(r, call, sources, maxindegree, t->sources, t->indegree,
		 "sources array");
	weights_out(r, call, t, sourceweights, maxindegree, t->sourceweights,
		    t->indegree, "sourceweights array");
	copy_out(r, call, destinations, maxoutdegree, t->destinations,
		 t->outdegree, "destinations array");
	weights_out(r, call, t, destweights, maxoutdegree, t->destweights,
		    t->outdegree, "destweights array");
	return MPI_SUCCESS;
}

/* ---------------------------------------- for neighbourhood collectives */

void emu_topo_degrees(const emu_topo *t, int rank, int *indegree,
		      int *outdegree)
{
	switch (t->kind) {
	case MPI_CART:
		*indegree = *outdegree = 2 * t->ndims;
		break;
	case MPI_GRAPH:
		graph_first(t, rank, indegree);
		*outdegree = *indegree;
		break;
	default:
		*indegree = t->indegree;
		*outdegree = t->outdegree;
		break;
	}
}

void emu_topo_neighbors(const emu_topo *t, int rank, int *sources,
			int *destinations)
{
	int n, first;
	switch (t->kind) {
	case MPI_CART:
		for (int d = 0; d < t->ndims; d++) {
			cart_shift(t, rank, d, 1, &sources[2 * d],
				   &sources[2 * d + 1]);
			destinations[2 * d] = sources[2 * d];
			destinations[2 * d + 1] = sources[2 * d + 1];
		}
		break;
	case MPI_GRAPH:
		first = graph_first(t, rank, &n);
		memcpy(sources, t->edges + first, (size_t)n * sizeof *sources);
		memcpy(destinations, sources, (size_t)n * sizeof *sources);
		break;
	default:
		memcpy(sources, t->sources,
		       (size_t)t->indegree * sizeof *sources);
		memcpy(destinations, t->destinations,
		       (size_t)t->outdegree * sizeof *destinations);
		break;
	}
}
