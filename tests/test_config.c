/*
 * test_config.c -- the machine description (fastsim/fsim_config.c), the
 * machine built from it (fsim_machine.c) and replacement rules
 * (fsim_rules.c): unit conversions, every class of error and what its
 * message says, precedence, mapping files, hwloc topologies, rules.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsim.h"
#include "sibtest.h"

static const char *tmp;
static char err[2048];

/* ----------------------------------------------------------- helpers */

static const char *write_file(const char *name, const char *text)
{
	return test_write_file(tmp, name, text);
}

static int parse(sib_ptype type, const char *choices, const char *text,
		 sib_value *v)
{
	sib_param p = { "k", type, NULL, choices, NULL };
	err[0] = '\0';
	return fsim_parse_value(&p, text, v, err, sizeof err);
}

static int64_t ival(sib_ptype type, const char *text)
{
	sib_value v;
	if (parse(type, NULL, text, &v)) {
		TEST_FAIL("'%s' did not parse: %s", text, err);
		return -1;
	}
	return v.i;
}

/* Parse text and expect an error containing `want'. */
static void bad(sib_ptype type, const char *choices, const char *text,
		const char *want)
{
	sib_value v;
	int rc = parse(type, choices, text, &v);
	assertTrue(rc != 0);
	if (rc == 0)
		fprintf(stderr, "  ('%s' was accepted)\n", text);
	assertContains(err, want);
}

/* A config from file contents (and optional --set), resolved. */
static fsim_config *config(const char *text, const char *set, int *rc)
{
	fsim_config *c;
	if (fsim_config_new(&c)) {
		fprintf(stderr, "out of memory\n");
		exit(99);
	}
	err[0] = '\0';
	*rc = 0;
	if (text)
		*rc = fsim_config_load(c, write_file("t.conf", text), err,
				       sizeof err);
	if (!*rc && set)
		*rc = fsim_config_set(c, set, err, sizeof err);
	if (!*rc)
		*rc = fsim_config_resolve(c, err, sizeof err);
	return c;
}

static void config_error(const char *text, const char *set,
			 const char *want, const char *want2)
{
	int rc;
	fsim_config *c = config(text, set, &rc);
	assertTrue(rc != 0);
	assertContains(err, want);
	if (want2)
		assertContains(err, want2);
	fsim_config_free(c);
}

static int64_t get_i(const fsim_config *c, const char *s, const char *k)
{
	const sib_value *v = fsim_config_get(c, s, k);
	if (!v) {
		TEST_FAIL("no value for %s.%s", s, k);
		return -1;
	}
	return v->i;
}

static int model_index(const fsim_config *c, const char *key)
{
	const netm_ops *m = fsim_config_model(c);
	for (int i = 0; m && m->params[i].key; i++)
		if (strcmp(m->params[i].key, key) == 0)
			return i;
	TEST_FAIL("model has no parameter %s", key);
	return 0;
}

/* ------------------------------------------------------------- units */

