/*
 * map.c -- `sibyl map': write rank-to-node mapping files for `sibyl sim
 * --map' (rank order, round-robin, seeded random, hierarchical 3D
 * blocking of a process grid) and check mapping files with the reader
 * `sibyl sim' itself uses.  docs/mapping.md gives the formula of every
 * order; docs/machine.md section 4 the file format.
 *
 * A whole mapping is computed in memory (8 bytes per rank) before
 * anything is written, so a refused request leaves nothing behind, and
 * a file is written under FILE.tmp and renamed into place when complete.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsim.h"
#include "gen_patterns.h"
#include "sib_text.h"
#include "tools.h"

/* Cores of a PERCS (POWER7-IH) node: 4 chips of 8 cores (thesis §3). */
#define MAP_DEFAULT_CORES 32
/* The limit of machine.cores_per_node. */
#define MAP_MAX_CORES 1048576ULL
/* Levels of --block: node, drawer, supernode, ... */
#define MAP_MAX_LEVELS 8
/* Default seed of --order random, as for `sibyl trace gen'. */
#define MAP_DEFAULT_SEED 1

static const char map_usage[] =
"Usage: sibyl map --ranks R [OPTIONS]\n"
"       sibyl map --check FILE --ranks R [--cores-per-node C] [--nodes N]\n"
"\n"
"Write a mapping file that places each of R ranks on a node and a core\n"
"of the target machine, one line 'RANK NODE CORE' per rank, for\n"
"'sibyl sim --map FILE' (the format is in docs/machine.md section 4;\n"
"docs/mapping.md gives the formula of every order).  Ranks are numbered\n"
"0..R-1, nodes 0..N-1, cores 0..C-1.\n"
"\n"
"Machine:\n"
"  -r, --ranks R           number of ranks, e.g. 4096 or 64Ki (required)\n"
"      --cores-per-node C  ranks a node holds (default 32, a PERCS node);\n"
"                          simulate with --set machine.cores_per_node=C\n"
"      --nodes N           nodes of the machine (default: R/C rounded up)\n"
"\n"
"Order (--order NAME):\n"
"  rank                rank r on node r/C, core r mod C (the default)\n"
"  round-robin         rank r on node r mod N, core r/N\n"
"  random              ranks on N*C core slots drawn at random without\n"
"                      replacement (SplitMix64 of --seed); the same seed\n"
"                      gives the same file\n"
"  blocked             3D blocks of an X x Y x Z process grid (rank =\n"
"                      x + X*(y + Y*z)): one block per node, blocks of\n"
"                      blocks per larger unit (--grid, --block)\n"
"  blocked-node        blocked with --block 4,4,2 (32 ranks per node)\n"
"  blocked-drawer      ... --block 4,4,2:8,8,4 (+ 8-node drawers)\n"
"  blocked-supernode   ... --block 4,4,2:8,8,4:16,8,8 (+ 32-node\n"
"                      supernodes): the mappings of the PERCS study\n"
"      --seed S          random: the seed (default 1)\n"
"      --grid X,Y,Z      blocked: the process grid, X*Y*Z = R (default:\n"
"                        the grid of 'sibyl trace gen -p stencil3d -r R')\n"
"      --block B1[:B2...]  blocked: B1 = BX,BY,BZ is what one node holds\n"
"                        (BX*BY*BZ = C); each further block groups blocks\n"
"                        of the previous one into the next unit of the\n"
"                        machine (drawer, supernode, ...); each divides\n"
"                        the next one and the grid in every dimension\n"
"\n"
"Output:\n"
"  -o, --output FILE     write the mapping to FILE (default: standard\n"
"                        output)\n"
"  -f, --force           replace FILE if it exists\n"
"      --json            print a JSON summary on standard output (needs\n"
"                        -o FILE, or --check)\n"
"  -q, --quiet           no summary line on standard error\n"
"  -h, --help            print this help and exit\n"
"\n"
"Checking:\n"
"      --check FILE      read FILE as 'sibyl sim' does for R ranks with\n"
"                        --cores-per-node C and --nodes N (default: as\n"
"                        many nodes as FILE names) and report the ranks\n"
"                        per node; a defect is reported with its line\n"
"\n"
"Exit status: 0 success; 1 the checked file is not a valid mapping; 2\n"
"usage error (an impossible request: the message says what does not\n"
"fit) or failure to write.\n"
"\n"
"Examples:\n"
"  sibyl map -r 64Ki --order blocked-supernode --grid 64,32,32 -o st.map\n"
"  sibyl sim st.trace --map st.map --set machine.cores_per_node=32\n"
"  sibyl map -r 128 --cores-per-node 8 --order blocked --grid 8,4,4 \\\n"
"            --block 2,2,2:4,4,2 -o small.map\n"
"  sibyl map -r 4096 --order random --seed 7 -o rnd.map\n"
"  sibyl map --check st.map -r 64Ki --cores-per-node 32\n";

