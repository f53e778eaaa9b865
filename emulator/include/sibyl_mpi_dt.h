/*
 * sibyl_mpi_dt.h -- Sibyl's MPI for emulated ranks: derived datatypes,
 * packing.  Included by <mpi.h>; not to be included directly.
 *
 * MPI_Type_size, MPI_Get_count and MPI_Get_elements are in <mpi.h>.  The
 * MPI-1 names removed in MPI-3.0 (MPI_Type_hvector, MPI_Type_hindexed,
 * MPI_Type_struct, MPI_Address, MPI_Type_extent, MPI_Type_lb,
 * MPI_Type_ub) are kept for old programs.
 */
#ifndef SIBYL_MPI_DT_H
#define SIBYL_MPI_DT_H

#define MPI_Type_contiguous SIBYL_MPI_Type_contiguous
#define MPI_Type_vector SIBYL_MPI_Type_vector
#define MPI_Type_create_hvector SIBYL_MPI_Type_create_hvector
#define MPI_Type_hvector SIBYL_MPI_Type_hvector
#define MPI_Type_indexed SIBYL_MPI_Type_indexed
#define MPI_Type_create_hindexed SIBYL_MPI_Type_create_hindexed
#define MPI_Type_hindexed SIBYL_MPI_Type_hindexed
#define MPI_Type_create_indexed_block SIBYL_MPI_Type_create_indexed_block
#define MPI_Type_create_hindexed_block SIBYL_MPI_Type_create_hindexed_block
#define MPI_Type_create_struct SIBYL_MPI_Type_create_struct
#define MPI_Type_struct SIBYL_MPI_Type_struct
#define MPI_Type_create_resized SIBYL_MPI_Type_create_resized
#define MPI_Type_commit SIBYL_MPI_Type_commit
#define MPI_Type_free SIBYL_MPI_Type_free
#define MPI_Type_dup SIBYL_MPI_Type_dup
#define MPI_Type_size_x SIBYL_MPI_Type_size_x
#define MPI_Type_get_extent SIBYL_MPI_Type_get_extent
#define MPI_Type_get_extent_x SIBYL_MPI_Type_get_extent_x
#define MPI_Type_get_true_extent SIBYL_MPI_Type_get_true_extent
#define MPI_Type_get_true_extent_x SIBYL_MPI_Type_get_true_extent_x
#define MPI_Type_extent SIBYL_MPI_Type_extent
#define MPI_Type_lb SIBYL_MPI_Type_lb
#define MPI_Type_ub SIBYL_MPI_Type_ub
#define MPI_Get_address SIBYL_MPI_Get_address
#define MPI_Address SIBYL_MPI_Address
#define MPI_Aint_add SIBYL_MPI_Aint_add
#define MPI_Aint_diff SIBYL_MPI_Aint_diff
#define MPI_Get_elements_x SIBYL_MPI_Get_elements_x
#define MPI_Pack SIBYL_MPI_Pack
#define MPI_Unpack SIBYL_MPI_Unpack
#define MPI_Pack_size SIBYL_MPI_Pack_size
#define MPI_Type_set_name SIBYL_MPI_Type_set_name
#define MPI_Type_get_name SIBYL_MPI_Type_get_name

#define PMPI_Type_contiguous SIBYL_MPI_Type_contiguous
#define PMPI_Type_vector SIBYL_MPI_Type_vector
#define PMPI_Type_create_hvector SIBYL_MPI_Type_create_hvector
#define PMPI_Type_hvector SIBYL_MPI_Type_hvector
#define PMPI_Type_indexed SIBYL_MPI_Type_indexed
#define PMPI_Type_create_hindexed SIBYL_MPI_Type_create_hindexed
#define PMPI_Type_hindexed SIBYL_MPI_Type_hindexed
#define PMPI_Type_create_indexed_block SIBYL_MPI_Type_create_indexed_block
#define PMPI_Type_create_hindexed_block SIBYL_MPI_Type_create_hindexed_block
#define PMPI_Type_create_struct SIBYL_MPI_Type_create_struct
#define PMPI_Type_struct SIBYL_MPI_Type_struct
#define PMPI_Type_create_resized SIBYL_MPI_Type_create_resized
#define PMPI_Type_commit SIBYL_MPI_Type_commit
#define PMPI_Type_free SIBYL_MPI_Type_free
#define PMPI_Type_dup SIBYL_MPI_Type_dup
#define PMPI_Type_size_x SIBYL_MPI_Type_size_x
#define PMPI_Type_get_extent SIBYL_MPI_Type_get_extent
#define PMPI_Type_get_extent_x SIBYL_MPI_Type_get_extent_x
#define PMPI_Type_get_true_extent SIBYL_MPI_Type_get_true_extent
#define PMPI_Type_get_true_extent_x SIBYL_MPI_Type_get_true_extent_x
#define PMPI_Type_extent SIBYL_MPI_Type_extent
#define PMPI_Type_lb SIBYL_MPI_Type_lb
#define PMPI_Type_ub SIBYL_MPI_Type_ub
#define PMPI_Get_address SIBYL_MPI_Get_address
#define PMPI_Address SIBYL_MPI_Address
#define PMPI_Aint_add SIBYL_MPI_Aint_add
#define PMPI_Aint_diff SIBYL_MPI_Aint_diff
#define PMPI_Get_elements_x SIBYL_MPI_Get_elements_x
#define PMPI_Pack SIBYL_MPI_Pack
#define PMPI_Unpack SIBYL_MPI_Unpack
#define PMPI_Pack_size SIBYL_MPI_Pack_size
#define PMPI_Type_set_name SIBYL_MPI_Type_set_name
#define PMPI_Type_get_name SIBYL_MPI_Type_get_name

/* Constructors */
int MPI_Type_contiguous(int count, MPI_Datatype oldtype,
			MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride,
		    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride,
		     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int array_of_blocklengths[],
		     const int array_of_displacements[],
		     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
			     const MPI_Aint array_of_displacements[],
			     MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, const int array_of_blocklengths[],
		      const MPI_Aint array_of_displacements[],
		      MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int array_of_displacements[],
				  MPI_Datatype oldtype,
				  MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint array_of_displacements[],
				   MPI_Datatype oldtype,
				   MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
			   const MPI_Aint array_of_displacements[],
			   const MPI_Datatype array_of_types[],
			   MPI_Datatype *newtype);
int MPI_Type_struct(int count, const int array_of_blocklengths[],
		    const MPI_Aint array_of_displacements[],
		    const MPI_Datatype array_of_types[],
		    MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb,
			    MPI_Aint extent, MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *datatype);
int MPI_Type_free(MPI_Datatype *datatype);

/* Queries */
int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb,
			MPI_Aint *extent);
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb,
			  MPI_Count *extent);
int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb,
			     MPI_Aint *true_extent);
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
			       MPI_Count *true_extent);
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype,
		       MPI_Count *count);
int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
int MPI_Type_get_name(MPI_Datatype datatype, char *type_name,
		      int *resultlen);

/* Addresses */
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Address(void *location, MPI_Aint *address);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);

/* Packing */
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype,
	     void *outbuf, int outsize, int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype datatype, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm,
		  int *size);

#endif /* SIBYL_MPI_DT_H */
