/*
 * routines.c -- one call each of 36 MPI routines across the standard,
 * under MPI_ERRORS_RETURN: each works (and its result is checked) or
 * returns MPI_ERR_UNSUPPORTED_OPERATION.  Rank 0 prints one line per
 * routine, "NAME ok", "NAME unsupported" or "NAME error CLASS", and the
 * results of the checks ("check NAME: ..."); tests/emu_routines.sh
 * compares them with what Sibyl documents.  With an argument, rank 0
 * calls MPI_File_open under MPI_ERRORS_ARE_FATAL, which must stop the
 * run naming it; with "usercode", rank 1 raises an error code of its own
 * (class, code and string added) under MPI_ERRORS_ARE_FATAL.
 *
 * Ranks: any number >= 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static int report(const char *name, int rc)
{
	int cls = rc;
	MPI_Error_class(rc, &cls);
	if (rank == 0) {
		if (rc == MPI_SUCCESS)
			printf("%s ok\n", name);
		else if (cls == MPI_ERR_UNSUPPORTED_OPERATION)
			printf("%s unsupported\n", name);
		else
			printf("%s error %d\n", name, cls);
	}
	return rc;
}

static void check(const char *name, int ok)
{
	if (rank == 0)
		printf("check %s: %s\n", name, ok ? "right" : "WRONG");
}

int main(int argc, char **argv)
{
	int right, left, out, in = -1, flag = 0, n = 0;
	MPI_Request rq[2], b;
	MPI_Status st;
	MPI_Comm c = MPI_COMM_NULL;
	MPI_Errhandler eh;
	static char room[4096];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && !strcmp(argv[1], "usercode")) {
		int cls, code;
		MPI_Add_error_class(&cls);
		MPI_Add_error_code(cls, &code);
		MPI_Add_error_string(code, "disk on fire");
		if (rank == 1)
			MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
		MPI_Finalize();
		return 0;
	}
	if (argc > 1) {
		if (rank == 0) {
			MPI_File f;
			MPI_File_open(MPI_COMM_WORLD, "x", MPI_MODE_RDONLY,
				      MPI_INFO_NULL, &f);
			printf("MPI_File_open returned\n");
			return 1;
		}
		MPI_Finalize();
		return 0;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	out = rank;

	/* Point to point: persistent, buffered. */
	report("MPI_Recv_init", MPI_Recv_init(&in, 1, MPI_INT, left, 1,
					      MPI_COMM_WORLD, &rq[0]));
	report("MPI_Send_init", MPI_Send_init(&out, 1, MPI_INT, right, 1,
					      MPI_COMM_WORLD, &rq[1]));
	report("MPI_Startall", MPI_Startall(2, rq));
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
	check("MPI_Startall", in == left);
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[1]);
	report("MPI_Buffer_attach", MPI_Buffer_attach(room, sizeof room));
	report("MPI_Bsend", MPI_Bsend(&out, 1, MPI_INT, right, 2,
				      MPI_COMM_WORLD));
	MPI_Recv(&in, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	check("MPI_Bsend", in == left);
	void *got;
	report("MPI_Buffer_detach", MPI_Buffer_detach(&got, &n));
	check("MPI_Buffer_detach", got == (void *)room && n == sizeof room);

	/* Non-blocking collective, polled without completing it. */
	report("MPI_Ibarrier", MPI_Ibarrier(MPI_COMM_WORLD, &b));
	report("MPI_Request_get_status",
	       MPI_Request_get_status(b, &flag, MPI_STATUS_IGNORE));
	while (!flag)
		MPI_Request_get_status(b, &flag, MPI_STATUS_IGNORE);
	check("MPI_Request_get_status", b != MPI_REQUEST_NULL);
	MPI_Wait(&b, MPI_STATUS_IGNORE);

	/* Environment, handles, statuses, error handlers. */
	report("MPI_Pcontrol", MPI_Pcontrol(1));
	check("MPI_Comm_f2c", MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) ==
	      MPI_COMM_WORLD);
	report("MPI_Status_set_elements", MPI_Status_set_elements(&st,
							MPI_DOUBLE, 3));
	MPI_Get_elements(&st, MPI_DOUBLE, &n);
	check("MPI_Status_set_elements", n == 3);
	report("MPI_Comm_get_parent", MPI_Comm_get_parent(&c));
	check("MPI_Comm_get_parent", c == MPI_COMM_NULL);
	report("MPI_Errhandler_get", MPI_Errhandler_get(MPI_COMM_WORLD, &eh));
	check("MPI_Errhandler_get", eh == MPI_ERRORS_RETURN);

	/* A distributed graph: the ring, and a neighbourhood collective. */
	MPI_Comm ring = MPI_COMM_NULL;
	report("MPI_Dist_graph_create_adjacent",
	       MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left,
					      MPI_UNWEIGHTED, 1, &right,
					      MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
					      &ring));
	in = -1;
	report("MPI_Neighbor_alltoall", MPI_Neighbor_alltoall(&out, 1, MPI_INT,
							      &in, 1, MPI_INT,
							      ring));
	check("MPI_Neighbor_alltoall", in == left);
	if (ring != MPI_COMM_NULL)
		MPI_Comm_free(&ring);

	/* Matched probes, with nothing to match; then what Sibyl does not
	 * emulate (subarray and darray types, their envelope and info
	 * objects it does). */
	int sizes[2] = { 4, 4 }, sub[2] = { 2, 2 }, start[2] = { 0, 0 };
	MPI_Datatype t;
	MPI_Info info;
	MPI_File f;
	MPI_Message msg;
	MPI_Win w;
	MPI_Aint packed;
	int prov, errs[1];
	int ni = -1, na = -1, nd = -1, comb = -1;
	report("MPI_Type_create_subarray",
	       MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C,
					MPI_INT, &t));
	report("MPI_Type_get_envelope",
	       MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
	check("MPI_Type_get_envelope", comb == MPI_COMBINER_SUBARRAY &&
	      ni == 8 && na == 0 && nd == 1);
	MPI_Type_free(&t);
	MPI_Aint lb = -1, ext = -1;
	report("MPI_Type_create_darray",
	       MPI_Type_create_darray(size, rank, 1, (int[]){ 2 * size },
				      (int[]){ MPI_DISTRIBUTE_BLOCK },
				      (int[]){ MPI_DISTRIBUTE_DFLT_DARG },
				      (int[]){ size }, MPI_ORDER_C, MPI_INT,
				      &t));
	MPI_Type_get_true_extent(t, &lb, &ext);
	check("MPI_Type_create_darray", lb == 2 * rank * (MPI_Aint)sizeof(int)
	      && ext == 2 * (MPI_Aint)sizeof(int));
	MPI_Type_free(&t);
	report("MPI_Info_create", MPI_Info_create(&info));
	report("MPI_File_open", MPI_File_open(MPI_COMM_WORLD, "x",
					      MPI_MODE_RDONLY, MPI_INFO_NULL,
					      &f));
	report("MPI_Comm_spawn", MPI_Comm_spawn("x", MPI_ARGV_NULL, 1,
						MPI_INFO_NULL, 0,
						MPI_COMM_SELF, &c, errs));
	flag = -1;
	report("MPI_Improbe", MPI_Improbe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
					  &flag, &msg, &st));
	check("MPI_Improbe", flag == 0);
	report("MPI_Win_create", MPI_Win_create(room, 64, 1, MPI_INFO_NULL,
						MPI_COMM_WORLD, &w));
	report("MPI_Win_lock", MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w));
	report("MPI_Win_unlock", MPI_Win_unlock(0, w));
	report("MPI_Win_free", MPI_Win_free(&w));
	check("MPI_Win_free", w == MPI_WIN_NULL);
	report("MPI_T_init_thread", MPI_T_init_thread(MPI_THREAD_SINGLE,
						      &prov));
	report("MPI_Comm_idup", MPI_Comm_idup(MPI_COMM_WORLD, &c, &b));
	/* Error classes and codes of the program's own, per rank. */
	int code = -1, cls = -1, *last = NULL, len = 0;
	char text[MPI_MAX_ERROR_STRING];
	report("MPI_Add_error_class", MPI_Add_error_class(&n));
	report("MPI_Add_error_code", MPI_Add_error_code(n, &code));
	report("MPI_Add_error_string", MPI_Add_error_string(code,
							    "disk on fire"));
	MPI_Error_class(code, &cls);
	MPI_Error_string(code, text, &len);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
	check("MPI_Add_error_code", n > MPI_ERR_LASTCODE && code > n &&
	      cls == n && flag && *last == code && len == 12 &&
	      !strcmp(text, "disk on fire"));
	check("MPI_Add_error_string", MPI_Add_error_string(MPI_ERR_ARG, "x")
	      == MPI_ERR_ARG && MPI_Add_error_code(code + 5, &cls) ==
	      MPI_ERR_ARG);

	/* A communicator over the even ranks, made by them alone. */
	MPI_Group wg, eg;
	MPI_Comm ec = MPI_COMM_NULL;
	int er = -1, es = 0;
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_range_incl(wg, 1, (int[][3]){ { 0, size - 1, 2 } }, &eg);
	if (rank % 2 == 0) {
		report("MPI_Comm_create_group",
		       MPI_Comm_create_group(MPI_COMM_WORLD, eg, 9, &ec));
		MPI_Comm_rank(ec, &er);
		MPI_Comm_size(ec, &es);
		int sum = 0;
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ec);
		check("MPI_Comm_create_group", er == rank / 2 &&
		      es == (size + 1) / 2 && sum == es * (es - 1));
		MPI_Comm_free(&ec);
	}
	MPI_Group_free(&eg);
	MPI_Group_free(&wg);

	/* A status through its Fortran form. */
	MPI_Fint fst[6];
	MPI_Status back;
	st.MPI_SOURCE = 3;
	st.MPI_TAG = 4;
	report("MPI_Status_c2f", MPI_Status_c2f(&st, fst));
	report("MPI_Status_f2c", MPI_Status_f2c(fst, &back));
	MPI_Get_elements(&back, MPI_DOUBLE, &n);
	check("MPI_Status_f2c", back.MPI_SOURCE == 3 && back.MPI_TAG == 4 &&
	      n == 3 && MPI_Status_c2f(MPI_STATUS_IGNORE, fst) ==
	      MPI_ERR_ARG);
	report("MPI_Pack_external_size",
	       MPI_Pack_external_size("external32", 1, MPI_INT, &packed));
	check("MPI_Pack_external_size", packed == 4);
	/* An intercommunicator between the even and the odd ranks:
	 * point-to-point across works, a collective over it does not. */
	MPI_Comm half, ic;
	int peer = -1, rs = 0, lr = -1;
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Comm_rank(half, &lr);
	report("MPI_Intercomm_create",
	       MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1,
				    7, &ic));
	MPI_Comm_remote_size(ic, &rs);
	if (lr == 0)
		MPI_Sendrecv(&rank, 1, MPI_INT, 0, 1, &peer, 1, MPI_INT, 0, 1,
			     ic, MPI_STATUS_IGNORE);
	check("MPI_Intercomm_create", rs == size / 2 + (rank % 2 ? size % 2 : 0)
	      && (lr != 0 || peer == (rank % 2 ? 0 : 1)));
	MPI_Error_class(MPI_Barrier(ic), &n);
	check("MPI_Barrier on an intercommunicator",
	      n == MPI_ERR_UNSUPPORTED_OPERATION);
	MPI_Comm_free(&ic);
	MPI_Comm_free(&half);
	report("MPI_Graph_create", MPI_Graph_create(MPI_COMM_WORLD, 1,
						    (int[]){ 0 }, (int[]){ 0 },
						    0, &c));
	MPI_Finalize();
	return 0;
}
