/*
 * noise.c -- `sibyl noise capture': measure the OS noise of this host and
 * write it as a noise set for `sibyl sim --noise'; `sibyl noise stats':
 * summarize a noise set per core.  The measuring loop is in
 * noise/capture.c; docs/noise-capture.md describes the method and
 * docs/noise.md the noise-set format.
 *
 * A capture is written into a temporary directory next to DIR, loaded
 * back with the simulator's own reader (so a set that `sim' would refuse
 * is never left behind) and renamed into place.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "noise.h"
#include "tools.h"

/* Default capture length: ten periods of a once-a-second daemon. */
#define CAPTURE_DEFAULT_DURATION "10s"

static const char capture_usage[] =
"Usage: sibyl noise capture -o DIR [OPTIONS]\n"
"\n"
"Measure the OS noise of this host and write it as a noise set for\n"
"'sibyl sim --noise DIR': one file DIR/coreN per measured core (N = the\n"
"hwloc logical index of the processing unit), one detour a line.\n"
"\n"
"Every selected core runs a 'selfish detour' loop at the same time, in\n"
"a thread bound to it: the loop reads CLOCK_MONOTONIC again and again,\n"
"and a gap between two reads longer than the threshold is a detour (the\n"
"OS took the core away).  Run it on an otherwise idle host: other jobs\n"
"are measured as noise too.  docs/noise-capture.md has the details.\n"
"\n"
"Options:\n"
"  -o, --output DIR       the noise set to write (required)\n"
"  -d, --duration T       how long to measure (default " \
	CAPTURE_DEFAULT_DURATION ", at most 3600s)\n"
"  -t, --threshold T      shortest gap counted as a detour (default: the\n"
"                         larger of 1us and 10 times the loop's minimum\n"
"                         iteration time, measured first)\n"
"  -c, --cores LIST       cores to measure: 'all' (default), '0-3,6'\n"
"  -f, --force            replace DIR if it is an earlier capture holding\n"
"                         only what the capture wrote (docs/outputs.md)\n"
"      --json             print the summary as JSON on standard output\n"
"  -q, --quiet            no progress and no summary\n"
"  -h, --help             print this help and exit\n"
"\n"
"Exit status: 0 success; 2 usage error or failure to measure or write\n"
"(nothing is left behind; SIGINT, SIGTERM and SIGHUP remove the\n"
"temporary directory first).\n"
"\n"
"Examples:\n"
"  sibyl noise capture -o host.noise\n"
"  sibyl noise capture -o host.noise --duration 60s --cores 0-7\n"
"  sibyl sim app.trace --noise host.noise\n";

static const char stats_usage[] =
"Usage: sibyl noise stats [--json] DIR\n"
"\n"
"Load the noise set DIR as 'sibyl sim --noise DIR' does and print, per\n"
"core, its kind (pattern, captured or none), detours per second, mean\n"
"and largest detour, and the fraction of the core's time the detours\n"
"take, then a total for the node: detours per second summed over the\n"
"cores, mean detour weighted by detours, largest detour, and the\n"
"fraction averaged over the cores 0..N-1 the set describes.\n"
"\n"
"Options:\n"
"      --json     print JSON instead of the table\n"
"  -h, --help     print this help and exit\n"
"\n"
"Exit status: 0 success; 1 the set is invalid (the message names\n"
"FILE:LINE); 2 usage error.\n";

static const char *const kind_name[] = { "none", "pattern", "captured" };

/* ------------------------------------------------------- statistics */

/* The node total of noise_set_core_stats over cores 0..n-1. */
static void total_stats(const noise_set *set, noise_core_stats *t)
{
	uint32_t n = noise_set_ncores(set);
	double noise = 0;             /* detour time per second, summed */

	*t = (noise_core_stats){ 0 };
	for (uint32_t c = 0; c < n; c++) {
		noise_core_stats s;
		noise_set_core_stats(set, c, &s);
		t->detours_per_s += s.detours_per_s;
		noise += s.fraction;
		if (s.max_ps > t->max_ps)
			t->max_ps = s.max_ps;
		t->detours += s.detours;
		if (s.span_ps > t->span_ps)
			t->span_ps = s.span_ps;
	}
	t->fraction = n ? noise / n : 0;
	t->mean_ps = t->detours_per_s > 0 ?
		noise / t->detours_per_s * 1e12 : 0;
}

