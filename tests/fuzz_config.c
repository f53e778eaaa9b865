/*
 * fuzz_config.c -- fuzz target for the machine description reader
 * (fastsim/fsim_config.c) and the machine built from it.
 *
 * The input is a configuration file.  A first line "#set KEY=VALUE"
 * (a comment to the file reader) is also given to fsim_config_set.  A
 * configuration that resolves is written back (fsim_config_write) and,
 * unless it names a mapping file, turned into a machine for a rank
 * count taken from the input's size.  Invariants checked (abort when
 * broken): a written configuration reads back and resolves to the same
 * text; machine.topology's PU count, which Sibyl computes from the text,
 * is what hwloc builds (for nodes of at most 64 PUs); a machine places
 * every rank on an existing node and core, within the node limit.
 */
#include "config.h"

#include <hwloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "fuzz_machine.h"
#include "fuzz_text.h"

const char *const fuzz_seeds[] = {
	"",
	"# an empty machine\n",
	"[machine]\nnodes = 4\ncores_per_node = 2\n",
	"[machine]\ntopology = \"package:2 core:4 pu:2\"\nnodes = 0\n",
	"#set machine.topology=pu:3\n[machine]\nnodes = 2\n",
	"[net]\nmodel = simple\nlatency = 1.5us   # one way\n"
	"bandwidth = 10GB/s\n[intranode]\nlatency = 200ns\n"
	"bandwidth = 5GiB/s\n[cpu]\nfactor = 3/4\n",
	"[net]\nmodel = torus\ndims = 4x4\n[machine]\nnodes = 16\n",
	"[net]\nmodel = percs\n[sim]\nseed = 7\n",
	"[replace]\nrules = \"size>=1KiB:64KiB; seb:compute=1us; "
	"scale:x=0.5\"\n",
	/* a quoted value holding what looks like a note after a value */
	"[replace]\nrules = \"seb:a=1us  # b\"  # c\n",
	"[noise]\nseed = -1\nscale = 0.5\ncosched = yes\n",
	"[machine]\ntopology = \"(memory=1GB) package:2 [numa] core:0x2 "
	"pu:02\"\n",
	"#set net.latency=2us\n[net]\nlatency = 1us\n[machine]\n"
	"cores_per_node = 3\n[machine]\nnodes = 5\n",
	NULL
};

const char *const fuzz_words[] = {
	"[machine]", "[intranode]", "[cpu]", "[net]", "[replace]", "[sim]",
	"[noise]", "nodes", "cores_per_node", "topology", "map", "latency",
	"bandwidth", "factor", "model", "rules", "seed", "dir", "scale",
	"cosched", "simple", "torus", "percs", "dims", " = ", "=", "\"",
	"\\\"", "#", "#set ", "package:", "core:", "pu:", "numa", "[numa]",
	"(memory=1GB)", "(indexes=0,2)", "l3:", "group:", "us", "ns", "ps",
	"ms", "s", "GB/s", "GiB/s", "Gb/s", "KiB", "MB", "3/4", "yes", "no",
	"size>=", "seb:", "scale:", ";", "\n", "\r\n",
	NULL
};

#define FZ_MAX_TOPOLOGY_CHECK 64

static void fz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_config: %s: %s\n", what, detail);
	abort();
}

/* hwloc's PU count of a synthetic topology Sibyl accepted. */
static void check_topology(const char *desc, int64_t pus)
{
	hwloc_topology_t t;
	if (pus > FZ_MAX_TOPOLOGY_CHECK || hwloc_topology_init(&t))
		return;
	if (hwloc_topology_set_synthetic(t, desc) || hwloc_topology_load(t))
		fz_fail("hwloc refuses a topology Sibyl accepted", desc);
	if (hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU) != pus)
		fz_fail("the PU count differs from hwloc's", desc);
	hwloc_topology_destroy(t);
}

static void check_machine(const fsim_config *c, uint32_t npes)
{
	fsim_machine *m;
	char err[4096];
	if (fsim_machine_build(&m, c, npes, err, sizeof err))
		return;
	fz_check_machine(m, npes);
	fsim_machine_free(m);
}

/* The text of c as fsim_config_write gives it. */
static char *written(const fsim_config *c, size_t *len)
{
	char *t = NULL;
	FILE *f = open_memstream(&t, len);
	if (!f || fsim_config_write(c, f) || fclose(f))
		abort();
	return t;
}

/* t without the notes after values ("# default", "# from
 * machine.topology": a key read back is given, no longer a default). */
static void drop_notes(char *t)
{
	char *p = t;
	while ((p = strstr(p, "  # "))) {
		size_t n = strcspn(p, "\n");
		memmove(p, p + n, strlen(p + n) + 1);
	}
}

/* Write c, read it back, and compare the two written texts. */
static void check_rewrite(const fsim_config *c)
{
	char err[4096];
	size_t na, nb;
	fsim_config *d;
	char *a = written(c, &na);
	if (fsim_config_new(&d))
		abort();
	if (fsim_config_load(d, fz_put("rewritten.conf", a, na), err,
			     sizeof err) ||
	    fsim_config_resolve(d, err, sizeof err))
		fz_fail("a written configuration does not read back", err);
	char *b = written(d, &nb);
	drop_notes(a);
	drop_notes(b);
	if (strcmp(a, b))
		fz_fail("a written configuration reads back otherwise", a);
	fsim_config_free(d);
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static hwloc_topology_t keep;
	char err[4096], set[512];
	fsim_config *c;

	/* hwloc loads its components when the first topology is made and
	 * unloads them with the last one (tens of milliseconds each time):
	 * one topology kept for the whole run keeps them. */
	if (!keep && hwloc_topology_init(&keep))
		abort();

	if (fsim_config_new(&c))
		abort();
	const char *path = fz_put("fuzz.conf", data, size);
	int rc = fsim_config_load(c, path, err, sizeof err);
	if (!rc && size > 5 && !memcmp(data, "#set ", 5)) {
		const uint8_t *nl = memchr(data, '\n', size);
		size_t n = (size_t)((nl ? nl : data + size) - data) - 5;
		if (n < sizeof set && !memchr(data + 5, '\0', n)) {
			memcpy(set, data + 5, n);
			set[n] = '\0';
			rc = fsim_config_set(c, set, err, sizeof err);
		}
	}
	if (!rc && !fsim_config_resolve(c, err, sizeof err)) {
		const sib_value *topo = fsim_config_get(c, "machine",
							 "topology");
		const sib_value *cores = fsim_config_get(c, "machine",
							  "cores_per_node");
		const sib_value *map = fsim_config_get(c, "machine", "map");
		const sib_value *noise = fsim_config_get(c, "noise", "dir");
		if (!topo || !cores || !map || !noise)
			abort();
		if (topo->s[0])
			check_topology(topo->s, cores->i);
		/* A path read back from elsewhere is another file. */
		if (!map->s[0] && !noise->s[0])
			check_rewrite(c);
		if (!map->s[0])
			check_machine(c, 1 + (uint32_t)(size % 97));
	}
	fsim_config_free(c);
	return 0;
}
