/*
 * emulate.c -- `sibyl emulate': run an MPI application built with sibylcc
 * as V virtual ranks on P Open MPI processes and keep its trace.
 *
 * The launcher only prepares and supervises.  It hands the emulation's
 * parameters to the runtime (libsibyl-emu) in SIBYL_* environment
 * variables, runs mpirun, and publishes the trace -- which the runtime
 * writes into TRACE.partial -- under its final name only once mpirun
 * succeeded and every data file is complete and readable.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>	/* isfinite */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emu_settings.h"
#include "sib_text.h"
#include "regions.h"
#include "tools.h"

#ifndef MPIRUN_PATH
#define MPIRUN_PATH "mpirun"
#endif

static const char emulate_usage[] =
"Usage: sibyl emulate --ranks V [-np P] [OPTIONS] [MPIRUN-OPTIONS]\n"
"                     -- APP [ARG]...\n"
"\n"
"Run the MPI application APP, built with sibylcc, as V virtual MPI ranks on\n"
"P Open MPI processes, and record its trace: for every rank, its\n"
"sequential execution blocks (SEBs, the computation between two MPI calls,\n"
"timed) and the messages that tie them together.  'sibyl sim' replays the\n"
"trace on a model of the target machine.  The ranks are user-level threads\n"
"spread over the processes in consecutive blocks (process 0 hosts ranks\n"
"0..V/P-1, and so on); messages are really delivered, so the application\n"
"computes what it would on V processes.\n"
"\n"
"The trace is written to TRACE.partial and renamed to TRACE only when mpirun\n"
"exits 0 and every process's data file is complete: a failed or interrupted\n"
"run never leaves a trace that looks finished.\n"
"\n"
"Options (anywhere before '--'):\n"
"  -r, --ranks V         virtual ranks to emulate (required), P to\n"
"                        2147483647; suffixes k, M, G or Ki, Mi, Gi, e.g.\n"
"                        64k, 1Mi\n"
"  -n, -np, --np P       Open MPI processes to emulate on (default 1; also\n"
"                        mpirun's -c and --n)\n"
"  -o, --output TRACE    trace directory to write (default: ./APP.trace,\n"
"                        after APP's base name)\n"
"  -f, --force           replace TRACE if it is an existing trace; the old\n"
"                        trace is removed only once the new one is complete\n"
"                        (anything else in the way is never replaced)\n"
"      --window N        SEBs per trace window (default 64)\n"
"      --timing corrected|raw\n"
"                        how the computation between MPI calls is timed:\n"
"                        corrected (default) takes the host's interference\n"
"                        out -- wall-clock time, CPU time where the thread\n"
"                        was off its core, and a region's median for an\n"
"                        SEB far outside its code region's distribution\n"
"                        (or its first in the process, or one after a wait\n"
"                        above its region's warm median: cold);\n"
"                        symbols are bound at load (LD_BIND_NOW=1) and the\n"
"                        address layout is not randomized; the raw values\n"
"                        stay in the trace (docs/emulator.md);\n"
"                        raw keeps one clock's reading (--clock)\n"
"      --clock cpu|wall  with --timing raw, the clock: this thread's CPU\n"
"                        time (default) or wall-clock time\n"
"      --compression L   zlib level of the trace windows, 0 (stored) to 9\n"
"                        (default 6); 0 makes the trace about 3x larger\n"
"                        and message-heavy emulations about 2x faster\n"
"      --cpu-factor F    multiply every measured computation time by F\n"
"                        (default 1), e.g. 0.5 when the target's cores are\n"
"                        twice as fast as this machine's; 0 keeps only the\n"
"                        compute declared with sibyl_compute()\n"
"      --stack-size S    stack of each virtual rank, 16KiB to 16GiB, e.g.\n"
"                        256KiB, 8MiB (default 1 MiB; pages never touched\n"
"                        cost no memory)\n"
"      --post-points MIN record where the non-blocking receives of MIN\n"
"                        bytes or more were posted, which a rendezvous\n"
"                        range of the machine needs (default 4KiB; 0:\n"
"                        all; each costs a copy of the SEBs made before\n"
"                        it matches)\n"
"      --flop-rate R     rate of sibyl_compute_flops(), in flop/s, e.g.\n"
"                        2.5e9 or 40G (default 1G)\n"
"      --coll C=A[,C=A]  the algorithm A of collective C, e.g.\n"
"                        --coll allreduce=ring,alltoall=percs (may be\n"
"                        repeated; default: chosen by message and\n"
"                        communicator size); docs/emulator.md lists them\n"
"      --node-size N     ranks per node of the target (default 32, a\n"
"                        PERCS node): MPI_Comm_split_type(SHARED) and the\n"
"                        PERCS-aware all-to-all group ranks by N\n"
"      --privatize M     per-rank copies of the program's globals: auto\n"
"                        (default), copy, remap, or none for programs\n"
"                        that keep no per-rank state in globals\n"
"      --no-bind         do not bind each process to a core of its host\n"
"      --idle block|spin what a process does when none of its ranks can\n"
"                        run: poll Open MPI for 50 us, then sleep until a\n"
"                        message comes (block, the default: leaves the core\n"
"                        to others on a shared machine), or keep polling\n"
"                        (spin)\n"
"      --dry-run         print the environment and the mpirun command line\n"
"                        that would run, and run nothing\n"
"      --corrections     after the summary line, list the code regions\n"
"                        whose SEBs had their duration corrected, the 10\n"
"                        with the most corrected time first\n"
"  -q, --quiet           print nothing on success\n"
"  -h, --help            print this help and exit\n"
"\n"
"Every other argument before '--' goes to mpirun unchanged and in order,\n"
"e.g. --hostfile FILE, -H host1,host2, --map-by node, --mca btl self,tcp.\n"
"sibyl emulate adds to mpirun's command line: -np P; --allow-run-as-root\n"
"when run as root; --oversubscribe when P exceeds the cores of this host\n"
"and no host, hostfile or batch allocation says where to run; and -x NAME\n"
"for each SIBYL_* variable, so that remote processes get it too.\n"
"\n"
"The environment of the emulating processes is below.\n";

