#!/bin/bash
# shellcheck disable=SC2016 # the checks below eval their single-quoted tests
# tools/numahome without a numacore kernel: its Makefile (build with
# warnings as errors, install, clean), its manual page, the usage errors,
# and every answer of the prctl interface, from a fake kernel: a preloaded
# prctl() that keeps home nodes in files and refuses what numacore refuses
# (unused arguments not 0, a node not sign-extended, no such pid, pid 1 not
# permitted, kernel threads, nodes it does not accept), or, without its state directory,
# fails both options with EINVAL as a kernel without them does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	echo "1..0 # SKIP no C compiler or make (apt-get install gcc make)"
	exit 0
fi

# usage errors: arguments (| separated) : the message after "numahome: "
usage_cases=(
	":nothing to do: give -p PID, or -n NODE and a COMMAND"
	"-n|1x|true:node '1x': not a node number"
	"--node=|true:node '': not a node number"
	"-n|-2|true:node '-2': not a node number"
	"-n|99999999999|true:node '99999999999': not a node number"
	"-p|-5:pid '-5': not a process ID (a positive integer)"
	"-p|0:pid '0': not a process ID"
	"-p|12a:pid '12a': not a process ID"
	"--pid=:pid '': not a process ID"
	"-n|0:-n NODE needs -p PID or a COMMAND to run"
	"--clear:--clear needs -p PID or a COMMAND to run"
	"-p|1|true:-p PID and a COMMAND exclude each other"
	"true:a COMMAND needs -n NODE or --clear"
	"--clear|-n|0|-p|1:--node and --clear exclude each other"
	"-x:unknown option '-x'"
	"-cx|-p|1:unknown option '-x'"
	"--bogus:unknown option '--bogus'"
	"-p:option '-p' needs a value"
	"--node:option '--node' needs a value"
)

