/*
 * dt_p2p.c -- derived datatypes in point-to-point communication.
 *
 * For each peer distance d (size/2: usually another process; 1: usually
 * the same one) every rank sends to rank+d and receives from rank-d
 * (MPI_Sendrecv unless said otherwise); every received byte is checked
 * against what the sender's data must give, and bytes outside the
 * receive type's map must stay as they were (0xEE):
 *   constructors  contiguous, vector (also negative stride), hvector,
 *                 indexed, hindexed, indexed_block, hindexed_block, struct,
 *                 resized, nested, pair types: received with the same type
 *                 and as MPI_BYTE (the packed form, checked against a
 *                 hand-written type map);
 *   columns       3 columns of a row-major matrix (vector resized to one
 *                 double) received as contiguous doubles, and contiguous
 *                 doubles received into columns;
 *   particles     an array of C structs with holes (struct resized to the
 *                 C size) received into structure-of-arrays through a
 *                 struct of absolute addresses (MPI_BOTTOM), and back;
 *   large         2000 blocks of 8 doubles (128 KB: rendezvous) received
 *                 with another stride; with Isend/Irecv whose types are
 *                 freed before the Waits;
 *   partial       a message shorter than the receive: Get_count is
 *                 MPI_UNDEFINED, Get_elements(_x) counts basic elements
 *                 also of the partial last element, only those bytes are
 *                 written; Probe + Get_count in a derived type;
 *   replace       Sendrecv_replace with a vector type.
 * Then a derived type sent to the rank itself.
 *
 * Ranks: any number >= 2.  Prints "PASS dt_p2p" on rank 0.
 */
#include "emutest.h"

#include <stddef.h>

#define FILL 0xEE

/* The byte at offset i of rank r's send buffers. */
static char pattern(int r, long i)
{
	return (char)(i * 7 + r * 13 + 1);
}

/* ------------------------------------------------------- constructors */

typedef struct tcase {
	const char *what;
	MPI_Datatype type;
	long ext;
	int n;            /* pieces of one element: offset, length */
	long off[16], len[16];
} tcase;

#define COUNT 3

static void exchange_case(emu_test *t, const tcase *c, int to, int from)
{
	long lo = 0, hi = 0, size = 0;
	for (int i = 0; i < COUNT; i++)
		for (int j = 0; j < c->n; j++) {
			long o = i * c->ext + c->off[j];
			lo = o < lo ? o : lo;
			hi = o + c->len[j] > hi ? o + c->len[j] : hi;
			size += c->len[j];
		}
	long room = hi - lo + 64;
	char *src = emu_alloc(t, (size_t)room, 1);
	char *dst = emu_alloc(t, (size_t)room, 1);
	char *want = emu_alloc(t, (size_t)room, 1);
	char *packed = emu_alloc(t, (size_t)size + 8, 1);
	char *so = src - lo + 32, *dox = dst - lo + 32, *wo = want - lo + 32;
	for (long i = 0; i < room; i++)
		src[i] = pattern(t->rank, i);
	memset(dst, FILL, (size_t)room);
	memset(packed, FILL, (size_t)size + 8);

	MPI_Status st;
	int n;
	MPI_Sendrecv(so, COUNT, c->type, to, 10, dox, COUNT, c->type, from,
		     10, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, c->type, &n);
	EMU_EQ(t, n, COUNT, "%s: Get_count", c->what);
	/* The sender's buffer holds pattern(from, .) at the same places. */
	memset(want, FILL, (size_t)room);
	for (int i = 0; i < COUNT; i++)
		for (int j = 0; j < c->n; j++) {
			long o = i * c->ext + c->off[j];
			for (long k = 0; k < c->len[j]; k++)
				wo[o + k] = pattern(from, o + k - lo + 32);
		}
	for (long i = 0; i < room; i++)
		if (!EMU_EQ(t, (unsigned char)dst[i], (unsigned char)want[i],
			    "%s: received byte at offset %ld (from %d)",
			    c->what, i + lo - 32, from))
			break;

	MPI_Sendrecv(so, COUNT, c->type, to, 11, packed, (int)size + 8,
		     MPI_BYTE, from, 11, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_BYTE, &n);
	EMU_EQ(t, n, size, "%s: bytes received as MPI_BYTE", c->what);
	char *p = packed;
	for (int i = 0; i < COUNT; i++)
		for (int j = 0; j < c->n; j++)
			for (long k = 0; k < c->len[j]; k++, p++) {
				long o = i * c->ext + c->off[j] + k;
				if (!EMU_EQ(t, (unsigned char)*p,
					    (unsigned char)pattern(from,
								   o - lo + 32),
					    "%s: packed byte %ld", c->what,
					    (long)(p - packed)))
					goto out;
			}
	EMU_EQ(t, (unsigned char)packed[size], FILL, "%s: written past the "
	       "packed data", c->what);
out:
	free(src);
	free(dst);
	free(want);
	free(packed);
}

