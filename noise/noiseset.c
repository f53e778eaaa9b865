/*
 * noiseset.c -- loading and validating a noise set (a directory of
 * per-core noise files), its statistics, and the injector that applies
 * it to one simulated run.
 *
 * The format (noise/README.md, docs/noise.md): either files core0,
 * core1, ... (one per core of a node) or one file `cores' whose lines
 * start with a core column; `#' comments; times with units (ps, ns, us
 * or µs, ms, s: base/sib_units.h) unless a `unit U' line gave the unit
 * of bare numbers; a file is
 * of the kind its first data line says (pattern: PERIOD AMPLITUDE
 * OFFSET; captured: START DURATION, optionally preceded by `length T').
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "noise.h"
#include "sib_err.h"
#include "sib_text.h"
#include "sib_units.h"

#define NOISE_MAX_CORES 1048576u

typedef struct core_noise {
	int kind;                /* NOISE_* */
	int present;             /* a file or lines describe it */
	size_t n, cap;
	sib_ps *a, *b, *c;   /* pattern: period, amp, offset;
	                            captured: start, duration (c unused) */
	sib_ps length;       /* captured */
} core_noise;

struct noise_set {
	uint32_t ncores;
	core_noise *cores;       /* ncores */
	size_t cap;              /* of cores */
	uint64_t lines;          /* detours and patterns, for the limit */
};

sib_ps noise_scale_time(sib_ps d, int64_t num, int64_t den)
{
	if (num == den)
		return d;
	__int128 v = ((__int128)d * num + den / 2) / den;
	return v > INT64_MAX ? INT64_MAX : (sib_ps)v;
}

/* --------------------------------------------------------- parsing */

/* Where a line is, for messages. */
typedef struct pos {
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
} pos;

#define PERR(ps, ...) perr(ps, __VA_ARGS__)

