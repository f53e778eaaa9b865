/*
 * sibyl_trace.h -- the Sibyl trace format: writer, reader, bundles, checker.
 *
 * A Sibyl trace records, for every target PE (virtual MPI rank), the
 * sequence of its sequential execution blocks (SEBs) and the messages that
 * tie them together.  The byte-level layout is specified in
 * tracefmt/FORMAT.md; this header is the programming interface to it.
 *
 * Conventions
 *   - Every exported name starts with "sibt_".
 *   - Time is an integer number of picoseconds (sibt_time).
 *   - A message is identified by its source PE and a per-source sequence
 *     number: the n-th message sent by a PE (counting from 0, in trace
 *     order) has sequence number n.  The writer assigns these numbers; a
 *     receiver names a message by (source PE, sequence number).
 *   - Functions returning int return SIBT_OK (0) on success or a negative
 *     sibt_err code.  The message describing the last failure is stored on
 *     the handle: sibt_writer_errmsg(), sibt_trace_errmsg().
 *   - Handles are opaque and not thread-safe; use one per thread.
 */
#ifndef SIBYL_TRACE_H
#define SIBYL_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SIBT_BUILDING) && defined(__GNUC__)
#define SIBT_EXPORT __attribute__((visibility("default")))
#else
#define SIBT_EXPORT
#endif

/* Format version written by this library; readers accept equal major. */
#define SIBT_FORMAT_MAJOR 1
#define SIBT_FORMAT_MINOR 2

typedef int64_t sibt_time; /* picoseconds */

/* ---------------------------------------------------------------- errors */

typedef enum sibt_err {
	SIBT_OK = 0,
	SIBT_WARN = 1,      /* success, but something was recovered or lost:
	                       see sibt_trace_damage() */
	SIBT_EINVAL = -1,   /* bad argument or API misuse */
	SIBT_ENOMEM = -2,   /* out of memory */
	SIBT_EIO = -3,      /* operating-system I/O error (errno in message) */
	SIBT_EMAGIC = -4,   /* not a Sibyl trace (magic mismatch) */
	SIBT_EVERSION = -5, /* format version or byte order not supported */
	SIBT_ECRC = -6,     /* checksum mismatch: data corrupted */
	SIBT_ETRUNC = -7,   /* data ends early: file truncated */
	SIBT_EFORMAT = -8,  /* structurally invalid content */
	SIBT_EMANIFEST = -9,/* manifest missing, unreadable or inconsistent */
	SIBT_ENOENT = -10,  /* requested PE / window / file does not exist */
	SIBT_EARCHIVE = -11 /* bundle (archive) could not be read or written */
} sibt_err;

/* Static description of an error code ("checksum mismatch", ...). */
SIBT_EXPORT const char *sibt_strerror(int err);

/* -------------------------------------------------------------- the SEB */

/* Marker kinds attached to an SEB (the marker applies at SEB start). */
typedef enum sibt_marker_kind {
	SIBT_MARK_SKIP_START = 1, /* skip point: simulation may start here */
	SIBT_MARK_SKIP_END = 2,   /* skip point: simulation may stop here */
	SIBT_MARK_ITER = 3,       /* iteration mark; value = iteration number */
	SIBT_MARK_USER = 4        /* user marker; value is the user's */
} sibt_marker_kind;

typedef struct sibt_msgid {
	uint32_t src; /* source PE */
	uint64_t seq; /* per-source sequence number */
} sibt_msgid;

typedef struct sibt_send {
	uint32_t dst;       /* destination PE */
	int32_t tag;        /* MPI tag (informational) */
	uint64_t size;      /* payload bytes */
	sibt_time offset;   /* departure, relative to SEB start (>= 0) */
} sibt_send;

typedef struct sibt_print {
	sibt_time offset;   /* relative to SEB start */
	const char *text;   /* not NUL-terminated; len bytes */
	uint32_t len;
} sibt_print;

typedef struct sibt_marker {
	uint32_t kind;      /* sibt_marker_kind */
	int64_t value;
} sibt_marker;

