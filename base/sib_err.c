/*
 * sib_err.c -- the error messages of Sibyl's libraries (sib_err.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sib_err.h"

static void set(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

int sib_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set(err, errlen, fmt, ap);
	va_end(ap);
	return SIB_EFAIL;
}

int sib_errf_code(int code, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set(err, errlen, fmt, ap);
	va_end(ap);
	return code;
}

const char *sib_strerror(int code)
{
	switch (code) {
	case 0:
		return "success";
	case SIB_EFAIL:
		return "a problem of the input or of the system";
	case SIB_ECONFIG:
		return "a configuration that does not fit the input";
	default:
		return "an unknown error code";
	}
}

void sib_errcat(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	size_t n = strnlen(err, errlen);
	if (n + 1 >= errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
}
