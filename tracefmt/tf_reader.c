/*
 * tf_reader.c -- opening traces (directories and bundles), the window
 * index and recovery of cut-off files; tf_query.c answers questions about
 * an open trace and reads its windows.
 *
 * The reader keeps 40 bytes per window (where it is and what it holds) and
 * nothing per SEB; windows are decoded on demand into caller-owned
 * sibt_window objects.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "tf_private.h"

#include "tf_trace.h"

int tf_terr(sibt_trace *t, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof t->err, fmt, ap);
	va_end(ap);
	return code;
}

/* ------------------------------------------------------- inflation */

int tf_inflate_exact(sibt_trace *t, const uint8_t *src, size_t len,
			 uint8_t *dst, size_t rawlen, const uint8_t *dict,
			 uint32_t dictlen)
{
	if (!t->zinit) {
		if (inflateInit2(&t->z, -15) != Z_OK)
			return SIBT_ENOMEM;
		t->zinit = 1;
	} else if (inflateReset(&t->z) != Z_OK) {
		return SIBT_ENOMEM;
	}
	if (dict && inflateSetDictionary(&t->z, dict, dictlen) != Z_OK)
		return SIBT_EFORMAT;
	t->z.next_in = (Bytef *)src;
	t->z.avail_in = (uInt)len;
	t->z.next_out = dst;
	t->z.avail_out = (uInt)rawlen;
	int zr = inflate(&t->z, Z_FINISH);
	if (zr != Z_STREAM_END || t->z.avail_out || t->z.avail_in)
		return SIBT_EFORMAT;
	return SIBT_OK;
}

/* --------------------------------------------------- window storage */

/* Make room for n more windows, exactly (the index says how many). */
static int reserve_wins(sibt_trace *t, size_t n)
{
	if (t->cap_wins - t->nwins >= n)
		return SIBT_OK;
	tf_win *p = realloc(t->wins, (t->nwins + n) * sizeof *p);
	if (!p)
		return SIBT_ENOMEM;
	t->wins = p;
	t->cap_wins = t->nwins + n;
	return SIBT_OK;
}

static int add_name(tf_file *f, const uint8_t *s, size_t len)
{
	if ((f->nnames & (f->nnames - 1)) == 0) {
		/* grow at powers of two */
		char **n = realloc(f->names, (f->nnames ? f->nnames * 2 : 1) *
				   sizeof *n);
		if (!n)
			return SIBT_ENOMEM;
		f->names = n;
	}
	char *c = malloc(len + 1);
	if (!c)
		return SIBT_ENOMEM;
	memcpy(c, s, len);
	c[len] = 0;
	f->names[f->nnames++] = c;
	return SIBT_OK;
}

/*
 * Read and verify the STRS frame at off; append its names.  Returns its
 * total length, or 0 with the error in *code and a message in why.
 */
static uint64_t read_strings(tf_file *f, uint64_t off, int *code,
			     char *why, size_t wl)
{
	uint8_t h[TF_STR_HDR];
	if (off + TF_STR_HDR > f->size ||
	    tf_pread_full(f->fd, h, sizeof h, off) != (long long)sizeof h) {
		*code = tf_fail(why, wl, SIBT_ETRUNC,
				"string frame header cut off");
		return 0;
	}
	if (memcmp(h, "STRS", 4) || tf_get32(h + 20) != crc32(0, h, 20)) {
		*code = tf_fail(why, wl, SIBT_ECRC,
				"string frame header is damaged");
		return 0;
	}
	uint32_t first = tf_get32(h + 4), count = tf_get32(h + 8);
	uint32_t plen = tf_get32(h + 12);
	if (off + TF_STR_HDR + plen > f->size) {
		*code = tf_fail(why, wl, SIBT_ETRUNC,
				"string frame payload cut off");
		return 0;
	}
	if (first != f->nnames) {
		*code = tf_fail(why, wl, SIBT_EFORMAT,
				"string frame defines ids from "
			"%u but %u are defined so far", first, f->nnames);
		return 0;
	}
	uint8_t *p = malloc(plen ? plen : 1);
	if (!p) {
		*code = tf_fail(why, wl, SIBT_ENOMEM, "out of memory");
		return 0;
	}
	uint64_t ret = 0;
	if (tf_pread_full(f->fd, p, plen, off + TF_STR_HDR) != plen) {
		*code = tf_fail(why, wl, SIBT_EIO,
				"read error: %s", strerror(errno));
		goto out;
	}
	if (tf_get32(h + 16) != crc32(0, p, plen)) {
		*code = tf_fail(why, wl, SIBT_ECRC,
				"string frame payload fails its "
			"checksum");
		goto out;
	}
	tf_rd r = { p, p + plen, 0 };
	uint32_t before = f->nnames;
	for (uint32_t i = 0; i < count; i++) {
		uint64_t l = tf_rd_varint(&r);
		if (r.bad || l > (uint64_t)(r.end - r.p) ||
		    memchr(r.p, 0, l)) {
			*code = tf_fail(why, wl, SIBT_EFORMAT,
					"string %u is malformed",
				first + i);
			goto undo;
		}
		if (add_name(f, r.p, l)) {
			*code = tf_fail(why, wl, SIBT_ENOMEM, "out of memory");
			goto undo;
		}
		r.p += l;
	}
	if (r.p != r.end) {
		*code = tf_fail(why, wl, SIBT_EFORMAT,
				"string frame has trailing "
			"bytes");
		goto undo;
	}
	ret = TF_STR_HDR + (uint64_t)plen;
	goto out;
undo:
	while (f->nnames > before)
		free(f->names[--f->nnames]);
out:
	free(p);
	return ret;
}

