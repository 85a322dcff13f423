// SPDX-License-Identifier: GPL-2.0
/*
 * timerun COMMAND [ARG...]: run COMMAND and print its wall time in
 * nanoseconds (CLOCK_MONOTONIC, fork to exit).  Exits with COMMAND's
 * status, so "timerun rmmod m || fail" still sees a failed rmmod.
 * busybox has no clock finer than 10 ms.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timerun COMMAND [ARG...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	t1 = now_ns();
	printf("%lld\n", t1 - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
