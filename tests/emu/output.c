/*
 * output.c -- ranks that print, for tests/emu_output.sh.
 *
 * Usage: output MODE N
 *   MODE lines   every rank of the first half (the first emulating
 *                process when the ranks are placed in blocks) prints
 *                "rank R line K" for K < N, one line per iteration
 *                between two MPI_Sendrecv with its ring neighbours (so a
 *                printed line is an SEB of its own code region); rank 0
 *                then prints "tail of rank 0" without a newline before
 *                MPI_Finalize.  (mpirun forwards each process's output
 *                in the pieces it reads, which may end inside a line:
 *                the lines of two processes can mix.)
 *                Rank 0 also says on standard error what its standard
 *                output is: "stdout: pipe", "stdout: terminal" or
 *                "stdout: other".
 *        abort   rank 1 prints "rank 1 before the abort" and calls
 *                MPI_Abort with error code 5 (N is ignored);
 *        crash   rank 1 prints "rank 1 before the crash" and writes to
 *                a read-only page in the same SEB.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 3) {
		if (rank == 0)
			fprintf(stderr, "usage: output lines|abort|crash N\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int n = atoi(argv[2]);
	if (strcmp(argv[1], "abort") == 0 || strcmp(argv[1], "crash") == 0) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 1 && argv[1][0] == 'a') {
			printf("rank 1 before the abort\n");
			MPI_Abort(MPI_COMM_WORLD, 5);
		}
		if (rank == 1) {
			printf("rank 1 before the crash\n");
			/* A store to a read-only page: a fault that no
			 * sanitizer reports before the hardware does. */
			volatile int *p = mmap(NULL, 4096, PROT_READ,
					       MAP_PRIVATE | MAP_ANONYMOUS, -1,
					       0);
			*p = n;
		}
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Finalize();
		return 0;
	}
	if (rank == 0) {
		struct stat st;
		fprintf(stderr, "stdout: %s\n", isatty(1) ? "terminal" :
			fstat(1, &st) == 0 && S_ISFIFO(st.st_mode) ? "pipe" :
			"other");
	}
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	long x = rank, y;
	for (int k = 0; k < n; k++) {
		if (rank < size / 2) {
			MPI_Sendrecv(&x, 1, MPI_LONG, right, 0, &y, 1,
				     MPI_LONG, left, 0, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
			printf("rank %d line %d\n", rank, k);
			MPI_Sendrecv(&y, 1, MPI_LONG, left, 1, &x, 1,
				     MPI_LONG, right, 1, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		} else {
			MPI_Sendrecv(&x, 1, MPI_LONG, right, 0, &y, 1,
				     MPI_LONG, left, 0, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
			MPI_Sendrecv(&y, 1, MPI_LONG, left, 1, &x, 1,
				     MPI_LONG, right, 1, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		}
	}
	if (rank == 0)
		printf("tail of rank 0");
	MPI_Finalize();
	return 0;
}
