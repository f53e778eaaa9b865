/*
 * rma.c -- MPI_Alloc_mem/MPI_Free_mem, and one-sided communication
 * (MPI-3.1 chapter 11): windows made by MPI_Win_create and
 * MPI_Win_allocate; MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
 * MPI_Fetch_and_op and MPI_Compare_and_swap in epochs that MPI_Win_fence,
 * MPI_Win_post/start/complete/wait/test, or the locks of passive target
 * open and close.
 *
 * An operation is queued at its origin: where it goes in the target's
 * window -- as runs of bytes, computed at the origin from the target
 * datatype, since derived datatypes are the origin process's -- and its
 * data, packed at the call (the origin buffer may change after it).  The
 * data moves at the synchronization that closes the epoch, as MPI allows,
 * in ordinary messages on the context of the window's private
 * communicator (a duplicate of the one it was created over), so the trace
 * records them like any other:
 *
 *   fence   one message from each origin to each target it has
 *           operations for, a reduce-scatter of how many origins send to
 *           each rank and how many bytes (so that a target knows what to
 *           receive), and one reply from each target to each origin that asked for
 *           data (Get, the fetching accumulates, Compare_and_swap);
 *   PSCW    at MPI_Win_complete, a header (how many bytes of operations
 *           follow) to each target of the MPI_Win_start group, then the
 *           operations if there are any; the target receives them in
 *           MPI_Win_wait (or MPI_Win_test, once every header is there),
 *           applies them and replies to the origins that asked for data,
 *           which MPI_Win_complete waits for.
 *
 * A target applies its origins' operations in the order of their ranks,
 * each origin's in the order it issued them, so that a run is
 * reproducible; an accumulate is applied element by element with the
 * reduction code of op.c.  The ranks of a window may live in different
 * processes: all they exchange goes through point-to-point.  A target's
 * window memory changes only inside its own synchronization calls, which
 * is why the window's memory model is MPI_WIN_SEPARATE.
 *
 * Passive target (locks, flushes, MPI_Win_sync) is at the end of this
 * file: the target takes part in the next MPI call it waits or polls in.
 * Request-based operations and dynamic or shared windows are refused
 * (unsupported.c).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	EMU_API(r, "MPI_Alloc_mem");
	(void)info;
	if (size < 0)
		emu_mpi_error(r, "MPI_Alloc_mem", MPI_ERR_ARG, "negative size "
			      "%lld", (long long)size);
	void *p = malloc(size ? (size_t)size : 1);
	if (!p)
		emu_mpi_error(r, "MPI_Alloc_mem", MPI_ERR_NO_MEM, "no memory "
			      "for %lld bytes", (long long)size);
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
	EMU_API(r, "MPI_Free_mem");
	(void)r;
	free(base);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ windows */

/* The tags of the window's messages, on its private context. */
enum { TAG_OPS = 1, TAG_REPLY = 2, TAG_HDR = 3, TAG_FENCE = 4, /* and 5 */
       TAG_PREPLY = 6 };    /* passive target's replies; its epochs go
                               with EMU_TAG_PASSIVE (emu_p2p.h) */

enum { OP_PUT = 1, OP_GET, OP_ACC, OP_GACC, OP_CAS };

/* An operation as it travels to its target: this header, nruns runs,
 * then its data -- PUT, ACC, GACC: `bytes' (none for MPI_NO_OP); CAS:
 * the new value then the compare value. */
typedef struct rma_hdr {
	uint8_t kind;
	uint8_t pad[3];
	int32_t op;             /* ACC, GACC */
	int32_t basic;          /* ACC, GACC, CAS: the basic type */
	uint32_t nruns;
	uint64_t disp;          /* bytes from the target's window base */
	uint64_t bytes;         /* bytes of the target's window it touches */
	uint64_t data;          /* bytes of data after the runs */
} rma_hdr;

/* A run of the target's memory, from disp, in type-map order. */
typedef struct rma_run {
	int64_t off, len;
} rma_run;

typedef struct rma_buf {
	char *p;
	uint64_t n, cap;
} rma_buf;

/* Where the part of a reply that an operation asked for goes. */
typedef struct rma_res {
	void *addr;
	int count;
	MPI_Datatype type;
	uint64_t bytes;
} rma_res;

/* What the origin has queued for one target in this epoch. */
typedef struct rma_tgt {
	int rank;               /* in the window's group */
	rma_buf ops;
	rma_res *res;
	uint32_t nres, cres;
	uint64_t reply;         /* bytes the target will send back */
	/* Passive target: the lock this origin holds on it (0, or
	 * MPI_LOCK_SHARED / MPI_LOCK_EXCLUSIVE), and whether the target
	 * has had a message of the epoch (and so granted the lock). */
	uint8_t lock, sent;
} rma_tgt;

/* Every rank's window, as the others need it. */
typedef struct rma_peer {
	int64_t size;
	int32_t disp_unit;
	int32_t pad;
} rma_peer;

/* An exposure epoch (MPI_Win_post), per origin of its group: the
 * receive of its header and what it says, whether its operations were
 * applied, and the reply they got. */
typedef struct rma_expo {
	emu_group *g;
	emu_req **hdr_q;
	uint64_t *hdr;
	uint8_t *served;
	uint32_t nserved;
	emu_req **rep_q;
	rma_buf *rep;
} rma_expo;

typedef struct emu_win {
	MPI_Win handle;
	MPI_Comm comm;          /* private duplicate of the creator's */
	int rank, size;
	void *base;
	MPI_Aint wsize;
	int disp_unit;
	int flavor, model;
	void *owned;            /* MPI_Win_allocate's memory */
	rma_peer *peers;
	/* Epochs: a fence's (access and exposure to every rank), or
	 * MPI_Win_start's access and MPI_Win_post's exposure groups. */
	uint8_t fence;
	emu_group *access;
	struct rma_expo *expose;
	/* The targets with operations queued: tg[slot[h] - 1] for hash h
	 * of the target (open addressing; nslot a power of two). */
	rma_tgt *tg;
	uint32_t ntg, ctg;
	uint32_t *slot, nslot;
	uint64_t nfence;        /* fences that exchanged (their tag) */
	/* Passive target, as an origin: targets locked (MPI_Win_lock),
	 * and MPI_Win_lock_all's shared lock on every rank. */
	uint32_t nlocked;
	uint8_t lockall;
	/* As a target: this rank's lock, its holders (this rank itself
	 * among them when it locked its own window), the epochs that wait
	 * for it, and the replies not sent yet. */
	struct rma_lock *lk;
} emu_win;

/* A rank's windows: handle h is w[h - 1]. */
typedef struct rma_rank {
	emu_win **w;
	uint32_t n;
} rma_rank;

#define MODES_FENCE (MPI_MODE_NOSTORE | MPI_MODE_NOPUT | \
		     MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)
#define MODES_POST (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)
#define MODES_START MPI_MODE_NOCHECK

static void *rma_alloc(emu_rank *r, const char *call, uint64_t n)
{
	void *p = n < SIZE_MAX ? malloc(n ? (size_t)n : 1) : NULL;
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for %llu "
			      "bytes of one-sided communication",
			      (unsigned long long)n);
	return p;
}

static void *rma_zalloc(emu_rank *r, const char *call, uint64_t n)
{
	void *p = rma_alloc(r, call, n);
	memset(p, 0, n ? (size_t)n : 1);
	return p;
}

/* Array a of *cap elements of `size' bytes, full, with twice the room
 * (`what' names its elements for an error). */
static void *array_grow(emu_rank *r, const char *call, void *a,
			uint32_t *cap, size_t size, const char *what)
{
	uint32_t c = *cap ? 2 * *cap : 8;
	void *p = c <= INT32_MAX / 2 ? realloc(a, (size_t)c * size) : NULL;
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for %u %s",
			      c, what);
	*cap = c;
	return p;
}

/* Room for n more bytes at the end of b; returns where they go. */
static char *buf_grow(emu_rank *r, const char *call, rma_buf *b, uint64_t n)
{
	if (b->n + n > b->cap) {
		uint64_t c = b->cap ? 2 * b->cap : 256;
		while (c < b->n + n)
			c *= 2;
		char *p = c < SIZE_MAX ? realloc(b->p, (size_t)c) : NULL;
		if (!p)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for "
				      "%llu bytes of one-sided operations",
				      (unsigned long long)c);
		b->p = p;
		b->cap = c;
	}
	char *at = b->p + b->n;
	b->n += n;
	return at;
}

static emu_win *win_lookup(emu_rank *r, MPI_Win h)
{
	rma_rank *t = r->wins;
	if (!t || h <= 0 || (uint32_t)h > t->n)
		return NULL;
	return t->w[h - 1];
}

/* Window h of r, or an MPI_ERR_WIN error; its errors go to its handler
 * from here on. */
static emu_win *win_get(emu_rank *r, MPI_Win h, const char *call)
{
	emu_win *w = win_lookup(r, h);
	if (!w)
		emu_mpi_error(r, call, MPI_ERR_WIN, "%d is not a window of "
			      "this rank%s", h, h == MPI_WIN_NULL ?
			      " (MPI_WIN_NULL)" : " (never created, or "
			      "freed?)");
	r->err_comm = w->comm;
	return w;
}

static MPI_Win win_install(emu_rank *r, const char *call, emu_win *w)
{
	rma_rank *t = r->wins;
	if (!t)
		t = r->wins = rma_zalloc(r, call, sizeof *t);
	uint32_t h = 0;
	while (h < t->n && t->w[h])
		h++;
	if (h == t->n) {
		t->w = array_grow(r, call, t->w, &t->n, sizeof *t->w,
				  "windows");
		memset(t->w + h, 0, (t->n - h) * sizeof *t->w);
	}
	t->w[h] = w;
	w->handle = (MPI_Win)(h + 1);
	return w->handle;
}

