/*
 * tf_manifest.c -- the MANIFEST text file (FORMAT.md section 3).
 *
 * Keys are found through a hash table, so that reading a manifest takes
 * time linear in its size; its size, lines and keys are bounded (the
 * TF_MANIFEST_MAX_* limits) so that a hostile one cannot take much memory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
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

/* FNV-1a: keys are short and the table only needs an even spread. */
static size_t key_hash(const char *key)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return (size_t)(h ^ (h >> 32));
}

/* The slot of `key' in the hash table: the one holding it, or the empty
 * one where it would go.  The table is never full (see grow()). */
static size_t find_slot(const tf_manifest *m, const char *key)
{
	size_t mask = m->nslot - 1, i = key_hash(key) & mask;
	while (m->slot[i] && strcmp(m->kv[m->slot[i] - 1].key, key))
		i = (i + 1) & mask;
	return i;
}

/* Room for one more key: the entries and a table at most half full. */
static int grow(tf_manifest *m)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		tf_kv *kv = realloc(m->kv, cap * sizeof *kv);
		if (!kv)
			return SIBT_ENOMEM;
		m->kv = kv;
		m->cap = cap;
	}
	if (2 * (m->n + 1) <= m->nslot)
		return SIBT_OK;
	size_t nslot = m->nslot ? m->nslot * 2 : 32;
	size_t *slot = calloc(nslot, sizeof *slot), *old = m->slot;
	if (!slot)
		return SIBT_ENOMEM;
	m->slot = slot;
	m->nslot = nslot;
	for (size_t i = 0; i < m->n; i++)
		m->slot[find_slot(m, m->kv[i].key)] = i + 1;
	free(old);
	return SIBT_OK;
}

const char *tf_manifest_get(const tf_manifest *m, const char *key)
{
	if (!m->nslot)
		return NULL;
	size_t s = m->slot[find_slot(m, key)];
	return s ? m->kv[s - 1].value : NULL;
}

int tf_manifest_set(tf_manifest *m, const char *key, const char *value)
{
	char *v = strdup(value ? value : "");
	if (!v)
		return SIBT_ENOMEM;
	if (m->nslot) {
		size_t s = m->slot[find_slot(m, key)];
		if (s) {
			free(m->kv[s - 1].value);
			m->kv[s - 1].value = v;
			return SIBT_OK;
		}
	}
	char *k = strdup(key);
	if (!k || grow(m)) {
		free(k);
		free(v);
		return SIBT_ENOMEM;
	}
	m->kv[m->n].key = k;
	m->kv[m->n].value = v;
	m->slot[find_slot(m, key)] = ++m->n;
	return SIBT_OK;
}

void tf_manifest_free(tf_manifest *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->kv[i].key);
		free(m->kv[i].value);
	}
	free(m->kv);
	free(m->slot);
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

/* Keys are printable ASCII without blanks (and without '=', which ends
 * them), so that they can be shown and compared as they are. */
static int bad_key(const char *key)
{
	if (!*key)
		return 1;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '=')
			return 1;
	return 0;
}

int tf_manifest_parse(tf_manifest *m, const char *text, size_t len,
		      const char *name, char *err, size_t errlen)
{
	char *line = NULL, shown[80];
	unsigned lineno = 0;
	int rc = SIBT_OK;

	memset(m, 0, sizeof *m);
	if (len > TF_MANIFEST_MAX_BYTES)
		return tf_fail(err, errlen, SIBT_EMANIFEST, "%s: %zu bytes, "
			       "more than a manifest may hold (%u): not a "
			       "Sibyl trace manifest", name, len,
			       TF_MANIFEST_MAX_BYTES);
	if (!(line = malloc(len < TF_MANIFEST_MAX_LINE ? len + 1 :
			    TF_MANIFEST_MAX_LINE + 1)))
		return SIBT_ENOMEM;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - text) - pos : len - pos;
		lineno++;
		if (l > TF_MANIFEST_MAX_LINE) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s:%u: line "
				     "longer than %u bytes: the manifest is "
				     "corrupted or not a Sibyl manifest", name,
				     lineno, TF_MANIFEST_MAX_LINE);
			goto out;
		}
		if (memchr(text + pos, 0, l)) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: NUL byte in text: the manifest is "
				"corrupted", name, lineno);
			goto out;
		}
		memcpy(line, text + pos, l);
		line[l] = 0;
		pos += l + (nl != NULL);
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			tf_escape(shown, sizeof shown, s, 60);
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: expected 'key = value', got '%s'",
				name, lineno, shown);
			goto out;
		}
		*eq = 0;
		char *key = trim(s), *val = trim(eq + 1);
		if (bad_key(key)) {
			tf_escape(shown, sizeof shown, key, 60);
			rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s:%u: bad key "
				     "'%s' (a key is printable ASCII without "
				     "blanks)", name, lineno, shown);
			goto out;
		}
		if (tf_manifest_get(m, key)) {
			tf_escape(shown, sizeof shown, key, 60);
			rc = tf_fail(err, errlen, SIBT_EMANIFEST,
				"%s:%u: key '%s' appears twice", name,
				lineno, shown);
			goto out;
		}
		if (m->n >= TF_MANIFEST_MAX_KEYS) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s:%u: more "
				     "than %u keys: the manifest is corrupted "
				     "or not a Sibyl manifest", name, lineno,
				     TF_MANIFEST_MAX_KEYS);
			goto out;
		}
		unescape(val);
		if (tf_manifest_set(m, key, val)) {
			rc = tf_fail(err, errlen, SIBT_ENOMEM, "%s: out of "
				     "memory", name);
			goto out;
		}
	}
