/*
 * tf_check.c -- sibt_check(): full validation of a trace.
 *
 * The check must work on traces far larger than they would be decoded in
 * memory (a million PEs, millions of SEBs and messages), and its own state
 * must stay well below the trace's size.  It keeps 16 bytes per PE, one bit
 * per message and a bounded cache; nothing per SEB.
 *
 * Pass 1 streams every window once, PE by PE, and checks what each SEB
 * says: references in range, predecessors earlier, indices and sequence
 * numbers continuing, awaited messages existing.  Messages are matched
 * without a table: every message is a pair (source PE, sequence number)
 * that should appear once as a send to PE d and once as a wait on PE d.
 * Per source PE the pass adds a 64-bit hash of (source, sequence, d) for
 * each send and subtracts the hash of (source, sequence, waiting PE) for
 * each wait, and counts both.  A source whose sum and count come back to
 * zero has every message awaited exactly once on its destination (up to a
 * 2^-64 chance of two defects of one PE cancelling; a single defect always
 * shows).
 *
 * Pass 1b runs only when some source does not balance.  It takes the
 * messages of those sources in batches of bounded memory, reads their
 * sends from the sources' own windows, streams the trace once per batch to
 * see every wait for them, and reports each defective message, exactly as
 * a table of all messages would: awaited by none, awaited twice, awaited
 * on another PE than the one it is sent to.
 *
 * Pass 2 (cycle search) runs only on a trace with no other problem: an
 * incomplete or inconsistent graph would show false cycles.  It executes
 * every PE in order, the way an MPI rank runs: a PE runs its SEBs one after
 * the other until one waits for a message not sent yet, and resumes when
 * that message is sent.  A bit per message says whether it was sent.  A
 * PE needs the rest of its window again when it resumes, so a PE that
 * stops leaves it in a cache, reduced to its waits and destinations in a
 * few bytes each; the cache is bounded and forgets entries at random, so
 * when it cannot hold every waiting PE (a barrier on very many PEs), the
 * pass slows down by the windows decoded again, gradually.  If every PE
 * finishes, the graph has no cycle (in-order execution is a topological
 * order).  If execution stalls and every SEB follows its
 * predecessor (the default chain), in-order execution was the only
 * possible order, so there is a cycle; it is located by following from a
 * stalled PE the message it waits for, with Brent's algorithm (constant
 * memory).  A trace with explicit predecessor lists may stall in order and
 * still be acyclic (a SEB that starts a new chain may run before earlier
 * ones), so such a stall is settled by Kahn's algorithm over the full
 * graph, which needs 8 bytes per message and about 9 per SEB, but only
 * then.
 *
 * Damage found when the trace was opened, and windows that cannot be
 * read, are problems too.  Their PEs are marked incomplete: a message sent
 * to such a PE and awaited by none of its readable SEBs, or a wait for a
 * message beyond what survived of its source, is then not reported, since
 * the missing part may well hold the other end.
 *
 * When the check cannot be carried out (out of memory, a trace beyond the
 * limits of these tables) the last call of report() gives the reason and
 * the function returns a negative sibt_err.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void vreport(checker *c, const char *fmt, va_list ap)
{
	char small[512], *big = NULL;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= (int)sizeof(small)) {
		big = malloc((size_t)n + 1);
		if (big)
			vsnprintf(big, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	c->opts->report(c->opts->arg, big ? big : small);
	free(big);
}

/* Whether the next problem will be shown (worth the cost of details). */
static int shown(const checker *c)
{
	return c->opts->report &&
	       (unsigned long)c->nproblems < c->max_problems;
}

