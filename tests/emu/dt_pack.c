/*
 * dt_pack.c -- MPI_Pack, MPI_Unpack and MPI_Pack_size against a reference.
 *
 * Every type below comes with its type map written out by hand: the
 * (byte offset, length) pieces of one element in type-map order.  The
 * reference packing of `count' elements copies those pieces of element
 * i, i * extent further on, one after the other.  For each type and
 * count 0, 1 and 3:
 *   MPI_Pack_size is count * size;
 *   MPI_Pack of a buffer of distinct bytes gives the reference bytes, at
 *   the position given (two packs into one buffer), and advances it;
 *   MPI_Unpack into a buffer of 0xEE bytes writes exactly the type map's
 *   bytes (holes stay 0xEE) with the original values.
 * The types: contiguous, vector (also negative stride), hvector (ints at
 * odd offsets), indexed, hindexed, indexed_block, hindexed_block, a C
 * struct with holes (resized to the C size), contiguous of a resized
 * type with a negative lower bound, three levels of nesting, a vector of
 * 1000 blocks of 8 doubles, the pair types (MPI_SHORT_INT has a hole
 * inside), a struct of pair types.
 * Then MPI_BOTTOM: a struct of absolute addresses of three separately
 * allocated objects packs them and unpacks into them.
 * Local calls only.
 *
 * Ranks: any.  Prints "PASS dt_pack" on rank 0.
 */
#include "emutest.h"

#include <stddef.h>

#define FILL 0xEE

typedef struct tcase {
	const char *what;
	MPI_Datatype type;
	long ext;
	int n;            /* pieces of one element */
	long off[16], len[16];
	long *xoff, *xlen; /* instead, when there are more */
} tcase;

static long piece_off(const tcase *c, int j)
{
	return c->xoff ? c->xoff[j] : c->off[j];
}

static long piece_len(const tcase *c, int j)
{
	return c->xlen ? c->xlen[j] : c->len[j];
}

/* Bytes of `count' elements, and the lowest and highest offsets touched
 * (relative to the buffer's origin). */
static void span(const tcase *c, int count, long *lo, long *hi, long *size)
{
	*lo = 0, *hi = 0, *size = 0;
	for (int i = 0; i < count; i++)
		for (int j = 0; j < c->n; j++) {
			long o = i * c->ext + piece_off(c, j);
			if (o < *lo)
				*lo = o;
			if (o + piece_len(c, j) > *hi)
				*hi = o + piece_len(c, j);
			*size += piece_len(c, j);
		}
}

static void ref_pack(const tcase *c, int count, const char *origin,
		     char *out)
{
	for (int i = 0; i < count; i++)
		for (int j = 0; j < c->n; j++) {
			memcpy(out, origin + i * c->ext + piece_off(c, j),
			       (size_t)piece_len(c, j));
			out += piece_len(c, j);
		}
}

