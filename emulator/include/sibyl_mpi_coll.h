/*
 * sibyl_mpi_coll.h -- Sibyl's MPI for emulated ranks: collective
 * operations and reduction operations.
 * Included by <mpi.h>; not to be included directly.
 *
 * Collectives run as algorithms over point-to-point messages between the
 * virtual ranks, so the trace holds the messages a real MPI library would
 * send; SIBYL_COLL chooses the algorithm of each collective (see
 * docs/emulator.md).
 */
#ifndef SIBYL_MPI_COLL_H
#define SIBYL_MPI_COLL_H

/* Predefined reduction operations.  User operations (MPI_Op_create) get
 * handles from SIBYL_MPI_FIRST_USER_OP on. */
#define MPI_MAX     1
#define MPI_MIN     2
#define MPI_SUM     3
#define MPI_PROD    4
#define MPI_LAND    5
#define MPI_BAND    6
#define MPI_LOR     7
#define MPI_BOR     8
#define MPI_LXOR    9
#define MPI_BXOR    10
#define MPI_MINLOC  11
#define MPI_MAXLOC  12
#define MPI_REPLACE 13
#define MPI_NO_OP   14
#define SIBYL_MPI_FIRST_USER_OP 32

typedef void MPI_User_function(void *invec, void *inoutvec, int *len,
			       MPI_Datatype *datatype);

#define MPI_Op_create SIBYL_MPI_Op_create
#define MPI_Op_free SIBYL_MPI_Op_free
#define MPI_Op_commutative SIBYL_MPI_Op_commutative
#define MPI_Reduce_local SIBYL_MPI_Reduce_local
#define MPI_Barrier SIBYL_MPI_Barrier
#define MPI_Bcast SIBYL_MPI_Bcast
#define MPI_Reduce SIBYL_MPI_Reduce
#define MPI_Allreduce SIBYL_MPI_Allreduce
#define MPI_Scan SIBYL_MPI_Scan
#define MPI_Exscan SIBYL_MPI_Exscan
#define MPI_Gather SIBYL_MPI_Gather
#define MPI_Gatherv SIBYL_MPI_Gatherv
#define MPI_Scatter SIBYL_MPI_Scatter
#define MPI_Scatterv SIBYL_MPI_Scatterv
#define MPI_Allgather SIBYL_MPI_Allgather
#define MPI_Allgatherv SIBYL_MPI_Allgatherv
#define MPI_Alltoall SIBYL_MPI_Alltoall
#define MPI_Alltoallv SIBYL_MPI_Alltoallv
#define MPI_Alltoallw SIBYL_MPI_Alltoallw
#define MPI_Reduce_scatter SIBYL_MPI_Reduce_scatter
#define MPI_Reduce_scatter_block SIBYL_MPI_Reduce_scatter_block
#define MPI_Ibarrier SIBYL_MPI_Ibarrier
#define MPI_Ibcast SIBYL_MPI_Ibcast
#define MPI_Ireduce SIBYL_MPI_Ireduce
#define MPI_Iallreduce SIBYL_MPI_Iallreduce
#define MPI_Iscan SIBYL_MPI_Iscan
#define MPI_Iexscan SIBYL_MPI_Iexscan
#define MPI_Igather SIBYL_MPI_Igather
#define MPI_Igatherv SIBYL_MPI_Igatherv
#define MPI_Iscatter SIBYL_MPI_Iscatter
#define MPI_Iscatterv SIBYL_MPI_Iscatterv
#define MPI_Iallgather SIBYL_MPI_Iallgather
#define MPI_Iallgatherv SIBYL_MPI_Iallgatherv
#define MPI_Ialltoall SIBYL_MPI_Ialltoall
#define MPI_Ialltoallv SIBYL_MPI_Ialltoallv
#define MPI_Ialltoallw SIBYL_MPI_Ialltoallw
#define MPI_Ireduce_scatter SIBYL_MPI_Ireduce_scatter
#define MPI_Ireduce_scatter_block SIBYL_MPI_Ireduce_scatter_block

