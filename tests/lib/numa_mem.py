"""Memory placement helpers for the NUMA tests: buffers whose pages can be
located, moved and checksummed, the memory policy system calls, CPU pinning
by node, and a small TAP writer for tests written in Python.

x86_64 only (system call numbers), like the lab.
"""
import ctypes
import errno
import faulthandler
import hashlib
import json
import mmap
import os
import re
import signal
import struct
import subprocess
import sys
import time

PAGE = mmap.PAGESIZE

SYS_mbind = 237
SYS_set_mempolicy = 238
SYS_get_mempolicy = 239
SYS_move_pages = 279

MPOL_DEFAULT, MPOL_PREFERRED, MPOL_BIND, MPOL_INTERLEAVE, MPOL_LOCAL = range(5)
MPOL_F_ADDR = 1 << 1
MPOL_MF_STRICT = 1 << 0
MPOL_MF_MOVE = 1 << 1
MPOL_MF_MOVE_ALL = 1 << 2
MPOL_MF_LAZY = 1 << 3
MPOL_MF_INTERNAL = 1 << 4

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
_libc.sched_getcpu.restype = ctypes.c_int

MAXNODE = 64


def _syscall(nr, *args):
    """Raw system call: 0 or a positive result, or -errno."""
    ret = _libc.syscall(ctypes.c_long(nr), *args)
    if ret < 0:
        return -ctypes.get_errno()
    return ret


def _nodemask(nodes):
    mask = 0
    for n in nodes:
        mask |= 1 << n
    return ctypes.byref(ctypes.c_ulong(mask)) if nodes else None


def set_mempolicy(mode, nodes=()):
    return _syscall(SYS_set_mempolicy, ctypes.c_int(mode), _nodemask(nodes),
                    ctypes.c_ulong(MAXNODE + 1 if nodes else 0))


def get_mempolicy(addr=None):
    """(mode, node mask) of the task policy, or of the VMA policy at ADDR;
    -errno when the call fails."""
    mode, mask = ctypes.c_int(-1), ctypes.c_ulong(0)
    ret = _syscall(SYS_get_mempolicy, ctypes.byref(mode), ctypes.byref(mask),
                   ctypes.c_ulong(MAXNODE + 1), ctypes.c_ulong(addr or 0),
                   ctypes.c_ulong(0 if addr is None else MPOL_F_ADDR))
    return (mode.value, mask.value) if ret == 0 else ret


def nodes_with_cpus():
    out = []
    for n in range(MAXNODE):
        path = f"/sys/devices/system/node/node{n}/cpulist"
        if os.path.exists(path) and node_cpus(n):
            out.append(n)
    return out


def node_cpus(node):
    """The CPUs of NODE, from sysfs."""
    with open(f"/sys/devices/system/node/node{node}/cpulist") as f:
        text = f.read().strip()
    cpus = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def pin(nodes):
    """Run only on the CPUs of NODES (an iterable), or anywhere if None."""
    if nodes is None:
        cpus = set(range(os.cpu_count()))
    else:
        cpus = set()
        for n in nodes:
            cpus |= node_cpus(n)
    os.sched_setaffinity(0, cpus)
    os.sched_yield()


def first_two_nodes():
    """The first two nodes with CPUs (a CPU-less node may be among the
    others), -1 for each that is missing."""
    return tuple((nodes_with_cpus() + [-1, -1])[:2])


def node_of_cpu(cpu):
    for n in nodes_with_cpus():
        if cpu in node_cpus(n):
            return n
    return -1


def last_cpu(pid):
    """The CPU PID last ran on (/proc/PID/stat field 39)."""
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[36])


def cpu_node():
    """The node of the CPU this task runs on right now."""
    return node_of_cpu(_libc.sched_getcpu())


SYSCTL = "/proc/sys/kernel/"
FEATURES = "/sys/kernel/debug/sched/features"


def progress(msg):
    """A line on the serial console, which lab-run shows as the run goes;
    nothing outside the lab (no LAB_NODES) or without a console."""
    if "LAB_NODES" not in os.environ:
        return
    try:
        with open("/dev/ttyS0", "w") as tty:
            tty.write(f"numacore-lab: {msg}\n")
    except OSError:
        pass


def sysctl(name, value=None):
    """Read kernel.NAME, or write VALUE to it."""
    path = SYSCTL + name
    if value is None:
        with open(path) as f:
            return f.read().strip()
    with open(path, "w") as f:
        f.write(f"{value}\n")
    return str(value)


def knob(name):
    """kernel.NAME, or None where this kernel has none."""
    try:
        return sysctl(name)
    except OSError:
        return None


PERIOD_MIN, PERIOD_MAX = "sched_numa_scan_period_min_ms", "sched_numa_scan_period_max_ms"


