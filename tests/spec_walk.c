/*
 * spec_walk.c -- an independent decoder of Sibyl data files, written from
 * FORMAT.md alone (spec_walk.h).
 *
 * The walk goes through a file in steps: the header, the frames up to the
 * index (string tables, the preset dictionary, windows and their
 * records), the index, the trailer, and last the rules of the dictionary
 * over the whole file.  Each step stops at the first departure from the
 * spec, describes it in err and fails; the rest of the walk is then not
 * taken.
 */
#include "config.h"

#include <zlib.h>

#include "spec_walk.h"
#include "tgen_bytes.h"

/* ------------------------------------------ independent spec decoder */

typedef struct srd {
	const uint8_t *p, *end;
	int bad;
} srd;

static uint64_t srd_varint(srd *r)
{
	uint64_t v = 0;
	for (int i = 0; i < 10; i++) {
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		uint8_t b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static int64_t srd_svarint(srd *r)
{
	uint64_t v = srd_varint(r);
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Inflate exactly outlen bytes of raw deflate (RFC 1951), with the preset
 * dictionary dict (FORMAT.md 4.2, method 2) when it is not NULL. */
static int inflate_raw_dict(const uint8_t *in, size_t inlen, uint8_t *out,
			    size_t outlen, const uint8_t *dict, size_t dictlen)
{
	z_stream zs;
	int zr;
	memset(&zs, 0, sizeof zs);
	if (inflateInit2(&zs, -15) != Z_OK)
		return -1;
	if (dict && inflateSetDictionary(&zs, dict, (uInt)dictlen) != Z_OK) {
		inflateEnd(&zs);
		return -1;
	}
	zs.next_in = (Bytef *)in;
	zs.avail_in = (uInt)inlen;
	zs.next_out = out;
	zs.avail_out = (uInt)outlen;
	zr = inflate(&zs, Z_FINISH);
	int ok = zr == Z_STREAM_END && zs.total_out == outlen &&
		 zs.avail_in == 0;
	inflateEnd(&zs);
	return ok ? 0 : -1;
}

static int inflate_raw(const uint8_t *in, size_t inlen, uint8_t *out,
		       size_t outlen)
{
	return inflate_raw_dict(in, inlen, out, outlen, NULL, 0);
}

/* What every file the walk accepted had; see spec_walk.h. */
struct spec_stats spec_stats;

/* Decode one SEB record and compare it with the model's SEB `want'. */
static int spec_seb(srd *r, const sibt_seb *want, char **names, uint32_t nn,
		    uint32_t npes, char *err, size_t errlen)
{
	uint32_t p = want->pe;
	uint64_t i = want->index, id, flags, k, tmpp;
	const uint64_t *wp;
	uint32_t wn = tg_preds(want, &wp, &tmpp);

#define SF(...) do { int n_ = snprintf(err, errlen, "spec: PE %u SEB %" \
	PRIu64 ": ", p, i); snprintf(err + n_, errlen - (size_t)n_, \
	__VA_ARGS__); return 1; } while (0)
	id = srd_varint(r);
	if (id >= nn)
		SF("name id %" PRIu64 " not defined by a preceding STRS frame "
		   "(%u defined)", id, nn);
	if (strcmp(names[id], want->name))
		SF("name \"%.40s\", want \"%.40s\"", names[id], want->name);
	if ((sibt_time)srd_varint(r) != want->duration)
		SF("duration differs");
	flags = srd_varint(r);
	if (flags & ~511ull)
		SF("unknown flag bits 0x%" PRIx64, flags);
	/* 1.1: region string id, then reason and raw duration. */
	if (flags & 32) {
		id = srd_varint(r);
		if (id == 0 || id >= nn)
			SF("region id %" PRIu64 " not defined (%u defined)",
			   id, nn);
		if (!want->region || strcmp(names[id], want->region))
			SF("region \"%.40s\", want \"%.40s\"", names[id],
			   want->region ? want->region : "");
	} else if (want->region && *want->region) {
		SF("no region written, want \"%.40s\"", want->region);
	}
	if (flags & 64) {
		uint64_t why = srd_varint(r);
		uint64_t raw = srd_varint(r);
		if (why != want->corrected ||
		    (sibt_time)raw != want->raw_duration)
			SF("correction %" PRIu64 "/%" PRIu64 ", want %u/%"
			   PRId64, why, raw, want->corrected,
			   want->raw_duration);
	} else if (want->corrected) {
		SF("no correction written, want reason %u", want->corrected);
	}
	if (flags & 1) {
		/* k = 0: no predecessor at all (FORMAT.md section 5) */
		k = srd_varint(r);
		if (k != wn)
			SF("%" PRIu64 " explicit preds, want %u", k, wn);
		for (uint64_t j = 0; j < k; j++) {
			uint64_t d = srd_varint(r);
			if (d < 1 || d > i || i - d != wp[j])
				SF("pred delta %" PRIu64 " (pred %" PRIu64
				   "), want pred %" PRIu64, d, i - d, wp[j]);
		}
	} else if (wn != (i > 0) || (i > 0 && wp[0] != i - 1)) {
		SF("no explicit preds written, but the model's list is not "
		   "the default (%u preds)", wn);
	}
	k = (flags & 2) ? srd_varint(r) : 0;
	if ((flags & 2) && k == 0)
		SF("waits flag with k = 0");
	if (k != want->nwaits)
		SF("%" PRIu64 " waits, want %u", k, want->nwaits);
	for (uint64_t j = 0; j < k; j++) {
		int64_t ds = srd_svarint(r);
		uint64_t seq = srd_varint(r);
		if ((int64_t)want->waits[j].src - (int64_t)p != ds ||
		    seq != want->waits[j].seq)
			SF("wait %" PRIu64 ": delta src %" PRId64 " seq %" PRIu64
			   ", want src %u seq %" PRIu64, j, ds, seq,
			   want->waits[j].src, want->waits[j].seq);
	}
	/* 1.2: completed sends, as first_seq - seq. */
	k = (flags & 256) ? srd_varint(r) : 0;
	if ((flags & 256) && k == 0)
		SF("completed-sends flag with k = 0");
	if (k != want->ndone)
		SF("%" PRIu64 " completed sends, want %u", k, want->ndone);
	for (uint64_t j = 0; j < k; j++) {
		uint64_t d = srd_varint(r);
		if (d < 1 || d > want->first_seq ||
		    want->first_seq - d != want->done[j])
			SF("completed send %" PRIu64 ": delta %" PRIu64 ", want "
			   "seq %" PRIu64, j, d, want->done[j]);
	}
	k = (flags & 4) ? srd_varint(r) : 0;
	if ((flags & 4) && k == 0)
		SF("sends flag with k = 0");
	if (k != want->nsends)
		SF("%" PRIu64 " sends, want %u", k, want->nsends);
	for (uint64_t j = 0; j < k; j++) {
		const sibt_send *s = &want->sends[j];
		int64_t dd = srd_svarint(r);
		uint64_t size = srd_varint(r);
		int64_t tag = srd_svarint(r);
		/* FORMAT.md 5: the first offset from the nearer end of the
		 * SEB (odd: from the end), the others as steps. */
		uint64_t off;
		if (j == 0) {
			uint64_t v = srd_varint(r);
			int64_t o = s->offset, d = want->duration;
			uint64_t wantv = o <= d && d - o < o ?
				((uint64_t)(d - o) << 1) | 1 : (uint64_t)o << 1;
			if (v != wantv)
				SF("send 0: offset stored as %" PRIu64 ", want %"
				   PRIu64, v, wantv);
			off = (v & 1) ? (uint64_t)(d - (int64_t)(v >> 1)) :
					v >> 1;
		} else {
			off = (uint64_t)(want->sends[j - 1].offset +
					 srd_svarint(r));
		}
		if ((int64_t)s->dst - (int64_t)p != dd || s->dst >= npes ||
		    size != s->size || tag != s->tag ||
		    off != (uint64_t)s->offset)
			SF("send %" PRIu64 ": (ddst %" PRId64 ", size %" PRIu64
			   ", tag %" PRId64 ", offset %" PRIu64 "), want (dst "
			   "%u, %" PRIu64 ", %d, %" PRId64 ")", j, dd, size,
			   tag, off, s->dst, s->size, (int)s->tag, s->offset);
	}
	k = (flags & 8) ? srd_varint(r) : 0;
	if ((flags & 8) && k == 0)
		SF("prints flag with k = 0");
	if (k != want->nprints)
		SF("%" PRIu64 " prints, want %u", k, want->nprints);
	for (uint64_t j = 0; j < k; j++) {
		uint64_t off = srd_varint(r), len = srd_varint(r);
		if (off != (uint64_t)want->prints[j].offset ||
		    len != want->prints[j].len ||
		    (uint64_t)(r->end - r->p) < len ||
		    memcmp(r->p, want->prints[j].text, len))
			SF("print %" PRIu64 " differs", j);
		r->p += len;
	}
	k = (flags & 16) ? srd_varint(r) : 0;
	if ((flags & 16) && k == 0)
		SF("markers flag with k = 0");
	if (k != want->nmarkers)
		SF("%" PRIu64 " markers, want %u", k, want->nmarkers);
	for (uint64_t j = 0; j < k; j++) {
		uint64_t kind = srd_varint(r);
		int64_t v = srd_svarint(r);
		if (kind != want->markers[j].kind ||
		    v != want->markers[j].value)
			SF("marker %" PRIu64 " differs", j);
	}
	/* 1.2: the messages of the receives posted at its end. */
	k = (flags & 128) ? srd_varint(r) : 0;
	if ((flags & 128) && k == 0)
		SF("posted flag with k = 0");
	if (k != want->nposted)
		SF("%" PRIu64 " posted receives, want %u", k, want->nposted);
	for (uint64_t j = 0; j < k; j++) {
		int64_t ds = srd_svarint(r);
		uint64_t seq = srd_varint(r);
		if ((int64_t)want->posted[j].src - (int64_t)p != ds ||
		    seq != want->posted[j].seq)
			SF("posted %" PRIu64 " differs", j);
	}
	if (r->bad)
		SF("record runs past the end of the payload");
	return 0;
#undef SF
}

/* ------------------------------------------------------ the file walk */

/* One data file as the walk goes through it. */
typedef struct spec_file {
	const tg_model *m;
	const char *path;
	uint32_t proc, P, window;
	int level;
	char *err;
	size_t errlen;
	uint8_t *buf;
	size_t len;
	uint32_t first, count;          /* the file's block of PEs */
	char **names;                   /* the string table; id 0 is "" */
	uint32_t nn, ncap;
	uint64_t *stroff;               /* where each STRS frame is */
	uint32_t nstrs;
	/* per PE of the block: windows, SEBs and sends so far */
	uint64_t *wcount, *sebs, *seqs;
	tg_frame *wframes;              /* the windows, in file order */
	uint64_t nwind, total, indx_off;
	uint8_t *raw;                   /* the payload being decoded */
	/* the DICT frame (dict_off 0: none yet) and the first raw window
	 * bytes of the file, in file order */
	uint64_t dict_off, total_raw, m1_before, m2;
	const uint8_t *dict;
	uint32_t dictlen;
	uint8_t first_raw[1024];
	size_t first_raw_n;
} spec_file;

/* The step fails: the first departure from the spec, in sf's err. */
#define SPEC_FAIL(...) do { tg_errf(sf->err, sf->errlen, __VA_ARGS__); \
	return 1; } while (0)

