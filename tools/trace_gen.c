/*
 * trace_gen.c -- `sibyl trace gen': write a synthetic trace of a
 * communication pattern directly through the trace writer, without
 * emulating anything (in the spirit of Durango's synthetic workloads).
 *
 * Ranks are produced one at a time (PE-major) and each PE's last window is
 * flushed as soon as the rank is complete, so memory stays flat whatever
 * the rank count.  The trace is built in a temporary directory next to the
 * output and renamed into place only when every data file is closed: a
 * failed or interrupted run leaves nothing that looks like a trace.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen_patterns.h"
#include "tools.h"

static const char gen_usage[] =
"Usage: sibyl trace gen --pattern NAME --ranks R [OPTIONS]\n"
"       sibyl trace gen --list\n"
"\n"
"Write a synthetic trace of a communication pattern for R ranks, without\n"
"emulating an application.  The trace is valid by construction (every\n"
"message sent is awaited exactly once) and has the realistic shape of an\n"
"MPI code: per iteration, one SEB computes and posts its sends near its\n"
"end (Isend), then SEBs wait for the incoming messages (Waitall); the\n"
"collectives are chains of SEBs, one per step.  The first SEB of every\n"
"iteration carries an iteration marker, the first SEB of the iteration\n"
"after the warm-up a skip-point start, and a final \"finalize\" SEB a\n"
"skip-point end.  Ranks are generated one at a time, so a million ranks\n"
"need little memory.  'sibyl trace gen --list' lists the patterns;\n"
"docs/trace-tools.md gives the exact SEBs and message counts of each.\n"
"\n"
"Patterns: pingpong, ring, kneighbor, stencil3d, alltoall, allreduce,\n"
"random, and the network traffic patterns shift, bitrev, bitcomp and\n"
"transpose (permutations; no compute by default).\n"
"\n"
"Workload options:\n"
"  -p, --pattern NAME   the pattern (required)\n"
"  -r, --ranks R        number of ranks (PEs), e.g. 4096 or 1Mi (required)\n"
"  -i, --iters I        iterations (default 10)\n"
"      --warmup W       iterations before the skip-point start (default 1,\n"
"                       or 0 with a single iteration)\n"
"  -s, --msg-size S     bytes per message, e.g. 512, 4KiB (default 1KiB;\n"
"                       8 for allreduce)\n"
"  -c, --compute T      compute per iteration, e.g. 500us, 2ms; a bare\n"
"                       number is in us (default 1ms; 0 for pingpong\n"
"                       and the permutations)\n"
"      --jitter F       vary each rank's compute per iteration uniformly\n"
"                       in [1-F, 1+F] times T, 0 <= F <= 1 (default 0)\n"
"      --seed N         seed of the jitter and of random traffic (default\n"
"                       1); the same seed gives the same trace\n"
"\n"
"Pattern options:\n"
"  -k, --neighbors K    kneighbor: neighbours on each side of the ring\n"
"                       (default 4, i.e. eight neighbours as in the\n"
"                       thesis' K-Neighbor; at most R-1)\n"
"      --allreduce      kneighbor: add an 8-byte recursive-doubling\n"
"                       allreduce at the end of every iteration\n"
"      --grid X,Y,Z     stencil3d: periodic process grid, X*Y*Z = R\n"
"                       (default: the most cubic factorization of R)\n"
"      --face-bytes S   stencil3d: bytes per face message (same as\n"
"                       --msg-size)\n"
"      --block NX,NY,NZ stencil3d: local block of doubles per rank; the\n"
"                       messages across x faces are NY*NZ*8 bytes, and so\n"
"                       on\n"
"  -m, --fanout M       random: messages each rank sends (and receives)\n"
"                       per iteration (default 1)\n"
"      --pairs A:B[,C:D...]\n"
"                       pingpong: only the first ranks of nodes A and B\n"
"                       (A*C and B*C) bounce, A sending the ping; all\n"
"                       other ranks are idle\n"
"      --node-size C    pingpong --pairs, alltoall --order percs: ranks\n"
"                       per node, placed in rank order (pingpong: 1)\n"
"      --group G        alltoall: each block of G consecutive ranks runs\n"
"                       its own all-to-all; G divides R (default R)\n"
"      --order O        alltoall: pairwise (default; step s: to r+s, from\n"
"                       r-s), xor (with r xor s; G a power of two), percs\n"
"                       (thesis section 9.1: in phase i core j of every\n"
"                       node sends to node j+i; needs --node-size) or\n"
"                       linear (one step, all destinations in rank order)\n"
"      --shift K        shift: rank p sends to p+K mod R, 1 <= K < R\n"
"                       (default 1)\n"
"\n"
"Output options:\n"
"  -o, --output TRACE   trace directory to write (default PATTERN.trace)\n"
"  -f, --force          replace TRACE if it already exists (only a trace\n"
"                       directory or an empty one is replaced)\n"
"      --procs P        write P data files, as P emulating processes would\n"
"                       (block distribution of the ranks; default 1)\n"
"      --window W       SEBs per window (default 64)\n"
"      --level L        zlib level 0..9 (default 6; 0 stores)\n"
"  -q, --quiet          no progress bar and no summary\n"
"      --list           list the patterns and exit\n"
"  -h, --help           print this help and exit\n"
"\n"
"The manifest records the generator and every parameter as gen.* keys\n"
"(gen.pattern, gen.ranks, gen.iters, gen.seed, ..., gen.messages).\n"
"\n"
"Examples:\n"
"  sibyl trace gen -p stencil3d -r 1Mi -i 2 -o big.trace\n"
"  sibyl trace gen -p stencil3d -r 512 --grid 8,8,8 --block 64,64,64\n"
"  sibyl trace gen -p kneighbor -r 4096 -k 4 --allreduce --compute 1ms\n"
"  sibyl trace gen -p random -r 1000 --fanout 4 --jitter 0.05 --seed 7\n"
"  sibyl trace gen -p alltoall -r 64 --procs 4 -o a2a.trace\n"
"  sibyl trace gen -p alltoall -r 1024 --order percs --node-size 32 \\\n"
"      -s 51KB -i 1 -c 0 -o supernode.trace\n"
"  sibyl trace gen -p pingpong -r 128 --node-size 32 --pairs 0:1,2:3 \\\n"
"      -s 2 -i 100 -o nodes.trace\n"
"  sibyl trace gen -p bitrev -r 256 -s 64KiB -i 1\n"
"\n"
"Exit status:\n"
"  0  the trace was written\n"
"  2  usage error (bad or inconsistent parameters, TRACE exists), or the\n"
"     trace could not be written; nothing is left behind\n";

/* Options given on the command line, beyond the GEN_OPT_* bits. */
#define GEN_OPT_MASK ((1U << GEN_NOPTS) - 1)
#define GIVEN_MSG 0x10000
#define GIVEN_WARMUP 0x20000
#define GIVEN_COMPUTE 0x40000
#define GIVEN_FACE 0x80000
#define GIVEN_BLOCK 0x100000