/*
 * One SEB.  When reading, every pointer belongs to the sibt_window it came
 * from and stays valid until that window is reused or freed, or the trace
 * it was read from is closed (names and regions belong to the trace).
 * When writing, the writer copies what it needs; the caller keeps
 * ownership.
 *
 * Local predecessors are SEBs of the same PE with a smaller index.  By
 * default (preds_default != 0) SEB i > 0 depends on SEB i-1 and SEB 0 on
 * nothing; otherwise the explicit list preds[0..npreds) applies (possibly
 * empty).  The reader always fills npreds/preds (the default too) and
 * reports preds_default = 1 whenever the list equals the default, since
 * the format stores such a list as the default.
 */
typedef struct sibt_seb {
	uint32_t pe;            /* read: owning PE; write: PE to append to */
	uint64_t index;         /* read: index of the SEB on its PE */
	const char *name;       /* NUL-terminated; NULL when writing means "" */
	sibt_time duration;     /* >= 0 */
	int preds_default;
	uint32_t npreds;
	const uint64_t *preds;
	uint32_t nwaits;        /* messages this SEB waits for */
	const sibt_msgid *waits;
	uint32_t nsends;        /* messages it sends, in send order */
	const sibt_send *sends;
	uint64_t first_seq;     /* read: sequence number of sends[0] */
	uint32_t nprints;       /* virtual-time prints */
	const sibt_print *prints;
	uint32_t nmarkers;
	const sibt_marker *markers;
	/* Format 1.1.  The code region the SEB measured (the call sites where
	 * it began and ended, "BEGIN > END"); NULL or "" when unknown. */
	const char *region;
	/* How the duration was corrected for host interference (SIBT_CORR_*;
	 * 0: it was not), and the duration as measured before (raw_duration,
	 * meaningful only when corrected != 0). */
	uint32_t corrected;
	sibt_time raw_duration;
	/* Format 1.2: what the rendezvous protocol needs.
	 * done: sends of this PE (sequence numbers, below first_seq) that
	 * had completed before the SEB started: the MPI_Wait or MPI_Test
	 * that completed an MPI_Isend, the return of a blocking send.
	 * posted: the messages matched by the receives posted at the end
	 * of this SEB (MPI_Irecv), each awaited by a later SEB of the PE.
	 * A message awaited but in no posted list was posted when its
	 * awaiting SEB became current (a blocking receive). */
	uint32_t ndone;
	const uint64_t *done;
	uint32_t nposted;
	const sibt_msgid *posted;
} sibt_seb;

/* Reasons for a corrected duration (sibt_seb.corrected). */
enum {
	SIBT_CORR_NONE = 0,
	SIBT_CORR_OFFCPU = 1,   /* the thread was off the CPU (wall > CPU
	                           time): the CPU time was kept */
	SIBT_CORR_OUTLIER = 2,  /* far outside its region's distribution:
	                           replaced by the region's median */
	SIBT_CORR_FAULTS = 3,   /* page faults in it, and longer than its
	                           region's clean samples: replaced by the
	                           region's median */
	SIBT_CORR_COLD = 4,     /* ran on cold caches: the first run of its
	                           code region in the emulating process (TLB,
	                           branch predictors, first calls), far above
	                           its region, or an SEB after its rank
	                           waited, above its region's warm median:
	                           replaced by the region's (warm) median */
	SIBT_CORR_MAX = 4
};

/* "off-cpu", "outlier", "page-faults" or "none"; "unknown" otherwise. */
SIBT_EXPORT const char *sibt_corr_name(uint32_t reason);

/* ------------------------------------------------------------ writing */

/*
 * A trace is a directory holding MANIFEST and one data file per emulating
 * process.  Each process opens its own writer for the block of PEs it
 * hosts; the writer of process 0 (or any writer with write_manifest set)
 * also writes the manifest.
 */
typedef struct sibt_writer sibt_writer;

typedef struct sibt_writer_opts {
	uint32_t npes;          /* PEs in the whole trace (required, > 0) */
	uint32_t nprocs;        /* emulating processes = data files (>= 1) */
	uint32_t proc;          /* this process, 0 <= proc < nprocs */
	uint32_t first_pe;      /* first PE this process writes */
	uint32_t local_npes;    /* number of consecutive PEs it writes */
	uint32_t window;        /* SEBs per window (0: default 64) */
	int level;              /* zlib level 0..9 (-1: default 6; 0 stores) */
	size_t mem_budget;      /* bytes of pending windows before a forced
	                           flush of all partial windows (0: 64 MiB) */
	int write_manifest;     /* write MANIFEST (normally proc 0) */
	int overwrite;          /* replace an existing trace directory */
	int unchecked;          /* skip reference validation in _add (PE
	                           ranges, predecessors): only for tools that
	                           must produce invalid traces, e.g. tests */
	const char *cmdline;    /* application command line, or NULL */
	const char *topology;   /* host topology description, or NULL */
	const char *generator;  /* producing program, e.g. "sibyl trace gen" */
	const char *const *extra; /* NULL-terminated "key = value" manifest
	                             lines to add, or NULL; they may not
	                             replace a key the format defines */
} sibt_writer_opts;

