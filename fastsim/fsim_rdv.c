/*
 * fsim_rdv.c -- the rendezvous protocol of the replay (SEMANTICS.md
 * section 3, "Protocol ranges").
 *
 * A message whose protocol range (intranode.protocols, or the network
 * model's protocols) says sync=rendezvous moves in two phases:
 *
 *   request  it leaves its sender at depart, pays the send overhead and
 *            the range's latency: it reaches the receiver at
 *            rts = depart + os + bytes * os_per_byte + latency;
 *   data     it leaves once the request is there and the receive is
 *            posted, at h = max(rts, posted), and pays the transfer and
 *            the receive overhead: arrival = h + bytes/bandwidth + or.
 *            The send completes when the data has left, at
 *            h + bytes/bandwidth.
 *
 * When the receiver has posted its receive before the request comes (a
 * ping-pong), this is the eager time: os + latency + transfer + or.
 *
 * Where the receive was posted comes from the trace (format 1.2): the
 * SEB whose posted list holds the message posted it at its end; a
 * message in no posted list was posted when the SEB before the one that
 * awaits it ended (a blocking receive).  Which SEB needs a send to have
 * completed comes from the done lists; a trace without them (before 1.2,
 * or generated) never holds a sender.
 *
 * Per PE three small hash tables (fsim_mbox.h) hold what one side knows
 * before the other: posted (receives posted, message -> time), rts
 * (requests arrived before their receive was posted, message -> the
 * message), done (the PE's rendezvous sends, seq -> completion time, or
 * MB_PENDING while the data has not left, or MB_AWAITED when the current
 * SEB needs it).  They exist only when a range is a rendezvous one, so a
 * machine without one replays exactly as before.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "fsim_engine.h"

/* A done entry of a send whose data has not left, and that no SEB waits
 * for yet. */
#define MB_PENDING (INT64_MIN + 1)

typedef struct rdv_pe {
	mb_box posted, rts, done;
} rdv_pe;

static int any_rendezvous(const netm_pieces *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->p[i].rendezvous)
			return 1;
	return 0;
}

/* The network model's ranges, or NULL. */
static const netm_pieces *net_pieces(const engine *e)
{
	return e->net->ops->pieces ? e->net->ops->pieces(e->net) : NULL;
}

int fsim_rdv_setup(engine *e)
{
	const netm_pieces *np = net_pieces(e);

	if (!any_rendezvous(&e->m->intra_pieces) &&
	    !(np && any_rendezvous(np)))
		return 0;
	e->rdv = calloc(e->npes, sizeof *e->rdv);
	if (!e->rdv)
		return fsim_eng_fail(e, "out of memory (rendezvous state of "
				     "%u PEs)", e->npes);
	return 0;
}

void fsim_rdv_free(engine *e)
{
	if (!e->rdv)
		return;
	for (uint32_t p = 0; p < e->npes; p++) {
		mb_free(&e->rdv[p].posted);
		mb_free(&e->rdv[p].rts);
		mb_free(&e->rdv[p].done);
	}
	free(e->rdv);
	e->rdv = NULL;
}

const netm_piece *fsim_rdv_piece(const engine *e, const fmsg *m)
{
	if (m->nm.src_node == m->nm.dst_node)
		return e->m->intra_pieces.n ?
		       netm_pieces_find(&e->m->intra_pieces, m->nm.bytes) :
		       NULL;
	const netm_pieces *np = net_pieces(e);
	return np ? netm_pieces_find(np, m->nm.bytes) : NULL;
}

/* The data of m leaves at h: an event, so that the network model gets it
 * in departure order. */
static void go(engine *e, fmsg *m, sib_ps h)
{
	m->rdv = 1;
	m->nm.depart = h;
	if (fq_push(&e->q, h, (uint64_t)(uintptr_t)m | EV_DEPART))
		fsim_eng_fail(e, "out of memory (event queue)");
}

static sib_ps later(sib_ps a, sib_ps b)
{
	return a > b ? a : b;
}

int fsim_rdv_send(engine *e, fmsg *m, const netm_piece *pc)
{
	uint32_t src = m->nm.src_pe, dst = m->nm.dst_pe;
	uint64_t key = mb_key(src, m->seq);
	sib_ps rts;

	if (!pc->rendezvous || !e->rdv)
		return 0;
	if (time_add(m->nm.depart, netm_piece_os(pc, m->nm.bytes), &rts) ||
	    time_add(rts, pc->latency, &rts)) {
		fsim_eng_fail(e, "message %" PRIu64 " of PE %u to PE %u: its "
			      "rendezvous request arrives beyond the range "
			      "of time (2^63-1 ps): check the protocols' os "
			      "and latency", m->seq, src, dst);
		return 1;
	}
	if (m->next == m) {
		/* On the sender's stack: it must outlive this call. */
		fmsg *h = fsim_eng_msg_alloc(e);
		if (!h) {
			fsim_eng_fail(e, "out of memory (messages in flight)");
			return 1;
		}
		*h = *m;
		h->next = NULL;
		h->nm.token = (uint64_t)(uintptr_t)h;
		m = h;
	}
	m->t_rts = rts;
	if (mb_insert(&e->rdv[src].done, mb_key(0, m->seq), MB_PENDING)) {
		fsim_eng_fail(e, "out of memory (rendezvous)");
		return 1;
	}
	rdv_pe *r = &e->rdv[dst];
	pe_t *d = &e->pes[dst];
	mb_slot *sl = mb_find(&r->posted, key);
	if (sl) {
		sib_ps at = sl->t;
		mb_remove(&r->posted, sl);
		go(e, m, later(rts, at));
	} else if ((sl = mb_find(&d->mb, key)) && sl->t == MB_AWAITED) {
		/* Its awaiting SEB is current: posted when the one before
		 * ended. */
		go(e, m, later(rts, d->free_at));
	} else if (mb_insert(&r->rts, key, (sib_ps)(intptr_t)m)) {
		fsim_eng_fail(e, "out of memory (rendezvous)");
	}
	return 1;
}

