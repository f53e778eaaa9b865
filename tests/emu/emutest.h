/*
 * emutest.h -- what the point-to-point semantics programs share.
 *
 * The programs are plain MPI: they build unchanged with Open MPI's mpicc
 * and with sibylcc, and use only what emulator/include/mpi.h declares.
 * Every virtual rank of the emulator shares the process's globals, so
 * nothing here is a mutable global: each rank keeps its emu_test in
 * main's locals.
 *
 * A rank records failed checks with EMU_EQ / EMU_TRUE (the first message
 * is kept).  emu_finish() sends each rank's verdict to rank 0 with plain
 * point-to-point (there are no collectives yet); rank 0 prints
 *
 *     PASS <name>
 *     FAIL <name>: rank R: <first failed check> (N failed checks)
 *
 * (one FAIL line per failing rank, at most EMU_MAX_FAIL_LINES) and sends
 * the outcome back, so every rank returns the same exit status: 0 pass,
 * 1 fail.  A program that needs more ranks than it got calls
 * emu_need_ranks(), which prints "SKIP <name>: ..." and makes it return
 * EMU_SKIP (77).
 *
 * Verdicts travel as EMU_VLEN ints on tag EMU_TAG_VERDICT, the outcome
 * on EMU_TAG_RESULT; the programs use neither tag.  A program whose rank
 * 0 receives with MPI_ANY_SOURCE and MPI_ANY_TAG while other ranks may
 * already have finished must pass every message received that way to
 * emu_stash(), into a buffer of at least EMU_VLEN ints of type MPI_INT:
 * it recognises a verdict, keeps it for emu_finish() and returns 1 (the
 * caller then receives again).
 */
#ifndef EMUTEST_H
#define EMUTEST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMU_SKIP 77
#define EMU_TAG_VERDICT 32000
#define EMU_TAG_RESULT 32001
#define EMU_WHAT 200                   /* bytes of the first failure text */
#define EMU_VLEN (2 + EMU_WHAT)        /* ints of a verdict message */
#define EMU_MAX_FAIL_LINES 8
/* Bound of the loops that check that something is NOT complete yet. */
#define EMU_SPIN 1000

#ifdef __GNUC__
#define EMU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define EMU_PRINTF(f, a)
#endif

typedef struct emu_test {
	const char *name;
	int rank, size;
	int nfail;                     /* failed checks on this rank */
	char what[EMU_WHAT];           /* the first one */
	int *stash;                    /* rank 0: verdicts received early */
	char *stashed;                 /* rank 0: stash[r] is valid */
	/* Optional: checks run by emu_finish() after MPI_Finalize. */
	void (*after_finalize)(struct emu_test *t);
} emu_test;

/* n zeroed elements of `size' bytes (room for one when n is 0), for the
 * caller to free; out of memory aborts the run. */
static inline void *emu_alloc(const emu_test *t, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fprintf(stderr, "%s: out of memory\n", t->name);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	return p;
}

static inline void emu_init(emu_test *t, const char *name, int *argc,
			    char ***argv)
{
	memset(t, 0, sizeof *t);
	t->name = name;
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &t->size);
	if (t->rank == 0) {
		t->stash = emu_alloc(t, (size_t)t->size * EMU_VLEN,
				     sizeof(int));
		t->stashed = emu_alloc(t, (size_t)t->size, 1);
	}
}

static inline void emu_vfail(emu_test *t, int line, const char *fmt,
			     va_list ap)
{
	if (t->nfail++ == 0) {
		int n = snprintf(t->what, sizeof t->what, "line %d: ", line);
		vsnprintf(t->what + n, sizeof t->what - (size_t)n, fmt, ap);
	}
}

static inline void emu_fail(emu_test *t, int line, const char *fmt, ...)
	EMU_PRINTF(3, 4);
static inline void emu_fail(emu_test *t, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emu_vfail(t, line, fmt, ap);
	va_end(ap);
}

static inline int emu_true(emu_test *t, int ok, int line, const char *fmt,
			   ...) EMU_PRINTF(4, 5);
static inline int emu_true(emu_test *t, int ok, int line, const char *fmt,
			   ...)
{
	if (!ok) {
		va_list ap;
		va_start(ap, fmt);
		emu_vfail(t, line, fmt, ap);
		va_end(ap);
	}
	return ok;
}

