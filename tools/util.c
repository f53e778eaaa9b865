/*
 * util.c -- shared helpers of the `sibyl' driver: messages, number and
 * range parsing, formatting, JSON strings, the progress bar, opening a
 * trace with the tools' error conventions and replacing trace
 * directories.  See tools.h.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>	/* isfinite */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	return EXIT_USAGE;
}

/* ------------------------------------------------------------- numbers */

/*
 * A non-negative decimal "123" or "1.25", split into an exact integer
 * mantissa and a count of fractional digits: value = mant / 10^frac.
 * Returns a pointer past the number, or NULL when there is none or it has
 * more than 24 digits (so that mantissa times any unit fits 128 bits).
 */
static const char *scan_decimal(const char *s, int allow_frac,
				unsigned __int128 *mant, unsigned *frac)
{
	const char *p = s;
	unsigned __int128 m = 0;
	unsigned nd = 0, f = 0;

	while (*p >= '0' && *p <= '9') {
		m = m * 10 + (unsigned)(*p - '0');
		if (++nd > 24)
			return NULL;
		p++;
	}
	if (allow_frac && *p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			m = m * 10 + (unsigned)(*p - '0');
			f++;
			if (++nd > 24)
				return NULL;
			p++;
		}
	}
	if (nd == 0)
		return NULL;
	*mant = m;
	*frac = f;
	return p;
}

static unsigned __int128 pow10_u128(unsigned n)
{
	unsigned __int128 v = 1;

	while (n--)
		v *= 10;
	return v;
}

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit count_units[] = {
	{ "", 1 },
	{ "k", 1000ULL }, { "K", 1000ULL },
	{ "M", 1000000ULL }, { "G", 1000000000ULL },
	{ "T", 1000000000000ULL },
	{ "Ki", 1ULL << 10 }, { "Mi", 1ULL << 20 },
	{ "Gi", 1ULL << 30 }, { "Ti", 1ULL << 40 },
	{ NULL, 0 }
};

static const struct unit size_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "k", 1000ULL }, { "K", 1000ULL },
	{ "kB", 1000ULL }, { "KB", 1000ULL },
	{ "M", 1000000ULL }, { "MB", 1000000ULL },
	{ "G", 1000000000ULL }, { "GB", 1000000000ULL },
	{ "T", 1000000000000ULL }, { "TB", 1000000000000ULL },
	{ "Ki", 1ULL << 10 }, { "KiB", 1ULL << 10 },
	{ "Mi", 1ULL << 20 }, { "MiB", 1ULL << 20 },
	{ "Gi", 1ULL << 30 }, { "GiB", 1ULL << 30 },
	{ "Ti", 1ULL << 40 }, { "TiB", 1ULL << 40 },
	{ NULL, 0 }
};

static const struct unit time_units[] = {
	{ "ps", 1 },
	{ "ns", 1000ULL },
	{ "us", 1000000ULL }, { "\xc2\xb5s", 1000000ULL },
	{ "ms", 1000000000ULL },
	{ "s", 1000000000000ULL },
	{ NULL, 0 }
};

static const struct unit *find_unit(const struct unit *u, const char *name)
{
	for (; u->name; u++)
		if (strcmp(u->name, name) == 0)
			return u;
	return NULL;
}

