/*
 * topo_graph.c -- graph and distributed-graph topologies, and the
 * neighbourhood collectives.
 *
 * Graphs over MPI_COMM_WORLD: a ring with chords (node i's neighbours are
 * i-1, i+1, i+h, i-h with h = n/2, so an even ring has repeated edges)
 * over all ranks but the last (which gets MPI_COMM_NULL), and a star
 * whose centre, rank 0, also has a self-loop.  Graph_map, Topo_test,
 * Graphdims_get, Graph_get (whole and cut short), Graph_neighbors_count
 * and Graph_neighbors of every node, against the input; a duplicate keeps
 * the graph.
 *
 * Distributed graphs: MPI_Dist_graph_create where the edges of node s
 * (to s+1, s+3 and 3s+2, weights 1+10s+i) are named by rank 2(s/2)+2,
 * not by s, weighted and MPI_UNWEIGHTED; each rank's sources and
 * destinations with their weights compared, as multisets, with those the
 * edge list gives (and under Sibyl in its documented order: by the rank
 * that named the edge, then its list).  MPI_Dist_graph_create_adjacent:
 * a ring (sources i-1, i+2; destinations i+1, i-2) checked in order,
 * whole and cut short, and a star out of rank 0 whose empty sides pass
 * MPI_WEIGHTS_EMPTY; MPI_UNWEIGHTED.
 *
 * On each of those and on two grids -- periodic in 2 dimensions and
 * non-periodic in 3, from MPI_Dims_create, so that small runs have
 * dimensions of 1 and 2 (a rank its own neighbour, or both neighbours
 * the same rank) and MPI_PROC_NULL neighbours -- every neighbourhood
 * collective, blocking, then the five non-blocking ones at once: each
 * element received is checked against what that neighbour sent for it,
 * blocks of MPI_PROC_NULL neighbours and the gaps between blocks must be
 * left alone.  The v forms have counts of 0 to 3 and displacements in
 * reverse order with gaps; the w forms mix MPI_INT with a resized
 * strided type, differently on both sides (the non-blocking one frees its
 * types before it completes).  What a rank receives from neighbour j of
 * a graph is the block that neighbour sent for the k-th time to it where
 * j is the k-th time it appears in the rank's list; in a grid, the block
 * a rank sends towards -1 in a dimension lands in the slot of +1 at the
 * other end (MPI-4.0's wording of MPI-3.1's rule).
 *
 * Rank 0 prints one line per communicator and collective with the sum of
 * what every rank received, which does not depend on the order of a
 * distributed graph's neighbours: tests/emu_topo_graph.sh compares them
 * with Open MPI's.
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

#define UNTOUCHED (-7)
#define C_AG 3      /* elements of an allgather block */
#define C_A2A 2     /* of an alltoall block */

/* What rank s sends: to all (allgather), in block k (alltoall). */
static int val_all(int s, int e)
{
	return 1 + s * 1000 + e;
}

static int val(int s, int k, int e)
{
	return 1 + s * 100000 + k * 100 + e;
}

/* Counts of the v and w forms: of rank s's allgatherv block, and of its
 * block k. */
static int count_all(int s)
{
	return s % 3;
}

static int count_of(int s, int k)
{
	return (s + 2 * k) % 4;
}

/* A communicator's neighbours as the test sees them. */
typedef struct nbrs {
	char name[64];
	MPI_Comm comm;
	int me, size;
	int indeg, outdeg;
	int *src, *dst;
	int *from;    /* in-slot j: the slot of src[j]'s sends it gets */
	long long sum[10];   /* what arrived, per collective */
} nbrs;

static void nbrs_free(nbrs *n)
{
	free(n->src);
	free(n->dst);
	free(n->from);
	n->src = n->dst = n->from = NULL;
}

/* from[] for a graph or distributed graph: dst_of(q) is rank q's list of
 * destinations (outdeg_of(q) entries). */
static void match_occurrences(emu_test *t, nbrs *n, int **dst_of,
			      const int *outdeg_of)
{
	for (int j = 0; j < n->indeg; j++) {
		int s = n->src[j], o = 0, k;
		for (int i = 0; i < j; i++)
			o += n->src[i] == s;
		for (k = 0; k < outdeg_of[s]; k++)
			if (dst_of[s][k] == n->me && o-- == 0)
				break;
		n->from[j] = k < outdeg_of[s] ? k : -1;
		EMU_TRUE(t, n->from[j] >= 0, "%s: rank %d is source %d of "
			 "rank %d but does not send to it that often",
			 n->name, s, j, n->me);
	}
}

static void nbrs_alloc(emu_test *t, nbrs *n)
{
	MPI_Comm_rank(n->comm, &n->me);
	MPI_Comm_size(n->comm, &n->size);
	n->src = emu_alloc(t, (size_t)n->indeg, sizeof(int));
	n->dst = emu_alloc(t, (size_t)n->outdeg, sizeof(int));
	n->from = emu_alloc(t, (size_t)n->indeg, sizeof(int));
	memset(n->sum, 0, sizeof n->sum);
}