/* After the generated Environment section. */
static const char emulate_usage_tail[] =
"\n"
"APP also runs without this launcher, e.g. 'mpirun -np 2 ./app' or just\n"
"'./app': it then reads the variables above itself, emulates as many ranks\n"
"as it has processes unless SIBYL_RANKS says otherwise, and writes\n"
"./APP.trace directly (without the .partial safety).\n"
"\n"
"Exit status:\n"
"  0  the emulation succeeded and TRACE is complete\n"
"  1  the emulation failed (APP or mpirun exited non-zero, was killed, or\n"
"     left an incomplete trace); whatever was written stays in\n"
"     TRACE.partial for 'sibyl trace info' and 'sibyl sim'; the message\n"
"     says whether that trace is complete (APP exited non-zero after\n"
"     every rank finished, e.g. exit(3) after MPI_Finalize)\n"
"  2  usage error, TRACE is in the way, or mpirun cannot be run; nothing\n"
"     was run\n"
"A SIGINT, SIGTERM or SIGHUP is passed on to mpirun; when the run then\n"
"fails, sibyl emulate ends by that signal (status 128 + its number in a\n"
"shell), after the message, leaving TRACE.partial.\n"
"\n"
"Examples:\n"
"  sibylcc -O2 ring.c -o ring && sibyl emulate --ranks 1024 -np 2 -- ./ring\n"
"  sibyl emulate -r 64k -np 8 --hostfile hosts -o big.trace -- ./app -n 100\n"
"  sibyl emulate -r 4096 --cpu-factor 0.5 --force -- ./stencil 512\n"
"  sibyl emulate -r 256 -np 4 --dry-run -- ./ring\n";

/* Upper bound of V: ranks are C ints. */
#define MAX_RANKS 2147483647u

/* The name of setting ID of the runtime (emulator/emu_settings.h). */
#define SET(id) (emu_setting(EMU_S_##id)->name)

/* The Environment section of --help, from the contract's table. */
static void print_environment(FILE *f)
{
	char line[512];

	fputs("\nEnvironment (the runtime's settings, "
	      "emulator/emu_settings.h):\n", f);
	for (int i = 0; i < EMU_S_COUNT; i++) {
		const struct emu_setting *d = emu_setting((enum emu_set_id)i);
		int n = snprintf(line, sizeof line, "%s", d->doc);
		if (d->def && n < (int)sizeof line)
			n += snprintf(line + n, sizeof line - (size_t)n,
				      "; default %s", d->def);
		if (n < (int)sizeof line)
			snprintf(line + n, sizeof line - (size_t)n, "; %s%s",
				 d->role == EMU_SET_ALWAYS ? "always set" :
				 d->role == EMU_SET_OPTION ? "set by " :
				 "passed on as it is",
				 d->role == EMU_SET_OPTION ? d->option : "");
		fprintf(f, "  %s=%s\n", d->name, d->value);
		sib_wrap(f, line, 8, 76);
	}
	fputs("sibyl emulate sets the variables marked \"always set\", and the\n"
	      "others when their option is given; it removes those from mpirun's\n"
	      "environment otherwise, so that a run depends on its command line\n"
	      "only.  SIBYL_MPIRUN names the mpirun to use (default "
	      MPIRUN_PATH ").\n", f);
}

struct emu_opts {
	uint64_t ranks, procs;
	const char *trace;          /* as given, or the default */
	const char *window, *cpu_factor, *stack_size, *flop_rate, *clock;
	const char *post_min;
	const char *timing;
	const char *compression;
	const char *node_size, *privatize, *idle;
	char *coll;                 /* the --coll values, comma-joined */
	int force, no_bind, dry_run, quiet, corrections;
	char **pass;                /* mpirun's options, in order */
	int npass;
	char **app;                 /* APP and its arguments */
	int napp;
};

/* ------------------------------------------------------------- parsing */

/*
 * Our options.  They may be anywhere before "--" and are recognised only
 * by their exact names ("--name=VALUE" too for the long ones), never by
 * an abbreviation: every other word goes to mpirun.  -np has mpirun's
 * spellings, so that P is always ours.
 */
enum {
	O_RANKS, O_NP, O_OUTPUT, O_FORCE, O_WINDOW, O_CPU, O_STACK, O_POST,
	O_FLOPS,
	O_LEVEL, O_CLOCK, O_TIMING, O_COLL, O_NODE, O_PRIV,
	O_NOBIND, O_IDLE, O_DRY, O_QUIET, O_CORR, O_HELP
};

static const struct emu_option {
	const char *names[6];       /* NULL-terminated */
	int has_arg;
	int id;
} emu_options[] = {
	{ { "--ranks", "-r" }, 1, O_RANKS },
	{ { "-np", "-n", "--np", "--n", "-c" }, 1, O_NP },
	{ { "--output", "-o" }, 1, O_OUTPUT },
	{ { "--force", "-f" }, 0, O_FORCE },
	{ { "--window" }, 1, O_WINDOW },
	{ { "--cpu-factor" }, 1, O_CPU },
	{ { "--stack-size" }, 1, O_STACK },
	{ { "--post-points" }, 1, O_POST },
	{ { "--flop-rate" }, 1, O_FLOPS },
	{ { "--compression" }, 1, O_LEVEL },
	{ { "--clock" }, 1, O_CLOCK },
	{ { "--timing" }, 1, O_TIMING },
	{ { "--coll" }, 1, O_COLL },
	{ { "--node-size" }, 1, O_NODE },
	{ { "--privatize" }, 1, O_PRIV },
	{ { "--no-bind" }, 0, O_NOBIND },
	{ { "--idle" }, 1, O_IDLE },
	{ { "--dry-run" }, 0, O_DRY },
	{ { "--quiet", "-q" }, 0, O_QUIET },
	{ { "--corrections" }, 0, O_CORR },
	{ { "--help", "-h" }, 0, O_HELP },
	{ { NULL }, 0, 0 }
};

/*
 * The option argv[*i] names, or NULL.  An option's value comes from
 * "--name=VALUE" or the next word (*i then points at it); *val is NULL
 * when that word is missing.
 */
static const struct emu_option *find_option(int argc, char **argv, int *i,
					    const char **val)
{
	const struct emu_option *opt;
	const char *a = argv[*i];
	int k;

	*val = NULL;
	for (opt = emu_options; opt->names[0]; opt++) {
		for (k = 0; opt->names[k]; k++) {
			const char *name = opt->names[k];
			size_t n = strlen(name);

			if (strcmp(a, name) == 0) {
				if (opt->has_arg && *i + 1 < argc &&
				    strcmp(argv[*i + 1], "--") != 0)
					*val = argv[++*i];
				return opt;
			}
			if (opt->has_arg && name[1] == '-' &&
			    strncmp(a, name, n) == 0 && a[n] == '=') {
				*val = a + n + 1;
				return opt;
			}
		}
	}
	return NULL;
}

/* After a parser's message about an option's value. */
static int try_help(void)
{
	fprintf(stderr, "Try '%s --help'.\n", tool_name);
	return TOOL_EXIT_USAGE;
}

