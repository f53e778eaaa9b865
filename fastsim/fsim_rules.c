/*
 * fsim_rules.c -- replacement rules: message sizes and SEB durations
 * changed at replay time (syntax in fsim.h and docs/machine.md).
 *
 * Rules are kept in the order given, and also grouped per SEB name so
 * that fsim_rules_for_name() hands the engine ready-made arrays: the
 * engine asks once per distinct name, then applies them per SEB without
 * touching strings.  region: rules are kept apart, in order, and matched
 * against each distinct region string once (fsim_rules_for_region); every
 * duration rule carries its place in the order given, so that the engine
 * finds the first match among the rules of an SEB's name and region.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsim.h"
#include "sib_text.h"
#include "sib_units.h"

#define RULES_MAGIC 0x7372756cu /* "srul" */

#define RULES_CHECK(r) do { if (!(r) || (r)->magic != RULES_MAGIC) { \
	fprintf(stderr, "fastsim: internal error at %s:%d: %s called with " \
		"an invalid rules handle\n", __FILE__, __LINE__, __func__); \
	abort(); } } while (0)

typedef enum rule_kind {
	R_SIZE_EQ, R_SIZE_GE, R_SEB, R_SCALE, R_REGION
} rule_kind;

typedef struct rule {
	rule_kind kind;
	uint64_t size, to;        /* size rules: S or CUT, and NEW */
	char *name;               /* seb: and scale: rules; region: pattern */
	sib_ps cut, dur;       /* seb:, region: (cut -1 when none) */
	int64_t num, den;         /* scale: */
	char *origin;
} rule;

/* Everything that applies to one SEB name. */
typedef struct name_rules {
	char *name;
	int nseb;
	sib_ps *cut, *dur;
	uint32_t *order;
	int has_scale;
	int64_t num, den;
} name_rules;

typedef struct size_rule {
	uint64_t size, to;
} size_rule;

struct fsim_rules {
	unsigned magic;
	rule *r;
	size_t n, cap;
	name_rules *names;
	size_t nnames;
	size_rule *eq, *ge;       /* size rules by kind, in order given */
	size_t neq, nge;
	uint32_t *regions;        /* region: rules, indices into r[] */
	size_t nregions;
	int64_t fnum, fden;       /* cpu.factor */
};

/*
 * (an/ad) * (bn/bd), reduced.  Both inputs are non-negative with
 * denominators > 0, so the product fits 128 bits; when even the reduced
 * result does not fit int64 (two ratios of 18 digits each), it is
 * approximated by halving both terms, a relative error below 2^-62.
 */
static void ratio_mul(int64_t an, int64_t ad, int64_t bn, int64_t bd,
		      int64_t *n, int64_t *d)
{
	unsigned __int128 N = (unsigned __int128)an * (uint64_t)bn;
	unsigned __int128 D = (unsigned __int128)ad * (uint64_t)bd;
	unsigned __int128 g = sib_gcd128(N, D);

	if (!N) {
		*n = 0;
		*d = 1;
		return;
	}
	N /= g;
	D /= g;
	while (N > INT64_MAX || D > INT64_MAX) {
		N = (N + 1) >> 1;
		D = (D + 1) >> 1;
	}
	g = sib_gcd128(N, D);
	*n = (int64_t)(N / g);
	*d = (int64_t)(D / g);
}

int fsim_rules_new(fsim_rules **rp)
{
	fsim_rules *r = calloc(1, sizeof *r);
	if (!r)
		return -1;
	r->magic = RULES_MAGIC;
	r->fnum = r->fden = 1;
	*rp = r;
	return 0;
}

static void rule_free(rule *x)
{
	free(x->name);
	free(x->origin);
}

