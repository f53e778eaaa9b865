/*
 * fuzz_text_main.c -- run a text fuzz target (fuzz_text.h) without
 * libFuzzer.
 *
 *   fuzz_NAME_replay FILE|DIR...        run every input once
 *   fuzz_NAME_replay --generate DIR N SEED
 *       write N inputs into DIR: the target's seeds (seed-*), then
 *       mutated copies of them (mut-*)
 *   fuzz_NAME_replay --mutate DIR N SEED [SAVE]
 *       run N deterministic random mutations of the inputs in DIR; each
 *       is first written to SAVE (when given), so that a crash leaves
 *       its input behind
 *   fuzz_NAME_replay --dict FILE
 *       write the target's words as a libFuzzer dictionary
 *
 * The mutations know lines and words: lines deleted, repeated, swapped
 * or spliced in from another input; words replaced by the target's
 * words or by numbers at the edges of the integer types; bytes flipped;
 * NUL, CR and quote bytes; runs long enough to reach the line limits.
 * Exit status 0 unless something could not be done; crashes and
 * sanitizer reports end the process on their own.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_text.h"
#include "tgen_bytes.h"

typedef struct text {
	char *p;
	size_t n, cap;
} text;

typedef struct inputs {
	text *v;
	size_t n, cap;
} inputs;

static void text_reserve(text *t, size_t extra)
{
	if (t->n + extra + 1 > t->cap) {
		t->cap = 2 * (t->n + extra + 1);
		t->p = tg_xrealloc(t->p, t->cap);
	}
}

/* Replace t[at, at + del) by the len bytes at s. */
static void text_splice(text *t, size_t at, size_t del, const char *s,
			size_t len)
{
	text_reserve(t, len);
	memmove(t->p + at + len, t->p + at + del, t->n - at - del);
	memcpy(t->p + at, s, len);
	t->n = t->n - del + len;
}

static void inputs_add(inputs *in, const void *p, size_t n)
{
	text t = { NULL, 0, 0 };
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 64;
		in->v = tg_xrealloc(in->v, in->cap * sizeof *in->v);
	}
	text_splice(&t, 0, 0, p, n);
	in->v[in->n++] = t;
}

static void inputs_free(inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->v[i].p);
	free(in->v);
}

static int read_input(inputs *in, const char *path)
{
	size_t len;
	uint8_t *b = tg_read_file(path, &len);
	if (!b) {
		perror(path);
		return -1;
	}
	inputs_add(in, b, len);
	free(b);
	return 0;
}

