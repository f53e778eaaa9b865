/*
 * sim.c -- `sibyl sim': replay a trace on a model of the target machine
 * (fastsim) and predict its run time.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "tools.h"

static const char sim_usage[] =
"Usage: sibyl sim [OPTIONS] TRACE\n"
"\n"
"Replay the trace TRACE (a trace directory or a bundle) on a model of the\n"
"target machine and predict how long the application runs there.  Each\n"
"rank runs its SEBs in order; an SEB starts when the rank is free and\n"
"every message it awaits has arrived; messages leave at their offset in\n"
"the sending SEB and travel through the intra-node copy model or the\n"
"network model (fastsim/SEMANTICS.md gives the exact rules).\n"
"\n"
"The machine is described by config files and --set overrides\n"
"(docs/machine.md; --list-keys prints every key with its default).\n"
"\n"
"Machine:\n"
"  -c, --config FILE     read a machine description (repeatable; later\n"
"                        files override earlier ones)\n"
"  -s, --set KEY=VALUE   override one key, e.g. --set net.latency=1us,\n"
"                        --set machine.cores_per_node=32 (repeatable)\n"
"      --cpu-factor F    multiply every SEB duration by F (the same as\n"
"                        --set cpu.factor=F), e.g. 0.5 for a CPU twice\n"
"                        as fast\n"
"      --map FILE        place the ranks as the mapping file FILE says\n"
"                        (the same as --set machine.map=FILE; write one\n"
"                        with 'sibyl map', see docs/mapping.md)\n"
"\n"
"OS noise (docs/noise.md):\n"
"      --noise DIR       inject the noise set DIR: per-core periodic\n"
"                        patterns or captured detours (the same as\n"
"                        --set noise.dir=DIR)\n"
"      --noise-seed N    seed of the per-node offsets of captured noise\n"
"                        (default: sim.seed; noise.seed)\n"
"      --noise-scale F   multiply every detour by F, an exact ratio\n"
"                        (0.5, 3/4; 0 turns noise off; noise.scale)\n"
"      --noise-cosched   captured noise: the same offset on every node\n"
"                        (co-scheduled noise; noise.cosched=yes)\n"
"\n"
"Variability (docs/variability.md; off by default):\n"
"      --variability PROFILE\n"
"                        draw SEB durations per code region or SEB name\n"
"                        from PROFILE (written by 'sibyl trace profile';\n"
"                        the same as --set variability.profile=PROFILE);\n"
"                        more models are [variability] keys: temporal,\n"
"                        spatial, spatial_file, network\n"
"      --variability-seed N\n"
"                        seed of every draw (default: sim.seed;\n"
"                        variability.seed); the same seed gives the same\n"
"                        result\n"
"\n"
"      --list-keys[=FMT] print every configuration key and network model\n"
"                        with its default, and exit; FMT is text (the\n"
"                        default) or markdown (the tables of\n"
"                        docs/config-reference.md)\n"
"\n"
"What-if rules (no re-emulation needed; see docs/machine.md):\n"
"  -r, --replace RULES   replacement rules, ';'-separated (repeatable):\n"
"                          size>=64KiB:1MiB     messages of 64 KiB or more\n"
"                                               become 1 MiB\n"
"                          size=8:16            messages of exactly 8 B\n"
"                                               become 16 B\n"
"                          seb:force=2ms        SEBs named 'force' take 2 ms\n"
"                          seb:force>1ms=2ms    ... if traced above 1 ms\n"
"                          scale:force=0.5      'force' SEBs run twice as\n"
"                                               fast\n"
"                          region:PAT=DUR       SEBs whose code region\n"
"                                               ('BEGIN > END', see 'sibyl\n"
"                                               trace stats --regions')\n"
"                                               matches the glob PAT take\n"
"                                               DUR; region:PAT>CUT=DUR\n"
"                                               only if traced above CUT\n"
"                          region:*(md.c:88) > *=0\n"
"                                               regions that begin at\n"
"                                               md.c:88 take no time\n"
"                          region:\"main (md.c:12) > *\">1ms=2ms\n"
"                                               a quoted pattern\n"
"                        For an SEB, the first seb: or region: rule that\n"
"                        matches, in the order given, wins\n"
"\n"
"Part of the trace (skip points):\n"
"      --skip            simulate only between each rank's skip-start and\n"
"                        skip-end markers\n"
"      --iters K[..M]    simulate only iterations K to M (from the SEB\n"
"                        marked iteration K to the first SEB marked with\n"
"                        a later iteration than M)\n"
"\n"
"Output:\n"
"  -o, --output DIR      output directory (default: the trace's name with\n"
"                        .sim, in the current directory); it holds\n"
"                        summary.txt, summary.json, prints.txt,\n"
"                        machine.conf, links.csv, link_classes.csv and\n"
"                        the timelines (docs/outputs.md, docs/links.md)\n"
"  -f, --force           replace DIR if it is the output of an earlier\n"
"                        'sibyl sim' holding only what that run wrote\n"
"                        (never '.', $HOME or a directory holding an\n"
"                        input; docs/outputs.md)\n"
"      --timeline FMTS   also write timelines: projections, chrome, or\n"
"                        both ('projections,chrome' or 'all')\n"
"      --timeline-pes R  ranks in the timelines, e.g. 0-1023 (default:\n"
"                        all, which is refused above 4096 ranks)\n"
"      --link-trace T    also write linkseries.csv: the busy time of each\n"
"                        link in every interval of T (a time: 10us,\n"
"                        250ns, 1ms)\n"
"      --link-select SEL links of --link-trace: class names and link\n"
"                        ids or ranges, e.g. nic-out or LL,D or 0-30,55\n"
"                        (default: all links)\n"
"      --json            print summary.json instead of the summary\n"
"  -q, --quiet           print nothing but errors\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 success; 1 the trace cannot be replayed (unreadable,\n"
"damaged, does not close, replay stalls, a time or a sum beyond the\n"
"range of time: the message says where); 2 usage or configuration error,\n"
"or DIR cannot be written.  On failure no output directory is left\n"
"behind; SIGINT, SIGTERM and SIGHUP remove the temporary files first.\n"
"\n"
"Examples:\n"
"  sibyl trace gen -p stencil3d -r 4096 -o st.trace\n"
"  sibyl sim st.trace --set net.latency=1us --set net.bandwidth=10GB/s\n"
"  sibyl sim st.trace -c percs.conf --replace 'size>=4KiB:64KiB' -o big\n"
"  sibyl sim st.trace --iters 3..5 --timeline chrome -o iters\n"
"  sibyl sim st.trace --link-trace 10us --link-select nic-out -o series\n";

enum {
	OPT_CPU = 256, OPT_LIST, OPT_SKIP, OPT_ITERS, OPT_TL, OPT_TLPES,
	OPT_MAP, OPT_NOISE, OPT_NSEED, OPT_NSCALE, OPT_NCOSCHED,
	OPT_JSON, OPT_LTRACE, OPT_LSEL, OPT_VAR, OPT_VSEED
};

static const struct option sim_opts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "set", required_argument, NULL, 's' },
	{ "cpu-factor", required_argument, NULL, OPT_CPU },
	{ "map", required_argument, NULL, OPT_MAP },
	{ "noise", required_argument, NULL, OPT_NOISE },
	{ "noise-seed", required_argument, NULL, OPT_NSEED },
	{ "noise-scale", required_argument, NULL, OPT_NSCALE },
	{ "noise-cosched", no_argument, NULL, OPT_NCOSCHED },
	{ "variability", required_argument, NULL, OPT_VAR },
	{ "variability-seed", required_argument, NULL, OPT_VSEED },
	{ "list-keys", optional_argument, NULL, OPT_LIST },
	{ "replace", required_argument, NULL, 'r' },
	{ "skip", no_argument, NULL, OPT_SKIP },
	{ "iters", required_argument, NULL, OPT_ITERS },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "timeline", required_argument, NULL, OPT_TL },
	{ "timeline-pes", required_argument, NULL, OPT_TLPES },
	{ "link-trace", required_argument, NULL, OPT_LTRACE },
	{ "link-select", required_argument, NULL, OPT_LSEL },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The options that are short for one configuration key (--cpu-factor,
 * --map, the [noise] keys of docs/noise.md): set as keys, so that
 * machine.conf reproduces the run. */
