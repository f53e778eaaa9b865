/*
 * sibyl_mpi_more.h -- Sibyl's MPI for emulated ranks: the rest of the
 * MPI-3.1 routines.  Included by <mpi.h>; not to be included directly.
 *
 * Every routine of MPI-3.1 is declared by Sibyl's <mpi.h>, so that no call
 * of a program can bind to another MPI library's routine of the same name
 * (the runtime keeps Open MPI out of the program's scope as well:
 * emulator/trload.c).  This header holds, first, routines that work
 * (handle conversions, status setters, the MPI-1 error-handler names,
 * MPI_Pcontrol, MPI_Request_get_status, MPI_Comm_get_parent, info
 * objects, more datatype routines, matched probes), then the
 * routines Sibyl does not emulate: each of them reports
 * MPI_ERR_UNSUPPORTED_OPERATION at the call, naming itself and why,
 * through the communicator's error handler (the run stops with the
 * message under MPI_ERRORS_ARE_FATAL).  docs/emulator.md has the table of
 * every routine.  The unsupported part is generated from the list of
 * MPI-3.1 routines (emulator/unsupported.c holds their bodies).
 */
#ifndef SIBYL_MPI_MORE_H
#define SIBYL_MPI_MORE_H

/* ------------------------------------------------------------- types */

typedef int MPI_Fint;
typedef int MPI_File;
typedef int MPI_Message;
typedef struct sibyl_mpi_t_enum *MPI_T_enum;
typedef struct sibyl_mpi_t_cvar *MPI_T_cvar_handle;
typedef struct sibyl_mpi_t_pvar *MPI_T_pvar_handle;
typedef struct sibyl_mpi_t_session *MPI_T_pvar_session;

typedef void MPI_Handler_function(MPI_Comm *comm, int *error_code, ...);
typedef void MPI_File_errhandler_function(MPI_File *file, int *error_code,
					  ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code,
					 ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype,
					int type_keyval, void *extra_state,
					void *attribute_val_in,
					void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype,
					  int type_keyval,
					  void *attribute_val,
					  void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval,
				       void *extra_state,
				       void *attribute_val_in,
				       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval,
					 void *attribute_val,
					 void *extra_state);
typedef int MPI_Grequest_query_function(void *extra_state,
					MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype,
					MPI_Aint *file_extent,
					void *extra_state);
typedef int MPI_Datarep_conversion_function(void *userbuf,
					    MPI_Datatype datatype, int count,
					    void *filebuf, MPI_Offset position,
					    void *extra_state);

/* --------------------------------------------------------- constants */

#define MPI_FILE_NULL      0
#define MPI_MESSAGE_NULL   0
#define MPI_MESSAGE_NO_PROC (-1)
#define MPI_ARGV_NULL      ((char **)0)
#define MPI_ARGVS_NULL     ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)
#define MPI_MAX_PORT_NAME  1024
#define MPI_MAX_INFO_KEY   36
#define MPI_MAX_INFO_VAL   256
#define MPI_INFO_ENV       1        /* predefined, empty */
#define MPI_MAX_DATAREP_STRING 128
/* File modes (the one-sided assertions MPI_MODE_NO* use other bits). */
#define MPI_MODE_CREATE          1
#define MPI_MODE_RDONLY          2
#define MPI_MODE_WRONLY          4
#define MPI_MODE_RDWR            8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN     32
#define MPI_MODE_EXCL            64
#define MPI_MODE_APPEND          128
#define MPI_MODE_SEQUENTIAL      256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)
#define MPI_ORDER_C       56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK     121
#define MPI_DISTRIBUTE_CYCLIC    122
#define MPI_DISTRIBUTE_NONE      123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
#define MPI_TYPECLASS_INTEGER 1
#define MPI_TYPECLASS_REAL    2
#define MPI_TYPECLASS_COMPLEX 3
/* The constructors MPI_Type_get_envelope names (MPICH's numbers).  The
 * three _INTEGER ones are MPI-2's, removed in MPI-3.0: never returned,
 * defined for older programs that test for them. */
#define MPI_COMBINER_NAMED            1
#define MPI_COMBINER_DUP              2
#define MPI_COMBINER_CONTIGUOUS       3
#define MPI_COMBINER_VECTOR           4
#define MPI_COMBINER_HVECTOR_INTEGER  5
#define MPI_COMBINER_HVECTOR          6
#define MPI_COMBINER_INDEXED          7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED         9
#define MPI_COMBINER_INDEXED_BLOCK    10
#define MPI_COMBINER_STRUCT_INTEGER   11
#define MPI_COMBINER_STRUCT           12
#define MPI_COMBINER_SUBARRAY         13
#define MPI_COMBINER_DARRAY           14
#define MPI_COMBINER_F90_REAL         15
#define MPI_COMBINER_F90_COMPLEX      16
#define MPI_COMBINER_F90_INTEGER      17
#define MPI_COMBINER_RESIZED          18
#define MPI_COMBINER_HINDEXED_BLOCK   19
/* Datatype attribute callbacks: no copy, copy the value, no action (the
 * communicator's functions: MPI_Datatype and MPI_Comm are both int). */
#define MPI_TYPE_NULL_COPY_FN   SIBYL_MPI_COMM_NULL_COPY_FN
#define MPI_TYPE_DUP_FN         SIBYL_MPI_COMM_DUP_FN
#define MPI_TYPE_NULL_DELETE_FN SIBYL_MPI_COMM_NULL_DELETE_FN

/* ------------------------------------------------- routines that work */

