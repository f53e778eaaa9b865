/*
 * dt_random.c -- random nested datatypes against a reference flattener.
 *
 * Each rank builds NTYPES random types (seeded by its rank): trees up to
 * DEPTH constructors deep (contiguous, vector, hvector, indexed, hindexed,
 * indexed_block, hindexed_block, struct, resized, dup; counts and
 * blocklengths 0-3, negative strides and displacements) over char, short,
 * int, double, long double and the pair types, freeing the children as
 * soon as the parent exists.  Alongside, the test computes each type's
 * map by the definitions of MPI-3.1 4.1 -- every basic element as a list
 * of (offset, bytes) pieces, with none of the library's merging or
 * repetition -- and its bounds as Open MPI computes them (block by block
 * as the constructor adds them: a block's bounds are those of its first
 * and last copy, the extent is padded to the alignment after each block,
 * explicit bounds from MPI_Type_create_resized win; types without data
 * are not used as parts, since Open MPI is inconsistent about their
 * bounds).  For every type it checks: size, lb, extent,
 * true lb and true extent; MPI_Pack of 2 elements of a buffer of
 * distinct bytes against the reference packing; MPI_Unpack into 0xEE
 * bytes writes exactly the pieces (when they do not overlap); and a
 * message to itself received as MPI_BYTE equals the packing.  Natively
 * (Open MPI) this checks the reference itself.
 *
 * Ranks: any.  Prints "PASS dt_random" on rank 0.
 */
#include "emutest.h"

#define NTYPES 400
#define DEPTH 3
#define MAXPIECES 4096
#define FILL 0xEE

typedef struct piece {
	long off;
	long len;
} piece;

/* A type map built by the definitions. */
typedef struct ref {
	piece *p;
	int n, cap;
	int too_big;
	long size;
	int has_data, has_bounds, marked, align;
	long tlb, tub;
	long lb, ub, ext;
} ref;

typedef struct rng {
	unsigned long long s;
} rng;

static int rnd(rng *g, int n)
{
	g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int)((g->s >> 33) % (unsigned long long)n);
}

static void add_piece(ref *r, long off, long len)
{
	if (r->n == MAXPIECES) {
		r->too_big = 1;
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->p = realloc(r->p, (size_t)r->cap * sizeof *r->p);
		if (!r->p)
			abort();
	}
	r->p[r->n++] = (piece){ off, len };
}

/* Add a block of n copies of c, the first at off, `step' bytes apart. */
static void block(ref *r, const ref *c, int n, long off, long step)
{
	if (n <= 0)
		return;
	for (int k = 0; k < n; k++) {
		long o = off + k * step;
		for (int i = 0; i < c->n; i++)
			add_piece(r, c->p[i].off + o, c->p[i].len);
		if (c->has_data) {
			long lo = c->tlb + o, hi = c->tub + o;
			if (!r->has_data || lo < r->tlb)
				r->tlb = lo;
			if (!r->has_data || hi > r->tub)
				r->tub = hi;
			r->has_data = 1;
		}
	}
	r->too_big |= c->too_big;
	r->size += n * c->size;
	long far = (n - 1) * step;
	long lo = off + (far < 0 ? far : 0) + c->lb;
	long hi = off + (far > 0 ? far : 0) + c->ub;
	if (!r->has_bounds || (c->marked && !r->marked)) {
		r->lb = lo;
		r->ub = hi;
		r->marked = c->marked;
	} else if (c->marked == r->marked) {
		r->lb = lo < r->lb ? lo : r->lb;
		r->ub = hi > r->ub ? hi : r->ub;
	}
	r->has_bounds = 1;
	if (c->align > r->align)
		r->align = c->align;
	if (!r->marked && (r->ub - r->lb) % r->align)
		r->ub += r->align - (r->ub - r->lb) % r->align;
}

static void finish_ref(ref *r)
{
	if (!r->has_data)
		r->tlb = r->tub = 0;
	if (!r->has_bounds)
		r->lb = r->ub = 0;
	r->ext = r->ub - r->lb;
}

/* (h)vector as Open MPI builds it: one block when the blocks touch or
 * there is one; else a block of bl copies repeated count times. */
