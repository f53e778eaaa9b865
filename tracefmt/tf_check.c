/*
 * tf_check.c -- sibt_check(): full validation of a trace.
 *
 * The check must work on traces far larger than they would be decoded in
 * memory (a million PEs, millions of SEBs and messages), so it never keeps
 * SEBs.  It streams every window once and keeps a few fixed-size numbers
 * per PE, per SEB and per message:
 *
 *   per PE       16 bytes (prefix sums of SEB and message counts) + 1 bit
 *   per message   8 bytes (who waits for it) + 1 bit
 *   per SEB       8 bytes + 1 bit (only for the cycle search)
 *   per explicit predecessor 16 bytes, per SEB ready at once 8 bytes
 *
 * Pass 1 reads the windows PE by PE and checks what each SEB says:
 * references in range, predecessors earlier, indices and sequence numbers
 * continuing.  Messages are matched in a table with one slot per message
 * (slot index = first message of the source PE + sequence number).  A slot
 * holds whichever end of the message was seen first -- the destination
 * and sending SEB of a send, or the PE and SEB of a wait -- and a bit says
 * which; once both ends are seen it holds the waiter.  Whatever order the
 * sends and waits come in, a second wait, a wait on the wrong PE and (at
 * the end) a send nobody awaits are all caught.  The same pass records
 * for the cycle search the number of dependencies of every SEB, the
 * offset of its first send inside its window, whether it uses the default
 * predecessor, and the (rare) explicit predecessor edges.
 *
 * Pass 2 runs only on a trace with no other problem: an incomplete or
 * inconsistent graph would show false cycles.  It is Kahn's algorithm: a
 * SEB runs once all its dependencies ran, ready SEBs go on a LIFO stack so
 * that one PE's chain runs depth-first.  A SEB's messages are found from
 * the window index and its stored send offset, so this pass decodes
 * nothing.  SEBs that never run lie on or behind a cycle; one cycle is
 * then located with Brent's algorithm (constant memory) along "the first
 * dependency that never ran", decoding only the SEBs on that walk.
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
/* Progress is reported every this many windows (pass 1) / SEBs (pass 2). */
#define PROGRESS_WINDOWS 1024
#define PROGRESS_SEBS 65536
/* Dependencies of a cycle spelled out before the report abbreviates. */
#define CYCLE_STEPS_SHOWN 12
/* deps[] of a SEB that ran in pass 2. */
#define DEPS_DONE UINT32_MAX

