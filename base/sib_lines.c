/*
 * sib_lines.c -- a line reader that bounds what a hostile file can cost
 * (sib_text.h).  It reads with read(2) into a fixed buffer and copies at
 * most max_line bytes of a line, so a file without newlines, a device
 * that never ends or a sparse file of terabytes all stop at the first
 * limit they reach, having cost one buffer and one line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sib_text.h"

#define SIB_READ_CHUNK 16384
#define SIB_LINE_START 256

struct sib_lines {
	int fd;                   /* -1: the lines come from mem */
	const unsigned char *mem; /* memsize bytes, memoff of them read */
	size_t memsize, memoff;
	const sib_lines_limits *lim;
	char *path;
	unsigned char buf[SIB_READ_CHUNK];
	size_t pos, end;          /* unread bytes: buf[pos..end) */
	int eof;
	uint64_t total;           /* bytes read so far */
	unsigned long lineno;
	char *line;               /* cap bytes, at most max_line + 1 */
	size_t cap;
};

static int errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a plain file";
}

static int too_large(const char *path, const sib_lines_limits *lim,
		     char *err, size_t errlen)
{
	return errf(err, errlen, "%s: the %s is larger than %llu bytes, the "
		    "limit for a %s; check that this is the right file",
		    path, lim->what, (unsigned long long)lim->max_bytes,
		    lim->what);
}

/* A reader of fd (or of size bytes at mem when fd is -1), whose input
 * holds size bytes; on an error, fd stays the caller's to close. */
static int start(sib_lines **lp, const char *path, int fd,
		 const void *mem, uint64_t size, const sib_lines_limits *lim,
		 char *err, size_t errlen)
{
	sib_lines *l;
	if (lim->max_bytes && size > lim->max_bytes)
		return too_large(path, lim, err, errlen);
	if (!(l = malloc(sizeof *l)) || !(l->path = strdup(path))) {
		free(l);
		return errf(err, errlen, "out of memory reading the %s %s",
			    lim->what, path);
	}
	l->fd = fd;
	l->mem = mem;
	l->memsize = fd < 0 ? (size_t)size : 0;
	l->memoff = 0;
	l->lim = lim;
	l->pos = l->end = 0;
	l->eof = 0;
	l->total = 0;
	l->lineno = 0;
	l->line = NULL;
	l->cap = 0;
	*lp = l;
	return 0;
}

int sib_lines_open(sib_lines **lp, const char *path,
		   const sib_lines_limits *lim, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	*lp = NULL;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before
	 * fstat can refuse it. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errf(err, errlen, "cannot open the %s %s: %s%s%s",
			    lim->what, path, strerror(errno),
			    lim->open_hint ? "; " : "",
			    lim->open_hint ? lim->open_hint : "");
	if (fstat(fd, &st)) {
		errf(err, errlen, "cannot read the %s %s: %s", lim->what, path,
		     strerror(errno));
		goto out_with_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		errf(err, errlen, "%s is %s, not a regular file; give the "
		     "path of a %s", path, file_kind(st.st_mode), lim->what);
		goto out_with_fd;
	}
	if (fcntl(fd, F_SETFL, 0)) {
		errf(err, errlen, "cannot read the %s %s: %s", lim->what, path,
		     strerror(errno));
		goto out_with_fd;
	}
	if (start(lp, path, fd, NULL, (uint64_t)st.st_size, lim, err,
		  errlen))
		goto out_with_fd;
	return 0;

out_with_fd:
	close(fd);
	return -1;
}

int sib_lines_open_mem(sib_lines **lp, const char *name, const void *data,
		       size_t size, const sib_lines_limits *lim, char *err,
		       size_t errlen)
{
	*lp = NULL;
	return start(lp, name, -1, data, size, lim, err, errlen);
}

/* Refill buf; 0 (possibly at the end of the file) or -1. */
static int fill(sib_lines *l, char *err, size_t errlen)
{
	ssize_t n;
	if (l->fd < 0) {
		size_t left = l->memsize - l->memoff;
		n = (ssize_t)(left < sizeof l->buf ? left : sizeof l->buf);
		memcpy(l->buf, l->mem + l->memoff, (size_t)n);
		l->memoff += (size_t)n;
	} else {
		do
			n = read(l->fd, l->buf, sizeof l->buf);
		while (n < 0 && errno == EINTR);
	}
	if (n < 0)
		return errf(err, errlen, "cannot read the %s %s: %s",
			    l->lim->what, l->path, strerror(errno));
	l->pos = 0;
	l->end = (size_t)n;
	l->eof = n == 0;
	l->total += (uint64_t)n;
	if (l->lim->max_bytes && l->total > l->lim->max_bytes)
		return too_large(l->path, l->lim, err, errlen);
	return 0;
}

int sib_lines_next(sib_lines *l, char **line, size_t *len, char *err,
		   size_t errlen)
{
	size_t n = 0;
	int any = 0;

	for (;;) {
		if (l->pos == l->end) {
			if (!l->eof && fill(l, err, errlen))
				return -1;
			if (l->eof) {
				if (!any)
					return 0;
				break;
			}
		}
		if (!any)
			l->lineno++;
		any = 1;
		const unsigned char *p = l->buf + l->pos;
		size_t avail = l->end - l->pos;
		const unsigned char *nl = memchr(p, '\n', avail);
		size_t take = nl ? (size_t)(nl - p) : avail;
		if (memchr(p, '\0', take))
			return errf(err, errlen, "%s:%lu: the line contains a "
				    "NUL byte; a %s is text", l->path,
				    l->lineno, l->lim->what);
		if (take > l->lim->max_line - n)
			return errf(err, errlen, "%s:%lu: the line is longer "
				    "than %zu bytes, the limit for a %s; "
				    "check that this is a %s", l->path,
				    l->lineno, l->lim->max_line, l->lim->what,
				    l->lim->what);
		if (n + take + 1 > l->cap) {
			size_t cap = l->cap ? l->cap : SIB_LINE_START;
			while (cap < n + take + 1)
				cap *= 2;
			if (cap > l->lim->max_line + 1)
				cap = l->lim->max_line + 1;
			char *grown = realloc(l->line, cap);
			if (!grown)
				return errf(err, errlen, "%s:%lu: out of memory "
					    "reading the %s", l->path,
					    l->lineno, l->lim->what);
			l->line = grown;
			l->cap = cap;
		}
		memcpy(l->line + n, p, take);
		n += take;
		l->pos += take + (nl != NULL);
		if (nl)
			break;
	}
	if (!l->line) {
		if (!(l->line = malloc(SIB_LINE_START)))
			return errf(err, errlen, "%s:%lu: out of memory reading "
				    "the %s", l->path, l->lineno,
				    l->lim->what);
		l->cap = SIB_LINE_START;
	}
	l->line[n] = '\0';
	*line = l->line;
	*len = n;
	return 1;
}

unsigned long sib_lines_lineno(const sib_lines *l)
{
	return l->lineno;
}

void sib_lines_close(sib_lines *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l->line);
	free(l->path);
	free(l);
}
