/*
 * fuzz_manifest_replay.c -- run the MANIFEST fuzz target without
 * libFuzzer.
 *
 *   fuzz_manifest_replay FILE...                  run every input once
 *   fuzz_manifest_replay --mutate N SEED FILE...  then N deterministic
 *       random edits of them (bytes flipped, inserted or deleted; a
 *       newline, '=', '\', '#', NUL or blank inserted; lines repeated)
 *
 * Exit status 0 unless an input cannot be read; findings abort.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sibyl_trace.h"
#include "tgen_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One random edit of b (*n bytes, room for *n + 64). */
static void edit(tg_rng *r, uint8_t *b, size_t *n)
{
	static const char special[] = "\n=\\#\0 \t\r\x1b";
	size_t at = tg_below(r, *n + 1);

	switch (tg_below(r, 5)) {
	case 0:   /* flip a bit */
		if (*n)
			b[tg_below(r, *n)] ^= (uint8_t)(1u << tg_below(r, 8));
		break;
	case 1:   /* insert a character that matters to the syntax */
		memmove(b + at + 1, b + at, *n - at);
		b[at] = (uint8_t)special[tg_below(r, sizeof special - 1)];
		(*n)++;
		break;
	case 2: { /* delete up to 8 bytes */
		size_t k = 1 + tg_below(r, 8);
		if (at + k > *n)
			k = *n - at;
		memmove(b + at, b + at + k, *n - at - k);
		*n -= k;
		break;
	}
	case 3: { /* repeat up to 48 bytes from elsewhere */
		size_t from = tg_below(r, *n + 1), k = tg_below(r, 49);
		if (from + k > *n)
			k = *n - from;
		memmove(b + at + k, b + at, *n - at);
		memmove(b + at, b + (from < at ? from : from + k), k);
		*n += k;
		break;
	}
	default:  /* cut */
		*n = at;
		break;
	}
}

int main(int argc, char **argv)
{
	unsigned long mutations = 0;
	uint64_t seed = 0;
	int first = 1;
	uint8_t **in;
	size_t *len;

	if (argc >= 4 && !strcmp(argv[1], "--mutate")) {
		mutations = strtoul(argv[2], NULL, 10);
		seed = strtoull(argv[3], NULL, 10);
		first = 4;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: fuzz_manifest_replay [--mutate N SEED] "
			"FILE...\n");
		return 2;
	}
	in = tg_xcalloc((size_t)argc, sizeof *in);
	len = tg_xcalloc((size_t)argc, sizeof *len);
	for (int i = first; i < argc; i++) {
		if (!(in[i] = tg_read_file(argv[i], &len[i]))) {
			perror(argv[i]);
			return 2;
		}
		LLVMFuzzerTestOneInput(in[i], len[i]);
	}
	tg_rng r;
	tg_seed(&r, seed);
	for (unsigned long m = 0; m < mutations; m++) {
		int i = first + (int)tg_below(&r, (uint64_t)(argc - first));
		size_t n = len[i];
		uint8_t *b = tg_xmalloc(n + 64 * 8 + 1);
		memcpy(b, in[i], n);
		for (uint64_t k = 1 + tg_below(&r, 8); k > 0; k--)
			edit(&r, b, &n);
		LLVMFuzzerTestOneInput(b, n);
		free(b);
	}
	fprintf(stderr, "fuzz_manifest_replay: %d inputs, %lu mutations\n",
		argc - first, mutations);
	for (int i = first; i < argc; i++)
		free(in[i]);
	free(in);
	free(len);
	return 0;
}