enum {
	OPT_WARMUP = 256,
	OPT_JITTER,
	OPT_SEED,
	OPT_ALLREDUCE,
	OPT_GRID,
	OPT_FACE,
	OPT_BLOCK,
	OPT_PROCS,
	OPT_WINDOW,
	OPT_LEVEL,
	OPT_LIST,
	OPT_PAIRS,
	OPT_NODE_SIZE,
	OPT_GROUP,
	OPT_ORDER,
	OPT_SHIFT,
};

struct gen_opts {
	const gen_pattern *pat;
	gen_params gp;
	gen_pair *pairs;	/* --pairs, owned */
	int order_given;
	uint32_t procs;
	uint32_t window;
	int level;
	const char *out;
	int force;
	int quiet;
	unsigned given;
};

/* Where the writer's add goes: the builder's sink. */
struct sink {
	sibt_writer *w;
};

static int sink_add(void *arg, const sibt_seb *seb)
{
	struct sink *s = arg;

	return sibt_writer_add(s->w, seb, NULL);
}

/* --------------------------------------------------------------- parsing */

static int parse_u32(const char *what, const char *s, uint32_t min,
		     uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (tool_parse_u64(what, s, &v))
		return -1;
	if (v < min || v > max) {
		tool_error("%s: %s is out of range (%" PRIu32 "..%" PRIu32 ")",
			   what, s, min, max);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* "X,Y,Z" (or "XxYxZ"), each a positive integer <= max. */
static int parse_triple(const char *what, const char *s, uint64_t max,
			uint64_t out[3])
{
	char buf[128], *part[3], *p;
	int n = 0, i;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	part[n++] = buf;
	for (p = buf; *p; p++) {
		if (*p == ',' || *p == 'x') {
			if (n == 3)
				goto bad;
			*p = '\0';
			part[n++] = p + 1;
		}
	}
	if (n != 3)
		goto bad;
	for (i = 0; i < 3; i++) {
		if (!part[i][0])
			goto bad;
		if (tool_parse_u64(what, part[i], &out[i]))
			return -1;
		if (out[i] < 1 || out[i] > max) {
			tool_error("%s: %s is out of range (1..%" PRIu64 ")",
				   what, part[i], max);
			return -1;
		}
	}
	return 0;
bad:
	tool_error("%s: '%s' is not three positive integers X,Y,Z", what, s);
	return -1;
}

/* "A:B[,C:D...]": node pairs, into a new array *out of *n pairs. */
static int parse_pairs(const char *s, gen_pair **out, uint32_t *n)
{
	char num[32];
	const char *p = s, *end;
	uint32_t v[2], cnt = 1, i = 0;
	gen_pair *pairs;
	size_t len;
	int half;

	for (end = s; *end; end++)
		cnt += *end == ',';
	if (!(pairs = calloc(cnt, sizeof(*pairs)))) {
		tool_error("--pairs: out of memory");
		return -1;
	}
	for (i = 0; i < cnt; i++) {
		for (half = 0; half < 2; half++) {
			len = strcspn(p, ":,");
			if (!len || len >= sizeof(num) ||
			    p[len] != (half ? (i + 1 < cnt ? ',' : '\0') : ':'))
				goto bad;
			memcpy(num, p, len);
			num[len] = '\0';
			if (parse_u32("--pairs", num, 0, UINT32_MAX, &v[half]))
				goto fail;
			p += len + 1;
		}
		pairs[i].a = v[0];
		pairs[i].b = v[1];
	}
	free(*out);
	*out = pairs;
	*n = cnt;
	return 0;
bad:
	tool_error("--pairs: '%s' is not a list of node pairs A:B,C:D,... "
		   "(whole numbers)", s);
fail:
	free(pairs);
	return -1;
}

static int parse_order(const char *s, int *out)
{
	int i;

	for (i = 0; i < GEN_NORDERS; i++) {
		if (!strcmp(s, gen_order_names[i])) {
			*out = i;
			return 0;
		}
	}
	tool_error("--order: unknown order '%s' (pairwise, xor, percs or "
		   "linear)", s);
	return -1;
}

static const char *const opt_names[GEN_NOPTS] = {
	"--neighbors", "--allreduce", "--grid", "--face-bytes/--block",
	"--fanout", "--pairs", "--node-size", "--group/--order", "--shift"
};

/* Refuse options that do not apply to the chosen pattern. */
static int check_applicable(const struct gen_opts *o)
{
	unsigned bit, extra = o->given & GEN_OPT_MASK & ~o->pat->options;
	char who[128] = "";
	size_t n = 0;
	int i, j;

	if (!extra)
		return 0;
	for (i = 0, bit = 1; !(extra & bit); i++, bit <<= 1)
		;
	for (j = 0; gen_patterns[j]; j++)
		if ((gen_patterns[j]->options & bit) && n < sizeof(who))
			n += (size_t)snprintf(who + n, sizeof(who) - n, "%s%s",
					      n ? ", " : "",
					      gen_patterns[j]->name);
	return tool_usage_error("%s does not apply to pattern %s (only to "
				"%s)", opt_names[i], o->pat->name, who);
}

static int looks_like_bundle_name(const char *s)
{
	static const char *const ext[] = {
		".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".tar.zst"
	};
	size_t n = strlen(s), i, e;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		e = strlen(ext[i]);
		if (n > e && !strcmp(s + n - e, ext[i]))
			return 1;
	}
	return 0;
}

static void print_list(void)
{
	static const char *const opt_help[GEN_NOPTS] = {
		"--neighbors K", "--allreduce", "--grid X,Y,Z",
		"--face-bytes S | --block NX,NY,NZ", "--fanout M",
		"--pairs A:B,...", "--node-size C", "--group G, --order O",
		"--shift K"
	};
	char b1[32], b2[32];
	unsigned bit;
	int i, j, n;

	puts("Patterns of 'sibyl trace gen':");
	for (i = 0; gen_patterns[i]; i++) {
		const gen_pattern *p = gen_patterns[i];

		printf("  %-10s %s\n", p->name, p->summary);
		printf("  %-10s defaults: %s messages, %s", "",
		       tool_fmt_bytes(b1, sizeof(b1),
				      (double)p->default_msg_size),
		       p->default_compute ?
		       tool_fmt_time(b2, sizeof(b2), p->default_compute) :
		       "no compute");
		if (p->default_compute)
			fputs(" compute", stdout);
		putchar('\n');
		for (j = 0, n = 0, bit = 1; j < GEN_NOPTS; j++, bit <<= 1)
			if (p->options & bit)
				printf("%s%s", n++ ? ", " : "             "
				       "options: ", opt_help[j]);
		if (n)
			putchar('\n');
	}
}

/* ----------------------------------------------------------- generation */

/* "key = value" manifest lines; storage for up to GEN_EXTRA of them,
 * and the gen.pairs line, of any length, in pairs. */
#define GEN_EXTRA 24
struct extra {
	char line[GEN_EXTRA][160];
	const char *ptr[GEN_EXTRA + 2];
	char *pairs;
	int n;
};

/* "gen.pairs = A:B,C:D,..." into x->pairs (NULL when out of memory). */
static void extra_pairs(struct extra *x, const gen_params *gp)
{
	size_t len = 16 + (size_t)gp->npairs * 22, n;
	uint32_t i;

	if (!(x->pairs = malloc(len)))
		return;
	n = (size_t)snprintf(x->pairs, len, "gen.pairs = ");
	for (i = 0; i < gp->npairs; i++)
		n += (size_t)snprintf(x->pairs + n, len - n, "%s%" PRIu32 ":%"
				      PRIu32, i ? "," : "", gp->pairs[i].a,
				      gp->pairs[i].b);
	x->ptr[x->n++] = x->pairs;
	x->ptr[x->n] = NULL;
}

static void extra_add(struct extra *x, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void extra_add(struct extra *x, const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->n == GEN_EXTRA)
		return;
	n = snprintf(x->line[x->n], sizeof(x->line[0]), "%s = ", key);
	va_start(ap, fmt);
	vsnprintf(x->line[x->n] + n, sizeof(x->line[0]) - (size_t)n, fmt, ap);
	va_end(ap);
	x->ptr[x->n] = x->line[x->n];
	x->n++;
	x->ptr[x->n] = NULL;
}

/* The shortest "%g" form of v that reads back as v. */
static const char *shortest(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

static int build_extra(const struct gen_opts *o, struct extra *x)
{
	const gen_params *gp = &o->gp;
	unsigned opt = o->pat->options;
	char jb[32];

	x->n = 0;
	x->ptr[0] = NULL;
	x->pairs = NULL;
	extra_add(x, "gen.pattern", "%s", o->pat->name);
	extra_add(x, "gen.ranks", "%" PRIu32, gp->ranks);
	extra_add(x, "gen.iters", "%" PRIu32, gp->iters);
	extra_add(x, "gen.warmup", "%" PRIu32, gp->warmup);
	extra_add(x, "gen.seed", "%" PRIu64, gp->seed);
	extra_add(x, "gen.compute_ps", "%" PRId64, (int64_t)gp->compute);
	extra_add(x, "gen.jitter", "%s", shortest(jb, sizeof(jb), gp->jitter));
	if (opt & GEN_OPT_FACE) {
		extra_add(x, "gen.grid", "%" PRIu32 ",%" PRIu32 ",%" PRIu32,
			  gp->grid[0], gp->grid[1], gp->grid[2]);
		if (gp->block[0])
			extra_add(x, "gen.block", "%" PRIu64 ",%" PRIu64
				  ",%" PRIu64, gp->block[0], gp->block[1],
				  gp->block[2]);
		extra_add(x, "gen.face_bytes", "%" PRIu64 ",%" PRIu64 ",%"
			  PRIu64, gp->face[0], gp->face[1], gp->face[2]);
	} else {
		extra_add(x, "gen.msg_size", "%" PRIu64, gp->msg_size);
	}
	if (opt & GEN_OPT_NEIGHBORS)
		extra_add(x, "gen.neighbors", "%" PRIu32, gp->neighbors);
	if (opt & GEN_OPT_ALLREDUCE)
		extra_add(x, "gen.allreduce", "%d", gp->allreduce ? 1 : 0);
	if (opt & GEN_OPT_FANOUT)
		extra_add(x, "gen.fanout", "%" PRIu32, gp->fanout);
	if (gp->pairs) {
		extra_pairs(x, gp);
		if (!x->pairs)
			return -1;
	}
	if (gp->node_size)
		extra_add(x, "gen.node_size", "%" PRIu32, gp->node_size);
	if (o->given & GEN_OPT_GROUP) {
		extra_add(x, "gen.group", "%" PRIu32, gp->group);
		extra_add(x, "gen.order", "%s", gen_order_names[gp->order]);
	}
	if (opt & GEN_OPT_SHIFT)
		extra_add(x, "gen.shift", "%" PRIu32, gp->shift);
	extra_add(x, "gen.sebs", "%" PRIu64, o->pat->sebs(gp));
	extra_add(x, "gen.messages", "%" PRIu64, o->pat->messages(gp));
	return 0;
}

/* The command line, words separated by blanks, quoted where needed. */
static char *join_cmdline(int argc, char **argv)
{
	size_t len = 1, o = 0;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	if (!(s = malloc(len)))
		return NULL;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		int quote = i > 0 && (!*a || strpbrk(a, " \t\n'\"\\$`*?;&|<>()"));

		if (i)
			s[o++] = ' ';
		if (quote)
			s[o++] = '\'';
		for (; *a; a++) {
			if (quote && *a == '\'') {
				memcpy(s + o, "'\\''", 4);
				o += 4;
			} else {
				s[o++] = *a;
			}
		}
		if (quote)
			s[o++] = '\'';
	}
	s[o] = '\0';
	return s;
}

/*
 * Write every data file of the trace into dir.  Returns 0, or -1 after
 * printing why.
 */
static int generate(const struct gen_opts *o, const char *dir,
		    const char *cmdline, gen_counts *counts)
{
	const gen_params *gp = &o->gp;
	char errbuf[512] = "";
	struct extra x;
	struct sink sink = { NULL };
	sibt_writer_opts wo;
	gen_builder *b;
	tool_progress pg;
	uint64_t done = 0;
	uint32_t p, pe, first, count;
	int rc = 0;

	if (build_extra(o, &x) || !(b = gen_builder_new(sink_add, &sink))) {
		free(x.pairs);
		tool_error("out of memory");
		return -1;
	}
	tool_progress_begin(&pg, "generating ranks", gp->ranks, o->quiet);
	for (p = 0; p < o->procs && !rc; p++) {
		sibt_block_range(gp->ranks, o->procs, p, &first, &count);
		sibt_writer_opts_init(&wo);
		wo.npes = gp->ranks;
		wo.nprocs = o->procs;
		wo.proc = p;
		wo.first_pe = first;
		wo.local_npes = count;
		wo.window = o->window;
		wo.level = o->level;
		wo.write_manifest = p == 0;
		wo.generator = "sibyl trace gen";
		wo.cmdline = cmdline;
		wo.extra = x.ptr;
		rc = sibt_writer_open(&sink.w, dir, &wo, errbuf, sizeof(errbuf));
		if (rc < 0) {
			tool_progress_end(&pg);
			tool_error("%s",
				   errbuf[0] ? errbuf : sibt_strerror(rc));
			break;
		}
		for (pe = first; pe < first + count; pe++) {
			rc = gen_rank(b, o->pat, gp, pe);
			if (rc == SIBT_OK)
				rc = sibt_writer_flush_pe(sink.w, pe);
			if (rc < 0) {
				tool_progress_end(&pg);
				if (rc == SIBT_EFORMAT)
					tool_error("rank %" PRIu32 ": the "
						   "generator broke its own "
						   "invariants (a bug): %s",
						   pe, gen_builder_error(b));
				else
					tool_error("rank %" PRIu32 ": %s", pe,
						   rc == SIBT_EINVAL &&
						   *gen_builder_error(b) ?
						   gen_builder_error(b) :
						   sibt_writer_errmsg(sink.w));
				break;
			}
			if (!(++done & 1023))
				tool_progress_update(&pg, done);
		}
		if (rc < 0) {
			sibt_writer_abort(sink.w);
			break;
		}
		rc = sibt_writer_close(sink.w);
		if (rc < 0) {
			tool_progress_end(&pg);
			tool_error("cannot complete data file %" PRIu32
				   " in %s: %s", p, dir, sibt_strerror(rc));
		}
	}
	tool_progress_end(&pg);
	gen_builder_counts(b, counts);
	gen_builder_free(b);
	free(x.pairs);
	if (rc < 0)
		return -1;
	if (counts->messages != o->pat->messages(gp) ||
	    counts->sebs != o->pat->sebs(gp)) {
		tool_error("internal error: pattern %s produced %" PRIu64
			   " SEBs and %" PRIu64 " messages; its formulas "
			   "say %" PRIu64 " and %" PRIu64, o->pat->name,
			   counts->sebs, counts->messages, o->pat->sebs(gp),
			   o->pat->messages(gp));
		return -1;
	}
	return 0;
}

static uint64_t dir_bytes(const char *dir, uint32_t *nfiles)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char path[4096];
	uint64_t sum = 0;

	*nfiles = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		sum += (uint64_t)st.st_size;
		if (!fnmatch("proc-*.sdat", e->d_name, 0))
			(*nfiles)++;
	}
	closedir(d);
	return sum;
}

