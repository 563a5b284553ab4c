#!/bin/bash
# tap_verdict (lab/tap-count.sh), the verdict rules that guest-run
# and scripts/check share: each case is a test's output and exit code, and
# the passed/failed/skipped counts and verdict it must get.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../../lab/tap-count.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# output (\n for newlines) | rc | passed failed skipped | verdict starts with
cases=(
	'1..2\nok 1 - a\nok 2 - b|0|2 0 0|ok'
	'1..3\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no node|1|1 1 1|FAIL (1 failed)'
	'1..0 # SKIP fewer than two nodes with CPUs|0|0 0 1|skip (fewer than two nodes with CPUs)'
	'1..0 # SKIP nothing here|4|0 0 1|skip (nothing here)'
	'1..0 # SKIP but it crashed|1|0 1 0|FAIL (exit 1)'
	'1..25\nok 1 - a\nok 2 - b|1|2 1 0|FAIL (ran 2 of 25 planned points)'
	'1..25\nok 1 - a\nok 2 - b|0|2 1 0|FAIL (ran 2 of 25 planned points)'
	'1..1\nok 1 - a\nok 2 - b|0|2 1 0|FAIL (ran 2 of 1 planned points)'
	'1..2\nok 1 - a\nok 2 - b|3|2 1 0|FAIL (exit 3 after passing TAP)'
	'1..2\nok 1 - a\nok 2 - b|4|2 0 0|ok'
	'1..2\nok 1 - a|124|1 1 0|TIMEOUT after 600 s'
	'plain output, no TAP|0|1 0 0|ok'
	'plain output, no TAP|4|0 0 1|skip'
	'plain output, no TAP|2|0 1 0|FAIL (exit 2)'
	'ok 1 - no plan at all\nok 2 - b|0|2 0 0|ok'
	'1..1\n# ok 1 - a comment is no point\nok 1 - real|0|1 0 0|ok'
	'1..1\nok 1 - lower-case skip # skip why|0|0 0 1|ok'
	'no file: the test never started|1|0 1 0|FAIL (exit 1)'
)
# verdict_of FILE RC: tap_verdict's result as one line, computed under
# "set -euo pipefail" as scripts/check runs it (a count of zero once
# killed scripts/check there without a word).
verdict_of() {
	# A process of its own: inside "$(...) || ..." bash ignores set -e.
	bash -euo pipefail -c '. "$1"; tap_verdict "$2" "$3" 600
		echo "$TAP_PASSED $TAP_FAILED $TAP_SKIPPED|$TAP_VERDICT"' \
		verdict_of "$here/../../lab/tap-count.sh" "$1" "$2"
}
# verdict_is WANT-COUNTS WANT-VERDICT-PREFIX: the last verdict_of's result
verdict_is() {
	[ "${got%%|*}" = "$1" ] && [[ ${got#*|} == "$2"* ]]
}
plan ${#cases[@]}
for c in "${cases[@]}"; do
	IFS='|' read -r text rc want verdict <<<"$c"
	rm -f "$tmp/out"
	case $text in no\ file:*) ;; *) printf '%b\n' "$text" > "$tmp/out" ;; esac
	got=$(verdict_of "$tmp/out" "$rc") || got="died under set -e|"
	# Outputs shown in a point's name lose their '#': "ok N - ... # SKIP"
	# would make this point a skip.
	shown=${text//\\n/ | }
	check "exit $rc, ${shown//#/(hash)}: $want, $verdict" \
		"got ${got%%|*}, ${got#*|}" verdict_is "$want" "$verdict"
done
done_testing
