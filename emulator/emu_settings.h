/*
 * emu_settings.h -- the contract between `sibyl emulate' and the runtime.
 *
 * `sibyl emulate' (tools/emulate.c) turns its options into SIBYL_*
 * environment variables for the emulating processes, and the runtime
 * reads them there: this list is the one place where each of them is
 * named, with its type, default, option and meaning.  The runtime reads
 * them all once, at start (emu_settings_read, emu_settings.c), and
 * nothing else of it calls getenv() on a SIBYL_* name; the launcher takes
 * from here the names it writes, the ones it clears and the Environment
 * section of `sibyl emulate --help', and tests/emu_settings.sh checks
 * that docs/emulator.md's table lists the same variables with the same
 * defaults.
 *
 * X(ID, TYPE, ROLE, DEFAULT, LO, HI, OPTION, VALUE, DOC)
 *   ID       SIBYL_<ID> is the variable; EMU_S_<ID> its index
 *   TYPE     UINT (a decimal integer in LO..HI), REAL (a finite number
 *            in LO..HI), RATE (a finite number above 0, up to HI),
 *            CHOICE (one of the words of VALUE, separated by '|'), TEXT,
 *            FLAG (set when the variable is set and not empty)
 *   ROLE     ALWAYS: sibyl emulate always sets it; OPTION: it sets it
 *            when the option is given and clears it from mpirun's
 *            environment otherwise; DEBUG: for tests and debugging, it
 *            passes through as the user set it
 *   DEFAULT  the value when the variable is unset or empty, as the
 *            variable would spell it (parsed like one), or NULL when the
 *            runtime computes it (DOC says how)
 *   OPTION   the option of sibyl emulate that sets it, or NULL
 *   VALUE    the value's form in the documentation (the choices, for
 *            CHOICE)
 *
 * Header only, without Open MPI: the launcher includes it too.
 */
#ifndef SIBYL_EMU_SETTINGS_H
#define SIBYL_EMU_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EMU_SETTINGS(X)                                                      \
	X(RANKS, UINT, ALWAYS, NULL, 1, 2147483647, "--ranks", "V",          \
	  "virtual ranks in all, at least one per emulating process "        \
	  "(default: one per process)")                                      \
	X(TRACE, TEXT, ALWAYS, NULL, 0, 0, "--output", "DIR",                \
	  "the trace directory to write (default: APP.trace in the "         \
	  "working directory; sibyl emulate gives TRACE.partial)")           \
	X(CMDLINE, TEXT, ALWAYS, NULL, 0, 0, NULL, "TEXT",                   \
	  "the application's command line, recorded in the trace's "        \
	  "MANIFEST")                                                        \
	X(QUIET, FLAG, ALWAYS, NULL, 0, 0, NULL, "1",                        \
	  "the runtime prints no summary line of its own (errors only); "    \
	  "sibyl emulate prints the summary")                                \
	X(WINDOW, UINT, OPTION, "64", 1, 4294967295u, "--window", "N",       \
	  "SEBs per trace window")                                           \
	X(COMPRESSION, UINT, OPTION, "6", 0, 9, "--compression", "L",        \
	  "zlib level of the trace windows, 0 (stored) to 9")                \
	X(TIMING, CHOICE, OPTION, "corrected", 0, 0, "--timing",             \
	  "corrected|raw", "how the computation between MPI calls is timed") \
	X(CLOCK, CHOICE, OPTION, "cpu", 0, 0, "--clock", "cpu|wall",         \
	  "the clock of SIBYL_TIMING=raw (an error with corrected timing, "  \
	  "which reads both)")                                               \
	X(CPU_FACTOR, REAL, OPTION, "1", 0, 1e300, "--cpu-factor", "F",      \
	  "factor of every measured computation time; 0 keeps the declared " \
	  "compute only")                                                    \
	X(STACK_SIZE, UINT, OPTION, "1048576", 16384, 17179869184u,         \
	  "--stack-size", "BYTES", "stack bytes of each virtual rank")       \
	X(POST_MIN, UINT, OPTION, "4096", 0, 18446744073709551615.0,         \
	  "--post-points", "BYTES",                                          \
	  "record where a non-blocking receive of BYTES or more was posted " \
	  "(trace format 1.2, for rendezvous ranges); smaller ones count "   \
	  "as posted when awaited")                                          \
	X(FLOP_RATE, RATE, OPTION, "1e9", 0, 1e300, "--flop-rate", "R",      \
	  "flop/s of sibyl_compute_flops()")                                 \
	X(COLL, TEXT, OPTION, NULL, 0, 0, "--coll", "C=A,...",               \
	  "the algorithm A of collective C (default: chosen by message and " \
	  "communicator size)")                                              \
	X(NODE_SIZE, UINT, OPTION, "32", 1, 2147483647, "--node-size", "N",  \
	  "ranks per node of the target")                                    \
	X(PRIVATIZE, CHOICE, OPTION, "auto", 0, 0, "--privatize",            \
	  "auto|copy|remap|none", "per-rank copies of the program's globals") \
	X(BIND, CHOICE, OPTION, "core", 0, 0, "--no-bind", "core|none",      \
	  "bind each emulating process to a core of its host")               \
	X(IDLE, CHOICE, OPTION, "block", 0, 0, "--idle", "block|spin",       \
	  "sleep or poll Open MPI when no rank of the process can run")      \
	X(TIMING_DEBUG, FLAG, DEBUG, NULL, 0, 0, NULL, "1",                  \
	  "print the corrected timing's region statistics as they are "      \
	  "fitted, on standard error")                                       \
	X(TEST_INTERFERE, TEXT, DEBUG, NULL, 0, 0, NULL,                     \
	  "RANK:SEB:US[:WAIT],...",                                          \
	  "for tests only: spin US microseconds at the end of SEB number "   \
	  "SEB of world rank RANK (and WAIT in the runtime before it)")      \
	X(TRANSPORT, TEXT, DEBUG, NULL, 0, 0, NULL, "PATH",                  \
	  "the transport module to load, instead of sibyl-transport.so in "  \
	  "the program's run path")

