/*
 * alltoall.c -- repeated all-to-all exchanges, with every byte checked.
 *
 * Usage: alltoall [-b BYTES] [-i ITERS] [-g GROUP] [-v] [-c US] [-h]
 *   -b BYTES  bytes from each rank to each rank of its group, per
 *             iteration (default 1024)
 *   -i ITERS  iterations (default 10)
 *   -g GROUP  all-to-all within groups of GROUP consecutive ranks, split
 *             off with MPI_Comm_split (the last group may be smaller);
 *             default: all ranks (MPI_COMM_WORLD)
 *   -v        MPI_Alltoallv instead, with sizes that vary by pair:
 *             BYTES/2 + (31 src + 17 dst) mod (BYTES + 1) from group rank
 *             src to group rank dst (about BYTES on average)
 *   -c US     computation per iteration, in microseconds (default 0;
 *             declared with sibyl_compute() under sibylcc, natively a
 *             busy loop)
 *   -h        print this usage and exit
 *
 * The thesis' all-to-all study (section 9): every iteration each rank
 * fills one block per destination from a pseudo-random stream seeded with
 * (source, destination, iteration), calls MPI_Alltoall (or Alltoallv) on
 * its group, and checks every byte it received against the stream the
 * sender used.  The program only calls MPI_Alltoall; under the emulator
 * the algorithm is the emulator's choice, or the one asked for:
 *
 *     sibyl emulate --coll alltoall=percs ...   (or SIBYL_COLL=...)
 *
 * so the same binary traces each algorithm (the thesis compares pairwise
 * exchange with its PERCS-aware ordering, which needs the ranks per node:
 * `sibyl emulate --node-size N').  Natively it is the MPI
 * library's choice (Open MPI: --mca coll_tuned_alltoall_algorithm).
 *
 * SEBs: "alltoall_fill" (computation and filling the send buffer) and
 * "alltoall_check" (checking what arrived), for `sibyl sim -r seb:...'.
 *
 * Memory: two buffers of GROUP x BYTES per rank (and with -v four arrays
 * of GROUP ints); with 262,144 virtual ranks on 2 processes keep GROUP x
 * BYTES to a few KiB, e.g. `alltoall -g 1024 -b 4'.
 *
 * Rank 0 prints, and nothing else prints:
 *   alltoall: ranks=N group=G bytes=B iters=I op=alltoall compute_us=C
 *             checksum=0x... errors=0
 * (one line; op=alltoallv with -v), then
 *   time: alltoall_us=... iter_us=... total_s=... MBps=...
 * The first line is deterministic (the same natively and emulated; the
 * checksum, a hash of everything received, does not depend on the
 * algorithm); errors counts wrong bytes over all ranks and is 0 unless
 * the MPI is broken.  The "time:" line: mean time in the all-to-all and
 * per iteration on rank 0, and the bytes it sent per second of all-to-all
 * (emulated: virtual time).
 */
#include <mpi.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

static const char usage[] =
	"usage: alltoall [-b BYTES] [-i ITERS] [-g GROUP] [-v] [-c US] [-h]\n"
	"  -b BYTES  bytes per pair and iteration (default 1024)\n"
	"  -i ITERS  iterations (default 10)\n"
	"  -g GROUP  all-to-all in groups of GROUP ranks (default: all)\n"
	"  -v        MPI_Alltoallv, sizes varying by pair\n"
	"  -c US     computation per iteration, microseconds (default 0)\n"
	"  -h        print this usage\n";

