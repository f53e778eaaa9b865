/*
 * fortran.c -- the Fortran bindings of Sibyl's MPI routines (gfortran's
 * names: lower case, one trailing underscore; pmpi_ aliases).
 *
 * Written by emulator/fortran-gen.py from the C headers: do not edit.
 * 340 routines bound here, 10 by hand in fortran_rt.c; not bound (a call
 * fails to link, naming the routine):
 *   MPI_Attr_put: attribute keys cannot be created from Fortran
 *   MPI_Comm_create_keyval: parameter comm_copy_attr_fn is MPI_Comm_copy_attr_function *
 *   MPI_Comm_set_attr: attribute keys cannot be created from Fortran
 *   MPI_Comm_spawn: parameter argv is char *[]
 *   MPI_Comm_spawn_multiple: parameter array_of_commands is char *[]
 *   MPI_Grequest_start: parameter query_fn is MPI_Grequest_query_function *
 *   MPI_Keyval_create: parameter copy_fn is MPI_Copy_function *
 *   MPI_Register_datarep: parameter read_conversion_fn is MPI_Datarep_conversion_function *
 *   MPI_Status_c2f: parameter f_status is MPI_Fint *
 *   MPI_Status_f2c: parameter f_status is const MPI_Fint *
 *   MPI_T_category_changed: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_categories: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_cvars: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_index: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_info: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_num: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_category_get_pvars: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_get_index: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_get_info: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_get_num: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_handle_alloc: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_handle_free: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_read: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_cvar_write: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_enum_get_info: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_enum_get_item: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_finalize: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_init_thread: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_get_index: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_get_info: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_get_num: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_handle_alloc: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_handle_free: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_read: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_readreset: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_reset: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_session_create: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_session_free: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_start: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_stop: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_T_pvar_write: MPI_T has no Fortran binding in MPI-3.1
 *   MPI_Type_create_keyval: parameter type_copy_attr_fn is MPI_Type_copy_attr_function *
 *   MPI_Type_get_attr: attribute keys cannot be created from Fortran
 *   MPI_Type_set_attr: attribute keys cannot be created from Fortran
 *   MPI_Win_create_keyval: parameter win_copy_attr_fn is MPI_Win_copy_attr_function *
 *   MPI_Win_get_attr: attribute keys cannot be created from Fortran
 *   MPI_Win_set_attr: attribute keys cannot be created from Fortran
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "emu_fortran.h"

F_API void mpi_abort_(const int *a0, const int *a1, int *ierr);
void mpi_abort_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Abort(*a0, *a1);
}
F_ALIAS(pmpi_abort_, mpi_abort_);

F_API void mpi_accumulate_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, const int *a8, int *ierr);
void mpi_accumulate_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Accumulate(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7, *a8);
}
F_ALIAS(pmpi_accumulate_, mpi_accumulate_);

F_API void mpi_add_error_class_(int *a0, int *ierr);
void mpi_add_error_class_(int *a0, int *ierr)
{
	*ierr = MPI_Add_error_class(a0);
}
F_ALIAS(pmpi_add_error_class_, mpi_add_error_class_);

F_API void mpi_add_error_code_(const int *a0, int *a1, int *ierr);
void mpi_add_error_code_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Add_error_code(*a0, a1);
}
F_ALIAS(pmpi_add_error_code_, mpi_add_error_code_);

F_API void mpi_add_error_string_(const int *a0, const char *a1, int *ierr, size_t l1);
void mpi_add_error_string_(const int *a0, const char *a1, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Add_error_string(*a0, c1);
	free(c1);
}
F_ALIAS(pmpi_add_error_string_, mpi_add_error_string_);

F_API void mpi_address_(void *a0, MPI_Aint *a1, int *ierr);
void mpi_address_(void *a0, MPI_Aint *a1, int *ierr)
{
	*ierr = MPI_Address(F_BUF(a0), a1);
}
F_ALIAS(pmpi_address_, mpi_address_);

F_API void mpi_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Allgather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6);
}
F_ALIAS(pmpi_allgather_, mpi_allgather_);

F_API void mpi_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, int *ierr);
void mpi_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Allgatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7);
}
F_ALIAS(pmpi_allgatherv_, mpi_allgatherv_);

F_API void mpi_alloc_mem_(const MPI_Aint *a0, const int *a1, void *a2, int *ierr);
void mpi_alloc_mem_(const MPI_Aint *a0, const int *a1, void *a2, int *ierr)
{
	*ierr = MPI_Alloc_mem(*a0, *a1, F_BUF(a2));
}
F_ALIAS(pmpi_alloc_mem_, mpi_alloc_mem_);

F_API void mpi_allreduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_allreduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Allreduce(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_allreduce_, mpi_allreduce_);

F_API void mpi_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Alltoall(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6);
}
F_ALIAS(pmpi_alltoall_, mpi_alltoall_);

F_API void mpi_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, int *ierr);
void mpi_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Alltoallv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), a5, a6, *a7, *a8);
}
F_ALIAS(pmpi_alltoallv_, mpi_alltoallv_);

F_API void mpi_alltoallw_(const void *a0, int *a1, int *a2, MPI_Datatype *a3, void *a4, int *a5, int *a6, MPI_Datatype *a7, const int *a8, int *ierr);
void mpi_alltoallw_(const void *a0, int *a1, int *a2, MPI_Datatype *a3, void *a4, int *a5, int *a6, MPI_Datatype *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Alltoallw(F_BUF(a0), a1, a2, a3, F_BUF(a4), a5, a6, a7, *a8);
}
F_ALIAS(pmpi_alltoallw_, mpi_alltoallw_);

F_API void mpi_attr_delete_(const int *a0, const int *a1, int *ierr);
void mpi_attr_delete_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Attr_delete(*a0, *a1);
}
F_ALIAS(pmpi_attr_delete_, mpi_attr_delete_);

F_API void mpi_barrier_(const int *a0, int *ierr);
void mpi_barrier_(const int *a0, int *ierr)
{
	*ierr = MPI_Barrier(*a0);
}
F_ALIAS(pmpi_barrier_, mpi_barrier_);

F_API void mpi_bcast_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, int *ierr);
void mpi_bcast_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, int *ierr)
{
	*ierr = MPI_Bcast(F_BUF(a0), *a1, *a2, *a3, *a4);
}
F_ALIAS(pmpi_bcast_, mpi_bcast_);

F_API void mpi_bsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_bsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Bsend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_bsend_, mpi_bsend_);

F_API void mpi_bsend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_bsend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Bsend_init(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_bsend_init_, mpi_bsend_init_);

F_API void mpi_buffer_attach_(void *a0, const int *a1, int *ierr);
void mpi_buffer_attach_(void *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Buffer_attach(F_BUF(a0), *a1);
}
F_ALIAS(pmpi_buffer_attach_, mpi_buffer_attach_);

F_API void mpi_cancel_(MPI_Request *a0, int *ierr);
void mpi_cancel_(MPI_Request *a0, int *ierr)
{
	*ierr = MPI_Cancel(a0);
}
F_ALIAS(pmpi_cancel_, mpi_cancel_);

F_API void mpi_cart_coords_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr);
void mpi_cart_coords_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr)
{
	*ierr = MPI_Cart_coords(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_cart_coords_, mpi_cart_coords_);

F_API void mpi_cart_create_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, MPI_Comm *a5, int *ierr);
void mpi_cart_create_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, MPI_Comm *a5, int *ierr)
{
	*ierr = MPI_Cart_create(*a0, *a1, a2, a3, *a4, a5);
}
F_ALIAS(pmpi_cart_create_, mpi_cart_create_);

F_API void mpi_cart_get_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_cart_get_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Cart_get(*a0, *a1, a2, a3, a4);
}
F_ALIAS(pmpi_cart_get_, mpi_cart_get_);

F_API void mpi_cart_map_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_cart_map_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Cart_map(*a0, *a1, a2, a3, a4);
}
F_ALIAS(pmpi_cart_map_, mpi_cart_map_);

F_API void mpi_cart_rank_(const int *a0, int *a1, int *a2, int *ierr);
void mpi_cart_rank_(const int *a0, int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Cart_rank(*a0, a1, a2);
}
F_ALIAS(pmpi_cart_rank_, mpi_cart_rank_);

F_API void mpi_cart_shift_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr);
void mpi_cart_shift_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Cart_shift(*a0, *a1, *a2, a3, a4);
}
F_ALIAS(pmpi_cart_shift_, mpi_cart_shift_);

F_API void mpi_cart_sub_(const int *a0, int *a1, MPI_Comm *a2, int *ierr);
void mpi_cart_sub_(const int *a0, int *a1, MPI_Comm *a2, int *ierr)
{
	*ierr = MPI_Cart_sub(*a0, a1, a2);
}
F_ALIAS(pmpi_cart_sub_, mpi_cart_sub_);

F_API void mpi_cartdim_get_(const int *a0, int *a1, int *ierr);
void mpi_cartdim_get_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Cartdim_get(*a0, a1);
}
F_ALIAS(pmpi_cartdim_get_, mpi_cartdim_get_);

F_API void mpi_close_port_(const char *a0, int *ierr, size_t l0);
void mpi_close_port_(const char *a0, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Close_port(c0);
	free(c0);
}
F_ALIAS(pmpi_close_port_, mpi_close_port_);

F_API void mpi_comm_accept_(const char *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr, size_t l0);
void mpi_comm_accept_(const char *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Comm_accept(c0, *a1, *a2, *a3, a4);
	free(c0);
}
F_ALIAS(pmpi_comm_accept_, mpi_comm_accept_);

F_API void mpi_comm_call_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_comm_call_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Comm_call_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_comm_call_errhandler_, mpi_comm_call_errhandler_);

F_API void mpi_comm_compare_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_comm_compare_(const int *a0, const int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Comm_compare(*a0, *a1, a2);
}
F_ALIAS(pmpi_comm_compare_, mpi_comm_compare_);

F_API void mpi_comm_connect_(const char *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr, size_t l0);
void mpi_comm_connect_(const char *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Comm_connect(c0, *a1, *a2, *a3, a4);
	free(c0);
}
F_ALIAS(pmpi_comm_connect_, mpi_comm_connect_);

F_API void mpi_comm_create_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr);
void mpi_comm_create_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr)
{
	*ierr = MPI_Comm_create(*a0, *a1, a2);
}
F_ALIAS(pmpi_comm_create_, mpi_comm_create_);

F_API void mpi_comm_create_errhandler_(MPI_Comm_errhandler_function *a0, MPI_Errhandler *a1, int *ierr);
void mpi_comm_create_errhandler_(MPI_Comm_errhandler_function *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Comm_create_errhandler(a0, a1);
}
F_ALIAS(pmpi_comm_create_errhandler_, mpi_comm_create_errhandler_);

F_API void mpi_comm_create_group_(const int *a0, const int *a1, const int *a2, MPI_Comm *a3, int *ierr);
void mpi_comm_create_group_(const int *a0, const int *a1, const int *a2, MPI_Comm *a3, int *ierr)
{
	*ierr = MPI_Comm_create_group(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_comm_create_group_, mpi_comm_create_group_);

F_API void mpi_comm_delete_attr_(const int *a0, const int *a1, int *ierr);
void mpi_comm_delete_attr_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Comm_delete_attr(*a0, *a1);
}
F_ALIAS(pmpi_comm_delete_attr_, mpi_comm_delete_attr_);

F_API void mpi_comm_disconnect_(MPI_Comm *a0, int *ierr);
void mpi_comm_disconnect_(MPI_Comm *a0, int *ierr)
{
	*ierr = MPI_Comm_disconnect(a0);
}
F_ALIAS(pmpi_comm_disconnect_, mpi_comm_disconnect_);

F_API void mpi_comm_dup_(const int *a0, MPI_Comm *a1, int *ierr);
void mpi_comm_dup_(const int *a0, MPI_Comm *a1, int *ierr)
{
	*ierr = MPI_Comm_dup(*a0, a1);
}
F_ALIAS(pmpi_comm_dup_, mpi_comm_dup_);

F_API void mpi_comm_dup_with_info_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr);
void mpi_comm_dup_with_info_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr)
{
	*ierr = MPI_Comm_dup_with_info(*a0, *a1, a2);
}
F_ALIAS(pmpi_comm_dup_with_info_, mpi_comm_dup_with_info_);

F_API void mpi_comm_free_(MPI_Comm *a0, int *ierr);
void mpi_comm_free_(MPI_Comm *a0, int *ierr)
{
	*ierr = MPI_Comm_free(a0);
}
F_ALIAS(pmpi_comm_free_, mpi_comm_free_);

F_API void mpi_comm_free_keyval_(int *a0, int *ierr);
void mpi_comm_free_keyval_(int *a0, int *ierr)
{
	*ierr = MPI_Comm_free_keyval(a0);
}
F_ALIAS(pmpi_comm_free_keyval_, mpi_comm_free_keyval_);

F_API void mpi_comm_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr);
void mpi_comm_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Comm_get_errhandler(*a0, a1);
}
F_ALIAS(pmpi_comm_get_errhandler_, mpi_comm_get_errhandler_);

F_API void mpi_comm_get_info_(const int *a0, MPI_Info *a1, int *ierr);
void mpi_comm_get_info_(const int *a0, MPI_Info *a1, int *ierr)
{
	*ierr = MPI_Comm_get_info(*a0, a1);
}
F_ALIAS(pmpi_comm_get_info_, mpi_comm_get_info_);

F_API void mpi_comm_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1);
void mpi_comm_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1)
{
	char *c1 = f_outbuf(l1);
	*ierr = MPI_Comm_get_name(*a0, c1, a2);
	f_fstr(a1, l1, c1);
}
F_ALIAS(pmpi_comm_get_name_, mpi_comm_get_name_);

F_API void mpi_comm_get_parent_(MPI_Comm *a0, int *ierr);
void mpi_comm_get_parent_(MPI_Comm *a0, int *ierr)
{
	*ierr = MPI_Comm_get_parent(a0);
}
F_ALIAS(pmpi_comm_get_parent_, mpi_comm_get_parent_);

F_API void mpi_comm_group_(const int *a0, MPI_Group *a1, int *ierr);
void mpi_comm_group_(const int *a0, MPI_Group *a1, int *ierr)
{
	*ierr = MPI_Comm_group(*a0, a1);
}
F_ALIAS(pmpi_comm_group_, mpi_comm_group_);

F_API void mpi_comm_idup_(const int *a0, MPI_Comm *a1, MPI_Request *a2, int *ierr);
void mpi_comm_idup_(const int *a0, MPI_Comm *a1, MPI_Request *a2, int *ierr)
{
	*ierr = MPI_Comm_idup(*a0, a1, a2);
}
F_ALIAS(pmpi_comm_idup_, mpi_comm_idup_);

F_API void mpi_comm_join_(const int *a0, MPI_Comm *a1, int *ierr);
void mpi_comm_join_(const int *a0, MPI_Comm *a1, int *ierr)
{
	*ierr = MPI_Comm_join(*a0, a1);
}
F_ALIAS(pmpi_comm_join_, mpi_comm_join_);

F_API void mpi_comm_rank_(const int *a0, int *a1, int *ierr);
void mpi_comm_rank_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Comm_rank(*a0, a1);
}
F_ALIAS(pmpi_comm_rank_, mpi_comm_rank_);

F_API void mpi_comm_remote_group_(const int *a0, MPI_Group *a1, int *ierr);
void mpi_comm_remote_group_(const int *a0, MPI_Group *a1, int *ierr)
{
	*ierr = MPI_Comm_remote_group(*a0, a1);
}
F_ALIAS(pmpi_comm_remote_group_, mpi_comm_remote_group_);

F_API void mpi_comm_remote_size_(const int *a0, int *a1, int *ierr);
void mpi_comm_remote_size_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Comm_remote_size(*a0, a1);
}
F_ALIAS(pmpi_comm_remote_size_, mpi_comm_remote_size_);

F_API void mpi_comm_set_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_comm_set_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Comm_set_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_comm_set_errhandler_, mpi_comm_set_errhandler_);

F_API void mpi_comm_set_info_(const int *a0, const int *a1, int *ierr);
void mpi_comm_set_info_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Comm_set_info(*a0, *a1);
}
F_ALIAS(pmpi_comm_set_info_, mpi_comm_set_info_);

F_API void mpi_comm_set_name_(const int *a0, const char *a1, int *ierr, size_t l1);
void mpi_comm_set_name_(const int *a0, const char *a1, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Comm_set_name(*a0, c1);
	free(c1);
}
F_ALIAS(pmpi_comm_set_name_, mpi_comm_set_name_);

F_API void mpi_comm_size_(const int *a0, int *a1, int *ierr);
void mpi_comm_size_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Comm_size(*a0, a1);
}
F_ALIAS(pmpi_comm_size_, mpi_comm_size_);

F_API void mpi_comm_split_(const int *a0, const int *a1, const int *a2, MPI_Comm *a3, int *ierr);
void mpi_comm_split_(const int *a0, const int *a1, const int *a2, MPI_Comm *a3, int *ierr)
{
	*ierr = MPI_Comm_split(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_comm_split_, mpi_comm_split_);

F_API void mpi_comm_split_type_(const int *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr);
void mpi_comm_split_type_(const int *a0, const int *a1, const int *a2, const int *a3, MPI_Comm *a4, int *ierr)
{
	*ierr = MPI_Comm_split_type(*a0, *a1, *a2, *a3, a4);
}
F_ALIAS(pmpi_comm_split_type_, mpi_comm_split_type_);

F_API void mpi_comm_test_inter_(const int *a0, int *a1, int *ierr);
void mpi_comm_test_inter_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Comm_test_inter(*a0, a1);
}
F_ALIAS(pmpi_comm_test_inter_, mpi_comm_test_inter_);

F_API void mpi_compare_and_swap_(const void *a0, const void *a1, void *a2, const int *a3, const int *a4, const MPI_Aint *a5, const int *a6, int *ierr);
void mpi_compare_and_swap_(const void *a0, const void *a1, void *a2, const int *a3, const int *a4, const MPI_Aint *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Compare_and_swap(F_BUF(a0), F_BUF(a1), F_BUF(a2), *a3, *a4, *a5, *a6);
}
F_ALIAS(pmpi_compare_and_swap_, mpi_compare_and_swap_);

F_API void mpi_dims_create_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_dims_create_(const int *a0, const int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Dims_create(*a0, *a1, a2);
}
F_ALIAS(pmpi_dims_create_, mpi_dims_create_);

F_API void mpi_dist_graph_create_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Comm *a8, int *ierr);
void mpi_dist_graph_create_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Comm *a8, int *ierr)
{
	*ierr = MPI_Dist_graph_create(*a0, *a1, a2, a3, a4, F_INTS(a5), *a6, *a7, a8);
}
F_ALIAS(pmpi_dist_graph_create_, mpi_dist_graph_create_);

F_API void mpi_dist_graph_create_adjacent_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Comm *a9, int *ierr);
void mpi_dist_graph_create_adjacent_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Comm *a9, int *ierr)
{
	*ierr = MPI_Dist_graph_create_adjacent(*a0, *a1, a2, F_INTS(a3), *a4, a5, F_INTS(a6), *a7, *a8, a9);
}
F_ALIAS(pmpi_dist_graph_create_adjacent_, mpi_dist_graph_create_adjacent_);

F_API void mpi_dist_graph_neighbors_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, int *a5, int *a6, int *ierr);
void mpi_dist_graph_neighbors_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, int *a5, int *a6, int *ierr)
{
	*ierr = MPI_Dist_graph_neighbors(*a0, *a1, a2, F_INTS(a3), *a4, a5, F_INTS(a6));
}
F_ALIAS(pmpi_dist_graph_neighbors_, mpi_dist_graph_neighbors_);

F_API void mpi_dist_graph_neighbors_count_(const int *a0, int *a1, int *a2, int *a3, int *ierr);
void mpi_dist_graph_neighbors_count_(const int *a0, int *a1, int *a2, int *a3, int *ierr)
{
	*ierr = MPI_Dist_graph_neighbors_count(*a0, a1, a2, a3);
}
F_ALIAS(pmpi_dist_graph_neighbors_count_, mpi_dist_graph_neighbors_count_);

F_API void mpi_errhandler_create_(MPI_Handler_function *a0, MPI_Errhandler *a1, int *ierr);
void mpi_errhandler_create_(MPI_Handler_function *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Errhandler_create(a0, a1);
}
F_ALIAS(pmpi_errhandler_create_, mpi_errhandler_create_);

F_API void mpi_errhandler_free_(MPI_Errhandler *a0, int *ierr);
void mpi_errhandler_free_(MPI_Errhandler *a0, int *ierr)
{
	*ierr = MPI_Errhandler_free(a0);
}
F_ALIAS(pmpi_errhandler_free_, mpi_errhandler_free_);

F_API void mpi_errhandler_get_(const int *a0, MPI_Errhandler *a1, int *ierr);
void mpi_errhandler_get_(const int *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Errhandler_get(*a0, a1);
}
F_ALIAS(pmpi_errhandler_get_, mpi_errhandler_get_);

F_API void mpi_errhandler_set_(const int *a0, const int *a1, int *ierr);
void mpi_errhandler_set_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Errhandler_set(*a0, *a1);
}
F_ALIAS(pmpi_errhandler_set_, mpi_errhandler_set_);

F_API void mpi_error_class_(const int *a0, int *a1, int *ierr);
void mpi_error_class_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Error_class(*a0, a1);
}
F_ALIAS(pmpi_error_class_, mpi_error_class_);

F_API void mpi_error_string_(const int *a0, char *a1, int *a2, int *ierr, size_t l1);
void mpi_error_string_(const int *a0, char *a1, int *a2, int *ierr, size_t l1)
{
	char *c1 = f_outbuf(l1);
	*ierr = MPI_Error_string(*a0, c1, a2);
	f_fstr(a1, l1, c1);
}
F_ALIAS(pmpi_error_string_, mpi_error_string_);

F_API void mpi_exscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_exscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Exscan(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_exscan_, mpi_exscan_);

F_API void mpi_fetch_and_op_(const void *a0, void *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, int *ierr);
void mpi_fetch_and_op_(const void *a0, void *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Fetch_and_op(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, *a6);
}
F_ALIAS(pmpi_fetch_and_op_, mpi_fetch_and_op_);

F_API void mpi_file_call_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_file_call_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_File_call_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_file_call_errhandler_, mpi_file_call_errhandler_);

F_API void mpi_file_close_(MPI_File *a0, int *ierr);
void mpi_file_close_(MPI_File *a0, int *ierr)
{
	*ierr = MPI_File_close(a0);
}
F_ALIAS(pmpi_file_close_, mpi_file_close_);

F_API void mpi_file_create_errhandler_(MPI_File_errhandler_function *a0, MPI_Errhandler *a1, int *ierr);
void mpi_file_create_errhandler_(MPI_File_errhandler_function *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_File_create_errhandler(a0, a1);
}
F_ALIAS(pmpi_file_create_errhandler_, mpi_file_create_errhandler_);

F_API void mpi_file_delete_(const char *a0, const int *a1, int *ierr, size_t l0);
void mpi_file_delete_(const char *a0, const int *a1, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_File_delete(c0, *a1);
	free(c0);
}
F_ALIAS(pmpi_file_delete_, mpi_file_delete_);

F_API void mpi_file_get_amode_(const int *a0, int *a1, int *ierr);
void mpi_file_get_amode_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_File_get_amode(*a0, a1);
}
F_ALIAS(pmpi_file_get_amode_, mpi_file_get_amode_);

F_API void mpi_file_get_atomicity_(const int *a0, int *a1, int *ierr);
void mpi_file_get_atomicity_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_File_get_atomicity(*a0, a1);
}
F_ALIAS(pmpi_file_get_atomicity_, mpi_file_get_atomicity_);

F_API void mpi_file_get_byte_offset_(const int *a0, const MPI_Offset *a1, MPI_Offset *a2, int *ierr);
void mpi_file_get_byte_offset_(const int *a0, const MPI_Offset *a1, MPI_Offset *a2, int *ierr)
{
	*ierr = MPI_File_get_byte_offset(*a0, *a1, a2);
}
F_ALIAS(pmpi_file_get_byte_offset_, mpi_file_get_byte_offset_);

F_API void mpi_file_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr);
void mpi_file_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_File_get_errhandler(*a0, a1);
}
F_ALIAS(pmpi_file_get_errhandler_, mpi_file_get_errhandler_);

F_API void mpi_file_get_group_(const int *a0, MPI_Group *a1, int *ierr);
void mpi_file_get_group_(const int *a0, MPI_Group *a1, int *ierr)
{
	*ierr = MPI_File_get_group(*a0, a1);
}
F_ALIAS(pmpi_file_get_group_, mpi_file_get_group_);

F_API void mpi_file_get_info_(const int *a0, MPI_Info *a1, int *ierr);
void mpi_file_get_info_(const int *a0, MPI_Info *a1, int *ierr)
{
	*ierr = MPI_File_get_info(*a0, a1);
}
F_ALIAS(pmpi_file_get_info_, mpi_file_get_info_);

F_API void mpi_file_get_position_(const int *a0, MPI_Offset *a1, int *ierr);
void mpi_file_get_position_(const int *a0, MPI_Offset *a1, int *ierr)
{
	*ierr = MPI_File_get_position(*a0, a1);
}
F_ALIAS(pmpi_file_get_position_, mpi_file_get_position_);

F_API void mpi_file_get_position_shared_(const int *a0, MPI_Offset *a1, int *ierr);
void mpi_file_get_position_shared_(const int *a0, MPI_Offset *a1, int *ierr)
{
	*ierr = MPI_File_get_position_shared(*a0, a1);
}
F_ALIAS(pmpi_file_get_position_shared_, mpi_file_get_position_shared_);

F_API void mpi_file_get_size_(const int *a0, MPI_Offset *a1, int *ierr);
void mpi_file_get_size_(const int *a0, MPI_Offset *a1, int *ierr)
{
	*ierr = MPI_File_get_size(*a0, a1);
}
F_ALIAS(pmpi_file_get_size_, mpi_file_get_size_);

F_API void mpi_file_get_type_extent_(const int *a0, const int *a1, MPI_Aint *a2, int *ierr);
void mpi_file_get_type_extent_(const int *a0, const int *a1, MPI_Aint *a2, int *ierr)
{
	*ierr = MPI_File_get_type_extent(*a0, *a1, a2);
}
F_ALIAS(pmpi_file_get_type_extent_, mpi_file_get_type_extent_);

F_API void mpi_file_get_view_(const int *a0, MPI_Offset *a1, MPI_Datatype *a2, MPI_Datatype *a3, char *a4, int *ierr, size_t l4);
void mpi_file_get_view_(const int *a0, MPI_Offset *a1, MPI_Datatype *a2, MPI_Datatype *a3, char *a4, int *ierr, size_t l4)
{
	char *c4 = f_outbuf(l4);
	*ierr = MPI_File_get_view(*a0, a1, a2, a3, c4);
	f_fstr(a4, l4, c4);
}
F_ALIAS(pmpi_file_get_view_, mpi_file_get_view_);

F_API void mpi_file_iread_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iread_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iread(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iread_, mpi_file_iread_);

F_API void mpi_file_iread_all_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iread_all_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iread_all(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iread_all_, mpi_file_iread_all_);

F_API void mpi_file_iread_at_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr);
void mpi_file_iread_at_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr)
{
	*ierr = MPI_File_iread_at(*a0, *a1, F_BUF(a2), *a3, *a4, a5);
}
F_ALIAS(pmpi_file_iread_at_, mpi_file_iread_at_);

F_API void mpi_file_iread_at_all_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr);
void mpi_file_iread_at_all_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr)
{
	*ierr = MPI_File_iread_at_all(*a0, *a1, F_BUF(a2), *a3, *a4, a5);
}
F_ALIAS(pmpi_file_iread_at_all_, mpi_file_iread_at_all_);

F_API void mpi_file_iread_shared_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iread_shared_(const int *a0, void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iread_shared(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iread_shared_, mpi_file_iread_shared_);

F_API void mpi_file_iwrite_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iwrite_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iwrite(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iwrite_, mpi_file_iwrite_);

F_API void mpi_file_iwrite_all_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iwrite_all_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iwrite_all(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iwrite_all_, mpi_file_iwrite_all_);

F_API void mpi_file_iwrite_at_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr);
void mpi_file_iwrite_at_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr)
{
	*ierr = MPI_File_iwrite_at(*a0, *a1, F_BUF(a2), *a3, *a4, a5);
}
F_ALIAS(pmpi_file_iwrite_at_, mpi_file_iwrite_at_);

F_API void mpi_file_iwrite_at_all_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr);
void mpi_file_iwrite_at_all_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr)
{
	*ierr = MPI_File_iwrite_at_all(*a0, *a1, F_BUF(a2), *a3, *a4, a5);
}
F_ALIAS(pmpi_file_iwrite_at_all_, mpi_file_iwrite_at_all_);

F_API void mpi_file_iwrite_shared_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr);
void mpi_file_iwrite_shared_(const int *a0, const void *a1, const int *a2, const int *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_File_iwrite_shared(*a0, F_BUF(a1), *a2, *a3, a4);
}
F_ALIAS(pmpi_file_iwrite_shared_, mpi_file_iwrite_shared_);

F_API void mpi_file_open_(const int *a0, const char *a1, const int *a2, const int *a3, MPI_File *a4, int *ierr, size_t l1);
void mpi_file_open_(const int *a0, const char *a1, const int *a2, const int *a3, MPI_File *a4, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_File_open(*a0, c1, *a2, *a3, a4);
	free(c1);
}
F_ALIAS(pmpi_file_open_, mpi_file_open_);

F_API void mpi_file_preallocate_(const int *a0, const MPI_Offset *a1, int *ierr);
void mpi_file_preallocate_(const int *a0, const MPI_Offset *a1, int *ierr)
{
	*ierr = MPI_File_preallocate(*a0, *a1);
}
F_ALIAS(pmpi_file_preallocate_, mpi_file_preallocate_);

F_API void mpi_file_read_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_read_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_read(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_read_, mpi_file_read_);

F_API void mpi_file_read_all_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_read_all_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_read_all(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_read_all_, mpi_file_read_all_);

F_API void mpi_file_read_all_begin_(const int *a0, void *a1, const int *a2, const int *a3, int *ierr);
void mpi_file_read_all_begin_(const int *a0, void *a1, const int *a2, const int *a3, int *ierr)
{
	*ierr = MPI_File_read_all_begin(*a0, F_BUF(a1), *a2, *a3);
}
F_ALIAS(pmpi_file_read_all_begin_, mpi_file_read_all_begin_);

F_API void mpi_file_read_all_end_(const int *a0, void *a1, int *a2, int *ierr);
void mpi_file_read_all_end_(const int *a0, void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_read_all_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_read_all_end_, mpi_file_read_all_end_);

F_API void mpi_file_read_at_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *a5, int *ierr);
void mpi_file_read_at_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *a5, int *ierr)
{
	MPI_Status s5_, *s5 = F_STATUS(a5, &s5_);
	*ierr = MPI_File_read_at(*a0, *a1, F_BUF(a2), *a3, *a4, s5);
	F_STATUS_OUT(a5, s5);
}
F_ALIAS(pmpi_file_read_at_, mpi_file_read_at_);

F_API void mpi_file_read_at_all_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *a5, int *ierr);
void mpi_file_read_at_all_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *a5, int *ierr)
{
	MPI_Status s5_, *s5 = F_STATUS(a5, &s5_);
	*ierr = MPI_File_read_at_all(*a0, *a1, F_BUF(a2), *a3, *a4, s5);
	F_STATUS_OUT(a5, s5);
}
F_ALIAS(pmpi_file_read_at_all_, mpi_file_read_at_all_);

F_API void mpi_file_read_at_all_begin_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *ierr);
void mpi_file_read_at_all_begin_(const int *a0, const MPI_Offset *a1, void *a2, const int *a3, const int *a4, int *ierr)
{
	*ierr = MPI_File_read_at_all_begin(*a0, *a1, F_BUF(a2), *a3, *a4);
}
F_ALIAS(pmpi_file_read_at_all_begin_, mpi_file_read_at_all_begin_);

F_API void mpi_file_read_at_all_end_(const int *a0, void *a1, int *a2, int *ierr);
void mpi_file_read_at_all_end_(const int *a0, void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_read_at_all_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_read_at_all_end_, mpi_file_read_at_all_end_);

F_API void mpi_file_read_ordered_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_read_ordered_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_read_ordered(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_read_ordered_, mpi_file_read_ordered_);

F_API void mpi_file_read_ordered_begin_(const int *a0, void *a1, const int *a2, const int *a3, int *ierr);
void mpi_file_read_ordered_begin_(const int *a0, void *a1, const int *a2, const int *a3, int *ierr)
{
	*ierr = MPI_File_read_ordered_begin(*a0, F_BUF(a1), *a2, *a3);
}
F_ALIAS(pmpi_file_read_ordered_begin_, mpi_file_read_ordered_begin_);

F_API void mpi_file_read_ordered_end_(const int *a0, void *a1, int *a2, int *ierr);
void mpi_file_read_ordered_end_(const int *a0, void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_read_ordered_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_read_ordered_end_, mpi_file_read_ordered_end_);

F_API void mpi_file_read_shared_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_read_shared_(const int *a0, void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_read_shared(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_read_shared_, mpi_file_read_shared_);

F_API void mpi_file_seek_(const int *a0, const MPI_Offset *a1, const int *a2, int *ierr);
void mpi_file_seek_(const int *a0, const MPI_Offset *a1, const int *a2, int *ierr)
{
	*ierr = MPI_File_seek(*a0, *a1, *a2);
}
F_ALIAS(pmpi_file_seek_, mpi_file_seek_);

F_API void mpi_file_seek_shared_(const int *a0, const MPI_Offset *a1, const int *a2, int *ierr);
void mpi_file_seek_shared_(const int *a0, const MPI_Offset *a1, const int *a2, int *ierr)
{
	*ierr = MPI_File_seek_shared(*a0, *a1, *a2);
}
F_ALIAS(pmpi_file_seek_shared_, mpi_file_seek_shared_);

F_API void mpi_file_set_atomicity_(const int *a0, const int *a1, int *ierr);
void mpi_file_set_atomicity_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_File_set_atomicity(*a0, *a1);
}
F_ALIAS(pmpi_file_set_atomicity_, mpi_file_set_atomicity_);

F_API void mpi_file_set_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_file_set_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_File_set_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_file_set_errhandler_, mpi_file_set_errhandler_);

F_API void mpi_file_set_info_(const int *a0, const int *a1, int *ierr);
void mpi_file_set_info_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_File_set_info(*a0, *a1);
}
F_ALIAS(pmpi_file_set_info_, mpi_file_set_info_);

F_API void mpi_file_set_size_(const int *a0, const MPI_Offset *a1, int *ierr);
void mpi_file_set_size_(const int *a0, const MPI_Offset *a1, int *ierr)
{
	*ierr = MPI_File_set_size(*a0, *a1);
}
F_ALIAS(pmpi_file_set_size_, mpi_file_set_size_);

F_API void mpi_file_set_view_(const int *a0, const MPI_Offset *a1, const int *a2, const int *a3, const char *a4, const int *a5, int *ierr, size_t l4);
void mpi_file_set_view_(const int *a0, const MPI_Offset *a1, const int *a2, const int *a3, const char *a4, const int *a5, int *ierr, size_t l4)
{
	char *c4 = f_cstr(a4, l4);
	*ierr = MPI_File_set_view(*a0, *a1, *a2, *a3, c4, *a5);
	free(c4);
}
F_ALIAS(pmpi_file_set_view_, mpi_file_set_view_);

F_API void mpi_file_sync_(const int *a0, int *ierr);
void mpi_file_sync_(const int *a0, int *ierr)
{
	*ierr = MPI_File_sync(*a0);
}
F_ALIAS(pmpi_file_sync_, mpi_file_sync_);

F_API void mpi_file_write_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_write_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_write(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_write_, mpi_file_write_);

F_API void mpi_file_write_all_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_write_all_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_write_all(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_write_all_, mpi_file_write_all_);

F_API void mpi_file_write_all_begin_(const int *a0, const void *a1, const int *a2, const int *a3, int *ierr);
void mpi_file_write_all_begin_(const int *a0, const void *a1, const int *a2, const int *a3, int *ierr)
{
	*ierr = MPI_File_write_all_begin(*a0, F_BUF(a1), *a2, *a3);
}
F_ALIAS(pmpi_file_write_all_begin_, mpi_file_write_all_begin_);

F_API void mpi_file_write_all_end_(const int *a0, const void *a1, int *a2, int *ierr);
void mpi_file_write_all_end_(const int *a0, const void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_write_all_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_write_all_end_, mpi_file_write_all_end_);

F_API void mpi_file_write_at_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *a5, int *ierr);
void mpi_file_write_at_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *a5, int *ierr)
{
	MPI_Status s5_, *s5 = F_STATUS(a5, &s5_);
	*ierr = MPI_File_write_at(*a0, *a1, F_BUF(a2), *a3, *a4, s5);
	F_STATUS_OUT(a5, s5);
}
F_ALIAS(pmpi_file_write_at_, mpi_file_write_at_);

F_API void mpi_file_write_at_all_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *a5, int *ierr);
void mpi_file_write_at_all_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *a5, int *ierr)
{
	MPI_Status s5_, *s5 = F_STATUS(a5, &s5_);
	*ierr = MPI_File_write_at_all(*a0, *a1, F_BUF(a2), *a3, *a4, s5);
	F_STATUS_OUT(a5, s5);
}
F_ALIAS(pmpi_file_write_at_all_, mpi_file_write_at_all_);

F_API void mpi_file_write_at_all_begin_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *ierr);
void mpi_file_write_at_all_begin_(const int *a0, const MPI_Offset *a1, const void *a2, const int *a3, const int *a4, int *ierr)
{
	*ierr = MPI_File_write_at_all_begin(*a0, *a1, F_BUF(a2), *a3, *a4);
}
F_ALIAS(pmpi_file_write_at_all_begin_, mpi_file_write_at_all_begin_);

F_API void mpi_file_write_at_all_end_(const int *a0, const void *a1, int *a2, int *ierr);
void mpi_file_write_at_all_end_(const int *a0, const void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_write_at_all_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_write_at_all_end_, mpi_file_write_at_all_end_);

F_API void mpi_file_write_ordered_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_write_ordered_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_write_ordered(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_write_ordered_, mpi_file_write_ordered_);

F_API void mpi_file_write_ordered_begin_(const int *a0, const void *a1, const int *a2, const int *a3, int *ierr);
void mpi_file_write_ordered_begin_(const int *a0, const void *a1, const int *a2, const int *a3, int *ierr)
{
	*ierr = MPI_File_write_ordered_begin(*a0, F_BUF(a1), *a2, *a3);
}
F_ALIAS(pmpi_file_write_ordered_begin_, mpi_file_write_ordered_begin_);

F_API void mpi_file_write_ordered_end_(const int *a0, const void *a1, int *a2, int *ierr);
void mpi_file_write_ordered_end_(const int *a0, const void *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_File_write_ordered_end(*a0, F_BUF(a1), s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_file_write_ordered_end_, mpi_file_write_ordered_end_);

F_API void mpi_file_write_shared_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr);
void mpi_file_write_shared_(const int *a0, const void *a1, const int *a2, const int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_File_write_shared(*a0, F_BUF(a1), *a2, *a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_file_write_shared_, mpi_file_write_shared_);

F_API void mpi_finalize_(int *ierr);
void mpi_finalize_(int *ierr)
{
	*ierr = MPI_Finalize();
}
F_ALIAS(pmpi_finalize_, mpi_finalize_);

F_API void mpi_finalized_(int *a0, int *ierr);
void mpi_finalized_(int *a0, int *ierr)
{
	*ierr = MPI_Finalized(a0);
}
F_ALIAS(pmpi_finalized_, mpi_finalized_);

F_API void mpi_free_mem_(void *a0, int *ierr);
void mpi_free_mem_(void *a0, int *ierr)
{
	*ierr = MPI_Free_mem(F_BUF(a0));
}
F_ALIAS(pmpi_free_mem_, mpi_free_mem_);

F_API void mpi_gather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *ierr);
void mpi_gather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Gather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7);
}
F_ALIAS(pmpi_gather_, mpi_gather_);

F_API void mpi_gatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, const int *a8, int *ierr);
void mpi_gatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Gatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7, *a8);
}
F_ALIAS(pmpi_gatherv_, mpi_gatherv_);

F_API void mpi_get_(void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, int *ierr);
void mpi_get_(void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Get(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7);
}
F_ALIAS(pmpi_get_, mpi_get_);

F_API void mpi_get_accumulate_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const MPI_Aint *a7, const int *a8, const int *a9, const int *a10, const int *a11, int *ierr);
void mpi_get_accumulate_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const MPI_Aint *a7, const int *a8, const int *a9, const int *a10, const int *a11, int *ierr)
{
	*ierr = MPI_Get_accumulate(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7, *a8, *a9, *a10, *a11);
}
F_ALIAS(pmpi_get_accumulate_, mpi_get_accumulate_);

F_API void mpi_get_address_(const void *a0, MPI_Aint *a1, int *ierr);
void mpi_get_address_(const void *a0, MPI_Aint *a1, int *ierr)
{
	*ierr = MPI_Get_address(F_BUF(a0), a1);
}
F_ALIAS(pmpi_get_address_, mpi_get_address_);

F_API void mpi_get_count_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_get_count_(const int *a0, const int *a1, int *a2, int *ierr)
{
	MPI_Status s0;
	F_STATUS_IN(&s0, a0);
	*ierr = MPI_Get_count(&s0, *a1, a2);
}
F_ALIAS(pmpi_get_count_, mpi_get_count_);

F_API void mpi_get_elements_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_get_elements_(const int *a0, const int *a1, int *a2, int *ierr)
{
	MPI_Status s0;
	F_STATUS_IN(&s0, a0);
	*ierr = MPI_Get_elements(&s0, *a1, a2);
}
F_ALIAS(pmpi_get_elements_, mpi_get_elements_);

F_API void mpi_get_elements_x_(const int *a0, const int *a1, MPI_Count *a2, int *ierr);
void mpi_get_elements_x_(const int *a0, const int *a1, MPI_Count *a2, int *ierr)
{
	MPI_Status s0;
	F_STATUS_IN(&s0, a0);
	*ierr = MPI_Get_elements_x(&s0, *a1, a2);
}
F_ALIAS(pmpi_get_elements_x_, mpi_get_elements_x_);

F_API void mpi_get_library_version_(char *a0, int *a1, int *ierr, size_t l0);
void mpi_get_library_version_(char *a0, int *a1, int *ierr, size_t l0)
{
	char *c0 = f_outbuf(l0);
	*ierr = MPI_Get_library_version(c0, a1);
	f_fstr(a0, l0, c0);
}
F_ALIAS(pmpi_get_library_version_, mpi_get_library_version_);

F_API void mpi_get_processor_name_(char *a0, int *a1, int *ierr, size_t l0);
void mpi_get_processor_name_(char *a0, int *a1, int *ierr, size_t l0)
{
	char *c0 = f_outbuf(l0);
	*ierr = MPI_Get_processor_name(c0, a1);
	f_fstr(a0, l0, c0);
}
F_ALIAS(pmpi_get_processor_name_, mpi_get_processor_name_);

F_API void mpi_get_version_(int *a0, int *a1, int *ierr);
void mpi_get_version_(int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Get_version(a0, a1);
}
F_ALIAS(pmpi_get_version_, mpi_get_version_);

F_API void mpi_graph_create_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, MPI_Comm *a5, int *ierr);
void mpi_graph_create_(const int *a0, const int *a1, int *a2, int *a3, const int *a4, MPI_Comm *a5, int *ierr)
{
	*ierr = MPI_Graph_create(*a0, *a1, a2, a3, *a4, a5);
}
F_ALIAS(pmpi_graph_create_, mpi_graph_create_);

F_API void mpi_graph_get_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr);
void mpi_graph_get_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Graph_get(*a0, *a1, *a2, a3, a4);
}
F_ALIAS(pmpi_graph_get_, mpi_graph_get_);

F_API void mpi_graph_map_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_graph_map_(const int *a0, const int *a1, int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Graph_map(*a0, *a1, a2, a3, a4);
}
F_ALIAS(pmpi_graph_map_, mpi_graph_map_);

F_API void mpi_graph_neighbors_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr);
void mpi_graph_neighbors_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr)
{
	*ierr = MPI_Graph_neighbors(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_graph_neighbors_, mpi_graph_neighbors_);

F_API void mpi_graph_neighbors_count_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_graph_neighbors_count_(const int *a0, const int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Graph_neighbors_count(*a0, *a1, a2);
}
F_ALIAS(pmpi_graph_neighbors_count_, mpi_graph_neighbors_count_);

F_API void mpi_graphdims_get_(const int *a0, int *a1, int *a2, int *ierr);
void mpi_graphdims_get_(const int *a0, int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Graphdims_get(*a0, a1, a2);
}
F_ALIAS(pmpi_graphdims_get_, mpi_graphdims_get_);

F_API void mpi_grequest_complete_(const int *a0, int *ierr);
void mpi_grequest_complete_(const int *a0, int *ierr)
{
	*ierr = MPI_Grequest_complete(*a0);
}
F_ALIAS(pmpi_grequest_complete_, mpi_grequest_complete_);

F_API void mpi_group_compare_(const int *a0, const int *a1, int *a2, int *ierr);
void mpi_group_compare_(const int *a0, const int *a1, int *a2, int *ierr)
{
	*ierr = MPI_Group_compare(*a0, *a1, a2);
}
F_ALIAS(pmpi_group_compare_, mpi_group_compare_);

F_API void mpi_group_difference_(const int *a0, const int *a1, MPI_Group *a2, int *ierr);
void mpi_group_difference_(const int *a0, const int *a1, MPI_Group *a2, int *ierr)
{
	*ierr = MPI_Group_difference(*a0, *a1, a2);
}
F_ALIAS(pmpi_group_difference_, mpi_group_difference_);

F_API void mpi_group_excl_(const int *a0, const int *a1, int *a2, MPI_Group *a3, int *ierr);
void mpi_group_excl_(const int *a0, const int *a1, int *a2, MPI_Group *a3, int *ierr)
{
	*ierr = MPI_Group_excl(*a0, *a1, a2, a3);
}
F_ALIAS(pmpi_group_excl_, mpi_group_excl_);

F_API void mpi_group_free_(MPI_Group *a0, int *ierr);
void mpi_group_free_(MPI_Group *a0, int *ierr)
{
	*ierr = MPI_Group_free(a0);
}
F_ALIAS(pmpi_group_free_, mpi_group_free_);

F_API void mpi_group_incl_(const int *a0, const int *a1, int *a2, MPI_Group *a3, int *ierr);
void mpi_group_incl_(const int *a0, const int *a1, int *a2, MPI_Group *a3, int *ierr)
{
	*ierr = MPI_Group_incl(*a0, *a1, a2, a3);
}
F_ALIAS(pmpi_group_incl_, mpi_group_incl_);

F_API void mpi_group_intersection_(const int *a0, const int *a1, MPI_Group *a2, int *ierr);
void mpi_group_intersection_(const int *a0, const int *a1, MPI_Group *a2, int *ierr)
{
	*ierr = MPI_Group_intersection(*a0, *a1, a2);
}
F_ALIAS(pmpi_group_intersection_, mpi_group_intersection_);

F_API void mpi_group_range_excl_(const int *a0, const int *a1, int (*a2)[3], MPI_Group *a3, int *ierr);
void mpi_group_range_excl_(const int *a0, const int *a1, int (*a2)[3], MPI_Group *a3, int *ierr)
{
	*ierr = MPI_Group_range_excl(*a0, *a1, a2, a3);
}
F_ALIAS(pmpi_group_range_excl_, mpi_group_range_excl_);

F_API void mpi_group_range_incl_(const int *a0, const int *a1, int (*a2)[3], MPI_Group *a3, int *ierr);
void mpi_group_range_incl_(const int *a0, const int *a1, int (*a2)[3], MPI_Group *a3, int *ierr)
{
	*ierr = MPI_Group_range_incl(*a0, *a1, a2, a3);
}
F_ALIAS(pmpi_group_range_incl_, mpi_group_range_incl_);

F_API void mpi_group_rank_(const int *a0, int *a1, int *ierr);
void mpi_group_rank_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Group_rank(*a0, a1);
}
F_ALIAS(pmpi_group_rank_, mpi_group_rank_);

F_API void mpi_group_size_(const int *a0, int *a1, int *ierr);
void mpi_group_size_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Group_size(*a0, a1);
}
F_ALIAS(pmpi_group_size_, mpi_group_size_);

F_API void mpi_group_translate_ranks_(const int *a0, const int *a1, int *a2, const int *a3, int *a4, int *ierr);
void mpi_group_translate_ranks_(const int *a0, const int *a1, int *a2, const int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Group_translate_ranks(*a0, *a1, a2, *a3, a4);
}
F_ALIAS(pmpi_group_translate_ranks_, mpi_group_translate_ranks_);

F_API void mpi_group_union_(const int *a0, const int *a1, MPI_Group *a2, int *ierr);
void mpi_group_union_(const int *a0, const int *a1, MPI_Group *a2, int *ierr)
{
	*ierr = MPI_Group_union(*a0, *a1, a2);
}
F_ALIAS(pmpi_group_union_, mpi_group_union_);

F_API void mpi_iallgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr);
void mpi_iallgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr)
{
	*ierr = MPI_Iallgather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, a7);
}
F_ALIAS(pmpi_iallgather_, mpi_iallgather_);

F_API void mpi_iallgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_iallgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Iallgatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_iallgatherv_, mpi_iallgatherv_);

F_API void mpi_iallreduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_iallreduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Iallreduce(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_iallreduce_, mpi_iallreduce_);

F_API void mpi_ialltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr);
void mpi_ialltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr)
{
	*ierr = MPI_Ialltoall(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, a7);
}
F_ALIAS(pmpi_ialltoall_, mpi_ialltoall_);

F_API void mpi_ialltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_ialltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Ialltoallv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), a5, a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_ialltoallv_, mpi_ialltoallv_);

F_API void mpi_ialltoallw_(const void *a0, int *a1, int *a2, MPI_Datatype *a3, void *a4, int *a5, int *a6, MPI_Datatype *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_ialltoallw_(const void *a0, int *a1, int *a2, MPI_Datatype *a3, void *a4, int *a5, int *a6, MPI_Datatype *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Ialltoallw(F_BUF(a0), a1, a2, a3, F_BUF(a4), a5, a6, a7, *a8, a9);
}
F_ALIAS(pmpi_ialltoallw_, mpi_ialltoallw_);

F_API void mpi_ibarrier_(const int *a0, MPI_Request *a1, int *ierr);
void mpi_ibarrier_(const int *a0, MPI_Request *a1, int *ierr)
{
	*ierr = MPI_Ibarrier(*a0, a1);
}
F_ALIAS(pmpi_ibarrier_, mpi_ibarrier_);

F_API void mpi_ibcast_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr);
void mpi_ibcast_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, MPI_Request *a5, int *ierr)
{
	*ierr = MPI_Ibcast(F_BUF(a0), *a1, *a2, *a3, *a4, a5);
}
F_ALIAS(pmpi_ibcast_, mpi_ibcast_);

F_API void mpi_ibsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_ibsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Ibsend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_ibsend_, mpi_ibsend_);

F_API void mpi_iexscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_iexscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Iexscan(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_iexscan_, mpi_iexscan_);

F_API void mpi_igather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_igather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Igather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_igather_, mpi_igather_);

F_API void mpi_igatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_igatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Igatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_igatherv_, mpi_igatherv_);

F_API void mpi_improbe_(const int *a0, const int *a1, const int *a2, int *a3, MPI_Message *a4, int *a5, int *ierr);
void mpi_improbe_(const int *a0, const int *a1, const int *a2, int *a3, MPI_Message *a4, int *a5, int *ierr)
{
	MPI_Status s5_, *s5 = F_STATUS(a5, &s5_);
	*ierr = MPI_Improbe(*a0, *a1, *a2, a3, a4, s5);
	F_STATUS_OUT(a5, s5);
}
F_ALIAS(pmpi_improbe_, mpi_improbe_);

F_API void mpi_imrecv_(void *a0, const int *a1, const int *a2, MPI_Message *a3, MPI_Request *a4, int *ierr);
void mpi_imrecv_(void *a0, const int *a1, const int *a2, MPI_Message *a3, MPI_Request *a4, int *ierr)
{
	*ierr = MPI_Imrecv(F_BUF(a0), *a1, *a2, a3, a4);
}
F_ALIAS(pmpi_imrecv_, mpi_imrecv_);

F_API void mpi_ineighbor_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr);
void mpi_ineighbor_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr)
{
	*ierr = MPI_Ineighbor_allgather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, a7);
}
F_ALIAS(pmpi_ineighbor_allgather_, mpi_ineighbor_allgather_);

F_API void mpi_ineighbor_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_ineighbor_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Ineighbor_allgatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_ineighbor_allgatherv_, mpi_ineighbor_allgatherv_);

F_API void mpi_ineighbor_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr);
void mpi_ineighbor_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr)
{
	*ierr = MPI_Ineighbor_alltoall(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, a7);
}
F_ALIAS(pmpi_ineighbor_alltoall_, mpi_ineighbor_alltoall_);

F_API void mpi_ineighbor_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_ineighbor_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Ineighbor_alltoallv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), a5, a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_ineighbor_alltoallv_, mpi_ineighbor_alltoallv_);

F_API void mpi_ineighbor_alltoallw_(const void *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, void *a4, int *a5, MPI_Aint *a6, MPI_Datatype *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_ineighbor_alltoallw_(const void *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, void *a4, int *a5, MPI_Aint *a6, MPI_Datatype *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Ineighbor_alltoallw(F_BUF(a0), a1, a2, a3, F_BUF(a4), a5, a6, a7, *a8, a9);
}
F_ALIAS(pmpi_ineighbor_alltoallw_, mpi_ineighbor_alltoallw_);

F_API void mpi_info_create_(MPI_Info *a0, int *ierr);
void mpi_info_create_(MPI_Info *a0, int *ierr)
{
	*ierr = MPI_Info_create(a0);
}
F_ALIAS(pmpi_info_create_, mpi_info_create_);

F_API void mpi_info_delete_(const int *a0, const char *a1, int *ierr, size_t l1);
void mpi_info_delete_(const int *a0, const char *a1, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Info_delete(*a0, c1);
	free(c1);
}
F_ALIAS(pmpi_info_delete_, mpi_info_delete_);

F_API void mpi_info_dup_(const int *a0, MPI_Info *a1, int *ierr);
void mpi_info_dup_(const int *a0, MPI_Info *a1, int *ierr)
{
	*ierr = MPI_Info_dup(*a0, a1);
}
F_ALIAS(pmpi_info_dup_, mpi_info_dup_);

F_API void mpi_info_free_(MPI_Info *a0, int *ierr);
void mpi_info_free_(MPI_Info *a0, int *ierr)
{
	*ierr = MPI_Info_free(a0);
}
F_ALIAS(pmpi_info_free_, mpi_info_free_);

F_API void mpi_info_get_(const int *a0, const char *a1, const int *a2, char *a3, int *a4, int *ierr, size_t l1, size_t l3);
void mpi_info_get_(const int *a0, const char *a1, const int *a2, char *a3, int *a4, int *ierr, size_t l1, size_t l3)
{
	char *c1 = f_cstr(a1, l1);
	char *c3 = f_outbuf(l3);
	*ierr = MPI_Info_get(*a0, c1, *a2, c3, a4);
	free(c1);
	f_fstr(a3, l3, c3);
}
F_ALIAS(pmpi_info_get_, mpi_info_get_);

F_API void mpi_info_get_nkeys_(const int *a0, int *a1, int *ierr);
void mpi_info_get_nkeys_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Info_get_nkeys(*a0, a1);
}
F_ALIAS(pmpi_info_get_nkeys_, mpi_info_get_nkeys_);

F_API void mpi_info_get_nthkey_(const int *a0, const int *a1, char *a2, int *ierr, size_t l2);
void mpi_info_get_nthkey_(const int *a0, const int *a1, char *a2, int *ierr, size_t l2)
{
	char *c2 = f_outbuf(l2);
	*ierr = MPI_Info_get_nthkey(*a0, *a1, c2);
	f_fstr(a2, l2, c2);
}
F_ALIAS(pmpi_info_get_nthkey_, mpi_info_get_nthkey_);

F_API void mpi_info_get_valuelen_(const int *a0, const char *a1, int *a2, int *a3, int *ierr, size_t l1);
void mpi_info_get_valuelen_(const int *a0, const char *a1, int *a2, int *a3, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Info_get_valuelen(*a0, c1, a2, a3);
	free(c1);
}
F_ALIAS(pmpi_info_get_valuelen_, mpi_info_get_valuelen_);

F_API void mpi_info_set_(const int *a0, const char *a1, const char *a2, int *ierr, size_t l1, size_t l2);
void mpi_info_set_(const int *a0, const char *a1, const char *a2, int *ierr, size_t l1, size_t l2)
{
	char *c1 = f_cstr(a1, l1);
	char *c2 = f_cstr(a2, l2);
	*ierr = MPI_Info_set(*a0, c1, c2);
	free(c1);
	free(c2);
}
F_ALIAS(pmpi_info_set_, mpi_info_set_);

F_API void mpi_initialized_(int *a0, int *ierr);
void mpi_initialized_(int *a0, int *ierr)
{
	*ierr = MPI_Initialized(a0);
}
F_ALIAS(pmpi_initialized_, mpi_initialized_);

F_API void mpi_intercomm_create_(const int *a0, const int *a1, const int *a2, const int *a3, const int *a4, MPI_Comm *a5, int *ierr);
void mpi_intercomm_create_(const int *a0, const int *a1, const int *a2, const int *a3, const int *a4, MPI_Comm *a5, int *ierr)
{
	*ierr = MPI_Intercomm_create(*a0, *a1, *a2, *a3, *a4, a5);
}
F_ALIAS(pmpi_intercomm_create_, mpi_intercomm_create_);

F_API void mpi_intercomm_merge_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr);
void mpi_intercomm_merge_(const int *a0, const int *a1, MPI_Comm *a2, int *ierr)
{
	*ierr = MPI_Intercomm_merge(*a0, *a1, a2);
}
F_ALIAS(pmpi_intercomm_merge_, mpi_intercomm_merge_);

F_API void mpi_iprobe_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr);
void mpi_iprobe_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_Iprobe(*a0, *a1, *a2, a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_iprobe_, mpi_iprobe_);

F_API void mpi_irecv_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_irecv_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Irecv(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_irecv_, mpi_irecv_);

F_API void mpi_ireduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr);
void mpi_ireduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, MPI_Request *a7, int *ierr)
{
	*ierr = MPI_Ireduce(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, *a6, a7);
}
F_ALIAS(pmpi_ireduce_, mpi_ireduce_);

F_API void mpi_ireduce_scatter_(const void *a0, void *a1, int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_ireduce_scatter_(const void *a0, void *a1, int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Ireduce_scatter(F_BUF(a0), F_BUF(a1), a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_ireduce_scatter_, mpi_ireduce_scatter_);

F_API void mpi_ireduce_scatter_block_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_ireduce_scatter_block_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Ireduce_scatter_block(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_ireduce_scatter_block_, mpi_ireduce_scatter_block_);

F_API void mpi_irsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_irsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Irsend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_irsend_, mpi_irsend_);

F_API void mpi_is_thread_main_(int *a0, int *ierr);
void mpi_is_thread_main_(int *a0, int *ierr)
{
	*ierr = MPI_Is_thread_main(a0);
}
F_ALIAS(pmpi_is_thread_main_, mpi_is_thread_main_);

F_API void mpi_iscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_iscan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Iscan(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_iscan_, mpi_iscan_);

F_API void mpi_iscatter_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_iscatter_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Iscatter(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_iscatter_, mpi_iscatter_);

F_API void mpi_iscatterv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, const int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_iscatterv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, const int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Iscatterv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), *a5, *a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_iscatterv_, mpi_iscatterv_);

F_API void mpi_isend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_isend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Isend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_isend_, mpi_isend_);

F_API void mpi_issend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_issend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Issend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_issend_, mpi_issend_);

F_API void mpi_keyval_free_(int *a0, int *ierr);
void mpi_keyval_free_(int *a0, int *ierr)
{
	*ierr = MPI_Keyval_free(a0);
}
F_ALIAS(pmpi_keyval_free_, mpi_keyval_free_);

F_API void mpi_lookup_name_(const char *a0, const int *a1, char *a2, int *ierr, size_t l0, size_t l2);
void mpi_lookup_name_(const char *a0, const int *a1, char *a2, int *ierr, size_t l0, size_t l2)
{
	char *c0 = f_cstr(a0, l0);
	char *c2 = f_outbuf(l2);
	*ierr = MPI_Lookup_name(c0, *a1, c2);
	free(c0);
	f_fstr(a2, l2, c2);
}
F_ALIAS(pmpi_lookup_name_, mpi_lookup_name_);

F_API void mpi_mprobe_(const int *a0, const int *a1, const int *a2, MPI_Message *a3, int *a4, int *ierr);
void mpi_mprobe_(const int *a0, const int *a1, const int *a2, MPI_Message *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_Mprobe(*a0, *a1, *a2, a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_mprobe_, mpi_mprobe_);

F_API void mpi_mrecv_(void *a0, const int *a1, const int *a2, MPI_Message *a3, int *a4, int *ierr);
void mpi_mrecv_(void *a0, const int *a1, const int *a2, MPI_Message *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_Mrecv(F_BUF(a0), *a1, *a2, a3, s4);
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_mrecv_, mpi_mrecv_);

F_API void mpi_neighbor_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_neighbor_allgather_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Neighbor_allgather(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6);
}
F_ALIAS(pmpi_neighbor_allgather_, mpi_neighbor_allgather_);

F_API void mpi_neighbor_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, int *ierr);
void mpi_neighbor_allgatherv_(const void *a0, const int *a1, const int *a2, void *a3, int *a4, int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Neighbor_allgatherv(F_BUF(a0), *a1, *a2, F_BUF(a3), a4, a5, *a6, *a7);
}
F_ALIAS(pmpi_neighbor_allgatherv_, mpi_neighbor_allgatherv_);

F_API void mpi_neighbor_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_neighbor_alltoall_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Neighbor_alltoall(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6);
}
F_ALIAS(pmpi_neighbor_alltoall_, mpi_neighbor_alltoall_);

F_API void mpi_neighbor_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, int *ierr);
void mpi_neighbor_alltoallv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, int *a5, int *a6, const int *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Neighbor_alltoallv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), a5, a6, *a7, *a8);
}
F_ALIAS(pmpi_neighbor_alltoallv_, mpi_neighbor_alltoallv_);

F_API void mpi_neighbor_alltoallw_(const void *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, void *a4, int *a5, MPI_Aint *a6, MPI_Datatype *a7, const int *a8, int *ierr);
void mpi_neighbor_alltoallw_(const void *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, void *a4, int *a5, MPI_Aint *a6, MPI_Datatype *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Neighbor_alltoallw(F_BUF(a0), a1, a2, a3, F_BUF(a4), a5, a6, a7, *a8);
}
F_ALIAS(pmpi_neighbor_alltoallw_, mpi_neighbor_alltoallw_);

F_API void mpi_op_commutative_(const int *a0, int *a1, int *ierr);
void mpi_op_commutative_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Op_commutative(*a0, a1);
}
F_ALIAS(pmpi_op_commutative_, mpi_op_commutative_);

F_API void mpi_op_create_(MPI_User_function *a0, const int *a1, MPI_Op *a2, int *ierr);
void mpi_op_create_(MPI_User_function *a0, const int *a1, MPI_Op *a2, int *ierr)
{
	*ierr = MPI_Op_create(a0, *a1, a2);
}
F_ALIAS(pmpi_op_create_, mpi_op_create_);

F_API void mpi_op_free_(MPI_Op *a0, int *ierr);
void mpi_op_free_(MPI_Op *a0, int *ierr)
{
	*ierr = MPI_Op_free(a0);
}
F_ALIAS(pmpi_op_free_, mpi_op_free_);

F_API void mpi_open_port_(const int *a0, char *a1, int *ierr, size_t l1);
void mpi_open_port_(const int *a0, char *a1, int *ierr, size_t l1)
{
	char *c1 = f_outbuf(l1);
	*ierr = MPI_Open_port(*a0, c1);
	f_fstr(a1, l1, c1);
}
F_ALIAS(pmpi_open_port_, mpi_open_port_);

F_API void mpi_pack_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, int *a5, const int *a6, int *ierr);
void mpi_pack_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Pack(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, a5, *a6);
}
F_ALIAS(pmpi_pack_, mpi_pack_);

F_API void mpi_pack_external_(const char *a0, const void *a1, const int *a2, const int *a3, void *a4, const MPI_Aint *a5, MPI_Aint *a6, int *ierr, size_t l0);
void mpi_pack_external_(const char *a0, const void *a1, const int *a2, const int *a3, void *a4, const MPI_Aint *a5, MPI_Aint *a6, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Pack_external(c0, F_BUF(a1), *a2, *a3, F_BUF(a4), *a5, a6);
	free(c0);
}
F_ALIAS(pmpi_pack_external_, mpi_pack_external_);

F_API void mpi_pack_external_size_(const char *a0, const int *a1, const int *a2, MPI_Aint *a3, int *ierr, size_t l0);
void mpi_pack_external_size_(const char *a0, const int *a1, const int *a2, MPI_Aint *a3, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Pack_external_size(c0, *a1, *a2, a3);
	free(c0);
}
F_ALIAS(pmpi_pack_external_size_, mpi_pack_external_size_);

F_API void mpi_pack_size_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr);
void mpi_pack_size_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr)
{
	*ierr = MPI_Pack_size(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_pack_size_, mpi_pack_size_);

F_API void mpi_probe_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr);
void mpi_probe_(const int *a0, const int *a1, const int *a2, int *a3, int *ierr)
{
	MPI_Status s3_, *s3 = F_STATUS(a3, &s3_);
	*ierr = MPI_Probe(*a0, *a1, *a2, s3);
	F_STATUS_OUT(a3, s3);
}
F_ALIAS(pmpi_probe_, mpi_probe_);

F_API void mpi_publish_name_(const char *a0, const int *a1, const char *a2, int *ierr, size_t l0, size_t l2);
void mpi_publish_name_(const char *a0, const int *a1, const char *a2, int *ierr, size_t l0, size_t l2)
{
	char *c0 = f_cstr(a0, l0);
	char *c2 = f_cstr(a2, l2);
	*ierr = MPI_Publish_name(c0, *a1, c2);
	free(c0);
	free(c2);
}
F_ALIAS(pmpi_publish_name_, mpi_publish_name_);

F_API void mpi_put_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, int *ierr);
void mpi_put_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Put(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7);
}
F_ALIAS(pmpi_put_, mpi_put_);

F_API void mpi_query_thread_(int *a0, int *ierr);
void mpi_query_thread_(int *a0, int *ierr)
{
	*ierr = MPI_Query_thread(a0);
}
F_ALIAS(pmpi_query_thread_, mpi_query_thread_);

F_API void mpi_raccumulate_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr);
void mpi_raccumulate_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, const int *a8, MPI_Request *a9, int *ierr)
{
	*ierr = MPI_Raccumulate(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_raccumulate_, mpi_raccumulate_);

F_API void mpi_recv_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *a6, int *ierr);
void mpi_recv_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *a6, int *ierr)
{
	MPI_Status s6_, *s6 = F_STATUS(a6, &s6_);
	*ierr = MPI_Recv(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, s6);
	F_STATUS_OUT(a6, s6);
}
F_ALIAS(pmpi_recv_, mpi_recv_);

F_API void mpi_recv_init_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_recv_init_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Recv_init(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_recv_init_, mpi_recv_init_);

F_API void mpi_reduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_reduce_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Reduce(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5, *a6);
}
F_ALIAS(pmpi_reduce_, mpi_reduce_);

F_API void mpi_reduce_local_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, int *ierr);
void mpi_reduce_local_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, int *ierr)
{
	*ierr = MPI_Reduce_local(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4);
}
F_ALIAS(pmpi_reduce_local_, mpi_reduce_local_);

F_API void mpi_reduce_scatter_(const void *a0, void *a1, int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_reduce_scatter_(const void *a0, void *a1, int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Reduce_scatter(F_BUF(a0), F_BUF(a1), a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_reduce_scatter_, mpi_reduce_scatter_);

F_API void mpi_reduce_scatter_block_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_reduce_scatter_block_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Reduce_scatter_block(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_reduce_scatter_block_, mpi_reduce_scatter_block_);

F_API void mpi_request_free_(MPI_Request *a0, int *ierr);
void mpi_request_free_(MPI_Request *a0, int *ierr)
{
	*ierr = MPI_Request_free(a0);
}
F_ALIAS(pmpi_request_free_, mpi_request_free_);

F_API void mpi_request_get_status_(const int *a0, int *a1, int *a2, int *ierr);
void mpi_request_get_status_(const int *a0, int *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_Request_get_status(*a0, a1, s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_request_get_status_, mpi_request_get_status_);

F_API void mpi_rget_(void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_rget_(void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Rget(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_rget_, mpi_rget_);

F_API void mpi_rget_accumulate_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const MPI_Aint *a7, const int *a8, const int *a9, const int *a10, const int *a11, MPI_Request *a12, int *ierr);
void mpi_rget_accumulate_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const MPI_Aint *a7, const int *a8, const int *a9, const int *a10, const int *a11, MPI_Request *a12, int *ierr)
{
	*ierr = MPI_Rget_accumulate(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7, *a8, *a9, *a10, *a11, a12);
}
F_ALIAS(pmpi_rget_accumulate_, mpi_rget_accumulate_);

F_API void mpi_rput_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr);
void mpi_rput_(const void *a0, const int *a1, const int *a2, const int *a3, const MPI_Aint *a4, const int *a5, const int *a6, const int *a7, MPI_Request *a8, int *ierr)
{
	*ierr = MPI_Rput(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7, a8);
}
F_ALIAS(pmpi_rput_, mpi_rput_);

F_API void mpi_rsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_rsend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Rsend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_rsend_, mpi_rsend_);

F_API void mpi_rsend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_rsend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Rsend_init(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_rsend_init_, mpi_rsend_init_);

F_API void mpi_scan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_scan_(const void *a0, void *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Scan(F_BUF(a0), F_BUF(a1), *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_scan_, mpi_scan_);

F_API void mpi_scatter_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *ierr);
void mpi_scatter_(const void *a0, const int *a1, const int *a2, void *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *ierr)
{
	*ierr = MPI_Scatter(F_BUF(a0), *a1, *a2, F_BUF(a3), *a4, *a5, *a6, *a7);
}
F_ALIAS(pmpi_scatter_, mpi_scatter_);

F_API void mpi_scatterv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, const int *a5, const int *a6, const int *a7, const int *a8, int *ierr);
void mpi_scatterv_(const void *a0, int *a1, int *a2, const int *a3, void *a4, const int *a5, const int *a6, const int *a7, const int *a8, int *ierr)
{
	*ierr = MPI_Scatterv(F_BUF(a0), a1, a2, *a3, F_BUF(a4), *a5, *a6, *a7, *a8);
}
F_ALIAS(pmpi_scatterv_, mpi_scatterv_);

F_API void mpi_send_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_send_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Send(F_BUF(a0), *a1, *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_send_, mpi_send_);

F_API void mpi_send_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_send_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Send_init(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_send_init_, mpi_send_init_);

F_API void mpi_sendrecv_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, void *a5, const int *a6, const int *a7, const int *a8, const int *a9, const int *a10, int *a11, int *ierr);
void mpi_sendrecv_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, void *a5, const int *a6, const int *a7, const int *a8, const int *a9, const int *a10, int *a11, int *ierr)
{
	MPI_Status s11_, *s11 = F_STATUS(a11, &s11_);
	*ierr = MPI_Sendrecv(F_BUF(a0), *a1, *a2, *a3, *a4, F_BUF(a5), *a6, *a7, *a8, *a9, *a10, s11);
	F_STATUS_OUT(a11, s11);
}
F_ALIAS(pmpi_sendrecv_, mpi_sendrecv_);

F_API void mpi_sendrecv_replace_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *a8, int *ierr);
void mpi_sendrecv_replace_(void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, const int *a6, const int *a7, int *a8, int *ierr)
{
	MPI_Status s8_, *s8 = F_STATUS(a8, &s8_);
	*ierr = MPI_Sendrecv_replace(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, *a6, *a7, s8);
	F_STATUS_OUT(a8, s8);
}
F_ALIAS(pmpi_sendrecv_replace_, mpi_sendrecv_replace_);

F_API void mpi_ssend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr);
void mpi_ssend_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, int *ierr)
{
	*ierr = MPI_Ssend(F_BUF(a0), *a1, *a2, *a3, *a4, *a5);
}
F_ALIAS(pmpi_ssend_, mpi_ssend_);

F_API void mpi_ssend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr);
void mpi_ssend_init_(const void *a0, const int *a1, const int *a2, const int *a3, const int *a4, const int *a5, MPI_Request *a6, int *ierr)
{
	*ierr = MPI_Ssend_init(F_BUF(a0), *a1, *a2, *a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_ssend_init_, mpi_ssend_init_);

F_API void mpi_start_(MPI_Request *a0, int *ierr);
void mpi_start_(MPI_Request *a0, int *ierr)
{
	*ierr = MPI_Start(a0);
}
F_ALIAS(pmpi_start_, mpi_start_);

F_API void mpi_startall_(const int *a0, MPI_Request *a1, int *ierr);
void mpi_startall_(const int *a0, MPI_Request *a1, int *ierr)
{
	*ierr = MPI_Startall(*a0, a1);
}
F_ALIAS(pmpi_startall_, mpi_startall_);

F_API void mpi_status_set_cancelled_(int *a0, const int *a1, int *ierr);
void mpi_status_set_cancelled_(int *a0, const int *a1, int *ierr)
{
	MPI_Status s0_, *s0 = F_STATUS(a0, &s0_);
	*ierr = MPI_Status_set_cancelled(s0, *a1);
	F_STATUS_OUT(a0, s0);
}
F_ALIAS(pmpi_status_set_cancelled_, mpi_status_set_cancelled_);

F_API void mpi_status_set_elements_(int *a0, const int *a1, const int *a2, int *ierr);
void mpi_status_set_elements_(int *a0, const int *a1, const int *a2, int *ierr)
{
	MPI_Status s0_, *s0 = F_STATUS(a0, &s0_);
	*ierr = MPI_Status_set_elements(s0, *a1, *a2);
	F_STATUS_OUT(a0, s0);
}
F_ALIAS(pmpi_status_set_elements_, mpi_status_set_elements_);

F_API void mpi_status_set_elements_x_(int *a0, const int *a1, const MPI_Count *a2, int *ierr);
void mpi_status_set_elements_x_(int *a0, const int *a1, const MPI_Count *a2, int *ierr)
{
	MPI_Status s0_, *s0 = F_STATUS(a0, &s0_);
	*ierr = MPI_Status_set_elements_x(s0, *a1, *a2);
	F_STATUS_OUT(a0, s0);
}
F_ALIAS(pmpi_status_set_elements_x_, mpi_status_set_elements_x_);

F_API void mpi_test_(MPI_Request *a0, int *a1, int *a2, int *ierr);
void mpi_test_(MPI_Request *a0, int *a1, int *a2, int *ierr)
{
	MPI_Status s2_, *s2 = F_STATUS(a2, &s2_);
	*ierr = MPI_Test(a0, a1, s2);
	F_STATUS_OUT(a2, s2);
}
F_ALIAS(pmpi_test_, mpi_test_);

F_API void mpi_test_cancelled_(const int *a0, int *a1, int *ierr);
void mpi_test_cancelled_(const int *a0, int *a1, int *ierr)
{
	MPI_Status s0;
	F_STATUS_IN(&s0, a0);
	*ierr = MPI_Test_cancelled(&s0, a1);
}
F_ALIAS(pmpi_test_cancelled_, mpi_test_cancelled_);

F_API void mpi_testall_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *ierr);
void mpi_testall_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *ierr)
{
	int n3 = *a0;
	MPI_Status *s3 = f_statuses(a3, n3);
	*ierr = MPI_Testall(*a0, a1, a2, s3);
	f_statuses_out(a3, s3, n3);
}
F_ALIAS(pmpi_testall_, mpi_testall_);

F_API void mpi_testany_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_testany_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr)
{
	MPI_Status s4_, *s4 = F_STATUS(a4, &s4_);
	*ierr = MPI_Testany(*a0, a1, a2, a3, s4);
	if (*a2 >= 0) (*a2)++;
	F_STATUS_OUT(a4, s4);
}
F_ALIAS(pmpi_testany_, mpi_testany_);

F_API void mpi_testsome_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_testsome_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr)
{
	int n4 = *a0;
	MPI_Status *s4 = f_statuses(a4, n4);
	*ierr = MPI_Testsome(*a0, a1, a2, a3, s4);
	for (int i = 0; *ierr == MPI_SUCCESS && *a2 != MPI_UNDEFINED && i < *a2; i++) a3[i]++;
	f_statuses_out(a4, s4, n4);
}
F_ALIAS(pmpi_testsome_, mpi_testsome_);

F_API void mpi_topo_test_(const int *a0, int *a1, int *ierr);
void mpi_topo_test_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Topo_test(*a0, a1);
}
F_ALIAS(pmpi_topo_test_, mpi_topo_test_);

F_API void mpi_type_commit_(MPI_Datatype *a0, int *ierr);
void mpi_type_commit_(MPI_Datatype *a0, int *ierr)
{
	*ierr = MPI_Type_commit(a0);
}
F_ALIAS(pmpi_type_commit_, mpi_type_commit_);

F_API void mpi_type_contiguous_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr);
void mpi_type_contiguous_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr)
{
	*ierr = MPI_Type_contiguous(*a0, *a1, a2);
}
F_ALIAS(pmpi_type_contiguous_, mpi_type_contiguous_);

F_API void mpi_type_create_darray_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Datatype *a9, int *ierr);
void mpi_type_create_darray_(const int *a0, const int *a1, const int *a2, int *a3, int *a4, int *a5, int *a6, const int *a7, const int *a8, MPI_Datatype *a9, int *ierr)
{
	*ierr = MPI_Type_create_darray(*a0, *a1, *a2, a3, a4, a5, a6, *a7, *a8, a9);
}
F_ALIAS(pmpi_type_create_darray_, mpi_type_create_darray_);

F_API void mpi_type_create_f90_complex_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr);
void mpi_type_create_f90_complex_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr)
{
	*ierr = MPI_Type_create_f90_complex(*a0, *a1, a2);
}
F_ALIAS(pmpi_type_create_f90_complex_, mpi_type_create_f90_complex_);

F_API void mpi_type_create_f90_integer_(const int *a0, MPI_Datatype *a1, int *ierr);
void mpi_type_create_f90_integer_(const int *a0, MPI_Datatype *a1, int *ierr)
{
	*ierr = MPI_Type_create_f90_integer(*a0, a1);
}
F_ALIAS(pmpi_type_create_f90_integer_, mpi_type_create_f90_integer_);

F_API void mpi_type_create_f90_real_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr);
void mpi_type_create_f90_real_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr)
{
	*ierr = MPI_Type_create_f90_real(*a0, *a1, a2);
}
F_ALIAS(pmpi_type_create_f90_real_, mpi_type_create_f90_real_);

F_API void mpi_type_create_hindexed_(const int *a0, int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_create_hindexed_(const int *a0, int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_create_hindexed(*a0, a1, a2, *a3, a4);
}
F_ALIAS(pmpi_type_create_hindexed_, mpi_type_create_hindexed_);

F_API void mpi_type_create_hindexed_block_(const int *a0, const int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_create_hindexed_block_(const int *a0, const int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_create_hindexed_block(*a0, *a1, a2, *a3, a4);
}
F_ALIAS(pmpi_type_create_hindexed_block_, mpi_type_create_hindexed_block_);

F_API void mpi_type_create_hvector_(const int *a0, const int *a1, const MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_create_hvector_(const int *a0, const int *a1, const MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_create_hvector(*a0, *a1, *a2, *a3, a4);
}
F_ALIAS(pmpi_type_create_hvector_, mpi_type_create_hvector_);

F_API void mpi_type_create_indexed_block_(const int *a0, const int *a1, int *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_create_indexed_block_(const int *a0, const int *a1, int *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_create_indexed_block(*a0, *a1, a2, *a3, a4);
}
F_ALIAS(pmpi_type_create_indexed_block_, mpi_type_create_indexed_block_);

F_API void mpi_type_create_resized_(const int *a0, const MPI_Aint *a1, const MPI_Aint *a2, MPI_Datatype *a3, int *ierr);
void mpi_type_create_resized_(const int *a0, const MPI_Aint *a1, const MPI_Aint *a2, MPI_Datatype *a3, int *ierr)
{
	*ierr = MPI_Type_create_resized(*a0, *a1, *a2, a3);
}
F_ALIAS(pmpi_type_create_resized_, mpi_type_create_resized_);

F_API void mpi_type_create_struct_(const int *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_create_struct_(const int *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_create_struct(*a0, a1, a2, a3, a4);
}
F_ALIAS(pmpi_type_create_struct_, mpi_type_create_struct_);

F_API void mpi_type_create_subarray_(const int *a0, int *a1, int *a2, int *a3, const int *a4, const int *a5, MPI_Datatype *a6, int *ierr);
void mpi_type_create_subarray_(const int *a0, int *a1, int *a2, int *a3, const int *a4, const int *a5, MPI_Datatype *a6, int *ierr)
{
	*ierr = MPI_Type_create_subarray(*a0, a1, a2, a3, *a4, *a5, a6);
}
F_ALIAS(pmpi_type_create_subarray_, mpi_type_create_subarray_);

F_API void mpi_type_delete_attr_(const int *a0, const int *a1, int *ierr);
void mpi_type_delete_attr_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Type_delete_attr(*a0, *a1);
}
F_ALIAS(pmpi_type_delete_attr_, mpi_type_delete_attr_);

F_API void mpi_type_dup_(const int *a0, MPI_Datatype *a1, int *ierr);
void mpi_type_dup_(const int *a0, MPI_Datatype *a1, int *ierr)
{
	*ierr = MPI_Type_dup(*a0, a1);
}
F_ALIAS(pmpi_type_dup_, mpi_type_dup_);

F_API void mpi_type_extent_(const int *a0, MPI_Aint *a1, int *ierr);
void mpi_type_extent_(const int *a0, MPI_Aint *a1, int *ierr)
{
	*ierr = MPI_Type_extent(*a0, a1);
}
F_ALIAS(pmpi_type_extent_, mpi_type_extent_);

F_API void mpi_type_free_(MPI_Datatype *a0, int *ierr);
void mpi_type_free_(MPI_Datatype *a0, int *ierr)
{
	*ierr = MPI_Type_free(a0);
}
F_ALIAS(pmpi_type_free_, mpi_type_free_);

F_API void mpi_type_free_keyval_(int *a0, int *ierr);
void mpi_type_free_keyval_(int *a0, int *ierr)
{
	*ierr = MPI_Type_free_keyval(a0);
}
F_ALIAS(pmpi_type_free_keyval_, mpi_type_free_keyval_);

F_API void mpi_type_get_contents_(const int *a0, const int *a1, const int *a2, const int *a3, int *a4, MPI_Aint *a5, MPI_Datatype *a6, int *ierr);
void mpi_type_get_contents_(const int *a0, const int *a1, const int *a2, const int *a3, int *a4, MPI_Aint *a5, MPI_Datatype *a6, int *ierr)
{
	*ierr = MPI_Type_get_contents(*a0, *a1, *a2, *a3, a4, a5, a6);
}
F_ALIAS(pmpi_type_get_contents_, mpi_type_get_contents_);

F_API void mpi_type_get_envelope_(const int *a0, int *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_type_get_envelope_(const int *a0, int *a1, int *a2, int *a3, int *a4, int *ierr)
{
	*ierr = MPI_Type_get_envelope(*a0, a1, a2, a3, a4);
}
F_ALIAS(pmpi_type_get_envelope_, mpi_type_get_envelope_);

F_API void mpi_type_get_extent_(const int *a0, MPI_Aint *a1, MPI_Aint *a2, int *ierr);
void mpi_type_get_extent_(const int *a0, MPI_Aint *a1, MPI_Aint *a2, int *ierr)
{
	*ierr = MPI_Type_get_extent(*a0, a1, a2);
}
F_ALIAS(pmpi_type_get_extent_, mpi_type_get_extent_);

F_API void mpi_type_get_extent_x_(const int *a0, MPI_Count *a1, MPI_Count *a2, int *ierr);
void mpi_type_get_extent_x_(const int *a0, MPI_Count *a1, MPI_Count *a2, int *ierr)
{
	*ierr = MPI_Type_get_extent_x(*a0, a1, a2);
}
F_ALIAS(pmpi_type_get_extent_x_, mpi_type_get_extent_x_);

F_API void mpi_type_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1);
void mpi_type_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1)
{
	char *c1 = f_outbuf(l1);
	*ierr = MPI_Type_get_name(*a0, c1, a2);
	f_fstr(a1, l1, c1);
}
F_ALIAS(pmpi_type_get_name_, mpi_type_get_name_);

F_API void mpi_type_get_true_extent_(const int *a0, MPI_Aint *a1, MPI_Aint *a2, int *ierr);
void mpi_type_get_true_extent_(const int *a0, MPI_Aint *a1, MPI_Aint *a2, int *ierr)
{
	*ierr = MPI_Type_get_true_extent(*a0, a1, a2);
}
F_ALIAS(pmpi_type_get_true_extent_, mpi_type_get_true_extent_);

F_API void mpi_type_get_true_extent_x_(const int *a0, MPI_Count *a1, MPI_Count *a2, int *ierr);
void mpi_type_get_true_extent_x_(const int *a0, MPI_Count *a1, MPI_Count *a2, int *ierr)
{
	*ierr = MPI_Type_get_true_extent_x(*a0, a1, a2);
}
F_ALIAS(pmpi_type_get_true_extent_x_, mpi_type_get_true_extent_x_);

F_API void mpi_type_hindexed_(const int *a0, int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_hindexed_(const int *a0, int *a1, MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_hindexed(*a0, a1, a2, *a3, a4);
}
F_ALIAS(pmpi_type_hindexed_, mpi_type_hindexed_);

F_API void mpi_type_hvector_(const int *a0, const int *a1, const MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_hvector_(const int *a0, const int *a1, const MPI_Aint *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_hvector(*a0, *a1, *a2, *a3, a4);
}
F_ALIAS(pmpi_type_hvector_, mpi_type_hvector_);

F_API void mpi_type_indexed_(const int *a0, int *a1, int *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_indexed_(const int *a0, int *a1, int *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_indexed(*a0, a1, a2, *a3, a4);
}
F_ALIAS(pmpi_type_indexed_, mpi_type_indexed_);

F_API void mpi_type_lb_(const int *a0, MPI_Aint *a1, int *ierr);
void mpi_type_lb_(const int *a0, MPI_Aint *a1, int *ierr)
{
	*ierr = MPI_Type_lb(*a0, a1);
}
F_ALIAS(pmpi_type_lb_, mpi_type_lb_);

F_API void mpi_type_match_size_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr);
void mpi_type_match_size_(const int *a0, const int *a1, MPI_Datatype *a2, int *ierr)
{
	*ierr = MPI_Type_match_size(*a0, *a1, a2);
}
F_ALIAS(pmpi_type_match_size_, mpi_type_match_size_);

F_API void mpi_type_set_name_(const int *a0, const char *a1, int *ierr, size_t l1);
void mpi_type_set_name_(const int *a0, const char *a1, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Type_set_name(*a0, c1);
	free(c1);
}
F_ALIAS(pmpi_type_set_name_, mpi_type_set_name_);

F_API void mpi_type_size_(const int *a0, int *a1, int *ierr);
void mpi_type_size_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Type_size(*a0, a1);
}
F_ALIAS(pmpi_type_size_, mpi_type_size_);

F_API void mpi_type_size_x_(const int *a0, MPI_Count *a1, int *ierr);
void mpi_type_size_x_(const int *a0, MPI_Count *a1, int *ierr)
{
	*ierr = MPI_Type_size_x(*a0, a1);
}
F_ALIAS(pmpi_type_size_x_, mpi_type_size_x_);

F_API void mpi_type_struct_(const int *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_struct_(const int *a0, int *a1, MPI_Aint *a2, MPI_Datatype *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_struct(*a0, a1, a2, a3, a4);
}
F_ALIAS(pmpi_type_struct_, mpi_type_struct_);

F_API void mpi_type_ub_(const int *a0, MPI_Aint *a1, int *ierr);
void mpi_type_ub_(const int *a0, MPI_Aint *a1, int *ierr)
{
	*ierr = MPI_Type_ub(*a0, a1);
}
F_ALIAS(pmpi_type_ub_, mpi_type_ub_);

F_API void mpi_type_vector_(const int *a0, const int *a1, const int *a2, const int *a3, MPI_Datatype *a4, int *ierr);
void mpi_type_vector_(const int *a0, const int *a1, const int *a2, const int *a3, MPI_Datatype *a4, int *ierr)
{
	*ierr = MPI_Type_vector(*a0, *a1, *a2, *a3, a4);
}
F_ALIAS(pmpi_type_vector_, mpi_type_vector_);

F_API void mpi_unpack_(const void *a0, const int *a1, int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr);
void mpi_unpack_(const void *a0, const int *a1, int *a2, void *a3, const int *a4, const int *a5, const int *a6, int *ierr)
{
	*ierr = MPI_Unpack(F_BUF(a0), *a1, a2, F_BUF(a3), *a4, *a5, *a6);
}
F_ALIAS(pmpi_unpack_, mpi_unpack_);

F_API void mpi_unpack_external_(const char *a0, const void *a1, const MPI_Aint *a2, MPI_Aint *a3, void *a4, const int *a5, const int *a6, int *ierr, size_t l0);
void mpi_unpack_external_(const char *a0, const void *a1, const MPI_Aint *a2, MPI_Aint *a3, void *a4, const int *a5, const int *a6, int *ierr, size_t l0)
{
	char *c0 = f_cstr(a0, l0);
	*ierr = MPI_Unpack_external(c0, F_BUF(a1), *a2, a3, F_BUF(a4), *a5, *a6);
	free(c0);
}
F_ALIAS(pmpi_unpack_external_, mpi_unpack_external_);

F_API void mpi_unpublish_name_(const char *a0, const int *a1, const char *a2, int *ierr, size_t l0, size_t l2);
void mpi_unpublish_name_(const char *a0, const int *a1, const char *a2, int *ierr, size_t l0, size_t l2)
{
	char *c0 = f_cstr(a0, l0);
	char *c2 = f_cstr(a2, l2);
	*ierr = MPI_Unpublish_name(c0, *a1, c2);
	free(c0);
	free(c2);
}
F_ALIAS(pmpi_unpublish_name_, mpi_unpublish_name_);

F_API void mpi_wait_(MPI_Request *a0, int *a1, int *ierr);
void mpi_wait_(MPI_Request *a0, int *a1, int *ierr)
{
	MPI_Status s1_, *s1 = F_STATUS(a1, &s1_);
	*ierr = MPI_Wait(a0, s1);
	F_STATUS_OUT(a1, s1);
}
F_ALIAS(pmpi_wait_, mpi_wait_);

F_API void mpi_waitall_(const int *a0, MPI_Request *a1, int *a2, int *ierr);
void mpi_waitall_(const int *a0, MPI_Request *a1, int *a2, int *ierr)
{
	int n2 = *a0;
	MPI_Status *s2 = f_statuses(a2, n2);
	*ierr = MPI_Waitall(*a0, a1, s2);
	f_statuses_out(a2, s2, n2);
}
F_ALIAS(pmpi_waitall_, mpi_waitall_);

F_API void mpi_waitany_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *ierr);
void mpi_waitany_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *ierr)
{
	MPI_Status s3_, *s3 = F_STATUS(a3, &s3_);
	*ierr = MPI_Waitany(*a0, a1, a2, s3);
	if (*a2 >= 0) (*a2)++;
	F_STATUS_OUT(a3, s3);
}
F_ALIAS(pmpi_waitany_, mpi_waitany_);

F_API void mpi_waitsome_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr);
void mpi_waitsome_(const int *a0, MPI_Request *a1, int *a2, int *a3, int *a4, int *ierr)
{
	int n4 = *a0;
	MPI_Status *s4 = f_statuses(a4, n4);
	*ierr = MPI_Waitsome(*a0, a1, a2, a3, s4);
	for (int i = 0; *ierr == MPI_SUCCESS && *a2 != MPI_UNDEFINED && i < *a2; i++) a3[i]++;
	f_statuses_out(a4, s4, n4);
}
F_ALIAS(pmpi_waitsome_, mpi_waitsome_);

F_API void mpi_win_allocate_(const MPI_Aint *a0, const int *a1, const int *a2, const int *a3, void *a4, MPI_Win *a5, int *ierr);
void mpi_win_allocate_(const MPI_Aint *a0, const int *a1, const int *a2, const int *a3, void *a4, MPI_Win *a5, int *ierr)
{
	*ierr = MPI_Win_allocate(*a0, *a1, *a2, *a3, F_BUF(a4), a5);
}
F_ALIAS(pmpi_win_allocate_, mpi_win_allocate_);

F_API void mpi_win_allocate_shared_(const MPI_Aint *a0, const int *a1, const int *a2, const int *a3, void *a4, MPI_Win *a5, int *ierr);
void mpi_win_allocate_shared_(const MPI_Aint *a0, const int *a1, const int *a2, const int *a3, void *a4, MPI_Win *a5, int *ierr)
{
	*ierr = MPI_Win_allocate_shared(*a0, *a1, *a2, *a3, F_BUF(a4), a5);
}
F_ALIAS(pmpi_win_allocate_shared_, mpi_win_allocate_shared_);

F_API void mpi_win_attach_(const int *a0, void *a1, const MPI_Aint *a2, int *ierr);
void mpi_win_attach_(const int *a0, void *a1, const MPI_Aint *a2, int *ierr)
{
	*ierr = MPI_Win_attach(*a0, F_BUF(a1), *a2);
}
F_ALIAS(pmpi_win_attach_, mpi_win_attach_);

F_API void mpi_win_call_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_win_call_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_call_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_win_call_errhandler_, mpi_win_call_errhandler_);

F_API void mpi_win_complete_(const int *a0, int *ierr);
void mpi_win_complete_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_complete(*a0);
}
F_ALIAS(pmpi_win_complete_, mpi_win_complete_);

F_API void mpi_win_create_(void *a0, const MPI_Aint *a1, const int *a2, const int *a3, const int *a4, MPI_Win *a5, int *ierr);
void mpi_win_create_(void *a0, const MPI_Aint *a1, const int *a2, const int *a3, const int *a4, MPI_Win *a5, int *ierr)
{
	*ierr = MPI_Win_create(F_BUF(a0), *a1, *a2, *a3, *a4, a5);
}
F_ALIAS(pmpi_win_create_, mpi_win_create_);

F_API void mpi_win_create_dynamic_(const int *a0, const int *a1, MPI_Win *a2, int *ierr);
void mpi_win_create_dynamic_(const int *a0, const int *a1, MPI_Win *a2, int *ierr)
{
	*ierr = MPI_Win_create_dynamic(*a0, *a1, a2);
}
F_ALIAS(pmpi_win_create_dynamic_, mpi_win_create_dynamic_);

F_API void mpi_win_create_errhandler_(MPI_Win_errhandler_function *a0, MPI_Errhandler *a1, int *ierr);
void mpi_win_create_errhandler_(MPI_Win_errhandler_function *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Win_create_errhandler(a0, a1);
}
F_ALIAS(pmpi_win_create_errhandler_, mpi_win_create_errhandler_);

F_API void mpi_win_delete_attr_(const int *a0, const int *a1, int *ierr);
void mpi_win_delete_attr_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_delete_attr(*a0, *a1);
}
F_ALIAS(pmpi_win_delete_attr_, mpi_win_delete_attr_);

F_API void mpi_win_detach_(const int *a0, const void *a1, int *ierr);
void mpi_win_detach_(const int *a0, const void *a1, int *ierr)
{
	*ierr = MPI_Win_detach(*a0, F_BUF(a1));
}
F_ALIAS(pmpi_win_detach_, mpi_win_detach_);

F_API void mpi_win_fence_(const int *a0, const int *a1, int *ierr);
void mpi_win_fence_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_fence(*a0, *a1);
}
F_ALIAS(pmpi_win_fence_, mpi_win_fence_);

F_API void mpi_win_flush_(const int *a0, const int *a1, int *ierr);
void mpi_win_flush_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_flush(*a0, *a1);
}
F_ALIAS(pmpi_win_flush_, mpi_win_flush_);

F_API void mpi_win_flush_all_(const int *a0, int *ierr);
void mpi_win_flush_all_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_flush_all(*a0);
}
F_ALIAS(pmpi_win_flush_all_, mpi_win_flush_all_);

F_API void mpi_win_flush_local_(const int *a0, const int *a1, int *ierr);
void mpi_win_flush_local_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_flush_local(*a0, *a1);
}
F_ALIAS(pmpi_win_flush_local_, mpi_win_flush_local_);

F_API void mpi_win_flush_local_all_(const int *a0, int *ierr);
void mpi_win_flush_local_all_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_flush_local_all(*a0);
}
F_ALIAS(pmpi_win_flush_local_all_, mpi_win_flush_local_all_);

F_API void mpi_win_free_(MPI_Win *a0, int *ierr);
void mpi_win_free_(MPI_Win *a0, int *ierr)
{
	*ierr = MPI_Win_free(a0);
}
F_ALIAS(pmpi_win_free_, mpi_win_free_);

F_API void mpi_win_free_keyval_(int *a0, int *ierr);
void mpi_win_free_keyval_(int *a0, int *ierr)
{
	*ierr = MPI_Win_free_keyval(a0);
}
F_ALIAS(pmpi_win_free_keyval_, mpi_win_free_keyval_);

F_API void mpi_win_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr);
void mpi_win_get_errhandler_(const int *a0, MPI_Errhandler *a1, int *ierr)
{
	*ierr = MPI_Win_get_errhandler(*a0, a1);
}
F_ALIAS(pmpi_win_get_errhandler_, mpi_win_get_errhandler_);

F_API void mpi_win_get_group_(const int *a0, MPI_Group *a1, int *ierr);
void mpi_win_get_group_(const int *a0, MPI_Group *a1, int *ierr)
{
	*ierr = MPI_Win_get_group(*a0, a1);
}
F_ALIAS(pmpi_win_get_group_, mpi_win_get_group_);

F_API void mpi_win_get_info_(const int *a0, MPI_Info *a1, int *ierr);
void mpi_win_get_info_(const int *a0, MPI_Info *a1, int *ierr)
{
	*ierr = MPI_Win_get_info(*a0, a1);
}
F_ALIAS(pmpi_win_get_info_, mpi_win_get_info_);

F_API void mpi_win_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1);
void mpi_win_get_name_(const int *a0, char *a1, int *a2, int *ierr, size_t l1)
{
	char *c1 = f_outbuf(l1);
	*ierr = MPI_Win_get_name(*a0, c1, a2);
	f_fstr(a1, l1, c1);
}
F_ALIAS(pmpi_win_get_name_, mpi_win_get_name_);

F_API void mpi_win_lock_(const int *a0, const int *a1, const int *a2, const int *a3, int *ierr);
void mpi_win_lock_(const int *a0, const int *a1, const int *a2, const int *a3, int *ierr)
{
	*ierr = MPI_Win_lock(*a0, *a1, *a2, *a3);
}
F_ALIAS(pmpi_win_lock_, mpi_win_lock_);

F_API void mpi_win_lock_all_(const int *a0, const int *a1, int *ierr);
void mpi_win_lock_all_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_lock_all(*a0, *a1);
}
F_ALIAS(pmpi_win_lock_all_, mpi_win_lock_all_);

F_API void mpi_win_post_(const int *a0, const int *a1, const int *a2, int *ierr);
void mpi_win_post_(const int *a0, const int *a1, const int *a2, int *ierr)
{
	*ierr = MPI_Win_post(*a0, *a1, *a2);
}
F_ALIAS(pmpi_win_post_, mpi_win_post_);

F_API void mpi_win_set_errhandler_(const int *a0, const int *a1, int *ierr);
void mpi_win_set_errhandler_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_set_errhandler(*a0, *a1);
}
F_ALIAS(pmpi_win_set_errhandler_, mpi_win_set_errhandler_);

F_API void mpi_win_set_info_(const int *a0, const int *a1, int *ierr);
void mpi_win_set_info_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_set_info(*a0, *a1);
}
F_ALIAS(pmpi_win_set_info_, mpi_win_set_info_);

F_API void mpi_win_set_name_(const int *a0, const char *a1, int *ierr, size_t l1);
void mpi_win_set_name_(const int *a0, const char *a1, int *ierr, size_t l1)
{
	char *c1 = f_cstr(a1, l1);
	*ierr = MPI_Win_set_name(*a0, c1);
	free(c1);
}
F_ALIAS(pmpi_win_set_name_, mpi_win_set_name_);

F_API void mpi_win_shared_query_(const int *a0, const int *a1, MPI_Aint *a2, int *a3, void *a4, int *ierr);
void mpi_win_shared_query_(const int *a0, const int *a1, MPI_Aint *a2, int *a3, void *a4, int *ierr)
{
	*ierr = MPI_Win_shared_query(*a0, *a1, a2, a3, F_BUF(a4));
}
F_ALIAS(pmpi_win_shared_query_, mpi_win_shared_query_);

F_API void mpi_win_start_(const int *a0, const int *a1, const int *a2, int *ierr);
void mpi_win_start_(const int *a0, const int *a1, const int *a2, int *ierr)
{
	*ierr = MPI_Win_start(*a0, *a1, *a2);
}
F_ALIAS(pmpi_win_start_, mpi_win_start_);

F_API void mpi_win_sync_(const int *a0, int *ierr);
void mpi_win_sync_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_sync(*a0);
}
F_ALIAS(pmpi_win_sync_, mpi_win_sync_);

F_API void mpi_win_test_(const int *a0, int *a1, int *ierr);
void mpi_win_test_(const int *a0, int *a1, int *ierr)
{
	*ierr = MPI_Win_test(*a0, a1);
}
F_ALIAS(pmpi_win_test_, mpi_win_test_);

F_API void mpi_win_unlock_(const int *a0, const int *a1, int *ierr);
void mpi_win_unlock_(const int *a0, const int *a1, int *ierr)
{
	*ierr = MPI_Win_unlock(*a0, *a1);
}
F_ALIAS(pmpi_win_unlock_, mpi_win_unlock_);

F_API void mpi_win_unlock_all_(const int *a0, int *ierr);
void mpi_win_unlock_all_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_unlock_all(*a0);
}
F_ALIAS(pmpi_win_unlock_all_, mpi_win_unlock_all_);

F_API void mpi_win_wait_(const int *a0, int *ierr);
void mpi_win_wait_(const int *a0, int *ierr)
{
	*ierr = MPI_Win_wait(*a0);
}
F_ALIAS(pmpi_win_wait_, mpi_win_wait_);
