/*
 * test_outputs.c -- the timeline writers (fastsim/out_*.c) on a small
 * fake machine: the Chrome JSON parses (checked with python3 when it is
 * installed), carries exact microsecond decimals and matched flows; the
 * Projections logs exist for the shown PEs only, are sorted, put each
 * CREATION inside its SEB, come out the same whatever the sort memory,
 * and a 1,100-PE run works under a 64-file descriptor limit.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sibtest.h"
#include "fsim.h"

static const char *tmp;
static char err[1024];

static const char *names[] = {
	"compute", "exchange \"halo\"\t(x", "caf\xc3\xa9 \xff bad", "",
};
#define NNAMES 4

/* ----------------------------------------------------------- helpers */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	size_t n;
	while (s && (n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			char *t = realloc(s, cap *= 2);
			if (!t) {
				free(s);
				s = NULL;
			}
			s = t;
		}
	}
	fclose(f);
	if (s)
		s[len] = '\0';
	return s;
}

static int exists(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0;
}

static void mkdirs(const char *path)
{
	char cmd[2 * 4400 + 32];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", path, path);
	if (system(cmd) != 0) {
		perror(cmd);
		exit(99);
	}
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

typedef struct fake {
	fsim_machine m;
	uint8_t *sel;
	fsim_out_info info;
} fake;

static void fake_init(fake *fk, uint32_t npes, uint32_t cores)
{
	memset(fk, 0, sizeof *fk);
	fk->m.npes = npes;
	fk->m.cores_per_node = cores;
	fk->m.nnodes = (npes + cores - 1) / cores;
	fk->sel = malloc(npes);
	memset(fk->sel, 1, npes);
	fk->info.trace = "fake.trace";
	fk->info.npes = npes;
	fk->info.machine = &fk->m;
	fk->info.selected = fk->sel;
	fk->info.nselected = npes;
	fk->info.names = names;
	fk->info.nnames = NNAMES;
}

static void unselect(fake *fk, uint32_t pe)
{
	fk->sel[pe] = 0;
	fk->info.nselected--;
}

static fsim_seb_rec seb(uint32_t pe, uint32_t name, uint64_t index,
			sib_ps start, sib_ps end, uint32_t ns,
			uint32_t nw)
{
	fsim_seb_rec r = { .pe = pe, .name = name, .index = index,
			   .start = start, .end = end, .nsends = ns,
			   .nwaits = nw };
	return r;
}

static fsim_msg_rec msg(uint32_t src, uint32_t dst, uint64_t seq,
			uint64_t src_seb, uint64_t bytes, sib_ps sent,
			sib_ps arrived)
{
	fsim_msg_rec r = { .src = src, .dst = dst, .seq = seq,
			   .src_seb = src_seb, .tag = 7, .bytes = bytes,
			   .sent = sent, .arrived = arrived };
	return r;
}

/* --------------------------------------------------------- registry */

static void test_registry(void)
{
	size_t n = 0;
	while (fsim_outputs[n])
		n++;
	assertEqualInt(n, 2);
	assertTrue(fsim_outputs[0] == &fsim_out_projections);
	assertTrue(fsim_outputs[1] == &fsim_out_chrome);
	assertTrue(fsim_output_find("chrome") == &fsim_out_chrome);
	assertTrue(fsim_output_find("projections") == &fsim_out_projections);
	assertTrue(fsim_output_find("otf2") == NULL);
	assertTrue(fsim_output_find(NULL) == NULL);
	for (size_t i = 0; i < n; i++)
		assertTrue(fsim_outputs[i]->summary &&
			   *fsim_outputs[i]->summary);
}

/* ------------------------------------------------------------ chrome */

/* Structural checks a viewer relies on, in python when available:
 * the file parses, every flow id has one "s" and one "f" in order, and
 * each thread's B/E events nest and never go back in time. */
static const char *py_check =
	"import json,sys\n"
	"d=json.load(open(sys.argv[1],encoding='utf-8'))\n"
	"assert d['displayTimeUnit']=='ns'\n"
	"ev=d['traceEvents']\n"
	"s={};f={}\n"
	"for e in ev:\n"
	"  if e['ph']=='s': assert e['id'] not in s; s[e['id']]=e\n"
	"  if e['ph']=='f': assert e['id'] not in f; f[e['id']]=e\n"
	"assert set(s)==set(f)\n"
	"for k in s: assert s[k]['ts']<=f[k]['ts']\n"
	"op={};last={}\n"
	"for e in ev:\n"
	"  if e['ph'] in 'BE':\n"
	"    t=(e['pid'],e['tid'])\n"
	"    assert e['ts']>=last.get(t,-1); last[t]=e['ts']\n"
	"    if e['ph']=='B': assert t not in op; op[t]=1\n"
	"    else: assert t in op; del op[t]\n"
	"assert not op\n"
	"names=[e['name'] for e in ev if e['ph']=='B']\n"
	"print(len(ev)); print('\\n'.join(sorted(set(names))))\n";

static int have_python = -1;

/* 0 when python3 accepts the file, 1 when not, -1 when python3 is not
 * there; its output goes to out. */
static int python_check(const char *json, const char *out)
{
	char script[4200], cmd[9000];
	if (have_python < 0)
		have_python = system("command -v python3 >/dev/null 2>&1") == 0;
	if (!have_python)
		return -1;
	snprintf(script, sizeof script, "%s/check.py", tmp);
	FILE *f = fopen(script, "w");
	if (!f || fputs(py_check, f) == EOF || fclose(f) != 0) {
		perror(script);
		exit(99);
	}
	snprintf(cmd, sizeof cmd, "python3 '%s' '%s' >'%s' 2>&1", script,
		 json, out);
	return system(cmd) == 0 ? 0 : 1;
}

static void test_chrome(void)
{
	char dir[4200], path[4300], out[4300];
	fake fk;
	void *st;

	snprintf(dir, sizeof dir, "%s/chrome", tmp);
	mkdirs(dir);
	fake_init(&fk, 4, 2);
	unselect(&fk, 2);

	assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
					    sizeof err), 0);
	fsim_seb_rec r;
	fsim_msg_rec mr;
	r = seb(1, 0, 0, 0, 2000000, 0, 0);
	fsim_out_chrome.seb(st, &r);
	r = seb(0, 0, 0, 1500000, 3000000, 2, 0);
	fsim_out_chrome.seb(st, &r);
	r = seb(0, 1, 1, 3000000, 3000000, 0, 0);  /* zero length */
	fsim_out_chrome.seb(st, &r);
	r = seb(3, 2, 0, 3000000, 4000123, 1, 0);
	fsim_out_chrome.seb(st, &r);
	/* sent inside the SEB, sent at its very end, to an unshown PE */
	mr = msg(0, 1, 0, 0, 64, 2500000, 4000000);
	fsim_out_chrome.msg(st, &mr);
	mr = msg(0, 3, 1, 0, 1ull << 40, 3000000, 4500000);
	fsim_out_chrome.msg(st, &mr);
	mr = msg(3, 2, 0, 0, 8, 3500000, 4600000);
	fsim_out_chrome.msg(st, &mr);
	r = seb(1, 3, 1, 5000000, 6000000, 0, 1);
	fsim_out_chrome.seb(st, &r);
	r = seb(3, 1, 1, 5000000, 5500000, 0, 1);
	fsim_out_chrome.seb(st, &r);
	assertEqualInt(fsim_out_chrome.close(st, 6000000, err, sizeof err), 0);

	snprintf(path, sizeof path, "%s/timeline.json", dir);
	char *s = slurp(path);
	assertTrue(s != NULL);
	if (!s)
		return;
	/* exact decimals, pid = node + 1, tid = rank + 1 */
	assertContains(s, "{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":1.500000,"
		       "\"cat\":\"seb\",\"name\":\"compute\",\"args\":"
		       "{\"index\":0,\"sends\":2,\"waits\":0}}");
	assertContains(s, "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":3.000000,"
		       "\"cat\":\"seb\"}");
	assertContains(s, "{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":0.000000,");
	assertContains(s, "{\"ph\":\"E\",\"pid\":2,\"tid\":4,\"ts\":4.000123,");
	/* names: escaped, invalid UTF-8 replaced, empty kept */
	assertContains(s, "\"name\":\"exchange \\\"halo\\\"\\u0009(x\"");
	assertContains(s, "\"name\":\"caf\xc3\xa9 \\ufffd bad\"");
	assertContains(s, "\"name\":\"\",");
	/* metadata: processes before threads, rank 2 absent */
	assertContains(s, "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\","
		       "\"args\":{\"name\":\"node 1\"}}");
	assertContains(s, "{\"ph\":\"M\",\"pid\":2,\"tid\":4,\"name\":"
		       "\"thread_name\",\"args\":{\"name\":\"rank 3\"}}");
	assertTrue(strstr(s, "\"rank 2\"") == NULL);
	assertTrue(strstr(s, "\"process_name\",\"args\":{\"name\":\"node 1\"")
		   < strstr(s, "\"thread_name\""));
	/* flows: kept 1 ns inside the sender, 1 ns before the arrival */
	assertContains(s, "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":2.500000,"
		       "\"cat\":\"msg\",\"name\":\"msg\",\"id\":\"0x1\",\"args\":"
		       "{\"bytes\":64,\"tag\":7,\"src\":0,\"dst\":1,\"seq\":0,"
		       "\"from_seb\":0,\"sent_us\":2.500000,"
		       "\"arrived_us\":4.000000}}");
	assertContains(s, "{\"ph\":\"f\",\"pid\":1,\"tid\":2,\"ts\":3.999000,"
		       "\"cat\":\"msg\",\"name\":\"msg\",\"id\":\"0x1\"}");
	assertContains(s, "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"ts\":2.999000,");
	assertContains(s, "\"bytes\":1099511627776,");
	assertContains(s, "{\"ph\":\"f\",\"pid\":2,\"tid\":4,\"ts\":4.499000,");
	assertEqualInt(count_of(s, "\"ph\":\"s\""), 2);
	assertEqualInt(count_of(s, "\"ph\":\"f\""), 2);
	assertEqualInt(count_of(s, "\"ph\":\"B\""), 6);
	assertEqualInt(count_of(s, "\"ph\":\"E\""), 6);
	assertContains(s, "\"ph\":\"i\"");
	assertContains(s, "\"s\":\"g\",\"cat\":\"sibyl\",\"name\":\"end of run\","
		       "\"args\":{\"predicted_time_ps\":6000000}}");
	assertContains(s, "\"displayTimeUnit\":\"ns\"");
	assertContains(s, "\"messages_drawn\":2,\"messages_not_drawn\":1,");
	assertContains(s, "\"trace\":\"fake.trace\"");
	free(s);

	snprintf(out, sizeof out, "%s/chrome.out", tmp);
	int py = python_check(path, out);
	if (py >= 0) {
		assertEqualInt(py, 0);
		char *o = slurp(out);
		assertTrue(o != NULL);
		if (o) {
			if (py != 0)
				fprintf(stderr, "%s", o);
			assertContains(o, "\ncaf\xc3\xa9 \xef\xbf\xbd bad\n");
			assertContains(o, "\nexchange \"halo\"\t(x\n");
		}
		free(o);
	} else {
		fprintf(stderr, "python3 not found: JSON validity not "
			"checked\n");
	}
	free(fk.sel);
}