def set_sysctls(values):
    """Write VALUES ({name: value}) to kernel.NAME in an order the kernel
    accepts: the scan period's bounds stay min <= max at every step, so the
    pair can move anywhere (down past the old minimum, up past the old
    maximum).  A refused write raises OSError naming the knob."""
    names = list(values)
    if PERIOD_MIN in values and PERIOD_MAX in values:
        names = [n for n in names if n not in (PERIOD_MIN, PERIOD_MAX)]
        if int(values[PERIOD_MIN]) <= int(sysctl(PERIOD_MAX)):
            pair = [PERIOD_MIN, PERIOD_MAX]
        else:
            pair = [PERIOD_MAX, PERIOD_MIN]
        names = pair + names
    for n in names:
        try:
            sysctl(n, values[n])
        except OSError as e:
            raise OSError(e.errno, f"kernel.{n} = {values[n]} refused: {e.strerror}") from e


class Sysctls:
    """with Sysctls({name: value, ...}, keep=(name, ...)): those knobs set
    (set_sysctls()), and they and the KEEP ones (which the block may change
    at will) restored on the way out, whatever happens in between.  A knob
    the kernel lacks raises OSError at once, before anything was written."""

    def __init__(self, values=None, keep=()):
        self.values = dict(values or {})
        self.saved = {n: sysctl(n) for n in list(self.values) + list(keep)}

    def __enter__(self):
        try:
            set_sysctls(self.values)
        except BaseException:
            set_sysctls(self.saved)
            raise
        return self

    def __exit__(self, *exc):
        set_sysctls(self.saved)
        return False


def use_policy(policy):
    """NUMA balancing on, under sched_numa_policy POLICY (0 mainline, 1
    numa/core)."""
    set_sysctls({"numa_balancing": 1, "sched_numa_policy": policy})


def debugfs_mounted():
    """debugfs at /sys/kernel/debug, mounted if need be."""
    if not os.path.ismount("/sys/kernel/debug"):
        subprocess.run(["mount", "-t", "debugfs", "none", "/sys/kernel/debug"],
                       stderr=subprocess.DEVNULL, check=False)


def features(*names):
    """Set scheduler features (NAME or NO_NAME), debugfs mounted if need be."""
    debugfs_mounted()
    for name in names:
        with open(FEATURES, "w") as f:
            f.write(name)


def features_shown():
    """The scheduler features as debugfs lists them (NAME on, NO_NAME off),
    debugfs mounted if need be."""
    debugfs_mounted()
    with open(FEATURES) as f:
        return f.read().split()


def feature_known(name):
    """This kernel has scheduler feature NAME, on or off."""
    return bool({name, "NO_" + name} & set(features_shown()))


def vmstat(*keys):
    out = {}
    with open("/proc/vmstat") as f:
        for line in f:
            k, v = line.split()
            if k in keys:
                out[k] = int(v)
    return out


def vmstat_since(before, keys=None):
    """How much the /proc/vmstat counters grew since BEFORE (a vmstat()
    result): a dict over KEYS (default: BEFORE's own), 0 for a counter this
    kernel lacks."""
    keys = tuple(keys or before)
    now = vmstat(*keys)
    return {k: now.get(k, 0) - before.get(k, 0) for k in keys}


def node_meminfo_mb(node, field):
    """FIELD (MemTotal, MemFree, ...) of NODE's meminfo in sysfs, in MB;
    None where the node or the field does not exist."""
    try:
        with open(f"/sys/devices/system/node/node{node}/meminfo") as f:
            for line in f:
                if f" {field}:" in line:
                    return int(line.split()[-2]) // 1024
    except OSError:
        pass
    return None


def node_free_mb(node):
    """MemFree of NODE in MB; -1 where it cannot be read."""
    mb = node_meminfo_mb(node, "MemFree")
    return -1 if mb is None else mb


SCHED_KEYS = ("mm->numa_scan_seq", "home_node", "current_node", "numa_scan_period",
              "numa_home_seq", "numa_pages_migrated", "total_numa_faults",
              "numa_preferred_nid")


def sched_fields(pid="self", keys=SCHED_KEYS):
    """The integer fields KEYS of /proc/PID/sched ("key=value" or
    "key : value", several to a line separated by commas), as a dict."""
    out = {}
    with open(f"/proc/{pid}/sched") as f:
        for line in f:
            for part in line.strip().split(","):
                sep = "=" if "=" in part else ":"
                key, _, val = part.partition(sep)
                key = key.strip()
                if key in keys:
                    try:
                        out[key] = int(val.strip())
                    except ValueError:
                        pass
    return out


HUGE = 2 << 20


