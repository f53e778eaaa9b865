/*
 * coll_alg.c -- the algorithms of the collectives: each a step function
 * that coll.c's engine calls once at the start and again whenever the
 * round it queued has completed (see coll_sched.h).  P is the size of the
 * communicator, p2 the largest power of two <= P, N the bytes of the
 * data (per block where it says so), "rounds" are communication rounds of
 * one rank.  SIBYL_COLL picks an algorithm per collective by the names
 * below; otherwise the default given (after Open MPI's tuned component
 * and MPICH's thresholds).  The names, the tables and the defaults are in
 * coll_sched.h's lists and coll_registry.c.
 *
 * barrier
 *   dissemination        ceil(log2 P) rounds; in round k send to
 *                        rank+2^k, receive from rank-2^k.  Default
 *                        unless P is a power of two.
 *   recursive_doubling   exchange with rank xor 2^k, log2 p2 rounds; the
 *                        P - p2 extra ranks first report to a partner and
 *                        are released by it at the end (+2 rounds).
 *                        Default when P is a power of two.
 *   tree                 binomial fan-in to rank 0, then binomial fan-out:
 *                        3 rounds per rank, 2(P-1) messages in all.
 * bcast
 *   binomial             receive from the parent, send to the children,
 *                        largest subtree first: ceil(log2 P) message
 *                        steps, P-1 messages.  Default for N < 12 KiB or
 *                        P < 8.
 *   scatter_allgather    van de Geijn: binomial scatter of N/P chunks,
 *                        then a ring allgather (P-1 rounds): ~2N bytes per
 *                        rank instead of N log P.  Default otherwise.
 *   linear               the root sends to every rank in one round.
 * reduce
 *   binomial             a binomial tree, each rank receiving from its
 *                        children one at a time and reducing as they come
 *                        (log2 P steps).  Non-commutative operations use
 *                        the tree rooted at rank 0 (whose subtrees are
 *                        rank ranges, so the order holds) and one more
 *                        message to the root.  Default.
 *   linear               the root receives from P-1, P-2, ..., 0 in turn
 *                        and folds each in from the left (rank order).
 *   rabenseifner         reduce-scatter by recursive halving, then a
 *                        binomial gather of the pieces to the root: ~2N
 *                        bytes per rank.  Commutative operations only
 *                        (else binomial).  Default for N >= 64 KiB with a
 *                        commutative operation and count >= p2.
 * allreduce
 *   recursive_doubling   log2 p2 exchanges of the whole vector, reducing
 *                        in rank order; the extra ranks fold in first and
 *                        get the result at the end.  Default for N <=
 *                        2 KiB, count < p2 or non-commutative operations.
 *   rabenseifner         fold, reduce-scatter by recursive halving,
 *                        allgather by recursive doubling, unfold: 2 log2 p2
 *                        rounds, ~2N bytes.  Commutative only (else
 *                        recursive_doubling).  Default up to 512 KiB.
 *   ring                 reduce-scatter around a ring then allgather
 *                        around it: 2(P-1) rounds of N/P bytes.
 *                        Commutative only (else recursive_doubling).
 *                        Default above 512 KiB when count >= P.
 *   reduce_bcast         binomial reduce to rank 0 then binomial bcast.
 * scan, exscan
 *   recursive_doubling   log2 P exchanges of partial prefixes (MPICH).
 *                        Default.
 *   linear               rank i waits for the prefix of rank i-1, adds its
 *                        own and passes it on: P-1 steps in a chain.
 * gather, scatter
 *   binomial             subtrees' blocks travel together up (gather) or
 *                        down (scatter) a binomial tree: log2 P steps.
 *                        Default for blocks < 6000 bytes.
 *   linear               the root receives from (sends to) every rank in
 *                        one round.  Default otherwise.
 * gatherv, scatterv
 *   linear               as above (only the root knows the counts, so no
 *                        tree can forward them).
 * allgather, allgatherv
 *   recursive_doubling   exchange ever larger windows with rank xor 2^k;
 *                        any P (extra ranks fold in and out).  Default
 *                        for P a power of two and total < 512 KiB.
 *   bruck                ceil(log2 P) rounds; round k sends the first
 *                        min(2^k, P-2^k) blocks held to rank-2^k.
 *                        Default for total < 80 KiB, P not a power of
 *                        two.
 *   ring                 P-1 rounds, one block to the right each.
 *                        Default otherwise.
 * alltoall, alltoallv, alltoallw
 *   pairwise             P-1 rounds: exchange with rank xor i (P a power
 *                        of two), else send to rank+i, receive from
 *                        rank-i.  Default for alltoall blocks >= 32 KiB.
 *   bruck                (alltoall only) ceil(log2 P) rounds moving the
 *                        blocks whose index has bit k set, N P/2 bytes
 *                        per round.  Default for blocks <= 256 bytes and
 *                        P >= 8.
 *   linear               every send and receive in one round.  Default
 *                        otherwise (and for alltoallv, alltoallw).
 *   percs                the PERCS-aware schedule of Totoni's thesis
 *                        (§9): nodes are blocks of node_size consecutive
 *                        ranks (SIBYL_NODE_SIZE), n of them; in phase
 *                        i = 0..n-1 core j of every node sends to every
 *                        core of node (j + i) mod n, so the cores of a
 *                        node use different links at once and every node
 *                        receives from one core of each node (when a node
 *                        has as many cores as there are nodes, as in a
 *                        PERCS supernode).  n rounds.
 * reduce_scatter, reduce_scatter_block
 *   recursive_halving    fold, then log2 p2 halvings of the vector with
 *                        rank xor 2^k, unfold.  Commutative only (else
 *                        reduce_scatterv).  Default.
 *   reduce_scatterv      binomial reduce to rank 0, then a linear
 *                        scatterv of the blocks.
 * neighbor_allgather(v), neighbor_alltoall(v, w) (not named by SIBYL_COLL)
 *   linear               one round: receive from every in-neighbour and
 *                        send to every out-neighbour of the topology, in
 *                        MPI's order; MPI_PROC_NULL neighbours are
 *                        skipped, their blocks left as they are.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_sched.h"

/* ----------------------------------------------------------- helpers */

static int mod(int64_t a, int n)
{
	int64_t m = a % n;
	return (int)(m < 0 ? m + n : m);
}

