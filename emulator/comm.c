/*
 * comm.c -- communicators and groups of virtual ranks (emu_comm.h);
 * attributes are in attr.c, error handlers in errhandler.c, process
 * topologies in topo.c.
 *
 * Memory.  The target is 256K ranks per job, so what a rank owns is O(1):
 * one block holding MPI_COMM_WORLD, MPI_COMM_SELF, its self group and a
 * four-slot handle table, plus one emu_comm per communicator it creates.
 * Everything O(communicator size) is shared by the ranks of a process:
 * groups are interned (a rank building a group that the process already
 * has gets the existing one), the world group is one static range, and
 * Comm_split builds each new group once per process.
 *
 * Contexts.  A new communicator's context is the largest next_ctx of the
 * parent's members, found with a recursive-doubling allreduce(MAX) of
 * real, traced messages on the parent's collective context: the trace
 * shows that a communicator exists only once every member has asked for
 * it.
 *
 * Comm_split.  Every member needs every (color, key) of the parent; an
 * allgather of them per virtual rank would be O(N) per rank.  Instead the
 * ranks of a process deposit theirs in a per-process table (one per split
 * instance, keyed by the parent's context, its first member and its
 * collective sequence number), the process sends its part once to every
 * other process hosting members of the parent (runtime messages, not
 * traced), and when the table is complete the process sorts it once and
 * builds the groups its ranks need.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

#define container_of(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		emu_fatal("out of memory (%zu bytes for communicators and "
			  "groups)", n);
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		emu_fatal("out of memory (%zu x %zu bytes for communicators "
			  "and groups)", n, size);
	return p;
}

/* The check of a required output (or input) pointer argument. */
static void check_ptr(emu_rank *r, const char *call, const void *p,
		      const char *what)
{
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s", what);
}

/* ============================================================ groups */

/* A group with what the process needs to find and share it (emu_comm.h;
 * the process state holds the pinned world and empty groups). */
typedef emu_group_obj group_obj;

static group_obj *gobj(emu_group *g)
{
	return container_of(g, group_obj, g);
}

static uint64_t hash_mix(uint64_t h, uint32_t v)
{
	h ^= v;
	return h * 0x100000001b3ull;
}

static uint64_t hash_range(int32_t first, int n)
{
	return hash_mix(hash_mix(0xcbf29ce484222325ull ^ 1, (uint32_t)first),
			(uint32_t)n);
}

static uint64_t hash_list(const int32_t *w, int n)
{
	uint64_t h = hash_mix(0xcbf29ce484222325ull ^ 2, (uint32_t)n);
	for (int i = 0; i < n; i++)
		h = hash_mix(h, (uint32_t)w[i]);
	return h;
}

static int group_same(const emu_group *g, int32_t first, const int32_t *w,
		      int n)
{
	if (g->size != n || !g->w != !w)
		return 0;
	if (!w)
		return g->first == first;
	return memcmp(g->w, w, (size_t)n * sizeof *w) == 0;
}

static group_obj *intern_find(uint64_t h, int32_t first, const int32_t *w,
			      int n)
{
	if (!emu.comm.gtab_size)
		return NULL;
	for (group_obj *o = emu.comm.gtab[h & (emu.comm.gtab_size - 1)]; o;
	     o = o->hnext)
		if (o->hash == h && group_same(&o->g, first, w, n))
			return o;
	return NULL;
}

static void intern_add(group_obj *o)
{
	if (emu.comm.gtab_count >= emu.comm.gtab_size) {
		size_t ns = emu.comm.gtab_size ? 2 * emu.comm.gtab_size : 256;
		group_obj **t = xcalloc(ns, sizeof *t);
		for (size_t i = 0; i < emu.comm.gtab_size; i++)
			while (emu.comm.gtab[i]) {
				group_obj *x = emu.comm.gtab[i];
				emu.comm.gtab[i] = x->hnext;
				x->hnext = t[x->hash & (ns - 1)];
				t[x->hash & (ns - 1)] = x;
			}
		free(emu.comm.gtab);
		emu.comm.gtab = t;
		emu.comm.gtab_size = ns;
	}
	group_obj **b = &emu.comm.gtab[o->hash & (emu.comm.gtab_size - 1)];
	o->hnext = *b;
	*b = o;
	o->interned = 1;
	emu.comm.gtab_count++;
}

static void intern_remove(group_obj *o)
{
	group_obj **p = &emu.comm.gtab[o->hash & (emu.comm.gtab_size - 1)];
	while (*p != o)
		p = &(*p)->hnext;
	*p = o->hnext;
	emu.comm.gtab_count--;
}

/* The process's group of world ranks first .. first+n-1 (a reference). */
static emu_group *group_range(int32_t first, int n)
{
	if (n == 0) {
		emu.comm.empty_gobj.g.refs++;
		return &emu.comm.empty_gobj.g;
	}
	if (first == 0 && (uint32_t)n == emu.nranks) {
		emu.comm.world_gobj.g.refs++;
		return &emu.comm.world_gobj.g;
	}
	uint64_t h = hash_range(first, n);
	group_obj *o = intern_find(h, first, NULL, n);
	if (o) {
		o->g.refs++;
		return &o->g;
	}
	o = xcalloc(1, sizeof *o);
	o->g.refs = 1;
	o->g.size = n;
	o->g.first = first;
	o->hash = h;
	o->wmin = first;
	o->wmax = first + n - 1;
	intern_add(o);
	return &o->g;
}

/* The process's group of the n world ranks w[] in that order (w malloc'd,
 * ownership passes); a reference.  Consecutive ranks become a range. */
static emu_group *group_make(int32_t *w, int n)
{
	int range = 1;
	int32_t lo = INT32_MAX, hi = -1;
	for (int i = 0; i < n; i++) {
		if (w[i] != w[0] + i)
			range = 0;
		if (w[i] < lo)
			lo = w[i];
		if (w[i] > hi)
			hi = w[i];
	}
	if (range) {
		int32_t first = n ? w[0] : 0;
		free(w);
		return group_range(first, n);
	}
	uint64_t h = hash_list(w, n);
	group_obj *o = intern_find(h, 0, w, n);
	if (o) {
		free(w);
		o->g.refs++;
		return &o->g;
	}
	o = xcalloc(1, sizeof *o);
	o->g.refs = 1;
	o->g.size = n;
	o->g.w = w;
	o->hash = h;
	o->wmin = lo;
	o->wmax = hi;
	intern_add(o);
	return &o->g;
}

