/*
 * calibrate.c -- `sibyl calibrate': measure this machine (or the hosts
 * given) with sibyl-probe under mpirun, fit piecewise models to the
 * samples (calib_fit.c) and write a machine description, a report and
 * plots (calib_write.c) into one output directory.
 *
 * The output is staged like every other output directory (tools.h,
 * tool_out_*): a refused or failed run leaves nothing passed off as
 * complete.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calib.h"
#include "tools.h"

extern char **environ;

static const char calibrate_usage[] =
"Usage: sibyl calibrate [OPTIONS] [-- MPIRUN-OPTIONS...]\n"
"       sibyl calibrate --samples FILE [OPTIONS]\n"
"\n"
"Measure this machine under Open MPI and write a machine description for\n"
"'sibyl sim -c': point-to-point times for message sizes from 0 B to\n"
"--max-size in randomized order (blocking and non-blocking ping-pong, the\n"
"send and receive overheads), inside a node and, when the hosts given\n"
"hold several nodes, across nodes; memcpy bandwidth; a reference kernel\n"
"on every rank.  The one-way times are fitted with piecewise-linear\n"
"models whose breakpoints (MPI's protocol changes) are found from the\n"
"data, written as [intranode] and [net] 'protocols' tables.\n"
"\n"
"Where:\n"
"  (nothing)             two ranks on this host (inside a node)\n"
"      --hostfile FILE   the hosts of FILE, two ranks on each of the\n"
"                        first two nodes (mpirun --map-by ppr:2:node)\n"
"      --np P            ranks to start (default 2; 4 with --hostfile)\n"
"  -- OPTIONS            passed to mpirun before the probe, e.g.\n"
"                        -- --host a:2,b:2 --map-by ppr:2:node\n"
"\n"
"Measurement:\n"
"      --quick           30 sizes, 3 samples each (a few seconds)\n"
"      --sizes N         message sizes, at least (default 60)\n"
"      --reps R          samples of each kind and size (default 10)\n"
"      --max-size S      largest message (default 16MiB)\n"
"      --seed S          seed of the sizes and the order (default 1)\n"
"      --samples FILE    fit FILE (a samples.csv of an earlier run)\n"
"                        instead of measuring\n"
"      --regime R        when the host alternated between two speed\n"
"                        regimes (a 1-byte reference measured before\n"
"                        every sample shows two groups): auto (default,\n"
"                        the one with more samples), fast, slow or all\n"
"\n"
"Output:\n"
"  -o, --output DIR      the output directory (default calibration):\n"
"                        machine.conf, report.txt, report.json,\n"
"                        samples.csv, points.csv, fit.csv and the plots\n"
"                        pingpong-intra.png (and pingpong-inter.png)\n"
"  -f, --force           replace DIR if it is an earlier output\n"
"      --no-plots        do not draw the plots (no gnuplot needed)\n"
"      --json            print the fit's summary as JSON on standard output\n"
"  -q, --quiet           no progress and no summary\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 success; 1 the measurement failed (the probe or mpirun\n"
"failed); 2 usage error or failure to write.\n"
"\n"
"Examples:\n"
"  sibyl calibrate -o mymachine\n"
"  sibyl sim app.trace -c mymachine/machine.conf\n"
"  sibyl calibrate --hostfile hosts -o cluster\n";

/* sibyl-probe's options. */
typedef struct calib_opts {
	const char *out, *hostfile, *samples;
	uint64_t np, sizes, reps, max_size, seed;
	int force, plots, json, quiet, np_given, regime;
	char **pass;
	int npass;
} calib_opts;

enum {
	OPT_HOSTFILE = 256, OPT_NP, OPT_QUICK, OPT_SIZES, OPT_REPS,
	OPT_MAX_SIZE, OPT_SEED, OPT_SAMPLES, OPT_NO_PLOTS, OPT_JSON,
	OPT_REGIME
};

