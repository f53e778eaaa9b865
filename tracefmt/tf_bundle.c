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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

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

/* ------------------------------------------------------------ unpacking */

/*
 * The archive's bytes come through read_source(): a gzip bundle is
 * inflated here with zlib, which verifies the CRC-32 and length of every
 * gzip member (libarchive's gzip filter does not verify them); any other
 * bundle is passed to libarchive's filters as it is.  `consumed' counts
 * the bundle's bytes read so far, for the expansion limit.
 */
typedef struct source {
	int fd;
	int gzip;               /* inflating gzip here */
	int zinit, member_end;  /* a gzip member just ended */
	z_stream z;
	uint64_t consumed;
	int eof;
	const char *path;
	uint8_t in[1 << 16], out[1 << 16];
} source;

static ssize_t fill(struct archive *a, source *s)
{
	ssize_t n;
	do
		n = read(s->fd, s->in, sizeof s->in);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		archive_set_error(a, errno, "%s: read error: %s", s->path,
				  strerror(errno));
		return -1;
	}
	s->consumed += (uint64_t)n;
	s->eof = n == 0;
	return n;
}

static la_ssize_t read_source(struct archive *a, void *arg, const void **buf)
{
	source *s = arg;
	ssize_t n;

	if (!s->gzip) {
		n = fill(a, s);
		*buf = s->in;
		return n;
	}
	for (;;) {
		if (s->z.avail_in == 0 && !s->eof) {
			if ((n = fill(a, s)) < 0)
				return ARCHIVE_FATAL;
			s->z.next_in = s->in;
			s->z.avail_in = (uInt)n;
		}
		if (s->member_end) {
			/* Another gzip member may follow; zeros pad some
			 * files to a block size; anything else is damage. */
			while (s->z.avail_in && *s->z.next_in == 0) {
				s->z.next_in++;
				s->z.avail_in--;
			}
			if (!s->z.avail_in) {
				if (s->eof)
					return 0;
				continue;
			}
			if (*s->z.next_in != 0x1f || inflateReset(&s->z) != Z_OK) {
				archive_set_error(a, EILSEQ,
					"%s: bytes after the end of the gzip "
					"data (near byte %" PRIu64 ")",
					s->path, s->consumed - s->z.avail_in);
				return ARCHIVE_FATAL;
			}
			s->member_end = 0;
		}
		s->z.next_out = s->out;
		s->z.avail_out = sizeof s->out;
		int zr = inflate(&s->z, Z_NO_FLUSH);
		size_t got = sizeof s->out - s->z.avail_out;
		if (zr == Z_STREAM_END)
			s->member_end = 1;
		else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			archive_set_error(a, EILSEQ,
				"%s: the gzip data is corrupted near byte %"
				PRIu64 " (%s)", s->path,
				s->consumed - s->z.avail_in,
				s->z.msg ? s->z.msg : "inflate error");
			return ARCHIVE_FATAL;
		} else if (!got && s->eof && !s->z.avail_in) {
			archive_set_error(a, EILSEQ,
				"%s: the gzip data is cut off (its end and "
				"checksum are missing)", s->path);
			return ARCHIVE_FATAL;
		}
		if (got) {
			*buf = s->out;
			return (la_ssize_t)got;
		}
	}
}

/*
 * A data file checked as it streams out of the archive (FORMAT.md 4): the
 * header before anything past it is written, then each frame's header
 * checksum before its payload length is believed, then the payload
 * checksum.  A data file whose header does not verify is refused: no
 * reader could use it.  After a frame that does not verify (a damaged
 * trace is packed as it is) the rest is passed on unchecked, for the
 * reader to report; only the expansion limit bounds it.
 */
enum { DS_HEADER, DS_TAG, DS_FRAME_HDR, DS_PAYLOAD, DS_UNCHECKED };

typedef struct dstream {
	int state;
	uint8_t h[TF_WIN_HDR_MAX];
	size_t hn, need;        /* header bytes held and wanted */
	uint64_t left;          /* payload bytes to come */
	uint32_t crc, want;
} dstream;

/* Header length of the frame whose first five bytes are in d->h, or 0. */
static size_t frame_header_len(const dstream *d)
{
	if (!memcmp(d->h, "WIND", 4))
		return d->h[4] >= TF_WIN_HDR_MIN && d->h[4] <= TF_WIN_HDR_MAX ?
		       d->h[4] : 0;
	if (!memcmp(d->h, "STRS", 4))
		return TF_STR_HDR;
	if (!memcmp(d->h, "DICT", 4))
		return TF_DICT_HDR;
	if (!memcmp(d->h, "INDX", 4))
		return TF_IDX_HDR;
	if (!memcmp(d->h, "TEND", 4))
		return TF_TRAILER;
	return 0;
}

