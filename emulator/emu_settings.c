/*
 * emu_settings.c -- the runtime reads its SIBYL_* settings (emu_settings.h)
 * once, at start, and only here.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_settings.h"

/* Parse s as setting d into v.  Returns 0, or -1 with a message. */
static int parse(const struct emu_setting *d, const char *s,
		 struct emu_setval *v, char *err, size_t errlen)
{
	char *end;
	v->text = s;
	switch (d->type) {
	case EMU_SET_UINT: {
		errno = 0;
		unsigned long long x = strtoull(s, &end, 10);
		if (errno || end == s || *end || *s == '-' || (double)x < d->lo ||
		    (double)x > d->hi) {
			snprintf(err, errlen, "%s=%s is not a whole number in "
				 "%.0f..%.0f", d->name, s, d->lo, d->hi);
			return -1;
		}
		v->u = x;
		return 0;
	}
	case EMU_SET_REAL:
	case EMU_SET_RATE: {
		double x = strtod(s, &end);
		int low = d->type == EMU_SET_RATE ? !(x > 0) : !(x >= d->lo);
		if (end == s || *end || !isfinite(x) || low || x > d->hi) {
			snprintf(err, errlen, "%s=%s is not a %s number", d->name,
				 s, d->type == EMU_SET_RATE ? "positive" :
				 d->lo == 0 ? "non-negative" : "valid");
			return -1;
		}
		v->d = x;
		return 0;
	}
	case EMU_SET_CHOICE: {
		if (!emu_setting_allows(d, s)) {
			/* "a|b|c" read as "a, b or c". */
			char words[160], *o = words;
			const char *last = strrchr(d->value, '|');
			for (const char *p = d->value;
			     *p && o < words + sizeof words - 5; p++) {
				if (*p != '|') {
					*o++ = *p;
				} else if (p == last) {
					memcpy(o, " or ", 4);
					o += 4;
				} else {
					memcpy(o, ", ", 2);
					o += 2;
				}
			}
			*o = 0;
			snprintf(err, errlen, "%s=%s: the value is %s", d->name,
				 s, words);
			return -1;
		}
		return 0;
	}
	case EMU_SET_FLAG:
		v->on = 1;
		return 0;
	case EMU_SET_TEXT:
		return 0;
	}
	return 0;
}

int emu_settings_read(struct emu_setval *v, char *err, size_t errlen)
{
	for (int i = 0; i < EMU_S_COUNT; i++) {
		const struct emu_setting *d = emu_setting((enum emu_set_id)i);
		const char *s = getenv(d->name);
		memset(&v[i], 0, sizeof v[i]);
		if (s && *s) {
			v[i].given = 1;
			if (parse(d, s, &v[i], err, errlen))
				return -1;
		} else if (d->def && parse(d, d->def, &v[i], err, errlen)) {
			return -1;      /* a default of the table that fails */
		}
	}
	return 0;
}