/* Who waits for a message -- or, until its wait is seen, where it goes. */
typedef struct msg_slot {
	uint32_t pe1;           /* PE + 1; 0 while neither end was seen */
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

typedef struct checker {
	sibt_trace *t;
	const sibt_check_opts *opts;
	unsigned max_problems;
	long nproblems;
	uint32_t npes;
	uint64_t nsebs, nmsgs, nwindows;
	uint64_t *seb_base;     /* [npes + 1]: global number of SEB 0 of PE */
	uint64_t *msg_base;     /* [npes + 1]: slot of message PE:0 */
	uint8_t *incomplete;    /* bit per PE: part of it is unreadable */
	msg_slot *slot;         /* [nmsgs] */
	uint8_t *sent;          /* bit per message: slot holds the send */

	int graph;              /* collect the graph for the cycle search */
	uint32_t *deps;         /* [nsebs] dependencies not yet satisfied */
	uint32_t *send_off;     /* [nsebs] first send, relative to window */
	uint8_t *dflt;          /* bit per SEB: default predecessor */
	pred_edge *edges;
	size_t nedges, edges_cap;
	seb_ref *stack;         /* ready SEBs of pass 2 */
	size_t sp, stack_cap;
	uint64_t ran;

	sibt_window *win;       /* pass 1 */
	sibt_window *scratch;   /* single look-ups; holds (spe, sw) */
	int scratch_ok;
	uint32_t spe;
	uint64_t sw;
} checker;

static inline int bit_get(const uint8_t *b, uint64_t i)
{
	return b[i >> 3] >> (i & 7) & 1;
}

static inline void bit_set(uint8_t *b, uint64_t i)
{
	b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static inline void bit_clear(uint8_t *b, uint64_t i)
{
	b[i >> 3] &= (uint8_t)~(1u << (i & 7));
}

static inline uint64_t pe_nsebs(const checker *c, uint32_t pe)
{
	return c->seb_base[pe + 1] - c->seb_base[pe];
}

static inline uint64_t pe_nmsgs(const checker *c, uint32_t pe)
{
	return c->msg_base[pe + 1] - c->msg_base[pe];
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

static void *check_calloc(checker *c, uint64_t n, size_t size,
			  const char *what)
{
	void *p = NULL;

	if (n < SIZE_MAX / size - 1)
		p = calloc(n ? (size_t)n : 1, size);
	if (!p)
		fatal(c, SIBT_ENOMEM, "out of memory: cannot allocate %" PRIu64
		      " bytes for %s", n * size, what);
	return p;
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
	c->seb_base = check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
				   "the SEB table");
	c->msg_base = check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
				   "the message table");
	c->incomplete = check_bits(c, c->npes, "the PE table");
	if (!c->seb_base || !c->msg_base || !c->incomplete)
		return SIBT_ENOMEM;
	for (pe = 0; pe < c->npes; pe++) {
		uint64_t n = sibt_trace_nsebs(c->t, pe);

		/* Slots and the ready stack store SEB indices in 32 bits. */
		if (n > UINT32_MAX)
			return fatal(c, SIBT_EINVAL, "unsupported trace: PE %"
				     PRIu32 " has %" PRIu64 " SEBs; the checker"
				     " handles at most %" PRIu32 " per PE", pe,
				     n, UINT32_MAX);
		c->seb_base[pe + 1] = c->seb_base[pe] + n;
		c->msg_base[pe + 1] = c->msg_base[pe] +
				      sibt_trace_nsends(c->t, pe);
		c->nwindows += sibt_trace_nwindows(c->t, pe);
	}
	c->nsebs = c->seb_base[c->npes];
	c->nmsgs = c->msg_base[c->npes];

	c->slot = check_calloc(c, c->nmsgs, sizeof(msg_slot),
			       "the message table");
	c->sent = check_bits(c, c->nmsgs, "the message table");
	if (!c->slot || !c->sent)
		return SIBT_ENOMEM;
	if (c->graph) {
		c->deps = check_calloc(c, c->nsebs, sizeof(uint32_t),
				       "the dependency graph");
		c->send_off = check_calloc(c, c->nsebs, sizeof(uint32_t),
					   "the dependency graph");
		c->dflt = check_bits(c, c->nsebs, "the dependency graph");
		if (!c->deps || !c->send_off || !c->dflt)
			return SIBT_ENOMEM;
	}
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

static void check_wait(checker *c, uint32_t pe, uint32_t idx,
		       const sibt_msgid *m)
{
	uint64_t mi;
	msg_slot *sl;

	if (m->src >= c->npes) {
		problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for message %"
			PRIu32 ":%" PRIu64 ", but PE %" PRIu32 " does not "
			"exist (the trace has %" PRIu32 " PEs)", pe, idx,
			m->src, m->seq, m->src, c->npes);
		return;
	}
	if (m->seq >= pe_nmsgs(c, m->src)) {
		/* The send may be in the lost part of a damaged PE. */
		if (!bit_get(c->incomplete, m->src))
			problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for "
				"message %" PRIu32 ":%" PRIu64 ", which is "
				"never sent (PE %" PRIu32 " sends %" PRIu64
				" message%s)", pe, idx, m->src, m->seq, m->src,
				pe_nmsgs(c, m->src),
				pe_nmsgs(c, m->src) == 1 ? "" : "s");
		return;
	}
	mi = c->msg_base[m->src] + m->seq;
	sl = &c->slot[mi];
	if (sl->pe1 == 0) {
		sl->pe1 = pe + 1;
		sl->seb = idx;
	} else if (bit_get(c->sent, mi)) {
		if (sl->pe1 - 1 != pe)
			problem(c, "message %" PRIu32 ":%" PRIu64 " is sent by "
				"PE %" PRIu32 " SEB %" PRIu32 " to PE %" PRIu32
				" but awaited on PE %" PRIu32 " SEB %" PRIu32,
				m->src, m->seq, m->src, sl->seb, sl->pe1 - 1,
				pe, idx);
		bit_clear(c->sent, mi);
		sl->pe1 = pe + 1;
		sl->seb = idx;
	} else {
		problem(c, "message %" PRIu32 ":%" PRIu64 " is awaited twice: "
			"by PE %" PRIu32 " SEB %" PRIu32 " and PE %" PRIu32
			" SEB %" PRIu32, m->src, m->seq, sl->pe1 - 1, sl->seb,
			pe, idx);
	}
}

