/*
 * fsim_mbox.h -- per-PE mailboxes of fastsim (internal).
 *
 * A PE's mailbox holds the messages addressed to it that matter right
 * now: messages that have arrived (or whose arrival time is known) but
 * that no SEB has consumed yet, and messages its current SEB awaits that
 * have not arrived.  An arriving message finds its waiting SEB, and an
 * SEB becoming current finds its early messages, in O(1): the mailbox is
 * an open-addressing hash table keyed by message identity (source PE,
 * sequence number) -- BigFastSim's message-to-task map, built as SEBs are
 * loaded, so that no arrival ever searches the SEBs.  Tables live with
 * their PE, so a stencil's neighbours touch nearby memory.
 *
 * Linear probing with backward-shift deletion; the table doubles at 3/4
 * load and is freed when it empties after having grown, so a burst (an
 * all-to-all) does not pin memory for the rest of the run.
 */
#ifndef SIBYL_FSIM_MBOX_H
#define SIBYL_FSIM_MBOX_H

#include <stdint.h>
#include <stdlib.h>

#include "netmodel.h"

#define MB_EMPTY UINT64_MAX        /* no PE has index 2^32 - 1 */
#define MB_AWAITED INT64_MIN       /* value: awaited, not arrived */
#define MB_MIN_CAP 8u

typedef struct mb_slot {
	uint64_t key;                  /* src << 32 | seq */
	sib_ps t;                   /* arrival time, or MB_AWAITED */
} mb_slot;

typedef struct mb_box {
	mb_slot *s;
	uint32_t n, cap;               /* cap: 0 or a power of two */
} mb_box;

static inline uint64_t mb_key(uint32_t src, uint64_t seq)
{
	return (uint64_t)src << 32 | (uint32_t)seq;
}

static inline uint32_t mb_hash(uint64_t key, uint32_t cap)
{
	key *= UINT64_C(0x9e3779b97f4a7c15);
	return (uint32_t)(key >> 32) & (cap - 1);
}

/* Slot holding key, or NULL. */
static inline mb_slot *mb_find(mb_box *b, uint64_t key)
{
	if (!b->n)
		return NULL;
	uint32_t m = b->cap - 1, i = mb_hash(key, b->cap);
	for (;;) {
		mb_slot *s = &b->s[i];
		if (s->key == key)
			return s;
		if (s->key == MB_EMPTY)
			return NULL;
		i = (i + 1) & m;
	}
}

static inline int mb_resize(mb_box *b, uint32_t cap)
{
	mb_slot *ns = malloc((size_t)cap * sizeof *ns);
	if (!ns)
		return -1;
	for (uint32_t i = 0; i < cap; i++)
		ns[i].key = MB_EMPTY;
	for (uint32_t i = 0; i < b->cap; i++) {
		if (b->s[i].key == MB_EMPTY)
			continue;
		uint32_t j = mb_hash(b->s[i].key, cap);
		while (ns[j].key != MB_EMPTY)
			j = (j + 1) & (cap - 1);
		ns[j] = b->s[i];
	}
	free(b->s);
	b->s = ns;
	b->cap = cap;
	return 0;
}

/* Insert a key known to be absent.  Returns -1 when out of memory. */
static inline int mb_insert(mb_box *b, uint64_t key, sib_ps t)
{
	if ((uint64_t)(b->n + 1) * 4 > (uint64_t)b->cap * 3 &&
	    mb_resize(b, b->cap ? b->cap * 2 : MB_MIN_CAP))
		return -1;
	uint32_t m = b->cap - 1, i = mb_hash(key, b->cap);
	while (b->s[i].key != MB_EMPTY)
		i = (i + 1) & m;
	b->s[i].key = key;
	b->s[i].t = t;
	b->n++;
	return 0;
}

/* Remove the entry in slot s (from mb_find). */
static inline void mb_remove(mb_box *b, mb_slot *s)
{
	uint32_t m = b->cap - 1, i = (uint32_t)(s - b->s), j = i;
	for (;;) {
		j = (j + 1) & m;
		if (b->s[j].key == MB_EMPTY)
			break;
		uint32_t h = mb_hash(b->s[j].key, b->cap);
		/* Move j back into the hole at i unless its home lies
		 * cyclically in (i, j]. */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			b->s[i] = b->s[j];
			i = j;
		}
	}
	b->s[i].key = MB_EMPTY;
	if (--b->n == 0 && b->cap > 4 * MB_MIN_CAP) {
		free(b->s);
		b->s = NULL;
		b->cap = 0;
	}
}

static inline void mb_free(mb_box *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}

#endif /* SIBYL_FSIM_MBOX_H */
