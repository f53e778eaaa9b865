/*
 * test_corrupt.c -- damaged traces: truncation, bit flips, foreign
 * headers, broken manifests; and (corrupt_frames.c) frames made wrong
 * with their checksums right.
 *
 * The expected outcome of every corruption is derived from FORMAT.md
 * sections 4, 6 and 7 and the window offsets of the intact trace
 * (sibt_trace_window_info): which call fails with which code, how many
 * windows and SEBs are recovered, where valid data ends.  Whatever
 * happens, a window that reads back successfully must equal the model.
 */
#include "config.h"

#include <unistd.h>

#include "corrupt.h"

/* sibtest.h's counters, one pair for all units of the test. */
int sibtest_failures;
int sibtest_checks;

/* ------------------------------------------------------- truncation */

/* Cut file f at c and check the damage report against the intact index. */
static void check_cut(fixture *fx, uint32_t f, uint64_t c)
{
	sibt_trace *t = NULL;
	char eb[1024] = "", what[4600], name[64];
	int rc;

	snprintf(what, sizeof what, "%s: file %u cut at %" PRIu64 " of %zu",
		 fx->dir, f, c, fx->len[f]);
	sibt_datafile_name(name, sizeof name, f);
	if (tg_write_file(tg_datafile(fx->dir, f), fx->orig[f], c)) {
		perror("cut");
		exit(99);
	}
	rc = sibt_trace_open(&t, fx->dir, 0, eb, sizeof eb);
	if (c < TG_HDR) {
		CHECKQ((rc == SIBT_ETRUNC || (c < 8 && rc == SIBT_EMAGIC)) && !t,
		       "%s: open = %d (%s), want SIBT_ETRUNC", what, rc,
		       sibt_strerror(rc));
		CHECKQ(strstr(eb, name), "%s: message does not name %s: %s",
		       what, name, eb);
		if (t)
			sibt_trace_close(t);
		return;
	}
	CHECKQ(rc == SIBT_WARN && t, "%s: open = %d (%s), want SIBT_WARN: %s",
	       what, rc, sibt_strerror(rc), eb);
	if (!t)
		return;

	/* Expected: the windows of this file that end at or before c. */
	uint64_t want_w = 0, want_s = 0, valid = TG_HDR;
	uint64_t *pw = tg_xcalloc(fx->m->npes, sizeof *pw);
	uint64_t *ps = tg_xcalloc(fx->m->npes, sizeof *ps);
	for (size_t i = 0; i < fx->nwins; i++) {
		const wininfo *x = &fx->wins[i];
		if (x->file != f) {
			pw[x->pe]++;
			ps[x->pe] += x->nsebs;
		} else if (x->end <= c) {
			want_w++;
			want_s += x->nsebs;
			pw[x->pe]++;
			ps[x->pe] += x->nsebs;
		}
	}
	/* valid_bytes: the end of the last frame (window, string table or
	 * dictionary) that the cut left whole; the index and trailer never
	 * count. */
	{
		tg_frame fr[8192];
		uint64_t fend;
		size_t nf = tg_frames(fx->orig[f], fx->len[f], fr, 8192, &fend);
		for (size_t i = 0; i < nf; i++)
			if ((!strcmp(fr[i].tag, "WIND") ||
			     !strcmp(fr[i].tag, "STRS") ||
			     !strcmp(fr[i].tag, "DICT")) &&
			    fr[i].off + fr[i].len <= c)
				valid = fr[i].off + fr[i].len;
	}
	CHECKQ(sibt_trace_damage_count(t) == 1, "%s: %zu damage entries, "
	       "want 1", what, sibt_trace_damage_count(t));
	const sibt_damage *d = sibt_trace_damage(t, 0);
	if (d) {
		CHECKQ(d->proc == f && ends_with(d->file, name),
		       "%s: damage names proc %u file %s", what, d->proc,
		       d->file ? d->file : "(null)");
		CHECKQ(d->reason == SIBT_ETRUNC, "%s: damage reason %d (%s), "
		       "want SIBT_ETRUNC", what, d->reason,
		       sibt_strerror(d->reason));
		CHECKQ(d->windows_recovered == want_w &&
		       d->sebs_recovered == want_s,
		       "%s: recovered %" PRIu64 " windows, %" PRIu64 " SEBs; "
		       "want %" PRIu64 ", %" PRIu64, what, d->windows_recovered,
		       d->sebs_recovered, want_w, want_s);
		CHECKQ(d->valid_bytes == valid && d->file_bytes == c,
		       "%s: valid_bytes %" PRIu64 " file_bytes %" PRIu64
		       "; want %" PRIu64 ", %" PRIu64, what, d->valid_bytes,
		       d->file_bytes, valid, c);
		CHECKQ(d->detail && *d->detail, "%s: no damage detail", what);
	}
	for (uint32_t pe = 0; pe < fx->m->npes; pe++)
		CHECKQ(sibt_trace_nwindows(t, pe) == pw[pe] &&
		       sibt_trace_nsebs(t, pe) == ps[pe],
		       "%s: PE %u: %" PRIu64 " windows %" PRIu64 " SEBs, want %"
		       PRIu64 " %" PRIu64, what, pe, sibt_trace_nwindows(t, pe),
		       sibt_trace_nsebs(t, pe), pw[pe], ps[pe]);
	sibt_totals tot;
	sibt_trace_totals(t, &tot);
	uint64_t all_s = 0;
	for (uint32_t pe = 0; pe < fx->m->npes; pe++)
		all_s += ps[pe];
	CHECKQ(tot.sebs == all_s, "%s: totals.sebs %" PRIu64 ", want %" PRIu64,
	       what, tot.sebs, all_s);
	size_t bad;
	read_all(fx, t, what, &bad);
	CHECKQ(bad == 0, "%s: %zu recovered windows do not read", what, bad);
	sibt_trace_close(t);

	/* SIBT_OPEN_NO_SCAN: the same file is found incomplete, and nothing
	 * of it is read: no window recovered, the other files intact. */
	t = NULL;
	rc = sibt_trace_open(&t, fx->dir, SIBT_OPEN_NO_SCAN, eb, sizeof eb);
	CHECKQ(rc == SIBT_WARN && t, "%s, no scan: open = %d (%s), want "
	       "SIBT_WARN: %s", what, rc, sibt_strerror(rc), eb);
	if (t) {
		d = sibt_trace_damage_count(t) == 1 ? sibt_trace_damage(t, 0)
						    : NULL;
		CHECKQ(d && d->proc == f && d->windows_recovered == 0 &&
		       d->sebs_recovered == 0 && d->reason < 0,
		       "%s, no scan: %zu damage entries, or not file %u's "
		       "with nothing recovered", what,
		       sibt_trace_damage_count(t), f);
		for (size_t i = 0; i < fx->nwins; i++)
			if (fx->wins[i].file == f)
				pw[fx->wins[i].pe] = 0;
		for (uint32_t pe = 0; pe < fx->m->npes; pe++)
			CHECKQ(sibt_trace_nwindows(t, pe) == pw[pe],
			       "%s, no scan: PE %u: %" PRIu64 " windows, want "
			       "%" PRIu64, what, pe,
			       sibt_trace_nwindows(t, pe), pw[pe]);
		sibt_trace_close(t);
	}
	free(pw);
	free(ps);
}

