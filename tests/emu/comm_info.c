/*
 * comm_info.c -- info objects: MPI_Info_create, set, get, get_valuelen,
 * get_nkeys, get_nthkey, delete, dup, free; MPI_Comm_set_info and
 * MPI_Comm_get_info; MPI_INFO_ENV.
 *
 * Every rank builds its own objects (their keys carry the rank):
 *   - setting a key again replaces its value in place: the keys keep the
 *     order of their first setting;
 *   - MPI_Info_get copies at most valuelen characters and a NUL, and says
 *     whether the key is there; MPI_Info_get_valuelen gives the length;
 *   - MPI_Info_delete removes a key; a key that is not there is
 *     MPI_ERR_INFO_NOKEY, one of MPI_MAX_INFO_KEY characters or more
 *     MPI_ERR_INFO_KEY (with MPI_ERRORS_RETURN);
 *   - MPI_Info_dup copies, and the copy changes alone;
 *   - MPI_Info_free sets the handle to MPI_INFO_NULL;
 *   - MPI_Comm_set_info accepts an object, MPI_Comm_get_info returns one
 *     that can be read and freed, MPI_INFO_ENV can be read.
 *
 * Ranks: any number >= 1.  Prints "PASS comm_info" on rank 0.
 */
#include "emutest.h"

static void get(emu_test *t, MPI_Info info, const char *key, int len,
		const char *want)
{
	char v[MPI_MAX_INFO_VAL + 1];
	int flag = -1;
	memset(v, 'x', sizeof v);
	MPI_Info_get(info, key, len, v, &flag);
	if (!want) {
		EMU_EQ(t, flag, 0, "MPI_Info_get(%s): flag", key);
		return;
	}
	EMU_EQ(t, flag, 1, "MPI_Info_get(%s): flag", key);
	EMU_TRUE(t, flag && !strcmp(v, want), "MPI_Info_get(%s, %d): got "
		 "\"%.20s\", want \"%s\"", key, len, v, want);
}

int main(int argc, char **argv)
{
	emu_test t;
	MPI_Info a, b, used;
	char key[MPI_MAX_INFO_KEY + 8], val[16];
	int n = -1, flag = 0, cls = 0;

	emu_init(&t, "comm_info", &argc, &argv);
	snprintf(val, sizeof val, "r%d", t.rank);
	MPI_Info_create(&a);
	MPI_Info_set(a, "first", "1");
	MPI_Info_set(a, "second", val);
	MPI_Info_set(a, "first", "one");
	MPI_Info_set(a, "third", "hello");
	MPI_Info_get_nkeys(a, &n);
	EMU_EQ(&t, n, 3, "keys after 4 sets of 3 keys");
	const char *order[] = { "first", "second", "third" };
	for (int i = 0; i < 3 && i < n; i++) {
		MPI_Info_get_nthkey(a, i, key);
		EMU_TRUE(&t, !strcmp(key, order[i]), "key %d: \"%s\", want "
			 "\"%s\"", i, key, order[i]);
	}
	get(&t, a, "first", MPI_MAX_INFO_VAL, "one");
	get(&t, a, "second", MPI_MAX_INFO_VAL, val);
	get(&t, a, "third", 3, "hel");
	get(&t, a, "fourth", MPI_MAX_INFO_VAL, NULL);
	MPI_Info_get_valuelen(a, "third", &n, &flag);
	EMU_TRUE(&t, flag && n == 5, "valuelen of third: %d (flag %d)", n,
		 flag);
	MPI_Info_get_valuelen(a, "fourth", &n, &flag);
	EMU_EQ(&t, flag, 0, "valuelen of a missing key: flag");

	MPI_Info_dup(a, &b);
	MPI_Info_set(b, "first", "changed");
	MPI_Info_delete(b, "second");
	get(&t, a, "first", MPI_MAX_INFO_VAL, "one");
	get(&t, a, "second", MPI_MAX_INFO_VAL, val);
	get(&t, b, "first", MPI_MAX_INFO_VAL, "changed");
	get(&t, b, "second", MPI_MAX_INFO_VAL, NULL);
	MPI_Info_get_nkeys(b, &n);
	EMU_EQ(&t, n, 2, "keys of the copy after a delete");

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Error_class(MPI_Info_delete(b, "second"), &cls);
	EMU_EQ(&t, cls, MPI_ERR_INFO_NOKEY, "deleting a missing key");
	memset(key, 'k', sizeof key);
	key[MPI_MAX_INFO_KEY] = 0;
	MPI_Error_class(MPI_Info_set(b, key, "v"), &cls);
	EMU_EQ(&t, cls, MPI_ERR_INFO_KEY, "a key of MPI_MAX_INFO_KEY "
	       "characters");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

	MPI_Comm_set_info(MPI_COMM_WORLD, a);
	MPI_Comm_get_info(MPI_COMM_WORLD, &used);
	EMU_EQ(&t, MPI_Info_get_nkeys(used, &n), MPI_SUCCESS,
	       "reading MPI_Comm_get_info's object");
	MPI_Info_free(&used);
	EMU_EQ(&t, MPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS,
	       "reading MPI_INFO_ENV");

	MPI_Info_free(&a);
	MPI_Info_free(&b);
	EMU_TRUE(&t, a == MPI_INFO_NULL && b == MPI_INFO_NULL,
		 "MPI_Info_free sets MPI_INFO_NULL");
	return emu_finish(&t);
}