static void print_row(const char *core, const char *kind,
		      const noise_core_stats *s, const char *what)
{
	char mean[32], max[32];

	tool_fmt_time(mean, sizeof mean, (sibt_time)(s->mean_ps + 0.5));
	tool_fmt_time(max, sizeof max, (sibt_time)(s->max_ps + 0.5));
	printf("%-6s %-9s %12.1f %12s %12s %9.4f%%  %s\n", core, kind,
	       s->detours_per_s, mean, max, 100 * s->fraction, what);
}

static void print_table(const noise_set *set)
{
	uint32_t n = noise_set_ncores(set);
	noise_core_stats s;
	char core[16], what[96], cnt[32], span[32];

	printf("%-6s %-9s %12s %12s %12s %10s  %s\n", "core", "kind",
	       "detours/s", "mean", "max", "fraction", "source");
	for (uint32_t c = 0; c < n; c++) {
		int k = noise_set_kind(set, c);
		noise_set_core_stats(set, c, &s);
		snprintf(core, sizeof core, "%" PRIu32, c);
		tool_fmt_count(cnt, sizeof cnt, s.detours);
		if (k == NOISE_CAPTURED)
			snprintf(what, sizeof what, "%s detours in %s", cnt,
				 tool_fmt_time(span, sizeof span, s.span_ps));
		else if (k == NOISE_PATTERN)
			snprintf(what, sizeof what, "%s pattern%s", cnt,
				 s.detours == 1 ? "" : "s");
		else
			snprintf(what, sizeof what, "no noise");
		print_row(core, kind_name[k], &s, what);
	}
	total_stats(set, &s);
	snprintf(what, sizeof what, "%" PRIu32 " core%s", n,
		 n == 1 ? "" : "s");
	print_row("total", "", &s, what);
}

static void json_core(const noise_core_stats *s)
{
	printf("\"detours_per_s\": %.17g, \"mean_ps\": %.17g, "
	       "\"max_ps\": %.17g, \"fraction\": %.17g, \"detours\": %"
	       PRIu64 ", \"span_ps\": %" PRId64, s->detours_per_s, s->mean_ps,
	       s->max_ps, s->fraction, s->detours, s->span_ps);
}

/* The "ncores", "cores" and "total" members (no braces). */
static void json_set(const noise_set *set)
{
	uint32_t n = noise_set_ncores(set);
	noise_core_stats s;

	printf("\"ncores\": %" PRIu32 ", \"cores\": [", n);
	for (uint32_t c = 0; c < n; c++) {
		noise_set_core_stats(set, c, &s);
		printf("%s\n  {\"core\": %" PRIu32 ", \"kind\": \"%s\", ",
		       c ? "," : "", c, kind_name[noise_set_kind(set, c)]);
		json_core(&s);
		printf("}");
	}
	total_stats(set, &s);
	printf("],\n \"total\": {");
	json_core(&s);
	printf("}");
}

static int load_set(const char *dir, noise_set **set)
{
	char err[2048];

	if (noise_set_load(set, dir, err, sizeof err)) {
		tool_error("%s", err);
		return TOOL_EXIT_PROBLEMS;
	}
	return 0;
}

