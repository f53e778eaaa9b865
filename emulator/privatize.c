/*
 * privatize.c -- per-rank copies of the program's global and static
 * variables (emu_priv.h).
 *
 * sibylcc renames the writable data sections of every object it compiles
 * (.data, .data.rel, .data.rel.local, .ldata -> sibylpriv_data; .bss,
 * .lbss -> sibylpriv_bss), so in the executable the program's variables
 * form two regions that GNU ld brackets with __start_ and __stop_
 * symbols.  The runtime's own objects (built by make, not sibylcc) and
 * the shared libraries keep theirs: they are never privatized.
 *
 * At emu_priv_init -- after the loader's relocations and the program's
 * constructors, before any rank runs -- the regions' contents are kept as
 * the initial image.  Each rank starts from it the first time it runs and
 * owns its copy from then on.  The scheduler installs the rank's copy
 * before switching to it (emu_priv_enter), in one of two ways:
 *
 *   copy   the regions hold the copy of the rank that ran last (the
 *          resident); switching to another rank copies the resident's
 *          bytes out to its image and the new rank's in.  Cost: twice the
 *          size of the variables per switch; memory: that size per rank.
 *   remap  every rank's copy lives in one memfd, a slot per rank; the
 *          regions are mapped MAP_SHARED|MAP_FIXED onto the resident's
 *          slot, so a switch is one mmap per region whatever the size
 *          (plus a minor page fault for each page touched afterwards),
 *          and a rank's copy costs only the pages it touched -- read or
 *          written: shared memory has no zero page -- or that start
 *          non-zero.  One mapping per region at a time: the process's
 *          vm.max_map_count is not at stake.
 *
 * SIBYL_PRIVATIZE=auto (the default) picks copy up to PRIV_AUTO_COPY_MAX
 * (64 KiB) of variables and remap above; none leaves them shared.
 * Switching back to the rank that ran last costs nothing.  Measured on
 * the development VM (tests/emu/priv_bench.c, extra time per switch over
 * SIBYL_PRIVATIZE=none, a rank writing one word per turn): copy +0.8 us
 * at 4 and 16 KiB, +2 us at 32 KiB, +8 us at 64 KiB, +27 us at 256 KiB,
 * +260 us at 1 MiB; remap +5 to +9 us whatever the size -- the crossover
 * is at about 64 KiB.  A rank that touches every page each turn pays
 * remap a page fault per page (~1.5 us), so copy stays faster at every
 * size there, at the price of the whole size in memory per rank.
 *
 * Remapping needs the regions to start and end on page boundaries.  This
 * file contributes to both sections an empty, page-aligned input section,
 * preceded by an end marker: as libsibyl-emu.a is linked after the
 * program's objects, the output sections become page-aligned at both
 * ends, and the marker tells where the program's variables end (copy
 * moves only those bytes).
 *
 * Not privatized, so shared by the ranks of a process: objects and
 * libraries not compiled by sibylcc, shared libraries, thread-local
 * (__thread) variables, and variables the program puts in sections of its
 * own names (__attribute__((section))).
 *
 * The runtime sometimes reaches a rank's memory while another rank is
 * installed (a sender copying into a posted receive).  emu_priv_addr()
 * says where a rank's copy of a variable is at that moment.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_private.h"


/* The alignment of the pads, a multiple of the page size of every kernel
 * configuration of the architecture (aarch64 kernels use up to 64 KiB). */
#if defined(__aarch64__)
#define PRIV_ALIGN 65536
#define PRIV_ALIGN_S "65536"
#else
#define PRIV_ALIGN 4096
#define PRIV_ALIGN_S "4096"
#endif

/* auto: copy up to this many bytes of variables, remap above. */
#define PRIV_AUTO_COPY_MAX (64 * 1024)

/*
 * The end markers and the pads.  Two input sections of the same name per
 * region ("unique"): the marker first (alignment 1, so it sits right
 * after the last variable), then the empty page-aligned pad.  The
 * markers are symbols the linker places, not state: they stay out of
 * emu_state.
 */