enum emu_set_id {
#define EMU_SET_ENUM(id, type, role, def, lo, hi, opt, val, doc) EMU_S_##id,
	EMU_SETTINGS(EMU_SET_ENUM)
#undef EMU_SET_ENUM
	EMU_S_COUNT
};

enum emu_set_type {
	EMU_SET_UINT, EMU_SET_REAL, EMU_SET_RATE, EMU_SET_CHOICE,
	EMU_SET_TEXT, EMU_SET_FLAG
};

enum emu_set_role { EMU_SET_ALWAYS, EMU_SET_OPTION, EMU_SET_DEBUG };

/* One setting's description. */
struct emu_setting {
	const char *name;       /* "SIBYL_RANKS" */
	enum emu_set_type type;
	enum emu_set_role role;
	const char *def;        /* as the variable spells it, or NULL */
	double lo, hi;
	const char *option;     /* of sibyl emulate, or NULL */
	const char *value;      /* its form; the choices of a CHOICE */
	const char *doc;
};

/* The description of setting id (0 <= id < EMU_S_COUNT). */
static inline const struct emu_setting *emu_setting(enum emu_set_id id)
{
	static const struct emu_setting table[EMU_S_COUNT] = {
#define EMU_SET_DESC(id, type, role, def, lo, hi, opt, val, doc)              \
	{ "SIBYL_" #id, EMU_SET_##type, EMU_SET_##role, def, lo, hi, opt,    \
	  val, doc },
		EMU_SETTINGS(EMU_SET_DESC)
#undef EMU_SET_DESC
	};
	return &table[id];
}

/* Whether w is one of the '|'-separated words of d->value (a CHOICE). */
static inline int emu_setting_allows(const struct emu_setting *d,
				     const char *w)
{
	size_t n = strlen(w);
	for (const char *p = d->value;;) {
		const char *e = strchr(p, '|');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && strncmp(p, w, n) == 0)
			return 1;
		if (!e)
			return 0;
		p = e + 1;
	}
}

/* One setting's value in the runtime. */
struct emu_setval {
	int given;              /* the variable was set and not empty */
	const char *text;       /* as given, else the default (or NULL) */
	uint64_t u;             /* UINT */
	double d;               /* REAL, RATE */
	int on;                 /* FLAG */
};

/* Read every setting from the environment into v[EMU_S_COUNT].  Returns 0,
 * or -1 with a message naming the variable, its value and what it must
 * be in err. */
int emu_settings_read(struct emu_setval *v, char *err, size_t errlen);

#endif
