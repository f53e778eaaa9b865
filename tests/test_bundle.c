/*
 * test_bundle.c -- traces packed into archives (bundles).
 *
 * A trace packed as .tar, .tar.gz, .tar.xz (and .tar.bz2, .tar.zst when
 * libarchive can) must open exactly like its directory and unpack byte for
 * byte; damaged or hostile archives (truncated, "../" or absolute members,
 * symlinks) are refused with SIBT_EARCHIVE without writing outside the
 * target; pack refuses what is not a trace.  $TMPDIR is pointed at a
 * private directory so that leftovers of opened bundles are seen.
 */
#include "config.h"

#include <dirent.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "sibtest.h"
#include "tgen_bytes.h"

#define CHECKF(c, ...) do { sibtest_checks++; if (!(c)) \
	TEST_FAIL(__VA_ARGS__); } while (0)

static char tmp[4096], tmpdir[4200], tracedir[4200];
static tg_model *model;
static const uint32_t nprocs = 3;

/* Names in a directory, sorted, joined with ' '. */
static void list_dir(const char *dir, char *out, size_t len)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		if (strcmp(name, ".") && strcmp(name, "..")) {
			size_t l = strlen(out);
			snprintf(out + l, len - l, "%s%s", l ? " " : "", name);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void expect_tmpdir_empty(const char *what)
{
	char names[4096];
	list_dir(tmpdir, names, sizeof names);
	CHECKF(names[0] == '\0', "%s: $TMPDIR left with: %s", what, names);
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	uint8_t *x = tg_read_file(a, &la), *y = tg_read_file(b, &lb);
	int same = x && y && la == lb && !memcmp(x, y, la);
	free(x);
	free(y);
	return same;
}

/* Open path, check it against the directory trace window by window. */
static void compare_with_dir(const char *path, const char *what)
{
	sibt_trace *b = NULL, *d = NULL;
	char eb[1024] = "", err[1024];
	int rc = sibt_trace_open(&b, path, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK && b, "%s: open = %d (%s): %s", what, rc,
	       sibt_strerror(rc), eb);
	if (!b)
		return;
	rc = sibt_trace_open(&d, tracedir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "%s: open directory = %d: %s", what, rc, eb);
	if (!d) {
		sibt_trace_close(b);
		return;
	}
	char *bdir = tg_xstrdup(sibt_trace_dir(b) ? sibt_trace_dir(b) : "");
	CHECKF(sibt_trace_is_bundle(b) && !sibt_trace_is_bundle(d),
	       "%s: is_bundle %d / %d", what, sibt_trace_is_bundle(b),
	       sibt_trace_is_bundle(d));
	CHECKF(*bdir && strcmp(bdir, tracedir) && tg_exists(bdir) &&
	       !strncmp(bdir, tmpdir, strlen(tmpdir)),
	       "%s: trace_dir \"%s\" is not a fresh directory under $TMPDIR "
	       "(%s)", what, bdir, tmpdir);
	CHECKF(tg_compare_trace(model, b, err, sizeof err) == 0, "%s: %s",
	       what, err);
	CHECKF(sibt_trace_manifest_count(b) == sibt_trace_manifest_count(d),
	       "%s: manifest has %zu entries, directory %zu", what,
	       sibt_trace_manifest_count(b), sibt_trace_manifest_count(d));
	for (size_t i = 0; i < sibt_trace_manifest_count(d); i++) {
		const char *k, *v;
		if (sibt_trace_manifest_entry(d, i, &k, &v) == SIBT_OK) {
			const char *bv = sibt_trace_manifest(b, k);
			CHECKF(bv && !strcmp(bv, v), "%s: manifest %s = %s, "
			       "directory says %s", what, k, bv ? bv : "(none)",
			       v);
		}
	}
	sibt_window *wb = sibt_window_new(), *wd = sibt_window_new();
	for (uint32_t pe = 0; pe < sibt_trace_npes(d); pe++) {
		CHECKF(sibt_trace_nwindows(b, pe) == sibt_trace_nwindows(d, pe),
		       "%s: PE %u: %" PRIu64 " windows, directory %" PRIu64,
		       what, pe, sibt_trace_nwindows(b, pe),
		       sibt_trace_nwindows(d, pe));
		for (uint64_t w = 0; w < sibt_trace_nwindows(d, pe); w++) {
			sibt_window_info ib, id;
			memset(&ib, 0, sizeof ib);
			memset(&id, 0, sizeof id);
			sibt_trace_window_info(b, pe, w, &ib);
			sibt_trace_window_info(d, pe, w, &id);
			CHECKF(!memcmp(&ib, &id, sizeof ib), "%s: PE %u window %"
			       PRIu64 ": window_info differs", what, pe, w);
			if (sibt_trace_read_window(b, pe, w, wb) ||
			    sibt_trace_read_window(d, pe, w, wd)) {
				TEST_FAIL("%s: PE %u window %" PRIu64 " does not "
					  "read", what, pe, w);
				continue;
			}
			CHECKF(sibt_window_nsebs(wb) == sibt_window_nsebs(wd),
			       "%s: window sizes differ", what);
			for (uint32_t i = 0; i < sibt_window_nsebs(wd) &&
			     i < sibt_window_nsebs(wb); i++) {
				if (tg_seb_diff(sibt_window_seb(wd, i),
						sibt_window_seb(wb, i), err,
						sizeof err)) {
					TEST_FAIL("%s: bundle vs directory: %s",
						  what, err);
					break;
				}
			}
		}
	}
	sibt_window_free(wb);
	sibt_window_free(wd);
	sibt_totals tb, td;
	sibt_trace_totals(b, &tb);
	sibt_trace_totals(d, &td);
	CHECKF(tb.windows == td.windows && tb.sebs == td.sebs &&
	       tb.sends == td.sends && tb.raw_bytes == td.raw_bytes &&
	       tb.stored_bytes == td.stored_bytes &&
	       tb.file_bytes == td.file_bytes &&
	       tb.manifest_bytes == td.manifest_bytes,
	       "%s: totals differ from the directory's", what);
	sibt_trace_close(b);
	sibt_trace_close(d);
	CHECKF(!tg_exists(bdir), "%s: %s still exists after close", what,
	       bdir);
	free(bdir);
	expect_tmpdir_empty(what);
}

/* Member names of an archive, via libarchive. */
static int archive_members(const char *path, char *out, size_t len)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	int n = 0;
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	out[0] = '\0';
	if (archive_read_open_filename(a, path, 10240) != ARCHIVE_OK) {
		archive_read_free(a);
		return -1;
	}
	while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
		size_t l = strlen(out);
		snprintf(out + l, len - l, "%s%s", l ? " " : "",
			 archive_entry_pathname(e));
		n++;
	}
	archive_read_free(a);
	return n;
}

