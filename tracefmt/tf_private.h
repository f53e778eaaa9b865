/*
 * tf_private.h -- internals shared by the files of libsibyl-trace.
 * Nothing here is installed or exported.
 */
#ifndef SIBYL_TF_PRIVATE_H
#define SIBYL_TF_PRIVATE_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "sibyl_trace.h"

/* Sizes of the fixed structures of FORMAT.md section 4. */
#define TF_HDR_SIZE 64
#define TF_WIN_HDR_MIN 22 /* tag, length, nine 1-byte varints, two CRCs */
#define TF_WIN_HDR_MAX 64
#define TF_DICT_HDR 16
#define TF_DICT_SIZE 1024   /* preset deflate dictionary per data file */
#define TF_DEFLATE_MEMLEVEL 4 /* see compress_payload() in tf_writer.c */
#define TF_STR_HDR 24
#define TF_IDX_HDR 36
#define TF_TRAILER 32
#define TF_MAGIC "SIBYLDAT"
#define TF_BOM 0x01020304u
#define TF_MANIFEST "MANIFEST"

/* SEB record flags (FORMAT.md section 5). */
#define TF_F_PREDS 1u
#define TF_F_WAITS 2u
#define TF_F_SENDS 4u
#define TF_F_PRINTS 8u
#define TF_F_MARKS 16u
#define TF_F_REGION 32u   /* format 1.1 */
#define TF_F_RAW 64u      /* format 1.1 */
#define TF_F_POSTED 128u  /* format 1.2 */
#define TF_F_DONE 256u    /* format 1.2 */
#define TF_F_ALL 511u

/* Upper bound on one window's uncompressed payload (FORMAT.md 4.2); the
 * writer closes a window early when it reaches half of it. */
#define TF_MAX_RAW (1u << 28)
/* Deflate expands n bytes into at most about 1032 n (258-byte matches at
 * two bits each): a larger raw_len for a stored_len is forged. */
#define TF_MAX_INFLATE 1032u

/* Internal invariant check: prints file:line and aborts. */
#define TF_ASSERT(c) do { if (!(c)) tf_assert_fail(__FILE__, __LINE__, #c); \
	} while (0)
void tf_assert_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

/* ------------------------------------------------- little-endian access */

static inline void tf_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void tf_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void tf_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t tf_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t tf_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t tf_get64(const uint8_t *p)
{
	return (uint64_t)tf_get32(p) | (uint64_t)tf_get32(p + 4) << 32;
}

/* ------------------------------------------------------ growable buffer */

typedef struct tf_buf {
	uint8_t *p;
	size_t len, cap;
} tf_buf;

int tf_buf_reserve(tf_buf *b, size_t extra);  /* 0 or SIBT_ENOMEM */
void tf_buf_free(tf_buf *b);
int tf_buf_put(tf_buf *b, const void *data, size_t len);
int tf_buf_varint(tf_buf *b, uint64_t v);
int tf_buf_svarint(tf_buf *b, int64_t v);

