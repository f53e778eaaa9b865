/*
 * trace_dump.c -- `sibyl trace dump': list the SEBs of a trace, readable
 * or as JSON lines.
 *
 * Streams: one sibt_window is decoded at a time and reused, and each SEB
 * range starts at its window (sibt_trace_find_window), so dumping a few
 * SEBs of a huge trace reads only the windows that hold them.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"

static const char dump_usage[] =
"Usage: sibyl trace dump [--pe RANGE] [--seb RANGE] [--json] TRACE\n"
"\n"
"List the SEBs (sequential execution blocks) of the trace TRACE (a trace\n"
"directory or a bundle), PE by PE in increasing order, each PE's SEBs in\n"
"index order.  For each SEB: PE, index, name, duration, its explicit local\n"
"predecessors (when not the default 'previous SEB'), the messages it waits\n"
"for (SRC:SEQ), the sends of its PE that had completed before it (done,\n"
"format 1.2), the messages it sends (sequence number, destination, size,\n"
"tag, departure offset from the SEB start), its virtual-time prints, its\n"
"markers, and the messages of the receives posted at its end (posted,\n"
"format 1.2).\n"
"\n"
"Options:\n"
"  -p, --pe RANGE   only these PEs, e.g. 0-15,32 or 100- (default all)\n"
"  -s, --seb RANGE  only the SEBs with these indices on each selected PE,\n"
"                   e.g. 0-9 (default all)\n"
"  --json           one JSON object per SEB and line (JSON Lines); times\n"
"                   are integers in picoseconds, sizes in bytes\n"
"  -h, --help       print this help and exit\n"
"\n"
"A RANGE is a comma-separated list of N, N-M (inclusive) and N- (to the\n"
"end), or 'all'.\n"
"\n"
"Exit status:\n"
"  0  success (also when the reader of the output went away, e.g. | head)\n"
"  1  the trace is damaged or a window could not be read; everything\n"
"     readable was listed\n"
"  2  usage error, TRACE could not be opened, or output failed\n";

struct dump {
	sibt_trace *t;
	sibt_window *win;
	int json;
	uint64_t printed;
	int status;
	int out_closed;		/* the reader went away (EPIPE) */
	int out_failed;		/* any other write error: reported */
	uint32_t bad_pe;	/* the last window that failed to read, */
	uint64_t bad_w;		/* so that it is reported only once */
};

static const char *marker_name(uint32_t kind)
{
	switch (kind) {
	case SIBT_MARK_SKIP_START:
		return "skip_start";
	case SIBT_MARK_SKIP_END:
		return "skip_end";
	case SIBT_MARK_ITER:
		return "iter";
	case SIBT_MARK_USER:
		return "user";
	default:
		return "unknown";
	}
}

/* A string for the readable listing: quoted, C escapes; bytes that are
 * not UTF-8 as \xHH so the listing shows exactly what is stored. */
static void print_quoted(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i, k;

	putchar('"');
	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c >= 0x80) {
			k = sib_utf8_len(p + i, len - i);
			if (k == 0) {
				printf("\\x%02x", c);
			} else {
				fwrite(p + i, 1, k, stdout);
				i += k - 1;
			}
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				printf("\\x%02x", c);
			else
				putchar(c);
		}
	}
	putchar('"');
}

static void print_seb_text(const sibt_seb *s)
{
	char b[32];
	uint32_t i;

	printf("pe %" PRIu32 " seb %" PRIu64 " ", s->pe, s->index);
	print_quoted(s->name ? s->name : "", s->name ? strlen(s->name) : 0);
	printf(" %s", tool_fmt_time(b, sizeof(b), s->duration));
	if (s->corrected)
		printf(" (corrected: %s, raw %s)", sibt_corr_name(s->corrected),
		       tool_fmt_time(b, sizeof(b), s->raw_duration));
	putchar('\n');
	if (s->region && *s->region) {
		printf("    region  ");
		print_quoted(s->region, strlen(s->region));
		putchar('\n');
	}

	if (!s->preds_default) {
		printf("    preds  ");
		if (s->npreds == 0)
			printf(" (none)");
		for (i = 0; i < s->npreds; i++)
			printf(" %" PRIu64, s->preds[i]);
		putchar('\n');
	}
	if (s->nwaits) {
		printf("    waits  ");
		for (i = 0; i < s->nwaits; i++)
			printf(" %" PRIu32 ":%" PRIu64, s->waits[i].src,
			       s->waits[i].seq);
		putchar('\n');
	}
	if (s->ndone) {
		printf("    done   ");
		for (i = 0; i < s->ndone; i++)
			printf(" seq %" PRIu64, s->done[i]);
		putchar('\n');
	}
	for (i = 0; i < s->nsends; i++) {
		const sibt_send *m = &s->sends[i];

		printf("    send    seq %" PRIu64 " -> %" PRIu32 "  %" PRIu64
		       " B", s->first_seq + i, m->dst, m->size);
		if (m->size >= 1024)
			printf(" (%s)", tool_fmt_bytes(b, sizeof(b),
						  (double)m->size));
		printf("  tag %" PRId32 "  @%s\n", m->tag,
		       tool_fmt_time(b, sizeof(b), m->offset));
	}
	for (i = 0; i < s->nprints; i++) {
		printf("    print   @%s ",
		       tool_fmt_time(b, sizeof(b), s->prints[i].offset));
		print_quoted(s->prints[i].text, s->prints[i].len);
		putchar('\n');
	}
	for (i = 0; i < s->nmarkers; i++)
		printf("    mark    %s %" PRId64 "\n",
		       marker_name(s->markers[i].kind), s->markers[i].value);
	if (s->nposted) {
		printf("    posted ");
		for (i = 0; i < s->nposted; i++)
			printf(" %" PRIu32 ":%" PRIu64, s->posted[i].src,
			       s->posted[i].seq);
		putchar('\n');
	}
}

