#!/bin/bash
# nm.in_child (tests/lib/numa_mem.py), which runs most guest scenarios in
# a forked child: a result comes back as it was returned, an exception as
# an error, and a child that dies says how (a signal, an exit code).
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
print(f"1..{len(cases) + 1}")
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
