/*
 * comm_attr.c -- attribute caching: keyvals, callbacks, predefined
 * attributes, and the MPI-1 names.
 *
 * Every callback counts its calls in a per-rank structure reached through
 * extra_state (no globals: virtual ranks may share them), and checks the
 * keyval and value it is given.  Checked: set/get/replace/delete (the
 * delete callback sees the old value each time); MPI_Comm_dup calls the
 * copy callback once per attribute, and the duplicate has what the
 * callback gave (a new value, MPI_COMM_DUP_FN's same value, nothing for
 * MPI_COMM_NULL_COPY_FN or a callback that says flag = 0); MPI_Comm_free
 * deletes every attribute, also of a keyval already freed; a failing copy
 * callback makes MPI_Comm_dup fail (with MPI_ERRORS_RETURN); MPI_TAG_UB
 * and the other predefined attributes; MPI_Keyval_create, MPI_Attr_put,
 * MPI_Attr_get, MPI_Attr_delete, MPI_Keyval_free.
 *
 * Ranks: any number >= 1.
 */
#include "emutest.h"

typedef struct counts {
	emu_test *t;
	int copies, deletes;
	int keyval;            /* the keyval the callbacks expect */
	void *last_deleted;
	int fail_copy;         /* the copy callback fails with this code */
	int copy_flag;         /* what it says in flag */
} counts;

static int copy_cb(MPI_Comm old, int keyval, void *extra, void *in,
		   void *out, int *flag)
{
	counts *c = extra;
	(void)old;
	c->copies++;
	EMU_EQ(c->t, keyval, c->keyval, "copy callback: keyval");
	if (c->fail_copy)
		return c->fail_copy;
	/* The duplicate gets the value one int further. */
	*(void **)out = (int *)in + 1;
	*flag = c->copy_flag;
	return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm comm, int keyval, void *val, void *extra)
{
	counts *c = extra;
	int size = -1;
	c->deletes++;
	c->last_deleted = val;
	EMU_EQ(c->t, keyval, c->keyval, "delete callback: keyval");
	/* The communicator is still usable in the callback. */
	EMU_EQ(c->t, MPI_Comm_size(comm, &size), MPI_SUCCESS,
	       "MPI_Comm_size in a delete callback");
	return MPI_SUCCESS;
}

static void *get(emu_test *t, MPI_Comm c, int k, int want_flag,
		 const char *what)
{
	void *v = NULL;
	int flag = -1;
	MPI_Comm_get_attr(c, k, &v, &flag);
	EMU_EQ(t, flag, want_flag, "%s: flag", what);
	return flag ? v : NULL;
}

static void callbacks(emu_test *t)
{
	int vals[8];
	counts c = { t, 0, 0, 0, NULL, 0, 1 };
	int k;
	MPI_Comm dup;

	MPI_Comm_create_keyval(copy_cb, delete_cb, &k, &c);
	c.keyval = k;
	EMU_TRUE(t, k != MPI_KEYVAL_INVALID, "a keyval was created");
	get(t, MPI_COMM_WORLD, k, 0, "before set");
	MPI_Comm_set_attr(MPI_COMM_WORLD, k, &vals[0]);
	EMU_TRUE(t, get(t, MPI_COMM_WORLD, k, 1, "after set") == &vals[0],
		 "get gives the value set");
	MPI_Comm_set_attr(MPI_COMM_WORLD, k, &vals[2]);
	EMU_EQ(t, c.deletes, 1, "replacing deletes the old value");
	EMU_TRUE(t, c.last_deleted == &vals[0], "the old value deleted");
	EMU_TRUE(t, get(t, MPI_COMM_WORLD, k, 1, "replaced") == &vals[2],
		 "get gives the new value");

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	EMU_EQ(t, c.copies, 1, "one copy callback per attribute");
	EMU_TRUE(t, get(t, dup, k, 1, "copied") == &vals[3],
		 "the duplicate has the callback's value");
	EMU_TRUE(t, get(t, MPI_COMM_WORLD, k, 1, "original") == &vals[2],
		 "the original keeps its value");

	/* flag = 0: not copied. */
	c.copy_flag = 0;
	MPI_Comm d2;
	MPI_Comm_dup(MPI_COMM_WORLD, &d2);
	EMU_EQ(t, c.copies, 2, "copy callback called again");
	get(t, d2, k, 0, "copy callback said flag = 0");
	MPI_Comm_free(&d2);
	EMU_EQ(t, c.deletes, 1, "nothing to delete on d2");

	MPI_Comm_delete_attr(MPI_COMM_WORLD, k);
	EMU_EQ(t, c.deletes, 2, "MPI_Comm_delete_attr runs the callback");
	EMU_TRUE(t, c.last_deleted == &vals[2], "with the value");
	get(t, MPI_COMM_WORLD, k, 0, "after delete");

	/* The keyval freed while an attribute uses it: the callback still
	 * runs when the communicator goes. */
	MPI_Comm_free_keyval(&k);
	EMU_EQ(t, k, MPI_KEYVAL_INVALID, "freed keyval handle");
	MPI_Comm_free(&dup);
	EMU_EQ(t, c.deletes, 3, "MPI_Comm_free deletes the attribute");
	EMU_TRUE(t, c.last_deleted == &vals[3], "of the duplicate");
}