static void print_seb_json(const sibt_seb *s)
{
	const char *name = s->name ? s->name : "";
	uint32_t i;

	printf("{\"pe\":%" PRIu32 ",\"seb\":%" PRIu64 ",\"name\":", s->pe,
	       s->index);
	tool_json_string(stdout, name, strlen(name));
	printf(",\"duration_ps\":%" PRId64, (int64_t)s->duration);
	if (s->region && *s->region) {
		printf(",\"region\":");
		tool_json_string(stdout, s->region, strlen(s->region));
	}
	if (s->corrected)
		printf(",\"corrected\":\"%s\",\"raw_duration_ps\":%" PRId64,
		       sibt_corr_name(s->corrected), (int64_t)s->raw_duration);
	printf(",\"preds_default\":%s,\"preds\":[",
	       s->preds_default ? "true" : "false");
	/* The effective predecessors, so readers need not know the rule. */
	if (s->preds_default) {
		if (s->index > 0)
			printf("%" PRIu64, s->index - 1);
	} else {
		for (i = 0; i < s->npreds; i++)
			printf("%s%" PRIu64, i ? "," : "", s->preds[i]);
	}
	printf("],\"waits\":[");
	for (i = 0; i < s->nwaits; i++)
		printf("%s{\"src\":%" PRIu32 ",\"seq\":%" PRIu64 "}",
		       i ? "," : "", s->waits[i].src, s->waits[i].seq);
	printf("],\"done\":[");
	for (i = 0; i < s->ndone; i++)
		printf("%s%" PRIu64, i ? "," : "", s->done[i]);
	printf("],\"sends\":[");
	for (i = 0; i < s->nsends; i++) {
		const sibt_send *m = &s->sends[i];

		printf("%s{\"seq\":%" PRIu64 ",\"dst\":%" PRIu32 ",\"size\":%"
		       PRIu64 ",\"tag\":%" PRId32 ",\"offset_ps\":%" PRId64 "}",
		       i ? "," : "", s->first_seq + i, m->dst, m->size, m->tag,
		       (int64_t)m->offset);
	}
	printf("],\"prints\":[");
	for (i = 0; i < s->nprints; i++) {
		printf("%s{\"offset_ps\":%" PRId64 ",\"text\":", i ? "," : "",
		       (int64_t)s->prints[i].offset);
		tool_json_string(stdout, s->prints[i].text, s->prints[i].len);
		putchar('}');
	}
	printf("],\"markers\":[");
	for (i = 0; i < s->nmarkers; i++)
		printf("%s{\"kind\":\"%s\",\"value\":%" PRId64 "}",
		       i ? "," : "", marker_name(s->markers[i].kind),
		       s->markers[i].value);
	printf("],\"posted\":[");
	for (i = 0; i < s->nposted; i++)
		printf("%s{\"src\":%" PRIu32 ",\"seq\":%" PRIu64 "}",
		       i ? "," : "", s->posted[i].src, s->posted[i].seq);
	printf("]}\n");
}

/* After each SEB: stop quietly when the reader went away. */
static int output_ok(struct dump *d)
{
	if (!ferror(stdout))
		return 1;
	if (errno == EPIPE) {
		d->out_closed = 1;
	} else {
		tool_error("error writing standard output: %s",
			   strerror(errno));
		d->out_failed = 1;
	}
	clearerr(stdout);
	return 0;
}

static void read_error(struct dump *d, uint32_t pe, uint64_t w)
{
	sibt_window_info wi;
	const char *file = "?", *msg = sibt_trace_errmsg(d->t);

	if (sibt_trace_window_info(d->t, pe, w, &wi) == SIBT_OK &&
	    wi.file < sibt_trace_nfiles(d->t))
		file = sibt_trace_file_path(d->t, wi.file);
	if (!msg || !msg[0])
		msg = "unknown error";
	/* The library's message names the file, PE and window already. */
	if (strstr(msg, file))
		tool_error("%s (its SEBs are skipped)", msg);
	else
		tool_error("%s: PE %" PRIu32 " window %" PRIu64 " cannot be "
			   "read, its SEBs are skipped: %s", file, pe, w, msg);
	d->status = TOOL_EXIT_PROBLEMS;
}

