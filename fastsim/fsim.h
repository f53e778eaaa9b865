/*
 * fsim.h -- fastsim, the sequential trace-driven simulator of Sibyl.
 *
 * fastsim replays a Sibyl trace (tracefmt/) on a model of a target
 * machine: CPU speed, rank placement on nodes, an intra-node copy model
 * and a network model (netmodels/).  Its exact semantics are written down
 * in fastsim/SEMANTICS.md; its configuration keys in docs/machine.md.
 *
 * This header is the interface between the parts of fastsim and the
 * `sibyl sim' command:
 *   - the machine description (fsim_config_*, fsim_machine_*): a config
 *     file of `key = value' sections, --set overrides, unit-aware values;
 *   - replacement rules (fsim_rules_*);
 *   - output writers for timelines (fsim_out_ops);
 *   - link statistics and link time series (fsim_link_*, fsim_series_*);
 *   - the engine (fsim_run).
 *
 * Conventions: every name starts with "fsim_"; time is sib_ps
 * (picoseconds, int64); functions returning int return 0 on success and
 * nonzero on failure with a complete sentence in the caller's err buffer
 * (naming the file and line, the key, the rank... and what to do).
 */
#ifndef SIBYL_FSIM_H
#define SIBYL_FSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "netmodel.h"
#include "sib_dist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ============================================== machine description */

/*
 * A configuration is a set of sections, each a set of keys:
 *
 *   [machine]   nodes, cores_per_node, topology, map
 *   [intranode] latency, bandwidth
 *   [cpu]       factor
 *   [net]       model, then the parameters of that model
 *   [replace]   rules
 *   [sim]       seed
 *   [noise]     dir, seed, scale, cosched
 *   [variability] seed, profile, temporal, spatial, spatial_per,
 *               spatial_file, network
 *
 * A key is addressed as "section.key" by --set.  Every key has a default
 * (see fsim_config_describe), so an empty configuration is valid.
 */
typedef struct fsim_config fsim_config;

int fsim_config_new(fsim_config **cp);
void fsim_config_free(fsim_config *c);

/* Read a config file.  Later files and --set override earlier values.
 * Syntax errors name file:line.  The file must be a regular file of at
 * most FSIM_CONFIG_MAX_BYTES bytes, in lines of at most
 * FSIM_CONFIG_MAX_LINE bytes, without NUL bytes. */
#define FSIM_CONFIG_MAX_LINE 65536
#define FSIM_CONFIG_MAX_BYTES (1024 * 1024)
int fsim_config_load(fsim_config *c, const char *path, char *err,
		     size_t errlen);
/* One override "section.key=value" (as given to --set). */
int fsim_config_set(fsim_config *c, const char *assignment, char *err,
		    size_t errlen);
/*
 * Check every key given against its section's schema (net.* against the
 * selected model's parameters) and parse every value, defaults included.
 * An unknown section or key is an error that suggests the closest valid
 * one ("unknown key 'net.latncy' (did you mean 'net.latency'?)") and
 * names where it was given (file:line or --set).  Must succeed before the
 * getters below are used.
 */
int fsim_config_resolve(fsim_config *c, char *err, size_t errlen);

/* A resolved value ("machine", "nodes"), or NULL when no such key. */
const sib_value *fsim_config_get(const fsim_config *c, const char *section,
				  const char *key);
/* Where key section.key was given ("file.conf:12", "--set"), or NULL
 * for a default (net.* model keys: NULL). */
const char *fsim_config_origin(const fsim_config *c, const char *section,
			       const char *key);
/* The selected network model and its values (parallel to ops->params). */
const netm_ops *fsim_config_model(const fsim_config *c);
const sib_value *fsim_config_model_values(const fsim_config *c);

/* Write the effective configuration, every key of every section in use,
 * as a config file that reproduces the run; keys left at their default
 * are marked "# default". */
int fsim_config_write(const fsim_config *c, FILE *f);
/* Document every section, key, type, default and every model's keys
 * (used by `sibyl sim --list-keys' and to check docs/machine.md). */
