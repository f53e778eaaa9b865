/*
 * dt_envelope.c -- the datatype routines beyond constructing and
 * packing: attributes.
 *
 * Attributes: a keyval whose copy callback stores the value plus one
 * and whose delete callback records what it deletes (in the rank's own
 * record, reached through extra_state):
 *   - set on a derived type, get gives it back (flag 1); get with a
 *     keyval never set on the type gives flag 0;
 *   - MPI_Type_dup runs the copy callback once, with the old type and
 *     its value, and the duplicate holds the callback's value; a keyval
 *     with MPI_TYPE_NULL_COPY_FN is not copied, one with MPI_TYPE_DUP_FN
 *     is, with the same value;
 *   - setting again deletes the old value first; MPI_Type_delete_attr
 *     runs the delete callback with the type and the value, and get then
 *     gives flag 0; MPI_Type_free runs it for each attribute left;
 *   - a predefined type (MPI_INT) takes attributes too;
 *   - a copy callback's error fails MPI_Type_dup (under Sibyl, with
 *     the callback's code), and under Sibyl a keyval of communicators on
 *     a datatype, the reverse, and a freed keyval are MPI_ERR_ARG errors
 *     (MPI_ERRORS_RETURN);
 *   - MPI_Type_free_keyval sets the keyval to MPI_KEYVAL_INVALID.
 *
 * Plain MPI: builds with Open MPI's mpicc as well.  Ranks: any number
 * (4 on 2 processes in tests/emu_dt.sh).  Prints "PASS dt_envelope" on
 * rank 0.
 */
#include "emutest.h"

/* ------------------------------------------------------------ attributes */

/* What a rank's callbacks saw. */
typedef struct seen {
	int copies, deletes;
	MPI_Datatype copied_from, deleted_from;
	long copied_val, deleted_val;
	int fail_copy;          /* the copy callback returns MPI_ERR_OTHER */
} seen;

static int copy_cb(MPI_Datatype oldtype, int keyval, void *extra,
		   void *in, void *out, int *flag)
{
	seen *s = extra;
	(void)keyval;
	if (s->fail_copy)
		return MPI_ERR_OTHER;
	s->copies++;
	s->copied_from = oldtype;
	s->copied_val = (long)in;
	*(void **)out = (void *)((long)in + 1);
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_cb(MPI_Datatype type, int keyval, void *val, void *extra)
{
	seen *s = extra;
	(void)keyval;
	s->deletes++;
	s->deleted_from = type;
	s->deleted_val = (long)val;
	return MPI_SUCCESS;
}

/* The attribute of t under k: its value, or -1 when flag is 0. */
static long attr_of(MPI_Datatype t, int k)
{
	void *v = NULL;
	int flag = -1;
	MPI_Type_get_attr(t, k, &v, &flag);
	return flag ? (long)v : -1;
}

static void attributes(emu_test *t)
{
	seen s;
	memset(&s, 0, sizeof s);
	int k = MPI_KEYVAL_INVALID, knull, kdup, kunused;
	MPI_Datatype v, d, d2;
	MPI_Type_create_keyval(copy_cb, delete_cb, &k, &s);
	MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN,
			       &knull, NULL);
	MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN,
			       &kdup, NULL);
	MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN,
			       &kunused, NULL);
	EMU_TRUE(t, k != MPI_KEYVAL_INVALID, "MPI_Type_create_keyval made "
		 "no keyval");

	MPI_Type_vector(3, 2, 5, MPI_INT, &v);
	MPI_Type_set_attr(v, k, (void *)100L);
	MPI_Type_set_attr(v, knull, (void *)7L);
	MPI_Type_set_attr(v, kdup, (void *)8L);
	EMU_EQ(t, attr_of(v, k), 100, "the attribute set");
	EMU_EQ(t, attr_of(v, kunused), -1, "a keyval never set: flag");

	MPI_Type_dup(v, &d);
	EMU_EQ(t, s.copies, 1, "copy callbacks run by MPI_Type_dup");
	EMU_TRUE(t, s.copied_from == v && s.copied_val == 100,
		 "the copy callback got value %ld (want 100)%s", s.copied_val,
		 s.copied_from == v ? "" : " and another type");
	EMU_EQ(t, attr_of(d, k), 101, "the duplicate's attribute");
	EMU_EQ(t, attr_of(d, knull), -1, "MPI_TYPE_NULL_COPY_FN's, copied");
	EMU_EQ(t, attr_of(d, kdup), 8, "MPI_TYPE_DUP_FN's");
	EMU_EQ(t, attr_of(v, k), 100, "the original's, after the dup");

	/* Setting again deletes the old value. */
	MPI_Type_set_attr(v, k, (void *)200L);
	EMU_TRUE(t, s.deletes == 1 && s.deleted_from == v &&
		 s.deleted_val == 100, "replacing an attribute: %d deletes, "
		 "the last of %ld", s.deletes, s.deleted_val);
	MPI_Type_delete_attr(v, k);
	EMU_TRUE(t, s.deletes == 2 && s.deleted_val == 200,
		 "MPI_Type_delete_attr: %d deletes, the last of %ld",
		 s.deletes, s.deleted_val);
	EMU_EQ(t, attr_of(v, k), -1, "a deleted attribute: flag");

	/* Freeing the duplicate deletes its attribute. */
	MPI_Datatype dh = d;
	MPI_Type_free(&d);
	EMU_TRUE(t, s.deletes == 3 && s.deleted_from == dh &&
		 s.deleted_val == 101, "MPI_Type_free: %d deletes, the last "
		 "of %ld", s.deletes, s.deleted_val);

	/* A predefined type takes attributes. */
	MPI_Type_set_attr(MPI_INT, k, (void *)5L);
	EMU_EQ(t, attr_of(MPI_INT, k), 5, "an attribute of MPI_INT");
	MPI_Type_delete_attr(MPI_INT, k);
	EMU_TRUE(t, s.deletes == 4 && s.deleted_from == MPI_INT,
		 "deleting MPI_INT's attribute");

	/* A failing copy callback fails the dup with its code. */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Type_set_attr(v, k, (void *)300L);
	s.fail_copy = 1;
	int rc = MPI_Type_dup(v, &d2);
	EMU_TRUE(t, rc != MPI_SUCCESS, "MPI_Type_dup with a failing copy "
		 "callback succeeded");
	s.fail_copy = 0;