int tf_parse_win_header(const uint8_t *h, size_t avail, uint32_t *pe,
			    uint32_t *wno, tf_win *w, int *method,
			    size_t *hlen)
{
	if (avail < 5)
		return SIBT_ETRUNC;
	if (memcmp(h, "WIND", 4) || h[4] < TF_WIN_HDR_MIN ||
	    h[4] > TF_WIN_HDR_MAX)
		return SIBT_ECRC;
	size_t n = h[4];
	if (avail < n)
		return SIBT_ETRUNC;
	if (tf_get32(h + n - 4) != crc32(0, h, (uInt)(n - 4)))
		return SIBT_ECRC;
	tf_rd r = { h + 5, h + n - 8, 0 };
	uint64_t v[9];
	for (int i = 0; i < 9; i++)
		v[i] = tf_rd_varint(&r);
	if (r.bad || r.p != r.end || v[0] > UINT32_MAX || v[1] > UINT32_MAX ||
	    v[2] > UINT32_MAX || v[5] > UINT32_MAX || v[6] > TF_MAX_RAW ||
	    v[7] > UINT32_MAX || v[8] > 2)
		return SIBT_EFORMAT;
	*pe = (uint32_t)v[0];
	*wno = (uint32_t)v[1];
	w->nsebs = (uint32_t)v[2];
	w->first_seb = v[3];
	w->first_seq = v[4];
	w->nsends = (uint32_t)v[5];
	w->raw = (uint32_t)v[6];
	w->stored = (uint32_t)v[7];
	*method = (int)v[8];
	*hlen = n;
	if (w->nsebs == 0 || w->nsebs > w->raw / 3 || w->nsends > w->raw / 4 ||
	    w->raw > TF_MAX_INFLATE * (uint64_t)w->stored + 258 ||
	    (*method == 0 && w->raw != w->stored))
		return SIBT_EFORMAT;
	return 0;
}

/*
 * Read and verify the DICT frame at off into f.  Returns its total length,
 * or 0 with the error in *code and a message in why.
 */
static uint64_t read_dict(tf_file *f, uint64_t off, int *code, char *why,
			  size_t wl)
{
	uint8_t h[TF_DICT_HDR];
	if (off + TF_DICT_HDR > f->size ||
	    tf_pread_full(f->fd, h, sizeof h, off) != (long long)sizeof h) {
		*code = tf_fail(why, wl, SIBT_ETRUNC,
				"dictionary frame header cut "
			"off");
		return 0;
	}
	if (memcmp(h, "DICT", 4) || tf_get32(h + 12) != crc32(0, h, 12)) {
		*code = tf_fail(why, wl, SIBT_ECRC,
				"dictionary frame header is "
			"damaged");
		return 0;
	}
	uint32_t len = tf_get32(h + 4);
	if (len == 0 || len > 32768 || f->dict) {
		*code = tf_fail(why, wl, SIBT_EFORMAT,
				f->dict ? "a second dictionary "
			"frame" : "dictionary of impossible size");
		return 0;
	}
	if (off + TF_DICT_HDR + len > f->size) {
		*code = tf_fail(why, wl, SIBT_ETRUNC,
				"dictionary frame cut off");
		return 0;
	}
	uint8_t *d = malloc(len);
	if (!d) {
		*code = tf_fail(why, wl, SIBT_ENOMEM, "out of memory");
		return 0;
	}
	if (tf_pread_full(f->fd, d, len, off + TF_DICT_HDR) != len ||
	    tf_get32(h + 8) != crc32(0, d, len)) {
		free(d);
		*code = tf_fail(why, wl, SIBT_ECRC,
				"dictionary fails its checksum");
		return 0;
	}
	f->dict = d;
	f->dictlen = len;
	return TF_DICT_HDR + (uint64_t)len;
}

/* --------------------------------------------------- index loading */

/* Per-PE window counts while building one file's list. */
typedef struct scan_ent {
	uint32_t pe; /* local */
	tf_win w;
} scan_ent;

/* Append one file's windows (given in file order) to t->wins in PE order. */
static int adopt_windows(sibt_trace *t, tf_file *f, scan_ent *ents,
			 size_t n)
{
	size_t *cnt = calloc((size_t)f->npes + 1, sizeof *cnt);
	if (!cnt)
		return SIBT_ENOMEM;
	for (size_t i = 0; i < n; i++)
		cnt[ents[i].pe + 1]++;
	for (uint32_t l = 0; l < f->npes; l++) {
		t->pe_win[f->first_pe + l] = t->nwins + cnt[l];
		cnt[l + 1] += cnt[l];
	}
	size_t base = t->nwins;
	if (reserve_wins(t, n)) {
		free(cnt);
		return SIBT_ENOMEM;
	}
	t->nwins += n;
	for (size_t i = 0; i < n; i++) {
		t->wins[base + cnt[ents[i].pe]++] = ents[i].w;
		f->raw_bytes += ents[i].w.raw;
		f->stored_bytes += ents[i].w.stored;
	}
	free(cnt);
	return SIBT_OK;
}

/* A varint that must fit 32 bits (else the reader is marked bad). */
static uint32_t rd_u32(tf_rd *r)
{
	uint64_t v = tf_rd_varint(r);
	if (v > UINT32_MAX)
		r->bad = 1;
	return (uint32_t)v;
}

/* What no writer produces, whatever the payload: more SEBs than the
 * trace's window size or than raw_len / 3 (the smallest record), more sends
 * than raw_len / 4, a raw_len beyond TF_MAX_RAW or beyond what deflate can
 * expand stored_len bytes into.  These bounds keep the work of a reader
 * proportional to the bytes present. */
static int implausible_window(const tf_win *w, uint32_t window)
{
	return w->nsebs == 0 || w->nsebs > window || w->nsebs > w->raw / 3 ||
	       w->nsends > w->raw / 4 || w->raw > TF_MAX_RAW ||
	       w->raw > TF_MAX_INFLATE * (uint64_t)w->stored + 258;
}

