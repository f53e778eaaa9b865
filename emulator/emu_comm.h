/*
 * emu_comm.h -- communicators, groups, attributes, error handlers and
 * process topologies of virtual ranks (comm.c, topo.c).
 *
 * Handles are per rank: each rank has its own table of communicators
 * (MPI_COMM_WORLD = 1 and MPI_COMM_SELF = 2 are always there) and of
 * groups.  What all members of a communicator share and what can be large
 * -- the member list, the Cartesian or graph layout -- lives in
 * reference-counted objects that the ranks of one process share, so a
 * communicator of N ranks costs O(N) per process, not O(N) per rank
 * (256K ranks split into sub-communicators stay cheap).
 *
 * Contexts.  Each communicator has an even context id for its
 * point-to-point traffic; ctx + 1 carries its collectives (so a
 * collective's messages never match a user's receive).  MPI_COMM_WORLD
 * has 0, MPI_COMM_SELF 2.  A new communicator's context is agreed among
 * the members of the parent: the largest "next free context" of any
 * member (an allreduce(MAX) over the parent, with real traced messages,
 * like MPICH's context-id agreement), so it is unused by every member.
 * Disjoint communicators made by one split share a context.
 *
 * Comm_split needs every member's (color, key): those are exchanged
 * between processes by the runtime (emu_tr_send_rt, not traced), since an
 * allgather of 256K pairs per virtual rank would not fit in memory.
 */
#ifndef SIBYL_EMU_COMM_H
#define SIBYL_EMU_COMM_H

#include <stdint.h>

struct emu_rank;

/* An ordered set of world ranks, shared (refs) by the communicators and
 * group handles of the ranks of one process. */
typedef struct emu_group {
	uint32_t refs;
	int size;
	int32_t first;       /* when w == NULL: member i is world rank first+i */
	int32_t *w;          /* else: world rank of member i */
	int32_t *rev;        /* comm.c's reverse index (lazily built), or NULL */
} emu_group;

/* A process topology (topo.c).  Cartesian (kind MPI_CART) and graph
 * (MPI_GRAPH) layouts are the same for every member and are shared, like
 * groups, by the communicators of a process with the same layout; a
 * distributed graph (MPI_DIST_GRAPH) is the rank's own in- and
 * out-neighbours, shared only by the duplicates of its communicator. */
typedef struct emu_topo {
	uint32_t refs;
	int kind;              /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
	/* MPI_CART */
	int ndims;
	int *dims;
	int *periods;
	/* MPI_GRAPH: MPI_Graph_create's arguments */
	int nnodes;
	int *index;            /* nnodes: neighbours of nodes 0..i, summed */
	int *edges;            /* index[nnodes - 1] */
	uint64_t hash;
	/* MPI_DIST_GRAPH: sources (and their weights) indegree, then
	 * destinations (and theirs) outdegree, in MPI's order */
	int indegree, outdegree;
	int weighted;
	int *sources, *sourceweights;
	int *destinations, *destweights;
} emu_topo;

struct emu_attr;

/* One rank's communicator. */
typedef struct emu_comm {
	emu_group *group;
	int rank;              /* the rank's own rank in it */
	int32_t ctx;           /* point-to-point context (even); ctx+1: coll */
	uint32_t coll_seq;     /* collectives started on it so far */
	MPI_Errhandler errhandler; /* MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN
	                              or one of MPI_Comm_create_errhandler */
	emu_topo *topo;        /* process topology, or NULL */
	emu_group *remote;     /* an intercommunicator's remote group, or
	                          NULL (an intracommunicator) */
	struct emu_attr *attrs;
	char *name;            /* MPI_Comm_set_name, or NULL */
	MPI_Win win;           /* the private communicator of window `win'
	                          (rma.c): its errors are the window's, and
	                          a user handler is given the window;
	                          MPI_WIN_NULL for the others */
} emu_comm;