/* A complete frame header in d->h: verify it and learn its payload. */
static void frame_header(dstream *d)
{
	const uint8_t *h = d->h;
	size_t n = d->need;
	d->state = DS_UNCHECKED;
	if (tf_get32(h + n - 4) != crc32(0, h, (uInt)(n - 4)))
		return;
	if (!memcmp(h, "WIND", 4)) {
		tf_rd r = { h + 5, h + n - 8, 0 };
		uint64_t v[9];
		for (int i = 0; i < 9; i++)
			v[i] = tf_rd_varint(&r);
		if (r.bad || v[7] > UINT32_MAX)
			return;
		d->left = v[7];
		d->want = tf_get32(h + n - 8);
	} else if (!memcmp(h, "STRS", 4)) {
		d->left = tf_get32(h + 12);
		d->want = tf_get32(h + 16);
	} else if (!memcmp(h, "DICT", 4)) {
		d->left = tf_get32(h + 4);
		d->want = tf_get32(h + 8);
	} else if (!memcmp(h, "INDX", 4)) {
		d->left = tf_get32(h + 24);
		d->want = tf_get32(h + 28);
	} else {
		return; /* the trailer ends the file: nothing may follow */
	}
	d->crc = 0;
	d->state = d->left ? DS_PAYLOAD : DS_TAG;
	if (!d->left && d->want != 0)
		d->state = DS_UNCHECKED;
	d->hn = 0;
	d->need = 4;
}

/* Feed len bytes; SIBT_OK, or an error for a header no reader takes. */
static int dstream_feed(dstream *d, const uint8_t *p, size_t len,
			const char *bundle, const char *name, char *err,
			size_t errlen)
{
	while (len && d->state != DS_UNCHECKED) {
		if (d->state == DS_PAYLOAD) {
			size_t k = len < d->left ? len : (size_t)d->left;
			d->crc = (uint32_t)crc32(d->crc, p, (uInt)k);
			p += k;
			len -= k;
			if ((d->left -= k) == 0)
				d->state = d->crc == d->want ? DS_TAG :
					   DS_UNCHECKED;
			continue;
		}
		size_t k = d->need - d->hn < len ? d->need - d->hn : len;
		memcpy(d->h + d->hn, p, k);
		d->hn += k;
		p += k;
		len -= k;
		if (d->hn < d->need)
			continue;
		if (d->state == DS_HEADER) {
			const uint8_t *h = d->h;
			if (memcmp(h, TF_MAGIC, 8))
				return tf_fail(err, errlen, SIBT_EMAGIC, "%s: "
					"member '%s' is not a Sibyl data file "
					"(bad magic number); refusing to "
					"unpack", bundle, name);
			if (tf_get32(h + 12) != TF_BOM ||
			    tf_get16(h + 8) != SIBT_FORMAT_MAJOR)
				return tf_fail(err, errlen, SIBT_EVERSION,
					"%s: member '%s' has format version "
					"%u.%u or a byte order this Sibyl "
					"cannot read", bundle, name,
					tf_get16(h + 8), tf_get16(h + 10));
			if (tf_get32(h + 60) != crc32(0, h, 60))
				return tf_fail(err, errlen, SIBT_ECRC, "%s: "
					"the header of member '%s' fails its "
					"checksum: the bundle is corrupted",
					bundle, name);
			d->state = DS_TAG;
			d->hn = 0;
			d->need = 4;
		} else if (d->state == DS_TAG) {
			/* Ask for the WIND length byte, then the rest. */
			d->need = 5;
			d->state = DS_FRAME_HDR;
		} else if (d->hn == 5 && d->need == 5) {
			d->need = frame_header_len(d);
			if (d->need <= 5)
				d->state = DS_UNCHECKED;
		} else {
			frame_header(d);
		}
	}
	return SIBT_OK;
}

/* Expansion limit (FORMAT.md section 2): what a bundle may write. */
static uint64_t expansion_limit(const source *s)
{
	uint64_t lim = TF_BUNDLE_RATIO * s->consumed;
	return lim > TF_BUNDLE_FLOOR ? lim : TF_BUNDLE_FLOOR;
}

/* State of one unpack: the files made so far (a set of names), the bytes
 * written, and the MANIFEST's data file names once it has been read. */