static int perr(const pos *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(const pos *ps, const char *fmt, ...)
{
	if (!ps->err || !ps->errlen)
		return -1;
	int n = snprintf(ps->err, ps->errlen, "%s:%u: ", ps->file, ps->line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Parse a time "0.25ms", "40ps", or a bare number in the unit of power of
 * ten `bare' (as sib_time_unit() gives it; -1: bare numbers are an
 * error).  `what' names the field. */
static int parse_time(const pos *ps, const char *tok, int bare,
		      const char *what, sib_ps *out)
{
	const char *unit = tok;
	int64_t v;

	if (*tok == '-' || *tok == '+')
		return PERR(ps, "%s '%s': times cannot be negative or signed; "
			    "write e.g. 10us", what, tok);
	switch (sib_parse_ps(tok, bare, SIB_EXACT, &v, &unit)) {
	case SIB_OK:
		*out = (sib_ps)v;
		return 0;
	case SIB_ENOUNIT:
		return PERR(ps, "%s '%s' has no unit; add one (" SIB_TIME_UNITS
			    "), e.g. %sus, or give the unit of bare numbers "
			    "with a line 'unit us' before it", what, tok, tok);
	case SIB_EUNIT:
		return PERR(ps, "%s '%s': unknown unit '%s'; use "
			    SIB_TIME_UNITS, what, tok, unit);
	case SIB_EFRACTION:
		return PERR(ps, "%s '%s' is not a whole number of picoseconds; "
			    "round it", what, tok);
	case SIB_ERANGE:
		return PERR(ps, "%s '%s' is too large (the limit is about 106 "
			    "days)", what, tok);
	case SIB_EDIGITS:
		return PERR(ps, "%s '%s' has more than %d significant digits",
			    what, tok, SIB_MAX_DIGITS);
	default:
		return PERR(ps, "%s '%s' is not a time; write a number with a "
			    "unit (" SIB_TIME_UNITS "), e.g. 10us", what, tok);
	}
}

static int parse_core(const pos *ps, const char *tok, uint32_t *out)
{
	char *end;
	errno = 0;
	if (*tok < '0' || *tok > '9')
		goto bad;
	unsigned long long v = strtoull(tok, &end, 10);
	if (*end || errno)
		goto bad;
	if (v >= NOISE_MAX_CORES)
		return PERR(ps, "core %s is out of range (cores are numbered "
			    "0 to %u within a node)", tok, NOISE_MAX_CORES - 1);
	*out = (uint32_t)v;
	return 0;
bad:
	return PERR(ps, "'%s' is not a core number; the first column of "
		    "'cores' is the core index within a node (0, 1, ...)",
		    tok);
}

/* Room for cores 0..core; grown geometrically, so that a 'cores' file
 * naming cores 0, 1, 2, ... in turn costs linear time. */
static int grow(noise_set *s, uint32_t core)
{
	if (core < s->ncores)
		return 0;
	if (core >= s->cap) {
		size_t cap = s->cap ? s->cap : 8;
		while (cap <= core)
			cap *= 2;
		core_noise *c = realloc(s->cores, cap * sizeof *c);
		if (!c)
			return -1;
		s->cores = c;
		s->cap = cap;
	}
	memset(s->cores + s->ncores, 0,
	       ((size_t)core + 1 - s->ncores) * sizeof *s->cores);
	s->ncores = core + 1;
	return 0;
}

static int push(core_noise *c, sib_ps a, sib_ps b, sib_ps d)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		sib_ps *na = realloc(c->a, cap * sizeof *na);
		if (na)
			c->a = na;
		sib_ps *nb = realloc(c->b, cap * sizeof *nb);
		if (nb)
			c->b = nb;
		sib_ps *nc = realloc(c->c, cap * sizeof *nc);
		if (nc)
			c->c = nc;
		if (!na || !nb || !nc)
			return -1;
		c->cap = cap;
	}
	c->a[c->n] = a;
	c->b[c->n] = b;
	c->c[c->n] = d;
	c->n++;
	return 0;
}

enum { MAXF = 8 };

/* Split line into at most MAXF fields (more: *nf = MAXF + 1). */
static int split(char *line, char **f)
{
	int nf = 0;
	char *h = strchr(line, '#');
	if (h)
		*h = 0;
	for (char *p = strtok(line, " \t\r\n\v\f"); p;
	     p = strtok(NULL, " \t\r\n\v\f")) {
		if (nf == MAXF)
			return MAXF + 1;
		f[nf++] = p;
	}
	return nf;
}

/* One more detour or pattern for core c, within the limits. */
static int count_line(noise_set *s, const core_noise *c, const pos *ps)
{
	if (s->lines >= NOISE_MAX_DETOURS)
		return PERR(ps, "the noise set has more than %lu detours and "
			    "patterns, the limit of a set; shorten the "
			    "capture or split the study",
			    (unsigned long)NOISE_MAX_DETOURS);
	if (c->kind == NOISE_PATTERN && c->n >= NOISE_MAX_PATTERNS)
		return PERR(ps, "more than %d patterns on one core, the limit; "
			    "merge patterns of equal period", NOISE_MAX_PATTERNS);
	s->lines++;
	return 0;
}

/* Read one noise file: per-core (fixed_core >= 0) or `cores'. */
/* What load_file() knows of the file it reads. */
typedef struct file_state {
	noise_set *s;
	pos ps;
	int64_t fixed_core;     /* the core of a per-core file, else -1 */
	int base;               /* fields before the times: 1 in `cores' */
	int kind;               /* set by the first data line's fields */
	int bare;               /* power of ten of bare numbers, or -1 */
	sib_ps length;          /* captured: the `length' line's */
	unsigned length_line, first_data;
	/* captured: per core (slot 0 for a per-core file), the end of the
	 * previous detour, -1 before the first */
	sib_ps *prev_end;
	size_t nprev;
} file_state;

enum { LINE_OK = 0, LINE_ERR = -1, LINE_OOM = -2 };

/* A `unit U' or `length T' line: 1 when f is one (LINE_ERR when it is
 * wrong), 0 when it is not. */
static int directive(file_state *fs, char **f, int nf)
{
	pos *ps = &fs->ps;

	if (strcmp(f[0], "unit") == 0) {
		if (nf != 2 || sib_time_unit(f[1]) < 0)
			return PERR(ps, "write 'unit U' with U one of "
				    SIB_TIME_UNITS);
		fs->bare = sib_time_unit(f[1]);
		return 1;
	}
	if (strcmp(f[0], "length") != 0)
		return 0;
	if (nf != 2)
		return PERR(ps, "write 'length T', T the length of the capture "
			    "with a unit, e.g. length 1s");
	if (fs->first_data)
		return PERR(ps, "'length' must come before the first detour "
			    "(line %u); move it up", fs->first_data);
	if (parse_time(ps, f[1], fs->bare, "length", &fs->length))
		return LINE_ERR;
	if (fs->length == 0)
		return PERR(ps, "length must be greater than 0");
	fs->length_line = ps->line;
	return 1;
}

/* The kind of a data line of nf fields, which must be the file's. */
static int line_kind(file_state *fs, int nf)
{
	pos *ps = &fs->ps;
	int nt = nf - fs->base;
	int k = nt == 3 ? NOISE_PATTERN : nt == 2 ? NOISE_CAPTURED :
		NOISE_NONE;

	if (k == NOISE_NONE)
		return PERR(ps, "%d field%s; a line is %sPERIOD AMPLITUDE "
			    "OFFSET (pattern) or %sSTART DURATION (captured)",
			    nf, nf == 1 ? "" : "s", fs->base ? "CORE " : "",
			    fs->base ? "CORE " : "");
	if (!fs->first_data) {
		fs->first_data = ps->line;
		fs->kind = k;
		if (k == NOISE_PATTERN && fs->length_line) {
			ps->line = fs->length_line;
			return PERR(ps, "'length' applies to captured noise "
				    "only; this file holds patterns; remove it");
		}
	} else if (k != fs->kind) {
		return PERR(ps, "a %s line in a file of %s noise (line %u set "
			    "the kind by its field count); one file holds one "
			    "kind: put the two kinds on different cores",
			    k == NOISE_PATTERN ? "pattern" : "captured",
			    fs->kind == NOISE_PATTERN ? "pattern" : "captured",
			    fs->first_data);
	}
	return LINE_OK;
}

/* A pattern PERIOD AMPLITUDE OFFSET (t, as written in f) of core c. */
static int add_pattern(file_state *fs, core_noise *c, const sib_ps *t,
		       char **f)
{
	pos *ps = &fs->ps;

	if (t[0] == 0)
		return PERR(ps, "period must be greater than 0");
	if (t[1] >= t[0])
		return PERR(ps, "amplitude %s is not below the period %s: the "
			    "core would never run; make the amplitude smaller "
			    "than the period", f[fs->base + 1], f[fs->base]);
	if (count_line(fs->s, c, ps))
		return LINE_ERR;
	return push(c, t[0], t[1], t[2]) ? LINE_OOM : LINE_OK;
}

/* A detour START DURATION (t, as written in f) of core c. */
static int add_detour(file_state *fs, core_noise *c, uint32_t core,
		      const sib_ps *t, char **f)
{
	pos *ps = &fs->ps;
	size_t slot = fs->base ? core : 0;

	if (t[1] == 0)
		return PERR(ps, "duration must be greater than 0; drop the "
			    "line");
	if (slot >= fs->nprev) {
		size_t n = fs->nprev ? fs->nprev : 8;
		while (n <= slot)
			n *= 2;
		sib_ps *np = realloc(fs->prev_end, n * sizeof *np);
		if (!np)
			return LINE_OOM;
		for (size_t i = fs->nprev; i < n; i++)
			np[i] = -1;
		fs->prev_end = np;
		fs->nprev = n;
	}
	if (c->n && t[0] < fs->prev_end[slot])
		return PERR(ps, "detour at %s starts before the previous one of "
			    "core %u ends (%" PRId64 " ps): detours must be "
			    "sorted by start and must not overlap", f[fs->base],
			    core, fs->prev_end[slot]);
	if (t[0] > INT64_MAX - t[1])
		return PERR(ps, "detour ends too late");
	if (count_line(fs->s, c, ps))
		return LINE_ERR;
	fs->prev_end[slot] = t[0] + t[1];
	return push(c, t[0], t[1], 0) ? LINE_OOM : LINE_OK;
}

/* A data line of nf fields f. */
static int data_line(file_state *fs, char **f, int nf)
{
	static const char *const pnames[] = { "period", "amplitude",
					      "offset" };
	static const char *const cnames[] = { "start", "duration" };
	int rc = line_kind(fs, nf);
	if (rc)
		return rc;
	uint32_t core = (uint32_t)fs->fixed_core;
	if (fs->base && parse_core(&fs->ps, f[0], &core))
		return LINE_ERR;
	if (grow(fs->s, core))
		return LINE_OOM;
	core_noise *c = &fs->s->cores[core];
	c->present = 1;
	c->kind = fs->kind;
	sib_ps t[3];
	for (int i = 0; i < nf - fs->base; i++)
		if (parse_time(&fs->ps, f[fs->base + i], fs->bare,
			       fs->kind == NOISE_PATTERN ? pnames[i] :
			       cnames[i], &t[i]))
			return LINE_ERR;
	return fs->kind == NOISE_PATTERN ? add_pattern(fs, c, t, f) :
	       add_detour(fs, c, core, t, f);
}

/* After the last line: the length of each captured core (given, or the
 * end of its last detour), checked. */
static int finish_file(file_state *fs)
{
	pos *ps = &fs->ps;

	for (size_t slot = 0; fs->kind == NOISE_CAPTURED && slot < fs->nprev;
	     slot++) {
		size_t core = fs->base ? slot : (size_t)fs->fixed_core;
		core_noise *c = &fs->s->cores[core];
		if (fs->prev_end[slot] < 0)
			continue;       /* not a core of this file */
		sib_ps end = fs->prev_end[slot];
		if (fs->length_line && fs->length < end) {
			ps->line = fs->length_line;
			return PERR(ps, "length is shorter than the capture of "
				    "core %zu (its last detour ends at %" PRId64
				    " ps); make it at least that", core, end);
		}
		c->length = fs->length_line ? fs->length : end;
		sib_ps sum = 0;
		for (size_t i = 0; i < c->n; i++)
			sum += c->b[i];
		if (sum >= c->length) {
			ps->line = fs->length_line ? fs->length_line :
				   fs->first_data;
			return PERR(ps, "the detours of core %zu fill the whole "
				    "capture (%" PRId64 " ps): the core would "
				    "never run; give a longer 'length'", core,
				    c->length);
		}
	}
	if (fs->kind == NOISE_NONE && fs->length_line) {
		ps->line = fs->length_line;
		return PERR(ps, "'length' without any detour; remove it or add "
			    "the detours");
	}
	return LINE_OK;
}

static int load_file(noise_set *s, const char *path, const noise_file *mem,
		     int64_t fixed_core, char *err, size_t errlen)
{
	static const sib_lines_limits lim = {
		.what = "noise file",
		.max_line = NOISE_MAX_LINE,
	};
	sib_lines *fp;
	if (mem ? sib_lines_open_mem(&fp, path, mem->data, mem->size, &lim,
				     err, errlen)
		: sib_lines_open(&fp, path, &lim, err, errlen))
		return -1;
	file_state fs = {
		.s = s,
		.ps = { .file = path, .line = 0, .err = err, .errlen = errlen },
		.fixed_core = fixed_core,
		.base = fixed_core >= 0 ? 0 : 1,
		.kind = NOISE_NONE,
		.bare = -1,
	};
	char *line;
	size_t len;
	int rc = LINE_OK, got = 0;

	if (fixed_core >= 0) {
		if (grow(s, (uint32_t)fixed_core))
			rc = LINE_OOM;
		else
			s->cores[fixed_core].present = 1;
	}
	while (rc == LINE_OK &&
	       (got = sib_lines_next(fp, &line, &len, err, errlen)) > 0) {
		fs.ps.line = (unsigned)sib_lines_lineno(fp);
		char *f[MAXF];
		int nf = split(line, f);
		if (nf == 0)
			continue;
		rc = directive(&fs, f, nf);
		if (rc == 0)
			rc = data_line(&fs, f, nf);
		else if (rc > 0)
			rc = LINE_OK;
	}
	if (rc == LINE_OK && got < 0)
		rc = LINE_ERR;
	if (rc == LINE_OK)
		rc = finish_file(&fs);
	if (rc == LINE_OOM)
		sib_errf(err, errlen, "%s: out of memory", path);
	free(fs.prev_end);
	sib_lines_close(fp);
	return rc == LINE_OK ? 0 : -1;
}

/* A per-core file name: "coreN" with N decimal, no leading zero. */
static int core_file(const char *name, int64_t *core)
{
	if (strncmp(name, "core", 4) != 0 || !name[4])
		return 0;
	const char *p = name + 4;
	if (p[0] == '0' && p[1])
		return -1;
	int64_t v = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0;
		v = v * 10 + (*p - '0');
		if (v >= NOISE_MAX_CORES)
			return -2;
	}
	*core = v;
	return 1;
}