static int set_option_key(fsim_config *cfg, int opt, const char *arg)
{
	static const struct {
		int opt;
		const char *key, *name;
	} keys[] = {
		{ OPT_CPU, "cpu.factor", "--cpu-factor" },
		{ OPT_MAP, "machine.map", "--map" },
		{ OPT_NOISE, "noise.dir", "--noise" },
		{ OPT_NSEED, "noise.seed", "--noise-seed" },
		{ OPT_NSCALE, "noise.scale", "--noise-scale" },
		{ OPT_NCOSCHED, "noise.cosched", "--noise-cosched" },
		{ OPT_VAR, "variability.profile", "--variability" },
		{ OPT_VSEED, "variability.seed", "--variability-seed" },
	};
	char err[2048];
	size_t i = 0;
	while (keys[i].opt != opt)
		i++;
	char *set = tool_config_assignment(keys[i].key, arg ? arg : "yes");
	if (!set || fsim_config_set(cfg, set, err, sizeof err)) {
		tool_error("%s: %s", keys[i].name, set ? err : "out of memory");
		free(set);
		return -1;
	}
	free(set);
	return 0;
}

static void sim_progress(void *arg, uint64_t done, uint64_t total)
{
	tool_progress *p = arg;
	p->total = total;
	tool_progress_update(p, done);
}