/*
 * Binomial trees over ranks relative to a root (v = 0 is the root): the
 * parent of v is v without its lowest set bit; the children of v are
 * v + m for the powers of two m below v's lowest set bit (below P for
 * the root), with v + m < P.  Child v + m heads the ranks v + m ..
 * min(v + 2m, P) - 1.
 */
static int64_t bin_span(int v, int P)
{
	if (v)
		return v & -v;
	int64_t m = 1;
	while (m < P)
		m *= 2;
	return m;
}

static int bin_parent(int v)
{
	return v & (v - 1);
}

/* Ranks in v's subtree. */
static int bin_size(int v, int P)
{
	int64_t n = bin_span(v, P);
	return (int)(v + n < P ? n : P - v);
}

static int rel(const coll *s, int root)
{
	return mod((int64_t)s->rank - root, s->size);
}

static int abs_rank(const coll *s, int v, int root)
{
	return mod((int64_t)v + root, s->size);
}

/*
 * The fold of a size that is not a power of two: ranks below 2 rem pair
 * up as (2i, 2i+1), the odd one standing for both in the power-of-two
 * part as newrank i; rank r >= 2 rem is newrank r - rem.  The even ranks
 * of the pairs sit out (newrank -1).  Newrank k stands for the ranks
 * fold_first(k) .. fold_first(k+1) - 1, so a range of newranks stands
 * for a range of ranks and rank order survives.
 */
static void fold_init(coll *s)
{
	int me = s->rank;
	s->p2 = coll_pof2_floor(s->size);
	s->rem = s->size - s->p2;
	if (me < 2 * s->rem)
		s->newrank = me % 2 ? me / 2 : -1;
	else
		s->newrank = me - s->rem;
}

static int fold_real(const coll *s, int nr)
{
	return nr < s->rem ? 2 * nr + 1 : nr + s->rem;
}

static int fold_first(const coll *s, int nr)
{
	return nr < s->rem ? 2 * nr : nr + s->rem;
}

/*
 * Fold in a whole vector of nb bytes: the even rank of each pair hands
 * s->acc to the odd one, which receives it into s->tmp and reduces it in
 * (reduce_pending) once the round has completed.  Returns 1 when a round
 * was queued.
 */
static int fold_in(coll *s, uint64_t nb)
{
	int me = s->rank;
	if (me >= 2 * s->rem)
		return 0;
	if (me % 2) {
		coll_recv(s, me - 1, s->tmp, nb);
		s->pending = 1;
	} else {
		coll_send(s, me + 1, s->acc, nb);
	}
	return 1;
}

/* Reduce a whole vector received into s->tmp (s->pending) into s->acc,
 * the received one on the left. */
static void reduce_pending(coll *s)
{
	if (s->pending) {
		coll_reduce(s, s->tmp, s->acc, s->count);
		s->pending = 0;
	}
}

/*
 * Unfold: the odd rank of each pair hands the nb bytes of the result in
 * s->acc back to the even one.  Returns 1 when a round was queued.
 */
static int fold_out(coll *s, uint64_t nb)
{
	int me = s->rank;
	if (me >= 2 * s->rem)
		return 0;
	if (me % 2)
		coll_send(s, me - 1, s->acc, nb);
	else
		coll_recv(s, me + 1, s->acc, nb);
	return 1;
}

/*
 * Byte offset in s->acc of the start of newrank k's part of the vector
 * (k = p2: its end), for the halving and doubling steps below, which
 * work on windows [lo, hi) of newranks.
 */
typedef uint64_t fold_at_fn(const coll *s, int k);

/*
 * One step of an allgather by recursive doubling over the newranks:
 * swap the window [lo, lo + mask) with the partner's, doubling it.
 * Returns 1 when a round was queued, 0 once the window is whole.
 */
static int fold_doubling(coll *s, fold_at_fn *at)
{
	if (s->newrank < 0 || s->mask >= s->p2)
		return 0;
	int m = s->mask, plo = s->lo ^ m;
	int peer = fold_real(s, s->newrank ^ m);
	uint64_t a = at(s, s->lo), b = at(s, s->lo + m);
	coll_send(s, peer, s->acc + a, b - a);
	a = at(s, plo);
	b = at(s, plo + m);
	coll_recv(s, peer, s->acc + a, b - a);
	if (plo < s->lo)
		s->lo = plo;
	s->mask *= 2;
	return 1;
}

static char *dup_input(coll *s, const void *src, uint64_t bytes)
{
	char *p = coll_alloc(s, bytes);
	if (bytes)
		memcpy(p, src, bytes);
	return p;
}

static uint64_t rbytes(const coll *s, int64_t n)
{
	return (uint64_t)n * s->esz;
}

/* First element of block b when n elements are cut into k blocks. */
static int64_t split(int64_t n, int k, int b)
{
	int64_t q = n / k, r = n % k;
	return b * q + (b < r ? b : r);
}

/* Zero-byte messages go from and to emu.coll.nothing. */

/* A block between two segments (both sides know its size from the
 * counts): an empty one is not sent at all, as MPI libraries do. */
static void seg_send(coll *s, int peer, const coll_seg *g, int j)
{
	if (coll_seg_bytes(g, j))
		coll_send_seg(s, peer, g, j);
}

static void seg_recv(coll *s, int peer, const coll_seg *g, int j)
{
	if (coll_seg_bytes(g, j))
		coll_recv_seg(s, peer, g, j);
}

/* ------------------------------------------------------------ barrier */

int barrier_dissemination(coll *s)
{
	int P = s->size;
	if (!s->mask)
		s->mask = 1;
	if (s->mask >= P)
		return 0;
	coll_send(s, mod((int64_t)s->rank + s->mask, P), emu.coll.nothing, 0);
	coll_recv(s, mod((int64_t)s->rank - s->mask, P), emu.coll.nothing, 0);
	s->mask = s->mask > P / 2 ? P : s->mask * 2;
	return 1;
}

int barrier_recursive_doubling(coll *s)
{
	int me = s->rank;
	switch (s->phase) {
	case 0:
		fold_init(s);
		s->phase = 1;
		s->mask = 1;
		if (me < 2 * s->rem) {
			if (me % 2)
				coll_recv(s, me - 1, emu.coll.nothing, 0);
			else
				coll_send(s, me + 1, emu.coll.nothing, 0);
			return 1;
		}
		/* fall through */
	case 1:
		if (s->newrank >= 0 && s->mask < s->p2) {
			int peer = fold_real(s, s->newrank ^ s->mask);
			coll_send(s, peer, emu.coll.nothing, 0);
			coll_recv(s, peer, emu.coll.nothing, 0);
			s->mask *= 2;
			return 1;
		}
		s->phase = 2;
		if (me < 2 * s->rem) {
			if (me % 2)
				coll_send(s, me - 1, emu.coll.nothing, 0);
			else
				coll_recv(s, me + 1, emu.coll.nothing, 0);
			return 1;
		}
		/* fall through */
	default:
		return 0;
	}
}