static int same_window(const tf_win *a, const tf_win *b)
{
	return a->offset == b->offset && a->nsebs == b->nsebs &&
	       a->nsends == b->nsends && a->raw == b->raw &&
	       a->stored == b->stored && a->first_seb == b->first_seb &&
	       a->first_seq == b->first_seq;
}

/*
 * Walk the frame headers of file f up to its index at ioff and check that
 * the index just adopted (from t->wins[base] on) lists exactly the windows
 * found, with what their headers say: an index rewritten with valid
 * checksums cannot hide a window, short of damaging a window it lists
 * (which reading that window reports).  One read per frame, no payload.
 */
static int index_covers_file(sibt_trace *t, tf_file *f, size_t base,
			     uint64_t ioff, char *why, size_t wl)
{
	uint8_t h[TF_WIN_HDR_MAX];
	uint64_t off = TF_HDR_SIZE, found = 0;

	while (off < ioff) {
		long long got = tf_pread_full(f->fd, h, sizeof h, off);
		uint64_t len = 0;
		if (got >= 4 && !memcmp(h, "WIND", 4)) {
			uint32_t pe, wno;
			int method;
			size_t hlen;
			tf_win w;
			if (tf_parse_win_header(h, (size_t)got, &pe, &wno, &w,
					     &method, &hlen) == 0 &&
			    pe >= f->first_pe && pe - f->first_pe < f->npes) {
				uint32_t l = pe - f->first_pe;
				uint64_t lo = t->pe_win[pe];
				uint64_t hi = l + 1 < f->npes ?
					      t->pe_win[pe + 1] : t->nwins;
				w.offset = off;
				if (wno >= hi - lo ||
				    !same_window(&t->wins[lo + wno], &w))
					return tf_fail(why, wl, SIBT_EFORMAT,
						"the index does not list window "
						"%u of PE %u at byte %" PRIu64
						" as it is", wno, pe, off);
				len = hlen + (uint64_t)w.stored;
				found++;
			}
		} else if (got >= TF_STR_HDR && !memcmp(h, "STRS", 4) &&
			   tf_get32(h + 20) == crc32(0, h, 20)) {
			len = TF_STR_HDR + (uint64_t)tf_get32(h + 12);
		} else if (got >= TF_DICT_HDR && !memcmp(h, "DICT", 4) &&
			   tf_get32(h + 12) == crc32(0, h, 12)) {
			len = TF_DICT_HDR + (uint64_t)tf_get32(h + 4);
		}
		if (!len) {
			/* A damaged frame the index lists: reading its
			 * window reports the damage; past it, frames
			 * cannot be followed. */
			for (size_t i = base; i < t->nwins; i++)
				if (t->wins[i].offset == off)
					return SIBT_OK;
			return tf_fail(why, wl, SIBT_EFORMAT, "the frame at "
				       "byte %" PRIu64 " does not verify and "
				       "the index lists no window there",
				       off);
		}
		off += len;
	}
	if (off != ioff || found != t->nwins - base)
		return tf_fail(why, wl, SIBT_EFORMAT, "the index lists %zu "
			       "windows but the file holds %" PRIu64 " before "
			       "it", t->nwins - base, found);
	return SIBT_OK;
}

/* Load the index through the trailer.  0 on success; otherwise a reason
 * in why and nothing adopted. */
