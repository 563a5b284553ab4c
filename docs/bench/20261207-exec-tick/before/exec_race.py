#!/usr/bin/python3
import argparse, mmap, os, sys, time
def seq():
    for line in open("/proc/self/sched"):
        if line.startswith("mm->numa_scan_seq"):
            return int(line.split(":")[1])
    return -1
ap = argparse.ArgumentParser()
ap.add_argument("--pre-mb", type=int, default=512)
ap.add_argument("--margin-ms", type=float, default=15)
ap.add_argument("--post-cpu", type=float, default=3.0)
ap.add_argument("--sleep", type=float, default=0.5)
ap.add_argument("--after", type=float, default=None)
a = ap.parse_args()
delay = int(open("/proc/sys/kernel/sched_numa_scan_delay_ms").read()) / 1000
if a.after is None:
    m = mmap.mmap(-1, a.pre_mb << 20)
    m.madvise(mmap.MADV_NOHUGEPAGE)
    for off in range(0, a.pre_mb << 20, 4096):
        m[off] = 1
    t0 = time.process_time()
    if t0 > delay - a.margin_ms / 1000:
        print(f"late: pre touch took to {t0:.3f}"); sys.exit(0)
    x = 0
    while time.process_time() < delay - a.margin_ms / 1000:
        x += 1
    pre = time.process_time()
    t = time.perf_counter()
    os.execv(sys.executable, [sys.executable, os.path.abspath(__file__), "--after", str(pre), "--post-cpu", str(a.post_cpu), "--sleep", str(a.sleep)])
s0 = seq()
time.sleep(a.sleep)
st = time.process_time()
buf = bytearray(b"\x01") * (64 << 20)
v = memoryview(buf)
while time.process_time() - a.after < a.post_cpu:
    sum(v[::4096])
print(f"pre_cpu={a.after:.3f} startup_cpu={st - a.after:.3f} post_cpu={time.process_time()-a.after:.2f} seq_at_start={s0} seq={seq()}")