static void problem(checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void problem(checker *c, const char *fmt, ...)
{
	va_list ap;

	if (shown(c)) {
		va_start(ap, fmt);
		vreport(c, fmt, ap);
		va_end(ap);
	}
	c->nproblems++;
}

/* The check cannot go on: say why (regardless of max_problems). */
static int fatal(checker *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fatal(checker *c, int err, const char *fmt, ...)
{
	va_list ap;

	if (c->opts->report) {
		va_start(ap, fmt);
		vreport(c, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* An internal invariant broke: report rather than continue silently. */
#define INTERNAL(c, what) fatal(c, SIBT_EFORMAT, "internal error in the " \
	"checker (%s:%d): %s", __FILE__, __LINE__, what)

static void *check_alloc(checker *c, uint64_t n, size_t size, int zero,
			 const char *what)
{
	void *p = NULL;

	if (n < SIZE_MAX / size - 1) {
		if (zero)
			p = calloc(n ? (size_t)n : 1, size);
		else
			p = malloc(n ? (size_t)n * size : 1);
	}
	if (!p)
		fatal(c, SIBT_ENOMEM, "out of memory: cannot allocate %" PRIu64
		      " bytes for %s", n * size, what);
	return p;
}

static void *check_calloc(checker *c, uint64_t n, size_t size,
			  const char *what)
{
	return check_alloc(c, n, size, 1, what);
}

static uint8_t *check_bits(checker *c, uint64_t n, const char *what)
{
	return check_calloc(c, n / 8 + 1, 1, what);
}

static void progress(checker *c, const char *phase, uint64_t done,
		     uint64_t total)
{
	if (c->opts->progress)
		c->opts->progress(c->opts->arg, phase, done, total);
}

/* A data file as users know it: inside a bundle, by its base name. */
static const char *file_label(const checker *c, const char *path)
{
	const char *b;

	if (!path)
		return "?";
	if (sibt_trace_is_bundle(c->t) && (b = strrchr(path, '/')))
		return b + 1;
	return path;
}

/*
 * A bundle is read from a private temporary directory that the user never
 * saw: strip it from a reader's message, leaving the file's own name.
 */
static const char *bundle_relative(const checker *c, const char *msg,
				   char *buf, size_t len)
{
	const char *dir = sibt_trace_dir(c->t), *p;
	size_t dl;

	if (!msg || !dir || !sibt_trace_is_bundle(c->t) ||
	    !(dl = strlen(dir)) || !(p = strstr(msg, dir)) || p[dl] != '/')
		return msg;
	snprintf(buf, len, "%.*s%s", (int)(p - msg), msg, p + dl + 1);
	return buf;
}

static int setup(checker *c)
{
	uint32_t pe;

	c->npes = sibt_trace_npes(c->t);
	for (pe = 0; pe < c->npes; pe++) {
		uint64_t n = sibt_trace_nsebs(c->t, pe);

		/* Pass 2 and the reports keep SEB indices in 32 bits. */
		if (n > UINT32_MAX)
			return fatal(c, SIBT_EINVAL, "unsupported trace: PE %"
				     PRIu32 " has %" PRIu64 " SEBs; the checker"
				     " handles at most %" PRIu32 " per PE", pe,
				     n, UINT32_MAX);
		c->nsebs += n;
		c->nmsgs += sibt_trace_nsends(c->t, pe);
		c->nwindows += sibt_trace_nwindows(c->t, pe);
	}
	c->incomplete = check_bits(c, c->npes, "the PE table");
	c->pe_a = check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
			       "the PE table");
	c->pe_b = check_calloc(c, c->npes, sizeof(uint64_t), "the PE table");
	if (!c->incomplete || !c->pe_a || !c->pe_b)
		return SIBT_ENOMEM;
	c->acc = c->pe_a;
	c->cnt = c->pe_b;
	c->win = sibt_window_new();
	c->scratch = sibt_window_new();
	if (!c->win || !c->scratch)
		return fatal(c, SIBT_ENOMEM, "out of memory: cannot allocate "
			     "a window");
	return SIBT_OK;
}

static void mark_file_incomplete(checker *c, uint32_t proc)
{
	char key[32];
	const char *v;
	uint32_t first, count, pe;

	/* The manifest's "file.N = NAME FIRST_PE COUNT" is authoritative;
	 * fall back to the standard block distribution. */
	snprintf(key, sizeof(key), "file.%" PRIu32, proc);
	v = sibt_trace_manifest(c->t, key);
	if (!v || sscanf(v, "%*s %" SCNu32 " %" SCNu32, &first, &count) != 2)
		sibt_block_range(c->npes, sibt_trace_nprocs(c->t), proc,
				 &first, &count);
	for (pe = first; pe - first < count && pe < c->npes; pe++)
		bit_set(c->incomplete, pe);
}

static void check_damage(checker *c)
{
	size_t i, n = sibt_trace_damage_count(c->t);

	for (i = 0; i < n; i++) {
		const sibt_damage *d = sibt_trace_damage(c->t, i);
		const char *file, *detail;
		char buf[1024];

		if (!d)
			continue;
		file = file_label(c, d->file);
		detail = bundle_relative(c, d->detail, buf, sizeof(buf));
		/* The reader's detail usually names the file already. */
		if (detail && strstr(detail, file))
			problem(c, "damaged data file (%s): %s",
				sibt_strerror(d->reason), detail);
		else
			problem(c, "damaged data file %s (%s): %s", file,
				sibt_strerror(d->reason),
				detail ? detail : "no detail");
		mark_file_incomplete(c, d->proc);
	}
}

/* ------------------------------------------------------ reading windows */

static void unreadable(checker *c, uint32_t pe, uint64_t w, int err)
{
	sibt_window_info wi;
	char buf[1024];
	const char *msg = bundle_relative(c, sibt_trace_errmsg(c->t), buf,
					  sizeof(buf));

	if (!msg || !*msg)
		msg = sibt_strerror(err);
	bit_set(c->incomplete, pe);
	/* The reader's message names the file and byte offset already. */
	if (sibt_trace_window_info(c->t, pe, w, &wi) < 0 || wi.nsebs == 0)
		problem(c, "PE %" PRIu32 " window %" PRIu64 " cannot be read: "
			"%s", pe, w, msg);
	else
		problem(c, "PE %" PRIu32 " window %" PRIu64 " (SEBs %" PRIu64
			"-%" PRIu64 ") cannot be read: %s", pe, w,
			wi.first_seb, wi.first_seb + wi.nsebs - 1, msg);
}

/*
 * How much of the window just decoded into c->win agrees with the index.
 * The reader guarantees most of this; checking it here keeps the tables
 * safe to index whatever a reader returns.  Every pass trusts exactly the
 * same SEBs, so later passes see what pass 1 saw.
 */
static void window_usable(const checker *c, uint32_t pe, win_read *wr)
{
	uint32_t i, n = sibt_window_nsebs(c->win);
	uint64_t seq = wr->wi.first_seq;
	uint64_t nsebs = pe_nsebs(c, pe), nmsgs = pe_nmsgs(c, pe);

	wr->usable = 0;
	wr->defect = 0;
	if (n != wr->wi.nsebs) {
		wr->defect = 1;
		wr->decoded = n;
		return;
	}
	for (i = 0; i < n; i++) {
		const sibt_seb *s = sibt_window_seb(c->win, i);
		uint64_t idx = wr->wi.first_seb + i;

		if (!s || s->pe != pe || s->index != idx || idx >= nsebs ||
		    s->first_seq != seq || seq > nmsgs ||
		    s->nsends > nmsgs - seq ||
		    seq - wr->wi.first_seq + s->nsends > wr->wi.nsends) {
			wr->defect = 2;
			wr->at = idx;
			wr->seq = seq;
			return;
		}
		seq += s->nsends;
		wr->usable++;
	}
}

/*
 * Read window w of pe into c->win.  Returns 1 when it was read (wr tells
 * how much is usable), 0 when it cannot be read (reported and its PE
 * marked incomplete if `report'), or a negative error.
 */
static int read_window(checker *c, uint32_t pe, uint64_t w, win_read *wr,
		       int report)
{
	int rc = sibt_trace_window_info(c->t, pe, w, &wr->wi);

	if (rc >= 0)
		rc = sibt_trace_read_window(c->t, pe, w, c->win);
	if (rc == SIBT_ENOMEM)
		return fatal(c, rc, "out of memory decoding PE %" PRIu32
			     " window %" PRIu64, pe, w);
	if (rc < 0) {
		if (report)
			unreadable(c, pe, w, rc);
		return 0;
	}
	window_usable(c, pe, wr);
	return 1;
}

static void report_defect(checker *c, uint32_t pe, uint64_t w,
			  const win_read *wr)
{
	if (wr->defect == 1)
		problem(c, "PE %" PRIu32 " window %" PRIu64 " decodes to %"
			PRIu32 " SEBs but the index announces %" PRIu32, pe, w,
			wr->decoded, wr->wi.nsebs);
	else
		problem(c, "PE %" PRIu32 " window %" PRIu64 " is "
			"inconsistent with the index at SEB %" PRIu64
			" (first send %" PRIu64 ")", pe, w, wr->at, wr->seq);
	bit_set(c->incomplete, pe);
}

/*
 * Every window of the trace, PE by PE: fn sees each usable SEB.  With
 * `report' (pass 1), windows that cannot be read or disagree with the
 * index are problems; later passes skip them silently, having been told.
 * Progress runs from done0 towards total.
 */
static int stream(checker *c, int report, const char *phase, uint64_t done0,
		  uint64_t total, seb_fn fn)
{
	uint64_t done = done0, w, nw;
	uint32_t pe, i;
	win_read wr;
	int rc;

	progress(c, phase, done, total);
	for (pe = 0; pe < c->npes; pe++) {
		nw = sibt_trace_nwindows(c->t, pe);
		for (w = 0; w < nw; w++) {
			if ((rc = read_window(c, pe, w, &wr, report)) < 0)
				return rc;
			for (i = 0; rc && i < wr.usable; i++) {
				int r = fn(c, pe, &wr,
					   sibt_window_seb(c->win, i));
				if (r < 0)
					return r;
			}
			if (rc && wr.defect && report)
				report_defect(c, pe, w, &wr);
			if (++done % PROGRESS_WINDOWS == 0)
				progress(c, phase, done, total);
		}
	}
	progress(c, phase, done, total);
	return SIBT_OK;
}

/* SEB idx of pe, decoded into the scratch window (NULL if unreadable). */
static const sibt_seb *lookup_seb(checker *c, uint32_t pe, uint64_t idx)
{
	const sibt_seb *s;
	uint64_t w;

	if (sibt_trace_find_window(c->t, pe, idx, &w) < 0)
		return NULL;
	if (!c->scratch_ok || c->spe != pe || c->sw != w) {
		c->scratch_ok = 0;
		if (sibt_trace_read_window(c->t, pe, w, c->scratch) < 0)
			return NULL;
		c->scratch_ok = 1;
		c->spe = pe;
		c->sw = w;
	}
	s = sibt_window_seb(c->scratch, 0);
	if (!s || idx < s->index ||
	    idx - s->index >= sibt_window_nsebs(c->scratch))
		return NULL;
	return sibt_window_seb(c->scratch, (uint32_t)(idx - s->index));
}

/* ------------------------------------------------------------- pass 1 */

static void check_wait(checker *c, uint32_t pe, uint32_t idx,
		       const sibt_msgid *m)
{
	uint64_t n;

	if (m->src >= c->npes) {
		problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for message %"
			PRIu32 ":%" PRIu64 ", but PE %" PRIu32 " does not "
			"exist (the trace has %" PRIu32 " PEs)", pe, idx,
			m->src, m->seq, m->src, c->npes);
		return;
	}
	n = pe_nmsgs(c, m->src);
	if (m->seq >= n) {
		/* The send may be in the lost part of a damaged PE. */
		if (!bit_get(c->incomplete, m->src))
			problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for "
				"message %" PRIu32 ":%" PRIu64 ", which is "
				"never sent (PE %" PRIu32 " sends %" PRIu64
				" message%s)", pe, idx, m->src, m->seq, m->src,
				n, n == 1 ? "" : "s");
		return;
	}
	c->acc[m->src] -= end_hash(m->src, m->seq, pe);
	c->cnt[m->src]--;
}

static void check_send(checker *c, uint32_t pe, uint32_t idx, uint64_t seq,
		       const sibt_send *s)
{
	if (s->dst >= c->npes) {
		problem(c, "PE %" PRIu32 " SEB %" PRIu32 " sends message %"
			PRIu32 ":%" PRIu64 " to PE %" PRIu32 ", which does "
			"not exist (the trace has %" PRIu32 " PEs)", pe, idx,
			pe, seq, s->dst, c->npes);
		return;
	}
	c->acc[pe] += end_hash(pe, seq, s->dst);
	c->cnt[pe]++;
}

static int check_seb(checker *c, uint32_t pe, const win_read *wr,
		     const sibt_seb *s)
{
	uint32_t idx = (uint32_t)s->index;
	uint32_t k;

	(void)wr;
	if (!s->preds_default) {
		c->nonchain = 1;
		for (k = 0; k < s->npreds; k++)
			if (s->preds[k] >= idx)
				problem(c, "PE %" PRIu32 " SEB %" PRIu32
					" names SEB %" PRIu64 " as a "
					"predecessor, but predecessors must be"
					" earlier SEBs of the same PE", pe, idx,
					s->preds[k]);
	}
	for (k = 0; k < s->nwaits; k++)
		check_wait(c, pe, idx, &s->waits[k]);
	for (k = 0; k < s->nsends; k++)
		check_send(c, pe, idx, s->first_seq + k, &s->sends[k]);
	return SIBT_OK;
}

/* ------------------------------------------------------------ pass 1b */

/* Whether message src:seq (an existing one) belongs to the batch. */
static inline int in_batch(const checker *c, uint32_t src, uint64_t seq)
{
	return src >= c->b_first && src <= c->b_last &&
	       bit_get(c->bad, src) &&
	       (src != c->b_first || seq >= c->b_lo) &&
	       (src != c->b_last || seq < c->b_hi);
}

/* The sends of the batch, from their sources' windows. */
static int batch_sends(checker *c, uint32_t pe, uint64_t lo, uint64_t hi)
{
	uint64_t w, nw = sibt_trace_nwindows(c->t, pe);
	win_read wr;
	uint32_t i, k;
	int rc;

	if (lo >= hi || sibt_trace_find_send_window(c->t, pe, lo, &w) < 0)
		return SIBT_OK;
	for (; w < nw; w++) {
		if ((rc = sibt_trace_window_info(c->t, pe, w, &wr.wi)) < 0)
			return INTERNAL(c, "a window vanished from the index");
		if (wr.wi.first_seq >= hi)
			break;
		if (wr.wi.nsends == 0)
			continue;
		if ((rc = read_window(c, pe, w, &wr, 0)) < 0)
			return rc;
		for (i = 0; rc && i < wr.usable; i++) {
			const sibt_seb *s = sibt_window_seb(c->win, i);

			for (k = 0; k < s->nsends; k++) {
				uint64_t seq = s->first_seq + k;
				msg_ends *e;

				if (seq < lo || seq >= hi ||
				    s->sends[k].dst >= c->npes)
					continue;
				e = &c->ends[c->ends_base[pe] + seq];
				e->dst = s->sends[k].dst;
				e->seb = (uint32_t)s->index;
			}
		}
	}
	return SIBT_OK;
}

/*
 * A wait for a message of the batch.  The first wait seen (in PE order,
 * as pass 1 reads) is the message's waiter; it must be on the message's
 * destination, and any other wait is one too many.
 */
static int batch_waits(checker *c, uint32_t pe, const win_read *wr,
		       const sibt_seb *s)
{
	uint32_t idx = (uint32_t)s->index, k;

	(void)wr;
	for (k = 0; k < s->nwaits; k++) {
		const sibt_msgid *m = &s->waits[k];
		msg_ends *e;

		/* Waits for messages never sent were pass 1's. */
		if (m->src >= c->npes || m->seq >= pe_nmsgs(c, m->src) ||
		    !in_batch(c, m->src, m->seq))
			continue;
		e = &c->ends[c->ends_base[m->src] + m->seq];
		if (e->waiter1 == 0) {
			e->waiter1 = pe + 1;
			e->wseb = idx;
			if (e->dst != DST_UNSEEN && e->dst != pe)
				problem(c, "message %" PRIu32 ":%" PRIu64 " is "
					"sent by PE %" PRIu32 " SEB %" PRIu32
					" to PE %" PRIu32 " but awaited on PE %"
					PRIu32 " SEB %" PRIu32, m->src, m->seq,
					m->src, e->seb, e->dst, pe, idx);
		} else {
			problem(c, "message %" PRIu32 ":%" PRIu64 " is awaited "
				"twice: by PE %" PRIu32 " SEB %" PRIu32 " and "
				"PE %" PRIu32 " SEB %" PRIu32, m->src, m->seq,
				e->waiter1 - 1, e->wseb, pe, idx);
		}
	}
	return SIBT_OK;
}

static void report_unawaited(checker *c, uint32_t src, uint64_t seq,
			     const msg_ends *e)
{
	const sibt_seb *s;
	const sibt_send *snd = NULL;

	/* Size and tag cost a decode: only for problems shown. */
	if (shown(c) && (s = lookup_seb(c, src, e->seb)) &&
	    seq >= s->first_seq && seq - s->first_seq < s->nsends)
		snd = &s->sends[seq - s->first_seq];
	if (snd)
		problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
			PRIu32 " SEB %" PRIu32 " (to PE %" PRIu32 ", %"
			PRIu64 " bytes, tag %" PRId32 ") is awaited by no SEB",
			src, seq, src, e->seb, snd->dst, snd->size, snd->tag);
	else
		problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
			PRIu32 " SEB %" PRIu32 " (to PE %" PRIu32 ") is "
			"awaited by no SEB", src, seq, src, e->seb, e->dst);
}