#define MPI_Pcontrol SIBYL_MPI_Pcontrol
#define PMPI_Pcontrol SIBYL_MPI_Pcontrol
#define MPI_Request_get_status SIBYL_MPI_Request_get_status
#define PMPI_Request_get_status SIBYL_MPI_Request_get_status
#define MPI_Status_set_cancelled SIBYL_MPI_Status_set_cancelled
#define PMPI_Status_set_cancelled SIBYL_MPI_Status_set_cancelled
#define MPI_Status_set_elements SIBYL_MPI_Status_set_elements
#define PMPI_Status_set_elements SIBYL_MPI_Status_set_elements
#define MPI_Status_set_elements_x SIBYL_MPI_Status_set_elements_x
#define PMPI_Status_set_elements_x SIBYL_MPI_Status_set_elements_x
#define MPI_Comm_get_parent SIBYL_MPI_Comm_get_parent
#define PMPI_Comm_get_parent SIBYL_MPI_Comm_get_parent
#define MPI_Errhandler_create SIBYL_MPI_Errhandler_create
#define PMPI_Errhandler_create SIBYL_MPI_Errhandler_create
#define MPI_Errhandler_get SIBYL_MPI_Errhandler_get
#define PMPI_Errhandler_get SIBYL_MPI_Errhandler_get
#define MPI_Errhandler_set SIBYL_MPI_Errhandler_set
#define PMPI_Errhandler_set SIBYL_MPI_Errhandler_set
int MPI_Pcontrol(const int level, ...);
int MPI_Request_get_status(MPI_Request request, int *flag,
			   MPI_Status *status);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype,
			    int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype,
			      MPI_Count count);
/* No process of a Sibyl job was spawned: MPI_COMM_NULL. */
int MPI_Comm_get_parent(MPI_Comm *parent);
/* The MPI-1 names (removed in MPI-3.0) of the communicator's handlers. */
int MPI_Errhandler_create(MPI_Handler_function *function,
			  MPI_Errhandler *errhandler);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);

/* Info objects: keys and values of the program's own; hints that Sibyl
 * uses none of (MPI_Comm_get_info gives an empty object). */
#define MPI_Comm_get_info SIBYL_MPI_Comm_get_info
#define PMPI_Comm_get_info SIBYL_MPI_Comm_get_info
#define MPI_Comm_set_info SIBYL_MPI_Comm_set_info
#define PMPI_Comm_set_info SIBYL_MPI_Comm_set_info
#define MPI_Info_create SIBYL_MPI_Info_create
#define PMPI_Info_create SIBYL_MPI_Info_create
#define MPI_Info_delete SIBYL_MPI_Info_delete
#define PMPI_Info_delete SIBYL_MPI_Info_delete
#define MPI_Info_dup SIBYL_MPI_Info_dup
#define PMPI_Info_dup SIBYL_MPI_Info_dup
#define MPI_Info_free SIBYL_MPI_Info_free
#define PMPI_Info_free SIBYL_MPI_Info_free
#define MPI_Info_get SIBYL_MPI_Info_get
#define PMPI_Info_get SIBYL_MPI_Info_get
#define MPI_Info_get_nkeys SIBYL_MPI_Info_get_nkeys
#define PMPI_Info_get_nkeys SIBYL_MPI_Info_get_nkeys
#define MPI_Info_get_nthkey SIBYL_MPI_Info_get_nthkey
#define PMPI_Info_get_nthkey SIBYL_MPI_Info_get_nthkey
#define MPI_Info_get_valuelen SIBYL_MPI_Info_get_valuelen
#define PMPI_Info_get_valuelen SIBYL_MPI_Info_get_valuelen
#define MPI_Info_set SIBYL_MPI_Info_set
#define PMPI_Info_set SIBYL_MPI_Info_set
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Info_create(MPI_Info *info);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
	         int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
	                  int *flag);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);

/* More datatype routines: subarrays and distributed arrays, decoding,
 * external32, Fortran kinds (datatype.c) and attributes (attr.c). */
#define MPI_Type_create_subarray SIBYL_MPI_Type_create_subarray
#define PMPI_Type_create_subarray SIBYL_MPI_Type_create_subarray
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
			     const int array_of_subsizes[],
			     const int array_of_starts[], int order,
			     MPI_Datatype oldtype, MPI_Datatype *newtype);
#define MPI_Pack_external SIBYL_MPI_Pack_external
#define PMPI_Pack_external SIBYL_MPI_Pack_external
#define MPI_Pack_external_size SIBYL_MPI_Pack_external_size
#define PMPI_Pack_external_size SIBYL_MPI_Pack_external_size
#define MPI_Type_create_darray SIBYL_MPI_Type_create_darray
#define PMPI_Type_create_darray SIBYL_MPI_Type_create_darray
#define MPI_Type_create_f90_complex SIBYL_MPI_Type_create_f90_complex
#define PMPI_Type_create_f90_complex SIBYL_MPI_Type_create_f90_complex
#define MPI_Type_create_f90_integer SIBYL_MPI_Type_create_f90_integer
#define PMPI_Type_create_f90_integer SIBYL_MPI_Type_create_f90_integer
#define MPI_Type_create_f90_real SIBYL_MPI_Type_create_f90_real
#define PMPI_Type_create_f90_real SIBYL_MPI_Type_create_f90_real
#define MPI_Type_create_keyval SIBYL_MPI_Type_create_keyval
#define PMPI_Type_create_keyval SIBYL_MPI_Type_create_keyval
#define MPI_Type_delete_attr SIBYL_MPI_Type_delete_attr
#define PMPI_Type_delete_attr SIBYL_MPI_Type_delete_attr
#define MPI_Type_free_keyval SIBYL_MPI_Type_free_keyval
#define PMPI_Type_free_keyval SIBYL_MPI_Type_free_keyval
#define MPI_Type_get_attr SIBYL_MPI_Type_get_attr
#define PMPI_Type_get_attr SIBYL_MPI_Type_get_attr
#define MPI_Type_get_contents SIBYL_MPI_Type_get_contents
#define PMPI_Type_get_contents SIBYL_MPI_Type_get_contents
#define MPI_Type_get_envelope SIBYL_MPI_Type_get_envelope
#define PMPI_Type_get_envelope SIBYL_MPI_Type_get_envelope
#define MPI_Type_match_size SIBYL_MPI_Type_match_size
#define PMPI_Type_match_size SIBYL_MPI_Type_match_size
#define MPI_Type_set_attr SIBYL_MPI_Type_set_attr
#define PMPI_Type_set_attr SIBYL_MPI_Type_set_attr
#define MPI_Unpack_external SIBYL_MPI_Unpack_external
#define PMPI_Unpack_external SIBYL_MPI_Unpack_external
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
	              MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
	              MPI_Aint *position);
