# sibyl.m4 -- configure checks of Sibyl.

# SIBYL_REQUIRE_LIB(NAME, HEADER, LIB, FUNCTION, DEBIAN-PACKAGE, VAR)
# Find HEADER and FUNCTION in -lLIB; set VAR_LIBS.  Fail naming the
# Debian package when either is missing.
AC_DEFUN([SIBYL_REQUIRE_LIB], [
  AC_CHECK_HEADER([$2], [],
    [AC_MSG_ERROR([$1 header <$2> not found.
  Install it with:  apt-get install $5
  (or point CPPFLAGS=-I... at its include directory)])])
  sibyl_save_LIBS=$LIBS
  LIBS=
  AC_SEARCH_LIBS([$4], [$3], [],
    [AC_MSG_ERROR([$1 library (-l$3) not found.
  Install it with:  apt-get install $5
  (or point LDFLAGS=-L... at its library directory)])])
  $6_LIBS=$LIBS
  LIBS=$sibyl_save_LIBS
  AC_SUBST([$6_LIBS])
])

# SIBYL_REQUIRE_MPI: the Open MPI compiler wrapper and launcher.
AC_DEFUN([SIBYL_REQUIRE_MPI], [
  AC_ARG_VAR([MPICC], [Open MPI C compiler wrapper])
  AC_ARG_VAR([MPIRUN], [Open MPI launcher])
  AC_PATH_PROGS([MPICC], [mpicc], [])
  AC_PATH_PROGS([MPIRUN], [mpirun mpiexec], [])
  AS_IF([test -z "$MPICC" || test -z "$MPIRUN"],
    [AC_MSG_ERROR([Open MPI not found (mpicc and mpirun are needed).
  Install it with:  apt-get install libopenmpi-dev openmpi-bin])])
  AC_MSG_CHECKING([whether $MPICC is Open MPI])
  AS_IF([$MPICC --showme:version >/dev/null 2>&1],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([$MPICC is not Open MPI's wrapper.
  Install Open MPI with:  apt-get install libopenmpi-dev openmpi-bin
  or set MPICC=/path/to/openmpi/bin/mpicc])])
  dnl The emulator's transport is compiled and linked against Open MPI
  dnl directly (the rest of Sibyl does not use it).
  AC_ARG_VAR([MPI_CFLAGS], [flags to compile against Open MPI])
  AC_ARG_VAR([MPI_LIBS], [flags to link against Open MPI])
  AS_IF([test -z "$MPI_CFLAGS"], [MPI_CFLAGS=`$MPICC --showme:compile`])
  AS_IF([test -z "$MPI_LIBS"], [MPI_LIBS=`$MPICC --showme:link`])
  AC_DEFINE_UNQUOTED([MPIRUN_PATH], ["$MPIRUN"], [Open MPI's launcher, run by sibyl emulate])
])

# SIBYL_ULT: the context switch of the emulator's user-level threads:
# hand-written assembly where we have it, ucontext otherwise.
AC_DEFUN([SIBYL_ULT], [
  AC_REQUIRE([AC_CANONICAL_HOST])
  AC_ARG_WITH([ult],
    [AS_HELP_STRING([--with-ult=asm|ucontext],
      [context switch of the emulator's threads (default: asm on x86-64 and
       aarch64, ucontext elsewhere)])],
    [], [with_ult=auto])
  sibyl_ult_arch=none
  case $host_cpu in
    x86_64|amd64) sibyl_ult_arch=x86_64 ;;
    aarch64|arm64) sibyl_ult_arch=aarch64 ;;
  esac
  case $with_ult in
    auto) AS_IF([test $sibyl_ult_arch = none], [sibyl_ult=ucontext], [sibyl_ult=asm]) ;;
    asm) AS_IF([test $sibyl_ult_arch = none],
           [AC_MSG_ERROR([--with-ult=asm: no hand-written context switch for $host_cpu; use --with-ult=ucontext])])
         sibyl_ult=asm ;;
    ucontext) sibyl_ult=ucontext ;;
    *) AC_MSG_ERROR([--with-ult must be asm or ucontext, not $with_ult]) ;;
  esac
  AS_IF([test $sibyl_ult = ucontext], [
    AC_CHECK_FUNCS([makecontext], [],
      [AC_MSG_ERROR([no makecontext() in the C library: the emulator needs --with-ult=asm on x86-64 or aarch64])])
    AC_DEFINE([SIBYL_ULT_UCONTEXT], [1], [user-level threads switch with swapcontext])
    sibyl_ult_desc=ucontext
  ], [
    AC_DEFINE([SIBYL_ULT_ASM], [1], [user-level threads switch with hand-written assembly])
    sibyl_ult_desc="$sibyl_ult_arch assembly"
  ])
  AM_CONDITIONAL([ULT_X86_64], [test $sibyl_ult = asm && test $sibyl_ult_arch = x86_64])
  AM_CONDITIONAL([ULT_AARCH64], [test $sibyl_ult = asm && test $sibyl_ult_arch = aarch64])
  AM_CONDITIONAL([ULT_UCONTEXT], [test $sibyl_ult = ucontext])
])

