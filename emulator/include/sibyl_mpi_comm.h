/*
 * sibyl_mpi_comm.h -- Sibyl's MPI for emulated ranks: communicators,
 * groups, attributes, error handlers, process topologies.
 * Included by <mpi.h>; not to be included directly.
 *
 * Communicator, group, keyval and error-handler handles are small
 * integers.  Intercommunicators are not supported: MPI_Comm_test_inter
 * always says false, and the calls that need one fail with MPI_ERR_COMM.
 * Process topologies: Cartesian, graph and distributed-graph (`reorder'
 * is ignored: ranks keep their order), with the neighbourhood
 * collectives on each.
 */
#ifndef SIBYL_MPI_COMM_H
#define SIBYL_MPI_COMM_H

/* ------------------------------------------------------------ constants */

/* MPI_Comm_compare, MPI_Group_compare */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

#define MPI_GROUP_EMPTY 1

/* MPI_Comm_split_type: a node is a block of SIBYL_NODE_SIZE (`sibyl
 * emulate --node-size') consecutive ranks of MPI_COMM_WORLD. */
#define MPI_COMM_TYPE_SHARED 1

/* MPI_Topo_test (MPI_UNDEFINED: no topology) */
#define MPI_GRAPH      1
#define MPI_CART       2
#define MPI_DIST_GRAPH 3
/* The weights' sentinels are objects of the library: GCC takes a small
 * constant address (Open MPI's (int *)2) passed for an array for one of
 * no elements, and warns (-Wstringop-overflow). */
extern int SIBYL_MPI_UNWEIGHTED[1], SIBYL_MPI_WEIGHTS_EMPTY[1];
#define MPI_UNWEIGHTED    SIBYL_MPI_UNWEIGHTED
#define MPI_WEIGHTS_EMPTY SIBYL_MPI_WEIGHTS_EMPTY

/* Attribute keys.  The predefined ones are readable on every
 * communicator; MPI_Comm_get_attr gives a pointer to an int. */
#define MPI_KEYVAL_INVALID  (-1)
#define MPI_TAG_UB          1  /* MPI_TAG_UB_VALUE */
#define MPI_HOST            2  /* MPI_PROC_NULL: no host process */
#define MPI_IO              3  /* MPI_ANY_SOURCE: every rank can do I/O */
#define MPI_WTIME_IS_GLOBAL 4  /* 1: MPI_Wtime is the virtual time */
#define MPI_UNIVERSE_SIZE   5  /* the virtual world size */
#define MPI_APPNUM          6  /* 0 */
#define MPI_LASTUSEDCODE    7  /* the rank's last MPI_Add_error_* code */

/* ---------------------------------------------------------------- types */

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval,
					void *extra_state,
					void *attribute_val_in,
					void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval,
					  void *attribute_val,
					  void *extra_state);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code,
					  ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
/* MPI-1 names (MPI_Keyval_create). */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
			      void *attribute_val_in, void *attribute_val_out,
			      int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval,
				void *attribute_val, void *extra_state);

/* Predefined attribute callbacks: no copy, copy the value, no action. */
#define MPI_COMM_NULL_COPY_FN   SIBYL_MPI_COMM_NULL_COPY_FN
#define MPI_COMM_DUP_FN         SIBYL_MPI_COMM_DUP_FN
#define MPI_COMM_NULL_DELETE_FN SIBYL_MPI_COMM_NULL_DELETE_FN
#define MPI_NULL_COPY_FN        SIBYL_MPI_COMM_NULL_COPY_FN
#define MPI_DUP_FN              SIBYL_MPI_COMM_DUP_FN
#define MPI_NULL_DELETE_FN      SIBYL_MPI_COMM_NULL_DELETE_FN
int SIBYL_MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval,
				void *extra_state, void *attribute_val_in,
				void *attribute_val_out, int *flag);
