/*
 * p2p_status.c -- statuses and the environment queries.
 *
 *   count     messages of 12, 10, 3 and 0 ints from rank-size/2, received
 *             into a larger buffer: Get_count in MPI_INT, MPI_DOUBLE,
 *             MPI_CHAR, MPI_BYTE (MPI_UNDEFINED when the byte count is
 *             not a multiple of the type's size), Get_elements the same;
 *             the receive writes only the received part of the buffer;
 *             Type_size of a few basic types.
 *   ignore    MPI_STATUS_IGNORE in Recv, Wait, Test, Sendrecv, Probe and
 *             MPI_STATUSES_IGNORE in Waitall, Testall, Waitsome,
 *             Testsome: the data still arrives.
 *   errors    Error_string of MPI_SUCCESS and a few error classes is
 *             non-empty and resultlen is its length; Error_class of a
 *             class is itself.
 *   env       Wtime never goes back (across messages too), Wtick > 0;
 *             Get_processor_name non-empty; Get_version >= 3.0;
 *             Get_library_version non-empty; Initialized is false before
 *             MPI_Init and true after; Finalized is false before
 *             MPI_Finalize and true after (checked after it, with
 *             Initialized still true); Query_thread gives what
 *             MPI_Init provides, no more than MPI_THREAD_MULTIPLE.
 *
 * Ranks: any number >= 2.  Prints "PASS p2p_status" on rank 0.
 */
#include "emutest.h"

enum { TAG_COUNT = 1, TAG_IGN };

static const int lens[4] = { 12, 10, 3, 0 };

static void count(emu_test *t)
{
	int to = emu_right(t, t->size / 2), from = emu_left(t, t->size / 2);
	int s[4][12];
	MPI_Request sq[4];
	for (int j = 0; j < 4; j++) {
		emu_fill_seq(s[j], 12, t->rank * 100 + j * 20);
		MPI_Isend(s[j], lens[j], MPI_INT, to, TAG_COUNT,
			  MPI_COMM_WORLD, &sq[j]);
	}
	for (int j = 0; j < 4; j++) {
		int r[20], n;
		MPI_Status st;
		for (int i = 0; i < 20; i++)
			r[i] = -7;
		MPI_Recv(r, 20, MPI_INT, from, TAG_COUNT, MPI_COMM_WORLD, &st);
		int nb = lens[j] * (int)sizeof(int);
		MPI_Get_count(&st, MPI_INT, &n);
		EMU_EQ(t, n, lens[j], "count #%d: MPI_INT", j);
		MPI_Get_count(&st, MPI_DOUBLE, &n);
		EMU_EQ(t, n, nb % sizeof(double) ? MPI_UNDEFINED
			     : nb / (int)sizeof(double),
		       "count #%d (%d bytes): MPI_DOUBLE", j, nb);
		MPI_Get_count(&st, MPI_CHAR, &n);
		EMU_EQ(t, n, nb, "count #%d: MPI_CHAR", j);
		MPI_Get_count(&st, MPI_BYTE, &n);
		EMU_EQ(t, n, nb, "count #%d: MPI_BYTE", j);
		MPI_Get_elements(&st, MPI_INT, &n);
		EMU_EQ(t, n, lens[j], "count #%d: Get_elements MPI_INT", j);
		for (int i = 0; i < 20; i++)
			EMU_EQ(t, r[i], i < lens[j] ? from * 100 + j * 20 + i
						    : -7,
			       "count #%d: int %d of the buffer", j, i);
	}
	MPI_Waitall(4, sq, MPI_STATUSES_IGNORE);

	int sz = -1;
	MPI_Type_size(MPI_INT, &sz);
	EMU_EQ(t, sz, sizeof(int), "Type_size(MPI_INT)");
	MPI_Type_size(MPI_DOUBLE, &sz);
	EMU_EQ(t, sz, sizeof(double), "Type_size(MPI_DOUBLE)");
	MPI_Type_size(MPI_CHAR, &sz);
	EMU_EQ(t, sz, 1, "Type_size(MPI_CHAR)");
	MPI_Type_size(MPI_LONG_LONG, &sz);
	EMU_EQ(t, sz, sizeof(long long), "Type_size(MPI_LONG_LONG)");
	MPI_Type_size(MPI_BYTE, &sz);
	EMU_EQ(t, sz, 1, "Type_size(MPI_BYTE)");
}

