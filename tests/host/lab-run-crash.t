#!/bin/bash
# lab/lab-run boots once more when QEMU crashes before the guest's test
# runner started, or the runner has not started within --start-timeout
# (a hung boot), keeps the failed attempt's logs, and never hides any
# other failure: a crash once tests ran, or a second attempt without a
# test.
# QEMU, qemu-img and cloud-localds are stand-ins on PATH that play a
# script of outcomes, one a boot, from $FAKE_PLAN.
# shellcheck disable=SC2016 # the checks below eval their single-quoted tests
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
lab=$here/../../lab/lab-run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/results PATH=$tmp/bin:$PATH
export FAKE_PLAN=$tmp/plan

mkdir -p "$tmp/bin" "$BUILD_DIR/image/fake" "$tmp/tests"
for f in disk.img vmlinuz initrd.img; do : > "$BUILD_DIR/image/fake/$f"; done
printf 'IMAGE_RELEASE=6.1.0-fake\nIMAGE_VERSION=0\n' > "$BUILD_DIR/image/fake/image.env"
printf '#!/bin/sh\necho "1..1"; echo "ok 1 - nothing"\n' > "$tmp/tests/10-nothing"
chmod +x "$tmp/tests/10-nothing"
# shellcheck disable=SC2016 # the stand-ins expand their own arguments
printf '#!/bin/sh\nfor a; do last=$a; done; : > "$last"\n' > "$tmp/bin/qemu-img"
# shellcheck disable=SC2016
printf '#!/bin/sh\n: > "$1"\n' > "$tmp/bin/cloud-localds"
# The stand-in QEMU takes the first line of the plan:
#   crash        the kernel prints, then QEMU dies of SIGSEGV
#   crash-late   the runner has started (a console line), then SIGSEGV
#   hang         the kernel prints, then nothing (QEMU runs on)
#   pass         the runner ran one passing test and the guest powered off
# (A timeout is never booted again: tests/host/lablib.t checks that in
# lab_qemu_crashed, without waiting a minute for one here.)
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
serial='' share=''
for a; do
	case $a in
	file:*) serial=${a#file:} ;;
	local,path=*) share=${a#local,path=}; share=${share%%,*} ;;
	esac
done
what=$(head -1 "$FAKE_PLAN")
sed -i 1d "$FAKE_PLAN"
echo "fake qemu: $what" >&2
echo "[    1.071536] pci_bus 0000:00: root bus resource [bus 00-ff]" > "$serial"
case $what in
crash) kill -SEGV $$ ;;
crash-late) echo "numacore-lab: 1..1" >> "$serial"; kill -SEGV $$ ;;
hang) echo "[    3.058707] systemd-udevd (113) used greatest stack depth" >> "$serial"; exec sleep 120 ;;
pass)
	echo "numacore-lab: ok 1 - 01-tests/10-nothing" >> "$serial"
	echo "[    2.000000] clean" > "$share/out/dmesg"
	echo "ok 1 - 01-tests/10-nothing # 1 passed" > "$share/out/results.tap"
	echo "passed=1 failed=0 skipped=0 tests=1" > "$share/out/summary" ;;
esac
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"

# run PLAN...: lab-run on that plan; sets out (its output), rc, dir (the run).
run() {
	printf '%s\n' "$@" > "$FAKE_PLAN"
	rm -rf "$RESULTS_DIR"
	local t0=$SECONDS
	out=$("$lab" --accel tcg --timeout 60 --start-timeout 3 --no-guest-tests \
		--run-file "$tmp/run-file" "$tmp/tests" 2>&1)
	rc=$? secs=$((SECONDS - t0))
	dir=$(cat "$tmp/run-file" 2>/dev/null)
}

plan 28

run crash pass
check "a crash before the runner started, then a good boot: the run passes" "exit $rc: $out" [ "$rc" -eq 0 ]
check "it says QEMU crashed and that it boots again" "$out" \
	grep -q "QEMU crashed (exit status 139).*before the test runner started" <<<"$out"
