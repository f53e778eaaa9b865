/*
 * diag.c -- what the emulator says when something goes wrong: the
 * runtime's fatal errors and warnings, MPI errors and the jump points of
 * the error handlers that return (EMU_API), the names and texts of the
 * error codes (MPI_Error_string, MPI_Error_class), the reports of fatal
 * signals and stack overflows, which run in signal handlers and so format
 * with nothing but write(), and the process's state file, which says to
 * `sibyl emulate' how a process ended when it could not say it itself.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_private.h"

/* ------------------------------------------------------------ messages */

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = snprintf(buf, sizeof buf, "sibyl: %s", kind);
	vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	emu_out_flush();
	fprintf(stderr, "%s\n", buf);
	fflush(stderr);
}

void emu_fatal(const char *fmt, ...)
{
	va_list ap;
	emu_out_flush();        /* what the ranks printed comes first */
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	emu_rec_abort();
	emu_tr_abort(3);
}

void emu_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

static const char *const err_names[] = {
	"MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE",
	"MPI_ERR_TAG", "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST",
	"MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
	"MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE",
	"MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS",
	"MPI_ERR_PENDING", "MPI_ERR_NO_MEM", "MPI_ERR_UNSUPPORTED_OPERATION",
	"MPI_ERR_INFO_KEY", "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO_NOKEY",
	"MPI_ERR_INFO", "MPI_ERR_WIN", "MPI_ERR_BASE", "MPI_ERR_SIZE",
	"MPI_ERR_DISP", "MPI_ERR_LOCKTYPE", "MPI_ERR_ASSERT",
	"MPI_ERR_RMA_CONFLICT", "MPI_ERR_RMA_SYNC", "MPI_ERR_RMA_RANGE",
	"MPI_ERR_RMA_ATTACH", "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_FLAVOR"
};

static const char *const err_texts[] = {
	"no error", "invalid buffer pointer", "invalid count argument",
	"invalid datatype", "invalid tag argument", "invalid communicator",
	"invalid rank", "invalid request", "invalid root",
	"invalid group", "invalid reduce operation", "invalid topology",
	"invalid dimension argument", "invalid argument of some other kind",
	"unknown error", "message truncated", "known error not in this list",
	"internal error in the Sibyl emulator",
	"error code is in status", "pending request", "out of memory",
	"operation not supported by the Sibyl emulator",
	"info key too long", "info value too long",
	"no such key in the info object", "invalid info object",
	"invalid window", "invalid base address", "invalid size",
	"invalid displacement unit", "invalid lock type",
	"invalid assertion", "conflicting accesses to a window",
	"wrong synchronization of one-sided calls",
	"target memory is not in the window",
	"memory cannot be attached to the window",
	"memory cannot be shared", "the window has the wrong flavor"
};

_Static_assert(sizeof err_names / sizeof *err_names == MPI_ERR_LASTCODE + 1,
	       "an error class without a name");
_Static_assert(sizeof err_texts / sizeof *err_texts == MPI_ERR_LASTCODE + 1,
	       "an error class without a text");

int emu_mpi_error(emu_rank *r, const char *call, int code,
		  const char *fmt, ...)
{
	char detail[512];
	va_list ap;
	if (code < 0 || code > MPI_ERR_LASTCODE)
		code = MPI_ERR_UNKNOWN;
	if (r && r->err_jb && emu_comm_errhandler(r) != MPI_ERRORS_ARE_FATAL) {
		r->err_code = code;
		longjmp(*r->err_jb, 1);
	}
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	emu_out_flush();
	fprintf(stderr, "sibyl: rank %d in %s: %s: %s\n"
		"sibyl: the error handler is MPI_ERRORS_ARE_FATAL; aborting "
		"the emulation\n", r ? r->world : -1, call, err_names[code],
		detail);
	fflush(stderr);
	emu_rec_abort();
	emu_tr_abort(code ? code : 1);
}

void emu_api_disarm(emu_api_guard *g)
{
	g->r->err_jb = g->prev;
}

/* An error returned (MPI_ERRORS_RETURN): close the call's bookkeeping. */
int emu_api_failed(emu_rank *r, const char *call)
{
	r->blocked_req = NULL;
	r->blocked_n = 0;
	if (r->in_call)
		emu_rec_leave(r, call);
	/* A handler of the program's runs now, as the program's code. */
	emu_comm_user_errhandler(r, r->err_code);
	return r->err_code;
}

/*
 * Error classes and codes of the program's own (MPI_Add_error_class,
 * _code, _string).  The calls are local: each virtual rank has its own
 * table, as each process of a real run has, so ranks that add their
 * classes in the same order get the same values.  User codes follow
 * MPI_ERR_LASTCODE; classes and codes share that numbering.
 */
