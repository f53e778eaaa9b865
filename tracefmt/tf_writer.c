/*
 * tf_writer.c -- the streaming trace writer.
 *
 * Each PE owns one open window: the encoded records of its SEBs since its
 * last flush.  A window is compressed and appended to the data file as soon
 * as it holds `window' SEBs, so the writer's memory is the open windows (at
 * most mem_budget bytes: beyond it every open window is flushed early) plus
 * 32 bytes of index per written window.  Frames are appended whole and the
 * index and trailer come last, which is what makes a cut-off file readable
 * up to its last complete frame (FORMAT.md section 6).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "tf_private.h"

#define WRITER_MAGIC 0x57544253u /* "SBTW" */
#define WRITER_DEAD 0xdeadbeefu
#define OUTBUF_SIZE (1u << 20)
#define DEFAULT_WINDOW 64
#define DEFAULT_BUDGET ((size_t)64 << 20)

typedef struct pe_state {
	tf_buf buf;             /* records of the open window */
	uint32_t win_sebs;      /* SEBs in the open window */
	uint32_t win_sends;     /* sends in the open window */
	uint32_t nwin;          /* windows written */
	uint64_t nsebs, nsends; /* totals, open window included */
} pe_state;

typedef struct idx_ent {
	uint64_t offset;
	uint32_t pe;            /* local PE number */
	uint32_t nsebs, nsends, raw, stored;
} idx_ent;

struct sibt_writer {
	uint32_t magic;
	char *dir, *path;
	int fd;
	uint32_t npes, nprocs, proc, first_pe, local_npes, window;
	int level, unchecked;
	size_t budget, pending;
	pe_state *pes;

	/* string table: names[id], id 0 is "" */
	char **names;
	uint32_t nnames, names_cap, nwritten;
	uint32_t *htab;         /* open addressing, holds ids, 0 = empty */
	uint32_t hcap;

	idx_ent *idx;
	size_t nidx, cap_idx;
	uint64_t *stroffs;
	size_t nstr, cap_str;

	tf_buf out;             /* output not yet written */
	uint64_t off;           /* file offset of the end of `out' */
	uint64_t total_sebs;
	z_stream z;
	int zinit;
	tf_buf zbuf;
	/* Preset dictionary: the first TF_DICT_SIZE raw window bytes of the
	 * file.  Until it is complete (dict_off, the offset of its frame, is
	 * 0 until then) windows are deflated without one. */
	tf_buf dict;
	uint64_t dict_off;
	int failed;             /* sticky: an I/O error happened */
	char err[1024];
};

