#!/bin/bash
# lab/kstate.sh, the runner's check that a guest test leaves the kernel
# settings as it found them, on a fake /sys and /proc: what a snapshot
# holds, and what kstate_restore reports and writes back.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../../lab/kstate.sh"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/sys/kernel/debug/sched/numa_balancing" "$root/proc/sys/kernel" \
	"$root/proc/sys/vm" "$root/sys/kernel/mm/transparent_hugepage"
echo "NUMA NO_NUMA_SKIP_OTHERS NUMA_HOLD_HOME" > "$root/sys/kernel/debug/sched/features"
echo 1000 > "$root/sys/kernel/debug/sched/numa_balancing/scan_delay_ms"
echo 1 > "$root/proc/sys/kernel/numa_balancing"
echo 1 > "$root/proc/sys/kernel/sched_numa_policy"
echo 0 > "$root/proc/sys/kernel/sched_rt_runtime_us"
echo 0 > "$root/proc/sys/vm/zone_reclaim_mode"
echo "always [madvise] never" > "$root/sys/kernel/mm/transparent_hugepage/enabled"
before=$root/before
kstate_snapshot "$root" > "$before"

plan 11
check "a snapshot names each feature, on or off" "$(cat "$before")" \
	grep -qxP 'feature:NUMA_SKIP_OTHERS\toff' "$before"
check "... and the NUMA sysctls with their values" "$(cat "$before")" \
	grep -qxP '/proc/sys/kernel/sched_numa_policy\t1' "$before"
check "... but not the other kernel sysctls" "$(cat "$before")" \
	bash -c "! grep -q sched_rt_runtime_us '$before'"
check "... and the THP mode as its bracketed choice" "$(cat "$before")" \
	grep -qxP '/sys/kernel/mm/transparent_hugepage/enabled\tmadvise' "$before"

out=$(kstate_restore "$before" "$root"); rc=$?
check "nothing changed: status 0, no output" "rc $rc, '$out'" \
	test "$rc" = 0 -a -z "$out"

echo "NUMA NUMA_SKIP_OTHERS NUMA_HOLD_HOME" > "$root/sys/kernel/debug/sched/features"
echo 0 > "$root/proc/sys/kernel/sched_numa_policy"
out=$(kstate_restore "$before" "$root"); rc=$?
check "a feature and a sysctl changed: status 1" "rc $rc" test "$rc" = 1
check "... each named with its old and new value" "$out" \
	test "$out" = "$(printf '%s\n' "/proc/sys/kernel/sched_numa_policy: 1 -> 0" \
		"feature:NUMA_SKIP_OTHERS: off -> on")"
check "... the sysctl written back" "$(cat "$root/proc/sys/kernel/sched_numa_policy")" \
	test "$(cat "$root/proc/sys/kernel/sched_numa_policy")" = 1
check "... the feature written back as NO_NAME" "$(cat "$root/sys/kernel/debug/sched/features")" \
	test "$(cat "$root/sys/kernel/debug/sched/features")" = NO_NUMA_SKIP_OTHERS

echo "NUMA NO_NUMA_SKIP_OTHERS NUMA_HOLD_HOME" > "$root/sys/kernel/debug/sched/features"
rm "$root/sys/kernel/debug/sched/numa_balancing/scan_delay_ms"
echo 5 > "$root/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps"
out=$(kstate_restore "$before" "$root"); rc=$?
check "a setting gone and one new: status 1" "rc $rc" test "$rc" = 1
check "... both named" "$out" \
	test "$out" = "$(printf '%s\n' "/proc/sys/kernel/numa_balancing_promote_rate_limit_MBps: (new) -> 5" \
		"/sys/kernel/debug/sched/numa_balancing/scan_delay_ms: 1000 -> (gone)")"
done_testing