/* The 64-byte file header (FORMAT.md 3), which also says the file's
 * block of PEs. */
static int spec_header(spec_file *sf)
{
	const tg_model *m = sf->m;
	const uint8_t *buf = sf->buf;
	const char *path = sf->path;
	uint32_t proc = sf->proc, P = sf->P, window = sf->window;

	if (!buf)
		SPEC_FAIL("cannot read %s", path);
	sibt_block_range(m->npes, P, proc, &sf->first, &sf->count);
	if (sf->len < TG_HDR + 32)
		SPEC_FAIL("%s: only %zu bytes", path, sf->len);
	if (memcmp(buf, "SIBYLDAT", 8) || buf[8] != 1 || buf[9] ||
	    buf[10] != SIBT_FORMAT_MINOR || buf[11] ||
	    memcmp(buf + 12, "\x04\x03\x02\x01", 4))
		SPEC_FAIL("%s: bad magic/version/byte-order mark", path);
	if (tg_le32(buf + 16) != proc || tg_le32(buf + 20) != P ||
	    tg_le32(buf + 24) != m->npes || tg_le32(buf + 28) != sf->first ||
	    tg_le32(buf + 32) != sf->count || tg_le32(buf + 36) != window)
		SPEC_FAIL("%s: header fields (proc %u P %u npes %u first %u "
			  "count %u window %u), want (%u %u %u %u %u %u)", path,
			  tg_le32(buf + 16), tg_le32(buf + 20), tg_le32(buf + 24),
			  tg_le32(buf + 28), tg_le32(buf + 32), tg_le32(buf + 36),
			  proc, P, m->npes, sf->first, sf->count, window);
	for (int i = 40; i < 60; i++)
		if (buf[i])
			SPEC_FAIL("%s: header reserved byte %d is %u", path, i,
				  buf[i]);
	if (tg_le32(buf + 60) != tg_crc(buf, 60))
		SPEC_FAIL("%s: header CRC", path);
	return 0;
}