static int werr(sibt_writer *w, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int werr(sibt_writer *w, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
	return code;
}

static int check_writer(const sibt_writer *w)
{
	return w && w->magic == WRITER_MAGIC;
}

void sibt_writer_opts_init(sibt_writer_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->level = -1;
}

void sibt_datafile_name(char *buf, size_t len, uint32_t proc)
{
	snprintf(buf, len, "proc-%06" PRIu32 ".sdat", proc);
}

void sibt_block_range(uint32_t npes, uint32_t nprocs, uint32_t p,
		      uint32_t *first, uint32_t *count)
{
	uint32_t q = npes / nprocs, r = npes % nprocs;
	*first = p * q + (p < r ? p : r);
	*count = q + (p < r);
}

/* ----------------------------------------------------------- output */

static int out_flush(sibt_writer *w)
{
	if (w->failed)
		return SIBT_EIO;
	if (w->out.len && tf_write_full(w->fd, w->out.p, w->out.len)) {
		w->failed = 1;
		return werr(w, SIBT_EIO, "%s: write failed at offset %" PRIu64
			    ": %s", w->path, w->off - w->out.len,
			    strerror(errno));
	}
	w->out.len = 0;
	return SIBT_OK;
}

/* Append one frame (header + payload) to the output. */
static int out_frame(sibt_writer *w, const uint8_t *hdr, size_t hlen,
		     const uint8_t *payload, size_t plen)
{
	if (w->failed)
		return SIBT_EIO;
	if (w->out.len + hlen + plen > OUTBUF_SIZE && out_flush(w))
		return SIBT_EIO;
	if (tf_buf_put(&w->out, hdr, hlen))
		return werr(w, SIBT_ENOMEM, "out of memory");
	if (plen > OUTBUF_SIZE) {
		/* Large payloads bypass the buffer. */
		if (out_flush(w))
			return SIBT_EIO;
		if (tf_write_full(w->fd, payload, plen)) {
			w->failed = 1;
			return werr(w, SIBT_EIO, "%s: write failed: %s",
				    w->path, strerror(errno));
		}
	} else if (tf_buf_put(&w->out, payload, plen)) {
		return werr(w, SIBT_ENOMEM, "out of memory");
	}
	w->off += hlen + plen;
	return SIBT_OK;
}

/*
 * Compress src into w->zbuf; returns the method (0 stored, 1 deflate,
 * 2 deflate with the file's dictionary) or -1.  Unless `force' is set,
 * incompressible data is stored as it is, and the dictionary is used once
 * it exists.
 */
static int compress_payload(sibt_writer *w, const uint8_t *src, size_t len,
			    int force, const uint8_t **out, size_t *outlen)
{
	int method = 1;

	*out = src;
	*outlen = len;
	if (!force && (w->level == 0 || len == 0))
		return 0;
	if (!w->zinit) {
		/* memLevel 4 (a 2^11-entry hash table instead of 2^15):
		 * deflateReset clears the table before every window, and
		 * windows are a few KiB, so the big table cost far more
		 * time clearing than it gained in ratio. */
		if (deflateInit2(&w->z, w->level ? w->level :
				 Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15,
				 TF_DEFLATE_MEMLEVEL,
				 Z_DEFAULT_STRATEGY) != Z_OK)
			return -1;
		w->zinit = 1;
	} else {
		deflateReset(&w->z);
	}
	if (!force && w->dict_off) {
		if (deflateSetDictionary(&w->z, w->dict.p, (uInt)w->dict.len) !=
		    Z_OK)
			return -1;
		method = 2;
	}
	size_t bound = deflateBound(&w->z, (uLong)len) + 16;
	w->zbuf.len = 0;
	if (tf_buf_reserve(&w->zbuf, bound))
		return -1;
	w->z.next_in = (Bytef *)src;
	w->z.avail_in = (uInt)len;
	w->z.next_out = w->zbuf.p;
	w->z.avail_out = (uInt)bound;
	if (deflate(&w->z, Z_FINISH) != Z_STREAM_END)
		return -1;
	size_t clen = bound - w->z.avail_out;
	if (clen >= len && !force)
		return 0; /* incompressible: store */
	*out = w->zbuf.p;
	*outlen = clen;
	return method;
}

/*
 * Feed the first raw window bytes of the file into the dictionary; once
 * it is full, write it as a DICT frame.  Windows of one run look alike
 * (same names, peers, sizes), so a small dictionary taken from the first
 * ones makes the many small windows of a wide, short run compress about
 * three times better at no cost in random access.
 */
static int grow_dict(sibt_writer *w, const uint8_t *raw, size_t len)
{
	if (w->dict_off || w->level == 0)
		return SIBT_OK;
	size_t take = TF_DICT_SIZE - w->dict.len;
	if (take > len)
		take = len;
	if (tf_buf_put(&w->dict, raw, take))
		return werr(w, SIBT_ENOMEM, "out of memory");
	if (w->dict.len < TF_DICT_SIZE)
		return SIBT_OK;

	uint8_t h[TF_DICT_HDR];
	memcpy(h, "DICT", 4);
	tf_put32(h + 4, (uint32_t)w->dict.len);
	tf_put32(h + 8, (uint32_t)crc32(0, w->dict.p, (uInt)w->dict.len));
	tf_put32(h + 12, (uint32_t)crc32(0, h, 12));
	w->dict_off = w->off;
	return out_frame(w, h, sizeof h, w->dict.p, w->dict.len);
}

/* Emit a STRS frame with every name not yet written. */
static int flush_strings(sibt_writer *w)
{
	if (w->nwritten == w->nnames)
		return SIBT_OK;
	tf_buf p = { 0 };
	for (uint32_t i = w->nwritten; i < w->nnames; i++) {
		size_t l = strlen(w->names[i]);
		if (tf_buf_varint(&p, l) || tf_buf_put(&p, w->names[i], l)) {
			tf_buf_free(&p);
			return werr(w, SIBT_ENOMEM, "out of memory");
		}
	}
	uint8_t h[TF_STR_HDR];
	memcpy(h, "STRS", 4);
	tf_put32(h + 4, w->nwritten);
	tf_put32(h + 8, w->nnames - w->nwritten);
	tf_put32(h + 12, (uint32_t)p.len);
	tf_put32(h + 16, (uint32_t)crc32(0, p.p, (uInt)p.len));
	tf_put32(h + 20, (uint32_t)crc32(0, h, 20));
	if (w->nstr == w->cap_str) {
		size_t cap = w->cap_str ? w->cap_str * 2 : 8;
		uint64_t *s = realloc(w->stroffs, cap * sizeof *s);
		if (!s) {
			tf_buf_free(&p);
			return werr(w, SIBT_ENOMEM, "out of memory");
		}
		w->stroffs = s;
		w->cap_str = cap;
	}
	w->stroffs[w->nstr++] = w->off;
	int rc = out_frame(w, h, sizeof h, p.p, p.len);
	tf_buf_free(&p);
	if (rc == SIBT_OK)
		w->nwritten = w->nnames;
	return rc;
}

/* Compress and write the open window of local PE l. */
static int flush_window(sibt_writer *w, uint32_t l)
{
	pe_state *ps = &w->pes[l];
	const uint8_t *payload;
	size_t plen;
	int rc;

	if (!ps->win_sebs)
		return SIBT_OK;
	if ((rc = flush_strings(w)))
		return rc;
	TF_ASSERT(ps->buf.len <= TF_MAX_RAW);
	if ((rc = grow_dict(w, ps->buf.p, ps->buf.len)))
		return rc;
	int method = compress_payload(w, ps->buf.p, ps->buf.len, 0, &payload,
				      &plen);
	if (method < 0)
		return werr(w, SIBT_ENOMEM, "zlib deflate failed (out of "
			    "memory?)");

	/* Header: tag, its own length, varint fields, two CRCs. */
	uint8_t h[TF_WIN_HDR_MAX];
	size_t n = 5;
	memcpy(h, "WIND", 4);
	n += tf_put_varint(h + n, w->first_pe + l);
	n += tf_put_varint(h + n, ps->nwin);
	n += tf_put_varint(h + n, ps->win_sebs);
	n += tf_put_varint(h + n, ps->nsebs - ps->win_sebs);
	n += tf_put_varint(h + n, ps->nsends - ps->win_sends);
	n += tf_put_varint(h + n, ps->win_sends);
	n += tf_put_varint(h + n, ps->buf.len);
	n += tf_put_varint(h + n, plen);
	n += tf_put_varint(h + n, (uint64_t)method);
	TF_ASSERT(n + 8 <= TF_WIN_HDR_MAX);
	h[4] = (uint8_t)(n + 8);
	tf_put32(h + n, (uint32_t)crc32(0, payload, (uInt)plen));
	tf_put32(h + n + 4, (uint32_t)crc32(0, h, (uInt)(n + 4)));

	if (w->nidx == w->cap_idx) {
		size_t cap = w->cap_idx ? w->cap_idx * 2 : 1024;
		idx_ent *e = realloc(w->idx, cap * sizeof *e);
		if (!e)
			return werr(w, SIBT_ENOMEM, "out of memory");
		w->idx = e;
		w->cap_idx = cap;
	}
	idx_ent *e = &w->idx[w->nidx];
	e->offset = w->off;
	e->pe = l;
	e->nsebs = ps->win_sebs;
	e->nsends = ps->win_sends;
	e->raw = (uint32_t)ps->buf.len;
	e->stored = (uint32_t)plen;
	if ((rc = out_frame(w, h, n + 8, payload, plen)))
		return rc;
	w->nidx++;
	if (ps->nwin == UINT32_MAX)
		return werr(w, SIBT_EINVAL, "PE %u has 2^32 windows; use a "
			    "larger window", w->first_pe + l);
	ps->nwin++;
	ps->win_sebs = ps->win_sends = 0;
	w->pending -= ps->buf.len;
	/* Keep small buffers for the next window; give big ones back. */
	if (ps->buf.cap > 4096)
		tf_buf_free(&ps->buf);
	else
		ps->buf.len = 0;
	return SIBT_OK;
}

/* ---------------------------------------------------------- strings */

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static int intern(sibt_writer *w, const char *name, uint32_t *id)
{
	if (!name || !*name) {
		*id = 0;
		return SIBT_OK;
	}
	if ((w->nnames + 1) * 2 > w->hcap) {
		uint32_t cap = w->hcap ? w->hcap * 2 : 64;
		uint32_t *t = calloc(cap, sizeof *t);
		if (!t)
			return SIBT_ENOMEM;
		for (uint32_t i = 1; i < w->nnames; i++) {
			uint32_t j = hash_name(w->names[i]) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = i;
		}
		free(w->htab);
		w->htab = t;
		w->hcap = cap;
	}
	uint32_t j = hash_name(name) & (w->hcap - 1);
	while (w->htab[j]) {
		if (!strcmp(w->names[w->htab[j]], name)) {
			*id = w->htab[j];
			return SIBT_OK;
		}
		j = (j + 1) & (w->hcap - 1);
	}
	if (w->nnames == w->names_cap) {
		uint32_t cap = w->names_cap * 2;
		char **n = realloc(w->names, cap * sizeof *n);
		if (!n)
			return SIBT_ENOMEM;
		w->names = n;
		w->names_cap = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return SIBT_ENOMEM;
	w->names[w->nnames] = copy;
	w->htab[j] = w->nnames;
	*id = w->nnames++;
	return SIBT_OK;
}

/* ------------------------------------------------------------- API */

static int validate(sibt_writer *w, const sibt_seb *s, uint64_t index,
		    uint64_t seq0)
{
	uint32_t i;

	if (s->duration < 0)
		return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64 ": negative "
			    "duration %" PRId64, s->pe, index, s->duration);
	if (s->corrected > SIBT_CORR_MAX || (s->corrected &&
					      s->raw_duration < 0))
		return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64 ": correction "
			    "reason %u with raw duration %" PRId64 " (reasons "
			    "1 to %d, raw >= 0)", s->pe, index, s->corrected,
			    s->raw_duration, SIBT_CORR_MAX);
	if (!s->preds_default) {
		if (s->npreds && !s->preds)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": npreds > 0 but preds is NULL", s->pe,
				    index);
		for (i = 0; i < s->npreds; i++)
			if (!w->unchecked && s->preds[i] >= index)
				return werr(w, SIBT_EINVAL, "PE %u SEB %"
					PRIu64 ": predecessor %" PRIu64 " is "
					"not an earlier SEB of the PE", s->pe,
					index, s->preds[i]);
	}
	if ((s->nwaits && !s->waits) || (s->nsends && !s->sends) ||
	    (s->nprints && !s->prints) || (s->nmarkers && !s->markers) ||
	    (s->ndone && !s->done) || (s->nposted && !s->posted))
		return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64 ": a list "
			    "has a count but a NULL pointer", s->pe, index);
	for (i = 0; i < s->ndone; i++)
		if (s->done[i] >= seq0)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": completes send %" PRIu64 ", which the "
				    "PE has not made before it (%" PRIu64
				    " sends so far)", s->pe, index,
				    s->done[i], seq0);
	for (i = 0; i < s->nposted && !w->unchecked; i++)
		if (s->posted[i].src >= w->npes)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": posted a receive of a message from PE "
				    "%u, but the trace has %u PEs", s->pe,
				    index, s->posted[i].src, w->npes);
	for (i = 0; i < s->nwaits && !w->unchecked; i++)
		if (s->waits[i].src >= w->npes)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": waits for a message from PE %u, but the "
				    "trace has %u PEs", s->pe, index,
				    s->waits[i].src, w->npes);
	for (i = 0; i < s->nsends; i++) {
		if (!w->unchecked && s->sends[i].dst >= w->npes)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": sends to PE %u, but the trace has %u PEs",
				    s->pe, index, s->sends[i].dst, w->npes);
		if (s->sends[i].offset < 0)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": send %u has a negative offset", s->pe,
				    index, i);
	}
	for (i = 0; i < s->nprints; i++) {
		if (s->prints[i].offset < 0 ||
		    (s->prints[i].len && !s->prints[i].text))
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": print %u has a negative offset or no "
				    "text", s->pe, index, i);
	}
	for (i = 0; i < s->nmarkers && !w->unchecked; i++)
		if (s->markers[i].kind < SIBT_MARK_SKIP_START ||
		    s->markers[i].kind > SIBT_MARK_USER)
			return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64
				    ": unknown marker kind %u", s->pe, index,
				    s->markers[i].kind);
	return SIBT_OK;
}