/* An iteration number: decimal digits, at most INT64_MAX. */
static const char *scan_iter(const char *s, long long *v)
{
	char *end;
	if (*s < '0' || *s > '9')
		return NULL;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno ? NULL : end;
}

static int parse_iters(const char *s, int64_t *first, int64_t *last)
{
	long long a, b;
	const char *end = scan_iter(s, &a);
	if (!end)
		goto bad;
	b = a;
	if (strncmp(end, "..", 2) == 0 && !(end = scan_iter(end + 2, &b)))
		goto bad;
	if (*end || b < a)
		goto bad;
	*first = a;
	*last = b;
	return 0;
bad:
	return tool_usage_error("--iters: '%s' is not an iteration range; "
				"write K or K..M with 0 <= K <= M (iterations "
				"are numbered from 0), e.g. 3..5", s);
}

/* Parse the --timeline list into writers. */
static int parse_timelines(const char *s, const fsim_out_ops **tl)
{
	size_t n = 0;
	char *copy = strdup(s), *save = NULL;
	if (!copy)
		return tool_usage_error("out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			for (size_t i = 0; fsim_outputs[i]; i++)
				tl[n++] = fsim_outputs[i];
			continue;
		}
		const fsim_out_ops *w = fsim_output_find(tok);
		if (!w) {
			int rc = tool_usage_error("--timeline: unknown format "
						  "'%s' (projections, chrome "
						  "or all)", tok);
			free(copy);
			return rc;
		}
		int dup = 0;
		for (size_t i = 0; i < n; i++)
			dup |= tl[i] == w;
		if (!dup)
			tl[n++] = w;
	}
	free(copy);
	tl[n] = NULL;
	return 0;
}

