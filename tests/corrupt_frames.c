/*
 * corrupt_frames.c -- the frames of a data file made wrong with their
 * checksums right: lies in window headers, hand-made window payloads, the
 * structure of window headers, the preset dictionary.
 *
 * As in test_corrupt.c, the expected outcome of every case is derived
 * from FORMAT.md and the window offsets of the intact trace, and a window
 * that reads back successfully must equal the model.
 */
#include "config.h"

#include "corrupt.h"


/* ------------------------------------- lies that pass every checksum */

/* The third WIND frame of file 0 of an intact fixture (so that some come
 * before it), parsed; -1 with a failure reported when there is none. */
static int third_window(const fixture *fx, tg_frame *out, tg_wind *w,
			const char *what)
{
	tg_frame fr[4096];
	size_t nfr = tg_frames(fx->orig[0], fx->len[0], fr, 4096, NULL), k;
	size_t nwin = 0;
	for (k = 0; k < nfr; k++)
		if (!strcmp(fr[k].tag, "WIND") && ++nwin == 3)
			break;
	if (k == nfr ||
	    tg_wind_parse(fx->orig[0] + fr[k].off, fx->len[0] - fr[k].off, w)) {
		TEST_FAIL("%s: the fixture has fewer than 3 windows", what);
		return -1;
	}
	*out = fr[k];
	return 0;
}

/*
 * A copy of file 0 with the header of the WIND frame fr replaced by the
 * hl bytes at h, its index kept right (tg_splice: offsets after the frame
 * move when the header length changes); *len gets the new length.
 */
static uint8_t *replace_header(const fixture *fx, const tg_frame *fr,
			       const uint8_t *h, size_t hl, size_t *len,
			       const char *what)
{
	uint8_t *b = tg_xmalloc(fx->len[0]);
	memcpy(b, fx->orig[0], fx->len[0]);
	*len = fx->len[0];
	int sp = tg_splice(&b, len, fr->off, fr->hdr, h, hl);
	CHECKF(sp == 1, "%s: the index could not be rewritten (%d)", what, sp);
	return b;
}

/* Window frame 3 of file 0 gets one varint field of its header rewritten
 * (the header re-encoded, its CRC recomputed; the index keeps the truth
 * and stays valid); with `scan' the trailer is dropped so that the frame
 * headers (not the index) are believed.  The reader must refuse the
 * window as EFORMAT (or stop its scan there) without allocating for the
 * lie. */
static void check_lie(fixture *fx, int field, uint64_t value, int scan,
		      int flags, const char *what)
{
	sibt_trace *t = NULL;
	char eb[1024] = "", full[512];
	uint8_t h[TG_WIN_BUILD_MAX];
	tg_frame fr;
	tg_wind w;
	size_t len;
	int rc;

	snprintf(full, sizeof full, "%s (%s%s)", what, scan ? "no trailer" :
		 "indexed", flags ? ", verify all" : "");
	if (third_window(fx, &fr, &w, full))
		return;
	const wininfo *x = window_at(fx, 0, fr.off);
	w.f[field] = value;
	/* The same header length when the lie fits (padding the varints),
	 * else a longer header. */
	size_t hl = tg_wind_build(h, w.f, w.pcrc, w.hlen, 0);
	if (!hl)
		hl = tg_wind_build(h, w.f, w.pcrc, 0, 0);
	uint8_t *b = replace_header(fx, &fr, h, hl, &len, full);
	tg_write_file(tg_datafile(fx->dir, 0), b, len - (scan ? 32 : 0));
	free(b);

	rc = sibt_trace_open(&t, fx->dir, flags, eb, sizeof eb);
	CHECKF(rc == SIBT_OK || rc == SIBT_WARN || rc == SIBT_EFORMAT,
	       "%s: open = %d (%s): %s", full, rc, sibt_strerror(rc), eb);
	if (t) {
		sibt_window *win = sibt_window_new();
		size_t peak = 0;
		for (uint32_t pe = 0; pe < fx->m->npes; pe++)
			for (uint64_t wn = 0; wn < sibt_trace_nwindows(t, pe);
			     wn++) {
				char err[1024];
				int d = tg_compare_window(fx->m, t, pe, wn, win,
							  err, sizeof err);
				size_t mem = sibt_window_memory(win);
				if (mem > peak)
					peak = mem;
				if (x && pe == x->pe && wn == x->window)
					CHECKF(d == SIBT_EFORMAT, "%s: the lying "
					       "window read back as %d: %s", full,
					       d, err);
				else
					CHECKF(d == 0, "%s: %s", full, err);
			}
		CHECKF(peak < (16u << 20), "%s: a window grew to %zu bytes",
		       full, peak);
		sibt_window_free(win);
		sibt_trace_close(t);
	}
	restore(fx, 0);
}

