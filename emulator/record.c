/*
 * record.c -- cutting each virtual rank's execution into SEBs and writing
 * them to the trace.
 *
 * A rank's SEB ends when it enters a communication call and the next one
 * begins when the call returns; the time in between (the runtime's own
 * work, waiting, other ranks running) belongs to no SEB.  The ended SEB is
 * kept open for the duration of the call: the sends the call makes, and
 * the synchronous-send acknowledgements the rank gives while suspended in
 * it, are added at its end.  The messages the call consumes become the
 * waits of the next SEB.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emu_private.h"

static int64_t scale(int64_t ns)
{
	if (ns <= 0)
		return 0;
	return (int64_t)llround((double)ns * 1000.0 * emu.cpu_factor);
}

#define GROW(arr, n, cap)                                                \
	do {                                                             \
		if ((n) == (cap)) {                                      \
			uint32_t c_ = (cap) ? 2 * (cap) : 4;             \
			void *p_ = realloc((arr), c_ * sizeof *(arr));   \
			if (!p_)                                         \
				emu_fatal("out of memory recording the " \
					  "trace");                      \
			(arr) = p_;                                      \
			(cap) = c_;                                      \
			emu_timing_runtime_grew();                       \
		}                                                        \
	} while (0)

int emu_rec_open(char *err, size_t errlen)
{
	sibt_writer_opts o;
	const char *v;
	char line[9][160];
	const char *extra[10];

	sibt_writer_opts_init(&o);
	o.npes = emu.nranks;
	o.nprocs = (uint32_t)emu.nprocs;
	o.proc = (uint32_t)emu.proc;
	o.first_pe = emu.first;
	o.local_npes = emu.count;
	o.window = (uint32_t)emu.set[EMU_S_WINDOW].u;
	o.level = (int)emu.set[EMU_S_COMPRESSION].u;
	o.write_manifest = emu.proc == 0;
	o.overwrite = 1;
	o.cmdline = emu.set[EMU_S_CMDLINE].text;
	o.topology = emu_tr_host(emu_set_is(BIND, "core"));
	o.generator = "libsibyl-emu " PACKAGE_VERSION;
	snprintf(line[0], sizeof line[0], "emu_cpu_factor = %.17g",
		 emu.cpu_factor);
	snprintf(line[1], sizeof line[1], "emu_stack_size = %zu",
		 emu.stack_size);
	snprintf(line[2], sizeof line[2], "emu_context_switch = %s",
		 ult_backend());
	extra[0] = line[0];
	extra[1] = line[1];
	extra[2] = line[2];
	snprintf(line[3], sizeof line[3], "emu_clock = %s",
		 !emu.timing_raw ? "wall+cpu" :
		 emu.clock_id == CLOCK_MONOTONIC ? "wall" : "cpu");
	extra[3] = line[3];
	snprintf(line[4], sizeof line[4], "emu_node_size = %d", emu.node_size);
	extra[4] = line[4];
	v = emu.set[EMU_S_COLL].text;
	snprintf(line[5], sizeof line[5], "emu_coll = %s", v ? v : "default");
	extra[5] = line[5];
	snprintf(line[6], sizeof line[6], "emu_privatize = %s",
		 emu_priv_describe());
	extra[6] = line[6];
	snprintf(line[7], sizeof line[7], "emu_timing = %s",
		 emu.timing_raw ? "raw" : "corrected");
	extra[7] = line[7];
	snprintf(line[8], sizeof line[8], "emu_layout = %s",
		 emu_layout_fixed() ? "fixed" : "random");
	extra[8] = line[8];
	extra[9] = NULL;
	o.extra = extra;
	return sibt_writer_open(&emu.writer, emu.trace_path, &o, err,
				errlen) == SIBT_OK ? 0 : -1;
}

void emu_rec_start(void)
{
	char err[512];

	if (emu.writer)
		return;
	if (!emu.set[EMU_S_TRACE].given && emu.proc == 0) {
		/* Run directly: replace an earlier trace of ours only. */
		struct stat st;
		char m[4096];
		snprintf(m, sizeof m, "%s/MANIFEST", emu.trace_path);
		if (stat(emu.trace_path, &st) == 0 && stat(m, &st) != 0)
			emu_fatal("%s exists and is not a Sibyl trace; move it "
				  "away or choose another path with "
				  "SIBYL_TRACE", emu.trace_path);
	}
	if (emu_rec_open(err, sizeof err))
		emu_fatal("cannot create the trace: %s", err);
	emu_state_begin();
}