void emu_group_unref(emu_group *g)
{
	if (--g->refs > 0)
		return;
	group_obj *o = gobj(g);
	if (o->pinned)
		return;
	if (o->interned)
		intern_remove(o);
	free(g->w);
	free(g->rev);
	free(o);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* rev[k]: the member with the k-th smallest world rank. */
static void build_rev(emu_group *g)
{
	int64_t *k = xmalloc((size_t)g->size * sizeof *k);
	for (int i = 0; i < g->size; i++)
		k[i] = (int64_t)g->w[i] << 32 | (uint32_t)i;
	qsort(k, (size_t)g->size, sizeof *k, cmp_i64);
	int32_t *rev = xmalloc((size_t)g->size * sizeof *rev);
	for (int i = 0; i < g->size; i++)
		rev[i] = (int32_t)(k[i] & 0xffffffff);
	free(k);
	g->rev = rev;
}

int emu_group_rank_of(emu_group *g, int32_t w)
{
	if (!g->w)
		return w >= g->first && w - g->first < g->size ?
			(int)(w - g->first) : -1;
	if (!g->rev)
		build_rev(g);
	int lo = 0, hi = g->size - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int32_t x = g->w[g->rev[mid]];
		if (x == w)
			return g->rev[mid];
		if (x < w)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* ============================================= per-rank tables, handles */

/* What every rank has from the start, in one allocation. */
typedef struct rank_block {
	emu_comm world, self;
	group_obj self_group;
	emu_comm *slots[4];
} rank_block;

static rank_block *block_of(emu_rank *r)
{
	return container_of(r->comms[MPI_COMM_WORLD], rank_block, world);
}

static void comm_drop(emu_comm *c);

void emu_comm_init_rank(emu_rank *r)
{
	rank_block *b = xcalloc(1, sizeof *b);

	emu.comm.world_gobj.g.size = (int)emu.nranks;
	emu.comm.world_gobj.wmax = (int32_t)emu.nranks - 1;
	b->self_group.g.refs = 1;
	b->self_group.g.size = 1;
	b->self_group.g.first = r->world;
	b->self_group.wmin = b->self_group.wmax = r->world;
	b->self_group.pinned = 1;
	emu.comm.world_gobj.g.refs++;
	b->world.group = &emu.comm.world_gobj.g;
	b->world.rank = r->world;
	b->world.ctx = 0;
	b->world.errhandler = MPI_ERRORS_ARE_FATAL;
	b->self.group = &b->self_group.g;
	b->self.rank = 0;
	b->self.ctx = 2;
	b->self.errhandler = MPI_ERRORS_ARE_FATAL;
	b->slots[MPI_COMM_WORLD] = &b->world;
	b->slots[MPI_COMM_SELF] = &b->self;
	r->comms = b->slots;
	r->ncomms = 4;
	r->groups = NULL;
	r->ngroups = 0;
	r->next_ctx = 4;
	r->err_comm = MPI_COMM_WORLD;
	r->err_return = 0;
}

void emu_comm_free_rank(emu_rank *r)
{
	if (!r->comms)
		return;
	rank_block *b = block_of(r);
	for (uint32_t h = MPI_COMM_SELF + 1; h < r->ncomms; h++)
		if (r->comms[h]) {
			comm_drop(r->comms[h]);
			free(r->comms[h]);
		}
	comm_drop(&b->world);
	comm_drop(&b->self);
	for (uint32_t h = 0; h < r->ngroups; h++)
		if (r->groups[h])
			emu_group_unref(r->groups[h]);
	free(r->groups);
	if (r->comms != b->slots)
		free(r->comms);
	free(b);
	r->comms = NULL;
	r->groups = NULL;
	r->ncomms = r->ngroups = 0;
}

emu_comm *emu_comm_lookup(emu_rank *r, MPI_Comm c)
{
	return c > 0 && (uint32_t)c < r->ncomms ? r->comms[c] : NULL;
}

emu_comm *emu_comm_get(emu_rank *r, MPI_Comm c, const char *call)
{
	emu_comm *p = emu_comm_lookup(r, c);
	if (!p)
		emu_mpi_error(r, call, MPI_ERR_COMM, "%d is not a "
			      "communicator of this rank%s", c,
			      c == MPI_COMM_NULL ? " (MPI_COMM_NULL)" :
			      " (never created, or freed?)");
	r->err_comm = c;
	return p;
}

const char *emu_comm_describe(emu_rank *r, MPI_Comm c)
{
	char *buf = emu.comm.name;
	size_t len = sizeof emu.comm.name;
	emu_comm *p = r ? emu_comm_lookup(r, c) : NULL;
	/* A window's private communicator carries its messages and its
	 * name: reports name the window. */
	if (p && p->win != MPI_WIN_NULL && p->name)
		snprintf(buf, len, "window %d (\"%s\")", p->win, p->name);
	else if (p && p->win != MPI_WIN_NULL)
		snprintf(buf, len, "window %d", p->win);
	else if (p && p->name)
		snprintf(buf, len, "%s", p->name);
	else if (c == MPI_COMM_WORLD)
		return "MPI_COMM_WORLD";
	else if (c == MPI_COMM_SELF)
		return "MPI_COMM_SELF";
	else if (c == MPI_COMM_NULL)
		return "MPI_COMM_NULL";
	else if (p)
		snprintf(buf, len, "communicator %d", c);
	else
		snprintf(buf, len, "communicator %d (freed or "
			 "invalid)", c);
	return buf;
}

/* Install c as a new communicator handle of r. */
static MPI_Comm comm_install(emu_rank *r, emu_comm *c)
{
	uint32_t h = MPI_COMM_SELF + 1;
	while (h < r->ncomms && r->comms[h])
		h++;
	if (h == r->ncomms) {
		if (r->ncomms >= (uint32_t)INT_MAX / 2)
			emu_fatal("rank %d has too many communicators",
				  r->world);
		uint32_t n = 2 * r->ncomms;
		emu_comm **t = xcalloc(n, sizeof *t);
		memcpy(t, r->comms, r->ncomms * sizeof *t);
		if (r->comms != block_of(r)->slots)
			free(r->comms);
		r->comms = t;
		r->ncomms = n;
	}
	r->comms[h] = c;
	return (MPI_Comm)h;
}

/* ------------------------------------------------------ group handles */

static emu_group *group_lookup(emu_rank *r, MPI_Group h)
{
	if (h == MPI_GROUP_EMPTY)
		return &emu.comm.empty_gobj.g;
	return h > MPI_GROUP_EMPTY && (uint32_t)h < r->ngroups ?
		r->groups[h] : NULL;
}

static emu_group *group_get(emu_rank *r, MPI_Group h, const char *call)
{
	emu_group *g = group_lookup(r, h);
	if (!g)
		emu_mpi_error(r, call, MPI_ERR_GROUP, "%d is not a group of "
			      "this rank%s", h, h == MPI_GROUP_NULL ?
			      " (MPI_GROUP_NULL)" : " (never created, or "
			      "freed?)");
	return g;
}

/* A new handle for g, whose reference passes to it; an empty group is
 * MPI_GROUP_EMPTY. */
static MPI_Group group_install(emu_rank *r, emu_group *g)
{
	if (g->size == 0) {
		emu_group_unref(g);
		return MPI_GROUP_EMPTY;
	}
	uint32_t h = MPI_GROUP_EMPTY + 1;
	while (h < r->ngroups && r->groups[h])
		h++;
	if (h >= r->ngroups) {
		uint32_t n = r->ngroups ? 2 * r->ngroups : 8;
		if (r->ngroups >= (uint32_t)INT_MAX / 2)
			emu_fatal("rank %d has too many groups", r->world);
		emu_group **t = xcalloc(n, sizeof *t);
		if (r->ngroups)
			memcpy(t, r->groups, r->ngroups * sizeof *t);
		free(r->groups);
		r->groups = t;
		r->ngroups = n;
	}
	r->groups[h] = g;
	return (MPI_Group)h;
}

/* ================================================== communicator objects */

static emu_comm *comm_new(emu_group *g, int rank, int32_t ctx,
			  MPI_Errhandler eh, emu_topo *topo)
{
	emu_comm *c = xcalloc(1, sizeof *c);
	emu_group_ref(g);
	c->group = g;
	c->rank = rank;
	c->ctx = ctx;
	emu_errh_ref(eh);
	c->errhandler = eh;
	if (topo)
		topo->refs++;
	c->topo = topo;
	return c;
}

/* Release what c holds, without callbacks (the object itself stays). */
static void comm_drop(emu_comm *c)
{
	emu_attr_drop_all(c);
	emu_group_unref(c->group);
	c->group = NULL;
	if (c->remote)
		emu_group_unref(c->remote);
	c->remote = NULL;
	if (c->topo)
		emu_topo_unref(c->topo);
	c->topo = NULL;
	emu_errh_unref(c->errhandler);
	free(c->name);
	c->name = NULL;
}

static void comm_destroy(emu_rank *r, MPI_Comm h)
{
	emu_comm *c = r->comms[h];
	r->comms[h] = NULL;
	comm_drop(c);
	free(c);
	emu_errh_update_return(r);
}

/* Intercommunicators (below). */
static emu_comm *intra_only(emu_rank *r, MPI_Comm h, const char *call);
static int32_t agree_inter(emu_rank *r, emu_comm *c, MPI_Comm h,
			   const char *call, int32_t *flags);

/* ------------------------------------------------- context agreement */

/* Who agrees: the members of communicator c, or of group g (c then gives
 * the context the messages go on), in the order of their ranks. */
typedef struct agree_set {
	const emu_comm *c;
	const emu_group *g;
	int flags;              /* flags are agreed on too */
} agree_set;

static int32_t agree_world(const agree_set *a, int i)
{
	return a->g ? emu_group_world(a->g, i) : emu_comm_world(a->c, i);
}

/* One round: send v to member `to' and receive into *in from member
 * `from' (-1: no such part).  A round that sends after one that received
 * starts a new SEB, so the trace has the round's dependencies. */
static void round_on(emu_rank *r, const agree_set *a, MPI_Comm h, int tag,
		     const char *call, int to, const void *sbuf,
		     uint64_t sbytes, int from, void *rbuf, uint64_t rbytes,
		     int *step)
{
	emu_req *rq = NULL, *sq = NULL;
	if (*step && to >= 0) {
		emu_rec_step(r, call, 0);
		*step = 0;
	}
	if (from >= 0)
		rq = emu_p2p_irecv_raw(r, call, rbuf, rbytes,
				       agree_world(a, from), a->c->ctx + 1,
				       tag, h);
	if (to >= 0)
		sq = emu_p2p_isend_raw(r, call, sbuf, sbytes,
				       agree_world(a, to), a->c->ctx + 1, tag,
				       h);
	if (sq) {
		emu_p2p_wait(r, call, sq);
		emu_p2p_finish(r, sq, NULL);
	}
	if (rq) {
		emu_p2p_wait(r, call, rq);
		emu_p2p_finish(r, rq, NULL);
		*step = 1;
	}
}

/* One round of a collective of the communicator layer (emu_comm.h). */
void emu_comm_round(emu_rank *r, emu_comm *c, MPI_Comm h, int tag,
		    const char *call, int to, const void *sbuf,
		    uint64_t sbytes, int from, void *rbuf, uint64_t rbytes,
		    int *step)
{
	agree_set a = {c, NULL, 0};
	round_on(r, &a, h, tag, call, to, sbuf, sbytes, from, rbuf, rbytes,
		 step);
}

/* One round of the agreement: send the pair v, receive the pair *in. */
static void agree_round(emu_rank *r, const agree_set *a, MPI_Comm h, int tag,
			const char *call, int to, const int32_t *v, int from,
			int32_t *in, int *step)
{
	/* The flags travel only when some are asked for. */
	uint64_t n = (a->flags ? 2 : 1) * sizeof *v;
	round_on(r, a, h, tag, call, to, v, n, from, in, n, step);
}

/* Combine what a round brought: the larger context, the union of the
 * flags. */
static void agree_fold(int32_t *v, const int32_t *in)
{
	if (in[0] > v[0])
		v[0] = in[0];
	v[1] |= in[1];
}

/* The context of a new communicator: the largest next_ctx of the n
 * members of a (r is member me), by recursive doubling (the members
 * beyond the largest power of two fold into the others first), on
 * a->c's collective context with `tag'.  Inside call (the SEB has
 * ended).  *flags: this member's flags in, the union of all members'
 * out (NULL: none). */
static int32_t agree_members(emu_rank *r, const agree_set *a, int n, int me,
			     MPI_Comm h, int tag, const char *call,
			     int32_t *flags)
{
	int step = 0;
	int32_t v[2] = { r->next_ctx, flags ? *flags : 0 }, in[2] = { 0, 0 };
	int pof2 = 1;

	while (pof2 <= n / 2)
		pof2 *= 2;
	int rem = n - pof2;
	if (me >= pof2) {
		agree_round(r, a, h, tag, call, me - pof2, v, me - pof2, in,
			    &step);
		v[0] = in[0];
		v[1] = in[1];
	} else {
		if (me < rem) {
			agree_round(r, a, h, tag, call, -1, v, me + pof2, in,
				    &step);
			agree_fold(v, in);
		}
		for (int mask = 1; mask < pof2; mask <<= 1) {
			agree_round(r, a, h, tag, call, me ^ mask, v,
				    me ^ mask, in, &step);
			agree_fold(v, in);
		}
		if (me < rem)
			agree_round(r, a, h, tag, call, me + pof2, v, -1, in,
				    &step);
	}
	if (v[0] > INT32_MAX - 4)
		emu_mpi_error(r, call, MPI_ERR_OTHER, "the job has used up "
			      "its 2^30 communicator contexts");
	r->next_ctx = v[0] + 2;
	if (flags)
		*flags = v[1];
	return v[0];
}

/* The context of a new communicator made from c (handle h), collective
 * over c; seq: the collective sequence number the operation took. */
static int32_t agree_ctx(emu_rank *r, emu_comm *c, MPI_Comm h, uint32_t seq,
			 const char *call)
{
	agree_set a = {c, NULL, 0};
	return agree_members(r, &a, emu_comm_size(c), c->rank, h,
			     (int)(seq & INT_MAX), call, NULL);
}

/* ============================================================ Comm_split */

typedef struct split_ent {
	int32_t prank, color, key;
} split_ent;

typedef struct split_hdr {
	int32_t ctx, w0;           /* the parent: context, world rank of 0 */
	uint32_t seq;              /* its collective sequence number */
	int32_t n;                 /* its size */
	int32_t count;             /* entries that follow */
	int32_t pad;
} split_hdr;

/* One MPI_Comm_split (or split_type, Cart_create, Cart_sub) in progress
 * in this process.  The key: the parent's context, which the disjoint
 * communicators of one split share, so also the world rank of the
 * parent's rank 0, which they do not; and the parent's collective
 * sequence number, which its members take in the same order. */
typedef struct split_inst {
	struct split_inst *next;
	int32_t ctx, w0;
	uint32_t seq;
	int n;
	split_ent *ent;            /* by parent rank; prank -1: not yet */
	int filled;
	/* This process's members, known from the first deposit. */
	emu_group *pg;             /* the parent's group (a reference) */
	int nlocal;                /* -1: not known yet */
	int deposited, left;
	int32_t *local_pr;         /* their parent ranks, as deposited */
	emu_rank **local;          /* and the ranks */
	/* The result, once every entry is known. */
	int done;
	int ngroups;
	int32_t *gcolor;           /* the colors of local members, sorted */
	emu_group **groups;        /* and their groups */
} split_inst;

static split_inst *split_find(int32_t ctx, int32_t w0, uint32_t seq, int n)
{
	for (split_inst *s = emu.comm.splits; s; s = s->next)
		if (s->ctx == ctx && s->w0 == w0 && s->seq == seq) {
			if (s->n != n)
				emu_fatal("internal error: Comm_split of "
					  "context %d has %d and %d members",
					  ctx, s->n, n);
			return s;
		}
	split_inst *s = xcalloc(1, sizeof *s);
	s->ctx = ctx;
	s->w0 = w0;
	s->seq = seq;
	s->n = n;
	s->nlocal = -1;
	s->ent = xmalloc((size_t)n * sizeof *s->ent);
	for (int i = 0; i < n; i++)
		s->ent[i].prank = -1;
	s->next = emu.comm.splits;
	emu.comm.splits = s;
	return s;
}

static void split_free(split_inst *s)
{
	split_inst **p = &emu.comm.splits;
	while (*p != s)
		p = &(*p)->next;
	*p = s->next;
	for (int i = 0; i < s->ngroups; i++)
		emu_group_unref(s->groups[i]);
	if (s->pg)
		emu_group_unref(s->pg);
	free(s->gcolor);
	free(s->groups);
	free(s->ent);
	free(s->local_pr);
	free(s->local);
	free(s);
}

static void split_put(split_inst *s, const split_ent *e, int src_proc)
{
	if (e->prank < 0 || e->prank >= s->n || s->ent[e->prank].prank >= 0)
		emu_fatal("internal error: Comm_split entry for rank %d of "
			  "%d from process %d is %s", e->prank, s->n, src_proc,
			  e->prank < 0 || e->prank >= s->n ? "out of range" :
			  "a duplicate");
	s->ent[e->prank] = *e;
	s->filled++;
}

static int cmp_ent(const void *a, const void *b)
{
	const split_ent *x = a, *y = b;
	if (x->color != y->color)
		return x->color < y->color ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->prank < y->prank ? -1 : x->prank > y->prank;
}

/* Every entry is known: sort once, build the groups this process's ranks
 * need, wake them. */
static void split_build(split_inst *s)
{
	int m = 0;
	for (int i = 0; i < s->n; i++)
		if (s->ent[i].color != MPI_UNDEFINED)
			s->ent[m++] = s->ent[i];
	qsort(s->ent, (size_t)m, sizeof *s->ent, cmp_ent);
	int cap = 0;
	for (int i = 0; i < m;) {
		int j = i, local = 0;
		while (j < m && s->ent[j].color == s->ent[i].color) {
			if (emu_local_rank(emu_group_world(s->pg,
							   s->ent[j].prank)))
				local = 1;
			j++;
		}
		if (local) {
			int32_t *w = xmalloc((size_t)(j - i) * sizeof *w);
			for (int k = i; k < j; k++)
				w[k - i] = emu_group_world(s->pg,
							   s->ent[k].prank);
			if (s->ngroups == cap) {
				cap = cap ? 2 * cap : 4;
				int32_t *gc = realloc(s->gcolor, (size_t)cap *
						      sizeof *gc);
				if (gc)
					s->gcolor = gc;
				emu_group **gg = realloc(s->groups,
							 (size_t)cap *
							 sizeof *gg);
				if (gg)
					s->groups = gg;
				if (!gc || !gg)
					emu_fatal("out of memory splitting a "
						  "communicator");
			}
			s->gcolor[s->ngroups] = s->ent[i].color;
			s->groups[s->ngroups++] = group_make(w, j - i);
		}
		i = j;
	}
	free(s->ent);
	s->ent = NULL;
	s->done = 1;
	for (int i = 0; i < s->deposited; i++)
		if (s->local[i])
			emu_wake(s->local[i]);
}

static void split_check(split_inst *s)
{
	if (!s->done && s->filled == s->n && s->nlocal >= 0)
		split_build(s);
	if (s->done && s->left == s->nlocal)
		split_free(s);
}

/* Which processes host members of g, and how many are here. */
static int *member_procs(const emu_group *g, int *nprocs, int *nlocal)
{
	int *procs = xmalloc((size_t)emu.nprocs * sizeof *procs);
	int np = 0, nl = 0;
	if (!g->w) {
		int32_t a = g->first, b = g->first + g->size;
		int32_t lo = a > (int32_t)emu.first ? a : (int32_t)emu.first;
		int32_t hi = (int32_t)(emu.first + emu.count);
		hi = b < hi ? b : hi;
		nl = hi > lo ? hi - lo : 0;
		int p1 = emu_owner_proc(b - 1);
		for (int p = emu_owner_proc(a); p <= p1; p++)
			if (p != emu.proc)
				procs[np++] = p;
	} else {
		char *mark = xcalloc((size_t)emu.nprocs, 1);
		for (int i = 0; i < g->size; i++) {
			int p = emu_owner_proc(g->w[i]);
			if (p == emu.proc)
				nl++;
			else
				mark[p] = 1;
		}
		for (int p = 0; p < emu.nprocs; p++)
			if (mark[p])
				procs[np++] = p;
		free(mark);
	}
	*nprocs = np;
	*nlocal = nl;
	return procs;
}

/* All local members have deposited: send their entries to the other
 * processes hosting members. */
static void split_send(split_inst *s)
{
	int np, nl;
	int *procs = member_procs(s->pg, &np, &nl);
	if (np) {
		size_t len = sizeof(split_hdr) + (size_t)s->nlocal *
			sizeof(split_ent);
		char *m = xmalloc(len);
		split_hdr hd = { s->ctx, s->w0, s->seq, s->n, s->nlocal, 0 };
		memcpy(m, &hd, sizeof hd);
		split_ent *e = (split_ent *)(void *)(m + sizeof hd);
		for (int i = 0; i < s->nlocal; i++)
			e[i] = s->ent[s->local_pr[i]];
		for (int i = 0; i < np; i++)
			emu_tr_send_rt(procs[i], m, len);
		free(m);
	}
	free(procs);
}

static split_inst *split_deposit(emu_rank *r, emu_comm *c, uint32_t seq,
				 int color, int key, int *slot)
{
	split_inst *s = split_find(c->ctx, emu_comm_world(c, 0), seq,
				   emu_comm_size(c));
	if (s->nlocal < 0) {
		int np;
		free(member_procs(c->group, &np, &s->nlocal));
		emu_group_ref(c->group);
		s->pg = c->group;
		s->local_pr = xmalloc((size_t)s->nlocal * sizeof *s->local_pr);
		s->local = xmalloc((size_t)s->nlocal * sizeof *s->local);
	}
	split_ent e = { c->rank, color, key };
	split_put(s, &e, emu.proc);
	*slot = s->deposited;
	s->local_pr[s->deposited] = c->rank;
	s->local[s->deposited++] = r;
	if (s->deposited == s->nlocal)
		split_send(s);
	return s;
}

void emu_comm_rt_arrived(int src_proc, void *block, size_t len)
{
	split_hdr hd;
	if (len < sizeof hd)
		emu_fatal("internal error: a %zu-byte runtime message from "
			  "process %d", len, src_proc);
	memcpy(&hd, block, sizeof hd);
	if (hd.n <= 0 || hd.count < 0 || hd.count > hd.n ||
	    len != sizeof hd + (size_t)hd.count * sizeof(split_ent))
		emu_fatal("internal error: a malformed Comm_split message "
			  "(%zu bytes, %d of %d entries) from process %d", len,
			  hd.count, hd.n, src_proc);
	split_inst *s = split_find(hd.ctx, hd.w0, hd.seq, hd.n);
	const split_ent *e = (const split_ent *)(void *)((char *)block +
							 sizeof hd);
	for (int i = 0; i < hd.count; i++)
		split_put(s, &e[i], src_proc);
	free(block);
	split_check(s);
}

static emu_group *split_result(split_inst *s, int color)
{
	int lo = 0, hi = s->ngroups - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (s->gcolor[mid] == color)
			return s->groups[mid];
		if (s->gcolor[mid] < color)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	emu_fatal("internal error: no group for Comm_split color %d", color);
}

MPI_Comm emu_comm_split(emu_rank *r, MPI_Comm h, int color, int key,
			emu_topo *topo, const char *call, const void *site)
{
	emu_comm *c = intra_only(r, h, call);
	if (color < 0 && color != MPI_UNDEFINED)
		emu_mpi_error(r, call, MPI_ERR_ARG, "color %d is negative "
			      "(and not MPI_UNDEFINED)", color);
	uint32_t seq = c->coll_seq++;
	emu_rec_enter(r, site);
	int slot;
	split_inst *s = split_deposit(r, c, seq, color, key, &slot);
	split_check(s);
	int32_t ctx = agree_ctx(r, c, h, seq, call);
	MPI_Comm nh = MPI_COMM_NULL;
	if (color != MPI_UNDEFINED) {
		while (!s->done) {
			emu_p2p_progress_coll(r);
			if (s->done)
				break;
			r->blocked_req = NULL;
			r->blocked_n = 0;
			emu_block(r, call);
		}
		emu_group *g = split_result(s, color);
		emu_comm *nc = comm_new(g, emu_group_rank_of(g, r->world),
					ctx, c->errhandler, topo);
		nh = comm_install(r, nc);
	}
	/* Nothing to wake here any more (MPI_UNDEFINED leaves early). */
	s->local[slot] = NULL;
	s->left++;
	if (s->done && s->left == s->nlocal)
		split_free(s);
	emu_rec_leave(r, call);
	return nh;
}

/* ====================================================== the MPI calls */

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	const char *call = "MPI_Comm_split";
	EMU_API(r, call);
	check_ptr(r, call, newcomm, "newcomm pointer");
	*newcomm = emu_comm_split(r, comm, color, key, NULL, call,
				   EMU_SITE);
	return MPI_SUCCESS;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
			MPI_Info info, MPI_Comm *newcomm)
{
	const char *call = "MPI_Comm_split_type";
	EMU_API(r, call);
	(void)info;
	emu_comm_get(r, comm, call);
	check_ptr(r, call, newcomm, "newcomm pointer");
	if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
		emu_mpi_error(r, call, MPI_ERR_ARG, "split_type %d is neither "
			      "MPI_COMM_TYPE_SHARED nor MPI_UNDEFINED",
			      split_type);
	/* The target's node: a block of node_size world ranks. */
	int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED :
		r->world / emu.node_size;
	*newcomm = emu_comm_split(r, comm, color, key, NULL, call,
				   EMU_SITE);
	return MPI_SUCCESS;
}

MPI_Comm emu_comm_derive(emu_rank *r, MPI_Comm h, emu_topo *topo,
			 const char *call, const void *site)
{
	emu_comm *c = emu_comm_get(r, h, call);
	emu_rec_enter(r, site);
	/* An intercommunicator's duplicate: both groups agree. */
	int32_t ctx = c->remote ? agree_inter(r, c, h, call, NULL) :
		agree_ctx(r, c, h, c->coll_seq++, call);
	emu_comm *nc = comm_new(c->group, c->rank, ctx, c->errhandler, topo);
	if (c->remote) {
		emu_group_ref(c->remote);
		nc->remote = c->remote;
	}
	MPI_Comm nh = comm_install(r, nc);
	emu_rec_leave(r, call);
	return nh;
}

static int comm_dup(const void *site, const char *call, MPI_Comm comm, MPI_Comm *newcomm)
{
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, newcomm, "newcomm pointer");
	MPI_Comm nh = emu_comm_derive(r, comm, c->topo, call, site);
	emu_comm *nc = r->comms[nh];
	/* The callbacks run as the program's code: they may call MPI. */
	int key = 0;
	int rc = emu_attr_copy_all(comm, c, nc, &key);
	if (rc != MPI_SUCCESS) {
		emu_attr_delete_all(r, nh, nc, call);
		comm_destroy(r, nh);
		emu_attr_callback_failed(r, call, "copy", key, rc);
	}
	emu_errh_update_return(r);
	*newcomm = nh;
	return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	return comm_dup(EMU_SITE, "MPI_Comm_dup", comm, newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	(void)info; /* no hints are used */
	return comm_dup(EMU_SITE, "MPI_Comm_dup_with_info", comm, newcomm);
}

/* Every member of g is a member of c's group. */
static int group_subset(emu_group *g, emu_comm *c)
{
	emu_group *p = c->group;
	if (!p->w)
		return gobj(g)->wmin >= p->first &&
			gobj(g)->wmax < p->first + p->size;
	for (int i = 0; i < g->size; i++)
		if (emu_group_rank_of(p, emu_group_world(g, i)) < 0)
			return 0;
	return 1;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	const char *call = "MPI_Comm_create";
	EMU_API(r, call);
	emu_comm *c = intra_only(r, comm, call);
	emu_group *g = group_get(r, group, call);
	check_ptr(r, call, newcomm, "newcomm pointer");
	if (g->size && !group_subset(g, c))
		emu_mpi_error(r, call, MPI_ERR_GROUP, "the group (size %d) "
			      "has members that are not in %s", g->size,
			      emu_comm_describe(r, comm));
	uint32_t seq = c->coll_seq++;
	emu_rec_enter(r, EMU_SITE);
	int32_t ctx = agree_ctx(r, c, comm, seq, call);
	int me = g->size ? emu_group_rank_of(g, r->world) : -1;
	MPI_Comm nh = MPI_COMM_NULL;
	if (me >= 0)
		nh = comm_install(r, comm_new(g, me, ctx, c->errhandler,
					      NULL));
	emu_rec_leave(r, call);
	*newcomm = nh;
	return MPI_SUCCESS;
}

/*
 * MPI_Comm_create_group: collective over the group's members only.  They
 * agree on the context among themselves, on the parent's collective
 * context with a tag of their own: -2 - tag, below every collective's
 * (a sequence number, never negative) and MPI_ANY_TAG, so that the
 * parent's other members, which do not take part, and its collectives
 * never match these messages, and concurrent calls with different tags
 * do not match each other's.
 */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
			  MPI_Comm *newcomm)
{
	const char *call = "MPI_Comm_create_group";
	EMU_API(r, call);
	emu_comm *c = emu_comm_intra(r, comm, call);
	emu_group *g = group_get(r, group, call);
	check_ptr(r, call, newcomm, "newcomm pointer");
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is outside 0.."
			      "MPI_TAG_UB (%d)", tag, MPI_TAG_UB_VALUE);
	if (g->size && !group_subset(g, c))
		emu_mpi_error(r, call, MPI_ERR_GROUP, "the group (size %d) "
			      "has members that are not in %s", g->size,
			      emu_comm_describe(r, comm));
	int me = g->size ? emu_group_rank_of(g, r->world) : -1;
	if (me < 0) {
		/* Not a member: MPI_COMM_NULL, and nothing to agree. */
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	emu_rec_enter(r, EMU_SITE);
	agree_set a = {c, g, 0};
	int32_t ctx = agree_members(r, &a, g->size, me, comm, -2 - tag, call,
				    NULL);
	MPI_Comm nh = comm_install(r, comm_new(g, me, ctx, c->errhandler,
					       NULL));
	emu_rec_leave(r, call);
	*newcomm = nh;
	return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	const char *call = "MPI_Comm_free";
	EMU_API(r, call);
	if (!comm)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL communicator "
			      "pointer");
	emu_comm *c = emu_comm_get(r, *comm, call);
	if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
		emu_mpi_error(r, call, MPI_ERR_COMM, "%s cannot be freed",
			      emu_comm_describe(r, *comm));
	emu_attr_delete_all(r, *comm, c, call);
	comm_destroy(r, *comm);
	*comm = MPI_COMM_NULL;
	return MPI_SUCCESS;
}

