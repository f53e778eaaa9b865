/*
 * probe.c -- sibyl-probe, the measuring half of `sibyl calibrate': a
 * plain MPI program, started by mpirun on the machine to calibrate, that
 * measures what a machine description needs and writes the raw samples
 * as CSV for `sibyl calibrate' to fit.
 *
 * What it measures, between rank 0 and the first rank on its own node
 * ("intra") and the first rank on another node ("inter", when there is
 * one):
 *   pingpong    one-way time of a blocking MPI_Send/MPI_Recv ping-pong,
 *               half a round trip;
 *   pingpong_nb the same with MPI_Isend/MPI_Irecv and MPI_Wait;
 *   os          the time MPI_Send takes at the sender when the receive is
 *               already posted (LogGP's send overhead; for rendezvous
 *               sizes, the whole transfer);
 *   or          the time MPI_Recv takes when the message was sent well
 *               before (the receive overhead; for rendezvous sizes the
 *               transfer, which waits for the receive);
 *   stream      the time a message adds to a stream of them: a window of
 *               64 MPI_Isend back to back (osu_bw), per message; the
 *               rate at which a rank takes in messages, which a
 *               ping-pong, paying every latency in full, does not show;
 *   isend       the time the sender spends posting each MPI_Isend of
 *               such a window (the receives posted before): the send
 *               overhead of a non-blocking send, which grows with the
 *               size as the data is copied into the transport (LogGOPS's
 *               o and O), where a blocking send's ("os") also waits for
 *               its completion;
 * and on rank 0 alone the memcpy bandwidth ("copy"), and on every rank at
 * once a reference kernel ("kernel"), whose time per core shows how the
 * cores and nodes differ.
 *
 * Every (kind, size, repetition) is measured in an order shuffled by a
 * seeded generator that both ranks of a pair follow, so that a drift of
 * the machine during the run spreads over all sizes instead of biasing
 * some; each sample starts after a zero-byte exchange that puts the two
 * ranks in step.  Small messages are timed over several round trips, so
 * that the timer's resolution does not count.
 *
 * Every sample of a pair carries its reference ("ref"): the one-way time
 * of a 1-byte ping-pong measured just before it.  A shared host can move
 * between speed regimes (on a 2-core virtual machine the two cores' round
 * trip alternated between 0.26 and 0.76 us every 10 to 30 s, every size
 * slowing alike); the reference says which regime each sample saw, and
 * `sibyl calibrate' fits one regime at a time (calib_fit.c).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

/*
 * In a sanitizer build, what Open MPI allocates from MPI_Init to exit
 * (and keeps on purpose, some of it from threads and libraries it
 * unloads) is its own business, as in the emulator's transport: the
 * probe ends with _exit, which skips the leak check at exit.  Its own
 * few buffers are freed explicitly before; the address and
 * undefined-behaviour checks stay on throughout.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PROBE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROBE_LSAN 1
#endif
#endif
#ifdef PROBE_LSAN
#define PROBE_EXIT(rc) (fflush(NULL), _exit(rc))
#else
#define PROBE_EXIT(rc) return (rc)
#endif

#define PROBE_VERSION 2

/* The kinds a pair measures come first: the plan of a pair holds them. */
enum kind { K_PP, K_PPNB, K_OS, K_OR, K_STREAM, K_ISEND, NPAIRKINDS,
	    K_COPY = NPAIRKINDS, K_KERNEL, NKINDS };
static const char *const kind_names[NKINDS] = {
	"pingpong", "pingpong_nb", "os", "or", "stream", "isend", "copy",
	"kernel"
};

/*
 * Messages in flight in a stream sample: osu_bw's 64 at every size.  The
 * depth matters for small messages: osu_bw's windows of 128 B took 131 ns
 * a message on a 2-core VM, of 64 B 79 ns (64 of them no longer fit the
 * shared-memory transport's fast path), where windows of 16 moved to the
 * slower rate only above 256 B.  It matters for large ones too: a window
 * starts with a handshake and a copy no other message overlaps, which 16
 * messages of 1 to 4 MiB share out at 10 to 20% more a message than 64
 * do (a 2-core VM, Open MPI 4.1's vader, osu_bw's loop at both depths).
 */
