/*
 * fsim_var.c -- the variability models of a run (fsim.h,
 * docs/variability.md): durations drawn per code region or SEB name,
 * speed factors per node or core, jitter of network times.
 *
 * Every draw is sib_rand_u64(seed, what, which, stream) turned into a
 * value by inversion (base/sib_dist.h), so it is the same whatever the
 * order of the replay.  The streams keep the uses apart.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "sib_text.h"
#include "sib_err.h"
#include "sib_param.h"

enum {
	ST_VALUE = 1,      /* (pe, seb index): the inverse CDF */
	ST_CLUSTER = 2,    /* (pe, seb index): the cluster of a mixture */
	ST_SPATIAL = 3,    /* (node, core or 0) */
	ST_SPATIAL_MIX = 4,
	ST_NET = 5,        /* (source pe, sequence number) */
	ST_NET_MIX = 6,
};

/* The largest duration a draw gives: far from the end of time, so that
 * sums of draws are still checked by the engine rather than wrapped. */
#define VAR_MAX_PS 4.0e18

struct fsim_var {
	uint64_t seed;
	fsim_profile blocks;     /* variability.temporal, then the profile */
	uint32_t **occ;          /* per block with a pattern: per PE, the
	                            SEBs it drew for so far */
	uint32_t npes;
	int have_regions;
	double *speed;           /* per PE; NULL: no spatial model */
	uint32_t nnet;           /* network size ranges */
	uint64_t *net_from;
	sib_dist *net;
};

static int cfg_err(char *err, size_t errlen, const fsim_config *c,
		   const char *key, const char *msg)
{
	const char *o = fsim_config_origin(c, "variability", key);
	return sib_errf_code(SIB_ECONFIG, err, errlen, "%s: variability.%s: %s",
			     o ? o : "default", key, msg);
}

/* ---------------------------------------------------------- temporal */

static int add_temporal(fsim_var *v, const fsim_config *c, char *err,
			size_t errlen)
{
	const sib_value *t = fsim_config_get(c, "variability", "temporal");
	const char *s = t && t->s ? t->s : "";
	const char *origin = fsim_config_origin(c, "variability", "temporal");
	char msg[1024], full[1400];
	while (*s) {
		char *one = fsim_rules_next(&s), *key = NULL;
		const char *val;
		fsim_vblock b;
		int is_region, rc = -1;
		if (!one)
			return sib_errf(err, errlen, "out of memory");
		memset(&b, 0, sizeof b);
		if (!*one) {
			free(one);
			continue;
		}
		if (fsim_rules_target(one, &is_region, &key, &val, msg,
				      sizeof msg) == 0 &&
		    sib_dist_parse(&b.dist, val, 1, msg, sizeof msg) == 0) {
			b.by_region = is_region;
			b.glob = is_region;
			b.key = key;
			b.nclusters = b.dist.kind == SIB_DIST_MIX ? b.dist.n : 1;
			b.origin = (char *)(origin ? origin : "--set");
			rc = fsim_profile_add(&v->blocks, &b) ? -2 : 0;
			sib_dist_free(&b.dist);
		}
		if (rc == -1) {
			snprintf(full, sizeof full, "rule '%s': %s", one, msg);
			cfg_err(err, errlen, c, "temporal", full);
		} else if (rc == -2) {
			sib_errf(err, errlen, "out of memory");
		}
		free(key);
		free(one);
		if (rc)
			return -1;
	}
	return 0;
}

static int add_profile(fsim_var *v, const fsim_config *c, char *err,
		       size_t errlen)
{
	const sib_value *p = fsim_config_get(c, "variability", "profile");
	fsim_profile pr;
	if (!p || !p->s || !p->s[0])
		return 0;
	if (fsim_profile_read(&pr, p->s, err, errlen)) {
		/* the profile's own errors name it; a missing one names the
		 * key that asked for it */
		return -1;
	}
	for (uint32_t i = 0; i < pr.n; i++)
		if (fsim_profile_add(&v->blocks, &pr.b[i])) {
			fsim_profile_free(&pr);
			return sib_errf(err, errlen, "out of memory");
		}
	fsim_profile_free(&pr);
	return 0;
}