typedef struct unpack {
	const char *bundle, *dir;
	struct archive *a;
	source *src;
	tf_manifest made, files;
	int have_manifest;
	uint64_t written;
	char *err;
	size_t errlen;
} unpack;

/* Write a block of member `name' to fd, within the expansion limit. */
static int put_block(unpack *u, int fd, const char *name, const void *buf,
		     size_t len)
{
	if (u->written + len > expansion_limit(u->src))
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: member "
			"'%s' expands the bundle to more than %" PRIu64
			" bytes from %" PRIu64 " compressed bytes (a bundle "
			"may expand to %u times its size, or %u MiB); "
			"refusing it as a decompression bomb", u->bundle,
			name, u->written + len, u->src->consumed,
			TF_BUNDLE_RATIO, TF_BUNDLE_FLOOR >> 20);
	if (tf_write_full(fd, buf, len))
		return tf_fail(u->err, u->errlen, SIBT_EIO, "%s/%s: write "
			       "error: %s", u->dir, name, strerror(errno));
	u->written += len;
	return SIBT_OK;
}

/* The data file names of the MANIFEST's file.N entries, as a set (the
 * keys of u->files), so that each member is looked up in constant time. */
static int list_files(unpack *u, const tf_manifest *m)
{
	char key[32], file[256];
	for (uint32_t p = 0; p < m->n; p++) {
		snprintf(key, sizeof key, "file.%u", p);
		const char *v = tf_manifest_get(m, key);
		if (!v)
			break;
		if (sscanf(v, "%255s", file) == 1 &&
		    tf_manifest_set(&u->files, file, ""))
			return SIBT_ENOMEM;
	}
	return SIBT_OK;
}

static int listed(const unpack *u, const char *name)
{
	return tf_manifest_get(&u->files, name) != NULL;
}

/* The MANIFEST member: bounded, parsed in memory, then written. */
static int unpack_manifest(unpack *u, struct archive_entry *e, int fd)
{
	char *text = NULL, where[600];
	tf_manifest man;
	size_t n = 0, cap = TF_MANIFEST_MAX_BYTES;
	const void *buf;
	size_t len;
	la_int64_t off;
	int r = ARCHIVE_EOF, rc = SIBT_OK;

	if (archive_entry_size_is_set(e)) {
		if (archive_entry_size(e) > (la_int64_t)TF_MANIFEST_MAX_BYTES)
			return tf_fail(u->err, u->errlen, SIBT_EMANIFEST, "%s: "
				"its MANIFEST has %" PRId64 " bytes, more than "
				"a manifest may hold (%u): not a Sibyl trace "
				"bundle", u->bundle,
				(int64_t)archive_entry_size(e),
				TF_MANIFEST_MAX_BYTES);
		cap = (size_t)archive_entry_size(e);
	}
	if (!(text = malloc(cap + 1)))
		return SIBT_ENOMEM;
	while ((r = archive_read_data_block(u->a, &buf, &len, &off)) ==
	       ARCHIVE_OK) {
		if (off < 0 || (uint64_t)off != n || len > cap - n) {
			rc = tf_fail(u->err, u->errlen, SIBT_EMANIFEST, "%s: "
				     "its MANIFEST is sparse or larger than "
				     "%u bytes: not a Sibyl trace bundle",
				     u->bundle, TF_MANIFEST_MAX_BYTES);
			goto out;
		}
		memcpy(text + n, buf, len);
		n += len;
	}
	if (r != ARCHIVE_EOF)
		goto out; /* reported by the caller */
	snprintf(where, sizeof where, "%s:MANIFEST", u->bundle);
	if ((rc = tf_manifest_parse(&man, text, n, where, u->err,
				    u->errlen)))
		goto out;
	rc = list_files(u, &man);
	tf_manifest_free(&man);
	if (rc)
		goto out;
	u->have_manifest = 1;
	rc = put_block(u, fd, TF_MANIFEST, text, n);
out:
	free(text);
	return rc ? rc : r == ARCHIVE_EOF ? SIBT_OK : SIBT_EARCHIVE;
}

