// numa_locality: numa01- and numa02-like workloads that measure, over time,
// how much of each thread's memory is on the node of the CPU it runs on.
//
//   numa01  P processes, each with T threads sweeping one buffer of MB
//           megabytes that the process's threads share;
//   numa02  P processes (usually 1), each buffer cut into T private slices,
//           one per thread.
//
// Every --interval ms each process asks move_pages() (no target nodes: a
// query) where up to 1024 evenly spread pages of each thread's memory are,
// and prints for each thread the fraction on the node of its current CPU:
//
//   t_ms,proc,thread,cpu,node,local_fraction,pref_node
//
// pref_node is the thread's preferred node as /proc/self/task/TID/sched
// shows it (numa_preferred_nid: numa/core's home node, mainline's
// preferred node; -1 for none or where the kernel does not show it).
//
// then one "#summary key=value ..." line: the mean locality over the last
// third of the run and the bytes the threads touched per second.
//
// --bind-roundrobin binds each process (numa01) or thread (numa02) to a
// node, CPUs and memory; --home-roundrobin gives it the same node as an
// explicit home node instead (prctl(PR_SET_NUMA_HOME_NODE), numacore
// patch 0027): a preference the numa/core scheduler keeps it to, with no
// binding.  --hint-node puts every one of them on one node instead.
//
// Static, no libnuma (the lab guest has none): raw system calls, and the
// topology from /sys/devices/system/node.  x86_64 like the lab.
//
//   gcc -O2 -Wall -Wextra -static -pthread -o numa_locality numa_locality.c
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef NODE_DIR
#define NODE_DIR "/sys/devices/system/node"
#endif
#define MAX_NODES 64
#define MAX_CPUS 4096
#define MAX_PROCS 64
#define MAX_THREADS 256
#define SAMPLE_PAGES 1024
#define CHUNK (64 << 10)
#define HUGE_SIZE (2UL << 20)
#define MPOL_DEFAULT 0
#define MPOL_BIND 2
// numacore patch 0027: a task's explicit home node ("NUHS", "NUHG")
#ifndef PR_SET_NUMA_HOME_NODE
#define PR_SET_NUMA_HOME_NODE 0x4e554853
#endif
#ifndef PR_GET_NUMA_HOME_NODE
#define PR_GET_NUMA_HOME_NODE 0x4e554847
#endif

static const char *prog = "numa_locality";

#include "bench_util.h"

static struct {
	int numa02;
	int procs, threads, mb, seconds, interval_ms;
	int start_node;		// -1: first touch
	int bind_rr;
	int home_rr;		// an explicit home node where bind_rr would bind
	int hint_node;		// -1: round robin; else every process/thread here
	int own;		// numa02: each thread first touches its slice
} opt = { 0, 2, 2, 128, 30, 1000, -1, 0, 0, -1, 0 };

// The topology: the node of every CPU, the nodes present and those with CPUs.
static int cpu_node[MAX_CPUS];
static int node_present[MAX_NODES];
static cpu_set_t node_cpus[MAX_NODES];
static int nr_nodes, cpu_nodes[MAX_NODES], nr_cpu_nodes;

// What each process hands back to the parent (a shared mapping).
struct shared {
	atomic_int ready;
	atomic_llong go_ns;	// 0 until every process is ready
	struct {
		double loc_sum;
		long loc_n;
		uint64_t bytes;
		double secs;
	} proc[MAX_PROCS];
};
static struct shared *shared;

struct region {
	char *base;
	size_t len;
	int npages;
	void **pages;
	int *status;
	long count[MAX_NODES];	// sampled pages on each node, last query
	int valid;
};

struct worker {
	pthread_t tid;
	int thread;
	int bind_node;		// -1: not bound
	int home_node;		// -1: no explicit home node
	struct region *region;
	size_t start;
	atomic_int cpu;
	atomic_int os_tid;	// its kernel thread id, 0 until it runs
	atomic_ullong bytes;
};

static atomic_int stop;
static long page_size;