/* Send seq of p has completed at c. */
static void completed(engine *e, uint32_t p, uint64_t seq, sib_ps c)
{
	mb_box *b = &e->rdv[p].done;
	mb_slot *sl = mb_find(b, mb_key(0, seq));
	pe_t *pe = &e->pes[p];

	if (!sl)
		return;
	if (sl->t != MB_AWAITED) {
		sl->t = c;
		return;
	}
	mb_remove(b, sl);
	if (c > pe->ready)
		pe->ready = c;
	if (--pe->missing == 0 && pe->state == PE_WAITING)
		fsim_eng_queue_start(e, p);
}

void fsim_rdv_data(engine *e, fmsg *m)
{
	const netm_piece *pc = m->pc;
	sib_ps x = netm_xfer_time(m->nm.bytes, pc->bandwidth), c, a;
	int intra = m->nm.src_node == m->nm.dst_node;

	c = intra ? fsim_eng_copy(e, m->nm.dst_pe, m->nm.depart,
				  m->nm.bytes, x) :
	    TIME_END;
	if ((!intra && time_add(m->nm.depart, x, &c)) || c == TIME_END ||
	    time_add(c, pc->or, &a)) {
		fsim_eng_fail(e, "message %" PRIu64 " of PE %u to PE %u (%"
			      PRIu64 " bytes): its rendezvous data arrives "
			      "beyond the range of time (2^63-1 ps)", m->seq,
			      m->nm.src_pe, m->nm.dst_pe, m->nm.bytes);
		return;
	}
	completed(e, m->nm.src_pe, m->seq, c);
	if (intra) {
		fsim_eng_deliver(e, (uint64_t)(uintptr_t)m, a);
		return;
	}
	m->nm.rdv_data = 1;
	e->net->ops->send(e->net, &m->nm);
}

void fsim_rdv_posted(engine *e, uint32_t p, const sibt_seb *s, sib_ps end)
{
	rdv_pe *r = &e->rdv[p];

	for (uint32_t k = 0; k < s->nposted && !e->failed; k++) {
		uint32_t src = s->posted[k].src;
		uint64_t seq = s->posted[k].seq, key = mb_key(src, seq);
		if (e->start_seq && seq < e->start_seq[src])
			continue;     /* sent before the region: arrived */
		mb_slot *sl = mb_find(&r->rts, key);
		if (sl) {
			fmsg *m = (fmsg *)(intptr_t)sl->t;
			mb_remove(&r->rts, sl);
			go(e, m, later(m->t_rts, end));
		} else if (mb_insert(&r->posted, key, end)) {
			fsim_eng_fail(e, "out of memory (rendezvous)");
		}
	}
}

void fsim_rdv_awaited(engine *e, uint32_t p, uint32_t src, uint64_t seq)
{
	rdv_pe *r = &e->rdv[p];
	mb_slot *sl = mb_find(&r->rts, mb_key(src, seq));

	if (sl) {
		fmsg *m = (fmsg *)(intptr_t)sl->t;
		mb_remove(&r->rts, sl);
		go(e, m, later(m->t_rts, e->pes[p].free_at));
	}
}

int fsim_rdv_done(engine *e, uint32_t p, const sibt_seb *s)
{
	mb_box *b = &e->rdv[p].done;
	pe_t *pe = &e->pes[p];

	for (uint32_t k = 0; k < s->ndone; k++) {
		mb_slot *sl = mb_find(b, mb_key(0, s->done[k]));
		if (!sl || sl->t == MB_AWAITED)
			continue;     /* eager, or before the region */
		if (sl->t == MB_PENDING) {
			sl->t = MB_AWAITED;
			pe->missing++;
			continue;
		}
		if (sl->t > pe->ready)
			pe->ready = sl->t;
		mb_remove(b, sl);
	}
	return e->failed ? -1 : 0;
}

size_t fsim_rdv_stuck(const engine *e, uint32_t p, char *buf, size_t len)
{
	const mb_box *b;
	size_t off = 0, n = 0;

	if (!e->rdv)
		return 0;
	b = &e->rdv[p].done;
	for (uint32_t i = 0; i < b->cap && (!len || off < len); i++) {
		const mb_slot *sl = &b->s[i];
		if (sl->key == MB_EMPTY || sl->t != MB_AWAITED)
			continue;
		n++;
		if (!len)
			continue;
		if (n > 4) {
			off += (size_t)snprintf(buf + off, len - off, " ...");
			break;
		}
		off += (size_t)snprintf(buf + off, len - off, "\n    the "
			"completion of its send %" PRIu64 ": a rendezvous "
			"message whose receive is never posted (the program "
			"relies on MPI buffering its send: use a range below "
			"its size that is eager, or MPI_Irecv before the "
			"send)", (uint64_t)(uint32_t)sl->key);
	}
	return n;
}
