/*
 * tf_check.h -- the trace checker's state and what its files share
 * (internal to tracefmt): tf_check.c runs passes 1, 1b and the in-order
 * pass 2; tf_check_order.c settles a stall by Kahn's algorithm and
 * reports a cycle.  See tf_check.c for the method.
 */
#ifndef SIBYL_TF_CHECK_H
#define SIBYL_TF_CHECK_H

#include <stdarg.h>
#include <stdint.h>

#include "sibyl_trace.h"

#define CHECK_DEFAULT_MAX 20
/* Progress is reported every this many windows (passes 1, 1b) / SEBs
 * (pass 2). */
#define PROGRESS_WINDOWS 1024
#define PROGRESS_SEBS 65536
/* Dependencies of a cycle spelled out before the report abbreviates. */
#define CYCLE_STEPS_SHOWN 12
/* Messages whose ends pass 1b examines at once (16 bytes each). */
#define LOCATE_BATCH ((uint64_t)1 << 20)
/*
 * Bytes of window rests pass 2 may cache: this, or an eighth of the
 * trace's uncompressed payload when that is more (the rests of the
 * windows of all PEs at once, as in a barrier, stay below that).  One
 * entry takes at most a sixteenth.
 */
#define RUN_CACHE_MIN ((size_t)32 << 20)
/* deps[] of a SEB that ran in the Kahn fallback. */
#define DEPS_DONE UINT32_MAX
/* msg_ends.dst of a message whose send was not seen. */
#define DST_UNSEEN UINT32_MAX

/* Both ends of a message of a batch of pass 1b. */
typedef struct msg_ends {
	uint32_t dst;           /* destination, or DST_UNSEEN */
	uint32_t seb;           /* sending SEB */
	uint32_t waiter1;       /* PE + 1 of the first wait seen; 0: none */
	uint32_t wseb;          /* its SEB */
} msg_ends;

/* Who waits for a message (Kahn fallback). */
typedef struct msg_slot {
	uint32_t pe1;           /* PE + 1 */
	uint32_t seb;           /* SEB index on that PE */
} msg_slot;

/* An explicit predecessor edge, as global SEB numbers. */
typedef struct pred_edge {
	uint64_t from, to;
} pred_edge;

typedef struct seb_ref {
	uint32_t pe;
	uint32_t seb;
} seb_ref;

/* One step of the walk along unsatisfied dependencies. */
typedef struct dep_step {
	seb_ref to;
	int waits;              /* 1: awaits message (to.pe, seq) */
	uint64_t seq;
	uint64_t through;       /* predecessor links crossed (waits == 0) */
} dep_step;

/* A window read for checking, and how much of it can be trusted. */
typedef struct win_read {
	sibt_window_info wi;
	uint32_t usable;        /* leading SEBs that agree with the index */
	int defect;             /* 0, or 1: SEB count, 2: SEB `at' differs */
	uint32_t decoded;       /* SEBs decoded (defect 1) */
	uint64_t at, seq;       /* first bad SEB and its first send (2) */
} win_read;

/*
 * Pass 2 cache entry: the rest of a window of a PE that stopped, from SEB
 * `first' on, as varints: per SEB its wait and send counts (put_counts),
 * each wait as source PE and sequence number relative to the PE and the
 * SEB's first send, each destination relative to the PE.
 */
typedef struct run_entry {
	uint64_t await;         /* message awaited; NO_MSG once woken */
	uint64_t seq;           /* first send of SEB `first' */
	uint32_t pe, first;
	uint32_t nsebs;         /* SEBs left from data + off */
	uint32_t off, len;
	uint8_t *data;          /* NULL: entry free */
} run_entry;

typedef struct checker checker;
typedef int (*seb_fn)(checker *c, uint32_t pe, const win_read *wr,
		      const sibt_seb *s);

struct checker {
	sibt_trace *t;
	const sibt_check_opts *opts;
	unsigned max_problems;
	long nproblems;
	uint32_t npes;
	uint64_t nsebs, nmsgs, nwindows;
	uint8_t *incomplete;    /* bit per PE: part of it is unreadable */
	int nonchain;           /* some SEB has an explicit predecessor list */