static void usage(void)
{
	printf("Usage: %s [OPTIONS]\n"
	       "\n"
	       "  -w, --workload numa01|numa02  threads share their process's buffer (numa01,\n"
	       "                          default) or each has a private slice of it (numa02)\n"
	       "  -p, --procs N           processes (default 2)\n"
	       "  -t, --threads N         threads in each process (default 2)\n"
	       "  -m, --mb N              buffer of each process, in MB (default 128)\n"
	       "  -s, --seconds N         run time (default 30)\n"
	       "  -i, --interval MS       sampling period (default 1000)\n"
	       "  -n, --start-node N      place all memory on node N first (mbind, touch),\n"
	       "                          then drop the policy so that balancing may move it\n"
	       "  -b, --bind-roundrobin   bind each process (numa01) or each thread and its\n"
	       "                          slice (numa02) to node i %% nodes, CPUs and memory\n"
	       "  -H, --home-roundrobin   give each process (numa01) or each thread (numa02)\n"
	       "                          node i %% nodes as its explicit home node\n"
	       "                          (prctl PR_SET_NUMA_HOME_NODE, numacore patch 0027):\n"
	       "                          a preference, no CPU or memory binding\n"
	       "  -N, --hint-node N       with -b or -H: node N for every process or thread\n"
	       "                          instead of round robin (N must have CPUs)\n"
	       "  -o, --own-memory        numa02: each thread first touches its own slice\n"
	       "                          where it runs (default: the main thread touches all)\n"
	       "  -h, --help              this text\n"
	       "\n"
	       "Prints t_ms,proc,thread,cpu,node,local_fraction lines, then a #summary line.\n",
	       prog);
}

static void parse_options(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "workload", required_argument, NULL, 'w' },
		{ "procs", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "mb", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 's' },
		{ "interval", required_argument, NULL, 'i' },
		{ "start-node", required_argument, NULL, 'n' },
		{ "bind-roundrobin", no_argument, NULL, 'b' },
		{ "home-roundrobin", no_argument, NULL, 'H' },
		{ "hint-node", required_argument, NULL, 'N' },
		{ "own-memory", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":w:p:t:m:s:i:n:bHN:oh", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (!strcmp(optarg, "numa01"))
				opt.numa02 = 0;
			else if (!strcmp(optarg, "numa02"))
				opt.numa02 = 1;
			else
				usage_error("--workload: expected numa01 or numa02, got '%s'", optarg);
			break;
		case 'p': opt.procs = parse_int("--procs", optarg, 1, MAX_PROCS); break;
		case 't': opt.threads = parse_int("--threads", optarg, 1, MAX_THREADS); break;
		case 'm': opt.mb = parse_int("--mb", optarg, 1, 1 << 20); break;
		case 's': opt.seconds = parse_int("--seconds", optarg, 1, 86400); break;
		case 'i': opt.interval_ms = parse_int("--interval", optarg, 10, 3600000); break;
		case 'n': opt.start_node = parse_int("--start-node", optarg, 0, MAX_NODES - 1); break;
		case 'b': opt.bind_rr = 1; break;
		case 'H': opt.home_rr = 1; break;
		case 'N': opt.hint_node = parse_int("--hint-node", optarg, 0, MAX_NODES - 1); break;
		case 'o': opt.own = 1; break;
		case 'h': usage(); exit(0);
		case ':': usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			if (optopt && argv[optind - 1][1] != '-')
				usage_error("unknown option '-%c'", optopt);
			usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (opt.start_node >= 0 && opt.bind_rr)
		usage_error("--start-node and --bind-roundrobin exclude each other");
	if (opt.start_node >= 0 && opt.home_rr)
		usage_error("--start-node and --home-roundrobin exclude each other");
	if (opt.bind_rr && opt.home_rr)
		usage_error("--bind-roundrobin and --home-roundrobin exclude each other");
	if (opt.hint_node >= 0 && !opt.bind_rr && !opt.home_rr)
		usage_error("--hint-node needs --bind-roundrobin or --home-roundrobin");
	if (opt.own && !opt.numa02)
		usage_error("--own-memory: only numa02 has a slice per thread");
	if (opt.own && opt.start_node >= 0)
		usage_error("--own-memory and --start-node exclude each other");
	if (opt.numa02 && ((size_t)opt.mb << 20) / opt.threads < (size_t)CHUNK)
		usage_error("--mb %d: each of the %d threads needs a slice of at least %d KB",
			    opt.mb, opt.threads, CHUNK >> 10);
}