/* Forget what is queued (the epoch has closed). */
static void targets_clear(emu_win *w)
{
	for (uint32_t i = 0; i < w->ntg; i++) {
		rma_tgt *g = &w->tg[i];
		for (uint32_t k = 0; k < g->nres; k++)
			emu_dt_release(g->res[k].type);
		free(g->ops.p);
		free(g->res);
	}
	w->ntg = 0;
	if (w->slot)
		memset(w->slot, 0, w->nslot * sizeof *w->slot);
}

static void expo_free(rma_expo *x)
{
	for (int i = 0; i < x->g->size; i++)
		free(x->rep[i].p);
	emu_group_unref(x->g);
	free(x->rep);
	free(x->rep_q);
	free(x->served);
	free(x->hdr_q);
	free(x->hdr);
	free(x);
}

static void lock_free(struct rma_lock *l);
static void serve_passive(emu_rank *r, const char *call);

static void win_destroy(emu_win *w)
{
	targets_clear(w);
	lock_free(w->lk);
	if (w->access)
		emu_group_unref(w->access);
	if (w->expose)
		expo_free(w->expose);
	free(w->tg);
	free(w->slot);
	free(w->peers);
	free(w->owned);
	free(w);
}

void emu_rma_free_rank(emu_rank *r)
{
	rma_rank *t = r->wins;
	if (!t)
		return;
	for (uint32_t h = 0; h < t->n; h++)
		if (t->w[h])
			win_destroy(t->w[h]);
	free(t->w);
	free(t);
	r->wins = NULL;
}

/* The queue of target t (a rank of the window), made on first use. */
static rma_tgt *target_of(emu_rank *r, const char *call, emu_win *w, int t)
{
	if (2 * (w->ntg + 1) > w->nslot) {
		uint32_t n = w->nslot ? 2 * w->nslot : 16;
		uint32_t *s = rma_zalloc(r, call, n * sizeof *s);
		for (uint32_t i = 0; i < w->ntg; i++) {
			uint32_t h = (uint32_t)w->tg[i].rank * 2654435761u;
			while (s[h & (n - 1)])
				h++;
			s[h & (n - 1)] = i + 1;
		}
		free(w->slot);
		w->slot = s;
		w->nslot = n;
	}
	uint32_t h = (uint32_t)t * 2654435761u;
	for (;; h++) {
		uint32_t k = w->slot[h & (w->nslot - 1)];
		if (!k)
			break;
		if (w->tg[k - 1].rank == t)
			return &w->tg[k - 1];
	}
	if (w->ntg == w->ctg)
		w->tg = array_grow(r, call, w->tg, &w->ctg, sizeof *w->tg,
				   "targets");
	rma_tgt *g = &w->tg[w->ntg++];
	memset(g, 0, sizeof *g);
	g->rank = t;
	w->slot[h & (w->nslot - 1)] = w->ntg;
	return g;
}

static rma_tgt *target_find(emu_win *w, int t)
{
	if (!w->nslot)
		return NULL;
	for (uint32_t h = (uint32_t)t * 2654435761u;; h++) {
		uint32_t k = w->slot[h & (w->nslot - 1)];
		if (!k)
			return NULL;
		if (w->tg[k - 1].rank == t)
			return &w->tg[k - 1];
	}
}

/* ----------------------------------------------- creation, freeing */

static MPI_Win win_create(emu_rank *r, const char *call, const void *site,
			  void *base, MPI_Aint size, int disp_unit,
			  MPI_Comm comm, int flavor, void *owned)
{
	emu_comm *c = emu_comm_intra(r, comm, call);
	emu_win *w = rma_alloc(r, call, sizeof *w);
	*w = (emu_win){ .base = base, .wsize = size, .disp_unit = disp_unit,
			.flavor = flavor, .model = MPI_WIN_SEPARATE,
			.owned = owned, .rank = c->rank,
			.size = emu_comm_size(c) };
	w->peers = rma_alloc(r, call, (uint64_t)w->size * sizeof *w->peers);
	/* The window's messages never meet the program's: they go on a
	 * context of their own, agreed like MPI_Comm_dup's. */
	w->comm = emu_comm_derive(r, comm, NULL, call, site);
	emu_comm *wc = r->comms[w->comm];
	win_install(r, call, w);
	wc->win = w->handle;
	emu.p2p.rma_serve = serve_passive;
	/* A window's errors stop the run until the program says otherwise,
	 * whatever the communicator's handler (MPI-3.1 8.3). */
	emu_errh_set(r, call, wc, MPI_ERRORS_ARE_FATAL);
	/* Every rank needs the size and unit of every target's window, to
	 * check and place its operations. */
	rma_peer me = { (int64_t)size, disp_unit, 0 };
	emu_rec_enter(r, site);
	emu_coll_bytes(r, call, COLL_ALLGATHER, w->comm, &me, w->peers,
		       sizeof me);
	emu_rec_leave(r, call);
	return w->handle;
}

static void check_create(emu_rank *r, const char *call, MPI_Aint size,
			 int disp_unit, MPI_Win *win)
{
	if (!win)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL window pointer");
	if (size < 0)
		emu_mpi_error(r, call, MPI_ERR_SIZE, "negative size %lld",
			      (long long)size);
	if (disp_unit <= 0)
		emu_mpi_error(r, call, MPI_ERR_DISP, "displacement unit %d: "
			      "it must be positive", disp_unit);
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	const char *call = "MPI_Win_create";
	EMU_API(r, call);
	(void)info;             /* hints: none is used */
	check_create(r, call, size, disp_unit, win);
	if (!base && size > 0)
		emu_mpi_error(r, call, MPI_ERR_BASE, "NULL base for a window "
			      "of %lld bytes", (long long)size);
	*win = win_create(r, call, EMU_SITE, base, size, disp_unit, comm,
			  MPI_WIN_FLAVOR_CREATE, NULL);
	return MPI_SUCCESS;
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
		     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	const char *call = "MPI_Win_allocate";
	EMU_API(r, call);
	(void)info;
	check_create(r, call, size, disp_unit, win);
	if (!baseptr)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL base pointer");
	emu_comm_intra(r, comm, call);
	void *p = rma_zalloc(r, call, (uint64_t)size);
	*win = win_create(r, call, EMU_SITE, p, size, disp_unit, comm,
			  MPI_WIN_FLAVOR_ALLOCATE, p);
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

static int epoch_open(const emu_win *w)
{
	return w->ntg || w->access || w->expose || w->nlocked || w->lockall;
}

static void passive_free(emu_rank *r, const char *call, emu_win *w);

int MPI_Win_free(MPI_Win *win)
{
	const char *call = "MPI_Win_free";
	EMU_API(r, call);
	if (!win)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL window pointer");
	emu_win *w = win_get(r, *win, call);
	if (epoch_open(w))
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s has an epoch "
			      "open (%s): close it first (MPI_Win_fence, "
			      "MPI_Win_complete, MPI_Win_wait)",
			      emu_comm_describe(r, w->comm), w->lockall ?
			      "MPI_Win_lock_all without MPI_Win_unlock_all" :
			      w->nlocked ? "MPI_Win_lock without "
			      "MPI_Win_unlock" : w->ntg ?
			      "operations not synchronized yet" : w->access ?
			      "MPI_Win_start without MPI_Win_complete" :
			      "MPI_Win_post without MPI_Win_wait");
	/* Every operation of this rank on the window has completed at its
	 * closing synchronization; those of other origins in passive
	 * epochs on this rank complete in the barrier. */
	emu_rec_enter(r, EMU_SITE);
	passive_free(r, call, w);
	emu_rec_leave(r, call);
	r->err_comm = MPI_COMM_WORLD;
	emu_comm_release(r, w->comm);
	((rma_rank *)r->wins)->w[*win - 1] = NULL;
	win_destroy(w);
	*win = MPI_WIN_NULL;
	return MPI_SUCCESS;
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
		     int *flag)
{
	const char *call = "MPI_Win_get_attr";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	if (!attribute_val || !flag)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s pointer",
			      flag ? "attribute" : "flag");
	void *v;
	switch (win_keyval) {
	case MPI_WIN_BASE:
		v = w->base;
		break;
	case MPI_WIN_SIZE:
		v = &w->wsize;
		break;
	case MPI_WIN_DISP_UNIT:
		v = &w->disp_unit;
		break;
	case MPI_WIN_CREATE_FLAVOR:
		v = &w->flavor;
		break;
	case MPI_WIN_MODEL:
		v = &w->model;
		break;
	default:
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not a window "
			      "attribute key: the predefined ones "
			      "(MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, "
			      "MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL) are the "
			      "only ones (MPI_Win_create_keyval is not "
			      "emulated)", win_keyval);
	}
	*(void **)attribute_val = v;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	const char *call = "MPI_Win_get_group";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	return emu_group_give(r, call, r->comms[w->comm]->group, group);
}

/* A window's name is its private communicator's. */
int MPI_Win_set_name(MPI_Win win, const char *win_name)
{
	const char *call = "MPI_Win_set_name";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	emu_comm_set_name(r, call, r->comms[w->comm], win_name);
	return MPI_SUCCESS;
}

int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
	const char *call = "MPI_Win_get_name";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	emu_comm_get_name(r, call, r->comms[w->comm], "", win_name,
			  resultlen);
	return MPI_SUCCESS;
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info)
{
	const char *call = "MPI_Win_set_info";
	EMU_API(r, call);
	win_get(r, win, call);
	/* MPI lets an implementation ignore hints; none changes how this
	 * one moves data. */
	(void)info;
	return MPI_SUCCESS;
}

int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
	const char *call = "MPI_Win_get_info";
	EMU_API(r, call);
	win_get(r, win, call);
	if (!info_used)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL info pointer");
	/* No hint is used: a new, empty info object. */
	return MPI_Info_create(info_used);
}

/* ------------------------------------------------------ error handlers */

