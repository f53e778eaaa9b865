/*
 * netmodel.h -- the interface between the Sibyl simulator and its network
 * models, and the parameter descriptors every configurable part of the
 * simulator shares.
 *
 * A network model is a const table of functions (netm_ops) registered by
 * name in netm_registry[].  The simulator creates one instance per run with
 * the model's parameters already parsed and validated (netm_setup), hands
 * it every message that crosses the network (netm_ops.send) and gets each
 * one back through netm_host.deliver when its last byte has arrived.  A
 * model that needs time to pass (queues, packets, links) schedules its own
 * events on the simulator's queue with netm_host.schedule; the simulator
 * calls netm_ops.event back at that time.  Events at equal times run in the
 * order they were scheduled, so a model that is deterministic in its own
 * code gives bit-identical results run to run.
 *
 * Conventions
 *   - Every exported name starts with "netm_".
 *   - Time is a signed 64-bit number of picoseconds (sib_ps); sizes are
 *     bytes; bandwidths are bytes per second.  Models compute in integers:
 *     use netm_xfer_time() for "bytes at a bandwidth".
 *   - Models never free what the simulator owns (messages, events) and the
 *     simulator never frees what a model allocates.
 */
#ifndef SIBYL_NETMODEL_H
#define SIBYL_NETMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sib_err.h"
#include "sib_param.h"
#include "sib_time.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Times are sib_ps: picoseconds (base/sib_time.h). */

/* ------------------------------------------------------- parameters */

/* A model's parameters are sib_param descriptors, parsed into sib_values
 * by the machine description (base/sib_param.h). */

/* Time to move `bytes' at `bw' bytes/s, rounded up to a whole picosecond:
 * ceil(bytes * 10^12 / bw), computed exactly; INT64_MAX (the end of time)
 * when it does not fit in a sib_ps.  bw must be > 0. */
static inline sib_ps netm_xfer_time(uint64_t bytes, int64_t bw)
{
	/* The 64-bit path (messages below 18 MB) avoids a slow 128-bit
	 * division on the hot path; both give the same result. */
	if (bytes <= UINT64_MAX / SIB_PS_PER_S) {
		uint64_t n = bytes * (uint64_t)SIB_PS_PER_S;
		return (sib_ps)(n / (uint64_t)bw +
				   (n % (uint64_t)bw != 0));
	}
	unsigned __int128 n = (unsigned __int128)bytes * SIB_PS_PER_S;
	unsigned __int128 q = (n + (unsigned __int128)bw - 1) /
			      (unsigned __int128)bw;
	return q >= (unsigned __int128)INT64_MAX ? INT64_MAX : (sib_ps)q;
}

/* Errors: a sentence in the caller's buffer, sib_errf() and sib_errcat()
 * (base/sib_err.h). */

/* ------------------------------------------- piecewise costs by size */

/*
 * The cost of a message by the range of sizes it falls in (pieces.c):
 * MPI's protocols make point-to-point time linear in the size only piece
 * by piece.  A message of n bytes in a piece costs os + n * os_per_byte
 * at the sender (netm_piece_os: LogGOPS's o and O, the copy into the
 * transport growing with the size), latency + n / bandwidth in between
 * and or at the receiver.
 */
typedef struct netm_piece {
	uint64_t from;        /* smallest size of the range, bytes */
	sib_ps latency;
	int64_t bandwidth;    /* bytes/s, > 0 */
	sib_ps os, or;        /* send and receive overheads */
	sib_ps os_per_byte;   /* the send overhead's part per byte, ps */
	uint8_t rendezvous;   /* sync=rendezvous: the data leaves once the
	                         receive is posted (the simulator's part) */
} netm_piece;

/* Pieces by increasing `from', the first from 0; n == 0: no table. */
typedef struct netm_pieces {
	uint32_t n;
	netm_piece *p;
} netm_pieces;

/*
 * Read a table "SIZE: KEY=VALUE ...; SIZE: ..." (keys latency,
 * bandwidth, os, os_per_byte, or, sync; pairs separated by blanks or
 * commas) for the key named `key' in messages.  Keys a range leaves out take their value from defaults.
 * An empty text gives an empty table.  0, or -1 with a sentence in err.
 */
int netm_pieces_parse(netm_pieces *t, const char *key, const char *text,
		      const netm_piece *defaults, char *err, size_t errlen);
void netm_pieces_free(netm_pieces *t);

