/*
 * map.c -- `sibyl map': write rank-to-node mapping files for `sibyl sim
 * --map' (rank order, round-robin, seeded random, hierarchical 3D
 * blocking of a process grid) and check mapping files with the reader
 * `sibyl sim' itself uses.  docs/mapping.md gives the formula of every
 * order; docs/machine.md section 4 the file format.  The orders are
 * computed by libsibyl-workload (workload/map_place.h); this file parses
 * the options and writes the file and the summaries.
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
#include "map_place.h"
#include "sib_err.h"
#include "sib_text.h"
#include "tools.h"

/* Cores of a PERCS (POWER7-IH) node: 4 chips of 8 cores (thesis §3). */
#define MAP_DEFAULT_CORES 32
/* The limit of machine.cores_per_node. */
#define MAP_MAX_CORES 1048576ULL
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
			if (tool_parse_u64(what, part[k], &out[n][k]))
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
	if (tool_parse_u64(what, s, out))
		return -1;
	if (*out < 1 || *out > max) {
		tool_usage_error("%s: %s is out of range (1 to %" PRIu64 ")",
				 what, s, max);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------- orders */

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

static void write_blocks(FILE *f, const map_spec *q, const char *sep)
{
	char b[64];

	for (int l = 0; l < q->nlevels; l++)
		fprintf(f, "%s%s", l ? sep : "",
			map_fmt_triple(b, sizeof b, q->block[l]));
}

static void write_header(FILE *f, const map_spec *q, int argc, char **argv)
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
	if (q->order->order == MAP_ORDER_RANDOM)
		fprintf(f, ", seed %" PRIu64, q->seed);
	if (q->order->order == MAP_ORDER_BLOCKED) {
		fprintf(f, ", grid %s, blocks ",
			map_fmt_triple(b, sizeof b, q->grid));
		write_blocks(f, q, " : ");
	}
	fprintf(f, "\n# simulate with: sibyl sim --map FILE --set "
		"machine.cores_per_node=%" PRIu64 " --set machine.nodes=%"
		PRIu64 "\n", q->cores, q->nodes);
}