typedef struct emu_errs {
	int n, cap;
	int *class_of;          /* of code MPI_ERR_LASTCODE + 1 + i */
	char **text;            /* MPI_Add_error_string's, or NULL */
	int lastused;           /* the MPI_LASTUSEDCODE attribute's value */
} emu_errs;

static emu_errs *errs_of(emu_rank *r)
{
	if (!r->errs) {
		r->errs = calloc(1, sizeof(emu_errs));
		if (!r->errs)
			emu_fatal("out of memory");
		((emu_errs *)r->errs)->lastused = MPI_ERR_LASTCODE;
	}
	return r->errs;
}

/* The index of a user code of r in its table, or -1. */
static int user_code(emu_rank *r, int code)
{
	emu_errs *e = r ? r->errs : NULL;
	int i = code - MPI_ERR_LASTCODE - 1;
	return e && i >= 0 && i < e->n ? i : -1;
}

int *emu_err_lastused(emu_rank *r)
{
	return &errs_of(r)->lastused;
}

const char *emu_err_user_text(emu_rank *r, int code)
{
	int i = user_code(r, code);
	return i < 0 ? NULL : ((emu_errs *)r->errs)->text[i] ?
		((emu_errs *)r->errs)->text[i] : "";
}

void emu_err_free_rank(emu_rank *r)
{
	emu_errs *e = r->errs;
	if (!e)
		return;
	for (int i = 0; i < e->n; i++)
		free(e->text[i]);
	free(e->text);
	free(e->class_of);
	free(e);
	r->errs = NULL;
}

static int add_code(emu_rank *r, const char *call, int class)
{
	emu_errs *e = errs_of(r);
	if (e->n >= INT32_MAX / 2 - MPI_ERR_LASTCODE)
		emu_mpi_error(r, call, MPI_ERR_OTHER, "too many error codes");
	if (e->n == e->cap) {
		int cap = e->cap ? 2 * e->cap : 8;
		int *c = realloc(e->class_of, (size_t)cap * sizeof *c);
		if (c)
			e->class_of = c;
		char **t = c ? realloc(e->text, (size_t)cap * sizeof *t) : NULL;
		if (!t)
			emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of memory");
		e->text = t;
		e->cap = cap;
	}
	int code = MPI_ERR_LASTCODE + 1 + e->n;
	e->class_of[e->n] = class < 0 ? code : class;
	e->text[e->n] = NULL;
	e->n++;
	e->lastused = code;
	return code;
}

int MPI_Add_error_class(int *errorclass)
{
	const char *call = "MPI_Add_error_class";
	EMU_API(r, call);
	if (!errorclass)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL errorclass pointer");
	*errorclass = add_code(r, call, -1);
	return MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
	const char *call = "MPI_Add_error_code";
	EMU_API(r, call);
	int i = user_code(r, errorclass);
	if (!errorcode)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL errorcode pointer");
	if ((errorclass < 0 || errorclass > MPI_ERR_LASTCODE) &&
	    (i < 0 || ((emu_errs *)r->errs)->class_of[i] != errorclass))
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not an error class "
			      "(a predefined one, or one MPI_Add_error_class "
			      "gave this rank)", errorclass);
	*errorcode = add_code(r, call, errorclass);
	return MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char *string)
{
	const char *call = "MPI_Add_error_string";
	EMU_API(r, call);
	int i = user_code(r, errorcode);
	if (i < 0)
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not an error code "
			      "or class MPI_Add_error_class or "
			      "MPI_Add_error_code gave this rank%s", errorcode,
			      errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE ?
			      " (the strings of predefined ones are fixed)" :
			      "");
	if (!string)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL string");
	size_t len = strlen(string);
	if (len >= MPI_MAX_ERROR_STRING)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the string has %zu "
			      "characters; at most %d fit (MPI_MAX_ERROR_STRING "
			      "- 1)", len, MPI_MAX_ERROR_STRING - 1);
	char *copy = strdup(string);
	if (!copy)
		emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out of memory");
	emu_errs *e = r->errs;
	free(e->text[i]);
	e->text[i] = copy;
	return MPI_SUCCESS;
}

int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
	const char *s = errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE ?
		err_texts[errorcode] : NULL;
	const char *user = emu.current ?
		emu_err_user_text(emu.current, errorcode) : NULL;
	int n;
	if (s)
		n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s",
			     err_names[errorcode], s);
	else if (user)
		n = snprintf(string, MPI_MAX_ERROR_STRING, "%s", user);
	else
		n = snprintf(string, MPI_MAX_ERROR_STRING, "unknown error "
			     "code %d", errorcode);
	*resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
	return s || user ? MPI_SUCCESS : MPI_ERR_ARG;
}