/* Bounds of the batch's messages on PE pe (a bad PE in the batch). */
static void batch_range(const checker *c, uint32_t pe, uint64_t *lo,
			uint64_t *hi)
{
	*lo = pe == c->b_first ? c->b_lo : 0;
	*hi = pe == c->b_last ? c->b_hi : pe_nmsgs(c, pe);
}

/*
 * Pass 1b: the messages of the PEs that do not balance, in batches of at
 * most LOCATE_BATCH messages (a PE may be split between batches).  Each
 * batch costs one more stream of the trace; a trace with a few defects
 * needs one.
 */
static int locate_message_problems(checker *c)
{
	static const char phase[] = "locating message problems";
	uint64_t total = 0, cap, nbatches, batch = 0, lo = 0, hi, n, seq;
	uint32_t pe, p;
	int rc;

	c->bad = check_bits(c, c->npes, "the PE table");
	if (!c->bad)
		return SIBT_ENOMEM;
	for (pe = 0; pe < c->npes; pe++) {
		if (c->acc[pe] == 0 && c->cnt[pe] == 0)
			continue;
		bit_set(c->bad, pe);
		total += pe_nmsgs(c, pe);
	}
	/* The sums are spent; the block now locates a PE's messages. */
	c->acc = c->cnt = NULL;
	c->ends_base = c->pe_a;
	if (total == 0)
		return SIBT_OK;
	cap = total < LOCATE_BATCH ? total : LOCATE_BATCH;
	nbatches = (total + cap - 1) / cap;
	c->ends = check_alloc(c, cap, sizeof(msg_ends), 0,
			      "locating message problems");
	if (!c->ends)
		return SIBT_ENOMEM;

	pe = 0;
	while (pe < c->npes) {
		/* The next batch: bad PEs from pe:lo on. */
		for (; pe < c->npes && !bit_get(c->bad, pe); pe++)
			lo = 0;
		if (pe == c->npes)
			break;
		c->b_first = c->b_last = pe;
		c->b_lo = lo;
		c->b_hi = lo;
		n = 0;
		for (p = pe; p < c->npes && n < cap; p++) {
			uint64_t from = p == pe ? lo : 0, m = pe_nmsgs(c, p);
			uint64_t take;

			if (!bit_get(c->bad, p) || from >= m)
				continue;
			take = m - from < cap - n ? m - from : cap - n;
			c->ends_base[p] = n - from;
			n += take;
			c->b_last = p;
			c->b_hi = from + take;
		}
		for (seq = 0; seq < n; seq++) {
			c->ends[seq].dst = DST_UNSEEN;
			c->ends[seq].waiter1 = 0;
			c->ends[seq].seb = c->ends[seq].wseb = 0;
		}

		for (p = c->b_first; p <= c->b_last; p++) {
			if (!bit_get(c->bad, p))
				continue;
			batch_range(c, p, &lo, &hi);
			if ((rc = batch_sends(c, p, lo, hi)) < 0)
				return rc;
		}
		rc = stream(c, 0, phase, batch * c->nwindows,
			    nbatches * c->nwindows, batch_waits);
		if (rc < 0)
			return rc;
		for (p = c->b_first; p <= c->b_last; p++) {
			if (!bit_get(c->bad, p))
				continue;
			batch_range(c, p, &lo, &hi);
			for (seq = lo; seq < hi; seq++) {
				const msg_ends *e =
					&c->ends[c->ends_base[p] + seq];

				if (e->dst != DST_UNSEEN && e->waiter1 == 0 &&
				    !bit_get(c->incomplete, e->dst))
					report_unawaited(c, p, seq, e);
			}
		}

		batch++;
		pe = c->b_last;
		lo = c->b_hi;
		if (lo >= pe_nmsgs(c, pe)) {
			pe++;
			lo = 0;
		}
	}
	free(c->ends);
	c->ends = NULL;
	return SIBT_OK;
}

