/*
 * trload.c -- the runtime's side of the transport module.
 *
 * The transport (transport.c) is the only part of Sibyl linked with Open
 * MPI, and it is built as a module of its own, sibyl-transport.so, which
 * the runtime loads with dlopen(RTLD_LOCAL) when it first needs it.  Open
 * MPI's library then comes in as a dependency of that module, in a scope
 * of its own: none of its symbols is visible to the program, so a call to
 * an MPI routine that Sibyl's <mpi.h> does not declare cannot bind to Open
 * MPI's: it fails to link, naming the routine.  (Once the transport has
 * started Open MPI, at the start of the runtime, Open MPI's components,
 * which it opens with RTLD_GLOBAL, bring its library into the global
 * scope; by then the program's calls are bound: sibylcc links with
 * -z now.)
 *
 * The module is found as the dynamic loader finds a library: sibylcc
 * links programs with its directory in their run path.  SIBYL_TRANSPORT,
 * when set, is the module's path instead (runtime.c passes it on).
 *
 * Every emu_tr_* function of emu_transport.h is here a call through the
 * module's table.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "emu_transport.h"

static const emu_tr_ops *ops;
static const emu_tr_upcalls *up;        /* given before the module loads */
static const char *module = EMU_TR_MODULE;

void emu_tr_module(const char *path)
{
	module = path && *path ? path : EMU_TR_MODULE;
}

/* Load the module, or end the process saying why (the transport cannot
 * abort the job it is not part of). */
static const emu_tr_ops *tr(void)
{
	if (ops)
		return ops;
	const char *path = module;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "sibyl: cannot load the transport module "
			"%s: %s\nsibyl: programs built with sibylcc find it "
			"in their run path (the directory of Sibyl's "
			"libraries when the program was linked); set "
			"SIBYL_TRANSPORT to its path if it has moved\n", path,
			dlerror());
		_exit(3);
	}
	const emu_tr_ops *o = (const emu_tr_ops *)dlsym(h, EMU_TR_SYMBOL);
	if (!o || o->abi != EMU_TR_ABI || o->size != sizeof *o) {
		fprintf(stderr, "sibyl: %s is not the transport of this "
			"version of Sibyl (%s); rebuild the program with "
			"this Sibyl's sibylcc, or set SIBYL_TRANSPORT to the "
			"matching module\n", path, o ? "another version" :
			"no " EMU_TR_SYMBOL " in it");
		_exit(3);
	}
	ops = o;
	if (up)
		ops->set_upcalls(up);
	return ops;
}

int emu_tr_init(int *argc, char ***argv, int *nprocs, int *proc, char *err,
		size_t errlen)
{
	return tr()->init(argc, argv, nprocs, proc, err, errlen);
}

void emu_tr_fini(void)
{
	tr()->fini();
}

void emu_tr_abort(int code)
{
	tr()->abort(code);
	_exit(code);
}

void emu_tr_send_env(int proc, const emu_env *env, const void *data)
{
	tr()->send_env(proc, env, data);
}

void emu_tr_send_cts(int proc, int32_t sreq, int32_t rreq, int has_ack,
		     uint64_t ack_seq, int64_t ack_vt)
{
	tr()->send_cts(proc, sreq, rreq, has_ack, ack_seq, ack_vt);
}

void emu_tr_send_data(int proc, int32_t rreq, const void *buf, uint64_t size,
		      int32_t sreq)
{
	tr()->send_data(proc, rreq, buf, size, sreq);
}

void emu_tr_send_rt(int proc, const void *data, size_t len)
{
	tr()->send_rt(proc, data, len);
}

void emu_tr_post_data(int proc, int32_t rreq, void *buf, uint64_t size)
{
	tr()->post_data(proc, rreq, buf, size);
}

int emu_tr_progress(void)
{
	return tr()->progress();
}

int emu_tr_wait(int64_t ns)
{
	return tr()->wait(ns);
}

int emu_tr_busy(void)
{
	return tr()->busy();
}

int emu_tr_vote(const int64_t mine[4], int64_t sum[4])
{
	return tr()->vote(mine, sum);
}

int emu_tr_voting(void)
{
	return tr()->voting();
}

const char *emu_tr_host(int bind)
{
	return tr()->host(bind);
}

void emu_tr_counts(uint64_t *sent, uint64_t *recvd)
{
	tr()->counts(sent, recvd);
}

/* Kept until the module is loaded, which the first other call does. */
void emu_tr_set_upcalls(const emu_tr_upcalls *u)
{
	up = u;
	if (ops)
		ops->set_upcalls(u);
}
