/*
 * p2p_greq.c -- generalized requests (MPI_Grequest_start, _complete).
 *
 * Each rank starts generalized requests whose callbacks count their calls
 * in a state of main's locals, and checks what MPI-3.1 (12.2) says:
 * until MPI_Grequest_complete, MPI_Test and MPI_Request_get_status say
 * not complete and MPI_Waitany hands over another request (a receive
 * from the left neighbour); after it, a wait or test calls query_fn (the
 * status it fills is what the program gets) and then free_fn, once;
 * MPI_Request_get_status calls query_fn but frees nothing; MPI_Cancel
 * calls cancel_fn with whether the request is complete; a request
 * MPI_Request_free'd before it completes calls free_fn at
 * MPI_Grequest_complete, and query_fn never.
 *
 * Ranks: any number >= 2.
 */
#include "emutest.h"

typedef struct state {
	int id, queried, freed, cancelled, cancel_complete;
} state;

static int query(void *extra, MPI_Status *st)
{
	state *s = extra;
	s->queried++;
	st->MPI_SOURCE = 100 + s->id;
	st->MPI_TAG = 200 + s->id;
	st->MPI_ERROR = MPI_SUCCESS;
	MPI_Status_set_elements(st, MPI_INT, 3);
	MPI_Status_set_cancelled(st, 0);
	return MPI_SUCCESS;
}

static int release(void *extra)
{
	((state *)extra)->freed++;
	return MPI_SUCCESS;
}

static int cancel(void *extra, int complete)
{
	state *s = extra;
	s->cancelled++;
	s->cancel_complete = complete;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	emu_test tt, *const t = &tt;
	state s[3] = { { .id = 0 }, { .id = 1 }, { .id = 2 } };
	MPI_Request g[3], rq[2];
	MPI_Status st;
	int flag = -1, idx = -1, n = -1, in = -1;

	emu_init(t, "p2p_greq", &argc, &argv);
	if (t->size < 2)
		return emu_need_ranks(t, 2);
	for (int i = 0; i < 3; i++)
		MPI_Grequest_start(query, release, cancel, &s[i], &g[i]);

	/* Not complete: a test and a status say so; a Waitany takes the
	 * receive instead. */
	MPI_Test(&g[0], &flag, &st);
	EMU_EQ(t, flag, 0, "MPI_Test of an incomplete generalized request");
	MPI_Request_get_status(g[0], &flag, &st);
	EMU_EQ(t, flag, 0, "MPI_Request_get_status before completion");
	EMU_EQ(t, s[0].queried, 0, "query_fn before completion");
	rq[0] = g[0];
	MPI_Irecv(&in, 1, MPI_INT, emu_left(t, 1), 4, MPI_COMM_WORLD, &rq[1]);
	MPI_Send(&t->rank, 1, MPI_INT, emu_right(t, 1), 4, MPI_COMM_WORLD);
	MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
	EMU_EQ(t, idx, 1, "MPI_Waitany picks the receive");
	EMU_EQ(t, in, emu_left(t, 1), "the received value");

	/* Completed, then waited: query_fn's status, then free_fn. */
	MPI_Grequest_complete(g[0]);
	EMU_EQ(t, s[0].queried + s[0].freed, 0, "callbacks at completion");
	MPI_Wait(&g[0], &st);
	EMU_TRUE(t, g[0] == MPI_REQUEST_NULL, "the handle after MPI_Wait");
	EMU_EQ(t, s[0].queried, 1, "query_fn calls after MPI_Wait");
	EMU_EQ(t, s[0].freed, 1, "free_fn calls after MPI_Wait");
	EMU_EQ(t, st.MPI_SOURCE, 100, "MPI_SOURCE from query_fn");
	EMU_EQ(t, st.MPI_TAG, 200, "MPI_TAG from query_fn");
	MPI_Get_count(&st, MPI_INT, &n);
	EMU_EQ(t, n, 3, "the count query_fn set");

	/* Cancelled while incomplete; completed; the status queried
	 * without freeing; then tested. */
	MPI_Cancel(&g[1]);
	EMU_EQ(t, s[1].cancelled, 1, "cancel_fn calls");
	EMU_EQ(t, s[1].cancel_complete, 0, "cancel_fn's complete flag");
	MPI_Grequest_complete(g[1]);
	MPI_Request_get_status(g[1], &flag, &st);
	EMU_EQ(t, flag, 1, "MPI_Request_get_status after completion");
	EMU_EQ(t, s[1].queried, 1, "query_fn by MPI_Request_get_status");
	EMU_EQ(t, s[1].freed, 0, "MPI_Request_get_status frees nothing");
	EMU_EQ(t, st.MPI_TAG, 201, "its status");
	MPI_Test(&g[1], &flag, MPI_STATUS_IGNORE);
	EMU_EQ(t, flag, 1, "MPI_Test after completion");
	EMU_EQ(t, s[1].queried, 2, "query_fn by MPI_Test");
	EMU_EQ(t, s[1].freed, 1, "free_fn by MPI_Test");

	/* Freed before completion: free_fn at completion, no query. */
	MPI_Request h = g[2];
	MPI_Request_free(&g[2]);
	EMU_EQ(t, s[2].freed, 0, "free_fn before completion");
	MPI_Grequest_complete(h);
	EMU_EQ(t, s[2].freed, 1, "free_fn at completion of a freed one");
	EMU_EQ(t, s[2].queried, 0, "query_fn of a freed one");
	return emu_finish(t);
}