static int load_index(sibt_trace *t, tf_file *f, char *why, size_t wl)
{
	uint8_t tr[TF_TRAILER], h[TF_IDX_HDR];
	uint8_t *stored = NULL, *raw = NULL;
	size_t base = t->nwins;
	uint64_t rawsum = 0, storedsum = 0, framesum = 0, sebsum = 0;
	int rc = SIBT_EFORMAT;

	if (f->size < TF_HDR_SIZE + TF_IDX_HDR + TF_TRAILER)
		return tf_fail(why, wl, SIBT_ETRUNC, "no trailer");
	if (tf_pread_full(f->fd, tr, sizeof tr, f->size - TF_TRAILER) !=
	    (long long)sizeof tr)
		return tf_fail(why, wl, SIBT_EIO, "read error");
	if (memcmp(tr, "TEND", 4))
		return tf_fail(why, wl, SIBT_ETRUNC, "no trailer");
	if (tf_get32(tr + 28) != crc32(0, tr, 28))
		return tf_fail(why, wl, SIBT_ECRC, "the trailer fails its "
			       "checksum");
	uint64_t ioff = tf_get64(tr + 8);
	if (ioff < TF_HDR_SIZE || ioff > f->size - TF_TRAILER - TF_IDX_HDR)
		return tf_fail(why, wl, SIBT_EFORMAT, "the trailer points "
			       "outside the file");
	if (tf_pread_full(f->fd, h, sizeof h, ioff) != (long long)sizeof h)
		return tf_fail(why, wl, SIBT_EIO, "read error");
	if (memcmp(h, "INDX", 4) || tf_get32(h + 32) != crc32(0, h, 32))
		return tf_fail(why, wl, SIBT_ECRC, "the index header is "
			       "damaged");
	uint64_t nwin = tf_get64(h + 8);
	uint32_t nstr = tf_get32(h + 16), rawlen = tf_get32(h + 20);
	uint32_t slen = tf_get32(h + 24);
	if (ioff + TF_IDX_HDR + slen != f->size - TF_TRAILER ||
	    rawlen > (uint64_t)64 * (f->size + 1024) ||
	    nwin > f->size / TF_WIN_HDR_MIN)
		return tf_fail(why, wl, SIBT_EFORMAT, "the index sizes are "
			       "inconsistent with the file size");
	stored = malloc(slen ? slen : 1);
	raw = malloc(rawlen ? rawlen : 1);
	if (!stored || !raw || reserve_wins(t, nwin)) {
		rc = tf_fail(why, wl, SIBT_ENOMEM, "out of memory");
		goto out;
	}
	if (tf_pread_full(f->fd, stored, slen, ioff + TF_IDX_HDR) != slen) {
		rc = tf_fail(why, wl, SIBT_EIO, "read error");
		goto out;
	}
	if (tf_get32(h + 28) != crc32(0, stored, slen)) {
		rc = tf_fail(why, wl, SIBT_ECRC, "the index fails its "
			     "checksum");
		goto out;
	}
	if (tf_inflate_exact(t, stored, slen, raw, rawlen, NULL, 0)) {
		rc = tf_fail(why, wl, SIBT_EFORMAT, "the index does not "
			     "decompress");
		goto out;
	}
	/* The index lists the windows PE by PE: adopt them in place. */
	tf_rd r = { raw, raw + rawlen, 0 };
	for (uint32_t l = 0; l < f->npes && !r.bad; l++) {
		uint64_t n = tf_rd_varint(&r);
		if (n > nwin - (t->nwins - base)) {
			r.bad = 1;
			break;
		}
		t->pe_win[f->first_pe + l] = t->nwins;
		uint64_t off = 0, seb = 0, seq = 0;
		for (uint64_t j = 0; j < n && !r.bad; j++) {
			tf_win *w = &t->wins[t->nwins++];
			uint64_t delta = tf_rd_varint(&r);
			off += delta;
			w->offset = off;
			w->nsebs = rd_u32(&r);
			w->nsends = rd_u32(&r);
			w->raw = rd_u32(&r);
			w->stored = rd_u32(&r);
			w->first_seb = seb;
			w->first_seq = seq;
			seb += w->nsebs;
			seq += w->nsends;
			rawsum += w->raw;
			storedsum += w->stored;
			framesum += TF_WIN_HDR_MIN + (uint64_t)w->stored;
			if (implausible_window(w, t->window) ||
			    off < TF_HDR_SIZE ||
			    off + TF_WIN_HDR_MIN + w->stored > ioff ||
			    framesum > ioff - TF_HDR_SIZE || (j && delta == 0))
				r.bad = 1;
		}
		sebsum += seb;
	}
	if (r.bad || t->nwins - base != nwin) {
		rc = tf_fail(why, wl, SIBT_EFORMAT, "the index is malformed");
		goto out;
	}
	if (sebsum != tf_get64(tr + 16)) {
		rc = tf_fail(why, wl, SIBT_EFORMAT, "the index lists %" PRIu64
			     " SEBs but the trailer counts %" PRIu64, sebsum,
			     tf_get64(tr + 16));
		goto out;
	}
	uint64_t soff = 0;
	for (uint32_t i = 0; i < nstr; i++) {
		soff += tf_rd_varint(&r);
		int code;
		if (r.bad || soff >= ioff ||
		    !read_strings(f, soff, &code, why, wl)) {
			if (r.bad)
				tf_fail(why, wl, SIBT_EFORMAT, "the index is "
					"malformed");
			rc = SIBT_EFORMAT;
			goto out;
		}
	}
	uint64_t doff = tf_rd_varint(&r);
	if (r.bad || (doff && (doff < TF_HDR_SIZE || doff >= ioff))) {
		rc = tf_fail(why, wl, SIBT_EFORMAT, "the index is malformed");
		goto out;
	}
	int dcode;
	if (doff && !read_dict(f, doff, &dcode, why, wl)) {
		rc = SIBT_EFORMAT;
		goto out;
	}
	if (r.p != r.end) {
		rc = tf_fail(why, wl, SIBT_EFORMAT, "the index has trailing "
			     "bytes");
		goto out;
	}
	if ((t->flags & (SIBT_OPEN_VERIFY_INDEX | SIBT_OPEN_VERIFY_ALL)) &&
	    (rc = index_covers_file(t, f, base, ioff, why, wl)))
		goto out;
	f->raw_bytes += rawsum;
	f->stored_bytes += storedsum;
	rc = 0;
out:
	if (rc) {
		/* Undo what was adopted; a scan will redo it. */
		t->nwins = base;
		while (f->nnames > 1)
			free(f->names[--f->nnames]);
		free(f->dict);
		f->dict = NULL;
		f->dictlen = 0;
	}
	free(stored);
	free(raw);
	return rc;
}

static int add_damage(sibt_trace *t, tf_file *f, int reason,
		      uint64_t valid, uint64_t windows, uint64_t sebs,
		      const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int add_damage(sibt_trace *t, tf_file *f, int reason,
		      uint64_t valid, uint64_t windows, uint64_t sebs,
		      const char *fmt, ...)
{
	sibt_damage *d = realloc(t->damage, (t->ndamage + 1) * sizeof *d);
	if (!d)
		return SIBT_ENOMEM;
	t->damage = d;
	d = &t->damage[t->ndamage];
	char *text = malloc(1024);
	if (!text)
		return SIBT_ENOMEM;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, 1024, fmt, ap);
	va_end(ap);
	d->file = f->path;
	d->proc = f->proc;
	d->reason = reason;
	d->valid_bytes = valid;
	d->file_bytes = f->size;
	d->windows_recovered = windows;
	d->sebs_recovered = sebs;
	d->detail = text;
	t->ndamage++;
	return SIBT_OK;
}

/*
 * Rebuild a file's window list by scanning its frames from the header on,
 * keeping every frame that verifies and continues its PE's sequence.
 * `why' says why the index could not be used.
 */
/* What scan_file() has seen of a PE: its windows, SEBs and sends. */
typedef struct scan_pe {
	uint32_t nwin;
	uint64_t sebs, sends;
} scan_pe;

