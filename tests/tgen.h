/*
 * tgen.h -- randomized trace models for the tracefmt tests (header only).
 *
 * tg_generate() builds, from a seed, a random *valid* trace model in
 * memory: per-PE SEB lists whose messages are all sent and awaited exactly
 * once and whose dependency graph is acyclic.  The SEBs are generated in
 * "rounds"; a message sent in round r is awaited by an SEB of its
 * destination in a later round, so ordering SEBs by (round, index) is a
 * topological order.  Names, durations, sizes, tags, prints and markers
 * cover the edges of their ranges (long and UTF-8 names, 0 and INT64_MAX
 * durations, 2^40-byte messages, negative tags and marker values, binary
 * print text).
 *
 * tg_write() writes a model with the sibt_writer API: one writer per
 * emulating process (sibt_block_range), all open at once and fed in a
 * random interleaving of PEs, with random early flushes, so windows of
 * different PEs and processes interleave in the files.
 *
 * tg_compare_trace() / tg_compare_window() read a trace back and compare
 * it with the model field by field; the first difference is described in
 * err (PE, SEB index and field).
 *
 * The bytes of the written files (file helpers, the frame walker used to
 * corrupt files at precise places) are in tgen_bytes.h.
 */
#ifndef SIBYL_TGEN_H
#define SIBYL_TGEN_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sibyl_trace.h"

/* ------------------------------------------------------------- random */

typedef struct tg_rng {
	uint64_t s;
} tg_rng;

static inline void tg_seed(tg_rng *r, uint64_t seed)
{
	r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
}

/* splitmix64 */
static inline uint64_t tg_next(tg_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n); 0 when n == 0. */
static inline uint64_t tg_below(tg_rng *r, uint64_t n)
{
	return n ? tg_next(r) % n : 0;
}

static inline int tg_chance(tg_rng *r, unsigned pct)
{
	return tg_below(r, 100) < pct;
}

static inline void *tg_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "tgen: out of memory (%zu bytes)\n", n);
		exit(99);
	}
	return p;
}

static inline void *tg_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "tgen: out of memory\n");
		exit(99);
	}
	return p;
}

static inline void *tg_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "tgen: out of memory (%zu bytes)\n", n);
		exit(99);
	}
	return p;
}

static inline char *tg_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(tg_xmalloc(n), s, n);
}

static inline void tg_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void tg_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* -------------------------------------------------------------- model */

typedef struct tg_pe {
	uint64_t nsebs, cap;
	sibt_seb *sebs;     /* every pointer inside is owned by the model */
	uint64_t nsends;
} tg_pe;

typedef struct tg_model {
	uint32_t npes;
	tg_pe *pes;
	uint64_t nsebs, nsends;
} tg_model;

typedef struct tg_params {
	uint32_t npes;          /* >= 1 */
	uint32_t rounds;        /* >= 1 */
	uint32_t max_per_round; /* SEBs of a PE per round: 0..max, max >= 1 */
	int simple;             /* short ASCII names, no prints/markers: small
	                           and easy to reason about byte by byte */
	int no_empty_preds;     /* never an explicit empty predecessor list
	                           on an SEB > 0 (tests about other things) */
} tg_params;

/* Names: empty, short, long (> 300 bytes), UTF-8, with blanks. */
static inline char *tg_make_name(tg_rng *r, int simple)
{
	static const char *const ascii[] = {
		"MPI_Send", "MPI_Recv", "compute", "halo", "_", ".c:", "42",
		"kernel<float>", "solve", "x"
	};
	static const char *const any[] = {
		"MPI_Allreduce", "é", "π", "日本語", "😀", "/", ":", "@", " ",
		"\t", "\n", "\\", "=", "#", "ß", "Ω", "\xc3\xbf"
	};
	size_t target, len = 0;
	unsigned kind = (unsigned)tg_below(r, 100);
	char *s;

	if (simple)
		target = kind < 10 ? 0 : 1 + tg_below(r, 10);
	else if (kind < 8)
		target = 0;
	else if (kind < 92)
		target = 1 + tg_below(r, 40);
	else
		target = 300 + tg_below(r, 900);
	s = tg_xmalloc(target + 32);
	while (len < target) {
		const char *f;
		if (simple || tg_chance(r, 50))
			f = ascii[tg_below(r, sizeof ascii / sizeof *ascii)];
		else
			f = any[tg_below(r, sizeof any / sizeof *any)];
		size_t fl = strlen(f);
		if (simple && len + fl > target)
			fl = target - len;
		memcpy(s + len, f, fl);
		len += fl;
	}
	s[len] = '\0';
	return s;
}

static inline sibt_time tg_make_duration(tg_rng *r, int simple)
{
	unsigned k = (unsigned)tg_below(r, 100);
	if (k < 15)
		return 0;
	if (k < 60 || simple)
		return (sibt_time)tg_below(r, 1000000);
	if (k < 85)
		return (sibt_time)tg_below(r, 1000000000000000ull);
	if (k < 90)
		return INT64_MAX;
	if (k < 95)
		return INT64_MAX - (sibt_time)tg_below(r, 1000);
	return (sibt_time)(tg_next(r) >> 1);
}