#ifdef SIBYL_MPI
	/* Sibyl's classes (the standard leaves them open; Open MPI returns
	 * MPI_ERR_INTERN for the first and has MPI_ERR_KEYVAL for the
	 * others): the callback's code; a communicator's keyval on a
	 * datatype, a freed keyval. */
	int ccls = 0;
	MPI_Error_class(rc, &ccls);
	EMU_EQ(t, ccls, MPI_ERR_OTHER, "MPI_Type_dup with a failing copy "
	       "callback");
	int kc, kf;
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
			       MPI_COMM_NULL_DELETE_FN, &kc, NULL);
	MPI_Error_class(MPI_Type_set_attr(v, kc, NULL), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a communicator's keyval on a type");
	MPI_Error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, knull, NULL), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a datatype's keyval on a communicator");
	MPI_Comm_free_keyval(&kc);
	kf = kunused;
	MPI_Type_free_keyval(&kf);
	MPI_Error_class(MPI_Type_get_attr(v, kunused, &s, &rc), &ccls);
	EMU_EQ(t, ccls, MPI_ERR_ARG, "a freed keyval");
	kunused = MPI_KEYVAL_INVALID;
#endif
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

	int copies = s.copies, deletes = s.deletes;
	MPI_Type_free(&v);
	EMU_EQ(t, s.deletes - deletes, 1, "MPI_Type_free's delete callbacks");
	EMU_EQ(t, s.copies, copies, "copies after the failed dup");
	MPI_Type_free_keyval(&k);
	EMU_EQ(t, k, MPI_KEYVAL_INVALID, "the keyval after "
	       "MPI_Type_free_keyval");
	MPI_Type_free_keyval(&knull);
	MPI_Type_free_keyval(&kdup);
	if (kunused != MPI_KEYVAL_INVALID)
		MPI_Type_free_keyval(&kunused);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_envelope", &argc, &argv);
	attributes(&t);
	return emu_finish(&t);
}