static void test_units(void)
{
	sib_value v;

	/* TIME, in picoseconds. */
	assertEqualInt(ival(SIB_P_TIME, "1.5us"), 1500000);
	assertEqualInt(ival(SIB_P_TIME, "1.5ns"), 1500);
	assertEqualInt(ival(SIB_P_TIME, "250 ns"), 250000);
	assertEqualInt(ival(SIB_P_TIME, " 40ps "), 40);
	assertEqualInt(ival(SIB_P_TIME, "2s"), INT64_C(2000000000000));
	assertEqualInt(ival(SIB_P_TIME, "1.5ms"), 1500000000);
	assertEqualInt(ival(SIB_P_TIME, "0.1s"), INT64_C(100000000000));
	assertEqualInt(ival(SIB_P_TIME, "2e3ns"), 2000000);
	assertEqualInt(ival(SIB_P_TIME, "2E-3s"), 2000000000);
	assertEqualInt(ival(SIB_P_TIME, "1\xc2\xb5s"), 1000000);
	assertEqualInt(ival(SIB_P_TIME, "0"), 0);
	assertEqualInt(ival(SIB_P_TIME, "0.0"), 0);
	assertEqualInt(ival(SIB_P_TIME, "9223372036854775807ps"), INT64_MAX);
	bad(SIB_P_TIME, NULL, "0.3ps", "not a whole number of picoseconds");
	bad(SIB_P_TIME, NULL, "5", "say the unit, e.g. 1us");
	bad(SIB_P_TIME, NULL, "-1us", "is negative");
	bad(SIB_P_TIME, NULL, "1e10s", "too large");
	bad(SIB_P_TIME, NULL, "9223372036854775808ps", "too large");
	bad(SIB_P_TIME, NULL, "1xs", "'1xs' is not a duration");
	bad(SIB_P_TIME, NULL, "us", "is not a duration");
	bad(SIB_P_TIME, NULL, "", "empty");
	bad(SIB_P_TIME, NULL, "1.2345678901234567891us",
	    "more than 19 significant digits");
	assertContains(err, "k: ");

	/* BW, in bytes/s. */
	assertEqualInt(ival(SIB_P_BW, "24GB/s"), INT64_C(24000000000));
	assertEqualInt(ival(SIB_P_BW, "5GiB/s"), INT64_C(5) << 30);
	assertEqualInt(ival(SIB_P_BW, "100MB/s"), 100000000);
	assertEqualInt(ival(SIB_P_BW, "1e9B/s"), 1000000000);
	assertEqualInt(ival(SIB_P_BW, "1kB/s"), 1000);
	assertEqualInt(ival(SIB_P_BW, "1KB/s"), 1000);
	assertEqualInt(ival(SIB_P_BW, "1KiB/s"), 1024);
	assertEqualInt(ival(SIB_P_BW, "2MiB/s"), 2 << 20);
	assertEqualInt(ival(SIB_P_BW, "1TB/s"), INT64_C(1000000000000));
	assertEqualInt(ival(SIB_P_BW, "1TiB/s"), INT64_C(1) << 40);
	assertEqualInt(ival(SIB_P_BW, "10Gb/s"), 1250000000);
	assertEqualInt(ival(SIB_P_BW, "100Gbit/s"), INT64_C(12500000000));
	assertEqualInt(ival(SIB_P_BW, "1.5 GB/s"), 1500000000);
	bad(SIB_P_BW, NULL, "24GBs", "'24GBs' is not a bandwidth; write "
	    "e.g. 24GB/s or 5GiB/s");
	bad(SIB_P_BW, NULL, "24GB", "is not a bandwidth");
	bad(SIB_P_BW, NULL, "24", "no unit");
	bad(SIB_P_BW, NULL, "0GB/s", "greater than 0");
	bad(SIB_P_BW, NULL, "1b/s", "not a whole number of bytes/s");
	bad(SIB_P_BW, NULL, "1kiB/s", "is not a bandwidth");
	bad(SIB_P_BW, NULL, "-1GB/s", "negative");

	/* SIZE, in bytes. */
	assertEqualInt(ival(SIB_P_SIZE, "2KiB"), 2048);
	assertEqualInt(ival(SIB_P_SIZE, "4MB"), 4000000);
	assertEqualInt(ival(SIB_P_SIZE, "512"), 512);
	assertEqualInt(ival(SIB_P_SIZE, "512B"), 512);
	assertEqualInt(ival(SIB_P_SIZE, "1.5KiB"), 1536);
	assertEqualInt(ival(SIB_P_SIZE, "3GiB"), INT64_C(3) << 30);
	assertEqualInt(ival(SIB_P_SIZE, "1TB"), INT64_C(1000000000000));
	assertEqualInt(ival(SIB_P_SIZE, "2kB"), 2000);
	bad(SIB_P_SIZE, NULL, "4KiB/s", "is not a size; write e.g.");
	bad(SIB_P_SIZE, NULL, "0.5", "not a whole number of bytes");
	bad(SIB_P_SIZE, NULL, "1Gb", "is not a size");
	bad(SIB_P_SIZE, NULL, "1.1B", "not a whole number of bytes");

	/* INT, with and without a range. */
	assertEqualInt(ival(SIB_P_INT, "16"), 16);
	assertEqualInt(ival(SIB_P_INT, "1e3"), 1000);
	assertEqualInt(ival(SIB_P_INT, "-5"), -5);
	assertEqualInt(parse(SIB_P_INT, "0..4294967295", "4294967295", &v),
		       0);
	assertEqualInt(v.i, INT64_C(4294967295));
	bad(SIB_P_INT, "1..1048576", "0", "out of range");
	assertContains(err, "from 1 to 1048576");
	bad(SIB_P_INT, "0..4294967295", "4294967296", "out of range");
	bad(SIB_P_INT, NULL, "1.5", "not a whole number");
	bad(SIB_P_INT, NULL, "12abc", "is not an integer");

	/* RATIO, reduced. */
	assertEqualInt(parse(SIB_P_RATIO, NULL, "1.25", &v), 0);
	assertEqualInt(v.num, 5);
	assertEqualInt(v.den, 4);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "3/4", &v), 0);
	assertEqualInt(v.num, 3);
	assertEqualInt(v.den, 4);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "6 / 8", &v), 0);
	assertEqualInt(v.num, 3);
	assertEqualInt(v.den, 4);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "2", &v), 0);
	assertEqualInt(v.num, 2);
	assertEqualInt(v.den, 1);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "0.5/2", &v), 0);
	assertEqualInt(v.num, 1);
	assertEqualInt(v.den, 4);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "0", &v), 0);
	assertEqualInt(v.num, 0);
	assertEqualInt(v.den, 1);
	assertEqualInt(parse(SIB_P_RATIO, NULL, "0.123456789012345678", &v),
		       0);
	assertEqualInt(v.num, INT64_C(61728394506172839));
	assertEqualInt(v.den, INT64_C(500000000000000000));
	bad(SIB_P_RATIO, NULL, "-1", "negative");
	bad(SIB_P_RATIO, NULL, "1/0", "is not a ratio");
	bad(SIB_P_RATIO, NULL, "abc", "is not a ratio; write e.g. 1.25");
	bad(SIB_P_RATIO, NULL, "1.2345678901234567891", "too many digits");
	bad(SIB_P_RATIO, NULL, "1e-30", "too many digits");

	/* BOOL, ENUM, STRING. */
	assertEqualInt(ival(SIB_P_BOOL, "Yes"), 1);
	assertEqualInt(ival(SIB_P_BOOL, "TRUE"), 1);
	assertEqualInt(ival(SIB_P_BOOL, "on"), 1);
	assertEqualInt(ival(SIB_P_BOOL, "1"), 1);
	assertEqualInt(ival(SIB_P_BOOL, "off"), 0);
	assertEqualInt(ival(SIB_P_BOOL, "No"), 0);
	assertEqualInt(ival(SIB_P_BOOL, "false"), 0);
	bad(SIB_P_BOOL, NULL, "maybe", "is not a yes/no value");
	assertEqualInt(parse(SIB_P_ENUM, "a|bb|c", "bb", &v), 0);
	assertEqualInt(v.i, 1);
	assertEqualString(v.s, "bb");
	assertEqualInt(parse(SIB_P_ENUM, "a|bb|c", "c", &v), 0);
	assertEqualInt(v.i, 2);
	bad(SIB_P_ENUM, "a|bb|c", "b", "'b' is not one of: a, bb, c");
	bad(SIB_P_ENUM, "a|bb|c", "A", "not one of");
	assertEqualInt(parse(SIB_P_STRING, NULL, " x # y ", &v), 0);
	assertEqualString(v.s, " x # y ");
}