/* Fill *opts with defaults (everything zero except level = -1). */
SIBT_EXPORT void sibt_writer_opts_init(sibt_writer_opts *opts);

/* Data-file name of process proc ("proc-000000.sdat"), into buf. */
SIBT_EXPORT void sibt_datafile_name(char *buf, size_t len, uint32_t proc);

/* Divide npes PEs over nprocs processes in consecutive blocks, the way the
 * writer and the emulator do: process p gets [*first, *first + *count). */
SIBT_EXPORT void sibt_block_range(uint32_t npes, uint32_t nprocs, uint32_t p,
				  uint32_t *first, uint32_t *count);

/*
 * Create (or, with overwrite, replace) the trace directory `path' and the
 * data file of this process.  On failure *wp is NULL and, when errbuf is
 * not NULL, the reason is copied there.
 */
SIBT_EXPORT int sibt_writer_open(sibt_writer **wp, const char *path,
				 const sibt_writer_opts *opts,
				 char *errbuf, size_t errlen);

/*
 * Append one SEB to the end of PE seb->pe.  The SEB's sends get the next
 * sequence numbers of that PE; *first_seq (if not NULL) receives the first.
 * A window is compressed and written as soon as it holds `window' SEBs.
 */
SIBT_EXPORT int sibt_writer_add(sibt_writer *w, const sibt_seb *seb,
				uint64_t *first_seq);

/* Sequence number the next send of `pe' will get; SEB count of `pe'. */
SIBT_EXPORT uint64_t sibt_writer_next_seq(const sibt_writer *w, uint32_t pe);
SIBT_EXPORT uint64_t sibt_writer_nsebs(const sibt_writer *w, uint32_t pe);

/* Write the partial window of `pe' now, hand everything buffered to the
 * operating system (so it survives a crash of this process), and release
 * the PE's buffer (e.g. when that rank finishes; adding to it again later
 * works). */
SIBT_EXPORT int sibt_writer_flush_pe(sibt_writer *w, uint32_t pe);

/*
 * Flush every partial window, write the window index and trailer, fsync,
 * and free the writer.  Only a closed data file is "complete"; a file whose
 * writer never closed is still readable up to its last complete window.
 */
SIBT_EXPORT int sibt_writer_close(sibt_writer *w);

/* Free the writer without completing the file (it stays readable as a
 * cut-off trace). */
SIBT_EXPORT void sibt_writer_abort(sibt_writer *w);

SIBT_EXPORT const char *sibt_writer_errmsg(const sibt_writer *w);

/* Bytes written to the data file so far, and bytes held in buffers. */
SIBT_EXPORT uint64_t sibt_writer_bytes_written(const sibt_writer *w);
SIBT_EXPORT size_t sibt_writer_bytes_pending(const sibt_writer *w);

/* ------------------------------------------------------------ reading */

typedef struct sibt_trace sibt_trace;

/* Open flags. */
#define SIBT_OPEN_VERIFY_ALL 0x1 /* verify every window's CRC at open
                                    (implies SIBT_OPEN_VERIFY_INDEX) */
#define SIBT_OPEN_VERIFY_INDEX 0x2 /* read every frame header at open and
                                      check that each file's index lists
                                      exactly those windows; a file whose
                                      index does not is read as damaged
                                      (its frames scanned) */
#define SIBT_OPEN_NO_SCAN 0x4 /* a data file whose index cannot be used
                                 (no trailer: its writer did not finish)
                                 is reported damaged with no window
                                 recovered, at once, instead of having
                                 its frames read: for a caller that only
                                 asks whether the trace is complete */

