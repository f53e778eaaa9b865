/*
 * p2p.c -- point-to-point curves for bench/validate.py: a ping-pong in
 * the style of osu_latency and a windowed bandwidth test in the style of
 * osu_bw, one message size after another.
 *
 * Usage: p2p pingpong|bw [-l SIZE,SIZE,...] [-m MAX] [-i ITERS] [-w WINDOW]
 *   pingpong  rank 0 sends SIZE bytes to rank 1 (MPI_Send), which sends
 *             them back; one iteration is one round trip
 *   bw        rank 0 posts WINDOW MPI_Isends of SIZE bytes to rank 1 and
 *             waits for them (MPI_Waitall); rank 1 has posted as many
 *             MPI_Irecvs, waits, and answers with a 4-byte message; one
 *             iteration is one window and its answer
 *   -l LIST   the message sizes, in bytes (default: 1, 2, 4, ..., MAX)
 *   -m MAX    the largest size of the default list (default 16 MiB for
 *             pingpong, 4 MiB for bw, as osu_bw)
 *   -i ITERS  iterations of every size (default: from the size, so that
 *             each size moves about the same number of bytes: 20,000
 *             round trips of small messages, down to 10 of 16 MiB; for
 *             bw 2,000 windows down to 4)
 *   -w WINDOW messages in flight in bw (default 64, as osu_bw)
 *
 * Each size is measured alone: a warm-up (a tenth of the iterations, at
 * least 2), an MPI_Barrier, then the timed iterations; rank 0 reads
 * MPI_Wtime after the barrier and after its last receive.  Ranks other
 * than 0 and 1 only take part in the barriers.
 *
 * Rank 0 prints, per size, one line:
 *   time: MODE size=N iters=I iter_us=T total_s=S ref_us=A,B
 * the mean time of one iteration in microseconds, the timed total, and
 * the one-way time of a 1-byte ping-pong (64 round trips) just before
 * and just after the size: the host's speed regime at that moment,
 * which `sibyl calibrate' measures before each of its samples as well
 * (a shared host can move between regimes every few seconds, every
 * message size slowing alike).
 * Built with sibylcc, rank 0 also marks the timed region of each size
 * with sibyl_print ("timed: begin MODE N" and "timed: end MODE N"), so
 * that `sibyl sim' puts the predicted time of the same region in its
 * prints.txt.  Plain MPI: builds with mpicc and with sibylcc.
 */
#include <mpi.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef SIBYL_MPI
#include <sibyl.h>
#endif

#define MAX_SIZES 64
#define MAX_BYTES (1L << 30)

static const char usage[] =
	"usage: p2p pingpong|bw [-l SIZE,SIZE,...] [-m MAX] [-i ITERS] "
	"[-w WINDOW]\n";

struct opts {
	int bw;                 /* 0: pingpong, 1: bw */
	long sizes[MAX_SIZES];
	int nsizes;
	long max, iters, window;
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

static int get_list(const char *s, struct opts *o)
{
	char buf[1024], *tok, *save;
	if (!s || strlen(s) >= sizeof buf)
		return -1;
	strcpy(buf, s);
	o->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (o->nsizes == MAX_SIZES ||
		    get_long(tok, 0, MAX_BYTES, &o->sizes[o->nsizes]))
			return -1;
		o->nsizes++;
	}
	return o->nsizes ? 0 : -1;
}

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .window = 64 };
	if (argc < 2)
		return -1;
	if (!strcmp(argv[1], "bw"))
		o->bw = 1;
	else if (strcmp(argv[1], "pingpong"))
		return -1;
	o->max = o->bw ? 1L << 22 : 1L << 24;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad;
		if (!strcmp(a, "-l"))
			bad = get_list(v, o);
		else if (!strcmp(a, "-m"))
			bad = get_long(v, 1, MAX_BYTES, &o->max);
		else if (!strcmp(a, "-i"))
			bad = get_long(v, 1, 1L << 30, &o->iters);
		else if (!strcmp(a, "-w"))
			bad = get_long(v, 1, 1 << 16, &o->window);
		else
			return -1;
		if (bad)
			return -1;
		i++;
	}
	if (!o->nsizes)
		for (long n = 1; n <= o->max && o->nsizes < MAX_SIZES; n *= 2)
			o->sizes[o->nsizes++] = n;
	return 0;
}

