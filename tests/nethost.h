/*
 * nethost.h -- a fake simulator for the network model tests.
 *
 * An event queue ordered by (time, insertion order), the order fastsim
 * promises a model (netmodel.h): it holds message departures and the
 * model's own events, and nh_run() runs it dry, handing each departure
 * to the model's send() at its departure time and each model event to
 * its event(), exactly as fastsim does for a model that is not
 * NETM_IMMEDIATE.
 *
 * A test puts an nh_queue first in the context of its netm_host, so that
 * nh_schedule(), its schedule function, finds the queue from the context
 * pointer; deliver and link_busy are the test's own.  Include after
 * sibtest.h and netmodel.h.
 */
#ifndef SIBYL_TEST_NETHOST_H
#define SIBYL_TEST_NETHOST_H

#include <stdint.h>
#include <stdlib.h>

typedef struct nh_event {
	sib_ps t;
	uint64_t seq;        /* insertion number: the tie-breaker */
	int send;            /* a departure of msg, else a model event */
	netm_msg msg;
	void *arg;
} nh_event;

typedef struct nh_queue {
	nh_event *h;         /* binary min-heap on (t, seq) */
	size_t n, cap;
	uint64_t seq;
	sib_ps now;       /* time of the event being run */
} nh_queue;

static inline int nh_before(const nh_event *a, const nh_event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void nh_push(nh_queue *q, sib_ps t, const netm_msg *send,
			   void *arg)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->h = realloc(q->h, q->cap * sizeof *q->h);
		if (!q->h) {
			perror("realloc");
			exit(99);
		}
	}
	nh_event e = { .t = t, .seq = q->seq++, .send = send != NULL,
		       .arg = arg };
	if (send)
		e.msg = *send;
	size_t i = q->n++;
	while (i > 0 && nh_before(&e, &q->h[(i - 1) / 2])) {
		q->h[i] = q->h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->h[i] = e;
}

/* Take the earliest event into *out; 0 when the queue is empty. */
static inline int nh_pop(nh_queue *q, nh_event *out)
{
	if (!q->n)
		return 0;
	*out = q->h[0];
	nh_event last = q->h[--q->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && nh_before(&q->h[c + 1], &q->h[c]))
			c++;
		if (!nh_before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
	return 1;
}

/* netm_host.schedule: ctx points at the nh_queue.  The model must not
 * schedule into the past, and fastsim keeps the two low bits of an
 * argument for itself. */
static inline void nh_schedule(void *ctx, sib_ps t, void *arg)
{
	nh_queue *q = ctx;
	if (t < q->now)
		TEST_FAIL("event scheduled at %lld, before now %lld",
			  (long long)t, (long long)q->now);
	if ((uintptr_t)arg & 3)
		TEST_FAIL("misaligned event argument %p", arg);
	nh_push(q, t, NULL, arg);
}

/* Queue the departure of msg at msg->depart. */
static inline void nh_send(nh_queue *q, const netm_msg *msg)
{
	nh_push(q, msg->depart, msg, NULL);
}

/* Run the queue dry on model m. */
static inline void nh_run(nh_queue *q, netm_model *m)
{
	nh_event e;
	while (nh_pop(q, &e)) {
		if (e.t < q->now)
			TEST_FAIL("fake queue went back in time");
		q->now = e.t;
		if (e.send)
			m->ops->send(m, &e.msg);
		else if (m->ops->event)
			m->ops->event(m, e.t, e.arg);
		else
			TEST_FAIL("event scheduled but the model has no "
				  "event()");
	}
}

/* Empty the queue and free it (it may be used again). */
static inline void nh_free(nh_queue *q)
{
	free(q->h);
	*q = (nh_queue){ 0 };
}

#endif /* SIBYL_TEST_NETHOST_H */
