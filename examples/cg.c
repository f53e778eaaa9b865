/*
 * cg.c -- conjugate gradient on a 4D (or 3D) lattice, in the style of
 * MILC's su3_rmd solver.
 *
 * Usage: cg [-l LxLyLz[xLt]] [-c NC] [-m MASS] [-i ITERS] [-t TOL]
 *           [-g PxQxR[xS]] [-d [-f BYTES]] [-h]
 *   -l LxLyLzxLt  each rank's local lattice, 1 to 4 dimensions (default
 *             4x4x4x4; the thesis' MILC runs had 4x4x3x6 per core)
 *   -c NC     doubles per site (default 6: one complex 3-vector, as
 *             MILC's su3_vector)
 *   -m MASS   mass term of the operator (default 0.1)
 *   -i ITERS  CG iterations (default 20); with -t, the most it may take
 *   -t TOL    stop once |r| / |b| <= TOL (default: run ITERS)
 *   -g PxQxRxS  the process grid, as many dimensions as -l (default:
 *             MPI_Dims_create; a 0 lets it choose that dimension)
 *   -d        declared mode: no vectors, the arithmetic is declared
 *             (sibyl_compute_flops(); natively a busy loop at 1 Gflop/s)
 *             and the halos carry pseudo-random data; not with -t
 *   -f BYTES  with -d: the size of every halo message (default: the real
 *             face, NC x 8 bytes per site of the face)
 *   -h        print this usage and exit
 *
 * The operator is MILC-like in its communication: A = m^2 + a
 * nearest-neighbour hopping term in every dimension, on a periodic
 * lattice (MPI_Dims_create, MPI_Cart_create, MPI_Cart_shift):
 *   (A p)(x) = (m^2 + sum_mu (c_mu(x) + c_mu(x-mu))) p(x)
 *              - sum_mu (c_mu(x) p(x+mu) + c_mu(x-mu) p(x-mu))
 * with link weights c_mu(x) in [0.5, 1.5) from a hash of the link (a
 * weighted lattice Laplacian plus m^2: symmetric positive definite).  Each
 * product gathers the neighbours' faces first: 2 x dims MPI_Irecv, pack,
 * 2 x dims MPI_Isend, MPI_Waitall (the SEB "cg_halo" packs, "cg_matvec"
 * applies A).  Each CG iteration then makes MILC's two global sums, p.Ap
 * and r.r, each one MPI_Allreduce, between them the vector updates
 * ("cg_update").  The right-hand side is a hash of each site; x starts 0.
 *
 * Global sums: floating-point sums in a different order differ in their
 * last bits, and an MPI library's allreduce order is its own (natively and
 * emulated they differ, and so would the whole run after the first one).
 * So every site's contribution is rounded to a multiple of 2^-62 times
 * the sum's expected size (the previous r.r) and the sum is made in
 * integers, two 64-bit limbs (MPI_UINT64_T, MPI_SUM: 16 bytes where
 * MILC's sum of a double has 8): exact in any order.  The rounding keeps 62 bits
 * below the expected size, far more than CG needs.  The whole computation
 * is then independent of the order of the sums and of the decomposition:
 * 16 ranks with -l 2x2x2x2 and 1 rank with -l 4x4x4x4 solve the same
 * 4x4x4x4 lattice and print the same residuals and checksum.
 *
 * For large emulations use -d with small halos, e.g. 262,144 virtual
 * ranks on 2 processes: `cg -d -l 4x4x3x6 -f 64'.
 *
 * Rank 0 prints, and nothing else prints:
 *   cg: ranks=R procs=PxQxRxS local=LxLyLzxLt lattice=GxGxGxG nc=NC
 *       mass=M iters=K residual=... true_residual=... checksum=0x...
 * (one line; iters is how many were made; residual is |r| / |b| from the
 * recursion, true_residual |b - Ax| / |b| computed afresh; checksum a
 * hash of x; with -d "declared halo_bytes=B", the bytes a rank sends per
 * product, instead of the residuals),
 * then
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

#define MAXD 4

static const char usage[] =
	"usage: cg [-l LxLyLz[xLt]] [-c NC] [-m MASS] [-i ITERS] [-t TOL]\n"
	"          [-g PxQxR[xS]] [-d [-f BYTES]] [-h]\n"
	"  -l L...   local lattice per rank, 1-4 dims (default 4x4x4x4)\n"
	"  -c NC     doubles per site (default 6)\n"
	"  -m MASS   mass (default 0.1)\n"
	"  -i ITERS  iterations, or the maximum with -t (default 20)\n"
	"  -t TOL    stop at |r|/|b| <= TOL\n"
	"  -g P...   process grid (default: MPI_Dims_create)\n"
	"  -d        declared mode: arithmetic declared, halos only\n"
	"  -f BYTES  with -d: bytes per halo message (default: real face)\n"
	"  -h        print this usage\n";

struct opts {
	int nd, L[MAXD], dims[MAXD], gnd;
	long nc, iters, face;
	double mass, tol;
	int declared;
};

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

static int get_double(const char *s, double min, double max, double *v)
{
	char *end;
	if (!s)
		return -1;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || end == s || *end || !(x >= min && x <= max))
		return -1;
	*v = x;
	return 0;
}

/* "AxBxC..." with 1 to MAXD numbers in [min, max]; their count in *nd. */
static int get_dims(const char *s, int min, int max, int *v, int *nd)
{
	char *end;
	for (*nd = 0; s && *nd < MAXD; s = end + 1) {
		if (*s < '0' || *s > '9')
			return -1;
		long x = strtol(s, &end, 10);
		if (x < min || x > max)
			return -1;
		v[(*nd)++] = (int)x;
		if (*end == '\0')
			return 0;
		if (*end != 'x')
			return -1;
	}
	return -1;
}

