/*
 * fortran_rt.c -- the hand-written part of the Fortran bindings
 * (emu_fortran.h; fortran.c has the generated routines).
 *
 *  - The COMMON blocks of mpif.h's sentinels, defined here once per
 *    process (not per rank: the runtime's globals are not privatized), so
 *    that every rank's MPI_BOTTOM has the same address.
 *  - Status arrays and strings between Fortran and C.
 *  - The routines whose Fortran form differs from C: MPI_INIT and
 *    MPI_INIT_THREAD (no argc, argv), MPI_WTIME and MPI_WTICK (functions),
 *    MPI_AINT_ADD and MPI_AINT_DIFF, MPI_PCONTROL (no IERROR),
 *    MPI_BUFFER_DETACH (the address is of no use in Fortran), and
 *    MPI_COMM_GET_ATTR and MPI_ATTR_GET (Fortran gets the attribute's
 *    value, C a pointer to it).
 *  - gfortran's STOP, ERROR STOP and EXIT intrinsic: libgfortran ends
 *    the process with the C library's exit(), which would end every rank
 *    of the process;
 *    here a rank's STOP ends that rank as exit() does (libc.c): after
 *    MPI_Finalize with its code, before it stopping the emulation with a
 *    report.  The messages are libgfortran's.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "emu_fortran.h"
#include "emu_private.h"

/* gfortran aligns a COMMON block up to 32 bytes, and ld warns when the
 * definition is less aligned than a common symbol. */
#define F_COMMON F_API __attribute__((aligned(32)))
F_COMMON int sibyl_mpif_bottom_;
F_COMMON int sibyl_mpif_in_place_;
F_COMMON int sibyl_mpif_status_ignore_[6];
F_COMMON int sibyl_mpif_statuses_ignore_[6];
F_COMMON int sibyl_mpif_errcodes_ignore_[1];
F_COMMON int sibyl_mpif_unweighted_[1];
F_COMMON int sibyl_mpif_weights_empty_[1];

/* A Fortran status is the C status's six INTEGERs (MPI_STATUS_SIZE). */
_Static_assert(sizeof(MPI_Status) == 6 * sizeof(MPI_Fint),
	       "MPI_STATUS_SIZE is not the C status's size");

/* Refuse what the conversions cannot read or write: NULL, and the
 * IGNORE sentinels of either language. */
static void statuses_real(emu_rank *r, const char *call, const void *c,
			  const void *f)
{
	if (!c || c == MPI_STATUS_IGNORE || c == MPI_STATUSES_IGNORE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the C status is %s",
			      c ? "MPI_STATUS(ES)_IGNORE" : "NULL");
	if (!f || f == MPI_F_STATUS_IGNORE || f == MPI_F_STATUSES_IGNORE)
		emu_mpi_error(r, call, MPI_ERR_ARG, "the Fortran status is %s",
			      f ? "MPI_F_STATUS(ES)_IGNORE" : "NULL");
}

int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
	EMU_API(r, "MPI_Status_c2f");
	statuses_real(r, "MPI_Status_c2f", c_status, f_status);
	memcpy(f_status, c_status, sizeof *c_status);
	return MPI_SUCCESS;
}

int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
	EMU_API(r, "MPI_Status_f2c");
	statuses_real(r, "MPI_Status_f2c", c_status, f_status);
	memcpy(c_status, f_status, sizeof *c_status);
	return MPI_SUCCESS;
}

/* ------------------------------------------------------------ helpers */

MPI_Status *f_statuses(int *f, int n)
{
	if (f == sibyl_mpif_statuses_ignore_ || f == sibyl_mpif_status_ignore_)
		return MPI_STATUSES_IGNORE;
	MPI_Status *s = malloc((n > 0 ? (size_t)n : 1) * sizeof *s);
	if (!s)
		emu_fatal("out of memory for %d statuses", n);
	return s;
}