/* The header (h, read at off) of a window that must continue its PE's
 * sequence in st: 0 with *pe, *wno, *w and *hlen, or 1 with *reason and
 * what say why the scan stops there. */
static int scan_window(const sibt_trace *t, const tf_file *f, uint8_t *h,
		       uint64_t off, const scan_pe *st, uint32_t *pe,
		       uint32_t *wno, tf_win *w, size_t *hlen, int *reason,
		       char *what, size_t wlen)
{
	long long avail = tf_pread_full(f->fd, h, TF_WIN_HDR_MAX, off);
	int method;
	int hr = tf_parse_win_header(h, avail < 0 ? 0 : (size_t)avail, pe, wno,
				  w, &method, hlen);
	if (hr == SIBT_ETRUNC) {
		snprintf(what, wlen, "a window header is cut off");
		return 1;
	}
	if (hr) {
		*reason = hr;
		snprintf(what, wlen, hr == SIBT_ECRC ? "a window header fails "
			 "its checksum" : "a window header describes an "
			 "impossible window");
		return 1;
	}
	if (w->nsebs > t->window) {
		*reason = SIBT_EFORMAT;
		snprintf(what, wlen, "window %u of PE %u holds %u SEBs, more "
			 "than the trace's window size (%u)", *wno, *pe,
			 w->nsebs, t->window);
		return 1;
	}
	if (method == 2 && !f->dict) {
		*reason = SIBT_EFORMAT;
		snprintf(what, wlen, "window %u of PE %u needs the file's "
			 "dictionary, which precedes no window", *wno, *pe);
		return 1;
	}
	w->offset = off;
	if (*pe < f->first_pe || *pe - f->first_pe >= f->npes) {
		*reason = SIBT_EFORMAT;
		snprintf(what, wlen, "a window of PE %u, which this file does "
			 "not hold", *pe);
		return 1;
	}
	const scan_pe *s = &st[*pe - f->first_pe];
	if (*wno != s->nwin || w->first_seb != s->sebs ||
	    w->first_seq != s->sends) {
		*reason = SIBT_EFORMAT;
		snprintf(what, wlen, "window %u of PE %u does not continue the "
			 "PE's sequence", *wno, *pe);
		return 1;
	}
	if (off + *hlen + w->stored > f->size) {
		*reason = SIBT_ETRUNC;
		snprintf(what, wlen, "window %u of PE %u is cut off (%" PRIu64
			 " of %u payload bytes)", *wno, *pe,
			 f->size - off - *hlen, w->stored);
		return 1;
	}
	return 0;
}

static int scan_file(sibt_trace *t, tf_file *f, int why_code,
		     const char *why)
{
	scan_ent *ents = NULL;
	size_t n = 0, cap = 0;
	scan_pe *st;
	uint64_t off = TF_HDR_SIZE, sebs = 0;
	uint8_t h[TF_WIN_HDR_MAX];
	uint8_t *buf = NULL;
	size_t bufcap = 0;
	int reason = SIBT_ETRUNC, complete = 0, rc;
	char what[512] = "";

	st = calloc(f->npes, sizeof *st);
	if (!st)
		return tf_terr(t, SIBT_ENOMEM, "out of memory");
	while (off < f->size) {
		long long got = tf_pread_full(f->fd, h, 4, off);
		if (got != 4) {
			snprintf(what, sizeof what, "a frame tag is cut off");
			break;
		}
		if (!memcmp(h, "STRS", 4) || !memcmp(h, "DICT", 4)) {
			char aw[256];
			int dict = h[0] == 'D', code;
			uint64_t len = dict ?
				read_dict(f, off, &code, aw, sizeof aw) :
				read_strings(f, off, &code, aw, sizeof aw);
			if (!len) {
				reason = code;
				snprintf(what, sizeof what, "the %s frame there: "
					 "%s", dict ? "dictionary" : "string",
					 aw);
				break;
			}
			off += len;
			continue;
		}
		if (!memcmp(h, "INDX", 4)) {
			/* The writer finished: what follows is the index and
			 * trailer, which could not be used (see `why'). */
			complete = 1;
			break;
		}
		if (memcmp(h, "WIND", 4)) {
			reason = SIBT_EFORMAT;
			snprintf(what, sizeof what, "no frame starts there "
				 "(unknown tag)");
			break;
		}
		uint32_t pe, wno, l;
		size_t hlen;
		tf_win w;
		if (scan_window(t, f, h, off, st, &pe, &wno, &w, &hlen,
				&reason, what, sizeof what))
			break;
		l = pe - f->first_pe;
		if (w.stored > bufcap) {
			uint8_t *nb = realloc(buf, w.stored);
			if (!nb) {
				rc = tf_terr(t, SIBT_ENOMEM, "out of memory");
				goto fail;
			}
			buf = nb;
			bufcap = w.stored;
		}
		if (tf_pread_full(f->fd, buf, w.stored, off + hlen) !=
		    w.stored) {
			rc = tf_terr(t, SIBT_EIO, "%s: read error: %s", f->path,
				  strerror(errno));
			goto fail;
		}
		if (tf_win_payload_crc(h, hlen) != crc32(0, buf, w.stored)) {
			reason = SIBT_ECRC;
			snprintf(what, sizeof what, "window %u of PE %u fails "
				 "its checksum", wno, pe);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			scan_ent *e = realloc(ents, cap * sizeof *e);
			if (!e) {
				rc = tf_terr(t, SIBT_ENOMEM, "out of memory");
				goto fail;
			}
			ents = e;
		}
		ents[n].pe = l;
		ents[n++].w = w;
		st[l].nwin++;
		st[l].sebs += w.nsebs;
		st[l].sends += w.nsends;
		sebs += w.nsebs;
		off += hlen + w.stored;
	}
	if ((rc = adopt_windows(t, f, ents, n)))
		goto fail;
	if (complete) {
		rc = add_damage(t, f, why_code, off, n, sebs,
			"%s: %s; the index was rebuilt by reading every frame "
			"and no window was lost (%zu windows, %" PRIu64
			" SEBs)", f->path, why, n, sebs);
	} else if (off >= f->size) {
		rc = add_damage(t, f, SIBT_ETRUNC, off, n, sebs,
			"%s: the file ends after its last complete window at "
			"byte %" PRIu64 " with no index (%s): the writer did "
			"not finish; recovered %zu windows (%" PRIu64 " SEBs); "
			"SEBs written after that are lost", f->path, off, why,
			n, sebs);
	} else {
		rc = add_damage(t, f, reason, off, n, sebs,
			"%s: at byte %" PRIu64 " %s; recovered %zu windows (%"
			PRIu64 " SEBs) before it; the %" PRIu64 " bytes from "
			"there to the end of the file are lost", f->path, off,
			what, n, sebs, f->size - off);
	}
fail:
	free(st);
	free(ents);
	free(buf);
	return rc;
}

