/*
 * test_ult.c -- tests of the ULT library (ult.h) on the back-end it was
 * built with: scheduling, return to the caller, floating-point control
 * state, deep recursion, ult_stack_used(), both overflow detectors (in
 * forked children) and a pool of 65,536 small stacks.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "sibtest.h"
#include "ult.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define KIB 1024
#define NOINLINE __attribute__((noinline))

/*
 * Frames that must be on the ULT's own stack: with ASan's
 * detect_stack_use_after_return, instrumented frames live elsewhere.
 */
#if UNDER_ASAN
#define REAL_STACK __attribute__((no_sanitize_address))
#else
#define REAL_STACK
#endif

static char err[512];

static int pool_up(size_t nslots, size_t stack, int guard, ult_overflow_fn fn)
{
	ult_pool_opts o = { .nslots = nslots, .stack_size = stack,
			    .guard = guard, .overflow = fn };

	err[0] = '\0';
	return ult_pool_init(&o, err, sizeof err);
}

/* ---- scheduler ping-pong -------------------------------------------- */

#define PP_N		1000
#define PP_ROUNDS	50

struct pp {
	ult *u;
	long id;
	long count;
	int bad_self;
};

static void pp_fn(void *arg)
{
	struct pp *p = arg;

	for (int r = 0; r < PP_ROUNDS; r++) {
		if (ult_self() != p->u)
			p->bad_self++;
		p->count += p->id;
		ult_switch(ult_main());
	}
}

static void test_pingpong(void)
{
	static struct pp pp[PP_N];
	int alive = PP_N, order_bad = 0;

	for (int i = 0; i < PP_N; i++) {
		pp[i] = (struct pp){ .id = i + 1 };
		pp[i].u = ult_create((size_t)i, pp_fn, &pp[i]);
		assertTrue(pp[i].u != NULL);
		if (!pp[i].u)
			return;
		assertEqualInt(ult_slot(pp[i].u), i);
		assertEqualInt(ult_finished(pp[i].u), 0);
	}
	for (int r = 0; alive; r++) {
		for (int i = 0; i < PP_N; i++) {
			if (!pp[i].u)
				continue;
			ult_switch(pp[i].u);
			assertTrue(ult_self() == ult_main());
			if (ult_finished(pp[i].u)) {
				ult_check(pp[i].u);
				ult_destroy(pp[i].u);
				pp[i].u = NULL;
				alive--;
			} else if (pp[i].count != (r + 1) * pp[i].id) {
				order_bad++;
			}
		}
	}
	assertEqualInt(order_bad, 0);
	for (int i = 0; i < PP_N; i++) {
		assertEqualInt(pp[i].count, PP_ROUNDS * pp[i].id);
		assertEqualInt(pp[i].bad_self, 0);
	}
}

/* ---- ULT to ULT: a ring, then a chain of returns ---------------------- */

#define RING_N		100
#define RING_ROUNDS	20

static ult *ring[RING_N];
static long token;
static int ring_bad;

static void ring_fn(void *arg)
{
	long i = (long)(intptr_t)arg;

	for (int r = 0; r < RING_ROUNDS; r++) {
		if (token != (long)r * RING_N + i)
			ring_bad++;
		token++;
		if (r == RING_ROUNDS - 1 && i == RING_N - 1)
			ult_switch(ult_main());
		else
			ult_switch(ring[(i + 1) % RING_N]);
	}
}

static ult *chain[8];
static char chain_log[17];
static size_t chain_len;

static void chain_fn(void *arg)
{
	long i = (long)(intptr_t)arg;

	chain_log[chain_len++] = (char)('a' + i);
	if (i + 1 < 8)
		ult_switch(chain[i + 1]);	/* returns when it finishes */
	chain_log[chain_len++] = (char)('A' + i);
}