static int group_compare(emu_group *a, emu_group *b)
{
	if (a == b)
		return MPI_IDENT;
	if (a->size != b->size)
		return MPI_UNEQUAL;
	int same = 1;
	for (int i = 0; i < a->size && same; i++)
		if (emu_group_world(a, i) != emu_group_world(b, i))
			same = 0;
	if (same)
		return MPI_IDENT;
	for (int i = 0; i < a->size; i++)
		if (emu_group_rank_of(b, emu_group_world(a, i)) < 0)
			return MPI_UNEQUAL;
	return MPI_SIMILAR;
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
	const char *call = "MPI_Comm_compare";
	EMU_API(r, call);
	emu_comm *a = emu_comm_get(r, comm1, call);
	emu_comm *b = emu_comm_get(r, comm2, call);
	check_ptr(r, call, result, "result pointer");
	if (a == b) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	if (!a->remote != !b->remote) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	int g = group_compare(a->group, b->group);
	if (a->remote) {
		/* Intercommunicators: the worse of the two groups'. */
		int h = group_compare(a->remote, b->remote);
		g = h > g ? h : g;
	}
	*result = g == MPI_IDENT ? MPI_CONGRUENT : g;
	return MPI_SUCCESS;
}

/* A new group handle of r for g (MPI_Comm_group, MPI_Comm_remote_group). */
static int give_group(emu_rank *r, const char *call, emu_group *g,
		      MPI_Group *group)
{
	check_ptr(r, call, group, "group pointer");
	emu_group_ref(g);
	*group = group_install(r, g);
	return MPI_SUCCESS;
}

