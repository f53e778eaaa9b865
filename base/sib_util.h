/*
 * sib_util.h -- small helpers every part of Sibyl shares (internal): the
 * UTF-8 check of names written into JSON and listings, the monotonic
 * clock of progress lines and summaries, and the peak memory a summary
 * reports.
 */
#ifndef SIBYL_SIB_UTIL_H
#define SIBYL_SIB_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The length of the well-formed UTF-8 sequence that starts at s (n bytes
 * left, n >= 1): 1 for ASCII, 2-4 for a sequence, 0 when the bytes are
 * not UTF-8 (a stray continuation byte, a cut sequence, an overlong
 * form, a surrogate, a code point past U+10FFFF).
 */
size_t sib_utf8_len(const void *s, size_t n);

/* Seconds on the monotonic clock, for intervals. */
double sib_now_seconds(void);

/* This process's peak resident set size in bytes (getrusage), 0 if
 * unknown. */
uint64_t sib_peak_rss(void);

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_UTIL_H */
