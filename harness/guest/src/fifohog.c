// SPDX-License-Identifier: GPL-2.0
/*
 * fifohog SECONDS [PRIO]: one SCHED_FIFO thread per online CPU, each pinned
 * to its CPU, spins in user space for SECONDS and exits.  Nothing of
 * SCHED_OTHER runs on a CPU meanwhile except what RT throttling
 * (sched_rt_runtime_us) lets through; the hog ends by itself because the
 * shell that started it may not get to run before then.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double seconds;
static int prio = 50;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *hog(void *arg)
{
	double end = now() + seconds;

	/* clock_gettime() keeps the loop from being optimized away. */
	while (now() < end)
		;
	return arg;
}

int main(int argc, char **argv)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct sched_param sp;
	pthread_attr_t attr;
	pthread_t *t;
	cpu_set_t set;
	long i;
	int err;

	if (argc > 1)
		seconds = atof(argv[1]);
	if (seconds <= 0) {
		fprintf(stderr, "usage: fifohog SECONDS [PRIO]\n");
		return 2;
	}
	if (argc > 2)
		prio = atoi(argv[2]);
	t = calloc(ncpus, sizeof(*t));
	if (!t)
		return 1;
	/* Above the hogs, so that all of them get started. */
	sp.sched_priority = prio + 1;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("fifohog: sched_setscheduler");
		return 1;
	}
	for (i = 0; i < ncpus; i++) {
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		sp.sched_priority = prio;
		pthread_attr_setschedparam(&attr, &sp);
		CPU_ZERO(&set);
		CPU_SET(i, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		err = pthread_create(&t[i], &attr, hog, NULL);
		if (err) {
			fprintf(stderr, "fifohog: cpu %ld: %s\n", i, strerror(err));
			return 1;
		}
	}
	for (i = 0; i < ncpus; i++)
		pthread_join(t[i], NULL);
	return 0;
}
