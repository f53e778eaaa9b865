/*
 * ult.c -- user-level threads: the stack pool, creation, switching and
 * overflow detection.  The register save/restore is the back-end's
 * (ult_ctx.h); everything here is common to all back-ends.
 *
 * Slot layout (addresses grow upwards; one slot per ULT):
 *
 *	[guard page] [canary | stack ........... | struct ult]
 *	 guard mode   canary mode                  top of the slot
 *
 * The ULT's handle lives at the top of its own slot: creating a ULT
 * allocates nothing, and an idle ULT costs only the stack pages it touched
 * -- one page in guard mode, two with a canary (the canary's page at the
 * low end is written at creation).
 *
 * A guard page catches a stack that grows into it; a single frame larger
 * than a page can jump over it (and over a canary) into the slot below.
 * Code run on ULTs may be built with -fstack-clash-protection against that.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ult.h"
#include "ult_ctx.h"

#if defined(__SANITIZE_ADDRESS__)
#define ULT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ULT_ASAN 1
#endif
#endif
#ifndef ULT_ASAN
#define ULT_ASAN 0
#endif

#if ULT_ASAN
#include <sanitizer/common_interface_defs.h>
/* Reads of other ULTs' stacks (canary, scan) would hit their redzones. */
#define ULT_NO_ASAN __attribute__((no_sanitize_address, noinline))
#else
#define ULT_NO_ASAN
#endif

#define ULT_MAGIC	0x554c5421u	/* "ULT!": a live handle */
#define ULT_DEAD	0x44454144u	/* "DEAD": destroyed */
#define CANARY_BYTES	64
#define CANARY_WORDS	(CANARY_BYTES / sizeof(uint64_t))
#define MAPS_MARGIN	1000		/* mappings left for everything else */
#define MIN_STACK	(8 * 1024)
#define ALTSTACK_SIZE	(64 * 1024)

enum ult_state { ULT_NEW, ULT_STARTED, ULT_FINISHED };

struct ult {
	ult_ctx ctx;
	struct ult *caller;	/* resumed when fn returns */
	ult_fn fn;
	void *arg;
	size_t slot;
	uint32_t magic;
	enum ult_state state;
#if ULT_ASAN
	void *fake_stack;
	const void *stack_lo;
	size_t stack_size;
#endif
};

/* sizeof(struct ult) rounded up to a cache line: the top of each slot. */
#define ULT_HANDLE_SIZE ((sizeof(struct ult) + 63) & ~(size_t)63)

/*
 * The library's state, all of it.  ult is a library of its own (the
 * emulator, tests/test_ult and bench_ult link it), below the emulator's
 * process state, so it keeps its own, in this one struct: the stack pool,
 * the scheduler's own thread and the running one.
 */
static struct {
	struct {
		char *base;	/* the one mapping; NULL before init */
		size_t len;
		size_t nslots;
		size_t slot_size; /* guard page (if any) + stack */
		size_t page;
		int guard;
		ult_overflow_fn overflow;
		void *altstack;	/* guard mode: SIGSEGV handler's stack */
		stack_t old_altstack;
		struct sigaction old_segv;
	} pool;
	struct ult main_ult;	/* the thread that called ult_pool_init */
	struct ult *cur;	/* the running thread */
} lib = {
	.main_ult = { .magic = ULT_MAGIC, .state = ULT_STARTED,
		      .slot = SIZE_MAX },
	.cur = &lib.main_ult,
};

static const uint64_t canary[CANARY_WORDS] = {
	0x534942594c554c54ull, 0x0f1e2d3c4b5a6978ull,
	0xc3d2e1f0bcad9e8full, 0x5eed5eed5eed5eedull,
	0x123456789abcdef0ull, 0xfedcba9876543210ull,
	0x0badc0de0badc0deull, 0x53494259434e5259ull,
};

#define ULT_FATAL(...) ult_fatal(__FILE__, __LINE__, __VA_ARGS__)
#define ULT_CHECK(cond, ...) do { \
	if (__builtin_expect(!(cond), 0)) ULT_FATAL(__VA_ARGS__); } while (0)