static inline int64_t tg_make_value(tg_rng *r)
{
	switch (tg_below(r, 8)) {
	case 0: return 0;
	case 1: return INT64_MIN;
	case 2: return INT64_MAX;
	case 3: return -1;
	case 4: return -(int64_t)tg_below(r, 1000000);
	case 5: return (int64_t)tg_below(r, 1000);
	default: return (int64_t)tg_next(r);
	}
}

static inline int32_t tg_make_tag(tg_rng *r)
{
	switch (tg_below(r, 6)) {
	case 0: return 0;
	case 1: return INT32_MIN;
	case 2: return INT32_MAX;
	case 3: return -1 - (int32_t)tg_below(r, 100);
	case 4: return (int32_t)tg_below(r, 100);
	default: return (int32_t)(uint32_t)tg_next(r);
	}
}

static inline uint64_t tg_make_size(tg_rng *r)
{
	switch (tg_below(r, 6)) {
	case 0: return 0;
	case 1: return 1ull << 40;
	case 2: return tg_below(r, (1ull << 40) + 1);
	case 3: return tg_below(r, 65536);
	default: return 8 * tg_below(r, 1024);
	}
}

static inline sibt_seb *tg_pe_append(tg_pe *p)
{
	if (p->nsebs == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->sebs = tg_xrealloc(p->sebs, p->cap * sizeof *p->sebs);
	}
	sibt_seb *s = &p->sebs[p->nsebs];
	memset(s, 0, sizeof *s);
	s->index = p->nsebs++;
	return s;
}

typedef struct tg_msgvec {
	sibt_msgid *v;
	size_t n, cap;
} tg_msgvec;

static inline void tg_msgvec_push(tg_msgvec *mv, sibt_msgid id)
{
	if (mv->n == mv->cap) {
		mv->cap = mv->cap ? 2 * mv->cap : 16;
		mv->v = tg_xrealloc(mv->v, mv->cap * sizeof *mv->v);
	}
	mv->v[mv->n++] = id;
}

/* Fill the parts of an SEB that do not involve messages. */
static inline void tg_fill_seb(tg_rng *r, sibt_seb *s, char *const *pool,
			       size_t npool, int simple, int no_empty)
{
	if (tg_chance(r, 60))
		s->name = tg_xstrdup(pool[tg_below(r, npool)]);
	else
		s->name = tg_make_name(r, simple);
	s->duration = tg_make_duration(r, simple);
	/* Format 1.1: a code region and a corrected duration. */
	if (!simple && tg_chance(r, 30))
		s->region = tg_xstrdup(pool[tg_below(r, npool)]);
	if (!simple && tg_chance(r, 10)) {
		s->corrected = 1 + (uint32_t)tg_below(r, SIBT_CORR_MAX);
		s->raw_duration = tg_make_duration(r, simple);
	}

	s->preds_default = 1;
	if (tg_chance(r, simple ? 15 : 20)) {
		uint64_t i = s->index;
		uint32_t k = (uint32_t)tg_below(r, (i < 4 ? i : 4) + 1);
		uint64_t *p = tg_xmalloc((k + 1) * sizeof *p);
		uint32_t n = 0;
		s->preds_default = 0;
		if (tg_chance(r, 10) && i > 0) {
			p[n++] = i - 1;  /* explicit, same as the default */
		} else {
			for (uint32_t j = 0; j < k; j++) {
				uint64_t c = tg_below(r, i);
				int dup = 0;
				for (uint32_t q = 0; q < n; q++)
					dup |= p[q] == c;
				if (!dup)
					p[n++] = c;
			}
		}
		if (n == 0 && i > 0 && no_empty)
			p[n++] = tg_below(r, i);
		s->npreds = n;
		s->preds = p;
	}

	if (!simple && tg_chance(r, 12)) {
		uint32_t k = 1 + (uint32_t)tg_below(r, 3);
		sibt_print *pr = tg_xcalloc(k, sizeof *pr);
		for (uint32_t j = 0; j < k; j++) {
			uint32_t len;
			char *t;
			switch (tg_below(r, 4)) {
			case 0: len = 0; break;
			case 1: len = 300 + (uint32_t)tg_below(r, 400); break;
			default: len = 1 + (uint32_t)tg_below(r, 60); break;
			}
			t = tg_xmalloc(len + 1);
			int binary = tg_chance(r, 40);
			for (uint32_t c = 0; c < len; c++)
				t[c] = binary ? (char)tg_below(r, 256)
					      : (char)(' ' + tg_below(r, 95));
			if (!binary && len)
				t[len - 1] = '\n';
			t[len] = '\0';
			pr[j].text = t;
			pr[j].len = len;
			pr[j].offset = (sibt_time)tg_below(r,
				(uint64_t)s->duration + 1);
		}
		s->nprints = k;
		s->prints = pr;
	}

	if (!simple && tg_chance(r, 12)) {
		uint32_t k = 1 + (uint32_t)tg_below(r, 4);
		sibt_marker *mk = tg_xcalloc(k, sizeof *mk);
		for (uint32_t j = 0; j < k; j++) {
			mk[j].kind = SIBT_MARK_SKIP_START +
				     (uint32_t)tg_below(r, 4);
			mk[j].value = tg_make_value(r);
		}
		s->nmarkers = k;
		s->markers = mk;
	}
}