/* A STRS frame at off: the next ids of the string table.  *next is where
 * the frame ends. */
static int spec_strs(spec_file *sf, uint64_t off, uint64_t *next)
{
	const uint8_t *p = sf->buf + off;
	const char *path = sf->path;

	if (off + 24 > sf->len)
		SPEC_FAIL("%s: STRS header cut", path);
	uint32_t fid = tg_le32(p + 4), cnt = tg_le32(p + 8);
	uint32_t plen = tg_le32(p + 12);
	if (tg_le32(p + 20) != tg_crc(p, 20) ||
	    off + 24 + plen > sf->len ||
	    tg_le32(p + 16) != tg_crc(p + 24, plen))
		SPEC_FAIL("%s: STRS at %" PRIu64 ": CRC", path, off);
	if (fid != sf->nn || cnt == 0)
		SPEC_FAIL("%s: STRS at %" PRIu64 " defines %u ids from %u; "
			  "next id is %u", path, off, cnt, fid, sf->nn);
	srd r = { p + 24, p + 24 + plen, 0 };
	for (uint32_t j = 0; j < cnt; j++) {
		uint64_t sl = srd_varint(&r);
		if (r.bad || (uint64_t)(r.end - r.p) < sl)
			SPEC_FAIL("%s: STRS at %" PRIu64 " string %u cut",
				  path, off, j);
		if (memchr(r.p, 0, sl))
			SPEC_FAIL("%s: string with NUL", path);
		if (sf->nn == sf->ncap) {
			sf->ncap *= 2;
			sf->names = tg_xrealloc(sf->names,
						sf->ncap * sizeof *sf->names);
		}
		char *s = sf->names[sf->nn++] = tg_xmalloc(sl + 1);
		memcpy(s, r.p, sl);
		s[sl] = '\0';
		r.p += sl;
	}
	if (r.p != r.end)
		SPEC_FAIL("%s: STRS at %" PRIu64 " has %zu bytes left over",
			  path, off, (size_t)(r.end - r.p));
	sf->stroff = tg_xrealloc(sf->stroff, (sf->nstrs + 1) *
				 sizeof *sf->stroff);
	sf->stroff[sf->nstrs++] = off;
	*next = off + 24 + plen;
	return 0;
}

