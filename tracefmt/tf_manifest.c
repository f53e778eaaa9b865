/*
 * tf_manifest.c -- the MANIFEST text file (FORMAT.md section 3).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tf_private.h"

/* Values may not contain newlines; escape "\" and newline. */
static char *escape(const char *v)
{
	size_t n = 0;
	for (const char *p = v; *p; p++)
		n += (*p == '\\' || *p == '\n' || *p == '\r') ? 2 : 1;
	char *out = malloc(n + 1), *q = out;
	if (!out)
		return NULL;
	for (const char *p = v; *p; p++) {
		if (*p == '\\' || *p == '\n' || *p == '\r') {
			*q++ = '\\';
			*q++ = *p == '\\' ? '\\' : *p == '\n' ? 'n' : 'r';
		} else {
			*q++ = *p;
		}
	}
	*q = 0;
	return out;
}

static void unescape(char *v)
{
	char *q = v;
	for (char *p = v; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			*q++ = *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p;
		} else {
			*q++ = *p;
		}
	}
	*q = 0;
}

const char *tf_manifest_get(const tf_manifest *m, const char *key)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->kv[i].key, key))
			return m->kv[i].value;
	return NULL;
}

int tf_manifest_set(tf_manifest *m, const char *key, const char *value)
{
	char *v = strdup(value ? value : "");
	if (!v)
		return SIBT_ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		if (!strcmp(m->kv[i].key, key)) {
			free(m->kv[i].value);
			m->kv[i].value = v;
			return 0;
		}
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		tf_kv *kv = realloc(m->kv, cap * sizeof *kv);
		if (!kv) {
			free(v);
			return SIBT_ENOMEM;
		}
		m->kv = kv;
		m->cap = cap;
	}
	m->kv[m->n].key = strdup(key);
	if (!m->kv[m->n].key) {
		free(v);
		return SIBT_ENOMEM;
	}
	m->kv[m->n++].value = v;
	return 0;
}

void tf_manifest_free(tf_manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->kv[i].key);
		free(m->kv[i].value);
	}
	free(m->kv);
	memset(m, 0, sizeof *m);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

int tf_manifest_read(tf_manifest *m, const char *path, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	int rc = SIBT_OK;

	memset(m, 0, sizeof *m);
	if (!f) {
		return tf_fail(err, errlen, SIBT_EMANIFEST,
			"%s: cannot open: %s (is this a Sibyl trace "
			"directory?)", path, strerror(errno));
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		size_t l = (size_t)len;
		if (l && line[l - 1] == '\n')
			line[--l] = 0;
		if (strlen(line) != l) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: NUL byte in text: the manifest is "
				"corrupted", path, lineno);
			goto out;
		}
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: expected 'key = value', got '%.60s'",
				path, lineno, s);
			goto out;
		}
		*eq = 0;
		char *key = trim(s), *val = trim(eq + 1);
		if (!*key) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: empty key", path, lineno);
			goto out;
		}
		if (tf_manifest_get(m, key)) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: key '%s' appears twice", path,
				lineno, key);
			goto out;
		}
		unescape(val);
		if (tf_manifest_set(m, key, val)) {
			rc = SIBT_ENOMEM;
			goto out;
		}
	}
	if (ferror(f)) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: read error: %s",
			     path, strerror(errno));
	}
out:
	free(line);
	fclose(f);
	if (rc)
		tf_manifest_free(m);
	return rc;
}

int tf_manifest_write(const tf_manifest *m, const char *path, char *err,
		      size_t errlen)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);
	if (!tmp)
		return SIBT_ENOMEM;
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);

	FILE *f = fopen(tmp, "w");
	if (!f) {
		int rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot create: %s",
				 tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	fprintf(f, "# Sibyl trace manifest (see tracefmt/FORMAT.md)\n");
	for (size_t i = 0; i < m->n; i++) {
		char *v = escape(m->kv[i].value);
		if (!v) {
			fclose(f);
			unlink(tmp);
			free(tmp);
			return SIBT_ENOMEM;
		}
		fprintf(f, "%s = %s\n", m->kv[i].key, v);
		free(v);
	}
	int bad = ferror(f);
	bad |= fflush(f) != 0;
	bad |= fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0) {
		int rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot write: %s",
				 path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return rc;
	}
	free(tmp);
	return SIBT_OK;
}
