/*
 * linkhist.c -- `sibyl linkhist': histograms of the per-link bytes or
 * utilization of one or more simulator runs (OUT/links.csv), per link
 * class, on a scale common to all runs so that they can be compared
 * side by side (thesis Figure 6.1).  docs/links.md has the details.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsim.h"
#include "tools.h"

/* Utilizations are read in units of 10^-9, as links.csv writes them. */
#define UTIL_DECIMALS 9
#define UTIL_ONE UINT64_C(1000000000)

static const char linkhist_usage[] =
"Usage: sibyl linkhist [OPTIONS] OUT [OUT2 ...]\n"
"\n"
"Histograms of the links of simulator runs (OUT/links.csv, written by\n"
"every 'sibyl sim'): for each link class, how many links carried how\n"
"many bytes (or were how busy).  Every run gets the same bins, from 0 to\n"
"the largest value of the class over all the runs given, so the columns\n"
"compare runs (mappings, algorithms, machines) directly.\n"
"\n"
"Options:\n"
"  -b, --by WHAT      bytes (default) or utilization (busy time / run\n"
"                     time)\n"
"  -n, --bins N       number of bins (default 10)\n"
"  -m, --max V        the scale's top instead of the largest value: a\n"
"                     size (4MiB) with --by bytes, a decimal (0.5) with\n"
"                     --by utilization; links above it are counted as\n"
"                     'above'\n"
"  -c, --class LIST   only these classes, comma-separated (e.g. LL,D)\n"
"      --log          logarithmic bins from the smallest non-zero value\n"
"                     to the top; links at 0 are counted apart\n"
"      --csv FILE     also write the histograms as CSV: class,run,\n"
"                     bin_lo,bin_hi,links\n"
"      --plot FILE    also draw them (.png or .svg) with gnuplot: one\n"
"                     panel per class, the runs side by side\n"
"      --json         print JSON instead of the tables\n"
"  -h, --help         print this help and exit\n"
"\n"
"Exit status: 0 success; 1 a links.csv is damaged or gnuplot failed;\n"
"2 usage error (bad option, OUT without links.csv, no gnuplot).\n"
"\n"
"Examples:\n"
"  sibyl linkhist rank-order.sim blocked.sim\n"
"  sibyl linkhist --by utilization --class LL,LR,D --plot fig.png a b c\n";

/* One run: its links, with their class (an index into hist.classes). */
typedef struct run {
	const char *dir;
	uint32_t n;
	uint32_t *cls;
	uint64_t *val;
} run;

typedef struct hist {
	int by_util;
	uint32_t nbins;
	int log;
	int have_max;
	uint64_t max;             /* --max, in value units */
	run *runs;
	size_t nruns;
	fsim_names classes;       /* every class of every run, first seen */
	uint8_t *shown;           /* per class: selected by --class */
} hist;

/* The histogram of one class: per run, nbins counts + zero + above. */
typedef struct chist {
	uint32_t cls;
	uint64_t top;             /* the scale's top (> 0) */
	uint64_t low;             /* --log: the smallest non-zero value */
	double *edge;             /* --log: nbins + 1 edges, low .. top */
	uint64_t *count;          /* [run][nbins + 2]: bins, zero, above */
	uint64_t *links;          /* [run] */
	int any_zero, any_above;
} chist;

#define ZERO(h) ((h)->nbins)
#define ABOVE(h) ((h)->nbins + 1)

enum { C_CLASS, C_BYTES, C_UTIL, NCOLS };
static const char *const link_cols[NCOLS] = {
	"class", "bytes", "utilization"
};

