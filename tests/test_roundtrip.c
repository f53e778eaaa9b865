/*
 * test_roundtrip.c -- write random traces, read them back, compare.
 *
 * Every seed is written with every window size, zlib level and process
 * count of the matrix below and must read back identical to its model,
 * sequentially and in random order.  Each data file is also decoded by an
 * independent reader written from FORMAT.md alone, so a writer and reader
 * that agree with each other but not with the spec are caught too.
 */
#include "config.h"

#include <signal.h>
#include <unistd.h>

#include "sibtest.h"
#include "tgen_bytes.h"

#define CHECKF(c, ...) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL(__VA_ARGS__); } while (0)

static const uint32_t window_sizes[] = { 1, 2, 7, 64, 1000 };
static const int levels[] = { 0, 1, 6, 9 };
static const uint32_t procs[] = { 1, 3 };

static char tmp[4096];

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

#define SPEC_FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); \
	goto out; } while (0)

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

/* What the spec decoder saw over all files it accepted, so that the
 * matrix can insist that every rule was exercised. */
static struct {
	uint64_t files;
	uint64_t dict_files;        /* files with a DICT frame */
	uint64_t m1_before_dict;    /* method-1 windows before the DICT */
	uint64_t m2_windows;        /* windows decoded with the dictionary */
	uint64_t level0_big_files;  /* level 0, > 1024 raw bytes */
	uint64_t big_files;         /* level > 0, > 1024 raw bytes */
	uint64_t small_files;       /* level > 0, 1..1023 raw bytes */
} spec_stats;

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
	if (flags & ~127ull)
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
	if (r->bad)
		SF("record runs past the end of the payload");
	return 0;
#undef SF
}

/*
 * Check data file `proc' of a trace against FORMAT.md and the model:
 * header, frame CRCs, window sequence, payload records, string table,
 * preset dictionary, index and trailer.  0 when it conforms; else 1 with
 * err set.
 *
 * The dictionary rules: at most one DICT frame, before the first window
 * of method 2; Sibyl's writer fills it with the first 1024 raw window
 * bytes of the file, so a file with more than that at level > 0 has
 * exactly one, a file with less has none, and level 0 never has one (and
 * stores every window, method 0).  (That the writer then uses it, with
 * method-2 windows, is checked over the whole matrix: the format does not
 * require it of any one window.)
 */
