#!/bin/bash
# shellcheck disable=SC2016 # the checks below eval their single-quoted tests
# The benchmark tooling on the host, without booting anything:
#  - scripts/bench refuses bad options, naming what is wrong, and --host
#    refuses a machine it cannot measure before it writes anything; each
#    boot's log line names the policies and workloads it runs, and its
#    timeout grows with them;
#  - scripts/bench-report turns a recorded run (data/bench-raw, from a
#    --quick run on 2x2) into report.md and the plots, from a relative
#    path too, and --combine makes one report of several topologies;
#    every ratio carries its range and n.s.; remote page-seconds and
#    percent of bind are right on a run small enough to follow by hand;
#    runs of numa01-like workloads are told apart by how they started
#    (a process's threads split over nodes or together) and counted;
#  - scripts/bench-repeats says, from data/bench-raw's runs given three
#    repeats (a failed fourth left out), how many repeats a 5% (or --diff)
#    difference needs, and refuses a bad --diff or a directory without
#    runs.csv, naming it;
#  - a run with the numahome policy (explicit home node, patch 0027) and
#    the numa01-crowd workload: its column, its ratios against numacore
#    and bind, its plots, the combined report's hint table;
#  - a run with the numad policy (the user-space daemon): its column, its
#    ratios against numacore and bind, its parameters and warning, the
#    combined report's numad table, and the perf table every report has;
#  - tests/bench/20-placement gives numahome -H and bind -b (with -N on
#    numa01-crowd), neither by default, and says why numahome cannot run;
#    numad: opt-in, off's command lines, skipped with a reason where it is
#    not installed, warned about below 300 MB; perf's -P cut to fit the
#    node -0 puts it on; a stand-in numad daemon
#    started, its log kept and its moves counted (not those to every
#    node), stopped, its pid file gone, none left;
#  - bin/numa_locality builds without a warning, refuses bad hint options
#    and, on a kernel without patch 0027, -H names the patch;
#  - bin/build_like builds, runs a small build and refuses bad options.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RESULTS_DIR=$tmp/results

