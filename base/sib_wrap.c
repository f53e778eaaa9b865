/*
 * sib_wrap.c -- text wrapped into a help screen (sib_text.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>

#include "sib_text.h"

void sib_wrap(FILE *f, const char *text, int indent, int width)
{
	int col = 0;
	while (*text) {
		while (*text == ' ')
			text++;
		size_t w = strcspn(text, " ");
		if (!w)
			break;
		if (col && col + 1 + (int)w > width) {
			fputc('\n', f);
			col = 0;
		}
		if (!col)
			col = fprintf(f, "%*s", indent, "");
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", (int)w, text);
		text += w;
	}
	if (col)
		fputc('\n', f);
}
