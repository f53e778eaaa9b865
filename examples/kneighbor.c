/*
 * kneighbor.c -- the K-Neighbor benchmark: halo exchange with k
 * neighbours on each side of a 1D ring.
 *
 * Usage: kneighbor [-a] [bytes [iters [k [compute_us]]]]
 *        kneighbor -h
 *        (defaults 1024 10 4 1000; k is lowered to size-1 when larger)
 *   -a   end every iteration with an MPI_Allreduce (the thesis' second
 *        version of the benchmark, for its noise and latency studies)
 *   -h   print this usage and exit
 *
 * The thesis' K-Neighbor benchmark (as `sibyl trace gen -p kneighbor'):
 * every iteration each rank p posts 2k MPI_Irecvs, one from each of
 * p-1, p+1, ..., p-k, p+k (mod size), computes compute_us microseconds
 * (declared with sibyl_compute() under sibylcc, a busy loop natively),
 * then MPI_Isends one `bytes'-byte message to each of p+1, p-1, ..., p+k,
 * p-k and MPI_Waitall's the 4k requests.  The message to p+d has tag 2d,
 * the one to p-d tag 2d+1, so every receive matches exactly one message
 * even when 2k >= size and neighbours coincide.
 *
 * With -a, every iteration then ends with an MPI_Allreduce (MPI_SUM) of
 * one 64-bit value, each rank's state, whose result every rank folds into
 * its state: a global synchronisation per iteration, as in the thesis
 * (K-Neighbor "with and without an allreduce", sections 7 and 8).  The
 * sum of unsigned integers is exact in any order, so the result does not
 * depend on the MPI library's reduction algorithm.
 *
 * Under sibylcc the SEB that computes is named "kneighbor_compute" (for
 * `sibyl sim -r seb:kneighbor_compute=...').
 *
 * The data is real: each rank keeps a 64-bit state, fills its outgoing
 * message from it, and after every iteration folds everything it
 * received (in a fixed order) into it.  At the end rank 0 collects every
 * state with plain Send/Recv, in rank order, into one checksum, which
 * therefore depends on every message of the run.
 *
 * Rank 0 prints, and nothing else prints:
 *   kneighbor: ranks=N k=K bytes=B iters=I compute_us=C checksum=0x...
 *   time: iter_us=... total_s=...
 * (with -a, the first line has "allreduce=1" before the checksum).
 * The first line is deterministic (the same natively and emulated); the
 * "time:" line is the measured (or, emulated, the virtual) time on rank
 * 0.  Needs 2 ranks or more.
 * Under sibylcc rank 0 also marks where the timed region begins and ends
 * (sibyl_print "timed: begin" and "timed: end"), so that `sibyl sim'
 * predicts the same region (prints.txt; bench/validate.py).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

#define TAG_STATE 0     /* the message tags are 2d and 2d+1, d >= 1 */

static const char usage[] =
	"usage: kneighbor [-a] [bytes [iters [k [compute_us]]]] "
	"(defaults 1024 10 4 1000)\n"
	"  -a  an MPI_Allreduce at the end of every iteration\n"
	"  -h  print this usage\n"
	"Needs 2 ranks or more.\n";

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