int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function,
			      MPI_Errhandler *errhandler)
{
	const char *call = "MPI_Win_create_errhandler";
	EMU_API(r, call);
	/* One table for both kinds: the handler of a window is called with
	 * the window (errhandler.c), and MPI_Win and MPI_Comm are both
	 * int, so the functions have the same shape. */
	emu_errh_create(r, call, (MPI_Comm_errhandler_function *)
			(void (*)(void))function, errhandler);
	return MPI_SUCCESS;
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
	const char *call = "MPI_Win_set_errhandler";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	emu_errh_set(r, call, r->comms[w->comm], errhandler);
	return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
	const char *call = "MPI_Win_get_errhandler";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	emu_errh_get(r, call, r->comms[w->comm], errhandler);
	return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
	const char *call = "MPI_Win_call_errhandler";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	emu_comm *c = r->comms[w->comm];
	if (c->errhandler == MPI_ERRORS_ARE_FATAL)
		emu_mpi_error(r, call, errorcode >= 0 && errorcode <=
			      MPI_ERR_LASTCODE ? errorcode : MPI_ERR_UNKNOWN,
			      "the program raised error code %d on %s",
			      errorcode, emu_comm_describe(r, w->comm));
	emu_comm_user_errhandler(r, errorcode);
	return MPI_SUCCESS;
}

/* ---------------------------------------------------- the operations */

/* The runs of the target's memory an operation touches, collected as
 * emu_dt_runs gives them (those that touch merged). */
typedef struct run_list {
	rma_run *u;
	uint32_t n, cap;
	int64_t lo, hi;
	int nomem;
} run_list;

static void run_add(void *arg, int64_t disp, int64_t len)
{
	run_list *l = arg;
	if (!len || l->nomem)
		return;
	if (l->n && l->u[l->n - 1].off + l->u[l->n - 1].len == disp) {
		l->u[l->n - 1].len += len;
	} else {
		if (l->n == l->cap) {
			uint32_t c = l->cap ? 2 * l->cap : 8;
			rma_run *p = c < UINT32_MAX / 2 ?
				realloc(l->u, c * sizeof *p) : NULL;
			if (!p) {
				l->nomem = 1;
				return;
			}
			l->u = p;
			l->cap = c;
		}
		l->u[l->n].off = disp;
		l->u[l->n].len = len;
		l->n++;
	}
	if (disp < l->lo)
		l->lo = disp;
	if (disp + len > l->hi)
		l->hi = disp + len;
}

static void check_type(emu_rank *r, const char *call, int count,
		       MPI_Datatype t, const char *what)
{
	emu_dt_check(r, call, t);
	if (count < 0)
		emu_mpi_error(r, call, MPI_ERR_COUNT, "negative %s count %d",
			      what, count);
}

/* The basic type an accumulate's data is made of. */
static MPI_Datatype acc_basic(emu_rank *r, const char *call, MPI_Datatype t,
			      const char *what)
{
	int64_t n;
	MPI_Datatype b = emu_dt_basic(t, &n);
	if (b == MPI_DATATYPE_NULL && emu_dt_size(t) > 0)
		emu_mpi_error(r, call, MPI_ERR_TYPE, "the %s datatype %s mixes "
			      "basic types: an accumulate's elements are of "
			      "one predefined type", what, emu_dt_name(t));
	return b;
}

/*
 * Queue an operation of kind `kind' of r on window win for target rank t:
 * `o' (ocount of otype) is the data it sends (PUT, ACC, GACC; CAS: the
 * new value, `cmp' the compare value), `res' (rcount of rtype) where its
 * answer goes (GET, GACC, CAS; GET's is the origin buffer), the target
 * part is tcount of ttype at tdisp units of the target's window.
 */
static void queue_op(emu_rank *r, const char *call, MPI_Win win, int kind,
		     const void *o, int ocount, MPI_Datatype otype,
		     const void *cmp, void *res, int rcount,
		     MPI_Datatype rtype, int t, MPI_Aint tdisp, int tcount,
		     MPI_Datatype ttype, MPI_Op op)
{
	emu_win *w = win_get(r, win, call);
	int sends = kind == OP_PUT || kind == OP_ACC || kind == OP_CAS ||
		(kind == OP_GACC && op != MPI_NO_OP);
	int gets = kind == OP_GET || kind == OP_GACC || kind == OP_CAS;
	if (t != MPI_PROC_NULL && (t < 0 || t >= w->size))
		emu_mpi_error(r, call, MPI_ERR_RANK, "target %d is not a rank "
			      "of %s (size %d)", t,
			      emu_comm_describe(r, w->comm), w->size);
	if (sends)
		check_type(r, call, ocount, otype, "origin");
	if (gets)
		check_type(r, call, rcount, rtype, "result");
	check_type(r, call, tcount, ttype, "target");
	int64_t tbytes = (int64_t)tcount * emu_dt_size(ttype);
	if (sends && (int64_t)ocount * emu_dt_size(otype) != tbytes)
		emu_mpi_error(r, call, MPI_ERR_TYPE, "%lld bytes at the "
			      "origin (%d of %s) for %lld at the target (%d "
			      "of %s): the type signatures must match",
			      (long long)ocount * emu_dt_size(otype), ocount,
			      emu_dt_name(otype), (long long)tbytes, tcount,
			      emu_dt_name(ttype));
	if (gets && (int64_t)rcount * emu_dt_size(rtype) != tbytes)
		emu_mpi_error(r, call, MPI_ERR_TYPE, "a result buffer of "
			      "%lld bytes (%d of %s) for %lld at the target "
			      "(%d of %s): the type signatures must match",
			      (long long)rcount * emu_dt_size(rtype), rcount,
			      emu_dt_name(rtype), (long long)tbytes, tcount,
			      emu_dt_name(ttype));
	MPI_Datatype basic = MPI_DATATYPE_NULL;
	if (kind == OP_ACC || kind == OP_GACC) {
		if (op < MPI_MAX || op > MPI_NO_OP)
			emu_mpi_error(r, call, MPI_ERR_OP, "operation %d: "
				      "accumulates take a predefined "
				      "operation (MPI-3.1 11.3.4), not one of "
				      "MPI_Op_create", op);
		if (kind == OP_ACC && op == MPI_NO_OP)
			emu_mpi_error(r, call, MPI_ERR_OP, "MPI_NO_OP is for "
				      "MPI_Get_accumulate and "
				      "MPI_Fetch_and_op");
		emu_op_check(r, call, op, ttype);
		basic = acc_basic(r, call, ttype, "target");
		if (sends && acc_basic(r, call, otype, "origin") != basic)
			emu_mpi_error(r, call, MPI_ERR_TYPE, "the origin's "
				      "elements (%s) are not of the target's "
				      "basic type (%s)", emu_dt_name(otype),
				      emu_dt_name(ttype));
		if (basic == MPI_DATATYPE_NULL)
			basic = MPI_BYTE;
	} else if (kind == OP_CAS) {
		int64_t n;
		basic = emu_dt_basic(ttype, &n);
		if (basic != ttype || basic == MPI_DATATYPE_NULL)
			emu_mpi_error(r, call, MPI_ERR_TYPE, "%s: "
				      "MPI_Compare_and_swap takes one element "
				      "of a predefined type",
				      emu_dt_name(ttype));
	}
	int passive = !w->fence && !w->access;
	if (passive && !w->nlocked && !w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is not in an "
			      "access epoch: open one with MPI_Win_fence, "
			      "MPI_Win_start, MPI_Win_lock or "
			      "MPI_Win_lock_all",
			      emu_comm_describe(r, w->comm));
	if (t == MPI_PROC_NULL)
		return;
	if (passive && !w->lockall) {
		rma_tgt *lg = target_find(w, t);
		if (!lg || !lg->lock)
			emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "target %d "
				      "of %s is not locked (MPI_Win_lock)", t,
				      emu_comm_describe(r, w->comm));
	}
	emu_comm *c = r->comms[w->comm];
	if (w->access && !w->fence &&
	    emu_group_rank_of(w->access, emu_comm_world(c, t)) < 0)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "target %d is not in "
			      "the group of the MPI_Win_start that opened "
			      "this access epoch of %s", t,
			      emu_comm_describe(r, w->comm));
	if (tdisp < 0)
		emu_mpi_error(r, call, MPI_ERR_DISP, "negative target "
			      "displacement %lld", (long long)tdisp);
	if (!tbytes)
		return;         /* nothing moves */

	/* Where the data goes, checked against the target's window. */
	run_list l = { NULL, 0, 0, INT64_MAX, INT64_MIN, 0 };
	emu_dt_runs(ttype, tcount, run_add, &l);
	if (l.nomem) {
		free(l.u);
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "no memory for the "
			      "layout of %d elements of %s", tcount,
			      emu_dt_name(ttype));
	}
	const rma_peer *p = &w->peers[t];
	int64_t disp = (int64_t)tdisp * p->disp_unit;
	if (disp / p->disp_unit != (int64_t)tdisp || disp + l.lo < 0 ||
	    disp + l.hi > p->size) {
		free(l.u);
		emu_mpi_error(r, call, MPI_ERR_RMA_RANGE, "bytes %lld to %lld "
			      "of rank %d's memory in %s, which has %lld "
			      "(target displacement %lld, unit %d, %d of %s)",
			      (long long)(disp + l.lo),
			      (long long)(disp + l.hi), t,
			      emu_comm_describe(r, w->comm),
			      (long long)p->size, (long long)tdisp,
			      p->disp_unit, tcount, emu_dt_name(ttype));
	}

	rma_tgt *g = target_of(r, call, w, t);
	if (passive && w->lockall)
		g->lock = MPI_LOCK_SHARED;
	rma_hdr h;
	memset(&h, 0, sizeof h);
	h.kind = (uint8_t)kind;
	h.op = op;
	h.basic = basic;
	h.nruns = l.n;
	h.disp = (uint64_t)disp;
	h.bytes = (uint64_t)tbytes;
	h.data = sends ? (uint64_t)tbytes * (kind == OP_CAS ? 2 : 1) : 0;
	uint64_t runs = (uint64_t)l.n * sizeof *l.u;
	char *at = buf_grow(r, call, &g->ops, sizeof h + runs + h.data);
	memcpy(at, &h, sizeof h);
	memcpy(at + sizeof h, l.u, runs);
	free(l.u);
	at += sizeof h + runs;
	if (sends) {
		emu_dt_pack(o, ocount, otype, at);
		if (kind == OP_CAS)
			emu_dt_pack(cmp, ocount, otype, at + tbytes);
	}
	if (gets) {
		if (g->nres == g->cres)
			g->res = array_grow(r, call, g->res, &g->cres,
					    sizeof *g->res, "results");
		/* MPI lets the program free the type before the answer
		 * comes. */
		emu_dt_retain(rtype);
		g->res[g->nres++] = (rma_res){ res, rcount, rtype,
					       (uint64_t)tbytes };
		g->reply += (uint64_t)tbytes;
	}
}