int emu_rec_close(void)
{
	if (!emu.writer)
		return 0;
	int rc = sibt_writer_close(emu.writer);
	emu.writer = NULL;
	return rc == SIBT_OK ? 0 : -1;
}

void emu_rec_abort(void)
{
	if (emu.writer)
		sibt_writer_abort(emu.writer);
	emu.writer = NULL;
}

void emu_rec_begin(emu_rank *r)
{
	memset(&r->seb, 0, sizeof r->seb);
	r->seb.name = "main";
	emu_timing_begin(r);
}

/*
 * A print's offset is the time the SEB had kept when it was made
 * (emu_rec_print), but the SEB's measured part is only decided at its end
 * (the stamps' own cost, the CPU clock read afresh): a print must not
 * fall after the SEB's end, nor after the next SEB's prints.  The prints
 * of the part that just ended (all of the SEB's: polls merge only SEBs
 * without prints) are compressed, in order, into what the SEB now lasts.
 */
static void fit_prints(emu_seb *s)
{
	int64_t room = s->dur - s->seg0, top = 0;
	for (uint32_t i = 0; i < s->nprints; i++)
		if (s->prints[i].offset - s->seg0 > top)
			top = s->prints[i].offset - s->seg0;
	if (top <= room)
		return;
	for (uint32_t i = 0; i < s->nprints; i++) {
		int64_t rel = s->prints[i].offset - s->seg0;
		if (rel > 0)
			s->prints[i].offset = s->seg0 + (int64_t)llround(
				(double)rel * (double)room / (double)top);
	}
}

void emu_rec_enter(emu_rank *r, const void *site)
{
	emu_seb *s = &r->seb;

	if (r->in_call)
		return;         /* an MPI call made by another one */
	emu_timing_end(r, &s->span);
	emu_out_at_call();
	/* Until the region judges it: the time kept by the clocks. */
	s->meas_ps = scale(s->span.kept);
	s->wall_ps = scale(s->span.wall);
	s->dur += s->meas_ps;
	fit_prints(s);
	s->site_end = site;
	if (!emu.timing_raw)
		s->g = emu_region_ended(s->site_begin, site, NULL,
					&s->span);
	s->measured = 1;
	r->in_call = 1;
}

/*
 * Judging and writing an ended SEB.
 *
 * The measured part of an SEB is judged against its code region's
 * statistics in this process (timing.c).  An SEB whose region has too few
 * samples to be judged yet waits, deep-copied, in its rank's queue of
 * pending SEBs, and every later SEB of that rank waits behind it (a PE's
 * SEBs are written in order); the queue is flushed as the regions gather
 * samples, and at the rank's end with what is known then.  A rank's
 * queue holds at most PEND_MAX SEBs: beyond, the oldest is judged at
 * once.
 */
#define PEND_MAX 256

typedef struct emu_pending {
	sibt_seb w;             /* arrays in mem, but posted */
	void *mem;
	uint64_t index;         /* the SEB's index on its PE */
	sibt_msgid *posted;     /* w.posted, growing as receives match */
	uint32_t cposted;
	uint32_t open_posts;    /* receives posted at its end, unmatched */
	emu_region *g;
	emu_span span;
	int64_t meas_ps, wall_ps;
	uint8_t measured;
} emu_pending;

/* Ranks that ended with SEBs still pending (emu.rec.parked): their PE is
 * flushed once the SEBs are written (retry_parked, emu_rec_settle_all). */

static void flush_pending(emu_rank *r, int all);

static void flush_pe(emu_rank *r)
{
	if (sibt_writer_flush_pe(emu.writer, (uint32_t)r->world) != SIBT_OK)
		emu_fatal("cannot write the trace %s: %s", emu.trace_path,
			  sibt_writer_errmsg(emu.writer));
}

/* r has written everything: its PE's windows can go. */
static void rank_done(emu_rank *r)
{
	free(r->pend);
	r->pend = NULL;
	r->pend0 = r->cpend = 0;
	flush_pe(r);
}

/* Write what the parked ranks can now write. */
static void retry_parked(void)
{
	uint32_t j = 0;
	emu.rec.judged_seen = emu_regions_judged();
	for (uint32_t i = 0; i < emu.rec.nparked; i++) {
		emu_rank *r = emu.rec.parked[i];
		flush_pending(r, 0);
		if (r->npend)
			emu.rec.parked[j++] = r;
		else
			rank_done(r);
	}
	emu.rec.nparked = j;
}

