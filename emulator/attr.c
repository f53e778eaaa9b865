/*
 * attr.c -- attribute caching on communicators (MPI_Comm_create_keyval,
 * MPI_Comm_set_attr, MPI_Comm_get_attr, MPI_Comm_delete_attr and the
 * MPI-1 names) and on datatypes (MPI_Type_create_keyval, ...), the
 * predefined attributes, and the copy and delete callbacks that
 * MPI_Comm_dup, MPI_Comm_free, MPI_Type_dup and MPI_Type_free run
 * (emu_comm.h).
 *
 * A keyval is of one kind of object, the one its creator names: a
 * communicator's keyval on a datatype, or the reverse, is an MPI_ERR_ARG
 * error.  The attributes of a communicator hang off its emu_comm; those
 * of a datatype off datatype.c's table (emu_dt_attrs), which callbacks
 * may move when they create types, so it is looked up again after each
 * callback.
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


/* The kinds of objects keyvals are for. */
enum { KV_COMM, KV_TYPE };

/* The copy and delete callbacks of either kind: MPI_Comm and
 * MPI_Datatype are both int, so MPI_Type_copy_attr_function is this
 * type. */
typedef struct kv_obj {
	MPI_Comm_copy_attr_function *copy;
	MPI_Comm_delete_attr_function *del;
	void *extra;
	uint32_t refs;             /* creator + attributes; 0: free slot */
	uint8_t freed;             /* MPI_..._free_keyval was called */
	uint8_t kind;              /* KV_COMM or KV_TYPE */
} kv_obj;

/* An object with attributes: a communicator or a datatype. */
typedef struct attr_obj {
	int kind;                  /* KV_COMM or KV_TYPE */
	int handle;
	emu_comm *c;               /* KV_COMM */
} attr_obj;

static const char *const kind_name[] = { "a communicator", "a datatype" };
static const char *const create_name[] = { "MPI_Comm_create_keyval",
					    "MPI_Type_create_keyval" };
static const char *const free_name[] = { "MPI_Comm_free_keyval",
					  "MPI_Type_free_keyval" };

/* The head of o's attribute list (looked up afresh: see above). */
static struct emu_attr **obj_attrs(const attr_obj *o)
{
	return o->kind == KV_COMM ? &o->c->attrs : emu_dt_attrs(o->handle);
}

static attr_obj comm_obj(MPI_Comm h, emu_comm *c)
{
	return (attr_obj){ KV_COMM, h, c };
}

static attr_obj type_obj(MPI_Datatype t)
{
	return (attr_obj){ KV_TYPE, t, NULL };
}

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

/* A keyval of `kind' the program may use: predefined (1; communicators
 * only) or live (its entry). */
static kv_obj *kv_get(emu_rank *r, int k, int kind, const char *call,
		      int *predef)
{
	*predef = k >= MPI_TAG_UB && k <= KEYVAL_PREDEF_LAST;
	if (*predef && kind == KV_COMM)
		return NULL;
	if (*predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is a predefined "
			      "attribute of communicators, not of datatypes",
			      k);
	kv_obj *kv = kv_lookup(k);
	if (!kv && k == MPI_KEYVAL_INVALID)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not a keyval "
			      "(MPI_KEYVAL_INVALID)", k);
	if (!kv)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not a keyval (not "
			      "created by %s)", k, create_name[kind]);
	if (kv->freed)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not a keyval any "
			      "more (%s freed it)", k, free_name[kv->kind]);
	if (kv->kind != kind)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is for %s (%s "
			      "made it), not for %s", k, kind_name[kv->kind],
			      create_name[kv->kind], kind_name[kind]);
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

/* Unlink attribute a of object o and run its delete callback;
 * relinked (and an error raised) if the callback fails. */
static void attr_delete(emu_rank *r, const attr_obj *o, struct emu_attr *a,
			const char *call)
{
	struct emu_attr **p = obj_attrs(o);
	while (*p != a)
		p = &(*p)->next;
	*p = a->next;
	kv_obj *kv = kv_lookup(a->keyval);
	if (kv && kv->del) {
		/* The callback may use the object, even set or delete other
		 * attributes: the list is consistent meanwhile. */
		int rc = kv->del(o->handle, a->keyval, a->val, kv->extra);
		if (rc != MPI_SUCCESS) {
			p = obj_attrs(o);
			a->next = *p;
			*p = a;
			emu_attr_callback_failed(r, call, "delete", a->keyval,
						 rc);
		}
	}
	kv_unref(a->keyval);
	free(a);
}

