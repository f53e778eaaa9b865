/*
 * priv_strtok.c -- strtok() keeps its position per rank.
 *
 * Each rank tokenizes a string of its own ("r<rank>-<k>" tokens, 3 to 6
 * of them depending on the rank, with mixed delimiters), one strtok()
 * call at a time, exchanging a message with its neighbours between two
 * calls, so the ranks of a process interleave their tokenizing.  Every
 * token is compared with the one expected, and the end (NULL) must come
 * exactly after the last.  A second round restarts each rank on a new
 * string with a different delimiter set.  Then, given an argument such
 * as "1:4096", each rank cuts its own argv[1] in place with strtok --
 * the way OSU's option parser does -- turn by turn: a rank that saw
 * another rank's cut string would find "1" alone.
 */
#include "emutest.h"

#define MAXTOK 6
#define TURNS (MAXTOK + 1)

static void turn(emu_test *t, int step)
{
	int out = t->rank * 1000 + step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 1, &in, 1, MPI_INT,
		     emu_left(t, 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, emu_left(t, 1) * 1000 + step, "turn %d", step);
}

/* Tokenize a string of ntok tokens "r<rank>-<k><suffix>" joined by the
 * delimiters in `join' (cycled), with `delims'. */
static void round_of(emu_test *t, int ntok, const char *join,
		     const char *delims, const char *suffix, int step0)
{
	char s[256], want[32];
	int len = 0, step = step0;
	/* Leading delimiters are skipped too. */
	len += snprintf(s + len, sizeof s - (size_t)len, "%c%c", join[0],
			join[1]);
	for (int k = 0; k < ntok; k++)
		len += snprintf(s + len, sizeof s - (size_t)len, "r%d-%d%s%c",
				t->rank, k, suffix, join[k % 3]);
	char *p = strtok(s, delims);
	for (int k = 0; k <= ntok; k++) {
		if (k < ntok) {
			snprintf(want, sizeof want, "r%d-%d%s", t->rank, k,
				 suffix);
			EMU_TRUE(t, p && strcmp(p, want) == 0, "token %d: %s, "
				 "want %s", k, p ? p : "(end)", want);
		} else {
			EMU_TRUE(t, p == NULL, "after %d tokens: %s, want "
				 "the end", ntok, p ? p : "");
		}
		turn(t, step++);
		if (k < ntok)
			p = strtok(NULL, delims);
	}
	/* As many turns on every rank. */
	while (step < step0 + TURNS)
		turn(t, step++);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "priv_strtok", &argc, &argv);
	round_of(&t, 3 + t.rank % 4, " ,;", " ,;", "", 0);
	round_of(&t, 3 + (t.rank + 1) % 4, ":/|", "|:/", "x", 100);
	if (argc > 1) {
		char want[256];
		snprintf(want, sizeof want, "%s", argv[1]);
		turn(&t, 200);
		char *a = strtok(argv[1], ":");
		turn(&t, 201);
		char *b = strtok(NULL, ":");
		char *w = strtok(want, ":");
		EMU_TRUE(&t, a && w && strcmp(a, w) == 0, "argv[1] first "
			 "token %s", a ? a : "(none)");
		w = strtok(NULL, ":");
		EMU_TRUE(&t, (!b && !w) || (b && w && strcmp(b, w) == 0),
			 "argv[1] second token %s", b ? b : "(none)");
	}
	return emu_finish(&t);
}