int MPI_Put(const void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	const char *call = "MPI_Put";
	EMU_API(r, call);
	queue_op(r, call, win, OP_PUT, origin_addr, origin_count,
		 origin_datatype, NULL, NULL, 0, MPI_DATATYPE_NULL,
		 target_rank, target_disp, target_count, target_datatype,
		 MPI_OP_NULL);
	return MPI_SUCCESS;
}

int MPI_Get(void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	const char *call = "MPI_Get";
	EMU_API(r, call);
	queue_op(r, call, win, OP_GET, NULL, 0, MPI_DATATYPE_NULL, NULL,
		 origin_addr, origin_count, origin_datatype, target_rank,
		 target_disp, target_count, target_datatype, MPI_OP_NULL);
	return MPI_SUCCESS;
}

int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_datatype, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	const char *call = "MPI_Accumulate";
	EMU_API(r, call);
	queue_op(r, call, win, OP_ACC, origin_addr, origin_count,
		 origin_datatype, NULL, NULL, 0, MPI_DATATYPE_NULL,
		 target_rank, target_disp, target_count, target_datatype,
		 op);
	return MPI_SUCCESS;
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count,
		       MPI_Datatype origin_datatype, void *result_addr,
		       int result_count, MPI_Datatype result_datatype,
		       int target_rank, MPI_Aint target_disp,
		       int target_count, MPI_Datatype target_datatype,
		       MPI_Op op, MPI_Win win)
{
	const char *call = "MPI_Get_accumulate";
	EMU_API(r, call);
	queue_op(r, call, win, OP_GACC, origin_addr, origin_count,
		 origin_datatype, NULL, result_addr, result_count,
		 result_datatype, target_rank, target_disp, target_count,
		 target_datatype, op);
	return MPI_SUCCESS;
}

/* ------------------------------------------- request-based operations */

static void passive_sync(emu_rank *r, const char *call, emu_win *w,
			 rma_tgt *g, int last);

/*
 * MPI_Rput .. MPI_Rget_accumulate: queue_op's operation, in a passive-
 * target epoch only (MPI-3.1 11.3.5), and its request, complete at once.
 * A put's or an accumulate's completion is local (the origin buffer may
 * be reused), and its data was packed at the call.  A get's is the data
 * in place, so a reading operation first completes what is queued for
 * its target, as MPI_Win_flush would, inside this call: its time is
 * spent here rather than in the MPI_Wait that follows, which loses the
 * overlap of the get with the program's work between the two, never a
 * result.
 */
static void request_op(emu_rank *r, const char *call, MPI_Win win,
		       int kind, const void *o, int ocount,
		       MPI_Datatype otype, void *res, int rcount,
		       MPI_Datatype rtype, int t, MPI_Aint tdisp, int tcount,
		       MPI_Datatype ttype, MPI_Op op, MPI_Request *request)
{
	emu_win *w = win_get(r, win, call);
	if (!request)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL request pointer");
	if (!w->nlocked && !w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is not in a "
			      "passive-target epoch (MPI_Win_lock or "
			      "MPI_Win_lock_all), the only one request-based "
			      "operations may be in",
			      emu_comm_describe(r, w->comm));
	queue_op(r, call, win, kind, o, ocount, otype, NULL, res, rcount,
		 rtype, t, tdisp, tcount, ttype, op);
	rma_tgt *g = t == MPI_PROC_NULL ? NULL : target_find(w, t);
	if ((kind == OP_GET || kind == OP_GACC) && g) {
		emu_rec_enter(r, EMU_SITE);
		passive_sync(r, call, w, g, 0);
		emu_rec_leave(r, call);
	}
	emu_req *q = emu_req_new_coll(r, call, NULL);
	emu_req_complete(q);
	*request = q->handle;
}

int MPI_Rput(const void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank,
	     MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	const char *call = "MPI_Rput";
	EMU_API(r, call);
	request_op(r, call, win, OP_PUT, origin_addr, origin_count,
		   origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
		   target_disp, target_count, target_datatype, MPI_OP_NULL,
		   request);
	return MPI_SUCCESS;
}

int MPI_Rget(void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank,
	     MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	const char *call = "MPI_Rget";
	EMU_API(r, call);
	request_op(r, call, win, OP_GET, NULL, 0, MPI_DATATYPE_NULL,
		   origin_addr, origin_count, origin_datatype, target_rank,
		   target_disp, target_count, target_datatype, MPI_OP_NULL,
		   request);
	return MPI_SUCCESS;
}

int MPI_Raccumulate(const void *origin_addr, int origin_count,
		    MPI_Datatype origin_datatype, int target_rank,
		    MPI_Aint target_disp, int target_count,
		    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
		    MPI_Request *request)
{
	const char *call = "MPI_Raccumulate";
	EMU_API(r, call);
	request_op(r, call, win, OP_ACC, origin_addr, origin_count,
		   origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
		   target_disp, target_count, target_datatype, op, request);
	return MPI_SUCCESS;
}

int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
			MPI_Datatype origin_datatype, void *result_addr,
			int result_count, MPI_Datatype result_datatype,
			int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_datatype,
			MPI_Op op, MPI_Win win, MPI_Request *request)
{
	const char *call = "MPI_Rget_accumulate";
	EMU_API(r, call);
	request_op(r, call, win, OP_GACC, origin_addr, origin_count,
		   origin_datatype, result_addr, result_count, result_datatype,
		   target_rank, target_disp, target_count, target_datatype, op,
		   request);
	return MPI_SUCCESS;
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
		     MPI_Datatype datatype, int target_rank,
		     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
	const char *call = "MPI_Fetch_and_op";
	EMU_API(r, call);
	queue_op(r, call, win, OP_GACC, origin_addr, 1, datatype, NULL,
		 result_addr, 1, datatype, target_rank, target_disp, 1,
		 datatype, op);
	return MPI_SUCCESS;
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype datatype,
			 int target_rank, MPI_Aint target_disp, MPI_Win win)
{
	const char *call = "MPI_Compare_and_swap";
	EMU_API(r, call);
	queue_op(r, call, win, OP_CAS, origin_addr, 1, datatype, compare_addr,
		 result_addr, 1, datatype, target_rank, target_disp, 1,
		 datatype, MPI_OP_NULL);
	return MPI_SUCCESS;
}

/* ------------------------------------------- applying at the target */

static void gather(const emu_win *w, const rma_hdr *h, const rma_run *u,
		   char *out)
{
	for (uint32_t i = 0; i < h->nruns; i++) {
		memcpy(out, (char *)w->base + h->disp + u[i].off,
		       (size_t)u[i].len);
		out += u[i].len;
	}
}

static void scatter(emu_win *w, const rma_hdr *h, const rma_run *u,
		    const char *in)
{
	for (uint32_t i = 0; i < h->nruns; i++) {
		memcpy((char *)w->base + h->disp + u[i].off, in,
		       (size_t)u[i].len);
		in += u[i].len;
	}
}

/* cur = in op cur, on `bytes' packed bytes of basic type b. */
static void combine(emu_rank *r, const char *call, MPI_Op op, MPI_Datatype b,
		    const char *in, char *cur, uint64_t bytes)
{
	if (op == MPI_NO_OP)
		return;
	if (op == MPI_REPLACE) {
		memcpy(cur, in, bytes);
		return;
	}
	int64_t esz = emu_dt_size(b), n = (int64_t)bytes / esz;
	if (emu_dt_contiguous(b)) {
		while (n > 0) {
			int k = n > INT_MAX ? INT_MAX : (int)n;
			emu_op_apply(op, in, cur, k, b);
			in += (size_t)k * (size_t)esz;
			cur += (size_t)k * (size_t)esz;
			n -= k;
		}
		return;
	}
	/* A pair type: packed is not its memory layout, which the
	 * operation works on. */
	uint64_t span = (uint64_t)n * (uint64_t)emu_dt_extent(b);
	char *x = rma_alloc(r, call, span), *y = rma_alloc(r, call, span);
	emu_dt_unpack(in, bytes, x, n, b);
	emu_dt_unpack(cur, bytes, y, n, b);
	emu_op_apply(op, x, y, (int)n, b);
	emu_dt_pack(y, n, b, cur);
	free(x);
	free(y);
}

/* Apply the n bytes of operations `p' of window w's rank `from' to r's
 * window, in their order; what they read goes to the end of `reply'. */