void fsim_rules_free(fsim_rules *r)
{
	if (!r)
		return;
	RULES_CHECK(r);
	for (size_t i = 0; i < r->n; i++)
		rule_free(&r->r[i]);
	for (size_t i = 0; i < r->nnames; i++) {
		free(r->names[i].name);
		free(r->names[i].cut);
		free(r->names[i].dur);
		free(r->names[i].order);
	}
	free(r->regions);
	free(r->r);
	free(r->names);
	free(r->eq);
	free(r->ge);
	r->magic = 0;
	free(r);
}

/* ----------------------------------------------------------- parsing */

/* A value of the rule: a size, a duration or a ratio, named for errors. */
static int rule_value(sib_ptype type, const char *what, const char *text,
		      size_t len, sib_value *v, char *err, size_t errlen)
{
	sib_param p = { what, type, NULL, NULL, NULL };
	char buf[128];

	while (len && sib_is_space(*text)) {
		text++;
		len--;
	}
	while (len && sib_is_space(text[len - 1]))
		len--;
	if (len >= sizeof buf)
		return sib_errf(err, errlen, "%s: '%.40s...' is too long", what,
			    text);
	memcpy(buf, text, len);
	buf[len] = '\0';
	return sib_parse_value(&p, NULL, buf, v, err, errlen);
}

