/*
 * fuzz_manifest.c -- fuzz target for the MANIFEST reader.
 *
 * The input is manifest text, parsed from memory (tf_manifest_parse).
 * What is accepted must be consistent: every key found again through the
 * hash table with its own value, keys within the format's rules and
 * limits; and formatting it (tf_manifest_format) and parsing the result
 * again must give the same entries in the same order (values up to the
 * blanks at their ends, which the format does not preserve).  What is
 * refused must come with a message and leave the manifest empty.  Crashes,
 * leaks and sanitizer reports are the findings.
 *
 * Built as a libFuzzer binary (make fuzz) and as
 * tests/fuzz_manifest_replay (fuzz_manifest_replay.c).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tf_private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* s without the blanks at its ends, as a length and start. */
static const char *unblank(const char *s, size_t *len)
{
	size_t n = strlen(s);
	while (*s == ' ' || *s == '\t') {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	*len = n;
	return s;
}

static void check_accepted(const tf_manifest *m)
{
	tf_manifest again;
	tf_buf text = { 0 };
	char err[512];

	if (m->n > TF_MANIFEST_MAX_KEYS)
		abort();
	for (size_t i = 0; i < m->n; i++) {
		const char *k = m->kv[i].key;
		if (!*k || tf_manifest_get(m, k) != m->kv[i].value)
			abort();  /* the table lost or confused a key */
		for (const unsigned char *p = (const unsigned char *)k; *p; p++)
			if (*p <= ' ' || *p >= 0x7f || *p == '=')
				abort();
	}
	if (tf_manifest_format(m, &text, err, sizeof err)) {
		tf_buf_free(&text);
		return;  /* escaping grew a line beyond the limits */
	}
	if (tf_manifest_parse(&again, (const char *)text.p, text.len, "again",
			      err, sizeof err))
		abort();  /* what the writer writes, the reader reads */
	if (again.n != m->n)
		abort();
	for (size_t i = 0; i < m->n; i++) {
		size_t la, lb;
		const char *a = unblank(m->kv[i].value, &la);
		const char *b = unblank(again.kv[i].value, &lb);
		if (strcmp(m->kv[i].key, again.kv[i].key) || la != lb ||
		    memcmp(a, b, la))
			abort();
	}
	tf_manifest_free(&again);
	tf_buf_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	tf_manifest m;
	char err[512] = "";

	if (tf_manifest_parse(&m, (const char *)data, size, "MANIFEST", err,
			      sizeof err) == SIBT_OK) {
		check_accepted(&m);
		tf_manifest_free(&m);
	} else if (!err[0] || m.n || m.kv || m.slot) {
		abort();  /* a refusal says why and keeps nothing */
	}
	return 0;
}
