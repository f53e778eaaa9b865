/*
 * sibyl.h -- compute modelling for programs emulated by Sibyl.
 *
 * Everything here works only under the emulator (programs built with
 * `sibylcc'); include it next to <mpi.h>.  A program that must also build
 * with a native MPI can guard the calls with `#ifdef SIBYL_MPI'.
 *
 * Time accounting: an SEB's duration is the CPU time the rank spent between
 * two MPI calls (measured, minus the runtime's own overhead, multiplied by
 * the emulation's CPU factor) plus whatever it declared with the calls
 * below.  Declared time is not executed and not scaled by the CPU factor.
 */
#ifndef SIBYL_H
#define SIBYL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declare `seconds' of computation in the current SEB (not executed). */
void sibyl_compute(double seconds);

/* Declare `flops' floating-point operations: adds flops / rate seconds,
 * where the rate is `sibyl emulate --flop-rate' (default 1e9 flop/s). */
void sibyl_compute_flops(double flops);

/* Name the current SEB (the block running now), for the simulator's
 * replacement rules ("seb:NAME=..."); the name is copied. */
void sibyl_seb_name(const char *name);

/* printf-like; the text is stored in the trace with the rank's current
 * virtual time and printed by `sibyl sim' (prints.txt) with the predicted
 * time.  Nothing is printed during emulation. */
void sibyl_print(const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Skip points: `sibyl sim --skip' simulates only what lies between a
 * begin and the following end.  Iteration marks number the main loop so
 * `sibyl sim --iters K..M' can select iterations.  Each of these ends the
 * current SEB (as an MPI call would) and marks the next one. */
void sibyl_skip_begin(void);
void sibyl_skip_end(void);
void sibyl_iteration(long iteration);
void sibyl_marker(long value);

/* This rank's virtual time in seconds (what MPI_Wtime returns). */
double sibyl_vtime(void);

/*
 * Sample then replay: run an expensive block the first K times this rank
 * reaches it, then skip it and declare the mean measured time instead:
 *
 *     SIBYL_SAMPLED(3) {
 *             compute_forces(atoms);
 *     }
 *
 * Each use of the macro is a separate site (keyed by file and line).  Only
 * for blocks whose results do not steer control flow or messages.
 */
typedef struct sibyl_sample sibyl_sample;
sibyl_sample *sibyl_sample_begin(const char *site, int line, int k);
sibyl_sample *sibyl_sample_end(sibyl_sample *s);

#define SIBYL_SAMPLED(k)                                                  \
	for (sibyl_sample *sibyl_s__ = sibyl_sample_begin(__FILE__,        \
							   __LINE__, (k)); \
	     sibyl_s__ != 0; sibyl_s__ = sibyl_sample_end(sibyl_s__))

/*
 * Memory folding: one block shared by all the virtual ranks of a process,
 * for data every rank holds identically and whose values do not steer
 * control flow or messages (an input matrix, a lookup table), so that a
 * host can emulate footprints far larger than its memory:
 *
 *     #ifdef SIBYL_MPI
 *     double *a = sibyl_shared_malloc(n * sizeof *a);
 *     #else
 *     double *a = malloc(n * sizeof *a);
 *     #endif
 *
 * The k-th call of every rank of a process returns the same block (zeroed
 * when first allocated); every rank must make the same sequence of calls
 * with the same sizes, or the emulation stops naming both ranks.  What one
 * rank writes into the block, the others of its process read.  Each rank
 * that got a block frees it with sibyl_shared_free(), never free(); the
 * memory goes when the last one has.  NULL is ignored.
 */
void *sibyl_shared_malloc(size_t size);
void sibyl_shared_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_H */
