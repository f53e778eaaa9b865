/*
 * kneighbor.c -- SMPI peer of `sibyl trace gen -p kneighbor` (without
 * --allreduce).
 *
 * Ring of R ranks.  Every iteration: compute T, then Isend one message
 * to p+1, p-1, p+2, p-2, ..., p+K, p-K (mod R), then Waitall for the 2K
 * messages addressed to p.  Sibyl tags the message to p+d with +d and
 * the one to p-d with -d; MPI tags are non-negative, so here they are
 * 2d and 2d+1.  The receives are posted before the compute.
 *
 * Options: --iters I --compute-us T --msg-size S --neighbors K.
 */
#include "peer.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	peer_args a;
	peer_parse(argc, argv, &a);
	int p, r;
	MPI_Comm_rank(MPI_COMM_WORLD, &p);
	MPI_Comm_size(MPI_COMM_WORLD, &r);
	int k = a.k;
	if (k > r - 1) {
		if (p == 0)
			fprintf(stderr, "K = %d needs more than %d ranks\n", k, r);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	peer_buffers(a.msg);
	MPI_Request *req = malloc(4 * (size_t)k * sizeof *req);
	long long msgs = 0, bytes = 0;
	for (int it = 0; it < a.iters; it++) {
		int n = 0;
		for (int d = 1; d <= k; d++) {
			/* from p-d: its message to p+d (tag 2d); from p+d: tag 2d+1 */
			MPI_Irecv(peer_rbuf, (int)a.msg, MPI_BYTE,
				  (int)((p - d + (long)r) % r), 2 * d,
				  MPI_COMM_WORLD, &req[n++]);
			MPI_Irecv(peer_rbuf, (int)a.msg, MPI_BYTE,
				  (int)((p + (long)d) % r), 2 * d + 1,
				  MPI_COMM_WORLD, &req[n++]);
		}
		peer_compute(a.compute_s);
		for (int d = 1; d <= k; d++) {
			MPI_Isend(peer_sbuf, (int)a.msg, MPI_BYTE,
				  (int)((p + (long)d) % r), 2 * d,
				  MPI_COMM_WORLD, &req[n++]);
			MPI_Isend(peer_sbuf, (int)a.msg, MPI_BYTE,
				  (int)((p - d + (long)r) % r), 2 * d + 1,
				  MPI_COMM_WORLD, &req[n++]);
			msgs += 2, bytes += 2 * a.msg;
		}
		MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
	}
	double t_end = MPI_Wtime();
	peer_report("kneighbor", &a, t_end, msgs, bytes);
	free(req);
	MPI_Finalize();
	return 0;
}
