/*
 * test_check.c -- sibt_check() finds each class of defect, names the PE,
 * SEB, window or message concerned, and accepts valid traces (including
 * explicit predecessors, several data files and random valid traces).
 *
 * Small traces are written with the writer API; `unchecked' lets the
 * writer store references it would otherwise refuse.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include "sibtest.h"
#include "tgen.h"

#define MAX_SENDS 8
#define MAX_WAITS 8
#define MAX_PREDS 8

static const char *tmp;

/* ------------------------------------------------------ trace builder */

/* One SEB to write, with inline lists. */
typedef struct tseb {
	uint32_t pe;
	int explicit_preds;
	uint32_t npreds, nwaits, nsends;
	uint64_t preds[MAX_PREDS];
	sibt_msgid waits[MAX_WAITS];
	sibt_send sends[MAX_SENDS];
} tseb;

typedef struct builder {
	char path[4096];
	uint32_t npes, nprocs, window;
	int unchecked;
	size_t n, cap;
	tseb *sebs;
} builder;

static void b_init(builder *b, const char *name, uint32_t npes)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->path, sizeof(b->path), "%s/%s.trace", tmp, name);
	b->npes = npes;
	b->nprocs = 1;
}

/* Append an SEB to PE pe; fill its lists with the b_* helpers below. */
static tseb *b_seb(builder *b, uint32_t pe)
{
	tseb *s;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->sebs = realloc(b->sebs, b->cap * sizeof(*b->sebs));
		if (!b->sebs) {
			perror("realloc");
			exit(99);
		}
	}
	s = &b->sebs[b->n++];
	memset(s, 0, sizeof(*s));
	s->pe = pe;
	return s;
}

static void b_wait(tseb *s, uint32_t src, uint64_t seq)
{
	if (s->nwaits == MAX_WAITS)
		exit(99);
	s->waits[s->nwaits].src = src;
	s->waits[s->nwaits].seq = seq;
	s->nwaits++;
}

static void b_send(tseb *s, uint32_t dst, uint64_t size, int32_t tag)
{
	if (s->nsends == MAX_SENDS)
		exit(99);
	s->sends[s->nsends].dst = dst;
	s->sends[s->nsends].size = size;
	s->sends[s->nsends].tag = tag;
	s->sends[s->nsends].offset = 1000 * s->nsends;
	s->nsends++;
}

/* Give s explicit predecessors (none so far: call b_pred to add). */
static void b_explicit(tseb *s)
{
	s->explicit_preds = 1;
}

static void b_pred(tseb *s, uint64_t p)
{
	if (s->npreds == MAX_PREDS)
		exit(99);
	s->explicit_preds = 1;
	s->preds[s->npreds++] = p;
}

/* Write the trace, SEBs in the order they were added; 0 on success. */
static int b_write(builder *b)
{
	sibt_writer *w[8] = { NULL };
	char err[512] = "";
	uint32_t p, first, count;
	size_t i;
	int rc = SIBT_OK;

	if (b->nprocs > 8)
		return -1;
	for (p = 0; p < b->nprocs && rc >= 0; p++) {
		sibt_writer_opts o;

		sibt_writer_opts_init(&o);
		o.npes = b->npes;
		o.nprocs = b->nprocs;
		o.proc = p;
		sibt_block_range(b->npes, b->nprocs, p, &first, &count);
		o.first_pe = first;
		o.local_npes = count;
		o.window = b->window;
		o.write_manifest = p == 0;
		o.overwrite = 1;
		o.unchecked = b->unchecked;
		o.generator = "test_check";
		rc = sibt_writer_open(&w[p], b->path, &o, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "writer_open %s: %s\n", b->path, err);
	}
	for (i = 0; i < b->n && rc >= 0; i++) {
		const tseb *t = &b->sebs[i];
		sibt_seb s;

		memset(&s, 0, sizeof(s));
		s.pe = t->pe;
		s.name = "seb";
		s.duration = 1000;
		s.preds_default = !t->explicit_preds;
		s.npreds = t->npreds;
		s.preds = t->preds;
		s.nwaits = t->nwaits;
		s.waits = t->waits;
		s.nsends = t->nsends;
		s.sends = t->sends;
		for (p = 0; p < b->nprocs; p++) {
			sibt_block_range(b->npes, b->nprocs, p, &first, &count);
			if (t->pe >= first && t->pe - first < count)
				break;
		}
		if (p == b->nprocs)
			p = 0;
		rc = sibt_writer_add(w[p], &s, NULL);
		if (rc < 0)
			fprintf(stderr, "writer_add PE %u: %s\n", t->pe,
				sibt_writer_errmsg(w[p]));
	}
	for (p = 0; p < b->nprocs; p++) {
		if (!w[p])
			continue;
		if (rc >= 0) {
			rc = sibt_writer_close(w[p]);
			if (rc < 0)
				fprintf(stderr, "writer_close: %d\n", rc);
		} else {
			sibt_writer_abort(w[p]);
		}
	}
	free(b->sebs);
	b->sebs = NULL;
	b->n = b->cap = 0;
	return rc < 0 ? rc : 0;
}