enum map_order { ORDER_RANK, ORDER_RR, ORDER_RANDOM, ORDER_BLOCKED };

struct order_def {
	const char *name;
	enum map_order order;
	const char *blocks;       /* presets of --block */
};

static const struct order_def order_defs[] = {
	{ "rank", ORDER_RANK, NULL },
	{ "round-robin", ORDER_RR, NULL },
	{ "random", ORDER_RANDOM, NULL },
	{ "blocked", ORDER_BLOCKED, NULL },
	/* Thesis §6: blocks of 4x4x2 tasks per node, 8x8x4 per drawer (8
	 * nodes), 16x8x8 per supernode (32 nodes). */
	{ "blocked-node", ORDER_BLOCKED, "4,4,2" },
	{ "blocked-drawer", ORDER_BLOCKED, "4,4,2:8,8,4" },
	{ "blocked-supernode", ORDER_BLOCKED, "4,4,2:8,8,4:16,8,8" },
	{ NULL, 0, NULL }
};

/* A request, as parsed and completed. */
typedef struct map_req {
	uint64_t ranks, cores, nodes;
	const struct order_def *order;
	uint64_t seed;
	uint64_t grid[3];
	uint64_t block[MAP_MAX_LEVELS][3];
	int nlevels;
} map_req;

/* A placement: per rank, its node and core. */
typedef struct placement {
	uint32_t n;
	uint32_t *node_of, *core_of;
} placement;

/* Ranks per used node. */
typedef struct node_stats {
	uint64_t used;
	uint64_t min, max;
} node_stats;

static const char dim_name[3] = { 'x', 'y', 'z' };

/* ------------------------------------------------------------ parsing */

/*
 * "A,B,C" (or "AxBxC") triples separated by ':', at most max of them;
 * each number 1..UINT32_MAX.  Returns the count, or -1 after a message.
 */
static int parse_triples(const char *what, const char *s,
			 uint64_t (*out)[3], int max)
{
	char *copy = strdup(s), *t, *end;
	int n = 0;

	if (!copy) {
		tool_error("%s: out of memory", what);
		return -1;
	}
	for (t = copy; t; t = end) {
		char *part[3], *p;
		int k = 1;

		if ((end = strchr(t, ':')))
			*end++ = '\0';

		if (n == max) {
			if (max == 1)
				goto syntax;
			tool_error("%s: '%s' has more than %d blocks", what, s,
				   max);
			goto fail;
		}
		part[0] = t;
		for (p = t; *p; p++) {
			if (*p != ',' && *p != 'x')
				continue;
			if (k == 3)
				goto syntax;
			*p = '\0';
			part[k++] = p + 1;
		}
		if (k != 3)
			goto syntax;
		for (k = 0; k < 3; k++) {
			if (!part[k][0])
				goto syntax;
			if (parse_u64(what, part[k], &out[n][k]))
				goto fail;
			if (out[n][k] < 1 || out[n][k] > UINT32_MAX) {
				tool_error("%s: %s is out of range (1 to %"
					   PRIu32 ")", what, part[k],
					   UINT32_MAX);
				goto fail;
			}
		}
		n++;
	}
	free(copy);
	return n;
syntax:
	tool_error("%s: cannot parse '%s': expected X,Y,Z%s", what, s,
		   max > 1 ? " triples separated by ':', e.g. 4,4,2:8,8,4" :
		   ", e.g. 64,32,32");
fail:
	free(copy);
	return -1;
}

/* A count from 1 to max, suffixes allowed (64Ki). */
static int parse_count(const char *what, const char *s, uint64_t max,
		       uint64_t *out)
{
	if (parse_u64(what, s, out))
		return -1;
	if (*out < 1 || *out > max) {
		tool_usage_error("%s: %s is out of range (1 to %" PRIu64 ")",
				 what, s, max);
		return -1;
	}
	return 0;
}