/*
 * Open a trace directory or a bundle (any archive libarchive reads, e.g.
 * .tar, .tar.gz, .tar.xz).  A bundle is unpacked (sibt_bundle_unpack)
 * into a private temporary directory (under $TMPDIR) that is removed by
 * sibt_trace_close(), or at once when opening fails.
 *
 * Returns SIBT_OK, SIBT_WARN when the trace is damaged but partly readable
 * (see sibt_trace_damage), or an error.  On SIBT_OK and SIBT_WARN *tp is a
 * handle to close; on error *tp is NULL and the message is in errbuf.
 */
SIBT_EXPORT int sibt_trace_open(sibt_trace **tp, const char *path, int flags,
				char *errbuf, size_t errlen);
/*
 * sibt_trace_open with a caller-owned scratch directory: a bundle is
 * unpacked into `scratch', an existing empty directory that the caller
 * created and removes (with what is in it) after sibt_trace_close().  A
 * program that cleans up on signals registers `scratch' before the call,
 * so that an interrupted unpack leaves nothing behind.  With scratch NULL
 * this is sibt_trace_open.  A directory trace ignores `scratch'.
 */
SIBT_EXPORT int sibt_trace_open_in(sibt_trace **tp, const char *path,
				   int flags, const char *scratch,
				   char *errbuf, size_t errlen);
SIBT_EXPORT void sibt_trace_close(sibt_trace *t);
SIBT_EXPORT const char *sibt_trace_errmsg(const sibt_trace *t);

SIBT_EXPORT uint32_t sibt_trace_npes(const sibt_trace *t);
SIBT_EXPORT uint32_t sibt_trace_nprocs(const sibt_trace *t);
SIBT_EXPORT uint32_t sibt_trace_window_size(const sibt_trace *t);

/* A manifest value by key, or NULL.  Belongs to the trace. */
SIBT_EXPORT const char *sibt_trace_manifest(const sibt_trace *t,
					    const char *key);
/* The i-th manifest entry, i < sibt_trace_manifest_count(). */
SIBT_EXPORT size_t sibt_trace_manifest_count(const sibt_trace *t);
SIBT_EXPORT int sibt_trace_manifest_entry(const sibt_trace *t, size_t i,
					  const char **key, const char **value);

/* What is readable of a PE: its windows, SEBs and sends (messages). */
SIBT_EXPORT uint64_t sibt_trace_nwindows(const sibt_trace *t, uint32_t pe);
SIBT_EXPORT uint64_t sibt_trace_nsebs(const sibt_trace *t, uint32_t pe);
SIBT_EXPORT uint64_t sibt_trace_nsends(const sibt_trace *t, uint32_t pe);

/* Totals over all PEs and files. */
typedef struct sibt_totals {
	uint64_t windows, sebs, sends;
	uint64_t raw_bytes;      /* uncompressed window payload bytes */
	uint64_t stored_bytes;   /* window payload bytes as stored */
	uint64_t file_bytes;     /* data files on disk, all framing included */
	uint64_t manifest_bytes;
} sibt_totals;
SIBT_EXPORT void sibt_trace_totals(const sibt_trace *t, sibt_totals *tot);

/* Where a window lives and what it holds (from the index, no decoding). */
typedef struct sibt_window_info {
	uint32_t pe;
	uint64_t window;         /* index of the window on its PE */
	uint32_t file;           /* data file (process) index */
	uint64_t offset;         /* byte offset of the window frame */
	uint32_t nsebs, nsends;
	uint64_t first_seb, first_seq;
	uint32_t raw_len, stored_len;
} sibt_window_info;
SIBT_EXPORT int sibt_trace_window_info(const sibt_trace *t, uint32_t pe,
				       uint64_t window, sibt_window_info *wi);
/* The window holding SEB `seb' of `pe' (binary search), or -1 (ENOENT). */
SIBT_EXPORT int sibt_trace_find_window(const sibt_trace *t, uint32_t pe,
				       uint64_t seb, uint64_t *window);
/* The window holding send `seq' of `pe', or ENOENT. */
SIBT_EXPORT int sibt_trace_find_send_window(const sibt_trace *t, uint32_t pe,
					    uint64_t seq, uint64_t *window);

/*
 * A decoded window.  Caller-owned and reusable: decoding into a window that
 * already holds one reuses its buffers, so a reader that walks the trace
 * with one sibt_window allocates nothing per window in the steady state.
 */
