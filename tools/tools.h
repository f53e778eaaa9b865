/*
 * tools.h -- internal interface of the `sibyl' command-line driver.
 *
 * Every subcommand is a function `int tool_cmd_x(int argc, char **argv)'
 * where argv[0] is the subcommand's full name ("sibyl trace info"); it
 * returns the process exit status: 0 success, 1 the input has problems
 * (check found defects, damaged trace), 2 usage error or failure to run.
 * Every name this header gives the driver's files begins with tool_ or
 * TOOL_.
 */
#ifndef SIBYL_TOOLS_H
#define SIBYL_TOOLS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "sib_util.h"
#include "sibyl_trace.h"

#define TOOL_EXIT_PROBLEMS 1
#define TOOL_EXIT_USAGE 2

/* Subcommands. */
int tool_cmd_trace_info(int argc, char **argv);
int tool_cmd_trace_dump(int argc, char **argv);
int tool_cmd_trace_stats(int argc, char **argv);
int tool_cmd_trace_profile(int argc, char **argv);
int tool_cmd_trace_check(int argc, char **argv);
int tool_cmd_trace_pack(int argc, char **argv);
int tool_cmd_trace_unpack(int argc, char **argv);
int tool_cmd_trace_gen(int argc, char **argv);
int tool_cmd_sim(int argc, char **argv);
int tool_cmd_emulate(int argc, char **argv);
int tool_cmd_linkhist(int argc, char **argv);
int tool_cmd_map(int argc, char **argv);
int tool_cmd_calibrate(int argc, char **argv);
int tool_cmd_plot(int argc, char **argv);
int tool_cmd_noise_capture(int argc, char **argv);
int tool_cmd_noise_stats(int argc, char **argv);

/*
 * Plots with gnuplot (tools/plot.c).  tool_plot_check: is `out' a file
 * name gnuplot can draw (.png or .svg) and is gnuplot installed?  Prints
 * the error otherwise and returns TOOL_EXIT_USAGE.  tool_plot_run: run
 * gnuplot on `body' (a script without terminal and output) drawing a
 * width x height image into `out', which appears only when gnuplot
 * succeeded; returns 0 or an exit status after printing the error.
 * Text is drawn as is (no enhanced-text markup).
 */
int tool_plot_check(const char *out);
int tool_plot_run(const char *out, int width, int height, const char *body);
/* s as a gnuplot string literal (single quotes) on f. */
void tool_plot_quote(FILE *f, const char *s);

/* Program name used in messages, e.g. "sibyl trace dump"; set by the
 * driver before a subcommand runs. */
extern const char *tool_name;

/* "sibyl trace dump: <message>\n" on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tool_error + "Try 'NAME --help'." and return TOOL_EXIT_USAGE. */
int tool_usage_error(const char *fmt, ...) __attribute__((format(printf, 1,
								 2)));
/* The one TRACE operand left after the options (argv[optind]), or NULL
 * once the usage error is printed: no TRACE, or more than one. */
const char *tool_trace_operand(int argc, char **argv);
/* The usage error for what getopt_long() returned as c, '?' (an unknown
 * option) or ':' (an option without its value), naming the option; the
 * option string must begin with ':' and opterr be 0.  Returns
 * TOOL_EXIT_USAGE. */
int tool_bad_option(int c, char **argv);

/*
 * Number parsers (tools/parse.c, through base/sib_units.h).  Each
 * returns 0 on success and -1 (after printing a message naming `what')
 * on a malformed or out-of-range value.
 *   tool_parse_u64:   a whole number, optional suffix k/M/G/T/P (10^3..) or
 *                Ki/Mi/Gi/Ti/Pi (2^10..), e.g. "1048576", "1Mi", "64k",
 *                "1.5k", "1e6".
 *   tool_parse_size:  bytes: "2KiB", "4kB", "1MB", "512", "1.5MiB", "4k".
 *   tool_parse_time:  to picoseconds: "1us", "2.5ms", "100ns", "3ps", "1s";
 *                a bare number is taken in `default_unit' ("ns", "us"...).
 *   tool_parse_double: a finite floating-point number.
 */
int tool_parse_u64(const char *what, const char *s, uint64_t *out);
int tool_parse_size(const char *what, const char *s, uint64_t *out);
int tool_parse_time(const char *what, const char *s, const char *default_unit,
	       sibt_time *out);
