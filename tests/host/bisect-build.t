#!/bin/bash
# scripts/bisect-build refuses a bad --from before it touches anything,
# naming the range the series allows; its usage documents the option.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
bisect=$here/../../scripts/bisect-build
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib.sh
. "$root/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp
total=$(series_patches | wc -l)

# args | words the error must contain
cases=(
	"--from 0|--from '0': give a patch number from 1 to $total"
	"--from x|--from 'x': give a patch number from 1 to $total"
	"--from -3|--from '-3': give a patch number from 1 to $total"
	"--from $((total + 1))|(the series has $total patches)"
	"--from|--from needs a patch number"
	"--bogus|unknown argument '--bogus'"
)
plan $((2 * ${#cases[@]} + 2))

# refused RC OUT WANT: a failure whose output says WANT.
refused() { [ "$1" -ne 0 ] && grep -qF -- "$3" <<<"$2"; }
# succeeded RC OUT WANT: a success whose output says WANT.
succeeded() { [ "$1" -eq 0 ] && grep -qF -- "$3" <<<"$2"; }

mkdir -p "$tmp/bisect"
for c in "${cases[@]}"; do
	args=${c%%|*} want=${c#*|}
	: > "$tmp/bisect/keep"
	# shellcheck disable=SC2086 # the case's words
	out=$("$bisect" $args 2>&1) && rc=0 || rc=$?
	check "bisect-build $args: refused, saying \"$want\"" "exit $rc: $out" \
		refused "$rc" "$out" "$want"
	check "bisect-build $args: build/bisect left alone" "$tmp/bisect/keep is gone" \
		[ -e "$tmp/bisect/keep" ]
done
out=$("$bisect" --help 2>&1) && rc=0 || rc=$?
check "--help documents --from" "exit $rc: $out" succeeded "$rc" "$out" "--from N"
# shellcheck disable=SC2016 # make's syntax, not the shell's
check "make check-bisect passes FROM on" "Makefile" \
	grep -qF 'scripts/bisect-build $(if $(FROM),--from $(FROM))' "$root/Makefile"
done_testing
