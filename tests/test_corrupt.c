/*
 * test_corrupt.c -- damaged traces: truncation, bit flips, foreign
 * headers, broken manifests.
 *
 * The expected outcome of every corruption is derived from FORMAT.md
 * sections 4, 6 and 7 and the window offsets of the intact trace
 * (sibt_trace_window_info): which call fails with which code, how many
 * windows and SEBs are recovered, where valid data ends.  Whatever
 * happens, a window that reads back successfully must equal the model.
 */
#include "config.h"

#include <ctype.h>
#include <unistd.h>

#include "sibtest.h"
#include "tgen_bytes.h"

#define CHECKF(c, ...) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL(__VA_ARGS__); } while (0)

static char tmp[4096];
static int quiet_failures;  /* failures beyond quiet_limit are counted only */
static int quiet_limit = 40;

/* A written trace and what its intact index says. */
typedef struct wininfo {
	uint32_t pe, file, nsebs;
	uint64_t window, off, end;
} wininfo;

typedef struct fixture {
	char dir[4200];
	tg_model *m;
	uint32_t P;
	uint8_t **orig;     /* intact data files */
	size_t *len;
	wininfo *wins;      /* every window, any order */
	size_t nwins;
} fixture;

static int make_fixture(fixture *fx, const char *name, uint64_t seed,
			const tg_params *prm, uint32_t P, uint32_t window,
			int level)
{
	char err[1024], eb[1024] = "";
	tg_wopts o;
	sibt_trace *t = NULL;
	int rc;

	memset(fx, 0, sizeof *fx);
	snprintf(fx->dir, sizeof fx->dir, "%s/%s", tmp, name);
	fx->m = tg_generate(seed, prm);
	fx->P = P;
	tg_wopts_init(&o);
	o.nprocs = P;
	o.window = window;
	o.level = level;
	o.seed = seed;
	rc = tg_write(fx->m, fx->dir, &o, err, sizeof err);
	CHECKF(rc == SIBT_OK, "%s: write: %s", name, err);
	if (rc)
		return -1;
	rc = sibt_trace_open(&t, fx->dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "%s: open intact: %d %s", name, rc, eb);
	if (rc)
		return -1;
	rc = tg_compare_trace(fx->m, t, err, sizeof err);
	CHECKF(rc == 0, "%s: intact trace: %s", name, err);
	fx->orig = tg_xcalloc(P, sizeof *fx->orig);
	fx->len = tg_xcalloc(P, sizeof *fx->len);
	for (uint32_t f = 0; f < P; f++) {
		fx->orig[f] = tg_read_file(tg_datafile(fx->dir, f), &fx->len[f]);
		if (!fx->orig[f]) {
			sibt_trace_close(t);
			return -1;
		}
	}
	/* Where each window frame ends: its header length is in the frame
	 * (FORMAT.md 4.2), so take it from the frame walker. */
	tg_frame **frs = tg_xcalloc(P, sizeof *frs);
	size_t *nfrs = tg_xcalloc(P, sizeof *nfrs);
	for (uint32_t f = 0; f < P; f++) {
		size_t max = fx->len[f] / 16 + 1;
		frs[f] = tg_xcalloc(max, sizeof **frs);
		nfrs[f] = tg_frames(fx->orig[f], fx->len[f], frs[f], max, NULL);
	}
	for (uint32_t pe = 0; pe < fx->m->npes; pe++) {
		uint64_t nw = sibt_trace_nwindows(t, pe);
		fx->wins = tg_xrealloc(fx->wins, (fx->nwins + nw + 1) *
				       sizeof *fx->wins);
		for (uint64_t w = 0; w < nw; w++) {
			sibt_window_info wi;
			sibt_trace_window_info(t, pe, w, &wi);
			wininfo *x = &fx->wins[fx->nwins++];
			x->pe = pe;
			x->file = wi.file;
			x->nsebs = wi.nsebs;
			x->window = w;
			x->off = wi.offset;
			x->end = 0;
			const tg_frame *fr = wi.file < P ? frs[wi.file] : NULL;
			size_t lo = 0, hi = wi.file < P ? nfrs[wi.file] : 0;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (fr[mid].off < wi.offset)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (fr && lo < nfrs[wi.file] && fr[lo].off == wi.offset &&
			    !strcmp(fr[lo].tag, "WIND") && fr[lo].pe == pe &&
			    fr[lo].window == w &&
			    fr[lo].stored == wi.stored_len)
				x->end = fr[lo].off + fr[lo].len;
			CHECKF(x->end, "%s: the index puts window %" PRIu64
			       " of PE %u at byte %" PRIu64 " of file %u, "
			       "where the frame walker finds no such window",
			       name, w, pe, wi.offset, wi.file);
		}
	}
	sibt_trace_close(t);
	for (uint32_t f = 0; f < P; f++)
		free(frs[f]);
	free(frs);
	free(nfrs);
	return 0;
}

static void free_fixture(fixture *fx)
{
	for (uint32_t f = 0; f < fx->P && fx->orig; f++)
		free(fx->orig[f]);
	free(fx->orig);
	free(fx->len);
	free(fx->wins);
	tg_free_model(fx->m);
}

