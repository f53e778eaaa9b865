/*
 * mpi.h -- Sibyl's MPI for emulated (virtual) ranks.
 *
 * Programs compiled with `sibylcc' include this header instead of Open
 * MPI's.  MPI_COMM_WORLD is the virtual world: every virtual rank is a
 * user-level thread of libsibyl-emu, and the MPI calls below record the
 * program's sequential execution blocks and messages into a Sibyl trace.
 *
 * Handles are small integers (as in MPICH), so they are cheap to copy and
 * compare and equal on every rank.  Every MPI_X / PMPI_X name is a macro
 * for the library symbol SIBYL_MPI_X, so the program never binds to Open
 * MPI's own symbols (the runtime uses Open MPI underneath as its transport).
 *
 * C99 or later.  What this version implements is listed in docs/emulator.md;
 * a function not declared here is not available yet.
 */
#ifndef SIBYL_MPI_H
#define SIBYL_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SIBYL_MPI 1
#define MPI_VERSION 3
#define MPI_SUBVERSION 1

/* The runtime owns the process's real main(); the program's main() becomes
 * sibyl_user_main() and runs once per virtual rank. */
#ifndef SIBYL_NO_MAIN_RENAME
#define main sibyl_user_main
#endif

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Request;
typedef int MPI_Op;
typedef int MPI_Group;
typedef int MPI_Errhandler;
typedef int MPI_Info;
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int sibyl_cancelled;      /* private: use MPI_Test_cancelled */
	long long sibyl_count;    /* private: bytes received; MPI_Get_count */
} MPI_Status;

/* ------------------------------------------------------------ constants */

#define MPI_COMM_NULL  0
#define MPI_COMM_WORLD 1
#define MPI_COMM_SELF  2

#define MPI_REQUEST_NULL    0
#define MPI_GROUP_NULL      0
#define MPI_OP_NULL         0
#define MPI_ERRHANDLER_NULL 0
#define MPI_INFO_NULL       0

#define MPI_ANY_SOURCE (-1)
#define MPI_PROC_NULL  (-2)
#define MPI_ROOT       (-3)
#define MPI_ANY_TAG    (-1)
#define MPI_UNDEFINED  (-32766)
#define MPI_TAG_UB_VALUE 0x3fffffff /* largest tag a program may use */
#define MPI_BSEND_OVERHEAD 128      /* per buffered message, as Open MPI */

#define MPI_STATUS_IGNORE   ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)
#define MPI_BOTTOM   ((void *)0)
#define MPI_IN_PLACE ((void *)-1)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING   256
#define MPI_MAX_LIBRARY_VERSION_STRING 256
#define MPI_MAX_OBJECT_NAME    128

#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

#define MPI_ERRORS_ARE_FATAL 1
#define MPI_ERRORS_RETURN    2

/* Basic datatypes (the value is an index into the runtime's type table). */
#define MPI_DATATYPE_NULL        0
#define MPI_CHAR                 1
#define MPI_SIGNED_CHAR          2
#define MPI_UNSIGNED_CHAR        3
#define MPI_BYTE                 4
#define MPI_SHORT                5
#define MPI_UNSIGNED_SHORT       6
#define MPI_INT                  7
#define MPI_UNSIGNED             8
#define MPI_LONG                 9
#define MPI_UNSIGNED_LONG        10
#define MPI_LONG_LONG_INT        11
#define MPI_LONG_LONG            MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG   12
#define MPI_FLOAT                13
#define MPI_DOUBLE               14
#define MPI_LONG_DOUBLE          15
#define MPI_WCHAR                16
#define MPI_C_BOOL               17
#define MPI_INT8_T               18
#define MPI_INT16_T              19
#define MPI_INT32_T              20
#define MPI_INT64_T              21
#define MPI_UINT8_T              22
#define MPI_UINT16_T             23
#define MPI_UINT32_T             24
#define MPI_UINT64_T             25
#define MPI_AINT                 26
#define MPI_OFFSET               27
#define MPI_COUNT                28
#define MPI_PACKED               29
#define MPI_FLOAT_INT            30
#define MPI_DOUBLE_INT           31
#define MPI_LONG_INT             32
#define MPI_2INT                 33
#define MPI_SHORT_INT            34
#define MPI_LONG_DOUBLE_INT      35
#define MPI_C_FLOAT_COMPLEX      36
#define MPI_C_DOUBLE_COMPLEX     37
#define MPI_C_COMPLEX            MPI_C_FLOAT_COMPLEX
#define SIBYL_MPI_NBASIC_TYPES   38