static void print_summary(const struct gen_opts *o, const gen_counts *c,
			  double seconds)
{
	const gen_params *gp = &o->gp;
	char b1[32], b2[32], b3[32], b4[32];
	uint32_t nfiles;
	uint64_t bytes = dir_bytes(o->out, &nfiles);

	printf("%s: wrote %s\n", tool_name, o->out);
	printf("  pattern    %s, %s ranks, %s iteration%s", o->pat->name,
	       tool_fmt_count(b1, sizeof(b1), gp->ranks),
	       tool_fmt_count(b2, sizeof(b2), gp->iters),
	       gp->iters == 1 ? "" : "s");
	if (o->pat->options & GEN_OPT_NEIGHBORS)
		printf(", K = %" PRIu32 "%s", gp->neighbors,
		       gp->allreduce ? ", allreduce" : "");
	if (o->pat->options & GEN_OPT_GRID)
		printf(", grid %" PRIu32 "x%" PRIu32 "x%" PRIu32,
		       gp->grid[0], gp->grid[1], gp->grid[2]);
	if (o->pat->options & GEN_OPT_FANOUT)
		printf(", fanout %" PRIu32, gp->fanout);
	if (gp->pairs)
		printf(", %" PRIu32 " node pair%s of %" PRIu32 " rank%s",
		       gp->npairs, gp->npairs == 1 ? "" : "s", gp->node_size,
		       gp->node_size == 1 ? "" : "s");
	if (o->pat->options & GEN_OPT_GROUP)
		printf(", %s order in groups of %" PRIu32,
		       gen_order_names[gp->order], gp->group);
	if (gp->node_size && (o->pat->options & GEN_OPT_GROUP))
		printf(", %" PRIu32 " rank%s per node", gp->node_size,
		       gp->node_size == 1 ? "" : "s");
	if (o->pat->options & GEN_OPT_SHIFT)
		printf(", K = %" PRIu32, gp->shift);
	putchar('\n');
	printf("  SEBs       %s\n", tool_fmt_count(b1, sizeof(b1), c->sebs));
	printf("  messages   %s (%s of payload)\n",
	       tool_fmt_count(b1, sizeof(b1), c->messages),
	       tool_fmt_bytes(b2, sizeof(b2), (double)c->bytes));
	printf("  trace      %s in %" PRIu32 " data file%s, %.2f bytes per "
	       "SEB\n", tool_fmt_bytes(b3, sizeof(b3), (double)bytes), nfiles,
	       nfiles == 1 ? "" : "s",
	       c->sebs ? (double)bytes / (double)c->sebs : 0.0);
	printf("  time       %.2f s (%s SEBs/s), peak RSS %s\n", seconds,
	       tool_fmt_count(b4, sizeof(b4), seconds > 0 ?
			 (uint64_t)((double)c->sebs / seconds) : c->sebs),
	       tool_fmt_bytes(b1, sizeof(b1), (double)sib_peak_rss()));
}