/* A data file member, checked as it streams (see dstream). */
static int unpack_data(unpack *u, const char *name, int fd)
{
	dstream d = { DS_HEADER, { 0 }, 0, TF_HDR_SIZE, 0, 0, 0 };
	static const uint8_t zeros[4096];
	const void *buf;
	size_t len;
	la_int64_t off, pos = 0;
	int r, rc;

	while ((r = archive_read_data_block(u->a, &buf, &len, &off)) ==
	       ARCHIVE_OK) {
		if (off < pos)
			return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: "
				       "member '%s' is malformed (its blocks "
				       "go backwards)", u->bundle, name);
		/* A sparse member's holes are written out as zeros, through
		 * the same checks and limit as any other byte. */
		while (pos < off) {
			size_t k = off - pos < (la_int64_t)sizeof zeros ?
				   (size_t)(off - pos) : sizeof zeros;
			if ((rc = dstream_feed(&d, zeros, k, u->bundle, name,
					       u->err, u->errlen)) ||
			    (rc = put_block(u, fd, name, zeros, k)))
				return rc;
			pos += (la_int64_t)k;
		}
		if ((rc = dstream_feed(&d, buf, len, u->bundle, name, u->err,
				       u->errlen)) ||
		    (rc = put_block(u, fd, name, buf, len)))
			return rc;
		pos += (la_int64_t)len;
	}
	return r == ARCHIVE_EOF ? SIBT_OK : SIBT_EARCHIVE;
}

/* One regular member `name' of archive path `path' into u->dir. */
static int unpack_member(unpack *u, struct archive_entry *e,
			 const char *path, const char *name)
{
	int is_manifest = !strcmp(name, TF_MANIFEST), rc;
	char shown[300];

	if (tf_manifest_get(&u->made, name))
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: member "
			       "'%s' appears twice; refusing to unpack",
			       u->bundle, tf_escape(shown, sizeof shown, path,
						    256));
	if (!is_manifest && u->have_manifest && !listed(u, name))
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: member "
			       "'%s' is not a data file its MANIFEST lists; "
			       "refusing to unpack", u->bundle,
			       tf_escape(shown, sizeof shown, path, 256));
	char *out = tf_path_join(u->dir, name);
	if (!out || tf_manifest_set(&u->made, name, "")) {
		free(out);
		return SIBT_ENOMEM;
	}
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
		      O_NOFOLLOW, 0666);
	if (fd < 0) {
		rc = tf_fail(u->err, u->errlen, SIBT_EIO, "%s: %s", out,
			     strerror(errno));
		free(out);
		return rc;
	}
	rc = is_manifest ? unpack_manifest(u, e, fd) : unpack_data(u, name, fd);
	if (close(fd) != 0 && !rc)
		rc = tf_fail(u->err, u->errlen, SIBT_EIO, "%s: %s", out,
			     strerror(errno));
	free(out);
	if (rc == SIBT_EARCHIVE && !*u->err)
		rc = tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: member "
			     "'%s' cannot be read: %s (truncated or corrupted "
			     "bundle)", u->bundle, tf_escape(shown, sizeof shown,
			     path, 256), archive_error_string(u->a));
	return rc;
}

/* Open the archive reader on s (a gzip bundle inflated by read_source). */
static int open_archive(unpack *u, source *s)
{
	uint8_t magic[2];

	struct stat st;

	/* O_NONBLOCK: a FIFO must not hang the open (refused below). */
	if ((s->fd = open(u->bundle, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0 ||
	    fstat(s->fd, &st) != 0)
		return tf_fail(u->err, u->errlen, SIBT_EIO, "%s: %s",
			       u->bundle, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: not a "
			       "regular file: a bundle must be one", u->bundle);
	s->path = u->bundle;
	if (tf_pread_full(s->fd, magic, 2, 0) == 2 && magic[0] == 0x1f &&
	    magic[1] == 0x8b) {
		if (inflateInit2(&s->z, 15 + 16) != Z_OK)
			return SIBT_ENOMEM;
		s->zinit = s->gzip = 1;
	}
	if (!(u->a = archive_read_new()))
		return SIBT_ENOMEM;
	if (!s->gzip)
		archive_read_support_filter_all(u->a);
	archive_read_support_format_tar(u->a);
	archive_read_support_format_gnutar(u->a);
	if (archive_read_open(u->a, s, NULL, read_source, NULL) != ARCHIVE_OK)
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: not a "
			       "readable bundle: %s", u->bundle,
			       archive_error_string(u->a));
	return SIBT_OK;
}

/* After the last member: a MANIFEST, and every data file listed in it. */
static int check_members(unpack *u)
{
	char shown[300];
	if (!u->have_manifest)
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: the "
			       "bundle holds no MANIFEST: not a Sibyl trace "
			       "bundle", u->bundle);
	for (size_t i = 0; i < u->made.n; i++) {
		const char *name = u->made.kv[i].key;
		if (strcmp(name, TF_MANIFEST) && !listed(u, name))
			return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: "
				       "member '%s' is not a data file its "
				       "MANIFEST lists; refusing to unpack",
				       u->bundle, tf_escape(shown, sizeof
				       shown, name, 256));
	}
	return SIBT_OK;
}

