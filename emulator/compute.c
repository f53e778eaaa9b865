/*
 * compute.c -- sibyl.h: declared compute, SEB names, prints with virtual
 * time, skip points and iteration marks, sample-then-replay.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"
#include "include/sibyl.h"

static int64_t seconds_to_ps(const char *call, double s)
{
	if (!(s >= 0) || s > 9.2e6)
		emu_fatal("%s(%g): the time must be between 0 and 9.2e6 "
			  "seconds", call, s);
	return (int64_t)llround(s * 1e12);
}

void sibyl_compute(double seconds)
{
	emu_rank *r = emu_self("sibyl_compute");
	emu_rec_declare(r, seconds_to_ps("sibyl_compute", seconds));
}

void sibyl_compute_flops(double flops)
{
	emu_rank *r = emu_self("sibyl_compute_flops");
	if (!(flops >= 0))
		emu_fatal("sibyl_compute_flops(%g): negative", flops);
	emu_rec_declare(r, seconds_to_ps("sibyl_compute_flops",
					 flops / emu.flop_rate));
}

void sibyl_seb_name(const char *name)
{
	emu_rec_name(emu_self("sibyl_seb_name"), name);
}

void sibyl_print(const char *fmt, ...)
{
	emu_rank *r = emu_self("sibyl_print");
	char small[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		emu_rec_print(r, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		emu_fatal("out of memory in sibyl_print");
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	emu_rec_print(r, big, (size_t)n);
	free(big);
}

/* End the current SEB here and put a marker on the next one. */
static void mark(const void *site, const char *call, uint32_t kind, int64_t value)
{
	emu_rank *r = emu_self(call);
	emu_rec_enter(r, site);
	emu_rec_marker(r, kind, value);
	emu_rec_leave(r, call);
}

void sibyl_skip_begin(void)
{
	mark(EMU_SITE, "sibyl_skip_begin", SIBT_MARK_SKIP_START, 0);
}

void sibyl_skip_end(void)
{
	mark(EMU_SITE, "sibyl_skip_end", SIBT_MARK_SKIP_END, 0);
}

void sibyl_iteration(long iteration)
{
	mark(EMU_SITE, "sibyl_iteration", SIBT_MARK_ITER, iteration);
}

void sibyl_marker(long value)
{
	mark(EMU_SITE, "sibyl_marker", SIBT_MARK_USER, value);
}

double sibyl_vtime(void)
{
	return (double)emu_rec_vtime(emu_self("sibyl_vtime")) * 1e-12;
}

/* One SIBYL_SAMPLED site of one rank. */
struct emu_sample_site {
	const char *file;
	int line;
	int runs;
	int64_t total_ns;
	emu_stamp t0;
};

sibyl_sample *sibyl_sample_begin(const char *site, int line, int k)
{
	emu_rank *r = emu_self("SIBYL_SAMPLED");
	emu_sample_site *s = NULL;

	for (uint32_t i = 0; i < r->nsamples; i++)
		if (r->samples[i].line == line &&
		    (r->samples[i].file == site ||
		     strcmp(r->samples[i].file, site) == 0)) {
			s = &r->samples[i];
			break;
		}
	if (!s) {
		if (r->nsamples == r->csamples) {
			uint32_t c = r->csamples ? 2 * r->csamples : 4;
			emu_sample_site *p = realloc(r->samples, c * sizeof *p);
			if (!p)
				emu_fatal("out of memory in SIBYL_SAMPLED");
			r->samples = p;
			r->csamples = c;
		}
		s = &r->samples[r->nsamples++];
		memset(s, 0, sizeof *s);
		s->file = site;
		s->line = line;
	}
	if (s->runs < k || s->runs == 0) {
		emu_stamp_now(&s->t0);
		return (sibyl_sample *)s;
	}
	/* Replay: the mean of the measured runs, scaled like measured
	 * compute, instead of running the block. */
	emu_rec_measured(r, s->total_ns / s->runs);
	return NULL;
}

sibyl_sample *sibyl_sample_end(sibyl_sample *h)
{
	emu_sample_site *s = (emu_sample_site *)h;
	emu_span sp;
	emu_stamp_since(&s->t0, &sp);
	s->total_ns += emu_span_fallback(&sp);
	s->runs++;
	return NULL;
}