/* The piece of a message of `bytes' (t->n > 0). */
static inline const netm_piece *netm_pieces_find(const netm_pieces *t,
						 uint64_t bytes)
{
	uint32_t lo = 0, hi = t->n;

	/* The last piece whose `from' is at most bytes; p[0].from == 0. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->p[mid].from <= bytes)
			lo = mid;
		else
			hi = mid;
	}
	return &t->p[lo];
}

/* The send overhead of a message of `bytes' in piece pc: os +
 * bytes * os_per_byte, INT64_MAX when beyond the range of time. */
static inline sib_ps netm_piece_os(const netm_piece *pc, uint64_t bytes)
{
	unsigned __int128 t = (unsigned __int128)bytes *
			      (uint64_t)pc->os_per_byte + (uint64_t)pc->os;

	return t >= (unsigned __int128)INT64_MAX ? INT64_MAX : (sib_ps)t;
}

/* --------------------------------------------------------- the model */

typedef struct netm_model netm_model;

/* A message handed to a model.  It stays valid until it is delivered. */
typedef struct netm_msg {
	uint64_t token;          /* the simulator's; give it back to deliver */
	uint32_t src_pe, dst_pe; /* target ranks */
	uint32_t src_node, dst_node; /* nodes (always different: messages
	                            inside a node never reach the network) */
	uint64_t bytes;          /* payload size after replacement rules */
	sib_ps depart;        /* when the message leaves its sender */
	/* The data of a rendezvous message (sync=rendezvous ranges): its
	 * request paid the send overhead and the latency; the data leaves
	 * at depart and pays the transfer and the receive overhead. */
	uint8_t rdv_data;
} netm_msg;

/* What the simulator offers a model instance. */
typedef struct netm_host {
	void *ctx;
	/* Run ops->event(model, t, arg) at time t (t >= the current time). */
	void (*schedule)(void *ctx, sib_ps t, void *arg);
	/* The message with this token has fully arrived at time t (t >= its
	 * departure, and t >= the current time unless the model is
	 * NETM_IMMEDIATE). */
	void (*deliver)(void *ctx, uint64_t token, sib_ps t);
	/* Optional (NULL unless the run records link time series, `sibyl
	 * sim --link-trace'): link `link' transmits `bytes' from `start'
	 * to `end' (start <= end; start may lie before the current time
	 * when a model books a link ahead).  Models with links call it for
	 * every transmission they account in netm_link_info.busy, so the
	 * series sum to the per-link totals. */
	void (*link_busy)(void *ctx, uint32_t link, sib_ps start,
			  sib_ps end, uint64_t bytes);
} netm_host;

/* Everything a model needs to build an instance. */
typedef struct netm_setup {
	uint32_t nnodes;          /* nodes of the machine */
	uint32_t npes;            /* target ranks */
	const sib_value *values; /* one per entry of ops->params, in order */
	uint64_t seed;            /* for models with random choices */
} netm_setup;

/* Instance flags (netm_model.flags). */
#define NETM_IMMEDIATE 0x1u /* a message's arrival depends on nothing but
                               the message itself: send() may be called
                               before the departure time and in any order,
                               and delivers at once */

/* Every instance starts with this header (models embed it first). */
struct netm_model {
	const struct netm_ops *ops;
	unsigned flags;
};

/* Per-run totals a model reports (all may be zero for simple models). */
typedef struct netm_totals {
	uint64_t messages, bytes, packets;
	uint64_t hops;            /* sum over packets of links crossed */
	sib_ps queue_time;     /* total time messages waited in queues */
	uint64_t events;          /* events the model processed: for a
	                             packet model each packet crossing an
	                             injection channel, a link or an ejection
	                             channel, plus its credit and wake-up
	                             events; 0 for a model without events */
} netm_totals;

/*
 * Links (per-link statistics, histograms, time series).
 *
 * A model exposes its links as ids 0 .. nlinks-1 and each link belongs to
 * one of nclasses classes ("LL", "LR", "D"; "x+", "x-", ... for a torus;
 * "inject"/"eject" for the channels between a node and the network).  Ids
 * and classes are fixed when the instance is created.  Endpoint names are
 * short words a user can grep for: "node 17", "hub 3.2.5",
 * "router (1,0,3)".  busy is the total time the link spent transmitting
 * (so busy / run time is its utilization).
 */
#define NETM_ENDPOINT_MAX 40
typedef struct netm_link_info {
	uint32_t cls;                  /* index of its class */
	char src[NETM_ENDPOINT_MAX];   /* the end that transmits */
	char dst[NETM_ENDPOINT_MAX];   /* the end that receives */
	int64_t bandwidth;             /* bytes/s */
	uint64_t bytes, packets;       /* carried so far */
	sib_ps busy;                /* time spent transmitting */
} netm_link_info;

typedef struct netm_ops {
	const char *name;         /* as in the config: "simple" */
	const char *summary;      /* one line for listings */
	const sib_param *params; /* its parameters, NULL-key terminated */
	/* Build an instance; on failure return nonzero with a sentence in
	 * err naming the parameter at fault. */
	int (*create)(netm_model **mp, const netm_setup *setup,
		      const netm_host *host, char *err, size_t errlen);
	/* A message leaves at msg->depart.  Unless the instance is
	 * NETM_IMMEDIATE, this is called at the current time msg->depart,
	 * in departure order (ties: the simulator's order). */
	void (*send)(netm_model *m, const netm_msg *msg);
	/* A model event scheduled through host->schedule is due (may be
	 * NULL for models that schedule nothing). */
	void (*event)(netm_model *m, sib_ps now, void *arg);
	/* Totals so far (may be NULL). */
	void (*totals)(const netm_model *m, netm_totals *tot);
	/* Links (all three NULL for a model without links).  class_name
	 * returns a short constant word; link fills *out for link id. */
	uint32_t (*nlinks)(const netm_model *m);
	uint32_t (*nclasses)(const netm_model *m);
	const char *(*class_name)(const netm_model *m, uint32_t cls);
	void (*link)(const netm_model *m, uint32_t id, netm_link_info *out);
	void (*destroy)(netm_model *m);
	/* The model's protocol ranges (its `protocols' table), or NULL
	 * when it has none (may be NULL). */
	const netm_pieces *(*pieces)(const netm_model *m);
} netm_ops;

/* All models, NULL-terminated, and lookup by name (NULL if unknown). */
extern const netm_ops *const netm_registry[];
const netm_ops *netm_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_NETMODEL_H */