check "it boots again, once" "$out" grep -q "booting again (attempt 2 of 2)" <<<"$out"
check "the crashed boot's console log is kept" "$(ls "$dir" 2>&1)" grep -q "root bus resource" "$dir/crash1-serial.log"
check "the crashed boot's QEMU log is kept" "$(ls "$dir" 2>&1)" grep -q "fake qemu: crash" "$dir/crash1-qemu.log"
check "the good boot's logs are the run's own" "$(cat "$dir/qemu.log" 2>&1)" grep -q "fake qemu: pass" "$dir/qemu.log"
check "the lab-summary counts the crash" "$(cat "$dir/lab-summary" 2>&1)" grep -q "qemu_crashes=1" "$dir/lab-summary"
check "the plan is used up (two boots, not three)" "left: $(cat "$FAKE_PLAN")" [ ! -s "$FAKE_PLAN" ]

run crash crash pass
check "two crashes: the run fails" "exit $rc" [ "$rc" -ne 0 ]
check "two crashes: it does not boot a third time" "left: $(cat "$FAKE_PLAN")" [ "$(cat "$FAKE_PLAN")" = pass ]
check "two crashes: the failure names QEMU's exit status" "$out" grep -q "FAILED: QEMU exited with status 139" <<<"$out"
check "two crashes: both attempts' logs are kept" "$(ls "$dir" 2>&1)" \
	eval '[ -s "$dir/crash1-serial.log" ] && [ -s "$dir/crash2-serial.log" ] && [ -s "$dir/serial.log" ]'
check "two crashes: the lab-summary counts both" "$(cat "$dir/lab-summary" 2>&1)" grep -q "qemu_crashes=2" "$dir/lab-summary"

run crash-late pass
check "a crash once the runner started: the run fails" "exit $rc" [ "$rc" -ne 0 ]
check "a crash once the runner started: no second boot" "left: $(cat "$FAKE_PLAN")" [ "$(cat "$FAKE_PLAN")" = pass ]
check "a crash once the runner started: the failure names QEMU's exit status" "$out" \
	grep -q "FAILED: QEMU exited with status 139" <<<"$out"

run hang pass
check "a hung boot (no runner within --start-timeout), then a good boot: the run passes" "exit $rc: $out" [ "$rc" -eq 0 ]
check "it says the runner had not started and that it boots again" "$out" \
	grep -q "test runner had not started .* (--start-timeout 3): stopped it" <<<"$out"
check "the hung boot was stopped, not waited out (well under the 60-s --timeout)" "$secs s" [ "$secs" -lt 40 ]
check "the hung boot's console log is kept" "$(ls "$dir" 2>&1)" grep -q "systemd-udevd" "$dir/hang1-serial.log"
check "the lab-summary counts the hang, and no crash" "$(cat "$dir/lab-summary" 2>&1)" \
	grep -q "qemu_crashes=0 boot_hangs=1" "$dir/lab-summary"
check "no stand-in QEMU is left running" "$(pgrep -af 'sleep 120' 2>&1)" eval '! pgrep -f "^sleep 120$"'

run hang hang pass
check "two hung boots: the run fails, and says why" "exit $rc: $out" \
	eval '[ "$rc" -ne 0 ] && grep -q "FAILED: the guest.s test runner did not start within 3 s" <<<"$out"'
check "two hung boots: no third boot" "left: $(cat "$FAKE_PLAN")" [ "$(cat "$FAKE_PLAN")" = pass ]

run crash hang pass
check "a crash, then a hung boot: the run fails, no third boot" "exit $rc, left: $(cat "$FAKE_PLAN")" \
	eval '[ "$rc" -ne 0 ] && [ "$(cat "$FAKE_PLAN")" = pass ]'
check "a crash, then a hung boot: both attempts' logs are kept, numbered" "$(ls "$dir" 2>&1)" \
	eval '[ -s "$dir/crash1-serial.log" ] && [ -s "$dir/hang2-serial.log" ]'

run pass
check "a good boot: passes, one boot" "exit $rc: $out" eval '[ "$rc" -eq 0 ] && ! grep -q "booting again" <<<"$out"'
check "a good boot: no crash or hang counted" "$(cat "$dir/lab-summary" 2>&1)" \
	grep -q "qemu_crashes=0 boot_hangs=0" "$dir/lab-summary"

done_testing
