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
 *
 * The code says what kind of failure it was, for the caller to act on
 * (the driver turns it into its exit status); the message says what
 * exactly.  -1 (SIB_EFAIL, what sib_errf returns) is the general case;
 * sib_errf_code() returns another code with its message:
 *
 *     return sib_errf_code(SIB_ECONFIG, err, errlen, "...");
 */
#ifndef SIBYL_SIB_ERR_H
#define SIBYL_SIB_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The codes of a failure (0 is success; SIB_OK of sib_units.h). */
enum sib_status {
	/* A problem of the input or of the system (a damaged file, a trace
	 * that does not close, a write error): the message says which. */
	SIB_EFAIL = -1,
	/* What the caller asked for does not fit the input: a machine
	 * description with too few cores for the trace, a bad mapping file,
	 * a model parameter out of range, a bound set too low.  A usage
	 * problem, fixed by changing the request rather than the input. */
	SIB_ECONFIG = -2
};

/* A short name of a code ("input or system problem", ...). */
const char *sib_strerror(int code);

int sib_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* sib_errf, returning code. */
int sib_errf_code(int code, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void sib_errcat(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_SIB_ERR_H */