static int judging(void)
{
	return !emu.timing_raw && emu.cpu_factor > 0;
}

/* Correct w's measured part (meas_ps of w->duration) for its span. */
static void settle(sibt_seb *w, emu_region *g, const emu_span *sp,
		   int64_t meas_ps, int64_t wall_ps)
{
	int64_t raw = w->duration - meas_ps + wall_ps;
	uint32_t why;
	int64_t kept = scale(emu_region_decide(g, sp, &why));

	if (kept != meas_ps) {
		int64_t delta = kept - meas_ps, before = w->duration;
		sibt_send *sends = (sibt_send *)w->sends;
		sibt_print *prints = (sibt_print *)w->prints;
		/* Sends left during the call, after the measured part;
		 * prints were made inside it. */
		for (uint32_t i = 0; i < w->nsends; i++)
			sends[i].offset += delta;
		for (uint32_t i = 0; before > 0 && i < w->nprints; i++)
			prints[i].offset = (int64_t)llround(
				(double)prints[i].offset *
				(double)(before + delta) / (double)before);
		w->duration += delta;
	}
	if (why && raw != w->duration) {
		w->corrected = why;
		w->raw_duration = raw;
	}
}

static void add(emu_rank *r, const sibt_seb *w)
{
	if (sibt_writer_add(emu.writer, w, NULL) != SIBT_OK)
		emu_fatal("cannot write the trace %s: %s", emu.trace_path,
			  sibt_writer_errmsg(emu.writer));
}

/* Write the pending SEBs of r whose regions can be judged (all of them
 * when `all'). */
static void flush_pending(emu_rank *r, int all)
{
	uint32_t i = 0;
	for (; i < r->npend; i++) {
		emu_pending *p = &r->pend[r->pend0 + i];
		if (!all && i + PEND_MAX > r->npend &&
		    ((p->measured && !emu_region_judged(p->g)) ||
		     p->open_posts))
			break;
		if (p->measured)
			settle(&p->w, p->g, &p->span, p->meas_ps, p->wall_ps);
		p->w.region = emu_region_name(p->g);
		add(r, &p->w);
		free(p->mem);
		free(p->posted);
	}
	/* The queue's head moves; defer() slides the rest down when that
	 * pays (not here: this runs at every SEB of a rank whose oldest
	 * pending SEB still waits, and a slide of up to PEND_MAX entries
	 * each time made it quadratic). */
	r->pend0 += i;
	r->npend -= i;
	if (!r->npend)
		r->pend0 = 0;
}

/* Keep a deep copy of w for later. */
static void defer(emu_rank *r, const sibt_seb *w, emu_region *g)
{
	emu_seb *s = &r->seb;
	const char *name = w->name ? w->name : "";
	size_t nl = strlen(name) + 1, text = 0;
	for (uint32_t i = 0; i < w->nprints; i++)
		text += w->prints[i].len;
	size_t sz = w->nwaits * sizeof *w->waits +
		    w->ndone * sizeof *w->done +
		    w->nsends * sizeof *w->sends +
		    w->nprints * sizeof *w->prints +
		    w->nmarkers * sizeof *w->markers + text + nl;
	char *m = malloc(sz ? sz : 1), *q = m;
	if (!m)
		emu_fatal("out of memory recording the trace");
	uint32_t end = r->pend0 + r->npend;
	if (end == r->cpend && r->pend0 >= r->npend && r->pend0 > 0) {
		/* At least as many slots freed at the head as are in use:
		 * sliding costs no more than the flushes that freed them. */
		memmove(r->pend, r->pend + r->pend0,
			r->npend * sizeof *r->pend);
		r->pend0 = 0;
		end = r->npend;
	}
	GROW(r->pend, end, r->cpend);
	emu_pending *p = &r->pend[end];
	r->npend++;
	memset(p, 0, sizeof *p);
	p->w = *w;
	p->mem = m;
#define COPY(field, n)                                                   \
	do {                                                             \
		size_t b_ = (n) * sizeof *w->field;                      \
		if (b_)                                                  \
			memcpy(q, w->field, b_);                         \
		p->w.field = (void *)q;                                  \
		q += b_;                                                 \
	} while (0)
	COPY(sends, w->nsends);
	COPY(prints, w->nprints);
	COPY(waits, w->nwaits);
	COPY(done, w->ndone);
	COPY(markers, w->nmarkers);
#undef COPY
	p->index = r->nsebs;
	p->open_posts = s->open_posts;
	if (w->nposted) {
		p->posted = malloc(w->nposted * sizeof *p->posted);
		if (!p->posted)
			emu_fatal("out of memory recording the trace");
		memcpy(p->posted, w->posted, w->nposted * sizeof *p->posted);
		p->cposted = w->nposted;
	}
	p->w.posted = p->posted;
	for (uint32_t i = 0; i < w->nprints; i++) {
		memcpy(q, w->prints[i].text, w->prints[i].len);
		((sibt_print *)p->w.prints)[i].text = q;
		q += w->prints[i].len;
	}
	memcpy(q, name, nl);
	p->w.name = q;
	p->g = g;
	p->span = s->span;
	p->meas_ps = s->meas_ps;
	p->wall_ps = s->wall_ps;
	p->measured = s->measured && judging();
	if (r->npend > PEND_MAX)
		flush_pending(r, 0);
}