/* ------------------------------------------------------ config files */

static void test_defaults(void)
{
	int rc;
	fsim_config *c = config(NULL, NULL, &rc);
	assertEqualInt(rc, 0);
	assertEqualInt(get_i(c, "machine", "nodes"), 0);
	assertEqualInt(get_i(c, "machine", "cores_per_node"), 1);
	assertEqualString(fsim_config_get(c, "machine", "topology")->s, "");
	assertEqualString(fsim_config_get(c, "machine", "map")->s, "");
	assertEqualInt(get_i(c, "intranode", "latency"), 200000);
	assertEqualInt(get_i(c, "intranode", "bandwidth"),
		       INT64_C(10000000000));
	assertEqualInt(fsim_config_get(c, "cpu", "factor")->num, 1);
	assertEqualInt(fsim_config_get(c, "cpu", "factor")->den, 1);
	assertEqualString(fsim_config_get(c, "replace", "rules")->s, "");
	assertEqualInt(get_i(c, "sim", "seed"), 1);
	assertEqualString(fsim_config_get(c, "net", "model")->s, "simple");
	assertEqualInt(fsim_config_get(c, "net", "model")->set, 0);
	assertEqualInt(fsim_config_get(c, "machine", "nodes")->set, 0);
	assertTrue(fsim_config_get(c, "machine", "nope") == NULL);
	assertTrue(fsim_config_get(c, "nope", "nodes") == NULL);

	/* The model's values: parallel to its table, defaults filled in. */
	const netm_ops *m = fsim_config_model(c);
	const sib_value *mv = fsim_config_model_values(c);
	assertTrue(m == netm_find("simple"));
	assertTrue(mv != NULL);
	for (int i = 0; m && mv && m->params[i].key; i++) {
		sib_value d;
		assertEqualInt(fsim_parse_value(&m->params[i],
						m->params[i].def, &d, err,
						sizeof err), 0);
		assertEqualInt(mv[i].i, d.i);
		assertEqualInt(mv[i].set, 0);
	}
	fsim_config_free(c);
}

static void test_load_and_precedence(void)
{
	fsim_config *c;
	assertEqualInt(fsim_config_new(&c), 0);

	const char *a = write_file("a.conf",
		"# a machine\n"
		"\n"
		"  [machine]   # trailing comment after a header\n"
		"nodes = 4\n"
		"cores_per_node=8   # eight cores\n"
		"nodes = 5\n"             /* repeated: the later wins */
		"[net]\n"
		"latency = 2us\n"
		"bandwidth = 5 GiB/s\n"
		"[replace]\n"
		"rules = \"seb:a #b=1us; scale:x=1/2\"  # quoted\n"
		"[sim]\n"
		"seed = 42\r\n"
		"[cpu]\n"
		"factor = 1.25\n");
	const char *b = write_file("b.conf",
		"[machine]\n"
		"nodes = 8\n"
		"[net]\n"
		"latency = 3us\n"
		"[intranode]\n"
		"latency = a#b\n");  /* '#' not after a blank: a value */
	assertEqualInt(fsim_config_load(c, a, err, sizeof err), 0);
	assertEqualInt(fsim_config_resolve(c, err, sizeof err), 0);
	assertEqualInt(get_i(c, "machine", "nodes"), 5);
	assertEqualInt(get_i(c, "machine", "cores_per_node"), 8);
	assertEqualInt(get_i(c, "sim", "seed"), 42);
	assertEqualString(fsim_config_get(c, "replace", "rules")->s,
			  "seb:a #b=1us; scale:x=1/2");
	assertEqualInt(fsim_config_get(c, "cpu", "factor")->num, 5);
	assertEqualInt(fsim_config_get(c, "cpu", "factor")->den, 4);

	/* A later file overrides; its bad value names its own line. */
	assertEqualInt(fsim_config_load(c, b, err, sizeof err), 0);
	assertTrue(fsim_config_get(c, "machine", "nodes") == NULL);
	assertTrue(fsim_config_resolve(c, err, sizeof err) != 0);
	assertContains(err, "b.conf:6: intranode.latency: 'a#b' is not a "
		       "duration");
	assertEqualInt(fsim_config_set(c, "intranode.latency = 300ns", err,
				       sizeof err), 0);
	assertEqualInt(fsim_config_resolve(c, err, sizeof err), 0);
	assertEqualInt(get_i(c, "machine", "nodes"), 8);
	assertEqualInt(get_i(c, "intranode", "latency"), 300000);
	int lat = model_index(c, "latency"), bw = model_index(c, "bandwidth");
	assertEqualInt(fsim_config_model_values(c)[lat].i, 3000000);
	assertEqualInt(fsim_config_model_values(c)[lat].set, 1);
	assertEqualInt(fsim_config_model_values(c)[bw].i, INT64_C(5) << 30);
	assertEqualInt(fsim_config_get(c, "net", "latency")->i, 3000000);

	/* --set beats every file, also when given before a later load. */
	assertEqualInt(fsim_config_set(c, "machine.nodes=16", err,
				       sizeof err), 0);
	assertEqualInt(fsim_config_set(c, "net.model = simple", err,
				       sizeof err), 0);
	assertEqualInt(fsim_config_set(c, "machine.topology=\"package:1 "
				       "core:8 pu:1\"", err, sizeof err), 0);
	assertEqualInt(fsim_config_resolve(c, err, sizeof err), 0);
	assertEqualInt(get_i(c, "machine", "nodes"), 16);
	assertEqualInt(fsim_config_get(c, "machine", "nodes")->set, 1);
	assertEqualInt(fsim_config_get(c, "net", "model")->set, 1);
	assertEqualString(fsim_config_get(c, "machine", "topology")->s,
			  "package:1 core:8 pu:1");
	assertEqualInt(get_i(c, "machine", "cores_per_node"), 8);
	fsim_config_free(c);
}