static void nbrs_cart(emu_test *t, nbrs *n)
{
	int nd;
	MPI_Cartdim_get(n->comm, &nd);
	n->indeg = n->outdeg = 2 * nd;
	nbrs_alloc(t, n);
	for (int d = 0; d < nd; d++) {
		MPI_Cart_shift(n->comm, d, 1, &n->src[2 * d],
			       &n->src[2 * d + 1]);
		n->dst[2 * d] = n->src[2 * d];
		n->dst[2 * d + 1] = n->src[2 * d + 1];
		/* Sent towards -1: received from +1. */
		n->from[2 * d] = 2 * d + 1;
		n->from[2 * d + 1] = 2 * d;
	}
}

static void nbrs_graph(emu_test *t, nbrs *n)
{
	int nn, ne;
	MPI_Graphdims_get(n->comm, &nn, &ne);
	MPI_Comm_rank(n->comm, &n->me);
	MPI_Graph_neighbors_count(n->comm, n->me, &n->indeg);
	n->outdeg = n->indeg;
	nbrs_alloc(t, n);
	MPI_Graph_neighbors(n->comm, n->me, n->indeg, n->src);
	memcpy(n->dst, n->src, (size_t)n->indeg * sizeof(int));
	int **dst_of = emu_alloc(t, (size_t)nn, sizeof *dst_of);
	int *deg = emu_alloc(t, (size_t)nn, sizeof *deg);
	for (int q = 0; q < nn; q++) {
		MPI_Graph_neighbors_count(n->comm, q, &deg[q]);
		dst_of[q] = emu_alloc(t, (size_t)deg[q], sizeof(int));
		MPI_Graph_neighbors(n->comm, q, deg[q], dst_of[q]);
	}
	match_occurrences(t, n, dst_of, deg);
	for (int q = 0; q < nn; q++)
		free(dst_of[q]);
	free(dst_of);
	free(deg);
}

/* Every rank's destinations come from MPI_Dist_graph_neighbors on that
 * rank, gathered. */
static void nbrs_dist(emu_test *t, nbrs *n)
{
	int weighted;
	MPI_Dist_graph_neighbors_count(n->comm, &n->indeg, &n->outdeg,
				       &weighted);
	nbrs_alloc(t, n);
	MPI_Dist_graph_neighbors(n->comm, n->indeg, n->src, MPI_UNWEIGHTED,
				 n->outdeg, n->dst, MPI_UNWEIGHTED);
	int P = n->size;
	int *deg = emu_alloc(t, (size_t)P, sizeof *deg);
	int *at = emu_alloc(t, (size_t)P + 1, sizeof *at);
	MPI_Allgather(&n->outdeg, 1, MPI_INT, deg, 1, MPI_INT, n->comm);
	for (int q = 0; q < P; q++)
		at[q + 1] = at[q] + deg[q];
	int *all = emu_alloc(t, (size_t)at[P], sizeof *all);
	MPI_Allgatherv(n->dst, n->outdeg, MPI_INT, all, deg, at, MPI_INT,
		       n->comm);
	int **dst_of = emu_alloc(t, (size_t)P, sizeof *dst_of);
	for (int q = 0; q < P; q++)
		dst_of[q] = all + at[q];
	match_occurrences(t, n, dst_of, deg);
	free(dst_of);
	free(all);
	free(at);
	free(deg);
}

/* ------------------------------------------------ the collectives */

enum { AG, AGV, A2A, A2AV, A2AW, NKINDS };
static const char *const kind_name[NKINDS] = {
	"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"
};

/* One collective's buffers, and what its receive buffer must hold. */
typedef struct xfer {
	int kind;
	int *sb, *rb, *want;
	int rlen;
	int *scounts, *sdispls, *rcounts, *rdispls;
	MPI_Aint *sad, *rad;
	MPI_Datatype *stypes, *rtypes;
	MPI_Datatype stride2;
	MPI_Request rq;
} xfer;

/* Blocks laid out in reverse order, one element apart; `span' is the
 * elements a block of `counts[j]' takes (2c - 1 for the strided type).
 * Returns the length. */
static int layout(int n, const int *counts, const int *strided, int *displs)
{
	int at = 1;
	for (int j = n - 1; j >= 0; j--) {
		int c = counts[j];
		displs[j] = at;
		at += (strided && strided[j] && c) ? 2 * c - 1 : c;
		at++;
	}
	return at;
}

/* The received block j (from src[j]'s block k), where it lies. */
static void want_block(xfer *x, const nbrs *n, int j, int at, int count,
		       int step)
{
	int s = n->src[j];
	if (s == MPI_PROC_NULL)
		return;
	for (int e = 0; e < count; e++)
		x->want[at + e * step] = x->kind <= AGV ?
			val_all(s, e) : val(s, n->from[j], e);
}