/* ------------------------------------------------- pass 2: in order */

/* state[] of a PE that has a cache entry: the entry's number. */
#define RUN_ENTRY 0x80000000u
#define NO_MSG UINT64_MAX

/*
 * What a PE waits for, when it has no cache entry, in 30 bits: a message
 * sent to a waiting PE wakes it when the tags agree.  Messages to one PE
 * whose numbers agree in their low 30 bits share a tag; the PE then merely
 * wakes, finds its message still missing and waits again.
 */
static inline uint32_t wait_tag(uint64_t g)
{
	return ((uint32_t)g & 0x3fffffffu) + 1;
}

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint64_t get_varint(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	while (*p & 0x80) {
		v |= (uint64_t)(*p++ & 0x7f) << shift;
		shift += 7;
	}
	v |= (uint64_t)*p++ << shift;
	*pp = p;
	return v;
}

/*
 * Waits and destinations are stored relative to the PE and its own send
 * count, which keeps them to a byte or two in the usual patterns
 * (neighbours, partners at a distance, the same step of a collective).
 */
static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* A SEB's wait and send counts, in one byte when both are small. */
static inline uint8_t *put_counts(uint8_t *p, uint32_t nwaits,
				  uint32_t nsends)
{
	p = put_varint(p, (uint64_t)nwaits << 4 | (nsends < 15 ? nsends : 15));
	if (nsends >= 15)
		p = put_varint(p, nsends - 15);
	return p;
}

static inline void get_counts(const uint8_t **pp, uint64_t *nwaits,
			      uint64_t *nsends)
{
	uint64_t v = get_varint(pp);

	*nwaits = v >> 4;
	*nsends = v & 15;
	if (*nsends == 15)
		*nsends += get_varint(pp);
}

static void drop_entry(checker *c, uint32_t i)
{
	run_entry *e = &c->ents[i];

	c->cache_bytes -= e->len + sizeof(*e) + 16;
	free(e->data);
	e->data = NULL;
	c->free_ents[c->nfree++] = i;
}

static void free_run_cache(checker *c)
{
	uint32_t i;

	for (i = 0; i < c->nents; i++)
		free(c->ents[i].data);
	free(c->ents);
	free(c->free_ents);
	free(c->enc);
	free(c->stack);
	c->ents = NULL;
	c->free_ents = NULL;
	c->enc = NULL;
	c->stack = NULL;
	c->nents = c->nfree = 0;
	c->ents_cap = c->sp = c->stack_cap = 0;
	c->cache_bytes = 0;
}

/* Give back the part of an entry its PE ran through, once it is most. */
static void shrink_entry(checker *c, run_entry *e)
{
	uint32_t left = e->len - e->off;
	uint8_t *q;

	if (e->off < 64 || e->off < left)
		return;
	memmove(e->data, e->data + e->off, left);
	if ((q = realloc(e->data, left ? left : 1)))
		e->data = q;
	c->cache_bytes -= e->off;
	e->len = left;
	e->off = 0;
}

/* Forget a random entry; its PE, if waiting, keeps the tag of its wait. */
static void evict_one(checker *c)
{
	uint64_t r;
	uint32_t i, k;

	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	r = c->rng;
	for (k = 0; k < c->nents; k++) {
		i = (uint32_t)((r + k) % c->nents);
		if (c->ents[i].data) {
			run_entry *e = &c->ents[i];

			c->state[e->pe] = e->await == NO_MSG ? 0
				: wait_tag(e->await);
			drop_entry(c, i);
			return;
		}
	}
}

/*
 * pe stopped at SEB i of the window in c->win, waiting for message g:
 * keep what running on needs of the rest of the window (waits and
 * destinations) in a cache entry.  A few bytes per message, so the cache
 * holds the waiting PEs of even a large barrier.  Whatever goes wrong
 * here only costs decoding the window again when pe resumes.
 */
