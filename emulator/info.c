/*
 * info.c -- MPI_Info objects: ordered (key, value) pairs of the program's
 * own.  Sibyl takes no hint from them: MPI_Comm_set_info accepts any (the
 * standard lets an implementation ignore hints) and MPI_Comm_get_info
 * returns an empty object.
 *
 * The objects of a process are in one table shared by its ranks (a
 * handle is valid in the rank that made it only, as in MPI; ranks do not
 * run at the same time).  Handle 0 is MPI_INFO_NULL, 1 MPI_INFO_ENV
 * (predefined, empty, not to be changed or freed), h >= 2 is info[h - 2].
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

typedef struct emu_info {
	int used;
	int n, cap;
	char **keys, **vals;
} emu_info;

static emu_info *infos;
static int ninfos;

/* The object behind handle h (writable: not MPI_INFO_ENV), or an error. */
static emu_info *info_get(emu_rank *r, const char *call, MPI_Info h,
			  int write)
{
	static emu_info env;    /* MPI_INFO_ENV: no key */
	if (h == MPI_INFO_ENV && !write)
		return &env;
	if (h == MPI_INFO_ENV)
		emu_mpi_error(r, call, MPI_ERR_INFO, "MPI_INFO_ENV is "
			      "predefined: it cannot be changed or freed");
	if (h < 2 || h - 2 >= ninfos || !infos[h - 2].used)
		emu_mpi_error(r, call, MPI_ERR_INFO, "%d is not an info "
			      "object%s", h, h == MPI_INFO_NULL ? " (it is "
			      "MPI_INFO_NULL)" : " (freed already?)");
	return &infos[h - 2];
}

static void check_key(emu_rank *r, const char *call, const char *key)
{
	if (!key)
		emu_mpi_error(r, call, MPI_ERR_INFO_KEY, "NULL key");
	size_t n = strlen(key);
	if (n == 0 || n > MPI_MAX_INFO_KEY - 1)
		emu_mpi_error(r, call, MPI_ERR_INFO_KEY, "the key \"%.40s%s\" "
			      "has %zu characters; a key has 1 to %d "
			      "(MPI_MAX_INFO_KEY - 1)", key, n > 40 ? "..." :
			      "", n, MPI_MAX_INFO_KEY - 1);
}

static int find(const emu_info *o, const char *key)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return i;
	return -1;
}

static MPI_Info info_new(emu_rank *r, const char *call)
{
	int i = 0;
	while (i < ninfos && infos[i].used)
		i++;
	if (i == ninfos) {
		int cap = ninfos ? 2 * ninfos : 16;
		emu_info *p = realloc(infos, (size_t)cap * sizeof *p);
		if (!p)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of memory "
				      "for info objects");
		memset(p + ninfos, 0, (size_t)(cap - ninfos) * sizeof *p);
		infos = p;
		ninfos = cap;
	}
	memset(&infos[i], 0, sizeof infos[i]);
	infos[i].used = 1;
	return i + 2;
}

/* Set key to value in o (copies of both). */
static void put(emu_rank *r, const char *call, emu_info *o, const char *key,
		const char *value)
{
	char *v = strdup(value);
	int i = find(o, key);
	if (v && i >= 0) {
		free(o->vals[i]);
		o->vals[i] = v;
		return;
	}
	if (v && o->n == o->cap) {
		int cap = o->cap ? 2 * o->cap : 4;
		char **k = realloc(o->keys, (size_t)cap * sizeof *k);
		if (k)
			o->keys = k;
		char **vs = k ? realloc(o->vals, (size_t)cap * sizeof *vs) :
			NULL;
		if (vs)
			o->vals = vs;
		if (!k || !vs) {
			free(v);
			v = NULL;
		} else {
			o->cap = cap;
		}
	}
	char *k = v ? strdup(key) : NULL;
	if (!k) {
		free(v);
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of memory for an "
			      "info key");
	}
	o->keys[o->n] = k;
	o->vals[o->n] = v;
	o->n++;
}

