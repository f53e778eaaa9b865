/*
 * tf_query.c -- what an open trace holds (tf_trace.h): its size, manifest,
 * windows and damage, the search for the window of an SEB or a send, and
 * reading a window, decoded or packed.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tf_trace.h"

/* ----------------------------------------------------------- queries */

uint32_t sibt_trace_npes(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->npes : 0;
}

uint32_t sibt_trace_nprocs(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->nprocs : 0;
}

uint32_t sibt_trace_window_size(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->window : 0;
}

const char *sibt_trace_manifest(const sibt_trace *t, const char *key)
{
	return tf_trace_ok(t) && key ? tf_manifest_get(&t->man, key) : NULL;
}

size_t sibt_trace_manifest_count(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->man.n : 0;
}

int sibt_trace_manifest_entry(const sibt_trace *t, size_t i,
			      const char **key, const char **value)
{
	if (!tf_trace_ok(t) || i >= t->man.n)
		return SIBT_ENOENT;
	*key = t->man.kv[i].key;
	*value = t->man.kv[i].value;
	return SIBT_OK;
}

uint64_t sibt_trace_nwindows(const sibt_trace *t, uint32_t pe)
{
	if (!tf_trace_ok(t) || pe >= t->npes)
		return 0;
	return t->pe_win[pe + 1] - t->pe_win[pe];
}

static const tf_win *last_win(const sibt_trace *t, uint32_t pe)
{
	if (!tf_trace_ok(t) || pe >= t->npes || t->pe_win[pe + 1] == t->pe_win[pe])
		return NULL;
	return &t->wins[t->pe_win[pe + 1] - 1];
}

uint64_t sibt_trace_nsebs(const sibt_trace *t, uint32_t pe)
{
	const tf_win *w = last_win(t, pe);
	return w ? w->first_seb + w->nsebs : 0;
}

uint64_t sibt_trace_nsends(const sibt_trace *t, uint32_t pe)
{
	const tf_win *w = last_win(t, pe);
	return w ? w->first_seq + w->nsends : 0;
}

void sibt_trace_totals(const sibt_trace *t, sibt_totals *tot)
{
	memset(tot, 0, sizeof *tot);
	if (!tf_trace_ok(t))
		return;
	tot->windows = t->nwins;
	for (size_t i = 0; i < t->nwins; i++) {
		tot->sebs += t->wins[i].nsebs;
		tot->sends += t->wins[i].nsends;
	}
	for (uint32_t p = 0; p < t->nprocs; p++) {
		tot->raw_bytes += t->files[p].raw_bytes;
		tot->stored_bytes += t->files[p].stored_bytes;
		tot->file_bytes += t->files[p].size;
	}
	tot->manifest_bytes = t->manifest_bytes;
}

/* The file holding pe (files are consecutive PE blocks). */
static uint32_t file_of(const sibt_trace *t, uint32_t pe)
{
	uint32_t lo = 0, hi = t->nprocs - 1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		if (t->files[mid].first_pe <= pe)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

int sibt_trace_window_info(const sibt_trace *t, uint32_t pe, uint64_t window,
			   sibt_window_info *wi)
{
	if (!tf_trace_ok(t) || !wi)
		return SIBT_EINVAL;
	if (pe >= t->npes || window >= sibt_trace_nwindows(t, pe))
		return SIBT_ENOENT;
	const tf_win *w = &t->wins[t->pe_win[pe] + window];
	wi->pe = pe;
	wi->window = window;
	wi->file = file_of(t, pe);
	wi->offset = w->offset;
	wi->nsebs = w->nsebs;
	wi->nsends = w->nsends;
	wi->first_seb = w->first_seb;
	wi->first_seq = w->first_seq;
	wi->raw_len = w->raw;
	wi->stored_len = w->stored;
	return SIBT_OK;
}

/* Binary search over the PE's windows on a cumulative field. */
static int find(const sibt_trace *t, uint32_t pe, uint64_t v, int by_seq,
		uint64_t *window)
{
	if (!tf_trace_ok(t) || !window)
		return SIBT_EINVAL;
	if (pe >= t->npes || t->pe_win[pe + 1] == t->pe_win[pe])
		return SIBT_ENOENT;
	const tf_win *w = t->wins + t->pe_win[pe];
	uint64_t n = t->pe_win[pe + 1] - t->pe_win[pe], lo = 0, hi = n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint64_t first = by_seq ? w[mid].first_seq : w[mid].first_seb;
		uint64_t cnt = by_seq ? w[mid].nsends : w[mid].nsebs;
		if (v < first)
			hi = mid;
		else if (v >= first + cnt)
			lo = mid + 1;
		else {
			*window = mid;
			return SIBT_OK;
		}
	}
	return SIBT_ENOENT;
}

