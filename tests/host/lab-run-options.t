#!/bin/bash
# lab/lab-run refuses bad options before it boots anything, naming what
# is wrong; good options get as far as looking for an image.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
lab=$here/../../lab/lab-run
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
export BUILD_DIR=$empty RESULTS_DIR=$empty/results

# args | words the error must contain
cases=(
	"--nodes 0|--nodes must be"
	"--nodes two|--nodes must be"
	"--mem-per-node 2X|is not a size"
	"--mem-per-node 100M|at least 256M"
	"--nodes 2 --cpuless-nodes 2|leaves no node with CPUs"
	"--nodes 4 --cpus-per-node 100|more than QEMU allows"
	"--distance 5|must be 11..254"
	"--distance abc|--distance must be a whole number"
	"--distances 10_21|needs 4 values"
	"--nodes 3 --distances '10 21 21 21 10 21 21 21 11'|to itself must be 10"
	"--accel xen|--accel must be auto, kvm or tcg"
	"--timeout 10|--timeout must be"
	"--test-timeout -1|--test-timeout must be"
	"--start-timeout 0|--start-timeout must be"
	"--start-timeout soon|--start-timeout must be"
	"--bogus|unknown option '--bogus'"
	"--nodes|--nodes needs a value"
	"/nonexistent-tests|test directory '/nonexistent-tests' does not exist"
	"--no-guest-tests|needs at least one TEST_DIR"
	"--env stress_seconds=5|expected NAME=VALUE"
	"--env STRESS_SECONDS|expected NAME=VALUE"
	"--env LAB_NODES=9|LAB_ variables are the lab's own"
	"--env|--env needs a value"
	"--run-file|--run-file needs a value"
	"--skip|--skip needs a value"
	"--skip 99-no-such-test|--skip '99-no-such-test': no such test in tests/guest/ or the TEST_DIRs"
	"--skip guest/41-sched-numa-scan|give a test's file name, without a directory"
	"--no-guest-tests --skip 41-sched-numa-scan $here/../stress|no such test in the TEST_DIRs"
)
good=("" "--nodes 4 --cpus-per-node 1 --mem-per-node 1G" "--nodes 3 --cpuless-nodes 1"
      "--distances '10 31 31 10'" "--accel tcg --timeout 600 --append 'numa_balancing=disable'"
      "--start-timeout 300"
      "--env STRESS_SECONDS=5 --env 'NOTE=two words'"
      "--skip 41-sched-numa-scan --skip 43-numa-scan-chunk"
      "--skip 10-stress-ng $here/../stress")
opts=(--nodes --cpus-per-node --mem-per-node --cpuless-nodes --distance --distances
      --append --accel --timeout --start-timeout --env --run-file --skip --help)

plan $((${#cases[@]} + ${#good[@]} + 1 + ${#opts[@]} + 2))
for c in "${cases[@]}"; do
	args=${c%%|*} words=${c#*|}
	out=$(eval "\"$lab\" $args" 2>&1) && rc=0 || rc=$?
	if [ "$rc" -eq 0 ]; then
		not_ok "refuses $args # accepted"
	else
		check "refuses $args: $words" "exit $rc, said: $out" grep -qF -- "$words" <<<"$out"
	fi
done
for g in "${good[@]}"; do
	out=$(eval "\"$lab\" $g" 2>&1) && rc=0 || rc=$?
	check "accepts '${g:-no options}' (stops at: no lab image)" "exit $rc, said: $out" \
		grep -qF "no lab image in $empty/image" <<<"$out"
done
help=$("$lab" --help 2>&1) && rc=0 || rc=$?
check "--help exits 0" "exit $rc" [ "$rc" -eq 0 ]
for o in "${opts[@]}"; do
	check "--help documents $o" "missing" grep -qF -- "$o" <<<"$help"
done
# scripts/lab-run, the old name, is the same command.
old=$here/../../scripts/lab-run
out=$("$old" --nodes 0 2>&1) && rc=0 || rc=$?
check "scripts/lab-run refuses as lab/lab-run does" "exit $rc, said: $out" \
	grep -qF -- "--nodes must be" <<<"$out"
out=$("$old" 2>&1) && rc=0 || rc=$?
check "scripts/lab-run accepts as lab/lab-run does (stops at: no lab image)" "exit $rc, said: $out" \
	grep -qF "no lab image in $empty/image" <<<"$out"
done_testing
