/*
 * calib.h -- `sibyl calibrate': what its two halves share.  calibrate.c
 * runs the probe under mpirun; calib_fit.c reads the probe's samples,
 * summarizes them, fits the piecewise models and writes the machine
 * description, the report and the plots.
 */
#ifndef SIBYL_TOOLS_CALIB_H
#define SIBYL_TOOLS_CALIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "segfit.h"

/* The kinds of samples the probe writes (calibrate/probe.c). */
enum calib_kind { CK_PP, CK_PPNB, CK_OS, CK_OR, CK_STREAM, CK_ISEND, CK_COPY,
		  CK_KERNEL, CK_N };
/* Pairs: inside rank 0's node, and across nodes. */
enum calib_pair { CP_INTRA, CP_INTER, CP_N };

extern const char *const calib_kind_names[CK_N];
extern const char *const calib_pair_names[CP_N];

/* The samples of one kind and pair, in file order; ref: the 1-byte
 * one-way time the probe measured before each (0: none, a version-1
 * file or a copy sample). */
typedef struct calib_series {
	size_t n, cap;
	uint64_t *size;
	double *sec, *ref;
} calib_series;

/*
 * The speed regimes of a pair, from the references of its samples: a
 * shared host can alternate between two (on a 2-core VM the round trip
 * between its cores went from 0.26 to 0.76 us and back every 10-30 s,
 * every message size slowing alike).  Two regimes are found when the
 * references fall into two groups that each hold 10% of them or more,
 * whose medians differ by half or more, and that stand apart by four of
 * their standard deviations (in logarithms): a 1-D two-means split.
 */
typedef struct calib_regimes {
	int n;			/* 0: no reference; 1 or 2 */
	double bound;		/* 2: a reference up to it is regime 1, s */
	double median[2];	/* the references' medians, s */
	size_t count[2];	/* samples of each */
	int fitted;		/* the regime fitted: 0, 1, or -1 (all) */
} calib_regimes;

/* Which regime calib_fit fits (calib_data.regime). */
enum { CALIB_REGIME_AUTO = -2, CALIB_REGIME_ALL = -1, CALIB_REGIME_FAST = 0,
       CALIB_REGIME_SLOW = 1 };

/* The summary of one size: robust statistics of its samples. */
typedef struct calib_point {
	uint64_t size;
	double median, min, max, mad;
	unsigned n, outliers;	/* beyond 5 scaled MADs of the median */
} calib_point;

typedef struct calib_summary {
	calib_point *p;
	size_t n;
} calib_summary;

/* One rank's reference-kernel runs. */
typedef struct calib_core {
	int rank, cpu;
	char host[64];
	double median;
	double *sec;
	unsigned n, cap;
} calib_core;

/* A range of the fitted table, ready for a machine description. */
typedef struct calib_piece {
	uint64_t from;
	double latency, bandwidth, os, or;	/* s, B/s, s, s */
	double os_per_byte;			/* s a byte */
	double a, b;				/* the fitted line */
} calib_piece;

typedef struct calib_data {
	char header[512];
	/* Set before calib_fit (calib_read sets AUTO): the regime to fit
	 * when a pair has two; AUTO: the one with more samples. */
	int regime;
	calib_regimes reg[CP_N];
	calib_series s[CK_N][CP_N];
	calib_summary sum[CK_N][CP_N];
	calib_core *cores;
	size_t ncores;
	cal_fit fit[CP_N];
	calib_piece pieces[CP_N][CAL_MAX_SEGMENTS];
	int npieces[CP_N];	/* 0: pair not measured */
	double copy_bw;		/* median memcpy bandwidth, large sizes */
	/* A stream's cost per message by size (segments through the
	 * stream medians, as the ping-pong's: a + b n; stream_n: the
	 * sizes fitted, 0 when not measured). */
	cal_fit stream[CP_N];
	size_t stream_n[CP_N];
} calib_data;

/* Read the probe's CSV into d (zeroed first).  0, or -1 after a message
 * that names the file and line. */
int calib_read(calib_data *d, const char *path);
/* Regimes, summaries, fits and tables of every measured pair.  0, or
 * after a message -1 (out of memory, a failed fit) or -2 (d->regime
 * asks for a regime that a pair does not show). */
int calib_fit(calib_data *d);
/* machine.conf, report.txt, report.json, points.csv, fit.csv and the
 * plots into dir.  cores: this host's cores, for machine.cores_per_node.
 * 0, or an exit status after a message. */
int calib_write(const calib_data *d, const char *dir, long cores,
		int plots);
/* Print the JSON summary (also report.json) on f. */
void calib_json(const calib_data *d, FILE *f);
void calib_free(calib_data *d);

/* The calibrated model's one-way time of n bytes for pair p: os + n *
 * os_per_byte + latency + n / bandwidth + or of n's range, seconds. */
double calib_model_time(const calib_data *d, int p, uint64_t n);

/* The uncalibrated default model's one-way time of n bytes (the
 * defaults of [intranode] and of the simple model), seconds. */
double calib_default_time(int pair, uint64_t n);

#endif /* SIBYL_TOOLS_CALIB_H */