static void ult_fatal(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

static void ult_fatal(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sibyl: %s:%d: internal error: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void seterr(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* "1.5 GiB" and the like, for error messages. */
static const char *human(size_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
					    "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = 0;

	while (v >= 1024 && i < 6) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%zu bytes", bytes);
	else
		snprintf(buf, len, "%.1f %s", v, unit[i]);
	return buf;
}

static char *slot_base(size_t slot)
{
	return lib.pool.base + slot * lib.pool.slot_size;
}

/* Lowest usable stack byte (the canary's first byte in canary mode). */
static char *slot_stack_lo(size_t slot)
{
	return slot_base(slot) + (lib.pool.guard ? lib.pool.page : 0);
}

static struct ult *slot_ult(size_t slot)
{
	return (struct ult *)(slot_base(slot) + lib.pool.slot_size -
			      ULT_HANDLE_SIZE);
}

/* ---- overflow reporting ------------------------------------------- */

/* Signal-safe: the guard-page report runs in the SIGSEGV handler. */
static void write_str(const char *s)
{
	ssize_t r = write(STDERR_FILENO, s, strlen(s));
	(void)r;
}

static void write_size(size_t v)
{
	char buf[24];
	char *p = buf + sizeof buf;

	*--p = '\0';
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	write_str(p);
}

static void report_overflow(size_t slot, const char *how)
	__attribute__((noreturn));

static void report_overflow(size_t slot, const char *how)
{
	if (lib.pool.overflow) {
		lib.pool.overflow(slot, how);
		write_str("sibyl: ULT overflow callback returned\n");
	} else {
		write_str("sibyl: stack overflow in user-level thread (slot ");
		write_size(slot);
		write_str(", detected by ");
		write_str(how);
		write_str(")\n");
	}
	abort();
}

static void segv_handler(int sig, siginfo_t *si, void *uctx)
{
	uintptr_t off = (uintptr_t)si->si_addr - (uintptr_t)lib.pool.base;
	struct sigaction dfl;

	if (si->si_code > 0 && lib.pool.base && off < lib.pool.len &&
	    off % lib.pool.slot_size < lib.pool.page)
		report_overflow(off / lib.pool.slot_size, "guard page");

	/* Not a stack overflow: whoever handled SIGSEGV before us decides. */
	if (lib.pool.old_segv.sa_flags & SA_SIGINFO) {
		lib.pool.old_segv.sa_sigaction(sig, si, uctx);
		return;
	}
	if (lib.pool.old_segv.sa_handler != SIG_DFL &&
	    lib.pool.old_segv.sa_handler != SIG_IGN) {
		lib.pool.old_segv.sa_handler(sig);
		return;
	}
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/* A fault repeats when we return; a sent signal has to be re-sent. */
	if (si->si_code <= 0)
		raise(sig);
}

static int install_segv_handler(char *errbuf, size_t errlen)
{
	struct sigaction sa;
	stack_t ss;

	lib.pool.altstack = mmap(NULL, ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (lib.pool.altstack == MAP_FAILED) {
		lib.pool.altstack = NULL;
		seterr(errbuf, errlen, "cannot allocate the signal stack "
		       "for stack-overflow detection: %s", strerror(errno));
		return -1;
	}
	ss.ss_sp = lib.pool.altstack;
	ss.ss_size = ALTSTACK_SIZE;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, &lib.pool.old_altstack) != 0) {
		seterr(errbuf, errlen, "sigaltstack: %s", strerror(errno));
		goto out_with_altstack;
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &lib.pool.old_segv) != 0) {
		seterr(errbuf, errlen, "sigaction(SIGSEGV): %s",
		       strerror(errno));
		goto out_with_sigaltstack;
	}
	return 0;

out_with_sigaltstack:
	sigaltstack(&lib.pool.old_altstack, NULL);
out_with_altstack:
	munmap(lib.pool.altstack, ALTSTACK_SIZE);
	lib.pool.altstack = NULL;
	return -1;
}

static void remove_segv_handler(void)
{
	if (!lib.pool.altstack)
		return;
	sigaction(SIGSEGV, &lib.pool.old_segv, NULL);
	sigaltstack(&lib.pool.old_altstack, NULL);
	munmap(lib.pool.altstack, ALTSTACK_SIZE);
	lib.pool.altstack = NULL;
}

/* ---- pool ----------------------------------------------------------- */

static long read_max_map_count(void)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	long v = 65530;		/* the kernel's default */

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = 65530;
		fclose(f);
	}
	return v;
}

