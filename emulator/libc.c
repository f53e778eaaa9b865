/*
 * libc.c -- the C library's per-process state, made per rank (emu_priv.h).
 *
 * A few libc functions keep hidden state between calls: getopt's position
 * in argv, the seeds of rand()/random() and of the drand48 family,
 * strtok's position.  In a process hosting many virtual ranks that state
 * would be shared, so the ranks would read each other's options, draw
 * from each other's random sequence and tokenize each other's strings.
 * This file defines those functions for the program -- libsibyl-emu.a is
 * linked before libc, so the program's calls bind here -- with the state
 * kept per rank, and produces exactly glibc's results: the random
 * generators are glibc's own reentrant ones (random_r, drand48_r) on a
 * per-rank state; getopt is a re-implementation of glibc's (its state is
 * static inside libc) including argument permutation, "+", "-", ":" and
 * "W;" in the option string, POSIXLY_CORRECT, and the same messages.
 * libc's own internal calls use internal names and never come here.
 *
 * The variables the program reads directly -- errno, optind, optarg,
 * opterr, optopt -- stay libc's: the scheduler saves them for the rank
 * that stops and restores them for the one that runs (emu_libc_leave and
 * emu_libc_enter, called from privatize.c).
 *
 * exit() in a rank that has called MPI_Finalize ends that rank only, with
 * that exit status; before MPI_Finalize it is an error that stops the
 * emulation (the other ranks would wait for it forever); outside any rank
 * (the runtime's own code) it is libc's exit.
 *
 * A rank that binds itself to CPUs (sched_setaffinity, pthread_setaffinity_np
 * on its own thread: Graph500's AML binds each process to the core of its
 * node-local rank) would move the emulating process, whose thread runs
 * every rank of it: each rank in turn, the last one winning, so that both
 * processes of a 2-core host ended on one core.  Those calls succeed and
 * bind nothing (a note says so once); the rank's binding on the machine
 * modelled is the simulation's (machine.cores_per_node, the mapping).
 *
 * Per-rank memory: nothing until a rank uses one of these functions or
 * leaves a non-zero errno behind; a bare errno is kept in the rank's
 * pointer itself (tagged), the rest in a small block allocated on first
 * use, the random states (~180 and ~24 bytes) only by their users.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_private.h"

/*
 * The replacements are hidden: the program's objects, linked into the same
 * executable, bind to them, while the shared libraries (libc itself, Open
 * MPI, hwloc) keep binding to libc's own -- their random numbers do not
 * come out of a rank's sequence.
 */
#define LIBC_API __attribute__((visibility("hidden")))

/* glibc's getopt when a program asks for strict POSIX (bits/getopt_posix.h
 * redirects getopt to it). */
int __posix_getopt(int argc, char *const *argv, const char *optstring);

enum { PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER };

typedef struct rnd_state {
	struct random_data data;
	int32_t own[32];        /* the default 128-byte state */
	char *buf;              /* the state given to initstate/setstate */
} rnd_state;

typedef struct libc_state {
	int err;                /* errno while the rank does not run */
	int optind, opterr, optopt;
	char *optarg;
	/* getopt's own */
	int go_init, go_order, go_first, go_last;
	char *go_next;
	char *strtok_save;
	rnd_state *rnd;
	struct drand48_data *d48;
} libc_state;

/* The interposition's own state, not the process state's (emu): the C
 * library's functions it replaces are called by any code of the program,
 * constructors and destructors included, before the runtime starts and
 * after it ends. */
static libc_state outside;     /* the runtime's, outside any rank */
static emu_rank *cur;          /* whose optind... libc's variables hold */
/* What main() finds in a new process (the runtime's own start, Open MPI
 * included, must not leak into the ranks'). */
enum { OPTIND_START = 1, OPTERR_START = 1, OPTOPT_START = '?' };

/* r->libc: NULL (errno 0, everything else untouched), an errno tagged
 * with the low bit, or a libc_state. */
