/*
 * coll_data.c -- what every collective delivers, checked on every rank
 * against a reference the rank computes by itself: barrier, bcast,
 * reduce, allreduce, scan, exscan, gather(v), scatter(v), allgather(v),
 * alltoall(v, w), reduce_scatter(_block), on MPI_COMM_WORLD and
 * MPI_COMM_SELF, with every root, with and without MPI_IN_PLACE, for
 * 0, 1, 7 and 5000 ints per block (and 20,000 for bcast, allreduce and
 * alltoall: messages beyond the 64 KiB eager limit).  The v-variants use
 * uneven counts (some zero) and displacements that are not in rank
 * order.  Reductions use MPI_SUM on ints: exact.
 *
 * Any rank count; SIBYL_COLL chooses the algorithms under the emulator
 * (tests/emu_coll.sh runs every algorithm of every collective).
 */
#include "emutest.h"

static const int counts[] = { 0, 1, 7, 5000 };
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))
#define BIG 20000

/* The value rank r contributes at index i (small: sums fit an int). */
static int val(int r, int i, int salt)
{
	return (r + 1) * 37 + (i % 1009) * 3 + salt;
}

static int sum_val(int size, int i, int salt)
{
	int s = 0;
	for (int r = 0; r < size; r++)
		s += val(r, i, salt);
	return s;
}

typedef struct ctx {
	emu_test *t;
	MPI_Comm comm;
	const char *cname;
	int rank, size;
} ctx;

static int *ints(ctx *x, size_t n)
{
	return emu_alloc(x->t, n, sizeof(int));
}

static void fill(int *b, int n, int v)
{
	for (int i = 0; i < n; i++)
		b[i] = v;
}

/* ----------------------------------------------------------- rooted */

static void t_bcast(ctx *x, int c)
{
	int *b = ints(x, (size_t)c);
	for (int root = 0; root < x->size; root++) {
		for (int i = 0; i < c; i++)
			b[i] = x->rank == root ? val(root, i, 1) : -1;
		MPI_Bcast(b, c, MPI_INT, root, x->comm);
		for (int i = 0; i < c; i++)
			if (!EMU_EQ(x->t, b[i], val(root, i, 1), "%s bcast "
				    "count %d root %d [%d]", x->cname, c,
				    root, i))
				break;
	}
	free(b);
}

static void t_reduce(ctx *x, int c)
{
	int *s = ints(x, (size_t)c), *r = ints(x, (size_t)c);
	for (int root = 0; root < x->size; root++)
		for (int ip = 0; ip < 2; ip++) {
			int mine = x->rank == root;
			for (int i = 0; i < c; i++) {
				s[i] = val(x->rank, i, 2);
				r[i] = ip && mine ? s[i] : -5;
			}
			MPI_Reduce(ip && mine ? MPI_IN_PLACE : s, r, c,
				   MPI_INT, MPI_SUM, root, x->comm);
			for (int i = 0; i < c; i++)
				if (!EMU_EQ(x->t, r[i], mine ?
					    sum_val(x->size, i, 2) : -5,
					    "%s reduce count %d root %d "
					    "in-place %d [%d]", x->cname, c,
					    root, ip, i))
					break;
		}
	free(s);
	free(r);
}

static void t_gather(ctx *x, int c)
{
	int P = x->size;
	int *s = ints(x, (size_t)c), *r = ints(x, (size_t)c * P);
	for (int root = 0; root < P; root++)
		for (int ip = 0; ip < 2; ip++) {
			int mine = x->rank == root;
			for (int i = 0; i < c; i++)
				s[i] = val(x->rank, i, 3);
			fill(r, c * P, -7);
			if (ip && mine)
				memcpy(r + (size_t)root * c, s,
				       (size_t)c * sizeof(int));
			MPI_Gather(ip && mine ? MPI_IN_PLACE : s, c, MPI_INT,
				   r, c, MPI_INT, root, x->comm);
			for (int k = 0; k < c * P; k++) {
				int want = mine ? val(k / c, k % c, 3) : -7;
				if (!EMU_EQ(x->t, r[k], want, "%s gather count "
					    "%d root %d in-place %d [%d]",
					    x->cname, c, root, ip, k))
					break;
			}
		}
	free(s);
	free(r);
}

