/*
 * rma.c -- MPI_Alloc_mem/MPI_Free_mem, and the calls of one-sided
 * communication, which the emulator does not provide: each reports
 * MPI_ERR_UNSUPPORTED_OPERATION with what to do (the names are declared so that
 * programs that merely mention them compile -- benchmark suites share
 * helper code between their point-to-point, collective and one-sided
 * programs).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdlib.h>

#include "emu_private.h"

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	EMU_API(r, "MPI_Alloc_mem");
	(void)info;
	if (size < 0)
		emu_mpi_error(r, "MPI_Alloc_mem", MPI_ERR_ARG, "negative size "
			      "%lld", (long long)size);
	void *p = malloc(size ? (size_t)size : 1);
	if (!p)
		emu_mpi_error(r, "MPI_Alloc_mem", MPI_ERR_NO_MEM, "no memory "
			      "for %lld bytes", (long long)size);
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
	EMU_API(r, "MPI_Free_mem");
	(void)r;
	free(base);
	return MPI_SUCCESS;
}

static int not_supported(emu_rank *r, const char *call)
{
	emu_mpi_error(r, call, MPI_ERR_UNSUPPORTED_OPERATION, "one-sided "
		      "communication (MPI windows, Put, Get, Accumulate) is "
		      "not emulated by Sibyl; use point-to-point or "
		      "collective calls instead");
}

/* The parameters of the calls below are unused on purpose. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	EMU_API(r, "MPI_Win_create");
	return not_supported(r, "MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
		     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	EMU_API(r, "MPI_Win_allocate");
	return not_supported(r, "MPI_Win_allocate");
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	EMU_API(r, "MPI_Win_allocate_shared");
	return not_supported(r, "MPI_Win_allocate_shared");
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	EMU_API(r, "MPI_Win_create_dynamic");
	return not_supported(r, "MPI_Win_create_dynamic");
}

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	EMU_API(r, "MPI_Win_attach");
	return not_supported(r, "MPI_Win_attach");
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
	EMU_API(r, "MPI_Win_detach");
	return not_supported(r, "MPI_Win_detach");
}

int MPI_Win_free(MPI_Win *win)
{
	EMU_API(r, "MPI_Win_free");
	return not_supported(r, "MPI_Win_free");
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
		     int *flag)
{
	EMU_API(r, "MPI_Win_get_attr");
	return not_supported(r, "MPI_Win_get_attr");
}

int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	EMU_API(r, "MPI_Win_get_group");
	return not_supported(r, "MPI_Win_get_group");
}

int MPI_Win_fence(int assert, MPI_Win win)
{
	EMU_API(r, "MPI_Win_fence");
	return not_supported(r, "MPI_Win_fence");
}

int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	EMU_API(r, "MPI_Win_lock");
	return not_supported(r, "MPI_Win_lock");
}

int MPI_Win_unlock(int rank, MPI_Win win)
{
	EMU_API(r, "MPI_Win_unlock");
	return not_supported(r, "MPI_Win_unlock");
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
	EMU_API(r, "MPI_Win_lock_all");
	return not_supported(r, "MPI_Win_lock_all");
}

int MPI_Win_unlock_all(MPI_Win win)
{
	EMU_API(r, "MPI_Win_unlock_all");
	return not_supported(r, "MPI_Win_unlock_all");
}

int MPI_Win_flush(int rank, MPI_Win win)
{
	EMU_API(r, "MPI_Win_flush");
	return not_supported(r, "MPI_Win_flush");
}

int MPI_Win_flush_all(MPI_Win win)
{
	EMU_API(r, "MPI_Win_flush_all");
	return not_supported(r, "MPI_Win_flush_all");
}

int MPI_Win_flush_local(int rank, MPI_Win win)
{
	EMU_API(r, "MPI_Win_flush_local");
	return not_supported(r, "MPI_Win_flush_local");
}

int MPI_Win_flush_local_all(MPI_Win win)
{
	EMU_API(r, "MPI_Win_flush_local_all");
	return not_supported(r, "MPI_Win_flush_local_all");
}

int MPI_Win_sync(MPI_Win win)
{
	EMU_API(r, "MPI_Win_sync");
	return not_supported(r, "MPI_Win_sync");
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	EMU_API(r, "MPI_Win_post");
	return not_supported(r, "MPI_Win_post");
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	EMU_API(r, "MPI_Win_start");
	return not_supported(r, "MPI_Win_start");
}

int MPI_Win_complete(MPI_Win win)
{
	EMU_API(r, "MPI_Win_complete");
	return not_supported(r, "MPI_Win_complete");
}

int MPI_Win_wait(MPI_Win win)
{
	EMU_API(r, "MPI_Win_wait");
	return not_supported(r, "MPI_Win_wait");
}

int MPI_Put(const void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	EMU_API(r, "MPI_Put");
	return not_supported(r, "MPI_Put");
}

int MPI_Get(void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	EMU_API(r, "MPI_Get");
	return not_supported(r, "MPI_Get");
}

int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_datatype, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	EMU_API(r, "MPI_Accumulate");
	return not_supported(r, "MPI_Accumulate");
}

int MPI_Get_accumulate(const void *origin_addr, int origin_count,
		       MPI_Datatype origin_datatype, void *result_addr,
		       int result_count, MPI_Datatype result_datatype,
		       int target_rank, MPI_Aint target_disp,
		       int target_count, MPI_Datatype target_datatype,
		       MPI_Op op, MPI_Win win)
{
	EMU_API(r, "MPI_Get_accumulate");
	return not_supported(r, "MPI_Get_accumulate");
}

int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
		     MPI_Datatype datatype, int target_rank,
		     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
	EMU_API(r, "MPI_Fetch_and_op");
	return not_supported(r, "MPI_Fetch_and_op");
}

int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype datatype,
			 int target_rank, MPI_Aint target_disp, MPI_Win win)
{
	EMU_API(r, "MPI_Compare_and_swap");
	return not_supported(r, "MPI_Compare_and_swap");
}