static libc_state *peek(const emu_rank *r)
{
	uintptr_t v = (uintptr_t)r->libc;
	return v & 1 ? NULL : (libc_state *)r->libc;
}

static int tagged_errno(const emu_rank *r)
{
	uintptr_t v = (uintptr_t)r->libc;
	return v & 1 ? (int)(v >> 1) : 0;
}

static libc_state *state_of(emu_rank *r)
{
	if (!r)
		return &outside;
	libc_state *s = peek(r);
	if (s)
		return s;
	if (!(s = calloc(1, sizeof *s)))
		emu_fatal("rank %d: out of memory for its libc state",
			  r->world);
	s->err = tagged_errno(r);
	s->optind = OPTIND_START;
	s->opterr = OPTERR_START;
	s->optopt = OPTOPT_START;
	s->optarg = NULL;
	r->libc = s;
	return s;
}

/* The state of the calling rank (or the runtime's). */
static libc_state *self(void)
{
	return state_of(emu.current);
}

/* --------------------------------------------------------- switching */

static void save_opts(emu_rank *r)
{
	libc_state *s = peek(r);
	if (!s && optind == OPTIND_START && opterr == OPTERR_START &&
	    optopt == OPTOPT_START && optarg == NULL)
		return;
	s = state_of(r);
	s->optind = optind;
	s->opterr = opterr;
	s->optopt = optopt;
	s->optarg = optarg;
}

void emu_libc_enter(emu_rank *r)
{
	libc_state *s = peek(r);
	if (r != cur) {
		if (cur)
			save_opts(cur);
		optind = s ? s->optind : OPTIND_START;
		opterr = s ? s->opterr : OPTERR_START;
		optopt = s ? s->optopt : OPTOPT_START;
		optarg = s ? s->optarg : NULL;
		cur = r;
	}
	errno = s ? s->err : tagged_errno(r);
}

void emu_libc_leave(emu_rank *r)
{
	int e = errno;
	libc_state *s = peek(r);
	if (s)
		s->err = e;
	else if (e >= 0 && e < (1 << 30))
		r->libc = e ? (void *)(((uintptr_t)e << 1) | 1) : NULL;
	else
		state_of(r)->err = e;
}

void emu_libc_free_rank(emu_rank *r)
{
	libc_state *s = peek(r);
	if (s) {
		free(s->rnd);
		free(s->d48);
		free(s);
	}
	r->libc = NULL;
	if (cur == r)
		cur = NULL;
}

/* -------------------------------------------------------------- getopt */

/* Move the non-options skipped so far, argv[first..last), after the
 * options that followed them, argv[last..optind), keeping both orders. */
static void exchange(char **argv, libc_state *d)
{
	int bottom = d->go_first, middle = d->go_last, top = d->optind;
	while (top > middle && middle > bottom) {
		if (top - middle > middle - bottom) {
			/* The lower segment is the shorter one: swap it with
			 * the top end of the upper one. */
			int len = middle - bottom;
			for (int i = 0; i < len; i++) {
				char *t = argv[bottom + i];
				argv[bottom + i] = argv[top - len + i];
				argv[top - len + i] = t;
			}
			top -= len;
		} else {
			int len = top - middle;
			for (int i = 0; i < len; i++) {
				char *t = argv[bottom + i];
				argv[bottom + i] = argv[middle + i];
				argv[middle + i] = t;
			}
			bottom += len;
		}
	}
	d->go_first += d->optind - d->go_last;
	d->go_last = d->optind;
}

static const char *go_initialize(const char *optstring, libc_state *d,
				 int posixly_correct)
{
	if (d->optind == 0)
		d->optind = 1;
	d->go_first = d->go_last = d->optind;
	d->go_next = NULL;
	if (optstring[0] == '-') {
		d->go_order = RETURN_IN_ORDER;
		optstring++;
	} else if (optstring[0] == '+') {
		d->go_order = REQUIRE_ORDER;
		optstring++;
	} else if (posixly_correct || getenv("POSIXLY_CORRECT")) {
		d->go_order = REQUIRE_ORDER;
	} else {
		d->go_order = PERMUTE;
	}
	d->go_init = 1;
	return optstring;
}

