/*
 * p2p_wildcard.c -- MPI_ANY_SOURCE and MPI_ANY_TAG receives.
 *
 *   anysource  every rank sends 2 messages on tag WA and 2 on tag WB
 *              (interleaved) to rank+size/2 and rank+1; each receives all
 *              WB first, then all WA, with MPI_ANY_SOURCE: the status names
 *              the real source and tag, per source the order holds, every
 *              source delivers exactly its 2 messages per tag.
 *   anytag     every rank sends NB messages with unordered, repeating tags
 *              and different lengths to rank+1, received from rank-1 with
 *              MPI_ANY_TAG: tags, counts and contents in send order.
 *   anyany     for a few receivers X (0, size/2, size-1, 1), every other
 *              rank sends NC messages to X, which receives them all with
 *              MPI_ANY_SOURCE + MPI_ANY_TAG: status source, tag and count
 *              match the payload, per-source order holds, none is lost.
 *
 * Only the messages of the part under way can match a receive: each part
 * receives all that was sent to the rank before the next starts, and
 * MPI_ANY_TAG from a given source (or fully wild) only ever sees that
 * part's messages (rank 0 keeps early verdicts aside with emu_stash).
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_wildcard" on rank 0.
 */
#include "emutest.h"

#define NB 6                    /* anytag messages per sender */
#define NC 3                    /* anyany messages per sender and round */
#define TAG_WA 10
#define TAG_WB 11

/* Disjoint from TAG_WA, TAG_WB and the anyany tags: a receive of one part
 * with MPI_ANY_SOURCE must not see a later part's message. */
static const int anytag_tags[NB] = { 7, 3, 21, 5, 3, 0 };

/* anyany: tag and length (ints, >= 3) of message j from s. */
static int c_tag(int s, int j)
{
	return 100 + (s * 3 + j * 5) % 7;
}

static int c_len(int s, int j)
{
	return 3 + (s + j) % 4 * 5;
}

static int has(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static void anysource(emu_test *t)
{
	int dist[2], to[2], from[2];
	int nd = emu_distances(t, dist);
	for (int k = 0; k < nd; k++) {
		to[k] = emu_right(t, dist[k]);
		from[k] = emu_left(t, dist[k]);
	}
	int sbuf[2][4];
	MPI_Request sq[2][4];
	for (int k = 0; k < nd; k++)
		for (int i = 0; i < 4; i++) {
			sbuf[k][i] = t->rank * 1000 + i / 2;
			MPI_Isend(&sbuf[k][i], 1, MPI_INT, to[k],
				  i % 2 ? TAG_WB : TAG_WA, MPI_COMM_WORLD,
				  &sq[k][i]);
		}
	for (int pass = 0; pass < 2; pass++) {
		int tag = pass == 0 ? TAG_WB : TAG_WA;
		int next[2] = { 0, 0 };         /* next seq per source */
		for (int i = 0; i < 2 * nd; i++) {
			int v = -1;
			MPI_Status st;
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag,
				 MPI_COMM_WORLD, &st);
			EMU_EQ(t, st.MPI_TAG, tag, "anysource: status tag");
			int k = st.MPI_SOURCE == from[0] ? 0 : 1;
			if (!EMU_TRUE(t, has(from, nd, st.MPI_SOURCE),
				      "anysource: status source %d is not a "
				      "sender", st.MPI_SOURCE))
				continue;
			EMU_EQ(t, v / 1000, st.MPI_SOURCE,
			       "anysource: payload's sender vs status source");
			EMU_EQ(t, v % 1000, next[k],
			       "anysource: tag %d, seq from %d", tag,
			       st.MPI_SOURCE);
			next[k]++;
		}
		for (int k = 0; k < nd; k++)
			EMU_EQ(t, next[k], 2, "anysource: tag %d, messages "
			       "from %d", tag, from[k]);
	}
	for (int k = 0; k < nd; k++)
		MPI_Waitall(4, sq[k], MPI_STATUSES_IGNORE);
}

