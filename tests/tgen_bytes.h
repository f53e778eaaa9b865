/*
 * tgen_bytes.h -- the bytes of written trace files, for the tracefmt
 * tests (header only).
 *
 * File helpers, and a walker over the frames of a data file written from
 * FORMAT.md alone, used to corrupt files at precise places: little-endian
 * fields and CRCs, varints, WIND headers (parsed, and built with any
 * padding or gap), the frames of a file, CRC repair after a mutation, and
 * splicing bytes in or out with the file's index kept right.
 *
 * Kept apart from the model generator (tgen.h), which it uses for its
 * allocators: some tests need only the models, and the corruption tests
 * and fuzz targets mostly these bytes.
 */
#ifndef SIBYL_TGEN_BYTES_H
#define SIBYL_TGEN_BYTES_H

#include <sys/stat.h>

#include <zlib.h>

#include "tgen.h"

/* --------------------------------------------------------------- files */

/* Whole file into a malloc'ed buffer; NULL on error. */
static inline uint8_t *tg_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;
	*len = 0;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = tg_xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static inline int tg_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	if (len && fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

static inline int tg_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static inline uint64_t tg_file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* "dir/name" in a static rotating buffer (4 slots). */
static inline const char *tg_path(const char *dir, const char *name)
{
	static char buf[4][8448];
	static int slot;
	char *b = buf[slot++ & 3];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

static inline const char *tg_datafile(const char *dir, uint32_t proc)
{
	char name[64];
	sibt_datafile_name(name, sizeof name, proc);
	return tg_path(dir, name);
}

/* ------------------------------------------------- frames of a data file */

static inline uint32_t tg_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t tg_le64(const uint8_t *p)
{
	return (uint64_t)tg_le32(p) | (uint64_t)tg_le32(p + 4) << 32;
}

static inline void tg_put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint32_t tg_crc(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32(0L, p, (uInt)n);
}

#define TG_HDR 64
#define TG_WIN_HDR_MIN 22        /* FORMAT.md 4.2: 22 <= H <= 64 */
#define TG_WIN_HDR_MAX 64
#define TG_WIN_BUILD_MAX 128     /* room for any header tg_wind_build makes */
#define TG_DICT_HDR 16
#define TG_DICT_MAX 32768
#define TG_MAX_RAW (1u << 28)

/* ------------------------------------------------ varints (FORMAT.md 5) */

/* Number of bytes of the minimal LEB128 encoding of v. */
static inline size_t tg_varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Write v as exactly n LEB128 bytes (n >= tg_varint_len(v), n <= 10):
 * minimal when n is tg_varint_len(v), else padded with continuation
 * bytes (0x80 ... 0x00), which FORMAT.md does not forbid. */
static inline size_t tg_varint_put_n(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		p[i] = (uint8_t)((v & 0x7f) | (i + 1 < n ? 0x80 : 0));
		v >>= 7;
	}
	return n;
}

static inline size_t tg_varint_put(uint8_t *p, uint64_t v)
{
	return tg_varint_put_n(p, v, tg_varint_len(v));
}

/* Read a varint of at most 10 bytes from *p (< end); 0, or -1 when it runs
 * past end, is longer than 10 bytes or overflows 64 bits. */
static inline int tg_varint_get(const uint8_t **p, const uint8_t *end,
				uint64_t *v)
{
	uint64_t x = 0;
	for (int i = 0; i < 10; i++) {
		if (*p >= end)
			return -1;
		uint8_t c = *(*p)++;
		if (i == 9 && c > 1)
			return -1;
		x |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* ---------------------------------------- WIND headers (FORMAT.md 4.2) */

/* The nine varint fields of a WIND header, in file order. */
enum {
	TG_W_PE, TG_W_WINDOW, TG_W_NSEBS, TG_W_FIRST_SEB, TG_W_FIRST_SEQ,
	TG_W_NSENDS, TG_W_RAW, TG_W_STORED, TG_W_METHOD, TG_W_NFIELDS
};

typedef struct tg_wind {
	unsigned hlen;                  /* H, the header length */
	uint64_t f[TG_W_NFIELDS];
	uint32_t pcrc, hcrc;            /* as stored at H-8 and H-4 */
} tg_wind;

/* Parse the structure of the WIND header at p (avail bytes there): tag,
 * 22 <= H <= 64, H bytes present, nine varints ending exactly at H-8.
 * CRCs are not verified (they are returned in w).  0, or -1. */
static inline int tg_wind_parse(const uint8_t *p, size_t avail, tg_wind *w)
{
	memset(w, 0, sizeof *w);
	if (avail < 5 || memcmp(p, "WIND", 4))
		return -1;
	size_t h = p[4];
	if (h < TG_WIN_HDR_MIN || h > TG_WIN_HDR_MAX || avail < h)
		return -1;
	const uint8_t *q = p + 5, *end = p + h - 8;
	for (int i = 0; i < TG_W_NFIELDS; i++)
		if (tg_varint_get(&q, end, &w->f[i]))
			return -1;
	if (q != end)
		return -1;
	w->hlen = (unsigned)h;
	w->pcrc = tg_le32(p + h - 8);
	w->hcrc = tg_le32(p + h - 4);
	return 0;
}

/*
 * Build a WIND header into h (TG_WIN_BUILD_MAX bytes of room) from the
 * nine fields f and the payload CRC pcrc; its header CRC is computed.
 * The varints are minimal unless pad_to (0: no padding) asks for a longer
 * header: they are then lengthened with continuation bytes, first field
 * first, until H = pad_to.  gap > 0 puts that many zero bytes between the
 * varints and the payload CRC; gap < 0 makes H that many bytes shorter
 * than the varints need (they then run into the CRC fields).  The length
 * byte and both CRCs follow the claimed H, so such headers verify but
 * break the rule that the varints end exactly at H-8.  Returns H, or 0
 * when pad_to cannot be reached.  H is not checked against 22..64.
 */
static inline size_t tg_wind_build(uint8_t *h, const uint64_t f[TG_W_NFIELDS],
				   uint32_t pcrc, size_t pad_to, int gap)
{
	size_t len[TG_W_NFIELDS], v = 0;
	for (int i = 0; i < TG_W_NFIELDS; i++)
		v += len[i] = tg_varint_len(f[i]);
	if (gap > 16 || gap < -8)
		return 0;
	if (pad_to) {
		if ((long)pad_to - 13 - gap < (long)v)
			return 0;
		size_t extra = (size_t)((long)pad_to - 13 - gap) - v;
		for (int i = 0; i < TG_W_NFIELDS && extra; i++) {
			size_t add = 10 - len[i] < extra ? 10 - len[i] : extra;
			len[i] += add;
			v += add;
			extra -= add;
		}
		if (extra)
			return 0;
	}
	size_t n = 5;
	memcpy(h, "WIND", 4);
	for (int i = 0; i < TG_W_NFIELDS; i++)
		n += tg_varint_put_n(h + n, f[i], len[i]);
	for (int i = 0; i < gap; i++)
		h[n++] = 0;
	n = (size_t)((long)n + (gap < 0 ? gap : 0)) + 8;
	h[4] = (uint8_t)n;
	tg_put32(h + n - 8, pcrc);
	tg_put32(h + n - 4, tg_crc(h, n - 4));
	return n;
}

/* ------------------------------------------------- the frame walker */

/* One frame as seen by FORMAT.md section 4 (no CRC verification). */
typedef struct tg_frame {
	char tag[5];            /* "WIND", "STRS", "DICT", "INDX", "TEND" */
	uint64_t off, len;      /* whole frame, header included */
	uint64_t hdr;           /* header length (H for a WIND frame) */
	uint32_t pe, window, nsebs; /* WIND only */
	uint32_t nsends, method;    /* WIND only */
	uint64_t raw, stored;       /* WIND only: payload lengths */
} tg_frame;

/* Split buf into frames, starting after the header.  Stops at the first
 * unknown tag, a WIND header whose structure is wrong (tg_wind_parse) or
 * a frame running past the end; returns the number of frames stored (at
 * most max) and in *end where parsing stopped. */
static inline size_t tg_frames(const uint8_t *buf, size_t len, tg_frame *out,
			       size_t max, uint64_t *end)
{
	uint64_t off = TG_HDR;
	size_t n = 0;
	while (off + 4 <= len) {
		const uint8_t *p = buf + off;
		uint64_t plen;
		tg_frame f;
		memset(&f, 0, sizeof f);
		memcpy(f.tag, p, 4);
		f.off = off;
		if (!memcmp(p, "WIND", 4)) {
			tg_wind w;
			if (tg_wind_parse(p, len - off, &w))
				break;
			f.hdr = w.hlen;
			f.pe = (uint32_t)w.f[TG_W_PE];
			f.window = (uint32_t)w.f[TG_W_WINDOW];
			f.nsebs = (uint32_t)w.f[TG_W_NSEBS];
			f.nsends = (uint32_t)w.f[TG_W_NSENDS];
			f.method = (uint32_t)w.f[TG_W_METHOD];
			f.raw = w.f[TG_W_RAW];
			f.stored = plen = w.f[TG_W_STORED];
		} else if (!memcmp(p, "STRS", 4)) {
			f.hdr = 24;
			if (off + 24 > len)
				break;
			plen = tg_le32(p + 12);
		} else if (!memcmp(p, "DICT", 4)) {
			f.hdr = TG_DICT_HDR;
			if (off + TG_DICT_HDR > len)
				break;
			plen = tg_le32(p + 4);
		} else if (!memcmp(p, "INDX", 4)) {
			f.hdr = 36;
			if (off + 36 > len)
				break;
			plen = tg_le32(p + 24);
		} else if (!memcmp(p, "TEND", 4)) {
			f.hdr = 32;
			plen = 0;
		} else {
			break;
		}
		if (f.hdr > len - off || plen > len - off - f.hdr)
			break;
		f.len = f.hdr + plen;
		if (n < max)
			out[n] = f;
		n++;
		off += f.len;
	}
	if (end)
		*end = off;
	return n < max ? n : max;
}

/* Recompute every CRC of a data file image (header, frame headers and
 * payloads, trailer) so that a mutation reaches the decoders.  A WIND
 * header whose length byte is in range gets its header CRC fixed even
 * when its varints are broken (so that the reader gets to them); the walk
 * stops there, as it cannot know the payload length. */
static inline void tg_fix_crcs(uint8_t *buf, size_t len)
{
	uint64_t off = TG_HDR;
	if (len >= TG_HDR && !memcmp(buf, "SIBYLDAT", 8))
		tg_put32(buf + 60, tg_crc(buf, 60));
	while (off + 4 <= len) {
		uint8_t *p = buf + off;
		uint64_t plen, room;
		if (!memcmp(p, "WIND", 4) && off + 5 <= len) {
			size_t h = p[4];
			tg_wind w;
			if (h < TG_WIN_HDR_MIN || h > TG_WIN_HDR_MAX ||
			    h > len - off)
				break;
			int good = tg_wind_parse(p, h, &w) == 0;
			room = len - off - h;
			if (good && w.f[TG_W_STORED] <= room)
				tg_put32(p + h - 8, tg_crc(p + h,
					 (size_t)w.f[TG_W_STORED]));
			tg_put32(p + h - 4, tg_crc(p, h - 4));
			if (!good || w.f[TG_W_STORED] > room)
				break;
			off += h + w.f[TG_W_STORED];
		} else if (!memcmp(p, "STRS", 4) && off + 24 <= len) {
			plen = tg_le32(p + 12);
			if (off + 24 + plen <= len)
				tg_put32(p + 16, tg_crc(p + 24, plen));
			tg_put32(p + 20, tg_crc(p, 20));
			off += 24 + plen;
		} else if (!memcmp(p, "DICT", 4) && off + TG_DICT_HDR <= len) {
			plen = tg_le32(p + 4);
			if (off + TG_DICT_HDR + plen <= len)
				tg_put32(p + 8, tg_crc(p + TG_DICT_HDR, plen));
			tg_put32(p + 12, tg_crc(p, 12));
			off += TG_DICT_HDR + plen;
		} else if (!memcmp(p, "INDX", 4) && off + 36 <= len) {
			plen = tg_le32(p + 24);
			if (off + 36 + plen <= len)
				tg_put32(p + 28, tg_crc(p + 36, plen));
			tg_put32(p + 32, tg_crc(p, 32));
			off += 36 + plen;
		} else if (!memcmp(p, "TEND", 4) && off + 32 <= len) {
			tg_put32(p + 28, tg_crc(p, 28));
			off += 32;
		} else {
			break;
		}
	}
}

/* ------------------------------------ splicing with the index kept */

typedef struct tg_bytes {
	uint8_t *p;
	size_t n, cap;
} tg_bytes;

static inline void tg_bytes_put(tg_bytes *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = 2 * (b->n + n) + 64;
		b->p = tg_xrealloc(b->p, b->cap);
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static inline void tg_bytes_varint(tg_bytes *b, uint64_t v)
{
	uint8_t x[10];
	tg_bytes_put(b, x, tg_varint_put(x, v));
}

static inline void tg_bytes_svarint(tg_bytes *b, int64_t v)
{
	tg_bytes_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void tg_bytes_u32(tg_bytes *b, uint32_t v)
{
	uint8_t x[4];
	tg_put32(x, v);
	tg_bytes_put(b, x, 4);
}

/* Raw deflate (RFC 1951) of in; NULL on failure. */
static inline uint8_t *tg_deflate_raw(const uint8_t *in, size_t n,
				      size_t *outlen)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return NULL;
	size_t cap = deflateBound(&z, (uLong)n) + 16;
	uint8_t *out = tg_xmalloc(cap);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int zr = deflate(&z, Z_FINISH);
	*outlen = z.total_out;
	deflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}

/* Inflate exactly rawlen bytes of raw deflate; NULL on failure. */
static inline uint8_t *tg_inflate_raw(const uint8_t *in, size_t n,
				      size_t rawlen)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, -15) != Z_OK)
		return NULL;
	uint8_t *out = tg_xmalloc(rawlen ? rawlen : 1);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)rawlen;
	int zr = inflate(&z, Z_FINISH);
	int good = zr == Z_STREAM_END && z.total_out == rawlen &&
		   z.avail_in == 0;
	inflateEnd(&z);
	if (!good) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Replace the n_old bytes at off of a data file image (*buf, *len) by the
 * n_new bytes rep, keeping the file's index right.  When the image ends
 * with a TEND trailer whose INDX frame lies at or after off + n_old, every
 * offset that the index (windows, STRS frames, DICT frame) and the trailer
 * hold at or after off + n_old moves by n_new - n_old, the index payload
 * is deflated again and both CRCs are recomputed; everything else in the
 * index (counts, lengths) is kept as it was.  Returns 1 when the index was
 * rewritten, 0 when there is no index after off (the bytes are replaced
 * anyway), -1 when the index could not be parsed (the bytes are replaced,
 * the index left as it was).  *buf is reallocated.
 */
static inline int tg_splice(uint8_t **buf, size_t *len, uint64_t off,
			    uint64_t n_old, const uint8_t *rep, uint64_t n_new)
{
	uint8_t *b = *buf;
	size_t n = *len;
	int64_t delta = (int64_t)n_new - (int64_t)n_old;
	uint64_t at = off + n_old, ioff = 0;
	tg_bytes out = { 0 }, idx = { 0 };
	uint8_t *raw = NULL;
	int rc = 0;

	if (off > n || n_old > n - off)
		return -1;
	if (n >= TG_HDR + 36 + 32 && !memcmp(b + n - 32, "TEND", 4)) {
		ioff = tg_le64(b + n - 24);
		if (ioff < at || ioff > n - 32 - 36 || memcmp(b + ioff, "INDX", 4))
			ioff = 0;
	}
	if (ioff) {
		const uint8_t *ih = b + ioff;
		uint32_t rl = tg_le32(ih + 20), sl = tg_le32(ih + 24);
		uint32_t nstrs = tg_le32(ih + 16), npes = tg_le32(b + 32);
		rc = -1;
		if (ioff + 36 + (uint64_t)sl == n - 32 && rl <= (64u << 20) &&
		    (raw = tg_inflate_raw(ih + 36, sl, rl)) != NULL) {
			const uint8_t *q = raw, *e = raw + rl;
			uint64_t v[5] = { 0 }, a = 0, na = 0;
			int bad = 0;
#define TG_MOVE(x) ((x) >= at ? (uint64_t)((int64_t)(x) + delta) : (x))
			for (uint32_t l = 0; l < npes && !bad; l++) {
				uint64_t nw = 0;
				bad |= tg_varint_get(&q, e, &nw);
				tg_bytes_varint(&idx, nw);
				for (uint64_t w = 0; w < nw && !bad; w++) {
					for (int i = 0; i < 5 && !bad; i++)
						bad |= tg_varint_get(&q, e, &v[i]);
					uint64_t pa = na;
					a = w ? a + v[0] : v[0];
					na = TG_MOVE(a);
					tg_bytes_varint(&idx, w ? na - pa : na);
					for (int i = 1; i < 5; i++)
						tg_bytes_varint(&idx, v[i]);
				}
			}
			for (uint32_t j = 0; j < nstrs && !bad; j++) {
				uint64_t pa = na;
				bad |= tg_varint_get(&q, e, &v[0]);
				a = j ? a + v[0] : v[0];
				na = TG_MOVE(a);
				tg_bytes_varint(&idx, j ? na - pa : na);
			}
			if (!bad && !tg_varint_get(&q, e, &v[0])) {
				/* the DICT offset (0: none); bytes after it,
				 * if any, are kept as they were */
				tg_bytes_varint(&idx, v[0] ? TG_MOVE(v[0]) : 0);
				tg_bytes_put(&idx, q, (size_t)(e - q));
				rc = 1;
			}
#undef TG_MOVE
		}
	}
	tg_bytes_put(&out, b, (size_t)off);
	tg_bytes_put(&out, rep, (size_t)n_new);
	if (rc == 1) {
		size_t sl;
		uint8_t *st = tg_deflate_raw(idx.p, idx.n, &sl);
		if (!st) {
			rc = -1;
		} else {
			uint8_t ih[36], tr[32];
			uint64_t nioff = (uint64_t)((int64_t)ioff + delta);
			tg_bytes_put(&out, b + at, (size_t)(ioff - at));
			memcpy(ih, b + ioff, 36);
			tg_put32(ih + 20, (uint32_t)idx.n);
			tg_put32(ih + 24, (uint32_t)sl);
			tg_put32(ih + 28, tg_crc(st, sl));
			tg_put32(ih + 32, tg_crc(ih, 32));
			tg_bytes_put(&out, ih, 36);
			tg_bytes_put(&out, st, sl);
			memcpy(tr, b + n - 32, 32);
			tg_put32(tr + 8, (uint32_t)nioff);
			tg_put32(tr + 12, (uint32_t)(nioff >> 32));
			tg_put32(tr + 28, tg_crc(tr, 28));
			tg_bytes_put(&out, tr, 32);
			free(st);
		}
	}
	if (rc != 1)
		tg_bytes_put(&out, b + at, (size_t)(n - at));
	free(raw);
	free(idx.p);
	free(b);
	*buf = out.p ? out.p : tg_xmalloc(1);
	*len = out.n;
	return rc;
}

#endif /* SIBYL_TGEN_BYTES_H */