void fsim_config_describe(FILE *f);
/* The same as markdown tables, one per section and per network model
 * (`sibyl sim --list-keys=markdown', docs/config-reference.md). */
void fsim_config_describe_markdown(FILE *f);

/* Parse text as a value of parameter p: base/sib_param.h's
 * sib_parse_value, the parser of every key of a machine description. */
int fsim_parse_value(const sib_param *p, const char *text, sib_value *v,
		     char *err, size_t errlen);

/*
 * The machine derived from a resolved configuration and a rank count.
 * Ranks are placed on nodes in rank order (rank r on node
 * r / cores_per_node, core r % cores_per_node) unless machine.map names a
 * mapping file:
 *
 *   # comment
 *   RANK NODE [CORE]
 *
 * one line per rank, every rank exactly once, NODE < nodes, at most
 * cores_per_node ranks per node, CORE (when given) < cores_per_node and
 * unique on its node (otherwise the ranks of a node take its free cores
 * in file order).  machine.topology, an hwloc synthetic topology string
 * ("package:2 core:16 pu:1"), gives cores_per_node as its number of PUs.
 * machine.nodes = 0 means as many nodes as the ranks need.
 */
typedef struct fsim_machine {
	uint32_t npes, nnodes, cores_per_node;
	uint32_t *node_of;        /* per rank; NULL for rank order */
	uint32_t *core_of;        /* per rank; NULL for rank order */
	sib_ps intra_latency;  /* intranode.latency */
	int64_t intra_bandwidth;  /* intranode.bandwidth, bytes/s */
	netm_pieces intra_pieces; /* intranode.protocols; n == 0: none */
	int intra_serialize;      /* intranode.serialize */
	netm_pieces intra_stream; /* intranode.stream; n == 0: none */
	char *topology;           /* hwloc synthetic string used, or NULL */
} fsim_machine;

int fsim_machine_build(fsim_machine **mp, const fsim_config *c,
		       uint32_t npes, char *err, size_t errlen);

/*
 * Limits of the machine: nodes without ranks cost memory and output
 * (network links, links.csv rows) but tell nothing about the run, so a
 * machine may have at most fsim_machine_max_nodes(used) nodes when
 * `used' of them hold ranks: FSIM_MACHINE_NODE_FACTOR times the nodes
 * used, or FSIM_MACHINE_FREE_NODES, whichever is more.  A mapping file
 * line is at most FSIM_MAP_MAX_LINE bytes (and the file a regular file
 * without NUL bytes).
 */
#define FSIM_MACHINE_NODE_FACTOR 64
#define FSIM_MACHINE_FREE_NODES 65536
#define FSIM_MAP_MAX_LINE 4096
uint64_t fsim_machine_max_nodes(uint64_t used);
void fsim_machine_free(fsim_machine *m);

static inline uint32_t fsim_node_of(const fsim_machine *m, uint32_t pe)
{
	return m->node_of ? m->node_of[pe] : pe / m->cores_per_node;
}

static inline uint32_t fsim_core_of(const fsim_machine *m, uint32_t pe)
{
	return m->core_of ? m->core_of[pe] : pe % m->cores_per_node;
}

/* ================================================= replacement rules */

/*
 * Rules change the trace at replay time, so a what-if needs no new
 * emulation.  Text syntax, one rule or several separated by ';':
 *
 *   size>=CUT:NEW      messages of CUT bytes or more get NEW bytes
 *   size=S:NEW         messages of exactly S bytes get NEW bytes
 *   seb:NAME=DUR       SEBs named NAME take duration DUR
 *   seb:NAME>CUT=DUR   ... only when their traced duration exceeds CUT
 *   region:PAT=DUR     SEBs whose code region matches the fnmatch(3)
 *                      pattern PAT take duration DUR
 *   region:PAT>CUT=DUR ... only when their traced duration exceeds CUT
 *   scale:NAME=F       durations of SEBs named NAME are multiplied by F
 *
 * Sizes and durations take units (4KiB, 1ms); F is a ratio (0.5, 3/4).
 * For a message size, exact rules are tried before cut-off rules, each
 * kind in the order given; the first match wins.  For an SEB, the first
 * seb: rule of its name or region: rule of its region that matches, in
 * the order given, replaces the duration; otherwise the duration is
 * multiplied by its name's scale (if any) and by cpu.factor.  An SEB
 * without a region matches no region: rule.
 */