static int spec_check_file(const tg_model *m, const char *path, uint32_t proc,
			   uint32_t P, uint32_t window, int level, char *err,
			   size_t errlen)
{
	size_t len = 0;
	uint8_t *buf = tg_read_file(path, &len), *raw = NULL;
	uint32_t first, count, nn = 1, ncap = 64, nstrs = 0;
	char **names = tg_xcalloc(ncap, sizeof *names);
	uint64_t *wcount = NULL, *sebs = NULL, *seqs = NULL;
	uint64_t nwind = 0, total = 0, off = TG_HDR, indx_off = 0;
	uint64_t *stroff = NULL;
	tg_frame *wframes = NULL;
	int ret = 1;
	/* the DICT frame (dict_off 0: none yet) and the first raw window
	 * bytes of the file, in file order */
	uint64_t dict_off = 0, total_raw = 0, m1_before = 0, m2 = 0;
	const uint8_t *dict = NULL;
	uint32_t dictlen = 0;
	uint8_t first_raw[1024];
	size_t first_raw_n = 0;

	names[0] = tg_xstrdup("");
	err[0] = '\0';
	if (!buf)
		SPEC_FAIL("cannot read %s", path);
	sibt_block_range(m->npes, P, proc, &first, &count);
	if (len < TG_HDR + 32)
		SPEC_FAIL("%s: only %zu bytes", path, len);
	if (memcmp(buf, "SIBYLDAT", 8) || buf[8] != 1 || buf[9] ||
	    buf[10] != SIBT_FORMAT_MINOR || buf[11] ||
	    memcmp(buf + 12, "\x04\x03\x02\x01", 4))
		SPEC_FAIL("%s: bad magic/version/byte-order mark", path);
	if (tg_le32(buf + 16) != proc || tg_le32(buf + 20) != P ||
	    tg_le32(buf + 24) != m->npes || tg_le32(buf + 28) != first ||
	    tg_le32(buf + 32) != count || tg_le32(buf + 36) != window)
		SPEC_FAIL("%s: header fields (proc %u P %u npes %u first %u "
			  "count %u window %u), want (%u %u %u %u %u %u)", path,
			  tg_le32(buf + 16), tg_le32(buf + 20), tg_le32(buf + 24),
			  tg_le32(buf + 28), tg_le32(buf + 32), tg_le32(buf + 36),
			  proc, P, m->npes, first, count, window);
	for (int i = 40; i < 60; i++)
		if (buf[i])
			SPEC_FAIL("%s: header reserved byte %d is %u", path, i,
				  buf[i]);
	if (tg_le32(buf + 60) != tg_crc(buf, 60))
		SPEC_FAIL("%s: header CRC", path);

	wcount = tg_xcalloc(count + 1, sizeof *wcount);
	sebs = tg_xcalloc(count + 1, sizeof *sebs);
	seqs = tg_xcalloc(count + 1, sizeof *seqs);
	wframes = tg_xcalloc(1, sizeof *wframes);
	stroff = tg_xcalloc(1, sizeof *stroff);

	for (;;) {
		const uint8_t *p = buf + off;
		if (off + 4 > len)
			SPEC_FAIL("%s: no INDX frame before offset %" PRIu64,
				  path, off);
		if (!memcmp(p, "STRS", 4)) {
			if (off + 24 > len)
				SPEC_FAIL("%s: STRS header cut", path);
			uint32_t fid = tg_le32(p + 4), cnt = tg_le32(p + 8);
			uint32_t plen = tg_le32(p + 12);
			if (tg_le32(p + 20) != tg_crc(p, 20) ||
			    off + 24 + plen > len ||
			    tg_le32(p + 16) != tg_crc(p + 24, plen))
				SPEC_FAIL("%s: STRS at %" PRIu64 ": CRC", path,
					  off);
			if (fid != nn || cnt == 0)
				SPEC_FAIL("%s: STRS at %" PRIu64 " defines %u "
					  "ids from %u; next id is %u", path, off,
					  cnt, fid, nn);
			srd r = { p + 24, p + 24 + plen, 0 };
			for (uint32_t j = 0; j < cnt; j++) {
				uint64_t sl = srd_varint(&r);
				if (r.bad || (uint64_t)(r.end - r.p) < sl)
					SPEC_FAIL("%s: STRS at %" PRIu64
						  " string %u cut", path, off, j);
				if (memchr(r.p, 0, sl))
					SPEC_FAIL("%s: string with NUL", path);
				if (nn == ncap) {
					ncap *= 2;
					names = tg_xrealloc(names,
						ncap * sizeof *names);
				}
				names[nn] = tg_xmalloc(sl + 1);
				memcpy(names[nn], r.p, sl);
				names[nn++][sl] = '\0';
				r.p += sl;
			}
			if (r.p != r.end)
				SPEC_FAIL("%s: STRS at %" PRIu64 " has %zu bytes "
					  "left over", path, off,
					  (size_t)(r.end - r.p));
			stroff = tg_xrealloc(stroff, (nstrs + 1) *
					     sizeof *stroff);
			stroff[nstrs++] = off;
			off += 24 + plen;
		} else if (!memcmp(p, "DICT", 4)) {
			if (off + 16 > len)
				SPEC_FAIL("%s: DICT header cut", path);
			uint32_t dl = tg_le32(p + 4);
			if (tg_le32(p + 12) != tg_crc(p, 12) ||
			    off + 16 + dl > len ||
			    tg_le32(p + 8) != tg_crc(p + 16, dl))
				SPEC_FAIL("%s: DICT at %" PRIu64 ": CRC", path,
					  off);
			if (dl < 1 || dl > 32768)
				SPEC_FAIL("%s: DICT at %" PRIu64 ": length %u "
					  "not in 1..32768", path, off, dl);
			if (dict_off)
				SPEC_FAIL("%s: a second DICT frame at %" PRIu64
					  " (the first is at %" PRIu64 ")", path,
					  off, dict_off);
			if (level == 0)
				SPEC_FAIL("%s: DICT frame at %" PRIu64 " in a "
					  "level-0 file", path, off);
			dict_off = off;
			dict = p + 16;
			dictlen = dl;
			off += 16 + dl;
		} else if (!memcmp(p, "WIND", 4)) {
			if (off + 5 > len)
				SPEC_FAIL("%s: WIND header cut", path);
			uint32_t H = p[4];
			if (H < 22 || H > 64)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": header length "
					  "%u not in 22..64", path, off, H);
			if (off + H > len)
				SPEC_FAIL("%s: WIND header cut", path);
			if (tg_le32(p + H - 4) != tg_crc(p, H - 4))
				SPEC_FAIL("%s: WIND at %" PRIu64 ": header CRC",
					  path, off);
			/* nine varints, ending exactly at H-8 */
			srd hr = { p + 5, p + H - 8, 0 };
			uint64_t v[9];
			for (int i = 0; i < 9; i++)
				v[i] = srd_varint(&hr);
			if (hr.bad || hr.p != hr.end)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": the nine "
					  "varints do not end exactly at H-8 = %u",
					  path, off, H - 8);
			if (v[0] > UINT32_MAX || v[1] > UINT32_MAX ||
			    v[2] > UINT32_MAX || v[5] > UINT32_MAX ||
			    v[6] > (1u << 28) || v[7] > len)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": field out of "
					  "range (raw_len %" PRIu64 " stored_len %"
					  PRIu64 ")", path, off, v[6], v[7]);
			uint32_t pe = (uint32_t)v[0], wn = (uint32_t)v[1];
			uint32_t n = (uint32_t)v[2], ns = (uint32_t)v[5];
			uint64_t fs = v[3], fq = v[4], meth = v[8];
			uint32_t rl = (uint32_t)v[6], sl = (uint32_t)v[7];
			if (off + H + sl > len ||
			    tg_le32(p + H - 8) != tg_crc(p + H, sl))
				SPEC_FAIL("%s: WIND at %" PRIu64 ": payload CRC",
					  path, off);
			if (pe < first || pe >= first + count)
				SPEC_FAIL("%s: WIND at %" PRIu64 " of PE %u, not "
					  "in this file's block", path, off, pe);
			uint32_t lp = pe - first;
			if (wn != wcount[lp] || fs != sebs[lp] ||
			    fq != seqs[lp] || n == 0 || n > window ||
			    meth > 2 || (level == 0 && meth != 0) ||
			    (meth == 0 && rl != sl) || n > rl / 3 ||
			    ns > rl / 4)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": PE %u window "
					  "%u first_seb %" PRIu64 " first_seq %"
					  PRIu64 " n %u sends %u method %" PRIu64
					  " raw %u stored %u; want window %" PRIu64
					  " first_seb %" PRIu64 " first_seq %"
					  PRIu64 " n in 1..%u", path, off, pe, wn,
					  fs, fq, n, ns, meth, rl, sl, wcount[lp],
					  sebs[lp], seqs[lp], window);
			if (meth == 2 && !dict_off)
				SPEC_FAIL("%s: WIND at %" PRIu64 " has method 2 "
					  "but no DICT frame precedes it", path,
					  off);
			raw = tg_xrealloc(raw, rl ? rl : 1);
			if (meth == 0)
				memcpy(raw, p + H, rl);
			else if (inflate_raw_dict(p + H, sl, raw, rl,
						  meth == 2 ? dict : NULL,
						  dictlen))
				SPEC_FAIL("%s: WIND at %" PRIu64 ": payload is "
					  "not %u bytes of raw deflate%s", path,
					  off, rl, meth == 2 ? " with the file's "
					  "dictionary" : "");
			m1_before += meth == 1 && !dict_off;
			m2 += meth == 2;
			total_raw += rl;
			if (first_raw_n < sizeof first_raw) {
				size_t k = sizeof first_raw - first_raw_n;
				if (k > rl)
					k = rl;
				memcpy(first_raw + first_raw_n, raw, k);
				first_raw_n += k;
			}
			srd r = { raw, raw + rl, 0 };
			uint64_t nsends = 0;
			if (fs + n > m->pes[pe].nsebs)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": more SEBs "
					  "than the model", path, off);
			for (uint32_t j = 0; j < n; j++) {
				const sibt_seb *want = &m->pes[pe].sebs[fs + j];
				if (spec_seb(&r, want, names, nn, m->npes, err,
					     errlen))
					goto out;
				nsends += want->nsends;
			}
			if (r.p != r.end)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": %zu payload "
					  "bytes left over", path, off,
					  (size_t)(r.end - r.p));
			if (nsends != ns)
				SPEC_FAIL("%s: WIND at %" PRIu64 ": header says "
					  "%u sends, records hold %" PRIu64,
					  path, off, ns, nsends);
			wframes = tg_xrealloc(wframes, (nwind + 1) *
					      sizeof *wframes);
			memset(&wframes[nwind], 0, sizeof *wframes);
			wframes[nwind].off = off;
			wframes[nwind].pe = pe;
			wframes[nwind].window = wn;
			wframes[nwind].nsebs = n;
			wframes[nwind].nsends = ns;
			wframes[nwind].raw = rl;
			wframes[nwind].stored = sl;
			wframes[nwind].method = (uint32_t)meth;
			nwind++;
			wcount[lp]++;
			sebs[lp] += n;
			seqs[lp] += ns;
			total += n;
			off += H + sl;
		} else if (!memcmp(p, "INDX", 4)) {
			indx_off = off;
			break;
		} else {
			SPEC_FAIL("%s: unknown frame tag at %" PRIu64, path, off);
		}
	}
	for (uint32_t lp = 0; lp < count; lp++)
		if (sebs[lp] != m->pes[first + lp].nsebs)
			SPEC_FAIL("%s: PE %u has %" PRIu64 " SEBs in the file, "
				  "want %" PRIu64, path, first + lp, sebs[lp],
				  m->pes[first + lp].nsebs);

	/* The index. */
	{
		const uint8_t *p = buf + off;
		if (off + 36 > len)
			SPEC_FAIL("%s: INDX header cut", path);
		uint32_t rl = tg_le32(p + 20), sl = tg_le32(p + 24);
		if (tg_le32(p + 32) != tg_crc(p, 32) || off + 36 + sl > len ||
		    tg_le32(p + 28) != tg_crc(p + 36, sl))
			SPEC_FAIL("%s: INDX CRC", path);
		if (tg_le32(p + 4) || tg_le64(p + 8) != nwind ||
		    tg_le32(p + 16) != nstrs)
			SPEC_FAIL("%s: INDX says %" PRIu64 " windows, %u STRS; "
				  "file has %" PRIu64 ", %u", path,
				  tg_le64(p + 8), tg_le32(p + 16), nwind, nstrs);
		raw = tg_xrealloc(raw, rl ? rl : 1);
		if (inflate_raw(p + 36, sl, raw, rl))
			SPEC_FAIL("%s: INDX payload is not raw deflate", path);
		srd r = { raw, raw + rl, 0 };
		for (uint32_t lp = 0; lp < count; lp++) {
			uint64_t nw = srd_varint(&r), o = 0, seen = 0;
			if (nw != wcount[lp])
				SPEC_FAIL("%s: INDX: PE %u has %" PRIu64
					  " windows, file has %" PRIu64, path,
					  first + lp, nw, wcount[lp]);
			for (uint64_t w = 0; w < nw; w++) {
				uint64_t d = srd_varint(&r);
				o = w ? o + d : d;
				uint64_t n = srd_varint(&r), ns = srd_varint(&r);
				uint64_t wrl = srd_varint(&r), wsl = srd_varint(&r);
				/* find the frame */
				const tg_frame *f = NULL;
				for (uint64_t q = seen; q < nwind; q++)
					if (wframes[q].pe == first + lp &&
					    wframes[q].window == w) {
						f = &wframes[q];
						seen = q;
						break;
					}
				if (!f || f->off != o || f->nsebs != n ||
				    f->nsends != ns || f->raw != wrl ||
				    f->stored != wsl)
					SPEC_FAIL("%s: INDX entry PE %u window %"
						  PRIu64 " (offset %" PRIu64 ") "
						  "disagrees with the frame", path,
						  first + lp, w, o);
			}
		}
		uint64_t so = 0;
		for (uint32_t j = 0; j < nstrs; j++) {
			uint64_t d = srd_varint(&r);
			so = j ? so + d : d;
			if (so != stroff[j])
				SPEC_FAIL("%s: INDX: STRS %u at %" PRIu64
					  ", really at %" PRIu64, path, j, so,
					  stroff[j]);
		}
		/* the index ends with the DICT frame's offset, 0: none */
		uint64_t doff = srd_varint(&r);
		if (!r.bad && doff != dict_off)
			SPEC_FAIL("%s: INDX: DICT at %" PRIu64 ", really at %"
				  PRIu64 " (0: none)", path, doff, dict_off);
		if (r.bad || r.p != r.end)
			SPEC_FAIL("%s: INDX payload length wrong", path);
		off += 36 + sl;
	}
	/* The trailer. */
	if (off + 32 != len)
		SPEC_FAIL("%s: %" PRIu64 " bytes after INDX, want a 32-byte "
			  "trailer", path, (uint64_t)len - off);
	{
		const uint8_t *p = buf + off;
		if (memcmp(p, "TEND", 4) || tg_le32(p + 4) || tg_le32(p + 24) ||
		    tg_le64(p + 8) != indx_off || tg_le64(p + 16) != total ||
		    tg_le32(p + 28) != tg_crc(p, 28))
			SPEC_FAIL("%s: bad trailer (INDX at %" PRIu64 ", %"
				  PRIu64 " SEBs; want %" PRIu64 ", %" PRIu64
				  ")", path, tg_le64(p + 8), tg_le64(p + 16),
				  indx_off, total);
	}
	/* The dictionary: the first 1024 raw window bytes of the file. */
	if (level > 0 && total_raw > 1024 && !dict_off)
		SPEC_FAIL("%s: %" PRIu64 " raw window bytes at level %d but no "
			  "DICT frame", path, total_raw, level);
	if (dict_off && (dictlen != sizeof first_raw ||
			 first_raw_n != sizeof first_raw ||
			 memcmp(dict, first_raw, sizeof first_raw)))
		SPEC_FAIL("%s: the DICT frame (%u bytes) is not the first %zu "
			  "raw window bytes of the file (%" PRIu64 " in all)",
			  path, dictlen, sizeof first_raw, total_raw);
	spec_stats.files++;
	spec_stats.dict_files += dict_off != 0;
	spec_stats.m1_before_dict += m1_before;
	spec_stats.m2_windows += m2;
	spec_stats.level0_big_files += level == 0 && total_raw > 1024;
	spec_stats.big_files += level > 0 && total_raw > 1024;
	spec_stats.small_files += level > 0 && total_raw &&
				  total_raw < 1024;
	ret = 0;