/* --link-trace: a time with its unit, as --set reads TIME keys. */
static int parse_link_trace(const char *s, sib_ps *out)
{
	static const sib_param p = {
		"--link-trace", SIB_P_TIME, NULL, NULL, NULL
	};
	sib_value v;
	char err[512];
	if (sib_parse_value(&p, NULL, s, &v, err, sizeof err))
		return tool_usage_error("%s", err);
	if (v.i <= 0)
		return tool_usage_error("--link-trace: the interval must be "
					"longer than 0, e.g. 10us (got '%s')",
					s);
	*out = v.i;
	return 0;
}

/* The default output directory: the trace's base name + ".sim". */
static char *default_outdir(const char *trace)
{
	size_t l = strlen(trace);
	while (l > 1 && trace[l - 1] == '/')
		l--;
	size_t b = l;
	while (b > 0 && trace[b - 1] != '/')
		b--;
	size_t n = l - b;
	static const char *const ext[] = { ".tar.gz", ".tar.xz", ".tar.bz2",
					   ".tar.zst", ".tgz", ".tar",
					   ".trace" };
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t el = strlen(ext[i]);
		if (n > el && strncmp(trace + b + n - el, ext[i], el) == 0) {
			n -= el;
			break;
		}
	}
	char *out = malloc(n + 5);
	if (out)
		snprintf(out, n + 5, "%.*s.sim", (int)n, trace + b);
	return out;
}

/* What `sibyl sim' holds from its options to its output. */
typedef struct sim_run {
	fsim_config *cfg;
	fsim_rules *rules;
	const fsim_out_ops *tl[8];
	const char *outdir, *tlpes;
	char *outdir_alloc;
	const char **replaces;
	size_t nreplaces;
	int force, quiet, json, have_tl, scratch;
	fsim_opts o;
	char err[8192];
	uint8_t *sel;
	tool_range_list rl;
	tool_out dest;
	const char **inputs;    /* trace, config files, map, noise,
				   variability files */
	size_t ninputs;
} sim_run;

/* One option c (its argument optarg; argv for messages): -1 to go on,
 * else the exit status. */
static int sim_option(sim_run *x, int c, char **argv)
{
	switch (c) {
	case 'c':
		x->inputs[x->ninputs++] = optarg;
		if (fsim_config_load(x->cfg, optarg, x->err, sizeof x->err)) {
			tool_error("%s", x->err);
			return TOOL_EXIT_USAGE;
		}
		return -1;
	case 's':
		if (fsim_config_set(x->cfg, optarg, x->err, sizeof x->err)) {
			tool_error("%s", x->err);
			return TOOL_EXIT_USAGE;
		}
		return -1;
	case OPT_CPU:
	case OPT_MAP:
	case OPT_NOISE:
	case OPT_NSEED:
	case OPT_NSCALE:
	case OPT_NCOSCHED:
	case OPT_VAR:
	case OPT_VSEED:
		return set_option_key(x->cfg, c, optarg) ? TOOL_EXIT_USAGE : -1;
	case OPT_LIST:
		if (optarg && strcmp(optarg, "markdown") == 0)
			fsim_config_describe_markdown(stdout);
		else if (!optarg || strcmp(optarg, "text") == 0)
			fsim_config_describe(stdout);
		else
			return tool_usage_error("--list-keys: unknown format "
						"'%s' (text or markdown)",
						optarg);
		return 0;
	case 'r':
		x->replaces[x->nreplaces++] = optarg;
		return -1;
	case OPT_SKIP:
		x->o.region = FSIM_REGION_MARKERS;
		return -1;
	case OPT_ITERS:
		if (parse_iters(optarg, &x->o.iter_first, &x->o.iter_last))
			return TOOL_EXIT_USAGE;
		x->o.region = FSIM_REGION_ITERS;
		return -1;
	case 'o':
		if (!optarg[0])
			return tool_usage_error("-o: the output directory is "
						"empty");
		x->outdir = optarg;
		return -1;
	case 'f':
		x->force = 1;
		return -1;
	case OPT_TL:
		if (parse_timelines(optarg, x->tl))
			return TOOL_EXIT_USAGE;
		x->have_tl = x->tl[0] != NULL;
		return -1;
	case OPT_TLPES:
		x->tlpes = optarg;
		return -1;
	case OPT_LTRACE:
		return parse_link_trace(optarg, &x->o.link_interval) ?
		       TOOL_EXIT_USAGE : -1;
	case OPT_LSEL:
		x->o.link_select = optarg;
		return -1;
	case OPT_JSON:
		x->json = 1;
		return -1;
	case 'q':
		x->quiet = 1;
		return -1;
	case 'h':
		fputs(sim_usage, stdout);
		return 0;
	default:
		return tool_bad_option(c, argv);
	}
}

