! f_mpi.f90 -- Fortran under the emulator: the `mpi' module and the
! bindings (tests/emu_fortran.sh).  Each check prints "FAIL ..." when it
! does not hold; rank 0 prints "f_mpi: ok N ranks" when every rank's hold.
! Runs the same natively (mpifort, mpirun).
module state
  implicit none
  integer :: calls = 0          ! per rank: each rank's own count
  double precision, allocatable :: work(:)
end module state

program f_mpi
  use mpi
  use state
  implicit none
  integer :: ierr, rank, nranks, i, n, left, right, bad, total, key
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  integer :: reqs(2), idx, newcomm, subrank, vec, namelen
  integer :: sbuf(4), rbuf(4)
  integer(kind=MPI_ADDRESS_KIND) :: tagub
  double precision :: x, y, t0, t1
  double complex :: z, zsum
  logical :: mine, all, flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=16) :: word
  integer :: failures

  failures = 0
  call MPI_INIT(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_INIT')
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  t0 = MPI_WTIME()

  ! Module variables are per rank.
  calls = calls + rank
  allocate(work(rank + 1))
  work = rank
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call check(calls == rank, 'module variable')
  call check(size(work) == rank + 1 .and. work(1) == rank, 'allocatable')

  ! A ring with blocking calls and a status.
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  sbuf = (/ rank, rank * 2, rank * 3, 42 /)
  call MPI_SENDRECV(sbuf, 4, MPI_INTEGER, right, 7, rbuf, 4, MPI_INTEGER, &
                    left, 7, MPI_COMM_WORLD, status, ierr)
  call check(rbuf(1) == left .and. rbuf(3) == 3 * left .and. rbuf(4) == 42, &
             'sendrecv data')
  call check(status(MPI_SOURCE) == left .and. status(MPI_TAG) == 7, &
             'status source and tag')
  call MPI_GET_COUNT(status, MPI_INTEGER, n, ierr)
  call check(n == 4, 'MPI_GET_COUNT')

  ! Non-blocking, waitall with statuses, waitany's 1-based index.
  call MPI_IRECV(rbuf, 2, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_ISEND(sbuf, 2, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_WAITALL(2, reqs, statuses, ierr)
  call check(statuses(MPI_SOURCE, 1) == left, 'waitall status')
  call check(reqs(1) == MPI_REQUEST_NULL, 'request freed')
  call MPI_IRECV(rbuf, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, reqs(1), ierr)
  reqs(2) = MPI_REQUEST_NULL
  call MPI_SEND(sbuf, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
  call check(idx == 1, 'waitany index is 1-based')

  ! Reductions on Fortran types, MPI_IN_PLACE.
  x = rank + 1
  call MPI_ALLREDUCE(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                     MPI_COMM_WORLD, ierr)
  call check(y == dble(nranks * (nranks + 1) / 2), 'allreduce sum')
  total = rank
  call MPI_ALLREDUCE(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_MAX, &
                     MPI_COMM_WORLD, ierr)
  call check(total == nranks - 1, 'allreduce in place max')
  mine = rank >= 0
  call MPI_ALLREDUCE(mine, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, &
                     ierr)
  call check(all, 'logical and')
  z = dcmplx(dble(rank), 1d0)
  call MPI_REDUCE(z, zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, 0, &
                  MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(zsum == dcmplx(dble(nranks * (nranks - 1) / 2), &
                            dble(nranks)), 'complex sum')

  ! Strings: broadcast characters, a name out.
  word = ' '
  if (rank == 0) word = 'emulated'
  call MPI_BCAST(word, 16, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call check(word == 'emulated', 'character broadcast')
  call MPI_GET_PROCESSOR_NAME(host, namelen, ierr)
  call check(namelen > 0 .and. len_trim(host) == namelen, 'processor name')

  ! A communicator, a derived type, an attribute.
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(rank, 2), rank, newcomm, ierr)
  call MPI_COMM_RANK(newcomm, subrank, ierr)
  call check(subrank == rank / 2, 'comm_split rank')
  call MPI_COMM_FREE(newcomm, ierr)
  call check(newcomm == MPI_COMM_NULL, 'comm_free')
  call MPI_TYPE_VECTOR(2, 1, 2, MPI_INTEGER, vec, ierr)
  call MPI_TYPE_COMMIT(vec, ierr)
  rbuf = -1
  call MPI_SENDRECV(sbuf, 1, vec, right, 10, rbuf, 2, MPI_INTEGER, left, &
                    10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(rbuf(1) == left .and. rbuf(2) == 3 * left, 'vector type')
  call MPI_TYPE_FREE(vec, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  call check(flag .and. tagub >= 32767, 'MPI_TAG_UB')

  ! Distributed graphs (the ring) and a neighbourhood collective:
  ! MPI_UNWEIGHTED reaches the library as its sentinel; weights do too.
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 1, (/ left /), &
                                      MPI_UNWEIGHTED, 1, (/ right /), &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, &
                                      .false., newcomm, ierr)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(newcomm, i, n, flag, ierr)
  call check(i == 1 .and. n == 1 .and. .not. flag, 'unweighted graph')
  rbuf = -1
  call MPI_NEIGHBOR_ALLGATHER(rank, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, &
                              newcomm, ierr)
  call check(rbuf(1) == left .and. rbuf(2) == -1, 'neighbor_allgather')
  call MPI_COMM_FREE(newcomm, ierr)
  call MPI_DIST_GRAPH_CREATE(MPI_COMM_WORLD, 1, (/ rank /), (/ 1 /), &
                             (/ right /), (/ rank + 5 /), MPI_INFO_NULL, &
                             .false., newcomm, ierr)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(newcomm, i, n, flag, ierr)
  call check(i == 1 .and. n == 1 .and. flag, 'weighted graph')
  sbuf = -1
  call MPI_DIST_GRAPH_NEIGHBORS(newcomm, 1, sbuf(1:1), sbuf(2:2), 1, &
                                sbuf(3:3), sbuf(4:4), ierr)
  call check(sbuf(1) == left .and. sbuf(2) == left + 5 .and. &
             sbuf(3) == right .and. sbuf(4) == rank + 5, 'graph weights')
  call MPI_COMM_FREE(newcomm, ierr)

  ! An error comes back through IERROR under MPI_ERRORS_RETURN.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, nranks, 0, MPI_COMM_WORLD, ierr)
  call MPI_ERROR_CLASS(ierr, key, i)
  call check(key == MPI_ERR_RANK, 'MPI_ERR_RANK')

  deallocate(work)
  t1 = MPI_WTIME()
  call check(t1 >= t0, 'MPI_WTIME')
  call MPI_REDUCE(failures, bad, 1, MPI_INTEGER, MPI_SUM, 0, &
                  MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. bad == 0) print '(a,i0,a)', 'f_mpi: ok ', nranks, &
                                      ' ranks'
  call MPI_FINALIZE(ierr)
  stop
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'FAIL rank ', rank, ': ', what
      failures = failures + 1
    end if
  end subroutine check
end program f_mpi