/* Notes, and hidden files such as the marker Sibyl writes into the
 * directories it creates (.sibyl-output). */
static int ignored(const char *name)
{
	size_t l = strlen(name);
	return name[0] == '.' || strncmp(name, "README", 6) == 0 ||
	       (l >= 3 && strcmp(name + l - 3, ".md") == 0);
}

/* A file of the set: its name, and its bytes when it is in memory
 * (mem NULL: the file dir/NAME). */
typedef struct set_entry {
	const char *name;
	const noise_file *mem;
} set_entry;

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const set_entry *)a)->name,
		      ((const set_entry *)b)->name);
}

/* Check the names of a set's files, then load them.  e (n entries) is
 * sorted here: a fixed order makes the first error reported the same
 * everywhere. */
static int load_entries(noise_set **out, const char *dir, set_entry *e,
			size_t n, char *err, size_t errlen)
{
	noise_set *s = calloc(1, sizeof *s);
	int rc = -1, have_cores = 0, have_core_files = 0;
	char path[4096];

	if (!s)
		goto oom;
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_entry);
	for (size_t i = 0; i < n; i++) {
		int64_t core;
		const char *name = e[i].name;
		snprintf(path, sizeof path, "%s/%s", dir, name);
		if (e[i].mem && (!name[0] || strchr(name, '/') ||
				 !strcmp(name, ".") || !strcmp(name, ".."))) {
			sib_errf(err, errlen, "%s: '%s' is not a file name; "
				  "name the files of a noise set core0, "
				  "core1, ... or 'cores'", dir, name);
			goto out;
		}
		if (e[i].mem && i > 0 && !strcmp(name, e[i - 1].name)) {
			sib_errf(err, errlen, "%s: two files named '%s'; a "
				  "noise set has one file of each name", dir,
				  name);
			goto out;
		}
		int cf = core_file(name, &core);
		if (ignored(name))
			continue;
		struct stat st;
		if (!e[i].mem && stat(path, &st) == 0 &&
		    !S_ISREG(st.st_mode)) {
			sib_errf(err, errlen, "%s: not a regular file; a noise set "
			     "holds only files core0, core1, ... or 'cores' "
			     "(and README or *.md notes)", path);
			goto out;
		}
		if (cf < 0) {
			sib_errf(err, errlen, "%s: %s; core files are named core0, "
			     "core1, ... (decimal, no leading zero)", path,
			     cf == -1 ? "core index with a leading zero" :
			     "core index out of range");
			goto out;
		}
		if (cf > 0) {
			have_core_files = 1;
		} else if (strcmp(name, "cores") == 0) {
			have_cores = 1;
		} else {
			sib_errf(err, errlen, "%s: unknown file in the noise set; "
			     "a noise set holds core0, core1, ... or one file "
			     "'cores' (README and *.md are ignored): rename or "
			     "remove it", path);
			goto out;
		}
	}
	if (have_cores && have_core_files) {
		sib_errf(err, errlen, "%s: holds both 'cores' and per-core files "
		     "(coreN); use one form: move the lines of the coreN files "
		     "into 'cores' with a core column, or split 'cores'", dir);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int64_t core = -1;
		if (ignored(e[i].name) ||
		    (core_file(e[i].name, &core) <= 0 &&
		     strcmp(e[i].name, "cores") != 0))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e[i].name);
		if (load_file(s, path, e[i].mem, core, err, errlen))
			goto out;
	}
	/* ncores: the highest core described + 1. */
	while (s->ncores && !s->cores[s->ncores - 1].present)
		s->ncores--;
	*out = s;
	s = NULL;
	rc = 0;
	goto out;