/* ------------------------------------------------------- opening */

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || x > UINT32_MAX || *s == '-')
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* "MAJOR.MINOR", each a decimal number below 65536 (the data file
 * stores them in 16 bits); 0 or -1. */
static int parse_version(const char *s, unsigned *major, unsigned *minor)
{
	unsigned *dst[2] = { major, minor };
	for (int i = 0; i < 2; i++) {
		unsigned long v = 0;
		const char *d = s;
		while (*s >= '0' && *s <= '9' && v < 65536)
			v = v * 10 + (unsigned long)(*s++ - '0');
		if (s == d || v >= 65536 || (i == 0 && *s++ != '.'))
			return -1;
		*dst[i] = (unsigned)v;
	}
	return *s ? -1 : 0;
}

/* The file.N entries: each "NAME FIRST_PE COUNT", the files covering PEs
 * 0..npes-1 in order.  Checked before anything is allocated per PE, so
 * that an npes the files do not bear out is reported as such. */
static int read_file_entries(sibt_trace *t, const char *path)
{
	uint32_t next = 0;
	char shown[128];

	for (uint32_t p = 0; p < t->nprocs; p++) {
		char key[32], name[256];
		tf_file *f = &t->files[p];
		snprintf(key, sizeof key, "file.%u", p);
		const char *v = tf_manifest_get(&t->man, key);
		unsigned long long first, count;
		int used = 0;
		if (!v || sscanf(v, "%255s %llu %llu %n", name, &first,
				 &count, &used) != 3 || v[used] ||
		    strchr(name, '/') || !strcmp(name, "..") ||
		    !strcmp(name, ".") || first != next || count == 0 ||
		    count > t->npes - first) {
			tf_escape(shown, sizeof shown, v ? v : "nothing", 80);
			return tf_terr(t, SIBT_EMANIFEST, "%s: '%s' must be 'NAME "
				    "FIRST_PE COUNT' with the files covering "
				    "PEs 0..%u in order (got '%s')", path, key,
				    t->npes - 1, shown);
		}
		/* Names are printed and used in paths: printable ASCII
		 * only, so that they reach no terminal as control codes. */
		for (const char *c = name; *c; c++) {
			if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f) {
				tf_escape(shown, sizeof shown, name, 80);
				return tf_terr(t, SIBT_EMANIFEST, "%s: '%s' names "
					    "the data file '%s', which has a "
					    "byte that is not printable ASCII",
					    path, key, shown);
			}
		}
		f->proc = p;
		f->first_pe = (uint32_t)first;
		f->npes = (uint32_t)count;
		f->name = strdup(name);
		f->path = tf_path_join(t->dir, name);
		if (!f->name || !f->path)
			return tf_terr(t, SIBT_ENOMEM, "out of memory");
		next = (uint32_t)(first + count);
	}
	if (next != t->npes)
		return tf_terr(t, SIBT_EMANIFEST, "%s: the files cover PEs 0..%u "
			    "but npes is %u: the manifest is inconsistent",
			    path, next - 1, t->npes);
	return SIBT_OK;
}

