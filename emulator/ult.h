/*
 * Sibyl emulator -- user-level threads (ULTs) and their stack pool.
 *
 * Internal to libsibyl-emu.  Every virtual MPI rank runs its user's main()
 * on a ULT of its own; ULTs switch only cooperatively (inside MPI calls).
 *
 * Context switch: hand-written assembly for x86-64 (ult_x86_64.S) and
 * aarch64 (ult_aarch64.S), or a portable fallback over ucontext
 * (ult_ucontext.c).  configure picks one (--with-ult=asm|ucontext, default
 * asm where the architecture has it) and defines SIBYL_ULT_ASM or
 * SIBYL_ULT_UCONTEXT; ult_backend() names the choice.
 *
 * Stacks: one pooled, lazily committed mapping (MAP_NORESERVE) carved into
 * fixed-size slots, never one mmap per ULT -- Linux limits a process to
 * vm.max_map_count mappings (65,530 by default).  Overflow protection:
 *   - guard pages (PROT_NONE page at the low end of every slot) when
 *     2 * nslots + a margin fits under vm.max_map_count; a SIGSEGV handler on
 *     an alternate signal stack recognises a fault in a guard page and
 *     reports the owning slot through the overflow callback;
 *   - otherwise a canary (a fixed 64-byte pattern at the low end of every
 *     slot), checked by ult_check() -- the runtime calls it whenever a ULT
 *     switches back to the scheduler; a damaged canary is reported through
 *     the same callback.
 * Untouched stack pages cost no memory.  A ULT that ran briefly costs one
 * page, plus the canary's page at the low end in canary mode.  A ULT's
 * handle is kept at the top of its own slot (64 bytes of it; with
 * the ucontext back-end, plus a ucontext_t).
 *
 * Not thread-safe: one pool and one scheduler per process.
 */
#ifndef SIBYL_ULT_H
#define SIBYL_ULT_H

#include <stddef.h>
#include <stdint.h>

typedef struct ult ult;

/* Entry point of a ULT.  When it returns the ULT is finished and control
 * goes back to the ULT (or main context) that last switched into it. */
typedef void (*ult_fn)(void *arg);

/* Called when an overflow is detected: slot index of the offending ULT,
 * `how' is "guard page" or "canary".  Must not return (the runtime prints
 * the rank and the --stack-size hint and exits). */
typedef void (*ult_overflow_fn)(size_t slot, const char *how);

typedef struct ult_pool_opts {
	size_t nslots;          /* ULTs the pool can hold */
	size_t stack_size;      /* usable bytes per stack; rounded up to pages
	                           (0: 1 MiB) */
	int guard;              /* 1: guard pages (fails if they do not fit
	                           under vm.max_map_count), 0: canary only,
	                           -1: guard pages when they fit, else canary */
	ult_overflow_fn overflow;
} ult_pool_opts;

/* Create the process's pool.  Returns 0, or -1 with a message in errbuf
 * (e.g. address space exhausted: says how much was asked for). */
int ult_pool_init(const ult_pool_opts *opts, char *errbuf, size_t errlen);
void ult_pool_fini(void);

/* Protection actually in use: "guard page" or "canary". */
const char *ult_pool_protection(void);
/* Bytes reserved (virtual) for the pool. */
size_t ult_pool_reserved(void);

/* Create a ULT on stack slot `slot' (each slot used by at most one live
 * ULT).  It does not run until switched to, and starts with the floating-
 * point control state (rounding, flush-to-zero) of its creator.  NULL on
 * failure: no pool, slot out of range or taken, fn NULL. */
ult *ult_create(size_t slot, ult_fn fn, void *arg);
/* Free a finished (or never started) ULT; its slot may be reused. */
void ult_destroy(ult *u);

/* The main context of the process (the scheduler's): a ULT handle that
 * owns no stack.  Valid after ult_pool_init. */
ult *ult_main(void);
/* The ULT running now (ult_main() outside any ULT). */
ult *ult_self(void);

/* Save the running context and resume `to'.  Returns when something
 * switches back.  Switching from a ULT whose fn returned is not allowed.
 * Misuse (a destroyed or finished `to'; a ULT returning to a context that
 * has finished since it switched in) prints file:line and aborts. */
void ult_switch(ult *to);

/* 1 once the ULT's function has returned. */
int ult_finished(const ult *u);
/* SIZE_MAX for ult_main(). */
size_t ult_slot(const ult *u);

/* Check the canary of one slot (no-op with guard pages); calls the
 * overflow callback when it is damaged. */
void ult_check(const ult *u);

/* Deepest stack use seen so far in `slot', in bytes, found by scanning for
 * the untouched (zero) pages from the low end: for diagnostics and the
 * memory benchmark; costs a scan. */
size_t ult_stack_used(size_t slot);

/* "x86-64 asm", "aarch64 asm" or "ucontext". */
const char *ult_backend(void);

#endif /* SIBYL_ULT_H */