static void test_config_errors(void)
{
	/* Syntax. */
	config_error("nodes = 4\n", NULL, "t.conf:1: key 'nodes' comes "
		     "before any [section] header", NULL);
	config_error("[machine]\nnodes 4\n", NULL, "t.conf:2: expected "
		     "'key = value'", NULL);
	config_error("[machine\n", NULL, "t.conf:1: malformed section "
		     "header", NULL);
	config_error("[]\n", NULL, "t.conf:1: malformed section header",
		     NULL);
	config_error("[machine]\ntopology = \"package:2\n", NULL,
		     "t.conf:2: the quoted value of 'topology' has no "
		     "closing quote", NULL);
	config_error("[machine]\ntopology = \"a\" b\n", NULL,
		     "t.conf:2: unexpected text 'b'", NULL);
	config_error("[machine]\nnet.latency = 1us\n", NULL,
		     "t.conf:2: 'net.': in a file a key is written without "
		     "its section", NULL);

	/* Unknown names, with and without a near miss. */
	config_error("[net]\n\n# x\nlatncy = 1us\n", NULL,
		     "t.conf:4: unknown key 'net.latncy' (did you mean "
		     "'net.latency'?)", NULL);
	config_error("[machine]\ncores_pre_node = 2\n", NULL,
		     "(did you mean 'machine.cores_per_node'?)", NULL);
	config_error("[machine]\nzzzzzz = 2\n", NULL,
		     "t.conf:2: unknown key 'machine.zzzzzz'; the keys of "
		     "[machine] are nodes, cores_per_node, topology, map",
		     NULL);
	{
		int rc;
		fsim_config *c = config(NULL, "net.foo=1", &rc);
		assertTrue(rc != 0);
		assertContains(err, "--set: unknown key 'net.foo'; the keys "
			       "of [net] are model, ");
		assertTrue(strstr(err, "did you mean") == NULL);
		fsim_config_free(c);
	}
	config_error("[net]\nqqqqqq = 2\n", NULL, "the keys of [net] are "
		     "model, latency, bandwidth", NULL);
	config_error("[mahcine]\n", NULL, "t.conf:1: unknown section "
		     "'[mahcine]' (did you mean '[machine]'?)", NULL);
	config_error("[zzzzzzzzzz]\n", NULL, "unknown section "
		     "'[zzzzzzzzzz]'; the sections are [machine], "
		     "[intranode], [cpu], [net], [replace], [sim]", NULL);
	config_error(NULL, "mahcine.nodes=3", "--set: unknown key "
		     "'mahcine.nodes' (did you mean 'machine.nodes'?)", NULL);
	config_error(NULL, "sim.sede=3", "(did you mean 'sim.seed'?)", NULL);
	config_error(NULL, "nodes=3", "--set 'nodes=3': expected "
		     "section.key=value", NULL);
	config_error(NULL, "machine.nodes", "expected section.key=value",
		     NULL);

	/* Bad values, named with their origin and the accepted form. */
	config_error("[net]\nbandwidth = 24GBs\n", NULL,
		     "t.conf:2: net.bandwidth: '24GBs' is not a bandwidth; "
		     "write e.g. 24GB/s or 5GiB/s", NULL);
	config_error(NULL, "intranode.latency=5", "--set: "
		     "intranode.latency: '5' has no unit; say the unit, e.g. "
		     "1us", NULL);
	config_error("[net]\nmodel = simpel\n", NULL, "t.conf:2: net.model: "
		     "'simpel' is not one of: simple", "(did you mean "
		     "'simple'?)");
	config_error("[cpu]\nfactor = 0\n", NULL, "t.conf:2: cpu.factor "
		     "must be greater than 0", NULL);
	config_error("[machine]\ncores_per_node = 0\n", NULL,
		     "machine.cores_per_node: 0 is out of range", NULL);
	config_error("[machine]\nnodes = -1\n", NULL,
		     "machine.nodes: -1 is out of range", NULL);
	config_error("[machine]\ntopology = package:2 bogus:3\n", NULL,
		     "t.conf:2: machine.topology: 'package:2 bogus:3' is not "
		     "a valid hwloc synthetic topology", "e.g. \"package:2 "
		     "core:16 pu:1\"");
	config_error("[machine]\ntopology = package:1 core:6\n", NULL,
		     "'package:1 core:6' is not a valid hwloc synthetic "
		     "topology", "ending with the pu level");
	config_error("[machine]\ntopology = package:2 core:4 pu:2\n"
		     "cores_per_node = 8\n", NULL, "t.conf:3: "
		     "machine.cores_per_node = 8 disagrees with "
		     "machine.topology", "which has 16 PUs");
	config_error("[replace]\n\nrules = size>=4KB2KiB\n", NULL,
		     "t.conf:3: rule 'size>=4KB2KiB': expected ':'", NULL);
}

/* A file with an error changes nothing; a missing file is named. */
static void test_load_atomic(void)
{
	fsim_config *c;
	fsim_config_new(&c);
	const char *bad = write_file("bad.conf", "[machine]\nnodes = 3\n"
				     "cores_per_node 4\n");
	assertTrue(fsim_config_load(c, bad, err, sizeof err) != 0);
	assertContains(err, "bad.conf:3: expected 'key = value'");
	assertEqualInt(fsim_config_resolve(c, err, sizeof err), 0);
	assertEqualInt(get_i(c, "machine", "nodes"), 0);

	char missing[4200];
	snprintf(missing, sizeof missing, "%s/none.conf", tmp);
	assertTrue(fsim_config_load(c, missing, err, sizeof err) != 0);
	assertContains(err, "cannot open the configuration file ");
	assertContains(err, "none.conf");

	/* A resolve error leaves nothing half-resolved either. */
	assertEqualInt(fsim_config_set(c, "sim.seed=x", err, sizeof err), 0);
	assertTrue(fsim_config_resolve(c, err, sizeof err) != 0);
	assertContains(err, "--set: sim.seed: 'x' is not an integer");
	assertTrue(fsim_config_get(c, "sim", "seed") == NULL);
	assertTrue(fsim_config_model(c) == NULL);
	assertTrue(fsim_config_model_values(c) == NULL);
	fsim_config_free(c);
}

