/*
 * calib_write.c -- `sibyl calibrate': the machine description, the
 * report (text and JSON), the data files and the plots (calib.h).
 *
 * Times are written in nanoseconds to the picosecond and bandwidths in
 * whole bytes per second, so that the machine description reads back
 * exactly what was fitted (sibyl sim parses values exactly).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib.h"
#include "tools.h"

/* t seconds as "123.456ns" (whole picoseconds). */
static const char *ns(char *buf, size_t len, double t)
{
	long long ps = llround(t * 1e12);

	snprintf(buf, len, "%lld.%03lldns", ps / 1000, ps % 1000);
	return buf;
}

/* A bandwidth in whole bytes per second. */
static const char *bps(char *buf, size_t len, double bw)
{
	snprintf(buf, len, "%.0fB/s", bw < 1 ? 1 : bw > 9e18 ? 9e18 : bw);
	return buf;
}

/* A line's growth with the size (its slope b, s a byte) for the report:
 * "+ n / X GB/s", or "(flat)" for a time that does not grow. */
static const char *growth(char *buf, size_t len, double b)
{
	if (b > 1e-18)
		snprintf(buf, len, "+ n / %.3f GB/s", 1e-9 / b);
	else
		snprintf(buf, len, "(flat)");
	return buf;
}

/* The `stream' value of a stream fit: a range per segment. */
static void write_stream(FILE *f, const cal_fit *s)
{
	for (int k = 0; k < s->n; k++) {
		char b[2][48];
		const cal_segment *g = &s->seg[k];

		fprintf(f, "%s%.0f: latency=%s bandwidth=%s", k ? "; " : "",
			g->x0, ns(b[0], 48, g->a),
			bps(b[1], 48, g->b > 1e-18 ? 1 / g->b : 1e18));
	}
}

/* The `protocols' value of pair p. */
static void write_protocols(FILE *f, const calib_data *d, int p)
{
	char b[4][48];

	for (int s = 0; s < d->npieces[p]; s++) {
		const calib_piece *c = &d->pieces[p][s];

		fprintf(f, "%s%" PRIu64 ": latency=%s bandwidth=%s os=%s or=%s",
			s ? "; " : "", c->from, ns(b[0], 48, c->latency),
			bps(b[1], 48, c->bandwidth), ns(b[2], 48, c->os),
			ns(b[3], 48, c->or));
		if (c->os_per_byte > 0)
			fprintf(f, " os_per_byte=%s",
				ns(b[0], 48, c->os_per_byte));
	}
}

static void write_section(FILE *f, const calib_data *d, int p)
{
	const calib_piece *c0 = &d->pieces[p][0];
	const calib_piece *cl = &d->pieces[p][d->npieces[p] - 1];
	char b[2][48];

	fprintf(f, "# %d range%s fitted to %zu message sizes; the largest "
		"messages move at %.3f GB/s.\n", d->npieces[p],
		d->npieces[p] == 1 ? "" : "s", d->sum[CK_PP][p].n,
		cl->bandwidth / 1e9);
	fprintf(f, "latency = %s\nbandwidth = %s\nprotocols = ",
		ns(b[0], 48, c0->os + c0->latency + c0->or),
		bps(b[1], 48, cl->bandwidth));
	write_protocols(f, d, p);
	fputc('\n', f);
}

static const char *const regime_names[2] = { "fast", "slow" };

/* One line on the regimes of pair p ("" when it shows one or none). */
static const char *regime_line(const calib_data *d, int p, char *buf,
			       size_t len)
{
	const calib_regimes *g = &d->reg[p];
	size_t all = g->count[0] + g->count[1];
	char b[3][48];

	if (g->n < 2) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, len, "two speed regimes: a 1-byte one-way time of %s "
		 "(fast, %.0f%% of the samples) or %s (slow, %.0f%%), apart "
		 "at %s; fitted: %s", ns(b[0], 48, g->median[0]),
		 100.0 * (double)g->count[0] / (double)all,
		 ns(b[1], 48, g->median[1]),
		 100.0 * (double)g->count[1] / (double)all,
		 ns(b[2], 48, g->bound),
		 g->fitted < 0 ? "all samples" : regime_names[g->fitted]);
	return buf;
}