/* A flow whose sending SEB has left the ring keeps its exact time. */
static void test_chrome_ring(void)
{
	char dir[4200], path[4300];
	fake fk;
	void *st;
	snprintf(dir, sizeof dir, "%s/chrome-ring", tmp);
	mkdirs(dir);
	fake_init(&fk, 2, 1);
	assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
					    sizeof err), 0);
	for (uint64_t i = 0; i < 6; i++) {
		fsim_seb_rec r = seb(0, 0, i, (sib_ps)i * 10000000,
				     (sib_ps)i * 10000000 + 5000000, 1, 0);
		fsim_out_chrome.seb(st, &r);
	}
	fsim_msg_rec mr = msg(0, 1, 0, 0, 1, 5000000, 70000000);
	fsim_out_chrome.msg(st, &mr);
	assertEqualInt(fsim_out_chrome.close(st, 70000000, err, sizeof err), 0);
	snprintf(path, sizeof path, "%s/timeline.json", dir);
	char *s = slurp(path);
	assertTrue(s != NULL);
	if (s)
		assertContains(s, "{\"ph\":\"s\",\"pid\":1,\"tid\":1,"
			       "\"ts\":5.000000,");
	free(s);
	free(fk.sel);
}

/* No record, and no PE shown: still a valid file. */
static void test_chrome_empty(void)
{
	char dir[4200], path[4300], out[4300];
	fake fk;
	void *st;
	for (int none = 0; none < 2; none++) {
		snprintf(dir, sizeof dir, "%s/chrome-empty%d", tmp, none);
		mkdirs(dir);
		fake_init(&fk, 4, 2);
		if (none)
			for (uint32_t pe = 0; pe < 4; pe++)
				unselect(&fk, pe);
		assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
						    sizeof err), 0);
		assertEqualInt(fsim_out_chrome.close(st, 0, err, sizeof err),
			       0);
		snprintf(path, sizeof path, "%s/timeline.json", dir);
		snprintf(out, sizeof out, "%s/chrome-empty.out", tmp);
		int py = python_check(path, out);
		if (py >= 0)
			assertEqualInt(py, 0);
		char *s = slurp(path);
		assertTrue(s && strncmp(s, "{\"traceEvents\":[\n{", 18) == 0);
		free(s);
		free(fk.sel);
	}
}