/* ------------------------------------------------------- running checks */

typedef struct result {
	long rc;                /* sibt_check's return */
	int open_rc;
	unsigned nreports;
	char text[16384];       /* every report, one per line */
	char last_phase[64];
	uint64_t progress_calls;
} result;

static void on_report(void *arg, const char *problem)
{
	result *r = arg;
	size_t len = strlen(r->text);

	r->nreports++;
	snprintf(r->text + len, sizeof(r->text) - len, "%s\n", problem);
}

static void on_progress(void *arg, const char *phase, uint64_t done,
			uint64_t total)
{
	result *r = arg;

	snprintf(r->last_phase, sizeof(r->last_phase), "%s", phase);
	r->progress_calls++;
	if (done > total)
		TEST_FAIL("progress %s: done %" PRIu64 " > total %" PRIu64,
			  phase, done, total);
}

static void run_check(const char *path, unsigned max, int skip_cycles,
		      result *r)
{
	char err[512] = "";
	sibt_trace *t = NULL;
	sibt_check_opts o;

	memset(r, 0, sizeof(*r));
	r->open_rc = sibt_trace_open(&t, path, 0, err, sizeof(err));
	if (r->open_rc < 0 || !t) {
		TEST_FAIL("cannot open %s: %s", path, err);
		r->rc = -1000;
		return;
	}
	memset(&o, 0, sizeof(o));
	o.max_problems = max;
	o.skip_cycles = skip_cycles;
	o.report = on_report;
	o.progress = on_progress;
	o.arg = r;
	r->rc = sibt_check(t, &o);
	sibt_trace_close(t);
	if (r->rc > 0 && r->nreports == 0)
		TEST_FAIL("%s: %ld problems but none reported", path, r->rc);
	if (r->rc >= 0 && r->nreports > (unsigned)r->rc)
		TEST_FAIL("%s: %u reports for %ld problems", path,
			  r->nreports, r->rc);
}

#define CHECK(path, r) run_check(path, 0, 0, r)

/* ---------------------------------------------------------- valid traces */

/*
 * A halo exchange on a ring: per iteration k a compute SEB (index 2k, no
 * messages) and an exchange SEB (2k+1) that awaits what both neighbours
 * sent in iteration k-1 and sends to both (to the right: seq 2k, to the
 * left: 2k+1).  With `explicit', compute SEBs follow only the previous
 * compute SEB and exchange SEBs name both earlier SEBs: a valid graph
 * that is not the default chain.
 */
static void build_halo(builder *b, uint32_t iters, int explicit)
{
	uint32_t k, p, n = b->npes;

	for (k = 0; k <= iters; k++) {
		for (p = 0; p < n; p++) {
			uint32_t l = (p + n - 1) % n, r = (p + 1) % n;
			tseb *c = b_seb(b, p), *x;

			if (explicit) {
				b_explicit(c);
				if (k > 0)
					b_pred(c, 2 * (uint64_t)k - 2);
			}
			x = b_seb(b, p);
			if (explicit) {
				b_pred(x, 2 * (uint64_t)k);
				if (k > 0)
					b_pred(x, 2 * (uint64_t)k - 1);
			}
			if (k > 0) {
				b_wait(x, l, 2 * (uint64_t)(k - 1));
				b_wait(x, r, 2 * (uint64_t)(k - 1) + 1);
			}
			if (k < iters) {
				b_send(x, r, 64 + k, (int32_t)k);
				b_send(x, l, 64 + k, (int32_t)k);
			}
		}
	}
}

static void test_clean(void)
{
	builder b;
	result r;

	b_init(&b, "clean", 5);
	b.window = 3;           /* SEBs and sends straddle windows */
	build_halo(&b, 6, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 0);
	assertEqualInt(r.nreports, 0);
	assertTrue(r.progress_calls >= 2);
	assertEqualString(r.last_phase, "searching for cycles");

	run_check(b.path, 0, 1, &r);
	assertEqualInt(r.rc, 0);
	assertEqualString(r.last_phase, "reading windows");
}

