# shellcheck shell=bash
# The lab's own logic, kept free of side effects so that tests/host can check
# it without booting anything: sizes, topology validation, the QEMU NUMA
# arguments, kernel reports in kernel logs (WARN, BUG, oops, ...) and the verdict on a run.
# Sourced by lab/lab-run and scripts/bench.

# QEMU's pc machine takes at most this many vCPUs and MAX_NODES nodes.
LAB_MAX_CPUS=255
LAB_MAX_NODES=64
# The smallest node Linux will online without complaint in our guests.
LAB_MIN_NODE_MB=256

# lab_parse_size SIZE: print SIZE in MiB ("2G", "512M", "1536", "1GiB").
# Plain numbers are MiB.  Fails on anything else or on a non-whole MiB.
lab_parse_size() {
	local s=$1 num unit
	if [[ ! $s =~ ^([0-9]+)([KkMmGgTt]?)(i?[Bb])?$ ]]; then
		return 1
	fi
	num=$((10#${BASH_REMATCH[1]}))
	unit=${BASH_REMATCH[2]:-M}
	case $unit in
	K|k) ((num % 1024 == 0)) || return 1; num=$((num / 1024)) ;;
	M|m) ;;
	G|g) num=$((num * 1024)) ;;
	T|t) num=$((num * 1024 * 1024)) ;;
	esac
	echo "$num"
}