static void test_chrome_errors(void)
{
	fake fk;
	void *st = (void *)1;
	char dir[4200];
	fake_init(&fk, 4, 2);
	snprintf(dir, sizeof dir, "%s/no/such/dir", tmp);
	assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
					    sizeof err), 1);
	assertTrue(st == NULL);
	assertContains(err, "cannot create");
	assertContains(err, "no/such/dir/timeline.json");

	/* a record the writer was not told about fails close */
	snprintf(dir, sizeof dir, "%s/chrome-bad", tmp);
	mkdirs(dir);
	assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
					    sizeof err), 0);
	fsim_seb_rec r = seb(0, NNAMES, 0, 0, 1, 0, 0);
	fsim_out_chrome.seb(st, &r);
	assertEqualInt(fsim_out_chrome.close(st, 1, err, sizeof err), 1);
	assertContains(err, "internal error");
	free(fk.sel);
}

/* ------------------------------------------------------- projections */

typedef struct pline {
	long type;
	long long f[16];
	int nf;
} pline;

static int parse_line(const char *s, pline *l)
{
	char *end;
	memset(l, 0, sizeof *l);
	l->type = strtol(s, &end, 10);
	if (end == s)
		return -1;
	s = end;
	while (*s == ' ' && l->nf < 16) {
		l->f[l->nf++] = strtoll(s, &end, 10);
		if (end == s + 1)
			return -1;
		s = end;
	}
	return *s == '\0' ? 0 : -1;
}