static size_t count_mappings(void)
{
	char buf[8192];
	size_t n = 0;
	ssize_t r;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof buf)) > 0)
		for (ssize_t i = 0; i < r; i++)
			n += buf[i] == '\n';
	close(fd);
	return n;
}

/* Reserve the slots; with guard pages, protect the lowest page of each. */
static int map_pool(size_t nslots, size_t stack, int guard,
		    char *errbuf, size_t errlen)
{
	char h1[32], h2[32];
	size_t slot_size = stack + (guard ? lib.pool.page : 0);
	size_t len;
	void *p;

	if (__builtin_mul_overflow(nslots, slot_size, &len)) {
		seterr(errbuf, errlen, "%zu ULT stacks of %s do not fit in the "
		       "address space; lower the stack size or the number "
		       "of ranks", nslots, human(stack, h1, sizeof h1));
		return -1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		seterr(errbuf, errlen, "cannot reserve %s of address space for "
		       "%zu ULT stacks of %s: %s; lower the stack size or the "
		       "number of ranks (or raise ulimit -v)",
		       human(len, h1, sizeof h1), nslots,
		       human(stack, h2, sizeof h2), strerror(errno));
		return -1;
	}
	/* A huge page would commit 2 MiB the first time a stack is touched. */
	madvise(p, len, MADV_NOHUGEPAGE);

	for (size_t i = 0; guard && i < nslots; i++) {
		if (mprotect((char *)p + i * slot_size, lib.pool.page,
			     PROT_NONE) != 0) {
			seterr(errbuf, errlen, "cannot protect the guard page of "
			       "ULT stack %zu of %zu: %s", i, nslots,
			       strerror(errno));
			munmap(p, len);
			return -1;
		}
	}
	lib.pool.base = p;
	lib.pool.len = len;
	lib.pool.nslots = nslots;
	lib.pool.slot_size = slot_size;
	lib.pool.guard = guard;
	return 0;
}

int ult_pool_init(const ult_pool_opts *opts, char *errbuf, size_t errlen)
{
	char h[32];
	size_t stack, need, inuse;
	long limit;
	int guard;

	if (lib.pool.base) {
		seterr(errbuf, errlen, "the ULT pool is already initialised");
		return -1;
	}
	if (!opts || !opts->nslots) {
		seterr(errbuf, errlen, "a ULT pool needs at least one slot");
		return -1;
	}
	lib.pool.page = (size_t)sysconf(_SC_PAGESIZE);
	stack = opts->stack_size ? opts->stack_size : 1024 * 1024;
	if (stack < MIN_STACK) {
		seterr(errbuf, errlen, "ULT stack size %zu bytes is too small "
		       "(the minimum is %s)", stack,
		       human(MIN_STACK, h, sizeof h));
		return -1;
	}
	if (stack > SIZE_MAX / 2) {
		seterr(errbuf, errlen, "ULT stack size %zu bytes is too large",
		       stack);
		return -1;
	}
	stack = (stack + lib.pool.page - 1) & ~(lib.pool.page - 1);

	/* Each guard page splits the mapping: two VMAs per slot. */
	guard = opts->guard;
	if (guard) {
		limit = read_max_map_count();
		inuse = count_mappings();
		if (opts->nslots > (SIZE_MAX - MAPS_MARGIN - inuse) / 2)
			need = SIZE_MAX;
		else
			need = 2 * opts->nslots + MAPS_MARGIN + inuse;
		if (need > (size_t)limit) {
			if (guard > 0) {
				seterr(errbuf, errlen, "guard pages for %zu ULT "
				       "stacks need %zu memory mappings, more "
				       "than vm.max_map_count (%ld) allows; use "
				       "canary protection or raise the limit "
				       "(sysctl -w vm.max_map_count=%zu)",
				       opts->nslots, need, limit,
				       need + need / 4);
				return -1;
			}
			guard = 0;
		}
	}

	if (map_pool(opts->nslots, stack, guard != 0,
		     errbuf, errlen) != 0) {
		/* mprotect may still hit the limit; -1 lets us go without. */
		if (guard >= 0 || map_pool(opts->nslots, stack, 0,
					   errbuf, errlen) != 0)
			return -1;
	}
	lib.pool.overflow = opts->overflow;

	if (lib.pool.guard && install_segv_handler(errbuf, errlen) != 0) {
		munmap(lib.pool.base, lib.pool.len);
		memset(&lib.pool, 0, sizeof lib.pool);
		return -1;
	}
	lib.main_ult.caller = NULL;
	lib.main_ult.state = ULT_STARTED;
	lib.cur = &lib.main_ult;
	return 0;
}

