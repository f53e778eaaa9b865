/*
 * trace_pack.c -- `sibyl trace pack' and `sibyl trace unpack': a trace
 * directory to one archive (bundle) and back, through sibt_bundle_pack and
 * sibt_bundle_unpack.  Both refuse to replace an existing output unless
 * told to (--force), and --force never replaces something that is not of
 * the kind it would write.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools.h"

static const char pack_usage[] =
"Usage: sibyl trace pack [-o OUT] [--force] [--quiet] TRACE_DIR\n"
"\n"
"Pack the trace directory TRACE_DIR (its MANIFEST and data files) into one\n"
"archive, a bundle, that every Sibyl tool reads like the directory.  The\n"
"archive format follows the name of OUT: .tar, .tar.gz or .tgz, .tar.xz,\n"
".tar.bz2, .tar.zst (when libarchive supports it).  The archive is written\n"
"under a temporary name and renamed into place only when complete.\n"
"\n"
"Options:\n"
"  -o, --output OUT  the bundle to write (default: TRACE_DIR.tar.gz, e.g.\n"
"                    run.trace -> run.trace.tar.gz)\n"
"  -f, --force       replace OUT if it exists (never a directory)\n"
"  -q, --quiet       do not print the summary line\n"
"  -h, --help        print this help and exit\n"
"\n"
"Exit status:\n"
"  0  the bundle was written\n"
"  1  the bundle was written, but the trace is damaged (it is packed as\n"
"     it is; see the warnings)\n"
"  2  usage error, TRACE_DIR is not a readable trace, OUT exists, or the\n"
"     archive could not be written\n";

static const char unpack_usage[] =
"Usage: sibyl trace unpack [-o DIR] [--force] [--quiet] BUNDLE\n"
"\n"
"Unpack the bundle BUNDLE (a trace archive made by 'sibyl trace pack', or\n"
"any tar archive of a trace, compressed or not) into the trace directory\n"
"DIR.  Only the files of a trace are extracted; members with absolute\n"
"paths or '..' are refused.  The bundle is unpacked into a temporary\n"
"directory next to DIR and opened to verify that it reads; only then does\n"
"it take DIR's place, in one step, so that a failed unpack leaves DIR as\n"
"it was and a successful one leaves nothing of the trace it replaced.\n"
"\n"
"Options:\n"
"  -o, --output DIR  the directory to create (default: BUNDLE without its\n"
"                    archive suffix, e.g. run.trace.tar.gz -> run.trace)\n"
"  -f, --force       replace DIR if it exists; only an empty directory or\n"
"                    a trace directory is ever replaced\n"
"  -q, --quiet       do not print the summary line\n"
"  -h, --help        print this help and exit\n"
"\n"
"Exit status:\n"
"  0  the trace was unpacked and reads without damage\n"
"  1  the trace was unpacked but is damaged (see the messages), or the\n"
"     bundle holds no readable trace (then nothing was written)\n"
"  2  usage error, BUNDLE cannot be read as a trace archive (nothing was\n"
"     written), or DIR exists\n";

static const char *const bundle_suffixes[] = {
	".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tbz",
	".tar.zst", ".tzst", ".tar", NULL
};

/* path without trailing slashes (but "/" stays), in a new string. */
static char *strip_slashes(const char *path)
{
	char *s = strdup(path);
	size_t n;

	if (!s)
		return NULL;
	n = strlen(s);
	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	return s;
}

/* Size of the trace's data files, from the totals. */
static uint64_t trace_bytes(const sibt_trace *t)
{
	sibt_totals tot;

	sibt_trace_totals(t, &tot);
	return tot.file_bytes + tot.manifest_bytes;
}

/* Nonzero when `out' would be created inside directory `dir'. */
static int inside_dir(const char *out, const char *dir)
{
	char rdir[PATH_MAX], rparent[PATH_MAX], *parent, *slash;
	int inside = 0;

	parent = strdup(out);
	if (!parent)
		return 0;
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	if (realpath(dir, rdir) && realpath(parent, rparent))
		inside = strcmp(rdir, rparent) == 0;
	free(parent);
	return inside;
}

