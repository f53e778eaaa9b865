/*
 * p2p_index.c -- matching with many receives posted at once (more than
 * the emulator's 64, beyond which they are indexed by source).
 *
 *   tags     every rank posts, for every other rank s in a shuffled
 *            order, an Irecv from s with tag A, then one from s with
 *            MPI_ANY_TAG; then sends every other rank a message tagged B,
 *            then one tagged A.  The first arriving (B) can only match the
 *            ANY_TAG receive, the second (A) the tag-A receive posted
 *            before it: statuses and contents say which went where.
 *   wild     every rank posts an Irecv from every other rank with tag W,
 *            then one from MPI_ANY_SOURCE with tag W; every rank sends
 *            one W message to every other rank, and its left neighbour a
 *            second one.  The specific receives, posted first, take the
 *            first message of each source; the wildcard takes the second
 *            from the left neighbour.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_index" on rank 0.
 */
#include "emutest.h"

#define TAG_A 32200
#define TAG_B 32201
#define TAG_W 32202
#define LEN 3

static int mark(int s, int d, int which, int i)
{
	return ((s * 7919 + d) * 4 + which) * 8 + i;
}

static void tags(emu_test *t)
{
	int p = t->size - 1;
	int *order = emu_alloc(t, (size_t)p, sizeof *order);
	int *rb = emu_alloc(t, 2 * (size_t)t->size * LEN, sizeof *rb);
	int *sb = emu_alloc(t, 2 * (size_t)t->size * LEN, sizeof *sb);
	MPI_Request *rq = emu_alloc(t, 4 * (size_t)t->size, sizeof *rq);
	MPI_Status *st = emu_alloc(t, 2 * (size_t)t->size, sizeof *st);

	for (int j = 0; j < p; j++)
		order[j] = (t->rank + 1 + j) % t->size;
	for (int j = p - 1; j > 0; j--) {         /* shuffled, the same way
						     on every run */
		int k = (int)(((unsigned)j * 2654435761u + (unsigned)t->rank) %
			      (unsigned)(j + 1)), x = order[j];
		order[j] = order[k];
		order[k] = x;
	}
	for (int j = 0; j < p; j++) {
		int s = order[j];
		MPI_Irecv(rb + (size_t)(2 * s) * LEN, LEN, MPI_INT, s, TAG_A,
			  MPI_COMM_WORLD, &rq[2 * s]);
		MPI_Irecv(rb + (size_t)(2 * s + 1) * LEN, LEN, MPI_INT, s,
			  MPI_ANY_TAG, MPI_COMM_WORLD, &rq[2 * s + 1]);
	}
	rq[2 * t->rank] = rq[2 * t->rank + 1] = MPI_REQUEST_NULL;
	MPI_Request *sq = rq + 2 * t->size;
	for (int d = 0; d < t->size; d++) {
		sq[2 * d] = sq[2 * d + 1] = MPI_REQUEST_NULL;
		if (d == t->rank)
			continue;
		for (int i = 0; i < LEN; i++) {
			sb[(size_t)(2 * d) * LEN + i] = mark(t->rank, d, 1, i);
			sb[(size_t)(2 * d + 1) * LEN + i] = mark(t->rank, d, 0,
								 i);
		}
		MPI_Isend(sb + (size_t)(2 * d) * LEN, LEN, MPI_INT, d, TAG_B,
			  MPI_COMM_WORLD, &sq[2 * d]);
		MPI_Isend(sb + (size_t)(2 * d + 1) * LEN, LEN, MPI_INT, d,
			  TAG_A, MPI_COMM_WORLD, &sq[2 * d + 1]);
	}
	MPI_Waitall(2 * t->size, rq, st);
	for (int s = 0; s < t->size; s++) {
		if (s == t->rank)
			continue;
		for (int k = 0; k < 2; k++) {
			/* k 0: the tag-A receive, got A (mark 0); k 1: the
			 * ANY_TAG one, got B (mark 1). */
			const MPI_Status *x = &st[2 * s + k];
			EMU_EQ(t, x->MPI_SOURCE, s, "tags: receive %d from %d: "
			       "source", k, s);
			EMU_EQ(t, x->MPI_TAG, k ? TAG_B : TAG_A, "tags: receive "
			       "%d from %d: tag", k, s);
			for (int i = 0; i < LEN; i++)
				if (!EMU_EQ(t, rb[(size_t)(2 * s + k) * LEN + i],
					    mark(s, t->rank, k, i), "tags: "
					    "receive %d from %d: int %d", k, s,
					    i))
					break;
		}
	}
	MPI_Waitall(2 * t->size, sq, MPI_STATUSES_IGNORE);
	free(order);
	free(rb);
	free(sb);
	free(rq);
	free(st);
}

static void wild(emu_test *t)
{
	int left = (t->rank + t->size - 1) % t->size;
	int right = (t->rank + 1) % t->size;
	int *rb = emu_alloc(t, (size_t)t->size + 1, sizeof *rb);
	int *sb = emu_alloc(t, (size_t)t->size + 1, sizeof *sb);
	MPI_Request *rq = emu_alloc(t, 2 * (size_t)t->size + 2, sizeof *rq);
	MPI_Status *st = emu_alloc(t, (size_t)t->size + 1, sizeof *st);

	for (int s = 0; s < t->size; s++)
		if (s == t->rank)
			rq[s] = MPI_REQUEST_NULL;
		else
			MPI_Irecv(&rb[s], 1, MPI_INT, s, TAG_W, MPI_COMM_WORLD,
				  &rq[s]);
	MPI_Irecv(&rb[t->size], 1, MPI_INT, MPI_ANY_SOURCE, TAG_W,
		  MPI_COMM_WORLD, &rq[t->size]);
	MPI_Request *sq = rq + t->size + 1;
	for (int d = 0; d < t->size; d++) {
		sb[d] = mark(t->rank, d, 2, 0);
		sq[d] = MPI_REQUEST_NULL;
		if (d != t->rank)
			MPI_Isend(&sb[d], 1, MPI_INT, d, TAG_W, MPI_COMM_WORLD,
				  &sq[d]);
	}
	sb[t->size] = mark(t->rank, right, 3, 0);
	MPI_Send(&sb[t->size], 1, MPI_INT, right, TAG_W, MPI_COMM_WORLD);
	MPI_Waitall(t->size + 1, rq, st);
	for (int s = 0; s < t->size; s++)
		if (s != t->rank)
			EMU_EQ(t, rb[s], mark(s, t->rank, 2, 0), "wild: the "
			       "receive from %d", s);
	EMU_EQ(t, st[t->size].MPI_SOURCE, left, "wild: the wildcard's source");
	EMU_EQ(t, rb[t->size], mark(left, t->rank, 3, 0), "wild: the "
	       "wildcard's message");
	MPI_Waitall(t->size, sq, MPI_STATUSES_IGNORE);
	free(rb);
	free(sb);
	free(rq);
	free(st);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_index", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	tags(&t);
	wild(&t);
	return emu_finish(&t);
}