static inline tg_model *tg_generate(uint64_t seed, const tg_params *prm)
{
	tg_rng r;
	tg_model *m = tg_xcalloc(1, sizeof *m);
	uint32_t np = prm->npes ? prm->npes : 1;
	uint32_t rounds = prm->rounds ? prm->rounds : 1;
	uint32_t maxk = prm->max_per_round ? prm->max_per_round : 1;
	int simple = prm->simple;
	char *pool[16];
	size_t npool = sizeof pool / sizeof *pool;
	tg_msgvec *pending = tg_xcalloc(np, sizeof *pending);
	tg_msgvec *fresh = tg_xcalloc(np, sizeof *fresh);
	tg_msgvec keep = { 0 };
	uint32_t *target = NULL, *count = NULL;
	size_t target_cap = 0;

	tg_seed(&r, seed);
	m->npes = np;
	m->pes = tg_xcalloc(np, sizeof *m->pes);
	for (size_t i = 0; i < npool; i++)
		pool[i] = tg_make_name(&r, simple);
	count = tg_xcalloc(maxk + 1, sizeof *count);

	for (uint32_t rd = 0; rd < rounds; rd++) {
		int last = rd + 1 == rounds;
		for (uint32_t p = 0; p < np; p++) {
			tg_pe *pe = &m->pes[p];
			tg_msgvec *in = &pending[p];
			uint32_t k = (uint32_t)tg_below(&r, maxk + 1);
			uint64_t base;

			if (last && in->n && k == 0)
				k = 1;
			if (k == 0)
				continue;
			/* Messages of earlier rounds awaited now (all of
			 * them in the last round). */
			if (in->n > target_cap) {
				target_cap = in->n;
				target = tg_xrealloc(target,
						     target_cap * sizeof *target);
			}
			memset(count, 0, (maxk + 1) * sizeof *count);
			keep.n = 0;
			for (size_t j = 0; j < in->n; j++) {
				if (last || tg_chance(&r, 75)) {
					target[j] = (uint32_t)tg_below(&r, k);
					count[target[j]]++;
				} else {
					target[j] = UINT32_MAX;
				}
			}
			base = pe->nsebs;
			for (uint32_t j = 0; j < k; j++) {
				sibt_seb *s = tg_pe_append(pe);
				s->pe = p;
				tg_fill_seb(&r, s, pool, npool, simple,
					    prm->no_empty_preds);
				if (count[j]) {
					s->waits = tg_xmalloc(count[j] *
							      sizeof *s->waits);
				}
			}
			for (size_t j = 0; j < in->n; j++) {
				if (target[j] == UINT32_MAX) {
					tg_msgvec_push(&keep, in->v[j]);
					continue;
				}
				sibt_seb *s = &pe->sebs[base + target[j]];
				((sibt_msgid *)s->waits)[s->nwaits++] = in->v[j];
				/* Format 1.2: sometimes its receive was posted
				 * at the end of an earlier SEB of the PE. */
				if (!simple && base + target[j] > 0 &&
				    tg_chance(&r, 30)) {
					sibt_seb *q = &pe->sebs[tg_below(&r,
						base + target[j])];
					q->posted = tg_xrealloc(
						(void *)q->posted,
						(q->nposted + 1) *
						sizeof *q->posted);
					((sibt_msgid *)q->posted)[q->nposted++] =
						in->v[j];
				}
			}
			/* Shuffle each wait list a little. */
			for (uint32_t j = 0; j < k; j++) {
				sibt_seb *s = &pe->sebs[base + j];
				sibt_msgid *w = (sibt_msgid *)s->waits;
				for (uint32_t a = s->nwaits; a > 1; a--) {
					uint32_t b = (uint32_t)tg_below(&r, a);
					sibt_msgid t = w[a - 1];
					w[a - 1] = w[b];
					w[b] = t;
				}
			}
			in->n = 0;
			for (size_t j = 0; j < keep.n; j++)
				tg_msgvec_push(in, keep.v[j]);

			/* Sends (none in the last round: nobody would wait). */
			for (uint32_t j = 0; j < k; j++) {
				sibt_seb *s = &pe->sebs[base + j];
				uint32_t ns = 0;
				s->first_seq = pe->nsends;
				/* Format 1.2: sends of the PE completed before
				 * the SEB. */
				if (!simple && pe->nsends && tg_chance(&r, 25)) {
					uint32_t nd = 1 + (uint32_t)tg_below(&r, 3);
					uint64_t *d = tg_xmalloc(nd * sizeof *d);
					for (uint32_t q = 0; q < nd; q++)
						d[q] = tg_below(&r, pe->nsends);
					s->ndone = nd;
					s->done = d;
				}
				if (!last && tg_chance(&r, simple ? 40 : 50))
					ns = 1 + (uint32_t)tg_below(&r,
							simple ? 2 : 4);
				if (!ns)
					continue;
				sibt_send *sd = tg_xcalloc(ns, sizeof *sd);
				for (uint32_t q = 0; q < ns; q++) {
					sd[q].dst = (uint32_t)tg_below(&r, np);
					sd[q].tag = simple ? (int32_t)tg_below(&r, 5) - 2
							   : tg_make_tag(&r);
					sd[q].size = simple ? tg_below(&r, 1000)
							    : tg_make_size(&r);
					sd[q].offset = (sibt_time)tg_below(&r,
						(uint64_t)s->duration + 1);
					sibt_msgid id = { p, pe->nsends + q };
					tg_msgvec_push(&fresh[sd[q].dst], id);
				}
				s->nsends = ns;
				s->sends = sd;
				pe->nsends += ns;
			}
		}
		/* Messages of this round become awaitable from the next. */
		for (uint32_t p = 0; p < np; p++) {
			for (size_t j = 0; j < fresh[p].n; j++)
				tg_msgvec_push(&pending[p], fresh[p].v[j]);
			fresh[p].n = 0;
		}
	}
	for (uint32_t p = 0; p < np; p++) {
		if (pending[p].n) {
			fprintf(stderr, "tgen: internal error: %zu messages to "
				"PE %u never awaited\n", pending[p].n, p);
			exit(99);
		}
		free(pending[p].v);
		free(fresh[p].v);
		m->nsebs += m->pes[p].nsebs;
		m->nsends += m->pes[p].nsends;
	}
	free(pending);
	free(fresh);
	free(keep.v);
	free(target);
	free(count);
	for (size_t i = 0; i < npool; i++)
		free(pool[i]);
	return m;
}