int SIBYL_MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval,
			  void *extra_state, void *attribute_val_in,
			  void *attribute_val_out, int *flag);
int SIBYL_MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval,
				  void *attribute_val, void *extra_state);

/* ------------------------------------------------------------ functions */

#define MPI_Comm_dup SIBYL_MPI_Comm_dup
#define MPI_Comm_dup_with_info SIBYL_MPI_Comm_dup_with_info
#define MPI_Comm_split SIBYL_MPI_Comm_split
#define MPI_Comm_split_type SIBYL_MPI_Comm_split_type
#define MPI_Comm_create SIBYL_MPI_Comm_create
#define MPI_Comm_free SIBYL_MPI_Comm_free
#define MPI_Comm_compare SIBYL_MPI_Comm_compare
#define MPI_Comm_group SIBYL_MPI_Comm_group
#define MPI_Comm_test_inter SIBYL_MPI_Comm_test_inter
#define MPI_Comm_remote_size SIBYL_MPI_Comm_remote_size
#define MPI_Comm_remote_group SIBYL_MPI_Comm_remote_group
#define MPI_Intercomm_create SIBYL_MPI_Intercomm_create
#define MPI_Intercomm_merge SIBYL_MPI_Intercomm_merge
#define MPI_Comm_set_name SIBYL_MPI_Comm_set_name
#define MPI_Comm_get_name SIBYL_MPI_Comm_get_name
#define MPI_Group_size SIBYL_MPI_Group_size
#define MPI_Group_rank SIBYL_MPI_Group_rank
#define MPI_Group_translate_ranks SIBYL_MPI_Group_translate_ranks
#define MPI_Group_compare SIBYL_MPI_Group_compare
#define MPI_Group_union SIBYL_MPI_Group_union
#define MPI_Group_intersection SIBYL_MPI_Group_intersection
#define MPI_Group_difference SIBYL_MPI_Group_difference
#define MPI_Group_incl SIBYL_MPI_Group_incl
#define MPI_Group_excl SIBYL_MPI_Group_excl
#define MPI_Group_range_incl SIBYL_MPI_Group_range_incl
#define MPI_Group_range_excl SIBYL_MPI_Group_range_excl
#define MPI_Group_free SIBYL_MPI_Group_free
#define MPI_Comm_create_keyval SIBYL_MPI_Comm_create_keyval
#define MPI_Comm_free_keyval SIBYL_MPI_Comm_free_keyval
#define MPI_Comm_set_attr SIBYL_MPI_Comm_set_attr
#define MPI_Comm_get_attr SIBYL_MPI_Comm_get_attr
#define MPI_Comm_delete_attr SIBYL_MPI_Comm_delete_attr
#define MPI_Keyval_create SIBYL_MPI_Keyval_create
#define MPI_Keyval_free SIBYL_MPI_Keyval_free
#define MPI_Attr_put SIBYL_MPI_Attr_put
#define MPI_Attr_get SIBYL_MPI_Attr_get
#define MPI_Attr_delete SIBYL_MPI_Attr_delete
#define MPI_Comm_create_errhandler SIBYL_MPI_Comm_create_errhandler
#define MPI_Comm_set_errhandler SIBYL_MPI_Comm_set_errhandler
#define MPI_Comm_get_errhandler SIBYL_MPI_Comm_get_errhandler
#define MPI_Comm_call_errhandler SIBYL_MPI_Comm_call_errhandler
#define MPI_Errhandler_free SIBYL_MPI_Errhandler_free
#define MPI_Dims_create SIBYL_MPI_Dims_create
#define MPI_Cart_create SIBYL_MPI_Cart_create
#define MPI_Cart_coords SIBYL_MPI_Cart_coords
#define MPI_Cart_rank SIBYL_MPI_Cart_rank
#define MPI_Cart_shift SIBYL_MPI_Cart_shift
#define MPI_Cart_sub SIBYL_MPI_Cart_sub
#define MPI_Cart_get SIBYL_MPI_Cart_get
#define MPI_Cartdim_get SIBYL_MPI_Cartdim_get
#define MPI_Cart_map SIBYL_MPI_Cart_map
#define MPI_Topo_test SIBYL_MPI_Topo_test
#define MPI_Graph_create SIBYL_MPI_Graph_create
#define MPI_Graphdims_get SIBYL_MPI_Graphdims_get
#define MPI_Graph_get SIBYL_MPI_Graph_get
#define MPI_Graph_neighbors_count SIBYL_MPI_Graph_neighbors_count
#define MPI_Graph_neighbors SIBYL_MPI_Graph_neighbors
#define MPI_Graph_map SIBYL_MPI_Graph_map
#define MPI_Dist_graph_create SIBYL_MPI_Dist_graph_create
#define MPI_Dist_graph_create_adjacent SIBYL_MPI_Dist_graph_create_adjacent
#define MPI_Dist_graph_neighbors_count SIBYL_MPI_Dist_graph_neighbors_count
#define MPI_Dist_graph_neighbors SIBYL_MPI_Dist_graph_neighbors

