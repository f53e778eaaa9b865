/*
 * comm_finalize.c -- MPI_Finalize deletes the attributes of
 * MPI_COMM_SELF, newest first, running their delete callbacks (MPI-3.1
 * 8.7.1: the hook libraries use to clean up at the end).
 *
 * Three attributes are set on MPI_COMM_SELF with a delete callback that
 * records, in a per-rank log reached through extra_state, the order of
 * the calls; one of them is deleted before MPI_Finalize.  After
 * MPI_Finalize the log must read: the early delete, then the other two
 * newest first.  Under Sibyl an attribute on MPI_COMM_WORLD is not
 * deleted (MPI leaves that open; Open MPI deletes it after those of
 * MPI_COMM_SELF).
 *
 * Ranks: any number >= 1.
 */
#include "emutest.h"

typedef struct dlog {
	emu_test t;            /* first: emu_finish's hook gets it */
	int n;
	int order[8];
} dlog;

static int delete_cb(MPI_Comm comm, int keyval, void *val, void *extra)
{
	dlog *d = extra;
	(void)comm;
	(void)keyval;
	if (d->n < 8)
		d->order[d->n] = *(int *)val;
	d->n++;
	return MPI_SUCCESS;
}

static void after(emu_test *t)
{
	dlog *d = (dlog *)t;
#ifdef SIBYL_MPI
	if (!EMU_EQ(t, d->n, 3, "delete callbacks run by the end"))
		return;
#else
	/* Open MPI also deletes MPI_COMM_WORLD's, after MPI_COMM_SELF's. */
	if (!EMU_TRUE(t, d->n >= 3, "%d delete callbacks by the end", d->n))
		return;
#endif
	EMU_EQ(t, d->order[0], 2, "first: the attribute deleted early");
	EMU_EQ(t, d->order[1], 3, "then the newest");
	EMU_EQ(t, d->order[2], 1, "then the oldest");
}

int main(int argc, char **argv)
{
	dlog d;
	int one = 1, two = 2, three = 3, four = 4, k1, k2, k3, kw;
	emu_init(&d.t, "comm_finalize", &argc, &argv);
	d.n = 0;
	d.t.after_finalize = after;
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &k1, &d);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &k2, &d);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &k3, &d);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &kw, &d);
	MPI_Comm_set_attr(MPI_COMM_SELF, k1, &one);
	MPI_Comm_set_attr(MPI_COMM_SELF, k2, &two);
	MPI_Comm_set_attr(MPI_COMM_SELF, k3, &three);
	MPI_Comm_set_attr(MPI_COMM_WORLD, kw, &four);
	MPI_Comm_delete_attr(MPI_COMM_SELF, k2);
	EMU_EQ(&d.t, d.n, 1, "MPI_Comm_delete_attr ran the callback");
	return emu_finish(&d.t);
}