__asm__(".pushsection sibylpriv_data,\"aw\",%progbits,unique,1\n"
	".globl sibyl_priv_data_end\n"
	".hidden sibyl_priv_data_end\n"
	"sibyl_priv_data_end:\n"
	".popsection\n"
	".pushsection sibylpriv_data,\"aw\",%progbits,unique,2\n"
	".balign " PRIV_ALIGN_S "\n"
	".popsection\n"
	".pushsection sibylpriv_bss,\"aw\",%nobits,unique,1\n"
	".globl sibyl_priv_bss_end\n"
	".hidden sibyl_priv_bss_end\n"
	"sibyl_priv_bss_end:\n"
	".popsection\n"
	".pushsection sibylpriv_bss,\"aw\",%nobits,unique,2\n"
	".balign " PRIV_ALIGN_S "\n"
	".popsection\n");

#define HIDDEN __attribute__((visibility("hidden")))
#define WEAK_HIDDEN __attribute__((weak, visibility("hidden")))
extern char __start_sibylpriv_data[] WEAK_HIDDEN;
extern char __stop_sibylpriv_data[] WEAK_HIDDEN;
extern char __start_sibylpriv_bss[] WEAK_HIDDEN;
extern char __stop_sibylpriv_bss[] WEAK_HIDDEN;
extern char sibyl_priv_data_end[] HIDDEN;
extern char sibyl_priv_bss_end[] HIDDEN;

/* The method, the regions and the images are the process's: emu.priv
 * (emu_priv.h). */
typedef struct emu_priv_region region;
static struct emu_priv_state *const pv = &emu.priv;

/* ------------------------------------------------------------ copying */

/*
 * The regions hold AddressSanitizer's redzones between variables, which
 * an instrumented memcpy would report: copy them with an uninstrumented
 * loop in sanitized builds.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PRIV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRIV_ASAN 1
#endif
#endif

#ifdef PRIV_ASAN
#define PRIV_UNCHECKED __attribute__((no_sanitize_address, noinline))
PRIV_UNCHECKED __attribute__((optimize("no-tree-loop-distribute-patterns")))
static void copy_bytes(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}
#else
#define PRIV_UNCHECKED
static void copy_bytes(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}
#endif

PRIV_UNCHECKED static int page_is_zero(const char *p, size_t n)
{
	const uint64_t *w = (const uint64_t *)(const void *)p;
	for (size_t i = 0; i < n / sizeof *w; i++)
		if (w[i])
			return 0;
	return 1;
}

static const char *human(size_t n, char *buf, size_t len)
{
	if (n >= (size_t)10 << 20)
		snprintf(buf, len, "%zu MiB", n >> 20);
	else if (n >= (size_t)10 << 10)
		snprintf(buf, len, "%zu KiB", n >> 10);
	else
		snprintf(buf, len, "%zu bytes", n);
	return buf;
}

/* -------------------------------------------------------------- setup */

static void region_get(region *g, char *start, char *end, char *stop,
		       size_t page)
{
	memset(g, 0, sizeof *g);
	if (!start || !stop || stop <= start)
		return;
	g->start = start;
	/* Only the pad may follow the marker; anything else was linked
	 * after libsibyl-emu.a and is part of the region too. */
	if (end >= start && end <= stop &&
	    (uintptr_t)stop % PRIV_ALIGN == 0 && stop - end < PRIV_ALIGN) {
		g->len = (size_t)(end - start);
	} else {
		g->len = (size_t)(stop - start);
		g->why = "objects compiled by sibylcc were linked after "
			"libsibyl-emu (link with sibylcc, which puts the "
			"library last)";
		return;
	}
	if ((uintptr_t)start % page || (uintptr_t)stop % page) {
		g->why = "the system's page size is larger than the "
			"alignment of the sections";
		return;
	}
	g->maplen = (size_t)(stop - start);
}

static enum priv_method parse_method(void)
{
	/* The setting is one of these (emu_settings.h). */
	if (emu_set_is(PRIVATIZE, "copy"))
		return PRIV_COPY;
	if (emu_set_is(PRIVATIZE, "remap"))
		return PRIV_REMAP;
	if (emu_set_is(PRIVATIZE, "none"))
		return PRIV_NONE;
	return PRIV_AUTO;
}