static void t_scatter(ctx *x, int c)
{
	int P = x->size;
	int *s = ints(x, (size_t)c * P), *r = ints(x, (size_t)c);
	for (int root = 0; root < P; root++)
		for (int ip = 0; ip < 2; ip++) {
			int mine = x->rank == root;
			for (int k = 0; k < c * P; k++)
				s[k] = mine ? val(k / c, k % c, 4) : -1;
			fill(r, c, -7);
			MPI_Scatter(s, c, MPI_INT, ip && mine ? MPI_IN_PLACE :
				    r, c, MPI_INT, root, x->comm);
			for (int i = 0; i < c; i++) {
				int want = ip && mine ? -7 :
					val(x->rank, i, 4);
				if (!EMU_EQ(x->t, r[i], want, "%s scatter "
					    "count %d root %d in-place %d [%d]",
					    x->cname, c, root, ip, i))
					break;
			}
			/* The root's send buffer is untouched. */
			if (mine)
				for (int k = 0; k < c * P; k++)
					if (!EMU_EQ(x->t, s[k], val(k / c,
								    k % c, 4),
						    "%s scatter send buffer "
						    "[%d]", x->cname, k))
						break;
		}
	free(s);
	free(r);
}

/* Uneven counts, some zero, and displacements in reverse rank order
 * with a gap of 3 ints between blocks. */
static void v_layout(int P, int c, int *cnt, int *dsp, int *total)
{
	int at = 0;
	for (int j = 0; j < P; j++)
		cnt[j] = (j % 3 == 1) ? 0 : c + j % 4;
	for (int j = P - 1; j >= 0; j--) {
		dsp[j] = at;
		at += cnt[j] + 3;
	}
	*total = at;
}

static void t_gatherv(ctx *x, int c)
{
	int P = x->size, total, me = x->rank;
	int *cnt = ints(x, (size_t)P), *dsp = ints(x, (size_t)P);
	v_layout(P, c, cnt, dsp, &total);
	int *s = ints(x, (size_t)cnt[me]), *r = ints(x, (size_t)total);
	for (int root = 0; root < P; root++)
		for (int ip = 0; ip < 2; ip++) {
			int mine = me == root;
			for (int i = 0; i < cnt[me]; i++)
				s[i] = val(me, i, 5);
			fill(r, total, -7);
			if (ip && mine)
				memcpy(r + dsp[me], s,
				       (size_t)cnt[me] * sizeof(int));
			MPI_Gatherv(ip && mine ? MPI_IN_PLACE : s, cnt[me],
				    MPI_INT, r, cnt, dsp, MPI_INT, root,
				    x->comm);
			int bad = 0;
			for (int j = 0; j < P && mine && !bad; j++)
				for (int i = 0; i < cnt[j] && !bad; i++)
					bad = !EMU_EQ(x->t, r[dsp[j] + i],
						      val(j, i, 5), "%s "
						      "gatherv count %d root "
						      "%d in-place %d block "
						      "%d [%d]", x->cname, c,
						      root, ip, j, i);
			/* The gaps stay untouched. */
			for (int j = 0; j < P && !bad; j++)
				bad = !EMU_EQ(x->t, r[dsp[j] + cnt[j]], -7,
					      "%s gatherv gap after block %d",
					      x->cname, j);
		}
	free(s);
	free(r);
	free(cnt);
	free(dsp);
}

static void t_scatterv(ctx *x, int c)
{
	int P = x->size, total, me = x->rank;
	int *cnt = ints(x, (size_t)P), *dsp = ints(x, (size_t)P);
	v_layout(P, c, cnt, dsp, &total);
	int *s = ints(x, (size_t)total), *r = ints(x, (size_t)cnt[me] + 1);
	for (int root = 0; root < P; root++)
		for (int ip = 0; ip < 2; ip++) {
			int mine = me == root;
			fill(s, total, -1);
			for (int j = 0; j < P && mine; j++)
				for (int i = 0; i < cnt[j]; i++)
					s[dsp[j] + i] = val(j, i, 6);
			fill(r, cnt[me] + 1, -7);
			MPI_Scatterv(s, cnt, dsp, MPI_INT, ip && mine ?
				     MPI_IN_PLACE : r, cnt[me], MPI_INT, root,
				     x->comm);
			for (int i = 0; i <= cnt[me]; i++) {
				int want = i == cnt[me] || (ip && mine) ? -7 :
					val(me, i, 6);
				if (!EMU_EQ(x->t, r[i], want, "%s scatterv "
					    "count %d root %d in-place %d [%d]",
					    x->cname, c, root, ip, i))
					break;
			}
		}
	free(s);
	free(r);
	free(cnt);
	free(dsp);
}