/* The DICT frame at off: at most one, never at level 0. */
static int spec_dict(spec_file *sf, uint64_t off, uint64_t *next)
{
	const uint8_t *p = sf->buf + off;
	const char *path = sf->path;

	if (off + 16 > sf->len)
		SPEC_FAIL("%s: DICT header cut", path);
	uint32_t dl = tg_le32(p + 4);
	if (tg_le32(p + 12) != tg_crc(p, 12) || off + 16 + dl > sf->len ||
	    tg_le32(p + 8) != tg_crc(p + 16, dl))
		SPEC_FAIL("%s: DICT at %" PRIu64 ": CRC", path, off);
	if (dl < 1 || dl > 32768)
		SPEC_FAIL("%s: DICT at %" PRIu64 ": length %u not in 1..32768",
			  path, off, dl);
	if (sf->dict_off)
		SPEC_FAIL("%s: a second DICT frame at %" PRIu64 " (the first "
			  "is at %" PRIu64 ")", path, off, sf->dict_off);
	if (sf->level == 0)
		SPEC_FAIL("%s: DICT frame at %" PRIu64 " in a level-0 file",
			  path, off);
	sf->dict_off = off;
	sf->dict = p + 16;
	sf->dictlen = dl;
	*next = off + 16 + dl;
	return 0;
}

