/*
 * sibyl_mpi_rma.h -- Sibyl's MPI for emulated ranks: memory allocation
 * and one-sided communication.
 * Included by <mpi.h>; not to be included directly.
 *
 * Windows with active-target synchronization are emulated: MPI_Win_create
 * and MPI_Win_allocate, Put, Get, Accumulate, Get_accumulate,
 * Fetch_and_op and Compare_and_swap inside epochs opened and closed by
 * MPI_Win_fence or by post/start/complete/wait; the data moves at the
 * closing synchronization, in messages the trace records.  Passive target
 * (MPI_Win_lock, flush, sync), request-based operations, dynamic and
 * shared windows stop the run with MPI_ERR_UNSUPPORTED_OPERATION saying
 * why (or return that code under MPI_ERRORS_RETURN).
 */
#ifndef SIBYL_MPI_RMA_H
#define SIBYL_MPI_RMA_H

typedef int MPI_Win;

#define MPI_WIN_NULL 0

/* Window attributes and flavours, lock types, assertion modes. */
#define MPI_WIN_BASE          100
#define MPI_WIN_SIZE          101
#define MPI_WIN_DISP_UNIT     102
#define MPI_WIN_CREATE_FLAVOR 103
#define MPI_WIN_MODEL         104
#define MPI_WIN_FLAVOR_CREATE   1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC  3
#define MPI_WIN_FLAVOR_SHARED   4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED  2
#define MPI_LOCK_EXCLUSIVE 1
#define MPI_LOCK_SHARED    2
#define MPI_MODE_NOCHECK   1024
#define MPI_MODE_NOSTORE   2048
#define MPI_MODE_NOPUT     4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

#define MPI_Alloc_mem SIBYL_MPI_Alloc_mem
#define MPI_Free_mem SIBYL_MPI_Free_mem
#define PMPI_Alloc_mem SIBYL_MPI_Alloc_mem
#define PMPI_Free_mem SIBYL_MPI_Free_mem
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* Emulated, but for MPI_Win_allocate_shared, MPI_Win_create_dynamic,
 * MPI_Win_attach, MPI_Win_detach, the locks, flushes and MPI_Win_sync,
 * which report MPI_ERR_UNSUPPORTED_OPERATION. */
#define MPI_Win_create SIBYL_MPI_Win_create
#define MPI_Win_allocate SIBYL_MPI_Win_allocate
#define MPI_Win_allocate_shared SIBYL_MPI_Win_allocate_shared
#define MPI_Win_create_dynamic SIBYL_MPI_Win_create_dynamic
#define MPI_Win_attach SIBYL_MPI_Win_attach
#define MPI_Win_detach SIBYL_MPI_Win_detach
#define MPI_Win_free SIBYL_MPI_Win_free
#define MPI_Win_get_attr SIBYL_MPI_Win_get_attr
#define MPI_Win_get_group SIBYL_MPI_Win_get_group
#define MPI_Win_fence SIBYL_MPI_Win_fence
#define MPI_Win_lock SIBYL_MPI_Win_lock
#define MPI_Win_unlock SIBYL_MPI_Win_unlock
#define MPI_Win_lock_all SIBYL_MPI_Win_lock_all
#define MPI_Win_unlock_all SIBYL_MPI_Win_unlock_all
#define MPI_Win_flush SIBYL_MPI_Win_flush
#define MPI_Win_flush_all SIBYL_MPI_Win_flush_all
#define MPI_Win_flush_local SIBYL_MPI_Win_flush_local
#define MPI_Win_flush_local_all SIBYL_MPI_Win_flush_local_all
#define MPI_Win_sync SIBYL_MPI_Win_sync
#define MPI_Win_post SIBYL_MPI_Win_post
#define MPI_Win_start SIBYL_MPI_Win_start
#define MPI_Win_complete SIBYL_MPI_Win_complete
#define MPI_Win_wait SIBYL_MPI_Win_wait
#define MPI_Put SIBYL_MPI_Put
#define MPI_Get SIBYL_MPI_Get
#define MPI_Accumulate SIBYL_MPI_Accumulate
#define MPI_Get_accumulate SIBYL_MPI_Get_accumulate
#define MPI_Fetch_and_op SIBYL_MPI_Fetch_and_op
#define MPI_Compare_and_swap SIBYL_MPI_Compare_and_swap

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
		     MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val,
		     int *flag);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Put(const void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank,
	    MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count,
		   MPI_Datatype origin_datatype, int target_rank,
		   MPI_Aint target_disp, int target_count,
		   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count,
		       MPI_Datatype origin_datatype, void *result_addr,
		       int result_count, MPI_Datatype result_datatype,
		       int target_rank, MPI_Aint target_disp,
		       int target_count, MPI_Datatype target_datatype,
		       MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr,
		     MPI_Datatype datatype, int target_rank,
		     MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype datatype,
			 int target_rank, MPI_Aint target_disp, MPI_Win win);

#endif /* SIBYL_MPI_RMA_H */