int MPI_Pack_external_size(const char datarep[], int incount,
	                   MPI_Datatype datatype, MPI_Aint *size);
int MPI_Type_create_darray(int size, int rank, int ndims,
	                   const int gsize_array[], const int distrib_array[],
	                   const int darg_array[], const int psize_array[],
	                   int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
	                   MPI_Type_delete_attr_function *type_delete_attr_fn,
	                   int *type_keyval, void *extra_state);
int MPI_Type_delete_attr(MPI_Datatype type, int type_keyval);
int MPI_Type_free_keyval(int *type_keyval);
int MPI_Type_get_attr(MPI_Datatype type, int type_keyval, void *attribute_val,
	              int *flag);
int MPI_Type_get_contents(MPI_Datatype mtype, int max_integers,
	                  int max_addresses, int max_datatypes,
	                  int array_of_integers[], MPI_Aint array_of_addresses[],
	                  MPI_Datatype array_of_datatypes[]);
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers,
	                  int *num_addresses, int *num_datatypes, int *combiner);
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type);
int MPI_Type_set_attr(MPI_Datatype type, int type_keyval, void *attr_val);
int MPI_Unpack_external(const char datarep[], const void *inbuf,
	                MPI_Aint insize, MPI_Aint *position, void *outbuf,
	                int outcount, MPI_Datatype datatype);

/* Matched probes (p2p.c). */
#define MPI_Improbe SIBYL_MPI_Improbe
#define PMPI_Improbe SIBYL_MPI_Improbe
#define MPI_Imrecv SIBYL_MPI_Imrecv
#define PMPI_Imrecv SIBYL_MPI_Imrecv
#define MPI_Mprobe SIBYL_MPI_Mprobe
#define PMPI_Mprobe SIBYL_MPI_Mprobe
#define MPI_Mrecv SIBYL_MPI_Mrecv
#define PMPI_Mrecv SIBYL_MPI_Mrecv
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
	        MPI_Message *message, MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Request *request);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	      MPI_Status *status);

/* Handles are the same integers in C and Fortran. */
#define MPI_Comm_c2f(h) ((MPI_Fint)(h))
#define PMPI_Comm_c2f(h) ((MPI_Fint)(h))
#define MPI_Comm_f2c(h) ((MPI_Comm)(h))
#define PMPI_Comm_f2c(h) ((MPI_Comm)(h))
#define MPI_Errhandler_c2f(h) ((MPI_Fint)(h))
#define PMPI_Errhandler_c2f(h) ((MPI_Fint)(h))
#define MPI_Errhandler_f2c(h) ((MPI_Errhandler)(h))
#define PMPI_Errhandler_f2c(h) ((MPI_Errhandler)(h))
#define MPI_File_c2f(h) ((MPI_Fint)(h))
#define PMPI_File_c2f(h) ((MPI_Fint)(h))
#define MPI_File_f2c(h) ((MPI_File)(h))
#define PMPI_File_f2c(h) ((MPI_File)(h))
#define MPI_Group_c2f(h) ((MPI_Fint)(h))
#define PMPI_Group_c2f(h) ((MPI_Fint)(h))
#define MPI_Group_f2c(h) ((MPI_Group)(h))
#define PMPI_Group_f2c(h) ((MPI_Group)(h))
#define MPI_Info_c2f(h) ((MPI_Fint)(h))
#define PMPI_Info_c2f(h) ((MPI_Fint)(h))
#define MPI_Info_f2c(h) ((MPI_Info)(h))
#define PMPI_Info_f2c(h) ((MPI_Info)(h))
#define MPI_Message_c2f(h) ((MPI_Fint)(h))
#define PMPI_Message_c2f(h) ((MPI_Fint)(h))
#define MPI_Message_f2c(h) ((MPI_Message)(h))
#define PMPI_Message_f2c(h) ((MPI_Message)(h))
#define MPI_Op_c2f(h) ((MPI_Fint)(h))
#define PMPI_Op_c2f(h) ((MPI_Fint)(h))
#define MPI_Op_f2c(h) ((MPI_Op)(h))
#define PMPI_Op_f2c(h) ((MPI_Op)(h))
#define MPI_Request_c2f(h) ((MPI_Fint)(h))
#define PMPI_Request_c2f(h) ((MPI_Fint)(h))
#define MPI_Request_f2c(h) ((MPI_Request)(h))
#define PMPI_Request_f2c(h) ((MPI_Request)(h))
#define MPI_Type_c2f(h) ((MPI_Fint)(h))
#define PMPI_Type_c2f(h) ((MPI_Fint)(h))
#define MPI_Type_f2c(h) ((MPI_Datatype)(h))
#define PMPI_Type_f2c(h) ((MPI_Datatype)(h))
#define MPI_Win_c2f(h) ((MPI_Fint)(h))
#define PMPI_Win_c2f(h) ((MPI_Fint)(h))
#define MPI_Win_f2c(h) ((MPI_Win)(h))
#define PMPI_Win_f2c(h) ((MPI_Win)(h))

/* ---------------------------------------------- routines not emulated */

/* Each reports MPI_ERR_UNSUPPORTED_OPERATION, naming itself; grouped by
 * the reason it gives (emulator/unsupported.c). */

/* MPI_Comm_create_group */
#define MPI_Comm_create_group SIBYL_MPI_Comm_create_group
#define PMPI_Comm_create_group SIBYL_MPI_Comm_create_group
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
	                  MPI_Comm *newcomm);