static int stash(checker *c, uint32_t pe, uint32_t i, uint64_t g)
{
	uint32_t n = sibt_window_nsebs(c->win), k, nsebs = 0;
	const sibt_seb *s0 = sibt_window_seb(c->win, i);
	uint8_t *p = c->enc, *q;
	run_entry *e;
	uint32_t idx;

	c->state[pe] = wait_tag(g);
	for (; i < n; i++) {
		const sibt_seb *s = sibt_window_seb(c->win, i);

		/* At most 10 bytes per number. */
		if ((size_t)(p - c->enc) + 20 + 20 * (size_t)s->nwaits +
		    10 * (size_t)s->nsends > c->cache_budget / 16)
			break;
		p = put_counts(p, s->nwaits, s->nsends);
		for (k = 0; k < s->nwaits; k++) {
			const sibt_msgid *m = &s->waits[k];

			p = put_varint(p, zigzag((int64_t)m->src - pe));
			p = put_varint(p, zigzag((int64_t)(m->seq -
							   s->first_seq)));
		}
		for (k = 0; k < s->nsends; k++)
			p = put_varint(p, zigzag((int64_t)s->sends[k].dst -
						 pe));
		nsebs++;
	}
	if (nsebs == 0)
		return SIBT_OK;
	while (c->cache_bytes + (size_t)(p - c->enc) + sizeof(*e) + 16 >
	       c->cache_budget && c->nfree < c->nents)
		evict_one(c);
	if (!(q = malloc((size_t)(p - c->enc))))
		return SIBT_OK;
	if (c->nfree == 0) {
		if (c->nents == c->ents_cap) {
			size_t cap = c->ents_cap ? 2 * c->ents_cap : 1024;
			run_entry *ne = NULL;
			uint32_t *nf;

			/* Entry numbers must leave the RUN_ENTRY bit free. */
			if (cap <= RUN_ENTRY)
				ne = realloc(c->ents, cap * sizeof(*ne));
			if (!ne) {
				free(q);
				return SIBT_OK;
			}
			c->ents = ne;
			nf = realloc(c->free_ents, cap * sizeof(*nf));
			if (!nf) {
				free(q);
				return SIBT_OK;
			}
			c->free_ents = nf;
			c->ents_cap = cap;
		}
		c->free_ents[c->nfree++] = c->nents++;
	}
	idx = c->free_ents[--c->nfree];
	e = &c->ents[idx];
	memcpy(q, c->enc, (size_t)(p - c->enc));
	e->data = q;
	e->len = (uint32_t)(p - c->enc);
	e->off = 0;
	e->pe = pe;
	e->first = (uint32_t)s0->index;
	e->nsebs = nsebs;
	e->seq = s0->first_seq;
	e->await = g;
	c->cache_bytes += e->len + sizeof(*e) + 16;
	c->state[pe] = RUN_ENTRY | idx;
	return SIBT_OK;
}

static int push_pe(checker *c, uint32_t pe)
{
	if (c->sp == c->stack_cap) {
		size_t cap = c->stack_cap ? 2 * c->stack_cap : 4096;
		uint32_t *s = NULL;

		if (cap < SIZE_MAX / sizeof(*s))
			s = realloc(c->stack, cap * sizeof(*s));
		if (!s)
			return fatal(c, SIBT_ENOMEM, "out of memory: cannot "
				     "grow the ready stack to %zu PEs", cap);
		c->stack = s;
		c->stack_cap = cap;
	}
	c->stack[c->sp++] = pe;
	return SIBT_OK;
}

/* Message g (sent by a SEB that runs) reaches dst: wake dst if waiting. */
static inline int deliver(checker *c, uint64_t g, uint32_t dst)
{
	uint32_t u = c->state[dst];

	bit_set(c->sent, g);
	if (u & RUN_ENTRY) {
		run_entry *e = &c->ents[u & ~RUN_ENTRY];

		if (e->await != g)
			return SIBT_OK;
		e->await = NO_MSG;
	} else if (u == wait_tag(g)) {
		c->state[dst] = 0;
	} else {
		return SIBT_OK;
	}
	return push_pe(c, dst);
}

static inline int waiting(const checker *c, uint32_t pe)
{
	uint32_t u = c->state[pe];

	return u & RUN_ENTRY ? c->ents[u & ~RUN_ENTRY].await != NO_MSG : u != 0;
}

static inline void ran_one(checker *c, uint32_t pe)
{
	static const char phase[] = "searching for cycles";

	c->cursor[pe]++;
	if (++c->ran % PROGRESS_SEBS == 0)
		progress(c, phase, c->ran, c->nsebs);
}

/* Run pe from its cache entry; 1 if it stopped waiting, 0 at the end of
 * the entry (which is then dropped). */
static int run_entry_of(checker *c, uint32_t pe, uint32_t idx)
{
	run_entry *e = &c->ents[idx];
	uint64_t base = c->msg_base[pe];
	const uint8_t *p, *start;
	uint64_t nw, ns, k, g;
	int rc;

	e->await = NO_MSG;
	while (e->nsebs > 0) {
		start = p = e->data + e->off;
		get_counts(&p, &nw, &ns);
		for (k = 0; k < nw; k++) {
			int64_t d = unzigzag(get_varint(&p));
			uint32_t src = (uint32_t)(pe + d);

			d = unzigzag(get_varint(&p));
			g = c->msg_base[src] + e->seq + (uint64_t)d;
			if (!bit_get(c->sent, g)) {
				e->await = g;
				shrink_entry(c, e);
				return 1;
			}
		}
		for (k = 0; k < ns; k++) {
			int64_t d = unzigzag(get_varint(&p));
			uint32_t dst = (uint32_t)(pe + d);

			if ((rc = deliver(c, base + e->seq + k, dst)) < 0)
				return rc;
			/* push_pe() leaves the entries alone. */
		}
		e->seq += ns;
		e->off += (uint32_t)(p - start);
		e->first++;
		e->nsebs--;
		ran_one(c, pe);
	}
	c->state[pe] = 0;
	drop_entry(c, idx);
	return 0;
}

/* Run pe in order until it waits for a message not sent yet, or ends. */
static int run_pe(checker *c, uint32_t pe)
{
	uint64_t n = pe_nsebs(c, pe), base = c->msg_base[pe], w;
	uint32_t i, k, nsebs;
	int rc;

	while (c->cursor[pe] < n) {
		uint32_t u = c->state[pe];
		const sibt_seb *s;

		if (u & RUN_ENTRY) {
			if (c->ents[u & ~RUN_ENTRY].first != c->cursor[pe])
				return INTERNAL(c, "a cache entry lost its "
						"place");
			if ((rc = run_entry_of(c, pe, u & ~RUN_ENTRY)) != 0)
				return rc < 0 ? rc : SIBT_OK;
			continue;
		}
		c->state[pe] = 0;
		if (sibt_trace_find_window(c->t, pe, c->cursor[pe], &w) < 0)
			return INTERNAL(c, "a SEB's window vanished from the "
					"index");
		if ((rc = sibt_trace_read_window(c->t, pe, w, c->win)) < 0)
			return fatal(c, rc, "PE %" PRIu32 " window %" PRIu64
				     " could no longer be read: %s", pe, w,
				     sibt_trace_errmsg(c->t));
		nsebs = sibt_window_nsebs(c->win);
		s = sibt_window_seb(c->win, 0);
		if (!s || c->cursor[pe] < s->index ||
		    c->cursor[pe] - s->index >= nsebs)
			return INTERNAL(c, "a window does not hold its SEBs");
		for (i = (uint32_t)(c->cursor[pe] - s->index); i < nsebs; i++) {
			s = sibt_window_seb(c->win, i);
			for (k = 0; k < s->nwaits; k++) {
				uint64_t g = c->msg_base[s->waits[k].src] +
					     s->waits[k].seq;

				if (!bit_get(c->sent, g))
					return stash(c, pe, i, g);
			}
			for (k = 0; k < s->nsends; k++) {
				rc = deliver(c, base + s->first_seq + k,
					     s->sends[k].dst);
				if (rc < 0)
					return rc;
			}
			ran_one(c, pe);
		}
	}
	return SIBT_OK;
}

