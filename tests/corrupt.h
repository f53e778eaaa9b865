/*
 * corrupt.h -- what the units of test_corrupt share: a written trace and
 * what its intact index says (the fixture), and the checks of what the
 * reader recovers from a damaged copy of it.
 *
 * test_corrupt.c holds main() and the damage a file can take in storage:
 * truncation, bit flips, junk after the trailer, foreign headers, broken
 * manifests.  corrupt_frames.c holds the frames made wrong with their
 * checksums right: lies in window headers, hand-made payloads, the
 * structure of window headers, the preset dictionary.  corrupt_fixture.c
 * holds the fixture and the checks both use.
 */
#ifndef SIBYL_CORRUPT_H
#define SIBYL_CORRUPT_H

/* Every unit counts into the one pair of counters that main() reports. */
#ifndef SIBTEST_SHARED
#error "build the units of test_corrupt with -DSIBTEST_SHARED"
#endif

#include "sibtest.h"
#include "tgen_bytes.h"

#define CHECKF(c, ...) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL(__VA_ARGS__); } while (0)

extern char tmp[4096];      /* the test's scratch directory */
extern int quiet_failures;  /* failures beyond quiet_limit are counted only */
extern int quiet_limit;

/* Limit the output when a library bug makes every case fail. */
#define CHECKQ(c, ...) do { sibtest_checks++; if (!(c)) { \
	if (++quiet_failures <= quiet_limit) TEST_FAIL(__VA_ARGS__); \
	else sibtest_failures++; } } while (0)

/* A written trace and what its intact index says. */
typedef struct wininfo {
	uint32_t pe, file, nsebs;
	uint64_t window, off, end;
} wininfo;

typedef struct fixture {
	char dir[4200];
	tg_model *m;
	uint32_t P;
	uint8_t **orig;     /* intact data files */
	size_t *len;
	wininfo *wins;      /* every window, any order */
	size_t nwins;
} fixture;

/* corrupt_fixture.c.  A fixture: a random trace written under tmp/name,
 * read back intact, its files and windows kept; 0, or -1 when it could
 * not be made. */
int make_fixture(fixture *fx, const char *name, uint64_t seed,
		 const tg_params *prm, uint32_t P, uint32_t window, int level);
void free_fixture(fixture *fx);
/* Data file f written back intact. */
void restore(fixture *fx, uint32_t f);
/* The window of file f whose frame holds byte off; NULL: none. */
const wininfo *window_at(const fixture *fx, uint32_t f, uint64_t off);
int ends_with(const char *s, const char *suffix);
int contains_ci(const char *hay, const char *needle);
void set_manifest_text(const char *dir, const char *text);
size_t read_all(const fixture *fx, sibt_trace *t, const char *what,
		size_t *bad);
void check_dict_damage(const fixture *fx, uint32_t f, sibt_trace *t, int rc,
		       uint64_t lost_from, uint64_t valid, uint64_t file_bytes,
		       int want, const char *what);

/* corrupt_frames.c */
void test_lies(void);
void test_crafted(void);
void test_wind_headers(void);
void test_dict(void);

#endif /* SIBYL_CORRUPT_H */