static int *filled(emu_test *t, int len, int v)
{
	int *p = emu_alloc(t, (size_t)len, sizeof *p);
	for (int i = 0; i < len; i++)
		p[i] = v;
	return p;
}

static void xfer_prepare(emu_test *t, const nbrs *n, xfer *x, int kind)
{
	int in = n->indeg, out = n->outdeg, me = n->me, slen = 1;
	memset(x, 0, sizeof *x);
	x->kind = kind;
	x->rq = MPI_REQUEST_NULL;
	x->scounts = emu_alloc(t, (size_t)out, sizeof(int));
	x->sdispls = emu_alloc(t, (size_t)out, sizeof(int));
	x->rcounts = emu_alloc(t, (size_t)in, sizeof(int));
	x->rdispls = emu_alloc(t, (size_t)in, sizeof(int));
	int *sstr = emu_alloc(t, (size_t)out, sizeof(int));
	int *rstr = emu_alloc(t, (size_t)in, sizeof(int));
	/* The sizes a PROC_NULL neighbour's block has: any. */
	for (int j = 0; j < in; j++) {
		int s = n->src[j], nul = s == MPI_PROC_NULL;
		x->rcounts[j] = kind == AGV ? (nul ? 2 : count_all(s)) :
			nul ? 2 : count_of(s, n->from[j]);
		rstr[j] = kind == A2AW && j % 2;
	}
	for (int k = 0; k < out; k++) {
		x->scounts[k] = count_of(me, k);
		sstr[k] = kind == A2AW && k % 2 == 0;
	}
	switch (kind) {
	case AG:
		slen = C_AG;
		x->rlen = in * C_AG;
		break;
	case A2A:
		slen = out * C_A2A;
		x->rlen = in * C_A2A;
		break;
	case AGV:
		slen = count_all(me) + 1;
		x->rlen = layout(in, x->rcounts, NULL, x->rdispls);
		break;
	default:
		slen = layout(out, x->scounts, sstr, x->sdispls);
		x->rlen = layout(in, x->rcounts, rstr, x->rdispls);
		break;
	}
	x->sb = filled(t, slen, -1);
	x->rb = filled(t, x->rlen, UNTOUCHED);
	x->want = filled(t, x->rlen, UNTOUCHED);
	/* What goes out. */
	if (kind == AG || kind == AGV) {
		for (int e = 0; e < (kind == AG ? C_AG : count_all(me)); e++)
			x->sb[e] = val_all(me, e);
	} else if (kind == A2A) {
		for (int k = 0; k < out; k++)
			for (int e = 0; e < C_A2A; e++)
				x->sb[k * C_A2A + e] = val(me, k, e);
	} else {
		for (int k = 0; k < out; k++)
			for (int e = 0; e < x->scounts[k]; e++)
				x->sb[x->sdispls[k] + e * (sstr[k] ? 2 : 1)] =
					val(me, k, e);
	}
	/* What must come in. */
	for (int j = 0; j < in; j++) {
		if (kind == AG)
			want_block(x, n, j, j * C_AG, C_AG, 1);
		else if (kind == A2A)
			want_block(x, n, j, j * C_A2A, C_A2A, 1);
		else
			want_block(x, n, j, x->rdispls[j], x->rcounts[j],
				   rstr[j] ? 2 : 1);
	}
	if (kind == A2AW) {
		MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int),
					&x->stride2);
		MPI_Type_commit(&x->stride2);
		x->sad = emu_alloc(t, (size_t)out, sizeof(MPI_Aint));
		x->rad = emu_alloc(t, (size_t)in, sizeof(MPI_Aint));
		x->stypes = emu_alloc(t, (size_t)out, sizeof(MPI_Datatype));
		x->rtypes = emu_alloc(t, (size_t)in, sizeof(MPI_Datatype));
		for (int k = 0; k < out; k++) {
			x->sad[k] = (MPI_Aint)x->sdispls[k] * sizeof(int);
			x->stypes[k] = sstr[k] ? x->stride2 : MPI_INT;
		}
		for (int j = 0; j < in; j++) {
			x->rad[j] = (MPI_Aint)x->rdispls[j] * sizeof(int);
			x->rtypes[j] = rstr[j] ? x->stride2 : MPI_INT;
		}
	}
	free(sstr);
	free(rstr);
}