static inline int emu_eq(emu_test *t, long long got, long long want,
			 int line, const char *fmt, ...) EMU_PRINTF(5, 6);
static inline int emu_eq(emu_test *t, long long got, long long want,
			 int line, const char *fmt, ...)
{
	if (got == want)
		return 1;
	char ctx[EMU_WHAT];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof ctx, fmt, ap);
	va_end(ap);
	emu_fail(t, line, "%s: got %lld, want %lld", ctx, got, want);
	return 0;
}

/* EMU_EQ(t, got, want, "printf format", ...): integers, both printed. */
#define EMU_EQ(t, got, want, ...)                                         \
	emu_eq((t), (long long)(got), (long long)(want), __LINE__,        \
	       __VA_ARGS__)
/* EMU_TRUE(t, cond, "printf format", ...) */
#define EMU_TRUE(t, cond, ...)                                            \
	emu_true((t), (cond) != 0, __LINE__, __VA_ARGS__)

static inline int emu_seq(emu_test *t, const int *b, int n, long long first,
			  int line, const char *fmt, ...) EMU_PRINTF(6, 7);
static inline int emu_seq(emu_test *t, const int *b, int n, long long first,
			  int line, const char *fmt, ...)
{
	for (int i = 0; i < n; i++) {
		if (b[i] == first + i)
			continue;
		char ctx[EMU_WHAT];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ctx, sizeof ctx, fmt, ap);
		va_end(ap);
		emu_fail(t, line, "%s: int %d: got %d, want %lld", ctx, i,
			 b[i], first + i);
		return 0;
	}
	return 1;
}

/* EMU_SEQ(t, b, n, first, "printf format", ...): the n ints at b are
 * first, first + 1, ...; only the first one that is not fails. */
#define EMU_SEQ(t, b, n, first, ...)                                      \
	emu_seq((t), (b), (n), (first), __LINE__, __VA_ARGS__)

/* Fill b with the n ints first, first + 1, ... (see EMU_SEQ). */
static inline void emu_fill_seq(int *b, int n, int first)
{
	for (int i = 0; i < n; i++)
		b[i] = first + i;
}

/* 1 when the world has at least n ranks; otherwise rank 0 prints SKIP,
 * every rank finalizes, and the caller returns EMU_SKIP. */
static inline int emu_need_ranks(emu_test *t, int n)
{
	if (t->size >= n)
		return 1;
	if (t->rank == 0) {
		printf("SKIP %s: needs %d ranks, has %d\n", t->name, n,
		       t->size);
		fflush(stdout);
	}
	free(t->stash);
	free(t->stashed);
	MPI_Finalize();
	return 0;
}

/* For rank 0's MPI_ANY_SOURCE + MPI_ANY_TAG receives: 1 when the message
 * just received (into buf, MPI_INT, at least EMU_VLEN ints) is another
 * rank's verdict, which is kept for emu_finish(). */
static inline int emu_stash(emu_test *t, const MPI_Status *st,
			    const int *buf)
{
	if (t->rank != 0 || st->MPI_TAG != EMU_TAG_VERDICT)
		return 0;
	int src = st->MPI_SOURCE;
	if (src <= 0 || src >= t->size || t->stashed[src]) {
		emu_fail(t, __LINE__, "unexpected verdict message from %d",
			 src);
		return 1;
	}
	memcpy(t->stash + (size_t)src * EMU_VLEN, buf,
	       EMU_VLEN * sizeof(int));
	t->stashed[src] = 1;
	return 1;
}

static inline void emu_verdict_pack(const emu_test *t, int *v)
{
	v[0] = t->nfail;
	v[1] = (int)strlen(t->what);
	for (int i = 0; i < EMU_WHAT; i++)
		v[2 + i] = (unsigned char)t->what[i];
}

/* Rank 0: print the outcome from the verdicts; returns 0 or 1. */
static inline int emu_report(emu_test *t)
{
	int failed = 0, printed = 0;
	for (int r = 0; r < t->size; r++) {
		const int *v = t->stash + (size_t)r * EMU_VLEN;
		if (v[0] == 0)
			continue;
		failed++;
		if (printed == EMU_MAX_FAIL_LINES)
			continue;
		char what[EMU_WHAT];
		int n = v[1] < EMU_WHAT ? v[1] : EMU_WHAT - 1;
		for (int i = 0; i < n; i++)
			what[i] = (char)v[2 + i];
		what[n] = '\0';
		printf("FAIL %s: rank %d: %s (%d failed check%s)\n", t->name,
		       r, what, v[0], v[0] == 1 ? "" : "s");
		printed++;
	}
	if (failed > printed)
		printf("FAIL %s: and %d more failing ranks\n", t->name,
		       failed - printed);
	if (!failed)
		printf("PASS %s\n", t->name);
	fflush(stdout);
	return failed ? 1 : 0;
}