# args | words the error must contain
cases=(
	"--repeat 0|--repeat must be a whole number"
	"--seconds x|--seconds must be a whole number"
	"--repeat|--repeat needs a value"
	"--host --nodes 2|--nodes is a lab option"
	"--host --timeout 600|--timeout is a lab option"
	"--bogus|unknown option '--bogus'"
	"--host --topologies wide|--topologies is a lab option"
	"--topologies wide,bogus|unknown set 'bogus' (default, wide)"
	"--topologies wide --nodes 2|--topologies and --nodes both choose the topology"
)
hint_cases=(
	"-N 0|--hint-node needs --bind-roundrobin or --home-roundrobin"
	"-b -H|--bind-roundrobin and --home-roundrobin exclude each other"
	"-H -n 0|--start-node and --home-roundrobin exclude each other"
	"-H -N 63|--hint-node 63: not a node with CPUs"
	"-b -N x|--hint-node: expected a whole number"
)
# bad --diff values for bench-repeats
diff_cases=("--diff x" "--diff 0" "--diff")
plan $((${#cases[@]} + 22 + 7 + 7 + 3 + 3 + 6 + 6 + 2 + ${#hint_cases[@]} + 3 + ${#diff_cases[@]} + 3))
for c in "${cases[@]}"; do
	args=${c%%|*} words=${c#*|}
	out=$(eval "\"$root/scripts/bench\" $args" 2>&1) && rc=0 || rc=$?
	check "bench refuses $args: $words (exit 2)" "exit $rc, said: $out" \
		eval '[ "$rc" -eq 2 ] && grep -qF -- "$words" <<<"$out"'
done
check "bench made no results directory for a bad command line" "found $tmp/results" [ ! -e "$tmp/results" ]

# --host refuses, before it builds or writes anything, where it cannot
# measure: not root, fewer than two nodes with CPUs, no NUMA balancing.
# NUMACORE_SYS stands for /sys and /proc/sys.
fake=$tmp/fakesys
mkdir -p "$fake/sys/devices/system/node" "$fake/proc/sys/kernel"
echo 0 > "$fake/sys/devices/system/node/has_cpu"
out=$(NUMACORE_SYS=$fake "$root/scripts/bench" --host --out "$tmp/refused" 2>&1) && rc=0 || rc=$?
check "--host on one node with CPUs: one line, exit 1, no results directory, no --out" "exit $rc: $out" \
	eval '[ "$rc" -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
	      grep -q "at least 2 nodes that have CPUs, and this one has 1 .*scripts/bench$" <<<"$out" &&
	      [ ! -e "$RESULTS_DIR" ] && [ ! -e "$tmp/refused" ]'
echo 0-1 > "$fake/sys/devices/system/node/has_cpu"
out=$(NUMACORE_SYS=$fake "$root/scripts/bench" --host 2>&1) && rc=0 || rc=$?
check "--host where the kernel has no NUMA balancing: says so, exit 1, no results directory" \
	"exit $rc: $out" eval '[ "$rc" -eq 1 ] && grep -q "has no NUMA balancing (kernel.numa_balancing)" <<<"$out" &&
	      [ ! -e "$RESULTS_DIR" ]'
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$root/scripts/bench" --host \
		--out "$tmp/refused" 2>&1) && rc=0 || rc=$?
	check "--host as a user: needs root (sudo), one line, exit 1, no results directory, no --out" "exit $rc: $out" \
		eval '[ "$rc" -eq 1 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
		      grep -q "^bench: error: --host needs root.*sudo$" <<<"$out" &&
		      [ ! -e "$RESULTS_DIR" ] && [ ! -e "$tmp/refused" ]'
else
	skip "--host as a user: needs root" "not root, or no setpriv"
fi

# bench-report from a relative path: gnuplot runs in plots/, so every path
# it is given must be absolute.
mkdir -p "$tmp/run/2n2c/raw" "$tmp/run/4n1c/raw"
cp "$here"/data/bench-raw/* "$tmp/run/2n2c/raw/"
cp "$here"/data/bench-raw/* "$tmp/run/4n1c/raw/"
out=$(cd "$tmp" && "$root/scripts/bench-report" run/2n2c/raw 2>&1) && rc=0 || rc=$?
check "bench-report run/2n2c/raw exits 0" "exit $rc: $out" [ "$rc" -eq 0 ]
rep=$tmp/run/2n2c/report.md
check "report.md has the headline, a ratio, the longest scan pass and the build" "$(head -c 600 "$rep" 2>&1)" \
	eval 'grep -q "^## Headline" "$rep" && grep -q "numacore/mainline" "$rep" &&
	      grep -q "scan pass, longest (ms)" "$rep" && grep -q "^## build" "$rep"'
check "report.md says it comes from the lab, under TCG" "$(grep -m1 lab "$rep")" \
	grep -q "lab (QEMU guest, tcg)" "$rep"
if command -v gnuplot >/dev/null; then
	check "every plot made, none failed" "$(grep 'plot failed' "$rep")" \
		eval '! grep -q "plot failed" "$rep" && [ -s "$tmp/run/2n2c/cost.png" ] &&
		      [ -s "$tmp/run/2n2c/locality-numa01.png" ] && [ -s "$tmp/run/2n2c/runtime.png" ]'
else
	skip "every plot made, none failed" "no gnuplot here"
fi
"$root/scripts/bench-report" "$tmp/run/4n1c/raw" >/dev/null 2>&1
out=$("$root/scripts/bench-report" --combine "$tmp/run" 2n2c 4n1c 2>&1) && rc=0 || rc=$?
all=$tmp/run/report.md
check "--combine exits 0" "exit $rc: $out" [ "$rc" -eq 0 ]
check "the combined report has both topologies, the summary tables, links into each" \
	"$(grep -n '^#' "$all" 2>&1 | head -20)" \
	eval 'grep -q "^# Topology 2n2c" "$all" && grep -q "^# Topology 4n1c" "$all" &&
	      grep -q "^## Cost: mainline against numacore" "$all" &&
	      grep -q "| 4n1c | numa01 |" "$all" && grep -q "^### Machine" "$all" &&
	      { ! command -v gnuplot >/dev/null || grep -q "](4n1c/cost.png)" "$all"; }'
# A numacore/FEATURE variant: its name has a slash, its plot files must not.
mkdir -p "$tmp/variant/raw"
cp "$here"/data/bench-raw/* "$tmp/variant/raw/"
sed -i 's|^numacore,|numacore/NO_NUMA_SKIP_SETTLED,|' "$tmp/variant/raw/runs.csv" "$tmp/variant/raw/locality.csv"
out=$("$root/scripts/bench-report" "$tmp/variant/raw" 2>&1) && rc=0 || rc=$?
check "bench-report with a numacore/FEATURE policy exits 0 and names it in the report" "exit $rc: $out" \
	eval '[ "$rc" -eq 0 ] && grep -q "numacore/NO_NUMA_SKIP_SETTLED" "$tmp/variant/report.md" &&
	      { ! command -v gnuplot >/dev/null || [ -s "$tmp/variant/locality-numa01.png" ]; }'

# The hint comparison: numahome (numacore's runs, renamed) beside the
# others on numa01 and numa02-node0, and numa01-crowd (numa01's runs,
# renamed) for every policy; numahome skipped on perf and build.
mkdir -p "$tmp/hint/2n2c/raw" "$tmp/hint/4n1c/raw"
h=$tmp/hint/2n2c/raw
cp "$here"/data/bench-raw/* "$h/"
for f in runs.csv locality.csv; do
	{ cat "$here/data/bench-raw/$f"
	  grep -E '^numacore,numa0(1|2-node0),' "$here/data/bench-raw/$f" | sed 's/^numacore,/numahome,/'
	  grep -E '^[a-z]+,numa01,' "$here/data/bench-raw/$f" | sed 's/^\([a-z]*\),numa01,/\1,numa01-crowd,/'
	  grep -E '^numacore,numa01,' "$here/data/bench-raw/$f" | sed 's/^numacore,numa01,/numahome,numa01-crowd,/'
	} > "$h/$f"
done
sed -i 's/^\([a-z]*,numa01-crowd,[0-9]*,\)2x2,/\12x4,/' "$h/runs.csv"
python3 - "$h/machine.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["params"]["policies"].append("numahome")
m["params"]["workloads"].insert(1, "numa01-crowd")
m["shapes"]["numa01-crowd"] = "2x4"
for w in ("perf-numa-mem", "build"):
    m["skipped"][f"numahome/{w}"] = "numahome runs the numa_locality workloads only"
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
cp "$h"/* "$tmp/hint/4n1c/raw/"
out=$("$root/scripts/bench-report" "$h" 2>&1) && rc=0 || rc=$?
hrep=$tmp/hint/2n2c/report.md
check "bench-report with numahome and numa01-crowd exits 0" "exit $rc: $out" [ "$rc" -eq 0 ]
check "numahome is a column after bind, in the headline and the tables, for numa01-crowd too" \
	"$(grep -n 'numahome' "$hrep" 2>&1 | head -5)" \
	eval 'grep -q "^| workload | off | mainline | numacore | bind | numahome |$" "$hrep" &&
	      grep -q "^| numa01-crowd | " "$hrep" && grep -q "^## numa01-crowd (2x4)" "$hrep"'
check "numahome has its ratios against off, mainline, numacore and bind" \
	"$(grep -m1 'numahome/' "$hrep")" \
	eval 'grep "^| metric | .*/off" "$hrep" | grep "numahome/off" | grep "numahome/mainline" |
	      grep "numahome/numacore" | grep -q "numahome/bind"'
check "the parameters say what numahome and numa01-crowd are, and why numahome skipped perf" \
	"$(grep -n '^- ' "$hrep" | head -12)" \
	eval 'grep -q "^- numahome: .*PR_SET_NUMA_HOME_NODE" "$hrep" && grep -q "^- numa01-crowd: " "$hrep" &&
	      grep -q "^- skipped numahome/perf-numa-mem: " "$hrep"'
if command -v gnuplot >/dev/null; then
	check "numahome is in the plots: locality of numa01-crowd, run time bars" "$(grep 'plot failed' "$hrep")" \
		eval '! grep -q "plot failed" "$hrep" && [ -s "$tmp/hint/2n2c/locality-numa01-crowd.png" ] &&
		      [ -s "$tmp/hint/2n2c/plots/locality-numa01-crowd-numahome.dat" ] &&
		      grep -q "title \"numahome\"" "$tmp/hint/2n2c/plots/runtime.gp"'
else
	skip "numahome is in the plots" "no gnuplot here"
fi
"$root/scripts/bench-report" "$tmp/hint/4n1c/raw" >/dev/null 2>&1
out=$("$root/scripts/bench-report" --combine "$tmp/hint" 2n2c 4n1c 2>&1) && rc=0 || rc=$?
hall=$tmp/hint/report.md
check "the combined report has numahome's column and the hint table, numa01-crowd in it" \
	"exit $rc: $(grep -A6 '^## Home-node hint' "$hall" 2>&1)" \
	eval '[ "$rc" -eq 0 ] && grep -q "^| topology | workload | off | mainline | numacore | bind | numahome | numacore/mainline |" "$hall" &&
	      grep -q "^## Home-node hint: numahome against no hint (numacore) and bind" "$hall" &&
	      grep -q "^| 4n1c | numa01-crowd | [0-9.]* | " "$hall" &&
	      ! sed -n "/^## Home-node hint/,/^# /p" "$hall" | grep -q "| perf-numa-mem |"'
check "a report without numahome has no hint table" "$(grep -c 'Home-node hint' "$all")" \
	eval '! grep -q "Home-node hint" "$all"'

# numad: off's runs again as numad's, with the columns 20-placement adds
# for it (numad_moves, pgmigrate_success), on both topologies.
mkdir -p "$tmp/numad/2n2c/raw" "$tmp/numad/4n1c/raw"
d=$tmp/numad/2n2c/raw
cp "$here"/data/bench-raw/* "$d/"
python3 - "$d" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(d, "runs.csv"))))
fields = list(rows[0]) + ["numad_moves", "pgmigrate_success"]
numad = [dict(r, policy="numad", numad_moves="2", pgmigrate_success="40000")
         for r in rows if r["policy"] == "off"]
with open(os.path.join(d, "runs.csv"), "w") as f:
    w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows + numad)
loc = list(csv.DictReader(open(os.path.join(d, "locality.csv"))))
with open(os.path.join(d, "locality.csv"), "w") as f:
    w = csv.DictWriter(f, fieldnames=list(loc[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(loc + [dict(r, policy="numad") for r in loc if r["policy"] == "off"])
m = json.load(open(os.path.join(d, "machine.json")))
m["params"]["policies"].append("numad")
m["numad"] = {"args": ["-i", "1:1", "-u", "100", "-H", "0", "-l", "6"], "version": "0.5+20150602-8",
              "note": "BENCH_MB=128: numad manages only processes of more than 300 MB resident"}
json.dump(m, open(os.path.join(d, "machine.json"), "w"), indent=1)
PY
cp "$d"/* "$tmp/numad/4n1c/raw/"
out=$("$root/scripts/bench-report" "$d" 2>&1) && rc=0 || rc=$?
nrep=$tmp/numad/2n2c/report.md
check "bench-report with numad exits 0; numad is a column after bind, with its moves" \
	"exit $rc: $out $(grep -n 'numad' "$nrep" 2>&1 | head -5)" \
	eval '[ "$rc" -eq 0 ] && grep -q "^| workload | off | mainline | numacore | bind | numad |$" "$nrep" &&
	      grep -q "^| processes numad moved | .* | 2 |$" "$nrep" &&
	      grep -q "^| pages migrated, any cause (pgmigrate_success) | .* | 40,000 |$" "$nrep"'
check "numad has its ratios against off, mainline, numacore and bind" \
	"$(grep -m1 'numad/' "$nrep")" \
	eval 'grep "^| metric | .*/off" "$nrep" | grep "numad/off" | grep "numad/mainline" |
	      grep "numad/numacore" | grep -q "numad/bind"'
check "the parameters say how numad ran, and warn that it leaves 128 MB processes alone" \
	"$(grep -n '^- ' "$nrep" | head -12)" \
	eval 'grep -q "^- numad: balancing off, numad 0.5+20150602-8 started as a daemon .*numad -i 1:1 -u 100" "$nrep" &&
	      grep -q "^- warning: BENCH_MB=128: numad manages only processes of more than 300 MB" "$nrep"'
"$root/scripts/bench-report" "$tmp/numad/4n1c/raw" >/dev/null 2>&1
out=$("$root/scripts/bench-report" --combine "$tmp/numad" 2n2c 4n1c 2>&1) && rc=0 || rc=$?
nall=$tmp/numad/report.md
check "the combined report has numad's column and its table, against off, numacore and bind" \
	"exit $rc: $(grep -A6 '^## numad' "$nall" 2>&1)" \
	eval '[ "$rc" -eq 0 ] && grep -q "^| topology | workload | off | mainline | numacore | bind | numad | numacore/mainline |" "$nall" &&
	      grep -q "^## numad (user space) against off, numacore and bind" "$nall" &&
	      grep -q "^| 4n1c | numa01 | [0-9.]* | .* | 2 | 40,000 | ×" "$nall" &&
	      grep -q "^| 2n2c | perf-numa-mem | GB/s | [0-9.]* | .* | [0-9.]* |$" "$nall"'
check "a report without numad has no numad table; every combined report has the perf table" \
	"$(grep -c '^## numad' "$all")" \
	eval '! grep -q "^## numad" "$all" && ! grep -q "^## numad" "$hall" &&
	      grep -q "^## perf bench numa mem: throughput, convergence and run time" "$all" &&
	      grep -q "^| 4n1c | perf-numa-mem | last convergence (s) | [0-9.]* | " "$all"'
check "the numad policy is not in the plain report's parameters" "$(grep -n 'numad' "$rep" | head -3)" \
	eval '! grep -q "numad" "$rep"'

out=$("$root/scripts/bench-report" "$tmp/nothing" 2>&1) && rc=0 || rc=$?
check "bench-report without runs.csv fails, naming it" "exit $rc: $out" \
	eval '[ "$rc" -eq 1 ] && grep -q "runs.csv not found" <<<"$out"'
out=$("$root/scripts/bench-report" --combine "$tmp/run" 2>&1) && rc=0 || rc=$?
check "--combine without a name is a usage error" "exit $rc: $out" [ "$rc" -eq 2 ]

# bench-repeats: data/bench-raw's runs as three repeats, numa_pte_updates
# 1% up in the second and 1% down in the third (numacore on numa01:
# 565,952 ± 5,660, spread 2.0%, CV 1.0%), and a failed fourth that must
# not count.
mkdir -p "$tmp/repeats/2n2c/raw"
cp "$here"/data/bench-raw/* "$tmp/repeats/2n2c/raw/"
python3 - "$tmp/repeats/2n2c/raw/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = list(rows)
for rep, f in (("2", 1.01), ("3", 0.99)):
    out += [dict(r, repeat=rep, numa_pte_updates=str(round(int(r["numa_pte_updates"]) * f))) for r in rows]
out += [dict(r, repeat="4", rc="1", numa_pte_updates="1") for r in rows
        if (r["policy"], r["workload"]) == ("numacore", "numa01")]
with open(sys.argv[1], "w") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(out)
PY
out=$("$root/scripts/bench-repeats" "$tmp/repeats/2n2c" 2>&1) && rc=0 || rc=$?
check "bench-repeats on a topology exits 0: numa01's numa_pte_updates, 3 runs, 2.0% spread, CV 1.0%, 2 repeats for 5%" \
	"exit $rc: $(grep 'numa_pte_updates' <<<"$out" | head -5)" \
	eval '[ "$rc" -eq 0 ] && grep -q "^## 2n2c$" <<<"$out" &&
	      grep -qF "| numa01 | numa_pte_updates | numacore | 3 | 565,952 | 2.0% | 1.0% | yes | 2 |" <<<"$out"'
out=$("$root/scripts/bench-repeats" --diff 1 "$tmp/repeats" 2>&1) && rc=0 || rc=$?
check "bench-repeats --diff 1 on a report directory: 2n2c found, min-max cannot show 1%, 16 repeats; the summary" \
	"exit $rc: $(grep 'numa_pte_updates' <<<"$out" | head -5)" \
	eval '[ "$rc" -eq 0 ] && grep -q "^## 2n2c$" <<<"$out" &&
	      grep -qF "| numa01 | numa_pte_updates | numacore | 3 | 565,952 | 2.0% | 1.0% | no | 16 |" <<<"$out" &&
	      grep -q "^## Summary by metric" <<<"$out" && grep -q "^| numa_pte_updates | [0-9]* | " <<<"$out"'
for a in "${diff_cases[@]}"; do
	# shellcheck disable=SC2086 # an option and its value
	out=$("$root/scripts/bench-repeats" "$tmp/repeats" $a 2>&1) && rc=0 || rc=$?
	check "bench-repeats $a: one line naming --diff, exit 2" "exit $rc: $out" \
		eval '[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "^bench-repeats: error: --diff" <<<"$out"'
done
mkdir -p "$tmp/norepeats"
out=$("$root/scripts/bench-repeats" "$tmp/norepeats" 2>&1) && rc=0 || rc=$?
check "bench-repeats on a directory without runs.csv: one line naming it, exit 2" "exit $rc: $out" \
	eval '[ "$rc" -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] &&
	      grep -qF "error: $tmp/norepeats: no runs.csv" <<<"$out"'

# The raw files a lab run of 20-placement printed between ==BEGIN== and
# ==END== lines (lab_extract_blocks, lab/lablib.sh).
. "$root/lab/lablib.sh"
mkdir -p "$tmp/blocks"
printf '%s\n' "# noise" "==BEGIN runs.csv==" "policy,workload" "off,numa01" "==END runs.csv==" \
	"between" "==BEGIN machine.json==" '{"nodes": 2}' "==END machine.json==" \
	"==BEGIN ../evil==" "x" "==END ../evil==" "==BEGIN ..==" "y" "==END ..==" \
	"==BEGIN cut.csv==" "a,b" > "$tmp/placement.out"
names=$(lab_extract_blocks "$tmp/placement.out" "$tmp/blocks" | paste -sd' ')
check "blocks extracted by name: runs.csv, machine.json and an unterminated cut.csv" "got: $names" \
	eval '[ "$names" = "runs.csv machine.json cut.csv" ] &&
	      [ "$(cat "$tmp/blocks/runs.csv")" = "$(printf "policy,workload\noff,numa01")" ] &&
	      [ "$(cat "$tmp/blocks/machine.json")" = "{\"nodes\": 2}" ] &&
	      [ "$(cat "$tmp/blocks/cut.csv")" = "a,b" ]'
check "no text outside the blocks, nothing written outside the directory" "$(ls -a "$tmp" "$tmp/blocks")" \
	eval '! grep -rq "noise\|between" "$tmp/blocks" && [ ! -e "$tmp/evil" ] &&
	      [ "$(ls "$tmp/blocks" | wc -l)" -eq 3 ]'

# with_report CODE ARG...: run the Python CODE with scripts/bench-report
# loaded as mod (a script, not an importable module) and sys.argv[1:] ARG...;
# its output and errors.
with_report() {
	local code=$1
	shift
	python3 -c 'import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("bench_report", sys.argv[1])
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_report", loader))
loader.exec_module(mod)
del sys.argv[1]
exec(sys.argv.pop(1))' "$root/scripts/bench-report" "$code" "$@" 2>&1
}

# Ratios carry the range their runs allow, and say when it is no result.
# expected | A's runs | B's runs
ratio_cases=(
	"×0.40 (0.17–0.75)|1 2 3|4 5 6"
	"×0.83 (0.57–1.40) n.s.|4 5 7|5 6 7"
	"×0.33 (0.14–1.00) n.s.|1 2 5|5 6 7"
	"×0.44 (1 run)|2|4 5"
	"×0.75 (0.25–∞) n.s.|1 2|0 4"
	"–||1 2"
	"–|1 2|0 0"
)
for c in "${ratio_cases[@]}"; do
	IFS='|' read -r want a b <<<"$c"
	got=$(with_report 'print(mod.ratio_range([float(x) for x in sys.argv[1].split()],
				       [float(x) for x in sys.argv[2].split()]))' "$a" "$b")
	check "ratio of runs [$a] to [$b] is '$want'" "got '$got'" [ "$got" = "$want" ]
done
check "the combined report has the cost ratios table, and marks its ratios" "$(grep -A3 '^## Cost ratios' "$all")" \
	eval 'grep -q "^## Cost ratios: numacore/mainline" "$all" && grep -q "| 2n2c | numa01 | ×[0-9.]* (1 run) |" "$all"'

# Remote page-seconds and percent of bind, on a run small enough to
# follow by hand: 4 MB over 2 threads is 512 pages a thread; thread 0 is
# half remote for the first second, thread 1 all remote for two: 256 +
# 1024 page-seconds.  bind runs at 2.0 GB/s, numacore at 1.0: 50%.
mkdir -p "$tmp/small"
echo '{"params": {"mb": 4}, "shapes": {"w": "1x2"}}' > "$tmp/small/machine.json"
printf '%s\n' "policy,workload,repeat,shape,rc,gbps,locality" \
	"numacore,w,1,1x2,0,1.0,0.5" "bind,w,1,1x2,0,2.0,1.0" > "$tmp/small/runs.csv"
printf '%s\n' "policy,workload,repeat,t_ms,proc,thread,cpu,node,local_fraction" \
	"numacore,w,1,1000,0,0,0,0,0.5" "numacore,w,1,2000,0,0,0,0,1.0" \
	"numacore,w,1,1000,0,1,1,1,0.0" "numacore,w,1,2000,0,1,1,1,0.0" \
	"bind,w,1,1000,0,0,0,0,1.0" "bind,w,1,1000,0,1,1,1,1.0" > "$tmp/small/locality.csv"
got=$(with_report 'raw = sys.argv[1]
data, _ = mod.load_all(raw, mod.read_json(raw + "/machine.json"), mod.locality_samples(raw))
w = data["w"]
print(w["numacore"]["remote_page_s"], w["bind"]["remote_page_s"],
      w["numacore"]["pct_bind"], w["bind"]["pct_bind"])' "$tmp/small")
check "remote page-seconds 1280 and 0, throughput 50% and 100% of bind's" "got: $got" \
	[ "$got" = "[1280.0] [0.0] [50.0] [100.0]" ]
# Start placement: numa01 repeat 1 starts with process 0's threads on
# nodes 0 and 1 (split) and ends at 0.5; repeat 2 starts together and ends
# at 1.0; its later samples (threads apart) do not count; numa02's threads
# are apart by design and are left out; a numa01 run of one thread a
# process cannot start split or together.
mkdir -p "$tmp/start"
printf '%s\n' "policy,workload,repeat,shape,rc,locality" "numacore,numa01,1,2x2,0,0.5" \
	"numacore,numa01,2,2x2,0,1.0" "numacore,numa02,1,1x2,0,1.0" "mainline,numa01-one,1,2x1,0,1.0" \
	> "$tmp/start/runs.csv"
printf '%s\n' "policy,workload,repeat,t_ms,proc,thread,cpu,node,local_fraction,pref_node" \
	"numacore,numa01,1,500,0,0,0,0,1.0,0" "numacore,numa01,1,500,0,1,2,1,0.0,0" \
	"numacore,numa01,1,500,1,0,1,0,0.0,1" "numacore,numa01,1,500,1,1,3,1,1.0,1" \
	"numacore,numa01,2,500,0,0,0,0,1.0,0" "numacore,numa01,2,500,0,1,1,0,1.0,0" \
	"numacore,numa01,2,500,1,0,2,1,1.0,1" "numacore,numa01,2,500,1,1,3,1,1.0,1" \
	"numacore,numa01,2,1000,0,0,0,0,1.0,0" "numacore,numa01,2,1000,0,1,2,1,0.0,0" \
	"numacore,numa02,1,500,0,0,0,0,1.0,0" "numacore,numa02,1,500,0,1,2,1,1.0,1" \
	"mainline,numa01-one,1,500,0,0,0,0,1.0,-1" "mainline,numa01-one,1,500,1,0,2,1,1.0,-1" \
	> "$tmp/start/locality.csv"
got=$(with_report 'raw = sys.argv[1]
print(mod.start_outcomes(raw, mod.locality_samples(raw)))' "$tmp/start")
check "start placement: numa01 runs split (ended 0.5) and together (ended 1.0); numa02 and one-thread runs left out" \
	"got: $got" [ "$got" = "{'numa01': {'numacore': {'split': [0.5], 'together': [1.0]}}}" ]
got=$(with_report 'print("\n".join(mod.start_section(mod.start_outcomes(sys.argv[1],
	mod.locality_samples(sys.argv[1])), ["mainline", "numacore"])))' "$tmp/start")
check "start placement table: one row, 1 split run not converged, 1 together converged" "got: $got" \
	grep -qx "| numa01 | numacore | 1 | 0 | 1 | 1 |" <<<"$got"
if command -v gnuplot >/dev/null; then
	check "the frontier plot is made and heads the report" "$(grep -n frontier "$rep")" \
		eval '[ -s "$tmp/run/2n2c/frontier.png" ] &&
		      sed -n "/^## Headline/,/^## [^H]/p" "$rep" | grep -q "](frontier.png)"'
else
	skip "the frontier plot is made and heads the report" "no gnuplot here"
fi
check "the combined report has the misplacement table" "$(grep -A4 '^## Misplacement' "$all")" \
	grep -q "^## Misplacement: remote page-seconds" "$all"

# numa_locality and 20-placement as scripts/bench stages them: the
# tests beside tests/lib, numa_locality in bin/.
mkdir -p "$tmp/stage/bench/bin"
cp -R "$root/tests/bench/." "$tmp/stage/bench/"
cp -R "$root/tests/lib" "$tmp/stage/lib"
nl=$tmp/stage/bench/bin/numa_locality
if gcc -O2 -Wall -Wextra -Werror -static -pthread -o "$nl" "$root/tests/bench/src/numa_locality.c" 2>"$tmp/cc.err"; then
	ok "numa_locality builds static without a warning"
	out=$("$nl" --help 2>&1) && rc=0 || rc=$?
	check "numa_locality --help has --home-roundrobin and --hint-node" "exit $rc: $out" \
		eval '[ "$rc" -eq 0 ] && grep -q -- "-H, --home-roundrobin" <<<"$out" &&
		      grep -q -- "-N, --hint-node N" <<<"$out"'
	for c in "${hint_cases[@]}"; do
		args=${c%%|*} words=${c#*|}
		# shellcheck disable=SC2086 # a list of options
		out=$("$nl" $args -s 1 -m 1 2>&1) && rc=0 || rc=$?
		check "numa_locality $args: $words (exit 2)" "exit $rc: $out" \
			eval '[ "$rc" -eq 2 ] && grep -qF -- "$words" <<<"$out"'
	done
	# PR_GET_NUMA_HOME_NODE: EINVAL without patch 0027
	if python3 -c 'import ctypes, errno, sys
libc = ctypes.CDLL(None, use_errno=True)
sys.exit(0 if libc.prctl(0x4e554847, ctypes.c_ulong(0), ctypes.c_ulong(0), ctypes.c_ulong(0),
                         ctypes.c_ulong(0)) < 0 and ctypes.get_errno() == errno.EINVAL else 1)'; then
		out=$("$nl" -H -s 1 -m 1 2>&1) && rc=0 || rc=$?
		check "numa_locality -H on a kernel without patch 0027: exit 1, names EINVAL and the patch" \
			"exit $rc: $out" eval '[ "$rc" -eq 1 ] && grep -q "EINVAL.*patch 0027" <<<"$out"'
	else
		out=$("$nl" -H -s 1 -m 8 -i 500 2>&1) && rc=0 || rc=$?
		check "numa_locality -H on a kernel with patch 0027 runs" "exit $rc: $out" \
			eval '[ "$rc" -eq 0 ] && grep -q "^#summary " <<<"$out"'
	fi
else
	not_ok "numa_locality builds static without a warning # $(cat "$tmp/cc.err")"
	skip "numa_locality --help" "no binary"
	for c in "${hint_cases[@]}"; do skip "numa_locality ${c%%|*}" "no binary"; done
	skip "numa_locality -H" "no binary"
fi
# 20-placement imported (its main() not run: nothing is switched): the
# command lines of the hint comparison, and numahome's reasons.
got=$(cd "$tmp" && POLICIES=off,mainline,numacore,bind,numahome WORKLOADS=numa01,numa02-own,numa01-crowd \
	python3 -c 'import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("placement", sys.argv[1])
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("placement", loader))
loader.exec_module(mod)
first = str(mod.CPU_NODES[0])
def tail(wl, pol):
    a = mod.WORKLOADS[wl][2][pol]
    return None if a is None else [x for x in a if x in ("-b", "-H", "-N", "-n", first)]
print(mod.RUN_POLICIES == ["off", "mainline", "numacore", "bind", "numahome"],
      mod.RUN_WORKLOADS == ["numa01", "numa02-own", "numa01-crowd"],
      "numahome" not in mod.DEFAULT_POLICIES, "numa01-crowd" not in mod.DEFAULT_WORKLOADS,
      tail("numa01-crowd", "bind") == ["-b", "-N", first],
      tail("numa01-crowd", "numahome") == ["-H", "-N", first],
      tail("numa01-crowd", "numacore") == [], tail("numa01", "numahome") == ["-H"],
      tail("numa02-node0", "numahome") == ["-H"], tail("numa02-node0", "numacore")[0] == "-n",
      mod.WORKLOADS["perf-numa-mem"][2]["numahome"] is None,
      mod.WORKLOADS["build"][2]["numahome"] is None, mod.balances("numahome"))
mod.SAVED.update(numa_balancing="1", sched_numa_policy="1")
mod.HAVE_BAL = mod.HAVE_POL = True
print(mod.policy_unavailable("numahome"))
print(mod.no_argv_reason("numahome", "perf"))
mod.HAVE_HOME = True
print(mod.policy_unavailable("numahome"))' "$tmp/stage/bench/20-placement" 2>&1)
check "20-placement: the hint comparison's policies and workloads, -H/-b -N only where asked" "got: $got" \
	eval '[ "$(sed -n 1p <<<"$got")" = "True True True True True True True True True True True True True" ]'
check "20-placement: numahome unavailable without patch 0027 (naming it), skips perf with a reason" "got: $got" \
	eval 'sed -n 2p <<<"$got" | grep -q "PR_GET_NUMA_HOME_NODE fails with EINVAL: numacore patch 0027" &&
	      sed -n 3p <<<"$got" | grep -q "numahome runs the numa_locality workloads only"'
check "20-placement: numahome available with the prctl and numa/core" "got: $got" \
	[ "$(sed -n 4p <<<"$got")" = "None" ]

# numad, with a stand-in for the daemon on PATH: it forks, writes the log
# 20-placement is told to read (NUMAD_LOG), and exits on SIGTERM;
# FAKE_NUMAD_FAIL makes it refuse to start, as numad does a bad option.
mkdir -p "$tmp/fakebin" "$tmp/nonumad"
cat > "$tmp/fakebin/numad" <<'SH'
#!/bin/bash
if [ -n "${FAKE_NUMAD_FAIL:-}" ]; then
	echo "Max interval (1) must be greater than min interval (5)" >&2
	exit 1
fi
if [ "${1:-}" != --daemon ]; then
	setsid "$0" --daemon "$@" </dev/null >/dev/null 2>&1 &
	exit 0
fi
trap 'echo "numad: exiting on SIGTERM" >> "$FAKE_NUMAD_LOG"; exit 0' TERM
{ echo "numad: PID 4242 moved to node(s) 1 in 0.10 seconds"
  echo "numad: PID 4243 moved to node(s) 0-1 in 0.0 seconds"; } >> "$FAKE_NUMAD_LOG"
echo $$ > "$FAKE_NUMAD_PIDFILE"
while :; do sleep 0.2; done
SH
chmod +x "$tmp/fakebin/numad"
got=$(cd "$tmp" && POLICIES=off,numad WORKLOADS=numa01,perf-numa-mem,build BENCH_MB=128 PATH=$tmp/nonumad:$PATH \
	python3 -c 'import importlib.machinery, importlib.util, os, sys
loader = importlib.machinery.SourceFileLoader("placement", sys.argv[1])
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("placement", loader))
loader.exec_module(mod)
print(mod.RUN_POLICIES == ["off", "numad"], "numad" not in mod.DEFAULT_POLICIES,
      all(mod.WORKLOADS[w][2]["numad"] == mod.WORKLOADS[w][2]["off"] for w in mod.WORKLOADS),
      not mod.balances("numad"), "-i" in mod.NUMAD_ARGS and "1:1" in mod.NUMAD_ARGS)
print(mod.numad_note())
os.environ["PATH"] = "/nonexistent"
mod.NUMAD_WHY = mod.numad_unavailable()
print(mod.policy_unavailable("numad"))
mod.MB = 320
print(mod.numad_note())
mod.NODES, mod.CPU_NODES = [0, 1], [0, 1]
mod.nm.node_cpus = lambda n: [n]
mod.nm.node_meminfo_mb = lambda n, field: 1000 if field == "MemFree" else None
print(mod.perf_mb(4), mod.perf_mb(2))
mod.MB = 128
print(mod.perf_mb(4))' "$tmp/stage/bench/20-placement" 2>&1)
check "20-placement: numad opt-in, with off's command lines and no balancing, -i 1:1" "got: $got" \
	[ "$(sed -n 1p <<<"$got")" = "True True True True True" ]
check "20-placement: numad warned about at 128 MB (its 300 MB threshold), not at 320" "got: $got" \
	eval 'sed -n 2p <<<"$got" | grep -q "BENCH_MB=128: numad manages only processes of more than 300 MB" &&
	      [ "$(sed -n 4p <<<"$got")" = "None" ]'
check "20-placement: numad skipped where it is not installed, with the reason" "got: $got" \
	eval 'sed -n 3p <<<"$got" | grep -q "^numad not installed (Debian.s numad package"'
check "20-placement: perf bench numa mem -P fits 60% of what is free on node 0 (1000 MB: 4 x 148, 2 x 298; 128 as asked)" \
	"got: $got" eval '[ "$(sed -n 5,6p <<<"$got")" = "$(printf "148 298\n128")" ]'
if pgrep -x numad >/dev/null; then
	skip "a stand-in numad started, logged, stopped; none left" "a numad runs on this machine"
	skip "a numad that will not start: the run fails with its message" "a numad runs on this machine"
else
	got=$(cd "$tmp" && FAKE_NUMAD_LOG=$tmp/numad.log FAKE_NUMAD_PIDFILE=$tmp/numad.pid PATH=$tmp/fakebin:$PATH python3 -c 'import importlib.machinery, importlib.util, os, sys, time
loader = importlib.machinery.SourceFileLoader("placement", sys.argv[1])
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("placement", loader))
loader.exec_module(mod)
mod.NUMAD_LOG, mod.NUMAD_PIDFILE = os.environ["FAKE_NUMAD_LOG"], sys.argv[2]
open(mod.NUMAD_LOG, "w").write("an earlier run\n")
print(mod.NUMAD.start(), bool(mod.NUMAD.pid), mod.NUMAD.pid in mod.pids_named("numad"))
time.sleep(0.5)
print(mod.NUMAD.stop(), mod.pids_named("numad"), mod.NUMAD.pid)
log = mod.NUMAD.log_since_start()
print("earlier" not in log, "exiting on SIGTERM" in log, mod.numad_moves(log, [0, 1]),
      os.path.exists(mod.NUMAD_PIDFILE))
os.environ["FAKE_NUMAD_FAIL"] = "1"
print(mod.NUMAD.start())' "$tmp/stage/bench/20-placement" "$tmp/numad.pid" 2>&1)
	check "a stand-in numad started, logged, stopped; none left" "got: $got" \
		eval '[ "$(sed -n 1,3p <<<"$got")" = "$(printf "None True True\nTrue [] None\nTrue True 1 False")" ] &&
		      ! pgrep -x numad >/dev/null'
	check "a numad that will not start: the run fails with its message" "got: $got" \
		eval 'sed -n 4p <<<"$got" | grep -q "^numad -i 1:1 -u 100 -H 0 -l 6 did not start (exit 1): Max interval"'
fi

# build_like
if gcc -O2 -Wall -Wextra -Werror -static -o "$tmp/build_like" "$root/tests/bench/src/build_like.c" 2>"$tmp/cc.err"; then
	ok "build_like builds static without a warning"
	out=$("$tmp/build_like" -n 10 -j 2 -m 2 2>&1) && rc=0 || rc=$?
	check "a build of 10 units, 2 at a time: all ran, memory intact" "exit $rc: $out" \
		eval '[ "$rc" -eq 0 ] && grep -q "^#summary units=10 failed=0 " <<<"$out"'
	out=$("$tmp/build_like" -j 0 2>&1) && rc=0 || rc=$?
	check "build_like -j 0 is a usage error naming -j" "exit $rc: $out" \
		eval '[ "$rc" -eq 2 ] && grep -q -- "-j: expected a whole number" <<<"$out"'
else
	not_ok "build_like builds static without a warning # $(cat "$tmp/cc.err")"
	skip "a build of 10 units" "no binary"
	skip "build_like -j 0" "no binary"
fi
# Each boot's log line names the policies and workloads it runs (a
# --env given to bench wins over the set's WORKLOADS, and the set's
# list is not shown then), and its timeout grows with them: a stand-in
# lab-run (BENCH_LAB_RUN) that runs nothing.  Should bench ever call the
# real lab-run here, the missing --image stops that before any boot.
printf '#!/bin/sh\nexit 1\n' > "$tmp/fake-lab-run"
chmod +x "$tmp/fake-lab-run"
# args | words the boot's log line must contain
boot_cases=(
	'--nodes 2 --seconds 20 --repeat 5 --env "POLICIES=mainline numacore numacore/NUMA_SKIP_OTHERS" --env "WORKLOADS=numa01 numa02-own"|boot 1 of 1: --nodes 2; POLICIES=mainline,numacore,numacore/NUMA_SKIP_OTHERS, WORKLOADS=numa01,numa02-own; REPEAT=5, 20 s runs, timeout 3000 s'
	'--env WORKLOADS=numa01|boot 1 of 2: --nodes 2 --cpus-per-node 2 --mem-per-node 2G; POLICIES=off,mainline,numacore,bind, WORKLOADS=numa01; REPEAT=3, 15 s runs, timeout 1800 s'
	'--nodes 3|boot 1 of 1: --nodes 3; POLICIES=off,mainline,numacore,bind, WORKLOADS=numa01,numa02-node0,numa02-own,numa01-wide-node0,perf-numa-mem,perf-numa-mem-4x1,build; REPEAT=3, 15 s runs, timeout 5820 s'
)
for c in "${boot_cases[@]}"; do
	args=${c%%|*} words=${c#*|}
	out=$(eval "BENCH_LAB_RUN=\"$tmp/fake-lab-run\" \"$root/scripts/bench\" --out \"$tmp/boots\" --image \"$tmp/no-image\" $args" 2>&1)
	check "bench $args: its boot says $words" "said: $out" grep -qF -- "$words" <<<"$out"
done
done_testing
