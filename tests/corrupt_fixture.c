/*
 * corrupt_fixture.c -- the fixture of test_corrupt (a written trace and
 * what its intact index says) and the checks of what the reader recovers
 * from a damaged copy of it (corrupt.h).
 */
#include "config.h"

#include <ctype.h>

#include "corrupt.h"

char tmp[4096];
int quiet_failures;
int quiet_limit = 40;

int make_fixture(fixture *fx, const char *name, uint64_t seed,
		 const tg_params *prm, uint32_t P, uint32_t window, int level)
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

void free_fixture(fixture *fx)
{
	for (uint32_t f = 0; f < fx->P && fx->orig; f++)
		free(fx->orig[f]);
	free(fx->orig);
	free(fx->len);
	free(fx->wins);
	tg_free_model(fx->m);
}

void restore(fixture *fx, uint32_t f)
{
	if (tg_write_file(tg_datafile(fx->dir, f), fx->orig[f], fx->len[f])) {
		perror("restore");
		exit(99);
	}
}

const wininfo *window_at(const fixture *fx, uint32_t f, uint64_t off)
{
	for (size_t i = 0; i < fx->nwins; i++)
		if (fx->wins[i].file == f && fx->wins[i].off <= off &&
		    off < fx->wins[i].end)
			return &fx->wins[i];
	return NULL;
}

int ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);
	return s && a >= b && !strcmp(s + a - b, suffix);
}

int contains_ci(const char *hay, const char *needle)
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

void set_manifest_text(const char *dir, const char *text)
{
	tg_write_file(tg_path(dir, "MANIFEST"), text, strlen(text));
}

/* Every window of every PE: those that read must equal the model;
 * returns how many read successfully, and counts windows failing with
 * each code in *bad. */
size_t read_all(const fixture *fx, sibt_trace *t, const char *what,
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
void check_dict_damage(const fixture *fx, uint32_t f, sibt_trace *t, int rc,
		       uint64_t lost_from, uint64_t valid, uint64_t file_bytes,
		       int want, const char *what)
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