int sibt_writer_add(sibt_writer *w, const sibt_seb *s, uint64_t *first_seq)
{
	uint32_t id, rid;
	int rc;

	if (!check_writer(w) || !s)
		return SIBT_EINVAL;
	if (w->failed)
		return SIBT_EIO;
	if (s->pe < w->first_pe || s->pe - w->first_pe >= w->local_npes)
		return werr(w, SIBT_EINVAL, "PE %u is not written by process "
			    "%u (it writes PEs %u..%u)", s->pe, w->proc,
			    w->first_pe, w->first_pe + w->local_npes - 1);
	pe_state *ps = &w->pes[s->pe - w->first_pe];
	if ((rc = validate(w, s, ps->nsebs, ps->nsends)))
		return rc;
	if ((rc = intern(w, s->name, &id)) ||
	    (rc = intern(w, s->region, &rid)))
		return werr(w, rc, "out of memory");

	size_t before = ps->buf.len;
	if ((rc = tf_encode_seb(&ps->buf, s, id, rid, s->pe, ps->nsebs,
				ps->nsends)))
		return werr(w, rc, "out of memory");
	if (ps->buf.len - before > TF_MAX_RAW / 2) {
		size_t big = ps->buf.len - before;
		ps->buf.len = before;
		return werr(w, SIBT_EINVAL, "PE %u SEB %" PRIu64 " takes %zu "
			    "bytes encoded; the limit is %u (shorten its "
			    "prints)", s->pe, ps->nsebs, big, TF_MAX_RAW / 2);
	}
	w->pending += ps->buf.len - before;
	if (first_seq)
		*first_seq = ps->nsends;
	ps->nsebs++;
	ps->nsends += s->nsends;
	ps->win_sebs++;
	ps->win_sends += s->nsends;
	w->total_sebs++;

	if (ps->win_sebs >= w->window || ps->buf.len > TF_MAX_RAW / 2)
		rc = flush_window(w, s->pe - w->first_pe);
	if (rc == SIBT_OK && w->pending > w->budget) {
		for (uint32_t l = 0; l < w->local_npes && rc == SIBT_OK; l++)
			rc = flush_window(w, l);
	}
	return rc;
}

