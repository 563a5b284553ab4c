// SPDX-License-Identifier: GPL-2.0
/*
 * build_like: a build-like load for the NUMA benchmarks.  A "make -jJOBS"
 * of UNITS short-lived processes, each fork()ed and exec()ed afresh like a
 * compiler: it allocates and fills its own memory, works on it for a set
 * amount of CPU time, checks that every byte is still what it wrote, and
 * exits.  Unit CPU times range from 30 ms to 2 s, most of them short, as
 * in a kernel build: most units end before NUMA balancing's slow start
 * (1 s of run time) and never get scanned, the longest ones are scanned
 * and may be migrated.  What counts is the build's wall time.
 *
 * Usage: build_like [-j JOBS] [-s SECONDS | -n UNITS] [-m MB]
 *   -j JOBS     units run at once (default: the CPUs we may run on)
 *   -s SECONDS  size the build to take about SECONDS on JOBS idle CPUs
 *               (default 30)
 *   -n UNITS    the number of units, instead of -s
 *   -m MB       memory of each unit (default 32)
 * Prints "#summary units=N failed=F wall_s=W units_per_s=R" and exits 0
 * when every unit ran and found its memory intact, 1 otherwise, 2 on a
 * bad command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* CPU milliseconds of the units, in turn: many short, a few long. */
static const int unit_ms[] = { 30, 30, 60, 60, 120, 120, 250, 500, 1000, 2000 };
#define NR_MIX ((int)(sizeof(unit_ms) / sizeof(unit_ms[0])))

static const char *prog = "build_like";

#include "bench_util.h"

static void usage(void)
{
	printf("Usage: %s [-j JOBS] [-s SECONDS | -n UNITS] [-m MB]\n"
	       "\n"
	       "  -j JOBS     units run at once (default: the CPUs we may run on)\n"
	       "  -s SECONDS  size the build to about SECONDS on JOBS idle CPUs (default 30)\n"
	       "  -n UNITS    the number of units, instead of -s\n"
	       "  -m MB       memory of each unit (default 32)\n"
	       "  -h, --help  this text\n"
	       "\n"
	       "Prints a #summary line: units, failed, wall_s, units_per_s.\n", prog);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t word(uint64_t seed, size_t i)
{
	uint64_t x = seed ^ (i * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

/* One unit: fill MB, read it over and over for MS of CPU time, check it. */
static int unit(int ms, int mb, uint64_t seed)
{
	size_t n = (size_t)mb << 17, i;	/* 64-bit words */
	volatile uint64_t sink = 0;
	uint64_t *buf, sum;
	double t0 = cpu_s();

	buf = mmap(NULL, n * sizeof(*buf), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		die("unit: mmap %d MB: %s", mb, strerror(errno));
	for (i = 0; i < n; i++)
		buf[i] = word(seed, i);
	do {
		sum = 0;
		for (i = 0; i < n; i += 8)	/* a word of each cache line */
			sum += buf[i];
		sink += sum;
	} while ((cpu_s() - t0) * 1000 < ms);
	for (i = 0; i < n; i++)
		if (buf[i] != word(seed, i)) {
			fprintf(stderr, "%s: unit %d ms: word %zu of %zu changed\n", prog, ms, i, n);
			return 3;
		}
	return 0;
}

int main(int argc, char **argv)
{
	int jobs = 0, seconds = 30, units = 0, mb = 32, c, started = 0, done = 0, failed = 0;
	int running = 0, total_ms = 0, i;
	cpu_set_t set;
	double t0;

	if (argc == 5 && !strcmp(argv[1], "--unit"))
		return unit(atoi(argv[2]), atoi(argv[3]), strtoull(argv[4], NULL, 10));
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		usage();
		return 0;
	}
	while ((c = getopt(argc, argv, ":j:s:n:m:h")) != -1) {
		switch (c) {
		case 'j': jobs = parse_int("-j", optarg, 1, 1024); break;
		case 's': seconds = parse_int("-s", optarg, 1, 86400); break;
		case 'n': units = parse_int("-n", optarg, 1, 1000000); break;
		case 'm': mb = parse_int("-m", optarg, 1, 65536); break;
		case 'h':
			usage();
			return 0;
		case ':': usage_error("option '-%c' needs a value", optopt);
		default: usage_error("unknown option '-%c'", optopt);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!jobs)
		jobs = sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
	for (i = 0; i < NR_MIX; i++)
		total_ms += unit_ms[i];
	if (!units) {
		/* about SECONDS on JOBS CPUs, whole rounds of the mix */
		units = (int)((long long)seconds * 1000 * jobs * NR_MIX / total_ms) / NR_MIX * NR_MIX;
		units = units < NR_MIX ? NR_MIX : units;
	}

	t0 = now_s();
	while (done < units) {
		int status;
		pid_t pid;

		while (running < jobs && started < units) {
			char ms[16], mbs[16], seed[24];

			/* spread long and short units over the build */
			snprintf(ms, sizeof(ms), "%d", unit_ms[(started * 7) % NR_MIX]);
			snprintf(mbs, sizeof(mbs), "%d", mb);
			snprintf(seed, sizeof(seed), "%d", started + 1);
			pid = fork();
			if (pid < 0)
				die("fork: %s", strerror(errno));
			if (!pid) {
				execl("/proc/self/exe", prog, "--unit", ms, mbs, seed, (char *)NULL);
				fprintf(stderr, "%s: exec /proc/self/exe: %s\n", prog, strerror(errno));
				_exit(127);
			}
			started++;
			running++;
		}
		pid = wait(&status);
		if (pid < 0)
			die("wait: %s", strerror(errno));
		running--;
		done++;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	t0 = now_s() - t0;
	printf("#summary units=%d failed=%d wall_s=%.3f units_per_s=%.3f jobs=%d mb=%d\n",
	       units, failed, t0, units / t0, jobs, mb);
	return failed ? 1 : 0;
}