static void check_unpack(const char *bundle, const char *what)
{
	char dir[4300], eb[1024] = "", names[4096], want[4096];
	int rc;

	snprintf(dir, sizeof dir, "%s/unpacked", tmp);
	{
		char cmd[4400];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd)) {
			perror(cmd);
			exit(99);
		}
	}
	rc = sibt_bundle_unpack(bundle, dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "%s: unpack = %d (%s): %s", what, rc,
	       sibt_strerror(rc), eb);
	list_dir(dir, names, sizeof names);
	list_dir(tracedir, want, sizeof want);
	CHECKF(!strcmp(names, want), "%s: unpacked \"%s\", want \"%s\"", what,
	       names, want);
	CHECKF(same_file(tg_path(dir, "MANIFEST"), tg_path(tracedir,
							   "MANIFEST")),
	       "%s: MANIFEST differs after unpacking", what);
	for (uint32_t f = 0; f < nprocs; f++) {
		char a[8448];
		snprintf(a, sizeof a, "%s", tg_datafile(dir, f));
		CHECKF(same_file(a, tg_datafile(tracedir, f)),
		       "%s: %s differs after unpacking", what, a);
	}
	/* into an existing directory: only with overwrite */
	rc = sibt_bundle_unpack(bundle, dir, 0, eb, sizeof eb);
	CHECKF(rc < 0, "%s: unpack into an existing directory without "
	       "overwrite = %d", what, rc);
	rc = sibt_bundle_unpack(bundle, dir, 1, eb, sizeof eb);
	CHECKF(rc == SIBT_OK, "%s: unpack with overwrite = %d: %s", what, rc,
	       eb);
	CHECKF(same_file(tg_datafile(dir, 0), tg_datafile(tracedir, 0)),
	       "%s: data file differs after unpacking with overwrite", what);
	expect_tmpdir_empty(what);
}