emu_group *emu_group_get(emu_rank *r, MPI_Group h, const char *call)
{
	return group_get(r, h, call);
}

int emu_group_give(emu_rank *r, const char *call, emu_group *g,
		   MPI_Group *group)
{
	return give_group(r, call, g, group);
}

void emu_comm_release(emu_rank *r, MPI_Comm h)
{
	comm_destroy(r, h);
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	const char *call = "MPI_Comm_group";
	EMU_API(r, call);
	return give_group(r, call, emu_comm_get(r, comm, call)->group, group);
}

void emu_comm_set_name(emu_rank *r, const char *call, emu_comm *c,
		       const char *name)
{
	if (!name)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL name");
	size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
	char *s = xmalloc(n + 1);
	memcpy(s, name, n);
	s[n] = 0;
	free(c->name);
	c->name = s;
}

void emu_comm_get_name(emu_rank *r, const char *call, const emu_comm *c,
		       const char *dflt, char *name, int *resultlen)
{
	if (!name || !resultlen)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s pointer",
			      name ? "resultlen" : "name");
	const char *s = c->name ? c->name : dflt;
	size_t n = strlen(s);
	memcpy(name, s, n + 1);
	*resultlen = (int)n;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
	const char *call = "MPI_Comm_set_name";
	EMU_API(r, call);
	emu_comm_set_name(r, call, emu_comm_get(r, comm, call), comm_name);
	return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
	const char *call = "MPI_Comm_get_name";
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	emu_comm_get_name(r, call, c, comm == MPI_COMM_WORLD ?
			  "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ?
			  "MPI_COMM_SELF" : "", comm_name, resultlen);
	return MPI_SUCCESS;
}