static void apply(emu_rank *r, const char *call, emu_win *w, int from,
		  const char *p, uint64_t n, rma_buf *reply)
{
	const char *end = p + n;
	while (p < end) {
		rma_hdr h;
		if ((uint64_t)(end - p) < sizeof h)
			goto bad;
		memcpy(&h, p, sizeof h);
		p += sizeof h;
		uint64_t runs = (uint64_t)h.nruns * sizeof(rma_run);
		if ((uint64_t)(end - p) < runs ||
		    (uint64_t)(end - p) - runs < h.data)
			goto bad;
		/* The runs may not be aligned in the message. */
		rma_run *u = rma_alloc(r, call, runs);
		memcpy(u, p, runs);
		p += runs;
		const char *data = p;
		p += h.data;
		uint64_t sum = 0;
		for (uint32_t i = 0; i < h.nruns; i++) {
			if (u[i].len < 0 || (int64_t)h.disp + u[i].off < 0 ||
			    (int64_t)h.disp + u[i].off + u[i].len >
			    (int64_t)w->wsize) {
				free(u);
				emu_mpi_error(r, call, MPI_ERR_RMA_RANGE,
					      "rank %d's operation reaches "
					      "past this rank's window of "
					      "%lld bytes", from,
					      (long long)w->wsize);
			}
			sum += (uint64_t)u[i].len;
		}
		if (sum != h.bytes) {
			free(u);
			goto bad;
		}
		char *cur;
		switch (h.kind) {
		case OP_PUT:
			scatter(w, &h, u, data);
			break;
		case OP_GET:
			gather(w, &h, u, buf_grow(r, call, reply, h.bytes));
			break;
		case OP_ACC:
		case OP_GACC:
			cur = h.kind == OP_GACC ?
				buf_grow(r, call, reply, h.bytes) :
				rma_alloc(r, call, h.bytes);
			gather(w, &h, u, cur);
			if (h.op != MPI_NO_OP) {
				/* The reply keeps the value before. */
				char *v = cur;
				if (h.kind == OP_GACC) {
					v = rma_alloc(r, call, h.bytes);
					memcpy(v, cur, h.bytes);
				}
				combine(r, call, h.op, h.basic, data, v,
					h.bytes);
				scatter(w, &h, u, v);
				if (v != cur)
					free(v);
			}
			if (h.kind == OP_ACC)
				free(cur);
			break;
		case OP_CAS:
			cur = buf_grow(r, call, reply, h.bytes);
			gather(w, &h, u, cur);
			if (!memcmp(cur, data + h.bytes, h.bytes))
				scatter(w, &h, u, data);
			break;
		default:
			free(u);
			goto bad;
		}
		free(u);
	}
	return;
bad:
	emu_fatal("internal error: rank %d received malformed one-sided "
		  "operations from rank %d of its window", r->world, from);
}

/* The reply of target g arrived in `in': each result its part. */
static void unpack_results(rma_tgt *g, const char *in)
{
	for (uint32_t k = 0; k < g->nres; k++) {
		rma_res *q = &g->res[k];
		emu_dt_unpack(in, q->bytes, q->addr, q->count, q->type);
		in += q->bytes;
	}
}

/* Wait for the n requests of q (NULL ones skipped) and hand them over. */
static void wait_all(emu_rank *r, const char *call, emu_req **q, int n)
{
	for (int i = 0; i < n; i++)
		if (q[i]) {
			emu_p2p_wait(r, call, q[i]);
			emu_p2p_finish(r, q[i], NULL);
			q[i] = NULL;
		}
}

/* ------------------------------------------------------------- fence */

/* The assertion bits a synchronization call takes (`allowed', named by
 * `names'): another is an MPI_ERR_ASSERT error. */
static void check_assert(emu_rank *r, const char *call, int assert,
			 int allowed, const char *names)
{
	if (assert & ~allowed)
		emu_mpi_error(r, call, MPI_ERR_ASSERT, "assertion %#x: %s "
			      "takes %s", (unsigned)assert, call, names);
}

/* What an origin sent a target in a fence epoch: its operations, in the
 * target's one buffer, and the reply they make. */
typedef struct rma_in {
	int from;
	const char *p;
	uint64_t n;
} rma_in;

static int in_cmp(const void *a, const void *b)
{
	const rma_in *x = a, *y = b;
	return (x->from > y->from) - (x->from < y->from);
}

/* A target's count of origins and of bytes, summed in one word by the
 * fence's reduce-scatter: origins above FENCE_SHIFT bits of bytes. */
#define FENCE_SHIFT 40
#define FENCE_BYTES ((UINT64_C(1) << FENCE_SHIFT) - 1)

/*
 * Close the fence epoch of r on w: the operations travel, the targets
 * apply them and answer.  Inside the call (the SEB has ended).
 *
 * A target learns how many origins send to it, and how many bytes in
 * all, from one MPI_Reduce_scatter_block of a word per rank (recursive
 * halving: log P messages a rank), and then receives that many messages
 * from any source: Open MPI's osc/pt2pt does the same.  An all-to-all of
 * the counts took P^2 messages, or P log P of P log P bytes a rank with
 * Bruck's algorithm, and per rank arrays of P requests and buffers, 256
 * KiB a rank at 4,096 ranks while all of them wait in the fence.  The
 * operations are applied in origin order whatever order they came in,
 * so that a run is reproducible.  Fences alternate between two tags: an
 * origin can be one fence ahead of a target (the reduce-scatter of the
 * next needs the target in it), not two, and its operations for the next
 * epoch must not match a receive of this one.
 */
static void fence_exchange(emu_rank *r, const char *call, emu_win *w)
{
	emu_comm *c = r->comms[w->comm];
	int P = w->size, me = w->rank;
	int tag = TAG_FENCE + (int)(w->nfence++ & 1);
	uint64_t *out = rma_zalloc(r, call, (uint64_t)P * sizeof *out);
	/* Per target slot: the send of its operations, then the receive
	 * of its reply. */
	emu_req **tq = rma_zalloc(r, call, ((uint64_t)w->ntg + 1) *
				  sizeof *tq);
	char **tb = rma_zalloc(r, call, ((uint64_t)w->ntg + 1) * sizeof *tb);

	/* The operations leave at once: they were ready at the fence. */
	for (uint32_t i = 0; i < w->ntg; i++) {
		rma_tgt *g = &w->tg[i];
		if (g->rank == me || !g->ops.n)
			continue;
		if (g->ops.n > FENCE_BYTES)
			emu_mpi_error(r, call, MPI_ERR_COUNT, "%llu bytes of "
				      "operations for rank %d of %s in one "
				      "epoch; this version sends at most %llu",
				      (unsigned long long)g->ops.n, g->rank,
				      emu_comm_describe(r, w->comm),
				      (unsigned long long)FENCE_BYTES);
		out[g->rank] = (UINT64_C(1) << FENCE_SHIFT) | g->ops.n;
		tq[i] = emu_p2p_isend_raw(r, call, g->ops.p, g->ops.n,
					  emu_comm_world(c, g->rank), c->ctx,
					  tag, w->comm);
	}
	uint64_t mine = 0;
	emu_coll_reduce_block(r, call, w->comm, out, &mine, 1, MPI_UINT64_T,
			      MPI_SUM);
	free(out);
	uint32_t nin = (uint32_t)(mine >> FENCE_SHIFT);
	uint64_t total = mine & FENCE_BYTES, off = 0;
	rma_in *in = rma_zalloc(r, call, ((uint64_t)nin + 1) * sizeof *in);
	char *all = rma_alloc(r, call, total ? total : 1);
	for (uint32_t k = 0; k < nin; k++) {
		MPI_Status st;
		emu_req *q = emu_p2p_irecv_raw(r, call, all + off,
					       total - off, -1, c->ctx, tag,
					       w->comm);
		emu_p2p_wait(r, call, q);
		emu_p2p_finish(r, q, &st);
		in[k].from = st.MPI_SOURCE;
		in[k].p = all + off;
		in[k].n = (uint64_t)st.sibyl_count;
		off += in[k].n;
	}
	qsort(in, nin, sizeof *in, in_cmp);
	wait_all(r, call, tq, (int)w->ntg);

	/* Apply them, origin by origin, this rank's own in its place; the
	 * replies depend on them. */
	emu_stamp t0;
	emu_stamp_now(&t0);
	rma_tgt *self = target_find(w, me);
	rma_buf *rep = rma_zalloc(r, call, ((uint64_t)nin + 1) *
				  sizeof *rep);
	rma_buf self_rep = { 0 };
	int self_done = !self;
	for (uint32_t k = 0; k <= nin; k++) {
		if (!self_done && (k == nin || in[k].from > me)) {
			apply(r, call, w, me, self->ops.p, self->ops.n,
			      &self_rep);
			self_done = 1;
		}
		if (k < nin)
			apply(r, call, w, in[k].from, in[k].p, in[k].n,
			      &rep[k]);
	}
	free(all);
	if (self && self->reply)
		unpack_results(self, self_rep.p);
	free(self_rep.p);
	if (P > 1) {
		emu_span sp;
		emu_stamp_since(&t0, &sp);
		emu_rec_step_measured(r, call, &sp);
	}
	for (uint32_t i = 0; i < w->ntg; i++) {
		rma_tgt *g = &w->tg[i];
		if (g->rank == me || !g->reply)
			continue;
		tb[i] = rma_alloc(r, call, g->reply);
		tq[i] = emu_p2p_irecv_raw(r, call, tb[i], g->reply,
					  emu_comm_world(c, g->rank), c->ctx,
					  TAG_REPLY, w->comm);
	}
	emu_req **rq = rma_zalloc(r, call, ((uint64_t)nin + 1) * sizeof *rq);
	for (uint32_t k = 0; k < nin; k++)
		if (rep[k].n)
			rq[k] = emu_p2p_isend_raw(r, call, rep[k].p, rep[k].n,
						  emu_comm_world(c, in[k].from),
						  c->ctx, TAG_REPLY, w->comm);
	wait_all(r, call, tq, (int)w->ntg);
	wait_all(r, call, rq, (int)nin);
	for (uint32_t i = 0; i < w->ntg; i++) {
		rma_tgt *g = &w->tg[i];
		if (tb[i])
			unpack_results(g, tb[i]);
		free(tb[i]);
	}
	for (uint32_t k = 0; k < nin; k++)
		free(rep[k].p);
	free(rq);
	free(rep);
	free(in);
	free(tb);
	free(tq);
	targets_clear(w);
}