void test_lies(void)
{
	fixture fx;
	tg_params prm = { 2, 12, 3, 1, 1 };
	if (make_fixture(&fx, "lies", 51, &prm, 1, 4, 0) == 0) {
		for (int scan = 0; scan < 2; scan++)
			for (int fl = 0; fl < 2; fl++) {
				int flags = fl ? SIBT_OPEN_VERIFY_ALL : 0;
				/* SEB count: 2^31 in a 4-SEB window */
				check_lie(&fx, TG_W_NSEBS, 0x7fffffffu, scan,
					  flags, "WIND nsebs 2^31-1");
				check_lie(&fx, TG_W_NSEBS, 5, scan, flags,
					  "WIND nsebs 5 > window 4");
				/* a count that only 64 bits hold: 1 if cut
				 * to 32 bits */
				check_lie(&fx, TG_W_NSEBS, (1ull << 32) + 1,
					  scan, flags, "WIND nsebs 2^32+1");
				/* send count */
				check_lie(&fx, TG_W_NSENDS, 0xfffffff0u, scan,
					  flags, "WIND nsends 2^32-16");
				/* the method: none 3; 2 needs a DICT frame,
				 * which this level-0 file does not have */
				check_lie(&fx, TG_W_METHOD, 3, scan, flags,
					  "WIND method 3");
				check_lie(&fx, TG_W_METHOD, 2, scan, flags,
					  "WIND method 2 without a DICT frame");
			}
	}
	free_fixture(&fx);
}

/* ------------------------------------------- hand-made window payloads */

/*
 * Start a hand-made trace in a fresh directory `dir': a MANIFEST for 2 PEs
 * in one file with window 4, and that file's 64-byte header appended to f.
 * The caller appends frames to f and writes it with tg_write_file.
 */
static void start_crafted_trace(const char *dir, tg_bytes *f)
{
	char cmd[8600];
	uint8_t h[TG_HDR];

	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd))
		exit(99);
	set_manifest_text(dir, "format = sibyl-trace 1.0\nnpes = 2\n"
			  "nprocs = 1\nwindow = 4\ntime_unit = ps\n"
			  "byte_order = little-endian\n"
			  "file.0 = proc-000000.sdat 0 2\n");
	memset(h, 0, sizeof h);
	memcpy(h, "SIBYLDAT\x01\x00\x00\x00\x04\x03\x02\x01", 16);
	tg_put32(h + 20, 1);
	tg_put32(h + 24, 2);
	tg_put32(h + 32, 2);
	tg_put32(h + 36, 4);
	tg_put32(h + 60, tg_crc(h, 60));
	tg_bytes_put(f, h, sizeof h);
}

/* One case: a payload for window 0 of PE 1 (of 2) and its header counts. */
typedef struct crafted {
	const char *what;
	uint32_t nsebs, nsends;
	int ok;                 /* 1: must read; 0: must be SIBT_EFORMAT */
} crafted;

