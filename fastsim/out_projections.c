/*
 * out_projections.c -- the timeline as Charm++ Projections logs.
 *
 * Writes DIR/projections/sibyl.sts and one DIR/projections/sibyl.<pe>.log
 * per shown PE, in the text format of Projections version 7.0 (the one
 * Charm++'s trace-projections.C writes and Projections' StsReader and
 * GenericLogReader read).  docs/outputs.md describes the result for users.
 *
 * Mapping: every SEB name is an entry point of one chare "SEB" (entry id =
 * name index); an SEB is BEGIN_PROCESSING .. END_PROCESSING on its PE; a
 * gap between SEBs is BEGIN_IDLE .. END_IDLE; a message is a CREATION on
 * its sender, inside the sending SEB, for the pseudo entry
 * "Network::message" (the simulator does not say which SEB consumes a
 * message, so no BEGIN_PROCESSING refers to one: their event is -1).
 * Times are whole microseconds, truncated like Charm++'s own tracing;
 * truncation is monotonic, so each log stays sorted.
 *
 * Projections reads a log sequentially and wants it in time order, with
 * each CREATION between the BEGIN and END of the SEB that sent it.
 * Records do not come in that order (a message is reported when it
 * arrives, long after its SEB was), so they are sorted by (PE, SEB index,
 * phase, time, sequence) before being written.  The sort is external with
 * bounded memory: records collect in a buffer; a full buffer is sorted and
 * appended as a run to one scratch file (unlinked as soon as it is
 * created, so it never outlives the process); close merges the runs.
 * Logs are then written one after the other, so the writer holds at most
 * three files open however many PEs there are: there is no limit on the
 * number of PEs beyond Projections' own (32-bit PE numbers).
 *
 * SIBYL_PROJECTIONS_SORT_MEM (bytes, default 64 MiB) sets the buffer
 * size; the tests use it to force many runs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsim.h"

#define PROJ_MAGIC 0x4a4f5250u /* "PROJ" */
#define PROJ_DEAD 0xdeadbeefu
#define PROJ_SUBDIR "projections"
#define PROJ_BASE "sibyl"
#define PROJ_VERSION "7.0"
#define DEFAULT_SORT_MEM ((size_t)64 << 20)
#define MIN_SORT_MEM ((size_t)4 << 10)
#define FILE_BUFSZ (256u << 10)

/* Projections record types (ProjDefs.java). */
enum {
	CREATION = 1, BEGIN_PROCESSING = 2, END_PROCESSING = 3,
	BEGIN_COMPUTATION = 6, END_COMPUTATION = 7,
	BEGIN_IDLE = 14, END_IDLE = 15
};
#define FOR_CHARE_MSG 2 /* message type written in every record */

/* Record kinds, in the order they sort within one SEB. */
enum { K_IDLE = 0, K_BEGIN = 1, K_CREATE = 2, K_END = 3 };

/* One scratch record: a line (or, for K_IDLE, two) of a log. */
typedef struct prec {
	uint64_t seb;       /* index on pe of the SEB it belongs to */
	sib_ps t0;       /* the time of the line (idle: its start) */
	sib_ps t1;       /* idle: its end */
	uint64_t seq;       /* creation: the message's sequence number */
	uint64_t bytes;     /* creation: message size */
	uint32_t pe;
	uint32_t entry;     /* begin/end: the SEB's name */
	uint32_t kind;
	uint32_t pad;
} prec;

typedef struct run {
	off_t off;
	size_t n;
} run;

/* Merge input: one run, read through a window of its records. */
typedef struct cursor {
	size_t run, next, left; /* next record index in run; records left */
	prec *buf;              /* its window: win records */
	size_t win, pos, len;
} cursor;

typedef struct pe_state {
	sib_ps last_end; /* end of its last SEB (0 before the first) */
	uint64_t lines;     /* lines its log will hold, header excluded */
} pe_state;

typedef struct proj_st {
	uint32_t magic;
	char *dir;           /* DIR/projections */
	uint32_t npes, nnames, nshown;
	uint32_t *slot;      /* per PE: 1 + index into pes, 0 if not shown */
	pe_state *pes;
	prec *buf;
	size_t cap, n;
	int fd;              /* scratch file, or -1 */
	char *scratch;       /* its name, for messages */
	off_t scratch_end;
	run *runs;
	size_t nruns, runs_cap;
	int failed;
	char err[768];
} proj_st;

