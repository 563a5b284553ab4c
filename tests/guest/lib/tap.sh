# shellcheck shell=bash
# TAP for the guest tests (the shape of kselftest's ksft_* helpers).
# Source it, call plan N, then ok/not_ok/check/skip, and finish with done_testing.

_tap_n=0 _tap_fail=0

plan() { echo "1..$1"; }

ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }

not_ok() {
	_tap_n=$((_tap_n + 1)) _tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n - $*"
}

skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $1 # SKIP ${2:-}"; }

diag() { echo "# $*"; }

# check NAME REASON-IF-FAILED CMD...: one test point from a command's status.
check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else not_ok "$name # $why"; fi
}

# between LO HI VALUE: LO <= VALUE <= HI, for use with check (an empty or
# non-numeric VALUE is not between anything).
between() {
	[ "$3" -ge "$1" ] 2>/dev/null && [ "$3" -le "$2" ]
}

done_testing() {
	[ "$_tap_fail" -eq 0 ]
}