static void craft_payload(int c, tg_bytes *p, crafted *k)
{
	k->nsebs = 1;
	k->nsends = 0;
	k->ok = 0;
	switch (c) {
	case 0:
		k->what = "a valid SEB (control)";
		k->ok = 1;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		break;
	case 1:
		k->what = "wait source delta INT64_MAX";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 2);
		tg_bytes_varint(p, 1); tg_bytes_svarint(p, INT64_MAX); tg_bytes_varint(p, 0);
		break;
	case 2:
		k->what = "send destination delta INT64_MIN";
		k->nsends = 1;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 4);
		tg_bytes_varint(p, 1); tg_bytes_svarint(p, INT64_MIN); tg_bytes_varint(p, 1);
		tg_bytes_svarint(p, 0); tg_bytes_varint(p, 0);
		break;
	case 3:
		k->what = "wait from PE -1";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 2);
		tg_bytes_varint(p, 1); tg_bytes_svarint(p, -2); tg_bytes_varint(p, 0);
		break;
	case 4:
		k->what = "predecessor delta 0";
		k->nsebs = 2;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 1);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 0);
		break;
	case 5:
		k->what = "predecessor before SEB 0";
		k->nsebs = 2;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 1);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 2);
		break;
	case 6:
		k->what = "duration 2^63";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 1ull << 63); tg_bytes_varint(p, 0);
		break;
	case 7:
		k->what = "an 11-byte varint";
		tg_bytes_varint(p, 0);
		tg_bytes_put(p, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
		tg_bytes_varint(p, 0);
		break;
	case 8:
		k->what = "a print of 2^62 bytes";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 8);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 0); tg_bytes_varint(p, 1ull << 62);
		tg_bytes_put(p, "abc", 3);
		break;
	case 9:
	case 10:
		k->what = c == 9 ? "marker kind 0" : "marker kind 5";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 16);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, c == 9 ? 0 : 5); tg_bytes_svarint(p, 1);
		break;
	case 11:
		k->what = "unknown flag 32";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 32);
		break;
	case 12:
		k->what = "a byte left over";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		tg_bytes_varint(p, 0);
		break;
	case 13:
		k->what = "an undefined name id";
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		break;
	case 14:
		k->what = "header announces a send the records lack";
		k->nsends = 1;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 0);
		break;
	case 15:
		k->what = "waits flag with k = 0";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 2);
		tg_bytes_varint(p, 0);
		break;
	case 16:
		/* FORMAT.md 5: odd = counted from the end; 6 ps before the
		 * end of a 5 ps SEB is before its start. */
		k->what = "send offset counted from the end, before the start";
		k->nsends = 1;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 4);
		tg_bytes_varint(p, 1); tg_bytes_svarint(p, 0); tg_bytes_varint(p, 1);
		tg_bytes_svarint(p, 0); tg_bytes_varint(p, (6 << 1) | 1);
		break;
	case 17:
		k->what = "print offset 2^63";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 8);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 1ull << 63); tg_bytes_varint(p, 0);
		break;
	case 18:
		k->what = "an empty payload for one SEB";
		break;
	case 19:
		k->what = "2^40 waits in a few bytes";
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 2);
		tg_bytes_varint(p, 1ull << 40); tg_bytes_svarint(p, 0); tg_bytes_varint(p, 0);
		break;
	case 20:
		k->what = "marker value INT64_MIN, send size 2^64-1 (valid)";
		k->ok = 1;
		k->nsends = 1;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, INT64_MAX); tg_bytes_varint(p, 4 | 16);
		tg_bytes_varint(p, 1); tg_bytes_svarint(p, -1); tg_bytes_varint(p, UINT64_MAX);
		tg_bytes_svarint(p, INT32_MIN); tg_bytes_varint(p, UINT64_MAX - 1);
		tg_bytes_varint(p, 1); tg_bytes_varint(p, 4); tg_bytes_svarint(p, INT64_MIN);
		break;
	case 21:
		k->what = "second send offset steps past INT64_MAX";
		k->nsends = 2;
		tg_bytes_varint(p, 0); tg_bytes_varint(p, 5); tg_bytes_varint(p, 4);
		tg_bytes_varint(p, 2);
		tg_bytes_svarint(p, 0); tg_bytes_varint(p, 1); tg_bytes_svarint(p, 0);
		tg_bytes_varint(p, UINT64_MAX - 1);
		tg_bytes_svarint(p, 0); tg_bytes_varint(p, 1); tg_bytes_svarint(p, 0);
		tg_bytes_svarint(p, 1);
		break;
	default:
		k->what = NULL;
	}
}