static int write_machine(const calib_data *d, const char *path, long cores)
{
	char reg[CP_N][512];
	FILE *f = fopen(path, "w");
	time_t now = time(NULL);
	char when[64] = "";

	if (!f) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "# Machine description written by sibyl calibrate, %s,\n"
		"# from: %s\n#\n# Load it with: sibyl sim TRACE -c "
		"machine.conf\n# The report (report.txt) gives the measured "
		"points, the fit and its error.\n\n[machine]\n# This host's "
		"cores; set the target's with --set "
		"machine.cores_per_node=C.\ncores_per_node = %ld\n", when,
		d->header[0] ? d->header : "(no probe header)", cores);
	for (int p = 0; p < CP_N; p++)
		regime_line(d, p, reg[p], sizeof reg[p]);
	if (d->npieces[CP_INTRA]) {
		fputs("\n[intranode]\n# Between two ranks of one node.\n", f);
		if (reg[CP_INTRA][0])
			fprintf(f, "# The samples show %s.\n", reg[CP_INTRA]);
		write_section(f, d, CP_INTRA);
		fputs("# The receiving core copies the bytes: the copies into "
		      "a rank take turns\n# (a window of messages in flight "
		      "moves at the copy bandwidth).\nserialize = yes\n", f);
		if (d->stream_n[CP_INTRA]) {
			fprintf(f, "# A stream of messages (64 in flight; %zu "
				"sizes): a message's turn,\n# latency + bytes "
				"/ bandwidth of its range.\nstream = ",
				d->stream_n[CP_INTRA]);
			write_stream(f, &d->stream[CP_INTRA]);
			fputc('\n', f);
		}
	}
	fputs("\n[net]\nmodel = simple\n", f);
	if (d->npieces[CP_INTER]) {
		fputs("# Between two nodes.\n", f);
		if (reg[CP_INTER][0])
			fprintf(f, "# The samples show %s.\n", reg[CP_INTER]);
		fputs("o = 0\n", f);
		write_section(f, d, CP_INTER);
		fputs("# The messages leaving a node pass its NIC one at a "
		      "time.\nnic = serialize\n", f);
	} else {
		fputs("# No inter-node pair was measured (one host): the "
		      "network keeps the simple\n# model's defaults.  "
		      "Calibrate with --hostfile to measure it.\n", f);
	}
	if (ferror(f) | fclose(f)) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

/* points.csv: per pair, kind and size, the summary; fit.csv: the model
 * and the default at the measured sizes and between them. */
static int write_points(const calib_data *d, const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/points.csv", dir);
	if (!(f = fopen(path, "w")))
		goto fail;
	fputs("kind,pair,size,median_s,min_s,max_s,mad_s,samples,outliers\n",
	      f);
	for (int k = 0; k < CK_KERNEL; k++)
		for (int p = 0; p < CP_N; p++)
			for (size_t i = 0; i < d->sum[k][p].n; i++) {
				const calib_point *q = &d->sum[k][p].p[i];

				fprintf(f, "%s,%s,%" PRIu64 ",%.9e,%.9e,%.9e,"
					"%.9e,%u,%u\n", calib_kind_names[k],
					k == CK_COPY ? "" :
					calib_pair_names[p], q->size,
					q->median, q->min, q->max, q->mad,
					q->n, q->outliers);
			}
	if (ferror(f) | fclose(f))
		goto fail;
	snprintf(path, sizeof path, "%s/fit.csv", dir);
	if (!(f = fopen(path, "w")))
		goto fail;
	fputs("pair,size,model_s,default_s\n", f);
	for (int p = 0; p < CP_N; p++)
		for (int i = 0; d->npieces[p] && i <= 240; i++) {
			uint64_t n = i ? (uint64_t)llround(exp2(i / 10.0)) : 0;

			fprintf(f, "%s,%" PRIu64 ",%.9e,%.9e\n",
				calib_pair_names[p], n,
				calib_model_time(d, p, n),
				calib_default_time(p, n));
		}
	if (ferror(f) | fclose(f))
		goto fail;
	return 0;
fail:
	tool_error("cannot write %s: %s", path, strerror(errno));
	return TOOL_EXIT_USAGE;
}

/* Relative error of the model (or the default) against the medians of
 * pair p: the largest and the median. */
static void errors(const calib_data *d, int p, int dflt, double *max,
		   double *med)
{
	const calib_summary *s = &d->sum[CK_PP][p];
	double *e = malloc((s->n + 1) * sizeof *e);

	*max = *med = 0;
	if (!e)
		return;
	for (size_t i = 0; i < s->n; i++) {
		double m = s->p[i].median, t = dflt ?
			calib_default_time(p, s->p[i].size) :
			calib_model_time(d, p, s->p[i].size);

		e[i] = m > 0 ? fabs(t - m) / m : 0;
		if (e[i] > *max)
			*max = e[i];
	}
	*med = cal_median(e, s->n);
	free(e);
}