/* Set up and tear down a rank's tables (WORLD and SELF exist from the
 * start).  emu_comm_init_rank is cheap: 256K ranks call it. */
void emu_comm_init_rank(struct emu_rank *r);
void emu_comm_free_rank(struct emu_rank *r);

/* The communicator behind handle c of rank r, or an MPI_ERR_COMM error
 * naming `call'.  Also makes c the communicator whose error handler
 * applies to errors of this call (r->err_comm). */
emu_comm *emu_comm_get(struct emu_rank *r, MPI_Comm c, const char *call);
/* Same without an error: NULL if c is not a communicator of r. */
emu_comm *emu_comm_lookup(struct emu_rank *r, MPI_Comm c);
/* emu_comm_get for a call that takes an intracommunicator: an
 * intercommunicator is an MPI_ERR_COMM error naming `call'. */
emu_comm *emu_comm_intra(struct emu_rank *r, MPI_Comm c, const char *call);
static inline int emu_comm_size(const emu_comm *c)
{
	return c->group->size;
}
/* World rank of rank i of the group (0 <= i < size). */
static inline int32_t emu_group_world(const emu_group *g, int i)
{
	return g->w ? g->w[i] : g->first + i;
}
static inline int32_t emu_comm_world(const emu_comm *c, int i)
{
	return emu_group_world(c->group, i);
}
/* The group that point-to-point ranks of c name: an intercommunicator's
 * remote group, an intracommunicator's own. */
static inline emu_group *emu_comm_peers(const emu_comm *c)
{
	return c->remote ? c->remote : c->group;
}
/* Rank of world rank w in the group, or -1 (MPI_UNDEFINED for callers
 * that report it).  O(1) when w == NULL, else O(log n) through a reverse
 * index built on the first call and shared with every holder. */
int emu_group_rank_of(emu_group *g, int32_t w);
/* For rma.c: the group behind handle h of r, or an MPI_ERR_GROUP error
 * naming `call'; a new handle of r for g (one more reference; NULL
 * pointer: an MPI_ERR_ARG error); communicator h of r freed, without
 * attribute callbacks (one only the runtime uses). */
emu_group *emu_group_get(struct emu_rank *r, MPI_Group h, const char *call);
int emu_group_give(struct emu_rank *r, const char *call, emu_group *g,
		   MPI_Group *group);
void emu_comm_release(struct emu_rank *r, MPI_Comm h);
/* MPI_Comm_set_name and MPI_Comm_get_name of c under the name `call'
 * (windows keep theirs in their private communicator); a communicator
 * without a name gets `dflt'. */
void emu_comm_set_name(struct emu_rank *r, const char *call, emu_comm *c,
		       const char *name);
void emu_comm_get_name(struct emu_rank *r, const char *call,
		       const emu_comm *c, const char *dflt, char *name,
		       int *resultlen);
/* Take / drop a reference; the last one frees the group. */
static inline void emu_group_ref(emu_group *g)
{
	g->refs++;
}
void emu_group_unref(emu_group *g);
static inline int emu_comm_rank_of(emu_comm *c, int32_t w)
{
	return emu_group_rank_of(c->group, w);
}
/* A name for messages: "MPI_COMM_WORLD", the MPI_Comm_set_name name,
 * "communicator 5", or for a window's private communicator "window 2"
 * (with its name if it has one) (static or thread-unsafe buffer). */
const char *emu_comm_describe(struct emu_rank *r, MPI_Comm c);
/* The error handler that applies to an error of rank r now: that of
 * r->err_comm (MPI_COMM_WORLD's when the call names none):
 * MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, or a handler of
 * MPI_Comm_create_errhandler (> MPI_ERRORS_RETURN), which, like
 * MPI_ERRORS_RETURN, makes the call return the error code. */
int emu_comm_errhandler(struct emu_rank *r);
/* Once an MPI call of rank r has failed with `code' and its bookkeeping
 * is closed (the rank computes again): if the handler of r->err_comm is
 * a user's (MPI_Comm_create_errhandler), call it with the communicator
 * and the code, as MPI says; nothing for the predefined handlers.  The
 * call then returns `code'. */