void test_crafted(void)
{
	char dir[4200];
	snprintf(dir, sizeof dir, "%s/crafted", tmp);
	for (int c = 0;; c++) {
		tg_bytes pay = { 0 }, f = { 0 };
		crafted k;
		sibt_trace *t = NULL;
		char eb[1024] = "";
		craft_payload(c, &pay, &k);
		if (!k.what) {
			free(pay.p);
			break;
		}
		start_crafted_trace(dir, &f);
		{
			/* PE 1, window 0, first SEB 0, first seq 0, stored */
			const uint64_t wf[TG_W_NFIELDS] = {
				1, 0, k.nsebs, 0, 0, k.nsends, pay.n, pay.n, 0
			};
			uint8_t wh[TG_WIN_BUILD_MAX];
			size_t hl = tg_wind_build(wh, wf, tg_crc(pay.p, pay.n),
						  0, 0);
			tg_bytes_put(&f, wh, hl);
		}
		tg_bytes_put(&f, pay.p, pay.n);
		tg_write_file(tg_datafile(dir, 0), f.p, f.n);

		int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_WARN && t, "crafted %s: open = %d (%s): %s",
		       k.what, rc, sibt_strerror(rc), eb);
		if (t) {
			sibt_window *win = sibt_window_new();
			uint64_t nw = sibt_trace_nwindows(t, 1);
			rc = nw ? sibt_trace_read_window(t, 1, 0, win)
				: SIBT_EFORMAT;
			if (k.ok) {
				CHECKF(rc == SIBT_OK && nw == 1, "crafted %s: "
				       "read = %d (%s): %s", k.what, rc,
				       sibt_strerror(rc), sibt_trace_errmsg(t));
			} else {
				CHECKF(rc == SIBT_EFORMAT, "crafted %s: read = "
				       "%d (%s), want SIBT_EFORMAT", k.what, rc,
				       sibt_strerror(rc));
				if (nw && rc == SIBT_EFORMAT)
					assertContains(sibt_trace_errmsg(t),
						       "PE 1");
			}
			CHECKF(sibt_window_memory(win) < (16u << 20),
			       "crafted %s: the window holds %zu bytes", k.what,
			       sibt_window_memory(win));
			if (k.ok && rc == SIBT_OK && c == 20) {
				const sibt_seb *s = sibt_window_seb(win, 0);
				CHECKF(s && s->duration == INT64_MAX &&
				       s->nsends == 1 && s->sends[0].dst == 0 &&
				       s->sends[0].size == UINT64_MAX &&
				       s->sends[0].tag == INT32_MIN &&
				       s->sends[0].offset == INT64_MAX &&
				       s->nmarkers == 1 &&
				       s->markers[0].kind == 4 &&
				       s->markers[0].value == INT64_MIN &&
				       !strcmp(s->name, ""),
				       "crafted extremes read back wrong");
			}
			sibt_window_free(win);
			sibt_trace_close(t);
		}
		free(pay.p);
		free(f.p);
	}
}

/* ------------------------------------------ window header structure */

/* A WIND header variant (FORMAT.md 4.2: 22 <= H <= 64, nine varints
 * ending exactly at H-8) and what the reader must make of it. */
typedef struct hdr_case {
	const char *what;
	size_t pad_to;          /* tg_wind_build: 0 minimal, else this H */
	int gap;                /* tg_wind_build: bytes after the varints */
	int set_h;              /* -1, or the length byte to claim (with the
	                           header CRC moved to set_h - 4) */
	int field;              /* -1, or a field to replace ... */
	uint64_t value;         /* ... by this */
	int want;               /* 0: reads; else the error */
	int scan_only;          /* the lie would only contradict the index */
	int field2;             /* 0, or 1 + a second field to replace ... */
	uint64_t value2;        /* ... by this */
} hdr_case;

