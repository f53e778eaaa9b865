/*
 * priv_rand.c -- each rank draws its own sequence from rand(), random(),
 * the drand48 family and an initstate() generator, as a process of its
 * own would.
 *
 * Usage: priv_rand REFERENCE
 *
 * REFERENCE holds the sequences libc gives a single process, one line
 * per generator and seed: "NAME SEED V1 V2 ... V16" (drand48 values as
 * %a, exact), written by a plain C program (tests/emu_priv.sh makes it).
 * Rank r seeds with seed r % NSEEDS + 1 -- except the ranks with
 * r % NSEEDS == NSEEDS - 1, which do not seed rand() at all and must get
 * glibc's default sequence, which starts 1804289383, 846930886 -- and
 * draws the values one at a time, exchanging a message with its
 * neighbours between two draws, so the ranks of a process interleave
 * their draws.  Every value is compared with the reference.
 */
#include "emutest.h"

#define NSEEDS 5
#define NVALS 12                /* values drawn per sequence */
#define NREF 16                 /* values per reference line */
#define MAXLINES 64

typedef struct ref_line {
	char name[16];
	long seed;
	char vals[NREF][32];
} ref_line;

static void turn(emu_test *t, int step)
{
	int out = t->rank * 1000 + step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 1, &in, 1, MPI_INT,
		     emu_left(t, 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, emu_left(t, 1) * 1000 + step, "turn %d", step);
}

static int read_reference(emu_test *t, const char *path, ref_line *ref)
{
	FILE *f = fopen(path, "r");
	int n = 0;
	if (!f) {
		emu_fail(t, __LINE__, "cannot open the reference %s", path);
		return 0;
	}
	while (n < MAXLINES && fscanf(f, "%15s %ld", ref[n].name,
				      &ref[n].seed) == 2) {
		for (int i = 0; i < NREF; i++)
			if (fscanf(f, "%31s", ref[n].vals[i]) != 1)
				emu_fail(t, __LINE__, "reference line %d is "
					 "short", n + 1);
		n++;
	}
	fclose(f);
	return n;
}

static const ref_line *find(emu_test *t, const ref_line *ref, int n,
			    const char *name, long seed)
{
	for (int i = 0; i < n; i++)
		if (strcmp(ref[i].name, name) == 0 && ref[i].seed == seed)
			return &ref[i];
	emu_fail(t, __LINE__, "no reference for %s seed %ld", name, seed);
	return NULL;
}

/* A value of line l, checked against its i-th. */
static void check_long(emu_test *t, const ref_line *l, int i, long v)
{
	if (l)
		EMU_EQ(t, v, atol(l->vals[i]), "%s seed %ld value %d",
		       l->name, l->seed, i);
}

int main(int argc, char **argv)
{
	emu_test t;
	static ref_line ref[MAXLINES];  /* read-only once loaded */
	emu_init(&t, "priv_rand", &argc, &argv);
	int n = argc > 1 ? read_reference(&t, argv[1], ref) : 0;
	if (argc < 2)
		emu_fail(&t, __LINE__, "usage: priv_rand REFERENCE");
	long seed = t.rank % NSEEDS + 1;
	int unseeded = t.rank % NSEEDS == NSEEDS - 1;
	int step = 0;

	/* rand(): glibc's default seed is 1. */
	const ref_line *l = find(&t, ref, n, "rand", unseeded ? 1 : seed);
	if (!unseeded)
		srand((unsigned)seed);
	for (int i = 0; i < NVALS; i++) {
		int v = rand();
		if (unseeded && i == 0)
			EMU_EQ(&t, v, 1804289383, "first default rand()");
		if (unseeded && i == 1)
			EMU_EQ(&t, v, 846930886, "second default rand()");
		check_long(&t, l, i, v);
		turn(&t, step++);
	}

	/* random() after srandom(), with a different seed. */
	l = find(&t, ref, n, "random", seed + 100);
	srandom((unsigned)(seed + 100));
	for (int i = 0; i < NVALS; i++) {
		check_long(&t, l, i, random());
		turn(&t, step++);
	}

	/* A generator on a 64-byte state of the rank's own, and back. */
	static char state[64];          /* every rank writes its own */
	l = find(&t, ref, n, "initstate", seed);
	char *old = initstate((unsigned)seed, state, sizeof state);
	EMU_TRUE(&t, old != NULL, "initstate returns the previous state");
	for (int i = 0; i < NVALS / 2; i++) {
		check_long(&t, l, i, random());
		turn(&t, step++);
	}
	/* The default state again: random() goes on where it was. */
	EMU_TRUE(&t, setstate(old) == state, "setstate returns our state");
	l = find(&t, ref, n, "random", seed + 100);
	for (int i = NVALS; i < NREF; i++) {
		check_long(&t, l, i, random());
		turn(&t, step++);
	}

	/* The drand48 family. */
	l = find(&t, ref, n, "drand48", seed);
	srand48(seed);
	for (int i = 0; i < NVALS; i++) {
		double v = drand48();
		if (l)
			EMU_TRUE(&t, v == strtod(l->vals[i], NULL),
				 "drand48 seed %ld value %d: %a, want %s",
				 seed, i, v, l->vals[i]);
		turn(&t, step++);
	}
	l = find(&t, ref, n, "lrand48", seed);
	srand48(seed);
	for (int i = 0; i < NVALS; i++) {
		check_long(&t, l, i, lrand48());
		turn(&t, step++);
	}
	l = find(&t, ref, n, "mrand48", seed);
	unsigned short s16[3] = { (unsigned short)seed, 0x1234, 0x5678 };
	seed48(s16);
	for (int i = 0; i < NVALS; i++) {
		check_long(&t, l, i, mrand48());
		turn(&t, step++);
	}
	return emu_finish(&t);
}
