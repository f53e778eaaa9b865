/*
 * out_chrome.c -- the timeline as a Chrome/Perfetto trace-event JSON file.
 *
 * Writes DIR/timeline.json in the Trace Event Format's object form
 * ({"traceEvents":[...], "displayTimeUnit":"ns", "otherData":{...}}),
 * streaming: one line per event as records come, nothing kept per SEB.
 * docs/outputs.md describes the result for users; the choices that are
 * there for the viewers' sake are explained here.
 *
 *  - Times are microseconds written exactly from picoseconds: ps / 10^6
 *    with six decimals, in integers.
 *  - A node is a process (pid = node + 1) and a rank a thread
 *    (tid = rank + 1): Perfetto reserves pid/tid 0 for the kernel's idle
 *    task.  Names carry the real numbers ("node 0", "rank 0").  All
 *    process names are written before any thread name: Perfetto gives
 *    every process a main thread whose tid is its pid, and a rank whose
 *    tid equals another node's pid must be created after that thread to
 *    receive its own name.
 *  - An SEB is a "B"/"E" pair, not an "X" event: Perfetto rounds ts and
 *    dur to nanoseconds separately, so two back-to-back X events could
 *    overlap by 1 ns and the second one would be dropped; rounding the
 *    two ends keeps their order.
 *  - A message is a flow: "s" on the sender, "f" on the receiver.  Both
 *    viewers attach "s" to the slice open at its timestamp and, without a
 *    "bp" field, "f" to the next slice that begins on the receiver -- the
 *    first SEB that can consume the message (the simulator does not say
 *    which one does).  The two timestamps are moved by at most 1 ns so
 *    that this binding holds after the viewers' rounding to nanoseconds:
 *    "s" is kept 1 ns inside the sending SEB (which needs the SEB's start
 *    and end: a small ring of each PE's last SEBs remembers them), "f" is
 *    put 1 ns before the arrival.  The exact times are in the flow's args.
 *  - Keys come in the order ph, pid, tid, ts, then the rest: Perfetto's
 *    tokenizer scans an event's keys in order to find "ts".
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsim.h"
#include "sib_util.h"

#define CHROME_MAGIC 0x4d524843u /* "CHRM" */
#define CHROME_DEAD 0xdeadbeefu
#define CHROME_FILE "timeline.json"
#define RING 4                   /* SEBs remembered per PE for flows */
#define NUDGE 1000               /* ps: flow ends are kept 1 ns away */
#define FILE_BUFSZ (1u << 20)

typedef struct seb_mark {
	uint64_t index;
	sib_ps start, end;
	int used;
} seb_mark;

/* A growable line buffer; every event is built here, then written. */
typedef struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
} sbuf;

typedef struct chrome_st {
	uint32_t magic;
	FILE *f;
	char *path;
	char *fbuf;
	const fsim_machine *m;
	uint32_t npes;
	const char *const *names;
	uint32_t nnames;
	char *trace;
	uint32_t *slot;          /* per PE: 1 + index into ring, 0 if not shown */
	seb_mark *ring;          /* RING per shown PE */
	uint32_t first_pe;       /* a shown PE, for the end marker; or npes */
	uint32_t nshown;
	int any;                 /* an event was written (comma needed) */
	uint64_t nsebs, nflows, nhidden, flow_id;
	sbuf line;
	int failed;
	char err[512];
} chrome_st;

/* ------------------------------------------------------------ buffers */