/* The time field of each record type, or -1. */
static int time_field(long type)
{
	switch (type) {
	case 1: case 2: case 3: return 2;
	case 6: case 7: case 14: case 15: return 0;
	default: return -1;
	}
}

/* Check one log: header count, record syntax, times non-decreasing,
 * processing blocks closed, CREATIONs inside blocks.  Returns the number
 * of records of each type in counts[0..31]. */
static void check_log(const char *path, uint32_t pe, unsigned long counts[32])
{
	char *s = slurp(path);
	assertTrue(s != NULL);
	if (!s)
		return;
	memset(counts, 0, 32 * sizeof *counts);
	char *save, *line = strtok_r(s, "\n", &save);
	unsigned long long declared = 0;
	assertTrue(line && sscanf(line, "PROJECTIONS-RECORD %llu",
				  &declared) == 1);
	long long last = 0;
	int in_block = 0, in_idle = 0, n = 0, begun = 0, ended = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		pline l;
		n++;
		if (parse_line(line, &l) != 0) {
			TEST_FAIL("%s: bad line '%s'", path, line);
			break;
		}
		int tf = time_field(l.type);
		assertTrue(tf >= 0 && tf < l.nf);
		if (tf < 0 || tf >= l.nf)
			break;
		long long t = l.f[tf];
		if (t < last)
			TEST_FAIL("%s line %d: time %lld < %lld", path, n + 1,
				  t, last);
		last = t;
		counts[l.type & 31]++;
		switch (l.type) {
		case 6: assertEqualInt(n, 1); begun = 1; break;
		case 7: ended = 1; break;
		case 2:
			assertEqualInt(l.nf, 13);
			assertTrue(!in_block && !in_idle);
			assertEqualInt(l.f[4], pe);
			in_block = 1;
			break;
		case 3:
			assertEqualInt(l.nf, 8);
			assertTrue(in_block);
			in_block = 0;
			break;
		case 1:
			assertEqualInt(l.nf, 7);
			assertEqualInt(l.f[4], pe);
			assertTrue(in_block);
			break;
		case 14: assertTrue(!in_block && !in_idle); in_idle = 1; break;
		case 15: assertTrue(in_idle); in_idle = 0; break;
		}
		assertTrue(!ended || l.type == 7);
	}
	assertTrue(begun && ended && !in_block && !in_idle);
	assertEqualU64(declared, (uint64_t)n);
	free(s);
}

