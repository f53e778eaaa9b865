/*
 * md.c -- a molecular-dynamics proxy in the style of NAMD: patches,
 * half-shell pair computes, force return, and PME through pencil FFTs.
 *
 * Usage: md [-p PATCHES] [-a ATOMS] [-s STEPS] [-n 26|6] [-k K]
 *           [-m PME_RANKS] [-g POINTS] [-d] [-h]
 *   -p PATCHES  patches per rank (default 1)
 *   -a ATOMS    atoms per patch (default 8)
 *   -s STEPS    time steps (default 10)
 *   -n 26|6     neighbour patches: the full shell of 26 (default) or the
 *               6 face neighbours (less communication)
 *   -k K        PME every K steps, from step 0 (default 4; 0: no PME)
 *   -m NPME     at most NPME PME ranks (default: all ranks; the pencil
 *               grid actually used is the largest that divides the PME
 *               grid, see below)
 *   -g POINTS   PME grid points per patch side (default 2)
 *   -d          declared mode: the pair forces and the FFT arithmetic are
 *               not computed but declared (sibyl_compute_flops(); natively
 *               a busy loop at 1 Gflop/s); every message still flows
 *   -h          print this usage and exit
 *
 * The space is a periodic 3D grid of patches (MPI_Dims_create of all the
 * patches), each a cube of the cutoff's side holding ATOMS atoms; rank r
 * owns patches r*PATCHES to r*PATCHES+PATCHES-1 (z fastest).  A step:
 *
 *  1. Coordinate multicast.  The pair of neighbour patches P and P+d is
 *     computed by P for the half of the stencil with d > 0 (13 of the 26,
 *     or 3 of the 6), as NAMD's half-shell computes: every patch sends its
 *     coordinates to the patches P-d that compute with it (MPI_Isend).
 *  2. Forces ("md_force"): a soft-core Lennard-Jones-like pair force with
 *     a cutoff, within each patch and with each P+d.
 *  3. Force return: the forces on P+d's atoms go back to its owner.
 *  4. Every K steps, PME ("pme_spread", "pme_fft", "pme_force"): each
 *     patch spreads its charges onto its POINTS^3 block of the global
 *     charge grid and sends the pieces to the PME ranks holding them
 *     (x-pencils); these are a PY x PZ grid of pencils (MPI_Comm_split of
 *     the PME ranks, then into rows and columns) that do a 3D FFT as 1D
 *     transforms and transposes through MPI_Alltoall in the row and the
 *     column communicators, multiply by the Ewald kernel (the energy:
 *     MPI_Allreduce over the PME ranks), transform back the same way and
 *     return the potential to the patches, whose atoms feel its gradient.
 *     PME ranks are spread evenly over the ranks (rank 0 is one), and
 *     own patches too.  The pencil grid needs PY | GX, PY | GY, PZ | GY
 *     and PZ | GZ (GX = patches along x times POINTS, ...).
 *  5. Integration ("md_integrate"); atoms stay in their patch (walls
 *     reflect them), so no migration.  The energies go to rank 0 with
 *     MPI_Reduce every step.
 *
 * Determinism: forces are added in a fixed order per patch, the 1D
 * transforms are plain DFTs, line by line, and energies are summed in
 * 64-bit fixed point (2^-60; two integer limbs per sum, MPI_UINT64_T):
 * exact in any order.  So the run does not depend on which rank holds
 * which patch or pencil, nor on the MPI library: 8 ranks with -p 1, 2
 * ranks with -p 4 and 1 rank with -p 8 simulate the same 2x2x2 patches
 * and print the same energies and checksum.
 *
 * For large emulations use -d with few atoms and points, e.g. 262,144
 * virtual ranks on 2 processes: `md -d -a 4 -g 1 -s 5' (64x64x64
 * patches, 4096 PME ranks; a few KiB per rank).
 *
 * Rank 0 prints, and nothing else prints:
 *   md: ranks=R patches=PXxPYxPZ per_rank=P atoms=A neighbours=N
 *       steps=S pme_every=K pme_ranks=M pencils=PYxPZ grid=GXxGYxGZ
 *       elj=... ekin=... erec=... checksum=0x...
 * (one line; energies of the last step, erec of the last PME step, the
 * checksum a hash of every atom's final position and velocity; with -d
 * "declared" before the energies), then
 *   time: step_us=... total_s=...
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
	"usage: md [-p PATCHES] [-a ATOMS] [-s STEPS] [-n 26|6] [-k K]\n"
	"          [-m PME_RANKS] [-g POINTS] [-d] [-h]\n"
	"  -p PATCHES  patches per rank (default 1)\n"
	"  -a ATOMS    atoms per patch (default 8)\n"
	"  -s STEPS    time steps (default 10)\n"
	"  -n 26|6     neighbour stencil (default 26)\n"
	"  -k K        PME every K steps (default 4; 0: none)\n"
	"  -m NPME     at most NPME PME ranks (default: all)\n"
	"  -g POINTS   PME grid points per patch side (default 2)\n"
	"  -d          declared mode: forces and FFTs declared\n"
	"  -h          print this usage\n";

/* Reduced units: the patch side is the cutoff. */
#define LP 1.0          /* patch side and cutoff */
#define SIGMA 0.3
#define SOFT 0.5        /* soft core: s = sigma^2 / (r^2 + SOFT sigma^2) */
#define DT 1e-3
#define BETA 2.0        /* Ewald splitting */
#define PAIR_FLOPS 30.0
#define PI 3.14159265358979323846