static void check_send(checker *c, uint32_t pe, uint32_t idx, uint64_t seq,
		       const sibt_send *s)
{
	uint64_t mi = c->msg_base[pe] + seq;
	msg_slot *sl = &c->slot[mi];

	if (s->dst >= c->npes) {
		problem(c, "PE %" PRIu32 " SEB %" PRIu32 " sends message %"
			PRIu32 ":%" PRIu64 " to PE %" PRIu32 ", which does "
			"not exist (the trace has %" PRIu32 " PEs)", pe, idx,
			pe, seq, s->dst, c->npes);
		return;
	}
	if (sl->pe1 == 0) {
		sl->pe1 = s->dst + 1;
		sl->seb = idx;
		bit_set(c->sent, mi);
	} else if (!bit_get(c->sent, mi) && sl->pe1 - 1 != s->dst) {
		problem(c, "message %" PRIu32 ":%" PRIu64 " is sent by PE %"
			PRIu32 " SEB %" PRIu32 " to PE %" PRIu32 " but awaited "
			"on PE %" PRIu32 " SEB %" PRIu32, pe, seq, pe, idx,
			s->dst, sl->pe1 - 1, sl->seb);
	}
}

static int check_seb(checker *c, uint32_t pe, const sibt_seb *s,
		     uint32_t send_off)
{
	uint32_t idx = (uint32_t)s->index;
	uint64_t g = c->seb_base[pe] + idx;
	uint64_t ndeps = s->nwaits;
	uint32_t k;
	int rc;

	if (s->preds_default) {
		ndeps += idx > 0;
		if (c->graph)
			bit_set(c->dflt, g);
	} else {
		for (k = 0; k < s->npreds; k++) {
			if (s->preds[k] >= idx) {
				problem(c, "PE %" PRIu32 " SEB %" PRIu32
					" names SEB %" PRIu64 " as a "
					"predecessor, but predecessors must be"
					" earlier SEBs of the same PE", pe, idx,
					s->preds[k]);
				continue;
			}
			ndeps++;
			if (c->graph) {
				rc = add_edge(c, c->seb_base[pe] + s->preds[k],
					      g);
				if (rc < 0)
					return rc;
			}
		}
	}
	for (k = 0; k < s->nwaits; k++)
		check_wait(c, pe, idx, &s->waits[k]);
	for (k = 0; k < s->nsends; k++)
		check_send(c, pe, idx, s->first_seq + k, &s->sends[k]);
	if (c->graph) {
		if (ndeps >= DEPS_DONE)
			return fatal(c, SIBT_EINVAL, "unsupported trace: PE %"
				     PRIu32 " SEB %" PRIu32 " has %" PRIu64
				     " dependencies", pe, idx, ndeps);
		c->deps[g] = (uint32_t)ndeps;
		c->send_off[g] = send_off;
	}
	return SIBT_OK;
}

/*
 * The reader guarantees most of this; checking it here keeps the tables
 * safe to index whatever a reader returns.
 */
static int check_window(checker *c, uint32_t pe, uint64_t w,
			const sibt_window_info *wi)
{
	uint32_t i, n = sibt_window_nsebs(c->win);
	uint64_t seq = wi->first_seq;
	int rc;

	if (n != wi->nsebs) {
		problem(c, "PE %" PRIu32 " window %" PRIu64 " decodes to %"
			PRIu32 " SEBs but the index announces %" PRIu32, pe, w,
			n, wi->nsebs);
		bit_set(c->incomplete, pe);
		return SIBT_OK;
	}
	for (i = 0; i < n; i++) {
		const sibt_seb *s = sibt_window_seb(c->win, i);
		uint64_t idx = wi->first_seb + i;

		if (!s || s->pe != pe || s->index != idx ||
		    idx >= pe_nsebs(c, pe) || s->first_seq != seq ||
		    seq > pe_nmsgs(c, pe) ||
		    s->nsends > pe_nmsgs(c, pe) - seq ||
		    seq - wi->first_seq + s->nsends > wi->nsends) {
			problem(c, "PE %" PRIu32 " window %" PRIu64 " is "
				"inconsistent with the index at SEB %" PRIu64
				" (first send %" PRIu64 ")", pe, w, idx, seq);
			bit_set(c->incomplete, pe);
			return SIBT_OK;
		}
		rc = check_seb(c, pe, s, (uint32_t)(seq - wi->first_seq));
		if (rc < 0)
			return rc;
		seq += s->nsends;
	}
	return SIBT_OK;
}

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

