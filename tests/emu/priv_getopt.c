/*
 * priv_getopt.c -- getopt, getopt_long and getopt_long_only keep their
 * state per rank, and optind, optarg, opterr, optopt and errno are the
 * rank's own.
 *
 * Run with the arguments
 *
 *     -v -n 5 file1 --size=10 -ab file2 --name x --flag -- -z tail
 *
 * Every rank parses them with getopt_long, exchanging a message with its
 * neighbours between two calls, so the ranks of a process interleave
 * their parses; each result, optind and optarg is checked, and so is the
 * permuted argv at the end (non-options moved after the options, as
 * glibc does).  Then each rank parses a vector of its own (a number of
 * options that depends on the rank) and the corner cases: unknown options,
 * missing arguments with a leading ':', optional arguments, ambiguous and
 * abbreviated long options, getopt_long_only, "-W name", "+" and "-" in
 * the option string.  The expected values are glibc's: the program
 * passes under Open MPI as well.
 */
#include <errno.h>
#include <getopt.h>
#include <unistd.h>

#include "emutest.h"

static const char *const want_argv[] = {
	"-v", "-n", "5", "--size=10", "-ab", "--name", "x", "--flag", "--",
	"file1", "file2", "-z", "tail"
};
#define NARGS ((int)(sizeof want_argv / sizeof want_argv[0]))

/* A turn for the other ranks: a message to and from the neighbours. */
static void turn(emu_test *t, int step)
{
	int out = t->rank * 1000 + step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 1, &in, 1, MPI_INT,
		     emu_left(t, 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, emu_left(t, 1) * 1000 + step, "turn %d", step);
}

typedef struct expect {
	int c;              /* result */
	int optind;         /* optind after the call */
	const char *optarg; /* NULL: none */
} expect;

static void check_call(emu_test *t, int step, int c, const expect *e)
{
	EMU_EQ(t, c, e->c, "call %d: result", step);
	EMU_EQ(t, optind, e->optind, "call %d: optind", step);
	if (e->optarg)
		EMU_TRUE(t, optarg && strcmp(optarg, e->optarg) == 0,
			 "call %d: optarg %s, want %s", step,
			 optarg ? optarg : "(null)", e->optarg);
	else if (e->c != -1 && e->c != '?')
		EMU_TRUE(t, optarg == NULL, "call %d: optarg %s, want none",
			 step, optarg);
}

/* The command line, with getopt_long; switches between calls. */
static void parse_argv(emu_test *t, int argc, char **argv)
{
	int flag = 0;
	const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "name", required_argument, NULL, 'N' },
		{ "flag", no_argument, &flag, 7 },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	static const expect want[] = {
		{ 'v', 2, NULL }, { 'n', 4, "5" }, { 's', 6, "10" },
		{ 'a', 6, NULL }, { 'b', 7, NULL }, { 'N', 10, "x" },
		{ 0, 11, NULL }, { -1, 10, NULL }
	};
	int n = (int)(sizeof want / sizeof want[0]);

	if (argc != NARGS + 1) {
		emu_fail(t, __LINE__, "run with the %d arguments of the "
			 "header comment, got %d", NARGS, argc - 1);
		return;
	}
	for (int i = 0; i < n; i++) {
		int idx = -1;
		int c = getopt_long(argc, argv, "vn:abz", longopts, &idx);
		check_call(t, i, c, &want[i]);
		if (c == 's')
			EMU_EQ(t, idx, 0, "--size: long index");
		turn(t, i);
		if (c == -1)
			break;
	}
	EMU_EQ(t, flag, 7, "--flag sets its variable");
	for (int i = 0; i < NARGS; i++)
		EMU_TRUE(t, strcmp(argv[i + 1], want_argv[i]) == 0,
			 "permuted argv[%d] = %s, want %s", i + 1, argv[i + 1],
			 want_argv[i]);
}

/* A vector of the rank's own: "-c R" then R % 5 times "-y", then "-x",
 * parsed in order ("+") so the ranks are at different places at each
 * switch. */
static void parse_own(emu_test *t)
{
	char num[16];
	char *v[12];
	int n = 0, ys = t->rank % 5, seen_y = 0, seen_x = 0;
	snprintf(num, sizeof num, "%d", t->rank);
	v[n++] = "own";
	v[n++] = "-c";
	v[n++] = num;
	for (int i = 0; i < ys; i++)
		v[n++] = "-y";
	v[n++] = "-x";
	v[n++] = "rest";
	v[n++] = "-y";
	v[n] = NULL;

	optind = 0;                     /* glibc: start over */
	int c, step = 100;
	while ((c = getopt(n, v, "+c:xy")) != -1) {
		if (c == 'c')
			EMU_TRUE(t, strcmp(optarg, num) == 0, "-c %s, want %s",
				 optarg, num);
		else if (c == 'y')
			seen_y++;
		else if (c == 'x')
			seen_x++;
		else
			emu_fail(t, __LINE__, "own vector: unexpected %d", c);
		turn(t, step++);
	}
	/* As many turns on every rank (a blocking exchange each). */
	while (step < 100 + 2 + 4)
		turn(t, step++);
	EMU_EQ(t, seen_y, ys, "own vector: -y count");
	EMU_EQ(t, seen_x, 1, "own vector: -x count");
	EMU_EQ(t, optind, n - 2, "own vector: stops at the first operand");
}