void ult_pool_fini(void)
{
	ULT_CHECK(lib.cur == &lib.main_ult, "ult_pool_fini called from a ULT "
		  "(slot %zu)", lib.cur->slot);
	if (!lib.pool.base)
		return;
	remove_segv_handler();
	munmap(lib.pool.base, lib.pool.len);
	memset(&lib.pool, 0, sizeof lib.pool);
}

const char *ult_pool_protection(void)
{
	return lib.pool.guard ? "guard page" : "canary";
}

size_t ult_pool_reserved(void)
{
	return lib.pool.len;
}

const char *ult_backend(void)
{
	return ult_ctx_backend;
}

/* ---- ULTs ------------------------------------------------------------ */

static void check_handle(const struct ult *u, const char *fn)
{
	ULT_CHECK(u && u->magic == ULT_MAGIC, "%s: %s ULT handle %p", fn,
		  u && u->magic == ULT_DEAD ? "destroyed" : "invalid",
		  (const void *)u);
}

ULT_NO_ASAN static void write_canary(uint64_t *p)
{
	for (size_t i = 0; i < CANARY_WORDS; i++)
		p[i] = canary[i];
}

ULT_NO_ASAN static int canary_ok(const uint64_t *p)
{
	uint64_t diff = 0;

	for (size_t i = 0; i < CANARY_WORDS; i++)
		diff |= p[i] ^ canary[i];
	return diff == 0;
}

#if ULT_ASAN
static const void *asan_prev_lo;
static size_t asan_prev_size;

/*
 * ASan learns the main stack's bounds only when we leave it; remember them
 * when a switch arrives from outside the lib.pool.
 */
static void asan_arrived(void)
{
	uintptr_t off = (uintptr_t)asan_prev_lo - (uintptr_t)lib.pool.base;

	if (asan_prev_size && off >= lib.pool.len) {
		lib.main_ult.stack_lo = asan_prev_lo;
		lib.main_ult.stack_size = asan_prev_size;
	}
}
#endif

/*
 * First frame of every ULT.  No address-taken locals: the frame is never
 * popped, so under ASan it must not leave poisoned redzones behind for the
 * slot's next ULT.
 */
static void ult_entry(void)
{
	struct ult *u = lib.cur, *to;

#if ULT_ASAN
	__sanitizer_finish_switch_fiber(NULL, &asan_prev_lo, &asan_prev_size);
	asan_arrived();
#endif
	u->state = ULT_STARTED;
	u->fn(u->arg);
	u->state = ULT_FINISHED;
	ult_check(u);

	to = u->caller;
	ULT_CHECK(to->magic == ULT_MAGIC && to->state != ULT_FINISHED,
		  "ULT in slot %zu returned, but the context that last "
		  "switched into it has finished or was destroyed", u->slot);
	lib.cur = to;
#if ULT_ASAN
	__sanitizer_start_switch_fiber(NULL, to->stack_lo, to->stack_size);
#endif
	ult_ctx_swap(&u->ctx, &to->ctx);
	ULT_FATAL("finished ULT (slot %zu) resumed", u->slot);
}