static void report_pair(FILE *f, const calib_data *d, int p)
{
	const calib_summary *s = &d->sum[CK_PP][p];
	double emax, emed, dmax, dmed;
	char b[5][48], reg[512];

	errors(d, p, 0, &emax, &emed);
	errors(d, p, 1, &dmax, &dmed);
	fprintf(f, "\n%s-node ping-pong (one way, MPI_Send/MPI_Recv): %d "
		"range%s\n", p == CP_INTRA ? "Intra" : "Inter",
		d->npieces[p], d->npieces[p] == 1 ? "" : "s");
	if (regime_line(d, p, reg, sizeof reg)[0])
		fprintf(f, "  %s\n", reg);
	fprintf(f, "  %-10s %-13s %-14s %-12s %-13s %-12s %s\n", "from",
		"latency", "bandwidth", "os", "os_per_byte", "or",
		"line a + b n");
	for (int i = 0; i < d->npieces[p]; i++) {
		const calib_piece *c = &d->pieces[p][i];
		char line[48];

		fprintf(f, "  %-10" PRIu64 " %-13s %-9.3f GB/s %-12s %-13s "
			"%-12s %s %s\n", c->from,
			ns(b[0], 48, c->latency), c->bandwidth / 1e9,
			ns(b[1], 48, c->os), ns(b[4], 48, c->os_per_byte),
			ns(b[2], 48, c->or), ns(b[3], 48, c->a),
			growth(line, sizeof line, c->b));
	}
	fprintf(f, "  error against the measured medians: calibrated %.1f%% "
		"median, %.1f%% worst; uncalibrated default %.1f%% median, "
		"%.1f%% worst\n", 100 * emed, 100 * emax, 100 * dmed,
		100 * dmax);
	fprintf(f, "  %10s %12s %12s %12s %12s %7s %12s %7s %s\n", "size",
		"median", "min", "max", "calibrated", "error", "default",
		"error", "outliers");
	for (size_t i = 0; i < s->n; i++) {
		const calib_point *q = &s->p[i];
		double t = calib_model_time(d, p, q->size);
		double u = calib_default_time(p, q->size);

		fprintf(f, "  %10" PRIu64 " %12s %12s %12s %12s %+6.1f%% %12s "
			"%+6.1f%% %u/%u\n", q->size, ns(b[0], 48, q->median),
			ns(b[1], 48, q->min), ns(b[2], 48, q->max),
			ns(b[3], 48, t), 100 * (t - q->median) / q->median,
			ns(b[4], 48, u), 100 * (u - q->median) / q->median,
			q->outliers, q->n);
	}
}

static void report_cores(FILE *f, const calib_data *d)
{
	double lo = 0, hi = 0;

	if (d->copy_bw > 0)
		fprintf(f, "\nmemcpy bandwidth (largest size, rank 0): %.3f "
			"GB/s\n", d->copy_bw / 1e9);
	for (int p = 0; p < CP_N; p++) {
		const cal_fit *s = &d->stream[p];

		if (!d->stream_n[p])
			continue;
		fprintf(f, "%s-node stream (64 messages in flight; %zu "
			"sizes), "
			"time a message adds: %d range%s\n",
			calib_pair_names[p], d->stream_n[p], s->n,
			s->n == 1 ? "" : "s");
		for (int k = 0; k < s->n; k++) {
			char line[48];

			fprintf(f, "  from %-10.0f %10.3f ns %s\n",
				s->seg[k].x0, s->seg[k].a * 1e9,
				growth(line, sizeof line, s->seg[k].b));
		}
	}
	if (!d->ncores)
		return;
	fputs("\nReference kernel, median time per rank (spatial "
	      "variability):\n", f);
	for (size_t i = 0; i < d->ncores; i++) {
		const calib_core *c = &d->cores[i];

		fprintf(f, "  rank %-4d %-20s cpu %-4d %.6f s\n", c->rank,
			c->host, c->cpu, c->median);
		if (!i || c->median < lo)
			lo = c->median;
		if (!i || c->median > hi)
			hi = c->median;
	}
	fprintf(f, "  slowest / fastest: %.4f\n", lo > 0 ? hi / lo : 0);
}

