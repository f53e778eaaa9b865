/*
 * ult_ucontext.c -- portable ULT context switch over getcontext(),
 * makecontext() and swapcontext().
 *
 * For architectures without an assembly back-end, and as a reference when
 * one is suspected.  It is slow: glibc's swapcontext() saves and restores
 * the signal mask with a system call on every switch.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "ult_ctx.h"

#if defined(SIBYL_ULT_UCONTEXT)

#include <stdio.h>
#include <stdlib.h>

const char ult_ctx_backend[] = "ucontext";

void ult_ctx_init(ult_ctx *c, void *lo, void *hi, void (*entry)(void))
{
	if (getcontext(&c->uc) != 0) {
		perror("sibyl: getcontext");
		abort();
	}
	c->uc.uc_stack.ss_sp = lo;
	c->uc.uc_stack.ss_size = (size_t)((char *)hi - (char *)lo);
	c->uc.uc_stack.ss_flags = 0;
	c->uc.uc_link = NULL;		/* entry() never returns */
	makecontext(&c->uc, entry, 0);
}

void ult_ctx_swap(ult_ctx *from, ult_ctx *to)
{
	if (swapcontext(&from->uc, &to->uc) != 0) {
		perror("sibyl: swapcontext");
		abort();
	}
}

#endif /* SIBYL_ULT_UCONTEXT */
