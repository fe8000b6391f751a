#!/usr/bin/env python3
"""same-games.py A B [N] - do two medan-referee results files (JSONL) hold
the same games?  Game by game number: the seats, opening, every move, the
result and its reason (the fields that vary from run to run, times and
dates, are not compared).  With N, both must hold exactly games 1..N.
Prints `same: K games` and exits 0, or one line per difference and exits 1."""
import json
import sys


def load(path):
    games, errs = {}, []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except ValueError as e:
                errs.append(f"{path}:{i}: not JSON ({e})")
                continue
            n = r.get("game")
            key = (r.get("seats"), r.get("opening"),
                   [m.get("move") for m in r.get("moves", [])],
                   r.get("result"), r.get("reason"))
            if n in games:
                errs.append(f"{path}: game {n} twice")
            games[n] = key
    return games, errs


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    a, ea = load(sys.argv[1])
    b, eb = load(sys.argv[2])
    errs = ea + eb
    if len(sys.argv) == 4:
        want = set(range(1, int(sys.argv[3]) + 1))
        for path, g in ((sys.argv[1], a), (sys.argv[2], b)):
            if set(g) != want:
                miss = sorted(want - set(g))
                extra = sorted(set(g) - want, key=str)
                errs.append(f"{path}: games {len(g)}, missing {miss}, extra {extra}")
    for n in sorted(set(a) | set(b), key=str):
        if n not in a or n not in b:
            errs.append(f"game {n}: only in {sys.argv[1] if n in a else sys.argv[2]}")
        elif a[n] != b[n]:
            fields = ("seats", "opening", "moves", "result", "reason")
            diff = [f for f, x, y in zip(fields, a[n], b[n]) if x != y]
            errs.append(f"game {n}: {', '.join(diff)} differ")
    for e in errs:
        print(e)
    if errs:
        return 1
    print(f"same: {len(a)} games")
    return 0


sys.exit(main())