struct opts {
	long ppr, atoms, steps, every, npme, points;
	int nbrs, declared, npme_set, points_set;
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

/* 0: run, 1: -h, -1: error (message in err). */
static int parse(int argc, char **argv, struct opts *o, char *err,
		 size_t len)
{
	*o = (struct opts){ .ppr = 1, .atoms = 8, .steps = 10, .every = 4,
			    .points = 2, .nbrs = 26 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		long n;
		if (!strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "-d")) {
			o->declared = 1;
		} else if (!strcmp(a, "-p")) {
			bad = get_long(v, 1, 1 << 16, &o->ppr), i++;
		} else if (!strcmp(a, "-a")) {
			bad = get_long(v, 1, 1 << 16, &o->atoms), i++;
		} else if (!strcmp(a, "-s")) {
			bad = get_long(v, 1, 1L << 40, &o->steps), i++;
		} else if (!strcmp(a, "-k")) {
			bad = get_long(v, 0, 1L << 40, &o->every), i++;
		} else if (!strcmp(a, "-m")) {
			bad = get_long(v, 1, 1L << 31, &o->npme), i++;
			o->npme_set = 1;
		} else if (!strcmp(a, "-g")) {
			bad = get_long(v, 1, 64, &o->points), i++;
			o->points_set = 1;
		} else if (!strcmp(a, "-n")) {
			bad = get_long(v, 6, 26, &n) || (n != 6 && n != 26);
			o->nbrs = (int)n, i++;
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
	if (o->every == 0 && (o->npme_set || o->points_set)) {
		snprintf(err, len, "-m and -g set up PME, which -k 0 turns "
			 "off");
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

/*
 * Exact sums of energies: each value is rounded to a multiple of 2^-60
 * and summed as an integer hi * 2^32 + lo in two 64-bit limbs, so the
 * total does not depend on the order of the additions (|value| < 2^32).
 */
#define XSUM_E (-60)
struct xsum {
	uint64_t hi, lo;
	int range;
};

static void xsum_add(struct xsum *s, double v)
{
	double x = nearbyint(ldexp(v, -XSUM_E));
	if (!(fabs(x) < 0x1p92)) {
		s->range = 1;
		return;
	}
	double h = floor(x * 0x1p-32);
	s->hi += (uint64_t)(int64_t)h;
	s->lo += (uint64_t)(x - h * 0x1p32);
	if (s->lo >> 62) {
		s->hi += s->lo >> 32;
		s->lo &= 0xffffffffu;
	}
}

/* Sum n xsums over comm: on `root' (MPI_Reduce) or on all (root < 0,
 * MPI_Allreduce); the totals into out[]. */
static void xsum_total(const struct xsum *s, int n, double *out, int root,
		       MPI_Comm comm, int rank)
{
	uint64_t in[8], res[8];
	for (int i = 0; i < n; i++) {
		if (s[i].range) {
			fprintf(stderr, "md: rank %d: an energy is out of the "
				"range of its fixed-point sum (2^32); the "
				"system blew up?\n", rank);
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
		in[2 * i] = s[i].hi + (s[i].lo >> 32);
		in[2 * i + 1] = s[i].lo & 0xffffffffu;
	}
	if (root < 0)
		MPI_Allreduce(in, res, 2 * n, MPI_UINT64_T, MPI_SUM, comm);
	else
		MPI_Reduce(in, res, 2 * n, MPI_UINT64_T, MPI_SUM, root, comm);
	for (int i = 0; i < n; i++) {
		uint64_t hi = res[2 * i] + (res[2 * i + 1] >> 32);
		uint64_t lo = res[2 * i + 1] & 0xffffffffu;
		out[i] = ldexp((double)(int64_t)hi * 0x1p32 + (double)lo,
			       XSUM_E);
	}
}

/* A piece of a patch's block of the PME grid that one pencil holds: y in
 * [y0, y1), z in [z0, z1), all the patch's x; `off' doubles into the
 * packed buffer; `peer' the rank at the other end. */
struct piece {
	int peer, tag;
	long x0, y0, y1, z0, z1, off;
};

struct patch {
	long id;
	int c[3];
	double *x, *v, *f, *q;  /* atoms: 3, 3, 3, 1 doubles each */
	double *crecv;          /* nu x atoms x 3: coordinates of P+d */
	double *fret;           /* nu x atoms x 3: forces on P+d's atoms */
	double *frecv;          /* nu x atoms x 3: returned by P-d */
	double *grid;           /* points^3: charges, then potential */
	double *gbuf;           /* the same, packed by piece */
	struct piece *pc;       /* pieces of its grid block */
	int npc;
};

struct pme {
	int on, py, pz, j, k, npme;
	long G[3], ny, nz, nx1, ny2, M;
	MPI_Comm comm, row, col;
	double *a, *b, *s, *r, *tmp, *tw[3];
	double *rbuf;           /* M reals: charges in, potential out */
	struct piece *pc;       /* the patches' pieces of its x-pencil */
	int npc;
};

struct md {
	struct opts o;
	int rank, size, dims[3], nu, du[13][3];
	long npatch, T;         /* tag space per kind */
	struct patch *p;        /* o.ppr of them */
	struct pme pm;
	MPI_Request *req;
	long nreq;
};

static long patch_id(const struct md *m, const int *c)
{
	long id = 0;
	for (int d = 0; d < 3; d++)
		id = id * m->dims[d] + (c[d] + m->dims[d]) % m->dims[d];
	return id;
}

static int owner(const struct md *m, long id)
{
	return (int)(id / m->o.ppr);
}

static int local(const struct md *m, long id)
{
	return (int)(id % m->o.ppr);
}

/* The half stencil: offsets d != 0 with the first non-zero component
 * positive. */
static int half_stencil(int full, int du[13][3])
{
	int n = 0;
	for (int dx = -1; dx <= 1; dx++)
		for (int dy = -1; dy <= 1; dy++)
			for (int dz = -1; dz <= 1; dz++) {
				int nz = abs(dx) + abs(dy) + abs(dz);
				if (!(dx > 0 || (dx == 0 && dy > 0) ||
				      (dx == 0 && dy == 0 && dz > 0)))
					continue;
				if (!full && nz != 1)
					continue;
				du[n][0] = dx, du[n][1] = dy, du[n][2] = dz;
				n++;
			}
	return n;
}

static long gcd(long a, long b)
{
	while (b) {
		long t = a % b;
		a = b, b = t;
	}
	return a;
}

/* The largest pencil grid py x pz <= limit with py | GX, GY and pz | GY,
 * GZ; among equals the squarest. */
static void pencil_grid(const long *G, long limit, int *py, int *pz)
{
	long gy = gcd(G[0], G[1]), gz = gcd(G[1], G[2]);
	*py = *pz = 1;
	for (long y = 1; y <= gy && y <= limit; y++) {
		if (gy % y)
			continue;
		for (long z = 1; z <= gz && y * z <= limit; z++) {
			if (gz % z)
				continue;
			long n = y * z, best = (long)*py * *pz;
			if (n > best || (n == best && labs(y - z) <
					 labs((long)*py - *pz)))
				*py = (int)y, *pz = (int)z;
		}
	}
}

static int pme_world(const struct md *m, long i)
{
	return (int)(i * m->size / m->pm.npme);
}

/* Soft-core LJ between positions a and b (b already shifted): adds the
 * force on a to fa and its opposite to fb; returns the energy. */
static double pair(const double *a, const double *b, double *fa, double *fb)
{
	double r[3], r2 = 0;
	for (int d = 0; d < 3; d++) {
		r[d] = a[d] - b[d];
		r2 += r[d] * r[d];
	}
	if (r2 >= LP * LP)
		return 0;
	const double s2 = SIGMA * SIGMA;
	double s = s2 / (r2 + SOFT * s2), s3 = s * s * s;
	double sc = s2 / (LP * LP + SOFT * s2), sc3 = sc * sc * sc;
	double dud_s = 4 * (6 * s3 * s * s - 3 * s * s);
	double k = dud_s * 2 * s * s / s2;
	for (int d = 0; d < 3; d++) {
		fa[d] += k * r[d];
		fb[d] -= k * r[d];
	}
	return 4 * (s3 * s3 - s3) - 4 * (sc3 * sc3 - sc3);
}

static int setup(struct md *m)
{
	const struct opts *o = &m->o;
	long A = o->atoms, g = o->points, g3 = g * g * g;
	m->nu = half_stencil(o->nbrs == 26, m->du);
	m->npatch = (long)m->size * o->ppr;
	m->T = o->ppr * m->nu;
	m->dims[0] = m->dims[1] = m->dims[2] = 0;
	if (m->npatch > INT32_MAX)
		return -1;
	MPI_Dims_create((int)m->npatch, 3, m->dims);
	m->p = calloc((size_t)o->ppr, sizeof *m->p);
	if (!m->p)
		return -1;
	for (long l = 0; l < o->ppr; l++) {
		struct patch *p = &m->p[l];
		p->id = (long)m->rank * o->ppr + l;
		p->c[2] = (int)(p->id % m->dims[2]);
		p->c[1] = (int)(p->id / m->dims[2] % m->dims[1]);
		p->c[0] = (int)(p->id / m->dims[2] / m->dims[1]);
		size_t na = (size_t)A * 10 + 9 * (size_t)m->nu * A;
		if (o->every)
			na += 2 * (size_t)g3;
		double *mem = calloc(na, sizeof *mem);
		if (!mem)
			return -1;
		p->x = mem, p->v = p->x + 3 * A, p->f = p->v + 3 * A;
		p->q = p->f + 3 * A;
		p->crecv = p->q + A;
		p->fret = p->crecv + 3 * m->nu * A;
		p->frecv = p->fret + 3 * m->nu * A;
		if (o->every) {
			p->grid = p->frecv + 3 * m->nu * A;
			p->gbuf = p->grid + g3;
		}
		/* a jittered lattice of nc^3 sites, so atoms start apart */
		long nc = 1;
		while (nc * nc * nc < A)
			nc++;
		for (long i = 0; i < A; i++) {
			uint64_t gid = (uint64_t)(p->id * A + i);
			long site[3] = { i / (nc * nc), i / nc % nc, i % nc };
			for (int d = 0; d < 3; d++) {
				double j = unit(mix(gid, 1 + (uint64_t)d));
				p->x[3 * i + d] = LP * ((double)site[d] + 0.25 +
							0.5 * j) / (double)nc;
				p->v[3 * i + d] = unit(mix(gid, 4 +
						(uint64_t)d)) - 0.5;
			}
			p->q[i] = (gid & 1) ? 1.0 : -1.0;
		}
	}
	m->nreq = 4 * (long)m->nu * o->ppr;
	return 0;
}

/* PME: the pencils, the communicators, and who sends what to whom. */
static int pme_setup(struct md *m)
{
	struct pme *pm = &m->pm;
	const struct opts *o = &m->o;
	long g = o->points;
	for (int d = 0; d < 3; d++)
		pm->G[d] = m->dims[d] * g;
	long limit = o->npme_set && o->npme < m->size ? o->npme : m->size;
	pencil_grid(pm->G, limit, &pm->py, &pm->pz);
	pm->npme = pm->py * pm->pz;
	pm->ny = pm->G[1] / pm->py, pm->nz = pm->G[2] / pm->pz;
	pm->nx1 = pm->G[0] / pm->py, pm->ny2 = pm->G[1] / pm->pz;
	pm->M = pm->G[0] * pm->ny * pm->nz;
	long i = ((long)m->rank * pm->npme + m->size - 1) / m->size;
	pm->on = i < pm->npme && pme_world(m, i) == m->rank;
	MPI_Comm_split(MPI_COMM_WORLD, pm->on ? 0 : MPI_UNDEFINED, m->rank,
		       &pm->comm);
	if (pm->on) {
		pm->j = (int)(i / pm->pz), pm->k = (int)(i % pm->pz);
		MPI_Comm_split(pm->comm, pm->k, pm->j, &pm->row);
		MPI_Comm_split(pm->comm, pm->j, pm->k, &pm->col);
	}

	/* each patch's pieces, pencil by pencil */
	for (long l = 0; l < o->ppr; l++) {
		struct patch *p = &m->p[l];
		long Y0 = p->c[1] * g, Z0 = p->c[2] * g, off = 0;
		long ja = Y0 / pm->ny, jb = (Y0 + g - 1) / pm->ny;
		long ka = Z0 / pm->nz, kb = (Z0 + g - 1) / pm->nz;
		p->npc = (int)((jb - ja + 1) * (kb - ka + 1));
		p->pc = calloc((size_t)p->npc, sizeof *p->pc);
		if (!p->pc)
			return -1;
		int n = 0;
		for (long j = ja; j <= jb; j++)
			for (long k = ka; k <= kb; k++) {
				struct piece *c = &p->pc[n++];
				c->peer = pme_world(m, j * pm->pz + k);
				c->tag = (int)(2 * m->T + l);
				c->x0 = p->c[0] * g;
				c->y0 = Y0 > j * pm->ny ? Y0 : j * pm->ny;
				c->y1 = Y0 + g < (j + 1) * pm->ny ? Y0 + g
					: (j + 1) * pm->ny;
				c->z0 = Z0 > k * pm->nz ? Z0 : k * pm->nz;
				c->z1 = Z0 + g < (k + 1) * pm->nz ? Z0 + g
					: (k + 1) * pm->nz;
				c->off = off;
				off += g * (c->y1 - c->y0) * (c->z1 - c->z0);
			}
		m->nreq += 2 * p->npc;
	}
	if (!pm->on)
		return 0;

	/* the pencil's pieces, patch by patch */
	long Yj = pm->j * pm->ny, Zk = pm->k * pm->nz;
	long ya = Yj / g, yb = (Yj + pm->ny - 1) / g;
	long za = Zk / g, zb = (Zk + pm->nz - 1) / g, off = 0;
	pm->npc = (int)(m->dims[0] * (yb - ya + 1) * (zb - za + 1));
	pm->pc = calloc((size_t)pm->npc, sizeof *pm->pc);
	size_t M2 = 2 * (size_t)pm->M;
	long gmax = pm->G[0] > pm->G[1] ? pm->G[0] : pm->G[1];
	gmax = gmax > pm->G[2] ? gmax : pm->G[2];
	double *mem = calloc(4 * M2 + (size_t)pm->M + 2 * (size_t)(pm->G[0] +
			     pm->G[1] + pm->G[2] + gmax), sizeof *mem);
	if (!pm->pc || !mem)
		return -1;
	pm->a = mem, pm->b = pm->a + M2, pm->s = pm->b + M2;
	pm->r = pm->s + M2, pm->rbuf = pm->r + M2;
	pm->tw[0] = pm->rbuf + pm->M;
	pm->tw[1] = pm->tw[0] + 2 * pm->G[0];
	pm->tw[2] = pm->tw[1] + 2 * pm->G[1];
	pm->tmp = pm->tw[2] + 2 * pm->G[2];
	for (int d = 0; d < 3; d++)
		for (long t = 0; t < pm->G[d]; t++) {
			double th = 2 * PI * (double)t / (double)pm->G[d];
			pm->tw[d][2 * t] = cos(th);
			pm->tw[d][2 * t + 1] = sin(th);
		}
	int n = 0;
	for (long px = 0; px < m->dims[0]; px++)
		for (long y = ya; y <= yb; y++)
			for (long z = za; z <= zb; z++) {
				struct piece *c = &pm->pc[n++];
				int pc[3] = { (int)px, (int)y, (int)z };
				long id = patch_id(m, pc);
				c->peer = owner(m, id);
				c->tag = (int)(2 * m->T + local(m, id));
				c->x0 = px * g;
				c->y0 = y * g > Yj ? y * g : Yj;
				c->y1 = (y + 1) * g < Yj + pm->ny ? (y + 1) * g
					: Yj + pm->ny;
				c->z0 = z * g > Zk ? z * g : Zk;
				c->z1 = (z + 1) * g < Zk + pm->nz ? (z + 1) * g
					: Zk + pm->nz;
				c->off = off;
				off += g * (c->y1 - c->y0) * (c->z1 - c->z0);
			}
	m->nreq += 2 * pm->npc;
	return 0;
}

/* DFT of `count' contiguous complex lines of length n (sign -1 forward,
 * +1 inverse, unnormalized). */
static void dft_lines(double *a, long n, long count, const double *tw,
		      int sign, double *tmp)
{
	for (long l = 0; l < count; l++) {
		double *line = a + 2 * l * n;
		for (long k = 0; k < n; k++) {
			double re = 0, im = 0;
			for (long t = 0; t < n; t++) {
				long w = t * k % n;
				double c = tw[2 * w], s = sign * tw[2 * w + 1];
				re += line[2 * t] * c - line[2 * t + 1] * s;
				im += line[2 * t] * s + line[2 * t + 1] * c;
			}
			tmp[2 * k] = re, tmp[2 * k + 1] = im;
		}
		memcpy(line, tmp, 2 * (size_t)n * sizeof *line);
	}
}

static void transform(struct md *m, double *a, int dim, long count, int sign)
{
	struct pme *pm = &m->pm;
	long n = pm->G[dim];
	if (m->o.declared)
		declare_flops(5.0 * (double)n * (n > 1 ? log2((double)n) : 1) *
			      (double)count);
	else
		dft_lines(a, n, count, pm->tw[dim], sign, pm->tmp);
}

/* x-pencil a <-> y-pencil b through the row communicator. */
static void transpose_xy(struct pme *pm, int inverse)
{
	long nx1 = pm->nx1, ny = pm->ny, nz = pm->nz, blk = nx1 * ny * nz;
	for (long q = 0; q < pm->py; q++)
		for (long z = 0; z < nz; z++)
			for (long y = 0; y < ny; y++)
				for (long x = 0; x < nx1; x++) {
					long i = q * blk + (z * ny + y) * nx1 +
						 x;
					long src = inverse
						? (z * nx1 + x) * pm->G[1] +
							  q * ny + y
						: (z * ny + y) * pm->G[0] +
							  q * nx1 + x;
					const double *v = (inverse ? pm->b
								   : pm->a) +
							  2 * src;
					pm->s[2 * i] = v[0];
					pm->s[2 * i + 1] = v[1];
				}
	MPI_Alltoall(pm->s, (int)(2 * blk), MPI_DOUBLE, pm->r, (int)(2 * blk),
		     MPI_DOUBLE, pm->row);
	seb_name("pme_fft");
	for (long q = 0; q < pm->py; q++)
		for (long z = 0; z < nz; z++)
			for (long y = 0; y < ny; y++)
				for (long x = 0; x < nx1; x++) {
					long i = q * blk + (z * ny + y) * nx1 +
						 x;
					long dst = inverse
						? (z * ny + y) * pm->G[0] +
							  q * nx1 + x
						: (z * nx1 + x) * pm->G[1] +
							  q * ny + y;
					double *v = (inverse ? pm->a : pm->b) +
						    2 * dst;
					v[0] = pm->r[2 * i];
					v[1] = pm->r[2 * i + 1];
				}
}

/* y-pencil b <-> z-pencil a through the column communicator. */
static void transpose_yz(struct pme *pm, int inverse)
{
	long nx1 = pm->nx1, ny2 = pm->ny2, nz = pm->nz, blk = nx1 * ny2 * nz;
	for (long q = 0; q < pm->pz; q++)
		for (long z = 0; z < nz; z++)
			for (long x = 0; x < nx1; x++)
				for (long y = 0; y < ny2; y++) {
					long i = q * blk + (z * nx1 + x) * ny2 +
						 y;
					long src = inverse
						? (y * nx1 + x) * pm->G[2] +
							  q * nz + z
						: (z * nx1 + x) * pm->G[1] +
							  q * ny2 + y;
					const double *v = (inverse ? pm->a
								   : pm->b) +
							  2 * src;
					pm->s[2 * i] = v[0];
					pm->s[2 * i + 1] = v[1];
				}
	MPI_Alltoall(pm->s, (int)(2 * blk), MPI_DOUBLE, pm->r, (int)(2 * blk),
		     MPI_DOUBLE, pm->col);
	seb_name("pme_fft");
	for (long q = 0; q < pm->pz; q++)
		for (long z = 0; z < nz; z++)
			for (long x = 0; x < nx1; x++)
				for (long y = 0; y < ny2; y++) {
					long i = q * blk + (z * nx1 + x) * ny2 +
						 y;
					long dst = inverse
						? (z * nx1 + x) * pm->G[1] +
							  q * ny2 + y
						: (y * nx1 + x) * pm->G[2] +
							  q * nz + z;
					double *v = (inverse ? pm->b : pm->a) +
						    2 * dst;
					v[0] = pm->r[2 * i];
					v[1] = pm->r[2 * i + 1];
				}
}

/* Wrapped wave number of index i of n. */
static double wave(long i, long n, double len)
{
	long w = i <= n / 2 ? i : i - n;
	return 2 * PI * (double)w / len;
}

/* The PME ranks' part: charges in rbuf -> potential in rbuf; returns
 * this rank's share of the reciprocal energy. */
static void pme_solve(struct md *m, struct xsum *erec)
{
	struct pme *pm = &m->pm;
	long G0 = pm->G[0], g = m->o.points;
	double h = LP / (double)g, len[3], vol = 1;
	for (int d = 0; d < 3; d++) {
		len[d] = (double)pm->G[d] * h;
		vol *= len[d];
	}
	/* x-pencil: [(z ny + y) G0 + x] */
	memset(pm->a, 0, 2 * (size_t)pm->M * sizeof *pm->a);
	for (int n = 0; n < pm->npc; n++) {
		const struct piece *c = &pm->pc[n];
		const double *v = pm->rbuf + c->off;
		for (long z = c->z0; z < c->z1; z++)
			for (long y = c->y0; y < c->y1; y++)
				for (long x = 0; x < g; x++)
					pm->a[2 * (((z - pm->k * pm->nz) *
						    pm->ny + y - pm->j *
						    pm->ny) * G0 + c->x0 + x)] =
						*v++;
	}
	transform(m, pm->a, 0, pm->ny * pm->nz, -1);
	transpose_xy(pm, 0);
	transform(m, pm->b, 1, pm->nx1 * pm->nz, -1);
	transpose_yz(pm, 0);
	transform(m, pm->a, 2, pm->nx1 * pm->ny2, -1);
	/* z-pencil: [(y ny2-local nx1 + x) G2 + z]; the Ewald kernel */
	for (long y = 0; y < pm->ny2; y++)
		for (long x = 0; x < pm->nx1; x++)
			for (long z = 0; z < pm->G[2]; z++) {
				double kx = wave(pm->j * pm->nx1 + x, G0,
						 len[0]);
				double ky = wave(pm->k * pm->ny2 + y,
						 pm->G[1], len[1]);
				double kz = wave(z, pm->G[2], len[2]);
				double k2 = kx * kx + ky * ky + kz * kz;
				double *v = pm->a + 2 * ((y * pm->nx1 + x) *
							 pm->G[2] + z);
				double gk = k2 > 0 ? 4 * PI * exp(-k2 / (4 *
						BETA * BETA)) / k2 : 0;
				xsum_add(erec, gk * (v[0] * v[0] + v[1] *
						     v[1]) / (2 * vol));
				v[0] *= gk / vol;
				v[1] *= gk / vol;
			}
	transform(m, pm->a, 2, pm->nx1 * pm->ny2, 1);
	transpose_yz(pm, 1);
	transform(m, pm->b, 1, pm->nx1 * pm->nz, 1);
	transpose_xy(pm, 1);
	transform(m, pm->a, 0, pm->ny * pm->nz, 1);
	for (int n = 0; n < pm->npc; n++) {
		const struct piece *c = &pm->pc[n];
		double *v = pm->rbuf + c->off;
		for (long z = c->z0; z < c->z1; z++)
			for (long y = c->y0; y < c->y1; y++)
				for (long x = 0; x < g; x++)
					*v++ = pm->a[2 * (((z - pm->k *
							    pm->nz) * pm->ny +
							   y - pm->j * pm->ny) *
							  G0 + c->x0 + x)];
	}
}

static long cell(double x, long g)
{
	long i = (long)(x / LP * (double)g);
	return i < 0 ? 0 : i >= g ? g - 1 : i;
}

/* Potential gradient along dim d at grid cell c of a patch. */
static double grad(const double *phi, const long *c, int d, long g)
{
	long st = d == 0 ? 1 : d == 1 ? g : g * g;
	long i = (c[2] * g + c[1]) * g + c[0];
	double h = LP / (double)g;
	if (g == 1)
		return 0;
	if (c[d] == 0)
		return (phi[i + st] - phi[i]) / h;
	if (c[d] == g - 1)
		return (phi[i] - phi[i - st]) / h;
	return (phi[i + st] - phi[i - st]) / (2 * h);
}

/* One PME step: spread, pencils, potential back, forces. */
static void pme_step(struct md *m, struct xsum *erec)
{
	struct pme *pm = &m->pm;
	long A = m->o.atoms, g = m->o.points, n = 0;
	MPI_Request *rq = m->req;
	for (long l = 0; l < m->o.ppr; l++) {
		struct patch *p = &m->p[l];
		for (int i = 0; i < p->npc; i++) {
			const struct piece *c = &p->pc[i];
			MPI_Irecv(p->gbuf + c->off, (int)(g * (c->y1 - c->y0) *
				  (c->z1 - c->z0)), MPI_DOUBLE, c->peer,
				  (int)(c->tag + m->o.ppr), MPI_COMM_WORLD,
				  &rq[n++]);
		}
	}
	if (pm->on)
		for (int i = 0; i < pm->npc; i++) {
			const struct piece *c = &pm->pc[i];
			MPI_Irecv(pm->rbuf + c->off, (int)(g * (c->y1 - c->y0) *
				  (c->z1 - c->z0)), MPI_DOUBLE, c->peer, c->tag,
				  MPI_COMM_WORLD, &rq[n++]);
		}
	seb_name("pme_spread");
	for (long l = 0; l < m->o.ppr; l++) {
		struct patch *p = &m->p[l];
		memset(p->grid, 0, (size_t)(g * g * g) * sizeof *p->grid);
		for (long i = 0; i < A; i++) {
			long c[3];
			for (int d = 0; d < 3; d++)
				c[d] = cell(p->x[3 * i + d], g);
			p->grid[(c[2] * g + c[1]) * g + c[0]] += p->q[i];
		}
		for (int i = 0; i < p->npc; i++) {
			const struct piece *c = &p->pc[i];
			double *v = p->gbuf + c->off;
			long Y0 = p->c[1] * g, Z0 = p->c[2] * g;
			for (long z = c->z0; z < c->z1; z++)
				for (long y = c->y0; y < c->y1; y++)
					for (long x = 0; x < g; x++)
						*v++ = p->grid[((z - Z0) * g +
								y - Y0) * g +
							       x];
			MPI_Isend(p->gbuf + c->off, (int)(v - p->gbuf -
				  c->off), MPI_DOUBLE, c->peer, c->tag,
				  MPI_COMM_WORLD, &rq[n++]);
		}
	}
	if (pm->on) {
		/* the charges' receives follow the patches' own */
		long first = 0;
		for (long l = 0; l < m->o.ppr; l++)
			first += m->p[l].npc;
		MPI_Waitall(pm->npc, rq + first, MPI_STATUSES_IGNORE);
		seb_name("pme_fft");
		pme_solve(m, erec);
		for (int i = 0; i < pm->npc; i++) {
			const struct piece *c = &pm->pc[i];
			MPI_Isend(pm->rbuf + c->off, (int)(g * (c->y1 - c->y0) *
				  (c->z1 - c->z0)), MPI_DOUBLE, c->peer,
				  (int)(c->tag + m->o.ppr), MPI_COMM_WORLD,
				  &rq[n++]);
		}
	}
	MPI_Waitall((int)n, rq, MPI_STATUSES_IGNORE);
	seb_name("pme_force");
	for (long l = 0; l < m->o.ppr; l++) {
		struct patch *p = &m->p[l];
		long Y0 = p->c[1] * g, Z0 = p->c[2] * g;
		for (int i = 0; i < p->npc; i++) {
			const struct piece *c = &p->pc[i];
			const double *v = p->gbuf + c->off;
			for (long z = c->z0; z < c->z1; z++)
				for (long y = c->y0; y < c->y1; y++)
					for (long x = 0; x < g; x++)
						p->grid[((z - Z0) * g + y -
							 Y0) * g + x] = *v++;
		}
		for (long i = 0; i < A; i++) {
			long c[3];
			for (int d = 0; d < 3; d++)
				c[d] = cell(p->x[3 * i + d], g);
			for (int d = 0; d < 3; d++)
				p->f[3 * i + d] -= p->q[i] *
						   grad(p->grid, c, d, g);
		}
	}
}

/* Short-range forces: coordinates out, pair computes, forces back.
 * Returns nothing; the LJ energies go to *elj. */
static void force_step(struct md *m, struct xsum *elj)
{
	long A = m->o.atoms, ppr = m->o.ppr, n = 0;
	int nu = m->nu;
	MPI_Request *rq = m->req;
	/* coordinates of P+d, then forces returned by P-d */
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		for (int u = 0; u < nu; u++) {
			int c[3] = { p->c[0] + m->du[u][0],
				     p->c[1] + m->du[u][1],
				     p->c[2] + m->du[u][2] };
			MPI_Irecv(p->crecv + 3 * A * u, (int)(3 * A),
				  MPI_DOUBLE, owner(m, patch_id(m, c)),
				  (int)(l * nu + u), MPI_COMM_WORLD, &rq[n++]);
		}
	}
	long ncoord = n;
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		for (int u = 0; u < nu; u++) {
			int c[3] = { p->c[0] - m->du[u][0],
				     p->c[1] - m->du[u][1],
				     p->c[2] - m->du[u][2] };
			MPI_Irecv(p->frecv + 3 * A * u, (int)(3 * A),
				  MPI_DOUBLE, owner(m, patch_id(m, c)),
				  (int)(m->T + l * nu + u), MPI_COMM_WORLD,
				  &rq[n++]);
		}
	}
	/* the coordinate multicast: to every P-d */
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		for (int u = 0; u < nu; u++) {
			int c[3] = { p->c[0] - m->du[u][0],
				     p->c[1] - m->du[u][1],
				     p->c[2] - m->du[u][2] };
			long id = patch_id(m, c);
			MPI_Isend(p->x, (int)(3 * A), MPI_DOUBLE, owner(m, id),
				  (int)(local(m, id) * nu + u), MPI_COMM_WORLD,
				  &rq[n++]);
		}
	}
	/* self interactions while the coordinates travel */
	seb_name("md_force");
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		memset(p->f, 0, 3 * (size_t)A * sizeof *p->f);
		memset(p->fret, 0, 3 * (size_t)(A * nu) * sizeof *p->fret);
		if (m->o.declared) {
			declare_flops(PAIR_FLOPS * (double)A * (double)(A - 1)
				      / 2);
			continue;
		}
		double e = 0;
		for (long i = 0; i < A; i++)
			for (long j = i + 1; j < A; j++)
				e += pair(p->x + 3 * i, p->x + 3 * j,
					  p->f + 3 * i, p->f + 3 * j);
		xsum_add(elj, e);
	}
	MPI_Waitall((int)ncoord, rq, MPI_STATUSES_IGNORE);
	seb_name("md_force");
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		if (m->o.declared) {
			declare_flops(PAIR_FLOPS * (double)A * (double)A * nu);
			continue;
		}
		for (int u = 0; u < nu; u++) {
			const double *xn = p->crecv + 3 * A * u;
			double *fn = p->fret + 3 * A * u, e = 0;
			for (long i = 0; i < A; i++)
				for (long j = 0; j < A; j++) {
					double b[3];
					for (int d = 0; d < 3; d++)
						b[d] = xn[3 * j + d] +
						       m->du[u][d] * LP;
					e += pair(p->x + 3 * i, b,
						  p->f + 3 * i, fn + 3 * j);
				}
			xsum_add(elj, e);
		}
	}
	/* force return to the owners of P+d */
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		for (int u = 0; u < nu; u++) {
			int c[3] = { p->c[0] + m->du[u][0],
				     p->c[1] + m->du[u][1],
				     p->c[2] + m->du[u][2] };
			long id = patch_id(m, c);
			MPI_Isend(p->fret + 3 * A * u, (int)(3 * A),
				  MPI_DOUBLE, owner(m, id),
				  (int)(m->T + local(m, id) * nu + u),
				  MPI_COMM_WORLD, &rq[n++]);
		}
	}
	MPI_Waitall((int)(n - ncoord), rq + ncoord, MPI_STATUSES_IGNORE);
	seb_name("md_integrate");
	for (long l = 0; l < ppr; l++) {
		struct patch *p = &m->p[l];
		for (int u = 0; u < nu; u++)
			for (long i = 0; i < 3 * A; i++)
				p->f[i] += p->frecv[3 * A * u + i];
	}
}