out:
	free(line);
	if (rc)
		tf_manifest_free(m);
	return rc;
}

int tf_manifest_read(tf_manifest *m, const char *path, char *err,
		     size_t errlen)
{
	struct stat st;
	char *text = NULL;
	int fd, rc;

	memset(m, 0, sizeof *m);
	/* O_NONBLOCK: a FIFO in place of the manifest must not hang the
	 * open; it is refused below like any file that is not regular. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return tf_fail(err, errlen, SIBT_EMANIFEST,
			"%s: cannot open: %s (is this a Sibyl trace "
			"directory?)", path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: %s", path,
			     strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s: not a regular "
			     "file: a trace manifest must be one", path);
		goto out;
	}
	if ((uint64_t)st.st_size > TF_MANIFEST_MAX_BYTES) {
		rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s: %" PRIu64
			     " bytes, more than a manifest may hold (%u): not "
			     "a Sibyl trace manifest", path,
			     (uint64_t)st.st_size, TF_MANIFEST_MAX_BYTES);
		goto out;
	}
	/* Read one byte more than stat promised, to see a file that grew. */
	size_t cap = (size_t)st.st_size + 1;
	if (!(text = malloc(cap))) {
		rc = tf_fail(err, errlen, SIBT_ENOMEM, "%s: out of memory",
			     path);
		goto out;
	}
	long long got = tf_pread_full(fd, text, cap, 0);
	if (got < 0) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: read error: %s",
			     path, strerror(errno));
		goto out;
	}
	if ((size_t)got == cap) {
		rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s: the file grows "
			     "while it is read; read the trace once it is "
			     "written", path);
		goto out;
	}
	rc = tf_manifest_parse(m, text, (size_t)got, path, err, errlen);
out:
	free(text);
	close(fd);
	return rc;
}

int tf_manifest_format(const tf_manifest *m, tf_buf *out, char *err,
		       size_t errlen)
{
	static const char head[] =
		"# Sibyl trace manifest (see tracefmt/FORMAT.md)\n";

	out->len = 0;
	if (tf_buf_put(out, head, sizeof head - 1))
		return SIBT_ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		const tf_kv *kv = &m->kv[i];
		char *v = escape(kv->value);
		size_t before = out->len;
		if (!v || tf_buf_put(out, kv->key, strlen(kv->key)) ||
		    tf_buf_put(out, " = ", 3) || tf_buf_put(out, v, strlen(v)) ||
		    tf_buf_put(out, "\n", 1)) {
			free(v);
			return SIBT_ENOMEM;
		}
		free(v);
		if (bad_key(kv->key) ||
		    out->len - before - 1 > TF_MANIFEST_MAX_LINE ||
		    out->len > TF_MANIFEST_MAX_BYTES ||
		    i >= TF_MANIFEST_MAX_KEYS) {
			char shown[80];
			tf_escape(shown, sizeof shown, kv->key, 60);
			return tf_fail(err, errlen, SIBT_EINVAL, "manifest "
				"entry '%s' does not fit the format's limits "
				"(keys printable ASCII without blanks, lines "
				"up to %u bytes, %u bytes and %u keys in all)",
				shown, TF_MANIFEST_MAX_LINE,
				TF_MANIFEST_MAX_BYTES, TF_MANIFEST_MAX_KEYS);
		}
	}
	return SIBT_OK;
}

int tf_manifest_write(const tf_manifest *m, const char *path, char *err,
		      size_t errlen)
{
	tf_buf text = { 0 };
	int rc = tf_manifest_format(m, &text, err, errlen);
	if (rc) {
		tf_buf_free(&text);
		return rc;
	}
	size_t n = strlen(path);
	char *tmp = malloc(n + 5);
	if (!tmp) {
		tf_buf_free(&text);
		return SIBT_ENOMEM;
	}
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp", 5);

	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int bad = fd < 0 || tf_write_full(fd, text.p, text.len) != 0 ||
		  fsync(fd) != 0;
	if (fd >= 0 && close(fd) != 0)
		bad = 1;
	if (bad || rename(tmp, path) != 0) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot write: %s",
			     fd < 0 ? tmp : path, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	tf_buf_free(&text);
	return rc;
}
