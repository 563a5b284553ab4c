/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark programs share: errors and number parsing.  The
 * program that includes this defines "static const char *prog" first.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* "PROG: error: MESSAGE", a hint to --help for a usage error, and exit. */
__attribute__((noreturn))
static void verror(int status, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", prog);
	vfprintf(stderr, fmt, ap);
	if (status == 2)
		fprintf(stderr, "; see %s --help", prog);
	fputc('\n', stderr);
	exit(status);
}

/* A failure: exit 1. */
__attribute__((noreturn, format(printf, 1, 2)))
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(1, fmt, ap);
}

/* A bad command line: exit 2. */
__attribute__((noreturn, format(printf, 1, 2)))
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(2, fmt, ap);
}

/* S as a whole number from LO to HI, or a usage error naming NAME. */
static int parse_int(const char *name, const char *s, int lo, int hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		usage_error("%s: expected a whole number from %d to %d, got '%s'", name, lo, hi, s);
	return (int)v;
}

#endif
