/*
 * sbuf.c -- a growable string, and words quoted for the shell (the
 * command line that `sibyl emulate' records and prints).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tools.h"

void tool_sb_add(struct tool_sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *p;

		while (b->len + n + 1 > cap)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void tool_sb_puts(struct tool_sbuf *b, const char *s)
{
	tool_sb_add(b, s, strlen(s));
}

/* s as one shell word: bare when only safe characters, else quoted. */
void tool_sb_quote(struct tool_sbuf *b, const char *s)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz"
				   "0123456789_./:=,+@%-";
	const char *p;

	if (*s && strspn(s, safe) == strlen(s)) {
		tool_sb_puts(b, s);
		return;
	}
	tool_sb_add(b, "'", 1);
	for (p = s; *p; p++) {
		if (*p == '\'')
			tool_sb_add(b, "'\\''", 4);
		else
			tool_sb_add(b, p, 1);
	}
	tool_sb_add(b, "'", 1);
}

/* The words quoted and joined by spaces; NULL when out of memory. */
char *tool_join_quoted(char *const *words, int n)
{
	struct tool_sbuf b = { NULL, 0, 0, 0 };
	int i;

	for (i = 0; i < n; i++) {
		if (i)
			tool_sb_add(&b, " ", 1);
		tool_sb_quote(&b, words[i]);
	}
	if (b.oom || !b.s) {
		free(b.s);
		return b.oom ? NULL : strdup("");
	}
	return b.s;
}

/* a then b, malloc'ed; NULL when out of memory. */
char *tool_concat(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 1);

	if (s) {
		memcpy(s, a, la);
		memcpy(s + la, b, lb + 1);
	}
	return s;
}
