/*
 * plot.c -- `sibyl plot KIND': draw simulator outputs with gnuplot, and
 * the gnuplot runner the other tools share (tools.h, tool_plot_*).
 *
 * Kinds: linkseries, the stacked utilization over time of chosen links
 * from OUT/linkseries.csv (thesis Figure 9.1).  docs/links.md has the
 * details.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsim.h"
#include "tools.h"

/* ------------------------------------------------------ gnuplot runner */

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Is there an executable gnuplot on PATH? */
static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		return 0;
	char *copy = strdup(path), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(copy, ":", &save); copy && d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char f[4096];
		snprintf(f, sizeof f, "%s/gnuplot", *d ? d : ".");
		found = access(f, X_OK) == 0;
	}
	free(copy);
	return found;
}

int tool_plot_check(const char *out)
{
	if (!ends_with(out, ".png") && !ends_with(out, ".svg")) {
		tool_error("%s: the plot file must end in .png or .svg", out);
		return TOOL_EXIT_USAGE;
	}
	if (!have_gnuplot()) {
		tool_error("gnuplot is not installed (not found on PATH): "
			   "install the package gnuplot-nox (apt-get install "
			   "gnuplot-nox) to draw plots");
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

void tool_plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

int tool_plot_run(const char *out, int width, int height, const char *body)
{
	int rc = tool_plot_check(out);
	if (rc)
		return rc;
	size_t l = strlen(out) + 32;
	char *tmp = malloc(l), *script = malloc(l + 8);
	if (!tmp || !script) {
		free(tmp);
		free(script);
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	/* gnuplot writes into a temporary image next to `out' and the
	 * script lies beside it: nothing half-drawn is ever left as out. */
	snprintf(tmp, l, "%s.tmp-%ld", out, (long)getpid());
	snprintf(script, l + 8, "%s.gp", tmp);
	rc = TOOL_EXIT_PROBLEMS;
	FILE *f = fopen(script, "w");
	if (!f) {
		tool_error("%s: %s", script, strerror(errno));
		rc = TOOL_EXIT_USAGE;
		goto out;
	}
	int svg = ends_with(out, ".svg");
	if (svg)
		fprintf(f, "set terminal svg size %d,%d dynamic background "
			"rgb 'white' font 'sans,11'\n", width, height);
	else
		fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d font 'sans,10'\n"
			"} else {\n  set terminal png size %d,%d\n}\n", width,
			height, width, height);
	fprintf(f, "set termoption noenhanced\nset output ");
	tool_plot_quote(f, tmp);
	fprintf(f, "\n%s\nunset output\n", body);
	if (ferror(f) | fclose(f)) {
		tool_error("%s: write error", script);
		goto out;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		tool_error("cannot start gnuplot: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		fprintf(stderr, "%s: cannot run gnuplot: %s\n", tool_name,
			strerror(errno));
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	struct stat sb;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		tool_error("gnuplot failed (%s %d) drawing %s; its messages are "
			   "above", WIFEXITED(st) ? "exit status" : "signal",
			   WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), out);
		goto out;
	}
	if (stat(tmp, &sb) || sb.st_size == 0) {
		tool_error("gnuplot drew nothing into %s", out);
		goto out;
	}
	if (rename(tmp, out)) {
		tool_error("cannot write %s: %s", out, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	unlink(script);
	if (rc)
		unlink(tmp);
	free(tmp);
	free(script);
	return rc;
}

/* ----------------------------------------------------------- linkseries */

static const char series_usage[] =
"Usage: sibyl plot linkseries OUT [--links SEL] -o FILE.png|FILE.svg\n"
"\n"
"Draw the utilization over time of links recorded by 'sibyl sim\n"
"--link-trace' (OUT/linkseries.csv), stacked: each link is a band as\n"
"thick as its utilization in each interval, so the top of the stack is\n"
"their sum and can exceed 100% when links work at the same time.\n"
"\n"
"Options:\n"
"  -l, --links SEL   the links to draw: class names and link ids or\n"
"                    ranges, e.g. nic-out or LL,D or 0-30,55 (default:\n"
"                    every link of the series)\n"
"  -o, --output FILE the image to write: .png or .svg (required)\n"
"  -t, --title TEXT  the title (default: the links and OUT)\n"
"  -h, --help        print this help and exit\n"
"\n"
"Needs gnuplot (Debian package gnuplot-nox).  Exit status: 0 success;\n"
"1 gnuplot failed or OUT/linkseries.csv is damaged; 2 usage error.\n"
"\n"
"Example:\n"
"  sibyl sim a2a.trace --link-trace 5us --link-select 0-2 -o a2a\n"
"  sibyl plot linkseries a2a -o a2a-links.png\n";

/* One link of the series. */
typedef struct slink {
	uint32_t id, cls;
	double *util;             /* per interval (selected links only) */
} slink;

typedef struct series {
	char path[4096];
	slink *links;             /* by id, present ones have cls valid */
	uint32_t nids;            /* max id + 1 */
	fsim_names classes;
	uint64_t nbins;
	sib_ps interval;
} series;

enum { C_START, C_END, C_LINK, C_CLASS, C_BUSY, NCOLS };
static const char *const series_cols[NCOLS] = {
	"start_ps", "end_ps", "link", "class", "busy_ps"
};

static void series_free(series *s)
{
	for (uint32_t i = 0; i < s->nids; i++)
		free(s->links[i].util);
	free(s->links);
	fsim_names_free(&s->classes);
}

/* A row's numbers, with the file's line in errors. */
static int row_numbers(fsim_csv *c, uint64_t *start, uint64_t *end,
		       uint64_t *id, uint64_t *busy)
{
	char err[1024];
	if (fsim_csv_u64(c, C_START, start, err, sizeof err) ||
	    fsim_csv_u64(c, C_END, end, err, sizeof err) ||
	    fsim_csv_u64(c, C_LINK, id, err, sizeof err) ||
	    fsim_csv_u64(c, C_BUSY, busy, err, sizeof err)) {
		tool_error("%s", err);
		return -1;
	}
	return 0;
}

/* Pass 1: which links and classes, how many intervals of what length. */
static int series_scan(series *s)
{
	char err[1024];
	fsim_csv *c;
	if (fsim_csv_open(&c, s->path, series_cols, NCOLS, err, sizeof err)) {
		tool_error("%s", err);
		return -1;
	}
	int r;
	uint64_t first_start = UINT64_MAX;
	while ((r = fsim_csv_next(c, err, sizeof err)) > 0) {
		uint64_t st, en, id, busy;
		if (row_numbers(c, &st, &en, &id, &busy))
			goto fail;
		if (id > UINT32_MAX - 1 || en <= st || en - st > INT64_MAX) {
			tool_error("%s: a row with link %" PRIu64 " and interval "
				   "%" PRIu64 "..%" PRIu64 " ps, which sibyl sim "
				   "does not write", s->path, id, st, en);
			goto fail;
		}
		if (!s->interval) {
			s->interval = (sib_ps)(en - st);
			first_start = st;
		}
		if ((sib_ps)(en - st) != s->interval ||
		    st % (uint64_t)s->interval || first_start != 0) {
			tool_error("%s: the intervals are not all %" PRId64 " ps "
				   "long starting at 0 (interval %" PRIu64 "..%"
				   PRIu64 ")", s->path, s->interval, st, en);
			goto fail;
		}
		uint64_t bin = st / (uint64_t)s->interval;
		if (bin + 1 > s->nbins)
			s->nbins = bin + 1;
		if (id >= s->nids) {
			slink *l = realloc(s->links, (id + 1) * sizeof *l);
			if (!l)
				goto nomem;
			for (uint64_t k = s->nids; k <= id; k++)
				l[k] = (slink){ .id = (uint32_t)k,
						.cls = UINT32_MAX };
			s->links = l;
			s->nids = (uint32_t)id + 1;
		}
		uint32_t cls;
		if (fsim_names_index(&s->classes, fsim_csv_get(c, C_CLASS),
				     &cls))
			goto nomem;
		s->links[id].cls = cls;
	}
	if (r < 0) {
		tool_error("%s", err);
		goto fail;
	}
	fsim_csv_close(c);
	if (!s->nids || !s->nbins) {
		tool_error("%s holds no intervals: the run predicted no time, "
			   "so there is nothing to draw", s->path);
		return -1;
	}
	return 0;
nomem:
	tool_error("out of memory");
fail:
	fsim_csv_close(c);
	return -1;
}

/* Pass 2: the utilization of the selected links. */
static int series_load(series *s, const uint8_t *sel)
{
	char err[1024];
	fsim_csv *c;
	for (uint32_t i = 0; i < s->nids; i++) {
		if (!sel[i])
			continue;
		s->links[i].util = calloc(s->nbins, sizeof(double));
		if (!s->links[i].util) {
			tool_error("out of memory for %" PRIu64 " intervals",
				   s->nbins);
			return -1;
		}
	}
	if (fsim_csv_open(&c, s->path, series_cols, NCOLS, err, sizeof err)) {
		tool_error("%s", err);
		return -1;
	}
	int r;
	while ((r = fsim_csv_next(c, err, sizeof err)) > 0) {
		uint64_t st, en, id, busy;
		if (row_numbers(c, &st, &en, &id, &busy)) {
			fsim_csv_close(c);
			return -1;
		}
		if (id < s->nids && sel[id] && st / (uint64_t)s->interval <
		    s->nbins)
			s->links[id].util[st / (uint64_t)s->interval] =
				(double)busy / (double)s->interval;
	}
	fsim_csv_close(c);
	if (r < 0) {
		tool_error("%s", err);
		return -1;
	}
	return 0;
}

/* A unit for the time axis so that its numbers stay readable. */
static void time_unit(sib_ps end, double *div, const char **name)
{
	static const struct { double div; const char *name; } u[] = {
		{ 1e12, "s" }, { 1e9, "ms" }, { 1e6, "us" }, { 1e3, "ns" },
	};
	size_t n = sizeof u / sizeof u[0];
	for (size_t i = 0; i < n; i++) {
		if ((double)end >= 10 * u[i].div || i + 1 == n) {
			*div = u[i].div;
			*name = u[i].name;
			return;
		}
	}
}

/* The gnuplot script: one band per link between cumulative sums, as
 * steps (each interval a flat segment). */
static char *series_script(const series *s, const uint8_t *sel,
			   uint32_t nsel, const char *title, const char *out_dir)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	double div;
	const char *unit;
	sib_ps end = (sib_ps)s->nbins * s->interval;
	time_unit(end, &div, &unit);
	fprintf(f, "$data << EOD\n");
	double *cum = calloc(nsel + 1, sizeof *cum);
	for (uint64_t b = 0; cum && b < s->nbins; b++) {
		uint32_t j = 0;
		for (uint32_t i = 0; i < s->nids; i++)
			if (sel[i]) {
				cum[j + 1] = cum[j] + 100 * s->links[i].util[b];
				j++;
			}
		for (int edge = 0; edge < 2; edge++) {
			fprintf(f, "%.9g", (double)(b + (uint64_t)edge) *
				(double)s->interval / div);
			for (uint32_t k = 0; k <= nsel; k++)
				fprintf(f, " %.9g", cum[k]);
			fputc('\n', f);
		}
	}
	free(cum);
	fprintf(f, "EOD\nset title ");
	if (title) {
		tool_plot_quote(f, title);
	} else {
		char t[4200];
		snprintf(t, sizeof t, "Link utilization, stacked (%u link%s of "
			 "%s)", nsel, nsel == 1 ? "" : "s", out_dir);
		tool_plot_quote(f, t);
	}
	fprintf(f, "\nset xlabel 'time (%s)'\nset ylabel 'utilization (%%), "
		"stacked'\nset xrange [0:%.9g]\nset yrange [0:*]\n"
		"set style fill solid 0.75 border -1\nset grid ytics\n",
		unit, (double)end / div);
	if (nsel <= 16)
		fprintf(f, "set key outside right top vertical\n");
	else
		fprintf(f, "unset key\n");
	fprintf(f, "plot ");
	uint32_t j = 0;
	for (uint32_t i = 0; i < s->nids; i++) {
		if (!sel[i])
			continue;
		char name[256];
		snprintf(name, sizeof name, "link %u (%s)", i,
			 s->classes.v[s->links[i].cls]);
		fprintf(f, "%s$data using 1:%u:%u with filledcurves title ",
			j ? ", \\\n     " : "", j + 2, j + 3);
		tool_plot_quote(f, name);
		j++;
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int plot_linkseries(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "links", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *links = NULL, *out = NULL, *title = NULL;
	int c;
	while ((c = getopt_long(argc, argv, ":l:o:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			links = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			fputs(series_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind != argc - 1)
		return tool_usage_error(optind >= argc ? "no output directory "
					"given" : "one output directory at a "
					"time");
	if (!out)
		return tool_usage_error("no image given: -o FILE.png or -o "
					"FILE.svg");
	int rc = tool_plot_check(out);
	if (rc)
		return rc;
	const char *dir = argv[optind];
	series s;
	memset(&s, 0, sizeof s);
	snprintf(s.path, sizeof s.path, "%s/linkseries.csv", dir);
	struct stat sb;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		tool_error("%s: not an output directory of sibyl sim", dir);
		return TOOL_EXIT_USAGE;
	}
	if (access(s.path, F_OK)) {
		tool_error("%s has no linkseries.csv: run 'sibyl sim TRACE -o "
			   "%s --link-trace INTERVAL' first (e.g. "
			   "--link-trace 10us)", dir, dir);
		return TOOL_EXIT_USAGE;
	}
	uint8_t *sel = NULL;
	uint32_t *class_of = NULL;
	rc = TOOL_EXIT_PROBLEMS;
	if (series_scan(&s))
		goto out;
	sel = malloc(s.nids);
	class_of = malloc(s.nids * sizeof *class_of);
	if (!sel || !class_of) {
		tool_error("out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < s.nids; i++)
		class_of[i] = s.links[i].cls;
	char err[2048];
	if (fsim_link_select(links ? links : "all", "--links", s.path, s.nids,
			     class_of, (const char *const *)s.classes.v,
			     s.classes.n, sel, err, sizeof err)) {
		tool_error("%s", err);
		rc = TOOL_EXIT_USAGE;
		goto out;
	}
	uint32_t nsel = 0;
	for (uint32_t i = 0; i < s.nids; i++) {
		if (sel[i] && s.links[i].cls == UINT32_MAX) {
			tool_error("--links: link %u is not in %s (sibyl sim "
				   "recorded the links chosen by its "
				   "--link-select)", i, s.path);
			rc = TOOL_EXIT_USAGE;
			goto out;
		}
		nsel += sel[i];
	}
	if (series_load(&s, sel))
		goto out;
	char *body = series_script(&s, sel, nsel, title, dir);
	if (!body) {
		tool_error("out of memory");
		goto out;
	}
	rc = tool_plot_run(out, 1000, 500, body);
	free(body);
out:
	free(sel);
	free(class_of);
	series_free(&s);
	return rc;
}

/* --------------------------------------------------------------- kinds */

static const struct {
	const char *name, *summary;
	int (*run)(int argc, char **argv);
} plot_kinds[] = {
	{ "linkseries", "stacked utilization over time of chosen links "
	  "(from sim --link-trace)", plot_linkseries },
};

#define NKINDS (sizeof plot_kinds / sizeof plot_kinds[0])

static void plot_help(FILE *f)
{
	fprintf(f, "Usage: sibyl plot KIND OUT [OPTIONS] -o FILE.png|FILE.svg\n"
		"\nDraw outputs of 'sibyl sim' with gnuplot (Debian package "
		"gnuplot-nox).\n\nKinds:\n");
	for (size_t i = 0; i < NKINDS; i++)
		fprintf(f, "  %-12s %s\n", plot_kinds[i].name,
			plot_kinds[i].summary);
	fprintf(f, "\n'sibyl plot KIND --help' gives the options of a kind.  "
		"Histograms of\nper-link bytes and utilization: 'sibyl "
		"linkhist --plot'.\n");
}

int tool_cmd_plot(int argc, char **argv)
{
	if (argc < 2)
		return tool_usage_error("no plot kind given (linkseries)");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		plot_help(stdout);
		return 0;
	}
	for (size_t i = 0; i < NKINDS; i++) {
		if (strcmp(argv[1], plot_kinds[i].name))
			continue;
		static char name[128];
		snprintf(name, sizeof name, "%s %s", argv[0], argv[1]);
		tool_name = name;
		argv[1] = name;
		return plot_kinds[i].run(argc - 1, argv + 1);
	}
	tool_error("unknown plot kind '%s'; the kinds are:", argv[1]);
	for (size_t i = 0; i < NKINDS; i++)
		fprintf(stderr, "  %-12s %s\n", plot_kinds[i].name,
			plot_kinds[i].summary);
	return TOOL_EXIT_USAGE;
}