static void test_ult_to_ult(void)
{
	for (long i = 0; i < RING_N; i++) {
		ring[i] = ult_create((size_t)i, ring_fn, (void *)(intptr_t)i);
		assertTrue(ring[i] != NULL);
		if (!ring[i])
			return;
	}
	token = 0;
	ult_switch(ring[0]);
	assertEqualInt(token, (long)RING_N * RING_ROUNDS);
	assertEqualInt(ring_bad, 0);
	/* Each is parked in its last switch; let every one return to us. */
	for (int i = 0; i < RING_N; i++) {
		assertEqualInt(ult_finished(ring[i]), 0);
		ult_switch(ring[i]);
		assertEqualInt(ult_finished(ring[i]), 1);
		ult_destroy(ring[i]);
	}

	chain_len = 0;
	for (long i = 0; i < 8; i++)
		chain[i] = ult_create((size_t)(10 + i), chain_fn,
				      (void *)(intptr_t)i);
	ult_switch(chain[0]);
	chain_log[chain_len] = '\0';
	assertEqualString(chain_log, "abcdefghHGFEDCBA");
	for (int i = 0; i < 8; i++) {
		assertEqualInt(ult_finished(chain[i]), 1);
		ult_destroy(chain[i]);
	}
}

/* ---- floating-point control state ------------------------------------ */

/*
 * Set straight in the control registers (no <fenv.h>: no -lm needed).
 * MXCSR.RC and the x87 RC use 0 nearest, 1 down, 2 up, 3 toward zero.
 */
enum { RND_NEAREST, RND_DOWN, RND_UP, RND_ZERO };

struct fpstate {
	unsigned ctl;		/* MXCSR control bits, or FPCR */
	unsigned x87;		/* x87 control word */
};

#if defined(__x86_64__)
static unsigned read_ctl(void)
{
	return _mm_getcsr() & 0xffc0;	/* control bits, not the flags */
}

static unsigned read_x87(void)
{
	unsigned short cw;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	return cw;
}

static void write_x87(unsigned v)
{
	unsigned short cw = (unsigned short)v;

	__asm__ volatile("fldcw %0" : : "m"(cw));
}

static void set_round(int mode)
{
	_mm_setcsr((_mm_getcsr() & ~0x6000u) | (unsigned)mode << 13);
	write_x87((read_x87() & ~0xc00u) | (unsigned)mode << 10);
}

static int get_round(void)
{
	return (int)(_mm_getcsr() >> 13 & 3);
}

/* Flush-to-zero, and x87 precision cut to single: rounding aside. */
static void set_other(void)
{
	_mm_setcsr(_mm_getcsr() | 0x8000);
	write_x87(read_x87() & ~0x300u);
}
#elif defined(__aarch64__)
static unsigned read_ctl(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, fpcr" : "=r"(v));
	return (unsigned)v;
}

static void write_ctl(unsigned v)
{
	uint64_t w = v;

	__asm__ volatile("msr fpcr, %0" : : "r"(w));
}

static unsigned read_x87(void)
{
	return 0;
}

/* FPCR.RMode: 0 nearest, 1 up, 2 down, 3 toward zero. */
static const unsigned rmode[] = { [RND_NEAREST] = 0, [RND_DOWN] = 2,
				  [RND_UP] = 1, [RND_ZERO] = 3 };

static void set_round(int mode)
{
	write_ctl((read_ctl() & ~(3u << 22)) | rmode[mode] << 22);
}

static int get_round(void)
{
	unsigned m = read_ctl() >> 22 & 3;

	for (int i = 0; i < 4; i++)
		if (rmode[i] == m)
			return i;
	return -1;
}

static void set_other(void)
{
	write_ctl(read_ctl() | 1u << 24);	/* flush-to-zero */
}
#else
#error "test_ult.c: add this architecture's FP control registers"
#endif

static struct fpstate fp_now(void)
{
	return (struct fpstate){ read_ctl(), read_x87() };
}

static int fp_same(struct fpstate a, struct fpstate b)
{
	return a.ctl == b.ctl && a.x87 == b.x87;
}

static int fp_bad;
static struct fpstate fp_a, fp_b;
static volatile double fp_one = 1.0, fp_three = 3.0, fp_third;

static void fp_fn_a(void *arg)
{
	(void)arg;
	set_round(RND_UP);
	set_other();
	fp_a = fp_now();
	ult_switch(ult_main());
	if (!fp_same(fp_now(), fp_a))
		fp_bad |= 1;
	/* Upward rounding really in effect: 1/3 rounds above 0.333... */
	fp_third = fp_one / fp_three;
	ult_switch(ult_main());
	if (!fp_same(fp_now(), fp_a))
		fp_bad |= 2;
}

