// SPDX-License-Identifier: GPL-2.0
/*
 * spawn N sleep|spin: start N threads that either sleep (tasks a grace period
 * must scan) or spin in user space (tasks that are runnable when it starts),
 * then wait until killed.  Threads, not processes, so 10 000 of them fit in
 * a small guest.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void *spinner(void *arg)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	pthread_t tid;
	int i, n;

	if (argc != 3) {
		fprintf(stderr, "usage: spawn N sleep|spin\n");
		return 2;
	}
	n = atoi(argv[1]);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		if (pthread_create(&tid, &attr,
				   strcmp(argv[2], "spin") ? sleeper : spinner, NULL)) {
			fprintf(stderr, "spawn: only %d threads\n", i);
			break;
		}
	}
	printf("spawn: %d %s threads\n", i, argv[2]);
	fflush(stdout);
	for (;;)
		pause();
}
