/*
 * output.c -- the ranks' standard output, written out by the runtime and
 * a thread of the emulating process, outside every SEB.
 *
 * Under mpirun an emulating process's standard output is a terminal (a
 * pseudo-terminal read by Open MPI's daemon).  A line written to it cost
 * the SEB that printed it 4.5-6.6 us (median; 50-90 us at the 99th
 * percentile, milliseconds for the first), host time that varied from
 * run to run and landed in the prediction as computation.  So:
 *
 *   - file descriptor 1 becomes the write end of a pipe (1 MiB when the
 *     system allows), and a thread looks at the pipe every FORWARD_NS and
 *     writes what it holds to the original standard output, a line at a
 *     time (mpirun forwards what it reads as it comes);
 *   - stdout is fully buffered, in a 64 KiB buffer given at start, and
 *     the runtime writes it into the pipe at the rank's next MPI call
 *     (emu_out_at_call, after the SEB's end was timed): a printed line
 *     costs its SEB its formatting;
 *   - emu_out_flush() writes everything out before a message of the
 *     runtime on standard error; a fatal signal writes what the buffer
 *     and the pipe hold (emu_out_drain_signal).
 *
 * Standard error stays as it is: the runtime's own messages, those of the
 * fatal-signal handlers and those of Open MPI go straight out, even from
 * a process that is dying.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "emu_private.h"

/* The pipe, its thread and buffers are the process's: emu.out. */
static emu_out_state *const O = &emu.out;

/* Write all of p[0..n) to the original output; 0, or -1 if it is gone. */
static int put_all(const char *p, ssize_t n)
{
	while (n > 0) {
		ssize_t w = write(O->out, p, (size_t)n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/* Write p[0..n) a line at a time, as the ranks' C library wrote it:
 * Open MPI forwards what it reads from each process's terminal as it
 * comes, and a write of many lines would reach it in pieces that end
 * inside a line, interleaved with another process's lines. */
static void put_lines(const char *p, ssize_t n)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', (size_t)n);
		ssize_t k = nl ? nl - p + 1 : n;
		/* An output that is gone (a closed terminal) drops what
		 * comes, as writing to it would have. */
		if (put_all(p, k) != 0)
			return;
		p += k;
		n -= k;
	}
}

/* Move what the pipe holds now to the output (O->lock held); returns
 * 0 when the pipe is empty, 1 at its end (no writer left). */
static int move(void)
{
	for (;;) {
		ssize_t n = read(O->rfd, O->buf, sizeof O->buf);
		if (n > 0) {
			put_lines(O->buf, n);
			continue;
		}
		if (n == 0)
			return 1;
		if (errno == EINTR)
			continue;
		return 0;       /* EAGAIN: empty */
	}
}

/*
 * The thread looks at the pipe every FORWARD_NS instead of waiting on it:
 * a writer that wakes a sleeping thread pays for the wake-up (on a
 * virtual machine, an interrupt to an idle virtual CPU), and the first
 * line of a run measured 35-110 us in its SEB that way, the next ones
 * 8-9 us.  Output reaches the terminal at most FORWARD_NS late, and
 * before any message of the runtime (emu_out_flush).
 */
#define FORWARD_NS 4000000

static void *forward(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec d = { 0, FORWARD_NS };
		nanosleep(&d, NULL);
		pthread_mutex_lock(&O->lock);
		int end = !O->active || move();
		pthread_mutex_unlock(&O->lock);
		if (end)
			return NULL;
	}
}

void emu_out_init(void)
{
	int p[2];
	pthread_t t;
	pthread_attr_t a;

	if (O->active)
		return;
	O->out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (O->out < 0)
		return;         /* no standard output: nothing to do */
	if (pipe2(p, O_CLOEXEC) != 0)
		goto direct;
	if (fcntl(p[0], F_SETFL, O_NONBLOCK) != 0)
		goto direct_pipe;
	/* Room for what the ranks print between two looks (1 MiB, the
	 * default limit of an unprivileged process; else the 64 KiB a pipe
	 * has), and its first page now (the kernel keeps one after a
	 * read). */
	(void)fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	if (write(p[1], "", 1) == 1) {
		char c;
		(void)read(p[0], &c, 1);
	}
	O->rfd = p[0];
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 65536);
	/* The thread must not take signals meant for the ranks' thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	O->active = 1;
	int rc = pthread_create(&t, &a, forward, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	if (rc != 0) {
		O->active = 0;
		O->rfd = -1;
		goto direct_pipe;
	}
	fflush(stdout);
	if (dup2(p[1], STDOUT_FILENO) < 0) {
		/* The thread ends at the pipe's end (no writer left). */
		pthread_mutex_lock(&O->lock);
		O->active = 0;
		pthread_mutex_unlock(&O->lock);
		close(p[1]);
		goto direct;
	}
	close(p[1]);
	/* Full buffering, in a buffer of ours given now (allocated at the
	 * first output, it cost that output's SEB 70-240 us), written out
	 * at the rank's next MPI call (emu_out_at_call), by the runtime. */
	memset(O->stdio_buf, 0, sizeof O->stdio_buf);    /* its pages, now */
	setvbuf(stdout, O->stdio_buf, _IOFBF, sizeof O->stdio_buf);
	O->buffered = 1;
	return;
direct_pipe:
	close(p[0]);
	close(p[1]);
direct:
	close(O->out);
	O->out = -1;
}

/* Take the lock, but give up after 0.2 s: a process that dies in a signal
 * handler must not hang on it. */
static int lock_bounded(void)
{
	for (int i = 0; i < 2000; i++) {
		if (pthread_mutex_trylock(&O->lock) == 0)
			return 1;
		struct timespec d = { 0, 100000 };
		nanosleep(&d, NULL);
	}
	return 0;
}

void emu_out_drain_signal(void)
{
	/* Also from a fatal-signal handler: stdio is not safe to call
	 * there, the pipe is, and so is writing what stdout's buffer holds
	 * (a rank that crashes in the SEB that printed). */
	if (!O->active || !lock_bounded())
		return;
	(void)move();
#ifdef __GLIBC__
	if (O->buffered &&
	    stdout->_IO_write_ptr > stdout->_IO_write_base) {
		put_lines(stdout->_IO_write_base,
			  stdout->_IO_write_ptr - stdout->_IO_write_base);
		stdout->_IO_write_ptr = stdout->_IO_write_base;
	}
#endif
	pthread_mutex_unlock(&O->lock);
}

void emu_out_flush(void)
{
	fflush(stdout);
	emu_out_drain_signal();
}

void emu_out_fini(void)
{
	fflush(stdout);
	if (!O->active || !lock_bounded())
		return;
	(void)move();
	/* From now on standard output is the original one again (what
	 * exit() flushes goes there); a child process the program started
	 * may still hold the pipe, and the thread forwards what it writes
	 * until the process exits. */
	dup2(O->out, STDOUT_FILENO);
	pthread_mutex_unlock(&O->lock);
}
