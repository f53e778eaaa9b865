/*
 * fsim_schema.c -- the sections and parameters of a machine description
 * (fsim_schema.h), and their documentation: fsim_config_describe (the
 * text of `sibyl sim --list-keys') and its Markdown form.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fsim.h"
#include "fsim_schema.h"
#include "sib_text.h"

static const sib_param machine_params[] = {
	MACHINE_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

static const sib_param intranode_params[] = {
	{ "latency", SIB_P_TIME, "200ns", NULL,
	  "Fixed cost of a message between two ranks of one node, before "
	  "its bytes are copied (an assumed figure, not a measurement)." },
	{ "bandwidth", SIB_P_BW, "10GB/s", NULL,
	  "Memory-copy bandwidth for messages between ranks of one node "
	  "(an assumed figure, not a measurement)." },
	{ "protocols", SIB_P_STRING, "", NULL,
	  "Costs by message size, one range per protocol of the MPI "
	  "library's shared-memory transport: 'SIZE: KEY=VALUE ...; "
	  "SIZE: ...' with keys latency, bandwidth, os (send overhead), "
	  "os_per_byte (its part per byte), or (receive overhead) and "
	  "sync (eager or rendezvous), the first range from 0; a key a "
	  "range leaves out keeps latency and bandwidth, or 0 for os, "
	  "os_per_byte and or, or eager.  Empty: latency + bytes / "
	  "bandwidth for every size." },
	{ "serialize", SIB_P_BOOL, "no", NULL,
	  "Copy the messages into a rank one at a time: a message's copy "
	  "starts when the previous copy into the same rank has taken its "
	  "turn (by default its copy, bytes / bandwidth; see stream), as "
	  "when the receiver's core or its memory moves the bytes.  No: "
	  "copies overlap without limit." },
	{ "stream", SIB_P_STRING, "", NULL,
	  "With serialize: a message's turn by size, the rate of a stream "
	  "of messages into a rank: 'SIZE: latency=T bandwidth=B; ...' "
	  "as protocols, a turn lasting latency + bytes / bandwidth (only "
	  "those two keys; one left out is 0, or intranode.bandwidth).  "
	  "Empty: a turn lasts the message's copy." },
	{ NULL, 0, NULL, NULL, NULL }
};

static const sib_param cpu_params[] = {
	{ "factor", SIB_P_RATIO, "1", NULL,
	  "Every SEB duration not replaced by a rule is multiplied by this "
	  "(0.5: a CPU twice as fast); must be greater than 0." },
	{ NULL, 0, NULL, NULL, NULL }
};

/* net.model: its choices are the registry's names, so the ENUM is checked
 * by hand (netm_find) rather than through a choices string. */
static const sib_param net_params[] = {
	{ "model", SIB_P_ENUM, CFG_DEFAULT_MODEL, NULL,
	  "Network model; the other keys of [net] are its parameters." },
	{ NULL, 0, NULL, NULL, NULL }
};

static const sib_param replace_params[] = {
	{ "rules", SIB_P_STRING, "", NULL,
	  "Replacement rules separated by ';' (size>=CUT:NEW, size=S:NEW, "
	  "seb:NAME=DUR, seb:NAME>CUT=DUR, region:PATTERN=DUR, "
	  "region:PATTERN>CUT=DUR, scale:NAME=F), applied when the "
	  "trace is replayed." },
	{ NULL, 0, NULL, NULL, NULL }
};

static const sib_param sim_params[] = {
	{ "seed", SIB_P_INT, "1", "0..9223372036854775807",
	  "Seed of the network models that make random choices." },
	{ NULL, 0, NULL, NULL, NULL }
};


static const sib_param noise_params[] = {
	NOISE_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

static const sib_param var_params[] = {
	VAR_PARAMS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

const struct cfg_section fsim_cfg_sections[NSECTIONS] = {
	[S_MACHINE] = { "machine", machine_params,
			"the nodes of the target machine, where ranks run" },
	[S_INTRANODE] = { "intranode", intranode_params,
			  "messages between ranks of the same node" },
	[S_CPU] = { "cpu", cpu_params, "speed of the target CPU" },
	[S_NET] = { "net", net_params,
		    "the network model and its parameters" },
	[S_REPLACE] = { "replace", replace_params,
			"what-if changes to the trace" },
	[S_SIM] = { "sim", sim_params, "the simulation itself" },
	[S_NOISE] = { "noise", noise_params, "OS noise injected into the run" },
	[S_VARIABILITY] = { "variability", var_params,
			    "random variation of durations, node speeds "
			    "and network times (off by default)" },
};

/* ---------------------------------------------------------- describe */

static const char *type_name(sib_ptype t)
{
	switch (t) {
	case SIB_P_TIME: return "TIME";
	case SIB_P_BW: return "BANDWIDTH";
	case SIB_P_SIZE: return "SIZE";
	case SIB_P_INT: return "INT";
	case SIB_P_RATIO: return "RATIO";
	case SIB_P_BOOL: return "BOOL";
	case SIB_P_ENUM: return "ENUM";
	case SIB_P_STRING: return "STRING";
	}
	return "?";
}

static void describe_params(FILE *f, const sib_param *p,
			    const char *choices)
{
	for (; p && p->key; p++) {
		const char *ch = p == fsim_cfg_sections[S_NET].params ? choices : p->choices;
		fprintf(f, "  %-16s %s", p->key, type_name(p->type));
		if (ch && p->type == SIB_P_INT)
			fprintf(f, " %s", ch);
		else if (ch)
			fprintf(f, " (%s)", ch);
		fprintf(f, ", default ");
		fsim_cfg_write_value(f, p->def);
		fputc('\n', f);
		sib_wrap(f, p->doc ? p->doc : "", 19, 72);
	}
}

/* The registry's model names as net.model's choices, "simple|torus|..". */
static void model_choices(char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; netm_registry[i]; i++) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, "%s%s", i ? "|" : "",
			 netm_registry[i]->name);
	}
}