/* The payload of window f (its header checked by spec_wind), whose first
 * SEB is fs: decoded, record by record against the model; the window is
 * then counted for its PE and kept for the index. */
static int spec_wind_records(spec_file *sf, const tg_frame *f, uint64_t fs)
{
	const tg_model *m = sf->m;
	const uint8_t *p = sf->buf + f->off;
	const char *path = sf->path;
	uint64_t off = f->off, meth = f->method;
	uint32_t H = (uint32_t)f->hdr, pe = f->pe, n = f->nsebs;
	uint32_t ns = f->nsends, rl = (uint32_t)f->raw;
	uint32_t sl = (uint32_t)f->stored, lp = pe - sf->first;

	sf->raw = tg_xrealloc(sf->raw, rl ? rl : 1);
	if (meth == 0)
		memcpy(sf->raw, p + H, rl);
	else if (inflate_raw_dict(p + H, sl, sf->raw, rl,
				  meth == 2 ? sf->dict : NULL, sf->dictlen))
		SPEC_FAIL("%s: WIND at %" PRIu64 ": payload is not %u bytes "
			  "of raw deflate%s", path, off, rl, meth == 2 ?
			  " with the file's dictionary" : "");
	sf->m1_before += meth == 1 && !sf->dict_off;
	sf->m2 += meth == 2;
	sf->total_raw += rl;
	if (sf->first_raw_n < sizeof sf->first_raw) {
		size_t k = sizeof sf->first_raw - sf->first_raw_n;
		if (k > rl)
			k = rl;
		memcpy(sf->first_raw + sf->first_raw_n, sf->raw, k);
		sf->first_raw_n += k;
	}
	srd r = { sf->raw, sf->raw + rl, 0 };
	uint64_t nsends = 0;
	if (fs + n > m->pes[pe].nsebs)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": more SEBs than the model",
			  path, off);
	for (uint32_t j = 0; j < n; j++) {
		const sibt_seb *want = &m->pes[pe].sebs[fs + j];
		if (spec_seb(&r, want, sf->names, sf->nn, m->npes, sf->err,
			     sf->errlen))
			return 1;
		nsends += want->nsends;
	}
	if (r.p != r.end)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": %zu payload bytes left "
			  "over", path, off, (size_t)(r.end - r.p));
	if (nsends != ns)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": header says %u sends, "
			  "records hold %" PRIu64, path, off, ns, nsends);
	sf->wframes = tg_xrealloc(sf->wframes, (sf->nwind + 1) *
				  sizeof *sf->wframes);
	sf->wframes[sf->nwind++] = *f;
	sf->wcount[lp]++;
	sf->sebs[lp] += n;
	sf->seqs[lp] += ns;
	sf->total += n;
	return 0;
}

/* The WIND frame at off (FORMAT.md 4.2): its header, the window's place
 * in its PE's sequence, then its records (spec_wind_records). */