#define PIECES(...) .off = { __VA_ARGS__ }
#define LENS(...) .len = { __VA_ARGS__ }

struct part {
	double x[3];
	int id;
	char tag;
};

static void constructors(emu_test *t, int to, int from)
{
	tcase c[12];
	int k = 0;
	MPI_Datatype a, b;
	int bl[2] = { 2, 1 }, id[2] = { 3, 0 };
	MPI_Aint hd[2] = { 10, 1 };

	c[k] = (tcase){ "contiguous(3, int)", 0, 12, 1, PIECES(0), LENS(12) };
	MPI_Type_contiguous(3, MPI_INT, &c[k++].type);
	c[k] = (tcase){ "vector(3, 2, 4, int)", 0, 40, 3, PIECES(0, 16, 32),
			LENS(8, 8, 8) };
	MPI_Type_vector(3, 2, 4, MPI_INT, &c[k++].type);
	c[k] = (tcase){ "vector(3, 1, -2, double)", 0, 40, 3,
			PIECES(0, -16, -32), LENS(8, 8, 8) };
	MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &c[k++].type);
	c[k] = (tcase){ "hvector(2, 1, 6 B, int)", 0, 12, 2, PIECES(0, 6),
			LENS(4, 4) };
	MPI_Type_create_hvector(2, 1, 6, MPI_INT, &c[k++].type);
	c[k] = (tcase){ "indexed({2, 1}, {3, 0}, double)", 0, 40, 2,
			PIECES(24, 0), LENS(16, 8) };
	MPI_Type_indexed(2, bl, id, MPI_DOUBLE, &c[k++].type);
	c[k] = (tcase){ "hindexed({2, 1}, {10, 1} B, short)", 0, 14, 2,
			PIECES(10, 1), LENS(4, 2) };
	MPI_Type_create_hindexed(2, bl, hd, MPI_SHORT, &c[k++].type);
	c[k] = (tcase){ "indexed_block(2, 2, {3, 0}, int)", 0, 20, 2,
			PIECES(12, 0), LENS(8, 8) };
	MPI_Type_create_indexed_block(2, 2, id, MPI_INT, &c[k++].type);
	c[k] = (tcase){ "hindexed_block(2, 1, {10, 1} B, int)", 0, 16, 2,
			PIECES(10, 1), LENS(4, 4) };
	MPI_Type_create_hindexed_block(2, 1, hd, MPI_INT, &c[k++].type);

	int pb[3] = { 3, 1, 1 };
	MPI_Aint pd[3] = { offsetof(struct part, x),
			   offsetof(struct part, id),
			   offsetof(struct part, tag) };
	MPI_Datatype pt[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
	c[k] = (tcase){ "resized(struct part)", 0, sizeof(struct part), 3,
			PIECES(pd[0], pd[1], pd[2]), LENS(24, 4, 1) };
	MPI_Type_create_struct(3, pb, pd, pt, &a);
	MPI_Type_create_resized(a, 0, sizeof(struct part), &c[k++].type);
	MPI_Type_free(&a);

	c[k] = (tcase){ "hvector(2, 1, 200, contiguous(2, vector(3,2,4,int)))",
			0, 280, 12,
			PIECES(0, 16, 32, 40, 56, 72,
			       200, 216, 232, 240, 256, 272),
			LENS(8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8) };
	MPI_Type_vector(3, 2, 4, MPI_INT, &a);
	MPI_Type_contiguous(2, a, &b);
	MPI_Type_create_hvector(2, 1, 200, b, &c[k++].type);
	MPI_Type_free(&a);
	MPI_Type_free(&b);

	/* Pair types, and a struct of them: holes inside. */
	struct si { short a; int b; };
	c[k] = (tcase){ "MPI_SHORT_INT", MPI_SHORT_INT, sizeof(struct si), 2,
			PIECES(0, offsetof(struct si, b)), LENS(2, 4) };
	k++;
	int sb[2] = { 1, 1 };
	MPI_Aint sd[2] = { 0, 8 };
	MPI_Datatype st[2] = { MPI_2INT, MPI_SHORT_INT };
	c[k] = (tcase){ "struct {2int@0; short_int@8}", 0, 16, 3,
			PIECES(0, 8, 12), LENS(8, 2, 4) };
	MPI_Type_create_struct(2, sb, sd, st, &c[k++].type);

	for (int i = 0; i < k; i++) {
		if (c[i].type != MPI_SHORT_INT)
			MPI_Type_commit(&c[i].type);
		exchange_case(t, &c[i], to, from);
		if (c[i].type != MPI_SHORT_INT)
			MPI_Type_free(&c[i].type);
	}
}

