/*
 * fuzz_replay_main.c -- run the reader fuzz target without libFuzzer.
 *
 *   fuzz_reader_replay FILE|DIR...         run every input once
 *   fuzz_reader_replay --generate DIR N SEED
 *       write N seed inputs into DIR: valid small data files written by
 *       the library, and mutated copies of them (bit flips, cuts, inserted
 *       and deleted bytes, header fields, WIND header varints re-encoded
 *       with the index kept, frames swapped or repeated, and payload
 *       edits with every CRC fixed so they reach the decoders)
 *   fuzz_reader_replay --mutate DIR N SEED [SAVE]
 *       run N deterministic random mutations of the inputs in DIR; each
 *       input is first written to SAVE (when given), so that a crash
 *       leaves its input behind
 *
 * Exit status 0 unless something could not be done; crashes and sanitizer
 * reports end the process on their own.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sibyl_trace.h"
#include "tgen_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
	uint8_t *p;
	size_t n;
} input;

typedef struct corpus {
	input *v;
	size_t n, cap;
} corpus;

static void corpus_add(corpus *c, uint8_t *p, size_t n)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->v = tg_xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n].p = p;
	c->v[c->n++].n = n;
}

static void corpus_free(corpus *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].p);
	free(c->v);
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Every regular file of a directory (sorted) or the file itself. */
static int load(corpus *c, const char *path)
{
	if (is_dir(path)) {
		struct dirent **ents;
		int n = scandir(path, &ents, NULL, alphasort);
		if (n < 0) {
			perror(path);
			return -1;
		}
		for (int i = 0; i < n; i++) {
			char full[8448];
			snprintf(full, sizeof full, "%s/%s", path,
				 ents[i]->d_name);
			if (ents[i]->d_name[0] != '.' && !is_dir(full)) {
				size_t len;
				uint8_t *b = tg_read_file(full, &len);
				if (b)
					corpus_add(c, b, len);
			}
			free(ents[i]);
		}
		free(ents);
		return 0;
	}
	size_t len;
	uint8_t *b = tg_read_file(path, &len);
	if (!b) {
		perror(path);
		return -1;
	}
	corpus_add(c, b, len);
	return 0;
}

/* ------------------------------------------------------------ mutations */

static uint8_t *grow_copy(const uint8_t *p, size_t n, size_t extra)
{
	uint8_t *q = tg_xmalloc(n + extra + 1);
	memcpy(q, p, n);
	return q;
}

/*
 * One varint field of the WIND header of frame f gets another value; the
 * header is re-encoded (minimal, padded to its old or a longer length, or
 * now and then with its varints not ending at H-8), with both CRCs right,
 * and spliced in with the file's index kept (tg_splice), so that the
 * header reaches parse_win_header through the index as well as through
 * the scan.  May reallocate buf.
 */
static uint8_t *mutate_wind_field(tg_rng *r, uint8_t *buf, size_t *n,
				  const tg_frame *f)
{
	static const uint64_t vals[] = {
		0, 1, 2, 3, 4, 7, 64, 127, 128, 0x7fffffff, 0xffffffffu,
		1ull << 32, TG_MAX_RAW, TG_MAX_RAW + 1ull, UINT64_MAX
	};
	uint8_t h[TG_WIN_BUILD_MAX];
	tg_wind w;
	if (tg_wind_parse(buf + f->off, *n - f->off, &w))
		return buf;
	unsigned k = (unsigned)tg_below(r, TG_W_NFIELDS);
	w.f[k] = tg_chance(r, 50) ? vals[tg_below(r, sizeof vals / sizeof *vals)]
				  : w.f[k] + tg_below(r, 5) - 2;
	size_t pad = tg_chance(r, 50) ? w.hlen :
		     tg_chance(r, 50) ? 0 : w.hlen + tg_below(r, 48);
	int gap = tg_chance(r, 10) ? (int)tg_below(r, 5) - 2 : 0;
	size_t hl = tg_wind_build(h, w.f, w.pcrc, pad, gap);
	if (!hl)
		hl = tg_wind_build(h, w.f, w.pcrc, 0, gap);
	if (hl)
		tg_splice(&buf, n, f->off, f->hdr, h, hl);
	return buf;
}