out:
	for (uint32_t j = 0; j < nn; j++)
		free(names[j]);
	free(names);
	free(buf);
	free(raw);
	free(wcount);
	free(sebs);
	free(seqs);
	free(wframes);
	free(stroff);
	return ret;
}

/* ------------------------------------------------------------ helpers */

static sibt_trace *open_ok(const char *dir, const char *what)
{
	sibt_trace *t = NULL;
	char eb[1024] = "";
	int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK && t, "%s: sibt_trace_open(%s) = %d (%s): %s",
	       what, dir, rc, sibt_strerror(rc), eb);
	if (rc != SIBT_OK && t) {
		sibt_trace_close(t);
		t = NULL;
	}
	return t;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Structure of the index: per-window info is consistent with the model,
 * the frames do not overlap, totals add up. */
static void check_index(const tg_model *m, sibt_trace *t, uint32_t P,
			uint32_t window, int level, const char *dir,
			const char *what)
{
	sibt_totals tot;
	uint64_t windows = 0, raw = 0, stored = 0, fbytes = 0;
	uint64_t *ranges = NULL;   /* (offset, end) pairs per file */
	size_t nr = 0;

	memset(&tot, 0xa5, sizeof tot);
	sibt_trace_totals(t, &tot);
	for (uint32_t f = 0; f < P; f++) {
		/* the frame's header length H is in the frame (FORMAT.md
		 * 4.2): the file tells where each window frame ends */
		size_t flen = 0;
		uint8_t *fb = tg_read_file(tg_datafile(dir, f), &flen);
		CHECKF(fb != NULL, "%s: cannot read data file %u", what, f);
		nr = 0;
		for (uint32_t pe = 0; pe < m->npes; pe++) {
			uint32_t first, count;
			sibt_block_range(m->npes, P, f, &first, &count);
			if (pe < first || pe >= first + count)
				continue;
			uint64_t nw = sibt_trace_nwindows(t, pe);
			for (uint64_t w = 0; w < nw; w++) {
				sibt_window_info wi;
				int rc = sibt_trace_window_info(t, pe, w, &wi);
				CHECKF(rc == SIBT_OK, "%s: window_info(%u, %"
				       PRIu64 ") = %d", what, pe, w, rc);
				CHECKF(wi.file == f && wi.pe == pe &&
				       wi.window == w && wi.nsebs >= 1 &&
				       wi.nsebs <= window,
				       "%s: window_info(%u, %" PRIu64 "): file %u "
				       "pe %u window %" PRIu64 " nsebs %u (window "
				       "size %u, owner %u)", what, pe, w, wi.file,
				       wi.pe, wi.window, wi.nsebs, window, f);
				CHECKF(level != 0 || wi.raw_len == wi.stored_len,
				       "%s: level 0 window stored %u of %u bytes",
				       what, wi.stored_len, wi.raw_len);
				uint64_t hl = 0;
				if (fb && wi.offset + 5 <= flen &&
				    !memcmp(fb + wi.offset, "WIND", 4))
					hl = fb[wi.offset + 4];
				CHECKF(hl >= 22 && hl <= 64, "%s: window_info(%u, %"
				       PRIu64 "): offset %" PRIu64 " holds no WIND "
				       "header of 22..64 bytes", what, pe, w,
				       wi.offset);
				ranges = tg_xrealloc(ranges, (nr + 1) * 2 *
						     sizeof *ranges);
				ranges[2 * nr] = wi.offset;
				ranges[2 * nr + 1] = wi.offset + hl +
						     wi.stored_len;
				nr++;
				windows++;
				raw += wi.raw_len;
				stored += wi.stored_len;
			}
		}
		free(fb);
		qsort(ranges, nr, 2 * sizeof *ranges, cmp_u64);
		uint64_t fsz = tg_file_size(tg_datafile(dir, f));
		fbytes += fsz;
		for (size_t i = 0; i < nr; i++) {
			CHECKF(ranges[2 * i] >= TG_HDR && ranges[2 * i + 1] <= fsz,
			       "%s: file %u: window frame %" PRIu64 "..%" PRIu64
			       " outside the file (%" PRIu64 " bytes)", what, f,
			       ranges[2 * i], ranges[2 * i + 1], fsz);
			if (i)
				CHECKF(ranges[2 * i] >= ranges[2 * i - 1],
				       "%s: file %u: window frames overlap at %"
				       PRIu64, what, f, ranges[2 * i]);
		}
	}
	free(ranges);
	CHECKF(tot.windows == windows && tot.sebs == m->nsebs &&
	       tot.sends == m->nsends,
	       "%s: totals windows %" PRIu64 " sebs %" PRIu64 " sends %" PRIu64
	       "; want %" PRIu64 " %" PRIu64 " %" PRIu64, what, tot.windows,
	       tot.sebs, tot.sends, windows, m->nsebs, m->nsends);
	CHECKF(tot.raw_bytes == raw && tot.stored_bytes == stored,
	       "%s: totals raw %" PRIu64 " stored %" PRIu64 "; index says %"
	       PRIu64 " %" PRIu64, what, tot.raw_bytes, tot.stored_bytes,
	       raw, stored);
	CHECKF(tot.file_bytes == fbytes, "%s: totals file_bytes %" PRIu64
	       ", files hold %" PRIu64, what, tot.file_bytes, fbytes);
	CHECKF(tot.manifest_bytes == tg_file_size(tg_path(dir, "MANIFEST")),
	       "%s: totals manifest_bytes %" PRIu64 ", MANIFEST has %" PRIu64,
	       what, tot.manifest_bytes, tg_file_size(tg_path(dir, "MANIFEST")));
}

/* Windows in random order; find_window / find_send_window. */
static void check_random_access(const tg_model *m, sibt_trace *t,
				uint64_t seed, const char *what)
{
	tg_rng r;
	size_t n = 0;
	uint64_t *list = NULL;
	sibt_window *win = sibt_window_new();
	char err[1024];

	tg_seed(&r, seed);
	for (uint32_t pe = 0; pe < m->npes; pe++) {
		uint64_t nw = sibt_trace_nwindows(t, pe);
		list = tg_xrealloc(list, (n + nw + 1) * sizeof *list);
		for (uint64_t w = 0; w < nw; w++)
			list[n++] = (uint64_t)pe << 40 | w;
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = tg_below(&r, i);
		uint64_t x = list[i - 1];
		list[i - 1] = list[j];
		list[j] = x;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t pe = (uint32_t)(list[i] >> 40);
		uint64_t w = list[i] & ((1ull << 40) - 1);
		int d = tg_compare_window(m, t, pe, w, win, err, sizeof err);
		CHECKF(d == 0, "%s: random access: %s", what, err);
		if (d)
			break;
	}
	free(list);

	for (int q = 0; q < 200; q++) {
		uint32_t pe = (uint32_t)tg_below(&r, m->npes);
		const tg_pe *mp = &m->pes[pe];
		uint64_t w = UINT64_MAX;
		sibt_window_info wi;
		if (mp->nsebs) {
			uint64_t seb = tg_below(&r, mp->nsebs);
			int rc = sibt_trace_find_window(t, pe, seb, &w);
			CHECKF(rc == SIBT_OK &&
			       sibt_trace_window_info(t, pe, w, &wi) == SIBT_OK &&
			       wi.first_seb <= seb &&
			       seb < wi.first_seb + wi.nsebs,
			       "%s: find_window(PE %u, SEB %" PRIu64 ") = %d, "
			       "window %" PRIu64, what, pe, seb, rc, w);
		}
		if (mp->nsends) {
			uint64_t seq = tg_below(&r, mp->nsends);
			int rc = sibt_trace_find_send_window(t, pe, seq, &w);
			CHECKF(rc == SIBT_OK &&
			       sibt_trace_window_info(t, pe, w, &wi) == SIBT_OK &&
			       wi.first_seq <= seq &&
			       seq < wi.first_seq + wi.nsends,
			       "%s: find_send_window(PE %u, seq %" PRIu64 ") = "
			       "%d, window %" PRIu64, what, pe, seq, rc, w);
		}
	}
	for (uint32_t pe = 0; pe < m->npes; pe++) {
		uint64_t w, nw = sibt_trace_nwindows(t, pe);
		sibt_window_info wi;
		CHECKF(sibt_trace_find_window(t, pe, m->pes[pe].nsebs, &w) ==
		       SIBT_ENOENT, "%s: find_window(PE %u, SEB %" PRIu64
		       " = nsebs) is not ENOENT", what, pe, m->pes[pe].nsebs);
		CHECKF(sibt_trace_find_send_window(t, pe, m->pes[pe].nsends,
						   &w) == SIBT_ENOENT,
		       "%s: find_send_window(PE %u, seq %" PRIu64 " = nsends) "
		       "is not ENOENT", what, pe, m->pes[pe].nsends);
		CHECKF(sibt_trace_window_info(t, pe, nw, &wi) == SIBT_ENOENT,
		       "%s: window_info(PE %u, window %" PRIu64 " = nwindows) "
		       "is not ENOENT", what, pe, nw);
		CHECKF(sibt_trace_read_window(t, pe, nw, win) == SIBT_ENOENT,
		       "%s: read_window(PE %u, window %" PRIu64 " = nwindows) "
		       "is not ENOENT", what, pe, nw);
	}
	{
		uint64_t w;
		sibt_window_info wi;
		CHECKF(sibt_trace_find_window(t, m->npes, 0, &w) < 0 &&
		       sibt_trace_find_send_window(t, m->npes, 0, &w) < 0 &&
		       sibt_trace_window_info(t, m->npes, 0, &wi) < 0 &&
		       sibt_trace_read_window(t, m->npes, 0, win) < 0 &&
		       sibt_trace_nwindows(t, m->npes) == 0 &&
		       sibt_trace_nsebs(t, m->npes) == 0,
		       "%s: PE %u (= npes) is not rejected", what, m->npes);
	}
	sibt_window_free(win);
}