static int read_windows(checker *c)
{
	static const char phase[] = "reading windows";
	uint64_t done = 0, w, nw;
	uint32_t pe;
	int rc;

	progress(c, phase, 0, c->nwindows);
	for (pe = 0; pe < c->npes; pe++) {
		nw = sibt_trace_nwindows(c->t, pe);
		for (w = 0; w < nw; w++) {
			sibt_window_info wi;

			rc = sibt_trace_window_info(c->t, pe, w, &wi);
			if (rc >= 0)
				rc = sibt_trace_read_window(c->t, pe, w,
							    c->win);
			if (rc == SIBT_ENOMEM)
				return fatal(c, rc, "out of memory decoding "
					     "PE %" PRIu32 " window %" PRIu64,
					     pe, w);
			if (rc < 0)
				unreadable(c, pe, w, rc);
			else if ((rc = check_window(c, pe, w, &wi)) < 0)
				return rc;
			if (++done % PROGRESS_WINDOWS == 0)
				progress(c, phase, done, c->nwindows);
		}
	}
	progress(c, phase, done, c->nwindows);
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

static void report_unawaited(checker *c, uint32_t src, uint64_t seq,
			     const msg_slot *sl)
{
	const sibt_seb *s;
	const sibt_send *snd = NULL;

	/* Size and tag cost a decode: only for problems shown. */
	if (shown(c) && (s = lookup_seb(c, src, sl->seb)) &&
	    seq >= s->first_seq && seq - s->first_seq < s->nsends)
		snd = &s->sends[seq - s->first_seq];
	if (snd)
		problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
			PRIu32 " SEB %" PRIu32 " (to PE %" PRIu32 ", %"
			PRIu64 " bytes, tag %" PRId32 ") is awaited by no SEB",
			src, seq, src, sl->seb, snd->dst, snd->size, snd->tag);
	else
		problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
			PRIu32 " SEB %" PRIu32 " (to PE %" PRIu32 ") is "
			"awaited by no SEB", src, seq, src, sl->seb,
			sl->pe1 - 1);
}

static void find_unawaited(checker *c)
{
	uint64_t seq, n, mi;
	uint32_t src;

	for (src = 0; src < c->npes; src++) {
		n = pe_nmsgs(c, src);
		for (seq = 0; seq < n; seq++) {
			mi = c->msg_base[src] + seq;
			if (!bit_get(c->sent, mi) ||
			    bit_get(c->incomplete, c->slot[mi].pe1 - 1))
				continue;
			report_unawaited(c, src, seq, &c->slot[mi]);
		}
	}
}

static int cmp_edge(const void *a, const void *b)
{
	const pred_edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* An internal invariant broke: report rather than continue silently. */
#define INTERNAL(c, what) fatal(c, SIBT_EFORMAT, "internal error in the " \
	"checker (%s:%d): %s", __FILE__, __LINE__, what)