static void fp_fn_b(void *arg)
{
	struct fpstate *start = arg;

	if (!fp_same(fp_now(), *start))
		fp_bad |= 4;
	set_round(RND_DOWN);
	fp_b = fp_now();
	ult_switch(ult_main());
	if (!fp_same(fp_now(), fp_b))
		fp_bad |= 8;
}

static void fp_fn_c(void *arg)
{
	if (get_round() != RND_ZERO)
		fp_bad |= 16;
	(void)arg;
}

static void test_fp(void)
{
	struct fpstate m = fp_now();
	double up, down;
	ult *a, *b, *c;

	a = ult_create(20, fp_fn_a, NULL);
	b = ult_create(21, fp_fn_b, &m);
	/* A new ULT starts with its creator's settings. */
	set_round(RND_ZERO);
	c = ult_create(22, fp_fn_c, NULL);
	set_round(RND_NEAREST);
	if (!a || !b || !c) {
		TEST_FAIL("ult_create failed");
		return;
	}

	ult_switch(a);
	assertTrue(fp_same(fp_now(), m));
	ult_switch(b);
	assertTrue(fp_same(fp_now(), m));
	ult_switch(a);
	assertTrue(fp_same(fp_now(), m));
	ult_switch(b);
	ult_switch(a);
	ult_switch(c);
	assertTrue(fp_same(fp_now(), m));
	assertEqualInt(fp_bad, 0);
	assertEqualInt(get_round(), RND_NEAREST);

	set_round(RND_DOWN);
	down = fp_one / fp_three;
	set_round(RND_NEAREST);
	up = fp_third;
	assertTrue(up > down);
	(void)up;
	for (ult **u = (ult *[]){ a, b, c, NULL }; *u; u++) {
		assertEqualInt(ult_finished(*u), 1);
		ult_destroy(*u);
	}
}

/* ---- callee-saved registers ------------------------------------------ */

/*
 * Many integers and doubles live across every switch: the compiler keeps
 * them in callee-saved registers (rbx, rbp, r12-r15; x19-x28, d8-d15),
 * which two ULTs running the same loop with other values would clobber if
 * a switch lost them.  The reference run yields to a no-op.
 */
struct regs {
	long seed;
	unsigned long isum;
	double dsum;
};

static void no_yield(void)
{
}

static void yield_main(void)
{
	ult_switch(ult_main());
}

static NOINLINE void regs_body(struct regs *r, void (*volatile yield)(void))
{
	unsigned long s = (unsigned long)r->seed;
	unsigned long i0 = s, i1 = 2 * s, i2 = 3 * s, i3 = 5 * s,
		      i4 = 7 * s, i5 = 11 * s, i6 = 13 * s, i7 = 17 * s;
	double d0 = (double)r->seed, d1 = d0 + 0.5, d2 = d0 * 0.25, d3 = d0 - 3,
	       d4 = d0 * 3, d5 = d0 / 7, d6 = d0 + 11, d7 = d0 * 1.5;

	for (unsigned n = 0; n < 64; n++) {
		i0 += i7 ^ n;  i1 += i0;  i2 ^= i1 + n;  i3 += i2 >> 1;
		i4 -= i3;      i5 += i4;  i6 ^= i5;      i7 += i6 + 1;
		d0 = d0 * 0.5 + d7;  d1 = d1 * 0.75 + d0;
		d2 = d2 * 0.5 + d1;  d3 = d3 * 0.25 + d2;
		d4 = d4 * 0.5 + d3;  d5 = d5 * 0.125 + d4;
		d6 = d6 * 0.5 + d5;  d7 = d7 * 0.0625 + d6 + 1;
		yield();
	}
	r->isum = i0 + 3 * i1 + 5 * i2 + 7 * i3 + 11 * i4 + 13 * i5 +
		  17 * i6 + 19 * i7;
	r->dsum = d0 + 3 * d1 + 5 * d2 + 7 * d3 + 11 * d4 + 13 * d5 +
		  17 * d6 + 19 * d7;
}

