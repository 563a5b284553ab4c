# shellcheck shell=bash
# shellcheck disable=SC2034 # the TAP_* results are for the caller
# tap_verdict OUTPUT RC [LIMIT]: the verdict on one test from its output
# (a file) and exit code, for guest-run in the guest and scripts/check on
# the host.  Sets TAP_PASSED, TAP_FAILED, TAP_SKIPPED and TAP_VERDICT.
#
# The rules (those of kselftest and TAP 13):
#   - "ok N" counts as passed, "ok N ... # SKIP" as skipped, "not ok N" as
#     failed;
#   - a plan "1..0 # SKIP why" (nothing to run here) is one skip;
#   - a test that prints a plan "1..N" must print N points: fewer means it
#     stopped early, more means the plan is wrong; either is one more
#     failure;
#   - without TAP, the exit code decides: 0 pass, 4 skip (kselftest's
#     KSFT_SKIP), anything else fail;
#   - with TAP, an exit code other than 0 or 4 is a failure even when every
#     point passed; 124 and 137 (timeout(1)) are a timeout after LIMIT s.
#
# Callers may run under "set -euo pipefail" (scripts/check does): grep -c
# exits 1 when it counts nothing, so every count goes through tap_count.
tap_count() {
	local n
	n=$(grep -c "$@" 2>/dev/null) || :
	echo "${n:-0}"
}

tap_verdict() {
	local file=$1 rc=$2 limit=${3:-?} ok plan ran
	ok=$(tap_count -E '^ok [0-9]+' "$file")
	TAP_SKIPPED=$(tap_count -iE '^ok [0-9]+.*# *SKIP' "$file")
	TAP_FAILED=$(tap_count -E '^not ok [0-9]+' "$file")
	TAP_PASSED=$((ok - TAP_SKIPPED))
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$file" 2>/dev/null | head -1) || :
	ran=$((ok + TAP_FAILED))
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		TAP_FAILED=$((TAP_FAILED + 1))
		TAP_VERDICT="TIMEOUT after $limit s"
	elif [ "$plan" = 0 ] && [ "$ran" -eq 0 ]; then
		if [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; then
			TAP_SKIPPED=1
			TAP_VERDICT="skip ($(sed -n 's/^1\.\.0 *# *[Ss][Kk][Ii][Pp] *//p' "$file" | head -1))"
		else
			TAP_FAILED=1
			TAP_VERDICT="FAIL (exit $rc)"
		fi
	elif [ -z "$plan" ] && [ "$ran" -eq 0 ]; then
		case $rc in
		0) TAP_PASSED=1 TAP_VERDICT=ok ;;
		4) TAP_SKIPPED=1 TAP_VERDICT=skip ;;
		*) TAP_FAILED=1 TAP_VERDICT="FAIL (exit $rc)" ;;
		esac
	elif [ -n "$plan" ] && [ "$ran" -ne "$plan" ]; then
		TAP_FAILED=$((TAP_FAILED + 1))
		TAP_VERDICT="FAIL (ran $ran of $plan planned points)"
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$TAP_FAILED" -eq 0 ]; then
		TAP_FAILED=1
		TAP_VERDICT="FAIL (exit $rc after passing TAP)"
	elif [ "$TAP_FAILED" -gt 0 ]; then
		TAP_VERDICT="FAIL ($TAP_FAILED failed)"
	else
		TAP_VERDICT=ok
	fi
}