static int load_run(hist *h, run *r)
{
	char path[4096], err[1024];
	struct stat sb;
	snprintf(path, sizeof path, "%s/links.csv", r->dir);
	if (stat(r->dir, &sb) || !S_ISDIR(sb.st_mode)) {
		tool_error("%s: no such output directory (give directories "
			   "written by 'sibyl sim -o OUT')", r->dir);
		return TOOL_EXIT_USAGE;
	}
	if (access(path, F_OK)) {
		tool_error("%s has no links.csv: run 'sibyl sim TRACE -o %s' "
			   "first", r->dir, r->dir);
		return TOOL_EXIT_USAGE;
	}
	fsim_csv *c;
	if (fsim_csv_open(&c, path, link_cols, NCOLS, err, sizeof err)) {
		tool_error("%s", err);
		return TOOL_EXIT_PROBLEMS;
	}
	size_t cap = 0;
	int rc;
	while ((rc = fsim_csv_next(c, err, sizeof err)) > 0) {
		/* Both numbers are checked: a damaged file is reported
		 * whatever the histogram is of. */
		uint64_t bytes, util;
		if (fsim_csv_u64(c, C_BYTES, &bytes, err, sizeof err) ||
		    fsim_csv_fixed(c, C_UTIL, UTIL_DECIMALS, &util, err,
				   sizeof err)) {
			rc = -1;
			break;
		}
		if (r->n == cap) {
			cap = cap ? 2 * cap : 1024;
			uint32_t *cl = realloc(r->cls, cap * sizeof *cl);
			if (cl)
				r->cls = cl;
			uint64_t *va = realloc(r->val, cap * sizeof *va);
			if (va)
				r->val = va;
			if (!cl || !va)
				goto nomem;
		}
		if (fsim_names_index(&h->classes, fsim_csv_get(c, C_CLASS),
				     &r->cls[r->n]))
			goto nomem;
		r->val[r->n++] = h->by_util ? util : bytes;
	}
	fsim_csv_close(c);
	if (rc < 0) {
		tool_error("%s", err);
		return TOOL_EXIT_PROBLEMS;
	}
	return 0;
nomem:
	fsim_csv_close(c);
	tool_error("out of memory");
	return TOOL_EXIT_USAGE;
}

/* --class: every name must be a class of some run. */
static int choose_classes(hist *h, const char *list)
{
	h->shown = calloc(h->classes.n ? h->classes.n : 1, 1);
	if (!h->shown) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	if (!list) {
		memset(h->shown, 1, h->classes.n);
		return 0;
	}
	char *copy = strdup(list), *save = NULL;
	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save)) {
		uint32_t c;
		for (c = 0; c < h->classes.n; c++)
			if (strcmp(h->classes.v[c], t) == 0)
				break;
		if (c == h->classes.n) {
			char known[1024] = "";
			for (uint32_t k = 0; k < h->classes.n; k++)
				sib_errcat(known, sizeof known, "%s%s",
					    k ? ", " : "", h->classes.v[k]);
			tool_error("--class: no link class '%s' in the runs "
				   "given; their classes are: %s", t,
				   h->classes.n ? known : "none");
			free(copy);
			return TOOL_EXIT_USAGE;
		}
		h->shown[c] = 1;
	}
	free(copy);
	return 0;
}

/* x^n by squaring. */
static double power(double x, uint32_t n)
{
	double r = 1;
	for (; n; n >>= 1, x *= x)
		if (n & 1)
			r *= x;
	return r;
}

/* Log bins: edge k = low * q^k with q^nbins = top / low (q found by
 * bisection, which needs no libm), the last edge exactly top. */
static int log_edges(const hist *h, chist *ch)
{
	ch->edge = malloc((h->nbins + 1) * sizeof *ch->edge);
	if (!ch->edge)
		return -1;
	double ratio = (double)ch->top / (double)ch->low, lo = 1, hi = ratio;
	for (int i = 0; i < 200 && hi - lo > lo * 1e-15; i++) {
		double mid = (lo + hi) / 2;
		if (power(mid, h->nbins) < ratio)
			lo = mid;
		else
			hi = mid;
	}
	for (uint32_t k = 0; k < h->nbins; k++)
		ch->edge[k] = (double)ch->low * power(lo, k);
	ch->edge[h->nbins] = (double)ch->top;
	return 0;
}

