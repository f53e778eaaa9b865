/*
 * trace_check.c -- `sibyl trace check': full validation of a trace with
 * sibt_check(), problems one per line, a summary, and an exit status a
 * script can test.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static const char check_usage[] =
"Usage: sibyl trace check [--max-problems N] [--no-cycles] [--quiet]\n"
"                         [--json] TRACE\n"
"\n"
"Validate the trace TRACE (a trace directory or a bundle) completely:\n"
"  - every data file is intact (no truncation, no damaged frame);\n"
"  - every window reads, passes its checksum and decodes;\n"
"  - every PE number is below the trace's PE count, every awaited message\n"
"    (source PE, sequence number) is one the source really sends;\n"
"  - predecessors are earlier SEBs of the same PE;\n"
"  - every message is awaited by exactly one SEB, on its destination PE;\n"
"  - the graph of predecessor and message dependencies has no cycle, i.e.\n"
"    every SEB can run.  This search runs only when nothing else is\n"
"    wrong; a cycle is reported as a chain of SEBs and messages.\n"
"Where part of a PE is lost (damaged file, unreadable window), messages\n"
"whose other end may lie in the lost part are not reported again.\n"
"\n"
"Memory stays far below the trace's decoded size: besides the window\n"
"index every reader holds, 16 bytes per PE, a bit per message and a cache\n"
"of at most 32 MiB (or an eighth of the trace's uncompressed size).\n"
"\n"
"Options:\n"
"  --max-problems N  print at most N problems (default 20, 0: all); the\n"
"                    rest is still counted in the summary\n"
"  --no-cycles       skip the dependency-cycle search (saves a pass over\n"
"                    the trace, the bit per message and the cache)\n"
"  --quiet           no progress display and no summary: a valid trace\n"
"                    prints nothing\n"
"  --json            JSON Lines output (see below)\n"
"  -h, --help        print this help and exit\n"
"\n"
"Output:\n"
"  One line per problem, naming the PE, SEB index, window or message\n"
"  (SOURCE:SEQUENCE) concerned:\n"
"    PROBLEM: message 3:7 sent by PE 3 SEB 2 (to PE 4, 1024 bytes, tag 0)\n"
"    is awaited by no SEB\n"
"  then a summary:\n"
"    run.trace: 64 PEs, 448 SEBs, 1,152 messages checked: 1 problem; peak\n"
"    memory 4.70 MiB\n"
"  With --json, {\"problem\":TEXT} per problem and a last line\n"
"  {\"summary\":{\"trace\",\"pes\",\"sebs\",\"messages\",\"problems\",\n"
"  \"shown\",\"cycle_search\",\"peak_rss_bytes\",\"valid\"}}; when the check\n"
"  cannot be carried out, {\"error\":TEXT} takes the place of the summary.\n"
"  Progress and warnings go to standard error.\n"
"\n"
"Exit status:\n"
"  0  the trace is valid\n"
"  1  problems were found (including damage found when opening)\n"
"  2  usage error, TRACE could not be opened, or the check could not be\n"
"     carried out (e.g. out of memory)\n"
"\n"
"Examples:\n"
"  sibyl trace check run.trace\n"
"  sibyl trace check --max-problems 0 --json run.tar.gz > problems.jsonl\n"
"  sibyl trace check --quiet run.trace || echo \"run.trace is not valid\"\n";

typedef struct check_ui {
	int json;
	int quiet;
	char *pending;          /* the last report, printed one call late */
	unsigned long printed;
	tool_progress prog;
	const char *phase;
	uint64_t done;
} check_ui;

static void print_problem(check_ui *ui, const char *text)
{
	if (ui->json) {
		fputs("{\"problem\":", stdout);
		tool_json_string(stdout, text, strlen(text));
		fputs("}\n", stdout);
	} else {
		printf("PROBLEM: %s\n", text);
	}
	ui->printed++;
}

/*
 * When sibt_check() gives up, its last report is the reason rather than
 * a problem of the trace: hold each report back until the next one (or
 * the return value) tells which it is.
 */
static void on_report(void *arg, const char *problem)
{
	check_ui *ui = arg;
	char *copy = strdup(problem);

	if (ui->pending) {
		/* Clear the progress line first, then draw it again. */
		int active = ui->prog.active;

		tool_progress_end(&ui->prog);
		print_problem(ui, ui->pending);
		fflush(stdout);
		free(ui->pending);
		if (active) {
			tool_progress_begin(&ui->prog, ui->phase,
					    ui->prog.total,
				       ui->quiet);
			ui->prog.last = 0;      /* redraw now, not at 0% */
			tool_progress_update(&ui->prog, ui->done);
		}
	}
	ui->pending = copy;
	if (!copy)
		tool_warn("out of memory: a problem report was lost");
}

