C     f_common.f -- fixed-form Fortran 77 with mpif.h: COMMON blocks,
C     DATA-initialized and SAVEd variables are per rank
C     (tests/emu_fortran.sh).  Prints "f_common: ok N ranks" from rank 0
C     when every rank's checks hold; runs the same natively.
      PROGRAM FCOMMON
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NRANKS, BAD, NFAIL, I
      INTEGER IBLK(1000)
      DOUBLE PRECISION DBLK(10)
      COMMON /BLK/ IBLK, DBLK
      INTEGER ICOUNT
      COMMON /INIT/ ICOUNT
      INTEGER NEXTID
      EXTERNAL NEXTID
      NFAIL = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NRANKS, IERR)
C     Each rank fills the block, then everyone switches.
      DO 10 I = 1, 1000
         IBLK(I) = RANK * 1000 + I
   10 CONTINUE
      DBLK(10) = RANK
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL FILL
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      DO 20 I = 1, 1000
         IF (IBLK(I) .NE. RANK * 1000 + I + 1) NFAIL = NFAIL + 1
   20 CONTINUE
      IF (DBLK(10) .NE. RANK) NFAIL = NFAIL + 1
C     BLOCK DATA set ICOUNT to 5; each rank's copy starts there.
      IF (ICOUNT .NE. 5) NFAIL = NFAIL + 1
      ICOUNT = ICOUNT + RANK
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (ICOUNT .NE. 5 + RANK) NFAIL = NFAIL + 1
C     A SAVEd counter with a DATA start: 1, 2, 3 in every rank.
      IF (NEXTID() .NE. 1) NFAIL = NFAIL + 1
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (NEXTID() .NE. 2) NFAIL = NFAIL + 1
      IF (NEXTID() .NE. 3) NFAIL = NFAIL + 1
      IF (NFAIL .NE. 0) PRINT *, 'FAIL rank', RANK, NFAIL
      CALL MPI_REDUCE(NFAIL, BAD, 1, MPI_INTEGER, MPI_SUM, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. BAD .EQ. 0)
     &   WRITE (*, '(A,I0,A)') 'f_common: ok ', NRANKS, ' ranks'
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE FILL
      INTEGER IBLK(1000)
      DOUBLE PRECISION DBLK(10)
      COMMON /BLK/ IBLK, DBLK
      INTEGER I
      DO 10 I = 1, 1000
         IBLK(I) = IBLK(I) + 1
   10 CONTINUE
      END

      INTEGER FUNCTION NEXTID()
      INTEGER N
      SAVE N
      DATA N /0/
      N = N + 1
      NEXTID = N
      END

      BLOCK DATA BINIT
      INTEGER ICOUNT
      COMMON /INIT/ ICOUNT
      DATA ICOUNT /5/
      END