static void one(emu_test *t, const tcase *c, int count)
{
	long lo, hi, size;
	span(c, count, &lo, &hi, &size);
	long room = hi - lo + 64;
	char *src = emu_alloc(t, (size_t)room, 1);
	char *dst = emu_alloc(t, (size_t)room, 1);
	char *want = emu_alloc(t, (size_t)room, 1);
	char *packed = emu_alloc(t, (size_t)size + 16, 1);
	char *ref = emu_alloc(t, (size_t)size + 16, 1);
	/* The origin sits -lo + 32 bytes in, so lower offsets fit. */
	char *so = src - lo + 32, *dox = dst - lo + 32, *wo = want - lo + 32;
	for (long i = 0; i < room; i++)
		src[i] = (char)(i * 7 + t->rank + 1);
	memset(dst, FILL, (size_t)room);

	int psize = -1;
	MPI_Pack_size(count, c->type, MPI_COMM_WORLD, &psize);
	EMU_EQ(t, psize, size, "%s x %d: Pack_size", c->what, count);

	/* Pack behind 5 bytes of something else. */
	int pos = 0;
	char tag[5] = { 'h', 'e', 'a', 'd', (char)t->rank };
	MPI_Pack(tag, 5, MPI_CHAR, packed, (int)size + 16, &pos,
		 MPI_COMM_WORLD);
	MPI_Pack(so, count, c->type, packed, (int)size + 16, &pos,
		 MPI_COMM_WORLD);
	EMU_EQ(t, pos, 5 + size, "%s x %d: position after Pack", c->what,
	       count);
	ref_pack(c, count, so, ref);
	for (long i = 0; i < size; i++)
		if (!EMU_EQ(t, (unsigned char)packed[5 + i],
			    (unsigned char)ref[i], "%s x %d: packed byte %ld",
			    c->what, count, i))
			break;

	char back[5] = { 0 };
	pos = 0;
	MPI_Unpack(packed, (int)size + 5, &pos, back, 5, MPI_CHAR,
		   MPI_COMM_WORLD);
	MPI_Unpack(packed, (int)size + 5, &pos, dox, count, c->type,
		   MPI_COMM_WORLD);
	EMU_EQ(t, pos, 5 + size, "%s x %d: position after Unpack", c->what,
	       count);
	EMU_TRUE(t, !memcmp(back, tag, 5), "%s x %d: header", c->what,
		 count);
	/* What Unpack must give: FILL, except the type map's bytes. */
	memset(want, FILL, (size_t)room);
	for (int i = 0; i < count; i++)
		for (int j = 0; j < c->n; j++) {
			long o = i * c->ext + piece_off(c, j);
			memcpy(wo + o, so + o, (size_t)piece_len(c, j));
		}
	for (long i = 0; i < room; i++)
		if (!EMU_EQ(t, (unsigned char)dst[i], (unsigned char)want[i],
			    "%s x %d: unpacked byte at offset %ld", c->what,
			    count, i + lo - 32))
			break;
	free(src);
	free(dst);
	free(want);
	free(packed);
	free(ref);
}

static void run(emu_test *t, tcase *c)
{
	int size;
	MPI_Aint lb, ext;
	MPI_Type_commit(&c->type);
	MPI_Type_size(c->type, &size);
	MPI_Type_get_extent(c->type, &lb, &ext);
	EMU_EQ(t, ext, c->ext, "%s: extent", c->what);
	long sum = 0;
	for (int j = 0; j < c->n; j++)
		sum += piece_len(c, j);
	EMU_EQ(t, size, sum, "%s: size", c->what);
	for (int count = 0; count <= 3; count += count ? 2 : 1)
		one(t, c, count);
	if (c->type != MPI_DOUBLE_INT &&
	    c->type != MPI_SHORT_INT && c->type != MPI_LONG_DOUBLE_INT &&
	    c->type != MPI_2INT)
		MPI_Type_free(&c->type);
}

#define PIECES(...) .off = { __VA_ARGS__ }
#define LENS(...) .len = { __VA_ARGS__ }