/* One random edit of buf (*n bytes); may reallocate. */
static uint8_t *mutate_once(tg_rng *r, uint8_t *buf, size_t *n)
{
	size_t len = *n;
	tg_frame fr[512];
	size_t nfr = len >= TG_HDR ? tg_frames(buf, len, fr, 512, NULL) : 0;

	switch (tg_below(r, 12)) {
	case 0:   /* bit flip */
		if (len)
			buf[tg_below(r, len)] ^= (uint8_t)(1u << tg_below(r, 8));
		break;
	case 1:   /* cut */
		*n = tg_below(r, len + 1);
		break;
	case 2:   /* interesting byte */
		if (len) {
			static const uint8_t v[] = { 0, 1, 0x7f, 0x80, 0xff };
			buf[tg_below(r, len)] = v[tg_below(r, sizeof v)];
		}
		break;
	case 3: { /* insert bytes */
		size_t at = tg_below(r, len + 1), k = 1 + tg_below(r, 16);
		uint8_t *q = grow_copy(buf, len, k);
		memmove(q + at + k, q + at, len - at);
		for (size_t i = 0; i < k; i++)
			q[at + i] = (uint8_t)tg_next(r);
		free(buf);
		buf = q;
		*n = len + k;
		break;
	}
	case 4: { /* delete bytes */
		if (!len)
			break;
		size_t at = tg_below(r, len), k = 1 + tg_below(r, 16);
		if (k > len - at)
			k = len - at;
		memmove(buf + at, buf + at + k, len - at - k);
		*n = len - k;
		break;
	}
	case 5:   /* a 32-bit header field, CRC fixed */
	case 6: { /* a field of a frame header, CRCs fixed */
		static const uint32_t vals[] = { 0, 1, 2, 7, 64, 0x7fffffff,
						 0x80000000u, 0xffffffffu };
		size_t at;
		if (len < TG_HDR)
			break;
		if (nfr && tg_chance(r, 50)) {
			const tg_frame *f = &fr[tg_below(r, nfr)];
			if (!strcmp(f->tag, "WIND") && tg_chance(r, 60)) {
				buf = mutate_wind_field(r, buf, n, f);
				break;
			}
			at = f->off + 4 + 4 * tg_below(r, (f->hdr - 8) / 4);
		} else {
			at = 16 + 4 * tg_below(r, 6);
		}
		if (at + 4 <= len)
			tg_put32(buf + at, tg_chance(r, 50) ?
				 vals[tg_below(r, 8)] :
				 tg_le32(buf + at) + (uint32_t)tg_below(r, 5) - 2);
		tg_fix_crcs(buf, len);
		break;
	}
	case 7:   /* payload bytes, CRCs fixed: reaches the decoders */
	case 8: {
		if (!nfr)
			break;
		const tg_frame *f = &fr[tg_below(r, nfr)];
		if (f->len <= f->hdr)
			break;
		size_t k = 1 + tg_below(r, 4);
		for (size_t i = 0; i < k; i++) {
			size_t at = f->off + f->hdr + tg_below(r, f->len - f->hdr);
			buf[at] = tg_chance(r, 50) ? (uint8_t)tg_next(r)
						   : buf[at] ^ 0x80;
		}
		tg_fix_crcs(buf, len);
		break;
	}
	case 9: { /* repeat a frame */
		if (!nfr)
			break;
		const tg_frame *f = &fr[tg_below(r, nfr)];
		size_t at = fr[tg_below(r, nfr)].off;
		uint8_t *q = grow_copy(buf, len, f->len);
		memmove(q + at + f->len, q + at, len - at);
		memcpy(q + at, buf + f->off, f->len);
		free(buf);
		buf = q;
		*n = len + f->len;
		break;
	}
	case 10: { /* swap two adjacent frames */
		if (nfr < 2)
			break;
		size_t i = tg_below(r, nfr - 1);
		uint64_t a = fr[i].off, la = fr[i].len, lb = fr[i + 1].len;
		uint8_t *t = tg_xmalloc(la);
		memcpy(t, buf + a, la);
		memmove(buf + a, buf + a + la, lb);
		memcpy(buf + a + lb, t, la);
		free(t);
		break;
	}
	default: { /* drop a frame */
		if (!nfr)
			break;
		const tg_frame *f = &fr[tg_below(r, nfr)];
		memmove(buf + f->off, buf + f->off + f->len,
			len - f->off - f->len);
		*n = len - f->len;
		break;
	}
	}
	return buf;
}

static uint8_t *mutate(tg_rng *r, const input *in, size_t *n)
{
	uint8_t *b = grow_copy(in->p, in->n, 0);
	*n = in->n;
	for (uint64_t k = 1 + tg_below(r, 3); k > 0; k--)
		b = mutate_once(r, b, n);
	return b;
}

/* ------------------------------------------------------------- commands */