static void vector(ref *r, const ref *c, int count, int bl, long stride,
		   long e)
{
	if (count == 0 || bl == 0)
		return;
	if (bl * e == stride || count == 1) {
		block(r, c, count * bl, 0, e);
	} else if (bl == 1) {
		block(r, c, count, 0, stride);
	} else {
		ref b;
		memset(&b, 0, sizeof b);
		b.align = 1;
		block(&b, c, bl, 0, e);
		finish_ref(&b);
		block(r, &b, count, 0, stride);
		free(b.p);
	}
}

static ref new_ref(void)
{
	ref r;
	memset(&r, 0, sizeof r);
	r.align = 1;
	return r;
}

#define PAIR(T) struct { T a; int b; }

static MPI_Datatype basic_map(rng *g, ref *r)
{
	*r = new_ref();
	r->has_data = 1;
	switch (rnd(g, 9)) {
	case 0:
		add_piece(r, 0, 1);
		r->size = r->tub = 1;
		return MPI_CHAR;
	case 1:
		add_piece(r, 0, sizeof(short));
		r->size = r->tub = sizeof(short);
		r->align = sizeof(short);
		return MPI_SHORT;
	case 2:
		add_piece(r, 0, sizeof(int));
		r->size = r->tub = sizeof(int);
		r->align = sizeof(int);
		return MPI_INT;
	case 3:
	case 4:
		add_piece(r, 0, sizeof(double));
		r->size = r->tub = sizeof(double);
		r->align = _Alignof(double);
		return MPI_DOUBLE;
	case 5:
		add_piece(r, 0, sizeof(long double));
		r->size = r->tub = sizeof(long double);
		r->align = _Alignof(long double);
		return MPI_LONG_DOUBLE;
	case 6:
		add_piece(r, 0, 2 * sizeof(int));
		r->size = r->tub = 2 * sizeof(int);
		r->align = _Alignof(int);
		return MPI_2INT;
	case 7: {
		typedef PAIR(short) si;
		add_piece(r, 0, sizeof(short));
		add_piece(r, offsetof(si, b), sizeof(int));
		r->size = sizeof(short) + sizeof(int);
		r->tub = offsetof(si, b) + sizeof(int);
		r->align = _Alignof(si);
		return MPI_SHORT_INT;
	}
	default: {
		typedef PAIR(double) di;
		add_piece(r, 0, sizeof(double) + sizeof(int));
		r->size = r->tub = sizeof(double) + sizeof(int);
		r->align = _Alignof(di);
		return MPI_DOUBLE_INT;
	}
	}
}

static MPI_Datatype basic(rng *g, ref *r)
{
	MPI_Datatype t = basic_map(g, r);
	MPI_Aint lb, ext;
	r->has_bounds = 1;
	r->lb = 0;
	/* The C extent, e.g. 16 for MPI_DOUBLE_INT (checked in dt_extent) */
	MPI_Type_get_extent(t, &lb, &ext);
	r->ub = ext;
	finish_ref(r);
	return t;
}

static int is_basic(MPI_Datatype t)
{
	return t == MPI_CHAR || t == MPI_SHORT || t == MPI_INT ||
		t == MPI_DOUBLE || t == MPI_LONG_DOUBLE || t == MPI_2INT ||
		t == MPI_SHORT_INT || t == MPI_DOUBLE_INT;
}

static void drop(MPI_Datatype *t, ref *r)
{
	if (!is_basic(*t))
		MPI_Type_free(t);
	free(r->p);
	r->p = NULL;
}

