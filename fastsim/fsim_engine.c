/*
 * fsim_engine.c -- the replay engine of fastsim.
 *
 * The semantics implemented here are those of fastsim/SEMANTICS.md; the
 * comments below refer to its sections.  In short: each PE runs its SEBs
 * in index order, one at a time; SEB i starts at the latest of the end of
 * SEB i-1 and the arrivals of the messages it awaits; its messages leave
 * at its start plus their (scaled) offsets and arrive when the intra-node
 * copy model or the network model says.
 *
 * Data layout, for memory and locality (thesis §4.1):
 *   - per PE: one packed window (the raw payload of the trace window
 *     being executed, decoded one SEB at a time), its mailbox, and a few
 *     times and counters -- no per-SEB structures at all;
 *   - the current-task pointer is the packed window's cursor: the head of
 *     SEB i+1 is decoded as soon as SEB i starts, which registers what
 *     i+1 awaits (the message-to-SEB map), and its body when it starts;
 *   - the event queue holds one event per SEB start, plus departures for
 *     network models whose timing depends on message order.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "fsim_engine.h"
#include "sib_util.h"

/* The shared functions, under their short names in this file. */
#define fail fsim_eng_fail
#define queue_start fsim_eng_queue_start
#define host_deliver fsim_eng_deliver
#define msg_alloc fsim_eng_msg_alloc


int fail(engine *e, const char *fmt, ...)
{
	if (e->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->err, e->errlen, fmt, ap);
	va_end(ap);
	e->failed = 1;
	return -1;
}

static int fail_trace(engine *e, int rc)
{
	return fail(e, "%s%s", sibt_trace_errmsg(e->t),
		    rc == SIBT_EFORMAT || rc == SIBT_ECRC ?
		    " (run 'sibyl trace check' for a full report)" : "");
}

/* ------------------------------------------------------------ names */

static uint32_t name_global(engine *e, const char *name)
{
	/* Names are few (one per distinct SEB name): a linear search at
	 * load time keeps this simple; it never runs per SEB. */
	for (uint32_t i = 0; i < e->nnames; i++)
		if (strcmp(e->names[i].name, name) == 0)
			return i;
	if (e->nnames == e->cap_names) {
		uint32_t cap = e->cap_names ? e->cap_names * 2 : 16;
		name_info *n = realloc(e->names, cap * sizeof *n);
		if (!n)
			return UINT32_MAX;
		e->names = n;
		e->cap_names = cap;
	}
	name_info *ni = &e->names[e->nnames];
	ni->name = name;
	fsim_rules_for_name(e->o->rules, name, &ni->rule);
	ni->plain = ni->rule.nrules == 0 && ni->rule.num == ni->rule.den;
	ni->vblock = fsim_var_for_name(e->var, name);
	return e->nnames++;
}

static int build_names(engine *e)
{
	e->nfiles = sibt_trace_nfiles(e->t);
	e->name_map = calloc(e->nfiles, sizeof *e->name_map);
	if (!e->name_map)
		return fail(e, "out of memory");
	for (uint32_t f = 0; f < e->nfiles; f++) {
		uint32_t n;
		const char *const *nm = sibt_trace_names(e->t, f, &n);
		e->name_map[f] = malloc((n ? n : 1) * sizeof(uint32_t));
		if (!e->name_map[f])
			return fail(e, "out of memory");
		for (uint32_t i = 0; i < n; i++) {
			uint32_t g = name_global(e, nm[i]);
			if (g == UINT32_MAX)
				return fail(e, "out of memory");
			e->name_map[f][i] = g;
		}
	}
	return 0;
}

/*
 * The end of time.  Every time the engine computes stays below it: a sum
 * that reaches it has overflowed (or been saturated by a network model,
 * which stops there too) and the run fails naming the PE, SEB or message
 * and the values, instead of going on with a clamped or wrapped time.
 */

/* A value for a message: a clamped one is shown as such. */
static const char *time_str(char *buf, size_t len, sib_ps t)
{
	if (t >= TIME_END)
		return "2^63-1 or more";
	snprintf(buf, len, "%" PRId64, t);
	return buf;
}

static const char time_hint[] = "is beyond the range of time (2^63-1 ps, "
	"about 106 days): check the trace's durations, cpu.factor, the "
	"replacement rules and the machine's latencies and bandwidths";

/* What overflowed in SEB `index' of p: `what' at `at' + `add' ps. */
static void seb_overflow(engine *e, uint32_t p, uint64_t index,
			 const char *what, sib_ps at, sib_ps add)
{
	char b[32];
	fail(e, "PE %u, SEB %" PRIu64 " (\"%s\"): %s, %" PRId64 " ps + %s ps, "
	     "%s", p, index, e->names[e->pes[p].name].name, what, at,
	     time_str(b, sizeof b, add), time_hint);
}

/* x * num / den, rounded to nearest (halves up), exactly. */
static sib_ps scale_time(sib_ps x, int64_t num, int64_t den)
{
	__int128 v = (__int128)x * num + den / 2;
	v /= den;
	return v > INT64_MAX ? INT64_MAX : (sib_ps)v;
}

/*
 * The duration an SEB of name `ni', region rules `rr' (NULL: none) and
 * traced duration `tdur' is simulated with (SEMANTICS §4): the first of
 * the name's seb: rules and the region's region: rules, in the order
 * given, that matches; else the name's scale times cpu.factor.  *how says
 * which, for the offsets.
 */
static sib_ps rule_duration(const name_info *ni, const fsim_durrule *rr,
			       sib_ps tdur, uint8_t *how)
{
	*how = HOW_SCALED;
	if (!rr || !rr->nrules) {
		if (ni->plain)
			return tdur;
		for (int r = 0; r < ni->rule.nrules; r++)
			if (ni->rule.cut[r] < 0 || tdur > ni->rule.cut[r]) {
				*how = HOW_REPLACED;
				return ni->rule.dur[r];
			}
		return scale_time(tdur, ni->rule.num, ni->rule.den);
	}
	const fsim_durrule *nr = &ni->rule;
	int a = 0, b = 0;
	while (a < nr->nrules || b < rr->nrules) {
		const fsim_durrule *d;
		int k;
		if (b < rr->nrules &&
		    (a >= nr->nrules || rr->order[b] < nr->order[a])) {
			d = rr;
			k = b++;
		} else {
			d = nr;
			k = a++;
		}
		if (d->cut[k] < 0 || tdur > d->cut[k]) {
			*how = HOW_REPLACED;
			return d->dur[k];
		}
	}
	return scale_time(tdur, nr->num, nr->den);
}