static const hdr_case hdr_cases[] = {
	{ "minimal varints (control)", 0, 0, -1, -1, 0, 0, 0, 0, 0 },
	{ "varints padded to H = 64 (control)", 64, 0, -1, -1, 0, 0, 0, 0,
	  0 },
	{ "varints padded to H = 40 (control)", 40, 0, -1, -1, 0, 0, 0, 0,
	  0 },
	{ "H = 21 claimed, CRC at 17", 0, 0, 21, -1, 0, SIBT_ECRC, 0, 0,
	  0 },
	{ "H = 0 claimed", 0, 0, 0, -1, 0, SIBT_ECRC, 0, 0, 0 },
	{ "H = 255 claimed", 0, 0, 255, -1, 0, SIBT_ECRC, 0, 0, 0 },
	{ "varints padded to H = 65", 65, 0, -1, -1, 0, SIBT_ECRC, 0, 0,
	  0 },
	{ "varints padded to H = 80", 80, 0, -1, -1, 0, SIBT_ECRC, 0, 0,
	  0 },
	{ "a byte between the varints and H-8", 0, 1, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "4 bytes between the varints and H-8", 0, 4, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "padded to H = 64 with a byte before H-8", 64, 1, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	/* padded, so that H stays in 22..64 */
	{ "H = 40, varints running 1 byte past H-8", 40, -1, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "H = 40, varints running 3 bytes past H-8", 40, -3, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "H = 64, varints running 1 byte past H-8", 64, -1, -1, -1, 0,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "method 3", 0, 0, -1, TG_W_METHOD, 3, SIBT_EFORMAT, 0, 0, 0 },
	{ "method 2 with no DICT frame", 0, 0, -1, TG_W_METHOD, 2,
	  SIBT_EFORMAT, 0, 0, 0 },
	/* TF_MAX_RAW: raw_len <= 2^28.  At the limit the header verifies
	 * and the scan then finds the stored payload cut off; one more is a
	 * format error. */
	{ "raw_len = stored_len = 2^28", 0, 0, -1, TG_W_RAW, TG_MAX_RAW,
	  SIBT_ETRUNC, 1, 1 + TG_W_STORED, TG_MAX_RAW },
	{ "raw_len = stored_len = 2^28 + 1", 0, 0, -1, TG_W_RAW,
	  TG_MAX_RAW + 1ull, SIBT_EFORMAT, 1, 1 + TG_W_STORED,
	  TG_MAX_RAW + 1ull },
	{ "nsebs 0", 0, 0, -1, TG_W_NSEBS, 0, SIBT_EFORMAT, 0, 0, 0 },
	/* 32-bit fields whose varints hold more: cut to 32 bits they would
	 * describe this very window */
	{ "PE 2^32 + 1", 0, 0, -1, TG_W_PE, (1ull << 32) + 1, SIBT_EFORMAT,
	  0, 0, 0 },
	{ "window number 2^32", 0, 0, -1, TG_W_WINDOW, 1ull << 32,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "nsebs 2^32 + 1", 0, 0, -1, TG_W_NSEBS, (1ull << 32) + 1,
	  SIBT_EFORMAT, 0, 0, 0 },
	{ "nsends 2^32", 0, 0, -1, TG_W_NSENDS, 1ull << 32, SIBT_EFORMAT,
	  0, 0, 0 },
};

/* Build case c's header from the fields of base into h; returns the
 * number of bytes the header takes in the file (0: cannot be built). */
static size_t build_case_header(uint8_t *h, const tg_wind *base,
				const hdr_case *c)
{
	uint64_t f[TG_W_NFIELDS];
	memcpy(f, base->f, sizeof f);
	if (c->field >= 0)
		f[c->field] = c->value;
	if (c->field2)
		f[c->field2 - 1] = c->value2;
	size_t hl = tg_wind_build(h, f, base->pcrc, c->pad_to, c->gap);
	if (hl && c->set_h >= 0) {
		h[4] = (uint8_t)c->set_h;
		if (c->set_h >= 8 && (size_t)c->set_h <= hl)
			tg_put32(h + c->set_h - 4, tg_crc(h, (size_t)c->set_h - 4));
	}
	return hl;
}

/* A data file of 2 PEs (one process, window 4) written from FORMAT.md
 * alone: the header, then one valid window of PE 0 and a window of PE 1
 * with header hdr (hl bytes), each holding the 3-byte SEB
 * (name 0, duration 5, no flags); no index.  Returns where the second
 * window starts. */
static uint64_t write_two_windows(const char *dir, const uint8_t *hdr,
				  size_t hl)
{
	static const uint8_t pay[3] = { 0, 5, 0 };
	const uint64_t f0[TG_W_NFIELDS] = { 0, 0, 1, 0, 0, 0, 3, 3, 0 };
	uint8_t wh[TG_WIN_BUILD_MAX];
	tg_bytes f = { 0 };

	start_crafted_trace(dir, &f);
	size_t n0 = tg_wind_build(wh, f0, tg_crc(pay, 3), 0, 0);
	CHECKF(n0 == TG_WIN_HDR_MIN, "a header of one-byte varints takes %zu "
	       "bytes, want %d", n0, TG_WIN_HDR_MIN);
	tg_bytes_put(&f, wh, n0);
	tg_bytes_put(&f, pay, 3);
	uint64_t second = f.n;
	tg_bytes_put(&f, hdr, hl);
	tg_bytes_put(&f, pay, 3);
	tg_write_file(tg_datafile(dir, 0), f.p, f.n);
	free(f.p);
	return second;
}

/* The trace of fx, whose window x has a header that the reader must
 * take (want 0) or refuse with want, is opened with its index: the
 * window fails to read with want, every other reads right; with verify
 * all, the open fails with want. */
static void check_indexed_header(const fixture *fx, const wininfo *x,
				 int want, int verify_all, const char *what)
{
	sibt_trace *t = NULL;
	char eb[1024] = "";
	int rc = sibt_trace_open(&t, fx->dir, verify_all ?
				 SIBT_OPEN_VERIFY_ALL : 0, eb, sizeof eb);
	int want_open = verify_all ? want : SIBT_OK;
	CHECKF(rc == want_open, "%s%s: open = %d (%s), want %d (%s): %s", what,
	       verify_all ? " (verify all)" : "", rc, sibt_strerror(rc),
	       want_open, sibt_strerror(want_open), eb);
	if (!t)
		return;
	CHECKF(sibt_trace_damage_count(t) == 0, "%s: the index was not used",
	       what);
	sibt_window *win = sibt_window_new();
	for (uint32_t pe = 0; pe < fx->m->npes; pe++)
		for (uint64_t w = 0; w < sibt_trace_nwindows(t, pe); w++) {
			char err[1024];
			int d = tg_compare_window(fx->m, t, pe, w, win, err,
						  sizeof err);
			int wd = pe == x->pe && w == x->window ? want : 0;
			CHECKF(d == wd, "%s: PE %u window %" PRIu64 " read = "
			       "%d, want %d: %s", what, pe, w, d, wd, err);
		}
	sibt_window_free(win);
	sibt_trace_close(t);
}

/* Each header variant, (1) found by the recovery scan in a file without
 * index and (2) named by the index of an intact trace. */
void test_wind_headers(void)
{
	char dir[4200];
	size_t nc = sizeof hdr_cases / sizeof *hdr_cases;
	static const uint8_t pay[3] = { 0, 5, 0 };

	snprintf(dir, sizeof dir, "%s/wind-headers", tmp);
	for (size_t c = 0; c < nc; c++) {
		const hdr_case *k = &hdr_cases[c];
		tg_wind base;
		uint8_t h[TG_WIN_BUILD_MAX];
		sibt_trace *t = NULL;
		char eb[1024] = "";
		memset(&base, 0, sizeof base);
		/* PE 1, window 0: one SEB, no sends, 3 bytes stored */
		base.f[TG_W_PE] = 1;
		base.f[TG_W_NSEBS] = 1;
		base.f[TG_W_RAW] = base.f[TG_W_STORED] = 3;
		base.pcrc = tg_crc(pay, 3);
		size_t hl = build_case_header(h, &base, k);
		if (!hl) {
			TEST_FAIL("scanned %s: cannot build the header", k->what);
			continue;
		}
		if (k->pad_to && !k->gap && k->set_h < 0)
			CHECKF(hl == k->pad_to && h[4] == k->pad_to,
			       "scanned %s: built H %zu", k->what, hl);
		uint64_t second = write_two_windows(dir, h, hl);
		uint64_t fsize = second + hl + 3;

		int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_WARN && t, "scanned %s: open = %d (%s): %s",
		       k->what, rc, sibt_strerror(rc), eb);
		if (!t)
			continue;
		const sibt_damage *d = sibt_trace_damage(t, 0);
		/* no index: a good file ends in ETRUNC after both windows */
		int want = k->want ? k->want : SIBT_ETRUNC;
		uint64_t valid = k->want ? second : fsize;
		CHECKF(sibt_trace_damage_count(t) == 1 && d &&
		       d->reason == want && d->valid_bytes == valid &&
		       d->file_bytes == fsize &&
		       d->windows_recovered == (k->want ? 1u : 2u) &&
		       sibt_trace_nwindows(t, 0) == 1 &&
		       sibt_trace_nwindows(t, 1) == (k->want ? 0u : 1u),
		       "scanned %s: damage reason %d (%s) valid_bytes %" PRIu64
		       " recovered %" PRIu64 " windows, PE 1 has %" PRIu64
		       "; want %d (%s) %" PRIu64 " %d %d", k->what,
		       d ? d->reason : 0, sibt_strerror(d ? d->reason : 0),
		       d ? d->valid_bytes : 0, d ? d->windows_recovered : 0,
		       sibt_trace_nwindows(t, 1), want, sibt_strerror(want),
		       valid, k->want ? 1 : 2, !k->want);
		sibt_window *win = sibt_window_new();
		for (uint32_t pe = 0; pe < 2; pe++) {
			if (!sibt_trace_nwindows(t, pe))
				continue;
			rc = sibt_trace_read_window(t, pe, 0, win);
			const sibt_seb *sb = rc ? NULL : sibt_window_seb(win, 0);
			CHECKF(rc == SIBT_OK && sibt_window_nsebs(win) == 1 &&
			       sb && sb->duration == 5 && sb->pe == pe,
			       "scanned %s: PE %u window 0 read = %d: %s",
			       k->what, pe, rc, sibt_trace_errmsg(t));
		}
		sibt_window_free(win);
		sibt_trace_close(t);
	}

	/* The same headers in place of an intact window, the index kept
	 * (and moved when the header length changes): the index is used,
	 * so the reader meets them in sibt_trace_read_window. */
	fixture fx;
	tg_params prm = { 2, 12, 3, 1, 1 };
	if (make_fixture(&fx, "wind-headers-idx", 52, &prm, 1, 4, 0) == 0) {
		tg_frame fr;
		tg_wind base;
		if (third_window(&fx, &fr, &base, "indexed headers")) {
			free_fixture(&fx);
			return;
		}
		const wininfo *x = window_at(&fx, 0, fr.off);
		for (size_t c = 0; c < nc && x; c++) {
			const hdr_case *k = &hdr_cases[c];
			uint8_t h[TG_WIN_BUILD_MAX];
			char what[256];
			size_t len;
			if (k->scan_only)
				continue;
			snprintf(what, sizeof what, "indexed %s", k->what);
			size_t hl = build_case_header(h, &base, k);
			if (!hl) {
				TEST_FAIL("%s: cannot build the header", what);
				continue;
			}
			uint8_t *b = replace_header(&fx, &fr, h, hl, &len, what);
			tg_write_file(tg_datafile(fx.dir, 0), b, len);
			free(b);
			check_indexed_header(&fx, x, k->want, 0, what);
			check_indexed_header(&fx, x, k->want, 1, what);
		}
		restore(&fx, 0);
	}
	free_fixture(&fx);
}