uint64_t sibt_writer_next_seq(const sibt_writer *w, uint32_t pe)
{
	if (!check_writer(w) || pe < w->first_pe ||
	    pe - w->first_pe >= w->local_npes)
		return 0;
	return w->pes[pe - w->first_pe].nsends;
}

uint64_t sibt_writer_nsebs(const sibt_writer *w, uint32_t pe)
{
	if (!check_writer(w) || pe < w->first_pe ||
	    pe - w->first_pe >= w->local_npes)
		return 0;
	return w->pes[pe - w->first_pe].nsebs;
}

int sibt_writer_flush_pe(sibt_writer *w, uint32_t pe)
{
	if (!check_writer(w))
		return SIBT_EINVAL;
	if (pe < w->first_pe || pe - w->first_pe >= w->local_npes)
		return werr(w, SIBT_EINVAL, "PE %u is not written by this "
			    "writer", pe);
	/* A PE flushed explicitly has normally finished: give its buffer
	 * back, or a million finished ranks would keep one each. */
	int rc = flush_window(w, pe - w->first_pe);
	if (rc == SIBT_OK)
		tf_buf_free(&w->pes[pe - w->first_pe].buf);
	if (rc == SIBT_OK)
		rc = out_flush(w);
	return rc;
}

const char *sibt_writer_errmsg(const sibt_writer *w)
{
	return w ? w->err : "no writer";
}