static void write_seb(emu_rank *r)
{
	emu_seb *s = &r->seb;
	emu_region *g = s->g ? s->g :
			emu_region_get(s->site_begin, s->site_end, s->rounds);
	int measured = s->measured && judging();
	sibt_seb w;

	memset(&w, 0, sizeof w);
	w.pe = (uint32_t)r->world;
	w.name = s->owned_name ? s->owned_name : s->name;
	w.duration = s->dur;
	w.preds_default = 1;
	w.nwaits = s->nwaits;
	w.waits = s->waits;
	w.nsends = s->nsends;
	w.sends = s->sends;
	w.nprints = s->nprints;
	w.prints = s->prints;
	w.nmarkers = s->nmarkers;
	w.markers = s->markers;
	w.ndone = s->ndone;
	w.done = s->done;
	w.nposted = s->nposted;
	w.posted = s->posted;
	if (measured)
		emu_region_add(g, &s->span);
	if (emu.rec.nparked && emu_regions_judged() != emu.rec.judged_seen)
		retry_parked();
	if (r->npend)
		flush_pending(r, 0);
	if (r->npend || (measured && !emu_region_judged(g)) ||
	    s->open_posts) {
		defer(r, &w, g);
	} else {
		if (measured)
			settle(&w, g, &s->span, s->meas_ps, s->wall_ps);
		w.region = emu_region_name(g);
		add(r, &w);
	}
	for (uint32_t i = 0; i < s->nprints; i++)
		free((void *)s->prints[i].text);
	free(s->owned_name);
	s->owned_name = NULL;
	s->nprints = s->nsends = s->nposted = s->open_posts = 0;
	s->measured = 0;
	s->g = NULL;
	s->rounds = NULL;
	s->meas_ps = s->wall_ps = 0;
	memset(&s->span, 0, sizeof s->span);
	r->nsebs++;
}

void emu_rec_leave(emu_rank *r, const char *call)
{
	emu_seb *s = &r->seb;

	write_seb(r);
	int64_t end = s->start_vt + s->dur;
	/* The next SEB takes what the call gave it: the messages it
	 * consumed, the sends it completed, the markers; the lists swap
	 * their buffers, the next ones start empty. */
#define TAKE(cur, next)                                                  \
	do {                                                             \
		void *b_ = s->cur;                                       \
		uint32_t c_ = s->c##cur;                                 \
		s->cur = s->next;                                        \
		s->c##cur = s->c##next;                                  \
		s->n##cur = s->n##next;                                  \
		s->next = b_;                                            \
		s->c##next = c_;                                         \
		s->n##next = 0;                                          \
	} while (0)
	TAKE(waits, cons);
	TAKE(done, next_done);
	TAKE(markers, next_markers);
#undef TAKE
	s->start_vt = end > s->cons_vt ? end : s->cons_vt;
	/* A corrected SEB ends earlier than the time the program may have
	 * read during it: virtual time never goes back. */
	if (s->start_vt < s->vt_seen)
		s->start_vt = s->vt_seen;
	s->cons_vt = 0;
	s->dur = 0;
	s->seg0 = 0;
	s->name = call;
	/* The next SEB begins where the call was made. */
	s->site_begin = s->site_end;
	r->in_call = 0;
	emu_timing_resume(r);
}