static void regs_fn(void *arg)
{
	regs_body(arg, yield_main);
}

static void test_regs(void)
{
	struct regs run[2] = { { .seed = 12345 }, { .seed = -987 } };
	struct regs ref[2] = { { .seed = 12345 }, { .seed = -987 } };
	ult *a = ult_create(23, regs_fn, &run[0]);
	ult *b = ult_create(24, regs_fn, &run[1]);

	if (!a || !b) {
		TEST_FAIL("ult_create failed");
		return;
	}
	while (!ult_finished(a) || !ult_finished(b)) {
		if (!ult_finished(a))
			ult_switch(a);
		if (!ult_finished(b))
			ult_switch(b);
	}
	for (int i = 0; i < 2; i++) {
		regs_body(&ref[i], no_yield);
		assertEqualU64(run[i].isum, ref[i].isum);
		assertTrue(run[i].dsum == ref[i].dsum);
	}
	ult_destroy(a);
	ult_destroy(b);
}

/* ---- deep recursion and ult_stack_used -------------------------------- */

#define FRAME 1024

static REAL_STACK NOINLINE long deep(int depth)
{
	volatile char buf[FRAME];

	for (int i = 0; i < FRAME; i++)
		buf[i] = (char)(depth + i + 1);
	if (depth == 0)
		return buf[0];
	return deep(depth - 1) + buf[FRAME - 1];
}

static int deep_depth;
static long deep_result;

static void deep_fn(void *arg)
{
	(void)arg;
	deep_result = deep(deep_depth);
	ult_switch(ult_main());
}

static void small_fn(void *arg)
{
	(void)arg;
	ult_switch(ult_main());
}

static void test_stack(size_t stack)
{
	size_t used, used0, slot = PP_N + 1;
	ult *u;

	/* 60% of the stack in 1 KiB frames. */
	deep_depth = (int)(stack * 6 / 10 / (FRAME + 64));
	assertEqualInt(ult_stack_used(slot), 0);
	u = ult_create(slot, deep_fn, NULL);
	assertTrue(u != NULL);
	if (!u)
		return;
	/* The handle and the first frame (ucontext_t is 4.5 KiB on arm64). */
	used0 = ult_stack_used(slot);
	assertTrue(used0 > 0 && used0 < 8 * KIB);
	ult_switch(u);
	assertTrue(deep_result != 0);
	used = ult_stack_used(slot);
	if (used < (size_t)deep_depth * FRAME || used >= stack)
		TEST_FAIL("ult_stack_used = %zu after %d frames of %d bytes "
			  "in a %zu-byte stack", used, deep_depth, FRAME,
			  stack);
	ult_check(u);
	ult_switch(u);
	assertEqualInt(ult_finished(u), 1);
	ult_destroy(u);
	/* Reusing the slot works; "seen so far" keeps the deep mark. */
	u = ult_create(slot, small_fn, NULL);
	assertTrue(u != NULL);
	if (!u)
		return;
	ult_switch(u);
	ult_switch(u);
	assertEqualInt(ult_finished(u), 1);
	assertTrue(ult_stack_used(slot) >= used);
	ult_destroy(u);

	u = ult_create(slot + 1, small_fn, NULL);
	used0 = ult_stack_used(slot + 1);
	ult_switch(u);
	used = ult_stack_used(slot + 1);
	if (used <= used0 || used - used0 > (UNDER_ASAN ? 16 : 4) * KIB)
		TEST_FAIL("ult_stack_used = %zu, %zu before it ran, for a ULT "
			  "that only yielded", used, used0);
	ult_switch(u);
	ult_destroy(u);
}

/* ---- misuse the API must refuse -------------------------------------- */