/* ------------------------------------------------------------ columns */

#define ROWS 40
#define COLS 30

static double cell(int r, int i, int j)
{
	return r * 10000.0 + i * 100 + j;
}

static void columns(emu_test *t, int to, int from)
{
	double *m = emu_alloc(t, ROWS * COLS, sizeof *m);
	double *v = emu_alloc(t, 3 * ROWS, sizeof *v);
	MPI_Datatype col, col1;
	MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
	MPI_Type_create_resized(col, 0, sizeof(double), &col1);
	MPI_Type_commit(&col1);
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++)
			m[i * COLS + j] = cell(t->rank, i, j);
	/* Columns 2, 3, 4 -> 3 * ROWS contiguous doubles. */
	MPI_Sendrecv(m + 2, 3, col1, to, 20, v, 3 * ROWS, MPI_DOUBLE, from,
		     20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < ROWS; i++)
			if (!EMU_TRUE(t, v[k * ROWS + i] == cell(from, i, 2 + k),
				      "columns: column %d row %d: got %g, "
				      "want %g", 2 + k, i, v[k * ROWS + i],
				      cell(from, i, 2 + k)))
				k = 3, i = ROWS;
	/* And back into columns 5, 6, 7 of a matrix of -1. */
	for (int i = 0; i < ROWS * COLS; i++)
		m[i] = -1;
	for (int i = 0; i < 3 * ROWS; i++)
		v[i] = cell(t->rank, i % ROWS, i / ROWS);
	MPI_Sendrecv(v, 3 * ROWS, MPI_DOUBLE, to, 21, m + 5, 3, col1, from,
		     21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++) {
			double w = j >= 5 && j < 8 ? cell(from, i, j - 5) : -1;
			if (!EMU_TRUE(t, m[i * COLS + j] == w, "into columns: "
				      "[%d][%d]: got %g, want %g", i, j,
				      m[i * COLS + j], w))
				i = ROWS, j = COLS;
		}
	MPI_Type_free(&col1);
	MPI_Type_free(&col);
	free(m);
	free(v);
}

/* ---------------------------------------------------------- particles */

#define NPART 10

/* Particles as an array of structs -> structure of arrays, addressed
 * absolutely (MPI_BOTTOM) on the receiving side, then back. */
