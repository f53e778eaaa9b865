/*
 * ult_aarch64.S -- ULT context switch for aarch64 (AAPCS64).
 *
 * A suspended context is just its stack pointer; the callee-saved state is
 * stored on its own stack: x19-x28, the frame pointer x29, the link
 * register x30 (where ult_ctx_swap returns to), the low halves d8-d15 of
 * v8-v15 and FPCR (rounding mode, flush-to-zero).  Frame, from the saved
 * sp upwards:
 *
 *	  0  x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30
 *	 96  d8 d9 d10 d11 d12 d13 d14 d15
 *	160  fpcr, pad
 *
 * 176 bytes keeps sp 16-byte aligned, as AAPCS64 requires at all times.
 */
#if defined(__aarch64__)

	.text

/* void ult_ctx_swap(ult_ctx *from (x0), ult_ctx *to (x1)) */
	.globl	ult_ctx_swap
	.hidden	ult_ctx_swap
	.type	ult_ctx_swap, %function
	.p2align 4
ult_ctx_swap:
	.cfi_startproc
	sub	sp, sp, #176
	.cfi_def_cfa_offset 176
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	.cfi_offset x29, -96
	.cfi_offset x30, -88
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mrs	x9, fpcr
	str	x9, [sp, #160]

	mov	x9, sp
	str	x9, [x0]
	ldr	x9, [x1]
	mov	sp, x9

	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	/* Writing FPCR can be slow; it rarely differs between ULTs. */
	ldr	x10, [sp, #160]
	mrs	x9, fpcr
	cmp	x9, x10
	b.eq	1f
	msr	fpcr, x10
1:
	add	sp, sp, #176
	.cfi_def_cfa_offset 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size	ult_ctx_swap, .-ult_ctx_swap

/*
 * void ult_ctx_init(ult_ctx *c (x0), void *lo (x1), void *hi (x2),
 *		     void (*entry)(void) (x3))
 *
 * Builds a frame as ult_ctx_swap() leaves it, returning (x30) into
 * ult_ctx_start with x19 = entry; 16 zero bytes sit above the frame.
 */
	.globl	ult_ctx_init
	.hidden	ult_ctx_init
	.type	ult_ctx_init, %function
	.p2align 4
ult_ctx_init:
	.cfi_startproc
	and	x2, x2, #~15
	sub	x9, x2, #192
	stp	xzr, xzr, [x9, #0]
	stp	xzr, xzr, [x9, #16]
	stp	xzr, xzr, [x9, #32]
	stp	xzr, xzr, [x9, #48]
	stp	xzr, xzr, [x9, #64]
	stp	xzr, xzr, [x9, #80]
	stp	xzr, xzr, [x9, #96]
	stp	xzr, xzr, [x9, #112]
	stp	xzr, xzr, [x9, #128]
	stp	xzr, xzr, [x9, #144]
	stp	xzr, xzr, [x9, #160]
	stp	xzr, xzr, [x9, #176]
	str	x3, [x9, #0]		/* x19: entry */
	adr	x10, ult_ctx_start
	str	x10, [x9, #88]		/* x30 */
	mrs	x10, fpcr
	str	x10, [x9, #160]
	str	x9, [x0]
	ret
	.cfi_endproc
	.size	ult_ctx_init, .-ult_ctx_init

/*
 * First code a new context runs.  The return address is marked undefined
 * so unwinders and debuggers stop here.
 */
	.type	ult_ctx_start, %function
	.p2align 4
ult_ctx_start:
	.cfi_startproc
	.cfi_undefined x30
	blr	x19
	brk	#1			/* entry() must not return */
	.cfi_endproc
	.size	ult_ctx_start, .-ult_ctx_start

	.section .rodata
	.globl	ult_ctx_backend
	.hidden	ult_ctx_backend
	.type	ult_ctx_backend, %object
ult_ctx_backend:
	.asciz	"aarch64 asm"
	.size	ult_ctx_backend, .-ult_ctx_backend

#endif /* __aarch64__ */

	.section .note.GNU-stack,"",%progbits