static void sb_grow(sbuf *b, size_t need)
{
	if (b->oom || b->len + need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + need)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

static void sb_mem(sbuf *b, const char *s, size_t n)
{
	sb_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void sb_str(sbuf *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

static void sb_u64(sbuf *b, uint64_t v)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sb_mem(b, tmp + sizeof tmp - n, (size_t)n);
}

static void sb_i64(sbuf *b, int64_t v)
{
	if (v < 0) {
		sb_mem(b, "-", 1);
		sb_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		sb_u64(b, (uint64_t)v);
	}
}

/* Picoseconds as microseconds with six decimals, exactly. */
static void sb_us(sbuf *b, sib_ps ps)
{
	uint64_t mag = ps < 0 ? (uint64_t)0 - (uint64_t)ps : (uint64_t)ps;
	char frac[7];
	uint64_t f = mag % 1000000;
	if (ps < 0)
		sb_mem(b, "-", 1);
	sb_u64(b, mag / 1000000);
	for (int i = 5; i >= 0; i--) {
		frac[i] = (char)('0' + f % 10);
		f /= 10;
	}
	frac[6] = '\0';
	sb_mem(b, ".", 1);
	sb_mem(b, frac, 6);
}

/* A JSON string: control characters escaped, invalid UTF-8 replaced by
 * U+FFFD so that strict parsers accept the file whatever the names. */
static void sb_jstr(sbuf *b, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);
	sb_mem(b, "\"", 1);
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };
			sb_mem(b, e, 2);
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4],
				      hex[c & 15] };
			sb_mem(b, e, 6);
			i++;
		} else if (c < 0x80) {
			sb_mem(b, (const char *)s + i, 1);
			i++;
		} else {
			size_t l = sib_utf8_len(s + i, n - i);
			if (l) {
				sb_mem(b, (const char *)s + i, l);
				i += l;
			} else {
				sb_str(b, "\\ufffd");
				i++;
			}
		}
	}
	sb_mem(b, "\"", 1);
}

/* ------------------------------------------------------------- writing */

static void fail(chrome_st *st, const char *what, int e)
{
	if (st->failed)
		return;
	st->failed = 1;
	snprintf(st->err, sizeof st->err, "%s %s: %s", what, st->path,
		 strerror(e ? e : EIO));
}