static inline void tg_free_model(tg_model *m)
{
	if (!m)
		return;
	for (uint32_t p = 0; p < m->npes; p++) {
		tg_pe *pe = &m->pes[p];
		for (uint64_t i = 0; i < pe->nsebs; i++) {
			sibt_seb *s = &pe->sebs[i];
			free((void *)s->name);
			free((void *)s->region);
			free((void *)s->preds);
			free((void *)s->waits);
			free((void *)s->done);
			free((void *)s->posted);
			free((void *)s->sends);
			for (uint32_t j = 0; j < s->nprints; j++)
				free((void *)s->prints[j].text);
			free((void *)s->prints);
			free((void *)s->markers);
		}
		free(pe->sebs);
	}
	free(m->pes);
	free(m);
}

/* An upper bound on the bytes one SEB can occupy in a window payload
 * (every varint at its 10-byte maximum) plus its name. */
static inline size_t tg_seb_bound(const sibt_seb *s)
{
	size_t n = 10 * (3 + 1 + s->npreds + 1 + 2 * (size_t)s->nwaits + 1 +
			 4 * (size_t)s->nsends + 1 + 2 * (size_t)s->nprints +
			 1 + 2 * (size_t)s->nmarkers + 1 + (size_t)s->ndone +
			 1 + 2 * (size_t)s->nposted);
	for (uint32_t j = 0; j < s->nprints; j++)
		n += s->prints[j].len;
	return n + 30 + 2 * (strlen(s->name ? s->name : "") + 10) +
	       2 * (strlen(s->region ? s->region : "") + 10);
}

/* ------------------------------------------------------------ writing */

typedef struct tg_wopts {
	uint32_t nprocs;        /* >= 1 */
	uint32_t window;        /* 0: library default */
	int level;              /* -1: default */
	size_t mem_budget;      /* 0: library default */
	uint64_t seed;          /* of the interleaving */
	unsigned flush_pct;     /* chance (%) of a random flush_pe per add */
	int overwrite;
	int reverse_open;       /* open the writers from the last process to
	                           the first (process 0, the manifest writer,
	                           comes last) */
	int abort_proc;         /* -1, or a process whose writer is aborted
	                           instead of closed (no index, no trailer) */
	uint64_t abort_after;   /* ... after this many of its SEBs were added */
	const char *cmdline, *topology, *generator;
	const char *const *extra;
	/* out: largest sibt_writer_bytes_pending() seen, and the largest
	 * excess over mem_budget + one SEB (0 when the bound always held) */
	size_t max_pending;
	size_t max_excess;
} tg_wopts;

static inline void tg_wopts_init(tg_wopts *o)
{
	memset(o, 0, sizeof *o);
	o->nprocs = 1;
	o->level = -1;
	o->abort_proc = -1;
	o->flush_pct = 2;
}

static inline void tg_set_writer_opts(sibt_writer_opts *wo, uint32_t npes,
				      const tg_wopts *o, uint32_t proc)
{
	sibt_writer_opts_init(wo);
	wo->npes = npes;
	wo->nprocs = o->nprocs;
	wo->proc = proc;
	sibt_block_range(npes, o->nprocs, proc, &wo->first_pe,
			 &wo->local_npes);
	wo->window = o->window;
	wo->level = o->level;
	wo->mem_budget = o->mem_budget;
	wo->write_manifest = proc == 0;
	wo->overwrite = o->overwrite;
	wo->cmdline = o->cmdline;
	wo->topology = o->topology;
	wo->generator = o->generator;
	wo->extra = o->extra;
}