/* 0: run, 1: -h, -1: error (message in err). */
static int parse(int argc, char **argv, struct opts *o, char *err,
		 size_t len)
{
	*o = (struct opts){ .nd = 4, .L = { 4, 4, 4, 4 }, .nc = 6,
			    .iters = 20, .face = -1, .mass = 0.1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		if (!strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "-d")) {
			o->declared = 1;
		} else if (!strcmp(a, "-l")) {
			bad = get_dims(v, 1, 1 << 16, o->L, &o->nd), i++;
		} else if (!strcmp(a, "-g")) {
			bad = get_dims(v, 0, 1 << 24, o->dims, &o->gnd), i++;
		} else if (!strcmp(a, "-c")) {
			bad = get_long(v, 1, 1 << 16, &o->nc), i++;
		} else if (!strcmp(a, "-i")) {
			bad = get_long(v, 1, 1L << 40, &o->iters), i++;
		} else if (!strcmp(a, "-f")) {
			bad = get_long(v, 0, 1L << 30, &o->face), i++;
		} else if (!strcmp(a, "-m")) {
			bad = get_double(v, 1e-6, 1e6, &o->mass), i++;
		} else if (!strcmp(a, "-t")) {
			bad = get_double(v, 1e-15, 1, &o->tol), i++;
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
	if (o->gnd && o->gnd != o->nd) {
		snprintf(err, len, "-g has %d dimensions, the lattice %d",
			 o->gnd, o->nd);
		return -1;
	}
	if (o->face >= 0 && !o->declared) {
		snprintf(err, len, "-f (halo bytes) needs -d (declared mode)");
		return -1;
	}
	if (o->tol > 0 && o->declared) {
		snprintf(err, len, "-t (tolerance) needs the real computation: "
			 "not with -d");
		return -1;
	}
	double v = (double)o->nc;
	for (int d = 0; d < o->nd; d++)
		v *= o->L[d];
	if (v * 8 > (o->declared ? 1L << 36 : 1L << 30)) {
		snprintf(err, len, "a local lattice of %.0f values is too "
			 "large", v);
		return -1;
	}
	return 0;
}

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

static uint64_t dbits(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof b);
	return b;
}

static double unit(uint64_t h)  /* [0, 1) */
{
	return (double)(h >> 11) * 0x1p-53;
}