/* Bin of v (<= top) among nbins linear or log bins. */
static uint32_t bin_of(const hist *h, const chist *ch, uint64_t v)
{
	if (v >= ch->top)
		return h->nbins - 1;
	if (!h->log)
		return (uint32_t)((unsigned __int128)v * h->nbins / ch->top);
	uint32_t a = 0, b = h->nbins;    /* edge[a] <= v < edge[b] */
	while (b - a > 1) {
		uint32_t m = a + (b - a) / 2;
		if ((double)v >= ch->edge[m])
			a = m;
		else
			b = m;
	}
	return a;
}

static int build(const hist *h, chist *ch, uint32_t cls)
{
	size_t stride = h->nbins + 2;
	memset(ch, 0, sizeof *ch);
	ch->cls = cls;
	ch->count = calloc(h->nruns * stride, sizeof *ch->count);
	ch->links = calloc(h->nruns, sizeof *ch->links);
	if (!ch->count || !ch->links)
		return -1;
	uint64_t top = 0, low = UINT64_MAX;
	for (size_t r = 0; r < h->nruns; r++)
		for (uint32_t i = 0; i < h->runs[r].n; i++) {
			if (h->runs[r].cls[i] != cls)
				continue;
			uint64_t v = h->runs[r].val[i];
			if (v > top)
				top = v;
			if (v && v < low)
				low = v;
		}
	ch->top = h->have_max ? h->max : top;
	if (!ch->top)
		ch->top = 1;          /* every link at 0: one unit wide */
	ch->low = low == UINT64_MAX ? ch->top : low;
	if (ch->low > ch->top)
		ch->low = ch->top;
	if (h->log && log_edges(h, ch))
		return -1;
	for (size_t r = 0; r < h->nruns; r++)
		for (uint32_t i = 0; i < h->runs[r].n; i++) {
			if (h->runs[r].cls[i] != cls)
				continue;
			uint64_t v = h->runs[r].val[i];
			uint64_t *cnt = ch->count + r * stride;
			ch->links[r]++;
			if (v > ch->top) {
				cnt[ABOVE(h)]++;
				ch->any_above = 1;
			} else if (h->log && v == 0) {
				cnt[ZERO(h)]++;
				ch->any_zero = 1;
			} else {
				cnt[bin_of(h, ch, v)]++;
			}
		}
	return 0;
}

/* Edge k of the bins (0 .. nbins), in value units as a double (log) or
 * exactly as num/den (linear). */
static double log_edge(const hist *h, const chist *ch, uint32_t k)
{
	(void)h;
	return ch->edge[k];
}

/* An edge as a plain number for CSV and JSON: bytes, or utilization as a
 * fraction. */
static void put_edge(FILE *f, const hist *h, const chist *ch, uint32_t k)
{
	uint64_t unit = h->by_util ? UTIL_ONE : 1;
	if (h->log) {
		fprintf(f, "%.9g", log_edge(h, ch, k) / (double)unit);
		return;
	}
	char buf[64];
	unsigned __int128 num = (unsigned __int128)ch->top * k;
	unsigned __int128 den = (unsigned __int128)h->nbins * unit;
	unsigned dec = h->by_util ? 12 : 3;
	fsim_fmt_ratio(buf, sizeof buf, num, den, dec);
	/* Trailing zeros say nothing: 4096.000 -> 4096, 0.250 -> 0.25. */
	char *dot = strchr(buf, '.');
	if (dot) {
		char *e = buf + strlen(buf);
		while (e > dot + 1 && e[-1] == '0')
			*--e = '\0';
		if (e == dot + 1)
			*dot = '\0';
	}
	fputs(buf, f);
}

