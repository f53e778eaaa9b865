/*
 * tf_check_order.c -- pass 2 of sibt_check() when in-order execution
 * stalls (tf_check.h): Kahn's algorithm over the full graph where
 * explicit predecessor lists leave the order open, and the report of a
 * cycle, found with Brent's algorithm from a stalled PE.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tf_check.h"

/* ------------------------------------------- pass 2: Kahn's algorithm */

static int add_edge(checker *c, uint64_t from, uint64_t to)
{
	if (c->nedges == c->edges_cap) {
		size_t cap = c->edges_cap ? 2 * c->edges_cap : 256;
		pred_edge *e = NULL;

		if (cap < SIZE_MAX / sizeof(*e))
			e = realloc(c->edges, cap * sizeof(*e));
		if (!e)
			return tf_chk_fatal(c, SIBT_ENOMEM, "out of memory: cannot "
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
		return tf_chk_fatal(c, SIBT_EINVAL, "unsupported trace: PE %" PRIu32
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
			return tf_chk_fatal(c, SIBT_ENOMEM, "out of memory: cannot "
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
	c->seb_base = tf_chk_check_calloc(c, (uint64_t)c->npes + 1, sizeof(uint64_t),
				   "the dependency graph");
	if (!c->seb_base)
		return SIBT_ENOMEM;
	for (pe = 0; pe < c->npes; pe++)
		c->seb_base[pe + 1] = c->seb_base[pe] + pe_nsebs(c, pe);
	c->slot = tf_chk_check_calloc(c, c->nmsgs, sizeof(msg_slot),
			       "the dependency graph");
	c->deps = tf_chk_check_calloc(c, c->nsebs, sizeof(uint32_t),
			       "the dependency graph");
	c->send_off = tf_chk_check_calloc(c, c->nsebs, sizeof(uint32_t),
				   "the dependency graph");
	c->dflt = tf_chk_check_bits(c, c->nsebs, "the dependency graph");
	if (!c->slot || !c->deps || !c->send_off || !c->dflt)
		return SIBT_ENOMEM;
	rc = tf_chk_stream(c, 0, "building the dependency graph", 0, c->nwindows,
		    graph_seb);
	if (rc < 0)
		return rc;
	if (c->nedges)
		qsort(c->edges, c->nedges, sizeof(*c->edges), cmp_edge);

	tf_chk_progress(c, phase, 0, c->nsebs);
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
					tf_chk_progress(c, phase, c->ran, c->nsebs);
			}
		}
	}
	tf_chk_progress(c, phase, c->ran, c->nsebs);
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
	if (!tf_chk_lookup_seb(c, src, wi.first_seb))
		return tf_chk_fatal(c, SIBT_EIO, "PE %" PRIu32 " window %" PRIu64
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
	s = tf_chk_lookup_seb(c, x.pe, x.seb);
	if (!s)
		return tf_chk_fatal(c, SIBT_EIO, "PE %" PRIu32 " window holding SEB %"
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
		if (!(s = tf_chk_lookup_seb(c, x.pe, x.seb)))
			return tf_chk_fatal(c, SIBT_EIO, "PE %" PRIu32 " window "
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
		return tf_chk_fatal(c, SIBT_ENOMEM, "out of memory describing a "
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
		rc = tf_chk_fatal(c, SIBT_ENOMEM, "out of memory describing a "
			   "dependency cycle");
	if (rc == SIBT_OK)
		tf_chk_problem(c, "%s", text);
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

int tf_chk_find_cycles(checker *c)
{
	int rc;

	if ((rc = tf_chk_run_in_order(c)) < 0)
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