static void test_explicit_preds(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "explicit", 4);
	b.window = 4;
	b.nprocs = 2;
	build_halo(&b, 5, 1);
	/* A SEB that starts a new chain (no predecessor at all) and one
	 * that depends on an SEB far back. */
	s = b_seb(&b, 3);
	b_explicit(s);
	s = b_seb(&b, 3);
	b_pred(s, 1);
	b_pred(s, 12);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 0);
	assertEqualString(r.text, "");
}

/* Random valid traces (tgen.h): several files, interleaved windows. */
static void test_random_valid(void)
{
	char err[512], path[4096];
	uint64_t seed;
	result r;

	for (seed = 1; seed <= 6; seed++) {
		tg_params prm = { .npes = 3 + (uint32_t)seed * 2, .rounds = 6,
				  .max_per_round = 3, .simple = 1 };
		tg_model *m = tg_generate(seed, &prm);
		tg_wopts wo;
		uint32_t pe;
		uint64_t i;
		int done = 0;

		tg_wopts_init(&wo);
		wo.nprocs = 1 + (uint32_t)(seed % 3);
		wo.window = 1 + (uint32_t)(seed % 4);
		wo.seed = seed;
		wo.overwrite = 1;
		snprintf(path, sizeof(path), "%s/random-%" PRIu64 ".trace",
			 tmp, seed);
		if (tg_write(m, path, &wo, err, sizeof(err)) != SIBT_OK) {
			TEST_FAIL("tg_write seed %" PRIu64 ": %s", seed, err);
			tg_free_model(m);
			continue;
		}
		CHECK(path, &r);
		if (r.rc != 0)
			TEST_FAIL("random valid trace, seed %" PRIu64 ": %ld "
				  "problems:\n%s", seed, r.rc, r.text);

		/* Drop one wait: exactly that message becomes unawaited. */
		for (pe = 0; pe < m->npes && !done; pe++) {
			for (i = 0; i < m->pes[pe].nsebs && !done; i++) {
				sibt_seb *s = &m->pes[pe].sebs[i];
				char want[128];

				if (s->nwaits == 0)
					continue;
				s->nwaits--;
				snprintf(want, sizeof(want), "message %" PRIu32
					 ":%" PRIu64 " sent by PE %" PRIu32,
					 s->waits[s->nwaits].src,
					 s->waits[s->nwaits].seq,
					 s->waits[s->nwaits].src);
				wo.overwrite = 1;
				assertEqualInt(tg_write(m, path, &wo, err,
							sizeof(err)), SIBT_OK);
				CHECK(path, &r);
				assertEqualInt(r.rc, 1);
				assertContains(r.text, want);
				assertContains(r.text, "is awaited by no SEB");
				s->nwaits++;
				done = 1;
			}
		}
		assertTrue(done);
		tg_free_model(m);
	}
}

/* ------------------------------------------------------- message defects */

static void test_unawaited(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "unawaited", 2);
	s = b_seb(&b, 0);
	b_send(s, 1, 10, 1);
	s = b_seb(&b, 0);
	b_send(s, 1, 100, 7);             /* message 0:1: nobody waits */
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "message 0:1 sent by PE 0 SEB 1 (to PE 1, "
		       "100 bytes, tag 7) is awaited by no SEB");
	/* Found by pass 1b, after the streaming pass. */
	assertEqualString(r.last_phase, "locating message problems");
}

static void test_never_sent(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "never-sent", 2);
	s = b_seb(&b, 0);
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 5);                  /* PE 0 sends only 0:0 */
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "PE 1 SEB 1 waits for message 0:5, which is "
		       "never sent (PE 0 sends 1 message)");
}

static void test_awaited_twice(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "twice", 3);
	s = b_seb(&b, 0);
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	s = b_seb(&b, 1);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);                  /* again, SEB 2 */
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "message 0:0 is awaited twice: by PE 1 SEB 0 "
		       "and PE 1 SEB 2");
}