static void test_api(size_t nslots)
{
	ult *u = ult_create(40, small_fn, NULL);

	assertTrue(ult_main() != NULL);
	assertTrue(ult_self() == ult_main());
	assertEqualInt(ult_finished(ult_main()), 0);
	assertTrue(ult_slot(ult_main()) == SIZE_MAX);
	assertTrue(u != NULL);
	assertTrue(ult_create(40, small_fn, NULL) == NULL);	/* taken */
	assertTrue(ult_create(nslots, small_fn, NULL) == NULL);
	assertTrue(ult_create(41, NULL, NULL) == NULL);
	ult_switch(ult_main());		/* to self: no-op */
	ult_destroy(u);			/* never started: allowed */
	u = ult_create(40, small_fn, NULL);
	assertTrue(u != NULL);
	ult_destroy(u);
	ult_destroy(NULL);
	assertTrue(!strcmp(ult_backend(), "x86-64 asm") ||
		   !strcmp(ult_backend(), "aarch64 asm") ||
		   !strcmp(ult_backend(), "ucontext"));
	/* A second pool is refused. */
	assertEqualInt(pool_up(4, 64 * KIB, 0, NULL), -1);
	assertContains(err, "already");
}

static void suite(int guard)
{
	const size_t nslots = PP_N + 64, stack = 256 * KIB;

	if (pool_up(nslots, stack, guard, NULL) != 0) {
		TEST_FAIL("ult_pool_init(%zu slots, guard %d): %s", nslots,
			  guard, err);
		return;
	}
	assertEqualString(ult_pool_protection(),
			  guard ? "guard page" : "canary");
	assertTrue(ult_pool_reserved() >= nslots * stack);
	test_api(nslots);
	test_pingpong();
	test_ult_to_ult();
	test_fp();
	test_regs();
	test_stack(stack);
	ult_pool_fini();
}

/* ---- overflow detection, in children -------------------------------- */

static int report_fd = -1;

static void on_overflow(size_t slot, const char *how)
{
	char buf[128];
	int n = snprintf(buf, sizeof buf, "slot=%zu how=%s", slot, how);

	if (write(report_fd, buf, (size_t)n) != n)
		_exit(3);
	_exit(42);
}

static volatile long runaway_limit = LONG_MAX;

static NOINLINE long runaway(long depth)
{
	volatile char buf[512];

	if (depth == runaway_limit)
		return 0;
	buf[0] = (char)depth;
	buf[511] = (char)depth;
	return runaway(depth + 1) + buf[0] + buf[511];
}

static void runaway_fn(void *arg)
{
	(void)arg;
	runaway(0);
}

static const char *overflow_top;
static size_t overflow_stack;

/* Write 2 KiB beyond the low end of the slot, then come back. */
static REAL_STACK NOINLINE long past_end(long depth)
{
	volatile char buf[1024];

	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)0xa5;
	if ((size_t)(overflow_top - (const char *)buf) >=
	    overflow_stack + 2 * KIB)
		return buf[0];
	return past_end(depth + 1) + buf[1023];
}

static void past_end_fn(void *arg)
{
	(void)arg;
	overflow_top = __builtin_frame_address(0);
	past_end(0);
	ult_switch(ult_main());
}

enum { CHILD_GUARD, CHILD_CANARY, CHILD_CANARY_FINISH, CHILD_CRASH };

static void child(int what, int fd)
{
	const size_t stack = 64 * KIB;
	ult *u;

	report_fd = fd;
	overflow_stack = stack;
	if (pool_up(4, stack, what == CHILD_GUARD || what == CHILD_CRASH,
		    on_overflow) != 0) {
		fprintf(stderr, "child: %s\n", err);
		_exit(2);
	}
	switch (what) {
	case CHILD_GUARD:
		u = ult_create(2, runaway_fn, NULL);
		ult_switch(u);
		break;
	case CHILD_CANARY:
		u = ult_create(2, past_end_fn, NULL);
		ult_switch(u);
		ult_check(u);		/* what the runtime does */
		break;
	case CHILD_CANARY_FINISH:
		u = ult_create(2, past_end_fn, NULL);
		ult_switch(u);
		ult_switch(u);		/* returns: checked on the way out */
		break;
	case CHILD_CRASH: {
		volatile int *volatile p = NULL;

		*p = 1;			/* not in the pool: a plain crash */
		break;
	}
	}
	_exit(1);			/* nothing detected */
}

