/*
 * attr.c -- attribute caching on communicators (MPI_Comm_create_keyval,
 * MPI_Comm_set_attr, MPI_Comm_get_attr, MPI_Comm_delete_attr and the
 * MPI-1 names), the predefined attributes, and the copy and delete
 * callbacks that MPI_Comm_dup and MPI_Comm_free run (emu_comm.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

struct emu_attr {
	struct emu_attr *next;     /* newest first */
	int keyval;
	void *val;
};

static struct emu_attr *attr_alloc(void)
{
	struct emu_attr *a = malloc(sizeof *a);
	if (!a)
		emu_fatal("out of memory (an attribute of a communicator)");
	return a;
}


typedef struct kv_obj {
	MPI_Comm_copy_attr_function *copy;
	MPI_Comm_delete_attr_function *del;
	void *extra;
	uint32_t refs;             /* creator + attributes; 0: free slot */
	uint8_t freed;             /* MPI_Comm_free_keyval was called */
} kv_obj;

/* Keyvals are shared by the process (emu.attr). */
#define KEYVAL_FIRST 16
#define KEYVAL_PREDEF_LAST MPI_LASTUSEDCODE

static kv_obj *kv_lookup(int k)
{
	if (k < KEYVAL_FIRST || (uint32_t)(k - KEYVAL_FIRST) >= emu.attr.nkvs)
		return NULL;
	kv_obj *kv = &emu.attr.kvs[k - KEYVAL_FIRST];
	return kv->refs ? kv : NULL;
}

static void kv_unref(int k)
{
	kv_obj *kv = kv_lookup(k);
	if (kv && --kv->refs == 0) {
		uint32_t i = (uint32_t)(k - KEYVAL_FIRST);
		if (i < emu.attr.kv_hint)
			emu.attr.kv_hint = i;
	}
}

/* A keyval the program may use: predefined (1) or live (its entry). */
static kv_obj *kv_get(emu_rank *r, int k, const char *call, int *predef)
{
	*predef = k >= MPI_TAG_UB && k <= KEYVAL_PREDEF_LAST;
	if (*predef)
		return NULL;
	kv_obj *kv = kv_lookup(k);
	if (!kv || kv->freed)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not a keyval%s", k,
			      k == MPI_KEYVAL_INVALID ? " (MPI_KEYVAL_INVALID)"
			      : kv ? " any more (MPI_Comm_free_keyval freed "
			      "it)" : " (not created by MPI_Comm_create_keyval"
			      ")");
	return kv;
}

static int *predef_value(emu_rank *r, int k)
{
	switch (k) {
	case MPI_LASTUSEDCODE: return emu_err_lastused(r);
	case MPI_TAG_UB: return &emu.attr.tag_ub;
	case MPI_HOST: return &emu.attr.host;
	case MPI_IO: return &emu.attr.io;
	case MPI_WTIME_IS_GLOBAL: return &emu.attr.wtime_global;
	case MPI_UNIVERSE_SIZE:
		emu.attr.universe = (int)emu.nranks;
		return &emu.attr.universe;
	default: return &emu.attr.appnum;
	}
}

/* A callback's error: MPI returns the code it gave. */
void emu_attr_callback_failed(emu_rank *r, const char *call,
			      const char *what, int k, int rc)
{
	emu_mpi_error(r, call, rc > 0 && rc <= MPI_ERR_LASTCODE ? rc :
		      MPI_ERR_OTHER, "the %s callback of keyval %d returned "
		      "%d", what, k, rc);
}

/* Unlink attribute a of communicator h and run its delete callback;
 * relinked (and an error raised) if the callback fails. */