static int run_in_order(checker *c)
{
	static const char phase[] = "searching for cycles";
	sibt_totals tot;
	uint32_t pe;
	uint64_t g = 0;
	int rc;

	/* The sums of pass 1 are spent: the blocks take the new roles. */
	c->acc = c->cnt = NULL;
	c->msg_base = c->pe_a;
	c->cursor = (uint32_t *)c->pe_b;
	c->state = c->cursor + c->npes;
	for (pe = 0; pe < c->npes; pe++) {
		c->msg_base[pe] = g;
		g += pe_nmsgs(c, pe);
		c->cursor[pe] = 0;
		c->state[pe] = 0;
	}
	c->msg_base[c->npes] = g;
	c->rng = 0x9E3779B97F4A7C15ull;
	sibt_trace_totals(c->t, &tot);
	c->cache_budget = RUN_CACHE_MIN;
	if (tot.raw_bytes / 8 > c->cache_budget)
		c->cache_budget = (size_t)(tot.raw_bytes / 8);
	c->sent = check_bits(c, c->nmsgs, "the message bits");
	c->enc = check_alloc(c, c->cache_budget / 16, 1, 0,
			     "the window cache");
	if (!c->sent || !c->enc)
		return SIBT_ENOMEM;

	progress(c, phase, 0, c->nsebs);
	/*
	 * Start the PEs one by one rather than all at once, so the stack
	 * holds only what one start releases; the LIFO order then runs a PE
	 * woken by a message at once.
	 */
	for (pe = 0; pe < c->npes; pe++) {
		if (waiting(c, pe) || c->cursor[pe] >= pe_nsebs(c, pe))
			continue;
		if ((rc = push_pe(c, pe)) < 0)
			return rc;
		while (c->sp > 0)
			if ((rc = run_pe(c, c->stack[--c->sp])) < 0)
				return rc;
	}
	progress(c, phase, c->ran, c->nsebs);
	free_run_cache(c);
	return SIBT_OK;
}

/* ------------------------------------------- pass 2: Kahn's algorithm */

static int add_edge(checker *c, uint64_t from, uint64_t to)
{
	if (c->nedges == c->edges_cap) {
		size_t cap = c->edges_cap ? 2 * c->edges_cap : 256;
		pred_edge *e = NULL;

		if (cap < SIZE_MAX / sizeof(*e))
			e = realloc(c->edges, cap * sizeof(*e));
		if (!e)
			return fatal(c, SIBT_ENOMEM, "out of memory: cannot "
				     "store %zu predecessor edges", cap);
		c->edges = e;
		c->edges_cap = cap;
	}
	c->edges[c->nedges].from = from;
	c->edges[c->nedges].to = to;
	c->nedges++;
	return SIBT_OK;
}

/* One SEB into the full graph (the trace passed every other check). */
static int graph_seb(checker *c, uint32_t pe, const win_read *wr,
		     const sibt_seb *s)
{
	uint32_t idx = (uint32_t)s->index;
	uint64_t g = c->seb_base[pe] + idx;
	uint64_t ndeps = s->nwaits;
	uint32_t k;
	int rc;

	if (s->preds_default) {
		ndeps += idx > 0;
		bit_set(c->dflt, g);
	} else {
		for (k = 0; k < s->npreds; k++) {
			ndeps++;
			rc = add_edge(c, c->seb_base[pe] + s->preds[k], g);
			if (rc < 0)
				return rc;
		}
	}
	for (k = 0; k < s->nwaits; k++) {
		msg_slot *sl = &c->slot[c->msg_base[s->waits[k].src] +
					s->waits[k].seq];

		sl->pe1 = pe + 1;
		sl->seb = idx;
	}
	if (ndeps >= DEPS_DONE)
		return fatal(c, SIBT_EINVAL, "unsupported trace: PE %" PRIu32
			     " SEB %" PRIu32 " has %" PRIu64 " dependencies",
			     pe, idx, ndeps);
	c->deps[g] = (uint32_t)ndeps;
	c->send_off[g] = (uint32_t)(s->first_seq - wr->wi.first_seq);
	return SIBT_OK;
}

static int cmp_edge(const void *a, const void *b)
{
	const pred_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

static int push_ready(checker *c, uint32_t pe, uint32_t idx)
{
	if (c->ksp == c->kstack_cap) {
		size_t cap = c->kstack_cap ? 2 * c->kstack_cap : 4096;
		seb_ref *s = NULL;

		if (cap < SIZE_MAX / sizeof(*s))
			s = realloc(c->kstack, cap * sizeof(*s));
		if (!s)
			return fatal(c, SIBT_ENOMEM, "out of memory: cannot "
				     "grow the ready stack to %zu SEBs", cap);
		c->kstack = s;
		c->kstack_cap = cap;
	}
	c->kstack[c->ksp].pe = pe;
	c->kstack[c->ksp].seb = idx;
	c->ksp++;
	return SIBT_OK;
}

static int release(checker *c, uint32_t pe, uint64_t idx)
{
	uint64_t g = c->seb_base[pe] + idx;

	if (c->deps[g] == 0 || c->deps[g] == DEPS_DONE)
		return INTERNAL(c, "a dependency was satisfied twice");
	if (--c->deps[g] == 0)
		return push_ready(c, pe, (uint32_t)idx);
	return SIBT_OK;
}

/* The window holding SEB idx of pe, from the index. */
static int seb_window(checker *c, uint32_t pe, uint64_t idx,
		      sibt_window_info *wi)
{
	uint64_t w;

	if (sibt_trace_find_window(c->t, pe, idx, &w) < 0 ||
	    sibt_trace_window_info(c->t, pe, w, wi) < 0)
		return INTERNAL(c, "a SEB's window vanished from the index");
	return SIBT_OK;
}

/* SEB idx of pe runs: satisfy what depends on it. */
static int run_seb(checker *c, uint32_t pe, uint32_t idx)
{
	uint64_t g = c->seb_base[pe] + idx;
	uint64_t seq, lo, hi;
	sibt_window_info wi;
	size_t a, b;
	int rc;

	c->deps[g] = DEPS_DONE;
	c->ran++;

	/* Its sends run from its own offset to the next SEB's, or to the
	 * end of the window for the last one. */
	if ((rc = seb_window(c, pe, idx, &wi)) < 0)
		return rc;
	lo = wi.first_seq + c->send_off[g];
	if ((uint64_t)idx + 1 < wi.first_seb + wi.nsebs)
		hi = wi.first_seq + c->send_off[g + 1];
	else
		hi = wi.first_seq + wi.nsends;
	for (seq = lo; seq < hi; seq++) {
		const msg_slot *sl = &c->slot[c->msg_base[pe] + seq];

		if (sl->pe1 == 0)
			return INTERNAL(c, "a message has no waiter");
		if ((rc = release(c, sl->pe1 - 1, sl->seb)) < 0)
			return rc;
	}

	if ((uint64_t)idx + 1 < pe_nsebs(c, pe) && bit_get(c->dflt, g + 1) &&
	    (rc = release(c, pe, (uint64_t)idx + 1)) < 0)
		return rc;

	/* Explicit successors: edges sorted by source. */
	a = 0;
	b = c->nedges;
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (c->edges[m].from < g)
			a = m + 1;
		else
			b = m;
	}
	for (; a < c->nedges && c->edges[a].from == g; a++) {
		rc = release(c, pe, c->edges[a].to - c->seb_base[pe]);
		if (rc < 0)
			return rc;
	}
	return SIBT_OK;
}