static void basics(emu_test *t)
{
	tcase c;
	c = (tcase){ "contiguous(3, int)", 0, 12, 1, PIECES(0), LENS(12) };
	MPI_Type_contiguous(3, MPI_INT, &c.type);
	run(t, &c);

	c = (tcase){ "vector(3, 2, 4, int)", 0, 40, 3, PIECES(0, 16, 32),
		     LENS(8, 8, 8) };
	MPI_Type_vector(3, 2, 4, MPI_INT, &c.type);
	run(t, &c);

	c = (tcase){ "vector(3, 1, -2, double)", 0, 40, 3,
		     PIECES(0, -16, -32), LENS(8, 8, 8) };
	MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &c.type);
	run(t, &c);

	c = (tcase){ "hvector(2, 1, 6 B, int)", 0, 12, 2, PIECES(0, 6),
		     LENS(4, 4) };
	MPI_Type_create_hvector(2, 1, 6, MPI_INT, &c.type);
	run(t, &c);

	int bl[2] = { 2, 1 }, id[2] = { 3, 0 };
	MPI_Aint hd[2] = { 10, 1 };
	c = (tcase){ "indexed({2, 1}, {3, 0}, double)", 0, 40, 2,
		     PIECES(24, 0), LENS(16, 8) };
	MPI_Type_indexed(2, bl, id, MPI_DOUBLE, &c.type);
	run(t, &c);

	c = (tcase){ "hindexed({2, 1}, {10, 1} B, short)", 0, 14, 2,
		     PIECES(10, 1), LENS(4, 2) };
	MPI_Type_create_hindexed(2, bl, hd, MPI_SHORT, &c.type);
	run(t, &c);

	c = (tcase){ "indexed_block(2, 2, {3, 0}, int)", 0, 20, 2,
		     PIECES(12, 0), LENS(8, 8) };
	MPI_Type_create_indexed_block(2, 2, id, MPI_INT, &c.type);
	run(t, &c);

	c = (tcase){ "hindexed_block(2, 1, {10, 1} B, int)", 0, 16, 2,
		     PIECES(10, 1), LENS(4, 4) };
	MPI_Type_create_hindexed_block(2, 1, hd, MPI_INT, &c.type);
	run(t, &c);
}

struct part {
	double x[3];
	int id;
	char tag;
};