int MPI_Error_class(int errorcode, int *errorclass)
{
	emu_rank *r = emu.current;
	int i = user_code(r, errorcode);
	if (i >= 0) {
		*errorclass = ((emu_errs *)r->errs)->class_of[i];
		return MPI_SUCCESS;
	}
	if (errorcode < 0 || errorcode > MPI_ERR_LASTCODE)
		return MPI_ERR_ARG;
	*errorclass = errorcode;
	return MPI_SUCCESS;
}

/* ----------------------------------------------------- stack overflow */

void emu_stack_overflow(size_t slot, const char *how)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "sibyl: rank %u overflowed its "
		"stack of %zu bytes (detected by %s); give the ranks more "
		"with `sibyl emulate --stack-size SIZE' (or SIBYL_STACK_SIZE"
		"=BYTES), e.g. --stack-size %zuKiB\n", emu.first +
		(unsigned)slot, emu.stack_size, how, emu.stack_size / 512);
	emu_out_drain_signal();
	if (write(2, buf, (size_t)n) < 0)
		_exit(3);
	emu_tr_abort(3);
}

/* ---------------------------------------------------- fatal signals */

/*
 * A fault in the program (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) is
 * reported with the virtual rank that was running, then goes to the
 * handler installed before (Open MPI's backtrace) or takes its default
 * action, so that mpirun and `sibyl emulate' see the signal.  The handler
 * runs on an alternate stack (a rank's stack may be what overflowed) and
 * formats with nothing but write().  The ULT pool's guard-page handler,
 * installed later, passes every SIGSEGV that is not a stack overflow on
 * to this one.
 */
static const struct { int sig; const char *name, *what; } fatal_sigs[] = {
	{ SIGSEGV, "SIGSEGV", "invalid memory reference" },
	{ SIGBUS, "SIGBUS", "bus error" },
	{ SIGFPE, "SIGFPE", "arithmetic exception" },
	{ SIGILL, "SIGILL", "illegal instruction" },
	{ SIGABRT, "SIGABRT", "abort" },
};
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])
/* What handled them before is emu.diag.fatal_old. */
_Static_assert(NFATAL == EMU_FATAL_NSIGS, "EMU_FATAL_NSIGS is not the "
	       "number of fatal_sigs");
#define FATAL_ALTSTACK (64 * 1024)

static void fatal_put(char *buf, size_t cap, size_t *n, const char *s)
{
	while (*s && *n + 1 < cap)
		buf[(*n)++] = *s++;
}

static void fatal_putu(char *buf, size_t cap, size_t *n, uint64_t v,
		       int base)
{
	char d[24], *p = d + sizeof d;
	*--p = 0;
	do {
		*--p = "0123456789abcdef"[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v);
	fatal_put(buf, cap, n, base == 16 ? "0x" : "");
	fatal_put(buf, cap, n, p);
}

/* Rewrite the state file: its head, then `what' (async-signal-safe). */
static void state_write(const char *what)
{
	const emu_diag_state *d = &emu.diag;

	if (!d->state_path[0])
		return;
	int fd = open(d->state_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644);
	if (fd < 0)
		return;
	ssize_t w = write(fd, d->state_head, d->state_head_len);
	w = write(fd, what, strlen(what));
	w = write(fd, "\n", 1);
	(void)w;
	close(fd);
}

static void on_term(int sig, siginfo_t *si, void *uctx)
{
	state_write("terminated");
	const struct sigaction *old = &emu.diag.term_old;
	sigaction(sig, old, NULL);
	if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		old->sa_sigaction(sig, si, uctx);
		return;
	}
	if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		old->sa_handler(sig);
		return;
	}
	if (old->sa_handler == SIG_DFL)
		raise(sig);
}

