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

#include "tf_check.h"

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

void tf_chk_problem(checker *c, const char *fmt, ...)
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
int tf_chk_fatal(checker *c, int err, const char *fmt, ...)
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
		tf_chk_fatal(c, SIBT_ENOMEM, "out of memory: cannot allocate %" PRIu64
		      " bytes for %s", n * size, what);
	return p;
}

void *tf_chk_check_calloc(checker *c, uint64_t n, size_t size,
			  const char *what)
{
	return check_alloc(c, n, size, 1, what);
}

uint8_t *tf_chk_check_bits(checker *c, uint64_t n, const char *what)
{
	return tf_chk_check_calloc(c, n / 8 + 1, 1, what);
}

void tf_chk_progress(checker *c, const char *phase, uint64_t done,
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
			return tf_chk_fatal(c, SIBT_EINVAL, "unsupported trace: PE %"
				     PRIu32 " has %" PRIu64 " SEBs; the checker"
				     " handles at most %" PRIu32 " per PE", pe,
				     n, UINT32_MAX);
		c->nsebs += n;
		c->nmsgs += sibt_trace_nsends(c->t, pe);
		c->nwindows += sibt_trace_nwindows(c->t, pe);
	}
	c->incomplete = tf_chk_check_bits(c, c->npes, "the PE table");
	c->pe_a = tf_chk_check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
			       "the PE table");
	c->pe_b = tf_chk_check_calloc(c, c->npes, sizeof(uint64_t), "the PE table");
	if (!c->incomplete || !c->pe_a || !c->pe_b)
		return SIBT_ENOMEM;
	c->acc = c->pe_a;
	c->cnt = c->pe_b;
	c->win = sibt_window_new();
	c->scratch = sibt_window_new();
	if (!c->win || !c->scratch)
		return tf_chk_fatal(c, SIBT_ENOMEM, "out of memory: cannot allocate "
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
			tf_chk_problem(c, "damaged data file (%s): %s",
				sibt_strerror(d->reason), detail);
		else
			tf_chk_problem(c, "damaged data file %s (%s): %s", file,
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
		tf_chk_problem(c, "PE %" PRIu32 " window %" PRIu64 " cannot be read: "
			"%s", pe, w, msg);
	else
		tf_chk_problem(c, "PE %" PRIu32 " window %" PRIu64 " (SEBs %" PRIu64
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
		return tf_chk_fatal(c, rc, "out of memory decoding PE %" PRIu32
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
		tf_chk_problem(c, "PE %" PRIu32 " window %" PRIu64 " decodes to %"
			PRIu32 " SEBs but the index announces %" PRIu32, pe, w,
			wr->decoded, wr->wi.nsebs);
	else
		tf_chk_problem(c, "PE %" PRIu32 " window %" PRIu64 " is "
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
int tf_chk_stream(checker *c, int report, const char *phase, uint64_t done0,
		  uint64_t total, seb_fn fn)
{
	uint64_t done = done0, w, nw;
	uint32_t pe, i;
	win_read wr;
	int rc;

	tf_chk_progress(c, phase, done, total);
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
				tf_chk_progress(c, phase, done, total);
		}
	}
	tf_chk_progress(c, phase, done, total);
	return SIBT_OK;
}

/* SEB idx of pe, decoded into the scratch window (NULL if unreadable). */
const sibt_seb *tf_chk_lookup_seb(checker *c, uint32_t pe, uint64_t idx)
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
		tf_chk_problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for message %"
			PRIu32 ":%" PRIu64 ", but PE %" PRIu32 " does not "
			"exist (the trace has %" PRIu32 " PEs)", pe, idx,
			m->src, m->seq, m->src, c->npes);
		return;
	}
	n = pe_nmsgs(c, m->src);
	if (m->seq >= n) {
		/* The send may be in the lost part of a damaged PE. */
		if (!bit_get(c->incomplete, m->src))
			tf_chk_problem(c, "PE %" PRIu32 " SEB %" PRIu32 " waits for "
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
		tf_chk_problem(c, "PE %" PRIu32 " SEB %" PRIu32 " sends message %"
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
				tf_chk_problem(c, "PE %" PRIu32 " SEB %" PRIu32
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
				tf_chk_problem(c, "message %" PRIu32 ":%" PRIu64 " is "
					"sent by PE %" PRIu32 " SEB %" PRIu32
					" to PE %" PRIu32 " but awaited on PE %"
					PRIu32 " SEB %" PRIu32, m->src, m->seq,
					m->src, e->seb, e->dst, pe, idx);
		} else {
			tf_chk_problem(c, "message %" PRIu32 ":%" PRIu64 " is awaited "
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
	if (shown(c) && (s = tf_chk_lookup_seb(c, src, e->seb)) &&
	    seq >= s->first_seq && seq - s->first_seq < s->nsends)
		snd = &s->sends[seq - s->first_seq];
	if (snd)
		tf_chk_problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
			PRIu32 " SEB %" PRIu32 " (to PE %" PRIu32 ", %"
			PRIu64 " bytes, tag %" PRId32 ") is awaited by no SEB",
			src, seq, src, e->seb, snd->dst, snd->size, snd->tag);
	else
		tf_chk_problem(c, "message %" PRIu32 ":%" PRIu64 " sent by PE %"
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

	c->bad = tf_chk_check_bits(c, c->npes, "the PE table");
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
		rc = tf_chk_stream(c, 0, phase, batch * c->nwindows,
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
			return tf_chk_fatal(c, SIBT_ENOMEM, "out of memory: cannot "
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
		tf_chk_progress(c, phase, c->ran, c->nsebs);
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
			return tf_chk_fatal(c, rc, "PE %" PRIu32 " window %" PRIu64
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

int tf_chk_run_in_order(checker *c)
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
	c->sent = tf_chk_check_bits(c, c->nmsgs, "the message bits");
	c->enc = check_alloc(c, c->cache_budget / 16, 1, 0,
			     "the window cache");
	if (!c->sent || !c->enc)
		return SIBT_ENOMEM;

	tf_chk_progress(c, phase, 0, c->nsebs);
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
	tf_chk_progress(c, phase, c->ran, c->nsebs);
	free_run_cache(c);
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
	if ((rc = tf_chk_stream(&c, 1, "reading windows", 0, c.nwindows,
			 check_seb)) < 0)
		goto out;
	for (pe = 0; pe < c.npes && !unbalanced; pe++)
		unbalanced = c.acc[pe] != 0 || c.cnt[pe] != 0;
	if (unbalanced && (rc = locate_message_problems(&c)) < 0)
		goto out;
	if (!c.opts->skip_cycles && c.nproblems == 0 &&
	    (rc = tf_chk_find_cycles(&c)) < 0)
		goto out;
	rc = c.nproblems;
out:
	checker_free(&c);
	return rc;
}