static void restore(fixture *fx, uint32_t f)
{
	if (tg_write_file(tg_datafile(fx->dir, f), fx->orig[f], fx->len[f])) {
		perror("restore");
		exit(99);
	}
}

static const wininfo *window_at(const fixture *fx, uint32_t f, uint64_t off)
{
	for (size_t i = 0; i < fx->nwins; i++)
		if (fx->wins[i].file == f && fx->wins[i].off <= off &&
		    off < fx->wins[i].end)
			return &fx->wins[i];
	return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);
	return s && a >= b && !strcmp(s + a - b, suffix);
}

static int contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; hay && *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) ==
		       tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

static void set_manifest_text(const char *dir, const char *text)
{
	tg_write_file(tg_path(dir, "MANIFEST"), text, strlen(text));
}

/* Limit the output when a library bug makes every case fail. */
#define CHECKQ(c, ...) do { sibtest_checks++; if (!(c)) { \
	if (++quiet_failures <= quiet_limit) TEST_FAIL(__VA_ARGS__); \
	else sibtest_failures++; } } while (0)

/* Every window of every PE: those that read must equal the model;
 * returns how many read successfully, and counts windows failing with
 * each code in *bad. */
static size_t read_all(const fixture *fx, sibt_trace *t, const char *what,
		       size_t *bad)
{
	sibt_window *win = sibt_window_new();
	char err[1024];
	size_t ok = 0;
	*bad = 0;
	for (uint32_t pe = 0; pe < fx->m->npes; pe++)
		for (uint64_t w = 0; w < sibt_trace_nwindows(t, pe); w++) {
			int d = tg_compare_window(fx->m, t, pe, w, win, err,
						  sizeof err);
			CHECKQ(d <= 0, "%s: a window read back wrong: %s",
			       what, err);
			if (d == 0)
				ok++;
			else
				(*bad)++;
		}
	sibt_window_free(win);
	return ok;
}

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
	free(pw);
	free(ps);
	sibt_trace_close(t);
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

/*
 * File f's DICT frame fails to verify (want: the reason).  The index names
 * it, so the index is not used; the recovery scan stops at the dictionary
 * (FORMAT.md 6): the trace opens with one damage entry, valid data ends at
 * `valid' (where the dictionary starts, unless the test moved things) of
 * a file of file_bytes, and exactly the windows that end by lost_from in
 * the intact file (the dictionary's offset, unless the test moved it) are
 * recovered, and read right.  Every window after it (every method-2
 * window among them) is lost.
 */
static void check_dict_damage(const fixture *fx, uint32_t f, sibt_trace *t,
			      int rc, uint64_t lost_from, uint64_t valid,
			      uint64_t file_bytes, int want, const char *what)
{
	uint64_t want_w = 0, want_s = 0, all = 0;
	uint64_t *pw = tg_xcalloc(fx->m->npes, sizeof *pw);
	size_t bad, ok;

	CHECKQ(rc == SIBT_WARN && t, "%s (DICT): open = %d (%s), want "
	       "SIBT_WARN", what, rc, sibt_strerror(rc));
	for (size_t k = 0; k < fx->nwins; k++) {
		const wininfo *x = &fx->wins[k];
		if (x->file != f || x->end <= lost_from) {
			pw[x->pe]++;
			all++;
		}
		if (x->file == f && x->end <= lost_from) {
			want_w++;
			want_s += x->nsebs;
		}
	}
	if (t) {
		const sibt_damage *d = sibt_trace_damage(t, 0);
		CHECKQ(sibt_trace_damage_count(t) == 1 && d && d->proc == f &&
		       d->reason == want && d->valid_bytes == valid &&
		       d->file_bytes == file_bytes &&
		       d->windows_recovered == want_w &&
		       d->sebs_recovered == want_s,
		       "%s (lost from %" PRIu64 "): damage %zu proc %u reason %d "
		       "(%s) valid_bytes %" PRIu64 " recovered %" PRIu64
		       " windows %" PRIu64 " SEBs; want 1 %u %d (%s) %" PRIu64
		       " %" PRIu64 " %" PRIu64, what, lost_from,
		       sibt_trace_damage_count(t), d ? d->proc : 99,
		       d ? d->reason : 0, sibt_strerror(d ? d->reason : 0),
		       d ? d->valid_bytes : 0, d ? d->windows_recovered : 0,
		       d ? d->sebs_recovered : 0, f, want, sibt_strerror(want),
		       valid, want_w, want_s);
		for (uint32_t pe = 0; pe < fx->m->npes; pe++)
			CHECKQ(sibt_trace_nwindows(t, pe) == pw[pe],
			       "%s (DICT): PE %u has %" PRIu64 " windows, want "
			       "%" PRIu64, what, pe, sibt_trace_nwindows(t, pe),
			       pw[pe]);
		ok = read_all(fx, t, what, &bad);
		CHECKQ(bad == 0 && ok == all, "%s (DICT): %zu windows read, %zu "
		       "fail; want %" PRIu64 " and 0", what, ok, bad, all);
	}
	free(pw);
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

static void test_lies(void)
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

static void test_crafted(void)
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
static void test_wind_headers(void)
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

static void test_dict(void)
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