static void predefined_fns(emu_test *t)
{
	int a = 1, b = 2, knull, kdup;
	MPI_Comm dup;
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
			       &knull, NULL);
	MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN,
			       &kdup, NULL);
	EMU_TRUE(t, knull != kdup, "two keyvals differ");
	MPI_Comm_set_attr(MPI_COMM_SELF, knull, &a);
	MPI_Comm_set_attr(MPI_COMM_SELF, kdup, &b);
	MPI_Comm_dup(MPI_COMM_SELF, &dup);
	get(t, dup, knull, 0, "MPI_COMM_NULL_COPY_FN");
	EMU_TRUE(t, get(t, dup, kdup, 1, "MPI_COMM_DUP_FN") == &b,
		 "MPI_COMM_DUP_FN copies the value");
	MPI_Comm_free(&dup);
	MPI_Comm_delete_attr(MPI_COMM_SELF, knull);
	MPI_Comm_delete_attr(MPI_COMM_SELF, kdup);
	MPI_Comm_free_keyval(&knull);
	MPI_Comm_free_keyval(&kdup);
}

static void failing_copy(emu_test *t)
{
	int v = 0;
	counts c = { t, 0, 0, 0, NULL, MPI_ERR_OTHER, 1 };
	int k, rc;
	MPI_Comm dup = MPI_COMM_NULL;
	MPI_Comm_create_keyval(copy_cb, delete_cb, &k, &c);
	c.keyval = k;
	MPI_Comm_set_attr(MPI_COMM_SELF, k, &v);
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	rc = MPI_Comm_dup(MPI_COMM_SELF, &dup);
	EMU_TRUE(t, rc != MPI_SUCCESS, "MPI_Comm_dup with a failing copy "
		 "callback returned %d", rc);
	EMU_EQ(t, c.copies, 1, "the copy callback was called");
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_delete_attr(MPI_COMM_SELF, k);
	EMU_EQ(t, c.deletes, 1, "delete callback of the original");
	MPI_Comm_free_keyval(&k);
}

static void predefined_attrs(emu_test *t)
{
	int *v = get(t, MPI_COMM_WORLD, MPI_TAG_UB, 1, "MPI_TAG_UB");
	if (v) {
		EMU_TRUE(t, *v >= 32767, "MPI_TAG_UB %d >= 32767", *v);
#ifdef SIBYL_MPI
		EMU_EQ(t, *v, MPI_TAG_UB_VALUE, "MPI_TAG_UB");
#endif
	}
#ifdef SIBYL_MPI
	v = get(t, MPI_COMM_WORLD, MPI_HOST, 1, "MPI_HOST");
	EMU_EQ(t, v ? *v : -99, MPI_PROC_NULL, "MPI_HOST");
	v = get(t, MPI_COMM_WORLD, MPI_IO, 1, "MPI_IO");
	EMU_EQ(t, v ? *v : -99, MPI_ANY_SOURCE, "MPI_IO");
	v = get(t, MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, 1,
		"MPI_WTIME_IS_GLOBAL");
	EMU_EQ(t, v ? *v : -99, 1, "MPI_WTIME_IS_GLOBAL");
	v = get(t, MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, 1, "MPI_UNIVERSE_SIZE");
	EMU_EQ(t, v ? *v : -99, t->size, "MPI_UNIVERSE_SIZE");
	v = get(t, MPI_COMM_WORLD, MPI_APPNUM, 1, "MPI_APPNUM");
	EMU_EQ(t, v ? *v : -99, 0, "MPI_APPNUM");
#endif
	int flag = -1;
	void *p = NULL;
	MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
	EMU_TRUE(t, flag && p && *(int *)p >= 32767,
		 "MPI_Attr_get(MPI_TAG_UB)");
}

static void mpi1(emu_test *t)
{
	int k, x = 5, flag = -1;
	void *p = NULL;
	MPI_Comm dup;
	MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k, NULL);
	MPI_Attr_put(MPI_COMM_WORLD, k, &x);
	MPI_Attr_get(MPI_COMM_WORLD, k, &p, &flag);
	EMU_TRUE(t, flag && p == &x, "MPI_Attr_get after MPI_Attr_put");
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Attr_get(dup, k, &p, &flag);
	EMU_TRUE(t, flag && p == &x, "MPI_DUP_FN copied it");
	MPI_Comm_free(&dup);
	MPI_Attr_delete(MPI_COMM_WORLD, k);
	MPI_Attr_get(MPI_COMM_WORLD, k, &p, &flag);
	EMU_EQ(t, flag, 0, "MPI_Attr_get after MPI_Attr_delete");
	MPI_Keyval_free(&k);
	EMU_EQ(t, k, MPI_KEYVAL_INVALID, "MPI_Keyval_free");

	counts c = { t, 0, 0, 0, NULL, 0, 1 };
	MPI_Keyval_create(MPI_NULL_COPY_FN, delete_cb, &k, &c);
	c.keyval = k;
	MPI_Attr_put(MPI_COMM_WORLD, k, &x);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Attr_get(dup, k, &p, &flag);
	EMU_EQ(t, flag, 0, "MPI_NULL_COPY_FN did not copy");
	MPI_Comm_free(&dup);
	MPI_Attr_delete(MPI_COMM_WORLD, k);
	EMU_EQ(t, c.deletes, 1, "MPI_Attr_delete ran the delete callback");
	MPI_Keyval_free(&k);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "comm_attr", &argc, &argv);
	callbacks(&t);
	predefined_fns(&t);
	failing_copy(&t);
	predefined_attrs(&t);
	mpi1(&t);
	return emu_finish(&t);
}