static void ignore(emu_test *t)
{
	int to = emu_right(t, 1), from = emu_left(t, 1);
	int s[8], r[8], flag = 0, out = 0, ind[2];
	MPI_Request sq[8], rq[2];
	for (int i = 0; i < 8; i++) {
		s[i] = t->rank * 10 + i;
		r[i] = -1;
		MPI_Isend(&s[i], 1, MPI_INT, to, TAG_IGN, MPI_COMM_WORLD,
			  &sq[i]);
	}
	MPI_Recv(&r[0], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Probe(from, TAG_IGN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Irecv(&r[1], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Irecv(&r[2], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	while (!flag)
		MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
	MPI_Irecv(&r[3], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	MPI_Irecv(&r[4], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	MPI_Irecv(&r[5], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	flag = 0;
	while (!flag)
		MPI_Testall(1, rq, &flag, MPI_STATUSES_IGNORE);
	MPI_Irecv(&r[6], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	MPI_Waitsome(1, rq, &out, ind, MPI_STATUSES_IGNORE);
	EMU_EQ(t, out, 1, "ignore: Waitsome outcount");
	MPI_Irecv(&r[7], 1, MPI_INT, from, TAG_IGN, MPI_COMM_WORLD, &rq[0]);
	out = 0;
	while (out == 0)
		MPI_Testsome(1, rq, &out, ind, MPI_STATUSES_IGNORE);
	EMU_EQ(t, out, 1, "ignore: Testsome outcount");
	for (int i = 0; i < 8; i++)
		EMU_EQ(t, r[i], from * 10 + i, "ignore: message %d", i);
	MPI_Waitall(8, sq, MPI_STATUSES_IGNORE);
	int a = t->rank, b = -1;
	MPI_Sendrecv(&a, 1, MPI_INT, to, TAG_IGN, &b, 1, MPI_INT, from,
		     TAG_IGN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, b, from, "ignore: Sendrecv");
}

/* strlen within s[0..max-1], max if there is no NUL (C99 has no
 * bounded strlen) */
static long bounded_len(const char *s, long max)
{
	long n = 0;
	while (n < max && s[n] != '\0')
		n++;
	return n;
}

static void errors(emu_test *t)
{
	static const int codes[] = { MPI_SUCCESS, MPI_ERR_BUFFER,
		MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TAG, MPI_ERR_COMM,
		MPI_ERR_RANK, MPI_ERR_REQUEST, MPI_ERR_TRUNCATE, MPI_ERR_OTHER,
		MPI_ERR_INTERN, MPI_ERR_ARG };
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		char s[MPI_MAX_ERROR_STRING];
		int len = -1, cls = -1;
		memset(s, 'x', sizeof s);
		MPI_Error_string(codes[i], s, &len);
		EMU_TRUE(t, len > 0 && len < MPI_MAX_ERROR_STRING,
			 "Error_string(%d): resultlen %d", codes[i], len);
		if (len > 0 && len < MPI_MAX_ERROR_STRING)
			EMU_EQ(t, bounded_len(s, (long)sizeof s), len,
			       "Error_string(%d): strlen vs resultlen",
			       codes[i]);
		MPI_Error_class(codes[i], &cls);
		EMU_EQ(t, cls, codes[i], "Error_class(%d)", codes[i]);
	}
}

static void env(emu_test *t)
{
	double t0 = MPI_Wtime(), prev = t0;
	for (int i = 0; i < 1000; i++) {
		double now = MPI_Wtime();
		if (!EMU_TRUE(t, now >= prev, "Wtime went back: %.9f after "
			      "%.9f", now, prev))
			break;
		prev = now;
	}
	/* across messages */
	int to = emu_right(t, t->size / 2), from = emu_left(t, t->size / 2);
	for (int i = 0; i < 3; i++) {
		int a = i, b = -1;
		MPI_Sendrecv(&a, 1, MPI_INT, to, 50, &b, 1, MPI_INT, from, 50,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		double now = MPI_Wtime();
		EMU_TRUE(t, now >= prev, "Wtime went back across a message: "
			 "%.9f after %.9f", now, prev);
		prev = now;
	}
	EMU_TRUE(t, MPI_Wtick() > 0, "Wtick %g", MPI_Wtick());

	char name[MPI_MAX_PROCESSOR_NAME];
	int len = -1;
	memset(name, 'x', sizeof name);
	MPI_Get_processor_name(name, &len);
	if (EMU_TRUE(t, len > 0 && len < MPI_MAX_PROCESSOR_NAME,
		     "Get_processor_name: resultlen %d", len))
		EMU_EQ(t, bounded_len(name, (long)sizeof name), len,
		       "Get_processor_name: strlen vs resultlen");

	int v = -1, sv = -1;
	MPI_Get_version(&v, &sv);
	EMU_TRUE(t, v >= 3 && sv >= 0, "Get_version %d.%d", v, sv);
	/* Sibyl's mpi.h has no MPI_MAX_LIBRARY_VERSION_STRING yet */
	char *lib = emu_alloc(t, 8192, 1);
	len = -1;
	MPI_Get_library_version(lib, &len);
	EMU_TRUE(t, len > 0, "Get_library_version: resultlen %d", len);
	free(lib);

	int flag = -1;
	MPI_Initialized(&flag);
	EMU_EQ(t, flag, 1, "Initialized after MPI_Init");
	flag = -1;
	MPI_Finalized(&flag);
	EMU_EQ(t, flag, 0, "Finalized before MPI_Finalize");
	int prov = -1;
	MPI_Query_thread(&prov);
	EMU_TRUE(t, prov >= MPI_THREAD_SINGLE && prov <= MPI_THREAD_MULTIPLE,
		 "Query_thread: %d", prov);
	flag = -1;
	MPI_Is_thread_main(&flag);
	EMU_EQ(t, flag, 1, "Is_thread_main");
}

static void after_finalize(emu_test *t)
{
	int flag = -1;
	MPI_Finalized(&flag);
	EMU_EQ(t, flag, 1, "Finalized after MPI_Finalize");
	flag = -1;
	MPI_Initialized(&flag);
	EMU_EQ(t, flag, 1, "Initialized after MPI_Finalize");
}

int main(int argc, char **argv)
{
	int before = -1;
	MPI_Initialized(&before);
	emu_test t;
	emu_init(&t, "p2p_status", &argc, &argv);
	if (!emu_need_ranks(&t, 2))
		return EMU_SKIP;
	EMU_EQ(&t, before, 0, "Initialized before MPI_Init");
	t.after_finalize = after_finalize;
	count(&t);
	ignore(&t);
	errors(&t);
	env(&t);
	return emu_finish(&t);
}