int MPI_Win_fence(int assert, MPI_Win win)
{
	const char *call = "MPI_Win_fence";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	check_assert(r, call, assert, MODES_FENCE, "MPI_MODE_NOSTORE, "
		     "MPI_MODE_NOPUT, MPI_MODE_NOPRECEDE and "
		     "MPI_MODE_NOSUCCEED");
	if (w->access || w->expose)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is in an epoch of "
			      "%s: close it (%s) before a fence",
			      emu_comm_describe(r, w->comm), w->access ?
			      "MPI_Win_start" : "MPI_Win_post", w->access ?
			      "MPI_Win_complete" : "MPI_Win_wait");
	if ((assert & MPI_MODE_NOPRECEDE) && w->ntg)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "MPI_MODE_NOPRECEDE, "
			      "but this rank has operations on %s to "
			      "complete", emu_comm_describe(r, w->comm));
	emu_rec_enter(r, EMU_SITE);
	/* MPI_MODE_NOPRECEDE, which every rank of the window gives if one
	 * does: no operation to complete anywhere, no message. */
	if (!(assert & MPI_MODE_NOPRECEDE))
		fence_exchange(r, call, w);
	/* MPI_MODE_NOSUCCEED: no epoch follows; operations before the next
	 * fence are errors. */
	w->fence = !(assert & MPI_MODE_NOSUCCEED);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* -------------------------------------------- post, start, complete, wait */

/* The group of handle `group' for an epoch of w: all its members are
 * ranks of the window (a new reference). */
static emu_group *epoch_group(emu_rank *r, const char *call, emu_win *w,
			      MPI_Group group)
{
	emu_group *g = emu_group_get(r, group, call);
	emu_comm *c = r->comms[w->comm];
	for (int i = 0; i < g->size; i++)
		if (emu_comm_rank_of(c, emu_group_world(g, i)) < 0)
			emu_mpi_error(r, call, MPI_ERR_GROUP, "member %d of "
				      "the group (world rank %d) is not a "
				      "rank of %s", i, emu_group_world(g, i),
				      emu_comm_describe(r, w->comm));
	emu_group_ref(g);
	return g;
}

static void check_no_fence(emu_rank *r, const char *call, emu_win *w)
{
	if (w->ntg && !w->access)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s has operations "
			      "of a fence epoch not completed: end it with "
			      "MPI_Win_fence first",
			      emu_comm_describe(r, w->comm));
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	const char *call = "MPI_Win_post";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	check_assert(r, call, assert, MODES_POST, "MPI_MODE_NOCHECK, "
		     "MPI_MODE_NOSTORE and MPI_MODE_NOPUT");
	if (w->expose)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is exposed "
			      "already: MPI_Win_wait ends that epoch first",
			      emu_comm_describe(r, w->comm));
	check_no_fence(r, call, w);
	emu_group *g = epoch_group(r, call, w, group);
	emu_comm *c = r->comms[w->comm];
	uint64_t n = (uint64_t)g->size + 1;
	emu_rec_enter(r, EMU_SITE);
	w->fence = 0;
	rma_expo *x = w->expose = rma_zalloc(r, call, sizeof *x);
	x->g = g;
	x->hdr_q = rma_zalloc(r, call, n * sizeof *x->hdr_q);
	x->hdr = rma_zalloc(r, call, n * sizeof *x->hdr);
	x->rep_q = rma_zalloc(r, call, n * sizeof *x->rep_q);
	x->rep = rma_zalloc(r, call, n * sizeof *x->rep);
	x->served = rma_zalloc(r, call, n);
	/* Each origin's header says what follows at its
	 * MPI_Win_complete. */
	for (int i = 0; i < g->size; i++)
		x->hdr_q[i] = emu_p2p_irecv_raw(r, call, &x->hdr[i],
						sizeof *x->hdr,
						emu_group_world(g, i), c->ctx,
						TAG_HDR, w->comm);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	const char *call = "MPI_Win_start";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	check_assert(r, call, assert, MODES_START, "MPI_MODE_NOCHECK");
	if (w->access)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is in an access "
			      "epoch already: MPI_Win_complete ends it first",
			      emu_comm_describe(r, w->comm));
	check_no_fence(r, call, w);
	/* Local: the operations wait for MPI_Win_complete, and a target
	 * applies them only once it has posted. */
	w->access = epoch_group(r, call, w, group);
	w->fence = 0;
	return MPI_SUCCESS;
}

/* Origin i of w's exposure group has sent its header: receive its
 * operations (sent right after it), apply them, send the reply.  Inside
 * a call. */
static void serve_origin(emu_rank *r, const char *call, emu_win *w, int i)
{
	emu_comm *c = r->comms[w->comm];
	rma_expo *x = w->expose;
	int32_t world = emu_group_world(x->g, i);
	emu_p2p_finish(r, x->hdr_q[i], NULL);
	x->hdr_q[i] = NULL;
	x->served[i] = 1;
	x->nserved++;
	if (!x->hdr[i])
		return;
	char *buf = rma_alloc(r, call, x->hdr[i]);
	emu_req *q = emu_p2p_irecv_raw(r, call, buf, x->hdr[i], world, c->ctx,
				       TAG_OPS, w->comm);
	emu_p2p_wait(r, call, q);
	emu_p2p_finish(r, q, NULL);
	/* The reply depends on the operations: a step of its own. */
	emu_stamp t0;
	emu_stamp_now(&t0);
	apply(r, call, w, emu_comm_rank_of(c, world), buf, x->hdr[i],
	      &x->rep[i]);
	free(buf);
	emu_span sp;
	emu_stamp_since(&t0, &sp);
	emu_rec_step_measured(r, call, &sp);
	if (x->rep[i].n)
		x->rep_q[i] = emu_p2p_isend_raw(r, call, x->rep[i].p,
						x->rep[i].n, world, c->ctx,
						TAG_REPLY, w->comm);
}

/* Serve the origins whose headers have come; 1 when all are served. */
static int serve_arrived(emu_rank *r, const char *call, emu_win *w)
{
	rma_expo *x = w->expose;
	for (int i = 0; i < x->g->size; i++)
		if (!x->served[i] && x->hdr_q[i]->complete)
			serve_origin(r, call, w, i);
	return x->nserved == (uint32_t)x->g->size;
}

int MPI_Win_complete(MPI_Win win)
{
	const char *call = "MPI_Win_complete";
	EMU_API(r, call);
	emu_win *w = win_get(r, win, call);
	if (!w->access)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is not in an "
			      "access epoch of MPI_Win_start",
			      emu_comm_describe(r, w->comm));
	emu_comm *c = r->comms[w->comm];
	emu_group *g = w->access;
	int n = g->size;
	emu_rec_enter(r, EMU_SITE);
	uint64_t *hdr = rma_zalloc(r, call, (uint64_t)(n + 1) * sizeof *hdr);
	/* Per target: the header, the operations, the reply. */
	emu_req **q = rma_zalloc(r, call, 3 * (uint64_t)(n + 1) * sizeof *q);
	char **bufs = rma_zalloc(r, call, (uint64_t)(n + 1) * sizeof *bufs);
	rma_tgt **tg = rma_zalloc(r, call, (uint64_t)(n + 1) * sizeof *tg);
	for (int i = 0; i < n; i++) {
		int32_t world = emu_group_world(g, i);
		rma_tgt *t = tg[i] = target_find(w, emu_comm_rank_of(c,
								     world));
		if (t && t->reply) {
			bufs[i] = rma_alloc(r, call, t->reply);
			q[2 * n + i] = emu_p2p_irecv_raw(r, call, bufs[i],
							 t->reply, world,
							 c->ctx, TAG_REPLY,
							 w->comm);
		}
		hdr[i] = t ? t->ops.n : 0;
		q[i] = emu_p2p_isend_raw(r, call, &hdr[i], sizeof *hdr,
					 world, c->ctx, TAG_HDR, w->comm);
		if (hdr[i])
			q[n + i] = emu_p2p_isend_raw(r, call, t->ops.p,
						     t->ops.n, world, c->ctx,
						     TAG_OPS, w->comm);
	}
	/* Operations of more than the eager size leave once their target
	 * receives them, and the answers come once it has applied them: it
	 * does both in any synchronization call of its exposure epoch --
	 * such as this one, where a ring of ranks that each access the next
	 * one all are.  Meanwhile this rank serves its own origins. */
	for (int k = 0; k < 3 * n; k++) {
		if (!q[k])
			continue;
		while (w->expose && !q[k]->complete &&
		       !serve_arrived(r, call, w))
			emu_p2p_poll_turn(r, call);
		emu_p2p_wait(r, call, q[k]);
		emu_p2p_finish(r, q[k], NULL);
		q[k] = NULL;
	}
	for (int i = 0; i < n; i++)
		if (bufs[i]) {
			unpack_results(tg[i], bufs[i]);
			free(bufs[i]);
		}
	free(tg);
	free(bufs);
	free(q);
	free(hdr);
	targets_clear(w);
	emu_group_unref(w->access);
	w->access = NULL;
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* Serve the origins not served yet, waiting for their headers, and end
 * the exposure epoch once every reply has left.  Inside the call. */
static void wait_finish(emu_rank *r, const char *call, emu_win *w)
{
	rma_expo *x = w->expose;
	int n = x->g->size;
	for (int i = 0; i < n; i++)
		if (!x->served[i]) {
			emu_p2p_wait(r, call, x->hdr_q[i]);
			serve_origin(r, call, w, i);
		}
	wait_all(r, call, x->rep_q, n);
	expo_free(w->expose);
	w->expose = NULL;
}