int barrier_tree(coll *s)
{
	int P = s->size, v = s->rank;
	int64_t m;
	switch (s->phase) {
	case 0:
		s->phase = 1;
		for (m = bin_span(v, P) / 2; m >= 1; m /= 2)
			if (v + m < P)
				coll_recv(s, (int)(v + m), emu.coll.nothing, 0);
		return 1;
	case 1:
		s->phase = 2;
		if (v) {
			coll_send(s, bin_parent(v), emu.coll.nothing, 0);
			coll_recv(s, bin_parent(v), emu.coll.nothing, 0);
		}
		return 1;
	case 2:
		s->phase = 3;
		for (m = bin_span(v, P) / 2; m >= 1; m /= 2)
			if (v + m < P)
				coll_send(s, (int)(v + m), emu.coll.nothing, 0);
		return 1;
	default:
		return 0;
	}
}

/* -------------------------------------------------------------- bcast */

/* Binomial broadcast of buf (bytes) from root; uses s->i as its state.
 * Shared by bcast and the reduce_bcast allreduce. */
static int bcast_binomial_sub(coll *s, char *buf, uint64_t bytes, int root)
{
	int P = s->size, v = rel(s, root);
	switch (s->i) {
	case 0:
		s->i = 1;
		if (v) {
			coll_recv(s, abs_rank(s, bin_parent(v), root), buf,
				  bytes);
			return 1;
		}
		/* fall through */
	case 1:
		s->i = 2;
		for (int64_t m = bin_span(v, P) / 2; m >= 1; m /= 2)
			if (v + m < P)
				coll_send(s, abs_rank(s, (int)(v + m), root),
					  buf, bytes);
		return 1;
	default:
		return 0;
	}
}

int bcast_binomial(coll *s)
{
	return bcast_binomial_sub(s, s->rbuf, s->bytes, s->root);
}

int bcast_linear(coll *s)
{
	if (s->phase++)
		return 0;
	if (s->rank != s->root) {
		coll_recv(s, s->root, s->rbuf, s->bytes);
		return 1;
	}
	for (int k = 1; k < s->size; k++)
		coll_send(s, mod((int64_t)s->root + k, s->size), s->rbuf,
			  s->bytes);
	return 1;
}

/* Byte where relative rank v's chunk starts (v = P: the end). */
static uint64_t chunk_at(const coll *s, int64_t v)
{
	uint64_t chunk = (s->bytes + (uint64_t)s->size - 1) / s->size;
	uint64_t b = (uint64_t)v * chunk;
	return b < s->bytes ? b : s->bytes;
}

