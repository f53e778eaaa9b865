/*
 * util.c -- shared helpers of the `sibyl' driver: messages, formatting,
 * JSON strings, the tool_progress bar, opening a
 * trace with the tools' error conventions, temporary files removed on
 * signals, and output directories (the rule --force follows, staging and
 * committing).  See tools.h.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sib_util.h"
#include "tools.h"

const char *tool_name = "sibyl";

/* ------------------------------------------------------------ messages */

static void vmessage(const char *kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	/* Keep stdout and stderr in order when both go to one terminal. */
	fflush(stdout);
	fprintf(stderr, "%s: %s", tool_name, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
}

void tool_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
}

int tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", tool_name);
	return TOOL_EXIT_USAGE;
}

int tool_bad_option(int c, char **argv)
{
	const char *a = argv[optind - 1];
	char one[3] = { '-', (char)optopt, '\0' };
	/* A short option, alone ("-x") or in a cluster ("-qx"), is named
	 * by optopt; a long one by its word, without "=VALUE". */
	int is_long = a[0] == '-' && a[1] == '-';
	const char *name = optopt && !is_long ? one : a;
	int len = (int)strcspn(name, "=");

	if (c == ':')
		return tool_usage_error("option '%.*s' needs a value", len,
					name);
	return tool_usage_error("unknown option '%.*s'", len, name);
}

const char *tool_trace_operand(int argc, char **argv)
{
	if (optind >= argc) {
		tool_usage_error("missing TRACE (a trace directory or bundle)");
		return NULL;
	}
	if (optind + 1 < argc) {
		tool_usage_error("unexpected argument '%s' (only one TRACE)",
				 argv[optind + 1]);
		return NULL;
	}
	return argv[optind];
}

/* ---------------------------------------------------------- formatting */