uint32_t fsim_var_for_name(const fsim_var *v, const char *name)
{
	for (uint32_t i = 0; v && i < v->blocks.n; i++)
		if (!v->blocks.b[i].by_region &&
		    strcmp(v->blocks.b[i].key, name) == 0)
			return i;
	return FSIM_VAR_NONE;
}

uint32_t fsim_var_for_region(const fsim_var *v, const char *region)
{
	for (uint32_t i = 0; v && region && *region && i < v->blocks.n; i++) {
		const fsim_vblock *b = &v->blocks.b[i];
		if (b->by_region &&
		    (b->glob ? fnmatch(b->key, region, 0) == 0 :
		     strcmp(b->key, region) == 0))
			return i;
	}
	return FSIM_VAR_NONE;
}

int fsim_var_have_regions(const fsim_var *v)
{
	return v && v->have_regions;
}

static sib_ps to_ps(double x)
{
	if (!(x > 0))
		return 0;
	return x >= VAR_MAX_PS ? (sib_ps)VAR_MAX_PS : (sib_ps)llround(x);
}

sib_ps fsim_var_draw(fsim_var *v, uint32_t bi, uint32_t pe, uint64_t index)
{
	const fsim_vblock *b = &v->blocks.b[bi];
	const sib_dist *d = &b->dist;
	double u[2] = {
		sib_rand_unit(sib_rand_u64(v->seed, pe, index, ST_VALUE)),
		sib_rand_unit(sib_rand_u64(v->seed, pe, index, ST_CLUSTER)),
	};
	if (b->npattern) {
		uint32_t k = v->occ[bi][pe]++ % b->npattern;
		if (d->kind == SIB_DIST_MIX)
			d = &d->c[b->pattern[k]];
	}
	return to_ps(sib_dist_sample(d, u));
}

/* ----------------------------------------------------------- spatial */

/* The kernel times of `sibyl calibrate''s report.json ("cores": [{...,
 * "kernel_s": T}, ...]), in order. */
