/*
 * fold_shared.c -- memory folding: sibyl_shared_malloc() gives all the
 * ranks of a process one block.
 *
 * Every rank allocates a 64 MiB block (1000 ranks: a 64 GB footprint);
 * the first rank of a process to see it unfilled fills all of it with a
 * pattern, the others find it filled.  Every rank checks 4096 entries
 * spread over the block (rank-dependent), exchanges messages with its
 * neighbours, checks again and frees it.  Then each allocates a 1 MiB
 * block, the same way.  At the end each rank checks that the process's
 * peak resident memory is far below the footprint: under 1 GiB per
 * process (a 64 MiB block and the ranks' stacks).  Under MPI (no
 * sibyl_shared_malloc) each process has its own calloc'ed blocks.
 */
#include "emutest.h"
#ifdef SIBYL_MPI
#include <sibyl.h>
#define SHARED_MALLOC(n) sibyl_shared_malloc(n)
#define SHARED_FREE(p) sibyl_shared_free(p)
#else
#define SHARED_MALLOC(n) calloc(1, n)
#define SHARED_FREE(p) free(p)
#endif

#define BIG ((size_t)64 << 20)
#define SMALL ((size_t)1 << 20)
#define SAMPLES 4096

static unsigned pattern(size_t i)
{
	return (unsigned)(i * 2654435761u) ^ 0x5a5a5a5au;
}

/* Fill the block if nobody has, then check samples of it. */
static void use_block(emu_test *t, unsigned *a, size_t bytes,
		      const char *what)
{
	size_t n = bytes / sizeof *a;
	if (a[0] == 0) {
		for (size_t i = 1; i < n; i++)
			a[i] = pattern(i);
		a[0] = 1;
	}
	for (size_t k = 0; k < SAMPLES; k++) {
		size_t i = 1 + (k * 7919u + (size_t)t->rank * 104729u) %
			(n - 1);
		if (!EMU_EQ(t, a[i], pattern(i), "%s[%zu]", what, i))
			break;
	}
}

static void turn(emu_test *t, int step)
{
	int out = step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 2, &in, 1, MPI_INT,
		     emu_left(t, 1), 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, step, "turn %d", step);
}

/* Peak resident memory of the process, in KiB (0 if unknown). */
static long peak_rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "fold_shared", &argc, &argv);

	unsigned *a = SHARED_MALLOC(BIG);
	EMU_TRUE(&t, a != NULL, "64 MiB block");
	if (a) {
		use_block(&t, a, BIG, "big");
		turn(&t, 0);
		use_block(&t, a, BIG, "big after a turn");
		SHARED_FREE(a);
	}
	turn(&t, 1);
	unsigned *b = SHARED_MALLOC(SMALL);
	EMU_TRUE(&t, b != NULL, "1 MiB block");
	if (b) {
		use_block(&t, b, SMALL, "small");
		turn(&t, 2);
		SHARED_FREE(b);
	}
	long peak = peak_rss_kib();
	EMU_TRUE(&t, peak < 1024L * 1024, "peak resident memory %ld KiB "
		 "for a footprint of %d x 64 MiB", peak, t.size);
	return emu_finish(&t);
}