/* Write model m into trace directory dir.  Returns SIBT_OK or the first
 * error (message in err).  Checks along the way that the writer reports
 * the model's sequence numbers and SEB counts. */
static inline int tg_write(const tg_model *m, const char *dir, tg_wopts *o,
			   char *err, size_t errlen)
{
	uint32_t P = o->nprocs ? o->nprocs : 1;
	sibt_writer **w = tg_xcalloc(P, sizeof *w);
	uint32_t *owner = tg_xcalloc(m->npes, sizeof *owner);
	uint64_t *next = tg_xcalloc(m->npes, sizeof *next);
	uint64_t *added = tg_xcalloc(P, sizeof *added);
	uint32_t *live = tg_xcalloc(m->npes, sizeof *live);
	uint32_t nlive = 0;
	size_t budget = o->mem_budget ? o->mem_budget : (size_t)64 << 20;
	tg_rng r;
	int rc = SIBT_OK;

	tg_seed(&r, o->seed ^ 0x5151);
	o->max_pending = 0;
	o->max_excess = 0;
	for (uint32_t k = 0; k < P; k++) {
		uint32_t p = o->reverse_open ? P - 1 - k : k;
		sibt_writer_opts wo;
		char eb[512] = "";
		tg_set_writer_opts(&wo, m->npes, o, p);
		for (uint32_t l = 0; l < wo.local_npes; l++)
			owner[wo.first_pe + l] = p;
		rc = sibt_writer_open(&w[p], dir, &wo, eb, sizeof eb);
		if (rc != SIBT_OK) {
			tg_errf(err, errlen, "sibt_writer_open(%s, proc %u): "
				"%s: %s", dir, p, sibt_strerror(rc), eb);
			if (rc > 0)
				rc = SIBT_EINVAL;
			goto out;
		}
		if (!w[p]) {
			tg_errf(err, errlen, "sibt_writer_open returned OK "
				"and a NULL writer");
			rc = SIBT_EINVAL;
			goto out;
		}
	}
	for (uint32_t pe = 0; pe < m->npes; pe++)
		if (m->pes[pe].nsebs)
			live[nlive++] = pe;

	while (nlive) {
		uint32_t li = (uint32_t)tg_below(&r, nlive);
		uint32_t pe = live[li];
		uint32_t p = owner[pe];
		const sibt_seb *s = &m->pes[pe].sebs[next[pe]];
		sibt_seb ws = *s;
		uint64_t fs = UINT64_MAX;

		if (!w[p]) {   /* aborted */
			live[li] = live[--nlive];
			continue;
		}
		if (ws.name[0] == '\0' && tg_chance(&r, 50))
			ws.name = NULL;
		ws.index = 0;     /* ignored when writing */
		ws.first_seq = 0;
		rc = sibt_writer_add(w[p], &ws, &fs);
		if (rc != SIBT_OK) {
			tg_errf(err, errlen, "sibt_writer_add(PE %u, SEB %" PRIu64
				"): %s: %s", pe, s->index, sibt_strerror(rc),
				sibt_writer_errmsg(w[p]));
			if (rc > 0)
				rc = SIBT_EINVAL;
			goto out;
		}
		if (fs != s->first_seq ||
		    sibt_writer_next_seq(w[p], pe) != s->first_seq + s->nsends ||
		    sibt_writer_nsebs(w[p], pe) != s->index + 1) {
			tg_errf(err, errlen, "PE %u SEB %" PRIu64 ": writer "
				"says first_seq %" PRIu64 ", next_seq %" PRIu64
				", nsebs %" PRIu64 "; expected %" PRIu64 ", %"
				PRIu64 ", %" PRIu64, pe, s->index, fs,
				sibt_writer_next_seq(w[p], pe),
				sibt_writer_nsebs(w[p], pe), s->first_seq,
				s->first_seq + s->nsends, s->index + 1);
			rc = SIBT_EINVAL;
			goto out;
		}
		size_t pend = sibt_writer_bytes_pending(w[p]);
		size_t lim = budget + tg_seb_bound(s);
		if (pend > o->max_pending)
			o->max_pending = pend;
		if (pend > lim && pend - lim > o->max_excess)
			o->max_excess = pend - lim;
		next[pe]++;
		added[p]++;
		if (next[pe] == m->pes[pe].nsebs) {
			live[li] = live[--nlive];
			if (tg_chance(&r, 50) &&
			    (rc = sibt_writer_flush_pe(w[p], pe)) != SIBT_OK) {
				tg_errf(err, errlen, "sibt_writer_flush_pe(%u): "
					"%s", pe, sibt_writer_errmsg(w[p]));
				goto out;
			}
		} else if (o->flush_pct && tg_chance(&r, o->flush_pct)) {
			if ((rc = sibt_writer_flush_pe(w[p], pe)) != SIBT_OK) {
				tg_errf(err, errlen, "sibt_writer_flush_pe(%u): "
					"%s", pe, sibt_writer_errmsg(w[p]));
				goto out;
			}
		}
		if ((int)p == o->abort_proc && added[p] >= o->abort_after) {
			sibt_writer_abort(w[p]);
			w[p] = NULL;
		}
	}
	for (uint32_t p = 0; p < P; p++) {
		if (!w[p])
			continue;
		if ((int)p == o->abort_proc) {
			sibt_writer_abort(w[p]);
			w[p] = NULL;
			continue;
		}
		rc = sibt_writer_close(w[p]);
		w[p] = NULL;
		if (rc != SIBT_OK) {
			tg_errf(err, errlen, "sibt_writer_close(proc %u): %s",
				p, sibt_strerror(rc));
			if (rc > 0)
				rc = SIBT_EINVAL;
			goto out;
		}
	}
out:
	for (uint32_t p = 0; p < P; p++)
		if (w[p])
			sibt_writer_abort(w[p]);
	free(w);
	free(owner);
	free(next);
	free(added);
	free(live);
	return rc;
}

