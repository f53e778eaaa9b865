/*
 * fsim_engine.h -- the replay engine's state, shared by its files
 * (internal to fastsim): fsim_engine.c runs the replay, fsim_rdv.c adds
 * the rendezvous protocol (SEMANTICS.md section 3).
 */
#ifndef SIBYL_FSIM_ENGINE_H
#define SIBYL_FSIM_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "sibyl_trace.h"
#include "fsim.h"
#include "fsim_mbox.h"
#include "fsim_queue.h"
#include "noise.h"

#define TIME_END INT64_MAX

/* Event kinds, in the low two bits of an event's argument. */
enum { EV_START = 0, EV_DEPART = 1, EV_NET = 2 };

enum pe_state {
	PE_WAITING = 0,  /* current SEB awaits messages */
	PE_QUEUED,       /* its start event is in the queue */
	PE_DONE          /* no more SEBs to run */
};

typedef struct pe_t {
	/* What a delivery touches comes first, in one cache line. */
	mb_box mb;
	sib_ps ready;       /* earliest start of the current SEB so far */
	sib_ps free_at;     /* end of the last SEB started */
	uint32_t missing;      /* current SEB: awaited, not arrived */
	uint8_t state;
	uint8_t stopped;       /* ended at the region's end marker */
	uint8_t how;           /* current SEB: how the rules changed its
	                          duration (HOW_*), for its offsets */
	uint32_t nwaits;       /* current SEB: messages it awaits */
	uint32_t name;         /* current SEB: global name index */
	sib_ps dur;         /* current SEB: duration after the rules */
	sib_ps tdur;        /* current SEB: duration in the trace */
	sib_ps busy;        /* sum of durations run */
	sib_ps hold;        /* the CPU is busy sending until then (the
	                          send overheads of its protocol ranges) */
	sib_ps copy_free;   /* intranode.serialize: the copies into it
	                          are done until then */
	uint32_t file;         /* data file of this PE */
	sibt_packed pk;        /* current window; cursor = current SEB */
} pe_t;

/* A message whose departure is an event (order-dependent models). */
typedef struct fmsg {
	netm_msg nm;
	uint64_t seq, src_seb;
	sib_ps t_rts;          /* rendezvous: its request reaches dst */
	int32_t tag;
	uint8_t rdv;           /* rendezvous: its departure is the data's */
	const netm_piece *pc;  /* its protocol range, or NULL (none) */
	struct fmsg *next;     /* free list */
} fmsg;

/* What the rules did to the duration of an SEB (SEMANTICS §4). */
enum { HOW_SCALED = 0, HOW_REPLACED = 1 };

/* Per code region string (of the trace), when there are region: rules:
 * the rules that match it. */
typedef struct region_info {
	const char *region;    /* NULL: free slot */
	fsim_durrule rule;
	uint32_t vblock;       /* its variability block, or FSIM_VAR_NONE */
} region_info;

/* Per global SEB name: what the rules do with it. */
typedef struct name_info {
	const char *name;
	fsim_durrule rule;
	int plain;             /* no rule and factor 1: durations unchanged */
	uint32_t vblock;       /* its variability block, or FSIM_VAR_NONE */
} name_info;