/* Start (request) or run the collective. */
static void xfer_run(xfer *x, const nbrs *n, MPI_Request *rq)
{
	MPI_Comm c = n->comm;
	int cm = count_all(n->me);
	switch (x->kind) {
	case AG:
		if (rq)
			MPI_Ineighbor_allgather(x->sb, C_AG, MPI_INT, x->rb,
						C_AG, MPI_INT, c, rq);
		else
			MPI_Neighbor_allgather(x->sb, C_AG, MPI_INT, x->rb,
					       C_AG, MPI_INT, c);
		break;
	case AGV:
		if (rq)
			MPI_Ineighbor_allgatherv(x->sb, cm, MPI_INT, x->rb,
						 x->rcounts, x->rdispls,
						 MPI_INT, c, rq);
		else
			MPI_Neighbor_allgatherv(x->sb, cm, MPI_INT, x->rb,
						x->rcounts, x->rdispls,
						MPI_INT, c);
		break;
	case A2A:
		if (rq)
			MPI_Ineighbor_alltoall(x->sb, C_A2A, MPI_INT, x->rb,
					       C_A2A, MPI_INT, c, rq);
		else
			MPI_Neighbor_alltoall(x->sb, C_A2A, MPI_INT, x->rb,
					      C_A2A, MPI_INT, c);
		break;
	case A2AV:
		if (rq)
			MPI_Ineighbor_alltoallv(x->sb, x->scounts, x->sdispls,
						MPI_INT, x->rb, x->rcounts,
						x->rdispls, MPI_INT, c, rq);
		else
			MPI_Neighbor_alltoallv(x->sb, x->scounts, x->sdispls,
					       MPI_INT, x->rb, x->rcounts,
					       x->rdispls, MPI_INT, c);
		break;
	default:
		if (rq)
			MPI_Ineighbor_alltoallw(x->sb, x->scounts, x->sad,
						x->stypes, x->rb, x->rcounts,
						x->rad, x->rtypes, c, rq);
		else
			MPI_Neighbor_alltoallw(x->sb, x->scounts, x->sad,
					       x->stypes, x->rb, x->rcounts,
					       x->rad, x->rtypes, c);
		/* MPI lets a pending collective outlive its types. */
		MPI_Type_free(&x->stride2);
		break;
	}
}

static void xfer_check(emu_test *t, nbrs *n, xfer *x, int nb)
{
	long long sum = 0;
	for (int i = 0; i < x->rlen; i++) {
		sum += x->rb[i] != UNTOUCHED ? x->rb[i] : 0;
		if (!EMU_EQ(t, x->rb[i], x->want[i], "%s: %s%s: element %d "
			    "of the receive buffer", n->name,
			    nb ? "Ineighbor_" : "Neighbor_",
			    kind_name[x->kind], i))
			break;
	}
	n->sum[x->kind + (nb ? NKINDS : 0)] = sum;
	free(x->sb);
	free(x->rb);
	free(x->want);
	free(x->scounts);
	free(x->sdispls);
	free(x->rcounts);
	free(x->rdispls);
	free(x->sad);
	free(x->rad);
	free(x->stypes);
	free(x->rtypes);
}

/* Every collective on n: blocking one by one, then the non-blocking
 * ones together; then rank 0 prints the sums. */
static void collectives(emu_test *t, nbrs *n)
{
	xfer x[NKINDS];
	MPI_Request rq[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		xfer_prepare(t, n, &x[k], k);
		xfer_run(&x[k], n, NULL);
		xfer_check(t, n, &x[k], 0);
	}
	for (int k = 0; k < NKINDS; k++) {
		xfer_prepare(t, n, &x[k], k);
		xfer_run(&x[k], n, &rq[k]);
	}
	MPI_Waitall(NKINDS, rq, MPI_STATUSES_IGNORE);
	for (int k = 0; k < NKINDS; k++)
		xfer_check(t, n, &x[k], 1);
	long long all[2 * NKINDS];
	MPI_Reduce(n->sum, all, 2 * NKINDS, MPI_LONG_LONG, MPI_SUM, 0,
		   n->comm);
	if (n->me == 0)
		for (int k = 0; k < 2 * NKINDS; k++)
			printf("sum %s %s%s %lld\n", n->name,
			       k < NKINDS ? "" : "i",
			       kind_name[k % NKINDS], all[k]);
}

/* ------------------------------------------------------------ grids */

static void grid(emu_test *t, int nd, int periodic)
{
	int dims[3] = { 0, 0, 0 }, periods[3], P = t->size;
	MPI_Dims_create(P, nd, dims);
	for (int i = 0; i < nd; i++)
		periods[i] = periodic;
	nbrs n;
	MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 1, &n.comm);
	snprintf(n.name, sizeof n.name, "%s-grid", periodic ? "periodic" :
		 "open");
	int status = -1;
	MPI_Topo_test(n.comm, &status);
	EMU_EQ(t, status, MPI_CART, "%s: Topo_test", n.name);
	nbrs_cart(t, &n);
	collectives(t, &n);
	nbrs_free(&n);
	MPI_Comm_free(&n.comm);
}

/* ----------------------------------------------------------- graphs */