static char *trimmed_dup(const char *s, size_t len)
{
	while (len && sib_is_space(*s)) {
		s++;
		len--;
	}
	while (len && sib_is_space(s[len - 1]))
		len--;
	char *d = malloc(len + 1);
	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

static const char *last_of(const char *s, size_t len, char ch)
{
	const char *found = NULL;
	for (size_t i = 0; i < len; i++)
		if (s[i] == ch)
			found = s + i;
	return found;
}

/*
 * The body of seb: or scale: after the colon: NAME [>CUT] = VALUE.
 * An unquoted name ends at the last '=' and, when cut is wanted, at the
 * last '>' before it; a quoted name ends at its closing quote.
 */
static int parse_named_rule(const char *body, int want_cut, char **name,
			    const char **cut, size_t *cutlen,
			    const char **val, const char *what, char *err,
			    size_t errlen)
{
	const char *s = body, *eq;

	*cut = NULL;
	*cutlen = 0;
	while (sib_is_space(*s))
		s++;
	if (*s == '"') {
		const char *end;
		if (!(*name = sib_unquote(s + 1, &end)))
			return sib_errf(err, errlen, "out of memory");
		if (!end)
			return sib_errf(err, errlen, "the quoted %s has no "
				    "closing quote", what);
		while (sib_is_space(*end))
			end++;
		eq = *end == '=' ? end : strrchr(end, '=');
		if (want_cut && *end == '>' && eq) {
			*cut = end + 1;
			*cutlen = (size_t)(eq - *cut);
		} else if (*end != '=') {
			return sib_errf(err, errlen, "expected '%s' after the "
				    "quoted name", want_cut ? "=DUR or >CUT=DUR"
				    : "=F");
		}
	} else {
		eq = strrchr(s, '=');
		if (!eq)
			return sib_errf(err, errlen, "expected %s",
				    want_cut ? "seb:NAME=DUR or "
				    "seb:NAME>CUT=DUR" : "scale:NAME=F");
		const char *gt = want_cut ? last_of(s, (size_t)(eq - s), '>')
					  : NULL;
		const char *nend = gt ? gt : eq;
		if (gt) {
			*cut = gt + 1;
			*cutlen = (size_t)(eq - *cut);
		}
		if (!(*name = trimmed_dup(s, (size_t)(nend - s))))
			return sib_errf(err, errlen, "out of memory");
	}
	if (!**name)
		return sib_errf(err, errlen, "the %s is empty", what);
	*val = eq + 1;
	return 0;
}

/*
 * The body of a region: rule after the colon: PATTERN [>CUT] = DUR.  A
 * quoted pattern ends at its closing quote, as a quoted SEB name does.
 * An unquoted one runs to the last '='; the text after its last '>' is
 * CUT when it reads as a duration, and otherwise part of the pattern (a
 * region is "BEGIN > END", and a call site never reads as a duration).
 */
static int parse_region_rule(const char *body, rule *x, const char **cut,
			     size_t *cutlen, const char **val, char *err,
			     size_t errlen)
{
	const char *s = body, *eq, *gt;

	while (sib_is_space(*s))
		s++;
	if (*s == '"')
		return parse_named_rule(body, 1, &x->name, cut, cutlen, val,
					"region pattern", err, errlen);
	*cut = NULL;
	*cutlen = 0;
	eq = strrchr(s, '=');
	if (!eq)
		return sib_errf(err, errlen, "expected region:PATTERN=DUR or "
			    "region:PATTERN>CUT=DUR");
	gt = last_of(s, (size_t)(eq - s), '>');
	if (gt) {
		sib_value v;
		char scratch[256];

		if (rule_value(SIB_P_TIME, "CUT", gt + 1,
			       (size_t)(eq - gt - 1), &v, scratch,
			       sizeof scratch) == 0) {
			*cut = gt + 1;
			*cutlen = (size_t)(eq - *cut);
		} else {
			gt = NULL;
		}
	}
	if (!(x->name = trimmed_dup(s, (size_t)((gt ? gt : eq) - s))))
		return sib_errf(err, errlen, "out of memory");
	if (!*x->name)
		return sib_errf(err, errlen, "the region pattern is empty");
	*val = eq + 1;
	return 0;
}

/* Parse one rule (trimmed, not empty) into x. */
static int parse_rule(const char *text, rule *x, char *err, size_t errlen)
{
	const char *s = text, *val = NULL, *cut;
	size_t cutlen;
	sib_value v;

	memset(x, 0, sizeof *x);
	if (strncmp(s, "size", 4) == 0) {
		s += 4;
		while (sib_is_space(*s))
			s++;
		if (s[0] == '>' && s[1] == '=') {
			x->kind = R_SIZE_GE;
			s += 2;
		} else if (s[0] == '=') {
			x->kind = R_SIZE_EQ;
			s++;
		} else {
			return sib_errf(err, errlen, "expected size>=CUT:NEW or "
				    "size=S:NEW");
		}
		const char *colon = strchr(s, ':');
		if (!colon)
			return sib_errf(err, errlen, "expected ':' before the new "
				    "size, as in %s",
				    x->kind == R_SIZE_GE ? "size>=1MiB:4KiB"
				    : "size=4096:0");
		if (rule_value(SIB_P_SIZE, x->kind == R_SIZE_GE ? "CUT" : "S",
			       s, (size_t)(colon - s), &v, err, errlen))
			return -1;
		x->size = (uint64_t)v.i;
		if (rule_value(SIB_P_SIZE, "NEW", colon + 1,
			       strlen(colon + 1), &v, err, errlen))
			return -1;
		x->to = (uint64_t)v.i;
		return 0;
	}

	int is_seb = strncmp(s, "seb", 3) == 0;
	int is_scale = strncmp(s, "scale", 5) == 0;
	int is_region = strncmp(s, "region", 6) == 0;
	if (is_seb || is_scale || is_region) {
		s += is_seb ? 3 : is_scale ? 5 : 6;
		while (sib_is_space(*s))
			s++;
	}
	if ((!is_seb && !is_scale && !is_region) || *s != ':')
		return sib_errf(err, errlen, "unknown rule; a rule starts with "
			    "size>=, size=, seb:, region: or scale:");
	s++;
	if (is_region) {
		if (parse_region_rule(s, x, &cut, &cutlen, &val, err, errlen))
			return -1;
	} else if (parse_named_rule(s, is_seb, &x->name, &cut, &cutlen, &val,
				    "SEB name", err, errlen)) {
		return -1;
	}
	if (is_scale) {
		x->kind = R_SCALE;
		if (rule_value(SIB_P_RATIO, "F", val, strlen(val), &v, err,
			       errlen))
			return -1;
		x->num = v.num;
		x->den = v.den;
		return 0;
	}
	x->kind = is_region ? R_REGION : R_SEB;
	x->cut = -1;
	if (cut) {
		if (rule_value(SIB_P_TIME, "CUT", cut, cutlen, &v, err,
			       errlen)) {
			size_t n = strlen(err ? err : "");
			if (err && n + 1 < errlen && !is_region)
				snprintf(err + n, errlen - n, " (if '>' is "
					 "part of the SEB name, quote the "
					 "name: seb:\"a>b\"=1ms)");
			return -1;
		}
		x->cut = v.i;
	}
	if (rule_value(SIB_P_TIME, "DUR", val, strlen(val), &v, err,
		       errlen))
		return -1;
	x->dur = v.i;
	return 0;
}

/* --------------------------------------------------------- committing */

static name_rules *name_get(fsim_rules *r, const char *name, int create)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (strcmp(r->names[i].name, name) == 0)
			return &r->names[i];
	if (!create)
		return NULL;
	name_rules *p = realloc(r->names, (r->nnames + 1) * sizeof *p);
	if (!p)
		return NULL;
	r->names = p;
	p = &r->names[r->nnames];
	memset(p, 0, sizeof *p);
	p->num = p->den = 1;
	if (!(p->name = strdup(name)))
		return NULL;
	r->nnames++;
	return p;
}