static void anytag(emu_test *t)
{
	int to = emu_right(t, 1), from = emu_left(t, 1);
	int sbuf[NB][3 * NB + 2];
	MPI_Request sq[NB];
	for (int j = 0; j < NB; j++) {
		emu_fill_seq(sbuf[j], 3 * NB + 2, t->rank * 100 + j);
		MPI_Isend(sbuf[j], 2 + 3 * j, MPI_INT, to, anytag_tags[j],
			  MPI_COMM_WORLD, &sq[j]);
	}
	for (int j = 0; j < NB; j++) {
		int rbuf[3 * NB + 2], n;
		MPI_Status st;
		MPI_Recv(rbuf, 3 * NB + 2, MPI_INT, from, MPI_ANY_TAG,
			 MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_INT, &n);
		EMU_EQ(t, st.MPI_SOURCE, from, "anytag: status source");
		EMU_EQ(t, st.MPI_TAG, anytag_tags[j], "anytag: message %d tag",
		       j);
		if (EMU_EQ(t, n, 2 + 3 * j, "anytag: message %d count", j))
			EMU_SEQ(t, rbuf, n, from * 100 + j,
				"anytag: message %d", j);
	}
	MPI_Waitall(NB, sq, MPI_STATUSES_IGNORE);
}

static void anyany(emu_test *t)
{
	int x[4] = { 0, t->size / 2, t->size - 1, 1 }, nx = 0;
	for (int i = 0; i < 4; i++)
		if (!has(x, nx, x[i]))
			x[nx++] = x[i];
	int *sbuf = emu_alloc(t, (size_t)nx * NC * 32, sizeof *sbuf);
	MPI_Request *sq = emu_alloc(t, (size_t)nx * NC, sizeof *sq);
	int *next = emu_alloc(t, (size_t)t->size, sizeof *next);
	int *rbuf = emu_alloc(t, EMU_VLEN + 32, sizeof *rbuf);
	int nsq = 0;
	for (int round = 0; round < nx; round++) {
		if (t->rank != x[round]) {
			for (int j = 0; j < NC; j++) {
				int *b = sbuf + (size_t)nsq * 32;
				for (int i = 0; i < c_len(t->rank, j); i++)
					b[i] = i < 3 ? 0 : t->rank + i;
				b[0] = t->rank, b[1] = j, b[2] = round;
				MPI_Isend(b, c_len(t->rank, j), MPI_INT,
					  x[round], c_tag(t->rank, j),
					  MPI_COMM_WORLD, &sq[nsq++]);
			}
			continue;
		}
		int got = 0;
		while (got < NC * (t->size - 1)) {
			MPI_Status st;
			int n;
			MPI_Recv(rbuf, EMU_VLEN + 32, MPI_INT, MPI_ANY_SOURCE,
				 MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (emu_stash(t, &st, rbuf))
				continue;
			got++;
			int s = st.MPI_SOURCE;
			if (!EMU_TRUE(t, s >= 0 && s < t->size && s != t->rank,
				      "anyany: status source %d", s))
				continue;
			MPI_Get_count(&st, MPI_INT, &n);
			int j = next[s]++;
			EMU_EQ(t, rbuf[0], s, "anyany: payload's sender vs "
			       "status source");
			EMU_EQ(t, rbuf[1], j, "anyany: seq from %d", s);
			EMU_EQ(t, rbuf[2], round, "anyany: round, from %d", s);
			EMU_EQ(t, st.MPI_TAG, c_tag(s, j),
			       "anyany: tag of message %d from %d", j, s);
			EMU_EQ(t, n, c_len(s, j),
			       "anyany: count of message %d from %d", j, s);
		}
		for (int s = 0; s < t->size; s++)
			if (s != t->rank)
				EMU_EQ(t, next[s], NC, "anyany: messages "
				       "received from %d", s);
	}
	MPI_Waitall(nsq, sq, MPI_STATUSES_IGNORE);
	free(sbuf);
	free(sq);
	free(next);
	free(rbuf);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_wildcard", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	anysource(&t);
	anytag(&t);
	anyany(&t);
	return emu_finish(&t);
}