/*
 * Collect every rank's verdict on rank 0, send the outcome back,
 * finalize, run t->after_finalize if set, and print the outcome on rank
 * 0; returns the exit status for main (0 or 1).  Call it once all of
 * the rank's messages are received.  A failure found after MPI_Finalize
 * can no longer be sent: a rank other than 0 prints its FAIL line itself.
 */
static inline int emu_finish(emu_test *t)
{
	int result = 0;
	if (t->rank == 0) {
		for (int r = 1; r < t->size; r++)
			if (!t->stashed[r])
				MPI_Recv(t->stash + (size_t)r * EMU_VLEN,
					 EMU_VLEN, MPI_INT, r,
					 EMU_TAG_VERDICT, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
		result = t->nfail != 0;
		for (int r = 1; r < t->size; r++)
			result |= t->stash[(size_t)r * EMU_VLEN] != 0;
		for (int r = 1; r < t->size; r++)
			MPI_Send(&result, 1, MPI_INT, r, EMU_TAG_RESULT,
				 MPI_COMM_WORLD);
	} else {
		int v[EMU_VLEN];
		emu_verdict_pack(t, v);
		MPI_Send(v, EMU_VLEN, MPI_INT, 0, EMU_TAG_VERDICT,
			 MPI_COMM_WORLD);
		MPI_Recv(&result, 1, MPI_INT, 0, EMU_TAG_RESULT,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	int before = t->nfail;
	if (t->after_finalize)
		t->after_finalize(t);
	if (t->rank == 0) {
		emu_verdict_pack(t, t->stash);
		result = emu_report(t);
	} else if (t->nfail > before) {
		printf("FAIL %s: rank %d: %s (after MPI_Finalize)\n", t->name,
		       t->rank, t->what);
		fflush(stdout);
		result = 1;
	}
	free(t->stash);
	free(t->stashed);
	t->stash = NULL;
	t->stashed = NULL;
	return result;
}

/* The ranks at distance d to the right and left of `me' (mod size). */
static inline int emu_right(const emu_test *t, int d)
{
	return (int)(((long)t->rank + d) % t->size);
}

static inline int emu_left(const emu_test *t, int d)
{
	return (int)((((long)t->rank - d) % t->size + t->size) % t->size);
}

/*
 * The peer distances every program uses: size/2 (a peer in another
 * process when ranks are placed in blocks) and 1 (usually the same
 * process); one distance when they coincide.  Returns how many.
 */
static inline int emu_distances(const emu_test *t, int d[2])
{
	int n = 0;
	d[n++] = t->size / 2;
	if (t->size / 2 != 1)
		d[n++] = 1;
	return n;
}

/* part(t, to, from) for each distance d of emu_distances(), in order,
 * with to = rank+d and from = rank-d. */
static inline void emu_each_peer(emu_test *t,
				 void (*part)(emu_test *t, int to, int from))
{
	int dist[2];
	int nd = emu_distances(t, dist);
	for (int k = 0; k < nd; k++)
		part(t, emu_right(t, dist[k]), emu_left(t, dist[k]));
}

/*
 * A handshake on `tag': tell rank `tell' (a one-int MPI_Isend, whose
 * request the caller completes later in *rq) and wait until rank
 * `wait_for' tells this rank the same.  In a shift to rank+d,
 * emu_handshake(from, to, ...) reads "my receive is posted; go on once
 * my receiver's is too".
 */
static inline void emu_handshake(int tell, int wait_for, int tag,
				 MPI_Request *rq)
{
	static const int one = 1;
	int in = 0;
	MPI_Isend(&one, 1, MPI_INT, tell, tag, MPI_COMM_WORLD, rq);
	MPI_Recv(&in, 1, MPI_INT, wait_for, tag, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
}

#endif /* EMUTEST_H */