static void run_child(int what, const char *name, const char *expect)
{
	int fds[2], status;
	char msg[256];
	ssize_t n;
	pid_t pid;

	if (pipe(fds) != 0) {
		TEST_FAIL("pipe");
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		TEST_FAIL("fork");
		return;
	}
	if (pid == 0) {
		struct rlimit nocore = { 0, 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		close(fds[0]);
		if (what == CHILD_CRASH && !freopen("/dev/null", "w", stderr))
			_exit(2);
		child(what, fds[1]);
	}
	close(fds[1]);
	n = read(fds[0], msg, sizeof msg - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);

	if (!expect) {
		/* Our handler must pass it on: default action, or ASan's. */
		if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) &&
		    !(UNDER_ASAN && WIFEXITED(status) &&
		      WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 42))
			TEST_FAIL("%s: status 0x%x, expected a SIGSEGV death",
				  name, status);
		assertEqualString(msg, "");
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 42)
		TEST_FAIL("%s: child status 0x%x, expected exit 42 from the "
			  "overflow callback", name, status);
	if (strcmp(msg, expect))
		TEST_FAIL("%s: callback got \"%s\", expected \"%s\"", name,
			  msg, expect);
}

/* ---- 65,536 small stacks --------------------------------------------- */

static void count_fn(void *arg)
{
	long *n = arg;

	++*n;
	ult_switch(ult_main());
	++*n;
}

static void test_many(void)
{
	const size_t n = 65536, stack = 64 * KIB;
	long limit = 65530, count = 0;
	size_t need_margin = 1000;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	ult **u;
	int fits;

	if (f) {
		if (fscanf(f, "%ld", &limit) != 1)
			limit = 65530;
		fclose(f);
	}
	fits = 2 * n + need_margin < (size_t)limit;

	/* Guard pages demanded: refused unless the limit allows them. */
	if (fits) {
		assertEqualInt(pool_up(n, stack, 1, NULL), 0);
		assertEqualString(ult_pool_protection(), "guard page");
		ult_pool_fini();
	} else {
		assertEqualInt(pool_up(n, stack, 1, NULL), -1);
		assertContains(err, "vm.max_map_count");
	}
	/* Guard pages when they fit: falls back to the canary. */
	assertEqualInt(pool_up(n, stack, -1, NULL), 0);
	assertEqualString(ult_pool_protection(),
			  fits ? "guard page" : "canary");
	ult_pool_fini();

	if (pool_up(n, stack, 0, NULL) != 0) {
		TEST_FAIL("65,536 stacks of 64 KiB, canary: %s", err);
		return;
	}
	assertEqualString(ult_pool_protection(), "canary");
	assertEqualU64(ult_pool_reserved(), n * stack);
	u = calloc(n, sizeof *u);
	for (size_t i = 0; i < n; i++) {
		u[i] = ult_create(i, count_fn, &count);
		if (!u[i]) {
			TEST_FAIL("ult_create(slot %zu) failed", i);
			goto out;
		}
	}
	for (size_t i = 0; i < n; i++)
		ult_switch(u[i]);
	assertEqualInt(count, (long)n);
	for (size_t i = 0; i < n; i++) {
		ult_switch(u[i]);
		ult_check(u[i]);
		if (!ult_finished(u[i])) {
			TEST_FAIL("ULT %zu did not finish", i);
			break;
		}
		ult_destroy(u[i]);
	}
	assertEqualInt(count, 2 * (long)n);
out:
	free(u);
	ult_pool_fini();
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("test_ult: back-end %s%s\n", ult_backend(),
	       UNDER_ASAN ? " (ASan)" : "");

	printf("suite with guard pages\n");
	suite(1);
	printf("suite with canaries\n");
	suite(0);

	printf("overflow detection\n");
	run_child(CHILD_GUARD, "guard page", "slot=2 how=guard page");
	run_child(CHILD_CANARY, "canary, ult_check", "slot=2 how=canary");
	run_child(CHILD_CANARY_FINISH, "canary, on return",
		  "slot=2 how=canary");
	run_child(CHILD_CRASH, "unrelated SIGSEGV", NULL);

	printf("65,536 ULTs\n");
	test_many();

	/* An oversized pool says how much it asked for. */
	assertEqualInt(pool_up((size_t)1 << 27, 1 << 20, 0, NULL), -1);
	assertContains(err, "128.0 TiB");
	return TEST_EXIT();
}
