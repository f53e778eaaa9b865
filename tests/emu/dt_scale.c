/*
 * dt_scale.c -- many ranks creating the same datatype share its map.
 *
 * Every rank builds the same irregular hindexed type of NBLK blocks (1 to
 * 3 ints at irregular offsets: nothing merges, so its type map has NBLK
 * pieces, about 48 KB in the emulator), commits it and keeps it.  The
 * resident memory of the process may grow by at most LIMIT_MB meanwhile:
 * if each rank's copy cost 48 KB, 2048 ranks of one process would need
 * 96 MB.  (Natively each process has one rank: the check holds
 * trivially.)  Then each rank sends its data with that type to rank+1,
 * which receives it as contiguous ints and checks it against the type
 * map walked by hand; and the ranks create, use and free a type 50 times
 * over, which must reuse handles rather than grow.
 *
 * Barriers are point-to-point (through rank 0).  Ranks: any number >= 2;
 * meant for thousands.  Prints "PASS dt_scale" on rank 0.
 */
#include "emutest.h"

#include <unistd.h>

#define NBLK 2000
#define LIMIT_MB 24
#define TAG_BAR 100
#define TAG_DATA 101

static void barrier(emu_test *t)
{
	int x = 0;
	if (t->rank == 0) {
		for (int r = 1; r < t->size; r++)
			MPI_Recv(&x, 1, MPI_INT, r, TAG_BAR, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		for (int r = 1; r < t->size; r++)
			MPI_Send(&x, 1, MPI_INT, r, TAG_BAR, MPI_COMM_WORLD);
	} else {
		MPI_Send(&x, 1, MPI_INT, 0, TAG_BAR, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 0, TAG_BAR, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
}

/* Resident bytes of the process, or -1 without /proc. */
static long long rss(void)
{
	long long pages[2] = { -1, -1 };
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld %lld", &pages[0], &pages[1]) != 2)
		pages[1] = -1;
	fclose(f);
	return pages[1] < 0 ? -1 : pages[1] * sysconf(_SC_PAGESIZE);
}

/* Block i: 1 + i % 3 ints, 4 + (i * 7) % 5 ints after the previous. */
static long layout(int *bl, MPI_Aint *disp)
{
	long at = 0;
	for (int i = 0; i < NBLK; i++) {
		bl[i] = 1 + i % 3;
		disp[i] = (MPI_Aint)(at * sizeof(int));
		at += bl[i] + 4 + (i * 7) % 5;
	}
	return at;
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_scale", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	int *bl = emu_alloc(&t, NBLK, sizeof *bl);
	MPI_Aint *disp = emu_alloc(&t, NBLK, sizeof *disp);
	long span = layout(bl, disp);
	MPI_Datatype h;

	/* Warm up: the same calls once, so that what they touch (stack
	 * pages, the handle table) is not counted below. */
	MPI_Type_create_hindexed(4, bl, disp, MPI_INT, &h);
	MPI_Type_commit(&h);
	MPI_Type_free(&h);
	barrier(&t);
	long long before = rss();
	MPI_Type_create_hindexed(NBLK, bl, disp, MPI_INT, &h);
	MPI_Type_commit(&h);
	barrier(&t);
	long long after = rss();
	/* AddressSanitizer keeps freed memory in quarantine (each rank's
	 * map is built before it is found to be a duplicate), so resident
	 * memory says nothing there; the normal build checks. */
#if defined(__SANITIZE_ADDRESS__)
	before = -1;
#endif
	if (before >= 0 && after >= 0)
		EMU_TRUE(&t, after - before < LIMIT_MB << 20, "%d ranks "
			 "creating the same type grew the process by %lld "
			 "KiB (at most %d MiB expected)", t.size,
			 (after - before) >> 10, LIMIT_MB);

	/* The shared type still describes each rank's own data. */
	long n = 0;
	for (int i = 0; i < NBLK; i++)
		n += bl[i];
	int *src = emu_alloc(&t, (size_t)span, sizeof *src);
	int *dst = emu_alloc(&t, (size_t)n + 1, sizeof *dst);
	for (long i = 0; i < span; i++)
		src[i] = (int)(t.rank * 100000 + i);
	int from = emu_left(&t, 1);
	MPI_Status st;
	int got;
	MPI_Sendrecv(src, 1, h, emu_right(&t, 1), TAG_DATA, dst, (int)n + 1,
		     MPI_INT, from, TAG_DATA, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &got);
	EMU_EQ(&t, got, n, "ints received");
	long k = 0;
	for (int i = 0; i < NBLK && k < n; i++)
		for (int j = 0; j < bl[i]; j++, k++) {
			long at = (long)(disp[i] / (MPI_Aint)sizeof(int)) + j;
			if (!EMU_EQ(&t, dst[k], from * 100000 + at, "int %ld "
				    "(block %d)", k, i))
				i = NBLK, k = n;
		}
	MPI_Type_free(&h);

	/* Create, use, free, over and over. */
	for (int round = 0; round < 50; round++) {
		MPI_Datatype v;
		int s[6], r[3] = { -1, -1, -1 };
		emu_fill_seq(s, 6, t.rank * 10 + round);
		MPI_Type_vector(3, 1, 2, MPI_INT, &v);
		MPI_Type_commit(&v);
		MPI_Sendrecv(s, 1, v, emu_right(&t, 1), TAG_DATA + 1, r, 3,
			     MPI_INT, from, TAG_DATA + 1, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		for (int i = 0; i < 3; i++)
			EMU_EQ(&t, r[i], from * 10 + round + 2 * i, "round %d "
			       "int %d", round, i);
		MPI_Type_free(&v);
	}
	free(src);
	free(dst);
	free(bl);
	free(disp);
	return emu_finish(&t);
}
