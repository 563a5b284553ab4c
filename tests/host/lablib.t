#!/bin/bash
# The lab's topology logic without a boot: size parsing, refusals, and the
# QEMU NUMA arguments for several topologies.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../guest/lib/tap.sh"
. "$here/../../scripts/lablib.sh"

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

plan $((${#size_cases[@]} + ${#refuse_cases[@]} + 5 * ${#topo_cases[@]} + 1))

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
done_testing