static void test_wrong_pe(void)
{
	builder b;
	result r;
	tseb *s;

	/* 0:0 goes to PE 1 but PE 2 waits (send read first); 1:0 goes to
	 * PE 2 but PE 0 waits (wait read first). */
	b_init(&b, "wrong-pe", 3);
	s = b_seb(&b, 0);
	b_send(s, 1, 8, 0);
	b_wait(s, 1, 0);
	s = b_seb(&b, 1);
	b_send(s, 2, 8, 0);
	s = b_seb(&b, 2);
	s = b_seb(&b, 2);
	b_wait(s, 0, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 2);
	assertContains(r.text, "message 0:0 is sent by PE 0 SEB 0 to PE 1 but "
		       "awaited on PE 2 SEB 1");
	assertContains(r.text, "message 1:0 is sent by PE 1 SEB 0 to PE 2 but "
		       "awaited on PE 0 SEB 0");
}

/*
 * PE numbers >= npes are format errors of the window payload (FORMAT.md
 * section 5), so the reader refuses such a window and the check reports
 * it as unreadable, with PE and window.
 */
static void test_pe_out_of_range(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "bad-src", 2);
	b.unchecked = 1;
	s = b_seb(&b, 0);
	s = b_seb(&b, 1);
	b_wait(s, 5, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "PE 1 window 0 (SEBs 0-0) cannot be read");

	b_init(&b, "bad-dst", 3);
	b.unchecked = 1;
	s = b_seb(&b, 0);
	s = b_seb(&b, 2);
	b_send(s, 7, 1, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "PE 2 window 0 (SEBs 0-0) cannot be read");
}

/* Predecessor >= own index: also refused by the reader. */
static void test_bad_pred(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "bad-pred", 1);
	b.unchecked = 1;
	b.window = 2;
	s = b_seb(&b, 0);
	s = b_seb(&b, 0);
	s = b_seb(&b, 0);
	b_pred(s, 2);                     /* itself */
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "PE 0 window 1 (SEBs 2-2) cannot be read");
}

/* Only max_problems are reported, all are counted. */
static void test_max_problems(void)
{
	builder b;
	result r;
	tseb *s;
	int i;

	b_init(&b, "many", 2);
	for (i = 0; i < 30; i++) {
		s = b_seb(&b, 0);
		b_send(s, 1, 8, i);
	}
	assertEqualInt(b_write(&b), 0);
	run_check(b.path, 5, 0, &r);
	assertEqualInt(r.rc, 30);
	assertEqualInt(r.nreports, 5);
	assertContains(r.text, "message 0:4 sent by PE 0 SEB 4");
	assertTrue(strstr(r.text, "message 0:5 ") == NULL);
	run_check(b.path, 0, 0, &r);    /* default: 20 */
	assertEqualInt(r.rc, 30);
	assertEqualInt(r.nreports, 20);
}

/*
 * Many PEs with message defects, more messages than one batch of the
 * checker's second look (2^20): each PE p sends 1120 messages to p+1;
 * by sequence number modulo 4 they are awaited correctly, awaited on p+2
 * instead, awaited twice by p+1, or not awaited.  Written directly (the
 * builder's lists are too small).  Problems come batch by batch, each in
 * the order the trace is read: the first shown concern PE 0's messages,
 * whose waits PE 1 holds.
 */
