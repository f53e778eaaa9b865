/*
 * fsim_config.c -- the machine description: config files of `key = value'
 * sections, --set overrides, and the validation that turns raw text into
 * sib_values through base's value parser (sib_parse_value).
 *
 * Loading only checks the syntax and records every key as raw text with
 * where it came from; fsim_config_resolve() checks names and values all at
 * once.  That order matters because the keys allowed in [net] depend on
 * net.model, which may be set by a later file or by --set.
 *
 * The file format is documented for users in docs/machine.md.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hwloc.h>

#include "fsim.h"
#include "fsim_schema.h"
#include "sib_text.h"
#include "sib_units.h"

#define CFG_MAGIC 0x73636667u /* "scfg" */
#define CFG_MAX_CORES 1048576

/* A broken promise of the caller (NULL or freed handle) stops the program:
 * continuing would corrupt the run silently. */
#define CFG_CHECK(c) do { if (!(c) || (c)->magic != CFG_MAGIC) { \
	fprintf(stderr, "fastsim: internal error at %s:%d: %s called with " \
		"an invalid configuration handle\n", __FILE__, __LINE__, \
		__func__); abort(); } } while (0)

/* ------------------------------------------------------------ handle */

/* One key as given, or (key == NULL) a section header, which is kept only
 * so that resolve can reject an unknown section even when it is empty. */
typedef struct cfg_entry {
	char *section;
	char *key;
	char *value;
	char *origin;   /* "file.conf:12" or "--set" */
	char *file;     /* the file it came from; NULL for --set */
} cfg_entry;

/* The resolved keys of one section, parallel to its params table. */
typedef struct cfg_values {
	sib_value *v;
	const cfg_entry **from; /* NULL for a default */
	size_t n;
} cfg_values;

struct fsim_config {
	unsigned magic;
	cfg_entry *ent;
	size_t nent, cap;
	size_t *slot, nslot;         /* the index of ent (entry_list) */

	int resolved;
	cfg_values sec[NSECTIONS];   /* [net] holds only net.model */
	const netm_ops *model;
	cfg_values mod;              /* the model's parameters */
	char *map_path;              /* machine.map as it will be opened */
	char *noise_path;            /* noise.dir as it will be opened */
	char *var_paths[2];          /* variability.profile, .spatial_file */
	int cores_from_topology;
};

static size_t nparams(const sib_param *p)
{
	size_t n = 0;
	while (p && p[n].key)
		n++;
	return n;
}

static void entry_free(cfg_entry *e)
{
	free(e->section);
	free(e->key);
	free(e->value);
	free(e->origin);
	free(e->file);
}

static void values_free(cfg_values *cv)
{
	free(cv->v);
	free(cv->from);
	cv->v = NULL;
	cv->from = NULL;
	cv->n = 0;
}

static void unresolve(fsim_config *c)
{
	for (int s = 0; s < NSECTIONS; s++)
		values_free(&c->sec[s]);
	values_free(&c->mod);
	free(c->map_path);
	c->map_path = NULL;
	free(c->noise_path);
	c->noise_path = NULL;
	for (int i = 0; i < 2; i++) {
		free(c->var_paths[i]);
		c->var_paths[i] = NULL;
	}
	c->model = NULL;
	c->cores_from_topology = 0;
	c->resolved = 0;
}

int fsim_config_new(fsim_config **cp)
{
	fsim_config *c = calloc(1, sizeof *c);
	if (!c)
		return -1;
	c->magic = CFG_MAGIC;
	*cp = c;
	return 0;
}

void fsim_config_free(fsim_config *c)
{
	if (!c)
		return;
	CFG_CHECK(c);
	unresolve(c);
	for (size_t i = 0; i < c->nent; i++)
		entry_free(&c->ent[i]);
	free(c->ent);
	free(c->slot);
	c->magic = 0;
	free(c);
}

int fsim_parse_value(const sib_param *p, const char *text, sib_value *v,
		     char *err, size_t errlen)
{
	return sib_parse_value(p, NULL, text, v, err, errlen);
}

/* ----------------------------------------------------------- loading */

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}


static int is_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       is_digit(ch) || ch == '_' || ch == '-';
}