static emu_win *exposed(emu_rank *r, const char *call, MPI_Win win)
{
	emu_win *w = win_get(r, win, call);
	if (!w->expose)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is not in an "
			      "exposure epoch of MPI_Win_post",
			      emu_comm_describe(r, w->comm));
	return w;
}

int MPI_Win_wait(MPI_Win win)
{
	const char *call = "MPI_Win_wait";
	EMU_API(r, call);
	emu_win *w = exposed(r, call, win);
	emu_rec_enter(r, EMU_SITE);
	wait_finish(r, call, w);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Win_test(MPI_Win win, int *flag)
{
	const char *call = "MPI_Win_test";
	EMU_API(r, call);
	if (!flag)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL flag pointer");
	emu_win *w = exposed(r, call, win);
	emu_rec_enter(r, EMU_SITE);
	*flag = serve_arrived(r, call, w);
	if (!*flag) {
		emu_p2p_poll_turn(r, call);
		*flag = serve_arrived(r, call, w);
	}
	/* Every origin served: what is left is sending the replies, which
	 * does not wait for another rank's program. */
	if (*flag)
		wait_finish(r, call, w);
	emu_rec_leave_poll(r, call, *flag);
	return MPI_SUCCESS;
}

/* ---------------------------------------------------- passive target */

/*
 * Passive target (MPI_Win_lock/unlock, lock_all/unlock_all, the flushes,
 * MPI_Win_sync), as an MPI library without asynchronous progress runs
 * it (Open MPI's osc/pt2pt, or osc/rdma over a network without RDMA):
 * the target takes part in whatever MPI call it waits or polls in next.
 *
 * The origin queues its operations as in the other epochs.  The lock is
 * taken lazily, with the first message the target gets: a flush, or the
 * unlock, sends the target one message (EMU_TAG_PASSIVE on the window's
 * context) with the lock's type, whether it asks for the lock (first of
 * the epoch) and releases it (the unlock), and the operations; and waits
 * for the target's reply, the data its gets fetched or nothing.  An epoch
 * with no operation sends nothing.  The target serves such messages in
 * its next MPI call that waits or polls (p2p.c's rma_turn: MPI_Wait,
 * MPI_Recv, a collective, MPI_Test, MPI_Iprobe, ...): it grants the lock
 * (an exclusive lock to one origin at a time, shared ones together,
 * epochs that must wait kept in arrival order), applies the operations,
 * records their time as a step of that call, and replies.  The messages
 * are ordinary ones, awaited by the step, so the trace records what the
 * synchronization implies and `sibyl sim' replays it: an origin's unlock
 * waits for the target's next MPI call, as it does on such a library.
 *
 * A lock on the rank's own window is taken at once (MPI_Win_lock waits
 * while another origin holds it exclusively), and its operations are
 * applied at the flush or unlock without messages.  MPI_Win_free starts
 * with a barrier, in whose waits a target serves the epochs its origins
 * closed before their own MPI_Win_free.
 */

/* The header of an epoch's message, before its operations. */
typedef struct rma_pas {
	uint32_t lock;          /* MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE */
	uint32_t flags;         /* PAS_* */
	uint64_t ops;           /* bytes of operations that follow */
} rma_pas;
#define PAS_FIRST 1u            /* asks for the lock */
#define PAS_LAST 2u             /* releases it: MPI_Win_unlock(_all) */

/* An epoch's message the target has received. */
typedef struct rma_pmsg {
	struct rma_pmsg *next;
	int from;               /* window rank of the origin */
	char *p;                /* header and operations */
	uint64_t n;
} rma_pmsg;

/* A reply on its way. */
typedef struct rma_psend {
	emu_req *q;
	char *buf;
} rma_psend;

typedef struct rma_lock {
	int excl;               /* window rank holding it exclusively, or -1 */
	uint32_t shared;        /* holders of the shared lock */
	rma_pmsg *head, *tail;  /* epochs waiting for it */
	rma_psend *out;         /* replies in flight */
	uint32_t nout, cout;
	uint8_t serving;
} rma_lock;

static rma_lock *lock_of(emu_rank *r, const char *call, emu_win *w)
{
	if (!w->lk) {
		w->lk = rma_zalloc(r, call, sizeof *w->lk);
		w->lk->excl = -1;
	}
	return w->lk;
}

static int lock_free_for(const rma_lock *l, uint32_t type)
{
	return l->excl < 0 && (type == MPI_LOCK_SHARED || !l->shared);
}

static void lock_take(rma_lock *l, uint32_t type, int who)
{
	if (type == MPI_LOCK_EXCLUSIVE)
		l->excl = who;
	else
		l->shared++;
}

static void lock_drop(rma_lock *l, uint32_t type)
{
	if (type == MPI_LOCK_EXCLUSIVE)
		l->excl = -1;
	else if (l->shared)
		l->shared--;
}

/* Finish the replies that have left (all of them when `all'). */
static void replies_reap(emu_rank *r, const char *call, rma_lock *l, int all)
{
	uint32_t j = 0;
	for (uint32_t i = 0; i < l->nout; i++) {
		rma_psend *s = &l->out[i];
		if (all)
			emu_p2p_wait(r, call, s->q);
		if (!s->q->complete) {
			l->out[j++] = *s;
			continue;
		}
		emu_p2p_finish(r, s->q, NULL);
		free(s->buf);
	}
	l->nout = j;
}

static void lock_release(emu_rank *r, const char *call, emu_win *w,
			 uint32_t type);

/* Apply the epoch message m of a holder of the lock and reply; at its
 * end, release the lock.  Inside the call. */
static void serve_epoch(emu_rank *r, const char *call, emu_win *w,
			rma_pmsg *m)
{
	rma_lock *l = w->lk;
	rma_pas h;
	memcpy(&h, m->p, sizeof h);
	emu_stamp t0;
	emu_stamp_now(&t0);
	rma_buf rep = { 0 };
	apply(r, call, w, m->from, m->p + sizeof h, h.ops, &rep);
	emu_span sp;
	emu_stamp_since(&t0, &sp);
	emu_rec_step_measured(r, call, &sp);
	emu_comm *c = r->comms[w->comm];
	if (l->nout == l->cout)
		l->out = array_grow(r, call, l->out, &l->cout, sizeof *l->out,
				    "replies");
	rma_psend *s = &l->out[l->nout++];
	s->buf = rep.p;
	s->q = emu_p2p_isend_raw(r, call, rep.p, rep.n,
				 emu_comm_world(c, m->from), c->ctx,
				 TAG_PREPLY, w->comm);
	free(m->p);
	free(m);
	if (h.flags & PAS_LAST)
		lock_release(r, call, w, h.lock);
}

/* Release a lock of `type' on w's target side, and serve the epochs
 * that waited for it, in their order, while they can have it. */
static void lock_release(emu_rank *r, const char *call, emu_win *w,
			 uint32_t type)
{
	rma_lock *l = w->lk;
	lock_drop(l, type);
	while (l->head) {
		rma_pmsg *m = l->head;
		rma_pas h;
		memcpy(&h, m->p, sizeof h);
		if (!lock_free_for(l, h.lock))
			break;
		l->head = m->next;
		if (!l->head)
			l->tail = NULL;
		lock_take(l, h.lock, m->from);
		serve_epoch(r, call, w, m);
	}
}

/* Receive the first epoch message on w, if one is there, and serve it
 * (or keep it until the lock is free).  Returns 0 if there was none. */
static int serve_one(emu_rank *r, const char *call, emu_win *w)
{
	emu_comm *c = r->comms[w->comm];
	int32_t src;
	uint64_t n;
	if (!emu_p2p_probe_raw(r, c->ctx, EMU_TAG_PASSIVE, &src, &n))
		return 0;
	rma_lock *l = lock_of(r, call, w);
	rma_pmsg *m = rma_zalloc(r, call, sizeof *m);
	m->p = rma_alloc(r, call, n);
	m->n = n;
	MPI_Status st;
	emu_req *q = emu_p2p_irecv_raw(r, call, m->p, n, src, c->ctx,
				       EMU_TAG_PASSIVE, w->comm);
	emu_p2p_wait(r, call, q);
	emu_p2p_finish(r, q, &st);
	m->from = st.MPI_SOURCE;
	rma_pas h;
	if (n < sizeof h || (memcpy(&h, m->p, sizeof h), h.ops != n - sizeof h))
		emu_fatal("internal error: rank %d received a malformed "
			  "passive-target epoch from rank %d of its window",
			  r->world, m->from);
	if (h.flags & PAS_FIRST) {
		if (l->head || !lock_free_for(l, h.lock)) {
			if (l->tail)
				l->tail->next = m;
			else
				l->head = m;
			l->tail = m;
			return 1;
		}
		lock_take(l, h.lock, m->from);
	}
	serve_epoch(r, call, w, m);
	return 1;
}

/* p2p's hook (emu.p2p.rma_serve): epochs came for r. */
static void serve_passive(emu_rank *r, const char *call)
{
	rma_rank *t = r->wins;
	if (!t)
		return;
	for (uint32_t i = 0; i < t->n && r->rma_passive; i++) {
		emu_win *w = t->w[i];
		if (!w || (w->lk && w->lk->serving))
			continue;
		rma_lock *l = lock_of(r, call, w);
		l->serving = 1;
		replies_reap(r, call, l, 0);
		while (serve_one(r, call, w))
			;
		l->serving = 0;
	}
}

/* Take this rank's own lock on its window, after the epochs queued for
 * it before (arrival order, as for other origins), serving other origins
 * meanwhile.  Inside the call. */
static void lock_self(emu_rank *r, const char *call, emu_win *w,
		      uint32_t type)
{
	rma_lock *l = lock_of(r, call, w);
	while (l->head || !lock_free_for(l, type)) {
		serve_passive(r, call);
		if (!l->head && lock_free_for(l, type))
			break;
		emu_p2p_poll_turn(r, call);
	}
	lock_take(l, type, w->rank);
}

/* Complete at target g what this rank queued for it in the passive
 * epoch; `last': and end the epoch there.  Inside the call. */
static void passive_sync(emu_rank *r, const char *call, emu_win *w,
			 rma_tgt *g, int last)
{
	if (g->rank == w->rank) {
		if (g->ops.n) {
			emu_stamp t0;
			emu_stamp_now(&t0);
			rma_buf rep = { 0 };
			apply(r, call, w, w->rank, g->ops.p, g->ops.n, &rep);
			if (g->reply)
				unpack_results(g, rep.p);
			free(rep.p);
			emu_span sp;
			emu_stamp_since(&t0, &sp);
			emu_rec_step_measured(r, call, &sp);
		}
	} else if (g->ops.n || (last && g->sent)) {
		emu_comm *c = r->comms[w->comm];
		int32_t world = emu_comm_world(c, g->rank);
		char *reply = rma_alloc(r, call, g->reply);
		emu_req *rq = emu_p2p_irecv_raw(r, call, reply, g->reply,
						world, c->ctx, TAG_PREPLY,
						w->comm);
		rma_pas h = { g->lock, (g->sent ? 0 : PAS_FIRST) |
			      (last ? PAS_LAST : 0), g->ops.n };
		char *msg = rma_alloc(r, call, sizeof h + g->ops.n);
		memcpy(msg, &h, sizeof h);
		if (g->ops.n)
			memcpy(msg + sizeof h, g->ops.p, g->ops.n);
		emu_req *sq = emu_p2p_isend_raw(r, call, msg,
						sizeof h + g->ops.n, world,
						c->ctx, EMU_TAG_PASSIVE,
						w->comm);
		emu_p2p_wait(r, call, sq);
		emu_p2p_finish(r, sq, NULL);
		emu_p2p_wait(r, call, rq);
		emu_p2p_finish(r, rq, NULL);
		free(msg);
		if (g->reply)
			unpack_results(g, reply);
		free(reply);
		g->sent = 1;
	}
	for (uint32_t k = 0; k < g->nres; k++)
		emu_dt_release(g->res[k].type);
	g->nres = 0;
	g->ops.n = 0;
	g->reply = 0;
	if (last) {
		if (g->rank == w->rank && g->sent)
			lock_release(r, call, w, g->lock);
		g->sent = 0;
		g->lock = 0;
	}
}

/* The window of a passive-target call, checked: no active-target epoch
 * open on it. */
static emu_win *passive_win(emu_rank *r, const char *call, MPI_Win win)
{
	emu_win *w = win_get(r, win, call);
	if (w->access || w->expose || (w->ntg && !w->nlocked && !w->lockall))
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is in an "
			      "active-target epoch (%s): close it first",
			      emu_comm_describe(r, w->comm), w->access ?
			      "MPI_Win_start" : w->expose ? "MPI_Win_post" :
			      "operations of a fence epoch");
	return w;
}