static void test_projections(void)
{
	char dir[4200], path[4400];
	fake fk;
	void *st;
	unsigned long c[32];

	snprintf(dir, sizeof dir, "%s/proj", tmp);
	mkdirs(dir);
	fake_init(&fk, 4, 2);
	unselect(&fk, 2);
	assertEqualInt(fsim_out_projections.open(&st, dir, &fk.info, err,
						 sizeof err), 0);
	fsim_seb_rec r;
	fsim_msg_rec mr;
	r = seb(1, 1, 0, 0, 2000000, 0, 0);
	fsim_out_projections.seb(st, &r);
	r = seb(0, 0, 0, 1500000, 3000000, 2, 0);
	fsim_out_projections.seb(st, &r);
	r = seb(0, 1, 1, 3000000, 4200000, 0, 0);
	fsim_out_projections.seb(st, &r);
	/* reported after the next SEB of PE 0 started */
	mr = msg(0, 1, 5, 0, 64, 2999999, 4000000);
	fsim_out_projections.msg(st, &mr);
	r = seb(3, 2, 0, 3000000, 4000000, 0, 1);
	fsim_out_projections.seb(st, &r);
	mr = msg(0, 3, 6, 0, 1ull << 40, 3000000, 4500000);
	fsim_out_projections.msg(st, &mr);
	mr = msg(2, 0, 0, 0, 8, 1000000, 2000000);  /* from an unshown PE */
	fsim_out_projections.msg(st, &mr);
	r = seb(1, 3, 1, 5000000, 6000000, 0, 1);
	fsim_out_projections.seb(st, &r);
	assertEqualInt(fsim_out_projections.close(st, 7654321, err,
						  sizeof err), 0);

	snprintf(path, sizeof path, "%s/projections/sibyl.sts", dir);
	char *s = slurp(path);
	assertTrue(s != NULL);
	if (s) {
		assertTrue(strncmp(s, "VERSION 7.0\n", 12) == 0);
		assertContains(s, "\nPROCESSORS 4\n");
		assertContains(s, "\nMACHINE sibyl\n");
		assertContains(s, "\nTOTAL_CHARES 2\n");
		assertContains(s, "\nTOTAL_EPS 5\n");
		assertContains(s, "\nCHARE 0 SEB\n");
		assertContains(s, "\nENTRY CHARE 0 compute 0 -1\n");
		assertContains(s, "\nENTRY CHARE 1 exchange__halo__[x 0 -1\n");
		assertContains(s, "\nENTRY CHARE 2 caf\xc3\xa9_\xff_bad 0 -1\n");
		assertContains(s, "\nENTRY CHARE 3 _ 0 -1\n");
		assertContains(s, "\nENTRY CHARE 4 message 1 -1\nEND\n");
	}
	free(s);

	for (uint32_t pe = 0; pe < 4; pe++) {
		snprintf(path, sizeof path, "%s/projections/sibyl.%u.log", dir,
			 pe);
		assertEqualInt(exists(path), pe != 2);
		if (pe != 2)
			check_log(path, pe, c);
	}
	snprintf(path, sizeof path, "%s/projections/sibyl.0.log", dir);
	s = slurp(path);
	if (s) {
		/* times truncated to microseconds; the late CREATION sits
		 * inside the SEB that sent it; idle fills the gaps */
		assertEqualString(s,
			"PROJECTIONS-RECORD 12\n"
			"6 0\n"
			"14 0 0\n"
			"15 1 0\n"
			"2 2 0 1 -1 0 0 1 0 0 0 0 1 0\n"
			"1 2 4 2 5 0 64 0\n"
			"1 2 4 3 6 0 2147483647 0\n"
			"3 2 0 3 -1 0 0 3 0\n"
			"2 2 1 3 -1 0 0 3 1 0 0 0 3 0\n"
			"3 2 1 4 -1 0 0 4 0\n"
			"14 4 0\n"
			"15 7 0\n"
			"7 7\n");
	}
	free(s);
	snprintf(path, sizeof path, "%s/projections/sibyl.1.log", dir);
	check_log(path, 1, c);
	assertEqualInt(c[2], 2);
	assertEqualInt(c[1], 0);
	assertEqualInt(c[14], 2);  /* between the SEBs and after them */

	/* nothing else in the directory: the scratch file is gone */
	snprintf(path, sizeof path, "%s/projections", dir);
	DIR *d = opendir(path);
	assertTrue(d != NULL);
	struct dirent *de;
	int files = 0;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' && (!de->d_name[1] ||
		    (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		files++;
		assertTrue(strncmp(de->d_name, "sibyl.", 6) == 0);
	}
	if (d)
		closedir(d);
	assertEqualInt(files, 4);
	free(fk.sel);
}

