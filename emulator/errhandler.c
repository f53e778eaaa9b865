/*
 * errhandler.c -- error handlers of communicators (MPI_Comm_create_
 * errhandler, MPI_Comm_set_errhandler and the rest, emu_comm.h): the
 * predefined MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN, and the user's
 * handlers, shared by the ranks of a process.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "emu_private.h"

typedef struct errh {
	MPI_Comm_errhandler_function *fn;
	uint32_t refs;             /* 0: a free slot */
} errh;

/* User handlers are shared by the process (emu.errh): creating one for a
 * function that already has a handler gives that handler (one more
 * reference). */
#define ERRH_FIRST (MPI_ERRORS_RETURN + 1)

static errh *errh_user(MPI_Errhandler e)
{
	if (e < ERRH_FIRST || (uint32_t)(e - ERRH_FIRST) >= emu.errh.nerrhs)
		return NULL;
	errh *h = &emu.errh.errhs[e - ERRH_FIRST];
	return h->refs ? h : NULL;
}

static int errh_valid(MPI_Errhandler e)
{
	return e == MPI_ERRORS_ARE_FATAL || e == MPI_ERRORS_RETURN ||
		errh_user(e);
}

void emu_errh_ref(MPI_Errhandler e)
{
	errh *h = errh_user(e);
	if (h)
		h->refs++;
}

void emu_errh_unref(MPI_Errhandler e)
{
	errh *h = errh_user(e);
	if (h && --h->refs == 0)
		h->fn = NULL;
}

/* EMU_API arms its jump point only when some communicator of the rank
 * has a handler that returns. */
void emu_errh_update_return(emu_rank *r)
{
	uint8_t ret = 0;
	for (uint32_t h = 1; h < r->ncomms && !ret; h++)
		if (r->comms[h] &&
		    r->comms[h]->errhandler != MPI_ERRORS_ARE_FATAL)
			ret = 1;
	r->err_return = ret;
}

int emu_comm_errhandler(emu_rank *r)
{
	emu_comm *c = emu_comm_lookup(r, r->err_comm);
	return c ? c->errhandler : MPI_ERRORS_ARE_FATAL;
}

/* Call a user's handler for communicator h of r.  The handler may call
 * MPI itself; a failure there must not jump back into the call that
 * failed first. */
static void run_user_errhandler(emu_rank *r, errh *e, MPI_Comm h, int code)
{
	MPI_Comm_errhandler_function *fn = e->fn;
	jmp_buf *jb = r->err_jb;
	MPI_Comm comm = h;
	int c = code;
	r->err_jb = NULL;
	fn(&comm, &c);
	r->err_jb = jb;
}

void emu_comm_user_errhandler(emu_rank *r, int code)
{
	emu_comm *c = emu_comm_lookup(r, r->err_comm);
	errh *e = c ? errh_user(c->errhandler) : NULL;
	/* A window's handler is given the window (MPI_Win and MPI_Comm are
	 * both int: the handler types have the same shape). */
	if (e)
		run_user_errhandler(r, e, c->win != MPI_WIN_NULL ? c->win :
				    r->err_comm, code);
}