/* A reused window stops growing: a second pass allocates nothing more. */
static void check_window_reuse(sibt_trace *t, const char *what)
{
	sibt_window *win = sibt_window_new();
	size_t peak = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t pe = 0; pe < sibt_trace_npes(t); pe++)
			for (uint64_t w = 0; w < sibt_trace_nwindows(t, pe);
			     w++) {
				if (sibt_trace_read_window(t, pe, w, win))
					continue;
				size_t mem = sibt_window_memory(win);
				if (pass == 0 && mem > peak)
					peak = mem;
				CHECKF(pass == 0 || mem <= peak,
				       "%s: window memory grew on the second "
				       "pass: %zu > %zu", what, mem, peak);
				CHECKF(mem > 0, "%s: sibt_window_memory is 0 "
				       "for a decoded window", what);
			}
	sibt_window_free(win);
}

/* -------------------------------------------------------------- matrix */

static tg_model *model_for_seed(uint64_t seed)
{
	tg_params prm = { 0 };
	prm.npes = 3 + (uint32_t)(seed % 6);
	prm.rounds = 8 + (uint32_t)(seed * 7 % 40);
	prm.max_per_round = 1 + (uint32_t)(seed % 4);
	if (seed == 4) {   /* one big enough for several 1000-SEB windows */
		prm.npes = 3;
		prm.rounds = 500;
		prm.max_per_round = 3;
	}
	return tg_generate(seed, &prm);
}

static void test_matrix(void)
{
	static const uint64_t seeds[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	char dir[4200], what[256], err[1024];

	snprintf(dir, sizeof dir, "%s/matrix", tmp);
	for (size_t si = 0; si < sizeof seeds / sizeof *seeds; si++) {
		tg_model *m = model_for_seed(seeds[si]);
		uint64_t hash0 = 0;
		int have_hash = 0;
		for (size_t wi = 0; wi < 5; wi++)
		for (size_t li = 0; li < 4; li++)
		for (size_t pi = 0; pi < 2; pi++) {
			uint32_t P = procs[pi], W = window_sizes[wi];
			int L = levels[li];
			tg_wopts o;
			sibt_trace *t;
			int rc;

			/* the big seed only at a few points of the matrix */
			if (seeds[si] == 4 && li != (wi % 4))
				continue;
			snprintf(what, sizeof what, "seed %" PRIu64 " window %u "
				 "level %d procs %u (%" PRIu64 " SEBs, %u PEs)",
				 seeds[si], W, L, P, m->nsebs, m->npes);
			tg_wopts_init(&o);
			o.nprocs = P;
			o.window = W;
			o.level = L;
			o.seed = seeds[si] * 1000 + wi * 10 + li;
			o.overwrite = 1;
			rc = tg_write(m, dir, &o, err, sizeof err);
			CHECKF(rc == SIBT_OK, "%s: write: %s", what, err);
			if (rc != SIBT_OK)
				continue;
			for (uint32_t f = 0; f < P; f++) {
				int bad = spec_check_file(m, tg_datafile(dir, f),
					f, P, W, L, err, sizeof err);
				CHECKF(!bad, "%s: FORMAT.md conformance: %s",
				       what, err);
			}
			if (!(t = open_ok(dir, what)))
				continue;
			CHECKF(sibt_trace_damage_count(t) == 0 &&
			       sibt_trace_npes(t) == m->npes &&
			       sibt_trace_nprocs(t) == P &&
			       sibt_trace_nfiles(t) == P &&
			       sibt_trace_window_size(t) == W &&
			       !sibt_trace_is_bundle(t),
			       "%s: damage %zu npes %u nprocs %u nfiles %u "
			       "window %u bundle %d", what,
			       sibt_trace_damage_count(t), sibt_trace_npes(t),
			       sibt_trace_nprocs(t), sibt_trace_nfiles(t),
			       sibt_trace_window_size(t),
			       sibt_trace_is_bundle(t));
			for (uint32_t f = 0; f < sibt_trace_nfiles(t) && f < P;
			     f++) {
				char name[64];
				const char *fp = sibt_trace_file_path(t, f);
				sibt_datafile_name(name, sizeof name, f);
				CHECKF(fp && strlen(fp) >= strlen(name) &&
				       !strcmp(fp + strlen(fp) - strlen(name),
					       name),
				       "%s: file_path(%u) = %s", what, f,
				       fp ? fp : "(null)");
			}
			int d = tg_compare_trace(m, t, err, sizeof err);
			CHECKF(d == 0, "%s: %s", what, err);
			check_index(m, t, P, W, L, dir, what);
			check_random_access(m, t, o.seed, what);
			if (wi == 2 && li == 1)
				check_window_reuse(t, what);
			if (li == 2) {   /* verify-all at open finds nothing */
				sibt_trace *t2 = NULL;
				char eb[512] = "";
				rc = sibt_trace_open(&t2, dir,
						     SIBT_OPEN_VERIFY_ALL, eb,
						     sizeof eb);
				CHECKF(rc == SIBT_OK, "%s: open(VERIFY_ALL) = "
				       "%d: %s", what, rc, eb);
				if (t2)
					sibt_trace_close(t2);
			}
			/* The same content whatever the window size. */
			uint64_t h = 0;
			rc = tg_hash_trace(t, &h);
			CHECKF(rc == SIBT_OK, "%s: hash: %d", what, rc);
			if (!have_hash) {
				hash0 = h;
				have_hash = 1;
			}
			CHECKF(h == hash0, "%s: the content read back differs "
			       "from the first configuration's", what);
			sibt_trace_close(t);
		}
		tg_free_model(m);
	}
	/* The matrix exercised every dictionary rule of spec_check_file:
	 * files with a DICT frame, windows deflated before it (method 1)
	 * and with it (method 2), level-0 files big enough for one (which
	 * must have none) and small files at level > 0 (none either). */
	CHECKF(spec_stats.dict_files > 0 && spec_stats.m1_before_dict > 0 &&
	       spec_stats.m2_windows > 0 && spec_stats.level0_big_files > 0 &&
	       spec_stats.small_files > 0,
	       "matrix: %" PRIu64 " files checked, %" PRIu64 " with a DICT "
	       "frame (%" PRIu64 " with more than 1024 raw bytes at level > "
	       "0), %" PRIu64 " method-1 windows before it, %" PRIu64
	       " method-2 windows, %" PRIu64 " big level-0 files, %" PRIu64
	       " small files at level > 0", spec_stats.files,
	       spec_stats.dict_files, spec_stats.big_files,
	       spec_stats.m1_before_dict, spec_stats.m2_windows,
	       spec_stats.level0_big_files, spec_stats.small_files);
}

/* Default options: window 64 and level 6 when left 0 / -1. */
static void test_defaults(void)
{
	char dir[4200], err[1024];
	tg_params prm = { 4, 60, 3, 0, 0 };
	tg_model *m = tg_generate(77, &prm);
	tg_wopts o;
	sibt_trace *t;

	snprintf(dir, sizeof dir, "%s/defaults", tmp);
	tg_wopts_init(&o);
	o.flush_pct = 0;
	CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
	       "defaults: %s", err);
	{
		/* a trailing slash names the same directory */
		char slash[4300];
		snprintf(slash, sizeof slash, "%s/", dir);
		if ((t = open_ok(slash, "path with a trailing slash"))) {
			CHECKF(tg_compare_trace(m, t, err, sizeof err) == 0,
			       "trailing slash: %s", err);
			sibt_trace_close(t);
		}
		CHECKF(!sibt_path_is_bundle(slash) &&
		       !sibt_path_is_bundle(tg_path(tmp, "no-such-file")),
		       "sibt_path_is_bundle is true for a directory or a "
		       "missing path");
	}
	if ((t = open_ok(dir, "defaults"))) {
		CHECKF(sibt_trace_window_size(t) == 64, "default window is %u",
		       sibt_trace_window_size(t));
		assertEqualString(sibt_trace_manifest(t, "window"), "64");
		CHECKF(tg_compare_trace(m, t, err, sizeof err) == 0,
		       "defaults: %s", err);
		sibt_trace_close(t);
	}
	CHECKF(!spec_check_file(m, tg_datafile(dir, 0), 0, 1, 64, 6, err,
				sizeof err), "defaults: %s", err);
	tg_free_model(m);
}

