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
#include "spec_walk.h"
#include "tgen_bytes.h"

#define CHECKF(c, ...) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL(__VA_ARGS__); } while (0)

static const uint32_t window_sizes[] = { 1, 2, 7, 64, 1000 };
static const int levels[] = { 0, 1, 6, 9 };
static const uint32_t procs[] = { 1, 3 };

static char tmp[4096];

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
				  "sibyl-trace 1.2");
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

/* The writers of the three blocks of that trace; when one cannot be
 * opened, those before it are abandoned. */
static int open_blocks(sibt_writer *w[3], const char *dir, int unchecked)
{
	for (uint32_t p = 0; p < 3; p++)
		if (open_block(&w[p], dir, p, unchecked, 0)) {
			for (uint32_t q = 0; q < p; q++)
				sibt_writer_abort(w[q]);
			return -1;
		}
	return 0;
}

static void close_blocks(sibt_writer *w[3])
{
	for (uint32_t p = 0; p < 3; p++) {
		assertEqualInt(sibt_writer_close(w[p]), SIBT_OK);
		w[p] = NULL;
	}
}

/* SEBs the writer refuses, each leaving its counts as they were: PEs
 * outside the block, references out of range, negative times, unknown
 * marker kinds.  Proc 1 holds PEs 2 and 3. */
static void invalid_rejects(sibt_writer *w1)
{
	sibt_seb s;
	sibt_send snd = { 0, 1, 8, 0 };
	sibt_msgid mid = { 0, 0 };
	sibt_marker mk = { 0, 1 };
	uint64_t pred;

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
}

/* After the rejections: two good SEBs of PE 2, then predecessors that
 * are not earlier (refused), one that is, and a matched message PE 3 ->
 * PE 2, which keeps the trace valid. */
static void invalid_preds(sibt_writer *w1)
{
	sibt_seb s;
	sibt_send snd = { 0, 1, 8, 0 };
	sibt_msgid mid = { 0, 0 };
	uint64_t pred;

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
}

/* The trace of invalid_preds reads back with just the SEBs accepted. */
static void invalid_read_back(const char *dir)
{
	sibt_trace *t = open_ok(dir, "after rejected SEBs");
	if (!t)
		return;
	sibt_window *win = sibt_window_new();
	assertEqualU64(sibt_trace_nsebs(t, 2), 4);
	assertEqualU64(sibt_trace_nsebs(t, 3), 1);
	assertEqualU64(sibt_trace_nsebs(t, 0), 0);
	assertEqualInt(sibt_trace_read_window(t, 2, 0, win), SIBT_OK);
	if (sibt_window_nsebs(win) == 4) {
		const sibt_seb *r = sibt_window_seb(win, 2);
		assertTrue(!r->preds_default && r->npreds == 1 &&
			   r->preds[0] == 0);
		r = sibt_window_seb(win, 3);
		assertTrue(r->nwaits == 1 && r->waits[0].src == 3 &&
			   r->waits[0].seq == 0);
		assertEqualInt(r->duration, 10);
	} else {
		TEST_FAIL("PE 2 window 0 holds %u SEBs, want 4",
			  sibt_window_nsebs(win));
	}
	sibt_window_free(win);
	sibt_trace_close(t);
}

/* Unchecked: references out of range are written as given, and a reader
 * then finds them structurally invalid (EFORMAT).  -1 when the writers
 * could not be opened. */
static int invalid_unchecked(void)
{
	static const char *const cases[] = {
		"send to PE 6", "pred 0 on SEB 0", "wait from PE 9"
	};
	char dir[4200];
	sibt_writer *w[3] = { NULL, NULL, NULL };
	sibt_seb s;
	sibt_send snd = { 0, 1, 8, 0 };
	sibt_msgid mid = { 0, 0 };
	uint64_t pred;

	snprintf(dir, sizeof dir, "%s/unchecked", tmp);
	if (open_blocks(w, dir, 1))
		return -1;
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
		int rc = sibt_writer_add(w[1], &s, NULL);
		CHECKF(rc == SIBT_OK, "unchecked %s: add = %d: %s", cases[c],
		       rc, sibt_writer_errmsg(w[1]));
		/* one window per case */
		sibt_writer_flush_pe(w[1], s.pe);
	}
	close_blocks(w);

	sibt_trace *t = NULL;
	char eb[512] = "";
	int rc = sibt_trace_open(&t, dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "unchecked trace: open = %d: %s", rc, eb);
	if (t) {
		sibt_window *win = sibt_window_new();
		rc = sibt_trace_read_window(t, 2, 0, win);
		CHECKF(rc == SIBT_EFORMAT, "send to PE 6 of 6 read back as %d, "
		       "want SIBT_EFORMAT", rc);
		rc = sibt_trace_read_window(t, 3, 0, win);
		CHECKF(rc == SIBT_EFORMAT, "pred 0 of SEB 0 read back as %d, "
		       "want SIBT_EFORMAT", rc);
		rc = sibt_trace_read_window(t, 2, 1, win);
		CHECKF(rc == SIBT_EFORMAT, "wait from PE 9 of 6 read back as "
		       "%d, want SIBT_EFORMAT", rc);
		if (rc == SIBT_EFORMAT)
			assertContains(sibt_trace_errmsg(t), "PE 2");
		sibt_window_free(win);
		sibt_trace_close(t);
	}
	return 0;
}

/* A PE outside the block cannot be written even unchecked, but it must
 * not crash: OK or EINVAL (the writer is then abandoned). */
static void invalid_outside_block(void)
{
	char dir[4200];
	sibt_writer *w1 = NULL;

	snprintf(dir, sizeof dir, "%s/unchecked2", tmp);
	if (open_block(&w1, dir, 1, 1, 0) == SIBT_OK) {
		sibt_seb s = plain_seb(5);
		int rc = sibt_writer_add(w1, &s, NULL);
		CHECKF(rc == SIBT_OK || rc == SIBT_EINVAL, "unchecked PE "
		       "outside the block: %d", rc);
		sibt_writer_abort(w1);
	}
}

/* SEBs the writer must refuse, and what it writes when told not to
 * check them. */
static void test_invalid(void)
{
	char dir[4200];
	sibt_writer *w[3] = { NULL, NULL, NULL };

	snprintf(dir, sizeof dir, "%s/invalid", tmp);
	if (open_blocks(w, dir, 0))
		return;
	invalid_rejects(w[1]);
	invalid_preds(w[1]);
	close_blocks(w);
	invalid_read_back(dir);
	if (invalid_unchecked())
		return;
	invalid_outside_block();
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