/* The regular files of a directory, in name order, or the file itself. */
static int read_inputs(inputs *in, const char *path)
{
	struct dirent **ents;
	struct stat st;
	int n, rc = 0;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return read_input(in, path);
	if ((n = scandir(path, &ents, NULL, alphasort)) < 0) {
		perror(path);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char full[8448];
		snprintf(full, sizeof full, "%s/%s", path, ents[i]->d_name);
		if (!rc && ents[i]->d_name[0] != '.' && !stat(full, &st) &&
		    S_ISREG(st.st_mode))
			rc = read_input(in, full);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

/* ------------------------------------------------------------ mutations */

static size_t count_words(void)
{
	size_t n = 0;
	while (fuzz_words[n])
		n++;
	return n;
}

/* The start of the line holding t->p[at], and its end (past '\n'). */
static void line_at(const text *t, size_t at, size_t *b, size_t *e)
{
	*b = at;
	while (*b && t->p[*b - 1] != '\n')
		(*b)--;
	*e = at;
	while (*e < t->n && t->p[(*e)++] != '\n')
		;
}

/* A word of t around at: [*b, *e), possibly empty. */
static void word_at(const text *t, size_t at, size_t *b, size_t *e)
{
	static const char sep[] = " \t\n=:,;()[]\"#";
	*b = *e = at;
	while (*b && !strchr(sep, t->p[*b - 1]))
		(*b)--;
	while (*e < t->n && !strchr(sep, t->p[*e]))
		(*e)++;
}

static void mutate_once(tg_rng *r, text *t, const inputs *all)
{
	static const char *const numbers[] = {
		"0", "1", "-1", "2", "7", "64", "1023", "1024", "4096", "65535",
		"65536", "1048575", "1048576", "2147483647", "4294967295",
		"4294967296", "9223372036854775807", "9223372036854775808",
		"18446744073709551615", "18446744073709551616", "1e308",
		"0x10", "010", "1.5", ".5", "1e-30", "99999999999999999999999",
	};
	static const char bytes[] = { '\0', '\r', '\n', '\t', '"', '\\', '#',
				      ' ', '\xff', '\x80', '[', ']', '=' };
	size_t at = t->n ? tg_below(r, t->n + 1) : 0, b, e;
	size_t nw = count_words();

	switch (tg_below(r, 12)) {
	case 0:   /* delete a line */
		if (!t->n)
			break;
		line_at(t, at < t->n ? at : t->n - 1, &b, &e);
		text_splice(t, b, e - b, "", 0);
		break;
	case 1: { /* repeat a line, here or elsewhere */
		if (!t->n)
			break;
		line_at(t, at < t->n ? at : t->n - 1, &b, &e);
		size_t len = e - b, to;
		char *copy = tg_xmalloc(len + 1);
		memcpy(copy, t->p + b, len);
		if (tg_chance(r, 50))
			to = e;
		else
			line_at(t, tg_below(r, t->n + 1), &to, &e);
		text_splice(t, to, 0, copy, len);
		free(copy);
		break;
	}
	case 2:   /* a word becomes a word of the syntax */
	case 3:
		word_at(t, at, &b, &e);
		if (nw) {
			const char *w = fuzz_words[tg_below(r, nw)];
			text_splice(t, b, e - b, w, strlen(w));
		}
		break;
	case 4:   /* a word becomes a number */
	case 5: {
		const char *w = numbers[tg_below(r, sizeof numbers /
					       sizeof *numbers)];
		word_at(t, at, &b, &e);
		text_splice(t, b, e - b, w, strlen(w));
		break;
	}
	case 6:   /* a word of the syntax inserted */
		if (nw) {
			const char *w = fuzz_words[tg_below(r, nw)];
			text_splice(t, at, 0, w, strlen(w));
		}
		break;
	case 7:   /* a special byte */
		text_splice(t, at, tg_chance(r, 50) && at < t->n,
			    &bytes[tg_below(r, sizeof bytes)], 1);
		break;
	case 8:   /* a bit flip */
		if (at < t->n)
			t->p[at] ^= (char)(1u << tg_below(r, 8));
		break;
	case 9: { /* a long run, around the line limits */
		static const size_t lens[] = { 4095, 4096, 4097, 65535,
					       65536, 65537 };
		size_t n = tg_chance(r, 50) ? lens[tg_below(r, 6)] :
			   tg_below(r, 300);
		char *run = tg_xmalloc(n + 1);
		memset(run, tg_chance(r, 50) ? 'x' : '9', n);
		text_splice(t, at, 0, run, n);
		free(run);
		break;
	}
	case 10: { /* a line of another input */
		const text *o = &all->v[tg_below(r, all->n)];
		size_t ob, oe;
		if (!o->n)
			break;
		line_at(o, tg_below(r, o->n), &ob, &oe);
		line_at(t, at, &b, &e);
		text_splice(t, b, 0, o->p + ob, oe - ob);
		break;
	}
	default:  /* cut */
		t->n = at;
		break;
	}
}

static text mutate(tg_rng *r, const inputs *all)
{
	const text *src = &all->v[tg_below(r, all->n)];
	text t = { NULL, 0, 0 };
	text_splice(&t, 0, 0, src->p, src->n);
	for (uint64_t k = 1 + tg_below(r, 4); k > 0; k--)
		mutate_once(r, &t, all);
	return t;
}

/* ------------------------------------------------------------- commands */

static int seeds(inputs *in)
{
	for (size_t i = 0; fuzz_seeds[i]; i++)
		inputs_add(in, fuzz_seeds[i], strlen(fuzz_seeds[i]));
	if (!in->n)
		fprintf(stderr, "the target has no seeds\n");
	return in->n ? 0 : -1;
}

static int generate(const char *out, unsigned long n, uint64_t seed)
{
	char path[8448];
	inputs in = { NULL, 0, 0 };
	tg_rng r;

	if ((mkdir(out, 0777) && errno != EEXIST) || seeds(&in)) {
		perror(out);
		inputs_free(&in);
		return 1;
	}
	tg_seed(&r, seed);
	for (unsigned long i = 0; i < n; i++) {
		if (i < in.n) {
			snprintf(path, sizeof path, "%s/seed-%06lu", out, i);
			tg_write_file(path, in.v[i].p, in.v[i].n);
			continue;
		}
		text t = mutate(&r, &in);
		snprintf(path, sizeof path, "%s/mut-%06lu", out, i);
		tg_write_file(path, t.p ? t.p : "", t.n);
		free(t.p);
	}
	inputs_free(&in);
	return 0;
}

static int run_mutations(const char *dir, unsigned long n, uint64_t seed,
			 const char *save)
{
	inputs in = { NULL, 0, 0 };
	tg_rng r;

	if (read_inputs(&in, dir) || !in.n) {
		fprintf(stderr, "%s: no inputs\n", dir);
		inputs_free(&in);
		return 1;
	}
	tg_seed(&r, seed);
	for (unsigned long i = 0; i < n; i++) {
		text t = mutate(&r, &in);
		if (save)
			tg_write_file(save, t.p ? t.p : "", t.n);
		LLVMFuzzerTestOneInput((const uint8_t *)(t.p ? t.p : ""), t.n);
		free(t.p);
	}
	fprintf(stderr, "%lu mutations of %zu inputs\n", n, in.n);
	inputs_free(&in);
	return 0;
}

/* libFuzzer's dictionary syntax: "..." with \\, \" and \xNN escapes. */
static int write_dict(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	for (size_t i = 0; fuzz_words[i]; i++) {
		fputc('"', f);
		for (const unsigned char *p = (const unsigned char *)
		     fuzz_words[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				fprintf(f, "\\%c", *p);
			else if (*p < 0x20 || *p >= 0x7f)
				fprintf(f, "\\x%02x", *p);
			else
				fputc(*p, f);
		}
		fputs("\"\n", f);
	}
	return fclose(f) ? 1 : 0;
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s FILE|DIR...\n"
		"       %s --generate DIR N SEED\n"
		"       %s --mutate DIR N SEED [SAVE]\n"
		"       %s --dict FILE\n", prog, prog, prog, prog);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--generate")) {
		if (argc != 5)
			return usage(argv[0]);
		return generate(argv[2], strtoul(argv[3], NULL, 10),
				strtoull(argv[4], NULL, 10));
	}
	if (argc >= 2 && !strcmp(argv[1], "--mutate")) {
		if (argc != 5 && argc != 6)
			return usage(argv[0]);
		return run_mutations(argv[2], strtoul(argv[3], NULL, 10),
				     strtoull(argv[4], NULL, 10),
				     argc == 6 ? argv[5] : NULL);
	}
	if (argc == 3 && !strcmp(argv[1], "--dict"))
		return write_dict(argv[2]);
	if (argc < 2 || argv[1][0] == '-')
		return usage(argv[0]);

	inputs in = { NULL, 0, 0 };
	for (int i = 1; i < argc; i++)
		if (read_inputs(&in, argv[i])) {
			inputs_free(&in);
			return 1;
		}
	for (size_t i = 0; i < in.n; i++)
		LLVMFuzzerTestOneInput((const uint8_t *)in.v[i].p, in.v[i].n);
	fprintf(stderr, "%zu inputs\n", in.n);
	inputs_free(&in);
	return 0;
}