#define STREAM_WINDOW 64

static const char *const pair_names[2] = { "intra", "inter" };

typedef struct opts {
	const char *out;
	uint64_t max_size;
	unsigned nsizes, reps, kernel_reps;
	uint64_t seed;
	int quiet;
} opts;

typedef struct sample {
	unsigned char kind, pair;
	uint64_t size;
	double seconds;
	double ref;	/* the 1-byte one-way time before it; 0: none */
} sample;

typedef struct samples {
	sample *v;
	size_t n, cap;
} samples;

static int rank, nranks;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						       noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sibyl-probe: rank %d: ", rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	MPI_Abort(MPI_COMM_WORLD, 2);
	exit(2);
}

static void add(samples *s, int kind, int pair, uint64_t size, double sec,
		double ref)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v)
			die("out of memory for %zu samples", s->cap);
	}
	s->v[s->n++] = (sample){ (unsigned char)kind, (unsigned char)pair,
				 size, sec, ref };
}

/* SplitMix64: the shuffles and the sizes. */
static uint64_t next64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The sizes: 0, every power of two up to max and its neighbours 2^k - 1
 * and 2^k + 1 up to 64 KiB (where MPI libraries put their protocol
 * limits), 1.25, 1.5 and 1.75 times every power of two from 1 MiB, and
 * log-uniform random sizes up to nsizes in all; sorted and distinct.
 */
static size_t make_sizes(const opts *o, uint64_t **out)
{
	size_t cap = (size_t)o->nsizes + 200, n = 0;
	uint64_t *v = malloc(cap * sizeof *v), s = o->seed ^ 0x73697a6573ULL;
	double lmax = log2((double)o->max_size);

	if (!v)
		die("out of memory");
	v[n++] = 0;
	for (uint64_t p = 1; p <= o->max_size && n + 3 < cap; p *= 2) {
		v[n++] = p;
		if (p >= 4 && p <= 65536) {
			v[n++] = p - 1;
			v[n++] = p + 1;
		}
		/* Past the caches the time bends with the size: quarter
		 * octaves give each piece its points there. */
		for (int q = 5; q < 8 && p >= 1048576 && n < cap; q++)
			v[n++] = p / 4 * (uint64_t)q;
	}
	while (n < o->nsizes && n < cap) {
		double u = (double)(next64(&s) >> 11) / 9007199254740992.0;

		v[n++] = (uint64_t)floor(exp2(u * lmax));
	}
	qsort(v, n, sizeof *v, cmp_u64);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if ((m == 0 || v[i] != v[m - 1]) && v[i] <= o->max_size)
			v[m++] = v[i];
	*out = v;
	return m;
}

