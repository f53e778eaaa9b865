/*
 * tf_codec.c -- SEB records (FORMAT.md section 5) and decoded windows.
 *
 * A decoded window keeps one array per kind of list (preds, waits, sends,
 * prints, markers) for all its SEBs; each SEB points into them.  The arrays
 * grow while decoding, so SEBs first record offsets and are pointed at the
 * arrays once the window is complete.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tf_private.h"

typedef struct tf_offs {
	size_t preds, waits, done, sends, prints, markers, posted;
} tf_offs;

struct sibt_window {
	uint32_t nsebs;
	sibt_seb *sebs;
	tf_offs *offs;
	size_t cap_sebs;
	/* one array per list kind: element count and capacity */
	uint64_t *preds;
	size_t npreds, cap_preds;
	sibt_msgid *waits;
	size_t nwaits, cap_waits;
	uint64_t *done;         /* format 1.2 */
	size_t ndone, cap_done;
	sibt_msgid *posted;     /* format 1.2 */
	size_t nposted, cap_posted;
	sibt_send *sends;
	size_t nsends, cap_sends;
	sibt_print *prints;
	size_t nprints, cap_prints;
	sibt_marker *markers;
	size_t nmarkers, cap_markers;
	tf_buf stored, raw;
};

sibt_window *sibt_window_new(void)
{
	return calloc(1, sizeof(sibt_window));
}

void sibt_window_free(sibt_window *win)
{
	if (!win)
		return;
	free(win->sebs);
	free(win->offs);
	free(win->preds);
	free(win->waits);
	free(win->done);
	free(win->posted);
	free(win->sends);
	free(win->prints);
	free(win->markers);
	tf_buf_free(&win->stored);
	tf_buf_free(&win->raw);
	free(win);
}

uint32_t sibt_window_nsebs(const sibt_window *win)
{
	return win ? win->nsebs : 0;
}

const sibt_seb *sibt_window_seb(const sibt_window *win, uint32_t i)
{
	if (!win || i >= win->nsebs)
		return NULL;
	return &win->sebs[i];
}

size_t sibt_window_memory(const sibt_window *win)
{
	if (!win)
		return 0;
	return sizeof *win + win->cap_sebs * (sizeof(sibt_seb) + sizeof(tf_offs)) +
	       win->cap_preds * sizeof(uint64_t) +
	       win->cap_waits * sizeof(sibt_msgid) +
	       win->cap_done * sizeof(uint64_t) +
	       win->cap_posted * sizeof(sibt_msgid) +
	       win->cap_sends * sizeof(sibt_send) +
	       win->cap_prints * sizeof(sibt_print) +
	       win->cap_markers * sizeof(sibt_marker) +
	       win->stored.cap + win->raw.cap;
}

tf_buf *tf_window_stored(sibt_window *win)
{
	return &win->stored;
}

tf_buf *tf_window_raw(sibt_window *win)
{
	return &win->raw;
}