/* dynamic processes */
#define MPI_Close_port SIBYL_MPI_Close_port
#define PMPI_Close_port SIBYL_MPI_Close_port
#define MPI_Comm_accept SIBYL_MPI_Comm_accept
#define PMPI_Comm_accept SIBYL_MPI_Comm_accept
#define MPI_Comm_connect SIBYL_MPI_Comm_connect
#define PMPI_Comm_connect SIBYL_MPI_Comm_connect
#define MPI_Comm_disconnect SIBYL_MPI_Comm_disconnect
#define PMPI_Comm_disconnect SIBYL_MPI_Comm_disconnect
#define MPI_Comm_join SIBYL_MPI_Comm_join
#define PMPI_Comm_join SIBYL_MPI_Comm_join
#define MPI_Comm_spawn SIBYL_MPI_Comm_spawn
#define PMPI_Comm_spawn SIBYL_MPI_Comm_spawn
#define MPI_Comm_spawn_multiple SIBYL_MPI_Comm_spawn_multiple
#define PMPI_Comm_spawn_multiple SIBYL_MPI_Comm_spawn_multiple
#define MPI_Lookup_name SIBYL_MPI_Lookup_name
#define PMPI_Lookup_name SIBYL_MPI_Lookup_name
#define MPI_Open_port SIBYL_MPI_Open_port
#define PMPI_Open_port SIBYL_MPI_Open_port
#define MPI_Publish_name SIBYL_MPI_Publish_name
#define PMPI_Publish_name SIBYL_MPI_Publish_name
#define MPI_Unpublish_name SIBYL_MPI_Unpublish_name
#define PMPI_Unpublish_name SIBYL_MPI_Unpublish_name
int MPI_Close_port(const char *port_name);
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root,
	            MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root,
	             MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_disconnect(MPI_Comm *comm);
int MPI_Comm_join(int fd, MPI_Comm *intercomm);
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs,
	           MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm,
	           int array_of_errcodes[]);
int MPI_Comm_spawn_multiple(int count, char *array_of_commands[],
	                    char **array_of_argv[], const int array_of_maxprocs[],
	                    const MPI_Info array_of_info[], int root, MPI_Comm comm,
	                    MPI_Comm *intercomm, int array_of_errcodes[]);
int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
int MPI_Open_port(MPI_Info info, char *port_name);
int MPI_Publish_name(const char *service_name, MPI_Info info,
	             const char *port_name);
int MPI_Unpublish_name(const char *service_name, MPI_Info info,
	               const char *port_name);

/* error classes and codes of the program */
#define MPI_Add_error_class SIBYL_MPI_Add_error_class
#define PMPI_Add_error_class SIBYL_MPI_Add_error_class
#define MPI_Add_error_code SIBYL_MPI_Add_error_code
#define PMPI_Add_error_code SIBYL_MPI_Add_error_code
#define MPI_Add_error_string SIBYL_MPI_Add_error_string
#define PMPI_Add_error_string SIBYL_MPI_Add_error_string
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* Fortran statuses */
#define MPI_Status_c2f SIBYL_MPI_Status_c2f
#define PMPI_Status_c2f SIBYL_MPI_Status_c2f
#define MPI_Status_f2c SIBYL_MPI_Status_f2c
#define PMPI_Status_f2c SIBYL_MPI_Status_f2c
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);
/* A Fortran MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE, as C code that a
 * Fortran program calls sees it. */
extern int sibyl_mpif_status_ignore_[6];
extern int sibyl_mpif_statuses_ignore_[6];
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)sibyl_mpif_status_ignore_)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)sibyl_mpif_statuses_ignore_)

/* generalized requests */
#define MPI_Grequest_complete SIBYL_MPI_Grequest_complete
#define PMPI_Grequest_complete SIBYL_MPI_Grequest_complete
#define MPI_Grequest_start SIBYL_MPI_Grequest_start
#define PMPI_Grequest_start SIBYL_MPI_Grequest_start
int MPI_Grequest_complete(MPI_Request request);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
	               MPI_Grequest_free_function *free_fn,
	               MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
	               MPI_Request *request);

/* non-blocking duplication */
#define MPI_Comm_idup SIBYL_MPI_Comm_idup
#define PMPI_Comm_idup SIBYL_MPI_Comm_idup
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);