static void test_truncate_small(void)
{
	fixture fx;
	tg_params prm = { 2, 6, 2, 1, 1 };
	if (make_fixture(&fx, "trunc-small", 11, &prm, 1, 3, 6) == 0) {
		CHECKF(fx.len[0] < 4000, "small trace is %zu bytes", fx.len[0]);
		for (uint64_t c = 0; c < fx.len[0]; c++)
			check_cut(&fx, 0, c);
		restore(&fx, 0);
	}
	free_fixture(&fx);
}

static void test_truncate_big(void)
{
	fixture fx;
	tg_params prm = { 5, 60, 3, 0, 1 };
	if (make_fixture(&fx, "trunc-big", 12, &prm, 2, 8, 1) == 0) {
		for (uint32_t f = 0; f < fx.P; f++) {
			tg_frame *fr = tg_xcalloc(100000, sizeof *fr);
			size_t n = tg_frames(fx.orig[f], fx.len[f], fr, 100000,
					     NULL);
			CHECKF(n >= 3, "file %u has %zu frames", f, n);
			for (size_t i = 0; i <= n; i++) {
				uint64_t b = i < n ? fr[i].off : fx.len[f];
				for (int dlt = -1; dlt <= 1; dlt++) {
					uint64_t c = b + (uint64_t)(int64_t)dlt;
					if (c >= TG_HDR && c < fx.len[f])
						check_cut(&fx, f, c);
				}
				/* inside the frame header */
				if (i < n && fr[i].hdr > 8)
					check_cut(&fx, f, fr[i].off + 8);
			}
			free(fr);
			restore(&fx, f);
		}
	}
	free_fixture(&fx);
}