/* ----------------------------------------------------------------- main */

static const struct option gen_longopts[] = {
	{ "pattern", required_argument, NULL, 'p' },
	{ "ranks", required_argument, NULL, 'r' },
	{ "iters", required_argument, NULL, 'i' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "msg-size", required_argument, NULL, 's' },
	{ "compute", required_argument, NULL, 'c' },
	{ "jitter", required_argument, NULL, OPT_JITTER },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "neighbors", required_argument, NULL, 'k' },
	{ "allreduce", no_argument, NULL, OPT_ALLREDUCE },
	{ "grid", required_argument, NULL, OPT_GRID },
	{ "face-bytes", required_argument, NULL, OPT_FACE },
	{ "block", required_argument, NULL, OPT_BLOCK },
	{ "fanout", required_argument, NULL, 'm' },
	{ "pairs", required_argument, NULL, OPT_PAIRS },
	{ "node-size", required_argument, NULL, OPT_NODE_SIZE },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "shift", required_argument, NULL, OPT_SHIFT },
	{ "procs", required_argument, NULL, OPT_PROCS },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* What parse_args() needs beyond the options: the pattern's name, and
 * whether --ranks and --iters were given. */
struct gen_parse {
	const char *pattern;
	int have_ranks, have_iters;
};

enum { OPT_DONE = 0, OPT_FAILED = -1, OPT_NOT_MINE = 1 };