static void put_top(FILE *f, const hist *h, const chist *ch)
{
	put_edge(f, h, ch, h->nbins);
}

/* An edge for people: "1.50 KiB", "12.5%". */
static void human_edge(char *buf, size_t len, const hist *h,
		       const chist *ch, uint32_t k)
{
	double v = h->log ? log_edge(h, ch, k) :
		   (double)ch->top * k / h->nbins;
	if (h->by_util)
		snprintf(buf, len, "%.4g%%", v * 100 / (double)UTIL_ONE);
	else
		tool_fmt_bytes(buf, len, v);
}

/* ------------------------------------------------------------ outputs */

static void print_tables(FILE *f, const hist *h, const chist *chs,
			 uint32_t nch)
{
	int w = 6;
	for (size_t r = 0; r < h->nruns; r++)
		if ((int)strlen(h->runs[r].dir) > w)
			w = (int)strlen(h->runs[r].dir);
	fprintf(f, "Links by %s: %u %s bins per class, from %s to the largest "
		"value of the class over the %zu run%s%s\n",
		h->by_util ? "utilization" : "bytes", h->nbins,
		h->log ? "logarithmic" : "equal", h->log ?
		"the smallest non-zero value" : "0", h->nruns,
		h->nruns == 1 ? "" : "s", h->have_max ? " (or --max)" : "");
	for (uint32_t i = 0; i < nch; i++) {
		const chist *ch = &chs[i];
		char lo[64], hi[64];
		human_edge(lo, sizeof lo, h, ch, 0);
		human_edge(hi, sizeof hi, h, ch, h->nbins);
		fprintf(f, "\n%s (scale %s to %s)\n", h->classes.v[ch->cls],
			h->log ? lo : "0", hi);
		fprintf(f, "  %-12s %-12s", "from", "to");
		for (size_t r = 0; r < h->nruns; r++)
			fprintf(f, "  %*s", w, h->runs[r].dir);
		fputc('\n', f);
		size_t stride = h->nbins + 2;
		if (ch->any_zero) {
			fprintf(f, "  %-12s %-12s", "0", "(exactly)");
			for (size_t r = 0; r < h->nruns; r++)
				fprintf(f, "  %*" PRIu64, w,
					ch->count[r * stride + ZERO(h)]);
			fputc('\n', f);
		}
		for (uint32_t b = 0; b < h->nbins; b++) {
			human_edge(lo, sizeof lo, h, ch, b);
			human_edge(hi, sizeof hi, h, ch, b + 1);
			fprintf(f, "  %-12s %-12s", lo, hi);
			for (size_t r = 0; r < h->nruns; r++)
				fprintf(f, "  %*" PRIu64, w,
					ch->count[r * stride + b]);
			fputc('\n', f);
		}
		if (ch->any_above) {
			human_edge(lo, sizeof lo, h, ch, h->nbins);
			fprintf(f, "  %-12s %-12s", "above", lo);
			for (size_t r = 0; r < h->nruns; r++)
				fprintf(f, "  %*" PRIu64, w,
					ch->count[r * stride + ABOVE(h)]);
			fputc('\n', f);
		}
		fprintf(f, "  %-25s", "links");
		for (size_t r = 0; r < h->nruns; r++)
			fprintf(f, "  %*" PRIu64, w, ch->links[r]);
		fputc('\n', f);
	}
}

static void csv_row(FILE *f, const hist *h, const chist *ch, size_t r,
		    int kind, uint32_t b, uint64_t n)
{
	fsim_csv_field(f, h->classes.v[ch->cls]);
	fputc(',', f);
	fsim_csv_field(f, h->runs[r].dir);
	fputc(',', f);
	if (kind == 0) {
		fputs("0,0", f);
	} else if (kind == 2) {
		put_top(f, h, ch);
		fputs(",inf", f);
	} else {
		put_edge(f, h, ch, b);
		fputc(',', f);
		put_edge(f, h, ch, b + 1);
	}
	fprintf(f, ",%" PRIu64 "\n", n);
}

