/*
 * fuzz_reader.c -- fuzz target for the trace reader.
 *
 * The input is one data file.  It is written into a scratch trace
 * directory next to a MANIFEST that agrees with the input's own header
 * (npes, processes, PE block, window size) whenever those fields are
 * plausible, so that inputs get past the manifest check and into the
 * frame scanner, the index and the window decoder.  When the input is
 * file p of P > 1, the other files are valid header-only data files.
 *
 * Each input runs twice: as given, and with every CRC recomputed
 * (header, frames, trailer), so that mutations reach the decoders instead
 * of stopping at a checksum.  Errors are expected; crashes, hangs, leaks
 * and sanitizer reports are the findings.
 *
 * Built as a libFuzzer binary (make fuzz) and as tests/fuzz_reader_replay,
 * which replays a corpus (fuzz_replay_main.c).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sibyl_trace.h"
#include "tgen_bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_PROCS 8
#define FZ_MAX_NPES 4096
#define FZ_MAX_WINDOWS 20000

static char fz_dir[4096];
static int fz_ready;

static void fz_cleanup(void)
{
	char name[64];
	if (!fz_ready)
		return;
	for (uint32_t p = 0; p < FZ_MAX_PROCS; p++) {
		sibt_datafile_name(name, sizeof name, p);
		unlink(tg_path(fz_dir, name));
	}
	unlink(tg_path(fz_dir, "MANIFEST"));
	unlink(tg_path(fz_dir, "MANIFEST.tmp"));
	rmdir(fz_dir);
	fz_ready = 0;
}

static int fz_setup(void)
{
	const char *base = getenv("TMPDIR");
	if (fz_ready)
		return 0;
	snprintf(fz_dir, sizeof fz_dir, "%s/sibyl-fuzz-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(fz_dir)) {
		perror(fz_dir);
		return -1;
	}
	fz_ready = 1;
	atexit(fz_cleanup);
	return 0;
}

/* Keep the compiler from dropping the reads that let ASan look. */
static volatile uint64_t fz_sink;

static void fz_touch(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t h = 0;
	for (size_t i = 0; i < n; i++)
		h = h * 31 + c[i];
	fz_sink += h;
}

static void fz_walk(sibt_trace *t)
{
	sibt_totals tot;
	sibt_window *win = sibt_window_new();
	uint64_t budget = FZ_MAX_WINDOWS, w;
	uint32_t npes = sibt_trace_npes(t);

	fz_sink += sibt_trace_nprocs(t) + sibt_trace_window_size(t);
	sibt_trace_totals(t, &tot);
	fz_sink += tot.windows + tot.sebs + tot.sends + tot.raw_bytes;
	for (size_t i = 0; i < sibt_trace_manifest_count(t); i++) {
		const char *k, *v;
		if (sibt_trace_manifest_entry(t, i, &k, &v) == SIBT_OK) {
			fz_touch(k, strlen(k));
			fz_touch(v, strlen(v));
		}
	}
	for (size_t i = 0; i < sibt_trace_damage_count(t); i++) {
		const sibt_damage *d = sibt_trace_damage(t, i);
		if (!d)
			abort();  /* the count promised an entry */
		fz_touch(d->file, strlen(d->file));
		fz_touch(d->detail, strlen(d->detail));
		fz_sink += d->valid_bytes + d->windows_recovered;
	}
	for (uint32_t f = 0; f < sibt_trace_nfiles(t); f++) {
		const char *p = sibt_trace_file_path(t, f);
		fz_touch(p, strlen(p));
	}
	for (uint32_t pe = 0; pe < npes && win; pe++) {
		uint64_t nw = sibt_trace_nwindows(t, pe);
		fz_sink += sibt_trace_nsebs(t, pe) + sibt_trace_nsends(t, pe);
		if (sibt_trace_find_window(t, pe, 0, &w) == SIBT_OK)
			fz_sink += w;
		if (sibt_trace_find_window(t, pe, sibt_trace_nsebs(t, pe) / 2,
					   &w) == SIBT_OK)
			fz_sink += w;
		if (sibt_trace_find_send_window(t, pe, 0, &w) == SIBT_OK)
			fz_sink += w;
		for (uint64_t i = 0; i < nw && budget; i++, budget--) {
			sibt_window_info wi;
			if (sibt_trace_window_info(t, pe, i, &wi) == SIBT_OK)
				fz_sink += wi.offset + wi.nsebs;
			if (sibt_trace_read_window(t, pe, i, win) != SIBT_OK) {
				const char *m = sibt_trace_errmsg(t);
				fz_touch(m, strlen(m));
				continue;
			}
			for (uint32_t j = 0; j < sibt_window_nsebs(win); j++) {
				const sibt_seb *s = sibt_window_seb(win, j);
				fz_touch(s->name, strlen(s->name));
				fz_touch(s->preds, s->npreds * sizeof *s->preds);
				fz_touch(s->waits, s->nwaits * sizeof *s->waits);
				fz_touch(s->sends, s->nsends * sizeof *s->sends);
				fz_touch(s->markers,
					 s->nmarkers * sizeof *s->markers);
				for (uint32_t k = 0; k < s->nprints; k++)
					fz_touch(s->prints[k].text,
						 s->prints[k].len);
				fz_sink += s->duration + s->first_seq + s->index;
			}
			fz_sink += sibt_window_memory(win);
		}
	}
	sibt_window_free(win);
}