static const struct order_def *find_order(const char *name)
{
	for (const struct order_def *o = order_defs; o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* ------------------------------------------------------------- orders */

/* "4x4x2" of a triple, into buf. */
static const char *fmt_triple(char *buf, size_t len, const uint64_t v[3])
{
	snprintf(buf, len, "%" PRIu64 "x%" PRIu64 "x%" PRIu64, v[0], v[1],
		 v[2]);
	return buf;
}

/* v in decimal, or "more than 2^64". */
static const char *fmt_big(char *buf, size_t len, unsigned __int128 v)
{
	if (v > UINT64_MAX)
		snprintf(buf, len, "more than 2^64");
	else
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	return buf;
}

/* Name of block level l in messages ("the node block", "block 2"). */
static const char *level_name(char *buf, size_t len, int l)
{
	if (l == 0)
		snprintf(buf, len, "the node block");
	else
		snprintf(buf, len, "block %d", l + 1);
	return buf;
}

/* Complete and check the grid and blocks of a blocked order. */
static int check_blocked(map_req *q, int grid_given)
{
	char b1[64], b2[64], n1[32], n2[32];
	unsigned __int128 prod;  /* of three numbers below 2^32 */
	int top = q->nlevels - 1;

	if (!grid_given) {
		uint32_t g[3];

		gen_grid_factor((uint32_t)q->ranks, g);
		for (int d = 0; d < 3; d++)
			q->grid[d] = g[d];
	}
	prod = (unsigned __int128)q->grid[0] * q->grid[1] * q->grid[2];
	if (prod != q->ranks)
		return tool_usage_error("--grid %s has %s points but --ranks "
					"is %" PRIu64 "; X*Y*Z must equal the "
					"rank count",
					fmt_triple(b1, sizeof b1, q->grid),
					fmt_big(n1, sizeof n1, prod), q->ranks);
	prod = (unsigned __int128)q->block[0][0] * q->block[0][1] *
	       q->block[0][2];
	if (prod != q->cores) {
		fmt_triple(b1, sizeof b1, q->block[0]);
		fmt_big(n1, sizeof n1, prod);
		if (q->order->blocks)
			return tool_usage_error("--order %s puts a %s block "
						"(%s ranks) on each node, so "
						"it needs --cores-per-node %s "
						"(got %" PRIu64 "); use "
						"--order blocked --block for "
						"other nodes", q->order->name,
						b1, n1, n1, q->cores);
		return tool_usage_error("--block: the node block %s holds %s "
					"ranks but a node has %" PRIu64
					" cores (--cores-per-node); BX*BY*BZ "
					"of the first block must equal C", b1,
					n1, q->cores);
	}
	for (int l = 1; l <= top; l++)
		for (int d = 0; d < 3; d++)
			if (q->block[l][d] % q->block[l - 1][d])
				return tool_usage_error(
					"--block: %s (%s) is not made of "
					"%s (%s): in %c, %" PRIu64 " is not "
					"a multiple of %" PRIu64,
					level_name(n1, sizeof n1, l),
					fmt_triple(b1, sizeof b1,
						   q->block[l]),
					level_name(n2, sizeof n2, l - 1),
					fmt_triple(b2, sizeof b2,
						   q->block[l - 1]),
					dim_name[d], q->block[l][d],
					q->block[l - 1][d]);
	for (int d = 0; d < 3; d++)
		if (q->grid[d] % q->block[top][d])
			return tool_usage_error(
				"the grid %s is not made of %s (%s): in %c, %"
				PRIu64 " is not a multiple of %" PRIu64
				"; choose blocks that divide the grid",
				fmt_triple(b1, sizeof b1, q->grid),
				level_name(n1, sizeof n1, top),
				fmt_triple(b2, sizeof b2, q->block[top]),
				dim_name[d], q->grid[d], q->block[top][d]);
	return 0;
}

/* x + n[0]*(y + n[1]*z): the x-fastest index of c in an n box. */
static uint64_t index3(const uint64_t c[3], const uint64_t n[3])
{
	return c[0] + n[0] * (c[1] + n[1] * c[2]);
}

/*
 * The node of rank r: its top-level block numbered x-fastest over the
 * grid, then at each lower level the index of its sub-block inside the
 * enclosing block, x-fastest, as mixed-radix digits.  Its core: its
 * position inside the node block, x-fastest.
 */
static void blocked_place(const map_req *q, uint64_t r, uint32_t *node,
			  uint32_t *core)
{
	const uint64_t *g = q->grid, (*b)[3] = q->block;
	uint64_t c[3] = { r % g[0], r / g[0] % g[1], r / (g[0] * g[1]) };
	uint64_t s[3], e[3], n;
	int top = q->nlevels - 1;

	for (int d = 0; d < 3; d++) {
		s[d] = c[d] / b[top][d];
		e[d] = g[d] / b[top][d];
	}
	n = index3(s, e);
	for (int l = top; l >= 1; l--) {
		for (int d = 0; d < 3; d++) {
			s[d] = c[d] % b[l][d] / b[l - 1][d];
			e[d] = b[l][d] / b[l - 1][d];
		}
		n = n * e[0] * e[1] * e[2] + index3(s, e);
	}
	for (int d = 0; d < 3; d++)
		s[d] = c[d] % b[0][d];
	*node = (uint32_t)n;
	*core = (uint32_t)index3(s, b[0]);
}

/*
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014, as in Vigna's
 * reference code): the k-th number drawn (k = 1, 2, ...) is
 * mix(seed + k * 0x9e3779b97f4a7c15).
 */
static uint64_t sm64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without bias: numbers below 2^64 mod n are
 * drawn again. */
static uint64_t sm64_below(uint64_t *state, uint64_t n)
{
	uint64_t floor = (0 - n) % n, x;

	do
		x = sm64_next(state);
	while (x < floor);
	return x % n;
}

/*
 * The slots a partial Fisher-Yates shuffle has moved, as a hash table:
 * position -> slot.  An absent position p holds slot p.  At most one
 * entry per rank, so the table is O(R) even when N*C is far larger.
 */
typedef struct moved {
	uint64_t *pos;            /* position + 1; 0 = empty */
	uint64_t *slot;
	size_t mask;
	unsigned shift;           /* 64 - log2(mask + 1) */
} moved;

/* Fibonacci hashing: the top bits of p times 2^64 / phi. */
static size_t moved_find(const moved *t, uint64_t p)
{
	size_t i = (size_t)((p * 0x9e3779b97f4a7c15ULL) >> t->shift);

	while (t->pos[i] && t->pos[i] != p + 1)
		i = (i + 1) & t->mask;
	return i;
}

static uint64_t moved_get(const moved *t, uint64_t p)
{
	size_t i = moved_find(t, p);

	return t->pos[i] ? t->slot[i] : p;
}

static void moved_put(moved *t, uint64_t p, uint64_t slot)
{
	size_t i = moved_find(t, p);

	t->pos[i] = p + 1;
	t->slot[i] = slot;
}

/*
 * Random order: slots s = 0..N*C-1 stand for node s / C, core s mod C
 * (the rank-order slots).  For i = 0..R-1, j = i + below(N*C - i); swap
 * positions i and j; rank i takes the slot now at position i.
 */
static int place_random(const map_req *q, placement *pl)
{
	uint64_t m = q->nodes * q->cores, state = q->seed;
	size_t cap = 2;
	moved t = { .shift = 63 };

	while (cap < 2 * (size_t)q->ranks) {
		cap *= 2;
		t.shift--;
	}
	t.mask = cap - 1;
	t.pos = calloc(cap, sizeof *t.pos);
	t.slot = malloc(cap * sizeof *t.slot);
	if (!t.pos || !t.slot) {
		free(t.pos);
		free(t.slot);
		tool_error("out of memory placing %" PRIu64 " ranks at "
			   "random", q->ranks);
		return -1;
	}
	for (uint64_t i = 0; i < q->ranks; i++) {
		uint64_t j = i + sm64_below(&state, m - i);
		uint64_t si = moved_get(&t, i), sj = si;

		if (j != i) {
			sj = moved_get(&t, j);
			moved_put(&t, j, si);
		}
		pl->node_of[i] = (uint32_t)(sj / q->cores);
		pl->core_of[i] = (uint32_t)(sj % q->cores);
	}
	free(t.pos);
	free(t.slot);
	return 0;
}

static int place(const map_req *q, placement *pl)
{
	uint64_t c = q->cores, n = q->nodes;

	pl->n = (uint32_t)q->ranks;
	pl->node_of = malloc(q->ranks * sizeof *pl->node_of);
	pl->core_of = malloc(q->ranks * sizeof *pl->core_of);
	if (!pl->node_of || !pl->core_of) {
		tool_error("out of memory placing %" PRIu64 " ranks",
			   q->ranks);
		return -1;
	}
	switch (q->order->order) {
	case ORDER_RANK:
		for (uint64_t r = 0; r < q->ranks; r++) {
			pl->node_of[r] = (uint32_t)(r / c);
			pl->core_of[r] = (uint32_t)(r % c);
		}
		return 0;
	case ORDER_RR:
		for (uint64_t r = 0; r < q->ranks; r++) {
			pl->node_of[r] = (uint32_t)(r % n);
			pl->core_of[r] = (uint32_t)(r / n);
		}
		return 0;
	case ORDER_RANDOM:
		return place_random(q, pl);
	case ORDER_BLOCKED:
		for (uint64_t r = 0; r < q->ranks; r++)
			blocked_place(q, r, &pl->node_of[r], &pl->core_of[r]);
		return 0;
	}
	return -1;
}

static void placement_free(placement *pl)
{
	free(pl->node_of);
	free(pl->core_of);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Nodes used and ranks per used node, from a per-rank node array. */
static int count_nodes(const uint32_t *node_of, uint32_t n, node_stats *st)
{
	uint32_t *s = malloc((size_t)n * sizeof *s);

	if (!s) {
		tool_error("out of memory counting the ranks per node");
		return -1;
	}
	memcpy(s, node_of, (size_t)n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_u32);
	st->used = 0;
	st->min = UINT64_MAX;
	st->max = 0;
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && s[j] == s[i]; j++)
			;
		st->used++;
		if (j - i < st->min)
			st->min = j - i;
		if (j - i > st->max)
			st->max = j - i;
	}
	free(s);
	return 0;
}

/* ------------------------------------------------------------- output */

/* Write arg to f, in single quotes when the shell would need them. */
static void shell_word(FILE *f, const char *arg)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%";

	if (arg[0] && strspn(arg, safe) == strlen(arg)) {
		fputs(arg, f);
		return;
	}
	putc('\'', f);
	for (; *arg; arg++) {
		if (*arg == '\'')
			fputs("'\\''", f);
		else if (*arg == '\n')
			putc(' ', f);	/* keep the header one line */
		else
			putc(*arg, f);
	}
	putc('\'', f);
}