uint64_t sibt_writer_bytes_written(const sibt_writer *w)
{
	return check_writer(w) ? w->off : 0;
}

size_t sibt_writer_bytes_pending(const sibt_writer *w)
{
	return check_writer(w) ? w->pending : 0;
}

static void writer_free(sibt_writer *w)
{
	if (w->fd >= 0)
		close(w->fd);
	if (w->pes) {
		for (uint32_t l = 0; l < w->local_npes; l++)
			tf_buf_free(&w->pes[l].buf);
		free(w->pes);
	}
	for (uint32_t i = 1; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->htab);
	free(w->idx);
	free(w->stroffs);
	tf_buf_free(&w->out);
	tf_buf_free(&w->zbuf);
	tf_buf_free(&w->dict);
	if (w->zinit)
		deflateEnd(&w->z);
	free(w->dir);
	free(w->path);
	w->magic = WRITER_DEAD;
	free(w);
}

/* Write the INDX frame and the trailer. */
static int write_index(sibt_writer *w)
{
	uint32_t n = w->local_npes;
	size_t *start = calloc((size_t)n + 1, sizeof *start);
	idx_ent *sorted = malloc((w->nidx ? w->nidx : 1) * sizeof *sorted);
	tf_buf p = { 0 };
	int rc = SIBT_ENOMEM;

	if (!start || !sorted)
		goto out;
	/* Counting sort by PE; within a PE the file order is window order. */
	for (size_t i = 0; i < w->nidx; i++)
		start[w->idx[i].pe + 1]++;
	for (uint32_t l = 0; l < n; l++)
		start[l + 1] += start[l];
	for (size_t i = 0; i < w->nidx; i++)
		sorted[start[w->idx[i].pe]++] = w->idx[i];
	size_t k = 0;
	for (uint32_t l = 0; l < n; l++) {
		int r = tf_buf_varint(&p, w->pes[l].nwin);
		uint64_t prev = 0;
		for (uint32_t j = 0; j < w->pes[l].nwin; j++, k++) {
			const idx_ent *e = &sorted[k];
			r |= tf_buf_varint(&p, e->offset - prev);
			r |= tf_buf_varint(&p, e->nsebs);
			r |= tf_buf_varint(&p, e->nsends);
			r |= tf_buf_varint(&p, e->raw);
			r |= tf_buf_varint(&p, e->stored);
			prev = e->offset;
		}
		if (r)
			goto out;
	}
	uint64_t prev = 0;
	for (size_t i = 0; i < w->nstr; i++) {
		if (tf_buf_varint(&p, w->stroffs[i] - prev))
			goto out;
		prev = w->stroffs[i];
	}
	if (tf_buf_varint(&p, w->dict_off))
		goto out;
	TF_ASSERT(k == w->nidx);
	if (p.len > UINT32_MAX) {
		rc = werr(w, SIBT_EINVAL, "window index exceeds 4 GiB");
		goto out;
	}

	const uint8_t *payload;
	size_t plen;
	/* The index is always deflated (FORMAT.md 4.2). */
	if (compress_payload(w, p.p, p.len, 1, &payload, &plen) != 1)
		goto out;

	uint8_t h[TF_IDX_HDR];
	memcpy(h, "INDX", 4);
	tf_put32(h + 4, 0);
	tf_put64(h + 8, w->nidx);
	tf_put32(h + 16, (uint32_t)w->nstr);
	tf_put32(h + 20, (uint32_t)p.len);
	tf_put32(h + 24, (uint32_t)plen);
	tf_put32(h + 28, (uint32_t)crc32(0, payload, (uInt)plen));
	tf_put32(h + 32, (uint32_t)crc32(0, h, 32));
	uint64_t idx_off = w->off;
	if ((rc = out_frame(w, h, sizeof h, payload, plen)))
		goto out;

	uint8_t t[TF_TRAILER];
	memcpy(t, "TEND", 4);
	tf_put32(t + 4, 0);
	tf_put64(t + 8, idx_off);
	tf_put64(t + 16, w->total_sebs);
	tf_put32(t + 24, 0);
	tf_put32(t + 28, (uint32_t)crc32(0, t, 28));
	rc = out_frame(w, t, sizeof t, NULL, 0);
out:
	if (rc == SIBT_ENOMEM && !w->err[0])
		werr(w, rc, "out of memory writing the window index");
	free(start);
	free(sorted);
	tf_buf_free(&p);
	return rc;
}