/* A writer that dies (sibt_writer_abort) leaves a readable prefix. */
static void test_abort(void)
{
	char dir[4200], err[1024], eb[1024] = "";
	tg_params prm = { 4, 50, 3, 0, 1 };
	tg_model *m = tg_generate(13, &prm);
	tg_wopts o;
	sibt_trace *t = NULL;
	int rc;

	snprintf(dir, sizeof dir, "%s/abort", tmp);
	tg_wopts_init(&o);
	o.nprocs = 2;
	o.window = 4;
	o.abort_proc = 1;
	o.abort_after = m->nsebs / 4;
	rc = tg_write(m, dir, &o, err, sizeof err);
	CHECKF(rc == SIBT_OK, "abort: write: %s", err);
	size_t len;
	uint8_t *buf = tg_read_file(tg_datafile(dir, 1), &len);
	tg_frame fr[4096];
	uint64_t end;
	size_t n = buf ? tg_frames(buf, len, fr, 4096, &end) : 0;
	uint64_t wins = 0, sebs = 0, valid = TG_HDR;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fr[i].tag, "WIND")) {
			wins++;
			sebs += fr[i].nsebs;
			valid = fr[i].off + fr[i].len;
		} else if (!strcmp(fr[i].tag, "STRS") ||
			   !strcmp(fr[i].tag, "DICT")) {
			valid = fr[i].off + fr[i].len;
		} else {
			TEST_FAIL("aborted file has a %s frame", fr[i].tag);
		}
	CHECKF(end == len, "aborted file: frames end at %" PRIu64 " of %zu",
	       end, len);
	CHECKF(wins > 0, "the aborted writer flushed no window");
	free(buf);

	rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_WARN, "abort: open = %d: %s", rc, eb);
	if (t) {
		const sibt_damage *d = sibt_trace_damage(t, 0);
		CHECKF(sibt_trace_damage_count(t) == 1 && d && d->proc == 1 &&
		       d->windows_recovered == wins &&
		       d->sebs_recovered == sebs && d->valid_bytes == valid &&
		       d->file_bytes == len,
		       "abort: damage count %zu proc %u windows %" PRIu64
		       " sebs %" PRIu64 " valid %" PRIu64 "; want 1 1 %" PRIu64
		       " %" PRIu64 " %" PRIu64, sibt_trace_damage_count(t),
		       d ? d->proc : 99, d ? d->windows_recovered : 0,
		       d ? d->sebs_recovered : 0, d ? d->valid_bytes : 0,
		       wins, sebs, valid);
		/* file 0 is complete */
		uint32_t first, count;
		sibt_block_range(m->npes, 2, 0, &first, &count);
		for (uint32_t pe = first; pe < first + count; pe++)
			CHECKF(sibt_trace_nsebs(t, pe) == m->pes[pe].nsebs,
			       "abort: PE %u of the complete file lost SEBs", pe);
		sibt_window *win = sibt_window_new();
		for (uint32_t pe = 0; pe < m->npes; pe++)
			for (uint64_t w = 0; w < sibt_trace_nwindows(t, pe); w++)
				CHECKF(tg_compare_window(m, t, pe, w, win, err,
							 sizeof err) == 0,
				       "abort: %s", err);
		sibt_window_free(win);
		sibt_trace_close(t);
	}
	tg_free_model(m);
}

/* -------------------------------------------------------- bit flips */

static int header_expect(size_t i)
{
	if (i < 8)
		return SIBT_EMAGIC;
	if (i < 10 || (i >= 12 && i < 16))
		return SIBT_EVERSION;
	return SIBT_ECRC;
}