int sibt_trace_find_window(const sibt_trace *t, uint32_t pe, uint64_t seb,
			   uint64_t *window)
{
	return find(t, pe, seb, 0, window);
}

int sibt_trace_find_send_window(const sibt_trace *t, uint32_t pe,
				uint64_t seq, uint64_t *window)
{
	return find(t, pe, seq, 1, window);
}

/*
 * Read window `window' of `pe', verify it and make its raw payload
 * available: inflated into `raw' (grown to fit), or, for a stored window,
 * left in `st' at *data.  *wp and *fp give its index entry and file.
 */
static int fetch_window(sibt_trace *t, uint32_t pe, uint64_t window,
			tf_buf *st, uint8_t **rawp, uint32_t *rawcap,
			const uint8_t **data, const tf_win **wp, tf_file **fp)
{
	if (pe >= t->npes || window >= sibt_trace_nwindows(t, pe))
		return tf_terr(t, SIBT_ENOENT, "PE %u has no window %" PRIu64
			    " (it has %" PRIu64 ")", pe, window,
			    sibt_trace_nwindows(t, pe));
	const tf_win *w = &t->wins[t->pe_win[pe] + window];
	tf_file *f = &t->files[file_of(t, pe)];
	/* The header's length is in the header: read its largest size. */
	size_t total = TF_WIN_HDR_MAX + (size_t)w->stored;

	st->len = 0;
	if (tf_buf_reserve(st, total))
		return tf_terr(t, SIBT_ENOMEM, "out of memory");
	if (*rawcap < w->raw + 1) {
		uint8_t *p = realloc(*rawp, (size_t)w->raw + 1);
		if (!p)
			return tf_terr(t, SIBT_ENOMEM, "out of memory");
		*rawp = p;
		*rawcap = w->raw + 1;
	}
	long long got = tf_pread_full(f->fd, st->p, total, w->offset);
	if (got < 0)
		return tf_terr(t, SIBT_EIO, "%s: read error at byte %" PRIu64
			    ": %s", f->path, w->offset, strerror(errno));
	uint32_t hpe, wno;
	int method;
	size_t hlen;
	tf_win hw;
	int hr = tf_parse_win_header(st->p, (size_t)got, &hpe, &wno, &hw, &method,
				  &hlen);
	if (hr == SIBT_OK && (size_t)got < hlen + w->stored)
		hr = SIBT_ETRUNC;
	if (hr == SIBT_ETRUNC)
		return tf_terr(t, SIBT_ETRUNC, "%s: window %" PRIu64 " of PE %u "
			    "at byte %" PRIu64 " is cut off: the file shrank "
			    "after it was opened", f->path, window, pe,
			    w->offset);
	if (hr == SIBT_ECRC)
		return tf_terr(t, SIBT_ECRC, "%s: window %" PRIu64 " of PE %u at "
			    "byte %" PRIu64 ": the window header fails its "
			    "checksum: the file is corrupted", f->path,
			    window, pe, w->offset);
	if (hr)
		return tf_terr(t, SIBT_EFORMAT, "%s: window %" PRIu64 " of PE %u "
			    "at byte %" PRIu64 ": the window header claims %u "
			    "SEBs and %u sends in %u payload bytes, which is "
			    "impossible", f->path, window, pe, w->offset,
			    hw.nsebs, hw.nsends, hw.raw);
	if (hpe != pe || wno != window || hw.nsebs != w->nsebs ||
	    hw.nsends != w->nsends || hw.first_seb != w->first_seb ||
	    hw.first_seq != w->first_seq || hw.raw != w->raw ||
	    hw.stored != w->stored)
		return tf_terr(t, SIBT_EFORMAT, "%s: window %" PRIu64 " of PE %u "
			    "at byte %" PRIu64 ": the frame there (window %u "
			    "of PE %u) disagrees with the index", f->path,
			    window, pe, w->offset, wno, hpe);
	const uint8_t *payload = st->p + hlen;
	uint32_t crc = (uint32_t)crc32(0, payload, w->stored);
	if (crc != tf_win_payload_crc(st->p, hlen))
		return tf_terr(t, SIBT_ECRC, "%s: window %" PRIu64 " of PE %u at "
			    "byte %" PRIu64 ": payload checksum mismatch "
			    "(stored 0x%08x, computed 0x%08x): the file is "
			    "corrupted", f->path, window, pe, w->offset,
			    tf_win_payload_crc(st->p, hlen), crc);
	if (method == 2 && !f->dict)
		return tf_terr(t, SIBT_EFORMAT, "%s: window %" PRIu64 " of PE %u "
			    "at byte %" PRIu64 " is compressed with the file's "
			    "dictionary, but the file has none", f->path,
			    window, pe, w->offset);
	*data = payload;
	*wp = w;
	*fp = f;
	if (method != 0) {
		int rc = tf_inflate_exact(t, payload, w->stored, *rawp, w->raw,
				       method == 2 ? f->dict : NULL,
				       f->dictlen);
		if (rc == SIBT_ENOMEM)
			return tf_terr(t, rc, "out of memory");
		if (rc)
			return tf_terr(t, SIBT_EFORMAT, "%s: window %" PRIu64
				    " of PE %u at byte %" PRIu64 ": the payload "
				    "does not decompress to its %u bytes",
				    f->path, window, pe, w->offset, w->raw);
		*data = *rawp;
	}
	return SIBT_OK;
}