struct opts {
	long bytes, iters, group;
	double compute_us;
	int vary;
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

/* 0: run, 1: -h, -1: error (message in err). */
static int parse(int argc, char **argv, struct opts *o, char *err,
		 size_t len)
{
	*o = (struct opts){ .bytes = 1024, .iters = 10 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		if (!strcmp(a, "-h"))
			return 1;
		if (!strcmp(a, "-v")) {
			o->vary = 1;
		} else if (!strcmp(a, "-b")) {
			bad = get_long(v, 0, 1L << 30, &o->bytes), i++;
		} else if (!strcmp(a, "-i")) {
			bad = get_long(v, 1, 1L << 40, &o->iters), i++;
		} else if (!strcmp(a, "-g")) {
			bad = get_long(v, 1, 1L << 31, &o->group), i++;
		} else if (!strcmp(a, "-c")) {
			bad = get_double(v, 0, 1e12, &o->compute_us), i++;
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
	return 0;
}

/* Spend `us' microseconds of computation. */
static void compute(double us)
{
	if (us <= 0)
		return;
#ifdef SIBYL_MPI
	sibyl_compute(us * 1e-6);
#else
	double end = MPI_Wtime() + us * 1e-6;
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

static uint64_t mix(uint64_t x, uint64_t v)
{
	x ^= v + 0x9e3779b97f4a7c15ull + (x << 6) + (x >> 2);
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 31);
}

/* The stream a block is filled from: xorshift64*, 8 bytes per step. */
static uint64_t next(uint64_t *x)
{
	*x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

static uint64_t seed(long src, long dst, long it)
{
	return mix(mix((uint64_t)src, (uint64_t)dst), (uint64_t)it) | 1;
}

static void fill(unsigned char *p, long n, uint64_t x)
{
	for (long i = 0; i < n; i += 8) {
		uint64_t v = next(&x);
		memcpy(p + i, &v, n - i < 8 ? (size_t)(n - i) : 8);
	}
}

/* Compare n bytes with the stream from x; fold them into *h.  Returns
 * the number of wrong bytes. */
static long check(const unsigned char *p, long n, uint64_t x, uint64_t *h)
{
	long bad = 0;
	for (long i = 0; i < n; i += 8) {
		uint64_t want = next(&x), got = 0;
		size_t k = n - i < 8 ? (size_t)(n - i) : 8;
		memcpy(&got, p + i, k);
		if (k < 8)
			want &= (1ull << (8 * k)) - 1;
		for (uint64_t d = got ^ want; d; d >>= 8)
			bad += (d & 0xff) != 0;
		*h = mix(*h, got);
	}
	return bad;
}

/* Bytes from group rank s to group rank d. */
static long pair_bytes(const struct opts *o, long s, long d)
{
	if (!o->vary)
		return o->bytes;
	return o->bytes / 2 + (31 * s + 17 * d) % (o->bytes + 1);
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
	if (st) {
		if (rank == 0 && st < 0)
			fprintf(stderr, "alltoall: %s\n%s", err, usage);
		else if (rank == 0)
			fputs(usage, stdout);
		MPI_Finalize();
		return st < 0 ? 2 : 0;
	}
	if (o.group == 0 || o.group > size)
		o.group = size;

	MPI_Comm comm = MPI_COMM_WORLD;
	if (o.group < size)
		MPI_Comm_split(MPI_COMM_WORLD, rank / (int)o.group, rank,
			       &comm);
	int me, gs;
	MPI_Comm_rank(comm, &me);
	MPI_Comm_size(comm, &gs);
	long base = rank - me;  /* world rank of group rank 0 */

	/* Send and receive layouts; without -v every block is o.bytes. */
	int *sc = NULL, *sd = NULL, *rc = NULL, *rd = NULL;
	long stot = o.bytes * gs, rtot = o.bytes * gs;
	if (o.vary) {
		sc = malloc(4 * (size_t)gs * sizeof *sc);
		if (!sc)
			MPI_Abort(MPI_COMM_WORLD, 2);
		sd = sc + gs, rc = sd + gs, rd = rc + gs;
		stot = rtot = 0;
		for (int j = 0; j < gs; j++) {
			sc[j] = (int)pair_bytes(&o, me, j);
			rc[j] = (int)pair_bytes(&o, j, me);
			sd[j] = (int)stot, rd[j] = (int)rtot;
			stot += sc[j], rtot += rc[j];
		}
		if (stot > 1L << 31 || rtot > 1L << 31) {
			if (rank == 0)
				fprintf(stderr, "alltoall: -b %ld with groups "
					"of %d ranks exceeds 2 GiB per rank\n",
					o.bytes, gs);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	unsigned char *sbuf = malloc(stot > 0 ? (size_t)stot : 1);
	unsigned char *rbuf = malloc(rtot > 0 ? (size_t)rtot : 1);
	if (!sbuf || !rbuf) {
		fprintf(stderr, "alltoall: rank %d: no memory for 2 x %ld "
			"bytes\n", rank, stot);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}

	uint64_t h = mix(0xa11, (uint64_t)rank);
	long errors = 0;
	double t_a2a = 0, t0 = MPI_Wtime();
	for (long it = 0; it < o.iters; it++) {
#ifdef SIBYL_MPI
		sibyl_iteration(it);
#endif
		seb_name("alltoall_fill");
		compute(o.compute_us);
		for (int j = 0; j < gs; j++)
			fill(sbuf + (o.vary ? sd[j] : j * o.bytes),
			     pair_bytes(&o, me, j), seed(rank, base + j, it));
		double ta = MPI_Wtime();
		if (o.vary)
			MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd,
				      MPI_BYTE, comm);
		else
			MPI_Alltoall(sbuf, (int)o.bytes, MPI_BYTE, rbuf,
				     (int)o.bytes, MPI_BYTE, comm);
		t_a2a += MPI_Wtime() - ta;
		seb_name("alltoall_check");
		for (int j = 0; j < gs; j++)
			errors += check(rbuf + (o.vary ? rd[j] : j * o.bytes),
					pair_bytes(&o, j, me),
					seed(base + j, rank, it), &h);
	}
	double t1 = MPI_Wtime();

	/* Sums of integers: exact in any order. */
	unsigned long long in[2] = { mix((uint64_t)rank, h),
				     (unsigned long long)errors }, out[2];
	MPI_Reduce(in, out, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (rank == 0) {
		printf("alltoall: ranks=%d group=%ld bytes=%ld iters=%ld op=%s "
		       "compute_us=%g checksum=0x%016llx errors=%llu\n", size,
		       o.group, o.bytes, o.iters,
		       o.vary ? "alltoallv" : "alltoall", o.compute_us,
		       out[0], out[1]);
		printf("time: alltoall_us=%.3f iter_us=%.3f total_s=%.6f "
		       "MBps=%.3f\n", t_a2a / (double)o.iters * 1e6,
		       (t1 - t0) / (double)o.iters * 1e6, t1 - t0,
		       t_a2a > 0 ? (double)stot * (double)o.iters / t_a2a / 1e6
				 : 0.0);
	}
	if (errors)
		fprintf(stderr, "alltoall: rank %d received %ld wrong bytes\n",
			rank, errors);
	if (comm != MPI_COMM_WORLD)
		MPI_Comm_free(&comm);
	free(sbuf);
	free(rbuf);
	free(sc);
	MPI_Finalize();
	return errors ? 1 : 0;
}
