/*
 * print_offcpu.c -- prints around a stretch off the core, for
 * tests/emu_compute.sh.
 *
 * Rank 0 prints "a", sleeps 50 ms (the thread leaves its core: the SEB
 * keeps its CPU time, as when the host takes the core), prints "b", and
 * after a barrier "c".  The prints must keep their order in virtual time
 * and stay inside their SEB, and MPI_Wtime must not count the sleep
 * either: rank 0 prints "slept S" with the seconds it read.  Sibyl only.
 */
#include <mpi.h>
#include <sibyl.h>
#include <stdio.h>
#include <time.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		struct timespec ts = {0, 50000000};
		sibyl_print("a");
		double t0 = MPI_Wtime();
		while (nanosleep(&ts, &ts))
			;
		double t1 = MPI_Wtime();
		sibyl_print("b");
		printf("slept %.6f\n", t1 - t0);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		sibyl_print("c");
	MPI_Finalize();
	return 0;
}
