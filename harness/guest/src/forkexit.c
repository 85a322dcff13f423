// SPDX-License-Identifier: GPL-2.0
/*
 * forkexit N: an exit storm.  Fork N children that exit at once, without
 * waiting for one before forking the next (the parent reaps whatever has
 * exited as it goes, so that at most a few hundred zombies wait), then reap
 * the rest; print the wall time per child in nanoseconds
 * (CLOCK_MONOTONIC, first fork to last reap).  Every exit goes through
 * the exiting-task bookkeeping of Tasks RCU.  Exits non-zero if a fork or
 * a child failed, and prints nothing then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Reap one child (blocking or not); 1 if one was reaped, 0 if none, -1 on a failed child. */
static int reap(int flags)
{
	int status;
	pid_t pid = waitpid(-1, &status, flags);

	if (pid <= 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 1 : -1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0, forked = 0, reaped = 0;
	long long t0;
	int bad = 0, r;

	if (n <= 0) {
		fprintf(stderr, "usage: forkexit N\n");
		return 2;
	}
	t0 = now_ns();
	while (forked < n) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			if (errno != EAGAIN || forked == reaped) {
				perror("fork");
				return 1;
			}
			r = reap(0);
		} else {
			forked++;
			r = forked - reaped > 256 ? reap(0) : reap(WNOHANG);
		}
		if (r < 0)
			bad = 1;
		reaped += r != 0;
	}
	while (reaped < forked) {
		r = reap(0);
		if (r == 0) {
			perror("waitpid");
			return 1;
		}
		bad |= r < 0;
		reaped++;
	}
	if (bad) {
		fprintf(stderr, "forkexit: a child failed\n");
		return 1;
	}
	printf("%lld\n", (now_ns() - t0) / n);
	return 0;
}
