#!/bin/bash
# The lab's logic without a boot: size parsing, refusals, the QEMU NUMA
# arguments for several topologies, and the verdict on a finished run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../../lab/lablib.sh"

# size parsing: input -> MiB, or "bad"
size_cases=(2G:2048 512M:512 1536:1536 1GiB:1024 1g:1024 2048K:2 1T:1048576
	    "":bad 2X:bad -1G:bad 1.5G:bad 1025K:bad "2 G":bad 0x10:bad)
# refused topologies: nodes cpn mem cpuless distances-or-"-" : expected words
refuse_cases=(
	"0|2|2048|0|-|--nodes must be"
	"x|2|2048|0|-|--nodes must be"
	"2|0|2048|0|-|--cpus-per-node must be"
	"2|2|2048|2|-|leaves no node with CPUs"
	"3|2|2048|5|-|leaves no node with CPUs"
	"2|200|2048|0|-|more than QEMU allows"
	"65|1|256|0|-|more than QEMU"
	"2|2|128|0|-|at least 256M"
	"2|2|2047|0|-|multiple of 2M"
	"2|2|2048|0|10 21 21|needs 4 values"
	"2|2|2048|0|10 21 21 11|to itself must be 10"
	"2|2|2048|0|10 10 21 10|must be 11..254"
	"2|2|2048|0|12 21 21 10|to itself must be 10"
	"2|2|2048|0|10 255 21 10|must be 11..254"
	"2|2|2048|0|10 x 21 10|not a whole number"
	"2|2|2048|-1|-|--cpuless-nodes must be"
)
# accepted topologies: nodes cpn mem cpuless distance
topo_cases=("2 2 2048 0 21" "4 1 1024 0 21" "3 2 512 1 31" "4 2 1024 2 21" "1 4 2048 0 21" "8 16 256 0 40")

# lab_verdict: what a boot left behind -> passed failed skipped | a reason
# that must be given (or "-": none).  Files: S=summary line, D=dmesg,
# L=serial log; "none" leaves the file out.
verdict_cases=(
	"0|passed=5 failed=0 skipped=1 tests=3|clean|clean|6 0 1|-"
	"0|passed=5 failed=2 skipped=0 tests=3|clean|clean|6 2 0|2 test points failed"
	"124|none|none|booting|1 1 0|did not power off within 900 s"
	"124|none|none|booting|1 1 0|never finished the test runner"
	"1|passed=3 failed=0 skipped=0 tests=1|clean|clean|4 0 0|QEMU exited with status 1"
	"0|garbage|clean|clean|1 1 0|summary is malformed"
	"0|passed=5 failed=0 skipped=0 tests=2|WARNING: CPU: 1 PID: 7 at mm/x.c:1|clean|5 1 0|kernel log has reports"
	"0|none|none|BUG: kernel NULL pointer dereference|0 2 0|kernel log has reports"
	"0|none|none|none|0 2 0|no kernel log to check"
)

# lab_qemu_crashed: QEMU's exit status | console | a crash to boot again?
crash_cases=(
	"139|kernel only|yes"
	"134|kernel only|yes"
	"135|kernel only|yes"
	"139|numacore-lab: 1..12|no"
	"124|kernel only|no"
	"137|kernel only|no"
	"0|kernel only|no"
	"1|kernel only|no"
	"143|kernel only|no"
	"139|none|yes"
)

