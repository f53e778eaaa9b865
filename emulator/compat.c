/*
 * compat.c -- small MPI routines: MPI_Pcontrol, MPI_Status_set_cancelled,
 * MPI_Comm_get_parent and the MPI-1 names of the communicator's error
 * handlers (MPI_Errhandler_create/get/set, removed in MPI-3.0 and still
 * called by older programs).  The handle conversions (MPI_Comm_c2f, ...)
 * are macros of include/sibyl_mpi_more.h: handles are the same integers
 * in C and Fortran.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "emu_private.h"

/* Profiling control: Sibyl's trace records every call anyway. */
int MPI_Pcontrol(const int level, ...)
{
	(void)level;
	return MPI_SUCCESS;
}

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	EMU_API(r, "MPI_Status_set_cancelled");
	if (status == MPI_STATUS_IGNORE)
		emu_mpi_error(r, "MPI_Status_set_cancelled", MPI_ERR_ARG,
			      "status is MPI_STATUS_IGNORE");
	status->sibyl_cancelled = flag != 0;
	return MPI_SUCCESS;
}

/* No process of a Sibyl job was started by MPI_Comm_spawn. */
int MPI_Comm_get_parent(MPI_Comm *parent)
{
	EMU_API(r, "MPI_Comm_get_parent");
	(void)r;
	*parent = MPI_COMM_NULL;
	return MPI_SUCCESS;
}

int MPI_Errhandler_create(MPI_Handler_function *function,
			  MPI_Errhandler *errhandler)
{
	return MPI_Comm_create_errhandler(
		(MPI_Comm_errhandler_function *)function, errhandler);
}

int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	return MPI_Comm_get_errhandler(comm, errhandler);
}

int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
	return MPI_Comm_set_errhandler(comm, errhandler);
}