/* A send or print offset within the current SEB of pe, whose duration
 * the rules may have changed. */
static sib_ps rule_offset(const name_info *ni, const pe_t *pe,
			     sib_ps off)
{
	sib_ps tdur = pe->tdur, dur = pe->dur;

	if (dur == tdur)
		return off;
	if (pe->how == HOW_REPLACED) {
		if (tdur <= 0)
			return off;
		__int128 v = (__int128)off * dur / tdur;
		return v > INT64_MAX ? INT64_MAX : (sib_ps)v;
	}
	return scale_time(off, ni->rule.num, ni->rule.den);
}

/* ------------------------------------------------------ regions */

static size_t region_hash(const char *p, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 32) & (cap - 1);
}

static int regions_grow(engine *e)
{
	size_t cap = e->cap_regions ? e->cap_regions * 2 : 64;
	region_info *n = calloc(cap, sizeof *n);
	if (!n)
		return -1;
	for (size_t i = 0; i < e->cap_regions; i++) {
		if (!e->regions[i].region)
			continue;
		size_t j = region_hash(e->regions[i].region, cap);
		while (n[j].region)
			j = (j + 1) & (cap - 1);
		n[j] = e->regions[i];
	}
	free(e->regions);
	e->regions = n;
	e->cap_regions = cap;
	return 0;
}

/* The region: rules and variability of region string `region'
 * (resolved on first sight), or NULL after a failure. */
static const region_info *region_rules(engine *e, const char *region)
{
	if (2 * (e->nregions + 1) > e->cap_regions && regions_grow(e)) {
		fail(e, "out of memory");
		return NULL;
	}
	size_t j = region_hash(region, e->cap_regions);
	while (e->regions[j].region) {
		if (e->regions[j].region == region)
			return &e->regions[j];
		j = (j + 1) & (e->cap_regions - 1);
	}
	region_info *ri = &e->regions[j];
	if (fsim_rules_for_region(e->o->rules, region, &ri->rule)) {
		fail(e, "out of memory");
		return NULL;
	}
	ri->region = region;
	ri->vblock = fsim_var_for_region(e->var, region);
	e->nregions++;
	return ri;
}

/*
 * The duration of SEB s of p with variability (SEMANTICS §10): a draw
 * of the first block of its name or region takes the traced duration's
 * place before the rules, then the speed of its node or core applies;
 * its offsets scale with the duration.
 */
static sib_ps var_duration(engine *e, uint32_t p, const sibt_seb *s,
			   const region_info *ri, uint8_t *how)
{
	const name_info *ni = &e->names[e->pes[p].name];
	uint32_t b = ri && ri->vblock < ni->vblock ? ri->vblock : ni->vblock;
	sib_ps d = s->duration;
	if (b != FSIM_VAR_NONE) {
		d = fsim_var_draw(e->var, b, p, s->index);
		e->res->var_sebs++;
	}
	d = rule_duration(ni, ri ? &ri->rule : NULL, d, how);
	if (fsim_var_have_speed(e->var))
		d = fsim_var_speed(e->var, p, d);
	if (d != s->duration)
		*how = HOW_REPLACED;
	return d;
}

/* ------------------------------------------------------ windows */

/* Make the packed window of p hold its next SEB; 1 when there is none. */
static int next_window(engine *e, uint32_t p)
{
	pe_t *pe = &e->pes[p];
	if (pe->pk.left)
		return 0;
	uint64_t w = pe->pk.buf ? pe->pk.window + 1 : 0;
	if (w >= sibt_trace_nwindows(e->t, p)) {
		sibt_packed_release(&pe->pk);
		return 1;
	}
	int rc = sibt_trace_read_packed(e->t, p, w, &pe->pk);
	if (rc)
		return fail_trace(e, rc);
	e->res->windows_loaded++;
	return 0;
}

/* Does the SEB whose head was just decoded carry a marker that ends the
 * region?  Peeks at its body without consuming it. */