/* ---------------------------------------------------- intercommunicators */

/*
 * An intercommunicator is a communicator whose `remote' group is set:
 * point-to-point ranks name the remote group (emu_comm_peers), both groups
 * share its context, and its collective context carries what the two
 * groups agree on together (MPI_Comm_dup, MPI_Intercomm_merge) over the
 * union of the groups, in a fixed order: the group whose first member has
 * the lower world rank first.  Collectives over an intercommunicator are
 * not emulated (coll.c says so at the call).
 */

/* c, which must not be an intercommunicator for `call': MPI_ERR_COMM
 * for a call that takes an intracommunicator, or (`defined') one that
 * MPI defines on intercommunicators too but Sibyl emulates on
 * intracommunicators only (splitting, MPI_Comm_create). */
static emu_comm *intra_check(emu_rank *r, MPI_Comm h, const char *call,
			     int defined)
{
	emu_comm *c = emu_comm_get(r, h, call);
	if (c->remote)
		emu_mpi_error(r, call, defined ? MPI_ERR_UNSUPPORTED_OPERATION
			      : MPI_ERR_COMM, "%s is an intercommunicator: %s "
			      "%s", emu_comm_describe(r, h), call, defined ?
			      "over one is not emulated by this version of "
			      "Sibyl; merge it first (MPI_Intercomm_merge)" :
			      "takes an intracommunicator");
	return c;
}