void fsim_config_describe(FILE *f)
{
	char choices[512];

	model_choices(choices, sizeof choices);
	fputs("Machine description keys (section.key for --set):\n", f);
	for (int s = 0; s < NSECTIONS; s++) {
		fprintf(f, "\n[%s] -- %s\n", fsim_cfg_sections[s].name, fsim_cfg_sections[s].doc);
		describe_params(f, fsim_cfg_sections[s].params, choices);
	}
	fputs("\nUnits: TIME ps, ns, us, ms, s (\"1.5us\"); BANDWIDTH "
	      "B/s, kB/s, MB/s, GB/s, TB/s,\nKiB/s, MiB/s, GiB/s, TiB/s, "
	      "bits as Gb/s or Gbit/s; SIZE bytes, B, kB, MB, GB,\nTB, KiB, "
	      "MiB, GiB, TiB; RATIO 1.25 or 3/4; BOOL yes/no, true/false, "
	      "on/off, 1/0.\n", f);
	for (size_t i = 0; netm_registry[i]; i++) {
		const netm_ops *m = netm_registry[i];
		fprintf(f, "\n[net] with model = %s\n", m->name);
		sib_wrap(f, m->summary ? m->summary : "", 2, 72);
		if (!m->params || !m->params->key)
			fputs("  (no parameters)\n", f);
		describe_params(f, m->params, NULL);
	}
}

/* Markdown text inside a table cell: the characters that would end the
 * cell or start markup are escaped, so it reads as --list-keys prints it. */
static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("\\|`*<", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void md_params(FILE *f, const char *section, const sib_param *p,
		      const char *choices)
{
	if (!p || !p->key) {
		fputs("No parameters.\n", f);
		return;
	}
	fputs("| key | type | default | description |\n"
	      "|---|---|---|---|\n", f);
	for (; p->key; p++) {
		const char *ch = p == fsim_cfg_sections[S_NET].params ? choices : p->choices;
		fprintf(f, "| `%s.%s` | %s", section, p->key,
			type_name(p->type));
		if (ch) {
			fputc(' ', f);
			md_text(f, ch);
		}
		fprintf(f, " | `%s` | ", p->def && *p->def ? p->def : "\"\"");
		md_text(f, p->doc);
		fputs(" |\n", f);
	}
}

void fsim_config_describe_markdown(FILE *f)
{
	char choices[512];

	model_choices(choices, sizeof choices);
	for (int s = 0; s < NSECTIONS; s++) {
		fprintf(f, "\n## [%s]\n\n%c%s.\n\n", fsim_cfg_sections[s].name,
			toupper((unsigned char)fsim_cfg_sections[s].doc[0]),
			fsim_cfg_sections[s].doc + 1);
		md_params(f, fsim_cfg_sections[s].name, fsim_cfg_sections[s].params, choices);
	}
	for (size_t i = 0; netm_registry[i]; i++) {
		const netm_ops *m = netm_registry[i];
		fprintf(f, "\n## [net] with model = %s\n\n", m->name);
		const char *sum = m->summary ? m->summary : "";
		md_text(f, sum);
		fputs(*sum && sum[strlen(sum) - 1] != '.' ? ".\n\n" : "\n\n", f);
		md_params(f, "net", m->params, NULL);
	}
	fputs("\n## Units\n\n"
	      "- TIME: ps, ns, us (or \xc2\xb5s, \xce\xbcs), ms, s (`1.5us`)\n"
	      "- BANDWIDTH: B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, "
	      "TiB/s, bits as Gb/s or Gbit/s\n"
	      "- SIZE: bytes, B, kB, MB, GB, TB, KiB, MiB, GiB, TiB\n"
	      "- RATIO: `1.25` or `3/4`\n"
	      "- BOOL: yes/no, true/false, on/off, 1/0\n"
	      "- INT `MIN..MAX`: an integer in that range\n", f);
}