int main(int argc, char **argv)
{
	int p, r;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &p);
	MPI_Comm_size(MPI_COMM_WORLD, &r);
	int allreduce = 0, a = 1;
	for (; a < argc && argv[a][0] == '-' && argv[a][1]; a++) {
		if (!strcmp(argv[a], "-a")) {
			allreduce = 1;
		} else if (!strcmp(argv[a], "-h")) {
			if (p == 0)
				fputs(usage, stdout);
			MPI_Finalize();
			return 0;
		} else {
			break;
		}
	}
	argc -= a - 1;
	argv += a - 1;
	long bytes = argc > 1 ? atol(argv[1]) : 1024;
	long iters = argc > 2 ? atol(argv[2]) : 10;
	int k = argc > 3 ? atoi(argv[3]) : 4;
	double compute_us = argc > 4 ? atof(argv[4]) : 1000;
	if (k > r - 1)
		k = r - 1;
	if (r < 2 || argc > 5 || (argc > 1 && argv[1][0] == '-') ||
	    bytes < 0 || bytes > 1L << 30 || iters < 1 || k < 1 ||
	    compute_us < 0) {
		if (p == 0)
			fputs(usage, stderr);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	size_t sz = bytes > 0 ? (size_t)bytes : 1;
	unsigned char *sbuf = malloc(sz);
	unsigned char *rbuf = malloc(2 * (size_t)k * sz);
	MPI_Request *req = malloc(4 * (size_t)k * sizeof *req);
	if (!sbuf || !rbuf || !req)
		MPI_Abort(MPI_COMM_WORLD, 2);
	uint64_t state = 0x9e3779b97f4a7c15ull * (uint64_t)(p + 1);

	double t0 = MPI_Wtime();
	timed(p, "begin");
	for (long it = 0; it < iters; it++) {
#ifdef SIBYL_MPI
		sibyl_iteration(it);
#endif
		int n = 0;
		for (int d = 1; d <= k; d++) {
			/* p-d's message to its p+d, then p+d's to its p-d */
			MPI_Irecv(rbuf + (size_t)n * sz, (int)bytes, MPI_BYTE,
				  (int)((p - d + (long)r) % r), 2 * d,
				  MPI_COMM_WORLD, &req[n]);
			n++;
			MPI_Irecv(rbuf + (size_t)n * sz, (int)bytes, MPI_BYTE,
				  (int)((p + (long)d) % r), 2 * d + 1,
				  MPI_COMM_WORLD, &req[n]);
			n++;
		}
#ifdef SIBYL_MPI
		sibyl_seb_name("kneighbor_compute");
#endif
		compute(compute_us);
		fill(sbuf, bytes, state ^ (uint64_t)it);
		for (int d = 1; d <= k; d++) {
			MPI_Isend(sbuf, (int)bytes, MPI_BYTE,
				  (int)((p + (long)d) % r), 2 * d,
				  MPI_COMM_WORLD, &req[n++]);
			MPI_Isend(sbuf, (int)bytes, MPI_BYTE,
				  (int)((p - d + (long)r) % r), 2 * d + 1,
				  MPI_COMM_WORLD, &req[n++]);
		}
		MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
		state = fnv1a(state, rbuf, 2 * (long)k * bytes);
		if (allreduce) {
			uint64_t sum;
			MPI_Allreduce(&state, &sum, 1, MPI_UNSIGNED_LONG_LONG,
				      MPI_SUM, MPI_COMM_WORLD);
			state = mix(state, sum);
		}
	}
	double t1 = MPI_Wtime();
	timed(p, "end");

	if (p == 0) {
		uint64_t sum = fnv1a(0xcbf29ce484222325ull,
				     (unsigned char *)&state, sizeof state);
		for (int q = 1; q < r; q++) {
			uint64_t s;
			MPI_Recv(&s, 1, MPI_UNSIGNED_LONG_LONG, q, TAG_STATE,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			sum = fnv1a(sum, (unsigned char *)&s, sizeof s);
		}
		printf("kneighbor: ranks=%d k=%d bytes=%ld iters=%ld "
		       "compute_us=%g%s checksum=0x%016llx\n", r, k, bytes,
		       iters, compute_us, allreduce ? " allreduce=1" : "",
		       (unsigned long long)sum);
		printf("time: iter_us=%.3f total_s=%.6f\n",
		       (t1 - t0) / (double)iters * 1e6, t1 - t0);
	} else {
		MPI_Send(&state, 1, MPI_UNSIGNED_LONG_LONG, 0, TAG_STATE,
			 MPI_COMM_WORLD);
	}
	free(sbuf);
	free(rbuf);
	free(req);
	MPI_Finalize();
	return 0;
}
