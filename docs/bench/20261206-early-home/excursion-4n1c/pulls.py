#!/usr/bin/python3
"""Each pull of a numa01 worker off its home CPU in 10-excursion2's output:
what was running on that CPU then (the last context switch there), the
path that pulled it, and how long until it came back.

    xz -dc 01-excursion2_10-excursion2.out.xz | ./pulls.py
"""
import collections
import re
import sys

SWITCH = re.compile(r"\[(\d+)\] \S+\s+([\d.]+): sched_switch: prev_comm=.*? next_comm=(.*?) next_pid=(\d+)")
MIGRATE = re.compile(r"\[(\d+)\] \S+\s+([\d.]+): sched_migrate_task: comm=\S+ pid=(\d+) prio=\d+ "
                     r"orig_cpu=(\d+) dest_cpu=(\d+)")
STATE = re.compile(r"tg=(\d+) tid=(\d+) cpu=(\d+) home=(-?\d+)")


def runs(lines):
    cur = None
    for line in lines:
        m = re.match(r"# run (\d+)", line)
        if m:
            if cur:
                yield cur
            cur = {"run": int(m.group(1)), "st": [], "tr": []}
        elif cur is not None and line.startswith("# st "):
            cur["st"].append(line[5:].strip())
        elif cur is not None and line.startswith("# tr "):
            cur["tr"].append(line[5:].rstrip())
    if cur:
        yield cur


def path_of(tr, i):
    for line in tr[i + 1:i + 8]:
        if "=> active_load_balance_cpu_stop" in line:
            return "active balancing"
        if "=> load_balance" in line:
            return "load_balance"
        if "=> try_to_wake_up" in line:
            return "wake-up"
    return "?"


def main():
    who = collections.Counter()
    backs = []
    for d in runs(sys.stdin):
        home = {}
        for line in d["st"]:
            m = STATE.match(line)
            if m and m.group(1) != m.group(2):      # workers, not main threads
                home[int(m.group(2))] = int(m.group(4))
        running, away, tr = {}, {}, d["tr"]
        for i, line in enumerate(tr):
            m = SWITCH.search(line)
            if m:
                running[int(m.group(1))] = m.group(3)
                continue
            m = MIGRATE.search(line)
            if not m or int(m.group(3)) not in home:
                continue
            t, tid, src, dst = float(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
            h = home[tid]     # the lab's nodes have one CPU each: CPU n is node n
            if src == h and dst != h:
                away[tid] = t
                on = running.get(src, "?")
                who[on] += 1
                print(f"run {d['run']}: worker {tid} pulled off its home CPU {src} to {dst} "
                      f"by {path_of(tr, i)} while {on} ran there", end="")
            elif dst == h and tid in away:
                ms = (t - away.pop(tid)) * 1000
                backs.append(ms)
                print(f"; back after {ms:.1f} ms by {path_of(tr, i)}")
        for tid in away:
            print(f"; run {d['run']}: worker {tid} not back by the end")
    print(f"pulls: {sum(who.values())}; running on the home CPU at the time: {dict(who)}")
    if backs:
        print(f"back after {min(backs):.1f} to {max(backs):.1f} ms")


main()
