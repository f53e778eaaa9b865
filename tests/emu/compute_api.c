/*
 * compute_api.c -- every call of <sibyl.h> once, for tests/emu_compute.sh.
 *
 * Each rank: names the SEB after MPI_Init "setup" and declares 2 us plus
 * 3000 flops (3 us at the default 1 Gflop/s) in it, prints its virtual
 * time (5 us), marks a skip region around three iterations of 10 us of
 * declared compute plus a sampled block (SIBYL_SAMPLED(2): runs twice,
 * then replayed), and a user marker 42.  Rank 0 prints how often the
 * sampled block ran and MPI_Wtime() at the end.  Sibyl only.
 */
#include <mpi.h>
#include <sibyl.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int rank, ran = 0;
	volatile double x = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	sibyl_seb_name("setup");
	sibyl_compute(2e-6);
	sibyl_compute_flops(3000);
	sibyl_print("rank %d at %.9f", rank, sibyl_vtime());
	sibyl_skip_begin();
	for (int i = 0; i < 3; i++) {
		sibyl_iteration(i);
		sibyl_compute(10e-6);
		SIBYL_SAMPLED(2) {
			ran++;
			for (int j = 0; j < 200000; j++)
				x += j;
		}
	}
	sibyl_skip_end();
	sibyl_marker(42);
	if (rank == 0)
		printf("ran=%d wtime=%.9f\n", ran, MPI_Wtime());
	MPI_Finalize();
	return 0;
}