/* ------------------------------------------------------------ comparing */

/* Effective local predecessors: the default list or the explicit one. */
static inline uint32_t tg_preds(const sibt_seb *s, const uint64_t **list,
				uint64_t *tmp)
{
	if (s->preds_default) {
		if (s->index == 0) {
			*list = tmp;
			return 0;
		}
		*tmp = s->index - 1;
		*list = tmp;
		return 1;
	}
	*list = s->preds;
	return s->npreds;
}

#define TG_DIFF(...) do { \
	int tg_n_ = snprintf(err, errlen, "PE %u SEB %" PRIu64 ": ", \
			     want->pe, want->index); \
	if (tg_n_ >= 0 && (size_t)tg_n_ < errlen) \
		snprintf(err + tg_n_, errlen - (size_t)tg_n_, __VA_ARGS__); \
	return 1; } while (0)

/* 0 when got equals want in every field, else 1 with err filled. */
static inline int tg_seb_diff(const sibt_seb *want, const sibt_seb *got,
			      char *err, size_t errlen)
{
	const uint64_t *wp, *gp;
	uint64_t wt, gt;
	uint32_t wn, gn;

	if (!got)
		TG_DIFF("the window returned no SEB");
	if (got->pe != want->pe)
		TG_DIFF("pe: read %u", got->pe);
	if (got->index != want->index)
		TG_DIFF("index: read %" PRIu64, got->index);
	if (!got->name)
		TG_DIFF("name: read NULL, want \"%.40s\"", want->name);
	if (strcmp(got->name, want->name))
		TG_DIFF("name: read \"%.60s\" (%zu bytes), want \"%.60s\" "
			"(%zu bytes)", got->name, strlen(got->name),
			want->name, strlen(want->name));
	if (got->duration != want->duration)
		TG_DIFF("duration: read %" PRId64 ", want %" PRId64,
			got->duration, want->duration);
	if (strcmp(got->region ? got->region : "",
		   want->region ? want->region : ""))
		TG_DIFF("region: read \"%.60s\", want \"%.60s\"",
			got->region ? got->region : "",
			want->region ? want->region : "");
	if (got->corrected != want->corrected ||
	    (want->corrected && got->raw_duration != want->raw_duration))
		TG_DIFF("correction: read %u/%" PRId64 ", want %u/%" PRId64,
			got->corrected, got->raw_duration, want->corrected,
			want->raw_duration);
	wn = tg_preds(want, &wp, &wt);
	gn = tg_preds(got, &gp, &gt);
	if (wn != gn)
		TG_DIFF("preds: read %u (default %d), want %u (default %d)",
			gn, got->preds_default, wn, want->preds_default);
	for (uint32_t j = 0; j < wn; j++)
		if (wp[j] != gp[j])
			TG_DIFF("preds[%u]: read %" PRIu64 ", want %" PRIu64,
				j, gp[j], wp[j]);
	if (got->nwaits != want->nwaits)
		TG_DIFF("nwaits: read %u, want %u", got->nwaits, want->nwaits);
	for (uint32_t j = 0; j < want->nwaits; j++)
		if (got->waits[j].src != want->waits[j].src ||
		    got->waits[j].seq != want->waits[j].seq)
			TG_DIFF("waits[%u]: read (%u, %" PRIu64 "), want (%u, %"
				PRIu64 ")", j, got->waits[j].src,
				got->waits[j].seq, want->waits[j].src,
				want->waits[j].seq);
	if (got->nsends != want->nsends)
		TG_DIFF("nsends: read %u, want %u", got->nsends, want->nsends);
	if (got->ndone != want->ndone)
		TG_DIFF("ndone: read %u, want %u", got->ndone, want->ndone);
	for (uint32_t j = 0; j < want->ndone; j++)
		if (got->done[j] != want->done[j])
			TG_DIFF("done[%u]: read %" PRIu64 ", want %" PRIu64, j,
				got->done[j], want->done[j]);
	if (got->nposted != want->nposted)
		TG_DIFF("nposted: read %u, want %u", got->nposted,
			want->nposted);
	for (uint32_t j = 0; j < want->nposted; j++)
		if (got->posted[j].src != want->posted[j].src ||
		    got->posted[j].seq != want->posted[j].seq)
			TG_DIFF("posted[%u]: read (%u, %" PRIu64 "), want (%u, %"
				PRIu64 ")", j, got->posted[j].src,
				got->posted[j].seq, want->posted[j].src,
				want->posted[j].seq);
	if (want->nsends && got->first_seq != want->first_seq)
		TG_DIFF("first_seq: read %" PRIu64 ", want %" PRIu64,
			got->first_seq, want->first_seq);
	for (uint32_t j = 0; j < want->nsends; j++) {
		const sibt_send *a = &got->sends[j], *b = &want->sends[j];
		if (a->dst != b->dst)
			TG_DIFF("sends[%u].dst: read %u, want %u", j, a->dst,
				b->dst);
		if (a->tag != b->tag)
			TG_DIFF("sends[%u].tag: read %d, want %d", j,
				(int)a->tag, (int)b->tag);
		if (a->size != b->size)
			TG_DIFF("sends[%u].size: read %" PRIu64 ", want %"
				PRIu64, j, a->size, b->size);
		if (a->offset != b->offset)
			TG_DIFF("sends[%u].offset: read %" PRId64 ", want %"
				PRId64, j, a->offset, b->offset);
	}
	if (got->nprints != want->nprints)
		TG_DIFF("nprints: read %u, want %u", got->nprints,
			want->nprints);
	for (uint32_t j = 0; j < want->nprints; j++) {
		const sibt_print *a = &got->prints[j], *b = &want->prints[j];
		if (a->offset != b->offset)
			TG_DIFF("prints[%u].offset: read %" PRId64 ", want %"
				PRId64, j, a->offset, b->offset);
		if (a->len != b->len)
			TG_DIFF("prints[%u].len: read %u, want %u", j, a->len,
				b->len);
		if (b->len && (!a->text || memcmp(a->text, b->text, b->len)))
			TG_DIFF("prints[%u].text differs", j);
	}
	if (got->nmarkers != want->nmarkers)
		TG_DIFF("nmarkers: read %u, want %u", got->nmarkers,
			want->nmarkers);
	for (uint32_t j = 0; j < want->nmarkers; j++) {
		const sibt_marker *a = &got->markers[j], *b = &want->markers[j];
		if (a->kind != b->kind || a->value != b->value)
			TG_DIFF("markers[%u]: read (%u, %" PRId64 "), want (%u, %"
				PRId64 ")", j, a->kind, a->value, b->kind,
				b->value);
	}
	return 0;
}