/* Make room for `extra' more elements of size `size' in *arr. */
static int grow(void **arr, size_t *cap, size_t len, size_t extra, size_t size)
{
	if (*cap - len >= extra)
		return 0;
	size_t ncap = *cap ? *cap : 16;
	while (ncap - len < extra) {
		if (ncap > SIZE_MAX / 2 / size)
			return SIBT_ENOMEM;
		ncap *= 2;
	}
	void *p = realloc(*arr, ncap * size);
	if (!p)
		return SIBT_ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

#define GROW(win, kind, extra) grow((void **)&(win)->kind, \
	&(win)->cap_##kind, (win)->n##kind, (extra), sizeof(*(win)->kind))

int tf_encode_seb(tf_buf *b, const sibt_seb *s, uint32_t name_id,
		  uint32_t region_id, uint32_t pe, uint64_t index,
		  uint64_t seq0)
{
	uint32_t flags = 0;
	int r = 0;

	/* An explicit list equal to the default is stored as the default. */
	int dflt = s->preds_default ||
		   (index > 0 && s->npreds == 1 && s->preds[0] == index - 1) ||
		   (index == 0 && s->npreds == 0);
	if (!dflt)
		flags |= TF_F_PREDS;
	if (s->nwaits)
		flags |= TF_F_WAITS;
	if (s->nsends)
		flags |= TF_F_SENDS;
	if (s->nprints)
		flags |= TF_F_PRINTS;
	if (s->nmarkers)
		flags |= TF_F_MARKS;
	if (region_id)
		flags |= TF_F_REGION;
	if (s->corrected)
		flags |= TF_F_RAW;
	if (s->ndone)
		flags |= TF_F_DONE;
	if (s->nposted)
		flags |= TF_F_POSTED;

	r |= tf_buf_varint(b, name_id);
	r |= tf_buf_varint(b, (uint64_t)s->duration);
	r |= tf_buf_varint(b, flags);
	if (flags & TF_F_REGION)
		r |= tf_buf_varint(b, region_id);
	if (flags & TF_F_RAW) {
		r |= tf_buf_varint(b, s->corrected);
		r |= tf_buf_varint(b, (uint64_t)s->raw_duration);
	}
	if (flags & TF_F_PREDS) {
		r |= tf_buf_varint(b, s->npreds);
		for (uint32_t i = 0; i < s->npreds; i++)
			r |= tf_buf_varint(b, index - s->preds[i]);
	}
	if (flags & TF_F_WAITS) {
		r |= tf_buf_varint(b, s->nwaits);
		for (uint32_t i = 0; i < s->nwaits; i++) {
			r |= tf_buf_svarint(b, (int64_t)s->waits[i].src - pe);
			r |= tf_buf_varint(b, s->waits[i].seq);
		}
	}
	if (flags & TF_F_DONE) {
		r |= tf_buf_varint(b, s->ndone);
		for (uint32_t i = 0; i < s->ndone; i++)
			r |= tf_buf_varint(b, seq0 - s->done[i]);
	}
	if (flags & TF_F_SENDS) {
		r |= tf_buf_varint(b, s->nsends);
		for (uint32_t i = 0; i < s->nsends; i++) {
			const sibt_send *m = &s->sends[i];
			r |= tf_buf_svarint(b, (int64_t)m->dst - pe);
			r |= tf_buf_varint(b, m->size);
			r |= tf_buf_svarint(b, m->tag);
			/* First offset from the nearer end of the SEB, the
			 * others as steps: sends cluster at one end of an SEB,
			 * so these values repeat from SEB to SEB even when the
			 * durations themselves vary (FORMAT.md section 5). */
			if (i == 0) {
				sibt_time o = m->offset, d = s->duration;
				r |= tf_buf_varint(b, o <= d && d - o < o ?
					((uint64_t)(d - o) << 1) | 1 :
					(uint64_t)o << 1);
			} else {
				r |= tf_buf_svarint(b, m->offset -
						    s->sends[i - 1].offset);
			}
		}
	}
	if (flags & TF_F_PRINTS) {
		r |= tf_buf_varint(b, s->nprints);
		for (uint32_t i = 0; i < s->nprints; i++) {
			r |= tf_buf_varint(b, (uint64_t)s->prints[i].offset);
			r |= tf_buf_varint(b, s->prints[i].len);
			r |= tf_buf_put(b, s->prints[i].text, s->prints[i].len);
		}
	}
	if (flags & TF_F_MARKS) {
		r |= tf_buf_varint(b, s->nmarkers);
		for (uint32_t i = 0; i < s->nmarkers; i++) {
			r |= tf_buf_varint(b, s->markers[i].kind);
			r |= tf_buf_svarint(b, s->markers[i].value);
		}
	}
	if (flags & TF_F_POSTED) {
		r |= tf_buf_varint(b, s->nposted);
		for (uint32_t i = 0; i < s->nposted; i++) {
			r |= tf_buf_svarint(b, (int64_t)s->posted[i].src - pe);
			r |= tf_buf_varint(b, s->posted[i].seq);
		}
	}
	return r ? SIBT_ENOMEM : 0;
}

/* A list length read from the payload: at least `least', and no longer
 * than the bytes left could possibly encode (each element takes >= min
 * bytes). */
static inline uint64_t rd_count_min(tf_rd *r, size_t min, uint64_t least)
{
	uint64_t k = tf_rd_varint(r);
	if (k < least || k > (uint64_t)(r->end - r->p) / min || k > UINT32_MAX)
		r->bad = 1;
	return r->bad ? 0 : k;
}

static inline uint64_t rd_count(tf_rd *r, size_t min)
{
	return rd_count_min(r, min, 1);
}

static inline uint32_t rd_pe(tf_rd *r, uint32_t pe, uint32_t npes)
{
	/* Check the delta before adding: it may be anything a corrupt
	 * payload holds, up to INT64_MIN/MAX. */
	int64_t d = tf_rd_svarint(r);
	if (d < -(int64_t)pe || d >= (int64_t)npes - (int64_t)pe) {
		r->bad = 2;
		return 0;
	}
	return (uint32_t)((int64_t)pe + d);
}

static inline sibt_time rd_time(tf_rd *r)
{
	uint64_t v = tf_rd_varint(r);
	if (v > INT64_MAX)
		r->bad = 1;
	return (sibt_time)v;
}

/* A send offset: the first (prev < 0) from the start (even) or from the
 * end (odd) of the SEB, the others as a step from the previous one. */
static inline sibt_time rd_offset(tf_rd *r, sibt_time duration, sibt_time prev)
{
	if (prev < 0) {
		uint64_t v = tf_rd_varint(r);
		uint64_t x = v >> 1;
		if (!(v & 1))
			return (sibt_time)x;
		if (x > (uint64_t)duration) {
			r->bad = 1;
			return 0;
		}
		return duration - (sibt_time)x;
	}
	int64_t d = tf_rd_svarint(r);
	if ((d > 0 && prev > INT64_MAX - d) || prev + d < 0) {
		r->bad = 1;
		return 0;
	}
	return prev + d;
}

/* A list of messages (waits, posted) appended to *arr; *count is its
 * length.  Returns SIBT_ENOMEM, or 0 (r->bad set when the payload is). */
static int rd_msgids(tf_rd *r, const tf_wctx *ctx, sibt_msgid **arr,
		     size_t *n, size_t *cap, uint32_t *count)
{
	uint64_t k = rd_count(r, 2);

	if (r->bad)
		return 0;
	if (grow((void **)arr, cap, *n, k, sizeof **arr))
		return SIBT_ENOMEM;
	for (uint64_t j = 0; j < k && !r->bad; j++) {
		sibt_msgid *m = &(*arr)[(*n)++];
		m->src = rd_pe(r, ctx->pe, ctx->npes);
		m->seq = tf_rd_varint(r);
	}
	*count = (uint32_t)k;
	return 0;
}

/*
 * One record is decoded in two parts: the head (name, duration, flags,
 * predecessors, waits) and the body (sends, prints, markers), so that a
 * simulator can learn what an SEB waits for long before it needs what the
 * SEB sends, without decoding anything twice.  Both append to win's
 * arrays and record their positions in *o; `what' names the field being
 * read when the payload turns out bad (r->bad set).  They return 0, or
 * SIBT_ENOMEM, or SIBT_EFORMAT with the reason already in err.
 */
static int dec_head(tf_rd *r, sibt_window *win, const tf_wctx *ctx,
		    uint64_t index, uint64_t seq0, sibt_seb *s, tf_offs *o,
		    uint32_t *flagsp,
		    uint32_t *name_id, const char **what, char *err,
		    size_t errlen)
{
	uint64_t k, j;

	memset(s, 0, sizeof *s);
	s->pe = ctx->pe;
	s->index = index;
	*what = "name";
	uint64_t id = tf_rd_varint(r);
	if (r->bad)
		return 0;
	if (id >= ctx->nnames) {
		return tf_fail(err, errlen, SIBT_EFORMAT,
			"SEB %" PRIu64 " of PE %u uses name id %" PRIu64
			" but only %u names are defined",
			index, ctx->pe, id, ctx->nnames);
	}
	*name_id = (uint32_t)id;
	s->name = ctx->names[id];
	*what = "duration";
	s->duration = rd_time(r);
	*what = "flags";
	uint64_t flags = tf_rd_varint(r);
	if (r->bad)
		return 0;
	if (flags & ~(uint64_t)TF_F_ALL) {
		return tf_fail(err, errlen, SIBT_EFORMAT,
			"SEB %" PRIu64 " of PE %u has unknown flags 0x%"
			PRIx64 " (written by a newer Sibyl?)",
			index, ctx->pe, flags);
	}
	*flagsp = (uint32_t)flags;
	if (flags & TF_F_REGION) {
		*what = "region";
		id = tf_rd_varint(r);
		if (r->bad)
			return 0;
		if (id == 0 || id >= ctx->nnames) {
			return tf_fail(err, errlen, SIBT_EFORMAT,
				"SEB %" PRIu64 " of PE %u uses region id %"
				PRIu64 " but only %u names are defined",
				index, ctx->pe, id, ctx->nnames);
		}
		s->region = ctx->names[id];
	}
	if (flags & TF_F_RAW) {
		*what = "correction";
		uint64_t why = tf_rd_varint(r);
		s->raw_duration = rd_time(r);
		if (r->bad)
			return 0;
		if (why == 0 || why > SIBT_CORR_MAX) {
			return tf_fail(err, errlen, SIBT_EFORMAT,
				"SEB %" PRIu64 " of PE %u has correction "
				"reason %" PRIu64 " (1 to %d are defined)",
				index, ctx->pe, why, SIBT_CORR_MAX);
		}
		s->corrected = (uint32_t)why;
	}

	s->preds_default = !(flags & TF_F_PREDS);
	o->preds = win->npreds;
	if (flags & TF_F_PREDS) {
		*what = "predecessors";
		/* k = 0: explicitly no predecessor (SEB i > 0) */
		k = rd_count_min(r, 1, 0);
		if (r->bad)
			return 0;
		if (GROW(win, preds, k))
			return SIBT_ENOMEM;
		for (j = 0; j < k; j++) {
			uint64_t d = tf_rd_varint(r);
			if (d == 0 || d > index)
				r->bad = 3;
			win->preds[win->npreds++] = index - d;
		}
		s->npreds = (uint32_t)k;
	} else if (index > 0) {
		/* Materialize the default so readers see one list. */
		if (GROW(win, preds, 1))
			return SIBT_ENOMEM;
		win->preds[win->npreds++] = index - 1;
		s->npreds = 1;
	}

	o->waits = win->nwaits;
	if (flags & TF_F_WAITS) {
		*what = "waits";
		if (rd_msgids(r, ctx, &win->waits, &win->nwaits,
			      &win->cap_waits, &s->nwaits))
			return SIBT_ENOMEM;
	}

	o->done = win->ndone;
	if (flags & TF_F_DONE) {
		*what = "completed sends";
		k = rd_count(r, 1);
		if (r->bad)
			return 0;
		if (GROW(win, done, k))
			return SIBT_ENOMEM;
		for (j = 0; j < k; j++) {
			uint64_t d = tf_rd_varint(r);
			if (d == 0 || d > seq0)
				r->bad = 5;
			win->done[win->ndone++] = seq0 - d;
		}
		s->ndone = (uint32_t)k;
	}
	return 0;
}

static int dec_body(tf_rd *r, sibt_window *win, const tf_wctx *ctx,
		    uint32_t flags, uint64_t seq0, sibt_seb *s, tf_offs *o,
		    const char **what)
{
	uint64_t k, j;

	s->nsends = s->nprints = s->nmarkers = s->nposted = 0;
	s->sends = NULL;
	s->prints = NULL;
	s->markers = NULL;
	s->posted = NULL;
	o->sends = win->nsends;
	s->first_seq = seq0;
	if (flags & TF_F_SENDS) {
		*what = "sends";
		k = rd_count(r, 4);
		if (r->bad)
			return 0;
		if (GROW(win, sends, k))
			return SIBT_ENOMEM;
		for (j = 0; j < k && !r->bad; j++) {
			sibt_send *m = &win->sends[win->nsends++];
			m->dst = rd_pe(r, ctx->pe, ctx->npes);
			m->size = tf_rd_varint(r);
			int64_t tag = tf_rd_svarint(r);
			if (tag < INT32_MIN || tag > INT32_MAX)
				r->bad = 1;
			m->tag = (int32_t)tag;
			m->offset = rd_offset(r, s->duration,
				j ? m[-1].offset : -1);
		}
		s->nsends = (uint32_t)k;
	}

	o->prints = win->nprints;
	if (flags & TF_F_PRINTS) {
		*what = "prints";
		k = rd_count(r, 2);
		if (r->bad)
			return 0;
		if (GROW(win, prints, k))
			return SIBT_ENOMEM;
		for (j = 0; j < k && !r->bad; j++) {
			sibt_print *p = &win->prints[win->nprints++];
			p->offset = rd_time(r);
			uint64_t l = tf_rd_varint(r);
			if (r->bad || l > (uint64_t)(r->end - r->p)) {
				r->bad = 1;
				break;
			}
			p->text = (const char *)r->p;
			p->len = (uint32_t)l;
			r->p += l;
		}
		s->nprints = (uint32_t)k;
	}

	o->markers = win->nmarkers;
	if (flags & TF_F_MARKS) {
		*what = "markers";
		k = rd_count(r, 2);
		if (r->bad)
			return 0;
		if (GROW(win, markers, k))
			return SIBT_ENOMEM;
		for (j = 0; j < k && !r->bad; j++) {
			sibt_marker *m = &win->markers[win->nmarkers++];
			uint64_t kind = tf_rd_varint(r);
			if (kind < SIBT_MARK_SKIP_START ||
			    kind > SIBT_MARK_USER)
				r->bad = 4;
			m->kind = (uint32_t)kind;
			m->value = tf_rd_svarint(r);
		}
		s->nmarkers = (uint32_t)k;
	}

	o->posted = win->nposted;
	if (flags & TF_F_POSTED) {
		*what = "posted receives";
		if (rd_msgids(r, ctx, &win->posted, &win->nposted,
			      &win->cap_posted, &s->nposted))
			return SIBT_ENOMEM;
	}
	return 0;
}

/* The sentence for a bad field of SEB `index'. */
static int bad_field(const tf_rd *r, const uint8_t *raw, const tf_wctx *ctx,
		     uint64_t index, const char *what, char *err,
		     size_t errlen)
{
	static const char *const why[] = {
		"", "is cut short or malformed",
		"names a PE outside the trace",
		"names a predecessor that is not an earlier SEB",
		"has an unknown marker kind",
		"names a send the PE has not made before the SEB",
	};
	int b = r->bad >= 1 && r->bad <= 5 ? r->bad : 1;
	return tf_fail(err, errlen, SIBT_EFORMAT,
		"SEB %" PRIu64 " of PE %u (byte %zu of the window "
		"payload): %s field %s", index, ctx->pe,
		(size_t)(r->p - raw), what, why[b]);
}

/* Point an SEB's lists into the window's (now final) arrays. */
static void point_lists(const sibt_window *win, sibt_seb *s, const tf_offs *o,
			int head, int body)
{
	if (head) {
		s->preds = s->npreds ? win->preds + o->preds : NULL;
		s->waits = s->nwaits ? win->waits + o->waits : NULL;
		s->done = s->ndone ? win->done + o->done : NULL;
	}
	if (body) {
		s->sends = s->nsends ? win->sends + o->sends : NULL;
		s->prints = s->nprints ? win->prints + o->prints : NULL;
		s->markers = s->nmarkers ? win->markers + o->markers : NULL;
		s->posted = s->nposted ? win->posted + o->posted : NULL;
	}
}

int tf_decode_window(sibt_window *win, const uint8_t *raw, size_t len,
		     const tf_wctx *ctx, char *err, size_t errlen)
{
	tf_rd rd = { raw, raw + len, 0 };
	tf_rd *r = &rd;
	uint32_t i;
	const char *what = "record";

	win->nsebs = 0;
	win->npreds = win->nwaits = win->nsends = win->nprints = 0;
	win->nmarkers = win->ndone = win->nposted = 0;
	/* Every record takes at least 3 bytes and every send 4: reject
	 * impossible counts before allocating for them. */
	if (ctx->nsebs == 0 || ctx->nsebs > len / 3 || ctx->nsends > len / 4)
		return tf_fail(err, errlen, SIBT_EFORMAT, "window of PE %u "
			"claims %u SEBs and %u sends in %zu payload bytes",
			ctx->pe, ctx->nsebs, ctx->nsends, len);
	if (ctx->nsebs > win->cap_sebs) {
		sibt_seb *s = realloc(win->sebs, ctx->nsebs * sizeof *s);
		if (!s)
			return SIBT_ENOMEM;
		win->sebs = s;
		tf_offs *o = realloc(win->offs, ctx->nsebs * sizeof *o);
		if (!o)
			return SIBT_ENOMEM;
		win->offs = o;
		win->cap_sebs = ctx->nsebs;
	}

	for (i = 0; i < ctx->nsebs; i++) {
		sibt_seb *s = &win->sebs[i];
		tf_offs *o = &win->offs[i];
		uint64_t index = ctx->first_seb + i;
		uint32_t flags = 0, name_id;
		int rc = dec_head(r, win, ctx, index,
				  ctx->first_seq + win->nsends, s, o, &flags,
				  &name_id, &what, err, errlen);
		if (!rc && !r->bad)
			rc = dec_body(r, win, ctx, flags,
				      ctx->first_seq + win->nsends, s, o,
				      &what);
		if (rc) {
			win->nsebs = 0;
			return rc;
		}
		if (r->bad) {
			win->nsebs = 0;
			return bad_field(r, raw, ctx, index, what, err,
					 errlen);
		}
	}
	if (r->p != r->end) {
		return tf_fail(err, errlen, SIBT_EFORMAT,
			"window of PE %u starting at SEB %" PRIu64 " has %zu "
			"bytes after its %u SEBs", ctx->pe, ctx->first_seb,
			(size_t)(r->end - r->p), ctx->nsebs);
	}
	if (win->nsends != ctx->nsends) {
		return tf_fail(err, errlen, SIBT_EFORMAT,
			"window of PE %u starting at SEB %" PRIu64 " holds %zu "
			"sends but its header says %u", ctx->pe,
			ctx->first_seb, win->nsends, ctx->nsends);
	}

	/* All arrays are final: point the SEBs into them. */
	for (i = 0; i < ctx->nsebs; i++)
		point_lists(win, &win->sebs[i], &win->offs[i], 1, 1);
	win->nsebs = ctx->nsebs;
	return SIBT_OK;
}

int tf_packed_head(sibt_window *win, const uint8_t *raw, size_t len,
		   size_t *pos, const tf_wctx *ctx, uint64_t index,
		   uint64_t seq0, sibt_seb *s, uint32_t *flags,
		   uint32_t *name_id, char *err, size_t errlen)
{
	tf_rd rd = { raw + *pos, raw + len, 0 };
	const char *what = "record";
	tf_offs o;

	win->nsebs = 0;
	win->npreds = win->nwaits = win->ndone = 0;
	int rc = dec_head(&rd, win, ctx, index, seq0, s, &o, flags, name_id,
			  &what, err, errlen);
	if (rc)
		return rc;
	if (rd.bad)
		return bad_field(&rd, raw, ctx, index, what, err, errlen);
	point_lists(win, s, &o, 1, 0);
	*pos = (size_t)(rd.p - raw);
	return SIBT_OK;
}

int tf_packed_body(sibt_window *win, const uint8_t *raw, size_t len,
		   size_t *pos, const tf_wctx *ctx, uint64_t seq0,
		   uint32_t flags, sibt_seb *s, char *err, size_t errlen)
{
	tf_rd rd = { raw + *pos, raw + len, 0 };
	const char *what = "record";
	tf_offs o;

	win->nsends = win->nprints = win->nmarkers = win->nposted = 0;
	int rc = dec_body(&rd, win, ctx, flags, seq0, s, &o, &what);
	if (rc)
		return rc;
	if (rd.bad)
		return bad_field(&rd, raw, ctx, s->index, what, err, errlen);
	point_lists(win, s, &o, 0, 1);
	*pos = (size_t)(rd.p - raw);
	return SIBT_OK;
}
