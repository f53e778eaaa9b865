/*
 * lifecycle.c -- what a process does before and after main(), done per
 * virtual rank: the program's constructors, its destructors and atexit
 * handlers, and the C++ runtime's record of the exceptions being handled.
 *
 * Constructors.  sibylcc (and sibylcxx, sibylfort) renames the
 * .init_array and .fini_array sections of every object it compiles to
 * sibylpriv_init and sibylpriv_fini, so the loader does not run them at
 * the start of the process.  Each rank runs the whole sibylpriv_init
 * list, in link order, on its own stack with its own copy of the
 * globals, just before its main() -- as each MPI process runs its
 * constructors.  A C++ global std::vector therefore gets one heap buffer
 * per rank, filled by that rank, instead of one buffer shared by all
 * ranks through the copied image of the globals.  Constructors given a
 * priority (__attribute__((constructor(N))), init_priority) stay in
 * .init_array.N and run once per process, before any rank: compilers
 * use priorities for their own per-process set-up (AddressSanitizer's
 * module constructors), and so may a program that wants it.
 *
 * Destructors.  While a rank runs, __cxa_atexit() -- through which C++
 * registers the destructor of each constructed global and function-local
 * static, and atexit() registers its handler -- records the program's
 * registrations (those of the executable's own objects, told by their DSO
 * handle) for that rank.  When the rank ends -- main returns, or exit()
 * after MPI_Finalize -- its handlers run in reverse order of
 * registration, then its sibylpriv_fini list in reverse, as exit() does
 * in a process.  Registrations by shared libraries and outside any rank
 * go to the C library's __cxa_atexit, unchanged.
 *
 * Exceptions.  libstdc++ keeps the exceptions being caught (a chain
 * through the active catch blocks) and the count of uncaught ones per
 * thread (__cxa_get_globals()).  The ranks of a process share the
 * thread, and a rank may block in MPI inside a catch block while another
 * throws and catches: the scheduler saves the chain of the rank that
 * stops and installs the one of the rank that runs (emu_life_enter and
 * emu_life_leave, from privatize.c).  Unwinding stops at the bottom of a
 * rank's stack (ult_ctx_start marks it), so an uncaught exception calls
 * std::terminate in that rank as in a process.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dlfcn.h>
#include <stdlib.h>

#include "emu_private.h"

#define HIDDEN __attribute__((visibility("hidden")))
#define WEAK_HIDDEN __attribute__((weak, visibility("hidden")))

typedef void (*init_fn)(int, char **, char **);
typedef void (*fini_fn)(void);

extern const init_fn __start_sibylpriv_init[] WEAK_HIDDEN;
extern const init_fn __stop_sibylpriv_init[] WEAK_HIDDEN;
extern const fini_fn __start_sibylpriv_fini[] WEAK_HIDDEN;
extern const fini_fn __stop_sibylpriv_fini[] WEAK_HIDDEN;
/* The executable's DSO handle (crtbegin.o): the program's objects pass
 * its address to __cxa_atexit. */
extern void *__dso_handle HIDDEN;
extern char **environ;

/* libstdc++'s per-thread exception state, when the program links it. */
struct emu_eh_globals {
	void *caught;           /* __cxa_exception *caughtExceptions */
	unsigned int uncaught;  /* uncaughtExceptions */
};
extern struct emu_eh_globals *__cxa_get_globals(void)
	__attribute__((weak));

typedef struct life_fn {
	void (*fn)(void *);
	void *arg;
} life_fn;

typedef struct life_state {
	life_fn *fns;           /* the rank's __cxa_atexit registrations */
	size_t n, cap;
	size_t fini_left;       /* sibylpriv_fini entries not yet run */
	int ending;             /* emu_life_end has begun */
	void *eh_caught;        /* the exception state while stopped */
	unsigned int eh_uncaught;
} life_state;

static life_state *life_of(emu_rank *r)
{
	if (!r->life && !(r->life = calloc(1, sizeof(life_state))))
		emu_fatal("rank %d: out of memory for its destructors",
			  r->world);
	return r->life;
}

void emu_life_construct(int argc, char **argv)
{
	for (const init_fn *f = __start_sibylpriv_init;
	     f && f < __stop_sibylpriv_init; f++)
		if (*f && *f != (init_fn)-1)
			(*f)(argc, argv, environ);
}

void emu_life_end(emu_rank *r)
{
	size_t nfini = __start_sibylpriv_fini ?
		(size_t)(__stop_sibylpriv_fini - __start_sibylpriv_fini) : 0;
	/* Nothing registered, nothing to run: no state to make. */
	if (!r->life && nfini == 0)
		return;
	life_state *s = life_of(r);
	if (!s->ending) {
		s->ending = 1;
		s->fini_left = nfini;
	}
	/* Each entry is taken off before it runs: an exit() inside one
	 * comes back here (sched.c) and goes on with the next. */
	while (s->n > 0) {
		life_fn f = s->fns[--s->n];
		f.fn(f.arg);
	}
	while (s->fini_left > 0) {
		fini_fn f = __start_sibylpriv_fini[--s->fini_left];
		if (f && f != (fini_fn)-1)
			f();
	}
}

void emu_life_free_rank(emu_rank *r)
{
	life_state *s = r->life;
	if (s) {
		free(s->fns);
		free(s);
	}
	r->life = NULL;
}

void emu_life_enter(emu_rank *r)
{
	if (!__cxa_get_globals)
		return;
	life_state *s = r->life;
	struct emu_eh_globals *g = __cxa_get_globals();
	g->caught = s ? s->eh_caught : NULL;
	g->uncaught = s ? s->eh_uncaught : 0;
}

void emu_life_leave(emu_rank *r)
{
	if (!__cxa_get_globals)
		return;
	struct emu_eh_globals *g = __cxa_get_globals();
	if (g->caught || g->uncaught || r->life) {
		life_state *s = life_of(r);
		s->eh_caught = g->caught;
		s->eh_uncaught = g->uncaught;
	}
	g->caught = NULL;
	g->uncaught = 0;
}

/* The program's own registrations while a rank runs: the rank's; any
 * other: the C library's. */
__attribute__((visibility("default")))
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
	emu_rank *r = emu.current;
	if (r && dso == &__dso_handle) {
		life_state *s = life_of(r);
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 16;
			life_fn *n = realloc(s->fns, cap * sizeof *n);
			if (!n)
				return -1;
			s->fns = n;
			s->cap = cap;
		}
		s->fns[s->n].fn = fn;
		s->fns[s->n].arg = arg;
		s->n++;
		return 0;
	}
	static int (*next)(void (*)(void *), void *, void *);
	if (!next) {
		next = (int (*)(void (*)(void *), void *, void *))
			dlsym(RTLD_NEXT, "__cxa_atexit");
		if (!next)
			return -1;
	}
	return next(fn, arg, dso);
}
