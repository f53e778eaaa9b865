/*
 * peer.h -- what the three SMPI peer programs share: options, the
 * virtual compute, the result line.
 *
 * The programs are ordinary MPI codes.  Built with smpicc they run on
 * SimGrid/SMPI, where smpi_execute_benched(T) makes the calling rank
 * spend exactly T seconds of simulated time on its host without doing
 * any real work; built with a real MPI compiler they busy-wait T
 * instead, so the same source can be checked on a real cluster.
 *
 * No mutable per-rank globals: the programs run with SMPI's global
 * privatization off (smpirun -no-privatize), so a global is shared by
 * all the ranks of the simulation.  The message buffers are exactly
 * that -- one send and one receive buffer for the whole simulation, as
 * the payload never matters.
 *
 * At the end every rank takes its simulated end time; rank 0 prints
 *   PEER pattern=NAME ranks=R iters=I predicted_time_s=T messages=M bytes=B
 * with T the latest end time of any rank (taken before the reduction,
 * so the reduction itself is not counted), M and B the totals sent.
 */
#ifndef PEER_H
#define PEER_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct peer_args {
	int iters;          /* --iters I (default 10) */
	long msg;           /* --msg-size BYTES (default 1024) */
	long face[3];       /* --face-sizes SX,SY,SZ (stencil3d) */
	double compute_s;   /* --compute-us T, in seconds (default 1 ms) */
	int k;              /* --neighbors K (kneighbor, default 4) */
	int grid[3];        /* --grid X,Y,Z (stencil3d, default: most cubic) */
} peer_args;

static void peer_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--iters I] [--msg-size BYTES] [--compute-us T]\n"
		"          [--neighbors K] [--grid X,Y,Z] "
		"[--face-sizes SX,SY,SZ]\n", prog);
	MPI_Abort(MPI_COMM_WORLD, 2);
}

static void peer_parse(int argc, char **argv, peer_args *a)
{
	memset(a, 0, sizeof *a);
	a->iters = 10;
	a->msg = 1024;
	a->compute_s = 1e-3;
	a->k = 4;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			peer_usage(argv[0]);
		if (!strcmp(o, "--iters"))
			a->iters = atoi(v);
		else if (!strcmp(o, "--msg-size"))
			a->msg = atol(v);
		else if (!strcmp(o, "--compute-us"))
			a->compute_s = atof(v) * 1e-6;
		else if (!strcmp(o, "--neighbors"))
			a->k = atoi(v);
		else if (!strcmp(o, "--grid")) {
			if (sscanf(v, "%d,%d,%d", &a->grid[0], &a->grid[1],
				   &a->grid[2]) != 3)
				peer_usage(argv[0]);
		} else if (!strcmp(o, "--face-sizes")) {
			if (sscanf(v, "%ld,%ld,%ld", &a->face[0], &a->face[1],
				   &a->face[2]) != 3)
				peer_usage(argv[0]);
		} else
			peer_usage(argv[0]);
		i++;
	}
	if (a->iters < 1 || a->msg < 0 || a->compute_s < 0 || a->k < 1)
		peer_usage(argv[0]);
	for (int d = 0; d < 3; d++)
		if (a->face[d] <= 0)
			a->face[d] = a->msg;
}

/* T seconds of computation on the calling rank's host. */
static void peer_compute(double t)
{
	if (t <= 0)
		return;
#ifdef SMPI_HELPERS_H
	smpi_execute_benched(t);
#else
	double end = MPI_Wtime() + t;
	while (MPI_Wtime() < end)
		;
#endif
}

/* The shared payload buffers (see the top of this file). */
static char *peer_sbuf, *peer_rbuf;

static void peer_buffers(long bytes)
{
	static long have;
	if (bytes > have) {
		/* Ranks are cooperative threads in SMPI: no race here. */
		peer_sbuf = realloc(peer_sbuf, bytes);
		peer_rbuf = realloc(peer_rbuf, bytes);
		if (!peer_sbuf || !peer_rbuf) {
			fprintf(stderr, "out of memory for %ld-byte buffers\n",
				bytes);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		memset(peer_sbuf, 1, bytes);
		have = bytes;
	}
}

static void peer_report(const char *pattern, const peer_args *a,
			double t_end, long long msgs, long long bytes)
{
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	double tmax = 0;
	long long in[2] = { msgs, bytes }, out[2] = { 0, 0 };
	MPI_Reduce(&t_end, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(in, out, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("PEER pattern=%s ranks=%d iters=%d predicted_time_s=%.12e "
		       "messages=%lld bytes=%lld\n", pattern, size, a->iters,
		       tmax, out[0], out[1]);
		fflush(stdout);
	}
}

#endif
