/*
 * fsim_summary.c -- the run summary, for people (summary.txt) and for
 * programs (summary.json).  docs/outputs.md documents both.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"

/* Seconds, exactly, from picoseconds: "0.001234567890" (12 decimals). */
static void put_seconds(FILE *f, sib_ps ps)
{
	const char *sign = ps < 0 ? "-" : "";
	uint64_t a = ps < 0 ? (uint64_t)0 - (uint64_t)ps : (uint64_t)ps;
	fprintf(f, "%s%" PRIu64 ".%012" PRIu64, sign, a / UINT64_C(1000000000000),
		a % UINT64_C(1000000000000));
}

/* A time for people: picked unit, 3 decimals. */
static void put_human_time(FILE *f, double ps)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e12, "s" }, { 1e9, "ms" }, { 1e6, "us" }, { 1e3, "ns" },
		{ 1, "ps" },
	};
	double a = ps < 0 ? -ps : ps;
	for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
		if (a >= u[i].div || i + 1 == sizeof u / sizeof u[0]) {
			fprintf(f, "%.3f %s", ps / u[i].div, u[i].unit);
			return;
		}
	}
}

static void put_bytes(FILE *f, double b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					    "PiB" };
	int i = 0;
	while (b >= 1024 && i < 5) {
		b /= 1024;
		i++;
	}
	if (i == 0)
		fprintf(f, "%.0f B", b);
	else
		fprintf(f, "%.2f %s", b, unit[i]);
}

static void put_stat(FILE *f, const char *label, const fsim_stat *s)
{
	fprintf(f, "  %-10s min ", label);
	put_human_time(f, (double)s->min);
	fprintf(f, " (PE %u), mean ", s->min_pe);
	put_human_time(f, s->mean);
	fprintf(f, ", max ");
	put_human_time(f, (double)s->max);
	fprintf(f, " (PE %u)\n", s->max_pe);
}

/* busy / predicted as a percentage: "12.34%". */
static void put_percent(FILE *f, uint64_t busy, const fsim_result *r)
{
	fsim_put_ratio(f, (unsigned __int128)busy * 100,
		       r->predicted > 0 ? (uint64_t)r->predicted : 0, 2);
	fputc('%', f);
}

static void put_link_line(FILE *f, const char *label, const fsim_link_rec *l,
			  const fsim_result *r)
{
	fprintf(f, "  %-14s link %u (%s, %s -> %s): ", label, l->id, l->cls,
		l->info.src, l->info.dst);
	put_bytes(f, (double)l->info.bytes);
	fprintf(f, ", busy ");
	put_human_time(f, (double)l->info.busy);
	fprintf(f, ", utilization ");
	put_percent(f, (uint64_t)l->info.busy, r);
	fputc('\n', f);
}

static void print_links(const fsim_result *r, FILE *f)
{
	if (!r->nlinks) {
		fprintf(f, "links            none (the network model reports no "
			"links)\n");
		return;
	}
	fprintf(f, "links            %u in %u class%s (links.csv, "
		"link_classes.csv)", r->nlinks, r->nlink_classes,
		r->nlink_classes == 1 ? "" : "es");
	if (r->net.packets) {
		fprintf(f, "; ");
		fsim_put_ratio(f, r->net.hops, r->net.packets, 3);
		fprintf(f, " hops per packet");
	}
	fputc('\n', f);
	for (uint32_t c = 0; c < r->nlink_classes; c++) {
		const fsim_link_class *k = &r->link_classes[c];
		if (!k->links)
			continue;
		fprintf(f, "  %-14s %u link%s, ", k->name, k->links,
			k->links == 1 ? "" : "s");
		put_bytes(f, (double)k->bytes);
		fprintf(f, ", %" PRIu64 " packets; per link ", k->packets);
		put_bytes(f, (double)k->bytes / k->links);
		fprintf(f, ", utilization avg ");
		fsim_put_ratio(f, (unsigned __int128)k->busy * 100,
			       (unsigned __int128)k->links *
			       (uint64_t)(r->predicted > 0 ? r->predicted : 0),
			       2);
		fprintf(f, "%%, max ");
		put_percent(f, (uint64_t)k->max_busy, r);
		fputc('\n', f);
	}
	put_link_line(f, "most bytes", &r->max_bytes, r);
	put_link_line(f, "busiest", &r->max_busy, r);
}