typedef struct fsim_rules fsim_rules;

int fsim_rules_new(fsim_rules **rp);
void fsim_rules_free(fsim_rules *r);
/* Add rules from text; origin ("--replace", "cfg.conf:12") goes into
 * error messages. */
int fsim_rules_add(fsim_rules *r, const char *text, const char *origin,
		   char *err, size_t errlen);
/* The global CPU factor (cpu.factor), as an exact ratio. */
void fsim_rules_set_cpu_factor(fsim_rules *r, int64_t num, int64_t den);
int fsim_rules_empty(const fsim_rules *r); /* no rule and factor 1 */

/* The size a message of `size' bytes is simulated with. */
uint64_t fsim_rules_size(const fsim_rules *r, uint64_t size);

/* What happens to the durations of SEBs with a given name. */
typedef struct fsim_durrule {
	int nrules;           /* number of seb: rules for this name (or
	                         region: rules for this region) */
	const sib_ps *cut; /* per rule: traced duration must exceed it
	                         (-1: any duration) */
	const sib_ps *dur; /* per rule: the new duration */
	const uint32_t *order;/* per rule, increasing: its place among all
	                         rules, for the first match over a name's
	                         and a region's rules */
	int64_t num, den;     /* otherwise: multiply by num/den (name scale
	                         times cpu.factor; 1/1 when none) */
} fsim_durrule;
/* Resolve the rule for `name' (valid while r lives). */
void fsim_rules_for_name(const fsim_rules *r, const char *name,
			 fsim_durrule *out);
/* Nonzero when there is a region: rule (the engine then looks at the
 * region of every SEB). */
int fsim_rules_have_regions(const fsim_rules *r);
/* The region: rules whose pattern matches `region' (none for NULL or
 * ""); num/den are 1/1.  The arrays are allocated: release them with
 * fsim_durrule_release().  0, or -1 out of memory. */
int fsim_rules_for_region(const fsim_rules *r, const char *region,
			  fsim_durrule *out);
void fsim_durrule_release(fsim_durrule *d);
/* The next rule of a ';'-separated list at *sp (a ';' inside quotes is
 * part of it), trimmed and allocated (NULL: out of memory); *sp moves
 * past it.  Call while **sp. */
char *fsim_rules_next(const char **sp);
/* The target of a seb:NAME=VALUE or region:PATTERN=VALUE rule (no
 * cut-off), as the replacement rules read it: *key allocated, *val
 * pointing into text.  0, or -1 with a sentence in err. */
int fsim_rules_target(const char *text, int *is_region, char **key,
		      const char **val, char *err, size_t errlen);
/* A human description of the rules in force, one per line, prefixed. */
void fsim_rules_describe(const fsim_rules *r, FILE *f, const char *prefix);
/* Count of rules by kind, for the summary. */
size_t fsim_rules_count(const fsim_rules *r);

/* ======================================================== variability */

/*
 * Variability models (docs/variability.md): durations drawn per code
 * region or SEB name, a speed factor per node or core, a jitter of
 * network times by message size.  Every draw is a function of the seed
 * and of what it is for -- (PE, SEB index) for a duration, the node or
 * core for a speed, (source PE, sequence number) for a message -- so it
 * does not depend on the order of the replay or the window size.
 *
 * A profile (`sibyl trace profile', `sibyl sim --variability') is a list
 * of blocks, one per code region or SEB name: its distribution, made of
 * one or more clusters, and the pattern in which the clusters repeat.
 */
