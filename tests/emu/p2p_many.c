/*
 * p2p_many.c -- all-to-all stress with wildcard receives.
 *
 *   posted   every rank posts size-1 Irecvs with MPI_ANY_SOURCE on one
 *            tag, then Isends one message to every other rank (0 to 600
 *            ints, depending on the pair): each Irecv gets one message,
 *            from a distinct source, with the count and contents that
 *            source sent to this rank.
 *   anyany   every rank Isends one message to every other rank with tag =
 *            sender rank (0 ints up to ~28,800 ints = 115 KB, depending on
 *            the pair), then receives size-1 messages with MPI_ANY_SOURCE
 *            and MPI_ANY_TAG: status tag = status source, count and
 *            contents as sent, every source exactly once.
 * "posted" is over on a rank before it sends anything of "anyany", and
 * its tag is not a rank, so the wild receives see only anyany messages
 * (and on rank 0 early verdicts, kept aside by emu_stash).
 *
 * Ranks: any number >= 2 (up to 31,999).
 * Prints "PASS p2p_many" on rank 0.
 */
#include "emutest.h"

#define TAG_POSTED 32100
#define MAX1 (96 * 300)
#define MAX2 600

/* ints from s to d in anyany and in posted */
static int n1(int s, int d)
{
	int n = (int)(((unsigned)s * 31u + (unsigned)d * 17u) % 97u);
	return (s + d) % 7 == 0 ? n * 300 : n;
}

static int n2(int s, int d)
{
	return (int)(((unsigned)s * 13u + (unsigned)d * 29u) % (MAX2 + 1u));
}

static int val(int s, int d, int i, int round)
{
	unsigned h = (unsigned)s * 2654435761u ^ (unsigned)d * 40503u ^
		     (unsigned)i * 2246822519u ^ (unsigned)round;
	return (int)(h & 0x7fffffff);
}

/* Check a received message; returns 0 if its source is bad. */
static int check_msg(emu_test *t, const char *part, const MPI_Status *st,
		     const int *buf, char *seen, int round)
{
	int s = st->MPI_SOURCE, n = -1;
	if (!EMU_TRUE(t, s >= 0 && s < t->size && s != t->rank,
		      "%s: status source %d", part, s))
		return 0;
	EMU_EQ(t, seen[s], 0, "%s: messages from %d before this one", part,
	       s);
	seen[s]++;
	int want = round == 1 ? n1(s, t->rank) : n2(s, t->rank);
	MPI_Get_count(st, MPI_INT, &n);
	if (!EMU_EQ(t, n, want, "%s: count of the message from %d", part, s))
		return 1;
	for (int i = 0; i < n; i++)
		if (!EMU_EQ(t, buf[i], val(s, t->rank, i, round),
			    "%s: int %d from %d", part, i, s))
			break;
	return 1;
}

static void posted(emu_test *t)
{
	int p = t->size - 1;
	int *rb = emu_alloc(t, (size_t)p * MAX2, sizeof *rb);
	int *sb = emu_alloc(t, (size_t)p * MAX2, sizeof *sb);
	MPI_Request *rq = emu_alloc(t, 2 * (size_t)p, sizeof *rq);
	MPI_Status *st = emu_alloc(t, (size_t)p, sizeof *st);
	char *seen = emu_alloc(t, (size_t)t->size, 1);
	for (int j = 0; j < p; j++)
		MPI_Irecv(rb + (size_t)j * MAX2, MAX2, MPI_INT, MPI_ANY_SOURCE,
			  TAG_POSTED, MPI_COMM_WORLD, &rq[j]);
	for (int j = 0; j < p; j++) {
		int d = (t->rank + 1 + j) % t->size;
		int *b = sb + (size_t)j * MAX2;
		for (int i = 0; i < n2(t->rank, d); i++)
			b[i] = val(t->rank, d, i, 2);
		MPI_Isend(b, n2(t->rank, d), MPI_INT, d, TAG_POSTED,
			  MPI_COMM_WORLD, &rq[p + j]);
	}
	MPI_Waitall(p, rq, st);
	for (int j = 0; j < p; j++)
		check_msg(t, "posted", &st[j], rb + (size_t)j * MAX2, seen, 2);
	MPI_Waitall(p, rq + p, MPI_STATUSES_IGNORE);
	free(rb);
	free(sb);
	free(rq);
	free(st);
	free(seen);
}

static void anyany(emu_test *t)
{
	int p = t->size - 1;
	size_t total = 0;
	for (int d = 0; d < t->size; d++)
		if (d != t->rank)
			total += (size_t)n1(t->rank, d);
	int *sb = emu_alloc(t, total, sizeof *sb);
	int *rb = emu_alloc(t, MAX1 > EMU_VLEN ? MAX1 : EMU_VLEN, sizeof *rb);
	MPI_Request *sq = emu_alloc(t, (size_t)p, sizeof *sq);
	char *seen = emu_alloc(t, (size_t)t->size, 1);
	size_t off = 0;
	for (int j = 0; j < p; j++) {
		int d = (t->rank + 1 + j) % t->size, n = n1(t->rank, d);
		for (int i = 0; i < n; i++)
			sb[off + (size_t)i] = val(t->rank, d, i, 1);
		MPI_Isend(sb + off, n, MPI_INT, d, t->rank, MPI_COMM_WORLD,
			  &sq[j]);
		off += (size_t)n;
	}
	for (int got = 0; got < p;) {
		MPI_Status st;
		MPI_Recv(rb, MAX1 > EMU_VLEN ? MAX1 : EMU_VLEN, MPI_INT,
			 MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (emu_stash(t, &st, rb))
			continue;
		got++;
		if (check_msg(t, "anyany", &st, rb, seen, 1))
			EMU_EQ(t, st.MPI_TAG, st.MPI_SOURCE,
			       "anyany: tag of the message from %d",
			       st.MPI_SOURCE);
	}
	for (int s = 0; s < t->size; s++)
		if (s != t->rank)
			EMU_EQ(t, seen[s], 1, "anyany: messages from %d", s);
	MPI_Waitall(p, sq, MPI_STATUSES_IGNORE);
	free(sb);
	free(rb);
	free(sq);
	free(seen);
}

int main(int argc, char **argv)
{
	emu_test t;
	emu_init(&t, "p2p_many", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	posted(&t);
	anyany(&t);
	return emu_finish(&t);
}