/* The workload's options (the pattern, its size and compute). */
static int workload_option(struct gen_opts *o, struct gen_parse *ps, int c)
{
	gen_params *gp = &o->gp;
	uint64_t v;

	switch (c) {
	case 'p':
		ps->pattern = optarg;
		return OPT_DONE;
	case 'r':
		if (parse_u32("--ranks", optarg, 1, UINT32_MAX, &gp->ranks))
			return OPT_FAILED;
		ps->have_ranks = 1;
		return OPT_DONE;
	case 'i':
		if (parse_u32("--iters", optarg, 1, UINT32_MAX, &gp->iters))
			return OPT_FAILED;
		ps->have_iters = 1;
		return OPT_DONE;
	case OPT_WARMUP:
		if (parse_u32("--warmup", optarg, 0, UINT32_MAX, &gp->warmup))
			return OPT_FAILED;
		o->given |= GIVEN_WARMUP;
		return OPT_DONE;
	case 's':
	case OPT_FACE:
		if (tool_parse_size(c == 's' ? "--msg-size" : "--face-bytes",
			       optarg, &v))
			return OPT_FAILED;
		gp->msg_size = v;
		o->given |= c == 's' ? GIVEN_MSG : GIVEN_FACE | GEN_OPT_FACE;
		return OPT_DONE;
	case 'c':
		if (tool_parse_time("--compute", optarg, "us", &gp->compute))
			return OPT_FAILED;
		o->given |= GIVEN_COMPUTE;
		return OPT_DONE;
	case OPT_JITTER:
		if (tool_parse_double("--jitter", optarg, &gp->jitter))
			return OPT_FAILED;
		if (gp->jitter < 0 || gp->jitter > 1) {
			tool_error("--jitter: %s is not a fraction between 0 "
				   "and 1 (e.g. 0.05 for +-5%%)", optarg);
			return OPT_FAILED;
		}
		return OPT_DONE;
	case OPT_SEED:
		return tool_parse_u64("--seed", optarg,
				      &gp->seed) ? OPT_FAILED :
		       OPT_DONE;
	default:
		return OPT_NOT_MINE;
	}
}