/* A valid data file holding only a header. */
static void fz_header_only(uint8_t *h, uint32_t proc, uint32_t P,
			   uint32_t npes, uint32_t first, uint32_t count,
			   uint32_t window)
{
	memset(h, 0, TG_HDR);
	memcpy(h, "SIBYLDAT", 8);
	h[8] = 1;
	tg_put32(h + 12, 0x01020304u);
	tg_put32(h + 16, proc);
	tg_put32(h + 20, P);
	tg_put32(h + 24, npes);
	tg_put32(h + 28, first);
	tg_put32(h + 32, count);
	tg_put32(h + 36, window);
	tg_put32(h + 60, tg_crc(h, 60));
}

static void fz_run(const uint8_t *data, size_t size, int flags)
{
	uint32_t P = 1, proc = 0, npes = 4, first = 0, count = 4, window = 64;
	char name[64], line[256], eb[512];
	char *man;
	size_t ml = 0, mcap = 4096;
	sibt_trace *t = NULL;

	if (size >= TG_HDR) {
		uint32_t hp = tg_le32(data + 16), hP = tg_le32(data + 20);
		uint32_t hn = tg_le32(data + 24), hf = tg_le32(data + 28);
		uint32_t hc = tg_le32(data + 32), hw = tg_le32(data + 36);
		if (hP >= 1 && hP <= FZ_MAX_PROCS && hp < hP)
			P = hP, proc = hp;
		if (hn >= 1 && hn <= FZ_MAX_NPES)
			npes = hn;
		if (hw >= 1 && hw <= (1u << 20))
			window = hw;
		sibt_block_range(npes, P, proc, &first, &count);
		if (hf < npes && hc <= npes - hf)
			first = hf, count = hc;
	}
	for (uint32_t p = 0; p < FZ_MAX_PROCS; p++) {
		sibt_datafile_name(name, sizeof name, p);
		if (p >= P)
			unlink(tg_path(fz_dir, name));
	}
	man = tg_xmalloc(mcap);
	ml = (size_t)snprintf(man, mcap, "format = sibyl-trace 1.0\n"
			      "npes = %u\nnprocs = %u\nwindow = %u\n"
			      "time_unit = ps\nbyte_order = little-endian\n",
			      npes, P, window);
	for (uint32_t p = 0; p < P; p++) {
		uint32_t f, c;
		sibt_datafile_name(name, sizeof name, p);
		if (p == proc) {
			f = first;
			c = count;
			tg_write_file(tg_path(fz_dir, name), data, size);
		} else {
			uint8_t h[TG_HDR];
			sibt_block_range(npes, P, p, &f, &c);
			fz_header_only(h, p, P, npes, f, c, window);
			tg_write_file(tg_path(fz_dir, name), h, sizeof h);
		}
		int n = snprintf(line, sizeof line, "file.%u = %s %u %u\n", p,
				 name, f, c);
		memcpy(man + ml, line, (size_t)n);
		ml += (size_t)n;
	}
	tg_write_file(tg_path(fz_dir, "MANIFEST"), man, ml);
	free(man);

	eb[0] = '\0';
	int rc = sibt_trace_open(&t, fz_dir, flags, eb, sizeof eb);
	if (rc == SIBT_OK || rc == SIBT_WARN) {
		if (!t)
			abort();  /* success without a handle */
		fz_walk(t);
		sibt_trace_close(t);
	} else {
		if (t)
			abort();  /* failure must leave *tp NULL */
		fz_touch(eb, strlen(eb));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fz_setup())
		return 0;
	fz_run(data, size, 0);
	if (size >= TG_HDR) {
		uint8_t *fixed = tg_xmalloc(size);
		memcpy(fixed, data, size);
		tg_fix_crcs(fixed, size);
		if (memcmp(fixed, data, size))
			fz_run(fixed, size, (size & 1) ? SIBT_OPEN_VERIFY_ALL : 0);
		else if (size & 1)
			fz_run(fixed, size, SIBT_OPEN_VERIFY_ALL);
		free(fixed);
	}
	return 0;
}