/* Dump SEBs lo..hi (inclusive, already clipped to the PE) of PE pe.
 * *cur is the window held in d->win (UINT64_MAX: none). */
static int dump_span(struct dump *d, uint32_t pe, uint64_t lo, uint64_t hi,
		     uint64_t *cur)
{
	uint64_t w, nwin = sibt_trace_nwindows(d->t, pe);
	uint32_t i, n;

	if (sibt_trace_find_window(d->t, pe, lo, &w) != SIBT_OK) {
		tool_error("PE %" PRIu32 ": no window holds SEB %" PRIu64
			   ": %s", pe, lo, sibt_trace_errmsg(d->t));
		d->status = TOOL_EXIT_PROBLEMS;
		return 0;
	}
	for (; w < nwin; w++) {
		if (w != *cur) {
			if (pe == d->bad_pe && w == d->bad_w)
				continue;
			*cur = UINT64_MAX;
			if (sibt_trace_read_window(d->t, pe, w, d->win) !=
			    SIBT_OK) {
				read_error(d, pe, w);
				d->bad_pe = pe;
				d->bad_w = w;
				continue;
			}
			*cur = w;
		}
		n = sibt_window_nsebs(d->win);
		for (i = 0; i < n; i++) {
			const sibt_seb *s = sibt_window_seb(d->win, i);

			if (s->index < lo)
				continue;
			if (s->index > hi)
				return 0;
			if (d->json)
				print_seb_json(s);
			else
				print_seb_text(s);
			d->printed++;
			if (!output_ok(d))
				return -1;
		}
	}
	return 0;
}

int tool_cmd_trace_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pe", required_argument, NULL, 'p' },
		{ "seb", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *pe_arg = "all", *path;
	tool_range_list pes = { 0, NULL }, sebs = { 0, NULL };
	struct dump d;
	uint32_t pe, npes;
	size_t k;
	int c, damaged;

	memset(&d, 0, sizeof(d));
	d.bad_w = UINT64_MAX;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":p:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pe_arg = optarg;
			break;
		case 's':
			tool_range_free(&sebs);
			if (tool_range_parse("--seb", optarg, UINT64_MAX,
					&sebs) < 0) {
				fprintf(stderr, "Try '%s --help'.\n",
					tool_name);
				return TOOL_EXIT_USAGE;
			}
			break;
		case 'j':
			d.json = 1;
			break;
		case 'h':
			tool_range_free(&sebs);
			fputs(dump_usage, stdout);
			return 0;
		default:
			tool_range_free(&sebs);
			return tool_bad_option(c, argv);
		}
	}
	if (!(path = tool_trace_operand(argc, argv))) {
		tool_range_free(&sebs);
		return TOOL_EXIT_USAGE;
	}
	if (sebs.n == 0 && tool_range_parse("--seb", "all", UINT64_MAX,
					    &sebs) < 0)
		return TOOL_EXIT_USAGE;

	/* A reader that goes away (| head) ends the dump quietly with
	 * status 0: see the EPIPE case of output_ok. */
	signal(SIGPIPE, SIG_IGN);

	d.t = tool_open_trace(path, 0, &damaged);
	if (!d.t) {
		tool_range_free(&sebs);
		return TOOL_EXIT_USAGE;
	}
	if (damaged)
		d.status = TOOL_EXIT_PROBLEMS;
	npes = sibt_trace_npes(d.t);
	if (tool_range_parse("--pe", pe_arg, npes, &pes) < 0) {
		fprintf(stderr, "Try '%s --help'.\n", tool_name);
		d.status = TOOL_EXIT_USAGE;
		goto out_close;
	}
	d.win = sibt_window_new();
	if (!d.win) {
		tool_error("out of memory");
		d.status = TOOL_EXIT_USAGE;
		goto out_free_pes;
	}

	for (k = 0; k < pes.n; k++) {
		for (pe = (uint32_t)pes.r[k].lo; pe <= pes.r[k].hi; pe++) {
			uint64_t ns = sibt_trace_nsebs(d.t, pe);
			uint64_t cur = UINT64_MAX;
			size_t j;

			for (j = 0; j < sebs.n && sebs.r[j].lo < ns; j++) {
				uint64_t hi = sebs.r[j].hi < ns ?
					      sebs.r[j].hi : ns - 1;

				if (dump_span(&d, pe, sebs.r[j].lo, hi,
					      &cur) < 0)
					goto out_done;
			}
		}
	}
	if (d.printed == 0 && d.status == 0)
		tool_warn("no SEB of '%s' is in the selected ranges", path);
out_done:
	if (d.out_failed)
		d.status = TOOL_EXIT_USAGE;
	sibt_window_free(d.win);
out_free_pes:
	tool_range_free(&pes);
out_close:
	tool_range_free(&sebs);
	tool_close_trace(d.t);
	return d.status;
}