/* Iterations of a size: about the same bytes for every size. */
static long iters_of(const struct opts *o, long n)
{
	long it;
	if (o->iters)
		return o->iters;
	if (o->bw) {
		it = (1L << 30) / ((n > 256 ? n : 256) * o->window);
		return it < 4 ? 4 : it > 2000 ? 2000 : it;
	}
	it = (1L << 27) / (n > 4096 ? n : 4096);
	return it < 10 ? 10 : it > 20000 ? 20000 : it;
}

static void pingpong(int rank, char *buf, long n, long iters)
{
	for (long i = 0; i < iters; i++) {
		if (rank == 0) {
			MPI_Send(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(buf, (int)n, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		}
	}
}

/* The one-way time of a 1-byte ping-pong now, in microseconds (rank 0's;
 * 0 on the others). */
static double reference(int rank, char *buf)
{
	pingpong(rank, buf, 1, 4);
	double t0 = MPI_Wtime();
	pingpong(rank, buf, 1, 64);
	return (MPI_Wtime() - t0) / 128 * 1e6;
}

/* osu_bw: every message of a window uses the same buffer, as there. */
static void bw(int rank, char *buf, long n, long iters, long window,
	       MPI_Request *req)
{
	char ack[4] = { 0 };
	for (long i = 0; i < iters; i++) {
		if (rank == 0) {
			for (long w = 0; w < window; w++)
				MPI_Isend(buf, (int)n, MPI_BYTE, 1, 2,
					  MPI_COMM_WORLD, &req[w]);
			MPI_Waitall((int)window, req, MPI_STATUSES_IGNORE);
			MPI_Recv(ack, 4, MPI_BYTE, 1, 3, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			for (long w = 0; w < window; w++)
				MPI_Irecv(buf, (int)n, MPI_BYTE, 0, 2,
					  MPI_COMM_WORLD, &req[w]);
			MPI_Waitall((int)window, req, MPI_STATUSES_IGNORE);
			MPI_Send(ack, 4, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
		}
	}
}

int main(int argc, char **argv)
{
	int rank, size;
	struct opts o;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parse(argc, argv, &o) || size < 2) {
		if (rank == 0)
			fprintf(stderr, "%sNeeds 2 ranks or more.\n", usage);
		MPI_Finalize();
		return 2;
	}
	long max = 1;
	for (int s = 0; s < o.nsizes; s++)
		if (o.sizes[s] > max)
			max = o.sizes[s];
	char *buf = malloc((size_t)max);
	MPI_Request *req = malloc((size_t)o.window * sizeof *req);
	if (!buf || !req)
		MPI_Abort(MPI_COMM_WORLD, 2);
	memset(buf, rank + 1, (size_t)max);
	const char *mode = o.bw ? "bw" : "pingpong";

	for (int s = 0; s < o.nsizes; s++) {
		long n = o.sizes[s], iters = iters_of(&o, n);
		long warm = iters / 10 < 2 ? 2 : iters / 10;
		if (o.bw)
			bw(rank, buf, n, warm, o.window, req);
		else
			pingpong(rank, buf, n, warm);
		double ref0 = reference(rank, buf);
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
#ifdef SIBYL_MPI
		if (rank == 0)
			sibyl_print("timed: begin %s %ld", mode, n);
#endif
		if (o.bw)
			bw(rank, buf, n, iters, o.window, req);
		else
			pingpong(rank, buf, n, iters);
		double t1 = MPI_Wtime();
#ifdef SIBYL_MPI
		if (rank == 0)
			sibyl_print("timed: end %s %ld", mode, n);
#endif
		double ref1 = reference(rank, buf);
		if (rank == 0) {
			printf("time: %s size=%ld iters=%ld iter_us=%.4f "
			       "total_s=%.9f ref_us=%.4f,%.4f\n", mode, n,
			       iters, (t1 - t0) / (double)iters * 1e6, t1 - t0,
			       ref0, ref1);
			fflush(stdout);
		}
	}
	free(buf);
	free(req);
	MPI_Finalize();
	return 0;
}