static void test_topology(void)
{
	int rc;
	fsim_config *c = config("[machine]\ntopology = package:2 core:4 "
				"pu:2\n", NULL, &rc);
	assertEqualInt(rc, 0);
	assertEqualInt(get_i(c, "machine", "cores_per_node"), 16);
	fsim_machine *m = NULL;
	assertEqualInt(fsim_machine_build(&m, c, 33, err, sizeof err), 0);
	if (m) {
		assertEqualInt(m->cores_per_node, 16);
		assertEqualInt(m->nnodes, 3);
		assertEqualString(m->topology, "package:2 core:4 pu:2");
		assertTrue(m->node_of == NULL);
		assertEqualInt(fsim_node_of(m, 32), 2);
		assertEqualInt(fsim_core_of(m, 17), 1);
		assertEqualInt(m->intra_latency, 200000);
		assertEqualInt(m->intra_bandwidth, INT64_C(10000000000));
	}
	fsim_machine_free(m);
	fsim_config_free(c);

	/* Both keys, agreeing: fine. */
	c = config("[machine]\ntopology = \"package:1 core:6 pu:1\"\n"
		   "cores_per_node = 6\n", NULL, &rc);
	assertEqualInt(rc, 0);
	assertEqualInt(get_i(c, "machine", "cores_per_node"), 6);
	fsim_config_free(c);
}

/* ---------------------------------------------------------- machines */

static fsim_machine *machine(const char *text, uint32_t npes, int *rc)
{
	fsim_machine *m = NULL;
	fsim_config *c = config(text, NULL, rc);
	if (!*rc)
		*rc = fsim_machine_build(&m, c, npes, err, sizeof err);
	fsim_config_free(c);
	return m;
}

static void machine_error(const char *map, const char *conf, uint32_t npes,
			  const char *want, const char *want2)
{
	char text[512];
	int rc;
	write_file("m.map", map);
	snprintf(text, sizeof text, "[machine]\nmap = m.map\n%s", conf);
	fsim_machine *m = machine(text, npes, &rc);
	assertTrue(rc != 0);
	assertContains(err, want);
	if (want2)
		assertContains(err, want2);
	fsim_machine_free(m);
}

static void test_machine(void)
{
	int rc;
	fsim_machine *m;

	m = machine("[machine]\ncores_per_node = 4\n", 10, &rc);
	assertEqualInt(rc, 0);
	if (m) {
		assertEqualInt(m->nnodes, 3);
		assertEqualInt(m->npes, 10);
		assertEqualInt(fsim_node_of(m, 9), 2);
		assertEqualInt(fsim_core_of(m, 9), 1);
	}
	fsim_machine_free(m);

	m = machine("[machine]\ncores_per_node = 4\nnodes = 2\n", 10, &rc);
	assertTrue(rc != 0);
	assertContains(err, "the machine has 8 cores");
	assertContains(err, "for 10 ranks: raise machine.nodes or "
		       "machine.cores_per_node");
	fsim_machine_free(m);

	m = machine("[machine]\nnodes = 7\ncores_per_node = 2\n", 10, &rc);
	assertEqualInt(rc, 0);
	if (m)
		assertEqualInt(m->nnodes, 7);
	fsim_machine_free(m);

	/* A mapping file: comments, optional cores, free cores taken in
	 * file order, nodes = 0 meaning the highest node named plus one. */
	write_file("m.map",
		   "# rank node [core]\n"
		   "0 1\n"
		   "\n"
		   "1 0 1\n"
		   "2 0      # a comment\n"
		   "3\t1 0\n"
		   "4 3\n"
		   "5 3 1\n");
	m = machine("[machine]\ncores_per_node = 2\nmap = m.map\n", 6, &rc);
	assertEqualInt(rc, 0);
	if (m) {
		static const uint32_t node[] = { 1, 0, 0, 1, 3, 3 };
		static const uint32_t core[] = { 1, 1, 0, 0, 0, 1 };
		assertEqualInt(m->nnodes, 4);
		assertTrue(m->node_of && m->core_of);
		for (int r = 0; r < 6 && m->node_of; r++) {
			assertEqualInt(fsim_node_of(m, r), node[r]);
			assertEqualInt(fsim_core_of(m, r), core[r]);
		}
	}
	fsim_machine_free(m);

	/* Mapping-file errors, each with its line. */
	machine_error("0 0\n1 x\n", "", 2, "m.map:2: expected 'RANK NODE "
		      "[CORE]'", NULL);
	machine_error("0 0\n1\n", "", 2, "m.map:2: expected", NULL);
	machine_error("0 0 0 0\n", "", 1, "m.map:1: expected", NULL);
	machine_error("0 0\n# c\n5 0\n", "", 2, "m.map:3: rank 5 does not "
		      "exist: the trace has 2 ranks", NULL);
	machine_error("0 0\n1 0\n\n0 1\n", "cores_per_node = 2\n", 2,
		      "m.map:4: rank 0 is placed twice, here and at line 1",
		      NULL);
	machine_error("0 0\n1 2\n", "nodes = 2\ncores_per_node = 2\n", 2,
		      "m.map:2: node 2 does not exist: machine.nodes is 2",
		      NULL);
	machine_error("0 0\n1 1\n2 0\n3 0\n", "cores_per_node = 2\n", 4,
		      "m.map:4: node 0 is over-full", "rank 3 does not fit");
	machine_error("0 0 2\n", "cores_per_node = 2\n", 1,
		      "m.map:1: core 2 does not exist: "
		      "machine.cores_per_node is 2", NULL);
	machine_error("0 0 1\n1 1 1\n2 0 1\n", "cores_per_node = 2\n", 3,
		      "m.map:3: core 1 of node 0 is already taken by rank 0 "
		      "at line 1", NULL);
	machine_error("0 0\n2 0\n", "cores_per_node = 8\n", 9,
		      "m.map: ranks 1, 3, 4, 5, 6 and 2 more are missing",
		      NULL);
	machine_error("1 0\n", "", 2, "m.map: rank 0 is missing", NULL);
	machine_error("", "", 1, "rank 0 is missing", NULL);

	int rc2;
	fsim_config *c = config("[machine]\nmap = nowhere.map\n", NULL, &rc2);
	assertEqualInt(rc2, 0);
	m = NULL;
	assertTrue(fsim_machine_build(&m, c, 1, err, sizeof err) != 0);
	assertContains(err, "cannot open the mapping file");
	assertContains(err, "nowhere.map");
	assertTrue(fsim_machine_build(&m, c, 0, err, sizeof err) != 0);
	assertContains(err, "no ranks");
	fsim_config_free(c);
}