// parse_cpulist "0-3,8,10-11" into SET; 0 on success.
static int parse_cpulist(const char *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && c < MAX_CPUS; c++)
			CPU_SET(c, set);
		s = *end == ',' ? end + 1 : end;
	}
	return 0;
}

static void read_topology(void)
{
	char path[256], buf[4096];
	FILE *f;

	for (int c = 0; c < MAX_CPUS; c++)
		cpu_node[c] = -1;
	for (int n = 0; n < MAX_NODES; n++) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		node_present[n] = 1;
		nr_nodes++;
		if (fgets(buf, sizeof(buf), f) && !parse_cpulist(buf, &node_cpus[n]) &&
		    CPU_COUNT(&node_cpus[n])) {
			cpu_nodes[nr_cpu_nodes++] = n;
			for (int c = 0; c < MAX_CPUS; c++)
				if (CPU_ISSET(c, &node_cpus[n]))
					cpu_node[c] = n;
		}
		fclose(f);
	}
	if (!nr_nodes) {
		// No NUMA in this kernel: one node holding every CPU.
		node_present[0] = 1;
		nr_nodes = 1;
		cpu_nodes[nr_cpu_nodes++] = 0;
		CPU_ZERO(&node_cpus[0]);
		for (int c = 0; c < MAX_CPUS; c++) {
			cpu_node[c] = 0;
			CPU_SET(c, &node_cpus[0]);
		}
	}
}

static long mbind_node(void *addr, size_t len, int mode, int node)
{
	unsigned long mask = node >= 0 ? 1UL << node : 0;

	return syscall(SYS_mbind, addr, len, mode, node >= 0 ? &mask : NULL,
		       node >= 0 ? MAX_NODES + 1 : 0, 0);
}

static void bind_to_node(int node, const char *who)
{
	unsigned long mask = 1UL << node;

	if (sched_setaffinity(0, sizeof(node_cpus[node]), &node_cpus[node]))
		die("%s: sched_setaffinity to node %d: %s", who, node, strerror(errno));
	if (syscall(SYS_set_mempolicy, MPOL_BIND, &mask, MAX_NODES + 1))
		die("%s: set_mempolicy(MPOL_BIND, node %d): %s", who, node, strerror(errno));
}