/* A random type of at most `depth' constructors, and its reference. */
static MPI_Datatype gen(rng *g, int depth, ref *r, char *desc, size_t dl)
{
	if (depth == 0 || rnd(g, 5) == 0) {
		MPI_Datatype b = basic(g, r);
		snprintf(desc, dl, "b%d", r->n == 2 ? 7 : (int)r->size);
		return b;
	}
	char sub[3][512];
	ref c[3];
	MPI_Datatype ct[3], t = MPI_DATATYPE_NULL;
	int kind = rnd(g, 10);
	int n = 1 + (kind == 7 ? rnd(g, 3) : 0);
	for (int i = 0; i < n; i++) {
		ct[i] = gen(g, depth - 1, &c[i], sub[i], sizeof sub[i]);
		/* Copies of a type without data or bounds are nothing;
		 * Open MPI gives them bounds, so leave them out. */
		if (c[i].n == 0 && !c[i].marked) {
			drop(&ct[i], &c[i]);
			ct[i] = basic(g, &c[i]);
			snprintf(sub[i], sizeof sub[i], "b");
		}
	}
	*r = new_ref();
	int count = rnd(g, 4), bl = rnd(g, 4), stride = rnd(g, 9) - 4;
	int bls[3], ids[3];
	MPI_Aint hds[3];
	for (int i = 0; i < 3; i++) {
		bls[i] = rnd(g, 4);
		ids[i] = rnd(g, 9) - 3;
		hds[i] = rnd(g, 61) - 20;
	}
	long e = c[0].ext;
	/* Open MPI takes a step of -1 byte for "the default extent". */
	if ((kind == 1 && stride * e == -1) || (kind == 2 && hds[0] == -1))
		kind = 0;
	switch (kind) {
	case 0:
		MPI_Type_contiguous(count, ct[0], &t);
		block(r, &c[0], count, 0, e);
		snprintf(desc, dl, "contig(%d,%s)", count, sub[0]);
		break;
	case 1:
		MPI_Type_vector(count, bl, stride, ct[0], &t);
		vector(r, &c[0], count, bl, stride * e, e);
		snprintf(desc, dl, "vector(%d,%d,%d,%s)", count, bl, stride,
			 sub[0]);
		break;
	case 2:
		MPI_Type_create_hvector(count, bl, hds[0], ct[0], &t);
		vector(r, &c[0], count, bl, hds[0], e);
		snprintf(desc, dl, "hvector(%d,%d,%ld,%s)", count, bl,
			 (long)hds[0], sub[0]);
		break;
	case 3:
		count = count < 3 ? count : 3;
		MPI_Type_indexed(count, bls, ids, ct[0], &t);
		for (int i = 0; i < count; i++)
			block(r, &c[0], bls[i], ids[i] * e, e);
		snprintf(desc, dl, "indexed(%d,%s)", count, sub[0]);
		break;
	case 4:
		count = count < 3 ? count : 3;
		MPI_Type_create_hindexed(count, bls, hds, ct[0], &t);
		for (int i = 0; i < count; i++)
			block(r, &c[0], bls[i], hds[i], e);
		snprintf(desc, dl, "hindexed(%d,%s)", count, sub[0]);
		break;
	case 5:
		count = count < 3 ? count : 3;
		MPI_Type_create_indexed_block(count, bl, ids, ct[0], &t);
		for (int i = 0; i < count; i++)
			block(r, &c[0], bl, ids[i] * e, e);
		snprintf(desc, dl, "indexed_block(%d,%d,%s)", count, bl,
			 sub[0]);
		break;
	case 6:
		count = count < 3 ? count : 3;
		MPI_Type_create_hindexed_block(count, bl, hds, ct[0], &t);
		for (int i = 0; i < count; i++)
			block(r, &c[0], bl, hds[i], e);
		snprintf(desc, dl, "hindexed_block(%d,%d,%s)", count, bl,
			 sub[0]);
		break;
	case 7:
		MPI_Type_create_struct(n, bls, hds, ct, &t);
		for (int i = 0; i < n; i++)
			block(r, &c[i], bls[i], hds[i], c[i].ext);
		snprintf(desc, dl, "struct(%d,%s,%s,%s)", n, sub[0],
			 n > 1 ? sub[1] : "-", n > 2 ? sub[2] : "-");
		break;
	case 8: {
		long lb = rnd(g, 17) - 8, ext = 1 + rnd(g, 40);
		MPI_Type_create_resized(ct[0], lb, ext, &t);
		block(r, &c[0], 1, 0, 0);
		r->marked = 1;
		r->lb = lb;
		r->ub = lb + ext;
		snprintf(desc, dl, "resized(%s,%ld,%ld)", sub[0], lb, ext);
		break;
	}
	default:
		MPI_Type_dup(ct[0], &t);
		block(r, &c[0], 1, 0, 0);
		r->marked = c[0].marked;
		r->lb = c[0].lb;
		r->ub = c[0].ub;
		snprintf(desc, dl, "dup(%s)", sub[0]);
		break;
	}
	finish_ref(r);
	for (int i = 0; i < n; i++)
		drop(&ct[i], &c[i]);
	return t;
}

