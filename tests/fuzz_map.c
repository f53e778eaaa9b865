/*
 * fuzz_map.c -- fuzz target for the mapping file reader
 * (fastsim/fsim_machine.c) through fsim_machine_build, as `sibyl sim
 * --map' and `sibyl map --check' use it.
 *
 * The input is a mapping file.  A first line "# fuzz RANKS CORES NODES"
 * (a comment to the reader) gives the rank count, machine.cores_per_node
 * and machine.nodes; without it, the ranks are the lines that start with
 * a digit, on nodes of 4 cores, as many nodes as the map names.
 * Invariants checked on a map that is accepted (abort when broken):
 * every rank is on an existing node and core, no two ranks share a core,
 * a rank given a core has it, and the machine is within the node limit.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "fuzz_machine.h"
#include "fuzz_text.h"

const char *const fuzz_seeds[] = {
	"0 0\n",
	"# fuzz 4 2 2\n0 0\n1 0\n2 1\n3 1\n",
	"# fuzz 4 2 0\n0 0 1\n1 0 0\n2 1\n3 1 0\n",
	"# fuzz 3 4 8\n# spread out\n0 7 3   # last core\n1 0\n2 3 0\n",
	"# fuzz 2 1 0\n0 0\n1 65535\n",
	"# fuzz 6 3 0\n5 1\n4 1\n3 1\n2 0 2\n1 0\n0 0\n",
	"0\t0\r\n1 0\r\n2 1 \n3 1\t# tabs\n",
	"# fuzz 5 1 5\n\n   \n0 4\n1 3\n2 2\n3 1\n4 0\n",
	NULL
};

const char *const fuzz_words[] = {
	"# fuzz ", "#", " ", "\t", "\n", "\r\n", "0", "1", "65535", "65536",
	"4294967295", "4294967296", "1048576",
	NULL
};

#define FZ_MAX_RANKS 4096

/* Ranks, cores per node and nodes for the input. */
static void params(const uint8_t *data, size_t size, unsigned long *ranks,
		   unsigned long *cores, unsigned long *nodes)
{
	char head[128];
	size_t n = size < sizeof head - 1 ? size : sizeof head - 1;
	memcpy(head, data, n);
	head[n] = '\0';
	*cores = 4;
	*nodes = 0;
	if (sscanf(head, "# fuzz %lu %lu %lu", ranks, cores, nodes) == 3) {
		if (*ranks < 1 || *ranks > FZ_MAX_RANKS)
			*ranks = 1 + *ranks % FZ_MAX_RANKS;
		return;
	}
	*ranks = 0;
	for (size_t i = 0; i < size; i++)
		if ((i == 0 || data[i - 1] == '\n') && data[i] >= '0' &&
		    data[i] <= '9')
			(*ranks)++;
	if (*ranks < 1 || *ranks > FZ_MAX_RANKS)
		*ranks = 1 + *ranks % FZ_MAX_RANKS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long ranks, cores, nodes;
	char set[128], err[4096];
	fsim_config *c;
	fsim_machine *m;

	params(data, size, &ranks, &cores, &nodes);
	const char *path = fz_put("fuzz.map", data, size);
	if (fsim_config_new(&c))
		abort();
	char *mapset = malloc(strlen(path) + 32);
	if (!mapset)
		abort();
	sprintf(mapset, "machine.map=\"%s\"", path);
	snprintf(set, sizeof set, "machine.cores_per_node=%lu", cores);
	if (!fsim_config_set(c, mapset, err, sizeof err) &&
	    !fsim_config_set(c, set, err, sizeof err) &&
	    (snprintf(set, sizeof set, "machine.nodes=%lu", nodes),
	     !fsim_config_set(c, set, err, sizeof err)) &&
	    !fsim_config_resolve(c, err, sizeof err) &&
	    !fsim_machine_build(&m, c, (uint32_t)ranks, err, sizeof err)) {
		fz_check_machine(m, (uint32_t)ranks);
		fsim_machine_free(m);
	}
	free(mapset);
	fsim_config_free(c);
	return 0;
}