class Buffer:
    """MB megabytes of anonymous private memory, aligned to 2 MB inside a
    mapping 2 MB larger: no transparent huge page straddles its ends, so
    that mbind() on the buffer never leaves a PTE-mapped huge page in it,
    which 6.1's NUMA hinting faults do not migrate.  huge=False: no
    transparent huge pages at all (MADV_NOHUGEPAGE), one PTE a page."""

    def __init__(self, mb, huge=True):
        self.size = mb << 20
        self.npages = self.size // PAGE
        self.map = mmap.mmap(-1, self.size + HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if not huge:
            self.map.madvise(mmap.MADV_NOHUGEPAGE)
        base = ctypes.addressof(ctypes.c_char.from_buffer(self.map))
        off = -base % HUGE
        self.addr = base + off
        self.view = memoryview(self.map)[off:off + self.size]
        self._pages = (ctypes.c_void_p * self.npages)(
            *[self.addr + i * PAGE for i in range(self.npages)])
        self.digest = None

    def fill(self, seed=1):
        """Write every page: a repeated pseudo-random block, and the page's
        own index in its first 8 bytes, so that a lost, swapped or stale
        page changes the checksum."""
        block = hashlib.sha256(str(seed).encode()).digest() * (PAGE // 32)
        chunk = block * 256
        for off in range(0, self.size, len(chunk)):
            n = min(len(chunk), self.size - off)
            self.view[off:off + n] = chunk[:n]
        for i in range(self.npages):
            struct.pack_into("<Q", self.view, i * PAGE, i ^ (seed << 32))
        self.digest = self.checksum()

    def checksum(self):
        return hashlib.sha256(self.view).hexdigest()

    def intact(self):
        return self.digest is not None and self.checksum() == self.digest

    def touch(self, value=1):
        """Write one byte of every page, at C speed: a quick first touch
        that places the pages before any scan pass can sample them."""
        self.view[::PAGE] = bytes([value]) * self.npages

    def read(self):
        """Read one byte of every page (hinting faults come back)."""
        return sum(self.view[::PAGE])

    def nodes(self):
        """The node of every page (negative: -errno, e.g. not present)."""
        status = (ctypes.c_int * self.npages)()
        ret = _syscall(SYS_move_pages, ctypes.c_int(0), ctypes.c_ulong(self.npages),
                       self._pages, None, status, ctypes.c_int(0))
        if ret < 0:
            raise OSError(-ret, "move_pages (query)")
        return list(status)

    def fraction_on(self, node):
        nodes = self.nodes()
        return sum(1 for n in nodes if n == node) / len(nodes)

    def move_to(self, node):
        """move_pages() every page to NODE; returns how many failed."""
        ret, _ = self.move_status(node)
        if ret < 0:
            raise OSError(-ret, "move_pages")
        return ret

    def move_status(self, node, flags=MPOL_MF_MOVE):
        """move_pages() every page to NODE with FLAGS; returns the call's
        result and every page's status (its node, or -errno)."""
        dest = (ctypes.c_int * self.npages)(*([node] * self.npages))
        status = (ctypes.c_int * self.npages)()
        ret = _syscall(SYS_move_pages, ctypes.c_int(0), ctypes.c_ulong(self.npages),
                       self._pages, dest, status, ctypes.c_int(flags))
        return ret, list(status)

    def mbind(self, mode, nodes=(), flags=0, addr=None, length=None):
        """mbind() over the buffer (or ADDR/LENGTH): 0 or -errno."""
        return _syscall(SYS_mbind, ctypes.c_ulong(self.addr if addr is None else addr),
                        ctypes.c_ulong(self.size if length is None else length),
                        ctypes.c_int(mode), _nodemask(nodes),
                        ctypes.c_ulong(MAXNODE + 1 if nodes else 0), ctypes.c_uint(flags))

    def policy(self):
        """The mode and node mask of the VMA policy at the start of the buffer."""
        ret = get_mempolicy(self.addr)
        if isinstance(ret, int):
            raise OSError(-ret, "get_mempolicy")
        return ret


class TraceInstance:
    """with TraceInstance(NAME, EVENT, KB): the trace event EVENT (e.g.
    "sched/sched_numa_scan") enabled in a tracefs instance of our own, NAME,
    so that no one else's trace buffer is touched; KB of buffer per CPU.
    The instance is removed on the way out."""
    TOP = "/sys/kernel/tracing"

    def __init__(self, name, event, kb=4096):
        self.dir = f"{self.TOP}/instances/{name}"
        self.event = f"events/{event}/enable"
        self.kb = kb

    def _write(self, name, value):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(f"{value}\n")

    def __enter__(self):
        if not os.path.exists(os.path.join(self.TOP, "instances")):
            subprocess.run(["mount", "-t", "tracefs", "nodev", self.TOP],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.isdir(self.dir):
            os.mkdir(self.dir)
        self._write("buffer_size_kb", self.kb)
        self._write("trace", "")
        self._write(self.event, 1)
        self._write("tracing_on", 1)
        return self

    def __exit__(self, *exc):
        try:
            self._write(self.event, 0)
            os.rmdir(self.dir)
        except OSError:
            pass

    def clear(self):
        self._write("trace", "")

    def read(self):
        """The event lines in the buffer, and how many events were lost."""
        lines, lost = [], 0
        with open(os.path.join(self.dir, "trace")) as f:
            for line in f:
                if line.startswith("#"):
                    m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", line)
                    if m:
                        lost = int(m.group(2)) - int(m.group(1))
                    continue
                lines.append(line)
        return lines, lost


def runtime_ns(pid="self"):
    """Nanoseconds PID (or PID/task/TID) has run on a CPU, from its
    /proc schedstat."""
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])


def cpu_seconds():
    return time.thread_time()


def in_child(func, *args, **kwargs):
    """Run FUNC in a forked child (a fresh address space and home node
    history) and return its result, a JSON-able dict; an exception in the
    child comes back as {"error": ...}."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        # A fatal signal (SIGSEGV, SIGABRT) leaves the threads' tracebacks
        # in the test's output.
        faulthandler.enable(all_threads=True)
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # reported to the parent, which fails the check
            result = {"error": f"{type(exc).__name__}: {exc}"}
        with os.fdopen(wfd, "w") as w:
            json.dump(result, w)
        os._exit(0)
    os.close(wfd)
    return _child_result(pid, rfd)


# The program in_fresh_child() runs: take the parent's module path, load
# the test's file as a module (its main() sits behind the __name__ guard),
# call the function, write the result to the inherited pipe.
_FRESH = """
import faulthandler, importlib.machinery, importlib.util, json, os, sys
faulthandler.enable(all_threads=True)
path, name, fd, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
sys.path[:] = json.loads(sys.argv[5])
loader = importlib.machinery.SourceFileLoader("fresh_child", path)
mod = importlib.util.module_from_spec(importlib.util.spec_from_loader("fresh_child", loader))
try:
    loader.exec_module(mod)
    result = getattr(mod, name)(*args)
except Exception as exc:
    result = {"error": f"{type(exc).__name__}: {exc}"}
with os.fdopen(fd, "w") as w:
    json.dump(result, w)
"""


def in_fresh_child(func, *args, nodes=None):
    """Run FUNC, a top-level function of the running test's own file, in a
    newly exec'd interpreter started on the CPUs of NODES (anywhere if
    None), and return its result as in_child() does.  ARGS must be
    JSON-able.

    A forked child reads its parent's pages until it writes them, wherever
    the parent ran, and their hinting faults count for that node: a 4x1
    boot once chose home node 3, the test runner's, for a child whose own
    buffer sat on node 1.  Started here, every anonymous page of the child
    is first touched on NODES (file pages such as the interpreter's text
    are not sampled)."""
    path = os.path.abspath(sys.modules["__main__"].__file__)
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            if nodes is not None:
                pin(nodes)
            os.set_inheritable(wfd, True)
            os.execv(sys.executable, [sys.executable, "-c", _FRESH, path, func.__name__,
                                      str(wfd), json.dumps(args), json.dumps(sys.path)])
        finally:
            os._exit(127)
    os.close(wfd)
    return _child_result(pid, rfd)


def _child_result(pid, rfd):
    """The JSON result a child writes to RFD, once it has ended."""
    with os.fdopen(rfd) as r:
        data = r.read()
    _, status = os.waitpid(pid, 0)
    try:
        return json.loads(data)
    except ValueError:
        return {"error": f"the child died without a result ({child_status(status)})"}


def child_status(status):
    """How a child ended, from its wait status: "exit 1", "killed by SIGSEGV"."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        return f"killed by {name}" + (", core dumped" if os.WCOREDUMP(status) else "")
    return f"exit {os.WEXITSTATUS(status)}"


class Tap:
    """TAP output for tests written in Python."""

    def __init__(self, plan):
        self.n = 0
        self.failed = 0
        print(f"1..{plan}", flush=True)

    def check(self, name, cond, detail=""):
        self.n += 1
        if cond:
            print(f"ok {self.n} - {name}", flush=True)
        else:
            self.failed += 1
            print(f"not ok {self.n} - {name}", flush=True)
            if detail:
                print(f"#   {detail}", flush=True)
        return cond

    def skip(self, name, why):
        self.n += 1
        print(f"ok {self.n} - {name} # SKIP {why}", flush=True)

    def diag(self, msg):
        print(f"# {msg}", flush=True)

    def done(self):
        sys.exit(1 if self.failed else 0)


def errno_name(ret):
    return errno.errorcode.get(-ret, str(ret)) if ret < 0 else str(ret)