typedef struct fsim_vblock {
	int by_region;          /* region "..." (1) or seb "..." (0) */
	int glob;               /* key is an fnmatch(3) pattern */
	char *key;              /* the region, the pattern or the name */
	uint64_t samples;       /* what it was made from (0: not said) */
	double median;          /* ps (0: not said) */
	uint32_t nclusters;     /* >= 1 */
	sib_dist dist;          /* the cluster, or a mix of the clusters
	                           (durations in ps) */
	uint32_t npattern;      /* 0: clusters drawn by their weights */
	uint32_t *pattern;      /* cluster indices from 0, replayed in a
	                           loop per PE */
	uint64_t *csamples;     /* per cluster: samples (writer; may be
	                           NULL) */
	char *origin;           /* "PROFILE:12", "variability.temporal" */
} fsim_vblock;

typedef struct fsim_profile {
	fsim_vblock *b;
	uint32_t n, cap;
	char *source;           /* the trace it was made from, or NULL */
} fsim_profile;

#define FSIM_PROFILE_VERSION 1
/* The most blocks, clusters per block, pattern length of a profile. */
#define FSIM_PROFILE_MAX_BLOCKS 65536
#define FSIM_PROFILE_MAX_PATTERN 4096

/* Read a profile; errors name PROFILE:LINE and what to write. */
int fsim_profile_read(fsim_profile *pr, const char *path, char *err,
		      size_t errlen);
/* Add a block (copied: the caller keeps b); 0, or -1 out of memory. */
int fsim_profile_add(fsim_profile *pr, const fsim_vblock *b);
/* Write a profile in the documented format; 0 or -1 on write error. */
int fsim_profile_write(const fsim_profile *pr, FILE *f);
void fsim_profile_free(fsim_profile *pr);
void fsim_vblock_free(fsim_vblock *b);

typedef struct fsim_var fsim_var;
#define FSIM_VAR_NONE UINT32_MAX

/*
 * The models of a resolved configuration's [variability] keys and the
 * profile they name, for a run on machine m.  *vp is NULL when every
 * model is off (the replay is then exactly that without variability).
 * Errors name the key's origin or the profile's line: SIB_ECONFIG.
 */
int fsim_var_new(fsim_var **vp, const fsim_config *c, const fsim_machine *m,
		 char *err, size_t errlen);
void fsim_var_free(fsim_var *v);
uint64_t fsim_var_seed(const fsim_var *v);
/* The first block for SEB name `name', or for code region `region'
 * (FSIM_VAR_NONE: none); the engine keeps the lower of the two. */
uint32_t fsim_var_for_name(const fsim_var *v, const char *name);
uint32_t fsim_var_for_region(const fsim_var *v, const char *region);
int fsim_var_have_regions(const fsim_var *v);
/* The duration drawn from block b for SEB `index' of PE pe (which must
 * come in index order per PE for a block with a pattern). */
sib_ps fsim_var_draw(fsim_var *v, uint32_t b, uint32_t pe, uint64_t index);
/* dur on PE pe's node or core (spatial); *changed when it did. */
sib_ps fsim_var_speed(const fsim_var *v, uint32_t pe, sib_ps dur);
int fsim_var_have_speed(const fsim_var *v);
/* The network time `xfer' of message seq of PE src, of `bytes', with
 * its jitter. */
sib_ps fsim_var_net(const fsim_var *v, uint32_t src, uint64_t seq,
		    uint64_t bytes, sib_ps xfer);
int fsim_var_have_net(const fsim_var *v);

/* ===================================================== output writers */

/* What every writer is told when it opens; it stays valid until the
 * writer's close() returns. */
typedef struct fsim_out_info {
	const char *trace;        /* trace path as given */
	uint32_t npes;            /* ranks in the trace */
	const fsim_machine *machine;
	const uint8_t *selected;  /* per PE: nonzero when the PE is in the
	                             timeline (records come only for them) */
	uint32_t nselected;
	const char *const *names; /* SEB names that may appear, nnames of them
	                             (an SEB record gives an index into it) */
	uint32_t nnames;
} fsim_out_info;