static void write_blocks(FILE *f, const map_req *q, const char *sep)
{
	char b[64];

	for (int l = 0; l < q->nlevels; l++)
		fprintf(f, "%s%s", l ? sep : "",
			fmt_triple(b, sizeof b, q->block[l]));
}

static void write_header(FILE *f, const map_req *q, int argc, char **argv)
{
	char b[64];

	fputs("# Sibyl mapping file: RANK NODE CORE (docs/machine.md, "
	      "docs/mapping.md)\n# written by:", f);
	for (int i = 0; i < argc; i++) {
		putc(' ', f);
		if (i == 0)
			fputs(argv[0], f);	/* "sibyl map" */
		else
			shell_word(f, argv[i]);
	}
	fprintf(f, "\n# %" PRIu64 " ranks on %" PRIu64 " nodes of %" PRIu64
		" cores, order %s", q->ranks, q->nodes, q->cores,
		q->order->name);
	if (q->order->order == ORDER_RANDOM)
		fprintf(f, ", seed %" PRIu64, q->seed);
	if (q->order->order == ORDER_BLOCKED) {
		fprintf(f, ", grid %s, blocks ",
			fmt_triple(b, sizeof b, q->grid));
		write_blocks(f, q, " : ");
	}
	fprintf(f, "\n# simulate with: sibyl sim --map FILE --set "
		"machine.cores_per_node=%" PRIu64 " --set machine.nodes=%"
		PRIu64 "\n", q->cores, q->nodes);
}