int tool_parse_double(const char *what, const char *s, double *out);

/*
 * A range list "3", "0-15", "0-15,32,40-47", "5-" (open end) or "all",
 * resolved against an upper bound.  tool_range_contains is O(log n).
 */
typedef struct tool_range_list {
	size_t n;
	struct { uint64_t lo, hi; } *r; /* inclusive, sorted, merged */
} tool_range_list;
int tool_range_parse(const char *what, const char *s, uint64_t limit,
		tool_range_list *out);
int tool_range_contains(const tool_range_list *rl, uint64_t v);
void tool_range_free(tool_range_list *rl);

/* Human-readable formatting into a caller buffer (returns buf). */
char *tool_fmt_bytes(char *buf, size_t len, double bytes);   /* "1.50 MiB" */
char *tool_fmt_time(char *buf, size_t len, sibt_time ps);    /* "1.234 us" */
char *tool_fmt_count(char *buf, size_t len, uint64_t n);     /* "1,048,576" */

/* Write s as a JSON string literal (with quotes) to f. */
void tool_json_string(FILE *f, const char *s, size_t len);
/* Write s for a terminal: backslash and newline as \\ and \n, control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN; the rest
 * as it is.  For any text a trace file or a user supplied. */
void tool_print_text(FILE *f, const char *s);

/* "KEY=\"VALUE\"" for fsim_config_set, VALUE quoted so that it is taken
 * verbatim (blanks, quotes and all); malloc'ed, NULL if out of memory. */
char *tool_config_assignment(const char *key, const char *value);

/*
 * Progress on stderr, only when stderr is a terminal and quiet is 0:
 * tool_progress_update redraws at most a few times per second.
 */
typedef struct tool_progress {
	int active;
	const char *label;
	uint64_t total;
	double last;
} tool_progress;
void tool_progress_begin(tool_progress *p, const char *label, uint64_t total,
			 int quiet);
void tool_progress_update(tool_progress *p, uint64_t done);
void tool_progress_end(tool_progress *p);

/*
 * Temporary files and directories.  Every command that creates one
 * registers it here first; on SIGINT, SIGTERM or SIGHUP the handler
 * removes everything registered (with async-signal-safe calls only), then
 * raises the signal again with its default action, so that the process
 * ends with the conventional status.  A signal ignored when the first
 * path is registered stays ignored.  At most 16 paths at a time.
 *   tool_temp_add:     register path (copied); a handle >= 0, or -1.
 *   tool_temp_mkdtemp: mkdtemp(tmpl) and register the directory, in one
 *                      step a signal cannot split; a handle, or -1 (errno
 *                      set).
 *   tool_temp_path:    the registered path of handle h (NULL for h < 0);
 *                      it belongs to the registry.
 *   tool_temp_remove:  remove the path from disk (with what it holds) and
 *                      from the registry; 0, or -1 with errno set.
 *   tool_temp_forget:  drop it from the registry, leaving it on disk (it
 *                      was moved into place).  h < 0 is a no-op for both.
 *   tool_temp_cleanup: remove every registered path (the driver calls it
 *                      when a command returns).
 * tool_remove_tree removes path and what it holds, never following a
 * symbolic link; 0, or -1 with errno set.
 */
int tool_temp_add(const char *path);
int tool_temp_mkdtemp(char *tmpl);
const char *tool_temp_path(int h);
int tool_temp_remove(int h);
void tool_temp_forget(int h);
void tool_temp_cleanup(void);
int tool_remove_tree(const char *path);
/* End the process by signal sig with its default action (standard output
 * and error flushed first): the conventional end of a command that a
 * signal interrupted. */
void tool_exit_signal(int sig) __attribute__((noreturn));

/*
 * For a bundle trace (a path that is not a directory): a registered
 * scratch directory $TMPDIR/sibyl-bundle-XXXXXX (/tmp without TMPDIR) to
 * unpack it into with sibt_trace_open_in; *h is its handle, -1 for a
 * directory trace.  Returns 0, or -1 after printing the error.
 */
int tool_bundle_scratch(const char *trace, int *h);

/*
 * Open a trace for a tool: prints the error (and exits nonzero via return
 * value NULL) or, for a damaged trace, prints each damage entry as a
 * warning.  *damaged is set to 1 when the trace was damaged.  A bundle is
 * unpacked into a scratch directory of the registry above, which
 * tool_close_trace removes: close with it.
 */