static void graph_queries(emu_test *t, MPI_Comm g, const char *name,
			  int nnodes, const int *index, const int *edges)
{
	int nn = -1, ne = -1, status = -1, size = -1, rank = -1;
	int total = index[nnodes - 1];
	MPI_Topo_test(g, &status);
	EMU_EQ(t, status, MPI_GRAPH, "%s: Topo_test", name);
	MPI_Comm_size(g, &size);
	MPI_Comm_rank(g, &rank);
	EMU_EQ(t, size, nnodes, "%s: size", name);
	EMU_EQ(t, rank, t->rank, "%s: rank", name);
	MPI_Graphdims_get(g, &nn, &ne);
	EMU_EQ(t, nn, nnodes, "%s: Graphdims_get nnodes", name);
	EMU_EQ(t, ne, total, "%s: Graphdims_get nedges", name);
	int *idx = filled(t, nnodes + 1, UNTOUCHED);
	int *edg = filled(t, total + 1, UNTOUCHED);
	MPI_Graph_get(g, nnodes, total, idx, edg);
	for (int i = 0; i < nnodes; i++)
		EMU_EQ(t, idx[i], index[i], "%s: Graph_get index[%d]", name,
		       i);
	for (int i = 0; i < total; i++)
		EMU_EQ(t, edg[i], edges[i], "%s: Graph_get edges[%d]", name,
		       i);
	/* Cut short: what does not fit is not written. */
	free(idx);
	free(edg);
	idx = filled(t, nnodes + 1, UNTOUCHED);
	edg = filled(t, total + 1, UNTOUCHED);
	MPI_Graph_get(g, nnodes - 1, total - 1, idx, edg);
	EMU_EQ(t, idx[nnodes - 1], UNTOUCHED, "%s: Graph_get maxindex", name);
	EMU_EQ(t, edg[total - 1], UNTOUCHED, "%s: Graph_get maxedges", name);
	if (nnodes > 1)
		EMU_EQ(t, idx[nnodes - 2], index[nnodes - 2], "%s: Graph_get "
		       "cut short", name);
	free(idx);
	free(edg);
	int *nb = emu_alloc(t, (size_t)total + 1, sizeof *nb);
	for (int v = 0; v < nnodes; v++) {
		int first = v ? index[v - 1] : 0, cnt = -1;
		MPI_Graph_neighbors_count(g, v, &cnt);
		EMU_EQ(t, cnt, index[v] - first, "%s: Graph_neighbors_count "
		       "of %d", name, v);
		MPI_Graph_neighbors(g, v, total, nb);
		for (int i = 0; i < index[v] - first; i++)
			EMU_EQ(t, nb[i], edges[first + i], "%s: "
			       "Graph_neighbors of %d [%d]", name, v, i);
	}
	free(nb);
}

static void graph_case(emu_test *t, const char *name, int nnodes,
		       const int *index, const int *edges)
{
	int newrank = -2;
	nbrs n;
	MPI_Graph_map(MPI_COMM_WORLD, nnodes, index, edges, &newrank);
	if (t->rank < nnodes)
		EMU_EQ(t, newrank, t->rank, "%s: Graph_map", name);
#ifdef SIBYL_MPI
	/* Open MPI 4.1 gives the ranks beyond the graph their rank. */
	else
		EMU_EQ(t, newrank, MPI_UNDEFINED, "%s: Graph_map", name);
#endif
	MPI_Graph_create(MPI_COMM_WORLD, nnodes, index, edges, 1, &n.comm);
	if (t->rank >= nnodes) {
		EMU_TRUE(t, n.comm == MPI_COMM_NULL, "%s: rank %d beyond the "
			 "%d nodes got a communicator", name, t->rank, nnodes);
		return;
	}
	if (!EMU_TRUE(t, n.comm != MPI_COMM_NULL, "%s: no communicator",
		      name))
		return;
	snprintf(n.name, sizeof n.name, "%s", name);
	graph_queries(t, n.comm, name, nnodes, index, edges);
	nbrs_graph(t, &n);
	collectives(t, &n);
	nbrs_free(&n);
	/* A duplicate has the graph. */
	nbrs d;
	MPI_Comm_dup(n.comm, &d.comm);
	MPI_Comm_free(&n.comm);
	snprintf(d.name, sizeof d.name, "%s-dup", name);
	graph_queries(t, d.comm, d.name, nnodes, index, edges);
	nbrs_graph(t, &d);
	collectives(t, &d);
	nbrs_free(&d);
	MPI_Comm_free(&d.comm);
}

static void ring_with_chords(emu_test *t)
{
	int n = t->size > 3 ? t->size - 1 : t->size, h = n / 2;
	int *index = emu_alloc(t, (size_t)n, sizeof *index);
	int *edges = emu_alloc(t, 4 * (size_t)n, sizeof *edges);
	for (int i = 0; i < n; i++) {
		int *e = edges + 4 * i;
		e[0] = (i + n - 1) % n;
		e[1] = (i + 1) % n;
		e[2] = (i + h) % n;
		e[3] = (i + n - h) % n;
		index[i] = 4 * (i + 1);
	}
	graph_case(t, "ring-graph", n, index, edges);
	free(index);
	free(edges);
}

