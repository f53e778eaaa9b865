! mpi.f90 -- Sibyl's `mpi' module: mpif.h's constants, sentinels and
! function types (routines have implicit interfaces, as in mpif.h).
! Built with the Fortran compiler configure found; sibylfort finds the
! module where it installs mpif.h.
module mpi
  implicit none
  include 'mpif.h'
end module mpi