/* Report an ambiguous abbreviation d->go_next of several long options. */
static void ambiguous(char **argv, const struct option *longopts,
		      const unsigned char *set, int n, const char *prefix,
		      const char *name)
{
	flockfile(stderr);
	fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:",
		argv[0], prefix, name);
	for (int i = 0; i < n; i++)
		if (set[i])
			fprintf(stderr, " '%s%s'", prefix, longopts[i].name);
	fprintf(stderr, "\n");
	funlockfile(stderr);
}

/* d->go_next is a long option (after `prefix'); -1 when long_only lets
 * it be read as short options instead. */
static int long_option(int argc, char **argv, const char *optstring,
		       const struct option *longopts, int *longind,
		       int long_only, libc_state *d, int print_errors,
		       const char *prefix)
{
	char *nameend = d->go_next;
	const struct option *p, *found = NULL;
	int n_options, index = 0;

	while (*nameend && *nameend != '=')
		nameend++;
	size_t namelen = (size_t)(nameend - d->go_next);

	/* An exact match first (counting the options on the way). */
	for (p = longopts, n_options = 0; p->name; p++, n_options++)
		if (!strncmp(p->name, d->go_next, namelen) &&
		    strlen(p->name) == namelen) {
			found = p;
			index = n_options;
			break;
		}
	if (!found) {
		/* Then an abbreviation; several that differ in what they
		 * do are ambiguous. */
		unsigned char *ambig = NULL;
		int ambig_fallback = 0, indfound = -1, i = 0;
		for (p = longopts; p->name; p++, i++) {
			if (strncmp(p->name, d->go_next, namelen))
				continue;
			if (!found) {
				found = p;
				indfound = i;
			} else if (long_only || found->has_arg != p->has_arg ||
				   found->flag != p->flag ||
				   found->val != p->val) {
				if (ambig_fallback)
					continue;
				if (!print_errors) {
					ambig_fallback = 1;
					continue;
				}
				if (!ambig) {
					ambig = calloc((size_t)n_options, 1);
					if (!ambig) {
						ambig_fallback = 1;
						continue;
					}
					ambig[indfound] = 1;
				}
				ambig[i] = 1;
			}
		}
		if (ambig || ambig_fallback) {
			if (print_errors && ambig)
				ambiguous(argv, longopts, ambig, n_options,
					  prefix, d->go_next);
			else if (print_errors)
				fprintf(stderr, "%s: option '%s%s' is "
					"ambiguous\n", argv[0], prefix,
					d->go_next);
			free(ambig);
			d->go_next += strlen(d->go_next);
			d->optind++;
			d->optopt = 0;
			return '?';
		}
		index = indfound;
	}
	if (!found) {
		/* Not a long option.  getopt_long_only reads "-x..." as
		 * short options when x is one. */
		if (!long_only || argv[d->optind][1] == '-' ||
		    !strchr(optstring, *d->go_next)) {
			if (print_errors)
				fprintf(stderr, "%s: unrecognized option "
					"'%s%s'\n", argv[0], prefix,
					d->go_next);
			d->go_next = NULL;
			d->optind++;
			d->optopt = 0;
			return '?';
		}
		return -1;
	}

	d->optind++;
	d->go_next = NULL;
	if (*nameend) {
		if (!found->has_arg) {
			if (print_errors)
				fprintf(stderr, "%s: option '%s%s' doesn't "
					"allow an argument\n", argv[0], prefix,
					found->name);
			d->optopt = found->val;
			return '?';
		}
		d->optarg = nameend + 1;
	} else if (found->has_arg == required_argument) {
		if (d->optind < argc) {
			d->optarg = argv[d->optind++];
		} else {
			if (print_errors)
				fprintf(stderr, "%s: option '%s%s' requires an "
					"argument\n", argv[0], prefix,
					found->name);
			d->optopt = found->val;
			return optstring[0] == ':' ? ':' : '?';
		}
	}
	if (longind)
		*longind = index;
	if (found->flag) {
		*found->flag = found->val;
		return 0;
	}
	return found->val;
}