/* Zero-byte exchange: both ranks of the pair leave it about together. */
static void in_step(int peer, int lead)
{
	char c = 0;

	if (lead) {
		MPI_Send(&c, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
		MPI_Recv(&c, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&c, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Send(&c, 0, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
	}
}

/*
 * Round trips a sample of `size' bytes averages over, and the untimed
 * ones before it.  A message of 256 B timed over 20 round trips after 4
 * untimed ones took 24% longer (median of 50, on a 2-core VM) than in a
 * loop of 20,000, which osu_latency and a program repeating its
 * exchanges run; 64 after 16 took as long as the loop.  Above 64 KiB, 4
 * after 2: two round trips of 1 MiB took 8% longer each than four.
 */
static int trips(uint64_t size)
{
	return size <= 4096 ? 64 : size <= 65536 ? 8 : 4;
}

static int warm_trips(uint64_t size)
{
	return size <= 4096 ? 16 : size <= 65536 ? 4 : 2;
}

/* Round trips of the reference, 1 byte: 20 to 60 us. */
#define REF_TRIPS 64

static void spin(double sec)
{
	double t0 = MPI_Wtime();

	while (MPI_Wtime() - t0 < sec)
		;
}

/* m round trips of n bytes, blocking (k == K_PP) or not. */
static void round_trips(int k, int n, int m, int peer, int lead, char *buf)
{
	MPI_Request rq;
	int tag = k == K_PP ? 2 : 3;

	for (int i = 0; i < m; i++) {
		if (k == K_PP && lead) {
			MPI_Send(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
			MPI_Recv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (k == K_PP) {
			MPI_Recv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
		} else if (lead) {
			MPI_Isend(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				  &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
			MPI_Irecv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				  &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		} else {
			MPI_Irecv(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				  &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
			MPI_Isend(buf, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
				  &rq);
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
	}
}

/* The reference: the one-way time of a 1-byte ping-pong, now. */
static double reference(int peer, int lead, char *buf)
{
	double t0;

	round_trips(K_PP, 1, 4, peer, lead, buf);
	t0 = MPI_Wtime();
	round_trips(K_PP, 1, REF_TRIPS, peer, lead, buf);
	return (MPI_Wtime() - t0) / (2.0 * REF_TRIPS);
}

/* A window of w messages of n bytes from the lead to the
 * peer, back to back, and a zero-byte answer once all are in.  post:
 * when not NULL, the peer posts its receives before the lead starts, and
 * the lead's time from its first MPI_Isend to the return of its last
 * goes there. */
static void stream(int n, int w, int peer, int lead, char *buf,
		   double *post)
{
	MPI_Request rq[STREAM_WINDOW];
	char c = 0;
	double t0;

	if (post && !lead)
		for (int i = 0; i < w; i++)
			MPI_Irecv(buf, n, MPI_BYTE, peer, 6, MPI_COMM_WORLD,
				  &rq[i]);
	if (post)
		in_step(peer, lead);
	t0 = MPI_Wtime();
	for (int i = 0; i < w; i++) {
		if (lead)
			MPI_Isend(buf, n, MPI_BYTE, peer, 6, MPI_COMM_WORLD,
				  &rq[i]);
		else if (!post)
			MPI_Irecv(buf, n, MPI_BYTE, peer, 6, MPI_COMM_WORLD,
				  &rq[i]);
	}
	if (post)
		*post = MPI_Wtime() - t0;
	MPI_Waitall(w, rq, MPI_STATUSES_IGNORE);
	if (lead)
		MPI_Recv(&c, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	else
		MPI_Send(&c, 0, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
}

/*
 * One sample of kind k for `size' bytes; the lead returns its time.
 *
 * Every sample is taken warm: the same exchange runs once untimed just
 * before (a round trip of the size, or a send of it).  The plan shuffles
 * sizes up to 16 MiB with the small ones, and a sample taken right after
 * a large one would find its buffers, and the MPI library's, out of the
 * caches, which a program repeating its exchanges does not (osu_latency
 * warms up likewise).
 */
static double measure(int k, uint64_t size, int peer, int lead, char *buf,
		      double *ref)
{
	int n = (int)size, m = trips(size);
	MPI_Request rq;
	double t0 = 0, t = 0;

	in_step(peer, lead);
	*ref = reference(peer, lead, buf);
	switch (k) {
	case K_PP:
	case K_PPNB:
		round_trips(k, n, warm_trips(size), peer, lead, buf);
		in_step(peer, lead);
		t0 = MPI_Wtime();
		round_trips(k, n, m, peer, lead, buf);
		return (MPI_Wtime() - t0) / (2.0 * m);
	case K_STREAM:
		/* The time a message of a stream adds: a window's, less the
		 * first message's way there and the answer's way back (a
		 * 1-byte round trip, the reference's), per message.  Without
		 * it a window of 16 1-byte messages gave 72 ns a message on a
		 * 2-core VM, where osu_bw's window of 64 took 62 ns with its
		 * answer.  Up to 64 KiB, the mean of four windows back to
		 * back, as osu_bw's loop runs them: one window just after
		 * the ranks were put in step took 14 to 17% less than the
		 * loop's at 512 B and 1 KiB (2-core VM, alternating runs),
		 * four 1 to 6%. */
		stream(n, STREAM_WINDOW, peer, lead, buf, NULL);
		in_step(peer, lead);
		m = size > 65536 ? 1 : 4;
		t0 = MPI_Wtime();
		for (int i = 0; i < m; i++)
			stream(n, STREAM_WINDOW, peer, lead, buf, NULL);
		t = (MPI_Wtime() - t0) / m;
		return (t - 2 * *ref > t / 2 ? t - 2 * *ref : t / 2) /
		       STREAM_WINDOW;
	case K_ISEND:
		/* Posting a window's sends, per send: the receives wait
		 * posted, so that each send finds its match as a real
		 * exchange's do.  Above 64 KiB posting sends a request, not
		 * the data, and costs the same in windows of 16 as of 64 (a
		 * 2-core VM, Open MPI 4.1's vader): 16 move a quarter of the
		 * bytes. */
		m = size > 65536 ? 16 : STREAM_WINDOW;
		stream(n, m, peer, lead, buf, &t);
		stream(n, m, peer, lead, buf, &t);
		return t / m;
	case K_OS:
		round_trips(K_PP, n, 1, peer, lead, buf);
		in_step(peer, lead);
		/* The receive is posted before the second exchange. */
		if (!lead)
			MPI_Irecv(buf, n, MPI_BYTE, peer, 4, MPI_COMM_WORLD,
				  &rq);
		in_step(peer, lead);
		if (lead) {
			t0 = MPI_Wtime();
			MPI_Send(buf, n, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
			t = MPI_Wtime() - t0;
		} else {
			MPI_Wait(&rq, MPI_STATUS_IGNORE);
		}
		return t;
	default:
		round_trips(K_PP, n, 1, peer, lead, buf);
		in_step(peer, lead);
		/* The peer sends; the lead receives once the message had
		 * time to arrive (eager sizes). */
		if (!lead) {
			MPI_Send(buf, n, MPI_BYTE, peer, 5, MPI_COMM_WORLD);
			return 0;
		}
		spin(5e-6 + (double)size / 1e9);
		t0 = MPI_Wtime();
		MPI_Recv(buf, n, MPI_BYTE, peer, 5, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		return MPI_Wtime() - t0;
	}
}

/* The plan of a pair: every (kind, size, rep), shuffled by the seed. */
static uint32_t *make_plan(const opts *o, size_t nsizes, size_t *np)
{
	size_t n = (size_t)NPAIRKINDS * nsizes * o->reps;
	uint32_t *p = malloc(n * sizeof *p);
	uint64_t s = o->seed;

	if (!p)
		die("out of memory for a plan of %zu samples", n);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint32_t)(i / o->reps);	/* kind * nsizes + size */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(next64(&s) % (i + 1));
		uint32_t t = p[i];

		p[i] = p[j];
		p[j] = t;
	}
	*np = n;
	return p;
}

static void progress(const opts *o, const char *what, size_t done,
		     size_t total)
{
	if (o->quiet || rank != 0 || (done % 256 && done != total))
		return;
	fprintf(stderr, "\rsibyl-probe: %s %3zu%%", what, done * 100 / total);
	if (done == total)
		fputc('\n', stderr);
}

/* Measure pair (0, peer), as pair number `pair'; rank 0 keeps the
 * samples. */
static void run_pair(const opts *o, int pair, int peer, const uint64_t *sz,
		     size_t nsz, samples *out)
{
	size_t np;
	uint32_t *plan;
	char *buf;

	MPI_Barrier(MPI_COMM_WORLD);
	if (rank != 0 && rank != peer)
		return;
	plan = make_plan(o, nsz, &np);
	buf = malloc(o->max_size ? o->max_size : 1);
	if (!buf)
		die("out of memory for a %" PRIu64 "-byte buffer", o->max_size);
	memset(buf, 1, o->max_size);
	for (size_t i = 0; i < np; i++) {
		int k = (int)(plan[i] / nsz);
		uint64_t size = sz[plan[i] % nsz];
		double ref, t = measure(k, size, rank == 0 ? peer : 0,
					rank == 0, buf, &ref);

		if (rank == 0)
			add(out, k, pair, size, t, ref);
		progress(o, pair ? "inter-node" : "intra-node", i + 1, np);
	}
	free(buf);
	free(plan);
}

/* memcpy from 1 KiB to 64 MiB on rank 0. */
static void run_copy(const opts *o, samples *out)
{
	const uint64_t big = 64ULL << 20;
	char *a = malloc(big), *b = malloc(big);
	uint64_t s = o->seed ^ 0x636f7079ULL;
	uint64_t sizes[40];
	size_t n = 0;

	if (!a || !b)
		die("out of memory for the copy buffers");
	memset(a, 1, big);
	memset(b, 2, big);
	for (uint64_t z = 1024; z <= big; z *= 2)
		sizes[n++] = z;
	for (unsigned r = 0; r < o->reps * (unsigned)n; r++) {
		uint64_t z = sizes[next64(&s) % n];
		int m = z <= 65536 ? 64 : z <= 4194304 ? 4 : 1;
		double t0 = MPI_Wtime();

		for (int i = 0; i < m; i++) {
			memcpy(b, a, z);
			a[i % 64] ^= b[z - 1];	/* keep the copies */
		}
		add(out, K_COPY, 0, z, (MPI_Wtime() - t0) / m, 0);
	}
	free(a);
	free(b);
}

/* The reference kernel: a dependent chain of floating-point operations,
 * the same work on every core; its time is the core's speed. */
static double kernel(void)
{
	volatile double sink;
	double x = 1.0, t0 = MPI_Wtime();

	for (long i = 0; i < 20000000; i++)
		x = x * 1.0000000001 + 1e-12;
	sink = x;
	(void)sink;
	return MPI_Wtime() - t0;
}

/* Every rank runs the kernel kernel_reps times, all at once; rank 0
 * writes the times with each rank's host and CPU. */
static void run_kernel(const opts *o, FILE *f)
{
	int nt = (int)o->kernel_reps;
	double *mine = malloc((size_t)nt * sizeof *mine), *all = NULL;
	char host[MPI_MAX_PROCESSOR_NAME] = "", *hosts = NULL;
	int len, cpu, *cpus = NULL;

	if (!mine)
		die("out of memory");
	MPI_Get_processor_name(host, &len);
	for (int i = 0; i < nt; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		mine[i] = kernel();
		progress(o, "reference kernel", (size_t)i + 1, (size_t)nt);
	}
	cpu = sched_getcpu();
	if (rank == 0) {
		all = malloc((size_t)nt * nranks * sizeof *all);
		hosts = malloc((size_t)nranks * MPI_MAX_PROCESSOR_NAME);
		cpus = malloc((size_t)nranks * sizeof *cpus);
		if (!all || !hosts || !cpus)
			die("out of memory");
	}
	MPI_Gather(mine, nt, MPI_DOUBLE, all, nt, MPI_DOUBLE, 0,
		   MPI_COMM_WORLD);
	MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts,
		   MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Gather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (int r = 0; rank == 0 && r < nranks; r++)
		for (int i = 0; i < nt; i++)
			fprintf(f, "kernel,%d,0,%.9e,%s,%d,\n", r,
				all[(size_t)r * nt + i],
				hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME,
				cpus[r]);
	free(mine);
	free(all);
	free(hosts);
	free(cpus);
}

/*
 * The peers of rank 0: the lowest other rank on its node (intra) and the
 * lowest rank on another node (inter), or -1.  A node is what
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups.
 */
static void find_peers(int *intra, int *inter, int *nnodes)
{
	MPI_Comm node;
	int leader, *leaders = malloc((size_t)nranks * sizeof *leaders);

	if (!leaders)
		die("out of memory");
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	/* The lowest world rank of my node names it. */
	MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node);
	MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT,
		      MPI_COMM_WORLD);
	*intra = *inter = -1;
	*nnodes = 0;
	for (int r = 0; r < nranks; r++) {
		if (leaders[r] == r)
			(*nnodes)++;
		if (r == 0)
			continue;
		if (leaders[r] == leaders[0] && *intra < 0)
			*intra = r;
		if (leaders[r] != leaders[0] && *inter < 0)
			*inter = r;
	}
	free(leaders);
	MPI_Comm_free(&node);
}

static const char usage[] =
"Usage: mpirun -np P sibyl-probe --out FILE [OPTIONS]\n"
"\n"
"The measuring half of 'sibyl calibrate', which starts it: point-to-point\n"
"times between rank 0 and a rank of its node and one of another node,\n"
"memcpy bandwidth and a reference kernel on every rank, as CSV in FILE.\n"
"\n"
"  --out FILE         where to write the samples (required)\n"
"  --max-size BYTES   largest message (default 16777216)\n"
"  --sizes N          message sizes, at least (default 60)\n"
"  --reps R           samples of each kind and size (default 10)\n"
"  --kernel-reps K    runs of the reference kernel per rank (default 5)\n"
"  --seed S           seed of the sizes and of the order (default 1)\n"
"  --quiet            no progress on standard error\n";

static uint64_t number(const char *opt, const char *s, uint64_t lo,
		       uint64_t hi)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi)
		die("%s: '%s' is not a whole number from %" PRIu64 " to %"
		    PRIu64, opt, s, lo, hi);
	return v;
}

static void parse(int argc, char **argv, opts *o)
{
	*o = (opts){ NULL, 16777216, 60, 10, 5, 1, 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			if (rank == 0)
				fputs(usage, stdout);
			MPI_Finalize();
			fflush(NULL);
			_exit(0);
		}
		if (!strcmp(a, "--quiet")) {
			o->quiet = 1;
			continue;
		}
		if (!v)
			die("%s: unknown option or missing value; see --help",
			    a);
		i++;
		if (!strcmp(a, "--out"))
			o->out = v;
		else if (!strcmp(a, "--max-size"))
			o->max_size = number(a, v, 1, 1ULL << 30);
		else if (!strcmp(a, "--sizes"))
			o->nsizes = (unsigned)number(a, v, 3, 10000);
		else if (!strcmp(a, "--reps"))
			o->reps = (unsigned)number(a, v, 1, 1000);
		else if (!strcmp(a, "--kernel-reps"))
			o->kernel_reps = (unsigned)number(a, v, 1, 1000);
		else if (!strcmp(a, "--seed"))
			o->seed = number(a, v, 0, UINT64_MAX);
		else
			die("%s: unknown option; see --help", a);
	}
	if (!o->out)
		die("--out FILE is required; see --help");
}

static void write_samples(FILE *f, const samples *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const sample *x = &s->v[i];

		fprintf(f, "%s,%s,%" PRIu64 ",%.9e,,,", kind_names[x->kind],
			x->kind == K_COPY ? "" : pair_names[x->pair], x->size,
			x->seconds);
		if (x->ref > 0)
			fprintf(f, "%.4e", x->ref);
		fputc('\n', f);
	}
}

int main(int argc, char **argv)
{
	int peers[2], nnodes;
	samples s = { NULL, 0, 0 };
	uint64_t *sizes;
	size_t nsizes;
	FILE *f = NULL;
	char tmp[4096];
	opts o;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	parse(argc, argv, &o);
	if (nranks < 2)
		die("needs at least 2 ranks (mpirun -np 2), got %d", nranks);
	if (rank == 0) {
		snprintf(tmp, sizeof tmp, "%s.tmp", o.out);
		if (!(f = fopen(tmp, "w")))
			die("cannot write %s: %s", tmp, strerror(errno));
	}
	find_peers(&peers[0], &peers[1], &nnodes);
	nsizes = make_sizes(&o, &sizes);
	if (f)
		fprintf(f, "# sibyl-probe %d: %d ranks on %d nodes, sizes "
			"%zu to %" PRIu64 " bytes, %u repetitions, seed %"
			PRIu64 "\nkind,pair,size,seconds,host,cpu,ref\n",
			PROBE_VERSION, nranks, nnodes, nsizes,
			sizes[nsizes - 1], o.reps, o.seed);
	for (int p = 0; p < 2; p++)
		if (peers[p] >= 0)
			run_pair(&o, p, peers[p], sizes, nsizes, &s);
	if (rank == 0)
		run_copy(&o, &s);
	MPI_Barrier(MPI_COMM_WORLD);
	run_kernel(&o, f);
	if (rank == 0) {
		write_samples(f, &s);
		if (fflush(f) || ferror(f) || fclose(f) || rename(tmp, o.out))
			die("cannot write %s: %s", o.out, strerror(errno));
	}
	free(s.v);
	free(sizes);
	MPI_Finalize();
	PROBE_EXIT(0);
}