static struct emu_attr *attr_find(const attr_obj *o, int k)
{
	for (struct emu_attr *a = *obj_attrs(o); a; a = a->next)
		if (a->keyval == k)
			return a;
	return NULL;
}

/* Delete every attribute of o, newest first. */
static void delete_all(emu_rank *r, const attr_obj *o, const char *call)
{
	struct emu_attr *a;
	while ((a = *obj_attrs(o)))
		attr_delete(r, o, a, call);
}

/* Comm_free, Finalize. */
void emu_attr_delete_all(emu_rank *r, MPI_Comm h, emu_comm *c,
			    const char *call)
{
	attr_obj o = comm_obj(h, c);
	delete_all(r, &o, call);
}

void emu_attr_type_delete_all(emu_rank *r, MPI_Datatype t, const char *call)
{
	attr_obj o = type_obj(t);
	delete_all(r, &o, call);
}

/* Copy the attributes of old to nw (which has none) as their copy
 * callbacks say.  On a failure the copies made so far stay on nw, for the
 * caller to delete, and the callback's code is returned. */
static int copy_all(const attr_obj *old, const attr_obj *nw, int *failed_key)
{
	struct emu_attr *head = NULL, **tail = &head;
	int rc = MPI_SUCCESS;
	for (struct emu_attr *a = *obj_attrs(old); a; a = a->next) {
		kv_obj *kv = kv_lookup(a->keyval);
		if (!kv || !kv->copy)
			continue;
		void *out = NULL;
		int flag = 0;
		rc = kv->copy(old->handle, a->keyval, kv->extra, a->val, &out,
			      &flag);
		if (rc != MPI_SUCCESS) {
			*failed_key = a->keyval;
			break;
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
	*obj_attrs(nw) = head;
	return rc;
}

/* MPI_Comm_dup. */
int emu_attr_copy_all(MPI_Comm oh, emu_comm *old, emu_comm *nc,
			 int *failed_key)
{
	attr_obj o = comm_obj(oh, old), n = comm_obj(MPI_COMM_NULL, nc);
	return copy_all(&o, &n, failed_key);
}

/* MPI_Type_dup. */
int emu_attr_type_copy_all(MPI_Datatype old, MPI_Datatype nt,
			   int *failed_key)
{
	attr_obj o = type_obj(old), n = type_obj(nt);
	return copy_all(&o, &n, failed_key);
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

static int create_keyval(const char *call, int kind,
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
	emu.attr.kvs[i].kind = (uint8_t)kind;
	*keyval_out = (int)i + KEYVAL_FIRST;
	return MPI_SUCCESS;
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			   MPI_Comm_delete_attr_function *comm_delete_attr_fn,
			   int *comm_keyval, void *extra_state)
{
	return create_keyval("MPI_Comm_create_keyval", KV_COMM,
			     comm_copy_attr_fn, comm_delete_attr_fn,
			     comm_keyval, extra_state);
}

int MPI_Keyval_create(MPI_Copy_function *copy_fn,
		      MPI_Delete_function *delete_fn, int *keyval,
		      void *extra_state)
{
	return create_keyval("MPI_Keyval_create", KV_COMM, copy_fn,
			     delete_fn, keyval, extra_state);
}

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
			   MPI_Type_delete_attr_function *type_delete_attr_fn,
			   int *type_keyval, void *extra_state)
{
	return create_keyval("MPI_Type_create_keyval", KV_TYPE,
			     type_copy_attr_fn, type_delete_attr_fn,
			     type_keyval, extra_state);
}

static int free_keyval(const char *call, int kind, int *k)
{
	EMU_API(r, call);
	int predef;
	if (!k)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL keyval pointer");
	kv_obj *kv = kv_get(r, *k, kind, call, &predef);
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
	return free_keyval("MPI_Comm_free_keyval", KV_COMM, comm_keyval);
}

int MPI_Keyval_free(int *keyval)
{
	return free_keyval("MPI_Keyval_free", KV_COMM, keyval);
}

int MPI_Type_free_keyval(int *type_keyval)
{
	return free_keyval("MPI_Type_free_keyval", KV_TYPE, type_keyval);
}

/* The object `call' works on: communicator comm or datatype t. */
static attr_obj obj_arg(emu_rank *r, const char *call, int kind, int h)
{
	if (kind == KV_COMM)
		return comm_obj(h, emu_comm_get(r, h, call));
	emu_dt_attr_check(r, call, h);
	return type_obj(h);
}

static int set_attr(const char *call, int kind, int h, int k, void *val)
{
	EMU_API(r, call);
	attr_obj o = obj_arg(r, call, kind, h);
	int predef;
	kv_obj *kv = kv_get(r, k, kind, call, &predef);
	if (predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is a "
			      "predefined attribute, which cannot be set", k);
	struct emu_attr *a = attr_find(&o, k);
	if (a) {
		/* As if MPI_Comm_delete_attr came first. */
		attr_delete(r, &o, a, call);
		kv = kv_lookup(k);
	}
	a = attr_alloc();
	a->keyval = k;
	a->val = val;
	struct emu_attr **head = obj_attrs(&o);
	a->next = *head;
	*head = a;
	kv->refs++;
	return MPI_SUCCESS;
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
	return set_attr("MPI_Comm_set_attr", KV_COMM, comm, comm_keyval,
			attribute_val);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return set_attr("MPI_Attr_put", KV_COMM, comm, keyval, attribute_val);
}

int MPI_Type_set_attr(MPI_Datatype type, int type_keyval, void *attr_val)
{
	return set_attr("MPI_Type_set_attr", KV_TYPE, type, type_keyval,
			attr_val);
}

static int get_attr(const char *call, int kind, int h, int k, void *val,
		    int *flag)
{
	EMU_API(r, call);
	attr_obj o = obj_arg(r, call, kind, h);
	int predef;
	kv_get(r, k, kind, call, &predef);
	if (!val || !flag)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s pointer",
			      val ? "flag" : "attribute_val");
	if (predef) {
		*(void **)val = predef_value(r, k);
		*flag = 1;
		return MPI_SUCCESS;
	}
	struct emu_attr *a = attr_find(&o, k);
	*flag = a != NULL;
	if (a)
		*(void **)val = a->val;
	return MPI_SUCCESS;
}

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
		      int *flag)
{
	return get_attr("MPI_Comm_get_attr", KV_COMM, comm, comm_keyval,
			attribute_val, flag);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return get_attr("MPI_Attr_get", KV_COMM, comm, keyval, attribute_val,
			flag);
}

