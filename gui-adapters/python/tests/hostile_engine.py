#!/usr/bin/env python3
"""Hostile MEP engines for the client's limits (issue 39): each answers the
handshake as an engine of the game "mock" would, then misbehaves.

    hostile_engine.py MODE PIDFILE
MODE:
  child-crash    go starts a child that keeps the engine's stdout (and
                 sleeps), then the engine exits with status 3
  child-quit     starts such a child at once; answers like an engine;
                 quit ends the engine, the child stays
  child-setsid   go starts a child in its own session (out of the engine's
                 process group) that keeps stdout, then the engine hangs:
                 reads on, answers nothing (not even ping)
  setoption-flood  setoption answered with endless info lines, never ok
  setoption-drip   setoption answered with an info line every 50 ms and
                 pongs, never ok
  no-bestmove    go: answers ping (and stop with nothing), never bestmove
  no-stdin       after its first pong (the end of Engine.popen) never
                 reads its stdin again
Every process it starts (itself first) is written to PIDFILE, one pid a
line, so a test can check that none is left.
"""

import os
import subprocess
import sys
import time

mode = sys.argv[1]
pidfile = sys.argv[2]


def note_pid(pid):
    with open(pidfile, "a") as f:
        f.write("%d\n" % pid)


def out(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


def child(setsid=False):
    """A sleeper that inherits stdout (and stderr); stdin is /dev/null."""
    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                         stdin=subprocess.DEVNULL, start_new_session=setsid)
    note_pid(p.pid)
    return p


note_pid(os.getpid())
if mode == "child-quit":
    child()

for raw in sys.stdin:
    t = raw.split()
    if not t:
        continue
    cmd = t[0]
    if cmd == "mep":
        out("id name Hostile")
        out("protocol 1")
        out("game mock players 2")
        out("option name Hash type spin default 16 min 1 max 1024")
        out("mepok")
    elif cmd == "ping":
        out("pong " + (t[1] if len(t) > 1 else ""))
        if mode == "no-stdin":
            time.sleep(600)
    elif cmd == "quit":
        sys.exit(0)
    elif cmd == "setoption" and mode == "setoption-flood":
        line = "info string " + "x" * 200
        while True:
            out(line)
    elif cmd == "setoption" and mode == "setoption-drip":
        # answers pings in between: alive, but never done
        import select
        while True:
            out("info string still setting")
            r, _, _ = select.select([sys.stdin], [], [], 0.05)
            if r:
                ln = sys.stdin.readline()
                if not ln:
                    sys.exit(0)
                w = ln.split()
                if w and w[0] == "ping":
                    out("pong " + (w[1] if len(w) > 1 else ""))
    elif cmd == "go" and mode == "child-crash":
        child()
        out("info depth 1 score cp 0 pv m1")
        sys.stderr.write("hostile: crashed, a child keeps stdout\n")
        sys.stderr.flush()
        os._exit(3)
    elif cmd == "go" and mode == "child-setsid":
        child(setsid=True)
        for _ in sys.stdin:
            pass
        time.sleep(600)
    elif cmd == "go" and mode == "no-bestmove":
        out("info depth 1 score cp 0 pv m1")
        # pings are answered by the loop; stop is ignored
    elif cmd in ("go",):
        out("info depth 1 score cp 0 pv m1")
        out("bestmove m1")
    elif cmd == "stop":
        pass
    else:
        out("ok")
