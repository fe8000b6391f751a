#!/usr/bin/env python3
"""The overhead of the client: the median time of an ``analyse`` call
against the same search through a raw pipe.

    PATH=bin:$PATH PYTHONPATH=gui-adapters/python \\
        python3 gui-adapters/python/tests/bench_overhead.py [N] [ENGINE]

N short searches (``go depth 1``, default 200) of the start position, each
way: the library's ``engine.analyse(Position(game), Limit(depth=1))``; raw
lines ``position start`` + ``go depth 1`` read to ``ok`` and ``bestmove``
(what analyse sends); raw ``go depth 1`` alone.  Prints the medians and
the difference; judges nothing (a figure for the docs and reports)."""

import os
import statistics
import subprocess
import sys
import time

import medan


def raw(program, n, with_position):
    p = subprocess.Popen([medan.find_program(program)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    f = p.stdout

    def send(s):
        p.stdin.write(s.encode())
        p.stdin.flush()

    def upto(word):
        while True:
            ln = f.readline()
            if not ln:
                raise SystemExit("engine ended")
            if ln.split(b" ", 1)[0].strip() == word:
                return

    send("mep\n")
    upto(b"mepok")
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        if with_position:
            send("position start\ngo depth 1\n")
            upto(b"ok")
        else:
            send("go depth 1\n")
        upto(b"bestmove")
        times.append(time.perf_counter() - t0)
    send("quit\n")
    p.wait()
    return times


def lib(program, game, n):
    times = []
    with medan.Engine.popen(program) as e:
        pos = medan.Position(game)
        for _ in range(n):
            t0 = time.perf_counter()
            e.analyse(pos, medan.Limit(depth=1))
            times.append(time.perf_counter() - t0)
    return times


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    program = sys.argv[2] if len(sys.argv) > 2 else "medan-loa"
    game = os.path.basename(program).replace("medan-", "")
    # interleaved rounds, so a change of load hits every way alike
    res = {"raw go": [], "raw position+go": [], "library analyse": []}
    for _ in range(4):
        res["raw go"] += raw(program, n // 4, False)
        res["raw position+go"] += raw(program, n // 4, True)
        res["library analyse"] += lib(program, game, n // 4)
    med = {k: statistics.median(v) * 1e6 for k, v in res.items()}
    for k, v in med.items():
        print("%-18s median %7.0f us  (%d searches)" % (k, v, len(res[k])))
    print("overhead of analyse: %+.0f us against raw position+go, %+.0f us against raw go"
          % (med["library analyse"] - med["raw position+go"],
             med["library analyse"] - med["raw go"]))
    print("load:", open("/proc/loadavg").read().strip() if os.path.exists("/proc/loadavg") else "?")


if __name__ == "__main__":
    main()
