/*
 * priv_affinity.c -- a rank binding itself to CPUs leaves the emulating
 * process where it was.
 *
 * Every rank binds its own thread to the CPU of its rank (modulo the
 * host's CPUs) with sched_setaffinity(0, ...), then with
 * pthread_setaffinity_np(pthread_self(), ...), exchanging a message with
 * its neighbours in between so the ranks of a process interleave.  Under
 * Sibyl both calls succeed and the affinity every rank reads back is the
 * one the process had at the start: each rank's call would otherwise move
 * the thread that runs all of them (Graph500's AML binds this way).  A
 * set with no CPU is EINVAL, as the C library says.  Natively each rank
 * is its own process and only the return values are checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "emutest.h"

static void turn(emu_test *t, int step)
{
	int out = t->rank * 1000 + step, in = -1;
	MPI_Sendrecv(&out, 1, MPI_INT, emu_right(t, 1), 1, &in, 1, MPI_INT,
		     emu_left(t, 1), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	EMU_EQ(t, in, emu_left(t, 1) * 1000 + step, "turn %d", step);
}

/* A CPU of the host for rank k: the ranks of a process ask for
 * different ones whenever the host has several, whatever the process is
 * bound to. */
static int cpu_for(int k)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 1 ? (int)(k % n) : 0;
}

static int first_cpu(const cpu_set_t *set)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			return c;
	return -1;
}

int main(int argc, char **argv)
{
	emu_test t;
	cpu_set_t start, want, now, none;
	emu_init(&t, "priv_affinity", &argc, &argv);
	EMU_EQ(&t, sched_getaffinity(0, sizeof start, &start), 0,
	       "sched_getaffinity");
	CPU_ZERO(&want);
	CPU_SET(cpu_for(t.rank), &want);
	turn(&t, 0);
	EMU_EQ(&t, sched_setaffinity(0, sizeof want, &want), 0,
	       "sched_setaffinity: %s", strerror(errno));
	turn(&t, 1);
	EMU_EQ(&t, pthread_setaffinity_np(pthread_self(), sizeof want, &want),
	       0, "pthread_setaffinity_np");
	turn(&t, 2);
	CPU_ZERO(&none);
	errno = 0;
	EMU_EQ(&t, sched_setaffinity(0, sizeof none, &none), -1,
	       "sched_setaffinity of no CPU");
	EMU_EQ(&t, errno, EINVAL, "its errno");
	EMU_EQ(&t, pthread_setaffinity_np(pthread_self(), sizeof none, &none),
	       EINVAL, "pthread_setaffinity_np of no CPU");
	EMU_EQ(&t, sched_getaffinity(0, sizeof now, &now), 0,
	       "sched_getaffinity");
#ifdef SIBYL_MPI
	EMU_TRUE(&t, CPU_EQUAL(&now, &start), "the process's affinity moved: "
		 "%d CPUs from CPU %d at the start, %d from CPU %d now",
		 CPU_COUNT(&start), first_cpu(&start), CPU_COUNT(&now),
		 first_cpu(&now));
#else
	EMU_TRUE(&t, CPU_EQUAL(&now, &want), "the binding did not hold");
#endif
	return emu_finish(&t);
}