static int spec_wind(spec_file *sf, uint64_t off, uint64_t *next)
{
	const uint8_t *p = sf->buf + off;
	const char *path = sf->path;
	size_t len = sf->len;
	uint32_t window = sf->window;

	if (off + 5 > len)
		SPEC_FAIL("%s: WIND header cut", path);
	uint32_t H = p[4];
	if (H < 22 || H > 64)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": header length %u not in "
			  "22..64", path, off, H);
	if (off + H > len)
		SPEC_FAIL("%s: WIND header cut", path);
	if (tg_le32(p + H - 4) != tg_crc(p, H - 4))
		SPEC_FAIL("%s: WIND at %" PRIu64 ": header CRC", path, off);
	/* nine varints, ending exactly at H-8 */
	srd hr = { p + 5, p + H - 8, 0 };
	uint64_t v[9];
	for (int i = 0; i < 9; i++)
		v[i] = srd_varint(&hr);
	if (hr.bad || hr.p != hr.end)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": the nine varints do not "
			  "end exactly at H-8 = %u", path, off, H - 8);
	if (v[0] > UINT32_MAX || v[1] > UINT32_MAX || v[2] > UINT32_MAX ||
	    v[5] > UINT32_MAX || v[6] > (1u << 28) || v[7] > len)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": field out of range "
			  "(raw_len %" PRIu64 " stored_len %" PRIu64 ")", path,
			  off, v[6], v[7]);
	uint32_t pe = (uint32_t)v[0], wn = (uint32_t)v[1];
	uint32_t n = (uint32_t)v[2], ns = (uint32_t)v[5];
	uint64_t fs = v[3], fq = v[4], meth = v[8];
	uint32_t rl = (uint32_t)v[6], sl = (uint32_t)v[7];
	if (off + H + sl > len || tg_le32(p + H - 8) != tg_crc(p + H, sl))
		SPEC_FAIL("%s: WIND at %" PRIu64 ": payload CRC", path, off);
	if (pe < sf->first || pe >= sf->first + sf->count)
		SPEC_FAIL("%s: WIND at %" PRIu64 " of PE %u, not in this "
			  "file's block", path, off, pe);
	uint32_t lp = pe - sf->first;
	if (wn != sf->wcount[lp] || fs != sf->sebs[lp] ||
	    fq != sf->seqs[lp] || n == 0 || n > window || meth > 2 ||
	    (sf->level == 0 && meth != 0) || (meth == 0 && rl != sl) ||
	    n > rl / 3 || ns > rl / 4)
		SPEC_FAIL("%s: WIND at %" PRIu64 ": PE %u window %u first_seb %"
			  PRIu64 " first_seq %" PRIu64 " n %u sends %u method %"
			  PRIu64 " raw %u stored %u; want window %" PRIu64
			  " first_seb %" PRIu64 " first_seq %" PRIu64
			  " n in 1..%u", path, off, pe, wn, fs, fq, n, ns,
			  meth, rl, sl, sf->wcount[lp], sf->sebs[lp],
			  sf->seqs[lp], window);
	if (meth == 2 && !sf->dict_off)
		SPEC_FAIL("%s: WIND at %" PRIu64 " has method 2 but no DICT "
			  "frame precedes it", path, off);

	tg_frame f;
	memset(&f, 0, sizeof f);
	f.off = off;
	f.hdr = H;
	f.pe = pe;
	f.window = wn;
	f.nsebs = n;
	f.nsends = ns;
	f.raw = rl;
	f.stored = sl;
	f.method = (uint32_t)meth;
	if (spec_wind_records(sf, &f, fs))
		return 1;
	*next = off + H + sl;
	return 0;
}

/* The frames from the header to the INDX frame, whose offset is left in
 * indx_off; then every PE of the block must have had all its SEBs. */
static int spec_frames(spec_file *sf)
{
	const char *path = sf->path;
	uint64_t off = TG_HDR;
	int bad;

	for (;;) {
		const uint8_t *p = sf->buf + off;
		if (off + 4 > sf->len)
			SPEC_FAIL("%s: no INDX frame before offset %" PRIu64,
				  path, off);
		if (!memcmp(p, "STRS", 4)) {
			bad = spec_strs(sf, off, &off);
		} else if (!memcmp(p, "DICT", 4)) {
			bad = spec_dict(sf, off, &off);
		} else if (!memcmp(p, "WIND", 4)) {
			bad = spec_wind(sf, off, &off);
		} else if (!memcmp(p, "INDX", 4)) {
			sf->indx_off = off;
			break;
		} else {
			SPEC_FAIL("%s: unknown frame tag at %" PRIu64, path, off);
		}
		if (bad)
			return 1;
	}
	for (uint32_t lp = 0; lp < sf->count; lp++)
		if (sf->sebs[lp] != sf->m->pes[sf->first + lp].nsebs)
			SPEC_FAIL("%s: PE %u has %" PRIu64 " SEBs in the file, "
				  "want %" PRIu64, path, sf->first + lp,
				  sf->sebs[lp], sf->m->pes[sf->first + lp].nsebs);
	return 0;
}

