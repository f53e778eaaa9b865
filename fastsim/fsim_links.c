/*
 * fsim_links.c -- link statistics of a run: links.csv and
 * link_classes.csv (every run), the link time series of `sibyl sim
 * --link-trace' (linkseries.csv), and the helpers the tools that read
 * them share (link selections, CSV reading).  The file formats are in
 * docs/links.md.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"

/* Utilizations are written with this many decimals. */
#define UTIL_DECIMALS 9

#define SERIES_MEM_DEFAULT (UINT64_C(256) << 20)

/* ------------------------------------------------------------ helpers */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

char *fsim_fmt_ratio(char *buf, size_t len, unsigned __int128 num,
		     unsigned __int128 den, unsigned decimals)
{
	uint64_t scale = 1;
	if (decimals > 18)
		decimals = 18;
	for (unsigned i = 0; i < decimals; i++)
		scale *= 10;
	unsigned __int128 q = 0;
	if (den) {
		/* Halve the operands rather than overflow (not reached by
		 * the counts and times of a run). */
		const unsigned __int128 lim = ~(unsigned __int128)0 /
					      (4 * (unsigned __int128)scale);
		while (num > lim || den > lim) {
			num >>= 1;
			den >>= 1;
		}
		if (den)
			q = (2 * num * scale + den) / (2 * den);
	}
	unsigned __int128 ip = q / scale;
	uint64_t fp = (uint64_t)(q % scale);
	const uint64_t e19 = UINT64_C(10000000000000000000);
	int n;
	if (ip > UINT64_MAX)
		n = snprintf(buf, len, "%" PRIu64 "%019" PRIu64,
			     (uint64_t)(ip / e19), (uint64_t)(ip % e19));
	else
		n = snprintf(buf, len, "%" PRIu64, (uint64_t)ip);
	if (decimals && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ".%0*" PRIu64,
			 (int)decimals, fp);
	return buf;
}

void fsim_put_ratio(FILE *f, unsigned __int128 num, unsigned __int128 den,
		    unsigned decimals)
{
	char buf[64];
	fputs(fsim_fmt_ratio(buf, sizeof buf, num, den, decimals), f);
}

/*
 * Split one CSV line in place into at most max fields, dropping its end
 * of line.  Returns the number of fields (max + 1 when there are more),
 * or -1 when a quoted field is not closed or has more after its closing
 * quote.
 */
static int csv_split(char *line, char **fields, int max)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	int n = 0;
	char *p = line;
	for (;;) {
		char *w = p;
		if (n == max)
			return max + 1;   /* another field follows */
		fields[n++] = p;
		if (*p == '"') {
			/* Unquote in place: w trails the reading position. */
			char *r = p + 1;
			for (;;) {
				if (!*r)
					return -1;
				if (*r == '"') {
					if (r[1] != '"')
						break;
					r++;
				}
				*w++ = *r++;
			}
			r++;
			if (*r && *r != ',')
				return -1;
			*w = '\0';
			if (!*r)
				return n;
			p = r + 1;
			continue;
		}
		char *c = strchr(p, ',');
		if (!c)
			return n;
		*c = '\0';
		p = c + 1;
	}
}

/* ------------------------------------------------------ CSV reading */

#define CSV_MAXF 64

struct fsim_csv {
	FILE *f;
	char *path;
	char *line;
	size_t cap;
	uint64_t lineno;
	int nfields;              /* of the header, and so of every row */
	int ncols;
	int idx[CSV_MAXF];        /* column i is field idx[i] */
	const char *const *names;
	char *fields[CSV_MAXF + 1];
};

void fsim_csv_close(fsim_csv *c)
{
	if (!c)
		return;
	if (c->f)
		fclose(c->f);
	free(c->path);
	free(c->line);
	free(c);
}