/* A trace without a single SEB. */
static void test_empty(void)
{
	char dir[4200], err[1024];
	tg_model m = { 0 };
	tg_pe pes[5];
	tg_wopts o;
	sibt_trace *t;

	memset(pes, 0, sizeof pes);
	m.npes = 5;
	m.pes = pes;
	snprintf(dir, sizeof dir, "%s/empty", tmp);
	tg_wopts_init(&o);
	o.nprocs = 2;
	CHECKF(tg_write(&m, dir, &o, err, sizeof err) == SIBT_OK,
	       "empty: %s", err);
	if ((t = open_ok(dir, "empty"))) {
		sibt_totals tot;
		uint64_t w;
		sibt_trace_totals(t, &tot);
		assertEqualU64(tot.sebs, 0);
		assertEqualU64(tot.windows, 0);
		assertEqualU64(sibt_trace_nwindows(t, 4), 0);
		assertEqualInt(sibt_trace_find_window(t, 0, 0, &w), SIBT_ENOENT);
		CHECKF(tg_compare_trace(&m, t, err, sizeof err) == 0,
		       "empty: %s", err);
		sibt_trace_close(t);
	}
	for (uint32_t f = 0; f < 2; f++)
		CHECKF(!spec_check_file(&m, tg_datafile(dir, f), f, 2, 64, 6,
					err, sizeof err), "empty: %s", err);
}

/* ----------------------------------------------------------- manifest */

static void test_manifest(void)
{
	static const char cmdline[] =
		"mpirun -np 4 ./app --in 'C:\\data\\x' \\n not-a-newline\n"
		"second line\\\\\nthird = line # not a comment";
	static const char *const extra[] = {
		"gen.pattern = halo 3d",
		"emu.note = x = y",
		"emu.path=/a/b",
		NULL
	};
	char dir[4200], err[1024];
	tg_params prm = { 6, 10, 2, 1, 0 };
	tg_model *m = tg_generate(5, &prm);
	tg_wopts o;
	sibt_trace *t;

	snprintf(dir, sizeof dir, "%s/manifest", tmp);
	tg_wopts_init(&o);
	o.nprocs = 3;
	o.window = 5;
	o.cmdline = cmdline;
	o.topology = "2 sockets x 8 cores; ht=off";
	o.generator = "test_roundtrip \xc3\xa9";
	o.extra = extra;
	CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
	       "manifest: %s", err);
	if ((t = open_ok(dir, "manifest"))) {
		assertEqualString(sibt_trace_manifest(t, "cmdline"), cmdline);
		assertEqualString(sibt_trace_manifest(t, "topology"),
				  o.topology);
		assertEqualString(sibt_trace_manifest(t, "generator"),
				  o.generator);
		assertEqualString(sibt_trace_manifest(t, "gen.pattern"),
				  "halo 3d");
		assertEqualString(sibt_trace_manifest(t, "emu.note"), "x = y");
		assertEqualString(sibt_trace_manifest(t, "emu.path"), "/a/b");
		assertEqualString(sibt_trace_manifest(t, "format"),
				  "sibyl-trace 1.1");
		assertEqualString(sibt_trace_manifest(t, "npes"), "6");
		assertEqualString(sibt_trace_manifest(t, "nprocs"), "3");
		assertEqualString(sibt_trace_manifest(t, "window"), "5");
		assertEqualString(sibt_trace_manifest(t, "time_unit"), "ps");
		assertEqualString(sibt_trace_manifest(t, "byte_order"),
				  "little-endian");
		assertEqualString(sibt_trace_manifest(t, "file.0"),
				  "proc-000000.sdat 0 2");
		assertEqualString(sibt_trace_manifest(t, "file.1"),
				  "proc-000001.sdat 2 2");
		assertEqualString(sibt_trace_manifest(t, "file.2"),
				  "proc-000002.sdat 4 2");
		assertTrue(sibt_trace_manifest(t, "no.such.key") == NULL);

		size_t n = sibt_trace_manifest_count(t);
		assertTrue(n >= 16);
		for (size_t i = 0; i < n; i++) {
			const char *k = NULL, *v = NULL;
			int rc = sibt_trace_manifest_entry(t, i, &k, &v);
			CHECKF(rc == SIBT_OK && k && v &&
			       sibt_trace_manifest(t, k) == v,
			       "manifest entry %zu: rc %d key %s", i, rc,
			       k ? k : "(null)");
			for (size_t j = 0; j < i && k; j++) {
				const char *k2, *v2;
				if (sibt_trace_manifest_entry(t, j, &k2, &v2)
				    == SIBT_OK)
					CHECKF(strcmp(k, k2), "manifest key %s "
					       "appears twice", k);
			}
		}
		const char *k, *v;
		assertTrue(sibt_trace_manifest_entry(t, n, &k, &v) < 0);
		sibt_trace_close(t);
	}

	/* The file itself: escapes per FORMAT.md section 3. */
	size_t len;
	char *txt = (char *)tg_read_file(tg_path(dir, "MANIFEST"), &len);
	assertTrue(txt != NULL);
	if (txt) {
		txt = tg_xrealloc(txt, len + 1);
		txt[len] = '\0';
		assertContains(txt, "cmdline = mpirun -np 4 ./app --in "
			       "'C:\\\\data\\\\x' \\\\n not-a-newline\\n"
			       "second line\\\\\\\\\\nthird = line # not a "
			       "comment\n");
		CHECKF(!strstr(txt, "\nsecond line"), "a newline inside "
		       "cmdline was written raw:\n%s", txt);
		free(txt);
	}

	/* A hand-written manifest: comments, blanks, reordered and unknown
	 * keys are all fine. */
	{
		FILE *f = fopen(tg_path(dir, "MANIFEST"), "w");
		assertTrue(f != NULL);
		if (f) {
			fputs("# written by hand\n\n"
			      "   file.2=proc-000002.sdat 4 2   \n"
			      "future.key   =   some value  \n"
			      "npes = 6\n"
			      "\t# indented comment\n"
			      "format = sibyl-trace 1.7\n"
			      "nprocs=3\n"
			      "window = 5\n"
			      "time_unit = ps\n"
			      "byte_order = little-endian\n"
			      "file.0 = proc-000000.sdat 0 2\n"
			      "file.1 = proc-000001.sdat 2 2\n"
			      "cmdline = a\\nb\\\\c\n", f);
			fclose(f);
		}
		if ((t = open_ok(dir, "hand-written manifest"))) {
			assertEqualString(sibt_trace_manifest(t, "future.key"),
					  "some value");
			assertEqualString(sibt_trace_manifest(t, "cmdline"),
					  "a\nb\\c");
			CHECKF(tg_compare_trace(m, t, err, sizeof err) == 0,
			       "hand-written manifest: %s", err);
			sibt_trace_close(t);
		}
	}
	tg_free_model(m);
}

/* ----------------------------------------------------- memory budget */

static void test_membound(void)
{
	static const struct { uint32_t npes, P; size_t budget; int level; }
		cases[] = { { 64, 1, 4096, 6 }, { 40, 2, 16384, 0 },
			    { 16, 1, 1, 1 } };
	char dir[4200], err[1024], what[128];

	snprintf(dir, sizeof dir, "%s/membound", tmp);
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		tg_params prm = { cases[c].npes, 40, 2, 0, 0 };
		tg_model *m = tg_generate(100 + c, &prm);
		tg_wopts o;
		sibt_trace *t;
		snprintf(what, sizeof what, "membound %u PEs budget %zu",
			 cases[c].npes, cases[c].budget);
		tg_wopts_init(&o);
		o.nprocs = cases[c].P;
		o.window = 1000;
		o.level = cases[c].level;
		o.mem_budget = cases[c].budget;
		o.flush_pct = 0;
		o.overwrite = 1;
		CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
		       "%s: %s", what, err);
		CHECKF(o.max_excess == 0, "%s: bytes_pending reached %zu, "
		       "%zu over budget + one SEB", what, o.max_pending,
		       o.max_excess);
		CHECKF(o.max_pending > 0 || cases[c].budget < 1024,
		       "%s: bytes_pending always 0", what);
		if ((t = open_ok(dir, what))) {
			sibt_totals tot;
			sibt_trace_totals(t, &tot);
			/* windows of 1000 SEBs would give one per PE: the
			 * budget must have forced many more */
			CHECKF(tot.windows > 2 * (uint64_t)cases[c].npes,
			       "%s: only %" PRIu64 " windows: the budget "
			       "never forced a flush", what, tot.windows);
			CHECKF(tg_compare_trace(m, t, err, sizeof err) == 0,
			       "%s: %s", what, err);
			sibt_trace_close(t);
		}
		tg_free_model(m);
	}
}

/* --------------------------------------------------- invalid writes */

static sibt_seb plain_seb(uint32_t pe)
{
	sibt_seb s;
	memset(&s, 0, sizeof s);
	s.pe = pe;
	s.name = "x";
	s.duration = 10;
	s.preds_default = 1;
	return s;
}

