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
	OPT_JSON, OPT_LTRACE, OPT_LSEL
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
	progress *p = arg;
	p->total = total;
	progress_update(p, done);
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
	if (fsim_parse_value(&p, s, &v, err, sizeof err))
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

int cmd_sim(int argc, char **argv)
{
	fsim_config *cfg = NULL;
	fsim_rules *rules = NULL;
	const fsim_out_ops *tl[8] = { NULL };
	const char *outdir = NULL, *tlpes = NULL;
	char *outdir_alloc = NULL;
	const char **replaces = NULL;
	size_t nreplaces = 0;
	int force = 0, quiet = 0, json = 0, have_tl = 0, c, scratch = -1;
	fsim_opts o;
	char err[8192];
	int rc = EXIT_USAGE;
	uint8_t *sel = NULL;
	range_list rl = { 0, NULL };
	tool_out dest = { .kind = TOOL_OUT_MARKED, .handle = -1 };
	const char **inputs = NULL;   /* trace, config files, map, noise */
	size_t ninputs = 0;

	memset(&o, 0, sizeof o);
	o.region = FSIM_REGION_WHOLE;
	if (fsim_config_new(&cfg) || fsim_rules_new(&rules)) {
		tool_error("out of memory");
		goto out;
	}
	replaces = calloc((size_t)argc + 1, sizeof *replaces);
	inputs = calloc((size_t)argc + 4, sizeof *inputs);
	if (!replaces || !inputs) {
		tool_error("out of memory");
		goto out;
	}
	while ((c = getopt_long(argc, argv, "c:s:r:o:fqh", sim_opts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			inputs[ninputs++] = optarg;
			if (fsim_config_load(cfg, optarg, err, sizeof err)) {
				tool_error("%s", err);
				goto out;
			}
			break;
		case 's':
			if (fsim_config_set(cfg, optarg, err, sizeof err)) {
				tool_error("%s", err);
				goto out;
			}
			break;
		case OPT_CPU:
		case OPT_MAP:
		case OPT_NOISE:
		case OPT_NSEED:
		case OPT_NSCALE:
		case OPT_NCOSCHED:
			if (set_option_key(cfg, c, optarg))
				goto out;
			break;
		case OPT_LIST:
			if (optarg && strcmp(optarg, "markdown") == 0) {
				fsim_config_describe_markdown(stdout);
			} else if (!optarg || strcmp(optarg, "text") == 0) {
				fsim_config_describe(stdout);
			} else {
				tool_usage_error("--list-keys: unknown format "
						 "'%s' (text or markdown)",
						 optarg);
				goto out;
			}
			rc = 0;
			goto out;
		case 'r':
			replaces[nreplaces++] = optarg;
			break;
		case OPT_SKIP:
			o.region = FSIM_REGION_MARKERS;
			break;
		case OPT_ITERS:
			if (parse_iters(optarg, &o.iter_first, &o.iter_last))
				goto out;
			o.region = FSIM_REGION_ITERS;
			break;
		case 'o':
			if (!optarg[0]) {
				rc = tool_usage_error("-o: the output "
						      "directory is empty");
				goto out;
			}
			outdir = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case OPT_TL:
			if (parse_timelines(optarg, tl))
				goto out;
			have_tl = tl[0] != NULL;
			break;
		case OPT_TLPES:
			tlpes = optarg;
			break;
		case OPT_LTRACE:
			if (parse_link_trace(optarg, &o.link_interval))
				goto out;
			break;
		case OPT_LSEL:
			o.link_select = optarg;
			break;
		case OPT_JSON:
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(sim_usage, stdout);
			rc = 0;
			goto out;
		default:
			rc = tool_usage_error("unknown or incomplete option");
			goto out;
		}
	}
	if (optind != argc - 1) {
		rc = tool_usage_error(optind >= argc ? "no trace given" :
				      "one trace at a time");
		goto out;
	}
	if (tlpes && !have_tl) {
		rc = tool_usage_error("--timeline-pes needs --timeline");
		goto out;
	}
	if (o.link_select && !o.link_interval) {
		rc = tool_usage_error("--link-select needs --link-trace");
		goto out;
	}
	o.trace = argv[optind];
	if (fsim_config_resolve(cfg, err, sizeof err)) {
		tool_error("%s", err);
		goto out;
	}
	const sib_value *f = fsim_config_get(cfg, "cpu", "factor");
	if (f)
		fsim_rules_set_cpu_factor(rules, f->num, f->den);
	/* Command-line rules come first: the first matching rule wins, so
	 * --replace overrides the configuration's rules. */
	for (size_t i = 0; i < nreplaces; i++) {
		if (fsim_rules_add(rules, replaces[i], "--replace", err,
				   sizeof err)) {
			tool_error("%s", err);
			goto out;
		}
	}
	const sib_value *cr = fsim_config_get(cfg, "replace", "rules");
	if (cr && cr->s && *cr->s &&
	    fsim_rules_add(rules, cr->s, "replace.rules", err, sizeof err)) {
		tool_error("%s", err);
		goto out;
	}
	if (!outdir) {
		outdir = outdir_alloc = default_outdir(o.trace);
		if (!outdir) {
			tool_error("out of memory");
			goto out;
		}
	}
	/* The output is checked and staged before the run: a run whose
	 * results could not be put in place is not started. */
	inputs[ninputs++] = o.trace;
	static const char *const input_keys[][2] = {
		{ "machine", "map" }, { "noise", "dir" }
	};
	for (size_t i = 0; i < 2; i++) {
		const sib_value *v = fsim_config_get(cfg, input_keys[i][0],
						      input_keys[i][1]);
		if (v && v->s && v->s[0])
			inputs[ninputs++] = v->s;
	}
	dest.path = outdir;
	dest.writer = tool_name;
	dest.force = force;
	dest.inputs = inputs;
	if (tool_out_begin(&dest))
		goto out;

	/* The timeline's ranks need the trace's rank count. */
	if (have_tl) {
		int damaged = 0;
		sibt_trace *t = tool_open_trace(o.trace, 0, &damaged);
		if (!t) {
			rc = EXIT_PROBLEMS;
			goto out;
		}
		uint32_t npes = sibt_trace_npes(t);
		tool_close_trace(t);
		if (!tlpes && npes > 4096) {
			rc = tool_usage_error("a timeline of all %u ranks would "
					      "be too large to view: choose "
					      "ranks with --timeline-pes, e.g. "
					      "0-1023", npes);
			goto out;
		}
		if (tlpes) {
			if (range_parse("--timeline-pes", tlpes, npes, &rl))
				goto out;
			sel = calloc(npes, 1);
			if (!sel) {
				tool_error("out of memory");
				goto out;
			}
			for (size_t i = 0; i < rl.n; i++)
				for (uint64_t p = rl.r[i].lo; p <= rl.r[i].hi;
				     p++)
					sel[p] = 1;
		}
		o.timelines = tl;
		o.tl_selected = sel;
	}

	if (tool_bundle_scratch(o.trace, &scratch))
		goto out;
	o.scratch = tool_temp_path(scratch);
	o.outdir = outdir;
	o.stage = dest.stage;
	o.cfg = cfg;
	o.rules = rules;
	progress prog;
	progress_begin(&prog, "simulating", 0, quiet || json);
	if (prog.active) {
		o.progress = sim_progress;
		o.progress_arg = &prog;
	}
	fsim_result res;
	int r = fsim_run(&o, &res, err, sizeof err);
	progress_end(&prog);
	tool_temp_remove(scratch);
	scratch = -1;
	if (r) {
		tool_error("%s", err);
		rc = r == FSIM_ECONFIG ? EXIT_USAGE : EXIT_PROBLEMS;
		goto out;
	}
	if ((rc = tool_out_commit(&dest))) {
		fsim_result_free(&res);
		goto out;
	}
	if (json)
		fsim_result_json(&res, &o, stdout);
	else if (!quiet) {
		fsim_result_print(&res, &o, stdout);
		printf("output           %s/\n", outdir);
	}
	fsim_result_free(&res);
	rc = 0;
out:
	tool_temp_remove(scratch);
	tool_out_free(&dest);
	range_free(&rl);
	free(sel);
	free(replaces);
	free(inputs);
	free(outdir_alloc);
	fsim_rules_free(rules);
	fsim_config_free(cfg);
	return rc;
}
