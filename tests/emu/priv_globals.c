/*
 * priv_globals.c -- every rank has its own globals and statics.
 *
 * Unlike the other programs here, this one keeps its per-rank state in
 * mutable globals on purpose: file-scope and function-scope statics,
 * initialized data, pointers to globals (relocations), a function pointer,
 * a 3 MiB .bss array and a 256 KiB initialized array (large enough for
 * SIBYL_PRIVATIZE=auto to remap).  Each rank first checks that it starts
 * from the initial values although ranks before it have changed theirs,
 * then changes them by rank-dependent amounts, exchanging a message with
 * its neighbours after each step (so ranks of a process interleave), and
 * checks the values against the analytic ones after every step and at the
 * end.  Under MPI each process has its own globals anyway (the reference);
 * under the emulator with SIBYL_PRIVATIZE=none the ranks of a process
 * share them and this test fails.
 */
#include "emutest.h"

#define ITERS 12
#define BIG (3 << 20)
#define BIGDATA 65536                       /* ints: 256 KiB */
#define PAGE 4096

int counter;                                /* .bss */
int initialized = 1000;                     /* .data */
static long file_static;                    /* .bss */
static double file_static_init = 0.5;       /* .data */
int *ptr_to_global = &initialized;          /* .data.rel.local */
static int table[4] = { 1, 2, 3, 4 };
static int *table_end = &table[4];
const char *greeting = "hello";
static void (*hook)(int);
static char big[BIG];
static int bigdata[BIGDATA] = { [0] = 11, [40000] = 22 };

/* A function-scope static, initialized and not. */
static long bump(int by)
{
	static int calls;
	static long total = 7;
	calls++;
	total += by;
	return calls * 1000000L + total;
}

static void add_to_counter(int v)
{
	counter += v;
}

/* Where rank `rank' writes into big[] at step i: pages spread over the
 * whole array, overlapping between ranks. */
static long big_offset(int rank, int i)
{
	long pages = BIG / PAGE;
	return ((rank * 131L + i * 7L) % pages) * PAGE + (rank + i) % PAGE;
}

static void check_initial(emu_test *t)
{
	EMU_EQ(t, counter, 0, "counter at start");
	EMU_EQ(t, initialized, 1000, "initialized at start");
	EMU_EQ(t, file_static, 0, "file static at start");
	EMU_TRUE(t, file_static_init == 0.5, "file static double at start: "
		 "%g", file_static_init);
	EMU_TRUE(t, ptr_to_global == &initialized, "pointer to a global");
	EMU_EQ(t, *ptr_to_global, 1000, "global through a pointer");
	EMU_EQ(t, table_end - table, 4, "pointer into a static array");
	EMU_EQ(t, table[0] + table[1] + table[2] + table[3], 10, "table");
	EMU_TRUE(t, strcmp(greeting, "hello") == 0, "string pointer");
	EMU_TRUE(t, hook == NULL, "function pointer at start");
	EMU_EQ(t, bigdata[0], 11, "bigdata[0] at start");
	EMU_EQ(t, bigdata[40000], 22, "bigdata[40000] at start");
	EMU_EQ(t, bigdata[BIGDATA - 1], 0, "bigdata[end] at start");
	for (int i = 0; i < ITERS; i++)
		for (int r = 0; r < t->size && r < 8; r++)
			EMU_EQ(t, big[big_offset(r, i)], 0, "big[%ld] at start",
			       big_offset(r, i));
}

/* The values after `steps' steps of rank `rank'. */
static void check_values(emu_test *t, int steps, const char *when)
{
	int rank = t->rank;
	EMU_EQ(t, counter, steps * (2 * rank + 1), "counter %s", when);
	EMU_EQ(t, initialized, 1000 + steps * rank, "initialized %s", when);
	EMU_EQ(t, file_static, 2L * (rank + 1) * steps, "file static %s",
	       when);
	EMU_TRUE(t, file_static_init == 0.5 + (double)rank * steps,
		 "file static double %s: %g", when, file_static_init);
	for (int j = 0; j < 4; j++) {
		int n = steps / 4 + (j < steps % 4);
		EMU_EQ(t, table[j], j + 1 + n * rank, "table[%d] %s", j, when);
	}
	EMU_EQ(t, bigdata[0], 11 + steps * rank, "bigdata[0] %s", when);
	EMU_EQ(t, bigdata[40000], 22 + steps, "bigdata[40000] %s", when);
	/* Each rank's last write to an offset wins, in its own copy. */
	for (int i = 0; i < steps; i++) {
		long off = big_offset(rank, i);
		int last = i;
		for (int k = i + 1; k < steps; k++)
			if (big_offset(rank, k) == off)
				last = k;
		EMU_EQ(t, big[off], (char)(rank * 3 + last + 1),
		       "big[%ld] %s", off, when);
	}
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_globals", &argc, &argv);
	int right = emu_right(&t, 1), left = emu_left(&t, 1);

	check_initial(&t);
	long bumped = 0;
	for (int i = 0; i < ITERS; i++) {
		counter += t.rank + 1;
		file_static += 2 * (t.rank + 1);
		file_static_init += t.rank;
		*ptr_to_global += t.rank;
		table[i % 4] += t.rank;
		hook = add_to_counter;
		hook(t.rank);
		bumped = bump(t.rank);
		big[big_offset(t.rank, i)] = (char)(t.rank * 3 + i + 1);
		bigdata[0] += t.rank;
		bigdata[40000]++;

		int out[2] = { t.rank, i }, in[2] = { -1, -1 };
		MPI_Sendrecv(out, 2, MPI_INT, right, 0, in, 2, MPI_INT, left,
			     0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		EMU_EQ(&t, in[0], left, "step %d: sender", i);
		EMU_EQ(&t, in[1], i, "step %d: step", i);
		check_values(&t, i + 1, "during the run");
	}
	check_values(&t, ITERS, "at the end");
	EMU_EQ(&t, bumped, ITERS * 1000000L + 7 + (long)ITERS * t.rank,
	       "function statics");
	EMU_TRUE(&t, hook == add_to_counter, "function pointer at the end");
	return emu_finish(&t);
}