typedef struct engine {
	const fsim_opts *o;
	sibt_trace *t;
	sibt_window *scratch;
	fsim_machine *m;
	netm_model *net;
	netm_host host;
	fq_queue q;
	pe_t *pes;
	uint32_t npes;
	sib_ps now;
	/* names: per file, name id -> global index */
	uint32_t **name_map;
	uint32_t nfiles;
	name_info *names;
	uint32_t nnames, cap_names;
	/* region: rules, resolved per region string (the strings belong to
	 * the trace, so a pointer is a key for as long as it is open) */
	int have_regions;
	region_info *regions;  /* open addressing on the pointer */
	size_t nregions, cap_regions;
	/* region */
	uint64_t *start_seq;   /* per PE: first seq sent inside the region */
	int region;
	/* message pool */
	fmsg *free_msgs;
	fmsg **msg_blocks;
	size_t nmsg_blocks;
	/* outputs */
	const char *tmpdir;      /* the caller's stage */
	FILE *prints;
	void **tl_state;
	size_t ntl;
	const uint8_t *tl_sel;
	const char **tl_names;   /* fsim_out_info.names, alive until close */
	fsim_series *series;     /* link time series, or NULL */
	/* noise (SEMANTICS §9): NULL when none can delay anything */
	noise_inj *noise;
	sib_ps *noise_pe;     /* per PE: time detours added */
	fsim_var *var;           /* variability (SEMANTICS §10), or NULL */
	/* statistics */
	fsim_result *res;
	uint64_t done_pes;
	uint64_t total_estimate;
	/* protocol ranges (SEMANTICS §3): some message may fall in one */
	int has_pieces;
	/* rendezvous (fsim_rdv.c): per PE, NULL without a rendezvous range */
	struct rdv_pe *rdv;
	/* first failure: the run stops at the next check */
	int failed;
	int config_error;      /* the failure is the machine description's */
	char *err;
	size_t errlen;
} engine;

/* *out = a + b (b >= 0); -1 when the sum reaches the end of time. */
static inline int time_add(sib_ps a, sib_ps b, sib_ps *out)
{
	return __builtin_add_overflow(a, b, out) || *out == TIME_END ? -1 : 0;
}

/* fsim_engine.c, for the engine's other files. */
/* Record the first failure (the run stops at the next check); -1. */
int fsim_eng_fail(engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Queue the start of p's current SEB, nothing being missing any more. */
void fsim_eng_queue_start(engine *e, uint32_t p);
/* The copy of n bytes (x ps) into p that may start at t: when it ends
 * (with intranode.serialize, it starts after the turns of the copies
 * before it). */
sib_ps fsim_eng_copy(engine *e, uint32_t p, sib_ps t, uint64_t n,
		     sib_ps x);
/* Message m (a fmsg *, as its token) has arrived at time t. */
void fsim_eng_deliver(void *ctx, uint64_t token, sib_ps t);
/* A message from the pool (its `next' is NULL); NULL when out of memory. */
fmsg *fsim_eng_msg_alloc(engine *e);

/* fsim_rdv.c: the rendezvous protocol (SEMANTICS.md section 3). */
/* Whether the machine has a rendezvous range; sets up e->rdv if so. */
int fsim_rdv_setup(engine *e);
void fsim_rdv_free(engine *e);
/* The protocol range of message m (NULL: none, the model's own); found
 * once, when the SEB that sends it starts (fmsg.pc). */
const netm_piece *fsim_rdv_piece(const engine *e, const fmsg *m);
/* Request phase of a rendezvous message m (range pc): returns 1 when m
 * was taken (its data leaves later), 0 when it goes on as eager. */
int fsim_rdv_send(engine *e, fmsg *m, const netm_piece *pc);
/* Data phase of m (an EV_DEPART of a message with m->rdv set). */
void fsim_rdv_data(engine *e, fmsg *m);
/* p's SEB that ends at `end' posted receives for s->posted. */
void fsim_rdv_posted(engine *e, uint32_t p, const sibt_seb *s, sib_ps end);
/* p's current SEB awaits message (src, seq), not arrived: its receive,
 * if not posted before, is posted when the SEB before ends. */
void fsim_rdv_awaited(engine *e, uint32_t p, uint32_t src, uint64_t seq);
/* p's current SEB (head s) needs its sends s->done completed: 0, or -1
 * (failed). */
int fsim_rdv_done(engine *e, uint32_t p, const sibt_seb *s);
/* How many send completions p's current SEB waits for; when len > 0,
 * a line for each (at most 4) appended to buf. */
size_t fsim_rdv_stuck(const engine *e, uint32_t p, char *buf, size_t len);

#endif /* SIBYL_FSIM_ENGINE_H */