static const struct option calib_opts_long[] = {
	{ "hostfile", required_argument, NULL, OPT_HOSTFILE },
	{ "np", required_argument, NULL, OPT_NP },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "sizes", required_argument, NULL, OPT_SIZES },
	{ "reps", required_argument, NULL, OPT_REPS },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "samples", required_argument, NULL, OPT_SAMPLES },
	{ "regime", required_argument, NULL, OPT_REGIME },
	{ "no-plots", no_argument, NULL, OPT_NO_PLOTS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, 'f' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* A count within [lo, hi]; TOOL_EXIT_USAGE after a message. */
static int count(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		 uint64_t *out)
{
	if (tool_parse_u64(opt, s, out))
		return TOOL_EXIT_USAGE;
	if (*out < lo || *out > hi)
		return tool_usage_error("%s: %s is out of range (%" PRIu64
					" to %" PRIu64 ")", opt, s, lo, hi);
	return 0;
}

static int calib_option(calib_opts *o, int c)
{
	switch (c) {
	case OPT_HOSTFILE: o->hostfile = optarg; return 0;
	case OPT_NP:
		o->np_given = 1;
		return count("--np", optarg, 2, 1 << 20, &o->np);
	case OPT_QUICK: o->sizes = 30; o->reps = 3; return 0;
	case OPT_SIZES: return count("--sizes", optarg, 3, 10000, &o->sizes);
	case OPT_REPS: return count("--reps", optarg, 1, 1000, &o->reps);
	case OPT_MAX_SIZE:
		if (tool_parse_size("--max-size", optarg, &o->max_size))
			return TOOL_EXIT_USAGE;
		if (o->max_size < 1024 || o->max_size > (1ULL << 30))
			return tool_usage_error("--max-size: %s is out of "
						"range (1KiB to 1GiB)", optarg);
		return 0;
	case OPT_SEED:
		return tool_parse_u64("--seed", optarg, &o->seed) ?
		       TOOL_EXIT_USAGE : 0;
	case OPT_SAMPLES: o->samples = optarg; return 0;
	case OPT_REGIME:
		if (!strcmp(optarg, "auto"))
			o->regime = CALIB_REGIME_AUTO;
		else if (!strcmp(optarg, "all"))
			o->regime = CALIB_REGIME_ALL;
		else if (!strcmp(optarg, "fast"))
			o->regime = CALIB_REGIME_FAST;
		else if (!strcmp(optarg, "slow"))
			o->regime = CALIB_REGIME_SLOW;
		else
			return tool_usage_error("--regime: '%s' is not auto, "
						"fast, slow or all", optarg);
		return 0;
	case OPT_NO_PLOTS: o->plots = 0; return 0;
	case OPT_JSON: o->json = 1; return 0;
	case 'o':
		if (!optarg[0])
			return tool_usage_error("-o: the directory name is "
						"empty");
		o->out = optarg;
		return 0;
	case 'f': o->force = 1; return 0;
	case 'q': o->quiet = 1; return 0;
	default: return -1;
	}
}

/* -1 to go on, else the exit status. */
static int calib_parse(int argc, char **argv, calib_opts *o)
{
	int c, rc;

	while ((c = getopt_long(argc, argv, ":o:fqh", calib_opts_long,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(calibrate_usage, stdout);
			return 0;
		}
		rc = calib_option(o, c);
		if (rc > 0)
			return rc;
		if (rc < 0)
			return tool_bad_option(c, argv);
	}
	o->pass = argv + optind;
	o->npass = argc - optind;
	if (o->samples && (o->hostfile || o->np_given || o->npass))
		return tool_usage_error("--samples fits a file: --hostfile, "
					"--np and mpirun options do not apply");
	if (o->npass && optind > 0 && strcmp(argv[optind - 1], "--"))
		return tool_usage_error("unexpected argument '%s'; mpirun "
					"options go after '--'", o->pass[0]);
	if (!o->np_given)
		o->np = o->hostfile ? 4 : 2;
	return -1;
}

/* sibyl-probe: $SIBYL_PROBE, beside this program in the build tree, or
 * where `make install' put it.  NULL after a message. */
static char *find_probe(void)
{
	const char *env = getenv("SIBYL_PROBE");
	char self[4096], *p;
	ssize_t n;

	if (env && *env)
		return strdup(env);
	n = readlink("/proc/self/exe", self, sizeof self - 64);
	if (n > 0) {
		self[n] = '\0';
		if ((p = strrchr(self, '/'))) {
			for (int up = 0; up < 2; up++) {
				strcpy(p, "/calibrate/sibyl-probe");
				if (access(self, X_OK) == 0)
					return strdup(self);
				*p = '\0';
				if (!(p = strrchr(self, '/')))
					break;
			}
		}
	}
	if (access(SIBYL_PKGLIBEXECDIR "/sibyl-probe", X_OK) == 0)
		return strdup(SIBYL_PKGLIBEXECDIR "/sibyl-probe");
	tool_error("cannot find sibyl-probe (looked beside this program and "
		   "in " SIBYL_PKGLIBEXECDIR "); reinstall Sibyl or set "
		   "SIBYL_PROBE to its path");
	return NULL;
}

/* Run mpirun with the probe, writing samples into path.  0, or an exit
 * status after a message. */
static int run_probe(const calib_opts *o, const char *probe,
		     const char *path)
{
	char np[32], sizes[32], reps[32], maxs[32], seed[32], krep[32];
	char *av[64 + o->npass];
	int n = 0, status;
	pid_t pid;

	snprintf(np, sizeof np, "%" PRIu64, o->np);
	snprintf(sizes, sizeof sizes, "%" PRIu64, o->sizes);
	snprintf(reps, sizeof reps, "%" PRIu64, o->reps);
	snprintf(maxs, sizeof maxs, "%" PRIu64, o->max_size);
	snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
	snprintf(krep, sizeof krep, "%d", o->reps < 5 ? 2 : 5);
	av[n++] = (char *)MPIRUN_PATH;
	av[n++] = "-np";
	av[n++] = np;
	if (geteuid() == 0)
		av[n++] = "--allow-run-as-root";
	if (o->hostfile) {
		av[n++] = "--hostfile";
		av[n++] = (char *)o->hostfile;
		av[n++] = "--map-by";
		av[n++] = "ppr:2:node";
	} else if (!o->npass && o->np > (uint64_t)sysconf(_SC_NPROCESSORS_ONLN)) {
		av[n++] = "--oversubscribe";
	}
	for (int i = 0; i < o->npass; i++)
		av[n++] = o->pass[i];
	av[n++] = (char *)probe;
	av[n++] = "--out";
	av[n++] = (char *)path;
	av[n++] = "--sizes";
	av[n++] = sizes;
	av[n++] = "--reps";
	av[n++] = reps;
	av[n++] = "--max-size";
	av[n++] = maxs;
	av[n++] = "--seed";
	av[n++] = seed;
	av[n++] = "--kernel-reps";
	av[n++] = krep;
	if (o->quiet)
		av[n++] = "--quiet";
	av[n] = NULL;
	fflush(NULL);
	if ((errno = posix_spawn(&pid, av[0], NULL, NULL, av, environ))) {
		tool_error("cannot start %s: %s", av[0], strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			tool_error("waiting for mpirun: %s", strerror(errno));
			return TOOL_EXIT_PROBLEMS;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		tool_error("the measurement failed: mpirun %s %d (its messages "
			   "are above); nothing was written",
			   WIFEXITED(status) ? "exited with" : "was killed by "
			   "signal", WIFEXITED(status) ? WEXITSTATUS(status) :
			   WTERMSIG(status));
		return TOOL_EXIT_PROBLEMS;
	}
	return 0;
}

/* Copy the file at from to the file at to. */
static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "r"), *out = in ? fopen(to, "w") : NULL;
	char buf[65536];
	size_t n;
	int rc = 0;

	if (!in || !out) {
		tool_error("cannot copy %s to %s: %s", from, to,
			   strerror(errno));
		if (in)
			fclose(in);
		return TOOL_EXIT_USAGE;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = TOOL_EXIT_USAGE;
	if (ferror(in) | fclose(in) | ferror(out) | fclose(out) || rc) {
		tool_error("cannot copy %s to %s", from, to);
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

static void say_summary(const calib_data *d, const char *out)
{
	fflush(stdout);
	for (int p = 0; p < CP_N; p++) {
		if (!d->npieces[p])
			continue;
		fprintf(stderr, "%s: %s-node ping-pong: %zu sizes, %d range%s, "
			"the largest messages at %.3f GB/s\n", tool_name,
			calib_pair_names[p], d->sum[CK_PP][p].n,
			d->npieces[p], d->npieces[p] == 1 ? "" : "s",
			d->pieces[p][d->npieces[p] - 1].bandwidth / 1e9);
		if (d->reg[p].n == 2)
			fprintf(stderr, "%s: %s-node: the host ran in two speed "
				"regimes (1-byte one-way %.3f us and %.3f us); "
				"fitted: %s (--regime)\n", tool_name,
				calib_pair_names[p], d->reg[p].median[0] * 1e6,
				d->reg[p].median[1] * 1e6,
				d->reg[p].fitted < 0 ? "all samples" :
				d->reg[p].fitted ? "the slow one" :
				"the fast one");
	}
	fprintf(stderr, "%s: wrote %s/machine.conf and %s/report.txt\n",
		tool_name, out, out);
}

/* Measure (or take the samples), fit and write into the stage. */
static int calibrate_into(const calib_opts *o, const char *stage)
{
	char samples[4096];
	calib_data d;
	char *probe;
	int rc;

	snprintf(samples, sizeof samples, "%s/samples.csv", stage);
	if (o->samples) {
		/* Read (and so check: a regular file of samples, within the
		 * reader's limits) before copying: messages name the file
		 * the user gave, and /dev/zero is refused, not copied. */
		if (calib_read(&d, o->samples))
			return TOOL_EXIT_USAGE;
		if ((rc = copy_file(o->samples, samples))) {
			calib_free(&d);
			return rc;
		}
	} else {
		if (!(probe = find_probe()))
			return TOOL_EXIT_USAGE;
		rc = run_probe(o, probe, samples);
		free(probe);
		if (rc)
			return rc;
		if (calib_read(&d, samples))
			return TOOL_EXIT_PROBLEMS;
	}
	d.regime = o->regime;
	rc = calib_fit(&d);
	rc = rc == -2 ? TOOL_EXIT_USAGE : rc ? TOOL_EXIT_PROBLEMS :
	     calib_write(&d, stage, sysconf(_SC_NPROCESSORS_ONLN), o->plots);
	if (!rc && o->json)
		calib_json(&d, stdout);
	if (!rc && !o->quiet)
		say_summary(&d, o->out);
	calib_free(&d);
	return rc;
}

int tool_cmd_calibrate(int argc, char **argv)
{
	calib_opts o = {
		.out = "calibration", .sizes = 60, .reps = 10,
		.max_size = 16777216, .seed = 1, .plots = 1,
		.regime = CALIB_REGIME_AUTO,
	};
	const char *inputs[2] = { NULL, NULL };
	tool_out dest = { 0 };
	int rc;

	if ((rc = calib_parse(argc, argv, &o)) >= 0)
		return rc;
	if (o.plots && (rc = tool_plot_check("x.png"))) {
		fprintf(stderr, "%s: pass --no-plots to calibrate without "
			"the plots\n", tool_name);
		return rc;
	}
	inputs[0] = o.samples;
	dest = (tool_out){ .path = o.out, .kind = TOOL_OUT_MARKED,
			   .writer = "sibyl calibrate", .force = o.force,
			   .inputs = inputs };
	if (tool_out_begin(&dest))
		return TOOL_EXIT_USAGE;
	rc = calibrate_into(&o, dest.stage);
	if (!rc)
		rc = tool_out_commit(&dest) ? TOOL_EXIT_USAGE : 0;
	tool_out_free(&dest);
	return rc;
}