void emu_comm_user_errhandler(struct emu_rank *r, int code);
/* MPI_Finalize, before anything else: the attributes of MPI_COMM_SELF are
 * deleted, newest first, running their delete callbacks (MPI-3.1 8.7.1:
 * libraries hook their clean-up there). */
void emu_comm_finalize_rank(struct emu_rank *r);

/* For topo.c: MPI_Comm_split of rank r's communicator h by (color, key),
 * under the name `call', the new communicators getting topology `topo'
 * (a reference of their own; NULL: none).  Returns the new handle, or
 * MPI_COMM_NULL for color MPI_UNDEFINED.  `site': the program's call
 * site (EMU_SITE in the MPI function it called), where the SEB ends. */
MPI_Comm emu_comm_split(struct emu_rank *r, MPI_Comm h, int color, int key,
			emu_topo *topo, const char *call, const void *site);
/* For topo.c: a new communicator of rank r with the members of h and
 * topology `topo' (a reference of its own; NULL: none), collective over
 * h like MPI_Comm_dup (one traced context agreement; no attributes are
 * copied).  Inside a call whose SEB has ended already (emu_rec_enter),
 * its messages belong to that call. */
MPI_Comm emu_comm_derive(struct emu_rank *r, MPI_Comm h, emu_topo *topo,
			 const char *call, const void *site);
/* For topo.c: one round of a collective over c (handle h) on its
 * collective context with tag `tag': send sbytes from sbuf to comm rank
 * `to' and receive rbytes into rbuf from comm rank `from' (-1: no such
 * part), both complete on return.  A round that sends after one that
 * received (*step set) first cuts the SEB, so the trace carries the
 * dependency; *step is set when this round received. */
void emu_comm_round(struct emu_rank *r, emu_comm *c, MPI_Comm h, int tag,
		    const char *call, int to, const void *sbuf,
		    uint64_t sbytes, int from, void *rbuf, uint64_t rbytes,
		    int *step);
/* topo.c: the process's shared Cartesian topology with these dimensions
 * (a new reference), and dropping a reference to any topology. */
emu_topo *emu_topo_get(int ndims, const int *dims, const int *periods);
void emu_topo_unref(emu_topo *t);
/* topo.c, for the neighbourhood collectives: the number of in- and
 * out-neighbours of rank `rank' of a communicator with topology t, and
 * the neighbours themselves (ranks of the communicator, MPI_PROC_NULL
 * off a non-periodic edge of a grid), in MPI's order: for a grid, per
 * dimension the neighbour at -1 then the one at +1 (both lists); for a
 * graph, MPI_Graph_neighbors (both lists); for a distributed graph, the
 * sources and the destinations. */
void emu_topo_degrees(const emu_topo *t, int rank, int *indegree,
		      int *outdegree);
void emu_topo_neighbors(const emu_topo *t, int rank, int *sources,
			int *destinations);

/* Called by the transport: a runtime message (emu_tr_send_rt) arrived;
 * `block' is malloc'd, ownership passes.  Comm_split's (color, key)
 * tables travel this way. */
void emu_comm_rt_arrived(int src_proc, void *block, size_t len);

/* attr.c, for comm.c's MPI_Comm_dup and MPI_Comm_free: copy old's
 * attributes to nc by their copy callbacks (0, or a callback's code with
 * its keyval in *key); delete every attribute of c (h) by its delete
 * callback; free them without callbacks (the communicator is released
 * as it is); raise a callback's error. */
int emu_attr_copy_all(MPI_Comm oh, emu_comm *old, emu_comm *nc, int *key);
void emu_attr_delete_all(struct emu_rank *r, MPI_Comm h, emu_comm *c,
			 const char *call);