/* One SEB as executed. */
typedef struct fsim_seb_rec {
	uint32_t pe, name;        /* name: index into fsim_out_info.names */
	uint64_t index;           /* SEB index on its PE */
	sib_ps start, end;
	uint32_t nsends, nwaits;
} fsim_seb_rec;

/* One message, reported when it is delivered. */
typedef struct fsim_msg_rec {
	uint32_t src, dst;
	uint64_t seq;             /* per-source sequence number */
	uint64_t src_seb;         /* sending SEB's index on src */
	int32_t tag;
	uint64_t bytes;           /* after replacement */
	sib_ps sent, arrived;
} fsim_msg_rec;

/*
 * A timeline writer.  Records come in the order the simulator produces
 * them: SEB records by start time, message records by arrival time, the
 * two kinds interleaved (a message record may come before the record of
 * the SEB that sent it is complete, never before that SEB started).
 * Writers stream to files in `dir' and keep memory bounded.
 */
typedef struct fsim_out_ops {
	const char *name;         /* "projections", "chrome" */
	const char *summary;
	int (*open)(void **st, const char *dir, const fsim_out_info *info,
		    char *err, size_t errlen);
	void (*seb)(void *st, const fsim_seb_rec *r);
	void (*msg)(void *st, const fsim_msg_rec *r);
	/* Finish: `end' is the predicted end time.  Returns nonzero (with
	 * err) when writing failed at any point. */
	int (*close)(void *st, sib_ps end, char *err, size_t errlen);
} fsim_out_ops;

extern const fsim_out_ops fsim_out_projections;
extern const fsim_out_ops fsim_out_chrome;
/* NULL-terminated list of all writers, and lookup by name. */
extern const fsim_out_ops *const fsim_outputs[];
const fsim_out_ops *fsim_output_find(const char *name);

/* ========================================================= the engine */

/* Which part of the trace to simulate (skip points). */
typedef enum fsim_region_kind {
	FSIM_REGION_WHOLE = 0,  /* every SEB */
	FSIM_REGION_MARKERS,    /* from each PE's first skip-start marker up to
	                           (not including) its next skip-end marker */
	FSIM_REGION_ITERS       /* from the SEB marked iteration `first' up
	                           to the first SEB marked with a later
	                           iteration than `last' (or a skip end) */
} fsim_region_kind;

typedef struct fsim_opts {
	const char *trace;          /* trace directory or bundle */
	const char *scratch;        /* for a bundle: an empty directory the
	                               caller owns to unpack it into (see
	                               sibt_trace_open_in), or NULL */
	const char *outdir;         /* output directory, as named to the user
	                               (required) */
	const char *stage;          /* existing empty directory the outputs
	                               are written into (required); the
	                               caller moves it to outdir after a
	                               successful run, or removes it */
	const fsim_config *cfg;     /* resolved machine description */
	const fsim_rules *rules;    /* replacement rules incl. cpu factor */
	fsim_region_kind region;
	int64_t iter_first, iter_last;
	/* timelines: NULL-terminated writers, and the PEs they cover */
	const fsim_out_ops *const *timelines;
	const uint8_t *tl_selected; /* per PE, NULL = all */
	/* progress callback (may be NULL): SEBs done out of an estimate */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	const char *cmdline;        /* recorded in the summary */
	/* link time series (linkseries.csv): the interval (0 = none) and
	 * the links recorded, in the syntax of fsim_link_select (NULL =
	 * every link) */
	sib_ps link_interval;
	const char *link_select;
} fsim_opts;

/* Min/mean/max over PEs. */
typedef struct fsim_stat {
	sib_ps min, max;
	double mean;
	uint32_t min_pe, max_pe;
} fsim_stat;

/* The links of one class, summed (a row of link_classes.csv). */
typedef struct fsim_link_class {
	char name[NETM_ENDPOINT_MAX];
	uint32_t links;
	uint64_t bytes, packets;
	uint64_t busy;              /* sum over its links, ps */
	uint64_t max_bytes;         /* of its most loaded link */
	sib_ps max_busy;         /* of its busiest link */
} fsim_link_class;