/* Where the regions are and which method applies; idempotent (the trace's
 * manifest asks emu_priv_describe() before emu_priv_init()). */
static void setup(void)
{
	char h[32];
	if (pv->ready)
		return;
	pv->page = (size_t)sysconf(_SC_PAGESIZE);
	region_get(&pv->data, __start_sibylpriv_data, sibyl_priv_data_end,
		   __stop_sibylpriv_data, pv->page);
	region_get(&pv->bss, __start_sibylpriv_bss, sibyl_priv_bss_end,
		   __stop_sibylpriv_bss, pv->page);
	size_t total = pv->data.len + pv->bss.len;
	enum priv_method m = parse_method();
	const char *why = pv->data.why ? pv->data.why : pv->bss.why;

	if (m == PRIV_AUTO)
		m = total == 0 ? PRIV_NONE : total <= PRIV_AUTO_COPY_MAX ||
			why ? PRIV_COPY : PRIV_REMAP;
	if (m == PRIV_REMAP && why)
		emu_fatal("SIBYL_PRIVATIZE=remap: the program's globals cannot "
			  "be remapped: %s; use SIBYL_PRIVATIZE=copy", why);
	pv->method = total ? m : PRIV_NONE;
	pv->slot = pv->data.maplen + pv->bss.maplen;
	switch (pv->method) {
	case PRIV_AUTO:
	case PRIV_NONE:
		snprintf(pv->desc, sizeof pv->desc, total ? "none" :
			 "none (no globals compiled by sibylcc)");
		break;
	case PRIV_COPY:
		snprintf(pv->desc, sizeof pv->desc, "copy %s/rank",
			 human(total, h, sizeof h));
		break;
	case PRIV_REMAP:
		snprintf(pv->desc, sizeof pv->desc, "remap %s/rank (pages as "
			 "touched)", human(total, h, sizeof h));
		break;
	}
	pv->ready = 1;
}

const char *emu_priv_describe(void)
{
	setup();
	return pv->desc;
}

static void *xmalloc(size_t n, const char *what)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		emu_fatal("out of memory for %s (%zu bytes)", what, n);
	return p;
}

static void copy_init(void)
{
	pv->snap = xmalloc(pv->data.len + pv->bss.len, "the initial globals");
	copy_bytes(pv->snap, pv->data.start, pv->data.len);
	copy_bytes(pv->snap + pv->data.len, pv->bss.start, pv->bss.len);
}

/* The pages of the initial image that are not zero: a new slot starts as
 * zeros, so only these are written into it. */
static void remap_snapshot(void)
{
	size_t n = pv->slot / pv->page, k = 0;
	pv->nz_off = xmalloc(n * sizeof *pv->nz_off, "the initial globals");
	for (int pass = 0; pass < 2; pass++) {
		region *g = pass ? &pv->bss : &pv->data;
		size_t base = pass ? pv->data.maplen : 0;
		for (size_t o = 0; o < g->maplen; o += pv->page)
			if (!page_is_zero(g->start + o, pv->page))
				pv->nz_off[k++] = base + o;
	}
	pv->nnz = k;
	pv->nz_pages = xmalloc(k * pv->page, "the initial globals");
	for (size_t i = 0; i < k; i++) {
		size_t o = pv->nz_off[i];
		const char *src = o < pv->data.maplen ? pv->data.start + o :
			pv->bss.start + (o - pv->data.maplen);
		copy_bytes(pv->nz_pages + i * pv->page, src, pv->page);
	}
}