# lab_is_uint VALUE: a non-negative decimal integer without sign or spaces.
lab_is_uint() {
	[[ $1 =~ ^[0-9]+$ ]] && [ ${#1} -le 9 ]
}

# lab_default_distances NODES DISTANCE: the full matrix, row by row.
lab_default_distances() {
	local n=$1 d=$2 i j row=()
	for ((i = 0; i < n; i++)); do
		for ((j = 0; j < n; j++)); do
			if ((i == j)); then row+=(10); else row+=("$d"); fi
		done
	done
	echo "${row[*]}"
}

# lab_validate NODES CPUS_PER_NODE MEM_MB CPULESS DISTANCES
# Print nothing and succeed, or print why the topology is refused and fail.
lab_validate() {
	local nodes=$1 cpn=$2 mem=$3 cpuless=$4 dists=$5 d i j n_cpus
	local -a m
	if ! lab_is_uint "$nodes" || ((nodes < 1)); then
		echo "--nodes must be a whole number >= 1 (got '$nodes')"
		return 1
	fi
	((nodes <= LAB_MAX_NODES)) || { echo "--nodes $nodes is more than QEMU's $LAB_MAX_NODES"; return 1; }
	if ! lab_is_uint "$cpn" || ((cpn < 1)); then
		echo "--cpus-per-node must be a whole number >= 1 (got '$cpn')"
		return 1
	fi
	lab_is_uint "$cpuless" || { echo "--cpuless-nodes must be a whole number >= 0 (got '$cpuless')"; return 1; }
	((cpuless < nodes)) || { echo "--cpuless-nodes $cpuless leaves no node with CPUs (there are $nodes nodes)"; return 1; }
	n_cpus=$(((nodes - cpuless) * cpn))
	((n_cpus <= LAB_MAX_CPUS)) || { echo "$n_cpus CPUs is more than QEMU allows ($LAB_MAX_CPUS)"; return 1; }
	((mem >= LAB_MIN_NODE_MB)) || { echo "--mem-per-node must be at least ${LAB_MIN_NODE_MB}M (got ${mem}M)"; return 1; }
	((mem % 2 == 0)) || { echo "--mem-per-node must be a multiple of 2M (got ${mem}M)"; return 1; }
	read -r -a m <<<"$dists"
	((${#m[@]} == nodes * nodes)) ||
		{ echo "--distances needs $((nodes * nodes)) values for $nodes nodes (got ${#m[@]})"; return 1; }
	for ((i = 0; i < nodes; i++)); do
		for ((j = 0; j < nodes; j++)); do
			d=${m[i * nodes + j]}
			lab_is_uint "$d" || { echo "distance '$d' (node $i to $j) is not a whole number"; return 1; }
			if ((i == j)); then
				((d == 10)) || { echo "distance of node $i to itself must be 10 (got $d)"; return 1; }
			else
				((d > 10 && d < 255)) || { echo "distance node $i to $j must be 11..254 (got $d)"; return 1; }
			fi
		done
	done
}

# lab_qemu_numa_args NODES CPUS_PER_NODE MEM_MB CPULESS DISTANCES
# One QEMU argument a line: -m, -smp, memory backends, nodes, distances.
# CPUs are numbered node by node; the last CPULESS nodes get none.
lab_qemu_numa_args() {
	local nodes=$1 cpn=$2 mem=$3 cpuless=$4 dists=$5 i j first last
	local -a m
	local cpu_nodes=$((nodes - cpuless))
	read -r -a m <<<"$dists"
	printf '%s\n' -m "$((nodes * mem))M"
	printf '%s\n' -smp "$((cpu_nodes * cpn)),sockets=$cpu_nodes,cores=$cpn,threads=1"
	for ((i = 0; i < nodes; i++)); do
		printf '%s\n' -object "memory-backend-ram,id=mem$i,size=${mem}M"
		if ((i < cpu_nodes)); then
			first=$((i * cpn))
			last=$((first + cpn - 1))
			if ((first == last)); then
				printf '%s\n' -numa "node,nodeid=$i,cpus=$first,memdev=mem$i"
			else
				printf '%s\n' -numa "node,nodeid=$i,cpus=$first-$last,memdev=mem$i"
			fi
		else
			printf '%s\n' -numa "node,nodeid=$i,memdev=mem$i"
		fi
	done
	for ((i = 0; i < nodes; i++)); do
		for ((j = 0; j < nodes; j++)); do
			((i == j)) && continue
			printf '%s\n' -numa "dist,src=$i,dst=$j,val=${m[i * nodes + j]}"
		done
	done
}

# The reports that fail a run even when every test passed.  An OOM kill
# (global or a memory cgroup's) is one: no test means to run out of
# memory, and a killed helper may leave a test passing on what is left.
LAB_REPORT_RE='(^|\] )(WARNING|BUG|INFO): |kernel BUG at|Oops: |general protection fault|Kernel panic - not syncing|KASAN: |UBSAN: |blocked for more than [0-9]+ seconds|soft lockup - CPU|self-detected stall|detected stalls on CPUs|list_(add|del) corruption|Unable to handle kernel|-+\[ cut here \]-+|(Out of memory|Memory cgroup out of memory): Killed process|Out of memory and no killable processes'

# lab_kernel_reports FILE: print the lines of a kernel log that are reports.
lab_kernel_reports() {
	grep -aE -- "$LAB_REPORT_RE" "$1" || true
}

# lab_failed_points TEST FILE: the failed points of a test's TAP output
# FILE, each as "TEST: not ok N - name" followed by the "#   " detail lines
# right after it, so that a log that keeps only a test's tail (CI's) still
# names what failed.  Prints nothing when no point failed.
lab_failed_points() {
	awk -v t="$1" '
		/^not ok / { print t ": " $0; detail = 1; next }
		detail && /^#   / { print t ":     " substr($0, 5); next }
		{ detail = 0 }' "$2" 2>/dev/null || true
}

# lab_extract_blocks FILE DIR: the files a guest test printed between
# "==BEGIN name==" and "==END name==" lines in FILE (its output), written to
# DIR/name.  Only plain names ([A-Za-z0-9._-], no slash) are accepted; an
# unterminated block is kept as far as it got.  Prints the names written.
lab_extract_blocks() {
	awk -v dir="$2" '
		/^==BEGIN [A-Za-z0-9._-]+==$/ {
			name = substr($0, 9, length($0) - 10)
			if (name == "." || name == "..") { file = ""; next }
			file = dir "/" name; printf "" > file; print name; next
		}
		/^==END [A-Za-z0-9._-]+==$/ { if (file != "") close(file); file = ""; next }
		file != "" { print > file }' "$1"
}

# lab_qemu_crashed QEMU_RC SERIAL_LOG: true when QEMU itself crashed (died
# of SIGILL, SIGABRT, SIGBUS or SIGSEGV) before the guest's test runner
# wrote its first line to the console.  Such a boot ran no test, so booting
# again loses and repeats no result.  A timeout (124, or 137 once timeout's
# -k fired) is not a crash, and neither is a crash once a test has run:
# both stay failures.
lab_qemu_crashed() {
	case $1 in 132|134|135|139) ;; *) return 1 ;; esac
	! grep -qa 'numacore-lab: ' "$2" 2>/dev/null
}

# shellcheck disable=SC2034 # the LAB_* results are for the caller
# lab_verdict RUN SHARE QEMU_RC TIMEOUT: the verdict on a finished boot,
# from QEMU's exit code, what the guest runner left in SHARE/out (summary,
# results.tap, dmesg) and the kernel log.  Copies those into RUN, writes
# RUN/kernel-reports when the kernel log has reports, and sets LAB_PASSED,
# LAB_FAILED, LAB_SKIPPED (the guest's counts plus one point for the
# kernel log) and LAB_WHY (one reason a line; empty when the run passed).
# It never fails itself: a missing or malformed file is a failed point.
lab_verdict() {
	local run=$1 share=$2 qrc=$3 timeout=$4 klog reports line
	LAB_PASSED=0 LAB_FAILED=0 LAB_SKIPPED=0 LAB_WHY=
	lab_why_() { LAB_WHY+="$*"$'\n'; }
	cp "$share/out/dmesg" "$run/dmesg" 2>/dev/null || :
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		lab_why_ "the guest did not power off within $timeout s"
	elif [ "$qrc" -ne 0 ]; then
		lab_why_ "QEMU exited with status $qrc (see $run/qemu.log)"
	fi
	if [ -f "$share/out/summary" ]; then
		line=$(sed -n 's/^passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\) tests=[0-9]*$/\1 \2 \3/p' \
			"$share/out/summary" | head -1) || :
		if [ -n "$line" ]; then
			read -r LAB_PASSED LAB_FAILED LAB_SKIPPED <<<"$line"
		else
			LAB_FAILED=1
			lab_why_ "the guest's summary is malformed ($share/out/summary)"
		fi
		cp "$share/out/summary" "$run/" 2>/dev/null || :
		cp "$share/out/results.tap" "$run/" 2>/dev/null || :
	else
		LAB_FAILED=1
		lab_why_ "the guest never finished the test runner"
	fi
	# The kernel log: dmesg from the guest when it got that far, else the
	# console.
	klog=$run/dmesg
	[ -s "$klog" ] || klog=$run/serial.log
	reports=$(lab_kernel_reports "$klog" 2>/dev/null) || :
	if [ -n "$reports" ]; then
		LAB_FAILED=$((LAB_FAILED + 1))
		lab_why_ "the kernel log has reports (see $run/kernel-reports)"
		printf '%s\n' "$reports" > "$run/kernel-reports"
	elif [ -s "$klog" ]; then
		LAB_PASSED=$((LAB_PASSED + 1))
	else
		LAB_FAILED=$((LAB_FAILED + 1))
		lab_why_ "no kernel log to check (neither dmesg nor a serial log)"
	fi
	if [ -z "$LAB_WHY" ] && [ "$LAB_FAILED" -gt 0 ]; then
		lab_why_ "$LAB_FAILED test points failed"
	fi
	LAB_WHY=${LAB_WHY%$'\n'}
	unset -f lab_why_
}
