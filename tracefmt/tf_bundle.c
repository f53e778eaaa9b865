/*
 * tf_bundle.c -- a trace as one archive (libarchive): pack and unpack.
 *
 * A bundle holds MANIFEST and the data files, at the archive root or under
 * one top directory.  Unpacking accepts nothing else: no other names, no
 * absolute paths, no "..", no links or devices, so a hostile archive cannot
 * write outside the target directory.
 */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tf_private.h"

int sibt_path_is_bundle(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* Choose filter and format from the output name. */
static int setup_writer(struct archive *a, const char *out, char *err,
			size_t errlen)
{
	int r;

	if (ends_with(out, ".tar.gz") || ends_with(out, ".tgz"))
		r = archive_write_add_filter_gzip(a);
	else if (ends_with(out, ".tar.xz") || ends_with(out, ".txz"))
		r = archive_write_add_filter_xz(a);
	else if (ends_with(out, ".tar.bz2") || ends_with(out, ".tbz2"))
		r = archive_write_add_filter_bzip2(a);
	else if (ends_with(out, ".tar.zst") || ends_with(out, ".tzst"))
		r = archive_write_add_filter_zstd(a);
	else if (ends_with(out, ".tar"))
		r = archive_write_add_filter_none(a);
	else
		return tf_fail(err, errlen, SIBT_EINVAL, "%s: unknown bundle "
			"type; name it .tar, .tar.gz, .tar.xz, .tar.bz2 or "
			".tar.zst", out);
	if (r != ARCHIVE_OK)
		return tf_fail(err, errlen, SIBT_EARCHIVE, "%s: this libarchive "
			       "cannot write that compression: %s", out,
			       archive_error_string(a));
	if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK)
		return tf_fail(err, errlen, SIBT_EARCHIVE, "%s: %s", out,
			       archive_error_string(a));
	return SIBT_OK;
}

static int add_file(struct archive *a, const char *dir, const char *name,
		    char *err, size_t errlen)
{
	char *path = tf_path_join(dir, name);
	struct archive_entry *e = NULL;
	char buf[1 << 16];
	int fd = -1, rc = SIBT_OK;
	struct stat st;

	if (!path)
		return SIBT_ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: %s", path,
			     strerror(errno));
		goto out;
	}
	if (!(e = archive_entry_new())) {
		rc = SIBT_ENOMEM;
		goto out;
	}
	archive_entry_set_pathname(e, name);
	archive_entry_set_size(e, st.st_size);
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_mtime(e, st.st_mtime, 0);
	if (archive_write_header(a, e) != ARCHIVE_OK) {
		rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: %s", name,
			     archive_error_string(a));
		goto out;
	}
	int64_t left = st.st_size;
	while (left > 0) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = tf_fail(err, errlen, SIBT_EIO, "%s: read error "
				     "(file changed while packing?)", path);
			goto out;
		}
		if (archive_write_data(a, buf, (size_t)n) != n) {
			rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: %s",
				     name, archive_error_string(a));
			goto out;
		}
		left -= n;
	}
out:
	if (e)
		archive_entry_free(e);
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

int sibt_bundle_pack(const char *dir, const char *out, char *err,
		     size_t errlen)
{
	tf_manifest m;
	struct archive *a = NULL;
	char *mpath = NULL, *tmp = NULL;
	int rc;

	if (!dir || !out)
		return tf_fail(err, errlen, SIBT_EINVAL, "no path");
	if (!(mpath = tf_path_join(dir, TF_MANIFEST)))
		return SIBT_ENOMEM;
	rc = tf_manifest_read(&m, mpath, err, errlen);
	free(mpath);
	if (rc)
		return rc == SIBT_EMANIFEST ? tf_fail(err, errlen, rc,
			"%s is not a trace directory (no readable MANIFEST)",
			dir) : rc;

	size_t n = strlen(out);
	tmp = malloc(n + 16);
	if (!tmp) {
		rc = SIBT_ENOMEM;
		goto out;
	}
	snprintf(tmp, n + 16, "%s.part%d", out, (int)getpid() % 100000);
	a = archive_write_new();
	if (!a) {
		rc = SIBT_ENOMEM;
		goto out;
	}
	if ((rc = setup_writer(a, out, err, errlen)))
		goto out;
	if (archive_write_open_filename(a, tmp) != ARCHIVE_OK) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot create: %s",
			     tmp, archive_error_string(a));
		goto out;
	}
	if ((rc = add_file(a, dir, TF_MANIFEST, err, errlen)))
		goto out;
	for (unsigned p = 0;; p++) {
		char key[32], name[256];
		snprintf(key, sizeof key, "file.%u", p);
		const char *v = tf_manifest_get(&m, key);
		if (!v)
			break;
		if (sscanf(v, "%255s", name) != 1 || strchr(name, '/')) {
			rc = tf_fail(err, errlen, SIBT_EMANIFEST, "%s/MANIFEST:"
				     " bad '%s' entry", dir, key);
			goto out;
		}
		if ((rc = add_file(a, dir, name, err, errlen)))
			goto out;
	}
	if (archive_write_close(a) != ARCHIVE_OK) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: %s", tmp,
			     archive_error_string(a));
		goto out;
	}
	if (rename(tmp, out) != 0) {
		rc = tf_fail(err, errlen, SIBT_EIO, "%s: cannot rename into "
			     "place: %s", out, strerror(errno));
		goto out;
	}
