/*
 * stencil3d.c -- 3D 7-point Jacobi stencil on a 3D process grid.
 *
 * Usage: stencil3d [-n N] [-i ITERS] [-r K] [-p] [-g PXxPYxPZ]
 *                  [-d [-f BYTES]] [-h]
 *   -n N      each rank's block is N x N x N doubles (default 32; the
 *             thesis' mapping study used 256: faces of 512 KiB)
 *   -i ITERS  Jacobi iterations (default 10)
 *   -r K      residual (an MPI_Allreduce) every K iterations and after
 *             the last one (default 1)
 *   -p        periodic boundaries (default: the value 0 beyond the
 *             global grid, and no messages there: MPI_PROC_NULL)
 *   -g PXxPYxPZ  the process grid (default: MPI_Dims_create; a 0 lets it
 *             choose that dimension, e.g. 0x0x1)
 *   -d        declared mode: nothing is allocated but the faces, the
 *             sweep is not computed but declared (8 N^3 flops per
 *             iteration, sibyl_compute_flops(); natively a busy loop at
 *             1 Gflop/s), and the faces carry pseudo-random data
 *   -f BYTES  with -d: the size of each face message (default 8 N^2, the
 *             real face); small faces let a large run fit in memory
 *   -h        print this usage and exit
 *
 * The thesis' stencil (section 6): every rank owns an N^3 block of the
 * global grid (process grid from MPI_Dims_create + MPI_Cart_create, rank
 * order kept), and every iteration exchanges its six faces with its
 * neighbours (MPI_Cart_shift): six MPI_Irecv into the ghost layers, six
 * MPI_Isend straight from the block, MPI_Waitall.  Faces are not
 * contiguous: the x faces are an MPI_Type_vector of N rows, the y faces a
 * vector of N rows with the stride of a plane, and the z faces (one double
 * per row) an MPI_Type_create_hvector over planes of a vector over rows.
 * Then the Jacobi sweep u' = (sum of the 6 neighbours) / 6 over the block
 * (the SEB "stencil_compute"), and every K iterations the residual
 * max |u' - u|, an MPI_Allreduce(MPI_MAX).
 *
 * The initial grid is a hash of each point's global coordinates, so the
 * computation does not depend on the decomposition: 8 ranks with -n 4 and
 * 1 rank with -n 8 compute the same 8x8x8 grid bit for bit, and print the
 * same residual and checksum (the maximum and the checksum, a sum of
 * per-point hashes, do not depend on the order of the reduction either).
 *
 * For large emulations use -d with small faces, e.g. 262,144 virtual
 * ranks on 2 processes: `stencil3d -d -n 256 -f 64' (the program's own
 * data is then under a KiB per rank).
 *
 * Rank 0 prints, and nothing else prints:
 *   stencil3d: ranks=R procs=PXxPYxPZ n=N grid=GXxGYxGZ periodic=P
 *              iters=I residual_every=K residual=... checksum=0x...
 * (one line; with -d "declared face_bytes=F" instead of the residual)
 *   time: iter_us=... total_s=...
 * The first line is deterministic (the same natively and emulated); the
 * "time:" line is the measured (or, emulated, the virtual) time on rank 0.
 * Under sibylcc rank 0 also marks where the timed region begins and ends
 * (sibyl_print "timed: begin" and "timed: end"), so that `sibyl sim'
 * predicts the same region (prints.txt; bench/validate.py).
 */
#include <mpi.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

static const char usage[] =
	"usage: stencil3d [-n N] [-i ITERS] [-r K] [-p] [-g PXxPYxPZ] "
	"[-d [-f BYTES]] [-h]\n"
	"  -n N      block of N^3 doubles per rank (default 32)\n"
	"  -i ITERS  iterations (default 10)\n"
	"  -r K      residual allreduce every K iterations (default 1)\n"
	"  -p        periodic boundaries\n"
	"  -g PXxPYxPZ  process grid (default: MPI_Dims_create)\n"
	"  -d        declared mode: compute declared, faces only\n"
	"  -f BYTES  with -d: bytes per face message (default 8 N^2)\n"
	"  -h        print this usage\n";

struct opts {
	long n, iters, every, face;
	int periodic, declared;
	int dims[3];
};

/* Parse a decimal in [min, max] into *v; 0 on success. */
static int get_long(const char *s, long min, long max, long *v)
{
	char *end;
	if (!s)
		return -1;
	errno = 0;
	long x = strtol(s, &end, 10);
	if (errno || end == s || *end || x < min || x > max)
		return -1;
	*v = x;
	return 0;
}