void f_statuses_out(int *f, MPI_Status *s, int n)
{
	if (!s)
		return;
	if (n > 0)
		memcpy(f, s, (size_t)n * sizeof *s);
	free(s);
}

char *f_cstr(const char *f, size_t len)
{
	while (len > 0 && f[len - 1] == ' ')
		len--;
	char *c = malloc(len + 1);
	if (!c)
		emu_fatal("out of memory for a string of %zu characters", len);
	memcpy(c, f, len);
	c[len] = '\0';
	return c;
}

/* Room for what the C routine may write whatever the Fortran length: the
 * C routines write up to their MPI_MAX_... sizes. */
enum { F_OUT_ROOM = 4096 };

char *f_outbuf(size_t len)
{
	char *c = calloc(len + F_OUT_ROOM + 1, 1);
	if (!c)
		emu_fatal("out of memory for a string of %zu characters", len);
	return c;
}

void f_fstr(char *f, size_t len, char *c)
{
	size_t n = strlen(c);
	if (n > len)
		n = len;
	memcpy(f, c, n);
	memset(f + n, ' ', len - n);
	free(c);
}

/* ----------------------------------------------------------- by hand */

F_API void mpi_init_(int *ierr);
void mpi_init_(int *ierr)
{
	*ierr = MPI_Init(NULL, NULL);
}
F_ALIAS(pmpi_init_, mpi_init_);

F_API void mpi_init_thread_(const int *required, int *provided, int *ierr);
void mpi_init_thread_(const int *required, int *provided, int *ierr)
{
	*ierr = MPI_Init_thread(NULL, NULL, *required, provided);
}
F_ALIAS(pmpi_init_thread_, mpi_init_thread_);

F_API double mpi_wtime_(void);
double mpi_wtime_(void)
{
	return MPI_Wtime();
}
F_ALIAS(pmpi_wtime_, mpi_wtime_);

F_API double mpi_wtick_(void);
double mpi_wtick_(void)
{
	return MPI_Wtick();
}
F_ALIAS(pmpi_wtick_, mpi_wtick_);

F_API MPI_Aint mpi_aint_add_(const MPI_Aint *base, const MPI_Aint *disp);
MPI_Aint mpi_aint_add_(const MPI_Aint *base, const MPI_Aint *disp)
{
	return MPI_Aint_add(*base, *disp);
}
F_ALIAS(pmpi_aint_add_, mpi_aint_add_);

F_API MPI_Aint mpi_aint_diff_(const MPI_Aint *a, const MPI_Aint *b);
MPI_Aint mpi_aint_diff_(const MPI_Aint *a, const MPI_Aint *b)
{
	return MPI_Aint_diff(*a, *b);
}
F_ALIAS(pmpi_aint_diff_, mpi_aint_diff_);

F_API void mpi_pcontrol_(const int *level);
void mpi_pcontrol_(const int *level)
{
	(void)MPI_Pcontrol(*level);
}
F_ALIAS(pmpi_pcontrol_, mpi_pcontrol_);

F_API void mpi_buffer_detach_(void *buffer, int *size, int *ierr);
void mpi_buffer_detach_(void *buffer, int *size, int *ierr)
{
	void *addr;
	(void)buffer;
	*ierr = MPI_Buffer_detach(&addr, size);
}
F_ALIAS(pmpi_buffer_detach_, mpi_buffer_detach_);

/* The predefined attributes' values are ints in C. */
F_API void mpi_comm_get_attr_(const int *comm, const int *key, MPI_Aint *val,
			      int *flag, int *ierr);
void mpi_comm_get_attr_(const int *comm, const int *key, MPI_Aint *val,
			int *flag, int *ierr)
{
	void *p = NULL;
	*ierr = MPI_Comm_get_attr(*comm, *key, &p, flag);
	if (*ierr == MPI_SUCCESS && *flag && p)
		*val = *(int *)p;
}
F_ALIAS(pmpi_comm_get_attr_, mpi_comm_get_attr_);