static int read_manifest(sibt_trace *t)
{
	char *path = tf_path_join(t->dir, TF_MANIFEST);
	char msg[900], shown[128];
	const char *v;
	int rc;

	if (!path)
		return tf_terr(t, SIBT_ENOMEM, "out of memory");
	rc = tf_manifest_read(&t->man, path, msg, sizeof msg);
	if (rc) {
		free(path);
		return tf_terr(t, rc, "%s", msg);
	}
	struct stat st;
	if (stat(path, &st) == 0)
		t->manifest_bytes = (uint64_t)st.st_size;

	if (!(v = tf_manifest_get(&t->man, "format")) ||
	    strncmp(v, "sibyl-trace ", 12)) {
		rc = tf_terr(t, SIBT_EMANIFEST, "%s: no 'format = sibyl-trace "
			  "M.m' line: not a Sibyl trace manifest", path);
		goto out;
	}
	unsigned major, minor;
	if (parse_version(v + 12, &major, &minor)) {
		rc = tf_terr(t, SIBT_EMANIFEST, "%s: bad format version '%s' "
			  "(want MAJOR.MINOR, each below 65536)", path,
			  tf_escape(shown, sizeof shown, v, 80));
		goto out;
	}
	if (major != SIBT_FORMAT_MAJOR) {
		rc = tf_terr(t, SIBT_EVERSION, "%s: trace format %u.%u is not "
			  "supported (this Sibyl reads %d.x); use a matching "
			  "Sibyl version", path, major, minor,
			  SIBT_FORMAT_MAJOR);
		goto out;
	}
	static const char *const need[] = { "npes", "nprocs", "window" };
	uint32_t *dst[] = { &t->npes, &t->nprocs, &t->window };
	for (int i = 0; i < 3; i++) {
		v = tf_manifest_get(&t->man, need[i]);
		if (!v || parse_u32(v, dst[i]) || *dst[i] == 0) {
			rc = tf_terr(t, SIBT_EMANIFEST, "%s: key '%s' is missing "
				  "or not a positive integer", path, need[i]);
			goto out;
		}
	}
	if (!(v = tf_manifest_get(&t->man, "time_unit")) || strcmp(v, "ps")) {
		rc = tf_terr(t, SIBT_EMANIFEST, "%s: time_unit must be 'ps'",
			  path);
		goto out;
	}
	if (!(v = tf_manifest_get(&t->man, "byte_order")) ||
	    strcmp(v, "little-endian")) {
		rc = tf_terr(t, SIBT_EVERSION, "%s: byte_order '%s' is not "
			  "supported (only little-endian)", path,
			  tf_escape(shown, sizeof shown, v ? v : "", 80));
		goto out;
	}
	if (t->nprocs > t->npes) {
		rc = tf_terr(t, SIBT_EMANIFEST, "%s: more files (%u) than PEs "
			  "(%u)", path, t->nprocs, t->npes);
		goto out;
	}
	/* Every file has its file.N key, so nprocs is bounded by the size
	 * of the manifest before anything is allocated for it. */
	if (t->nprocs > t->man.n) {
		rc = tf_terr(t, SIBT_EMANIFEST, "%s: nprocs is %u but the "
			  "manifest has only %zu keys: file.N entries are "
			  "missing", path, t->nprocs, t->man.n);
		goto out;
	}
	t->files = calloc(t->nprocs, sizeof *t->files);
	if (!t->files) {
		rc = tf_terr(t, SIBT_ENOMEM, "out of memory (%u files)",
			  t->nprocs);
		goto out;
	}
	for (uint32_t p = 0; p < t->nprocs; p++)
		t->files[p].fd = -1;
	if ((rc = read_file_entries(t, path)))
		goto out;
	t->pe_win = calloc((size_t)t->npes + 1, sizeof *t->pe_win);
	if (!t->pe_win) {
		rc = tf_terr(t, SIBT_ENOMEM, "out of memory: the trace has %u "
			  "PEs, which need %zu MiB", t->npes,
			  ((size_t)t->npes + 1) * sizeof *t->pe_win >> 20);
		goto out;
	}
	rc = SIBT_OK;
out:
	free(path);
	return rc;
}

static int open_file(sibt_trace *t, tf_file *f)
{
	uint8_t h[TF_HDR_SIZE];
	struct stat st;
	char why[512];

	/* O_NONBLOCK: a FIFO must not hang the open (refused below). */
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0)
		return tf_terr(t, errno == ENOENT ? SIBT_EMANIFEST : SIBT_EIO,
			    "%s: cannot open data file listed in MANIFEST: %s",
			    f->path, strerror(errno));
	if (fstat(f->fd, &st) != 0)
		return tf_terr(t, SIBT_EIO, "%s: %s", f->path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tf_terr(t, SIBT_EMANIFEST, "%s: not a regular file: a "
			    "data file must be one", f->path);
	f->size = (uint64_t)st.st_size;
	long long got = tf_pread_full(f->fd, h, 8, 0);
	if (got < 0)
		return tf_terr(t, SIBT_EIO, "%s: read error: %s", f->path,
			    strerror(errno));
	if (memcmp(h, TF_MAGIC, (size_t)got))
		return tf_terr(t, SIBT_EMAGIC, "%s: not a Sibyl data file (bad "
			    "magic number)", f->path);
	if (f->size < TF_HDR_SIZE)
		return tf_terr(t, SIBT_ETRUNC, "%s: only %" PRIu64 " bytes, cut "
			    "off inside its %d-byte header: nothing of it can "
			    "be recovered", f->path, f->size, TF_HDR_SIZE);
	if (tf_pread_full(f->fd, h, sizeof h, 0) != (long long)sizeof h)
		return tf_terr(t, SIBT_EIO, "%s: read error: %s", f->path,
			    strerror(errno));
	if (tf_get32(h + 12) != TF_BOM)
		return tf_terr(t, SIBT_EVERSION, "%s: byte-order mark 0x%08x: "
			    "written with a byte order this Sibyl cannot "
			    "read (or corrupted)", f->path, tf_get32(h + 12));
	if (tf_get16(h + 8) != SIBT_FORMAT_MAJOR)
		return tf_terr(t, SIBT_EVERSION, "%s: format version %u.%u is not "
			    "supported (this Sibyl reads %d.x): use a matching "
			    "Sibyl version", f->path, tf_get16(h + 8),
			    tf_get16(h + 10), SIBT_FORMAT_MAJOR);
	if (tf_get32(h + 60) != crc32(0, h, 60))
		return tf_terr(t, SIBT_ECRC, "%s: the header fails its checksum: "
			    "the file is corrupted", f->path);
	if (tf_get32(h + 16) != f->proc || tf_get32(h + 20) != t->nprocs ||
	    tf_get32(h + 24) != t->npes || tf_get32(h + 28) != f->first_pe ||
	    tf_get32(h + 32) != f->npes || tf_get32(h + 36) != t->window)
		return tf_terr(t, SIBT_EMANIFEST, "%s: header says process %u of "
			    "%u, %u PEs, PEs %u..+%u, window %u, but MANIFEST "
			    "says process %u of %u, %u PEs, PEs %u..+%u, window "
			    "%u: files from different traces?", f->path,
			    tf_get32(h + 16), tf_get32(h + 20),
			    tf_get32(h + 24), tf_get32(h + 28),
			    tf_get32(h + 32), tf_get32(h + 36), f->proc,
			    t->nprocs, t->npes, f->first_pe, f->npes,
			    t->window);
	if (add_name(f, (const uint8_t *)"", 0))
		return tf_terr(t, SIBT_ENOMEM, "out of memory");

	int code = load_index(t, f, why, sizeof why);
	if (code == 0)
		return SIBT_OK;
	if (code == SIBT_ENOMEM)
		return tf_terr(t, SIBT_ENOMEM, "out of memory");
	if (t->flags & SIBT_OPEN_NO_SCAN) {
		/* Reading every frame of a 1 GB file that a killed run left
		 * takes minutes, for a caller that needs only "incomplete". */
		if (adopt_windows(t, f, NULL, 0) ||
		    add_damage(t, f, code < 0 ? code : SIBT_EFORMAT,
			       TF_HDR_SIZE, 0, 0, "%s: %s; its frames were not "
			       "read", f->path, why))
			return tf_terr(t, SIBT_ENOMEM, "out of memory");
		return SIBT_OK;
	}
	return scan_file(t, f, code < 0 ? code : SIBT_EFORMAT, why);
}