#define MB_NPES 1024u
#define MB_PER_SEB 280u
static void test_many_bad_pes(void)
{
	static sibt_send sends[MB_PER_SEB];
	static sibt_msgid w4[2 * MB_PER_SEB], w5[2 * MB_PER_SEB];
	char path[4096], err[512] = "";
	sibt_writer_opts o;
	sibt_writer *w = NULL;
	uint32_t p, k, j;
	result r;
	int rc;

	snprintf(path, sizeof(path), "%s/many-bad.trace", tmp);
	sibt_writer_opts_init(&o);
	o.npes = MB_NPES;
	o.nprocs = 1;
	o.local_npes = MB_NPES;
	o.window = 4;
	o.write_manifest = 1;
	o.overwrite = 1;
	o.level = 1;
	o.generator = "test_check";
	rc = sibt_writer_open(&w, path, &o, err, sizeof(err));
	if (rc != SIBT_OK) {
		TEST_FAIL("writer_open %s: %s", path, err);
		return;
	}
	for (p = 0; p < MB_NPES && rc == SIBT_OK; p++) {
		uint32_t d = (p + 1) % MB_NPES, q1 = (p + MB_NPES - 1) % MB_NPES;
		uint32_t q2 = (p + MB_NPES - 2) % MB_NPES;
		uint32_t n4 = 0, n5 = 0;
		sibt_seb s;

		memset(&s, 0, sizeof(s));
		s.pe = p;
		s.name = "send";
		s.preds_default = 1;
		s.nsends = MB_PER_SEB;
		s.sends = sends;
		for (j = 0; j < MB_PER_SEB; j++) {
			sends[j].dst = d;
			sends[j].size = 8;
		}
		for (k = 0; k < 4 && rc == SIBT_OK; k++)
			rc = sibt_writer_add(w, &s, NULL);
		/* SEB 4 awaits from p-1 classes 0 and 2; SEB 5 class 2 from
		 * p-1 again and class 1 from p-2. */
		for (j = 0; j < 4 * MB_PER_SEB; j++) {
			if (j % 4 == 0 || j % 4 == 2) {
				w4[n4].src = q1;
				w4[n4++].seq = j;
			}
			if (j % 4 == 2) {
				w5[n5].src = q1;
				w5[n5++].seq = j;
			}
		}
		for (j = 0; j < 4 * MB_PER_SEB; j++) {
			if (j % 4 == 1) {
				w5[n5].src = q2;
				w5[n5++].seq = j;
			}
		}
		memset(&s, 0, sizeof(s));
		s.pe = p;
		s.name = "wait";
		s.preds_default = 1;
		s.nwaits = n4;
		s.waits = w4;
		if (rc == SIBT_OK)
			rc = sibt_writer_add(w, &s, NULL);
		s.nwaits = n5;
		s.waits = w5;
		if (rc == SIBT_OK)
			rc = sibt_writer_add(w, &s, NULL);
	}
	if (rc != SIBT_OK)
		TEST_FAIL("writer: %s", sibt_writer_errmsg(w));
	assertEqualInt(sibt_writer_close(w), SIBT_OK);

	run_check(path, 7, 0, &r);
	/* Per PE: 280 awaited on the wrong PE, 280 twice, 280 by none. */
	assertEqualInt(r.rc, (long)MB_NPES * 3 * MB_PER_SEB);
	assertEqualInt(r.nreports, 7);
	assertContains(r.text, "message 0:2 is awaited twice: by PE 1 SEB 4 "
		       "and PE 1 SEB 5\n");
	assertContains(r.text, "message 0:26 is awaited twice: by PE 1 SEB 4 "
		       "and PE 1 SEB 5\n");
	assertEqualString(r.last_phase, "locating message problems");
	run_check(path, 0, 1, &r);          /* default: 20 */
	assertEqualInt(r.rc, (long)MB_NPES * 3 * MB_PER_SEB);
	assertEqualInt(r.nreports, 20);
}

/*
 * Cycles.  A trace whose SEBs all follow their predecessor is searched by
 * running each PE in order; one with explicit predecessor lists falls back
 * to Kahn's algorithm when that stalls (test_cycle_chain, test_kahn_*).
 */

/* ----------------------------------------------------------------- cycles */

static void test_cycle2(void)
{
	builder b;
	result r;
	tseb *s;

	/* Each PE waits for the other before it sends. */
	b_init(&b, "cycle2", 2);
	s = b_seb(&b, 0);
	b_wait(s, 1, 0);
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	b_send(s, 0, 8, 0);
	s = b_seb(&b, 1);                 /* blocked behind the cycle */
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 0 waits for message "
		       "1:0 sent by PE 1 SEB 0, which waits for message 0:0 "
		       "sent by PE 0 SEB 0");
	assertContains(r.text, "3 of 3 SEBs can never run");

	/* The cycle search can be skipped. */
	run_check(b.path, 0, 1, &r);
	assertEqualInt(r.rc, 0);
}

static void test_cycle3(void)
{
	builder b;
	result r;
	uint32_t p;
	tseb *s;

	/* PE p: SEB 0 free, SEB 1 waits for PE p-1, SEB 2 sends to p+1;
	 * PE 3 is not involved and runs. */
	b_init(&b, "cycle3", 4);
	for (p = 0; p < 3; p++) {
		b_seb(&b, p);
		s = b_seb(&b, p);
		b_wait(s, (p + 2) % 3, 0);
		s = b_seb(&b, p);
		b_send(s, (p + 1) % 3, 8, 0);
	}
	b_seb(&b, 3);
	b_seb(&b, 3);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 1 waits for message "
		       "2:0 sent by PE 2 SEB 2, which follows PE 2 SEB 1, "
		       "which waits for message 1:0 sent by PE 1 SEB 2, which "
		       "follows PE 1 SEB 1, which waits for message 0:0 sent "
		       "by PE 0 SEB 2, which follows PE 0 SEB 1;");
	assertContains(r.text, "6 of 11 SEBs can never run");
}

