// SPDX-License-Identifier: GPL-2.0
/*
 * timewrite FILE STRING: write STRING to FILE (a tracefs control file) and
 * print how long "echo STRING > FILE" took in nanoseconds, CLOCK_MONOTONIC:
 * from open(O_TRUNC) to close(), because some files act at close (a filter
 * is applied when set_ftrace_filter is released).  busybox has no clock
 * finer than 10 ms.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: timewrite FILE STRING\n");
		return 2;
	}
	t0 = now_ns();
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
	t1 = now_ns();
	printf("%lld\n", t1 - t0);
	return 0;
}
