/*
 * trace_info.c -- `sibyl trace info': what a trace holds, from its
 * manifest and window index only (no window is decoded, so it is fast on
 * any size of trace).
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools.h"

static const char info_usage[] =
"Usage: sibyl trace info [--json] TRACE\n"
"\n"
"Summarize the trace TRACE (a trace directory or a bundle) from its\n"
"manifest and window index, without decoding any window: format version,\n"
"PE and process counts, window size, every manifest entry, the data files\n"
"with their PE ranges and sizes, the totals (windows, SEBs, messages,\n"
"payload bytes before and after compression, bytes per SEB on disk) and,\n"
"for a damaged trace, what was recovered of each damaged data file.\n"
"\n"
"Options:\n"
"  --json     print one JSON object instead of the readable summary\n"
"  -h, --help print this help and exit\n"
"\n"
"Exit status:\n"
"  0  the trace is intact\n"
"  1  the trace is damaged (cut off or corrupted); the summary describes\n"
"     what is readable and what was lost\n"
"  2  usage error, or TRACE could not be opened\n";

/* First PE and PE count of data file i, from the manifest's file.N. */
static void file_pes(const sibt_trace *t, uint32_t i, uint32_t *first,
		     uint32_t *count)
{
	char key[32];
	const char *v;
	unsigned f, c;

	snprintf(key, sizeof(key), "file.%" PRIu32, i);
	v = sibt_trace_manifest(t, key);
	if (v && sscanf(v, "%*s %u %u", &f, &c) == 2) {
		*first = f;
		*count = c;
		return;
	}
	sibt_block_range(sibt_trace_npes(t), sibt_trace_nprocs(t), i, first,
			 count);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0;
}

/* "1.50 MiB (1,572,864 bytes, NOTE)": the exact count when it adds to it. */
static void print_size(uint64_t n, const char *note)
{
	char b1[32], b2[32];

	tool_fmt_bytes(b1, sizeof(b1), (double)n);
	if (n >= 1024)
		printf("%-10s (%s bytes%s%s)\n", b1,
		       tool_fmt_count(b2, sizeof(b2), n),
		       note[0] ? ", " : "", note);
	else if (note[0])
		printf("%-10s (%s)\n", b1, note);
	else
		printf("%s\n", b1);
}

static void print_human(const char *path, const sibt_trace *t,
			const sibt_totals *tot)
{
	char b1[32], b2[32];
	size_t i, n = sibt_trace_manifest_count(t), w = 0;
	uint32_t f, nfiles = sibt_trace_nfiles(t);
	const char *fmt = sibt_trace_manifest(t, "format");
	const char *key, *val;

	if (sibt_trace_is_bundle(t))
		printf("trace        %s (bundle, %s)\n", path,
		       tool_fmt_bytes(b1, sizeof(b1), (double)file_size(path)));
	else
		printf("trace        %s (directory)\n", path);
	printf("format       ");
	tool_print_text(stdout, fmt ? fmt : "(not stated)");
	putchar('\n');
	printf("PEs          %s\n", tool_fmt_count(b1, sizeof(b1),
					       sibt_trace_npes(t)));
	printf("processes    %" PRIu32 "\n", sibt_trace_nprocs(t));
	printf("window       %" PRIu32 " SEBs\n", sibt_trace_window_size(t));

	printf("\nmanifest\n");
	for (i = 0; i < n; i++)
		if (sibt_trace_manifest_entry(t, i, &key, &val) == SIBT_OK &&
		    strlen(key) > w)
			w = strlen(key);
	if (w > 24)
		w = 24;
	for (i = 0; i < n; i++) {
		if (sibt_trace_manifest_entry(t, i, &key, &val) != SIBT_OK)
			continue;
		/* keys are printable ASCII (the reader checks) */
		printf("  %-*s = ", (int)w, key);
		tool_print_text(stdout, val);
		putchar('\n');
	}

	printf("\ndata files\n");
	for (f = 0; f < nfiles; f++) {
		const char *fp = sibt_trace_file_path(t, f);
		uint32_t first, count;
		uint64_t sz = file_size(fp);

		file_pes(t, f, &first, &count);
		if (count == 0)
			snprintf(b2, sizeof(b2), "no PEs");
		else if (count == 1)
			snprintf(b2, sizeof(b2), "PE %" PRIu32, first);
		else
			snprintf(b2, sizeof(b2), "PEs %" PRIu32 "-%" PRIu32,
				 first, first + count - 1);
		/* the name comes from the manifest: escaped, then padded */
		printf("  ");
		tool_print_text(stdout, base_name(fp));
		printf("%*s %-16s %10s", strlen(base_name(fp)) < 20 ?
		       (int)(20 - strlen(base_name(fp))) : 0, "", b2,
		       tool_fmt_bytes(b1, sizeof(b1), (double)sz));
		printf("  (%s bytes)\n", tool_fmt_count(b1, sizeof(b1), sz));
	}

	printf("\ntotals\n");
	printf("  windows            %s\n",
	       tool_fmt_count(b1, sizeof(b1), tot->windows));
	printf("  SEBs               %s\n",
	       tool_fmt_count(b1, sizeof(b1), tot->sebs));
	printf("  messages           %s\n",
	       tool_fmt_count(b1, sizeof(b1), tot->sends));
	printf("  payload raw        ");
	print_size(tot->raw_bytes, "");
	printf("  payload stored     ");
	print_size(tot->stored_bytes, "");
	if (tot->stored_bytes)
		printf("  compression        %.2f : 1\n",
		       ratio(tot->raw_bytes, tot->stored_bytes));
	printf("  data files         ");
	print_size(tot->file_bytes, "framing and index included");
	printf("  manifest           ");
	print_size(tot->manifest_bytes, "");
	if (tot->sebs)
		printf("  per SEB on disk    %.2f bytes\n",
		       ratio(tot->file_bytes, tot->sebs));
	if (tot->sends)
		printf("  per message        %.2f bytes on disk\n",
		       ratio(tot->file_bytes, tot->sends));
}

