# shellcheck shell=bash
# kstate.sh: the kernel settings a guest test may change and must leave as
# it found them, for guest-run.  A test that switches a scheduler feature
# or a NUMA sysctl and does not put it back changes what every later test
# of the boot measures, and such a failure shows up tests later, on some
# boots only, with no trace of its cause.
#
# kstate_snapshot [ROOT]
#	prints the settings, one "NAME<TAB>VALUE" line each, sorted:
#	  - every scheduler feature (debugfs sched/features): NAME is
#	    "feature:FEAT", VALUE on or off;
#	  - the files of debugfs sched/numa_balancing/, the kernel.* sysctls
#	    whose name has "numa" in it, vm.zone_reclaim_mode and the
#	    transparent huge page modes (the bracketed choice): NAME is the
#	    file's path, VALUE its contents.
#	A file missing on this kernel is left out.  ROOT (default none)
#	prefixes every path, for tests on the host.
# kstate_restore BEFORE [ROOT]
#	BEFORE is an earlier snapshot (a file).  Prints "NAME: OLD -> NEW"
#	for each setting that differs now (NEW "(gone)" or OLD "(new)" for
#	one that appeared or went away) and writes the old value back to
#	each one it can.  Returns 1 if anything differed, 0 if not.

kstate_files() {
	local root=${1:-} f
	for f in "$root"/sys/kernel/debug/sched/numa_balancing/* \
		"$root"/proc/sys/kernel/*numa* \
		"$root"/proc/sys/vm/zone_reclaim_mode \
		"$root"/sys/kernel/mm/transparent_hugepage/enabled \
		"$root"/sys/kernel/mm/transparent_hugepage/defrag; do
		[ -f "$f" ] && [ -r "$f" ] && echo "$f"
	done
}

# The value of a settings file: "always [madvise] never" reads as madvise.
kstate_value() {
	local v
	v=$(head -c 4096 "$1" 2>/dev/null | tr '\n\t' '  ') || return 1
	if [[ $v =~ \[([^]]+)\] ]]; then
		v=${BASH_REMATCH[1]}
	fi
	echo "${v%"${v##*[! ]}"}"
}

kstate_snapshot() {
	local root=${1:-} f feat
	{
		f=$root/sys/kernel/debug/sched/features
		if [ -r "$f" ]; then
			for feat in $(<"$f"); do
				case $feat in
				NO_*) printf 'feature:%s\toff\n' "${feat#NO_}" ;;
				*) printf 'feature:%s\ton\n' "$feat" ;;
				esac
			done
		fi
		while read -r f; do
			printf '%s\t%s\n' "${f#"$root"}" "$(kstate_value "$f")"
		done < <(kstate_files "$root")
	} | LC_ALL=C sort
}

kstate_restore() {
	local before=$1 root=${2:-} now name old new changed=0
	now=$(mktemp)
	kstate_snapshot "$root" > "$now"
	# Fields joined by \034: read would fold two tabs (an empty field) into one.
	while IFS=$'\034' read -r name old new; do
		[ "$old" = "$new" ] && continue
		changed=1
		echo "$name: ${old:-(new)} -> ${new:-(gone)}"
		if [ -z "$old" ] || [ -z "$new" ]; then
			continue
		fi
		case $name in
		feature:*)
			name=${name#feature:}
			[ "$old" = on ] || name=NO_$name
			echo "$name" > "$root/sys/kernel/debug/sched/features" ;;
		*)
			echo "$old" > "$root$name" ;;
		esac 2>/dev/null || echo "  (could not write it back)"
	done < <(LC_ALL=C join -t $'\t' -a 1 -a 2 -e '' -o 0,1.2,2.2 "$before" "$now" |
		tr '\t' '\034')
	rm -f "$now"
	return "$changed"
}
