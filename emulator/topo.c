/*
 * topo.c -- Cartesian process topologies of virtual ranks (emu_comm.h).
 *
 * A Cartesian communicator is an ordinary one with an emu_topo: the
 * dimensions and periods, shared by every communicator of the process
 * with the same layout.  Ranks are laid out row-major (the last dimension
 * varies fastest) and `reorder' is ignored, so rank i of the grid is rank
 * i of the old communicator; the ranks beyond the grid get
 * MPI_COMM_NULL.  MPI_Cart_create and MPI_Cart_sub are splits (comm.c's
 * machinery: per-process tables, one traced context agreement).
 *
 * Graph and distributed-graph topologies are not supported: creating one
 * fails with MPI_ERR_TOPOLOGY, and since no communicator has one, so do
 * the calls that query one (as MPI says for a communicator without).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

/* ----------------------------------------------------- shared layouts */

typedef struct topo_obj {
	emu_topo t;
	struct topo_obj *next;
} topo_obj;

/* The process's layouts in use are emu.topo.topos. */

static int topo_same(const emu_topo *t, int ndims, const int *dims,
		     const int *periods)
{
	if (t->ndims != ndims)
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
	topo_obj *o = calloc(1, sizeof *o);
	int *a = malloc(2 * (size_t)(ndims ? ndims : 1) * sizeof *a);
	if (!o || !a)
		emu_fatal("out of memory for a %d-dimensional topology",
			  ndims);
	o->t.refs = 1;
	o->t.ndims = ndims;
	o->t.dims = a;
	o->t.periods = a + ndims;
	for (int i = 0; i < ndims; i++) {
		o->t.dims[i] = dims[i];
		o->t.periods[i] = !!periods[i];
	}
	o->next = emu.topo.topos;
	emu.topo.topos = o;
	return &o->t;
}

void emu_topo_unref(emu_topo *t)
{
	if (--t->refs > 0)
		return;
	topo_obj **p = &emu.topo.topos;
	while (&(*p)->t != t)
		p = &(*p)->next;
	topo_obj *o = *p;
	*p = o->next;
	free(o->t.dims);
	free(o);
}

/* --------------------------------------------------------------- helpers */

/* The Cartesian communicator behind handle h, or MPI_ERR_TOPOLOGY. */
static emu_comm *cart_get(emu_rank *r, MPI_Comm h, const char *call)
{
	emu_comm *c = emu_comm_get(r, h, call);
	if (!c->topo)
		emu_mpi_error(r, call, MPI_ERR_TOPOLOGY, "%s has no Cartesian "
			      "topology (made by MPI_Cart_create or "
			      "MPI_Cart_sub)", emu_comm_describe(r, h));
	return c;
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

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart)
{
	const char *call = "MPI_Cart_create";
	EMU_API(r, call);
	(void)reorder; /* ranks keep their order */
	emu_comm *c = emu_comm_get(r, comm_old, call);
	check_ptr(r, call, comm_cart, "comm_cart pointer");
	int64_t n = grid_size(r, call, ndims, dims, emu_comm_size(c),
			      "the communicator has");
	if (ndims)
		check_ptr(r, call, periods, "periods array");
	emu_topo *t = emu_topo_get(ndims, dims, periods);
	*comm_cart = emu_comm_split(r, comm_old, c->rank < n ? 0 :
				    MPI_UNDEFINED, c->rank, t, call,
				    EMU_SITE);
	emu_topo_unref(t);
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
	/* Only the coordinate along `direction' moves. */
	int64_t stride = 1;
	for (int i = t->ndims - 1; i > direction; i--)
		stride *= t->dims[i];
	int64_t n = t->dims[direction];
	int64_t at = (c->rank / stride) % n;
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
		out[k] = (int)(c->rank + (x - at) * stride);
	}
	*rank_dest = out[0];
	*rank_source = out[1];
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
	*status = c->topo ? MPI_CART : MPI_UNDEFINED;
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

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank)
{
	const char *call = "MPI_Graph_map";
	EMU_API(r, call);
	(void)index;
	(void)edges;
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, newrank, "newrank pointer");
	if (nnodes < 0 || nnodes > emu_comm_size(c))
		emu_mpi_error(r, call, MPI_ERR_ARG, "nnodes = %d is not in "
			      "0..%d (the size of %s)", nnodes,
			      emu_comm_size(c), emu_comm_describe(r, comm));
	*newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* ------------------------------------------------ graph topologies: none */

static int no_graph_create(const char *call, MPI_Comm comm)
{
	EMU_API(r, call);
	emu_comm_get(r, comm, call);
	emu_mpi_error(r, call, MPI_ERR_UNSUPPORTED_OPERATION, "graph "
		      "topologies are not supported by the Sibyl emulator "
		      "(Cartesian ones are: MPI_Cart_create)");
}

static int no_graph(const char *call, MPI_Comm comm)
{
	EMU_API(r, call);
	emu_comm_get(r, comm, call);
	emu_mpi_error(r, call, MPI_ERR_TOPOLOGY, "%s has no graph topology "
		      "(the Sibyl emulator supports Cartesian topologies "
		      "only)", emu_comm_describe(r, comm));
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *comm_graph)
{
	(void)nnodes;
	(void)index;
	(void)edges;
	(void)reorder;
	(void)comm_graph;
	return no_graph_create("MPI_Graph_create", comm_old);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *comm_dist_graph)
{
	(void)n;
	(void)sources;
	(void)degrees;
	(void)destinations;
	(void)weights;
	(void)info;
	(void)reorder;
	(void)comm_dist_graph;
	return no_graph_create("MPI_Dist_graph_create", comm_old);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph)
{
	(void)indegree;
	(void)sources;
	(void)sourceweights;
	(void)outdegree;
	(void)destinations;
	(void)destweights;
	(void)info;
	(void)reorder;
	(void)comm_dist_graph;
	return no_graph_create("MPI_Dist_graph_create_adjacent", comm_old);
}

int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	(void)nnodes;
	(void)nedges;
	return no_graph("MPI_Graphdims_get", comm);
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[])
{
	(void)maxindex;
	(void)maxedges;
	(void)index;
	(void)edges;
	return no_graph("MPI_Graph_get", comm);
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	(void)rank;
	(void)nneighbors;
	return no_graph("MPI_Graph_neighbors_count", comm);
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[])
{
	(void)rank;
	(void)maxneighbors;
	(void)neighbors;
	return no_graph("MPI_Graph_neighbors", comm);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted)
{
	(void)indegree;
	(void)outdegree;
	(void)weighted;
	return no_graph("MPI_Dist_graph_neighbors_count", comm);
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[])
{
	(void)maxindegree;
	(void)sources;
	(void)sourceweights;
	(void)maxoutdegree;
	(void)destinations;
	(void)destweights;
	return no_graph("MPI_Dist_graph_neighbors", comm);
}