int tool_cmd_noise_stats(int argc, char **argv)
{
	enum { OPT_JSON = 256 };
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int json = 0, c, rc;
	noise_set *set;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			json = 1;
			break;
		case 'h':
			fputs(stats_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind != argc - 1)
		return tool_usage_error("give one noise-set directory");
	const char *dir = argv[optind];
	struct stat sb;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		tool_error("%s: no such directory (a noise set is a directory "
			   "of coreN files, see docs/noise.md)", dir);
		return TOOL_EXIT_USAGE;
	}
	if ((rc = load_set(dir, &set)))
		return rc;
	if (json) {
		printf("{\"dir\": ");
		tool_json_string(stdout, dir, strlen(dir));
		printf(", ");
		json_set(set);
		printf("}\n");
	} else {
		print_table(set);
	}
	noise_set_free(set);
	return 0;
}

/* ---------------------------------------------------------- capture */

static void on_progress(void *arg, double fraction)
{
	tool_progress_update(arg, (uint64_t)(fraction * 1000));
}

static void print_capture(const noise_capture *cap, const noise_set *set,
			  const char *dir, int json)
{
	char a[32], b[32], r[32];

	if (json) {
		printf("{\"dir\": ");
		tool_json_string(stdout, dir, strlen(dir));
		printf(", \"host\": ");
		tool_json_string(stdout, cap->host, strlen(cap->host));
		printf(", \"duration_ps\": %" PRId64 ", \"threshold_ps\": %"
		       PRId64 ", \"loop_min_ps\": %" PRId64
		       ", \"clock_resolution_ps\": %" PRId64 ",\n \"measured\": [",
		       cap->duration_ps, cap->threshold_ps, cap->loop_min_ps,
		       cap->clock_res_ps);
		for (uint32_t i = 0; i < cap->ncores; i++) {
			const noise_capture_core *c = &cap->cores[i];
			printf("%s{\"core\": %" PRIu32 ", \"os_index\": %"
			       PRIu32 ", \"bound\": %s, \"loop_min_ps\": %"
			       PRId64 ", \"blind_ps\": %" PRId64 "}",
			       i ? ", " : "", c->core, c->os_index,
			       c->bound ? "true" : "false", c->loop_min_ps,
			       c->blind_ps);
		}
		printf("],\n ");
		json_set(set);
		printf("}\n");
		return;
	}
	printf("noise set %s: %" PRIu32 " core%s of %s for %s\n", dir,
	       cap->ncores, cap->ncores == 1 ? "" : "s", cap->host,
	       tool_fmt_time(a, sizeof a, cap->duration_ps));
	printf("clock CLOCK_MONOTONIC (resolution %s), loop minimum %s, "
	       "threshold %s\n", noise_fmt_ns(r, sizeof r, cap->clock_res_ps),
	       noise_fmt_ns(a, sizeof a, cap->loop_min_ps),
	       noise_fmt_ns(b, sizeof b, cap->threshold_ps));
	print_table(set);
}

/* Parsed options of `noise capture'. */
typedef struct cap_args {
	const char *out;
	sibt_time duration, threshold;
	const char *cores;
	int force, json, quiet;
} cap_args;