/* One link with its statistics and its class's name. */
typedef struct fsim_link_rec {
	uint32_t id;
	char cls[NETM_ENDPOINT_MAX];
	netm_link_info info;
} fsim_link_rec;

typedef struct fsim_result {
	sib_ps predicted;        /* end of the last SEB simulated */
	uint32_t npes, nnodes;
	char region[256];           /* what was simulated, in words */
	uint64_t sebs;              /* SEBs executed */
	uint64_t messages, bytes;   /* messages delivered, after rules */
	uint64_t intra_messages, intra_bytes;
	uint64_t net_messages, net_bytes;
	uint64_t boundary_messages; /* region mode: crossing its boundary */
	uint64_t prints;
	fsim_stat busy, idle;
	/* noise (noise.dir set): the time detours added to SEBs, in total
	 * and per PE (busy counts computation only; idle excludes noise) */
	int noise;
	uint64_t noise_seed;        /* noise.seed, or sim.seed for -1 */
	sib_ps noise_total;
	fsim_stat noise_pe;
	/* variability (a [variability] key set): its seed, the SEBs whose
	 * duration was drawn and the messages whose network time was */
	int variability;
	uint64_t var_seed, var_sebs, var_messages;
	netm_totals net;
	/* links (links.csv, link_classes.csv); nlinks = 0 for a model
	 * without links.  max_bytes and max_busy are the lowest-numbered
	 * links with the most bytes and the most busy time (valid when
	 * nlinks > 0).  link_classes is allocated: fsim_result_free. */
	uint32_t nlinks, nlink_classes;
	fsim_link_class *link_classes;
	fsim_link_rec max_bytes, max_busy;
	uint64_t events, seb_events, msg_events;
	uint64_t windows_loaded;
	double wall_s, events_per_s;
	uint64_t peak_rss;
	const char *outdir;
} fsim_result;

/*
 * Replay the trace and write the outputs (summary.txt, summary.json,
 * prints.txt, machine.conf, links, timelines) into o->stage, which the
 * caller moves into place on success and removes on failure.  On failure
 * err says what went wrong: an unreadable trace (file, PE, window), a
 * trace that does not close (a message nobody awaits), a stalled replay
 * (the stuck PEs and what each waits for), or a time beyond the range of
 * sib_ps (the PE, SEB or message and the value).  Returns 0,
 * SIB_ECONFIG (base/sib_err.h) for a machine description that does not
 * fit the trace (too few cores, a bad mapping file, model parameters, a
 * bound set too low), or SIB_EFAIL for a problem of the trace or of the
 * system.
 */
int fsim_run(const fsim_opts *o, fsim_result *res, char *err, size_t errlen);

/* Release what a successful fsim_run allocated in r (r stays readable
 * for its plain fields). */
void fsim_result_free(fsim_result *r);

/* Human-readable summary (the content of summary.txt). */
void fsim_result_print(const fsim_result *r, const fsim_opts *o, FILE *f);
/* The content of summary.json. */
void fsim_result_json(const fsim_result *r, const fsim_opts *o, FILE *f);

/* ============================================================== links */

/*
 * Link statistics (docs/links.md gives the file formats).
 *
 * A link selection is a comma-separated list of class names ("LL",
 * "nic-out", "x+"), link ids and inclusive id ranges ("0-30", "55"), or
 * "all".  fsim_link_select marks sel[id] = 1 for every link it chooses,
 * among nlinks links where link id is of class class_of[id] (UINT32_MAX:
 * a link id that `where' does not hold, which a class never chooses).
 * Errors name `what' (the option) and, for an unknown class, list the
 * classes; `where' ("the model", "OUT/linkseries.csv") says whose links
 * they are.  Returns 0, or -1 with a sentence in err.
 */
