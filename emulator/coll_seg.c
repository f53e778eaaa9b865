/*
 * coll_seg.c -- segments (coll_sched.h): the blocks of a gather, scatter
 * or all-to-all side in the user's buffers, with their own counts,
 * displacements and datatypes, read and written as packed bytes.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"

int coll_seg_count(const coll_seg *g, int j)
{
	return g->counts ? g->counts[j] : g->count;
}

MPI_Datatype coll_seg_type(const coll_seg *g, int j)
{
	return g->types ? g->types[j] : g->type;
}

char *coll_seg_addr(const coll_seg *g, int j)
{
	if (!g->counts)
		return g->base + (int64_t)j * g->count *
			emu_dt_extent(g->type);
	if (g->types)
		return g->base + (g->adispls ? g->adispls[j] : g->displs[j]);
	return g->base + (int64_t)g->displs[j] * emu_dt_extent(g->type);
}

uint64_t coll_seg_bytes(const coll_seg *g, int j)
{
	return (uint64_t)coll_seg_count(g, j) *
		(uint64_t)emu_dt_size(coll_seg_type(g, j));
}

void coll_seg_pack(const coll_seg *g, int j, void *out)
{
	uint64_t n = coll_seg_bytes(g, j);
	if (!n)
		return;
	if (emu_dt_contiguous(coll_seg_type(g, j)))
		memcpy(out, coll_seg_addr(g, j), n);
	else
		emu_dt_pack(coll_seg_addr(g, j), coll_seg_count(g, j), coll_seg_type(g, j),
			    out);
}

void coll_seg_unpack(const coll_seg *g, int j, const void *in)
{
	uint64_t n = coll_seg_bytes(g, j);
	if (!n)
		return;
	if (emu_dt_contiguous(coll_seg_type(g, j)))
		memcpy(coll_seg_addr(g, j), in, n);
	else
		emu_dt_unpack(in, n, coll_seg_addr(g, j), coll_seg_count(g, j),
			      coll_seg_type(g, j));
}

void coll_seg_copy(coll *s, const coll_seg *from, int j, const coll_seg *to,
		   int k)
{
	uint64_t n = coll_seg_bytes(from, j), cap = coll_seg_bytes(to, k);
	if (n > cap)
		emu_mpi_error(s->r, s->call, MPI_ERR_TRUNCATE, "this rank's "
			      "own block is %llu bytes but its receive block "
			      "holds %llu", (unsigned long long)n,
			      (unsigned long long)cap);
	if (!n)
		return;
	if (emu_dt_contiguous(coll_seg_type(from, j)) &&
	    emu_dt_contiguous(coll_seg_type(to, k))) {
		memmove(coll_seg_addr(to, k), coll_seg_addr(from, j), n);
		return;
	}
	char *t = malloc(n);
	if (!t)
		emu_mpi_error(s->r, s->call, MPI_ERR_NO_MEM, "no memory to "
			      "copy %llu bytes", (unsigned long long)n);
	coll_seg_pack(from, j, t);
	emu_dt_unpack(t, n, coll_seg_addr(to, k), coll_seg_count(to, k),
		      coll_seg_type(to, k));
	free(t);
}

int coll_seg_flat(const coll_seg *g, int n)
{
	if (g->types)
		return 0;
	if (!emu_dt_contiguous(g->type))
		return 0;
	if (!g->counts)
		return 1;
	int64_t at = 0;
	for (int j = 0; j < n; j++) {
		if (g->displs[j] != at)
			return 0;
		at += g->counts[j];
	}
	return 1;
}