int bcast_scatter_allgather(coll *s)
{
	int P = s->size, v = rel(s, s->root), root = s->root;
	switch (s->phase) {
	case 0:
		s->phase = 1;
		if (v) {
			int end = v + bin_size(v, P);
			coll_recv(s, abs_rank(s, bin_parent(v), root),
				  s->rbuf + chunk_at(s, v),
				  chunk_at(s, end) - chunk_at(s, v));
			return 1;
		}
		/* fall through */
	case 1:
		s->phase = 2;
		for (int64_t m = bin_span(v, P) / 2; m >= 1; m /= 2) {
			if (v + m >= P)
				continue;
			int c = (int)(v + m), end = c + bin_size(c, P);
			coll_send(s, abs_rank(s, c, root),
				  s->rbuf + chunk_at(s, c),
				  chunk_at(s, end) - chunk_at(s, c));
		}
		return 1;
	case 2:
		/* Ring allgather of the chunks, in relative ranks. */
		if (s->i >= P - 1)
			return 0;
		{
			int sb = mod((int64_t)v - s->i, P);
			int rb = mod((int64_t)v - s->i - 1, P);
			coll_send(s, abs_rank(s, v + 1, root),
				  s->rbuf + chunk_at(s, sb),
				  chunk_at(s, sb + 1) - chunk_at(s, sb));
			coll_recv(s, abs_rank(s, v - 1 + P, root),
				  s->rbuf + chunk_at(s, rb),
				  chunk_at(s, rb + 1) - chunk_at(s, rb));
		}
		s->i++;
		return 1;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------- reduce */

/*
 * Binomial reduction of s->count elements held in s->acc (writable) to
 * `root', where the result ends in s->acc.  Commutative operations use
 * the tree over ranks relative to root; others the tree over the ranks
 * themselves (rank v's subtree is the ranks v .. v + size - 1, so
 * acc = acc op received keeps rank order) and a last hop from rank 0 to
 * root.  State: s->i, s->mask, s->pending; s->tmp is the landing area.
 */
static int reduce_binomial_sub(coll *s, int root)
{
	int P = s->size;
	int troot = s->commute ? root : 0;
	int v = rel(s, troot);
	uint64_t nb = rbytes(s, s->count);
	switch (s->i) {
	case 0:
		s->tmp = coll_alloc(s, nb);
		s->mask = 1;
		s->i = 1;
		/* fall through */
	case 1:
		if (s->pending) {
			/* tmp = acc op tmp: acc holds the lower ranks. */
			coll_reduce(s, s->acc, s->tmp, s->count);
			char *t = s->acc;
			s->acc = s->tmp;
			s->tmp = t;
			s->pending = 0;
		}
		while (s->mask < P) {
			int m = s->mask;
			s->mask = m > P / 2 ? P : m * 2;
			if (v & m) {
				coll_send(s, abs_rank(s, v - m, troot), s->acc,
					  nb);
				s->i = 2;
				return 1;
			}
			if (v + m < P) {
				coll_recv(s, abs_rank(s, v + m, troot), s->tmp,
					  nb);
				s->pending = 1;
				return 1;
			}
		}
		/* fall through */
	case 2:
		s->i = 3;
		if (troot != root) {
			if (s->rank == troot) {
				coll_send(s, root, s->acc, nb);
				return 1;
			}
			if (s->rank == root) {
				coll_recv(s, troot, s->acc, nb);
				return 1;
			}
		}
		/* fall through */
	default:
		return 0;
	}
}

/* The accumulator of a reduction: the output buffer where there is one
 * (holding the input), else a copy of the input. */
static void acc_init(coll *s, char *out)
{
	uint64_t nb = rbytes(s, s->count);
	if (out) {
		if (out != s->sbuf && nb)
			memcpy(out, s->sbuf, nb);
		s->acc = out;
	} else {
		s->acc = dup_input(s, s->sbuf, nb);
	}
}

static void acc_done(coll *s, char *out)
{
	if (out && s->acc != out && s->count)
		memcpy(out, s->acc, rbytes(s, s->count));
}

int reduce_binomial(coll *s)
{
	char *out = s->rank == s->root ? s->rbuf : NULL;
	if (s->phase == 0) {
		acc_init(s, out);
		s->phase = 1;
	}
	if (reduce_binomial_sub(s, s->root))
		return 1;
	acc_done(s, out);
	return 0;
}

int reduce_linear(coll *s)
{
	int P = s->size;
	uint64_t nb = rbytes(s, s->count);
	if (s->rank != s->root) {
		if (s->phase++)
			return 0;
		coll_send(s, s->root, s->sbuf, nb);
		return 1;
	}
	if (s->phase == 0) {
		/* The input may be the output buffer (MPI_IN_PLACE). */
		if (s->sbuf == s->rbuf && s->root != P - 1)
			s->sbuf = dup_input(s, s->sbuf, nb);
		s->acc = s->rbuf;
		s->tmp = coll_alloc(s, nb);
		s->i = P - 1;
		s->phase = 1;
		s->lo = 0;              /* acc holds something */
	}
	reduce_pending(s);
	/* acc = x_i op acc, for i = P-1 down to 0. */
	while (s->i >= 0) {
		int i = s->i--;
		if (i == s->root) {
			if (!s->lo) {
				if (s->acc != s->sbuf && nb)
					memcpy(s->acc, s->sbuf, nb);
			} else {
				coll_reduce(s, s->sbuf, s->acc, s->count);
			}
			s->lo = 1;
			continue;
		}
		if (!s->lo) {
			coll_recv(s, i, s->acc, nb);
			s->lo = 1;
		} else {
			coll_recv(s, i, s->tmp, nb);
			s->pending = 1;
		}
		return 1;
	}
	return 0;
}

/* Newrank window [lo, hi) as a range of elements of the vector cut into
 * p2 blocks. */
static uint64_t halving_at(const coll *s, int k)
{
	return rbytes(s, split(s->count, s->p2, k));
}

/*
 * The fold and the reduce-scatter by recursive halving shared by the
 * rabenseifner reduce and allreduce and by the recursive halving
 * reduce_scatter, which differ only in where newrank k's part of the
 * vector starts (at): afterwards newrank k holds the reduction of its
 * part in s->acc, s->lo = k.  Phases 0..2 of s->phase; returns 1 when a
 * round was queued.
 */
static int rs_halving(coll *s, fold_at_fn *at)
{
	uint64_t nb = rbytes(s, s->count);
	switch (s->phase) {
	case 0:
		fold_init(s);
		s->tmp = coll_alloc(s, nb);
		s->phase = 1;
		if (fold_in(s, nb))
			return 1;
		/* fall through */
	case 1:
		reduce_pending(s);
		s->lo = 0;
		s->hi = s->p2;
		s->mask = s->p2 / 2;
		s->phase = 2;
		/* fall through */
	case 2:
		if (s->pending) {
			uint64_t a = at(s, s->lo), b = at(s, s->hi);
			coll_reduce(s, s->tmp + a, s->acc + a,
				    (int64_t)((b - a) / s->esz));
			s->pending = 0;
		}
		if (s->newrank >= 0 && s->mask >= 1) {
			int m = s->mask, peer = fold_real(s, s->newrank ^ m);
			int slo, shi;
			if (s->newrank & m) {
				slo = s->lo;
				shi = s->lo + m;
				s->lo += m;
			} else {
				slo = s->lo + m;
				shi = s->hi;
				s->hi = s->lo + m;
			}
			uint64_t a = at(s, slo), b = at(s, shi);
			coll_send(s, peer, s->acc + a, b - a);
			a = at(s, s->lo);
			b = at(s, s->hi);
			coll_recv(s, peer, s->tmp + a, b - a);
			s->pending = 1;
			s->mask /= 2;
			return 1;
		}
		s->phase = 3;
		s->mask = 1;
		return 0;
	}
	return 0;
}

int reduce_rabenseifner(coll *s)
{
	int me = s->rank, root = s->root;
	uint64_t nb = rbytes(s, s->count);
	if (s->phase == 0)
		acc_init(s, me == root ? s->rbuf : NULL);
	if (s->phase < 3 && rs_halving(s, halving_at))
		return 1;
	/* The newrank holding the result, and the rank it stands for. */
	int nroot = root < 2 * s->rem ? root / 2 : root - s->rem;
	switch (s->phase) {
	case 3:
		/* Binomial gather of the blocks to nroot, mirroring the
		 * halving: windows double towards it. */
		if (s->newrank >= 0 && s->mask < s->p2) {
			int m = s->mask, plo = s->lo ^ m;
			int peer = fold_real(s, s->newrank ^ m);
			s->mask *= 2;
			if ((s->newrank & m) == (nroot & m)) {
				uint64_t a = halving_at(s, plo);
				uint64_t b = halving_at(s, plo + m);
				coll_recv(s, peer, s->acc + a, b - a);
				if (plo < s->lo)
					s->lo = plo;
			} else {
				uint64_t a = halving_at(s, s->lo);
				uint64_t b = halving_at(s, s->lo + m);
				coll_send(s, peer, s->acc + a, b - a);
				s->mask = s->p2;
			}
			return 1;
		}
		s->phase = 4;
		/* An even root of a pair gets it from its partner. */
		if (root < 2 * s->rem && root % 2 == 0) {
			if (me == root + 1) {
				coll_send(s, root, s->acc, nb);
				return 1;
			}
			if (me == root) {
				coll_recv(s, root + 1, s->rbuf, nb);
				s->acc = s->rbuf;
				return 1;
			}
		}
		/* fall through */
	default:
		if (me == root)
			acc_done(s, s->rbuf);
		return 0;
	}
}

/* ---------------------------------------------------------- allreduce */

int allreduce_recursive_doubling(coll *s)
{
	int me = s->rank;
	uint64_t nb = rbytes(s, s->count);
	switch (s->phase) {
	case 0:
		acc_init(s, s->rbuf);
		fold_init(s);
		s->tmp = coll_alloc(s, nb);
		s->phase = 1;
		if (fold_in(s, nb))
			return 1;
		/* fall through */
	case 1:
		reduce_pending(s);
		s->mask = 1;
		s->phase = 2;
		/* fall through */
	case 2:
		if (s->pending) {
			if (s->commute || s->peer < me) {
				coll_reduce(s, s->tmp, s->acc, s->count);
			} else {
				coll_reduce(s, s->acc, s->tmp, s->count);
				char *t = s->acc;
				s->acc = s->tmp;
				s->tmp = t;
			}
			s->pending = 0;
		}
		if (s->newrank >= 0 && s->mask < s->p2) {
			s->peer = fold_real(s, s->newrank ^ s->mask);
			coll_send(s, s->peer, s->acc, nb);
			coll_recv(s, s->peer, s->tmp, nb);
			s->pending = 1;
			s->mask *= 2;
			return 1;
		}
		s->phase = 3;
		if (me < 2 * s->rem) {
			if (me % 2) {
				coll_send(s, me - 1, s->acc, nb);
			} else {
				coll_recv(s, me + 1, s->rbuf, nb);
				s->acc = s->rbuf;
			}
			return 1;
		}
		/* fall through */
	default:
		acc_done(s, s->rbuf);
		return 0;
	}
}

int allreduce_rabenseifner(coll *s)
{
	uint64_t nb = rbytes(s, s->count);
	if (s->phase == 0)
		acc_init(s, s->rbuf);
	if (s->phase < 3 && rs_halving(s, halving_at))
		return 1;
	switch (s->phase) {
	case 3:
		/* Allgather by recursive doubling, undoing the halving. */
		if (fold_doubling(s, halving_at))
			return 1;
		s->phase = 4;
		if (fold_out(s, nb))
			return 1;
		/* fall through */
	default:
		acc_done(s, s->rbuf);
		return 0;
	}
}

static uint64_t ring_at(const coll *s, int b)
{
	return rbytes(s, split(s->count, s->size, b));
}

int allreduce_ring(coll *s)
{
	int P = s->size, me = s->rank;
	int right = mod(me + 1, P), left = mod(me - 1, P);
	switch (s->phase) {
	case 0:
		acc_init(s, s->rbuf);
		s->tmp = coll_alloc(s, ring_at(s, 1));
		s->phase = 1;
		/* fall through */
	case 1:
		/* Reduce-scatter: block b starts at rank b and picks up every
		 * rank's share on its way round; rank me ends holding block
		 * me + 1 complete. */
		if (s->pending) {
			uint64_t a = ring_at(s, s->peer);
			coll_reduce(s, s->tmp, s->acc + a,
				    (int64_t)((ring_at(s, s->peer + 1) - a) /
					      s->esz));
			s->pending = 0;
		}
		if (s->i < P - 1) {
			int sb = mod((int64_t)me - s->i, P);
			int rb = mod((int64_t)me - s->i - 1, P);
			coll_send(s, right, s->acc + ring_at(s, sb),
				  ring_at(s, sb + 1) - ring_at(s, sb));
			coll_recv(s, left, s->tmp,
				  ring_at(s, rb + 1) - ring_at(s, rb));
			s->peer = rb;
			s->pending = 1;
			s->i++;
			return 1;
		}
		s->i = 0;
		s->phase = 2;
		/* fall through */
	case 2:
		if (s->i < P - 1) {
			int sb = mod((int64_t)me + 1 - s->i, P);
			int rb = mod((int64_t)me - s->i, P);
			coll_send(s, right, s->acc + ring_at(s, sb),
				  ring_at(s, sb + 1) - ring_at(s, sb));
			coll_recv(s, left, s->acc + ring_at(s, rb),
				  ring_at(s, rb + 1) - ring_at(s, rb));
			s->i++;
			return 1;
		}
		/* fall through */
	default:
		acc_done(s, s->rbuf);
		return 0;
	}
}

int allreduce_reduce_bcast(coll *s)
{
	switch (s->phase) {
	case 0:
		acc_init(s, s->rbuf);
		s->phase = 1;
		/* fall through */
	case 1:
		if (reduce_binomial_sub(s, 0))
			return 1;
		acc_done(s, s->rbuf);
		s->acc = s->rbuf;
		s->i = 0;
		s->phase = 2;
		/* fall through */
	default:
		return bcast_binomial_sub(s, s->rbuf, rbytes(s, s->count), 0);
	}
}

/* --------------------------------------------------------- scan, exscan */

int scan_recursive_doubling(coll *s)
{
	int P = s->size, me = s->rank;
	int ex = s->kind == COLL_EXSCAN;
	uint64_t nb = rbytes(s, s->count);
	if (s->phase == 0) {
		/* partial: the reduction of the ranks this one has heard of
		 * (a rank range ending at me); rbuf: those below me. */
		s->acc = dup_input(s, s->sbuf, nb);
		s->tmp = coll_alloc(s, nb);
		if (!ex && s->rbuf != s->sbuf && nb)
			memcpy(s->rbuf, s->sbuf, nb);
		s->lo = 1;              /* exscan: rbuf still empty */
		s->mask = 1;
		s->phase = 1;
	}
	if (s->pending) {
		if (s->peer < me) {
			coll_reduce(s, s->tmp, s->acc, s->count);
			if (ex && s->lo)
				memcpy(s->rbuf, s->tmp, nb);
			else
				coll_reduce(s, s->tmp, s->rbuf, s->count);
			s->lo = 0;
		} else if (s->commute) {
			coll_reduce(s, s->tmp, s->acc, s->count);
		} else {
			coll_reduce(s, s->acc, s->tmp, s->count);
			char *t = s->acc;
			s->acc = s->tmp;
			s->tmp = t;
		}
		s->pending = 0;
	}
	while (s->mask < P) {
		int peer = me ^ s->mask;
		s->mask = s->mask > P / 2 ? P : s->mask * 2;
		if (peer < P) {
			s->peer = peer;
			coll_send(s, peer, s->acc, nb);
			coll_recv(s, peer, s->tmp, nb);
			s->pending = 1;
			return 1;
		}
	}
	return 0;
}

int scan_linear(coll *s)
{
	int P = s->size, me = s->rank;
	uint64_t nb = rbytes(s, s->count);
	switch (s->phase) {
	case 0:
		s->phase = 1;
		if (me > 0) {
			s->tmp = coll_alloc(s, nb);
			coll_recv(s, me - 1, s->tmp, nb);
			return 1;
		}
		/* fall through */
	case 1: {
		s->phase = 2;
		const char *out;
		if (s->kind == COLL_SCAN) {
			if (s->rbuf != s->sbuf && nb)
				memcpy(s->rbuf, s->sbuf, nb);
			if (me > 0)
				coll_reduce(s, s->tmp, s->rbuf, s->count);
			out = s->rbuf;
		} else if (me == 0) {
			out = s->sbuf;
		} else {
			/* Pass on prefix op mine; keep the prefix. */
			char *next = dup_input(s, s->sbuf, nb);
			coll_reduce(s, s->tmp, next, s->count);
			if (nb)
				memcpy(s->rbuf, s->tmp, nb);
			out = next;
		}
		if (me < P - 1)
			coll_send(s, me + 1, out, nb);
		return 1;
	}
	default:
		return 0;
	}
}

/* ----------------------------------------------------- gather, scatter */

int gather_linear(coll *s)
{
	int P = s->size, me = s->rank;
	if (s->phase++)
		return 0;
	if (me != s->root) {
		seg_send(s, s->root, &s->sseg, 0);
		return 1;
	}
	if (!s->in_place)
		coll_seg_copy(s, &s->sseg, 0, &s->rseg, me);
	for (int k = 1; k < P; k++) {
		int i = mod((int64_t)me + k, P);
		seg_recv(s, i, &s->rseg, i);
	}
	return 1;
}

int gather_binomial(coll *s)
{
	int P = s->size, root = s->root, v = rel(s, root);
	int n = bin_size(v, P);
	uint64_t B = s->bytes;
	switch (s->phase) {
	case 0:
		if (n == 1 && v) {
			s->phase = 2;
			coll_send_seg(s, abs_rank(s, bin_parent(v), root),
				      &s->sseg, 0);
			return 1;
		}
		/* Collect the subtree's blocks, in relative order. */
		s->tmp = coll_alloc(s, (uint64_t)n * B);
		if (s->in_place)
			coll_seg_pack(&s->rseg, root, s->tmp);
		else
			coll_seg_pack(&s->sseg, 0, s->tmp);
		for (int64_t m = bin_span(v, P) / 2; m >= 1; m /= 2) {
			if (v + m >= P)
				continue;
			int c = (int)(v + m);
			coll_recv(s, abs_rank(s, c, root),
				  s->tmp + (uint64_t)(c - v) * B,
				  (uint64_t)bin_size(c, P) * B);
		}
		s->phase = 1;
		return 1;
	case 1:
		s->phase = 2;
		if (v) {
			coll_send(s, abs_rank(s, bin_parent(v), root), s->tmp,
				  (uint64_t)n * B);
			return 1;
		}
		for (int j = s->in_place ? 1 : 0; j < P; j++)
			coll_seg_unpack(&s->rseg, abs_rank(s, j, root),
					s->tmp + (uint64_t)j * B);
		/* fall through */
	default:
		return 0;
	}
}

int scatter_linear(coll *s)
{
	int P = s->size, me = s->rank;
	if (s->phase++)
		return 0;
	if (me != s->root) {
		seg_recv(s, s->root, &s->rseg, 0);
		return 1;
	}
	if (!s->in_place)
		coll_seg_copy(s, &s->sseg, me, &s->rseg, 0);
	for (int k = 1; k < P; k++) {
		int i = mod((int64_t)me + k, P);
		seg_send(s, i, &s->sseg, i);
	}
	return 1;
}

int scatter_binomial(coll *s)
{
	int P = s->size, root = s->root, v = rel(s, root);
	int n = bin_size(v, P);
	uint64_t B = s->bytes;
	switch (s->phase) {
	case 0:
		s->phase = 1;
		if (v == 0) {
			s->tmp = coll_alloc(s, (uint64_t)P * B);
			for (int j = 0; j < P; j++)
				coll_seg_pack(&s->sseg, abs_rank(s, j, root),
					      s->tmp + (uint64_t)j * B);
		} else if (n == 1) {
			s->phase = 2;
			coll_recv_seg(s, abs_rank(s, bin_parent(v), root),
				      &s->rseg, 0);
			return 1;
		} else {
			s->tmp = coll_alloc(s, (uint64_t)n * B);
			coll_recv(s, abs_rank(s, bin_parent(v), root), s->tmp,
				  (uint64_t)n * B);
			return 1;
		}
		/* fall through */
	case 1:
		s->phase = 2;
		for (int64_t m = bin_span(v, P) / 2; m >= 1; m /= 2) {
			if (v + m >= P)
				continue;
			int c = (int)(v + m);
			coll_send(s, abs_rank(s, c, root),
				  s->tmp + (uint64_t)(c - v) * B,
				  (uint64_t)bin_size(c, P) * B);
		}
		if (!(v == 0 && s->in_place))
			coll_seg_unpack(&s->rseg, 0, s->tmp);
		return 1;
	default:
		return 0;
	}
}

/* ------------------------------------------------- allgather(v) */

static void own_block_in(coll *s)
{
	if (!s->in_place)
		coll_seg_copy(s, &s->sseg, 0, &s->rseg, s->rank);
}

int allgather_ring(coll *s)
{
	int P = s->size, me = s->rank;
	if (s->phase == 0) {
		own_block_in(s);
		s->phase = 1;
	}
	if (s->i >= P - 1)
		return 0;
	int sb = mod((int64_t)me - s->i, P), rb = mod((int64_t)me - s->i - 1,
						     P);
	seg_send(s, mod(me + 1, P), &s->rseg, sb);
	seg_recv(s, mod(me - 1, P), &s->rseg, rb);
	s->i++;
	return 1;
}

/*
 * The blocks of an allgather packed in rank order in s->acc, block j at
 * s->aux[j] (aux[P]: the total): the user's buffer itself when it is laid
 * out that way, else a temporary unpacked at the end (flat_done).
 */
static void flat_init(coll *s)
{
	int P = s->size;
	s->aux = coll_alloc(s, ((uint64_t)P + 1) * sizeof *s->aux);
	s->aux[0] = 0;
	for (int j = 0; j < P; j++)
		s->aux[j + 1] = s->aux[j] + coll_seg_bytes(&s->rseg, j);
	if (coll_seg_flat(&s->rseg, P)) {
		s->acc = s->rseg.base;
		own_block_in(s);
		return;
	}
	s->acc = coll_alloc(s, s->aux[P]);
	if (s->in_place)
		coll_seg_pack(&s->rseg, s->rank, s->acc + s->aux[s->rank]);
	else
		coll_seg_pack(&s->sseg, 0, s->acc + s->aux[s->rank]);
}

static void flat_done(coll *s)
{
	if (s->acc == s->rseg.base)
		return;
	for (int j = 0; j < s->size; j++)
		coll_seg_unpack(&s->rseg, j, s->acc + s->aux[j]);
}

/* Byte offset of newrank k's blocks in s->acc (see fold_first). */
static uint64_t flat_fold_at(const coll *s, int k)
{
	return s->aux[fold_first(s, k)];
}

int allgather_recursive_doubling(coll *s)
{
	int P = s->size, me = s->rank;
	switch (s->phase) {
	case 0:
		flat_init(s);
		fold_init(s);
		s->phase = 1;
		s->lo = s->newrank;
		s->mask = 1;
		if (me < 2 * s->rem) {
			if (me % 2)
				coll_recv(s, me - 1, s->acc + s->aux[me - 1],
					  s->aux[me] - s->aux[me - 1]);
			else
				coll_send(s, me + 1, s->acc + s->aux[me],
					  s->aux[me + 1] - s->aux[me]);
			return 1;
		}
		/* fall through */
	case 1:
		if (fold_doubling(s, flat_fold_at))
			return 1;
		s->phase = 2;
		if (fold_out(s, s->aux[P]))
			return 1;
		/* fall through */
	default:
		flat_done(s);
		return 0;
	}
}

int allgather_bruck(coll *s)
{
	int P = s->size, me = s->rank;
	switch (s->phase) {
	case 0:
		/* Rotated: block j of acc is rank me + j's, at aux[j]. */
		s->aux = coll_alloc(s, ((uint64_t)P + 1) * sizeof *s->aux);
		s->aux[0] = 0;
		for (int j = 0; j < P; j++)
			s->aux[j + 1] = s->aux[j] +
				coll_seg_bytes(&s->rseg, mod((int64_t)me + j,
							     P));
		s->acc = coll_alloc(s, s->aux[P]);
		if (s->in_place)
			coll_seg_pack(&s->rseg, me, s->acc);
		else
			coll_seg_pack(&s->sseg, 0, s->acc);
		s->mask = 1;
		s->phase = 1;
		/* fall through */
	case 1:
		if (s->mask < P) {
			int d = s->mask;
			int n = d < P - d ? d : P - d;
			coll_send(s, mod((int64_t)me - d, P), s->acc,
				  s->aux[n]);
			coll_recv(s, mod((int64_t)me + d, P),
				  s->acc + s->aux[d], s->aux[d + n] -
				  s->aux[d]);
			s->mask = d > P / 2 ? P : 2 * d;
			return 1;
		}
		for (int j = s->in_place ? 1 : 0; j < P; j++)
			coll_seg_unpack(&s->rseg, mod((int64_t)me + j, P),
					s->acc + s->aux[j]);
		s->phase = 2;
		/* fall through */
	default:
		return 0;
	}
}

/* ----------------------------------------------------------- alltoall */

static void own_segment(coll *s)
{
	if (!s->in_place)
		coll_seg_copy(s, &s->sseg, s->rank, &s->rseg, s->rank);
}

int alltoall_linear(coll *s)
{
	int P = s->size, me = s->rank;
	if (s->phase++)
		return 0;
	own_segment(s);
	for (int k = 1; k < P; k++) {
		int from = mod((int64_t)me - k, P);
		seg_recv(s, from, &s->rseg, from);
	}
	for (int k = 1; k < P; k++) {
		int to = mod((int64_t)me + k, P);
		seg_send(s, to, &s->sseg, to);
	}
	return 1;
}

int alltoall_pairwise(coll *s)
{
	int P = s->size, me = s->rank;
	if (s->phase == 0) {
		own_segment(s);
		s->i = 1;
		s->phase = 1;
	}
	if (s->i >= P)
		return 0;
	int to, from;
	if (coll_is_pof2(P)) {
		to = from = me ^ s->i;
	} else {
		to = mod((int64_t)me + s->i, P);
		from = mod((int64_t)me - s->i, P);
	}
	seg_send(s, to, &s->sseg, to);
	seg_recv(s, from, &s->rseg, from);
	s->i++;
	return 1;
}

int alltoall_bruck(coll *s)
{
	int P = s->size, me = s->rank;
	uint64_t B = s->bytes;
	switch (s->phase) {
	case 0:
		/* acc block j: what this rank sends to rank me + j. */
		s->acc = coll_alloc(s, (uint64_t)P * B);
		for (int j = 0; j < P; j++)
			coll_seg_pack(&s->sseg, mod((int64_t)me + j, P),
				      s->acc + (uint64_t)j * B);
		s->tmp = coll_alloc(s, (uint64_t)(P / 2 + 1) * B);
		s->tmp2 = coll_alloc(s, (uint64_t)(P / 2 + 1) * B);
		s->mask = 1;
		s->phase = 1;
		/* fall through */
	case 1:
		if (s->pending) {
			/* The blocks with bit `peer' set came in. */
			int n = 0;
			for (int j = 0; j < P; j++)
				if (j & s->peer)
					memcpy(s->acc + (uint64_t)j * B,
					       s->tmp2 + (uint64_t)n++ * B, B);
			s->pending = 0;
		}
		if (s->mask < P) {
			int d = s->mask, n = 0;
			for (int j = 0; j < P; j++)
				if (j & d)
					memcpy(s->tmp + (uint64_t)n++ * B,
					       s->acc + (uint64_t)j * B, B);
			coll_send(s, mod((int64_t)me + d, P), s->tmp,
				  (uint64_t)n * B);
			coll_recv(s, mod((int64_t)me - d, P), s->tmp2,
				  (uint64_t)n * B);
			s->peer = d;
			s->pending = 1;
			s->mask = d > P / 2 ? P : 2 * d;
			return 1;
		}
		/* acc block j now came from rank me - j. */
		for (int j = 0; j < P; j++)
			coll_seg_unpack(&s->rseg, mod((int64_t)me - j, P),
					s->acc + (uint64_t)j * B);
		s->phase = 2;
		/* fall through */
	default:
		return 0;
	}
}

int alltoall_percs(coll *s)
{
	int P = s->size, me = s->rank;
	int ns = emu.node_size < P ? emu.node_size : P;
	int n = (int)(((int64_t)P + ns - 1) / ns);
	int a = me / ns, j = me % ns;
	if (s->phase == 0) {
		own_segment(s);
		s->phase = 1;
	}
	if (s->i >= n)
		return 0;
	int i = s->i++;
	/* Phase i: from sources (a', j') with (j' + i) mod n == a ... */
	for (int a2 = 0; a2 < n; a2++) {
		int cores = P - a2 * ns < ns ? P - a2 * ns : ns;
		for (int j2 = mod((int64_t)a - i, n); j2 < cores;
		     j2 += n) {
			int src = a2 * ns + j2;
			if (src != me)
				seg_recv(s, src, &s->rseg, src);
		}
	}
	/* ... and to every core of node (j + i) mod n, starting with core j
	 * so that the senders of a node spread over its cores. */
	int d = mod((int64_t)j + i, n);
	int cores = P - d * ns < ns ? P - d * ns : ns;
	for (int k = 0; k < cores; k++) {
		int dst = d * ns + mod((int64_t)j + k, cores);
		if (dst != me)
			seg_send(s, dst, &s->sseg, dst);
	}
	return 1;
}

/* ----------------------------------------------------- reduce_scatter */

/* Element offset of rank b's block (b = P: the total), into s->aux. */
static void rs_blocks(coll *s)
{
	int P = s->size;
	s->aux = coll_alloc(s, ((uint64_t)P + 1) * sizeof *s->aux);
	s->aux[0] = 0;
	for (int b = 0; b < P; b++)
		s->aux[b + 1] = s->aux[b] + (uint64_t)s->emul *
			(uint64_t)(s->rcounts ? s->rcounts[b] : s->block);
}

static uint64_t rs_at(const coll *s, int b)
{
	return rbytes(s, (int64_t)s->aux[b]);
}

/* Newranks stand for rank ranges, whose blocks are element ranges. */
static uint64_t rs_fold_at(const coll *s, int k)
{
	return rs_at(s, fold_first(s, k));
}

int reduce_scatter_recursive_halving(coll *s)
{
	int me = s->rank;
	uint64_t nb = rbytes(s, s->count);
	if (s->phase == 0) {
		rs_blocks(s);
		s->acc = dup_input(s, s->sbuf, nb);
	}
	if (s->phase < 3 && rs_halving(s, rs_fold_at))
		return 1;
	switch (s->phase) {
	case 3:
		s->phase = 4;
		/* An odd rank of a pair holds its partner's block too. */
		if (me < 2 * s->rem) {
			if (me % 2) {
				coll_send(s, me - 1, s->acc + rs_at(s, me - 1),
					  rs_at(s, me) - rs_at(s, me - 1));
			} else {
				coll_recv(s, me + 1, s->rbuf,
					  rs_at(s, me + 1) - rs_at(s, me));
				return 1;
			}
		}
		if (rs_at(s, me + 1) > rs_at(s, me))
			memcpy(s->rbuf, s->acc + rs_at(s, me),
			       rs_at(s, me + 1) - rs_at(s, me));
		return 1;
	default:
		return 0;
	}
}

int reduce_scatter_reduce_scatterv(coll *s)
{
	int P = s->size, me = s->rank;
	switch (s->phase) {
	case 0:
		rs_blocks(s);
		acc_init(s, NULL);
		s->phase = 1;
		/* fall through */
	case 1:
		if (reduce_binomial_sub(s, 0))
			return 1;
		s->phase = 2;
		if (me != 0) {
			coll_recv(s, 0, s->rbuf, rs_at(s, me + 1) -
				  rs_at(s, me));
			return 1;
		}
		for (int b = 1; b < P; b++)
			coll_send(s, b, s->acc + rs_at(s, b),
				  rs_at(s, b + 1) - rs_at(s, b));
		if (rs_at(s, 1) > 0)
			memcpy(s->rbuf, s->acc, rs_at(s, 1));
		return 1;
	default:
		return 0;
	}
}

/* ------------------------------------------------------ neighbourhood */

/*
 * Messages between two ranks match in the order they were sent (one tag
 * per collective), so where two neighbours are the same rank the order
 * decides which block goes where.  In a graph or distributed graph the
 * k-th block a rank sends to a neighbour is the k-th that neighbour
 * receives from it, as in Open MPI.  In a grid, what a rank sends towards
 * -1 along a dimension is what the rank there receives from +1, and the
 * other way round: with both neighbours the same rank (a periodic
 * dimension of 2, or of 1: the rank itself) the receives of a dimension
 * are posted +1 first, opposite to the sends, and each block lands where
 * MPI says.
 */
static int neighbor_step(coll *s)
{
	if (s->phase++)
		return 0;
	for (int j = 0; j < s->indeg; j++) {
		int k = s->cart ? j ^ 1 : j;
		if (s->src[k] != MPI_PROC_NULL)
			seg_recv(s, s->src[k], &s->rseg, k);
	}
	int gather = s->kind == COLL_NEIGHBOR_ALLGATHER ||
		s->kind == COLL_NEIGHBOR_ALLGATHERV;
	uint64_t n = gather ? coll_seg_bytes(&s->sseg, 0) : 0;
	const char *block = NULL;
	if (n && emu_dt_contiguous(coll_seg_type(&s->sseg, 0))) {
		block = coll_seg_addr(&s->sseg, 0);
	} else if (n) {
		/* One packed copy for all the neighbours. */
		char *p = coll_alloc(s, n);
		coll_seg_pack(&s->sseg, 0, p);
		block = p;
	}
	for (int j = 0; j < s->outdeg; j++) {
		if (s->dst[j] == MPI_PROC_NULL)
			continue;
		if (!gather)
			seg_send(s, s->dst[j], &s->sseg, j);
		else if (n)
			coll_send(s, s->dst[j], block, n);
	}
	return 1;
}

const coll_alg coll_neighbor_linear = { "linear", neighbor_step };