/* The INDX frame (FORMAT.md 6): every window, STRS and DICT frame where
 * the walk found it.  *next is where the frame ends. */
static int spec_index(spec_file *sf, uint64_t *next)
{
	uint64_t off = sf->indx_off;
	const uint8_t *p = sf->buf + off;
	const char *path = sf->path;

	if (off + 36 > sf->len)
		SPEC_FAIL("%s: INDX header cut", path);
	uint32_t rl = tg_le32(p + 20), sl = tg_le32(p + 24);
	if (tg_le32(p + 32) != tg_crc(p, 32) || off + 36 + sl > sf->len ||
	    tg_le32(p + 28) != tg_crc(p + 36, sl))
		SPEC_FAIL("%s: INDX CRC", path);
	if (tg_le32(p + 4) || tg_le64(p + 8) != sf->nwind ||
	    tg_le32(p + 16) != sf->nstrs)
		SPEC_FAIL("%s: INDX says %" PRIu64 " windows, %u STRS; file "
			  "has %" PRIu64 ", %u", path, tg_le64(p + 8),
			  tg_le32(p + 16), sf->nwind, sf->nstrs);
	sf->raw = tg_xrealloc(sf->raw, rl ? rl : 1);
	if (inflate_raw(p + 36, sl, sf->raw, rl))
		SPEC_FAIL("%s: INDX payload is not raw deflate", path);
	srd r = { sf->raw, sf->raw + rl, 0 };
	for (uint32_t lp = 0; lp < sf->count; lp++) {
		uint64_t nw = srd_varint(&r), o = 0, seen = 0;
		if (nw != sf->wcount[lp])
			SPEC_FAIL("%s: INDX: PE %u has %" PRIu64 " windows, "
				  "file has %" PRIu64, path, sf->first + lp,
				  nw, sf->wcount[lp]);
		for (uint64_t w = 0; w < nw; w++) {
			uint64_t d = srd_varint(&r);
			o = w ? o + d : d;
			uint64_t n = srd_varint(&r), ns = srd_varint(&r);
			uint64_t wrl = srd_varint(&r), wsl = srd_varint(&r);
			/* find the frame */
			const tg_frame *f = NULL;
			for (uint64_t q = seen; q < sf->nwind; q++)
				if (sf->wframes[q].pe == sf->first + lp &&
				    sf->wframes[q].window == w) {
					f = &sf->wframes[q];
					seen = q;
					break;
				}
			if (!f || f->off != o || f->nsebs != n ||
			    f->nsends != ns || f->raw != wrl ||
			    f->stored != wsl)
				SPEC_FAIL("%s: INDX entry PE %u window %" PRIu64
					  " (offset %" PRIu64 ") disagrees with "
					  "the frame", path, sf->first + lp, w,
					  o);
		}
	}
	uint64_t so = 0;
	for (uint32_t j = 0; j < sf->nstrs; j++) {
		uint64_t d = srd_varint(&r);
		so = j ? so + d : d;
		if (so != sf->stroff[j])
			SPEC_FAIL("%s: INDX: STRS %u at %" PRIu64 ", really at %"
				  PRIu64, path, j, so, sf->stroff[j]);
	}
	/* the index ends with the DICT frame's offset, 0: none */
	uint64_t doff = srd_varint(&r);
	if (!r.bad && doff != sf->dict_off)
		SPEC_FAIL("%s: INDX: DICT at %" PRIu64 ", really at %" PRIu64
			  " (0: none)", path, doff, sf->dict_off);
	if (r.bad || r.p != r.end)
		SPEC_FAIL("%s: INDX payload length wrong", path);
	*next = off + 36 + sl;
	return 0;
}

