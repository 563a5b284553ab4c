#!/bin/bash
# tap_verdict (tests/runner/tap-count.sh), the verdict rules that guest-run
# and scripts/check share: each case is a test's output and exit code, and
# the passed/failed/skipped counts and verdict it must get.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../guest/lib/tap.sh"
. "$here/../runner/tap-count.sh"
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
)
# verdict_is WANT-COUNTS WANT-VERDICT-PREFIX: the last tap_verdict's result
verdict_is() {
	[ "$TAP_PASSED $TAP_FAILED $TAP_SKIPPED" = "$1" ] && [[ $TAP_VERDICT == "$2"* ]]
}
plan ${#cases[@]}
for c in "${cases[@]}"; do
	IFS='|' read -r text rc want verdict <<<"$c"
	printf '%b\n' "$text" > "$tmp/out"
	tap_verdict "$tmp/out" "$rc" 600
	check "exit $rc, ${text//\\n/ | }: $want, $verdict" \
		"got $TAP_PASSED $TAP_FAILED $TAP_SKIPPED, $TAP_VERDICT" verdict_is "$want" "$verdict"
done
done_testing