static void test_pack_formats(void)
{
	static const struct {
		const char *ext;
		const char *magic;
		size_t magic_off, magic_len;
		int optional;
	} fmts[] = {
		{ ".tar", "ustar", 257, 5, 0 },
		{ ".tar.gz", "\x1f\x8b", 0, 2, 0 },
		{ ".tgz", "\x1f\x8b", 0, 2, 0 },
		{ ".tar.xz", "\xfd" "7zXZ", 0, 5, 0 },
		{ ".tar.bz2", "BZh", 0, 3, 1 },
		{ ".tar.zst", "\x28\xb5\x2f\xfd", 0, 4, 1 },
	};
	char out[4300], eb[1024], names[4096];

	for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
		snprintf(out, sizeof out, "%s/bundles/run%s", tmp, fmts[i].ext);
		eb[0] = '\0';
		int rc = sibt_bundle_pack(tracedir, out, eb, sizeof eb);
		if (fmts[i].optional && rc == SIBT_EARCHIVE) {
			fprintf(stderr, "note: %s not supported here: %s\n",
				fmts[i].ext, eb);
			CHECKF(!tg_exists(out), "%s: failed pack left the "
			       "output behind", out);
			continue;
		}
		CHECKF(rc == SIBT_OK, "pack %s = %d (%s): %s", out, rc,
		       sibt_strerror(rc), eb);
		if (rc)
			continue;
		size_t len;
		uint8_t *b = tg_read_file(out, &len);
		CHECKF(b && len >= fmts[i].magic_off + fmts[i].magic_len &&
		       !memcmp(b + fmts[i].magic_off, fmts[i].magic,
			       fmts[i].magic_len),
		       "%s does not look like a %s file", out, fmts[i].ext);
		free(b);
		CHECKF(sibt_path_is_bundle(out), "sibt_path_is_bundle(%s) = 0",
		       out);
		int n = archive_members(out, names, sizeof names);
		CHECKF(n == (int)nprocs + 1 && strstr(names, "MANIFEST") &&
		       strstr(names, "proc-000002.sdat") && !strstr(names, ".."),
		       "%s: members: %s", out, names);
		compare_with_dir(out, out);
		check_unpack(out, out);
	}
	/* no temporary file left next to the bundles */
	snprintf(out, sizeof out, "%s/bundles", tmp);
	list_dir(out, names, sizeof names);
	CHECKF(!strstr(names, "tmp") && !strstr(names, "~") &&
	       !strstr(names, "."  "part"),
	       "the bundle directory holds leftovers: %s", names);
	CHECKF(!sibt_path_is_bundle(tracedir), "a directory is a bundle");
}

/* ------------------------------------------------ hostile archives */

typedef struct member {
	const char *name;
	const char *src;      /* file to copy, or NULL */
	const char *text;     /* content when src is NULL */
	const char *link;     /* symlink target, or NULL */
	int is_dir;
} member;