static int is_nonoption(char **argv, int i)
{
	return argv[i][0] != '-' || argv[i][1] == '\0';
}

/* The next option: glibc's _getopt_internal_r on the rank's state. */
static int next_option(int argc, char **argv, const char *optstring,
		       const struct option *longopts, int *longind,
		       int long_only, libc_state *d, int posixly_correct)
{
	int print_errors = d->opterr;

	if (argc < 1)
		return -1;
	d->optarg = NULL;
	if (d->optind == 0 || !d->go_init)
		optstring = go_initialize(optstring, d, posixly_correct);
	else if (optstring[0] == '-' || optstring[0] == '+')
		optstring++;
	if (optstring[0] == ':')
		print_errors = 0;

	if (!d->go_next || !*d->go_next) {
		/* The next element of argv.  The program may have moved
		 * optind back: keep the skipped range sensible. */
		if (d->go_last > d->optind)
			d->go_last = d->optind;
		if (d->go_first > d->optind)
			d->go_first = d->optind;
		if (d->go_order == PERMUTE) {
			if (d->go_first != d->go_last &&
			    d->go_last != d->optind)
				exchange(argv, d);
			else if (d->go_last != d->optind)
				d->go_first = d->optind;
			while (d->optind < argc && is_nonoption(argv,
								d->optind))
				d->optind++;
			d->go_last = d->optind;
		}
		/* "--" ends the options; what follows are non-options. */
		if (d->optind != argc && !strcmp(argv[d->optind], "--")) {
			d->optind++;
			if (d->go_first != d->go_last &&
			    d->go_last != d->optind)
				exchange(argv, d);
			else if (d->go_first == d->go_last)
				d->go_first = d->optind;
			d->go_last = argc;
			d->optind = argc;
		}
		if (d->optind == argc) {
			/* Point at the non-options moved to the end. */
			if (d->go_first != d->go_last)
				d->optind = d->go_first;
			return -1;
		}
		if (is_nonoption(argv, d->optind)) {
			if (d->go_order == REQUIRE_ORDER)
				return -1;
			d->optarg = argv[d->optind++];
			return 1;
		}
		if (longopts) {
			if (argv[d->optind][1] == '-') {
				d->go_next = argv[d->optind] + 2;
				return long_option(argc, argv, optstring,
						   longopts, longind,
						   long_only, d, print_errors,
						   "--");
			}
			if (long_only && (argv[d->optind][2] ||
					  !strchr(optstring,
						  argv[d->optind][1]))) {
				d->go_next = argv[d->optind] + 1;
				int code = long_option(argc, argv, optstring,
						       longopts, longind,
						       long_only, d,
						       print_errors, "-");
				if (code != -1)
					return code;
			}
		}
		d->go_next = argv[d->optind] + 1;
	}

	/* The next short option of this element. */
	char c = *d->go_next++;
	const char *temp = strchr(optstring, c);
	if (*d->go_next == '\0')
		d->optind++;
	if (!temp || c == ':' || c == ';') {
		if (print_errors)
			fprintf(stderr, "%s: invalid option -- '%c'\n",
				argv[0], c);
		d->optopt = c;
		return '?';
	}
	if (temp[0] == 'W' && temp[1] == ';' && longopts) {
		/* "-W foo" is "--foo". */
		if (*d->go_next != '\0') {
			d->optarg = d->go_next;
		} else if (d->optind == argc) {
			if (print_errors)
				fprintf(stderr, "%s: option requires an "
					"argument -- '%c'\n", argv[0], c);
			d->optopt = c;
			return optstring[0] == ':' ? ':' : '?';
		} else {
			d->optarg = argv[d->optind];
		}
		d->go_next = d->optarg;
		d->optarg = NULL;
		return long_option(argc, argv, optstring, longopts, longind,
				   0, d, print_errors, "-W ");
	}
	if (temp[1] == ':') {
		if (temp[2] == ':') {
			/* An optional argument: only attached. */
			if (*d->go_next != '\0') {
				d->optarg = d->go_next;
				d->optind++;
			} else {
				d->optarg = NULL;
			}
		} else if (*d->go_next != '\0') {
			d->optarg = d->go_next;
			d->optind++;
		} else if (d->optind == argc) {
			if (print_errors)
				fprintf(stderr, "%s: option requires an "
					"argument -- '%c'\n", argv[0], c);
			d->optopt = c;
			c = optstring[0] == ':' ? ':' : '?';
		} else {
			d->optarg = argv[d->optind++];
		}
		d->go_next = NULL;
	}
	return c;
}