static int parse_common(int argc, char **argv, const char *usage,
			const char **out, int *force, int *quiet)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:fqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!optarg[0])
				return tool_usage_error("-o: the name is "
							"empty");
			*out = optarg;
			break;
		case 'f':
			*force = 1;
			break;
		case 'q':
			*quiet = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind >= argc)
		return tool_usage_error("missing %s", usage == pack_usage ?
					"TRACE_DIR (a trace directory)" :
					"BUNDLE (a trace archive)");
	if (optind + 1 < argc)
		return tool_usage_error("unexpected argument '%s' (only one "
					"input)", argv[optind + 1]);
	return -1;	/* go on */
}

int tool_cmd_trace_pack(int argc, char **argv)
{
	char errbuf[512] = "", b1[32], b2[32];
	const char *out = NULL;
	char *dir = NULL, *defout = NULL;
	sibt_trace *t;
	struct stat st;
	uint32_t nfiles;
	uint64_t in_bytes;
	int force = 0, quiet = 0, damaged, rc, status = TOOL_EXIT_USAGE, h;
	char *part = NULL;

	rc = parse_common(argc, argv, pack_usage, &out, &force, &quiet);
	if (rc >= 0)
		return rc;
	dir = strip_slashes(argv[optind]);
	if (!dir)
		goto nomem;
	if (stat(dir, &st) != 0) {
		tool_error("cannot read trace directory '%s': %s", dir,
			   strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		tool_error("'%s' is not a directory; a bundle is packed "
			   "already (to unpack it: sibyl trace unpack %s)",
			   dir, dir);
		goto out;
	}
	if (!out) {
		size_t n = strlen(dir) + sizeof(".tar.gz");

		defout = malloc(n);
		if (!defout)
			goto nomem;
		snprintf(defout, n, "%s.tar.gz", dir);
		out = defout;
	}
	if (lstat(out, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			tool_error("'%s' is a directory; name the bundle "
				   "file with -o", out);
			goto out;
		}
		if (!force) {
			tool_error("'%s' already exists; use --force to "
				   "replace it or -o to choose another name",
				   out);
			goto out;
		}
	}
	if (inside_dir(out, dir)) {
		tool_error("'%s' is inside the trace directory '%s'; write "
			   "the bundle elsewhere", out, dir);
		goto out;
	}

	/* Pack only what reads as a trace, and say so if it is damaged. */
	t = tool_open_trace(dir, 0, &damaged);
	if (!t)
		goto out;
	nfiles = sibt_trace_nfiles(t);
	in_bytes = trace_bytes(t);
	sibt_trace_close(t);
	if (damaged)
		tool_warn("'%s' is damaged; it is packed as it is", dir);

	/* The archive is written to OUT.partN (N: the process id modulo
	 * 100000, tracefmt/tf_bundle.c), which a signal removes. */
	part = malloc(strlen(out) + 32);
	if (!part)
		goto nomem;
	sprintf(part, "%s.part%d", out, (int)getpid() % 100000);
	h = tool_temp_add(part);
	rc = sibt_bundle_pack(dir, out, errbuf, sizeof(errbuf));
	tool_temp_forget(h);
	if (rc < 0) {
		tool_error("cannot pack '%s' into '%s': %s", dir, out,
			   errbuf[0] ? errbuf : sibt_strerror(rc));
		goto out;
	}
	if (!quiet) {
		uint64_t sz = stat(out, &st) == 0 ? (uint64_t)st.st_size : 0;

		printf("packed %s (%" PRIu32 " data file%s, %s) into %s (%s)\n",
		       dir, nfiles, nfiles == 1 ? "" : "s",
		       tool_fmt_bytes(b1, sizeof(b1), (double)in_bytes), out,
		       tool_fmt_bytes(b2, sizeof(b2), (double)sz));
	}
	status = damaged ? TOOL_EXIT_PROBLEMS : 0;
	goto out;

nomem:
	tool_error("out of memory");
out:
	free(part);
	free(defout);
	free(dir);
	return status;
}

/* BUNDLE minus its archive suffix, or NULL when it has none. */
static char *default_dir(const char *bundle)
{
	size_t n = strlen(bundle), k;
	int i;

	for (i = 0; bundle_suffixes[i]; i++) {
		k = strlen(bundle_suffixes[i]);
		if (n > k && strcmp(bundle + n - k, bundle_suffixes[i]) == 0 &&
		    bundle[n - k - 1] != '/')
			return strndup(bundle, n - k);
	}
	return NULL;
}

/* msg with every occurrence of `from' (a temporary directory) shown as
 * `to' (the directory it becomes), on stderr after the tool's name. */
static void error_as(const char *msg, const char *from, const char *to)
{
	size_t n = strlen(from);
	const char *p;

	fprintf(stderr, "%s: ", tool_name);
	while ((p = strstr(msg, from)) != NULL) {
		fwrite(msg, 1, (size_t)(p - msg), stderr);
		fputs(to, stderr);
		msg = p + n;
	}
	fprintf(stderr, "%s\n", msg);
}

int tool_cmd_trace_unpack(int argc, char **argv)
{
	char errbuf[1024] = "", b1[32];
	const char *out = NULL, *bundle;
	char *defout = NULL;
	sibt_trace *t = NULL;
	sibt_totals tot;
	struct stat st;
	int force = 0, quiet = 0, damaged, rc, exists;
	int status = TOOL_EXIT_USAGE;
	tool_out dest = { .kind = TOOL_OUT_TRACE, .handle = -1 };
	const char *inputs[2] = { NULL, NULL };

	rc = parse_common(argc, argv, unpack_usage, &out, &force, &quiet);
	if (rc >= 0)
		return rc;
	bundle = argv[optind];
	inputs[0] = bundle;
	if (stat(bundle, &st) != 0) {
		tool_error("cannot read bundle '%s': %s", bundle,
			   strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	if (S_ISDIR(st.st_mode)) {
		tool_error("'%s' is a directory, not a bundle; a trace "
			   "directory needs no unpacking", bundle);
		return TOOL_EXIT_USAGE;
	}
	if (!out) {
		defout = default_dir(bundle);
		if (!defout) {
			tool_error("cannot derive a directory name from '%s' "
				   "(no .tar, .tar.gz, .tgz, .tar.xz, "
				   ".tar.bz2 or .tar.zst suffix); name it "
				   "with -o DIR", bundle);
			return TOOL_EXIT_USAGE;
		}
		out = defout;
	}
	dest.path = out;
	dest.writer = tool_name;
	dest.force = force;
	dest.inputs = inputs;
	/* Unpack and verify beside `out' (the rule of every command that
	 * writes a directory, tools.h); `out' changes only at the end. */
	exists = lstat(out, &st) == 0;
	if ((status = tool_out_begin(&dest)) != 0)
		goto out;
	status = TOOL_EXIT_USAGE;
	rc = sibt_bundle_unpack(bundle, dest.stage, 1, errbuf,
				sizeof(errbuf));
	if (rc < 0) {
		tool_error("cannot unpack '%s': %s; nothing was written",
			   bundle, errbuf[0] ? errbuf : sibt_strerror(rc));
		goto out;
	}
	errbuf[0] = '\0';
	rc = sibt_trace_open(&t, dest.stage, 0, errbuf, sizeof(errbuf));
	if (rc < 0) {
		char msg[1400];

		snprintf(msg, sizeof(msg), "'%s' is not a readable trace: %s; "
			 "%s", bundle, errbuf[0] ? errbuf : sibt_strerror(rc),
			 exists ? "the trace in its place is left as it was" :
			 "nothing was written");
		error_as(msg, dest.stage, out);
		status = TOOL_EXIT_PROBLEMS;
		goto out;
	}
	sibt_trace_close(t);
	t = NULL;
	if (tool_out_commit(&dest) != 0)
		goto out;

	/* Report on the trace in its final place. */
	t = tool_open_trace(out, 0, &damaged);
	if (!t) {
		status = TOOL_EXIT_PROBLEMS;
		goto out;
	}
	sibt_trace_totals(t, &tot);
	if (!quiet)
		printf("unpacked %s into %s (%" PRIu32 " data file%s, %s SEBs)"
		       "\n", bundle, out, sibt_trace_nfiles(t),
		       sibt_trace_nfiles(t) == 1 ? "" : "s",
		       tool_fmt_count(b1, sizeof(b1), tot.sebs));
	sibt_trace_close(t);
	status = damaged ? TOOL_EXIT_PROBLEMS : 0;
out:
	tool_out_free(&dest);
	free(defout);
	return status;
}
