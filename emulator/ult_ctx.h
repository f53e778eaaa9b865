/*
 * ult_ctx.h -- the machine context behind ult.c: what a context-switch
 * back-end provides.  Exactly one back-end is built, picked by configure:
 *   SIBYL_ULT_ASM       ult_x86_64.S or ult_aarch64.S
 *   SIBYL_ULT_UCONTEXT  ult_ucontext.c (getcontext/makecontext/swapcontext)
 *
 * ult.c owns stacks, scheduling state and overflow checks; a back-end only
 * saves and restores registers.
 */
#ifndef SIBYL_ULT_CTX_H
#define SIBYL_ULT_CTX_H

#if defined(SIBYL_ULT_ASM) && defined(SIBYL_ULT_UCONTEXT)
#error "define only one of SIBYL_ULT_ASM and SIBYL_ULT_UCONTEXT"
#endif

#if defined(SIBYL_ULT_ASM)
#if !defined(__x86_64__) && !defined(__aarch64__)
#error "SIBYL_ULT_ASM: no assembly back-end for this architecture (use ucontext)"
#endif
/* Everything else lives on the suspended stack (see the .S files). */
typedef struct ult_ctx {
	void *sp;
} ult_ctx;
#elif defined(SIBYL_ULT_UCONTEXT)
#include <ucontext.h>
typedef struct ult_ctx {
	ucontext_t uc;
} ult_ctx;
#else
#error "define SIBYL_ULT_ASM or SIBYL_ULT_UCONTEXT (configure --with-ult)"
#endif

/*
 * Prepare `c' so that the first ult_ctx_swap() into it calls entry() on
 * the stack [lo, hi) with the floating-point control state (MXCSR and x87
 * control word, or FPCR) of the caller of ult_ctx_init().  entry() must
 * never return: it leaves by swapping to another context.
 */
void ult_ctx_init(ult_ctx *c, void *lo, void *hi, void (*entry)(void));

/* Save the running context in `from' and resume `to'. */
void ult_ctx_swap(ult_ctx *from, ult_ctx *to);

/* "x86-64 asm", "aarch64 asm" or "ucontext". */
extern const char ult_ctx_backend[];

#endif /* SIBYL_ULT_CTX_H */