/* Start an event: the separator and the common keys. */
static void ev_begin(chrome_st *st, const char *ph)
{
	sbuf *b = &st->line;
	b->len = 0;
	sb_str(b, st->any ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	sb_str(b, ph);
	sb_str(b, "\"");
	st->any = 1;
}

static void ev_thread(chrome_st *st, uint32_t pe)
{
	sbuf *b = &st->line;
	sb_str(b, ",\"pid\":");
	sb_u64(b, (uint64_t)fsim_node_of(st->m, pe) + 1);
	sb_str(b, ",\"tid\":");
	sb_u64(b, (uint64_t)pe + 1);
}

static void ev_ts(chrome_st *st, sib_ps t)
{
	sb_str(&st->line, ",\"ts\":");
	sb_us(&st->line, t);
}

static void ev_end(chrome_st *st)
{
	sbuf *b = &st->line;
	sb_mem(b, "}", 1);
	if (st->failed)
		return;
	if (b->oom) {
		fail(st, "out of memory while writing", ENOMEM);
		return;
	}
	if (fwrite(b->p, 1, b->len, st->f) != b->len)
		fail(st, "cannot write", errno);
}

static void write_metadata(chrome_st *st, uint8_t *node_seen)
{
	sbuf *b = &st->line;
	uint32_t nnodes = st->m->nnodes;

	/* Processes first (see the header comment), in node order. */
	for (uint32_t n = 0; n < nnodes; n++) {
		if (!node_seen[n])
			continue;
		ev_begin(st, "M");
		sb_str(b, ",\"pid\":");
		sb_u64(b, (uint64_t)n + 1);
		sb_str(b, ",\"name\":\"process_name\",\"args\":{\"name\":\"node ");
		sb_u64(b, n);
		sb_str(b, "\"}");
		ev_end(st);
		ev_begin(st, "M");
		sb_str(b, ",\"pid\":");
		sb_u64(b, (uint64_t)n + 1);
		sb_str(b, ",\"name\":\"process_sort_index\",\"args\":"
		       "{\"sort_index\":");
		sb_u64(b, n);
		sb_str(b, "}");
		ev_end(st);
	}
	for (uint32_t pe = 0; pe < st->npes; pe++) {
		if (!st->slot[pe])
			continue;
		ev_begin(st, "M");
		ev_thread(st, pe);
		sb_str(b, ",\"name\":\"thread_name\",\"args\":{\"name\":\"rank ");
		sb_u64(b, pe);
		sb_str(b, "\"}");
		ev_end(st);
		ev_begin(st, "M");
		ev_thread(st, pe);
		sb_str(b, ",\"name\":\"thread_sort_index\",\"args\":"
		       "{\"sort_index\":");
		sb_u64(b, pe);
		sb_str(b, "}");
		ev_end(st);
	}
}

static void st_free(chrome_st *st)
{
	if (!st)
		return;
	if (st->f)
		fclose(st->f);
	st->magic = CHROME_DEAD;
	free(st->fbuf);
	free(st->path);
	free(st->trace);
	free(st->slot);
	free(st->ring);
	free(st->line.p);
	free(st);
}

/* ---------------------------------------------------------- interface */

static int chrome_open(void **stp, const char *dir, const fsim_out_info *info,
		       char *err, size_t errlen)
{
	chrome_st *st = NULL;
	uint8_t *node_seen = NULL;
	const fsim_machine *m = info ? info->machine : NULL;

	*stp = NULL;
	if (!info || !m || (!m->node_of && m->cores_per_node == 0) ||
	    (info->nnames && !info->names)) {
		snprintf(err, errlen, "chrome output: internal error: "
			 "incomplete fsim_out_info (%s:%d)", __FILE__,
			 __LINE__);
		return 1;
	}
	st = calloc(1, sizeof *st);
	if (!st)
		goto out_of_memory;
	st->magic = CHROME_MAGIC;
	st->m = m;
	st->npes = info->npes;
	st->names = info->names;
	st->nnames = info->nnames;
	st->first_pe = info->npes;
	st->trace = strdup(info->trace ? info->trace : "");
	size_t plen = strlen(dir) + sizeof "/" CHROME_FILE;
	st->path = malloc(plen);
	st->slot = calloc(info->npes ? info->npes : 1, sizeof *st->slot);
	node_seen = calloc(m->nnodes ? m->nnodes : 1, 1);
	if (!st->trace || !st->path || !st->slot || !node_seen)
		goto out_of_memory;
	snprintf(st->path, plen, "%s/%s", dir, CHROME_FILE);

	for (uint32_t pe = 0; pe < info->npes; pe++) {
		if (info->selected && !info->selected[pe])
			continue;
		uint32_t n = fsim_node_of(m, pe);
		if (n >= m->nnodes) {
			snprintf(err, errlen, "chrome output: internal error: "
				 "rank %" PRIu32 " is on node %" PRIu32
				 " of %" PRIu32 " (%s:%d)", pe, n, m->nnodes,
				 __FILE__, __LINE__);
			goto out_free;
		}
		node_seen[n] = 1;
		st->slot[pe] = ++st->nshown;
		if (st->first_pe == info->npes)
			st->first_pe = pe;
	}
	st->ring = calloc((size_t)(st->nshown ? st->nshown : 1) * RING,
			  sizeof *st->ring);
	if (!st->ring)
		goto out_of_memory;

	st->f = fopen(st->path, "w");
	if (!st->f) {
		snprintf(err, errlen, "cannot create %s: %s", st->path,
			 strerror(errno));
		goto out_free;
	}
	st->fbuf = malloc(FILE_BUFSZ);
	if (st->fbuf)
		setvbuf(st->f, st->fbuf, _IOFBF, FILE_BUFSZ);
	if (fputs("{\"traceEvents\":[", st->f) == EOF)
		fail(st, "cannot write", errno);
	write_metadata(st, node_seen);
	if (st->failed) {
		snprintf(err, errlen, "%s", st->err);
		goto out_free;
	}
	free(node_seen);
	*stp = st;
	return 0;

out_of_memory:
	snprintf(err, errlen, "chrome output: out of memory for %" PRIu32
		 " ranks", info->npes);
out_free:
	free(node_seen);
	st_free(st);
	return 1;
}

static chrome_st *checked(void *p)
{
	chrome_st *st = p;
	if (!st || st->magic != CHROME_MAGIC) {
		fprintf(stderr, "%s:%d: chrome output used after close or "
			"with a bad handle (%p)\n", __FILE__, __LINE__, p);
		abort();
	}
	return st;
}

static void chrome_seb(void *p, const fsim_seb_rec *r)
{
	chrome_st *st = checked(p);
	sbuf *b = &st->line;
	if (st->failed)
		return;
	if (r->pe >= st->npes || !st->slot[r->pe] || r->name >= st->nnames) {
		snprintf(st->err, sizeof st->err, "chrome output: internal "
			 "error: SEB record for rank %" PRIu32 " name %" PRIu32
			 " (%" PRIu32 " ranks, %" PRIu32 " names, rank shown:"
			 " %s) (%s:%d)", r->pe, r->name, st->npes, st->nnames,
			 r->pe < st->npes && st->slot[r->pe] ? "yes" : "no",
			 __FILE__, __LINE__);
		st->failed = 1;
		return;
	}
	seb_mark *ring = st->ring + (size_t)(st->slot[r->pe] - 1) * RING;
	seb_mark *mk = &ring[r->index % RING];
	mk->index = r->index;
	mk->start = r->start;
	mk->end = r->end;
	mk->used = 1;

	ev_begin(st, "B");
	ev_thread(st, r->pe);
	ev_ts(st, r->start);
	sb_str(b, ",\"cat\":\"seb\",\"name\":");
	sb_jstr(b, st->names[r->name] ? st->names[r->name] : "");
	sb_str(b, ",\"args\":{\"index\":");
	sb_u64(b, r->index);
	sb_str(b, ",\"sends\":");
	sb_u64(b, r->nsends);
	sb_str(b, ",\"waits\":");
	sb_u64(b, r->nwaits);
	sb_str(b, "}");
	ev_end(st);

	ev_begin(st, "E");
	ev_thread(st, r->pe);
	ev_ts(st, r->end);
	sb_str(b, ",\"cat\":\"seb\"");
	ev_end(st);
	st->nsebs++;
}

/* Where the flow leaves: 1 ns inside the sending SEB when it is known. */
static sib_ps flow_start(const chrome_st *st, const fsim_msg_rec *r)
{
	const seb_mark *ring = st->ring + (size_t)(st->slot[r->src] - 1) * RING;
	const seb_mark *mk = &ring[r->src_seb % RING];
	if (!mk->used || mk->index != r->src_seb)
		return r->sent;
	sib_ps dur = mk->end - mk->start;
	if (dur >= 2 * NUDGE) {
		sib_ps t = r->sent;
		if (t < mk->start + NUDGE)
			t = mk->start + NUDGE;
		if (t > mk->end - NUDGE)
			t = mk->end - NUDGE;
		return t;
	}
	return mk->start + dur / 2;
}

static void chrome_msg(void *p, const fsim_msg_rec *r)
{
	chrome_st *st = checked(p);
	sbuf *b = &st->line;
	if (st->failed)
		return;
	if (r->src >= st->npes || r->dst >= st->npes || !st->slot[r->src] ||
	    !st->slot[r->dst]) {
		st->nhidden++;  /* one end is not in the timeline */
		return;
	}
	sib_ps ts = flow_start(st, r);
	sib_ps tf = r->arrived - NUDGE;
	if (tf < ts)
		tf = ts;
	uint64_t id = ++st->flow_id;

	ev_begin(st, "s");
	ev_thread(st, r->src);
	ev_ts(st, ts);
	sb_str(b, ",\"cat\":\"msg\",\"name\":\"msg\",\"id\":\"0x");
	char hex[17];
	snprintf(hex, sizeof hex, "%" PRIx64, id);
	sb_str(b, hex);
	sb_str(b, "\",\"args\":{\"bytes\":");
	sb_u64(b, r->bytes);
	sb_str(b, ",\"tag\":");
	sb_i64(b, r->tag);
	sb_str(b, ",\"src\":");
	sb_u64(b, r->src);
	sb_str(b, ",\"dst\":");
	sb_u64(b, r->dst);
	sb_str(b, ",\"seq\":");
	sb_u64(b, r->seq);
	sb_str(b, ",\"from_seb\":");
	sb_u64(b, r->src_seb);
	sb_str(b, ",\"sent_us\":");
	sb_us(b, r->sent);
	sb_str(b, ",\"arrived_us\":");
	sb_us(b, r->arrived);
	sb_str(b, "}");
	ev_end(st);

	ev_begin(st, "f");
	ev_thread(st, r->dst);
	ev_ts(st, tf);
	sb_str(b, ",\"cat\":\"msg\",\"name\":\"msg\",\"id\":\"0x");
	sb_str(b, hex);
	sb_str(b, "\"");
	ev_end(st);
	st->nflows++;
}

static int chrome_close(void *p, sib_ps end, char *err, size_t errlen)
{
	chrome_st *st = checked(p);
	sbuf *b = &st->line;
	int rc = 0;

	/* One global instant marks the predicted end of the run. */
	if (!st->failed) {
		ev_begin(st, "i");
		if (st->first_pe < st->npes)
			ev_thread(st, st->first_pe);
		ev_ts(st, end);
		sb_str(b, ",\"s\":\"g\",\"cat\":\"sibyl\",\"name\":\"end of run\","
		       "\"args\":{\"predicted_time_ps\":");
		sb_i64(b, end);
		sb_str(b, "}");
		ev_end(st);
	}
	if (!st->failed) {
		b->len = 0;
		sb_str(b, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{"
		       "\"generator\":\"" PACKAGE_STRING "\",\"trace\":");
		sb_jstr(b, st->trace);
		sb_str(b, ",\"ranks\":");
		sb_u64(b, st->npes);
		sb_str(b, ",\"nodes\":");
		sb_u64(b, st->m->nnodes);
		sb_str(b, ",\"ranks_shown\":");
		sb_u64(b, st->nshown);
		sb_str(b, ",\"sebs\":");
		sb_u64(b, st->nsebs);
		sb_str(b, ",\"messages_drawn\":");
		sb_u64(b, st->nflows);
		sb_str(b, ",\"messages_not_drawn\":");
		sb_u64(b, st->nhidden);
		sb_str(b, ",\"predicted_time_ps\":");
		sb_i64(b, end);
		sb_str(b, ",\"time_unit\":\"ts in microseconds, six decimals "
		       "(exact picoseconds); flow ends may be moved by up to "
		       "1 ns, see args sent_us/arrived_us\"}}\n");
		if (b->oom)
			fail(st, "out of memory while writing", ENOMEM);
		else if (fwrite(b->p, 1, b->len, st->f) != b->len)
			fail(st, "cannot write", errno);
	}
	if (!st->failed && fflush(st->f) != 0)
		fail(st, "cannot write", errno);
	if (!st->failed && ferror(st->f))
		fail(st, "cannot write", EIO);
	if (fclose(st->f) != 0)
		fail(st, "cannot write", errno);
	st->f = NULL;
	if (st->failed) {
		snprintf(err, errlen, "%s", st->err);
		rc = 1;
	}
	st_free(st);
	return rc;
}

const fsim_out_ops fsim_out_chrome = {
	.name = "chrome",
	.summary = "Chrome/Perfetto trace-event JSON (timeline.json): one "
		   "track per rank grouped by node, messages as arrows",
	.open = chrome_open,
	.seb = chrome_seb,
	.msg = chrome_msg,
	.close = chrome_close,
};