static void check_flip(fixture *fx, uint32_t f, size_t i, int bit,
		       const tg_frame *fr, size_t nfr)
{
	sibt_trace *t = NULL;
	char eb[1024] = "", what[4600];
	const char *region = "?";
	size_t bad = 0, ok;
	int rc;

	snprintf(what, sizeof what, "%s: file %u byte %zu bit %d", fx->dir, f,
		 i, bit);
	fx->orig[f][i] ^= (uint8_t)(1u << bit);
	if (tg_write_file(tg_datafile(fx->dir, f), fx->orig[f], fx->len[f])) {
		perror("flip");
		exit(99);
	}
	fx->orig[f][i] ^= (uint8_t)(1u << bit);
	uint64_t region_off = 0;
	for (size_t k = 0; k < nfr; k++)
		if (fr[k].off <= i && i < fr[k].off + fr[k].len) {
			region = fr[k].tag;
			region_off = fr[k].off;
		}
	if (i < TG_HDR)
		region = "header";

	rc = sibt_trace_open(&t, fx->dir, 0, eb, sizeof eb);
	if (!strcmp(region, "header")) {
		int want = header_expect(i);
		/* a flipped minor version byte is accepted by the version
		 * check; the header CRC then catches it */
		CHECKQ(rc == want && !t, "%s (header): open = %d (%s), want %d "
		       "(%s): %s", what, rc, sibt_strerror(rc), want,
		       sibt_strerror(want), eb);
	} else if (!strcmp(region, "WIND")) {
		const wininfo *x = window_at(fx, f, i);
		CHECKQ(rc == SIBT_OK && t && x, "%s (window): open = %d: %s",
		       what, rc, eb);
		if (t && x) {
			sibt_window *win = sibt_window_new();
			char name[64], s1[64], s2[64];
			rc = sibt_trace_read_window(t, x->pe, x->window, win);
			CHECKQ(rc == SIBT_ECRC, "%s: read_window(PE %u, window %"
			       PRIu64 ") = %d (%s), want SIBT_ECRC", what, x->pe,
			       x->window, rc, sibt_strerror(rc));
			sibt_datafile_name(name, sizeof name, f);
			snprintf(s1, sizeof s1, "PE %u", x->pe);
			snprintf(s2, sizeof s2, "window %" PRIu64, x->window);
			const char *msg = sibt_trace_errmsg(t);
			CHECKQ(rc != SIBT_ECRC || (msg && strstr(msg, s1) &&
			       strstr(msg, s2) && strstr(msg, name)),
			       "%s: message does not name %s, %s and %s: %s",
			       what, name, s1, s2, msg ? msg : "(null)");
			sibt_window_free(win);
			ok = read_all(fx, t, what, &bad);
			CHECKQ(bad == 1 && ok + 1 == fx->nwins,
			       "%s: %zu windows fail, want only the flipped one",
			       what, bad);
		}
		if (t)
			sibt_trace_close(t);
		t = NULL;
		/* verify-all finds it at open */
		rc = sibt_trace_open(&t, fx->dir, SIBT_OPEN_VERIFY_ALL, eb,
				     sizeof eb);
		CHECKQ(rc == SIBT_ECRC || (rc == SIBT_WARN && t &&
		       sibt_trace_damage_count(t) >= 1),
		       "%s: open(VERIFY_ALL) = %d (%s)", what, rc,
		       sibt_strerror(rc));
		if (t) {
			read_all(fx, t, what, &bad);
		}
	} else if (!strcmp(region, "INDX") || !strcmp(region, "TEND")) {
		CHECKQ(rc == SIBT_WARN && t, "%s (%s): open = %d (%s), want "
		       "SIBT_WARN (index rebuilt by scanning): %s", what, region,
		       rc, sibt_strerror(rc), eb);
		if (t) {
			const sibt_damage *d = sibt_trace_damage(t, 0);
			uint64_t w = 0, s = 0;
			for (size_t k = 0; k < fx->nwins; k++)
				if (fx->wins[k].file == f) {
					w++;
					s += fx->wins[k].nsebs;
				}
			CHECKQ(sibt_trace_damage_count(t) == 1 && d &&
			       d->windows_recovered == w &&
			       d->sebs_recovered == s && d->reason < 0,
			       "%s (%s): damage %zu, recovered %" PRIu64 " windows "
			       "%" PRIu64 " SEBs, want all %" PRIu64 " %" PRIu64,
			       what, region, sibt_trace_damage_count(t),
			       d ? d->windows_recovered : 0,
			       d ? d->sebs_recovered : 0, w, s);
			ok = read_all(fx, t, what, &bad);
			CHECKQ(bad == 0 && ok == fx->nwins, "%s (%s): %zu of %zu "
			       "windows read", what, region, ok, fx->nwins);
		}
	} else if (!strcmp(region, "DICT")) {
		/* a flipped tag leaves no frame there (EFORMAT); any other
		 * byte fails the header or the dictionary CRC */
		check_dict_damage(fx, f, t, rc, region_off, region_off,
				  fx->len[f], i < region_off + 4 ? SIBT_EFORMAT :
				  SIBT_ECRC, what);
	} else {
		/* STRS: names unavailable; never a wrong answer */
		CHECKQ(rc == SIBT_OK || rc == SIBT_WARN || rc == SIBT_ECRC,
		       "%s (%s): open = %d (%s)", what, region, rc,
		       sibt_strerror(rc));
		if (t)
			read_all(fx, t, what, &bad);
	}
	if (t)
		sibt_trace_close(t);
}