#define COUNT 2

static void check_type(emu_test *t, MPI_Datatype ty, const ref *r,
		       const char *desc)
{
	int size;
	MPI_Aint lb, ext, tlb, text;
	MPI_Type_size(ty, &size);
	MPI_Type_get_extent(ty, &lb, &ext);
	MPI_Type_get_true_extent(ty, &tlb, &text);
	EMU_EQ(t, size, r->size, "%s: size", desc);
	EMU_EQ(t, lb, r->lb, "%s: lb", desc);
	EMU_EQ(t, ext, r->ext, "%s: extent", desc);
	EMU_EQ(t, tlb, r->tlb, "%s: true lb", desc);
	EMU_EQ(t, text, r->tub - r->tlb, "%s: true extent", desc);

	/* Elements at 0 and ext: where do their pieces lie? */
	long lo = 0, hi = 0;
	for (int i = 0; i < COUNT; i++)
		for (int j = 0; j < r->n; j++) {
			long o = i * r->ext + r->p[j].off;
			lo = o < lo ? o : lo;
			hi = o + r->p[j].len > hi ? o + r->p[j].len : hi;
		}
	long room = hi - lo + 16, bytes = COUNT * r->size;
	char *src = emu_alloc(t, (size_t)room, 1);
	char *dst = emu_alloc(t, (size_t)room, 1);
	char *want = emu_alloc(t, (size_t)room, 1);
	char *cover = emu_alloc(t, (size_t)room, 1);
	char *packed = emu_alloc(t, (size_t)bytes + 1, 1);
	char *rp = emu_alloc(t, (size_t)bytes + 1, 1);
	char *recv = emu_alloc(t, (size_t)bytes + 1, 1);
	char *so = src - lo + 8, *dox = dst - lo + 8, *wo = want - lo + 8;
	char *co = cover - lo + 8;
	for (long i = 0; i < room; i++)
		src[i] = (char)(i * 31 + 7);
	memset(dst, FILL, (size_t)room);
	memset(want, FILL, (size_t)room);

	int overlap = 0;
	char *p = rp;
	for (int i = 0; i < COUNT; i++)
		for (int j = 0; j < r->n; j++) {
			long o = i * r->ext + r->p[j].off;
			memcpy(p, so + o, (size_t)r->p[j].len);
			memcpy(wo + o, so + o, (size_t)r->p[j].len);
			for (long k = 0; k < r->p[j].len; k++)
				overlap |= co[o + k]++;
			p += r->p[j].len;
		}

	int pos = 0;
	MPI_Pack(so, COUNT, ty, packed, (int)bytes + 1, &pos, MPI_COMM_WORLD);
	EMU_EQ(t, pos, bytes, "%s: Pack position", desc);
	if (!EMU_TRUE(t, !memcmp(packed, rp, (size_t)bytes), "%s: packed "
		      "bytes differ from the reference", desc))
		goto out;
	pos = 0;
	MPI_Unpack(packed, (int)bytes, &pos, dox, COUNT, ty, MPI_COMM_WORLD);
	if (!overlap)
		EMU_TRUE(t, !memcmp(dst, want, (size_t)room), "%s: unpacked "
			 "bytes differ from the reference", desc);

	MPI_Sendrecv(so, COUNT, ty, t->rank, 1, recv, (int)bytes + 1, MPI_BYTE,
		     t->rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_TRUE(t, !memcmp(recv, rp, (size_t)bytes), "%s: bytes sent "
		 "differ from the reference packing", desc);
out:
	free(src);
	free(dst);
	free(want);
	free(cover);
	free(packed);
	free(rp);
	free(recv);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "dt_random", &argc, &argv);
	rng g = { 12345 + 1000003ULL * (unsigned)t.rank };
	char desc[2048];
	for (int k = 0; k < NTYPES; k++) {
		ref r;
		MPI_Datatype ty = gen(&g, DEPTH, &r, desc, sizeof desc);
		if (!r.too_big && (r.ext >= 0 || r.n == 0)) {
			if (!is_basic(ty))
				MPI_Type_commit(&ty);
			check_type(&t, ty, &r, desc);
		}
		drop(&ty, &r);
	}
	return emu_finish(&t);
}
