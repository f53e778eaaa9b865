/*
 * tf_util.c -- small pieces shared by the trace library: error strings,
 * buffers, varints, file I/O helpers.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tf_private.h"

void tf_assert_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "libsibyl-trace: internal error at %s:%d: %s\n",
		file, line, what);
	abort();
}

const char *sibt_strerror(int err)
{
	switch (err) {
	case SIBT_OK: return "success";
	case SIBT_WARN: return "success with damage: part of the trace was lost";
	case SIBT_EINVAL: return "invalid argument";
	case SIBT_ENOMEM: return "out of memory";
	case SIBT_EIO: return "input/output error";
	case SIBT_EMAGIC: return "not a Sibyl trace (bad magic number)";
	case SIBT_EVERSION: return "unsupported trace format version or byte order";
	case SIBT_ECRC: return "checksum mismatch: data corrupted";
	case SIBT_ETRUNC: return "file truncated";
	case SIBT_EFORMAT: return "invalid trace content";
	case SIBT_EMANIFEST: return "manifest missing, invalid or inconsistent";
	case SIBT_ENOENT: return "no such PE, window or file in the trace";
	case SIBT_EARCHIVE: return "bundle (archive) error";
	}
	return "unknown error";
}

int tf_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

int tf_buf_reserve(tf_buf *b, size_t extra)
{
	if (b->cap - b->len >= extra)
		return 0;
	size_t cap = b->cap ? b->cap : 64;
	while (cap - b->len < extra) {
		if (cap > SIZE_MAX / 2)
			return SIBT_ENOMEM;
		cap *= 2;
	}
	uint8_t *p = realloc(b->p, cap);
	if (!p)
		return SIBT_ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

void tf_buf_free(tf_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

int tf_buf_put(tf_buf *b, const void *data, size_t len)
{
	if (tf_buf_reserve(b, len))
		return SIBT_ENOMEM;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

int tf_buf_varint(tf_buf *b, uint64_t v)
{
	if (tf_buf_reserve(b, 10))
		return SIBT_ENOMEM;
	uint8_t *p = b->p + b->len;
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	b->len = (size_t)(p - b->p);
	return 0;
}

int tf_buf_svarint(tf_buf *b, int64_t v)
{
	return tf_buf_varint(b, tf_zigzag(v));
}

uint64_t tf_rd_varint_slow(tf_rd *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		uint8_t c = *r->p++;
		/* The tenth byte may only carry the top bit of a 64-bit value. */
		if (shift == 63 && c > 1) {
			r->bad = 1;
			return 0;
		}
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

long long tf_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (long long)done;
}

int tf_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

char *tf_escape(char *dst, size_t dstlen, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i;

	if (!dstlen)
		return dst;
	for (i = 0; s[i] && i < max; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (n + 1 >= dstlen)
				break;
			dst[n++] = (char)c;
		} else {
			if (n + 4 >= dstlen)
				break;
			dst[n++] = '\\';
			dst[n++] = 'x';
			dst[n++] = hex[c >> 4];
			dst[n++] = hex[c & 15];
		}
	}
	if (s[i] && n + 3 < dstlen) {
		memcpy(dst + n, "...", 3);
		n += 3;
	}
	dst[n] = 0;
	return dst;
}

char *tf_path_join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

void tf_rmtree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *p = tf_path_join(dir, e->d_name);
			if (p && unlink(p) != 0 && errno == EISDIR)
				tf_rmtree(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

const char *sibt_corr_name(uint32_t reason)
{
	switch (reason) {
	case SIBT_CORR_NONE:
		return "none";
	case SIBT_CORR_OFFCPU:
		return "off-cpu";
	case SIBT_CORR_OUTLIER:
		return "outlier";
	case SIBT_CORR_FAULTS:
		return "page-faults";
	case SIBT_CORR_COLD:
		return "cold";
	}
	return "unknown";
}