static void flip_fixture(fixture *fx, size_t samples, uint64_t seed)
{
	tg_rng r;
	tg_seed(&r, seed);
	for (uint32_t f = 0; f < fx->P; f++) {
		tg_frame *fr = tg_xcalloc(100000, sizeof *fr);
		size_t nfr = tg_frames(fx->orig[f], fx->len[f], fr, 100000, NULL);
		if (!samples || samples >= fx->len[f]) {
			for (size_t i = 0; i < fx->len[f]; i++)
				check_flip(fx, f, i, (int)(i * 5 % 8), fr, nfr);
		} else {
			for (size_t i = 0; i < 64; i++)
				check_flip(fx, f, i, (int)tg_below(&r, 8), fr,
					   nfr);
			for (size_t k = 0; k < samples; k++)
				check_flip(fx, f, tg_below(&r, fx->len[f]),
					   (int)tg_below(&r, 8), fr, nfr);
			/* every byte of the DICT header, some of its
			 * dictionary */
			for (size_t k = 0; k < nfr; k++) {
				if (strcmp(fr[k].tag, "DICT"))
					continue;
				for (uint64_t i = 0; i < fr[k].len; i++)
					if (i < fr[k].hdr || tg_chance(&r, 2))
						check_flip(fx, f, fr[k].off + i,
							   (int)tg_below(&r, 8),
							   fr, nfr);
			}
		}
		free(fr);
		restore(fx, f);
	}
}

static void test_flips(void)
{
	fixture fx;
	tg_params small = { 2, 6, 2, 1, 1 }, big = { 4, 40, 3, 0, 1 };
	if (make_fixture(&fx, "flip-small", 21, &small, 1, 3, 6) == 0)
		flip_fixture(&fx, 0, 1);
	free_fixture(&fx);
	if (make_fixture(&fx, "flip-stored", 22, &small, 1, 2, 0) == 0)
		flip_fixture(&fx, 0, 2);
	free_fixture(&fx);
	if (make_fixture(&fx, "flip-big", 23, &big, 2, 16, 9) == 0) {
		/* big enough for a dictionary in each file */
		for (uint32_t f = 0; f < fx.P; f++) {
			tg_frame fr[4096];
			size_t n = tg_frames(fx.orig[f], fx.len[f], fr, 4096,
					     NULL), nd = 0;
			for (size_t k = 0; k < n; k++)
				nd += !strcmp(fr[k].tag, "DICT");
			CHECKF(nd == 1, "flip-big: file %u has %zu DICT frames, "
			       "want 1", f, nd);
		}
		flip_fixture(&fx, 600, 3);
	}
	free_fixture(&fx);
}

/* Junk after the trailer: the trailer is not where it must be. */
static void test_junk_after_trailer(void)
{
	fixture fx;
	tg_params prm = { 3, 10, 2, 1, 1 };
	if (make_fixture(&fx, "junk", 24, &prm, 1, 4, 6) == 0) {
		uint8_t *b = tg_xmalloc(fx.len[0] + 7);
		sibt_trace *t = NULL;
		char eb[1024] = "";
		size_t bad;
		memcpy(b, fx.orig[0], fx.len[0]);
		memcpy(b + fx.len[0], "garbage", 7);
		tg_write_file(tg_datafile(fx.dir, 0), b, fx.len[0] + 7);
		int rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_WARN && t && sibt_trace_damage_count(t) == 1,
		       "junk after the trailer: open = %d: %s", rc, eb);
		if (t) {
			CHECKF(read_all(&fx, t, "junk", &bad) == fx.nwins,
			       "junk after the trailer: windows lost");
			sibt_trace_close(t);
		}
		free(b);
	}
	free_fixture(&fx);
}