static void remap_init(void)
{
	char h[32];
	size_t total;
	if (__builtin_mul_overflow((size_t)emu.count, pv->slot, &total) ||
	    total > (size_t)INT64_MAX)
		emu_fatal("SIBYL_PRIVATIZE=remap: %u ranks with %s of globals "
			  "each do not fit in a file; use fewer ranks per "
			  "process", emu.count, human(pv->slot, h, sizeof h));
	pv->fd = memfd_create("sibyl-globals", MFD_CLOEXEC);
	if (pv->fd < 0 || ftruncate(pv->fd, (off_t)total) != 0)
		emu_fatal("SIBYL_PRIVATIZE=remap: cannot create the %s file "
			  "of every rank's globals: %s; use "
			  "SIBYL_PRIVATIZE=copy", human(total, h, sizeof h),
			  strerror(errno));
	pv->window = mmap(NULL, total, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_NORESERVE, pv->fd, 0);
	if (pv->window == MAP_FAILED)
		emu_fatal("SIBYL_PRIVATIZE=remap: cannot map the %s of every "
			  "rank's globals: %s; use SIBYL_PRIVATIZE=copy or "
			  "fewer ranks per process",
			  human(total, h, sizeof h), strerror(errno));
	remap_snapshot();
}

void emu_priv_init(void)
{
	setup();
	if (pv->inited)
		return;
	pv->inited = 1;
	if (pv->method == PRIV_COPY)
		copy_init();
	else if (pv->method == PRIV_REMAP)
		remap_init();
}

/* ---------------------------------------------------------- switching */

static void copy_switch(emu_rank *r)
{
	emu_rank *o = pv->resident;
	size_t dl = pv->data.len;
	if (o) {
		if (!o->priv)
			o->priv = xmalloc(dl + pv->bss.len, "a rank's globals");
		copy_bytes(o->priv, pv->data.start, dl);
		copy_bytes((char *)o->priv + dl, pv->bss.start, pv->bss.len);
	}
	/* A rank without an image has never been switched out: it starts
	 * from the initial one. */
	const char *src = r->priv ? r->priv : pv->snap;
	copy_bytes(pv->data.start, src, dl);
	copy_bytes(pv->bss.start, src + dl, pv->bss.len);
}

static char *slot_of(const emu_rank *r)
{
	return pv->window + (size_t)r->local * pv->slot;
}

static void map_region(region *g, off_t off, int rank)
{
	if (!g->len)
		return;
	void *p = mmap(g->start, g->maplen, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_FIXED, pv->fd, off);
	if (p == MAP_FAILED)
		emu_fatal("cannot map the globals of rank %d: %s; use "
			  "SIBYL_PRIVATIZE=copy", rank, strerror(errno));
}

static void remap_switch(emu_rank *r)
{
	if (!r->priv) {
		char *s = slot_of(r);
		for (size_t i = 0; i < pv->nnz; i++)
			copy_bytes(s + pv->nz_off[i],
				   pv->nz_pages + i * pv->page, pv->page);
		r->priv = &pv->slot_started;
	}
	off_t off = (off_t)r->local * (off_t)pv->slot;
	if (pv->data.len && pv->bss.len &&
	    pv->data.start + pv->data.maplen == pv->bss.start) {
		/* The link put the regions back to back, as in the slot:
		 * one mapping for both.  Each mmap over a mapping costs a
		 * flush of the TLBs of every core the process ran on -- 30 us
		 * per call on a virtual machine, which made half of the
		 * emulation time of a message-rich program. */
		region both = { pv->data.start, pv->data.maplen +
				pv->bss.len, pv->slot, NULL };
		map_region(&both, off, r->world);
		return;
	}
	map_region(&pv->data, off, r->world);
	map_region(&pv->bss, off + (off_t)pv->data.maplen, r->world);
}

void emu_priv_enter(emu_rank *r)
{
	if (r != pv->resident) {
		if (pv->method == PRIV_COPY)
			copy_switch(r);
		else if (pv->method == PRIV_REMAP)
			remap_switch(r);
		pv->resident = r;
	}
	emu_libc_enter(r);
	emu_life_enter(r);
}

void emu_priv_leave(emu_rank *r)
{
	emu_life_leave(r);
	emu_libc_leave(r);
}

void emu_priv_free_rank(emu_rank *r)
{
	emu_libc_free_rank(r);
	emu_life_free_rank(r);
	if (pv->method == PRIV_COPY) {
		free(r->priv);
	} else if (pv->method == PRIV_REMAP && r->priv) {
		/* Give the slot's pages back (a mapping of them in the
		 * regions then reads zeros: nobody is resident). */
		if (fallocate(pv->fd, FALLOC_FL_PUNCH_HOLE |
			      FALLOC_FL_KEEP_SIZE, (off_t)r->local *
			      (off_t)pv->slot, (off_t)pv->slot) != 0)
			emu_warn("cannot release the globals of rank %d: %s",
				 r->world, strerror(errno));
	}
	r->priv = NULL;
	if (pv->resident == r)
		pv->resident = NULL;
}