/*
 * Polls.  A program that waits by polling (MPI_Test, MPI_Iprobe in a
 * loop) would end an SEB at every poll: a dense solver at 1,024 ranks
 * wrote 12.1 M SEBs for 0.66 M messages, and its polling SEBs were 70% of
 * its predicted busy time.  A poll that finds nothing completes nothing
 * and consumes nothing, so it ends no SEB when nothing is recorded in the
 * SEB yet (no message it waits for, no send, print or marker): the SEB
 * goes on through the loop's unsuccessful polls and ends at the poll that
 * succeeds (or at any other call), with the total of the iterations as
 * its duration (each measured and corrected as usual) and the code
 * region of the loop (from the last unsuccessful poll to the call that
 * ends it); the SEB after it takes what the successful poll completed.
 * A non-blocking probe counts as a poll that found nothing even when it
 * finds a message: the receive that follows takes it.  A receive
 * completed by polling thus costs two SEBs: the one that ends at the call
 * that posted it (or at the first probe), and the one that ends at the
 * poll that finds it complete (or at the receive).
 */
void emu_rec_leave_poll(emu_rank *r, const char *call, int done)
{
	emu_seb *s = &r->seb;

	if (!done && !s->nsends && !s->nprints && !s->nmarkers &&
	    !s->nwaits && !s->ndone && !s->nposted && !s->open_posts &&
	    !s->owned_name && !s->ncons && !s->nnext_done &&
	    !s->nnext_markers) {
		/* The iteration is judged now, when its region can be. */
		if (s->measured && judging() && s->g) {
			emu_region_add(s->g, &s->span);
			if (emu_region_judged(s->g)) {
				uint32_t why;
				s->dur += scale(emu_region_decide(s->g,
								  &s->span,
								  &why)) -
					s->meas_ps;
			}
		}
		s->seg0 = s->dur;
		s->site_begin = s->site_end;
		r->in_call = 0;
		emu_timing_resume(r);
		return;
	}
	emu_rec_leave(r, call);
}

void emu_rec_step(emu_rank *r, const char *name, int64_t ps)
{
	emu_rec_leave(r, name);
	r->seb.dur = ps > 0 ? ps : 0;
	r->in_call = 1;
}

void emu_rec_step_measured(emu_rank *r, const char *name,
			   const emu_span *sp)
{
	emu_seb *s = &r->seb;
	emu_rec_leave(r, name);
	/* Judged like any measured SEB, in the region of the call's
	 * rounds ("SITE > MPI_Alltoall rounds"), apart from the program's
	 * SEBs from that call site to itself: the rounds are many alike. */
	s->span = *sp;
	s->rounds = name;
	if (!emu.timing_raw)
		s->g = emu_region_ended(s->site_begin, s->site_end, name,
					&s->span);
	s->meas_ps = scale(sp->kept);
	s->wall_ps = scale(sp->wall);
	s->dur = s->meas_ps;
	s->measured = 1;
	r->in_call = 1;
}

void emu_rec_final(emu_rank *r)
{
	write_seb(r);
	r->seb.nwaits = r->seb.nmarkers = 0;
	r->in_call = 0;
	if (r->npend) {
		/* Its last SEBs wait for their regions, like the others. */
		GROW(emu.rec.parked, emu.rec.nparked, emu.rec.cparked);
		emu.rec.parked[emu.rec.nparked++] = r;
		return;
	}
	rank_done(r);
}

void emu_rec_settle_all(void)
{
	for (uint32_t i = 0; i < emu.rec.nparked; i++) {
		flush_pending(emu.rec.parked[i], 1);
		rank_done(emu.rec.parked[i]);
	}
	free(emu.rec.parked);
	emu.rec.parked = NULL;
	emu.rec.nparked = emu.rec.cparked = 0;
}

void emu_rec_consume(emu_rank *r, sibt_msgid id, int64_t vt)
{
	emu_seb *s = &r->seb;
	GROW(s->cons, s->ncons, s->ccons);
	s->cons[s->ncons++] = id;
	if (vt > s->cons_vt)
		s->cons_vt = vt;
}

void emu_rec_done(emu_rank *r, uint64_t seq)
{
	emu_seb *s = &r->seb;
	GROW(s->next_done, s->nnext_done, s->cnext_done);
	s->next_done[s->nnext_done++] = seq;
}

