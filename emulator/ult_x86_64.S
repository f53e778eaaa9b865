/*
 * ult_x86_64.S -- ULT context switch for x86-64 (System V ABI).
 *
 * A suspended context is just its stack pointer; the callee-saved state is
 * pushed on its own stack.  The caller of ult_ctx_swap() has already saved
 * every caller-saved register it needs, so we keep only what the ABI says
 * a function must preserve: rbx, rbp, r12-r15, rsp, the MXCSR control bits
 * and the x87 control word.  Frame, from the saved rsp upwards:
 *
 *	 0  MXCSR (4 bytes), x87 control word (2 bytes), pad
 *	 8  r15, r14, r13, r12, rbx, rbp
 *	56  return address
 *
 * The frame is 64 bytes, so the saved rsp is 16-byte aligned.
 *
 * Two things keep a switch at a few nanoseconds rather than ~30:
 *   - it leaves with pop + indirect jmp, not ret: a ret into another
 *     stack always misses the return-stack predictor, while the indirect
 *     branch predictor learns a scheduler's switching pattern (Boost.Context
 *     does the same);
 *   - MXCSR and the x87 control word are written only when they differ:
 *     ldmxcsr and (above all) fldcw are slow, and ULTs rarely change them.
 */
#if defined(__x86_64__)

	.text

/* void ult_ctx_swap(ult_ctx *from (rdi), ult_ctx *to (rsi)) */
	.globl	ult_ctx_swap
	.hidden	ult_ctx_swap
	.type	ult_ctx_swap, @function
	.p2align 4
ult_ctx_swap:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r13, -40
	pushq	%r14
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r14, -48
	pushq	%r15
	.cfi_adjust_cfa_offset 8
	.cfi_offset %r15, -56
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
	stmxcsr	(%rsp)
	fnstcw	4(%rsp)
	movl	(%rsp), %eax
	movzwl	4(%rsp), %ecx

	movq	%rsp, (%rdi)
	movq	(%rsi), %rsp

	cmpl	(%rsp), %eax
	je	1f
	ldmxcsr	(%rsp)
1:	cmpw	4(%rsp), %cx
	je	2f
	fldcw	4(%rsp)
2:	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%r15
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r15
	popq	%r14
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r14
	popq	%r13
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r13
	popq	%r12
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r12
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %rcx
	jmp	*%rcx
	.cfi_endproc
	.size	ult_ctx_swap, .-ult_ctx_swap

/*
 * void ult_ctx_init(ult_ctx *c (rdi), void *lo (rsi), void *hi (rdx),
 *		     void (*entry)(void) (rcx))
 *
 * Builds a frame as ult_ctx_swap() leaves it, returning into
 * ult_ctx_start with r12 = entry.  The 16 bytes above the frame are zero:
 * the trampoline runs with rsp 16-byte aligned, as a call site must.
 */
	.globl	ult_ctx_init
	.hidden	ult_ctx_init
	.type	ult_ctx_init, @function
	.p2align 4
ult_ctx_init:
	.cfi_startproc
	andq	$-16, %rdx
	leaq	-80(%rdx), %rax
	stmxcsr	(%rax)
	fnstcw	4(%rax)
	movq	$0, 8(%rax)		/* r15 */
	movq	$0, 16(%rax)		/* r14 */
	movq	$0, 24(%rax)		/* r13 */
	movq	%rcx, 32(%rax)		/* r12: entry */
	movq	$0, 40(%rax)		/* rbx */
	movq	$0, 48(%rax)		/* rbp: ends frame-pointer chains */
	leaq	ult_ctx_start(%rip), %rcx
	movq	%rcx, 56(%rax)
	movq	$0, 64(%rax)
	movq	$0, 72(%rax)
	movq	%rax, (%rdi)
	ret
	.cfi_endproc
	.size	ult_ctx_init, .-ult_ctx_init

/*
 * First code a new context runs.  rip is marked undefined so unwinders
 * and debuggers stop here instead of walking into the zero padding.
 */
	.type	ult_ctx_start, @function
	.p2align 4
ult_ctx_start:
	.cfi_startproc
	.cfi_undefined rip
	callq	*%r12
	ud2			/* entry() must not return */
	.cfi_endproc
	.size	ult_ctx_start, .-ult_ctx_start

	.section .rodata
	.globl	ult_ctx_backend
	.hidden	ult_ctx_backend
	.type	ult_ctx_backend, @object
ult_ctx_backend:
	.asciz	"x86-64 asm"
	.size	ult_ctx_backend, .-ult_ctx_backend

#endif /* __x86_64__ */

	.section .note.GNU-stack,"",%progbits