int sibt_writer_close(sibt_writer *w)
{
	int rc = SIBT_OK;

	if (!check_writer(w))
		return SIBT_EINVAL;
	for (uint32_t l = 0; l < w->local_npes && rc == SIBT_OK; l++)
		rc = flush_window(w, l);
	if (rc == SIBT_OK)
		rc = flush_strings(w);
	if (rc == SIBT_OK)
		rc = write_index(w);
	if (rc == SIBT_OK)
		rc = out_flush(w);
#if HAVE_FDATASYNC
	if (rc == SIBT_OK && fdatasync(w->fd) != 0 && errno != EINVAL)
		rc = werr(w, SIBT_EIO, "%s: sync failed: %s", w->path,
			  strerror(errno));
#endif
	if (rc == SIBT_OK && close(w->fd) != 0)
		rc = werr(w, SIBT_EIO, "%s: close failed: %s", w->path,
			  strerror(errno));
	else if (rc == SIBT_OK)
		w->fd = -1;
	if (rc != SIBT_OK) {
		/* The caller can no longer ask the handle; say it here. */
		fprintf(stderr, "libsibyl-trace: %s\n", w->err);
	}
	writer_free(w);
	return rc;
}

void sibt_writer_abort(sibt_writer *w)
{
	if (!check_writer(w))
		return;
	out_flush(w);
	writer_free(w);
}

/* ------------------------------------------------------------- open */

