/*
 * sib_quote.c -- undoing the quotes of a value in a text input
 * (sib_text.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>
#include <string.h>

#include "sib_text.h"

char *sib_unquote(const char *s, const char **end)
{
	size_t n = 0;
	char *out = malloc(strlen(s) + 1);

	if (!out)
		return NULL;
	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		out[n++] = *s;
	}
	out[n] = '\0';
	*end = *s == '"' ? s + 1 : NULL;
	return out;
}
