#!/bin/bash
# nm.in_child (tests/lib/numa_mem.py), which runs most guest scenarios in
# a forked child: a result comes back as it was returned, an exception as
# an error, and a child that dies says how (a signal, an exit code).  And
# nm.in_fresh_child, which runs a function of the test's own file in an
# exec'd interpreter on the CPUs of the nodes asked for.
set -u
here=$(cd "$(dirname "$0")" && pwd)
lib=$here/../lib

/usr/bin/python3 - "$lib" <<'PY'
import os
import signal
import sys

sys.path.insert(0, sys.argv[1])
import numa_mem as nm  # noqa: E402

cases = [
    ("a result comes back", lambda: {"a": [1, 2]}, {"a": [1, 2]}),
    ("an exception comes back as an error", lambda: 1 / 0,
     {"error": "ZeroDivisionError: division by zero"}),
    ("a killed child names its signal", lambda: os.kill(os.getpid(), signal.SIGKILL),
     {"error": "the child died without a result (killed by SIGKILL)"}),
    ("an exit without a result names its code", lambda: os._exit(3),
     {"error": "the child died without a result (exit 3)"}),
]
print(f"1..{len(cases) + 1 + 5}")   # and 5 in_fresh_child points, below
n = 0
for name, func, want in cases:
    n += 1
    got = nm.in_child(func)
    print(f"{'ok' if got == want else 'not ok'} {n} - {name}")
    if got != want:
        print(f"#   got {got!r}\n#   want {want!r}")
n += 1
got = nm.child_status(0x86)  # SIGABRT with a core dump
want = "killed by SIGABRT, core dumped"
print(f"{'ok' if got == want else 'not ok'} {n} - a core dump is said ({got})")
PY

# in_fresh_child runs a function of __main__'s file, so the cases live in
# a script of their own.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/fresh-test" <<'PY'
import os
import sys

sys.path.insert(0, sys.argv[1])
import numa_mem as nm  # noqa: E402

MARK = []           # set by the parent at run time; an exec'd child has it empty


def add(a, b):
    return {"sum": a + b, "pid": os.getpid(), "mark": MARK,
            "cpus": sorted(os.sched_getaffinity(0))}


def fails():
    return 1 / 0


def exits():
    os._exit(3)


def main():
    MARK.append(1)
    cpus0 = sorted(nm.node_cpus(0))
    # The parent runs on one CPU only, so that the child's CPUs show that
    # they were set, not inherited (on a host with more than one CPU).
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpus0[-1]})
    try:
        got = nm.in_fresh_child(add, 2, 3, nodes=[0])
    finally:
        os.sched_setaffinity(0, before)
    checks = [
        ("in_fresh_child: a result comes back, from arguments passed",
         got.get("sum") == 5),
        ("in_fresh_child: from another process, exec'd (no state of the parent's)",
         got.get("pid") not in (None, os.getpid()) and got.get("mark") == []),
        (f"in_fresh_child: started on node 0's CPUs {cpus0}", got.get("cpus") == cpus0),
        ("in_fresh_child: an exception comes back as an error",
         nm.in_fresh_child(fails) == {"error": "ZeroDivisionError: division by zero"}),
        ("in_fresh_child: an exit without a result names its code",
         nm.in_fresh_child(exits) == {"error": "the child died without a result (exit 3)"}),
    ]
    for n, (name, ok) in enumerate(checks, 6):
        print(f"{'ok' if ok else 'not ok'} {n} - {name}")
        if not ok:
            print(f"#   got {got!r}")


if __name__ == "__main__":
    main()
PY
/usr/bin/python3 "$tmp/fresh-test" "$lib"