/* Read window `w' of `pe' into win and compare it with the model.
 * Returns 0 when identical, a negative sibt_err when reading failed, 1 on
 * a difference (err says which). */
static inline int tg_compare_window(const tg_model *m, sibt_trace *t,
				    uint32_t pe, uint64_t w, sibt_window *win,
				    char *err, size_t errlen)
{
	sibt_window_info wi;
	int rc = sibt_trace_window_info(t, pe, w, &wi);
	if (rc != SIBT_OK) {
		tg_errf(err, errlen, "window_info(PE %u, window %" PRIu64
			"): %s", pe, w, sibt_strerror(rc));
		return rc < 0 ? rc : 1;
	}
	rc = sibt_trace_read_window(t, pe, w, win);
	if (rc != SIBT_OK) {
		tg_errf(err, errlen, "read_window(PE %u, window %" PRIu64
			"): %s: %s", pe, w, sibt_strerror(rc),
			sibt_trace_errmsg(t));
		return rc < 0 ? rc : 1;
	}
	if (wi.pe != pe || wi.window != w) {
		tg_errf(err, errlen, "window_info(PE %u, window %" PRIu64
			") says PE %u window %" PRIu64, pe, w, wi.pe,
			wi.window);
		return 1;
	}
	if (sibt_window_nsebs(win) != wi.nsebs || wi.nsebs == 0) {
		tg_errf(err, errlen, "PE %u window %" PRIu64 ": decoded %u "
			"SEBs, index says %u", pe, w, sibt_window_nsebs(win),
			wi.nsebs);
		return 1;
	}
	if (pe >= m->npes || wi.first_seb + wi.nsebs > m->pes[pe].nsebs) {
		tg_errf(err, errlen, "PE %u window %" PRIu64 ": SEBs %" PRIu64
			"..%" PRIu64 " are not in the model", pe, w,
			wi.first_seb, wi.first_seb + wi.nsebs);
		return 1;
	}
	uint64_t sends = 0;
	for (uint32_t i = 0; i < wi.nsebs; i++) {
		const sibt_seb *want = &m->pes[pe].sebs[wi.first_seb + i];
		if (i == 0 && wi.first_seq != want->first_seq) {
			tg_errf(err, errlen, "PE %u window %" PRIu64 ": "
				"first_seq %" PRIu64 ", want %" PRIu64, pe, w,
				wi.first_seq, want->first_seq);
			return 1;
		}
		if (tg_seb_diff(want, sibt_window_seb(win, i), err, errlen))
			return 1;
		sends += want->nsends;
	}
	if (sends != wi.nsends) {
		tg_errf(err, errlen, "PE %u window %" PRIu64 ": index says %u "
			"sends, the SEBs have %" PRIu64, pe, w, wi.nsends, sends);
		return 1;
	}
	return 0;
}

/* Compare a whole trace with the model: sizes, window index continuity
 * and every SEB.  0 when identical. */
