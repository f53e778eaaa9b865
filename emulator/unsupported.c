/*
 * unsupported.c -- the MPI-3.1 routines that Sibyl does not emulate.
 *
 * Each is declared by <mpi.h> (include/sibyl_mpi_more.h), so that a
 * program calling it compiles and links against Sibyl, never against
 * another MPI library, and each reports MPI_ERR_UNSUPPORTED_OPERATION at
 * the call, naming itself and the reason, through the error handler of
 * MPI_COMM_WORLD: under MPI_ERRORS_ARE_FATAL the run stops with
 *
 *   sibyl: rank 0 in MPI_File_open: MPI_ERR_UNSUPPORTED_OPERATION: ...
 *
 * and under MPI_ERRORS_RETURN the call returns that class.  The bodies
 * were generated from the list of MPI-3.1 routines; docs/emulator.md's
 * table lists every routine as emulated or not, with these reasons.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "emu_private.h"

#define WHY_DPM "dynamic process management (spawn, ports, published " \
	"names) is not emulated: a Sibyl job has the virtual ranks it " \
	"started with"
#define WHY_IDUP "non-blocking communicator duplication is not " \
	"emulated yet; MPI_Comm_dup does the same, blocking"
#define WHY_IO "MPI-IO is not emulated: a trace has no model of a file " \
	"system; keep the program's I/O out of the emulated run, or use " \
	"the C library's"
#define WHY_DYNAMIC "dynamic windows (memory attached after creation) " \
	"are not emulated; create the window over its memory with " \
	"MPI_Win_create or MPI_Win_allocate"
#define WHY_SHARED "shared-memory windows are not emulated: ranks of a " \
	"Sibyl run may live in different processes; use MPI_Win_allocate"
#define WHY_WATTR "attributes of the program's own on windows are not " \
	"emulated; MPI_Win_get_attr gives the predefined ones"
#define WHY_TOOL "the MPI tool information interface (MPI_T) is not " \
	"provided"

static int unsupported(const char *call, const char *why)
{
	EMU_API(r, call);
	return emu_mpi_error(r, call, MPI_ERR_UNSUPPORTED_OPERATION,
			     "not emulated by this version of Sibyl: %s", why);
}

/* The parameters are unused on purpose. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

int MPI_Close_port(const char *port_name)
{
	return unsupported("MPI_Close_port", WHY_DPM);
}

int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
	            MPI_Comm comm, MPI_Comm *newcomm)
{
	return unsupported("MPI_Comm_accept", WHY_DPM);
}

int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
	             MPI_Comm comm, MPI_Comm *newcomm)
{
	return unsupported("MPI_Comm_connect", WHY_DPM);
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
	return unsupported("MPI_Comm_disconnect", WHY_DPM);
}

int MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
	return unsupported("MPI_Comm_join", WHY_DPM);
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
	           MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm,
	           int array_of_errcodes[])
{
	return unsupported("MPI_Comm_spawn", WHY_DPM);
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[],
	                    char **array_of_argv[], const int array_of_maxprocs[],
	                    const MPI_Info array_of_info[], int root, MPI_Comm comm,
	                    MPI_Comm *intercomm, int array_of_errcodes[])
{
	return unsupported("MPI_Comm_spawn_multiple", WHY_DPM);
}

int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
	return unsupported("MPI_Lookup_name", WHY_DPM);
}

int MPI_Open_port(MPI_Info info, char *port_name)
{
	return unsupported("MPI_Open_port", WHY_DPM);
}

int MPI_Publish_name(const char *service_name, MPI_Info info,
	             const char *port_name)
{
	return unsupported("MPI_Publish_name", WHY_DPM);
}

int MPI_Unpublish_name(const char *service_name, MPI_Info info,
	               const char *port_name)
{
	return unsupported("MPI_Unpublish_name", WHY_DPM);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	return unsupported("MPI_Comm_idup", WHY_IDUP);
}

int MPI_File_call_errhandler(MPI_File fh, int errorcode)
{
	return unsupported("MPI_File_call_errhandler", WHY_IO);
}

int MPI_File_close(MPI_File *fh)
{
	return unsupported("MPI_File_close", WHY_IO);
}

int MPI_File_create_errhandler(MPI_File_errhandler_function *function,
		MPI_Errhandler *errhandler)
{
	return unsupported("MPI_File_create_errhandler", WHY_IO);
}

int MPI_File_delete(const char *filename, MPI_Info info)
{
	return unsupported("MPI_File_delete", WHY_IO);
}

int MPI_File_get_amode(MPI_File fh, int *amode)
{
	return unsupported("MPI_File_get_amode", WHY_IO);
}

int MPI_File_get_atomicity(MPI_File fh, int *flag)
{
	return unsupported("MPI_File_get_atomicity", WHY_IO);
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
	return unsupported("MPI_File_get_byte_offset", WHY_IO);
}

int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
	return unsupported("MPI_File_get_errhandler", WHY_IO);
}

int MPI_File_get_group(MPI_File fh, MPI_Group *group)
{
	return unsupported("MPI_File_get_group", WHY_IO);
}

int MPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
	return unsupported("MPI_File_get_info", WHY_IO);
}

int MPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
	return unsupported("MPI_File_get_position", WHY_IO);
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	return unsupported("MPI_File_get_position_shared", WHY_IO);
}

int MPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
	return unsupported("MPI_File_get_size", WHY_IO);
}

int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
	                     MPI_Aint *extent)
{
	return unsupported("MPI_File_get_type_extent", WHY_IO);
}

int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
	              MPI_Datatype *filetype, char *datarep)
{
	return unsupported("MPI_File_get_view", WHY_IO);
}

int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
	           MPI_Request *request)
{
	return unsupported("MPI_File_iread", WHY_IO);
}

int MPI_File_iread_all(MPI_File fh, void *buf, int count,
	               MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iread_all", WHY_IO);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
	              MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iread_at", WHY_IO);
}

int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
	                  int count, MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iread_at_all", WHY_IO);
}

int MPI_File_iread_shared(MPI_File fh, void *buf, int count,
	                  MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iread_shared", WHY_IO);
}

int MPI_File_iwrite(MPI_File fh, const void *buf, int count,
	            MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iwrite", WHY_IO);
}

int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
	                MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iwrite_all", WHY_IO);
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
	               int count, MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iwrite_at", WHY_IO);
}

int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
	                   int count, MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iwrite_at_all", WHY_IO);
}

int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
	                   MPI_Datatype datatype, MPI_Request *request)
{
	return unsupported("MPI_File_iwrite_shared", WHY_IO);
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode,
	          MPI_Info info, MPI_File *fh)
{
	return unsupported("MPI_File_open", WHY_IO);
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
	return unsupported("MPI_File_preallocate", WHY_IO);
}

int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
	          MPI_Status *status)
{
	return unsupported("MPI_File_read", WHY_IO);
}

int MPI_File_read_all(MPI_File fh, void *buf, int count,
	              MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_read_all", WHY_IO);
}

int MPI_File_read_all_begin(MPI_File fh, void *buf, int count,
	                    MPI_Datatype datatype)
{
	return unsupported("MPI_File_read_all_begin", WHY_IO);
}

int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return unsupported("MPI_File_read_all_end", WHY_IO);
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
	             MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_read_at", WHY_IO);
}

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
	                 MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_read_at_all", WHY_IO);
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
		int count, MPI_Datatype datatype)
{
	return unsupported("MPI_File_read_at_all_begin", WHY_IO);
}

int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return unsupported("MPI_File_read_at_all_end", WHY_IO);
}

int MPI_File_read_ordered(MPI_File fh, void *buf, int count,
	                  MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_read_ordered", WHY_IO);
}

int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
		MPI_Datatype datatype)
{
	return unsupported("MPI_File_read_ordered_begin", WHY_IO);
}

int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	return unsupported("MPI_File_read_ordered_end", WHY_IO);
}

int MPI_File_read_shared(MPI_File fh, void *buf, int count,
	                 MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_read_shared", WHY_IO);
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
	return unsupported("MPI_File_seek", WHY_IO);
}

int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	return unsupported("MPI_File_seek_shared", WHY_IO);
}

int MPI_File_set_atomicity(MPI_File fh, int flag)
{
	return unsupported("MPI_File_set_atomicity", WHY_IO);
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
	return unsupported("MPI_File_set_errhandler", WHY_IO);
}

int MPI_File_set_info(MPI_File fh, MPI_Info info)
{
	return unsupported("MPI_File_set_info", WHY_IO);
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
	return unsupported("MPI_File_set_size", WHY_IO);
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
	              MPI_Datatype filetype, const char *datarep, MPI_Info info)
{
	return unsupported("MPI_File_set_view", WHY_IO);
}

int MPI_File_sync(MPI_File fh)
{
	return unsupported("MPI_File_sync", WHY_IO);
}

int MPI_File_write(MPI_File fh, const void *buf, int count,
	           MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write", WHY_IO);
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count,
	               MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write_all", WHY_IO);
}

int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
	                     MPI_Datatype datatype)
{
	return unsupported("MPI_File_write_all_begin", WHY_IO);
}

int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	return unsupported("MPI_File_write_all_end", WHY_IO);
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
	              int count, MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write_at", WHY_IO);
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
	                  int count, MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write_at_all", WHY_IO);
}

int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
		const void *buf, int count, MPI_Datatype datatype)
{
	return unsupported("MPI_File_write_at_all_begin", WHY_IO);
}

int MPI_File_write_at_all_end(MPI_File fh, const void *buf,
	                      MPI_Status *status)
{
	return unsupported("MPI_File_write_at_all_end", WHY_IO);
}

int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
	                   MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write_ordered", WHY_IO);
}

int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
		MPI_Datatype datatype)
{
	return unsupported("MPI_File_write_ordered_begin", WHY_IO);
}

int MPI_File_write_ordered_end(MPI_File fh, const void *buf,
		MPI_Status *status)
{
	return unsupported("MPI_File_write_ordered_end", WHY_IO);
}

int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
	                  MPI_Datatype datatype, MPI_Status *status)
{
	return unsupported("MPI_File_write_shared", WHY_IO);
}

int MPI_Register_datarep(const char *datarep,
	                 MPI_Datarep_conversion_function *read_conversion_fn,
	                 MPI_Datarep_conversion_function *write_conversion_fn,
	                 MPI_Datarep_extent_function *dtype_file_extent_fn,
	                 void *extra_state)
{
	return unsupported("MPI_Register_datarep", WHY_IO);
}





int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
	                  MPI_Win_delete_attr_function *win_delete_attr_fn,
	                  int *win_keyval, void *extra_state)
{
	return unsupported("MPI_Win_create_keyval", WHY_WATTR);
}

int MPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
	return unsupported("MPI_Win_delete_attr", WHY_WATTR);
}

int MPI_Win_free_keyval(int *win_keyval)
{
	return unsupported("MPI_Win_free_keyval", WHY_WATTR);
}

int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
	return unsupported("MPI_Win_set_attr", WHY_WATTR);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
	                    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	return unsupported("MPI_Win_allocate_shared", WHY_SHARED);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	return unsupported("MPI_Win_create_dynamic", WHY_DYNAMIC);
}

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	return unsupported("MPI_Win_attach", WHY_DYNAMIC);
}

int MPI_Win_detach(MPI_Win win, const void *base)
{
	return unsupported("MPI_Win_detach", WHY_DYNAMIC);
}










int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
	                 int *disp_unit, void *baseptr)
{
	return unsupported("MPI_Win_shared_query", WHY_SHARED);
}

int MPI_T_category_changed(int *stamp)
{
	return unsupported("MPI_T_category_changed", WHY_TOOL);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[])
{
	return unsupported("MPI_T_category_get_categories", WHY_TOOL);
}

int MPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
	return unsupported("MPI_T_category_get_cvars", WHY_TOOL);
}

int MPI_T_category_get_index(const char *name, int *category_index)
{
	return unsupported("MPI_T_category_get_index", WHY_TOOL);
}

int MPI_T_category_get_info(int cat_index, char *name, int *name_len,
	                    char *desc, int *desc_len, int *num_cvars,
	                    int *num_pvars, int *num_categories)
{
	return unsupported("MPI_T_category_get_info", WHY_TOOL);
}

int MPI_T_category_get_num(int *num_cat)
{
	return unsupported("MPI_T_category_get_num", WHY_TOOL);
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
	return unsupported("MPI_T_category_get_pvars", WHY_TOOL);
}

int MPI_T_cvar_get_index(const char *name, int *cvar_index)
{
	return unsupported("MPI_T_cvar_get_index", WHY_TOOL);
}

int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
	                int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype,
	                char *desc, int *desc_len, int *bind, int *scope)
{
	return unsupported("MPI_T_cvar_get_info", WHY_TOOL);
}

int MPI_T_cvar_get_num(int *num_cvar)
{
	return unsupported("MPI_T_cvar_get_num", WHY_TOOL);
}

int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
	                    MPI_T_cvar_handle *handle, int *count)
{
	return unsupported("MPI_T_cvar_handle_alloc", WHY_TOOL);
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
	return unsupported("MPI_T_cvar_handle_free", WHY_TOOL);
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
	return unsupported("MPI_T_cvar_read", WHY_TOOL);
}

int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
	return unsupported("MPI_T_cvar_write", WHY_TOOL);
}

int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
	                int *name_len)
{
	return unsupported("MPI_T_enum_get_info", WHY_TOOL);
}

int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
	                char *name, int *name_len)
{
	return unsupported("MPI_T_enum_get_item", WHY_TOOL);
}

int MPI_T_finalize(void)
{
	return unsupported("MPI_T_finalize", WHY_TOOL);
}

int MPI_T_init_thread(int required, int *provided)
{
	return unsupported("MPI_T_init_thread", WHY_TOOL);
}

int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
	return unsupported("MPI_T_pvar_get_index", WHY_TOOL);
}

int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
	                int *verbosity, int *var_class, MPI_Datatype *datatype,
	                MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
	                int *readonly, int *continuous, int *atomic)
{
	return unsupported("MPI_T_pvar_get_info", WHY_TOOL);
}

int MPI_T_pvar_get_num(int *num_pvar)
{
	return unsupported("MPI_T_pvar_get_num", WHY_TOOL);
}

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
	                    void *obj_handle, MPI_T_pvar_handle *handle, int *count)
{
	return unsupported("MPI_T_pvar_handle_alloc", WHY_TOOL);
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session session,
	                   MPI_T_pvar_handle *handle)
{
	return unsupported("MPI_T_pvar_handle_free", WHY_TOOL);
}

int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	            void *buf)
{
	return unsupported("MPI_T_pvar_read", WHY_TOOL);
}

int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	                 void *buf)
{
	return unsupported("MPI_T_pvar_readreset", WHY_TOOL);
}

int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	return unsupported("MPI_T_pvar_reset", WHY_TOOL);
}

int MPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
	return unsupported("MPI_T_pvar_session_create", WHY_TOOL);
}

int MPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
	return unsupported("MPI_T_pvar_session_free", WHY_TOOL);
}

int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	return unsupported("MPI_T_pvar_start", WHY_TOOL);
}

int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
	return unsupported("MPI_T_pvar_stop", WHY_TOOL);
}

int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	             const void *buf)
{
	return unsupported("MPI_T_pvar_write", WHY_TOOL);
}
