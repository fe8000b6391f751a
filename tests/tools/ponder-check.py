#!/usr/bin/env python3
"""ponder-check.py - the clock accounting of a ponder=on match (tests).

usage: ponder-check.py RESULTS.jsonl OPP_SPY PONDERER PONDER_SPY DELAY_MS

RESULTS is a match (--concurrency 1) of the engine named PONDERER
(ponder=on, a mock in ponder mode writing PONDER_SPY) against an engine
that does not ponder (a mock with --delay DELAY_MS writing OPP_SPY); both
run without increment.  Checked, exactly (no wall-clock bound):
  - between two of the opponent's `go` lines, the opponent's clock drops by
    the time of its move in the record and the ponderer's by the time of
    its move (each in {ms, ms + 1}: the referee charges whole ms rounded
    up, the record keeps them rounded down), so the ponderer is charged
    from ponderhit and not for its pondering, and the opponent not at all;
  - every `go ponder` the ponderer got ends in `ponderhit` or `stop` before
    anything else is asked of it (a game's end stops it too);
  - some ponderhit move took less than DELAY_MS: its time runs from
    ponderhit (had it run from `go ponder`, every ponderhit move would take
    at least the opponent's DELAY_MS of thinking).
Prints one line per problem; exit status 1 if any.
"""
import json
import re
import sys


def go_clocks(spy):
    """Per game (split at newgame) of the spy's engine process: the clocks
    (p1time, p2time) of each `go` line it got."""
    games, cur = [], None
    for line in open(spy):
        parts = line.rstrip('\n').split(' ', 2)
        if len(parts) < 3 or parts[1] != 'got':
            continue
        cmd = parts[2]
        if cmd.startswith('newgame'):
            cur = []
            games.append(cur)
        elif cmd.startswith('go') and cur is not None:
            t = dict(re.findall(r'(p[12]time) (-?\d+)', cmd))
            cur.append((int(t['p1time']), int(t['p2time']), cmd))
    return games


def main(argv):
    res, ospy, pname, pspy, delay = argv[1], argv[2], argv[3], argv[4], int(argv[5])
    recs = [json.loads(l) for l in open(res)]
    recs.sort(key=lambda r: r['game'])
    ogames = go_clocks(ospy)
    problems, checked, fast_hits, hits = [], 0, 0, 0
    if len(ogames) != len(recs):
        problems.append('%d games in the spy, %d records' % (len(ogames), len(recs)))
    for rec, gos in zip(recs, ogames):
        sp = rec['seats'].index(pname) + 1
        so = 3 - sp
        moves = rec['moves']
        omoves = [j for j, m in enumerate(moves) if m['seat'] == so]
        for m in moves:
            if m['seat'] == sp and m.get('ponderhit') is True:
                hits += 1
                fast_hits += m['ms'] < delay
        if len(gos) != len(omoves):
            problems.append('game %d: %d go lines, %d moves of the opponent'
                            % (rec['game'], len(gos), len(omoves)))
            continue
        for i in range(len(omoves) - 1):
            j = omoves[i]
            if j + 1 >= len(moves) or moves[j + 1]['seat'] != sp:
                continue
            dro = gos[i][so - 1] - gos[i + 1][so - 1]
            drp = gos[i][sp - 1] - gos[i + 1][sp - 1]
            mo, mp = moves[j]['ms'], moves[j + 1]['ms']
            if dro not in (mo, mo + 1):
                problems.append('game %d ply %d: opponent charged %d ms for a '
                                '%d ms move' % (rec['game'], j + 1, dro, mo))
            if drp not in (mp, mp + 1):
                problems.append('game %d ply %d: ponderer charged %d ms for a '
                                '%d ms move%s' % (rec['game'], j + 2, drp, mp,
                                                  ' (ponderhit)' if moves[j + 1].get('ponderhit') else ''))
            checked += 1
    # every go ponder ends in ponderhit or stop
    pending = {}
    for line in open(pspy):
        parts = line.rstrip('\n').split(' ', 2)
        if len(parts) < 3 or parts[1] != 'got':
            continue
        pid, cmd = parts[0], parts[2]
        if cmd.startswith('go ponder'):
            pending[pid] = True
        elif cmd in ('ponderhit', 'stop'):
            pending[pid] = False
        elif cmd.startswith('ping'):
            pass  # answered while pondering
        elif pending.get(pid):
            problems.append('pid %s: "%s" while a ponder search was running' % (pid, cmd))
            pending[pid] = False
    if checked == 0:
        problems.append('no move pairs to check')
    if hits == 0:
        problems.append('no ponderhit move')
    elif fast_hits == 0:
        problems.append('every ponderhit move took %d ms or more: charged from go ponder?' % delay)
    for p in problems:
        print('ponder-check: ' + p)
    if not problems:
        print('ponder-check: %d move pairs charged exactly; %d of %d ponderhit moves '
              'under %d ms' % (checked, fast_hits, hits, delay))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