static void trace_free(sibt_trace *t)
{
	if (t->files) {
		for (uint32_t p = 0; p < t->nprocs; p++) {
			tf_file *f = &t->files[p];
			if (f->fd >= 0)
				close(f->fd);
			for (uint32_t i = 0; i < f->nnames; i++)
				free(f->names[i]);
			free(f->names);
			free(f->dict);
			free(f->path);
			free(f->name);
		}
		free(t->files);
	}
	for (size_t i = 0; i < t->ndamage; i++)
		free((char *)t->damage[i].detail);
	free(t->damage);
	free(t->pe_win);
	free(t->wins);
	free(t->pkst.p);
	tf_manifest_free(&t->man);
	if (t->zinit)
		inflateEnd(&t->z);
	if (t->own_scratch && t->dir)
		tf_rmtree(t->dir);
	free(t->dir);
	t->magic = TRACE_DEAD;
	free(t);
}

int sibt_trace_open(sibt_trace **tp, const char *path, int flags,
		    char *errbuf, size_t errlen)
{
	return sibt_trace_open_in(tp, path, flags, NULL, errbuf, errlen);
}

int sibt_trace_open_in(sibt_trace **tp, const char *path, int flags,
		       const char *scratch, char *errbuf, size_t errlen)
{
	sibt_trace *t;
	struct stat st;
	int rc;

	if (!tp)
		return SIBT_EINVAL;
	*tp = NULL;
	if (!path)
		return tf_fail(errbuf, errlen, SIBT_EINVAL, "no path");
	if (stat(path, &st) != 0)
		return tf_fail(errbuf, errlen, SIBT_EIO, "%s: %s", path,
			       strerror(errno));
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return tf_fail(errbuf, errlen, SIBT_EINVAL, "%s: neither a "
			       "trace directory nor a bundle (a regular file)",
			       path);
	if (!(t = calloc(1, sizeof *t)))
		return tf_fail(errbuf, errlen, SIBT_ENOMEM, "out of memory");
	t->magic = TRACE_MAGIC;
	t->flags = flags;
	if (S_ISDIR(st.st_mode)) {
		t->dir = strdup(path);
		if (!t->dir) {
			rc = tf_terr(t, SIBT_ENOMEM, "out of memory");
			goto fail;
		}
	} else if (scratch) {
		if (!(t->dir = strdup(scratch))) {
			rc = tf_terr(t, SIBT_ENOMEM, "out of memory");
			goto fail;
		}
		t->bundle = 1;  /* the caller owns and removes scratch */
		rc = sibt_bundle_unpack(path, scratch, 1, t->err,
					sizeof t->err);
		if (rc)
			goto fail;
	} else {
		const char *tmp = getenv("TMPDIR");
		char *tpl = tf_path_join(tmp && *tmp ? tmp : "/tmp",
					 "sibyl-bundle-XXXXXX");
		if (!tpl || !mkdtemp(tpl)) {
			rc = tf_terr(t, SIBT_EIO, "cannot create a scratch "
				  "directory to unpack %s: %s (set TMPDIR)",
				  path, strerror(errno));
			free(tpl);
			goto fail;
		}
		t->dir = tpl;
		t->bundle = 1;
		t->own_scratch = 1;
		rc = sibt_bundle_unpack(path, tpl, 1, t->err, sizeof t->err);
		if (rc)
			goto fail;
	}
	if ((rc = read_manifest(t)))
		goto fail;
	for (uint32_t p = 0; p < t->nprocs; p++)
		if ((rc = open_file(t, &t->files[p])))
			goto fail;
	t->pe_win[t->npes] = t->nwins;

	if (flags & SIBT_OPEN_VERIFY_ALL) {
		sibt_window *win = sibt_window_new();
		if (!win) {
			rc = tf_terr(t, SIBT_ENOMEM, "out of memory");
			goto fail;
		}
		for (uint32_t pe = 0; pe < t->npes; pe++) {
			uint64_t n = t->pe_win[pe + 1] - t->pe_win[pe];
			for (uint64_t w = 0; w < n; w++) {
				if ((rc = sibt_trace_read_window(t, pe, w,
				     win))) {
					sibt_window_free(win);
					goto fail;
				}
			}
		}
		sibt_window_free(win);
	}
	*tp = t;
	return t->ndamage ? SIBT_WARN : SIBT_OK;
fail:
	tf_fail(errbuf, errlen, rc, "%s", t->err);
	trace_free(t);
	return rc;
}

void sibt_trace_close(sibt_trace *t)
{
	if (tf_trace_ok(t))
		trace_free(t);
}

const char *sibt_trace_errmsg(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->err : "invalid trace handle";
}