static void star(emu_test *t)
{
	int n = t->size;
	int *index = emu_alloc(t, (size_t)n, sizeof *index);
	int *edges = emu_alloc(t, 2 * (size_t)n, sizeof *edges);
	/* The centre: itself, then every other node. */
	for (int i = 0; i < n; i++)
		edges[i] = i;
	index[0] = n;
	for (int i = 1; i < n; i++) {
		edges[n + i - 1] = 0;
		index[i] = n + i;
	}
	graph_case(t, "star-graph", n, index, edges);
	free(index);
	free(edges);
}

/* ------------------------------------------------ distributed graphs */

#define DG_DEG 3

static int dg_dest(int s, int i, int P)
{
	return i == 0 ? (s + 1) % P : i == 1 ? (s + 3) % P : (3 * s + 2) % P;
}

static int dg_weight(int s, int i)
{
	return 1 + 10 * s + i;
}

static int dg_namer(int s, int P)
{
	return (s / 2 * 2 + 2) % P;
}

typedef struct pw {
	int peer, w;
} pw;

static int pw_cmp(const void *a, const void *b)
{
	const pw *x = a, *y = b;
	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	return (x->w > y->w) - (x->w < y->w);
}

/* Got n (peers, weights) where want n2, as multisets, and in order when
 * `ordered'. */
static void same_edges(emu_test *t, const char *what, const int *peers,
		       const int *w, int n, pw *want, int n2, int ordered,
		       int weighted)
{
	if (!EMU_EQ(t, n, n2, "%s: count", what))
		return;
	pw *got = emu_alloc(t, (size_t)n, sizeof *got);
	for (int i = 0; i < n; i++)
		got[i] = (pw){ peers[i], weighted ? w[i] : 0 };
	for (int i = 0; i < n && ordered; i++)
		if (!EMU_TRUE(t, got[i].peer == want[i].peer &&
			      got[i].w == want[i].w, "%s [%d]: (%d, %d) "
			      "where Sibyl's order has (%d, %d)", what, i,
			      got[i].peer, got[i].w, want[i].peer,
			      want[i].w))
			break;
	qsort(got, (size_t)n, sizeof *got, pw_cmp);
	qsort(want, (size_t)n, sizeof *want, pw_cmp);
	for (int i = 0; i < n; i++)
		if (!EMU_TRUE(t, got[i].peer == want[i].peer &&
			      got[i].w == want[i].w, "%s: (%d, %d) where the "
			      "edge list has (%d, %d)", what, got[i].peer,
			      got[i].w, want[i].peer, want[i].w))
			break;
	free(got);
}

static void dist_general(emu_test *t, int weighted)
{
	int P = t->size, me = t->rank, ns = 0;
	int sources[2], degrees[2], dests[2 * DG_DEG], weights[2 * DG_DEG];
	for (int s = 0; s < P; s++) {
		if (dg_namer(s, P) != me)
			continue;
		sources[ns] = s;
		degrees[ns] = DG_DEG;
		for (int i = 0; i < DG_DEG; i++) {
			dests[ns * DG_DEG + i] = dg_dest(s, i, P);
			weights[ns * DG_DEG + i] = dg_weight(s, i);
		}
		ns++;
	}
	nbrs n;
	snprintf(n.name, sizeof n.name, "dist-graph%s",
		 weighted ? "" : "-unweighted");
	MPI_Dist_graph_create(MPI_COMM_WORLD, ns, sources, degrees, dests,
			      weighted ? weights : MPI_UNWEIGHTED,
			      MPI_INFO_NULL, 1, &n.comm);
	int status = -1, in = -1, out = -1, wf = -1;
	MPI_Topo_test(n.comm, &status);
	EMU_EQ(t, status, MPI_DIST_GRAPH, "%s: Topo_test", n.name);
	MPI_Dist_graph_neighbors_count(n.comm, &in, &out, &wf);
	EMU_EQ(t, wf, weighted, "%s: weighted", n.name);
	/* The edge list's, in Sibyl's order: by the rank that named the
	 * edge, then its list. */
	pw *win = emu_alloc(t, (size_t)P * DG_DEG, sizeof *win);
	pw *wout = emu_alloc(t, DG_DEG, sizeof *wout);
	int nin = 0, nout = 0;
	for (int q = 0; q < P; q++)
		for (int s = 0; s < P; s++) {
			if (dg_namer(s, P) != q)
				continue;
			for (int i = 0; i < DG_DEG; i++) {
				int d = dg_dest(s, i, P);
				int w = weighted ? dg_weight(s, i) : 0;
				if (d == me)
					win[nin++] = (pw){ s, w };
				if (s == me)
					wout[nout++] = (pw){ d, w };
			}
		}
	int *src = emu_alloc(t, (size_t)nin, sizeof *src);
	int *sw = emu_alloc(t, (size_t)nin, sizeof *sw);
	int *dst = emu_alloc(t, DG_DEG, sizeof *dst);
	int *dw = emu_alloc(t, DG_DEG, sizeof *dw);
	int ordered = 0;
#ifdef SIBYL_MPI
	ordered = 1;
#endif
	if (EMU_EQ(t, in, nin, "%s: indegree", n.name) &&
	    EMU_EQ(t, out, nout, "%s: outdegree", n.name)) {
		if (weighted)
			MPI_Dist_graph_neighbors(n.comm, in, src, sw, out, dst,
						 dw);
		else
			MPI_Dist_graph_neighbors(n.comm, in, src,
						 MPI_UNWEIGHTED, out, dst,
						 MPI_UNWEIGHTED);
		same_edges(t, "sources", src, sw, in, win, nin, ordered,
			   weighted);
		same_edges(t, "destinations", dst, dw, out, wout, nout,
			   ordered, weighted);
	}
	free(src);
	free(sw);
	free(dst);
	free(dw);
	free(win);
	free(wout);
	nbrs_dist(t, &n);
	collectives(t, &n);
	nbrs_free(&n);
	MPI_Comm_free(&n.comm);
}