static void print_damage_human(const sibt_trace *t, int damaged)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	size_t i, n = sibt_trace_damage_count(t);

	if (n == 0) {
		printf("\ndamage       %s\n", damaged ? "yes, not described "
		       "by the library; see the warnings" : "none");
		return;
	}
	printf("\ndamage       %zu data file%s damaged; the totals above "
	       "count what was recovered\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const sibt_damage *d = sibt_trace_damage(t, i);
		uint64_t lost = d->file_bytes > d->valid_bytes ?
				d->file_bytes - d->valid_bytes : 0;

		const char *detail = d->detail ? d->detail : "";
		size_t flen = strlen(d->file);

		/* The detail normally starts with the file name. */
		if (strncmp(detail, d->file, flen) == 0 && detail[flen] == ':')
			detail += flen + 1 + (detail[flen + 1] == ' ');
		printf("  %s: %s\n", sibt_trace_is_bundle(t) ?
		       base_name(d->file) : d->file, sibt_strerror(d->reason));
		printf("    recovered %s windows, %s SEBs; %s of %s bytes "
		       "valid, %s bytes lost\n",
		       tool_fmt_count(b1, sizeof(b1), d->windows_recovered),
		       tool_fmt_count(b2, sizeof(b2), d->sebs_recovered),
		       tool_fmt_count(b3, sizeof(b3), d->valid_bytes),
		       tool_fmt_count(b4, sizeof(b4), d->file_bytes),
		       tool_fmt_count(b5, sizeof(b5), lost));
		if (detail[0])
			printf("    %s\n", detail);
	}
}

static void json_key(const char *key)
{
	tool_json_string(stdout, key, strlen(key));
	putchar(':');
}

static void json_str(const char *s)
{
	if (s)
		tool_json_string(stdout, s, strlen(s));
	else
		fputs("null", stdout);
}

