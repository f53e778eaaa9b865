/*
 * tf_trace.h -- the trace reader's handle and what its two files share
 * (internal to tracefmt): tf_reader.c opens a trace and loads its window
 * index, tf_query.c answers questions about it and reads its windows.
 */
#ifndef SIBYL_TF_TRACE_H
#define SIBYL_TF_TRACE_H

#include <stdarg.h>
#include <stdint.h>
#include <zlib.h>

#include "tf_private.h"

#define TRACE_MAGIC 0x54524253u /* "SBRT" */
#define TRACE_DEAD 0xdeadbeefu

typedef struct tf_win {
	uint64_t offset, first_seb, first_seq;
	uint32_t nsebs, nsends, raw, stored;
} tf_win;

typedef struct tf_file {
	char *path, *name;
	int fd;
	uint32_t proc, first_pe, npes;
	uint64_t size;
	char **names;
	uint32_t nnames;
	uint8_t *dict;          /* preset dictionary, or NULL */
	uint32_t dictlen;
	uint64_t raw_bytes, stored_bytes;
} tf_file;

struct sibt_trace {
	uint32_t magic;
	char *dir;              /* directory read */
	int bundle;             /* dir is a scratch copy of a bundle */
	int own_scratch;        /* ... that trace_free removes */
	tf_manifest man;
	uint32_t npes, nprocs, window;
	tf_file *files;
	uint64_t *pe_win;       /* npes + 1: first window of each PE */
	tf_win *wins;
	size_t nwins, cap_wins;
	sibt_damage *damage;
	size_t ndamage;
	z_stream z;
	int zinit;
	tf_buf pkst;            /* stored bytes of packed reads */
	int flags;              /* SIBT_OPEN_* */
	uint64_t manifest_bytes;
	char err[1024];
};

/* Set t's message; returns code. */
int tf_terr(sibt_trace *t, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* t is an open trace handle. */
static inline int tf_trace_ok(const sibt_trace *t)
{
	return t && t->magic == TRACE_MAGIC;
}

/* tf_reader.c: inflate exactly `rawlen' bytes of raw deflate from src
 * into dst, with the preset dictionary dict when it is not NULL. */
int tf_inflate_exact(sibt_trace *t, const uint8_t *src, size_t len,
		     uint8_t *dst, size_t rawlen, const uint8_t *dict,
		     uint32_t dictlen);
/* tf_reader.c: parse a WIND header from the `avail' bytes at h: 0 if it
 * verifies (its length in *hlen), SIBT_ETRUNC if it is cut off,
 * SIBT_ECRC if its tag, length or checksum is wrong, SIBT_EFORMAT if it
 * verifies but describes an impossible window. */
int tf_parse_win_header(const uint8_t *h, size_t avail, uint32_t *pe,
			uint32_t *wno, tf_win *w, int *method, size_t *hlen);
/* The payload CRC of a verified WIND header of length hlen. */
static inline uint32_t tf_win_payload_crc(const uint8_t *h, size_t hlen)
{
	return tf_get32(h + hlen - 8);
}

#endif /* SIBYL_TF_TRACE_H */