/* A cycle through an explicit predecessor and a chain of default ones. */
static void test_cycle_chain(void)
{
	builder b;
	result r;
	tseb *s;
	int i;

	b_init(&b, "cycle-chain", 2);
	b.window = 2;
	b_seb(&b, 0);                      /* PE 0 SEB 0 runs */
	s = b_seb(&b, 0);                  /* SEB 1 waits for 1:0 */
	b_wait(s, 1, 0);
	for (i = 2; i < 6; i++)
		b_seb(&b, 0);
	s = b_seb(&b, 0);                  /* SEB 6 sends 0:0 */
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);                  /* PE 1 SEB 0: free */
	s = b_seb(&b, 1);                  /* SEB 1 needs only SEB 0 ... */
	b_pred(s, 0);
	b_wait(s, 0, 0);                   /* ... and 0:0 */
	s = b_seb(&b, 1);
	b_explicit(s);                     /* SEB 2 starts afresh */
	s = b_seb(&b, 1);
	b_pred(s, 1);                      /* SEB 3 after SEB 1 */
	b_send(s, 0, 8, 0);                /* sends 1:0 */
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 1 waits for message "
		       "1:0 sent by PE 1 SEB 3, which follows PE 1 SEB 1, "
		       "which waits for message 0:0 sent by PE 0 SEB 6, which "
		       "follows PE 0 SEB 1 (through SEBs 2-5);");
	assertContains(r.text, "8 of 11 SEBs can never run");
}

/* The first SEB that never ran is not on the cycle, only behind it: the
 * report starts where the cycle does. */
static void test_cycle_behind(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "cycle-behind", 3);
	s = b_seb(&b, 0);
	b_wait(s, 1, 1);
	s = b_seb(&b, 1);
	b_wait(s, 2, 0);
	b_send(s, 2, 8, 0);
	b_send(s, 0, 8, 0);
	s = b_seb(&b, 2);
	b_wait(s, 1, 0);
	b_send(s, 1, 8, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 1 SEB 0 waits for message "
		       "2:0 sent by PE 2 SEB 0, which waits for message 1:0 "
		       "sent by PE 1 SEB 0; 3 of 3 SEBs can never run");
}

/* A cycle through 40 PEs is reported in part. */
static void test_cycle_long(void)
{
	builder b;
	result r;
	uint32_t p, n = 40;
	tseb *s;

	b_init(&b, "cycle-long", n);
	for (p = 0; p < n; p++) {
		s = b_seb(&b, p);
		b_wait(s, (p + n - 1) % n, 0);
		b_send(s, (p + 1) % n, 8, 0);
	}
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 0 waits for message "
		       "39:0 sent by PE 39 SEB 0, which waits for message "
		       "38:0");
	assertContains(r.text, "which waits for message 28:0 sent by PE 28 "
		       "SEB 0, and so on through 28 more dependencies back to "
		       "PE 0 SEB 0; 40 of 40 SEBs can never run");
}

/* In order, across windows: the stalled PE's next SEB is far from the
 * SEB that would send; the walk crosses the run in one step. */
static void test_cycle_in_order_windows(void)
{
	builder b;
	result r;
	tseb *s;
	int i;

	b_init(&b, "cycle-windows", 3);
	b.window = 2;
	b_seb(&b, 2);                      /* PE 2 runs through */
	b_seb(&b, 2);
	b_seb(&b, 0);                      /* PE 0 SEB 0 runs */
	s = b_seb(&b, 0);                  /* SEB 1 waits for 1:0 */
	b_wait(s, 1, 0);
	for (i = 2; i < 7; i++)
		b_seb(&b, 0);
	s = b_seb(&b, 0);                  /* SEB 7 sends 0:0 */
	b_send(s, 1, 8, 0);
	for (i = 0; i < 3; i++)
		b_seb(&b, 1);
	s = b_seb(&b, 1);                  /* PE 1 SEB 3 waits for 0:0 */
	b_wait(s, 0, 0);
	b_seb(&b, 1);
	s = b_seb(&b, 1);                  /* SEB 5 sends 1:0 */
	b_send(s, 0, 8, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 1 waits for message "
		       "1:0 sent by PE 1 SEB 5, which follows PE 1 SEB 3 "
		       "(through SEBs 4-4), which waits for message 0:0 sent "
		       "by PE 0 SEB 7, which follows PE 0 SEB 1 (through SEBs "
		       "2-6); 10 of 16 SEBs can never run");
	assertEqualString(r.last_phase, "searching for cycles");
}

