#!/usr/bin/python3
# Summarises 10-scan-trace's output (output.txt, or the file given): for
# each policy and round, the workload's mean locality every 10 s and the
# first second at 90% local; each process's threads as (home node, node
# they ran on, scan period in ms) at about every 10 s; and the scan
# passes and PTE updates of each process.
import collections
import re
import sys


def main(path):
    lines = open(path).read().splitlines()
    runs = sorted({tuple(m.groups()) for m in
                   (re.match(r"# (\S+) (\d+) ", ln) for ln in lines) if m})
    for pol, r in runs:
        head = f"# {pol} {r} "
        acc = collections.defaultdict(list)
        for ln in lines:
            if ln.startswith(head + "out: "):
                f = ln.split("out: ", 1)[1].split(",")
                if len(f) >= 6 and f[0].isdigit():
                    acc[int(f[0]) // 1000].append(float(f[-1]))
        ser = [(t, sum(v) / len(v)) for t, v in sorted(acc.items())]
        t90 = next((t for t, v in ser if v >= 0.9), None)
        print(f"{pol} {r}: first at 90% local: {t90} s; locality every 10 s: "
              + " ".join(f"{t}:{v:.2f}" for t, v in ser if t % 10 == 1))
        samples = collections.defaultdict(lambda: collections.defaultdict(list))
        for ln in lines:
            m = re.match(re.escape(head) + r"t=(\d+) (.*)", ln)
            if m:
                d = dict(re.findall(r"(\w+)=(\S+)", m.group(2)))
                samples[int(m.group(1))][d["tgid"]].append(
                    (d["home"], d["cpu"], d["period"]))
        shown = set()
        for t in sorted(samples):
            if t // 10 in shown:
                continue
            shown.add(t // 10)
            procs = {k: v for k, v in sorted(samples[t].items()) if len(v) > 1}
            print(f"  t={t}: " + "; ".join(
                f"tgid {k}: " + " ".join(f"{h}/cpu{c}/{p}" for h, c, p in v)
                for k, v in procs.items()))
        passes = collections.Counter()
        ptes = collections.Counter()
        for ln in lines:
            if ln.startswith(head + "scan: "):
                m = re.search(r"tgid=(\d+) .*pte_updates=(\d+)", ln)
                if m:
                    passes[m.group(1)] += 1
                    ptes[m.group(1)] += int(m.group(2))
        print("  scan passes (PTE updates) by process: " + ", ".join(
            f"tgid {k}: {passes[k]} ({ptes[k]})" for k in sorted(passes)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "output.txt")