int MPI_Type_get_attr(MPI_Datatype type, int type_keyval,
		      void *attribute_val, int *flag)
{
	return get_attr("MPI_Type_get_attr", KV_TYPE, type, type_keyval,
			attribute_val, flag);
}

static int delete_attr(const char *call, int kind, int h, int k)
{
	EMU_API(r, call);
	attr_obj o = obj_arg(r, call, kind, h);
	int predef;
	kv_get(r, k, kind, call, &predef);
	if (predef)
		emu_mpi_error(r, call, MPI_ERR_ARG, "keyval %d is a "
			      "predefined attribute, which cannot be deleted",
			      k);
	struct emu_attr *a = attr_find(&o, k);
	if (!a)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s has no attribute "
			      "with keyval %d", kind == KV_COMM ?
			      emu_comm_describe(r, h) : emu_dt_name(h), k);
	attr_delete(r, &o, a, call);
	return MPI_SUCCESS;
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
	return delete_attr("MPI_Comm_delete_attr", KV_COMM, comm,
			   comm_keyval);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return delete_attr("MPI_Attr_delete", KV_COMM, comm, keyval);
}

int MPI_Type_delete_attr(MPI_Datatype type, int type_keyval)
{
	return delete_attr("MPI_Type_delete_attr", KV_TYPE, type,
			   type_keyval);
}

void emu_comm_finalize_rank(emu_rank *r)
{
	emu_attr_delete_all(r, MPI_COMM_SELF, r->comms[MPI_COMM_SELF],
			"MPI_Finalize");
}

void emu_attr_drop_list(struct emu_attr **list)
{
	while (*list) {
		struct emu_attr *a = *list;
		*list = a->next;
		kv_unref(a->keyval);
		free(a);
	}
}

void emu_attr_drop_all(emu_comm *c)
{
	emu_attr_drop_list(&c->attrs);
}