/*
 * In-order execution stalled on a trace with explicit predecessors: settle
 * it on the full graph.  This needs the memory the in-order run avoids,
 * but only for such a trace with (probably) a cycle.
 */
static int run_kahn(checker *c)
{
	static const char phase[] = "searching for cycles";
	uint64_t n;
	uint32_t pe, i;
	int rc;

	free(c->sent);
	c->sent = NULL;
	c->kahn = 1;
	c->ran = 0;
	c->seb_base = check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
				   "the dependency graph");
	if (!c->seb_base)
		return SIBT_ENOMEM;
	for (pe = 0; pe < c->npes; pe++)
		c->seb_base[pe + 1] = c->seb_base[pe] + pe_nsebs(c, pe);
	c->slot = check_calloc(c, c->nmsgs, sizeof(msg_slot),
			       "the dependency graph");
	c->deps = check_calloc(c, c->nsebs, sizeof(uint32_t),
			       "the dependency graph");
	c->send_off = check_calloc(c, c->nsebs, sizeof(uint32_t),
				   "the dependency graph");
	c->dflt = check_bits(c, c->nsebs, "the dependency graph");
	if (!c->slot || !c->deps || !c->send_off || !c->dflt)
		return SIBT_ENOMEM;
	rc = stream(c, 0, "building the dependency graph", 0, c->nwindows,
		    graph_seb);
	if (rc < 0)
		return rc;
	if (c->nedges)
		qsort(c->edges, c->nedges, sizeof(*c->edges), cmp_edge);

	progress(c, phase, 0, c->nsebs);
	/*
	 * Seed the stack lazily, PE by PE, instead of pushing every SEB
	 * without dependencies at once (a million SEB 0s): the stack then
	 * holds only what one seed releases.
	 */
	for (pe = 0; pe < c->npes; pe++) {
		n = pe_nsebs(c, pe);
		for (i = 0; i < n; i++) {
			if (c->deps[c->seb_base[pe] + i] != 0)
				continue;
			if ((rc = push_ready(c, pe, i)) < 0)
				return rc;
			while (c->ksp > 0) {
				seb_ref r = c->kstack[--c->ksp];

				if ((rc = run_seb(c, r.pe, r.seb)) < 0)
					return rc;
				if (c->ran % PROGRESS_SEBS == 0)
					progress(c, phase, c->ran, c->nsebs);
			}
		}
	}
	progress(c, phase, c->ran, c->nsebs);
	free(c->kstack);
	c->kstack = NULL;
	c->ksp = c->kstack_cap = 0;
	return SIBT_OK;
}

/* --------------------------------------------------- reporting a cycle */

/* The SEB of src that sends message src:seq. */
static int sender_of(checker *c, uint32_t src, uint64_t seq, uint64_t *idx)
{
	sibt_window_info wi;
	uint64_t w, base, rel;
	uint32_t lo, hi;

	if (sibt_trace_find_send_window(c->t, src, seq, &w) < 0 ||
	    sibt_trace_window_info(c->t, src, w, &wi) < 0 || wi.nsebs == 0)
		return INTERNAL(c, "a message's window vanished from the "
				"index");
	rel = seq - wi.first_seq;
	lo = 0;
	hi = wi.nsebs;
	if (c->kahn) {
		/* From the stored send offsets: the last SEB of the window
		 * whose sends start at or before rel. */
		base = c->seb_base[src] + wi.first_seb;
		while (hi - lo > 1) {
			uint32_t m = lo + (hi - lo) / 2;

			if (c->send_off[base + m] <= rel)
				lo = m;
			else
				hi = m;
		}
		*idx = wi.first_seb + lo;
		return SIBT_OK;
	}
	if (!lookup_seb(c, src, wi.first_seb))
		return fatal(c, SIBT_EIO, "PE %" PRIu32 " window %" PRIu64
			     " could no longer be read: %s", src, w,
			     sibt_trace_errmsg(c->t));
	for (lo = 0; lo < wi.nsebs; lo++) {
		const sibt_seb *s = sibt_window_seb(c->scratch, lo);

		if (s && seq >= s->first_seq &&
		    seq - s->first_seq < s->nsends) {
			*idx = s->index;
			return SIBT_OK;
		}
	}
	return INTERNAL(c, "a message is not in its window");
}

static inline int never_ran(const checker *c, uint32_t pe, uint64_t idx)
{
	if (c->kahn)
		return c->deps[c->seb_base[pe] + idx] != DEPS_DONE;
	return idx >= c->cursor[pe];
}

/*
 * From a SEB that never ran, one dependency that never ran either (one
 * exists, or the SEB would have run).  A run of default predecessors is
 * crossed in one step, so a long stalled chain costs no decoding.  In
 * order, that is the PE's next SEB and the first message it waits for.
 */
static int next_dep(checker *c, seb_ref x, dep_step *st)
{
	uint64_t y = x.seb, k = 0;
	const sibt_seb *s;
	sibt_msgid m;
	uint32_t i;
	int rc;

	if (c->kahn) {
		uint64_t base = c->seb_base[x.pe];

		while (y > 0 && bit_get(c->dflt, base + y) &&
		       never_ran(c, x.pe, y - 1))
			y--;
	} else {
		y = c->cursor[x.pe];
	}
	if (y < x.seb) {
		st->to.pe = x.pe;
		st->to.seb = (uint32_t)y;
		st->waits = 0;
		st->through = x.seb - y;
		return SIBT_OK;
	}
	s = lookup_seb(c, x.pe, x.seb);
	if (!s)
		return fatal(c, SIBT_EIO, "PE %" PRIu32 " window holding SEB %"
			     PRIu32 " could no longer be read: %s", x.pe,
			     x.seb, sibt_trace_errmsg(c->t));
	if (!s->preds_default) {
		for (i = 0; i < s->npreds; i++) {
			if (s->preds[i] < x.seb &&
			    never_ran(c, x.pe, s->preds[i])) {
				st->to.pe = x.pe;
				st->to.seb = (uint32_t)s->preds[i];
				st->waits = 0;
				st->through = 1;
				return SIBT_OK;
			}
		}
	}
	for (i = 0; i < s->nwaits; i++) {
		/* sender_of() may reuse the scratch window: copy first. */
		m = s->waits[i];
		/* In order, a message sent is a sender that ran. */
		if (!c->kahn &&
		    bit_get(c->sent, c->msg_base[m.src] + m.seq))
			continue;
		if ((rc = sender_of(c, m.src, m.seq, &k)) < 0)
			return rc;
		if (never_ran(c, m.src, k)) {
			st->to.pe = m.src;
			st->to.seb = (uint32_t)k;
			st->waits = 1;
			st->seq = m.seq;
			return SIBT_OK;
		}
		if (!(s = lookup_seb(c, x.pe, x.seb)))
			return fatal(c, SIBT_EIO, "PE %" PRIu32 " window "
				     "holding SEB %" PRIu32 " could no longer "
				     "be read: %s", x.pe, x.seb,
				     sibt_trace_errmsg(c->t));
	}
	return INTERNAL(c, "a SEB that never ran has all its dependencies "
			"satisfied");
}