/* ------------------------------------------------- foreign headers */

static void patch_header(fixture *fx, size_t off, const void *bytes,
			 size_t n, int fix_crc)
{
	uint8_t *b = tg_xmalloc(fx->len[0]);
	memcpy(b, fx->orig[0], fx->len[0]);
	memcpy(b + off, bytes, n);
	if (fix_crc)
		tg_put32(b + 60, tg_crc(b, 60));
	tg_write_file(tg_datafile(fx->dir, 0), b, fx->len[0]);
	free(b);
}

static void test_headers(void)
{
	fixture fx;
	tg_params prm = { 2, 5, 2, 1, 1 };
	sibt_trace *t = NULL;
	char eb[1024];
	int rc;

	if (make_fixture(&fx, "headers", 31, &prm, 1, 4, 6)) {
		free_fixture(&fx);
		return;
	}
	patch_header(&fx, 0, "SIBYLDAX", 8, 1);
	eb[0] = '\0';
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EMAGIC && !t, "wrong magic: open = %d: %s", rc, eb);
	assertContains(eb, "proc-000000.sdat");

	patch_header(&fx, 0, "PK\x03\x04\x14\0\0\0", 8, 0);
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EMAGIC && !t, "zip file: open = %d: %s", rc, eb);

	patch_header(&fx, 8, "\x02\x00", 2, 1);
	eb[0] = '\0';
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EVERSION && !t, "major 2: open = %d: %s", rc, eb);
	CHECKF(contains_ci(eb, "newer") || contains_ci(eb, "matching"),
	       "major 2: the message does not say which Sibyl is needed: %s",
	       eb);
	assertContains(eb, "proc-000000.sdat");

	patch_header(&fx, 8, "\x00\x00", 2, 1);
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EVERSION && !t, "major 0: open = %d: %s", rc, eb);

	patch_header(&fx, 12, "\x01\x02\x03\x04", 4, 1);
	eb[0] = '\0';
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EVERSION && !t, "big-endian: open = %d: %s", rc, eb);
	CHECKF(contains_ci(eb, "endian") || contains_ci(eb, "byte order") ||
	       contains_ci(eb, "byte-order"), "big-endian: the message does "
	       "not mention the byte order: %s", eb);

	/* A newer minor version of the same major is read. */
	patch_header(&fx, 10, "\x09\x00", 2, 1);
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK && t, "minor 9: open = %d: %s", rc, eb);
	if (t) {
		size_t bad;
		CHECKF(read_all(&fx, t, "minor 9", &bad) == fx.nwins,
		       "minor 9: windows do not read");
		sibt_trace_close(t);
		t = NULL;
	}

	/* Files of the older minor versions (1.0, 1.1) are read: records
	 * without the flags a version added are the same in all. */
	for (int minor = 0; minor < SIBT_FORMAT_MINOR; minor++) {
		char v[2] = { (char)minor, 0 }, what[16];

		snprintf(what, sizeof what, "minor %d", minor);
		patch_header(&fx, 10, v, 2, 1);
		rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_OK && t, "%s: open = %d: %s", what, rc, eb);
		if (t) {
			size_t bad;
			CHECKF(read_all(&fx, t, what, &bad) == fx.nwins,
			       "%s: windows do not read", what);
			sibt_trace_close(t);
			t = NULL;
		}
	}

	/* Reserved header bytes are covered by the CRC. */
	patch_header(&fx, 50, "\x01", 1, 0);
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_ECRC && !t, "reserved byte: open = %d: %s", rc, eb);

	/* Header fields disagreeing with the manifest. */
	{
		uint8_t v[4];
		tg_put32(v, 7);
		patch_header(&fx, 24, v, 4, 1);   /* npes */
		eb[0] = '\0';
		rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_EMANIFEST && !t, "header npes 7 vs manifest "
		       "2: open = %d: %s", rc, eb);
		assertContains(eb, "proc-000000.sdat");
		tg_put32(v, 3);
		patch_header(&fx, 20, v, 4, 1);   /* nprocs */
		rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_EMANIFEST && !t, "header nprocs 3 vs "
		       "manifest 1: open = %d: %s", rc, eb);
	}
	restore(&fx, 0);
	rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "restored: open = %d: %s", rc, eb);
	if (t)
		sibt_trace_close(t);
	free_fixture(&fx);
}