/* Corner cases, one vector each (no messages: opterr = 0). */
static int run(char **v, const char *opts, const struct option *lo,
	       int long_only)
{
	int n = 0;
	while (v[n])
		n++;
	if (!lo)
		return getopt(n, v, opts);
	return long_only ? getopt_long_only(n, v, opts, lo, NULL) :
		getopt_long(n, v, opts, lo, NULL);
}

static void corner_cases(emu_test *t)
{
	static const struct option lo[] = {
		{ "flag", no_argument, NULL, 'f' },
		{ "flat", no_argument, NULL, 'F' },
		{ "size", required_argument, NULL, 's' },
		{ "opt", optional_argument, NULL, 'o' },
		{ "alone", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 }
	};
	char *v1[] = { "p", "-q", NULL };
	char *v2[] = { "p", "-c", NULL };
	char *v3[] = { "p", "--fla", NULL };
	char *v4[] = { "p", "--si", "9", NULL };
	char *v5[] = { "p", "-size=3", NULL };
	char *v6[] = { "p", "-W", "opt=w", NULL };
	char *v7[] = { "p", "--opt", "x", NULL };
	char *v8[] = { "p", "-ofoo", NULL };
	char *v9[] = { "p", "--alone=1", NULL };
	char *v10[] = { "p", "a1", "-x", NULL };
	char *v11[] = { "p", "--nosuch", NULL };
	char *v12[] = { "p", "--size", NULL };
	int c;

	opterr = 0;
	optind = 0;
	c = run(v1, "ab", NULL, 0);
	EMU_EQ(t, c, '?', "unknown -q");
	EMU_EQ(t, optopt, 'q', "unknown -q: optopt");
	turn(t, 200);

	optind = 0;
	c = run(v2, ":c:", NULL, 0);
	EMU_EQ(t, c, ':', "-c without its argument, leading ':'");
	EMU_EQ(t, optopt, 'c', "-c without its argument: optopt");
	turn(t, 201);

	optind = 0;
	c = run(v3, "", lo, 0);
	EMU_EQ(t, c, '?', "--fla is ambiguous (flag, flat)");
	EMU_EQ(t, optopt, 0, "ambiguous: optopt");
	EMU_EQ(t, optind, 2, "ambiguous: optind");
	turn(t, 202);

	optind = 0;
	c = run(v4, "", lo, 0);
	EMU_EQ(t, c, 's', "--si abbreviates --size");
	EMU_TRUE(t, optarg && strcmp(optarg, "9") == 0, "--si 9: optarg");
	EMU_EQ(t, optind, 3, "--si 9: optind");
	turn(t, 203);

	optind = 0;
	c = run(v5, "s", lo, 1);
	EMU_EQ(t, c, 's', "getopt_long_only: -size=3");
	EMU_TRUE(t, optarg && strcmp(optarg, "3") == 0, "-size=3: optarg");
	turn(t, 204);

	optind = 0;
	c = run(v6, "W;", lo, 0);
	EMU_EQ(t, c, 'o', "-W opt=w is --opt=w");
	EMU_TRUE(t, optarg && strcmp(optarg, "w") == 0, "-W opt=w: optarg");
	EMU_EQ(t, optind, 3, "-W opt=w: optind");
	turn(t, 205);

	optind = 0;
	c = run(v7, "", lo, 0);
	EMU_EQ(t, c, 'o', "--opt x");
	EMU_TRUE(t, optarg == NULL, "--opt x: an optional argument is only "
		 "attached");
	EMU_EQ(t, optind, 2, "--opt x: optind");
	turn(t, 206);

	optind = 0;
	c = run(v8, "o::", NULL, 0);
	EMU_EQ(t, c, 'o', "-ofoo");
	EMU_TRUE(t, optarg && strcmp(optarg, "foo") == 0, "-ofoo: optarg");
	turn(t, 207);

	optind = 0;
	c = run(v9, "", lo, 0);
	EMU_EQ(t, c, '?', "--alone=1: no argument allowed");
	EMU_EQ(t, optopt, 'A', "--alone=1: optopt");
	turn(t, 208);

	optind = 0;
	c = run(v10, "-x", NULL, 0);
	EMU_EQ(t, c, 1, "'-': an operand comes back as option 1");
	EMU_TRUE(t, optarg && strcmp(optarg, "a1") == 0, "operand a1");
	c = run(v10, "-x", NULL, 0);
	EMU_EQ(t, c, 'x', "'-': then -x");
	turn(t, 209);

	optind = 0;
	c = run(v11, "", lo, 0);
	EMU_EQ(t, c, '?', "--nosuch");
	EMU_EQ(t, optopt, 0, "--nosuch: optopt");
	turn(t, 210);

	optind = 0;
	c = run(v12, ":", lo, 0);
	EMU_EQ(t, c, ':', "--size without its argument, leading ':'");
	EMU_EQ(t, optopt, 's', "--size without its argument: optopt");
	turn(t, 211);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_getopt", &argc, &argv);

	EMU_EQ(&t, optind, 1, "optind at start");
	EMU_EQ(&t, opterr, 1, "opterr at start");
	parse_argv(&t, argc, argv);
	parse_own(&t);
	corner_cases(&t);

	/* opterr and errno are the rank's own across switches. */
	opterr = t.rank % 3;
	turn(&t, 300);
	EMU_EQ(&t, opterr, t.rank % 3, "opterr after a switch");
#ifdef SIBYL_MPI
	/* (Under MPI the library may legitimately change errno.) */
	errno = 100 + t.rank;
	turn(&t, 301);
	EMU_EQ(&t, errno, 100 + t.rank, "errno after a switch");
#endif
	return emu_finish(&t);
}