static int read_kernels(const char *path, double **out, uint32_t *n,
			char *err, size_t errlen)
{
	static const sib_lines_limits lim = {
		.what = "calibration report (variability.spatial_file)",
		.open_hint = "it is the report.json of 'sibyl calibrate'",
		.max_line = 1u << 20,
		.max_bytes = 16u << 20,
	};
	sib_lines *l;
	char *buf = NULL, *line;
	size_t len = 0, cap = 0, ll;
	int got;
	if (sib_lines_open(&l, path, &lim, err, errlen))
		return -1;
	/* The lines joined by blanks: the report is read as one text. */
	while ((got = sib_lines_next(l, &line, &ll, err, errlen)) > 0) {
		if (len + ll + 2 > cap) {
			char *nb = realloc(buf, cap = 2 * (len + ll + 2));
			if (!nb) {
				free(buf);
				sib_lines_close(l);
				return sib_errf(err, errlen, "%s: out of memory",
						path);
			}
			buf = nb;
		}
		memcpy(buf + len, line, ll);
		len += ll;
		buf[len++] = ' ';
		buf[len] = '\0';
	}
	sib_lines_close(l);
	if (got < 0) {
		free(buf);
		return -1;
	}
	if (!buf)
		return sib_errf(err, errlen, "%s: empty: no \"cores\" with "
				"\"kernel_s\" times", path);
	const char *s = strstr(buf, "\"cores\"");
	uint32_t k = 0;
	double *v = NULL;
	while (s && (s = strstr(s, "\"kernel_s\"")) != NULL) {
		char *end;
		s = strchr(s, ':');
		double t = s ? strtod(s + 1, &end) : 0;
		if (!s || end == s + 1 || !(t > 0) || !isfinite(t)) {
			free(v);
			free(buf);
			return sib_errf(err, errlen, "%s: core %u: kernel_s is "
					"not a time greater than 0", path, k);
		}
		double *nv = realloc(v, (k + 1) * sizeof *nv);
		if (!nv) {
			free(v);
			free(buf);
			return sib_errf(err, errlen, "out of memory");
		}
		v = nv;
		v[k++] = t;
		s = end;
	}
	free(buf);
	if (!k)
		return sib_errf(err, errlen, "%s: no \"cores\" with \"kernel_s\" "
				"times: calibrate with the reference kernel, "
				"whose per-rank times 'sibyl calibrate' writes "
				"in report.json", path);
	*out = v;
	*n = k;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int speeds_from_file(fsim_var *v, const char *path,
			    const fsim_machine *m, char *err, size_t errlen)
{
	double *k = NULL, *sorted;
	uint32_t n = 0;
	if (read_kernels(path, &k, &n, err, errlen))
		return -1;
	sorted = malloc(n * sizeof *sorted);
	if (!sorted) {
		free(k);
		return sib_errf(err, errlen, "out of memory");
	}
	memcpy(sorted, k, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, cmp_double);
	double med = n % 2 ? sorted[n / 2] :
		     (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	for (uint32_t p = 0; p < v->npes; p++)
		v->speed[p] = k[fsim_core_of(m, p) % n] / med;
	free(sorted);
	free(k);
	return 0;
}

static int add_spatial(fsim_var *v, const fsim_config *c,
		       const fsim_machine *m, char *err, size_t errlen)
{
	const sib_value *d = fsim_config_get(c, "variability", "spatial");
	const sib_value *per = fsim_config_get(c, "variability",
					       "spatial_per");
	const sib_value *file = fsim_config_get(c, "variability",
						"spatial_file");
	int has_d = d && d->s && d->s[0], has_f = file && file->s &&
		    file->s[0];
	char msg[1024];
	sib_dist dist;
	if (!has_d && !has_f)
		return 0;
	if (has_d && has_f)
		return cfg_err(err, errlen, c, "spatial", "give either "
			       "variability.spatial (a distribution) or "
			       "variability.spatial_file (a calibration), "
			       "not both");
	if (has_d && sib_dist_parse(&dist, d->s, 0, msg, sizeof msg))
		return cfg_err(err, errlen, c, "spatial", msg);
	v->speed = malloc((v->npes ? v->npes : 1) * sizeof *v->speed);
	if (!v->speed) {
		if (has_d)
			sib_dist_free(&dist);
		return sib_errf(err, errlen, "out of memory for the speeds of "
				"%u PEs", v->npes);
	}
	if (has_f) {
		if (speeds_from_file(v, file->s, m, msg, sizeof msg))
			return cfg_err(err, errlen, c, "spatial_file", msg);
		return 0;
	}
	int by_core = per && per->i == 1;
	for (uint32_t p = 0; p < v->npes; p++) {
		uint32_t node = fsim_node_of(m, p);
		uint32_t core = by_core ? fsim_core_of(m, p) : 0;
		double u[2] = {
			sib_rand_unit(sib_rand_u64(v->seed, node, core,
						   ST_SPATIAL)),
			sib_rand_unit(sib_rand_u64(v->seed, node, core,
						   ST_SPATIAL_MIX)),
		};
		v->speed[p] = sib_dist_sample(&dist, u);
	}
	sib_dist_free(&dist);
	return 0;
}

int fsim_var_have_speed(const fsim_var *v)
{
	return v && v->speed;
}

sib_ps fsim_var_speed(const fsim_var *v, uint32_t pe, sib_ps dur)
{
	return to_ps((double)dur * v->speed[pe]);
}

/* ----------------------------------------------------------- network */

static int add_network(fsim_var *v, const fsim_config *c, char *err,
		       size_t errlen)
{
	static const sib_param sp = { "size", SIB_P_SIZE, "0", NULL, "" };
	const sib_value *t = fsim_config_get(c, "variability", "network");
	const char *s = t && t->s ? t->s : "";
	char msg[1024], full[1400];
	while (*s) {
		char *one = fsim_rules_next(&s), *colon = NULL;
		sib_value size;
		if (!one)
			return sib_errf(err, errlen, "out of memory");
		if (!*one) {
			free(one);
			continue;
		}
		uint64_t *nf = realloc(v->net_from, (v->nnet + 1) * sizeof *nf);
		sib_dist *nd = nf ? realloc(v->net, (v->nnet + 1) * sizeof *nd)
			       : NULL;
		if (nf)
			v->net_from = nf;
		if (nd)
			v->net = nd;
		int rc = !nd ? sib_errf(msg, sizeof msg, "out of memory") : 0;
		if (!rc && !(colon = strchr(one, ':')))
			rc = sib_errf(msg, sizeof msg, "expected SIZE: DIST, "
				      "e.g. '0: lognormal(1, 0.1)'");
		if (!rc) {
			*colon = '\0';
			rc = sib_parse_value(&sp, "SIZE", one, &size, msg,
					     sizeof msg);
		}
		if (!rc && (v->nnet ? (uint64_t)size.i <=
			    v->net_from[v->nnet - 1] : size.i != 0))
			rc = sib_errf(msg, sizeof msg, "the ranges start at 0 "
				      "and their sizes rise");
		if (!rc)
			rc = sib_dist_parse(&v->net[v->nnet], colon + 1, 0, msg,
					    sizeof msg);
		if (rc) {
			if (colon)
				*colon = ':';
			snprintf(full, sizeof full, "range '%s': %s", one, msg);
			free(one);
			return cfg_err(err, errlen, c, "network", full);
		}
		v->net_from[v->nnet++] = (uint64_t)size.i;
		free(one);
	}
	return 0;
}

int fsim_var_have_net(const fsim_var *v)
{
	return v && v->nnet;
}

sib_ps fsim_var_net(const fsim_var *v, uint32_t src, uint64_t seq,
		    uint64_t bytes, sib_ps xfer)
{
	uint32_t r = 0;
	while (r + 1 < v->nnet && v->net_from[r + 1] <= bytes)
		r++;
	double u[2] = {
		sib_rand_unit(sib_rand_u64(v->seed, src, seq, ST_NET)),
		sib_rand_unit(sib_rand_u64(v->seed, src, seq, ST_NET_MIX)),
	};
	return to_ps((double)xfer * sib_dist_sample(&v->net[r], u));
}

/* -------------------------------------------------------------- run */

void fsim_var_free(fsim_var *v)
{
	if (!v)
		return;
	for (uint32_t i = 0; v->occ && i < v->blocks.n; i++)
		free(v->occ[i]);
	free(v->occ);
	fsim_profile_free(&v->blocks);
	free(v->speed);
	for (uint32_t i = 0; i < v->nnet; i++)
		sib_dist_free(&v->net[i]);
	free(v->net);
	free(v->net_from);
	free(v);
}

uint64_t fsim_var_seed(const fsim_var *v)
{
	return v ? v->seed : 0;
}

static int prepare_blocks(fsim_var *v, char *err, size_t errlen)
{
	v->occ = calloc(v->blocks.n ? v->blocks.n : 1, sizeof *v->occ);
	if (!v->occ)
		return sib_errf(err, errlen, "out of memory");
	for (uint32_t i = 0; i < v->blocks.n; i++) {
		const fsim_vblock *b = &v->blocks.b[i];
		v->have_regions |= b->by_region;
		if (!b->npattern)
			continue;
		v->occ[i] = calloc(v->npes ? v->npes : 1, sizeof **v->occ);
		if (!v->occ[i])
			return sib_errf(err, errlen, "out of memory for the "
					"pattern of %s (4 bytes per PE)",
					b->origin);
	}
	return 0;
}

int fsim_var_new(fsim_var **vp, const fsim_config *c, const fsim_machine *m,
		 char *err, size_t errlen)
{
	const sib_value *seed = fsim_config_get(c, "variability", "seed");
	const sib_value *sim_seed = fsim_config_get(c, "sim", "seed");
	fsim_var *v = calloc(1, sizeof *v);
	*vp = NULL;
	if (!v)
		return sib_errf(err, errlen, "out of memory");
	v->npes = m->npes;
	v->seed = seed && seed->i >= 0 ? (uint64_t)seed->i :
		  sim_seed ? (uint64_t)sim_seed->i : 1;
	if (add_temporal(v, c, err, errlen) || add_profile(v, c, err, errlen) ||
	    prepare_blocks(v, err, errlen) ||
	    add_spatial(v, c, m, err, errlen) ||
	    add_network(v, c, err, errlen)) {
		fsim_var_free(v);
		return SIB_ECONFIG;
	}
	if (!v->blocks.n && !v->speed && !v->nnet) {
		fsim_var_free(v);
		return 0;
	}
	*vp = v;
	return 0;
}