static void composite(emu_test *t)
{
	tcase c;
	MPI_Datatype a, b;

	int pb[3] = { 3, 1, 1 };
	MPI_Aint pd[3] = { offsetof(struct part, x),
			   offsetof(struct part, id),
			   offsetof(struct part, tag) };
	MPI_Datatype pt[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
	c = (tcase){ "struct part", 0, sizeof(struct part), 3,
		     PIECES(offsetof(struct part, x),
			    offsetof(struct part, id),
			    offsetof(struct part, tag)),
		     LENS(24, 4, 1) };
	MPI_Type_create_struct(3, pb, pd, pt, &a);
	MPI_Type_create_resized(a, 0, sizeof(struct part), &c.type);
	MPI_Type_free(&a);
	run(t, &c);

	/* Ints at 0 and 12 within an element [-4, 20). */
	c = (tcase){ "contiguous(2, resized(int, -4, 12))", 0, 24, 2,
		     PIECES(0, 12), LENS(4, 4) };
	MPI_Type_create_resized(MPI_INT, -4, 12, &a);
	MPI_Type_contiguous(2, a, &c.type);
	MPI_Type_free(&a);
	run(t, &c);

	/* hvector(2, 1, 200 B, contiguous(2, vector(3, 2, 4, int))). */
	c = (tcase){ "hvector(2, 1, 200, contiguous(2, vector(3,2,4,int)))",
		     0, 280, 12,
		     PIECES(0, 16, 32, 40, 56, 72,
			    200, 216, 232, 240, 256, 272),
		     LENS(8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8) };
	MPI_Type_vector(3, 2, 4, MPI_INT, &a);
	MPI_Type_contiguous(2, a, &b);
	MPI_Type_create_hvector(2, 1, 200, b, &c.type);
	MPI_Type_free(&a);
	MPI_Type_free(&b);
	run(t, &c);

	/* 1000 blocks of 8 doubles, 10 doubles apart. */
	c = (tcase){ .what = "vector(1000, 8, 10, double)",
		     .ext = (999 * 10 + 8) * 8, .n = 1000 };
	c.xoff = emu_alloc(t, 1000, sizeof(long));
	c.xlen = emu_alloc(t, 1000, sizeof(long));
	for (int i = 0; i < 1000; i++)
		c.xoff[i] = i * 80, c.xlen[i] = 64;
	MPI_Type_vector(1000, 8, 10, MPI_DOUBLE, &c.type);
	run(t, &c);
	free(c.xoff);
	free(c.xlen);
}

static void pairs(emu_test *t)
{
	struct di { double a; int b; };
	struct si { short a; int b; };
	struct ldi { long double a; int b; };
	tcase c;
	c = (tcase){ "MPI_DOUBLE_INT", MPI_DOUBLE_INT, sizeof(struct di), 1,
		     PIECES(0), LENS(12) };
	run(t, &c);
	c = (tcase){ "MPI_SHORT_INT", MPI_SHORT_INT, sizeof(struct si), 2,
		     PIECES(0, offsetof(struct si, b)), LENS(2, 4) };
	run(t, &c);
	c = (tcase){ "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT,
		     sizeof(struct ldi), 1, PIECES(0),
		     LENS(sizeof(long double) + 4) };
	run(t, &c);
	c = (tcase){ "MPI_2INT", MPI_2INT, 8, 1, PIECES(0), LENS(8) };
	run(t, &c);

	/* {MPI_2INT at 0, MPI_SHORT_INT at 8}: extent 16. */
	int bl[2] = { 1, 1 };
	MPI_Aint d[2] = { 0, 8 };
	MPI_Datatype ty[2] = { MPI_2INT, MPI_SHORT_INT };
	c = (tcase){ "struct {2int@0; short_int@8}", 0, 16, 3,
		     PIECES(0, 8, 12), LENS(8, 2, 4) };
	MPI_Type_create_struct(2, bl, d, ty, &c.type);
	run(t, &c);
}

/* MPI_BOTTOM: absolute addresses of three separate objects. */
static void bottom(emu_test *t)
{
	int *i = emu_alloc(t, 1, sizeof *i);
	double *d = emu_alloc(t, 5, sizeof *d);
	char *s = emu_alloc(t, 3, 1);
	int bl[3] = { 1, 5, 3 };
	MPI_Aint ad[3];
	MPI_Datatype ty[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR }, abs_t;
	MPI_Get_address(i, &ad[0]);
	MPI_Get_address(d, &ad[1]);
	MPI_Get_address(s, &ad[2]);
	MPI_Type_create_struct(3, bl, ad, ty, &abs_t);
	MPI_Type_commit(&abs_t);

	*i = 1000 + t->rank;
	for (int k = 0; k < 5; k++)
		d[k] = t->rank + k * 0.5;
	memcpy(s, "xyz", 3);
	char buf[64];
	int pos = 0, n = 4 + 40 + 3;
	MPI_Pack(MPI_BOTTOM, 1, abs_t, buf, sizeof buf, &pos,
		 MPI_COMM_WORLD);
	EMU_EQ(t, pos, n, "MPI_BOTTOM: packed bytes");
	int pi;
	double pd[5];
	memcpy(&pi, buf, 4);
	memcpy(pd, buf + 4, 40);
	EMU_EQ(t, pi, 1000 + t->rank, "MPI_BOTTOM: packed int");
	for (int k = 0; k < 5; k++)
		EMU_TRUE(t, pd[k] == t->rank + k * 0.5,
			 "MPI_BOTTOM: packed double %d", k);
	EMU_TRUE(t, !memcmp(buf + 44, "xyz", 3), "MPI_BOTTOM: packed chars");

	*i = 0;
	memset(d, 0, 5 * sizeof *d);
	memset(s, 0, 3);
	pos = 0;
	MPI_Unpack(buf, n, &pos, MPI_BOTTOM, 1, abs_t, MPI_COMM_WORLD);
	EMU_EQ(t, *i, 1000 + t->rank, "MPI_BOTTOM: unpacked int");
	for (int k = 0; k < 5; k++)
		EMU_TRUE(t, d[k] == t->rank + k * 0.5,
			 "MPI_BOTTOM: unpacked double %d", k);
	EMU_TRUE(t, !memcmp(s, "xyz", 3), "MPI_BOTTOM: unpacked chars");
	MPI_Type_free(&abs_t);
	free(i);
	free(d);
	free(s);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_pack", &argc, &argv);
	basics(&t);
	composite(&t);
	pairs(&t);
	bottom(&t);
	return emu_finish(&t);
}
