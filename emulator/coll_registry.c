/*
 * coll_registry.c -- the collectives' algorithms by name (the tables of
 * coll_sched.h's X-macro lists), SIBYL_COLL's choices, and the default
 * algorithm of a call by its communicator and message sizes.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"

#define ALG(id, name, fn) { name, fn },
#define ALG_ID(id, name, fn) id,

#define TABLE(list, table) \
	static const coll_alg table##_algs[] = { COLL_ALGS_##list(ALG) };
COLL_ALG_TABLES(TABLE)

/* Their indices, for the defaults. */
#define IDS(list, table) enum { COLL_ALGS_##list(ALG_ID) };
COLL_ALG_TABLES(IDS)

#define KIND(name, algs) { name, algs, sizeof(algs) / sizeof(algs[0]) }

static const struct {
	const char *name;
	const coll_alg *algs;
	int nalgs;
} kinds[COLL_NKINDS] = {
	[COLL_BARRIER] = KIND("barrier", barrier_algs),
	[COLL_BCAST] = KIND("bcast", bcast_algs),
	[COLL_REDUCE] = KIND("reduce", reduce_algs),
	[COLL_ALLREDUCE] = KIND("allreduce", allreduce_algs),
	[COLL_SCAN] = KIND("scan", scan_algs),
	[COLL_EXSCAN] = KIND("exscan", scan_algs),
	[COLL_GATHER] = KIND("gather", gather_algs),
	[COLL_GATHERV] = KIND("gatherv", gatherv_algs),
	[COLL_SCATTER] = KIND("scatter", scatter_algs),
	[COLL_SCATTERV] = KIND("scatterv", scatterv_algs),
	[COLL_ALLGATHER] = KIND("allgather", allgather_algs),
	[COLL_ALLGATHERV] = KIND("allgatherv", allgather_algs),
	[COLL_ALLTOALL] = KIND("alltoall", alltoall_algs),
	[COLL_ALLTOALLV] = KIND("alltoallv", alltoallv_algs),
	[COLL_ALLTOALLW] = KIND("alltoallw", alltoallv_algs),
	[COLL_REDUCE_SCATTER] = KIND("reduce_scatter", reduce_scatter_algs),
	[COLL_REDUCE_SCATTER_BLOCK] = KIND("reduce_scatter_block",
					   reduce_scatter_algs),
};

/* SIBYL_COLL's choice per collective, or -1 (the default), is
 * emu.coll.chosen. */

const char *coll_kind_name(int kind)
{
	return kinds[kind].name;
}

static void list_names(char *buf, size_t len, int kind)
{
	size_t n = 0;
	buf[0] = 0;
	for (int k = 0; k < COLL_NKINDS && n < len; k++) {
		if (kind >= 0 && k != kind)
			continue;
		if (kind < 0) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "", kinds[k].name);
			continue;
		}
		for (int a = 0; a < kinds[k].nalgs && n < len; a++)
			n += (size_t)snprintf(buf + n, len - n, "%s, ",
					      kinds[k].algs[a].name);
		if (n < len)
			snprintf(buf + n, len - n, "default");
	}
}

void coll_alg_init(void)
{
	for (int k = 0; k < COLL_NKINDS; k++)
		emu.coll.chosen[k] = -1;
	const char *v = emu.set[EMU_S_COLL].text;
	if (!v)
		return;
	char *copy = strdup(v), *save = NULL, names[1024];
	if (!copy)
		emu_fatal("out of memory");
	for (char *it = strtok_r(copy, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		while (*it == ' ')
			it++;
		if (!*it)
			continue;
		char *eq = strchr(it, '=');
		if (!eq) {
			emu_fatal("SIBYL_COLL=%s: `%s' is not COLLECTIVE="
				  "ALGORITHM (e.g. allreduce=ring)", v, it);
		}
		*eq = 0;
		const char *alg = eq + 1;
		int k;
		for (k = 0; k < COLL_NKINDS; k++)
			if (strcmp(kinds[k].name, it) == 0)
				break;
		if (k == COLL_NKINDS) {
			list_names(names, sizeof names, -1);
			emu_fatal("SIBYL_COLL=%s: unknown collective `%s'; the "
				  "collectives are %s", v, it, names);
		}
		int a;
		for (a = 0; a < kinds[k].nalgs; a++)
			if (strcmp(kinds[k].algs[a].name, alg) == 0)
				break;
		if (a == kinds[k].nalgs && strcmp(alg, "default") != 0) {
			list_names(names, sizeof names, k);
			emu_fatal("SIBYL_COLL=%s: unknown algorithm `%s' for "
				  "%s; its algorithms are %s", v, alg, it,
				  names);
		}
		emu.coll.chosen[k] = a == kinds[k].nalgs ? -1 : a;
	}
	free(copy);
}

/* Open MPI's tuned component and MPICH choose by sizes like these; the
 * inputs are the same on every rank of the communicator. */
static int default_alg(const coll *s)
{
	int P = s->size;
	uint64_t N = s->bytes;
	uint64_t rb = (uint64_t)s->count * s->esz;
	int p2 = coll_pof2_floor(P);
	switch (s->kind) {
	case COLL_BARRIER:
		return coll_is_pof2(P) ? BAR_RD : BAR_DISS;
	case COLL_BCAST:
		return N < 12288 || P < 8 ? BC_BIN : BC_SAG;
	case COLL_REDUCE:
		return s->commute && rb >= 65536 && s->count >= p2 ?
			RED_RAB : RED_BIN;
	case COLL_ALLREDUCE:
		if (!s->commute || rb <= 2048 || s->count < p2)
			return AR_RD;
		return rb <= 524288 || s->count < P ? AR_RAB : AR_RING;
	case COLL_SCAN:
	case COLL_EXSCAN:
		return SC_RD;
	case COLL_GATHER:
		return N < 6000 ? GA_BIN : GA_LIN;
	case COLL_SCATTER:
		return N < 6000 ? SCA_BIN : SCA_LIN;
	case COLL_ALLGATHER:
	case COLL_ALLGATHERV: {
		/* Total bytes: the same on every rank. */
		uint64_t total = 0;
		for (int j = 0; j < P; j++)
			total += coll_seg_bytes(&s->rseg, j);
		if (total < 81920)
			return coll_is_pof2(P) ? AG_RD : AG_BRUCK;
		return total < 524288 && coll_is_pof2(P) ? AG_RD : AG_RING;
	}
	case COLL_ALLTOALL:
		if (N <= 256 && P >= 8)
			return A2A_BRUCK;
		return N < 32768 ? A2A_LIN : A2A_PAIR;
	case COLL_ALLTOALLV:
	case COLL_ALLTOALLW:
		return A2AV_LIN;
	case COLL_REDUCE_SCATTER:
	case COLL_REDUCE_SCATTER_BLOCK:
		return s->commute ? RS_HALV : RS_RSV;
	default:
		return 0;
	}
}

const coll_alg *coll_alg_choose(const coll *s)
{
	int k = s->kind;
	int a = emu.coll.chosen[k] >= 0 ? emu.coll.chosen[k] : default_alg(s);
	if (!s->commute) {
		/* Orders that mix ranks give way to ones that keep them. */
		if (k == COLL_REDUCE && a == RED_RAB)
			a = RED_BIN;
		if (k == COLL_ALLREDUCE && (a == AR_RAB || a == AR_RING))
			a = AR_RD;
		if ((k == COLL_REDUCE_SCATTER ||
		     k == COLL_REDUCE_SCATTER_BLOCK) && a == RS_HALV)
			a = RS_RSV;
	}
	return &kinds[k].algs[a];
}