/* Read a line into c->line and split it; fields or -1 with err. */
static int csv_line(fsim_csv *c, char *err, size_t errlen)
{
	errno = 0;
	if (getline(&c->line, &c->cap, c->f) < 0) {
		if (ferror(c->f))
			return sib_errf(err, errlen, "%s:%" PRIu64 ": read error: "
				    "%s", c->path, c->lineno + 1,
				    strerror(errno ? errno : EIO));
		return 0;
	}
	c->lineno++;
	int n = csv_split(c->line, c->fields, CSV_MAXF);
	if (n < 0)
		return sib_errf(err, errlen, "%s:%" PRIu64 ": a quoted field "
			    "is not closed properly", c->path, c->lineno);
	if (n > CSV_MAXF)
		return sib_errf(err, errlen, "%s:%" PRIu64 ": more than %d "
			    "fields", c->path, c->lineno, CSV_MAXF);
	return n;
}

int fsim_csv_open(fsim_csv **cp, const char *path, const char *const *cols,
		  int ncols, char *err, size_t errlen)
{
	*cp = NULL;
	if (ncols > CSV_MAXF)
		return sib_errf(err, errlen, "internal error: %d columns",
			    ncols);
	fsim_csv *c = calloc(1, sizeof *c);
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return sib_errf(err, errlen, "out of memory");
	}
	c->ncols = ncols;
	c->names = cols;
	c->f = fopen(path, "r");
	if (!c->f) {
		sib_errf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	int n = csv_line(c, err, errlen);
	if (n < 0)
		goto fail;
	if (n == 0) {
		sib_errf(err, errlen, "%s: the file is empty (it should start "
			  "with a header line)", path);
		goto fail;
	}
	c->nfields = n;
	for (int i = 0; i < ncols; i++) {
		c->idx[i] = -1;
		for (int k = 0; k < n; k++)
			if (strcmp(c->fields[k], cols[i]) == 0)
				c->idx[i] = k;
		if (c->idx[i] < 0) {
			sib_errf(err, errlen, "%s:1: the header has no column "
				  "'%s' (is it a file written by sibyl sim?)",
				  path, cols[i]);
			goto fail;
		}
	}
	*cp = c;
	return 0;
fail:
	fsim_csv_close(c);
	return -1;
}

int fsim_csv_next(fsim_csv *c, char *err, size_t errlen)
{
	int n = csv_line(c, err, errlen);
	if (n <= 0)
		return n;
	if (n == 1 && !c->fields[0][0])
		return sib_errf(err, errlen, "%s:%" PRIu64 ": an empty line",
			    c->path, c->lineno);
	if (n != c->nfields)
		return sib_errf(err, errlen, "%s:%" PRIu64 ": %d field%s where "
			    "the header has %d (the file is damaged or cut "
			    "short)", c->path, c->lineno, n, n == 1 ? "" : "s",
			    c->nfields);
	return 1;
}

const char *fsim_csv_get(const fsim_csv *c, int i)
{
	return c->fields[c->idx[i]];
}

int fsim_csv_fixed(const fsim_csv *c, int i, unsigned decimals,
		   uint64_t *out, char *err, size_t errlen)
{
	const char *s = fsim_csv_get(c, i), *p = s;
	unsigned __int128 v = 0;
	unsigned frac = 0;
	int digits = 0, point = 0;
	for (; *p; p++) {
		if (*p == '.' && !point && decimals) {
			point = 1;
			continue;
		}
		if (!is_digit(*p) || (point && frac == decimals))
			goto bad;
		v = v * 10 + (unsigned)(*p - '0');
		frac += point;
		digits++;
		if (v > UINT64_MAX)
			goto bad;
	}
	if (!digits)
		goto bad;
	for (; frac < decimals; frac++)
		v *= 10;
	if (v > UINT64_MAX)
		goto bad;
	*out = (uint64_t)v;
	return 0;
bad:
	if (decimals)
		return sib_errf(err, errlen, "%s:%" PRIu64 ": column '%s': '%s' "
			    "is not a non-negative decimal with at most %u "
			    "digits after the point", c->path, c->lineno,
			    c->names[i], s, decimals);
	return sib_errf(err, errlen, "%s:%" PRIu64 ": column '%s': '%s' is "
		    "not a whole number", c->path, c->lineno, c->names[i], s);
}