/* The options and the trace operand: -1 to go on, else the status. */
static int sim_parse(sim_run *x, int argc, char **argv)
{
	int c, rc;

	while ((c = getopt_long(argc, argv, ":c:s:r:o:fqh", sim_opts,
				NULL)) != -1)
		if ((rc = sim_option(x, c, argv)) >= 0)
			return rc;
	if (optind != argc - 1)
		return tool_usage_error(optind >= argc ? "no trace given" :
					"one trace at a time");
	if (x->tlpes && !x->have_tl)
		return tool_usage_error("--timeline-pes needs --timeline");
	if (x->o.link_select && !x->o.link_interval)
		return tool_usage_error("--link-select needs --link-trace");
	x->o.trace = argv[optind];
	return -1;
}

/* The machine resolved, and the rules: the CPU factor, then the
 * command line's, then the configuration's (the first matching rule
 * wins, so --replace overrides the configuration's rules). */
static int sim_rules(sim_run *x)
{
	if (fsim_config_resolve(x->cfg, x->err, sizeof x->err)) {
		tool_error("%s", x->err);
		return TOOL_EXIT_USAGE;
	}
	const sib_value *f = fsim_config_get(x->cfg, "cpu", "factor");
	if (f)
		fsim_rules_set_cpu_factor(x->rules, f->num, f->den);
	for (size_t i = 0; i < x->nreplaces; i++)
		if (fsim_rules_add(x->rules, x->replaces[i], "--replace",
				   x->err, sizeof x->err)) {
			tool_error("%s", x->err);
			return TOOL_EXIT_USAGE;
		}
	const sib_value *cr = fsim_config_get(x->cfg, "replace", "rules");
	if (cr && cr->s && *cr->s &&
	    fsim_rules_add(x->rules, cr->s, "replace.rules", x->err,
			   sizeof x->err)) {
		tool_error("%s", x->err);
		return TOOL_EXIT_USAGE;
	}
	return -1;
}

/* The output directory, checked and staged before the run: a run whose
 * results could not be put in place is not started. */
static int sim_stage(sim_run *x)
{
	static const char *const input_keys[][2] = {
		{ "machine", "map" }, { "noise", "dir" },
		{ "variability", "profile" }, { "variability", "spatial_file" }
	};

	if (!x->outdir) {
		x->outdir = x->outdir_alloc = default_outdir(x->o.trace);
		if (!x->outdir) {
			tool_error("out of memory");
			return TOOL_EXIT_USAGE;
		}
	}
	x->inputs[x->ninputs++] = x->o.trace;
	for (size_t i = 0; i < 4; i++) {
		const sib_value *v = fsim_config_get(x->cfg, input_keys[i][0],
						     input_keys[i][1]);
		if (v && v->s && v->s[0])
			x->inputs[x->ninputs++] = v->s;
	}
	x->dest.path = x->outdir;
	x->dest.writer = tool_name;
	x->dest.force = x->force;
	x->dest.inputs = x->inputs;
	return tool_out_begin(&x->dest) ? TOOL_EXIT_USAGE : -1;
}