static int open_block(sibt_writer **w, const char *dir, uint32_t proc,
		      int unchecked, int overwrite)
{
	sibt_writer_opts wo;
	char eb[512] = "";
	sibt_writer_opts_init(&wo);
	wo.npes = 6;
	wo.nprocs = 3;
	wo.proc = proc;
	sibt_block_range(6, 3, proc, &wo.first_pe, &wo.local_npes);
	wo.window = 4;
	wo.write_manifest = proc == 0;
	wo.unchecked = unchecked;
	wo.overwrite = overwrite;
	int rc = sibt_writer_open(w, dir, &wo, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "writer_open(%s, proc %u): %d %s", dir, proc,
	       rc, eb);
	return rc;
}

static void expect_reject(sibt_writer *w, const sibt_seb *s, const char *what)
{
	uint64_t before = sibt_writer_nsebs(w, s->pe < 6 ? s->pe : 2);
	uint64_t seq = sibt_writer_next_seq(w, s->pe < 6 ? s->pe : 2);
	int rc = sibt_writer_add(w, s, NULL);
	CHECKF(rc == SIBT_EINVAL, "%s: sibt_writer_add = %d (%s), want "
	       "SIBT_EINVAL", what, rc, sibt_strerror(rc));
	const char *msg = sibt_writer_errmsg(w);
	CHECKF(msg && *msg, "%s: no error message", what);
	CHECKF(sibt_writer_nsebs(w, s->pe < 6 ? s->pe : 2) == before &&
	       sibt_writer_next_seq(w, s->pe < 6 ? s->pe : 2) == seq,
	       "%s: a rejected SEB changed the writer's counts", what);
}

static void test_invalid(void)
{
	char dir[4200];
	sibt_writer *w0 = NULL, *w1 = NULL, *w2 = NULL;
	sibt_seb s;
	sibt_send snd = { 0, 1, 8, 0 };
	sibt_msgid mid = { 0, 0 };
	sibt_marker mk = { 0, 1 };
	uint64_t pred;

	snprintf(dir, sizeof dir, "%s/invalid", tmp);
	if (open_block(&w0, dir, 0, 0, 0) || open_block(&w1, dir, 1, 0, 0) ||
	    open_block(&w2, dir, 2, 0, 0))
		goto out;
	/* proc 1 holds PEs 2 and 3 */
	s = plain_seb(0);
	expect_reject(w1, &s, "PE below the block");
	s = plain_seb(4);
	expect_reject(w1, &s, "PE above the block");
	s = plain_seb(6);
	expect_reject(w1, &s, "PE >= npes");
	s = plain_seb(2);
	pred = 0;
	s.preds_default = 0;
	s.npreds = 1;
	s.preds = &pred;
	expect_reject(w1, &s, "SEB 0 with predecessor 0");
	s = plain_seb(2);
	snd.dst = 6;
	s.nsends = 1;
	s.sends = &snd;
	expect_reject(w1, &s, "send to PE 6 of 6");
	snd.dst = UINT32_MAX;
	expect_reject(w1, &s, "send to PE 2^32-1");
	s = plain_seb(2);
	mid.src = 6;
	s.nwaits = 1;
	s.waits = &mid;
	expect_reject(w1, &s, "wait for a message from PE 6 of 6");
	s = plain_seb(2);
	s.duration = -1;
	expect_reject(w1, &s, "negative duration");
	s = plain_seb(2);
	snd.dst = 1;
	snd.offset = -5;
	s.nsends = 1;
	s.sends = &snd;
	expect_reject(w1, &s, "negative send offset");
	s = plain_seb(2);
	s.nmarkers = 1;
	s.markers = &mk;
	mk.kind = 0;
	expect_reject(w1, &s, "marker kind 0");
	mk.kind = 5;
	expect_reject(w1, &s, "marker kind 5");
	assertEqualInt(sibt_writer_add(w1, NULL, NULL), SIBT_EINVAL);

	/* Two good SEBs, then predecessors that are not earlier. */
	s = plain_seb(2);
	assertEqualInt(sibt_writer_add(w1, &s, NULL), SIBT_OK);
	assertEqualInt(sibt_writer_add(w1, &s, NULL), SIBT_OK);
	s.preds_default = 0;
	s.npreds = 1;
	s.preds = &pred;
	pred = 2;
	expect_reject(w1, &s, "SEB 2 with predecessor 2");
	pred = 3;
	expect_reject(w1, &s, "SEB 2 with predecessor 3");
	pred = UINT64_MAX;
	expect_reject(w1, &s, "SEB 2 with predecessor 2^64-1");
	pred = 0;
	assertEqualInt(sibt_writer_add(w1, &s, NULL), SIBT_OK);
	/* A matched message PE 3 -> PE 2 keeps the trace valid. */
	s = plain_seb(3);
	snd.dst = 2;
	snd.offset = 0;
	s.nsends = 1;
	s.sends = &snd;
	uint64_t fs = 99;
	assertEqualInt(sibt_writer_add(w1, &s, &fs), SIBT_OK);
	assertEqualU64(fs, 0);
	s = plain_seb(2);
	mid.src = 3;
	mid.seq = 0;
	s.nwaits = 1;
	s.waits = &mid;
	assertEqualInt(sibt_writer_add(w1, &s, NULL), SIBT_OK);
	assertEqualU64(sibt_writer_nsebs(w1, 2), 4);
	assertEqualU64(sibt_writer_nsebs(w1, 3), 1);
	assertEqualU64(sibt_writer_next_seq(w1, 3), 1);
	assertEqualInt(sibt_writer_close(w0), SIBT_OK);
	assertEqualInt(sibt_writer_close(w1), SIBT_OK);
	assertEqualInt(sibt_writer_close(w2), SIBT_OK);
	w0 = w1 = w2 = NULL;
	{
		sibt_trace *t = open_ok(dir, "after rejected SEBs");
		if (t) {
			sibt_window *win = sibt_window_new();
			assertEqualU64(sibt_trace_nsebs(t, 2), 4);
			assertEqualU64(sibt_trace_nsebs(t, 3), 1);
			assertEqualU64(sibt_trace_nsebs(t, 0), 0);
			assertEqualInt(sibt_trace_read_window(t, 2, 0, win),
				       SIBT_OK);
			if (sibt_window_nsebs(win) == 4) {
				const sibt_seb *r = sibt_window_seb(win, 2);
				assertTrue(!r->preds_default && r->npreds == 1
					   && r->preds[0] == 0);
				r = sibt_window_seb(win, 3);
				assertTrue(r->nwaits == 1 &&
					   r->waits[0].src == 3 &&
					   r->waits[0].seq == 0);
				assertEqualInt(r->duration, 10);
			} else {
				TEST_FAIL("PE 2 window 0 holds %u SEBs, want 4",
					  sibt_window_nsebs(win));
			}
			sibt_window_free(win);
			sibt_trace_close(t);
		}
	}

	/* Unchecked: references out of range are written as given, and a
	 * reader then finds them structurally invalid (EFORMAT). */
	snprintf(dir, sizeof dir, "%s/unchecked", tmp);
	if (open_block(&w0, dir, 0, 1, 0) || open_block(&w1, dir, 1, 1, 0) ||
	    open_block(&w2, dir, 2, 1, 0))
		goto out;
	{
		static const char *const cases[] = {
			"send to PE 6", "pred 0 on SEB 0", "wait from PE 9"
		};
		for (int c = 0; c < 3; c++) {
			uint32_t pe = 2 + (c == 1);  /* fresh PE for case 1 */
			s = plain_seb(c == 2 ? 2 : pe);
			if (c == 0) {
				snd.dst = 6;
				s.nsends = 1;
				s.sends = &snd;
			} else if (c == 1) {
				pred = 0;
				s.preds_default = 0;
				s.npreds = 1;
				s.preds = &pred;
			} else {
				mid.src = 9;
				s.nwaits = 1;
				s.waits = &mid;
			}
			int rc = sibt_writer_add(w1, &s, NULL);
			CHECKF(rc == SIBT_OK, "unchecked %s: add = %d: %s",
			       cases[c], rc, sibt_writer_errmsg(w1));
			/* one window per case */
			sibt_writer_flush_pe(w1, s.pe);
		}
	}
	assertEqualInt(sibt_writer_close(w0), SIBT_OK);
	assertEqualInt(sibt_writer_close(w1), SIBT_OK);
	assertEqualInt(sibt_writer_close(w2), SIBT_OK);
	w0 = w1 = w2 = NULL;
	{
		sibt_trace *t = NULL;
		char eb[512] = "";
		int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_OK, "unchecked trace: open = %d: %s", rc, eb);
		if (t) {
			sibt_window *win = sibt_window_new();
			rc = sibt_trace_read_window(t, 2, 0, win);
			CHECKF(rc == SIBT_EFORMAT, "send to PE 6 of 6 read back "
			       "as %d, want SIBT_EFORMAT", rc);
			rc = sibt_trace_read_window(t, 3, 0, win);
			CHECKF(rc == SIBT_EFORMAT, "pred 0 of SEB 0 read back "
			       "as %d, want SIBT_EFORMAT", rc);
			rc = sibt_trace_read_window(t, 2, 1, win);
			CHECKF(rc == SIBT_EFORMAT, "wait from PE 9 of 6 read "
			       "back as %d, want SIBT_EFORMAT", rc);
			if (rc == SIBT_EFORMAT)
				assertContains(sibt_trace_errmsg(t), "PE 2");
			sibt_window_free(win);
			sibt_trace_close(t);
		}
	}
	/* A PE outside the block cannot be written even unchecked, but it
	 * must not crash: OK or EINVAL (the writer is then abandoned). */
	snprintf(dir, sizeof dir, "%s/unchecked2", tmp);
	if (open_block(&w1, dir, 1, 1, 0) == SIBT_OK) {
		s = plain_seb(5);
		int rc = sibt_writer_add(w1, &s, NULL);
		CHECKF(rc == SIBT_OK || rc == SIBT_EINVAL, "unchecked PE "
		       "outside the block: %d", rc);
		sibt_writer_abort(w1);
		w1 = NULL;
	}