/*
 * With explicit predecessors, running each PE in order can stall where
 * another order gets through: PE 0 SEB 1 starts a chain of its own and
 * sends what PE 1 waits for, whose answer PE 0 SEB 0 awaits.  Valid.
 */
static void test_kahn_not_a_cycle(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "kahn-valid", 2);
	s = b_seb(&b, 0);
	b_wait(s, 1, 0);
	s = b_seb(&b, 0);
	b_explicit(s);                     /* no predecessor */
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	b_send(s, 0, 8, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 0);
	assertEqualString(r.text, "");
	assertEqualString(r.last_phase, "searching for cycles");

	/* The same with SEB 1 after SEB 0 is a cycle, found in order. */
	b_init(&b, "kahn-valid-chain", 2);
	s = b_seb(&b, 0);
	b_wait(s, 1, 0);
	s = b_seb(&b, 0);
	b_send(s, 1, 8, 0);
	s = b_seb(&b, 1);
	b_wait(s, 0, 0);
	b_send(s, 0, 8, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 0 waits for message "
		       "1:0 sent by PE 1 SEB 0, which waits for message 0:0 "
		       "sent by PE 0 SEB 1, which follows PE 0 SEB 0; 3 of 3 "
		       "SEBs can never run");
}

/* A cycle in a trace with explicit predecessors, through one of them:
 * Kahn's algorithm over the full graph finds and reports it. */
static void test_kahn_cycle(void)
{
	builder b;
	result r;
	tseb *s;

	b_init(&b, "kahn-cycle", 3);
	b.window = 2;
	s = b_seb(&b, 0);                  /* PE 0 SEB 0: free, sends 0:0 */
	b_explicit(s);
	b_send(s, 2, 8, 0);
	s = b_seb(&b, 0);                  /* SEB 1 starts afresh */
	b_explicit(s);
	b_wait(s, 1, 0);
	s = b_seb(&b, 0);                  /* SEB 2 after SEB 1 only */
	b_pred(s, 1);
	b_send(s, 1, 8, 0);                /* 0:1 */
	s = b_seb(&b, 1);                  /* PE 1 SEB 0 waits for 0:1 */
	b_wait(s, 0, 1);
	b_send(s, 0, 8, 0);                /* 1:0 */
	s = b_seb(&b, 2);
	b_wait(s, 0, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "dependency cycle: PE 0 SEB 1 waits for message "
		       "1:0 sent by PE 1 SEB 0, which waits for message 0:1 "
		       "sent by PE 0 SEB 2, which follows PE 0 SEB 1; 3 of 5 "
		       "SEBs can never run");
}

/*
 * A long pipeline against PE order (PE p waits for p+1, which starts
 * later), many PEs and iterations, small windows: every PE stops and
 * resumes many times.  Valid; then with the last PE waiting for the first
 * one's last message, a cycle through all of them.
 */
static void build_pipeline(builder *b, uint32_t iters, int close_ring)
{
	uint32_t k, p, n = b->npes;
	tseb *s;

	for (k = 0; k < iters; k++) {
		for (p = 0; p < n; p++) {
			s = b_seb(b, p);
			if (p + 1 < n)
				b_wait(s, p + 1, k);
			else if (close_ring && k == iters - 1)
				b_wait(s, 0, k);
			if (p > 0)
				b_send(s, p - 1, 8, (int32_t)k);
			else
				b_send(s, n - 1, 8, (int32_t)k);
			b_seb(b, p);
		}
	}
	/* PE n-1 awaits all of PE 0's messages but the one it waits for
	 * above: in its last SEB. */
	s = b_seb(b, n - 1);
	for (k = 0; k + (close_ring ? 1 : 0) < iters; k++)
		b_wait(s, 0, k);
}

static void test_pipeline(void)
{
	builder b;
	result r;

	b_init(&b, "pipeline", 200);
	b.window = 3;
	build_pipeline(&b, 8, 0);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 0);
	assertEqualString(r.text, "");

	b_init(&b, "pipeline-ring", 200);
	b.window = 3;
	build_pipeline(&b, 8, 1);
	assertEqualInt(b_write(&b), 0);
	CHECK(b.path, &r);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "and so on through");
	assertContains(r.text, "of 3201 SEBs can never run");
}

