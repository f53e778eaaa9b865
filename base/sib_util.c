/*
 * sib_util.c -- small shared helpers (sib_util.h).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <sys/resource.h>
#include <time.h>

#include "sib_util.h"

size_t sib_utf8_len(const void *str, size_t n)
{
	const unsigned char *s = str;
	unsigned c = s[0];
	size_t len;
	uint32_t cp, min;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	if (c < 0xe0) {
		len = 2;
		cp = c & 0x1f;
		min = 0x80;
	} else if (c < 0xf0) {
		len = 3;
		cp = c & 0x0f;
		min = 0x800;
	} else {
		len = 4;
		cp = c & 0x07;
		min = 0x10000;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

double sib_now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t sib_peak_rss(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_maxrss * 1024;   /* Linux reports KiB */
}