static int size_push(size_rule **a, size_t *n, uint64_t size, uint64_t to)
{
	size_rule *p = realloc(*a, (*n + 1) * sizeof *p);
	if (!p)
		return -1;
	p[*n].size = size;
	p[*n].to = to;
	*a = p;
	(*n)++;
	return 0;
}

/* Index x (already in r->r) for lookups.  Out of memory leaves r usable
 * and reports failure. */
static int index_rule(fsim_rules *r, const rule *x, uint32_t order)
{
	name_rules *nr;

	switch (x->kind) {
	case R_SIZE_EQ:
		return size_push(&r->eq, &r->neq, x->size, x->to);
	case R_SIZE_GE:
		return size_push(&r->ge, &r->nge, x->size, x->to);
	case R_SEB: {
		if (!(nr = name_get(r, x->name, 1)))
			return -1;
		sib_ps *c = realloc(nr->cut, (nr->nseb + 1) * sizeof *c);
		if (!c)
			return -1;
		nr->cut = c;
		sib_ps *d = realloc(nr->dur, (nr->nseb + 1) * sizeof *d);
		if (!d)
			return -1;
		nr->dur = d;
		uint32_t *o = realloc(nr->order, (nr->nseb + 1) * sizeof *o);
		if (!o)
			return -1;
		nr->order = o;
		nr->cut[nr->nseb] = x->cut;
		nr->dur[nr->nseb] = x->dur;
		nr->order[nr->nseb] = order;
		nr->nseb++;
		return 0;
	}
	case R_REGION: {
		uint32_t *p = realloc(r->regions, (r->nregions + 1) * sizeof *p);
		if (!p)
			return -1;
		r->regions = p;
		r->regions[r->nregions++] = order;
		return 0;
	}
	case R_SCALE:
		if (!(nr = name_get(r, x->name, 1)))
			return -1;
		/* The first scale: rule of a name wins, like every other
		 * kind of rule. */
		if (!nr->has_scale) {
			nr->has_scale = 1;
			nr->num = x->num;
			nr->den = x->den;
		}
		return 0;
	}
	return -1;
}

char *fsim_rules_next(const char **sp)
{
	const char *s = *sp, *start = s;
	int q = 0;
	for (; *s && (q || *s != ';'); s++) {
		if (*s == '\\' && q && (s[1] == '"' || s[1] == '\\'))
			s++;
		else if (*s == '"')
			q = !q;
	}
	*sp = *s == ';' ? s + 1 : s;
	return trimmed_dup(start, (size_t)(s - start));
}