typedef struct sibt_window sibt_window;
SIBT_EXPORT sibt_window *sibt_window_new(void);
SIBT_EXPORT void sibt_window_free(sibt_window *win);
SIBT_EXPORT uint32_t sibt_window_nsebs(const sibt_window *win);
SIBT_EXPORT const sibt_seb *sibt_window_seb(const sibt_window *win,
					    uint32_t i);
/* Bytes of memory the window currently holds. */
SIBT_EXPORT size_t sibt_window_memory(const sibt_window *win);

/* Read, verify (CRC) and decode window `window' of `pe' into win. */
SIBT_EXPORT int sibt_trace_read_window(sibt_trace *t, uint32_t pe,
				       uint64_t window, sibt_window *win);

/*
 * Packed windows: bounded-memory streaming for simulators.
 *
 * A simulator that keeps one window per PE in memory wants it as small as
 * possible and decoded only when needed.  sibt_trace_read_packed() reads,
 * verifies (CRC) and inflates a window into a caller-owned sibt_packed,
 * which holds just the window's raw payload (about a third of a decoded
 * window).  The SEBs are then decoded one at a time, each in two steps:
 * sibt_packed_head() gives name, duration, predecessors and waits (what
 * the SEB needs before it can start); sibt_packed_body() then gives
 * sends, prints and markers (what it does when it runs).  Heads and
 * bodies must alternate, starting with a head.  The lists go into a
 * scratch sibt_window (shared by all packed windows of a thread): a head's
 * lists stay valid until the next head, a body's until the next body.
 *
 * The fields are for reading; only the functions below change them.  A
 * zero-filled sibt_packed is empty and valid; sibt_packed_release() frees
 * its buffer.  Reading another window into it reuses the buffer.
 */
typedef struct sibt_packed {
	uint8_t *buf;            /* raw payload (owned) */
	uint32_t len, cap;       /* bytes in buf, bytes allocated */
	uint32_t pos;            /* next byte to decode */
	uint32_t left;           /* SEBs of the window not yet finished */
	uint32_t sends_left;     /* sends those SEBs still hold */
	uint32_t pe;
	uint32_t flags;          /* internal: record flags, head-done bit */
	uint32_t name_id;        /* name id of the last head (see below) */
	sibt_time duration;      /* duration of the last head */
	uint64_t window;         /* index of the window on its PE */
	uint64_t next_index;     /* index of the next SEB to decode */
	uint64_t next_seq;       /* sequence number of its first send */
} sibt_packed;

SIBT_EXPORT int sibt_trace_read_packed(sibt_trace *t, uint32_t pe,
				       uint64_t window, sibt_packed *pk);
/* Decode the head of the next SEB into *seb (its body fields are zero).
 * Returns SIBT_OK, SIBT_ENOENT when the window is finished, or an error
 * (format, or a head when a body is due) with the message on t. */
SIBT_EXPORT int sibt_packed_head(sibt_trace *t, sibt_packed *pk,
				 sibt_window *scratch, sibt_seb *seb);
/* Decode the body of the SEB whose head came last into *seb: sends,
 * prints, markers, first_seq, and again pe, index and duration; the other
 * head fields are left alone.  After the window's last body, checks that the
 * payload held exactly what the index announced. */
SIBT_EXPORT int sibt_packed_body(sibt_trace *t, sibt_packed *pk,
				 sibt_window *scratch, sibt_seb *seb);
SIBT_EXPORT void sibt_packed_release(sibt_packed *pk);

/* Data file holding PE pe, and the SEB names of data file `file' (ids are
 * what sibt_packed.name_id holds; they belong to the trace). */
SIBT_EXPORT uint32_t sibt_trace_file_of_pe(const sibt_trace *t, uint32_t pe);
SIBT_EXPORT const char *const *sibt_trace_names(const sibt_trace *t,
						uint32_t file, uint32_t *n);

/*
 * Damage report.  For each data file that is not complete (no valid
 * trailer: the writer was killed, the disk filled, the file was cut) or
 * whose index disagrees with its content, one entry says what was
 * recovered and exactly which bytes were lost.
 */