static void particles(emu_test *t, int to, int from)
{
	struct part *aos = emu_alloc(t, NPART, sizeof *aos);
	double *x = emu_alloc(t, 3 * NPART, sizeof *x);
	int *ids = emu_alloc(t, NPART, sizeof *ids);
	char *tags = emu_alloc(t, NPART, 1);
	MPI_Datatype s, ps, soa;

	int pb[3] = { 3, 1, 1 };
	MPI_Aint pd[3] = { offsetof(struct part, x),
			   offsetof(struct part, id),
			   offsetof(struct part, tag) };
	MPI_Datatype pt[3] = { MPI_DOUBLE, MPI_INT, MPI_CHAR };
	MPI_Type_create_struct(3, pb, pd, pt, &s);
	MPI_Type_create_resized(s, 0, sizeof(struct part), &ps);
	MPI_Type_commit(&ps);

	int bl[3 * NPART];
	MPI_Aint ad[3 * NPART];
	MPI_Datatype ty[3 * NPART];
	for (int k = 0; k < NPART; k++) {
		bl[3 * k] = 3, ty[3 * k] = MPI_DOUBLE;
		bl[3 * k + 1] = 1, ty[3 * k + 1] = MPI_INT;
		bl[3 * k + 2] = 1, ty[3 * k + 2] = MPI_CHAR;
		MPI_Get_address(&x[3 * k], &ad[3 * k]);
		MPI_Get_address(&ids[k], &ad[3 * k + 1]);
		MPI_Get_address(&tags[k], &ad[3 * k + 2]);
	}
	MPI_Type_create_struct(3 * NPART, bl, ad, ty, &soa);
	MPI_Type_commit(&soa);

	memset(aos, FILL, NPART * sizeof *aos);
	for (int k = 0; k < NPART; k++) {
		for (int j = 0; j < 3; j++)
			aos[k].x[j] = t->rank + k + j * 0.25;
		aos[k].id = t->rank * 100 + k;
		aos[k].tag = (char)('a' + k);
	}
	MPI_Sendrecv(aos, NPART, ps, to, 30, MPI_BOTTOM, 1, soa, from, 30,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int k = 0; k < NPART; k++) {
		for (int j = 0; j < 3; j++)
			EMU_TRUE(t, x[3 * k + j] == from + k + j * 0.25,
				 "particles -> SoA: x[%d][%d]", k, j);
		EMU_EQ(t, ids[k], from * 100 + k, "particles -> SoA: id %d",
		       k);
		EMU_EQ(t, tags[k], 'a' + k, "particles -> SoA: tag %d", k);
	}

	/* Back: SoA (absolute) -> array of structs; holes stay FILL. */
	for (int k = 0; k < NPART; k++) {
		for (int j = 0; j < 3; j++)
			x[3 * k + j] = -(t->rank + k + j * 0.5);
		ids[k] = -t->rank * 100 - k;
		tags[k] = (char)('A' + k);
	}
	memset(aos, FILL, NPART * sizeof *aos);
	MPI_Sendrecv(MPI_BOTTOM, 1, soa, to, 31, aos, NPART, ps, from, 31,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (int k = 0; k < NPART; k++) {
		for (int j = 0; j < 3; j++)
			EMU_TRUE(t, aos[k].x[j] == -(from + k + j * 0.5),
				 "SoA -> particles: x[%d][%d]", k, j);
		EMU_EQ(t, aos[k].id, -from * 100 - k, "SoA -> particles: id "
		       "%d", k);
		EMU_EQ(t, aos[k].tag, 'A' + k, "SoA -> particles: tag %d", k);
		const unsigned char *b = (const unsigned char *)&aos[k];
		for (size_t i = offsetof(struct part, tag) + 1;
		     i < sizeof(struct part); i++)
			EMU_EQ(t, b[i], FILL, "SoA -> particles: padding byte "
			       "%zu of particle %d", i, k);
	}
	MPI_Type_free(&soa);
	MPI_Type_free(&ps);
	MPI_Type_free(&s);
	free(aos);
	free(x);
	free(ids);
	free(tags);
}

/* ------------------------------------------------------------- large */

#define NBLK 2000

/* 2000 blocks of 8 doubles, 10 apart, received 9 apart. */
static void large(emu_test *t, int to, int from)
{
	double *s = emu_alloc(t, NBLK * 10, sizeof *s);
	double *r = emu_alloc(t, NBLK * 9, sizeof *r);
	MPI_Datatype v10, v9;
	MPI_Type_vector(NBLK, 8, 10, MPI_DOUBLE, &v10);
	MPI_Type_vector(NBLK, 8, 9, MPI_DOUBLE, &v9);
	MPI_Type_commit(&v10);
	MPI_Type_commit(&v9);
	for (int i = 0; i < NBLK * 10; i++)
		s[i] = t->rank * 1e6 + i;
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < NBLK * 9; i++)
			r[i] = -1;
		if (round == 0) {
			MPI_Sendrecv(s, 1, v10, to, 40, r, 1, v9, from, 40,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			/* The types may be freed while the operations
			 * using them are pending. */
			MPI_Request q[2];
			MPI_Irecv(r, 1, v9, from, 41, MPI_COMM_WORLD, &q[0]);
			MPI_Isend(s, 1, v10, to, 41, MPI_COMM_WORLD, &q[1]);
			MPI_Type_free(&v9);
			MPI_Type_free(&v10);
			/* A new type may reuse a freed handle. */
			MPI_Datatype other;
			MPI_Type_contiguous(5, MPI_CHAR, &other);
			MPI_Type_commit(&other);
			MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
			MPI_Type_free(&other);
		}
		for (int b = 0; b < NBLK; b++)
			for (int j = 0; j < 9; j++) {
				double w = j < 8 ? from * 1e6 + b * 10 + j : -1;
				if (!EMU_TRUE(t, r[b * 9 + j] == w, "large "
					      "round %d: block %d double %d: "
					      "got %g, want %g", round, b, j,
					      r[b * 9 + j], w))
					b = NBLK, j = 9;
			}
	}
	free(s);
	free(r);
}