ult *ult_create(size_t slot, ult_fn fn, void *arg)
{
	struct ult *u;
	char *lo;

	if (!lib.pool.base || slot >= lib.pool.nslots || !fn)
		return NULL;
	u = slot_ult(slot);
	if (u->magic == ULT_MAGIC)
		return NULL;		/* slot taken by a live ULT */
	lo = slot_stack_lo(slot);

	memset(u, 0, sizeof *u);
	u->fn = fn;
	u->arg = arg;
	u->slot = slot;
	u->state = ULT_NEW;
#if ULT_ASAN
	u->stack_lo = lo;
	u->stack_size = (size_t)((char *)u - lo);
#endif
	if (!lib.pool.guard)
		write_canary((uint64_t *)lo);
	ult_ctx_init(&u->ctx, lo, u, ult_entry);
	u->magic = ULT_MAGIC;
	return u;
}

void ult_destroy(ult *u)
{
	if (!u)
		return;
	check_handle(u, "ult_destroy");
	ULT_CHECK(u != &lib.main_ult, "ult_destroy: the main context");
	ULT_CHECK(u->state != ULT_STARTED, "ult_destroy: ULT in slot %zu "
		  "is still running", u->slot);
	u->magic = ULT_DEAD;
}

ult *ult_main(void)
{
	return &lib.main_ult;
}

ult *ult_self(void)
{
	return lib.cur;
}

void ult_switch(ult *to)
{
	struct ult *from = lib.cur;

	if (to == from)
		return;
	check_handle(to, "ult_switch");
	ULT_CHECK(to->state != ULT_FINISHED, "ult_switch: ULT in slot %zu "
		  "has finished", to->slot);
	to->caller = from;
	lib.cur = to;
#if ULT_ASAN
	__sanitizer_start_switch_fiber(&from->fake_stack, to->stack_lo,
				       to->stack_size);
#endif
	ult_ctx_swap(&from->ctx, &to->ctx);
#if ULT_ASAN
	__sanitizer_finish_switch_fiber(from->fake_stack, &asan_prev_lo,
					&asan_prev_size);
	asan_arrived();
#endif
}

int ult_finished(const ult *u)
{
	check_handle(u, "ult_finished");
	return u->state == ULT_FINISHED;
}

size_t ult_slot(const ult *u)
{
	check_handle(u, "ult_slot");
	return u->slot;
}

void ult_check(const ult *u)
{
	check_handle(u, "ult_check");
	if (lib.pool.guard || u == &lib.main_ult)
		return;
	if (!canary_ok((const uint64_t *)slot_stack_lo(u->slot)))
		report_overflow(u->slot, "canary");
}

/*
 * Untouched pages were never faulted in: mincore() skips them without
 * touching them (reading would map the zero page into every slot).
 */
ULT_NO_ASAN size_t ult_stack_used(size_t slot)
{
	unsigned char vec[256];
	char *lo, *hi, *pg;
	size_t npages;

	if (!lib.pool.base || slot >= lib.pool.nslots)
		return 0;
	lo = slot_stack_lo(slot);
	hi = slot_base(slot) + lib.pool.slot_size;
	npages = (size_t)(hi - lo) / lib.pool.page;

	for (size_t first = 0; first < npages; first += sizeof vec) {
		size_t n = npages - first < sizeof vec ? npages - first
						       : sizeof vec;

		pg = lo + first * lib.pool.page;
		if (mincore(pg, n * lib.pool.page, vec) != 0)
			memset(vec, 1, n);	/* cannot tell: scan */
		for (size_t i = 0; i < n; i++, pg += lib.pool.page) {
			const uint64_t *w = (const uint64_t *)pg;
			const uint64_t *end = (const uint64_t *)
					      (pg + lib.pool.page);

			if (!(vec[i] & 1))
				continue;
			if (pg == lo && !lib.pool.guard)
				w += CANARY_WORDS;
			for (; w < end; w++)
				if (*w)
					return (size_t)(hi - (const char *)w);
		}
	}
	return 0;
}
