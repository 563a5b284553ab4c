# shellcheck shell=bash
# TAP for the guest tests (the shape of kselftest's ksft_* helpers).
# Source it, call plan N, then ok/not_ok/check/skip, and finish with done_testing.

_tap_n=0 _tap_fail=0

plan() { echo "1..$1"; }

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }

not_ok() {
	_tap_n=$((_tap_n + 1)) _tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n - $*"
}

skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP ${2:-}"; }

diag() { echo "# $*"; }

# check NAME REASON-IF-FAILED CMD...: one test point from a command's status.
check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else not_ok "$name # $why"; fi
}

# between LO HI VALUE: LO <= VALUE <= HI, for use with check (an empty or
# non-numeric VALUE is not between anything).
between() {
	[ "$3" -ge "$1" ] 2>/dev/null && [ "$3" -le "$2" ]
}

done_testing() {
	[ "$_tap_fail" -eq 0 ]
}

# set_knobs NAME=VALUE...: write kernel.NAME sysctls in an order the kernel
# accepts (the scan period's min and max stay ordered at every step); stops
# at the first refused write, says which, and returns 1.
set_knobs() {
	local kv sys=/proc/sys/kernel min='' max='' order=()
	for kv in "$@"; do
		case ${kv%%=*} in
		sched_numa_scan_period_min_ms) min=${kv#*=} ;;
		sched_numa_scan_period_max_ms) max=${kv#*=} ;;
		*) order+=("$kv") ;;
		esac
	done
	if [ -n "$min" ] && [ -n "$max" ] && [ "$min" -gt "$(cat $sys/sched_numa_scan_period_max_ms)" ]; then
		order=("sched_numa_scan_period_max_ms=$max" "sched_numa_scan_period_min_ms=$min" "${order[@]}")
	else
		if [ -n "$max" ]; then order=("sched_numa_scan_period_max_ms=$max" "${order[@]}"); fi
		if [ -n "$min" ]; then order=("sched_numa_scan_period_min_ms=$min" "${order[@]}"); fi
	fi
	for kv in "${order[@]}"; do
		if ! echo "${kv#*=}" 2>/dev/null > "$sys/${kv%%=*}"; then
			echo "# kernel.${kv%%=*} = ${kv#*=} refused" >&2
			return 1
		fi
	done
}

# save_knobs NAME...: print NAME=VALUE for each, for set_knobs to restore.
save_knobs() {
	local k
	for k in "$@"; do echo "$k=$(cat "/proc/sys/kernel/$k")"; done
}

# vmstat NAME: the /proc/vmstat counter NAME (empty when this kernel has
# none); as nm.vmstat.
vmstat() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

# use_policy off|mainline|numacore: NUMA balancing off, or on under
# sched_numa_policy 0 (mainline) or 1 (numa/core); as nm.use_policy.
use_policy() {
	case $1 in
	off) set_knobs numa_balancing=0 ;;
	mainline) set_knobs numa_balancing=1 sched_numa_policy=0 ;;
	numacore) set_knobs numa_balancing=1 sched_numa_policy=1 ;;
	*) echo "# use_policy: unknown policy '$1'" >&2; return 1 ;;
	esac
}

# debugfs_mounted: debugfs at /sys/kernel/debug (the scheduler features
# and mainline's NUMA balancing knobs live there), mounted if need be.
debugfs_mounted() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug 2>/dev/null
}

# progress MESSAGE: a line on the serial console, which lab-run shows as
# the run goes (stdout when there is no console: on a host, or without root).
progress() {
	{ echo "numacore-lab: $*" > /dev/ttyS0; } 2>/dev/null || echo "numacore-lab: $*"
}