/* ----------------------------------------------------------- partial */

struct id { int a; double b; };

static void partial(emu_test *t, int to, int from)
{
	/* Sent: int, double, int, double, int (2.5 elements of struct id
	 * as a receive type).  Received into 3 elements. */
	struct { int i0; double d0; int i1; double d1; int i2; } s;
	int bl[5] = { 1, 1, 1, 1, 1 };
	MPI_Aint d[5] = { offsetof(__typeof__(s), i0),
			  offsetof(__typeof__(s), d0),
			  offsetof(__typeof__(s), i1),
			  offsetof(__typeof__(s), d1),
			  offsetof(__typeof__(s), i2) };
	MPI_Datatype ty[5] = { MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE,
			       MPI_INT };
	MPI_Datatype st5, sid, rid;
	MPI_Type_create_struct(5, bl, d, ty, &st5);
	MPI_Type_commit(&st5);
	MPI_Aint e[2] = { offsetof(struct id, a), offsetof(struct id, b) };
	MPI_Type_create_struct(2, bl, e, ty, &sid);
	MPI_Type_create_resized(sid, 0, sizeof(struct id), &rid);
	MPI_Type_commit(&rid);

	s.i0 = t->rank, s.d0 = t->rank + 0.5, s.i1 = t->rank + 1;
	s.d1 = t->rank + 1.5, s.i2 = t->rank + 2;
	struct id r[3];
	memset(r, FILL, sizeof r);
	MPI_Status st;
	int n;
	MPI_Count nx;
	MPI_Sendrecv(&s, 1, st5, to, 50, r, 3, rid, from, 50,
		     MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, rid, &n);
	EMU_EQ(t, n, MPI_UNDEFINED, "partial: Get_count of 2.5 elements");
	MPI_Get_elements(&st, rid, &n);
	EMU_EQ(t, n, 5, "partial: Get_elements");
	MPI_Get_elements_x(&st, rid, &nx);
	EMU_EQ(t, nx, 5, "partial: Get_elements_x");
	MPI_Get_count(&st, MPI_BYTE, &n);
	EMU_EQ(t, n, 4 * 3 + 8 * 2, "partial: bytes");
	EMU_EQ(t, r[0].a, from, "partial: r[0].a");
	EMU_TRUE(t, r[0].b == from + 0.5, "partial: r[0].b");
	EMU_EQ(t, r[1].a, from + 1, "partial: r[1].a");
	EMU_TRUE(t, r[1].b == from + 1.5, "partial: r[1].b");
	EMU_EQ(t, r[2].a, from + 2, "partial: r[2].a");
	const unsigned char *b = (const unsigned char *)&r[2].b;
	for (size_t i = 0; i < sizeof(double); i++)
		EMU_EQ(t, b[i], FILL, "partial: byte %zu of r[2].b written", i);

	/* 10 ints into 3 x contiguous(4, int): 2.5 elements. */
	int si[10], ri[12];
	MPI_Datatype c4;
	MPI_Type_contiguous(4, MPI_INT, &c4);
	MPI_Type_commit(&c4);
	emu_fill_seq(si, 10, t->rank * 100);
	for (int i = 0; i < 12; i++)
		ri[i] = -7;
	MPI_Sendrecv(si, 10, MPI_INT, to, 51, ri, 3, c4, from, 51,
		     MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, c4, &n);
	EMU_EQ(t, n, MPI_UNDEFINED, "partial ints: Get_count");
	MPI_Get_elements(&st, c4, &n);
	EMU_EQ(t, n, 10, "partial ints: Get_elements");
	EMU_SEQ(t, ri, 10, from * 100, "partial ints");
	EMU_EQ(t, ri[10], -7, "partial ints: written past the message");

	/* Probe, then a receive sized by Get_count in the derived type. */
	MPI_Request q;
	MPI_Isend(si, 8, MPI_INT, to, 52, MPI_COMM_WORLD, &q);
	MPI_Probe(from, 52, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, c4, &n);
	EMU_EQ(t, n, 2, "probe: Get_count in contiguous(4, int)");
	MPI_Recv(ri, n, c4, from, 52, MPI_COMM_WORLD, &st);
	EMU_SEQ(t, ri, 8, from * 100, "probe: data");
	MPI_Wait(&q, MPI_STATUS_IGNORE);

	MPI_Type_free(&c4);
	MPI_Type_free(&st5);
	MPI_Type_free(&sid);
	MPI_Type_free(&rid);
}