/* Write v as a varint at p (room for 10 bytes); returns bytes written. */
static inline size_t tf_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline uint64_t tf_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t tf_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Bounds-checked decoder over a byte range; `bad' is sticky. */
typedef struct tf_rd {
	const uint8_t *p, *end;
	int bad;
} tf_rd;

uint64_t tf_rd_varint_slow(tf_rd *r);

/* Most values in a payload fit one or two bytes: decode those inline. */
static inline uint64_t tf_rd_varint(tf_rd *r)
{
	const uint8_t *p = r->p;
	if (r->end - p >= 2) {
		if (!(p[0] & 0x80)) {
			r->p = p + 1;
			return p[0];
		}
		if (!(p[1] & 0x80)) {
			r->p = p + 2;
			return (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		}
	}
	return tf_rd_varint_slow(r);
}

static inline int64_t tf_rd_svarint(tf_rd *r)
{
	return tf_unzigzag(tf_rd_varint(r));
}

/* --------------------------------------------------------- the codec */

/* Append the record of one SEB (already validated) to b. */
/* seq0: the sequence number of the SEB's first send (the PE's sends
 * before it), against which its completed sends are stored. */
int tf_encode_seb(tf_buf *b, const sibt_seb *s, uint32_t name_id,
		  uint32_t region_id,
		  uint32_t pe, uint64_t index, uint64_t seq0);

/* Context needed to decode a window payload. */
typedef struct tf_wctx {
	uint32_t pe, npes, nsebs, nsends;
	uint64_t first_seb, first_seq;
	const char *const *names;
	uint32_t nnames;
} tf_wctx;

/* Decode raw payload into win; on error returns SIBT_EFORMAT and writes
 * the reason (with the SEB position) into err. */
int tf_decode_window(sibt_window *win, const uint8_t *raw, size_t len,
		     const tf_wctx *ctx, char *err, size_t errlen);

/* Decode one record in two parts starting at raw[*pos] (advanced past
 * what was read); the lists go into win (its previous head, resp. body,
 * lists are dropped).  ctx gives pe, npes and the names. */
int tf_packed_head(sibt_window *win, const uint8_t *raw, size_t len,
		   size_t *pos, const tf_wctx *ctx, uint64_t index,
		   uint64_t seq0, sibt_seb *s, uint32_t *flags,
		   uint32_t *name_id, char *err, size_t errlen);
int tf_packed_body(sibt_window *win, const uint8_t *raw, size_t len,
		   size_t *pos, const tf_wctx *ctx, uint64_t seq0,
		   uint32_t flags, sibt_seb *s, char *err, size_t errlen);

/* Buffers of a window reused by the reader: the stored and raw payload. */
tf_buf *tf_window_stored(sibt_window *win);
tf_buf *tf_window_raw(sibt_window *win);

/* ------------------------------------------------------- the manifest */

typedef struct tf_kv {
	char *key, *value;
} tf_kv;

/* Entries in file order, and a hash table of indices + 1 (0: empty). */
typedef struct tf_manifest {
	tf_kv *kv;
	size_t n, cap;
	size_t *slot, nslot;
} tf_manifest;

/* Unpacking a bundle writes at most TF_BUNDLE_RATIO bytes per bundle byte
 * read so far, or TF_BUNDLE_FLOOR bytes if that is more (FORMAT.md 2). */
#define TF_BUNDLE_FLOOR (64u << 20)
#define TF_BUNDLE_RATIO 256u

/* Limits of a manifest (FORMAT.md section 3). */
#define TF_MANIFEST_MAX_BYTES (16u << 20)
#define TF_MANIFEST_MAX_LINE (1u << 20)
#define TF_MANIFEST_MAX_KEYS (1u << 18)

/* Parse len bytes of manifest text (`name' in messages); on error returns
 * SIBT_EMANIFEST with a message naming name:line and *m empty. */
int tf_manifest_parse(tf_manifest *m, const char *text, size_t len,
		      const char *name, char *err, size_t errlen);
/* Read the regular file `path' and parse it; on error returns
 * SIBT_EMANIFEST/EIO with a message naming the file and line. */
int tf_manifest_read(tf_manifest *m, const char *path, char *err,
		     size_t errlen);
const char *tf_manifest_get(const tf_manifest *m, const char *key);
int tf_manifest_set(tf_manifest *m, const char *key, const char *value);
/* The manifest's text into out (emptied first); SIBT_EINVAL, with a
 * message, for an entry beyond the limits. */
int tf_manifest_format(const tf_manifest *m, tf_buf *out, char *err,
		       size_t errlen);
/* Write atomically (tmp + rename). */
int tf_manifest_write(const tf_manifest *m, const char *path, char *err,
		      size_t errlen);
void tf_manifest_free(tf_manifest *m);

/* ------------------------------------------------------------ misc */

/* Copy at most `max' bytes of s into dst (dstlen bytes, NUL-terminated)
 * for an error message: control characters and bytes that are not
 * printable ASCII as \xNN, a cut marked "...". Returns dst. */
char *tf_escape(char *dst, size_t dstlen, const char *s, size_t max);

/* snprintf into err (if not NULL) and return code. */
int tf_fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Read exactly len bytes at off; returns bytes read (short at EOF) or -1. */
long long tf_pread_full(int fd, void *buf, size_t len, uint64_t off);
/* Write all; 0 or -1 (errno set). */
int tf_write_full(int fd, const void *buf, size_t len);

/* Remove a directory tree made of plain files (bundle scratch dirs). */
void tf_rmtree(const char *dir);

/* Build path "dir/name" into a malloc'ed string (NULL on ENOMEM). */
char *tf_path_join(const char *dir, const char *name);

#endif /* SIBYL_TF_PRIVATE_H */