int fsim_csv_u64(const fsim_csv *c, int i, uint64_t *out, char *err,
		 size_t errlen)
{
	return fsim_csv_fixed(c, i, 0, out, err, errlen);
}

int fsim_names_index(fsim_names *s, const char *name, uint32_t *out)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0) {
			*out = i;
			return 0;
		}
	char **v = realloc(s->v, (s->n + 1) * sizeof *v);
	if (!v)
		return -1;
	s->v = v;
	if (!(v[s->n] = strdup(name)))
		return -1;
	*out = s->n++;
	return 0;
}

void fsim_names_free(fsim_names *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void fsim_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A decimal link id; *end after it.  -1 when absent or above 2^32-1. */
static int parse_id(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	if (!is_digit(*s))
		return -1;
	for (; is_digit(*s); s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return -1;
	}
	*end = s;
	*out = v;
	return 0;
}

/* "LL, LR, D" into err after what is there. */
static void list_classes(char *err, size_t errlen,
			 const char *const *class_names, uint32_t nclasses)
{
	for (uint32_t c = 0; c < nclasses; c++)
		sib_errcat(err, errlen, "%s%s", c ? ", " : "",
			    class_names[c] ? class_names[c] : "?");
	if (!nclasses)
		sib_errcat(err, errlen, "none");
}

/* One token of a selection: a class, an id, a range or "all". */
static int select_token(const char *tok, const char *what, const char *where,
			uint32_t nlinks, const uint32_t *class_of,
			const char *const *class_names, uint32_t nclasses,
			uint8_t *sel, char *err, size_t errlen)
{
	if (!*tok)
		return sib_errf(err, errlen, "%s: an empty item in the list; "
			    "write class names and link ids separated by "
			    "commas, e.g. nic-out,0-30,55", what);
	if (strcmp(tok, "all") == 0) {
		memset(sel, 1, nlinks);
		return 0;
	}
	if (!is_digit(*tok)) {
		for (uint32_t c = 0; c < nclasses; c++) {
			if (!class_names[c] || strcmp(class_names[c], tok))
				continue;
			for (uint32_t l = 0; l < nlinks; l++)
				if (class_of[l] == c)
					sel[l] = 1;
			return 0;
		}
		sib_errf(err, errlen, "%s: '%s' is not a link class of %s; "
			  "its classes are: ", what, tok, where);
		list_classes(err, errlen, class_names, nclasses);
		sib_errcat(err, errlen, " (or give link ids such as 0-30,55)");
		return -1;
	}
	uint64_t lo, hi;
	const char *e;
	if (parse_id(tok, &e, &lo))
		goto bad;
	hi = lo;
	if (*e == '-') {
		if (parse_id(e + 1, &e, &hi))
			goto bad;
	}
	if (*e)
		goto bad;
	if (hi < lo)
		return sib_errf(err, errlen, "%s: the range '%s' is empty; "
			    "write LOW-HIGH with LOW <= HIGH", what, tok);
	if (hi >= nlinks)
		return sib_errf(err, errlen, "%s: there is no link %" PRIu64
			    " in %s, whose links are numbered 0 to %lld",
			    what, hi, where, (long long)nlinks - 1);
	for (uint64_t l = lo; l <= hi; l++)
		sel[l] = 1;
	return 0;
bad:
	return sib_errf(err, errlen, "%s: '%s' is neither a link class nor "
		    "a link id or range (such as 55 or 0-30)", what, tok);
}

int fsim_link_select(const char *text, const char *what, const char *where,
		     uint32_t nlinks, const uint32_t *class_of,
		     const char *const *class_names, uint32_t nclasses,
		     uint8_t *sel, char *err, size_t errlen)
{
	char *copy = strdup(text ? text : "");
	if (!copy)
		return sib_errf(err, errlen, "out of memory");
	memset(sel, 0, nlinks);
	int rc = 0;
	char *p = copy;
	for (;;) {
		char *c = strchr(p, ',');
		if (c)
			*c = '\0';
		/* Spaces around items are allowed: "LL, D". */
		while (*p == ' ')
			p++;
		size_t l = strlen(p);
		while (l && p[l - 1] == ' ')
			p[--l] = '\0';
		rc = select_token(p, what, where, nlinks, class_of,
				  class_names, nclasses, sel, err, errlen);
		if (rc || !c)
			break;
		p = c + 1;
	}
	free(copy);
	return rc;
}

static const char *class_of_model(const netm_model *m, uint32_t cls)
{
	const char *n = cls < m->ops->nclasses(m) ?
			m->ops->class_name(m, cls) : NULL;
	return n ? n : "?";
}

static int has_links(const netm_model *m)
{
	return m->ops->nlinks && m->ops->nclasses && m->ops->class_name &&
	       m->ops->link;
}

/* ------------------------------------------------ links.csv, classes */

/* Keep link id in rec when it is more loaded than the link kept so far
 * (on a tie the lower id stays: ids come in increasing order). */
static void keep_max(fsim_link_rec *rec, int *have, uint32_t id,
		     const netm_link_info *li, const char *cls, int by_busy)
{
	if (*have && (by_busy ? li->busy <= rec->info.busy :
		      li->bytes <= rec->info.bytes))
		return;
	*have = 1;
	rec->id = id;
	snprintf(rec->cls, sizeof rec->cls, "%s", cls);
	rec->info = *li;
}

static void put_link_row(FILE *f, uint32_t id, const char *cls,
			 const netm_link_info *li, sib_ps predicted)
{
	fprintf(f, "%u,", id);
	fsim_csv_field(f, cls);
	fputc(',', f);
	fsim_csv_field(f, li->src);
	fputc(',', f);
	fsim_csv_field(f, li->dst);
	fprintf(f, ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 ",",
		li->bandwidth, li->bytes, li->packets, li->busy);
	fsim_put_ratio(f, (uint64_t)li->busy, (uint64_t)predicted,
		       UTIL_DECIMALS);
	fputc('\n', f);
}

/* Create DIR/NAME (path[4096] gets its name) and write its header. */
static FILE *csv_create(const char *dir, const char *name, const char *head,
			char *path, char *err, size_t errlen)
{
	snprintf(path, 4096, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		sib_errf(err, errlen, "%s: %s", path, strerror(errno));
	else
		fprintf(f, "%s\n", head);
	return f;
}

/* Finish a file of csv_create. */
static int csv_close(FILE *f, const char *path, char *err, size_t errlen)
{
	if (ferror(f) | fclose(f))
		return sib_errf(err, errlen, "%s: write error", path);
	return 0;
}

static int write_classes(const fsim_result *r, const char *dir, char *err,
			 size_t errlen)
{
	char path[4096];
	FILE *f = csv_create(dir, "link_classes.csv", "class,links,bytes,"
			     "packets,busy_ps,avg_bytes,avg_utilization,"
			     "max_utilization,max_bytes", path, err, errlen);
	if (!f)
		return -1;
	uint64_t pred = r->predicted > 0 ? (uint64_t)r->predicted : 0;
	for (uint32_t c = 0; c < r->nlink_classes; c++) {
		const fsim_link_class *k = &r->link_classes[c];
		fsim_csv_field(f, k->name);
		fprintf(f, ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
			k->links, k->bytes, k->packets, k->busy);
		fsim_put_ratio(f, k->bytes, k->links, 3);
		fputc(',', f);
		fsim_put_ratio(f, k->busy, (unsigned __int128)k->links * pred,
			       UTIL_DECIMALS);
		fputc(',', f);
		fsim_put_ratio(f, (uint64_t)k->max_busy, pred, UTIL_DECIMALS);
		fprintf(f, ",%" PRIu64 "\n", k->max_bytes);
	}
	return csv_close(f, path, err, errlen);
}

int fsim_links_write(const netm_model *m, const char *dir, fsim_result *r,
		     char *err, size_t errlen)
{
	uint32_t nlinks = has_links(m) ? m->ops->nlinks(m) : 0;
	uint32_t ncls = nlinks ? m->ops->nclasses(m) : 0;
	char path[4096];
	FILE *f = csv_create(dir, "links.csv", "link,class,src,dst,"
			     "bandwidth_Bps,bytes,packets,busy_ps,utilization",
			     path, err, errlen);
	if (!f)
		return -1;
	free(r->link_classes);
	r->link_classes = calloc(ncls ? ncls : 1, sizeof *r->link_classes);
	if (!r->link_classes) {
		fclose(f);
		return sib_errf(err, errlen, "out of memory");
	}
	r->nlink_classes = ncls;
	for (uint32_t c = 0; c < ncls; c++)
		snprintf(r->link_classes[c].name, sizeof r->link_classes[c].name,
			 "%s", class_of_model(m, c));
	int have_b = 0, have_t = 0;
	for (uint32_t id = 0; id < nlinks; id++) {
		netm_link_info li;
		m->ops->link(m, id, &li);
		if (li.cls >= ncls) {
			fclose(f);
			return sib_errf(err, errlen, "internal error: network "
				    "model '%s' puts link %u in class %u of %u",
				    m->ops->name, id, li.cls, ncls);
		}
		/* Endpoint names are the model's: make sure they end. */
		li.src[NETM_ENDPOINT_MAX - 1] = li.dst[NETM_ENDPOINT_MAX - 1] = 0;
		fsim_link_class *k = &r->link_classes[li.cls];
		put_link_row(f, id, k->name, &li, r->predicted);
		k->links++;
		k->bytes += li.bytes;
		k->packets += li.packets;
		k->busy += (uint64_t)li.busy;
		if (li.bytes > k->max_bytes)
			k->max_bytes = li.bytes;
		if (li.busy > k->max_busy)
			k->max_busy = li.busy;
		keep_max(&r->max_bytes, &have_b, id, &li, k->name, 0);
		keep_max(&r->max_busy, &have_t, id, &li, k->name, 1);
	}
	r->nlinks = nlinks;
	if (csv_close(f, path, err, errlen))
		return -1;
	return write_classes(r, dir, err, errlen);
}

/* ------------------------------------------------------ time series */

struct fsim_series {
	sib_ps interval;
	uint64_t mem_limit;       /* bytes of cells at most */
	uint32_t nlinks;
	uint32_t nsel;
	uint32_t *slot;           /* per link: column, or UINT32_MAX */
	uint32_t *link_of;        /* per column: link id */
	int64_t *cells;           /* [interval][column] busy ps */
	uint64_t nbins, cap_bins; /* intervals used, allocated */
};

/* SIBYL_LINK_TRACE_MEM: bytes, plain decimal. */
static int series_limit(uint64_t *out, char *err, size_t errlen)
{
	const char *v = getenv("SIBYL_LINK_TRACE_MEM");
	*out = SERIES_MEM_DEFAULT;
	if (!v || !*v)
		return 0;
	uint64_t x = 0;
	const char *p = v;
	for (; is_digit(*p); p++) {
		if (x > (UINT64_MAX - 9) / 10)
			break;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (*p || x == 0)
		return sib_errf(err, errlen, "SIBYL_LINK_TRACE_MEM='%s': give "
			    "the memory the link time series may use as a "
			    "number of bytes, e.g. 1073741824", v);
	*out = x;
	return 0;
}

int fsim_series_new(fsim_series **sp, sib_ps interval, char *err,
		    size_t errlen)
{
	*sp = NULL;
	if (interval <= 0)
		return sib_errf(err, errlen, "the link trace interval must be "
			    "greater than 0 (got %" PRId64 " ps)", interval);
	fsim_series *s = calloc(1, sizeof *s);
	if (!s)
		return sib_errf(err, errlen, "out of memory");
	s->interval = interval;
	if (series_limit(&s->mem_limit, err, errlen)) {
		free(s);
		return -1;
	}
	*sp = s;
	return 0;
}

void fsim_series_free(fsim_series *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s->link_of);
	free(s->cells);
	free(s);
}

/* "256.00 MiB", "1000 bytes" */
static void mem_words(char *buf, size_t len, uint64_t b)
{
	if (b < (UINT64_C(1) << 20))
		snprintf(buf, len, "%" PRIu64 " bytes", b);
	else
		snprintf(buf, len, "%.2f MiB", (double)b / (1024.0 * 1024.0));
}

int fsim_series_select(fsim_series *s, const netm_model *m,
		       const char *text, char *err, size_t errlen)
{
	if (!has_links(m) || m->ops->nlinks(m) == 0)
		return sib_errf(err, errlen, "--link-trace: network model '%s' "
			    "has no links to record", m->ops->name);
	uint32_t n = m->ops->nlinks(m), ncls = m->ops->nclasses(m);
	uint32_t *class_of = malloc((size_t)n * sizeof *class_of);
	const char **names = malloc((ncls ? ncls : 1) * sizeof *names);
	uint8_t *sel = malloc(n);
	int rc = -1;
	if (!class_of || !names || !sel) {
		sib_errf(err, errlen, "out of memory for a selection of %u "
			  "links", n);
		goto out;
	}
	for (uint32_t c = 0; c < ncls; c++)
		names[c] = m->ops->class_name(m, c);
	for (uint32_t id = 0; id < n; id++) {
		netm_link_info li;
		m->ops->link(m, id, &li);
		class_of[id] = li.cls;
	}
	if (fsim_link_select(text ? text : "all", "--link-select",
			     "the model", n, class_of, names, ncls, sel, err,
			     errlen))
		goto out;
	s->nlinks = n;
	s->nsel = 0;
	s->slot = malloc((size_t)n * sizeof *s->slot);
	if (!s->slot) {
		sib_errf(err, errlen, "out of memory");
		goto out;
	}
	for (uint32_t id = 0; id < n; id++)
		s->slot[id] = sel[id] ? s->nsel++ : UINT32_MAX;
	if (!s->nsel) {
		sib_errf(err, errlen, "--link-select: '%s' chooses no link (the "
			  "model has no link of those classes)",
			  text ? text : "all");
		goto out;
	}
	s->link_of = malloc((s->nsel ? s->nsel : 1) * sizeof *s->link_of);
	if (!s->link_of) {
		sib_errf(err, errlen, "out of memory");
		goto out;
	}
	for (uint32_t id = 0; id < n; id++)
		if (sel[id])
			s->link_of[s->slot[id]] = id;
	if ((uint64_t)s->nsel * sizeof(int64_t) > s->mem_limit) {
		char lim[64];
		mem_words(lim, sizeof lim, s->mem_limit);
		sib_errf(err, errlen, "--link-trace: %u links selected need "
			  "more than %s for a single interval; record fewer "
			  "with --link-select (a class such as --link-select "
			  "%s, or id ranges such as 0-999), or raise "
			  "SIBYL_LINK_TRACE_MEM", s->nsel, lim,
			  names[0] ? names[0] : "0-999");
		goto out;
	}
	rc = 0;
out:
	free(class_of);
	free(names);
	free(sel);
	return rc;
}

/* Make room for intervals 0..bin. */
static int series_grow(fsim_series *s, uint64_t bin, char *err,
		       size_t errlen)
{
	uint64_t per = (uint64_t)s->nsel * sizeof(int64_t);
	uint64_t maxbins = per ? s->mem_limit / per : UINT64_MAX;
	if (bin >= maxbins) {
		char lim[64], iv[64];
		mem_words(lim, sizeof lim, s->mem_limit);
		snprintf(iv, sizeof iv, "%" PRId64 " ps", s->interval);
		return sib_errf(err, errlen, "--link-trace: the time series "
			    "of %u links at intervals of %s needs more than "
			    "%s, which holds %" PRIu64 " intervals, %" PRIu64
			    " ps of simulated time, and the run goes on; "
			    "record fewer links with --link-select (one class, "
			    "or an id range), or choose a longer interval, or "
			    "raise SIBYL_LINK_TRACE_MEM (bytes)", s->nsel, iv,
			    lim, maxbins, maxbins * (uint64_t)s->interval);
	}
	uint64_t cap = s->cap_bins ? s->cap_bins : 64;
	while (cap <= bin)
		cap = cap > maxbins / 2 ? maxbins : cap * 2;
	if (cap > maxbins)
		cap = maxbins;
	int64_t *c = realloc(s->cells, (size_t)(cap * per));
	if (!c)
		return sib_errf(err, errlen, "out of memory for the link time "
			    "series (%" PRIu64 " intervals of %u links)", cap,
			    s->nsel);
	memset(c + s->cap_bins * s->nsel, 0,
	       (size_t)((cap - s->cap_bins) * per));
	s->cells = c;
	s->cap_bins = cap;
	return 0;
}

int fsim_series_add(fsim_series *s, uint32_t link, sib_ps start,
		    sib_ps end, char *err, size_t errlen)
{
	if (link >= s->nlinks || start < 0 || end < start)
		return sib_errf(err, errlen, "internal error: the network "
			    "model reported link %u busy from %" PRId64 " to %"
			    PRId64 " ps (it has %u links)", link, start, end,
			    s->nlinks);
	uint32_t col = s->slot[link];
	if (col == UINT32_MAX || end == start)
		return 0;
	uint64_t iv = (uint64_t)s->interval;
	uint64_t b0 = (uint64_t)start / iv, b1 = ((uint64_t)end - 1) / iv;
	if (b1 >= s->cap_bins) {
		int rc = series_grow(s, b1, err, errlen);
		if (rc)
			return SIB_ECONFIG;
	}
	if (b1 >= s->nbins)
		s->nbins = b1 + 1;
	for (uint64_t b = b0; b <= b1; b++) {
		uint64_t lo = b * iv, hi = lo + iv;
		if (lo < (uint64_t)start)
			lo = (uint64_t)start;
		if (hi > (uint64_t)end)
			hi = (uint64_t)end;
		s->cells[b * s->nsel + col] += (int64_t)(hi - lo);
	}
	return 0;
}

int fsim_series_write(const fsim_series *s, const netm_model *m,
		      const char *dir, sib_ps end, char *err,
		      size_t errlen)
{
	uint64_t iv = (uint64_t)s->interval;
	uint64_t nbins = end > 0 ? ((uint64_t)end + iv - 1) / iv : 0;
	if (s->nbins > nbins)
		nbins = s->nbins;
	char path[4096];
	FILE *f = csv_create(dir, "linkseries.csv", "start_ps,end_ps,link,"
			     "class,busy_ps,utilization", path, err, errlen);
	if (!f)
		return -1;
	const char **cls = malloc((s->nsel ? s->nsel : 1) * sizeof *cls);
	if (!cls) {
		fclose(f);
		return sib_errf(err, errlen, "out of memory");
	}
	for (uint32_t j = 0; j < s->nsel; j++) {
		netm_link_info li;
		m->ops->link(m, s->link_of[j], &li);
		cls[j] = class_of_model(m, li.cls);
	}
	for (uint64_t b = 0; b < nbins; b++) {
		for (uint32_t j = 0; j < s->nsel; j++) {
			int64_t busy = b < s->nbins ? s->cells[b * s->nsel + j]
						     : 0;
			fprintf(f, "%" PRIu64 ",%" PRIu64 ",%u,", b * iv,
				b * iv + iv, s->link_of[j]);
			fsim_csv_field(f, cls[j]);
			fprintf(f, ",%" PRId64 ",", busy);
			fsim_put_ratio(f, (uint64_t)busy, iv, UTIL_DECIMALS);
			fputc('\n', f);
		}
	}
	free(cls);
	return csv_close(f, path, err, errlen);
}