plan $((24 + ${#usage_cases[@]}))

# --- the Makefile, in a copy: the checkout stays clean ------------------------
src=$tmp/src
cp -r "$root/tools/numahome" "$src"
rm -f "$src/numahome"
# buildflag NAME: dpkg-buildflags' NAME, as debian/rules has them (none
# without dpkg-dev).
buildflag() {
	DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1" 2>/dev/null || :
}
out=$(make -C "$src" CPPFLAGS="$(buildflag CPPFLAGS)" CFLAGS="$(buildflag CFLAGS) -O2 -Werror" \
	LDFLAGS="$(buildflag LDFLAGS)" 2>&1) && rc=0 || rc=$?
check "make: builds with -Wall -Wextra -Werror and dpkg-buildflags' flags" "exit $rc: $out" \
	eval '[ "$rc" -eq 0 ] && [ -x "$src/numahome" ] && ! grep -q "warning:" <<<"$out"'
out=$(make -C "$src" install DESTDIR="$tmp/dest" prefix=/usr 2>&1) && rc=0 || rc=$?
check "make install DESTDIR= prefix=/usr: /usr/bin/numahome (0755) and its manual page" \
	"exit $rc: $out; installed: $(cd "$tmp/dest" 2>/dev/null && find . | tr '\n' ' ')" \
	eval '[ "$(stat -c %a "$tmp/dest/usr/bin/numahome" 2>/dev/null)" = 755 ] &&
	      [ -s "$tmp/dest/usr/share/man/man8/numahome.8" ]'
cp "$src/numahome" "$tmp/numahome"
bin=$tmp/numahome
make -s -C "$src" clean >/dev/null 2>&1
check "make clean removes the program" "left: $(ls "$src")" [ ! -e "$src/numahome" ]
if command -v man >/dev/null 2>&1; then
	# as lintian reads it
	out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
		"$root/tools/numahome/numahome.8" 2>&1 >/dev/null)
	check "numahome.8: man --warnings says nothing" "$out" [ -z "$out" ]
else
	skip "numahome.8: man --warnings says nothing" "no man here"
fi

# --- usage -----------------------------------------------------------------
# run ARGS...: numahome ARGS on the host's kernel; sets out, err and rc.
run() {
	out=$("$bin" "$@" 2>"$tmp/err") && rc=0 || rc=$?
	err=$(cat "$tmp/err")
}

# error_is RC MESSAGE: the last run failed with RC, printing nothing on
# stdout and one line on stderr: "numahome: MESSAGE..."
error_is() {
	[ "$rc" -eq "$1" ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		[[ $err == "numahome: $2"* ]]
}

# help_ok: the last run printed a usage naming every option, on stdout only.
help_ok() {
	local o
	[ "$rc" -eq 0 ] && [ -z "$err" ] && [[ $out == Usage:* ]] || return 1
	for o in --node --pid --clear --help; do
		grep -q -- "$o" <<<"$out" || return 1
	done
}

run --help
check "--help: usage on stdout, exit 0, every option named" "exit $rc, stderr: $err" help_ok
run -h
check "-h: the same" "exit $rc, stderr: $err" help_ok
for c in "${usage_cases[@]}"; do
	msg=${c#*:}
	IFS='|' read -r -a args <<<"${c%%:*}"
	run "${args[@]}"
	check "numahome ${args[*]}: exit 1, '$msg', a hint to --help" "exit $rc: out '$out' err '$err'" \
		eval 'error_is 1 "$msg" && [[ $err == *"; see numahome --help" ]]'
done

# --- the host's kernel -------------------------------------------------------
run -p $$
check "on the host's kernel: -p PID prints a node or none, or says the kernel lacks the interface" "exit $rc: out '$out' err '$err'" \
	eval '{ [ "$rc" -eq 0 ] && [[ $out =~ ^([0-9]+|none)$ ]]; } ||
	      error_is 1 "this kernel has no PR_GET_NUMA_HOME_NODE (not a numacore kernel?)"'

# --- a fake kernel -----------------------------------------------------------
cat > "$tmp/fake.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SET 0x4e554853
#define GET 0x4e554847
#define PF_KTHREAD 0x00200000

static int fail(int e) { errno = e; return -1; }

static int kthread(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long flags = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1 &&
	       (flags & PF_KTHREAD);
}

static void state(char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/%ld", getenv("FAKE_NUMA_STATE"), pid ? pid : (long)getpid());
}

int prctl(int option, ...)
{
	unsigned long a2, a3, a4, a5;
	char path[4096], ok[256];
	const char *okenv;
	long node, pid;
	va_list ap;
	FILE *f;

	va_start(ap, option);
	a2 = va_arg(ap, unsigned long);
	a3 = va_arg(ap, unsigned long);
	a4 = va_arg(ap, unsigned long);
	a5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (option != SET && option != GET)
		return syscall(SYS_prctl, option, a2, a3, a4, a5);
	if (!getenv("FAKE_NUMA_STATE"))
		return fail(EINVAL);		/* a kernel without them */
	if (option == GET) {
		pid = (long)a2;
		if (a3 || a4 || a5 || pid < 0 || pid > INT_MAX)
			return fail(EINVAL);
		if (pid && kill((pid_t)pid, 0) && errno == ESRCH)
			return fail(ESRCH);
		state(path, sizeof(path), pid);
		f = fopen(path, "r");
		if (!f)
			return fail(ENODATA);
		if (fscanf(f, "%ld", &node) != 1)
			node = -2;
		fclose(f);
		return (int)node;
	}
	node = (long)a2;
	pid = (long)a3;
	if (a4 || a5 || node < -1 || node > INT_MAX || pid < 0 || pid > INT_MAX)
		return fail(EINVAL);
	if (pid && kill((pid_t)pid, 0) && errno == ESRCH)
		return fail(ESRCH);
	if (pid && kthread(pid))
		return fail(EINVAL);
	if (pid == 1)
		return fail(EPERM);
	state(path, sizeof(path), pid);
	if (node == -1) {
		unlink(path);
		return 0;
	}
	okenv = getenv("FAKE_NUMA_OK") ? getenv("FAKE_NUMA_OK") : "";
	snprintf(ok, sizeof(ok), ",%s,", okenv);
	{
		char n[32];

		snprintf(n, sizeof(n), ",%ld,", node);
		if (!strstr(ok, n))
			return fail(EINVAL);
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%ld\n", node);
	return fclose(f);
}

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	const char *pre = "/sys/devices/system/node/", *dir = getenv("FAKE_NUMA_SYSFS");
	char buf[4096];

	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	if (dir && !strncmp(path, pre, strlen(pre))) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, path + strlen(pre));
		return real(buf, mode);
	}
	return real(path, mode);
}
EOF
if ! out=$(cc -shared -fPIC -o "$tmp/fake.so" "$tmp/fake.c" -ldl 2>&1); then
	echo "# the fake kernel does not build: $out"
fi
mkdir -p "$tmp/state" "$tmp/sysfs"
echo 0-2 > "$tmp/sysfs/online"
echo 0-1 > "$tmp/sysfs/has_cpu"

# old ARGS...: numahome on a kernel without the prctls.
old() {
	LD_PRELOAD=$tmp/fake.so run "$@"
}
# fake ARGS...: numahome on a numacore kernel with nodes 0-2 online, 0-1
# with CPUs, and the cpuset of every task allowing node 0 and 1 only.
fake() {
	LD_PRELOAD=$tmp/fake.so FAKE_NUMA_STATE=$tmp/state FAKE_NUMA_SYSFS=$tmp/sysfs \
		FAKE_NUMA_OK=${FAKE_NUMA_OK-0,1} run "$@"
}

old -p $$
check "no numacore kernel: -p PID says the kernel has no PR_GET_NUMA_HOME_NODE" "exit $rc: out '$out' err '$err'" \
	error_is 1 "this kernel has no PR_GET_NUMA_HOME_NODE (not a numacore kernel?)"
old -n 0 sh -c 'echo ran'
check "no numacore kernel: -n NODE COMMAND fails without running COMMAND" "exit $rc: out '$out' err '$err'" \
	error_is 1 "this kernel has no PR_SET_NUMA_HOME_NODE (not a numacore kernel?)"

fake -p $$
check "-p PID without an explicit home node prints none, exit 0" "exit $rc: out '$out' err '$err'" \
	eval '[ "$rc" -eq 0 ] && [ "$out" = none ] && [ -z "$err" ]'
fake -n 1 -p $$
rc1=$rc err1=$err
fake -p $$
check "-n 1 -p PID sets it (silently), -p PID then prints 1" "set: exit $rc1 '$err1'; show: exit $rc '$out' '$err'" \
	eval '[ "$rc1" -eq 0 ] && [ -z "$err1" ] && [ "$rc" -eq 0 ] && [ "$out" = 1 ]'
fake --clear -p $$
rc1=$rc
fake -p $$
check "--clear -p PID clears it (-1 passed sign-extended): none again" "clear: exit $rc1; show: exit $rc '$out' '$err'" \
	eval '[ "$rc1" -eq 0 ] && [ "$out" = none ]'
fake -n 1 sh -c "exec $bin -p \$\$"
check "-n 1 COMMAND sets its own home node and execs COMMAND, which has it" "exit $rc: out '$out' err '$err'" \
	eval '[ "$rc" -eq 0 ] && [ "$out" = 1 ]'
fake -n 0 printf '%s,' -p x --clear
check "COMMAND's own options are left to it" "exit $rc: out '$out' err '$err'" \
	eval '[ "$rc" -eq 0 ] && [ "$out" = "-p,x,--clear," ]'
fake -n 2147483647 -p 2147483647
check "a pid that does not exist: 'no such process'" "exit $rc: out '$out' err '$err'" \
	error_is 1 "pid 2147483647: no such process"
fake -n 0 -p 1
check "another user's task: 'not permitted', naming CAP_SYS_NICE" "exit $rc: out '$out' err '$err'" \
	error_is 1 "pid 1: not permitted (needs CAP_SYS_NICE to set another user's task)"
fake -n 5 -p $$
check "EINVAL, node not online: says so, with the online nodes" "exit $rc: out '$out' err '$err'" \
	error_is 1 "node 5: not an online node (online: 0-2)"
fake -n 2 -p $$
check "EINVAL, node without CPUs: says so, with the nodes that have CPUs" "exit $rc: out '$out' err '$err'" \
	error_is 1 "node 2: has no CPUs (nodes with CPUs: 0-1)"
FAKE_NUMA_OK=0 fake -n 1 -p $$
check "EINVAL, an online node with CPUs: outside the task's cpuset" "exit $rc: out '$out' err '$err'" \
	error_is 1 "node 1: outside the cpuset of pid $$ (EINVAL)"
# kthread: the first kernel thread in /proc (PF_KTHREAD in the flags of
# its stat), none in a PID namespace of its own.
kthread=
for s in /proc/[0-9]*/stat; do
	read -r -a f < <(sed 's/^.*) //' "$s" 2>/dev/null) || continue
	if [[ ${f[6]:-} =~ ^[0-9]+$ ]] && (( f[6] & 0x00200000 )); then
		kthread=${s//[^0-9]/}
		break
	fi
done
if [ -n "$kthread" ]; then
	fake -n 0 -p "$kthread"
	check "EINVAL, a kernel thread (pid $kthread): says so" "exit $rc: out '$out' err '$err'" \
		error_is 1 "pid $kthread: a kernel thread, which has no home node (EINVAL)"
else
	skip "EINVAL, a kernel thread: says so" "no kernel thread in this PID namespace"
fi
mv "$tmp/sysfs" "$tmp/sysfs.away"
fake -n 5 true
check "EINVAL without a readable /sys/devices/system/node: every cause named" "exit $rc: out '$out' err '$err'" \
	error_is 1 "node 5: not an online node with CPUs, or outside the task's cpuset (EINVAL)"
mv "$tmp/sysfs.away" "$tmp/sysfs"
fake -n 0 "$tmp/no-such-command"
check "a COMMAND that does not exist: exit 127" "exit $rc: out '$out' err '$err'" \
	error_is 127 "cannot run '$tmp/no-such-command': No such file or directory"
fake -n 0 "$tmp/fake.c"
check "a COMMAND that cannot be run: exit 126" "exit $rc: out '$out' err '$err'" \
	error_is 126 "cannot run '$tmp/fake.c': Permission denied"
if [ -w /dev/full ]; then
	LD_PRELOAD=$tmp/fake.so FAKE_NUMA_STATE=$tmp/state "$bin" -p $$ > /dev/full 2>"$tmp/err" && rc=0 || rc=$?
	check "a write error (stdout on /dev/full) fails the run" "exit $rc: $(cat "$tmp/err")" \
		eval '[ "$rc" -eq 1 ] && grep -q "^numahome: write error" "$tmp/err"'
else
	skip "a write error (stdout on /dev/full) fails the run" "no /dev/full"
fi
done_testing
