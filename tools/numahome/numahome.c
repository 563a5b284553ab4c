// SPDX-License-Identifier: GPL-2.0
/*
 * numahome: set, show or clear the explicit NUMA home node of a task on a
 * numacore kernel (prctl PR_SET_NUMA_HOME_NODE / PR_GET_NUMA_HOME_NODE).
 *
 *   numahome -n NODE COMMAND [ARGS...]   set our own home node, exec COMMAND
 *   numahome -n NODE -p PID              set PID's home node
 *   numahome -p PID                      show PID's home node (or "none")
 *   numahome --clear -p PID              clear it (-n -1)
 *
 * Copyright (C) 2026 numacore developers
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef PR_SET_NUMA_HOME_NODE
#define PR_SET_NUMA_HOME_NODE	0x4e554853	/* "NUHS" */
#endif
#ifndef PR_GET_NUMA_HOME_NODE
#define PR_GET_NUMA_HOME_NODE	0x4e554847	/* "NUHG" */
#endif

#define PROG		"numahome"
#define NODE_SYSFS	"/sys/devices/system/node"
#define PF_KTHREAD	0x00200000	/* in the flags of /proc/PID/stat */

/* Exit codes: those of env(1) for a COMMAND that cannot be run. */
#define EXIT_FAIL	1
#define EXIT_CANNOT_RUN	126
#define EXIT_NOT_FOUND	127

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " -n NODE COMMAND [ARG...]\n"
		"       " PROG " -n NODE -p PID\n"
		"       " PROG " -p PID\n"
		"       " PROG " --clear -p PID\n"
		"\n"
		"Set, show or clear the explicit NUMA home node of a task: a soft\n"
		"affinity the numacore scheduler prefers, kept across exec and\n"
		"inherited by children.\n"
		"\n"
		"  -n, --node NODE  set the home node to NODE (-1 clears it); with a\n"
		"                   COMMAND, set our own and run COMMAND\n"
		"  -p, --pid PID    the task to set or clear; alone, print its home\n"
		"                   node, or \"none\" when it has no explicit one\n"
		"  -c, --clear      clear the home node (the same as -n -1)\n"
		"  -h, --help       this text\n"
		"\n"
		"Exit status: 0 on success, 1 on an error, 126 or 127 when COMMAND\n"
		"cannot be run or found.  See numahome(8).\n");
}

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* err: one line on stderr, "numahome: " and the message. */
static void err(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn)) usage_error(const char *what)
{
	err("%s; see " PROG " --help", what);
	exit(EXIT_FAIL);
}

/*
 * parse_long: the whole of @s as a decimal number in [@min, @max]; no sign
 * other than a leading '-', no blanks, nothing after the digits.
 */
static int parse_long(const char *s, long min, long max, long *val)
{
	char *end;
	long v;

	if (*s != '-' && (*s < '0' || *s > '9'))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*val = v;
	return 0;
}

/*
 * node_in_list: whether @node is in the node list (e.g. "0-1,3") that the
 * sysfs file @name under NODE_SYSFS holds: 1 or 0, or -1 when the file
 * cannot be read or parsed.
 */
static int node_in_list(const char *name, int node)
{
	char path[128], buf[4096], *p, *end;
	long lo, hi;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), NODE_SYSFS "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';

	for (p = buf; *p && *p != '\n'; p = end) {
		if (*p == ',')
			p++;
		errno = 0;
		lo = strtol(p, &end, 10);
		if (errno || end == p || lo < 0)
			return -1;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (errno || end == p || hi < lo)
				return -1;
		}
		if (*end && *end != ',' && *end != '\n')
			return -1;
		if (node >= lo && node <= hi)
			return 1;
	}
	return 0;
}