static void dist_adjacent_ring(emu_test *t, int weighted)
{
	int P = t->size, me = t->rank;
	int src[2] = { (me + P - 1) % P, (me + 2) % P };
	int dst[2] = { (me + 1) % P, (me + 2 * P - 2) % P };
	int sw[2] = { 100 + src[0], 200 + src[1] };
	int dw[2] = { 100 + me, 200 + me };
	nbrs n;
	snprintf(n.name, sizeof n.name, "adjacent-ring%s",
		 weighted ? "" : "-unweighted");
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src,
				       weighted ? sw : MPI_UNWEIGHTED, 2, dst,
				       weighted ? dw : MPI_UNWEIGHTED,
				       MPI_INFO_NULL, 0, &n.comm);
	int status = -1, in = -1, out = -1, wf = -1;
	MPI_Topo_test(n.comm, &status);
	EMU_EQ(t, status, MPI_DIST_GRAPH, "%s: Topo_test", n.name);
	MPI_Dist_graph_neighbors_count(n.comm, &in, &out, &wf);
	EMU_EQ(t, in, 2, "%s: indegree", n.name);
	EMU_EQ(t, out, 2, "%s: outdegree", n.name);
	EMU_EQ(t, wf, weighted, "%s: weighted", n.name);
	int gs[3], gsw[3], gd[3], gdw[3];
	for (int i = 0; i < 3; i++)
		gs[i] = gsw[i] = gd[i] = gdw[i] = UNTOUCHED;
	if (weighted) {
		MPI_Dist_graph_neighbors(n.comm, 2, gs, gsw, 2, gd, gdw);
		for (int i = 0; i < 2; i++) {
			EMU_EQ(t, gsw[i], sw[i], "%s: sourceweights[%d]",
			       n.name, i);
			EMU_EQ(t, gdw[i], dw[i], "%s: destweights[%d]",
			       n.name, i);
		}
	} else {
		MPI_Dist_graph_neighbors(n.comm, 2, gs, MPI_UNWEIGHTED, 2, gd,
					 MPI_UNWEIGHTED);
	}
	for (int i = 0; i < 2; i++) {
		EMU_EQ(t, gs[i], src[i], "%s: sources[%d]", n.name, i);
		EMU_EQ(t, gd[i], dst[i], "%s: destinations[%d]", n.name, i);
	}
	EMU_EQ(t, gs[2], UNTOUCHED, "%s: sources[2] written", n.name);
	/* Cut short. */
	for (int i = 0; i < 3; i++)
		gs[i] = gsw[i] = gd[i] = gdw[i] = UNTOUCHED;
	MPI_Dist_graph_neighbors(n.comm, 1, gs, weighted ? gsw :
				 MPI_UNWEIGHTED, 0, gd, weighted ? gdw :
				 MPI_UNWEIGHTED);
	EMU_EQ(t, gs[0], src[0], "%s: maxindegree 1: sources[0]", n.name);
	EMU_EQ(t, gs[1], UNTOUCHED, "%s: maxindegree 1: sources[1]", n.name);
	EMU_EQ(t, gd[0], UNTOUCHED, "%s: maxoutdegree 0", n.name);
	if (weighted)
		EMU_EQ(t, gsw[1], UNTOUCHED, "%s: maxindegree 1: weights[1]",
		       n.name);
	nbrs_dist(t, &n);
	collectives(t, &n);
	nbrs_free(&n);
	MPI_Comm_free(&n.comm);
}