/* ------------------------------------------------- preset dictionary */

void test_dict(void)
{
	fixture fx;
	tg_params prm = { 4, 30, 2, 0, 1 };
	tg_frame fr[4096];
	char what[256];

	/* level 6, windows of 2 SEBs: the first windows of each file come
	 * before the dictionary is complete (method 1), the rest after it */
	if (make_fixture(&fx, "dict", 53, &prm, 2, 2, 6)) {
		free_fixture(&fx);
		return;
	}
	for (uint32_t f = 0; f < fx.P; f++) {
		size_t nfr = tg_frames(fx.orig[f], fx.len[f], fr, 4096, NULL);
		size_t di = nfr, nd = 0, before = 0, m2 = 0, k2 = nfr;
		for (size_t k = 0; k < nfr; k++) {
			if (!strcmp(fr[k].tag, "DICT")) {
				nd++;
				di = k;
			} else if (!strcmp(fr[k].tag, "WIND")) {
				before += di == nfr;
				m2 += fr[k].method == 2;
				if (fr[k].method == 2 && k2 == nfr)
					k2 = k;
				CHECKF(fr[k].method != 2 || di < k, "file %u: a "
				       "method-2 window before the DICT frame", f);
			}
		}
		CHECKF(nd == 1 && before > 0 && m2 > 0,
		       "dict fixture, file %u: %zu DICT frames, %zu windows "
		       "before it, %zu of method 2 (want 1, > 0, > 0)", f, nd,
		       before, m2);
		if (nd != 1 || k2 == nfr)
			continue;
		const tg_frame *df = &fr[di];
		uint8_t *b;
		size_t len;
		sibt_trace *t;
		char eb[1024];
		int rc;

		/* (1) One byte of the dictionary flipped: the DICT frame fails
		 * its CRC, the index that names it is not used, the scan
		 * stops there.  No method-2 window survives. */
		for (int fl = 0; fl < 2; fl++) {
			int flags = fl ? SIBT_OPEN_VERIFY_ALL : 0;
			b = tg_xmalloc(fx.len[f]);
			memcpy(b, fx.orig[f], fx.len[f]);
			b[df->off + df->hdr + (df->len - df->hdr) / 2] ^= 0x10;
			tg_write_file(tg_datafile(fx.dir, f), b, fx.len[f]);
			free(b);
			snprintf(what, sizeof what, "file %u: a dictionary byte "
				 "flipped%s", f, fl ? " (verify all)" : "");
			t = NULL;
			rc = sibt_trace_open(&t, fx.dir, flags, eb, sizeof eb);
			check_dict_damage(&fx, f, t, rc, df->off, df->off,
					  fx.len[f], SIBT_ECRC, what);
			for (size_t k = 0; t && k < nfr; k++)
				if (!strcmp(fr[k].tag, "WIND") &&
				    fr[k].method == 2)
					CHECKF(sibt_trace_nwindows(t, fr[k].pe) <=
					       fr[k].window, "%s: method-2 window "
					       "%u of PE %u is still there", what,
					       fr[k].window, fr[k].pe);
			if (t) {
				const sibt_damage *d = sibt_trace_damage(t, 0);
				CHECKF(d && d->detail &&
				       contains_ci(d->detail, "dictionary"),
				       "%s: the damage detail does not mention the "
				       "dictionary: %s", what,
				       d && d->detail ? d->detail : "(null)");
				sibt_trace_close(t);
			}
		}

		/* (2) A dictionary of length 0, CRCs right: EFORMAT. */
		{
			tg_bytes d0 = { 0 };
			tg_bytes_put(&d0, "DICT", 4);
			tg_bytes_u32(&d0, 0);
			tg_bytes_u32(&d0, tg_crc(NULL, 0));
			tg_bytes_u32(&d0, tg_crc(d0.p, 12));
			b = tg_xmalloc(fx.len[f]);
			memcpy(b, fx.orig[f], fx.len[f]);
			len = fx.len[f];
			CHECKF(tg_splice(&b, &len, df->off, df->len, d0.p, d0.n)
			       == 1, "file %u: empty DICT: index not kept", f);
			tg_write_file(tg_datafile(fx.dir, f), b, len);
			free(b);
			free(d0.p);
			snprintf(what, sizeof what, "file %u: a DICT frame of "
				 "length 0", f);
			t = NULL;
			rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
			check_dict_damage(&fx, f, t, rc, df->off, df->off, len,
					  SIBT_EFORMAT, what);
			if (t)
				sibt_trace_close(t);
		}

		/* (3) A second DICT frame right after the first, no trailer
		 * (so that the scan meets it): EFORMAT there. */
		{
			b = tg_xmalloc(fx.len[f]);
			memcpy(b, fx.orig[f], fx.len[f]);
			len = fx.len[f];
			tg_splice(&b, &len, df->off + df->len, 0,
				  fx.orig[f] + df->off, df->len);
			tg_write_file(tg_datafile(fx.dir, f), b, len - 32);
			free(b);
			snprintf(what, sizeof what, "file %u: a second DICT frame",
				 f);
			t = NULL;
			rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
			check_dict_damage(&fx, f, t, rc, df->off,
					  df->off + df->len, len - 32,
					  SIBT_EFORMAT, what);
			if (t)
				sibt_trace_close(t);
		}

		/* (4) The DICT frame removed (the index still points where it
		 * was, at another frame now): the scan keeps the frames up to
		 * the first method-2 window, which no dictionary precedes,
		 * EFORMAT. */
		{
			b = tg_xmalloc(fx.len[f]);
			memcpy(b, fx.orig[f], fx.len[f]);
			len = fx.len[f];
			tg_splice(&b, &len, df->off, df->len, NULL, 0);
			tg_write_file(tg_datafile(fx.dir, f), b, len);
			free(b);
			snprintf(what, sizeof what, "file %u: the DICT frame "
				 "removed", f);
			t = NULL;
			rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
			check_dict_damage(&fx, f, t, rc, fr[k2].off,
					  fr[k2].off - df->len, len,
					  SIBT_EFORMAT, what);
			if (t)
				sibt_trace_close(t);
		}
		restore(&fx, f);
	}
	free_fixture(&fx);
}