/* Many SEBs and late messages, written with a tiny and a large sort
 * memory: the external merge gives the same bytes as the in-memory
 * sort. */
static void run_many(const char *dir, uint32_t npes, unsigned nseb)
{
	fake fk;
	void *st;
	mkdirs(dir);
	fake_init(&fk, npes, 4);
	assertEqualInt(fsim_out_projections.open(&st, dir, &fk.info, err,
						 sizeof err), 0);
	if (!st)
		return;
	/* SEB k of every PE runs [k*10us + pe*7ps, +8us]; it sends one
	 * message to pe+1 at its end, reported 3 SEBs later. */
	uint64_t seq = 0;
	for (unsigned k = 0; k < nseb + 3; k++) {
		for (uint32_t pe = 0; pe < npes && k < nseb; pe++) {
			sib_ps t = (sib_ps)k * 10000000 + pe * 7;
			fsim_seb_rec r = seb(pe, k % NNAMES, k, t, t + 8000000,
					     1, k > 0);
			fsim_out_projections.seb(st, &r);
		}
		for (uint32_t pe = 0; pe < npes && k >= 3; pe++) {
			sib_ps t = (sib_ps)(k - 3) * 10000000 + pe * 7;
			fsim_msg_rec mr = msg(pe, (pe + 1) % npes, seq++, k - 3,
					      100 + k, t + 8000000,
					      t + 29000000);
			fsim_out_projections.msg(st, &mr);
		}
	}
	assertEqualInt(fsim_out_projections.close(st, (sib_ps)nseb *
						  10000000, err, sizeof err),
		       0);
	free(fk.sel);
}

static void test_projections_merge(void)
{
	char a[4200], b[4200], pa[4400], pb[4400];
	unsigned long c[32];
	snprintf(a, sizeof a, "%s/proj-mem", tmp);
	snprintf(b, sizeof b, "%s/proj-merge", tmp);
	unsetenv("SIBYL_PROJECTIONS_SORT_MEM");
	run_many(a, 3, 500);
	setenv("SIBYL_PROJECTIONS_SORT_MEM", "4096", 1); /* ~70 records */
	run_many(b, 3, 500);
	unsetenv("SIBYL_PROJECTIONS_SORT_MEM");
	for (uint32_t pe = 0; pe < 3; pe++) {
		snprintf(pa, sizeof pa, "%s/projections/sibyl.%u.log", a, pe);
		snprintf(pb, sizeof pb, "%s/projections/sibyl.%u.log", b, pe);
		char *sa = slurp(pa), *sb = slurp(pb);
		assertTrue(sa && sb && strcmp(sa, sb) == 0);
		free(sa);
		free(sb);
		check_log(pb, pe, c);
		assertEqualInt(c[2], 500);
		assertEqualInt(c[3], 500);
		assertEqualInt(c[1], 500);
	}
}

/* 1,100 PEs with at most 64 descriptors: one log open at a time. */
static void test_projections_many_pes(void)
{
	char dir[4200], path[4400];
	unsigned long c[32];
	struct rlimit old, low;
	if (getrlimit(RLIMIT_NOFILE, &old) != 0) {
		perror("getrlimit");
		return;
	}
	low = old;
	if (low.rlim_cur == RLIM_INFINITY || low.rlim_cur > 64)
		low.rlim_cur = 64;
	assertEqualInt(setrlimit(RLIMIT_NOFILE, &low), 0);
	snprintf(dir, sizeof dir, "%s/proj-1100", tmp);
	setenv("SIBYL_PROJECTIONS_SORT_MEM", "65536", 1);
	run_many(dir, 1100, 4);
	unsetenv("SIBYL_PROJECTIONS_SORT_MEM");
	assertEqualInt(setrlimit(RLIMIT_NOFILE, &old), 0);
	for (uint32_t pe = 0; pe < 1100; pe++) {
		snprintf(path, sizeof path, "%s/projections/sibyl.%u.log", dir,
			 pe);
		if (!exists(path)) {
			TEST_FAIL("%s missing", path);
			break;
		}
	}
	snprintf(path, sizeof path, "%s/projections/sibyl.1099.log", dir);
	check_log(path, 1099, c);
	assertEqualInt(c[2], 4);
	assertEqualInt(c[1], 4);
	snprintf(path, sizeof path, "%s/projections/sibyl.sts", dir);
	char *s = slurp(path);
	assertTrue(s && strstr(s, "\nPROCESSORS 1100\n"));
	free(s);
}

