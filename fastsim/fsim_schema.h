/*
 * fsim_schema.h -- the keys of a machine description (internal to
 * fastsim): its sections, each with its parameter table (fsim_schema.c),
 * which fsim_config.c parses and fsim_config_describe documents.
 */
#ifndef SIBYL_FSIM_SCHEMA_H
#define SIBYL_FSIM_SCHEMA_H

#include <stdio.h>

#include "sib_param.h"

#define CFG_DEFAULT_MODEL "simple"

enum { S_MACHINE, S_INTRANODE, S_CPU, S_NET, S_REPLACE, S_SIM, S_NOISE,
       S_VARIABILITY, NSECTIONS };

/* The parameters of [machine] in one X-macro list (sib_param.h), which
 * gives the table machine_params and its indices. */
#define MACHINE_PARAMS(X) \
	X(M_NODES, "nodes", SIB_P_INT, "0", "0..4294967295", \
	  "Number of nodes of the target machine; 0 means as many as the " \
	  "ranks need (ranks / cores_per_node rounded up, or with " \
	  "machine.map the highest node it names plus one).") \
	X(M_CORES, "cores_per_node", SIB_P_INT, "1", "1..1048576", \
	  "Ranks each node can hold, one per core; taken from " \
	  "machine.topology when that is set.") \
	X(M_TOPOLOGY, "topology", SIB_P_STRING, "", NULL, \
	  "hwloc synthetic topology of one node, e.g. \"package:2 " \
	  "core:16 pu:1\"; its number of PUs becomes cores_per_node.") \
	X(M_MAP, "map", SIB_P_STRING, "", NULL, \
	  "Rank-to-node mapping file (lines `RANK NODE [CORE]'); empty " \
	  "for rank order.  A relative path is taken from the directory " \
	  "of the configuration file that sets it.")

enum { MACHINE_PARAMS(SIB_PARAM_ID) M_COUNT };

/* The parameters of [noise] in one X-macro list (sib_param.h), which
 * gives the table noise_params and its indices. */
#define NOISE_PARAMS(X) \
	X(N_DIR, "dir", SIB_P_STRING, "", NULL, \
	  "Noise set (a directory of per-core noise files, " \
	  "docs/noise.md); empty for no noise.  A relative path is taken " \
	  "from the directory of the configuration file that sets it.") \
	X(N_SEED, "seed", SIB_P_INT, "-1", "-1..9223372036854775807", \
	  "Seed of the per-node offsets of captured noise; -1 means " \
	  "sim.seed.") \
	X(N_SCALE, "scale", SIB_P_RATIO, "1", NULL, \
	  "Every detour duration is multiplied by this (0: noise off, " \
	  "the set still checked).") \
	X(N_COSCHED, "cosched", SIB_P_BOOL, "no", NULL, \
	  "Captured noise: every node uses the offset of node 0 " \
	  "(co-scheduled noise).")

enum { NOISE_PARAMS(SIB_PARAM_ID) N_COUNT };

/* The parameters of [variability] (docs/variability.md), off by
 * default; the section is written to a run's machine.conf only when one
 * of them is set. */
#define VAR_PARAMS(X) \
	X(V_SEED, "seed", SIB_P_INT, "-1", "-1..9223372036854775807", \
	  "Seed of every variability draw; -1 means sim.seed.  A draw " \
	  "depends only on the seed, the PE (or node, or message) and " \
	  "the SEB index, never on the order of the replay.") \
	X(V_PROFILE, "profile", SIB_P_STRING, "", NULL, \
	  "Variability profile (sibyl trace profile; docs/variability.md): " \
	  "per code region or SEB name, the distribution of durations, " \
	  "its clusters and their pattern.  A relative path is taken " \
	  "from the directory of the configuration file that sets it.") \
	X(V_TEMPORAL, "temporal", SIB_P_STRING, "", NULL, \
	  "Distributions of SEB durations, ';'-separated, tried before " \
	  "the profile: 'seb:NAME=DIST' or 'region:PATTERN=DIST', e.g. " \
	  "seb:compute=lognormal(1ms, 0.25); DIST is fixed(V), " \
	  "normal(MEAN, SD), lognormal(MEDIAN, SIGMA), uniform(LO, HI), " \
	  "empirical(X:F, ...) or mix(W DIST, ...).") \
	X(V_SPATIAL, "spatial", SIB_P_STRING, "", NULL, \
	  "Distribution of a speed factor drawn once per node (or core, " \
	  "spatial_per) that multiplies every SEB duration there, e.g. " \
	  "normal(1, 0.03); empty: none.") \
	X(V_SPATIAL_PER, "spatial_per", SIB_P_ENUM, "node", "node|core", \
	  "Whether spatial draws one factor per node or one per core of " \
	  "each node.") \
	X(V_SPATIAL_FILE, "spatial_file", SIB_P_STRING, "", NULL, \
	  "The report.json of sibyl calibrate: core c of every node runs " \
	  "at the speed of calibrated rank c modulo their number, its " \
	  "kernel time over their median.  A relative path is taken from " \
	  "the directory of the configuration file that sets it.") \
	X(V_NETWORK, "network", SIB_P_STRING, "", NULL, \
	  "Jitter of network messages by size range, 'SIZE: DIST; SIZE: " \
	  "DIST', the first range from 0: the time a message spends in " \
	  "the network model is multiplied by a factor drawn from DIST, " \
	  "e.g. '0: lognormal(1, 0.1); 64KiB: normal(1, 0.02)'.")

enum { VAR_PARAMS(SIB_PARAM_ID) V_COUNT };

struct cfg_section {
	const char *name;
	const sib_param *params;
	const char *doc;
};

/* Indexed by S_*. */
extern const struct cfg_section fsim_cfg_sections[NSECTIONS];

/* fsim_config.c: s as a value of a description, quoted when it must be. */
void fsim_cfg_write_value(FILE *f, const char *s);

#endif /* SIBYL_FSIM_SCHEMA_H */
