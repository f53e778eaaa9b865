/*
 * alltoall.c -- SMPI peer of `sibyl trace gen -p alltoall`.
 *
 * Pairwise exchange in R-1 phases: in phase i rank p sends to (p+i) mod R
 * and receives from (p-i) mod R.  As in Sibyl's trace, the phase-1
 * message leaves at the end of the compute and the phase-i message
 * (i >= 2) leaves once the phase-(i-1) message has arrived; the
 * iteration ends when the phase-(R-1) message has arrived.  So one
 * iteration is a chain: compute + (R-1) * (L + S/B) without contention.
 *
 * The receive of phase i+1 is posted before the wait of phase i (two
 * receives in flight), so a message is always matched when it is sent.
 * Sends are detached (small) or complete long before their slot is
 * reused; only two send requests are kept in flight.
 *
 * Options: --iters I --compute-us T --msg-size S.
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
	if (r < 2) {
		fprintf(stderr, "alltoall needs at least 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	peer_buffers(a.msg);
	int s = (int)a.msg;
	long long msgs = 0, bytes = 0;
	MPI_Request rq[2], sq[2];
#define SRC(i) ((int)((p - (long)(i) + r) % r))
#define DST(i) ((int)((p + (long)(i)) % r))
	for (int it = 0; it < a.iters; it++) {
		MPI_Irecv(peer_rbuf, s, MPI_BYTE, SRC(1), 0, MPI_COMM_WORLD, &rq[1]);
		if (r > 2)
			MPI_Irecv(peer_rbuf, s, MPI_BYTE, SRC(2), 0, MPI_COMM_WORLD,
				  &rq[0]);
		peer_compute(a.compute_s);
		MPI_Isend(peer_sbuf, s, MPI_BYTE, DST(1), 0, MPI_COMM_WORLD, &sq[1]);
		msgs++, bytes += s;
		for (int i = 2; i <= r - 1; i++) {
			MPI_Wait(&rq[(i - 1) & 1], MPI_STATUS_IGNORE);
			if (i + 1 <= r - 1)
				MPI_Irecv(peer_rbuf, s, MPI_BYTE, SRC(i + 1), 0,
					  MPI_COMM_WORLD, &rq[(i + 1) & 1]);
			if (i >= 3)
				MPI_Wait(&sq[i & 1], MPI_STATUS_IGNORE);
			MPI_Isend(peer_sbuf, s, MPI_BYTE, DST(i), 0,
				  MPI_COMM_WORLD, &sq[i & 1]);
			msgs++, bytes += s;
		}
		MPI_Wait(&rq[(r - 1) & 1], MPI_STATUS_IGNORE);
		MPI_Wait(&sq[(r - 1) & 1], MPI_STATUS_IGNORE);
		if (r > 2)
			MPI_Wait(&sq[r & 1], MPI_STATUS_IGNORE);
	}
	double t_end = MPI_Wtime();
	peer_report("alltoall", &a, t_end, msgs, bytes);
	MPI_Finalize();
	return 0;
}