/* Error classes (equal to their codes). */
#define MPI_SUCCESS          0
#define MPI_ERR_BUFFER       1
#define MPI_ERR_COUNT        2
#define MPI_ERR_TYPE         3
#define MPI_ERR_TAG          4
#define MPI_ERR_COMM         5
#define MPI_ERR_RANK         6
#define MPI_ERR_REQUEST      7
#define MPI_ERR_ROOT         8
#define MPI_ERR_GROUP        9
#define MPI_ERR_OP           10
#define MPI_ERR_TOPOLOGY     11
#define MPI_ERR_DIMS         12
#define MPI_ERR_ARG          13
#define MPI_ERR_UNKNOWN      14
#define MPI_ERR_TRUNCATE     15
#define MPI_ERR_OTHER        16
#define MPI_ERR_INTERN       17
#define MPI_ERR_IN_STATUS    18
#define MPI_ERR_PENDING      19
#define MPI_ERR_NO_MEM       20
#define MPI_ERR_UNSUPPORTED_OPERATION 21
/* Sibyl's earlier name of that class. */
#define MPI_ERR_NOT_SUPPORTED MPI_ERR_UNSUPPORTED_OPERATION
#define MPI_ERR_INFO_KEY     22
#define MPI_ERR_INFO_VALUE   23
#define MPI_ERR_INFO_NOKEY   24
#define MPI_ERR_INFO         25
/* One-sided communication (MPI-3.1 11.8). */
#define MPI_ERR_WIN          26
#define MPI_ERR_BASE         27
#define MPI_ERR_SIZE         28
#define MPI_ERR_DISP         29
#define MPI_ERR_LOCKTYPE     30
#define MPI_ERR_ASSERT       31
#define MPI_ERR_RMA_CONFLICT 32
#define MPI_ERR_RMA_SYNC     33
#define MPI_ERR_RMA_RANGE    34
#define MPI_ERR_RMA_ATTACH   35
#define MPI_ERR_RMA_SHARED   36
#define MPI_ERR_RMA_FLAVOR   37
#define MPI_ERR_LASTCODE     37

/* ------------------------------------------------------------ functions */

/* Environment */
#define MPI_Init SIBYL_MPI_Init
#define MPI_Init_thread SIBYL_MPI_Init_thread
#define MPI_Initialized SIBYL_MPI_Initialized
#define MPI_Finalize SIBYL_MPI_Finalize
#define MPI_Finalized SIBYL_MPI_Finalized
#define MPI_Abort SIBYL_MPI_Abort
#define MPI_Query_thread SIBYL_MPI_Query_thread
#define MPI_Is_thread_main SIBYL_MPI_Is_thread_main
#define MPI_Get_version SIBYL_MPI_Get_version
#define MPI_Get_library_version SIBYL_MPI_Get_library_version
#define MPI_Get_processor_name SIBYL_MPI_Get_processor_name
#define MPI_Wtime SIBYL_MPI_Wtime
#define MPI_Wtick SIBYL_MPI_Wtick
#define MPI_Error_string SIBYL_MPI_Error_string
#define MPI_Error_class SIBYL_MPI_Error_class
#define MPI_Comm_rank SIBYL_MPI_Comm_rank
#define MPI_Comm_size SIBYL_MPI_Comm_size
#define MPI_Type_size SIBYL_MPI_Type_size
#define MPI_Get_count SIBYL_MPI_Get_count
#define MPI_Get_elements SIBYL_MPI_Get_elements
/* Point to point */
#define MPI_Send SIBYL_MPI_Send
#define MPI_Ssend SIBYL_MPI_Ssend
#define MPI_Rsend SIBYL_MPI_Rsend
#define MPI_Recv SIBYL_MPI_Recv
#define MPI_Sendrecv SIBYL_MPI_Sendrecv
#define MPI_Sendrecv_replace SIBYL_MPI_Sendrecv_replace
#define MPI_Isend SIBYL_MPI_Isend
#define MPI_Issend SIBYL_MPI_Issend
#define MPI_Irsend SIBYL_MPI_Irsend
#define MPI_Irecv SIBYL_MPI_Irecv
#define MPI_Wait SIBYL_MPI_Wait
#define MPI_Waitall SIBYL_MPI_Waitall
#define MPI_Waitany SIBYL_MPI_Waitany
#define MPI_Waitsome SIBYL_MPI_Waitsome
#define MPI_Test SIBYL_MPI_Test
#define MPI_Testall SIBYL_MPI_Testall
#define MPI_Testany SIBYL_MPI_Testany
#define MPI_Testsome SIBYL_MPI_Testsome
#define MPI_Probe SIBYL_MPI_Probe
#define MPI_Iprobe SIBYL_MPI_Iprobe
#define MPI_Request_free SIBYL_MPI_Request_free
#define MPI_Cancel SIBYL_MPI_Cancel
#define MPI_Test_cancelled SIBYL_MPI_Test_cancelled
#define MPI_Send_init SIBYL_MPI_Send_init
#define MPI_Ssend_init SIBYL_MPI_Ssend_init
#define MPI_Rsend_init SIBYL_MPI_Rsend_init
#define MPI_Recv_init SIBYL_MPI_Recv_init
#define MPI_Start SIBYL_MPI_Start
#define MPI_Startall SIBYL_MPI_Startall
#define MPI_Bsend SIBYL_MPI_Bsend
#define MPI_Ibsend SIBYL_MPI_Ibsend
#define MPI_Bsend_init SIBYL_MPI_Bsend_init
#define MPI_Buffer_attach SIBYL_MPI_Buffer_attach
#define MPI_Buffer_detach SIBYL_MPI_Buffer_detach