static void test_projections_errors(void)
{
	fake fk;
	void *st = (void *)1;
	char dir[4200];
	fake_init(&fk, 4, 2);
	snprintf(dir, sizeof dir, "%s/no/such/dir", tmp);
	assertEqualInt(fsim_out_projections.open(&st, dir, &fk.info, err,
						 sizeof err), 1);
	assertTrue(st == NULL);
	assertContains(err, "no/such/dir/projections");

	/* an empty run: every shown PE still gets a readable log */
	snprintf(dir, sizeof dir, "%s/proj-empty", tmp);
	mkdirs(dir);
	assertEqualInt(fsim_out_projections.open(&st, dir, &fk.info, err,
						 sizeof err), 0);
	assertEqualInt(fsim_out_projections.close(st, 0, err, sizeof err), 0);
	char path[4400];
	snprintf(path, sizeof path, "%s/projections/sibyl.3.log", dir);
	char *s = slurp(path);
	assertTrue(s != NULL);
	if (s)
		assertEqualString(s, "PROJECTIONS-RECORD 2\n6 0\n7 0\n");
	free(s);
	free(fk.sel);
}

/* A full disk is reported by close, naming the file. */
static void test_disk_full(void)
{
	char dir[4200], link[4400];
	fake fk;
	void *st;
	if (!exists("/dev/full")) {
		fprintf(stderr, "no /dev/full: disk-full errors not checked\n");
		return;
	}
	fake_init(&fk, 4, 2);

	snprintf(dir, sizeof dir, "%s/chrome-full", tmp);
	mkdirs(dir);
	snprintf(link, sizeof link, "%s/timeline.json", dir);
	assertEqualInt(symlink("/dev/full", link), 0);
	assertEqualInt(fsim_out_chrome.open(&st, dir, &fk.info, err,
					    sizeof err), 0);
	for (uint64_t i = 0; i < 20000; i++) {
		fsim_seb_rec r = seb(0, 0, i, (sib_ps)i, (sib_ps)i + 1,
				     0, 0);
		fsim_out_chrome.seb(st, &r);
	}
	assertEqualInt(fsim_out_chrome.close(st, 1, err, sizeof err), 1);
	assertContains(err, "cannot write");
	assertContains(err, "chrome-full/timeline.json");
	assertContains(err, strerror(ENOSPC));

	snprintf(dir, sizeof dir, "%s/proj-full", tmp);
	mkdirs(dir);
	snprintf(link, sizeof link, "%s/projections", dir);
	assertEqualInt(mkdir(link, 0777), 0);
	snprintf(link, sizeof link, "%s/projections/sibyl.1.log", dir);
	assertEqualInt(symlink("/dev/full", link), 0);
	assertEqualInt(fsim_out_projections.open(&st, dir, &fk.info, err,
						 sizeof err), 0);
	fsim_seb_rec r = seb(1, 0, 0, 0, 1000000, 0, 0);
	fsim_out_projections.seb(st, &r);
	assertEqualInt(fsim_out_projections.close(st, 1000000, err,
						  sizeof err), 1);
	assertContains(err, "cannot write");
	assertContains(err, "proj-full/projections/sibyl.1.log");
	assertContains(err, strerror(ENOSPC));
	free(fk.sel);
}

int main(void)
{
	tmp = test_tmpdir("test_outputs");
	test_registry();
	test_chrome();
	test_chrome_ring();
	test_chrome_empty();
	test_chrome_errors();
	test_projections();
	test_projections_merge();
	test_projections_many_pes();
	test_projections_errors();
	test_disk_full();
	return TEST_EXIT();
}