/* ------------------------------------------------------- all-to-all */

static void t_allreduce(ctx *x, int c)
{
	int *s = ints(x, (size_t)c), *r = ints(x, (size_t)c);
	for (int ip = 0; ip < 2; ip++) {
		for (int i = 0; i < c; i++) {
			s[i] = val(x->rank, i, 7);
			r[i] = ip ? s[i] : -5;
		}
		MPI_Allreduce(ip ? MPI_IN_PLACE : s, r, c, MPI_INT, MPI_SUM,
			      x->comm);
		for (int i = 0; i < c; i++)
			if (!EMU_EQ(x->t, r[i], sum_val(x->size, i, 7),
				    "%s allreduce count %d in-place %d [%d]",
				    x->cname, c, ip, i))
				break;
		for (int i = 0; i < c && !ip; i++)
			if (!EMU_EQ(x->t, s[i], val(x->rank, i, 7),
				    "%s allreduce send buffer [%d]", x->cname,
				    i))
				break;
	}
	free(s);
	free(r);
}

static void t_scan(ctx *x, int c)
{
	int *s = ints(x, (size_t)c), *r = ints(x, (size_t)c);
	for (int ex = 0; ex < 2; ex++)
		for (int ip = 0; ip < 2; ip++) {
			for (int i = 0; i < c; i++) {
				s[i] = val(x->rank, i, 8);
				r[i] = ip ? s[i] : -5;
			}
			if (ex)
				MPI_Exscan(ip ? MPI_IN_PLACE : s, r, c, MPI_INT,
					   MPI_SUM, x->comm);
			else
				MPI_Scan(ip ? MPI_IN_PLACE : s, r, c, MPI_INT,
					 MPI_SUM, x->comm);
			/* Exscan leaves rank 0's buffer undefined. */
			if (ex && x->rank == 0)
				continue;
			for (int i = 0; i < c; i++) {
				int want = 0;
				for (int q = 0; q < x->rank + !ex; q++)
					want += val(q, i, 8);
				if (!EMU_EQ(x->t, r[i], want, "%s %s count %d "
					    "in-place %d [%d]", x->cname,
					    ex ? "exscan" : "scan", c, ip, i))
					break;
			}
		}
	free(s);
	free(r);
}

static void t_allgather(ctx *x, int c)
{
	int P = x->size, me = x->rank;
	int *s = ints(x, (size_t)c), *r = ints(x, (size_t)c * P);
	for (int ip = 0; ip < 2; ip++) {
		for (int i = 0; i < c; i++)
			s[i] = val(me, i, 9);
		fill(r, c * P, -7);
		if (ip)
			memcpy(r + (size_t)me * c, s, (size_t)c * sizeof(int));
		MPI_Allgather(ip ? MPI_IN_PLACE : s, c, MPI_INT, r, c,
			      MPI_INT, x->comm);
		for (int k = 0; k < c * P; k++)
			if (!EMU_EQ(x->t, r[k], val(k / c, k % c, 9), "%s "
				    "allgather count %d in-place %d [%d]",
				    x->cname, c, ip, k))
				break;
	}
	free(s);
	free(r);
}