/* libc's variables in, the rank's getopt state, libc's variables out. */
static int getopt_common(int argc, char *const *argv, const char *optstring,
			 const struct option *longopts, int *longind,
			 int long_only, int posixly_correct)
{
	libc_state *d = self();
	d->optind = optind;
	d->opterr = opterr;
	/* Like glibc, getopt permutes the array it was given. */
	int c = next_option(argc, (char **)argv, optstring, longopts, longind,
			    long_only, d, posixly_correct);
	optind = d->optind;
	optarg = d->optarg;
	optopt = d->optopt;
	return c;
}

LIBC_API int getopt(int argc, char *const *argv, const char *optstring)
{
	return getopt_common(argc, argv, optstring, NULL, NULL, 0, 0);
}

LIBC_API int __posix_getopt(int argc, char *const *argv, const char *optstring)
{
	return getopt_common(argc, argv, optstring, NULL, NULL, 0, 1);
}

LIBC_API int getopt_long(int argc, char *const *argv, const char *optstring,
		const struct option *longopts, int *longind)
{
	return getopt_common(argc, argv, optstring, longopts, longind, 0, 0);
}

LIBC_API int getopt_long_only(int argc, char *const *argv,
			      const char *optstring,
			      const struct option *longopts, int *longind)
{
	return getopt_common(argc, argv, optstring, longopts, longind, 1, 0);
}

/* ------------------------------------------------------ random numbers */

/* The rank's random() state; glibc's starts as initstate(1, 128 bytes). */
static rnd_state *rnd(void)
{
	libc_state *s = self();
	if (s->rnd)
		return s->rnd;
	rnd_state *g = calloc(1, sizeof *g);
	if (!g)
		emu_fatal("out of memory for the state of random()");
	g->buf = (char *)g->own;
	if (initstate_r(1, g->buf, sizeof g->own, &g->data) != 0)
		emu_fatal("internal error: initstate_r failed");
	return s->rnd = g;
}

LIBC_API long random(void)
{
	int32_t v;
	random_r(&rnd()->data, &v);
	return v;
}

LIBC_API int rand(void)
{
	return (int)random();
}

LIBC_API void srandom(unsigned int seed)
{
	srandom_r(seed, &rnd()->data);
}

LIBC_API void srand(unsigned int seed)
{
	srandom(seed);
}

LIBC_API char *initstate(unsigned int seed, char *state, size_t n)
{
	rnd_state *g = rnd();
	char *old = g->buf;
	if (initstate_r(seed, state, n, &g->data) != 0)
		return NULL;
	g->buf = state;
	return old;
}

LIBC_API char *setstate(char *state)
{
	rnd_state *g = rnd();
	char *old = g->buf;
	if (setstate_r(state, &g->data) != 0)
		return NULL;
	g->buf = state;
	return old;
}

/* The drand48 family's state; all zero is glibc's initial one. */
static struct drand48_data *d48(void)
{
	libc_state *s = self();
	if (!s->d48 && !(s->d48 = calloc(1, sizeof *s->d48)))
		emu_fatal("out of memory for the state of drand48()");
	return s->d48;
}

LIBC_API double drand48(void)
{
	double v;
	drand48_r(d48(), &v);
	return v;
}