// The name of the errno values prctl(PR_SET_NUMA_HOME_NODE) may give.
static const char *errno_name(int e)
{
	static char buf[32];

	switch (e) {
	case EINVAL: return "EINVAL";
	case ESRCH: return "ESRCH";
	case EPERM: return "EPERM";
	case ENOSYS: return "ENOSYS";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

// kernel_has_home_node: PR_GET_NUMA_HOME_NODE on ourselves answers a node
// or ENODATA on a kernel with patch 0027; any other kernel fails an
// unknown prctl option with EINVAL.
static int kernel_has_home_node(void)
{
	return prctl(PR_GET_NUMA_HOME_NODE, 0UL, 0UL, 0UL, 0UL) >= 0 || errno != EINVAL;
}

// set_home_node: NODE as the calling thread's explicit home node (pid 0:
// the caller); the threads it creates afterwards inherit it.
static void set_home_node(int node, const char *who)
{
	int e;

	if (!prctl(PR_SET_NUMA_HOME_NODE, (unsigned long)node, 0UL, 0UL, 0UL))
		return;
	e = errno;
	if (e == EINVAL && !kernel_has_home_node())
		die("%s: prctl(PR_SET_NUMA_HOME_NODE, node %d): EINVAL (%s), an unknown option: "
		    "--home-roundrobin needs a numacore kernel with patch 0027", who, node, strerror(e));
	die("%s: prctl(PR_SET_NUMA_HOME_NODE, node %d): %s (%s)%s", who, node, errno_name(e),
	    strerror(e), e == EINVAL ? ": the node must be online, have CPUs and be in the "
	    "task's cpuset (numacore patch 0027)" : "");
}

// The node of process P's thread T (T -1: the process) under -b or -H:
// --hint-node, or round robin over the nodes with CPUs.
static int hint_node(int p, int t)
{
	if (opt.hint_node >= 0)
		return opt.hint_node;
	return cpu_nodes[(t < 0 ? p : p * opt.threads + t) % nr_cpu_nodes];
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

// put_line: one write(2) per line, so that the lines of several processes
// sharing stdout never mix.
__attribute__((format(printf, 1, 2)))
static void put_line(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(1, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1) < 0)
		exit(1);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t len = w->region->len, chunk = len < CHUNK ? len : CHUNK, off = w->start;

	atomic_store(&w->os_tid, (int)syscall(SYS_gettid));
	if (w->bind_node >= 0)
		bind_to_node(w->bind_node, "thread");
	if (w->home_node >= 0)
		set_home_node(w->home_node, "thread");
	if (opt.own)
		memset(w->region->base, 1, len);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint64_t *p = (uint64_t *)(w->region->base + off);

		for (size_t i = 0; i < chunk / sizeof(*p); i++)
			p[i] += 1;
		atomic_store_explicit(&w->cpu, sched_getcpu(), memory_order_relaxed);
		atomic_fetch_add_explicit(&w->bytes, chunk, memory_order_relaxed);
		off += chunk;
		if (off + chunk > len)
			off = 0;
	}
	return NULL;
}

// The numa_preferred_nid line of /proc/self/task/TID/sched, -1 without one.
static int preferred_node(int tid)
{
	static const char key[] = "numa_preferred_nid";
	char path[64], line[256];
	int nid = -1;
	FILE *f;

	if (tid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, key, sizeof(key) - 1) && colon) {
			nid = atoi(colon + 1);
			break;
		}
	}
	fclose(f);
	return nid;
}

static void region_init(struct region *r, char *base, size_t len)
{
	size_t total = len / page_size, step;

	r->base = base;
	r->len = len;
	r->npages = total < SAMPLE_PAGES ? (int)total : SAMPLE_PAGES;
	step = total / r->npages;
	r->pages = calloc(r->npages, sizeof(*r->pages));
	r->status = calloc(r->npages, sizeof(*r->status));
	if (!r->pages || !r->status)
		die("out of memory");
	for (int i = 0; i < r->npages; i++)
		r->pages[i] = base + (size_t)i * step * page_size;
}

// region_query: where the sampled pages are now (move_pages, no targets).
static int region_query(struct region *r)
{
	memset(r->count, 0, sizeof(r->count));
	if (syscall(SYS_move_pages, 0, r->npages, r->pages, NULL, r->status, 0)) {
		r->valid = 0;
		return -1;
	}
	for (int i = 0; i < r->npages; i++)
		if (r->status[i] >= 0 && r->status[i] < MAX_NODES)
			r->count[r->status[i]]++;
	r->valid = 1;
	return 0;
}