/* The timelines' ranks, which need the trace's rank count. */
static int sim_timeline_pes(sim_run *x)
{
	int damaged = 0;
	sibt_trace *t = tool_open_trace(x->o.trace, 0, &damaged);

	if (!t)
		return TOOL_EXIT_PROBLEMS;
	uint32_t npes = sibt_trace_npes(t);
	tool_close_trace(t);
	if (!x->tlpes && npes > 4096)
		return tool_usage_error("a timeline of all %u ranks would be "
					"too large to view: choose ranks with "
					"--timeline-pes, e.g. 0-1023", npes);
	if (x->tlpes) {
		if (tool_range_parse("--timeline-pes", x->tlpes, npes, &x->rl))
			return TOOL_EXIT_USAGE;
		x->sel = calloc(npes, 1);
		if (!x->sel) {
			tool_error("out of memory");
			return TOOL_EXIT_USAGE;
		}
		for (size_t i = 0; i < x->rl.n; i++)
			for (uint64_t p = x->rl.r[i].lo; p <= x->rl.r[i].hi;
			     p++)
				x->sel[p] = 1;
	}
	x->o.timelines = x->tl;
	x->o.tl_selected = x->sel;
	return -1;
}

/* The simulation, and its results put in place and printed. */
static int sim_execute(sim_run *x)
{
	if (tool_bundle_scratch(x->o.trace, &x->scratch))
		return TOOL_EXIT_USAGE;
	x->o.scratch = tool_temp_path(x->scratch);
	x->o.outdir = x->outdir;
	x->o.stage = x->dest.stage;
	x->o.cfg = x->cfg;
	x->o.rules = x->rules;
	tool_progress prog;
	tool_progress_begin(&prog, "simulating", 0, x->quiet || x->json);
	if (prog.active) {
		x->o.progress = sim_progress;
		x->o.progress_arg = &prog;
	}
	fsim_result res;
	int r = fsim_run(&x->o, &res, x->err, sizeof x->err), rc;
	tool_progress_end(&prog);
	tool_temp_remove(x->scratch);
	x->scratch = -1;
	if (r) {
		tool_error("%s", x->err);
		return r == SIB_ECONFIG ? TOOL_EXIT_USAGE : TOOL_EXIT_PROBLEMS;
	}
	if ((rc = tool_out_commit(&x->dest))) {
		fsim_result_free(&res);
		return rc;
	}
	if (x->json)
		fsim_result_json(&res, &x->o, stdout);
	else if (!x->quiet) {
		fsim_result_print(&res, &x->o, stdout);
		printf("output           %s/\n", x->outdir);
	}
	fsim_result_free(&res);
	return 0;
}

int tool_cmd_sim(int argc, char **argv)
{
	sim_run *x = calloc(1, sizeof *x);
	int rc = TOOL_EXIT_USAGE;

	if (!x) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	x->scratch = -1;
	x->dest.kind = TOOL_OUT_MARKED;
	x->dest.handle = -1;
	x->o.region = FSIM_REGION_WHOLE;
	x->replaces = calloc((size_t)argc + 1, sizeof *x->replaces);
	x->inputs = calloc((size_t)argc + 6, sizeof *x->inputs);
	if (fsim_config_new(&x->cfg) || fsim_rules_new(&x->rules) ||
	    !x->replaces || !x->inputs)
		tool_error("out of memory");
	else if ((rc = sim_parse(x, argc, argv)) < 0 &&
		 (rc = sim_rules(x)) < 0 && (rc = sim_stage(x)) < 0 &&
		 (!x->have_tl || (rc = sim_timeline_pes(x)) < 0))
		rc = sim_execute(x);
	tool_temp_remove(x->scratch);
	tool_out_free(&x->dest);
	tool_range_free(&x->rl);
	free(x->sel);
	free(x->replaces);
	free(x->inputs);
	free(x->outdir_alloc);
	fsim_rules_free(x->rules);
	fsim_config_free(x->cfg);
	free(x);
	return rc;
}
