#!/usr/bin/env python3
"""A MEP engine in Python for the client's protocol edge cases.

    mock_engine.py MODE
MODE:
  normal       a well-behaved engine of the game "mock" (two seats): every
               option type, positions "start" plus moves a..z, go with
               info lines that come split in pieces and carry unknown keys,
               errors with codes for anything it does not like
  crash        as normal, but a go prints two info lines, a message on
               stderr and exits with status 3
  hang         as normal, but go never answers and ping is ignored from then
  mute         answers nothing at all (not even mep)
  flood        legalmoves first writes a line of 20 MB
  slowping     a go that stays silent until pinged twice (slow, alive)
"""

import os
import sys
import threading
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
out_lock = threading.Lock()


def out(s):
    with out_lock:
        sys.stdout.write(s + "\n")
        sys.stdout.flush()


def out_split(s):
    """One line written in three pieces, with pauses between them."""
    with out_lock:
        a, b = len(s) // 3, 2 * len(s) // 3
        for piece in (s[:a], s[a:b], s[b:] + "\n"):
            sys.stdout.write(piece)
            sys.stdout.flush()
            time.sleep(0.01)


OPTIONS = [
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Seed type spin default 0 min 0 max 9223372036854775807",
    "option name Strategy type combo default search var search var random",
    "option name Ponder type check default false",
    "option name Book type string default <empty>",
    "option name Clear type button",
]

state = {"moves": [], "search": None, "stop": threading.Event(), "hang": False,
         "opts": {}}


def search(limit_depth, multipv, infinite):
    stop = state["stop"]
    for d in range(1, (limit_depth or 1000) + 1):
        if stop.is_set():
            break
        for k in range(1, multipv + 1):
            line = ("info depth %d seldepth %d multipv %d score %s nodes %d nps 1000 "
                    "time %d hashfull 5 wdl 500,300,200 currmove m%d pv m%d n%d"
                    % (d, d + 2, k, "cp %d" % (10 * d - k) if d < 3 else "win %d" % (9 - d),
                       100 * d, d, k, k, d))
            out_split(line) if d == 1 else out(line)
        out("info string depth %d done, all is well" % d)
        if mode == "crash" and d == 2:
            sys.stderr.write("mock: segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)
        time.sleep(0.002 if not infinite else 0.02)
        if not infinite and limit_depth and d >= limit_depth:
            break
    if infinite:
        stop.wait()
    state["search"] = None
    out("bestmove m1 ponder n1")


def main():
    if mode == "mute":
        for _ in sys.stdin:
            pass
        return
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        t = line.split()
        cmd = t[0]
        busy = state["search"] is not None
        if cmd == "ping":
            if not state["hang"]:
                out("pong " + (t[1] if len(t) > 1 else ""))
            if mode == "slowping" and state["search"] is not None:
                state["pings"] = state.get("pings", 0) + 1
                if state["pings"] >= 2:
                    state["search"] = None
                    out("bestmove m1")
            continue
        if cmd == "isready":
            out("readyok")
            continue
        if cmd == "quit":
            os._exit(0)
        if cmd == "stop":
            th = state["search"]
            if th is threading.current_thread():      # slowping's search
                state["search"] = None
                out("bestmove m1")
            elif th is not None:
                state["stop"].set()
                th.join()
            else:
                out("ok")
            continue
        if busy:
            out("error busy a search is running")
            continue
        if cmd == "mep":
            out("id name Mock")
            out("id author tests")
            out("unknownkeyword to be ignored")
            out("protocol 1")
            out("game mock players 2 size=3..5")
            for o in OPTIONS:
                out(o)
            out("mepok")
        elif cmd == "setoption":
            if len(t) < 3 or t[1] != "name":
                out("error syntax setoption name <Name> [value <v>]")
            elif t[2].lower() == "hash" and len(t) >= 5 and t[4] == "999":
                out("error bad_value Hash 999 is more than this machine's memory")
            else:
                state["opts"][t[2]] = " ".join(t[4:])
                out("ok")
        elif cmd == "newgame":
            bad = [w for w in t[1:] if not w.startswith("size=")]
            out("error bad_value mock has no parameter '%s'" % bad[0] if bad else "ok")
        elif cmd == "position":
            moves = t[t.index("moves") + 1:] if "moves" in t else []
            for i, m in enumerate(moves):
                if m == "zz":
                    out("error illegal_move %d zz 'zz' is not a move" % (i + 1))
                    break
            else:
                state["moves"] = moves
                out("ok")
        elif cmd == "legalmoves":
            if mode == "flood":
                with out_lock:
                    sys.stdout.write("moves " + "x" * (20 << 20) + "\n")
            out("moves a b c")
            out("ok")
        elif cmd == "fen":
            out("fen start " + " ".join(state["moves"]))
            out("ok")
        elif cmd == "result":
            out("result none" if len(state["moves"]) < 3 else
                "result p2win reason mock scores 0 1")
            out("ok")
        elif cmd == "eval":
            out("eval -7 us.pieces=3 them.pieces=4 others.chips=1.50")
            out("ok")
        elif cmd in ("perft", "divide"):
            if cmd == "divide":
                out("perft 1 move a 2")
                out("perft 1 move b 3")
            out("perft %s 5 time 0 nps 0" % t[1])
            out("ok")
        elif cmd == "go":
            if mode == "hang":
                state["hang"] = True
                continue
            if mode == "slowping":
                # silent until it has been pinged twice: slow, but alive
                state["search"] = threading.current_thread()
                state["pings"] = 0
                continue
            if len(state["moves"]) >= 3:
                out("error game_over the game is over")
                continue
            depth = int(t[t.index("depth") + 1]) if "depth" in t else None
            mpv = int(t[t.index("multipv") + 1]) if "multipv" in t else 1
            inf = "infinite" in t or len(t) == 1
            state["stop"] = threading.Event()
            th = threading.Thread(target=search, args=(depth, mpv, inf))
            state["search"] = th
            th.start()
        else:
            out("error unknown_command '%s' (try help)" % cmd)


main()