sibt_trace *tool_open_trace(const char *path, int flags, int *damaged);
void tool_close_trace(sibt_trace *t);

/*
 * Trace directories as `trace gen' and `emulate' write them: nothing but
 * MANIFEST* and proc-*.sdat* files.
 *   tool_only_trace_files: 1 when directory dir holds only such files, 0
 *     when not (*stranger, unless stranger is NULL, gets a malloc'ed copy
 *     of the first other name, for the caller to free), -1 when dir
 *     cannot be read (errno set).
 *   tool_remove_trace_dir: unlink dir's files, then remove dir.  With
 *     trace_only, files of other names are left alone, and so is dir
 *     (errno ENOTEMPTY).  Returns 0, or -1 with errno set.
 */
int tool_only_trace_files(const char *dir, char **stranger);
int tool_remove_trace_dir(const char *dir, int trace_only);

/*
 * Output directories: one rule for every command that writes or
 * replaces a directory (sim -o, trace gen, trace unpack, emulate, noise
 * capture).  An existing path is replaced only with force, and only when
 * it is a directory that is recognisably an earlier output of the same
 * kind and nothing would be lost:
 *   - an empty directory, or
 *   - TOOL_OUT_TRACE: a directory holding only trace files (MANIFEST*,
 *     proc-*.sdat*);
 *   - TOOL_OUT_MARKED: a directory carrying the marker TOOL_OUT_MARKER
 *     that the same command (`writer', e.g. "sibyl sim") wrote, and
 *     nothing but the paths the marker lists;
 * and never the root directory, $HOME, the working directory or one
 * holding it, a directory holding one of the inputs (NULL-terminated
 * paths; NULL for none), a mount point or anything that is not a
 * directory.
 *
 * tool_out_check applies the rule to path (an empty path is a usage
 * error); it prints why not and returns TOOL_EXIT_USAGE, or returns 0.
 *
 * tool_out_begin checks, then creates the staging directory
 * PATH.partial-XXXXXX next to path (registered for signals) into which
 * the command writes.  tool_out_commit writes the marker (TOOL_OUT_MARKED)
 * and moves the stage to path, replacing what is there (the rule is
 * checked again; commits into the same parent directory take turns, so
 * concurrent runs on one output each end with a complete output in
 * place).  When the output cannot be put in place, the complete stage is
 * kept and named.  tool_out_abort removes the stage; tool_out_free
 * aborts (if needed) and releases.  A caller that stages on its own (the
 * emulator's TRACE.partial) sets stage and handle = -1 and calls only
 * tool_out_commit.
 */
#define TOOL_OUT_MARKER ".sibyl-output"

typedef enum tool_out_kind {
	TOOL_OUT_TRACE,
	TOOL_OUT_MARKED
} tool_out_kind;

typedef struct tool_out {
	const char *path;		/* the output, as given */
	tool_out_kind kind;
	const char *writer;		/* the command, e.g. "sibyl sim" */
	int force;
	const char *const *inputs;	/* what the command reads */
	char *stage;			/* set by tool_out_begin */
	int handle;			/* the stage's registry handle */
} tool_out;

int tool_out_check(const char *path, tool_out_kind kind, const char *writer,
		   int force, const char *const *inputs);
int tool_out_begin(tool_out *o);
int tool_out_commit(tool_out *o);
void tool_out_abort(tool_out *o);
void tool_out_free(tool_out *o);

/* A growable string (tools/sbuf.c).  Out of memory sets oom; later
 * additions are then ignored, so a caller checks once at the end.  Start
 * from { NULL, 0, 0, 0 } and free s. */
struct tool_sbuf {
	char *s;
	size_t len, cap;
	int oom;
};
void tool_sb_add(struct tool_sbuf *b, const char *s, size_t n);
void tool_sb_puts(struct tool_sbuf *b, const char *s);
/* s as one shell word: bare when only safe characters, else quoted. */
void tool_sb_quote(struct tool_sbuf *b, const char *s);
/* The words quoted for the shell and joined by spaces; malloc'ed, NULL
 * when out of memory. */
char *tool_join_quoted(char *const *words, int n);
/* a then b, malloc'ed; NULL when out of memory. */
char *tool_concat(const char *a, const char *b);

#endif /* SIBYL_TOOLS_H */