static void fill(unsigned char *p, long n, uint64_t x)
{
	x |= 1;
	for (long i = 0; i < n; i += 8) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		uint64_t v = x * 0x2545f4914f6cdd1dull;
		memcpy(p + i, &v, n - i < 8 ? (size_t)(n - i) : 8);
	}
}

/*
 * Exact global sums.  Each value v is rounded to an integer multiple X of
 * q = 2^e and X is kept as hi * 2^32 + lo (0 <= lo < 2^32) in two 64-bit
 * integers; integer sums do not depend on their order.  |X| < 2^92 per
 * value, the total below 2^95 (hi wraps modulo 2^64 meanwhile, harmlessly).
 */
struct xsum {
	uint64_t hi, lo;
	double inv_q, q;
	int range;       /* a value was out of range */
};

/* A sum of values expected to be about `est' (> 0). */
static void xsum_init(struct xsum *s, double est)
{
	int e = ilogb(est) - 62;
	*s = (struct xsum){ .inv_q = ldexp(1, -e), .q = ldexp(1, e) };
}

static void xsum_add(struct xsum *s, double v)
{
	double x = nearbyint(v * s->inv_q);
	if (!(fabs(x) < 0x1p92)) {
		s->range = 1;
		return;
	}
	double h = floor(x * 0x1p-32);
	s->hi += (uint64_t)(int64_t)h;
	s->lo += (uint64_t)(x - h * 0x1p32);
	if (s->lo >> 62) {      /* carry before lo can overflow */
		s->hi += s->lo >> 32;
		s->lo &= 0xffffffffu;
	}
}

/* The global sum over comm (one MPI_Allreduce). */
static double xsum_all(struct xsum *s, MPI_Comm comm, int rank)
{
	if (s->range) {
		fprintf(stderr, "cg: rank %d: a value of a global sum is out "
			"of the range of its fixed-point representation "
			"(scale 2^%d); the iteration diverged?\n", rank,
			ilogb(s->q));
		MPI_Abort(comm, 3);
	}
	uint64_t in[2] = { s->hi + (s->lo >> 32), s->lo & 0xffffffffu };
	uint64_t out[2];
	MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_SUM, comm);
	out[0] += out[1] >> 32;
	out[1] &= 0xffffffffu;
	return ((double)(int64_t)out[0] * 0x1p32 + (double)out[1]) * s->q;
}

/* The local lattice: a vector is V sites x nc doubles, followed by the
 * halos: for each dimension mu the faces of the +mu and the -mu
 * neighbour (F[mu] sites each). */
struct lat {
	int nd, L[MAXD], G[MAXD], c0[MAXD];
	long V, nc, F[MAXD], stride[MAXD];
	long hoff[MAXD][2];     /* halo offsets (sites): 0 from +mu, 1 -mu */
	long next;              /* sites of a vector with its halos */
	long *face[MAXD];       /* sites with x_mu == 0, in order */
	long *nbr;              /* [s * 2nd + 2mu + {0: +mu, 1: -mu}] */
	double *cp, *cm, *diag; /* c_mu(x), c_mu(x - mu) [s * nd + mu] */
	int up[MAXD], down[MAXD];
	MPI_Comm cart;
	double *sbuf;           /* packed faces: 2nd faces */
	long soff[MAXD][2];     /* 0: face x_mu = L-1 (to +mu), 1: x_mu = 0 */
};

static void coords_of(const struct lat *l, long s, int *x)
{
	for (int d = l->nd - 1; d >= 0; d--) {
		x[d] = (int)(s % l->L[d]);
		s /= l->L[d];
	}
}

/* Global index of the site at global coordinates g (wrapped). */
static uint64_t gindex(const struct lat *l, const int *g)
{
	uint64_t i = 0;
	for (int d = 0; d < l->nd; d++)
		i = i * (uint64_t)l->G[d] +
		    (uint64_t)((g[d] + l->G[d]) % l->G[d]);
	return i;
}

static double weight(const struct lat *l, const int *g, int mu)
{
	return 0.5 + unit(mix(gindex(l, g), 0x11c + (uint64_t)mu));
}

/* Position of site x in the face of dimension mu: lexicographic over the
 * other coordinates. */