int MPI_Info_create(MPI_Info *info)
{
	EMU_API(r, "MPI_Info_create");
	*info = info_new(r, "MPI_Info_create");
	return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	const char *call = "MPI_Info_set";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, info, 1);
	check_key(r, call, key);
	if (!value)
		emu_mpi_error(r, call, MPI_ERR_INFO_VALUE, "NULL value");
	size_t n = strlen(value);
	if (n == 0 || n > MPI_MAX_INFO_VAL - 1)
		emu_mpi_error(r, call, MPI_ERR_INFO_VALUE, "the value of \"%s\" "
			      "has %zu characters; a value has 1 to %d "
			      "(MPI_MAX_INFO_VAL - 1)", key, n,
			      MPI_MAX_INFO_VAL - 1);
	put(r, call, o, key, value);
	return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
	const char *call = "MPI_Info_delete";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, info, 1);
	check_key(r, call, key);
	int i = find(o, key);
	if (i < 0)
		emu_mpi_error(r, call, MPI_ERR_INFO_NOKEY, "no key \"%s\" in "
			      "info object %d", key, info);
	free(o->keys[i]);
	free(o->vals[i]);
	memmove(o->keys + i, o->keys + i + 1,
		(size_t)(o->n - i - 1) * sizeof *o->keys);
	memmove(o->vals + i, o->vals + i + 1,
		(size_t)(o->n - i - 1) * sizeof *o->vals);
	o->n--;
	return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
		 int *flag)
{
	const char *call = "MPI_Info_get";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, info, 0);
	check_key(r, call, key);
	if (valuelen < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "negative valuelen %d",
			      valuelen);
	int i = find(o, key);
	*flag = i >= 0;
	if (i >= 0) {
		/* At most valuelen characters, and the terminating NUL. */
		size_t n = strlen(o->vals[i]);
		if (n > (size_t)valuelen)
			n = (size_t)valuelen;
		memcpy(value, o->vals[i], n);
		value[n] = 0;
	}
	return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
			  int *flag)
{
	const char *call = "MPI_Info_get_valuelen";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, info, 0);
	check_key(r, call, key);
	int i = find(o, key);
	*flag = i >= 0;
	if (i >= 0)
		*valuelen = (int)strlen(o->vals[i]);
	return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	EMU_API(r, "MPI_Info_get_nkeys");
	*nkeys = info_get(r, "MPI_Info_get_nkeys", info, 0)->n;
	return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	const char *call = "MPI_Info_get_nthkey";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, info, 0);
	if (n < 0 || n >= o->n)
		emu_mpi_error(r, call, MPI_ERR_ARG, "key number %d of an info "
			      "object with %d key%s", n, o->n,
			      o->n == 1 ? "" : "s");
	strcpy(key, o->keys[n]);
	return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	const char *call = "MPI_Info_dup";
	EMU_API(r, call);
	info_get(r, call, info, 0);
	MPI_Info h = info_new(r, call);
	/* The table may have moved: look the original up again. */
	emu_info *o = info_get(r, call, info, 0), *d = &infos[h - 2];
	for (int i = 0; i < o->n; i++)
		put(r, call, d, o->keys[i], o->vals[i]);
	*newinfo = h;
	return MPI_SUCCESS;
}

int MPI_Info_free(MPI_Info *info)
{
	const char *call = "MPI_Info_free";
	EMU_API(r, call);
	emu_info *o = info_get(r, call, *info, 1);
	for (int i = 0; i < o->n; i++) {
		free(o->keys[i]);
		free(o->vals[i]);
	}
	free(o->keys);
	free(o->vals);
	memset(o, 0, sizeof *o);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}

/* Hints: Sibyl uses none. */
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	EMU_API(r, "MPI_Comm_set_info");
	emu_comm_get(r, comm, "MPI_Comm_set_info");
	info_get(r, "MPI_Comm_set_info", info, 0);
	return MPI_SUCCESS;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	EMU_API(r, "MPI_Comm_get_info");
	emu_comm_get(r, comm, "MPI_Comm_get_info");
	*info_used = info_new(r, "MPI_Comm_get_info");
	return MPI_SUCCESS;
}

void emu_info_fini(void)
{
	for (int i = 0; i < ninfos; i++) {
		for (int k = 0; k < infos[i].n; k++) {
			free(infos[i].keys[k]);
			free(infos[i].vals[k]);
		}
		free(infos[i].keys);
		free(infos[i].vals);
	}
	free(infos);
	infos = NULL;
	ninfos = 0;
}