/* A million ranks, placed in reverse order on nodes of 64 cores. */
static void test_big_map(void)
{
	const uint32_t n = 1000000, cores = 64;
	char path[4200];
	snprintf(path, sizeof path, "%s/big.map", tmp);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(99);
	}
	for (uint32_t r = n; r-- > 0;)
		fprintf(f, "%u %u\n", r, r / cores);
	fclose(f);

	int rc;
	clock_t t0 = clock();
	fsim_machine *m = machine("[machine]\ncores_per_node = 64\n"
				  "map = big.map\n", n, &rc);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assertEqualInt(rc, 0);
	if (m) {
		uint32_t wrong = 0;
		for (uint32_t r = 0; r < n; r++)
			if (m->node_of[r] != r / cores ||
			    m->core_of[r] != cores - 1 - r % cores)
				wrong++;
		assertEqualInt(wrong, 0);
		assertEqualInt(m->nnodes, (n + cores - 1) / cores);
	}
	fsim_machine_free(m);
	fprintf(stderr, "1M-rank mapping file: %.2f s\n", secs);
	assertTrue(secs < 10);
}

/* ------------------------------------------------- write and describe */

static void test_write(void)
{
	int rc;
	write_file("w.map", "0 0\n");
	fsim_config *c = config("[machine]\ntopology = package:2 core:4 "
				"pu:2\nmap = w.map\n[net]\nlatency = 2us\n"
				"[replace]\nrules = \"seb:\\\"x y\\\"=1us\"\n",
				"cpu.factor=3/4", &rc);
	assertEqualInt(rc, 0);

	char out[4200];
	snprintf(out, sizeof out, "%s/written.conf", tmp);
	FILE *f = fopen(out, "w");
	assertEqualInt(fsim_config_write(c, f), 0);
	fclose(f);
	f = fopen(out, "r");
	char text[8192];
	size_t len = fread(text, 1, sizeof text - 1, f);
	text[len] = '\0';
	fclose(f);
	assertContains(text, "[machine]\nnodes = 0  # default\n"
		       "cores_per_node = 16  # from machine.topology\n"
		       "topology = \"package:2 core:4 pu:2\"\n");
	assertContains(text, "w.map\n");
	assertContains(text, "[net]\nmodel = simple  # default\n"
		       "latency = 2us\nbandwidth = ");
	assertContains(text, "[cpu]\nfactor = 3/4\n");
	assertContains(text, "rules = \"seb:\\\"x y\\\"=1us\"\n");
	assertContains(text, "[intranode]\nlatency = 200ns  # default\n");
	assertContains(text, "[sim]\nseed = 1  # default\n");

	/* Read back, it gives the same run. */
	fsim_config *c2;
	fsim_config_new(&c2);
	assertEqualInt(fsim_config_load(c2, out, err, sizeof err), 0);
	assertEqualInt(fsim_config_resolve(c2, err, sizeof err), 0);
	assertEqualInt(get_i(c2, "machine", "cores_per_node"), 16);
	assertEqualInt(get_i(c2, "net", "latency"), 2000000);
	assertEqualInt(fsim_config_get(c2, "cpu", "factor")->num, 3);
	assertEqualString(fsim_config_get(c2, "replace", "rules")->s,
			  "seb:\"x y\"=1us");
	const char *m1 = fsim_config_get(c, "machine", "map")->s;
	const char *m2 = fsim_config_get(c2, "machine", "map")->s;
	assertContains(m1, "/w.map");
	assertTrue(m2[0] == '/');
	fsim_machine *m = NULL;
	assertEqualInt(fsim_machine_build(&m, c2, 1, err, sizeof err), 0);
	fsim_machine_free(m);
	fsim_config_free(c2);
	fsim_config_free(c);

	/* Every key is documented, every model's keys too. */
	char *doc = NULL;
	size_t dlen = 0;
	FILE *mf = open_memstream(&doc, &dlen);
	fsim_config_describe(mf);
	fclose(mf);
	static const char *const keys[] = {
		"[machine]", "nodes ", "cores_per_node ", "topology ", "map ",
		"[intranode]", "[cpu]", "factor ", "[net]", "model ",
		"[replace]", "rules ", "[sim]", "seed ",
		"INT 0..4294967295, default 0", "TIME, default 200ns",
		"BANDWIDTH, default 10GB/s", "RATIO, default 1",
		"[net] with model = simple",
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assertContains(doc, keys[i]);
	for (size_t i = 0; netm_registry[i]; i++)
		for (const sib_param *p = netm_registry[i]->params;
		     p && p->key; p++) {
			char k[64];
			snprintf(k, sizeof k, "  %s ", p->key);
			assertContains(doc, k);
		}
	free(doc);
}

/* ------------------------------------------------------------- rules */

static fsim_rules *rules(const char *text, int *rc)
{
	fsim_rules *r;
	if (fsim_rules_new(&r))
		exit(99);
	err[0] = '\0';
	*rc = fsim_rules_add(r, text, "--replace", err, sizeof err);
	return r;
}

static void rule_error(const char *text, const char *want)
{
	int rc;
	fsim_rules *r = rules(text, &rc);
	assertTrue(rc != 0);
	assertContains(err, want);
	/* Nothing half-added. */
	assertEqualInt(fsim_rules_count(r), 0);
	fsim_rules_free(r);
}

static void test_rules(void)
{
	int rc;
	fsim_durrule d;
	fsim_rules *r = rules(NULL, &rc);

	assertTrue(fsim_rules_empty(r));
	fsim_rules_for_name(r, "x", &d);
	assertEqualInt(d.nrules, 0);
	assertEqualInt(d.num, 1);
	assertEqualInt(d.den, 1);
	fsim_rules_set_cpu_factor(r, 2, 4);
	assertTrue(!fsim_rules_empty(r));
	fsim_rules_set_cpu_factor(r, 3, 3);
	assertTrue(fsim_rules_empty(r));
	fsim_rules_free(r);

	/* Sizes: exact rules first, then cut-offs in the order given. */
	r = rules(" size>=1KiB : 2KiB ;; size = 4096:0; size>=1MiB:1;", &rc);
	assertEqualInt(rc, 0);
	assertEqualInt(fsim_rules_count(r), 3);
	assertTrue(!fsim_rules_empty(r));
	assertEqualU64(fsim_rules_size(r, 4096), 0);
	assertEqualU64(fsim_rules_size(r, 1024), 2048);
	assertEqualU64(fsim_rules_size(r, 1023), 1023);
	assertEqualU64(fsim_rules_size(r, 5 << 20), 2048);
	assertEqualU64(fsim_rules_size(r, 0), 0);
	assertEqualInt(fsim_rules_add(r, "size=100:7", "cfg.conf:3", err,
				      sizeof err), 0);
	assertEqualU64(fsim_rules_size(r, 100), 7);
	fsim_rules_free(r);

	/* SEB names: ':' is plain, the last '>' before the last '=' is the
	 * cut, quotes protect '>', '=', ';' and blanks. */
	r = rules("seb:compute=1ms; seb: compute >5ms= 2ms;"
		  "scale:solve=3/4; scale:solve=9; seb:\"a>b; c\"=1us;"
		  "seb:x:y>1us=3us; scale:p=q=0.5; seb:\" sp \"=0;"
		  "seb:a>b>2ns=4ns", &rc);
	assertEqualInt(rc, 0);
	if (rc)
		fprintf(stderr, "  %s\n", err);
	assertEqualInt(fsim_rules_count(r), 9);
	fsim_rules_set_cpu_factor(r, 1, 2);

	fsim_rules_for_name(r, "compute", &d);
	assertEqualInt(d.nrules, 2);
	if (d.nrules == 2) {
		assertEqualInt(d.cut[0], -1);
		assertEqualInt(d.dur[0], 1000000000);
		assertEqualInt(d.cut[1], 5000000000);
		assertEqualInt(d.dur[1], 2000000000);
	}
	assertEqualInt(d.num, 1);
	assertEqualInt(d.den, 2);

	fsim_rules_for_name(r, "solve", &d);    /* first scale wins */
	assertEqualInt(d.nrules, 0);
	assertEqualInt(d.num, 3);
	assertEqualInt(d.den, 8);

	fsim_rules_for_name(r, "a>b; c", &d);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1)
		assertEqualInt(d.dur[0], 1000000);
	fsim_rules_for_name(r, "x:y", &d);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1) {
		assertEqualInt(d.cut[0], 1000000);
		assertEqualInt(d.dur[0], 3000000);
	}
	fsim_rules_for_name(r, "p=q", &d);
	assertEqualInt(d.num, 1);
	assertEqualInt(d.den, 4);
	fsim_rules_for_name(r, " sp ", &d);
	assertEqualInt(d.nrules, 1);
	fsim_rules_for_name(r, "a>b", &d);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1)
		assertEqualInt(d.cut[0], 2000);
	fsim_rules_for_name(r, "other", &d);
	assertEqualInt(d.nrules, 0);
	assertEqualInt(d.num, 1);
	assertEqualInt(d.den, 2);

	char *doc = NULL;
	size_t dlen = 0;
	FILE *mf = open_memstream(&doc, &dlen);
	fsim_rules_describe(r, mf, "  ");
	fclose(mf);
	assertContains(doc, "  SEBs named 'compute' take 1ms (--replace)\n");
	assertContains(doc, "SEBs named 'compute' that take more than 5ms "
		       "take 2ms");
	assertContains(doc, "SEBs named 'solve' take 0.75 times");
	assertContains(doc, "cpu.factor = 0.5\n");
	int lines = 0;
	for (char *p = doc; p && *p; p++)
		lines += *p == '\n';
	assertEqualInt(lines, 10);
	free(doc);
	fsim_rules_free(r);

	/* A product of two 18-digit ratios is approximated, not wrapped. */
	r = rules("scale:z=0.123456789012345678", &rc);
	fsim_rules_set_cpu_factor(r, INT64_C(987654321098765431),
				  INT64_C(1000000000000000000));
	fsim_rules_for_name(r, "z", &d);
	assertTrue(d.num > 0 && d.den > 0);
	double want = 0.123456789012345678 * 0.987654321098765431;
	double got = (double)d.num / (double)d.den;
	assertTrue(got / want > 1 - 1e-12 && got / want < 1 + 1e-12);
	fsim_rules_free(r);

	/* Errors name the origin, the rule and what is wrong. */
	rule_error("size>=4KB2KiB", "--replace: rule 'size>=4KB2KiB': "
		   "expected ':'");
	rule_error("size<4KB:1", "expected size>=CUT:NEW or size=S:NEW");
	rule_error("size=4KB:1x", "NEW: '1x' is not a size");
	rule_error("seb:a=1us;foo:x=1", "rule 'foo:x=1': unknown rule; a "
		   "rule starts with size>=, size=, seb:, region: or scale:");
	rule_error("seb:a>b=1us", "CUT: 'b' is not a duration");
	rule_error("seb:a>b=1us", "quote the name");
	rule_error("seb:=1us", "the SEB name is empty");
	rule_error("seb:a", "expected seb:NAME=DUR");
	rule_error("seb:a=5", "DUR: '5' has no unit");
	rule_error("seb:\"a=1us", "no closing quote");
	rule_error("scale:x=-1", "F: '-1' is negative");
	rule_error("scale x=1", "unknown rule");
	rule_error("region:=1us", "the region pattern is empty");
	rule_error("region: >1ms=1us", "the region pattern is empty");
	rule_error("region:main", "expected region:PATTERN=DUR");
	rule_error("region:\"a > b=1us", "the quoted region pattern has no "
		   "closing quote");
	rule_error("region:\"a\">x=1us", "CUT: 'x' is not a duration");
	rule_error("region:a > b=5", "DUR: '5' has no unit");
}