static int write_manifest(sibt_writer *w, const sibt_writer_opts *o,
			  char *err, size_t errlen)
{
	tf_manifest m = { 0 };
	char buf[256], name[64];
	int rc = 0;

	snprintf(buf, sizeof buf, "sibyl-trace %d.%d", SIBT_FORMAT_MAJOR,
		 SIBT_FORMAT_MINOR);
	rc |= tf_manifest_set(&m, "format", buf);
	snprintf(buf, sizeof buf, "%" PRIu32, w->npes);
	rc |= tf_manifest_set(&m, "npes", buf);
	snprintf(buf, sizeof buf, "%" PRIu32, w->nprocs);
	rc |= tf_manifest_set(&m, "nprocs", buf);
	snprintf(buf, sizeof buf, "%" PRIu32, w->window);
	rc |= tf_manifest_set(&m, "window", buf);
	rc |= tf_manifest_set(&m, "time_unit", "ps");
	rc |= tf_manifest_set(&m, "byte_order", "little-endian");
	for (uint32_t p = 0; p < w->nprocs && !rc; p++) {
		uint32_t first, count;
		sibt_block_range(w->npes, w->nprocs, p, &first, &count);
		sibt_datafile_name(name, sizeof name, p);
		snprintf(buf, sizeof buf, "%s %" PRIu32 " %" PRIu32, name,
			 first, count);
		char key[32];
		snprintf(key, sizeof key, "file.%" PRIu32, p);
		rc |= tf_manifest_set(&m, key, buf);
	}
	if (o->generator)
		rc |= tf_manifest_set(&m, "generator", o->generator);
	if (o->cmdline)
		rc |= tf_manifest_set(&m, "cmdline", o->cmdline);
	if (o->topology)
		rc |= tf_manifest_set(&m, "topology", o->topology);
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm)) {
		strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
		rc |= tf_manifest_set(&m, "created", buf);
	}
	if (gethostname(buf, sizeof buf) == 0) {
		buf[sizeof buf - 1] = 0;
		rc |= tf_manifest_set(&m, "hostname", buf);
	}
	for (const char *const *e = o->extra; e && *e && !rc; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq) {
			tf_manifest_free(&m);
			return tf_fail(err, errlen, SIBT_EINVAL, "manifest "
				       "entry '%s' is not 'key = value'", *e);
		}
		char key[256];
		size_t kl = (size_t)(eq - *e);
		while (kl && (*e)[kl - 1] == ' ')
			kl--;
		if (kl == 0 || kl >= sizeof key) {
			tf_manifest_free(&m);
			return tf_fail(err, errlen, SIBT_EINVAL, "manifest "
				       "entry '%s' has a bad key", *e);
		}
		memcpy(key, *e, kl);
		key[kl] = 0;
		if (tf_manifest_get(&m, key) &&
		    (!strcmp(key, "format") || !strcmp(key, "npes") ||
		     !strcmp(key, "nprocs") || !strcmp(key, "window") ||
		     !strcmp(key, "time_unit") || !strcmp(key, "byte_order") ||
		     !strncmp(key, "file.", 5))) {
			tf_manifest_free(&m);
			return tf_fail(err, errlen, SIBT_EINVAL, "manifest "
				       "entry '%s' would replace a key the "
				       "format defines", *e);
		}
		const char *v = eq + 1;
		while (*v == ' ')
			v++;
		rc |= tf_manifest_set(&m, key, v);
	}
	if (rc) {
		tf_manifest_free(&m);
		return tf_fail(err, errlen, SIBT_ENOMEM, "out of memory");
	}
	char *path = tf_path_join(w->dir, TF_MANIFEST);
	rc = path ? tf_manifest_write(&m, path, err, errlen) : SIBT_ENOMEM;
	free(path);
	tf_manifest_free(&m);
	return rc;
}

/* With overwrite, the manifest writer removes what an earlier trace in
 * the same directory left that this one will not replace. */
static void remove_stale(const sibt_writer *w)
{
	char name[64];
	char *p = tf_path_join(w->dir, TF_MANIFEST);
	if (p)
		unlink(p);
	free(p);
	for (uint32_t i = w->nprocs;; i++) {
		sibt_datafile_name(name, sizeof name, i);
		p = tf_path_join(w->dir, name);
		int gone = !p || unlink(p) != 0;
		free(p);
		if (gone)
			break;
	}
}