/* ----------------------------------------------------------- errors */

/* "WHAT PATH: reason", kept for close(); the first failure wins. */
static void failf(proj_st *st, const char *what, const char *path, int e)
{
	if (st->failed)
		return;
	st->failed = 1;
	snprintf(st->err, sizeof st->err, "%s %s: %s", what, path,
		 strerror(e ? e : EIO));
}

static void fail_oom(proj_st *st, const char *doing)
{
	if (st->failed)
		return;
	st->failed = 1;
	snprintf(st->err, sizeof st->err, "projections output: out of "
		 "memory %s", doing);
}

/* ------------------------------------------------------------ sorting */

static int prec_cmp(const void *pa, const void *pb)
{
	const prec *a = pa, *b = pb;
	if (a->pe != b->pe)
		return a->pe < b->pe ? -1 : 1;
	if (a->seb != b->seb)
		return a->seb < b->seb ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->t0 != b->t0)
		return a->t0 < b->t0 ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return 0;
}

static int write_all(int fd, const void *p, size_t n, off_t off)
{
	const char *c = p;
	while (n) {
		ssize_t w = pwrite(fd, c, n, off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n, off_t off)
{
	char *c = p;
	while (n) {
		ssize_t r = pread(fd, c, n, off);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EIO; /* the scratch file shrank */
			return -1;
		}
		c += r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

/* Sort the buffer and append it to the scratch file as one run. */
static void spill(proj_st *st)
{
	if (st->failed || st->n == 0)
		return;
	qsort(st->buf, st->n, sizeof *st->buf, prec_cmp);
	if (st->fd < 0) {
		size_t len = strlen(st->dir) + sizeof "/.sibyl-sort-XXXXXX";
		st->scratch = malloc(len);
		if (!st->scratch) {
			fail_oom(st, "for the scratch file name");
			return;
		}
		snprintf(st->scratch, len, "%s/.sibyl-sort-XXXXXX", st->dir);
		st->fd = mkstemp(st->scratch);
		if (st->fd < 0) {
			failf(st, "cannot create the scratch file", st->scratch,
			      errno);
			return;
		}
		/* Gone from the directory now; freed when the fd closes. */
		unlink(st->scratch);
	}
	if (st->nruns == st->runs_cap) {
		size_t cap = st->runs_cap ? 2 * st->runs_cap : 16;
		run *r = realloc(st->runs, cap * sizeof *r);
		if (!r) {
			fail_oom(st, "for the sort runs");
			return;
		}
		st->runs = r;
		st->runs_cap = cap;
	}
	size_t bytes = st->n * sizeof *st->buf;
	if (write_all(st->fd, st->buf, bytes, st->scratch_end) != 0) {
		failf(st, "cannot write the scratch file", st->scratch, errno);
		return;
	}
	st->runs[st->nruns].off = st->scratch_end;
	st->runs[st->nruns].n = st->n;
	st->nruns++;
	st->scratch_end += (off_t)bytes;
	st->n = 0;
}

static prec *add(proj_st *st)
{
	if (st->n == st->cap)
		spill(st);
	if (st->failed)
		return NULL;
	prec *r = &st->buf[st->n++];
	memset(r, 0, sizeof *r);
	return r;
}

/* The merged, sorted stream of all records. */
typedef struct merger {
	proj_st *st;
	cursor *cur;
	size_t *heap, nheap;  /* cursor indices, min-heap on their record */
	size_t mem_pos;       /* when there is a single in-memory run */
} merger;

static const prec *cur_rec(const merger *m, size_t c)
{
	return &m->cur[c].buf[m->cur[c].pos];
}

static int cur_fill(merger *m, size_t c)
{
	cursor *cu = &m->cur[c];
	const run *r = &m->st->runs[cu->run];
	size_t want = cu->left < cu->win ? cu->left : cu->win;
	if (read_all(m->st->fd, cu->buf, want * sizeof *cu->buf,
		     r->off + (off_t)(cu->next * sizeof *cu->buf)) != 0)
		return -1;
	cu->next += want;
	cu->left -= want;
	cu->len = want;
	cu->pos = 0;
	return 0;
}

static int heap_less(const merger *m, size_t a, size_t b)
{
	return prec_cmp(cur_rec(m, m->heap[a]), cur_rec(m, m->heap[b])) < 0;
}

static void heap_down(merger *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, s = i;
		if (l < m->nheap && heap_less(m, l, s))
			s = l;
		if (r < m->nheap && heap_less(m, r, s))
			s = r;
		if (s == i)
			return;
		size_t t = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = t;
		i = s;
	}
}

static int merger_init(merger *m, proj_st *st)
{
	memset(m, 0, sizeof *m);
	m->st = st;
	if (st->nruns == 0) {
		qsort(st->buf, st->n, sizeof *st->buf, prec_cmp);
		return 0;
	}
	spill(st);
	if (st->failed)
		return -1;
	/* The sort buffer becomes the merge windows. */
	size_t per = st->cap / st->nruns;
	if (per < 16)
		per = 16;
	m->cur = calloc(st->nruns, sizeof *m->cur);
	m->heap = calloc(st->nruns, sizeof *m->heap);
	if (!m->cur || !m->heap)
		goto out_of_memory;
	if (per * st->nruns > st->cap) {
		prec *b = realloc(st->buf, per * st->nruns * sizeof *b);
		if (!b)
			goto out_of_memory;
		st->buf = b;
		st->cap = per * st->nruns;
	}
	for (size_t i = 0; i < st->nruns; i++) {
		cursor *cu = &m->cur[i];
		cu->run = i;
		cu->left = st->runs[i].n;
		cu->buf = st->buf + i * per;
		cu->win = per;
		if (cur_fill(m, i) != 0) {
			failf(st, "cannot read the scratch file", st->scratch,
			      errno);
			return -1;
		}
		if (cu->len)
			m->heap[m->nheap++] = i;
	}
	for (size_t i = m->nheap; i-- > 0;)
		heap_down(m, i);
	return 0;

out_of_memory:
	fail_oom(st, "merging the sorted runs");
	return -1;
}

/* The next record in order: 1, or 0 at the end, -1 on error. */
static int merger_next(merger *m, prec *out)
{
	proj_st *st = m->st;
	if (st->nruns == 0) {
		if (m->mem_pos == st->n)
			return 0;
		*out = st->buf[m->mem_pos++];
		return 1;
	}
	if (m->nheap == 0)
		return 0;
	size_t c = m->heap[0];
	cursor *cu = &m->cur[c];
	*out = cu->buf[cu->pos++];
	if (cu->pos == cu->len) {
		if (cu->left == 0) {
			m->heap[0] = m->heap[--m->nheap];
		} else {
			if (cur_fill(m, c) != 0) {
				failf(st, "cannot read the scratch file",
				      st->scratch, errno);
				return -1;
			}
		}
	}
	if (m->nheap)
		heap_down(m, 0);
	return 1;
}

static void merger_free(merger *m)
{
	free(m->cur);
	free(m->heap);
}

/* ------------------------------------------------------------ writing */

/* Whole microseconds, truncated (Charm++ truncates too). */
static int64_t us(sib_ps ps)
{
	return ps >= 0 ? ps / 1000000 : -((-ps + 999999) / 1000000);
}

typedef struct logw {
	FILE *f;
	char *path;
	uint32_t pe;
	int64_t last;   /* keeps times non-decreasing */
} logw;

static int64_t mono(logw *w, sib_ps ps)
{
	int64_t t = us(ps);
	if (t < w->last)
		t = w->last;
	w->last = t;
	return t;
}

/* A line is built with these (fprintf dominated the writing time). */
typedef struct lbuf {
	char s[16 * 22];   /* up to 16 fields of 21 characters */
	size_t n;
} lbuf;

static void put_i64(lbuf *l, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[sizeof tmp - 1 - n++] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		tmp[sizeof tmp - 1 - n++] = '-';
	l->s[l->n++] = ' ';
	memcpy(l->s + l->n, tmp + sizeof tmp - n, (size_t)n);
	l->n += (size_t)n;
}

/* One record: "TYPE f1 f2 ...\n", fields as in Charm++'s LogEntry::pup
 * (the leading space of put_i64 is dropped for the type). */
static void put_line(logw *w, const int64_t *f, int nf)
{
	lbuf l = { .n = 0 };
	for (int i = 0; i < nf; i++)
		put_i64(&l, f[i]);
	l.s[l.n++] = '\n';
	fwrite(l.s + 1, 1, l.n - 1, w->f);
}

static void write_rec(logw *w, const prec *r, uint32_t msg_entry)
{
	int64_t pe = w->pe;
	switch (r->kind) {
	case K_IDLE: {
		int64_t b = mono(w, r->t0), e = mono(w, r->t1);
		put_line(w, (int64_t[]){ BEGIN_IDLE, b, pe }, 3);
		put_line(w, (int64_t[]){ END_IDLE, e, pe }, 3);
		break;
	}
	case K_BEGIN: {
		/* mtype entry time event srcpe msglen recvtime id0..id3
		 * cputime numperfcounts: the object id carries the SEB
		 * index as two 32-bit halves. */
		int64_t t = mono(w, r->t0);
		put_line(w, (int64_t[]){ BEGIN_PROCESSING, FOR_CHARE_MSG,
					 r->entry, t, -1, pe, 0, t,
					 (int32_t)(uint32_t)r->seb,
					 (int32_t)(uint32_t)(r->seb >> 32), 0, 0,
					 t, 0 }, 14);
		break;
	}
	case K_CREATE: {
		/* mtype entry time event pe msglen sendtime */
		int64_t t = mono(w, r->t0);
		int64_t len = r->bytes > INT32_MAX ? INT32_MAX
			      : (int64_t)r->bytes;
		put_line(w, (int64_t[]){ CREATION, FOR_CHARE_MSG, msg_entry, t,
					 (int32_t)(uint32_t)r->seq, pe, len,
					 0 }, 8);
		break;
	}
	case K_END: {
		/* mtype entry time event pe msglen cputime numperfcounts */
		int64_t t = mono(w, r->t0);
		put_line(w, (int64_t[]){ END_PROCESSING, FOR_CHARE_MSG,
					 r->entry, t, -1, pe, 0, t, 0 }, 9);
		break;
	}
	}
}

static int log_close(proj_st *st, logw *w)
{
	int bad = ferror(w->f);
	if (fclose(w->f) != 0 || bad) {
		failf(st, "cannot write", w->path, errno);
		return -1;
	}
	return 0;
}

static int write_logs(proj_st *st, sib_ps end)
{
	merger m;
	prec r;
	int have = 0, rc = 0;
	logw w = { 0 };
	size_t plen = strlen(st->dir) + sizeof "/" PROJ_BASE ".4294967295.log";
	char *fbuf = malloc(FILE_BUFSZ);

	w.path = malloc(plen);
	if (!w.path || !fbuf) {
		fail_oom(st, "for the log buffer");
		free(w.path);
		free(fbuf);
		return -1;
	}
	if (merger_init(&m, st) != 0) {
		merger_free(&m);
		free(w.path);
		free(fbuf);
		return -1;
	}
	uint32_t msg_entry = st->nnames;
	for (uint32_t pe = 0; pe < st->npes && rc == 0; pe++) {
		if (!st->slot[pe])
			continue;
		pe_state *ps = &st->pes[st->slot[pe] - 1];
		int tail_idle = end > ps->last_end;
		snprintf(w.path, plen, "%s/%s.%" PRIu32 ".log", st->dir,
			 PROJ_BASE, pe);
		w.f = fopen(w.path, "w");
		if (!w.f) {
			failf(st, "cannot create", w.path, errno);
			rc = -1;
			break;
		}
		setvbuf(w.f, fbuf, _IOFBF, FILE_BUFSZ);
		w.pe = pe;
		w.last = 0;
		fprintf(w.f, "PROJECTIONS-RECORD %" PRIu64 "\n%d 0\n",
			ps->lines + 2 + (tail_idle ? 2 : 0),
			BEGIN_COMPUTATION);
		for (;;) {
			if (!have) {
				int k = merger_next(&m, &r);
				if (k < 0) {
					rc = -1;
					break;
				}
				if (k == 0)
					break;
				have = 1;
			}
			if (r.pe != pe)
				break;
			write_rec(&w, &r, msg_entry);
			have = 0;
		}
		if (tail_idle) {
			prec idle = { .kind = K_IDLE, .t0 = ps->last_end,
				      .t1 = end };
			write_rec(&w, &idle, msg_entry);
		}
		fprintf(w.f, "%d %" PRId64 "\n", END_COMPUTATION, mono(&w, end));
		if (log_close(st, &w) != 0)
			rc = -1;
	}
	merger_free(&m);
	free(w.path);
	free(fbuf);
	return rc;
}

/* StsReader reads names as whitespace-separated tokens, quoted or not
 * (older Projections take quotes as part of the name), and takes a '('
 * without its ')' as the start of a signature that goes on to the next
 * tokens: a name is written as one unquoted token. */
static void sts_name(FILE *f, const char *name)
{
	int open = strchr(name, '(') && !strchr(name, ')');
	if (!*name)
		fputc('_', f);
	for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
		int c = *s;
		if (c <= ' ' || c == '"' || c == 0x7f)
			c = '_';
		else if (open && c == '(')
			c = '[';
		fputc(c, f);
	}
}

static int write_sts(proj_st *st, const fsim_out_info *info)
{
	size_t len = strlen(st->dir) + sizeof "/" PROJ_BASE ".sts";
	char *path = malloc(len);
	if (!path) {
		fail_oom(st, "for the sts file name");
		return -1;
	}
	snprintf(path, len, "%s/%s.sts", st->dir, PROJ_BASE);
	FILE *f = fopen(path, "w");
	if (!f) {
		failf(st, "cannot create", path, errno);
		free(path);
		return -1;
	}
	fprintf(f, "VERSION %s\nMACHINE sibyl\nPROCESSORS %" PRIu32 "\n"
		"TOTAL_CHARES 2\nTOTAL_EPS %" PRIu32 "\nTOTAL_MSGS 0\n"
		"TOTAL_PSEUDOS 0\nTOTAL_EVENTS 0\n"
		"CHARE 0 SEB\nCHARE 1 Network\n", PROJ_VERSION,
		info->npes, info->nnames + 1);
	for (uint32_t i = 0; i < info->nnames; i++) {
		fprintf(f, "ENTRY CHARE %" PRIu32 " ", i);
		sts_name(f, info->names[i] ? info->names[i] : "");
		fputs(" 0 -1\n", f);
	}
	fprintf(f, "ENTRY CHARE %" PRIu32 " message 1 -1\nEND\n",
		info->nnames);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		failf(st, "cannot write", path, errno);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

/* ---------------------------------------------------------- interface */

static void st_free(proj_st *st)
{
	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	st->magic = PROJ_DEAD;
	free(st->dir);
	free(st->slot);
	free(st->pes);
	free(st->buf);
	free(st->scratch);
	free(st->runs);
	free(st);
}

static size_t sort_mem(void)
{
	const char *s = getenv("SIBYL_PROJECTIONS_SORT_MEM");
	if (s && *s) {
		char *end;
		unsigned long long v = strtoull(s, &end, 10);
		if (*end == '\0' && v > 0)
			return v < MIN_SORT_MEM ? MIN_SORT_MEM : (size_t)v;
	}
	return DEFAULT_SORT_MEM;
}

static int proj_open(void **stp, const char *dir, const fsim_out_info *info,
		     char *err, size_t errlen)
{
	proj_st *st = NULL;

	*stp = NULL;
	if (!info || (info->nnames && !info->names)) {
		snprintf(err, errlen, "projections output: internal error: "
			 "incomplete fsim_out_info (%s:%d)", __FILE__,
			 __LINE__);
		return 1;
	}
	if (info->npes > INT32_MAX || info->nnames >= INT32_MAX) {
		snprintf(err, errlen, "projections output: %" PRIu32 " ranks "
			 "and %" PRIu32 " SEB names do not fit Projections' "
			 "32-bit numbers; use the chrome output instead",
			 info->npes, info->nnames);
		return 1;
	}
	st = calloc(1, sizeof *st);
	if (!st)
		goto out_of_memory;
	st->magic = PROJ_MAGIC;
	st->fd = -1;
	st->npes = info->npes;
	st->nnames = info->nnames;
	size_t len = strlen(dir) + sizeof "/" PROJ_SUBDIR;
	st->dir = malloc(len);
	st->slot = calloc(info->npes ? info->npes : 1, sizeof *st->slot);
	if (!st->dir || !st->slot)
		goto out_of_memory;
	snprintf(st->dir, len, "%s/%s", dir, PROJ_SUBDIR);
	for (uint32_t pe = 0; pe < info->npes; pe++)
		if (!info->selected || info->selected[pe])
			st->slot[pe] = ++st->nshown;
	st->pes = calloc(st->nshown ? st->nshown : 1, sizeof *st->pes);
	st->cap = sort_mem() / sizeof *st->buf;
	st->buf = malloc(st->cap * sizeof *st->buf);
	if (!st->pes || !st->buf)
		goto out_of_memory;

	if (mkdir(st->dir, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the directory %s: %s",
			 st->dir, strerror(errno));
		goto out_free;
	}
	if (write_sts(st, info) != 0) {
		snprintf(err, errlen, "%s", st->err);
		goto out_free;
	}
	*stp = st;
	return 0;

out_of_memory:
	snprintf(err, errlen, "projections output: out of memory for %" PRIu32
		 " ranks", info->npes);
out_free:
	st_free(st);
	return 1;
}

static proj_st *checked(void *p)
{
	proj_st *st = p;
	if (!st || st->magic != PROJ_MAGIC) {
		fprintf(stderr, "%s:%d: projections output used after close "
			"or with a bad handle (%p)\n", __FILE__, __LINE__, p);
		abort();
	}
	return st;
}

static void proj_seb(void *p, const fsim_seb_rec *r)
{
	proj_st *st = checked(p);
	if (st->failed)
		return;
	if (r->pe >= st->npes || !st->slot[r->pe] || r->name >= st->nnames) {
		snprintf(st->err, sizeof st->err, "projections output: "
			 "internal error: SEB record for rank %" PRIu32
			 " name %" PRIu32 " (%" PRIu32 " ranks, %" PRIu32
			 " names) (%s:%d)", r->pe, r->name, st->npes,
			 st->nnames, __FILE__, __LINE__);
		st->failed = 1;
		return;
	}
	pe_state *ps = &st->pes[st->slot[r->pe] - 1];
	prec *x;
	if (r->start > ps->last_end) {
		if (!(x = add(st)))
			return;
		x->pe = r->pe;
		x->seb = r->index;
		x->kind = K_IDLE;
		x->t0 = ps->last_end;
		x->t1 = r->start;
		ps->lines += 2;
	}
	if (!(x = add(st)))
		return;
	x->pe = r->pe;
	x->seb = r->index;
	x->kind = K_BEGIN;
	x->entry = r->name;
	x->t0 = r->start;
	if (!(x = add(st)))
		return;
	x->pe = r->pe;
	x->seb = r->index;
	x->kind = K_END;
	x->entry = r->name;
	x->t0 = r->end;
	ps->lines += 2;
	if (r->end > ps->last_end)
		ps->last_end = r->end;
}

static void proj_msg(void *p, const fsim_msg_rec *r)
{
	proj_st *st = checked(p);
	if (st->failed || r->src >= st->npes || !st->slot[r->src])
		return; /* only the sender's log shows a message */
	prec *x = add(st);
	if (!x)
		return;
	x->pe = r->src;
	x->seb = r->src_seb;
	x->kind = K_CREATE;
	x->t0 = r->sent;
	x->seq = r->seq;
	x->bytes = r->bytes;
	st->pes[st->slot[r->src] - 1].lines++;
}

static int proj_close(void *p, sib_ps end, char *err, size_t errlen)
{
	proj_st *st = checked(p);
	int rc = 0;
	if (!st->failed)
		write_logs(st, end);
	if (st->failed) {
		snprintf(err, errlen, "%s", st->err);
		rc = 1;
	}
	st_free(st);
	return rc;
}

const fsim_out_ops fsim_out_projections = {
	.name = "projections",
	.summary = "Charm++ Projections logs (projections/sibyl.sts and one "
		   "sibyl.<rank>.log per rank), as BigSim wrote them",
	.open = proj_open,
	.seb = proj_seb,
	.msg = proj_msg,
	.close = proj_close,
};
