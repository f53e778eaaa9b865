/*
 * fsim_queue.h -- fastsim's event queue (internal).
 *
 * A monotone priority queue: every event pushed has a time at or after
 * the time of the last event popped, which a discrete-event simulator
 * guarantees.  That allows a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan
 * 1990): bucket b holds the events whose time differs from the last popped
 * time first in bit b-1, so a push is an append and each event moves down
 * at most 64 buckets in its life.  Unlike a binary heap it touches memory
 * in sequential runs, which matters because the simulator is memory
 * bound (thesis §4.1).
 *
 * Ties are broken by insertion order, exactly: bucket 0 (events at the
 * current time) is kept sorted by insertion number.  Events pushed at the
 * current time are appended with a larger number than any already there;
 * events moved down into bucket 0 are sorted by number when they land.
 */
#ifndef SIBYL_FSIM_QUEUE_H
#define SIBYL_FSIM_QUEUE_H

#include <stdint.h>
#include <stdlib.h>

#include "netmodel.h"

typedef struct fq_item {
	sib_ps t;
	uint64_t seq;          /* insertion number: the tie-breaker */
	uint64_t arg;          /* payload, opaque to the queue */
} fq_item;

typedef struct fq_bucket {
	fq_item *v;
	size_t n, cap, head;   /* head: next to pop (bucket 0 only) */
} fq_bucket;

typedef struct fq_queue {
	fq_bucket b[65];
	sib_ps last;        /* time of the last event popped */
	uint64_t next_seq;
	size_t size;
} fq_queue;

static inline int fq_bucket_of(sib_ps t, sib_ps last)
{
	uint64_t x = (uint64_t)t ^ (uint64_t)last;
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int fq_grow(fq_bucket *bk)
{
	size_t cap = bk->cap ? bk->cap * 2 : 64;
	fq_item *v = realloc(bk->v, cap * sizeof *v);
	if (!v)
		return -1;
	bk->v = v;
	bk->cap = cap;
	return 0;
}

/* Push; t must be >= q->last.  Returns -1 when out of memory. */
static inline int fq_push(fq_queue *q, sib_ps t, uint64_t arg)
{
	fq_bucket *bk = &q->b[fq_bucket_of(t, q->last)];
	if (bk->n == bk->cap && fq_grow(bk))
		return -1;
	fq_item *it = &bk->v[bk->n++];
	it->t = t;
	it->seq = q->next_seq++;
	it->arg = arg;
	q->size++;
	return 0;
}

static inline int fq_cmp_seq(const void *a, const void *b)
{
	const fq_item *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Refill bucket 0 from the lowest non-empty bucket. */
static inline int fq_refill(fq_queue *q)
{
	int i = 1;
	while (i < 65 && q->b[i].n == 0)
		i++;
	if (i == 65)
		return 0;
	fq_bucket *src = &q->b[i];
	sib_ps m = src->v[0].t;
	for (size_t k = 1; k < src->n; k++)
		if (src->v[k].t < m)
			m = src->v[k].t;
	q->last = m;
	fq_bucket *z = &q->b[0];
	z->n = z->head = 0;
	for (size_t k = 0; k < src->n; k++) {
		fq_bucket *d = &q->b[fq_bucket_of(src->v[k].t, m)];
		if (d->n == d->cap && fq_grow(d))
			return -1;
		d->v[d->n++] = src->v[k];
	}
	src->n = 0;
	/* Restore insertion order among the events now due. */
	for (size_t k = 1; k < z->n; k++) {
		if (z->v[k].seq < z->v[k - 1].seq) {
			qsort(z->v, z->n, sizeof *z->v, fq_cmp_seq);
			break;
		}
	}
	return 1;
}

/* Pop the earliest event into *it: 1 when there was one, 0 when the
 * queue is empty, -1 when out of memory. */
static inline int fq_pop(fq_queue *q, fq_item *it)
{
	fq_bucket *z = &q->b[0];
	if (z->head == z->n) {
		int r = fq_refill(q);
		if (r <= 0)
			return r;
	}
	*it = z->v[z->head++];
	if (z->head == z->n)
		z->head = z->n = 0;
	q->size--;
	return 1;
}

static inline void fq_free(fq_queue *q)
{
	for (int i = 0; i < 65; i++)
		free(q->b[i].v);
}

#endif /* SIBYL_FSIM_QUEUE_H */