/* Rank 0 sends to every other; the empty sides pass MPI_WEIGHTS_EMPTY. */
static void dist_adjacent_star(emu_test *t)
{
	int P = t->size, me = t->rank, zero = 0, none = -1;
	int *d = emu_alloc(t, (size_t)P, sizeof *d);
	int *w = emu_alloc(t, (size_t)P, sizeof *w);
	for (int i = 1; i < P; i++) {
		d[i - 1] = i;
		w[i - 1] = i;
	}
	nbrs n;
	snprintf(n.name, sizeof n.name, "adjacent-star");
	if (me == 0)
		MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, &none,
					       MPI_WEIGHTS_EMPTY, P - 1, d, w,
					       MPI_INFO_NULL, 0, &n.comm);
	else
		MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &zero,
					       &me, 0, &none,
					       MPI_WEIGHTS_EMPTY,
					       MPI_INFO_NULL, 0, &n.comm);
	int in = -1, out = -1, wf = -1;
	MPI_Dist_graph_neighbors_count(n.comm, &in, &out, &wf);
	EMU_EQ(t, in, me ? 1 : 0, "%s: indegree", n.name);
	EMU_EQ(t, out, me ? 0 : P - 1, "%s: outdegree", n.name);
	EMU_EQ(t, wf, 1, "%s: weighted", n.name);
	if (me) {
		int s = -1, sw = -1;
		MPI_Dist_graph_neighbors(n.comm, 1, &s, &sw, 0, &none,
					 MPI_WEIGHTS_EMPTY);
		EMU_EQ(t, s, 0, "%s: source", n.name);
		EMU_EQ(t, sw, me, "%s: source weight", n.name);
	}
	nbrs_dist(t, &n);
	collectives(t, &n);
	nbrs_free(&n);
	MPI_Comm_free(&n.comm);
	free(d);
	free(w);
}

/* --------------------------------------------------------- errors */

#ifdef SIBYL_MPI
static void expect_class(emu_test *t, int rc, int want, const char *what)
{
	int cls = rc;
	MPI_Error_class(rc, &cls);
	EMU_EQ(t, cls, want, "%s: error class", what);
}

static void errors(emu_test *t)
{
	int x[4] = { 0, 0, 0, 0 }, y[4], P = t->size, n, m, w;
	MPI_Comm c, dup;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	expect_class(t, MPI_Neighbor_allgather(x, 1, MPI_INT, y, 1, MPI_INT,
					       dup), MPI_ERR_TOPOLOGY,
		     "Neighbor_allgather without a topology");
	expect_class(t, MPI_Graphdims_get(dup, &n, &m), MPI_ERR_TOPOLOGY,
		     "Graphdims_get without a topology");
	expect_class(t, MPI_Graph_create(dup, 2, (int[]){ 1, 2 },
					 (int[]){ 1, 5 }, 0, &c),
		     MPI_ERR_ARG, "Graph_create with edge 5 of 2 nodes");
	expect_class(t, MPI_Graph_create(dup, P + 1, x, x, 0, &c),
		     MPI_ERR_ARG, "Graph_create with more nodes than ranks");
	expect_class(t, MPI_Dist_graph_create_adjacent(dup, 1, (int[]){ P },
						       MPI_UNWEIGHTED, 0, x,
						       MPI_UNWEIGHTED,
						       MPI_INFO_NULL, 0, &c),
		     MPI_ERR_RANK, "Dist_graph_create_adjacent with source P");
	expect_class(t, MPI_Dist_graph_create(dup, 1, (int[]){ 0 },
					      (int[]){ 1 }, (int[]){ 0 },
					      (int[]){ -3 }, MPI_INFO_NULL,
					      0, &c),
		     MPI_ERR_ARG, "Dist_graph_create with a negative weight");
	/* A graph is not a distributed graph nor a grid. */
	int *none = emu_alloc(t, (size_t)P, sizeof *none);
	MPI_Graph_create(dup, P, none, x, 0, &c);
	free(none);
	expect_class(t, MPI_Dist_graph_neighbors_count(c, &n, &m, &w),
		     MPI_ERR_TOPOLOGY, "Dist_graph_neighbors_count of a graph");
	expect_class(t, MPI_Cartdim_get(c, &n), MPI_ERR_TOPOLOGY,
		     "Cartdim_get of a graph");
	expect_class(t, MPI_Neighbor_alltoall(MPI_IN_PLACE, 0, MPI_INT, y, 0,
					      MPI_INT, c), MPI_ERR_ARG,
		     "Neighbor_alltoall in place");
	MPI_Comm_free(&c);
	MPI_Comm_free(&dup);
}
#endif

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "topo_graph", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int status = -1;
	MPI_Topo_test(MPI_COMM_WORLD, &status);
	EMU_EQ(&t, status, MPI_UNDEFINED, "Topo_test of MPI_COMM_WORLD");
	grid(&t, 2, 1);
	grid(&t, 3, 0);
	ring_with_chords(&t);
	star(&t);
	dist_general(&t, 1);
	dist_general(&t, 0);
	dist_adjacent_ring(&t, 1);
	dist_adjacent_ring(&t, 0);
	dist_adjacent_star(&t);
#ifdef SIBYL_MPI
	errors(&t);
#endif
	return emu_finish(&t);
}