plan $((${#size_cases[@]} + ${#refuse_cases[@]} + 5 * ${#topo_cases[@]} + 1 + 2 * ${#verdict_cases[@]} + 1 + 3 + ${#crash_cases[@]}))

for c in "${size_cases[@]}"; do
	in=${c%:*} want=${c##*:}
	got=$(lab_parse_size "$in") || got=bad
	check "size '$in' is $want" "got $got" [ "$got" = "$want" ]
done

for c in "${refuse_cases[@]}"; do
	IFS='|' read -r n cpn mem cl dists words <<<"$c"
	[ "$dists" = - ] && dists=$(lab_default_distances 2 21)
	if why=$(lab_validate "$n" "$cpn" "$mem" "$cl" "$dists"); then
		not_ok "refuses nodes=$n cpn=$cpn mem=$mem cpuless=$cl dist='$dists' # accepted"
	else
		check "refuses nodes=$n cpn=$cpn mem=$mem cpuless=$cl dist='$dists': $words" "said: $why" \
			grep -qF -- "$words" <<<"$why"
	fi
done

for c in "${topo_cases[@]}"; do
	read -r n cpn mem cl d <<<"$c"
	dists=$(lab_default_distances "$n" "$d")
	name="${n} nodes x ${cpn} CPUs, ${mem}M, ${cl} CPU-less, distance $d"
	if ! why=$(lab_validate "$n" "$cpn" "$mem" "$cl" "$dists"); then
		for _ in 1 2 3 4 5; do not_ok "$name # refused: $why"; done
		continue
	fi
	args=$(lab_qemu_numa_args "$n" "$cpn" "$mem" "$cl" "$dists")
	# -m equals the sum of the node backends
	mtot=$(grep -A1 '^-m$' <<<"$args" | tail -1 | tr -d M)
	sum=$(grep -o 'memory-backend-ram,id=mem[0-9]*,size=[0-9]*M' <<<"$args" | sed 's/.*size=//; s/M//' | awk '{ s += $1 } END { print s }')
	check "$name: node memory adds up to -m ($sum = $mtot)" "-m $mtot, nodes $sum" [ "$sum" = "$mtot" ]
	# every CPU in exactly one node, and -smp counts them
	cpus=$(grep -o 'cpus=[0-9-]*' <<<"$args" | sed 's/cpus=//' |
		awk -F- '{ b = ($2 == "") ? $1 : $2; for (c = $1; c <= b; c++) print c }' | sort -n)
	want_cpus=$(seq 0 $(((n - cl) * cpn - 1)))
	check "$name: CPUs 0..$(((n - cl) * cpn - 1)) each in one node" "got $(tr "\n" " " <<<"$cpus")" [ "$cpus" = "$want_cpus" ]
	smp=$(grep -A1 '^-smp$' <<<"$args" | tail -1)
	check "$name: -smp $smp" "wrong" [ "${smp%%,*}" = "$(((n - cl) * cpn))" ]
	# the CPU-less nodes are the last ones and have no cpus=
	nocpu=$(grep -c '^node,nodeid=[0-9]*,memdev' <<<"$args")
	check "$name: $cl nodes without CPUs" "got $nocpu" [ "$nocpu" = "$cl" ]
	# a distance for every ordered pair of distinct nodes
	pairs=$(grep -c '^dist,src=[0-9]*,dst=[0-9]*,val='"$d"'$' <<<"$args")
	check "$name: $((n * (n - 1))) distances" "got $pairs" [ "$pairs" = $((n * (n - 1))) ]
done

mat=$(lab_default_distances 3 21)
check "default 3-node matrix" "got '$mat'" [ "$mat" = "10 21 21 21 10 21 21 21 10" ]

# The verdict runs under set -euo pipefail as lab-run does, in a process of
# its own, and must not die on anything a boot leaves behind.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "${verdict_cases[@]}"; do
	IFS='|' read -r qrc sum dm sl want reason <<<"$c"
	rm -rf "$tmp/run"
	mkdir -p "$tmp/run/share/out"
	[ "$sum" = none ] || echo "$sum" > "$tmp/run/share/out/summary"
	[ "$dm" = none ] || echo "[    1.0] $dm" > "$tmp/run/share/out/dmesg"
	[ "$sl" = none ] || echo "[    0.5] $sl" > "$tmp/run/serial.log"
	got=$(bash -euo pipefail -c '. "$1"; lab_verdict "$2" "$2/share" "$3" 900
		echo "$LAB_PASSED $LAB_FAILED $LAB_SKIPPED"; echo "$LAB_WHY"' \
		lab_verdict "$here/../../lab/lablib.sh" "$tmp/run" "$qrc" 2>&1) || got="died: $got"
	name="exit $qrc, summary '$sum', dmesg '$dm', console '$sl'"
	check "$name: $want" "got: $(head -1 <<<"$got")" [ "$(head -1 <<<"$got")" = "$want" ]
	if [ "$reason" = - ]; then
		check "$name: no reason to fail" "got: $(tail -n +2 <<<"$got")" [ -z "$(tail -n +2 <<<"$got")" ]
	else
		check "$name: says '$reason'" "got: $(tail -n +2 <<<"$got")" grep -qF -- "$reason" <<<"$got"
	fi
done
rm -rf "$tmp/run"
mkdir -p "$tmp/run/share/out"
printf '[ 1.0] ok\n[ 2.0] BUG: kernel NULL pointer dereference\n' > "$tmp/run/share/out/dmesg"
(lab_verdict "$tmp/run" "$tmp/run/share" 0 900)
check "the reports are kept in RUN/kernel-reports, and only they" "got: $(cat "$tmp/run/kernel-reports" 2>&1)" \
	[ "$(cat "$tmp/run/kernel-reports" 2>/dev/null)" = "[ 2.0] BUG: kernel NULL pointer dereference" ]
# A failed test's points, with their detail lines and nothing else.
cat > "$tmp/t.out" <<'EOF'
1..4
ok 1 - first
not ok 2 - second
#   {'why': 2}
#   more
# a diagnostic, not a detail
ok 3 - third
not ok 4 - fourth
ok 5 - #   not a detail
EOF
want="01-guest/50-x: not ok 2 - second
01-guest/50-x:     {'why': 2}
01-guest/50-x:     more
01-guest/50-x: not ok 4 - fourth"
got=$(lab_failed_points 01-guest/50-x "$tmp/t.out")
check "lab_failed_points: each failed point and its detail lines" "got: $got" [ "$got" = "$want" ]
printf '1..1\nok 1 - fine\n' > "$tmp/t.out"
got=$(lab_failed_points t "$tmp/t.out")
check "lab_failed_points: nothing when no point failed" "got: $got" [ -z "$got" ]
got=$(bash -euo pipefail -c '. "$1"; lab_failed_points t /nonexistent; echo alive' x "$here/../../lab/lablib.sh" 2>&1)
check "lab_failed_points: a missing file prints nothing and does not fail" "got: $got" [ "$got" = alive ]
for c in "${crash_cases[@]}"; do
	IFS='|' read -r qrc console want <<<"$c"
	rm -f "$tmp/serial.log"
	[ "$console" = none ] || echo "[    1.0] $console" > "$tmp/serial.log"
	if lab_qemu_crashed "$qrc" "$tmp/serial.log"; then got=yes; else got=no; fi
	check "lab_qemu_crashed: exit $qrc, console '$console': $want" "got $got" [ "$got" = "$want" ]
done
done_testing
