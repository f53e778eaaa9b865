/*
 * sib_param.h -- the descriptor of a configuration parameter and its
 * parsed value (internal), shared by the network models (their
 * parameter tables), the machine description that reads them
 * (fastsim/fsim_config.c) and the command line, and the one parser of
 * their values (sib_parse_value, base/sib_value.c).
 *
 * Every name starts with "sib_" or "SIB_".
 */
#ifndef SIBYL_SIB_PARAM_H
#define SIBYL_SIB_PARAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The type of a configuration value and the units its text may carry
 * (base/sib_units.h reads them).  The machine-description parser
 * (fastsim/fsim_config.c) turns the text into a sib_value according to
 * this type.
 */
typedef enum sib_ptype {
	SIB_P_TIME,   /* picoseconds: "1us", "250ns", "1.5ms", "40ps", "2s" */
	SIB_P_BW,     /* bytes/s: "24GB/s", "5GiB/s", "100MB/s", "1e9B/s" */
	SIB_P_SIZE,   /* bytes: "2KiB", "4MB", "512", "512B" */
	SIB_P_INT,    /* integer; `choices' may give "MIN..MAX" */
	SIB_P_RATIO,  /* exact non-negative decimal or fraction: "1.25", "3/4" */
	SIB_P_BOOL,   /* yes/no, true/false, on/off, 1/0 */
	SIB_P_ENUM,   /* one of `choices', written "a|b|c" */
	SIB_P_STRING  /* free text (a path, an hwloc string) */
} sib_ptype;

/* One parameter: tables of these end with an entry whose key is NULL. */
typedef struct sib_param {
	const char *key;      /* name within its section, e.g. "latency" */
	sib_ptype type;
	const char *def;      /* default, as text in the key's own syntax */
	const char *choices;  /* ENUM: "a|b|c"; INT: "MIN..MAX" or NULL */
	const char *doc;      /* one sentence for --help and the docs */
} sib_param;

/*
 * A parameter table and the enum of its indices from one X-macro list, so
 * that the two cannot fall out of step (CODES' model registry does the
 * same).  LIST(X) expands X(ID, KEY, TYPE, DEFAULT, CHOICES, DOC) once per
 * parameter, in the table's order:
 *
 *   #define LINK_PARAMS(X) \
 *           X(P_LATENCY, "latency", SIB_P_TIME, "1us", NULL, "...") \
 *           X(P_BANDWIDTH, "bandwidth", SIB_P_BW, "10GB/s", NULL, "...")
 *   enum { LINK_PARAMS(SIB_PARAM_ID) P_COUNT };
 *   static const sib_param link_params[] = {
 *           LINK_PARAMS(SIB_PARAM_ENTRY) SIB_PARAM_END
 *   };
 */
#define SIB_PARAM_ID(id, key, type, def, choices, doc) id,
#define SIB_PARAM_ENTRY(id, key, type, def, choices, doc) \
	{ key, type, def, choices, doc },
#define SIB_PARAM_END { NULL, 0, NULL, NULL, NULL }

/* A parsed value.  TIME, BW, SIZE, INT and BOOL use i; ENUM uses i (the
 * index into choices) and s; RATIO uses num/den (den > 0, reduced);
 * STRING uses s.  `set' is nonzero when the value did not come from the
 * default.  Strings belong to the configuration that parsed them. */
typedef struct sib_value {
	int64_t i;
	int64_t num, den;
	const char *s;
	int set;
} sib_value;

/*
 * text as a value of parameter p (base/sib_value.c): blanks around it are
 * ignored; numbers are exact, never read through a double ("1.5ns" is
 * 1500 ps, "0.1s" exactly 10^11 ps), with every unit of sib_units.h.  A
 * STRING value points into text.  Messages name the value `name' (NULL:
 * p->key), e.g. "net.latency: '5' has no unit; say the unit, e.g. 1us".
 * Returns 0, or -1 with one sentence in err.
 */
int sib_parse_value(const sib_param *p, const char *name, const char *text,
		    sib_value *v, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_PARAM_H */