static int parse_capture(int argc, char **argv, cap_args *a)
{
	enum { OPT_JSON = 256 };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "threshold", required_argument, NULL, 't' },
		{ "cores", required_argument, NULL, 'c' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*a = (cap_args){ .cores = "all" };
	tool_parse_time("--duration", CAPTURE_DEFAULT_DURATION, "",
			&a->duration);
	while ((c = getopt_long(argc, argv, ":o:d:t:c:fqh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'd':
			if (tool_parse_time("--duration", optarg, "",
					    &a->duration))
				return TOOL_EXIT_USAGE;
			if (a->duration < 1000000 ||
			    a->duration > NOISE_CAPTURE_MAX_DURATION_PS)
				return tool_usage_error("--duration %s: give "
							"1us to 3600s", optarg);
			break;
		case 't':
			if (tool_parse_time("--threshold", optarg, "",
				       &a->threshold))
				return TOOL_EXIT_USAGE;
			if (a->threshold < 1000)
				return tool_usage_error("--threshold %s: give "
							"at least 1ns", optarg);
			break;
		case 'c':
			a->cores = optarg;
			break;
		case 'f':
			a->force = 1;
			break;
		case OPT_JSON:
			a->json = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'h':
			fputs(capture_usage, stdout);
			return -1;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind != argc)
		return tool_usage_error("unexpected argument '%s'",
					argv[optind]);
	if (!a->out)
		return tool_usage_error("give the noise set to write with -o "
					"DIR");
	if (a->threshold >= a->duration)
		return tool_usage_error("--threshold must be shorter than "
					"--duration");
	return 0;
}

/* --cores LIST as an array of PU indexes. */
static int select_cores(const char *list, uint32_t **out, uint32_t *n)
{
	char err[1024];
	uint32_t npu;
	tool_range_list rl;

	if (noise_capture_host_cores(&npu, err, sizeof err)) {
		tool_error("%s", err);
		return TOOL_EXIT_USAGE;
	}
	if (tool_range_parse("--cores", list, npu, &rl))
		return TOOL_EXIT_USAGE;
	*n = 0;
	*out = malloc(npu * sizeof **out);
	if (!*out) {
		tool_range_free(&rl);
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	for (uint32_t c = 0; c < npu; c++)
		if (tool_range_contains(&rl, c))
			(*out)[(*n)++] = c;
	tool_range_free(&rl);
	return 0;
}

static int finish_capture(const cap_args *a, noise_capture *cap,
			  tool_out *out)
{
	const char *tmp = out->stage;
	char err[2048];
	noise_set *set;
	int rc;

	if (noise_capture_write(cap, tmp, err, sizeof err)) {
		tool_error("%s", err);
		return TOOL_EXIT_USAGE;
	}
	for (uint32_t i = 0; i < cap->ncores; i++)
		if (!cap->cores[i].bound)
			tool_warn("core %" PRIu32 " was measured unbound "
				  "(hwloc: %s): its detours may belong to "
				  "any core", cap->cores[i].core,
				  strerror(cap->cores[i].bind_errno));
	if ((rc = load_set(tmp, &set)))
		return TOOL_EXIT_USAGE;
	if ((rc = tool_out_commit(out))) {
		noise_set_free(set);
		return rc;
	}
	if (!a->quiet || a->json)
		print_capture(cap, set, a->out, a->json);
	noise_set_free(set);
	return 0;
}

int tool_cmd_noise_capture(int argc, char **argv)
{
	cap_args a;
	uint32_t *cores = NULL, ncores;
	char err[2048], d[32];
	noise_capture *cap;
	tool_progress pr;
	tool_out out = { .kind = TOOL_OUT_MARKED, .handle = -1 };
	int rc;

	if ((rc = parse_capture(argc, argv, &a)))
		return rc < 0 ? 0 : rc;
	/* Written into a registered staging directory (a signal removes
	 * it), moved into place when complete. */
	out.path = a.out;
	out.writer = tool_name;
	out.force = a.force;
	if ((rc = tool_out_begin(&out)))
		return rc;
	if ((rc = select_cores(a.cores, &cores, &ncores))) {
		tool_out_free(&out);
		return rc;
	}
	if (!a.quiet)
		fprintf(stderr, "%s: measuring %" PRIu32 " core%s for %s\n",
			tool_name, ncores, ncores == 1 ? "" : "s",
			tool_fmt_time(d, sizeof d, a.duration));
	tool_progress_begin(&pr, "capturing", 1000, a.quiet);
	noise_capture_opts o = {
		.duration_ps = a.duration, .threshold_ps = a.threshold,
		.cores = cores, .ncores = ncores,
		.progress = pr.active ? on_progress : NULL,
		.progress_arg = &pr,
	};
	rc = noise_capture_run(&o, &cap, err, sizeof err);
	if (pr.active)
		tool_progress_update(&pr, 1000);
	tool_progress_end(&pr);
	free(cores);
	if (rc) {
		tool_error("%s", err);
		tool_out_free(&out);
		return TOOL_EXIT_USAGE;
	}
	rc = finish_capture(&a, cap, &out);
	tool_out_free(&out);
	noise_capture_free(cap);
	return rc;
}