oom:
	sib_errf(err, errlen, "%s: out of memory loading the noise set", dir);
out:
	noise_set_free(s);
	return rc;
}

int noise_set_load(noise_set **out, const char *dir, char *err, size_t errlen)
{
	*out = NULL;
	if (err && errlen)
		err[0] = 0;
	DIR *d = opendir(dir);
	if (!d)
		return sib_errf(err, errlen, "%s: cannot open the noise set: %s "
			    "(a noise set is a directory holding core0, "
			    "core1, ... or one file 'cores')", dir,
			    strerror(errno));
	set_entry *e = NULL;
	size_t nn = 0, cap = 0;
	int rc = -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (nn == cap) {
			cap = cap ? cap * 2 : 16;
			set_entry *ne = realloc(e, cap * sizeof *ne);
			if (!ne)
				goto oom;
			e = ne;
		}
		if (!(e[nn].name = strdup(de->d_name)))
			goto oom;
		e[nn++].mem = NULL;
	}
	rc = load_entries(out, dir, e, nn, err, errlen);
	goto out;
oom:
	sib_errf(err, errlen, "%s: out of memory loading the noise set", dir);
out:
	for (size_t i = 0; i < nn; i++)
		free((char *)e[i].name);
	free(e);
	closedir(d);
	return rc;
}