static int write_csv(const char *path, const hist *h, const chist *chs,
		     uint32_t nch)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		tool_error("%s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	fprintf(f, "class,run,bin_lo,bin_hi,links\n");
	size_t stride = h->nbins + 2;
	for (uint32_t i = 0; i < nch; i++) {
		const chist *ch = &chs[i];
		for (size_t r = 0; r < h->nruns; r++) {
			const uint64_t *cnt = ch->count + r * stride;
			if (ch->any_zero)
				csv_row(f, h, ch, r, 0, 0, cnt[ZERO(h)]);
			for (uint32_t b = 0; b < h->nbins; b++)
				csv_row(f, h, ch, r, 1, b, cnt[b]);
			if (ch->any_above)
				csv_row(f, h, ch, r, 2, 0, cnt[ABOVE(h)]);
		}
	}
	if (ferror(f) | fclose(f)) {
		tool_error("%s: write error", path);
		return TOOL_EXIT_PROBLEMS;
	}
	return 0;
}

static void json_counts(FILE *f, const hist *h, const chist *ch, uint32_t b)
{
	size_t stride = h->nbins + 2;
	fputc('[', f);
	for (size_t r = 0; r < h->nruns; r++)
		fprintf(f, "%s%" PRIu64, r ? ", " : "",
			ch->count[r * stride + b]);
	fputc(']', f);
}

static void print_json(FILE *f, const hist *h, const chist *chs,
		       uint32_t nch)
{
	fprintf(f, "{\"by\": \"%s\", \"bins\": %u, \"log\": %s, \"runs\": [",
		h->by_util ? "utilization" : "bytes", h->nbins,
		h->log ? "true" : "false");
	for (size_t r = 0; r < h->nruns; r++) {
		fprintf(f, "%s", r ? ", " : "");
		tool_json_string(f, h->runs[r].dir, strlen(h->runs[r].dir));
	}
	fprintf(f, "],\n \"classes\": [");
	for (uint32_t i = 0; i < nch; i++) {
		const chist *ch = &chs[i];
		fprintf(f, "%s\n  {\"class\": ", i ? "," : "");
		const char *name = h->classes.v[ch->cls];
		tool_json_string(f, name, strlen(name));
		fprintf(f, ", \"top\": ");
		put_top(f, h, ch);
		fprintf(f, ", \"links\": [");
		for (size_t r = 0; r < h->nruns; r++)
			fprintf(f, "%s%" PRIu64, r ? ", " : "", ch->links[r]);
		fprintf(f, "],\n   \"bins\": [");
		for (uint32_t b = 0; b < h->nbins; b++) {
			fprintf(f, "%s\n    {\"lo\": ", b ? "," : "");
			put_edge(f, h, ch, b);
			fprintf(f, ", \"hi\": ");
			put_edge(f, h, ch, b + 1);
			fprintf(f, ", \"links\": ");
			json_counts(f, h, ch, b);
			fputc('}', f);
		}
		fprintf(f, "],\n   \"zero\": ");
		json_counts(f, h, ch, ZERO(h));
		fprintf(f, ", \"above\": ");
		json_counts(f, h, ch, ABOVE(h));
		fputc('}', f);
	}
	fprintf(f, "\n ]\n}\n");
}