/*
 * libarchive stops reading at the tar end marker: read a gzip bundle to
 * its end, so that the checksum of its last member is verified and
 * nothing but zeros follows it.  What is inflated here counts towards the
 * expansion limit, though it is not written.
 */
static int drain(unpack *u)
{
	const void *buf;
	la_ssize_t n;

	if (!u->src->gzip)
		return SIBT_OK;
	while ((n = read_source(u->a, u->src, &buf)) > 0) {
		u->written += (uint64_t)n;
		if (u->written > expansion_limit(u->src))
			return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s: "
				"more than %" PRIu64 " bytes follow the end "
				"of the archive (a bundle may expand to %u "
				"times its size, or %u MiB); refusing it as a "
				"decompression bomb", u->bundle, u->written,
				TF_BUNDLE_RATIO, TF_BUNDLE_FLOOR >> 20);
	}
	if (n < 0)
		return tf_fail(u->err, u->errlen, SIBT_EARCHIVE, "%s",
			       archive_error_string(u->a));
	return SIBT_OK;
}

int sibt_bundle_unpack(const char *bundle, const char *dir, int overwrite,
		       char *err, size_t errlen)
{
	struct archive_entry *e;
	char top[256] = "", shown[300], dummy[1];
	source *src = NULL;
	unpack u = { 0 };
	int rc = SIBT_OK, r, made_dir = 0;

	if (!bundle || !dir)
		return tf_fail(err, errlen, SIBT_EINVAL, "no path");
	if (mkdir(dir, 0777) == 0) {
		made_dir = 1;
	} else if (errno != EEXIST || !overwrite) {
		return tf_fail(err, errlen, errno == EEXIST ? SIBT_EINVAL :
			SIBT_EIO, "%s: %s%s", dir, strerror(errno),
			errno == EEXIST ? " (overwrite it with --force)" : "");
	}
	u.bundle = bundle;
	u.dir = dir;
	u.err = err ? err : dummy;
	u.errlen = err ? errlen : sizeof dummy;
	u.err[0] = 0;
	if (!(src = calloc(1, sizeof *src))) {
		rc = SIBT_ENOMEM;
		goto out;
	}
	src->fd = -1;
	u.src = src;
	if ((rc = open_archive(&u, src)))
		goto out;
	while ((r = archive_read_next_header(u.a, &e)) == ARCHIVE_OK) {
		const char *path = archive_entry_pathname(e);
		if (!path) {
			rc = tf_fail(u.err, u.errlen, SIBT_EARCHIVE, "%s: a "
				     "member has no name", bundle);
			goto out;
		}
		if (archive_entry_filetype(e) == AE_IFDIR && is_top_dir(path))
			continue; /* the top directory itself */
		const char *name = member_name(path, top, sizeof top);
		if (!name || archive_entry_filetype(e) != AE_IFREG) {
			rc = tf_fail(u.err, u.errlen, SIBT_EARCHIVE, "%s: member "
				"'%s' is not part of a Sibyl trace (only "
				"MANIFEST and proc-*.sdat files are accepted); "
				"refusing to unpack", bundle,
				tf_escape(shown, sizeof shown, path, 256));
			goto out;
		}
		if ((rc = unpack_member(&u, e, path, name)))
			goto out;
	}
	if (r != ARCHIVE_EOF) {
		rc = tf_fail(u.err, u.errlen, SIBT_EARCHIVE, "%s: %s "
			     "(truncated or corrupted bundle)", bundle,
			     archive_error_string(u.a));
		goto out;
	}
	if (!(rc = check_members(&u)))
		rc = drain(&u);
out:
	if (u.a)
		archive_read_free(u.a);
	if (rc) {
		/* Release the space at once, whoever owns dir. */
		for (size_t i = 0; i < u.made.n; i++) {
			char *p = tf_path_join(dir, u.made.kv[i].key);
			if (p)
				unlink(p);
			free(p);
		}
		if (made_dir)
			rmdir(dir);
	}
	if (src) {
		if (src->zinit)
			inflateEnd(&src->z);
		if (src->fd >= 0)
			close(src->fd);
		free(src);
	}
	tf_manifest_free(&u.made);
	tf_manifest_free(&u.files);
	return rc;
}