void emu_priv_fini(void)
{
	/* Destructors and atexit handlers of the program run after this:
	 * they see the initial image. */
	if (pv->method == PRIV_COPY && pv->snap) {
		copy_bytes(pv->data.start, pv->snap, pv->data.len);
		copy_bytes(pv->bss.start, pv->snap + pv->data.len, pv->bss.len);
		free(pv->snap);
		pv->snap = NULL;
	} else if (pv->method == PRIV_REMAP && pv->window) {
		for (int pass = 0; pass < 2; pass++) {
			region *g = pass ? &pv->bss : &pv->data;
			if (g->len && mmap(g->start, g->maplen, PROT_READ |
					      PROT_WRITE, MAP_PRIVATE |
					      MAP_ANONYMOUS | MAP_FIXED, -1,
					      0) == MAP_FAILED)
				emu_fatal("cannot restore the program's "
					  "globals: %s", strerror(errno));
		}
		for (size_t i = 0; i < pv->nnz; i++) {
			size_t o = pv->nz_off[i];
			char *dst = o < pv->data.maplen ? pv->data.start + o :
				pv->bss.start + (o - pv->data.maplen);
			copy_bytes(dst, pv->nz_pages + i * pv->page, pv->page);
		}
		munmap(pv->window, (size_t)emu.count * pv->slot);
		close(pv->fd);
		free(pv->nz_off);
		free(pv->nz_pages);
		pv->window = NULL;
		pv->fd = -1;
	}
	pv->resident = NULL;
	pv->method = PRIV_NONE;
}

/*
 * Where the runtime reaches rank r's copy of [p, p + n) right now: p
 * itself unless it lies in the privatized globals and r's copy is not the
 * one installed.  With remap the answer is an alias of r's slot, valid
 * until r finishes whichever rank is installed (so Open MPI may also
 * read or write it asynchronously); with copy it is valid until the next
 * switch only.  A range that starts in the globals must end there.
 */
void *emu_priv_addr(const emu_rank *r, const void *p, size_t n)
{
	const char *c = p;
	region *g;
	size_t base;
	if (pv->method == PRIV_NONE || !c)
		return (void *)c;
	if (c >= pv->data.start && c < pv->data.start + pv->data.len) {
		g = &pv->data;
		base = 0;
	} else if (c >= pv->bss.start && c < pv->bss.start + pv->bss.len) {
		g = &pv->bss;
		base = pv->method == PRIV_COPY ? pv->data.len : pv->data.maplen;
	} else {
		return (void *)c;
	}
	size_t off = (size_t)(c - g->start);
	if (n > g->len - off)
		emu_fatal("rank %d: a buffer of %zu bytes at %p starts in the "
			  "program's global variables and ends outside them",
			  r->world, n, p);
	if (pv->method == PRIV_REMAP)
		return r->priv ? slot_of(r) + base + off : (void *)c;
	if (r == pv->resident || !r->priv)
		return (void *)c;
	return (char *)r->priv + base + off;
}

static int in_region(const region *g, const char *c, size_t n)
{
	return g->len && c < g->start + g->len && c + n > g->start;
}

/*
 * 1 when emu_priv_addr()'s answer for [p, p + n) stays valid whichever
 * ranks run meanwhile: p is outside the privatized globals, or they are
 * remapped (the alias is fixed).  0 with copy for the globals: the data
 * moves at every switch, so a transfer that outlives the switch (an Open
 * MPI request) must go through a buffer of its own.
 */
int emu_priv_stable(const void *p, size_t n)
{
	const char *c = p;
	if (pv->method != PRIV_COPY || !c)
		return 1;
	return !in_region(&pv->data, c, n ? n : 1) &&
		!in_region(&pv->bss, c, n ? n : 1);
}