out:
	if (a)
		archive_write_free(a);
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	tf_manifest_free(&m);
	return rc;
}

/* Accept "NAME" or "TOP/NAME" with NAME MANIFEST or proc-*.sdat; return
 * NAME or NULL. */
static const char *member_name(const char *path, char *top, size_t toplen)
{
	const char *slash = strchr(path, '/');
	const char *name = path;

	if (!*path || path[0] == '/')
		return NULL;
	if (slash) {
		size_t l = (size_t)(slash - path);
		if (l == 0 || l >= toplen || strchr(slash + 1, '/') ||
		    (l == 2 && !strncmp(path, "..", 2)))
			return NULL;
		if (top[0] && (strncmp(top, path, l) || top[l]))
			return NULL; /* a second top directory */
		memcpy(top, path, l);
		top[l] = 0;
		name = slash + 1;
	}
	if (!strcmp(name, TF_MANIFEST))
		return name;
	if (!strncmp(name, "proc-", 5) && ends_with(name, ".sdat") &&
	    !strstr(name, ".."))
		return name;
	return NULL;
}

/* "TOP" or "TOP/": one component, not "..". */
static int is_top_dir(const char *path)
{
	size_t l = strlen(path);
	const char *slash = strchr(path, '/');
	if (slash && (size_t)(slash - path) != l - 1)
		return 0;
	if (slash)
		l--;
	return l > 0 && path[0] != '/' && !(l == 2 && !strncmp(path, "..", 2));
}

int sibt_bundle_unpack(const char *bundle, const char *dir, int overwrite,
		       char *err, size_t errlen)
{
	struct archive *a;
	struct archive_entry *e;
	char top[256] = "";
	int rc = SIBT_OK, have_manifest = 0, r;
	int made_dir = 0;

	if (!bundle || !dir)
		return tf_fail(err, errlen, SIBT_EINVAL, "no path");
	if (mkdir(dir, 0777) == 0) {
		made_dir = 1;
	} else if (errno != EEXIST || !overwrite) {
		return tf_fail(err, errlen, errno == EEXIST ? SIBT_EINVAL :
			SIBT_EIO, "%s: %s%s", dir, strerror(errno),
			errno == EEXIST ? " (overwrite it with --force)" : "");
	}
	if (!(a = archive_read_new()))
		return SIBT_ENOMEM;
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	if (archive_read_open_filename(a, bundle, 1 << 16) != ARCHIVE_OK) {
		rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: not a readable "
			     "bundle: %s", bundle, archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *path = archive_entry_pathname(e);
		if (!path) {
			rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: a member "
				     "has no name", bundle);
			goto out;
		}
		if (archive_entry_filetype(e) == AE_IFDIR && is_top_dir(path))
			continue; /* the top directory itself */
		const char *name = member_name(path, top, sizeof top);
		if (!name || archive_entry_filetype(e) != AE_IFREG) {
			rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: member "
				"'%s' is not part of a Sibyl trace (only "
				"MANIFEST and proc-*.sdat files are accepted); "
				"refusing to unpack", bundle, path);
			goto out;
		}
		char *out = tf_path_join(dir, name);
		if (!out) {
			rc = SIBT_ENOMEM;
			goto out;
		}
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
			      O_NOFOLLOW, 0666);
		if (fd < 0) {
			rc = tf_fail(err, errlen, SIBT_EIO, "%s: %s", out,
				     strerror(errno));
			free(out);
			goto out;
		}
		const void *buf;
		size_t len;
		la_int64_t off, pos = 0;
		while ((r = archive_read_data_block(a, &buf, &len, &off)) ==
		       ARCHIVE_OK) {
			if (off != pos && lseek(fd, off, SEEK_SET) < 0)
				r = ARCHIVE_FATAL;
			if (tf_write_full(fd, buf, len)) {
				rc = tf_fail(err, errlen, SIBT_EIO, "%s: write "
					     "error: %s", out, strerror(errno));
				break;
			}
			pos = off + (la_int64_t)len;
		}
		if (close(fd) != 0 && !rc)
			rc = tf_fail(err, errlen, SIBT_EIO, "%s: %s", out,
				     strerror(errno));
		if (!rc && r != ARCHIVE_EOF)
			rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: member "
				     "'%s' cannot be read: %s (truncated or "
				     "corrupted bundle)", bundle, path,
				     archive_error_string(a));
		free(out);
		if (rc)
			goto out;
		if (!strcmp(name, TF_MANIFEST))
			have_manifest = 1;
	}
	if (r != ARCHIVE_EOF) {
		rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: %s (truncated "
			     "or corrupted bundle)", bundle,
			     archive_error_string(a));
		goto out;
	}
	if (!have_manifest)
		rc = tf_fail(err, errlen, SIBT_EARCHIVE, "%s: the bundle holds "
			     "no MANIFEST: not a Sibyl trace bundle", bundle);
out:
	archive_read_free(a);
	if (rc && made_dir)
		tf_rmtree(dir);
	return rc;
}