/* region: rules: patterns, cut-offs, and their order among seb: rules. */
static void test_region_rules(void)
{
	int rc;
	fsim_durrule d;
	fsim_rules *r = rules("seb:x=1ms", &rc);

	assertTrue(!fsim_rules_have_regions(r));
	assertEqualInt(fsim_rules_for_region(r, "a (f.c:1) > b (f.c:2)", &d),
		       0);
	assertEqualInt(d.nrules, 0);
	fsim_durrule_release(&d);
	fsim_rules_free(r);

	/* Unquoted: the pattern runs to the last '='; what follows its last
	 * '>' is CUT only when it reads as a duration.  Quoted: the pattern
	 * ends at the quote.  Each rule keeps its place in the order. */
	r = rules("seb:compute=9us;"                               /* 0 */
		  "region:main (f.c:1) > main (f.c:2)=1us;"          /* 1 */
		  "region:*(f.c:1) > *>5us=2us;"                     /* 2 */
		  "seb:compute>1ms=8us;"                             /* 3 */
		  "region:\"solve+0x1f (app) > *\">1ns=3us;"          /* 4 */
		  "region:\"a;b\"=4us;"                               /* 5 */
		  "region:  *x > y*  = 0", &rc);                     /* 6 */
	assertEqualInt(rc, 0);
	if (rc)
		fprintf(stderr, "  %s\n", err);
	assertEqualInt(fsim_rules_count(r), 7);
	assertTrue(fsim_rules_have_regions(r));

	fsim_rules_for_name(r, "compute", &d);
	assertEqualInt(d.nrules, 2);
	if (d.nrules == 2) {
		assertEqualInt(d.order[0], 0);
		assertEqualInt(d.order[1], 3);
	}

	assertEqualInt(fsim_rules_for_region(r, "main (f.c:1) > main (f.c:2)",
					     &d), 0);
	assertEqualInt(d.nrules, 2);
	if (d.nrules == 2) {
		assertEqualInt(d.order[0], 1);
		assertEqualInt(d.cut[0], -1);
		assertEqualInt(d.dur[0], 1000000);
		assertEqualInt(d.order[1], 2);
		assertEqualInt(d.cut[1], 5000000);
		assertEqualInt(d.dur[1], 2000000);
	}
	assertEqualInt(d.num, 1);
	assertEqualInt(d.den, 1);
	fsim_durrule_release(&d);

	assertEqualInt(fsim_rules_for_region(r, "solve+0x1f (app) > b (f.c:1)",
					     &d), 0);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1) {
		assertEqualInt(d.order[0], 4);
		assertEqualInt(d.cut[0], 1000);
		assertEqualInt(d.dur[0], 3000000);
	}
	fsim_durrule_release(&d);

	assertEqualInt(fsim_rules_for_region(r, "a;b", &d), 0);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1)
		assertEqualInt(d.order[0], 5);
	fsim_durrule_release(&d);

	/* Blanks around the pattern go, inner ones stay. */
	assertEqualInt(fsim_rules_for_region(r, "ax > yb", &d), 0);
	assertEqualInt(d.nrules, 1);
	if (d.nrules == 1)
		assertEqualInt(d.dur[0], 0);
	fsim_durrule_release(&d);
	assertEqualInt(fsim_rules_for_region(r, "ax >yb", &d), 0);
	assertEqualInt(d.nrules, 0);
	fsim_durrule_release(&d);

	/* No region, no match, whatever the pattern. */
	assertEqualInt(fsim_rules_for_region(r, "", &d), 0);
	assertEqualInt(d.nrules, 0);
	assertEqualInt(fsim_rules_for_region(r, NULL, &d), 0);
	assertEqualInt(d.nrules, 0);

	char *doc = NULL;
	size_t dlen = 0;
	FILE *mf = open_memstream(&doc, &dlen);
	fsim_rules_describe(r, mf, "");
	fclose(mf);
	assertContains(doc, "SEBs of code regions matching 'main (f.c:1) > "
		       "main (f.c:2)' take 1us (--replace)\n");
	assertContains(doc, "SEBs of code regions matching '*(f.c:1) > *' "
		       "that take more than 5us take 2us");
	free(doc);
	fsim_rules_free(r);
}

int main(void)
{
	tmp = test_tmpdir("test_config");
	test_units();
	test_defaults();
	test_load_and_precedence();
	test_config_errors();
	test_load_atomic();
	test_topology();
	test_machine();
	test_big_map();
	test_write();
	test_rules();
	test_region_rules();
	return TEST_EXIT();
}
