/*
 * spec_walk.h -- an independent decoder of Sibyl data files, written from
 * FORMAT.md alone, for the round-trip tests.
 *
 * The library's reader and writer could agree with each other and still
 * both depart from the spec; test_roundtrip therefore checks every file it
 * writes with this walker too, which shares no code with the library.
 */
#ifndef SIBYL_SPEC_WALK_H
#define SIBYL_SPEC_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "tgen.h"

/* What the spec decoder saw over all files it accepted, so that the
 * matrix can insist that every rule was exercised. */
struct spec_stats {
	uint64_t files;
	uint64_t dict_files;        /* files with a DICT frame */
	uint64_t m1_before_dict;    /* method-1 windows before the DICT */
	uint64_t m2_windows;        /* windows decoded with the dictionary */
	uint64_t level0_big_files;  /* level 0, > 1024 raw bytes */
	uint64_t big_files;         /* level > 0, > 1024 raw bytes */
	uint64_t small_files;       /* level > 0, 1..1023 raw bytes */
};
extern struct spec_stats spec_stats;

/*
 * Check data file `proc' of a trace against FORMAT.md and the model:
 * header, frame CRCs, window sequence, payload records, string table,
 * preset dictionary, index and trailer.  0 when it conforms; else 1 with
 * err set.
 *
 * The dictionary rules: at most one DICT frame, before the first window
 * of method 2; Sibyl's writer fills it with the first 1024 raw window
 * bytes of the file, so a file with more than that at level > 0 has
 * exactly one, a file with less has none, and level 0 never has one (and
 * stores every window, method 0).  (That the writer then uses it, with
 * method-2 windows, is checked over the whole matrix: the format does not
 * require it of any one window.)
 */
int spec_check_file(const tg_model *m, const char *path, uint32_t proc,
		    uint32_t P, uint32_t window, int level, char *err,
		    size_t errlen);

#endif /* SIBYL_SPEC_WALK_H */