/* The online nodes, "0-1" and the like, for messages ("?" if unknown). */
static const char *node_list(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), NODE_SYSFS "/%s", name);
	f = fopen(path, "r");
	if (!f || !fgets(buf, (int)len, f)) {
		if (f)
			fclose(f);
		return "?";
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * kernel_has_home_node: whether this kernel knows the prctls.  A kernel
 * without them fails any unknown prctl option with EINVAL; one with them
 * answers PR_GET_NUMA_HOME_NODE on ourselves with a node or ENODATA.
 */
static int kernel_has_home_node(void)
{
	return prctl(PR_GET_NUMA_HOME_NODE, 0UL, 0UL, 0UL, 0UL) >= 0 ||
	       errno != EINVAL;
}

static void no_kernel_support(const char *option)
{
	err("this kernel has no %s (not a numacore kernel?)", option);
}

/* is_kernel_thread: whether /proc/PID/stat says @pid is a kernel thread. */
static int is_kernel_thread(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long flags;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/*
	 * After the command name, which may hold blanks and parentheses:
	 * state, ppid, pgrp, session, tty_nr, tpgid, flags.
	 */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return 0;
	return !!(flags & PF_KTHREAD);
}

/* "pid 123", or "this process" for pid 0, for messages about a task. */
static const char *task_name(pid_t pid, char *buf, size_t len)
{
	if (!pid)
		return "this process";
	snprintf(buf, len, "pid %d", (int)pid);
	return buf;
}

/* Why PR_SET_NUMA_HOME_NODE failed with EINVAL, in one line. */
static void explain_set_einval(int node, pid_t pid)
{
	char task[32], nodes[256];

	if (!kernel_has_home_node()) {
		no_kernel_support("PR_SET_NUMA_HOME_NODE");
		return;
	}
	if (pid && is_kernel_thread(pid)) {
		err("pid %d: a kernel thread, which has no home node (EINVAL)",
		    (int)pid);
		return;
	}
	if (node < 0) {
		err("%s: clearing the home node failed: %s",
		    task_name(pid, task, sizeof(task)), strerror(EINVAL));
		return;
	}
	switch (node_in_list("online", node)) {
	case 0:
		err("node %d: not an online node (online: %s)", node,
		    node_list("online", nodes, sizeof(nodes)));
		return;
	case 1:
		break;
	default:
		err("node %d: not an online node with CPUs, or outside the task's cpuset (EINVAL)",
		    node);
		return;
	}
	if (node_in_list("has_cpu", node) == 0) {
		err("node %d: has no CPUs (nodes with CPUs: %s)", node,
		    node_list("has_cpu", nodes, sizeof(nodes)));
		return;
	}
	err("node %d: outside the cpuset of %s (EINVAL)", node,
	    task_name(pid, task, sizeof(task)));
}

static int set_home_node(int node, pid_t pid)
{
	char task[32];
	int e;

	/*
	 * prctl() is variadic and reads unsigned longs: pass every argument
	 * as one (the unused ones must be 0), and -1 sign-extended.
	 */
	if (!prctl(PR_SET_NUMA_HOME_NODE, (unsigned long)(long)node,
		   (unsigned long)pid, 0UL, 0UL))
		return 0;

	e = errno;
	switch (e) {
	case EINVAL:
		explain_set_einval(node, pid);
		break;
	case ESRCH:
		err("pid %d: no such process", (int)pid);
		break;
	case EPERM:
		err("pid %d: not permitted (needs CAP_SYS_NICE to set another user's task)",
		    (int)pid);
		break;
	default:
		err("%s: PR_SET_NUMA_HOME_NODE failed: %s",
		    task_name(pid, task, sizeof(task)), strerror(e));
		break;
	}
	return -1;
}

static int show_home_node(pid_t pid)
{
	char task[32];
	int node, e;

	node = prctl(PR_GET_NUMA_HOME_NODE, (unsigned long)pid, 0UL, 0UL, 0UL);
	if (node >= 0) {
		printf("%d\n", node);
		return 0;
	}

	e = errno;
	switch (e) {
	case ENODATA:
		puts("none");
		return 0;
	case EINVAL:
		no_kernel_support("PR_GET_NUMA_HOME_NODE");
		break;
	case ESRCH:
		err("pid %d: no such process", (int)pid);
		break;
	default:
		err("%s: PR_GET_NUMA_HOME_NODE failed: %s",
		    task_name(pid, task, sizeof(task)), strerror(e));
		break;
	}
	return -1;
}

/*
 * bad_option: the option getopt_long() refused, for a message: the
 * argument itself for a long one ("--nod"), else "-x" from @opt (the
 * argument may be a cluster, "-cx").
 */
static const char *bad_option(const char *arg, int opt, char *buf, size_t len)
{
	if (!strncmp(arg, "--", 2) || !opt)
		return arg;
	snprintf(buf, len, "-%c", opt);
	return buf;
}

/* Flush stdout and report a write error (a full disk, a closed pipe). */
static int close_stdout(void)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		err("write error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "node",	required_argument,	NULL, 'n' },
		{ "pid",	required_argument,	NULL, 'p' },
		{ "clear",	no_argument,		NULL, 'c' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 }
	};
	int have_node = 0, have_pid = 0, clear = 0, has_command, opt, e;
	char msg[128], opt_name[4];
	pid_t pid = 0;
	int node = -1;
	long v;

	opterr = 0;
	/* '+': stop at COMMAND, whose own options are its business. */
	while ((opt = getopt_long(argc, argv, "+:n:p:ch", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (parse_long(optarg, -1, INT_MAX, &v)) {
				snprintf(msg, sizeof(msg),
					 "node '%.40s': not a node number (0 or more, or -1 to clear)",
					 optarg);
				usage_error(msg);
			}
			node = (int)v;
			have_node = 1;
			break;
		case 'p':
			if (parse_long(optarg, 1, INT_MAX, &v)) {
				snprintf(msg, sizeof(msg),
					 "pid '%.40s': not a process ID (a positive integer)",
					 optarg);
				usage_error(msg);
			}
			pid = (pid_t)v;
			have_pid = 1;
			break;
		case 'c':
			clear = 1;
			break;
		case 'h':
			usage(stdout);
			return close_stdout() ? EXIT_FAIL : EXIT_SUCCESS;
		case ':':
			snprintf(msg, sizeof(msg), "option '%.40s' needs a value",
				 bad_option(argv[optind - 1], optopt, opt_name,
					    sizeof(opt_name)));
			usage_error(msg);
		default:
			snprintf(msg, sizeof(msg), "unknown option '%.40s'",
				 bad_option(argv[optind - 1], optopt, opt_name,
					    sizeof(opt_name)));
			usage_error(msg);
		}
	}
	has_command = optind < argc;

	if (have_node && clear)
		usage_error("--node and --clear exclude each other (--clear is -n -1)");
	if (clear) {
		have_node = 1;
		node = -1;
	}
	if (have_pid && has_command)
		usage_error("-p PID and a COMMAND exclude each other");
	if (!have_node && has_command)
		usage_error("a COMMAND needs -n NODE or --clear");
	if (!have_node && !have_pid)
		usage_error("nothing to do: give -p PID, or -n NODE and a COMMAND");
	if (have_node && !have_pid && !has_command)
		usage_error(clear ? "--clear needs -p PID or a COMMAND to run" :
				    "-n NODE needs -p PID or a COMMAND to run");

	if (!have_node)
		return show_home_node(pid) || close_stdout() ? EXIT_FAIL : EXIT_SUCCESS;

	if (set_home_node(node, pid))
		return EXIT_FAIL;
	if (have_pid)
		return EXIT_SUCCESS;

	execvp(argv[optind], &argv[optind]);
	e = errno;
	err("cannot run '%s': %s", argv[optind], strerror(e));
	return e == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