static void integrate(struct md *m, struct xsum *ekin)
{
	long A = m->o.atoms;
	for (long l = 0; l < m->o.ppr; l++) {
		struct patch *p = &m->p[l];
		double e = 0;
		for (long i = 0; i < 3 * A; i++) {
			p->v[i] += p->f[i] * DT;
			p->x[i] += p->v[i] * DT;
			/* reflecting walls keep the atom in its patch */
			if (p->x[i] < 0) {
				p->x[i] = -p->x[i];
				p->v[i] = -p->v[i];
			} else if (p->x[i] > LP) {
				p->x[i] = 2 * LP - p->x[i];
				p->v[i] = -p->v[i];
			}
			e += 0.5 * p->v[i] * p->v[i];
		}
		xsum_add(ekin, e);
	}
}

int main(int argc, char **argv)
{
	struct md m = { 0 };
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	char err[200];
	int st = parse(argc, argv, &m.o, err, sizeof err);
	if (st) {
		if (m.rank == 0 && st < 0)
			fprintf(stderr, "md: %s\n%s", err, usage);
		else if (m.rank == 0)
			fputs(usage, stdout);
		MPI_Finalize();
		return st < 0 ? 2 : 0;
	}
	if (setup(&m) || (m.o.every && pme_setup(&m))) {
		fprintf(stderr, "md: rank %d: no memory for %ld patches of "
			"%ld atoms\n", m.rank, m.o.ppr, m.o.atoms);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	m.req = malloc((size_t)m.nreq * sizeof *m.req);
	if (!m.req)
		MPI_Abort(MPI_COMM_WORLD, 2);

	double e[2] = { 0, 0 }, erec = 0, t0 = MPI_Wtime();
	timed(m.rank, "begin");
	for (long step = 0; step < m.o.steps; step++) {
#ifdef SIBYL_MPI
		sibyl_iteration(step);
#endif
		struct xsum s[2] = { { 0 } };   /* LJ, kinetic */
		force_step(&m, &s[0]);
		if (m.o.every && step % m.o.every == 0) {
			struct xsum er = { 0 };
			pme_step(&m, &er);
			if (m.pm.on)
				xsum_total(&er, 1, &erec, -1, m.pm.comm,
					   m.rank);
			seb_name("md_integrate");
		}
		integrate(&m, &s[1]);
		xsum_total(s, 2, e, 0, MPI_COMM_WORLD, m.rank);
	}
	double t1 = MPI_Wtime();
	timed(m.rank, "end");

	uint64_t mine = 0, sum = 0;
	for (long l = 0; l < m.o.ppr; l++) {
		struct patch *p = &m.p[l];
		for (long i = 0; i < m.o.atoms; i++) {
			uint64_t h = (uint64_t)(p->id * m.o.atoms + i);
			for (int d = 0; d < 3; d++) {
				h = mix(h, dbits(p->x[3 * i + d]));
				h = mix(h, dbits(p->v[3 * i + d]));
			}
			mine += h;
		}
	}
	MPI_Reduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (m.rank == 0) {
		printf("md: ranks=%d patches=%dx%dx%d per_rank=%ld atoms=%ld "
		       "neighbours=%d steps=%ld pme_every=%ld ", m.size,
		       m.dims[0], m.dims[1], m.dims[2], m.o.ppr, m.o.atoms,
		       m.o.nbrs, m.o.steps, m.o.every);
		if (m.o.every)
			printf("pme_ranks=%d pencils=%dx%d grid=%ldx%ldx%ld ",
			       m.pm.npme, m.pm.py, m.pm.pz, m.pm.G[0],
			       m.pm.G[1], m.pm.G[2]);
		printf("%selj=%.12e ekin=%.12e erec=%.12e checksum=0x%016llx\n",
		       m.o.declared ? "declared " : "", e[0], e[1], erec,
		       (unsigned long long)sum);
		printf("time: step_us=%.3f total_s=%.6f\n",
		       (t1 - t0) / (double)m.o.steps * 1e6, t1 - t0);
	}
	for (long l = 0; l < m.o.ppr; l++) {
		free(m.p[l].x);
		free(m.p[l].pc);
	}
	free(m.p);
	if (m.pm.on) {
		MPI_Comm_free(&m.pm.row);
		MPI_Comm_free(&m.pm.col);
		MPI_Comm_free(&m.pm.comm);
		free(m.pm.a);
		free(m.pm.pc);
	}
	free(m.req);
	MPI_Finalize();
	return 0;
}