int parse_u64(const char *what, const char *s, uint64_t *out)
{
	unsigned __int128 m, v;
	unsigned frac;
	const struct unit *u;
	const char *end = scan_decimal(s, 0, &m, &frac);

	if (!end || *end == '.') {
		tool_error("%s: '%s' is not a non-negative integer "
			   "(e.g. 1000, 64k, 1Mi)", what, s);
		return -1;
	}
	u = find_unit(count_units, end);
	if (!u) {
		tool_error("%s: unknown suffix '%s' in '%s' "
			   "(use k, M, G, T or Ki, Mi, Gi, Ti)", what, end, s);
		return -1;
	}
	v = m * u->mult;
	if (v > UINT64_MAX) {
		tool_error("%s: '%s' is too large", what, s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int parse_size(const char *what, const char *s, uint64_t *out)
{
	unsigned __int128 m, v, div;
	unsigned frac;
	const struct unit *u;
	const char *end = scan_decimal(s, 1, &m, &frac);

	if (!end) {
		tool_error("%s: '%s' is not a size (e.g. 512, 4kB, 2KiB, "
			   "1.5MiB)", what, s);
		return -1;
	}
	u = find_unit(size_units, end);
	if (!u) {
		tool_error("%s: unknown size unit '%s' in '%s' (use B, kB, MB, "
			   "GB, TB or KiB, MiB, GiB, TiB)", what, end, s);
		return -1;
	}
	div = pow10_u128(frac);
	v = m * u->mult;
	if (v % div != 0) {
		tool_error("%s: '%s' is not a whole number of bytes", what, s);
		return -1;
	}
	v /= div;
	if (v > UINT64_MAX) {
		tool_error("%s: '%s' is too large", what, s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int parse_time(const char *what, const char *s, const char *default_unit,
	       sibt_time *out)
{
	unsigned __int128 m, v, div;
	unsigned frac;
	const struct unit *u;
	const char *end = scan_decimal(s, 1, &m, &frac);

	if (!end) {
		tool_error("%s: '%s' is not a time (e.g. 100ns, 2.5us, 1ms)",
			   what, s);
		return -1;
	}
	u = find_unit(time_units, *end ? end : default_unit);
	if (!u) {
		if (*end)
			tool_error("%s: unknown time unit '%s' in '%s' "
				   "(use ps, ns, us, ms or s)", what, end, s);
		else
			tool_error("%s: '%s' needs a unit (ps, ns, us, ms or "
				   "s)", what, s);
		return -1;
	}
	/* Round to the nearest picosecond. */
	div = pow10_u128(frac);
	v = (m * u->mult + div / 2) / div;
	if (v > INT64_MAX) {
		tool_error("%s: '%s' is too large (the limit is about 106 "
			   "days)", what, s);
		return -1;
	}
	*out = (sibt_time)v;
	return 0;
}

int parse_double(const char *what, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0') {
		tool_error("%s: '%s' is not a number", what, s);
		return -1;
	}
	if (errno == ERANGE || !isfinite(v)) {
		tool_error("%s: '%s' is out of range", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* -------------------------------------------------------------- ranges */

struct span {
	uint64_t lo, hi;
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->hi > y->hi) - (x->hi < y->hi);
}

/* A plain decimal number at *p; advances *p.  -1 when there is none. */
static int scan_plain(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
		s++;
	}
	*p = s;
	*v = x;
	return 0;
}

int range_parse(const char *what, const char *s, uint64_t limit,
		range_list *out)
{
	struct span *sp = NULL;
	size_t n = 0, cap = 0, i, m;
	const char *p = s;

	out->n = 0;
	out->r = NULL;
	if (limit == 0) {
		tool_error("%s: '%s' selects nothing: there are no items to "
			   "select", what, s);
		return -1;
	}
	if (strcmp(s, "all") == 0) {
		out->r = malloc(sizeof(*out->r));
		if (!out->r)
			goto nomem;
		out->r[0].lo = 0;
		out->r[0].hi = limit - 1;
		out->n = 1;
		return 0;
	}
	for (;;) {
		uint64_t lo, hi;
		const char *item = p;

		if (scan_plain(&p, &lo) < 0)
			goto syntax;
		hi = lo;
		if (*p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				hi = limit - 1;	/* open end: "5-" */
			else if (scan_plain(&p, &hi) < 0)
				goto syntax;
		}
		if (*p != ',' && *p != '\0')
			goto syntax;
		if (lo > hi) {
			tool_error("%s: '%.*s'%s%s%s is an empty range (start "
				   "after end)", what, (int)(p - item), item,
				   item == s && !*p ? "" : " in '",
				   item == s && !*p ? "" : s,
				   item == s && !*p ? "" : "'");
			goto fail;
		}
		if (hi >= limit) {
			tool_error("%s: %" PRIu64 "%s%s%s is out of range "
				   "(valid: 0-%" PRIu64 ")", what, hi,
				   item == s && !*p ? "" : " in '",
				   item == s && !*p ? "" : s,
				   item == s && !*p ? "" : "'", limit - 1);
			goto fail;
		}
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct span *nsp = realloc(sp, ncap * sizeof(*sp));

			if (!nsp)
				goto nomem;
			sp = nsp;
			cap = ncap;
		}
		sp[n].lo = lo;
		sp[n].hi = hi;
		n++;
		if (*p == '\0')
			break;
		p++;
	}

	qsort(sp, n, sizeof(*sp), span_cmp);
	for (i = 1, m = 0; i < n; i++) {
		if (sp[i].lo <= sp[m].hi ||
		    (sp[m].hi != UINT64_MAX && sp[i].lo == sp[m].hi + 1)) {
			if (sp[i].hi > sp[m].hi)
				sp[m].hi = sp[i].hi;
		} else {
			sp[++m] = sp[i];
		}
	}
	m++;
	out->r = malloc(m * sizeof(*out->r));
	if (!out->r)
		goto nomem;
	for (i = 0; i < m; i++) {
		out->r[i].lo = sp[i].lo;
		out->r[i].hi = sp[i].hi;
	}
	out->n = m;
	free(sp);
	return 0;

syntax:
	tool_error("%s: cannot parse '%s' at position %zu: expected a list "
		   "like 0-15,32,40- or 'all'", what, s, (size_t)(p - s) + 1);
	goto fail;
nomem:
	tool_error("%s: out of memory", what);
fail:
	free(sp);
	return -1;
}

int range_contains(const range_list *rl, uint64_t v)
{
	size_t lo = 0, hi = rl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v < rl->r[mid].lo)
			hi = mid;
		else if (v > rl->r[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

void range_free(range_list *rl)
{
	free(rl->r);
	rl->r = NULL;
	rl->n = 0;
}

/* ---------------------------------------------------------- formatting */

char *fmt_bytes(char *buf, size_t len, double bytes)
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

char *fmt_time(char *buf, size_t len, sibt_time ps)
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

char *fmt_count(char *buf, size_t len, uint64_t n)
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

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		k = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		k = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		k = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return k;
}

void json_string(FILE *f, const char *s, size_t len)
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
		k = utf8_len(p + i, len - i);
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
		k = utf8_len(p + i, n - i);
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

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_draw(const progress *p, uint64_t done)
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

void progress_begin(progress *p, const char *label, uint64_t total, int quiet)
{
	p->active = !quiet && isatty(STDERR_FILENO);
	p->label = label;
	p->total = total;
	p->last = 0;
	if (p->active) {
		progress_draw(p, 0);
		p->last = now_seconds();
	}
}

void progress_update(progress *p, uint64_t done)
{
	double t;

	if (!p->active)
		return;
	t = now_seconds();
	if (t - p->last < 0.2)
		return;
	p->last = t;
	progress_draw(p, done);
}

void progress_end(progress *p)
{
	if (!p->active)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->active = 0;
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
		  fmt_count(b1, sizeof(b1), d->windows_recovered),
		  fmt_count(b2, sizeof(b2), d->sebs_recovered),
		  fmt_count(b3, sizeof(b3), d->valid_bytes),
		  fmt_count(b4, sizeof(b4), d->file_bytes),
		  fmt_bytes(b5, sizeof(b5), (double)(d->file_bytes >
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
	int rc;

	*damaged = 0;
	if (stat(path, &st) != 0) {
		tool_error("cannot open trace '%s': %s", path, strerror(errno));
		return NULL;
	}
	rc = sibt_trace_open(&t, path, flags, errbuf, sizeof(errbuf));
	if (rc < 0 || !t) {
		const char *why = errbuf[0] ? errbuf : sibt_strerror(rc);

		if (strstr(why, path))
			tool_error("cannot open trace: %s", why);
		else
			tool_error("cannot open trace '%s': %s", path, why);
		if (t)
			sibt_trace_close(t);
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
static int trace_member(const char *name)
{
	return !fnmatch("MANIFEST*", name, 0) ||
	       !fnmatch("proc-*.sdat*", name, 0);
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

uint64_t tool_peak_rss(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_maxrss * 1024; /* Linux reports KiB */
}