int fsim_link_select(const char *text, const char *what, const char *where,
		     uint32_t nlinks, const uint32_t *class_of,
		     const char *const *class_names, uint32_t nclasses,
		     uint8_t *sel, char *err, size_t errlen);

/* num/den as a decimal with `decimals' (at most 18) digits after the
 * point, rounded half up, computed exactly ("0.250000000"); 0 when den
 * is 0.  fsim_fmt_ratio writes it into buf (64 bytes suffice) and
 * returns buf. */
void fsim_put_ratio(FILE *f, unsigned __int128 num, unsigned __int128 den,
		    unsigned decimals);
char *fsim_fmt_ratio(char *buf, size_t len, unsigned __int128 num,
		     unsigned __int128 den, unsigned decimals);

/*
 * A reader of the CSV files above (RFC 4180 quoting; every row has as
 * many fields as the header).  fsim_csv_open reads the header and finds
 * the ncols columns named in cols, in any order; fsim_csv_next reads the
 * next row (1), or reports the end (0) or an error (-1); then
 * fsim_csv_get(c, i) is the text of column cols[i].  Errors name the
 * file and line and say what is wrong.  fsim_csv_u64 and fsim_csv_fixed
 * parse column i as a whole number, or as a non-negative decimal with at
 * most `decimals' digits after the point, given in units of
 * 10^-decimals ("0.25" with 9 decimals is 250000000).
 */
typedef struct fsim_csv fsim_csv;

/* Write s as one CSV field, quoted when it must be. */
void fsim_csv_field(FILE *f, const char *s);

/* A list of distinct names (the link classes a tool meets in CSV files):
 * fsim_names_index gives the index of name, adding it when new; -1 when
 * out of memory. */
typedef struct fsim_names {
	char **v;
	uint32_t n;
} fsim_names;
int fsim_names_index(fsim_names *s, const char *name, uint32_t *out);
void fsim_names_free(fsim_names *s);

int fsim_csv_open(fsim_csv **cp, const char *path, const char *const *cols,
		  int ncols, char *err, size_t errlen);
int fsim_csv_next(fsim_csv *c, char *err, size_t errlen);
const char *fsim_csv_get(const fsim_csv *c, int i);
int fsim_csv_u64(const fsim_csv *c, int i, uint64_t *out, char *err,
		 size_t errlen);
int fsim_csv_fixed(const fsim_csv *c, int i, unsigned decimals,
		   uint64_t *out, char *err, size_t errlen);
void fsim_csv_close(fsim_csv *c);

/*
 * The writers the engine uses at the end of a run (internal to fastsim).
 * fsim_links_write writes DIR/links.csv and DIR/link_classes.csv for the
 * links of model m and fills the link fields of r (r->predicted set).
 */
int fsim_links_write(const netm_model *m, const char *dir, fsim_result *r,
		     char *err, size_t errlen);

/*
 * A link time series: per selected link and per interval of `interval'
 * ps, the busy time netm_host.link_busy reported, each [start, end)
 * split exactly over the intervals it overlaps; calls may come in any
 * order.  Memory is 8 bytes per selected link and interval, allocated as
 * time advances and bounded by SIBYL_LINK_TRACE_MEM bytes (default
 * 256 MiB); fsim_series_add fails with SIB_ECONFIG past the bound.
 */
typedef struct fsim_series fsim_series;

int fsim_series_new(fsim_series **sp, sib_ps interval, char *err,
		    size_t errlen);
/* Choose the links (text: a selection, NULL = all) among m's links. */
int fsim_series_select(fsim_series *s, const netm_model *m,
		       const char *text, char *err, size_t errlen);
int fsim_series_add(fsim_series *s, uint32_t link, sib_ps start,
		    sib_ps end, char *err, size_t errlen);
/* Write DIR/linkseries.csv: intervals up to `end' (and beyond, up to the
 * last busy time recorded). */
int fsim_series_write(const fsim_series *s, const netm_model *m,
		      const char *dir, sib_ps end, char *err,
		      size_t errlen);
void fsim_series_free(fsim_series *s);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_FSIM_H */