int fsim_rules_target(const char *text, int *is_region, char **key,
		      const char **val, char *err, size_t errlen)
{
	const char *s = text, *cut = NULL;
	size_t cutlen = 0;
	rule x;
	int rc;

	memset(&x, 0, sizeof x);
	*key = NULL;
	*is_region = strncmp(s, "region", 6) == 0;
	if (!*is_region && strncmp(s, "seb", 3) != 0)
		return sib_errf(err, errlen, "unknown rule; a rule starts with "
			    "seb: or region:");
	s += *is_region ? 6 : 3;
	while (sib_is_space(*s))
		s++;
	if (*s++ != ':')
		return sib_errf(err, errlen, "expected ':' after '%s'",
			    *is_region ? "region" : "seb");
	rc = *is_region ? parse_region_rule(s, &x, &cut, &cutlen, val, err,
					    errlen) :
	     parse_named_rule(s, 1, &x.name, &cut, &cutlen, val, "SEB name",
			      err, errlen);
	if (!rc && cut)
		rc = sib_errf(err, errlen, "this rule has no cut-off (>CUT)");
	if (rc) {
		free(x.name);
		return -1;
	}
	*key = x.name;
	return 0;
}

int fsim_rules_add(fsim_rules *r, const char *text, const char *origin,
		   char *err, size_t errlen)
{
	rule *tmp = NULL;
	size_t ntmp = 0, i;
	char msg[1024];
	const char *s = text;

	RULES_CHECK(r);
	if (!origin)
		origin = "--replace";
	if (!text)
		return 0;
	/* Split at ';' outside quotes, parse everything, and only then
	 * add: a bad rule leaves r as it was. */
	while (*s) {
		char *one = fsim_rules_next(&s);
		if (!one)
			goto out_of_memory;
		if (!*one) {
			free(one);
			continue;
		}
		rule *p = realloc(tmp, (ntmp + 1) * sizeof *p);
		if (!p) {
			free(one);
			goto out_of_memory;
		}
		tmp = p;
		if (parse_rule(one, &tmp[ntmp], msg, sizeof msg)) {
			rule_free(&tmp[ntmp]);
			sib_errf(err, errlen, "%s: rule '%s': %s", origin, one,
			     msg);
			free(one);
			goto out_with_tmp;
		}
		free(one);
		if (!(tmp[ntmp++].origin = strdup(origin)))
			goto out_of_memory;
	}

	if (r->n + ntmp > r->cap) {
		size_t cap = r->cap ? r->cap : 8;
		while (cap < r->n + ntmp)
			cap *= 2;
		rule *p = realloc(r->r, cap * sizeof *p);
		if (!p)
			goto out_of_memory;
		r->r = p;
		r->cap = cap;
	}
	for (i = 0; i < ntmp; i++) {
		if (r->n >= UINT32_MAX) {
			for (; i < ntmp; i++)
				rule_free(&tmp[i]);
			free(tmp);
			return sib_errf(err, errlen, "%s: too many replacement "
				    "rules", origin);
		}
		r->r[r->n++] = tmp[i];
		if (index_rule(r, &tmp[i], (uint32_t)(r->n - 1))) {
			/* The rules already indexed stay; the rest go. */
			for (i++; i < ntmp; i++)
				rule_free(&tmp[i]);
			free(tmp);
			return sib_errf(err, errlen, "%s: out of memory adding "
				    "replacement rules", origin);
		}
	}
	free(tmp);
	return 0;

out_of_memory:
	sib_errf(err, errlen, "%s: out of memory reading replacement rules",
	     origin);
out_with_tmp:
	for (i = 0; i < ntmp; i++)
		rule_free(&tmp[i]);
	free(tmp);
	return -1;
}

