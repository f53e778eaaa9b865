/*
 * emu_fortran.h -- what the Fortran bindings share (fortran.c, written by
 * fortran-gen.py, and fortran_rt.c).
 *
 * gfortran passes every argument by reference and a string's length as a
 * hidden size_t after the other arguments; a routine's name is its lower
 * case name with one trailing underscore.  Handles are the C handles
 * (INTEGER both).  A status is MPI_STATUS_SIZE (6) INTEGERs laid out as the
 * C MPI_Status (source, tag, error, cancelled, then the byte count in
 * two).  The sentinels of mpif.h -- MPI_BOTTOM, MPI_IN_PLACE,
 * MPI_STATUS_IGNORE... -- are variables in COMMON blocks this file
 * defines: a binding tells them by their addresses.
 */
#ifndef EMU_FORTRAN_H
#define EMU_FORTRAN_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "include/mpi.h"

/* The bindings are part of the library's interface (public.syms). */
#define F_API __attribute__((visibility("default")))
#define F_ALIAS(other, name) \
	extern __typeof__(name) other __attribute__((alias(#name), \
						     visibility("default")))

/* The COMMON blocks of mpif.h's sentinels (fortran_rt.c). */
extern int sibyl_mpif_bottom_;
extern int sibyl_mpif_in_place_;
extern int sibyl_mpif_status_ignore_[6];
extern int sibyl_mpif_statuses_ignore_[6];
extern int sibyl_mpif_errcodes_ignore_[1];
extern int sibyl_mpif_unweighted_[1];
extern int sibyl_mpif_weights_empty_[1];

_Static_assert(sizeof(MPI_Status) == 6 * sizeof(int),
	       "a Fortran status is six INTEGERs");

static inline void *f_buf(const void *p)
{
	if (p == &sibyl_mpif_bottom_)
		return MPI_BOTTOM;
	if (p == &sibyl_mpif_in_place_)
		return MPI_IN_PLACE;
	return (void *)p;
}
#define F_BUF(p) f_buf(p)

static inline int *f_ints(const int *p)
{
	if (p == sibyl_mpif_unweighted_)
		return MPI_UNWEIGHTED;
	if (p == sibyl_mpif_weights_empty_)
		return MPI_WEIGHTS_EMPTY;
	if (p == sibyl_mpif_errcodes_ignore_)
		return MPI_ERRCODES_IGNORE;
	return (int *)p;
}
#define F_INTS(p) f_ints(p)

/* A status out: the C status to pass (NULL for MPI_STATUS_IGNORE), then
 * its copy into the Fortran one. */
#define F_STATUS(f, tmp) \
	((f) == sibyl_mpif_status_ignore_ || \
	 (f) == sibyl_mpif_statuses_ignore_ ? MPI_STATUS_IGNORE : (tmp))
#define F_STATUS_OUT(f, s) \
	do { \
		if (s) \
			memcpy((f), (s), sizeof(MPI_Status)); \
	} while (0)
#define F_STATUS_IN(s, f) memcpy((s), (f), sizeof(MPI_Status))

MPI_Status *f_statuses(int *f, int n);
void f_statuses_out(int *f, MPI_Status *s, int n);

/* Strings: a C copy of a Fortran string in (trailing blanks dropped); a
 * C buffer for a string out, and its copy into the Fortran one (blank
 * padded).  Both free the C string. */
char *f_cstr(const char *f, size_t len);
char *f_outbuf(size_t len);
void f_fstr(char *f, size_t len, char *c);

#endif /* EMU_FORTRAN_H */