out:
	if (w0)
		sibt_writer_abort(w0);
	if (w1)
		sibt_writer_abort(w1);
	if (w2)
		sibt_writer_abort(w2);
}

/* ---------------------------------------------------------- overwrite */

static void test_overwrite(void)
{
	char dir[4200], err[1024];
	tg_params p1 = { 5, 12, 2, 0, 0 }, p2 = { 2, 7, 2, 0, 0 };
	tg_model *m1 = tg_generate(31, &p1), *m2 = tg_generate(32, &p2);
	tg_wopts o;
	sibt_trace *t;
	sibt_writer *w = NULL;
	sibt_writer_opts wo;
	char eb[512];
	int rc;

	snprintf(dir, sizeof dir, "%s/overwrite", tmp);
	tg_wopts_init(&o);
	o.nprocs = 3;
	CHECKF(tg_write(m1, dir, &o, err, sizeof err) == SIBT_OK,
	       "overwrite, first trace: %s", err);

	/* Without overwrite, an existing trace is left alone. */
	tg_set_writer_opts(&wo, 2, &o, 0);
	wo.nprocs = 1;
	wo.local_npes = 2;
	eb[0] = '\0';
	w = (sibt_writer *)&wo;  /* must be reset to NULL on failure */
	rc = sibt_writer_open(&w, dir, &wo, eb, sizeof eb);
	CHECKF(rc < 0, "writer_open over an existing trace without "
	       "overwrite = %d", rc);
	CHECKF(w == NULL, "writer_open failed but *wp is not NULL");
	CHECKF(eb[0] != '\0', "writer_open failed without a message");
	if (rc == SIBT_OK && w)
		sibt_writer_abort(w);
	w = NULL;
	if ((t = open_ok(dir, "trace after refused overwrite"))) {
		CHECKF(tg_compare_trace(m1, t, err, sizeof err) == 0,
		       "refused overwrite changed the trace: %s", err);
		sibt_trace_close(t);
	}

	/* A regular file in the way. */
	{
		char fpath[4300];
		snprintf(fpath, sizeof fpath, "%s/plainfile", tmp);
		tg_write_file(fpath, "x", 1);
		wo.overwrite = 0;
		rc = sibt_writer_open(&w, fpath, &wo, eb, sizeof eb);
		CHECKF(rc < 0 && !w, "writer_open on a regular file = %d", rc);
		if (w)
			sibt_writer_abort(w);
		w = NULL;
	}

	/* With overwrite, the new trace replaces the old. */
	o.nprocs = 1;
	o.overwrite = 1;
	CHECKF(tg_write(m2, dir, &o, err, sizeof err) == SIBT_OK,
	       "overwrite: %s", err);
	if ((t = open_ok(dir, "overwritten trace"))) {
		CHECKF(tg_compare_trace(m2, t, err, sizeof err) == 0,
		       "overwritten trace: %s", err);
		assertEqualInt(sibt_trace_nprocs(t), 1);
		sibt_trace_close(t);
	}
	tg_free_model(m1);
	tg_free_model(m2);
}

/* Explicit predecessor lists, including the empty one ("possibly empty",
 * sibyl_trace.h): an SEB > 0 that depends on nothing local. */
static void test_explicit_preds(void)
{
	char dir[4200], eb[1024] = "";
	sibt_writer *w = NULL;
	sibt_writer_opts wo;
	static const uint64_t p3[] = { 0, 1 }, p4[] = { 3 }, p5[] = { 0 };
	static const struct { int dflt; uint32_t n; const uint64_t *p; }
		cases[] = { { 1, 0, NULL }, { 1, 0, NULL }, { 0, 0, NULL },
			    { 0, 2, p3 }, { 0, 1, p4 }, { 0, 1, p5 },
			    { 0, 0, NULL } };
	size_t nc = sizeof cases / sizeof *cases;

	snprintf(dir, sizeof dir, "%s/explicit-preds", tmp);
	sibt_writer_opts_init(&wo);
	wo.npes = 1;
	wo.nprocs = 1;
	wo.local_npes = 1;
	wo.window = 4;
	wo.write_manifest = 1;
	int rc = sibt_writer_open(&w, dir, &wo, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "explicit preds: open: %s", eb);
	if (rc)
		return;
	for (size_t i = 0; i < nc; i++) {
		sibt_seb s = plain_seb(0);
		s.preds_default = cases[i].dflt;
		s.npreds = cases[i].n;
		s.preds = cases[i].p;
		rc = sibt_writer_add(w, &s, NULL);
		CHECKF(rc == SIBT_OK, "explicit preds: add SEB %zu = %d: %s",
		       i, rc, sibt_writer_errmsg(w));
	}
	assertEqualInt(sibt_writer_close(w), SIBT_OK);
	sibt_trace *t = open_ok(dir, "explicit preds");
	if (!t)
		return;
	sibt_window *win = sibt_window_new();
	for (uint64_t i = 0; i < nc; i++) {
		uint64_t wn = 99;
		if (sibt_trace_find_window(t, 0, i, &wn) ||
		    (rc = sibt_trace_read_window(t, 0, wn, win))) {
			TEST_FAIL("explicit preds: SEB %" PRIu64 " (window %"
				  PRIu64 ") does not read: %s", i, wn,
				  sibt_trace_errmsg(t));
			continue;
		}
		const sibt_seb *r = sibt_window_seb(win, (uint32_t)(i % 4));
		const uint64_t *pl;
		uint64_t tmpp;
		uint32_t n = tg_preds(r, &pl, &tmpp);
		uint32_t want = cases[i].dflt ? (i > 0) : cases[i].n;
		int same = n == want;
		for (uint32_t j = 0; same && j < n; j++)
			same = pl[j] == (cases[i].dflt ? i - 1 : cases[i].p[j]);
		CHECKF(r->index == i && same, "explicit preds: SEB %" PRIu64
		       " read back with %u preds (default %d), want %u", i, n,
		       r->preds_default, want);
	}
	sibt_window_free(win);
	sibt_trace_close(t);
}

/* "every pointer belongs to the sibt_window it came from and stays valid
 * until that window is reused or freed" (sibyl_trace.h): a window keeps
 * working after its trace is closed. */
static void test_window_outlives_trace(void)
{
	char dir[4200], err[1024];
	tg_params prm = { 2, 8, 2, 0, 0 };
	tg_model *m = tg_generate(61, &prm);
	tg_wopts o;
	sibt_trace *t;

	snprintf(dir, sizeof dir, "%s/outlive", tmp);
	tg_wopts_init(&o);
	o.window = 1000;
	CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
	       "outlive: %s", err);
	if ((t = open_ok(dir, "outlive"))) {
		sibt_window *win = sibt_window_new();
		int rc = sibt_trace_read_window(t, 1, 0, win);
		assertEqualInt(rc, SIBT_OK);
		sibt_trace_close(t);
		/* overwrite freed memory so that a dangling pointer shows */
		for (int i = 0; i < 64; i++) {
			char *junk = malloc(64 + (size_t)i * 16);
			if (junk) {
				memset(junk, 'Z', 64 + (size_t)i * 16);
				free(junk);
			}
		}
		/* Everything but the name and the region belongs to the
		 * window and must survive the close; names and regions
		 * belong to the trace (header). */
		for (uint32_t i = 0; rc == SIBT_OK &&
		     i < sibt_window_nsebs(win); i++) {
			sibt_seb copy = *sibt_window_seb(win, i);
			copy.name = m->pes[1].sebs[i].name;
			copy.region = m->pes[1].sebs[i].region;
			if (tg_seb_diff(&m->pes[1].sebs[i], &copy, err,
					sizeof err)) {
				TEST_FAIL("window after sibt_trace_close: %s",
					  err);
				break;
			}
		}
		sibt_window_free(win);
	}
	tg_free_model(m);
}

/* Processes open their writers in any order (MPI ranks race): the
 * manifest writer last, on a fresh path and over an older, larger trace. */