// One process of the workload: allocate and place its buffer, start its
// threads at the common start, sample until the end, report.
static void run_process(int p)
{
	int T = opt.threads, nregions = opt.numa02 ? T : 1, warned = 0;
	size_t len = (size_t)opt.mb << 20, slice = (len / T) & ~(size_t)(page_size - 1);
	struct region *regions = calloc(nregions, sizeof(*regions));
	struct worker *workers = calloc(T, sizeof(*workers));
	long long go, end, next, third;
	char *map, *base;
	double loc_sum = 0;
	long loc_n = 0;
	uint64_t bytes = 0;

	if (!regions || !workers)
		die("out of memory");
	// numa01: the process's node, before it touches memory and before its
	// threads start (they inherit the binding, or the home node).
	if (opt.bind_rr && !opt.numa02)
		bind_to_node(hint_node(p, -1), "process");
	if (opt.home_rr && !opt.numa02)
		set_home_node(hint_node(p, -1), "process");

	// 2 MB aligned, so that no huge page straddles the buffer's ends.
	map = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		die("mmap %d MB: %s", opt.mb, strerror(errno));
	base = map + (-(uintptr_t)map & (HUGE_SIZE - 1));
	if (opt.start_node >= 0 && mbind_node(base, len, MPOL_BIND, opt.start_node))
		die("mbind(MPOL_BIND, node %d): %s", opt.start_node, strerror(errno));
	if (opt.bind_rr && opt.numa02) {
		for (int t = 0; t < T; t++) {
			int node = hint_node(p, t);

			if (mbind_node(base + t * slice, slice, MPOL_BIND, node))
				die("mbind(MPOL_BIND, node %d) of slice %d: %s", node, t, strerror(errno));
		}
	}
	// First touch by the process's main thread, as numa01/numa02 do,
	// unless each thread is to touch its own slice first (--own-memory).
	if (!opt.own)
		memset(base, 1, len);
	if (opt.start_node >= 0 && mbind_node(base, len, MPOL_DEFAULT, -1))
		die("mbind(MPOL_DEFAULT): %s", strerror(errno));

	if (opt.numa02)
		for (int t = 0; t < T; t++)
			region_init(&regions[t], base + t * slice, slice);
	else
		region_init(&regions[0], base, len);

	atomic_fetch_add(&shared->ready, 1);
	while (!(go = atomic_load(&shared->go_ns)))
		usleep(1000);
	end = go + opt.seconds * 1000000000LL;
	third = go + (end - go) * 2 / 3;

	for (int t = 0; t < T; t++) {
		struct worker *w = &workers[t];

		w->thread = t;
		w->region = &regions[opt.numa02 ? t : 0];
		// numa01's threads start their sweeps at different places.
		w->start = opt.numa02 ? 0 : ((len / T) * t) & ~(size_t)(CHUNK - 1);
		if (w->start + CHUNK > len)
			w->start = 0;
		w->bind_node = opt.bind_rr && opt.numa02 ? hint_node(p, t) : -1;
		w->home_node = opt.home_rr && opt.numa02 ? hint_node(p, t) : -1;
		atomic_init(&w->cpu, -1);
		atomic_init(&w->os_tid, 0);
		errno = pthread_create(&w->tid, NULL, work, w);
		if (errno)
			die("pthread_create: %s", strerror(errno));
	}

	for (next = go + opt.interval_ms * 1000000LL; next <= end; next += opt.interval_ms * 1000000LL) {
		sleep_until(next);
		if (nr_nodes < 2)
			continue;	// one node: every page is local, nothing to measure
		for (int r = 0; r < nregions; r++) {
			if (region_query(&regions[r]) && !warned++)
				fprintf(stderr, "%s: move_pages (query): %s\n", prog, strerror(errno));
		}
		for (int t = 0; t < T; t++) {
			struct worker *w = &workers[t];
			struct region *r = w->region;
			int cpu = atomic_load_explicit(&w->cpu, memory_order_relaxed);
			int node = cpu >= 0 && cpu < MAX_CPUS ? cpu_node[cpu] : -1;
			double frac;

			if (!r->valid || node < 0)
				continue;
			frac = (double)r->count[node] / r->npages;
			put_line("%lld,%d,%d,%d,%d,%.4f,%d\n", (next - go) / 1000000, p, t, cpu, node,
				 frac, preferred_node(atomic_load(&w->os_tid)));
			if (next >= third) {
				loc_sum += frac;
				loc_n++;
			}
		}
	}
	atomic_store(&stop, 1);
	for (int t = 0; t < T; t++) {
		pthread_join(workers[t].tid, NULL);
		bytes += atomic_load(&workers[t].bytes);
	}
	shared->proc[p].loc_sum = loc_sum;
	shared->proc[p].loc_n = loc_n;
	shared->proc[p].bytes = bytes;
	shared->proc[p].secs = (now_ns() - go) / 1e9;
}

