/*
 * sib_err.h -- the error messages of Sibyl's libraries (internal).
 *
 * A function that can fail takes a caller's buffer (char *err, size_t
 * errlen), writes one complete sentence into it -- what went wrong, where
 * (file, line, key) and what to do -- and returns -1:
 *
 *     if (!ok)
 *             return sib_errf(err, errlen, "%s:%u: ...", file, line);
 *
 * sib_errcat() appends to the sentence already there (a list of the
 * accepted values, say).  A NULL or empty buffer is ignored: the caller
 * wanted the status only.  Messages are cut, never overflowed, at errlen.
 */
#ifndef SIBYL_SIB_ERR_H
#define SIBYL_SIB_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int sib_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sib_errcat(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_ERR_H */