static int generate(const char *out, unsigned long n, uint64_t seed)
{
	char scratch[4200], path[8448], err[1024];
	const char *base = getenv("TMPDIR");
	corpus valid = { 0 };
	tg_rng r;

	if (mkdir(out, 0777) && errno != EEXIST) {
		perror(out);
		return 1;
	}
	snprintf(scratch, sizeof scratch, "%s/sibyl-fuzzgen-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(scratch)) {
		perror(scratch);
		return 1;
	}
	tg_seed(&r, seed);
	for (unsigned long i = 0; i < n; i++) {
		if (i < (n + 2) / 3 || valid.n == 0) {
			tg_params prm = { 0 };
			tg_wopts o;
			char trace[4300];
			prm.npes = 1 + (uint32_t)tg_below(&r, 4);
			/* a quarter big enough for a DICT frame and
			 * method-2 windows (at level 6) */
			prm.rounds = tg_chance(&r, 25) ?
				     30 + (uint32_t)tg_below(&r, 50) :
				     1 + (uint32_t)tg_below(&r, 6);
			prm.max_per_round = 1 + (uint32_t)tg_below(&r, 2);
			prm.simple = tg_chance(&r, 50);
			tg_model *m = tg_generate(seed * 1000 + i, &prm);
			tg_wopts_init(&o);
			o.nprocs = prm.npes > 1 && tg_chance(&r, 25) ? 2 : 1;
			o.window = 1 + (uint32_t)tg_below(&r, 8);
			o.level = tg_chance(&r, 50) ? 0 : 6;
			o.seed = i;
			o.overwrite = 1;
			if (tg_chance(&r, 15)) {   /* an unfinished file */
				o.abort_proc = 0;
				o.abort_after = m->nsebs / 2;
			}
			snprintf(trace, sizeof trace, "%s/t", scratch);
			if (tg_write(m, trace, &o, err, sizeof err)) {
				fprintf(stderr, "generate: %s\n", err);
				tg_free_model(m);
				return 1;
			}
			uint32_t f = (uint32_t)tg_below(&r, o.nprocs);
			size_t len;
			uint8_t *b = tg_read_file(tg_datafile(trace, f), &len);
			tg_free_model(m);
			if (!b) {
				perror("generate");
				return 1;
			}
			snprintf(path, sizeof path, "%s/valid-%06lu", out, i);
			tg_write_file(path, b, len);
			corpus_add(&valid, b, len);
		} else {
			size_t len;
			const input *src = &valid.v[tg_below(&r, valid.n)];
			uint8_t *b = mutate(&r, src, &len);
			snprintf(path, sizeof path, "%s/mut-%06lu", out, i);
			tg_write_file(path, b, len);
			free(b);
		}
	}
	corpus_free(&valid);
	{
		char cmd[8448];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
		if (system(cmd))
			return 1;
	}
	return 0;
}

static int run_mutations(const char *dir, unsigned long n, uint64_t seed,
			 const char *save)
{
	corpus c = { 0 };
	tg_rng r;
	if (load(&c, dir) || c.n == 0) {
		fprintf(stderr, "%s: no inputs\n", dir);
		corpus_free(&c);
		return 1;
	}
	tg_seed(&r, seed);
	for (unsigned long i = 0; i < n; i++) {
		size_t len;
		uint8_t *b = mutate(&r, &c.v[tg_below(&r, c.n)], &len);
		if (save)
			tg_write_file(save, b, len);
		LLVMFuzzerTestOneInput(b, len);
		free(b);
	}
	fprintf(stderr, "fuzz_reader_replay: %lu mutations of %zu inputs\n",
		n, c.n);
	corpus_free(&c);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: fuzz_reader_replay FILE|DIR...\n"
		"       fuzz_reader_replay --generate DIR N SEED\n"
		"       fuzz_reader_replay --mutate DIR N SEED [SAVE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--generate")) {
		if (argc != 5)
			return usage();
		return generate(argv[2], strtoul(argv[3], NULL, 10),
				strtoull(argv[4], NULL, 10));
	}
	if (argc >= 2 && !strcmp(argv[1], "--mutate")) {
		if (argc != 5 && argc != 6)
			return usage();
		return run_mutations(argv[2], strtoul(argv[3], NULL, 10),
				     strtoull(argv[4], NULL, 10),
				     argc == 6 ? argv[5] : NULL);
	}
	if (argc < 2 || argv[1][0] == '-')
		return usage();

	corpus c = { 0 };
	for (int i = 1; i < argc; i++)
		if (load(&c, argv[i])) {
			corpus_free(&c);
			return 1;
		}
	for (size_t i = 0; i < c.n; i++)
		LLVMFuzzerTestOneInput(c.v[i].p, c.v[i].n);
	fprintf(stderr, "fuzz_reader_replay: %zu inputs\n", c.n);
	corpus_free(&c);
	return 0;
}