static void attr_delete(emu_rank *r, MPI_Comm h, emu_comm *c,
			struct emu_attr *a, const char *call)
{
	struct emu_attr **p = &c->attrs;
	while (*p != a)
		p = &(*p)->next;
	*p = a->next;
	kv_obj *kv = kv_lookup(a->keyval);
	if (kv && kv->del) {
		/* The callback may use the communicator, even set or delete
		 * other attributes: the list is consistent meanwhile. */
		int rc = kv->del(h, a->keyval, a->val, kv->extra);
		if (rc != MPI_SUCCESS) {
			a->next = c->attrs;
			c->attrs = a;
			emu_attr_callback_failed(r, call, "delete", a->keyval,
						 rc);
		}
	}
	kv_unref(a->keyval);
	free(a);
}

static struct emu_attr *attr_find(emu_comm *c, int k)
{
	for (struct emu_attr *a = c->attrs; a; a = a->next)
		if (a->keyval == k)
			return a;
	return NULL;
}

/* Delete every attribute of h, newest first (Comm_free, Finalize). */
void emu_attr_delete_all(emu_rank *r, MPI_Comm h, emu_comm *c,
			    const char *call)
{
	while (c->attrs)
		attr_delete(r, h, c, c->attrs, call);
}

/* Copy the attributes of old (handle oh) to new (handle nh) as their
 * copy callbacks say (MPI_Comm_dup).  On a failure the copies made so far
 * are deleted and the callback's code is returned. */
int emu_attr_copy_all(MPI_Comm oh, emu_comm *old, emu_comm *nc,
			 int *failed_key)
{
	struct emu_attr **tail = &nc->attrs;
	for (struct emu_attr *a = old->attrs; a; a = a->next) {
		kv_obj *kv = kv_lookup(a->keyval);
		if (!kv || !kv->copy)
			continue;
		void *out = NULL;
		int flag = 0;
		int rc = kv->copy(oh, a->keyval, kv->extra, a->val, &out,
				  &flag);
		if (rc != MPI_SUCCESS) {
			*failed_key = a->keyval;
			return rc;
		}
		if (!flag)
			continue;
		/* The callback may have freed the keyval. */
		if (!(kv = kv_lookup(a->keyval)))
			continue;
		struct emu_attr *n = attr_alloc();
		n->keyval = a->keyval;
		n->val = out;
		n->next = NULL;
		kv->refs++;
		*tail = n;
		tail = &n->next;
	}
	return MPI_SUCCESS;
}

int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval,
			  void *extra_state, void *attribute_val_in,
			  void *attribute_val_out, int *flag)
{
	(void)oldcomm;
	(void)comm_keyval;
	(void)extra_state;
	(void)attribute_val_in;
	(void)attribute_val_out;
	*flag = 0;
	return MPI_SUCCESS;
}

int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
		    void *attribute_val_in, void *attribute_val_out,
		    int *flag)
{
	(void)oldcomm;
	(void)comm_keyval;
	(void)extra_state;
	*(void **)attribute_val_out = attribute_val_in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval,
			    void *attribute_val, void *extra_state)
{
	(void)comm;
	(void)comm_keyval;
	(void)attribute_val;
	(void)extra_state;
	return MPI_SUCCESS;
}

static int create_keyval(const char *call,
			 MPI_Comm_copy_attr_function *copy,
			 MPI_Comm_delete_attr_function *del, int *keyval_out,
			 void *extra)
{
	EMU_API(r, call);
	if (!keyval_out)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL keyval pointer");
	uint32_t i = emu.attr.kv_hint;
	while (i < emu.attr.nkvs && emu.attr.kvs[i].refs)
		i++;
	if (i == emu.attr.nkvs) {
		if (emu.attr.nkvs >= (uint32_t)INT_MAX - KEYVAL_FIRST)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "too many "
				      "keyvals");
		uint32_t n = emu.attr.nkvs ? 2 * emu.attr.nkvs : 64;
		kv_obj *t = realloc(emu.attr.kvs, n * sizeof *t);
		if (!t)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of "
				      "memory for keyvals");
		memset(t + emu.attr.nkvs, 0, (n - emu.attr.nkvs) * sizeof *t);
		emu.attr.kvs = t;
		emu.attr.nkvs = n;
	}
	emu.attr.kv_hint = i + 1;
	emu.attr.kvs[i].copy = copy;
	emu.attr.kvs[i].del = del;
	emu.attr.kvs[i].extra = extra;
	emu.attr.kvs[i].refs = 1;
	emu.attr.kvs[i].freed = 0;
	*keyval_out = (int)i + KEYVAL_FIRST;
	return MPI_SUCCESS;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			   MPI_Comm_delete_attr_function *comm_delete_attr_fn,
			   int *comm_keyval, void *extra_state)
{
	return create_keyval("MPI_Comm_create_keyval", comm_copy_attr_fn,
			     comm_delete_attr_fn, comm_keyval, extra_state);
}