static int push_ready(checker *c, uint32_t pe, uint32_t idx)
{
	if (c->sp == c->stack_cap) {
		size_t cap = c->stack_cap ? 2 * c->stack_cap : 4096;
		seb_ref *s = NULL;

		if (cap < SIZE_MAX / sizeof(*s))
			s = realloc(c->stack, cap * sizeof(*s));
		if (!s)
			return fatal(c, SIBT_ENOMEM, "out of memory: cannot "
				     "grow the ready stack to %zu SEBs", cap);
		c->stack = s;
		c->stack_cap = cap;
	}
	c->stack[c->sp].pe = pe;
	c->stack[c->sp].seb = idx;
	c->sp++;
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

/* The SEB that sends message src:seq, from the stored send offsets. */
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
	base = c->seb_base[src] + wi.first_seb;
	/* The last SEB of the window whose sends start at or before rel. */
	lo = 0;
	hi = wi.nsebs;
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

static inline int never_ran(const checker *c, uint32_t pe, uint64_t idx)
{
	return c->deps[c->seb_base[pe] + idx] != DEPS_DONE;
}

/*
 * From a SEB that never ran, one dependency that never ran either (one
 * exists, or the SEB would have run).  A run of default predecessors is
 * crossed in one step, so a long stalled chain costs no decoding.
 */
static int next_dep(checker *c, seb_ref x, dep_step *st)
{
	uint64_t base = c->seb_base[x.pe], y = x.seb, k = 0;
	const sibt_seb *s;
	uint32_t i;
	int rc;

	while (y > 0 && bit_get(c->dflt, base + y) && never_ran(c, x.pe, y - 1))
		y--;
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
	/* sender_of() leaves the scratch window alone, so s stays valid. */
	for (i = 0; i < s->nwaits; i++) {
		const sibt_msgid *m = &s->waits[i];

		if ((rc = sender_of(c, m->src, m->seq, &k)) < 0)
			return rc;
		if (never_ran(c, m->src, k)) {
			st->to.pe = m->src;
			st->to.seb = (uint32_t)k;
			st->waits = 1;
			st->seq = m->seq;
			return SIBT_OK;
		}
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

/*
 * Every SEB that never ran has a dependency that never ran, so following
 * one from any of them must come back on itself: Brent's algorithm finds
 * the cycle's length and first SEB without remembering the walk.
 */
static int report_cycle(checker *c)
{
	seb_ref start = { 0, 0 }, tort, hare;
	uint64_t power = 1, len = 1, i, steps = 0;
	uint64_t limit = 4 * c->nsebs + 16;
	dep_step st;
	uint32_t pe;
	int rc;

	for (pe = 0; pe < c->npes; pe++) {
		uint64_t n = pe_nsebs(c, pe);

		for (i = 0; i < n && !never_ran(c, pe, i); i++)
			;
		if (i < n) {
			start.pe = pe;
			start.seb = (uint32_t)i;
			break;
		}
	}
	if (pe == c->npes)
		return INTERNAL(c, "no SEB left over");

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
	static const char phase[] = "searching for cycles";
	uint32_t pe, i;
	uint64_t n;
	int rc;

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
			while (c->sp > 0) {
				seb_ref r = c->stack[--c->sp];

				if ((rc = run_seb(c, r.pe, r.seb)) < 0)
					return rc;
				if (c->ran % PROGRESS_SEBS == 0)
					progress(c, phase, c->ran, c->nsebs);
			}
		}
	}
	progress(c, phase, c->ran, c->nsebs);
	free(c->stack);
	c->stack = NULL;
	c->sp = c->stack_cap = 0;
	if (c->ran < c->nsebs)
		return report_cycle(c);
	return SIBT_OK;
}

static void checker_free(checker *c)
{
	free(c->seb_base);
	free(c->msg_base);
	free(c->incomplete);
	free(c->slot);
	free(c->sent);
	free(c->deps);
	free(c->send_off);
	free(c->dflt);
	free(c->edges);
	free(c->stack);
	if (c->win)
		sibt_window_free(c->win);
	if (c->scratch)
		sibt_window_free(c->scratch);
}

long sibt_check(sibt_trace *t, const sibt_check_opts *opts)
{
	static const sibt_check_opts defaults;
	checker c;
	long rc;

	if (!t)
		return SIBT_EINVAL;
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.opts = opts ? opts : &defaults;
	c.max_problems = c.opts->max_problems ? c.opts->max_problems
					      : CHECK_DEFAULT_MAX;
	c.graph = !c.opts->skip_cycles;

	if ((rc = setup(&c)) < 0)
		goto out;
	check_damage(&c);
	if ((rc = read_windows(&c)) < 0)
		goto out;
	find_unawaited(&c);
	free(c.sent);
	c.sent = NULL;
	if (c.graph && c.nproblems == 0 && (rc = find_cycles(&c)) < 0)
		goto out;
	rc = c.nproblems;
out:
	checker_free(&c);
	return rc;
}