int main(int argc, char **argv)
{
	double loc_sum = 0, secs = 0;
	long loc_n = 0;
	uint64_t bytes = 0;
	pid_t pids[MAX_PROCS];
	int failed = 0;

	parse_options(argc, argv);
	page_size = sysconf(_SC_PAGESIZE);
	read_topology();
	if (opt.start_node >= 0 && !node_present[opt.start_node])
		usage_error("--start-node %d: no such node (%d present)", opt.start_node, nr_nodes);
	if (opt.hint_node >= 0) {
		char list[3 * MAX_NODES + 1] = "";
		int ok = 0, n = 0;

		for (int i = 0; i < nr_cpu_nodes; i++) {
			ok |= cpu_nodes[i] == opt.hint_node;
			n += snprintf(list + n, sizeof(list) - n, "%s%d", i ? " " : "", cpu_nodes[i]);
		}
		if (!ok)
			usage_error("--hint-node %d: not a node with CPUs (nodes with CPUs: %s)",
				    opt.hint_node, list);
	}
	// Refuse before any process starts on a kernel without the option.
	if (opt.home_rr && !kernel_has_home_node())
		die("--home-roundrobin: prctl(PR_GET_NUMA_HOME_NODE): EINVAL (%s), an unknown option: "
		    "this kernel has no explicit home node; it needs the numacore patch 0027",
		    strerror(EINVAL));
	if (nr_nodes < 2)
		fprintf(stderr, "%s: 1 node: no placement to measure, locality not sampled\n", prog);

	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	put_line("t_ms,proc,thread,cpu,node,local_fraction,pref_node\n");

	for (int p = 0; p < opt.procs; p++) {
		pids[p] = fork();
		if (pids[p] < 0)
			die("fork: %s", strerror(errno));
		if (!pids[p]) {
			run_process(p);
			_exit(0);
		}
	}
	// Start every process's threads at once, after the slowest setup.
	while (atomic_load(&shared->ready) < opt.procs) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid > 0) {
			for (int p = 0; p < opt.procs; p++)
				if (pids[p] > 0 && pids[p] != pid)
					kill(pids[p], SIGKILL);
			die("a process failed before the start (status 0x%x)", status);
		}
		usleep(1000);
	}
	atomic_store(&shared->go_ns, now_ns());

	for (int p = 0; p < opt.procs; p++) {
		int status;

		if (waitpid(pids[p], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			failed++;
			continue;
		}
		loc_sum += shared->proc[p].loc_sum;
		loc_n += shared->proc[p].loc_n;
		bytes += shared->proc[p].bytes;
		if (shared->proc[p].secs > secs)
			secs = shared->proc[p].secs;
	}
	if (failed)
		die("%d of %d processes failed", failed, opt.procs);

	if (nr_nodes < 2 || !loc_n)
		put_line("#summary workload=%s procs=%d threads=%d mb=%d seconds=%d nodes=%d locality=na gbps=%.3f\n",
			 opt.numa02 ? "numa02" : "numa01", opt.procs, opt.threads, opt.mb,
			 opt.seconds, nr_nodes, secs > 0 ? bytes / secs / 1e9 : 0.0);
	else
		put_line("#summary workload=%s procs=%d threads=%d mb=%d seconds=%d nodes=%d locality=%.4f gbps=%.3f\n",
			 opt.numa02 ? "numa02" : "numa01", opt.procs, opt.threads, opt.mb,
			 opt.seconds, nr_nodes, loc_sum / loc_n, secs > 0 ? bytes / secs / 1e9 : 0.0);
	return 0;
}
