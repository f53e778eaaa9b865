/*
 * pieces.c -- piecewise point-to-point costs by message size
 * (netmodel.h, netm_pieces): MPI switches protocol with the size of a
 * message (short, eager, rendezvous), and each protocol has its own
 * latency, bandwidth and overheads, so the time of a message is linear
 * in its size only piece by piece (Cornebize et al., the HPL study,
 * section VI.B; SMPI's calibration).
 *
 * The text of a table is a list of ranges separated by ';', each the
 * smallest size it applies to, a colon and KEY=VALUE pairs:
 *
 *   0: latency=0.9us os=0.2us or=0.3us; 1KiB: os=0.25us os_per_byte=0.1ns;
 *   64KiB: latency=4us bandwidth=9GB/s sync=rendezvous
 *
 * os_per_byte is the send overhead's part per byte (LogGOPS's O): posting
 * an eager send copies the data into the transport, so the sender pays
 * os + size * os_per_byte.
 *
 * A range applies from its size up to the next range's.  The first must
 * start at 0 and the sizes must increase.  A key a range does not give
 * keeps the value of the model's own parameter (netm_piece defaults);
 * sync is eager unless a range says rendezvous.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netmodel.h"
#include "sib_text.h"

/* The keys of one range, parsed by base's value parser. */
#define PIECE_KEYS(X) \
	X(K_LATENCY, "latency", SIB_P_TIME, "0", NULL, \
	  "Latency of the range's messages.") \
	X(K_BANDWIDTH, "bandwidth", SIB_P_BW, "1B/s", NULL, \
	  "Bandwidth of the range's messages.") \
	X(K_OS, "os", SIB_P_TIME, "0", NULL, \
	  "Send overhead of the range's messages.") \
	X(K_OS_BYTE, "os_per_byte", SIB_P_TIME, "0", NULL, \
	  "Send overhead's part per byte of the range's messages: the " \
	  "sender pays os + size * os_per_byte.") \
	X(K_OR, "or", SIB_P_TIME, "0", NULL, \
	  "Receive overhead of the range's messages.") \
	X(K_SYNC, "sync", SIB_P_ENUM, "eager", "eager|rendezvous", \
	  "Synchronization: eager (the data leaves at once) or rendezvous " \
	  "(it leaves once the receive is posted).")

enum { PIECE_KEYS(SIB_PARAM_ID) K_COUNT };

static const sib_param piece_keys[] = {
	PIECE_KEYS(SIB_PARAM_ENTRY)
	SIB_PARAM_END
};

static const sib_param size_param = {
	"size", SIB_P_SIZE, "0", NULL, "Smallest size of the range."
};

/* At most this many ranges: a calibration finds a handful. */
#define PIECES_MAX 64
/* Longest piece of text read as one value. */
#define VALUE_MAX 128

static int find_key(const char *s, size_t len)
{
	for (int k = 0; k < K_COUNT; k++)
		if (strlen(piece_keys[k].key) == len &&
		    !strncmp(piece_keys[k].key, s, len))
			return k;
	return -1;
}