/* "AxBxC" with each in 0..max. */
static int get_grid(const char *s, int dims[3])
{
	char *end;
	for (int d = 0; d < 3; d++) {
		if (!s || *s < '0' || *s > '9')
			return -1;
		long x = strtol(s, &end, 10);
		if (x > 1 << 24 || *end != (d < 2 ? 'x' : '\0'))
			return -1;
		dims[d] = (int)x;
		s = end + 1;
	}
	return 0;
}

/* 0: run, 1: -h, -1: error (message in err). */
static int parse(int argc, char **argv, struct opts *o, char *err,
		 size_t len)
{
	*o = (struct opts){ .n = 32, .iters = 10, .every = 1, .face = -1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		if (!strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "-p")) {
			o->periodic = 1;
		} else if (!strcmp(a, "-d")) {
			o->declared = 1;
		} else if (!strcmp(a, "-n")) {
			bad = get_long(v, 1, 1 << 20, &o->n), i++;
		} else if (!strcmp(a, "-i")) {
			bad = get_long(v, 1, 1L << 40, &o->iters), i++;
		} else if (!strcmp(a, "-r")) {
			bad = get_long(v, 1, 1L << 40, &o->every), i++;
		} else if (!strcmp(a, "-f")) {
			bad = get_long(v, 0, 1L << 30, &o->face), i++;
		} else if (!strcmp(a, "-g")) {
			bad = get_grid(v, o->dims), i++;
		} else {
			snprintf(err, len, "unknown argument '%s'", a);
			return -1;
		}
		if (bad) {
			snprintf(err, len, "bad or missing value for %s%s%s", a,
				 v ? ": " : "", v ? v : "");
			return -1;
		}
	}
	if (o->face >= 0 && !o->declared) {
		snprintf(err, len, "-f (face bytes) needs -d (declared mode)");
		return -1;
	}
	if (!o->declared && o->n > 1024) {
		snprintf(err, len, "-n %ld: a block of %ld^3 doubles is too "
			 "large to compute; use -d", o->n, o->n);
		return -1;
	}
	if (o->declared && o->face < 0 && 8 * o->n * o->n > 1L << 30) {
		snprintf(err, len, "-n %ld: faces of 8 N^2 bytes exceed 1 GiB; "
			 "give -f", o->n);
		return -1;
	}
	if (o->face < 0)
		o->face = 8 * o->n * o->n;
	return 0;
}

/* Declared computation: `flops' floating-point operations, not executed
 * (natively a busy loop at 1 Gflop/s, the emulator's default rate). */
static void declare_flops(double flops)
{
#ifdef SIBYL_MPI
	sibyl_compute_flops(flops);
#else
	double end = MPI_Wtime() + flops * 1e-9;
	while (MPI_Wtime() < end)
		;
#endif
}

static void seb_name(const char *name)
{
#ifdef SIBYL_MPI
	sibyl_seb_name(name);
#else
	(void)name;
#endif
}

/* Rank 0 marks the edges of the timed region for `sibyl sim', whose
 * prints.txt then gives their predicted times ("timed: begin", "timed:
 * end"): the region the "time:" line measures natively. */
static void timed(int rank, const char *edge)
{
#ifdef SIBYL_MPI
	if (rank == 0)
		sibyl_print("timed: %s", edge);
#else
	(void)rank;
	(void)edge;
#endif
}