F_API void mpi_attr_get_(const int *comm, const int *key, int *val,
			 int *flag, int *ierr);
void mpi_attr_get_(const int *comm, const int *key, int *val, int *flag,
		   int *ierr)
{
	void *p = NULL;
	*ierr = MPI_Attr_get(*comm, *key, &p, flag);
	if (*ierr == MPI_SUCCESS && *flag && p)
		*val = *(int *)p;
}
F_ALIAS(pmpi_attr_get_, mpi_attr_get_);

/* -------------------------------------------------------------- STOP */

/* libgfortran's own, for STOP outside any rank. */
static void *gfortran_next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f)
		emu_fatal("%s: not found in libgfortran", name);
	return f;
}

/* A rank's STOP: libgfortran's message (quiet: none), then exit() as
 * libc.c has it for a rank. */
static void stop_rank(const char *what, const char *s, size_t len,
		      bool quiet, int code) __attribute__((noreturn));
static void stop_rank(const char *what, const char *s, size_t len,
		      bool quiet, int code)
{
	if (!quiet) {
		fflush(stdout);
		fprintf(stderr, "%s", what);
		if (s) {
			fputc(' ', stderr);
			fwrite(s, 1, len, stderr);
		}
		fputc('\n', stderr);
		fflush(stderr);
	}
	exit(code);
}

typedef void (*stop_num_fn)(int, bool);
typedef void (*stop_str_fn)(const char *, size_t, bool);

F_API void _gfortran_stop_numeric(int code, bool quiet);
void _gfortran_stop_numeric(int code, bool quiet)
{
	if (!emu.current)
		((stop_num_fn)gfortran_next("_gfortran_stop_numeric"))(code,
									quiet);
	char num[24];
	snprintf(num, sizeof num, "%d", code);
	stop_rank("STOP", num, strlen(num), quiet, code);
}

F_API void _gfortran_stop_string(const char *s, size_t len, bool quiet);
void _gfortran_stop_string(const char *s, size_t len, bool quiet)
{
	if (!emu.current)
		((stop_str_fn)gfortran_next("_gfortran_stop_string"))(s, len,
								      quiet);
	/* A bare STOP prints nothing. */
	stop_rank("STOP", s, len, quiet || !s, 0);
}

F_API void _gfortran_error_stop_numeric(int code, bool quiet);
void _gfortran_error_stop_numeric(int code, bool quiet)
{
	if (!emu.current)
		((stop_num_fn)gfortran_next("_gfortran_error_stop_numeric"))(
			code, quiet);
	char num[24];
	snprintf(num, sizeof num, "%d", code);
	stop_rank("ERROR STOP", num, strlen(num), quiet, code);
}

F_API void _gfortran_error_stop_string(const char *s, size_t len,
				       bool quiet);
void _gfortran_error_stop_string(const char *s, size_t len, bool quiet)
{
	if (!emu.current)
		((stop_str_fn)gfortran_next("_gfortran_error_stop_string"))(
			s, len, quiet);
	stop_rank("ERROR STOP", s, len, quiet, 1);
}

/* The EXIT intrinsic (CALL EXIT(status), a GNU extension SNAP uses):
 * libgfortran flushes its units and calls the C library's exit(). */
typedef void (*exit_i4_fn)(int32_t *);
typedef void (*exit_i8_fn)(int64_t *);

F_API void _gfortran_exit_i4(int32_t *status);
void _gfortran_exit_i4(int32_t *status)
{
	if (!emu.current)
		((exit_i4_fn)gfortran_next("_gfortran_exit_i4"))(status);
	exit(status ? (int)*status : 0);
}

F_API void _gfortran_exit_i8(int64_t *status);
void _gfortran_exit_i8(int64_t *status)
{
	if (!emu.current)
		((exit_i8_fn)gfortran_next("_gfortran_exit_i8"))(status);
	exit(status ? (int)*status : 0);
}