static void print_json(const char *path, const sibt_trace *t,
		       const sibt_totals *tot, int damaged)
{
	size_t i, n = sibt_trace_manifest_count(t);
	uint32_t f, nfiles = sibt_trace_nfiles(t);
	const char *key, *val;
	int bundle = sibt_trace_is_bundle(t);

	putchar('{');
	json_key("path");
	json_str(path);
	printf(",\"kind\":\"%s\"", bundle ? "bundle" : "directory");
	if (bundle)
		printf(",\"bundle_bytes\":%" PRIu64, file_size(path));
	printf(",\"format\":");
	json_str(sibt_trace_manifest(t, "format"));
	printf(",\"npes\":%" PRIu32 ",\"nprocs\":%" PRIu32
	       ",\"window\":%" PRIu32, sibt_trace_npes(t),
	       sibt_trace_nprocs(t), sibt_trace_window_size(t));

	printf(",\"manifest\":{");
	for (i = 0; i < n; i++) {
		if (sibt_trace_manifest_entry(t, i, &key, &val) != SIBT_OK)
			continue;
		if (i)
			putchar(',');
		json_key(key);
		json_str(val);
	}
	putchar('}');

	printf(",\"files\":[");
	for (f = 0; f < nfiles; f++) {
		const char *fp = sibt_trace_file_path(t, f);
		uint32_t first, count;

		file_pes(t, f, &first, &count);
		printf("%s{\"index\":%" PRIu32 ",\"name\":", f ? "," : "", f);
		json_str(base_name(fp));
		printf(",\"first_pe\":%" PRIu32 ",\"npes\":%" PRIu32
		       ",\"bytes\":%" PRIu64 "}", first, count, file_size(fp));
	}
	putchar(']');

	printf(",\"totals\":{\"windows\":%" PRIu64 ",\"sebs\":%" PRIu64
	       ",\"messages\":%" PRIu64 ",\"raw_bytes\":%" PRIu64
	       ",\"stored_bytes\":%" PRIu64 ",\"file_bytes\":%" PRIu64
	       ",\"manifest_bytes\":%" PRIu64, tot->windows, tot->sebs,
	       tot->sends, tot->raw_bytes, tot->stored_bytes, tot->file_bytes,
	       tot->manifest_bytes);
	if (tot->stored_bytes)
		printf(",\"compression_ratio\":%.4f",
		       ratio(tot->raw_bytes, tot->stored_bytes));
	else
		printf(",\"compression_ratio\":null");
	if (tot->sebs)
		printf(",\"bytes_per_seb\":%.4f",
		       ratio(tot->file_bytes, tot->sebs));
	else
		printf(",\"bytes_per_seb\":null");
	if (tot->sends)
		printf(",\"bytes_per_message\":%.4f}",
		       ratio(tot->file_bytes, tot->sends));
	else
		printf(",\"bytes_per_message\":null}");

	n = sibt_trace_damage_count(t);
	printf(",\"damaged\":%s,\"damage\":[",
	       n || damaged ? "true" : "false");
	for (i = 0; i < n; i++) {
		const sibt_damage *d = sibt_trace_damage(t, i);

		printf("%s{\"file\":", i ? "," : "");
		json_str(base_name(d->file));
		printf(",\"proc\":%" PRIu32 ",\"reason\":", d->proc);
		json_str(sibt_strerror(d->reason));
		printf(",\"valid_bytes\":%" PRIu64 ",\"file_bytes\":%" PRIu64
		       ",\"windows_recovered\":%" PRIu64
		       ",\"sebs_recovered\":%" PRIu64 ",\"detail\":",
		       d->valid_bytes, d->file_bytes, d->windows_recovered,
		       d->sebs_recovered);
		json_str(d->detail);
		putchar('}');
	}
	printf("]}\n");
}

int tool_cmd_trace_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	sibt_totals tot;
	sibt_trace *t;
	const char *path;
	int json = 0, damaged, c;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'h':
			fputs(info_usage, stdout);
			return 0;
		default:
			return tool_bad_option(c, argv);
		}
	}
	if (!(path = tool_trace_operand(argc, argv)))
		return TOOL_EXIT_USAGE;

	t = tool_open_trace(path, 0, &damaged);
	if (!t)
		return TOOL_EXIT_USAGE;
	sibt_trace_totals(t, &tot);
	if (json) {
		print_json(path, t, &tot, damaged);
	} else {
		print_human(path, t, &tot);
		print_damage_human(t, damaged);
	}
	if (sibt_trace_damage_count(t))
		damaged = 1;
	tool_close_trace(t);
	return damaged ? TOOL_EXIT_PROBLEMS : 0;
}