/* layout 0: uneven, reversed, gaps; 1: uneven, packed in rank order. */
static void t_allgatherv(ctx *x, int c)
{
	int P = x->size, me = x->rank, total;
	int *cnt = ints(x, (size_t)P), *dsp = ints(x, (size_t)P);
	for (int lay = 0; lay < 2; lay++) {
		v_layout(P, c, cnt, dsp, &total);
		if (lay) {
			total = 0;
			for (int j = 0; j < P; j++) {
				dsp[j] = total;
				total += cnt[j];
			}
		}
		int *s = ints(x, (size_t)cnt[me]), *r = ints(x, (size_t)total
							      + 1);
		for (int ip = 0; ip < 2; ip++) {
			for (int i = 0; i < cnt[me]; i++)
				s[i] = val(me, i, 10);
			fill(r, total + 1, -7);
			if (ip)
				memcpy(r + dsp[me], s,
				       (size_t)cnt[me] * sizeof(int));
			MPI_Allgatherv(ip ? MPI_IN_PLACE : s, cnt[me], MPI_INT,
				       r, cnt, dsp, MPI_INT, x->comm);
			int bad = 0;
			for (int j = 0; j < P && !bad; j++)
				for (int i = 0; i < cnt[j] && !bad; i++)
					bad = !EMU_EQ(x->t, r[dsp[j] + i],
						      val(j, i, 10), "%s "
						      "allgatherv count %d "
						      "layout %d in-place %d "
						      "block %d [%d]", x->cname,
						      c, lay, ip, j, i);
			if (!lay)
				for (int j = 0; j < P && !bad; j++)
					bad = !EMU_EQ(x->t, r[dsp[j] + cnt[j]],
						      -7, "%s allgatherv gap "
						      "after block %d",
						      x->cname, j);
		}
		free(s);
		free(r);
	}
	free(cnt);
	free(dsp);
}

/* What rank `from' sends rank `to' at index i. */
static int a2a(int from, int to, int i)
{
	return from * 1000 + to * 10 + i % 7;
}

static void t_alltoall(ctx *x, int c)
{
	int P = x->size, me = x->rank;
	int *s = ints(x, (size_t)c * P), *r = ints(x, (size_t)c * P);
	for (int ip = 0; ip < 2; ip++) {
		for (int k = 0; k < c * P; k++)
			s[k] = a2a(me, k / c, k % c);
		if (ip)
			memcpy(r, s, (size_t)c * P * sizeof(int));
		else
			fill(r, c * P, -7);
		MPI_Alltoall(ip ? MPI_IN_PLACE : s, c, MPI_INT, r, c, MPI_INT,
			     x->comm);
		for (int k = 0; k < c * P; k++)
			if (!EMU_EQ(x->t, r[k], a2a(k / c, me, k % c), "%s "
				    "alltoall count %d in-place %d [%d]",
				    x->cname, c, ip, k))
				break;
	}
	free(s);
	free(r);
}

/* Rank `from' sends rank `to' this many ints: uneven, some zero, and
 * symmetric, as MPI_IN_PLACE needs. */
static int a2av_count(int c, int from, int to)
{
	return (from + to) % 3 == 0 ? 0 : c + (from * to) % 3;
}

static void t_alltoallv(ctx *x, int c, int w)
{
	int P = x->size, me = x->rank;
	int *sc = ints(x, (size_t)P), *sd = ints(x, (size_t)P);
	int *rc = ints(x, (size_t)P), *rd = ints(x, (size_t)P);
	MPI_Datatype *ty = emu_alloc(x->t, (size_t)P, sizeof *ty);
	int st = 0, rt = 0;
	for (int j = P - 1; j >= 0; j--) {
		sc[j] = a2av_count(c, me, j);
		sd[j] = st;
		st += sc[j] + 1;
		rc[j] = a2av_count(c, j, me);
	}
	for (int j = 0; j < P; j++) {
		rd[j] = rt;
		rt += rc[j] + 2;
		ty[j] = MPI_INT;
	}
	int *s = ints(x, (size_t)st), *r = ints(x, (size_t)rt);
	for (int ip = 0; ip < 2; ip++) {
		fill(s, st, -1);
		for (int j = 0; j < P; j++)
			for (int i = 0; i < sc[j]; i++)
				s[sd[j] + i] = a2a(me, j, i);
		fill(r, rt, -7);
		if (ip)
			/* In place, the data to send to j sits where j's
			 * data will land (same counts both ways needed). */
			for (int j = 0; j < P; j++)
				for (int i = 0; i < rc[j]; i++)
					r[rd[j] + i] = a2a(me, j, i);
		if (w) {
			int *sdb = ints(x, (size_t)P), *rdb = ints(x,
								   (size_t)P);
			for (int j = 0; j < P; j++) {
				sdb[j] = sd[j] * (int)sizeof(int);
				rdb[j] = rd[j] * (int)sizeof(int);
			}
			if (ip)
				MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL,
					      r, rc, rdb, ty, x->comm);
			else
				MPI_Alltoallw(s, sc, sdb, ty, r, rc, rdb, ty,
					      x->comm);
			free(sdb);
			free(rdb);
		} else {
			MPI_Alltoallv(ip ? MPI_IN_PLACE : s, sc, sd, MPI_INT,
				      r, rc, rd, MPI_INT, x->comm);
		}
		int bad = 0;
		for (int j = 0; j < P && !bad; j++) {
			for (int i = 0; i < rc[j] && !bad; i++)
				bad = !EMU_EQ(x->t, r[rd[j] + i], a2a(j, me, i),
					      "%s alltoall%s count %d in-place "
					      "%d from %d [%d]", x->cname,
					      w ? "w" : "v", c, ip, j, i);
			if (!bad)
				bad = !EMU_EQ(x->t, r[rd[j] + rc[j]], -7,
					      "%s alltoall%s gap after %d",
					      x->cname, w ? "w" : "v", j);
		}
	}
	free(s);
	free(r);
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(ty);
}

