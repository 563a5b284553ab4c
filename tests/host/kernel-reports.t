#!/bin/bash
# The lab fails a run on kernel reports: each sample log of a report is
# caught, and a clean boot log (with lockdep's banner and harmless warnings
# in it) is not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../../lab/lablib.sh"

logs=("$here"/data/dmesg-*)
plan ${#logs[@]}
for f in "${logs[@]}"; do
	name=$(basename "$f")
	found=$(lab_kernel_reports "$f")
	if [ "$name" = dmesg-clean ]; then
		check "$name: no report found" "matched: $found" [ -z "$found" ]
	else
		check "$name: report found" "nothing matched" [ -n "$found" ]
	fi
done
done_testing