/* The 32-byte trailer at off, the last bytes of the file (FORMAT.md 7). */
static int spec_trailer(spec_file *sf, uint64_t off)
{
	const uint8_t *p = sf->buf + off;
	const char *path = sf->path;

	if (off + 32 != sf->len)
		SPEC_FAIL("%s: %" PRIu64 " bytes after INDX, want a 32-byte "
			  "trailer", path, (uint64_t)sf->len - off);
	if (memcmp(p, "TEND", 4) || tg_le32(p + 4) || tg_le32(p + 24) ||
	    tg_le64(p + 8) != sf->indx_off || tg_le64(p + 16) != sf->total ||
	    tg_le32(p + 28) != tg_crc(p, 28))
		SPEC_FAIL("%s: bad trailer (INDX at %" PRIu64 ", %" PRIu64
			  " SEBs; want %" PRIu64 ", %" PRIu64 ")", path,
			  tg_le64(p + 8), tg_le64(p + 16), sf->indx_off,
			  sf->total);
	return 0;
}

/* The dictionary over the whole file: the first 1024 raw window bytes
 * of the file, there whenever the file has more at level > 0. */
static int spec_dict_rules(spec_file *sf)
{
	const char *path = sf->path;

	if (sf->level > 0 && sf->total_raw > 1024 && !sf->dict_off)
		SPEC_FAIL("%s: %" PRIu64 " raw window bytes at level %d but no "
			  "DICT frame", path, sf->total_raw, sf->level);
	if (sf->dict_off && (sf->dictlen != sizeof sf->first_raw ||
			     sf->first_raw_n != sizeof sf->first_raw ||
			     memcmp(sf->dict, sf->first_raw,
				    sizeof sf->first_raw)))
		SPEC_FAIL("%s: the DICT frame (%u bytes) is not the first %zu "
			  "raw window bytes of the file (%" PRIu64 " in all)",
			  path, sf->dictlen, sizeof sf->first_raw,
			  sf->total_raw);
	return 0;
}

static void spec_count(const spec_file *sf)
{
	int level = sf->level;
	uint64_t total_raw = sf->total_raw;

	spec_stats.files++;
	spec_stats.dict_files += sf->dict_off != 0;
	spec_stats.m1_before_dict += sf->m1_before;
	spec_stats.m2_windows += sf->m2;
	spec_stats.level0_big_files += level == 0 && total_raw > 1024;
	spec_stats.big_files += level > 0 && total_raw > 1024;
	spec_stats.small_files += level > 0 && total_raw &&
				  total_raw < 1024;
}

int spec_check_file(const tg_model *m, const char *path, uint32_t proc,
		    uint32_t P, uint32_t window, int level, char *err,
		    size_t errlen)
{
	spec_file *sf = tg_xcalloc(1, sizeof *sf);
	uint64_t trailer = 0;
	int bad;

	sf->m = m;
	sf->path = path;
	sf->proc = proc;
	sf->P = P;
	sf->window = window;
	sf->level = level;
	sf->err = err;
	sf->errlen = errlen;
	sf->buf = tg_read_file(path, &sf->len);
	sf->nn = 1;
	sf->ncap = 64;
	sf->names = tg_xcalloc(sf->ncap, sizeof *sf->names);
	sf->names[0] = tg_xstrdup("");
	err[0] = '\0';
	bad = spec_header(sf);
	if (!bad) {
		sf->wcount = tg_xcalloc(sf->count + 1, sizeof *sf->wcount);
		sf->sebs = tg_xcalloc(sf->count + 1, sizeof *sf->sebs);
		sf->seqs = tg_xcalloc(sf->count + 1, sizeof *sf->seqs);
		sf->wframes = tg_xcalloc(1, sizeof *sf->wframes);
		sf->stroff = tg_xcalloc(1, sizeof *sf->stroff);
		bad = spec_frames(sf) || spec_index(sf, &trailer) ||
		      spec_trailer(sf, trailer) || spec_dict_rules(sf);
	}
	if (!bad)
		spec_count(sf);
	for (uint32_t j = 0; j < sf->nn; j++)
		free(sf->names[j]);
	free(sf->names);
	free(sf->buf);
	free(sf->raw);
	free(sf->wcount);
	free(sf->sebs);
	free(sf->seqs);
	free(sf->wframes);
	free(sf->stroff);
	free(sf);
	return bad;
}