void fsim_rules_set_cpu_factor(fsim_rules *r, int64_t num, int64_t den)
{
	RULES_CHECK(r);
	if (num < 0 || den <= 0) {
		fprintf(stderr, "fastsim: internal error at %s:%d: cpu factor "
			"%lld/%lld is not a positive ratio\n", __FILE__,
			__LINE__, (long long)num, (long long)den);
		abort();
	}
	uint64_t g = (uint64_t)sib_gcd128((uint64_t)num, (uint64_t)den);
	r->fnum = num ? (int64_t)((uint64_t)num / g) : 0;
	r->fden = num ? (int64_t)((uint64_t)den / g) : 1;
}

int fsim_rules_empty(const fsim_rules *r)
{
	RULES_CHECK(r);
	return r->n == 0 && r->fnum == r->fden;
}

size_t fsim_rules_count(const fsim_rules *r)
{
	RULES_CHECK(r);
	return r->n;
}

/* ------------------------------------------------------------ lookups */

/* Called once per message: no handle check here, the handle was checked
 * when the rules were built. */
uint64_t fsim_rules_size(const fsim_rules *r, uint64_t size)
{
	for (size_t i = 0; i < r->neq; i++)
		if (r->eq[i].size == size)
			return r->eq[i].to;
	for (size_t i = 0; i < r->nge; i++)
		if (size >= r->ge[i].size)
			return r->ge[i].to;
	return size;
}

void fsim_rules_for_name(const fsim_rules *r, const char *name,
			 fsim_durrule *out)
{
	RULES_CHECK(r);
	const name_rules *nr = NULL;

	for (size_t i = 0; name && i < r->nnames; i++)
		if (strcmp(r->names[i].name, name) == 0) {
			nr = &r->names[i];
			break;
		}
	memset(out, 0, sizeof *out);
	if (nr) {
		out->nrules = nr->nseb;
		out->cut = nr->cut;
		out->dur = nr->dur;
		out->order = nr->order;
	}
	ratio_mul(nr && nr->has_scale ? nr->num : 1,
		  nr && nr->has_scale ? nr->den : 1, r->fnum, r->fden,
		  &out->num, &out->den);
}

int fsim_rules_have_regions(const fsim_rules *r)
{
	RULES_CHECK(r);
	return r->nregions != 0;
}

int fsim_rules_for_region(const fsim_rules *r, const char *region,
			  fsim_durrule *out)
{
	RULES_CHECK(r);
	size_t n = 0, i;

	memset(out, 0, sizeof *out);
	out->num = out->den = 1;
	if (!region || !*region)
		return 0;
	for (i = 0; i < r->nregions; i++)
		n += fnmatch(r->r[r->regions[i]].name, region, 0) == 0;
	if (!n)
		return 0;
	/* One block: cut[n], dur[n], order[n]. */
	char *blk = malloc(n * (2 * sizeof(sib_ps) + sizeof(uint32_t)));
	if (!blk)
		return -1;
	sib_ps *cut = (sib_ps *)(void *)blk, *dur = cut + n;
	uint32_t *order = (uint32_t *)(void *)(dur + n);
	size_t k = 0;
	for (i = 0; i < r->nregions; i++) {
		const rule *x = &r->r[r->regions[i]];
		if (fnmatch(x->name, region, 0) != 0)
			continue;
		cut[k] = x->cut;
		dur[k] = x->dur;
		order[k] = r->regions[i];
		k++;
	}
	out->nrules = (int)n;
	out->cut = cut;
	out->dur = dur;
	out->order = order;
	return 0;
}

void fsim_durrule_release(fsim_durrule *d)
{
	free((void *)(uintptr_t)d->cut);
	memset(d, 0, sizeof *d);
}

/* ----------------------------------------------------------- describe */

