# shellcheck shell=bash
# list_count LIST: how many numbers a kernel list ("0-2,5", as in sysfs
# cpulist and has_cpu) names; 0 for an empty one.  Shared by the guest
# tests and scripts/bench, which sources it from here.
list_count() {
	local n=0 part
	local -a parts
	IFS=, read -r -a parts <<<"$1"
	for part in "${parts[@]}"; do
		[ -n "$part" ] || continue
		n=$((n + ${part#*-} - ${part%-*} + 1))
	done
	echo "$n"
}