static void check_target(emu_rank *r, const char *call, emu_win *w, int t)
{
	if (t < 0 || t >= w->size)
		emu_mpi_error(r, call, MPI_ERR_RANK, "rank %d is not a rank "
			      "of %s (it has %d)", t,
			      emu_comm_describe(r, w->comm), w->size);
}

/* End the passive epochs of w when no lock is left: its queues go. */
static void passive_done(emu_win *w)
{
	if (!w->nlocked && !w->lockall)
		targets_clear(w);
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	const char *call = "MPI_Win_lock";
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
		emu_mpi_error(r, call, MPI_ERR_LOCKTYPE, "lock type %d: "
			      "MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE",
			      lock_type);
	check_assert(r, call, assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK");
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	check_target(r, call, w, rank);
	if (w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is locked by "
			      "MPI_Win_lock_all: MPI_Win_unlock_all first",
			      emu_comm_describe(r, w->comm));
	rma_tgt *g = target_of(r, call, w, rank);
	if (g->lock)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "rank %d of %s is "
			      "locked already: MPI_Win_unlock first", rank,
			      emu_comm_describe(r, w->comm));
	g->lock = (uint8_t)lock_type;
	w->nlocked++;
	/* A lock on its own window is taken now (`sent' says so), unless
	 * MPI_MODE_NOCHECK says nobody else can hold it. */
	if (rank == w->rank && !(assert & MPI_MODE_NOCHECK)) {
		emu_rec_enter(r, EMU_SITE);
		lock_self(r, call, w, (uint32_t)lock_type);
		g->sent = 1;
		emu_rec_leave(r, call);
	}
	return MPI_SUCCESS;
}

/* The locked target `rank' of w, or an MPI_ERR_RMA_SYNC error. */
static rma_tgt *locked_target(emu_rank *r, const char *call, emu_win *w,
			      int rank)
{
	check_target(r, call, w, rank);
	rma_tgt *g = target_find(w, rank);
	if ((!g || !g->lock) && !w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "rank %d of %s is "
			      "not locked (MPI_Win_lock or MPI_Win_lock_all)",
			      rank, emu_comm_describe(r, w->comm));
	return g;
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
	const char *call = "MPI_Win_unlock";
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is locked by "
			      "MPI_Win_lock_all: end it with "
			      "MPI_Win_unlock_all", emu_comm_describe(r,
								     w->comm));
	rma_tgt *g = locked_target(r, call, w, rank);
	emu_rec_enter(r, EMU_SITE);
	passive_sync(r, call, w, g, 1);
	w->nlocked--;
	passive_done(w);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
	const char *call = "MPI_Win_lock_all";
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	check_assert(r, call, assert, MPI_MODE_NOCHECK, "MPI_MODE_NOCHECK");
	if (w->lockall || w->nlocked)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s has a lock "
			      "already (%s)", emu_comm_describe(r, w->comm),
			      w->lockall ? "MPI_Win_lock_all" :
			      "MPI_Win_lock");
	w->lockall = 1;
	/* Every target, this rank's own included, gets a shared lock as
	 * its queue is made (target_of). */
	rma_tgt *g = target_of(r, call, w, w->rank);
	g->lock = MPI_LOCK_SHARED;
	if (!(assert & MPI_MODE_NOCHECK)) {
		emu_rec_enter(r, EMU_SITE);
		lock_self(r, call, w, MPI_LOCK_SHARED);
		g->sent = 1;
		emu_rec_leave(r, call);
	}
	return MPI_SUCCESS;
}

/* Complete (and with `last', end) every passive epoch of w.  Inside the
 * call. */
static void passive_sync_all(emu_rank *r, const char *call, emu_win *w,
			     int last)
{
	for (uint32_t i = 0; i < w->ntg; i++) {
		rma_tgt *g = &w->tg[i];
		if (g->lock)
			passive_sync(r, call, w, g, last);
	}
}

int MPI_Win_unlock_all(MPI_Win win)
{
	const char *call = "MPI_Win_unlock_all";
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	if (!w->lockall)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s is not locked "
			      "by MPI_Win_lock_all",
			      emu_comm_describe(r, w->comm));
	emu_rec_enter(r, EMU_SITE);
	passive_sync_all(r, call, w, 1);
	w->lockall = 0;
	passive_done(w);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

/* MPI_Win_flush and MPI_Win_flush_local: the local completion of an
 * operation here is its remote completion (its data was packed at the
 * call; a get's data is in place only once the target answered). */
static int flush_common(const char *call, int rank, MPI_Win win)
{
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	if (rank == MPI_PROC_NULL)
		return MPI_SUCCESS;
	rma_tgt *g = locked_target(r, call, w, rank);
	if (!g)
		return MPI_SUCCESS;     /* lock_all, nothing for it yet */
	emu_rec_enter(r, EMU_SITE);
	passive_sync(r, call, w, g, 0);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Win_flush(int rank, MPI_Win win)
{
	return flush_common("MPI_Win_flush", rank, win);
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
	return flush_common("MPI_Win_flush_local", rank, win);
}

static int flush_all_common(const char *call, MPI_Win win)
{
	EMU_API(r, call);
	emu_win *w = passive_win(r, call, win);
	if (!w->lockall && !w->nlocked)
		emu_mpi_error(r, call, MPI_ERR_RMA_SYNC, "%s has no lock "
			      "(MPI_Win_lock or MPI_Win_lock_all)",
			      emu_comm_describe(r, w->comm));
	emu_rec_enter(r, EMU_SITE);
	passive_sync_all(r, call, w, 0);
	emu_rec_leave(r, call);
	return MPI_SUCCESS;
}

int MPI_Win_flush_all(MPI_Win win)
{
	return flush_all_common("MPI_Win_flush_all", win);
}

int MPI_Win_flush_local_all(MPI_Win win)
{
	return flush_all_common("MPI_Win_flush_local_all", win);
}

/* The window's memory is one copy (its model is MPI_WIN_SEPARATE only in
 * that a target's memory changes inside its MPI calls): nothing to
 * synchronize. */
int MPI_Win_sync(MPI_Win win)
{
	const char *call = "MPI_Win_sync";
	EMU_API(r, call);
	(void)win_get(r, win, call);
	return MPI_SUCCESS;
}

/* MPI_Win_free's part: a barrier over the window, in whose waits this
 * rank serves the epochs its origins ended before their own
 * MPI_Win_free; then its replies finish.  Inside the call. */
static void passive_free(emu_rank *r, const char *call, emu_win *w)
{
	emu_coll_barrier(r, call, w->comm);
	if (w->lk) {
		serve_passive(r, call);
		replies_reap(r, call, w->lk, 1);
	}
}

static void lock_free(rma_lock *l)
{
	if (!l)
		return;
	while (l->head) {
		rma_pmsg *m = l->head;
		l->head = m->next;
		free(m->p);
		free(m);
	}
	for (uint32_t i = 0; i < l->nout; i++)
		free(l->out[i].buf);
	free(l->out);
	free(l);
}