static int same_seb(seb_ref a, seb_ref b)
{
	return a.pe == b.pe && a.seb == b.seb;
}

static int describe_cycle(checker *c, seb_ref start, uint64_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	seb_ref x = start;
	dep_step st;
	uint64_t i;
	int rc = SIBT_OK;

	if (!f)
		return fatal(c, SIBT_ENOMEM, "out of memory describing a "
			     "dependency cycle");
	fprintf(f, "dependency cycle: PE %" PRIu32 " SEB %" PRIu32, x.pe,
		x.seb);
	for (i = 0; i < len && i < CYCLE_STEPS_SHOWN; i++) {
		if ((rc = next_dep(c, x, &st)) < 0)
			break;
		fputs(i ? ", which " : " ", f);
		if (st.waits)
			fprintf(f, "waits for message %" PRIu32 ":%" PRIu64
				" sent by PE %" PRIu32 " SEB %" PRIu32,
				st.to.pe, st.seq, st.to.pe, st.to.seb);
		else if (st.through == 1)
			fprintf(f, "follows PE %" PRIu32 " SEB %" PRIu32,
				st.to.pe, st.to.seb);
		else
			fprintf(f, "follows PE %" PRIu32 " SEB %" PRIu32
				" (through SEBs %" PRIu32 "-%" PRIu32 ")",
				st.to.pe, st.to.seb, st.to.seb + 1,
				x.seb - 1);
		x = st.to;
	}
	if (rc == SIBT_OK && len > CYCLE_STEPS_SHOWN)
		fprintf(f, ", and so on through %" PRIu64 " more dependencies "
			"back to PE %" PRIu32 " SEB %" PRIu32,
			len - CYCLE_STEPS_SHOWN, start.pe, start.seb);
	if (rc == SIBT_OK)
		fprintf(f, "; %" PRIu64 " of %" PRIu64 " SEBs can never run",
			c->nsebs - c->ran, c->nsebs);
	if (fclose(f) != 0 && rc == SIBT_OK)
		rc = fatal(c, SIBT_ENOMEM, "out of memory describing a "
			   "dependency cycle");
	if (rc == SIBT_OK)
		problem(c, "%s", text);
	free(text);
	return rc;
}

/* The first SEB, in PE order, that never ran. */
static int first_stalled(checker *c, seb_ref *start)
{
	uint32_t pe;
	uint64_t i, n;

	for (pe = 0; pe < c->npes; pe++) {
		n = pe_nsebs(c, pe);
		if (!c->kahn) {
			i = c->cursor[pe];
		} else {
			for (i = 0; i < n && !never_ran(c, pe, i); i++)
				;
		}
		if (i < n) {
			start->pe = pe;
			start->seb = (uint32_t)i;
			return SIBT_OK;
		}
	}
	return INTERNAL(c, "no SEB left over");
}

/*
 * Every SEB that never ran has a dependency that never ran, so following
 * one from any of them must come back on itself: Brent's algorithm finds
 * the cycle's length and first SEB without remembering the walk.
 */
static int report_cycle(checker *c)
{
	seb_ref start, tort, hare;
	uint64_t power = 1, len = 1, i, steps = 0;
	uint64_t limit = 4 * c->nsebs + 16;
	dep_step st;
	int rc;

	if ((rc = first_stalled(c, &start)) < 0)
		return rc;
	tort = start;
	if ((rc = next_dep(c, start, &st)) < 0)
		return rc;
	hare = st.to;
	while (!same_seb(tort, hare)) {
		if (power == len) {
			tort = hare;
			power *= 2;
			len = 0;
		}
		if ((rc = next_dep(c, hare, &st)) < 0)
			return rc;
		hare = st.to;
		len++;
		if (++steps > limit)
			return INTERNAL(c, "the walk along dependencies "
					"does not close");
	}
	/* Move one pointer len steps ahead; they meet at the cycle. */
	tort = hare = start;
	for (i = 0; i < len; i++) {
		if ((rc = next_dep(c, hare, &st)) < 0)
			return rc;
		hare = st.to;
	}
	while (!same_seb(tort, hare)) {
		if ((rc = next_dep(c, tort, &st)) < 0)
			return rc;
		tort = st.to;
		if ((rc = next_dep(c, hare, &st)) < 0)
			return rc;
		hare = st.to;
	}
	return describe_cycle(c, tort, len);
}

static int find_cycles(checker *c)
{
	int rc;

	if ((rc = run_in_order(c)) < 0)
		return rc;
	if (c->ran == c->nsebs)
		return SIBT_OK;
	/* Only with explicit predecessor lists can another order do better
	 * than in-order execution. */
	if (c->nonchain && (rc = run_kahn(c)) < 0)
		return rc;
	if (c->ran < c->nsebs)
		return report_cycle(c);
	return SIBT_OK;
}

static void checker_free(checker *c)
{
	free(c->incomplete);
	free(c->pe_a);
	free(c->pe_b);
	free(c->bad);
	free(c->ends);
	free(c->sent);
	free_run_cache(c);
	free(c->seb_base);
	free(c->slot);
	free(c->deps);
	free(c->send_off);
	free(c->dflt);
	free(c->edges);
	free(c->kstack);
	if (c->win)
		sibt_window_free(c->win);
	if (c->scratch)
		sibt_window_free(c->scratch);
}

long sibt_check(sibt_trace *t, const sibt_check_opts *opts)
{
	static const sibt_check_opts defaults;
	checker c;
	uint32_t pe;
	long rc;
	int unbalanced = 0;

	if (!t)
		return SIBT_EINVAL;
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.opts = opts ? opts : &defaults;
	c.max_problems = c.opts->max_problems ? c.opts->max_problems
					      : CHECK_DEFAULT_MAX;

	if ((rc = setup(&c)) < 0)
		goto out;
	check_damage(&c);
	if ((rc = stream(&c, 1, "reading windows", 0, c.nwindows,
			 check_seb)) < 0)
		goto out;
	for (pe = 0; pe < c.npes && !unbalanced; pe++)
		unbalanced = c.acc[pe] != 0 || c.cnt[pe] != 0;
	if (unbalanced && (rc = locate_message_problems(&c)) < 0)
		goto out;
	if (!c.opts->skip_cycles && c.nproblems == 0 &&
	    (rc = find_cycles(&c)) < 0)
		goto out;
	rc = c.nproblems;
out:
	checker_free(&c);
	return rc;
}