int noise_set_load_files(noise_set **out, const char *dir,
			 const noise_file *files, size_t n, char *err,
			 size_t errlen)
{
	*out = NULL;
	if (err && errlen)
		err[0] = 0;
	set_entry *e = malloc((n ? n : 1) * sizeof *e);
	if (!e)
		return sib_errf(err, errlen, "%s: out of memory loading the "
				 "noise set", dir);
	for (size_t i = 0; i < n; i++) {
		e[i].name = files[i].name;
		e[i].mem = &files[i];
	}
	int rc = load_entries(out, dir, e, n, err, errlen);
	free(e);
	return rc;
}

void noise_set_free(noise_set *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->ncores; i++) {
		free(s->cores[i].a);
		free(s->cores[i].b);
		free(s->cores[i].c);
	}
	free(s->cores);
	free(s);
}

uint32_t noise_set_ncores(const noise_set *s)
{
	return s ? s->ncores : 0;
}

int noise_set_kind(const noise_set *s, uint32_t core)
{
	if (!s || core >= s->ncores || !s->cores[core].n)
		return NOISE_NONE;
	return s->cores[core].kind;
}

void noise_set_core_stats(const noise_set *s, uint32_t core,
			  noise_core_stats *o)
{
	memset(o, 0, sizeof *o);
	int kind = noise_set_kind(s, core);
	if (kind == NOISE_NONE)
		return;
	const core_noise *c = &s->cores[core];
	o->detours = c->n;
	if (kind == NOISE_PATTERN) {
		for (size_t i = 0; i < c->n; i++) {
			double per = (double)c->a[i], amp = (double)c->b[i];
			o->detours_per_s += (double)SIB_PS_PER_S / per;
			o->fraction += amp / per;
			if (amp > o->max_ps)
				o->max_ps = amp;
		}
		o->mean_ps = o->detours_per_s > 0 ? o->fraction /
			o->detours_per_s * (double)SIB_PS_PER_S : 0;
		o->span_ps = 0;
		return;
	}
	double sum = 0;
	for (size_t i = 0; i < c->n; i++) {
		sum += (double)c->b[i];
		if ((double)c->b[i] > o->max_ps)
			o->max_ps = (double)c->b[i];
	}
	o->span_ps = c->length;
	o->detours_per_s = (double)c->n / ((double)c->length /
					   (double)SIB_PS_PER_S);
	o->mean_ps = sum / (double)c->n;
	o->fraction = sum / (double)c->length;
}