LIBC_API double erand48(unsigned short xsubi[3])
{
	double v;
	erand48_r(xsubi, d48(), &v);
	return v;
}

LIBC_API long lrand48(void)
{
	long v;
	lrand48_r(d48(), &v);
	return v;
}

LIBC_API long nrand48(unsigned short xsubi[3])
{
	long v;
	nrand48_r(xsubi, d48(), &v);
	return v;
}

LIBC_API long mrand48(void)
{
	long v;
	mrand48_r(d48(), &v);
	return v;
}

LIBC_API long jrand48(unsigned short xsubi[3])
{
	long v;
	jrand48_r(xsubi, d48(), &v);
	return v;
}

LIBC_API void srand48(long seed)
{
	srand48_r(seed, d48());
}

LIBC_API unsigned short *seed48(unsigned short seed16v[3])
{
	struct drand48_data *d = d48();
	seed48_r(seed16v, d);
	return d->__old_x;
}

LIBC_API void lcong48(unsigned short param[7])
{
	lcong48_r(param, d48());
}

/* -------------------------------------------------------------- strtok */

LIBC_API char *strtok(char *s, const char *delim)
{
	return strtok_r(s, delim, &self()->strtok_save);
}

/* ---------------------------------------------------------------- exit */

static void real_exit(int status) __attribute__((noreturn));
static void real_exit(int status)
{
	void (*libc_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
	if (libc_exit)
		libc_exit(status);
	/* Not found (a static link): without the atexit handlers. */
	fflush(NULL);
	_exit(status);
}

LIBC_API void exit(int status)
{
	emu_rank *r = emu.current;
	if (!r)
		real_exit(status);
	if (r->finalized || (!r->initialized && emu.rec_lazy && !emu.writer))
		emu_rank_exit(r, status & 0xff);
	emu_out_flush();
	fprintf(stderr, "sibyl: rank %d called exit(%d) without MPI_Finalize "
		"(a rank ends alone only after MPI_Finalize; use MPI_Abort "
		"to stop all ranks); aborting the emulation\n", r->world,
		status);
	fflush(stderr);
	emu_rec_abort();
	emu_tr_abort(status & 0xff ? status & 0xff : 1);
}

/* ------------------------------------------------------------ affinity */

static int bind_noted;

/* A rank asked to bind its own thread: keep the emulating process's
 * binding, say so once.  A set that names no CPU is still EINVAL. */
static int rank_bind(emu_rank *r, const char *call, size_t size,
		     const cpu_set_t *set)
{
	if (!set || !CPU_COUNT_S(size, set)) {
		errno = EINVAL;
		return -1;
	}
	if (!bind_noted) {
		bind_noted = 1;
		fprintf(stderr, "sibyl: note: rank %d called %s: a virtual rank "
			"is not bound to CPUs of the emulating host (the ranks "
			"of a process share its thread); the call succeeds and "
			"changes nothing\n", r->world, call);
	}
	return 0;
}

LIBC_API int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	emu_rank *r = emu.current;
	if (r && (pid == 0 || pid == getpid() || pid == gettid()))
		return rank_bind(r, "sched_setaffinity", size, set);
	int (*real)(pid_t, size_t, const cpu_set_t *) =
		(int (*)(pid_t, size_t, const cpu_set_t *))dlsym(RTLD_NEXT,
			"sched_setaffinity");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(pid, size, set);
}

LIBC_API int pthread_setaffinity_np(pthread_t thread, size_t size,
				    const cpu_set_t *set)
{
	emu_rank *r = emu.current;
	if (r && pthread_equal(thread, pthread_self())) {
		if (rank_bind(r, "pthread_setaffinity_np", size, set) != 0)
			return errno;
		return 0;
	}
	int (*real)(pthread_t, size_t, const cpu_set_t *) =
		(int (*)(pthread_t, size_t, const cpu_set_t *))dlsym(
			RTLD_NEXT, "pthread_setaffinity_np");
	if (!real)
		return ENOSYS;
	return real(thread, size, set);
}