/* Network events (netm_totals.events) per second of simulator wall
 * time: the packet-hop rate of a packet-level model. */
static double net_events_per_s(const fsim_result *r)
{
	return r->wall_s > 0 ? (double)r->net.events / r->wall_s : 0;
}

void fsim_result_print(const fsim_result *r, const fsim_opts *o, FILE *f)
{
	const netm_ops *ops = fsim_config_model(o->cfg);
	fprintf(f, "trace            %s\n", o->trace);
	fprintf(f, "machine          %u ranks on %u nodes, network model "
		"'%s'\n", r->npes, r->nnodes, ops ? ops->name : "?");
	fprintf(f, "simulated        %s\n", r->region);
	if (fsim_rules_count(o->rules) || !fsim_rules_empty(o->rules)) {
		fprintf(f, "rules\n");
		fsim_rules_describe(o->rules, f, "  ");
	}
	fprintf(f, "predicted time   ");
	put_seconds(f, r->predicted);
	fprintf(f, " s (");
	put_human_time(f, (double)r->predicted);
	fprintf(f, ", %" PRId64 " ps)\n", r->predicted);
	fprintf(f, "SEBs             %" PRIu64 "\n", r->sebs);
	fprintf(f, "messages         %" PRIu64 " (", r->messages);
	put_bytes(f, (double)r->bytes);
	fprintf(f, "): %" PRIu64 " inside nodes (", r->intra_messages);
	put_bytes(f, (double)r->intra_bytes);
	fprintf(f, "), %" PRIu64 " over the network (", r->net_messages);
	put_bytes(f, (double)r->net_bytes);
	fprintf(f, ")\n");
	if (r->boundary_messages)
		fprintf(f, "                 %" PRIu64 " messages cross the "
			"region's boundary and were not awaited inside it\n",
			r->boundary_messages);
	if (r->prints)
		fprintf(f, "prints           %" PRIu64 " (prints.txt)\n",
			r->prints);
	fprintf(f, "per PE\n");
	put_stat(f, "busy", &r->busy);
	put_stat(f, "idle", &r->idle);
	if (r->noise) {
		const sib_value *dir = fsim_config_get(o->cfg, "noise", "dir");
		const sib_value *sc = fsim_config_get(o->cfg, "noise",
						       "scale");
		const sib_value *co = fsim_config_get(o->cfg, "noise",
						       "cosched");
		put_stat(f, "noise", &r->noise_pe);
		fprintf(f, "noise            ");
		put_human_time(f, (double)r->noise_total);
		fprintf(f, " injected in total (%" PRId64 " ps) from %s, "
			"scale %" PRId64 "/%" PRId64 ", seed %" PRIu64 "%s\n",
			r->noise_total, dir ? dir->s : "?", sc ? sc->num : 1,
			sc ? sc->den : 1, r->noise_seed,
			co && co->i ? ", co-scheduled" : "");
	}
	if (r->variability)
		fprintf(f, "variability      seed %" PRIu64 ": %" PRIu64 " SEB "
			"durations drawn, %" PRIu64 " network times jittered "
			"(docs/variability.md)\n", r->var_seed, r->var_sebs,
			r->var_messages);
	fprintf(f, "network          %" PRIu64 " packets, %" PRIu64 " hops, "
		"%" PRIu64 " events, queueing ", r->net.packets, r->net.hops,
		r->net.events);
	put_human_time(f, (double)r->net.queue_time);
	fprintf(f, " in total\n");
	print_links(r, f);
	fprintf(f, "simulator        %" PRIu64 " events (%" PRIu64 " SEBs + "
		"%" PRIu64 " message deliveries) in %.3f s: %.3g events/s, "
		"%.3g network events/s; peak memory ", r->events,
		r->seb_events, r->msg_events, r->wall_s, r->events_per_s,
		net_events_per_s(r));
	put_bytes(f, (double)r->peak_rss);
	fprintf(f, "; %" PRIu64 " windows loaded\n", r->windows_loaded);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_stat(FILE *f, const char *key, const fsim_stat *s)
{
	fprintf(f, "    \"%s\": {\"min\": %" PRId64 ", \"mean\": %.1f, "
		"\"max\": %" PRId64 ", \"min_pe\": %u, \"max_pe\": %u}", key,
		s->min, s->mean, s->max, s->min_pe, s->max_pe);
}

/* Rules as a JSON array of strings, from their description lines. */
static void json_rules(FILE *f, const fsim_rules *rules)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m) {
		fsim_rules_describe(rules, m, "");
		fclose(m);
	}
	fputc('[', f);
	int first = 1;
	for (char *line = buf, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = line + strlen(line);
		if (!*line)
			continue;
		fprintf(f, "%s", first ? "" : ", ");
		json_str(f, line);
		first = 0;
	}
	fputc(']', f);
	free(buf);
}