/* One panel per class; in each, the runs' bars side by side per bin. */
static int draw(const char *out, const hist *h, const chist *chs,
		uint32_t nch)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	if (!f) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	size_t stride = h->nbins + 2;
	for (uint32_t i = 0; i < nch; i++) {
		const chist *ch = &chs[i];
		fprintf(f, "$c%u << EOD\n", i);
		for (uint32_t k = 0; k < h->nbins + 2; k++) {
			char lo[64], hi[64], label[160];
			uint32_t b = k < 1 ? ZERO(h) : k <= h->nbins ? k - 1 :
				     ABOVE(h);
			if ((b == ZERO(h) && !ch->any_zero) ||
			    (b == ABOVE(h) && !ch->any_above))
				continue;
			if (b == ZERO(h)) {
				snprintf(label, sizeof label, "0");
			} else if (b == ABOVE(h)) {
				human_edge(lo, sizeof lo, h, ch, h->nbins);
				snprintf(label, sizeof label, "> %s", lo);
			} else {
				human_edge(lo, sizeof lo, h, ch, b);
				human_edge(hi, sizeof hi, h, ch, b + 1);
				snprintf(label, sizeof label, "%s-%s", lo, hi);
			}
			/* gnuplot data strings: double quotes, none inside. */
			for (char *p = label; *p; p++)
				if (*p == '"')
					*p = '\'';
			fprintf(f, "\"%s\"", label);
			for (size_t r = 0; r < h->nruns; r++)
				fprintf(f, " %" PRIu64,
					ch->count[r * stride + b]);
			fputc('\n', f);
		}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set multiplot layout %u,1 title ", nch);
	char t[128];
	snprintf(t, sizeof t, "Links by %s", h->by_util ? "utilization" :
		 "bytes");
	tool_plot_quote(f, t);
	fprintf(f, "\nset style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set boxwidth 0.9\nset xtics rotate by -30 scale 0 font ',8'\n"
		"set ylabel 'links'\nset yrange [0:*]\nset grid ytics\n"
		"set offsets 0, 0, graph 0.1, 0\nset key top right\n"
		"set xlabel '%s per link'\n", h->by_util ? "utilization" :
		"bytes");
	for (uint32_t i = 0; i < nch; i++) {
		/* Whole numbers of links on the axis, about eight tics. */
		uint64_t most = 0;
		for (size_t k = 0; k < h->nruns * stride; k++)
			if (chs[i].count[k] > most)
				most = chs[i].count[k];
		fprintf(f, "set ytics 0, %" PRIu64 "\nset title ",
			most > 8 ? (most + 7) / 8 : 1);
		tool_plot_quote(f, h->classes.v[chs[i].cls]);
		fprintf(f, "\nplot ");
		for (size_t r = 0; r < h->nruns; r++) {
			fprintf(f, "%s$c%u using %zu%s title ", r ? ", " : "",
				i, r + 2, r ? "" : ":xtic(1)");
			tool_plot_quote(f, h->runs[r].dir);
		}
		fputc('\n', f);
	}
	fprintf(f, "unset multiplot\n");
	if (fclose(f)) {
		free(body);
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	int rc = tool_plot_run(out, 900, 320 * (int)nch + 60, body);
	free(body);
	return rc;
}

/* ------------------------------------------------------------ options */

static int parse_max(hist *h, const char *s)
{
	if (!h->by_util) {
		if (tool_parse_size("--max", s, &h->max))
			return TOOL_EXIT_USAGE;
	} else {
		const sib_param p = { "--max", SIB_P_RATIO, NULL, NULL, NULL };
		sib_value v;
		char err[512];
		if (sib_parse_value(&p, NULL, s, &v, err, sizeof err)) {
			tool_error("%s", err);
			return TOOL_EXIT_USAGE;
		}
		/* num/den in units of 10^-9, rounded to nearest. */
		h->max = (uint64_t)(((unsigned __int128)v.num * UTIL_ONE +
				     (uint64_t)v.den / 2) / (uint64_t)v.den);
	}
	if (!h->max) {
		tool_error("--max: the scale's top must be greater than 0 (got "
			   "'%s')", s);
		return TOOL_EXIT_USAGE;
	}
	h->have_max = 1;
	return 0;
}

static void hist_free(hist *h)
{
	for (size_t r = 0; r < h->nruns; r++) {
		free(h->runs[r].cls);
		free(h->runs[r].val);
	}
	free(h->runs);
	fsim_names_free(&h->classes);
	free(h->shown);
}

enum { OPT_LOG = 256, OPT_CSV, OPT_PLOT, OPT_JSON };

int tool_cmd_linkhist(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "bins", required_argument, NULL, 'n' },
		{ "max", required_argument, NULL, 'm' },
		{ "class", required_argument, NULL, 'c' },
		{ "log", no_argument, NULL, OPT_LOG },
		{ "csv", required_argument, NULL, OPT_CSV },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	hist h;
	memset(&h, 0, sizeof h);
	h.nbins = 10;
	const char *maxs = NULL, *classes = NULL, *csv = NULL, *plot = NULL;
	int json = 0, c;
	while ((c = getopt_long(argc, argv, ":b:n:m:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (strcmp(optarg, "bytes") == 0)
				h.by_util = 0;
			else if (strcmp(optarg, "utilization") == 0)
				h.by_util = 1;
			else
				return tool_usage_error("--by: '%s' is not "
							"bytes or utilization",
							optarg);
			break;
		case 'n': {
			uint64_t n;
			if (tool_parse_u64("--bins", optarg, &n))
				return TOOL_EXIT_USAGE;
			if (n < 1 || n > 10000)
				return tool_usage_error("--bins: give 1 to 10000 "
							"bins (got %s)", optarg);
			h.nbins = (uint32_t)n;
			break;
		}
		case 'm':
			maxs = optarg;
			break;
		case 'c':
			classes = optarg;
			break;
		case OPT_LOG:
			h.log = 1;
			break;
		case OPT_CSV:
			csv = optarg;
			break;
		case OPT_PLOT:
			plot = optarg;
			break;
		case OPT_JSON:
			json = 1;
			break;
		case 'h':
			fputs(linkhist_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (optind >= argc)
		return tool_usage_error("no output directory given (the OUT of "
					"'sibyl sim -o OUT')");
	/* --max is read once --by is known, whatever the order. */
	if (maxs && parse_max(&h, maxs))
		return TOOL_EXIT_USAGE;
	if (plot) {
		int rc = tool_plot_check(plot);
		if (rc)
			return rc;
	}
	int rc = TOOL_EXIT_USAGE;
	chist *chs = NULL;
	uint32_t nch = 0;
	h.nruns = (size_t)(argc - optind);
	h.runs = calloc(h.nruns, sizeof *h.runs);
	if (!h.runs) {
		tool_error("out of memory");
		goto out;
	}
	for (size_t r = 0; r < h.nruns; r++) {
		h.runs[r].dir = argv[optind + (int)r];
		if ((rc = load_run(&h, &h.runs[r])))
			goto out;
	}
	if ((rc = choose_classes(&h, classes)))
		goto out;
	rc = TOOL_EXIT_USAGE;
	chs = calloc(h.classes.n ? h.classes.n : 1, sizeof *chs);
	if (!chs) {
		tool_error("out of memory");
		goto out;
	}
	for (uint32_t k = 0; k < h.classes.n; k++) {
		if (!h.shown[k])
			continue;
		if (build(&h, &chs[nch++], k)) {
			tool_error("out of memory");
			goto out;
		}
	}
	if (!nch) {
		tool_error("the runs given have no links (their network model "
			   "reports none)");
		rc = TOOL_EXIT_PROBLEMS;
		goto out;
	}
	if (json)
		print_json(stdout, &h, chs, nch);
	else
		print_tables(stdout, &h, chs, nch);
	rc = 0;
	if (csv && (rc = write_csv(csv, &h, chs, nch)))
		goto out;
	if (plot)
		rc = draw(plot, &h, chs, nch);
out:
	for (uint32_t i = 0; chs && i < nch; i++) {
		free(chs[i].count);
		free(chs[i].links);
		free(chs[i].edge);
	}
	free(chs);
	hist_free(&h);
	return rc;
}