int MPI_Keyval_create(MPI_Copy_function *copy_fn,
		      MPI_Delete_function *delete_fn, int *keyval,
		      void *extra_state)
{
	return create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval,
			     extra_state);
}

static int free_keyval(const char *call, int *k)
{
	EMU_API(r, call);
	int predef;
	if (!k)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL keyval pointer");
	kv_obj *kv = kv_get(r, *k, call, &predef);
	if (predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is predefined "
			      "and cannot be freed", *k);
	/* Attributes still set keep it alive for their callbacks. */
	kv->freed = 1;
	kv_unref(*k);
	*k = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

int MPI_Comm_free_keyval(int *comm_keyval)
{
	return free_keyval("MPI_Comm_free_keyval", comm_keyval);
}

int MPI_Keyval_free(int *keyval)
{
	return free_keyval("MPI_Keyval_free", keyval);
}

static int set_attr(const char *call, MPI_Comm comm, int k, void *val)
{
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	int predef;
	kv_obj *kv = kv_get(r, k, call, &predef);
	if (predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is a "
			      "predefined attribute, which cannot be set", k);
	struct emu_attr *a = attr_find(c, k);
	if (a) {
		/* As if MPI_Comm_delete_attr came first. */
		attr_delete(r, comm, c, a, call);
		kv = kv_lookup(k);
	}
	a = attr_alloc();
	a->keyval = k;
	a->val = val;
	a->next = c->attrs;
	c->attrs = a;
	kv->refs++;
	return MPI_SUCCESS;
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
	return set_attr("MPI_Comm_set_attr", comm, comm_keyval,
			attribute_val);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

static int get_attr(const char *call, MPI_Comm comm, int k, void *val,
		    int *flag)
{
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	int predef;
	kv_get(r, k, call, &predef);
	if (!val || !flag)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s pointer",
			      val ? "flag" : "attribute_val");
	if (predef) {
		*(void **)val = predef_value(r, k);
		*flag = 1;
		return MPI_SUCCESS;
	}
	struct emu_attr *a = attr_find(c, k);
	*flag = a != NULL;
	if (a)
		*(void **)val = a->val;
	return MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
		      int *flag)
{
	return get_attr("MPI_Comm_get_attr", comm, comm_keyval,
			attribute_val, flag);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

static int delete_attr(const char *call, MPI_Comm comm, int k)
{
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	int predef;
	kv_get(r, k, call, &predef);
	if (predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is a "
			      "predefined attribute, which cannot be deleted",
			      k);
	struct emu_attr *a = attr_find(c, k);
	if (!a)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s has no attribute "
			      "with keyval %d", emu_comm_describe(r, comm), k);
	attr_delete(r, comm, c, a, call);
	return MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
	return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return delete_attr("MPI_Attr_delete", comm, keyval);
}

void emu_comm_finalize_rank(emu_rank *r)
{
	emu_attr_delete_all(r, MPI_COMM_SELF, r->comms[MPI_COMM_SELF],
			"MPI_Finalize");
}

void emu_attr_drop_all(emu_comm *c)
{
	while (c->attrs) {
		struct emu_attr *a = c->attrs;
		c->attrs = a->next;
		kv_unref(a->keyval);
		free(a);
	}
}