int sibt_writer_open(sibt_writer **wp, const char *path,
		     const sibt_writer_opts *o, char *err, size_t errlen)
{
	sibt_writer *w;
	char name[64];
	int rc;

	if (!wp)
		return SIBT_EINVAL;
	*wp = NULL;
	if (!path || !o)
		return tf_fail(err, errlen, SIBT_EINVAL, "no path or options");
	if (o->npes == 0 || o->nprocs == 0 || o->proc >= o->nprocs ||
	    o->nprocs > o->npes)
		return tf_fail(err, errlen, SIBT_EINVAL, "invalid writer "
			"options: npes %u, nprocs %u, proc %u (need npes >= "
			"nprocs > proc)", o->npes, o->nprocs, o->proc);
	if (o->level < -1 || o->level > 9)
		return tf_fail(err, errlen, SIBT_EINVAL, "compression level "
			       "%d is not in 0..9", o->level);
	if (!(w = calloc(1, sizeof *w)))
		return tf_fail(err, errlen, SIBT_ENOMEM, "out of memory");
	w->magic = WRITER_MAGIC;
	w->fd = -1;
	w->npes = o->npes;
	w->nprocs = o->nprocs;
	w->proc = o->proc;
	sibt_block_range(o->npes, o->nprocs, o->proc, &w->first_pe,
			 &w->local_npes);
	if (o->local_npes && (o->first_pe != w->first_pe ||
	    o->local_npes != w->local_npes)) {
		rc = tf_fail(err, errlen, SIBT_EINVAL, "process %u must write "
			"PEs %u..%u (block distribution of FORMAT.md), not "
			"%u..%u", o->proc, w->first_pe,
			w->first_pe + w->local_npes - 1, o->first_pe,
			o->first_pe + o->local_npes - 1);
		goto fail;
	}
	w->window = o->window ? o->window : DEFAULT_WINDOW;
	w->level = o->level < 0 ? 6 : o->level;
	w->budget = o->mem_budget ? o->mem_budget : DEFAULT_BUDGET;
	w->unchecked = o->unchecked;
	w->pes = calloc(w->local_npes, sizeof *w->pes);
	w->names = calloc(16, sizeof *w->names);
	w->dir = strdup(path);
	if (!w->pes || !w->names || !w->dir) {
		rc = tf_fail(err, errlen, SIBT_ENOMEM, "out of memory "
			     "(%u PEs)", w->local_npes);
		goto fail;
	}
	w->names[0] = (char *)"";
	w->nnames = w->nwritten = 1;
	w->names_cap = 16;

	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot create "
			     "directory: %s", path, strerror(errno));
		goto fail;
	}
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s exists and is not a "
			     "directory", path);
		goto fail;
	}
	if (o->write_manifest) {
		char *mp = tf_path_join(path, TF_MANIFEST);
		int exists = mp && access(mp, F_OK) == 0;
		free(mp);
		if (exists && !o->overwrite) {
			rc = tf_fail(err, errlen, SIBT_EINVAL, "%s already "
				"holds a trace; remove it or overwrite it "
				"(--force)", path);
			goto fail;
		}
		if (o->overwrite)
			remove_stale(w);
	}
	sibt_datafile_name(name, sizeof name, w->proc);
	if (!(w->path = tf_path_join(path, name))) {
		rc = tf_fail(err, errlen, SIBT_ENOMEM, "out of memory");
		goto fail;
	}
	w->fd = open(w->path, O_WRONLY | O_CREAT | O_CLOEXEC |
		     (o->overwrite ? O_TRUNC : O_EXCL), 0666);
	if (w->fd < 0) {
		rc = tf_fail(err, errlen, errno == EEXIST ? SIBT_EINVAL :
			SIBT_EIO, "%s: cannot create: %s%s", w->path,
			strerror(errno), errno == EEXIST ? " (overwrite it "
			"with --force)" : "");
		goto fail;
	}

	uint8_t h[TF_HDR_SIZE] = { 0 };
	memcpy(h, TF_MAGIC, 8);
	tf_put16(h + 8, SIBT_FORMAT_MAJOR);
	tf_put16(h + 10, SIBT_FORMAT_MINOR);
	tf_put32(h + 12, TF_BOM);
	tf_put32(h + 16, w->proc);
	tf_put32(h + 20, w->nprocs);
	tf_put32(h + 24, w->npes);
	tf_put32(h + 28, w->first_pe);
	tf_put32(h + 32, w->local_npes);
	tf_put32(h + 36, w->window);
	tf_put32(h + 60, (uint32_t)crc32(0, h, 60));
	if (out_frame(w, h, sizeof h, NULL, 0) || out_flush(w)) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s", w->err);
		goto fail;
	}
	if (o->write_manifest &&
	    (rc = write_manifest(w, o, err, errlen)) != SIBT_OK)
		goto fail;
	*wp = w;
	return SIBT_OK;
fail:
	if (w->fd >= 0 && w->path)
		unlink(w->path);
	writer_free(w);
	return rc;
}