static void json_link(FILE *f, const char *key, const fsim_link_rec *l,
		      const fsim_result *r)
{
	fprintf(f, ",\n    \"%s\": ", key);
	if (!r->nlinks) {
		fprintf(f, "null");
		return;
	}
	fprintf(f, "{\"link\": %u, \"class\": ", l->id);
	json_str(f, l->cls);
	fprintf(f, ", \"src\": ");
	json_str(f, l->info.src);
	fprintf(f, ", \"dst\": ");
	json_str(f, l->info.dst);
	fprintf(f, ", \"bytes\": %" PRIu64 ", \"packets\": %" PRIu64
		", \"busy_ps\": %" PRId64 ", \"utilization\": ",
		l->info.bytes, l->info.packets, l->info.busy);
	fsim_put_ratio(f, (uint64_t)l->info.busy,
		       r->predicted > 0 ? (uint64_t)r->predicted : 0, 9);
	fputc('}', f);
}

static void json_links(FILE *f, const fsim_result *r)
{
	uint64_t pred = r->predicted > 0 ? (uint64_t)r->predicted : 0;
	fprintf(f, "  \"links\": {\n    \"count\": %u,\n    \"avg_hops\": ",
		r->nlinks);
	if (r->net.packets)
		fsim_put_ratio(f, r->net.hops, r->net.packets, 6);
	else
		fprintf(f, "null");
	fprintf(f, ",\n    \"classes\": [");
	for (uint32_t c = 0; c < r->nlink_classes; c++) {
		const fsim_link_class *k = &r->link_classes[c];
		fprintf(f, "%s\n      {\"class\": ", c ? "," : "");
		json_str(f, k->name);
		fprintf(f, ", \"links\": %u, \"bytes\": %" PRIu64
			", \"packets\": %" PRIu64 ", \"busy_ps\": %" PRIu64
			", \"avg_bytes\": ", k->links, k->bytes, k->packets,
			k->busy);
		fsim_put_ratio(f, k->bytes, k->links, 3);
		fprintf(f, ", \"avg_utilization\": ");
		fsim_put_ratio(f, k->busy, (unsigned __int128)k->links * pred,
			       9);
		fprintf(f, ", \"max_utilization\": ");
		fsim_put_ratio(f, (uint64_t)k->max_busy, pred, 9);
		fprintf(f, ", \"max_bytes\": %" PRIu64 "}", k->max_bytes);
	}
	fprintf(f, "%s]", r->nlink_classes ? "\n    " : "");
	json_link(f, "max_bytes", &r->max_bytes, r);
	json_link(f, "max_utilization", &r->max_busy, r);
	fprintf(f, "\n  },\n");
}