static inline int tg_compare_trace(const tg_model *m, sibt_trace *t,
				   char *err, size_t errlen)
{
	sibt_window *win;
	int ret = 0;

	if (sibt_trace_npes(t) != m->npes) {
		tg_errf(err, errlen, "npes %u, want %u", sibt_trace_npes(t),
			m->npes);
		return 1;
	}
	win = sibt_window_new();
	if (!win) {
		tg_errf(err, errlen, "sibt_window_new failed");
		return SIBT_ENOMEM;
	}
	for (uint32_t pe = 0; pe < m->npes && !ret; pe++) {
		const tg_pe *mp = &m->pes[pe];
		uint64_t nw = sibt_trace_nwindows(t, pe), seb = 0, seq = 0;
		if (sibt_trace_nsebs(t, pe) != mp->nsebs ||
		    sibt_trace_nsends(t, pe) != mp->nsends) {
			tg_errf(err, errlen, "PE %u: trace has %" PRIu64
				" SEBs and %" PRIu64 " sends, want %" PRIu64
				" and %" PRIu64, pe, sibt_trace_nsebs(t, pe),
				sibt_trace_nsends(t, pe), mp->nsebs,
				mp->nsends);
			ret = 1;
			break;
		}
		for (uint64_t w = 0; w < nw && !ret; w++) {
			sibt_window_info wi;
			int rc = sibt_trace_window_info(t, pe, w, &wi);
			if (rc != SIBT_OK || wi.first_seb != seb ||
			    wi.first_seq != seq) {
				tg_errf(err, errlen, "PE %u window %" PRIu64
					": info rc %d, first_seb %" PRIu64
					", first_seq %" PRIu64 "; want %"
					PRIu64 ", %" PRIu64, pe, w, rc,
					wi.first_seb, wi.first_seq, seb, seq);
				ret = 1;
				break;
			}
			ret = tg_compare_window(m, t, pe, w, win, err, errlen);
			seb += wi.nsebs;
			seq += wi.nsends;
		}
		if (!ret && seb != mp->nsebs) {
			tg_errf(err, errlen, "PE %u: windows hold %" PRIu64
				" SEBs, want %" PRIu64, pe, seb, mp->nsebs);
			ret = 1;
		}
	}
	sibt_window_free(win);
	return ret;
}

/* FNV-1a over the content of every SEB of a trace as read back, so that
 * traces written with different window sizes can be compared. */
static inline void tg_fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= 0x100000001B3ull;
	}
}

static inline int tg_hash_trace(sibt_trace *t, uint64_t *hash)
{
	uint64_t h = 0xCBF29CE484222325ull;
	sibt_window *win = sibt_window_new();
	int rc = SIBT_OK;
	if (!win)
		return SIBT_ENOMEM;
	for (uint32_t pe = 0; pe < sibt_trace_npes(t); pe++) {
		uint64_t nw = sibt_trace_nwindows(t, pe);
		for (uint64_t w = 0; w < nw; w++) {
			if ((rc = sibt_trace_read_window(t, pe, w, win)))
				goto out;
			for (uint32_t i = 0; i < sibt_window_nsebs(win); i++) {
				const sibt_seb *s = sibt_window_seb(win, i);
				const uint64_t *pl;
				uint64_t tmp;
				uint32_t np = tg_preds(s, &pl, &tmp);
				tg_fnv(&h, &s->pe, sizeof s->pe);
				tg_fnv(&h, &s->index, sizeof s->index);
				tg_fnv(&h, s->name, strlen(s->name) + 1);
				tg_fnv(&h, &s->duration, sizeof s->duration);
				if (s->region)
					tg_fnv(&h, s->region,
					       strlen(s->region) + 1);
				tg_fnv(&h, &s->corrected, sizeof s->corrected);
				if (s->corrected)
					tg_fnv(&h, &s->raw_duration,
					       sizeof s->raw_duration);
				tg_fnv(&h, &np, sizeof np);
				tg_fnv(&h, pl, np * sizeof *pl);
				for (uint32_t j = 0; j < s->nwaits; j++) {
					tg_fnv(&h, &s->waits[j].src, 4);
					tg_fnv(&h, &s->waits[j].seq, 8);
				}
				for (uint32_t j = 0; j < s->nsends; j++) {
					tg_fnv(&h, &s->sends[j].dst, 4);
					tg_fnv(&h, &s->sends[j].tag, 4);
					tg_fnv(&h, &s->sends[j].size, 8);
					tg_fnv(&h, &s->sends[j].offset, 8);
				}
				for (uint32_t j = 0; j < s->nprints; j++) {
					tg_fnv(&h, &s->prints[j].offset, 8);
					tg_fnv(&h, &s->prints[j].len, 4);
					tg_fnv(&h, s->prints[j].text,
					       s->prints[j].len);
				}
				for (uint32_t j = 0; j < s->nmarkers; j++) {
					tg_fnv(&h, &s->markers[j].kind, 4);
					tg_fnv(&h, &s->markers[j].value, 8);
				}
			}
		}
	}
out:
	sibt_window_free(win);
	*hash = h;
	return rc;
}

#endif /* SIBYL_TGEN_H */