/* One --coll value: "C=A" items separated by commas, each a collective
 * and an algorithm name (letters, digits, '_').  Whether the names exist
 * is the runtime's to say (it lists the valid ones).  0 or an error. */
static int add_coll(struct emu_opts *o, const char *v)
{
	const char *p = v;
	size_t old = o->coll ? strlen(o->coll) : 0;
	char *n;

	for (;;) {
		size_t a = strspn(p, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (a == 0 || p[a] != '=')
			goto bad;
		p += a + 1;
		a = strspn(p, "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (a == 0)
			goto bad;
		p += a;
		if (*p == '\0')
			break;
		if (*p++ != ',')
			goto bad;
	}
	n = realloc(o->coll, old + strlen(v) + 2);
	if (!n) {
		tool_error("out of memory");
		return -1;
	}
	if (old)
		n[old++] = ',';
	strcpy(n + old, v);
	o->coll = n;
	return 0;
bad:
	tool_usage_error("--coll: '%s' is not COLLECTIVE=ALGORITHM[,...], "
			 "e.g. allreduce=ring,alltoall=percs", v);
	return -1;
}

/* Parse the command line into *o.  Returns -1 to go on, or an exit
 * status (0 after --help). */
static int parse_args(int argc, char **argv, struct emu_opts *o)
{
	const char *ranks = NULL, *procs = NULL;
	int i;

	o->pass = calloc((size_t)argc, sizeof(*o->pass));
	if (!o->pass) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	for (i = 1; i < argc; i++) {
		const struct emu_option *opt;
		const char *a = argv[i], *v;

		if (strcmp(a, "--") == 0) {
			o->app = argv + i + 1;
			o->napp = argc - i - 1;
			break;
		}
		opt = find_option(argc, argv, &i, &v);
		if (!opt) {
			o->pass[o->npass++] = argv[i];
			continue;
		}
		if (opt->has_arg && !v)
			return tool_usage_error("option '%s' needs a value", a);
		switch (opt->id) {
		case O_RANKS:  ranks = v; break;
		case O_NP:     procs = v; break;
		case O_OUTPUT: o->trace = v; break;
		case O_FORCE:  o->force = 1; break;
		case O_WINDOW: o->window = v; break;
		case O_CPU:    o->cpu_factor = v; break;
		case O_STACK:  o->stack_size = v; break;
		case O_POST:   o->post_min = v; break;
		case O_FLOPS:  o->flop_rate = v; break;
		case O_LEVEL:  o->compression = v; break;
		case O_CLOCK:  o->clock = v; break;
		case O_TIMING: o->timing = v; break;
		case O_COLL:
			if (add_coll(o, v))
				return TOOL_EXIT_USAGE;
			break;
		case O_NODE:   o->node_size = v; break;
		case O_PRIV:   o->privatize = v; break;
		case O_NOBIND: o->no_bind = 1; break;
		case O_IDLE:   o->idle = v; break;
		case O_DRY:    o->dry_run = 1; break;
		case O_QUIET:  o->quiet = 1; break;
		case O_CORR:   o->corrections = 1; break;
		case O_HELP:
			fputs(emulate_usage, stdout);
			print_environment(stdout);
			fputs(emulate_usage_tail, stdout);
			return 0;
		}
	}

	if (!o->app)
		return tool_usage_error("the application must follow '--', "
					"e.g. '%s --ranks 64 -- ./app ARGS'",
					tool_name);
	if (o->napp == 0)
		return tool_usage_error("no application after '--'");
	if (!o->app[0][0])
		return tool_usage_error("the application's name is empty");
	if (!ranks)
		return tool_usage_error("--ranks V is required: how many "
					"virtual ranks to emulate");
	if (tool_parse_u64("--ranks", ranks, &o->ranks))
		return try_help();
	if (o->ranks == 0 || o->ranks > MAX_RANKS)
		return tool_usage_error("--ranks: %s is out of range (1 to "
					"2147483647)", ranks);
	o->procs = 1;
	if (procs) {
		if (tool_parse_u64("-np", procs, &o->procs))
			return try_help();
		if (o->procs == 0)
			return tool_usage_error("-np: at least one process is "
						"needed");
	}
	if (o->procs > o->ranks)
		return tool_usage_error("-np %" PRIu64 " exceeds --ranks %"
					PRIu64 ": every process needs at least "
					"one virtual rank", o->procs, o->ranks);
	return -1;
}

/* The shortest "%g" form of v that reads back as v. */
static void shortest(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

/* A rate: a number with an optional k, M, G, T or P (powers of 1000). */
static int parse_rate(const char *what, const char *s, double *out)
{
	static const struct { char c; double m; } sfx[] = {
		{ 'k', 1e3 }, { 'K', 1e3 }, { 'M', 1e6 }, { 'G', 1e9 },
		{ 'T', 1e12 }, { 'P', 1e15 }
	};
	char *end;
	double v, m = 1;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end && !end[1]) {
		for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
			if (*end == sfx[i].c) {
				m = sfx[i].m;
				end++;
				break;
			}
	}
	if (end == s || *end) {
		tool_error("%s: '%s' is not a rate (e.g. 1e9, 2.5G, 500M)",
			   what, s);
		return -1;
	}
	v *= m;
	if (errno == ERANGE || !isfinite(v) || v <= 0 || v > 1e300) {
		tool_error("%s: '%s' must be a positive, finite rate", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------ the environment */

struct envvar {
	const char *name;
	char *value;
};

/* The variables of the run: at most one of each setting of the contract
 * (emulator/emu_settings.h). */
struct emu_env {
	struct envvar v[EMU_S_COUNT];
	int n;
};

static int env_add(struct emu_env *e, const char *name, const char *value)
{
	char *s = strdup(value);

	if (!s) {
		tool_error("out of memory");
		return -1;
	}
	e->v[e->n].name = name;
	e->v[e->n].value = s;
	e->n++;
	return 0;
}

static void env_free(struct emu_env *e)
{
	int i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].value);
	e->n = 0;
}

/*
 * Add setting id from the value s of its option (nothing when s is NULL):
 * an integer read by parse (tool_parse_u64 or tool_parse_size) within
 * the setting's range, else "OPT: S <range>".  Returns 0, or an exit
 * status after a message.
 */
static int env_add_uint(struct emu_env *e, enum emu_set_id id, const char *s,
			int (*parse)(const char *, const char *, uint64_t *),
			const char *range)
{
	const struct emu_setting *d = emu_setting(id);
	char buf[24];
	uint64_t u;

	if (!s)
		return 0;
	if (parse(d->option, s, &u))
		return try_help();
	if ((double)u < d->lo || (double)u > d->hi)
		return tool_usage_error("%s: %s %s", d->option, s, range);
	snprintf(buf, sizeof(buf), "%" PRIu64, u);
	return env_add(e, d->name, buf) ? TOOL_EXIT_USAGE : 0;
}

/* s is one of the words of CHOICE setting id. */
#define ALLOWS(id, s) emu_setting_allows(emu_setting(EMU_S_##id), (s))

/* The SIBYL_* variables of the run, from the options.  Returns 0, or an
 * exit status after a message. */
static int build_env(const struct emu_opts *o, const char *partial_abs,
		     struct emu_env *e)
{
	char buf[64];
	char *cmdline;
	double d;
	int rc;

	snprintf(buf, sizeof(buf), "%" PRIu64, o->ranks);
	if (env_add(e, SET(RANKS), buf) ||
	    env_add(e, SET(TRACE), partial_abs))
		return TOOL_EXIT_USAGE;
	rc = env_add_uint(e, EMU_S_WINDOW, o->window, tool_parse_u64,
			  "is out of range (1 to 4294967295 SEBs)");
	if (rc)
		return rc;
	rc = env_add_uint(e, EMU_S_COMPRESSION, o->compression, tool_parse_u64,
			  "is not a zlib level 0..9");
	if (rc)
		return rc;
	if (o->timing) {
		if (!ALLOWS(TIMING, o->timing))
			return tool_usage_error("--timing: '%s' is neither "
						"'corrected' nor 'raw'",
						o->timing);
		if (env_add(e, SET(TIMING), o->timing))
			return TOOL_EXIT_USAGE;
	}
	/* Corrected timing: every symbol bound when the program is loaded.
	 * Lazy binding resolves a function at its first call in each
	 * process, 2 us a symbol (tens under ASan), inside the SEB of the
	 * first rank that calls it (docs/emulator.md "Measured compute"). */
	if ((!o->timing || strcmp(o->timing, "raw")) &&
	    env_add(e, "LD_BIND_NOW", "1"))
		return TOOL_EXIT_USAGE;
	if (o->clock) {
		if (!ALLOWS(CLOCK, o->clock))
			return tool_usage_error("--clock: '%s' is neither "
						"'cpu' nor 'wall'", o->clock);
		if (!o->timing || strcmp(o->timing, "raw"))
			return tool_usage_error("--clock %s: the clock is "
						"chosen with --timing raw; "
						"corrected timing reads both",
						o->clock);
		if (env_add(e, SET(CLOCK), o->clock))
			return TOOL_EXIT_USAGE;
	}
	if (o->cpu_factor) {
		if (tool_parse_double("--cpu-factor", o->cpu_factor, &d))
			return try_help();
		if (d < 0 || d > 1e300)
			return tool_usage_error("--cpu-factor: %s must be "
						"0 or more (1 keeps the "
						"measured times, 0 keeps "
						"declared compute only)",
						o->cpu_factor);
		shortest(buf, sizeof(buf), d);
		if (env_add(e, SET(CPU_FACTOR), buf))
			return TOOL_EXIT_USAGE;
	}
	rc = env_add_uint(e, EMU_S_STACK_SIZE, o->stack_size, tool_parse_size,
			  "is out of range (16KiB to 16GiB)");
	if (!rc)
		rc = env_add_uint(e, EMU_S_POST_MIN, o->post_min,
				  tool_parse_size, "is out of range");
	if (rc)
		return rc;
	if (o->flop_rate) {
		if (parse_rate("--flop-rate", o->flop_rate, &d))
			return try_help();
		shortest(buf, sizeof(buf), d);
		if (env_add(e, SET(FLOP_RATE), buf))
			return TOOL_EXIT_USAGE;
	}
	if (o->coll && env_add(e, SET(COLL), o->coll))
		return TOOL_EXIT_USAGE;
	rc = env_add_uint(e, EMU_S_NODE_SIZE, o->node_size, tool_parse_u64,
			  "is out of range (1 to 2147483647 ranks)");
	if (rc)
		return rc;
	if (o->privatize) {
		if (!ALLOWS(PRIVATIZE, o->privatize))
			return tool_usage_error("--privatize: '%s' is not one "
						"of auto, copy, remap, none",
						o->privatize);
		if (env_add(e, SET(PRIVATIZE), o->privatize))
			return TOOL_EXIT_USAGE;
	}
	if (o->no_bind && env_add(e, SET(BIND), "none"))
		return TOOL_EXIT_USAGE;
	if (o->idle) {
		if (!ALLOWS(IDLE, o->idle))
			return tool_usage_error("--idle: '%s' is neither "
						"'block' nor 'spin'", o->idle);
		if (env_add(e, SET(IDLE), o->idle))
			return TOOL_EXIT_USAGE;
	}
	/* The summary is ours to print, not each run's. */
	if (env_add(e, SET(QUIET), "1"))
		return TOOL_EXIT_USAGE;
	cmdline = tool_join_quoted(o->app, o->napp);
	if (!cmdline) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	rc = env_add(e, SET(CMDLINE), cmdline) ? TOOL_EXIT_USAGE : 0;
	free(cmdline);
	return rc;
}

/* ------------------------------------------------------ mpirun's options */

/* Was one of the options `names' passed to mpirun (alone or as
 * NAME=VALUE)? */
static int passed(const struct emu_opts *o, const char *const *names)
{
	int i, k;

	for (i = 0; i < o->npass; i++)
		for (k = 0; names[k]; k++) {
			size_t n = strlen(names[k]);

			if (strncmp(o->pass[i], names[k], n) == 0 &&
			    (o->pass[i][n] == '\0' || o->pass[i][n] == '='))
				return 1;
		}
	return 0;
}

/* Does any passed option mention `word' (case-insensitive)? */
static int passed_word(const struct emu_opts *o, const char *word)
{
	int i;

	for (i = 0; i < o->npass; i++)
		if (strcasestr(o->pass[i], word))
			return 1;
	return 0;
}

/* One number from a sysfs file of CPU `cpu', or -1. */
static long cpu_topology(int cpu, const char *what)
{
	char path[96];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Cores of this host that this process may run on: distinct (package,
 * core) pairs among the CPUs of its affinity mask, since Open MPI counts
 * cores, not hardware threads, when it decides whether P processes fit.
 * Without the topology in sysfs: the CPUs it may run on.
 */
static long host_cores(void)
{
	static long core[CPU_SETSIZE][2];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int cpu, n = 0, i;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return cpus > 0 ? cpus : 1;
	if (cpus < 1 || CPU_COUNT(&set) < cpus)
		cpus = CPU_COUNT(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		long pkg, id;

		if (!CPU_ISSET(cpu, &set))
			continue;
		pkg = cpu_topology(cpu, "physical_package_id");
		id = cpu_topology(cpu, "core_id");
		if (pkg < 0 || id < 0)
			return cpus;
		for (i = 0; i < n; i++)
			if (core[i][0] == pkg && core[i][1] == id)
				break;
		if (i == n) {
			core[n][0] = pkg;
			core[n][1] = id;
			n++;
		}
	}
	return n > 0 && n < cpus ? n : cpus;
}

/* mpirun's argv (NULL-terminated); the strings belong to o and e, except
 * np_buf.  NULL when out of memory. */
static char **build_argv(const struct emu_opts *o, const struct emu_env *e,
			 const char *mpirun, char *np_buf, size_t np_len)
{
	static const char *const root_opts[] = {
		"--allow-run-as-root", "-allow-run-as-root", NULL
	};
	static const char *const host_opts[] = {
		"-H", "--host", "-host", "--hostfile", "-hostfile",
		"--machinefile", "-machinefile", "--default-hostfile",
		"-default-hostfile", "-rf", "--rankfile", "-rankfile", NULL
	};
	static const char *const batch_vars[] = {
		"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "PE_HOSTFILE",
		"FLUX_JOB_ID", NULL
	};
	static char np_opt[] = "-np", root_opt[] = "--allow-run-as-root",
		    over_opt[] = "--oversubscribe", x_opt[] = "-x",
		    dashes[] = "--";
	/* mpirun -np P [root] [oversubscribe] -x... PASS... -- APP... NULL */
	size_t n = 0, cap = (size_t)(5 + 2 * e->n + o->npass + 1 + o->napp +
				     1);
	char **av = calloc(cap, sizeof(*av));
	int i, batch = 0;

	if (!av)
		return NULL;
	for (i = 0; batch_vars[i]; i++)
		if (getenv(batch_vars[i]))
			batch = 1;
	snprintf(np_buf, np_len, "%" PRIu64, o->procs);
	av[n++] = (char *)mpirun;
	av[n++] = np_opt;
	av[n++] = np_buf;
	if (geteuid() == 0 && !passed(o, root_opts))
		av[n++] = root_opt;
	if ((long)o->procs > host_cores() && !passed_word(o, "oversubscribe") &&
	    !passed(o, host_opts) && !batch)
		av[n++] = over_opt;
	for (i = 0; i < e->n; i++) {
		av[n++] = x_opt;
		av[n++] = (char *)e->v[i].name;
	}
	for (i = 0; i < o->npass; i++)
		av[n++] = o->pass[i];
	av[n++] = dashes;
	for (i = 0; i < o->napp; i++)
		av[n++] = o->app[i];
	av[n] = NULL;
	return av;
}

/* --dry-run: the assignments and the command, as a shell would take them. */
static void print_command(const struct emu_env *e, char **av)
{
	struct tool_sbuf b = { NULL, 0, 0, 0 };
	int i;

	for (i = 0; i < e->n; i++) {
		tool_sb_puts(&b, e->v[i].name);
		tool_sb_add(&b, "=", 1);
		tool_sb_quote(&b, e->v[i].value);
		tool_sb_puts(&b, " \\\n");
	}
	for (i = 0; av[i]; i++) {
		if (i)
			tool_sb_add(&b, " ", 1);
		tool_sb_quote(&b, av[i]);
	}
	if (b.oom) {
		tool_error("out of memory");
	} else {
		fputs(b.s, stdout);
		putchar('\n');
	}
	free(b.s);
}

/* --------------------------------------------------------- trace files */

/*
 * May the run write TRACE and TRACE.partial?  An existing TRACE needs
 * --force and must be a trace directory (tool_out_check); a TRACE.partial
 * left over from an earlier run is removed (unless dry), but only when it
 * holds nothing but trace files.  Returns 0 or an exit status after a
 * message.
 */
static int check_outputs(const struct emu_opts *o, const char *trace,
			 const char *partial)
{
	struct stat st;
	char *stranger = NULL;
	int r;

	const char *inputs[] = { o->app[0], NULL };

	/* The rule every command that writes a directory follows. */
	if ((r = tool_out_check(trace, TOOL_OUT_TRACE, tool_name, o->force,
				inputs)))
		return r;

	if (lstat(partial, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		tool_error("cannot write %s: %s", partial, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	r = S_ISDIR(st.st_mode) ? tool_only_trace_files(partial, &stranger)
				: 0;
	if (r < 0) {
		tool_error("cannot read %s: %s", partial, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	if (r == 0) {
		/* Not a trace left over from an earlier run: not ours. */
		if (stranger)
			tool_error("%s is in the way: the run writes its "
				   "trace there, and it holds '%s', which is "
				   "not part of a trace; remove it or choose "
				   "another -o", partial, stranger);
		else
			tool_error("%s is in the way: the run writes its "
				   "trace there, and it is not a directory; "
				   "remove it or choose another -o", partial);
		free(stranger);
		return TOOL_EXIT_USAGE;
	}
	if (!o->dry_run && tool_remove_trace_dir(partial, 1) != 0) {
		tool_error("cannot remove %s, left over from an earlier run: "
			   "%s", partial, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

/* ------------------------------------------------------------- running */

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;

/*
 * Pass SIGINT/SIGTERM/SIGHUP on to mpirun, which forwards them to the
 * processes.  A signal from the terminal reached mpirun already (it is in
 * our process group): sending it again would make mpirun abort abruptly.
 */
static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	got_signal = sig;
#ifdef SI_KERNEL
	if (si && si->si_code == SI_KERNEL)
		return;
#endif
	if (child_pid > 0)
		kill(child_pid, sig);
}

/*
 * Run av and wait for it.  Returns 0 with its wait status in *status, or
 * -1 when it could not be started (after a message).
 */
static int run_mpirun(char **av, int *status)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	sigset_t block, saved;
	int pfd[2], err = 0, rc = 0;
	size_t i;
	ssize_t got;
	pid_t pid;

	if (pipe(pfd) != 0) {
		tool_error("cannot start mpirun: %s", strerror(errno));
		return -1;
	}
	fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
	fcntl(pfd[1], F_SETFD, FD_CLOEXEC);

	/* A signal ignored on entry (nohup, a background job of a script)
	 * stays ignored, by us and by mpirun. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < 3; i++) {
		sigaction(sigs[i], NULL, &old[i]);
		if (old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&block, sigs[i]);
	}
	got_signal = 0;
	sigprocmask(SIG_BLOCK, &block, &saved);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 3; i++)
			sigaction(sigs[i], &old[i], NULL);
		sigprocmask(SIG_SETMASK, &saved, NULL);
		close(pfd[0]);
		execvp(av[0], av);
		err = errno;
		got = write(pfd[1], &err, sizeof(err));
		(void)got;
		_exit(127);
	}
	if (pid > 0)
		child_pid = pid;
	else
		err = errno;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	close(pfd[1]);
	if (pid < 0) {
		tool_error("cannot start mpirun: %s", strerror(err));
		rc = -1;
		goto out;
	}

	/* The pipe closes on a successful exec; an int means it failed. */
	do
		got = read(pfd[0], &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR) {
			tool_error("waiting for mpirun: %s", strerror(errno));
			rc = -1;
			break;
		}
	}
	if (got == (ssize_t)sizeof(err)) {
		tool_error("cannot run '%s': %s; set SIBYL_MPIRUN to Open "
			   "MPI's mpirun", av[0], strerror(err));
		rc = -1;
	}
out:
	child_pid = 0;
	close(pfd[0]);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return rc;
}

/* ---------------------------------------------------------- the result */

struct emu_result {
	uint32_t npes, nprocs;
	sibt_totals tot;
	uint64_t msg_bytes;
	rg_table rg;            /* corrections per code region */
};

/*
 * Is the trace in `dir' complete: readable, every data file finished
 * (closed by its writer), the expected ranks and processes, every window
 * intact?  Returns 0 and fills *res, or -1 with the reason in why.
 */
static int verify_trace(const char *dir, const struct emu_opts *o,
			struct emu_result *res, char *why, size_t len)
{
	sibt_trace *t = NULL;
	sibt_window *win = NULL;
	char err[512] = "";
	uint32_t pe, i;
	uint64_t w, nw;
	int rc;

	/* No recovery scan: an incomplete file is all we need to know. */
	rc = sibt_trace_open(&t, dir, SIBT_OPEN_NO_SCAN, err, sizeof(err));
	if (rc < 0 || !t) {
		snprintf(why, len, "it cannot be read: %s",
			 err[0] ? err : sibt_strerror(rc));
		return -1;
	}
	if (rc == SIBT_WARN || sibt_trace_damage_count(t)) {
		const sibt_damage *d = sibt_trace_damage_count(t) ?
				       sibt_trace_damage(t, 0) : NULL;
		size_t n = sibt_trace_damage_count(t);

		snprintf(why, len, "%zu data file%s %s not complete%s%s", n,
			 n == 1 ? "" : "s", n == 1 ? "is" : "are",
			 d && d->detail ? ": " : "",
			 d && d->detail ? d->detail : "");
		goto fail;
	}
	res->npes = sibt_trace_npes(t);
	res->nprocs = sibt_trace_nprocs(t);
	if (res->npes != o->ranks || res->nprocs != o->procs) {
		snprintf(why, len, "it holds %" PRIu32 " rank%s from %" PRIu32
			 " process%s, not %" PRIu64 " from %" PRIu64,
			 res->npes, res->npes == 1 ? "" : "s", res->nprocs,
			 res->nprocs == 1 ? "" : "es", o->ranks, o->procs);
		goto fail;
	}
	sibt_trace_totals(t, &res->tot);

	/* Decode every window: checks each CRC and adds up the payload
	 * and the corrections. */
	res->msg_bytes = 0;
	rg_free(&res->rg);
	rg_init(&res->rg, 0, 0);
	if (!(win = sibt_window_new())) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	for (pe = 0; pe < res->npes; pe++) {
		nw = sibt_trace_nwindows(t, pe);
		for (w = 0; w < nw; w++) {
			rc = sibt_trace_read_window(t, pe, w, win);
			if (rc < 0) {
				snprintf(why, len, "window %" PRIu64 " of rank "
					 "%" PRIu32 " is unreadable: %s", w, pe,
					 sibt_trace_errmsg(t));
				goto fail;
			}
			for (i = 0; i < sibt_window_nsebs(win); i++) {
				const sibt_seb *s = sibt_window_seb(win, i);
				uint32_t k;

				for (k = 0; k < s->nsends; k++)
					res->msg_bytes += s->sends[k].size;
				if (rg_add(&res->rg, s) < 0) {
					snprintf(why, len, "out of memory");
					goto fail;
				}
			}
		}
	}
	sibt_window_free(win);
	sibt_trace_close(t);
	return 0;
fail:
	sibt_window_free(win);
	sibt_trace_close(t);
	return -1;
}

/* Put the complete trace `partial' at `trace', replacing an old trace
 * there only now (checked again), as every command does. */
static int publish(const struct emu_opts *o, char *partial, const char *trace)
{
	const char *inputs[] = { o->app[0], NULL };
	tool_out out = {
		.path = trace, .kind = TOOL_OUT_TRACE, .writer = tool_name,
		.force = o->force, .inputs = inputs, .stage = partial,
		.handle = -1,
	};

	if (tool_out_commit(&out) == 0)
		return 0;
	tool_error("the new trace stays in %s", partial);
	return -1;
}

static void fmt_seconds(char *buf, size_t len, double s)
{
	long t = (long)(s + 0.5);

	if (s < 60)
		snprintf(buf, len, "%.2f s", s);
	else if (t < 3600)
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
}

/* The code regions with the most corrected time, one line each. */
#define MAX_CORR_REGIONS 10
static void print_corrections(const rg_table *rg)
{
	rg_stat **v = rg_sorted(rg, RG_BY_CORRECTED);
	uint32_t i, n = 0;

	for (i = 0; i < rg->n; i++)
		n += rg->r[i].ncorr != 0;
	fprintf(stderr, "%s: %" PRIu32 " of %" PRIu32 " code region%s had "
		"SEBs corrected%s\n", tool_name, n, rg->n,
		rg->n == 1 ? "" : "s", n > MAX_CORR_REGIONS ? "; the 10 "
		"with the most corrected time:" : n ? ":" : "");
	for (i = 0; v && i < n && i < MAX_CORR_REGIONS; i++) {
		char t[48], c[32], k[32];

		fprintf(stderr, "  %12s in %s of %s SEBs  ",
			rg_fmt_ps(t, sizeof(t), v[i]->corr_time),
			tool_fmt_count(c, sizeof(c), v[i]->ncorr),
			tool_fmt_count(k, sizeof(k), v[i]->count));
		if (v[i]->region[0])
			tool_print_text(stderr, v[i]->region);
		else
			fputs("(no region)", stderr);
		fputc('\n', stderr);
	}
	free(v);
}

static void print_summary(const struct emu_result *r, double seconds,
			  const char *trace, const struct emu_opts *o)
{
	char ranks[32], procs[32], wall[32], sebs[32], msgs[32], mbytes[32];
	char tbytes[32], corr[200] = "";

	tool_fmt_count(ranks, sizeof(ranks), r->npes);
	tool_fmt_count(procs, sizeof(procs), r->nprocs);
	fmt_seconds(wall, sizeof(wall), seconds);
	tool_fmt_count(sebs, sizeof(sebs), r->tot.sebs);
	tool_fmt_count(msgs, sizeof(msgs), r->tot.sends);
	tool_fmt_bytes(mbytes, sizeof(mbytes), (double)r->msg_bytes);
	tool_fmt_bytes(tbytes, sizeof(tbytes),
		  (double)(r->tot.file_bytes + r->tot.manifest_bytes));
	/* Corrections: whenever there are some, and when the timing
	 * corrects and the trace has code regions (that is, was written
	 * by a runtime that corrects). */
	if (r->rg.corr_sebs[0] || (r->rg.with_region &&
	    (!o->timing || strcmp(o->timing, "raw")))) {
		corr[0] = ',';
		corr[1] = ' ';
		rg_corrected_summary(corr + 2, sizeof(corr) - 2, &r->rg);
	}
	fflush(stdout);
	fprintf(stderr, "%s: %s rank%s on %s process%s in %s: %s SEBs, %s "
		"messages (%s)%s, trace %s -> %s\n", tool_name, ranks,
		r->npes == 1 ? "" : "s", procs, r->nprocs == 1 ? "" : "es",
		wall, sebs, msgs, mbytes, corr, tbytes, trace);
	if (o->corrections)
		print_corrections(&r->rg);
}

/*
 * The failure report: what mpirun did (or `why', when mpirun exited 0) and
 * what is left where.  (Whether a failed run's trace happens to be
 * complete is not checked: opening a cut-off trace scans all of it.)
 */
static void report_failure(int status, const char *why, const char *partial)
{
	char how[160] = "", sig[64] = "";
	struct stat st;
	int left = lstat(partial, &st) == 0;
	const char *what = left ? "; the incomplete trace is left in " :
			   "; no trace was written";

	if (got_signal)
		snprintf(sig, sizeof(sig), " after %s",
			 strsignal(got_signal));
	if (why) {
		tool_error("emulation failed: %s%s%s%s", why, sig, what,
			   left ? partial : "");
		return;
	}
	if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "mpirun killed by signal %d, %s",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(how, sizeof(how), "mpirun exited %d",
			 WEXITSTATUS(status));
	tool_error("emulation failed (%s%s)%s%s", how, sig, what,
		   left ? partial : "");
}

/* The kernel's count of processes its out-of-memory killer killed
 * (/proc/vmstat oom_kill, Linux 4.13 on), or -1. */
static long oom_kills(void)
{
	FILE *f = fopen("/proc/vmstat", "r");
	char line[128];
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "oom_kill %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static long oom_before = -1;

/*
 * When a process of the emulation died of a signal (mpirun's status
 * 128 + N, or mpirun itself killed): the processes whose state file
 * (emulator/diag.c) in `partial' still says "running" were killed
 * without warning; name each with its ranks, and the probable cause.
 * Returns how many it named.
 */
static int report_killed(int status, const char *partial)
{
	int sig = WIFSIGNALED(status) ? WTERMSIG(status) :
		  WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
		  WEXITSTATUS(status) < 128 + 65 ? WEXITSTATUS(status) - 128 :
		  0;
	char me[256] = "", path[4096], line[1024];
	struct dirent *de;
	DIR *d;
	int named = 0;
	long oom = oom_kills();

	if (!sig || !(d = opendir(partial)))
		return 0;
	gethostname(me, sizeof me - 1);
	while ((de = readdir(d))) {
		long pid = 0;
		unsigned first = 0, count = 0;
		int proc = -1;
		char host[256] = "", state[64] = "", where[320] = "";
		FILE *f;

		if (fnmatch("proc-*.state", de->d_name, 0))
			continue;
		snprintf(path, sizeof path, "%s/%s", partial, de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(line, sizeof line, f) ||
		    sscanf(line, "pid=%ld host=%255s process=%d first=%u "
			   "count=%u state=%63s", &pid, host, &proc, &first,
			   &count, state) != 6 || strcmp(state, "running")) {
			fclose(f);
			continue;
		}
		fclose(f);
		/* On this host, a process still alive was not killed. */
		if (!strcmp(host, me) && pid > 0 && kill((pid_t)pid, 0) == 0)
			continue;
		if (strcmp(host, me))
			snprintf(where, sizeof where, " on %s", host);
		tool_error("emulating process %d (virtual ranks %u to %u%s, "
			   "pid %ld) was killed by signal %d (%s) without a "
			   "chance to say so", proc, first,
			   count ? first + count - 1 : first, where, pid, sig,
			   strsignal(sig));
		named++;
	}
	closedir(d);
	if (!named)
		return 0;
	if (sig == SIGKILL && oom_before >= 0 && oom > oom_before)
		tool_error("probable cause: the kernel's out-of-memory killer "
			   "(it killed %ld process%s during the run): the "
			   "emulation needed more memory than the host had; "
			   "give it more processes or hosts (-np, --hostfile), "
			   "fewer ranks, or a smaller --stack-size",
			   oom - oom_before, oom - oom_before == 1 ? "" : "es");
	else if (sig == SIGKILL)
		tool_error("probable cause: a SIGKILL from outside: a batch "
			   "system's time or memory limit, or kill -9 (the "
			   "kernel's out-of-memory killer %s)", oom < 0 ?
			   "cannot be checked here: no /proc/vmstat oom_kill" :
			   "killed nothing on this host during the run");
	return named;
}

/* A name the emulator cannot write: an archive (bundle) name. */
static int bundle_name(const char *path)
{
	static const char *const ext[] = {
		".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".tar.zst"
	};
	size_t n = strlen(path), i;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t e = strlen(ext[i]);

		if (n > e && strcmp(path + n - e, ext[i]) == 0)
			return 1;
	}
	return 0;
}

/*
 * TRACE (as given without trailing slashes, or ./APP.trace), TRACE.partial
 * and the absolute path of the latter -- absolute so that processes
 * started in another directory (mpirun --wdir, other hosts) write to the
 * same place.  Returns 0, or an exit status after a message; the caller
 * frees the strings either way.
 */
static int trace_paths(const struct emu_opts *o, char **trace,
		       char **partial, char **partial_abs)
{
	const char *rel;
	char *cwd, *dir, *s;
	struct stat st;
	size_t len;

	if (!o->trace) {
		const char *slash = strrchr(o->app[0], '/');
		char *tmp;

		if (slash && !slash[1])
			return tool_usage_error("%s names a directory, not a "
						"program", o->app[0]);
		tmp = tool_concat("./", slash ? slash + 1 : o->app[0]);
		*trace = tmp ? tool_concat(tmp, ".trace") : NULL;
		free(tmp);
	} else {
		*trace = strdup(o->trace);
	}
	if (!*trace)
		goto nomem;
	len = strlen(*trace);
	while (len > 1 && (*trace)[len - 1] == '/')
		(*trace)[--len] = '\0';
	if (!len)
		return tool_usage_error("-o: the trace path is empty");
	if (!strcmp(*trace, "/") || !strcmp(*trace, ".") ||
	    !strcmp(*trace, ".."))
		return tool_usage_error("-o %s: name a new directory for the "
					"trace", *trace);
	if (bundle_name(*trace))
		return tool_usage_error("%s: the emulator writes a trace "
					"directory; pack it afterwards with "
					"'sibyl trace pack'", *trace);

	/* The directory it goes in must exist. */
	if (!(dir = strdup(*trace)))
		goto nomem;
	if ((s = strrchr(dir, '/'))) {
		*(s == dir ? s + 1 : s) = '\0';
		errno = 0;
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			tool_error("cannot write %s: %s is not a directory%s",
				   *trace, dir, errno == ENOENT ?
				   " (create it first)" : "");
			free(dir);
			return TOOL_EXIT_USAGE;
		}
	}
	free(dir);

	if (!(*partial = tool_concat(*trace, ".partial")))
		goto nomem;
	if ((*partial)[0] == '/') {
		*partial_abs = strdup(*partial);
	} else {
		if (!(cwd = getcwd(NULL, 0))) {
			tool_error("cannot get the current directory: %s",
				   strerror(errno));
			return TOOL_EXIT_USAGE;
		}
		for (rel = *partial; rel[0] == '.' && rel[1] == '/';)
			for (rel += 2; *rel == '/'; rel++)
				;
		s = tool_concat(cwd, strcmp(cwd, "/") ? "/" : "");
		*partial_abs = s ? tool_concat(s, rel) : NULL;
		free(s);
		free(cwd);
	}
	if (!*partial_abs)
		goto nomem;
	return 0;
nomem:
	tool_error("out of memory");
	return TOOL_EXIT_USAGE;
}

/* --------------------------------------------------------------- main */

int tool_cmd_emulate(int argc, char **argv)
{
	struct emu_opts o;
	struct emu_env env = { .n = 0 };
	struct emu_result res;
	char *trace = NULL, *partial = NULL, *partial_abs = NULL;
	char **av = NULL, np_buf[32], why[1024];
	const char *mpirun;
	double t0, seconds;
	int rc, status = 0, i;

	memset(&o, 0, sizeof(o));
	memset(&res, 0, sizeof(res));
	rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		goto out;
	if ((rc = trace_paths(&o, &trace, &partial, &partial_abs)) != 0)
		goto out;
	if ((rc = build_env(&o, partial_abs, &env)) != 0 ||
	    (rc = check_outputs(&o, trace, partial)) != 0)
		goto out;
	rc = TOOL_EXIT_USAGE;

	mpirun = getenv("SIBYL_MPIRUN");
	if (!mpirun || !*mpirun)
		mpirun = MPIRUN_PATH;
	av = build_argv(&o, &env, mpirun, np_buf, sizeof(np_buf));
	if (!av)
		goto nomem;
	if (o.dry_run) {
		print_command(&env, av);
		rc = 0;
		goto out;
	}

	/* A run depends on its command line only: the settings that an
	 * option sets are cleared unless it was given (build_env sets them
	 * again); the debugging ones pass through. */
	for (i = 0; i < EMU_S_COUNT; i++)
		if (emu_setting((enum emu_set_id)i)->role == EMU_SET_OPTION)
			unsetenv(emu_setting((enum emu_set_id)i)->name);
	for (i = 0; i < env.n; i++)
		if (setenv(env.v[i].name, env.v[i].value, 1) != 0) {
			tool_error("cannot set %s: %s", env.v[i].name,
				   strerror(errno));
			goto out;
		}

	t0 = sib_now_seconds();
	oom_before = oom_kills();
	if (run_mpirun(av, &status) != 0)
		goto out;
	seconds = sib_now_seconds() - t0;

	rc = TOOL_EXIT_PROBLEMS;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
	    access(partial, F_OK) == 0 &&
	    verify_trace(partial, &o, &res, why, sizeof(why)) == 0) {
		/* Every process closed its data file: APP chose its status
		 * after MPI_Finalize (exit(3)), or the runtime found the
		 * program erroneous (leaked requests) and said so.  The
		 * trace is complete, and is called that; it stays in
		 * TRACE.partial, as a failed run's does. */
		tool_error("%s exited with status %d after every rank "
			   "finished; the trace is complete and stays in %s "
			   "('sibyl trace info' and 'sibyl sim' read it; "
			   "rename it to %s to keep it)", o.app[0],
			   WEXITSTATUS(status), partial, trace);
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		report_killed(status, partial);
		report_failure(status, NULL, partial);
		goto out;
	}
	if (access(partial, F_OK) != 0) {
		snprintf(why, sizeof(why), "mpirun exited 0 but no trace was "
			 "written to %s: was %s built with sibylcc?", partial,
			 o.app[0]);
		report_failure(status, why, partial);
		goto out;
	}
	if (verify_trace(partial, &o, &res, why, sizeof(why)) != 0) {
		char msg[1200];

		snprintf(msg, sizeof(msg), "mpirun exited 0, but the trace is "
			 "not complete (%s)", why);
		report_failure(status, msg, partial);
		goto out;
	}
	if (publish(&o, partial, trace) != 0)
		goto out;
	if (!o.quiet)
		print_summary(&res, seconds, trace, &o);
	rc = 0;
	goto out;

nomem:
	tool_error("out of memory");
	rc = TOOL_EXIT_USAGE;
out:
	free(av);
	env_free(&env);
	free(partial_abs);
	free(partial);
	free(trace);
	free(o.pass);
	free(o.coll);
	rg_free(&res.rg);
	/* A run the signal ended ends us the conventional way, once the
	 * failure is reported (the incomplete trace stays, as said). */
	if (rc != 0 && got_signal)
		tool_exit_signal(got_signal);
	return rc;
}