/* The options of particular patterns. */
static int pattern_option(struct gen_opts *o, int c)
{
	gen_params *gp = &o->gp;
	uint64_t t3[3];

	switch (c) {
	case 'k':
		if (parse_u32("--neighbors", optarg, 1, UINT32_MAX,
			      &gp->neighbors))
			return OPT_FAILED;
		o->given |= GEN_OPT_NEIGHBORS;
		return OPT_DONE;
	case OPT_ALLREDUCE:
		gp->allreduce = 1;
		o->given |= GEN_OPT_ALLREDUCE;
		return OPT_DONE;
	case OPT_GRID:
		if (parse_triple("--grid", optarg, UINT32_MAX, t3))
			return OPT_FAILED;
		for (int i = 0; i < 3; i++)
			gp->grid[i] = (uint32_t)t3[i];
		o->given |= GEN_OPT_GRID;
		return OPT_DONE;
	case OPT_BLOCK:
		if (parse_triple("--block", optarg, UINT32_MAX, gp->block))
			return OPT_FAILED;
		o->given |= GEN_OPT_FACE | GIVEN_BLOCK;
		return OPT_DONE;
	case 'm':
		if (parse_u32("--fanout", optarg, 1, 1U << 20, &gp->fanout))
			return OPT_FAILED;
		o->given |= GEN_OPT_FANOUT;
		return OPT_DONE;
	case OPT_PAIRS:
		if (parse_pairs(optarg, &o->pairs, &gp->npairs))
			return OPT_FAILED;
		gp->pairs = o->pairs;
		o->given |= GEN_OPT_PAIRS;
		return OPT_DONE;
	case OPT_NODE_SIZE:
		if (parse_u32("--node-size", optarg, 1, UINT32_MAX,
			      &gp->node_size))
			return OPT_FAILED;
		o->given |= GEN_OPT_NODE_SIZE;
		return OPT_DONE;
	case OPT_GROUP:
		if (parse_u32("--group", optarg, 1, UINT32_MAX, &gp->group))
			return OPT_FAILED;
		o->given |= GEN_OPT_GROUP;
		return OPT_DONE;
	case OPT_ORDER:
		if (parse_order(optarg, &gp->order))
			return OPT_FAILED;
		o->given |= GEN_OPT_GROUP;
		return OPT_DONE;
	case OPT_SHIFT:
		if (parse_u32("--shift", optarg, 1, UINT32_MAX, &gp->shift))
			return OPT_FAILED;
		o->given |= GEN_OPT_SHIFT;
		return OPT_DONE;
	default:
		return OPT_NOT_MINE;
	}
}