emu_comm *emu_comm_intra(emu_rank *r, MPI_Comm h, const char *call)
{
	return intra_check(r, h, call, 0);
}

static emu_comm *intra_only(emu_rank *r, MPI_Comm h, const char *call)
{
	return intra_check(r, h, call, 1);
}

static emu_comm *inter_get(emu_rank *r, MPI_Comm h, const char *call)
{
	emu_comm *c = emu_comm_get(r, h, call);
	if (!c->remote)
		emu_mpi_error(r, call, MPI_ERR_COMM, "%s is not an "
			      "intercommunicator", emu_comm_describe(r, h));
	return c;
}

/* The world ranks of groups a then b (malloc'd), and where r is. */
static int32_t *join_groups(const emu_group *a, const emu_group *b,
			    int32_t world, int *me)
{
	int32_t *w = xcalloc((size_t)a->size + (size_t)b->size, sizeof *w);
	for (int i = 0; i < a->size; i++)
		w[i] = emu_group_world(a, i);
	for (int i = 0; i < b->size; i++)
		w[a->size + i] = emu_group_world(b, i);
	for (int i = 0; i < a->size + b->size; i++)
		if (w[i] == world)
			*me = i;
	return w;
}

/* Agree on a new context over both groups of intercommunicator c (handle
 * h), and on the union of the members' flags. */
static int32_t agree_inter(emu_rank *r, emu_comm *c, MPI_Comm h,
			   const char *call, int32_t *flags)
{
	int lo_first = emu_group_world(c->group, 0) <
		emu_group_world(c->remote, 0);
	int me = -1;
	int32_t *w = lo_first ?
		join_groups(c->group, c->remote, r->world, &me) :
		join_groups(c->remote, c->group, r->world, &me);
	int n = c->group->size + c->remote->size;
	emu_group *u = group_make(w, n);
	agree_set a = {c, u, flags != NULL};
	uint32_t seq = c->coll_seq++;
	int32_t ctx = agree_members(r, &a, n, me, h, (int)(seq & INT_MAX),
				    call, flags);
	emu_group_unref(u);
	return ctx;
}

int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	const char *call = "MPI_Comm_test_inter";
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	check_ptr(r, call, flag, "flag pointer");
	*flag = c->remote != NULL;
	return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	const char *call = "MPI_Comm_remote_size";
	EMU_API(r, call);
	emu_comm *c = inter_get(r, comm, call);
	check_ptr(r, call, size, "size pointer");
	*size = c->remote->size;
	return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	const char *call = "MPI_Comm_remote_group";
	EMU_API(r, call);
	return give_group(r, call, inter_get(r, comm, call)->remote, group);
}