/* --------------------------------------------------------- injector */

typedef struct inj_core {
	const noise_ops *ops;    /* NULL: noiseless */
	noise_src *src;
} inj_core;

struct noise_inj {
	uint32_t ncores;
	int active;
	inj_core *core;
};

int noise_inj_new(noise_inj **out, const noise_set *set,
		  const noise_params *p, char *err, size_t errlen)
{
	*out = NULL;
	if (p->scale_den <= 0 || p->scale_num < 0)
		return sib_errf(err, errlen, "noise scale %" PRId64 "/%" PRId64
			    " is not a ratio >= 0", p->scale_num,
			    p->scale_den);
	noise_inj *in = calloc(1, sizeof *in);
	uint32_t n = noise_set_ncores(set);
	if (!in || !(in->core = calloc(n ? n : 1, sizeof *in->core)))
		goto oom;
	in->ncores = n;
	for (uint32_t c = 0; c < n && p->scale_num; c++) {
		const core_noise *cn = &set->cores[c];
		int kind = noise_set_kind(set, c);
		if (kind == NOISE_PATTERN) {
			in->core[c].ops = &noise_pattern_ops;
			in->core[c].src = noise_pattern_new(cn->a, cn->b, cn->c,
							    cn->n, p->scale_num,
							    p->scale_den);
		} else if (kind == NOISE_CAPTURED) {
			in->core[c].ops = &noise_captured_ops;
			in->core[c].src = noise_captured_new(cn->a, cn->b, cn->n,
							     cn->length, p->seed,
							     p->cosched,
							     p->scale_num,
							     p->scale_den);
		} else {
			continue;
		}
		if (!in->core[c].src)
			goto oom;
		uint64_t fn, fd;
		in->core[c].ops->fraction(in->core[c].src, &fn, &fd);
		if (fn >= fd && fn) {
			sib_errf(err, errlen, "noise scale %" PRId64 "/%" PRId64
			     " makes the %s noise of core %u take %.4g%% of "
			     "the time or more: the core would never finish "
			     "anything; use a smaller scale", p->scale_num,
			     p->scale_den, in->core[c].ops->name, c,
			     100.0 * (double)fn / (double)fd);
			noise_inj_free(in);
			return -1;
		}
		if (fn)
			in->active = 1;
	}
	*out = in;
	return 0;
oom:
	noise_inj_free(in);
	return sib_errf(err, errlen, "out of memory building the noise");
}