/* s[0..len) without the blanks around it, into buf (NUL-terminated). */
static int copy_trimmed(char *buf, const char *s, size_t len)
{
	while (len && sib_is_space(*s)) {
		s++;
		len--;
	}
	while (len && sib_is_space(s[len - 1]))
		len--;
	if (len >= VALUE_MAX)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

/* Whether the word at s (up to a blank, a comma or end) holds '='. */
static int word_has_eq(const char *s, const char *end)
{
	for (; s < end && !sib_is_space(*s) && *s != ','; s++)
		if (*s == '=')
			return 1;
	return 0;
}

/* One KEY=VALUE of range r into p. */
static int parse_pair(const char *key, unsigned r, const char *s,
		      size_t len, netm_piece *p, char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', len);
	char name[VALUE_MAX + 64], text[VALUE_MAX];
	sib_value v;
	int k;

	if (!eq)
		return sib_errf(err, errlen, "%s: range %u: '%.*s' is not "
				"KEY=VALUE (keys: latency, bandwidth, os, "
				"os_per_byte, or, sync)", key, r + 1,
				(int)len, s);
	if (copy_trimmed(text, s, (size_t)(eq - s)) ||
	    (k = find_key(text, strlen(text))) < 0)
		return sib_errf(err, errlen, "%s: range %u: unknown key '%.*s' "
				"(keys: latency, bandwidth, os, os_per_byte, "
				"or, sync)", key, r + 1, (int)(eq - s), s);
	snprintf(name, sizeof name, "%s: range %u: %s", key, r + 1,
		 piece_keys[k].key);
	if (copy_trimmed(text, eq + 1, len - (size_t)(eq + 1 - s)))
		return sib_errf(err, errlen, "%s: the value is too long", name);
	if (sib_parse_value(&piece_keys[k], name, text, &v, err, errlen))
		return -1;
	switch (k) {
	case K_LATENCY: p->latency = v.i; break;
	case K_BANDWIDTH: p->bandwidth = v.i; break;
	case K_OS: p->os = v.i; break;
	case K_OS_BYTE: p->os_per_byte = v.i; break;
	case K_OR: p->or = v.i; break;
	default: p->rendezvous = (uint8_t)v.i; break;
	}
	return 0;
}

/* Range r, "SIZE: KEY=VALUE ...", into p. */
static int parse_range(const char *key, unsigned r, const char *s,
		       size_t len, netm_piece *p, char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', len), *end = s + len, *t;
	char name[64], text[VALUE_MAX];
	sib_value v;

	if (!colon)
		return sib_errf(err, errlen, "%s: range %u: '%.*s' has no "
				"'SIZE:' before its keys, e.g. '64KiB: "
				"latency=4us'", key, r + 1, (int)len, s);
	snprintf(name, sizeof name, "%s: range %u", key, r + 1);
	if (copy_trimmed(text, s, (size_t)(colon - s)))
		return sib_errf(err, errlen, "%s: the size is too long", name);
	if (sib_parse_value(&size_param, name, text, &v, err, errlen))
		return -1;
	p->from = (uint64_t)v.i;
	/* A pair runs from a word holding '=' to the next such word or
	 * comma, so that a value may hold blanks ("latency=1 us"). */
	for (t = colon + 1; t < end;) {
		const char *w = t, *next;

		while (w < end && (sib_is_space(*w) || *w == ','))
			w++;
		if (w == end)
			break;
		for (next = w; next < end && *next != ','; next++)
			if (next > w && sib_is_space(next[-1]) &&
			    !sib_is_space(*next) && word_has_eq(next, end))
				break;
		if (parse_pair(key, r, w, (size_t)(next - w), p, err, errlen))
			return -1;
		t = next;
	}
	return 0;
}

int netm_pieces_parse(netm_pieces *t, const char *key, const char *text,
		      const netm_piece *defaults, char *err, size_t errlen)
{
	netm_piece ps[PIECES_MAX];
	const char *s = text ? text : "";
	unsigned n = 0;

	memset(t, 0, sizeof *t);
	while (*s) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		const char *q = s;

		while (q < s + len && sib_is_space(*q))
			q++;
		if (q < s + len) {
			if (n == PIECES_MAX)
				return sib_errf(err, errlen, "%s: more than %d "
						"ranges", key, PIECES_MAX);
			ps[n] = *defaults;
			if (parse_range(key, n, s, len, &ps[n], err, errlen))
				return -1;
			if (n == 0 && ps[0].from != 0)
				return sib_errf(err, errlen, "%s: the first "
						"range must start at 0, not "
						"at %llu", key,
						(unsigned long long)ps[0].from);
			if (n > 0 && ps[n].from <= ps[n - 1].from)
				return sib_errf(err, errlen, "%s: range %u "
						"starts at %llu bytes, not "
						"after range %u (%llu); give "
						"the ranges by increasing "
						"size", key, n + 1,
						(unsigned long long)ps[n].from,
						n,
						(unsigned long long)
						ps[n - 1].from);
			n++;
		}
		s += len + (semi != NULL);
	}
	if (n == 0)
		return 0;
	t->p = malloc(n * sizeof *t->p);
	if (!t->p)
		return sib_errf(err, errlen, "%s: out of memory", key);
	memcpy(t->p, ps, n * sizeof *t->p);
	t->n = n;
	return 0;
}

void netm_pieces_free(netm_pieces *t)
{
	free(t->p);
	t->p = NULL;
	t->n = 0;
}