static void write_archive(const char *out, const member *ms, size_t n,
			  int gzip)
{
	struct archive *a = archive_write_new();
	archive_write_set_format_pax_restricted(a);
	if (gzip)
		archive_write_add_filter_gzip(a);
	if (archive_write_open_filename(a, out) != ARCHIVE_OK) {
		fprintf(stderr, "%s: %s\n", out, archive_error_string(a));
		exit(99);
	}
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		uint8_t *data = NULL;
		size_t len = 0;
		if (ms[i].src)
			data = tg_read_file(ms[i].src, &len);
		else if (ms[i].text)
			len = strlen(ms[i].text);
		archive_entry_set_pathname(e, ms[i].name);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (ms[i].link) {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_perm(e, 0777);
			archive_entry_set_symlink(e, ms[i].link);
			len = 0;
		} else if (ms[i].is_dir) {
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_entry_set_perm(e, 0755);
			len = 0;
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_perm(e, 0644);
		}
		archive_entry_set_size(e, (la_int64_t)len);
		if (archive_write_header(a, e) != ARCHIVE_OK) {
			fprintf(stderr, "%s: %s\n", out, archive_error_string(a));
			exit(99);
		}
		if (len)
			archive_write_data(a, data ? (const void *)data
						   : (const void *)ms[i].text,
					   len);
		free(data);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
}

static void expect_refused(const char *bundle, const char *what,
			   const char *const *outside)
{
	sibt_trace *t = NULL;
	char eb[1024] = "", dir[4300];
	int rc = sibt_trace_open(&t, bundle, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EARCHIVE && !t, "%s: open = %d (%s), want "
	       "SIBT_EARCHIVE: %s", what, rc, sibt_strerror(rc), eb);
	CHECKF(eb[0] != '\0', "%s: open failed without a message", what);
	if (t)
		sibt_trace_close(t);
	expect_tmpdir_empty(what);

	snprintf(dir, sizeof dir, "%s/refused/target", tmp);
	eb[0] = '\0';
	rc = sibt_bundle_unpack(bundle, dir, 0, eb, sizeof eb);
	CHECKF(rc == SIBT_EARCHIVE, "%s: unpack = %d (%s), want "
	       "SIBT_EARCHIVE: %s", what, rc, sibt_strerror(rc), eb);
	CHECKF(!tg_exists(dir), "%s: a failed unpack left %s behind", what,
	       dir);
	for (size_t i = 0; outside && outside[i]; i++)
		CHECKF(!tg_exists(outside[i]), "%s: %s was written outside "
		       "the target", what, outside[i]);
	char cmd[8800];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/refused' && mkdir -p "
		 "'%s/refused'", tmp, tmp);
	if (system(cmd))
		exit(99);
}

