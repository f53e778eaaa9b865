/*
 * stencil3d.c -- SMPI peer of `sibyl trace gen -p stencil3d`.
 *
 * Periodic X x Y x Z process grid, rank p = x + X*(y + Y*z).  Every
 * iteration: compute T, then Isend one face to each of the +x, -x, +y,
 * -y, +z, -z neighbours (tags 0..5), then Waitall for the six faces
 * travelling towards p.  The receives are posted before the compute
 * (as a real halo code does), so every message is matched when it is
 * sent and its transfer starts at once, as in Sibyl's model.
 *
 * Options: --iters I --compute-us T --msg-size S (all faces) or
 * --face-sizes SX,SY,SZ, --grid X,Y,Z (default: the factorization
 * X >= Y >= Z of R with the smallest X+Y+Z, Sibyl's default).
 */
#include "peer.h"

static void default_grid(int r, int g[3])
{
	long best = -1;
	for (int z = 1; (long)z * z * z <= r; z++) {
		if (r % z)
			continue;
		for (int y = z; (long)y * y <= r / z; y++) {
			if ((r / z) % y)
				continue;
			int x = r / z / y;
			if (best < 0 || x + y + z < best) {
				best = x + y + z;
				g[0] = x, g[1] = y, g[2] = z;
			}
		}
	}
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	peer_args a;
	peer_parse(argc, argv, &a);
	int p, r;
	MPI_Comm_rank(MPI_COMM_WORLD, &p);
	MPI_Comm_size(MPI_COMM_WORLD, &r);
	int *g = a.grid;
	if (!g[0])
		default_grid(r, g);
	if ((long)g[0] * g[1] * g[2] != r) {
		if (p == 0)
			fprintf(stderr, "grid %dx%dx%d does not hold %d ranks\n",
				g[0], g[1], g[2], r);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int X = g[0], Y = g[1], Z = g[2];
	int x = p % X, y = p / X % Y, z = p / X / Y;
	int nbr[6] = {
		(x + 1) % X + X * (y + Y * z), (x + X - 1) % X + X * (y + Y * z),
		x + X * ((y + 1) % Y + Y * z), x + X * ((y + Y - 1) % Y + Y * z),
		x + X * (y + Y * ((z + 1) % Z)), x + X * (y + Y * ((z + Z - 1) % Z)),
	};
	long size[6] = { a.face[0], a.face[0], a.face[1], a.face[1],
			 a.face[2], a.face[2] };
	long maxs = 0;
	for (int j = 0; j < 6; j++)
		maxs = size[j] > maxs ? size[j] : maxs;
	peer_buffers(maxs);

	MPI_Request req[12];
	long long msgs = 0, bytes = 0;
	for (int it = 0; it < a.iters; it++) {
		/* The face sent towards +x (tag 0) comes from the -x
		 * neighbour, and so on: source of tag j is nbr[j ^ 1]. */
		for (int j = 0; j < 6; j++)
			MPI_Irecv(peer_rbuf, (int)size[j], MPI_BYTE, nbr[j ^ 1], j,
				  MPI_COMM_WORLD, &req[j]);
		peer_compute(a.compute_s);
		for (int j = 0; j < 6; j++) {
			MPI_Isend(peer_sbuf, (int)size[j], MPI_BYTE, nbr[j], j,
				  MPI_COMM_WORLD, &req[6 + j]);
			msgs++, bytes += size[j];
		}
		MPI_Waitall(12, req, MPI_STATUSES_IGNORE);
	}
	double t_end = MPI_Wtime();
	peer_report("stencil3d", &a, t_end, msgs, bytes);
	MPI_Finalize();
	return 0;
}