int sibt_trace_read_window(sibt_trace *t, uint32_t pe, uint64_t window,
			   sibt_window *win)
{
	if (!tf_trace_ok(t) || !win)
		return SIBT_EINVAL;
	tf_buf *st = tf_window_stored(win), *raw = tf_window_raw(win);
	const uint8_t *data;
	const tf_win *w;
	tf_file *f;
	uint8_t *rp = raw->p;
	uint32_t rcap = raw->cap > UINT32_MAX ? UINT32_MAX : (uint32_t)raw->cap;
	int frc = fetch_window(t, pe, window, st, &rp, &rcap, &data, &w, &f);
	raw->p = rp;
	raw->cap = rcap;
	if (frc)
		return frc;
	tf_wctx ctx = {
		.pe = pe, .npes = t->npes, .nsebs = w->nsebs,
		.nsends = w->nsends, .first_seb = w->first_seb,
		.first_seq = w->first_seq,
		.names = (const char *const *)f->names, .nnames = f->nnames,
	};
	char msg[512];
	int rc = tf_decode_window(win, data, w->raw, &ctx, msg, sizeof msg);
	if (rc == SIBT_ENOMEM)
		return tf_terr(t, rc, "out of memory");
	if (rc)
		return tf_terr(t, rc, "%s: window %" PRIu64 " of PE %u at byte %"
			    PRIu64 ": %s", f->path, window, pe, w->offset, msg);
	return SIBT_OK;
}

/* ---------------------------------------------------- packed windows */

#define PK_BODY_DUE 0x80000000u /* pk->flags: a head was decoded */

int sibt_trace_read_packed(sibt_trace *t, uint32_t pe, uint64_t window,
			   sibt_packed *pk)
{
	if (!tf_trace_ok(t) || !pk)
		return SIBT_EINVAL;
	if (pe >= t->npes || window >= sibt_trace_nwindows(t, pe))
		return tf_terr(t, SIBT_ENOENT, "PE %u has no window %" PRIu64
			    " (it has %" PRIu64 ")", pe, window,
			    sibt_trace_nwindows(t, pe));
	const uint8_t *data;
	const tf_win *w;
	tf_file *f;
	int rc = fetch_window(t, pe, window, &t->pkst, &pk->buf, &pk->cap,
			      &data, &w, &f);
	if (rc)
		return rc;
	if (data != pk->buf)            /* a stored (method 0) window */
		memcpy(pk->buf, data, w->raw);
	pk->len = w->raw;
	pk->pos = 0;
	pk->left = w->nsebs;
	pk->sends_left = w->nsends;
	pk->pe = pe;
	pk->flags = 0;
	pk->name_id = 0;
	pk->duration = 0;
	pk->window = window;
	pk->next_index = w->first_seb;
	pk->next_seq = w->first_seq;
	return SIBT_OK;
}

static void packed_ctx(const sibt_trace *t, const sibt_packed *pk,
		       tf_wctx *ctx)
{
	const tf_file *f = &t->files[file_of(t, pk->pe)];
	memset(ctx, 0, sizeof *ctx);
	ctx->pe = pk->pe;
	ctx->npes = t->npes;
	ctx->names = (const char *const *)f->names;
	ctx->nnames = f->nnames;
}

static int packed_fail(sibt_trace *t, const sibt_packed *pk, int rc,
		       const char *msg)
{
	if (rc == SIBT_ENOMEM)
		return tf_terr(t, rc, "out of memory");
	const tf_file *f = &t->files[file_of(t, pk->pe)];
	const tf_win *w = &t->wins[t->pe_win[pk->pe] + pk->window];
	return tf_terr(t, rc, "%s: window %" PRIu64 " of PE %u at byte %" PRIu64
		    ": %s", f->path, pk->window, pk->pe, w->offset, msg);
}