	/*
	 * Per-PE state: two blocks of 8 bytes per PE that the passes use in
	 * turn under their own names (freeing and allocating again could
	 * leave the peak at the sum).
	 */
	uint64_t *pe_a;         /* [npes + 1] */
	uint64_t *pe_b;         /* [npes] */
	/* pass 1: per source PE, hash sum and count of its message ends */
	uint64_t *acc;          /* = pe_a */
	uint64_t *cnt;          /* = pe_b */
	/* pass 1b */
	uint8_t *bad;           /* bit per PE: its messages do not balance */
	uint64_t *ends_base;    /* = pe_a: message src:seq is ends[base+seq] */
	msg_ends *ends;
	uint32_t b_first, b_last; /* the batch: bad PEs in [first, last], */
	uint64_t b_lo, b_hi;    /* from b_first:b_lo to b_last:b_hi - 1 */
	/* pass 2 */
	uint64_t *msg_base;     /* = pe_a: bit of message PE:0 */
	uint32_t *cursor;       /* = pe_b: next SEB to run */
	uint32_t *state;        /* = pe_b + npes: 0 (not waiting), the tag
	                           of the awaited message (wait_tag), or
	                           RUN_ENTRY | number of its cache entry */
	uint8_t *sent;          /* bit per message */
	uint32_t *stack;        /* PEs ready to run */
	size_t sp, stack_cap;
	run_entry *ents;        /* the cache: rests of windows of PEs that */
	uint32_t *free_ents;    /* stopped, by entry number */
	uint32_t nents, nfree;
	size_t ents_cap;
	size_t cache_bytes;
	size_t cache_budget;
	uint8_t *enc;           /* [cache_budget / 16] an entry being made */
	uint64_t rng;
	uint64_t ran;
	int kahn;               /* pass 2 fell back to Kahn's algorithm */

	/* Kahn fallback: the full graph */
	uint64_t *seb_base;     /* [npes + 1]: global number of SEB 0 of PE */
	msg_slot *slot;         /* [nmsgs] */
	uint32_t *deps;         /* [nsebs] dependencies not yet satisfied */
	uint32_t *send_off;     /* [nsebs] first send, relative to window */
	uint8_t *dflt;          /* bit per SEB: default predecessor */
	pred_edge *edges;
	size_t nedges, edges_cap;
	seb_ref *kstack;        /* ready SEBs */
	size_t ksp, kstack_cap;

	sibt_window *win;       /* streaming */
	sibt_window *scratch;   /* single look-ups; holds (spe, sw) */
	int scratch_ok;
	uint32_t spe;
	uint64_t sw;
};

static inline int bit_get(const uint8_t *b, uint64_t i)
{
	return b[i >> 3] >> (i & 7) & 1;
}

static inline void bit_set(uint8_t *b, uint64_t i)
{
	b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The finalizer of splitmix64: a bijection that mixes every bit. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/*
 * Hash of one end of message src:seq, seen on PE pe.  Both mixes are
 * bijections, so the two ends of one message on different PEs never hash
 * alike: a message awaited on the wrong PE always unbalances its source.
 */
static inline uint64_t end_hash(uint32_t src, uint64_t seq, uint32_t pe)
{
	return mix64(mix64((uint64_t)src << 32 | pe) +
		     (seq + 1) * 0x9E3779B97F4A7C15ull);
}

static inline uint64_t pe_nsebs(const checker *c, uint32_t pe)
{
	return sibt_trace_nsebs(c->t, pe);
}

static inline uint64_t pe_nmsgs(const checker *c, uint32_t pe)
{
	return sibt_trace_nsends(c->t, pe);
}

/* A problem of the trace, reported (up to the limit) and counted. */
void tf_chk_problem(checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The check cannot go on: the reason reported; returns err (< 0). */
int tf_chk_fatal(checker *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define INTERNAL(c, what) tf_chk_fatal(c, SIBT_EFORMAT, "internal error in the " \
	"checker (%s:%d): %s", __FILE__, __LINE__, what)
/* n zeroed elements of size bytes for `what', or NULL after tf_chk_fatal;
 * a bit per element. */
void *tf_chk_check_calloc(checker *c, uint64_t n, size_t size,
			  const char *what);
uint8_t *tf_chk_check_bits(checker *c, uint64_t n, const char *what);
/* Tell the caller's progress function how far the phase is. */
void tf_chk_progress(checker *c, const char *phase, uint64_t done,
		     uint64_t total);
/* Call fn on every SEB of every readable window, PE by PE. */
int tf_chk_stream(checker *c, int report, const char *phase, uint64_t done0,
		  uint64_t total, seb_fn fn);
/* SEB idx of pe, through the single-look-up window; NULL when unreadable. */
const sibt_seb *tf_chk_lookup_seb(checker *c, uint32_t pe, uint64_t idx);
/* Pass 2 in order (tf_check.c); 1 when every PE finished. */
int tf_chk_run_in_order(checker *c);
/* Pass 2 (tf_check_order.c): in order, then Kahn's algorithm on a stall
 * that explicit predecessors leave open; reports the cycle found. */
int tf_chk_find_cycles(checker *c);

#endif /* SIBYL_TF_CHECK_H */