void emu_rec_post_open(emu_rank *r)
{
	r->seb.open_posts++;
}

void emu_rec_posted(emu_rank *r, uint64_t seb, sibt_msgid id, int was_open)
{
	emu_seb *s = &r->seb;

	if (seb == r->nsebs) {
		/* Its SEB is not written yet (the call that posted it). */
		GROW(s->posted, s->nposted, s->cposted);
		s->posted[s->nposted++] = id;
		if (was_open && s->open_posts)
			s->open_posts--;
		return;
	}
	if (!r->npend || seb < r->pend[r->pend0].index ||
	    seb - r->pend[r->pend0].index >= r->npend)
		return;         /* written already: the post point is lost */
	emu_pending *p = &r->pend[r->pend0 + (seb - r->pend[r->pend0].index)];
	GROW(p->posted, p->w.nposted, p->cposted);
	p->posted[p->w.nposted++] = id;
	p->w.posted = p->posted;
	if (was_open && p->open_posts)
		p->open_posts--;
}

uint64_t emu_rec_send(emu_rank *r, int32_t dst, int32_t tag, uint64_t size)
{
	emu_seb *s = &r->seb;
	GROW(s->sends, s->nsends, s->csends);
	sibt_send *m = &s->sends[s->nsends++];
	m->dst = (uint32_t)dst;
	m->tag = tag;
	m->size = size;
	m->offset = s->dur;
	return r->send_seq++;
}

int64_t emu_rec_vtime(emu_rank *r)
{
	int64_t t = r->seb.start_vt + r->seb.dur;
	if (!r->in_call && r->state == RS_RUNNING)
		t += scale(emu_stamp_peek(&r->resume));
	/* The peek switches to the CPU clock when the thread was off its
	 * core, and that clock is extrapolated from its last reading: a
	 * later read may come out a little earlier.  Time never goes back. */
	if (t > r->seb.vt_seen)
		r->seb.vt_seen = t;
	return r->seb.vt_seen;
}

void emu_rec_marker(emu_rank *r, uint32_t kind, int64_t value)
{
	emu_seb *s = &r->seb;
	GROW(s->next_markers, s->nnext_markers, s->cnext_markers);
	s->next_markers[s->nnext_markers].kind = kind;
	s->next_markers[s->nnext_markers].value = value;
	s->nnext_markers++;
}

/* Called while the rank computes (not in a call). */
void emu_rec_print(emu_rank *r, const char *text, size_t len)
{
	emu_seb *s = &r->seb;
	char *copy = malloc(len ? len : 1);
	if (!copy)
		emu_fatal("out of memory recording a print");
	memcpy(copy, text, len);
	GROW(s->prints, s->nprints, s->cprints);
	int64_t off = s->dur + scale(emu_stamp_peek(&r->resume));
	/* In order, as emu_rec_vtime's times. */
	if (s->nprints && off < s->prints[s->nprints - 1].offset)
		off = s->prints[s->nprints - 1].offset;
	s->prints[s->nprints].offset = off;
	s->prints[s->nprints].text = copy;
	s->prints[s->nprints].len = (uint32_t)len;
	s->nprints++;
}

void emu_rec_name(emu_rank *r, const char *name)
{
	char *copy = strdup(name ? name : "");
	if (!copy)
		emu_fatal("out of memory naming an SEB");
	free(r->seb.owned_name);
	r->seb.owned_name = copy;
}

void emu_rec_declare(emu_rank *r, int64_t ps)
{
	r->seb.dur += ps;
}

void emu_rec_measured(emu_rank *r, int64_t ns)
{
	r->seb.dur += scale(ns);
}

void emu_rec_free(emu_rank *r)
{
	emu_seb *s = &r->seb;
	for (uint32_t i = 0; i < r->npend; i++) {
		free(r->pend[r->pend0 + i].mem);
		free(r->pend[r->pend0 + i].posted);
	}
	free(r->pend);
	r->pend = NULL;
	r->pend0 = r->npend = r->cpend = 0;
	for (uint32_t i = 0; i < s->nprints; i++)
		free((void *)s->prints[i].text);
	free(s->owned_name);
	free(s->sends);
	free(s->waits);
	free(s->prints);
	free(s->markers);
	free(s->cons);
	free(s->done);
	free(s->next_done);
	free(s->posted);
	free(s->next_markers);
	memset(s, 0, sizeof *s);
}