/* The options: 0 to go on (or, with *exit_now, to exit 0), -1 when one
 * was wrong (the message is out), -2 on a usage error. */
static int parse_args(int argc, char **argv, struct gen_opts *o, int *exit_now)
{
	gen_params *gp = &o->gp;
	struct gen_parse ps = { NULL, 0, 0 };
	uint32_t u;
	int c, rc;

	*exit_now = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:r:i:s:c:k:m:o:fqh",
				gen_longopts, NULL)) != -1) {
		if ((rc = workload_option(o, &ps, c)) == OPT_NOT_MINE)
			rc = pattern_option(o, c);
		if (rc == OPT_FAILED)
			return -1;
		if (rc == OPT_DONE)
			continue;
		switch (c) {
		case OPT_PROCS:
			if (parse_u32("--procs", optarg, 1, 1U << 20,
				      &o->procs))
				return -1;
			break;
		case OPT_WINDOW:
			if (parse_u32("--window", optarg, 1, UINT32_MAX,
				      &o->window))
				return -1;
			break;
		case OPT_LEVEL:
			if (parse_u32("--level", optarg, 0, 9, &u))
				return -1;
			o->level = (int)u;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_LIST:
			print_list();
			*exit_now = 1;
			return 0;
		case 'h':
			fputs(gen_usage, stdout);
			*exit_now = 1;
			return 0;
		default:
			tool_bad_option(c, argv);
			return -2;
		}
	}
	if (optind < argc) {
		tool_usage_error("unexpected argument '%s' (the output is "
				 "given with -o)", argv[optind]);
		return -2;
	}
	if (!ps.pattern) {
		tool_usage_error("--pattern is required (one of: pingpong, "
				 "ring, kneighbor, stencil3d, alltoall, "
				 "allreduce, random, shift, bitrev, bitcomp, "
				 "transpose; see --list)");
		return -2;
	}
	if (!(o->pat = gen_pattern_find(ps.pattern))) {
		tool_usage_error("unknown pattern '%s'; 'sibyl trace gen "
				 "--list' shows the patterns", ps.pattern);
		return -2;
	}
	if (!ps.have_ranks) {
		tool_usage_error("--ranks is required");
		return -2;
	}
	if (!ps.have_iters)
		gp->iters = 10;
	return 0;
}