/* ------------------------------------------------------- manifests */

static char *manifest_text;


static void set_manifest(const char *dir, const char *text)
{
	tg_write_file(tg_path(dir, "MANIFEST"), text, strlen(text));
}

/* The intact manifest with line `key = ...' replaced (or removed when
 * repl is NULL). */
static char *edit_manifest(const char *key, const char *repl)
{
	size_t n = strlen(manifest_text), kl = strlen(key);
	char *out = tg_xmalloc(n + (repl ? strlen(repl) : 0) + 2), *o = out;
	const char *p = manifest_text;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t ll = e ? (size_t)(e - p + 1) : strlen(p);
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, key, kl) && (q[kl] == ' ' || q[kl] == '=' ||
					      q[kl] == '\t')) {
			if (repl) {
				o += sprintf(o, "%s\n", repl);
			}
		} else {
			memcpy(o, p, ll);
			o += ll;
		}
		p += ll;
	}
	*o = '\0';
	return out;
}

static void expect_manifest_error(const char *dir, const char *what,
				  int want, const char *name)
{
	sibt_trace *t = NULL;
	char eb[1024] = "";
	int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
	CHECKF(rc == want && !t, "%s: open = %d (%s), want %d (%s): %s", what,
	       rc, sibt_strerror(rc), want, sibt_strerror(want), eb);
	if (name) {
		/* "A|B": either will do */
		char alt[256], *save = NULL;
		int found = 0;
		snprintf(alt, sizeof alt, "%s", name);
		for (char *a = strtok_r(alt, "|", &save); a;
		     a = strtok_r(NULL, "|", &save))
			found |= strstr(eb, a) != NULL;
		CHECKF(found, "%s: the message does not name %s: %s", what,
		       name, eb);
	}
	if (t)
		sibt_trace_close(t);
}