static uint64_t mix(uint64_t x, uint64_t v)
{
	x ^= v + 0x9e3779b97f4a7c15ull + (x << 6) + (x >> 2);
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 31);
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, long n)
{
	for (long i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Fill `n' bytes from a xorshift64* stream seeded with `seed'. */
static void fill(unsigned char *p, long n, uint64_t seed)
{
	uint64_t x = seed | 1;
	for (long i = 0; i < n; i += 8) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		uint64_t v = x * 0x2545f4914f6cdd1dull;
		memcpy(p + i, &v, n - i < 8 ? (size_t)(n - i) : 8);
	}
}

static uint64_t dbits(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b;
}

/* The block with its ghost layers: (n+2)^3 doubles, z fastest. */
struct grid {
	long n, s;          /* s = n + 2 */
	double *u, *v;      /* current and next */
	MPI_Datatype face[3];
	long g0[3];         /* global coordinates of point (1,1,1) */
	long gn[3];         /* global grid */
};

static long at(const struct grid *g, long i, long j, long k)
{
	return (i * g->s + j) * g->s + k;
}

/* First element of plane `p' (0..n+1) of dimension d. */
static long plane(const struct grid *g, int d, long p)
{
	return d == 0 ? at(g, p, 1, 1) : d == 1 ? at(g, 1, p, 1)
					       : at(g, 1, 1, p);
}

static void grid_types(struct grid *g)
{
	int n = (int)g->n, s = (int)g->s;
	MPI_Datatype row;
	/* x face: n rows of n doubles, a row apart */
	MPI_Type_vector(n, n, s, MPI_DOUBLE, &g->face[0]);
	/* y face: n rows of n doubles, a plane apart */
	MPI_Type_vector(n, n, s * s, MPI_DOUBLE, &g->face[1]);
	/* z face: one double per row, n rows, then n planes (in bytes) */
	MPI_Type_vector(n, 1, s, MPI_DOUBLE, &row);
	MPI_Type_create_hvector(n, 1, (MPI_Aint)s * s * sizeof(double), row,
				&g->face[2]);
	MPI_Type_free(&row);
	for (int d = 0; d < 3; d++)
		MPI_Type_commit(&g->face[d]);
}

/* A point's initial value: a hash of its global index, in [0, 1). */
static double initial(const struct grid *g, long i, long j, long k)
{
	uint64_t x = (uint64_t)((g->g0[0] + i - 1) * g->gn[1] + g->g0[1] + j -
				1) * (uint64_t)g->gn[2] +
		     (uint64_t)(g->g0[2] + k - 1);
	return (double)(mix(0x5eed, x) >> 11) * 0x1p-53;
}

/* One Jacobi sweep u -> v over the interior; returns max |v - u| when
 * `residual', else 0. */
static double sweep(struct grid *g, int residual)
{
	const double *u = g->u;
	double *v = g->v, r = 0;
	long n = g->n, di = g->s * g->s, dj = g->s;
	for (long i = 1; i <= n; i++)
		for (long j = 1; j <= n; j++) {
			long c = at(g, i, j, 1);
			for (long k = 0; k < n; k++, c++) {
				double x = u[c - di] + u[c + di] + u[c - dj] +
					   u[c + dj] + u[c - 1] + u[c + 1];
				v[c] = x * (1.0 / 6.0);
				if (residual && fabs(v[c] - u[c]) > r)
					r = fabs(v[c] - u[c]);
			}
		}
	return r;
}

/* This rank's share of the checksum: per-point hashes of (global index,
 * value), summed so the order of points and ranks does not matter. */
static uint64_t grid_sum(const struct grid *g)
{
	uint64_t sum = 0;
	for (long i = 1; i <= g->n; i++)
		for (long j = 1; j <= g->n; j++)
			for (long k = 1; k <= g->n; k++) {
				uint64_t x = (uint64_t)((g->g0[0] + i - 1) *
							g->gn[1] + g->g0[1] +
							j - 1) *
						     (uint64_t)g->gn[2] +
					     (uint64_t)(g->g0[2] + k - 1);
				sum += mix(x, dbits(g->u[at(g, i, j, k)]));
			}
	return sum;
}

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	struct opts o;
	char err[200];
	int st = parse(argc, argv, &o, err, sizeof err);
	if (st == 0) {
		long prod = 1;
		for (int d = 0; d < 3; d++)
			prod *= o.dims[d] ? o.dims[d] : 1;
		if (size % prod) {
			snprintf(err, sizeof err, "-g %dx%dx%d does not divide "
				 "%d ranks", o.dims[0], o.dims[1], o.dims[2],
				 size);
			st = -1;
		} else if (o.dims[0] && o.dims[1] && o.dims[2] &&
			   prod != size) {
			snprintf(err, sizeof err, "-g %dx%dx%d is not %d ranks",
				 o.dims[0], o.dims[1], o.dims[2], size);
			st = -1;
		}
	}
	if (st) {
		if (rank == 0 && st < 0)
			fprintf(stderr, "stencil3d: %s\n%s", err, usage);
		else if (rank == 0)
			fputs(usage, stdout);
		MPI_Finalize();
		return st < 0 ? 2 : 0;
	}

	int dims[3] = { o.dims[0], o.dims[1], o.dims[2] }, coords[3];
	int periods[3] = { o.periodic, o.periodic, o.periodic };
	MPI_Comm cart;
	MPI_Dims_create(size, 3, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
	MPI_Cart_coords(cart, rank, 3, coords);
	int lo[3], hi[3];
	for (int d = 0; d < 3; d++)
		MPI_Cart_shift(cart, d, 1, &lo[d], &hi[d]);

	struct grid g = { .n = o.n, .s = o.n + 2 };
	for (int d = 0; d < 3; d++) {
		g.g0[d] = coords[d] * o.n;
		g.gn[d] = dims[d] * o.n;
	}
	unsigned char *fbuf = NULL;  /* declared: 6 send + 6 receive faces */
	size_t fsz = o.face > 0 ? (size_t)o.face : 1;
	uint64_t state = mix(0x57e9c11, (uint64_t)rank);
	if (o.declared) {
		fbuf = calloc(12, fsz);
		if (!fbuf)
			MPI_Abort(MPI_COMM_WORLD, 2);
	} else {
		size_t pts = (size_t)g.s * g.s * g.s;
		g.u = calloc(pts, sizeof *g.u);
		g.v = calloc(pts, sizeof *g.v);
		if (!g.u || !g.v) {
			fprintf(stderr, "stencil3d: rank %d: no memory for 2 x "
				"%zu doubles\n", rank, pts);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		for (long i = 1; i <= o.n; i++)
			for (long j = 1; j <= o.n; j++)
				for (long k = 1; k <= o.n; k++)
					g.u[at(&g, i, j, k)] =
						initial(&g, i, j, k);
		grid_types(&g);
	}

	double residual = 0, t0 = MPI_Wtime();
	timed(rank, "begin");
	MPI_Request req[12];
	for (long it = 0; it < o.iters; it++) {
#ifdef SIBYL_MPI
		sibyl_iteration(it);
#endif
		int nr = 0;
		/* The message going towards +d has tag 2d, towards -d 2d+1:
		 * with 2 ranks along d, or periodic with 1, both neighbours
		 * are the same rank. */
		for (int d = 0; d < 3; d++) {
			if (o.declared) {
				MPI_Irecv(fbuf + (6 + 2 * d) * fsz,
					  (int)o.face, MPI_BYTE, lo[d], 2 * d,
					  cart, &req[nr++]);
				MPI_Irecv(fbuf + (7 + 2 * d) * fsz,
					  (int)o.face, MPI_BYTE, hi[d],
					  2 * d + 1, cart, &req[nr++]);
			} else {
				MPI_Irecv(g.u + plane(&g, d, 0), 1, g.face[d],
					  lo[d], 2 * d, cart, &req[nr++]);
				MPI_Irecv(g.u + plane(&g, d, o.n + 1), 1,
					  g.face[d], hi[d], 2 * d + 1, cart,
					  &req[nr++]);
			}
		}
		for (int d = 0; d < 3; d++) {
			if (o.declared) {
				unsigned char *s = fbuf + 2 * d * fsz;
				fill(s, o.face, mix(state, (uint64_t)(2 * d)));
				fill(s + fsz, o.face,
				     mix(state, (uint64_t)(2 * d + 1)));
				MPI_Isend(s, (int)o.face, MPI_BYTE, hi[d],
					  2 * d, cart, &req[nr++]);
				MPI_Isend(s + fsz, (int)o.face, MPI_BYTE,
					  lo[d], 2 * d + 1, cart, &req[nr++]);
			} else {
				MPI_Isend(g.u + plane(&g, d, o.n), 1,
					  g.face[d], hi[d], 2 * d, cart,
					  &req[nr++]);
				MPI_Isend(g.u + plane(&g, d, 1), 1, g.face[d],
					  lo[d], 2 * d + 1, cart, &req[nr++]);
			}
		}
		MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);

		seb_name("stencil_compute");
		int res = (it + 1) % o.every == 0 || it == o.iters - 1;
		double r;
		if (o.declared) {
			declare_flops(8.0 * o.n * o.n * o.n);
			state = fnv1a(state, fbuf + 6 * fsz, 6 * o.face);
			r = (double)(state >> 11) * 0x1p-53;
		} else {
			r = sweep(&g, res);
			double *t = g.u;
			g.u = g.v;
			g.v = t;
		}
		if (res) {
			MPI_Allreduce(&r, &residual, 1, MPI_DOUBLE, MPI_MAX,
				      cart);
			if (o.declared)
				state = mix(state, dbits(residual));
		}
	}
	double t1 = MPI_Wtime();
	timed(rank, "end");

	uint64_t mine = o.declared ? mix((uint64_t)rank, state) : grid_sum(&g);
	uint64_t sum = 0;
	MPI_Reduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, cart);
	if (rank == 0) {
		printf("stencil3d: ranks=%d procs=%dx%dx%d n=%ld "
		       "grid=%ldx%ldx%ld periodic=%d iters=%ld "
		       "residual_every=%ld ", size,
		       dims[0], dims[1], dims[2], o.n, g.gn[0], g.gn[1],
		       g.gn[2], o.periodic, o.iters, o.every);
		if (o.declared)
			printf("declared face_bytes=%ld", o.face);
		else
			printf("residual=%.17g", residual);
		printf(" checksum=0x%016llx\n", (unsigned long long)sum);
		printf("time: iter_us=%.3f total_s=%.6f\n",
		       (t1 - t0) / (double)o.iters * 1e6, t1 - t0);
	}
	if (!o.declared)
		for (int d = 0; d < 3; d++)
			MPI_Type_free(&g.face[d]);
	MPI_Comm_free(&cart);
	free(g.u);
	free(g.v);
	free(fbuf);
	MPI_Finalize();
	return 0;
}