static int ends_region(engine *e, uint32_t p)
{
	sibt_packed peek = e->pes[p].pk;
	sibt_seb s;
	int rc = sibt_packed_body(e->t, &peek, e->scratch, &s);
	if (rc)
		return fail_trace(e, rc);
	for (uint32_t k = 0; k < s.nmarkers; k++) {
		const sibt_marker *mk = &s.markers[k];
		if (e->region == FSIM_REGION_MARKERS &&
		    mk->kind == SIBT_MARK_SKIP_END)
			return 1;
		if (e->region == FSIM_REGION_ITERS &&
		    (mk->kind == SIBT_MARK_SKIP_END ||
		     (mk->kind == SIBT_MARK_ITER &&
		      mk->value > e->o->iter_last)))
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------ scheduling */

void queue_start(engine *e, uint32_t p)
{
	pe_t *pe = &e->pes[p];
	sib_ps t = pe->ready > pe->free_at ? pe->ready : pe->free_at;
	if (t < e->now)
		t = e->now;
	pe->state = PE_QUEUED;
	if (fq_push(&e->q, t, (uint64_t)p << 2 | EV_START))
		fail(e, "out of memory (event queue)");
}

static void pe_finish(engine *e, uint32_t p)
{
	pe_t *pe = &e->pes[p];
	pe->state = PE_DONE;
	sibt_packed_release(&pe->pk);
	e->done_pes++;
}

/*
 * Make the next SEB of p current: decode its head, apply the rules to
 * its duration and register what it awaits (SEMANTICS §2).  Queues its
 * start when nothing is missing.
 */
static void activate_next(engine *e, uint32_t p)
{
	pe_t *pe = &e->pes[p];
	int r = next_window(e, p);
	if (r) {
		if (r > 0)
			pe_finish(e, p);
		return;
	}
	sibt_seb s;
	int rc = sibt_packed_head(e->t, &pe->pk, e->scratch, &s);
	if (rc) {
		fail_trace(e, rc);
		return;
	}
	if (e->region != FSIM_REGION_WHOLE) {
		int end = ends_region(e, p);
		if (end < 0)
			return;
		if (end) {
			pe->stopped = 1;
			pe_finish(e, p);
			return;
		}
	}
	uint32_t g = e->name_map[pe->file][pe->pk.name_id];
	const region_info *ri = NULL;
	if (e->have_regions && s.region && *s.region &&
	    !(ri = region_rules(e, s.region)))
		return;
	pe->name = g;
	pe->tdur = s.duration;
	pe->dur = e->var ? var_duration(e, p, &s, ri, &pe->how) :
		  rule_duration(&e->names[g], ri ? &ri->rule : NULL,
				s.duration, &pe->how);
	pe->ready = pe->free_at > pe->hold ? pe->free_at : pe->hold;
	pe->missing = 0;
	pe->nwaits = s.nwaits;
	for (uint32_t k = 0; k < s.nwaits; k++) {
		uint32_t src = s.waits[k].src;
		uint64_t seq = s.waits[k].seq;
		if (seq > UINT32_MAX) {
			fail(e, "PE %u, SEB %" PRIu64 ": awaits message %" PRIu64
			     " of PE %u; more than 2^32 messages from one PE "
			     "are not supported", p, s.index, seq, src);
			return;
		}
		if (e->start_seq && seq < e->start_seq[src])
			continue;     /* sent before the region: arrived */
		uint64_t key = mb_key(src, seq);
		mb_slot *sl = mb_find(&pe->mb, key);
		if (sl && sl->t != MB_AWAITED) {
			if (sl->t > pe->ready)
				pe->ready = sl->t;
			mb_remove(&pe->mb, sl);
		} else if (sl) {
			fail(e, "PE %u, SEB %" PRIu64 ": awaits message (PE %u, "
			     "seq %" PRIu64 ") twice", p, s.index, src, seq);
			return;
		} else {
			if (mb_insert(&pe->mb, key, MB_AWAITED)) {
				fail(e, "out of memory (mailboxes)");
				return;
			}
			pe->missing++;
			if (e->rdv)
				fsim_rdv_awaited(e, p, src, seq);
		}
	}
	if (e->rdv && s.ndone && fsim_rdv_done(e, p, &s))
		return;
	if (pe->missing == 0)
		queue_start(e, p);
	else
		pe->state = PE_WAITING;
}

/* Message (src, seq) reaches PE dst at time t (SEMANTICS §3). */
static void deliver(engine *e, uint32_t dst, uint32_t src, uint64_t seq,
		    sib_ps t)
{
	pe_t *pe = &e->pes[dst];
	uint64_t key = mb_key(src, seq);
	mb_slot *sl = mb_find(&pe->mb, key);
	e->res->msg_events++;
	if (sl && sl->t == MB_AWAITED) {
		mb_remove(&pe->mb, sl);
		if (t > pe->ready)
			pe->ready = t;
		if (--pe->missing == 0 && pe->state == PE_WAITING)
			queue_start(e, dst);
		return;
	}
	if (mb_insert(&pe->mb, key, t))
		fail(e, "out of memory (mailboxes)");
}

static void tl_msg(engine *e, const fmsg *m, sib_ps arrived)
{
	if (!e->ntl || !(e->tl_sel[m->nm.src_pe] || e->tl_sel[m->nm.dst_pe]))
		return;
	fsim_msg_rec r = {
		.src = m->nm.src_pe, .dst = m->nm.dst_pe, .seq = m->seq,
		.src_seb = m->src_seb, .tag = m->tag, .bytes = m->nm.bytes,
		.sent = m->nm.depart, .arrived = arrived,
	};
	for (size_t i = 0; i < e->ntl; i++)
		e->o->timelines[i]->msg(e->tl_state[i], &r);
}

/* What overflowed for message m. */
static void msg_overflow(engine *e, const fmsg *m, const char *what)
{
	fail(e, "message %" PRIu64 " of PE %u to PE %u (%" PRIu64 " bytes, "
	     "sent at %" PRId64 " ps): %s", m->seq, m->nm.src_pe, m->nm.dst_pe,
	     m->nm.bytes, m->nm.depart, what);
}

void host_deliver(void *ctx, uint64_t token, sib_ps t)
{
	engine *e = ctx;
	fmsg *m = (fmsg *)(uintptr_t)token;
	if (t >= TIME_END) {
		/* The network model saturated: its sum overflowed. */
		msg_overflow(e, m, "its arrival through the network is beyond "
			     "the range of time (2^63-1 ps): check the net.* "
			     "latencies and bandwidths and the message sizes");
		return;
	}
	if (fsim_var_have_net(e->var) && m->nm.src_node != m->nm.dst_node) {
		/* SEMANTICS §10: the network time times a drawn factor */
		sib_ps x = fsim_var_net(e->var, m->nm.src_pe, m->seq,
					m->nm.bytes, t - m->nm.depart);
		if (time_add(m->nm.depart, x, &t)) {
			msg_overflow(e, m, "its arrival with network jitter "
				     "is beyond the range of time");
			return;
		}
		if (!(e->net->flags & NETM_IMMEDIATE) && t < e->now)
			t = e->now;
		e->res->var_messages++;
	}
	tl_msg(e, m, t);
	deliver(e, m->nm.dst_pe, m->nm.src_pe, m->seq, t);
	if (m->next != m) {          /* pooled (not on the stack) */
		m->next = e->free_msgs;
		e->free_msgs = m;
	}
}

static void host_schedule(void *ctx, sib_ps t, void *arg)
{
	engine *e = ctx;
	uintptr_t a = (uintptr_t)arg;
	if (a & 3) {
		fail(e, "internal error: a network model scheduled an event "
		     "with a misaligned argument");
		return;
	}
	if (t >= TIME_END) {
		fail(e, "the network model scheduled an event beyond the range "
		     "of time (2^63-1 ps) at %" PRId64 " ps: check the net.* "
		     "latencies and bandwidths and the message sizes", e->now);
		return;
	}
	if (t < e->now)
		t = e->now;
	if (fq_push(&e->q, t, (uint64_t)a | EV_NET))
		fail(e, "out of memory (event queue)");
}

static void host_link_busy(void *ctx, uint32_t link, sib_ps start,
			   sib_ps end, uint64_t bytes)
{
	engine *e = ctx;
	char msg[1024];
	(void)bytes;
	if (e->failed)
		return;
	int rc = fsim_series_add(e->series, link, start, end, msg, sizeof msg);
	if (rc) {
		e->config_error = rc == SIB_ECONFIG;
		fail(e, "%s", msg);
	}
}

fmsg *msg_alloc(engine *e)
{
	if (!e->free_msgs) {
		enum { N = 4096 };
		fmsg *blk = malloc(N * sizeof *blk);
		fmsg **mb = realloc(e->msg_blocks,
				    (e->nmsg_blocks + 1) * sizeof *mb);
		if (!blk || !mb) {
			free(blk);
			if (mb)
				e->msg_blocks = mb;
			return NULL;
		}
		e->msg_blocks = mb;
		e->msg_blocks[e->nmsg_blocks++] = blk;
		for (int i = 0; i < N; i++) {
			blk[i].next = e->free_msgs;
			e->free_msgs = &blk[i];
		}
	}
	fmsg *m = e->free_msgs;
	e->free_msgs = m->next;
	m->next = NULL;
	return m;
}

sib_ps fsim_eng_copy(engine *e, uint32_t p, sib_ps t, uint64_t n,
		     sib_ps x)
{
	const fsim_machine *m = e->m;
	pe_t *pe = &e->pes[p];
	sib_ps end, turn = x, next;

	if (!m->intra_serialize)
		return time_add(t, x, &end) ? TIME_END : end;
	if (pe->copy_free > t)
		t = pe->copy_free;
	if (m->intra_stream.n) {
		const netm_piece *pc = netm_pieces_find(&m->intra_stream, n);
		if (time_add(pc->latency, netm_xfer_time(n, pc->bandwidth),
			     &turn))
			return TIME_END;
	}
	if (time_add(t, x, &end) || time_add(t, turn, &next))
		return TIME_END;
	pe->copy_free = next;
	return end;
}

/* Hand one message to the intra-node model or the network. */
static void send_msg(engine *e, fmsg *m)
{
	if (m->rdv) {
		fsim_rdv_data(e, m);    /* a rendezvous message's data */
		return;
	}
	fsim_result *r = e->res;
	r->messages++;
	/* The byte counts are sums of accepted sizes: checked, like times
	 * (intra_bytes and net_bytes are parts of bytes). */
	if (__builtin_add_overflow(r->bytes, m->nm.bytes, &r->bytes)) {
		msg_overflow(e, m, "the total of bytes sent goes beyond "
			     "2^64-1: check the message sizes and the size "
			     "replacement rules");
		return;
	}
	int intra = m->nm.src_node == m->nm.dst_node;
	if (intra) {
		r->intra_messages++;
		r->intra_bytes += m->nm.bytes;
	} else {
		r->net_messages++;
		r->net_bytes += m->nm.bytes;
	}
	const netm_piece *pc = m->pc;
	if (pc && pc->rendezvous && fsim_rdv_send(e, m, pc))
		return;
	if (!intra) {
		e->net->ops->send(e->net, &m->nm);
		return;
	}
	sib_ps lat = e->m->intra_latency, os = 0, orecv = 0, x, a;
	int64_t bw = e->m->intra_bandwidth;
	if (pc) {
		lat = pc->latency;
		bw = pc->bandwidth;
		os = netm_piece_os(pc, m->nm.bytes);
		orecv = pc->or;
	}
	x = netm_xfer_time(m->nm.bytes, bw);
	if (time_add(m->nm.depart, os, &a) || time_add(a, lat, &a) ||
	    (a = fsim_eng_copy(e, m->nm.dst_pe, a, m->nm.bytes, x)) ==
	    TIME_END ||
	    time_add(a, orecv, &a)) {
		msg_overflow(e, m, "its arrival through the intra-node "
			     "copy model (intranode.latency + bytes / "
			     "intranode.bandwidth, or its protocols) "
			     "is beyond the range of time (2^63-1 ps)");
		return;
	}
	host_deliver(e, (uint64_t)(uintptr_t)m, a);
}

/* One print: a line per line of its text (docs/outputs.md). */
static void put_print(FILE *f, sib_ps at, uint32_t p, const char *text,
		      uint32_t len)
{
	while (len && text[len - 1] == '\n')
		len--;
	do {
		const char *nl = memchr(text, '\n', len);
		uint32_t l = nl ? (uint32_t)(nl - text) : len;
		fprintf(f, "%" PRId64 " ps  PE %u  %.*s\n", at, p, (int)l,
			text);
		text += l + (nl != NULL);
		len -= l + (nl != NULL);
	} while (len);
}

/* Run the current SEB of p, which starts now (SEMANTICS §2-3). */
static void start_seb(engine *e, uint32_t p)
{
	pe_t *pe = &e->pes[p];
	sibt_seb s;
	int rc = sibt_packed_body(e->t, &pe->pk, e->scratch, &s);
	if (rc) {
		fail_trace(e, rc);
		return;
	}
	sib_ps start = e->now, end;
	if (time_add(start, pe->dur, &end)) {
		seb_overflow(e, p, s.index, "its end", start, pe->dur);
		return;
	}
	const name_info *ni = &e->names[pe->name];
	fsim_result *r = e->res;
	uint32_t snode = fsim_node_of(e->m, p);
	/* Noise (SEMANTICS §9): one cursor for the SEB's end, one for its
	 * sends and prints, whose offsets mostly grow. */
	noise_cursor ncur;
	if (e->noise) {
		noise_cursor_init(e->noise, snode, fsim_core_of(e->m, p), start,
				  &ncur);
		noise_cursor nend = ncur;
		if (noise_cursor_at(&nend, pe->dur, &end, e->err, e->errlen)) {
			e->failed = 1;
			return;
		}
		if (end >= TIME_END) {
			seb_overflow(e, p, s.index, "its end with noise", start,
				     pe->dur);
			return;
		}
		e->noise_pe[p] += end - start - pe->dur;
	}

	/* busy and noise_pe cannot overflow: a PE's SEBs do not overlap,
	 * so they stay below the end of its last SEB. */
	r->seb_events++;
	pe->busy += pe->dur;
	pe->free_at = end;
	if (end > r->predicted)
		r->predicted = end;
	if (e->rdv && s.nposted)
		fsim_rdv_posted(e, p, &s, end);

	if (e->ntl && e->tl_sel[p]) {
		fsim_seb_rec rec = {
			.pe = p, .name = pe->name, .index = s.index,
			.start = start, .end = end, .nsends = s.nsends,
			.nwaits = pe->nwaits,
		};
		for (size_t i = 0; i < e->ntl; i++)
			e->o->timelines[i]->seb(e->tl_state[i], &rec);
	}
	for (uint32_t k = 0; k < s.nprints; k++) {
		sib_ps at, off = rule_offset(ni, pe, s.prints[k].offset);
		if (time_add(start, off, &at)) {
			seb_overflow(e, p, s.index, "a print", start, off);
			return;
		}
		if (e->noise && noise_cursor_at(&ncur, at - start, &at, e->err,
						e->errlen)) {
			e->failed = 1;
			return;
		}
		put_print(e->prints, at, p, s.prints[k].text,
			  s.prints[k].len);
		r->prints++;
	}

	/* Deliveries touch the receivers' state and mailboxes, usually in
	 * other cache lines: fetch them all before the first is needed. */
	for (uint32_t k = 0; k < s.nsends; k++)
		__builtin_prefetch(&e->pes[s.sends[k].dst].mb, 1);
	for (uint32_t k = 0; k < s.nsends; k++) {
		const mb_box *b = &e->pes[s.sends[k].dst].mb;
		if (b->s)
			__builtin_prefetch(&b->s[mb_hash(mb_key(p,
				s.first_seq + k), b->cap)], 1);
	}

	int immediate = e->net->flags & NETM_IMMEDIATE;
	for (uint32_t k = 0; k < s.nsends && !e->failed; k++) {
		const sibt_send *sd = &s.sends[k];
		uint64_t seq = s.first_seq + k;
		if (seq > UINT32_MAX) {
			fail(e, "PE %u sends more than 2^32 messages, which is "
			     "not supported", p);
			return;
		}
		fmsg stack_msg, *m = &stack_msg;
		sib_ps off = rule_offset(ni, pe, sd->offset);
		if (e->noise && off > 0) {
			sib_ps t;
			if (noise_cursor_at(&ncur, off, &t, e->err, e->errlen)) {
				e->failed = 1;
				return;
			}
			off = t - start;
		}
		uint32_t dnode = fsim_node_of(e->m, sd->dst);
		int now_ok = immediate || off == 0 || dnode == snode;
		/* Only a message delivered inside send_msg() may live on
		 * the stack: a model that is not immediate may deliver a
		 * message sent now much later, from one of its events. */
		if (!immediate && dnode != snode) {
			m = msg_alloc(e);
			if (!m) {
				fail(e, "out of memory (messages in flight)");
				return;
			}
		} else {
			m->next = m;         /* marks a stack message */
		}
		m->nm.token = (uint64_t)(uintptr_t)m;
		m->nm.src_pe = p;
		m->nm.dst_pe = sd->dst;
		m->nm.src_node = snode;
		m->nm.dst_node = dnode;
		m->nm.bytes = fsim_rules_size(e->o->rules, sd->size);
		if (time_add(start, off, &m->nm.depart)) {
			seb_overflow(e, p, s.index, "the departure of a message",
				     start, off);
			return;
		}
		m->seq = seq;
		m->src_seb = s.index;
		m->tag = sd->tag;
		m->rdv = 0;
		m->pc = e->has_pieces ? fsim_rdv_piece(e, m) : NULL;
		if (m->pc) {
			/* Its range's send overhead keeps the CPU. */
			sib_ps h;
			if (!time_add(m->nm.depart,
				      netm_piece_os(m->pc, m->nm.bytes), &h) &&
			    h > pe->hold)
				pe->hold = h;
		}
		if (now_ok)
			send_msg(e, m);
		else if (fq_push(&e->q, m->nm.depart,
				 (uint64_t)(uintptr_t)m | EV_DEPART))
			fail(e, "out of memory (event queue)");
	}
	if (e->failed)
		return;
	activate_next(e, p);
}

/* --------------------------------------------------------- the region */

/* Does this SEB carry the marker that starts the region? */
static int starts_region(const engine *e, const sibt_seb *s)
{
	for (uint32_t k = 0; k < s->nmarkers; k++) {
		const sibt_marker *mk = &s->markers[k];
		if (e->region == FSIM_REGION_MARKERS &&
		    mk->kind == SIBT_MARK_SKIP_START)
			return 1;
		if (e->region == FSIM_REGION_ITERS &&
		    mk->kind == SIBT_MARK_ITER && mk->value == e->o->iter_first)
			return 1;
	}
	return 0;
}

/* Position every PE on the first SEB of the region (SEMANTICS §5). */
static int seek_region(engine *e)
{
	e->start_seq = calloc(e->npes, sizeof *e->start_seq);
	if (!e->start_seq)
		return fail(e, "out of memory");
	for (uint32_t p = 0; p < e->npes; p++) {
		pe_t *pe = &e->pes[p];
		for (;;) {
			int r = next_window(e, p);
			if (r < 0)
				return -1;
			if (r > 0) {
				if (e->region == FSIM_REGION_MARKERS)
					return fail(e, "PE %u has no skip-start "
						    "marker: the trace cannot "
						    "be simulated between "
						    "markers (simulate it "
						    "whole, or with --iters)",
						    p);
				return fail(e, "PE %u has no SEB marked "
					    "iteration %" PRId64 ": see 'sibyl "
					    "trace stats' for the iterations "
					    "the trace holds", p,
					    e->o->iter_first);
			}
			sibt_packed save = pe->pk;
			sibt_seb s;
			int rc = sibt_packed_head(e->t, &pe->pk, e->scratch, &s);
			if (!rc)
				rc = sibt_packed_body(e->t, &pe->pk, e->scratch,
						      &s);
			if (rc)
				return fail_trace(e, rc);
			if (starts_region(e, &s)) {
				pe->pk = save;   /* rewind to its head */
				e->start_seq[p] = save.next_seq;
				break;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------ outputs */

static int open_outputs(engine *e)
{
	e->tmpdir = e->o->stage;
	char path[4096];
	snprintf(path, sizeof path, "%s/prints.txt", e->tmpdir);
	e->prints = fopen(path, "w");
	if (!e->prints)
		return fail(e, "%s: %s", path, strerror(errno));
	snprintf(path, sizeof path, "%s/machine.conf", e->tmpdir);
	FILE *f = fopen(path, "w");
	if (!f)
		return fail(e, "%s: %s", path, strerror(errno));
	fprintf(f, "# machine description of this run (sibyl sim)\n");
	int wr = fsim_config_write(e->o->cfg, f);
	if (fclose(f) || wr)
		return fail(e, "%s: write error", path);

	size_t ntl = 0;
	while (e->o->timelines && e->o->timelines[ntl])
		ntl++;
	if (!ntl)
		return 0;
	e->tl_state = calloc(ntl, sizeof *e->tl_state);
	uint8_t *sel = malloc(e->npes);
	if (!e->tl_state || !sel) {
		free(sel);
		return fail(e, "out of memory");
	}
	uint32_t nsel = 0;
	for (uint32_t p = 0; p < e->npes; p++) {
		sel[p] = e->o->tl_selected ? e->o->tl_selected[p] != 0 : 1;
		nsel += sel[p];
	}
	e->tl_sel = sel;
	const char **names = malloc((e->nnames ? e->nnames : 1) *
				    sizeof *names);
	if (!names)
		return fail(e, "out of memory");
	e->tl_names = names;
	for (uint32_t i = 0; i < e->nnames; i++)
		names[i] = e->names[i].name;
	fsim_out_info info = {
		.trace = e->o->trace, .npes = e->npes, .machine = e->m,
		.selected = sel, .nselected = nsel, .names = names,
		.nnames = e->nnames,
	};
	for (size_t i = 0; i < ntl; i++) {
		char msg[1024] = "";
		if (e->o->timelines[i]->open(&e->tl_state[i], e->tmpdir, &info,
					     msg, sizeof msg)) {
			return fail(e, "timeline '%s': %s",
				    e->o->timelines[i]->name, msg);
		}
		e->ntl = i + 1;
	}
	return 0;
}

static int close_timelines(engine *e, int ok)
{
	int rc = 0;
	for (size_t i = 0; i < e->ntl; i++) {
		char msg[1024] = "";
		if (e->o->timelines[i]->close(e->tl_state[i],
					      e->res->predicted, msg,
					      sizeof msg) && ok && !rc)
			rc = fail(e, "timeline '%s': %s",
				  e->o->timelines[i]->name, msg);
	}
	e->ntl = 0;
	return rc;
}

/* ------------------------------------------------------ diagnostics */

/* The destination the trace gives send `seq' of `src', or UINT32_MAX. */
static uint32_t send_dst(engine *e, uint32_t src, uint64_t seq)
{
	uint64_t w;
	uint32_t dst = UINT32_MAX;
	sibt_window *win = sibt_window_new();
	if (win && sibt_trace_find_send_window(e->t, src, seq, &w) == 0 &&
	    sibt_trace_read_window(e->t, src, w, win) == 0) {
		for (uint32_t i = 0; i < sibt_window_nsebs(win); i++) {
			const sibt_seb *s = sibt_window_seb(win, i);
			if (seq >= s->first_seq && seq - s->first_seq < s->nsends)
				dst = s->sends[seq - s->first_seq].dst;
		}
	}
	sibt_window_free(win);
	return dst;
}

/* Explain why message (src, seq) awaited by PE p never came. */
static void why_missing(engine *e, uint32_t p, uint32_t src, uint64_t seq,
			char *buf, size_t len)
{
	uint64_t nsends = sibt_trace_nsends(e->t, src);
	const pe_t *sp = &e->pes[src];
	if (seq >= nsends) {
		snprintf(buf, len, "PE %u sends only %" PRIu64 " message%s: "
			 "this one is never sent", src, nsends,
			 nsends == 1 ? "" : "s");
		return;
	}
	uint32_t dst = send_dst(e, src, seq);
	if (dst != UINT32_MAX && dst != p) {
		snprintf(buf, len, "it was sent to PE %u, not to PE %u", dst,
			 p);
		return;
	}
	if (sp->state == PE_DONE && sp->stopped)
		snprintf(buf, len, "PE %u stopped at the end of the region "
			 "before sending it", src);
	else if (sp->state == PE_WAITING)
		snprintf(buf, len, "PE %u has not sent it yet and is stuck "
			 "itself", src);
	else
		snprintf(buf, len, "PE %u has not sent it", src);
}

static void report_stall(engine *e)
{
	size_t off = 0, n = 0, stuck = 0;
	char *b = e->err;
	size_t len = e->errlen;
	size_t rdv = 0;
	for (uint32_t p = 0; p < e->npes; p++) {
		stuck += e->pes[p].state != PE_DONE;
		if (e->pes[p].state != PE_DONE)
			rdv += fsim_rdv_stuck(e, p, NULL, 0);
	}
	off += (size_t)snprintf(b + off, len - off, "the replay stalled "
		"after %" PRId64 " ps: nothing can run, but %zu PE%s %s SEBs "
		"left (%s):", e->res->predicted, stuck,
		stuck == 1 ? "" : "s", stuck == 1 ? "has" : "have",
		rdv ? "senders wait for rendezvous messages whose receives "
		"are not posted: the program deadlocks under the machine's "
		"sync=rendezvous ranges" : "the trace does not close; 'sibyl "
		"trace check' finds such defects");
	for (uint32_t p = 0; p < e->npes && off < len && n < 8; p++) {
		pe_t *pe = &e->pes[p];
		if (pe->state == PE_DONE)
			continue;
		n++;
		off += (size_t)snprintf(b + off, len - off, "\n  PE %u, SEB "
			"%" PRIu64 " (\"%s\") waits for %u message%s or "
			"completion%s:", p, pe->pk.next_index,
			e->names[pe->name].name, pe->missing,
			pe->missing == 1 ? "" : "s",
			pe->missing == 1 ? "" : "s");
		if (off < len)
			off += fsim_rdv_stuck(e, p, b + off, len - off) ?
			       strlen(b + off) : 0;
		unsigned shown = 0;
		for (uint32_t i = 0; i < pe->mb.cap && off < len; i++) {
			mb_slot *sl = &pe->mb.s[i];
			if (sl->key == MB_EMPTY || sl->t != MB_AWAITED)
				continue;
			if (shown++ == 4) {
				off += (size_t)snprintf(b + off, len - off,
							" ...");
				break;
			}
			char why[256];
			uint32_t src = (uint32_t)(sl->key >> 32);
			uint64_t seq = (uint32_t)sl->key;
			why_missing(e, p, src, seq, why, sizeof why);
			off += (size_t)snprintf(b + off, len - off,
				"\n    message %" PRIu64 " of PE %u: %s", seq,
				src, why);
		}
	}
	if (stuck > n && off < len)
		snprintf(b + off, len - off, "\n  ... and %zu more PE%s",
			 stuck - n, stuck - n == 1 ? "" : "s");
	e->failed = 1;
}

/* After a complete replay: messages delivered that no SEB consumed. */
static int check_leftovers(engine *e)
{
	uint64_t left = 0;
	uint32_t first_dst = 0;
	uint64_t first_key = 0;
	sib_ps first_t = 0;
	for (uint32_t p = 0; p < e->npes; p++) {
		mb_box *b = &e->pes[p].mb;
		for (uint32_t i = 0; b->n && i < b->cap; i++) {
			if (b->s[i].key == MB_EMPTY)
				continue;
			if (!left++) {
				first_dst = p;
				first_key = b->s[i].key;
				first_t = b->s[i].t;
			}
		}
	}
	if (!left)
		return 0;
	if (e->region != FSIM_REGION_WHOLE) {
		e->res->boundary_messages = left;
		return 0;
	}
	return fail(e, "the trace does not close: %" PRIu64 " message%s "
		    "delivered but never awaited, e.g. message %u of PE %u "
		    "to PE %u (arrived at %" PRId64 " ps); run 'sibyl trace "
		    "check' for the full list", left, left == 1 ? " was" :
		    "s were", (uint32_t)first_key, (uint32_t)(first_key >> 32),
		    first_dst, first_t);
}

static int pe_stats(engine *e)
{
	fsim_result *r = e->res;
	fsim_stat *b = &r->busy, *i = &r->idle;
	fsim_stat *n = &r->noise_pe;
	double sb = 0, si = 0;
	for (uint32_t p = 0; p < e->npes; p++) {
		sib_ps busy = e->pes[p].busy;
		sib_ps noise = e->noise_pe ? e->noise_pe[p] : 0;
		sib_ps idle = r->predicted - busy - noise;
		if (r->noise) {
			if (p == 0 || noise < n->min) { n->min = noise; n->min_pe = p; }
			if (p == 0 || noise > n->max) { n->max = noise; n->max_pe = p; }
			if (__builtin_add_overflow(r->noise_total, noise,
						   &r->noise_total))
				return fail(e, "the noise of PE %u (%" PRId64
					    " ps) makes the total noise over "
					    "all PEs %s", p, noise, time_hint);
		}
		if (p == 0 || busy < b->min) { b->min = busy; b->min_pe = p; }
		if (p == 0 || busy > b->max) { b->max = busy; b->max_pe = p; }
		if (p == 0 || idle < i->min) { i->min = idle; i->min_pe = p; }
		if (p == 0 || idle > i->max) { i->max = idle; i->max_pe = p; }
		sb += (double)busy;
		si += (double)idle;
	}
	b->mean = e->npes ? sb / e->npes : 0;
	i->mean = e->npes ? si / e->npes : 0;
	n->mean = e->npes ? (double)r->noise_total / e->npes : 0;
	return 0;
}

static int write_summaries(engine *e)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/summary.txt", e->tmpdir);
	FILE *f = fopen(path, "w");
	if (!f)
		return fail(e, "%s: %s", path, strerror(errno));
	fsim_result_print(e->res, e->o, f);
	if (fclose(f))
		return fail(e, "%s: write error", path);
	snprintf(path, sizeof path, "%s/summary.json", e->tmpdir);
	f = fopen(path, "w");
	if (!f)
		return fail(e, "%s: %s", path, strerror(errno));
	fsim_result_json(e->res, e->o, f);
	if (fclose(f))
		return fail(e, "%s: write error", path);
	return 0;
}

/* links.csv, link_classes.csv and linkseries.csv (docs/links.md). */
static int write_links(engine *e)
{
	char msg[1024];
	if (fsim_links_write(e->net, e->tmpdir, e->res, msg, sizeof msg))
		return fail(e, "%s", msg);
	if (e->series && fsim_series_write(e->series, e->net, e->tmpdir,
					   e->res->predicted, msg,
					   sizeof msg))
		return fail(e, "%s", msg);
	return 0;
}

/* ------------------------------------------------------------ the run */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void describe_region(engine *e)
{
	fsim_result *r = e->res;
	switch (e->region) {
	case FSIM_REGION_MARKERS:
		snprintf(r->region, sizeof r->region, "between the skip "
			 "markers (each PE from its first skip-start marker "
			 "to its next skip-end marker)");
		break;
	case FSIM_REGION_ITERS:
		snprintf(r->region, sizeof r->region, "iterations %" PRId64
			 " to %" PRId64 " (from the SEB marked iteration %"
			 PRId64 " to the first SEB marked with a later "
			 "iteration, or a skip end)", e->o->iter_first,
			 e->o->iter_last, e->o->iter_first);
		break;
	default:
		snprintf(r->region, sizeof r->region, "the whole trace");
	}
}

/* Load noise.dir and instantiate it for this run (SEMANTICS §9). */
static int setup_noise(engine *e, uint64_t sim_seed)
{
	const fsim_config *c = e->o->cfg;
	const sib_value *dir = fsim_config_get(c, "noise", "dir");
	const sib_value *seed = fsim_config_get(c, "noise", "seed");
	const sib_value *scale = fsim_config_get(c, "noise", "scale");
	const sib_value *cosched = fsim_config_get(c, "noise", "cosched");
	char msg[2048];
	noise_set *set;

	if (!dir || !dir->s || !dir->s[0])
		return 0;
	e->res->noise = 1;
	e->config_error = 1;
	if (noise_set_load(&set, dir->s, msg, sizeof msg))
		return fail(e, "noise.dir: %s", msg);
	noise_params np = {
		.seed = seed && seed->i >= 0 ? (uint64_t)seed->i : sim_seed,
		.scale_num = scale ? scale->num : 1,
		.scale_den = scale ? scale->den : 1,
		.cosched = cosched && cosched->i,
	};
	e->res->noise_seed = np.seed;
	int rc = noise_inj_new(&e->noise, set, &np, msg, sizeof msg);
	noise_set_free(set);
	if (rc)
		return fail(e, "noise.dir '%s': %s", dir->s, msg);
	e->config_error = 0;
	if (!noise_inj_active(e->noise)) {
		noise_inj_free(e->noise);    /* nothing to delay: no cost */
		e->noise = NULL;
		return 0;
	}
	e->noise_pe = calloc(e->npes ? e->npes : 1, sizeof *e->noise_pe);
	if (!e->noise_pe)
		return fail(e, "out of memory for the noise of %u PEs",
			    e->npes);
	return 0;
}

static int engine_setup(engine *e)
{
	const fsim_opts *o = e->o;
	char msg[2048];
	int rc = sibt_trace_open_in(&e->t, o->trace, 0, o->scratch, msg,
				    sizeof msg);
	if (rc < 0)
		return fail(e, "%s", msg);
	if (rc == SIBT_WARN)
		return fail(e, "%s: the trace is damaged (%s); a partial trace "
			    "cannot be replayed faithfully: run 'sibyl trace "
			    "check %s' for the damage report", o->trace,
			    sibt_trace_damage(e->t, 0)->detail, o->trace);
	e->npes = sibt_trace_npes(e->t);
	e->res->npes = e->npes;
	if (fsim_machine_build(&e->m, o->cfg, e->npes, msg, sizeof msg)) {
		e->config_error = 1;
		return fail(e, "%s", msg);
	}
	e->res->nnodes = e->m->nnodes;
	if (fsim_var_new(&e->var, o->cfg, e->m, msg, sizeof msg)) {
		e->config_error = 1;
		return fail(e, "%s", msg);
	}
	e->res->variability = e->var != NULL;
	e->res->var_seed = fsim_var_seed(e->var);

	const netm_ops *ops = fsim_config_model(o->cfg);
	const sib_value *seed = fsim_config_get(o->cfg, "sim", "seed");
	netm_setup su = {
		.nnodes = e->m->nnodes, .npes = e->npes,
		.values = fsim_config_model_values(o->cfg),
		.seed = seed ? (uint64_t)seed->i : 1,
	};
	e->host.ctx = e;
	e->host.schedule = host_schedule;
	e->host.deliver = host_deliver;
	if (o->link_interval) {
		if (fsim_series_new(&e->series, o->link_interval, msg,
				    sizeof msg)) {
			e->config_error = 1;
			return fail(e, "%s", msg);
		}
		e->host.link_busy = host_link_busy;
	}
	if (ops->create(&e->net, &su, &e->host, msg, sizeof msg)) {
		e->config_error = 1;
		return fail(e, "network model '%s': %s", ops->name, msg);
	}
	if (e->series && fsim_series_select(e->series, e->net, o->link_select,
					    msg, sizeof msg)) {
		e->config_error = 1;
		return fail(e, "%s", msg);
	}

	if (setup_noise(e, seed ? (uint64_t)seed->i : 1))
		return -1;

	e->scratch = sibt_window_new();
	e->pes = calloc(e->npes, sizeof *e->pes);
	if (!e->scratch || !e->pes)
		return fail(e, "out of memory for %u PEs", e->npes);
	for (uint32_t p = 0; p < e->npes; p++)
		e->pes[p].file = sibt_trace_file_of_pe(e->t, p);
	e->has_pieces = e->m->intra_pieces.n ||
			(e->net->ops->pieces && e->net->ops->pieces(e->net));
	if (fsim_rdv_setup(e) || build_names(e))
		return -1;
	e->have_regions = fsim_rules_have_regions(o->rules) ||
			  fsim_var_have_regions(e->var);
	sibt_totals tot;
	sibt_trace_totals(e->t, &tot);
	e->total_estimate = tot.sebs;
	e->region = o->region;
	describe_region(e);
	return open_outputs(e);
}

static void run_loop(engine *e)
{
	fq_item it;
	uint64_t tick = 0;
	int r;
	while (!e->failed && (r = fq_pop(&e->q, &it)) > 0) {
		e->now = it.t;
		switch (it.arg & 3) {
		case EV_START:
			start_seb(e, (uint32_t)(it.arg >> 2));
			break;
		case EV_DEPART:
			send_msg(e, (fmsg *)(uintptr_t)(it.arg & ~UINT64_C(3)));
			break;
		default:
			e->net->ops->event(e->net, e->now,
				(void *)(uintptr_t)(it.arg & ~UINT64_C(3)));
		}
		if (e->o->progress && ++tick % 65536 == 0)
			e->o->progress(e->o->progress_arg,
				       e->res->seb_events, e->total_estimate);
	}
	if (r < 0)
		fail(e, "out of memory (event queue)");
}

static void engine_free(engine *e)
{
	if (e->pes) {
		for (uint32_t p = 0; p < e->npes; p++) {
			sibt_packed_release(&e->pes[p].pk);
			mb_free(&e->pes[p].mb);
		}
		free(e->pes);
	}
	fsim_rdv_free(e);
	if (e->ntl)
		close_timelines(e, 0);
	if (e->prints)
		fclose(e->prints);
	free(e->tl_state);
	free((void *)e->tl_sel);
	free(e->tl_names);
	for (size_t i = 0; i < e->nmsg_blocks; i++)
		free(e->msg_blocks[i]);
	free(e->msg_blocks);
	for (uint32_t f = 0; e->name_map && f < e->nfiles; f++)
		free(e->name_map[f]);
	free(e->name_map);
	free(e->names);
	for (size_t i = 0; i < e->cap_regions; i++)
		if (e->regions[i].region)
			fsim_durrule_release(&e->regions[i].rule);
	free(e->regions);
	free(e->start_seq);
	fsim_series_free(e->series);
	noise_inj_free(e->noise);
	free(e->noise_pe);
	fsim_var_free(e->var);
	fq_free(&e->q);
	if (e->net)
		e->net->ops->destroy(e->net);
	if (e->m)
		fsim_machine_free(e->m);
	if (e->scratch)
		sibt_window_free(e->scratch);
	if (e->t)
		sibt_trace_close(e->t);
}

int fsim_run(const fsim_opts *o, fsim_result *res, char *err, size_t errlen)
{
	engine e;
	memset(&e, 0, sizeof e);
	memset(res, 0, sizeof *res);
	e.o = o;
	e.res = res;
	e.err = err;
	e.errlen = errlen;
	res->outdir = o->outdir;
	double t0 = now_s();

	if (!o->outdir || !o->stage || !o->cfg || !o->rules) {
		fail(&e, "fsim_run: missing output directory, configuration "
		     "or rules");
		goto out;
	}
	if (engine_setup(&e))
		goto out;
	if (e.region != FSIM_REGION_WHOLE && seek_region(&e))
		goto out;
	/* Every PE's first SEB becomes current at time 0. */
	for (uint32_t p = 0; p < e.npes && !e.failed; p++)
		activate_next(&e, p);
	run_loop(&e);
	if (e.failed)
		goto out;
	if (e.done_pes < e.npes) {
		report_stall(&e);
		goto out;
	}
	if (check_leftovers(&e))
		goto out;
	res->sebs = res->seb_events;
	res->events = res->seb_events + res->msg_events;
	if (e.net->ops->totals)
		e.net->ops->totals(e.net, &res->net);
	if (pe_stats(&e) || close_timelines(&e, 1))
		goto out;
	if (fflush(e.prints) || ferror(e.prints)) {
		fail(&e, "%s/prints.txt: write error", e.tmpdir);
		goto out;
	}
	fclose(e.prints);
	e.prints = NULL;
	res->wall_s = now_s() - t0;
	res->events_per_s = res->wall_s > 0 ? res->events / res->wall_s : 0;
	res->peak_rss = sib_peak_rss();
	if (write_links(&e) || write_summaries(&e))
		goto out;
out:
	engine_free(&e);
	if (e.failed)
		fsim_result_free(res);
	return e.failed ? (e.config_error ? SIB_ECONFIG : SIB_EFAIL) : 0;
}

void fsim_result_free(fsim_result *r)
{
	free(r->link_classes);
	r->link_classes = NULL;
	r->nlink_classes = 0;
}