/* MPI-IO */
#define MPI_File_call_errhandler SIBYL_MPI_File_call_errhandler
#define PMPI_File_call_errhandler SIBYL_MPI_File_call_errhandler
#define MPI_File_close SIBYL_MPI_File_close
#define PMPI_File_close SIBYL_MPI_File_close
#define MPI_File_create_errhandler SIBYL_MPI_File_create_errhandler
#define PMPI_File_create_errhandler SIBYL_MPI_File_create_errhandler
#define MPI_File_delete SIBYL_MPI_File_delete
#define PMPI_File_delete SIBYL_MPI_File_delete
#define MPI_File_get_amode SIBYL_MPI_File_get_amode
#define PMPI_File_get_amode SIBYL_MPI_File_get_amode
#define MPI_File_get_atomicity SIBYL_MPI_File_get_atomicity
#define PMPI_File_get_atomicity SIBYL_MPI_File_get_atomicity
#define MPI_File_get_byte_offset SIBYL_MPI_File_get_byte_offset
#define PMPI_File_get_byte_offset SIBYL_MPI_File_get_byte_offset
#define MPI_File_get_errhandler SIBYL_MPI_File_get_errhandler
#define PMPI_File_get_errhandler SIBYL_MPI_File_get_errhandler
#define MPI_File_get_group SIBYL_MPI_File_get_group
#define PMPI_File_get_group SIBYL_MPI_File_get_group
#define MPI_File_get_info SIBYL_MPI_File_get_info
#define PMPI_File_get_info SIBYL_MPI_File_get_info
#define MPI_File_get_position SIBYL_MPI_File_get_position
#define PMPI_File_get_position SIBYL_MPI_File_get_position
#define MPI_File_get_position_shared SIBYL_MPI_File_get_position_shared
#define PMPI_File_get_position_shared SIBYL_MPI_File_get_position_shared
#define MPI_File_get_size SIBYL_MPI_File_get_size
#define PMPI_File_get_size SIBYL_MPI_File_get_size
#define MPI_File_get_type_extent SIBYL_MPI_File_get_type_extent
#define PMPI_File_get_type_extent SIBYL_MPI_File_get_type_extent
#define MPI_File_get_view SIBYL_MPI_File_get_view
#define PMPI_File_get_view SIBYL_MPI_File_get_view
#define MPI_File_iread SIBYL_MPI_File_iread
#define PMPI_File_iread SIBYL_MPI_File_iread
#define MPI_File_iread_all SIBYL_MPI_File_iread_all
#define PMPI_File_iread_all SIBYL_MPI_File_iread_all
#define MPI_File_iread_at SIBYL_MPI_File_iread_at
#define PMPI_File_iread_at SIBYL_MPI_File_iread_at
#define MPI_File_iread_at_all SIBYL_MPI_File_iread_at_all
#define PMPI_File_iread_at_all SIBYL_MPI_File_iread_at_all
#define MPI_File_iread_shared SIBYL_MPI_File_iread_shared
#define PMPI_File_iread_shared SIBYL_MPI_File_iread_shared
#define MPI_File_iwrite SIBYL_MPI_File_iwrite
#define PMPI_File_iwrite SIBYL_MPI_File_iwrite
#define MPI_File_iwrite_all SIBYL_MPI_File_iwrite_all
#define PMPI_File_iwrite_all SIBYL_MPI_File_iwrite_all
#define MPI_File_iwrite_at SIBYL_MPI_File_iwrite_at
#define PMPI_File_iwrite_at SIBYL_MPI_File_iwrite_at
#define MPI_File_iwrite_at_all SIBYL_MPI_File_iwrite_at_all
#define PMPI_File_iwrite_at_all SIBYL_MPI_File_iwrite_at_all
#define MPI_File_iwrite_shared SIBYL_MPI_File_iwrite_shared
#define PMPI_File_iwrite_shared SIBYL_MPI_File_iwrite_shared
#define MPI_File_open SIBYL_MPI_File_open
#define PMPI_File_open SIBYL_MPI_File_open
#define MPI_File_preallocate SIBYL_MPI_File_preallocate
#define PMPI_File_preallocate SIBYL_MPI_File_preallocate
#define MPI_File_read SIBYL_MPI_File_read
#define PMPI_File_read SIBYL_MPI_File_read
#define MPI_File_read_all SIBYL_MPI_File_read_all
#define PMPI_File_read_all SIBYL_MPI_File_read_all
#define MPI_File_read_all_begin SIBYL_MPI_File_read_all_begin
#define PMPI_File_read_all_begin SIBYL_MPI_File_read_all_begin
#define MPI_File_read_all_end SIBYL_MPI_File_read_all_end
#define PMPI_File_read_all_end SIBYL_MPI_File_read_all_end
#define MPI_File_read_at SIBYL_MPI_File_read_at
#define PMPI_File_read_at SIBYL_MPI_File_read_at
#define MPI_File_read_at_all SIBYL_MPI_File_read_at_all
#define PMPI_File_read_at_all SIBYL_MPI_File_read_at_all
#define MPI_File_read_at_all_begin SIBYL_MPI_File_read_at_all_begin
#define PMPI_File_read_at_all_begin SIBYL_MPI_File_read_at_all_begin
#define MPI_File_read_at_all_end SIBYL_MPI_File_read_at_all_end
#define PMPI_File_read_at_all_end SIBYL_MPI_File_read_at_all_end
#define MPI_File_read_ordered SIBYL_MPI_File_read_ordered
#define PMPI_File_read_ordered SIBYL_MPI_File_read_ordered
#define MPI_File_read_ordered_begin SIBYL_MPI_File_read_ordered_begin
#define PMPI_File_read_ordered_begin SIBYL_MPI_File_read_ordered_begin
#define MPI_File_read_ordered_end SIBYL_MPI_File_read_ordered_end
#define PMPI_File_read_ordered_end SIBYL_MPI_File_read_ordered_end
#define MPI_File_read_shared SIBYL_MPI_File_read_shared
#define PMPI_File_read_shared SIBYL_MPI_File_read_shared
#define MPI_File_seek SIBYL_MPI_File_seek
#define PMPI_File_seek SIBYL_MPI_File_seek
#define MPI_File_seek_shared SIBYL_MPI_File_seek_shared
#define PMPI_File_seek_shared SIBYL_MPI_File_seek_shared
#define MPI_File_set_atomicity SIBYL_MPI_File_set_atomicity
#define PMPI_File_set_atomicity SIBYL_MPI_File_set_atomicity
#define MPI_File_set_errhandler SIBYL_MPI_File_set_errhandler
#define PMPI_File_set_errhandler SIBYL_MPI_File_set_errhandler
#define MPI_File_set_info SIBYL_MPI_File_set_info
#define PMPI_File_set_info SIBYL_MPI_File_set_info
#define MPI_File_set_size SIBYL_MPI_File_set_size
#define PMPI_File_set_size SIBYL_MPI_File_set_size
#define MPI_File_set_view SIBYL_MPI_File_set_view
#define PMPI_File_set_view SIBYL_MPI_File_set_view
#define MPI_File_sync SIBYL_MPI_File_sync
#define PMPI_File_sync SIBYL_MPI_File_sync
#define MPI_File_write SIBYL_MPI_File_write
#define PMPI_File_write SIBYL_MPI_File_write
#define MPI_File_write_all SIBYL_MPI_File_write_all
#define PMPI_File_write_all SIBYL_MPI_File_write_all
#define MPI_File_write_all_begin SIBYL_MPI_File_write_all_begin
#define PMPI_File_write_all_begin SIBYL_MPI_File_write_all_begin
#define MPI_File_write_all_end SIBYL_MPI_File_write_all_end
#define PMPI_File_write_all_end SIBYL_MPI_File_write_all_end
#define MPI_File_write_at SIBYL_MPI_File_write_at
#define PMPI_File_write_at SIBYL_MPI_File_write_at
#define MPI_File_write_at_all SIBYL_MPI_File_write_at_all
#define PMPI_File_write_at_all SIBYL_MPI_File_write_at_all
#define MPI_File_write_at_all_begin SIBYL_MPI_File_write_at_all_begin
#define PMPI_File_write_at_all_begin SIBYL_MPI_File_write_at_all_begin
#define MPI_File_write_at_all_end SIBYL_MPI_File_write_at_all_end
#define PMPI_File_write_at_all_end SIBYL_MPI_File_write_at_all_end
#define MPI_File_write_ordered SIBYL_MPI_File_write_ordered
#define PMPI_File_write_ordered SIBYL_MPI_File_write_ordered
#define MPI_File_write_ordered_begin SIBYL_MPI_File_write_ordered_begin
#define PMPI_File_write_ordered_begin SIBYL_MPI_File_write_ordered_begin
#define MPI_File_write_ordered_end SIBYL_MPI_File_write_ordered_end
#define PMPI_File_write_ordered_end SIBYL_MPI_File_write_ordered_end
#define MPI_File_write_shared SIBYL_MPI_File_write_shared
#define PMPI_File_write_shared SIBYL_MPI_File_write_shared
#define MPI_Register_datarep SIBYL_MPI_Register_datarep
#define PMPI_Register_datarep SIBYL_MPI_Register_datarep
int MPI_File_call_errhandler(MPI_File fh, int errorcode);
int MPI_File_close(MPI_File *fh);
int MPI_File_create_errhandler(MPI_File_errhandler_function *function,
		MPI_Errhandler *errhandler);
int MPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype,
	                     MPI_Aint *extent);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
	              MPI_Datatype *filetype, char *datarep);
int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
	           MPI_Request *request);
int MPI_File_iread_all(MPI_File fh, void *buf, int count,
	               MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
	              MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
	                  int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_shared(MPI_File fh, void *buf, int count,
	                  MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite(MPI_File fh, const void *buf, int count,
	            MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
	                MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
	               int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
	                   int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
	                   MPI_Datatype datatype, MPI_Request *request);
int MPI_File_open(MPI_Comm comm, const char *filename, int amode,
	          MPI_Info info, MPI_File *fh);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
	          MPI_Status *status);
int MPI_File_read_all(MPI_File fh, void *buf, int count,
	              MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_all_begin(MPI_File fh, void *buf, int count,
	                    MPI_Datatype datatype);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
	             MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count,
	                 MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
		int count, MPI_Datatype datatype);
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_read_ordered(MPI_File fh, void *buf, int count,
	                  MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
		MPI_Datatype datatype);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_read_shared(MPI_File fh, void *buf, int count,
	                 MPI_Datatype datatype, MPI_Status *status);
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
	              MPI_Datatype filetype, const char *datarep, MPI_Info info);
int MPI_File_sync(MPI_File fh);
int MPI_File_write(MPI_File fh, const void *buf, int count,
	           MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_all(MPI_File fh, const void *buf, int count,
	               MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
	                     MPI_Datatype datatype);
int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
	              int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
	                  int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
		const void *buf, int count, MPI_Datatype datatype);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf,
	                      MPI_Status *status);
int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
	                   MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
		MPI_Datatype datatype);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf,
		MPI_Status *status);
int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
	                  MPI_Datatype datatype, MPI_Status *status);
int MPI_Register_datarep(const char *datarep,
	                 MPI_Datarep_conversion_function *read_conversion_fn,
	                 MPI_Datarep_conversion_function *write_conversion_fn,
	                 MPI_Datarep_extent_function *dtype_file_extent_fn,
	                 void *extra_state);

/* neighbourhood collectives */
#define MPI_Ineighbor_allgather SIBYL_MPI_Ineighbor_allgather
#define PMPI_Ineighbor_allgather SIBYL_MPI_Ineighbor_allgather
#define MPI_Ineighbor_allgatherv SIBYL_MPI_Ineighbor_allgatherv
#define PMPI_Ineighbor_allgatherv SIBYL_MPI_Ineighbor_allgatherv
#define MPI_Ineighbor_alltoall SIBYL_MPI_Ineighbor_alltoall
#define PMPI_Ineighbor_alltoall SIBYL_MPI_Ineighbor_alltoall
#define MPI_Ineighbor_alltoallv SIBYL_MPI_Ineighbor_alltoallv
#define PMPI_Ineighbor_alltoallv SIBYL_MPI_Ineighbor_alltoallv
#define MPI_Ineighbor_alltoallw SIBYL_MPI_Ineighbor_alltoallw
#define PMPI_Ineighbor_alltoallw SIBYL_MPI_Ineighbor_alltoallw
#define MPI_Neighbor_allgather SIBYL_MPI_Neighbor_allgather
#define PMPI_Neighbor_allgather SIBYL_MPI_Neighbor_allgather
#define MPI_Neighbor_allgatherv SIBYL_MPI_Neighbor_allgatherv
#define PMPI_Neighbor_allgatherv SIBYL_MPI_Neighbor_allgatherv
#define MPI_Neighbor_alltoall SIBYL_MPI_Neighbor_alltoall
#define PMPI_Neighbor_alltoall SIBYL_MPI_Neighbor_alltoall
#define MPI_Neighbor_alltoallv SIBYL_MPI_Neighbor_alltoallv
#define PMPI_Neighbor_alltoallv SIBYL_MPI_Neighbor_alltoallv
#define MPI_Neighbor_alltoallw SIBYL_MPI_Neighbor_alltoallw
#define PMPI_Neighbor_alltoallw SIBYL_MPI_Neighbor_alltoallw
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
	                    MPI_Datatype sendtype, void *recvbuf, int recvcount,
	                    MPI_Datatype recvtype, MPI_Comm comm,
	                    MPI_Request *request);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
	                     MPI_Datatype sendtype, void *recvbuf,
	                     const int recvcounts[], const int displs[],
	                     MPI_Datatype recvtype, MPI_Comm comm,
	                     MPI_Request *request);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
	                   MPI_Datatype sendtype, void *recvbuf, int recvcount,
	                   MPI_Datatype recvtype, MPI_Comm comm,
	                   MPI_Request *request);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
	                    const int sdispls[], MPI_Datatype sendtype,
	                    void *recvbuf, const int recvcounts[],
	                    const int rdispls[], MPI_Datatype recvtype,
	                    MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
	                    const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
	                    void *recvbuf, const int recvcounts[],
	                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
	                    MPI_Comm comm, MPI_Request *request);
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount,
	                   MPI_Datatype sendtype, void *recvbuf, int recvcount,
	                   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
	                    MPI_Datatype sendtype, void *recvbuf,
	                    const int recvcounts[], const int displs[],
	                    MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
	                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
	                  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
	                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
	                   const int recvcounts[], const int rdispls[],
	                   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
	                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
	                   void *recvbuf, const int recvcounts[],
	                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
	                   MPI_Comm comm);

