/*
 * test_noise.c -- the noise library: noise-set parsing and validation,
 * pattern and captured sources, the fixed point of SEB extension.
 *
 * Every expected time is either worked out by hand in a comment or
 * computed by a brute-force oracle that lists the detours one by one and
 * iterates the extension naively (no arithmetic counting, no binary
 * search), so the library's shortcuts are checked against the definition.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "sibtest.h"

#define US INT64_C(1000000)
#define MS INT64_C(1000000000)

static char dir[4096];

/* Make an empty noise-set directory `name' under the scratch area. */
static const char *mkset(const char *base, const char *name)
{
	snprintf(dir, sizeof dir, "%s/%s", base, name);
	char cmd[8300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	if (system(cmd) != 0)
		exit(99);
	return dir;
}

static void put(const char *d, const char *file, const char *text)
{
	char path[8300];
	snprintf(path, sizeof path, "%s/%s", d, file);
	FILE *f = fopen(path, "w");
	if (!f)
		exit(99);
	fputs(text, f);
	fclose(f);
}

static noise_set *load_ok(const char *d)
{
	noise_set *s = NULL;
	char err[1024] = "";
	if (noise_set_load(&s, d, err, sizeof err))
		TEST_FAIL("loading %s: %s", d, err);
	return s;
}

static noise_inj *inj_of(const noise_set *s, uint64_t seed, int64_t num,
			 int64_t den, int cosched)
{
	noise_params p = { .seed = seed, .scale_num = num, .scale_den = den,
			   .cosched = cosched };
	noise_inj *in = NULL;
	char err[1024] = "";
	if (noise_inj_new(&in, s, &p, err, sizeof err))
		TEST_FAIL("noise_inj_new: %s", err);
	return in;
}

static sib_ps extend(const noise_inj *in, uint32_t node, uint32_t core,
			 sib_ps s, sib_ps d)
{
	sib_ps e = -1;
	char err[512] = "";
	if (noise_extend(in, node, core, s, d, &e, err, sizeof err))
		TEST_FAIL("noise_extend: %s", err);
	return e;
}

/* ---------------------------------------------------------- oracle */

typedef struct det {
	sib_ps start, dur;
} det;

static det odet[200000];
static size_t nodet;

static void oracle_pattern(sib_ps period, sib_ps amp, sib_ps off,
			   sib_ps horizon)
{
	for (sib_ps t = off; t < horizon; t += period)
		odet[nodet++] = (det){ t, amp };
}

/* Captured copy shifted by phi, repeated with period len, up to horizon. */
static void oracle_captured(const sib_ps *st, const sib_ps *du,
			    size_t n, sib_ps len, sib_ps phi,
			    sib_ps horizon)
{
	for (sib_ps base = phi - len; base < horizon; base += len)
		for (size_t i = 0; i < n; i++)
			if (base + st[i] >= 0 && base + st[i] < horizon)
				odet[nodet++] = (det){ base + st[i], du[i] };
}

static sib_ps oracle_amount(sib_ps t0, sib_ps t1)
{
	sib_ps a = 0;
	for (size_t i = 0; i < nodet; i++)
		if (odet[i].start >= t0 && odet[i].start < t1)
			a += odet[i].dur;
	return a;
}

static sib_ps oracle_extend(sib_ps s, sib_ps d)
{
	sib_ps e = s + d;
	for (;;) {
		sib_ps n = s + d + oracle_amount(s, e);
		if (n == e)
			return e;
		e = n;
	}
}

/* ----------------------------------------------------------- tests */

static void test_pattern(const char *base)
{
	const char *d = mkset(base, "pattern");
	put(d, "core0", "# period amplitude offset\n0.25ms 10us 0us\n");
	noise_set *s = load_ok(d);
	if (!s)
		return;
	noise_inj *in = inj_of(s, 1, 1, 1, 0);
	assertEqualInt(noise_set_ncores(s), 1);
	assertEqualInt(noise_set_kind(s, 0), NOISE_PATTERN);
	assertEqualInt(noise_set_kind(s, 1), NOISE_NONE);

	/* One SEB of 1 ms at 0: detours at 0, .25, .5, .75 ms -> 1.04 ms;
	 * the extension reaches the one at 1.0 ms -> 1.05 ms; none starts
	 * in [1.04, 1.05) -> settled. */
	assertEqualInt(extend(in, 0, 0, 0, 1 * MS), 1050 * US);
	/* From 0.1 ms: .25, .5, .75, 1.0 -> 1.14 ms; next at 1.25: done. */
	assertEqualInt(extend(in, 0, 0, 100 * US, 1 * MS), 1140 * US);
	/* Zero duration: not extended, even on a detour start. */
	assertEqualInt(extend(in, 0, 0, 250 * US, 0), 250 * US);
	/* Sends: offset 0.3 ms leaves after the detours at 0 and 0.25. */
	assertEqualInt(extend(in, 0, 0, 0, 300 * US), 320 * US);
	/* Offset 0.24 ms: after the detour at 0 -> 0.25 ms exactly, where
	 * the next detour starts: the message leaves before it. */
	assertEqualInt(extend(in, 0, 0, 0, 240 * US), 250 * US);
	/* Every node sees the same pattern; core 1 has none. */
	assertEqualInt(extend(in, 77, 0, 0, 1 * MS), 1050 * US);
	assertEqualInt(extend(in, 0, 1, 0, 1 * MS), 1 * MS);
	/* Amounts counted arithmetically equal the listed detours. */
	nodet = 0;
	oracle_pattern(250 * US, 10 * US, 0, 20 * MS);
	for (sib_ps t0 = 0; t0 < 3 * MS; t0 += 37 * US + 123)
		for (sib_ps l = 0; l < 2 * MS; l += 101 * US + 7) {
			assertEqualInt(noise_amount(in, 0, 0, t0, t0 + l),
				       oracle_amount(t0, t0 + l));
			assertEqualInt(extend(in, 0, 0, t0, l),
				       oracle_extend(t0, l));
		}

	noise_core_stats cs;
	noise_set_core_stats(s, 0, &cs);
	assertEqualInt((int64_t)(cs.detours_per_s + 0.5), 4000);
	assertTrue(cs.fraction > 0.04 - 1e-12 && cs.fraction < 0.04 + 1e-12);
	assertEqualInt((int64_t)(cs.mean_ps + 0.5), 10 * US);
	assertEqualInt((int64_t)cs.max_ps, 10 * US);
	assertEqualU64(cs.detours, 1);
	assertEqualInt(cs.span_ps, 0);
	noise_set_core_stats(s, 5, &cs);
	assertEqualU64(cs.detours, 0);
	noise_inj_free(in);

	/* Scale 2: 20 us detours: 1 ms -> 4*20 = 1.08 -> +1.0 -> 1.10 ms.
	 * Scale 1/3: 3333333 ps (rounded) each: five detours as at 1. */
	in = inj_of(s, 1, 2, 1, 0);
	assertEqualInt(extend(in, 0, 0, 0, 1 * MS), 1100 * US);
	noise_inj_free(in);
	in = inj_of(s, 1, 1, 3, 0);
	assertEqualInt(extend(in, 0, 0, 0, 1 * MS), 1 * MS + 5 * 3333333);
	noise_inj_free(in);
	/* Scale 0: nothing is delayed; the injector says so. */
	in = inj_of(s, 1, 0, 1, 0);
	assertTrue(!noise_inj_active(in));
	assertEqualInt(extend(in, 0, 0, 0, 1 * MS), 1 * MS);
	noise_inj_free(in);
	/* Scale 25 makes detours of 250 us every 250 us: refused. */
	noise_params p = { .seed = 1, .scale_num = 25, .scale_den = 1 };
	char err[1024] = "";
	in = NULL;
	assertEqualInt(noise_inj_new(&in, s, &p, err, sizeof err), -1);
	assertContains(err, "smaller scale");
	assertTrue(in == NULL);
	noise_set_free(s);
}

static void test_two_patterns(const char *base)
{
	const char *d = mkset(base, "two");
	put(d, "core0", "0.25ms 10us 0us\n1ms 100us 0.5ms  # a daemon\n");
	put(d, "core1", "unit us\n250 10 0\n");
	noise_set *s = load_ok(d);
	if (!s)
		return;
	noise_inj *in = inj_of(s, 1, 1, 1, 0);
	/* [0, 1ms): 4*10 + 100 (at .5) -> 1.14 ms; [1, 1.14): 10 (at 1.0)
	 * -> 1.15 ms; [1.14, 1.15): none. */
	assertEqualInt(extend(in, 0, 0, 0, 1 * MS), 1150 * US);
	/* The sum of the two patterns' amounts, over any window; `unit
	 * us' makes core 1 read like the first pattern of core 0. */
	nodet = 0;
	oracle_pattern(250 * US, 10 * US, 0, 30 * MS);
	oracle_pattern(1 * MS, 100 * US, 500 * US, 30 * MS);
	for (sib_ps t0 = 0; t0 < 5 * MS; t0 += 173 * US + 11) {
		noise_cursor cur;
		noise_cursor_init(in, 5, 0, t0, &cur);
		for (sib_ps l = 0; l < 3 * MS; l += 17 * US + 3) {
			sib_ps got = -1;
			assertEqualInt(noise_cursor_at(&cur, l, &got, NULL, 0),
				       0);
			assertEqualInt(got, oracle_extend(t0, l));
		}
		sib_ps l = 3 * MS + t0 / 7;
		assertEqualInt(noise_amount(in, 0, 0, t0, t0 + l),
			       noise_amount(in, 0, 1, t0, t0 + l) +
			       (oracle_amount(t0, t0 + l) -
				noise_amount(in, 0, 1, t0, t0 + l)));
		assertEqualInt(extend(in, 3, 0, t0, l), oracle_extend(t0, l));
	}
	assertEqualInt(extend(in, 0, 1, 0, 1 * MS), 1050 * US);
	noise_core_stats cs;
	noise_set_core_stats(s, 0, &cs);
	assertEqualInt((int64_t)(cs.detours_per_s + 0.5), 5000);
	assertTrue(cs.fraction > 0.14 - 1e-12 && cs.fraction < 0.14 + 1e-12);
	assertEqualInt((int64_t)(cs.mean_ps + 0.5), 28 * US);
	assertEqualInt((int64_t)cs.max_ps, 100 * US);
	assertEqualU64(cs.detours, 2);
	noise_inj_free(in);
	noise_set_free(s);
}

static const sib_ps cst[] = { 100 * US, 600 * US, 700 * US };
static const sib_ps cdu[] = { 5 * US, 20 * US, 50 * US };

static void test_captured(const char *base)
{
	const char *d = mkset(base, "captured");
	put(d, "cores", "# core start duration\nlength 1ms\n"
	    "2 100us 5us\n2 600us 20us\n2 700us 50us\n");
	put(d, "README.md", "ignored\n");
	noise_set *s = load_ok(d);
	if (!s)
		return;
	assertEqualInt(noise_set_ncores(s), 3);
	assertEqualInt(noise_set_kind(s, 0), NOISE_NONE);
	assertEqualInt(noise_set_kind(s, 2), NOISE_CAPTURED);
	noise_core_stats cs;
	noise_set_core_stats(s, 2, &cs);
	assertEqualU64(cs.detours, 3);
	assertEqualInt(cs.span_ps, 1 * MS);
	assertEqualInt((int64_t)(cs.detours_per_s + 0.5), 3000);
	assertTrue(cs.fraction > 0.075 - 1e-12 && cs.fraction < 0.075 + 1e-12);
	assertEqualInt((int64_t)(cs.mean_ps + 0.5), 25 * US);
	assertEqualInt((int64_t)cs.max_ps, 50 * US);

	/* Seeded offsets: deterministic, in [0, length), differing with
	 * the seed and the node. */
	sib_ps o1 = noise_captured_offset(1, 0, 2, 1 * MS);
	assertEqualInt(o1, noise_captured_offset(1, 0, 2, 1 * MS));
	assertTrue(o1 >= 0 && o1 < 1 * MS);
	assertTrue(o1 != noise_captured_offset(2, 0, 2, 1 * MS));
	assertTrue(o1 != noise_captured_offset(1, 1, 2, 1 * MS));
	assertTrue(o1 != noise_captured_offset(1, 0, 3, 1 * MS));

	noise_inj *a = inj_of(s, 1, 1, 1, 0), *b = inj_of(s, 1, 1, 1, 0);
	noise_inj *c = inj_of(s, 2, 1, 1, 0), *co = inj_of(s, 1, 1, 1, 1);
	int differ_seed = 0, differ_node = 0;
	for (uint32_t node = 0; node < 6; node++) {
		sib_ps phi = noise_captured_offset(1, node, 2, 1 * MS);
		nodet = 0;
		oracle_captured(cst, cdu, 3, 1 * MS, phi, 40 * MS);
		/* A whole capture length holds every detour once, at any
		 * offset; ten lengths ten times (wrap-around). */
		assertEqualInt(noise_amount(a, node, 2, 333, 333 + 1 * MS),
			       75 * US);
		assertEqualInt(noise_amount(a, node, 2, 5, 5 + 10 * MS),
			       750 * US);
		for (sib_ps t0 = 0; t0 < 3 * MS; t0 += 211 * US + 3) {
			/* A cursor, with growing durations then a smaller
			 * one (a restart), agrees with the definition. */
			noise_cursor cur;
			noise_cursor_init(a, node, 2, t0, &cur);
			for (sib_ps l = 0; l < 2 * MS; l += 29 * US + 1) {
				sib_ps got = -1;
				assertEqualInt(noise_cursor_at(&cur, l, &got,
							       NULL, 0), 0);
				assertEqualInt(got, oracle_extend(t0, l));
			}
			sib_ps got = -1;
			assertEqualInt(noise_cursor_at(&cur, 100 * US, &got,
						       NULL, 0), 0);
			assertEqualInt(got, oracle_extend(t0, 100 * US));
			/* SEBs longer than the capture wrap around. */
			for (sib_ps l = 0; l < 7 * MS; l += 433 * US) {
				assertEqualInt(noise_amount(a, node, 2, t0,
							    t0 + l),
					       oracle_amount(t0, t0 + l));
				assertEqualInt(extend(a, node, 2, t0, l),
					       oracle_extend(t0, l));
			}
			sib_ps l = 600 * US;
			assertEqualInt(extend(a, node, 2, t0, l),
				       extend(b, node, 2, t0, l));
			differ_seed |= extend(a, node, 2, t0, l) !=
				       extend(c, node, 2, t0, l);
			differ_node |= extend(a, node, 2, t0, l) !=
				       extend(a, 0, 2, t0, l);
			/* Co-scheduled: node 0's offset everywhere. */
			assertEqualInt(extend(co, node, 2, t0, l),
				       extend(a, 0, 2, t0, l));
		}
	}
	assertTrue(differ_seed);
	assertTrue(differ_node);
	noise_inj_free(a);
	noise_inj_free(b);
	noise_inj_free(c);
	noise_inj_free(co);

	/* Scale 2: every detour doubled, over a whole length 150 us. */
	a = inj_of(s, 1, 2, 1, 0);
	assertEqualInt(noise_amount(a, 4, 2, 10, 10 + 1 * MS), 150 * US);
	noise_inj_free(a);
	noise_set_free(s);

	/* Two captured files: each core keeps its own length. */
	d = mkset(base, "twofiles");
	put(d, "core0", "length 10ms\n1ms 100us\n2ms 300us\n");
	put(d, "core1", "unit us\n100 50\n400 150\n");
	s = load_ok(d);
	if (!s)
		return;
	noise_set_core_stats(s, 0, &cs);
	assertEqualInt(cs.span_ps, 10 * MS);
	noise_set_core_stats(s, 1, &cs);
	assertEqualInt(cs.span_ps, 550 * US);
	noise_set_free(s);

	/* Default length: the end of the last detour. */
	d = mkset(base, "nolength");
	put(d, "core0", "unit ns\n0 100\n400 100\n");
	s = load_ok(d);
	if (!s)
		return;
	noise_set_core_stats(s, 0, &cs);
	assertEqualInt(cs.span_ps, 500000);
	a = inj_of(s, 9, 1, 1, 0);
	assertEqualInt(noise_amount(a, 0, 0, 0, 5 * 500000), 5 * 200000);
	noise_inj_free(a);
	noise_set_free(s);
}

/* A set that must be rejected, with `where' ("core0:3") and `what' in
 * the message. */
static void bad(const char *base, const char *name, const char *file,
		const char *text, const char *where, const char *what)
{
	const char *d = mkset(base, name);
	if (file)
		put(d, file, text);
	noise_set *s = (noise_set *)1;
	char err[2048] = "";
	assertEqualInt(noise_set_load(&s, d, err, sizeof err), -1);
	assertTrue(s == NULL);
	assertContains(err, where);
	assertContains(err, what);
}

/* Sets that must be rejected: directory, file, its text, and what the
 * message must hold (where: "core0:3:", what: the problem). */
static const struct {
	const char *name, *file, *text, *where, *what;
} bad_sets[] = {
	{ "e1", "core0", "0.25ms 10xs 0us\n", "core0:1:", "unknown unit 'xs'" },
	{ "e2", "core0", "# c\n\n0.25ms 10 0us\n", "core0:3:", "has no unit" },
	{ "e3", "core0", "100us -5us\n", "core0:1:", "negative" },
	{ "e4", "core0", "unit us\n100 5\n50 5\n", "core0:3:", "sorted" },
	{ "e5", "core0", "unit us\n100 5\n103 5\n", "core0:3:", "overlap" },
	{ "e6", "core0", "1ms 1ms 0us\n",
	  "core0:1:", "amplitude 1ms is not below the period" },
	{ "e7", "core0", "1ms 1us 0us\n5us 2us\n", "core0:2:", "one kind" },
	{ "e8", "coer1", "1ms 1us 0us\n",
	  "coer1", "unknown file in the noise set" },
	{ "e10", "core0", "1ms\n", "core0:1:", "1 field" },
	{ "e11", "core0", "1us 0us\n",
	  "core0:1:", "duration must be greater than 0" },
	{ "e12", "core0", "0us 1us 0us\n",
	  "core0:1:", "period must be greater than 0" },
	{ "e13", "core0", "1us 1us\nlength 1ms\n",
	  "core0:2:", "before the first detour" },
	{ "e14", "core0", "length 1us\n0us 2us\n",
	  "core0:1:", "shorter than the capture" },
	{ "e15", "core0", "length 1ms\n1ms 1us 0us\n",
	  "core0:1:", "captured noise only" },
	{ "e16", "core0", "1ms 1us 0us 4us\n", "core0:1:", "4 fields" },
	{ "e17", "cores", "x 1ms 1us 0us\n", "cores:1:", "not a core number" },
	{ "e18", "core01", "1ms 1us 0us\n", "core01", "leading zero" },
	{ "e19", "core0", "1.5ps 1ps 0ps\n",
	  "core0:1:", "whole number of picoseconds" },
	{ "e20", "core0", "unit parsec\n", "core0:1:", "unit U" },
	{ "e21", "core0", "0us 1us\n1us 1us\n",
	  "core0:", "fill the whole capture" },
	{ "e22", "cores", "1 1ms 1us 0us\n2 5us 1us\n",
	  "cores:2:", "one kind" },
};

static void test_errors(const char *base)
{
	for (size_t i = 0; i < sizeof bad_sets / sizeof bad_sets[0]; i++)
		bad(base, bad_sets[i].name, bad_sets[i].file, bad_sets[i].text,
		    bad_sets[i].where, bad_sets[i].what);
	/* Both forms at once. */
	noise_set *s;
	char err[1024] = "";
	const char *both = mkset(base, "e9");
	put(both, "core0", "1ms 1us 0us\n");
	put(both, "cores", "0 1ms 1us 0us\n");
	assertEqualInt(noise_set_load(&s, both, err, sizeof err), -1);
	assertContains(err, "holds both 'cores' and per-core files");
	/* A missing directory. */
	assertEqualInt(noise_set_load(&s, "/nonexistent/noise", err,
				      sizeof err), -1);
	assertContains(err, "/nonexistent/noise");
	/* Interleaved cores in `cores': sortedness is per core. */
	const char *d = mkset(base, "interleave");
	put(d, "cores", "unit us\n0 10 1\n1 5 1\n0 20 1\n1 8 1\n");
	s = load_ok(d);
	assertEqualInt(noise_set_ncores(s), 2);
	noise_set_free(s);
}

/* A set in memory reads as the same set in a directory: the same
 * messages for every bad set, the same statistics for a good one; and
 * what only memory can hold (two files of one name, a name with a
 * slash) is refused. */
static void test_memory(const char *base)
{
	char derr[2048], merr[2048];
	noise_set *s, *m;
	for (size_t i = 0; i < sizeof bad_sets / sizeof bad_sets[0]; i++) {
		char d[4200];
		snprintf(d, sizeof d, "%s/%s", base, bad_sets[i].name);
		noise_file f = { bad_sets[i].file, bad_sets[i].text,
				 strlen(bad_sets[i].text) };
		m = (noise_set *)1;
		assertEqualInt(noise_set_load(&s, d, derr, sizeof derr), -1);
		assertEqualInt(noise_set_load_files(&m, d, &f, 1, merr,
						    sizeof merr), -1);
		assertTrue(m == NULL);
		assertEqualString(merr, derr);
	}
	static const char cores[] = "unit us\n0 100 5 1\n0 1000 20 7\n"
				    "3 250 2 0\n";
	static const char notes[] = "not noise\n";
	const char *d = mkset(base, "mem");
	put(d, "cores", cores);
	put(d, "README", notes);
	noise_file f[] = { { "README", notes, sizeof notes - 1 },
			   { "cores", cores, sizeof cores - 1 } };
	s = load_ok(d);
	assertEqualInt(noise_set_load_files(&m, d, f, 2, merr, sizeof merr),
		       0);
	assertEqualInt(noise_set_ncores(m), noise_set_ncores(s));
	for (uint32_t c = 0; c < noise_set_ncores(s); c++) {
		noise_core_stats a, b;
		noise_set_core_stats(s, c, &a);
		noise_set_core_stats(m, c, &b);
		assertEqualU64(b.detours, a.detours);
		assertTrue(b.mean_ps == a.mean_ps && b.max_ps == a.max_ps);
		assertEqualInt(noise_set_kind(m, c), noise_set_kind(s, c));
	}
	noise_set_free(s);
	noise_set_free(m);
	noise_file two[] = { { "core1", "1ms 1us 0us\n", 12 },
			     { "core1", "2ms 1us 0us\n", 12 } };
	assertEqualInt(noise_set_load_files(&m, "set", two, 2, merr,
					    sizeof merr), -1);
	assertContains(merr, "two files named 'core1'");
	noise_file slash = { "x/core0", "1ms 1us 0us\n", 12 };
	assertEqualInt(noise_set_load_files(&m, "set", &slash, 1, merr,
					    sizeof merr), -1);
	assertContains(merr, "'x/core0' is not a file name");
	/* A line cut by the end of the buffer is a line; a NUL is not text. */
	noise_file nul = { "core0", "1ms 1us 0us\n1ms\0 1us\n", 22 };
	assertEqualInt(noise_set_load_files(&m, "set", &nul, 1, merr,
					    sizeof merr), -1);
	assertContains(merr, "set/core0:2: the line contains a NUL byte");
	assertEqualInt(noise_set_load_files(&m, "set", f + 1, 1, merr,
					    sizeof merr), 0);
	assertEqualInt(noise_set_ncores(m), 4);
	noise_set_free(m);
}

int main(void)
{
	char base[4096];
	snprintf(base, sizeof base, "%s", test_tmpdir("test_noise"));
	test_pattern(base);
	test_two_patterns(base);
	test_captured(base);
	test_errors(base);
	test_memory(base);
	return TEST_EXIT();
}