void noise_inj_free(noise_inj *in)
{
	if (!in)
		return;
	for (uint32_t c = 0; in->core && c < in->ncores; c++)
		if (in->core[c].src)
			in->core[c].ops->free(in->core[c].src);
	free(in->core);
	free(in);
}

int noise_inj_active(const noise_inj *in)
{
	return in && in->active;
}

sib_ps noise_amount(const noise_inj *in, uint32_t node, uint32_t core,
			sib_ps t0, sib_ps t1)
{
	if (core >= in->ncores || !in->core[core].src || t1 <= t0)
		return 0;
	return in->core[core].ops->amount(in->core[core].src, node, core, t0,
					  t1);
}

static void cursor_reset(noise_cursor *c)
{
	c->pos = c->s;
	c->acc = 0;
	c->lastd = 0;
	c->next = c->ops->next(c->src, c->node, c->core, c->s);
}

void noise_cursor_init(const noise_inj *in, uint32_t node, uint32_t core,
		       sib_ps s, noise_cursor *c)
{
	c->s = s;
	c->node = node;
	c->core = core;
	if (core >= in->ncores || !in->core[core].src) {
		c->ops = NULL;
		c->src = NULL;
		return;
	}
	c->ops = in->core[core].ops;
	c->src = in->core[core].src;
	cursor_reset(c);
}

int noise_cursor_at(noise_cursor *c, sib_ps d, sib_ps *t, char *err,
		    size_t errlen)
{
	sib_ps s = c->s;
	*t = s + d;
	if (!c->ops || d <= 0)
		return 0;
	if (d < c->lastd)
		cursor_reset(c);
	c->lastd = d;
	/* Invariant: acc = N(s, pos), next = the first detour start >= pos,
	 * pos <= the least fixed point for d.  Iterating from below with a
	 * monotone N reaches the least fixed point. */
	sib_ps e = s + d + c->acc;
	for (unsigned it = 0; it < NOISE_MAX_ITER; it++) {
		if (c->next >= e) {
			*t = e;
			return 0;
		}
		sib_ps a = c->ops->amount(c->src, c->node, c->core, c->pos,
					      e);
		c->acc += a;
		c->pos = e;
		c->next = c->ops->next(c->src, c->node, c->core, e);
		if (__builtin_add_overflow(e, a, &e))
			return sib_errf(err, errlen, "noise on node %u core %u "
				    "extends work started at %" PRId64 " ps "
				    "beyond the time range", c->node, c->core,
				    s);
	}
	return sib_errf(err, errlen, "noise on node %u core %u: the end of %"
		    PRId64 " ps of work started at %" PRId64 " ps did not "
		    "settle after %d extensions (the noise takes nearly all "
		    "the time); use a smaller --noise-scale", c->node, c->core,
		    d, s, NOISE_MAX_ITER);
}

int noise_extend(const noise_inj *in, uint32_t node, uint32_t core,
		 sib_ps s, sib_ps d, sib_ps *end, char *err,
		 size_t errlen)
{
	noise_cursor c;
	noise_cursor_init(in, node, core, s, &c);
	return noise_cursor_at(&c, d, end, err, errlen);
}
