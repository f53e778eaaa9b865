/*
 * emu_priv.h -- per-rank globals and libc state (privatize.c, libc.c) and
 * memory folding (fold.c).
 *
 * Privatization.  sibylcc moves the writable data of every object it
 * compiles (.data, .data.rel*, .bss) into the sections sibylpriv_data and
 * sibylpriv_bss; the linker brackets them with __start_/__stop_ symbols.
 * Each virtual rank owns an image of that region; the scheduler installs
 * a rank's image before it runs (emu_priv_enter) -- by copying it in and
 * out, or by remapping the pages, whichever SIBYL_PRIVATIZE selects or
 * the size suggests; SIBYL_PRIVATIZE=none leaves globals shared.
 *
 * libc state that is per process (getopt's optind/optarg/opterr/optopt
 * and its position, rand/srand's seed, strtok's position, errno) is per
 * rank too: libc.c replaces those functions for the program and saves
 * and restores the variables at each switch.  exit() in a rank ends that
 * rank only (emu_rank_exit).
 */
#ifndef SIBYL_EMU_PRIV_H
#define SIBYL_EMU_PRIV_H

#include <stddef.h>

struct emu_rank;

/* Once, before any rank runs (reads SIBYL_PRIVATIZE; fatal error when the
 * method cannot work, e.g. remap without page-aligned sections). */
void emu_priv_init(void);
void emu_priv_fini(void);
/* The scheduler is about to run r / r has just stopped running. */
void emu_priv_enter(struct emu_rank *r);
void emu_priv_leave(struct emu_rank *r);
/* Release r's image once it has finished. */
void emu_priv_free_rank(struct emu_rank *r);
/* Where the runtime reaches rank r's copy of [p, p + n) now: p itself
 * unless it lies in the privatized globals and r's copy is not the one
 * installed.  Valid until the next switch, or until r finishes when
 * emu_priv_stable(p, n) (always, outside the globals or with remap);
 * otherwise a transfer that outlives the switch needs a buffer of its
 * own. */
void *emu_priv_addr(const struct emu_rank *r, const void *p, size_t n);
int emu_priv_stable(const void *p, size_t n);
/* libc.c's share of a switch (errno, getopt's variables) and of a
 * finished rank. */
void emu_libc_enter(struct emu_rank *r);
void emu_libc_leave(struct emu_rank *r);
void emu_libc_free_rank(struct emu_rank *r);

/* lifecycle.c: constructors, destructors and exception state per rank. */
void emu_life_construct(int argc, char **argv);
void emu_life_end(struct emu_rank *r);
void emu_life_enter(struct emu_rank *r);
void emu_life_leave(struct emu_rank *r);
void emu_life_free_rank(struct emu_rank *r);
/* "copy 12 KiB/rank", "remap ...", "none" for the manifest and docs. */
const char *emu_priv_describe(void);

/* --------------------------------------------- the process's state */

enum priv_method { PRIV_AUTO, PRIV_NONE, PRIV_COPY, PRIV_REMAP };

/* privatize.c: one of the regions of the program's globals. */
struct emu_priv_region {
	char *start;
	size_t len;        /* bytes of the program's variables */
	size_t maplen;     /* page-rounded extent; 0: cannot be remapped */
	const char *why;   /* ... because */
};

/* privatize.c: emu.priv. */
typedef struct emu_priv_state {
	int ready;              /* setup() done */
	int inited;             /* emu_priv_init() done */
	enum priv_method method;
	struct emu_priv_region data, bss;
	size_t page;
	char *snap;             /* copy: the initial image, data then bss */
	struct emu_rank *resident; /* whose copy the regions hold, or NULL */
	/* remap */
	int fd;
	char *window;           /* every rank's slot, mapped once */
	size_t slot;            /* data.maplen + bss.maplen */
	size_t nnz;             /* pages of the initial image that are not
	                           all zero ... */
	size_t *nz_off;         /* ... their offsets in a slot ... */
	char *nz_pages;         /* ... and their contents */
	char desc[96];
	char slot_started;      /* r->priv = &slot_started: r's remap slot
	                           holds its copy */
} emu_priv_state;
#define EMU_PRIV_STATE_INIT { .fd = -1 }

/* fold.c: emu.fold. */
typedef struct emu_fold_state {
	uint32_t *calls;        /* per local rank: calls made so far */
	struct fold_block *blocks;
	uint32_t nblocks, cblocks;
} emu_fold_state;

#endif /* SIBYL_EMU_PRIV_H */
