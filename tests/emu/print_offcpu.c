/*
 * print_offcpu.c -- prints around a stretch off the core, for
 * tests/emu_compute.sh.
 *
 * Rank 0 prints "a", sleeps 50 ms (the thread leaves its core: the SEB
 * keeps its CPU time, as when the host takes the core), prints "b", and
 * after a barrier "c".  The prints must keep their order in virtual time
 * and stay inside their SEB.  Sibyl only.
 */
#include <mpi.h>
#include <sibyl.h>
#include <time.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		struct timespec ts = {0, 50000000};
		sibyl_print("a");
		while (nanosleep(&ts, &ts))
			;
		sibyl_print("b");
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		sibyl_print("c");
	MPI_Finalize();
	return 0;
}