char *tool_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = {
		"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	double v = bytes;
	int u = -1;

	if (v > -1024 && v < 1024) {
		if (v == (double)(long)v)
			snprintf(buf, len, "%.0f B", v);
		else
			snprintf(buf, len, "%.1f B", v);
		return buf;
	}
	while ((v >= 1024 || v <= -1024) && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.2f %s", v, unit[u]);
	return buf;
}

char *tool_fmt_time(char *buf, size_t len, sibt_time ps)
{
	static const struct { const char *name; double div; } u[] = {
		{ "s", 1e12 }, { "ms", 1e9 }, { "us", 1e6 }, { "ns", 1e3 }
	};
	double a = ps < 0 ? -(double)ps : (double)ps;
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (a >= u[i].div) {
			snprintf(buf, len, "%.3f %s", (double)ps / u[i].div,
				 u[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRId64 " ps", (int64_t)ps);
	return buf;
}

char *tool_fmt_count(char *buf, size_t len, uint64_t n)
{
	char digits[32];
	size_t nd, i, o = 0;

	nd = (size_t)snprintf(digits, sizeof(digits), "%" PRIu64, n);
	if (len == 0)
		return buf;
	for (i = 0; i < nd && o + 1 < len; i++) {
		if (i > 0 && (nd - i) % 3 == 0) {
			buf[o++] = ',';
			if (o + 1 >= len)
				break;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

/* ---------------------------------------------------------------- JSON */

void tool_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	putc('"', f);
	while (i < len) {
		unsigned char c = p[i];
		size_t k;

		switch (c) {
		case '"':  fputs("\\\"", f); i++; continue;
		case '\\': fputs("\\\\", f); i++; continue;
		case '\n': fputs("\\n", f); i++; continue;
		case '\r': fputs("\\r", f); i++; continue;
		case '\t': fputs("\\t", f); i++; continue;
		case '\b': fputs("\\b", f); i++; continue;
		case '\f': fputs("\\f", f); i++; continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		k = sib_utf8_len(p + i, len - i);
		if (k == 0) {
			/* Not UTF-8: JSON text must be, so substitute. */
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		if (k == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
			/* C1 control (U+0080..U+009F): escaped like C0 */
			fprintf(f, "\\u%04x", p[i + 1]);
			i += 2;
			continue;
		}
		fwrite(p + i, 1, k, f);
		i += k;
	}
	putc('"', f);
}

void tool_print_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n = strlen(s), k;

	while (i < n) {
		unsigned char c = p[i];

		if (c == '\\') {
			fputs("\\\\", f);
			i++;
			continue;
		}
		if (c == '\n') {
			fputs("\\n", f);
			i++;
			continue;
		}
		k = sib_utf8_len(p + i, n - i);
		if (c < 0x20 || c == 0x7f || k == 0 ||
		    (k == 2 && c == 0xc2 && p[i + 1] < 0xa0)) {
			/* control characters (C0, DEL, C1) and bytes that
			 * are not UTF-8, byte by byte */
			for (k = k ? k : 1; k > 0; k--, i++)
				fprintf(f, "\\x%02x", p[i]);
			continue;
		}
		fwrite(p + i, 1, k, f);
		i += k;
	}
}

char *tool_config_assignment(const char *key, const char *value)
{
	char *s = malloc(strlen(key) + 2 * strlen(value) + 4), *p;

	if (!s)
		return NULL;
	p = s + sprintf(s, "%s=\"", key);
	for (; *value; value++) {
		if (*value == '"' || *value == '\\')
			*p++ = '\\';
		*p++ = *value;
	}
	strcpy(p, "\"");
	return s;
}

/* ------------------------------------------------------------ progress */

static void progress_draw(const tool_progress *p, uint64_t done)
{
	enum { WIDTH = 30 };
	char bar[WIDTH + 1];
	double frac = p->total ? (double)done / (double)p->total : 0;
	int fill, i;

	if (frac > 1)
		frac = 1;
	fill = (int)(frac * WIDTH);
	for (i = 0; i < WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[WIDTH] = '\0';
	fprintf(stderr, "\r%s [%s] %3d%% %" PRIu64 "/%" PRIu64 "\033[K",
		p->label, bar, (int)(frac * 100), done, p->total);
	fflush(stderr);
}

void tool_progress_begin(tool_progress *p, const char *label, uint64_t total,
			 int quiet)
{
	p->active = !quiet && isatty(STDERR_FILENO);
	p->label = label;
	p->total = total;
	p->last = 0;
	if (p->active) {
		progress_draw(p, 0);
		p->last = sib_now_seconds();
	}
}

void tool_progress_update(tool_progress *p, uint64_t done)
{
	double t;

	if (!p->active)
		return;
	t = sib_now_seconds();
	if (t - p->last < 0.2)
		return;
	p->last = t;
	progress_draw(p, done);
}

void tool_progress_end(tool_progress *p)
{
	if (!p->active)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->active = 0;
}

/* ----------------------------------------------------- temporary files */

/*
 * The registry: paths removed on SIGINT, SIGTERM and SIGHUP.  It is
 * changed only with those signals blocked, so that the handler never
 * sees half an update; the handler reads it and removes with
 * async-signal-safe calls only (remove_at).
 */
enum { TEMP_MAX = 16, TEMP_DEPTH = 16 };

static char *temp_path[TEMP_MAX];
static const sibt_trace *temp_owner[TEMP_MAX]; /* tool_open_trace's */
static int temp_handler_set;
static const int temp_signals[] = { SIGINT, SIGTERM, SIGHUP };

/*
 * Remove `name' (relative to dirfd) and, when it is a directory, what it
 * holds, never following a symbolic link.  Async-signal-safe: the signal
 * handler uses it.  Returns 0 (also when nothing was there) or an errno
 * value.
 */
static int remove_at(int dirfd, const char *name, int depth)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd, err = 0;
	ssize_t n;

	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return errno;
	if (depth == 0)
		return ELOOP;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* Removing entries while reading the directory may make the reader
	 * skip some: after a batch that removed anything, read again from
	 * the start (each restart has fewer entries to see). */
	while ((n = getdents64(fd, buf, sizeof buf)) > 0) {
		int removed = 0;

		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(buf + off);
			const char *d = de->d_name;
			int e;

			off += de->d_reclen;
			if (d[0] == '.' && (!d[1] || (d[1] == '.' && !d[2])))
				continue;
			e = remove_at(fd, d, depth - 1);
			if (e)
				err = e;
			else
				removed = 1;
		}
		if (removed)
			lseek(fd, 0, SEEK_SET);
	}
	if (n < 0)
		err = errno;
	close(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0 && errno != ENOENT &&
	    !err)
		err = errno;
	return err;
}

int tool_remove_tree(const char *path)
{
	int err = remove_at(AT_FDCWD, path, TEMP_DEPTH);

	errno = err;
	return err ? -1 : 0;
}

static void temp_on_signal(int sig)
{
	sigset_t s;

	for (int i = 0; i < TEMP_MAX; i++)
		if (temp_path[i])
			remove_at(AT_FDCWD, temp_path[i], TEMP_DEPTH);
	/* End as the signal would have ended us: the parent sees it. */
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
}

void tool_exit_signal(int sig)
{
	sigset_t s;

	fflush(stdout);
	fflush(stderr);
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig);	/* a signal whose default is to go on */
}

static void temp_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	for (size_t i = 0; i < sizeof temp_signals / sizeof *temp_signals; i++)
		sigaddset(&s, temp_signals[i]);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void temp_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* Install the handler once; a signal ignored on entry (nohup, a
 * background job of a script) stays ignored. */
static void temp_install(void)
{
	struct sigaction sa, old;

	if (temp_handler_set)
		return;
	temp_handler_set = 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = temp_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof temp_signals / sizeof *temp_signals; i++)
		sigaddset(&sa.sa_mask, temp_signals[i]);
	for (size_t i = 0; i < sizeof temp_signals / sizeof *temp_signals;
	     i++) {
		if (sigaction(temp_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(temp_signals[i], &sa, NULL);
	}
}

/* Put copy into a free slot (signals blocked by the caller). */
static int temp_slot(char *copy)
{
	temp_install();
	for (int i = 0; i < TEMP_MAX; i++) {
		if (!temp_path[i]) {
			temp_path[i] = copy;
			temp_owner[i] = NULL;
			return i;
		}
	}
	return -1;
}

int tool_temp_add(const char *path)
{
	char *copy = strdup(path);
	sigset_t old;
	int h;

	if (!copy)
		return -1;
	temp_block(&old);
	h = temp_slot(copy);
	temp_unblock(&old);
	if (h < 0) {
		free(copy);
		errno = EMFILE;
	}
	return h;
}

int tool_temp_mkdtemp(char *tmpl)
{
	char *copy = strdup(tmpl);
	sigset_t old;
	int h = -1;

	if (!copy)
		return -1;
	temp_block(&old);
	if (mkdtemp(copy)) {
		h = temp_slot(copy);
		if (h < 0) {
			rmdir(copy);
			errno = EMFILE;
		}
	}
	temp_unblock(&old);
	if (h < 0) {
		free(copy);
		return -1;
	}
	strcpy(tmpl, copy);
	return h;
}

const char *tool_temp_path(int h)
{
	return h >= 0 && h < TEMP_MAX ? temp_path[h] : NULL;
}

void tool_temp_forget(int h)
{
	sigset_t old;
	char *p;

	if (h < 0 || h >= TEMP_MAX)
		return;
	temp_block(&old);
	p = temp_path[h];
	temp_path[h] = NULL;
	temp_owner[h] = NULL;
	temp_unblock(&old);
	free(p);
}

int tool_temp_remove(int h)
{
	sigset_t old;
	int err = 0;

	if (h < 0 || h >= TEMP_MAX || !temp_path[h])
		return 0;
	/* A signal now waits for the removal to finish, then finds
	 * nothing left to do. */
	temp_block(&old);
	err = remove_at(AT_FDCWD, temp_path[h], TEMP_DEPTH);
	temp_unblock(&old);
	tool_temp_forget(h);
	errno = err;
	return err ? -1 : 0;
}

void tool_temp_cleanup(void)
{
	for (int i = 0; i < TEMP_MAX; i++)
		tool_temp_remove(i);
}

int tool_bundle_scratch(const char *trace, int *h)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	char *tmpl;

	*h = -1;
	if (stat(trace, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	tmpl = malloc(strlen(tmp) + sizeof "/sibyl-bundle-XXXXXX");
	if (!tmpl) {
		tool_error("out of memory");
		return -1;
	}
	sprintf(tmpl, "%s/sibyl-bundle-XXXXXX", tmp);
	*h = tool_temp_mkdtemp(tmpl);
	if (*h < 0)
		tool_error("cannot create a scratch directory in %s to unpack "
			   "'%s': %s (set TMPDIR to a writable directory with "
			   "room for the unpacked trace)", tmp, trace,
			   strerror(errno));
	free(tmpl);
	return *h < 0 ? -1 : 0;
}

void tool_close_trace(sibt_trace *t)
{
	int h = -1;

	if (!t)
		return;
	for (int i = 0; i < TEMP_MAX; i++)
		if (temp_path[i] && temp_owner[i] == t)
			h = i;
	sibt_trace_close(t);
	tool_temp_remove(h);
}

/* --------------------------------------------------------------- traces */

/* One warning per damage entry: file, reason and what was recovered. */
static void warn_damage(const sibt_trace *t, const char *path,
			const sibt_damage *d)
{
	char name[512], b1[32], b2[32], b3[32], b4[32], b5[32];
	const char *file = d->file ? d->file : "?";
	const char *detail = d->detail ? d->detail : "";
	size_t flen = strlen(file);

	/* The detail normally starts with the file name: say it once. */
	if (strncmp(detail, file, flen) == 0 && detail[flen] == ':')
		detail += flen + 1 + (detail[flen + 1] == ' ');
	/* A bundle's files live in a temporary directory: name them by
	 * the bundle instead. */
	if (sibt_trace_is_bundle(t)) {
		const char *b = strrchr(file, '/');

		snprintf(name, sizeof(name), "%s in %s", b ? b + 1 : file,
			 path);
		file = name;
	}
	if (detail[0]) {
		tool_warn("%s: %s: %s", file, sibt_strerror(d->reason),
			  detail);
		return;
	}
	tool_warn("%s: %s: recovered %s windows, %s SEBs; %s of %s bytes "
		  "valid, %s lost", file, sibt_strerror(d->reason),
		  tool_fmt_count(b1, sizeof(b1), d->windows_recovered),
		  tool_fmt_count(b2, sizeof(b2), d->sebs_recovered),
		  tool_fmt_count(b3, sizeof(b3), d->valid_bytes),
		  tool_fmt_count(b4, sizeof(b4), d->file_bytes),
		  tool_fmt_bytes(b5, sizeof(b5), (double)(d->file_bytes >
						     d->valid_bytes ?
						     d->file_bytes -
						     d->valid_bytes : 0)));
}

sibt_trace *tool_open_trace(const char *path, int flags, int *damaged)
{
	char errbuf[512] = "";
	sibt_trace *t = NULL;
	struct stat st;
	size_t i, n;
	int rc, h;

	*damaged = 0;
	if (stat(path, &st) != 0) {
		tool_error("cannot open trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	/* A bundle is unpacked into a scratch directory that a signal
	 * removes too: registered before the unpacking starts. */
	if (tool_bundle_scratch(path, &h))
		return NULL;
	rc = sibt_trace_open_in(&t, path, flags, tool_temp_path(h), errbuf,
				sizeof(errbuf));
	if (rc >= 0 && t && h >= 0)
		temp_owner[h] = t;
	if (rc < 0 || !t) {
		const char *why = errbuf[0] ? errbuf : sibt_strerror(rc);

		if (strstr(why, path))
			tool_error("cannot open trace: %s", why);
		else
			tool_error("cannot open trace '%s': %s", path, why);
		if (t)
			sibt_trace_close(t);
		tool_temp_remove(h);
		return NULL;
	}
	if (rc == SIBT_WARN) {
		*damaged = 1;
		n = sibt_trace_damage_count(t);
		if (n == 0)
			tool_warn("'%s' is damaged; only part of it could be "
				  "read", path);
		for (i = 0; i < n; i++)
			warn_damage(t, path, sibt_trace_damage(t, i));
	}
	return t;
}

/* ---------------------------------------------------- trace directories */

/* A file name a trace directory (or one being written) may hold. */
/* A file of a trace, or of one being written: the emulator's state files
 * (proc-*.state) stay in a failed run's TRACE.partial. */
static int trace_member(const char *name)
{
	return !fnmatch("MANIFEST*", name, 0) ||
	       !fnmatch("proc-*.sdat*", name, 0) ||
	       !fnmatch("proc-*.state", name, 0);
}

int tool_only_trace_files(const char *dir, char **stranger)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ok = 1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!trace_member(de->d_name)) {
			if (stranger)
				*stranger = strdup(de->d_name);
			ok = 0;
			break;
		}
	}
	closedir(d);
	return ok;
}

int tool_remove_trace_dir(const char *dir, int trace_only)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0, err = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *path;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (trace_only && !trace_member(de->d_name)) {
			err = ENOTEMPTY;
			rc = -1;
			continue;
		}
		path = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!path) {
			err = ENOMEM;
			rc = -1;
			continue;
		}
		sprintf(path, "%s/%s", dir, de->d_name);
		if (unlink(path) != 0) {
			err = errno;
			rc = -1;
		}
		free(path);
	}
	closedir(d);
	if (rc == 0 && rmdir(dir) != 0)
		return -1;
	errno = err;
	return rc;
}

/* --------------------------------------------------- output directories */

/* Largest marker read: a bigger one is not Sibyl's. */
#define MARKER_MAX (16u << 20)

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries Sibyl's marker in dir lists.  Returns 1 with *list (and
 * *buf, which the names point into) set, 0 when dir has no usable marker
 * (*why says what is wrong with it), -1 when out of memory. */
static int marker_read(const char *dir, const char *writer, char ***list,
		       size_t *n, char **buf, const char **why)
{
	char *path = malloc(strlen(dir) + sizeof "/" TOOL_OUT_MARKER);
	char *b = NULL, **v = NULL, *line, *save = NULL;
	size_t len = 0, cap = 0, nv = 0;
	struct stat st;
	int fd = -1, ok = -1, head = 0, same = 0;

	*why = "it carries no " TOOL_OUT_MARKER " marker, so it is not a "
	       "directory Sibyl wrote";
	if (!path)
		return -1;
	sprintf(path, "%s/" TOOL_OUT_MARKER, dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		ok = 0;
		goto out;
	}
	if ((uint64_t)st.st_size > MARKER_MAX) {
		*why = "its " TOOL_OUT_MARKER " marker is too large to be "
		       "Sibyl's";
		ok = 0;
		goto out;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		goto out;
	while (len < (size_t)st.st_size) {
		ssize_t r = read(fd, b + len, (size_t)st.st_size - len);

		if (r <= 0)
			break;
		len += (size_t)r;
	}
	b[len] = '\0';
	for (line = strtok_r(b, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (!head) {
			head = strcmp(line, "sibyl-output 1") == 0;
			if (!head)
				break;
		} else if (strncmp(line, "writer ", 7) == 0) {
			same = strcmp(line + 7, writer) == 0;
		} else if (strncmp(line, "path ", 5) == 0) {
			if (nv == cap) {
				size_t nc = cap ? 2 * cap : 64;
				char **nvp = realloc(v, nc * sizeof *v);

				if (!nvp)
					goto out;
				v = nvp;
				cap = nc;
			}
			v[nv++] = line + 5;
		}
	}
	if (!head) {
		*why = "its " TOOL_OUT_MARKER " marker is not Sibyl's";
		ok = 0;
		goto out;
	}
	if (!same) {
		*why = "it is not an output of this command (see its "
		       TOOL_OUT_MARKER ")";
		ok = 0;
		goto out;
	}
	if (nv)
		qsort(v, nv, sizeof *v, cmp_strp);
	*list = v;
	*n = nv;
	*buf = b;
	v = NULL;
	b = NULL;
	ok = 1;
out:
	if (fd >= 0)
		close(fd);
	free(path);
	free(v);
	free(b);
	return ok;
}

/*
 * Call visit(arg, rel) for every entry under dir (but its marker), rel
 * being the entry's path relative to dir, then descend into it when it
 * is a directory (not through a symbolic link), depth levels at most.
 * Stops at the first nonzero visit, and returns it; -1 when a directory
 * cannot be read (errno set) or is too deep.
 */
static int walk_tree(const char *dir, const char *rel, int depth,
		     int (*visit)(void *arg, char *rel), void *arg)
{
	size_t dl = strlen(dir), rl = strlen(rel);
	char *path = malloc(dl + rl + 2);
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (!path)
		return -1;
	sprintf(path, rl ? "%s/%s" : "%s%s", dir, rel);
	d = opendir(path);
	free(path);
	if (!d)
		return -1;
	while (rc == 0 && (de = readdir(d))) {
		const char *nm = de->d_name;
		char *sub;
		struct stat st;

		if (!strcmp(nm, ".") || !strcmp(nm, "..") ||
		    (!rl && !strcmp(nm, TOOL_OUT_MARKER)))
			continue;
		sub = malloc(rl + strlen(nm) + 2);
		path = malloc(dl + rl + strlen(nm) + 3);
		if (!sub || !path) {
			free(sub);
			free(path);
			rc = -1;
			break;
		}
		sprintf(sub, rl ? "%s/%s" : "%s%s", rel, nm);
		sprintf(path, "%s/%s", dir, sub);
		rc = visit(arg, sub);
		if (rc == 0 && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			rc = depth ? walk_tree(dir, sub, depth - 1, visit, arg)
				   : -1;
		free(sub);
		free(path);
	}
	closedir(d);
	return rc;
}

/* The paths a marker lists, and the first path found that it does not. */
struct listed {
	char **list;
	size_t n;
	char *stranger;
};

static int visit_listed(void *arg, char *rel)
{
	struct listed *l = arg;

	if (bsearch(&rel, l->list, l->n, sizeof *l->list, cmp_strp))
		return 0;
	l->stranger = strdup(rel);
	return 1;
}

/* Why the existing directory dir is not recognisably an output of this
 * kind, or NULL when it is; *stranger gets a malloc'ed copy of the first
 * foreign path found, if any. */
static const char *not_ours(const char *dir, tool_out_kind kind,
			    const char *writer, char **stranger)
{
	const char *why = NULL;
	char **list = NULL, *buf = NULL;
	size_t n = 0;
	DIR *d = opendir(dir);
	int empty = 1, r;

	if (!d)
		return "it cannot be read";
	for (struct dirent *de; empty && (de = readdir(d));)
		empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
	closedir(d);
	if (empty)
		return NULL;	/* nothing to lose */
	if (kind == TOOL_OUT_TRACE) {
		r = tool_only_trace_files(dir, stranger);
		return r == 1 ? NULL : r == 0 ? "it holds files that are not "
		       "part of a trace" : "it cannot be read";
	}
	r = marker_read(dir, writer, &list, &n, &buf, &why);
	if (r < 0)
		return "out of memory";
	if (r == 0)
		return why;
	struct listed l = { list, n, NULL };

	r = walk_tree(dir, "", TEMP_DEPTH - 2, visit_listed, &l);
	*stranger = l.stranger;
	why = r == 0 ? NULL : r == 1 ? "it holds files that Sibyl did not "
	      "write there" : "it cannot be read";
	free(list);
	free(buf);
	return why;
}

/* Is `in' the directory rp or inside it (both real paths)? */
static int path_within(const char *in, const char *rp)
{
	size_t l = strlen(rp);

	if (strcmp(rp, "/") == 0)
		return 1;
	return strncmp(in, rp, l) == 0 && (in[l] == '\0' || in[l] == '/');
}

/* The rule, for an existing path; prints the refusal. */
static int replace_check(const char *path, const struct stat *st,
			 tool_out_kind kind, const char *writer,
			 const char *const *inputs)
{
	char rp[PATH_MAX], other[PATH_MAX], *stranger = NULL;
	const char *why = NULL, *home = getenv("HOME");
	struct stat up;
	char *parent;

	if (!S_ISDIR(st->st_mode)) {
		why = "it is not a directory";
	} else if (!realpath(path, rp)) {
		why = "its real path cannot be resolved";
	} else if (strcmp(rp, "/") == 0) {
		why = "it is the root directory";
	} else if (home && *home && realpath(home, other) &&
		   strcmp(other, rp) == 0) {
		why = "it is your home directory";
	} else if (getcwd(other, sizeof other) && path_within(other, rp)) {
		why = strcmp(other, rp) == 0 ? "it is the working directory" :
		      "it holds the working directory";
	}
	for (size_t i = 0; !why && inputs && inputs[i]; i++)
		if (realpath(inputs[i], other) && path_within(other, rp))
			why = "it holds the input of this command";
	if (!why) {
		/* A mount point cannot be replaced; say so now. */
		parent = malloc(strlen(rp) + 4);
		if (parent) {
			sprintf(parent, "%s/..", rp);
			if (stat(parent, &up) == 0 && up.st_dev != st->st_dev)
				why = "it is a mount point";
			free(parent);
		}
	}
	if (!why)
		why = not_ours(path, kind, writer, &stranger);
	if (!why)
		return 0;
	if (stranger)
		tool_error("not replacing '%s', even with --force: %s (such as "
			   "'%s'); remove it yourself or choose another "
			   "output", path, why, stranger);
	else
		tool_error("not replacing '%s', even with --force: %s; remove "
			   "it yourself or choose another output", path, why);
	free(stranger);
	return TOOL_EXIT_USAGE;
}

int tool_out_check(const char *path, tool_out_kind kind, const char *writer,
		   int force, const char *const *inputs)
{
	struct stat st;

	if (!path[0])
		return tool_usage_error("the output path is empty");
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		tool_error("cannot write '%s': %s", path, strerror(errno));
		return TOOL_EXIT_USAGE;
	}
	if (!force) {
		tool_error("'%s' already exists: choose another output or pass "
			   "--force to replace it", path);
		return TOOL_EXIT_USAGE;
	}
	return replace_check(path, &st, kind, writer, inputs);
}

int tool_out_begin(tool_out *o)
{
	size_t l = strlen(o->path);
	int rc;

	o->handle = -1;
	o->stage = NULL;
	if ((rc = tool_out_check(o->path, o->kind, o->writer, o->force,
				 o->inputs)))
		return rc;
	while (l > 1 && o->path[l - 1] == '/')
		l--;
	o->stage = malloc(l + sizeof ".partial-XXXXXX");
	if (!o->stage) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	sprintf(o->stage, "%.*s.partial-XXXXXX", (int)l, o->path);
	o->handle = tool_temp_mkdtemp(o->stage);
	if (o->handle < 0) {
		tool_error("cannot write '%s': cannot create the directory "
			   "'%s' next to it: %s", o->path, o->stage,
			   strerror(errno));
		free(o->stage);
		o->stage = NULL;
		return TOOL_EXIT_USAGE;
	}
	return 0;
}

/* One line of the marker. */
static int visit_mark(void *arg, char *rel)
{
	return fprintf(arg, "path %s\n", rel) < 0 ? -1 : 0;
}

static int marker_write(const tool_out *o)
{
	char *path = malloc(strlen(o->stage) + sizeof "/" TOOL_OUT_MARKER);
	FILE *f;
	int rc;

	if (!path)
		return -1;
	sprintf(path, "%s/" TOOL_OUT_MARKER, o->stage);
	f = fopen(path, "w");
	free(path);
	if (!f)
		return -1;
	fprintf(f, "# Written by %s.  '--force' replaces this directory only "
		"while it holds\n# nothing but the paths listed here.\n"
		"sibyl-output 1\nwriter %s\n", o->writer, o->writer);
	/* Every entry the stage holds. */
	rc = walk_tree(o->stage, "", TEMP_DEPTH - 2, visit_mark, f);
	if (fclose(f))
		rc = -1;
	return rc;
}

/* Move the staged directory to o->path (replacing what is there when
 * force): atomically exchanged when the system can, the old one removed
 * after. */
static int out_swap(tool_out *o, int exists)
{
	if (!exists) {
		if (renameat2(AT_FDCWD, o->stage, AT_FDCWD, o->path,
			      RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return -1;
		return rename(o->stage, o->path);
	}
	if (renameat2(AT_FDCWD, o->stage, AT_FDCWD, o->path,
		      RENAME_EXCHANGE) == 0)
		return 0;	/* the stage now holds the old output */
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* No exchange here: the old output aside, then ours in place. */
	size_t l = strlen(o->stage);
	char *old = malloc(l + sizeof "-old");
	int rc = -1;

	if (!old)
		return -1;
	sprintf(old, "%s-old", o->stage);
	if (rename(o->path, old) == 0) {
		if (rename(o->stage, o->path) == 0) {
			rc = rename(old, o->stage);
		} else {
			int e = errno;

			rename(old, o->path);
			errno = e;
		}
	}
	free(old);
	return rc;
}

int tool_out_commit(tool_out *o)
{
	char *parent = strdup(o->path);
	int lock = -1, rc = TOOL_EXIT_USAGE, exists;
	struct stat st;
	sigset_t old;

	if (!parent) {
		tool_error("out of memory");
		return TOOL_EXIT_USAGE;
	}
	if (o->kind == TOOL_OUT_MARKED && marker_write(o) != 0) {
		tool_error("cannot write '%s/%s': %s", o->stage,
			   TOOL_OUT_MARKER, strerror(errno));
		free(parent);
		return TOOL_EXIT_USAGE;
	}
	/* Commits into one directory take turns: the check below and the
	 * move are one step for concurrent runs on the same output. */
	lock = open(dirname(parent), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0)
		while (flock(lock, LOCK_EX) != 0 && errno == EINTR)
			;
	temp_block(&old);
	exists = lstat(o->path, &st) == 0;
	if (exists && !o->force)
		tool_error("'%s' appeared while this run was going (another "
			   "run?): not replacing it; pass --force to replace "
			   "it", o->path);
	else if (exists && replace_check(o->path, &st, o->kind, o->writer,
					 o->inputs))
		;
	else if (out_swap(o, exists) != 0)
		tool_error("cannot move the output into '%s': %s", o->path,
			   strerror(errno));
	else
		rc = 0;
	if (rc == 0 && exists) {
		/* The old output now sits where the stage was. */
		int e = remove_at(AT_FDCWD, o->stage, TEMP_DEPTH);

		if (e)
			tool_warn("could not remove the replaced output, now "
				  "'%s': %s", o->stage, strerror(e));
	}
	if (rc == 0 || o->handle < 0) {
		tool_temp_forget(o->handle);
	} else {
		/* Complete results: keep them rather than lose them. */
		tool_temp_forget(o->handle);
		tool_error("the complete output is kept in '%s'", o->stage);
	}
	o->handle = -1;
	temp_unblock(&old);
	if (lock >= 0)
		close(lock);
	free(parent);
	return rc;
}

void tool_out_abort(tool_out *o)
{
	if (o->handle >= 0)
		tool_temp_remove(o->handle);
	o->handle = -1;
}

void tool_out_free(tool_out *o)
{
	tool_out_abort(o);
	free(o->stage);
	o->stage = NULL;
}