static int write_report(const calib_data *d, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	fprintf(f, "sibyl calibrate report\nsamples: %s\n",
		d->header[0] ? d->header : "(no probe header)");
	for (int p = 0; p < CP_N; p++)
		if (d->npieces[p])
			report_pair(f, d, p);
	report_cores(f, d);
	if (ferror(f) | fclose(f)) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

void calib_json(const calib_data *d, FILE *f)
{
	fputs("{\n  \"pairs\": {", f);
	for (int p = 0, first = 1; p < CP_N; p++) {
		double emax, emed, dmax, dmed;

		if (!d->npieces[p])
			continue;
		errors(d, p, 0, &emax, &emed);
		errors(d, p, 1, &dmax, &dmed);
		fprintf(f, "%s\n    \"%s\": {\"sizes\": %zu, \"error_median\": "
			"%.6f, \"error_max\": %.6f, \"default_error_median\": "
			"%.6f, \"default_error_max\": %.6f, ",
			first ? "" : ",", calib_pair_names[p],
			d->sum[CK_PP][p].n, emed, emax, dmed, dmax);
		{
			const calib_regimes *g = &d->reg[p];

			fprintf(f, "\"regimes\": %d, \"regime_fitted\": %s%s%s, "
				"\"regime_bound_s\": %.6e, "
				"\"regime_ref_s\": [%.6e, %.6e], "
				"\"regime_samples\": [%zu, %zu], \"ranges\": [",
				g->n, g->n < 2 || g->fitted < 0 ? "" : "\"",
				g->n < 2 ? "null" : g->fitted < 0 ? "\"all\"" :
				regime_names[g->fitted],
				g->n < 2 || g->fitted < 0 ? "" : "\"",
				g->n < 2 ? 0 : g->bound, g->median[0],
				g->n < 2 ? 0 : g->median[1], g->count[0],
				g->count[1]);
		}
		for (int s = 0; s < d->npieces[p]; s++) {
			const calib_piece *c = &d->pieces[p][s];

			fprintf(f, "%s{\"from\": %" PRIu64 ", \"latency_s\": "
				"%.6e, \"bandwidth_Bps\": %.6e, \"os_s\": "
				"%.6e, \"os_per_byte_s\": %.6e, \"or_s\": "
				"%.6e}", s ? ", " : "", c->from, c->latency,
				c->bandwidth, c->os, c->os_per_byte, c->or);
		}
		fputs("]}", f);
		first = 0;
	}
	fprintf(f, "\n  },\n  \"copy_bandwidth_Bps\": %.6e,\n  \"cores\": [",
		d->copy_bw);
	for (size_t i = 0; i < d->ncores; i++)
		fprintf(f, "%s{\"rank\": %d, \"cpu\": %d, \"kernel_s\": %.6e}",
			i ? ", " : "", d->cores[i].rank, d->cores[i].cpu,
			d->cores[i].median);
	fputs("]\n}\n", f);
}

/* The ping-pong plot of pair p: samples, medians, the fitted model and
 * the default, log-log (figure 7 of the HPL study, figure 1 of the
 * energy paper). */
static int plot_pair(const calib_data *d, const char *dir, int p)
{
	char out[4096], body[8192];
	const char *pn = calib_pair_names[p];

	snprintf(out, sizeof out, "%s/pingpong-%s.png", dir, pn);
	snprintf(body, sizeof body,
		 "set datafile separator ','\nset logscale xy\n"
		 "set xlabel 'message size (bytes)'\n"
		 "set ylabel 'one-way time (s)'\nset key top left\n"
		 "set title '%s-node ping-pong: measured and fitted'\n"
		 "plot '%s/samples.csv' using ($3 > 0 && strcol(1) eq "
		 "'pingpong' && strcol(2) eq '%s' ? $3 : 1/0):4 with points "
		 "pt 7 ps 0.3 lc rgb '#b0b0b0' title 'samples', "
		 "'%s/points.csv' using ($3 > 0 && strcol(1) eq 'pingpong' && "
		 "strcol(2) eq '%s' ? $3 : 1/0):4 with points pt 7 ps 0.6 "
		 "lc rgb 'black' title 'median', "
		 "'%s/fit.csv' using ($2 > 0 && strcol(1) eq '%s' ? $2 : "
		 "1/0):3 with lines lw 2 lc rgb 'red' title 'calibrated "
		 "model', '' using ($2 > 0 && strcol(1) eq '%s' ? $2 : 1/0):4 "
		 "with lines dt 2 lc rgb 'blue' title 'uncalibrated default'",
		 p == CP_INTRA ? "Intra" : "Inter", dir, pn, dir, pn, dir, pn,
		 pn);
	return tool_plot_run(out, 900, 600, body);
}

int calib_write(const calib_data *d, const char *dir, long cores,
		int plots)
{
	char path[4096];
	FILE *f;
	int rc;

	snprintf(path, sizeof path, "%s/machine.conf", dir);
	if ((rc = write_machine(d, path, cores)))
		return rc;
	snprintf(path, sizeof path, "%s/report.txt", dir);
	if ((rc = write_report(d, path)) || (rc = write_points(d, dir)))
		return rc;
	snprintf(path, sizeof path, "%s/report.json", dir);
	if (!(f = fopen(path, "w"))) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	calib_json(d, f);
	if (ferror(f) | fclose(f)) {
		tool_error("cannot write %s: %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	for (int p = 0; plots && p < CP_N; p++)
		if (d->npieces[p] && (rc = plot_pair(d, dir, p)))
			return rc;
	return 0;
}