static long face_pos(const struct lat *l, const int *x, int mu)
{
	long k = 0;
	for (int d = 0; d < l->nd; d++)
		if (d != mu)
			k = k * l->L[d] + x[d];
	return k;
}

static int lat_setup(struct lat *l, int real, double mass)
{
	l->V = 1;
	for (int d = l->nd - 1; d >= 0; d--) {
		l->stride[d] = l->V;
		l->V *= l->L[d];
	}
	long off = l->V, so = 0;
	for (int d = 0; d < l->nd; d++) {
		l->F[d] = l->V / l->L[d];
		l->hoff[d][0] = off;
		l->hoff[d][1] = off + l->F[d];
		off += 2 * l->F[d];
		l->soff[d][0] = so;
		l->soff[d][1] = so + l->F[d];
		so += 2 * l->F[d];
	}
	l->next = off;
	if (!real)
		return 0;
	int nd = l->nd;
	l->sbuf = malloc((size_t)so * l->nc * sizeof *l->sbuf);
	l->nbr = malloc((size_t)l->V * 2 * nd * sizeof *l->nbr);
	l->cp = malloc((size_t)l->V * nd * sizeof *l->cp);
	l->cm = malloc((size_t)l->V * nd * sizeof *l->cm);
	l->diag = malloc((size_t)l->V * sizeof *l->diag);
	if (!l->sbuf || !l->nbr || !l->cp || !l->cm || !l->diag)
		return -1;
	for (int d = 0; d < nd; d++) {
		l->face[d] = malloc((size_t)l->F[d] * sizeof *l->face[d]);
		if (!l->face[d])
			return -1;
		long k = 0;
		for (long s = 0; s < l->V; s++)
			if (s / l->stride[d] % l->L[d] == 0)
				l->face[d][k++] = s;
	}
	for (long s = 0; s < l->V; s++) {
		int x[MAXD], g[MAXD];
		coords_of(l, s, x);
		for (int d = 0; d < nd; d++)
			g[d] = l->c0[d] + x[d];
		double dg = mass * mass;
		for (int mu = 0; mu < nd; mu++) {
			long *nb = &l->nbr[s * 2 * nd + 2 * mu];
			nb[0] = x[mu] < l->L[mu] - 1 ? s + l->stride[mu]
				: l->hoff[mu][0] + face_pos(l, x, mu);
			nb[1] = x[mu] > 0 ? s - l->stride[mu]
				: l->hoff[mu][1] + face_pos(l, x, mu);
			l->cp[s * nd + mu] = weight(l, g, mu);
			g[mu]--;
			l->cm[s * nd + mu] = weight(l, g, mu);
			g[mu]++;
			dg += l->cp[s * nd + mu] + l->cm[s * nd + mu];
		}
		l->diag[s] = dg;
	}
	return 0;
}

/* Gather p's neighbours into its halos: the message towards +mu has tag
 * 2mu, towards -mu 2mu+1 (the two neighbours may be one rank). */