int sibt_packed_head(sibt_trace *t, sibt_packed *pk, sibt_window *scratch,
		     sibt_seb *seb)
{
	if (!tf_trace_ok(t) || !pk || !scratch || !seb)
		return SIBT_EINVAL;
	if (pk->flags & PK_BODY_DUE)
		return tf_terr(t, SIBT_EINVAL, "sibt_packed_head: the body of SEB "
			    "%" PRIu64 " of PE %u is due first",
			    pk->next_index, pk->pe);
	if (pk->left == 0)
		return SIBT_ENOENT;
	tf_wctx ctx;
	packed_ctx(t, pk, &ctx);
	size_t pos = pk->pos;
	uint32_t flags = 0, name_id = 0;
	char msg[512];
	int rc = tf_packed_head(scratch, pk->buf, pk->len, &pos, &ctx,
				pk->next_index, pk->next_seq, seb, &flags,
				&name_id, msg, sizeof msg);
	if (rc)
		return packed_fail(t, pk, rc, msg);
	pk->pos = (uint32_t)pos;
	pk->flags = flags | PK_BODY_DUE;
	pk->name_id = name_id;
	pk->duration = seb->duration;
	return SIBT_OK;
}

int sibt_packed_body(sibt_trace *t, sibt_packed *pk, sibt_window *scratch,
		     sibt_seb *seb)
{
	if (!tf_trace_ok(t) || !pk || !scratch || !seb)
		return SIBT_EINVAL;
	if (!(pk->flags & PK_BODY_DUE))
		return tf_terr(t, SIBT_EINVAL, "sibt_packed_body: no head of PE "
			    "%u was decoded", pk->pe);
	tf_wctx ctx;
	packed_ctx(t, pk, &ctx);
	size_t pos = pk->pos;
	char msg[512];
	seb->duration = pk->duration;
	seb->pe = pk->pe;
	seb->index = pk->next_index;
	int rc = tf_packed_body(scratch, pk->buf, pk->len, &pos, &ctx,
				pk->next_seq, pk->flags & ~PK_BODY_DUE, seb,
				msg, sizeof msg);
	if (rc)
		return packed_fail(t, pk, rc, msg);
	if (seb->nsends > pk->sends_left) {
		snprintf(msg, sizeof msg, "SEB %" PRIu64 " holds more sends "
			 "than the window header announces", pk->next_index);
		return packed_fail(t, pk, SIBT_EFORMAT, msg);
	}
	pk->pos = (uint32_t)pos;
	pk->flags = 0;
	pk->left--;
	pk->sends_left -= seb->nsends;
	pk->next_index++;
	pk->next_seq += seb->nsends;
	if (pk->left == 0 && (pk->pos != pk->len || pk->sends_left)) {
		snprintf(msg, sizeof msg, "the payload holds %u bytes and %u "
			 "sends more than its SEBs use", pk->len - pk->pos,
			 pk->sends_left);
		return packed_fail(t, pk, SIBT_EFORMAT, msg);
	}
	return SIBT_OK;
}

void sibt_packed_release(sibt_packed *pk)
{
	if (!pk)
		return;
	free(pk->buf);
	memset(pk, 0, sizeof *pk);
}

uint32_t sibt_trace_file_of_pe(const sibt_trace *t, uint32_t pe)
{
	return tf_trace_ok(t) && pe < t->npes ? file_of(t, pe) : 0;
}

const char *const *sibt_trace_names(const sibt_trace *t, uint32_t file,
				    uint32_t *n)
{
	if (!tf_trace_ok(t) || file >= t->nprocs) {
		if (n)
			*n = 0;
		return NULL;
	}
	if (n)
		*n = t->files[file].nnames;
	return (const char *const *)t->files[file].names;
}

/* ------------------------------------------------------------ damage */

size_t sibt_trace_damage_count(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->ndamage : 0;
}

const sibt_damage *sibt_trace_damage(const sibt_trace *t, size_t i)
{
	return tf_trace_ok(t) && i < t->ndamage ? &t->damage[i] : NULL;
}

uint32_t sibt_trace_nfiles(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->nprocs : 0;
}

const char *sibt_trace_file_path(const sibt_trace *t, uint32_t i)
{
	return tf_trace_ok(t) && i < t->nprocs ? t->files[i].path : NULL;
}

const char *sibt_trace_dir(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->dir : NULL;
}

int sibt_trace_is_bundle(const sibt_trace *t)
{
	return tf_trace_ok(t) ? t->bundle : 0;
}