typedef struct sibt_damage {
	const char *file;         /* data file path; belongs to the trace */
	uint32_t proc;
	int reason;               /* sibt_err: ETRUNC, ECRC, EFORMAT, ... */
	uint64_t valid_bytes;     /* bytes up to the end of the last complete
	                             frame kept (window, string or
	                             dictionary frame) */
	uint64_t file_bytes;      /* size on disk */
	uint64_t windows_recovered;
	uint64_t sebs_recovered;
	const char *detail;       /* human-readable sentence */
} sibt_damage;
SIBT_EXPORT size_t sibt_trace_damage_count(const sibt_trace *t);
SIBT_EXPORT const sibt_damage *sibt_trace_damage(const sibt_trace *t,
						 size_t i);

/* Number of data files and the path of file i (belongs to the trace). */
SIBT_EXPORT uint32_t sibt_trace_nfiles(const sibt_trace *t);
SIBT_EXPORT const char *sibt_trace_file_path(const sibt_trace *t, uint32_t i);
/* Path of the directory actually read (the temporary one for a bundle). */
SIBT_EXPORT const char *sibt_trace_dir(const sibt_trace *t);
/* Nonzero when opened from a bundle. */
SIBT_EXPORT int sibt_trace_is_bundle(const sibt_trace *t);

/* ------------------------------------------------------------ bundles */

/*
 * Pack the trace directory `dir' into one archive `out'.  The archive
 * format and filter follow the name of `out': .tar, .tar.gz/.tgz,
 * .tar.xz, .tar.bz2, .tar.zst (if libarchive supports it).  The archive is
 * written to a temporary name and renamed into place only when complete.
 */
SIBT_EXPORT int sibt_bundle_pack(const char *dir, const char *out,
				 char *errbuf, size_t errlen);
/* Unpack bundle `bundle' into directory `dir' (created; must not exist
 * unless overwrite is set).  Only the files of a trace are accepted; any
 * absolute or ".." member path is refused.  Data files are checked while
 * they stream and extraction stays within the expansion limit of
 * FORMAT.md section 2; a gzip bundle's checksums are verified.  On
 * failure every file written is removed (and `dir' if it was created). */
SIBT_EXPORT int sibt_bundle_unpack(const char *bundle, const char *dir,
				   int overwrite, char *errbuf, size_t errlen);
/* Nonzero when path is a regular file (a bundle), 0 for a directory. */
SIBT_EXPORT int sibt_path_is_bundle(const char *path);

/* ------------------------------------------------------------ checking */

/*
 * Full validation of a trace: every window decodes and verifies; every
 * reference is in range; every message sent is awaited by exactly one SEB
 * on its destination and every awaited message is sent; local
 * predecessors precede; the dependency graph has no cycle.
 *
 * Problems are reported through `report' (one call per problem, with a
 * complete sentence naming PE, SEB index and message id) up to max_problems
 * (0: 20); the function returns the number of problems found (>= 0, also
 * counting those not reported), or a negative sibt_err when the check could
 * not be carried out, in which case the last report() call gives the
 * reason.  Problems come in trace order (PE by PE) within each kind of
 * check: first what a window says by itself (damage, unreadable windows,
 * references), then messages awaited by none, twice or on the wrong PE,
 * then a cycle.
 *
 * Memory: 16 bytes per PE and one bit per message, plus a cache of at
 * most 32 MiB or an eighth of the trace's uncompressed payload (whichever
 * is larger) for the cycle search, plus the trace's window index; nothing
 * is kept per SEB.  Messages are matched by per-PE hash sums, with a
 * 2^-64 chance of two defects of one PE hiding each other.  Two cases
 * need more: mismatched messages are located in batches of up to 16 MiB
 * (one more pass over the trace per 2^20 messages of the PEs concerned),
 * and a trace with explicit predecessor lists on which running every PE
 * in order stalls is settled on the full graph, with 8 bytes per message
 * and about 9 per SEB.
 */
typedef void (*sibt_report_fn)(void *arg, const char *problem);
typedef struct sibt_check_opts {
	unsigned max_problems;
	int skip_cycles;          /* do not run the cycle search */
	/* progress: called now and then with done/total units, may be NULL */
	void (*progress)(void *arg, const char *phase, uint64_t done,
			 uint64_t total);
	void *arg;                /* passed to report and progress */
	sibt_report_fn report;
} sibt_check_opts;
SIBT_EXPORT long sibt_check(sibt_trace *t, const sibt_check_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_TRACE_H */
