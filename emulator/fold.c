/*
 * fold->c -- memory folding: sibyl_shared_malloc() and sibyl_shared_free()
 * (declared in sibyl.h).
 *
 * The k-th sibyl_shared_malloc() of every rank of a process returns the
 * same block, so data every rank holds identically (an input matrix, a
 * table) costs its size once per process instead of once per rank, and
 * a host can emulate footprints far beyond its memory.  The contents are
 * shared: what one rank writes the others read, which is only right for
 * data whose values do not steer control flow or messages.
 *
 * Blocks are kept in call order; block k remembers its size (every
 * rank's k-th call must ask for the same size) and which ranks hold it,
 * a bitmap of the process's ranks, freed with the block when the last
 * holder has freed it.  A later k-th call then allocates it anew.  The
 * per-rank call counters are one array for the process, made on first
 * use: a program that never folds pays nothing.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"
#include "include/sibyl.h"

typedef struct fold_block {
	void *p;                /* NULL: freed by every holder (or never
	                           allocated) */
	void *last;             /* where it was when last freed, until it
	                           is allocated anew: malloc() may hand
	                           that address out again */
	size_t size;
	int32_t first;          /* world rank of the first call */
	uint32_t holders;       /* ranks holding it now */
	uint8_t *held;          /* bit per local rank */
} fold_block;

/* The process's blocks are emu.fold (emu_priv.h). */
static struct emu_fold_state *const fold = &emu.fold;

static emu_rank *caller(const char *call)
{
	emu_rank *r = emu_self(call);
	if (!fold->calls && !(fold->calls = calloc(emu.count,
						 sizeof *fold->calls)))
		emu_fatal("rank %d in %s: out of memory", r->world, call);
	return r;
}

static int held_by(const fold_block *b, const emu_rank *r)
{
	return b->held && (b->held[r->local / 8] >> (r->local % 8) & 1);
}

void *sibyl_shared_malloc(size_t size)
{
	emu_rank *r = caller("sibyl_shared_malloc");
	uint32_t k = fold->calls[r->local];

	if (k == fold->nblocks) {
		if (fold->nblocks == fold->cblocks) {
			uint32_t c = fold->cblocks ? 2 * fold->cblocks : 16;
			fold_block *nb = realloc(fold->blocks, c * sizeof *nb);
			if (!nb || c <= fold->cblocks)
				emu_fatal("rank %d in sibyl_shared_malloc: out "
					  "of memory for %u blocks", r->world,
					  c);
			fold->blocks = nb;
			fold->cblocks = c;
		}
		memset(&fold->blocks[k], 0, sizeof fold->blocks[k]);
		fold->blocks[k].size = size;
		fold->blocks[k].first = r->world;
		fold->nblocks++;
	}
	fold_block *b = &fold->blocks[k];
	if (b->size != size)
		emu_fatal("rank %d: sibyl_shared_malloc call #%u asks for %zu "
			  "bytes, but call #%u of rank %d asked for %zu; every "
			  "rank of a process must make the same sequence of "
			  "sibyl_shared_malloc calls with the same sizes",
			  r->world, k + 1, size, k + 1, b->first, b->size);
	if (!b->p) {
		/* calloc: zeroed, and a large block comes from mmap, so
		 * pages nobody touches cost nothing. */
		b->p = calloc(1, size ? size : 1);
		b->last = NULL;
		b->held = calloc((emu.count + 7) / 8, 1);
		if (!b->p || !b->held)
			emu_fatal("rank %d: sibyl_shared_malloc(%zu): out of "
				  "memory", r->world, size);
	}
	b->held[r->local / 8] |= (uint8_t)(1u << (r->local % 8));
	b->holders++;
	fold->calls[r->local] = k + 1;
	return b->p;
}

void sibyl_shared_free(void *p)
{
	emu_rank *r = caller("sibyl_shared_free");
	if (!p)
		return;
	/* Newest first: blocks are usually freed in reverse order. */
	for (uint32_t k = fold->nblocks; k-- > 0;) {
		fold_block *b = &fold->blocks[k];
		if (b->p != p)
			continue;
		if (!held_by(b, r))
			emu_fatal("rank %d: sibyl_shared_free(%p): this rank "
				  "%s block #%u (%zu bytes); free each block "
				  "once, in every rank that got it", r->world,
				  p, fold->calls[r->local] > k ?
				  "already freed" : "never got", k + 1,
				  b->size);
		b->held[r->local / 8] &= (uint8_t)~(1u << (r->local % 8));
		if (--b->holders == 0) {
			free(b->p);
			free(b->held);
			b->last = b->p;
			b->p = NULL;
			b->held = NULL;
		}
		return;
	}
	for (uint32_t k = fold->nblocks; k-- > 0;)
		if (fold->blocks[k].last == p && fold->calls[r->local] > k)
			emu_fatal("rank %d: sibyl_shared_free(%p): this rank "
				  "already freed block #%u (%zu bytes); free "
				  "each block once, in every rank that got it",
				  r->world, p, k + 1, fold->blocks[k].size);
	emu_fatal("rank %d: sibyl_shared_free(%p): not a block from "
		  "sibyl_shared_malloc (memory from malloc goes to free())",
		  r->world, p);
}