static int write_map(FILE *f, const map_spec *q, const map_placement *pl,
		     int argc, char **argv)
{
	write_header(f, q, argc, argv);
	for (uint32_t r = 0; r < pl->n; r++)
		fprintf(f, "%" PRIu32 " %" PRIu32 " %" PRIu32 "\n", r,
			pl->node_of[r], pl->core_of[r]);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* Write to out.tmp, then rename it to out. */
static int write_file(const char *out, int force, const map_spec *q,
		      const map_placement *pl, int argc, char **argv)
{
	struct stat st;
	char *tmp;
	FILE *f;
	int err;

	if (lstat(out, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			tool_error("%s is a directory; give -o a file name",
				   out);
			return TOOL_EXIT_USAGE;
		}
		if (!force) {
			tool_error("%s already exists; use --force to replace "
				   "it", out);
			return TOOL_EXIT_USAGE;
		}
	}
	if (!(tmp = malloc(strlen(out) + 5))) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	sprintf(tmp, "%s.tmp", out);
	if (!(f = fopen(tmp, "w"))) {
		tool_error("cannot write %s: cannot create %s: %s", out, tmp,
			   strerror(errno));
		free(tmp);
		return TOOL_EXIT_USAGE;
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
		return TOOL_EXIT_USAGE;
	}
	free(tmp);
	return 0;
}

static void json_stats(FILE *f, const map_node_stats *st)
{
	fprintf(f, "  \"nodes_used\": %" PRIu64 ",\n  \"ranks_per_node\": "
		"{\"min\": %" PRIu64 ", \"max\": %" PRIu64 "}", st->used,
		st->min, st->max);
}

static void json_summary(FILE *f, const map_spec *q, const map_node_stats *st,
			 const char *out)
{
	fprintf(f, "{\n  \"ranks\": %" PRIu64 ",\n  \"cores_per_node\": %"
		PRIu64 ",\n  \"nodes\": %" PRIu64 ",\n", q->ranks, q->cores,
		q->nodes);
	json_stats(f, st);
	fprintf(f, ",\n  \"order\": ");
	tool_json_string(f, q->order->name, strlen(q->order->name));
	if (q->order->order == MAP_ORDER_RANDOM)
		fprintf(f, ",\n  \"seed\": %" PRIu64, q->seed);
	if (q->order->order == MAP_ORDER_BLOCKED) {
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
	tool_json_string(f, out, strlen(out));
	fputs("\n}\n", f);
}

/* "8 ranks per node" or "7 to 8 ranks per node". */
static void say_per_node(FILE *f, const map_node_stats *st)
{
	if (st->min == st->max)
		fprintf(f, "%" PRIu64 " ranks per node", st->min);
	else
		fprintf(f, "%" PRIu64 " to %" PRIu64 " ranks per node",
			st->min, st->max);
}

/* ------------------------------------------------------------ --check */

static int check_file(const char *path, const map_spec *q, int nodes_given,
		      int json, int quiet)
{
	fsim_config *cfg = NULL;
	fsim_machine *m = NULL;
	map_node_stats st;
	static const sib_lines_limits lim = {
		.what = "mapping file",
		.open_hint = "check the path",
		.max_line = FSIM_MAP_MAX_LINE,
	};
	char err[4096], set[64], *mapset = NULL;
	int rc = TOOL_EXIT_USAGE;
	sib_lines *f;

	/* What the simulator would say of an unreadable map names
	 * machine.map; say it for --check.  A path that is not a regular
	 * file is a usage error too, refused before anything is read. */
	if (sib_lines_open(&f, path, &lim, err, sizeof err)) {
		tool_error("%s", err);
		return TOOL_EXIT_USAGE;
	}
	sib_lines_close(f);
	if (fsim_config_new(&cfg)) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
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
		rc = TOOL_EXIT_PROBLEMS;
		goto out;
	}
	if (map_count_nodes(m->node_of, m->npes, &st, err, sizeof err)) {
		tool_error("%s", err);
		goto out;
	}
	if (json) {
		fprintf(stdout, "{\n  \"file\": ");
		tool_json_string(stdout, path, strlen(path));
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
	rc = fflush(stdout) == 0 ? 0 : TOOL_EXIT_USAGE;
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

static int check_options(const map_spec *q, const struct given *g, int json)
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
	if (g->seed && o != MAP_ORDER_RANDOM)
		return tool_usage_error("--seed applies to --order random only");
	if ((g->grid || g->block) && o != MAP_ORDER_BLOCKED)
		return tool_usage_error("%s applies to the blocked orders only",
					g->grid ? "--grid" : "--block");
	if (o == MAP_ORDER_BLOCKED && !q->order->blocks && !g->block)
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
static int map_parse(int argc, char **argv, map_spec *q, struct given *g,
		     int *json, int *quiet)
{
	int c;

	while ((c = getopt_long(argc, argv, ":r:o:fqh", map_opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (parse_count("--ranks", optarg, UINT32_MAX,
					&q->ranks))
				return TOOL_EXIT_USAGE;
			g->ranks = 1;
			break;
		case OPT_CORES:
			if (parse_count("--cores-per-node", optarg,
					MAP_MAX_CORES, &q->cores))
				return TOOL_EXIT_USAGE;
			break;
		case OPT_NODES:
			if (parse_count("--nodes", optarg, UINT32_MAX,
					&q->nodes))
				return TOOL_EXIT_USAGE;
			g->nodes = 1;
			break;
		case OPT_ORDER:
			if (!(q->order = map_order_find(optarg)))
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
			if (tool_parse_u64("--seed", optarg, &q->seed))
				return TOOL_EXIT_USAGE;
			g->seed = optarg;
			break;
		case OPT_GRID:
			if (parse_triples("--grid", optarg, &q->grid, 1) < 0)
				return TOOL_EXIT_USAGE;
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
static void say_summary(const map_spec *q, const map_node_stats *st,
			const char *out)
{
	fflush(stdout);
	fprintf(stderr, "%s: %" PRIu64 " ranks on %" PRIu64 " of %" PRIu64
		" nodes, ", tool_name, q->ranks, st->used, q->nodes);
	say_per_node(stderr, st);
	fprintf(stderr, " (order %s", q->order->name);
	if (q->order->order == MAP_ORDER_BLOCKED) {
		char b[64];

		fprintf(stderr, ", grid %s, blocks ",
			map_fmt_triple(b, sizeof b, q->grid));
		write_blocks(stderr, q, ":");
	}
	fprintf(stderr, ")%s%s\n", out ? " -> " : "", out ? out : "");
}

int tool_cmd_map(int argc, char **argv)
{
	map_spec q = {
		.cores = MAP_DEFAULT_CORES,
		.order = map_orders,
		.seed = MAP_DEFAULT_SEED,
	};
	struct given g = { 0 };
	map_placement pl = { 0, NULL, NULL };
	map_node_stats st;
	char err[512];
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

	if (q.order->order == MAP_ORDER_BLOCKED) {
		const char *b = g.block ? g.block : q.order->blocks;

		q.nlevels = parse_triples("--block", b, q.block,
					  MAP_MAX_LEVELS);
		if (q.nlevels < 0)
			return TOOL_EXIT_USAGE;
		if (map_blocked_check(&q, g.grid != NULL, err, sizeof err))
			return tool_usage_error("%s", err);
	}
	if (map_place(&q, &pl, err, sizeof err) ||
	    map_count_nodes(pl.node_of, pl.n, &st, err, sizeof err)) {
		tool_error("%s", err);
		rc = TOOL_EXIT_USAGE;
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
		rc = TOOL_EXIT_USAGE;
		goto out;
	}
	if (json) {
		json_summary(stdout, &q, &st, g.out);
	} else if (!quiet) {
		say_summary(&q, &st, g.out);
	}
	rc = 0;
out:
	map_placement_free(&pl);
	return rc;
}