static const char *trim(char *s)
{
	while (sib_is_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && sib_is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* A list of entries being built, merged into the handle only when the
 * whole file (or --set) is valid.  slot indexes the entries by name
 * (section and key), so that adding one costs the same whatever the
 * length of the list: open addressing, entry index + 1 per slot, 0 for
 * an empty slot, at most half full. */
typedef struct entry_list {
	cfg_entry *ent;
	size_t n, cap;
	size_t *slot, nslot;
} entry_list;

/* FNV-1a of the section, a separator no name holds, and the key (a
 * section header has none). */
static size_t entry_hash(const cfg_entry *e)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (const char *p = e->section; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
	h = (h ^ (e->key ? 0x2e : 0x5b)) * UINT64_C(1099511628211);
	for (const char *p = e->key ? e->key : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
	return (size_t)(h ^ (h >> 29));
}

static int same_name(const cfg_entry *a, const cfg_entry *b)
{
	if (strcmp(a->section, b->section) != 0)
		return 0;
	return a->key && b->key ? strcmp(a->key, b->key) == 0 :
	       !a->key && !b->key;
}

/* The slot of e's name: the one holding it, or the empty one for it. */
static size_t *index_find(const entry_list *l, const cfg_entry *e)
{
	size_t mask = l->nslot - 1, i = entry_hash(e) & mask;
	while (l->slot[i] && !same_name(&l->ent[l->slot[i] - 1], e))
		i = (i + 1) & mask;
	return &l->slot[i];
}

/* Room in the index for one more entry. */
static int index_reserve(entry_list *l)
{
	size_t ns = l->nslot ? l->nslot : 32;
	while (ns < 2 * (l->n + 1))
		ns *= 2;
	if (ns == l->nslot)
		return 0;
	size_t *slot = calloc(ns, sizeof *slot);
	if (!slot)
		return -1;
	free(l->slot);
	l->slot = slot;
	l->nslot = ns;
	for (size_t i = 0; i < l->n; i++)
		*index_find(l, &l->ent[i]) = i + 1;
	return 0;
}

/* Add (or, for a key seen before, replace: the later one wins). */
static int list_put(entry_list *l, cfg_entry *e)
{
	if (index_reserve(l)) {
		entry_free(e);
		return -1;
	}
	size_t *slot = index_find(l, e);
	if (*slot) {
		cfg_entry *o = &l->ent[*slot - 1];
		/* A repeated header adds nothing; a file never replaces a
		 * --set value, so --set wins whatever the order of the
		 * options. */
		if (!o->key || (!o->file && e->file)) {
			entry_free(e);
			return 0;
		}
		entry_free(o);
		*o = *e;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		cfg_entry *p = realloc(l->ent, cap * sizeof *p);
		if (!p) {
			entry_free(e);
			return -1;
		}
		l->ent = p;
		l->cap = cap;
	}
	l->ent[l->n++] = *e;
	*slot = l->n;
	return 0;
}

static int make_entry(cfg_entry *e, const char *section, const char *key,
		      const char *value, const char *origin, const char *file)
{
	memset(e, 0, sizeof *e);
	e->section = strdup(section);
	e->key = key ? strdup(key) : NULL;
	e->value = value ? strdup(value) : NULL;
	e->origin = strdup(origin);
	e->file = file ? strdup(file) : NULL;
	if (!e->section || (key && !e->key) || (value && !e->value) ||
	    !e->origin || (file && !e->file)) {
		entry_free(e);
		return -1;
	}
	return 0;
}

static int merge(fsim_config *c, entry_list *l)
{
	entry_list all = { c->ent, c->nent, c->cap, c->slot, c->nslot };
	size_t i;
	int rc = 0;

	for (i = 0; i < l->n; i++)
		if (list_put(&all, &l->ent[i])) {
			rc = -1;
			i++;
			break;
		}
	for (; i < l->n; i++)
		entry_free(&l->ent[i]);
	free(l->ent);
	free(l->slot);
	memset(l, 0, sizeof *l);
	c->ent = all.ent;
	c->nent = all.n;
	c->cap = all.cap;
	c->slot = all.slot;
	c->nslot = all.nslot;
	unresolve(c);
	return rc;
}

static void list_free(entry_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		entry_free(&l->ent[i]);
	free(l->ent);
	free(l->slot);
}

/* Parse one line (already stripped of its newline) into l. */
static int load_line(entry_list *l, char **section, char *line,
		     const char *path, unsigned lineno, char *err,
		     size_t errlen)
{
	char origin[4200];
	char *s = line, *value = NULL;
	cfg_entry e;

	snprintf(origin, sizeof origin, "%s:%u", path, lineno);
	while (sib_is_space(*s))
		s++;
	if (!*s || *s == '#')
		return 0;

	if (*s == '[') {
		char *close = strchr(s, ']');
		char *rest = close ? close + 1 : NULL;
		while (rest && sib_is_space(*rest))
			rest++;
		if (!close || (*rest && *rest != '#'))
			return sib_errf(err, errlen, "%s: malformed section "
				    "header '%s'; write it as [name], e.g. "
				    "[machine]", origin, trim(s));
		*close = '\0';
		const char *name = trim(s + 1);
		for (const char *p = name; *p; p++)
			if (!is_name_char(*p))
				name = "";
		if (!*name)
			return sib_errf(err, errlen, "%s: malformed section "
				    "header; a section name is made of "
				    "letters, digits, '_' and '-', e.g. "
				    "[machine]", origin);
		free(*section);
		if (!(*section = strdup(name)) ||
		    make_entry(&e, name, NULL, NULL, origin, path) ||
		    list_put(l, &e))
			return sib_errf(err, errlen, "%s: out of memory", origin);
		return 0;
	}

	char *k = s;
	while (is_name_char(*s))
		s++;
	size_t klen = (size_t)(s - k);
	while (sib_is_space(*s))
		s++;
	if (*s == '.' && klen)
		return sib_errf(err, errlen, "%s: '%.*s.': in a file a key is "
			    "written without its section, under the "
			    "[section] header, e.g. [net] then latency = "
			    "1us", origin, (int)klen, k);
	if (!klen || *s != '=')
		return sib_errf(err, errlen, "%s: expected 'key = value', a "
			    "[section] header or a # comment, found '%s'",
			    origin, trim(k));
	k[klen] = '\0';
	if (!*section)
		return sib_errf(err, errlen, "%s: key '%s' comes before any "
			    "[section] header; put it under its section, "
			    "e.g. [machine]", origin, k);
	s++;
	while (sib_is_space(*s))
		s++;
	if (*s == '"') {
		const char *end;
		if (!(value = sib_unquote(s + 1, &end)))
			return sib_errf(err, errlen, "%s: out of memory", origin);
		if (!end) {
			free(value);
			return sib_errf(err, errlen, "%s: the quoted value of '%s' "
				    "has no closing quote", origin, k);
		}
		while (sib_is_space(*end))
			end++;
		if (*end && *end != '#') {
			free(value);
			return sib_errf(err, errlen, "%s: unexpected text '%s' "
				    "after the quoted value of '%s'; put "
				    "everything inside the quotes", origin,
				    end, k);
		}
	} else {
		/* A comment starts at a '#' preceded by white space, so
		 * that "a#b" stays a value. */
		char *p = s;
		for (; *p; p++)
			if (*p == '#' && (p == s || sib_is_space(p[-1])))
				break;
		*p = '\0';
		if (!(value = strdup(trim(s))))
			return sib_errf(err, errlen, "%s: out of memory", origin);
	}
	int rc = make_entry(&e, *section, k, value, origin, path);
	free(value);
	if (rc || list_put(l, &e))
		return sib_errf(err, errlen, "%s: out of memory", origin);
	return 0;
}

int fsim_config_load(fsim_config *c, const char *path, char *err,
		     size_t errlen)
{
	static const sib_lines_limits lim = {
		.what = "configuration file",
		.open_hint = "check the path",
		.max_line = FSIM_CONFIG_MAX_LINE,
		.max_bytes = FSIM_CONFIG_MAX_BYTES,
	};
	entry_list l = { 0 };
	char *line, *section = NULL;
	size_t len;
	sib_lines *f;
	int rc = -1, got;

	CFG_CHECK(c);
	if (sib_lines_open(&f, path, &lim, err, errlen))
		return -1;
	while ((got = sib_lines_next(f, &line, &len, err, errlen)) > 0) {
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (load_line(&l, &section, line, path,
			      (unsigned)sib_lines_lineno(f), err, errlen))
			goto out_with_list;
	}
	if (got < 0)
		goto out_with_list;
	if (merge(c, &l)) {
		sib_errf(err, errlen, "out of memory loading %s", path);
		goto out_with_file;
	}
	rc = 0;
	goto out_with_file;

out_with_list:
	list_free(&l);
out_with_file:
	free(section);
	sib_lines_close(f);
	return rc;
}

int fsim_config_set(fsim_config *c, const char *assignment, char *err,
		    size_t errlen)
{
	entry_list l = { 0 };
	cfg_entry e;
	char *buf, *value;
	const char *eq;

	CFG_CHECK(c);
	if (!assignment || !(eq = strchr(assignment, '=')))
		return sib_errf(err, errlen, "--set '%s': expected "
			    "section.key=value, e.g. machine.nodes=4",
			    assignment ? assignment : "");
	if (!(buf = strdup(assignment)))
		return sib_errf(err, errlen, "--set: out of memory");
	buf[eq - assignment] = '\0';
	char *name = (char *)trim(buf);
	char *dot = strchr(name, '.');
	value = (char *)trim(buf + (eq - assignment) + 1);
	int ok = dot && dot > name && dot[1];
	for (char *p = name; ok && *p; p++)
		if (p != dot && !is_name_char(*p))
			ok = 0;
	if (!ok) {
		sib_errf(err, errlen, "--set '%s': expected section.key=value, "
		     "e.g. machine.nodes=4 or net.latency=1us", assignment);
		goto out_with_buf;
	}
	*dot = '\0';
	for (const char *p = value; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t') {
			sib_errf(err, errlen, "--set '%s': the value contains a "
			     "control character", assignment);
			goto out_with_buf;
		}
	/* Quotes are optional here (the shell has split the words already)
	 * but accepted, so that a value reads the same as in a file. */
	size_t vlen = strlen(value);
	if (vlen >= 2 && value[0] == '"' && value[vlen - 1] == '"') {
		const char *end;
		value[vlen - 1] = '\0';
		char *uq = sib_unquote(value + 1, &end);
		if (!uq) {
			sib_errf(err, errlen, "--set: out of memory");
			goto out_with_buf;
		}
		if (end) {
			free(uq);
			sib_errf(err, errlen, "--set '%s': a quote inside a quoted "
			     "value must be written \\\"", assignment);
			goto out_with_buf;
		}
		int rc = make_entry(&e, name, dot + 1, uq, "--set", NULL);
		free(uq);
		if (rc)
			goto out_of_memory;
	} else if (make_entry(&e, name, dot + 1, value, "--set", NULL)) {
		goto out_of_memory;
	}
	if (list_put(&l, &e) || merge(c, &l))
		goto out_of_memory;
	free(buf);
	return 0;

out_of_memory:
	sib_errf(err, errlen, "--set: out of memory");
	list_free(&l);
out_with_buf:
	free(buf);
	return -1;
}

/* ----------------------------------------------------- "did you mean" */

typedef struct suggest {
	const char *typed;
	char best[128];
	size_t dist;
} suggest;

/* The part of "section.key" a typo is measured against: the key, or the
 * whole name when it has no section. */
static size_t key_len(const char *name)
{
	const char *dot = strchr(name, '.');
	return strlen(dot ? dot + 1 : name);
}

static void suggest_try(suggest *sg, const char *section, const char *key)
{
	char cand[128];
	if (key)
		snprintf(cand, sizeof cand, "%s.%s", section, key);
	else
		snprintf(cand, sizeof cand, "%s", section);
	size_t d = sib_edit_distance(sg->typed, cand);
	size_t lt = key_len(sg->typed), lc = key_len(cand);
	size_t max = lt / 3 > 2 ? lt / 3 : 2;
	/* Only a near miss is worth suggesting: two edits (a third of the
	 * name for long names), and never more than half of it, so that
	 * "net.foo" does not become "net.o". */
	if (d <= max && 2 * d <= (lt > lc ? lt : lc) && d < sg->dist) {
		sg->dist = d;
		snprintf(sg->best, sizeof sg->best, "%s", cand);
	}
}

static void suggest_key(suggest *sg, const netm_ops *model)
{
	for (int s = 0; s < NSECTIONS; s++)
		for (const sib_param *p = fsim_cfg_sections[s].params; p->key; p++)
			suggest_try(sg, fsim_cfg_sections[s].name, p->key);
	for (const sib_param *p = model ? model->params : NULL; p && p->key;
	     p++)
		suggest_try(sg, "net", p->key);
}

static int find_section(const char *name)
{
	for (int s = 0; s < NSECTIONS; s++)
		if (strcmp(fsim_cfg_sections[s].name, name) == 0)
			return s;
	return -1;
}

static void list_sections(char *err, size_t errlen)
{
	sib_errcat(err, errlen, "; the sections are");
	for (int s = 0; s < NSECTIONS; s++)
		sib_errcat(err, errlen, "%s [%s]", s ? "," : "", fsim_cfg_sections[s].name);
}

static int unknown_section(const cfg_entry *e, char *err, size_t errlen)
{
	suggest sg = { e->section, "", SIZE_MAX };
	for (int s = 0; s < NSECTIONS; s++)
		suggest_try(&sg, fsim_cfg_sections[s].name, NULL);
	sib_errf(err, errlen, "%s: unknown section '[%s]'", e->origin, e->section);
	if (sg.best[0])
		sib_errcat(err, errlen, " (did you mean '[%s]'?)", sg.best);
	else
		list_sections(err, errlen);
	return -1;
}

static int unknown_key(const cfg_entry *e, int s, const netm_ops *model,
		       char *err, size_t errlen)
{
	char typed[256];
	snprintf(typed, sizeof typed, "%s.%s", e->section, e->key);
	suggest sg = { typed, "", SIZE_MAX };
	suggest_key(&sg, model);

	sib_errf(err, errlen, "%s: unknown key '%s'", e->origin, typed);
	if (sg.best[0]) {
		sib_errcat(err, errlen, " (did you mean '%s'?)", sg.best);
		return -1;
	}
	if (s < 0) {
		list_sections(err, errlen);
		return -1;
	}
	/* A parameter of another model: say how to select that model. */
	if (s == S_NET) {
		int other = 0;
		for (size_t m = 0; netm_registry[m]; m++) {
			const netm_ops *o = netm_registry[m];
			if (o == model)
				continue;
			for (const sib_param *p = o->params; p && p->key; p++)
				if (strcmp(p->key, e->key) == 0) {
					sib_errcat(err, errlen, "%s%s",
					       other++ ? ", " :
					       "; it is a parameter of "
					       "net.model = ", o->name);
					break;
				}
		}
		if (other)
			sib_errcat(err, errlen, ", not of the selected model "
			       "'%s'", model->name);
	}
	sib_errcat(err, errlen, "; the keys of [%s] are", e->section);
	int first = 1;
	for (const sib_param *p = fsim_cfg_sections[s].params; p->key; p++, first = 0)
		sib_errcat(err, errlen, "%s %s", first ? "" : ",", p->key);
	if (s == S_NET)
		for (const sib_param *p = model->params; p && p->key; p++)
			sib_errcat(err, errlen, ", %s", p->key);
	return -1;
}

/* ---------------------------------------------------------- resolving */

/* The entry of a key.  There is at most one: list_put() keeps the one
 * that decides (the last --set, else the last from a file). */
static const cfg_entry *find_entry(const fsim_config *c, const char *section,
				   const char *key)
{
	for (size_t i = 0; i < c->nent; i++)
		if (c->ent[i].key && strcmp(c->ent[i].section, section) == 0 &&
		    strcmp(c->ent[i].key, key) == 0)
			return &c->ent[i];
	return NULL;
}

static int values_init(cfg_values *cv, const sib_param *params,
		       const char *section, char *err, size_t errlen)
{
	cv->n = nparams(params);
	cv->v = calloc(cv->n + 1, sizeof *cv->v);
	cv->from = calloc(cv->n + 1, sizeof *cv->from);
	if (!cv->v || !cv->from)
		return sib_errf(err, errlen, "out of memory resolving the "
			    "configuration");
	for (size_t i = 0; i < cv->n; i++) {
		char name[256];
		snprintf(name, sizeof name, "%s.%s", section, params[i].key);
		/* net.model is checked against the registry instead. */
		if (params == fsim_cfg_sections[S_NET].params)
			break;
		if (sib_parse_value(&params[i], name, params[i].def, &cv->v[i],
				err, errlen)) {
			sib_errcat(err, errlen, " (internal error: the default "
			       "of %s does not parse; report this bug)", name);
			return -1;
		}
	}
	return 0;
}

static int set_value(cfg_values *cv, const sib_param *params, size_t i,
		     const cfg_entry *e, char *err, size_t errlen)
{
	char name[256], msg[1024];
	snprintf(name, sizeof name, "%s.%s", e->section, e->key);
	if (sib_parse_value(&params[i], name, e->value, &cv->v[i], msg,
			sizeof msg))
		return sib_errf(err, errlen, "%s: %s", e->origin, msg);
	cv->v[i].set = 1;
	cv->from[i] = e;
	return 0;
}

static int select_model(fsim_config *c, char *err, size_t errlen)
{
	const cfg_entry *e = find_entry(c, "net", "model");
	const netm_ops *m;

	if (!e) {
		/* "simple" when it is built in, otherwise the first model. */
		if (!(m = netm_find(CFG_DEFAULT_MODEL)))
			m = netm_registry[0];
		if (!m)
			return sib_errf(err, errlen, "no network model is built "
				    "into this program; rebuild Sibyl with "
				    "netmodels/");
	} else if (!(m = netm_find(e->value))) {
		suggest sg = { e->value, "", SIZE_MAX };
		sib_errf(err, errlen, "%s: net.model: '%s' is not one of:",
		     e->origin, e->value);
		for (size_t i = 0; netm_registry[i]; i++) {
			sib_errcat(err, errlen, "%s %s", i ? "," : "",
			       netm_registry[i]->name);
			suggest_try(&sg, netm_registry[i]->name, NULL);
		}
		if (sg.best[0])
			sib_errcat(err, errlen, " (did you mean '%s'?)", sg.best);
		return -1;
	}
	c->model = m;
	c->sec[S_NET].v[0].i = 0;
	for (size_t i = 0; netm_registry[i] && netm_registry[i] != m; i++)
		c->sec[S_NET].v[0].i++;
	c->sec[S_NET].v[0].s = m->name;
	c->sec[S_NET].v[0].den = 1;
	c->sec[S_NET].v[0].set = e != NULL;
	c->sec[S_NET].from[0] = e;
	return 0;
}

/*
 * The number of PUs of a synthetic topology that hwloc accepted: the
 * product of the arities of its levels.  hwloc's grammar: an optional
 * "(attributes)" of the root, then levels separated by spaces, each
 * "[memory children]" (no PUs) or "[TYPE:]ARITY" with ARITY as strtoul
 * base 0 reads it, optionally followed by "(attributes)".  Counted here
 * rather than by loading the topology: hwloc builds every object, which
 * takes minutes and gigabytes for tens of thousands of PUs.  The product
 * saturates above max.  -1 when the text does not follow that grammar.
 */
static int synthetic_pus(const char *s, uint64_t max, uint64_t *pus)
{
	uint64_t n = 1;
	int levels = 0;

	while (*s == ' ')
		s++;
	if (*s == '(' && !(s = strchr(s, ')')))
		return -1;
	if (*s == ')')
		s++;
	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (*s == '[') {
			if (!(s = strchr(s, ']')))
				return -1;
			s++;
			continue;
		}
		if (!is_digit(*s)) {
			const char *colon = strchr(s, ':');
			const char *space = strchr(s, ' ');
			if (!colon || (space && space < colon))
				return -1;
			s = colon + 1;
		}
		if (!is_digit(*s))
			return -1;
		char *end;
		errno = 0;
		unsigned long long a = strtoull(s, &end, 0);
		if (end == s || errno || a == 0)
			return -1;
		n = a > max || n > max / a ? max + 1 : n * a;
		levels++;
		s = end;
		if (*s == '(' && !(s = strchr(s, ')')))
			return -1;
		if (*s == ')')
			s++;
		if (*s && *s != ' ')
			return -1;
	}
	if (!levels)
		return -1;
	*pus = n;
	return 0;
}

/* Number of PUs of an hwloc synthetic topology, checked by hwloc (its
 * parser only: nothing is built). */
static int topology_pus(const char *desc, const char *origin, uint64_t *pus,
			char *err, size_t errlen)
{
	hwloc_topology_t t;
	int bad = synthetic_pus(desc, CFG_MAX_CORES, pus);

	/* Only what follows the grammar goes to hwloc, which leaks memory
	 * on some malformed strings. */
	if (!bad) {
		if (hwloc_topology_init(&t))
			return sib_errf(err, errlen, "%s: machine.topology: "
				    "hwloc cannot create a topology: %s",
				    origin, strerror(errno));
		bad = hwloc_topology_set_synthetic(t, desc);
		hwloc_topology_destroy(t);
	}
	if (bad)
		return sib_errf(err, errlen, "%s: machine.topology: '%s' is not "
			    "a valid hwloc synthetic topology; write levels "
			    "as TYPE:COUNT from the outside in, ending with "
			    "the pu level, e.g. \"package:2 core:16 pu:1\" "
			    "(see 'Synthetic topologies' in the hwloc "
			    "documentation)", origin, desc);
	return 0;
}

/* A path value given in a file, taken relative to that file's directory
 * (*path: the result, which v->s then points to). */
static int resolve_path(sib_value *v, const cfg_entry *from, char **path)
{
	if (!v->s || !v->s[0])
		return 0;
	const char *slash = from && from->file ? strrchr(from->file, '/') :
			    NULL;
	if (v->s[0] != '/' && slash) {
		size_t dl = (size_t)(slash - from->file) + 1;
		*path = malloc(dl + strlen(v->s) + 1);
		if (*path) {
			memcpy(*path, from->file, dl);
			strcpy(*path + dl, v->s);
		}
	} else {
		*path = strdup(v->s);
	}
	if (!*path)
		return -1;
	v->s = *path;
	return 0;
}

/* Cross-key checks, once every value parsed. */
static int check_machine(fsim_config *c, char *err, size_t errlen)
{
	cfg_values *m = &c->sec[S_MACHINE];
	sib_value *topo = &m->v[M_TOPOLOGY], *cores = &m->v[M_CORES];

	if (topo->s && topo->s[0]) {
		const char *origin = m->from[M_TOPOLOGY]->origin;
		uint64_t pus = 0;
		if (topology_pus(topo->s, origin, &pus, err, errlen))
			return -1;
		if (pus > CFG_MAX_CORES)
			return sib_errf(err, errlen, "%s: machine.topology: '%s' "
				    "has more than %d PUs, the most cores per "
				    "node supported; describe a smaller node",
				    origin, topo->s, CFG_MAX_CORES);
		if (cores->set && (uint64_t)cores->i != pus)
			return sib_errf(err, errlen, "%s: machine.cores_per_node "
				    "= %lld disagrees with machine.topology "
				    "'%s' (%s), which has %llu PUs; drop one "
				    "of the two keys", m->from[M_CORES]->origin,
				    (long long)cores->i, topo->s, origin,
				    (unsigned long long)pus);
		cores->i = (int64_t)pus;
		c->cores_from_topology = !cores->set;
	}

	/* A map (or a noise set) named in a file is found next to that
	 * file, so that a machine description and its map travel together. */
	cfg_values *var = &c->sec[S_VARIABILITY];
	if (resolve_path(&m->v[M_MAP], m->from[M_MAP], &c->map_path) ||
	    resolve_path(&c->sec[S_NOISE].v[N_DIR],
			 c->sec[S_NOISE].from[N_DIR], &c->noise_path) ||
	    resolve_path(&var->v[V_PROFILE], var->from[V_PROFILE],
			 &c->var_paths[0]) ||
	    resolve_path(&var->v[V_SPATIAL_FILE], var->from[V_SPATIAL_FILE],
			 &c->var_paths[1]))
		return sib_errf(err, errlen, "out of memory resolving "
			    "machine.map, noise.dir or the variability "
			    "files");

	sib_value *f = &c->sec[S_CPU].v[0];
	const cfg_entry *fe = c->sec[S_CPU].from[0];
	if (f->num <= 0)
		return sib_errf(err, errlen, "%s: cpu.factor must be greater than "
			    "0 (a factor of 0 would make every computation "
			    "free); write e.g. 0.5 for a CPU twice as fast",
			    fe ? fe->origin : "default");
	return 0;
}

/* Parse replace.rules now, so that a bad rule is reported with the file
 * and line it came from. */
static int check_rules(fsim_config *c, char *err, size_t errlen)
{
	const sib_value *v = &c->sec[S_REPLACE].v[0];
	fsim_rules *r;
	int rc;

	if (!v->s || !v->s[0])
		return 0;
	if (fsim_rules_new(&r))
		return sib_errf(err, errlen, "out of memory checking "
			    "replace.rules");
	rc = fsim_rules_add(r, v->s, c->sec[S_REPLACE].from[0]->origin, err,
			    errlen);
	fsim_rules_free(r);
	return rc;
}

int fsim_config_resolve(fsim_config *c, char *err, size_t errlen)
{
	CFG_CHECK(c);
	unresolve(c);
	for (int s = 0; s < NSECTIONS; s++)
		if (values_init(&c->sec[s], fsim_cfg_sections[s].params,
				fsim_cfg_sections[s].name, err, errlen))
			goto out_unresolved;
	if (select_model(c, err, errlen))
		goto out_unresolved;
	if (values_init(&c->mod, c->model->params, "net", err, errlen))
		goto out_unresolved;

	for (size_t i = 0; i < c->nent; i++) {
		const cfg_entry *e = &c->ent[i];
		int s = find_section(e->section);
		size_t k;

		if (!e->key) {
			if (s < 0) {
				unknown_section(e, err, errlen);
				goto out_unresolved;
			}
			continue;
		}
		if (s == S_NET && strcmp(e->key, "model") == 0)
			continue;
		if (s >= 0) {
			const sib_param *p = fsim_cfg_sections[s].params;
			for (k = 0; p[k].key; k++)
				if (strcmp(p[k].key, e->key) == 0)
					break;
			if (p[k].key) {
				if (set_value(&c->sec[s], p, k, e, err,
					      errlen))
					goto out_unresolved;
				continue;
			}
			if (s == S_NET) {
				p = c->model->params;
				for (k = 0; p && p[k].key; k++)
					if (strcmp(p[k].key, e->key) == 0)
						break;
				if (p && p[k].key) {
					if (set_value(&c->mod, p, k, e, err,
						      errlen))
						goto out_unresolved;
					continue;
				}
			}
		}
		unknown_key(e, s, c->model, err, errlen);
		goto out_unresolved;
	}
	if (check_machine(c, err, errlen) || check_rules(c, err, errlen))
		goto out_unresolved;
	c->resolved = 1;
	return 0;

out_unresolved:
	unresolve(c);
	return -1;
}

/* ----------------------------------------------------------- getters */

const sib_value *fsim_config_get(const fsim_config *c, const char *section,
				  const char *key)
{
	CFG_CHECK(c);
	if (!c->resolved || !section || !key)
		return NULL;
	int s = find_section(section);
	if (s < 0)
		return NULL;
	for (size_t k = 0; fsim_cfg_sections[s].params[k].key; k++)
		if (strcmp(fsim_cfg_sections[s].params[k].key, key) == 0)
			return &c->sec[s].v[k];
	if (s == S_NET)
		for (size_t k = 0; k < c->mod.n; k++)
			if (strcmp(c->model->params[k].key, key) == 0)
				return &c->mod.v[k];
	return NULL;
}

const char *fsim_config_origin(const fsim_config *c, const char *section,
			       const char *key)
{
	CFG_CHECK(c);
	int s = c->resolved && section && key ? find_section(section) : -1;
	if (s < 0)
		return NULL;
	for (size_t k = 0; fsim_cfg_sections[s].params[k].key; k++)
		if (strcmp(fsim_cfg_sections[s].params[k].key, key) == 0)
			return c->sec[s].from[k] ? c->sec[s].from[k]->origin :
			       NULL;
	return NULL;
}

const netm_ops *fsim_config_model(const fsim_config *c)
{
	CFG_CHECK(c);
	return c->resolved ? c->model : NULL;
}

const sib_value *fsim_config_model_values(const fsim_config *c)
{
	CFG_CHECK(c);
	return c->resolved ? c->mod.v : NULL;
}

/* ----------------------------------------------------------- writing */

/* A value as the file syntax reads it back: quoted when it is empty or
 * holds white space, '#', or quotes. */
void fsim_cfg_write_value(FILE *f, const char *s)
{
	if (!s)
		s = "";
	int quote = !*s || strchr(s, '"') || strchr(s, '#');
	for (const char *p = s; *p && !quote; p++)
		quote = sib_is_space(*p);
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* Write the keys of params; a header first unless name is NULL (the
 * model's keys continue [net]). */
static void write_section(FILE *f, const char *name, const sib_param *p,
			  const cfg_values *cv, const fsim_config *c)
{
	if (name)
		fprintf(f, "\n[%s]\n", name);
	for (size_t k = 0; p && p[k].key; k++) {
		const cfg_entry *e = cv->from[k];
		const char *note = e ? NULL : "  # default";
		const char *text = e ? e->value : p[k].def;
		char num[32];
		char *real = NULL;

		if (cv == &c->sec[S_NET]) {
			text = c->model->name;
		} else if (cv == &c->sec[S_MACHINE] && k == M_CORES &&
			   c->cores_from_topology) {
			snprintf(num, sizeof num, "%lld",
				 (long long)cv->v[k].i);
			text = num;
			note = "  # from machine.topology";
		} else if (cv == &c->sec[S_MACHINE] && k == M_MAP && e) {
			/* An absolute path reads the same from wherever the
			 * written file ends up. */
			real = realpath(c->map_path, NULL);
			text = real ? real : c->map_path;
		} else if (cv == &c->sec[S_NOISE] && k == N_DIR && e) {
			real = realpath(c->noise_path, NULL);
			text = real ? real : c->noise_path;
		} else if (cv == &c->sec[S_VARIABILITY] && e &&
			   (k == V_PROFILE || k == V_SPATIAL_FILE)) {
			const char *path = cv->v[k].s;
			real = realpath(path, NULL);
			text = real ? real : path;
		}
		fprintf(f, "%s = ", p[k].key);
		fsim_cfg_write_value(f, text);
		fprintf(f, "%s\n", note ? note : "");
		free(real);
	}
}

static int section_set(const cfg_values *cv)
{
	for (size_t k = 0; k < cv->n; k++)
		if (cv->from[k])
			return 1;
	return 0;
}

int fsim_config_write(const fsim_config *c, FILE *f)
{
	CFG_CHECK(c);
	if (!c->resolved || !f)
		return -1;
	fputs("# Sibyl machine description: the effective configuration of "
	      "a run.\n# Keys marked \"# default\" were not given.\n", f);
	for (int s = 0; s < NSECTIONS; s++) {
		if (s == S_VARIABILITY && !section_set(&c->sec[s]))
			continue;       /* off: the files of earlier runs */
		write_section(f, fsim_cfg_sections[s].name, fsim_cfg_sections[s].params,
			      &c->sec[s], c);
		if (s == S_NET)
			write_section(f, NULL, c->model->params, &c->mod, c);
	}
	return ferror(f) ? -1 : 0;
}