#define PMPI_Comm_dup SIBYL_MPI_Comm_dup
#define PMPI_Comm_dup_with_info SIBYL_MPI_Comm_dup_with_info
#define PMPI_Comm_split SIBYL_MPI_Comm_split
#define PMPI_Comm_split_type SIBYL_MPI_Comm_split_type
#define PMPI_Comm_create SIBYL_MPI_Comm_create
#define PMPI_Comm_free SIBYL_MPI_Comm_free
#define PMPI_Comm_compare SIBYL_MPI_Comm_compare
#define PMPI_Comm_group SIBYL_MPI_Comm_group
#define PMPI_Comm_test_inter SIBYL_MPI_Comm_test_inter
#define PMPI_Comm_remote_size SIBYL_MPI_Comm_remote_size
#define PMPI_Comm_remote_group SIBYL_MPI_Comm_remote_group
#define PMPI_Intercomm_create SIBYL_MPI_Intercomm_create
#define PMPI_Intercomm_merge SIBYL_MPI_Intercomm_merge
#define PMPI_Comm_set_name SIBYL_MPI_Comm_set_name
#define PMPI_Comm_get_name SIBYL_MPI_Comm_get_name
#define PMPI_Group_size SIBYL_MPI_Group_size
#define PMPI_Group_rank SIBYL_MPI_Group_rank
#define PMPI_Group_translate_ranks SIBYL_MPI_Group_translate_ranks
#define PMPI_Group_compare SIBYL_MPI_Group_compare
#define PMPI_Group_union SIBYL_MPI_Group_union
#define PMPI_Group_intersection SIBYL_MPI_Group_intersection
#define PMPI_Group_difference SIBYL_MPI_Group_difference
#define PMPI_Group_incl SIBYL_MPI_Group_incl
#define PMPI_Group_excl SIBYL_MPI_Group_excl
#define PMPI_Group_range_incl SIBYL_MPI_Group_range_incl
#define PMPI_Group_range_excl SIBYL_MPI_Group_range_excl
#define PMPI_Group_free SIBYL_MPI_Group_free
#define PMPI_Comm_create_keyval SIBYL_MPI_Comm_create_keyval
#define PMPI_Comm_free_keyval SIBYL_MPI_Comm_free_keyval
#define PMPI_Comm_set_attr SIBYL_MPI_Comm_set_attr
#define PMPI_Comm_get_attr SIBYL_MPI_Comm_get_attr
#define PMPI_Comm_delete_attr SIBYL_MPI_Comm_delete_attr
#define PMPI_Keyval_create SIBYL_MPI_Keyval_create
#define PMPI_Keyval_free SIBYL_MPI_Keyval_free
#define PMPI_Attr_put SIBYL_MPI_Attr_put
#define PMPI_Attr_get SIBYL_MPI_Attr_get
#define PMPI_Attr_delete SIBYL_MPI_Attr_delete
#define PMPI_Comm_create_errhandler SIBYL_MPI_Comm_create_errhandler
#define PMPI_Comm_set_errhandler SIBYL_MPI_Comm_set_errhandler
#define PMPI_Comm_get_errhandler SIBYL_MPI_Comm_get_errhandler
#define PMPI_Comm_call_errhandler SIBYL_MPI_Comm_call_errhandler
#define PMPI_Errhandler_free SIBYL_MPI_Errhandler_free
#define PMPI_Dims_create SIBYL_MPI_Dims_create
#define PMPI_Cart_create SIBYL_MPI_Cart_create
#define PMPI_Cart_coords SIBYL_MPI_Cart_coords
#define PMPI_Cart_rank SIBYL_MPI_Cart_rank
#define PMPI_Cart_shift SIBYL_MPI_Cart_shift
#define PMPI_Cart_sub SIBYL_MPI_Cart_sub
#define PMPI_Cart_get SIBYL_MPI_Cart_get
#define PMPI_Cartdim_get SIBYL_MPI_Cartdim_get
#define PMPI_Cart_map SIBYL_MPI_Cart_map
#define PMPI_Topo_test SIBYL_MPI_Topo_test
#define PMPI_Graph_create SIBYL_MPI_Graph_create
#define PMPI_Graphdims_get SIBYL_MPI_Graphdims_get
#define PMPI_Graph_get SIBYL_MPI_Graph_get
#define PMPI_Graph_neighbors_count SIBYL_MPI_Graph_neighbors_count
#define PMPI_Graph_neighbors SIBYL_MPI_Graph_neighbors
#define PMPI_Graph_map SIBYL_MPI_Graph_map
#define PMPI_Dist_graph_create SIBYL_MPI_Dist_graph_create
#define PMPI_Dist_graph_create_adjacent SIBYL_MPI_Dist_graph_create_adjacent
#define PMPI_Dist_graph_neighbors_count SIBYL_MPI_Dist_graph_neighbors_count
#define PMPI_Dist_graph_neighbors SIBYL_MPI_Dist_graph_neighbors