void emu_state_begin(void)
{
	emu_diag_state *d = &emu.diag;
	char host[256] = "";
	int n;

	gethostname(host, sizeof host - 1);
	for (char *c = host; *c; c++)
		if (*c == ' ' || *c == '\n')
			*c = '_';
	n = snprintf(d->state_path, sizeof d->state_path,
		     "%s/proc-%06d.state", emu.trace_path, emu.proc);
	if (n < 0 || (size_t)n >= sizeof d->state_path) {
		d->state_path[0] = '\0';
		return;
	}
	n = snprintf(d->state_head, sizeof d->state_head, "pid=%ld host=%s "
		     "process=%d first=%u count=%u state=", (long)getpid(),
		     host[0] ? host : "-", emu.proc, emu.first, emu.count);
	d->state_head_len = n > 0 && (size_t)n < sizeof d->state_head ?
			    (size_t)n : 0;
	state_write("running");

	/* SIGTERM ignored on entry (nohup) stays ignored. */
	struct sigaction sa;
	if (sigaction(SIGTERM, NULL, &d->term_old) == 0 &&
	    !(d->term_old.sa_flags & SA_SIGINFO) &&
	    d->term_old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_term;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &d->term_old);
}

void emu_state_end(void)
{
	emu_diag_state *d = &emu.diag;

	if (!d->state_path[0])
		return;
	struct sigaction cur;
	if (sigaction(SIGTERM, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_term)
		sigaction(SIGTERM, &d->term_old, NULL);
	unlink(d->state_path);
	d->state_path[0] = '\0';
}

static void fatal_signal(int sig, siginfo_t *si, void *uctx)
{
	const emu_rank *r = emu.current;
	char buf[512];
	size_t n = 0, i;

	for (i = 0; i < NFATAL && fatal_sigs[i].sig != sig; i++)
		;
	fatal_put(buf, sizeof buf, &n, "sibyl: ");
	if (r) {
		fatal_put(buf, sizeof buf, &n, "rank ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)r->world, 10);
		fatal_put(buf, sizeof buf, &n, " (process ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)emu.proc, 10);
		fatal_put(buf, sizeof buf, &n, ")");
	} else {
		fatal_put(buf, sizeof buf, &n, "process ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)emu.proc, 10);
		fatal_put(buf, sizeof buf, &n, " (in the runtime, no rank "
			  "running)");
	}
	fatal_put(buf, sizeof buf, &n, " received ");
	fatal_put(buf, sizeof buf, &n, i < NFATAL ? fatal_sigs[i].name :
		  "a fatal signal");
	if (i < NFATAL) {
		fatal_put(buf, sizeof buf, &n, " (");
		fatal_put(buf, sizeof buf, &n, fatal_sigs[i].what);
		fatal_put(buf, sizeof buf, &n, ")");
	}
	if (si && si->si_code > 0 && sig != SIGABRT) {
		fatal_put(buf, sizeof buf, &n, " at address ");
		fatal_putu(buf, sizeof buf, &n, (uint64_t)(uintptr_t)
			   si->si_addr, 16);
	}
	if (r && r->in_call && r->blocked_in) {
		fatal_put(buf, sizeof buf, &n, " inside ");
		fatal_put(buf, sizeof buf, &n, r->blocked_in);
	} else if (r) {
		fatal_put(buf, sizeof buf, &n, " in the program's own code");
	}
	fatal_put(buf, sizeof buf, &n, "; the emulation stops (debug it "
		  "with a smaller --ranks, or under gdb as the process "
		  "runs one rank at a time)\n");
	{
		char st[64];
		size_t m = 0;

		fatal_put(st, sizeof st, &m, "signal ");
		fatal_put(st, sizeof st, &m, i < NFATAL ? fatal_sigs[i].name :
			  "?");
		st[m < sizeof st ? m : sizeof st - 1] = '\0';
		state_write(st);
	}
	emu_out_drain_signal();
	ssize_t w = write(STDERR_FILENO, buf, n);
	(void)w;

	/* Then whoever handled it before (Open MPI prints a backtrace). */
	const struct sigaction *old = i < NFATAL ? &emu.diag.fatal_old[i] :
		NULL;
	if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
		sigaction(sig, old, NULL);
		old->sa_sigaction(sig, si, uctx);
		return;
	}
	if (old && !(old->sa_flags & SA_SIGINFO) &&
	    old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
		sigaction(sig, old, NULL);
		old->sa_handler(sig);
		return;
	}
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/* A fault repeats when the handler returns; a sent signal (kill,
	 * abort()) must be sent again. */
	if (!si || si->si_code <= 0)
		raise(sig);
}

void emu_fatal_signals_init(void)
{
	char **alt = &emu.diag.altstack;
	stack_t ss;
	struct sigaction sa;

	if (!*alt && (*alt = malloc(FATAL_ALTSTACK))) {
		ss.ss_sp = *alt;
		ss.ss_size = FATAL_ALTSTACK;
		ss.ss_flags = 0;
		if (sigaltstack(&ss, NULL) != 0) {
			free(*alt);
			*alt = NULL;
		}
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal_sigs[i].sig, &sa, &emu.diag.fatal_old[i]);
}