void emu_errh_create(emu_rank *r, const char *call,
		     MPI_Comm_errhandler_function *fn,
		     MPI_Errhandler *errhandler)
{
	if (!fn || !errhandler)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL %s",
			      fn ? "errhandler pointer" : "function");
	uint32_t i, free_slot = emu.errh.nerrhs;
	for (i = 0; i < emu.errh.nerrhs; i++) {
		if (emu.errh.errhs[i].refs && emu.errh.errhs[i].fn == fn)
			break;
		if (!emu.errh.errhs[i].refs && free_slot == emu.errh.nerrhs)
			free_slot = i;
	}
	if (i == emu.errh.nerrhs) {
		i = free_slot;
		if (i == emu.errh.nerrhs) {
			if (emu.errh.nerrhs >= (uint32_t)INT_MAX - ERRH_FIRST)
				emu_mpi_error(r, call, MPI_ERR_NO_MEM, "too "
					      "many error handlers");
			errh *t = realloc(emu.errh.errhs,
					  (emu.errh.nerrhs + 1) * sizeof *t);
			if (!t)
				emu_mpi_error(r, call, MPI_ERR_NO_MEM, "out "
					      "of memory");
			emu.errh.errhs = t;
			emu.errh.errhs[emu.errh.nerrhs++].refs = 0;
		}
		emu.errh.errhs[i].fn = fn;
	}
	emu.errh.errhs[i].refs++;
	*errhandler = (MPI_Errhandler)(i + ERRH_FIRST);
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
			       MPI_Errhandler *errhandler)
{
	const char *call = "MPI_Comm_create_errhandler";
	EMU_API(r, call);
	emu_errh_create(r, call, fn, errhandler);
	return MPI_SUCCESS;
}

void emu_errh_set(emu_rank *r, const char *call, emu_comm *c,
		  MPI_Errhandler errhandler)
{
	if (!errh_valid(errhandler))
		emu_mpi_error(r, call, MPI_ERR_ARG, "%d is not an error "
			      "handler (MPI_ERRORS_ARE_FATAL, "
			      "MPI_ERRORS_RETURN or one of "
			      "MPI_Comm_create_errhandler)%s",
			      errhandler, errhandler == MPI_ERRHANDLER_NULL ?
			      " but MPI_ERRHANDLER_NULL" : "");
	emu_errh_ref(errhandler);
	emu_errh_unref(c->errhandler);
	c->errhandler = errhandler;
	emu_errh_update_return(r);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
	const char *call = "MPI_Comm_set_errhandler";
	EMU_API(r, call);
	emu_errh_set(r, call, emu_comm_get(r, comm, call), errhandler);
	return MPI_SUCCESS;
}

void emu_errh_get(emu_rank *r, const char *call, const emu_comm *c,
		  MPI_Errhandler *errhandler)
{
	if (!errhandler)
		emu_mpi_error(r, call, MPI_ERR_ARG, "NULL errhandler "
			      "pointer");
	/* A new reference, which the program frees with
	 * MPI_Errhandler_free. */
	emu_errh_ref(c->errhandler);
	*errhandler = c->errhandler;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	const char *call = "MPI_Comm_get_errhandler";
	EMU_API(r, call);
	emu_errh_get(r, call, emu_comm_get(r, comm, call), errhandler);
	return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	const char *call = "MPI_Errhandler_free";
	EMU_API(r, call);
	if (!errhandler || !errh_valid(*errhandler))
		emu_mpi_error(r, call, MPI_ERR_ARG, "%s is not an error "
			      "handler", errhandler ? "the handle" : "NULL");
	emu_errh_unref(*errhandler);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	const char *call = "MPI_Comm_call_errhandler";
	EMU_API(r, call);
	emu_comm *c = emu_comm_get(r, comm, call);
	errh *e = errh_user(c->errhandler);
	if (c->errhandler == MPI_ERRORS_ARE_FATAL) {
		/* A code of the program's own: its class and string. */
		const char *text = emu_err_user_text(r, errorcode);
		char own[MPI_MAX_ERROR_STRING + 64] = "";
		int class = errorcode;
		if (text) {
			MPI_Error_class(errorcode, &class);
			snprintf(own, sizeof own, " (the program's own, of "
				 "class %d: \"%s\")", class, text);
		}
		emu_mpi_error(r, call, errorcode >= 0 && errorcode <=
			      MPI_ERR_LASTCODE ? errorcode : MPI_ERR_UNKNOWN,
			      "the program raised error code %d%s on %s",
			      errorcode, own, emu_comm_describe(r, comm));
	}
	if (e)
		run_user_errhandler(r, e, comm, errorcode);
	return MPI_SUCCESS;
}