# SIBYL_CC_WARNINGS: the warnings every Sibyl file compiles cleanly with.
AC_DEFUN([SIBYL_CC_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])])
  SIBYL_CFLAGS=
  for flag in -Wall -Wextra -Wundef -Wshadow -Wpointer-arith -Wstrict-prototypes \
              -Wmissing-prototypes -Wno-unused-parameter -Wformat=2; do
    AX_SIBYL_CHECK_CFLAG([$flag], [SIBYL_CFLAGS="$SIBYL_CFLAGS $flag"])
  done
  AS_IF([test "x$enable_werror" = xyes], [SIBYL_CFLAGS="$SIBYL_CFLAGS -Werror"])
  AC_SUBST([SIBYL_CFLAGS])
])

# SIBYL_CC_VISIBILITY: hide every symbol not marked for export.
AC_DEFUN([SIBYL_CC_VISIBILITY], [
  VISIBILITY_CFLAGS=
  AX_SIBYL_CHECK_CFLAG([-fvisibility=hidden], [VISIBILITY_CFLAGS=-fvisibility=hidden])
  AC_SUBST([VISIBILITY_CFLAGS])
])

# SIBYL_SANITIZERS: --enable-sanitizers builds everything with ASan+UBSan
# (sibylcc then adds the same flags to the programs it builds).
AC_DEFUN([SIBYL_SANITIZERS], [
  SIBYL_SAN_FLAGS=
  AC_SUBST([SIBYL_SAN_FLAGS])
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers],
      [build with AddressSanitizer and UndefinedBehaviorSanitizer])])
  AS_IF([test "x$enable_sanitizers" = xyes], [
    san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
    AX_SIBYL_CHECK_CFLAG([$san], [
      CFLAGS="$CFLAGS $san"
      SIBYL_SAN_FLAGS=$san
      LDFLAGS="$LDFLAGS -fsanitize=address,undefined"],
      [AC_MSG_ERROR([$CC does not support $san])])
  ])
])

# SIBYL_FUZZER: libFuzzer targets when the compiler is clang with -fsanitize=fuzzer.
AC_DEFUN([SIBYL_FUZZER], [
  AC_ARG_VAR([FUZZ_CC], [clang used to build libFuzzer targets])
  AC_CHECK_PROGS([FUZZ_CC], [clang clang-16 clang-15 clang-14], [])
  sibyl_have_libfuzzer=no
  AS_IF([test -n "$FUZZ_CC"], [
    AC_MSG_CHECKING([whether $FUZZ_CC supports -fsanitize=fuzzer])
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){return 0;}' > conftest_fz.c
    AS_IF([$FUZZ_CC -fsanitize=fuzzer,address conftest_fz.c -o conftest_fz >/dev/null 2>&1],
      [sibyl_have_libfuzzer=yes])
    rm -f conftest_fz.c conftest_fz
    AC_MSG_RESULT([$sibyl_have_libfuzzer])
  ])
  AM_CONDITIONAL([HAVE_LIBFUZZER], [test $sibyl_have_libfuzzer = yes])
])

# AX_SIBYL_CHECK_CFLAG(FLAG, ACTION-IF-OK, [ACTION-IF-NOT])
AC_DEFUN([AX_SIBYL_CHECK_CFLAG], [
  AC_MSG_CHECKING([whether $CC accepts $1])
  sibyl_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS $1 -Werror"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
    [AC_MSG_RESULT([yes]); CFLAGS=$sibyl_save_CFLAGS; $2],
    [AC_MSG_RESULT([no]); CFLAGS=$sibyl_save_CFLAGS; $3])
])

# SIBYL_LIBDW: elfutils' libdw (optional) resolves the code regions the
# emulator records (call sites) to function and file:line; without it the
# emulator names a site by its symbol and offset (dladdr).
AC_DEFUN([SIBYL_LIBDW], [
  AC_ARG_WITH([libdw],
    [AS_HELP_STRING([--with-libdw@<:@=yes|no|check@:>@],
      [name code regions by file:line with elfutils libdw (default: check)])],
    [], [with_libdw=check])
  sibyl_have_libdw=no
  DW_LIBS=
  AS_IF([test "x$with_libdw" != xno], [
    AC_CHECK_HEADER([elfutils/libdwfl.h], [
      sibyl_save_LIBS=$LIBS
      LIBS=
      AC_SEARCH_LIBS([dwfl_begin], [dw], [sibyl_have_libdw=yes
        DW_LIBS="$LIBS -lelf"], [], [-lelf])
      LIBS=$sibyl_save_LIBS])
    AS_IF([test "x$sibyl_have_libdw$with_libdw" = xnoyes],
      [AC_MSG_ERROR([--with-libdw: elfutils libdw not found.
  Install it with:  apt-get install libdw-dev])])])
  sibyl_regions_desc="symbol+offset (no libdw)"
  AS_IF([test "x$sibyl_have_libdw" = xyes],
    [sibyl_regions_desc="function and file:line (libdw)"
     AC_DEFINE([HAVE_LIBDW], [1], [elfutils libdw names code regions])],
    [AS_IF([test "x$with_libdw" != xno],
      [AC_MSG_WARN([elfutils libdw not found: code regions are named by
  symbol+offset instead of file:line (apt-get install libdw-dev)])])])
  AC_SUBST([DW_LIBS])
])