#define PMPI_Op_create SIBYL_MPI_Op_create
#define PMPI_Op_free SIBYL_MPI_Op_free
#define PMPI_Op_commutative SIBYL_MPI_Op_commutative
#define PMPI_Reduce_local SIBYL_MPI_Reduce_local
#define PMPI_Barrier SIBYL_MPI_Barrier
#define PMPI_Bcast SIBYL_MPI_Bcast
#define PMPI_Reduce SIBYL_MPI_Reduce
#define PMPI_Allreduce SIBYL_MPI_Allreduce
#define PMPI_Scan SIBYL_MPI_Scan
#define PMPI_Exscan SIBYL_MPI_Exscan
#define PMPI_Gather SIBYL_MPI_Gather
#define PMPI_Gatherv SIBYL_MPI_Gatherv
#define PMPI_Scatter SIBYL_MPI_Scatter
#define PMPI_Scatterv SIBYL_MPI_Scatterv
#define PMPI_Allgather SIBYL_MPI_Allgather
#define PMPI_Allgatherv SIBYL_MPI_Allgatherv
#define PMPI_Alltoall SIBYL_MPI_Alltoall
#define PMPI_Alltoallv SIBYL_MPI_Alltoallv
#define PMPI_Alltoallw SIBYL_MPI_Alltoallw
#define PMPI_Reduce_scatter SIBYL_MPI_Reduce_scatter
#define PMPI_Reduce_scatter_block SIBYL_MPI_Reduce_scatter_block
#define PMPI_Ibarrier SIBYL_MPI_Ibarrier
#define PMPI_Ibcast SIBYL_MPI_Ibcast
#define PMPI_Ireduce SIBYL_MPI_Ireduce
#define PMPI_Iallreduce SIBYL_MPI_Iallreduce
#define PMPI_Iscan SIBYL_MPI_Iscan
#define PMPI_Iexscan SIBYL_MPI_Iexscan
#define PMPI_Igather SIBYL_MPI_Igather
#define PMPI_Igatherv SIBYL_MPI_Igatherv
#define PMPI_Iscatter SIBYL_MPI_Iscatter
#define PMPI_Iscatterv SIBYL_MPI_Iscatterv
#define PMPI_Iallgather SIBYL_MPI_Iallgather
#define PMPI_Iallgatherv SIBYL_MPI_Iallgatherv
#define PMPI_Ialltoall SIBYL_MPI_Ialltoall
#define PMPI_Ialltoallv SIBYL_MPI_Ialltoallv
#define PMPI_Ialltoallw SIBYL_MPI_Ialltoallw
#define PMPI_Ireduce_scatter SIBYL_MPI_Ireduce_scatter
#define PMPI_Ireduce_scatter_block SIBYL_MPI_Ireduce_scatter_block

int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);
int MPI_Op_commutative(MPI_Op op, int *commute);
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count,
		     MPI_Datatype datatype, MPI_Op op);

int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
	      MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
		  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count,
	     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count,
	       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
	       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	       MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, const int recvcounts[], const int displs[],
		MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[],
		 const int displs[], MPI_Datatype sendtype, void *recvbuf,
		 int recvcount, MPI_Datatype recvtype, int root,
		 MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount,
		   MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int displs[],
		   MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		  const int recvcounts[], const int rdispls[],
		  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[],
		  const int sdispls[], const MPI_Datatype sendtypes[],
		  void *recvbuf, const int recvcounts[], const int rdispls[],
		  const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
		       const int recvcounts[], MPI_Datatype datatype,
		       MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
			     int recvcount, MPI_Datatype datatype, MPI_Op op,
			     MPI_Comm comm);

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
	       MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
		MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
		   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count,
	      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
	      MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
		MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
		MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
		MPI_Comm comm, MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, const int recvcounts[], const int displs[],
		 MPI_Datatype recvtype, int root, MPI_Comm comm,
		 MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 void *recvbuf, int recvcount, MPI_Datatype recvtype,
		 int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[],
		  const int displs[], MPI_Datatype sendtype, void *recvbuf,
		  int recvcount, MPI_Datatype recvtype, int root,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount,
		   MPI_Datatype sendtype, void *recvbuf, int recvcount,
		   MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount,
		    MPI_Datatype sendtype, void *recvbuf,
		    const int recvcounts[], const int displs[],
		    MPI_Datatype recvtype, MPI_Comm comm,
		    MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		  void *recvbuf, int recvcount, MPI_Datatype recvtype,
		  MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
		   const int recvcounts[], const int rdispls[],
		   MPI_Datatype recvtype, MPI_Comm comm,
		   MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
		   const int sdispls[], const MPI_Datatype sendtypes[],
		   void *recvbuf, const int recvcounts[], const int rdispls[],
		   const MPI_Datatype recvtypes[], MPI_Comm comm,
		   MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
			const int recvcounts[], MPI_Datatype datatype,
			MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
			      int recvcount, MPI_Datatype datatype,
			      MPI_Op op, MPI_Comm comm,
			      MPI_Request *request);

#endif /* SIBYL_MPI_COLL_H */
