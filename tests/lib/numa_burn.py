#!/usr/bin/python3
"""A busy task with a working set, for the NUMA scheduling tests.

Fills MB megabytes, then keeps reading one byte of every page of it until it
has used CPU_SECONDS of CPU time (so hinting faults keep coming back), and
prints what /proc/self/sched says about its NUMA state, one "key=value" a
line.  With --exec it execs itself once it is done and the new program
reports first thing, before it has run long enough to be sampled.

With --exec-at-ms the program instead execs itself when its CPU time since
the fork reaches that many milliseconds (so that a scan tick due then
falls inside the execve() call; --nohuge makes the old address space slow
enough to tear down), and the new program burns until --exec seconds of
CPU time have passed since the exec, its start-up included.  If the
program is already past the mark once its memory is filled, it reports
late=1 and does not exec.
"""
import argparse
import mmap
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numa_mem import PAGE, sched_fields  # noqa: E402


def report(prefix=""):
    fields = sched_fields()
    fields["cpu_ms"] = int(time.process_time() * 1000)  # since fork, exec included
    fields["pid"] = os.getpid()
    for key in sorted(fields):
        print(f"{prefix}{key}={fields[key]}")
    sys.stdout.flush()


def exec_self(mb, cpu_seconds, sleep, *extra):
    """Exec this script again as the program after an exec (--after-exec)."""
    os.execv(sys.executable, [sys.executable, os.path.abspath(__file__), "--after-exec",
                              "--mb", str(mb), "--cpu-seconds", str(cpu_seconds),
                              "--sleep", str(sleep), *extra])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=64)
    ap.add_argument("--cpu-seconds", type=float, default=3.0)
    ap.add_argument("--exec", type=float, metavar="S",
                    help="exec once done; the new program burns S seconds and reports")
    ap.add_argument("--sleep", type=float, default=0.0,
                    help="sleep this long (no CPU time) before burning; passed on to the exec'd program")
    ap.add_argument("--nohuge", action="store_true",
                    help="back the working set with small pages (MADV_NOHUGEPAGE)")
    ap.add_argument("--exec-at-ms", type=float, metavar="MS",
                    help="exec when the CPU time since fork reaches MS (instead of --cpu-seconds)")
    ap.add_argument("--after-exec", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--exec-cpu", type=float, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.after_exec and args.sleep:
        time.sleep(args.sleep)

    # The process CPU clock keeps counting across exec: measure from here,
    # or from the exec itself when the old program says when that was.
    start = time.process_time() if args.exec_cpu is None else args.exec_cpu
    if args.nohuge:
        buf = mmap.mmap(-1, args.mb << 20)
        buf.madvise(mmap.MADV_NOHUGEPAGE)
        memoryview(buf)[::PAGE] = b"\x01" * ((args.mb << 20) // PAGE)
    else:
        buf = bytearray(b"\x01") * (args.mb << 20)
    view = memoryview(buf)
    sink = 0
    if args.exec_at_ms is not None and not args.after_exec:
        mark = args.exec_at_ms / 1000
        if time.process_time() >= mark:
            report()
            print("late=1")
            return
        while time.process_time() < mark:
            pass
        exec_cpu = time.process_time()
        report()
        print("late=0")
        sys.stdout.flush()
        # the new program's own working set: 64 MB, as in the other tests
        exec_self(64, args.exec, args.sleep, "--exec-cpu", str(exec_cpu))
    while time.process_time() - start < args.cpu_seconds:
        # One byte of every page: C-speed, faults every page back in.
        sink += sum(view[::PAGE])
    report("exec." if args.after_exec else "")
    if args.exec is not None:
        exec_self(args.mb, args.exec, args.sleep)


if __name__ == "__main__":
    main()