/* ------------------------------------------------------------ damage */

static int flip_byte(const char *path, uint64_t off)
{
	unsigned char c;
	int fd = open(path, O_RDWR);
	int ok;

	if (fd < 0)
		return -1;
	ok = pread(fd, &c, 1, (off_t)off) == 1;
	c ^= 0x5a;
	ok = ok && pwrite(fd, &c, 1, (off_t)off) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* Where the frame of window wi ends: where the next window of its file
 * starts (the test's traces have one strings frame, before all windows). */
static uint64_t frame_end(const sibt_trace *t, const sibt_window_info *wi)
{
	uint64_t end = UINT64_MAX, w, nw;
	sibt_window_info x;
	uint32_t pe;

	for (pe = 0; pe < sibt_trace_npes(t); pe++) {
		nw = sibt_trace_nwindows(t, pe);
		for (w = 0; w < nw; w++)
			if (sibt_trace_window_info(t, pe, w, &x) == SIBT_OK &&
			    x.file == wi->file && x.offset > wi->offset &&
			    x.offset < end)
				end = x.offset;
	}
	return end;
}

static void test_corrupt_window(void)
{
	char err[512] = "";
	builder b;
	result r;
	sibt_trace *t = NULL;
	sibt_window_info wi;
	char path[4096];
	uint64_t end;
	int rc;

	b_init(&b, "corrupt", 4);
	b.window = 3;
	build_halo(&b, 6, 0);
	assertEqualInt(b_write(&b), 0);

	rc = sibt_trace_open(&t, b.path, 0, err, sizeof(err));
	assertEqualInt(rc, SIBT_OK);
	if (rc != SIBT_OK)
		return;
	assertEqualInt(sibt_trace_window_info(t, 2, 1, &wi), SIBT_OK);
	snprintf(path, sizeof(path), "%s", sibt_trace_file_path(t, wi.file));
	end = frame_end(t, &wi);
	sibt_trace_close(t);
	assertTrue(wi.stored_len > 4);
	assertTrue(end > wi.offset + wi.stored_len);
	/* The payload ends the frame, whatever the header's size. */
	assertEqualInt(flip_byte(path, end - wi.stored_len / 2), 0);

	CHECK(b.path, &r);
	/* Only the window: its lost messages are not blamed on others. */
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "PE 2 window 1 (SEBs 3-5) cannot be read");
	assertContains(r.text, "checksum");
}

/* A cut-off data file: the damage is one problem, its consequences (lost
 * sends and waits of its PEs) are not reported again. */
static void test_truncated(void)
{
	char err[512] = "", dpath[4096];
	builder b;
	result r;
	sibt_trace *t = NULL;
	sibt_window_info wi;
	int rc;

	b_init(&b, "truncated", 4);
	b.window = 2;
	b.nprocs = 2;
	build_halo(&b, 6, 0);
	assertEqualInt(b_write(&b), 0);

	rc = sibt_trace_open(&t, b.path, 0, err, sizeof(err));
	assertEqualInt(rc, SIBT_OK);
	if (rc != SIBT_OK)
		return;
	/* Cut file 1 (PEs 2-3) in the middle of PE 3's window 3. */
	assertEqualInt(sibt_trace_window_info(t, 3, 3, &wi), SIBT_OK);
	assertEqualInt(wi.file, 1);
	snprintf(dpath, sizeof(dpath), "%s", sibt_trace_file_path(t, 1));
	sibt_trace_close(t);
	assertEqualInt(truncate(dpath, (off_t)(wi.offset + 20)), 0);

	CHECK(b.path, &r);
	assertEqualInt(r.open_rc, SIBT_WARN);
	assertEqualInt(r.rc, 1);
	assertContains(r.text, "damaged data file");
	assertContains(r.text, "proc-000001.sdat");
}

int main(void)
{
	tmp = test_tmpdir("test_check");
	test_clean();
	test_explicit_preds();
	test_random_valid();
	test_unawaited();
	test_never_sent();
	test_awaited_twice();
	test_wrong_pe();
	test_pe_out_of_range();
	test_bad_pred();
	test_max_problems();
	test_many_bad_pes();
	test_cycle2();
	test_cycle3();
	test_cycle_chain();
	test_cycle_behind();
	test_cycle_long();
	test_cycle_in_order_windows();
	test_kahn_not_a_cycle();
	test_kahn_cycle();
	test_pipeline();
	test_corrupt_window();
	test_truncated();
	return TEST_EXIT();
}
