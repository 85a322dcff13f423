// SPDX-License-Identifier: GPL-2.0
/*
 * timewrite [-c] FILE STRING: write STRING to FILE (a tracefs control file)
 * and print how long "echo STRING > FILE" took in nanoseconds,
 * CLOCK_MONOTONIC: from open(O_TRUNC) to close(), because some files act
 * at close (a filter is applied when set_ftrace_filter is released).
 * busybox has no clock finer than 10 ms.
 *
 * -c: print "WALL_NS OFFCPU_NS", where OFFCPU_NS is the part of the wall
 * time this thread was not on a CPU (CLOCK_THREAD_CPUTIME_ID is the
 * scheduler's own runtime of the thread): time spent asleep in a grace
 * period or on a lock, or waiting for a CPU, as opposed to the CPU time
 * of the write itself (text patching under TCG).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1, c0, c1;
	int offcpu = 0;
	ssize_t n;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "-c")) {
		offcpu = 1;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: timewrite [-c] FILE STRING\n");
		return 2;
	}
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = clock_ns(CLOCK_MONOTONIC);
	fd = open(argv[1], O_WRONLY | O_TRUNC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	n = write(fd, argv[2], strlen(argv[2]));
	if (n < 0) {
		perror("write");
		return 1;
	}
	if (close(fd)) {
		perror("close");
		return 1;
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (offcpu) {
		long long off = (t1 - t0) - (c1 - c0);

		printf("%lld %lld\n", t1 - t0, off > 0 ? off : 0);
	} else {
		printf("%lld\n", t1 - t0);
	}
	return 0;
}