static void test_manifests(void)
{
	fixture fx;
	tg_params prm = { 6, 5, 2, 1, 1 };
	static const char *const edits[][3] = {
		/* key, replacement, file the message must name */
		{ "npes", "npes = 7", "MANIFEST|proc-00000" },
		{ "npes", "npes = 5", "MANIFEST|proc-00000" },
		{ "file.1", "file.1 = proc-000001.sdat 3 2", "proc-000001.sdat" },
		{ "file.1", "file.1 = proc-000001.sdat 2", "MANIFEST" },
		{ "file.1", "file.1 = proc-000009.sdat 2 2", "proc-000009.sdat" },
		{ "file.2", NULL, "MANIFEST" },
		{ "nprocs", "nprocs = 2", "MANIFEST" },
		{ "window", NULL, "MANIFEST" },
		{ "window", "window = 0", "MANIFEST" },
		{ "time_unit", "time_unit = ns", "MANIFEST" },
		{ "format", NULL, "MANIFEST" },
		{ "format", "format = something else 1.0", "MANIFEST" },
		{ "npes", "npes = many", "MANIFEST" },
		{ "npes", "npes = -6", "MANIFEST" },
		{ "npes", "npes = 6 6", "MANIFEST" },
	};
	size_t len;

	if (make_fixture(&fx, "manifest", 41, &prm, 3, 4, 6)) {
		free_fixture(&fx);
		return;
	}
	manifest_text = (char *)tg_read_file(tg_path(fx.dir, "MANIFEST"), &len);
	manifest_text = tg_xrealloc(manifest_text, len + 1);
	manifest_text[len] = '\0';

	for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
		char *txt = edit_manifest(edits[i][0], edits[i][1]);
		char what[256];
		snprintf(what, sizeof what, "MANIFEST with %s %s", edits[i][0],
			 edits[i][1] ? edits[i][1] : "removed");
		CHECKF(strcmp(txt, manifest_text), "%s: edit had no effect",
		       what);
		set_manifest(fx.dir, txt);
		expect_manifest_error(fx.dir, what, SIBT_EMANIFEST, edits[i][2]);
		free(txt);
	}
	/* A newer major version is EVERSION, whichever file says it. */
	{
		char *txt = edit_manifest("format", "format = sibyl-trace 2.0");
		set_manifest(fx.dir, txt);
		expect_manifest_error(fx.dir, "MANIFEST format 2.0",
				      SIBT_EVERSION, "MANIFEST");
		free(txt);
		txt = edit_manifest("byte_order", "byte_order = big-endian");
		set_manifest(fx.dir, txt);
		expect_manifest_error(fx.dir, "MANIFEST big-endian",
				      SIBT_EVERSION, NULL);
		free(txt);
	}
	set_manifest(fx.dir, "");
	expect_manifest_error(fx.dir, "empty MANIFEST", SIBT_EMANIFEST,
			      "MANIFEST");
	set_manifest(fx.dir, "this is not a manifest\nat all\n");
	expect_manifest_error(fx.dir, "text MANIFEST", SIBT_EMANIFEST,
			      "MANIFEST");
	{
		uint8_t junk[777];
		tg_rng r;
		tg_seed(&r, 5);
		for (size_t i = 0; i < sizeof junk; i++)
			junk[i] = (uint8_t)tg_below(&r, 256);
		tg_write_file(tg_path(fx.dir, "MANIFEST"), junk, sizeof junk);
		expect_manifest_error(fx.dir, "binary MANIFEST",
				      SIBT_EMANIFEST, "MANIFEST");
	}
	unlink(tg_path(fx.dir, "MANIFEST"));
	expect_manifest_error(fx.dir, "no MANIFEST", SIBT_EMANIFEST,
			      "MANIFEST");
	set_manifest(fx.dir, manifest_text);

	/* A data file missing. */
	unlink(tg_datafile(fx.dir, 1));
	expect_manifest_error(fx.dir, "proc-000001.sdat missing",
			      SIBT_EMANIFEST, "proc-000001.sdat");
	restore(&fx, 1);
	/* The data files swapped. */
	tg_write_file(tg_datafile(fx.dir, 1), fx.orig[2], fx.len[2]);
	tg_write_file(tg_datafile(fx.dir, 2), fx.orig[1], fx.len[1]);
	expect_manifest_error(fx.dir, "data files 1 and 2 swapped",
			      SIBT_EMANIFEST, "proc-00000");
	restore(&fx, 1);
	restore(&fx, 2);

	/* Not a directory at all. */
	{
		sibt_trace *t = NULL;
		char eb[1024] = "", path[4300];
		snprintf(path, sizeof path, "%s/does-not-exist", tmp);
		int rc = sibt_trace_open(&t, path, 0, eb, sizeof eb);
		CHECKF(rc < 0 && !t && strstr(eb, "does-not-exist"),
		       "missing path: open = %d: %s", rc, eb);
		rc = sibt_trace_open(&t, NULL, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_EINVAL && !t, "NULL path: open = %d", rc);
	}

	{
		sibt_trace *t = NULL;
		char eb[1024] = "";
		int rc = sibt_trace_open(&t, fx.dir, 0, eb, sizeof eb);
		CHECKF(rc == SIBT_OK, "manifest restored: open = %d: %s", rc,
		       eb);
		if (t)
			sibt_trace_close(t);
	}
	free(manifest_text);
	free_fixture(&fx);
}

/* ------------------------------------------------------- strerror */

static void test_strerror(void)
{
	for (int e = SIBT_EARCHIVE; e <= SIBT_WARN; e++) {
		const char *s = sibt_strerror(e);
		CHECKF(s && *s, "sibt_strerror(%d) is empty", e);
		for (int f = SIBT_EARCHIVE; f < e; f++)
			CHECKF(!s || strcmp(s, sibt_strerror(f)),
			       "sibt_strerror(%d) == sibt_strerror(%d)", e, f);
	}
	CHECKF(sibt_strerror(-1000) && *sibt_strerror(-1000),
	       "sibt_strerror(unknown) is empty");
	CHECKF(sibt_strerror(42) != NULL, "sibt_strerror(42) is NULL");
}

int main(void)
{
	alarm(300);
	if (getenv("SIBYL_TEST_VERBOSE"))
		quiet_limit = 1 << 30;
	snprintf(tmp, sizeof tmp, "%s", test_tmpdir("test_corrupt"));
	test_strerror();
	test_headers();
	test_manifests();
	test_truncate_small();
	test_truncate_big();
	test_abort();
	test_junk_after_trailer();
	test_flips();
	test_crafted();
	test_wind_headers();
	test_dict();
	test_lies();   /* last: ASan stops at its bug */
	return TEST_EXIT();
}
