/*
 * bench_ult.c -- cost of the ULT library on the back-end it was built with.
 *
 *	bench_ult [ULTS [STACK_KIB]]	(defaults: 65536 ULTs, 64 KiB)
 *
 * Prints, in human lines and then one JSON line:
 *   - context switch: a round trip between two ULTs, halved; the median
 *     of several runs;
 *   - ULT creation (ult_create alone): on fresh slots, where the first
 *     touch of the slot's pages dominates, and again on warm slots;
 *   - memory per idle ULT: RSS growth over ULTS ULTs that each ran once
 *     and yielded, divided by ULTS.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ult.h"

#define RUNS		9
#define ROUND_TRIPS	1000000L

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Resident set size in bytes, from /proc/self/statm. */
static size_t rss_bytes(void)
{
	unsigned long size, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* ---- context switch -------------------------------------------------- */

static ult *ping, *pong;
static double elapsed;
static int stop;

/*
 * Both park by switching to main at the end: a ULT that returns goes back
 * to whoever last switched into it, which here would be the other one.
 */
static void ping_fn(void *arg)
{
	double t0;

	(void)arg;
	ult_switch(pong);		/* warm up: pong reaches its loop */
	t0 = now_ns();
	for (long i = 0; i < ROUND_TRIPS; i++)
		ult_switch(pong);
	elapsed = now_ns() - t0;
	stop = 1;
	ult_switch(ult_main());
}

static void pong_fn(void *arg)
{
	(void)arg;
	while (!stop)
		ult_switch(ping);
}

static double switch_ns(void)
{
	double ns[RUNS];

	for (int r = 0; r < RUNS; r++) {
		ping = ult_create(0, ping_fn, NULL);
		pong = ult_create(1, pong_fn, NULL);
		stop = 0;
		ult_switch(ping);	/* back when ping has measured */
		ult_switch(pong);	/* both finish */
		ult_switch(ping);
		ult_destroy(ping);
		ult_destroy(pong);
		ns[r] = elapsed / (2.0 * ROUND_TRIPS);
	}
	qsort(ns, RUNS, sizeof ns[0], cmp_double);
	return ns[RUNS / 2];
}

/* ---- creation and memory --------------------------------------------- */

static void idle_fn(void *arg)
{
	(void)arg;
	ult_switch(ult_main());
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 65536;
	size_t stack_kib = argc > 2 ? strtoul(argv[2], NULL, 10) : 64;
	ult_pool_opts o = { .nslots = n < 2 ? 2 : n,
			    .stack_size = stack_kib * 1024, .guard = -1 };
	double sw, t0, create_ns, warm_ns, first_ns;
	size_t rss0, rss1;
	char err[512];
	ult **u;

	if (ult_pool_init(&o, err, sizeof err) != 0) {
		fprintf(stderr, "bench_ult: %s\n", err);
		return 1;
	}
	n = o.nslots;
	u = calloc(n, sizeof *u);
	if (!u) {
		perror("bench_ult");
		return 1;
	}

	sw = switch_ns();
	printf("context switch (%s): %.1f ns (median of %d runs of %ld "
	       "round trips)\n", ult_backend(), sw, RUNS, ROUND_TRIPS);

	rss0 = rss_bytes();
	t0 = now_ns();
	for (size_t i = 0; i < n; i++) {
		u[i] = ult_create(i, idle_fn, NULL);
		if (!u[i]) {
			fprintf(stderr, "bench_ult: ult_create(%zu) failed\n", i);
			return 1;
		}
	}
	create_ns = (now_ns() - t0) / (double)n;
	t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		ult_switch(u[i]);
	first_ns = (now_ns() - t0) / (double)n;
	rss1 = rss_bytes();
	printf("ULT creation: %.1f ns; first run to the first yield: %.1f ns "
	       "(%zu ULTs)\n", create_ns, first_ns, n);
	printf("memory per idle ULT: %.0f bytes (RSS +%.1f MiB for %zu ULTs, "
	       "%zu KiB stacks, %s)\n",
	       (double)(rss1 - rss0) / (double)n,
	       (double)(rss1 - rss0) / (1024.0 * 1024.0), n, stack_kib,
	       ult_pool_protection());

	for (size_t i = 0; i < n; i++) {
		ult_switch(u[i]);
		ult_destroy(u[i]);
	}
	t0 = now_ns();
	for (size_t i = 0; i < n; i++)
		u[i] = ult_create(i, idle_fn, NULL);
	warm_ns = (now_ns() - t0) / (double)n;
	for (size_t i = 0; i < n; i++)
		ult_destroy(u[i]);
	free(u);
	printf("ULT creation on warm slots (pages already touched): %.1f ns\n",
	       warm_ns);

	printf("{\"backend\": \"%s\", \"switch_ns\": %.2f, \"create_ns\": %.1f, "
	       "\"create_warm_ns\": %.1f, \"first_run_ns\": %.1f, "
	       "\"bytes_per_idle_ult\": %.0f, \"ults\": %zu, "
	       "\"stack_kib\": %zu, \"protection\": \"%s\"}\n",
	       ult_backend(), sw, create_ns, warm_ns, first_ns,
	       (double)(rss1 - rss0) / (double)n, n, stack_kib,
	       ult_pool_protection());
	ult_pool_fini();
	return 0;
}