static int write_map(FILE *f, const map_req *q, const placement *pl,
		     int argc, char **argv)
{
	write_header(f, q, argc, argv);
	for (uint32_t r = 0; r < pl->n; r++)
		fprintf(f, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n", r,
			pl->node_of[r], pl->core_of[r]);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* Write to out.tmp, then rename it to out. */
static int write_file(const char *out, int force, const map_req *q,
		      const placement *pl, int argc, char **argv)
{
	struct stat st;
	char *tmp;
	FILE *f;
	int err;

	if (lstat(out, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			tool_error("%s is a directory; give -o a file name",
				   out);
			return EXIT_USAGE;
		}
		if (!force) {
			tool_error("%s already exists; use --force to replace "
				   "it", out);
			return EXIT_USAGE;
		}
	}
	if (!(tmp = malloc(strlen(out) + 5))) {
		tool_error("out of memory");
		return EXIT_USAGE;
	}
	sprintf(tmp, "%s.tmp", out);
	if (!(f = fopen(tmp, "w"))) {
		tool_error("cannot write %s: cannot create %s: %s", out, tmp,
			   strerror(errno));
		free(tmp);
		return EXIT_USAGE;
	}
	err = write_map(f, q, pl, argc, argv) ? errno : 0;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (!err && rename(tmp, out) != 0)
		err = errno;
	if (err) {
		tool_error("cannot write %s: %s", out, strerror(err));
		unlink(tmp);
		free(tmp);
		return EXIT_USAGE;
	}
	free(tmp);
	return 0;
}

static void json_stats(FILE *f, const node_stats *st)
{
	fprintf(f, "  \"nodes_used\": %" PRIu64 ",\n  \"ranks_per_node\": "
		"{\"min\": %" PRIu64 ", \"max\": %" PRIu64 "}", st->used,
		st->min, st->max);
}

static void json_summary(FILE *f, const map_req *q, const node_stats *st,
			 const char *out)
{
	fprintf(f, "{\n  \"ranks\": %" PRIu64 ",\n  \"cores_per_node\": %"
		PRIu64 ",\n  \"nodes\": %" PRIu64 ",\n", q->ranks, q->cores,
		q->nodes);
	json_stats(f, st);
	fprintf(f, ",\n  \"order\": ");
	json_string(f, q->order->name, strlen(q->order->name));
	if (q->order->order == ORDER_RANDOM)
		fprintf(f, ",\n  \"seed\": %" PRIu64, q->seed);
	if (q->order->order == ORDER_BLOCKED) {
		fprintf(f, ",\n  \"grid\": [%" PRIu64 ", %" PRIu64 ", %"
			PRIu64 "],\n  \"blocks\": [", q->grid[0], q->grid[1],
			q->grid[2]);
		for (int l = 0; l < q->nlevels; l++)
			fprintf(f, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
				l ? ", " : "", q->block[l][0], q->block[l][1],
				q->block[l][2]);
		fputc(']', f);
	}
	fprintf(f, ",\n  \"output\": ");
	json_string(f, out, strlen(out));
	fputs("\n}\n", f);
}

/* "8 ranks per node" or "7 to 8 ranks per node". */
static void say_per_node(FILE *f, const node_stats *st)
{
	if (st->min == st->max)
		fprintf(f, "%" PRIu64 " ranks per node", st->min);
	else
		fprintf(f, "%" PRIu64 " to %" PRIu64 " ranks per node",
			st->min, st->max);
}

/* ------------------------------------------------------------ --check */

static int check_file(const char *path, const map_req *q, int nodes_given,
		      int json, int quiet)
{
	fsim_config *cfg = NULL;
	fsim_machine *m = NULL;
	node_stats st;
	static const sib_lines_limits lim = {
		.what = "mapping file",
		.open_hint = "check the path",
		.max_line = FSIM_MAP_MAX_LINE,
	};
	char err[4096], set[64], *mapset = NULL;
	int rc = EXIT_USAGE;
	sib_lines *f;

	/* What the simulator would say of an unreadable map names
	 * machine.map; say it for --check.  A path that is not a regular
	 * file is a usage error too, refused before anything is read. */
	if (sib_lines_open(&f, path, &lim, err, sizeof err)) {
		tool_error("%s", err);
		return EXIT_USAGE;
	}
	sib_lines_close(f);
	if (fsim_config_new(&cfg)) {
		tool_error("out of memory");
		return EXIT_USAGE;
	}
	if (!(mapset = tool_config_assignment("machine.map", path))) {
		tool_error("out of memory");
		goto out;
	}
	snprintf(set, sizeof set, "machine.cores_per_node=%" PRIu64,
		 q->cores);
	if (fsim_config_set(cfg, set, err, sizeof err) ||
	    (snprintf(set, sizeof set, "machine.nodes=%" PRIu64,
		      nodes_given ? q->nodes : 0),
	     fsim_config_set(cfg, set, err, sizeof err)) ||
	    fsim_config_set(cfg, mapset, err, sizeof err) ||
	    fsim_config_resolve(cfg, err, sizeof err)) {
		tool_error("%s", err);
		goto out;
	}
	if (fsim_machine_build(&m, cfg, (uint32_t)q->ranks, err,
			       sizeof err)) {
		tool_error("%s", err);
		rc = EXIT_PROBLEMS;
		goto out;
	}
	if (count_nodes(m->node_of, m->npes, &st))
		goto out;
	if (json) {
		fprintf(stdout, "{\n  \"file\": ");
		json_string(stdout, path, strlen(path));
		fprintf(stdout, ",\n  \"valid\": true,\n  \"ranks\": %" PRIu32
			",\n  \"cores_per_node\": %" PRIu32 ",\n  \"nodes\": %"
			PRIu32 ",\n", m->npes, m->cores_per_node, m->nnodes);
		json_stats(stdout, &st);
		fputs("\n}\n", stdout);
	} else if (!quiet) {
		printf("%s: a valid mapping of %" PRIu32 " ranks on %" PRIu64
		       " of %" PRIu32 " nodes of %" PRIu32 " cores, ", path,
		       m->npes, st.used, m->nnodes, m->cores_per_node);
		say_per_node(stdout, &st);
		putchar('\n');
	}
	rc = fflush(stdout) == 0 ? 0 : EXIT_USAGE;
out:
	free(mapset);
	fsim_machine_free(m);
	fsim_config_free(cfg);
	return rc;
}

/* ----------------------------------------------------------- the tool */

enum {
	OPT_CORES = 256, OPT_NODES, OPT_ORDER, OPT_SEED, OPT_GRID,
	OPT_BLOCK, OPT_JSON, OPT_CHECK
};

static const struct option map_opts[] = {
	{ "ranks", required_argument, NULL, 'r' },
	{ "cores-per-node", required_argument, NULL, OPT_CORES },
	{ "nodes", required_argument, NULL, OPT_NODES },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "grid", required_argument, NULL, OPT_GRID },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "check", required_argument, NULL, OPT_CHECK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Options that only some orders (or only generation) take. */
struct given {
	const char *order, *seed, *grid, *block, *out, *check;
	int ranks, nodes, force;
};

static int check_options(const map_req *q, const struct given *g, int json)
{
	enum map_order o = q->order->order;

	if (!g->ranks)
		return tool_usage_error("--ranks is required");
	if (g->check) {
		const char *bad = g->out ? "-o" : g->force ? "--force" :
			g->seed ? "--seed" : g->grid ? "--grid" :
			g->block ? "--block" : g->order ? "--order" : NULL;

		if (bad)
			return tool_usage_error("%s does not apply to --check, "
						"which reads a mapping file",
						bad);
		return 0;
	}
	if (g->seed && o != ORDER_RANDOM)
		return tool_usage_error("--seed applies to --order random only");
	if ((g->grid || g->block) && o != ORDER_BLOCKED)
		return tool_usage_error("%s applies to the blocked orders only",
					g->grid ? "--grid" : "--block");
	if (o == ORDER_BLOCKED && !q->order->blocks && !g->block)
		return tool_usage_error("--order blocked needs --block, e.g. "
					"--block 4,4,2:8,8,4");
	if (g->block && q->order->blocks)
		return tool_usage_error("--order %s fixes the blocks (%s); use "
					"--order blocked --block to give "
					"others", q->order->name,
					q->order->blocks);
	if (g->force && !g->out)
		return tool_usage_error("--force needs -o FILE");
	if (json && !g->out)
		return tool_usage_error("--json prints the summary on standard "
					"output, where the mapping would go; "
					"write the mapping with -o FILE");
	return 0;
}

/* The options: -1 to go on, else the exit status. */
static int map_parse(int argc, char **argv, map_req *q, struct given *g,
		     int *json, int *quiet)
{
	int c;

	while ((c = getopt_long(argc, argv, ":r:o:fqh", map_opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_count("--ranks", optarg, UINT32_MAX,
					&q->ranks))
				return EXIT_USAGE;
			g->ranks = 1;
			break;
		case OPT_CORES:
			if (parse_count("--cores-per-node", optarg,
					MAP_MAX_CORES, &q->cores))
				return EXIT_USAGE;
			break;
		case OPT_NODES:
			if (parse_count("--nodes", optarg, UINT32_MAX,
					&q->nodes))
				return EXIT_USAGE;
			g->nodes = 1;
			break;
		case OPT_ORDER:
			if (!(q->order = find_order(optarg)))
				return tool_usage_error("--order: unknown order "
							"'%s' (rank, "
							"round-robin, random, "
							"blocked, blocked-node, "
							"blocked-drawer, "
							"blocked-supernode)",
							optarg);
			g->order = optarg;
			break;
		case OPT_SEED:
			if (parse_u64("--seed", optarg, &q->seed))
				return EXIT_USAGE;
			g->seed = optarg;
			break;
		case OPT_GRID:
			if (parse_triples("--grid", optarg, &q->grid, 1) < 0)
				return EXIT_USAGE;
			g->grid = optarg;
			break;
		case OPT_BLOCK:
			g->block = optarg;
			break;
		case 'o':
			if (!optarg[0])
				return tool_usage_error("-o: the file name is "
							"empty");
			g->out = optarg;
			break;
		case 'f':
			g->force = 1;
			break;
		case OPT_JSON:
			*json = 1;
			break;
		case OPT_CHECK:
			g->check = optarg;
			break;
		case 'q':
			*quiet = 1;
			break;
		case 'h':
			fputs(map_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage_error("unexpected argument '%s'; the options "
					"say everything", argv[optind]);
	return -1;
}

/* The one-line summary on standard error. */
static void say_summary(const map_req *q, const node_stats *st,
			const char *out)
{
	fflush(stdout);
	fprintf(stderr, "%s: %" PRIu64 " ranks on %" PRIu64 " of %" PRIu64
		" nodes, ", tool_name, q->ranks, st->used, q->nodes);
	say_per_node(stderr, st);
	fprintf(stderr, " (order %s", q->order->name);
	if (q->order->order == ORDER_BLOCKED) {
		char b[64];

		fprintf(stderr, ", grid %s, blocks ",
			fmt_triple(b, sizeof b, q->grid));
		write_blocks(stderr, q, ":");
	}
	fprintf(stderr, ")%s%s\n", out ? " -> " : "", out ? out : "");
}

int cmd_map(int argc, char **argv)
{
	map_req q = {
		.cores = MAP_DEFAULT_CORES,
		.order = order_defs,
		.seed = MAP_DEFAULT_SEED,
	};
	struct given g = { 0 };
	placement pl = { 0, NULL, NULL };
	node_stats st;
	int json = 0, quiet = 0, rc;

	if ((rc = map_parse(argc, argv, &q, &g, &json, &quiet)) >= 0)
		return rc;
	if ((rc = check_options(&q, &g, json)))
		return rc;
	if (!g.nodes)
		q.nodes = (q.ranks + q.cores - 1) / q.cores;
	if (q.ranks > q.nodes * q.cores)
		return tool_usage_error("%" PRIu64 " ranks do not fit on %"
					PRIu64 " node%s of %" PRIu64 " cores (%"
					PRIu64 " cores); raise --nodes or "
					"--cores-per-node", q.ranks, q.nodes,
					q.nodes == 1 ? "" : "s", q.cores,
					q.nodes * q.cores);
	if (g.check)
		return check_file(g.check, &q, g.nodes, json, quiet);

	if (q.order->order == ORDER_BLOCKED) {
		const char *b = g.block ? g.block : q.order->blocks;

		q.nlevels = parse_triples("--block", b, q.block,
					  MAP_MAX_LEVELS);
		if (q.nlevels < 0)
			return EXIT_USAGE;
		if ((rc = check_blocked(&q, g.grid != NULL)))
			return rc;
	}
	if (place(&q, &pl) || count_nodes(pl.node_of, pl.n, &st)) {
		rc = EXIT_USAGE;
		goto out;
	}
	if (q.nodes > fsim_machine_max_nodes(st.used)) {
		rc = tool_usage_error("--nodes %" PRIu64 " makes a machine of %"
				      PRIu64 " nodes, but the ranks use only %"
				      PRIu64 " of them; 'sibyl sim' simulates "
				      "at most %" PRIu64 " nodes here (%d "
				      "times the nodes used, or %d, whichever "
				      "is more): lower --nodes", q.nodes,
				      q.nodes, st.used,
				      fsim_machine_max_nodes(st.used),
				      FSIM_MACHINE_NODE_FACTOR,
				      FSIM_MACHINE_FREE_NODES);
		goto out;
	}
	if (g.out) {
		if ((rc = write_file(g.out, g.force, &q, &pl, argc, argv)))
			goto out;
	} else if (write_map(stdout, &q, &pl, argc, argv)) {
		tool_error("cannot write the mapping to standard output: %s",
			   strerror(errno));
		rc = EXIT_USAGE;
		goto out;
	}
	if (json) {
		json_summary(stdout, &q, &st, g.out);
	} else if (!quiet) {
		say_summary(&q, &st, g.out);
	}
	rc = 0;
out:
	placement_free(&pl);
	return rc;
}