void fsim_result_json(const fsim_result *r, const fsim_opts *o, FILE *f)
{
	const netm_ops *ops = fsim_config_model(o->cfg);
	const char *kind = o->region == FSIM_REGION_MARKERS ? "markers" :
			   o->region == FSIM_REGION_ITERS ? "iters" : "whole";
	fprintf(f, "{\n  \"sibyl_version\": \"%s\",\n  \"trace\": ",
		PACKAGE_VERSION);
	json_str(f, o->trace);
	fprintf(f, ",\n  \"npes\": %u,\n  \"nnodes\": %u,\n", r->npes,
		r->nnodes);
	fprintf(f, "  \"region\": {\"kind\": \"%s\"", kind);
	if (o->region == FSIM_REGION_ITERS)
		fprintf(f, ", \"first_iter\": %" PRId64 ", \"last_iter\": %"
			PRId64, o->iter_first, o->iter_last);
	else
		fprintf(f, ", \"first_iter\": null, \"last_iter\": null");
	fprintf(f, ", \"description\": ");
	json_str(f, r->region);
	fprintf(f, "},\n  \"predicted_time_ps\": %" PRId64 ",\n"
		"  \"predicted_time_s\": ", r->predicted);
	put_seconds(f, r->predicted);
	fprintf(f, ",\n  \"pes\": {\n");
	json_stat(f, "busy_ps", &r->busy);
	fprintf(f, ",\n");
	json_stat(f, "idle_ps", &r->idle);
	if (r->noise) {
		fprintf(f, ",\n");
		json_stat(f, "noise_ps", &r->noise_pe);
	}
	fprintf(f, "\n  },\n  \"sebs\": %" PRIu64 ",\n", r->sebs);
	fprintf(f, "  \"messages\": {\"count\": %" PRIu64 ", \"bytes\": %"
		PRIu64 ", \"intranode\": %" PRIu64 ", \"intranode_bytes\": %"
		PRIu64 ", \"network\": %" PRIu64 ", \"network_bytes\": %"
		PRIu64 ", \"boundary\": %" PRIu64 "},\n", r->messages,
		r->bytes, r->intra_messages, r->intra_bytes, r->net_messages,
		r->net_bytes, r->boundary_messages);
	fprintf(f, "  \"prints\": %" PRIu64 ",\n", r->prints);
	if (r->noise)
		fprintf(f, "  \"noise\": {\"total_ps\": %" PRId64 ", "
			"\"min_pe_ps\": %" PRId64 ", \"max_pe_ps\": %" PRId64
			"},\n", r->noise_total, r->noise_pe.min,
			r->noise_pe.max);
	if (r->variability)
		fprintf(f, "  \"variability\": {\"seed\": %" PRIu64 ", "
			"\"sebs_drawn\": %" PRIu64 ", \"messages_jittered\": %"
			PRIu64 "},\n", r->var_seed, r->var_sebs,
			r->var_messages);
	fprintf(f, "  \"network\": {\"model\": ");
	json_str(f, ops ? ops->name : "");
	fprintf(f, ", \"messages\": %" PRIu64 ", \"bytes\": %" PRIu64
		", \"packets\": %" PRIu64 ", \"hops\": %" PRIu64
		", \"queue_ps\": %" PRId64 ", \"events\": %" PRIu64 "},\n",
		r->net.messages, r->net.bytes, r->net.packets, r->net.hops,
		r->net.queue_time, r->net.events);
	json_links(f, r);
	fprintf(f, "  \"rules\": ");
	json_rules(f, o->rules);
	fprintf(f, ",\n  \"simulator\": {\"events\": %" PRIu64
		", \"seb_events\": %" PRIu64 ", \"message_events\": %" PRIu64
		", \"wall_s\": %.6f, \"events_per_s\": %.1f"
		", \"network_events_per_s\": %.1f"
		", \"peak_rss_bytes\": %" PRIu64 ", \"windows_loaded\": %"
		PRIu64 "}\n}\n", r->events, r->seb_events, r->msg_events,
		r->wall_s, r->events_per_s, net_events_per_s(r), r->peak_rss,
		r->windows_loaded);
}