static void t_reduce_scatter(ctx *x, int c)
{
	int P = x->size, me = x->rank;
	int *cnt = ints(x, (size_t)P), total = 0;
	for (int j = 0; j < P; j++) {
		cnt[j] = j % 3 == 2 ? 0 : c + j % 2;
		total += cnt[j];
	}
	size_t room = (size_t)(total > c * P ? total : c * P) + 1;
	int *s = ints(x, room), *r = ints(x, room);
	for (int blk = 0; blk < 2; blk++)
		for (int ip = 0; ip < 2; ip++) {
			int n = blk ? c * P : total, at = 0;
			for (int j = 0; j < me; j++)
				at += blk ? c : cnt[j];
			int mine = blk ? c : cnt[me];
			for (int i = 0; i < n; i++)
				s[i] = val(me, i, 11);
			if (ip)
				memcpy(r, s, (size_t)n * sizeof(int));
			else
				fill(r, n, -7);
			if (blk)
				MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : s,
							 r, c, MPI_INT, MPI_SUM,
							 x->comm);
			else
				MPI_Reduce_scatter(ip ? MPI_IN_PLACE : s, r,
						   cnt, MPI_INT, MPI_SUM,
						   x->comm);
			for (int i = 0; i < mine; i++)
				if (!EMU_EQ(x->t, r[i], sum_val(P, at + i, 11),
					    "%s reduce_scatter%s count %d "
					    "in-place %d [%d]", x->cname,
					    blk ? "_block" : "", c, ip, i))
					break;
			if (!ip && mine < n)
				EMU_EQ(x->t, r[mine], -7, "%s reduce_scatter%s "
				       "wrote past its block", x->cname,
				       blk ? "_block" : "");
		}
	free(s);
	free(r);
	free(cnt);
}

static void run(ctx *x)
{
	MPI_Barrier(x->comm);
	for (int k = 0; k < NCOUNTS; k++) {
		int c = counts[k];
		t_bcast(x, c);
		t_reduce(x, c);
		t_allreduce(x, c);
		t_scan(x, c);
		t_gather(x, c);
		t_scatter(x, c);
		t_gatherv(x, c);
		t_scatterv(x, c);
		t_allgather(x, c);
		t_allgatherv(x, c);
		t_alltoall(x, c);
		t_alltoallv(x, c, 0);
		t_alltoallv(x, c, 1);
		t_reduce_scatter(x, c);
		MPI_Barrier(x->comm);
	}
	t_bcast(x, BIG);
	t_allreduce(x, BIG);
	t_alltoall(x, BIG / 4);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "coll_data", &argc, &argv);
	ctx w = { &t, MPI_COMM_WORLD, "MPI_COMM_WORLD", t.rank, t.size };
	ctx self = { &t, MPI_COMM_SELF, "MPI_COMM_SELF", 0, 1 };
	run(&w);
	run(&self);
	return emu_finish(&t);
}