/* Communicators */
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key,
			MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader,
			 MPI_Comm peer_comm, int remote_leader, int tag,
			 MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high,
			MPI_Comm *newintracomm);
int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);

/* Groups */
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
			      MPI_Group group2, int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_union(MPI_Group group1, MPI_Group group2,
		    MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2,
			   MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2,
			 MPI_Group *newgroup);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
		   MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3],
			 MPI_Group *newgroup);
int MPI_Group_free(MPI_Group *group);

/* Attributes */
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
			   MPI_Comm_delete_attr_function *comm_delete_attr_fn,
			   int *comm_keyval, void *extra_state);
int MPI_Comm_free_keyval(int *comm_keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val,
		      int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
int MPI_Keyval_create(MPI_Copy_function *copy_fn,
		      MPI_Delete_function *delete_fn, int *keyval,
		      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* Error handlers */
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
			       MPI_Errhandler *errhandler);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);

/* Process topologies */
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
		    const int periods[], int reorder, MPI_Comm *comm_cart);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source,
		   int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
		 int coords[]);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
		 const int periods[], int *newrank);
int MPI_Topo_test(MPI_Comm comm, int *status);
int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
		     const int edges[], int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
		  int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
			int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
		  const int edges[], int *newrank);
int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
			  const int degrees[], const int destinations[],
			  const int weights[], MPI_Info info, int reorder,
			  MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
				   const int sources[],
				   const int sourceweights[], int outdegree,
				   const int destinations[],
				   const int destweights[], MPI_Info info,
				   int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
				   int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
			     int sourceweights[], int maxoutdegree,
			     int destinations[], int destweights[]);

#endif /* SIBYL_MPI_COMM_H */
