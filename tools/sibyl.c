/*
 * sibyl.c -- the `sibyl' command-line driver.
 *
 * Git-style: `sibyl COMMAND [SUBCOMMAND] [ARGS]'.  A command is either a
 * leaf (a cmd_* function of tools.h) or a group holding its own table of
 * subcommands (`sibyl trace info').  The driver only dispatches: every
 * subcommand parses its own options and prints its own --help.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sib_text.h"
#include "tools.h"

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);      /* leaf */
	const struct command *sub;              /* group: NULL-terminated */
};

static const struct command trace_commands[] = {
	{ "info",   "summarize a trace from its index (fast)",
	  tool_cmd_trace_info, NULL },
	{ "dump",   "list SEBs, readable or as JSON lines",
	  tool_cmd_trace_dump, NULL },
	{ "check",  "validate a trace completely",
	  tool_cmd_trace_check, NULL },
	{ "stats",  "distributions of SEB durations, message sizes, ...",
	  tool_cmd_trace_stats, NULL },
	{ "pack",   "pack a trace directory into one archive (bundle)",
	  tool_cmd_trace_pack, NULL },
	{ "unpack", "unpack a bundle into a trace directory",
	  tool_cmd_trace_unpack, NULL },
	{ "profile", "write the per-region distributions of SEB durations",
	  tool_cmd_trace_profile, NULL },
	{ "gen",    "generate a synthetic trace from a communication pattern",
	  tool_cmd_trace_gen, NULL },
	{ NULL, NULL, NULL, NULL }
};

static const struct command noise_commands[] = {
	{ "capture", "measure OS noise on each core and write a noise set",
	  tool_cmd_noise_capture, NULL },
	{ "stats",   "summarize a noise set (detours/s, durations, fraction)",
	  tool_cmd_noise_stats, NULL },
	{ NULL, NULL, NULL, NULL }
};

static const struct command top_commands[] = {
	{ "trace", "inspect, check, pack and generate traces",
	  NULL, trace_commands },
	{ "emulate", "run an MPI application as V ranks and record its trace",
	  tool_cmd_emulate, NULL },
	{ "sim",   "replay a trace on a model of the target machine",
	  tool_cmd_sim, NULL },
	{ "linkhist", "histograms of per-link bytes or utilization of runs",
	  tool_cmd_linkhist, NULL },
	{ "map",   "write rank-to-node mapping files (rank order, blocked, ...)",
	  tool_cmd_map, NULL },
	{ "calibrate", "measure this machine under MPI, write a machine "
	  "description", tool_cmd_calibrate, NULL },
	{ "noise", "capture OS noise on this host and summarize noise sets",
	  NULL, noise_commands },
	{ "plot",  "draw simulator outputs (link utilization over time)",
	  tool_cmd_plot, NULL },
	{ "help",  "show the help of a command",
	  NULL, NULL },
	{ NULL, NULL, NULL, NULL }
};