static void on_progress(void *arg, const char *phase, uint64_t done,
			uint64_t total)
{
	check_ui *ui = arg;

	if (phase != ui->phase && (!ui->phase || strcmp(phase, ui->phase))) {
		tool_progress_end(&ui->prog);
		tool_progress_begin(&ui->prog, phase, total, ui->quiet);
		ui->phase = phase;
	}
	ui->done = done;
	tool_progress_update(&ui->prog, done);
}

static void print_summary(const check_ui *ui, const char *path,
			  const sibt_trace *t, long nproblems, int cycles)
{
	char b1[32], b2[32], b3[32], b4[32];
	sibt_totals tot;
	uint64_t rss = sib_peak_rss();
	unsigned long hidden = (unsigned long)nproblems - ui->printed;

	sibt_trace_totals(t, &tot);
	if (ui->json) {
		fputs("{\"summary\":{\"trace\":", stdout);
		tool_json_string(stdout, path, strlen(path));
		printf(",\"pes\":%" PRIu32 ",\"sebs\":%" PRIu64
		       ",\"messages\":%" PRIu64 ",\"problems\":%ld"
		       ",\"shown\":%lu,\"cycle_search\":%s"
		       ",\"peak_rss_bytes\":%" PRIu64 ",\"valid\":%s}}\n",
		       sibt_trace_npes(t), tot.sebs, tot.sends, nproblems,
		       ui->printed, cycles ? "true" : "false", rss,
		       nproblems ? "false" : "true");
		return;
	}
	printf("%s: %s PEs, %s SEBs, %s messages checked%s: ", path,
	       tool_fmt_count(b1, sizeof(b1), sibt_trace_npes(t)),
	       tool_fmt_count(b2, sizeof(b2), tot.sebs),
	       tool_fmt_count(b3, sizeof(b3), tot.sends),
	       cycles ? "" : " (no cycle search)");
	if (nproblems == 0)
		printf("valid");
	else
		printf("%ld problem%s", nproblems, nproblems == 1 ? "" : "s");
	if (hidden)
		printf(" (%lu not shown; see --max-problems)", hidden);
	printf("; peak memory %s\n", tool_fmt_bytes(b4, sizeof(b4),
						    (double)rss));
}

int tool_cmd_trace_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "max-problems", required_argument, NULL, 'm' },
		{ "no-cycles", no_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	sibt_check_opts opts;
	check_ui ui;
	sibt_trace *t;
	const char *path;
	uint64_t max = 20;
	long n;
	int damaged, c, status;

	memset(&opts, 0, sizeof(opts));
	memset(&ui, 0, sizeof(ui));
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (tool_parse_u64("--max-problems", optarg, &max) < 0)
				return TOOL_EXIT_USAGE;
			break;
		case 'c':
			opts.skip_cycles = 1;
			break;
		case 'q':
			ui.quiet = 1;
			break;
		case 'j':
			ui.json = 1;
			break;
		case 'h':
			fputs(check_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (!(path = tool_trace_operand(argc, argv)))
		return TOOL_EXIT_USAGE;
	/* 0 means "all" here; the library reads 0 as its default. */
	opts.max_problems = max == 0 || max > UINT_MAX ? UINT_MAX
						       : (unsigned)max;
	opts.report = on_report;
	opts.progress = on_progress;
	opts.arg = &ui;

	t = tool_open_trace(path, SIBT_OPEN_VERIFY_INDEX, &damaged);
	if (!t)
		return TOOL_EXIT_USAGE;
	n = sibt_check(t, &opts);
	tool_progress_end(&ui.prog);
	if (n < 0) {
		const char *why = ui.pending ? ui.pending
					     : sibt_strerror((int)n);

		tool_error("the check of '%s' could not be carried out: %s%s",
			   path, why, n == SIBT_ENOMEM && !opts.skip_cycles ?
			   " (--no-cycles needs less memory)" : "");
		if (ui.json) {
			fputs("{\"error\":", stdout);
			tool_json_string(stdout, why, strlen(why));
			fputs("}\n", stdout);
		}
		status = TOOL_EXIT_USAGE;
		goto out;
	}
	if (ui.pending)
		print_problem(&ui, ui.pending);
	/* Damage the library could not itself describe still counts. */
	if (damaged && sibt_trace_damage_count(t) == 0) {
		print_problem(&ui, "the trace is damaged: only part of it "
			      "could be read");
		n++;
	}
	if (!ui.quiet)
		print_summary(&ui, path, t, n, !opts.skip_cycles);
	status = n ? TOOL_EXIT_PROBLEMS : 0;
out:
	free(ui.pending);
	tool_close_trace(t);
	return status;
}
