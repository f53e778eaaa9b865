/*
 * sib_text.h -- reading the text inputs of Sibyl (machine descriptions,
 * noise sets, mapping files) with bounded resources (internal).
 *
 * A sib_lines reads one regular file (or a buffer) line by line.
 * Whatever the file holds, it never keeps more than one line of at most
 * max_line bytes, and it refuses, with a message naming the file (and
 * line) and what to do:
 *   - a path that is not a regular file (a directory, a FIFO, a device
 *     such as /dev/zero), before reading anything from it;
 *   - a line longer than max_line bytes (without its newline);
 *   - a line holding a NUL byte (text never does; a line cut there
 *     would be read as something else);
 *   - a file of more than max_bytes bytes (when max_bytes is not 0),
 *     before reading it when its size says so, and while reading should
 *     it grow.
 *
 * Every name starts with "sib_".  Functions returning int return 0 (or
 * 1 for a line) on success and -1 with a complete sentence in err.
 */
#ifndef SIBYL_SIB_TEXT_H
#define SIBYL_SIB_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* isspace() without the locale: Sibyl's text syntax is ASCII. */
static inline int sib_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\f' || ch == '\v';
}

typedef struct sib_lines_limits {
	const char *what;       /* "configuration file": names the file */
	const char *open_hint;  /* what to do when it cannot be opened */
	size_t max_line;        /* bytes per line, newline excluded (> 0) */
	uint64_t max_bytes;     /* bytes per file; 0: no limit */
} sib_lines_limits;

typedef struct sib_lines sib_lines;

/* Open path (which must name a regular file).  lim must outlive *lp. */
int sib_lines_open(sib_lines **lp, const char *path,
		   const sib_lines_limits *lim, char *err, size_t errlen);
/*
 * The same reader over size bytes at data (which must outlive *lp),
 * named name in messages: the lines of a file already in memory, under
 * the same limits.
 */
int sib_lines_open_mem(sib_lines **lp, const char *name, const void *data,
		       size_t size, const sib_lines_limits *lim, char *err,
		       size_t errlen);
/*
 * The next line, without its '\n' (a '\r' before it is kept): 1 and
 * *line (NUL-terminated, *len bytes, valid until the next call; the
 * caller may modify it), 0 at the end of the file, -1 on an error.  A
 * last line without a newline is a line.
 */
int sib_lines_next(sib_lines *l, char **line, size_t *len, char *err,
		   size_t errlen);
/* The number of the line sib_lines_next returned last (1-based). */
unsigned long sib_lines_lineno(const sib_lines *l);
void sib_lines_close(sib_lines *l);

/*
 * The value of a quoted string, s pointing just after its opening quote:
 * \" and \\ are escapes; any other backslash is kept (paths with
 * backslashes need no doubling).  A new string (malloc; NULL when out of
 * memory), and *end after the closing quote, or NULL when there is none.
 */
char *sib_unquote(const char *s, const char **end);

/*
 * The Damerau-Levenshtein distance of a and b (optimal string alignment:
 * an insertion, a deletion, a substitution or a swap of two neighbours,
 * "ltaency", costs one), for "did you mean"; SIZE_MAX when either has 128
 * bytes or more.
 */
size_t sib_edit_distance(const char *a, const char *b);

/* The words of text (separated by blanks) on f, each line indented by
 * indent and wrapped before column width (a longer word stands alone),
 * ending with a newline; nothing for an empty text. */
void sib_wrap(FILE *f, const char *text, int indent, int width);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_TEXT_H */