static void test_hostile(void)
{
	char out[4300], absname[4300], tmpevil[4300], refevil[4300],
	     refevil2[4300], tmpevil2[4300];
	char man[8448], d0[8448], d1[8448], d2[8448];
	const char *outside[5];

	snprintf(man, sizeof man, "%s", tg_path(tracedir, "MANIFEST"));
	snprintf(d0, sizeof d0, "%s", tg_datafile(tracedir, 0));
	snprintf(d1, sizeof d1, "%s", tg_datafile(tracedir, 1));
	snprintf(d2, sizeof d2, "%s", tg_datafile(tracedir, 2));
	snprintf(absname, sizeof absname, "%s/refused/abs-evil", tmp);
	snprintf(tmpevil, sizeof tmpevil, "%s/evil", tmpdir);
	snprintf(tmpevil2, sizeof tmpevil2, "%s/evil2", tmpdir);
	snprintf(refevil, sizeof refevil, "%s/refused/evil", tmp);
	snprintf(refevil2, sizeof refevil2, "%s/refused/evil2", tmp);
	outside[0] = tmpevil;
	outside[1] = refevil;
	outside[2] = absname;
	outside[3] = NULL;
	{
		char cmd[4400];
		snprintf(cmd, sizeof cmd, "mkdir -p '%s/refused'", tmp);
		if (system(cmd))
			exit(99);
	}

	/* A proper archive with a top directory is accepted. */
	{
		member ms[] = {
			{ "run.trace/", NULL, NULL, NULL, 1 },
			{ "run.trace/proc-000001.sdat", d1, NULL, NULL, 0 },
			{ "run.trace/MANIFEST", man, NULL, NULL, 0 },
			{ "run.trace/proc-000000.sdat", d0, NULL, NULL, 0 },
			{ "run.trace/proc-000002.sdat", d2, NULL, NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/topdir.tar.gz", tmp);
		write_archive(out, ms, 5, 1);
		compare_with_dir(out, "archive with a top directory");
	}
	/* "../evil" among good members */
	{
		member ms[] = {
			{ "MANIFEST", man, NULL, NULL, 0 },
			{ "proc-000000.sdat", d0, NULL, NULL, 0 },
			{ "../evil", NULL, "pwned\n", NULL, 0 },
			{ "proc-000001.sdat", d1, NULL, NULL, 0 },
			{ "proc-000002.sdat", d2, NULL, NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/evil.tar", tmp);
		write_archive(out, ms, 5, 0);
		expect_refused(out, "member ../evil", outside);
		/* the same, first member */
		member ms2[] = {
			{ "../evil", NULL, "pwned\n", NULL, 0 },
			{ "MANIFEST", man, NULL, NULL, 0 },
			{ "proc-000000.sdat", d0, NULL, NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/evil-first.tar.gz", tmp);
		write_archive(out, ms2, 3, 1);
		expect_refused(out, "first member ../evil", outside);
		member ms3[] = {
			{ "run.trace/MANIFEST", man, NULL, NULL, 0 },
			{ "run.trace/../../evil", NULL, "pwned\n", NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/evil-nested.tar", tmp);
		write_archive(out, ms3, 2, 0);
		expect_refused(out, "member run.trace/../../evil", outside);
	}
	/* an absolute member */
	{
		member ms[] = {
			{ "MANIFEST", man, NULL, NULL, 0 },
			{ absname, NULL, "pwned\n", NULL, 0 },
			{ "proc-000000.sdat", d0, NULL, NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/absolute.tar", tmp);
		write_archive(out, ms, 3, 0);
		expect_refused(out, "absolute member", outside);
	}
	/* a symlink out of the target, then a file through it */
	{
		const char *out2[] = { tmpevil2, refevil2, NULL };
		member ms[] = {
			{ "MANIFEST", man, NULL, NULL, 0 },
			{ "proc-000000.sdat", NULL, NULL, "..", 0 },
			{ "proc-000000.sdat/evil2", NULL, "pwned\n", NULL, 0 },
		};
		snprintf(out, sizeof out, "%s/symlink.tar", tmp);
		write_archive(out, ms, 3, 0);
		expect_refused(out, "symlink member", out2);
	}
	/* truncated bundles */
	{
		static const char *const exts[] = { ".tar", ".tar.gz",
						    ".tar.xz" };
		for (int i = 0; i < 3; i++) {
			char src[4300], what[4400];
			size_t len;
			snprintf(src, sizeof src, "%s/bundles/run%s", tmp,
				 exts[i]);
			uint8_t *b = tg_read_file(src, &len);
			if (!b) {
				TEST_FAIL("no bundle %s to truncate", src);
				continue;
			}
			/* cut inside the first data file's content */
			size_t cut = i == 0 ? 1536 + 100 : len / 2;
			snprintf(out, sizeof out, "%s/cut%s", tmp, exts[i]);
			tg_write_file(out, b, cut);
			snprintf(what, sizeof what, "%s cut at %zu of %zu",
				 exts[i], cut, len);
			expect_refused(out, what, NULL);
			free(b);
		}
	}
	/* Not an archive at all. */
	{
		sibt_trace *t = NULL;
		char eb[1024] = "";
		snprintf(out, sizeof out, "%s/notes.txt", tmp);
		tg_write_file(out, "just some text\n", 15);
		int rc = sibt_trace_open(&t, out, 0, eb, sizeof eb);
		CHECKF((rc == SIBT_EARCHIVE || rc == SIBT_EMAGIC) && !t,
		       "text file: open = %d (%s): %s", rc, sibt_strerror(rc),
		       eb);
		if (t)
			sibt_trace_close(t);
		expect_tmpdir_empty("text file");
	}
	/* An archive holding no trace. */
	{
		member ms[] = { { "README", NULL, "hello\n", NULL, 0 } };
		sibt_trace *t = NULL;
		char eb[1024] = "";
		snprintf(out, sizeof out, "%s/notrace.tar", tmp);
		write_archive(out, ms, 1, 0);
		int rc = sibt_trace_open(&t, out, 0, eb, sizeof eb);
		CHECKF(rc < 0 && !t, "archive without a trace: open = %d", rc);
		if (t)
			sibt_trace_close(t);
		expect_tmpdir_empty("archive without a trace");
	}
}

static void test_pack_refuses(void)
{
	char dir[4300], out[4300], eb[1024];
	int rc;

	snprintf(dir, sizeof dir, "%s/not-a-trace", tmp);
	snprintf(out, sizeof out, "%s/not-a-trace.tar.gz", tmp);
	{
		char cmd[4400];
		snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
		if (system(cmd))
			exit(99);
	}
	eb[0] = '\0';
	rc = sibt_bundle_pack(dir, out, eb, sizeof eb);
	CHECKF(rc < 0 && !tg_exists(out) && eb[0], "pack of an empty "
	       "directory = %d: %s", rc, eb);
	tg_write_file(tg_path(dir, "notes.txt"), "hello\n", 6);
	tg_write_file(tg_path(dir, "proc-000000.sdat"), "garbage", 7);
	rc = sibt_bundle_pack(dir, out, eb, sizeof eb);
	CHECKF(rc < 0 && !tg_exists(out), "pack of a non-trace directory = "
	       "%d: %s", rc, eb);
	snprintf(dir, sizeof dir, "%s/no-such-dir", tmp);
	rc = sibt_bundle_pack(dir, out, eb, sizeof eb);
	CHECKF(rc < 0 && !tg_exists(out), "pack of a missing directory = %d",
	       rc);
	/* A trace whose data file is missing is not packed either. */
	snprintf(dir, sizeof dir, "%s/incomplete", tmp);
	{
		char cmd[8800];
		snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && rm '%s'",
			 tracedir, dir, tg_datafile(dir, 1));
		if (system(cmd))
			exit(99);
	}
	rc = sibt_bundle_pack(dir, out, eb, sizeof eb);
	CHECKF(rc < 0 && !tg_exists(out), "pack of a trace without "
	       "proc-000001.sdat = %d", rc);
	/* An unwritable destination leaves nothing behind. */
	snprintf(out, sizeof out, "%s/no-such-dir/x.tar", tmp);
	rc = sibt_bundle_pack(tracedir, out, eb, sizeof eb);
	CHECKF(rc < 0, "pack into a missing directory = %d", rc);
}

int main(void)
{
	char err[1024];
	tg_params prm = { 7, 30, 3, 0, 1 };
	tg_wopts o;

	alarm(300);
	snprintf(tmp, sizeof tmp, "%s", test_tmpdir("test_bundle"));
	snprintf(tmpdir, sizeof tmpdir, "%s/tmpdir", tmp);
	snprintf(tracedir, sizeof tracedir, "%s/run.trace", tmp);
	{
		char cmd[8800];
		snprintf(cmd, sizeof cmd, "mkdir -p '%s' '%s/bundles'", tmpdir,
			 tmp);
		if (system(cmd))
			return 99;
	}
	setenv("TMPDIR", tmpdir, 1);

	model = tg_generate(2024, &prm);
	tg_wopts_init(&o);
	o.nprocs = nprocs;
	o.window = 8;
	o.cmdline = "./app -n 7";
	if (tg_write(model, tracedir, &o, err, sizeof err) != SIBT_OK) {
		fprintf(stderr, "cannot write the trace: %s\n", err);
		return 99;
	}
	test_pack_formats();
	test_hostile();
	test_pack_refuses();
	tg_free_model(model);
	return TEST_EXIT();
}
