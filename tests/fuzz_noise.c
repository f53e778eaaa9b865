/*
 * fuzz_noise.c -- fuzz target for the noise-set reader (noise/noiseset.c)
 * and the injector built from a set.
 *
 * The input is a noise set: lines "== NAME" start file NAME of the set
 * (NAME of letters, digits, '.', '_' and '-'; at most 16 files); lines
 * before the first such line make the file core0.  The files stay in
 * memory and load through noise_set_load_files, the same name checks,
 * line reader and parser as a directory's (whose walk and stat checks
 * tests/hostile_noise.sh covers), at thousands of inputs a second
 * rather than the hundreds that writing files allowed.  A set that
 * loads is described (noise_set_core_stats of its cores) and
 * instantiated, and a few fixed points are computed on it.  Invariants checked (abort when
 * broken): an extended work ends no earlier than it would without
 * noise, and amounts are never negative.  Sets that name a core above
 * FZ_MAX_CORE are skipped: a core number costs memory for every core
 * below it (tens of megabytes near the limit, 1048575, which
 * tests/hostile_noise.sh covers), and would slow the fuzzer down
 * without reaching other code.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "fuzz_text.h"

const char *const fuzz_seeds[] = {
	"",
	"# patterns\n10ms 20us 0\n1ms 5us 300us\n",
	"unit us\n10000 20 0\n",
	"length 1s\n0.5ms 10us\n2ms 20us\n700ms 1ms\n",
	"== core0\nunit ns\nlength 1000000\n100 50\n400 50\n"
	"== core2\n1ms 1us 0\n== README\nnotes\n",
	"== cores\n# core start duration\n0 1ms 10us\n0 5ms 10us\n"
	"3 2ms 1us\n",
	"== cores\n0 1ms 10us 0\n1 2ms 3us 1us\n",
	"== core1\nunit s\n1 0.001 0.5\n",
	"== notes.md\n# text\n== core0\n",
	NULL
};

const char *const fuzz_words[] = {
	"== ", "== core0\n", "== core1\n", "== cores\n", "== README\n",
	"== core01\n", "== x.md\n", "unit ", "length ", "ps", "ns", "us",
	"ms", "s", "#", " ", "\t", "\n", "\r\n", "0.5", "1048575",
	"1048576",
	NULL
};

#define FZ_MAX_FILES 16
#define FZ_MAX_CORE 4095

/* Does the line at s (n bytes) start with a number above FZ_MAX_CORE,
 * or is the file name s "core" and such a number? */
static int high_core(const char *s, size_t n, int name)
{
	unsigned long v = 0;
	size_t i = 0;
	if (name) {
		if (n < 5 || memcmp(s, "core", 4))
			return 0;
		i = 4;
	}
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		if ((v = v * 10 + (unsigned long)(s[i] - '0')) > FZ_MAX_CORE)
			return 1;
	return 0;
}

static void fz_fail(const char *what)
{
	fprintf(stderr, "fuzz_noise: %s\n", what);
	abort();
}

static int good_name(const char *s, size_t n)
{
	if (n == 0 || n > 40 || (s[0] == '.' && (n == 1 || (n == 2 &&
						  s[1] == '.'))))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", s[i]) || !s[i])
			return 0;
	return 1;
}

/* Split the input into the files of a set (at most FZ_MAX_FILES, a
 * name given twice keeps its last file, as a directory would): their
 * number, or -1 (nothing to load) when it names a core above
 * FZ_MAX_CORE.  names holds the names. */
static int split_set(const uint8_t *data, size_t size, noise_file *files,
		     char names[][48])
{
	const char *cur = "core0";    /* NULL: a file not kept */
	char name[48];
	size_t start = 0, end;
	int named = 0, nfiles = 0;

	for (size_t i = 0;; i = end) {
		const uint8_t *nl = i < size ? memchr(data + i, '\n', size - i)
				       : NULL;
		end = nl ? (size_t)(nl - data) + 1 : size;
		int header = i < size && end - i >= 3 &&
			     !memcmp(data + i, "== ", 3);
		if (header && high_core((const char *)data + i + 3,
					end - i - 3, 1))
			return -1;
		if (!header && i < size) {
			if (cur && !strcmp(cur, "cores") &&
			    high_core((const char *)data + i, end - i, 0))
				return -1;
			continue;
		}
		if (cur && (named || i > start)) {
			int k = 0;
			while (k < nfiles && strcmp(names[k], cur))
				k++;
			if (k < FZ_MAX_FILES) {
				if (k == nfiles)
					nfiles++;
				snprintf(names[k], 48, "%s", cur);
				files[k].name = names[k];
				files[k].data = data + start;
				files[k].size = i - start;
			}
		}
		if (i >= size)
			break;
		size_t n = end - i - 3 - (nl != NULL);
		cur = NULL;
		if (good_name((const char *)data + i + 3, n)) {
			snprintf(name, sizeof name, "%.*s", (int)n,
				 (const char *)data + i + 3);
			cur = name;
		}
		named = 1;
		start = end;
	}
	return nfiles;
}

static void exercise(const noise_set *s, uint64_t seed)
{
	char err[4096];
	noise_inj *in;
	noise_core_stats st;
	uint32_t n = noise_set_ncores(s);
	for (uint32_t c = 0; c < n && c < 64; c++)
		noise_set_core_stats(s, c, &st);
	noise_params p = { .seed = seed, .scale_num = 1, .scale_den = 1 + seed % 3,
			   .cosched = (int)(seed & 1) };
	if (noise_inj_new(&in, s, &p, err, sizeof err))
		return;
	static const sib_ps starts[] = { 0, 1, 999999, 123456789 };
	static const sib_ps durs[] = { 0, 1000, 1000000, 1000000000 };
	for (uint32_t c = 0; c < n + 1 && c < 8; c++)
		for (int i = 0; i < 4; i++) {
			noise_cursor cur;
			noise_cursor_init(in, 3, c, starts[i], &cur);
			for (int j = 0; j < 4; j++) {
				sib_ps end;
				if (noise_amount(in, 3, c, starts[i],
						 starts[i] + durs[j]) < 0)
					fz_fail("a negative amount");
				if (!noise_cursor_at(&cur, durs[j], &end, err,
						     sizeof err) &&
				    end < starts[i] + durs[j])
					fz_fail("work ends before its time");
			}
		}
	noise_inj_free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[4096], names[FZ_MAX_FILES][48];
	noise_file files[FZ_MAX_FILES];
	noise_set *s;
	int n = split_set(data, size, files, names);

	if (n < 0)
		return 0;
	if (noise_set_load_files(&s, "set", files, (size_t)n, err,
				 sizeof err) == 0) {
		exercise(s, size);
		noise_set_free(s);
	} else if (s) {
		fz_fail("a failed load left a set");
	}
	return 0;
}