/* The profiling names are the same functions. */
#define PMPI_Init SIBYL_MPI_Init
#define PMPI_Init_thread SIBYL_MPI_Init_thread
#define PMPI_Initialized SIBYL_MPI_Initialized
#define PMPI_Finalize SIBYL_MPI_Finalize
#define PMPI_Finalized SIBYL_MPI_Finalized
#define PMPI_Abort SIBYL_MPI_Abort
#define PMPI_Query_thread SIBYL_MPI_Query_thread
#define PMPI_Is_thread_main SIBYL_MPI_Is_thread_main
#define PMPI_Get_version SIBYL_MPI_Get_version
#define PMPI_Get_library_version SIBYL_MPI_Get_library_version
#define PMPI_Get_processor_name SIBYL_MPI_Get_processor_name
#define PMPI_Wtime SIBYL_MPI_Wtime
#define PMPI_Wtick SIBYL_MPI_Wtick
#define PMPI_Error_string SIBYL_MPI_Error_string
#define PMPI_Error_class SIBYL_MPI_Error_class
#define PMPI_Comm_rank SIBYL_MPI_Comm_rank
#define PMPI_Comm_size SIBYL_MPI_Comm_size
#define PMPI_Type_size SIBYL_MPI_Type_size
#define PMPI_Get_count SIBYL_MPI_Get_count
#define PMPI_Get_elements SIBYL_MPI_Get_elements
#define PMPI_Send SIBYL_MPI_Send
#define PMPI_Ssend SIBYL_MPI_Ssend
#define PMPI_Rsend SIBYL_MPI_Rsend
#define PMPI_Recv SIBYL_MPI_Recv
#define PMPI_Sendrecv SIBYL_MPI_Sendrecv
#define PMPI_Sendrecv_replace SIBYL_MPI_Sendrecv_replace
#define PMPI_Isend SIBYL_MPI_Isend
#define PMPI_Issend SIBYL_MPI_Issend
#define PMPI_Irsend SIBYL_MPI_Irsend
#define PMPI_Irecv SIBYL_MPI_Irecv
#define PMPI_Wait SIBYL_MPI_Wait
#define PMPI_Waitall SIBYL_MPI_Waitall
#define PMPI_Waitany SIBYL_MPI_Waitany
#define PMPI_Waitsome SIBYL_MPI_Waitsome
#define PMPI_Test SIBYL_MPI_Test
#define PMPI_Testall SIBYL_MPI_Testall
#define PMPI_Testany SIBYL_MPI_Testany
#define PMPI_Testsome SIBYL_MPI_Testsome
#define PMPI_Probe SIBYL_MPI_Probe
#define PMPI_Iprobe SIBYL_MPI_Iprobe
#define PMPI_Request_free SIBYL_MPI_Request_free
#define PMPI_Cancel SIBYL_MPI_Cancel
#define PMPI_Test_cancelled SIBYL_MPI_Test_cancelled
#define PMPI_Send_init SIBYL_MPI_Send_init
#define PMPI_Ssend_init SIBYL_MPI_Ssend_init
#define PMPI_Rsend_init SIBYL_MPI_Rsend_init
#define PMPI_Recv_init SIBYL_MPI_Recv_init
#define PMPI_Start SIBYL_MPI_Start
#define PMPI_Startall SIBYL_MPI_Startall
#define PMPI_Bsend SIBYL_MPI_Bsend
#define PMPI_Ibsend SIBYL_MPI_Ibsend
#define PMPI_Bsend_init SIBYL_MPI_Bsend_init
#define PMPI_Buffer_attach SIBYL_MPI_Buffer_attach
#define PMPI_Buffer_detach SIBYL_MPI_Buffer_detach

int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Initialized(int *flag);
int MPI_Finalize(void);
int MPI_Finalized(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int MPI_Get_processor_name(char *name, int *resultlen);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype,
		     int *count);

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
	     int tag, MPI_Comm comm);
int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source,
	     int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag,
		 MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype,
			 int dest, int sendtag, int source, int recvtag,
			 MPI_Comm comm, MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source,
	      int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[]);
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
		MPI_Status *status);
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[]);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status);
int MPI_Request_free(MPI_Request *request);
int MPI_Cancel(MPI_Request *request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype,
		  int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source,
		  int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);
int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	      int tag, MPI_Comm comm);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype,
		   int dest, int tag, MPI_Comm comm, MPI_Request *request);
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);

#include "sibyl_mpi_dt.h"
#include "sibyl_mpi_comm.h"
#include "sibyl_mpi_coll.h"
#include "sibyl_mpi_rma.h"
#include "sibyl_mpi_more.h"

#ifdef __cplusplus
}
#endif

#endif /* SIBYL_MPI_H */
