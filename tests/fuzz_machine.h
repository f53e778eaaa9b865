/*
 * fuzz_machine.h -- the invariants of a machine fsim_machine_build
 * accepted, checked by the fuzz targets that build one (fuzz_config.c,
 * fuzz_map.c): every rank on an existing node and core, no two ranks on
 * one core, and no more nodes than fsim_machine_max_nodes allows for the
 * nodes the ranks use.  A broken invariant aborts.
 */
#ifndef SIBYL_FUZZ_MACHINE_H
#define SIBYL_FUZZ_MACHINE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fsim.h"

static inline void fz_machine_fail(const char *what)
{
	fprintf(stderr, "fuzz: the machine built has %s\n", what);
	abort();
}

static inline int fz_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static inline void fz_check_machine(const fsim_machine *m, uint32_t npes)
{
	uint64_t used = 0, *slot = malloc((npes + 1) * sizeof *slot);
	if (!slot)
		abort();
	for (uint32_t pe = 0; pe < npes; pe++) {
		uint32_t n = fsim_node_of(m, pe), k = fsim_core_of(m, pe);
		if (n >= m->nnodes || k >= m->cores_per_node)
			fz_machine_fail("a rank off the machine");
		slot[pe] = (uint64_t)n << 32 | k;
	}
	qsort(slot, npes, sizeof *slot, fz_cmp_u64);
	for (uint32_t i = 0; i < npes; i++) {
		if (i && slot[i] == slot[i - 1])
			fz_machine_fail("two ranks on one core");
		used += !i || slot[i] >> 32 != slot[i - 1] >> 32;
	}
	if (m->nnodes > fsim_machine_max_nodes(used))
		fz_machine_fail("more nodes than the limit");
	free(slot);
}

#endif /* SIBYL_FUZZ_MACHINE_H */