static void test_open_order(void)
{
	char dir[4200], err[1024];
	tg_params p1 = { 7, 10, 2, 0, 0 }, p2 = { 5, 10, 2, 0, 0 };
	tg_model *m1 = tg_generate(71, &p1), *m2 = tg_generate(72, &p2);
	tg_wopts o;
	sibt_trace *t;

	snprintf(dir, sizeof dir, "%s/order", tmp);
	tg_wopts_init(&o);
	o.nprocs = 4;
	o.reverse_open = 1;
	CHECKF(tg_write(m1, dir, &o, err, sizeof err) == SIBT_OK,
	       "reverse open order: %s", err);
	if ((t = open_ok(dir, "reverse open order"))) {
		CHECKF(tg_compare_trace(m1, t, err, sizeof err) == 0,
		       "reverse open order: %s", err);
		sibt_trace_close(t);
	}
	o.nprocs = 2;
	o.overwrite = 1;
	CHECKF(tg_write(m2, dir, &o, err, sizeof err) == SIBT_OK,
	       "reverse open order, overwrite: %s", err);
	if ((t = open_ok(dir, "reverse open order, overwrite"))) {
		CHECKF(tg_compare_trace(m2, t, err, sizeof err) == 0,
		       "reverse open order, overwrite: %s", err);
		assertEqualInt(sibt_trace_nprocs(t), 2);
		sibt_trace_close(t);
	}
	CHECKF(!tg_exists(tg_datafile(dir, 2)) && !tg_exists(tg_datafile(dir, 3)),
	       "overwrite left the data files of the older trace");
	tg_free_model(m1);
	tg_free_model(m2);
}

/* bytes_written follows the file; flush_pe writes a window only when
 * there is one to write. */
static void test_flush(void)
{
	char dir[4200], eb[1024] = "";
	sibt_writer *w = NULL;
	sibt_writer_opts wo;
	uint64_t last;
	int rc;

	snprintf(dir, sizeof dir, "%s/flush", tmp);
	sibt_writer_opts_init(&wo);
	wo.npes = 4;
	wo.nprocs = 2;
	wo.proc = 1;
	sibt_block_range(4, 2, 1, &wo.first_pe, &wo.local_npes);
	wo.window = 3;
	rc = sibt_writer_open(&w, dir, &wo, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "flush: open: %s", eb);
	if (rc)
		return;
	const char *path = tg_datafile(dir, 1);
	last = sibt_writer_bytes_written(w);
	CHECKF(last == 64 && tg_file_size(path) == 64, "flush: after open, "
	       "bytes_written %" PRIu64 ", file %" PRIu64, last,
	       tg_file_size(path));
	assertEqualInt(sibt_writer_flush_pe(w, 2), SIBT_OK);  /* nothing */
	assertEqualU64(sibt_writer_bytes_written(w), last);
	CHECKF(sibt_writer_flush_pe(w, 0) == SIBT_EINVAL &&
	       sibt_writer_flush_pe(w, 4) == SIBT_EINVAL,
	       "flush_pe of a PE outside the block is not EINVAL");
	for (int i = 0; i < 7; i++) {
		sibt_seb s = plain_seb(2 + (uint32_t)(i % 2));
		assertEqualInt(sibt_writer_add(w, &s, NULL), SIBT_OK);
		uint64_t now = sibt_writer_bytes_written(w);
		CHECKF(now >= last, "bytes_written went back");
		last = now;
	}
	/* PE 2 has 4 SEBs (a full window written, 1 pending), PE 3 has 3 */
	assertEqualU64(sibt_writer_nsebs(w, 2), 4);
	assertEqualU64(sibt_writer_nsebs(w, 3), 3);
	CHECKF(last > 64, "bytes_written %" PRIu64 " after two full windows",
	       last);
	assertTrue(sibt_writer_bytes_pending(w) > 0);
	assertEqualInt(sibt_writer_flush_pe(w, 2), SIBT_OK);
	/* "Write the partial window of pe now": it reaches the file */
	last = sibt_writer_bytes_written(w);
	CHECKF(last == tg_file_size(path), "after flush_pe: bytes_written %"
	       PRIu64 ", but the file has %" PRIu64 " bytes", last,
	       tg_file_size(path));
	assertEqualInt(sibt_writer_flush_pe(w, 2), SIBT_OK);
	assertEqualU64(sibt_writer_bytes_written(w), last);
	assertEqualU64(sibt_writer_bytes_pending(w), 0);
	sibt_writer_abort(w);
	/* the aborted file holds exactly the complete windows: PE 2's two
	 * and PE 3's one */
	size_t len;
	uint8_t *b = tg_read_file(path, &len);
	tg_frame fr[64];
	uint64_t end = 0;
	size_t n = b ? tg_frames(b, len, fr, 64, &end) : 0, nw = 0;
	for (size_t i = 0; i < n; i++)
		nw += !strcmp(fr[i].tag, "WIND");
	CHECKF(b && end == len && nw == 3, "aborted file: %zu windows, frames "
	       "end at %" PRIu64 " of %zu", nw, end, len);
	free(b);
}

/* Manifest values of any size; extra lines that could break the file. */
static void test_manifest_edges(void)
{
	char dir[4200], err[1024], eb[1024];
	tg_params prm = { 2, 3, 1, 1, 0 };
	tg_model *m = tg_generate(81, &prm);
	size_t big = 100000;
	char *cmd = tg_xmalloc(big + 1);
	tg_wopts o;
	sibt_trace *t;

	for (size_t i = 0; i < big; i++)
		cmd[i] = "ab\\ \n=#\tcd"[i % 10];
	cmd[big] = '\0';
	snprintf(dir, sizeof dir, "%s/manifest-edges", tmp);
	tg_wopts_init(&o);
	o.overwrite = 1;
	o.cmdline = cmd;
	CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
	       "100 kB cmdline: %s", err);
	if ((t = open_ok(dir, "100 kB cmdline"))) {
		const char *v = sibt_trace_manifest(t, "cmdline");
		CHECKF(v && !strcmp(v, cmd), "a 100 kB cmdline does not round "
		       "trip (%zu bytes read)", v ? strlen(v) : 0);
		sibt_trace_close(t);
	}
	/* Extra lines that collide with required keys or are malformed:
	 * the writer refuses them, or the trace still reads right. */
	static const char *const bad[][2] = {
		{ "npes = 99", "npes" },
		{ "file.0 = proc-000007.sdat 0 1", "file.0" },
		{ "no equals sign here", NULL },
		{ "emu.a = one\nemu.b = two", "emu.a" },
		{ " = empty key", NULL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *extra[2] = { bad[i][0], NULL };
		sibt_writer *w = NULL;
		sibt_writer_opts wo;
		sibt_writer_opts_init(&wo);
		wo.npes = 2;
		wo.nprocs = 1;
		wo.local_npes = 2;
		wo.write_manifest = 1;
		wo.overwrite = 1;
		wo.extra = extra;
		eb[0] = '\0';
		int rc = sibt_writer_open(&w, dir, &wo, eb, sizeof eb);
		if (rc == SIBT_OK) {
			sibt_seb s = plain_seb(1);
			sibt_writer_add(w, &s, NULL);
			rc = sibt_writer_close(w);
		}
		if (rc != SIBT_OK) {
			CHECKF(rc == SIBT_EINVAL, "extra \"%s\": writer "
			       "failed with %d (%s)", bad[i][0], rc,
			       sibt_strerror(rc));
			continue;
		}
		t = NULL;
		rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_OK, "extra \"%s\" was accepted and the "
		       "trace does not open: %d %s", bad[i][0], rc, eb);
		if (t) {
			assertEqualInt(sibt_trace_npes(t), 2);
			assertEqualU64(sibt_trace_nsebs(t, 1), 1);
			assertEqualString(sibt_trace_manifest(t, "file.0"),
					  "proc-000000.sdat 0 2");
			if (i == 3)
				CHECKF(!sibt_trace_manifest(t, "emu.b"),
				       "an extra value with a newline injected "
				       "the key emu.b");
			sibt_trace_close(t);
		}
	}
	free(cmd);
	tg_free_model(m);
}

/* Names longer than any buffer, and many distinct ones. */
static void test_long_names(void)
{
	char dir[4200], err[1024];
	tg_params prm = { 2, 3, 1, 1, 0 };
	tg_model *m = tg_generate(9, &prm);
	tg_wopts o;
	sibt_trace *t;
	size_t big = 200000;

	/* replace names: one huge, others distinct */
	for (uint32_t p = 0; p < m->npes; p++)
		for (uint64_t i = 0; i < m->pes[p].nsebs; i++) {
			sibt_seb *s = &m->pes[p].sebs[i];
			free((void *)s->name);
			char *n = tg_xmalloc(big + 1);
			size_t len = (p == 0 && i == 0) ? big : 20 + i;
			for (size_t c = 0; c < len; c++)
				n[c] = (char)('a' + (c + i + p) % 26);
			n[len] = '\0';
			s->name = n;
		}
	snprintf(dir, sizeof dir, "%s/longnames", tmp);
	tg_wopts_init(&o);
	o.window = 2;
	CHECKF(tg_write(m, dir, &o, err, sizeof err) == SIBT_OK,
	       "long names: %s", err);
	if ((t = open_ok(dir, "long names"))) {
		CHECKF(tg_compare_trace(m, t, err, sizeof err) == 0,
		       "long names: %s", err);
		sibt_trace_close(t);
	}
	tg_free_model(m);
}

int main(void)
{
	alarm(300);   /* a hang is a failure, not a stuck CI job */
	snprintf(tmp, sizeof tmp, "%s", test_tmpdir("test_roundtrip"));
	test_defaults();
	test_empty();
	test_manifest();
	test_membound();
	test_invalid();
	test_overwrite();
	test_long_names();
	test_explicit_preds();
	test_open_order();
	test_flush();
	test_manifest_edges();
	test_matrix();
	test_window_outlives_trace();
	return TEST_EXIT();
}