static int gen_main(struct gen_opts *o, int argc, char **argv)
{
	gen_params *gp = &o->gp;
	char err[512] = "", defout[256];
	char *cmdline = NULL;
	tool_out out = { .handle = -1 };
	gen_counts counts;
	double t0;
	int exit_now, rc;

	rc = parse_args(argc, argv, o, &exit_now);
	if (rc == -2)
		return TOOL_EXIT_USAGE;
	if (rc < 0) {
		fprintf(stderr, "Try '%s --help'.\n", tool_name);
		return TOOL_EXIT_USAGE;
	}
	if (exit_now)
		return 0;

	if (check_applicable(o))
		return TOOL_EXIT_USAGE;
	if ((o->given & GIVEN_BLOCK) && (o->given & (GIVEN_MSG | GIVEN_FACE)))
		return tool_usage_error("--block derives the message sizes; "
					"give either it or --face-bytes/"
					"--msg-size");
	if ((o->given & GIVEN_MSG) && (o->given & GIVEN_FACE))
		return tool_usage_error("--msg-size and --face-bytes are the "
					"same for stencil3d; give one");
	if (!(o->given & (GIVEN_MSG | GIVEN_FACE)))
		gp->msg_size = o->pat->default_msg_size;
	if (!(o->given & GIVEN_COMPUTE))
		gp->compute = o->pat->default_compute;
	if (!(o->given & GIVEN_WARMUP))
		gp->warmup = gp->iters > 1 ? 1 : 0;
	else if (gp->warmup >= gp->iters)
		return tool_usage_error("--warmup %" PRIu32 " leaves no "
					"iteration to measure; it must be less "
					"than --iters (%" PRIu32 ")", gp->warmup,
					gp->iters);
	if (o->pat->prepare(gp, err, sizeof(err)))
		return tool_usage_error("%s", err);
	if (o->procs > gp->ranks)
		return tool_usage_error("--procs %" PRIu32 " exceeds --ranks %"
					PRIu32 "; every data file needs at "
					"least one rank", o->procs, gp->ranks);

	if (!o->out) {
		snprintf(defout, sizeof(defout), "%s.trace", o->pat->name);
		o->out = defout;
	}
	if (!o->out[0])
		return tool_usage_error("-o: the output path is empty");
	if (looks_like_bundle_name(o->out))
		return tool_usage_error("%s: gen writes a trace directory; "
					"write it, then pack it with 'sibyl "
					"trace pack'", o->out);
	/* The trace is written into a registered staging directory (a
	 * signal removes it) and moved into place when complete. */
	out.path = o->out;
	out.kind = TOOL_OUT_TRACE;
	out.writer = tool_name;
	out.force = o->force;
	if ((rc = tool_out_begin(&out)))
		return rc;
	cmdline = join_cmdline(argc, argv);

	t0 = sib_now_seconds();
	rc = generate(o, out.stage, cmdline, &counts);
	free(cmdline);
	if (rc == 0)
		rc = tool_out_commit(&out);
	else
		fprintf(stderr, "%s: nothing was written\n", tool_name);
	tool_out_free(&out);
	if (rc != 0)
		return TOOL_EXIT_USAGE;
	if (!o->quiet)
		print_summary(o, &counts, sib_now_seconds() - t0);
	return 0;
}

int tool_cmd_trace_gen(int argc, char **argv)
{
	struct gen_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	o.procs = 1;
	o.level = -1;
	o.gp.seed = 1;
	rc = gen_main(&o, argc, argv);
	gen_params_release(&o.gp);
	free(o.pairs);
	return rc;
}