static void halo(struct lat *l, double *p)
{
	MPI_Request req[4 * MAXD];
	int n = 0, nd = l->nd;
	long nc = l->nc;
	for (int mu = 0; mu < nd; mu++) {
		MPI_Irecv(p + l->hoff[mu][1] * nc, (int)(l->F[mu] * nc),
			  MPI_DOUBLE, l->down[mu], 2 * mu, l->cart, &req[n++]);
		MPI_Irecv(p + l->hoff[mu][0] * nc, (int)(l->F[mu] * nc),
			  MPI_DOUBLE, l->up[mu], 2 * mu + 1, l->cart,
			  &req[n++]);
	}
	seb_name("cg_halo");
	for (int mu = 0; mu < nd; mu++) {
		long top = (l->L[mu] - 1) * l->stride[mu];
		double *hi = l->sbuf + l->soff[mu][0] * nc;
		double *lo = l->sbuf + l->soff[mu][1] * nc;
		for (long k = 0; k < l->F[mu]; k++) {
			long s = l->face[mu][k];
			memcpy(hi + k * nc, p + (s + top) * nc,
			       nc * sizeof *p);
			memcpy(lo + k * nc, p + s * nc, nc * sizeof *p);
		}
	}
	for (int mu = 0; mu < nd; mu++) {
		MPI_Isend(l->sbuf + l->soff[mu][0] * nc, (int)(l->F[mu] * nc),
			  MPI_DOUBLE, l->up[mu], 2 * mu, l->cart, &req[n++]);
		MPI_Isend(l->sbuf + l->soff[mu][1] * nc, (int)(l->F[mu] * nc),
			  MPI_DOUBLE, l->down[mu], 2 * mu + 1, l->cart,
			  &req[n++]);
	}
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

/* ap = A p (p's halos gathered); the per-site p.ap into *dot. */
static void apply(const struct lat *l, const double *p, double *ap,
		  struct xsum *dot)
{
	int nd = l->nd;
	long nc = l->nc;
	for (long s = 0; s < l->V; s++) {
		const long *nb = &l->nbr[s * 2 * nd];
		const double *cp = &l->cp[s * nd], *cm = &l->cm[s * nd];
		double sd = 0;
		for (long c = 0; c < nc; c++) {
			double v = l->diag[s] * p[s * nc + c];
			for (int mu = 0; mu < nd; mu++)
				v -= cp[mu] * p[nb[2 * mu] * nc + c] +
				     cm[mu] * p[nb[2 * mu + 1] * nc + c];
			ap[s * nc + c] = v;
			sd += p[s * nc + c] * v;
		}
		if (dot)
			xsum_add(dot, sd);
	}
}

static double norm2(const struct lat *l, const double *v, double est,
		    int rank)
{
	struct xsum s;
	xsum_init(&s, est);
	for (long i = 0; i < l->V; i++) {
		double d = 0;
		for (long c = 0; c < l->nc; c++)
			d += v[i * l->nc + c] * v[i * l->nc + c];
		xsum_add(&s, d);
	}
	return xsum_all(&s, l->cart, rank);
}

static void print_dims(char *buf, size_t len, const int *v, int n)
{
	size_t k = 0;
	for (int d = 0; d < n && k < len; d++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", d ? "x" : "",
				      v[d]);
}

/* Declared mode: each iteration the same messages and global sums, with
 * pseudo-random data folded into `state'. */
static uint64_t run_declared(struct lat *l, const struct opts *o,
			     uint64_t state, long *halo_bytes)
{
	int nd = l->nd;
	long fb[MAXD];
	size_t boff[MAXD + 1] = { 0 };
	for (int mu = 0; mu < nd; mu++) {
		fb[mu] = o->face >= 0 ? o->face : l->F[mu] * l->nc * 8;
		boff[mu + 1] = boff[mu] + 4 * (size_t)(fb[mu] ? fb[mu] : 1);
		*halo_bytes += 2 * fb[mu];
	}
	unsigned char *buf = calloc(boff[nd] ? boff[nd] : 1, 1);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 2);
	/* per site: A (1 + 4 nd flops per value), then p.Ap, x, r, r.r, p */
	double fl_mat = (double)l->V * l->nc * (1 + 4 * nd + 2);
	double fl_upd = (double)l->V * l->nc * 8;
	for (long it = 0; it < o->iters; it++) {
#ifdef SIBYL_MPI
		sibyl_iteration(it);
#endif
		MPI_Request req[4 * MAXD];
		int n = 0;
		for (int mu = 0; mu < nd; mu++) {
			unsigned char *b = buf + boff[mu];
			size_t f = fb[mu] ? (size_t)fb[mu] : 1;
			MPI_Irecv(b + 2 * f, (int)fb[mu], MPI_BYTE,
				  l->down[mu], 2 * mu, l->cart, &req[n++]);
			MPI_Irecv(b + 3 * f, (int)fb[mu], MPI_BYTE, l->up[mu],
				  2 * mu + 1, l->cart, &req[n++]);
		}
		seb_name("cg_halo");
		for (int mu = 0; mu < nd; mu++) {
			unsigned char *b = buf + boff[mu];
			size_t f = fb[mu] ? (size_t)fb[mu] : 1;
			fill(b, fb[mu], mix(state, 2 * (uint64_t)mu));
			fill(b + f, fb[mu], mix(state, 2 * (uint64_t)mu + 1));
			MPI_Isend(b, (int)fb[mu], MPI_BYTE, l->up[mu], 2 * mu,
				  l->cart, &req[n++]);
			MPI_Isend(b + f, (int)fb[mu], MPI_BYTE, l->down[mu],
				  2 * mu + 1, l->cart, &req[n++]);
		}
		MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
		seb_name("cg_matvec");
		declare_flops(fl_mat);
		for (int mu = 0; mu < nd; mu++) {
			size_t f = fb[mu] ? (size_t)fb[mu] : 1;
			const unsigned char *b = buf + boff[mu] + 2 * f;
			for (long i = 0; i < 2 * (long)f; i += 8) {
				uint64_t v = 0;
				memcpy(&v, b + i, 2 * (long)f - i < 8 ?
				       (size_t)(2 * (long)f - i) : 8);
				state = mix(state, v);
			}
		}
		/* the same two sums as the real solver, on made-up values */
		for (int k = 0; k < 2; k++) {
			uint64_t in[2] = { state >> 40, state & 0xffffffffu };
			uint64_t out[2];
			MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_SUM,
				      l->cart);
			seb_name("cg_update");
			declare_flops(fl_upd / 2);
			state = mix(mix(state, out[0]), out[1]);
		}
	}
	free(buf);
	return state;
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
		for (int d = 0; d < o.gnd; d++)
			prod *= o.dims[d] ? o.dims[d] : 1;
		if (size % prod) {
			snprintf(err, sizeof err, "-g does not divide %d ranks",
				 size);
			st = -1;
		}
	}
	if (st) {
		if (rank == 0 && st < 0)
			fprintf(stderr, "cg: %s\n%s", err, usage);
		else if (rank == 0)
			fputs(usage, stdout);
		MPI_Finalize();
		return st < 0 ? 2 : 0;
	}

	struct lat l = { .nd = o.nd, .nc = o.nc };
	int dims[MAXD] = { 0 }, periods[MAXD], coords[MAXD];
	for (int d = 0; d < o.nd; d++) {
		dims[d] = o.gnd ? o.dims[d] : 0;
		periods[d] = 1;
		l.L[d] = o.L[d];
	}
	if (MPI_Dims_create(size, o.nd, dims) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Cart_create(MPI_COMM_WORLD, o.nd, dims, periods, 0, &l.cart);
	MPI_Cart_coords(l.cart, rank, o.nd, coords);
	for (int d = 0; d < o.nd; d++) {
		MPI_Cart_shift(l.cart, d, 1, &l.down[d], &l.up[d]);
		l.G[d] = dims[d] * l.L[d];
		l.c0[d] = coords[d] * l.L[d];
	}
	if (lat_setup(&l, !o.declared, o.mass)) {
		fprintf(stderr, "cg: rank %d: no memory for the lattice\n",
			rank);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	long iters = 0, halo_bytes = 0;
	double res = 0, tres = 0, t0 = MPI_Wtime(), t1;
	uint64_t mine;
	timed(rank, "begin");
	if (o.declared) {
		mine = mix((uint64_t)rank,
			   run_declared(&l, &o, mix(0xc9, (uint64_t)rank),
					&halo_bytes));
		iters = o.iters;
		t1 = MPI_Wtime();
		timed(rank, "end");
	} else {
		long nv = l.next * l.nc, n = l.V * l.nc;
		double *x = calloc((size_t)nv, sizeof *x);
		double *r = calloc((size_t)nv, sizeof *r);
		double *p = calloc((size_t)nv, sizeof *p);
		double *ap = calloc((size_t)nv, sizeof *ap);
		if (!x || !r || !p || !ap) {
			fprintf(stderr, "cg: rank %d: no memory for 4 vectors "
				"of %ld doubles\n", rank, nv);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		/* b (kept in r), x = 0, p = r */
		for (long s = 0; s < l.V; s++) {
			int xc[MAXD], g[MAXD];
			coords_of(&l, s, xc);
			for (int d = 0; d < l.nd; d++)
				g[d] = l.c0[d] + xc[d];
			uint64_t gi = gindex(&l, g);
			for (long c = 0; c < l.nc; c++)
				r[s * l.nc + c] = 2 * unit(mix(gi * (uint64_t)
						l.nc + (uint64_t)c, 0xb)) - 1;
		}
		memcpy(p, r, (size_t)n * sizeof *p);
		double nsites = (double)l.nc;
		for (int d = 0; d < l.nd; d++)
			nsites *= l.G[d];
		double bb = norm2(&l, r, nsites, rank), rr = bb;
		while (iters < o.iters && rr > 0 &&
		       !(o.tol > 0 && sqrt(rr / bb) <= o.tol)) {
#ifdef SIBYL_MPI
			sibyl_iteration(iters);
#endif
			struct xsum pap;
			halo(&l, p);
			seb_name("cg_matvec");
			xsum_init(&pap, rr);
			apply(&l, p, ap, &pap);
			double alpha = rr / xsum_all(&pap, l.cart, rank);
			seb_name("cg_update");
			for (long i = 0; i < n; i++) {
				x[i] += alpha * p[i];
				r[i] -= alpha * ap[i];
			}
			double rr1 = norm2(&l, r, rr, rank), beta = rr1 / rr;
			seb_name("cg_update");
			for (long i = 0; i < n; i++)
				p[i] = r[i] + beta * p[i];
			rr = rr1;
			iters++;
		}
		t1 = MPI_Wtime();
		timed(rank, "end");
		res = sqrt(rr / bb);
		/* |b - A x|: b afresh into p, A x into ap */
		halo(&l, x);
		apply(&l, x, ap, NULL);
		for (long s = 0; s < l.V; s++) {
			int xc[MAXD], g[MAXD];
			coords_of(&l, s, xc);
			for (int d = 0; d < l.nd; d++)
				g[d] = l.c0[d] + xc[d];
			uint64_t gi = gindex(&l, g);
			for (long c = 0; c < l.nc; c++)
				p[s * l.nc + c] = 2 * unit(mix(gi * (uint64_t)
						l.nc + (uint64_t)c, 0xb)) - 1 -
						ap[s * l.nc + c];
		}
		tres = sqrt(norm2(&l, p, rr > 0 ? rr : bb, rank) / bb);
		mine = 0;
		for (long s = 0; s < l.V; s++) {
			int xc[MAXD], g[MAXD];
			coords_of(&l, s, xc);
			for (int d = 0; d < l.nd; d++)
				g[d] = l.c0[d] + xc[d];
			uint64_t gi = gindex(&l, g);
			for (long c = 0; c < l.nc; c++)
				mine += mix(gi * (uint64_t)l.nc + (uint64_t)c,
					    dbits(x[s * l.nc + c]));
		}
		free(x);
		free(r);
		free(p);
		free(ap);
	}

	uint64_t sum = 0;
	MPI_Reduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, l.cart);
	if (rank == 0) {
		char sp[64], sl[64], sg[64];
		print_dims(sp, sizeof sp, dims, l.nd);
		print_dims(sl, sizeof sl, l.L, l.nd);
		print_dims(sg, sizeof sg, l.G, l.nd);
		printf("cg: ranks=%d procs=%s local=%s lattice=%s nc=%ld "
		       "mass=%g iters=%ld ", size, sp, sl, sg, l.nc, o.mass,
		       iters);
		if (o.declared)
			printf("declared halo_bytes=%ld", halo_bytes);
		else
			printf("residual=%.10e true_residual=%.10e", res, tres);
		printf(" checksum=0x%016llx\n", (unsigned long long)sum);
		printf("time: iter_us=%.3f total_s=%.6f\n",
		       iters ? (t1 - t0) / (double)iters * 1e6 : 0.0, t1 - t0);
	}
	for (int d = 0; d < l.nd; d++)
		free(l.face[d]);
	free(l.sbuf);
	free(l.nbr);
	free(l.cp);
	free(l.cm);
	free(l.diag);
	MPI_Comm_free(&l.cart);
	MPI_Finalize();
	return 0;
}
