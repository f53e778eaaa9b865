/*
 * env.c -- the MPI environment calls of virtual ranks: MPI_Init and
 * MPI_Finalize (where a rank's first SEB ends and its last one ends),
 * the thread level, MPI_Abort, versions, the processor name, and the
 * clock (MPI_Wtime reads the rank's virtual time).
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "emu_private.h"

int MPI_Init(int *argc, char ***argv)
{
	emu_rank *r = emu_self("MPI_Init");
	if (r->initialized)
		return emu_mpi_error(r, "MPI_Init", MPI_ERR_OTHER,
				     "MPI is already initialized");
	if (emu.plain)
		emu_fatal("rank %d called MPI_Init after %u rank%s of this "
			  "process ended without it: either every rank "
			  "calls MPI_Init or none does", r->world, emu.plain,
			  emu.plain == 1 ? "" : "s");
	emu_rec_start();        /* run directly: the trace starts here */
	emu_rec_enter(r, EMU_SITE);
	r->initialized = 1;
	emu_rec_leave(r, "MPI_Init");
	return MPI_SUCCESS;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = MPI_Init(argc, argv);
	/* Virtual ranks are single threads: at most FUNNELED is honest. */
	if (provided)
		*provided = required < MPI_THREAD_FUNNELED ? required :
			MPI_THREAD_FUNNELED;
	return rc;
}

int MPI_Query_thread(int *provided)
{
	*provided = MPI_THREAD_FUNNELED;
	return MPI_SUCCESS;
}

int MPI_Is_thread_main(int *flag)
{
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_Initialized(int *flag)
{
	emu_rank *r = emu_self("MPI_Initialized");
	*flag = r->initialized;
	return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
	emu_rank *r = emu_self("MPI_Finalized");
	*flag = r->finalized;
	return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
	emu_rank *r = emu_self("MPI_Finalize");
	if (!r->initialized || r->finalized)
		return emu_mpi_error(r, "MPI_Finalize", MPI_ERR_OTHER,
				     r->finalized ? "MPI is already finalized"
				     : "MPI is not initialized");
	emu_comm_finalize_rank(r);
	emu_rec_enter(r, EMU_SITE);
	emu_rec_final(r);
	r->finalized = 1;
	return MPI_SUCCESS;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
	emu_rank *r = emu.current;
	emu_out_flush();
	fprintf(stderr, "sibyl: rank %d called MPI_Abort with error code "
		"%d; aborting the emulation\n", r ? r->world : -1, errorcode);
	emu_rec_abort();
	emu_tr_abort(errorcode ? errorcode : 1);
}

int MPI_Get_version(int *version, int *subversion)
{
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
	int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "Sibyl "
			 "emulator (libsibyl-emu %s) over Open MPI",
			 PACKAGE_VERSION);
	*resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n :
		MPI_MAX_LIBRARY_VERSION_STRING - 1;
	return MPI_SUCCESS;
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
	if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
		strcpy(name, "localhost");
	name[MPI_MAX_PROCESSOR_NAME - 1] = 0;
	*resultlen = (int)strlen(name);
	return MPI_SUCCESS;
}

double MPI_Wtime(void)
{
	emu_rank *r = emu_self("MPI_Wtime");
	return (double)emu_rec_vtime(r) * 1e-12;
}

double MPI_Wtick(void)
{
	return 1e-12;
}