/*
 * MPI_Intercomm_create, as MPI describes it: the local groups agree on
 * their largest free context (MPI_Allreduce over local_comm), the two
 * leaders swap it, their group's size and its members over peer_comm
 * with `tag' (MPI_Sendrecv: the standard's own traffic on peer_comm), and
 * each leader broadcasts what it got over its local_comm.  The calls are
 * MPI's own, so the trace records them as such.
 */
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm)
{
	const char *call = "MPI_Intercomm_create";
	EMU_API(r, call);
	emu_comm *lc = emu_comm_intra(r, local_comm, call);
	check_ptr(r, call, newintercomm, "newintercomm pointer");
	int n = emu_comm_size(lc), rc;
	if (local_leader < 0 || local_leader >= n)
		emu_mpi_error(r, call, MPI_ERR_RANK, "local_leader %d is not "
			      "a rank of %s (size %d)", local_leader,
			      emu_comm_describe(r, local_comm), n);
	if (tag < 0 || tag > MPI_TAG_UB_VALUE)
		emu_mpi_error(r, call, MPI_ERR_TAG, "tag %d is not in 0..%d",
			      tag, MPI_TAG_UB_VALUE);
	int leader = lc->rank == local_leader;
	if (leader) {
		emu_comm *pc = emu_comm_intra(r, peer_comm, call);
		if (remote_leader < 0 || remote_leader >= emu_comm_size(pc) ||
		    remote_leader == pc->rank)
			emu_mpi_error(r, call, MPI_ERR_RANK, "remote_leader "
				      "%d is not another rank of %s (size %d"
				      ", this leader is rank %d)",
				      remote_leader,
				      emu_comm_describe(r, peer_comm),
				      emu_comm_size(pc), pc->rank);
	}
	int32_t v = r->next_ctx, mine[2], theirs[2] = { 0, 0 };
	if ((rc = MPI_Allreduce(&v, &mine[0], 1, MPI_INT, MPI_MAX,
				local_comm)))
		return rc;
	mine[1] = n;
	if (leader && (rc = MPI_Sendrecv(mine, 2, MPI_INT, remote_leader,
					 tag, theirs, 2, MPI_INT,
					 remote_leader, tag, peer_comm,
					 MPI_STATUS_IGNORE)))
		return rc;
	if ((rc = MPI_Bcast(theirs, 2, MPI_INT, local_leader, local_comm)))
		return rc;
	int rn = theirs[1];
	if (rn <= 0)
		emu_mpi_error(r, call, MPI_ERR_INTERN, "the remote leader "
			      "sent a group of %d members", rn);
	int32_t *lw = NULL, *rw = xcalloc((size_t)rn, sizeof *rw);
	if (leader) {
		lw = xcalloc((size_t)n, sizeof *lw);
		for (int i = 0; i < n; i++)
			lw[i] = emu_comm_world(lc, i);
		rc = MPI_Sendrecv(lw, n, MPI_INT, remote_leader, tag, rw, rn,
				  MPI_INT, remote_leader, tag, peer_comm,
				  MPI_STATUS_IGNORE);
		free(lw);
	}
	if (!rc)
		rc = MPI_Bcast(rw, rn, MPI_INT, local_leader, local_comm);
	if (rc) {
		free(rw);
		return rc;
	}
	for (int i = 0; i < rn; i++)
		if (rw[i] < 0 || (uint32_t)rw[i] >= emu.nranks ||
		    emu_comm_rank_of(lc, rw[i]) >= 0) {
			int32_t w = rw[i];
			free(rw);
			emu_mpi_error(r, call, MPI_ERR_COMM, "world rank %d "
				      "is in both groups: the local and remote "
				      "groups of an intercommunicator must be "
				      "disjoint", w);
		}
	int32_t ctx = mine[0] > theirs[0] ? mine[0] : theirs[0];
	if (ctx > INT32_MAX - 4) {
		free(rw);
		emu_mpi_error(r, call, MPI_ERR_OTHER, "the job has used up "
			      "its 2^30 communicator contexts");
	}
	if (r->next_ctx < ctx + 2)
		r->next_ctx = ctx + 2;
	emu_comm *nc = comm_new(lc->group, lc->rank, ctx, lc->errhandler,
				NULL);
	nc->remote = group_make(rw, rn);
	*newintercomm = comm_install(r, nc);
	emu_errh_update_return(r);
	return MPI_SUCCESS;
}

/* Both groups agree on the context and on who passed `high' (flag 1: a
 * member of the first group of the agreement's order, 2: of the second);
 * the group with high false comes first, or, when both passed the same,
 * the first of that order. */
int MPI_Intercomm_merge(MPI_Comm intercomm, int high,
			MPI_Comm *newintracomm)
{
	const char *call = "MPI_Intercomm_merge";
	EMU_API(r, call);
	emu_comm *c = inter_get(r, intercomm, call);
	check_ptr(r, call, newintracomm, "newintracomm pointer");
	int lo_first = emu_group_world(c->group, 0) <
		emu_group_world(c->remote, 0);
	int32_t flags = high ? (lo_first ? 1 : 2) : 0;
	emu_rec_enter(r, EMU_SITE);
	int32_t ctx = agree_inter(r, c, intercomm, call, &flags);
	/* Local first when its high is false and the remote's true, or
	 * when they are equal and it is first in the order. */
	int lh = high != 0, rh = (flags & (lo_first ? 2 : 1)) != 0;
	int local_first = lh != rh ? !lh : lo_first;
	int me = -1;
	int32_t *w = local_first ?
		join_groups(c->group, c->remote, r->world, &me) :
		join_groups(c->remote, c->group, r->world, &me);
	emu_group *g = group_make(w, c->group->size + c->remote->size);
	MPI_Comm nh = comm_install(r, comm_new(g, me, ctx, c->errhandler,
					       NULL));
	emu_group_unref(g);
	emu_rec_leave(r, call);
	emu_errh_update_return(r);
	*newintracomm = nh;
	return MPI_SUCCESS;
}

/* ================================================================ groups */

int MPI_Group_size(MPI_Group group, int *size)
{
	const char *call = "MPI_Group_size";
	EMU_API(r, call);
	emu_group *g = group_get(r, group, call);
	check_ptr(r, call, size, "size pointer");
	*size = g->size;
	return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int *rank)
{
	const char *call = "MPI_Group_rank";
	EMU_API(r, call);
	emu_group *g = group_get(r, group, call);
	check_ptr(r, call, rank, "rank pointer");
	int i = g->size ? emu_group_rank_of(g, r->world) : -1;
	*rank = i >= 0 ? i : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group *group)
{
	const char *call = "MPI_Group_free";
	EMU_API(r, call);
	check_ptr(r, call, group, "group pointer");
	emu_group *g = group_get(r, *group, call);
	if (*group != MPI_GROUP_EMPTY) {
		r->groups[*group] = NULL;
		emu_group_unref(g);
	}
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
			      MPI_Group group2, int ranks2[])
{
	const char *call = "MPI_Group_translate_ranks";
	EMU_API(r, call);
	emu_group *a = group_get(r, group1, call);
	emu_group *b = group_get(r, group2, call);
	if (n < 0 || (n && (!ranks1 || !ranks2)))
		emu_mpi_error(r, call, n < 0 ? MPI_ERR_ARG : MPI_ERR_ARG,
			      n < 0 ? "negative count %d" : "NULL rank array "
			      "for %d ranks", n);
	for (int i = 0; i < n; i++) {
		int x = ranks1[i];
		if (x == MPI_PROC_NULL) {
			ranks2[i] = MPI_PROC_NULL;
			continue;
		}
		if (x < 0 || x >= a->size)
			emu_mpi_error(r, call, MPI_ERR_RANK, "ranks1[%d] = %d "
				      "is not a rank of group1 (size %d)", i,
				      x, a->size);
		int y = b->size ? emu_group_rank_of(b, emu_group_world(a, x))
			: -1;
		ranks2[i] = y >= 0 ? y : MPI_UNDEFINED;
	}
	return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
	const char *call = "MPI_Group_compare";
	EMU_API(r, call);
	emu_group *a = group_get(r, group1, call);
	emu_group *b = group_get(r, group2, call);
	check_ptr(r, call, result, "result pointer");
	*result = group_compare(a, b);
	return MPI_SUCCESS;
}

enum setop { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE };

static int group_setop(const char *call, MPI_Group group1, MPI_Group group2,
		       MPI_Group *newgroup, enum setop op)
{
	EMU_API(r, call);
	emu_group *a = group_get(r, group1, call);
	emu_group *b = group_get(r, group2, call);
	check_ptr(r, call, newgroup, "newgroup pointer");
	int64_t cap = op == SET_UNION ? (int64_t)a->size + b->size : a->size;
	if (cap > INT_MAX)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the union would have "
			      "more than %d members", INT_MAX);
	int32_t *w = xmalloc((size_t)cap * sizeof *w);
	int n = 0;
	/* group1's members in group1's order: all of them (union), those
	 * in group2 (intersection), those not in group2 (difference). */
	for (int i = 0; i < a->size; i++) {
		int32_t x = emu_group_world(a, i);
		int in_b = op != SET_UNION && b->size &&
			emu_group_rank_of(b, x) >= 0;
		if (op == SET_UNION || (op == SET_INTERSECTION) == in_b)
			w[n++] = x;
	}
	if (op == SET_UNION)
		for (int i = 0; i < b->size; i++) {
			int32_t x = emu_group_world(b, i);
			if (!a->size || emu_group_rank_of(a, x) < 0)
				w[n++] = x;
		}
	*newgroup = group_install(r, group_make(w, n));
	return MPI_SUCCESS;
}

int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return group_setop("MPI_Group_union", group1, group2, newgroup,
			   SET_UNION);
}

int MPI_Group_intersection(MPI_Group group1, MPI_Group group2,
			   MPI_Group *newgroup)
{
	return group_setop("MPI_Group_intersection", group1, group2,
			   newgroup, SET_INTERSECTION);
}

int MPI_Group_difference(MPI_Group group1, MPI_Group group2,
			 MPI_Group *newgroup)
{
	return group_setop("MPI_Group_difference", group1, group2, newgroup,
			   SET_DIFFERENCE);
}

/* Mark the n ranks of g at list[i] (ranks) in `mark' (g->size bytes),
 * each valid and distinct. */
static void mark_ranks(emu_rank *r, const char *call, const emu_group *g,
		       int n, const int *list, char *mark)
{
	for (int i = 0; i < n; i++) {
		int x = list[i];
		if (x < 0 || x >= g->size) {
			free(mark);
			emu_mpi_error(r, call, MPI_ERR_RANK, "ranks[%d] = %d "
				      "is not a rank of the group (size %d)",
				      i, x, g->size);
		}
		if (mark[x]) {
			free(mark);
			emu_mpi_error(r, call, MPI_ERR_RANK, "rank %d appears "
				      "twice in ranks[]", x);
		}
		mark[x] = 1;
	}
}

static void check_count(emu_rank *r, const char *call, const emu_group *g,
			int n, const void *list, MPI_Group *newgroup)
{
	if (n < 0 || n > g->size)
		emu_mpi_error(r, call, MPI_ERR_ARG, "n = %d is not in 0..%d "
			      "(the group's size)", n, g->size);
	if (n && !list)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL rank list for %d "
			      "ranks", n);
	check_ptr(r, call, newgroup, "newgroup pointer");
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	const char *call = "MPI_Group_incl";
	EMU_API(r, call);
	emu_group *g = group_get(r, group, call);
	check_count(r, call, g, n, ranks, newgroup);
	char *mark = xcalloc((size_t)g->size, 1);
	mark_ranks(r, call, g, n, ranks, mark);
	free(mark);
	int32_t *w = xmalloc((size_t)n * sizeof *w);
	for (int i = 0; i < n; i++)
		w[i] = emu_group_world(g, ranks[i]);
	*newgroup = group_install(r, group_make(w, n));
	return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup)
{
	const char *call = "MPI_Group_excl";
	EMU_API(r, call);
	emu_group *g = group_get(r, group, call);
	check_count(r, call, g, n, ranks, newgroup);
	char *mark = xcalloc((size_t)g->size, 1);
	mark_ranks(r, call, g, n, ranks, mark);
	int32_t *w = xmalloc((size_t)(g->size - n) * sizeof *w);
	int m = 0;
	for (int i = 0; i < g->size; i++)
		if (!mark[i])
			w[m++] = emu_group_world(g, i);
	free(mark);
	*newgroup = group_install(r, group_make(w, m));
	return MPI_SUCCESS;
}

/* floor((last - first) / stride): a triple names first + j * stride for
 * j = 0 .. that (none when it is negative). */
static int64_t range_steps(int first, int last, int stride)
{
	int64_t d = (int64_t)last - first;
	if (d != 0 && (d < 0) != (stride < 0))
		return -1;
	return d / stride;
}

/* The ranks of the n (first, last, stride) triples, checked, in order;
 * *count of them (malloc'd). */
static int *expand_ranges(emu_rank *r, const char *call, const emu_group *g,
			  int n, int ranges[][3], int *count)
{
	int64_t total = 0;
	if (n < 0 || (n && !ranges))
		emu_mpi_error(r, call, MPI_ERR_ARG, n < 0 ? "negative count "
			      "%d" : "NULL ranges for %d triples", n);
	for (int i = 0; i < n; i++) {
		int first = ranges[i][0], last = ranges[i][1];
		int stride = ranges[i][2];
		if (stride == 0)
			emu_mpi_error(r, call, MPI_ERR_ARG, "ranges[%d] has "
				      "stride 0", i);
		if (first < 0 || first >= g->size || last < 0 ||
		    last >= g->size)
			emu_mpi_error(r, call, MPI_ERR_RANK, "ranges[%d] = "
				      "(%d, %d, %d) leaves the group (size "
				      "%d)", i, first, last, stride, g->size);
		int64_t k = range_steps(first, last, stride);
		if (k >= 0)
			total += k + 1;
		if (total > g->size)
			emu_mpi_error(r, call, MPI_ERR_RANK, "the ranges name "
				      "more ranks than the group has (%d): "
				      "some twice", g->size);
	}
	int *list = xmalloc((size_t)total * sizeof *list);
	int m = 0;
	for (int i = 0; i < n; i++) {
		int64_t first = ranges[i][0], stride = ranges[i][2];
		int64_t k = range_steps(ranges[i][0], ranges[i][1], stride);
		for (int64_t j = 0; j <= k; j++)
			list[m++] = (int)(first + j * stride);
	}
	*count = m;
	return list;
}

static int group_range_op(const char *call, MPI_Group group, int n,
			  int ranges[][3], MPI_Group *newgroup, int incl)
{
	EMU_API(r, call);
	emu_group *g = group_get(r, group, call);
	check_ptr(r, call, newgroup, "newgroup pointer");
	int m;
	int *list = expand_ranges(r, call, g, n, ranges, &m);
	char *mark = xcalloc((size_t)g->size, 1);
	for (int i = 0; i < m; i++) {
		if (mark[list[i]]) {
			int x = list[i];
			free(mark);
			free(list);
			emu_mpi_error(r, call, MPI_ERR_RANK, "the ranges name "
				      "rank %d twice", x);
		}
		mark[list[i]] = 1;
	}
	int32_t *w = xmalloc((size_t)(incl ? m : g->size - m) * sizeof *w);
	int k = 0;
	if (incl)
		for (int i = 0; i < m; i++)
			w[k++] = emu_group_world(g, list[i]);
	else
		for (int i = 0; i < g->size; i++)
			if (!mark[i])
				w[k++] = emu_group_world(g, i);
	free(mark);
	free(list);
	*newgroup = group_install(r, group_make(w, k));
	return MPI_SUCCESS;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	return group_range_op("MPI_Group_range_incl", group, n, ranges,
			      newgroup, 1);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup)
{
	return group_range_op("MPI_Group_range_excl", group, n, ranges,
			      newgroup, 0);
}