static void print_usage(FILE *f, const char *prefix,
			const struct command *cmds)
{
	const struct command *c;

	fprintf(f, "Usage: %s COMMAND [ARGS]\n", prefix);
	if (cmds == top_commands)
		fprintf(f, "       %s --version | --help\n", prefix);
	else
		fprintf(f, "       %s --help\n", prefix);
	fputs("\nCommands:\n", f);
	for (c = cmds; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	/* prefix is "sibyl" or "sibyl GROUP": "sibyl help GROUP COMMAND". */
	fprintf(f, "\nRun '%s COMMAND --help' or 'sibyl help%s COMMAND'\n"
		"for the help of a command.\n", prefix,
		prefix + strlen("sibyl"));
	if (cmds == top_commands)
		fputs("\nOptions:\n"
		      "  -V, --version  print the version of Sibyl and of "
		      "its trace format, and exit\n"
		      "  -h, --help     print this help and exit\n", f);
	else
		fprintf(f, "\nOptions:\n"
			"  -h, --help     print this help and exit\n");
	fputs("\nExit status: 0 success, 1 problems found in the input "
	      "(e.g. a damaged\ntrace), 2 usage error or failure to run.\n",
	      f);
}

static const struct command *find_command(const struct command *cmds,
					  const char *name)
{
	const struct command *c;

	for (c = cmds; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int unknown_command(const char *prefix, const struct command *cmds,
			   const char *name)
{
	const struct command *c, *best = NULL;
	size_t bestd = (size_t)-1, n = strlen(name);

	for (c = cmds; c->name; c++) {
		size_t d = sib_edit_distance(name, c->name);

		/* A prefix ("dum", "unp") is as good as a typo. */
		if (n > 0 && strncmp(name, c->name, n) == 0)
			d = 1;
		if (d < bestd) {
			bestd = d;
			best = c;
		}
	}
	fflush(stdout);
	fprintf(stderr, "%s: unknown command '%s'.\n", prefix, name);
	if (best && bestd <= 2 && bestd < strlen(best->name))
		fprintf(stderr, "Did you mean '%s %s'?\n", prefix, best->name);
	fputs("Valid commands:", stderr);
	for (c = cmds; c->name; c++)
		fprintf(stderr, " %s", c->name);
	fprintf(stderr, "\nTry '%s --help'.\n", prefix);
	return TOOL_EXIT_USAGE;
}

/*
 * Run `cmd' with the arguments argv[0..argc), where argv[0] is the word
 * that named it.  `prefix' is the command line so far ("sibyl trace").
 */
static int run_command(const char *prefix, const struct command *cmd,
		       int argc, char **argv)
{
	static char name[128];
	const struct command *c;
	char sub_prefix[128];

	snprintf(sub_prefix, sizeof(sub_prefix), "%s %s", prefix, cmd->name);
	if (cmd->run) {
		snprintf(name, sizeof(name), "%s", sub_prefix);
		tool_name = name;
		argv[0] = name;
		return cmd->run(argc, argv);
	}

	tool_name = "sibyl";
	if (argc < 2) {
		fflush(stdout);
		fprintf(stderr, "%s: a command is needed.\n\n", sub_prefix);
		print_usage(stderr, sub_prefix, cmd->sub);
		return TOOL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout, sub_prefix, cmd->sub);
		return 0;
	}
	if (argv[1][0] == '-') {
		fflush(stdout);
		fprintf(stderr, "%s: unknown option '%s'.\nTry '%s --help'.\n",
			sub_prefix, argv[1], sub_prefix);
		return TOOL_EXIT_USAGE;
	}
	c = find_command(cmd->sub, argv[1]);
	if (!c)
		return unknown_command(sub_prefix, cmd->sub, argv[1]);
	return run_command(sub_prefix, c, argc - 1, argv + 1);
}

/* `sibyl help [COMMAND [SUBCOMMAND]]': the --help of the named command. */
static int run_help(int argc, char **argv)
{
	static char help_opt[] = "--help";
	const struct command *cmds = top_commands, *c;
	char prefix[128] = "sibyl";
	char *args[2];
	int i;

	for (i = 1; i < argc; i++) {
		if (i == 1 && (strcmp(argv[i], "--help") == 0 ||
			       strcmp(argv[i], "-h") == 0 ||
			       strcmp(argv[i], "help") == 0)) {
			puts("Usage: sibyl help [COMMAND [SUBCOMMAND]]\n\n"
			     "Show the help of a command: 'sibyl help trace "
			     "dump' is the same as\n'sibyl trace dump --help'."
			     "\n\nExit status: 0, or 2 for an unknown "
			     "command.");
			return 0;
		}
		c = find_command(cmds, argv[i]);
		if (!c)
			return unknown_command(prefix, cmds, argv[i]);
		if (c->run) {
			if (i + 1 < argc) {
				fflush(stdout);
				fprintf(stderr, "sibyl help: '%s %s' has no "
					"subcommand '%s'.\n", prefix, c->name,
					argv[i + 1]);
				return TOOL_EXIT_USAGE;
			}
			args[0] = argv[i];
			args[1] = help_opt;
			return run_command(prefix, c, 2, args);
		}
		cmds = c->sub;
		snprintf(prefix + strlen(prefix),
			 sizeof(prefix) - strlen(prefix), " %s", c->name);
	}
	print_usage(stdout, prefix, cmds);
	return 0;
}

/*
 * Report a failed write to stdout (disk full, closed descriptor).  A
 * reader that went away (EPIPE, e.g. `| head' with SIGPIPE ignored) is not
 * an error.
 */
static int close_stdout(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno == EPIPE)
		return status;
	if (status == 0) {
		tool_error("error writing standard output: %s",
			   errno ? strerror(errno) : "unknown error");
		return TOOL_EXIT_USAGE;
	}
	return status;
}

int main(int argc, char **argv)
{
	const struct command *c;
	int status;

	if (argc < 2) {
		fputs("sibyl: a command is needed.\n\n", stderr);
		print_usage(stderr, "sibyl", top_commands);
		return TOOL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("sibyl %s\n", PACKAGE_VERSION);
		printf("trace format %d.%d\n", SIBT_FORMAT_MAJOR,
		       SIBT_FORMAT_MINOR);
		return close_stdout(0);
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout, "sibyl", top_commands);
		return close_stdout(0);
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "sibyl: unknown option '%s'.\n"
			"Try 'sibyl --help'.\n", argv[1]);
		return TOOL_EXIT_USAGE;
	}
	c = find_command(top_commands, argv[1]);
	if (!c)
		return unknown_command("sibyl", top_commands, argv[1]);
	if (strcmp(c->name, "help") == 0)
		status = run_help(argc - 1, argv + 1);
	else
		status = run_command("sibyl", c, argc - 1, argv + 1);
	tool_temp_cleanup();
	return close_stdout(status);
}