static void print_time(FILE *f, sib_ps t)
{
	static const struct {
		const char *unit;
		int64_t ps;
	} units[] = {
		{ "s", INT64_C(1000000000000) }, { "ms", 1000000000 },
		{ "us", 1000000 }, { "ns", 1000 },
	};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (t && t % units[i].ps == 0) {
			fprintf(f, "%lld%s", (long long)(t / units[i].ps),
				units[i].unit);
			return;
		}
	fprintf(f, "%lld%s", (long long)t, t ? "ps" : "");
}

static void print_size(FILE *f, uint64_t b)
{
	static const char *const iec[] = { "TiB", "GiB", "MiB", "KiB" };
	static const char *const si[] = { "TB", "GB", "MB", "kB" };
	for (int i = 0; i < 4 && b; i++) {
		uint64_t m = UINT64_C(1) << (10 * (4 - i));
		if (b % m == 0) {
			fprintf(f, "%llu%s", (unsigned long long)(b / m),
				iec[i]);
			return;
		}
	}
	uint64_t m = UINT64_C(1000000000000);
	for (int i = 0; i < 4 && b; i++, m /= 1000)
		if (b % m == 0) {
			fprintf(f, "%llu%s", (unsigned long long)(b / m),
				si[i]);
			return;
		}
	fprintf(f, "%lluB", (unsigned long long)b);
}

/* A ratio as a decimal when it has one of at most 18 places, else n/d. */
static void print_ratio(FILE *f, int64_t num, int64_t den)
{
	uint64_t d = (uint64_t)den, p10 = 1;
	int places = 0;

	while (d % 2 == 0 || d % 5 == 0) {
		d /= d % 2 == 0 ? 2 : 5;
	}
	if (d == 1) {
		while (p10 % (uint64_t)den && places < 18) {
			p10 *= 10;
			places++;
		}
		unsigned __int128 scaled = (unsigned __int128)num *
					   (p10 / (uint64_t)den);
		uint64_t ip = (uint64_t)(scaled / p10);
		uint64_t fp = (uint64_t)(scaled % p10);
		if (p10 % (uint64_t)den == 0 && scaled / p10 <= UINT64_MAX) {
			if (places)
				fprintf(f, "%llu.%0*llu",
					(unsigned long long)ip, places,
					(unsigned long long)fp);
			else
				fprintf(f, "%llu", (unsigned long long)ip);
			return;
		}
	}
	fprintf(f, "%lld/%lld", (long long)num, (long long)den);
}

void fsim_rules_describe(const fsim_rules *r, FILE *f, const char *prefix)
{
	RULES_CHECK(r);
	if (!prefix)
		prefix = "";
	for (size_t i = 0; i < r->n; i++) {
		const rule *x = &r->r[i];
		fputs(prefix, f);
		switch (x->kind) {
		case R_SIZE_EQ:
			fputs("messages of exactly ", f);
			print_size(f, x->size);
			fputs(" are simulated with ", f);
			print_size(f, x->to);
			break;
		case R_SIZE_GE:
			fputs("messages of ", f);
			print_size(f, x->size);
			fputs(" or more are simulated with ", f);
			print_size(f, x->to);
			break;
		case R_SEB:
		case R_REGION:
			if (x->kind == R_SEB)
				fprintf(f, "SEBs named '%s' ", x->name);
			else
				fprintf(f, "SEBs of code regions matching "
					"'%s' ", x->name);
			if (x->cut >= 0) {
				fputs("that take more than ", f);
				print_time(f, x->cut);
				fputs(" ", f);
			}
			fputs("take ", f);
			print_time(f, x->dur);
			break;
		case R_SCALE:
			fprintf(f, "SEBs named '%s' take ", x->name);
			print_ratio(f, x->num, x->den);
			fputs(" times their traced duration", f);
			break;
		}
		fprintf(f, " (%s)\n", x->origin);
	}
	if (r->fnum != r->fden) {
		fprintf(f, "%sSEB durations not replaced by a rule are "
			"multiplied by cpu.factor = ", prefix);
		print_ratio(f, r->fnum, r->fden);
		fputc('\n', f);
	}
}