/* one-sided communication (beside sibyl_mpi_rma.h): the window error
 * handlers, names and info and MPI_Win_test are emulated (rma.c), the
 * rest are not */
#define MPI_Raccumulate SIBYL_MPI_Raccumulate
#define PMPI_Raccumulate SIBYL_MPI_Raccumulate
#define MPI_Rget SIBYL_MPI_Rget
#define PMPI_Rget SIBYL_MPI_Rget
#define MPI_Rget_accumulate SIBYL_MPI_Rget_accumulate
#define PMPI_Rget_accumulate SIBYL_MPI_Rget_accumulate
#define MPI_Rput SIBYL_MPI_Rput
#define PMPI_Rput SIBYL_MPI_Rput
#define MPI_Win_call_errhandler SIBYL_MPI_Win_call_errhandler
#define PMPI_Win_call_errhandler SIBYL_MPI_Win_call_errhandler
#define MPI_Win_create_errhandler SIBYL_MPI_Win_create_errhandler
#define PMPI_Win_create_errhandler SIBYL_MPI_Win_create_errhandler
#define MPI_Win_create_keyval SIBYL_MPI_Win_create_keyval
#define PMPI_Win_create_keyval SIBYL_MPI_Win_create_keyval
#define MPI_Win_delete_attr SIBYL_MPI_Win_delete_attr
#define PMPI_Win_delete_attr SIBYL_MPI_Win_delete_attr
#define MPI_Win_free_keyval SIBYL_MPI_Win_free_keyval
#define PMPI_Win_free_keyval SIBYL_MPI_Win_free_keyval
#define MPI_Win_get_errhandler SIBYL_MPI_Win_get_errhandler
#define PMPI_Win_get_errhandler SIBYL_MPI_Win_get_errhandler
#define MPI_Win_get_info SIBYL_MPI_Win_get_info
#define PMPI_Win_get_info SIBYL_MPI_Win_get_info
#define MPI_Win_get_name SIBYL_MPI_Win_get_name
#define PMPI_Win_get_name SIBYL_MPI_Win_get_name
#define MPI_Win_set_attr SIBYL_MPI_Win_set_attr
#define PMPI_Win_set_attr SIBYL_MPI_Win_set_attr
#define MPI_Win_set_errhandler SIBYL_MPI_Win_set_errhandler
#define PMPI_Win_set_errhandler SIBYL_MPI_Win_set_errhandler
#define MPI_Win_set_info SIBYL_MPI_Win_set_info
#define PMPI_Win_set_info SIBYL_MPI_Win_set_info
#define MPI_Win_set_name SIBYL_MPI_Win_set_name
#define PMPI_Win_set_name SIBYL_MPI_Win_set_name
#define MPI_Win_shared_query SIBYL_MPI_Win_shared_query
#define PMPI_Win_shared_query SIBYL_MPI_Win_shared_query
#define MPI_Win_test SIBYL_MPI_Win_test
#define PMPI_Win_test SIBYL_MPI_Win_test
int MPI_Raccumulate(const void *origin_addr, int origin_count,
	            MPI_Datatype origin_datatype, int target_rank,
	            MPI_Aint target_disp, int target_count,
	            MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	            MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
	     int target_count, MPI_Datatype target_datatype, MPI_Win win,
	     MPI_Request *request);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
	                MPI_Datatype origin_datatype, void *result_addr,
	                int result_count, MPI_Datatype result_datatype,
	                int target_rank, MPI_Aint target_disp, int target_count,
	                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	                MPI_Request *request);
int MPI_Rput(const void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
	     int target_cout, MPI_Datatype target_datatype, MPI_Win win,
	     MPI_Request *request);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *function,
	                      MPI_Errhandler *errhandler);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
	                  MPI_Win_delete_attr_function *win_delete_attr_fn,
	                  int *win_keyval, void *extra_state);
int MPI_Win_delete_attr(MPI_Win win, int win_keyval);
int MPI_Win_free_keyval(int *win_keyval);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);
int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_set_name(MPI_Win win, const char *win_name);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
	                 int *disp_unit, void *baseptr);
int MPI_Win_test(MPI_Win win, int *flag);