void emu_attr_drop_all(emu_comm *c);
/* The same for datatype.c's MPI_Type_dup and MPI_Type_free (the lists
 * are datatype.c's: emu_dt_attrs), and freeing a list without callbacks
 * at the end of the run. */
int emu_attr_type_copy_all(MPI_Datatype old, MPI_Datatype nt, int *key);
void emu_attr_type_delete_all(struct emu_rank *r, MPI_Datatype t,
			      const char *call);
void emu_attr_drop_list(struct emu_attr **list);
void emu_attr_callback_failed(struct emu_rank *r, const char *call,
			      const char *what, int k, int rc);

/* errhandler.c, for comm.c: a reference more or less to handler e (the
 * predefined ones have none); re-arm r's jump point for handlers that
 * return after its communicators changed. */
void emu_errh_ref(MPI_Errhandler e);
void emu_errh_unref(MPI_Errhandler e);
void emu_errh_update_return(struct emu_rank *r);
/* errhandler.c, for rma.c's windows: MPI_Comm_create_errhandler and
 * MPI_Comm_set_errhandler under the name `call'. */
void emu_errh_create(struct emu_rank *r, const char *call,
		     MPI_Comm_errhandler_function *fn,
		     MPI_Errhandler *errhandler);
void emu_errh_set(struct emu_rank *r, const char *call, emu_comm *c,
		  MPI_Errhandler e);
/* MPI_Comm_get_errhandler of c under the name `call'. */
void emu_errh_get(struct emu_rank *r, const char *call, const emu_comm *c,
		  MPI_Errhandler *e);

/* --------------------------------------------- the process's state */

/* comm.c's groups as the process keeps them: a group with what the
 * process needs to find and share it (here so that the process state can
 * hold the two pinned ones). */
typedef struct emu_group_obj {
	emu_group g;
	uint64_t hash;
	struct emu_group_obj *hnext; /* intern table chain */
	int32_t wmin, wmax;        /* smallest and largest world rank */
	uint8_t pinned;            /* static or in a rank's block */
	uint8_t interned;
} emu_group_obj;

/* comm.c: emu.comm. */
typedef struct emu_comm_state {
	emu_group_obj world_gobj, empty_gobj; /* pinned: never freed */
	emu_group_obj **gtab;      /* intern table: hash chains */
	size_t gtab_size, gtab_count;
	struct split_inst *splits; /* Comm_splits in progress */
	char name[MPI_MAX_OBJECT_NAME + 48]; /* emu_comm_describe's */
} emu_comm_state;
#define EMU_COMM_STATE_INIT {                                        \
	.world_gobj = { .g = { .refs = 1 }, .pinned = 1 },           \
	.empty_gobj = { .g = { .refs = 1 }, .pinned = 1,             \
			.wmin = INT32_MAX, .wmax = -1 },             \
}

/* topo.c: emu.topo, the process's shared layouts in use. */
typedef struct emu_topo_state {
	struct topo_obj *topos;
} emu_topo_state;

/* attr.c: emu.attr, the predefined attributes' values (MPI_Comm_get_attr
 * points at them) and the keyvals, shared by the process (a program
 * whose globals are not privatized creates a keyval once for all its
 * ranks). */
typedef struct emu_attr_state {
	int tag_ub, host, io, wtime_global, universe, appnum;
	struct kv_obj *kvs;
	uint32_t nkvs, kv_hint;
} emu_attr_state;
#define EMU_ATTR_STATE_INIT {                                        \
	.tag_ub = MPI_TAG_UB_VALUE, .host = MPI_PROC_NULL,           \
	.io = MPI_ANY_SOURCE, .wtime_global = 1, .appnum = 0,        \
}

/* errhandler.c: emu.errh, the user handlers, shared by the process
 * (creating one for a function that already has a handler gives that
 * handler, one more reference). */
typedef struct emu_errh_state {
	struct errh *errhs;
	uint32_t nerrhs;
} emu_errh_state;

#endif /* SIBYL_EMU_COMM_H */
