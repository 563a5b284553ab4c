"""Common ground of the stress tests (tests/stress/): how long to run, and
numa/core in charge with frequent scanning, restored afterwards.

STRESS_SECONDS (environment; lab/lab-run --env) is each test's main
phase in seconds: short in make check, long in make stress.
"""
import contextlib
import os
import time

import numa_mem as nm

DEFAULT_SECONDS = 20

# Scanning as often as the knobs allow a busy task to be sampled
# (fast-scanning.conf, shared with the bash tests; mainline's knobs likewise).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fast-scanning.conf")) as _f:
    FAST = dict(line.strip().split("=", 1) for line in _f
                if line.strip() and not line.startswith("#"))
MAINLINE_DIR = "/sys/kernel/debug/sched/numa_balancing/"
MAINLINE_FAST = {"scan_delay_ms": 0, "scan_period_min_ms": 100, "scan_period_max_ms": 400}


def seconds():
    try:
        s = int(os.environ.get("STRESS_SECONDS", DEFAULT_SECONDS))
    except ValueError:
        s = DEFAULT_SECONDS
    return max(s, 5)


def _rw(path, value=None):
    if value is None:
        with open(path) as f:
            return f.read().strip()
    with open(path, "w") as f:
        f.write(f"{value}\n")


@contextlib.contextmanager
def fast_scanning():
    """numa/core on, scanning often; every knob restored on the way out."""
    nm.features("NUMA")        # mounts debugfs for the mainline knobs too
    saved_ml = {k: _rw(MAINLINE_DIR + k) for k in MAINLINE_FAST
                if os.path.exists(MAINLINE_DIR + k)}
    with nm.Sysctls(FAST):
        try:
            for k in saved_ml:
                _rw(MAINLINE_DIR + k, MAINLINE_FAST[k])
            yield
        finally:
            for k, v in saved_ml.items():
                _rw(MAINLINE_DIR + k, v)


def until(deadline_s, min_rounds=0, grace_s=600):
    """Yield elapsed seconds until DEADLINE_S have passed and the loop has
    made MIN_ROUNDS rounds: the checks on how much a test did hold on a
    loaded TCG host, where one round can take seconds.  GRACE_S bounds the
    overtime (the test's own check then says how far it got)."""
    start = time.monotonic()
    rounds = 0
    while True:
        t = time.monotonic() - start
        if t >= deadline_s and (rounds >= min_rounds or t >= deadline_s + grace_s):
            return
        yield t
        rounds += 1


class Worker:
    """A child process that keeps reading MB of checksummed memory bound
    (MPOL_MF_LAZY, so it is sampled and the task gets a home node there) to
    NODE, or placed by first touch with NODE=None, and checks the checksum
    every VERIFY_EVERY passes.  stop() ends it: True when its data was
    intact at every check."""

    def __init__(self, node=None, mb=16, verify_every=20, cpus=None):
        self.node = node
        rfd, wfd = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(rfd)
            ok = False
            try:
                ok = self._run(node, mb, verify_every, cpus, wfd)
            finally:
                os._exit(0 if ok else 1)
        os.close(wfd)
        os.read(rfd, 1)         # ready: memory filled
        os.close(rfd)

    @staticmethod
    def _run(node, mb, verify_every, cpus, wfd):
        import signal
        stop = []
        signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        buf = nm.Buffer(mb)
        if node is not None:
            buf.mbind(nm.MPOL_BIND, [node], nm.MPOL_MF_MOVE | nm.MPOL_MF_LAZY)
        buf.fill(seed=os.getpid())
        os.write(wfd, b"r")
        os.close(wfd)
        n = 0
        while not stop:
            buf.read()
            n += 1
            if n % verify_every == 0 and not buf.intact():
                return False
        return buf.intact()

    def stop(self):
        """SIGTERM, then the verdict: True when the data stayed intact."""
        try:
            os.kill(self.pid, 15)
            _, status = os.waitpid(self.pid, 0)
        except OSError:
            return False
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

    def alive(self):
        try:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return pid == 0