/* the tool information interface */
#define MPI_T_category_changed SIBYL_MPI_T_category_changed
#define PMPI_T_category_changed SIBYL_MPI_T_category_changed
#define MPI_T_category_get_categories SIBYL_MPI_T_category_get_categories
#define PMPI_T_category_get_categories SIBYL_MPI_T_category_get_categories
#define MPI_T_category_get_cvars SIBYL_MPI_T_category_get_cvars
#define PMPI_T_category_get_cvars SIBYL_MPI_T_category_get_cvars
#define MPI_T_category_get_index SIBYL_MPI_T_category_get_index
#define PMPI_T_category_get_index SIBYL_MPI_T_category_get_index
#define MPI_T_category_get_info SIBYL_MPI_T_category_get_info
#define PMPI_T_category_get_info SIBYL_MPI_T_category_get_info
#define MPI_T_category_get_num SIBYL_MPI_T_category_get_num
#define PMPI_T_category_get_num SIBYL_MPI_T_category_get_num
#define MPI_T_category_get_pvars SIBYL_MPI_T_category_get_pvars
#define PMPI_T_category_get_pvars SIBYL_MPI_T_category_get_pvars
#define MPI_T_cvar_get_index SIBYL_MPI_T_cvar_get_index
#define PMPI_T_cvar_get_index SIBYL_MPI_T_cvar_get_index
#define MPI_T_cvar_get_info SIBYL_MPI_T_cvar_get_info
#define PMPI_T_cvar_get_info SIBYL_MPI_T_cvar_get_info
#define MPI_T_cvar_get_num SIBYL_MPI_T_cvar_get_num
#define PMPI_T_cvar_get_num SIBYL_MPI_T_cvar_get_num
#define MPI_T_cvar_handle_alloc SIBYL_MPI_T_cvar_handle_alloc
#define PMPI_T_cvar_handle_alloc SIBYL_MPI_T_cvar_handle_alloc
#define MPI_T_cvar_handle_free SIBYL_MPI_T_cvar_handle_free
#define PMPI_T_cvar_handle_free SIBYL_MPI_T_cvar_handle_free
#define MPI_T_cvar_read SIBYL_MPI_T_cvar_read
#define PMPI_T_cvar_read SIBYL_MPI_T_cvar_read
#define MPI_T_cvar_write SIBYL_MPI_T_cvar_write
#define PMPI_T_cvar_write SIBYL_MPI_T_cvar_write
#define MPI_T_enum_get_info SIBYL_MPI_T_enum_get_info
#define PMPI_T_enum_get_info SIBYL_MPI_T_enum_get_info
#define MPI_T_enum_get_item SIBYL_MPI_T_enum_get_item
#define PMPI_T_enum_get_item SIBYL_MPI_T_enum_get_item
#define MPI_T_finalize SIBYL_MPI_T_finalize
#define PMPI_T_finalize SIBYL_MPI_T_finalize
#define MPI_T_init_thread SIBYL_MPI_T_init_thread
#define PMPI_T_init_thread SIBYL_MPI_T_init_thread
#define MPI_T_pvar_get_index SIBYL_MPI_T_pvar_get_index
#define PMPI_T_pvar_get_index SIBYL_MPI_T_pvar_get_index
#define MPI_T_pvar_get_info SIBYL_MPI_T_pvar_get_info
#define PMPI_T_pvar_get_info SIBYL_MPI_T_pvar_get_info
#define MPI_T_pvar_get_num SIBYL_MPI_T_pvar_get_num
#define PMPI_T_pvar_get_num SIBYL_MPI_T_pvar_get_num
#define MPI_T_pvar_handle_alloc SIBYL_MPI_T_pvar_handle_alloc
#define PMPI_T_pvar_handle_alloc SIBYL_MPI_T_pvar_handle_alloc
#define MPI_T_pvar_handle_free SIBYL_MPI_T_pvar_handle_free
#define PMPI_T_pvar_handle_free SIBYL_MPI_T_pvar_handle_free
#define MPI_T_pvar_read SIBYL_MPI_T_pvar_read
#define PMPI_T_pvar_read SIBYL_MPI_T_pvar_read
#define MPI_T_pvar_readreset SIBYL_MPI_T_pvar_readreset
#define PMPI_T_pvar_readreset SIBYL_MPI_T_pvar_readreset
#define MPI_T_pvar_reset SIBYL_MPI_T_pvar_reset
#define PMPI_T_pvar_reset SIBYL_MPI_T_pvar_reset
#define MPI_T_pvar_session_create SIBYL_MPI_T_pvar_session_create
#define PMPI_T_pvar_session_create SIBYL_MPI_T_pvar_session_create
#define MPI_T_pvar_session_free SIBYL_MPI_T_pvar_session_free
#define PMPI_T_pvar_session_free SIBYL_MPI_T_pvar_session_free
#define MPI_T_pvar_start SIBYL_MPI_T_pvar_start
#define PMPI_T_pvar_start SIBYL_MPI_T_pvar_start
#define MPI_T_pvar_stop SIBYL_MPI_T_pvar_stop
#define PMPI_T_pvar_stop SIBYL_MPI_T_pvar_stop
#define MPI_T_pvar_write SIBYL_MPI_T_pvar_write
#define PMPI_T_pvar_write SIBYL_MPI_T_pvar_write
int MPI_T_category_changed(int *stamp);
int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_index(const char *name, int *category_index);
int MPI_T_category_get_info(int cat_index, char *name, int *name_len,
	                    char *desc, int *desc_len, int *num_cvars,
	                    int *num_pvars, int *num_categories);
int MPI_T_category_get_num(int *num_cat);
int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
int MPI_T_cvar_get_index(const char *name, int *cvar_index);
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len,
	                int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype,
	                char *desc, int *desc_len, int *bind, int *scope);
int MPI_T_cvar_get_num(int *num_cvar);
int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle,
	                    MPI_T_cvar_handle *handle, int *count);
int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name,
	                int *name_len);
int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value,
	                char *name, int *name_len);
int MPI_T_finalize(void);
int MPI_T_init_thread(int required, int *provided);
int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len,
	                int *verbosity, int *var_class, MPI_Datatype *datatype,
	                MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
	                int *readonly, int *continuous, int *atomic);
int MPI_T_pvar_get_num(int *num_pvar);
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index,
	                    void *obj_handle, MPI_T_pvar_handle *handle, int *count);
int MPI_T_pvar_handle_free(MPI_T_pvar_session session,
	                   MPI_T_pvar_handle *handle);
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	            void *buf);
int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	                 void *buf);
int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
	             const void *buf);

#endif /* SIBYL_MPI_MORE_H */