/* ----------------------------------------------------------- replace */

static void replace(emu_test *t, int to, int from)
{
	int b[12];
	MPI_Datatype v;
	MPI_Type_vector(3, 2, 4, MPI_INT, &v); /* ints 0,1 4,5 8,9 */
	MPI_Type_commit(&v);
	for (int i = 0; i < 12; i++)
		b[i] = t->rank * 100 + i;
	MPI_Sendrecv_replace(b, 1, v, to, 60, from, 60, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	for (int i = 0; i < 12; i++) {
		int in = i % 4 < 2 && i < 10;
		EMU_EQ(t, b[i], (in ? from : t->rank) * 100 + i,
		       "Sendrecv_replace: int %d", i);
	}
	MPI_Type_free(&v);
}

static void to_self(emu_test *t)
{
	int s[12], r[6];
	MPI_Datatype v;
	MPI_Request q;
	MPI_Type_vector(3, 2, 4, MPI_INT, &v);
	MPI_Type_commit(&v);
	emu_fill_seq(s, 12, t->rank * 10);
	MPI_Isend(s, 1, v, t->rank, 70, MPI_COMM_WORLD, &q);
	MPI_Recv(r, 6, MPI_INT, t->rank, 70, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Wait(&q, MPI_STATUS_IGNORE);
	int w[6] = { 0, 1, 4, 5, 8, 9 };
	for (int i = 0; i < 6; i++)
		EMU_EQ(t, r[i], t->rank * 10 + w[i], "to self: int %d", i);
	MPI_Type_free(&v);
}

static void all(emu_test *t, int to, int from)
{
	constructors(t, to, from);
	columns(t, to, from);
	particles(t, to, from);
	large(t, to, from);
	partial(t, to, from);
	replace(t, to, from);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_p2p", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	emu_each_peer(&t, all);
	to_self(&t);
	return emu_finish(&t);
}
