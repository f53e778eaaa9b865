/*
 * fuzz_text.h -- what a fuzz target of a text reader (machine
 * descriptions, noise sets, mapping files) gives and gets.
 *
 * A target is one file tests/fuzz_NAME.c that defines
 *   LLVMFuzzerTestOneInput  runs one input (errors are expected; crashes,
 *                           hangs, leaks and sanitizer reports are the
 *                           findings; a broken invariant calls abort);
 *   fuzz_seeds              valid inputs, NULL-terminated: the seeds of
 *                           the generated corpus;
 *   fuzz_words              the tokens of its syntax, NULL-terminated:
 *                           the mutator inserts them, and they make the
 *                           libFuzzer dictionary.
 * It is built as a libFuzzer binary (make fuzz) and, linked with
 * fuzz_text_main.c, as tests/fuzz_NAME_replay, which generates, mutates
 * and replays corpora (tests/fuzz_text.sh runs both).
 *
 * The helpers below give a target a private scratch directory for the
 * files it reads, removed at exit.
 */
#ifndef SIBYL_FUZZ_TEXT_H
#define SIBYL_FUZZ_TEXT_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern const char *const fuzz_seeds[];
extern const char *const fuzz_words[];

static char fz_dir[4096];

/* Remove what directory dir holds, and dir itself when rm_dir. */
static inline void fz_clear(const char *dir, int rm_dir)
{
	char path[8448];
	struct dirent *de;
	DIR *d = opendir(dir);
	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
			    snprintf(path, sizeof path, "%s/%s", dir,
				     de->d_name) < (int)sizeof path &&
			    unlink(path))
				fz_clear(path, 1);
		closedir(d);
	}
	if (rm_dir)
		rmdir(dir);
}

static inline void fz_cleanup(void)
{
	if (fz_dir[0])
		fz_clear(fz_dir, 1);
}

/* The scratch directory, made on first use (in $TMPDIR or /tmp). */
static inline const char *fz_scratch(void)
{
	const char *base = getenv("TMPDIR");
	if (fz_dir[0])
		return fz_dir;
	snprintf(fz_dir, sizeof fz_dir, "%s/sibyl-fuzz-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(fz_dir)) {
		perror(fz_dir);
		abort();
	}
	atexit(fz_cleanup);
	return fz_dir;
}

/* Write len bytes into `name' (a path relative to the scratch directory)
 * and return its full path (valid until the next call). */
static inline const char *fz_put(const char *name, const void *data, size_t len)
{
	static char path[8448];
	snprintf(path, sizeof path, "%s/%s", fz_scratch(), name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(path);
		abort();
	}
	return path;
}

#endif /* SIBYL_FUZZ_TEXT_H */
